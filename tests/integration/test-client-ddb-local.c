/* test-client-ddb-local.c: the HTTP backend and runs against DynamoDB Local
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run through tests/fixtures/with-ddb-local.sh: DYNO_TEST_ENDPOINT and dummy credentials come
 * from the environment.  Every table has a name of its own (the server may be shared).
 */
#include "config.h"

#include <string.h>

#include "dyno-backend.h"
#include "dyno-credentials.h"
#include "dyno-error.h"
#include "dyno-expr.h"
#include "dyno-http-backend.h"
#include "dyno-http-error.h"
#include "dyno-json.h"
#include "dyno-request.h"
#include "dyno-run.h"

static DynoBackend *backend;
static guint table_counter;

/* ---- helpers ----------------------------------------------------------------------------- */

static void
result_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static char *
table_name (const char *base)
{
  return g_strdup_printf ("c-%d-%u-%s", (int) getpid (), ++table_counter, base);
}

/* A JSON call with printf-style JSON text; @error may be NULL to assert success. */
static JsonNode * G_GNUC_PRINTF (3, 4)
call (const char  *operation,
      GError     **error,
      const char  *format,
      ...)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(GError) local_error = NULL;
  GAsyncResult *result = NULL;
  JsonNode *response;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  body = json_from_string (text, &local_error);
  g_assert_no_error (local_error);
  dyno_backend_call_json_async (backend, operation, body, NULL, result_cb, &result);
  response = dyno_backend_call_json_finish (backend, wait_result (&result), &local_error);
  g_object_unref (result);

  if (error == NULL)
    {
      if (local_error != NULL)
        g_error ("%s: %s", operation, local_error->message);
      return response;
    }
  g_propagate_error (error, g_steal_pointer (&local_error));
  return response;
}

static void
create_table (const char *name,
              const char *extra)
{
  g_autoptr(JsonNode) response = NULL;

  response = call ("CreateTable", NULL,
                   "{\"TableName\":\"%s\",\"BillingMode\":\"PAY_PER_REQUEST\","
                   "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
                   "{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"}%s],"
                   "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
                   "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]%s}",
                   name,
                   /* Only key attributes may be defined: g and l come with the indexes. */
                   extra ? ",{\"AttributeName\":\"g\",\"AttributeType\":\"S\"},"
                           "{\"AttributeName\":\"l\",\"AttributeType\":\"S\"}" : "",
                   extra ? extra : "");
  g_assert_nonnull (response);
}

static const char *indexes_json =
  ",\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byG\",\"KeySchema\":["
  "{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"},"
  "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
  "\"Projection\":{\"ProjectionType\":\"ALL\"}}],"
  "\"LocalSecondaryIndexes\":[{\"IndexName\":\"byL\",\"KeySchema\":["
  "{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
  "{\"AttributeName\":\"l\",\"KeyType\":\"RANGE\"}],"
  "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}]";

static void
delete_table (const char *name)
{
  g_autoptr(JsonNode) response = call ("DeleteTable", NULL, "{\"TableName\":\"%s\"}", name);
}

/* Items pk="a", sk=0..n-1, g = "even"/"odd", l = zero-padded reverse of sk, padding bytes. */
static void
write_items (const char *table,
             guint       n,
             gsize       padding)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  g_autofree char *pad = g_strnfill (padding, 'x');
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;
  guint n_written = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *json =
        g_strdup_printf ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"%u\"},\"g\":{\"S\":\"%s\"},"
                         "\"l\":{\"S\":\"%06u\"},\"pad\":{\"S\":\"%s\"}}",
                         i, i % 2 ? "odd" : "even", n - i, pad);
      DynoItem *item = dyno_item_from_ddb_json (json, -1, &error);

      g_assert_no_error (error);
      g_ptr_array_add (items, item);
    }

  dyno_backend_batch_write_async (backend, table, items, NULL, NULL, NULL, NULL, result_cb,
                                  &result);
  g_assert_true (dyno_backend_batch_write_finish (backend, wait_result (&result), &n_written,
                                                  &error));
  g_object_unref (result);
  g_assert_no_error (error);
  g_assert_cmpuint (n_written, ==, n);
}

static DynoExpr *
condition (const char   *text,
           DynoExprRole  role)
{
  g_autoptr(GError) error = NULL;
  DynoExpr *expr = dyno_expr_parse_condition (text, DYNO_SYNTAX_INLINE, role, NULL, NULL, NULL,
                                              NULL, &error);

  g_assert_no_error (error);
  return expr;
}

