/* test-partiql.c: the PartiQL parser (dyno-partiql.h), good statements and bad ones
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-json.h"
#include "dyno-partiql.h"

/* NULL-terminated DynamoDB JSON values */
static GPtrArray *
params_new (const char *first, ...)
{
  GPtrArray *params = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_value_free);
  va_list ap;

  va_start (ap, first);
  for (const char *json = first; json != NULL; json = va_arg (ap, const char *))
    {
      g_autoptr(GError) error = NULL;
      DynoValue *value = dyno_value_from_ddb_json (json, -1, &error);

      g_assert_no_error (error);
      g_ptr_array_add (params, value);
    }
  va_end (ap);
  return params;
}

static DynoPartiqlStatement *
parse_ok (const char *text,
          GPtrArray  *params)
{
  g_autoptr(GError) error = NULL;
  DynoPartiqlStatement *st = dyno_partiql_parse (text, params, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (st);
  return st;
}

static void
assert_where (const DynoPartiqlStatement *st,
              const char                 *expected)
{
  g_autofree char *text = st->where ? dyno_expr_to_inline (st->where) : NULL;

  g_assert_cmpstr (text, ==, expected);
}

static void
assert_error (const char    *text,
              GPtrArray     *params,
              DynoErrorCode  code,
              const char    *message,
              guint          column)
{
  g_autoptr(GError) error = NULL;
  DynoParseLocation loc = { 0 };
  DynoPartiqlStatement *st = dyno_partiql_parse (text, params, &loc, &error);

  g_assert_null (st);
  g_assert_error (error, DYNO_ERROR, (gint) code);
  g_assert_cmpstr (error->message, ==, message);
  if (column > 0)
    {
      guint line, col;

      g_assert_cmpuint (loc.column, ==, column);
      g_assert_true (dyno_error_get_location (error, &line, &col));
      g_assert_cmpuint (col, ==, column);
    }
}

/* ---- SELECT ------------------------------------------------------------------------------ */

static void
test_select (void)
{
  g_autoptr(DynoPartiqlStatement) all = parse_ok ("SELECT * FROM \"Music\"", NULL);
  g_autoptr(DynoPartiqlStatement) some = NULL;
  g_autoptr(DynoPartiqlStatement) index = NULL;
  g_autofree char *projection = NULL;

  g_assert_cmpint (all->kind, ==, DYNO_PARTIQL_SELECT);
  g_assert_cmpstr (all->table, ==, "Music");
  g_assert_null (all->index);
  g_assert_null (all->projection);
  g_assert_null (all->where);

  some = parse_ok ("select a, b.c, d[0], \"odd name\" FROM Music where pk = 'x' "
                   "AND sk >= 10 order by sk DESC", NULL);
  g_assert_cmpstr (some->table, ==, "Music");
  projection = dyno_projection_to_inline (some->projection);
  g_assert_cmpstr (projection, ==, "a, b.c, d[0], `odd name`");
  assert_where (some, "pk = \"x\" AND sk >= 10");
  g_assert_cmpstr (some->order_by, ==, "sk");
  g_assert_true (some->descending);

  index = parse_ok ("SELECT * FROM \"Music\".\"by-artist\" WHERE artist = 'A' ORDER BY year ASC",
                    NULL);
  g_assert_cmpstr (index->table, ==, "Music");
  g_assert_cmpstr (index->index, ==, "by-artist");
  g_assert_cmpstr (index->order_by, ==, "year");
  g_assert_false (index->descending);
}

static void
test_conditions (void)
{
  static const struct {
    const char *where;
    const char *inline_text;
  } cases[] = {
    { "a = 1 AND b <> 'x' OR NOT c < 2", "a = 1 AND b <> \"x\" OR NOT c < 2" },
    { "(a = 1 OR b = 2) AND c = 3", "(a = 1 OR b = 2) AND c = 3" },
    { "a <= 1.5e3 and b > -2 and c != 0", "a <= 1500 AND b > -2 AND c <> 0" },
    { "n BETWEEN 1 AND 5", "n BETWEEN 1 AND 5" },
    { "n NOT BETWEEN 1 AND 5", "NOT n BETWEEN 1 AND 5" },
    { "pk IN ['a', 'b']", "pk IN (\"a\", \"b\")" },
    { "pk IN ('a', 'b')", "pk IN (\"a\", \"b\")" },
    { "begins_with(sk, 'ab') AND contains(\"tags\", 'x')",
      "begins_with(sk, \"ab\") AND contains(tags, \"x\")" },
    { "attribute_exists(a) OR attribute_not_exists(b.c)",
      "attribute_exists(a) OR attribute_not_exists(b.c)" },
    { "a IS MISSING AND b IS NOT MISSING",
      "attribute_not_exists(a) AND attribute_exists(b)" },
    { "size(l) > 2", "size(l) > 2" },
    { "m.x[1] = true AND z = null", "m.x[1] = true AND z = null" },
    { "s = 'it''s'", "s = \"it's\"" },
    { "BEGINS_WITH(sk, 'x')", "begins_with(sk, \"x\")" },
    { "a IS NULL OR b IS NOT STRING",
      "attribute_type(a, \"NULL\") OR NOT attribute_type(b, \"S\")" },
    { "a IS numeric AND b IS bool AND c IS blob AND d IS struct AND e IS list",
      "attribute_type(a, \"N\") AND attribute_type(b, \"BOOL\") AND attribute_type(c, \"B\") "
      "AND attribute_type(d, \"M\") AND attribute_type(e, \"L\")" },
    { "pk = 'a';", "pk = \"a\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("SELECT * FROM t WHERE %s", cases[i].where);
      g_autoptr(DynoPartiqlStatement) st = parse_ok (text, NULL);

      assert_where (st, cases[i].inline_text);
    }
}

static void
test_parameters (void)
{
  g_autoptr(GPtrArray) params = params_new ("{\"S\":\"a\"}", "{\"N\":\"3\"}", NULL);
  g_autoptr(DynoPartiqlStatement) st =
    parse_ok ("SELECT * FROM t WHERE pk = ? AND sk > ?", params);
  g_autoptr(GPtrArray) one = params_new ("{\"S\":\"a\"}", NULL);

  g_assert_cmpuint (st->n_parameters, ==, 2);
  assert_where (st, "pk = \"a\" AND sk > 3");

  assert_error ("SELECT * FROM t WHERE pk = ? AND sk > ?", one, DYNO_ERROR_VALIDATION,
                "Number of parameters in request and statement don't match.", 0);
  g_clear_pointer (&st, dyno_partiql_statement_free);
  st = parse_ok ("SELECT * FROM t WHERE pk = 'a'", one);  /* more are left unused */
  g_assert_cmpuint (st->n_parameters, ==, 0);
}

/* ---- INSERT, UPDATE, DELETE -------------------------------------------------------------- */

static void
test_insert (void)
{
  g_autoptr(GPtrArray) params = params_new ("{\"B\":\"AQI=\"}", NULL);
  g_autoptr(DynoPartiqlStatement) st =
    parse_ok ("INSERT INTO \"T\" VALUE {'pk': 'a', 'n': 1, 'l': [1, 'x'], 's': <<'a','b'>>, "
              "'ns': <<1, 2>>, 'm': {'x': true}, 'z': null, 'b': ?, 'e': []}", params);
  g_autoptr(DynoItem) item = NULL;
  g_autofree char *json = NULL;
  g_autoptr(DynoValue) expected = dyno_value_from_ddb_json (
    "{\"M\":{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"1\"},"
    "\"l\":{\"L\":[{\"N\":\"1\"},{\"S\":\"x\"}]},\"s\":{\"SS\":[\"a\",\"b\"]},"
    "\"ns\":{\"NS\":[\"1\",\"2\"]},\"m\":{\"M\":{\"x\":{\"BOOL\":true}}},"
    "\"z\":{\"NULL\":true},\"b\":{\"B\":\"AQI=\"},\"e\":{\"L\":[]}}}", -1, NULL);

  g_assert_cmpint (st->kind, ==, DYNO_PARTIQL_INSERT);
  g_assert_cmpstr (st->table, ==, "T");
  g_assert_nonnull (expected);
  g_assert_true (dyno_value_equal (st->item, expected));
}

static void
test_update (void)
{
  g_autoptr(GPtrArray) params = params_new ("{\"S\":\"v\"}", NULL);
  g_autoptr(DynoPartiqlStatement) st =
    parse_ok ("UPDATE \"T\" SET a = 1, b.c = ? REMOVE d SET n = n + 1, "
              "l = list_append(l, [2]), s = set_add(s, <<'q'>>), k = if_not_exists(k, 0) "
              "WHERE pk = 'x' AND sk = 1 RETURNING ALL NEW *", params);
  g_autoptr(DynoPartiqlStatement) plain = NULL;
  g_autofree char *update = NULL;

  g_assert_cmpint (st->kind, ==, DYNO_PARTIQL_UPDATE);
  update = dyno_update_to_inline (st->update);
  g_assert_cmpstr (update, ==, "SET a = 1, b.c = \"v\", n = n + 1, l = list_append(l, "
                               ":{\"L\":[{\"N\":\"2\"}]}), k = if_not_exists(k, 0) REMOVE d "
                               "ADD s :{\"SS\":[\"q\"]}");
  assert_where (st, "pk = \"x\" AND sk = 1");
  g_assert_cmpstr (st->returning, ==, "ALL_NEW");

  plain = parse_ok ("update T remove a, b[2] where pk = 'x' returning modified old *", NULL);
  g_assert_cmpstr (plain->returning, ==, "UPDATED_OLD");
  g_assert_cmpuint (plain->update->clauses->len, ==, 2);
}

static void
test_delete (void)
{
  g_autoptr(DynoPartiqlStatement) st =
    parse_ok ("DELETE FROM \"T\" WHERE pk = 'x' AND sk = 1 AND n > 2", NULL);

  g_assert_cmpint (st->kind, ==, DYNO_PARTIQL_DELETE);
  g_assert_cmpstr (st->table, ==, "T");
  assert_where (st, "pk = \"x\" AND sk = 1 AND n > 2");
  g_assert_null (st->returning);
}

/* What core's PartiQL code generation writes (test-codegen.c) reads back. */
static void
test_codegen_statements (void)
{
  static const char * const statements[] = {
    "SELECT * FROM \"file-tree\" WHERE \"PK\" = 'DRIVE#a91' "
    "AND begins_with(\"SK\", 'root/photos/')",
    "UPDATE \"tenant\" SET \"count\" = \"count\" + 1 "
    "SET \"lineItems\" = list_append(\"lineItems\", "
    "[{'sku': 'X'}]) REMOVE \"obsolete\" WHERE \"pk\" = 'TENANT#acme' AND \"sk\" = "
    "'INVOICE#2026-0014' AND \"pk\" IS NOT MISSING AND \"version\" = 7 RETURNING ALL NEW *",
    "SELECT * FROM \"t\" WHERE \"pk\" = 'it''s' AND \"sk\" > 'b' "
    "AND (NOT (\"x\" IS NOT MISSING) OR "
    "\"a\" IN [<<'x'>>, {'k': [true, null]}]) ORDER BY \"sk\" DESC",
    "SELECT \"pk\", \"status\", \"name\" FROM \"tenant\".\"gsi1\" "
    "WHERE \"gsi1pk\" = 'STATUS#open' AND "
    "\"status\" = 'open' AND (\"amount\" > -12.5 OR \"name\" IS NOT MISSING) "
    "AND size(\"name\") < 40",
    "INSERT INTO \"t\" VALUE {'pk': 'a', 'n': <<1, 2>>}",
    "DELETE FROM \"t\" WHERE \"pk\" = 'a' RETURNING ALL OLD *",
  };

  for (guint i = 0; i < G_N_ELEMENTS (statements); i++)
    {
      g_autoptr(DynoPartiqlStatement) st = parse_ok (statements[i], NULL);

      g_assert_nonnull (st->table);
    }
}

/* ---- errors ------------------------------------------------------------------------------ */

#define NWF "Statement wasn't well formed, can't be processed: "

static void
test_errors (void)
{
  assert_error ("SELEC * FROM t", NULL, DYNO_ERROR_SYNTAX,
                NWF "Expected data manipulation (at column 1)", 1);
  assert_error ("", NULL, DYNO_ERROR_SYNTAX,
                NWF "Expected data manipulation (at column 1)", 1);
  assert_error ("SELECT * FROM t WHERE", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected end of statement (at column 22)", 22);
  assert_error ("SELECT * FROM t WHERE pk = ", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected end of statement (at column 28)", 28);
  assert_error ("SELECT * FROM t WHERE pk = 'x' garbage", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected term garbage (at column 32)", 32);
  assert_error ("SELECT * FROM t WHERE pk = 'unterminated", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unterminated string literal (at column 28)", 28);
  assert_error ("SELECT * FROM \"t WHERE", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unterminated quoted identifier (at column 15)", 15);
  assert_error ("SELECT * FROM t WHERE a = #x", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected character (at column 27)", 27);
  assert_error ("SELECT * FROM t WHERE foo(pk)", NULL, DYNO_ERROR_VALIDATION,
                "Unrecognized function: foo", 23);
  assert_error ("SELECT * FROM t WHERE a = 1 AND", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected end of statement (at column 32)", 32);
  assert_error ("SELECT * FROM t WHERE (a = 1", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected end of statement (at column 29)", 29);
  assert_error ("SELECT * FROM t WHERE a", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected end of statement (at column 24)", 24);
  assert_error ("INSERT INTO t VALUE {'pk': 'q', 's': <<>>}", NULL, DYNO_ERROR_VALIDATION,
                "Empty bags are not supported", 38);
  assert_error ("INSERT INTO t VALUE {'pk': 'q', 's': <<1, 'a'>>}", NULL, DYNO_ERROR_VALIDATION,
                "Unsupported data type in Bag. DynamoDB only supports either numbers or "
                "strings in bags", 38);
  assert_error ("INSERT INTO t VALUE {'pk': 'q', 's': <<1, 1.0>>}", NULL, DYNO_ERROR_VALIDATION,
                "Input collection contains duplicates", 38);
  assert_error ("INSERT INTO t VALUE {'pk': 'q', 'm': {'a': 1, 'a': 2}}", NULL,
                DYNO_ERROR_VALIDATION, "Duplicate keys in tuple. Key: a under root", 47);
  assert_error ("INSERT INTO t VALUE {'pk': 'q', '': 1}", NULL, DYNO_ERROR_VALIDATION,
                "Path component cannot be an empty string", 33);
  assert_error ("INSERT INTO t VALUE {'pk': 'q', 'n': -0.00e5}", NULL, DYNO_ERROR_VALIDATION,
                "Negative zero decimal is not supported under key root", 38);
  assert_error ("INSERT INTO t VALUE {'pk': 'q', 'n': 1234567890123456789012345678901234567.89}",
                NULL, DYNO_ERROR_VALIDATION, "DynamoDB only supports precision up to 38 digits",
                38);
  assert_error ("INSERT INTO t VALUE {'pk': 'q', 'n': 1e200}", NULL, DYNO_ERROR_VALIDATION,
                "Number overflow. Attempting to store a number with magnitude larger than "
                "supported range", 38);
  {
    g_autoptr(DynoPartiqlStatement) st =
      parse_ok ("INSERT INTO t VALUE {'n': 00012345678901234567890123456789012345678.000e-3, "
                "'y': 0.0}", NULL);
  }
  assert_error ("INSERT INTO t VALUE {pk: 'q'}", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected term pk (at column 22)", 22);
  assert_error ("INSERT INTO t VALUES {'pk': 'q'}", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected term VALUES (at column 15)", 15);
  assert_error ("INSERT INTO t VALUE ?", NULL, DYNO_ERROR_VALIDATION,
                "Unsupported format in item expression. Please use struct format {...} to "
                "express item values for insert statement.", 21);
  {
    g_autoptr(GPtrArray) one = params_new ("{\"N\":\"1\"}", NULL);

    assert_error ("INSERT INTO t VALUE {'pk': 'q', 'l': [1, ?]}", one, DYNO_ERROR_VALIDATION,
                  "Unsupported data type: Parameter under key root.1", 42);
    assert_error ("INSERT INTO t VALUE {'pk': 'q', 'm': {'a': ?}}", one, DYNO_ERROR_VALIDATION,
                  "Unsupported data type: Parameter under key root.a", 44);
    assert_error ("SELECT * FROM t WHERE a = [?]", one, DYNO_ERROR_VALIDATION,
                  "Unsupported data type: Parameter under key root.0", 28);
    assert_error ("INSERT INTO t VALUE {'pk': 'q', 's': <<?>>}", one, DYNO_ERROR_VALIDATION,
                  "Unsupported data type in Bag. DynamoDB only supports either numbers or "
                  "strings in bags", 38);
  }
  assert_error ("UPDATE t WHERE pk = 'a'", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected term WHERE (at column 10)", 10);
  assert_error ("UPDATE t SET a = 1 WHERE pk = 'a' RETURNING ALL *", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected term * (at column 49)", 49);
  assert_error ("DELETE t WHERE pk = 'a'", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected term t (at column 8)", 8);
  assert_error ("SELECT * FROM t WHERE a IS MISSIN", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected term MISSIN (at column 28)", 28);
  assert_error ("SELECT * FROM t WHERE a IS int", NULL, DYNO_ERROR_VALIDATION,
                "Unsupported data type for IS operator: INTEGER. Supported data types are "
                "[MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]", 28);
  assert_error ("SELECT * FROM t WHERE a IS MAP", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected term MAP (at column 28)", 28);
  assert_error ("SELECT * FROM t WHERE a + 1 = 2", NULL, DYNO_ERROR_VALIDATION,
                "Unsupported operator in Condition Expression. Operator: +", 25);
  assert_error ("SELECT * FROM t WHERE a LIKE 'x%'", NULL, DYNO_ERROR_VALIDATION,
                "Unsupported operator in Condition Expression. Operator: like", 25);
  assert_error ("SELECT DISTINCT a FROM t", NULL, DYNO_ERROR_VALIDATION,
                "Unsupported token in expression: DISTINCT", 8);
  assert_error ("SELECT a AS b FROM t", NULL, DYNO_ERROR_VALIDATION,
                "Aliasing is not supported", 10);
  assert_error ("SELECT a FROM t AS q", NULL, DYNO_ERROR_VALIDATION,
                "Aliasing is not supported", 17);
  assert_error ("SELECT a FROM t q", NULL, DYNO_ERROR_VALIDATION,
                "Aliasing is not supported", 17);
  assert_error ("SELECT a FROM t; x", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected term x (at column 18)", 18);
  /* reserved words are names only when quoted */
  assert_error ("SELECT value FROM t", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected keyword value (at column 8)", 8);
  assert_error ("SELECT * FROM t WHERE a.Date = 1", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected keyword Date (at column 25)", 25);
  assert_error ("UPDATE t SET count = 1 WHERE pk = 'a'", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected keyword count (at column 14)", 14);
  {
    g_autoptr(DynoPartiqlStatement) st =
      parse_ok ("SELECT \"value\", name, status FROM t WHERE \"date\" = 1 AND m['key'] = 2",
                NULL);

    assert_where (st, "date = 1 AND m.key = 2");
  }
  /* columns count characters, not bytes */
  assert_error ("SELECT * FROM t WHERE a = 'é' b", NULL, DYNO_ERROR_SYNTAX,
                NWF "Unexpected term b (at column 31)", 31);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/partiql/select", test_select);
  g_test_add_func ("/partiql/conditions", test_conditions);
  g_test_add_func ("/partiql/parameters", test_parameters);
  g_test_add_func ("/partiql/insert", test_insert);
  g_test_add_func ("/partiql/update", test_update);
  g_test_add_func ("/partiql/delete", test_delete);
  g_test_add_func ("/partiql/codegen-statements", test_codegen_statements);
  g_test_add_func ("/partiql/errors", test_errors);
  return g_test_run ();
}
