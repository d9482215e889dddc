/* test-json.c: DynamoDB JSON and plain JSON, in and out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-value.h"

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("\u201c%s\u201d does not contain \u201c%s\u201d", haystack, needle);
}

/* Reads @in and writes it back; the output must be @out (or @in when NULL). */
static void
assert_ddb_round_trip (const char *in,
                       const char *out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoValue) v = dyno_value_from_ddb_json (in, -1, &error);
  g_autofree char *text = NULL;
  g_autoptr(DynoValue) again = NULL;

  g_assert_no_error (error);
  text = dyno_value_to_ddb_json (v);
  g_assert_cmpstr (text, ==, out ? out : in);

  /* And the output reads back to an equal value. */
  again = dyno_value_from_ddb_json (text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_value_equal (v, again));
}

static void
test_ddb_round_trip (void)
{
  assert_ddb_round_trip ("{\"S\":\"hello\"}", NULL);
  assert_ddb_round_trip ("{\"S\":\"\"}", NULL);
  assert_ddb_round_trip ("{\"N\":\"-12.5\"}", NULL);
  assert_ddb_round_trip ("{\"B\":\"AQID\"}", NULL);
  assert_ddb_round_trip ("{\"B\":\"\"}", NULL);
  assert_ddb_round_trip ("{\"BOOL\":true}", NULL);
  assert_ddb_round_trip ("{\"BOOL\":false}", NULL);
  assert_ddb_round_trip ("{\"NULL\":true}", NULL);
  assert_ddb_round_trip ("{\"M\":{}}", NULL);
  assert_ddb_round_trip ("{\"L\":[]}", NULL);
  assert_ddb_round_trip ("{\"SS\":[\"b\",\"a\",\"\"]}", NULL);
  assert_ddb_round_trip ("{\"NS\":[\"3\",\"-1\",\"0.5\"]}", NULL);
  assert_ddb_round_trip ("{\"BS\":[\"AQI=\",\"Ag==\",\"\"]}", NULL);
  /* Attribute order is kept as read. */
  assert_ddb_round_trip ("{\"M\":{\"z\":{\"N\":\"1\"},\"a\":{\"L\":[{\"S\":\"x\"},"
                         "{\"M\":{\"deep\":{\"BOOL\":false}}}]},\"m\":{\"NULL\":true}}}", NULL);
  /* Whitespace goes, numbers are canonical, escapes are normalised. */
  assert_ddb_round_trip (" { \"N\" : \"1e2\" } ", "{\"N\":\"100\"}");
  assert_ddb_round_trip ("{\n\t\"NS\": [\"1.50\", \"-0\"]\r\n}", "{\"NS\":[\"1.5\",\"0\"]}");
  assert_ddb_round_trip ("{\"S\":\"\\u0041\\/\\u00e9\"}", "{\"S\":\"A/\u00e9\"}");
  assert_ddb_round_trip ("{\"S\":\"q\\\"b\\\\n\\n t\\t r\\r \\b\\f \\u0001\\u001f\"}",
                         "{\"S\":\"q\\\"b\\\\n\\n t\\t r\\r \\b\\f \\u0001\\u001f\"}");
  /* Astral characters: escaped pairs and raw UTF-8 read alike. */
  assert_ddb_round_trip ("{\"S\":\"\\ud83d\\ude00\"}", "{\"S\":\"\U0001F600\"}");
  assert_ddb_round_trip ("{\"S\":\"\\uD83D\\uDE00\"}", "{\"S\":\"\U0001F600\"}");
  assert_ddb_round_trip ("{\"S\":\"\U0001F600 \u00e9\"}", NULL);
  /* Base64 without padding is accepted; written padded. */
  assert_ddb_round_trip ("{\"B\":\"AQI\"}", "{\"B\":\"AQI=\"}");
  assert_ddb_round_trip ("{\"B\":\"\\/w==\"}", "{\"B\":\"/w==\"}");
}

static void
test_ddb_item_round_trip (void)
{
  const char *json =
    "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"PROFILE\"},\"age\":{\"N\":\"42\"},"
    "\"tags\":{\"SS\":[\"a\",\"b\"]},\"data\":{\"B\":\"3q2+7w==\"},"
    "\"addr\":{\"M\":{\"city\":{\"S\":\"Oslo\"},\"zip\":{\"N\":\"150\"}}},"
    "\"big\":{\"N\":\"12345678901234567890123456789012345678\"},"
    "\"list\":{\"L\":[{\"N\":\"1\"},{\"NULL\":true},{\"BOOL\":true}]}}";
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = dyno_item_from_ddb_json (json, -1, &error);
  g_autofree char *out = NULL;
  GString *s = g_string_new (NULL);

  g_assert_no_error (error);
  out = dyno_item_to_ddb_json (item);
  g_assert_cmpstr (out, ==, json);

  dyno_map_write_ddb_item (dyno_item_get_map (item), s);
  g_assert_cmpstr (s->str, ==, json);
  g_string_truncate (s, 0);

  dyno_value_write_ddb_json (dyno_item_lookup (item, "addr"), s);
  g_assert_cmpstr (s->str, ==, "{\"M\":{\"city\":{\"S\":\"Oslo\"},\"zip\":{\"N\":\"150\"}}}");
  g_string_free (s, TRUE);

  /* len limits the text. */
  g_clear_pointer (&item, dyno_item_unref);
  item = dyno_item_from_ddb_json ("{\"a\":{\"S\":\"x\"}}garbage", 15, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dyno_item_get_n_attributes (item), ==, 1);
}

