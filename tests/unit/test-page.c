/* test-page.c: parsing Query/Scan response bodies
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-page.h"

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("\u201c%s\u201d does not contain \u201c%s\u201d", haystack, needle);
}

/* An order item of a single-table design, like the ones the app is built for. */
static void
append_item (GString *s,
             guint    i)
{
  static const char * const statuses[] = { "PENDING", "SHIPPED", "DELIVERED", "RETURNED" };

  g_string_append_printf (s,
    "{\"pk\":{\"S\":\"CUSTOMER#%05u\"},"
    "\"sk\":{\"S\":\"ORDER#2026-%02u-%02uT%02u:%02u:00Z#%06u\"},"
    "\"entity\":{\"S\":\"Order\"},"
    "\"status\":{\"S\":\"%s\"},"
    "\"amount\":{\"N\":\"%u.%u\"},"
    "\"quantity\":{\"N\":\"%u\"},"
    "\"paid\":{\"BOOL\":%s},"
    "\"tags\":{\"SS\":[\"gift\",\"prio-%u\"]},"
    "\"shipTo\":{\"M\":{\"name\":{\"S\":\"Customer %u\"},\"street\":{\"S\":\"%u Long Road\"},"
    "\"city\":{\"S\":\"Troms\u00f8\"},\"zip\":{\"S\":\"%04u\"}}},"
    "\"lines\":{\"L\":[{\"M\":{\"sku\":{\"S\":\"SKU-%u\"},\"qty\":{\"N\":\"%u\"}}},"
    "{\"M\":{\"sku\":{\"S\":\"SKU-%u\"},\"qty\":{\"N\":\"1\"}}}]},"
    "\"note\":{\"S\":\"Leave the parcel at the door, please.\"},"
    "\"version\":{\"N\":\"%u\"}}",
    i / 10, 1 + i % 12, 1 + i % 28, i % 24, i % 60, i,
    statuses[i % 4], 10 + i % 990, 1 + i % 9, 1 + i % 5, i % 3 ? "true" : "false",
    i % 7, i, 1 + i % 200, i % 10000, i % 500, 1 + i % 4, (i + 7) % 500, 1 + i % 9);
}

static GString *
make_page (guint       n_items,
           const char *tail)
{
  GString *s = g_string_new ("{\"Items\":[");

  for (guint i = 0; i < n_items; i++)
    {
      if (i > 0)
        g_string_append_c (s, ',');
      append_item (s, i);
    }
  g_string_append_printf (s, "],\"Count\":%u,\"ScannedCount\":%u%s}", n_items, n_items * 2,
                          tail);
  return s;
}

static void
test_page_basic (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) json = make_page (1000, ",\"LastEvaluatedKey\":{\"pk\":{\"S\":"
                                       "\"CUSTOMER#00099\"},\"sk\":{\"S\":\"ORDER#x\"}},"
                                       "\"ConsumedCapacity\":{\"TableName\":\"Orders\","
                                       "\"CapacityUnits\":128.5}");
  g_autoptr(DynoPage) page = dyno_page_parse (json->str, json->len, &error);
  gsize memory = 0;
  const DynoItem *item;

  g_assert_no_error (error);
  g_assert_cmpuint (page->items->len, ==, 1000);
  g_assert_cmpint (page->count, ==, 1000);
  g_assert_cmpint (page->scanned_count, ==, 2000);
  g_assert_cmpuint (page->bytes, ==, json->len);
  g_assert_cmpfloat (page->consumed_capacity, ==, 128.5);
  g_assert_cmpstr (page->consumed_capacity_json, ==,
                   "{\"TableName\":\"Orders\",\"CapacityUnits\":128.5}");
  g_assert_nonnull (page->last_evaluated_key);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (page->last_evaluated_key, "pk"),
                                          NULL), ==, "CUSTOMER#00099");

  /* Server order, and every item exactly as sent. */
  for (guint i = 0; i < page->items->len; i++)
    {
      GString *one = g_string_new (NULL);
      g_autofree char *out = NULL;

      item = g_ptr_array_index (page->items, i);
      append_item (one, i);
      out = dyno_item_to_ddb_json (item);
      g_assert_cmpstr (out, ==, one->str);
      g_string_free (one, TRUE);
      memory += dyno_item_get_memory_size (item) + sizeof (gpointer);
    }

  item = g_ptr_array_index (page->items, 3);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (item, "amount"), NULL), ==,
                   "13.4");

  /* The budget: items in memory at most twice the size of their JSON. */
  g_test_message ("1000-item page: %" G_GSIZE_FORMAT " bytes of JSON, %" G_GSIZE_FORMAT
                  " bytes of item memory (ratio %.2f)", json->len, memory,
                  (double) memory / json->len);
  g_assert_cmpuint (memory, <=, 2 * json->len);
}

