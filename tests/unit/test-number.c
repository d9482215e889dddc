/* test-number.c: exact decimals with DynamoDB's precision, range and canonical form
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-number.h"

static char *
repeat (char c,
        gsize n)
{
  char *s = g_malloc (n + 1);

  memset (s, c, n);
  s[n] = '\0';
  return s;
}

static void
assert_canonical (const char *in,
                  const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = dyno_number_canonicalize (in, -1, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, expected);
  g_assert_true (dyno_number_is_canonical (out));
}

static void
assert_rejected (const char *in,
                 const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = dyno_number_canonicalize (in, -1, &error);

  g_assert_null (out);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_canonical_forms (void)
{
  assert_canonical ("1e2", "100");
  assert_canonical ("1E+2", "100");
  assert_canonical ("-0.50", "-0.5");
  assert_canonical ("0", "0");
  assert_canonical ("-0", "0");
  assert_canonical ("+0.000", "0");
  assert_canonical ("0e999999999999999999", "0");
  assert_canonical ("007", "7");
  assert_canonical ("+7", "7");
  assert_canonical ("7.", "7");
  assert_canonical (".5", "0.5");
  assert_canonical ("-.5", "-0.5");
  assert_canonical ("12.3400", "12.34");
  assert_canonical ("1.5e1", "15");
  assert_canonical ("1.5e-1", "0.15");
  assert_canonical ("123e-2", "1.23");
  assert_canonical ("123e-5", "0.00123");
  assert_canonical ("100e-2", "1");
  assert_canonical ("0.00012e4", "1.2");

  /* dynamodb-facts.md §3.2, from tests run against live DynamoDB. */
  assert_canonical ("0000012345678901234567890123456789012345678",
                    "12345678901234567890123456789012345678");
  assert_canonical ("-00001.23456789012345678901234567890123456780000",
                    "-1.2345678901234567890123456789012345678");
  {
    g_autofree char *nines = repeat ('9', 38);
    g_autofree char *zeros = repeat ('0', 88);
    g_autofree char *expected = g_strconcat (nines, zeros, NULL);

    g_assert_cmpuint (strlen (expected), ==, 126);
    assert_canonical ("0009.99999999999999999999999999999999999990000e125", expected);
  }
  {
    g_autofree char *zeros = repeat ('0', 129);
    g_autofree char *expected = g_strconcat ("0.", zeros, "1", NULL);

    assert_canonical ("0001.000e-130", expected);
  }
}

static void
test_precision (void)
{
  g_autofree char *digits38 = g_strdup ("12345678901234567890123456789012345678");
  g_autofree char *digits39 = g_strconcat (digits38, "9", NULL);
  g_autofree char *zeros = repeat ('0', 125);
  g_autofree char *big_int = g_strconcat ("1", zeros, NULL);
  g_autofree char *with_point = g_strconcat ("1234567890123456789.", "0123456789012345678",
                                             NULL);

  assert_canonical (digits38, digits38);
  assert_rejected (digits39, "Attempting to store more than 38 significant digits in a Number");
  assert_rejected ("1.00000000000000000000000000000000000001",
                   "Attempting to store more than 38 significant digits in a Number");
  assert_rejected ("-0.000123456789012345678901234567890123456789",
                   "Attempting to store more than 38 significant digits in a Number");
  /* Trailing zeros of an integer are not significant digits. */
  assert_canonical (big_int, big_int);
  /* Nor are leading or trailing zeros of a fraction. */
  assert_canonical ("0.12345678901234567890123456789012345678000",
                    "0.12345678901234567890123456789012345678");
  assert_canonical (with_point, "1234567890123456789.0123456789012345678");
}

