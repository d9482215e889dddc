/* test-eval.c: the engine's evaluator, case by case against DynamoDB's answers
 *
 * Every case marked [L] was run against DynamoDB Local 3.3.1 (UpdateItem with a
 * ConditionExpression for conditions, UpdateItem with ReturnValues=ALL_NEW for updates,
 * GetItem with a ProjectionExpression for projections) and its answer is the expectation
 * written here.  Cases without the mark follow the documentation (dynamodb-facts.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-eval.h"
#include "dyno-json.h"

static DynoItem *
item_from (const char *json)
{
  g_autoptr(GError) error = NULL;
  DynoItem *item;

  if (json == NULL)
    return NULL;
  item = dyno_item_from_ddb_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (item);
  return item;
}

/* {":x":{"N":"1"}} -> placeholder -> DynoValue* (borrowed from *holder) */
static GHashTable *
values_from (const char *json, DynoItem **holder)
{
  GHashTable *values = g_hash_table_new (g_str_hash, g_str_equal);
  const DynoValue *map;

  *holder = item_from (json != NULL ? json : "{}");
  map = dyno_item_get_map (*holder);
  for (guint i = 0; i < dyno_value_get_n_children (map); i++)
    g_hash_table_insert (values, (gpointer) dyno_value_get_member_name (map, i, NULL),
                         (gpointer) dyno_value_get_child (map, i));
  return values;
}

static DynoExpr *
parse_condition (const char *text, const char *values_json, DynoItem **holder)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) values = values_from (values_json, holder);
  DynoExpr *expr = dyno_expr_parse_condition (text, DYNO_SYNTAX_DYNAMODB,
                                              DYNO_EXPR_ROLE_CONDITION, NULL, values, NULL,
                                              NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (expr);
  return expr;
}

/* ---- conditions ------------------------------------------------------------------------- */

typedef struct {
  const char *item;
  const char *expr;
  const char *values;
  int         expect;   /* 1 true, 0 false, -1 error */
  const char *error;    /* the message's start, for -1 */
} CondCase;

#define ERR(msg) -1, msg

