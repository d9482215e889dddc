/* test-partition-model.c: the rows of a view grouped by partition (headings and items), in
 * the order the server returned them
 *
 * Every test watches the model's items-changed signals and applies them to a copy of the
 * rows it keeps (a "mirror"): a signal at the wrong place or with the wrong counts leaves the
 * mirror different from the model, which each check compares, row by row, with what the
 * items say (grouped again by brute force).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-json.h"
#include "dyno-partition-model.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static DynoItemObject *
make_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = dyno_item_from_ddb_json (json, -1, &error);

  g_assert_no_error (error);
  return dyno_item_object_new (item, 0);
}

static DynoItemObject *
make_pk_sk (const char *pk,
            const char *sk)
{
  g_autofree char *json = g_strdup_printf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"%s\"}}",
                                           pk, sk);
  return make_object (json);
}

static void
append_items (GListStore         *store,
              const char * const *items)
{
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func (g_object_unref);

  /* at once, as a run adds a page */
  for (guint i = 0; items[i] != NULL; i++)
    g_ptr_array_add (objects, make_object (items[i]));
  g_list_store_splice (store, g_list_model_get_n_items (G_LIST_MODEL (store)), 0,
                       objects->pdata, objects->len);
}

/* "pk:sk" pairs separated by spaces, appended at once */
static void
append_pairs (GListStore *store,
              const char *pairs)
{
  g_auto(GStrv) words = g_strsplit (pairs, " ", -1);
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; words[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit (words[i], ":", 2);

      g_ptr_array_add (objects, make_pk_sk (parts[0], parts[1]));
    }
  g_list_store_splice (store, g_list_model_get_n_items (G_LIST_MODEL (store)), 0,
                       objects->pdata, objects->len);
}

static const char *
sk_of (DynoItemObject *object)
{
  const DynoValue *sk = dyno_item_lookup (dyno_item_object_get_item (object), "sk");

  return sk ? dyno_value_get_string (sk, NULL) : "";
}

/* A row as text: "[KEY]" for a heading, the sort key for an item. */
static char *
row_text (GListModel *model,
          guint       position)
{
  g_autoptr(GObject) object = g_list_model_get_item (model, position);

  g_assert_nonnull (object);
  if (DYNO_IS_PARTITION (object))
    return g_strdup_printf ("[%s]", dyno_partition_get_key_text (DYNO_PARTITION (object)));
  g_assert_true (DYNO_IS_ITEM_OBJECT (object));
  return g_strdup (sk_of (DYNO_ITEM_OBJECT (object)));
}

static char *
rows_text (GListModel *model)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autofree char *text = row_text (model, i);

      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, text);
    }
  g_assert_null (g_list_model_get_item (model, g_list_model_get_n_items (model)));
  return g_string_free (out, FALSE);
}

typedef struct {
  GListModel *model;
  GPtrArray  *rows;      /* char*, the rows as the signals said */
  GString    *changes;   /* "position-removed+added " for each signal */
} Mirror;

static void
mirror_changed_cb (GListModel *model,
                   guint       position,
                   guint       removed,
                   guint       added,
                   Mirror     *mirror)
{
  g_assert_cmpuint (position + removed, <=, mirror->rows->len);
  g_ptr_array_remove_range (mirror->rows, position, removed);
  for (guint i = 0; i < added; i++)
    g_ptr_array_insert (mirror->rows, (int) (position + i), row_text (model, position + i));
  g_assert_cmpuint (mirror->rows->len, ==, g_list_model_get_n_items (model));
  g_string_append_printf (mirror->changes, "%u-%u+%u ", position, removed, added);
}

static Mirror *
mirror_new (GListModel *model)
{
  Mirror *mirror = g_new0 (Mirror, 1);

  mirror->model = g_object_ref (model);
  mirror->rows = g_ptr_array_new_with_free_func (g_free);
  mirror->changes = g_string_new (NULL);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (mirror->rows, row_text (model, i));
  g_signal_connect (model, "items-changed", G_CALLBACK (mirror_changed_cb), mirror);
  return mirror;
}

