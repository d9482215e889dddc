/* test-validate.c: dyno_request_validate, one rule at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-request.h"
#include "dyno-json.h"

static DynoTableInfo *
schema_new (void)
{
  DynoTableInfo *info = dyno_table_info_new ("Things", "pk", DYNO_VALUE_S, "sk", DYNO_VALUE_S);
  DynoIndexInfo gsi = { 0, };
  DynoIndexInfo lsi = { 0, };

  gsi.name = (char *) "gsi1";
  gsi.global = TRUE;
  gsi.partition_key.name = (char *) "gsi1pk";
  gsi.partition_key.type = DYNO_VALUE_S;
  gsi.sort_key.name = (char *) "gsi1sk";
  gsi.sort_key.type = DYNO_VALUE_N;
  gsi.projection = DYNO_PROJECTION_ALL;
  gsi.read_capacity = -1;
  gsi.write_capacity = -1;
  dyno_table_info_add_index (info, &gsi);

  lsi.name = (char *) "lsi1";
  lsi.global = FALSE;
  lsi.partition_key.name = (char *) "pk";
  lsi.partition_key.type = DYNO_VALUE_S;
  lsi.sort_key.name = (char *) "lsisk";
  lsi.sort_key.type = DYNO_VALUE_S;
  lsi.projection = DYNO_PROJECTION_KEYS_ONLY;
  lsi.read_capacity = -1;
  lsi.write_capacity = -1;
  dyno_table_info_add_index (info, &lsi);
  return info;
}

static DynoExpr *
cond (const char *text)
{
  g_autoptr(GError) error = NULL;
  DynoExpr *expr = dyno_expr_parse_condition (text, DYNO_SYNTAX_INLINE, DYNO_EXPR_ROLE_FILTER,
                                              NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return expr;
}

static DynoItem *
item (const char *json)
{
  g_autoptr(GError) error = NULL;
  DynoItem *result = dyno_item_from_ddb_json (json, -1, &error);

  g_assert_no_error (error);
  return result;
}

static DynoRequest *
query (const char *key_condition,
       const char *filter)
{
  DynoRequest *request = dyno_request_new (DYNO_OP_QUERY, "Things");

  if (key_condition != NULL)
    request->key_condition = cond (key_condition);
  if (filter != NULL)
    request->filter = cond (filter);
  return request;
}

static void
dump (GPtrArray *issues)
{
  for (guint i = 0; i < issues->len; i++)
    {
      DynoIssue *issue = g_ptr_array_index (issues, i);
      g_test_message ("issue %u: %s: %s", i, issue->field, issue->message);
    }
}

/* Exactly one issue, on @field, whose message contains @part. */
static DynoIssue *
expect_issue (GPtrArray  *issues,
              const char *field,
              const char *part)
{
  DynoIssue *issue;

  dump (issues);
  g_assert_cmpuint (issues->len, ==, 1);
  issue = g_ptr_array_index (issues, 0);
  g_assert_cmpstr (issue->field, ==, field);
  if (strstr (issue->message, part) == NULL)
    g_error ("issue [%s] lacks [%s]", issue->message, part);
  return issue;
}

static void
check_query (const DynoTableInfo *schema,
             const char          *index,
             const char          *key_condition,
             const char          *filter,
             const char          *field,
             const char          *part)
{
  g_autoptr(DynoRequest) request = query (key_condition, filter);
  g_autoptr(GPtrArray) issues = NULL;

  request->index_name = g_strdup (index);
  issues = dyno_request_validate (request, schema);
  if (field == NULL)
    {
      dump (issues);
      g_assert_cmpuint (issues->len, ==, 0);
    }
  else
    expect_issue (issues, field, part);
}