static const CondCase cond_cases[] = {
  /* size() of a string counts UTF-16 code units [L] */
  { "{\"s\":{\"S\":\"é\"}}", "size(s) = :n", "{\":n\":{\"N\":\"1\"}}", 1 },
  { "{\"s\":{\"S\":\"é\"}}", "size(s) = :n", "{\":n\":{\"N\":\"2\"}}", 0 },
  { "{\"s\":{\"S\":\"😀\"}}", "size(s) = :n", "{\":n\":{\"N\":\"1\"}}", 0 },
  { "{\"s\":{\"S\":\"😀\"}}", "size(s) = :n", "{\":n\":{\"N\":\"2\"}}", 1 },
  { "{\"s\":{\"S\":\"😀\"}}", "size(s) = :n", "{\":n\":{\"N\":\"4\"}}", 0 },
  /* size() of N or BOOL: the comparison is false, <> true [L] */
  { "{\"n\":{\"N\":\"5\"}}", "size(n) = :n", "{\":n\":{\"N\":\"1\"}}", 0 },
  { "{\"n\":{\"N\":\"5\"}}", "size(n) <> :n", "{\":n\":{\"N\":\"1\"}}", 1 },
  { "{\"n\":{\"BOOL\":true}}", "size(n) > :n", "{\":n\":{\"N\":\"0\"}}", 0 },
  { "{}", "size(n) <> :n", "{\":n\":{\"N\":\"1\"}}", 1 },
  /* size() of B, maps, lists, sets [L] */
  { "{\"a\":{\"M\":{\"x\":{\"N\":\"1\"},\"y\":{\"N\":\"2\"}}}}", "size(a) = :x",
    "{\":x\":{\"N\":\"2\"}}", 1 },
  { "{\"a\":{\"B\":\"AQID\"}}", "size(a) = :x", "{\":x\":{\"N\":\"3\"}}", 1 },
  { "{\"a\":{\"SS\":[\"x\",\"y\",\"z\"]}}", "size(a) = :x", "{\":x\":{\"N\":\"3\"}}", 1 },
  { "{\"a\":{\"L\":[{\"NULL\":true}]}}", "size(a) = :x", "{\":x\":{\"N\":\"1\"}}", 1 },
  { "{\"a\":{\"S\":\"abc\"}}", "size(a) BETWEEN :x AND :y",
    "{\":x\":{\"N\":\"3\"},\":y\":{\"N\":\"3\"}}", 1 },
  { "{\"a\":{\"S\":\"abc\"}}", "size(a) IN (:x)", "{\":x\":{\"N\":\"3\"}}", 1 },
  /* <> and a missing attribute [L] */
  { "{}", "a <> :n", "{\":n\":{\"N\":\"1\"}}", 1 },
  { "{}", "a <> b", NULL, 1 },
  { "{\"a\":{\"N\":\"1\"}}", "a <> b", NULL, 1 },
  { "{\"a\":{\"N\":\"1\"}}", "a <> :n", "{\":n\":{\"S\":\"1\"}}", 1 },
  { "{\"a\":{\"N\":\"1\"}}", "a <> :n", "{\":n\":{\"N\":\"1.0\"}}", 0 },
  { "{}", "NOT (a = :n)", "{\":n\":{\"N\":\"1\"}}", 1 },
  { "{}", "NOT (a < :n)", "{\":n\":{\"N\":\"1\"}}", 1 },
  /* different types order as false, not as an error [L] */
  { "{\"a\":{\"S\":\"1\"}}", "a < :n", "{\":n\":{\"N\":\"2\"}}", 0 },
  { "{\"a\":{\"S\":\"1\"}}", "NOT (a < :n)", "{\":n\":{\"N\":\"2\"}}", 1 },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "a < :n", "{\":n\":{\"N\":\"2\"}}", 0 },
  /* numbers are numbers: 1e2 = 100 [L] */
  { "{\"a\":{\"N\":\"100\"}}", "a = :n", "{\":n\":{\"N\":\"1e2\"}}", 1 },
  { "{\"a\":{\"N\":\"-1\"}}", "a < :x", "{\":x\":{\"N\":\"-0.5\"}}", 1 },
  { "{\"a\":{\"N\":\"9\"}}", "a < :x", "{\":x\":{\"N\":\"10\"}}", 1 },
  { "{\"a\":{\"N\":\"0.001\"}}", "a > :x", "{\":x\":{\"N\":\"-1E+3\"}}", 1 },
  /* S orders by UTF-8 bytes, B by unsigned bytes [L] */
  { "{\"a\":{\"S\":\"a\"}}", "a < :x", "{\":x\":{\"S\":\"B\"}}", 0 },
  { "{\"a\":{\"S\":\"z\"}}", "a < :x", "{\":x\":{\"S\":\"¿\"}}", 1 },
  { "{\"a\":{\"S\":\"\\uffff\"}}", "a < :x", "{\":x\":{\"S\":\"😀\"}}", 1 },
  { "{\"a\":{\"B\":\"fw==\"}}", "a < :x", "{\":x\":{\"B\":\"gA==\"}}", 1 },
  { "{\"a\":{\"S\":\"ab\"}}", "a > :x", "{\":x\":{\"S\":\"a\"}}", 1 },
  /* a literal operand an ordering cannot take is an error [L] */
  { "{\"a\":{\"N\":\"1\"}}", "a < :n", "{\":n\":{\"L\":[{\"N\":\"2\"}]}}",
    ERR ("Invalid ConditionExpression: Incorrect operand type for operator or function; "
         "operator or function: <, operand type: L") },
  { "{\"a\":{\"BOOL\":true}}", "a > :x", "{\":x\":{\"BOOL\":false}}",
    ERR ("Invalid ConditionExpression: Incorrect operand type for operator or function; "
         "operator or function: >, operand type: BOOL") },
  /* = on every type; sets and maps unordered, lists ordered [L] */
  { "{\"a\":{\"BOOL\":true}}", "a = :x", "{\":x\":{\"BOOL\":true}}", 1 },
  { "{\"a\":{\"M\":{\"x\":{\"N\":\"1\"},\"y\":{\"N\":\"2\"}}}}", "a = :x",
    "{\":x\":{\"M\":{\"y\":{\"N\":\"2\"},\"x\":{\"N\":\"1.0\"}}}}", 1 },
  { "{\"a\":{\"NS\":[\"1\",\"2\"]}}", "a = :x", "{\":x\":{\"NS\":[\"2\",\"1\"]}}", 1 },
  { "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]}}", "a = :x",
    "{\":x\":{\"L\":[{\"N\":\"2\"},{\"N\":\"1\"}]}}", 0 },
  { "{\"a\":{\"N\":\"6\"}}", "a = :x", "{\":x\":{\"NS\":[\"6\"]}}", 0 },
  { "{\"a\":{\"NULL\":true}}", "a = :x", "{\":x\":{\"NULL\":true}}", 1 },
  /* BETWEEN [L] */
  { "{\"a\":{\"N\":\"1\"}}", "a BETWEEN :h AND :l", "{\":l\":{\"N\":\"0\"},\":h\":{\"N\":\"2\"}}",
    ERR ("Invalid ConditionExpression: The BETWEEN operator requires upper bound to be "
         "greater than or equal to lower bound; lower bound operand: AttributeValue: {N:2}, "
         "upper bound operand: AttributeValue: {N:0}") },
  { "{\"a\":{\"N\":\"1\"}}", "a BETWEEN :l AND :h", "{\":l\":{\"N\":\"0\"},\":h\":{\"S\":\"2\"}}",
    ERR ("Invalid ConditionExpression: The BETWEEN operator requires same data type for "
         "lower and upper bounds; lower bound operand: AttributeValue: {N:0}, upper bound "
         "operand: AttributeValue: {S:2}") },
  { "{\"a\":{\"N\":\"1\"}}", "a BETWEEN b AND c", NULL, 0 },
  { "{\"a\":{\"N\":\"1\"},\"b\":{\"N\":\"3\"},\"c\":{\"N\":\"0\"}}", "a BETWEEN b AND c", NULL, 0 },
  { "{\"a\":{\"N\":\"1\"},\"b\":{\"N\":\"0\"},\"c\":{\"S\":\"x\"}}", "a BETWEEN b AND c", NULL, 0 },
  { "{\"a\":{\"N\":\"1\"},\"b\":{\"N\":\"1\"},\"c\":{\"N\":\"1\"}}", "a BETWEEN b AND c", NULL, 1 },
  { "{\"a\":{\"S\":\"m\"}}", "a BETWEEN :l AND :h", "{\":l\":{\"S\":\"a\"},\":h\":{\"S\":\"m\"}}", 1 },
  { "{\"a\":{\"S\":\"n\"}}", "a BETWEEN :l AND :h", "{\":l\":{\"S\":\"a\"},\":h\":{\"S\":\"m\"}}", 0 },
  /* IN [L] */
  { "{\"a\":{\"N\":\"1\"}}", "a IN (:x, :y)", "{\":x\":{\"S\":\"1\"},\":y\":{\"N\":\"1.0\"}}", 1 },
  { "{\"a\":{\"N\":\"2\"}}", "a IN (:x, :y)", "{\":x\":{\"S\":\"1\"},\":y\":{\"N\":\"1.0\"}}", 0 },
  { "{}", "NOT a IN (:x, :y)", "{\":x\":{\"S\":\"1\"},\":y\":{\"N\":\"1.0\"}}", 1 },
  /* begins_with on S and B only [L] */
  { "{\"a\":{\"N\":\"1\"}}", "begins_with(a, :x)", "{\":x\":{\"S\":\"1\"}}", 0 },
  { "{\"a\":{\"S\":\"1\"}}", "begins_with(a, :x)", "{\":x\":{\"N\":\"1\"}}",
    ERR ("Invalid ConditionExpression: Incorrect operand type for operator or function; "
         "operator or function: begins_with, operand type: N") },
  { "{\"a\":{\"B\":\"AQI=\"}}", "begins_with(a, :x)", "{\":x\":{\"B\":\"AQ==\"}}", 1 },
  { "{\"a\":{\"SS\":[\"ab\",\"c\"]}}", "begins_with(a, :x)", "{\":x\":{\"S\":\"a\"}}", 0 },
  { "{\"a\":{\"S\":\"abc\"}}", "begins_with(a, :x)", "{\":x\":{\"S\":\"abcd\"}}", 0 },
  { "{\"a\":{\"S\":\"abc\"}}", "begins_with(a, :x)", "{\":x\":{\"S\":\"\"}}", 1 },
  { "{\"a\":{\"S\":\"abc\"}}", "begins_with(:x, :y)", "{\":x\":{\"S\":\"abc\"},\":y\":{\"S\":\"a\"}}", 1 },
  /* contains [L] */
  { "{\"a\":{\"SS\":[\"ab\",\"c\"]}}", "contains(a, :x)", "{\":x\":{\"S\":\"a\"}}", 0 },
  { "{\"a\":{\"SS\":[\"ab\",\"c\"]}}", "contains(a, :x)", "{\":x\":{\"S\":\"c\"}}", 1 },
  { "{\"a\":{\"NS\":[\"1\",\"2\"]}}", "contains(a, :x)", "{\":x\":{\"N\":\"1.00\"}}", 1 },
  { "{\"a\":{\"NS\":[\"1\",\"2\"]}}", "contains(a, :x)", "{\":x\":{\"S\":\"1\"}}", 0 },
  { "{\"a\":{\"BS\":[\"AQ==\",\"Ag==\"]}}", "contains(a, :x)", "{\":x\":{\"B\":\"Ag==\"}}", 1 },
  { "{\"a\":{\"L\":[{\"N\":\"1\"},{\"M\":{\"b\":{\"S\":\"x\"}}}]}}", "contains(a, :x)",
    "{\":x\":{\"M\":{\"b\":{\"S\":\"x\"}}}}", 1 },
  { "{\"a\":{\"L\":[{\"N\":\"1\"},{\"SS\":[\"x\"]}]}}", "contains(a, :x)",
    "{\":x\":{\"SS\":[\"x\"]}}", 1 },
  { "{\"a\":{\"L\":[{\"N\":\"1\"},{\"L\":[{\"S\":\"x\"}]}]}}", "contains(a, :x)",
    "{\":x\":{\"L\":[{\"S\":\"x\"}]}}", 1 },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "contains(a, :x)", "{\":x\":{\"S\":\"1\"}}", 0 },
  { "{\"a\":{\"B\":\"AQID\"}}", "contains(a, :x)", "{\":x\":{\"B\":\"AgM=\"}}", 1 },
  { "{\"a\":{\"S\":\"hello\"}}", "contains(a, :x)", "{\":x\":{\"S\":\"ll\"}}", 1 },
  { "{\"a\":{\"S\":\"hello\"}}", "contains(a, :x)", "{\":x\":{\"S\":\"\"}}", 1 },
  { "{\"a\":{\"S\":\"hello\"}}", "contains(a, :x)", "{\":x\":{\"S\":\"lo!\"}}", 0 },
  { "{\"a\":{\"M\":{\"ll\":{\"S\":\"x\"}}}}", "contains(a, :x)", "{\":x\":{\"S\":\"ll\"}}", 0 },
  { "{\"a\":{\"S\":\"hello\"},\"b\":{\"S\":\"ell\"}}", "contains(a, b)", NULL, 1 },
  { "{\"a\":{\"S\":\"abc\"}}", "contains(:x, a)", "{\":x\":{\"S\":\"abcd\"}}", 1 },
  /* attribute_exists / attribute_not_exists / attribute_type, nested paths [L] */
  { "{\"a\":{\"NULL\":true}}", "attribute_exists(a)", NULL, 1 },
  { "{\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"1\"}]}}}}", "attribute_exists(a.b[0])", NULL, 1 },
  { "{\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"1\"}]}}}}", "attribute_exists(a.b[1])", NULL, 0 },
  { "{\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"1\"}]}}}}", "attribute_not_exists(a.b.c)", NULL, 1 },
  { "{\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"1\"}]}}}}", "attribute_not_exists(a.b)", NULL, 0 },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "attribute_exists(a.b)", NULL, 0 },
  { "{\"a\":{\"M\":{\"0\":{\"N\":\"1\"}}}}", "attribute_exists(a[0])", NULL, 0 },
  { "{\"a\":{\"NULL\":true}}", "attribute_type(a, :t)", "{\":t\":{\"S\":\"NULL\"}}", 1 },
  { "{\"a\":{\"SS\":[\"x\"]}}", "attribute_type(a, :t)", "{\":t\":{\"S\":\"SS\"}}", 1 },
  { "{\"a\":{\"SS\":[\"x\"]}}", "attribute_type(a, :t)", "{\":t\":{\"S\":\"S\"}}", 0 },
  { "{}", "NOT attribute_type(a, :t)", "{\":t\":{\"S\":\"SS\"}}", 1 },
  { "{\"a\":{\"M\":{\"b\":{\"BOOL\":false}}}}", "attribute_type(a.b, :t)",
    "{\":t\":{\"S\":\"BOOL\"}}", 1 },
  /* DynamoDB Local 3.3.1 lists the types as {N,BS,L,B,NULL,M,S,SS,NS,BOOL}; the order here is
   * live DynamoDB's (dynamodb-facts.md §2.2) */
  { "{\"a\":{\"S\":\"x\"}}", "attribute_type(a, :t)", "{\":t\":{\"S\":\"XX\"}}",
    ERR ("Invalid ConditionExpression: Invalid attribute type name found; type: XX, valid "
         "types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}") },
  /* more [L] */
  { "{\"a\":{\"SS\":[\"x\",\"y\"]}}", "contains(a, :x)", "{\":x\":{\"SS\":[\"x\"]}}", 0 },
  { "{\"a\":{\"S\":\"x\"}}", "contains(a, :x)", "{\":x\":{\"M\":{}}}", 0 },
  { "{\"a\":{\"S\":\"x\"},\"b\":{\"N\":\"1\"}}", "begins_with(a, b)", NULL, 0 },
  { "{\"a\":{\"S\":\"x\"},\"b\":{\"S\":\"N\"}}", "attribute_type(a, b)", NULL,
    ERR ("Invalid ConditionExpression: Incorrect operand type for operator or function; "
         "operator or function: attribute_type, operand type: {NS,SS,L,BS,N,M,B,BOOL,NULL,S}") },
  { "{\"a\":{\"S\":\"x\"}}", "attribute_type(a, :t)", "{\":t\":{\"N\":\"1\"}}",
    ERR ("Invalid ConditionExpression: Incorrect operand type for operator or function; "
         "operator or function: attribute_type, operand type: N") },
  { "{\"a\":{\"N\":\"1\"}}", "a IN (:x)", "{\":x\":{\"SS\":[\"1\"]}}", 0 },
  { "{\"a\":{\"SS\":[\"1\"]}}", "a IN (:x)", "{\":x\":{\"SS\":[\"1\"]}}", 1 },
  { "{\"a\":{\"S\":\"abc\"}}", "size(a) > size(b)", NULL, 0 },
  { "{\"a\":{\"S\":\"abc\"}}", "a BETWEEN :x AND :y", "{\":x\":{\"S\":\"a\"},\":y\":{\"S\":\"b\"}}", 1 },
  { "{\"a\":{\"S\":\"\"}}", "begins_with(a, :x)", "{\":x\":{\"S\":\"\"}}", 1 },
  /* the first operand may not be the same path as a later one [L] */
  { "{\"a\":{\"N\":\"1\"}}", "a <= a", NULL,
    ERR ("Invalid ConditionExpression: The first operand must be distinct from the remaining "
         "operands for this operator or function; operator: <=, first operand: [a]") },
  { "{}", "b[0].x BETWEEN b[0].x AND size(b)", NULL,
    ERR ("Invalid ConditionExpression: The first operand must be distinct from the remaining "
         "operands for this operator or function; operator: BETWEEN, first operand: [b, [0], x]") },
  { "{}", "a.x[0] IN (b.y, b.y, a.x[0])", NULL,
    ERR ("Invalid ConditionExpression: The first operand must be distinct from the remaining "
         "operands for this operator or function; operator: IN, first operand: [a, x, [0]]") },
  { "{}", "begins_with(a, a)", NULL,
    ERR ("Invalid ConditionExpression: The first operand must be distinct from the remaining "
         "operands for this operator or function; operator: begins_with, first operand: [a]") },
  /* operand types are reported before distinct operands [L] */
  { "{}", "a[0] BETWEEN a[0] AND :v", "{\":v\":{\"BOOL\":true}}",
    ERR ("Invalid ConditionExpression: Incorrect operand type for operator or function; "
         "operator or function: BETWEEN, operand type: BOOL") },
  /* literals on both sides [L] */
  { "{}", ":x = :x", "{\":x\":{\"N\":\"3\"}}", 1 },
  { "{}", ":x < :y", "{\":x\":{\"N\":\"3\"},\":y\":{\"N\":\"4\"}}", 1 },
  /* AND, OR, NOT, precedence */
  { "{\"a\":{\"N\":\"1\"}}", "a = :x OR a = :y AND a = :z",
    "{\":x\":{\"N\":\"1\"},\":y\":{\"N\":\"2\"},\":z\":{\"N\":\"3\"}}", 1 },
  { "{\"a\":{\"N\":\"1\"}}", "(a = :x OR a = :y) AND a = :z",
    "{\":x\":{\"N\":\"1\"},\":y\":{\"N\":\"2\"},\":z\":{\"N\":\"3\"}}", 0 },
  { "{\"a\":{\"N\":\"1\"}}", "NOT a = :x AND attribute_exists(a)", "{\":x\":{\"N\":\"2\"}}", 1 },
  /* an error is raised even where evaluation would not reach the operand */
  { "{\"a\":{\"N\":\"1\"}}", "attribute_exists(a) OR a < :n", "{\":n\":{\"M\":{}}}",
    ERR ("Invalid ConditionExpression: Incorrect operand type for operator or function; "
         "operator or function: <, operand type: M") },
};