static DynoRequest *
query (const char *table,
       const char *key_condition)
{
  DynoRequest *request = dyno_request_new (DYNO_OP_QUERY, table);

  request->key_condition = condition (key_condition, DYNO_EXPR_ROLE_KEY_CONDITION);
  return request;
}

static DynoRun *
run_all (const DynoRequest  *request,
         guint               segments,
         GError            **error)
{
  DynoRun *run = dyno_run_new (backend, request);
  GAsyncResult *result = NULL;

  dyno_run_set_segments (run, segments);
  dyno_run_load_all_async (run, result_cb, &result);
  dyno_run_load_all_finish (run, wait_result (&result), error);
  g_object_unref (result);

  return run;
}

static guint
item_number (DynoItem   *item,
             const char *name)
{
  const DynoValue *value = dyno_item_lookup (item, name);

  g_assert_nonnull (value);
  return (guint) g_ascii_strtoull (dyno_value_get_string (value, NULL), NULL, 10);
}

/* Count per page sums to the items, and each page starts at the previous page's key. */
static void
assert_ledger (DynoRun *run)
{
  GListModel *pages = dyno_run_get_pages (run);
  guint n = g_list_model_get_n_items (pages);
  gint64 total = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynoRunPage) page = g_list_model_get_item (pages, i);

      total += dyno_run_page_get_count (page);
      if (i > 0)
        {
          g_autoptr(DynoRunPage) previous = g_list_model_get_item (pages, i - 1);

          g_assert_true (dyno_item_equal (dyno_run_page_get_start_key (page),
                                          dyno_run_page_get_last_evaluated_key (previous)));
        }
      if (i + 1 < n)
        g_assert_nonnull (dyno_run_page_get_last_evaluated_key (page));
    }
  if (n > 0)
    {
      g_autoptr(DynoRunPage) last = g_list_model_get_item (pages, n - 1);
      g_assert_null (dyno_run_page_get_last_evaluated_key (last));
    }
  g_assert_cmpint (total, ==, dyno_run_get_n_items (run));
}

/* ---- tests ------------------------------------------------------------------------------- */

static void
test_tables (void)
{
  g_autofree char *name = table_name ("tables");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoTableInfo) info = NULL;
  g_autoptr(JsonNode) ttl = NULL;
  g_autoptr(JsonNode) updated = NULL;
  g_autoptr(JsonNode) gone = NULL;
  g_auto(GStrv) names = NULL;
  GAsyncResult *result = NULL;
  const DynoIndexInfo *gsi;
  const DynoIndexInfo *lsi;

  create_table (name, indexes_json);

  dyno_backend_list_tables_async (backend, NULL, result_cb, &result);
  names = dyno_backend_list_tables_finish (backend, wait_result (&result), &error);
  g_clear_object (&result);
  g_assert_no_error (error);
  g_assert_true (g_strv_contains ((const char * const *) names, name));

  dyno_backend_describe_table_async (backend, name, NULL, result_cb, &result);
  info = dyno_backend_describe_table_finish (backend, wait_result (&result), &error);
  g_clear_object (&result);
  g_assert_no_error (error);
  g_assert_cmpstr (dyno_table_info_get_name (info), ==, name);
  g_assert_cmpstr (dyno_table_info_get_partition_key (info)->name, ==, "pk");
  g_assert_cmpstr (dyno_table_info_get_sort_key (info)->name, ==, "sk");
  g_assert_cmpint (dyno_table_info_get_sort_key (info)->type, ==, DYNO_VALUE_N);
  gsi = dyno_table_info_find_index (info, "byG");
  lsi = dyno_table_info_find_index (info, "byL");
  g_assert_nonnull (gsi);
  g_assert_true (gsi->global);
  g_assert_nonnull (lsi);
  g_assert_false (lsi->global);
  g_assert_cmpint (lsi->projection, ==, DYNO_PROJECTION_KEYS_ONLY);

  ttl = call ("DescribeTimeToLive", NULL, "{\"TableName\":\"%s\"}", name);
  g_assert_true (json_object_has_member (json_node_get_object (ttl), "TimeToLiveDescription"));

  /* UpdateTable: a second GSI. */
  updated = call ("UpdateTable", NULL,
                  "{\"TableName\":\"%s\",\"AttributeDefinitions\":["
                  "{\"AttributeName\":\"l\",\"AttributeType\":\"S\"}],"
                  "\"GlobalSecondaryIndexUpdates\":[{\"Create\":{\"IndexName\":\"byL2\","
                  "\"KeySchema\":[{\"AttributeName\":\"l\",\"KeyType\":\"HASH\"}],"
                  "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}}]}", name);
  g_clear_pointer (&info, dyno_table_info_unref);
  dyno_backend_describe_table_async (backend, name, NULL, result_cb, &result);
  info = dyno_backend_describe_table_finish (backend, wait_result (&result), &error);
  g_clear_object (&result);
  g_assert_no_error (error);
  g_assert_nonnull (dyno_table_info_find_index (info, "byL2"));

  delete_table (name);
  gone = call ("DescribeTable", &error, "{\"TableName\":\"%s\"}", name);
  g_assert_null (gone);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_RESOURCE_NOT_FOUND);
  g_assert_cmpstr (dyno_error_get_service_info (error)->type, ==, "ResourceNotFoundException");
  g_assert_nonnull (dyno_error_get_service_info (error)->request_id);
}

