/* test-query-draft.c: DynoQueryDraft, the Query or Scan being built
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-expr.h"
#include "dyno-json.h"
#include "dyno-query-draft.h"
#include "dyno-request.h"

/* ---- helpers -------------------------------------------------------------------------------- */

static DynoTableInfo *
schema (DynoValueType pk_type,
        DynoValueType sk_type)
{
  DynoTableInfo *info = dyno_table_info_new ("T", "PK", pk_type, "SK", sk_type);
  DynoIndexInfo gsi = {
    .name = (char *) "gsi1", .global = TRUE,
    .partition_key = { (char *) "gsi1pk", DYNO_VALUE_S },
    .sort_key = { (char *) "gsi1sk", DYNO_VALUE_N },
    .projection = DYNO_PROJECTION_ALL, .read_capacity = -1, .write_capacity = -1,
  };

  dyno_table_info_add_index (info, &gsi);
  return info;
}

static DynoRequest *
request_from_json (const char *json,
                   int         op)
{
  g_autoptr(GError) error = NULL;
  DynoRequest *request = dyno_request_from_json (json, -1, op, &error);

  g_assert_no_error (error);
  g_assert_nonnull (request);
  return request;
}

static DynoExpr *
inline_condition (const char   *text,
                  DynoExprRole  role,
                  GHashTable   *values,
                  GHashTable   *used)
{
  g_autoptr(GError) error = NULL;
  DynoExpr *expr = dyno_expr_parse_condition (text, DYNO_SYNTAX_INLINE, role, NULL, values,
                                              used, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (expr);
  return expr;
}

static char *
draft_request_json (DynoQueryDraft *draft)
{
  g_autoptr(DynoRequest) request = dyno_query_draft_to_request (draft);

  return dyno_request_to_json (request, FALSE);
}

/* request JSON -> draft -> request: the same request, the same JSON. */
static DynoQueryDraft *
assert_round_trip (const char    *json,
                   DynoOperation  op,
                   DynoTableInfo *info)
{
  g_autoptr(DynoRequest) request = request_from_json (json, op);
  g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
  g_autoptr(DynoRequest) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json_in = dyno_request_to_json (request, FALSE);
  g_autofree char *json_out = NULL;

  if (info != NULL)
    dyno_query_draft_set_table_info (draft, info);
  g_assert_true (dyno_query_draft_from_request (draft, request, &error));
  g_assert_no_error (error);
  back = dyno_query_draft_to_request (draft);
  g_assert_true (dyno_request_equal (request, back));
  json_out = dyno_request_to_json (back, FALSE);
  g_assert_cmpstr (json_out, ==, json_in);

  return g_steal_pointer (&draft);
}

/* Forgets the placeholders a parsed expression was written with. */
static void
clear_value_names (DynoExpr *expr)
{
  g_clear_pointer (&expr->value_name, g_free);
  for (guint i = 0; expr->args != NULL && i < expr->args->len; i++)
    clear_value_names (g_ptr_array_index (expr->args, i));
}

static guint
count_issues_for (GPtrArray  *issues,
                  const char *field)
{
  guint n = 0;

  for (guint i = 0; i < issues->len; i++)
    if (g_strcmp0 (((DynoIssue *) g_ptr_array_index (issues, i))->field, field) == 0)
      n++;
  return n;
}

static const char *
error_for (GHashTable *errors,
           const char *field)
{
  GError *error = g_hash_table_lookup (errors, field);

  return error != NULL ? error->message : NULL;
}

/* ---- round trips: every operator, S/N/B ----------------------------------------------------- */

typedef struct {
  DynoValueType  type;
  const char    *tag;     /* "S", "N", "B" */
  const char    *v1;      /* as DynamoDB JSON values hold them */
  const char    *v2;
  const char    *text1;   /* as the parts show them */
  const char    *text2;
} TypeCase;

static const TypeCase type_cases[] = {
  { DYNO_VALUE_S, "S", "ORDER#1", "ORDER#9", "ORDER#1", "ORDER#9" },
  { DYNO_VALUE_N, "N", "10", "250.5", "10", "250.5" },
  { DYNO_VALUE_B, "B", "AAEC", "/w==", "AAEC", "/w==" },
};

static const struct {
  DynoSortKeyOperator  op;
  const char          *expression;  /* with #pk #sk :pk :v1 :v2 */
  gboolean             two_values;
} op_cases[] = {
  { DYNO_SORT_KEY_NONE, "#pk = :pk", FALSE },
  { DYNO_SORT_KEY_EQ, "#pk = :pk AND #sk = :v1", FALSE },
  { DYNO_SORT_KEY_LT, "#pk = :pk AND #sk < :v1", FALSE },
  { DYNO_SORT_KEY_LE, "#pk = :pk AND #sk <= :v1", FALSE },
  { DYNO_SORT_KEY_GT, "#pk = :pk AND #sk > :v1", FALSE },
  { DYNO_SORT_KEY_GE, "#pk = :pk AND #sk >= :v1", FALSE },
  { DYNO_SORT_KEY_BETWEEN, "#pk = :pk AND #sk BETWEEN :v1 AND :v2", TRUE },
  { DYNO_SORT_KEY_BEGINS_WITH, "#pk = :pk AND begins_with(#sk, :v1)", FALSE },
};

static void
test_round_trip_query_operators (void)
{
  for (guint t = 0; t < G_N_ELEMENTS (type_cases); t++)
    for (guint o = 0; o < G_N_ELEMENTS (op_cases); o++)
      for (guint with_schema = 0; with_schema < 2; with_schema++)
        {
          const TypeCase *tc = &type_cases[t];
          g_autoptr(DynoTableInfo) info = schema (DYNO_VALUE_S, tc->type);
          g_autoptr(DynoQueryDraft) draft = NULL;
          g_autofree char *json = NULL;

          /* begins_with is not for N; DynamoDB says so, the draft still holds it */
          json = g_strdup_printf ("{\"TableName\":\"T\",\"KeyConditionExpression\":\"%s\","
                                  "\"ExpressionAttributeNames\":{\"#pk\":\"PK\"%s},"
                                  "\"ExpressionAttributeValues\":{\":pk\":{\"S\":\"USER#1\"}%s%s"
                                  "%s%s%s%s%s%s%s%s}}",
                                  op_cases[o].expression,
                                  op_cases[o].op != DYNO_SORT_KEY_NONE ? ",\"#sk\":\"SK\"" : "",
                                  op_cases[o].op != DYNO_SORT_KEY_NONE ? ",\":v1\":{\"" : "",
                                  op_cases[o].op != DYNO_SORT_KEY_NONE ? tc->tag : "",
                                  op_cases[o].op != DYNO_SORT_KEY_NONE ? "\":\"" : "",
                                  op_cases[o].op != DYNO_SORT_KEY_NONE ? tc->v1 : "",
                                  op_cases[o].op != DYNO_SORT_KEY_NONE ? "\"}" : "",
                                  op_cases[o].two_values ? ",\":v2\":{\"" : "",
                                  op_cases[o].two_values ? tc->tag : "",
                                  op_cases[o].two_values ? "\":\"" : "",
                                  op_cases[o].two_values ? tc->v2 : "",
                                  op_cases[o].two_values ? "\"}" : "");
          draft = assert_round_trip (json, DYNO_OP_QUERY, with_schema ? info : NULL);

          /* the parts describe it */
          g_assert_true (dyno_query_draft_get_key_condition_structured (draft));
          g_assert_cmpstr (dyno_query_draft_get_partition_key_name (draft), ==, "PK");
          g_assert_cmpstr (dyno_query_draft_get_partition_key_text (draft), ==, "USER#1");
          g_assert_cmpint (dyno_query_draft_get_sort_key_operator (draft), ==, op_cases[o].op);
          if (op_cases[o].op != DYNO_SORT_KEY_NONE)
            {
              g_assert_cmpstr (dyno_query_draft_get_sort_key_name (draft), ==, "SK");
              g_assert_cmpstr (dyno_query_draft_get_sort_key_text (draft), ==, tc->text1);
            }
          else
            g_assert_cmpstr (dyno_query_draft_get_sort_key_text (draft), ==, "");
          g_assert_cmpstr (dyno_query_draft_get_sort_key_text2 (draft), ==,
                           op_cases[o].two_values ? tc->text2 : "");

          /* and the parts alone give the same request */
          if (with_schema)
            {
              g_autoptr(DynoQueryDraft) parts = dyno_query_draft_new ();
              g_autoptr(DynoRequest) expected = request_from_json (json, DYNO_OP_QUERY);
              g_autoptr(DynoRequest) built = NULL;
              g_autofree char *json_expected = dyno_request_to_json (expected, FALSE);
              g_autofree char *json_built = NULL;

              dyno_query_draft_set_table_info (parts, info);
              dyno_query_draft_set_table_name (parts, "T");
              dyno_query_draft_set_partition_key_text (parts, "USER#1");
              dyno_query_draft_set_sort_key_operator (parts, op_cases[o].op);
              dyno_query_draft_set_sort_key_text (parts, tc->text1);
              if (op_cases[o].two_values)
                dyno_query_draft_set_sort_key_text2 (parts, tc->text2);
              built = dyno_query_draft_to_request (parts);
              g_assert_true (dyno_request_equal (expected, built));
              /* the same JSON once the printer picks the placeholders' names */
              clear_value_names (expected->key_condition);
              g_free (json_expected);
              json_expected = dyno_request_to_json (expected, FALSE);
              json_built = dyno_request_to_json (built, FALSE);
              g_assert_cmpstr (json_built, ==, json_expected);
            }
        }
}

static void
test_round_trip_query_options (void)
{
  g_autoptr(DynoTableInfo) info = schema (DYNO_VALUE_S, DYNO_VALUE_S);
  g_autoptr(DynoQueryDraft) draft = NULL;

  /* placeholder names and parentheses as written survive */
  draft = assert_round_trip ("{\"TableName\":\"T\",\"IndexName\":\"gsi1\","
                             "\"KeyConditionExpression\":\"(gsi1pk = :who) AND gsi1sk > :n\","
                             "\"FilterExpression\":\"#s = :open OR attribute_not_exists(#s)\","
                             "\"ProjectionExpression\":\"title, #s, tags[0]\","
                             "\"ExpressionAttributeNames\":{\"#s\":\"status\"},"
                             "\"ExpressionAttributeValues\":{\":who\":{\"S\":\"STATUS#open\"},"
                             "\":n\":{\"N\":\"5\"},\":open\":{\"S\":\"open\"}},"
                             "\"Limit\":25,\"ScanIndexForward\":false,\"Select\":"
                             "\"SPECIFIC_ATTRIBUTES\",\"ReturnConsumedCapacity\":\"INDEXES\","
                             "\"ExclusiveStartKey\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"b\"},"
                             "\"gsi1pk\":{\"S\":\"STATUS#open\"},\"gsi1sk\":{\"N\":\"6\"}}}",
                             DYNO_OP_QUERY, info);
  g_assert_cmpstr (dyno_query_draft_get_index_name (draft), ==, "gsi1");
  g_assert_cmpstr (dyno_query_draft_get_partition_key_name (draft), ==, "gsi1pk");
  g_assert_cmpstr (dyno_query_draft_get_sort_key_name (draft), ==, "gsi1sk");
  g_assert_true (dyno_query_draft_get_key_condition_structured (draft));
  g_assert_cmpint (dyno_query_draft_get_sort_key_operator (draft), ==, DYNO_SORT_KEY_GT);
  g_assert_cmpstr (dyno_query_draft_get_sort_key_text (draft), ==, "5");
  g_assert_cmpint (dyno_query_draft_get_limit (draft), ==, 25);
  g_assert_cmpint (dyno_query_draft_get_scan_index_forward (draft), ==, DYNO_TRISTATE_FALSE);
  g_assert_cmpint (dyno_query_draft_get_select (draft), ==, DYNO_SELECT_SPECIFIC_ATTRIBUTES);
  g_assert_cmpint (dyno_query_draft_get_return_consumed_capacity (draft), ==,
                   DYNO_CONSUMED_INDEXES);
  g_assert_nonnull (dyno_query_draft_get_exclusive_start_key (draft));
  g_assert_cmpuint (dyno_query_draft_get_projection (draft)->len, ==, 3);
  g_clear_object (&draft);

  /* explicit defaults are kept as written */
  g_clear_object (&draft);
  draft = assert_round_trip ("{\"TableName\":\"T\",\"KeyConditionExpression\":\"PK = :p\","
                             "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"x\"}},"
                             "\"ScanIndexForward\":true,\"ConsistentRead\":false}",
                             DYNO_OP_QUERY, NULL);
  g_assert_cmpint (dyno_query_draft_get_scan_index_forward (draft), ==, DYNO_TRISTATE_TRUE);
  g_assert_cmpint (dyno_query_draft_get_consistent_read (draft), ==, DYNO_TRISTATE_FALSE);
}

static void
test_round_trip_scan (void)
{
  g_autoptr(DynoQueryDraft) draft = NULL;

  draft = assert_round_trip ("{\"TableName\":\"T\"}", DYNO_OP_SCAN, NULL);
  g_assert_cmpint (dyno_query_draft_get_operation (draft), ==, DYNO_OP_SCAN);
  g_assert_null (dyno_query_draft_get_filter (draft));
  g_assert_null (dyno_query_draft_get_key_condition (draft));
  g_clear_object (&draft);

  draft = assert_round_trip ("{\"TableName\":\"T\",\"FilterExpression\":"
                             "\"size(tags) > :n AND NOT contains(#n, :x) AND b = :b\","
                             "\"ProjectionExpression\":\"a.b, #n\","
                             "\"ExpressionAttributeNames\":{\"#n\":\"name\"},"
                             "\"ExpressionAttributeValues\":{\":n\":{\"N\":\"2\"},"
                             "\":x\":{\"S\":\"tmp\"},\":b\":{\"B\":\"AAE=\"}},"
                             "\"Limit\":100,\"ConsistentRead\":true,\"Select\":\"COUNT\","
                             "\"ReturnConsumedCapacity\":\"TOTAL\",\"Segment\":1,"
                             "\"TotalSegments\":4,"
                             "\"ExclusiveStartKey\":{\"PK\":{\"N\":\"7\"}}}",
                             DYNO_OP_SCAN, NULL);
  g_assert_cmpint (dyno_query_draft_get_segment (draft), ==, 1);
  g_assert_cmpint (dyno_query_draft_get_total_segments (draft), ==, 4);
  g_assert_cmpint (dyno_query_draft_get_consistent_read (draft), ==, DYNO_TRISTATE_TRUE);
  g_assert_nonnull (dyno_query_draft_get_filter (draft));
}

/* A key condition the parts cannot show is held as written; the parts say so. */
static void
test_unstructured_key_condition (void)
{
  g_autoptr(DynoTableInfo) info = schema (DYNO_VALUE_S, DYNO_VALUE_S);
  static const char * const texts[] = {
    "PK = :a AND SK > :b AND SK < :c",  /* two sort conditions */
    "SK > :b",                          /* no partition key */
    "PK = :a AND colour = :b",          /* not a key of the table (with the schema) */
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autofree char *json =
        g_strdup_printf ("{\"TableName\":\"T\",\"KeyConditionExpression\":\"%s\","
                         "\"ExpressionAttributeValues\":{\":a\":{\"S\":\"x\"}%s%s}}", texts[i],
                         strstr (texts[i], ":b") ? ",\":b\":{\"S\":\"y\"}" : "",
                         strstr (texts[i], ":c") ? ",\":c\":{\"S\":\"z\"}" : "");
      g_autoptr(DynoRequest) request = NULL;
      g_autoptr(DynoQueryDraft) draft = NULL;

      if (strstr (texts[i], ":a") == NULL)
        {
          g_free (json);
          json = g_strdup_printf ("{\"TableName\":\"T\",\"KeyConditionExpression\":\"%s\","
                                  "\"ExpressionAttributeValues\":{\":b\":{\"S\":\"y\"}}}",
                                  texts[i]);
        }
      request = request_from_json (json, DYNO_OP_QUERY);
      draft = assert_round_trip (json, DYNO_OP_QUERY, info);
      g_assert_false (dyno_query_draft_get_key_condition_structured (draft));
      g_assert_cmpstr (dyno_query_draft_get_partition_key_text (draft), ==, "");
      g_assert_cmpint (dyno_query_draft_get_sort_key_operator (draft), ==, DYNO_SORT_KEY_NONE);
    }

  /* a value of another type than the schema's would not read back from its text */
  {
    g_autoptr(DynoQueryDraft) draft =
      assert_round_trip ("{\"TableName\":\"T\",\"KeyConditionExpression\":\"PK = :a\","
                         "\"ExpressionAttributeValues\":{\":a\":{\"N\":\"1\"}}}",
                         DYNO_OP_QUERY, info);
    g_assert_false (dyno_query_draft_get_key_condition_structured (draft));
  }
}

/* ---- the parts ------------------------------------------------------------------------------ */

static void
test_parts_follow_schema (void)
{
  g_autoptr(DynoTableInfo) info = schema (DYNO_VALUE_S, DYNO_VALUE_N);
  g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
  g_autofree char *json = NULL;

  dyno_query_draft_set_table_name (draft, "T");
  dyno_query_draft_set_partition_key_text (draft, "USER#1");
  /* no schema: no key names, no key condition */
  g_assert_null (dyno_query_draft_get_key_condition (draft));

  dyno_query_draft_set_table_info (draft, info);
  g_assert_cmpstr (dyno_query_draft_get_partition_key_name (draft), ==, "PK");
  json = draft_request_json (draft);
  g_assert_cmpstr (json, ==, "{\"TableName\":\"T\",\"KeyConditionExpression\":\"PK = :PK\","
                             "\"ExpressionAttributeValues\":{\":PK\":{\"S\":\"USER#1\"}}}");
  g_free (json);

  dyno_query_draft_set_sort_key_operator (draft, DYNO_SORT_KEY_GE);
  dyno_query_draft_set_sort_key_text (draft, "42");
  json = draft_request_json (draft);
  g_assert_cmpstr (json, ==, "{\"TableName\":\"T\",\"KeyConditionExpression\":"
                             "\"PK = :PK AND SK >= :SK\",\"ExpressionAttributeValues\":"
                             "{\":PK\":{\"S\":\"USER#1\"},\":SK\":{\"N\":\"42\"}}}");
  g_free (json);

  /* choosing the index renames the keys and retypes the values */
  dyno_query_draft_set_index_name (draft, "gsi1");
  g_assert_cmpstr (dyno_query_draft_get_partition_key_name (draft), ==, "gsi1pk");
  g_assert_cmpstr (dyno_query_draft_get_sort_key_name (draft), ==, "gsi1sk");
  json = draft_request_json (draft);
  g_assert_cmpstr (json, ==, "{\"TableName\":\"T\",\"IndexName\":\"gsi1\","
                             "\"KeyConditionExpression\":\"gsi1pk = :gsi1pk AND gsi1sk >= "
                             ":gsi1sk\",\"ExpressionAttributeValues\":{\":gsi1pk\":{\"S\":"
                             "\"USER#1\"},\":gsi1sk\":{\"N\":\"42\"}}}");
  g_free (json);

  /* without the schema again, the parts name no key */
  {
    g_autoptr(DynoQueryDraft) copy = dyno_query_draft_new ();

    dyno_query_draft_set_table_info (copy, info);
    dyno_query_draft_set_partition_key_text (copy, "USER#1");
    g_assert_nonnull (dyno_query_draft_get_key_condition (copy));
    dyno_query_draft_set_table_info (copy, NULL);
    g_assert_null (dyno_query_draft_get_partition_key_name (copy));
    g_assert_null (dyno_query_draft_get_key_condition (copy));
    g_assert_cmpstr (dyno_query_draft_get_partition_key_text (copy), ==, "USER#1");
  }

  /* a Scan sends no key condition and no direction, but keeps the parts */
  dyno_query_draft_set_scan_index_forward (draft, DYNO_TRISTATE_FALSE);
  dyno_query_draft_set_operation (draft, DYNO_OP_SCAN);
  json = draft_request_json (draft);
  g_assert_cmpstr (json, ==, "{\"TableName\":\"T\",\"IndexName\":\"gsi1\"}");
  g_assert_cmpstr (dyno_query_draft_get_partition_key_text (draft), ==, "USER#1");
}

/* Without a schema, the key names are read off the key condition the CLI gives. */
static void
test_parts_without_schema (void)
{
  g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
  g_autoptr(DynoExpr) expr = inline_condition ("begins_with(SK, \"root/\") AND PK = \"DRIVE#a\"",
                                               DYNO_EXPR_ROLE_KEY_CONDITION, NULL, NULL);

  dyno_query_draft_set_key_condition (draft, expr);
  g_assert_true (dyno_query_draft_get_key_condition_structured (draft));
  g_assert_cmpstr (dyno_query_draft_get_partition_key_name (draft), ==, "PK");
  g_assert_cmpstr (dyno_query_draft_get_sort_key_name (draft), ==, "SK");
  g_assert_cmpstr (dyno_query_draft_get_partition_key_text (draft), ==, "DRIVE#a");
  g_assert_cmpint (dyno_query_draft_get_sort_key_operator (draft), ==,
                   DYNO_SORT_KEY_BEGINS_WITH);
  g_assert_cmpstr (dyno_query_draft_get_sort_key_text (draft), ==, "root/");
  /* the expression is kept as written: the sort key first */
  g_assert_true (dyno_expr_equal (dyno_query_draft_get_key_condition (draft), expr));

  /* taking the parts as the source rebuilds it from them: the partition key first */
  {
    g_autoptr(DynoQueryDraft) copy = dyno_query_draft_new ();
    g_autoptr(DynoExpr) unstructured =
      inline_condition ("PK = 1 AND SK > 1 AND SK < 3", DYNO_EXPR_ROLE_KEY_CONDITION, NULL,
                        NULL);
    g_autofree char *json = NULL;

    dyno_query_draft_set_table_name (copy, "Files");
    dyno_query_draft_set_key_condition (copy, expr);
    dyno_query_draft_take_key_from_parts (copy);
    g_assert_true (dyno_query_draft_get_key_condition_structured (copy));
    json = draft_request_json (copy);
    g_assert_cmpstr (json, ==, "{\"TableName\":\"Files\",\"KeyConditionExpression\":"
                               "\"PK = :PK AND begins_with(SK, :SK)\","
                               "\"ExpressionAttributeValues\":{\":PK\":{\"S\":\"DRIVE#a\"},"
                               "\":SK\":{\"S\":\"root/\"}}}");

    /* a condition the parts cannot show stays as it is */
    dyno_query_draft_set_key_condition (copy, unstructured);
    dyno_query_draft_take_key_from_parts (copy);
    g_assert_false (dyno_query_draft_get_key_condition_structured (copy));
    g_assert_true (dyno_expr_equal (dyno_query_draft_get_key_condition (copy), unstructured));
  }

  /* editing a part rebuilds it from the parts */
  dyno_query_draft_set_sort_key_text (draft, "root/photos/");
  {
    g_autofree char *json = NULL;

    dyno_query_draft_set_table_name (draft, "Files");
    json = draft_request_json (draft);
    g_assert_cmpstr (json, ==, "{\"TableName\":\"Files\",\"KeyConditionExpression\":"
                               "\"PK = :PK AND begins_with(SK, :SK)\","
                               "\"ExpressionAttributeValues\":{\":PK\":{\"S\":\"DRIVE#a\"},"
                               "\":SK\":{\"S\":\"root/photos/\"}}}");
  }
}

/* ---- validation ----------------------------------------------------------------------------- */

static void
test_validate_parts (void)
{
  g_autoptr(DynoTableInfo) info = schema (DYNO_VALUE_N, DYNO_VALUE_B);
  g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
  g_autoptr(GHashTable) errors = NULL;
  g_autoptr(GPtrArray) issues = NULL;

  dyno_query_draft_set_table_name (draft, "Items");

  /* no schema yet */
  errors = dyno_query_draft_dup_errors (draft);
  g_assert_cmpstr (error_for (errors, DYNO_DRAFT_FIELD_KEY_CONDITION), ==,
                   "The table's key schema is not known yet");
  g_clear_pointer (&errors, g_hash_table_unref);

  dyno_query_draft_set_table_info (draft, info);
  errors = dyno_query_draft_dup_errors (draft);
  g_assert_cmpstr (error_for (errors, DYNO_DRAFT_FIELD_PARTITION_KEY_TEXT), ==,
                   "Enter the partition key value (PK)");
  g_assert_null (error_for (errors, DYNO_DRAFT_FIELD_KEY_CONDITION));
  g_clear_pointer (&errors, g_hash_table_unref);

  dyno_query_draft_set_partition_key_text (draft, "twelve");
  errors = dyno_query_draft_dup_errors (draft);
  g_assert_nonnull (error_for (errors, DYNO_DRAFT_FIELD_PARTITION_KEY_TEXT));
  g_assert_nonnull (strstr (error_for (errors, DYNO_DRAFT_FIELD_PARTITION_KEY_TEXT), "twelve"));
  g_clear_pointer (&errors, g_hash_table_unref);

  dyno_query_draft_set_partition_key_text (draft, "12");
  issues = dyno_query_draft_validate (draft);
  g_assert_cmpuint (issues->len, ==, 0);
  g_clear_pointer (&issues, g_ptr_array_unref);

  dyno_query_draft_set_sort_key_operator (draft, DYNO_SORT_KEY_BETWEEN);
  dyno_query_draft_set_sort_key_text (draft, "AAE=");
  errors = dyno_query_draft_dup_errors (draft);
  g_assert_cmpstr (error_for (errors, DYNO_DRAFT_FIELD_SORT_KEY_TEXT2), ==,
                   "Enter both bounds of the sort key (SK)");
  g_clear_pointer (&errors, g_hash_table_unref);

  dyno_query_draft_set_sort_key_text2 (draft, "not base64!");
  errors = dyno_query_draft_dup_errors (draft);
  g_assert_cmpstr (error_for (errors, DYNO_DRAFT_FIELD_SORT_KEY_TEXT2), ==,
                   "“not base64!” is not base64: binary values are written in base64");
  g_assert_null (error_for (errors, DYNO_DRAFT_FIELD_SORT_KEY_TEXT));
  g_clear_pointer (&errors, g_hash_table_unref);

  /* bounds out of order: the request rule, on the key condition */
  dyno_query_draft_set_sort_key_text2 (draft, "AAA=");
  issues = dyno_query_draft_validate (draft);
  g_assert_cmpuint (count_issues_for (issues, DYNO_DRAFT_FIELD_KEY_CONDITION), ==, 1);
  g_assert_cmpuint (issues->len, ==, 1);
  g_clear_pointer (&issues, g_ptr_array_unref);

  dyno_query_draft_set_sort_key_text2 (draft, "/w==");
  issues = dyno_query_draft_validate (draft);
  g_assert_cmpuint (issues->len, ==, 0);
}

static void
test_validate_request_rules (void)
{
  g_autoptr(DynoTableInfo) info = schema (DYNO_VALUE_S, DYNO_VALUE_S);
  g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
  g_autoptr(GHashTable) errors = NULL;
  g_autoptr(DynoExpr) filter = inline_condition ("PK = \"x\"", DYNO_EXPR_ROLE_FILTER, NULL,
                                                 NULL);
  g_autofree char *big = g_strnfill (1100, 'k');

  dyno_query_draft_set_table_info (draft, info);
  dyno_query_draft_set_table_name (draft, "Items");
  dyno_query_draft_set_partition_key_text (draft, "u");
  dyno_query_draft_set_sort_key_operator (draft, DYNO_SORT_KEY_EQ);
  dyno_query_draft_set_sort_key_text (draft, big);
  errors = dyno_query_draft_dup_errors (draft);
  /* a sort key over 1024 bytes (the existing key size rule) */
  g_assert_nonnull (error_for (errors, DYNO_DRAFT_FIELD_KEY_CONDITION));
  g_assert_nonnull (strstr (error_for (errors, DYNO_DRAFT_FIELD_KEY_CONDITION), "1024"));
  g_assert_cmpuint (g_hash_table_size (errors), ==, 1);
  g_clear_pointer (&errors, g_hash_table_unref);

  /* ConsistentRead on a GSI */
  dyno_query_draft_set_filter (draft, filter);
  dyno_query_draft_set_sort_key_operator (draft, DYNO_SORT_KEY_NONE);
  dyno_query_draft_set_index_name (draft, "gsi1");
  dyno_query_draft_set_consistent_read (draft, DYNO_TRISTATE_TRUE);
  errors = dyno_query_draft_dup_errors (draft);
  g_assert_nonnull (error_for (errors, DYNO_DRAFT_FIELD_CONSISTENT_READ));
  g_assert_cmpuint (g_hash_table_size (errors), ==, 1);
  g_clear_pointer (&errors, g_hash_table_unref);

  /* a Query's filter naming a key attribute */
  dyno_query_draft_set_index_name (draft, NULL);
  dyno_query_draft_set_consistent_read (draft, DYNO_TRISTATE_UNSET);
  errors = dyno_query_draft_dup_errors (draft);
  g_assert_nonnull (error_for (errors, DYNO_DRAFT_FIELD_FILTER));
  g_assert_cmpuint (g_hash_table_size (errors), ==, 1);
  g_clear_pointer (&errors, g_hash_table_unref);

  /* an unknown index */
  dyno_query_draft_set_filter (draft, NULL);
  dyno_query_draft_set_operation (draft, DYNO_OP_SCAN);
  dyno_query_draft_set_index_name (draft, "nope");
  errors = dyno_query_draft_dup_errors (draft);
  g_assert_nonnull (error_for (errors, DYNO_DRAFT_FIELD_INDEX_NAME));
  g_assert_cmpuint (g_hash_table_size (errors), ==, 1);
  g_clear_pointer (&errors, g_hash_table_unref);

  /* a Query written as text without a key condition */
  dyno_query_draft_set_index_name (draft, NULL);
  dyno_query_draft_set_operation (draft, DYNO_OP_QUERY);
  dyno_query_draft_set_key_condition (draft, NULL);
  errors = dyno_query_draft_dup_errors (draft);
  g_assert_cmpstr (error_for (errors, DYNO_DRAFT_FIELD_PARTITION_KEY_TEXT), ==,
                   "Enter the partition key value (PK)");
  g_assert_cmpuint (g_hash_table_size (errors), ==, 1);
}

/* ---- refusals ------------------------------------------------------------------------------- */

static void
count_cb (guint *n)
{
  (*n)++;
}

static void
assert_refused (DynoRequest *request,
                const char  *expected)
{
  g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  guint changed = 0;

  dyno_query_draft_set_table_name (draft, "Keep");
  dyno_query_draft_set_limit (draft, 3);
  before = dyno_query_draft_to_json (draft, FALSE);
  g_signal_connect_swapped (draft, "changed", G_CALLBACK (count_cb), &changed);
  g_signal_connect_swapped (draft, "notify", G_CALLBACK (count_cb), &changed);

  g_assert_false (dyno_query_draft_from_request (draft, request, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_cmpstr (error->message, ==, expected);
  after = dyno_query_draft_to_json (draft, FALSE);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpuint (changed, ==, 0);
}

static void
test_refusals (void)
{
  g_autoptr(DynoRequest) put = request_from_json ("{\"TableName\":\"T\",\"Item\":"
                                                  "{\"PK\":{\"S\":\"a\"}}}", DYNO_OP_PUT_ITEM);
  g_autoptr(DynoRequest) get = request_from_json ("{\"TableName\":\"T\",\"Key\":"
                                                  "{\"PK\":{\"S\":\"a\"}}}", DYNO_OP_GET_ITEM);
  g_autoptr(DynoRequest) scan = dyno_request_new (DYNO_OP_SCAN, "T");
  g_autoptr(DynoRequest) query = dyno_request_new (DYNO_OP_QUERY, "T");

  assert_refused (put, "A PutItem request cannot be opened as a query: only a Query or a Scan "
                       "can");
  assert_refused (get, "A GetItem request cannot be opened as a query: only a Query or a Scan "
                       "can");

  scan->key_condition = inline_condition ("PK = 1", DYNO_EXPR_ROLE_KEY_CONDITION, NULL, NULL);
  assert_refused (scan, "A Scan has no KeyConditionExpression: the request cannot be opened as "
                        "a query");
  g_clear_pointer (&scan->key_condition, dyno_expr_free);
  scan->scan_index_forward = DYNO_TRISTATE_FALSE;
  assert_refused (scan, "A Scan has no ScanIndexForward: the request cannot be opened as a "
                        "query");

  query->condition = inline_condition ("attribute_exists(PK)", DYNO_EXPR_ROLE_CONDITION, NULL,
                                       NULL);
  assert_refused (query, "A Query has no ConditionExpression: the request cannot be opened as "
                         "a query");
  g_clear_pointer (&query->condition, dyno_expr_free);
  query->return_values = DYNO_RETURN_VALUES_ALL_OLD;
  assert_refused (query, "A Query has no ReturnValues: the request cannot be opened as a query");
}

/* ---- signals -------------------------------------------------------------------------------- */

typedef struct {
  guint changed;
  guint notifies;
  GPtrArray *names;
  guint notifies_before_changed;
} Counts;

static void
changed_cb (DynoQueryDraft *draft,
            Counts         *counts)
{
  counts->changed++;
  counts->notifies_before_changed = counts->notifies;
}

static void
notify_cb (DynoQueryDraft *draft,
           GParamSpec     *pspec,
           Counts         *counts)
{
  counts->notifies++;
  g_ptr_array_add (counts->names, g_strdup (pspec->name));
}

static void
reset (Counts *counts)
{
  counts->changed = 0;
  counts->notifies = 0;
  counts->notifies_before_changed = 0;
  g_ptr_array_set_size (counts->names, 0);
}

static gboolean
notified (Counts     *counts,
          const char *name)
{
  for (guint i = 0; i < counts->names->len; i++)
    if (strcmp (g_ptr_array_index (counts->names, i), name) == 0)
      return TRUE;
  return FALSE;
}

static void
test_changed_signal (void)
{
  g_autoptr(DynoTableInfo) info = schema (DYNO_VALUE_S, DYNO_VALUE_S);
  g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  Counts counts = { 0, 0, names };

  g_signal_connect (draft, "changed", G_CALLBACK (changed_cb), &counts);
  g_signal_connect (draft, "notify", G_CALLBACK (notify_cb), &counts);

  dyno_query_draft_set_table_name (draft, "T");
  g_assert_cmpuint (counts.changed, ==, 1);
  g_assert_cmpuint (counts.notifies, ==, 1);
  reset (&counts);

  /* the same value again: nothing */
  dyno_query_draft_set_table_name (draft, "T");
  dyno_query_draft_set_limit (draft, 0);
  dyno_query_draft_set_operation (draft, DYNO_OP_QUERY);
  dyno_query_draft_set_partition_key_text (draft, "");
  g_object_set (draft, "table-name", "T", "max-items", (guint64) 0, NULL);
  g_assert_cmpuint (counts.changed, ==, 0);
  g_assert_cmpuint (counts.notifies, ==, 0);

  /* the schema: names change, no key yet */
  dyno_query_draft_set_table_info (draft, info);
  g_assert_cmpuint (counts.changed, ==, 1);
  g_assert_true (notified (&counts, "table-info"));
  /* a setter's notifications come before "changed" (g_object_set() holds them back) */
  g_assert_cmpuint (counts.notifies_before_changed, ==, counts.notifies);
  g_assert_true (notified (&counts, "partition-key-name"));
  g_assert_true (notified (&counts, "sort-key-name"));
  g_assert_false (notified (&counts, "key-condition"));
  reset (&counts);

  /* a part: its property and the key condition, one change */
  g_object_set (draft, "partition-key-text", "USER#1", NULL);
  g_assert_cmpuint (counts.changed, ==, 1);
  g_assert_cmpuint (counts.notifies, ==, 2);
  g_assert_true (notified (&counts, "partition-key-text"));
  g_assert_true (notified (&counts, "key-condition"));
  reset (&counts);

  /* an operator without its value: the key condition stops being complete */
  dyno_query_draft_set_sort_key_operator (draft, DYNO_SORT_KEY_BEGINS_WITH);
  g_assert_cmpuint (counts.changed, ==, 1);
  g_assert_true (notified (&counts, "sort-key-operator"));
  g_assert_true (notified (&counts, "key-condition"));
  g_assert_null (dyno_query_draft_get_key_condition (draft));
  reset (&counts);

  /* a whole request: one change */
  request = request_from_json ("{\"TableName\":\"T\",\"KeyConditionExpression\":"
                               "\"PK = :p AND SK < :s\",\"ExpressionAttributeValues\":"
                               "{\":p\":{\"S\":\"a\"},\":s\":{\"S\":\"b\"}},\"Limit\":5}",
                               DYNO_OP_QUERY);
  g_assert_true (dyno_query_draft_from_request (draft, request, &error));
  g_assert_cmpuint (counts.changed, ==, 1);
  g_assert_cmpuint (counts.notifies_before_changed, ==, counts.notifies);
  g_assert_true (notified (&counts, "limit"));
  g_assert_true (notified (&counts, "sort-key-text"));
  g_assert_true (notified (&counts, "sort-key-operator"));
  g_assert_true (notified (&counts, "partition-key-text"));
  reset (&counts);

  /* the same request again: nothing changes */
  g_assert_true (dyno_query_draft_from_request (draft, request, &error));
  g_assert_cmpuint (counts.changed, ==, 0);
  g_assert_cmpuint (counts.notifies, ==, 0);

  /* a saved query: one change */
  dyno_query_draft_set_max_items (draft, 40);
  json = dyno_query_draft_to_json (draft, FALSE);
  dyno_query_draft_set_limit (draft, 9);
  dyno_query_draft_set_max_items (draft, 0);
  reset (&counts);
  g_assert_true (dyno_query_draft_load_json (draft, json, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (counts.changed, ==, 1);
  g_assert_cmpuint (counts.notifies, ==, 2);
  g_assert_true (notified (&counts, "limit"));
  g_assert_true (notified (&counts, "max-items"));
}

/* ---- saved queries -------------------------------------------------------------------------- */

static void
assert_json_round_trip (DynoQueryDraft *draft)
{
  g_autofree char *json = dyno_query_draft_to_json (draft, TRUE);
  g_autoptr(DynoQueryDraft) loaded = dyno_query_draft_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json_again = NULL;
  g_autoptr(DynoRequest) a = NULL;
  g_autoptr(DynoRequest) b = NULL;

  dyno_query_draft_set_table_info (loaded, dyno_query_draft_get_table_info (draft));
  if (!dyno_query_draft_load_json (loaded, json, -1, &error))
    g_error ("%s\n%s", json, error->message);
  g_assert_no_error (error);
  json_again = dyno_query_draft_to_json (loaded, TRUE);
  g_assert_cmpstr (json_again, ==, json);

  a = dyno_query_draft_to_request (draft);
  b = dyno_query_draft_to_request (loaded);
  g_assert_true (dyno_request_equal (a, b));
  g_assert_cmpstr (dyno_query_draft_get_partition_key_text (loaded), ==,
                   dyno_query_draft_get_partition_key_text (draft));
  g_assert_cmpstr (dyno_query_draft_get_sort_key_text (loaded), ==,
                   dyno_query_draft_get_sort_key_text (draft));
  g_assert_cmpstr (dyno_query_draft_get_sort_key_text2 (loaded), ==,
                   dyno_query_draft_get_sort_key_text2 (draft));
  g_assert_cmpint (dyno_query_draft_get_sort_key_operator (loaded), ==,
                   dyno_query_draft_get_sort_key_operator (draft));
  /* a Scan saves no key condition */
  if (dyno_query_draft_get_operation (draft) == DYNO_OP_QUERY)
    g_assert_cmpint (dyno_query_draft_get_key_condition_structured (loaded), ==,
                     dyno_query_draft_get_key_condition_structured (draft));
  g_assert_cmpuint (dyno_query_draft_get_max_items (loaded), ==,
                    dyno_query_draft_get_max_items (draft));
}

static void
test_json_round_trip (void)
{
  g_autoptr(DynoTableInfo) info = schema (DYNO_VALUE_S, DYNO_VALUE_N);
  g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
  g_autoptr(DynoExpr) filter = inline_condition ("status IN (\"open\", \"late\") OR size(x) > 3",
                                                 DYNO_EXPR_ROLE_FILTER, NULL, NULL);
  g_autoptr(GPtrArray) projection = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  dyno_query_draft_set_table_info (draft, info);
  dyno_query_draft_set_table_name (draft, "T");
  dyno_query_draft_set_partition_key_text (draft, "TENANT#acme");
  dyno_query_draft_set_sort_key_operator (draft, DYNO_SORT_KEY_BETWEEN);
  dyno_query_draft_set_sort_key_text (draft, "1");
  dyno_query_draft_set_sort_key_text2 (draft, "20");
  dyno_query_draft_set_filter (draft, filter);
  projection = dyno_expr_parse_projection ("a, b.c, `order-date`", DYNO_SYNTAX_INLINE, NULL,
                                           NULL, NULL, &error);
  g_assert_no_error (error);
  dyno_query_draft_set_projection (draft, projection);
  dyno_query_draft_set_scan_index_forward (draft, DYNO_TRISTATE_FALSE);
  dyno_query_draft_set_limit (draft, 50);
  dyno_query_draft_set_consistent_read (draft, DYNO_TRISTATE_TRUE);
  dyno_query_draft_set_return_consumed_capacity (draft, DYNO_CONSUMED_TOTAL);
  dyno_query_draft_set_max_items (draft, 500);
  assert_json_round_trip (draft);

  /* the documented shape */
  json = dyno_query_draft_to_json (draft, FALSE);
  g_assert_true (g_str_has_prefix (json, "{\"format\":\"dynotable-query-draft\",\"version\":1,"
                                         "\"operation\":\"Query\",\"request\":{\"TableName\":"
                                         "\"T\",\"FilterExpression\":"));
  g_assert_nonnull (strstr (json, ",\"key\":{\"partition\":\"TENANT#acme\",\"sortOperator\":"
                                  "\"between\",\"sort\":\"1\",\"sort2\":\"20\"},"
                                  "\"maxItems\":500}"));
  g_assert_null (strstr (json, "KeyConditionExpression"));
  g_clear_pointer (&json, g_free);

  /* an unfinished key is saved as typed */
  dyno_query_draft_set_sort_key_text2 (draft, "twenty");
  g_assert_null (dyno_query_draft_get_key_condition (draft));
  assert_json_round_trip (draft);

  /* a key condition from text is saved as the expression */
  {
    g_autoptr(DynoExpr) key = inline_condition ("PK = \"a\" AND SK > 3 AND SK < 5",
                                                DYNO_EXPR_ROLE_KEY_CONDITION, NULL, NULL);

    dyno_query_draft_set_key_condition (draft, key);
    g_assert_false (dyno_query_draft_get_key_condition_structured (draft));
    assert_json_round_trip (draft);
    json = dyno_query_draft_to_json (draft, FALSE);
    g_assert_nonnull (strstr (json, "KeyConditionExpression"));
    g_assert_null (strstr (json, "\"key\""));
    g_clear_pointer (&json, g_free);
  }

  /* a Scan */
  dyno_query_draft_set_operation (draft, DYNO_OP_SCAN);
  dyno_query_draft_set_scan_index_forward (draft, DYNO_TRISTATE_UNSET);
  dyno_query_draft_set_segment (draft, 0);
  dyno_query_draft_set_total_segments (draft, 2);
  dyno_query_draft_set_max_items (draft, 0);
  assert_json_round_trip (draft);
}

static void
test_json_refusals (void)
{
  static const struct {
    const char *json;
    const char *message;
  } cases[] = {
    { "[1]", "A saved query is a JSON object" },
    { "{\"format\":\"other\",\"version\":1}",
      "This is not a saved query: its format is “other”, not “dynotable-query-draft”" },
    { "{\"format\":\"dynotable-query-draft\",\"version\":2,\"operation\":\"Query\"}",
      "This saved query has version 2, and this DynoTable reads versions up to 1: it was saved "
      "by a newer DynoTable" },
    { "{\"format\":\"dynotable-query-draft\",\"version\":\"1\"}",
      "A saved query's “version” must be a whole number" },
    { "{\"format\":\"dynotable-query-draft\",\"version\":1,\"operation\":\"Query\","
      "\"request\":{\"TableName\":\"T\"},\"colour\":\"red\"}",
      "A saved query has no member “colour”" },
    { "{\"format\":\"dynotable-query-draft\",\"version\":1,\"operation\":\"PutItem\","
      "\"request\":{\"TableName\":\"T\"}}",
      "A saved query's operation is “Query” or “Scan”, not “PutItem”" },
    { "{\"format\":\"dynotable-query-draft\",\"version\":1,\"operation\":\"Scan\","
      "\"request\":{\"TableName\":\"T\"},\"maxItems\":0}",
      "A saved query's “maxItems” must be a whole number of at least 1" },
    { "{\"format\":\"dynotable-query-draft\",\"version\":1,\"operation\":\"Query\","
      "\"request\":{\"TableName\":\"T\"},\"key\":{\"partition\":\"a\",\"sortOperator\":\"~\"}}",
      "A saved query's sort-key operator is one of none, =, <, <=, >, >=, between, "
      "begins_with, not “~”" },
    { "{\"format\":\"dynotable-query-draft\",\"version\":1,\"operation\":\"Scan\","
      "\"request\":{\"TableName\":\"T\"},\"key\":{\"partition\":\"a\"}}",
      "A saved query's “key” is an object, and only a Query without a KeyConditionExpression "
      "has one" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
      g_autoptr(GError) error = NULL;

      dyno_query_draft_set_table_name (draft, "Keep");
      g_assert_false (dyno_query_draft_load_json (draft, cases[i].json, -1, &error));
      g_assert_nonnull (error);
      g_assert_cmpstr (error->message, ==, cases[i].message);
      g_assert_cmpstr (dyno_query_draft_get_table_name (draft), ==, "Keep");
    }

  /* a saved query names its table */
  {
    g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
    g_autoptr(DynoQueryDraft) loaded = dyno_query_draft_new ();
    g_autoptr(GError) error = NULL;
    g_autofree char *json = NULL;

    dyno_query_draft_set_operation (draft, DYNO_OP_SCAN);
    json = dyno_query_draft_to_json (draft, FALSE);
    g_assert_false (dyno_query_draft_load_json (loaded, json, -1, &error));
    g_assert_nonnull (error);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "TableName"));
  }

  /* the request's own errors come through */
  {
    g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
    g_autoptr(GError) error = NULL;

    g_assert_false (dyno_query_draft_load_json (draft, "{\"format\":\"dynotable-query-draft\","
                                                "\"version\":1,\"operation\":\"Scan\","
                                                "\"request\":{\"TableName\":\"T\","
                                                "\"Limit\":\"x\"}}", -1, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "Limit"));
  }
}

/* ---- the command line's requests ------------------------------------------------------------ */

/* What dynotable-cli built before the draft, for the same options: each option parsed in the
 * inline syntax with the --values map, straight into the request's fields. */
typedef struct {
  DynoOperation  op;
  const char    *index;
  const char    *key;
  const char    *filter;
  const char    *project;
  const char    *values;        /* {":name": DynamoDB JSON value} */
  const char    *start_key;
  gint64         limit;
  gboolean       desc;
  gboolean       consistent;
  DynoSelect     select;
  DynoReturnConsumedCapacity rcc;
  gint           segment;
  gint           total_segments;
} CliOptions;

static GHashTable *
cli_values (const char *json)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) dyno_value_free);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) members = NULL;

  if (json == NULL)
    return values;
  root = dyno_json_parse (json, -1, &error);
  g_assert_no_error (error);
  members = json_object_get_members (json_node_get_object (root));
  for (GList *l = members; l != NULL; l = l->next)
    {
      DynoValue *value =
        dyno_value_from_json_node (json_object_get_member (json_node_get_object (root),
                                                           l->data), &error);
      g_assert_no_error (error);
      g_hash_table_insert (values, g_strdup (l->data), value);
    }
  return values;
}