static void
test_page_no_last_key (void)
{
  g_autoptr(GError) error = NULL;
  const char *json = "{\"Count\":2,\"Items\":[{\"a\":{\"N\":\"1\"}},{\"a\":{\"N\":\"2\"}}],"
                     "\"ScannedCount\":5}";
  g_autoptr(DynoPage) page = dyno_page_parse (json, strlen (json), &error);

  g_assert_no_error (error);
  g_assert_cmpuint (page->items->len, ==, 2);
  g_assert_cmpint (page->count, ==, 2);
  g_assert_cmpint (page->scanned_count, ==, 5);
  g_assert_null (page->last_evaluated_key);
  g_assert_cmpfloat (page->consumed_capacity, ==, -1);
  g_assert_null (page->consumed_capacity_json);
  g_assert_null (page->next_token);
}

/* An ExecuteStatement response: Items, NextToken and ConsumedCapacity, no Count. */
static void
test_page_statement (void)
{
  g_autoptr(GError) error = NULL;
  const char *json = "{\"Items\":[{\"a\":{\"N\":\"1\"}},{\"a\":{\"N\":\"2\"}},"
                     "{\"a\":{\"N\":\"3\"}}],\"NextToken\":\"ab\\/c\\u002b==\","
                     "\"ConsumedCapacity\":{\"TableName\":\"t\",\"CapacityUnits\":1.5},"
                     "\"LastEvaluatedKey\":{\"a\":{\"N\":\"3\"}}}";
  const char *last = "{\"Items\":[],\"ConsumedCapacity\":{\"CapacityUnits\":0.5}}";
  g_autoptr(DynoPage) page = dyno_page_parse (json, strlen (json), &error);
  g_autoptr(DynoPage) end = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (page->items->len, ==, 3);
  g_assert_cmpint (page->count, ==, 3);
  g_assert_cmpint (page->scanned_count, ==, 3);
  g_assert_cmpstr (page->next_token, ==, "ab/c+==");
  g_assert_nonnull (page->last_evaluated_key);
  g_assert_cmpfloat (page->consumed_capacity, ==, 1.5);

  end = dyno_page_parse (last, strlen (last), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (end->items->len, ==, 0);
  g_assert_cmpint (end->count, ==, 0);
  g_assert_null (end->next_token);
  g_assert_null (end->last_evaluated_key);
  g_assert_cmpfloat (end->consumed_capacity, ==, 0.5);
}

static void
test_page_empty_and_count_only (void)
{
  g_autoptr(GError) error = NULL;
  const char *empty_json = "{\"Items\":[],\"Count\":0,\"ScannedCount\":0}";
  g_autoptr(DynoPage) empty = dyno_page_parse (empty_json, strlen (empty_json), &error);
  g_autoptr(DynoPage) count_only = NULL;
  g_autoptr(DynoPage) bare = NULL;
  const char *select_count = "{\"Count\":42,\"ScannedCount\":100}";

  g_assert_no_error (error);
  g_assert_cmpuint (empty->items->len, ==, 0);
  g_assert_cmpint (empty->count, ==, 0);

  /* Select=COUNT: no Items member at all. */
  count_only = dyno_page_parse (select_count, strlen (select_count), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_only->items->len, ==, 0);
  g_assert_cmpint (count_only->count, ==, 42);
  g_assert_cmpint (count_only->scanned_count, ==, 100);

  bare = dyno_page_parse ("{}", 2, &error);
  g_assert_no_error (error);
  g_assert_cmpint (bare->count, ==, 0);
  g_assert_null (bare->last_evaluated_key);
}

static void
test_page_unknown_members (void)
{
  g_autoptr(GError) error = NULL;
  const char *json =
    "{\"Unknown\":{\"deep\":[1,2,{\"x\":[true,false,null,\"s\\\"\"]}]},"
    "\"Items\":[{\"k\":{\"S\":\"v\"}}],\"Future\":-1.5e3,"
    "\"LastEvaluatedKey\":null,"
    "\"ConsumedCapacity\":{\"TableName\":\"T\",\"Table\":{\"CapacityUnits\":1},"
    "\"CapacityUnits\":0.5,\"GlobalSecondaryIndexes\":{}},"
    "\"Count\":1,\"ScannedCount\":1,\"x\":\"\\ud83d\\ude00\"}";
  g_autoptr(DynoPage) page = dyno_page_parse (json, strlen (json), &error);

  g_assert_no_error (error);
  g_assert_cmpuint (page->items->len, ==, 1);
  g_assert_null (page->last_evaluated_key);
  /* The top-level CapacityUnits, not the nested one. */
  g_assert_cmpfloat (page->consumed_capacity, ==, 0.5);
  assert_contains (page->consumed_capacity_json, "\"GlobalSecondaryIndexes\":{}");
}

static void
assert_page_error (const char *json,
                   int         code,
                   const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoPage) page = dyno_page_parse (json, strlen (json), &error);

  g_assert_null (page);
  g_assert_error (error, DYNO_ERROR, code);
  assert_contains (error->message, message);
}

