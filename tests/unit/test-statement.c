/* test-statement.c: a PartiQL statement for ExecuteStatement (dyno-statement.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-statement.h"

static void
test_parse_parameters (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) parameters = NULL;

  parameters = dyno_statement_parse_parameters ("[{\"S\": \"C#1\"}, {\"N\": \"3\"}]", &error);
  g_assert_no_error (error);
  g_assert_nonnull (parameters);
  g_assert_cmpuint (parameters->len, ==, 2);
  g_assert_cmpint (dyno_value_get_kind (g_ptr_array_index (parameters, 0)), ==, DYNO_VALUE_S);
  g_assert_cmpstr (dyno_value_get_string (g_ptr_array_index (parameters, 0), NULL), ==, "C#1");
  g_assert_cmpint (dyno_value_get_kind (g_ptr_array_index (parameters, 1)), ==, DYNO_VALUE_N);
  g_assert_cmpstr (dyno_value_get_string (g_ptr_array_index (parameters, 1), NULL), ==, "3");
  g_clear_pointer (&parameters, g_ptr_array_unref);

  /* nothing typed: no parameters, not an error */
  parameters = dyno_statement_parse_parameters ("", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (parameters->len, ==, 0);
  g_clear_pointer (&parameters, g_ptr_array_unref);
  parameters = dyno_statement_parse_parameters (" \n\t", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (parameters->len, ==, 0);
  g_clear_pointer (&parameters, g_ptr_array_unref);
  parameters = dyno_statement_parse_parameters ("[]", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (parameters->len, ==, 0);
  g_clear_pointer (&parameters, g_ptr_array_unref);

  /* not JSON */
  parameters = dyno_statement_parse_parameters ("[{\"S\": \"x\"", &error);
  g_assert_null (parameters);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_JSON);
  g_clear_error (&error);

  /* JSON, not an array */
  parameters = dyno_statement_parse_parameters ("{\"S\": \"x\"}", &error);
  g_assert_null (parameters);
  g_assert_nonnull (error);
  g_assert_true (error->domain == DYNO_ERROR);
  g_assert_nonnull (strstr (error->message, "JSON array"));
  g_clear_error (&error);

  /* the second value is not DynamoDB JSON: the message names it */
  parameters = dyno_statement_parse_parameters ("[{\"S\": \"x\"}, {\"Q\": \"1\"}]", &error);
  g_assert_null (parameters);
  g_assert_nonnull (error);
  g_assert_true (error->domain == DYNO_ERROR);
  g_assert_true (g_str_has_prefix (error->message, "parameter 2: "));
  g_assert_cmpuint (strlen (error->message), >, strlen ("parameter 2: "));
  g_clear_error (&error);

  /* a bad number in the third */
  parameters = dyno_statement_parse_parameters ("[{\"S\": \"x\"}, {\"N\": \"1\"}, {\"N\": \"one\"}]",
                                                &error);
  g_assert_null (parameters);
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "parameter 3: "));
  g_clear_error (&error);
}

static guint
count (const char *text)
{
  g_autoptr(DynoStatement) statement = dyno_statement_new (text);

  return dyno_statement_count_placeholders (statement);
}

static void
test_count_placeholders (void)
{
  g_assert_cmpuint (count ("SELECT * FROM \"t\""), ==, 0);
  g_assert_cmpuint (count ("SELECT * FROM \"t\" WHERE pk = ? AND sk > ?"), ==, 2);
  /* inside 'strings' and "identifiers" a ? is text */
  g_assert_cmpuint (count ("SELECT * FROM \"t?\" WHERE pk = '?' AND sk = ?"), ==, 1);
  /* a doubled quote stays inside the string */
  g_assert_cmpuint (count ("SELECT * FROM t WHERE a = 'it''s ?' AND b = ?"), ==, 1);
  g_assert_cmpuint (count ("SELECT * FROM \"a\"\"?\" WHERE b = ?"), ==, 1);
  /* an unclosed string hides the rest */
  g_assert_cmpuint (count ("SELECT * FROM t WHERE a = '? AND b = ?"), ==, 0);
  g_assert_cmpuint (count ("INSERT INTO t VALUE {'pk': ?, 'n': ?, 's': '?'}"), ==, 2);
}