static void
test_conditions (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cond_cases); i++)
    {
      const CondCase *c = &cond_cases[i];
      g_autoptr(DynoItem) holder = NULL;
      g_autoptr(DynoItem) item = item_from (c->item);
      g_autoptr(DynoExpr) expr = parse_condition (c->expr, c->values, &holder);
      g_autoptr(GError) error = NULL;
      gboolean match = TRUE;
      gboolean ok;

      g_test_message ("case %u: %s on %s", i, c->expr, c->item);
      ok = dyno_eval_condition (expr, item, &match, &error);
      if (c->expect < 0)
        {
          g_assert_false (ok);
          g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
          g_assert_cmpstr (error->message, ==, c->error);
          g_assert_false (match);
        }
      else
        {
          g_assert_no_error (error);
          g_assert_true (ok);
          g_assert_cmpint (match, ==, c->expect);
        }
    }
}

static void
test_condition_no_item (void)
{
  static const struct { const char *expr; const char *values; gboolean expect; } cases[] = {
    { "attribute_not_exists(pk)", NULL, TRUE },
    { "attribute_exists(pk)", NULL, FALSE },
    { "pk <> :v", "{\":v\":{\"S\":\"x\"}}", TRUE },
    { "pk = :v", "{\":v\":{\"S\":\"x\"}}", FALSE },
    { "NOT contains(pk, :v)", "{\":v\":{\"S\":\"x\"}}", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoItem) holder = NULL;
      g_autoptr(DynoExpr) expr = parse_condition (cases[i].expr, cases[i].values, &holder);
      g_autoptr(GError) error = NULL;
      gboolean match = !cases[i].expect;

      g_assert_true (dyno_eval_condition (expr, NULL, &match, &error));
      g_assert_no_error (error);
      g_assert_cmpint (match, ==, cases[i].expect);
    }
}

