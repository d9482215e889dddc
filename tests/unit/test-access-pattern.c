/* test-access-pattern.c: pattern sets, their parameters, and verdicts on runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-access-pattern.h"
#include "dyno-error.h"
#include "dyno-json.h"

static const char *set_json =
  "{\"format\":\"dynotable-patterns\",\"version\":1,\"patterns\":["
  " {\"name\":\"orders-of-customer\",\"description\":\"Orders of a customer, newest first\","
  "  \"request\":{\"TableName\":\"Orders\","
  "   \"KeyConditionExpression\":\"pk = :customerId AND begins_with(sk, :o)\","
  "   \"ScanIndexForward\":false,"
  "   \"ExpressionAttributeValues\":{\":o\":{\"S\":\"ORDER#\"}}},"
  "  \"parameters\":{\":customerId\":{\"S\":\"CUSTOMER#1\"}},"
  "  \"expect\":{\"order\":\"descending\",\"minItems\":1,\"maxItems\":50}},"
  " {\"name\":\"open-orders\","
  "  \"request\":{\"TableName\":\"Orders\",\"FilterExpression\":\"#s = :open\","
  "   \"ExpressionAttributeNames\":{\"#s\":\"status\"},"
  "   \"ExpressionAttributeValues\":{\":open\":{\"S\":\"open\"}}}},"
  " {\"name\":\"by-status\",\"request\":{\"TableName\":\"Orders\",\"IndexName\":\"byStatus\","
  "   \"KeyConditionExpression\":\"#s = :s\",\"ExpressionAttributeNames\":{\"#s\":\"status\"}},"
  "  \"parameters\":{\":s\":{\"S\":\"open\"}},\"expect\":{\"order\":\"ascending\","
  "   \"by\":\"createdAt\",\"maxReadPerItem\":2}}]}";

static GPtrArray *
read_set (const char *json,
          GHashTable *overrides)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *patterns = dyno_access_patterns_from_json (json, -1, overrides, &error);

  g_assert_no_error (error);
  return patterns;
}

static void
test_read (void)
{
  g_autoptr(GPtrArray) patterns = read_set (set_json, NULL);
  DynoAccessPattern *p;
  const DynoValue *value;

  g_assert_cmpuint (patterns->len, ==, 3);
  p = g_ptr_array_index (patterns, 0);
  g_assert_cmpstr (p->name, ==, "orders-of-customer");
  g_assert_cmpstr (p->description, ==, "Orders of a customer, newest first");
  g_assert_cmpint (p->request->operation, ==, DYNO_OP_QUERY);
  g_assert_cmpuint (g_strv_length (p->parameters), ==, 1);
  g_assert_cmpstr (p->parameters[0], ==, ":customerId");
  g_assert_cmpint (p->order, ==, DYNO_PATTERN_ORDER_DESCENDING);
  g_assert_cmpint (p->min_items, ==, 1);
  g_assert_cmpint (p->max_items, ==, 50);
  g_assert_cmpfloat (p->max_read_per_item, ==, DYNO_ACCESS_PATTERN_DEFAULT_READ_PER_ITEM);
  /* the example value is in the key condition */
  value = dyno_expr_skip_parens (g_ptr_array_index (
            dyno_expr_skip_parens (g_ptr_array_index (p->request->key_condition->args, 0))->args,
            1))->value;
  g_assert_cmpstr (dyno_value_get_string (value, NULL), ==, "CUSTOMER#1");

  p = g_ptr_array_index (patterns, 1);
  g_assert_cmpint (p->request->operation, ==, DYNO_OP_SCAN);
  g_assert_false (p->allow_scan);
  g_assert_cmpuint (g_strv_length (p->parameters), ==, 0);

  p = g_ptr_array_index (patterns, 2);
  g_assert_cmpstr (p->request->index_name, ==, "byStatus");
  g_assert_cmpstr (p->order_by, ==, "createdAt");
  g_assert_cmpfloat (p->max_read_per_item, ==, 2.0);
}

