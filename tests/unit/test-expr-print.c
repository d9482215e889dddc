/* test-expr-print.c: the placeholder printer, the inline printer and round trips
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-expr.h"
#include "dyno-json.h"

static DynoValue *
ddb (const char *json)
{
  g_autoptr(GError) error = NULL;
  DynoValue *value = dyno_value_from_ddb_json (json, -1, &error);

  g_assert_no_error (error);
  return value;
}

static DynoExpr *
path_expr (const char *name)
{
  return dyno_expr_new_path (dyno_path_new (name));
}

static DynoExpr *
str_expr (const char *text)
{
  return dyno_expr_new_value (dyno_value_new_string (text, -1));
}

static DynoExpr *
cmp (const char *name,
     const char *text)
{
  return dyno_expr_new_compare (DYNO_COMPARE_EQ, path_expr (name), str_expr (text));
}

static DynoExpr *
parse_inline (const char *text)
{
  g_autoptr(GError) error = NULL;
  DynoExpr *expr = dyno_expr_parse_condition (text, DYNO_SYNTAX_INLINE, DYNO_EXPR_ROLE_FILTER,
                                              NULL, NULL, NULL, NULL, &error);

  if (error != NULL)
    g_test_message ("parsing %s: %s", text, error->message);
  g_assert_no_error (error);
  return expr;
}

/* The printer's placeholders as the maps DynamoDB gets. */
static void
printer_maps (DynoExprPrinter  *printer,
              GHashTable      **names,
              GHashTable      **values)
{
  *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                   (GDestroyNotify) dyno_value_free);
  for (guint i = 0; i < dyno_expr_printer_get_n_names (printer); i++)
    {
      const char *placeholder, *name;

      dyno_expr_printer_get_name (printer, i, &placeholder, &name);
      g_assert_false (g_hash_table_contains (*names, placeholder));
      g_assert_true (g_regex_match_simple ("^#[A-Za-z0-9_]+$", placeholder, 0, 0));
      g_hash_table_insert (*names, g_strdup (placeholder), g_strdup (name));
    }
  for (guint i = 0; i < dyno_expr_printer_get_n_values (printer); i++)
    {
      const char *placeholder;
      const DynoValue *value;

      dyno_expr_printer_get_value (printer, i, &placeholder, &value);
      g_assert_false (g_hash_table_contains (*values, placeholder));
      g_assert_true (g_regex_match_simple ("^:[A-Za-z0-9_]+$", placeholder, 0, 0));
      g_hash_table_insert (*values, g_strdup (placeholder), dyno_value_copy (value));
    }
}

static const char *
name_at (DynoExprPrinter *printer,
         guint            i,
         const char     **name)
{
  const char *placeholder;

  dyno_expr_printer_get_name (printer, i, &placeholder, name);
  return placeholder;
}

static const char *
value_at (DynoExprPrinter  *printer,
          guint             i,
          const DynoValue **value)
{
  const char *placeholder;

  dyno_expr_printer_get_value (printer, i, &placeholder, value);
  return placeholder;
}

/* ---- placeholder naming ----------------------------------------------------------------- */

static void
test_names (void)
{
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  g_autoptr(DynoExpr) expr = NULL;
  g_autofree char *text = NULL;
  const char *name;

  expr = dyno_expr_new_and (cmp ("status", "open"),
         dyno_expr_new_and (cmp ("order-date", "2026"),
         dyno_expr_new_and (cmp ("1st", "x"),
         dyno_expr_new_and (cmp ("a-b", "y"),
         dyno_expr_new_and (cmp ("a.b", "z"),
         dyno_expr_new_and (cmp ("status", "closed"),
         dyno_expr_new_and (cmp ("plain", "p"),
         dyno_expr_new_and (cmp ("日付", "d"),
                            cmp ("my attr", "m")))))))));
  text = dyno_expr_printer_print_condition (printer, expr);
  g_assert_cmpstr (text, ==,
                   "#status = :status AND #order_date = :order_date AND #n1st = :n1st AND "
                   "#a_b = :a_b AND #a_b_1 = :a_b_1 AND #status = :status_1 AND plain = :plain "
                   "AND #attr = :attr AND #my_attr = :my_attr");
  g_assert_cmpuint (dyno_expr_printer_get_n_names (printer), ==, 7);
  g_assert_cmpstr (name_at (printer, 0, &name), ==, "#status");
  g_assert_cmpstr (name, ==, "status");
  g_assert_cmpstr (name_at (printer, 1, &name), ==, "#order_date");
  g_assert_cmpstr (name, ==, "order-date");
  g_assert_cmpstr (name_at (printer, 2, &name), ==, "#n1st");
  g_assert_cmpstr (name_at (printer, 3, &name), ==, "#a_b");
  g_assert_cmpstr (name, ==, "a-b");
  g_assert_cmpstr (name_at (printer, 4, &name), ==, "#a_b_1");
  g_assert_cmpstr (name, ==, "a.b");
  g_assert_cmpstr (name_at (printer, 5, &name), ==, "#attr");
  g_assert_cmpstr (name, ==, "日付");
  g_assert_cmpuint (dyno_expr_printer_get_n_values (printer), ==, 9);
}

