/* test-run-view.c: the loaded items narrowed by a text and sorted, while pages arrive and
 * writes change the run (the run is loaded from the engine in memory)
 *
 * Every check compares the view with the same narrowing and order computed here the plain
 * way from the run, and with a copy of the view kept only from its items-changed signals
 * (so a signal that says less or more than what changed fails too).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-engine-backend.h"
#include "../common/engine-table.h"
#include "dyno-item-object.h"
#include "dyno-json.h"
#include "dyno-run-view.h"
#include "dyno-text-match.h"

static const char *words[] = { "alpha", "bravo", "charlie", "delta", "echo", "foxtrot",
                               "golf", "hotel", "india", "juliett" };

static void
keep_result_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static DynoItem *
make_item (guint sk)
{
  g_autoptr(GString) json = g_string_new (NULL);

  g_string_append_printf (json, "{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"%u\"},"
                          "\"word\":{\"S\":\"%s %s\"}", sk, words[sk % 10],
                          words[(sk / 10) % 10]);
  /* one item in seven has no rank; ranks repeat, so ties are in the run's order */
  if (sk % 7 != 3)
    g_string_append_printf (json, ",\"rank\":{\"N\":\"%u\"}", (sk * 37) % 50);
  g_string_append (json, "}");
  return dyno_item_from_ddb_json (json->str, -1, NULL);
}

/* Table "view" (pk S, sk N) with @n items made by make_item(0 … n-1). */
static DynoEngineBackend *
engine_with_items (guint n)
{
  DynoEngineBackend *engine = test_engine_new_table ("view", "N");
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, make_item (i));
  test_engine_write (engine, "view", items);
  return engine;
}

/* ---- the view as its signals told it ------------------------------------------------------ */

static void
mirror_changed_cb (GListModel *model,
                   guint       position,
                   guint       removed,
                   guint       added,
                   GPtrArray  *mirror)
{
  g_assert_cmpuint (position + removed, <=, mirror->len);
  g_ptr_array_remove_range (mirror, position, removed);
  for (guint i = 0; i < added; i++)
    {
      g_autoptr(DynoItemObject) object = g_list_model_get_item (model, position + i);

      g_assert_nonnull (object);
      g_ptr_array_insert (mirror, position + i, dyno_item_object_get_item (object));
    }
  g_assert_cmpuint (mirror->len, ==, g_list_model_get_n_items (model));
}

/* ---- the plain way ------------------------------------------------------------------------ */

typedef struct {
  DynoItem *item;
  guint     position;
} Entry;

static const char *sort_name;
static gboolean sort_descending;

static int
compare_plain (gconstpointer a,
               gconstpointer b)
{
  const Entry *x = a, *y = b;
  const DynoValue *vx = dyno_item_lookup (x->item, sort_name);
  const DynoValue *vy = dyno_item_lookup (y->item, sort_name);
  int cmp;

  if (vx == NULL || vy == NULL)
    cmp = (vx == NULL) - (vy == NULL);
  else
    cmp = sort_descending ? -dyno_value_compare (vx, vy) : dyno_value_compare (vx, vy);
  return cmp != 0 ? cmp : (int) x->position - (int) y->position;
}

static void
assert_view (DynoRunView *view,
             GPtrArray   *mirror)
{
  DynoRun *run = dyno_run_view_get_run (view);
  const char *text = dyno_run_view_get_filter_text (view);
  g_autoptr(DynoTextMatcher) matcher = dyno_text_matcher_new (text);
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (Entry));

  while (dyno_run_view_get_busy (view))
    g_main_context_iteration (NULL, TRUE);

  for (guint i = 0; i < dyno_run_get_n_items (run); i++)
    {
      Entry entry = { dyno_run_get_item (run, i), i };

      if (matcher == NULL || dyno_text_matcher_match_item (matcher, entry.item))
        g_array_append_val (expected, entry);
    }
  sort_name = dyno_run_view_get_sort_attribute (view);
  sort_descending = dyno_run_view_get_sort_descending (view);
  if (sort_name != NULL)
    g_array_sort (expected, compare_plain);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (view)), ==, expected->len);
  g_assert_cmpuint (mirror->len, ==, expected->len);
  for (guint i = 0; i < expected->len; i++)
    {
      Entry *entry = &g_array_index (expected, Entry, i);
      g_autoptr(DynoItemObject) object = g_list_model_get_item (G_LIST_MODEL (view), i);

      g_assert_true (dyno_run_view_get_item (view, i) == entry->item);
      g_assert_cmpuint (dyno_run_view_get_run_position (view, i), ==, entry->position);
      g_assert_true (dyno_item_object_get_item (object) == entry->item);
      g_assert_true (g_ptr_array_index (mirror, i) == entry->item);
    }
}

static void
load_more (DynoRun *run)
{
  guint n = dyno_run_get_n_items (run);

  dyno_run_load_more (run);
  while (dyno_run_get_loading (run) || (dyno_run_get_n_items (run) == n && dyno_run_get_has_more (run)))
    g_main_context_iteration (NULL, TRUE);
}

static DynoItem *
key_of (guint sk)
{
  g_autofree char *json = g_strdup_printf ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"%u\"}}", sk);

  return dyno_item_from_ddb_json (json, -1, NULL);
}

