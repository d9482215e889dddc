/* test-run-faults.c: paginated runs survive faults: every item once, in order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-http-backend.h"
#include "dyno-http-error.h"
#include "dyno-json.h"
#include "dyno-retry.h"
#include "dyno-run.h"

#include "dyno-fake-server.c"

#define N_ITEMS 250

typedef struct {
  FakeServer      *server;
  DynoHttpBackend *backend;
  DynoRetryPolicy *policy;
  guint            n_items_changed;
  guint            n_removed;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoCredentials) creds = dyno_credentials_new ("AKID", "secret", NULL, NULL);

  f->server = fake_server_new (N_ITEMS, GPOINTER_TO_UINT (data));
  f->backend = dyno_http_backend_new_for_endpoint (fake_server_get_url (f->server), "us-east-1",
                                                   creds, &error);
  g_assert_no_error (error);
  f->policy = dyno_retry_policy_new (4);
  dyno_retry_policy_set_backoff (f->policy, 1, 2, 10);
  dyno_http_backend_set_retry_policy (f->backend, f->policy);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->backend);
  g_clear_pointer (&f->policy, dyno_retry_policy_unref);
  fake_server_free (f->server);
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  Fixture *f = user_data;

  f->n_items_changed++;
  f->n_removed += removed;
}

static DynoRun *
new_run (Fixture       *f,
         DynoOperation  op,
         gint64         limit)
{
  g_autoptr(DynoRequest) request = dyno_request_new (op, "T");
  DynoRun *run;

  request->limit = limit;
  run = dyno_run_new (DYNO_BACKEND (f->backend), request);
  g_signal_connect (run, "items-changed", G_CALLBACK (items_changed_cb), f);

  return run;
}

static void
load_all_done_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Runs load_all to its end; returns FALSE with the run's error. */
static gboolean
load_all (DynoRun  *run,
          GError  **error)
{
  GAsyncResult *result = NULL;
  gboolean ok;

  dyno_run_load_all_async (run, load_all_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  ok = dyno_run_load_all_finish (run, result, error);
  g_object_unref (result);
  g_assert_false (dyno_run_get_loading (run));

  return ok;
}

static guint
item_sk (DynoItem *item)
{
  const DynoValue *sk = dyno_item_lookup (item, "sk");

  g_assert_nonnull (sk);
  g_assert_cmpint (dyno_value_get_kind (sk), ==, DYNO_VALUE_N);
  return (guint) g_ascii_strtoull (dyno_value_get_string (sk, NULL), NULL, 10);
}

/* Every item exactly once, in server order. */
static void
assert_all_items_in_order (DynoRun *run,
                           guint    n_expected)
{
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (run)), ==, n_expected);
  for (guint i = 0; i < n_expected; i++)
    g_assert_cmpuint (item_sk (dyno_run_get_item (run, i)), ==, i);
}

/* The ledger: Counts add up, and each page started where the previous one ended. */
static void
assert_ledger_consistent (DynoRun *run)
{
  GListModel *pages = dyno_run_get_pages (run);
  guint n_pages = g_list_model_get_n_items (pages);
  gint64 total = 0;
  guint position = 0;

  g_assert_cmpuint (n_pages, ==, dyno_run_get_n_pages (run));
  for (guint i = 0; i < n_pages; i++)
    {
      g_autoptr(DynoRunPage) page = g_list_model_get_item (pages, i);

      g_assert_cmpuint (dyno_run_page_get_index (page), ==, i);
      g_assert_cmpuint (dyno_run_page_get_position (page), ==, position);
      g_assert_cmpuint (dyno_run_page_get_n_items (page), ==, dyno_run_page_get_count (page));
      g_assert_cmpuint (dyno_run_page_get_bytes (page), >, 0);
      total += dyno_run_page_get_count (page);
      position += dyno_run_page_get_n_items (page);

      if (i == 0)
        g_assert_null (dyno_run_page_get_start_key (page));
      else
        {
          g_autoptr(DynoRunPage) previous = g_list_model_get_item (pages, i - 1);

          g_assert_nonnull (dyno_run_page_get_start_key (page));
          g_assert_true (dyno_item_equal (dyno_run_page_get_start_key (page),
                                          dyno_run_page_get_last_evaluated_key (previous)));
        }
      if (i + 1 == n_pages)
        g_assert_null (dyno_run_page_get_last_evaluated_key (page));
      else
        g_assert_nonnull (dyno_run_page_get_last_evaluated_key (page));
    }

  g_assert_cmpint (total, ==, g_list_model_get_n_items (G_LIST_MODEL (run)));
}