static JsonNode *
execute (DynoRequest  *request,
         GError      **error)
{
  GAsyncResult *result = NULL;
  JsonNode *response;

  dyno_backend_execute_async (backend, request, NULL, result_cb, &result);
  response = dyno_backend_execute_finish (backend, wait_result (&result), error);
  g_object_unref (result);
  return response;
}

static void
test_items (void)
{
  g_autofree char *name = table_name ("items");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) put = dyno_request_new (DYNO_OP_PUT_ITEM, name);
  g_autoptr(DynoRequest) get = dyno_request_new (DYNO_OP_GET_ITEM, name);
  g_autoptr(DynoRequest) update = dyno_request_new (DYNO_OP_UPDATE_ITEM, name);
  g_autoptr(DynoRequest) delete = dyno_request_new (DYNO_OP_DELETE_ITEM, name);
  g_autoptr(JsonNode) r1 = NULL;
  g_autoptr(JsonNode) r2 = NULL;
  g_autoptr(JsonNode) r3 = NULL;
  g_autoptr(JsonNode) r4 = NULL;
  g_autoptr(JsonNode) r5 = NULL;
  g_autoptr(JsonNode) r6 = NULL;
  g_autoptr(DynoItem) got = NULL;
  JsonNode *member;

  create_table (name, NULL);

  put->item = dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"k\"},\"sk\":{\"N\":\"1\"},"
                                       "\"n\":{\"N\":\"5\"},\"tags\":{\"SS\":[\"a\",\"b\"]}}",
                                       -1, &error);
  g_assert_no_error (error);
  put->condition = condition ("attribute_not_exists(pk)", DYNO_EXPR_ROLE_CONDITION);
  r1 = execute (put, &error);
  g_assert_no_error (error);

  /* The same conditional put again: the item exists now. */
  r2 = execute (put, &error);
  g_assert_null (r2);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONDITIONAL_CHECK_FAILED);
  g_clear_error (&error);

  get->key = dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"k\"},\"sk\":{\"N\":\"1\"}}", -1, &error);
  get->consistent_read = DYNO_TRISTATE_TRUE;
  r3 = execute (get, &error);
  g_assert_no_error (error);
  member = json_object_get_member (json_node_get_object (r3), "Item");
  g_assert_nonnull (member);
  got = dyno_item_from_json_node (member, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_item_equal (got, put->item));

  update->key = dyno_item_ref (get->key);
  {
    g_autoptr(GError) parse_error = NULL;

    update->update = dyno_expr_parse_update ("SET n = n + 1 REMOVE tags", DYNO_SYNTAX_INLINE,
                                             NULL, NULL, NULL, NULL, &parse_error);
    g_assert_no_error (parse_error);
  }
  update->return_values = DYNO_RETURN_VALUES_ALL_NEW;
  r4 = execute (update, &error);
  g_assert_no_error (error);
  member = json_object_get_member (json_node_get_object (r4), "Attributes");
  g_assert_nonnull (member);
  {
    g_autoptr(DynoItem) attrs = dyno_item_from_json_node (member, &error);

    g_assert_cmpuint (item_number (attrs, "n"), ==, 6);
    g_assert_null (dyno_item_lookup (attrs, "tags"));
  }

  delete->key = dyno_item_ref (get->key);
  delete->return_values = DYNO_RETURN_VALUES_ALL_OLD;
  r5 = execute (delete, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_has_member (json_node_get_object (r5), "Attributes"));

  r6 = execute (get, &error);
  g_assert_no_error (error);
  g_assert_false (json_object_has_member (json_node_get_object (r6), "Item"));

  delete_table (name);
}