static void
test_key_condition_valid (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  static const char *const ok[] = {
    "pk = \"a\"",
    "pk = \"a\" AND sk = \"b\"",
    "pk = \"a\" AND sk < \"b\"",
    "pk = \"a\" AND sk <= \"b\"",
    "pk = \"a\" AND sk > \"b\"",
    "pk = \"a\" AND sk >= \"b\"",
    "pk = \"a\" AND sk BETWEEN \"a\" AND \"b\"",
    "pk = \"a\" AND sk BETWEEN \"a\" AND \"a\"",
    "pk = \"a\" AND sk BETWEEN \"z\" AND \"¿\"",
    "pk = \"a\" AND begins_with(sk, \"USER#\")",
    "sk > \"b\" AND pk = \"a\"",
    "\"a\" = pk AND \"b\" < sk",
    "(pk = \"a\") AND (sk = \"b\")",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    check_query (schema, NULL, ok[i], NULL, NULL, NULL);
  check_query (schema, NULL, "pk = \"a\"", "other = 1 OR size(x) > 2", NULL, NULL);
}

static void
test_key_condition_shape (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  const char *K = "KeyConditionExpression";

  check_query (schema, NULL, NULL, NULL, K,
               "Either the KeyConditions or KeyConditionExpression parameter must be specified "
               "in the request.");
  check_query (schema, NULL, "pk < \"a\"", NULL, K, "Query key condition not supported");
  check_query (schema, NULL, "begins_with(pk, \"a\")", NULL, K,
               "Query key condition not supported");
  check_query (schema, NULL, "sk = \"a\"", NULL, K,
               "Query condition missed key schema element: pk");
  check_query (schema, NULL, "pk = \"a\" OR sk = \"b\"", NULL, K,
               "Invalid operator used in KeyConditionExpression: OR");
  check_query (schema, NULL, "NOT pk = \"a\"", NULL, K,
               "Invalid operator used in KeyConditionExpression: NOT");
  check_query (schema, NULL, "pk IN (\"a\")", NULL, K,
               "Invalid operator used in KeyConditionExpression: IN");
  check_query (schema, NULL, "pk = \"a\" AND sk <> \"b\"", NULL, K,
               "Invalid operator used in KeyConditionExpression: <>");
  check_query (schema, NULL, "pk = \"a\" AND attribute_exists(sk)", NULL, K,
               "Invalid operator used in KeyConditionExpression: attribute_exists");
  check_query (schema, NULL, "pk = \"a\" AND contains(sk, \"x\")", NULL, K,
               "Invalid operator used in KeyConditionExpression: contains");
  check_query (schema, NULL, "pk = \"a\" AND sk.x = \"b\"", NULL, K,
               "KeyConditionExpressions cannot have conditions on nested attributes");
  check_query (schema, NULL, "pk = \"a\" AND sk[0] = \"b\"", NULL, K,
               "KeyConditionExpressions cannot have conditions on nested attributes");
  check_query (schema, NULL, "pk = \"a\" AND sk > \"a\" AND sk < \"z\"", NULL, K,
               "KeyConditionExpressions must only contain one condition per key");
  check_query (schema, NULL, "pk = \"a\" AND size(sk) > 3", NULL, K,
               "KeyConditionExpressions cannot contain nested operations");
  check_query (schema, NULL, "pk = \"a\" AND sk = other", NULL, K,
               "Invalid condition in KeyConditionExpression: Multiple attribute names used in "
               "one condition");
  check_query (schema, NULL, "pk = \"a\" AND \"x\" = \"y\"", NULL, K,
               "Invalid condition in KeyConditionExpression: No key attribute specified");
  check_query (schema, NULL, "pk = \"a\" AND \"x\" BETWEEN sk AND \"y\"", NULL, K,
               "BETWEEN operator must have the key attribute as its first operand");
  check_query (schema, NULL, "pk = \"a\" AND begins_with(\"x\", sk)", NULL, K,
               "begins_with operator must have the key attribute as its first operand");
  check_query (schema, NULL, "pk = \"a\" AND other = \"b\"", NULL, K,
               "Query condition missed key schema element: sk");
}

static void
test_key_condition_values (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoTableInfo) numeric = dyno_table_info_new ("N", "id", DYNO_VALUE_N, "ts",
                                                          DYNO_VALUE_N);
  g_autoptr(DynoTableInfo) hash_only = dyno_table_info_new ("H", "id", DYNO_VALUE_S, NULL,
                                                            DYNO_VALUE_S);
  const char *K = "KeyConditionExpression";
  g_autofree char *long_pk = g_strnfill (2049, 'x');
  g_autofree char *max_pk = g_strnfill (2048, 'x');
  g_autofree char *long_sk = g_strnfill (1025, 'y');
  g_autofree char *max_sk = g_strnfill (1024, 'y');
  g_autofree char *t1 = g_strdup_printf ("pk = \"%s\"", long_pk);
  g_autofree char *t2 = g_strdup_printf ("pk = \"%s\" AND sk = \"%s\"", max_pk, max_sk);
  g_autofree char *t3 = g_strdup_printf ("pk = \"a\" AND sk >= \"%s\"", long_sk);

  check_query (hash_only, NULL, "id = \"a\" AND other = \"b\"", NULL, K,
               "Query key condition not supported");
  /* a string prefix for a number sort key: DynamoDB Local calls it a type mismatch */
  check_query (numeric, NULL, "id = 1 AND begins_with(ts, \"1\")", NULL, K,
               "begins_with cannot be used on the sort key ts because it is a number. "
               "(DynamoDB: One or more parameter values were invalid: Condition parameter type "
               "does not match schema type)");
  check_query (schema, NULL, "pk = \"a\" AND begins_with(sk, 1)", NULL, K,
               "Invalid KeyConditionExpression: Incorrect operand type for operator or "
               "function; operator or function: begins_with, operand type: N");
  check_query (schema, NULL, "pk = \"a\" AND sk BETWEEN 1 AND \"b\"", NULL, K,
               "Invalid KeyConditionExpression: The BETWEEN operator requires same data type "
               "for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper "
               "bound operand: AttributeValue: {S:b}");
  check_query (schema, NULL, "pk = \"a\" AND sk BETWEEN \"b\" AND \"a\"", NULL, K,
               "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to "
               "be greater than or equal to lower bound; lower bound operand: AttributeValue: "
               "{S:b}, upper bound operand: AttributeValue: {S:a}");
  /* byte order: "a" (0x61) sorts after "B" (0x42) */
  check_query (schema, NULL, "pk = \"a\" AND sk BETWEEN \"a\" AND \"B\"", NULL, K,
               "upper bound to be greater than or equal to lower bound");
  /* numbers compare numerically, not as text */
  check_query (numeric, NULL, "id = 1 AND ts BETWEEN 9 AND 10", NULL, NULL, NULL);
  check_query (numeric, NULL, "id = 1 AND ts BETWEEN 10 AND 9", NULL, K,
               "lower bound operand: AttributeValue: {N:10}, upper bound operand: "
               "AttributeValue: {N:9}");
  check_query (schema, NULL, "pk = 1", NULL, K,
               "One or more parameter values were invalid: Condition parameter type does not "
               "match schema type");
  check_query (numeric, NULL, "id = 1 AND ts > \"1\"", NULL, K,
               "Condition parameter type does not match schema type");
  check_query (schema, NULL, "pk = \"\"", NULL, K,
               "The AttributeValue for a key attribute cannot contain an empty string value. "
               "Key: pk");
  /* DynamoDB Local limits the sort key value in a Query, not the partition key's */
  check_query (schema, NULL, t1, NULL, NULL, NULL);
  check_query (schema, NULL, t2, NULL, NULL, NULL);
  check_query (schema, NULL, t3, NULL, K,
               "One or more parameter values were invalid: Aggregated size of all range keys "
               "has exceeded the size limit of 1024 bytes");
}

static void
test_key_condition_location (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoRequest) r1 = query ("pk = \"a\" OR sk = \"b\"", NULL);
  g_autoptr(DynoRequest) r2 = query ("pk = \"a\" AND sk > 5", NULL);
  g_autoptr(GPtrArray) i1 = dyno_request_validate (r1, schema);
  g_autoptr(GPtrArray) i2 = dyno_request_validate (r2, schema);
  DynoIssue *issue;

  issue = expect_issue (i1, "KeyConditionExpression", "OR");
  g_assert_true (issue->has_location);
  g_assert_cmpuint (issue->location.offset, ==, 0);
  g_assert_cmpuint (issue->location.length, ==, strlen ("pk = \"a\" OR sk = \"b\""));
  issue = expect_issue (i2, "KeyConditionExpression", "schema type");
  g_assert_true (issue->has_location);
  g_assert_cmpuint (issue->location.offset, ==, strlen ("pk = \"a\" AND sk > "));
  g_assert_cmpuint (issue->location.length, ==, 1);
}

static void
test_indexes (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoRequest) request = query ("gsi1pk = \"a\"", NULL);
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(DynoRequest) lsi = query ("pk = \"a\" AND lsisk > \"b\"", NULL);
  g_autoptr(DynoRequest) scan = dyno_request_new (DYNO_OP_SCAN, "Things");

  check_query (schema, "nope", "pk = \"a\"", NULL, "IndexName",
               "The table does not have the specified index: nope");
  check_query (schema, "gsi1", "gsi1pk = \"a\" AND gsi1sk > 3", NULL, NULL, NULL);
  check_query (schema, "gsi1", "pk = \"a\"", NULL, "KeyConditionExpression",
               "Query condition missed key schema element: gsi1pk");
  check_query (schema, "gsi1", "gsi1pk = \"a\" AND gsi1sk > \"3\"", NULL,
               "KeyConditionExpression", "Condition parameter type does not match schema type");
  check_query (schema, "gsi1", "gsi1pk = \"\"", NULL, "KeyConditionExpression",
               "Key: gsi1pk");

  request->index_name = g_strdup ("gsi1");
  request->consistent_read = DYNO_TRISTATE_TRUE;
  issues = dyno_request_validate (request, schema);
  expect_issue (issues, "ConsistentRead",
                "Consistent reads are not supported on global secondary indexes");
  g_clear_pointer (&issues, g_ptr_array_unref);

  lsi->index_name = g_strdup ("lsi1");
  lsi->consistent_read = DYNO_TRISTATE_TRUE;
  issues = dyno_request_validate (lsi, schema);
  g_assert_cmpuint (issues->len, ==, 0);
  g_clear_pointer (&issues, g_ptr_array_unref);

  scan->index_name = g_strdup ("gsi1");
  scan->consistent_read = DYNO_TRISTATE_TRUE;
  issues = dyno_request_validate (scan, schema);
  expect_issue (issues, "ConsistentRead", "global secondary indexes");
}