static void
test_alias_all (void)
{
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  g_autoptr(DynoExpr) expr = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) projection = dyno_projection_new ();
  g_autofree char *ptext = NULL;
  DynoPath *path;

  dyno_expr_printer_set_alias_all (printer, TRUE);
  expr = dyno_expr_new_and (cmp ("a_b", "1"), cmp ("a-b", "2"));
  text = dyno_expr_printer_print_condition (printer, expr);
  g_assert_cmpstr (text, ==, "#a_b = :a_b AND #a_b_1 = :a_b_1");

  /* the same printer continues with the same placeholders */
  path = dyno_path_new ("a-b");
  dyno_path_append_index (path, 3);
  dyno_path_append_name (path, "a_b");
  g_ptr_array_add (projection, path);
  g_ptr_array_add (projection, dyno_path_new ("pk"));
  ptext = dyno_expr_printer_print_projection (printer, projection);
  g_assert_cmpstr (ptext, ==, "#a_b_1[3].#a_b, #pk");
  g_assert_cmpuint (dyno_expr_printer_get_n_names (printer), ==, 3);
}

static void
test_values (void)
{
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  g_autoptr(DynoExpr) e1 = NULL;
  g_autoptr(DynoExpr) e2 = NULL;
  g_autoptr(DynoExpr) e3 = NULL;
  g_autofree char *t1 = NULL;
  g_autofree char *t2 = NULL;
  g_autofree char *t3 = NULL;
  const DynoValue *value;
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_expr_free);

  g_ptr_array_add (list, str_expr ("a"));
  g_ptr_array_add (list, str_expr ("b"));
  g_ptr_array_add (list, str_expr ("open"));

  e1 = dyno_expr_new_or (cmp ("status", "open"),
       dyno_expr_new_or (cmp ("status", "closed"),
       dyno_expr_new_or (cmp ("status", "open"),
       dyno_expr_new_in (path_expr ("status"), list))));
  t1 = dyno_expr_printer_print_condition (printer, e1);
  g_assert_cmpstr (t1, ==, "#status = :status OR #status = :status_1 OR #status = :status OR "
                   "#status IN (:status_2, :status_3, :status)");

  e2 = dyno_expr_new_and (
         dyno_expr_new_between (path_expr ("sk"), str_expr ("a"), str_expr ("b")),
         dyno_expr_new_and (
           dyno_expr_new_compare (DYNO_COMPARE_LT, str_expr ("1"), str_expr ("2")),
           dyno_expr_new_and (
             dyno_expr_new_compare (DYNO_COMPARE_GT, dyno_expr_new_size (dyno_path_new ("tags")),
                                    dyno_expr_new_value (ddb ("{\"N\":\"3\"}"))),
             dyno_expr_new_and (
               dyno_expr_new_function (DYNO_FUNCTION_ATTRIBUTE_TYPE, path_expr ("data"),
                                       str_expr ("M"), NULL),
               dyno_expr_new_function (DYNO_FUNCTION_BEGINS_WITH, path_expr ("sk"),
                                       str_expr ("USER#"), NULL)))));
  t2 = dyno_expr_printer_print_condition (printer, e2);
  g_assert_cmpstr (t2, ==, "sk BETWEEN :sk_low AND :sk_high AND :v < :v_1 AND size(tags) > "
                   ":tags_size AND attribute_type(#data, :data_type) AND begins_with(sk, :sk)");

  /* value names from the parsed text win when they do not collide */
  {
    g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                          (GDestroyNotify) dyno_value_free);
    g_autoptr(GError) error = NULL;

    g_hash_table_insert (values, g_strdup (":pk"), ddb ("{\"S\":\"T#1\"}"));
    g_hash_table_insert (values, g_strdup (":status"), ddb ("{\"S\":\"other\"}"));
    g_hash_table_insert (values, g_strdup (":a"), ddb ("{\"S\":\"open\"}"));
    e3 = dyno_expr_parse_condition ("pk = :pk AND x = :status AND y = :a",
                                    DYNO_SYNTAX_DYNAMODB, DYNO_EXPR_ROLE_FILTER, NULL, values,
                                    NULL, NULL, &error);
    g_assert_no_error (error);
  }
  t3 = dyno_expr_printer_print_condition (printer, e3);
  /* :status holds "open" already: the second :status falls back to the attribute's name */
  g_assert_cmpstr (t3, ==, "pk = :pk AND x = :x AND y = :a");

  g_assert_cmpuint (dyno_expr_printer_get_n_values (printer), ==, 14);
  g_assert_cmpstr (value_at (printer, 0, &value), ==, ":status");
  g_assert_cmpstr (dyno_value_get_string (value, NULL), ==, "open");
  g_assert_cmpstr (value_at (printer, 1, &value), ==, ":status_1");
  g_assert_cmpstr (dyno_value_get_string (value, NULL), ==, "closed");
  g_assert_cmpstr (value_at (printer, 11, &value), ==, ":pk");
  g_assert_cmpstr (value_at (printer, 12, &value), ==, ":x");
  g_assert_cmpstr (dyno_value_get_string (value, NULL), ==, "other");
  g_assert_cmpstr (value_at (printer, 13, &value), ==, ":a");
}

