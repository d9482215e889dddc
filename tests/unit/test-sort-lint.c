/* test-sort-lint.c: where a key lands in its collection, and keys whose form breaks the
 * intended order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-sort-lint.h"

static GPtrArray *
check (const char *key,
       const char *samples_csv,
       gboolean    is_sort_key)
{
  g_auto(GStrv) samples = samples_csv != NULL ? g_strsplit (samples_csv, " ", -1)
                                              : g_new0 (char *, 1);

  return dyno_sort_lint_check (key, (const char * const *) samples, g_strv_length (samples),
                               '\0', is_sort_key);
}

static const DynoSortLint *
find (GPtrArray        *lints,
      DynoSortLintKind  kind)
{
  for (guint i = 0; i < lints->len; i++)
    {
      const DynoSortLint *lint = g_ptr_array_index (lints, i);

      if (lint->kind == kind)
        return lint;
    }
  return NULL;
}

static void
assert_only (GPtrArray        *lints,
             DynoSortLintKind  kind)
{
  for (guint i = 0; i < lints->len; i++)
    {
      const DynoSortLint *lint = g_ptr_array_index (lints, i);

      if (lint->kind != kind)
        g_error ("unexpected %s: %s", dyno_sort_lint_kind_to_string (lint->kind), lint->message);
    }
  g_assert_nonnull (find (lints, kind));
}

static void
assert_clean (GPtrArray *lints)
{
  for (guint i = 0; i < lints->len; i++)
    {
      const DynoSortLint *lint = g_ptr_array_index (lints, i);

      g_error ("unexpected %s: %s", dyno_sort_lint_kind_to_string (lint->kind), lint->message);
    }
}

static void
assert_message (const DynoSortLint *lint,
                const char         *needle)
{
  if (strstr (lint->message, needle) == NULL)
    g_error ("\u201c%s\u201d does not contain \u201c%s\u201d", lint->message, needle);
}

static void
test_unpadded_numbers (void)
{
  g_autoptr(GPtrArray) bad = check ("INVOICE#9", "INVOICE#10 INVOICE#11", TRUE);
  g_autoptr(GPtrArray) bad_other_way = check ("INVOICE#10", "INVOICE#9", TRUE);
  g_autoptr(GPtrArray) padded = check ("INVOICE#0009", "INVOICE#0010 INVOICE#0011", TRUE);
  g_autoptr(GPtrArray) alone = check ("INVOICE#9", NULL, TRUE);
  g_autoptr(GPtrArray) fraction = check ("PRICE#1.5", "PRICE#1.25", TRUE);
  g_autoptr(GPtrArray) right_order = check ("ORDER#2026-0014", "ORDER#2026-0009", TRUE);
  g_autoptr(GPtrArray) other_entity = check ("A#9", "B#10", TRUE);
  const DynoSortLint *lint;

  assert_only (bad, DYNO_SORT_LINT_UNPADDED_NUMBER);
  lint = find (bad, DYNO_SORT_LINT_UNPADDED_NUMBER);
  g_assert_cmpuint (lint->offset, ==, 8);
  g_assert_cmpuint (lint->length, ==, 1);
  g_assert_cmpstr (lint->other, ==, "INVOICE#10");
  assert_message (lint, "INVOICE#10 sorts before INVOICE#9");
  assert_message (lint, "INVOICE#0009");
  assert_only (bad_other_way, DYNO_SORT_LINT_UNPADDED_NUMBER);

  assert_clean (padded);
  assert_clean (alone);
  assert_clean (fraction);
  assert_clean (right_order);
  assert_clean (other_entity);
}

static void
test_dates (void)
{
  g_autoptr(GPtrArray) us = check ("EVT#6/23/2026", NULL, TRUE);
  g_autoptr(GPtrArray) eu = check ("EVT#23-06-2026", NULL, TRUE);
  g_autoptr(GPtrArray) dotted = check ("EVT#23.06.26#x", NULL, TRUE);
  g_autoptr(GPtrArray) unpadded = check ("EVT#2026-6-3", NULL, TRUE);
  g_autoptr(GPtrArray) iso = check ("EVT#2026-06-23T09:12:00Z", NULL, TRUE);
  g_autoptr(GPtrArray) twelve = check ("LOG#9:05 PM", NULL, TRUE);
  g_autoptr(GPtrArray) month = check ("EVT#Jun 23 2026", NULL, TRUE);
  g_autoptr(GPtrArray) partition = check ("EVT#6/23/2026", NULL, FALSE);
  g_autoptr(GPtrArray) version = check ("v1.2.3", NULL, TRUE);

  assert_only (us, DYNO_SORT_LINT_NON_ISO_DATE);
  assert_message (find (us, DYNO_SORT_LINT_NON_ISO_DATE), "2026-06-23");
  g_assert_cmpuint (find (us, DYNO_SORT_LINT_NON_ISO_DATE)->offset, ==, 4);
  g_assert_cmpuint (find (us, DYNO_SORT_LINT_NON_ISO_DATE)->length, ==, 9);
  assert_only (eu, DYNO_SORT_LINT_NON_ISO_DATE);
  assert_message (find (eu, DYNO_SORT_LINT_NON_ISO_DATE), "2026-06-23");
  assert_only (dotted, DYNO_SORT_LINT_NON_ISO_DATE);
  assert_message (find (dotted, DYNO_SORT_LINT_NON_ISO_DATE), "2026-06-23");
  assert_only (unpadded, DYNO_SORT_LINT_NON_ISO_DATE);
  assert_message (find (unpadded, DYNO_SORT_LINT_NON_ISO_DATE), "2026-06-03");
  assert_clean (iso);
  assert_only (twelve, DYNO_SORT_LINT_NON_ISO_DATE);
  assert_only (month, DYNO_SORT_LINT_NON_ISO_DATE);
  /* order does not matter in a partition key */
  assert_clean (partition);
  assert_clean (version);
}

