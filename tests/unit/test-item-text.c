/* test-item-text.c: the item editor's text form of an item, and where its errors are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>

#include <string.h>

#include "dyno-error.h"
#include "dyno-item-text.h"
#include "dyno-json.h"

/* Every type, a 38-digit number, binary with bytes that are not text, nesting. */
static const char *every_type =
  "{\"pk\":{\"S\":\"USER#1\"},\"n\":{\"N\":\"12345678901234567890123456789012345678\"},"
  "\"neg\":{\"N\":\"-0.000000000000000000000000000000000001\"},"
  "\"b\":{\"B\":\"AP8QgA==\"},\"t\":{\"BOOL\":true},\"f\":{\"BOOL\":false},"
  "\"z\":{\"NULL\":true},"
  "\"m\":{\"M\":{\"inner\":{\"L\":[{\"S\":\"x\"},{\"M\":{}},{\"L\":[]},{\"N\":\"1\"}]}}},"
  "\"ss\":{\"SS\":[\"a\",\"b\"]},"
  "\"ns\":{\"NS\":[\"1\",\"99999999999999999999999999999999999999\"]},"
  "\"bs\":{\"BS\":[\"AQ==\",\"Ag==\"]},\"u\":{\"S\":\"é \\\" \\\\ \\n ✓\"}}";

static void
test_format_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = dyno_item_from_ddb_json (every_type, -1, &error);
  g_autofree char *text = NULL;
  g_autoptr(DynoItem) back = NULL;
  guint line = 99;

  g_assert_no_error (error);
  text = dyno_item_text_format (item);
  /* One top-level attribute per line, nested members indented. */
  g_assert_true (g_str_has_prefix (text, "{\n  \"pk\": {\"S\": \"USER#1\"}") ||
                 g_str_has_prefix (text, "{\n  \"pk\": {\"S\":\"USER#1\"}"));
  g_assert_nonnull (strstr (text, "\n    \"inner\": {\"L\": [\n"));
  back = dyno_item_text_parse (text, -1, &line, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (line, ==, 0);
  g_assert_true (dyno_item_equal (item, back));
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (back, "n"), NULL), ==,
                   "12345678901234567890123456789012345678");
}

static void
test_empty_item (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = dyno_item_from_ddb_json ("{}", -1, &error);
  g_autofree char *text = dyno_item_text_format (item);
  g_autoptr(DynoItem) back = dyno_item_text_parse (text, -1, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (dyno_item_get_n_attributes (back), ==, 0);
}

static void
test_syntax_error_line (void)
{
  g_autoptr(GError) error = NULL;
  guint line = 0, column = 0;
  DynoItem *item = dyno_item_text_parse ("{\n  \"a\": {\"S\": \"x\"},\n  \"b\": {\"S\" \"y\"}\n}",
                                         -1, &line, &column, &error);

  g_assert_null (item);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_JSON);
  g_assert_cmpuint (line, ==, 3);
  g_assert_cmpuint (column, >, 1);
}

static void
test_value_error_line (void)
{
  g_autoptr(GError) error = NULL;
  guint line = 0;
  DynoItem *item = dyno_item_text_parse ("{\n  \"a\": {\"S\": \"x\"},\n\n"
                                         "  \"n\": {\"N\": \"12a\"}\n}",
                                         -1, &line, NULL, &error);

  g_assert_null (item);
  g_assert_nonnull (error);
  g_assert_cmpuint (line, ==, 4);
  g_assert_nonnull (strstr (error->message, "n"));
}

static void
test_not_an_object (void)
{
  g_autoptr(GError) error = NULL;
  DynoItem *item = dyno_item_text_parse ("[1, 2]", -1, NULL, NULL, &error);

  g_assert_null (item);
  g_assert_nonnull (error);
}

/* The place is carried in the error, never read out of its text: a message that says "line
 * 12" (or, translated, "línea 12") has no location unless the parser put one there, and a
 * location survives a message rewritten in another language, and a copy. */
static void
test_error_location_parse (void)
{
  g_autoptr(GError) said = g_error_new_literal (DYNO_ERROR, DYNO_ERROR_JSON,
                                                "Invalid JSON at line 12, column 4: x");
  g_autoptr(GError) parsed = NULL;
  g_autoptr(GError) copy = NULL;
  g_autoptr(GError) other = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "line 1");
  guint line = 0, column = 0;

  g_assert_false (dyno_item_text_error_location (said, &line, &column));

  g_assert_null (dyno_item_text_parse ("{\n  \"a\": {\"S\": \"x\"},\n  \"b\" 1\n}", -1,
                                       NULL, NULL, &parsed));
  g_assert_true (dyno_item_text_error_location (parsed, &line, &column));
  g_assert_cmpuint (line, ==, 3);
  /* as a translation would: the text changes, the place does not */
  g_free (parsed->message);
  parsed->message = g_strdup ("JSON no válido en la línea tres");
  copy = g_error_copy (parsed);
  line = column = 0;
  g_assert_true (dyno_item_text_error_location (copy, &line, &column));
  g_assert_cmpuint (line, ==, 3);
  g_assert_cmpuint (column, >, 0);

  g_assert_false (dyno_item_text_error_location (other, &line, &column));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/item-text/format-round-trip", test_format_round_trip);
  g_test_add_func ("/item-text/empty-item", test_empty_item);
  g_test_add_func ("/item-text/syntax-error-line", test_syntax_error_line);
  g_test_add_func ("/item-text/value-error-line", test_value_error_line);
  g_test_add_func ("/item-text/not-an-object", test_not_an_object);
  g_test_add_func ("/item-text/error-location", test_error_location_parse);

  return g_test_run ();
}