static void
test_filter_rules (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  const char *F = "FilterExpression";
  GString *in = g_string_new ("x IN (0");
  g_autofree char *in100 = NULL;
  g_autofree char *in101 = NULL;
  GString *deep = g_string_new ("a");
  g_autofree char *deep32 = NULL;
  g_autofree char *deep33 = NULL;

  check_query (schema, NULL, "pk = \"a\"", "sk = \"x\"", F,
               "Filter Expression can only contain non-primary key attributes: Primary key "
               "attribute: sk");
  check_query (schema, NULL, "pk = \"a\"", "attribute_exists(pk.x)", F,
               "Primary key attribute: pk");
  check_query (schema, "gsi1", "gsi1pk = \"a\"", "gsi1sk > 1", F,
               "Primary key attribute: gsi1sk");
  /* querying an index, the table's keys are ordinary attributes (DynamoDB Local, dynalite) */
  check_query (schema, "gsi1", "gsi1pk = \"a\"", "pk = \"x\"", NULL, NULL);
  check_query (schema, "lsi1", "pk = \"a\"", "sk = \"x\"", NULL, NULL);
  check_query (schema, "lsi1", "pk = \"a\"", "lsisk = \"x\"", F, "Primary key attribute: lsisk");
  /* another index's key is an ordinary attribute here */
  check_query (schema, NULL, "pk = \"a\"", "gsi1pk = \"x\" AND lsisk = \"y\"", NULL, NULL);
  /* type mismatches in filters are not errors: they evaluate to false */
  check_query (schema, NULL, "pk = \"a\"", "a < 1 AND a > \"x\" AND b BETWEEN 1 AND 2 AND "
               "c = :{\"M\":{}}", NULL, NULL);

  for (int i = 1; i < 100; i++)
    g_string_append_printf (in, ", %d", i);
  in100 = g_strconcat (in->str, ")", NULL);
  in101 = g_strconcat (in->str, ", 100)", NULL);
  check_query (schema, NULL, "pk = \"a\"", in100, NULL, NULL);
  check_query (schema, NULL, "pk = \"a\"", in101, F, "IN lists 101 values");
  g_string_free (in, TRUE);

  for (int i = 1; i < 32; i++)
    g_string_append (deep, ".b");
  deep32 = g_strconcat (deep->str, " = 1", NULL);
  deep33 = g_strconcat (deep->str, "[0] = 1", NULL);
  check_query (schema, NULL, "pk = \"a\"", deep32, NULL, NULL);
  check_query (schema, NULL, "pk = \"a\"", deep33, F, "33 levels deep");
  g_string_free (deep, TRUE);

  check_query (schema, NULL, "pk = \"a\"", "a BETWEEN 5 AND 1", F,
               "Invalid FilterExpression: The BETWEEN operator requires upper bound to be "
               "greater than or equal to lower bound; lower bound operand: AttributeValue: "
               "{N:5}, upper bound operand: AttributeValue: {N:1}");
  check_query (schema, NULL, "pk = \"a\"", "a BETWEEN 5 AND \"x\"", F,
               "Invalid FilterExpression: The BETWEEN operator requires same data type");
  check_query (schema, NULL, "pk = \"a\"", "attribute_type(a, \"XX\")", F,
               "Invalid attribute type name found; type: XX, valid types: "
               "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
  check_query (schema, NULL, "pk = \"a\"", "attribute_type(a, 1)", F,
               "Incorrect operand type for operator or function; operator or function: "
               "attribute_type, operand type: N");
  check_query (schema, NULL, "pk = \"a\"", "contains(a.b, a.b)", F,
               "The first operand must be distinct from the remaining operands for this "
               "operator or function; operator: contains, first operand: [a, b]");
  check_query (schema, NULL, "pk = \"a\"", "x[1] <> x[1]", F,
               "operator: <>, first operand: [x, [1]]");
  check_query (schema, NULL, "pk = \"a\"", "begins_with(a, 1)", F,
               "operator or function: begins_with, operand type: N");
  check_query (schema, NULL, "pk = \"a\"", "begins_with(a, size(b))", F,
               "operator or function: begins_with, operand type: N");
  check_query (schema, NULL, "pk = \"a\"", "attribute_exists(\"x\")", F,
               "Operator or function requires a document path; operator or function: "
               "attribute_exists");
  check_query (schema, NULL, "pk = \"a\"", "a < true", F,
               "Incorrect operand type for operator or function; operator or function: <, "
               "operand type: BOOL");
  check_query (schema, NULL, "pk = \"a\"", "a BETWEEN :{\"L\":[]} AND :{\"L\":[]}", F,
               "operator or function: BETWEEN, operand type: L");
}

static void
test_hand_built_conditions (void)
{
  g_autoptr(DynoRequest) scan = dyno_request_new (DYNO_OP_SCAN, "Things");
  g_autoptr(GPtrArray) issues = NULL;

  scan->filter = dyno_expr_new_and (
    dyno_expr_new_size (dyno_path_new ("a")),
    dyno_expr_new_function (DYNO_FUNCTION_BEGINS_WITH, dyno_expr_new_path (dyno_path_new ("b")),
                            NULL));
  issues = dyno_request_validate (scan, NULL);
  dump (issues);
  g_assert_cmpuint (issues->len, ==, 2);
  g_assert_nonnull (strstr (((DynoIssue *) g_ptr_array_index (issues, 0))->message,
                            "The function is not allowed to be used this way in an expression; "
                            "function: size"));
  g_assert_false (((DynoIssue *) g_ptr_array_index (issues, 0))->has_location);
  g_assert_nonnull (strstr (((DynoIssue *) g_ptr_array_index (issues, 1))->message,
                            "Incorrect number of operands for operator or function; operator "
                            "or function: begins_with, number of operands: 1"));
}

static void
test_condition_expression (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoRequest) put = dyno_request_new (DYNO_OP_PUT_ITEM, "Things");
  g_autoptr(GPtrArray) issues = NULL;

  put->item = item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"}}");
  put->condition = cond ("attribute_not_exists(pk) OR version BETWEEN 3 AND 2");
  issues = dyno_request_validate (put, schema);
  expect_issue (issues, "ConditionExpression",
                "Invalid ConditionExpression: The BETWEEN operator requires upper bound");
}