static void
test_range (void)
{
  g_autofree char *zeros126 = repeat ('0', 126);
  g_autofree char *too_big = g_strconcat ("1", zeros126, NULL);

  {
    g_autofree char *nines = repeat ('9', 38);
    g_autofree char *zeros = repeat ('0', 88);
    g_autofree char *max = g_strconcat (nines, zeros, NULL);
    g_autofree char *min = g_strconcat ("-", nines, zeros, NULL);

    assert_canonical ("9.9999999999999999999999999999999999999E+125", max);
    assert_canonical ("-9.9999999999999999999999999999999999999E+125", min);
  }
  assert_rejected ("1e126", "Number overflow. Attempting to store a number with magnitude "
                   "larger than supported range");
  assert_rejected ("-1e126", "Number overflow. Attempting to store a number with magnitude "
                   "larger than supported range");
  assert_rejected (too_big, "Number overflow. Attempting to store a number with magnitude "
                   "larger than supported range");
  assert_rejected ("1e9999999999999999999999", "Number overflow. Attempting to store a number "
                   "with magnitude larger than supported range");
  assert_rejected ("1e-131", "Number underflow. Attempting to store a number with magnitude "
                   "smaller than supported range");
  assert_rejected ("-0.9e-130", "Number underflow. Attempting to store a number with magnitude "
                   "smaller than supported range");
  assert_rejected ("1e-9999999999999999999999", "Number underflow. Attempting to store a number "
                   "with magnitude smaller than supported range");
  {
    g_autofree char *zeros = repeat ('0', 129);
    g_autofree char *expected = g_strconcat ("-0.", zeros, "1", NULL);

    assert_canonical ("-1e-130", expected);
  }
}

static void
test_not_numbers (void)
{
  const char *bad[] = {
    "abc", "1a", "--1", "+-1", "1e", "1e+", "e5", ".", "-", "+", "1.2.3", " 1", "1 ",
    "0x10", "Infinity", "NaN", "1,5", "1e5.5", "٣",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *message = g_strdup_printf ("The parameter cannot be converted to a "
                                                  "numeric value: %s", bad[i]);
      assert_rejected (bad[i], message);
    }

  assert_rejected ("", "The parameter cannot be converted to a numeric value");

  /* Messages stay short and valid UTF-8 whatever the input. */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *long_text = repeat ('x', 5000);
    g_autofree char *out = dyno_number_canonicalize (long_text, -1, &error);

    g_assert_null (out);
    g_assert_cmpuint (strlen (error->message), <, 300);
    g_assert_true (g_str_has_suffix (error->message, "\u2026"));
    g_clear_error (&error);

    out = dyno_number_canonicalize ("1\xff\xfe", -1, &error);
    g_assert_null (out);
    g_assert_true (g_utf8_validate (error->message, -1, NULL));
  }
}

static void
test_is_canonical (void)
{
  g_assert_true (dyno_number_is_canonical ("0"));
  g_assert_true (dyno_number_is_canonical ("-1.5"));
  g_assert_true (dyno_number_is_canonical ("100"));
  g_assert_false (dyno_number_is_canonical ("1e2"));
  g_assert_false (dyno_number_is_canonical ("-0"));
  g_assert_false (dyno_number_is_canonical ("1.50"));
  g_assert_false (dyno_number_is_canonical ("01"));
  g_assert_false (dyno_number_is_canonical ("+1"));
  g_assert_false (dyno_number_is_canonical (".5"));
  g_assert_false (dyno_number_is_canonical ("x"));
}

static void
test_compare (void)
{
  /* Ascending, as DynamoDB sorts N keys. */
  const char *ordered[] = {
    "-1e125", "-100", "-10", "-9", "-1", "-0.5", "-0.05", "-1e-130", "0", "1e-130", "0.001",
    "0.01", "0.5", "0.51", "1", "1.0000001", "9", "10", "10.5", "11", "99", "100", "1e125",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (ordered); i++)
    for (gsize j = 0; j < G_N_ELEMENTS (ordered); j++)
      {
        g_autofree char *a = dyno_number_canonicalize (ordered[i], -1, NULL);
        g_autofree char *b = dyno_number_canonicalize (ordered[j], -1, NULL);
        int r = dyno_number_compare (a, b);

        g_assert_nonnull (a);
        g_assert_nonnull (b);
        if (i < j)
          g_assert_cmpint (r, <, 0);
        else if (i > j)
          g_assert_cmpint (r, >, 0);
        else
          g_assert_cmpint (r, ==, 0);
      }
}

static void
assert_sum (const char *a,
            const char *b,
            const char *sum,
            const char *difference)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *s = dyno_number_add (a, b, &error);
  g_autofree char *d = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (s, ==, sum);
  d = dyno_number_subtract (a, b, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (d, ==, difference);
}