static DynoRequest *
old_cli_request (const CliOptions *o)
{
  g_autoptr(GHashTable) values = cli_values (o->values);
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;
  DynoRequest *request = dyno_request_new (o->op, "Files");

  request->index_name = g_strdup (o->index);
  if (o->key != NULL)
    request->key_condition = inline_condition (o->key, DYNO_EXPR_ROLE_KEY_CONDITION, values,
                                               used);
  if (o->filter != NULL)
    request->filter = inline_condition (o->filter, DYNO_EXPR_ROLE_FILTER, values, used);
  if (o->project != NULL)
    {
      request->projection = dyno_expr_parse_projection (o->project, DYNO_SYNTAX_INLINE, NULL,
                                                        used, NULL, &error);
      g_assert_no_error (error);
    }
  if (o->start_key != NULL)
    {
      request->exclusive_start_key = dyno_item_from_ddb_json (o->start_key, -1, &error);
      g_assert_no_error (error);
    }
  request->limit = o->limit;
  if (o->op == DYNO_OP_QUERY && o->desc)
    request->scan_index_forward = DYNO_TRISTATE_FALSE;
  if (o->consistent)
    request->consistent_read = DYNO_TRISTATE_TRUE;
  request->select = o->select;
  request->return_consumed_capacity = o->rcc;
  request->segment = o->segment;
  request->total_segments = o->total_segments;

  return request;
}

