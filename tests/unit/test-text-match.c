/* test-text-match.c: the filter of loaded items, one item at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-json.h"
#include "dyno-text-match.h"

static DynoItem *
item (const char *json)
{
  g_autoptr(GError) error = NULL;
  DynoItem *result = dyno_item_from_ddb_json (json, -1, &error);

  g_assert_no_error (error);
  return result;
}

static gboolean
matches (const char *text,
         const char *json)
{
  g_autoptr(DynoTextMatcher) matcher = dyno_text_matcher_new (text);
  g_autoptr(DynoItem) it = item (json);

  g_assert_nonnull (matcher);
  return dyno_text_matcher_match_item (matcher, it);
}

static void
test_empty (void)
{
  g_assert_null (dyno_text_matcher_new (""));
}

static void
test_ascii (void)
{
  const char *order = "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"ORDER#o_1001\"},"
                      "\"total\":{\"N\":\"125.5\"},\"status\":{\"S\":\"Shipped\"}}";

  /* anywhere in a value, case ignored both ways */
  g_assert_true (matches ("acme", order));
  g_assert_true (matches ("ACME", order));
  g_assert_true (matches ("order#O_10", order));
  g_assert_true (matches ("shipped", order));
  g_assert_true (matches ("d", order));
  /* numbers as their text */
  g_assert_true (matches ("25.5", order));
  /* the whole value, and not one byte more */
  g_assert_true (matches ("TENANT#acme", order));
  g_assert_false (matches ("TENANT#acmex", order));
  /* attribute names are not searched */
  g_assert_false (matches ("status", order));
  g_assert_false (matches ("total", order));
  /* nor across two values */
  g_assert_false (matches ("acmeORDER", order));
  g_assert_false (matches ("zeta", order));
}

static void
test_nested (void)
{
  const char *nested = "{\"pk\":{\"S\":\"a\"},\"m\":{\"M\":{\"l\":{\"L\":[{\"BOOL\":true},"
                       "{\"M\":{\"deep\":{\"S\":\"needle in the hay\"}}}]}}},"
                       "\"tags\":{\"SS\":[\"red\",\"green\"]},\"ns\":{\"NS\":[\"42\",\"7\"]},"
                       "\"b\":{\"B\":\"aGVsbG8=\"},\"nothing\":{\"NULL\":true},"
                       "\"yes\":{\"BOOL\":true}}";

  g_assert_true (matches ("NEEDLE", nested));
  g_assert_true (matches ("green", nested));
  g_assert_true (matches ("42", nested));
  /* binary (it is "hello"), booleans and nulls are not text */
  g_assert_false (matches ("hello", nested));
  g_assert_false (matches ("aGVs", nested));
  g_assert_false (matches ("true", nested));
  g_assert_false (matches ("deep", nested));
}

static void
test_unicode (void)
{
  const char *city = "{\"pk\":{\"S\":\"CITY#São Paulo\"},\"name\":{\"S\":\"STRAßE\"},"
                     "\"greek\":{\"S\":\"ΑΘΉΝΑ\"},\"emoji\":{\"S\":\"rocket 🚀 launch\"}}";

  g_assert_true (matches ("são", city));
  g_assert_true (matches ("SÃO", city));
  /* composed or decomposed, the same letter */
  g_assert_true (matches ("sa\xcc\x83o", city));
  /* folding, not lowering: ß is ss */
  g_assert_true (matches ("strasse", city));
  g_assert_true (matches ("straße", city));
  g_assert_true (matches ("αθήνα", city));
  /* the Kelvin sign folds to k, the ligature ﬁ to fi: found by ASCII texts too */
  g_assert_true (matches ("5 k", "{\"t\":{\"S\":\"at 5 \u212a\"}}"));
  g_assert_true (matches ("FIRE", "{\"t\":{\"S\":\"\ufb01re\"}}"));
  g_assert_true (matches ("🚀", city));
  g_assert_false (matches ("sào", city));
  g_assert_false (matches ("🚁", city));
}

static void
test_value (void)
{
  g_autoptr(DynoTextMatcher) matcher = dyno_text_matcher_new ("Ab");
  g_autoptr(DynoValue) s = dyno_value_new_string ("xxaBxx", -1);
  g_autoptr(DynoValue) b = dyno_value_new_binary ((const guint8 *) "ab", 2);
  /* a U+0000 inside a string: the text before and after it are both searched */
  g_autoptr(DynoValue) nul = dyno_value_new_string ("x\0ab", 4);

  g_assert_cmpstr (dyno_text_matcher_get_text (matcher), ==, "Ab");
  g_assert_true (dyno_text_matcher_match_value (matcher, s));
  g_assert_false (dyno_text_matcher_match_value (matcher, b));
  g_assert_true (dyno_text_matcher_match_value (matcher, nul));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/text-match/empty", test_empty);
  g_test_add_func ("/text-match/ascii", test_ascii);
  g_test_add_func ("/text-match/nested", test_nested);
  g_test_add_func ("/text-match/unicode", test_unicode);
  g_test_add_func ("/text-match/value", test_value);

  return g_test_run ();
}