static void
test_validation_error (void)
{
  g_autofree char *name = table_name ("validation");
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoRun) run = NULL;
  g_autoptr(GError) error = NULL;

  create_table (name, NULL);
  /* A key condition on a non-key attribute: the server says ValidationException. */
  request = query (name, "pad = \"x\"");
  run = run_all (request, 1, &error);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_SERVICE_VALIDATION);
  g_assert_cmpstr (dyno_error_get_service_info (error)->type, ==, "ValidationException");
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 0);
  delete_table (name);
}

static void
test_pagination_limits (void)
{
  g_autofree char *name = table_name ("limits");
  const guint n = 300;

  create_table (name, NULL);
  write_items (name, n, 8);

  for (gint64 limit = 1; limit <= 3; limit++)
    {
      g_autoptr(DynoRequest) request = query (name, "pk = \"a\"");
      g_autoptr(DynoRun) run = NULL;
      g_autoptr(GError) error = NULL;

      request->limit = limit;
      run = run_all (request, 1, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (dyno_run_get_n_items (run), ==, n);
      for (guint i = 0; i < n; i++)
        g_assert_cmpuint (item_number (dyno_run_get_item (run, i), "sk"), ==, i);
      g_assert_cmpuint (dyno_run_get_n_pages (run), >=, n / limit);
      assert_ledger (run);
    }

  delete_table (name);
}

static void
test_pagination_1mb (void)
{
  g_autofree char *name = table_name ("onemb");
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoRun) run = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *pages;

  create_table (name, NULL);
  write_items (name, 30, 100 * 1024);

  request = query (name, "pk = \"a\"");
  request->return_consumed_capacity = DYNO_CONSUMED_TOTAL;
  run = run_all (request, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dyno_run_get_n_items (run), ==, 30);
  assert_ledger (run);

  /* 1 MB pages: about 11/11/8 — at least three pages, none over 1 MB plus one item. */
  pages = dyno_run_get_pages (run);
  g_assert_cmpuint (g_list_model_get_n_items (pages), >=, 3);
  for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr(DynoRunPage) page = g_list_model_get_item (pages, i);

      g_test_message ("page %u: Count %" G_GINT64_FORMAT ", %" G_GSIZE_FORMAT " bytes, %g RCU",
                      i, dyno_run_page_get_count (page), dyno_run_page_get_bytes (page),
                      dyno_run_page_get_consumed_capacity (page));
      g_assert_cmpint (dyno_run_page_get_count (page), <=, 12);
      g_assert_cmpuint (dyno_run_page_get_bytes (page), <, 1024 * 1024 + 2 * 103 * 1024);
      g_assert_cmpfloat (dyno_run_page_get_consumed_capacity (page), >, 0);
    }
  g_assert_cmpfloat (dyno_run_get_consumed_capacity (run), >, 0);

  delete_table (name);
}