/* The same options through the draft, as dynotable-cli fills it now. */
static DynoRequest *
draft_cli_request (const CliOptions *o)
{
  g_autoptr(GHashTable) values = cli_values (o->values);
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
  g_autoptr(GError) error = NULL;

  dyno_query_draft_set_operation (draft, o->op);
  dyno_query_draft_set_table_name (draft, "Files");
  dyno_query_draft_set_index_name (draft, o->index);
  if (o->key != NULL)
    {
      g_autoptr(DynoExpr) key = inline_condition (o->key, DYNO_EXPR_ROLE_KEY_CONDITION, values,
                                                  used);
      dyno_query_draft_set_key_condition (draft, key);
    }
  if (o->filter != NULL)
    {
      g_autoptr(DynoExpr) filter = inline_condition (o->filter, DYNO_EXPR_ROLE_FILTER, values,
                                                     used);
      dyno_query_draft_set_filter (draft, filter);
    }
  if (o->project != NULL)
    {
      g_autoptr(GPtrArray) paths = dyno_expr_parse_projection (o->project, DYNO_SYNTAX_INLINE,
                                                               NULL, used, NULL, &error);
      g_assert_no_error (error);
      dyno_query_draft_set_projection (draft, paths);
    }
  if (o->start_key != NULL)
    {
      g_autoptr(DynoItem) start = dyno_item_from_ddb_json (o->start_key, -1, &error);
      g_assert_no_error (error);
      dyno_query_draft_set_exclusive_start_key (draft, start);
    }
  dyno_query_draft_set_limit (draft, o->limit);
  if (o->desc)
    dyno_query_draft_set_scan_index_forward (draft, DYNO_TRISTATE_FALSE);
  if (o->consistent)
    dyno_query_draft_set_consistent_read (draft, DYNO_TRISTATE_TRUE);
  dyno_query_draft_set_select (draft, o->select);
  dyno_query_draft_set_return_consumed_capacity (draft, o->rcc);
  dyno_query_draft_set_segment (draft, o->segment);
  dyno_query_draft_set_total_segments (draft, o->total_segments);

  return dyno_query_draft_to_request (draft);
}