static void
test_condition_roles (void)
{
  g_autoptr(DynoItem) holder = NULL;
  g_autoptr(DynoExpr) expr = parse_condition ("a BETWEEN :h AND :l",
                                              "{\":l\":{\"N\":\"0\"},\":h\":{\"N\":\"2\"}}",
                                              &holder);
  g_autoptr(GError) error = NULL;
  gboolean match;

  g_assert_false (dyno_eval_condition_full (expr, DYNO_EXPR_ROLE_FILTER, NULL, &match, &error));
  g_assert_true (g_str_has_prefix (error->message, "Invalid FilterExpression: The BETWEEN"));
  g_clear_error (&error);
  g_assert_false (dyno_eval_check_condition (expr, DYNO_EXPR_ROLE_KEY_CONDITION, &error));
  g_assert_true (g_str_has_prefix (error->message,
                                   "Invalid KeyConditionExpression: The BETWEEN"));
}

/* ---- updates ---------------------------------------------------------------------------- */

typedef struct {
  const char *item;     /* without the key; NULL: no item */
  const char *expr;
  const char *values;
  const char *expect;   /* the new item without the key, or NULL for an error */
  const char *error;
} UpdateCase;

#define UERR(msg) NULL, msg

#define INVALID_PATH "The document path provided in the update expression is invalid for update"
#define BAD_TYPE "An operand in the update expression has an incorrect data type"
#define MISSING "The provided expression refers to an attribute that does not exist in the item"