static void
test_projection_rules (void)
{
  static const struct { const char *text; const char *part; } cases[] = {
    { "a, a.b", "Invalid ProjectionExpression: Two document paths overlap with each other; must "
                "remove or rewrite one of these paths; path one: [a], path two: [a, b]" },
    { "a.b, a[0]", "Invalid ProjectionExpression: Two document paths conflict with each other; "
                   "must remove or rewrite one of these paths; path one: [a, b], path two: "
                   "[a, [0]]" },
    { "x, a[1].b, a[1]", "path one: [a, [1], b], path two: [a, [1]]" },
    { "a, a", "overlap with each other; must remove or rewrite one of these paths; path one: "
              "[a], path two: [a]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoRequest) get = dyno_request_new (DYNO_OP_GET_ITEM, "Things");
      g_autoptr(GPtrArray) issues = NULL;
      g_autoptr(GError) error = NULL;

      get->key = item ("{\"pk\":{\"S\":\"a\"}}");
      get->projection = dyno_expr_parse_projection (cases[i].text, DYNO_SYNTAX_INLINE, NULL,
                                                    NULL, NULL, &error);
      g_assert_no_error (error);
      issues = dyno_request_validate (get, NULL);
      expect_issue (issues, "ProjectionExpression", cases[i].part);
    }
  {
    g_autoptr(DynoRequest) scan = dyno_request_new (DYNO_OP_SCAN, "Things");
    g_autoptr(GPtrArray) issues = NULL;

    scan->projection = dyno_expr_parse_projection ("a.b, a.c, a[0].x, b[0], b[1]",
                                                   DYNO_SYNTAX_INLINE, NULL, NULL, NULL, NULL);
    g_assert_nonnull (scan->projection);
    g_ptr_array_remove_index (scan->projection, 2);
    issues = dyno_request_validate (scan, NULL);
    g_assert_cmpuint (issues->len, ==, 0);
  }
}

static void
check_options (DynoOperation  op,
               gint64         limit,
               gint           segment,
               gint           total,
               const char    *field,
               const char    *part)
{
  g_autoptr(DynoRequest) request = dyno_request_new (op, "Things");
  g_autoptr(GPtrArray) issues = NULL;

  if (op == DYNO_OP_QUERY)
    request->key_condition = cond ("pk = \"a\"");
  request->limit = limit;
  request->segment = segment;
  request->total_segments = total;
  issues = dyno_request_validate (request, NULL);
  if (field == NULL)
    {
      dump (issues);
      g_assert_cmpuint (issues->len, ==, 0);
    }
  else
    expect_issue (issues, field, part);
}

static void
test_options (void)
{
  check_options (DYNO_OP_QUERY, 0, -1, -1, NULL, NULL);
  check_options (DYNO_OP_QUERY, 1, -1, -1, NULL, NULL);
  check_options (DYNO_OP_QUERY, -1, -1, -1, "Limit",
                 "Value '-1' at 'limit' failed to satisfy constraint: Member must have value "
                 "greater than or equal to 1");
  check_options (DYNO_OP_SCAN, -5, -1, -1, "Limit", "Limit must be 1 or more");
  check_options (DYNO_OP_SCAN, 0, 1, 4, NULL, NULL);
  check_options (DYNO_OP_SCAN, 0, 0, 1, NULL, NULL);
  check_options (DYNO_OP_SCAN, 0, 999999, 1000000, NULL, NULL);
  check_options (DYNO_OP_SCAN, 0, 0, -1, "TotalSegments",
                 "The TotalSegments parameter is required but was not present in the request "
                 "when Segment parameter is present");
  check_options (DYNO_OP_SCAN, 0, -1, 2, "Segment",
                 "The Segment parameter is required but was not present in the request when "
                 "parameter TotalSegments is present");
  check_options (DYNO_OP_SCAN, 0, 2, 2, "Segment",
                 "The Segment parameter is zero-based and must be less than parameter "
                 "TotalSegments: Segment: 2 is out of bounds for TotalSegments: 2");
  check_options (DYNO_OP_SCAN, 0, 0, 1000001, "TotalSegments",
                 "Member must have value less than or equal to 1000000");
  check_options (DYNO_OP_SCAN, 0, 0, 0, "TotalSegments",
                 "Member must have value greater than or equal to 1");
  check_options (DYNO_OP_SCAN, 0, -7, 3, "Segment",
                 "Member must have value greater than or equal to 0");
}

static void
check_key (DynoOperation        op,
           const DynoTableInfo *schema,
           const char          *json,
           const char          *part)
{
  g_autoptr(DynoRequest) request = dyno_request_new (op, "Things");
  g_autoptr(GPtrArray) issues = NULL;

  if (json != NULL)
    request->key = item (json);
  issues = dyno_request_validate (request, schema);
  if (part == NULL)
    {
      dump (issues);
      g_assert_cmpuint (issues->len, ==, 0);
    }
  else
    expect_issue (issues, "Key", part);
}

static void
test_keys (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autofree char *long_key = g_strdup_printf ("{\"pk\":{\"S\":\"%0*d\"},\"sk\":{\"S\":\"b\"}}",
                                               2049, 0);
  const char *nomatch = "The provided key element does not match the schema";

  check_key (DYNO_OP_GET_ITEM, schema, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"}}", NULL);
  check_key (DYNO_OP_GET_ITEM, schema, NULL, "Member must not be null");
  check_key (DYNO_OP_DELETE_ITEM, schema, "{\"pk\":{\"S\":\"a\"}}", nomatch);
  check_key (DYNO_OP_UPDATE_ITEM, schema, "{\"pk\":{\"N\":\"1\"},\"sk\":{\"S\":\"b\"}}",
             nomatch);
  check_key (DYNO_OP_GET_ITEM, schema,
             "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},\"x\":{\"S\":\"c\"}}", nomatch);
  check_key (DYNO_OP_GET_ITEM, schema, "{\"pk\":{\"S\":\"\"},\"sk\":{\"S\":\"b\"}}",
             "One or more parameter values were invalid: The AttributeValue for a key "
             "attribute cannot contain an empty string value. Key: pk");
  check_key (DYNO_OP_GET_ITEM, schema, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"\"}}",
             "Key: sk");
  check_key (DYNO_OP_GET_ITEM, schema, long_key, "Size of hashkey has exceeded");
  /* without a schema: still no empty key values */
  check_key (DYNO_OP_GET_ITEM, NULL, "{\"id\":{\"B\":\"\"}}",
             "cannot contain an empty binary value. Key: id");
  check_key (DYNO_OP_GET_ITEM, NULL, "{\"id\":{\"S\":\"x\"},\"other\":{\"N\":\"1\"}}", NULL);
}

static void
check_put (const DynoTableInfo *schema,
           const char          *json,
           const char          *part)
{
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_PUT_ITEM, "Things");
  g_autoptr(GPtrArray) issues = NULL;

  if (json != NULL)
    request->item = item (json);
  issues = dyno_request_validate (request, schema);
  if (part == NULL)
    {
      dump (issues);
      g_assert_cmpuint (issues->len, ==, 0);
    }
  else
    expect_issue (issues, "Item", part);
}

static void
test_put_item (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();

  check_put (schema, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},\"x\":{\"S\":\"\"}}", NULL);
  check_put (schema, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},\"gsi1pk\":{\"S\":\"g\"},"
             "\"gsi1sk\":{\"N\":\"1\"}}", NULL);
  check_put (schema, NULL, "Member must not be null");
  check_put (schema, "{\"sk\":{\"S\":\"b\"}}",
             "One or more parameter values were invalid: Missing the key pk in the item");
  check_put (schema, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}",
             "One or more parameter values were invalid: Type mismatch for key sk expected: S "
             "actual: N");
  check_put (schema, "{\"pk\":{\"S\":\"\"},\"sk\":{\"S\":\"b\"}}",
             "One or more parameter values are not valid. The AttributeValue for a key "
             "attribute cannot contain an empty string value. Key: pk");
  check_put (schema, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},\"gsi1sk\":{\"S\":\"1\"}}",
             "One or more parameter values were invalid: Type mismatch for Index Key gsi1sk "
             "Expected: N Actual: S IndexName: gsi1");
  check_put (schema, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},\"gsi1pk\":{\"S\":\"\"}}",
             "A value specified for a secondary index key is not supported. The AttributeValue "
             "for a key attribute cannot contain an empty string value. IndexName: gsi1, "
             "IndexKey: gsi1pk");
  check_put (NULL, "{\"anything\":{\"S\":\"\"}}", NULL);
  {
    g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_PUT_ITEM, "Things");
    g_autoptr(GPtrArray) issues = NULL;

    request->item = item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"}}");
    request->return_values = DYNO_RETURN_VALUES_ALL_OLD;
    issues = dyno_request_validate (request, schema);
    g_assert_cmpuint (issues->len, ==, 0);
    g_clear_pointer (&issues, g_ptr_array_unref);
    request->return_values = DYNO_RETURN_VALUES_ALL_NEW;
    issues = dyno_request_validate (request, schema);
    expect_issue (issues, "ReturnValues", "ReturnValues can only be ALL_OLD or NONE");
  }
}