static gboolean
select_ (const char *text)
{
  g_autoptr(DynoStatement) statement = dyno_statement_new (text);

  return dyno_statement_is_select (statement);
}

static void
test_is_select (void)
{
  g_assert_true (select_ ("SELECT * FROM t"));
  g_assert_true (select_ ("select * from t"));
  g_assert_true (select_ ("  \n\t( SeLeCt * FROM t)"));
  g_assert_true (select_ ("SELECT\n*"));
  g_assert_true (select_ ("SELECT\"pk\" FROM t"));
  g_assert_false (select_ ("SELECTED"));
  g_assert_false (select_ ("SELECT_x"));
  g_assert_false (select_ ("SELEC"));
  g_assert_false (select_ (""));
  g_assert_false (select_ ("INSERT INTO t VALUE {'pk': 'a'}"));
  g_assert_false (select_ ("UPDATE t SET a = 1 WHERE pk = 'a'"));
  g_assert_false (select_ ("DELETE FROM t WHERE pk = 'a'"));
  g_assert_false (select_ ("-- SELECT\nDELETE FROM t"));
}

static char *
body (const DynoStatement *statement,
      const char          *next_token)
{
  g_autoptr(JsonNode) node = dyno_statement_to_json_node (statement, next_token);

  return dyno_json_node_to_string (node, FALSE);
}

static void
test_to_json_node (void)
{
  g_autoptr(DynoStatement) statement = dyno_statement_new ("SELECT * FROM \"t\" WHERE pk = ?");
  g_autoptr(DynoStatement) copy = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *plain = NULL, *full = NULL, *copied = NULL;

  /* only what is set, and always the capacity */
  plain = body (statement, NULL);
  g_assert_cmpstr (plain, ==,
                   "{\"Statement\":\"SELECT * FROM \\\"t\\\" WHERE pk = ?\","
                   "\"ReturnConsumedCapacity\":\"TOTAL\"}");

  statement->parameters = dyno_statement_parse_parameters ("[{\"S\": \"C#1\"}, {\"N\": \"3\"}]",
                                                           &error);
  g_assert_no_error (error);
  statement->consistent_read = DYNO_TRISTATE_TRUE;
  statement->limit = 7;
  full = body (statement, "tok/1==");
  g_assert_cmpstr (full, ==,
                   "{\"Statement\":\"SELECT * FROM \\\"t\\\" WHERE pk = ?\","
                   "\"Parameters\":[{\"S\":\"C#1\"},{\"N\":\"3\"}],"
                   "\"ConsistentRead\":true,\"Limit\":7,\"NextToken\":\"tok/1==\","
                   "\"ReturnConsumedCapacity\":\"TOTAL\"}");

  /* an explicit eventually consistent read is said; the copy is deep and equal */
  statement->consistent_read = DYNO_TRISTATE_FALSE;
  copy = dyno_statement_copy (statement);
  g_clear_pointer (&statement->parameters, g_ptr_array_unref);
  g_clear_pointer (&statement->statement, g_free);
  statement->statement = g_strdup ("changed");
  copied = body (copy, NULL);
  g_assert_cmpstr (copied, ==,
                   "{\"Statement\":\"SELECT * FROM \\\"t\\\" WHERE pk = ?\","
                   "\"Parameters\":[{\"S\":\"C#1\"},{\"N\":\"3\"}],"
                   "\"ConsistentRead\":false,\"Limit\":7,"
                   "\"ReturnConsumedCapacity\":\"TOTAL\"}");
  g_assert_true (G_TYPE_IS_BOXED (DYNO_TYPE_STATEMENT));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/statement/parse-parameters", test_parse_parameters);
  g_test_add_func ("/statement/count-placeholders", test_count_placeholders);
  g_test_add_func ("/statement/is-select", test_is_select);
  g_test_add_func ("/statement/to-json-node", test_to_json_node);

  return g_test_run ();
}