static void
test_arithmetic (void)
{
  assert_sum ("1", "2", "3", "-1");
  assert_sum ("0.1", "0.2", "0.3", "-0.1");
  assert_sum ("-5", "5", "0", "-10");
  assert_sum ("5", "5", "10", "0");
  assert_sum ("0", "0", "0", "0");
  assert_sum ("0", "-7.25", "-7.25", "7.25");
  assert_sum ("999", "1", "1000", "998");
  assert_sum ("1.5", "-0.25", "1.25", "1.75");
  assert_sum ("100", "0.001", "100.001", "99.999");
  assert_sum ("-0.001", "-100", "-100.001", "99.999");
  /* 2^53 + 1 survives, as it would not through a double. */
  assert_sum ("9007199254740992", "1", "9007199254740993", "9007199254740991");
  assert_sum ("12345678901234567890123456789012345677", "1",
              "12345678901234567890123456789012345678",
              "12345678901234567890123456789012345676");
  assert_sum ("1e125", "1e125", "200000000000000000000000000000000000000000000000000000000000"
              "000000000000000000000000000000000000000000000000000000000000000000", "0");

  {
    g_autoptr(GError) error = NULL;
    g_autofree char *r = dyno_number_add ("99999999999999999999999999999999999999", "0.1",
                                          &error);

    g_assert_null (r);
    g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
    g_assert_cmpstr (error->message, ==,
                     "Attempting to store more than 38 significant digits in a Number");
  }
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *r = dyno_number_add ("9.9999999999999999999999999999999999999E+125",
                                          "1e88", &error);

    g_assert_null (r);
    g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
    g_assert_true (g_str_has_prefix (error->message, "Number overflow."));
  }
  {
    g_autoptr(GError) error = NULL;
    /* Out-of-range operands are refused before any digits are aligned. */
    g_autofree char *r = dyno_number_add ("1e999999999999", "1", &error);

    g_assert_null (r);
    g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
    g_assert_true (g_str_has_prefix (error->message, "Number overflow."));
    g_clear_error (&error);
    r = dyno_number_subtract ("1", "x", &error);
    g_assert_null (r);
    g_assert_cmpstr (error->message, ==, "The parameter cannot be converted to a numeric "
                     "value: x");
  }
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *r = dyno_number_add ("1e125", "1e-130", &error);

    /* 256 digits of precision would be needed. */
    g_assert_null (r);
    g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  }
}

static void
test_size (void)
{
  /* 1 + ceil(d/2) + (d even and first-digit exponent even ? 1 : 0) + (negative ? 1 : 0),
   * at most 21 */
  g_assert_cmpuint (dyno_number_get_size ("0"), ==, 1);
  g_assert_cmpuint (dyno_number_get_size ("1"), ==, 2);
  g_assert_cmpuint (dyno_number_get_size ("10"), ==, 2);
  g_assert_cmpuint (dyno_number_get_size ("12"), ==, 2);
  g_assert_cmpuint (dyno_number_get_size ("1.2"), ==, 3);
  g_assert_cmpuint (dyno_number_get_size ("123"), ==, 3);
  g_assert_cmpuint (dyno_number_get_size ("0.12"), ==, 2);
  g_assert_cmpuint (dyno_number_get_size ("0.012"), ==, 3);
  g_assert_cmpuint (dyno_number_get_size ("-1"), ==, 3);
  g_assert_cmpuint (dyno_number_get_size ("-1.2"), ==, 4);
  g_assert_cmpuint (dyno_number_get_size ("12345678901234567890123456789012345678"), ==, 20);
  g_assert_cmpuint (dyno_number_get_size ("1.2345678901234567890123456789012345678"), ==, 21);
  /* at most 21 bytes: a full negative mantissa has no terminator (DynamoDB Local 3.3.1's item
   * size boundary) */
  g_assert_cmpuint (dyno_number_get_size ("-1.2345678901234567890123456789012345678"), ==, 21);
  g_assert_cmpuint (dyno_number_get_size ("-12.345678901234567890123456789012345678"), ==, 21);
  g_assert_cmpuint (dyno_number_get_size ("-1.234567890123456789012345678901234567"), ==, 21);
  {
    g_autofree char *zeros = repeat ('0', 125);
    g_autofree char *big = g_strconcat ("1", zeros, NULL);

    /* Trailing zeros cost nothing. */
    g_assert_cmpuint (dyno_number_get_size (big), ==, 2);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/number/canonical", test_canonical_forms);
  g_test_add_func ("/number/precision", test_precision);
  g_test_add_func ("/number/range", test_range);
  g_test_add_func ("/number/not-numbers", test_not_numbers);
  g_test_add_func ("/number/is-canonical", test_is_canonical);
  g_test_add_func ("/number/compare", test_compare);
  g_test_add_func ("/number/arithmetic", test_arithmetic);
  g_test_add_func ("/number/size", test_size);

  return g_test_run ();
}