static void
test_collisions (void)
{
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  g_autoptr(DynoExpr) expr = NULL;
  g_autofree char *text = NULL;
  DynoExpr *v1 = str_expr ("one");
  DynoExpr *v2 = str_expr ("two");
  DynoExpr *v3 = str_expr ("three");

  /* two different values written with the same placeholder name, and a generated name
   * that equals a written one */
  v1->value_name = g_strdup (":v");
  v2->value_name = g_strdup (":v");
  v3->value_name = g_strdup (":a_b");
  expr = dyno_expr_new_and (
           dyno_expr_new_compare (DYNO_COMPARE_EQ, path_expr ("a_b"), v1),
           dyno_expr_new_and (
             dyno_expr_new_compare (DYNO_COMPARE_EQ, path_expr ("a_b"), v2),
             dyno_expr_new_and (
               dyno_expr_new_compare (DYNO_COMPARE_EQ, path_expr ("a-b"), v3),
               cmp ("a-b", "four"))));
  text = dyno_expr_printer_print_condition (printer, expr);
  g_assert_cmpstr (text, ==, "a_b = :v AND a_b = :a_b AND #a_b = :a_b_1 AND #a_b = :a_b_2");
  g_assert_cmpuint (dyno_expr_printer_get_n_names (printer), ==, 1);
  g_assert_cmpuint (dyno_expr_printer_get_n_values (printer), ==, 4);
}

static void
test_unused_never_emitted (void)
{
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  g_autoptr(DynoExpr) expr = NULL;
  g_autofree char *text = NULL;

  expr = dyno_expr_new_function (DYNO_FUNCTION_ATTRIBUTE_EXISTS, path_expr ("pk"), NULL);
  g_assert_cmpuint (dyno_expr_printer_get_n_names (printer), ==, 0);
  text = dyno_expr_printer_print_condition (printer, expr);
  g_assert_cmpstr (text, ==, "attribute_exists(pk)");
  g_assert_cmpuint (dyno_expr_printer_get_n_names (printer), ==, 0);
  g_assert_cmpuint (dyno_expr_printer_get_n_values (printer), ==, 0);
}

/* ---- precedence ------------------------------------------------------------------------- */

static void
check_print (DynoExpr   *expr,
             const char *expected)
{
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  g_autofree char *text = dyno_expr_printer_print_condition (printer, expr);
  g_autofree char *inline_text = dyno_expr_to_inline (expr);
  g_autoptr(DynoExpr) back = parse_inline (inline_text);

  g_assert_cmpstr (text, ==, expected);
  g_assert_true (dyno_expr_equal (expr, back));
  dyno_expr_free (expr);
}