static void
test_clean_run (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(DynoRun) run = new_run (f, DYNO_OP_QUERY, 7);
  g_autoptr(GError) error = NULL;
  guint n_pages;

  g_assert_true (load_all (run, &error));
  g_assert_no_error (error);
  assert_all_items_in_order (run, N_ITEMS);
  assert_ledger_consistent (run);

  /* 35 pages of 7, one of 5 (no LastEvaluatedKey: fewer than Limit). */
  n_pages = dyno_run_get_n_pages (run);
  g_assert_cmpuint (n_pages, ==, (N_ITEMS + 6) / 7);
  /* One items-changed per page. */
  g_assert_cmpuint (f->n_items_changed, ==, n_pages);
  g_assert_cmpuint (f->n_removed, ==, 0);
  g_assert_false (dyno_run_get_has_more (run));
  g_assert_false (dyno_run_get_cancelled (run));
  g_assert_null (dyno_run_get_error (run));
  g_assert_cmpfloat_with_epsilon (dyno_run_get_consumed_capacity (run), 0.5 * n_pages, 1e-9);
  g_assert_cmpint (dyno_run_get_scanned_count (run), ==, N_ITEMS);
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, n_pages);
}

static void
test_empty_last_page (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(DynoRun) run = new_run (f, DYNO_OP_QUERY, 10);
  g_autoptr(GError) error = NULL;

  /* 250 / 10: the 25th page is full, so it carries a LastEvaluatedKey and a 26th, empty
   * page ends the run, as DynamoDB does. */
  g_assert_true (load_all (run, &error));
  assert_all_items_in_order (run, N_ITEMS);
  assert_ledger_consistent (run);
  g_assert_cmpuint (dyno_run_get_n_pages (run), ==, 26);
  g_assert_cmpuint (f->n_items_changed, ==, 25);
}

static void
test_random_faults (Fixture       *f,
                    gconstpointer  data)
{
  static const FakeFault faults[] = {
    FAKE_FAULT_THROTTLE, FAKE_FAULT_500, FAKE_FAULT_503, FAKE_FAULT_DROP, FAKE_FAULT_TRUNCATE,
    FAKE_FAULT_BAD_CRC, FAKE_FAULT_NONE
  };
  g_autoptr(DynoRun) run = new_run (f, DYNO_OP_QUERY, 3);
  g_autoptr(GError) error = NULL;

  /* With 10 attempts a page survives 9 faults in a row: at a 30 % rate (fixed seed) every
   * page gets through, many after retries. */
  dyno_retry_policy_set_max_attempts (f->policy, 10);
  fake_server_set_random_faults (f->server, faults, 0.3, 4242);

  g_assert_true (load_all (run, &error));
  g_assert_no_error (error);
  assert_all_items_in_order (run, N_ITEMS);
  assert_ledger_consistent (run);

  g_test_message ("%u requests, %u faults, %u pages", fake_server_get_n_requests (f->server),
                  fake_server_get_n_faults (f->server), dyno_run_get_n_pages (run));
  g_assert_cmpuint (fake_server_get_n_faults (f->server), >, 10);
  /* Every request the server saw was either a page or a fault; every fault was retried
   * exactly once by the client and nothing else was. */
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==,
                    dyno_run_get_n_pages (run) + fake_server_get_n_faults (f->server));
  g_assert_cmpuint (dyno_http_backend_get_n_retries (f->backend), ==,
                    fake_server_get_n_faults (f->server));
  g_assert_cmpuint (dyno_http_backend_get_n_attempts (f->backend), ==,
                    fake_server_get_n_requests (f->server));
  g_assert_cmpuint (f->n_items_changed, ==, dyno_run_get_n_pages (run));
}