static void
test_overrides (void)
{
  g_autoptr(GHashTable) overrides = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                           (GDestroyNotify) dyno_value_free);
  g_autoptr(GPtrArray) patterns = NULL;
  g_autoptr(GError) error = NULL;
  DynoAccessPattern *p;
  const DynoValue *value;

  g_hash_table_insert (overrides, g_strdup (":customerId"),
                       dyno_value_new_string ("CUSTOMER#7", -1));
  patterns = read_set (set_json, overrides);
  p = g_ptr_array_index (patterns, 0);
  value = dyno_expr_skip_parens (g_ptr_array_index (
            dyno_expr_skip_parens (g_ptr_array_index (p->request->key_condition->args, 0))->args,
            1))->value;
  g_assert_cmpstr (dyno_value_get_string (value, NULL), ==, "CUSTOMER#7");

  /* a value for a parameter no pattern declares is a mistake worth saying */
  g_hash_table_insert (overrides, g_strdup (":nobody"), dyno_value_new_string ("x", -1));
  g_clear_pointer (&patterns, g_ptr_array_unref);
  patterns = dyno_access_patterns_from_json (set_json, -1, overrides, &error);
  g_assert_null (patterns);
  g_assert_nonnull (strstr (error->message, ":nobody is not a parameter of any pattern in this set"));
}

static void
test_refused (void)
{
  static const struct {
    const char *json;
    const char *says;
  } cases[] = {
    { "[]", "A pattern set is a JSON object" },
    { "{\"format\":\"other\",\"patterns\":[]}", "“format” must be" },
    { "{\"version\":2,\"patterns\":[]}", "newer than this DynoTable reads" },
    { "{\"patterns\":{}}", "needs a “patterns” array" },
    { "{\"patterns\":[{\"request\":{}}]}", "patterns[0]: needs a name" },
    { "{\"patterns\":[{\"name\":\"a\"}]}", "patterns[0] (a): needs a request" },
    { "{\"patterns\":[{\"name\":\"a\",\"request\":{\"TableName\":\"t\"},\"exepct\":{}}]}",
      "patterns[0] (a): pattern: unknown member “exepct”" },
    { "{\"patterns\":[{\"name\":\"a\",\"request\":{\"TableName\":\"t\"}},"
      "{\"name\":\"a\",\"request\":{\"TableName\":\"t\"}}]}",
      "patterns[1] (a): the name is used by patterns[0] already" },
    { "{\"patterns\":[{\"name\":\"a\",\"request\":{\"TableName\":\"t\","
      "\"KeyConditionExpression\":\"pk = :p\"}}]}",
      "patterns[0] (a): request: Invalid KeyConditionExpression: An expression attribute "
      "value used in expression is not defined" },
    { "{\"patterns\":[{\"name\":\"a\",\"request\":{\"TableName\":\"t\",\"Key\":"
      "{\"pk\":{\"S\":\"x\"}},\"ConsistentRead\":true}}]}",
      "an access pattern is a Query or a Scan, not GetItem" },
    { "{\"patterns\":[{\"name\":\"a\",\"request\":{\"TableName\":\"t\","
      "\"KeyConditionExpression\":\"pk = :p\",\"ExpressionAttributeValues\":"
      "{\":p\":{\"S\":\"x\"}}},\"parameters\":{\":p\":{\"S\":\"y\"}}}]}",
      ":p is both a parameter and one of the request's ExpressionAttributeValues" },
    { "{\"patterns\":[{\"name\":\"a\",\"request\":{\"TableName\":\"t\"},"
      "\"parameters\":{\":p\":{\"X\":\"y\"}}}]}", "parameters: :p: " },
    { "{\"patterns\":[{\"name\":\"a\",\"request\":{\"TableName\":\"t\"},"
      "\"expect\":{\"order\":\"up\"}}]}", "expect.order must be" },
    { "{\"patterns\":[{\"name\":\"a\",\"request\":{\"TableName\":\"t\"},"
      "\"expect\":{\"minItems\":5,\"maxItems\":2}}]}", "minItems is more than" },
    { "{\"patterns\":[{\"name\":\"a\",\"request\":{\"TableName\":\"t\"},"
      "\"expect\":{\"maxReadPerItem\":0.5}}]}", "maxReadPerItem must be a number, 1 or more" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) patterns = dyno_access_patterns_from_json (cases[i].json, -1, NULL,
                                                                      &error);

      g_assert_null (patterns);
      g_assert_nonnull (error);
      g_test_message ("%s -> %s", cases[i].json, error->message);
      g_assert_nonnull (strstr (error->message, cases[i].says));
    }
}

static GPtrArray *
items (const char *first,
       ...)
{
  GPtrArray *result = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  va_list args;

  va_start (args, first);
  for (const char *json = first; json != NULL; json = va_arg (args, const char *))
    {
      g_autoptr(GError) error = NULL;
      DynoItem *item = dyno_item_from_ddb_json (json, -1, &error);

      g_assert_no_error (error);
      g_ptr_array_add (result, item);
    }
  va_end (args);
  return result;
}