static void
test_precedence (void)
{
  check_print (dyno_expr_new_or (dyno_expr_new_and (cmp ("a", "1"), cmp ("b", "2")),
                                 cmp ("c", "3")),
               "a = :a AND b = :b OR c = :c");
  check_print (dyno_expr_new_and (dyno_expr_new_or (cmp ("a", "1"), cmp ("b", "2")),
                                  cmp ("c", "3")),
               "(a = :a OR b = :b) AND c = :c");
  check_print (dyno_expr_new_and (cmp ("c", "3"),
                                  dyno_expr_new_or (cmp ("a", "1"), cmp ("b", "2"))),
               "c = :c AND (a = :a OR b = :b)");
  check_print (dyno_expr_new_or (dyno_expr_new_or (cmp ("a", "1"), cmp ("b", "2")),
                                 cmp ("c", "3")),
               "(a = :a OR b = :b) OR c = :c");
  check_print (dyno_expr_new_or (cmp ("a", "1"),
                                 dyno_expr_new_or (cmp ("b", "2"), cmp ("c", "3"))),
               "a = :a OR b = :b OR c = :c");
  check_print (dyno_expr_new_not (dyno_expr_new_and (cmp ("a", "1"), cmp ("b", "2"))),
               "NOT (a = :a AND b = :b)");
  check_print (dyno_expr_new_not (dyno_expr_new_not (cmp ("a", "1"))), "NOT (NOT a = :a)");
  check_print (dyno_expr_new_and (dyno_expr_new_not (cmp ("a", "1")), cmp ("b", "2")),
               "NOT a = :a AND b = :b");
  check_print (dyno_expr_new_paren (dyno_expr_new_paren (cmp ("a", "1"))), "(a = :a)");
  check_print (dyno_expr_new_and (dyno_expr_new_paren (cmp ("a", "1")), cmp ("b", "2")),
               "(a = :a) AND b = :b");
}

/* ---- updates and projections ------------------------------------------------------------ */

static void
test_update_print (void)
{
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  g_autoptr(DynoUpdate) update = dyno_update_new ();
  g_autofree char *text = NULL;
  g_autofree char *inline_text = NULL;
  DynoPath *indexed = dyno_path_new ("items");

  dyno_path_append_index (indexed, 2);
  dyno_update_add_clause (update, DYNO_UPDATE_SET, dyno_path_new ("count"),
                          dyno_expr_new_arith (DYNO_EXPR_PLUS, path_expr ("count"),
                                               dyno_expr_new_value (ddb ("{\"N\":\"1\"}"))));
  dyno_update_add_clause (update, DYNO_UPDATE_REMOVE, indexed, NULL);
  dyno_update_add_clause (update, DYNO_UPDATE_SET, dyno_path_new ("log"),
    dyno_expr_new_arith (DYNO_EXPR_LIST_APPEND,
                         dyno_expr_new_arith (DYNO_EXPR_IF_NOT_EXISTS, path_expr ("log"),
                                              dyno_expr_new_value (ddb ("{\"L\":[]}"))),
                         dyno_expr_new_value (ddb ("{\"L\":[{\"S\":\"e\"}]}"))));
  dyno_update_add_clause (update, DYNO_UPDATE_ADD, dyno_path_new ("n"),
                          dyno_expr_new_value (ddb ("{\"N\":\"-2\"}")));
  dyno_update_add_clause (update, DYNO_UPDATE_DELETE, dyno_path_new ("tags"),
                          dyno_expr_new_value (ddb ("{\"SS\":[\"x\"]}")));
  dyno_update_add_clause (update, DYNO_UPDATE_SET, dyno_path_new ("a-b"),
                          dyno_expr_new_arith (DYNO_EXPR_MINUS, path_expr ("a-b"),
                                               dyno_expr_new_value (ddb ("{\"N\":\"-1\"}"))));
  text = dyno_expr_printer_print_update (printer, update);
  g_assert_cmpstr (text, ==, "SET #count = #count + :count, #log = list_append(if_not_exists(#log, "
                   ":log), :log_1), #a_b = #a_b - :a_b REMOVE #items[2] ADD n :n DELETE tags "
                   ":tags");
  inline_text = dyno_update_to_inline (update);
  g_assert_cmpstr (inline_text, ==, "SET count = count + 1, log = list_append(if_not_exists(log, "
                   ":{\"L\":[]}), :{\"L\":[{\"S\":\"e\"}]}), `a-b` = `a-b` - -1 REMOVE items[2] "
                   "ADD n -2 DELETE tags :{\"SS\":[\"x\"]}");
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynoUpdate) back = dyno_expr_parse_update (inline_text, DYNO_SYNTAX_INLINE, NULL,
                                                         NULL, NULL, NULL, &error);
    g_autoptr(GHashTable) names = NULL;
    g_autoptr(GHashTable) values = NULL;
    g_autoptr(DynoUpdate) back2 = NULL;
    g_autoptr(DynoUpdate) grouped = dyno_update_new ();
    static const int order[] = { 0, 2, 5, 1, 3, 4 };

    g_assert_no_error (error);
    /* the printer groups the actions by keyword */
    for (guint i = 0; i < G_N_ELEMENTS (order); i++)
      {
        const DynoUpdateClause *c = g_ptr_array_index (update->clauses, order[i]);

        dyno_update_add_clause (grouped, c->action, dyno_path_copy (c->path),
                                c->operand != NULL ? dyno_expr_copy (c->operand) : NULL);
      }
    g_assert_true (dyno_update_equal (back, grouped));
    g_assert_false (dyno_update_equal (back, update));

    printer_maps (printer, &names, &values);
    back2 = dyno_expr_parse_update (text, DYNO_SYNTAX_DYNAMODB, names, values, NULL, NULL,
                                    &error);
    g_assert_no_error (error);
    g_assert_true (dyno_update_equal (back2, grouped));
  }
}

