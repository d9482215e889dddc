/* test-expr-parse.c: both expression parsers, their errors and the AST helpers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-expr.h"
#include "dyno-json.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static GHashTable *
names_new (const char *first, ...)
{
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  va_list ap;

  va_start (ap, first);
  for (const char *key = first; key != NULL; key = va_arg (ap, const char *))
    g_hash_table_insert (names, g_strdup (key), g_strdup (va_arg (ap, const char *)));
  va_end (ap);
  return names;
}

/* pairs of placeholder, DynamoDB JSON */
static GHashTable *
values_new (const char *first, ...)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) dyno_value_free);
  va_list ap;

  va_start (ap, first);
  for (const char *key = first; key != NULL; key = va_arg (ap, const char *))
    {
      g_autoptr(GError) error = NULL;
      const char *json = va_arg (ap, const char *);
      DynoValue *value = dyno_value_from_ddb_json (json, -1, &error);

      g_assert_no_error (error);
      g_hash_table_insert (values, g_strdup (key), value);
    }
  va_end (ap);
  return values;
}

static GHashTable *
used_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static DynoExpr *
parse_ok (const char *text,
          DynoSyntax  syntax,
          GHashTable *names,
          GHashTable *values)
{
  g_autoptr(GError) error = NULL;
  DynoExpr *expr = dyno_expr_parse_condition (text, syntax, DYNO_EXPR_ROLE_FILTER, names,
                                              values, NULL, NULL, &error);

  if (error != NULL)
    g_test_message ("parsing %s: %s", text, error->message);
  g_assert_no_error (error);
  g_assert_nonnull (expr);
  return expr;
}

/* Checks the error code, that the message contains @part, and the column. */
static void
parse_fails (const char *text,
             DynoSyntax  syntax,
             GHashTable *names,
             GHashTable *values,
             int         code,
             guint       column,
             const char *part)
{
  g_autoptr(GError) error = NULL;
  DynoParseLocation loc = { 0, 0, 0 };
  DynoExpr *expr = dyno_expr_parse_condition (text, syntax, DYNO_EXPR_ROLE_FILTER, names,
                                              values, NULL, &loc, &error);

  g_assert_null (expr);
  g_assert_error (error, DYNO_ERROR, code);
  if (strstr (error->message, part) == NULL)
    g_error ("parsing [%s]: message [%s] lacks [%s]", text, error->message, part);
  if (loc.column != column)
    g_error ("parsing [%s]: column %u, expected %u (%s)", text, loc.column, column,
             error->message);
  if (code == DYNO_ERROR_SYNTAX)
    {
      g_autofree char *prefix = g_strdup_printf ("Syntax error at column %u: ", column);
      g_assert_true (g_str_has_prefix (error->message, prefix));
    }
  else
    {
      g_autofree char *suffix = g_strdup_printf ("(at column %u)", column);
      g_assert_true (g_str_has_prefix (error->message, "Invalid FilterExpression: "));
      g_assert_true (g_str_has_suffix (error->message, suffix));
    }
}

static const DynoExpr *
arg (const DynoExpr *expr,
     guint           i)
{
  g_assert_nonnull (expr->args);
  g_assert_cmpuint (i, <, expr->args->len);
  return g_ptr_array_index (expr->args, i);
}

static const char *
path_name (const DynoExpr *expr,
           guint           i)
{
  g_assert_nonnull (expr->path);
  return g_array_index (expr->path->elements, DynoPathElement, i).name;
}

static GHashTable *
common_values (void)
{
  return values_new (":a", "{\"S\":\"a\"}", ":b", "{\"S\":\"b\"}", ":c", "{\"N\":\"3\"}",
                     ":n", "{\"N\":\"1\"}", ":s", "{\"S\":\"x\"}", ":t", "{\"S\":\"SS\"}",
                     NULL);
}

/* ---- DynamoDB syntax -------------------------------------------------------------------- */

static void
test_simple_compare (void)
{
  g_autoptr(GHashTable) values = values_new (":pk", "{\"S\":\"USER#1\"}", NULL);
  g_autoptr(GHashTable) used = used_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoExpr) expr = NULL;

  expr = dyno_expr_parse_condition ("pk = :pk", DYNO_SYNTAX_DYNAMODB,
                                    DYNO_EXPR_ROLE_KEY_CONDITION, NULL, values, used, NULL,
                                    &error);
  g_assert_no_error (error);
  g_assert_cmpint (expr->kind, ==, DYNO_EXPR_COMPARE);
  g_assert_cmpint (expr->op.compare, ==, DYNO_COMPARE_EQ);
  g_assert_cmpuint (expr->offset, ==, 0);
  g_assert_cmpuint (expr->length, ==, 8);
  g_assert_cmpint (arg (expr, 0)->kind, ==, DYNO_EXPR_PATH);
  g_assert_cmpstr (path_name (arg (expr, 0), 0), ==, "pk");
  g_assert_cmpuint (arg (expr, 0)->offset, ==, 0);
  g_assert_cmpuint (arg (expr, 0)->length, ==, 2);
  g_assert_cmpint (arg (expr, 1)->kind, ==, DYNO_EXPR_VALUE);
  g_assert_cmpstr (arg (expr, 1)->value_name, ==, ":pk");
  g_assert_cmpuint (arg (expr, 1)->offset, ==, 5);
  g_assert_cmpuint (arg (expr, 1)->length, ==, 3);
  g_assert_cmpstr (dyno_value_get_string (arg (expr, 1)->value, NULL), ==, "USER#1");
  g_assert_true (g_hash_table_contains (used, ":pk"));
  g_assert_cmpuint (g_hash_table_size (used), ==, 1);
}

static void
test_comparators (void)
{
  static const struct { const char *text; DynoCompareOp op; } cases[] = {
    { "a = :n", DYNO_COMPARE_EQ }, { "a <> :n", DYNO_COMPARE_NE },
    { "a < :n", DYNO_COMPARE_LT }, { "a <= :n", DYNO_COMPARE_LE },
    { "a > :n", DYNO_COMPARE_GT }, { "a >= :n", DYNO_COMPARE_GE },
    { "a>=:n", DYNO_COMPARE_GE }, { "\ta\n<>\r:n ", DYNO_COMPARE_NE },
    { ":n < a", DYNO_COMPARE_LT },
  };
  g_autoptr(GHashTable) values = common_values ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoExpr) expr = parse_ok (cases[i].text, DYNO_SYNTAX_DYNAMODB, NULL, values);

      g_assert_cmpint (expr->kind, ==, DYNO_EXPR_COMPARE);
      g_assert_cmpint (expr->op.compare, ==, cases[i].op);
      g_assert_cmpstr (dyno_compare_op_to_string (cases[i].op), !=, NULL);
    }
}