static void
check_update (const DynoTableInfo *schema,
              const char          *text,
              const char          *part)
{
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_UPDATE_ITEM, "Things");
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;

  request->key = item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"}}");
  request->update = dyno_expr_parse_update (text, DYNO_SYNTAX_INLINE, NULL, NULL, NULL, NULL,
                                            &error);
  g_assert_no_error (error);
  issues = dyno_request_validate (request, schema);
  if (part == NULL)
    {
      dump (issues);
      g_assert_cmpuint (issues->len, ==, 0);
    }
  else
    expect_issue (issues, "UpdateExpression", part);
}

static void
test_update_rules (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();

  check_update (schema, "SET a = 1, b = b + 1, c = list_append(c, :{\"L\":[]}) REMOVE d[0] "
                "ADD n 1, s :{\"SS\":[\"x\"]} DELETE t :{\"NS\":[\"1\"]}", NULL);
  check_update (schema, "SET pk = \"x\"",
                "Cannot update attribute pk. This attribute is part of the key");
  check_update (NULL, "SET pk = \"x\"", NULL);
  check_update (schema, "SET a = 1, a.b = 2",
                "Invalid UpdateExpression: Two document paths overlap with each other; must "
                "remove or rewrite one of these paths; path one: [a], path two: [a, b]");
  check_update (schema, "SET a.b = 1 REMOVE a[0]",
                "Two document paths conflict with each other");
  check_update (schema, "ADD a \"x\"",
                "Incorrect operand type for operator or function; operator: ADD, operand type: S");
  check_update (schema, "DELETE a 1", "operator: DELETE, operand type: N");
  check_update (schema, "SET a = b + \"x\"", "operator or function: +, operand type: S");
  check_update (schema, "SET a = list_append(a, 1)",
                "operator or function: list_append, operand type: N");
  {
    g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_UPDATE_ITEM, "Things");
    g_autoptr(GPtrArray) issues = NULL;
    DynoExpr *chain = dyno_expr_new_arith (
      DYNO_EXPR_PLUS,
      dyno_expr_new_arith (DYNO_EXPR_PLUS, dyno_expr_new_path (dyno_path_new ("a")),
                           dyno_expr_new_value (dyno_value_new_number ("1", -1, NULL))),
      dyno_expr_new_value (dyno_value_new_number ("2", -1, NULL)));

    request->key = item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"}}");
    request->update = dyno_update_new ();
    dyno_update_add_clause (request->update, DYNO_UPDATE_SET, dyno_path_new ("a"), chain);
    issues = dyno_request_validate (request, schema);
    expect_issue (issues, "UpdateExpression", "one + or -, not a chain");
  }
}

static void
test_no_schema (void)
{
  g_autoptr(DynoRequest) r1 = query ("x = \"a\" AND x > \"b\"", NULL);
  g_autoptr(DynoRequest) r2 = query ("x = \"\"", "x = 1");
  g_autoptr(DynoRequest) r3 = query ("anything = 1 AND other > 3", "anything = 2");
  g_autoptr(GPtrArray) i1 = dyno_request_validate (r1, NULL);
  g_autoptr(GPtrArray) i2 = dyno_request_validate (r2, NULL);
  g_autoptr(GPtrArray) i3 = dyno_request_validate (r3, NULL);

  expect_issue (i1, "KeyConditionExpression",
                "KeyConditionExpressions must only contain one condition per key");
  expect_issue (i2, "KeyConditionExpression", "empty string value. Key: x");
  g_assert_cmpuint (i3->len, ==, 0);
}

static void
check_select (DynoSelect  select,
              const char *index,
              const char *projection,
              const char *part)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "Things");
  g_autoptr(GPtrArray) issues = NULL;

  request->select = select;
  request->index_name = g_strdup (index);
  if (projection != NULL)
    request->projection = dyno_expr_parse_projection (projection, DYNO_SYNTAX_INLINE, NULL, NULL,
                                                      NULL, NULL);
  issues = dyno_request_validate (request, schema);
  if (part == NULL)
    {
      dump (issues);
      g_assert_cmpuint (issues->len, ==, 0);
    }
  else
    expect_issue (issues, "Select", part);
}

static void
test_select (void)
{
  check_select (DYNO_SELECT_SPECIFIC_ATTRIBUTES, NULL, "a, b", NULL);
  check_select (DYNO_SELECT_SPECIFIC_ATTRIBUTES, NULL, NULL,
                "Must specify the AttributesToGet or ProjectionExpression when choosing to get "
                "SPECIFIC_ATTRIBUTES");
  check_select (DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES, "gsi1", NULL, NULL);
  check_select (DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES, NULL, NULL,
                "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
  check_select (DYNO_SELECT_COUNT, NULL, NULL, NULL);
  check_select (DYNO_SELECT_COUNT, NULL, "a",
                "Cannot specify the ProjectionExpression when choosing to get COUNT");
  check_select (DYNO_SELECT_ALL_ATTRIBUTES, NULL, "a",
                "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES");
  check_select (DYNO_SELECT_UNSET, NULL, "a", NULL);
}

static void
test_start_key (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  static const struct { const char *index; const char *json; gboolean ok; } cases[] = {
    { NULL, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"}}", TRUE },
    { NULL, "{\"pk\":{\"S\":\"a\"}}", FALSE },
    { NULL, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}", FALSE },
    { "gsi1", "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},\"gsi1pk\":{\"S\":\"g\"},"
      "\"gsi1sk\":{\"N\":\"2\"}}", TRUE },
    { "gsi1", "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"}}", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "Things");
      g_autoptr(GPtrArray) issues = NULL;

      request->index_name = g_strdup (cases[i].index);
      request->exclusive_start_key = item (cases[i].json);
      issues = dyno_request_validate (request, schema);
      if (cases[i].ok)
        g_assert_cmpuint (issues->len, ==, 0);
      else
        expect_issue (issues, "ExclusiveStartKey",
                      "The provided starting key is invalid: The provided key element does not "
                      "match the schema");
    }
}

