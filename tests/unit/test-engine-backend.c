/* test-engine-backend.c: the Playground backend — the embedded engine behind DynoBackend
 *
 * The same client code that talks to DynamoDB over HTTP (runs, executes, batch writes,
 * errors with their `__type`) works unchanged against the engine in process, and what it
 * wrote is there again when the workspace is opened anew.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyno-engine-backend.h"
#include "dyno-http-backend.h"
#include "dyno-http-error.h"
#include "dyno-json.h"
#include "dyno-run.h"

typedef struct {
  GMainLoop *loop;
  gpointer   result;
  GError    *error;
} Wait;

static void
json_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Wait *w = user_data;

  w->result = dyno_backend_call_json_finish (DYNO_BACKEND (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

/* One call, waited for: the parsed response, or NULL with *@error. */
static JsonNode *
call (DynoBackend  *backend,
      const char   *operation,
      const char   *json,
      GError      **error)
{
  g_autoptr(JsonNode) body = dyno_json_parse (json, -1, NULL);
  Wait w = { g_main_loop_new (NULL, FALSE), NULL, NULL };

  g_assert_nonnull (body);
  dyno_backend_call_json_async (backend, operation, body, NULL, json_done_cb, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  if (w.error != NULL)
    g_propagate_error (error, w.error);
  return w.result;
}

static void
call_ok (DynoBackend *backend,
         const char  *operation,
         const char  *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = call (backend, operation, json, &error);

  g_assert_no_error (error);
  g_assert_nonnull (response);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Wait *w = user_data;

  dyno_run_load_all_finish (DYNO_RUN (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

static void
make_orders (DynoBackend *backend)
{
  call_ok (backend, "CreateTable",
           "{\"TableName\":\"orders\",\"BillingMode\":\"PAY_PER_REQUEST\","
           "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
           "{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"}],"
           "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
           "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]}");
  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *put = g_strdup_printf (
        "{\"TableName\":\"orders\",\"Item\":{\"pk\":{\"S\":\"C#1\"},\"sk\":{\"N\":\"%u\"},"
        "\"pad\":{\"S\":\"%0100u\"}}}", i, i);

      call_ok (backend, "PutItem", put);
    }
}

static void
test_run_and_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngineBackend) engine = dyno_engine_backend_new (NULL, &error);
  DynoBackend *backend = DYNO_BACKEND (engine);
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoRun) run = NULL;
  g_autoptr(JsonNode) refused = NULL;
  g_autofree char *description = NULL;
  const DynoServiceError *info;
  Wait w = { NULL, NULL, NULL };

  g_assert_no_error (error);
  description = dyno_backend_dup_description (backend);
  g_assert_cmpstr (description, ==, "Playground (in memory)");
  make_orders (backend);

  /* a paginated, descending range query: the run the app makes, pages of 7 */
  request = dyno_request_from_json ("{\"TableName\":\"orders\",\"Limit\":7,"
                                    "\"ScanIndexForward\":false,"
                                    "\"KeyConditionExpression\":\"pk = :p AND sk >= :from\","
                                    "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"C#1\"},"
                                    "\":from\":{\"N\":\"10\"}}}", -1, -1, &error);
  g_assert_no_error (error);
  run = dyno_run_new (backend, request);
  w.loop = g_main_loop_new (NULL, FALSE);
  dyno_run_load_all_async (run, loaded_cb, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  g_assert_no_error (w.error);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 20);
  g_assert_cmpuint (dyno_run_get_n_pages (run), ==, 3);
  for (guint i = 0; i < 20; i++)
    {
      const DynoValue *sk = dyno_item_lookup (dyno_run_get_item (run, i), "sk");

      g_assert_cmpint (atoi (dyno_value_get_string (sk, NULL)), ==, 29 - (int) i);
    }

  /* the service's error, as the HTTP backend gives it */
  refused = call (backend, "PutItem",
                  "{\"TableName\":\"orders\",\"Item\":{\"pk\":{\"S\":\"C#1\"},"
                  "\"sk\":{\"N\":\"1\"}},\"ConditionExpression\":\"attribute_not_exists(pk)\"}",
                  &error);
  g_assert_null (refused);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONDITIONAL_CHECK_FAILED);
  info = dyno_error_get_service_info (error);
  g_assert_nonnull (info);
  g_assert_cmpstr (info->type, ==, "ConditionalCheckFailedException");
  g_assert_cmpuint (info->http_status, ==, 400);
  g_clear_error (&error);

  /* a cancelled transaction: its reasons reach the client, the old item with them */
  refused = call (backend, "TransactWriteItems",
                  "{\"TransactItems\":[{\"Put\":{\"TableName\":\"orders\",\"Item\":"
                  "{\"pk\":{\"S\":\"C#2\"},\"sk\":{\"N\":\"1\"}}}},"
                  "{\"Delete\":{\"TableName\":\"orders\",\"Key\":{\"pk\":{\"S\":\"C#1\"},"
                  "\"sk\":{\"N\":\"1\"}},\"ConditionExpression\":\"attribute_not_exists(sk)\","
                  "\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"}}]}", &error);
  g_assert_null (refused);
  info = dyno_error_get_service_info (error);
  g_assert_nonnull (info);
  g_assert_cmpstr (info->type, ==, "TransactionCanceledException");
  g_assert_nonnull (info->cancellation_reasons);
  g_assert_cmpuint (info->cancellation_reasons->len, ==, 2);
  {
    DynoCancellationReason *none = g_ptr_array_index (info->cancellation_reasons, 0);
    DynoCancellationReason *failed = g_ptr_array_index (info->cancellation_reasons, 1);

    g_assert_cmpstr (none->code, ==, "None");
    g_assert_null (none->item);
    g_assert_cmpstr (failed->code, ==, "ConditionalCheckFailed");
    g_assert_cmpstr (failed->message, ==, "The conditional request failed");
    g_assert_nonnull (failed->item);
    g_assert_nonnull (dyno_item_lookup (failed->item, "pad"));
  }
  g_clear_error (&error);

  refused = call (backend, "DescribeTable", "{\"TableName\":\"nope\"}", &error);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_RESOURCE_NOT_FOUND);
}