static void
test_exhausted_then_resume (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(DynoRun) run = new_run (f, DYNO_OP_QUERY, 7);
  g_autoptr(GError) error = NULL;

  /* Pages 1 and 2 come through; page 3 is throttled on all 4 attempts. */
  fake_server_push_fault (f->server, FAKE_FAULT_NONE);
  fake_server_push_fault (f->server, FAKE_FAULT_NONE);
  for (guint i = 0; i < 4; i++)
    fake_server_push_fault (f->server, FAKE_FAULT_THROTTLE);

  g_assert_false (load_all (run, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_THROTTLED);
  g_assert_error (dyno_run_get_error (run), DYNO_ERROR, DYNO_ERROR_THROTTLED);
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 2 + 4);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 14);
  g_assert_true (dyno_run_get_has_more (run));
  g_assert_nonnull (dyno_run_get_resume_key (run));
  g_clear_error (&error);

  /* Resuming asks for page 3 again: nothing lost, nothing twice. */
  g_assert_true (load_all (run, &error));
  g_assert_no_error (error);
  g_assert_null (dyno_run_get_error (run));
  assert_all_items_in_order (run, N_ITEMS);
  assert_ledger_consistent (run);
}

static void
test_validation_not_retried (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(DynoRun) run = new_run (f, DYNO_OP_QUERY, 7);
  g_autoptr(GError) error = NULL;
  const DynoServiceError *info;

  fake_server_push_fault (f->server, FAKE_FAULT_VALIDATION);
  g_assert_false (load_all (run, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_SERVICE_VALIDATION);
  info = dyno_error_get_service_info (dyno_run_get_error (run));
  g_assert_nonnull (info);
  g_assert_cmpstr (info->type, ==, "ValidationException");
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpuint (dyno_http_backend_get_n_retries (f->backend), ==, 0);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 0);
  g_assert_cmpuint (dyno_run_get_n_pages (run), ==, 0);
}

static void
notify_loading_cb (GObject    *object,
                   GParamSpec *pspec,
                   gpointer    user_data)
{
  gint64 *stopped_time = user_data;

  if (!dyno_run_get_loading (DYNO_RUN (object)))
    *stopped_time = g_get_monotonic_time ();
}

static void
test_cancel_is_prompt (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(DynoRun) run = new_run (f, DYNO_OP_QUERY, 7);
  g_autoptr(GError) error = NULL;
  const guint slow_ms = 5000;
  gint64 stopped_time = 0;
  gint64 cancel_time;

  fake_server_set_slow_ms (f->server, slow_ms);
  fake_server_push_fault (f->server, FAKE_FAULT_NONE);
  fake_server_push_fault (f->server, FAKE_FAULT_SLOW);
  g_signal_connect (run, "notify::loading", G_CALLBACK (notify_loading_cb), &stopped_time);

  dyno_run_load_all (run);
  g_assert_true (dyno_run_get_loading (run));
  while (fake_server_get_slow_arrival_time (f->server) == 0)
    g_main_context_iteration (NULL, TRUE);

  cancel_time = g_get_monotonic_time ();
  dyno_run_cancel (run);
  while (dyno_run_get_loading (run))
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (dyno_run_get_cancelled (run));
  g_assert_null (dyno_run_get_error (run));
  g_assert_cmpint (stopped_time, >=, cancel_time);
  /* It reported the cancel without waiting for the slow answer. */
  g_assert_cmpint (stopped_time, <, fake_server_get_slow_arrival_time (f->server)
                                    + slow_ms * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 7);
  g_assert_true (dyno_run_get_has_more (run));

  /* Load more resumes at page 2. */
  g_assert_true (load_all (run, &error));
  g_assert_no_error (error);
  g_assert_false (dyno_run_get_cancelled (run));
  assert_all_items_in_order (run, N_ITEMS);
  assert_ledger_consistent (run);
}