static void
mirror_free (Mirror *mirror)
{
  g_signal_handlers_disconnect_by_func (mirror->model, mirror_changed_cb, mirror);
  g_object_unref (mirror->model);
  g_ptr_array_unref (mirror->rows);
  g_string_free (mirror->changes, TRUE);
  g_free (mirror);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Mirror, mirror_free)

/* The signals since the last call, and whether the mirror is the model. */
static char *
mirror_take_changes (Mirror *mirror)
{
  g_autofree char *rows = rows_text (mirror->model);
  GString *joined = g_string_new (NULL);
  char *changes;

  for (guint i = 0; i < mirror->rows->len; i++)
    {
      if (i > 0)
        g_string_append_c (joined, ' ');
      g_string_append (joined, g_ptr_array_index (mirror->rows, i));
    }
  g_assert_cmpstr (joined->str, ==, rows);
  g_string_free (joined, TRUE);

  if (mirror->changes->len > 0)
    g_string_truncate (mirror->changes, mirror->changes->len - 1);
  changes = g_strdup (mirror->changes->str);
  g_string_truncate (mirror->changes, 0);
  return changes;
}

/* The rows by brute force: the model's partitions in its order, each with the items of
 * @store holding its key, in store order, and their counts and sizes. */
static void
assert_grouping (DynoPartitionModel *model,
                 GListStore         *store)
{
  GListModel *items = G_LIST_MODEL (store);
  guint n = g_list_model_get_n_items (items);
  guint n_partitions = dyno_partition_model_get_n_partitions (model);
  g_autoptr(GString) want = g_string_new (NULL);
  g_autofree char *got = rows_text (G_LIST_MODEL (model));
  guint seen = 0;

  for (guint p = 0; p < n_partitions; p++)
    {
      DynoPartition *partition = dyno_partition_model_get_partition (model, p);
      const char *key = dyno_partition_get_key_text (partition);
      guint count = 0;
      guint64 size = 0;

      guint rows_before = want->len > 0;

      /* its heading's row: the rows before it */
      for (gsize c = 0; c < want->len; c++)
        rows_before += want->str[c] == ' ';
      g_assert_cmpuint (dyno_partition_model_get_row (model, partition), ==, rows_before);
      g_string_append_printf (want, "%s[%s]", want->len > 0 ? " " : "", key);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(DynoItemObject) object = g_list_model_get_item (items, i);
          DynoItem *item = dyno_item_object_get_item (object);
          g_autofree char *text = dyno_value_to_key_text (dyno_item_lookup (item, "pk"));

          if (!g_str_equal (text, key))
            continue;
          g_assert_cmpuint (dyno_partition_get_position (partition, count), ==, i);
          count++;
          size += dyno_item_get_size (item);
          if (dyno_partition_get_expanded (partition))
            g_string_append_printf (want, " %s", sk_of (object));
        }
      g_assert_cmpuint (count, >, 0);
      g_assert_cmpuint (dyno_partition_get_n_items (partition), ==, count);
      g_assert_cmpuint (dyno_partition_get_size (partition), ==, size);
      g_assert_true (dyno_partition_model_lookup (model, key) == partition);
      seen += count;
    }
  /* every item is in a partition */
  g_assert_cmpuint (seen, ==, n);
  g_assert_cmpstr (got, ==, want->str);
}

static DynoPartition *
partition_named (DynoPartitionModel *model,
                 const char         *key)
{
  DynoPartition *partition = dyno_partition_model_lookup (model, key);

  g_assert_nonnull (partition);
  return partition;
}

/* ---- the tests ---------------------------------------------------------------------------- */