static const UpdateCase update_cases[] = {
  /* SET operands [L] */
  { "{\"a\":{\"N\":\"1\"}}", "SET b = c", NULL, UERR (MISSING) },
  { "{\"a\":{\"N\":\"1\"}}", "SET b = a + c", NULL, UERR (MISSING) },
  { "{\"a\":{\"S\":\"1\"}}", "SET b = a + :x", "{\":x\":{\"N\":\"1\"}}", UERR (BAD_TYPE) },
  { "{\"a\":{\"N\":\"1\"}}", "SET a = :x - a", "{\":x\":{\"S\":\"q\"}}",
    UERR ("Invalid UpdateExpression: Incorrect operand type for operator or function; "
          "operator or function: -, operand type: S") },
  /* every operand reads the item as it was [L] */
  { "{\"a\":{\"N\":\"1\"}}", "SET b = a + :x, a = :y", "{\":x\":{\"N\":\"1\"},\":y\":{\"N\":\"10\"}}",
    "{\"a\":{\"N\":\"10\"},\"b\":{\"N\":\"2\"}}" },
  { "{\"a\":{\"N\":\"1\"}}", "SET a = :y, b = a", "{\":y\":{\"N\":\"10\"}}",
    "{\"a\":{\"N\":\"10\"},\"b\":{\"N\":\"1\"}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]}}", "SET a[0] = a[1], a[1] = a[0]", NULL,
    "{\"a\":{\"L\":[{\"N\":\"2\"},{\"N\":\"1\"}]}}" },
  /* arithmetic, exact [L] */
  { "{\"a\":{\"N\":\"0.1\"}}", "SET a = a - :x", "{\":x\":{\"N\":\"0.3\"}}",
    "{\"a\":{\"N\":\"-0.2\"}}" },
  { "{\"a\":{\"N\":\"1\"}}", "SET b = a - :x", "{\":x\":{\"N\":\"1\"}}",
    "{\"a\":{\"N\":\"1\"},\"b\":{\"N\":\"0\"}}" },
  /* if_not_exists [L] */
  { "{\"a\":{\"N\":\"1\"}}", "SET b = if_not_exists(a, :x), c = if_not_exists(d, :x)",
    "{\":x\":{\"N\":\"7\"}}", "{\"a\":{\"N\":\"1\"},\"b\":{\"N\":\"1\"},\"c\":{\"N\":\"7\"}}" },
  { "{\"a\":{\"N\":\"1\"}}", "SET b = if_not_exists(c, a)", NULL,
    "{\"a\":{\"N\":\"1\"},\"b\":{\"N\":\"1\"}}" },
  { "{\"a\":{\"N\":\"1\"}}", "SET b = if_not_exists(c, d)", NULL, UERR (MISSING) },
  { "{\"a\":{\"N\":\"1\"}}", "SET b = if_not_exists(a, c)", NULL, UERR (MISSING) },
  { "{\"a\":{\"N\":\"1\"}}", "SET b = if_not_exists(a, a)", NULL,
    UERR ("Invalid UpdateExpression: The first operand must be distinct from the remaining "
          "operands for this operator or function; operator: if_not_exists, first operand: [a]") },
  { "{}", "SET n = if_not_exists(n, :z) + :one", "{\":z\":{\"N\":\"0\"},\":one\":{\"N\":\"1\"}}",
    "{\"n\":{\"N\":\"1\"}}" },
  /* list_append [L] */
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "SET a = list_append(a, :x)", "{\":x\":{\"L\":[{\"N\":\"2\"}]}}",
    "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "SET a = list_append(:x, a)", "{\":x\":{\"L\":[{\"N\":\"2\"}]}}",
    "{\"a\":{\"L\":[{\"N\":\"2\"},{\"N\":\"1\"}]}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "SET a = list_append(a, :x)", "{\":x\":{\"N\":\"2\"}}",
    UERR ("Invalid UpdateExpression: Incorrect operand type for operator or function; "
          "operator or function: list_append, operand type: N") },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "SET a = list_append(b, :x)", "{\":x\":{\"L\":[{\"N\":\"2\"}]}}",
    UERR (MISSING) },
  { "{\"a\":{\"N\":\"1\"}}", "SET b = list_append(:x, :x)", "{\":x\":{\"L\":[]}}",
    "{\"a\":{\"N\":\"1\"},\"b\":{\"L\":[]}}" },
  { "{\"a\":{\"S\":\"x\"}}", "SET b = list_append(a, :x)", "{\":x\":{\"L\":[]}}",
    UERR (BAD_TYPE) },
  /* list indexes: past the end appends, in index order [L] */
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "SET a[5] = :x", "{\":x\":{\"N\":\"2\"}}",
    "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "SET a[5] = :x, a[3] = :y",
    "{\":x\":{\"N\":\"2\"},\":y\":{\"N\":\"3\"}}",
    "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"3\"},{\"N\":\"2\"}]}}" },
  { "{\"a\":{\"L\":[]}}", "SET a[0] = :x", "{\":x\":{\"N\":\"1\"}}",
    "{\"a\":{\"L\":[{\"N\":\"1\"}]}}" },
  /* REMOVE on lists: indexes of the list as it was, elements shift [L] */
  { "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]}}", "REMOVE a[0], a[1]", NULL,
    "{\"a\":{\"L\":[{\"N\":\"3\"}]}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]}}", "REMOVE a[2], a[0]", NULL,
    "{\"a\":{\"L\":[{\"N\":\"2\"}]}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]}}", "REMOVE a[0] SET a[1] = :x",
    "{\":x\":{\"N\":\"9\"}}", "{\"a\":{\"L\":[{\"N\":\"9\"},{\"N\":\"3\"}]}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]}}", "REMOVE a[1] SET a[5] = :x",
    "{\":x\":{\"N\":\"9\"}}", "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"3\"},{\"N\":\"9\"}]}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "REMOVE a[5]", NULL, "{\"a\":{\"L\":[{\"N\":\"1\"}]}}" },
  /* REMOVE paths [L] */
  { "{\"a\":{\"N\":\"1\"}}", "REMOVE a[0]", NULL, UERR (INVALID_PATH) },
  { "{\"a\":{\"N\":\"1\"}}", "REMOVE b.c", NULL, UERR (INVALID_PATH) },
  { "{\"a\":{\"N\":\"1\"}}", "REMOVE a.c", NULL, UERR (INVALID_PATH) },
  { "{\"a\":{\"M\":{}}}", "REMOVE a.c", NULL, "{\"a\":{\"M\":{}}}" },
  { "{\"a\":{\"M\":{\"c\":{\"N\":\"1\"},\"d\":{\"N\":\"2\"}}}}", "REMOVE a.c, z", NULL,
    "{\"a\":{\"M\":{\"d\":{\"N\":\"2\"}}}}" },
  /* SET paths [L] */
  { "{\"a\":{\"N\":\"1\"}}", "SET b.c = :x", "{\":x\":{\"N\":\"2\"}}", UERR (INVALID_PATH) },
  { "{\"a\":{\"N\":\"1\"}}", "SET a.c = :x", "{\":x\":{\"N\":\"2\"}}", UERR (INVALID_PATH) },
  { "{\"a\":{\"M\":{}}}", "SET a.c = :x", "{\":x\":{\"N\":\"2\"}}",
    "{\"a\":{\"M\":{\"c\":{\"N\":\"2\"}}}}" },
  { "{\"a\":{\"M\":{}}}", "SET a.c.d = :x", "{\":x\":{\"N\":\"2\"}}", UERR (INVALID_PATH) },
  { "{\"a\":{\"M\":{}}}", "SET a[0] = :x", "{\":x\":{\"N\":\"2\"}}", UERR (INVALID_PATH) },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "SET a[0].b = :x", "{\":x\":{\"N\":\"2\"}}",
    UERR (INVALID_PATH) },
  { "{\"a\":{\"L\":[{\"M\":{}}]}}", "SET a[0].b = :x", "{\":x\":{\"N\":\"2\"}}",
    "{\"a\":{\"L\":[{\"M\":{\"b\":{\"N\":\"2\"}}}]}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "SET a[1].b = :x", "{\":x\":{\"N\":\"2\"}}",
    UERR (INVALID_PATH) },
  { "{\"a\":{\"N\":\"1\"}}", "SET b = :x", "{\":x\":{\"SS\":[\"a\"]}}",
    "{\"a\":{\"N\":\"1\"},\"b\":{\"SS\":[\"a\"]}}" },
  /* ADD [L] */
  { "{\"a\":{\"N\":\"1\"}}", "ADD a :x", "{\":x\":{\"N\":\"2\"}}", "{\"a\":{\"N\":\"3\"}}" },
  { "{\"a\":{\"N\":\"-5\"}}", "ADD a :x", "{\":x\":{\"N\":\"5\"}}", "{\"a\":{\"N\":\"0\"}}" },
  { "{\"a\":{\"N\":\"1\"}}", "ADD b :x", "{\":x\":{\"N\":\"2\"}}",
    "{\"a\":{\"N\":\"1\"},\"b\":{\"N\":\"2\"}}" },
  { "{\"a\":{\"N\":\"1\"}}", "ADD b :x", "{\":x\":{\"SS\":[\"q\"]}}",
    "{\"a\":{\"N\":\"1\"},\"b\":{\"SS\":[\"q\"]}}" },
  { "{\"a\":{\"N\":\"1\"}}", "ADD a :x", "{\":x\":{\"SS\":[\"q\"]}}", UERR (BAD_TYPE) },
  { "{\"a\":{\"SS\":[\"p\"]}}", "ADD a :x", "{\":x\":{\"SS\":[\"q\",\"p\"]}}",
    "{\"a\":{\"SS\":[\"p\",\"q\"]}}" },
  { "{\"a\":{\"SS\":[\"p\"]}}", "ADD a :x", "{\":x\":{\"NS\":[\"1\"]}}", UERR (BAD_TYPE) },
  { "{\"a\":{\"M\":{\"b\":{\"N\":\"1\"}}}}", "ADD a.b :x", "{\":x\":{\"N\":\"2\"}}",
    "{\"a\":{\"M\":{\"b\":{\"N\":\"3\"}}}}" },
  { "{\"a\":{\"M\":{}}}", "ADD a.b :x", "{\":x\":{\"N\":\"2\"}}",
    "{\"a\":{\"M\":{\"b\":{\"N\":\"2\"}}}}" },
  { "{}", "ADD a.b :x", "{\":x\":{\"N\":\"2\"}}", UERR (INVALID_PATH) },
  { "{\"a\":{\"NS\":[\"1\"]}}", "ADD a :x", "{\":x\":{\"NS\":[\"1.0\",\"2\"]}}",
    "{\"a\":{\"NS\":[\"1\",\"2\"]}}" },
  { "{\"a\":{\"N\":\"1\"}}", "ADD a :x", "{\":x\":{\"S\":\"1\"}}",
    UERR ("Invalid UpdateExpression: Incorrect operand type for operator or function; "
          "operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND") },
  { "{\"a\":{\"N\":\"1\"}}", "ADD a :x", "{\":x\":{\"L\":[]}}",
    UERR ("Invalid UpdateExpression: Incorrect operand type for operator or function; "
          "operator: ADD, operand type: LIST, typeSet: ALLOWED_FOR_ADD_OPERAND") },
  { "{\"a\":{\"N\":\"1\"}}", "DELETE a :x", "{\":x\":{\"N\":\"1\"}}",
    UERR ("Invalid UpdateExpression: Incorrect operand type for operator or function; "
          "operator: DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND") },
  { "{\"a\":{\"N\":\"1\"}}", "SET a = :x + :y", "{\":x\":{\"N\":\"1\"},\":y\":{\"L\":[]}}",
    UERR ("Invalid UpdateExpression: Incorrect operand type for operator or function; "
          "operator or function: +, operand type: L") },
  { "{\"a\":{\"N\":\"1\"}}", "SET a = list_append(:x, :y)", "{\":x\":{\"L\":[]},\":y\":{\"M\":{}}}",
    UERR ("Invalid UpdateExpression: Incorrect operand type for operator or function; "
          "operator or function: list_append, operand type: M") },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "SET a[0] = :x, a[0].b = :y", "{\":x\":{\"N\":\"1\"},\":y\":{\"N\":\"2\"}}",
    UERR ("Invalid UpdateExpression: Two document paths overlap with each other; must remove "
          "or rewrite one of these paths; path one: [a, [0]], path two: [a, [0], b]") },
  { "{\"a\":{\"S\":\"x\"}}", "SET b = if_not_exists(a, :x) + :y", "{\":x\":{\"N\":\"1\"},\":y\":{\"N\":\"2\"}}",
    UERR (BAD_TYPE) },
  { "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]}}", "SET a[0] = :x REMOVE a[1]", "{\":x\":{\"N\":\"9\"}}",
    "{\"a\":{\"L\":[{\"N\":\"9\"}]}}" },
  /* DELETE [L] */
  { "{\"a\":{\"SS\":[\"p\",\"q\"]}}", "DELETE a :x", "{\":x\":{\"SS\":[\"q\",\"z\"]}}",
    "{\"a\":{\"SS\":[\"p\"]}}" },
  { "{\"a\":{\"SS\":[\"p\"]}}", "DELETE a :x", "{\":x\":{\"SS\":[\"p\"]}}", "{}" },
  { "{}", "DELETE a :x", "{\":x\":{\"SS\":[\"p\"]}}", "{}" },
  { "{\"a\":{\"NS\":[\"1\"]}}", "DELETE a :x", "{\":x\":{\"SS\":[\"p\"]}}", UERR (BAD_TYPE) },
  { "{\"a\":{\"BS\":[\"AQ==\",\"Ag==\"]}}", "DELETE a :x", "{\":x\":{\"BS\":[\"AQ==\"]}}",
    "{\"a\":{\"BS\":[\"Ag==\"]}}" },
  /* key attributes and overlapping paths [L] */
  { "{\"a\":{\"N\":\"1\"}}", "SET pk = :x", "{\":x\":{\"S\":\"u\"}}",
    UERR ("One or more parameter values were invalid: Cannot update attribute pk. This "
          "attribute is part of the key") },
  { "{\"a\":{\"N\":\"1\"}}", "REMOVE pk", NULL,
    UERR ("One or more parameter values were invalid: Cannot update attribute pk. This "
          "attribute is part of the key") },
  { "{\"a\":{\"N\":\"1\"}}", "SET a = :x, a = :y", "{\":x\":{\"N\":\"1\"},\":y\":{\"N\":\"2\"}}",
    UERR ("Invalid UpdateExpression: Two document paths overlap with each other; must remove "
          "or rewrite one of these paths; path one: [a], path two: [a]") },
  { "{\"a\":{\"N\":\"1\"}}", "SET a = :x REMOVE a.b", "{\":x\":{\"N\":\"1\"}}",
    UERR ("Invalid UpdateExpression: Two document paths overlap with each other; must remove "
          "or rewrite one of these paths; path one: [a], path two: [a, b]") },
  { "{\"a\":{\"N\":\"1\"}}", "SET a.b = :x REMOVE a[0]", "{\":x\":{\"N\":\"1\"}}",
    UERR ("Invalid UpdateExpression: Two document paths conflict with each other; must "
          "remove or rewrite one of these paths; path one: [a, b], path two: [a, [0]]") },
  /* more [L] */
  { "{\"a\":{\"N\":\"1\"}}", "DELETE b.c :x", "{\":x\":{\"SS\":[\"p\"]}}", UERR (INVALID_PATH) },
  { "{\"a\":{\"M\":{}}}", "DELETE a.c :x", "{\":x\":{\"SS\":[\"p\"]}}", "{\"a\":{\"M\":{}}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "ADD a[0] :x", "{\":x\":{\"N\":\"2\"}}",
    "{\"a\":{\"L\":[{\"N\":\"3\"}]}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "ADD a[3] :x", "{\":x\":{\"N\":\"2\"}}",
    "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]}}" },
  { "{\"a\":{\"L\":[{\"SS\":[\"q\"]}]}}", "DELETE a[0] :x", "{\":x\":{\"SS\":[\"q\"]}}",
    "{\"a\":{\"L\":[]}}" },
  { "{}", "SET a[0] = :x", "{\":x\":{\"N\":\"2\"}}", UERR (INVALID_PATH) },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "SET a[100000] = :x", "{\":x\":{\"N\":\"2\"}}",
    "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]}}" },
  { "{\"a\":{\"L\":[{\"M\":{\"b\":{\"N\":\"1\"},\"c\":{\"N\":\"2\"}}}]}}", "REMOVE a[0].b", NULL,
    "{\"a\":{\"L\":[{\"M\":{\"c\":{\"N\":\"2\"}}}]}}" },
  { "{\"a\":{\"N\":\"1\"}}", "SET pk.x = :x", "{\":x\":{\"N\":\"2\"}}",
    UERR ("One or more parameter values were invalid: Cannot update attribute pk. This "
          "attribute is part of the key") },
  { "{\"a\":{\"N\":\"1\"}}", "SET a = :x, pk = :y", "{\":x\":{\"N\":\"2\"},\":y\":{\"S\":\"u\"}}",
    UERR ("One or more parameter values were invalid: Cannot update attribute pk. This "
          "attribute is part of the key") },
  { "{\"a\":{\"N\":\"5\"}}", "SET a = a - a", NULL, "{\"a\":{\"N\":\"0\"}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]}}", "REMOVE a[0], a[1]", NULL,
    "{\"a\":{\"L\":[]}}" },
  { "{\"a\":{\"L\":[{\"N\":\"1\"}]}}", "SET a = list_append(a, a)", NULL,
    "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"1\"}]}}" },
  { "{\"a\":{\"M\":{\"b\":{\"N\":\"1\"}}}}", "SET c = a.b + :x", "{\":x\":{\"N\":\"1\"}}",
    "{\"a\":{\"M\":{\"b\":{\"N\":\"1\"}}},\"c\":{\"N\":\"2\"}}" },
  /* with several faults the expression has on its own: paths first, then ADD and DELETE
   * values, then SET operands [L] */
  { "{}", "SET a[0] = :v2 ADD c :v1 DELETE a.x[0] :v0",
    "{\":v0\":{\"SS\":[\"a\"]},\":v1\":{\"L\":[]},\":v2\":{\"N\":\"1\"}}",
    UERR ("Invalid UpdateExpression: Two document paths conflict with each other; must remove "
          "or rewrite one of these paths; path one: [a, [0]], path two: [a, x, [0]]") },
  { "{}", "SET b = list_append(:v1, :v2) ADD a :v0",
    "{\":v0\":{\"B\":\"AQ==\"},\":v1\":{\"N\":\"100\"},\":v2\":{\"L\":[]}}",
    UERR ("Invalid UpdateExpression: Incorrect operand type for operator or function; "
          "operator: ADD, operand type: BINARY, typeSet: ALLOWED_FOR_ADD_OPERAND") },
  /* no item yet: the key and what the update writes [L] */
  { NULL, "SET a = :x", "{\":x\":{\"N\":\"1\"}}", "{\"a\":{\"N\":\"1\"}}" },
  { NULL, "REMOVE a", NULL, "{}" },
  { NULL, "ADD c :x", "{\":x\":{\"NS\":[\"1\"]}}", "{\"c\":{\"NS\":[\"1\"]}}" },
};

