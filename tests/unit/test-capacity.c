/* test-capacity.c: read and write units by DynamoDB's rules, and estimates of a read
 *
 * Worked examples from the Developer Guide (dynamodb-facts.md §4) and from the seed article on
 * composite keys: ten 2 KB sensor readings read by one Query.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-capacity.h"
#include "dyno-json.h"
#include "dyno-request.h"

static void
test_units (void)
{
  /* a read of nothing (a missing item, an empty page) still costs one block */
  g_assert_cmpfloat (dyno_capacity_read_units (0, FALSE), ==, 0.5);
  g_assert_cmpfloat (dyno_capacity_read_units (0, TRUE), ==, 1.0);
  g_assert_cmpfloat (dyno_capacity_read_units (4096, FALSE), ==, 0.5);
  g_assert_cmpfloat (dyno_capacity_read_units (4097, FALSE), ==, 1.0);
  g_assert_cmpfloat (dyno_capacity_read_units (4097, TRUE), ==, 2.0);
  /* 3.5 KB -> 4 KB; 10 KB -> 12 KB */
  g_assert_cmpfloat (dyno_capacity_read_units (3584, TRUE), ==, 1.0);
  g_assert_cmpfloat (dyno_capacity_read_units (10240, TRUE), ==, 3.0);
  /* "10 items totalling 40.8 KB -> 44 KB -> 11 RCU strong, 5.5 eventual" */
  g_assert_cmpfloat (dyno_capacity_read_units (41779, TRUE), ==, 11.0);
  g_assert_cmpfloat (dyno_capacity_read_units (41779, FALSE), ==, 5.5);
  /* writes: 1 KB blocks; 500 B -> 1, 3.5 KB -> 4 */
  g_assert_cmpfloat (dyno_capacity_write_units (0), ==, 1.0);
  g_assert_cmpfloat (dyno_capacity_write_units (500), ==, 1.0);
  g_assert_cmpfloat (dyno_capacity_write_units (3584), ==, 4.0);
}

/* The seed's sensor window: ten readings of 2 KB are 20 KB, five 4 KB blocks: 2.5 RCU
 * eventually consistent, 5 strongly; the same rows by ten GetItem calls cost a block each:
 * 5 and 10. */
static void
test_sensor_window_by_rule (void)
{
  DynoReadShape shape = { DYNO_CAPACITY_BASIS_GIVEN, 10, 2048.0, FALSE, 0, FALSE };
  DynoReadEstimate estimate;
  double get_items = 0;

  dyno_capacity_estimate_read (&shape, &estimate);
  g_assert_cmpuint (estimate.pages, ==, 1);
  g_assert_cmpuint (estimate.bytes, ==, 20480);
  g_assert_cmpfloat (estimate.units, ==, 2.5);
  g_assert_cmpfloat (estimate.first_page_units, ==, 2.5);

  shape.consistent = TRUE;
  dyno_capacity_estimate_read (&shape, &estimate);
  g_assert_cmpfloat (estimate.units, ==, 5.0);

  for (guint i = 0; i < 10; i++)
    get_items += dyno_capacity_read_units (2048, FALSE);
  g_assert_cmpfloat (get_items, ==, 5.0);
  get_items = 0;
  for (guint i = 0; i < 10; i++)
    get_items += dyno_capacity_read_units (2048, TRUE);
  g_assert_cmpfloat (get_items, ==, 10.0);
}