static gboolean
has (GPtrArray  *sentences,
     const char *part)
{
  for (guint i = 0; i < sentences->len; i++)
    if (strstr (g_ptr_array_index (sentences, i), part) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_judge (void)
{
  g_autoptr(GPtrArray) patterns = read_set (set_json, NULL);
  g_autoptr(DynoTableInfo) schema = dyno_table_info_new ("Orders", "pk", DYNO_VALUE_S, "sk",
                                                         DYNO_VALUE_S);
  g_autoptr(GPtrArray) newest_first = items ("{\"pk\":{\"S\":\"C\"},\"sk\":{\"S\":\"ORDER#3\"}}",
                                             "{\"pk\":{\"S\":\"C\"},\"sk\":{\"S\":\"ORDER#2\"}}",
                                             "{\"pk\":{\"S\":\"C\"},\"sk\":{\"S\":\"ORDER#1\"}}",
                                             NULL);
  g_autoptr(GPtrArray) oldest_first = items ("{\"pk\":{\"S\":\"C\"},\"sk\":{\"S\":\"ORDER#1\"}}",
                                             "{\"pk\":{\"S\":\"C\"},\"sk\":{\"S\":\"ORDER#2\"}}",
                                             NULL);
  DynoPatternRun run = { 3, 3, 1, 0.5, TRUE };
  DynoPatternVerdict *v;

  v = dyno_access_pattern_judge (g_ptr_array_index (patterns, 0), schema, newest_first, &run);
  g_assert_true (v->passed);
  g_assert_cmpstr (v->plan, ==, "Query on Orders");
  g_assert_cmpuint (v->problems->len, ==, 0);
  dyno_pattern_verdict_free (v);

  run = (DynoPatternRun) { 2, 2, 1, 0.5, TRUE };
  v = dyno_access_pattern_judge (g_ptr_array_index (patterns, 0), schema, oldest_first, &run);
  g_assert_false (v->passed);
  g_assert_true (has (v->problems, "item 2 ({\"S\":\"ORDER#2\"}) comes after {\"S\":\"ORDER#1\"}"));
  dyno_pattern_verdict_free (v);

  /* none found, and stopped early */
  run = (DynoPatternRun) { 0, 0, 1, 0.5, FALSE };
  {
    g_autoptr(GPtrArray) none = g_ptr_array_new ();

    v = dyno_access_pattern_judge (g_ptr_array_index (patterns, 0), schema, none, &run);
  }
  g_assert_false (v->passed);
  g_assert_true (has (v->problems, "0 items returned; at least 1 expected"));
  g_assert_true (has (v->notes, "stopped after 1 page"));
  dyno_pattern_verdict_free (v);

  /* a Scan that filters 1000 items down to 12: both flags */
  run = (DynoPatternRun) { 12, 1000, 1, 64, TRUE };
  v = dyno_access_pattern_judge (g_ptr_array_index (patterns, 1), schema, oldest_first, &run);
  g_assert_false (v->passed);
  g_assert_cmpstr (v->plan, ==, "Scan of Orders");
  g_assert_true (has (v->problems, "it is a Scan: it read 1000 items"));
  g_assert_true (has (v->problems, "it read 1000 items to return 12 (83.3 per item, at most 5"));
  dyno_pattern_verdict_free (v);

  /* ordered by an attribute of its own, numbers by value; a missing one is a note */
  {
    g_autoptr(GPtrArray) by_date = items (
      "{\"pk\":{\"S\":\"a\"},\"createdAt\":{\"N\":\"9\"}}",
      "{\"pk\":{\"S\":\"b\"},\"createdAt\":{\"N\":\"10\"}}",
      "{\"pk\":{\"S\":\"c\"}}",
      "{\"pk\":{\"S\":\"d\"},\"createdAt\":{\"N\":\"100\"}}", NULL);

    run = (DynoPatternRun) { 4, 8, 1, 0.5, TRUE };
    v = dyno_access_pattern_judge (g_ptr_array_index (patterns, 2), schema, by_date, &run);
    g_assert_true (v->passed);
    g_assert_cmpstr (v->plan, ==, "Query on index byStatus of Orders");
    g_assert_true (has (v->notes, "1 item has no createdAt"));
    dyno_pattern_verdict_free (v);

    /* 9 read for 4: over 2 per item */
    run = (DynoPatternRun) { 4, 9, 1, 0.5, TRUE };
    v = dyno_access_pattern_judge (g_ptr_array_index (patterns, 2), schema, by_date, &run);
    g_assert_false (v->passed);
    dyno_pattern_verdict_free (v);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/access-pattern/read", test_read);
  g_test_add_func ("/access-pattern/overrides", test_overrides);
  g_test_add_func ("/access-pattern/refused", test_refused);
  g_test_add_func ("/access-pattern/judge", test_judge);

  return g_test_run ();
}