/* Rules found by tests/integration/test_conformance.py against DynamoDB Local. */
static void
test_conformance_messages (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  GString *in = g_string_new ("x IN (0");
  GString *deep = g_string_new ("a");
  g_autofree char *in101 = NULL;
  g_autofree char *deep33 = NULL;

  for (int i = 1; i <= 100; i++)
    g_string_append_printf (in, ", %d", i);
  g_string_append (in, ")");
  in101 = g_string_free (in, FALSE);
  for (int i = 1; i < 33; i++)
    g_string_append (deep, ".a");
  g_string_append (deep, " = 1");
  deep33 = g_string_free (deep, FALSE);

  check_query (schema, NULL, "pk = \"a\"", in101, "FilterExpression",
               "Invalid FilterExpression: The IN operator is provided with too many operands; "
               "number of operands: 101");
  check_query (schema, NULL, "pk = \"a\"", deep33, "FilterExpression",
               "Invalid FilterExpression: The document path has too many nesting levels; "
               "nesting levels: 33");
  /* 300 operators (comparisons, AND/OR/NOT, BETWEEN, IN, functions, size()) at most */
  for (guint n = 150; n <= 151; n++)
    {
      GString *ors = g_string_new ("a = 1");
      g_autofree char *text = NULL;

      for (guint i = 1; i < n; i++)
        g_string_append (ors, " OR a = 1");
      text = g_string_free (ors, FALSE);
      /* 2n - 1 operators: 299, then 301 */
      if (n == 150)
        check_query (schema, NULL, "pk = \"a\"", text, NULL, NULL);
      else
        check_query (schema, NULL, "pk = \"a\"", text, "FilterExpression",
                     "Invalid FilterExpression: The expression contains too many operators; "
                     "operator count: 301");
    }
  {
    GString *sizes = g_string_new ("size(a) = 1");
    g_autofree char *text = NULL;

    for (guint i = 1; i < 101; i++)
      g_string_append (sizes, " OR size(a) = 1");
    text = g_string_free (sizes, FALSE);
    check_query (schema, NULL, "pk = \"a\"", text, "FilterExpression", "too many operators");
  }
  /* an empty index key names the index */
  check_query (schema, "gsi1", "gsi1pk = \"\"", NULL, "KeyConditionExpression",
               "A value specified for a secondary index key is not supported. The "
               "AttributeValue for a key attribute cannot contain an empty string value. "
               "IndexName: gsi1, IndexKey: gsi1pk");
}

static void
test_conformance_key_paths (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  static const struct { const char *projection; const char *part; } cases[] = {
    { "sk.x", "are not allowed: Key: sk" },
    { "a, gsi1pk[0]", "are not allowed: IndexKey: gsi1pk" },
    { "lsisk.a.b", "are not allowed: IndexKey: lsisk" },
    { "a.pk, b[0].sk", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "Things");
      g_autoptr(GPtrArray) issues = NULL;
      g_autoptr(GError) error = NULL;

      request->projection = dyno_expr_parse_projection (cases[i].projection, DYNO_SYNTAX_INLINE,
                                                        NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      issues = dyno_request_validate (request, schema);
      if (cases[i].part == NULL)
        {
          dump (issues);
          g_assert_cmpuint (issues->len, ==, 0);
        }
      else
        expect_issue (issues, "ProjectionExpression", cases[i].part);
    }
  {
    g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "Things");
    g_autoptr(GPtrArray) issues = NULL;

    request->filter = cond ("pk.x = 1");
    issues = dyno_request_validate (request, schema);
    expect_issue (issues, "FilterExpression", "'.' are not allowed: Key: pk");
  }
  check_update (schema, "SET gsi1pk.x = 1", "are not allowed: IndexKey: gsi1pk");
}

static void
test_conformance_index_keys (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autofree char *long_pk = g_strnfill (2049, 'x');
  g_autofree char *long_sk = g_strnfill (1025, 'y');
  g_autofree char *max_sk = g_strnfill (1024, 'y');
  g_autofree char *u1 = g_strdup_printf ("SET gsi1pk = \"%s\"", long_pk);
  g_autofree char *u2 = g_strdup_printf ("SET lsisk = \"%s\"", long_sk);
  g_autofree char *u3 = g_strdup_printf ("SET lsisk = \"%s\"", max_sk);
  const struct { const char *item; const char *part; } puts[] = {
    { long_pk, "gsi1pk" }, { long_sk, "lsisk" }, { max_sk, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (puts); i++)
    {
      g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_PUT_ITEM, "Things");
      g_autoptr(GPtrArray) issues = NULL;
      g_autofree char *json =
        g_strdup_printf ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},\"%s\":{\"S\":\"%s\"}}",
                         i == 0 ? "gsi1pk" : "lsisk", puts[i].item);

      request->item = item (json);
      issues = dyno_request_validate (request, schema);
      if (puts[i].part == NULL)
        {
          dump (issues);
          g_assert_cmpuint (issues->len, ==, 0);
        }
      else
        expect_issue (issues, "Item", "Size limit exceeded");
    }

  check_update (schema, "SET gsi1pk = \"\"", "update a secondary index key to a value that is "
                "not supported. The AttributeValue for a key attribute cannot contain an empty "
                "string value.");
  check_update (schema, "SET gsi1sk = \"1\"", "Type mismatch for Index Key gsi1sk Expected: N "
                "Actual: S IndexName: gsi1");
  check_update (schema, u1, "Size limit exceeded");
  check_update (schema, u2, "Size limit exceeded");
  check_update (schema, u3, NULL);
  check_update (schema, "SET gsi1pk = \"g\", gsi1sk = 2, lsisk = \"l\"", NULL);
}

static void
test_conformance_item_size (void)
{
  g_autoptr(DynoTableInfo) schema = dyno_table_info_new ("Huge", "pk", DYNO_VALUE_S, NULL,
                                                         DYNO_VALUE_S);
  /* pk "big" is 2 + 3 bytes, the name "a" 1: the rest of 409600 is the value */
  gsize room = 409600 - 2 - 3 - 1;

  for (guint extra = 0; extra < 2; extra++)
    {
      g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_PUT_ITEM, "Huge");
      g_autoptr(GPtrArray) issues = NULL;
      g_autofree char *value = g_strnfill (room + extra, 'x');
      g_autofree char *json = g_strdup_printf ("{\"pk\":{\"S\":\"big\"},\"a\":{\"S\":\"%s\"}}",
                                               value);

      request->item = item (json);
      issues = dyno_request_validate (request, schema);
      if (extra == 0)
        {
          dump (issues);
          g_assert_cmpuint (issues->len, ==, 0);
        }
      else
        expect_issue (issues, "Item", "Item size has exceeded the maximum allowed size");
    }

  for (guint extra = 0; extra < 2; extra++)
    {
      g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_UPDATE_ITEM, "Huge");
      g_autoptr(GPtrArray) issues = NULL;
      g_autoptr(GError) error = NULL;
      /* key 5 bytes, names "a" and "b" 1 each: 409599 bytes, or 409601 with one more each */
      g_autofree char *value = g_strnfill ((409600 - 5 - 2) / 2 + extra, 'x');
      g_autofree char *text = g_strdup_printf ("SET a = \"%s\", b = \"%s\"", value, value);

      request->key = item ("{\"pk\":{\"S\":\"big\"}}");
      request->update = dyno_expr_parse_update (text, DYNO_SYNTAX_INLINE, NULL, NULL, NULL,
                                                NULL, &error);
      g_assert_no_error (error);
      issues = dyno_request_validate (request, schema);
      if (extra == 0)
        {
          dump (issues);
          g_assert_cmpuint (issues->len, ==, 0);
        }
      else
        expect_issue (issues, "UpdateExpression",
                      "Item size to update has exceeded the maximum allowed size");
    }
}