static GError *
ddb_error (const char *json)
{
  GError *error = NULL;
  g_autoptr(DynoValue) v = dyno_value_from_ddb_json (json, -1, &error);

  g_assert_null (v);
  g_assert_nonnull (error);
  return error;
}

static GError *
item_error (const char *json)
{
  GError *error = NULL;
  g_autoptr(DynoItem) item = dyno_item_from_ddb_json (json, -1, &error);

  g_assert_null (item);
  g_assert_nonnull (error);
  return error;
}

static void
assert_ddb_invalid (const char *json,
                    const char *message)
{
  g_autoptr(GError) error = ddb_error (json);

  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  assert_contains (error->message, message);
}

static void
assert_json_error (const char *json,
                   const char *message)
{
  g_autoptr(GError) error = ddb_error (json);

  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_JSON);
  assert_contains (error->message, message);
}

static void
test_ddb_validation (void)
{
  /* dynamodb-facts.md §3.1 */
  assert_ddb_invalid ("{}", "Supplied AttributeValue is empty, must contain exactly one of the "
                      "supported datatypes");
  assert_ddb_invalid ("{\"S\":\"a\",\"N\":\"1\"}", "Supplied AttributeValue has more than one "
                      "datatypes set, must contain exactly one of the supported datatypes");
  assert_ddb_invalid ("{\"NULL\":false}", "One or more parameter values were invalid: Null "
                      "attribute value types must have the value of true");
  assert_ddb_invalid ("{\"SS\":[]}", "One or more parameter values were invalid: A string set "
                      "may not be empty");
  assert_ddb_invalid ("{\"SS\":[\"a\",\"a\"]}", "Input collection [a, a] contains duplicates.");
  assert_ddb_invalid ("{\"N\":\"1e126\"}", "Number overflow.");
  assert_ddb_invalid ("{\"N\":\"\"}", "The parameter cannot be converted to a numeric value");
  assert_ddb_invalid ("{\"N\":\"12a\"}",
                      "The parameter cannot be converted to a numeric value: 12a");
  assert_ddb_invalid ("{\"N\":\"123456789012345678901234567890123456789\"}",
                      "Attempting to store more than 38 significant digits in a Number");
  assert_ddb_invalid ("{\"N\":12}", "The N value must be a number written as a JSON string");
  assert_ddb_invalid ("{\"S\":12}", "The S value must be a JSON string");
  assert_ddb_invalid ("{\"BOOL\":\"true\"}", "The BOOL value must be true or false");
  assert_ddb_invalid ("{\"NULL\":1}", "The NULL value must be true");
  assert_ddb_invalid ("{\"M\":[]}", "The M value must be a JSON object");
  assert_ddb_invalid ("{\"L\":{}}", "The L value must be a JSON array");
  assert_ddb_invalid ("{\"SS\":\"a\"}", "The SS value must be a JSON array of strings");
  assert_ddb_invalid ("{\"NS\":[1]}", "The members of an NS must be JSON strings");
  assert_ddb_invalid ("{\"X\":\"1\"}", "Unknown AttributeValue type \u201cX\u201d");
  assert_ddb_invalid ("{\"s\":\"1\"}", "Unknown AttributeValue type \u201cs\u201d");
  assert_ddb_invalid ("\"text\"", "Expected an AttributeValue such as {\"S\":\"text\"}");
  assert_ddb_invalid ("{\"M\":{\"a\":{\"S\":\"x\"},\"a\":{\"S\":\"y\"}}}",
                      "more than once");
  /* Base64 is checked. */
  assert_ddb_invalid ("{\"B\":\"A\"}", "The B value is not valid base64");
  assert_ddb_invalid ("{\"B\":\"AQ=I\"}", "The B value is not valid base64");
  assert_ddb_invalid ("{\"B\":\"AQ*=\"}", "The B value is not valid base64");
  assert_ddb_invalid ("{\"B\":\"AQ===\"}", "The B value is not valid base64");
  assert_ddb_invalid ("{\"B\":\"AQ= \"}", "The B value is not valid base64");
  assert_ddb_invalid ("{\"B\":\"AQ=\"}", "The B value is not valid base64");
  assert_ddb_invalid ("{\"BS\":[\"AQ==\",\"%%%%\"]}", "The BS member value is not valid base64");
}