/* Pages stop just after passing 1 MB: 30 items of 100 KB come as 11, 11 and 8. */
static void
test_pages (void)
{
  DynoReadShape shape = { DYNO_CAPACITY_BASIS_GIVEN, 30, 102400.0, FALSE, 0, FALSE };
  DynoReadEstimate estimate;

  g_assert_cmpuint (dyno_capacity_items_per_page (102400.0, 0), ==, 11);
  /* exactly 1 MB read is not past it: one more item is read */
  g_assert_cmpuint (dyno_capacity_items_per_page (1024.0, 0), ==, 1025);
  g_assert_cmpuint (dyno_capacity_items_per_page (1024.0, 100), ==, 100);
  /* an item larger than the page is still read, alone */
  g_assert_cmpuint (dyno_capacity_items_per_page (400000.0, 0), ==, 3);

  dyno_capacity_estimate_read (&shape, &estimate);
  g_assert_cmpuint (estimate.pages, ==, 3);
  /* 11 x 100 KB = 1100 KB = 275 blocks; 8 x 100 KB = 200 blocks */
  g_assert_cmpfloat (estimate.first_page_units, ==, 137.5);
  g_assert_cmpfloat (estimate.units, ==, 137.5 * 2 + 100.0);

  /* Limit cuts pages: 1000 items of 100 bytes, 100 a page: 10 pages of 10,000 bytes */
  shape = (DynoReadShape) { DYNO_CAPACITY_BASIS_GIVEN, 1000, 100.0, FALSE, 100, FALSE };
  dyno_capacity_estimate_read (&shape, &estimate);
  g_assert_cmpuint (estimate.pages, ==, 10);
  g_assert_cmpfloat (estimate.units, ==, 15.0);

  /* nothing matches: one page at the minimum */
  shape = (DynoReadShape) { DYNO_CAPACITY_BASIS_SAMPLED, 0, 700.0, TRUE, 0, FALSE };
  dyno_capacity_estimate_read (&shape, &estimate);
  g_assert_cmpuint (estimate.pages, ==, 1);
  g_assert_cmpfloat (estimate.units, ==, 1.0);

  /* unknown: only the ceiling of one page (1 MB and the item that passes it, at most) */
  shape = (DynoReadShape) { DYNO_CAPACITY_BASIS_UNKNOWN, 0, 0, FALSE, 0, FALSE };
  dyno_capacity_estimate_read (&shape, &estimate);
  g_assert_cmpuint (estimate.pages, ==, 0);
  g_assert_cmpfloat (estimate.units, ==, 0.0);
  g_assert_cmpfloat (estimate.first_page_units, ==, 128.0);

  /* a billion small items: computed, not iterated */
  shape = (DynoReadShape) { DYNO_CAPACITY_BASIS_DESCRIBED, 1000000000, 1000.0, FALSE, 0,
                            FALSE };
  dyno_capacity_estimate_read (&shape, &estimate);
  g_assert_cmpuint (estimate.pages, ==, 1000000000 / 1049 + 1);
}

static void
test_monthly_cost (void)
{
  /* 2.5 RCU at 10 queries a second: 65.7 million read units in a 730-hour month */
  g_assert_cmpfloat_with_epsilon (dyno_capacity_monthly_units (2.5, 10), 65700000.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (dyno_capacity_monthly_cost (2.5, 10, 0.125), 8.2125, 1e-9);
  g_assert_cmpfloat (dyno_capacity_monthly_cost (2.5, 0, 0.125), ==, 0.0);
}

/* ---- from a request, a schema and loaded items ----------------------------------------------- */

/* A reading of exactly 2048 bytes by DynamoDB's measure: names and values. */
static DynoItem *
reading (const char *device,
         const char *ts)
{
  gsize fixed = strlen ("deviceId") + strlen (device) + strlen ("readingTs") + strlen (ts) +
                strlen ("p");
  g_autofree char *payload = g_strnfill (2048 - fixed, 'x');
  g_autofree char *json = g_strdup_printf ("{\"deviceId\":{\"S\":\"%s\"},"
                                           "\"readingTs\":{\"S\":\"%s\"},"
                                           "\"p\":{\"S\":\"%s\"}}", device, ts, payload);
  g_autoptr(GError) error = NULL;
  DynoItem *item = dyno_item_from_ddb_json (json, -1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (dyno_item_get_size (item), ==, 2048);
  return item;
}

static GPtrArray *
sensor_sample (void)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);

  /* ten readings in the window 08:00–08:10, a minute apart */
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *ts = g_strdup_printf ("2026-06-23T08:%02u:00Z", i);

      g_ptr_array_add (items, reading ("DEV#a1b2", ts));
    }
  /* before and after the window, and another device inside it */
  g_ptr_array_add (items, reading ("DEV#a1b2", "2026-06-23T07:59:59Z"));
  g_ptr_array_add (items, reading ("DEV#a1b2", "2026-06-23T08:10:01Z"));
  g_ptr_array_add (items, reading ("DEV#ffff", "2026-06-23T08:05:00Z"));
  return items;
}

static DynoRequest *
request (const char *json)
{
  g_autoptr(GError) error = NULL;
  DynoRequest *result = dyno_request_from_json (json, -1, -1, &error);

  g_assert_no_error (error);
  return result;
}

