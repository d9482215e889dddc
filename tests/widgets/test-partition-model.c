/* test-partition-model.c: items grouped by partition, in the order the server returned them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-json.h"
#include "dyno-partition-model.h"

typedef struct {
  guint position;
  guint removed;
  guint added;
} Change;

static void
record_change_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  GArray     *changes)
{
  Change change = { position, removed, added };

  g_array_append_val (changes, change);
}

static void
append_items (GListStore         *store,
              const char * const *items)
{
  for (guint i = 0; items[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoItem) item = dyno_item_from_ddb_json (items[i], -1, &error);
      g_autoptr(DynoItemObject) object = NULL;

      g_assert_no_error (error);
      object = dyno_item_object_new (item, g_list_model_get_n_items (G_LIST_MODEL (store)));
      g_list_store_append (store, object);
    }
}

/* The sort keys of a partition's items, joined with spaces. */
static char *
partition_sort_keys (DynoPartition *partition,
                     const char    *sk_name)
{
  GListModel *items = dyno_partition_get_items (partition);
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr(DynoItemObject) object = g_list_model_get_item (items, i);
      const DynoValue *sk = dyno_item_lookup (dyno_item_object_get_item (object), sk_name);

      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, dyno_value_get_string (sk, NULL));
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static DynoPartition *
partition_at (DynoPartitionModel *model,
              guint               position)
{
  DynoPartition *partition = g_list_model_get_item (G_LIST_MODEL (model), position);

  g_assert_nonnull (partition);
  g_object_unref (partition);  /* the model keeps it */
  return partition;
}

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
  g_autofree char *globex = NULL;
  g_autofree char *acme = NULL;
  DynoPartition *first, *second;

  append_items (store, items);
  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 2);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (model)) == DYNO_TYPE_PARTITION);
  first = partition_at (model, 0);
  second = partition_at (model, 1);
  g_assert_cmpstr (dyno_partition_get_key_text (first), ==, "TENANT#globex");
  g_assert_cmpstr (dyno_partition_get_key_text (second), ==, "TENANT#acme");
  g_assert_cmpuint (dyno_partition_get_n_items (first), ==, 2);
  g_assert_cmpuint (dyno_partition_get_n_items (second), ==, 3);

  globex = partition_sort_keys (first, "sk");
  acme = partition_sort_keys (second, "sk");
  g_assert_cmpstr (globex, ==, "INVOICE#2026-0003 USER#u_5001");
  g_assert_cmpstr (acme, ==, "USER#u_3010 USER#u_3001 EVENT#9");

  g_assert_true (dyno_partition_model_lookup (model, "TENANT#acme") == second);
  g_assert_null (dyno_partition_model_lookup (model, "TENANT#initech"));
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (model), 2));
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
  guint64 expected = 0;

  append_items (store, items);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(DynoItemObject) object = g_list_model_get_item (G_LIST_MODEL (store), i);
      expected += dyno_item_get_size (dyno_item_object_get_item (object));
    }

  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");
  /* "pk" 2 + "A" 1 + "sk" 2 + "1" 1 = 6; the second adds "blob" 4 + 10 */
  g_assert_cmpuint (expected, ==, 6 + 6 + 14);
  g_assert_cmpuint (dyno_partition_get_size (partition_at (model, 0)), ==, expected);
}

static void
test_appends_are_incremental (void)
{
  static const char *page1[] = {
    "{\"pk\":{\"S\":\"DEV#a1\"},\"ts\":{\"S\":\"2026-06-23T10:00Z\"}}",
    "{\"pk\":{\"S\":\"DEV#a1\"},\"ts\":{\"S\":\"2026-06-23T10:05Z\"}}",
    NULL,
  };
  static const char *page2[] = {
    "{\"pk\":{\"S\":\"DEV#a1\"},\"ts\":{\"S\":\"2026-06-23T10:10Z\"}}",
    "{\"pk\":{\"S\":\"DEV#b2\"},\"ts\":{\"S\":\"2026-06-23T09:00Z\"}}",
    "{\"pk\":{\"S\":\"DEV#c3\"},\"ts\":{\"S\":\"2026-06-23T08:00Z\"}}",
    NULL,
  };
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoPartitionModel) model = NULL;
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (Change));
  g_autoptr(GArray) item_changes = g_array_new (FALSE, FALSE, sizeof (Change));
  DynoPartition *a1;
  g_autofree char *keys = NULL;

  append_items (store, page1);
  model = dyno_partition_model_new (G_LIST_MODEL (store), "pk");
  a1 = partition_at (model, 0);
  g_signal_connect (model, "items-changed", G_CALLBACK (record_change_cb), changes);
  g_signal_connect (dyno_partition_get_items (a1), "items-changed", G_CALLBACK (record_change_cb),
                    item_changes);

  /* a second page, appended at once as a run does */
  {
    g_autoptr(GListStore) more = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
    g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func (g_object_unref);

    append_items (more, page2);
    for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (more)); i++)
      g_ptr_array_add (objects, g_list_model_get_item (G_LIST_MODEL (more), i));
    g_list_store_splice (store, 2, 0, objects->pdata, objects->len);
  }

  /* the existing partition keeps its place and grows; the new ones are added after it */
  g_assert_true (partition_at (model, 0) == a1);
  g_assert_cmpuint (changes->len, ==, 1);
  g_assert_cmpuint (g_array_index (changes, Change, 0).position, ==, 1);
  g_assert_cmpuint (g_array_index (changes, Change, 0).removed, ==, 0);
  g_assert_cmpuint (g_array_index (changes, Change, 0).added, ==, 2);
  g_assert_cmpuint (item_changes->len, ==, 1);
  g_assert_cmpuint (g_array_index (item_changes, Change, 0).position, ==, 2);
  keys = partition_sort_keys (a1, "ts");
  g_assert_cmpstr (keys, ==, "2026-06-23T10:00Z 2026-06-23T10:05Z 2026-06-23T10:10Z");
  g_assert_cmpstr (dyno_partition_get_key_text (partition_at (model, 1)), ==, "DEV#b2");
  g_assert_cmpstr (dyno_partition_get_key_text (partition_at (model, 2)), ==, "DEV#c3");

  /* a new run on the same model (cleared, then filled) groups again from the start */
  g_array_set_size (changes, 0);
  g_list_store_remove_all (store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 0);
  append_items (store, page2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 3);
  g_assert_cmpstr (dyno_partition_get_key_text (partition_at (model, 0)), ==, "DEV#a1");
  g_assert_cmpuint (dyno_partition_get_n_items (partition_at (model, 0)), ==, 1);
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

  append_items (store, items);
  model = dyno_partition_model_new (G_LIST_MODEL (store), "id");

  /* 1e2 and 100 are the same number, so the same partition */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 3);
  g_assert_cmpstr (dyno_partition_get_key_text (partition_at (model, 0)), ==, "100");
  g_assert_cmpuint (dyno_partition_get_n_items (partition_at (model, 0)), ==, 2);
  g_assert_cmpstr (dyno_partition_get_key_text (partition_at (model, 1)), ==, "AAEC");
  g_assert_cmpint (dyno_value_get_kind (dyno_partition_get_key (partition_at (model, 1))), ==,
                   DYNO_VALUE_B);
  g_assert_null (dyno_partition_get_key (partition_at (model, 2)));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/partition-model/server-order", test_server_order);
  g_test_add_func ("/partition-model/size", test_size);
  g_test_add_func ("/partition-model/incremental", test_appends_are_incremental);
  g_test_add_func ("/partition-model/key-types", test_key_types);

  return g_test_run ();
}
