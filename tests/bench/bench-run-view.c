/* bench-run-view.c: filtering and sorting the loaded items of a run, at 100,000 and 1,000,000
 *
 * Loads N generated items (several shapes: orders, users and events with maps, lists and
 * sets, about 400 bytes of DynamoDB JSON each) into the embedded engine in memory, Scans them
 * into a DynoRun, then times on a DynoRunView:
 *
 *   - the main thread's part of setting a text or a sort (the snapshot it hands the workers);
 *   - the wall time until the result is shown (busy turns FALSE), for a text that matches
 *     almost nothing, one that matches a third, one of non-ASCII letters, and sorts by a
 *     string and by a number;
 *   - placing one new item (as the user adds one) into a filtered, sorted view.
 *
 * It asserts nothing.  Run it with
 *   meson test -C BUILD --benchmark run-view -v
 * or as BUILD/tests/bench/bench-run-view [N…]  (default: 100000 1000000).
 * Lines are `name value unit`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-engine-backend.h"
#include "../common/engine-table.h"
#include "dyno-json.h"
#include "dyno-run-view.h"

static const char *words[] = { "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
                               "hotel", "india", "juliett", "kilo", "lima", "mike", "november" };

static DynoItem *
make_item (guint i)
{
  g_autoptr(GString) json = g_string_new (NULL);
  const char *w1 = words[(i * 7) % G_N_ELEMENTS (words)];
  const char *w2 = words[(i / 3) % G_N_ELEMENTS (words)];

  g_string_append_printf (json, "{\"pk\":{\"S\":\"TENANT#t%04u\"}", i % 1000);
  switch (i % 3)
    {
    case 0:
      g_string_append_printf (json, ",\"sk\":{\"S\":\"ORDER#o%08u\"},\"status\":{\"S\":\"%s\"},"
                              "\"total\":{\"N\":\"%u.%02u\"},\"lines\":{\"L\":["
                              "{\"M\":{\"sku\":{\"S\":\"SKU-%s-%u\"},\"qty\":{\"N\":\"%u\"}}},"
                              "{\"M\":{\"sku\":{\"S\":\"SKU-%s-%u\"},\"qty\":{\"N\":\"%u\"}}}]}",
                              i, (i % 5) ? "shipped" : "open", i % 9973, i % 100, w1, i % 97,
                              1 + i % 4, w2, i % 89, 1 + i % 3);
      break;
    case 1:
      g_string_append_printf (json, ",\"sk\":{\"S\":\"USER#u%08u\"},\"name\":{\"S\":\"%s %s\"},"
                              "\"email\":{\"S\":\"%s.%u@example.com\"},\"tags\":{\"SS\":[\"%s\","
                              "\"tier-%u\"]},\"city\":{\"S\":\"%s\"}", i, w1, w2, w2, i, w1,
                              i % 4, (i % 11) ? "Lisboa" : "São Paulo");
      break;
    default:
      g_string_append_printf (json, ",\"sk\":{\"S\":\"EVT#2026-%02u-%02uT%02u:%02u:00Z#%u\"},"
                              "\"kind\":{\"S\":\"%s\"},\"actor\":{\"S\":\"u%08u\"},"
                              "\"detail\":{\"M\":{\"ip\":{\"S\":\"10.%u.%u.%u\"},"
                              "\"ok\":{\"BOOL\":%s},\"note\":{\"S\":\"%s %s %s\"}}}",
                              1 + i % 12, 1 + i % 28, i % 24, i % 60, i, w2, i % 50000,
                              i % 256, (i / 256) % 256, i % 251, (i % 2) ? "true" : "false", w1,
                              w2, w1);
    }
  g_string_append (json, "}");
  return dyno_item_from_ddb_json (json->str, -1, NULL);
}

static void
keep_result_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
wait_result (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static DynoEngineBackend *
engine_with_items (guint n)
{
  DynoEngineBackend *engine = test_engine_new_table ("bench", "S");

  /* in batches of 10,000: the generated items of one batch at a time in memory */
  for (guint start = 0; start < n; start += 10000)
    {
      g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);

      for (guint i = start; i < MIN (n, start + 10000); i++)
        g_ptr_array_add (items, make_item (i));
      test_engine_write (engine, "bench", items);
    }
  return engine;
}

static void
wait_idle (DynoRunView *view)
{
  while (dyno_run_view_get_busy (view))
    g_main_context_iteration (NULL, TRUE);
}

/* Sets a text or sort; prints the main thread's share and the time to the result shown. */
static void
measure (DynoRunView *view,
         guint        n,
         const char  *name,
         const char  *text,
         const char  *sort,
         gboolean     descending)
{
  gint64 t0 = g_get_monotonic_time (), t1;

  if (sort != NULL)
    dyno_run_view_set_sort (view, sort, descending);
  else
    dyno_run_view_set_filter_text (view, text);
  t1 = g_get_monotonic_time ();
  wait_idle (view);
  g_print ("run_view.%s.main_thread.%u %.2f ms\n", name, n, (t1 - t0) / 1000.0);
  g_print ("run_view.%s.shown.%u %.2f ms\n", name, n, (g_get_monotonic_time () - t0) / 1000.0);
  g_print ("run_view.%s.matched.%u %u items\n", name, n,
           g_list_model_get_n_items (G_LIST_MODEL (view)));
}

static void
bench (guint n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngineBackend) backend = NULL;
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "bench");
  g_autoptr(DynoRun) run = NULL;
  g_autoptr(DynoRunView) view = NULL;
  GAsyncResult *result = NULL;
  gint64 t0 = g_get_monotonic_time ();

  backend = engine_with_items (n);
  g_print ("run_view.load_engine.%u %.2f s\n", n, (g_get_monotonic_time () - t0) / 1e6);
  t0 = g_get_monotonic_time ();
  run = dyno_run_new (DYNO_BACKEND (backend), request);
  dyno_run_load_all_async (run, keep_result_cb, &result);
  wait_result (&result);
  g_assert_true (dyno_run_load_all_finish (run, result, &error));
  g_clear_object (&result);
  g_print ("run_view.scan_into_run.%u %.2f s\n", n, (g_get_monotonic_time () - t0) / 1e6);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, n);

  view = dyno_run_view_new (run);
  measure (view, n, "filter_rare", "november.999", NULL, FALSE);
  measure (view, n, "filter_third", "shipped", NULL, FALSE);
  measure (view, n, "filter_unicode", "são", NULL, FALSE);
  measure (view, n, "filter_none", "", NULL, FALSE);
  measure (view, n, "sort_string", NULL, "sk", FALSE);
  measure (view, n, "sort_number_desc", NULL, "total", TRUE);

  /* an item added by the user (a duplicate, say) into the sorted, filtered view */
  measure (view, n, "filter_third_sorted", "shipped", NULL, FALSE);
  {
    gint64 t = g_get_monotonic_time ();

    dyno_run_insert_item (run, 7, make_item (n));
    g_print ("run_view.sorted_insert_one_item.%u %.2f ms\n", n,
             (g_get_monotonic_time () - t) / 1000.0);
  }
}

int
main (int    argc,
      char **argv)
{
  if (argc < 2)
    {
      bench (100000);
      bench (1000000);
    }
  for (int i = 1; i < argc; i++)
    bench ((guint) g_ascii_strtoull (argv[i], NULL, 10));
  return 0;
}