static void
loading_cb (DynoRun    *run,
            GParamSpec *pspec,
            GMainLoop  *loop)
{
  if (!dyno_run_get_loading (run))
    g_main_loop_quit (loop);
}

/* load_more(), waited for until the run stops loading. */
static void
load_one_more (DynoRun *run)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  gulong id = g_signal_connect (run, "notify::loading", G_CALLBACK (loading_cb), loop);

  dyno_run_load_more (run);
  if (dyno_run_get_loading (run))
    g_main_loop_run (loop);
  g_signal_handler_disconnect (run, id);
}

/* load_all_async(), waited for: FALSE with *@error when the run stopped on one. */
static gboolean
load_all (DynoRun  *run,
          GError  **error)
{
  Wait w = { g_main_loop_new (NULL, FALSE), NULL, NULL };

  dyno_run_load_all_async (run, loaded_cb, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  if (w.error != NULL)
    {
      g_propagate_error (error, w.error);
      return FALSE;
    }
  return TRUE;
}

/* A PartiQL statement as a run: a SELECT pages with NextToken, a write runs once, an error
 * stops the run with the engine's message. */
static void
test_statement_run (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngineBackend) engine = dyno_engine_backend_new (NULL, &error);
  DynoBackend *backend = DYNO_BACKEND (engine);
  g_autoptr(DynoStatement) select = dyno_statement_new ("SELECT * FROM \"tbl\"");
  g_autoptr(DynoStatement) insert =
    dyno_statement_new ("INSERT INTO \"tbl\" VALUE {'pk': ?, 'n': ?}");
  g_autoptr(DynoStatement) broken = dyno_statement_new ("SELEC * FROM \"tbl\"");
  g_autoptr(DynoRun) run = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(JsonNode) direct = NULL;
  g_autoptr(JsonNode) found = NULL;
  GListModel *pages;
  gint64 counted = 0;

  g_assert_no_error (error);
  call_ok (backend, "CreateTable",
           "{\"TableName\":\"tbl\",\"BillingMode\":\"PAY_PER_REQUEST\","
           "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
           "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]}");
  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *put = g_strdup_printf (
        "{\"TableName\":\"tbl\",\"Item\":{\"pk\":{\"S\":\"k%02u\"},\"n\":{\"N\":\"%u\"}}}", i, i);

      call_ok (backend, "PutItem", put);
    }

  /* SELECT, 7 items evaluated a page */
  select->limit = 7;
  run = dyno_run_new_for_statement (backend, select);
  g_assert_null (dyno_run_get_request (run));
  g_assert_nonnull (dyno_run_get_statement (run));
  g_assert_cmpstr (dyno_run_get_statement (run)->statement, ==, "SELECT * FROM \"tbl\"");
  g_assert_cmpint (dyno_run_get_statement (run)->limit, ==, 7);

  load_one_more (run);
  g_assert_null (dyno_run_get_error (run));
  g_assert_cmpuint (dyno_run_get_n_pages (run), ==, 1);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 7);
  g_assert_true (dyno_run_get_has_more (run));
  {
    g_autoptr(DynoRunPage) first = g_list_model_get_item (dyno_run_get_pages (run), 0);

    g_assert_true (dyno_run_page_get_is_statement (first));
    g_assert_nonnull (dyno_run_page_get_next_token (first));
  }

  /* the rest follows NextToken: each item once, and the end */
  g_assert_true (load_all (run, &error));
  g_assert_no_error (error);
  g_assert_null (dyno_run_get_error (run));
  g_assert_false (dyno_run_get_has_more (run));
  g_assert_false (dyno_run_get_loading (run));
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 30);
  g_assert_cmpuint (dyno_run_get_n_pages (run), >=, 5);
  g_assert_cmpfloat (dyno_run_get_consumed_capacity (run), >, 0);
  g_assert_null (dyno_run_get_resume_key (run));
  for (guint i = 0; i < 30; i++)
    {
      const DynoValue *pk = dyno_item_lookup (dyno_run_get_item (run, i), "pk");

      g_assert_nonnull (pk);
      g_assert_true (g_hash_table_add (seen, g_strdup (dyno_value_get_string (pk, NULL))));
    }
  pages = dyno_run_get_pages (run);
  for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr(DynoRunPage) page = g_list_model_get_item (pages, i);
      gboolean last = i + 1 == g_list_model_get_n_items (pages);

      g_assert_cmpint (dyno_run_page_get_count (page), <=, 7);
      g_assert_cmpuint (dyno_run_page_get_n_items (page), ==, dyno_run_page_get_count (page));
      counted += dyno_run_page_get_count (page);
      if (last)
        g_assert_null (dyno_run_page_get_next_token (page));
      else
        g_assert_nonnull (dyno_run_page_get_next_token (page));
    }
  g_assert_cmpint (counted, ==, 30);
  g_clear_object (&run);

  /* max-items stops inside the run; raising it goes on from there */
  run = dyno_run_new_for_statement (backend, select);
  dyno_run_set_max_items (run, 10);
  g_assert_true (load_all (run, &error));
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 10);
  g_assert_true (dyno_run_get_has_more (run));
  dyno_run_set_max_items (run, 0);
  g_assert_true (load_all (run, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 30);
  g_assert_false (dyno_run_get_has_more (run));
  g_clear_object (&run);

  /* a write: one page, no items, and it was written */
  insert->parameters = dyno_statement_parse_parameters ("[{\"S\": \"new\"}, {\"N\": \"99\"}]",
                                                        &error);
  g_assert_no_error (error);
  run = dyno_run_new_for_statement (backend, insert);
  g_assert_true (load_all (run, &error));
  g_assert_no_error (error);
  g_assert_null (dyno_run_get_error (run));
  g_assert_cmpuint (dyno_run_get_n_pages (run), ==, 1);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 0);
  g_assert_false (dyno_run_get_has_more (run));
  found = call (backend, "GetItem", "{\"TableName\":\"tbl\",\"Key\":{\"pk\":{\"S\":\"new\"}}}",
                &error);
  g_assert_no_error (error);
  g_assert_true (json_object_has_member (json_node_get_object (found), "Item"));
  g_clear_object (&run);

  /* a syntax error ends the run with the engine's message */
  direct = call (backend, "ExecuteStatement", "{\"Statement\":\"SELEC * FROM \\\"tbl\\\"\"}",
                 &error);
  g_assert_null (direct);
  g_assert_nonnull (error);
  run = dyno_run_new_for_statement (backend, broken);
  {
    g_autoptr(GError) run_error = NULL;

    g_assert_false (load_all (run, &run_error));
    g_assert_nonnull (run_error);
    g_assert_nonnull (dyno_run_get_error (run));
    g_assert_cmpstr (dyno_run_get_error (run)->message, ==, error->message);
    g_assert_cmpstr (run_error->message, ==, error->message);
    g_assert_true (g_error_matches (run_error, error->domain, error->code));
    g_test_message ("the engine says: %s", error->message);
  }
  g_assert_cmpuint (dyno_run_get_n_pages (run), ==, 0);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 0);
  g_assert_false (dyno_run_get_loading (run));
}