static void
test_inline_print (void)
{
  static const char *const texts[] = {
    "status = \"open\" AND size(tags) > 3",
    "`order-date` BETWEEN \"2026-01\" AND \"2026-12\"",
    "`a.b` = true OR a.b <> false OR c = null",
    "`AND` IN (1, 2.5, -3) OR `true` = \"x\"",
    "attribute_type(`my attr`, \"SS\") AND begins_with(sk, \"USER#\") AND contains(l[0], 1)",
    "NOT attribute_exists(`we``ird`) OR attribute_not_exists(x[1][2].y)",
    "name = \"tab\\tnl\\nquote\\\"back\\\\slash\\u0001\" AND `日付` = \"日本🙂\"",
    "data = :{\"B\":\"AQI=\"} AND m = :{\"M\":{\"k\":{\"N\":\"1\"}}}",
    "(a = 1 OR b = 2) AND (NOT c = 3)",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(DynoExpr) expr = parse_inline (texts[i]);
      g_autofree char *printed = dyno_expr_to_inline (expr);

      g_assert_cmpstr (printed, ==, texts[i]);
    }
}

/* ---- round trips ------------------------------------------------------------------------ */

static void
check_dynamodb_round_trip (const DynoExpr *expr,
                           gboolean        alias_all)
{
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GHashTable) values = NULL;
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoExpr) back = NULL;
  g_autofree char *text = NULL;

  dyno_expr_printer_set_alias_all (printer, alias_all);
  text = dyno_expr_printer_print_condition (printer, expr);
  printer_maps (printer, &names, &values);
  back = dyno_expr_parse_condition (text, DYNO_SYNTAX_DYNAMODB, DYNO_EXPR_ROLE_CONDITION, names,
                                    values, used, NULL, &error);
  if (error != NULL)
    g_error ("reparsing %s: %s", text, error->message);
  if (!dyno_expr_equal (expr, back))
    {
      g_autofree char *a = dyno_expr_to_inline (expr);
      g_autofree char *b = dyno_expr_to_inline (back);
      g_error ("round trip changed %s into %s (via %s)", a, b, text);
    }
  /* nothing unused */
  g_assert_cmpuint (g_hash_table_size (used), ==,
                    g_hash_table_size (names) + g_hash_table_size (values));
}

static void
check_inline_round_trip (const DynoExpr *expr)
{
  g_autofree char *text = dyno_expr_to_inline (expr);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoExpr) back = dyno_expr_parse_condition (text, DYNO_SYNTAX_INLINE,
                                                        DYNO_EXPR_ROLE_FILTER, NULL, NULL, NULL,
                                                        NULL, &error);
  g_autofree char *again = NULL;

  if (error != NULL)
    g_error ("reparsing %s: %s", text, error->message);
  g_assert_true (dyno_expr_equal (expr, back));
  again = dyno_expr_to_inline (back);
  g_assert_cmpstr (text, ==, again);
}