static void
test_precedence (void)
{
  g_autoptr(GHashTable) values = common_values ();
  g_autoptr(DynoExpr) e1 = parse_ok ("a = :a OR b = :b AND c = :c", DYNO_SYNTAX_DYNAMODB, NULL,
                                     values);
  g_autoptr(DynoExpr) e2 = parse_ok ("a = :a AND b = :b OR c = :c", DYNO_SYNTAX_DYNAMODB, NULL,
                                     values);
  g_autoptr(DynoExpr) e3 = parse_ok ("NOT a = :a AND b = :b", DYNO_SYNTAX_DYNAMODB, NULL,
                                     values);
  g_autoptr(DynoExpr) e4 = parse_ok ("(a = :a OR b = :b) AND c = :c", DYNO_SYNTAX_DYNAMODB,
                                     NULL, values);
  g_autoptr(DynoExpr) e5 = parse_ok ("a = :a OR b = :b OR c = :c", DYNO_SYNTAX_DYNAMODB, NULL,
                                     values);
  g_autoptr(DynoExpr) e6 = parse_ok ("NOT NOT a = :a", DYNO_SYNTAX_DYNAMODB, NULL, values);
  g_autoptr(DynoExpr) e7 = parse_ok ("a = :a AND b = :b AND c = :c", DYNO_SYNTAX_DYNAMODB,
                                     NULL, values);
  g_autoptr(DynoExpr) e8 = parse_ok ("NOT (a = :a OR b = :b)", DYNO_SYNTAX_DYNAMODB, NULL,
                                     values);

  g_assert_cmpint (e1->kind, ==, DYNO_EXPR_OR);
  g_assert_cmpint (arg (e1, 0)->kind, ==, DYNO_EXPR_COMPARE);
  g_assert_cmpint (arg (e1, 1)->kind, ==, DYNO_EXPR_AND);

  g_assert_cmpint (e2->kind, ==, DYNO_EXPR_OR);
  g_assert_cmpint (arg (e2, 0)->kind, ==, DYNO_EXPR_AND);
  g_assert_cmpint (arg (e2, 1)->kind, ==, DYNO_EXPR_COMPARE);

  g_assert_cmpint (e3->kind, ==, DYNO_EXPR_AND);
  g_assert_cmpint (arg (e3, 0)->kind, ==, DYNO_EXPR_NOT);

  g_assert_cmpint (e4->kind, ==, DYNO_EXPR_AND);
  g_assert_cmpint (arg (e4, 0)->kind, ==, DYNO_EXPR_PAREN);
  g_assert_cmpint (arg (arg (e4, 0), 0)->kind, ==, DYNO_EXPR_OR);
  g_assert_cmpuint (arg (e4, 0)->offset, ==, 0);
  g_assert_cmpuint (arg (e4, 0)->length, ==, 18);

  /* chains nest to the right */
  g_assert_cmpint (e5->kind, ==, DYNO_EXPR_OR);
  g_assert_cmpint (arg (e5, 0)->kind, ==, DYNO_EXPR_COMPARE);
  g_assert_cmpint (arg (e5, 1)->kind, ==, DYNO_EXPR_OR);
  g_assert_cmpint (e7->kind, ==, DYNO_EXPR_AND);
  g_assert_cmpint (arg (e7, 1)->kind, ==, DYNO_EXPR_AND);
  g_assert_cmpuint (arg (e7, 1)->offset, ==, 11);

  g_assert_cmpint (e6->kind, ==, DYNO_EXPR_NOT);
  g_assert_cmpint (arg (e6, 0)->kind, ==, DYNO_EXPR_NOT);
  g_assert_cmpint (e8->kind, ==, DYNO_EXPR_NOT);
  g_assert_cmpint (arg (e8, 0)->kind, ==, DYNO_EXPR_PAREN);
}

static void
test_between_in_functions (void)
{
  g_autoptr(GHashTable) values = common_values ();
  g_autoptr(GHashTable) names = names_new ("#s", "size", "#d", "order-date", NULL);
  g_autoptr(DynoExpr) b = parse_ok ("sk BETWEEN :a AND :b", DYNO_SYNTAX_DYNAMODB, NULL, values);
  g_autoptr(DynoExpr) i = parse_ok ("a IN (:a, :b,:c)", DYNO_SYNTAX_DYNAMODB, NULL, values);
  g_autoptr(DynoExpr) f1 = parse_ok ("attribute_exists(a.b[2].c)", DYNO_SYNTAX_DYNAMODB, NULL,
                                     values);
  g_autoptr(DynoExpr) f2 = parse_ok ("attribute_not_exists(#d)", DYNO_SYNTAX_DYNAMODB, names,
                                     values);
  g_autoptr(DynoExpr) f3 = parse_ok ("attribute_type(a, :t)", DYNO_SYNTAX_DYNAMODB, NULL, values);
  g_autoptr(DynoExpr) f4 = parse_ok ("begins_with ( sk , :a )", DYNO_SYNTAX_DYNAMODB, NULL,
                                     values);
  g_autoptr(DynoExpr) f5 = parse_ok ("contains(tags, :s)", DYNO_SYNTAX_DYNAMODB, NULL, values);
  g_autoptr(DynoExpr) s1 = parse_ok ("size(tags) > :c", DYNO_SYNTAX_DYNAMODB, NULL, values);
  g_autoptr(DynoExpr) s2 = parse_ok ("size(#s) BETWEEN :n AND :c", DYNO_SYNTAX_DYNAMODB, names,
                                     values);
  g_autoptr(DynoExpr) s3 = parse_ok (":c < size(a[0])", DYNO_SYNTAX_DYNAMODB, NULL, values);
  g_autoptr(DynoExpr) lower = parse_ok ("a between :a and :b or not a in (:a)",
                                        DYNO_SYNTAX_DYNAMODB, NULL, values);

  g_assert_cmpint (b->kind, ==, DYNO_EXPR_BETWEEN);
  g_assert_cmpuint (b->args->len, ==, 3);
  g_assert_cmpstr (arg (b, 2)->value_name, ==, ":b");

  g_assert_cmpint (i->kind, ==, DYNO_EXPR_IN);
  g_assert_cmpuint (i->args->len, ==, 4);

  g_assert_cmpint (f1->kind, ==, DYNO_EXPR_FUNCTION);
  g_assert_cmpint (f1->op.function, ==, DYNO_FUNCTION_ATTRIBUTE_EXISTS);
  g_assert_cmpuint (dyno_path_get_length (arg (f1, 0)->path), ==, 4);
  g_assert_null (g_array_index (arg (f1, 0)->path->elements, DynoPathElement, 2).name);
  g_assert_cmpuint (g_array_index (arg (f1, 0)->path->elements, DynoPathElement, 2).index, ==, 2);
  g_assert_cmpstr (path_name (arg (f1, 0), 3), ==, "c");

  g_assert_cmpint (f2->op.function, ==, DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS);
  g_assert_cmpstr (path_name (arg (f2, 0), 0), ==, "order-date");
  g_assert_cmpint (f3->op.function, ==, DYNO_FUNCTION_ATTRIBUTE_TYPE);
  g_assert_cmpint (f4->op.function, ==, DYNO_FUNCTION_BEGINS_WITH);
  g_assert_cmpuint (f4->length, ==, strlen ("begins_with ( sk , :a )"));
  g_assert_cmpint (f5->op.function, ==, DYNO_FUNCTION_CONTAINS);

  g_assert_cmpint (arg (s1, 0)->kind, ==, DYNO_EXPR_SIZE);
  g_assert_cmpstr (path_name (arg (s1, 0), 0), ==, "tags");
  g_assert_cmpint (arg (s2, 0)->kind, ==, DYNO_EXPR_SIZE);
  g_assert_cmpstr (path_name (arg (s2, 0), 0), ==, "size");
  g_assert_cmpint (arg (s3, 1)->kind, ==, DYNO_EXPR_SIZE);

  g_assert_cmpint (lower->kind, ==, DYNO_EXPR_OR);
  g_assert_cmpint (arg (arg (lower, 1), 0)->kind, ==, DYNO_EXPR_IN);
}