static void
test_updates (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (update_cases); i++)
    {
      const UpdateCase *c = &update_cases[i];
      g_autoptr(DynoItem) holder = NULL;
      g_autoptr(GHashTable) values = values_from (c->values, &holder);
      g_autoptr(DynoItem) key = item_from ("{\"pk\":{\"S\":\"u\"}}");
      g_autoptr(DynoItem) item = NULL;
      g_autoptr(DynoUpdate) update = NULL;
      g_autoptr(DynoItem) result = NULL;
      g_autoptr(GError) error = NULL;

      g_test_message ("case %u: %s on %s", i, c->expr, c->item ? c->item : "(no item)");
      if (c->item != NULL)
        {
          g_autofree char *with_key = g_strdup_printf ("{\"pk\":{\"S\":\"u\"}%s%s",
                                                        strlen (c->item) > 2 ? "," : "",
                                                        c->item + 1);

          item = item_from (with_key);
        }
      update = dyno_expr_parse_update (c->expr, DYNO_SYNTAX_DYNAMODB, NULL, values, NULL, NULL,
                                       &error);
      g_assert_no_error (error);
      result = dyno_eval_update (update, item, key, &error);
      if (c->expect == NULL)
        {
          g_assert_null (result);
          g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
          g_assert_cmpstr (error->message, ==, c->error);
        }
      else
        {
          g_autofree char *with_key = g_strdup_printf ("{\"pk\":{\"S\":\"u\"}%s%s",
                                                        strlen (c->expect) > 2 ? "," : "",
                                                        c->expect + 1);
          g_autoptr(DynoItem) expect = item_from (with_key);

          g_assert_no_error (error);
          g_assert_nonnull (result);
          if (!dyno_item_equal (result, expect))
            {
              g_autofree char *got = dyno_item_to_ddb_json (result);

              g_error ("case %u: %s gave %s, expected %s", i, c->expr, got, with_key);
            }
        }
    }
}