static void
test_workspace_survives (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("dyno-playground-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "workspace.sqlite", NULL);
  g_autoptr(JsonNode) response = NULL;

  g_assert_no_error (error);
  {
    g_autoptr(DynoEngineBackend) engine = dyno_engine_backend_new (path, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (dyno_engine_backend_get_path (engine), ==, path);
    make_orders (DYNO_BACKEND (engine));
  }
  {
    g_autoptr(DynoEngineBackend) engine = dyno_engine_backend_new (path, &error);

    g_assert_no_error (error);
    response = call (DYNO_BACKEND (engine), "Scan",
                     "{\"TableName\":\"orders\",\"Select\":\"COUNT\"}", &error);
    g_assert_no_error (error);
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (response), "Count"), ==,
                     30);
  }
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *file = g_build_filename (dir, name, NULL);

        g_unlink (file);
      }
  }
  g_rmdir (dir);
}

/* The app serves its Playground on loopback while it runs: what an SDK sends over HTTP and
 * what the app does in process meet in the same tables; errors keep DynamoDB's body. */
static void
test_served (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngineBackend) engine = dyno_engine_backend_new (NULL, &error);
  g_autoptr(DynoCredentials) credentials = dyno_credentials_new ("AKIDANY", "any", NULL,
                                                                         NULL);
  g_autoptr(DynoHttpBackend) http = NULL;
  g_autoptr(JsonNode) got = NULL;
  g_autoptr(JsonNode) missing = NULL;
  const char *url;

  g_assert_no_error (error);
  g_assert_null (dyno_engine_backend_get_served_url (engine));
  g_assert_true (dyno_engine_backend_serve (engine, "localhost", 0,
                                                   DYNO_ENGINE_SERVE_NONE, &error));
  g_assert_no_error (error);
  url = dyno_engine_backend_get_served_url (engine);
  g_assert_true (g_str_has_prefix (url, "http://127.0.0.1:"));
  g_assert_cmpstr (url, !=, "http://127.0.0.1:0");

  http = dyno_http_backend_new_for_endpoint (url, "eu-west-3", credentials, &error);
  g_assert_no_error (error);
  make_orders (DYNO_BACKEND (http));  /* over HTTP */

  /* in process, the items written over HTTP */
  got = call (DYNO_BACKEND (engine), "GetItem",
              "{\"TableName\":\"orders\",\"Key\":{\"pk\":{\"S\":\"C#1\"},"
              "\"sk\":{\"N\":\"29\"}}}", &error);
  g_assert_no_error (error);
  g_assert_nonnull (json_object_get_member (json_node_get_object (got), "Item"));

  /* an engine error reaches the SDK as DynamoDB's */
  missing = call (DYNO_BACKEND (http), "DescribeTable", "{\"TableName\":\"nope\"}", &error);
  g_assert_null (missing);
  g_assert_nonnull (error);
  g_assert_cmpstr (dyno_error_get_service_info (error)->type, ==, "ResourceNotFoundException");
  g_clear_error (&error);

  /* a wrong address is said plainly */
  g_assert_false (dyno_engine_backend_serve (engine, "not-an-address", 0,
                                                    DYNO_ENGINE_SERVE_NONE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* answered on the main context's thread, as `dynotable-cli serve` does */
  g_assert_true (dyno_engine_backend_serve (engine, "127.0.0.1", 0, DYNO_ENGINE_SERVE_INLINE,
                                            &error));
  g_clear_object (&http);
  http = dyno_http_backend_new_for_endpoint (dyno_engine_backend_get_served_url (engine),
                                             "eu-west-3", credentials, &error);
  g_assert_no_error (error);
  g_clear_pointer (&got, json_node_unref);
  got = call (DYNO_BACKEND (http), "GetItem",
              "{\"TableName\":\"orders\",\"Key\":{\"pk\":{\"S\":\"C#1\"},"
              "\"sk\":{\"N\":\"3\"}}}", &error);
  g_assert_no_error (error);
  g_assert_nonnull (json_object_get_member (json_node_get_object (got), "Item"));

  dyno_engine_backend_stop_serving (engine);
  g_assert_null (dyno_engine_backend_get_served_url (engine));
}

static void
exported_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Wait *w = user_data;

  w->result = GINT_TO_POINTER (dyno_engine_backend_export_finish (DYNO_ENGINE_BACKEND (source),
                                                                  result, &w->error));
  g_main_loop_quit (w->loop);
}