static void
test_sensor_window_from_sample (void)
{
  g_autoptr(DynoTableInfo) info = dyno_table_info_new ("readings", "deviceId", DYNO_VALUE_S,
                                                       "readingTs", DYNO_VALUE_S);
  g_autoptr(GPtrArray) sample = sensor_sample ();
  g_autoptr(DynoRequest) window = request (
    "{\"TableName\":\"readings\","
    "\"KeyConditionExpression\":\"deviceId = :d AND readingTs BETWEEN :from AND :to\","
    "\"ExpressionAttributeValues\":{\":d\":{\"S\":\"DEV#a1b2\"},"
    "\":from\":{\"S\":\"2026-06-23T08:00:00Z\"},\":to\":{\"S\":\"2026-06-23T08:10:00Z\"}}}");
  g_autoptr(DynoRequest) partition = request (
    "{\"TableName\":\"readings\",\"ConsistentRead\":true,"
    "\"KeyConditionExpression\":\"deviceId = :d\","
    "\"ExpressionAttributeValues\":{\":d\":{\"S\":\"DEV#a1b2\"}}}");
  g_autoptr(DynoRequest) prefix = request (
    "{\"TableName\":\"readings\","
    "\"KeyConditionExpression\":\"#d = :d AND begins_with(readingTs, :day)\","
    "\"ExpressionAttributeNames\":{\"#d\":\"deviceId\"},"
    "\"ExpressionAttributeValues\":{\":d\":{\"S\":\"DEV#a1b2\"},"
    "\":day\":{\"S\":\"2026-06-23T08:0\"}}}");
  DynoReadShape shape;
  DynoReadEstimate estimate;

  dyno_capacity_shape_for_request (window, info, sample, &shape);
  g_assert_cmpint (shape.basis, ==, DYNO_CAPACITY_BASIS_SAMPLED);
  g_assert_cmpuint (shape.items, ==, 10);
  g_assert_cmpfloat (shape.item_bytes, ==, 2048.0);
  g_assert_false (shape.consistent);
  dyno_capacity_estimate_read (&shape, &estimate);
  g_assert_cmpfloat (estimate.units, ==, 2.5);

  /* the whole partition, strongly consistent: 12 readings, 24 KB, 6 blocks */
  dyno_capacity_shape_for_request (partition, info, sample, &shape);
  g_assert_cmpuint (shape.items, ==, 12);
  g_assert_true (shape.consistent);
  dyno_capacity_estimate_read (&shape, &estimate);
  g_assert_cmpfloat (estimate.units, ==, 6.0);

  /* begins_with: 08:00 to 08:09 */
  dyno_capacity_shape_for_request (prefix, info, sample, &shape);
  g_assert_cmpuint (shape.items, ==, 10);

  /* nothing loaded: unknown */
  dyno_capacity_shape_for_request (window, info, NULL, &shape);
  g_assert_cmpint (shape.basis, ==, DYNO_CAPACITY_BASIS_UNKNOWN);
}

static void
test_scan_from_description (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoTableInfo) info = dyno_table_info_new_from_json (
    "{\"Table\":{\"TableName\":\"t\",\"ItemCount\":3000,\"TableSizeBytes\":3072000,"
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}]}}",
    -1, &error);
  g_autoptr(DynoRequest) scan = request ("{\"TableName\":\"t\"}");
  g_autoptr(DynoRequest) segment = request ("{\"TableName\":\"t\",\"Segment\":0,"
                                            "\"TotalSegments\":4}");
  DynoReadShape shape;
  DynoReadEstimate estimate;

  g_assert_no_error (error);
  dyno_capacity_shape_for_request (scan, info, NULL, &shape);
  g_assert_cmpint (shape.basis, ==, DYNO_CAPACITY_BASIS_DESCRIBED);
  g_assert_cmpuint (shape.items, ==, 3000);
  g_assert_cmpfloat (shape.item_bytes, ==, 1024.0);
  dyno_capacity_estimate_read (&shape, &estimate);
  /* 1025 items a page (1 MB and the item that passes it): 1025, 1025, 950 */
  g_assert_cmpuint (estimate.pages, ==, 3);
  g_assert_cmpfloat (estimate.units, ==, 2 * 0.5 * 257 + 0.5 * 238);

  dyno_capacity_shape_for_request (segment, info, NULL, &shape);
  g_assert_cmpuint (shape.items, ==, 750);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capacity/units", test_units);
  g_test_add_func ("/capacity/sensor-window/by-rule", test_sensor_window_by_rule);
  g_test_add_func ("/capacity/pages", test_pages);
  g_test_add_func ("/capacity/monthly-cost", test_monthly_cost);
  g_test_add_func ("/capacity/sensor-window/from-sample", test_sensor_window_from_sample);
  g_test_add_func ("/capacity/scan-from-description", test_scan_from_description);

  return g_test_run ();
}