static void
test_indexes_and_order (void)
{
  g_autofree char *name = table_name ("indexes");
  const guint n = 40;

  create_table (name, indexes_json);
  write_items (name, n, 4);

  /* GSI: the even items, in sk order. */
  {
    g_autoptr(DynoRequest) request = query (name, "g = \"even\"");
    g_autoptr(DynoRun) run = NULL;
    g_autoptr(GError) error = NULL;

    request->index_name = g_strdup ("byG");
    request->limit = 7;
    run = run_all (request, 1, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (dyno_run_get_n_items (run), ==, n / 2);
    for (guint i = 0; i < n / 2; i++)
      g_assert_cmpuint (item_number (dyno_run_get_item (run, i), "sk"), ==, 2 * i);
    assert_ledger (run);
  }

  /* LSI: sorted by l, which runs opposite to sk; KEYS_ONLY projection. */
  {
    g_autoptr(DynoRequest) request = query (name, "pk = \"a\" AND l >= \"000001\"");
    g_autoptr(DynoRun) run = NULL;
    g_autoptr(GError) error = NULL;

    request->index_name = g_strdup ("byL");
    run = run_all (request, 1, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (dyno_run_get_n_items (run), ==, n);
    for (guint i = 0; i < n; i++)
      {
        DynoItem *item = dyno_run_get_item (run, i);

        g_assert_cmpuint (item_number (item, "sk"), ==, n - 1 - i);
        g_assert_null (dyno_item_lookup (item, "pad"));
      }
  }

  /* Descending on the table, with a sort-key range. */
  {
    g_autoptr(DynoRequest) request = query (name, "pk = \"a\" AND sk BETWEEN 10 AND 19");
    g_autoptr(DynoRun) run = NULL;
    g_autoptr(GError) error = NULL;

    request->scan_index_forward = DYNO_TRISTATE_FALSE;
    request->limit = 3;
    run = run_all (request, 1, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (dyno_run_get_n_items (run), ==, 10);
    for (guint i = 0; i < 10; i++)
      g_assert_cmpuint (item_number (dyno_run_get_item (run, i), "sk"), ==, 19 - i);
  }

  /* A filter: Count counts what matched, ScannedCount what was read. */
  {
    g_autoptr(DynoRequest) request = query (name, "pk = \"a\"");
    g_autoptr(DynoRun) run = NULL;
    g_autoptr(GError) error = NULL;
    gint64 count = 0;

    request->filter = condition ("g = \"odd\"", DYNO_EXPR_ROLE_FILTER);
    request->limit = 10;
    run = run_all (request, 1, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (dyno_run_get_n_items (run), ==, n / 2);
    g_assert_cmpint (dyno_run_get_scanned_count (run), ==, n);
    for (guint i = 0; i < dyno_run_get_n_pages (run); i++)
      {
        g_autoptr(DynoRunPage) page = g_list_model_get_item (dyno_run_get_pages (run), i);

        g_assert_cmpint (dyno_run_page_get_count (page), <=,
                         dyno_run_page_get_scanned_count (page));
        count += dyno_run_page_get_count (page);
      }
    g_assert_cmpint (count, ==, n / 2);
  }

  /* Parallel scan: every item once. */
  {
    g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, name);
    g_autoptr(DynoRun) run = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree gboolean *seen = g_new0 (gboolean, n);

    request->limit = 4;
    run = run_all (request, 4, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (dyno_run_get_n_items (run), ==, n);
    for (guint i = 0; i < n; i++)
      {
        guint sk = item_number (dyno_run_get_item (run, i), "sk");

        g_assert_false (seen[sk]);
        seen[sk] = TRUE;
      }
  }

  delete_table (name);
}

static void
test_partiql_transactions_batch_get (void)
{
  g_autofree char *name = table_name ("statements");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) select = NULL;
  g_autoptr(JsonNode) transact = NULL;
  g_autoptr(JsonNode) cancelled = NULL;
  g_autoptr(JsonNode) batch = NULL;
  JsonNode *items;
  JsonNode *responses;

  create_table (name, NULL);
  write_items (name, 10, 4);

  select = call ("ExecuteStatement", NULL,
                 "{\"Statement\":\"SELECT * FROM \\\"%s\\\" WHERE pk = 'a' AND sk < 5\"}", name);
  items = json_object_get_member (json_node_get_object (select), "Items");
  g_assert_nonnull (items);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (items)), ==, 5);

  transact = call ("TransactWriteItems", NULL,
                   "{\"TransactItems\":["
                   "{\"Put\":{\"TableName\":\"%s\","
                   "\"Item\":{\"pk\":{\"S\":\"t\"},\"sk\":{\"N\":\"1\"}}}},"
                   "{\"Update\":{\"TableName\":\"%s\","
                   "\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}},"
                   "\"UpdateExpression\":\"SET #v = :v\","
                   "\"ExpressionAttributeNames\":{\"#v\":\"v\"},"
                   "\"ExpressionAttributeValues\":{\":v\":{\"N\":\"7\"}}}}]}", name, name);
  g_assert_nonnull (transact);

  /* A failed condition cancels the whole transaction; not retried. */
  cancelled = call ("TransactWriteItems", &error,
                    "{\"TransactItems\":["
                    "{\"Put\":{\"TableName\":\"%s\","
                    "\"Item\":{\"pk\":{\"S\":\"t\"},\"sk\":{\"N\":\"2\"}}}},"
                    "{\"ConditionCheck\":{\"TableName\":\"%s\","
                    "\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}},"
                    "\"ConditionExpression\":\"attribute_not_exists(pk)\"}}]}",
                    name, name);
  g_assert_null (cancelled);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_SERVICE);
  g_assert_cmpstr (dyno_error_get_service_info (error)->type, ==, "TransactionCanceledException");
  g_clear_error (&error);

  batch = call ("BatchGetItem", NULL,
                "{\"RequestItems\":{\"%s\":{\"Keys\":["
                "{\"pk\":{\"S\":\"t\"},\"sk\":{\"N\":\"1\"}},"
                "{\"pk\":{\"S\":\"t\"},\"sk\":{\"N\":\"2\"}},"
                "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}]}}}", name);
  responses = json_object_get_member (json_node_get_object (batch), "Responses");
  g_assert_nonnull (responses);
  items = json_object_get_member (json_node_get_object (responses), name);
  /* t/2 was never written: the transaction was cancelled. */
  g_assert_cmpuint (json_array_get_length (json_node_get_array (items)), ==, 2);

  delete_table (name);
}