/* The item passed in is left as it was; the result shares nothing with it. */
static void
test_update_leaves_item (void)
{
  g_autoptr(DynoItem) holder = NULL;
  g_autoptr(GHashTable) values = values_from ("{\":x\":{\"N\":\"2\"}}", &holder);
  g_autoptr(DynoItem) item = item_from ("{\"pk\":{\"S\":\"k\"},\"m\":{\"M\":{\"l\":{\"L\":"
                                        "[{\"N\":\"1\"},{\"N\":\"3\"}]}}}}");
  g_autoptr(DynoItem) before = item_from ("{\"pk\":{\"S\":\"k\"},\"m\":{\"M\":{\"l\":{\"L\":"
                                          "[{\"N\":\"1\"},{\"N\":\"3\"}]}}}}");
  g_autoptr(DynoItem) expect = item_from ("{\"pk\":{\"S\":\"k\"},\"m\":{\"M\":{\"l\":{\"L\":"
                                          "[{\"N\":\"3\"},{\"N\":\"2\"}]}}}}");
  g_autoptr(DynoUpdate) update = NULL;
  g_autoptr(DynoItem) result = NULL;
  g_autoptr(GError) error = NULL;

  update = dyno_expr_parse_update ("REMOVE m.l[0] SET m.l[7] = :x", DYNO_SYNTAX_DYNAMODB, NULL,
                                   values, NULL, NULL, &error);
  g_assert_no_error (error);
  result = dyno_eval_update (update, item, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_item_equal (result, expect));
  g_assert_true (dyno_item_equal (item, before));
}

/* Arithmetic past DynamoDB's range fails the update (DynamoDB Local 3.3.1 refuses it too, with
 * its own words about 38 digits). */
static void
test_update_overflow (void)
{
  static const char *const exprs[] = { "ADD a :x", "SET a = a + :x", "SET a = :m - a" };
  g_autoptr(DynoItem) holder = NULL;
  g_autoptr(GHashTable) values =
    values_from ("{\":x\":{\"N\":\"9.9999999999999999999999999999999999999E+125\"},"
                 "\":m\":{\"N\":\"-9.9999999999999999999999999999999999999E+125\"}}", &holder);
  g_autoptr(DynoItem) item =
    item_from ("{\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"9.9999999999999999999999999999999999999E+125\"}}");

  for (guint i = 0; i < G_N_ELEMENTS (exprs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoUpdate) update = dyno_expr_parse_update (exprs[i], DYNO_SYNTAX_DYNAMODB,
                                                             NULL, values, NULL, NULL, &error);
      g_autoptr(DynoItem) result = NULL;

      g_assert_no_error (error);
      result = dyno_eval_update (update, item, NULL, &error);
      g_assert_null (result);
      g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
      g_test_message ("%s: %s", exprs[i], error->message);
    }
}

/* An update may not nest values deeper than DynamoDB stores them: 32 levels, the item's own map
 * counting as the first [L]. */
static void
test_update_nesting (void)
{
  for (guint depth = 29; depth <= 30; depth++)
    {
      g_autoptr(GString) json = g_string_new ("{\"pk\":{\"S\":\"k\"},\"a\":");
      g_autoptr(GString) path = g_string_new ("a");
      g_autoptr(DynoItem) holder = NULL;
      g_autoptr(GHashTable) values = values_from ("{\":m\":{\"M\":{\"x\":{\"M\":{}}}}}", &holder);
      g_autoptr(DynoItem) item = NULL;
      g_autoptr(DynoUpdate) update = NULL;
      g_autoptr(DynoItem) result = NULL;
      g_autoptr(GError) error = NULL;

      for (guint i = 0; i < depth; i++)
        {
          g_string_append (json, "{\"M\":{\"a\":");
          g_string_append (path, ".a");
        }
      g_string_append (json, "{\"N\":\"1\"}");
      for (guint i = 0; i < depth; i++)
        g_string_append (json, "}}");
      g_string_append (json, "}");
      g_string_append (path, " = :m");
      g_string_prepend (path, "SET ");
      item = item_from (json->str);
      update = dyno_expr_parse_update (path->str, DYNO_SYNTAX_DYNAMODB, NULL, values, NULL, NULL,
                                       &error);
      g_assert_no_error (error);
      result = dyno_eval_update (update, item, NULL, &error);
      if (depth == 29)
        {
          g_assert_no_error (error);
          g_assert_nonnull (result);
        }
      else
        {
          g_assert_null (result);
          g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
          g_assert_cmpstr (error->message, ==, "Nesting Levels have exceeded supported limits");
        }
    }
}

/* A NUL in a name: paths hold it as C0 80 (dyno-json.h), items as the byte itself. */
static void
test_nul_names (void)
{
  g_autoptr(DynoItem) item = item_from ("{\"pk\":{\"S\":\"k\"},\"a\\u0000b\":{\"M\":{\"c\\u0000\":{\"N\":\"1\"}}}}");
  g_autoptr(DynoItem) expect = item_from ("{\"pk\":{\"S\":\"k\"},\"a\\u0000b\":{\"M\":{\"c\\u0000\":{\"N\":\"1\"},"
                                          "\"d\\u0000\":{\"N\":\"1\"}}}}");
  g_autoptr(DynoItem) projected = item_from ("{\"a\\u0000b\":{\"M\":{\"c\\u0000\":{\"N\":\"1\"}}}}");
  g_autoptr(DynoPath) path = dyno_path_new ("a\xC0\x80" "b");
  g_autoptr(DynoPath) target = NULL;
  g_autoptr(DynoUpdate) update = dyno_update_new ();
  g_autoptr(GPtrArray) paths = dyno_projection_new ();
  g_autoptr(DynoItem) result = NULL;
  g_autoptr(DynoItem) shown = NULL;
  g_autoptr(GError) error = NULL;

  dyno_path_append_name (path, "c\xC0\x80");
  target = dyno_path_new ("a\xC0\x80" "b");
  dyno_path_append_name (target, "d\xC0\x80");
  g_assert_nonnull (dyno_eval_resolve_path (item, path));
  dyno_update_add_clause (update, DYNO_UPDATE_SET, dyno_path_copy (target),
                          dyno_expr_new_path (dyno_path_copy (path)));
  result = dyno_eval_update (update, item, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_item_equal (result, expect));
  g_ptr_array_add (paths, dyno_path_copy (path));
  shown = dyno_eval_project (paths, item);
  g_assert_true (dyno_item_equal (shown, projected));
}

/* ---- projections ------------------------------------------------------------------------ */

static const struct {
  const char *item;
  const char *expr;
  const char *expect;
} project_cases[] = {
  /* [L] */
  { "{\"a\":{\"M\":{\"x\":{\"N\":\"1\"}}}}", "a.b", "{}" },
  { "{\"a\":{\"M\":{\"x\":{\"N\":\"1\"},\"y\":{\"N\":\"2\"}}}}", "a.x, a.b",
    "{\"a\":{\"M\":{\"x\":{\"N\":\"1\"}}}}" },
  { "{\"a\":{\"L\":[{\"N\":\"0\"},{\"N\":\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]}}", "a[3], a[1], a[9]",
    "{\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"3\"}]}}" },
  { "{\"a\":{\"L\":[{\"M\":{\"p\":{\"N\":\"0\"},\"q\":{\"N\":\"1\"}}},{\"N\":\"1\"}]}}", "a[0].q, b",
    "{\"a\":{\"L\":[{\"M\":{\"q\":{\"N\":\"1\"}}}]}}" },
  { "{\"a\":{\"N\":\"1\"}}", "a[0]", "{}" },
  { "{\"pk\":{\"S\":\"p\"},\"a\":{\"N\":\"1\"}}", "pk, a", "{\"pk\":{\"S\":\"p\"},\"a\":{\"N\":\"1\"}}" },
  /* the documentation's example: RelatedItems[0] keeps the list shape */
  { "{\"RelatedItems\":{\"L\":[{\"N\":\"341\"},{\"N\":\"472\"}]},\"Id\":{\"N\":\"1\"}}",
    "RelatedItems[0]", "{\"RelatedItems\":{\"L\":[{\"N\":\"341\"}]}}" },
  { "{\"m\":{\"M\":{\"a\":{\"M\":{\"b\":{\"S\":\"x\"},\"c\":{\"S\":\"y\"}}},\"d\":{\"N\":\"1\"}}}}",
    "m.a.c, m.d", "{\"m\":{\"M\":{\"a\":{\"M\":{\"c\":{\"S\":\"y\"}}},\"d\":{\"N\":\"1\"}}}}" },
};