static void
test_round_trip_texts (void)
{
  static const char *const texts[] = {
    "pk = :pk",
    "pk = :pk AND sk BETWEEN :lo AND :hi",
    "#pk = :pk AND begins_with(#sk, :prefix)",
    "a = :v OR b = :v AND NOT c <> :w",
    "(a = :v OR b = :v) AND c IN (:v, :w, :x)",
    "NOT (attribute_exists(#n.#m[3]) AND size(#n) >= :x)",
    "contains(tags, :v) OR attribute_type(a, :t) OR attribute_not_exists(#n)",
    ":x <= size(a.b[0].c)",
    "a.b.c.d[1][2] < :v",
    "NOT NOT a = :v",
  };
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) dyno_value_free);

  g_hash_table_insert (names, g_strdup ("#pk"), g_strdup ("pk"));
  g_hash_table_insert (names, g_strdup ("#sk"), g_strdup ("sort key"));
  g_hash_table_insert (names, g_strdup ("#n"), g_strdup ("status"));
  g_hash_table_insert (names, g_strdup ("#m"), g_strdup ("a-b"));
  g_hash_table_insert (values, g_strdup (":pk"), ddb ("{\"S\":\"TENANT#acme\"}"));
  g_hash_table_insert (values, g_strdup (":lo"), ddb ("{\"S\":\"EVT#2026-06-23T00:00:00Z\"}"));
  g_hash_table_insert (values, g_strdup (":hi"), ddb ("{\"S\":\"EVT#2026-06-23T23:59:59Z\"}"));
  g_hash_table_insert (values, g_strdup (":prefix"), ddb ("{\"S\":\"USER#\"}"));
  g_hash_table_insert (values, g_strdup (":v"), ddb ("{\"N\":\"1e2\"}"));
  g_hash_table_insert (values, g_strdup (":w"), ddb ("{\"B\":\"AAEC\"}"));
  g_hash_table_insert (values, g_strdup (":x"), ddb ("{\"NS\":[\"1\",\"2\"]}"));
  g_hash_table_insert (values, g_strdup (":t"), ddb ("{\"S\":\"NULL\"}"));

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoExpr) expr = dyno_expr_parse_condition (texts[i], DYNO_SYNTAX_DYNAMODB,
                                                            DYNO_EXPR_ROLE_FILTER, names,
                                                            values, NULL, NULL, &error);
      g_assert_no_error (error);
      check_dynamodb_round_trip (expr, FALSE);
      check_dynamodb_round_trip (expr, TRUE);
      check_inline_round_trip (expr);
    }
  {
    /* value names survive printing when they are free */
    g_autoptr(DynoExpr) expr = dyno_expr_parse_condition (texts[1], DYNO_SYNTAX_DYNAMODB,
                                                          DYNO_EXPR_ROLE_KEY_CONDITION, names,
                                                          values, NULL, NULL, NULL);
    g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
    g_autofree char *text = dyno_expr_printer_print_condition (printer, expr);

    g_assert_cmpstr (text, ==, texts[1]);
  }
}

/* Random trees over awkward names and every value type. */
static const char *const random_names[] = {
  "pk", "sk", "status", "name", "size", "order-date", "a.b", "1st", "my attr", "日付", "a_b",
  "a-b", "AND", "true", "null", "x`y", "_u", "Size", "count", "data", "gsi1pk", "ñ", "#x",
  ":v", "[0]", "\"q\"", "a b", "IN",
};

static const char *const random_values[] = {
  "{\"S\":\"\"}", "{\"S\":\"abc\"}", "{\"S\":\"q\\\"b\\\\s\"}", "{\"S\":\"t\\tn\\n\\u0001\"}",
  "{\"S\":\"🙂日本\"}", "{\"S\":\"}\"}", "{\"N\":\"0\"}", "{\"N\":\"-1.5\"}",
  "{\"N\":\"12345678901234567890123456789012345678\"}", "{\"N\":\"1E-130\"}",
  "{\"N\":\"100\"}", "{\"BOOL\":true}", "{\"BOOL\":false}", "{\"NULL\":true}",
  "{\"B\":\"AAEC\"}", "{\"B\":\"\"}", "{\"SS\":[\"a\",\"b\"]}", "{\"NS\":[\"1\",\"-2\"]}",
  "{\"BS\":[\"AQ==\"]}", "{\"L\":[{\"S\":\"x\"},{\"N\":\"1\"}]}", "{\"L\":[]}",
  "{\"M\":{\"k\":{\"S\":\"v\"},\"a b\":{\"NULL\":true}}}",
};

static DynoPath *
random_path (GRand *rand)
{
  DynoPath *path = dyno_path_new (random_names[g_rand_int_range (rand, 0,
                                                                 G_N_ELEMENTS (random_names))]);
  int extra = g_rand_int_range (rand, 0, 3);

  for (int i = 0; i < extra; i++)
    {
      if (g_rand_boolean (rand))
        dyno_path_append_index (path, g_rand_int_range (rand, 0, 20));
      else
        dyno_path_append_name (path, random_names[g_rand_int_range (rand, 0,
                                                                    G_N_ELEMENTS (random_names))]);
    }
  return path;
}