/* ---- delete-many through the fault-injecting proxy ---------------------------------------- */

typedef struct {
  GSubprocess  *process;
  DynoBackend  *backend;
} Proxy;

/* tests/fixtures/fault_proxy.py in front of the server, with @rules ("Op:fault:count"). */
static gboolean
proxy_start (Proxy              *proxy,
             const char * const *rules)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *script = NULL;
  g_autofree char *url = NULL;
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_auto(GStrv) env = g_get_environ ();
  DynoConnectionSettings settings = { 0 };
  const char *root = g_getenv ("DYNO_SOURCE_ROOT");

  if (root == NULL || !g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    return FALSE;
  script = g_build_filename (root, "tests", "fixtures", "fault_proxy.py", NULL);
  g_ptr_array_add (argv, (gpointer) "/usr/bin/python3");
  g_ptr_array_add (argv, script);
  g_ptr_array_add (argv, (gpointer) g_getenv ("DYNO_TEST_ENDPOINT"));
  for (guint i = 0; rules[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) rules[i]);
  g_ptr_array_add (argv, NULL);

  proxy->process = g_subprocess_newv ((const char * const *) argv->pdata,
                                      G_SUBPROCESS_FLAGS_STDIN_PIPE
                                      | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (proxy->process));
  url = g_data_input_stream_read_line (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (url);

  settings.endpoint_url = url;
  config = dyno_resolve_config (&settings, env, NULL, &error);
  g_assert_no_error (error);
  proxy->backend = DYNO_BACKEND (dyno_http_backend_new (config, &error));
  g_assert_no_error (error);
  return TRUE;
}

static void
proxy_stop (Proxy *proxy)
{
  g_autoptr(GError) error = NULL;

  g_clear_object (&proxy->backend);
  /* its standard input closes: it stops */
  g_output_stream_close (g_subprocess_get_stdin_pipe (proxy->process), NULL, NULL);
  g_subprocess_wait (proxy->process, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&proxy->process);
}

/* The sk of every item in @table. */
static GHashTable *
stored_sks (const char *table)
{
  g_autoptr(DynoRequest) scan = dyno_request_new (DYNO_OP_SCAN, table);
  g_autoptr(DynoRun) run = NULL;
  g_autoptr(GError) error = NULL;
  GHashTable *sks = g_hash_table_new (g_direct_hash, g_direct_equal);

  scan->consistent_read = DYNO_TRISTATE_TRUE;
  run = run_all (scan, 1, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < dyno_run_get_n_items (run); i++)
    g_hash_table_add (sks, GUINT_TO_POINTER (item_number (dyno_run_get_item (run, i), "sk")));
  return sks;
}

static GPtrArray *
keys_of (guint n)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"%u\"}}", i);

      g_ptr_array_add (keys, dyno_item_from_ddb_json (json, -1, NULL));
    }
  return keys;
}