static void
test_max_items (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(DynoRun) run = new_run (f, DYNO_OP_QUERY, 7);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRunPage) third = NULL;

  dyno_run_set_max_items (run, 20);
  g_assert_true (load_all (run, &error));
  g_assert_no_error (error);
  assert_all_items_in_order (run, 20);
  g_assert_cmpuint (dyno_run_get_n_pages (run), ==, 3);
  g_assert_true (dyno_run_get_has_more (run));
  third = g_list_model_get_item (dyno_run_get_pages (run), 2);
  g_assert_cmpint (dyno_run_page_get_count (third), ==, 7);
  g_assert_cmpuint (dyno_run_page_get_n_items (third), ==, 6);
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 3);

  /* Lifting the limit: the item kept aside comes first, then the rest. */
  dyno_run_set_max_items (run, 0);
  g_assert_true (load_all (run, &error));
  assert_all_items_in_order (run, N_ITEMS);
  g_assert_false (dyno_run_get_has_more (run));
}

static void
test_load_more_one_page (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(DynoRun) run = new_run (f, DYNO_OP_QUERY, 50);

  dyno_run_start (run);
  while (dyno_run_get_loading (run))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 50);
  g_assert_true (dyno_run_get_has_more (run));

  dyno_run_load_more (run);
  g_assert_true (dyno_run_get_loading (run));
  while (dyno_run_get_loading (run))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 100);
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 2);

  /* Resume elsewhere: start_from the key of item 199 gives 200..249. */
  {
    g_autoptr(DynoItem) key =
      dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"199\"}}", -1, NULL);
    GError *error = NULL;

    dyno_run_start_from (run, key);
    g_assert_true (load_all (run, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (dyno_run_get_n_items (run), ==, 50);
    g_assert_cmpuint (item_sk (dyno_run_get_item (run, 0)), ==, 200);
  }
}

static void
test_item_objects (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(DynoRun) run = new_run (f, DYNO_OP_QUERY, 100);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItemObject) object = NULL;

  g_assert_true (load_all (run, &error));
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (run)) == DYNO_TYPE_ITEM_OBJECT);
  object = g_list_model_get_item (G_LIST_MODEL (run), 42);
  g_assert_true (DYNO_IS_ITEM_OBJECT (object));
  g_assert_true (dyno_item_object_get_item (object) == dyno_run_get_item (run, 42));
  g_assert_cmpuint (dyno_item_object_get_position (object), ==, 42);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (run), N_ITEMS));
}