static DynoExpr *
random_value (GRand *rand)
{
  DynoExpr *expr = dyno_expr_new_value (ddb (random_values[g_rand_int_range (rand, 0,
                                                                  G_N_ELEMENTS (random_values))]));

  if (g_rand_int_range (rand, 0, 4) == 0)
    expr->value_name = g_strdup_printf (":p%d", g_rand_int_range (rand, 0, 3));
  return expr;
}

static DynoExpr *
random_operand (GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 5))
    {
    case 0:
    case 1:
      return dyno_expr_new_path (random_path (rand));
    case 2:
      return dyno_expr_new_size (random_path (rand));
    default:
      return random_value (rand);
    }
}

static DynoExpr *
random_condition (GRand *rand,
                  int    depth)
{
  int choice = g_rand_int_range (rand, 0, depth > 0 ? 12 : 7);

  switch (choice)
    {
    case 0:
      return dyno_expr_new_compare ((DynoCompareOp) g_rand_int_range (rand, 0, 6),
                                    random_operand (rand), random_operand (rand));
    case 1:
      return dyno_expr_new_between (random_operand (rand), random_operand (rand),
                                    random_operand (rand));
    case 2:
      {
        GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_expr_free);
        int n = g_rand_int_range (rand, 1, 5);

        for (int i = 0; i < n; i++)
          g_ptr_array_add (list, random_operand (rand));
        return dyno_expr_new_in (random_operand (rand), list);
      }
    case 3:
      return dyno_expr_new_function (g_rand_boolean (rand) ? DYNO_FUNCTION_ATTRIBUTE_EXISTS
                                                           : DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS,
                                     dyno_expr_new_path (random_path (rand)), NULL);
    case 4:
      return dyno_expr_new_function (DYNO_FUNCTION_ATTRIBUTE_TYPE,
                                     dyno_expr_new_path (random_path (rand)),
                                     str_expr ("SS"), NULL);
    case 5:
      return dyno_expr_new_function (DYNO_FUNCTION_BEGINS_WITH,
                                     dyno_expr_new_path (random_path (rand)),
                                     random_operand (rand), NULL);
    case 6:
      return dyno_expr_new_function (DYNO_FUNCTION_CONTAINS,
                                     dyno_expr_new_path (random_path (rand)),
                                     random_operand (rand), NULL);
    case 7:
    case 8:
      return dyno_expr_new_and (random_condition (rand, depth - 1),
                                random_condition (rand, depth - 1));
    case 9:
      return dyno_expr_new_or (random_condition (rand, depth - 1),
                               random_condition (rand, depth - 1));
    case 10:
      return dyno_expr_new_not (random_condition (rand, depth - 1));
    default:
      return dyno_expr_new_paren (random_condition (rand, depth - 1));
    }
}

static void
test_round_trip_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20260623);

  for (int i = 0; i < 3000; i++)
    {
      g_autoptr(DynoExpr) expr = random_condition (rand, 4);

      check_inline_round_trip (expr);
      check_dynamodb_round_trip (expr, i % 3 == 0);
    }
}