static void
test_dynamodb_errors (void)
{
  g_autoptr(GHashTable) values = common_values ();
  g_autoptr(GHashTable) names = names_new ("#n", "name", NULL);
  const int S = DYNO_ERROR_SYNTAX;
  const int V = DYNO_ERROR_VALIDATION;

  parse_fails ("a =", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 4,
               "expected a value after \"=\", found end of input");
  /* DynamoDB Local: `Syntax error; token: "_"`; an underscore after the first letter is fine */
  parse_fails ("_x = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 1,
               "\"_x\" is not a valid name; a name that starts with '_' needs an "
               "ExpressionAttributeNames placeholder");
  parse_fails ("a._x = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 3, "\"_x\" is not a valid");
  dyno_expr_free (parse_ok ("a_b = :a AND ab_.c_1 = :a", DYNO_SYNTAX_DYNAMODB, NULL, values));
  parse_fails ("a = :a AND", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 11, "found end of input");
  parse_fails ("a = :a AND b", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 13,
               "expected a comparison (=, <>, <, <=, >, >=), BETWEEN or IN after \"b\"");
  parse_fails ("a = :a b = :b", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 8,
               "expected AND, OR or the end of the expression, found \"b\"");
  parse_fails ("(a = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 8,
               "expected \")\" to close the \"(\" at column 1");
  parse_fails ("a = :a)", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 7, "closes no \"(\"");
  parse_fails ("a BETWEEN :a OR :b", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 14,
               "expected AND after the lower bound of BETWEEN, found \"OR\"");
  parse_fails ("a IN :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 6, "expected \"(\" after IN");
  parse_fails ("a IN (:a :b)", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 10, "in the IN list");
  parse_fails ("a IN ()", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 7, "a value in the IN list");
  parse_fails ("a = 1", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 5,
               "literal values are not part of DynamoDB's syntax");
  parse_fails ("a = \"x\"", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 5, "quoted literals");
  parse_fails ("a = :", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 5, "\":\" must be followed");
  parse_fails ("# = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 1, "\"#\" must be followed");
  parse_fails ("a = :a $", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 8, "unexpected character \"$\"");
  parse_fails ("a[x] = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 3, "a list index");
  parse_fails ("a[1 = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 5, "\"]\" to close");
  parse_fails ("a[99999999999] = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 3, "too large");
  parse_fails ("a. = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 4,
               "expected an attribute name after \".\"");
  parse_fails ("1st = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 1,
               "\"1st\" is not a valid name");
  parse_fails ("", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 1, "The expression can not be empty;");
  parse_fails ("   ", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 1, "The expression can not be empty;");
  parse_fails ("a = :zz", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 5,
               "An expression attribute value used in expression is not defined; attribute "
               "value: :zz");
  parse_fails ("a = :a AND #x = :a", DYNO_SYNTAX_DYNAMODB, names, values, V, 12,
               "An expression attribute name used in the document path is not defined; "
               "attribute name: #x");
  parse_fails ("#n = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 1, "attribute name: #n");
  parse_fails ("a = :a", DYNO_SYNTAX_DYNAMODB, NULL, NULL, V, 5, "attribute value: :a");
  parse_fails ("Begins_with(a, :a)", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 1,
               "Invalid function name; function: Begins_with");
  parse_fails ("a = :a OR foo(a)", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 11,
               "Invalid function name; function: foo");
  parse_fails ("begins_with(a)", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 1,
               "Incorrect number of operands for operator or function; operator or function: "
               "begins_with, number of operands: 1");
  parse_fails ("attribute_exists(a, :a)", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 1,
               "operator or function: attribute_exists, number of operands: 2");
  parse_fails ("size(a)", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 1,
               "The function is not allowed to be used this way in an expression; function: "
               "size");
  parse_fails ("size(:a) = :c", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 6,
               "Operator or function requires a document path; operator or function: size");
  parse_fails ("size(a, b) = :c", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 1,
               "function: size, number of operands: 2");
  parse_fails ("attribute_exists(a) = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 1,
               "The function is not allowed to be used this way in an expression; function: "
               "attribute_exists");
  parse_fails ("a = contains(b, :a)", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 5,
               "function: contains");
  parse_fails ("((a = :a))", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 1,
               "The expression has redundant parentheses;");
  parse_fails ("a = :a AND status = :b", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 12,
               "Attribute name is a reserved keyword; reserved keyword: status");
  parse_fails ("a.Name = :b", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 3,
               "reserved keyword: Name");
  /* if_not_exists belongs to update expressions */
  parse_fails ("if_not_exists(a, :a) = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, V, 1,
               "Invalid function name; function: if_not_exists");
  /* UTF-8: columns count characters */
  parse_fails ("a = :a AND é = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 12,
               "unexpected character \"é\"");
  parse_fails ("a = :a AND \xff = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, S, 12,
               "not valid UTF-8");
}

static void
test_error_location (void)
{
  g_autoptr(GHashTable) values = common_values ();
  g_autoptr(GError) error = NULL;
  DynoParseLocation loc = { 0, 0, 0 };
  DynoExpr *expr;

  expr = dyno_expr_parse_condition ("🙂 = :a OR `日付` = :zz", DYNO_SYNTAX_INLINE,
                                    DYNO_EXPR_ROLE_CONDITION, NULL, values, NULL, &loc, &error);
  g_assert_null (expr);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_SYNTAX);
  g_assert_cmpuint (loc.column, ==, 1);
  g_assert_cmpuint (loc.offset, ==, 0);
  g_assert_cmpuint (loc.length, ==, 4);
  g_clear_error (&error);

  expr = dyno_expr_parse_condition ("`🙂` = :a OR `日付` = :zz", DYNO_SYNTAX_INLINE,
                                    DYNO_EXPR_ROLE_CONDITION, NULL, values, NULL, &loc, &error);
  g_assert_null (expr);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_cmpstr (error->message, ==,
                   "Invalid ConditionExpression: An expression attribute value used in "
                   "expression is not defined; attribute value: :zz (at column 20)");
  g_assert_cmpuint (loc.column, ==, 20);
  g_assert_cmpuint (loc.offset, ==, strlen ("`🙂` = :a OR `日付` = "));
  g_assert_cmpuint (loc.length, ==, 3);
}

static char **
read_reserved_words (void)
{
  g_autofree char *path = g_build_filename (TEST_SRCDIR, "..", "src", "core", "expr",
                                            "dynamodb-reserved-words.txt", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_strchomp (contents);
  return g_strsplit (contents, "\n", -1);
}

static void
test_reserved_words (void)
{
  g_auto(GStrv) words = read_reserved_words ();
  g_autoptr(GHashTable) values = common_values ();
  g_autoptr(GHashTable) names = names_new ("#w", "x", NULL);

  g_assert_cmpuint (g_strv_length (words), ==, 573);
  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autofree char *lower = g_ascii_strdown (words[i], -1);
      g_autofree char *mixed = g_strdup (lower);
      const char *forms[] = { words[i], lower, mixed };

      mixed[0] = g_ascii_toupper (mixed[0]);
      for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
        {
          g_autofree char *dynamo = g_strdup_printf ("%s = :a", forms[f]);
          g_autofree char *nested = g_strdup_printf ("#w.%s = :a", forms[f]);
          g_autofree char *message = g_strdup_printf ("reserved keyword: %s", forms[f]);
          g_autofree char *inline_text = g_strdup_printf ("%s = 1", forms[f]);
          g_autofree char *inline_nested = g_strdup_printf ("x.%s = 1", forms[f]);
          g_autoptr(GError) error = NULL;
          DynoExpr *expr;

          g_assert_true (dyno_is_reserved_word (forms[f]));
          g_assert_false (dyno_name_is_plain (forms[f]));
          /* NOT at the start is the operator, so that text is a syntax error instead */
          if (g_ascii_strcasecmp (forms[f], "NOT") == 0)
            parse_fails (dynamo, DYNO_SYNTAX_DYNAMODB, names, values, DYNO_ERROR_SYNTAX, 5,
                         "found \"=\"");
          else
            parse_fails (dynamo, DYNO_SYNTAX_DYNAMODB, names, values, DYNO_ERROR_VALIDATION, 1,
                         message);
          parse_fails (nested, DYNO_SYNTAX_DYNAMODB, names, values, DYNO_ERROR_VALIDATION, 4,
                       message);

          /* In the inline syntax, reserved words are names, except the five keywords and
           * the JSON literals. */
          if (dyno_is_reserved_word (forms[f]) &&
              (g_ascii_strcasecmp (forms[f], "AND") == 0 ||
               g_ascii_strcasecmp (forms[f], "OR") == 0 ||
               g_ascii_strcasecmp (forms[f], "NOT") == 0 ||
               g_ascii_strcasecmp (forms[f], "BETWEEN") == 0 ||
               g_ascii_strcasecmp (forms[f], "IN") == 0))
            {
              expr = dyno_expr_parse_condition (inline_text, DYNO_SYNTAX_INLINE,
                                                DYNO_EXPR_ROLE_FILTER, NULL, NULL, NULL, NULL,
                                                &error);
              g_assert_null (expr);
              g_assert_error (error, DYNO_ERROR, DYNO_ERROR_SYNTAX);
              g_clear_error (&error);
            }
          else if (strcmp (forms[f], "true") != 0 && strcmp (forms[f], "false") != 0 &&
                   strcmp (forms[f], "null") != 0)
            {
              expr = parse_ok (inline_text, DYNO_SYNTAX_INLINE, NULL, NULL);
              g_assert_cmpint (arg (expr, 0)->kind, ==, DYNO_EXPR_PATH);
              g_assert_cmpstr (path_name (arg (expr, 0), 0), ==, forms[f]);
              dyno_expr_free (expr);
            }
          /* After a dot any word is a name. */
          expr = parse_ok (inline_nested, DYNO_SYNTAX_INLINE, NULL, NULL);
          g_assert_cmpstr (path_name (arg (expr, 0), 1), ==, forms[f]);
          dyno_expr_free (expr);
        }
    }
  /* typos kept from the official list */
  g_assert_true (dyno_is_reserved_word ("flattern"));
  g_assert_true (dyno_is_reserved_word ("INNTER"));
  g_assert_true (dyno_is_reserved_word ("Loged"));
  g_assert_false (dyno_is_reserved_word ("pk"));
  g_assert_false (dyno_is_reserved_word ("FLATTEN"));
  g_assert_false (dyno_is_reserved_word (""));
  g_assert_false (dyno_is_reserved_word ("ABORTS"));
  g_assert_false (dyno_is_reserved_word ("AB"));
  g_assert_false (dyno_is_reserved_word ("ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ"));
  g_assert_true (dyno_name_is_plain ("pk"));
  g_assert_true (dyno_name_is_plain ("gsi1_pk"));
  g_assert_false (dyno_name_is_plain ("_x"));
  g_assert_false (dyno_name_is_plain ("1st"));
  g_assert_false (dyno_name_is_plain ("order-date"));
  g_assert_false (dyno_name_is_plain ("a.b"));
  g_assert_false (dyno_name_is_plain ("a b"));
  g_assert_false (dyno_name_is_plain ("ñame"));
  g_assert_false (dyno_name_is_plain (""));
  /* placeholders and function names are not checked */
  {
    g_autoptr(GHashTable) n2 = names_new ("#status", "status", NULL);
    g_autoptr(DynoExpr) e = parse_ok ("#status = :a AND contains(#status, :a)",
                                      DYNO_SYNTAX_DYNAMODB, n2, values);
    g_assert_cmpstr (path_name (arg (arg (e, 0), 0), 0), ==, "status");
  }
}

static void
test_placeholders (void)
{
  g_autoptr(GHashTable) names = names_new ("#a", "a.b", "#1star", "OneStar", "#unused", "u",
                                           NULL);
  g_autoptr(GHashTable) values = common_values ();
  g_autoptr(GHashTable) used = used_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoExpr) expr = NULL;

  expr = dyno_expr_parse_condition ("#a = :a AND #a.#1star[3] <> :b", DYNO_SYNTAX_DYNAMODB,
                                    DYNO_EXPR_ROLE_CONDITION, names, values, used, NULL, &error);
  g_assert_no_error (error);
  /* a dot inside a placeholder's value is part of the name */
  g_assert_cmpuint (dyno_path_get_length (arg (arg (expr, 0), 0)->path), ==, 1);
  g_assert_cmpstr (dyno_path_get_attribute (arg (arg (expr, 0), 0)->path), ==, "a.b");
  g_assert_cmpuint (dyno_path_get_length (arg (arg (expr, 1), 0)->path), ==, 3);
  g_assert_cmpstr (path_name (arg (arg (expr, 1), 0), 1), ==, "OneStar");
  g_assert_cmpuint (g_hash_table_size (used), ==, 4);
  g_assert_true (g_hash_table_contains (used, "#a"));
  g_assert_true (g_hash_table_contains (used, "#1star"));
  g_assert_true (g_hash_table_contains (used, ":a"));
  g_assert_true (g_hash_table_contains (used, ":b"));
  g_assert_false (g_hash_table_contains (used, "#unused"));
}

/* ---- inline syntax ---------------------------------------------------------------------- */

static void
test_inline_values (void)
{
  g_autoptr(GHashTable) values = values_new (":bin", "{\"B\":\"AQI=\"}", NULL);
  g_autoptr(DynoExpr) e1 = parse_ok ("status = \"open\" AND size = -1.5e3", DYNO_SYNTAX_INLINE,
                                     NULL, NULL);
  g_autoptr(DynoExpr) e2 = parse_ok ("`order-date` >= \"2026-06\\u00e9\\n\\\"q\\\"\"",
                                     DYNO_SYNTAX_INLINE, NULL, NULL);
  g_autoptr(DynoExpr) e3 = parse_ok ("`a.b` = true OR a.b = false OR c = null",
                                     DYNO_SYNTAX_INLINE, NULL, NULL);
  g_autoptr(DynoExpr) e4 = parse_ok ("data = :bin AND tags = :{\"SS\":[\"x\",\"}\"]}",
                                     DYNO_SYNTAX_INLINE, NULL, values);
  g_autoptr(DynoExpr) e5 = parse_ok ("size(name) > 3 AND `we``ird` = 0.10",
                                     DYNO_SYNTAX_INLINE, NULL, NULL);
  g_autoptr(DynoExpr) e6 = parse_ok ("\"SK\" BETWEEN \"a\" AND \"b\"", DYNO_SYNTAX_INLINE,
                                     NULL, NULL);
  g_autoptr(DynoExpr) e7 = parse_ok ("begins_with(sk, \"\\ud83d\\ude42\") AND ` `` ` = 1",
                                     DYNO_SYNTAX_INLINE, NULL, NULL);
  const DynoExpr *c;

  c = arg (e1, 0);
  g_assert_cmpstr (path_name (arg (c, 0), 0), ==, "status");
  g_assert_cmpint (dyno_value_get_kind (arg (c, 1)->value), ==, DYNO_VALUE_S);
  g_assert_cmpstr (dyno_value_get_string (arg (c, 1)->value, NULL), ==, "open");
  g_assert_null (arg (c, 1)->value_name);
  c = arg (e1, 1);
  g_assert_cmpstr (path_name (arg (c, 0), 0), ==, "size");
  g_assert_cmpint (dyno_value_get_kind (arg (c, 1)->value), ==, DYNO_VALUE_N);
  g_assert_cmpstr (dyno_value_get_string (arg (c, 1)->value, NULL), ==, "-1500");
  g_assert_cmpuint (arg (c, 1)->offset, ==, strlen ("status = \"open\" AND size = "));
  g_assert_cmpuint (arg (c, 1)->length, ==, 6);

  g_assert_cmpstr (path_name (arg (e2, 0), 0), ==, "order-date");
  g_assert_cmpstr (dyno_value_get_string (arg (e2, 1)->value, NULL), ==, "2026-06é\n\"q\"");

  c = arg (e3, 0);
  g_assert_cmpuint (dyno_path_get_length (arg (c, 0)->path), ==, 1);
  g_assert_cmpstr (path_name (arg (c, 0), 0), ==, "a.b");
  g_assert_true (dyno_value_get_bool (arg (c, 1)->value));
  c = arg (arg (e3, 1), 0);
  g_assert_cmpuint (dyno_path_get_length (arg (c, 0)->path), ==, 2);
  g_assert_false (dyno_value_get_bool (arg (c, 1)->value));
  c = arg (arg (e3, 1), 1);
  g_assert_cmpint (dyno_value_get_kind (arg (c, 1)->value), ==, DYNO_VALUE_NULL);

  c = arg (e4, 0);
  g_assert_cmpint (dyno_value_get_kind (arg (c, 1)->value), ==, DYNO_VALUE_B);
  g_assert_cmpstr (arg (c, 1)->value_name, ==, ":bin");
  c = arg (e4, 1);
  g_assert_cmpint (dyno_value_get_kind (arg (c, 1)->value), ==, DYNO_VALUE_SS);
  g_assert_cmpuint (dyno_value_get_n_children (arg (c, 1)->value), ==, 2);

  c = arg (e5, 0);
  g_assert_cmpint (arg (c, 0)->kind, ==, DYNO_EXPR_SIZE);
  g_assert_cmpstr (path_name (arg (c, 0), 0), ==, "name");
  c = arg (e5, 1);
  g_assert_cmpstr (path_name (arg (c, 0), 0), ==, "we`ird");
  g_assert_cmpstr (dyno_value_get_string (arg (c, 1)->value, NULL), ==, "0.1");

  g_assert_cmpint (e6->kind, ==, DYNO_EXPR_BETWEEN);
  g_assert_cmpint (arg (e6, 0)->kind, ==, DYNO_EXPR_VALUE);

  c = arg (e7, 0);
  g_assert_cmpstr (dyno_value_get_string (arg (c, 1)->value, NULL), ==, "🙂");
  c = arg (e7, 1);
  g_assert_cmpstr (path_name (arg (c, 0), 0), ==, " ` ");
}

static void
test_inline_errors (void)
{
  const int S = DYNO_ERROR_SYNTAX;
  const int V = DYNO_ERROR_VALIDATION;

  parse_fails ("a = ", DYNO_SYNTAX_INLINE, NULL, NULL, S, 5,
               "expected a value after \"=\", found end of input");
  parse_fails ("order-date = 1", DYNO_SYNTAX_INLINE, NULL, NULL, S, 6,
               "expected a comparison (=, <>, <, <=, >, >=), BETWEEN or IN after \"order\"");
  parse_fails ("1st = 1", DYNO_SYNTAX_INLINE, NULL, NULL, S, 1, "write a name that starts with a "
               "digit in backticks: `1st`");
  parse_fails ("a = \"abc", DYNO_SYNTAX_INLINE, NULL, NULL, S, 5, "not closed with \"");
  parse_fails ("a = \"a\\qb\"", DYNO_SYNTAX_INLINE, NULL, NULL, S, 7, "unknown escape");
  parse_fails ("a = \"\\u12\"", DYNO_SYNTAX_INLINE, NULL, NULL, S, 6, "four hexadecimal digits");
  parse_fails ("a = \"\\ud800\"", DYNO_SYNTAX_INLINE, NULL, NULL, S, 6, "low surrogate");
  parse_fails ("a = \"x\ty\"", DYNO_SYNTAX_INLINE, NULL, NULL, S, 7, "control character");
  parse_fails ("`abc = 1", DYNO_SYNTAX_INLINE, NULL, NULL, S, 1, "not closed with `");
  parse_fails ("`` = 1", DYNO_SYNTAX_INLINE, NULL, NULL, S, 1, "cannot be empty");
  parse_fails ("AND = 1", DYNO_SYNTAX_INLINE, NULL, NULL, S, 1, "`AND`");
  parse_fails ("a = 1 AND between = 2", DYNO_SYNTAX_INLINE, NULL, NULL, S, 11, "`between`");
  parse_fails ("a = 1e999", DYNO_SYNTAX_INLINE, NULL, NULL, S, 5, "overflow");
  parse_fails ("a = 123456789012345678901234567890123456789", DYNO_SYNTAX_INLINE, NULL, NULL,
               S, 5, "38");
  parse_fails ("a = - 1", DYNO_SYNTAX_INLINE, NULL, NULL, S, 5, "followed directly by a number");
  parse_fails ("a = :x", DYNO_SYNTAX_INLINE, NULL, NULL, V, 5, "attribute value: :x");
  parse_fails ("#a = 1", DYNO_SYNTAX_INLINE, NULL, NULL, S, 1, "#name placeholders");
  parse_fails ("a = :{\"S\":1}", DYNO_SYNTAX_INLINE, NULL, NULL, S, 5, "DynamoDB JSON");
  parse_fails ("a = :{\"S\":\"x\"", DYNO_SYNTAX_INLINE, NULL, NULL, S, 5, "not closed");
  parse_fails ("a = 1 OR ñ = 2", DYNO_SYNTAX_INLINE, NULL, NULL, S, 10, "in backticks");
  parse_fails ("size(a) = 1 AND size(b)", DYNO_SYNTAX_INLINE, NULL, NULL, V, 17,
               "function: size");
}

static void
test_nesting_limit (void)
{
  GString *deep = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  DynoExpr *expr;

  for (int i = 0; i < 5000; i++)
    g_string_append (deep, "NOT (");
  g_string_append (deep, "a = 1");
  for (int i = 0; i < 5000; i++)
    g_string_append_c (deep, ')');
  expr = dyno_expr_parse_condition (deep->str, DYNO_SYNTAX_INLINE, DYNO_EXPR_ROLE_FILTER, NULL,
                                    NULL, NULL, NULL, &error);
  g_assert_null (expr);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_nonnull (strstr (error->message, "NOT and parentheses more than 1000 levels deep"));
  g_assert_nonnull (strstr (error->message, "at most 300 operators and functions"));
  g_assert_nonnull (strstr (error->message, "4096 bytes"));
  g_clear_error (&error);

  g_string_truncate (deep, 0);
  for (int i = 0; i < 20000; i++)
    g_string_append (deep, "a = 1 AND ");
  g_string_append (deep, "b = 2");
  expr = dyno_expr_parse_condition (deep->str, DYNO_SYNTAX_INLINE, DYNO_EXPR_ROLE_FILTER, NULL,
                                    NULL, NULL, NULL, &error);
  g_assert_null (expr);
  /* a long chain is not "nested too deeply": it is over DynamoDB's operator and size limits,
   * and the message says so */
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_nonnull (strstr (error->message, "Invalid FilterExpression: more than 1000 "
                                            "conditions are joined with AND or OR"));
  g_assert_nonnull (strstr (error->message, "at most 300 operators and functions"));
  g_assert_nonnull (strstr (error->message, "4096 bytes of text"));
  g_assert_null (strstr (error->message, "nested"));
  g_clear_error (&error);

  g_string_truncate (deep, 0);
  for (int i = 0; i < 2000; i++)
    g_string_append (deep, "a = 1 OR ");
  g_string_append (deep, "b = 2");
  expr = dyno_expr_parse_condition (deep->str, DYNO_SYNTAX_INLINE, DYNO_EXPR_ROLE_FILTER, NULL,
                                    NULL, NULL, NULL, &error);
  g_assert_null (expr);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_nonnull (strstr (error->message, "joined with AND or OR"));
  g_clear_error (&error);

  /* a long but reasonable chain is fine */
  g_string_truncate (deep, 0);
  for (int i = 0; i < 300; i++)
    g_string_append (deep, "a = 1 OR ");
  g_string_append (deep, "(b = 2)");
  expr = parse_ok (deep->str, DYNO_SYNTAX_INLINE, NULL, NULL);
  dyno_expr_free (expr);
  g_string_free (deep, TRUE);
}

/* ---- projections and updates ------------------------------------------------------------ */

static void
test_projection (void)
{
  g_autoptr(GHashTable) names = names_new ("#s", "status", "#d", "order-date", NULL);
  g_autoptr(GHashTable) used = used_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) p1 = NULL;
  g_autoptr(GPtrArray) p2 = NULL;
  DynoParseLocation loc = { 0, 0, 0 };
  GPtrArray *bad;

  p1 = dyno_expr_parse_projection ("pk, #s, a.b[0].#d, lst[12]", DYNO_SYNTAX_DYNAMODB, names,
                                   used, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p1->len, ==, 4);
  g_assert_cmpstr (dyno_path_get_attribute (g_ptr_array_index (p1, 1)), ==, "status");
  g_assert_cmpuint (dyno_path_get_length (g_ptr_array_index (p1, 2)), ==, 4);
  g_assert_cmpuint (g_hash_table_size (used), ==, 2);

  p2 = dyno_expr_parse_projection ("pk, status, a.b[0].`order-date`, lst[12]",
                                   DYNO_SYNTAX_INLINE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_projection_equal (p1, p2));

  bad = dyno_expr_parse_projection ("a, status", DYNO_SYNTAX_DYNAMODB, NULL, NULL, &loc,
                                    &error);
  g_assert_null (bad);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_cmpstr (error->message, ==, "Invalid ProjectionExpression: Attribute name is a "
                   "reserved keyword; reserved keyword: status (at column 4)");
  g_clear_error (&error);

  bad = dyno_expr_parse_projection ("a,", DYNO_SYNTAX_DYNAMODB, NULL, NULL, &loc, &error);
  g_assert_null (bad);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_SYNTAX);
  g_assert_cmpuint (loc.column, ==, 3);
  g_clear_error (&error);

  bad = dyno_expr_parse_projection ("a b", DYNO_SYNTAX_DYNAMODB, NULL, NULL, &loc, &error);
  g_assert_null (bad);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==, "Syntax error at column 3: expected \",\" or the end of "
                   "the projection, found \"b\"");
  g_clear_error (&error);

  bad = dyno_expr_parse_projection ("", DYNO_SYNTAX_INLINE, NULL, NULL, &loc, &error);
  g_assert_null (bad);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_clear_error (&error);
}