static void
test_ddb_error_location (void)
{
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;
  g_autoptr(GError) e4 = NULL;
  g_autoptr(GError) e5 = NULL;

  /* The path of the bad value, and where it starts. */
  e1 = item_error ("{\"a\":{\"M\":{\"b\":{\"L\":[{\"S\":\"x\"},{\"NULL\":false}]}}}}");
  g_assert_error (e1, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  g_assert_cmpstr (e1->message, ==, "Attribute a.b[1]: One or more parameter values were "
                   "invalid: Null attribute value types must have the value of true "
                   "(line 1, column 40)");

  /* Lines and columns count characters. */
  e2 = item_error ("{\n  \"\u00e9\u00e9\": {\"S\":\"x\"},\n  \"n\": {\"N\": \"x1\"}\n}");
  g_assert_error (e2, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  g_assert_cmpstr (e2->message, ==, "Attribute n: The parameter cannot be converted to a "
                   "numeric value: x1 (line 3, column 8)");

  /* Syntax errors say where, and in which attribute. */
  e3 = item_error ("{\"a\":{\"S\":\"x\"},\n\"b\":{\"S\" \"y\"}}");
  g_assert_error (e3, DYNO_ERROR, DYNO_ERROR_JSON);
  g_assert_cmpstr (e3->message, ==, "Invalid JSON at line 2, column 10: expected \u201c:\u201d "
                   "but found a string (in attribute b)");

  e4 = item_error ("{\"a\":{\"S\":\"x\"}");
  g_assert_error (e4, DYNO_ERROR, DYNO_ERROR_JSON);
  assert_contains (e4->message, "line 1, column 15");
  assert_contains (e4->message, "the end of the text");

  e5 = item_error ("[]");
  g_assert_error (e5, DYNO_ERROR, DYNO_ERROR_JSON);
  assert_contains (e5->message, "line 1, column 1");
}

static void
test_json_syntax (void)
{
  assert_json_error ("", "the end of the text");
  assert_json_error ("{\"S\":\"x\"} x", "unexpected text after the end of the document");
  assert_json_error ("{\"S\":\"x\"}}", "unexpected text after the end of the document");
  assert_json_error ("{\"S\":\"abc", "unterminated string");
  assert_json_error ("{\"S\":\"a\nb\"}", "control character U+000A must be escaped");
  assert_json_error ("{\"S\":\"a\\xb\"}", "invalid escape \u201c\\x\u201d");
  assert_json_error ("{\"S\":\"\\u12\"}", "\\u must be followed by four hex digits");
  assert_json_error ("{\"S\":\"\\u12g4\"}", "\\u must be followed by four hex digits");
  /* Lone surrogates are not Unicode. */
  assert_json_error ("{\"S\":\"\\ud83d\"}", "lone high surrogate \\uD83D");
  assert_json_error ("{\"S\":\"\\ud83dx\"}", "lone high surrogate \\uD83D");
  assert_json_error ("{\"S\":\"\\ud83d\\u0041\"}", "lone high surrogate \\uD83D");
  assert_json_error ("{\"S\":\"\\ude00\"}", "lone low surrogate \\uDE00");
  assert_json_error ("{\"S\":\"\xff\"}", "invalid UTF-8");
  assert_json_error ("{\"S\":\"\xc3\"}", "invalid UTF-8");
  assert_json_error ("{\"S\":\"\xed\xa0\x80\"}", "invalid UTF-8");
  assert_json_error ("{\"BOOL\":tru}", "expected a value");
  assert_json_error ("{\"L\":[{\"S\":\"a\"},]}", "expected an AttributeValue object");
  assert_json_error ("{\"L\":[{\"S\":\"a\"} {\"S\":\"b\"}]}", "expected \u201c,\u201d or "
                     "\u201c]\u201d");
  assert_json_error ("{S:\"a\"}", "expected a string");

  /* Deep nesting stops with an error instead of exhausting the stack. */
  {
    GString *deep = g_string_new (NULL);
    g_autoptr(GError) error = NULL;

    for (int i = 0; i < 100000; i++)
      g_string_append (deep, "{\"L\":[");
    error = ddb_error (deep->str);
    g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
    assert_contains (error->message, "nested more than 32 levels deep");
    g_string_free (deep, TRUE);
  }
}

static void
test_write_string (void)
{
  GString *s = g_string_new (NULL);

  dyno_json_write_string (s, "a\"b\\c\n\x01\x7f\u00e9\U0001F600", -1);
  g_assert_cmpstr (s->str, ==, "\"a\\\"b\\\\c\\n\\u0001\x7f\u00e9\U0001F600\"");
  g_string_truncate (s, 0);
  dyno_json_write_string (s, "a\0b", 3);
  g_assert_cmpstr (s->str, ==, "\"a\\u0000b\"");
  g_string_truncate (s, 0);
  dyno_json_write_string (s, "", 0);
  g_assert_cmpstr (s->str, ==, "\"\"");
  g_string_free (s, TRUE);

  /* A NUL inside a string survives a round trip. */
  {
    g_autoptr(DynoValue) v = dyno_value_from_ddb_json ("{\"S\":\"a\\u0000b\"}", -1, NULL);
    gsize len;

    g_assert_nonnull (v);
    dyno_value_get_string (v, &len);
    g_assert_cmpuint (len, ==, 3);
  }
}

static void
test_binary_values (void)
{
  /* Every byte value, and every length modulo 3. */
  for (gsize len = 0; len < 260; len++)
    {
      g_autofree guint8 *data = g_malloc (len + 1);
      g_autoptr(DynoValue) v = NULL;
      g_autoptr(DynoValue) back = NULL;
      g_autofree char *json = NULL;
      g_autofree char *b64 = NULL;
      g_autofree char *expected = NULL;
      g_autoptr(GError) error = NULL;
      gsize out_len;

      for (gsize i = 0; i < len; i++)
        data[i] = (guint8) (i * 7 + len);
      v = dyno_value_new_binary (data, len);
      json = dyno_value_to_ddb_json (v);
      b64 = g_base64_encode (data, len);
      expected = g_strdup_printf ("{\"B\":\"%s\"}", b64);
      g_assert_cmpstr (json, ==, expected);
      back = dyno_value_from_ddb_json (json, -1, &error);
      g_assert_no_error (error);
      g_assert_cmpmem (dyno_value_get_binary (back, &out_len), out_len, data, len);
    }
}

static GHashTable *
make_hints (const char *first,
            ...)
{
  GHashTable *hints = g_hash_table_new (g_str_hash, g_str_equal);
  va_list args;
  const char *name = first;

  va_start (args, first);
  while (name != NULL)
    {
      DynoValueType type = va_arg (args, int);

      g_hash_table_insert (hints, (gpointer) name, GINT_TO_POINTER (type));
      name = va_arg (args, const char *);
    }
  va_end (args);

  return hints;
}

static void
test_plain_read (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = NULL;
  g_autofree char *ddb = NULL;
  const char *json = "{\"s\":\"x\",\"n\":-1.50e1,\"t\":true,\"f\":false,\"z\":null,"
                     "\"l\":[1,\"a\",[]],\"m\":{\"k\":{}},"
                     "\"big\":9007199254740993,"
                     "\"d38\":1234567890123456789012345678901234567.8}";

  item = dyno_item_from_plain_json (json, -1, NULL, &error);
  g_assert_no_error (error);
  ddb = dyno_item_to_ddb_json (item);
  g_assert_cmpstr (ddb, ==,
                   "{\"s\":{\"S\":\"x\"},\"n\":{\"N\":\"-15\"},\"t\":{\"BOOL\":true},"
                   "\"f\":{\"BOOL\":false},\"z\":{\"NULL\":true},"
                   "\"l\":{\"L\":[{\"N\":\"1\"},{\"S\":\"a\"},{\"L\":[]}]},"
                   "\"m\":{\"M\":{\"k\":{\"M\":{}}}},"
                   "\"big\":{\"N\":\"9007199254740993\"},"
                   "\"d38\":{\"N\":\"1234567890123456789012345678901234567.8\"}}");
}

static void
test_plain_hints (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = NULL;
  g_autoptr(GHashTable) hints = make_hints ("bin", DYNO_VALUE_B, "ss", DYNO_VALUE_SS,
                                            "ns", DYNO_VALUE_NS, "bs", DYNO_VALUE_BS,
                                            "nstr", DYNO_VALUE_N, "zip", DYNO_VALUE_S,
                                            NULL);
  g_autofree char *ddb = NULL;
  g_autofree char *plain = NULL;
  g_autoptr(DynoItem) back = NULL;
  const char *json = "{\"bin\":\"AQI=\",\"ss\":[\"a\",\"b\"],\"ns\":[1,\"2.50\"],"
                     "\"bs\":[\"AQ==\"],\"nstr\":\"1e3\",\"zip\":01234e0,"
                     "\"nested\":{\"bin\":\"AQI=\"}}";

  /* zip holds a number token kept as text; JSON forbids a leading 0 though. */
  item = dyno_item_from_plain_json (json, -1, hints, &error);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_JSON);
  g_clear_error (&error);

  json = "{\"bin\":\"AQI=\",\"ss\":[\"a\",\"b\"],\"ns\":[1,\"2.50\"],"
         "\"bs\":[\"AQ==\"],\"nstr\":\"1e3\",\"zip\":1.50,"
         "\"nested\":{\"bin\":\"AQI=\"}}";
  item = dyno_item_from_plain_json (json, -1, hints, &error);
  g_assert_no_error (error);
  ddb = dyno_item_to_ddb_json (item);
  /* Hints apply to top-level attributes only. */
  g_assert_cmpstr (ddb, ==,
                   "{\"bin\":{\"B\":\"AQI=\"},\"ss\":{\"SS\":[\"a\",\"b\"]},"
                   "\"ns\":{\"NS\":[\"1\",\"2.5\"]},\"bs\":{\"BS\":[\"AQ==\"]},"
                   "\"nstr\":{\"N\":\"1000\"},\"zip\":{\"S\":\"1.50\"},"
                   "\"nested\":{\"M\":{\"bin\":{\"S\":\"AQI=\"}}}}");

  /* Writing plain JSON: B as base64, sets as arrays, N as the exact token. */
  plain = dyno_item_to_plain_json (item);
  g_assert_cmpstr (plain, ==,
                   "{\"bin\":\"AQI=\",\"ss\":[\"a\",\"b\"],\"ns\":[1,2.5],\"bs\":[\"AQ==\"],"
                   "\"nstr\":1000,\"zip\":\"1.50\",\"nested\":{\"bin\":\"AQI=\"}}");

  /* With the same hints the plain text reads back to the same item. */
  back = dyno_item_from_plain_json (plain, -1, hints, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_item_equal (item, back));
}

static void
test_plain_errors (void)
{
  g_autoptr(GHashTable) hints = make_hints ("b", DYNO_VALUE_B, "ns", DYNO_VALUE_NS,
                                            "m", DYNO_VALUE_M, "ss", DYNO_VALUE_SS, NULL);
  struct {
    const char *json;
    GQuark domain;
    int code;
    const char *message;
  } cases[] = {
    { "{\"b\":\"@@\"}", 0, DYNO_ERROR_INVALID_VALUE, "Attribute b: The B value is not valid "
      "base64" },
    { "{\"b\":12}", 0, DYNO_ERROR_INVALID_VALUE, "Attribute b: The type hint is B, but the JSON "
      "value is a number" },
    { "{\"m\":[1]}", 0, DYNO_ERROR_INVALID_VALUE, "The type hint is M, but the JSON value is an "
      "array" },
    { "{\"ns\":[]}", 0, DYNO_ERROR_INVALID_VALUE, "A number set may not be empty" },
    { "{\"ns\":[1,1.0]}", 0, DYNO_ERROR_INVALID_VALUE, "contains duplicates" },
    { "{\"ns\":[true]}", 0, DYNO_ERROR_INVALID_VALUE, "Attribute ns[0]: The members of an NS "
      "must be strings or numbers" },
    { "{\"ss\":[\"a\",\"a\"]}", 0, DYNO_ERROR_INVALID_VALUE, "contains duplicates" },
    { "{\"x\":1e200}", 0, DYNO_ERROR_INVALID_VALUE, "Attribute x: Number overflow." },
    { "{\"x\":[1,2,01]}", 0, DYNO_ERROR_JSON, "Invalid JSON at line 1, column 12" },
    { "{\"x\":-}", 0, DYNO_ERROR_JSON, "malformed number" },
    { "{\"x\":1.}", 0, DYNO_ERROR_JSON, "malformed number" },
    { "{\"x\":.5}", 0, DYNO_ERROR_JSON, "expected a value" },
    { "{\"x\":1,}", 0, DYNO_ERROR_JSON, "expected a string" },
    { "[1]", 0, DYNO_ERROR_JSON, "expected an item object" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoItem) item = dyno_item_from_plain_json (cases[i].json, -1, hints, &error);

      g_assert_null (item);
      g_assert_error (error, DYNO_ERROR, cases[i].code);
      assert_contains (error->message, cases[i].message);
    }
}

static void
test_plain_value (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoValue) v = dyno_value_from_plain_json ("[1e2, \"x\", {\"a\": null}]", -1,
                                                       NULL, &error);
  GString *out = g_string_new (NULL);
  g_autoptr(DynoValue) scalar = NULL;

  g_assert_no_error (error);
  dyno_value_write_plain_json (v, out);
  g_assert_cmpstr (out->str, ==, "[100,\"x\",{\"a\":null}]");
  g_string_truncate (out, 0);

  scalar = dyno_value_from_plain_json ("-0.000", -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (dyno_value_get_kind (scalar), ==, DYNO_VALUE_N);
  g_assert_cmpstr (dyno_value_get_string (scalar, NULL), ==, "0");
  g_string_free (out, TRUE);
}

static void
test_json_node (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string ("{\"M\":{\"a\":{\"N\":\"1.0\"},"
                                               "\"b\":{\"B\":\"AQ==\"}}}", &error);
  g_autoptr(DynoValue) v = NULL;
  g_autoptr(JsonNode) back = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) item_node = NULL;
  g_autoptr(DynoItem) item = NULL;
  g_autoptr(JsonNode) bad = NULL;
  g_autoptr(DynoValue) bad_value = NULL;

  g_assert_no_error (error);
  v = dyno_value_from_json_node (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyno_value_get_string (dyno_value_lookup (v, "a"), NULL), ==, "1");

  back = dyno_value_to_json_node (v);
  text = json_to_string (back, FALSE);
  g_assert_cmpstr (text, ==, "{\"M\":{\"a\":{\"N\":\"1\"},\"b\":{\"B\":\"AQ==\"}}}");

  item_node = json_from_string ("{\"id\":{\"S\":\"1\"}}", &error);
  item = dyno_item_from_json_node (item_node, &error);
  g_assert_no_error (error);
  g_clear_pointer (&back, json_node_unref);
  back = dyno_item_to_json_node (item);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (back));
  g_assert_cmpstr (json_object_get_string_member (
                     json_object_get_object_member (json_node_get_object (back), "id"), "S"),
                   ==, "1");

  /* Errors name the attribute; positions would be meaningless here. */
  bad = json_from_string ("{\"M\":{\"x\":{\"NULL\":false}}}", &error);
  bad_value = dyno_value_from_json_node (bad, &error);
  g_assert_null (bad_value);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  g_assert_cmpstr (error->message, ==, "Attribute x: One or more parameter values were "
                   "invalid: Null attribute value types must have the value of true");
}