static void
test_conformance_select_on_gsi (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  DynoIndexInfo keys_only = { 0, };
  const char *indexes[] = { "gsi1", "gsi2", "lsi1" };

  keys_only.name = (char *) "gsi2";
  keys_only.global = TRUE;
  keys_only.partition_key.name = (char *) "g2";
  keys_only.partition_key.type = DYNO_VALUE_S;
  keys_only.projection = DYNO_PROJECTION_KEYS_ONLY;
  keys_only.read_capacity = -1;
  keys_only.write_capacity = -1;
  dyno_table_info_add_index (schema, &keys_only);

  for (guint i = 0; i < G_N_ELEMENTS (indexes); i++)
    {
      g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "Things");
      g_autoptr(GPtrArray) issues = NULL;

      request->index_name = g_strdup (indexes[i]);
      request->select = DYNO_SELECT_ALL_ATTRIBUTES;
      issues = dyno_request_validate (request, schema);
      if (i == 1)
        expect_issue (issues, "Select", "Select type ALL_ATTRIBUTES is not supported for "
                      "global secondary index gsi2 because its projection type is not ALL");
      else
        {
          /* gsi1 projects ALL; an LSI fetches from the table */
          dump (issues);
          g_assert_cmpuint (issues->len, ==, 0);
        }
    }
}

static void
test_conformance_start_key_in_range (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  static const struct { const char *kc; const char *esk; const char *part; } cases[] = {
    { "pk = \"p\"", "{\"pk\":{\"S\":\"p\"},\"sk\":{\"S\":\"s\"}}", NULL },
    { "pk = \"p\"", "{\"pk\":{\"S\":\"q\"},\"sk\":{\"S\":\"s\"}}",
      "outside query boundaries" },
    { "pk = \"p\" AND sk > \"m\"", "{\"pk\":{\"S\":\"p\"},\"sk\":{\"S\":\"a\"}}",
      "does not match the range key predicate" },
    { "pk = \"p\" AND sk > \"m\"", "{\"pk\":{\"S\":\"p\"},\"sk\":{\"S\":\"n\"}}", NULL },
    { "pk = \"p\" AND sk BETWEEN \"b\" AND \"d\"",
      "{\"pk\":{\"S\":\"p\"},\"sk\":{\"S\":\"e\"}}", "range key predicate" },
    { "pk = \"p\" AND sk BETWEEN \"b\" AND \"d\"",
      "{\"pk\":{\"S\":\"p\"},\"sk\":{\"S\":\"d\"}}", NULL },
    { "pk = \"p\" AND begins_with(sk, \"US\")",
      "{\"pk\":{\"S\":\"p\"},\"sk\":{\"S\":\"USER#1\"}}", NULL },
    { "pk = \"p\" AND begins_with(sk, \"US\")",
      "{\"pk\":{\"S\":\"p\"},\"sk\":{\"S\":\"U\"}}", "range key predicate" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoRequest) request = query (cases[i].kc, NULL);
      g_autoptr(GPtrArray) issues = NULL;

      request->exclusive_start_key = item (cases[i].esk);
      issues = dyno_request_validate (request, schema);
      if (cases[i].part == NULL)
        {
          dump (issues);
          g_assert_cmpuint (issues->len, ==, 0);
        }
      else
        expect_issue (issues, "ExclusiveStartKey", cases[i].part);
    }
}

/* ---- DynamoDB's limits on expressions (checked on the text as sent) --------------------- */

static char *
repeat_or (const char *term,
           guint       n)
{
  GString *out = g_string_new (term);

  for (guint i = 1; i < n; i++)
    g_string_append_printf (out, " OR %s", term);
  return g_string_free (out, FALSE);
}

static void
test_expression_limits (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();

  /* as sent, "a = :a OR a = :a …" (the printer reuses :a for equal values): 6 bytes a term,
   * 4 a join; 150 terms fit under 300 operators but not in 4 KB with a long name */
  {
    g_autofree char *name = g_strnfill (40, 'n');
    g_autofree char *term = g_strdup_printf ("%s = 1", name);
    g_autofree char *text = repeat_or (term, 100);
    g_autoptr(DynoRequest) request = query ("pk = \"a\"", text);
    g_autoptr(GPtrArray) issues = dyno_request_validate (request, schema);
    g_autoptr(DynoPrintedRequest) printed = dyno_request_print (request);
    g_autofree char *want = g_strdup_printf ("expression size: %zu", strlen (printed->filter));
    DynoIssue *issue;

    g_assert_cmpuint (strlen (printed->filter), >, 4096);
    issue = expect_issue (issues, "FilterExpression",
                          "Invalid FilterExpression: Expression size has exceeded the maximum "
                          "allowed size;");
    g_assert_nonnull (strstr (issue->message, want));
    g_assert_nonnull (strstr (issue->message, "at most 4096 bytes (4 KB)"));
  }
  /* at most 4096: fine */
  {
    g_autofree char *text = repeat_or ("a = 1", 150);
    g_autoptr(DynoRequest) request = query ("pk = \"a\"", text);
    g_autoptr(GPtrArray) issues = dyno_request_validate (request, schema);
    g_autoptr(DynoPrintedRequest) printed = dyno_request_print (request);

    g_assert_cmpuint (strlen (printed->filter), <=, 4096);
    dump (issues);
    g_assert_cmpuint (issues->len, ==, 0);
  }
  /* a condition expression and a projection are measured the same way */
  {
    g_autofree char *name = g_strnfill (60, 'c');
    g_autofree char *term = g_strdup_printf ("attribute_exists(%s)", name);
    g_autofree char *text = repeat_or (term, 80);
    g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_DELETE_ITEM, "Things");
    g_autoptr(GPtrArray) issues = NULL;

    request->key = item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"}}");
    request->condition = cond (text);
    issues = dyno_request_validate (request, schema);
    expect_issue (issues, "ConditionExpression",
                  "Invalid ConditionExpression: Expression size has exceeded the maximum "
                  "allowed size; expression size: ");
  }
  {
    g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "Things");
    g_autoptr(GPtrArray) issues = NULL;

    request->projection = dyno_projection_new ();
    for (guint i = 0; i < 300; i++)
      {
        g_autofree char *name = g_strdup_printf ("attribute%03u", i);
        g_ptr_array_add (request->projection, dyno_path_new (name));
      }
    issues = dyno_request_validate (request, schema);
    expect_issue (issues, "ProjectionExpression",
                  "Invalid ProjectionExpression: Expression size has exceeded the maximum "
                  "allowed size;");
  }
  /* an UpdateExpression counts + and - and its functions: 301 is too many */
  for (guint n = 300; n <= 301; n++)
    {
      g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_UPDATE_ITEM, "Things");
      g_autoptr(GPtrArray) issues = NULL;

      request->key = item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"}}");
      request->update = dyno_update_new ();
      /* "ca = b + b, …": short enough to stay under 4 KB as sent */
      for (guint i = 0; i < n; i++)
        {
          char name[] = { 'c' + i / 26, 'a' + i % 26, '\0' };

          dyno_update_add_clause (request->update, DYNO_UPDATE_SET, dyno_path_new (name),
                                  dyno_expr_new_arith (DYNO_EXPR_PLUS,
                                                       dyno_expr_new_path (dyno_path_new ("b")),
                                                       dyno_expr_new_path (dyno_path_new ("b"))));
        }
      issues = dyno_request_validate (request, schema);
      {
        g_autoptr(DynoPrintedRequest) printed = dyno_request_print (request);

        g_assert_cmpuint (strlen (printed->update), <=, 4096);
      }
      if (n == 300)
        {
          dump (issues);
          g_assert_cmpuint (issues->len, ==, 0);
        }
      else
        expect_issue (issues, "UpdateExpression",
                      "Invalid UpdateExpression: The expression contains too many operators; "
                      "operator count: 301");
    }
}