static void
test_round_trip_random_update (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  for (int i = 0; i < 1000; i++)
    {
      g_autoptr(DynoUpdate) update = dyno_update_new ();
      g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
      g_autoptr(GPtrArray) projection = dyno_projection_new ();
      g_autoptr(GHashTable) names = NULL;
      g_autoptr(GHashTable) values = NULL;
      g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoUpdate) back = NULL;
      g_autoptr(DynoUpdate) back_inline = NULL;
      g_autoptr(GPtrArray) pback = NULL;
      g_autoptr(GPtrArray) pback_inline = NULL;
      g_autofree char *text = NULL;
      g_autofree char *ptext = NULL;
      g_autofree char *inline_text = NULL;
      g_autofree char *pinline = NULL;
      int n = g_rand_int_range (rand, 1, 6);
      DynoUpdateAction action = (DynoUpdateAction) g_rand_int_range (rand, 0, 4);

      /* one section per action, as the printer writes them */
      for (int k = 0; k < n; k++)
        {
          DynoExpr *operand = NULL;

          if (k > 0 && g_rand_int_range (rand, 0, 3) == 0)
            action = (DynoUpdateAction) ((action + 1) % 4);
          if (action == DYNO_UPDATE_SET)
            {
              switch (g_rand_int_range (rand, 0, 5))
                {
                case 0:
                  operand = random_value (rand);
                  break;
                case 1:
                  operand = dyno_expr_new_path (random_path (rand));
                  break;
                case 2:
                  operand = dyno_expr_new_arith (g_rand_boolean (rand) ? DYNO_EXPR_PLUS
                                                                       : DYNO_EXPR_MINUS,
                                                 dyno_expr_new_path (random_path (rand)),
                                                 random_value (rand));
                  break;
                case 3:
                  operand = dyno_expr_new_arith (DYNO_EXPR_IF_NOT_EXISTS,
                                                 dyno_expr_new_path (random_path (rand)),
                                                 random_value (rand));
                  break;
                default:
                  operand = dyno_expr_new_arith (DYNO_EXPR_LIST_APPEND, random_value (rand),
                                                 dyno_expr_new_path (random_path (rand)));
                  break;
                }
            }
          else if (action != DYNO_UPDATE_REMOVE)
            operand = random_value (rand);
          dyno_update_add_clause (update, action, random_path (rand), operand);
        }
      /* keep it in the printer's grouped order so equality is exact */
      {
        g_autoptr(DynoUpdate) grouped = dyno_update_new ();
        gboolean seen[4] = { FALSE, };

        for (guint a = 0; a < update->clauses->len; a++)
          {
            const DynoUpdateClause *first = g_ptr_array_index (update->clauses, a);

            if (seen[first->action])
              continue;
            seen[first->action] = TRUE;
            for (guint b = a; b < update->clauses->len; b++)
              {
                const DynoUpdateClause *c = g_ptr_array_index (update->clauses, b);

                if (c->action == first->action)
                  dyno_update_add_clause (grouped, c->action, dyno_path_copy (c->path),
                                          c->operand ? dyno_expr_copy (c->operand) : NULL);
              }
          }
        g_ptr_array_unref (update->clauses);
        update->clauses = g_steal_pointer (&grouped->clauses);
        grouped->clauses = g_ptr_array_new ();
      }
      for (int k = 0; k < 3; k++)
        g_ptr_array_add (projection, random_path (rand));

      dyno_expr_printer_set_alias_all (printer, i % 2 == 0);
      text = dyno_expr_printer_print_update (printer, update);
      ptext = dyno_expr_printer_print_projection (printer, projection);
      printer_maps (printer, &names, &values);
      back = dyno_expr_parse_update (text, DYNO_SYNTAX_DYNAMODB, names, values, used, NULL,
                                     &error);
      if (error != NULL)
        g_error ("reparsing %s: %s", text, error->message);
      g_assert_true (dyno_update_equal (update, back));
      pback = dyno_expr_parse_projection (ptext, DYNO_SYNTAX_DYNAMODB, names, used, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (dyno_projection_equal (projection, pback));
      g_assert_cmpuint (g_hash_table_size (used), ==,
                        g_hash_table_size (names) + g_hash_table_size (values));

      inline_text = dyno_update_to_inline (update);
      back_inline = dyno_expr_parse_update (inline_text, DYNO_SYNTAX_INLINE, NULL, NULL, NULL,
                                            NULL, &error);
      if (error != NULL)
        g_error ("reparsing %s: %s", inline_text, error->message);
      g_assert_true (dyno_update_equal (update, back_inline));
      pinline = dyno_projection_to_inline (projection);
      pback_inline = dyno_expr_parse_projection (pinline, DYNO_SYNTAX_INLINE, NULL, NULL, NULL,
                                                 &error);
      g_assert_no_error (error);
      g_assert_true (dyno_projection_equal (projection, pback_inline));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/expr-print/names", test_names);
  g_test_add_func ("/expr-print/alias-all", test_alias_all);
  g_test_add_func ("/expr-print/values", test_values);
  g_test_add_func ("/expr-print/collisions", test_collisions);
  g_test_add_func ("/expr-print/unused", test_unused_never_emitted);
  g_test_add_func ("/expr-print/precedence", test_precedence);
  g_test_add_func ("/expr-print/update", test_update_print);
  g_test_add_func ("/expr-print/inline", test_inline_print);
  g_test_add_func ("/expr-print/round-trip/texts", test_round_trip_texts);
  g_test_add_func ("/expr-print/round-trip/random", test_round_trip_random);
  g_test_add_func ("/expr-print/round-trip/random-update", test_round_trip_random_update);

  return g_test_run ();
}