/* DynamoDB JSON: @levels maps, one in the other, around @leaf. */
static char *
nested_maps (int         levels,
             const char *leaf)
{
  GString *s = g_string_new (NULL);

  for (int i = 0; i < levels; i++)
    g_string_append (s, "{\"M\":{\"a\":");
  g_string_append (s, leaf);
  for (int i = 0; i < levels; i++)
    g_string_append (s, "}}");
  return g_string_free (s, FALSE);
}

/* DynamoDB's 32 levels, counted as DynamoDB Local counts them: an item's own map is the first
 * level; a value alone (ExpressionAttributeValues) may hold 32 maps and lists. */
static void
test_nesting_limit (void)
{
  g_autofree char *v32 = nested_maps (32, "{\"S\":\"x\"}");
  g_autofree char *v33 = nested_maps (33, "{\"S\":\"x\"}");
  g_autofree char *v31 = nested_maps (31, "{\"SS\":[\"x\"]}");
  g_autofree char *item31 = g_strdup_printf ("{\"d\":%s}", v31);
  g_autofree char *item32 = g_strdup_printf ("{\"d\":%s}", v32);
  g_autoptr(DynoValue) value = NULL;
  g_autoptr(DynoItem) item = NULL;
  g_autoptr(GError) error = NULL;
  GString *plain = g_string_new (NULL);

  value = dyno_value_from_ddb_json (v32, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (value);
  g_clear_pointer (&value, dyno_value_free);

  value = dyno_value_from_ddb_json (v33, -1, &error);
  g_assert_null (value);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  /* Named where: the path to the map that is one too deep. */
  assert_contains (error->message, "Attribute a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a"
                   ".a.a.a.a.a.a.a: Maps and lists are nested more than 32 levels deep");
  g_clear_error (&error);

  /* Sets are not a level. */
  item = dyno_item_from_ddb_json (item31, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (item);
  g_clear_pointer (&item, dyno_item_unref);

  item = dyno_item_from_ddb_json (item32, -1, &error);
  g_assert_null (item);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  assert_contains (error->message, "Attribute d.a.a.a");
  assert_contains (error->message, "32 levels");
  g_clear_error (&error);

  /* Plain JSON: the same limit. */
  for (int i = 0; i < 33; i++)
    g_string_append_c (plain, '[');
  for (int i = 0; i < 33; i++)
    g_string_append_c (plain, ']');
  /* The text without its first '[' and last ']' holds 32 lists. */
  value = dyno_value_from_plain_json (plain->str + 1, plain->len - 2, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (value);
  g_clear_pointer (&value, dyno_value_free);
  value = dyno_value_from_plain_json (plain->str, -1, NULL, &error);
  g_assert_null (value);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  assert_contains (error->message, "32 levels");
  g_clear_error (&error);
  g_string_free (plain, TRUE);

  /* The builder itself refuses deeper values, whoever builds them. */
  {
    g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
    gboolean ok = TRUE;

    for (int i = 0; i < 33; i++)
      dyno_value_builder_begin (builder, DYNO_VALUE_L);
    for (int i = 0; i < 33 && ok; i++)
      ok = dyno_value_builder_end (builder, &error);
    g_assert_false (ok);
    g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
    assert_contains (error->message, "32 levels");
  }
}

/* U+0000 is a character like any other: kept, counted, written back as \u0000. */
static void
test_nul (void)
{
  static const char ddb[] = "{\"k\\u0000ey\":{\"S\":\"a\\u0000b\"},"
                            "\"l\":{\"SS\":[\"\\u0000\",\"x\"]}}";
  g_autoptr(DynoItem) item = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *back = NULL;
  const DynoValue *map;
  const char *s;
  gsize len;

  item = dyno_item_from_ddb_json (ddb, -1, &error);
  g_assert_no_error (error);
  map = dyno_item_get_map (item);
  s = dyno_value_get_member_name (map, 0, &len);
  g_assert_cmpmem (s, len, "k\0ey", 4);
  s = dyno_value_get_string (dyno_value_get_child (map, 0), &len);
  g_assert_cmpmem (s, len, "a\0b", 3);
  back = dyno_item_to_ddb_json (item);
  g_assert_cmpstr (back, ==, ddb);
  g_clear_pointer (&back, g_free);

  back = dyno_item_to_plain_json (item);
  assert_contains (back, "\"k\\u0000ey\":\"a\\u0000b\"");
  g_clear_pointer (&back, g_free);

  /* Through a json-glib tree and back (requests travel as trees). */
  {
    g_autoptr(JsonNode) node = dyno_item_to_json_node (item);
    g_autoptr(DynoItem) again = NULL;
    g_autofree char *text = NULL;

    text = dyno_json_node_to_string (node, FALSE);
    g_assert_cmpstr (text, ==, ddb);
    again = dyno_item_from_json_node (node, &error);
    g_assert_no_error (error);
    g_assert_true (dyno_value_equal (dyno_item_get_map (again), map));
  }

  /* Shown in the app as ␀ (display only). */
  {
    gboolean had_nul = FALSE;
    g_autofree char *shown = dyno_string_dup_visible ("a\0b\0", 4, &had_nul);
    g_autofree char *plain = dyno_string_dup_visible ("a\u2400", strlen ("a\u2400"), &had_nul);

    g_assert_cmpstr (shown, ==, "a\u2400b\u2400");
    g_assert_false (had_nul);
    g_assert_cmpstr (plain, ==, "a\u2400");
    g_free (g_steal_pointer (&shown));
    shown = dyno_string_dup_visible ("\0", 1, &had_nul);
    g_assert_true (had_nul);
    g_assert_cmpstr (shown, ==, "\u2400");
  }

  /* A NUL that is not the whole difference: "a" is not "a\u0000b". */
  {
    g_autoptr(DynoValue) a = dyno_value_from_ddb_json ("{\"S\":\"a\"}", -1, NULL);
    g_autoptr(DynoValue) anb = dyno_value_from_ddb_json ("{\"S\":\"a\\u0000b\"}", -1, NULL);

    g_assert_false (dyno_value_equal (a, anb));
  }
}

static void
test_parse_tree (void)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;
  JsonObject *object;
  GString *deep;
  gsize len;

  root = dyno_json_parse ("{\"a\\u0000b\": [\"x\\u0000\", 1, -2.5e3, true, null, {}],"
                          " \"n\": 12345678901234}", -1, &error);
  g_assert_no_error (error);
  object = json_node_get_object (root);
  g_assert_true (json_object_has_member (object, "a\xC0\x80" "b"));
  name = dyno_json_node_dup_string (json_array_get_element (
                                      json_object_get_array_member (object, "a\xC0\x80" "b"), 0),
                                    &len);
  g_assert_cmpmem (name, len, "x\0", 2);
  g_assert_cmpint (json_object_get_int_member (object, "n"), ==, 12345678901234);
  text = dyno_json_node_to_string (root, FALSE);
  g_assert_cmpstr (text, ==, "{\"a\\u0000b\":[\"x\\u0000\",1,-2500.0,true,null,{}],"
                             "\"n\":12345678901234}");
  g_clear_pointer (&text, g_free);
  text = dyno_json_node_to_string (root, TRUE);
  assert_contains (text, "{\n  \"a\\u0000b\": [\n    \"x\\u0000\",");

  /* Errors, not crashes: bad text and hostile depth. */
  g_assert_null (dyno_json_parse ("{\"a\":}", -1, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_JSON);
  assert_contains (error->message, "line 1, column 6");
  g_clear_error (&error);
  g_assert_null (dyno_json_parse ("\"a\xC0\x80\"", -1, &error));
  assert_contains (error->message, "invalid UTF-8");
  g_clear_error (&error);

  deep = g_string_new (NULL);
  for (int i = 0; i < 1000000; i++)
    g_string_append (deep, i % 2 ? "[" : "{\"a\":");
  g_assert_null (dyno_json_parse (deep->str, -1, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_JSON);
  assert_contains (error->message, "nested more than 200 levels deep");
  g_string_free (deep, TRUE);
}

/* One writer, laid out by its options: indent width, and nested containers kept on one line
 * when they end within inline_width. */
static void
test_write_layout (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = dyno_json_parse ("{\"k\": {\"S\": \"x\"}, \"l\": [1, [2, 3.0]],"
                                              " \"long\": {\"a\": \"aaaaaaaaaaaaaaaaaaaa\"}}",
                                              -1, &error);
  DynoJsonLayout wide = { 4, 30 };
  DynoJsonLayout never = { 3, 0 };
  DynoJsonLayout flat = { 0, 30 };
  g_autoptr(GString) out = g_string_new (NULL);

  g_assert_no_error (error);
  dyno_json_write_node_layout (out, root, &wide);
  g_assert_cmpstr (out->str, ==, "{\n"
                                 "    \"k\": {\"S\": \"x\"},\n"
                                 "    \"l\": [1, [2, 3.0]],\n"
                                 "    \"long\": {\n"
                                 "        \"a\": \"aaaaaaaaaaaaaaaaaaaa\"\n"
                                 "    }\n"
                                 "}");
  g_string_truncate (out, 0);
  dyno_json_write_node_layout (out, root, &never);
  g_assert_cmpstr (out->str, ==, "{\n   \"k\": {\n      \"S\": \"x\"\n   },\n"
                                 "   \"l\": [\n      1,\n      [\n         2,\n         3.0\n"
                                 "      ]\n   ],\n"
                                 "   \"long\": {\n      \"a\": \"aaaaaaaaaaaaaaaaaaaa\"\n   }\n}");
  g_string_truncate (out, 0);
  dyno_json_write_node_layout (out, root, &flat);
  g_assert_cmpstr (out->str, ==, "{\"k\":{\"S\":\"x\"},\"l\":[1,[2,3.0]],"
                                 "\"long\":{\"a\":\"aaaaaaaaaaaaaaaaaaaa\"}}");
}

/* ---- DynoJsonReader -------------------------------------------------------------------------- */

static void
test_reader (void)
{
  const char *json = " {\"a\" : 1, \"b\\u0021\":{\"c\":[1, \"two\" ,{\"d\":null}],\"e\":\"x\\\"y\","
                     "\"f\":{},\"g\":[]}, \"item\":{\"k\":{\"S\":\"v\"},\"n\":{\"N\":\"1.50\"}}} ";
  g_autoptr(DynoJsonReader) reader = dyno_json_reader_new (json, -1);
  g_autoptr(DynoItem) item = NULL;
  g_autoptr(DynoItem) expected = dyno_item_from_ddb_json ("{\"k\":{\"S\":\"v\"},\"n\":{\"N\":\"1.5\"}}",
                                                          -1, NULL);
  gsize len = 0;

  g_assert_true (dyno_json_reader_begin_object (reader));
  g_assert_cmpstr (dyno_json_reader_next_member (reader), ==, "a");
  g_assert_true (dyno_json_reader_skip (reader));
  g_assert_cmpstr (dyno_json_reader_next_member (reader), ==, "b!");
  g_assert_cmpint (dyno_json_reader_peek (reader), ==, '{');
  g_assert_true (dyno_json_reader_begin_object (reader));
  g_assert_cmpstr (dyno_json_reader_next_member (reader), ==, "c");
  g_assert_true (dyno_json_reader_begin_array (reader));
  g_assert_true (dyno_json_reader_next_element (reader));
  g_assert_true (dyno_json_reader_skip (reader));
  g_assert_true (dyno_json_reader_next_element (reader));
  g_assert_cmpstr (dyno_json_reader_read_string (reader, &len), ==, "two");
  g_assert_cmpuint (len, ==, 3);
  g_assert_true (dyno_json_reader_next_element (reader));
  g_assert_true (dyno_json_reader_skip (reader));
  g_assert_false (dyno_json_reader_next_element (reader));
  g_assert_cmpstr (dyno_json_reader_next_member (reader), ==, "e");
  g_assert_cmpstr (dyno_json_reader_read_string (reader, NULL), ==, "x\"y");
  g_assert_cmpstr (dyno_json_reader_next_member (reader), ==, "f");
  g_assert_true (dyno_json_reader_begin_object (reader));
  g_assert_null (dyno_json_reader_next_member (reader));
  g_assert_cmpstr (dyno_json_reader_next_member (reader), ==, "g");
  g_assert_true (dyno_json_reader_begin_array (reader));
  g_assert_false (dyno_json_reader_next_element (reader));
  g_assert_null (dyno_json_reader_next_member (reader));
  g_assert_cmpstr (dyno_json_reader_next_member (reader), ==, "item");
  item = dyno_json_reader_read_ddb_item (reader);
  g_assert_nonnull (item);
  g_assert_true (dyno_item_equal (item, expected));
  g_assert_null (dyno_json_reader_next_member (reader));
  g_assert_null (dyno_json_reader_get_error (reader));
  g_assert_true (dyno_json_reader_end (reader));
}

/* Each document, read as one object whose members are skipped (or, for "i", read as an item),
 * fails with a JSON or value error, and the reader stays failed. */
static void
test_reader_errors (void)
{
  static const char *const bad[] = {
    "[1]", "{\"a\":1", "{\"a\":tru}", "{\"a\":1} x", "{\"a\":[1,]}", "{\"a\" 1}", "{a:1}",
    "{\"i\":{\"k\":{\"S\":1}}}", "{\"i\":{\"k\":{\"S\":\"1\"},\"k\":{\"N\":\"2\"}}}", "",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(DynoJsonReader) reader = dyno_json_reader_new (bad[i], -1);
      gboolean ok = dyno_json_reader_begin_object (reader);
      const char *name;

      g_test_message ("%s", bad[i]);
      while (ok && (name = dyno_json_reader_next_member (reader)) != NULL)
        {
          if (strcmp (name, "i") == 0)
            {
              DynoItem *item = dyno_json_reader_read_ddb_item (reader);

              ok = item != NULL;
              g_clear_pointer (&item, dyno_item_unref);
            }
          else
            ok = dyno_json_reader_skip (reader);
        }
      /* a member list that ended on an error ends as one that is complete: the error says */
      if (dyno_json_reader_get_error (reader) != NULL)
        ok = FALSE;
      else if (ok)
        ok = dyno_json_reader_end (reader);
      g_assert_false (ok);
      g_assert_nonnull (dyno_json_reader_get_error (reader));
      g_assert_false (dyno_json_reader_skip (reader));
      g_assert_cmpint (dyno_json_reader_peek (reader), ==, '\0');
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json/ddb/round-trip", test_ddb_round_trip);
  g_test_add_func ("/json/ddb/item-round-trip", test_ddb_item_round_trip);
  g_test_add_func ("/json/ddb/validation", test_ddb_validation);
  g_test_add_func ("/json/reader", test_reader);
  g_test_add_func ("/json/reader-errors", test_reader_errors);
  g_test_add_func ("/json/ddb/error-location", test_ddb_error_location);
  g_test_add_func ("/json/syntax", test_json_syntax);
  g_test_add_func ("/json/write-string", test_write_string);
  g_test_add_func ("/json/binary", test_binary_values);
  g_test_add_func ("/json/plain/read", test_plain_read);
  g_test_add_func ("/json/plain/hints", test_plain_hints);
  g_test_add_func ("/json/plain/errors", test_plain_errors);
  g_test_add_func ("/json/plain/value", test_plain_value);
  g_test_add_func ("/json/node", test_json_node);
  g_test_add_func ("/json/nesting-limit", test_nesting_limit);
  g_test_add_func ("/json/nul", test_nul);
  g_test_add_func ("/json/parse-tree", test_parse_tree);
  g_test_add_func ("/json/write-layout", test_write_layout);

  return g_test_run ();
}