static void
test_page_errors (void)
{
  assert_page_error ("", DYNO_ERROR_JSON, "line 1, column 1");
  assert_page_error ("[]", DYNO_ERROR_JSON, "expected a response object");
  assert_page_error ("{\"Items\":[{\"a\":{\"S\":\"x\"}},{\"a\":{\"S\":\"x\"}}", DYNO_ERROR_JSON,
                     "the end of the text");
  assert_page_error ("{\"Items\":{}}", DYNO_ERROR_JSON, "expected an array of items");
  assert_page_error ("{\"Items\":[{\"a\":{\"S\":\"x\"}},\n{\"b\":{\"N\":\"one\"}}]}",
                     DYNO_ERROR_INVALID_VALUE, "Attribute Items[1].b: The parameter cannot be "
                     "converted to a numeric value: one (line 2, column 6)");
  assert_page_error ("{\"Items\":[{\"a\":{\"M\":{\"b\":{}}}}]}", DYNO_ERROR_INVALID_VALUE,
                     "Attribute Items[0].a.b: Supplied AttributeValue is empty");
  assert_page_error ("{\"LastEvaluatedKey\":{\"pk\":{\"S\":1}}}", DYNO_ERROR_INVALID_VALUE,
                     "Attribute LastEvaluatedKey.pk: The S value must be a JSON string");
  assert_page_error ("{\"Count\":\"3\"}", DYNO_ERROR_JSON, "malformed number");
  assert_page_error ("{\"Count\":1.5}", DYNO_ERROR_INVALID_VALUE, "not a whole number");
  assert_page_error ("{\"Count\":-1}", DYNO_ERROR_INVALID_VALUE, "not a whole number");
  assert_page_error ("{\"Count\":1} trailing", DYNO_ERROR_JSON, "unexpected text");
  assert_page_error ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException\","
                     "\"message\":\"Requested resource not found\"}", DYNO_ERROR_SERVICE,
                     "ResourceNotFoundException: Requested resource not found");
}

static void
test_page_truncated_everywhere (void)
{
  g_autoptr(GString) json = make_page (3, ",\"LastEvaluatedKey\":{\"pk\":{\"S\":\"x\"}}");

  /* Every proper prefix is an error (never a crash, never a page). */
  for (gsize len = 0; len < json->len; len++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *prefix = g_strndup (json->str, len);
      g_autoptr(DynoPage) page = dyno_page_parse (prefix, len, &error);

      g_assert_null (page);
      g_assert_nonnull (error);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/page/basic", test_page_basic);
  g_test_add_func ("/page/no-last-key", test_page_no_last_key);
  g_test_add_func ("/page/statement", test_page_statement);
  g_test_add_func ("/page/empty-and-count-only", test_page_empty_and_count_only);
  g_test_add_func ("/page/unknown-members", test_page_unknown_members);
  g_test_add_func ("/page/errors", test_page_errors);
  g_test_add_func ("/page/truncated-everywhere", test_page_truncated_everywhere);

  return g_test_run ();
}