static void
test_server_order (void)
{
  /* A Scan returns partitions in hash order and each partition's items in sort-key order;
   * neither is alphabetical here, and the model must not reorder anything. */
  static const char *items[] = {
    "{\"pk\":{\"S\":\"TENANT#globex\"},\"sk\":{\"S\":\"INVOICE#2026-0003\"}}",
    "{\"pk\":{\"S\":\"TENANT#globex\"},\"sk\":{\"S\":\"USER#u_5001\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3010\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"},\"name\":{\"S\":\"Ana\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"EVENT#9\"}}",
    NULL,
  };
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoPartitionModel) model = NULL;
  g_autofree char *rows = NULL;
  g_autoptr(GObject) item = NULL;

  append_items (store, items);
  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");

  g_assert_false (dyno_partition_model_get_pending (model));
  g_assert_cmpuint (dyno_partition_model_get_n_partitions (model), ==, 2);
  rows = rows_text (G_LIST_MODEL (model));
  g_assert_cmpstr (rows, ==, "[TENANT#globex] INVOICE#2026-0003 USER#u_5001 "
                             "[TENANT#acme] USER#u_3010 USER#u_3001 EVENT#9");
  assert_grouping (model, store);

  g_assert_true (dyno_partition_model_get_partition (model, 1) ==
                 dyno_partition_model_lookup (model, "TENANT#acme"));
  g_assert_null (dyno_partition_model_lookup (model, "TENANT#initech"));
  g_assert_cmpuint (dyno_partition_model_get_row (model, partition_named (model, "TENANT#acme")),
                    ==, 3);

  /* an item row is the list's own object, made when asked for */
  item = g_list_model_get_item (G_LIST_MODEL (model), 5);
  g_assert_true (DYNO_IS_ITEM_OBJECT (item));
  g_assert_cmpstr (dyno_value_get_string (
                     dyno_item_lookup (dyno_item_object_get_item (DYNO_ITEM_OBJECT (item)),
                                       "name"), NULL), ==, "Ana");
}

static void
test_size (void)
{
  static const char *items[] = {
    "{\"pk\":{\"S\":\"A\"},\"sk\":{\"S\":\"1\"}}",
    "{\"pk\":{\"S\":\"A\"},\"sk\":{\"S\":\"2\"},\"blob\":{\"S\":\"0123456789\"}}",
    NULL,
  };
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoPartitionModel) model = NULL;

  append_items (store, items);
  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");
  /* "pk" 2 + "A" 1 + "sk" 2 + "1" 1 = 6; the second adds "blob" 4 + 10 */
  g_assert_cmpuint (dyno_partition_get_size (partition_named (model, "A")), ==, 6 + 6 + 14);
}

static void
count_notify (guint *count)
{
  (*count)++;
}

static void
test_pages_appended (void)
{
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoPartitionModel) model = NULL;
  g_autoptr(Mirror) mirror = NULL;
  g_autofree char *changes = NULL;
  DynoPartition *a;
  guint notified = 0;

  append_pairs (store, "A:a1 A:a2");
  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");
  mirror = mirror_new (G_LIST_MODEL (model));
  a = partition_named (model, "A");
  g_signal_connect_swapped (a, "notify::n-items", G_CALLBACK (count_notify), &notified);

  /* the existing partition grows in place (one signal), the new ones come after it (one) */
  append_pairs (store, "A:a3 B:b1 C:c1 B:b2");
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "3-0+1 4-0+5");
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (dyno_partition_get_n_items (a), ==, 3);
  assert_grouping (model, store);

  /* a page for partitions that are not the last: each grows where it is, top to bottom */
  g_free (changes);
  append_pairs (store, "C:c2 A:a4 B:b3");
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "4-0+1 8-0+1 11-0+1");
  assert_grouping (model, store);

  /* an empty page changes nothing */
  g_free (changes);
  g_list_store_splice (store, g_list_model_get_n_items (G_LIST_MODEL (store)), 0, NULL, 0);
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "");
}

