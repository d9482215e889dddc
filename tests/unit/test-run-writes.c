/* test-run-writes.c: writes change a loaded run in place; the pages loaded stay, the ledger
 * keeps its pages consistent and gets a line per write (the run is loaded from the engine in
 * memory)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-engine-backend.h"
#include "../common/engine-table.h"
#include "dyno-json.h"
#include "dyno-run.h"

#define N_ITEMS 250

typedef struct {
  guint position;
  guint removed;
  guint added;
} Change;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  GArray     *changes)
{
  Change change = { position, removed, added };

  g_array_append_val (changes, change);
}

static void
keep_result_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Table "writes" (pk S, sk N) with N_ITEMS items {"pk":"p","sk":i,"data":"…"}, i from 0. */
static DynoEngineBackend *
engine_with_items (void)
{
  DynoEngineBackend *engine = test_engine_new_table ("writes", "N");
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);

  for (guint i = 0; i < N_ITEMS; i++)
    {
      g_autofree char *item = g_strdup_printf ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"%u\"},"
                                               "\"data\":{\"S\":\"xxxxxxxxxxxxxxxx\"}}", i);

      g_ptr_array_add (items, dyno_item_from_ddb_json (item, -1, NULL));
    }
  test_engine_write (engine, "writes", items);
  return engine;
}

static DynoItem *
key_of (guint sk)
{
  g_autofree char *json = g_strdup_printf ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"%u\"}}", sk);

  return dyno_item_from_ddb_json (json, -1, NULL);
}

static guint
sk_at (DynoRun *run,
       guint    position)
{
  return (guint) g_ascii_strtoull (dyno_value_get_string (
                   dyno_item_lookup (dyno_run_get_item (run, position), "sk"), NULL), NULL, 10);
}

/* The read pages cover the model without gaps or overlaps, in order; writes hold no items. */
static void
assert_ledger (DynoRun *run,
               guint    n_read_pages,
               guint    n_writes)
{
  GListModel *pages = dyno_run_get_pages (run);
  guint covered = 0, reads = 0, writes = 0, end = 0;

  for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr(DynoRunPage) page = g_list_model_get_item (pages, i);

      if (dyno_run_page_get_operation (page) != NULL)
        {
          writes++;
          continue;
        }
      g_assert_cmpuint (dyno_run_page_get_index (page), ==, reads);
      g_assert_cmpuint (dyno_run_page_get_position (page), >=, end);
      end = dyno_run_page_get_position (page) + dyno_run_page_get_n_items (page);
      covered += dyno_run_page_get_n_items (page);
      reads++;
    }
  g_assert_cmpuint (reads, ==, n_read_pages);
  g_assert_cmpuint (writes, ==, n_writes);
  g_assert_cmpuint (dyno_run_get_n_pages (run), ==, n_read_pages);
  g_assert_cmpuint (end, <=, dyno_run_get_n_items (run));
  g_assert_cmpuint (covered, <=, dyno_run_get_n_items (run));
}

static void
test_writes_in_place (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngineBackend) backend = engine_with_items ();
  /* one partition: the pages come in sk order */
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "writes");
  g_autoptr(DynoRun) run = NULL;
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (Change));
  g_autoptr(GPtrArray) gone = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  g_autoptr(DynoItem) edited = NULL;
  g_autoptr(DynoItem) key = NULL;
  g_autoptr(DynoItem) added = NULL;
  GAsyncResult *result = NULL;
  Change *last;
  guint n_pages;

  request->limit = 50;
  run = dyno_run_new (DYNO_BACKEND (backend), request);
  dyno_run_load_all_async (run, keep_result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (dyno_run_load_all_finish (run, result, &error));
  g_clear_object (&result);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, N_ITEMS);
  n_pages = dyno_run_get_n_pages (run);
  g_assert_cmpuint (n_pages, >=, 5);
  assert_ledger (run, n_pages, 0);
  g_signal_connect (run, "items-changed", G_CALLBACK (items_changed_cb), changes);

  /* an edit replaces the one row, in its place; nothing else moves */
  edited = dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"120\"},"
                                    "\"data\":{\"S\":\"edited\"}}", -1, &error);
  g_assert_no_error (error);
  key = key_of (120);
  g_assert_cmpint (dyno_run_find_item (run, key), ==, 120);
  g_assert_true (dyno_run_replace_item (run, key, edited));
  g_assert_cmpuint (changes->len, ==, 1);
  last = &g_array_index (changes, Change, 0);
  g_assert_cmpuint (last->position, ==, 120);
  g_assert_cmpuint (last->removed, ==, 1);
  g_assert_cmpuint (last->added, ==, 1);
  g_assert_true (dyno_run_get_item (run, 120) == edited);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, N_ITEMS);
  dyno_run_record_write (run, "UpdateItem", 1, 1.0, 1000);
  assert_ledger (run, n_pages, 1);
  g_assert_cmpfloat (dyno_run_get_write_capacity (run), ==, 1.0);

  /* a key that is not loaded changes nothing */
  g_clear_pointer (&key, dyno_item_unref);
  key = key_of (9999);
  g_assert_false (dyno_run_replace_item (run, key, edited));
  g_assert_cmpuint (changes->len, ==, 1);

  /* deletes take out exactly their rows; the pages around them stay loaded */
  g_ptr_array_add (gone, key_of (0));
  g_ptr_array_add (gone, key_of (120));
  g_ptr_array_add (gone, key_of (249));
  g_ptr_array_add (gone, key_of (9999));
  g_assert_cmpuint (dyno_run_remove_items (run, gone), ==, 3);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, N_ITEMS - 3);
  g_assert_cmpuint (sk_at (run, 0), ==, 1);
  g_assert_cmpuint (sk_at (run, 118), ==, 119);
  g_assert_cmpuint (sk_at (run, 119), ==, 121);
  g_assert_cmpuint (sk_at (run, N_ITEMS - 4), ==, 248);
  dyno_run_record_write (run, "DeleteItem", 3, -1, 1000);
  assert_ledger (run, n_pages, 2);
  g_assert_cmpfloat (dyno_run_get_write_capacity (run), ==, 1.0);

  /* a new item goes where it is put (e.g. after the one it was duplicated from) */
  added = dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"1000\"}}", -1, &error);
  g_assert_no_error (error);
  dyno_run_insert_item (run, 10, added);
  g_assert_true (dyno_run_get_item (run, 10) == added);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, N_ITEMS - 2);
  assert_ledger (run, n_pages, 2);

  /* running again starts a new ledger */
  g_signal_handlers_disconnect_by_func (run, items_changed_cb, changes);
  dyno_run_start (run);
  g_assert_cmpfloat (dyno_run_get_write_capacity (run), ==, -1);
  assert_ledger (run, 0, 0);
  dyno_run_cancel (run);
  while (dyno_run_get_loading (run))
    g_main_context_iteration (NULL, TRUE);

  g_clear_object (&run);
}

