/* test-pattern-check.c: access patterns run against the embedded engine and judged
 *
 * The engine is the test's DynamoDB: a real one, in memory, in process.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-engine-backend.h"
#include "dyno-json.h"
#include "dyno-pattern-check.h"

typedef struct {
  GMainLoop        *loop;
  DynoPatternCheck *check;
  GBytes           *answer;
  GError           *error;
} Wait;

static void
called_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Wait *w = user_data;

  w->answer = dyno_backend_call_finish (DYNO_BACKEND (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

static void
call_ok (DynoBackend *backend,
         const char  *operation,
         const char  *json)
{
  g_autoptr(GBytes) body = g_bytes_new (json, strlen (json));
  Wait w = { g_main_loop_new (NULL, FALSE), NULL, NULL, NULL };

  dyno_backend_call_async (backend, operation, body, NULL, called_cb, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  g_assert_no_error (w.error);
  g_bytes_unref (w.answer);
}

static void
checked_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Wait *w = user_data;

  w->check = dyno_pattern_check_finish (DYNO_BACKEND (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

static DynoPatternCheck *
check (DynoBackend       *backend,
       DynoAccessPattern *pattern,
       GHashTable        *schemas)
{
  Wait w = { g_main_loop_new (NULL, FALSE), NULL, NULL, NULL };

  dyno_pattern_check_async (backend, pattern, schemas, 1000, NULL, checked_cb, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  g_assert_no_error (w.error);
  g_assert_nonnull (w.check);
  return w.check;
}

static const char *patterns_json =
  "{\"patterns\":["
  " {\"name\":\"newest-first\",\"request\":{\"TableName\":\"orders\",\"ScanIndexForward\":false,"
  "  \"KeyConditionExpression\":\"pk = :c\"},\"parameters\":{\":c\":{\"S\":\"C#1\"}},"
  "  \"expect\":{\"order\":\"descending\",\"minItems\":3}},"
  " {\"name\":\"by-number\",\"request\":{\"TableName\":\"orders\","
  "  \"KeyConditionExpression\":\"pk = :c\"},\"parameters\":{\":c\":{\"S\":\"C#1\"}},"
  "  \"expect\":{\"order\":\"ascending\",\"by\":\"n\"}},"
  " {\"name\":\"open-scan\",\"request\":{\"TableName\":\"orders\","
  "  \"FilterExpression\":\"#s = :o\",\"ExpressionAttributeNames\":{\"#s\":\"status\"},"
  "  \"ExpressionAttributeValues\":{\":o\":{\"S\":\"open\"}}}},"
  " {\"name\":\"no-table\",\"request\":{\"TableName\":\"nope\"},\"expect\":{\"scan\":true}}]}";

static void
test_check_against_engine (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngineBackend) engine = dyno_engine_backend_new (NULL, &error);
  DynoBackend *backend = DYNO_BACKEND (engine);
  g_autoptr(GPtrArray) patterns = NULL;
  g_autoptr(GHashTable) schemas = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) dyno_table_info_unref);
  DynoPatternCheck *c;

  g_assert_no_error (error);
  call_ok (backend, "CreateTable",
           "{\"TableName\":\"orders\",\"BillingMode\":\"PAY_PER_REQUEST\","
           "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
           "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"}],"
           "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
           "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]}");
  /* ORDER#1, ORDER#2, ORDER#10: the sort key is not zero-padded */
  for (guint i = 0; i < 3; i++)
    {
      static const guint numbers[] = { 1, 2, 10 };
      g_autofree char *put = g_strdup_printf (
        "{\"TableName\":\"orders\",\"Item\":{\"pk\":{\"S\":\"C#1\"},"
        "\"sk\":{\"S\":\"ORDER#%u\"},\"n\":{\"N\":\"%u\"},\"status\":{\"S\":\"%s\"}}}",
        numbers[i], numbers[i], i == 2 ? "open" : "done");

      call_ok (backend, "PutItem", put);
    }

  patterns = dyno_access_patterns_from_json (patterns_json, -1, NULL, &error);
  g_assert_no_error (error);

  c = check (backend, g_ptr_array_index (patterns, 0), schemas);
  g_assert_nonnull (c->verdict);
  g_assert_true (c->verdict->passed);
  g_assert_cmpuint (c->run.items, ==, 3);
  g_assert_cmpuint (c->run.pages, ==, 1);
  g_assert_true (c->run.complete);
  g_assert_cmpfloat (c->run.rcu, ==, 0.5);
  dyno_pattern_check_free (c);
  g_assert_true (g_hash_table_contains (schemas, "orders"));

  /* by number: ORDER#10 sorts before ORDER#2 */
  c = check (backend, g_ptr_array_index (patterns, 1), schemas);
  g_assert_false (c->verdict->passed);
  g_assert_nonnull (strstr (g_ptr_array_index (c->verdict->problems, 0),
                            "not in ascending order by n"));
  dyno_pattern_check_free (c);

  /* a Scan that reads 3 for 1 */
  c = check (backend, g_ptr_array_index (patterns, 2), schemas);
  g_assert_false (c->verdict->passed);
  g_assert_cmpstr (c->verdict->plan, ==, "Scan of orders");
  g_assert_cmpuint (c->run.items, ==, 1);
  g_assert_cmpuint (c->run.scanned, ==, 3);
  dyno_pattern_check_free (c);

  /* a table that is not there: the check's own error, not a GError */
  c = check (backend, g_ptr_array_index (patterns, 3), schemas);
  g_assert_null (c->verdict);
  g_assert_nonnull (strstr (c->error, "ResourceNotFoundException"));
  dyno_pattern_check_free (c);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pattern-check/against-engine", test_check_against_engine);

  return g_test_run ();
}