static void
test_non_contiguous (void)
{
  /* parallel Scan segments interleave partitions: a partition's items are not together in
   * the list, and each row still maps to the item's place in it */
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoPartitionModel) model = NULL;
  g_autoptr(Mirror) mirror = NULL;
  g_autofree char *changes = NULL;
  g_autofree char *rows = NULL;
  DynoPartition *b;

  append_pairs (store, "A:a1 B:b1 A:a2 C:c1 B:b2");
  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");
  mirror = mirror_new (G_LIST_MODEL (model));
  rows = rows_text (G_LIST_MODEL (model));
  g_assert_cmpstr (rows, ==, "[A] a1 a2 [B] b1 b2 [C] c1");
  b = partition_named (model, "B");
  g_assert_cmpuint (dyno_partition_get_position (b, 0), ==, 1);
  g_assert_cmpuint (dyno_partition_get_position (b, 1), ==, 4);
  assert_grouping (model, store);

  append_pairs (store, "C:c2 A:a3");
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "3-0+1 9-0+1");
  assert_grouping (model, store);
  g_assert_cmpuint (dyno_partition_get_position (partition_named (model, "A"), 2), ==, 6);
}

static void
test_collapse_expand (void)
{
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoPartitionModel) model = NULL;
  g_autoptr(Mirror) mirror = NULL;
  g_autofree char *changes = NULL;
  g_autofree char *rows = NULL;
  DynoPartition *a, *b;
  guint notified = 0;

  append_pairs (store, "A:a1 A:a2 B:b1 A:a3 C:c1");
  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");
  mirror = mirror_new (G_LIST_MODEL (model));
  a = partition_named (model, "A");
  b = partition_named (model, "B");
  g_assert_true (dyno_partition_get_expanded (a));
  g_signal_connect_swapped (a, "notify::expanded", G_CALLBACK (count_notify), &notified);

  /* collapsed, a partition is its heading only */
  dyno_partition_model_set_expanded (model, a, FALSE);
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "1-3+0");
  g_assert_cmpuint (notified, ==, 1);
  g_assert_false (dyno_partition_get_expanded (a));
  rows = rows_text (G_LIST_MODEL (model));
  g_assert_cmpstr (rows, ==, "[A] [B] b1 [C] c1");
  g_assert_cmpuint (dyno_partition_model_get_row (model, b), ==, 1);
  assert_grouping (model, store);

  /* again: nothing */
  g_free (changes);
  dyno_partition_model_set_expanded (model, a, FALSE);
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "");
  g_assert_cmpuint (notified, ==, 1);

  /* a collapsed partition grows without rows; the others still do */
  g_free (changes);
  append_pairs (store, "A:a4 B:b2");
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "3-0+1");
  g_assert_cmpuint (dyno_partition_get_n_items (a), ==, 4);
  assert_grouping (model, store);

  /* expanded again, all its items come back, in order */
  g_free (changes);
  dyno_partition_model_set_expanded (model, a, TRUE);
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "1-0+4");
  g_free (rows);
  rows = rows_text (G_LIST_MODEL (model));
  g_assert_cmpstr (rows, ==, "[A] a1 a2 a3 a4 [B] b1 b2 [C] c1");

  /* the last partition */
  g_free (changes);
  dyno_partition_model_set_expanded (model, partition_named (model, "C"), FALSE);
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "9-1+0");
  assert_grouping (model, store);
}

