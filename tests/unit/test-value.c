/* test-value.c: encoded values, the builder, items, ordering, equality and sizes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-value.h"

static DynoValue *
number (const char *text)
{
  g_autoptr(GError) error = NULL;
  DynoValue *v = dyno_value_new_number (text, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (v);
  return v;
}

static DynoValue *
ddb (const char *json)
{
  g_autoptr(GError) error = NULL;
  DynoValue *v = dyno_value_from_ddb_json (json, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (v);
  return v;
}

static void
test_type_names (void)
{
  const char *names[] = { "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      DynoValueType t = DYNO_VALUE_NULL;

      g_assert_cmpstr (dyno_value_type_to_string (i), ==, names[i]);
      g_assert_true (dyno_value_type_from_string (names[i], &t));
      g_assert_cmpint (t, ==, i);
    }
  g_assert_false (dyno_value_type_from_string ("s", NULL));
  g_assert_false (dyno_value_type_from_string ("STRING", NULL));
  g_assert_false (dyno_value_type_from_string ("", NULL));
}

static void
test_scalars (void)
{
  g_autoptr(DynoValue) s = dyno_value_new_string ("héllo", -1);
  g_autoptr(DynoValue) s2 = dyno_value_new_string ("a\0b", 3);
  g_autoptr(DynoValue) empty = dyno_value_new_string ("", 0);
  g_autoptr(DynoValue) n = number ("-0012.50");
  g_autoptr(DynoValue) b = dyno_value_new_binary ((const guint8 *) "\0\xff\x01", 3);
  g_autoptr(DynoValue) t = dyno_value_new_bool (TRUE);
  g_autoptr(DynoValue) f = dyno_value_new_bool (FALSE);
  g_autoptr(DynoValue) null = dyno_value_new_null ();
  gsize len = 0;
  const guint8 *bytes;

  g_assert_cmpint (dyno_value_get_kind (s), ==, DYNO_VALUE_S);
  g_assert_cmpstr (dyno_value_get_string (s, &len), ==, "héllo");
  g_assert_cmpuint (len, ==, 6);
  g_assert_cmpuint (dyno_value_get_n_children (s), ==, 0);

  dyno_value_get_string (s2, &len);
  g_assert_cmpuint (len, ==, 3);
  g_assert_cmpmem (dyno_value_get_string (s2, NULL), 3, "a\0b", 3);

  g_assert_cmpstr (dyno_value_get_string (empty, &len), ==, "");
  g_assert_cmpuint (len, ==, 0);

  /* NULL with length 0 is an empty string, name or binary. */
  {
    g_autoptr(DynoValue) from_null = dyno_value_new_string (NULL, 0);
    g_autoptr(DynoValue) bin_null = dyno_value_new_binary (NULL, 0);
    g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
    g_autoptr(DynoValue) map = NULL;

    g_assert_cmpstr (dyno_value_get_string (from_null, NULL), ==, "");
    dyno_value_get_binary (bin_null, &len);
    g_assert_cmpuint (len, ==, 0);
    dyno_value_builder_begin (builder, DYNO_VALUE_M);
    dyno_value_builder_key (builder, NULL, 0);
    dyno_value_builder_add_string (builder, NULL, 0);
    g_assert_true (dyno_value_builder_end (builder, NULL));
    map = dyno_value_builder_finish (builder);
    g_assert_nonnull (dyno_value_lookup (map, ""));
    g_assert_cmpuint (dyno_value_get_size (map), ==, 3 + 1);
  }

  g_assert_cmpint (dyno_value_get_kind (n), ==, DYNO_VALUE_N);
  g_assert_cmpstr (dyno_value_get_string (n, NULL), ==, "-12.5");

  g_assert_cmpint (dyno_value_get_kind (b), ==, DYNO_VALUE_B);
  bytes = dyno_value_get_binary (b, &len);
  g_assert_cmpmem (bytes, len, "\0\xff\x01", 3);

  g_assert_cmpint (dyno_value_get_kind (t), ==, DYNO_VALUE_BOOL);
  g_assert_true (dyno_value_get_bool (t));
  g_assert_false (dyno_value_get_bool (f));
  g_assert_cmpint (dyno_value_get_kind (null), ==, DYNO_VALUE_NULL);
}

static void
test_bad_number (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoValue) v = dyno_value_new_number ("12abc", -1, &error);

  g_assert_null (v);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  g_assert_cmpstr (error->message, ==,
                   "The parameter cannot be converted to a numeric value: 12abc");

  g_clear_error (&error);
  /* Only the first len bytes are the number. */
  v = dyno_value_new_number ("12abc", 2, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyno_value_get_string (v, NULL), ==, "12");
}