static void
test_cli_equivalence (void)
{
  static const CliOptions cases[] = {
    { DYNO_OP_QUERY, NULL, "PK = \"DRIVE#a91\" AND begins_with(SK, \"root/photos/\")", NULL,
      NULL, NULL, NULL, 0, FALSE, FALSE, 0, 0, -1, -1 },
    { DYNO_OP_QUERY, NULL, "PK = :actor AND SK BETWEEN :from AND :to", "kind <> :k",
      "SK, kind", "{\":actor\":{\"S\":\"ACTOR#u_8814\"},\":from\":{\"S\":"
      "\"EVT#2026-06-23T00:00:00Z\"},\":to\":{\"S\":\"EVT#2026-06-23T23:59:59Z\"},"
      "\":k\":{\"S\":\"login\"}}", NULL, 10, TRUE, TRUE, DYNO_SELECT_SPECIFIC_ATTRIBUTES,
      DYNO_CONSUMED_TOTAL, -1, -1 },
    { DYNO_OP_QUERY, "gsi1", "(gsi1pk = \"STATUS#open\") AND gsi1sk <= 20260623", NULL, NULL,
      NULL, "{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"b\"},\"gsi1pk\":{\"S\":\"STATUS#open\"},"
      "\"gsi1sk\":{\"N\":\"20260601\"}}", 0, FALSE, FALSE, 0, DYNO_CONSUMED_INDEXES, -1, -1 },
    { DYNO_OP_QUERY, NULL, "SK > \"a\" AND PK = \"b\" AND PK = \"c\"", NULL, NULL, NULL, NULL,
      0, TRUE, FALSE, DYNO_SELECT_COUNT, 0, -1, -1 },
    { DYNO_OP_QUERY, NULL, "PK = :b AND SK = :n", NULL, NULL,
      "{\":b\":{\"B\":\"AAEC\"},\":n\":{\"N\":\"-1.50\"}}", NULL, 0, FALSE, FALSE, 0, 0, -1,
      -1 },
    { DYNO_OP_SCAN, NULL, NULL, "attribute_exists(#x) AND `order-date` >= \"2026\"",
      "a.b[2], `order-date`", NULL, NULL, 5, FALSE, TRUE, 0, 0, 1, 3 },
    { DYNO_OP_SCAN, "gsi1", NULL, NULL, NULL, NULL, NULL, 0, FALSE, FALSE,
      DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES, DYNO_CONSUMED_NONE, -1, -1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoRequest) old_request = NULL;
      g_autoptr(DynoRequest) new_request = NULL;
      g_autofree char *old_json = NULL;
      g_autofree char *new_json = NULL;

      if (cases[i].filter != NULL && strstr (cases[i].filter, "#x") != NULL)
        {
          /* #x is not inline syntax: use a plain name */
          CliOptions o = cases[i];

          o.filter = "attribute_exists(x) AND `order-date` >= \"2026\"";
          old_request = old_cli_request (&o);
          new_request = draft_cli_request (&o);
        }
      else
        {
          old_request = old_cli_request (&cases[i]);
          new_request = draft_cli_request (&cases[i]);
        }

      g_assert_true (dyno_request_equal (old_request, new_request));
      old_json = dyno_request_to_json (old_request, TRUE);
      new_json = dyno_request_to_json (new_request, TRUE);
      g_assert_cmpstr (new_json, ==, old_json);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/query-draft/round-trip/query-operators", test_round_trip_query_operators);
  g_test_add_func ("/query-draft/round-trip/query-options", test_round_trip_query_options);
  g_test_add_func ("/query-draft/round-trip/scan", test_round_trip_scan);
  g_test_add_func ("/query-draft/round-trip/unstructured-key", test_unstructured_key_condition);
  g_test_add_func ("/query-draft/parts/schema", test_parts_follow_schema);
  g_test_add_func ("/query-draft/parts/no-schema", test_parts_without_schema);
  g_test_add_func ("/query-draft/validate/parts", test_validate_parts);
  g_test_add_func ("/query-draft/validate/request-rules", test_validate_request_rules);
  g_test_add_func ("/query-draft/refusals", test_refusals);
  g_test_add_func ("/query-draft/changed", test_changed_signal);
  g_test_add_func ("/query-draft/json/round-trip", test_json_round_trip);
  g_test_add_func ("/query-draft/json/refusals", test_json_refusals);
  g_test_add_func ("/query-draft/cli-equivalence", test_cli_equivalence);

  return g_test_run ();
}