static void
test_edits_in_place (void)
{
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoPartitionModel) model = NULL;
  g_autoptr(Mirror) mirror = NULL;
  g_autofree char *changes = NULL;
  g_autofree char *rows = NULL;
  g_autoptr(DynoItemObject) edited = NULL;
  DynoPartition *a;

  append_pairs (store, "A:a1 B:b1 A:a2 C:c1 B:b2");
  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");
  mirror = mirror_new (G_LIST_MODEL (model));
  a = partition_named (model, "A");

  /* an item edited (same key): its row only */
  edited = make_object ("{\"pk\":{\"S\":\"A\"},\"sk\":{\"S\":\"a2\"},\"x\":{\"S\":\"0123\"}}");
  g_list_store_splice (store, 2, 1, (gpointer *) &edited, 1);
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "2-1+1");
  assert_grouping (model, store);
  g_clear_object (&edited);

  /* an item whose partition key changed moves to that partition */
  g_free (changes);
  edited = make_pk_sk ("C", "a1");
  g_list_store_splice (store, 0, 1, (gpointer *) &edited, 1);
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "1-1+0 6-0+1");
  rows = rows_text (G_LIST_MODEL (model));
  g_assert_cmpstr (rows, ==, "[A] a2 [B] b1 b2 [C] a1 c1");
  assert_grouping (model, store);

  /* removed: the items after it keep their rows' items */
  g_free (changes);
  g_list_store_remove (store, 1);   /* b1 */
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "3-1+0");
  assert_grouping (model, store);

  /* the last item of a partition: its heading goes too */
  g_free (changes);
  g_list_store_remove (store, 1);   /* a2 */
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "0-2+0");
  g_assert_null (dyno_partition_model_lookup (model, "A"));
  assert_grouping (model, store);

  /* inserted: into its partition at its place in the list */
  g_free (changes);
  g_clear_object (&edited);
  edited = make_pk_sk ("C", "c0");
  g_list_store_insert (store, 0, edited);      /* c0 a1 c1 b2 */
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "3-0+1");
  assert_grouping (model, store);

  /* a new partition: where it first appears */
  g_free (changes);
  g_clear_object (&edited);
  edited = make_pk_sk ("D", "d1");
  g_list_store_insert (store, 3, edited);      /* c0 a1 c1 d1 b2 */
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "6-0+2");
  g_free (rows);
  rows = rows_text (G_LIST_MODEL (model));
  g_assert_cmpstr (rows, ==, "[B] b2 [C] c0 a1 c1 [D] d1");
  assert_grouping (model, store);

  /* edits in a collapsed partition show in its counts only */
  g_free (changes);
  g_clear_object (&edited);
  a = partition_named (model, "C");
  dyno_partition_model_set_expanded (model, a, FALSE);
  g_free (mirror_take_changes (mirror));
  g_list_store_remove (store, 0);              /* c0 */
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "");
  assert_grouping (model, store);
}

static void
test_new_run (void)
{
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoPartitionModel) model = NULL;
  g_autoptr(Mirror) mirror = NULL;
  g_autofree char *changes = NULL;

  append_pairs (store, "A:a1 B:b1 A:a2");
  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");
  mirror = mirror_new (G_LIST_MODEL (model));
  dyno_partition_model_set_expanded (model, partition_named (model, "A"), FALSE);
  g_free (mirror_take_changes (mirror));

  /* a new run on the same list (cleared, then filled) groups again from the start */
  g_list_store_remove_all (store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 0);
  append_pairs (store, "B:b9 A:a9");
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "0-3+0 0-0+4");
  assert_grouping (model, store);
  g_assert_true (dyno_partition_get_expanded (partition_named (model, "A")));
}

static void
test_slices (void)
{
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoPartitionModel) model = NULL;
  g_autoptr(Mirror) mirror = NULL;
  g_autofree char *changes = NULL;
  guint steps = 0;

  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");
  dyno_partition_model_set_slice (model, 2);
  mirror = mirror_new (G_LIST_MODEL (model));

  /* a big page: the first slice at once, the rest in idle time, each step exact */
  append_pairs (store, "A:a1 A:a2 B:b1 A:a3 B:b2");
  g_assert_true (dyno_partition_model_get_pending (model));
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "0-0+3");

  /* a page meanwhile waits its turn; an edit of a grouped item is applied at once */
  append_pairs (store, "C:c1");
  {
    g_autoptr(DynoItemObject) edited = make_pk_sk ("A", "a1*");

    g_list_store_splice (store, 0, 1, (gpointer *) &edited, 1);
  }
  g_free (changes);
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "1-1+1");

  while (dyno_partition_model_get_pending (model))
    {
      g_main_context_iteration (NULL, TRUE);
      steps++;
    }
  g_assert_cmpuint (steps, >=, 2);
  g_free (changes);
  changes = mirror_take_changes (mirror);
  g_assert_cmpstr (changes, ==, "3-0+1 4-0+2 6-0+1 7-0+2");
  assert_grouping (model, store);
}