static void
test_view (void)
{
  g_autoptr(DynoEngineBackend) backend = engine_with_items (400);
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "view");
  g_autoptr(DynoRun) run = NULL;
  g_autoptr(DynoRunView) view = NULL;
  g_autoptr(GPtrArray) mirror = g_ptr_array_new ();
  g_autoptr(GPtrArray) gone = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  g_autoptr(DynoItem) edited = NULL;
  g_autoptr(DynoItem) key = NULL;
  g_autoptr(DynoItem) added = NULL;
  guint n_before;

  request->limit = 60;
  run = dyno_run_new (DYNO_BACKEND (backend), request);
  view = dyno_run_view_new (run);
  g_signal_connect (view, "items-changed", G_CALLBACK (mirror_changed_cb), mirror);

  /* nothing set: the run, item for item, as pages come */
  dyno_run_start (run);
  load_more (run);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 60);
  assert_view (view, mirror);

  /* a text: computed on a thread; a page that comes meanwhile is placed too */
  dyno_run_view_set_filter_text (view, "ALPHA");
  g_assert_true (dyno_run_view_get_busy (view));
  load_more (run);
  assert_view (view, mirror);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (view)), ==, 30); /* of sk 0…119: 12 end in alpha, 20 start with it, 2 both */
  load_more (run);
  assert_view (view, mirror);

  /* sorted by rank, either way; items without one last; pages merged in their places */
  dyno_run_view_set_sort (view, "rank", FALSE);
  assert_view (view, mirror);
  load_more (run);
  assert_view (view, mirror);
  dyno_run_view_set_sort (view, "rank", TRUE);
  assert_view (view, mirror);
  load_more (run);
  assert_view (view, mirror);

  /* writes: an edit that stops matching, one that starts to, deletes, an insert */
  key = key_of (10);   /* "alpha bravo" */
  edited = dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"10\"},"
                                    "\"word\":{\"S\":\"zulu\"},\"rank\":{\"N\":\"1\"}}", -1, NULL);
  g_assert_true (dyno_run_replace_item (run, key, edited));
  assert_view (view, mirror);
  g_clear_pointer (&key, dyno_item_unref);
  g_clear_pointer (&edited, dyno_item_unref);
  key = key_of (11);   /* "bravo bravo" */
  edited = dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"11\"},"
                                    "\"word\":{\"S\":\"Alphabet\"},\"rank\":{\"N\":\"49\"}}", -1,
                                    NULL);
  g_assert_true (dyno_run_replace_item (run, key, edited));
  assert_view (view, mirror);
  g_ptr_array_add (gone, key_of (0));
  g_ptr_array_add (gone, key_of (5));
  g_ptr_array_add (gone, key_of (100));
  g_ptr_array_add (gone, key_of (200));
  g_assert_cmpuint (dyno_run_remove_items (run, gone), ==, 4);
  assert_view (view, mirror);
  added = dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"1000\"},"
                                   "\"word\":{\"S\":\"alpha again\"},\"rank\":{\"N\":\"7\"}}", -1,
                                   NULL);
  dyno_run_insert_item (run, 3, added);
  assert_view (view, mirror);

  /* the sort alone, then nothing: the run again */
  dyno_run_view_set_filter_text (view, "");
  assert_view (view, mirror);
  dyno_run_view_set_sort (view, NULL, FALSE);
  assert_view (view, mirror);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (view)), ==,
                    dyno_run_get_n_items (run));

  /* a write below the snapshot while a text is computed: computed again, not misplaced */
  dyno_run_view_set_filter_text (view, "echo");
  g_assert_true (dyno_run_view_get_busy (view));
  g_ptr_array_set_size (gone, 0);
  g_ptr_array_add (gone, key_of (4));   /* "echo alpha" */
  g_assert_cmpuint (dyno_run_remove_items (run, gone), ==, 1);
  assert_view (view, mirror);

  /* a text that matches nothing; then running again empties the run and the view follows */
  dyno_run_view_set_filter_text (view, "no such word");
  assert_view (view, mirror);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (view)), ==, 0);
  dyno_run_view_set_filter_text (view, "delta");
  assert_view (view, mirror);
  n_before = g_list_model_get_n_items (G_LIST_MODEL (view));
  g_assert_cmpuint (n_before, >, 0);
  dyno_run_start (run);
  load_more (run);
  assert_view (view, mirror);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (view)), <, n_before);

  dyno_run_cancel (run);
  while (dyno_run_get_loading (run))
    g_main_context_iteration (NULL, TRUE);
}

/* Enough items for the filter to be split over threads (4096, dyno-run-view.c); the order of
 * the parts is kept. */
static void
test_many (void)
{
  g_autoptr(DynoEngineBackend) backend = engine_with_items (6000);
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "view");
  g_autoptr(DynoRun) run = dyno_run_new (DYNO_BACKEND (backend), request);
  g_autoptr(DynoRunView) view = dyno_run_view_new (run);
  g_autoptr(GPtrArray) mirror = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;

  g_signal_connect (view, "items-changed", G_CALLBACK (mirror_changed_cb), mirror);
  dyno_run_load_all_async (run, keep_result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (dyno_run_load_all_finish (run, result, &error));
  g_clear_object (&result);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 6000);

  dyno_run_view_set_filter_text (view, "hotel");
  assert_view (view, mirror);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (view)), ==, 1140); /* 600 + 600 - 60 */
  dyno_run_view_set_sort (view, "word", TRUE);
  assert_view (view, mirror);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/run-view/filter-sort-writes", test_view);
  g_test_add_func ("/run-view/many", test_many);

  return g_test_run ();
}