static void
test_update (void)
{
  g_autoptr(GHashTable) names = names_new ("#c", "count", NULL);
  g_autoptr(GHashTable) values = values_new (":one", "{\"N\":\"1\"}", ":l", "{\"L\":[]}",
                                             ":ss", "{\"SS\":[\"x\"]}", ":s", "{\"S\":\"v\"}",
                                             NULL);
  g_autoptr(GHashTable) used = used_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoUpdate) u1 = NULL;
  g_autoptr(DynoUpdate) u2 = NULL;
  const DynoUpdateClause *clause;

  u1 = dyno_expr_parse_update ("remove a[2], b.c  set #c = #c + :one, "
                               "l = list_append(if_not_exists(l, :l), :l), "
                               "d = :s, e = f - :one add n :one DELETE tags :ss",
                               DYNO_SYNTAX_DYNAMODB, names, values, used, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (u1->clauses->len, ==, 8);
  clause = g_ptr_array_index (u1->clauses, 0);
  g_assert_cmpint (clause->action, ==, DYNO_UPDATE_REMOVE);
  g_assert_null (clause->operand);
  g_assert_cmpuint (dyno_path_get_length (clause->path), ==, 2);
  clause = g_ptr_array_index (u1->clauses, 2);
  g_assert_cmpint (clause->action, ==, DYNO_UPDATE_SET);
  g_assert_cmpstr (dyno_path_get_attribute (clause->path), ==, "count");
  g_assert_cmpint (clause->operand->kind, ==, DYNO_EXPR_PLUS);
  clause = g_ptr_array_index (u1->clauses, 3);
  g_assert_cmpint (clause->operand->kind, ==, DYNO_EXPR_LIST_APPEND);
  g_assert_cmpint (arg (clause->operand, 0)->kind, ==, DYNO_EXPR_IF_NOT_EXISTS);
  clause = g_ptr_array_index (u1->clauses, 5);
  g_assert_cmpint (clause->operand->kind, ==, DYNO_EXPR_MINUS);
  clause = g_ptr_array_index (u1->clauses, 6);
  g_assert_cmpint (clause->action, ==, DYNO_UPDATE_ADD);
  g_assert_cmpint (clause->operand->kind, ==, DYNO_EXPR_VALUE);
  clause = g_ptr_array_index (u1->clauses, 7);
  g_assert_cmpint (clause->action, ==, DYNO_UPDATE_DELETE);
  g_assert_cmpuint (g_hash_table_size (used), ==, 5);

  u2 = dyno_expr_parse_update ("REMOVE a[2], b.c SET count = count + 1, "
                               "l = list_append(if_not_exists(l, :{\"L\":[]}), :{\"L\":[]}), "
                               "d = \"v\", e = f - 1 ADD n 1 DELETE tags :ss",
                               DYNO_SYNTAX_INLINE, NULL, values, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_update_equal (u1, u2));

  {
    /* negative literals next to the minus operator */
    g_autoptr(DynoUpdate) u3 = dyno_expr_parse_update ("SET a = b - -1, c = -2", DYNO_SYNTAX_INLINE,
                                                       NULL, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    clause = g_ptr_array_index (u3->clauses, 0);
    g_assert_cmpint (clause->operand->kind, ==, DYNO_EXPR_MINUS);
    g_assert_cmpstr (dyno_value_get_string (arg (clause->operand, 1)->value, NULL), ==, "-1");
  }
  {
    /* clause keywords are names where a name is expected (inline) */
    g_autoptr(DynoUpdate) u4 = dyno_expr_parse_update ("SET set = remove REMOVE add",
                                                       DYNO_SYNTAX_INLINE, NULL, NULL, NULL,
                                                       NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (u4->clauses->len, ==, 2);
    clause = g_ptr_array_index (u4->clauses, 1);
    g_assert_cmpstr (dyno_path_get_attribute (clause->path), ==, "add");
  }
}

static void
update_fails (const char *text,
              DynoSyntax  syntax,
              GHashTable *values,
              int         code,
              guint       column,
              const char *part)
{
  g_autoptr(GError) error = NULL;
  DynoParseLocation loc = { 0, 0, 0 };
  DynoUpdate *update = dyno_expr_parse_update (text, syntax, NULL, values, NULL, &loc, &error);

  g_assert_null (update);
  g_assert_error (error, DYNO_ERROR, code);
  if (strstr (error->message, part) == NULL)
    g_error ("parsing [%s]: message [%s] lacks [%s]", text, error->message, part);
  g_assert_cmpuint (loc.column, ==, column);
}

static void
test_update_errors (void)
{
  g_autoptr(GHashTable) values = values_new (":v", "{\"N\":\"1\"}", NULL);
  const int S = DYNO_ERROR_SYNTAX;
  const int V = DYNO_ERROR_VALIDATION;

  update_fails ("", DYNO_SYNTAX_DYNAMODB, values, V, 1, "can not be empty");
  update_fails ("a = :v", DYNO_SYNTAX_DYNAMODB, values, S, 1,
                "expected SET, REMOVE, ADD or DELETE, found \"a\"");
  update_fails ("SET a = :v SET b = :v", DYNO_SYNTAX_DYNAMODB, values, V, 12,
                "The \"SET\" section can only be used once in an update expression;");
  update_fails ("SET a :v", DYNO_SYNTAX_DYNAMODB, values, S, 7, "expected \"=\"");
  update_fails ("SET a = :v b = :v", DYNO_SYNTAX_DYNAMODB, values, S, 12,
                "expected \",\" or the next clause");
  update_fails ("SET a = :v,", DYNO_SYNTAX_DYNAMODB, values, S, 12, "attribute name after SET");
  update_fails ("ADD a b", DYNO_SYNTAX_DYNAMODB, values, S, 7, "a value after the attribute name");
  update_fails ("ADD a 1", DYNO_SYNTAX_DYNAMODB, values, S, 7, "literal values");
  update_fails ("SET a = foo(a)", DYNO_SYNTAX_DYNAMODB, values, V, 9,
                "Invalid function name; function: foo");
  update_fails ("SET a = if_not_exists(:v, :v)", DYNO_SYNTAX_DYNAMODB, values, V, 23,
                "requires a document path");
  update_fails ("SET a = list_append(:v)", DYNO_SYNTAX_DYNAMODB, values, V, 9,
                "function: list_append, number of operands: 1");
  update_fails ("SET a = list_append(:v, :v, :v)", DYNO_SYNTAX_DYNAMODB, values, V, 9,
                "number of operands: 3");
  update_fails ("SET a = :v + ", DYNO_SYNTAX_DYNAMODB, values, S, 14, "an operand after \"+\"");
  update_fails ("REMOVE status", DYNO_SYNTAX_DYNAMODB, values, V, 8, "reserved keyword: status");
  update_fails ("SET a = size(b)", DYNO_SYNTAX_DYNAMODB, values, V, 9,
                "The function is not allowed in an update expression; function: size");
  update_fails ("SET a = attribute_exists(b)", DYNO_SYNTAX_DYNAMODB, values, V, 9,
                "not allowed in an update expression; function: attribute_exists");
  update_fails ("SET a = nosuch(b)", DYNO_SYNTAX_DYNAMODB, values, V, 9,
                "Invalid function name; function: nosuch");
  update_fails ("DELETE s", DYNO_SYNTAX_INLINE, values, S, 9, "a value after the attribute name");
}

/* ---- AST helpers ------------------------------------------------------------------------ */

static void
test_paths (void)
{
  g_autoptr(DynoPath) path = dyno_path_new ("a");
  g_autoptr(DynoPath) copy = NULL;
  g_autoptr(DynoPath) parsed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *display = NULL;
  g_autofree char *text = NULL;

  dyno_path_append_name (path, "b c");
  dyno_path_append_index (path, 0);
  dyno_path_append_name (path, "AND");
  g_assert_cmpuint (dyno_path_get_length (path), ==, 4);
  g_assert_cmpstr (dyno_path_get_attribute (path), ==, "a");
  display = dyno_path_to_display (path);
  g_assert_cmpstr (display, ==, "[a, b c, [0], AND]");
  text = dyno_path_to_inline (path);
  g_assert_cmpstr (text, ==, "a.`b c`[0].`AND`");
  parsed = dyno_path_parse_inline (text, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_path_equal (path, parsed));
  copy = dyno_path_copy (path);
  g_assert_true (dyno_path_equal (path, copy));
  dyno_path_append_index (copy, 1);
  g_assert_false (dyno_path_equal (path, copy));

  g_assert_null (dyno_path_parse_inline ("a b", &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_SYNTAX);
  g_clear_error (&error);
  g_assert_null (dyno_path_parse_inline ("", &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_SYNTAX);
  g_clear_error (&error);
  g_assert_null (dyno_path_parse_inline ("a[", &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_SYNTAX);
}

static void
test_copy_equal (void)
{
  g_autoptr(GHashTable) values = common_values ();
  g_autoptr(GHashTable) values2 = values_new (":a", "{\"S\":\"a\"}", ":b", "{\"S\":\"B\"}",
                                              ":c", "{\"N\":\"3\"}", NULL);
  const char *text = "(a = :a OR b IN (:a, :b)) AND NOT begins_with(c, :b) AND size(d) "
                     "BETWEEN :c AND :c";
  g_autoptr(DynoExpr) e1 = parse_ok (text, DYNO_SYNTAX_DYNAMODB, NULL, values);
  g_autoptr(DynoExpr) e2 = dyno_expr_copy (e1);
  g_autoptr(DynoExpr) e3 = parse_ok (text, DYNO_SYNTAX_DYNAMODB, NULL, values2);
  g_autoptr(DynoExpr) e4 = parse_ok ("a = :a OR b IN (:a, :b) AND NOT begins_with(c, :b) AND "
                                     "size(d) BETWEEN :c AND :c", DYNO_SYNTAX_DYNAMODB, NULL,
                                     values);
  g_autoptr(DynoExpr) e5 = parse_ok ("((a = :a OR b IN (:a, :b))) AND (NOT begins_with(c, :b) "
                                     "AND size(d) BETWEEN :c AND :c)", DYNO_SYNTAX_INLINE, NULL,
                                     values);

  g_assert_true (dyno_expr_equal (e1, e2));
  g_assert_cmpuint (e2->offset, ==, e1->offset);
  g_assert_cmpuint (e2->length, ==, e1->length);
  g_assert_false (dyno_expr_equal (e1, e3));   /* a different value */
  g_assert_false (dyno_expr_equal (e1, e4));   /* a different structure */
  g_assert_true (dyno_expr_equal (e1, e5));    /* parentheses are ignored */

  {
    g_autoptr(DynoExpr) built = NULL;
    GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_expr_free);

    g_ptr_array_add (list, dyno_expr_new_value (dyno_value_new_string ("a", -1)));
    built = dyno_expr_new_and (
      dyno_expr_new_compare (DYNO_COMPARE_EQ, dyno_expr_new_path (dyno_path_new ("a")),
                             dyno_expr_new_value (dyno_value_new_string ("a", -1))),
      dyno_expr_new_function (DYNO_FUNCTION_ATTRIBUTE_EXISTS,
                              dyno_expr_new_path (dyno_path_new ("b")), NULL));
    g_assert_true (dyno_expr_equal (built, built));
    {
      g_autoptr(DynoExpr) in = dyno_expr_new_in (dyno_expr_new_path (dyno_path_new ("x")), list);
      g_autoptr(DynoExpr) in_copy = dyno_expr_copy (in);

      g_assert_cmpuint (in->args->len, ==, 2);
      g_assert_true (dyno_expr_equal (in, in_copy));
      g_assert_false (dyno_expr_equal (in, built));
    }
  }
  g_assert_cmpstr (dyno_expr_role_to_field (DYNO_EXPR_ROLE_KEY_CONDITION), ==,
                   "KeyConditionExpression");
  g_assert_cmpstr (dyno_function_to_string (DYNO_FUNCTION_BEGINS_WITH), ==, "begins_with");
}

static void
test_paren_operands (void)
{
  g_autoptr(GHashTable) values = common_values ();
  g_autoptr(DynoExpr) e1 = parse_ok ("(a) = :a", DYNO_SYNTAX_DYNAMODB, NULL, values);
  g_autoptr(DynoExpr) e2 = parse_ok ("(a = :a) AND (b) IN ((:a), :b) AND c BETWEEN (:a) AND :b",
                                     DYNO_SYNTAX_DYNAMODB, NULL, values);
  g_autoptr(DynoExpr) e3 = parse_ok ("begins_with((a.b), (:a)) OR (size(x)) > 3",
                                     DYNO_SYNTAX_INLINE, NULL, values);
  g_autoptr(DynoExpr) plain = parse_ok ("a = :a", DYNO_SYNTAX_DYNAMODB, NULL, values);

  g_assert_cmpint (e1->kind, ==, DYNO_EXPR_COMPARE);
  g_assert_cmpint (arg (e1, 0)->kind, ==, DYNO_EXPR_PATH);
  g_assert_cmpuint (arg (e1, 0)->offset, ==, 1);
  g_assert_true (dyno_expr_equal (e1, plain));
  g_assert_cmpint (arg (e2, 0)->kind, ==, DYNO_EXPR_PAREN);
  g_assert_cmpint (arg (arg (e2, 1), 0)->kind, ==, DYNO_EXPR_IN);
  g_assert_cmpint (arg (arg (e2, 1), 1)->kind, ==, DYNO_EXPR_BETWEEN);
  g_assert_cmpint (arg (e3, 0)->kind, ==, DYNO_EXPR_FUNCTION);
  g_assert_cmpint (arg (arg (e3, 1), 0)->kind, ==, DYNO_EXPR_SIZE);

  parse_fails ("((a)) = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, DYNO_ERROR_VALIDATION, 1,
               "The expression has redundant parentheses;");
  parse_fails ("(a = :a) = :b", DYNO_SYNTAX_DYNAMODB, NULL, values, DYNO_ERROR_SYNTAX, 4,
               "expected \")\" to close the \"(\" at column 1, found \"=\"");
  parse_fails ("(a) AND b = :a", DYNO_SYNTAX_DYNAMODB, NULL, values, DYNO_ERROR_SYNTAX, 3,
               "found \")\"");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/expr-parse/dynamodb/simple", test_simple_compare);
  g_test_add_func ("/expr-parse/dynamodb/comparators", test_comparators);
  g_test_add_func ("/expr-parse/dynamodb/precedence", test_precedence);
  g_test_add_func ("/expr-parse/dynamodb/between-in-functions", test_between_in_functions);
  g_test_add_func ("/expr-parse/dynamodb/errors", test_dynamodb_errors);
  g_test_add_func ("/expr-parse/dynamodb/placeholders", test_placeholders);
  g_test_add_func ("/expr-parse/paren-operands", test_paren_operands);
  g_test_add_func ("/expr-parse/reserved-words", test_reserved_words);
  g_test_add_func ("/expr-parse/error-location", test_error_location);
  g_test_add_func ("/expr-parse/inline/values", test_inline_values);
  g_test_add_func ("/expr-parse/inline/errors", test_inline_errors);
  g_test_add_func ("/expr-parse/nesting-limit", test_nesting_limit);
  g_test_add_func ("/expr-parse/projection", test_projection);
  g_test_add_func ("/expr-parse/update", test_update);
  g_test_add_func ("/expr-parse/update-errors", test_update_errors);
  g_test_add_func ("/expr-parse/paths", test_paths);
  g_test_add_func ("/expr-parse/copy-equal", test_copy_equal);

  return g_test_run ();
}