/* ---- what an index carries ---------------------------------------------------------------- */

static DynoTableInfo *
projected_schema_new (void)
{
  DynoTableInfo *info = dyno_table_info_new ("Ptab", "pk", DYNO_VALUE_S, "sk", DYNO_VALUE_S);
  char *include[] = { (char *) "a", NULL };
  DynoIndexInfo index = { 0, };

  index.read_capacity = index.write_capacity = -1;
  index.partition_key.name = (char *) "g";
  index.partition_key.type = DYNO_VALUE_S;
  index.global = TRUE;
  index.name = (char *) "gkeys";
  index.projection = DYNO_PROJECTION_KEYS_ONLY;
  dyno_table_info_add_index (info, &index);
  index.name = (char *) "ginc";
  index.projection = DYNO_PROJECTION_INCLUDE;
  index.non_key_attributes = include;
  dyno_table_info_add_index (info, &index);
  index.global = FALSE;
  index.partition_key.name = (char *) "pk";
  index.sort_key.name = (char *) "l";
  index.sort_key.type = DYNO_VALUE_S;
  index.name = (char *) "linc";
  dyno_table_info_add_index (info, &index);
  index.name = (char *) "lkeys";
  index.projection = DYNO_PROJECTION_KEYS_ONLY;
  index.non_key_attributes = NULL;
  dyno_table_info_add_index (info, &index);
  return info;
}

static void
check_index_read (const DynoTableInfo *schema,
                  DynoOperation        op,
                  const char          *index,
                  const char          *filter,
                  const char          *projection,
                  const char          *field,
                  const char          *part)
{
  g_autoptr(DynoRequest) request = dyno_request_new (op, "Ptab");
  g_autoptr(GPtrArray) issues = NULL;

  request->index_name = g_strdup (index);
  if (op == DYNO_OP_QUERY)
    request->key_condition = cond (index[0] == 'g' ? "g = \"g\"" : "pk = \"p\"");
  if (filter != NULL)
    request->filter = cond (filter);
  if (projection != NULL)
    {
      g_autoptr(GError) error = NULL;

      request->projection = dyno_expr_parse_projection (projection, DYNO_SYNTAX_INLINE, NULL,
                                                        NULL, NULL, &error);
      g_assert_no_error (error);
    }
  issues = dyno_request_validate (request, schema);
  if (field == NULL)
    {
      dump (issues);
      g_assert_cmpuint (issues->len, ==, 0);
    }
  else
    expect_issue (issues, field, part);
}

/* Each case as DynamoDB Local 3.3.1 answered it (see the conformance test). */
static void
test_index_projection (void)
{
  g_autoptr(DynoTableInfo) s = projected_schema_new ();
  const DynoOperation Q = DYNO_OP_QUERY, S = DYNO_OP_SCAN;
  const char *F = "FilterExpression", *P = "ProjectionExpression";

  /* a Query's filter: refused on GSIs and LSIs alike, naming what the index carries */
  check_index_read (s, Q, "gkeys", "b = 1", NULL, F,
                    "One or more parameter values were invalid: Secondary index gkeys does not "
                    "project one or more filter attributes: [b]");
  check_index_read (s, Q, "gkeys", "c = 1 OR b = 1 AND x.y = 1", NULL, F,
                    "does not project one or more filter attributes: [b, c, x]");
  check_index_read (s, Q, "gkeys", "b = 1", NULL, F,
                    "the index gkeys (projection KEYS_ONLY) carries only pk, sk, g; it cannot "
                    "filter on b");
  check_index_read (s, Q, "ginc", "a = 1 AND b = 1", NULL, F,
                    "(projection INCLUDE) carries only pk, sk, g, a; it cannot filter on b");
  check_index_read (s, Q, "ginc", "a.b = 1 AND sk > \"x\"", NULL, NULL, NULL);
  check_index_read (s, Q, "lkeys", "a = 1", NULL, F,
                    "Secondary index lkeys does not project one or more filter attributes: [a]");
  check_index_read (s, Q, "linc", "a = 1", NULL, NULL, NULL);
  /* a Scan's filter is not refused */
  check_index_read (s, S, "gkeys", "b = 1", NULL, NULL, NULL);
  /* a projection: refused on a GSI (Query and Scan), fetched from the table on an LSI */
  check_index_read (s, Q, "gkeys", NULL, "c, b, a", P,
                    "One or more parameter values were invalid: Global secondary index gkeys "
                    "does not project [a, b, c]");
  check_index_read (s, S, "ginc", NULL, "a.b, l", P,
                    "Global secondary index ginc does not project [l]");
  check_index_read (s, S, "ginc", NULL, "b", P,
                    "the global secondary index ginc (projection INCLUDE) carries only pk, sk, "
                    "g, a; it cannot return b");
  check_index_read (s, Q, "ginc", NULL, "a, pk", NULL, NULL);
  check_index_read (s, Q, "lkeys", NULL, "b", NULL, NULL);
  check_index_read (s, Q, "linc", NULL, "b.c", NULL, NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/validate/key-condition/valid", test_key_condition_valid);
  g_test_add_func ("/validate/key-condition/shape", test_key_condition_shape);
  g_test_add_func ("/validate/key-condition/values", test_key_condition_values);
  g_test_add_func ("/validate/key-condition/location", test_key_condition_location);
  g_test_add_func ("/validate/indexes", test_indexes);
  g_test_add_func ("/validate/filter", test_filter_rules);
  g_test_add_func ("/validate/hand-built", test_hand_built_conditions);
  g_test_add_func ("/validate/condition", test_condition_expression);
  g_test_add_func ("/validate/projection", test_projection_rules);
  g_test_add_func ("/validate/options", test_options);
  g_test_add_func ("/validate/keys", test_keys);
  g_test_add_func ("/validate/put-item", test_put_item);
  g_test_add_func ("/validate/update", test_update_rules);
  g_test_add_func ("/validate/no-schema", test_no_schema);
  g_test_add_func ("/validate/select", test_select);
  g_test_add_func ("/validate/start-key", test_start_key);
  g_test_add_func ("/validate/expression-limits", test_expression_limits);
  g_test_add_func ("/validate/index-projection", test_index_projection);
  g_test_add_func ("/validate/conformance/messages", test_conformance_messages);
  g_test_add_func ("/validate/conformance/key-paths", test_conformance_key_paths);
  g_test_add_func ("/validate/conformance/index-keys", test_conformance_index_keys);
  g_test_add_func ("/validate/conformance/item-size", test_conformance_item_size);
  g_test_add_func ("/validate/conformance/select-on-gsi", test_conformance_select_on_gsi);
  g_test_add_func ("/validate/conformance/start-key-in-range",
                   test_conformance_start_key_in_range);

  return g_test_run ();
}