typedef struct {
  DynoRun *run;
  GArray  *sks;       /* guint: the sk of every item handed out, in order */
  guint    max_held;  /* the most items the model held at once */
} Stream;

static void
stream_items_changed_cb (GListModel *model,
                         guint       position,
                         guint       removed,
                         guint       added,
                         Stream     *stream)
{
  /* items are only ever taken out all at once, from the start, before a page comes */
  if (removed > 0)
    {
      g_assert_cmpuint (position, ==, 0);
      g_assert_cmpuint (added, ==, 0);
      g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
    }
  for (guint i = 0; i < added; i++)
    {
      guint sk = sk_at (stream->run, position + i);

      g_array_append_val (stream->sks, sk);
    }
  stream->max_held = MAX (stream->max_held, g_list_model_get_n_items (model));
}

/* keep-items FALSE (the CLI's query and scan): every item is handed out once, in order, while
 * the model holds one page at most; the counts, the ledger's page count and the resume key
 * after max-items are those of a run that keeps everything. */
static void
test_stream_without_keeping (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngineBackend) backend = engine_with_items ();
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "writes");
  g_autoptr(GArray) sks = g_array_new (FALSE, FALSE, sizeof (guint));
  GAsyncResult *result = NULL;
  Stream stream = { NULL, sks, 0 };
  DynoItem *resume;

  request->limit = 50;
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(DynoRun) run = dyno_run_new (DYNO_BACKEND (backend), request);
      guint expected = round == 0 ? N_ITEMS : 120;

      g_assert_true (dyno_run_get_keep_items (run));
      dyno_run_set_keep_items (run, FALSE);
      if (round == 1)
        dyno_run_set_max_items (run, 120);
      g_array_set_size (sks, 0);
      stream.run = run;
      stream.max_held = 0;
      g_signal_connect (run, "items-changed", G_CALLBACK (stream_items_changed_cb), &stream);
      dyno_run_load_all_async (run, keep_result_cb, &result);
      while (result == NULL)
        g_main_context_iteration (NULL, TRUE);
      g_assert_true (dyno_run_load_all_finish (run, result, &error));
      g_clear_object (&result);

      g_assert_cmpuint (sks->len, ==, expected);
      for (guint i = 0; i < sks->len; i++)
        g_assert_cmpuint (g_array_index (sks, guint, i), ==, i);
      g_assert_cmpuint (stream.max_held, ==, 50);
      g_assert_cmpuint (dyno_run_get_n_items (run), ==, expected);
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (run)), <=, 50);
      g_assert_cmpuint (g_list_model_get_n_items (dyno_run_get_pages (run)), ==, 1);
      if (round == 0)
        {
          g_assert_cmpuint (dyno_run_get_n_pages (run), >=, 5);
          g_assert_false (dyno_run_get_has_more (run));
          g_assert_null (dyno_run_get_resume_key (run));
          continue;
        }
      /* max-items inside the third page: continue after the 120th item */
      g_assert_cmpuint (dyno_run_get_n_pages (run), ==, 3);
      g_assert_true (dyno_run_get_has_more (run));
      resume = dyno_run_get_resume_key (run);
      g_assert_nonnull (resume);
      g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (resume, "sk"), NULL), ==,
                       "119");
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/run/writes-in-place", test_writes_in_place);
  g_test_add_func ("/run/stream-without-keeping", test_stream_without_keeping);
  return g_test_run ();
}