static void
test_projections (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (project_cases); i++)
    {
      g_autoptr(DynoItem) item = item_from (project_cases[i].item);
      g_autoptr(DynoItem) expect = item_from (project_cases[i].expect);
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) paths = dyno_expr_parse_projection (project_cases[i].expr,
                                                               DYNO_SYNTAX_DYNAMODB, NULL, NULL,
                                                               NULL, &error);
      g_autoptr(DynoItem) result = NULL;

      g_assert_no_error (error);
      g_assert_true (dyno_eval_check_projection (paths, &error));
      result = dyno_eval_project (paths, item);
      if (!dyno_item_equal (result, expect))
        {
          g_autofree char *got = dyno_item_to_ddb_json (result);

          g_error ("case %u: %s gave %s, expected %s", i, project_cases[i].expr, got,
                   project_cases[i].expect);
        }
    }
}

static void
test_projection_overlap (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) paths = dyno_expr_parse_projection ("a, a", DYNO_SYNTAX_DYNAMODB, NULL,
                                                           NULL, NULL, &error);

  g_assert_no_error (error);
  /* [L] */
  g_assert_false (dyno_eval_check_projection (paths, &error));
  g_assert_cmpstr (error->message, ==, "Invalid ProjectionExpression: Two document paths "
                   "overlap with each other; must remove or rewrite one of these paths; path "
                   "one: [a], path two: [a]");
}

/* ---- sizes and key order ---------------------------------------------------------------- */

static void
test_item_size (void)
{
  static const struct { const char *item; gsize size; } cases[] = {
    /* the documentation's example: 11 + 1 + 10 + 1 */
    { "{\"shirt-color\":{\"S\":\"R\"},\"shirt-size\":{\"S\":\"M\"}}", 23 },
    /* names and strings count UTF-8 bytes */
    { "{\"é\":{\"S\":\"😀\"}}", 2 + 4 },
    { "{\"b\":{\"B\":\"AQID\"}}", 1 + 3 },
    { "{\"t\":{\"BOOL\":true},\"n\":{\"NULL\":true}}", 2 + 2 },
    /* empty containers are 3 bytes; each element adds 1 */
    { "{\"l\":{\"L\":[]}}", 1 + 3 },
    { "{\"l\":{\"L\":[{\"S\":\"ab\"}]}}", 1 + 3 + 1 + 2 },
    { "{\"m\":{\"M\":{\"k\":{\"S\":\"ab\"}}}}", 1 + 3 + 1 + 1 + 2 },
    { "{\"s\":{\"SS\":[\"ab\",\"c\"]}}", 1 + 3 },
    /* [L]: each of these, with a key and a string padding the item to 409,600 bytes by this
     * count, was accepted by DynamoDB Local 3.3.1, and refused with one byte more ("Item size
     * has exceeded the maximum allowed size") */
    { "{\"n\":{\"N\":\"1\"}}", 3 },
    { "{\"n\":{\"N\":\"12\"}}", 3 },
    { "{\"n\":{\"N\":\"123\"}}", 4 },
    { "{\"n\":{\"N\":\"1234\"}}", 4 },
    { "{\"n\":{\"N\":\"10\"}}", 3 },
    { "{\"n\":{\"N\":\"100\"}}", 3 },
    { "{\"n\":{\"N\":\"-1\"}}", 4 },
    { "{\"n\":{\"N\":\"-12\"}}", 4 },
    { "{\"n\":{\"N\":\"0.1\"}}", 3 },
    { "{\"n\":{\"N\":\"0.01\"}}", 3 },
    { "{\"n\":{\"N\":\"1.5\"}}", 4 },
    { "{\"n\":{\"N\":\"12345678901234567890123456789012345678\"}}", 21 },
    { "{\"n\":{\"N\":\"-1.2345678901234567890123456789012345678\"}}", 22 },
    { "{\"n\":{\"N\":\"0\"}}", 2 },
    { "{\"n\":{\"N\":\"1E+125\"}}", 3 },
    { "{\"n\":{\"N\":\"1E-130\"}}", 3 },
    { "{\"b\":{\"BOOL\":true},\"z\":{\"NULL\":true}}", 4 },
    { "{\"l\":{\"L\":[]}}", 4 },
    { "{\"l\":{\"L\":[{\"S\":\"ab\"},{\"N\":\"1\"},{\"BOOL\":false}]}}", 12 },
    { "{\"m\":{\"M\":{}}}", 4 },
    { "{\"m\":{\"M\":{\"kk\":{\"S\":\"v\"},\"q\":{\"M\":{\"r\":{\"L\":[{\"NULL\":true}]}}}}}}", 20 },
    { "{\"ss\":{\"SS\":[\"a\",\"bc\"]}}", 5 },
    { "{\"ns\":{\"NS\":[\"1\",\"22\",\"-3.5\"]}}", 10 },
    { "{\"bs\":{\"BS\":[\"AQID\",\"BA==\"]}}", 6 },
    { "{\"bin\":{\"B\":\"AQIDBAU=\"}}", 8 },
    { "{\"é😀\":{\"S\":\"ü\"}}", 8 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoItem) item = item_from (cases[i].item);

      g_assert_cmpuint (dyno_eval_item_size (item), ==, cases[i].size);
    }
}

static void
test_key_order (void)
{
  static const char *const ascending[][2] = {
    { "{\"S\":\"Z\"}", "{\"S\":\"a\"}" },
    { "{\"S\":\"z\"}", "{\"S\":\"¿\"}" },
    { "{\"S\":\"\\uffff\"}", "{\"S\":\"😀\"}" },
    { "{\"S\":\"a\"}", "{\"S\":\"ab\"}" },
    { "{\"N\":\"-10\"}", "{\"N\":\"-9\"}" },
    { "{\"N\":\"9\"}", "{\"N\":\"10\"}" },
    { "{\"N\":\"0.5\"}", "{\"N\":\"1\"}" },
    { "{\"B\":\"fw==\"}", "{\"B\":\"gA==\"}" },
    { "{\"B\":\"AA==\"}", "{\"B\":\"AAA=\"}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ascending); i++)
    {
      g_autoptr(DynoValue) a = dyno_value_from_ddb_json (ascending[i][0], -1, NULL);
      g_autoptr(DynoValue) b = dyno_value_from_ddb_json (ascending[i][1], -1, NULL);

      g_assert_cmpint (dyno_eval_key_compare (a, b), <, 0);
      g_assert_cmpint (dyno_eval_key_compare (b, a), >, 0);
      g_assert_cmpint (dyno_eval_key_compare (a, a), ==, 0);
    }
  {
    g_autoptr(DynoValue) a = dyno_value_from_ddb_json ("{\"N\":\"1e2\"}", -1, NULL);
    g_autoptr(DynoValue) b = dyno_value_from_ddb_json ("{\"N\":\"100.00\"}", -1, NULL);

    g_assert_cmpint (dyno_eval_key_compare (a, b), ==, 0);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/eval/conditions", test_conditions);
  g_test_add_func ("/eval/condition-no-item", test_condition_no_item);
  g_test_add_func ("/eval/condition-roles", test_condition_roles);
  g_test_add_func ("/eval/updates", test_updates);
  g_test_add_func ("/eval/update-leaves-item", test_update_leaves_item);
  g_test_add_func ("/eval/update-overflow", test_update_overflow);
  g_test_add_func ("/eval/nul-names", test_nul_names);
  g_test_add_func ("/eval/update-nesting", test_update_nesting);
  g_test_add_func ("/eval/projections", test_projections);
  g_test_add_func ("/eval/projection-overlap", test_projection_overlap);
  g_test_add_func ("/eval/item-size", test_item_size);
  g_test_add_func ("/eval/key-order", test_key_order);

  return g_test_run ();
}