static void
test_time_zones (void)
{
  g_autoptr(GPtrArray) mixed = check ("EVT#2026-06-23T10:00:00+02:00",
                                      "EVT#2026-06-23T09:00:00Z EVT#2026-06-23T09:30:00Z", TRUE);
  g_autoptr(GPtrArray) same = check ("EVT#2026-06-23T10:00:00Z", "EVT#2026-06-23T09:00:00Z",
                                     TRUE);

  assert_only (mixed, DYNO_SORT_LINT_MIXED_TIME_ZONES);
  assert_clean (same);
}

static void
test_mixed_delimiters (void)
{
  g_autoptr(GPtrArray) bad = check ("USER|2", "USER#1 USER#3 ORDER#7", TRUE);
  g_autoptr(GPtrArray) good = check ("USER#2", "USER#1 USER#3 ORDER#7", TRUE);
  const DynoSortLint *lint;

  lint = find (bad, DYNO_SORT_LINT_MIXED_DELIMITERS);
  g_assert_nonnull (lint);
  g_assert_cmpstr (lint->other, ==, "USER#1");
  g_assert_cmpuint (lint->offset, ==, 4);
  assert_message (lint, "'|'");
  assert_message (lint, "begins_with(\"USER#\")");
  assert_clean (good);
}

static void
test_prefix_of_other_entity (void)
{
  g_autoptr(GPtrArray) shorter = check ("USER#u_3001", "USERGROUP#admins INVOICE#2026-0014", TRUE);
  g_autoptr(GPtrArray) longer = check ("USERGROUP#admins", "USER#u_3001", FALSE);
  g_autoptr(GPtrArray) unrelated = check ("USER#u_3001", "INVOICE#2026-0014 EVENT#x", TRUE);
  const DynoSortLint *lint;

  assert_only (shorter, DYNO_SORT_LINT_PREFIX_OF_OTHER_ENTITY);
  lint = find (shorter, DYNO_SORT_LINT_PREFIX_OF_OTHER_ENTITY);
  g_assert_cmpstr (lint->other, ==, "USERGROUP#admins");
  assert_message (lint, "begins_with(\"USER#\")");
  assert_only (longer, DYNO_SORT_LINT_PREFIX_OF_OTHER_ENTITY);
  assert_clean (unrelated);
}

