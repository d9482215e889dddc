/* test-pattern-plan.c: which key of a table design serves each access pattern
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-pattern-plan.h"

/* Orders: customer (S) + orderDate (S); GSI byStatus: status (S) + orderDate, KEYS_ONLY;
 * LSI byPrice: customer + price (N), INCLUDE note. */
static DynoTableDesign *
orders_design (void)
{
  DynoTableDesign *design = dyno_table_design_new ();
  DynoIndexDesign *index;
  const char *const include[] = { "note", NULL };

  dyno_table_design_set_table_name (design, "Orders");
  dyno_table_design_set_partition_key (design, "customer", DYNO_VALUE_S);
  dyno_table_design_set_sort_key (design, "orderDate", DYNO_VALUE_S);
  index = dyno_table_design_get_index (design, dyno_table_design_add_index (design, TRUE));
  dyno_table_design_index_set_name (index, "byStatus");
  dyno_table_design_index_set_partition_key (index, "status", DYNO_VALUE_S);
  dyno_table_design_index_set_sort_key (index, "orderDate", DYNO_VALUE_S);
  dyno_table_design_index_set_projection (index, DYNO_PROJECTION_KEYS_ONLY);
  index = dyno_table_design_get_index (design, dyno_table_design_add_index (design, FALSE));
  dyno_table_design_index_set_name (index, "byPrice");
  dyno_table_design_index_set_sort_key (index, "price", DYNO_VALUE_N);
  dyno_table_design_index_set_projection (index, DYNO_PROJECTION_INCLUDE);
  dyno_table_design_index_set_non_key_attributes (index, include);
  return design;
}

/* One pattern from its request's members (JSON object members, without braces) and the
 * pattern's other members. */
static DynoAccessPattern *
pattern (const char *request_members,
         const char *pattern_members)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = g_strdup_printf (
      "{\"format\":\"dynotable-patterns\",\"version\":1,\"patterns\":[{\"name\":\"p\","
      "\"request\":{\"TableName\":\"Orders\",%s}%s%s}]}",
      request_members, *pattern_members ? "," : "", pattern_members);
  g_autoptr(GPtrArray) patterns = dyno_access_patterns_from_json (json, -1, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (patterns->len, ==, 1);
  return g_ptr_array_steal_index (patterns, 0);
}