/* The app's multi-delete (BatchWriteItem deletes) under faults: the table ends as reported. */
static void
test_delete_many_faults (void)
{
  static const char * const transient[] = {
    /* each fault once, then an answer (four in a row would use up a request's attempts) */
    "BatchWriteItem:unprocessed:1", "BatchWriteItem:garble:1", "BatchWriteItem:pass:1",
    "BatchWriteItem:5xx-after:1", "BatchWriteItem:pass:1", "BatchWriteItem:reset:1",
    "BatchWriteItem:pass:1", "BatchWriteItem:throttle:1", NULL
  };
  static const char * const stuck[] = {
    "BatchWriteItem:unprocessed:1", "BatchWriteItem:unprocessed-all:*", NULL
  };
  g_autofree char *table = table_name ("delete-many");
  g_autoptr(GPtrArray) keys = keys_of (60);
  Proxy proxy = { 0 };

  create_table (table, NULL);

  /* faults a retry gets through: every key is deleted */
  write_items (table, 60, 10);
  if (!proxy_start (&proxy, transient))
    {
      delete_table (table);
      g_test_skip ("needs /usr/bin/python3 and DYNO_SOURCE_ROOT");
      return;
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GArray) unwritten = NULL;
    g_autoptr(GHashTable) left = NULL;
    GAsyncResult *result = NULL;
    guint n_written = 0;

    dyno_backend_batch_write_async (proxy.backend, table, NULL, keys, NULL, NULL, NULL,
                                    result_cb, &result);
    g_assert_true (dyno_backend_batch_write_finish_full (proxy.backend, wait_result (&result),
                                                         &n_written, &unwritten, NULL,
                                                         &error));
    g_object_unref (result);
    g_assert_no_error (error);
    g_assert_cmpuint (n_written, ==, 60);
    g_assert_cmpuint (unwritten->len, ==, 0);
    left = stored_sks (table);
    g_assert_cmpuint (g_hash_table_size (left), ==, 0);
  }
  proxy_stop (&proxy);

  /* half of the first batch, then nothing, ever: the keys named are exactly those left */
  write_items (table, 60, 10);
  g_assert_true (proxy_start (&proxy, stuck));
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GArray) unwritten = NULL;
    g_autoptr(GHashTable) left = NULL;
    GAsyncResult *result = NULL;
    guint n_written = 0;

    dyno_backend_batch_write_async (proxy.backend, table, NULL, keys, NULL, NULL, NULL,
                                    result_cb, &result);
    g_assert_false (dyno_backend_batch_write_finish_full (proxy.backend, wait_result (&result),
                                                          &n_written, &unwritten, NULL,
                                                         &error));
    g_object_unref (result);
    g_assert_error (error, DYNO_ERROR, DYNO_ERROR_THROTTLED);
    g_assert_cmpuint (n_written, ==, 13);
    left = stored_sks (table);
    g_assert_cmpuint (unwritten->len, ==, g_hash_table_size (left));
    for (guint i = 0; i < unwritten->len; i++)
      /* indexes count the items (none) and then the keys: key i is sk i */
      g_assert_true (g_hash_table_contains (left,
                                            GUINT_TO_POINTER (g_array_index (unwritten, guint,
                                                                             i))));
  }
  proxy_stop (&proxy);
  delete_table (table);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_auto(GStrv) env = g_get_environ ();
  DynoConnectionSettings settings = { 0 };
  const char *endpoint = g_getenv ("DYNO_TEST_ENDPOINT");
  int status;

  /* the multi-delete test waits out a throttled batch's retry budget: short waits */
  g_setenv ("DYNO_BATCH_BACKOFF_MS", "1", TRUE);
  g_test_init (&argc, &argv, NULL);

  if (endpoint == NULL)
    {
      g_test_skip ("DYNO_TEST_ENDPOINT is not set: run through tests/fixtures/with-ddb-local.sh");
      return g_test_run ();
    }

  settings.endpoint_url = (char *) endpoint;
  config = dyno_resolve_config (&settings, env, NULL, &error);
  g_assert_no_error (error);
  backend = DYNO_BACKEND (dyno_http_backend_new (config, &error));
  g_assert_no_error (error);

  g_test_add_func ("/ddb-local/tables", test_tables);
  g_test_add_func ("/ddb-local/items", test_items);
  g_test_add_func ("/ddb-local/validation-error", test_validation_error);
  g_test_add_func ("/ddb-local/pagination/limit-1-2-3", test_pagination_limits);
  g_test_add_func ("/ddb-local/pagination/1mb-pages", test_pagination_1mb);
  g_test_add_func ("/ddb-local/indexes-order-filter-scan", test_indexes_and_order);
  g_test_add_func ("/ddb-local/partiql-transactions-batch-get",
                   test_partiql_transactions_batch_get);
  g_test_add_func ("/ddb-local/delete-many-faults", test_delete_many_faults);

  status = g_test_run ();
  g_clear_object (&backend);
  return status;
}