static void
test_parallel_scan (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(DynoRun) run = new_run (f, DYNO_OP_SCAN, 5);
  g_autoptr(GError) error = NULL;
  g_autofree gboolean *seen = g_new0 (gboolean, N_ITEMS);
  guint last_in_segment[4] = { 0 };
  gboolean any_in_segment[4] = { 0 };
  static const FakeFault faults[] = { FAKE_FAULT_THROTTLE, FAKE_FAULT_DROP, FAKE_FAULT_NONE };

  dyno_retry_policy_set_max_attempts (f->policy, 10);
  fake_server_set_random_faults (f->server, faults, 0.2, 7);
  dyno_run_set_segments (run, 4);
  g_assert_true (load_all (run, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, N_ITEMS);

  for (guint i = 0; i < N_ITEMS; i++)
    {
      guint sk = item_sk (dyno_run_get_item (run, i));
      guint segment = sk % 4;

      g_assert_false (seen[sk]);
      seen[sk] = TRUE;
      /* Within a segment, server order. */
      if (any_in_segment[segment])
        g_assert_cmpuint (sk, >, last_in_segment[segment]);
      any_in_segment[segment] = TRUE;
      last_in_segment[segment] = sk;
    }

  /* Every segment paginated on its own. */
  for (guint s = 0; s < 4; s++)
    {
      guint n = 0;

      for (guint i = 0; i < dyno_run_get_n_pages (run); i++)
        {
          g_autoptr(DynoRunPage) page = g_list_model_get_item (dyno_run_get_pages (run), i);

          if (dyno_run_page_get_segment (page) == s)
            n++;
        }
      g_assert_cmpuint (n, >=, (N_ITEMS / 4) / 5);
    }
}

/* Thousands of segments are not sent at once: at most `parallel` are in flight, and every
 * item still comes exactly once. */
static void
test_parallel_bounded (Fixture       *f,
                       gconstpointer  data)
{
  static const FakeFault faults[] = { FAKE_FAULT_SLOW, FAKE_FAULT_NONE };

  fake_server_set_slow_ms (f->server, 1);
  fake_server_set_random_faults (f->server, faults, 1.0, 3);

  for (guint parallel = 1; parallel <= 4; parallel += 3)
    {
      g_autoptr(DynoRun) run = new_run (f, DYNO_OP_SCAN, 0);
      g_autoptr(GError) error = NULL;
      g_autofree gboolean *seen = g_new0 (gboolean, N_ITEMS);
      guint before = fake_server_get_n_requests (f->server);

      dyno_run_set_segments (run, 300);
      if (parallel != DYNO_RUN_DEFAULT_PARALLEL)
        dyno_run_set_parallel (run, parallel);
      g_assert_cmpuint (dyno_run_get_parallel (run), ==, parallel);
      g_assert_true (load_all (run, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (dyno_run_get_n_items (run), ==, N_ITEMS);
      for (guint i = 0; i < N_ITEMS; i++)
        {
          guint sk = item_sk (dyno_run_get_item (run, i));

          g_assert_false (seen[sk]);
          seen[sk] = TRUE;
        }
      /* one request per segment at least (most are empty: one page each) */
      g_assert_cmpuint (fake_server_get_n_requests (f->server) - before, >=, 300);
      g_assert_cmpuint (fake_server_get_max_slow_in_flight (f->server), <=, parallel);
      g_assert_cmpuint (fake_server_get_max_slow_in_flight (f->server), >=, 1);
    }
}

static void
test_page_size_cap (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(DynoRun) run = new_run (f, DYNO_OP_QUERY, 0);
  g_autoptr(GError) error = NULL;

  /* Items of ~2 KB and a 20 KB cap: pages end by size, not by Limit. */
  fake_server_set_page_bytes (f->server, 20000);
  g_assert_true (load_all (run, &error));
  assert_all_items_in_order (run, N_ITEMS);
  assert_ledger_consistent (run);
  g_assert_cmpuint (dyno_run_get_n_pages (run), >=, N_ITEMS * 2000 / 20000);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func, padding) \
  g_test_add (path, Fixture, GUINT_TO_POINTER (padding), fixture_setup, func, fixture_teardown)

  ADD ("/run/clean", test_clean_run, 16);
  ADD ("/run/empty-last-page", test_empty_last_page, 16);
  ADD ("/run/faults/random", test_random_faults, 16);
  ADD ("/run/faults/exhausted-then-resume", test_exhausted_then_resume, 16);
  ADD ("/run/faults/validation-not-retried", test_validation_not_retried, 16);
  ADD ("/run/cancel-is-prompt", test_cancel_is_prompt, 16);
  ADD ("/run/max-items", test_max_items, 16);
  ADD ("/run/load-more-one-page", test_load_more_one_page, 16);
  ADD ("/run/item-objects", test_item_objects, 16);
  ADD ("/run/parallel-scan", test_parallel_scan, 16);
  ADD ("/run/parallel-bounded", test_parallel_bounded, 16);
  ADD ("/run/page-size-cap", test_page_size_cap, 2000);

  return g_test_run ();
}