static void
test_mixed_case (void)
{
  g_autoptr(GPtrArray) lints = check ("user#2", "USER#1 USER#3", TRUE);

  assert_only (lints, DYNO_SORT_LINT_MIXED_CASE);
}

static void
test_uuid (void)
{
  g_autoptr(GPtrArray) v4 = check ("ORDER#3f2b8c1e-9d4a-4c6b-8e2f-1a2b3c4d5e6f", NULL, TRUE);
  g_autoptr(GPtrArray) v7 = check ("ORDER#0190a1b2-c3d4-7e5f-8a6b-9c0d1e2f3a4b", NULL, TRUE);
  g_autoptr(GPtrArray) in_pk = check ("ORDER#3f2b8c1e-9d4a-4c6b-8e2f-1a2b3c4d5e6f", NULL, FALSE);
  const DynoSortLint *lint;

  assert_only (v4, DYNO_SORT_LINT_RAW_UUID);
  lint = find (v4, DYNO_SORT_LINT_RAW_UUID);
  g_assert_cmpuint (lint->offset, ==, 6);
  g_assert_cmpuint (lint->length, ==, 36);
  assert_message (lint, "random");
  assert_clean (v7);
  /* a random partition key spreads load: that is what it is for */
  assert_clean (in_pk);
}

static DynoItem *
item (const char *ddb_json)
{
  g_autoptr(GError) error = NULL;
  DynoItem *it = dyno_item_from_ddb_json (ddb_json, -1, &error);

  g_assert_no_error (error);
  return it;
}

static GPtrArray *
items (const char * const *jsons)
{
  GPtrArray *array = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);

  for (guint i = 0; jsons[i] != NULL; i++)
    g_ptr_array_add (array, item (jsons[i]));
  return array;
}

static void
test_place_number_keys (void)
{
  g_autoptr(DynoTableInfo) schema = dyno_table_info_new ("readings", "deviceId", DYNO_VALUE_S,
                                                         "ts", DYNO_VALUE_N);
  const char *jsons[] = {
    "{\"deviceId\":{\"S\":\"DEV#a1b2\"},\"ts\":{\"N\":\"100\"}}",
    "{\"deviceId\":{\"S\":\"DEV#a1b2\"},\"ts\":{\"N\":\"9\"}}",
    "{\"deviceId\":{\"S\":\"DEV#zzzz\"},\"ts\":{\"N\":\"50\"}}",
    "{\"deviceId\":{\"S\":\"DEV#a1b2\"},\"ts\":{\"N\":\"20\"}}",
    NULL,
  };
  g_autoptr(GPtrArray) samples = items (jsons);
  g_autoptr(DynoItem) new_item = item ("{\"deviceId\":{\"S\":\"DEV#a1b2\"},\"ts\":{\"N\":\"1e1\"}}");
  g_autoptr(DynoItem) existing = item ("{\"deviceId\":{\"S\":\"DEV#a1b2\"},\"ts\":{\"N\":\"20.0\"}}");
  g_autoptr(DynoItem) first = item ("{\"deviceId\":{\"S\":\"DEV#a1b2\"},\"ts\":{\"N\":\"-5\"}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoSortPlacement) p = dyno_sort_lint_place_item (schema, NULL, new_item, samples,
                                                              &error);
  g_autoptr(DynoSortPlacement) q = dyno_sort_lint_place_item (schema, NULL, existing, samples,
                                                              NULL);
  g_autoptr(DynoSortPlacement) r = dyno_sort_lint_place_item (schema, NULL, first, samples,
                                                              NULL);

  g_assert_no_error (error);
  /* numerically: 9, [10], 20, 100; the other device's item is not in the collection */
  g_assert_cmpuint (p->n_items, ==, 3);
  g_assert_cmpuint (p->position, ==, 1);
  g_assert_false (p->replaces);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (p->before, "ts"), NULL), ==, "9");
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (p->after, "ts"), NULL), ==, "20");
  g_assert_cmpuint (p->lints->len, ==, 0);

  /* 20.0 is 20: it replaces that item, between 9 and 100 */
  g_assert_true (q->replaces);
  g_assert_cmpuint (q->position, ==, 1);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (q->before, "ts"), NULL), ==, "9");
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (q->after, "ts"), NULL), ==, "100");

  g_assert_cmpuint (r->position, ==, 0);
  g_assert_null (r->before);
}