/* Export while the workspace is open (and was just written): the copy opens as its own
 * workspace with the tables and the saved pattern set. */
static void
test_export (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("dyno-playground-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "workspace.dynotable", NULL);
  g_autofree char *copy = g_build_filename (dir, "shared.dynotable", NULL);
  g_autoptr(DynoEngineBackend) engine = NULL;
  g_autofree char *patterns = NULL;
  Wait w = { g_main_loop_new (NULL, FALSE), NULL, NULL };

  g_assert_no_error (error);
  engine = dyno_engine_backend_new (path, &error);
  g_assert_no_error (error);
  make_orders (DYNO_BACKEND (engine));
  g_assert_true (dyno_engine_backend_set_patterns (engine, "{\"patterns\":[]}", &error));
  g_assert_no_error (error);

  dyno_engine_backend_export_async (engine, copy, NULL, exported_cb, &w);
  g_main_loop_run (w.loop);
  g_assert_no_error (w.error);
  g_assert_true (GPOINTER_TO_INT (w.result));

  /* onto itself: the engine's error */
  dyno_engine_backend_export_async (engine, path, NULL, exported_cb, &w);
  g_main_loop_run (w.loop);
  g_assert_error (w.error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_VALIDATION);
  g_assert_false (GPOINTER_TO_INT (w.result));
  g_clear_error (&w.error);
  g_main_loop_unref (w.loop);

  {
    g_autoptr(DynoEngineBackend) opened = dyno_engine_backend_new (copy, &error);
    g_autoptr(JsonNode) response = NULL;

    g_assert_no_error (error);
    response = call (DYNO_BACKEND (opened), "Scan",
                     "{\"TableName\":\"orders\",\"Select\":\"COUNT\"}", &error);
    g_assert_no_error (error);
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (response), "Count"), ==,
                     30);
    patterns = dyno_engine_backend_dup_patterns (opened, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (patterns, ==, "{\"patterns\":[]}");
  }

  g_clear_object (&engine);
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *file = g_build_filename (dir, name, NULL);

        g_unlink (file);
      }
  }
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine-backend/run-and-errors", test_run_and_errors);
  g_test_add_func ("/engine-backend/statement-run", test_statement_run);
  g_test_add_func ("/engine-backend/workspace-survives", test_workspace_survives);
  g_test_add_func ("/engine-backend/served", test_served);
  g_test_add_func ("/engine-backend/export", test_export);

  return g_test_run ();
}