static void
test_builder_nested (void)
{
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoValue) map = NULL;
  g_autoptr(DynoValue) inner = dyno_value_new_string ("copied", -1);
  const DynoValue *list, *child, *sub;
  gsize len;

  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  dyno_value_builder_key (builder, "name", -1);
  dyno_value_builder_add_string (builder, "Ada", -1);
  dyno_value_builder_key (builder, "age", -1);
  g_assert_true (dyno_value_builder_add_number (builder, "36.0", -1, &error));
  dyno_value_builder_key (builder, "list", -1);
  dyno_value_builder_begin (builder, DYNO_VALUE_L);
  dyno_value_builder_add_bool (builder, TRUE);
  dyno_value_builder_add_null (builder);
  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  g_assert_true (dyno_value_builder_end (builder, &error));
  dyno_value_builder_add_value (builder, inner);
  dyno_value_builder_begin (builder, DYNO_VALUE_SS);
  dyno_value_builder_add_string (builder, "x", -1);
  dyno_value_builder_add_string (builder, "y", -1);
  g_assert_true (dyno_value_builder_end (builder, &error));
  g_assert_true (dyno_value_builder_end (builder, &error));
  dyno_value_builder_key (builder, "bin", 3);
  dyno_value_builder_add_binary (builder, (const guint8 *) "\x01\x02", 2);
  g_assert_true (dyno_value_builder_end (builder, &error));
  g_assert_no_error (error);
  map = dyno_value_builder_finish (builder);

  g_assert_cmpint (dyno_value_get_kind (map), ==, DYNO_VALUE_M);
  g_assert_cmpuint (dyno_value_get_n_children (map), ==, 4);
  g_assert_cmpstr (dyno_value_get_member_name (map, 0, &len), ==, "name");
  g_assert_cmpuint (len, ==, 4);
  g_assert_cmpstr (dyno_value_get_member_name (map, 3, NULL), ==, "bin");
  g_assert_cmpstr (dyno_value_get_string (dyno_value_lookup (map, "name"), NULL), ==, "Ada");
  g_assert_cmpstr (dyno_value_get_string (dyno_value_lookup (map, "age"), NULL), ==, "36");
  g_assert_null (dyno_value_lookup (map, "nam"));
  g_assert_null (dyno_value_lookup (map, "names"));

  list = dyno_value_lookup (map, "list");
  g_assert_cmpint (dyno_value_get_kind (list), ==, DYNO_VALUE_L);
  g_assert_cmpuint (dyno_value_get_n_children (list), ==, 5);
  g_assert_true (dyno_value_get_bool (dyno_value_get_child (list, 0)));
  g_assert_cmpint (dyno_value_get_kind (dyno_value_get_child (list, 1)), ==, DYNO_VALUE_NULL);
  child = dyno_value_get_child (list, 2);
  g_assert_cmpint (dyno_value_get_kind (child), ==, DYNO_VALUE_M);
  g_assert_cmpuint (dyno_value_get_n_children (child), ==, 0);
  g_assert_cmpstr (dyno_value_get_string (dyno_value_get_child (list, 3), NULL), ==, "copied");
  sub = dyno_value_get_child (list, 4);
  g_assert_cmpint (dyno_value_get_kind (sub), ==, DYNO_VALUE_SS);
  g_assert_cmpstr (dyno_value_get_string (dyno_value_get_child (sub, 1), NULL), ==, "y");
  g_assert_cmpmem (dyno_value_get_binary (dyno_value_get_child (map, 3), &len), len,
                   "\x01\x02", 2);

  /* The builder is reusable after finish(). */
  dyno_value_builder_add_string (builder, "again", -1);
  {
    g_autoptr(DynoValue) again = dyno_value_builder_finish (builder);
    g_assert_cmpstr (dyno_value_get_string (again, NULL), ==, "again");
  }
}

static void
test_copy (void)
{
  g_autoptr(DynoValue) v = ddb ("{\"M\":{\"a\":{\"L\":[{\"N\":\"1\"},{\"S\":\"x\"}]},"
                                "\"b\":{\"BS\":[\"AQ==\"]}}}");
  g_autoptr(DynoValue) copy = dyno_value_copy (v);
  GValue gv = G_VALUE_INIT;

  g_assert_true (copy != v);
  g_assert_true (dyno_value_equal (v, copy));
  g_assert_cmpuint (dyno_value_get_encoded_size (v), ==, dyno_value_get_encoded_size (copy));
  g_assert_cmpmem (v, dyno_value_get_encoded_size (v), copy,
                   dyno_value_get_encoded_size (copy));

  /* Borrowed children copy on their own. */
  {
    g_autoptr(DynoValue) child = dyno_value_copy (dyno_value_lookup (v, "a"));
    g_autoptr(DynoValue) expected = ddb ("{\"L\":[{\"N\":\"1\"},{\"S\":\"x\"}]}");

    g_assert_true (dyno_value_equal (child, expected));
  }

  /* Boxed GType. */
  g_assert_true (G_TYPE_IS_BOXED (DYNO_TYPE_VALUE));
  g_value_init (&gv, DYNO_TYPE_VALUE);
  g_value_set_boxed (&gv, v);
  g_assert_true (g_value_get_boxed (&gv) != v);
  g_assert_true (dyno_value_equal (g_value_get_boxed (&gv), v));
  g_value_unset (&gv);
  g_assert_cmpstr (g_type_name (DYNO_TYPE_VALUE), ==, "DynoValue");
  g_assert_true (G_TYPE_IS_BOXED (DYNO_TYPE_ITEM));
}

static void
assert_set_error (const char *json,
                  const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoValue) v = dyno_value_from_ddb_json (json, -1, &error);

  g_assert_null (v);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  if (strstr (error->message, message) == NULL)
    g_error ("“%s” does not contain “%s”", error->message, message);
}