static void
test_random_changes (void)
{
  /* appends, edits, inserts, removals and collapses in any order: the signals always say
   * what changed, and the rows are always the brute-force grouping */
  static const char *keys[] = { "P0", "P1", "P2", "P3", "P4", "P5" };
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoPartitionModel) model = NULL;
  g_autoptr(Mirror) mirror = NULL;
  guint serial = 0;

  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");
  mirror = mirror_new (G_LIST_MODEL (model));

  for (guint round = 0; round < 400; round++)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (store));
      guint what = g_test_rand_int_range (0, 10);
      g_autofree char *sk = g_strdup_printf ("s%u", serial++);
      g_autoptr(DynoItemObject) object = make_pk_sk (keys[g_test_rand_int_range (0, 6)], sk);

      if (what < 3 || n == 0)
        {
          g_autoptr(GPtrArray) page = g_ptr_array_new_with_free_func (g_object_unref);
          guint size = g_test_rand_int_range (0, 6);

          for (guint i = 0; i < size; i++)
            {
              g_autofree char *more = g_strdup_printf ("s%u", serial++);

              g_ptr_array_add (page, make_pk_sk (keys[g_test_rand_int_range (0, 6)], more));
            }
          g_list_store_splice (store, n, 0, page->pdata, page->len);
        }
      else if (what < 5)
        {
          g_list_store_insert (store, g_test_rand_int_range (0, n + 1), object);
        }
      else if (what < 7)
        {
          g_list_store_remove (store, g_test_rand_int_range (0, n));
        }
      else if (what < 8)
        {
          g_list_store_splice (store, g_test_rand_int_range (0, n), 1, (gpointer *) &object, 1);
        }
      else
        {
          guint n_partitions = dyno_partition_model_get_n_partitions (model);

          if (n_partitions > 0)
            {
              DynoPartition *partition =
                dyno_partition_model_get_partition (model,
                                                    g_test_rand_int_range (0, n_partitions));

              dyno_partition_model_set_expanded (model, partition,
                                                 !dyno_partition_get_expanded (partition));
            }
        }
      g_free (mirror_take_changes (mirror));
      assert_grouping (model, store);
    }
}

static void
test_key_types (void)
{
  static const char *items[] = {
    "{\"id\":{\"N\":\"1e2\"},\"v\":{\"S\":\"a\"}}",
    "{\"id\":{\"N\":\"100\"},\"v\":{\"S\":\"b\"}}",
    "{\"id\":{\"B\":\"AAEC\"},\"v\":{\"S\":\"c\"}}",
    "{\"v\":{\"S\":\"no key (a projection without it)\"}}",
    NULL,
  };
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoPartitionModel) model = NULL;
  DynoPartition *first;

  append_items (store, items);
  model = dyno_partition_model_new (G_LIST_MODEL (store), "id");

  /* 1e2 and 100 are the same number, so the same partition */
  g_assert_cmpuint (dyno_partition_model_get_n_partitions (model), ==, 3);
  first = dyno_partition_model_get_partition (model, 0);
  g_assert_cmpstr (dyno_partition_get_key_text (first), ==, "100");
  g_assert_cmpuint (dyno_partition_get_n_items (first), ==, 2);
  g_assert_cmpstr (dyno_partition_get_key_text (dyno_partition_model_get_partition (model, 1)),
                   ==, "AAEC");
  g_assert_cmpint (dyno_value_get_kind (
                     dyno_partition_get_key (dyno_partition_model_get_partition (model, 1))),
                   ==, DYNO_VALUE_B);
  g_assert_null (dyno_partition_get_key (dyno_partition_model_get_partition (model, 2)));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 3 + 4);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/partition-model/server-order", test_server_order);
  g_test_add_func ("/partition-model/size", test_size);
  g_test_add_func ("/partition-model/pages-appended", test_pages_appended);
  g_test_add_func ("/partition-model/non-contiguous", test_non_contiguous);
  g_test_add_func ("/partition-model/collapse-expand", test_collapse_expand);
  g_test_add_func ("/partition-model/edits-in-place", test_edits_in_place);
  g_test_add_func ("/partition-model/new-run", test_new_run);
  g_test_add_func ("/partition-model/slices", test_slices);
  g_test_add_func ("/partition-model/random-changes", test_random_changes);
  g_test_add_func ("/partition-model/key-types", test_key_types);

  return g_test_run ();
}