static gboolean
has_note (DynoPatternPlan *plan,
          const char      *part)
{
  for (guint i = 0; i < plan->notes->len; i++)
    if (strstr (g_ptr_array_index (plan->notes, i), part) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_table_key (void)
{
  g_autoptr(DynoTableDesign) design = orders_design ();
  g_autoptr(DynoAccessPattern) p =
    pattern ("\"KeyConditionExpression\":\"customer = :c AND orderDate BETWEEN :a AND :b\","
             "\"ExpressionAttributeValues\":{\":c\":{\"S\":\"C1\"},\":a\":{\"S\":\"2026\"},"
             "\":b\":{\"S\":\"2027\"}}",
             "\"expect\":{\"order\":\"descending\"}");
  g_autoptr(DynoPatternPlan) plan = dyno_pattern_plan_for_design (p, design);

  g_assert_true (dyno_pattern_reads_design (p, design));
  g_assert_cmpint (plan->kind, ==, DYNO_PATTERN_PLAN_QUERY);
  g_assert_null (plan->index_name);
  g_assert_cmpstr (plan->key_condition, ==, "customer = :c AND orderDate BETWEEN :a AND :b");
  g_assert_null (plan->filter);
  g_assert_true (plan->order_served);
  g_assert_true (plan->projection_served);
  g_assert_cmpstr (plan->summary, ==,
                   "Query on the table: customer = :c AND orderDate BETWEEN :a AND :b");
  g_assert_true (has_note (plan, "ScanIndexForward false"));
}

/* A Scan with a filter on status is served by the GSI whose partition key is status; the
 * remaining term stays a filter; the GSI holds only keys, so returning every attribute is
 * not served. */
static void
test_index_from_filter (void)
{
  g_autoptr(DynoTableDesign) design = orders_design ();
  g_autoptr(DynoAccessPattern) p =
    pattern ("\"FilterExpression\":\"#s = :open AND orderDate > :d AND amount > :m\","
             "\"ExpressionAttributeNames\":{\"#s\":\"status\"},"
             "\"ExpressionAttributeValues\":{\":open\":{\"S\":\"OPEN\"},\":d\":{\"S\":\"2026\"},"
             "\":m\":{\"N\":\"10\"}}",
             "");
  g_autoptr(DynoPatternPlan) plan = dyno_pattern_plan_for_design (p, design);

  g_assert_cmpint (plan->kind, ==, DYNO_PATTERN_PLAN_QUERY);
  g_assert_cmpstr (plan->index_name, ==, "byStatus");
  /* status is a reserved word: aliased as DynamoDB needs */
  g_assert_nonnull (strstr (plan->key_condition, "= :open AND orderDate > :d"));
  g_assert_cmpstr (plan->filter, ==, "amount > :m");
  g_assert_false (plan->projection_served);
  g_assert_true (has_note (plan, "Index byStatus does not hold every attribute"));
  g_assert_true (has_note (plan, "Filters amount > :m after reading"));
}

/* The projection decides between two keys that both fix the partition: with only keys and
 * "note" returned, the LSI that includes "note" serves the price range; asking for more makes
 * DynamoDB fetch from the table, which is said. */
static void
test_lsi_projection (void)
{
  g_autoptr(DynoTableDesign) design = orders_design ();
  g_autoptr(DynoAccessPattern) covered =
    pattern ("\"KeyConditionExpression\":\"customer = :c AND price >= :t\","
             "\"ProjectionExpression\":\"customer, price, note\","
             "\"ExpressionAttributeValues\":{\":c\":{\"S\":\"C1\"},\":t\":{\"N\":\"100\"}}",
             "");
  g_autoptr(DynoAccessPattern) wider =
    pattern ("\"KeyConditionExpression\":\"customer = :c AND price >= :t\","
             "\"ProjectionExpression\":\"customer, address\","
             "\"ExpressionAttributeValues\":{\":c\":{\"S\":\"C1\"},\":t\":{\"N\":\"100\"}}",
             "");
  g_autoptr(DynoPatternPlan) plan = dyno_pattern_plan_for_design (covered, design);
  g_autoptr(DynoPatternPlan) wide = dyno_pattern_plan_for_design (wider, design);

  g_assert_cmpstr (plan->index_name, ==, "byPrice");
  g_assert_cmpstr (plan->key_condition, ==, "customer = :c AND price >= :t");
  g_assert_cmpuint (plan->notes->len, ==, 0);
  g_assert_cmpstr (wide->index_name, ==, "byPrice");
  g_assert_true (wide->projection_served);
  g_assert_true (has_note (wide, "fetches them from the table"));
}

static void
test_scan (void)
{
  g_autoptr(DynoTableDesign) design = orders_design ();
  g_autoptr(DynoAccessPattern) no_equality =
    pattern ("\"FilterExpression\":\"amount > :m\","
             "\"ExpressionAttributeValues\":{\":m\":{\"N\":\"10\"}}",
             "\"expect\":{\"scan\":true}");
  g_autoptr(DynoAccessPattern) unknown =
    pattern ("\"FilterExpression\":\"city = :x OR customer = :c\","
             "\"ExpressionAttributeValues\":{\":x\":{\"S\":\"Lisboa\"},\":c\":{\"S\":\"C1\"}}",
             "");
  g_autoptr(DynoAccessPattern) by_city =
    pattern ("\"FilterExpression\":\"city = :x\","
             "\"ExpressionAttributeValues\":{\":x\":{\"S\":\"Lisboa\"}}",
             "");
  g_autoptr(DynoPatternPlan) a = dyno_pattern_plan_for_design (no_equality, design);
  g_autoptr(DynoPatternPlan) b = dyno_pattern_plan_for_design (unknown, design);
  g_autoptr(DynoPatternPlan) c = dyno_pattern_plan_for_design (by_city, design);

  g_assert_cmpint (a->kind, ==, DYNO_PATTERN_PLAN_SCAN);
  g_assert_null (a->key_condition);
  g_assert_cmpstr (a->filter, ==, "amount > :m");
  g_assert_true (g_str_has_prefix (a->summary, "Needs a Scan: the pattern fixes no attribute"));
  g_assert_true (has_note (a, "allows a Scan"));
  /* under OR, "customer = :c" does not fix the partition */
  g_assert_cmpint (b->kind, ==, DYNO_PATTERN_PLAN_SCAN);
  g_assert_cmpint (c->kind, ==, DYNO_PATTERN_PLAN_SCAN);
  g_assert_cmpstr (c->summary, ==,
                   "Needs a Scan: no key of this design has city as its partition key");
}

/* A key compared with a value of another type cannot serve: said, and the pattern scans. */
static void
test_type_mismatch (void)
{
  g_autoptr(DynoTableDesign) design = orders_design ();
  g_autoptr(DynoAccessPattern) p =
    pattern ("\"KeyConditionExpression\":\"customer = :c\","
             "\"ExpressionAttributeValues\":{\":c\":{\"N\":\"1\"}}",
             "");
  g_autoptr(DynoPatternPlan) plan = dyno_pattern_plan_for_design (p, design);

  g_assert_cmpint (plan->kind, ==, DYNO_PATTERN_PLAN_SCAN);
  g_assert_true (has_note (plan, "customer is compared with a Number, but the key customer "
                                 "is a String"));
}

/* The order expected is by the sort key of the index the pattern reads; a key with another
 * sort key serves the partition but not the order.  A design without the index says so. */
static void
test_order_and_missing_index (void)
{
  g_autoptr(DynoTableDesign) design = orders_design ();
  g_autoptr(DynoAccessPattern) p =
    pattern ("\"IndexName\":\"byAmount\",\"KeyConditionExpression\":\"customer = :c\","
             "\"ExpressionAttributeValues\":{\":c\":{\"S\":\"C1\"}}",
             "\"expect\":{\"order\":\"ascending\",\"by\":\"amount\"}");
  g_autoptr(DynoPatternPlan) plan = dyno_pattern_plan_for_design (p, design);

  g_assert_cmpint (plan->kind, ==, DYNO_PATTERN_PLAN_QUERY);
  g_assert_null (plan->index_name);
  g_assert_false (plan->order_served);
  g_assert_true (has_note (plan, "The pattern reads index byAmount, which this design does "
                                 "not have"));
  g_assert_true (has_note (plan, "The items come sorted by orderDate, not by amount"));

  /* once the design has it, the named index wins */
  {
    DynoIndexDesign *index =
      dyno_table_design_get_index (design, dyno_table_design_add_index (design, FALSE));
    g_autoptr(DynoPatternPlan) again = NULL;

    dyno_table_design_index_set_name (index, "byAmount");
    dyno_table_design_index_set_sort_key (index, "amount", DYNO_VALUE_N);
    again = dyno_pattern_plan_for_design (p, design);
    g_assert_cmpstr (again->index_name, ==, "byAmount");
    g_assert_true (again->order_served);
    g_assert_cmpuint (again->notes->len, ==, 0);
  }
}

/* begins_with serves a String sort key, never a Number one. */
static void
test_begins_with (void)
{
  g_autoptr(DynoTableDesign) design = orders_design ();
  g_autoptr(DynoAccessPattern) p =
    pattern ("\"KeyConditionExpression\":\"customer = :c AND begins_with(orderDate, :y)\","
             "\"ExpressionAttributeValues\":{\":c\":{\"S\":\"C1\"},\":y\":{\"S\":\"2026-\"}}",
             "");
  g_autoptr(DynoPatternPlan) plan = dyno_pattern_plan_for_design (p, design);

  g_assert_null (plan->index_name);
  g_assert_cmpstr (plan->key_condition, ==, "customer = :c AND begins_with(orderDate, :y)");
  g_assert_null (plan->filter);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pattern-plan/table-key", test_table_key);
  g_test_add_func ("/pattern-plan/index-from-filter", test_index_from_filter);
  g_test_add_func ("/pattern-plan/lsi-projection", test_lsi_projection);
  g_test_add_func ("/pattern-plan/scan", test_scan);
  g_test_add_func ("/pattern-plan/type-mismatch", test_type_mismatch);
  g_test_add_func ("/pattern-plan/order-and-missing-index", test_order_and_missing_index);
  g_test_add_func ("/pattern-plan/begins-with", test_begins_with);
  return g_test_run ();
}