static void
test_sets (void)
{
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  g_autoptr(GError) error = NULL;

  /* Empty sets, with DynamoDB's meaning. */
  dyno_value_builder_begin (builder, DYNO_VALUE_SS);
  g_assert_false (dyno_value_builder_end (builder, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  g_assert_cmpstr (error->message, ==, "One or more parameter values were invalid: "
                   "A string set may not be empty");
  g_clear_error (&error);

  /* The failed end() reset the builder. */
  dyno_value_builder_begin (builder, DYNO_VALUE_NS);
  g_assert_false (dyno_value_builder_end (builder, &error));
  g_assert_cmpstr (error->message, ==, "One or more parameter values were invalid: "
                   "A number set may not be empty");
  g_clear_error (&error);

  dyno_value_builder_begin (builder, DYNO_VALUE_BS);
  g_assert_false (dyno_value_builder_end (builder, &error));
  g_assert_cmpstr (error->message, ==, "One or more parameter values were invalid: "
                   "Binary sets should not be empty");
  g_clear_error (&error);

  /* Duplicates by value: 1 and 1.0 are one number. */
  dyno_value_builder_begin (builder, DYNO_VALUE_NS);
  g_assert_true (dyno_value_builder_add_number (builder, "1", -1, NULL));
  g_assert_true (dyno_value_builder_add_number (builder, "2", -1, NULL));
  g_assert_true (dyno_value_builder_add_number (builder, "1.0", -1, NULL));
  g_assert_false (dyno_value_builder_end (builder, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  g_assert_true (strstr (error->message, "contains duplicates") != NULL);
  g_clear_error (&error);

  dyno_value_builder_begin (builder, DYNO_VALUE_SS);
  dyno_value_builder_add_string (builder, "a", -1);
  dyno_value_builder_add_string (builder, "a", -1);
  g_assert_false (dyno_value_builder_end (builder, &error));
  g_assert_cmpstr (error->message, ==, "One or more parameter values were invalid: "
                   "Input collection [a, a] contains duplicates.");
  g_clear_error (&error);

  /* Not duplicates: different bytes, even if they look alike. */
  dyno_value_builder_begin (builder, DYNO_VALUE_SS);
  dyno_value_builder_add_string (builder, "a", -1);
  dyno_value_builder_add_string (builder, "A", -1);
  dyno_value_builder_add_string (builder, "", -1);
  dyno_value_builder_add_string (builder, "a ", -1);
  g_assert_true (dyno_value_builder_end (builder, &error));
  g_assert_no_error (error);
  {
    g_autoptr(DynoValue) set = dyno_value_builder_finish (builder);
    /* Order as given. */
    g_assert_cmpstr (dyno_value_get_string (dyno_value_get_child (set, 1), NULL), ==, "A");
  }

  assert_set_error ("{\"SS\":[]}", "A string set may not be empty");
  assert_set_error ("{\"NS\":[]}", "A number set may not be empty");
  assert_set_error ("{\"BS\":[]}", "Binary sets should not be empty");
  assert_set_error ("{\"NS\":[\"1\",\"1.0\"]}", "contains duplicates");
  assert_set_error ("{\"NS\":[\"100\",\"1e2\"]}", "contains duplicates");
  assert_set_error ("{\"BS\":[\"AQI=\",\"Ag==\",\"AQI=\"]}", "of type BS contains duplicates");
  assert_set_error ("{\"NS\":[\"1\",\"x\"]}",
                    "The parameter cannot be converted to a numeric value: x");

  /* Many members: the sort-based duplicate check. */
  {
    GString *json = g_string_new ("{\"NS\":[");
    g_autoptr(DynoValue) v = NULL;

    for (int i = 0; i < 500; i++)
      g_string_append_printf (json, "%s\"%d\"", i ? "," : "", i);
    g_string_append (json, "]}");
    v = ddb (json->str);
    g_assert_cmpuint (dyno_value_get_n_children (v), ==, 500);
    g_string_truncate (json, json->len - 2);
    g_string_append (json, ",\"250.000\"]}");
    assert_set_error (json->str, "contains duplicates");
    g_string_free (json, TRUE);
  }
}

static void
test_duplicate_names (void)
{
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  g_autoptr(GError) error = NULL;

  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  dyno_value_builder_key (builder, "a", -1);
  dyno_value_builder_add_null (builder);
  dyno_value_builder_key (builder, "a", -1);
  dyno_value_builder_add_null (builder);
  g_assert_false (dyno_value_builder_end (builder, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  g_assert_true (strstr (error->message, "\u201ca\u201d") != NULL);
  g_clear_error (&error);

  /* Every size class of the duplicate check, with the duplicate anywhere. */
  for (guint n = 1; n <= 70; n++)
    for (guint dup_at = 0; dup_at <= n; dup_at++)
      {
        g_autoptr(DynoValue) map = NULL;

        dyno_value_builder_begin (builder, DYNO_VALUE_M);
        for (guint i = 0; i < n; i++)
          {
            g_autofree char *name = g_strdup_printf ("attr%u", i);

            dyno_value_builder_key (builder, name, -1);
            dyno_value_builder_add_bool (builder, TRUE);
          }
        /* dup_at == n adds nothing: the map must be accepted. */
        if (dup_at < n)
          {
            g_autofree char *name = g_strdup_printf ("attr%u", dup_at);

            dyno_value_builder_key (builder, name, -1);
            dyno_value_builder_add_null (builder);
            g_assert_false (dyno_value_builder_end (builder, &error));
            g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
            g_assert_nonnull (strstr (error->message, name));
            g_clear_error (&error);
            continue;
          }
        g_assert_true (dyno_value_builder_end (builder, &error));
        map = dyno_value_builder_finish (builder);
        g_assert_cmpuint (dyno_value_get_n_children (map), ==, n);
      }

  /* Same for sets, including the empty string and byte strings differing only inside. */
  for (guint n = 2; n <= 40; n++)
    {
      dyno_value_builder_begin (builder, DYNO_VALUE_BS);
      for (guint i = 0; i < n; i++)
        {
          guint8 bytes[3] = { 'x', (guint8) i, 'y' };

          dyno_value_builder_add_binary (builder, bytes, i == 0 ? 0 : 3);
        }
      g_assert_true (dyno_value_builder_end (builder, &error));
      g_assert_no_error (error);
      dyno_value_free (dyno_value_builder_finish (builder));

      dyno_value_builder_begin (builder, DYNO_VALUE_BS);
      for (guint i = 0; i < n; i++)
        {
          guint8 bytes[3] = { 'x', (guint8) (i % (n - 1)), 'y' };

          dyno_value_builder_add_binary (builder, bytes, 3);
        }
      g_assert_false (dyno_value_builder_end (builder, &error));
      g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
      g_clear_error (&error);
    }
}

static void
assert_ordered (const char * const *ddb_values,
                gsize               n)
{
  for (gsize i = 0; i < n; i++)
    for (gsize j = 0; j < n; j++)
      {
        g_autoptr(DynoValue) a = ddb (ddb_values[i]);
        g_autoptr(DynoValue) b = ddb (ddb_values[j]);
        int r = dyno_value_compare (a, b);

        if ((i < j && r >= 0) || (i > j && r <= 0) || (i == j && r != 0))
          g_error ("compare(%s, %s) = %d", ddb_values[i], ddb_values[j], r);
        g_assert_true (dyno_value_equal (a, b) == (i == j));
      }
}

static void
test_order_strings (void)
{
  /* UTF-8 byte order, which differs from UTF-16 order for astral-plane characters:
   * U+FF5E and U+FFFD sort before U+1F600 in UTF-8 but after it in UTF-16. */
  const char *values[] = {
    "{\"S\":\"\"}",
    "{\"S\":\"A\"}",
    "{\"S\":\"Z\"}",
    "{\"S\":\"a\"}",
    "{\"S\":\"ab\"}",
    "{\"S\":\"a~\"}",
    "{\"S\":\"a\u00e9\"}",
    "{\"S\":\"a\uff5e\"}",
    "{\"S\":\"a\ufffd\"}",
    "{\"S\":\"a\\ud83d\\ude00\"}",
    "{\"S\":\"z\"}",
    "{\"S\":\"\u00bf\"}",
  };

  assert_ordered (values, G_N_ELEMENTS (values));
}

static void
test_order_numbers (void)
{
  const char *values[] = {
    "{\"N\":\"-1e125\"}",
    "{\"N\":\"-100\"}",
    "{\"N\":\"-1\"}",
    "{\"N\":\"-0.5\"}",
    "{\"N\":\"0\"}",
    "{\"N\":\"0.001\"}",
    "{\"N\":\"9\"}",
    "{\"N\":\"10\"}",
    "{\"N\":\"100\"}",
    "{\"N\":\"1e125\"}",
  };
  g_autoptr(DynoValue) a = ddb ("{\"N\":\"1e2\"}");
  g_autoptr(DynoValue) b = ddb ("{\"N\":\"100.000\"}");
  g_autoptr(DynoValue) z1 = ddb ("{\"N\":\"-0\"}");
  g_autoptr(DynoValue) z2 = ddb ("{\"N\":\"0.0\"}");

  assert_ordered (values, G_N_ELEMENTS (values));
  g_assert_cmpint (dyno_value_compare (a, b), ==, 0);
  g_assert_true (dyno_value_equal (a, b));
  g_assert_cmpuint (dyno_value_hash (a), ==, dyno_value_hash (b));
  g_assert_true (dyno_value_equal (z1, z2));
}

static void
test_order_binary (void)
{
  /* Unsigned bytes: 0x7f < 0x80 < 0xff; a prefix sorts first. */
  const char *values[] = {
    "{\"B\":\"\"}",       /* empty */
    "{\"B\":\"AA==\"}",   /* 00 */
    "{\"B\":\"AAA=\"}",   /* 00 00 */
    "{\"B\":\"AQ==\"}",   /* 01 */
    "{\"B\":\"fw==\"}",   /* 7f */
    "{\"B\":\"gA==\"}",   /* 80 */
    "{\"B\":\"/w==\"}",   /* ff */
  };

  assert_ordered (values, G_N_ELEMENTS (values));
}

static void
test_order_types (void)
{
  const char *values[] = {
    "{\"S\":\"z\"}",
    "{\"N\":\"-5\"}",
    "{\"B\":\"AQ==\"}",
    "{\"BOOL\":false}",
    "{\"BOOL\":true}",
    "{\"NULL\":true}",
    "{\"M\":{}}",
    "{\"M\":{\"a\":{\"N\":\"1\"}}}",
    "{\"M\":{\"a\":{\"N\":\"2\"}}}",
    "{\"M\":{\"b\":{\"N\":\"0\"}}}",
    "{\"L\":[]}",
    "{\"L\":[{\"N\":\"1\"}]}",
    "{\"L\":[{\"N\":\"1\"},{\"N\":\"0\"}]}",
    "{\"L\":[{\"N\":\"2\"}]}",
    "{\"SS\":[\"a\"]}",
    "{\"NS\":[\"1\"]}",
    "{\"BS\":[\"AQ==\"]}",
  };

  assert_ordered (values, G_N_ELEMENTS (values));
}

static void
test_equal_unordered (void)
{
  g_autoptr(DynoValue) m1 = ddb ("{\"M\":{\"a\":{\"N\":\"1\"},\"b\":{\"SS\":[\"x\",\"y\"]}}}");
  g_autoptr(DynoValue) m2 = ddb ("{\"M\":{\"b\":{\"SS\":[\"y\",\"x\"]},\"a\":{\"N\":\"1.0\"}}}");
  g_autoptr(DynoValue) m3 = ddb ("{\"M\":{\"b\":{\"SS\":[\"y\",\"x\"]},\"a\":{\"N\":\"2\"}}}");
  g_autoptr(DynoValue) m4 = ddb ("{\"M\":{\"b\":{\"SS\":[\"y\",\"x\"]},\"c\":{\"N\":\"1\"}}}");
  g_autoptr(DynoValue) l1 = ddb ("{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]}");
  g_autoptr(DynoValue) l2 = ddb ("{\"L\":[{\"N\":\"2\"},{\"N\":\"1\"}]}");
  g_autoptr(DynoValue) s = ddb ("{\"S\":\"6\"}");
  g_autoptr(DynoValue) n = ddb ("{\"N\":\"6\"}");
  g_autoptr(DynoValue) ns = ddb ("{\"NS\":[\"6\"]}");

  g_assert_true (dyno_value_equal (m1, m2));
  g_assert_cmpint (dyno_value_compare (m1, m2), ==, 0);
  g_assert_cmpuint (dyno_value_hash (m1), ==, dyno_value_hash (m2));
  g_assert_false (dyno_value_equal (m1, m3));
  g_assert_false (dyno_value_equal (m1, m4));
  g_assert_cmpint (dyno_value_compare (m1, m3), !=, 0);
  /* Lists keep their order. */
  g_assert_false (dyno_value_equal (l1, l2));
  /* Different types are never equal. */
  g_assert_false (dyno_value_equal (s, n));
  g_assert_false (dyno_value_equal (n, ns));
}

static void
assert_size (const char *ddb_json,
             gsize       expected)
{
  g_autoptr(DynoValue) v = ddb (ddb_json);

  g_assert_cmpuint (dyno_value_get_size (v), ==, expected);
}

static void
test_sizes (void)
{
  assert_size ("{\"S\":\"\"}", 0);
  assert_size ("{\"S\":\"abc\"}", 3);
  assert_size ("{\"S\":\"\u00e9\"}", 2);
  assert_size ("{\"S\":\"\\ud83d\\ude00\"}", 4);
  assert_size ("{\"N\":\"0\"}", 1);
  assert_size ("{\"N\":\"123\"}", 3);
  assert_size ("{\"N\":\"-1.2\"}", 4);
  assert_size ("{\"B\":\"AQID\"}", 3);
  assert_size ("{\"BOOL\":false}", 1);
  assert_size ("{\"NULL\":true}", 1);
  assert_size ("{\"L\":[]}", 3);
  assert_size ("{\"M\":{}}", 3);
  /* 3 + (1 + 3) + (1 + 1) */
  assert_size ("{\"L\":[{\"S\":\"abc\"},{\"NULL\":true}]}", 9);
  /* 3 + (1 + len("k") + 1) */
  assert_size ("{\"M\":{\"k\":{\"BOOL\":true}}}", 6);
  /* Nested: 3 + (1 + 1 + (3 + (1 + 2))) */
  assert_size ("{\"M\":{\"k\":{\"L\":[{\"N\":\"1\"}]}}}", 11);
  /* Sets: the members only. */
  assert_size ("{\"SS\":[\"ab\",\"c\"]}", 3);
  assert_size ("{\"NS\":[\"1\",\"-1\"]}", 5);
  assert_size ("{\"BS\":[\"AQ==\",\"AQI=\"]}", 3);
}

static void
test_item (void)
{
  g_autoptr(GError) error = NULL;
  /* The Developer Guide's example: 11 + 1 + 10 + 1 = 23 bytes. */
  g_autoptr(DynoItem) shirt = dyno_item_from_ddb_json ("{\"shirt-color\":{\"S\":\"R\"},"
                                                       "\"shirt-size\":{\"S\":\"M\"}}",
                                                       -1, &error);
  g_autoptr(DynoItem) same = NULL;
  g_autoptr(DynoItem) other = NULL;
  g_autoptr(DynoItem) empty = NULL;
  g_autoptr(DynoValue) map = NULL;
  GValue gv = G_VALUE_INIT;

  g_assert_no_error (error);
  g_assert_cmpuint (dyno_item_get_size (shirt), ==, 23);
  g_assert_cmpuint (dyno_item_get_n_attributes (shirt), ==, 2);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (shirt, "shirt-size"), NULL), ==,
                   "M");
  g_assert_null (dyno_item_lookup (shirt, "shirt"));
  g_assert_cmpint (dyno_value_get_kind (dyno_item_get_map (shirt)), ==, DYNO_VALUE_M);
  g_assert_cmpuint (dyno_item_get_memory_size (shirt), >=,
                    dyno_value_get_encoded_size (dyno_item_get_map (shirt)));

  map = ddb ("{\"M\":{\"shirt-size\":{\"S\":\"M\"},\"shirt-color\":{\"S\":\"R\"}}}");
  same = dyno_item_new_from_map (map);
  g_assert_true (dyno_item_equal (shirt, same));
  other = dyno_item_new_take (dyno_value_copy (map));
  g_assert_true (dyno_item_equal (other, same));

  empty = dyno_item_from_ddb_json ("{}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dyno_item_get_size (empty), ==, 0);
  g_assert_cmpuint (dyno_item_get_n_attributes (empty), ==, 0);
  g_assert_false (dyno_item_equal (empty, shirt));

  /* Refcounting through GValue. */
  g_value_init (&gv, DYNO_TYPE_ITEM);
  g_value_set_boxed (&gv, shirt);
  g_assert_true (g_value_get_boxed (&gv) == shirt);
  g_value_unset (&gv);
  g_assert_cmpuint (dyno_item_get_size (shirt), ==, 23);

  dyno_item_unref (dyno_item_ref (shirt));
}

static void
test_item_ordered (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = dyno_item_from_ddb_json ("{\"zeta\":{\"N\":\"1\"},"
                                                      "\"sk\":{\"S\":\"b\"},"
                                                      "\"Beta\":{\"S\":\"x\"},"
                                                      "\"a10\":{\"BOOL\":true},"
                                                      "\"pk\":{\"S\":\"a\"},"
                                                      "\"a2\":{\"NULL\":true},"
                                                      "\"alpha\":{\"M\":{\"y\":{\"S\":\"1\"},"
                                                      "\"x\":{\"S\":\"2\"}}}}",
                                                      -1, &error);
  const char *keys[] = { "pk", "sk", NULL };
  const char *expected[] = { "pk", "sk", "a2", "a10", "alpha", "Beta", "zeta" };
  g_autoptr(DynoItem) ordered = NULL;
  g_autoptr(DynoItem) no_keys = NULL;
  const DynoValue *map;

  g_assert_no_error (error);
  ordered = dyno_item_new_ordered (item, keys);
  g_assert_true (dyno_item_equal (item, ordered));
  map = dyno_item_get_map (ordered);
  g_assert_cmpuint (dyno_value_get_n_children (map), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpstr (dyno_value_get_member_name (map, i, NULL), ==, expected[i]);
  /* nested maps are values: kept as they were */
  g_assert_cmpstr (dyno_value_get_member_name (dyno_item_lookup (ordered, "alpha"), 0, NULL), ==,
                   "y");

  /* without keys named, the natural order throughout */
  no_keys = dyno_item_new_ordered (item, NULL);
  g_assert_cmpstr (dyno_value_get_member_name (dyno_item_get_map (no_keys), 0, NULL), ==, "a2");
  g_assert_cmpstr (dyno_value_get_member_name (dyno_item_get_map (no_keys), 6, NULL), ==, "zeta");
}

static void
test_item_sizes (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = NULL;
  GString *json = g_string_new ("{\"pk\":{\"S\":\"");

  /* An S attribute of 409,598 bytes + "pk" = the 400 KB limit exactly. */
  for (int i = 0; i < 409598; i++)
    g_string_append_c (json, 'x');
  g_string_append (json, "\"}}");
  item = dyno_item_from_ddb_json (json->str, json->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dyno_item_get_size (item), ==, 409600);
  g_string_free (json, TRUE);
  g_clear_pointer (&item, dyno_item_unref);

  /* Name lengths are UTF-8 bytes; nested names count too. */
  item = dyno_item_from_ddb_json ("{\"\u00e9t\u00e9\":{\"M\":{\"\u00e0\":{\"N\":\"-1\"}}},"
                                  "\"n\":{\"NS\":[\"1\",\"12\"]}}", -1, &error);
  g_assert_no_error (error);
  /* 5 + (3 + 1 + 2 + 3) + 1 + (2 + 2) */
  g_assert_cmpuint (dyno_item_get_size (item), ==, 19);
}

static void
test_length_boundaries (void)
{
  /* Lengths are stored in one byte up to 254 and in five bytes above: check both sides. */
  for (gsize len = 250; len <= 260; len++)
    {
      g_autofree char *text = g_malloc (len + 1);
      g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoValue) map = NULL;
      g_autoptr(DynoValue) copy = NULL;
      g_autoptr(DynoValue) s = NULL;
      g_autoptr(DynoValue) b = NULL;
      g_autofree char *json = NULL;
      g_autoptr(DynoValue) back = NULL;
      const DynoValue *child;
      gsize out_len;

      for (gsize i = 0; i < len; i++)
        text[i] = 'a' + (i % 26);
      text[len] = '\0';

      s = dyno_value_new_string (text, len);
      g_assert_cmpstr (dyno_value_get_string (s, &out_len), ==, text);
      g_assert_cmpuint (out_len, ==, len);
      g_assert_cmpuint (dyno_value_get_size (s), ==, len);
      b = dyno_value_new_binary ((const guint8 *) text, len);
      g_assert_cmpmem (dyno_value_get_binary (b, &out_len), out_len, text, len);

      dyno_value_builder_begin (builder, DYNO_VALUE_M);
      dyno_value_builder_key (builder, text, len);
      dyno_value_builder_add_string (builder, text, len);
      dyno_value_builder_key (builder, "b", 1);
      dyno_value_builder_add_binary (builder, (const guint8 *) text, len);
      dyno_value_builder_key (builder, "ss", 2);
      dyno_value_builder_begin (builder, DYNO_VALUE_SS);
      dyno_value_builder_add_string (builder, text, len);
      dyno_value_builder_add_string (builder, text, len - 1);
      g_assert_true (dyno_value_builder_end (builder, &error));
      g_assert_true (dyno_value_builder_end (builder, &error));
      g_assert_no_error (error);
      map = dyno_value_builder_finish (builder);

      g_assert_cmpstr (dyno_value_get_member_name (map, 0, &out_len), ==, text);
      g_assert_cmpuint (out_len, ==, len);
      child = dyno_value_lookup (map, text);
      g_assert_nonnull (child);
      g_assert_cmpstr (dyno_value_get_string (child, NULL), ==, text);
      g_assert_true (dyno_value_lookup (map, "b") == dyno_value_get_child (map, 1));
      g_assert_cmpuint (dyno_value_get_n_children (dyno_value_lookup (map, "ss")), ==, 2);
      /* 3 + (1 + len + len) + (1 + 1 + len) + (1 + 2 + len + len - 1) */
      g_assert_cmpuint (dyno_value_get_size (map), ==, 3 + 1 + 2 * len + 2 + len +
                        3 + 2 * len - 1);

      copy = dyno_value_copy (map);
      g_assert_true (dyno_value_equal (copy, map));
      json = dyno_value_to_ddb_json (map);
      back = dyno_value_from_ddb_json (json, -1, &error);
      g_assert_no_error (error);
      g_assert_true (dyno_value_equal (back, map));

      /* Duplicates across the boundary are found. */
      dyno_value_builder_begin (builder, DYNO_VALUE_SS);
      dyno_value_builder_add_string (builder, text, len);
      dyno_value_builder_add_string (builder, "x", 1);
      dyno_value_builder_add_string (builder, text, len);
      g_assert_false (dyno_value_builder_end (builder, &error));
      g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
    }
}

typedef struct {
  DynoItem *item;
  guint     sum;
} ReaderData;

static gpointer
reader_thread (gpointer user_data)
{
  ReaderData *data = user_data;
  guint sum = 0;

  for (int i = 0; i < 2000; i++)
    {
      const DynoValue *v = dyno_item_lookup (data->item, "list");
      g_autoptr(DynoItem) ref = dyno_item_ref (data->item);

      for (guint j = 0; j < dyno_value_get_n_children (v); j++)
        sum += dyno_value_hash (dyno_value_get_child (v, j));
      sum += (guint) dyno_item_get_size (ref);
    }
  data->sum = sum;
  return NULL;
}

static void
test_item_threads (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = dyno_item_from_ddb_json (
    "{\"list\":{\"L\":[{\"S\":\"a\"},{\"N\":\"2\"},{\"M\":{\"x\":{\"BOOL\":true}}}]}}", -1,
    &error);
  ReaderData data[4];
  GThread *threads[4];

  g_assert_no_error (error);
  for (int i = 0; i < 4; i++)
    {
      data[i].item = item;
      data[i].sum = 0;
      threads[i] = g_thread_new ("reader", reader_thread, &data[i]);
    }
  for (int i = 0; i < 4; i++)
    g_thread_join (threads[i]);
  for (int i = 1; i < 4; i++)
    g_assert_cmpuint (data[i].sum, ==, data[0].sum);
}

/* Key values as a person types them in a field. */
static void
test_key_text (void)
{
  static const struct {
    const char    *text;
    DynoValueType  type;
    const char    *ddb_json;   /* NULL: refused */
    const char    *back;       /* the text it shows again */
  } cases[] = {
    { "USER#1", DYNO_VALUE_S, "{\"S\":\"USER#1\"}", "USER#1" },
    { "", DYNO_VALUE_S, "{\"S\":\"\"}", "" },
    { "1e2", DYNO_VALUE_N, "{\"N\":\"100\"}", "100" },
    { "-0.50", DYNO_VALUE_N, "{\"N\":\"-0.5\"}", "-0.5" },
    { "twelve", DYNO_VALUE_N, NULL, NULL },
    { "AAEC", DYNO_VALUE_B, "{\"B\":\"AAEC\"}", "AAEC" },
    { "", DYNO_VALUE_B, "{\"B\":\"\"}", "" },
    { "not base64!", DYNO_VALUE_B, NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoValue) value = dyno_value_new_from_key_text (cases[i].text, cases[i].type,
                                                                 &error);
      g_autofree char *json = NULL;
      g_autofree char *back = NULL;

      if (cases[i].ddb_json == NULL)
        {
          g_assert_null (value);
          g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
          continue;
        }
      g_assert_no_error (error);
      json = dyno_value_to_ddb_json (value);
      g_assert_cmpstr (json, ==, cases[i].ddb_json);
      back = dyno_value_to_key_text (value);
      g_assert_cmpstr (back, ==, cases[i].back);
    }

  {
    g_autoptr(DynoValue) flag = dyno_value_new_bool (TRUE);

    g_assert_null (dyno_value_to_key_text (flag));
  }
}

/* Containers are narrow (2-byte sizes) up to 64 KiB and wide above: both read the same, at
 * every size around the boundary, nested either way, and after a copy and a JSON round trip. */
static void
test_container_widths (void)
{
  for (gsize k = 65480; k < 65560; k++)
    {
      g_autofree char *text = g_malloc (k + 1);
      g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
      g_autoptr(DynoValue) value = NULL;
      g_autoptr(DynoValue) copy = NULL;
      g_autoptr(DynoValue) back = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *json = NULL;
      const DynoValue *inner, *list;
      const char *got;
      gsize len = 0;

      memset (text, 'a' + (char) (k % 26), k);
      text[k] = '\0';
      dyno_value_builder_begin (builder, DYNO_VALUE_M);
      dyno_value_builder_key (builder, "inner", -1);
      dyno_value_builder_begin (builder, DYNO_VALUE_M);       /* narrow or wide by k */
      dyno_value_builder_key (builder, "s", -1);
      dyno_value_builder_add_string (builder, text, k);
      dyno_value_builder_key (builder, "n", -1);
      g_assert_true (dyno_value_builder_add_number (builder, "42", -1, NULL));
      g_assert_true (dyno_value_builder_end (builder, NULL));
      dyno_value_builder_key (builder, "list", -1);
      dyno_value_builder_begin (builder, DYNO_VALUE_L);       /* always narrow */
      dyno_value_builder_add_bool (builder, TRUE);
      dyno_value_builder_add_string (builder, "x", 1);
      g_assert_true (dyno_value_builder_end (builder, NULL));
      g_assert_true (dyno_value_builder_end (builder, NULL));  /* wide: it holds inner */
      value = dyno_value_builder_finish (builder);

      g_assert_cmpuint (dyno_value_get_n_children (value), ==, 2);
      inner = dyno_value_lookup (value, "inner");
      list = dyno_value_lookup (value, "list");
      g_assert_nonnull (inner);
      g_assert_nonnull (list);
      g_assert_cmpuint (dyno_value_get_n_children (inner), ==, 2);
      got = dyno_value_get_string (dyno_value_lookup (inner, "s"), &len);
      g_assert_cmpuint (len, ==, k);
      g_assert_true (memcmp (got, text, k) == 0 && got[k] == '\0');
      g_assert_cmpstr (dyno_value_get_string (dyno_value_lookup (inner, "n"), NULL), ==, "42");
      g_assert_cmpuint (dyno_value_get_n_children (list), ==, 2);
      g_assert_true (dyno_value_get_bool (dyno_value_get_child (list, 0)));
      g_assert_cmpstr (dyno_value_get_string (dyno_value_get_child (list, 1), NULL), ==, "x");
      g_assert_cmpstr (dyno_value_get_member_name (value, 1, NULL), ==,
                       g_strcmp0 (dyno_value_get_member_name (value, 0, NULL), "inner") == 0
                       ? "list" : "inner");
      /* a narrow container: a 6-byte header and 2-byte offsets, while the whole fits in
       * 65535 bytes; a wide one: 10 and 4 */
      g_assert_cmpuint (dyno_value_get_encoded_size (inner), ==,
                        (10 + 18 + k <= 65535 ? 6 + 2 * 2 : 10 + 2 * 4)
                        + (1 + 1 + 1) /* "s" record */ + (1 + 5 + k + 1) /* S */
                        + (1 + 1 + 1) /* "n" record */ + (1 + 1 + 2 + 1) /* N */);

      copy = dyno_value_copy (value);
      g_assert_true (dyno_value_equal (copy, value));
      json = dyno_value_to_ddb_json (value);
      back = dyno_value_from_ddb_json (json, -1, &error);
      g_assert_no_error (error);
      g_assert_true (dyno_value_equal (back, value));
      g_assert_cmpuint (dyno_value_get_size (back), ==, dyno_value_get_size (value));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/value/type-names", test_type_names);
  g_test_add_func ("/value/scalars", test_scalars);
  g_test_add_func ("/value/bad-number", test_bad_number);
  g_test_add_func ("/value/builder-nested", test_builder_nested);
  g_test_add_func ("/value/copy", test_copy);
  g_test_add_func ("/value/sets", test_sets);
  g_test_add_func ("/value/duplicate-names", test_duplicate_names);
  g_test_add_func ("/value/order/strings", test_order_strings);
  g_test_add_func ("/value/order/numbers", test_order_numbers);
  g_test_add_func ("/value/order/binary", test_order_binary);
  g_test_add_func ("/value/order/types", test_order_types);
  g_test_add_func ("/value/equal-unordered", test_equal_unordered);
  g_test_add_func ("/value/sizes", test_sizes);
  g_test_add_func ("/value/item", test_item);
  g_test_add_func ("/value/item-ordered", test_item_ordered);
  g_test_add_func ("/value/item-sizes", test_item_sizes);
  g_test_add_func ("/value/item-threads", test_item_threads);
  g_test_add_func ("/value/length-boundaries", test_length_boundaries);
  g_test_add_func ("/value/key-text", test_key_text);
  g_test_add_func ("/value/container-widths", test_container_widths);

  return g_test_run ();
}