static void
test_place_string_keys_with_lints (void)
{
  g_autoptr(DynoTableInfo) schema = dyno_table_info_new ("app", "pk", DYNO_VALUE_S, "sk",
                                                         DYNO_VALUE_S);
  const char *jsons[] = {
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"INVOICE#10\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"INVOICE#11\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"}}",
    NULL,
  };
  g_autoptr(GPtrArray) samples = items (jsons);
  g_autoptr(DynoItem) new_item = item ("{\"pk\":{\"S\":\"TENANT#acme\"},"
                                       "\"sk\":{\"S\":\"INVOICE#9\"}}");
  g_autoptr(DynoItem) keyless = item ("{\"pk\":{\"S\":\"TENANT#acme\"}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoSortPlacement) p = dyno_sort_lint_place_item (schema, NULL, new_item, samples,
                                                              &error);
  g_autoptr(DynoSortPlacement) none = NULL;

  g_assert_no_error (error);
  /* bytes: INVOICE#10 < INVOICE#11 < INVOICE#9 < USER#… */
  g_assert_cmpuint (p->position, ==, 2);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (p->before, "sk"), NULL), ==,
                   "INVOICE#11");
  g_assert_nonnull (find (p->lints, DYNO_SORT_LINT_UNPADDED_NUMBER));

  none = dyno_sort_lint_place_item (schema, NULL, keyless, samples, &error);
  g_assert_null (none);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_clear_error (&error);

  g_assert_null (dyno_sort_lint_place_item (schema, "nope", new_item, samples, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
}

static void
test_insertion_index_bytes (void)
{
  /* S by UTF-8 bytes: "Z" < "a" < "é" (0xC3 0xA9) */
  g_autoptr(DynoValue) z = dyno_value_new_string ("Z", -1);
  g_autoptr(DynoValue) a = dyno_value_new_string ("a", -1);
  g_autoptr(DynoValue) e = dyno_value_new_string ("\xc3\xa9", -1);
  g_autoptr(DynoValue) b = dyno_value_new_string ("b", -1);
  const DynoValue *sorted[] = { z, a, e };
  gboolean equal = TRUE;

  g_assert_cmpuint (dyno_sort_lint_insertion_index (sorted, 3, b, &equal), ==, 2);
  g_assert_false (equal);
  g_assert_cmpuint (dyno_sort_lint_insertion_index (sorted, 3, a, &equal), ==, 2);
  g_assert_true (equal);
  g_assert_cmpuint (dyno_sort_lint_insertion_index (sorted, 0, a, &equal), ==, 0);
  g_assert_false (equal);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sort-lint/unpadded-numbers", test_unpadded_numbers);
  g_test_add_func ("/sort-lint/dates", test_dates);
  g_test_add_func ("/sort-lint/time-zones", test_time_zones);
  g_test_add_func ("/sort-lint/mixed-delimiters", test_mixed_delimiters);
  g_test_add_func ("/sort-lint/prefix-of-other-entity", test_prefix_of_other_entity);
  g_test_add_func ("/sort-lint/mixed-case", test_mixed_case);
  g_test_add_func ("/sort-lint/uuid", test_uuid);
  g_test_add_func ("/sort-lint/place-number-keys", test_place_number_keys);
  g_test_add_func ("/sort-lint/place-string-keys-with-lints", test_place_string_keys_with_lints);
  g_test_add_func ("/sort-lint/insertion-index-bytes", test_insertion_index_bytes);

  return g_test_run ();
}
