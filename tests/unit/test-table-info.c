/* test-table-info.c: table schemas from DescribeTable responses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-table-info.h"

/* Shaped like `aws dynamodb describe-table` output for an on-demand table. */
static const char on_demand_json[] =
  "{\n"
  "  \"Table\": {\n"
  "    \"AttributeDefinitions\": [\n"
  "      {\"AttributeName\": \"PK\", \"AttributeType\": \"S\"},\n"
  "      {\"AttributeName\": \"SK\", \"AttributeType\": \"S\"},\n"
  "      {\"AttributeName\": \"GSI1PK\", \"AttributeType\": \"S\"},\n"
  "      {\"AttributeName\": \"GSI1SK\", \"AttributeType\": \"N\"},\n"
  "      {\"AttributeName\": \"Created\", \"AttributeType\": \"N\"},\n"
  "      {\"AttributeName\": \"Blob\", \"AttributeType\": \"B\"}\n"
  "    ],\n"
  "    \"TableName\": \"AppTable\",\n"
  "    \"KeySchema\": [\n"
  "      {\"AttributeName\": \"PK\", \"KeyType\": \"HASH\"},\n"
  "      {\"AttributeName\": \"SK\", \"KeyType\": \"RANGE\"}\n"
  "    ],\n"
  "    \"TableStatus\": \"ACTIVE\",\n"
  "    \"CreationDateTime\": \"2026-11-29T10:00:00.000000+00:00\",\n"
  "    \"ProvisionedThroughput\": {\"NumberOfDecreasesToday\": 0, \"ReadCapacityUnits\": 0,"
  " \"WriteCapacityUnits\": 0},\n"
  "    \"TableSizeBytes\": 123456,\n"
  "    \"ItemCount\": 789,\n"
  "    \"TableArn\": \"arn:aws:dynamodb:eu-west-1:123456789012:table/AppTable\",\n"
  "    \"BillingModeSummary\": {\"BillingMode\": \"PAY_PER_REQUEST\","
  " \"LastUpdateToPayPerRequestDateTime\": \"2026-11-29T10:00:00+00:00\"},\n"
  "    \"LocalSecondaryIndexes\": [\n"
  "      {\"IndexName\": \"ByCreated\",\n"
  "       \"KeySchema\": [{\"AttributeName\": \"PK\", \"KeyType\": \"HASH\"},"
  " {\"AttributeName\": \"Created\", \"KeyType\": \"RANGE\"}],\n"
  "       \"Projection\": {\"ProjectionType\": \"KEYS_ONLY\"},\n"
  "       \"IndexSizeBytes\": 0, \"ItemCount\": 0}\n"
  "    ],\n"
  "    \"GlobalSecondaryIndexes\": [\n"
  "      {\"IndexName\": \"GSI1\",\n"
  "       \"KeySchema\": [{\"AttributeName\": \"GSI1PK\", \"KeyType\": \"HASH\"},"
  " {\"AttributeName\": \"GSI1SK\", \"KeyType\": \"RANGE\"}],\n"
  "       \"Projection\": {\"ProjectionType\": \"INCLUDE\","
  " \"NonKeyAttributes\": [\"Name\", \"Email\"]},\n"
  "       \"IndexStatus\": \"ACTIVE\",\n"
  "       \"ProvisionedThroughput\": {\"ReadCapacityUnits\": 0, \"WriteCapacityUnits\": 0}},\n"
  "      {\"IndexName\": \"ByBlob\",\n"
  "       \"KeySchema\": [{\"AttributeName\": \"Blob\", \"KeyType\": \"HASH\"}],\n"
  "       \"Projection\": {\"ProjectionType\": \"ALL\"},\n"
  "       \"IndexStatus\": \"CREATING\"}\n"
  "    ]\n"
  "  }\n"
  "}\n";

static void
test_on_demand (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoTableInfo) info = dyno_table_info_new_from_json (on_demand_json, -1, &error);
  const DynoIndexInfo *gsi, *lsi, *by_blob;
  DynoValueType type;
  g_autofree char *keys = NULL;
  g_autofree char *gsi_keys = NULL;
  g_autofree char *blob_keys = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (dyno_table_info_get_name (info), ==, "AppTable");
  g_assert_cmpstr (dyno_table_info_get_partition_key (info)->name, ==, "PK");
  g_assert_cmpint (dyno_table_info_get_partition_key (info)->type, ==, DYNO_VALUE_S);
  g_assert_cmpstr (dyno_table_info_get_sort_key (info)->name, ==, "SK");
  g_assert_cmpint (dyno_table_info_get_billing_mode (info), ==, DYNO_BILLING_PAY_PER_REQUEST);
  g_assert_cmpint (dyno_table_info_get_read_capacity (info), ==, 0);
  g_assert_cmpint (dyno_table_info_get_item_count (info), ==, 789);
  g_assert_cmpint (dyno_table_info_get_size_bytes (info), ==, 123456);
  g_assert_cmpstr (dyno_table_info_get_status (info), ==, "ACTIVE");

  /* GSIs then LSIs, in the order described. */
  g_assert_cmpuint (dyno_table_info_get_n_indexes (info), ==, 3);
  gsi = dyno_table_info_find_index (info, "GSI1");
  g_assert_true (gsi == dyno_table_info_get_index (info, 0));
  g_assert_true (gsi->global);
  g_assert_cmpstr (gsi->partition_key.name, ==, "GSI1PK");
  g_assert_cmpstr (gsi->sort_key.name, ==, "GSI1SK");
  g_assert_cmpint (gsi->sort_key.type, ==, DYNO_VALUE_N);
  g_assert_cmpint (gsi->projection, ==, DYNO_PROJECTION_INCLUDE);
  g_assert_nonnull (gsi->non_key_attributes);
  g_assert_cmpuint (g_strv_length (gsi->non_key_attributes), ==, 2);
  g_assert_cmpstr (gsi->non_key_attributes[1], ==, "Email");
  g_assert_cmpstr (gsi->status, ==, "ACTIVE");
  g_assert_cmpint (gsi->read_capacity, ==, 0);

  by_blob = dyno_table_info_find_index (info, "ByBlob");
  g_assert_nonnull (by_blob);
  g_assert_null (by_blob->sort_key.name);
  g_assert_cmpint (by_blob->partition_key.type, ==, DYNO_VALUE_B);
  g_assert_cmpint (by_blob->projection, ==, DYNO_PROJECTION_ALL);
  g_assert_null (by_blob->non_key_attributes);
  g_assert_cmpint (by_blob->read_capacity, ==, -1);

  lsi = dyno_table_info_find_index (info, "ByCreated");
  g_assert_nonnull (lsi);
  g_assert_false (lsi->global);
  g_assert_cmpint (lsi->projection, ==, DYNO_PROJECTION_KEYS_ONLY);
  g_assert_null (lsi->status);
  g_assert_null (dyno_table_info_find_index (info, "gsi1"));

  g_assert_true (dyno_table_info_lookup_attribute_type (info, "Created", &type));
  g_assert_cmpint (type, ==, DYNO_VALUE_N);
  g_assert_false (dyno_table_info_lookup_attribute_type (info, "Name", &type));

  g_assert_true (dyno_table_info_is_key_attribute (info, "PK"));
  g_assert_true (dyno_table_info_is_key_attribute (info, "SK"));
  g_assert_true (dyno_table_info_is_key_attribute (info, "GSI1SK"));
  g_assert_true (dyno_table_info_is_key_attribute (info, "Created"));
  g_assert_false (dyno_table_info_is_key_attribute (info, "Name"));
  g_assert_false (dyno_table_info_is_key_attribute (info, "pk"));

  keys = dyno_table_info_describe_keys (info, NULL);
  g_assert_cmpstr (keys, ==, "PK S \u00b7 SK S");
  gsi_keys = dyno_table_info_describe_keys (info, "GSI1");
  g_assert_cmpstr (gsi_keys, ==, "GSI1PK S \u00b7 GSI1SK N");
  blob_keys = dyno_table_info_describe_keys (info, "ByBlob");
  g_assert_cmpstr (blob_keys, ==, "Blob B");
  g_assert_null (dyno_table_info_describe_keys (info, "Nope"));
}

static void
test_provisioned (void)
{
  /* The inner TableDescription, without BillingModeSummary (as DynamoDB Local may send). */
  const char *json =
    "{\"TableName\":\"Orders\",\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],"
    "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"N\"}],"
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":3}}";
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoTableInfo) info = dyno_table_info_new_from_json (json, -1, &error);
  g_autofree char *keys = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (dyno_table_info_get_name (info), ==, "Orders");
  g_assert_null (dyno_table_info_get_sort_key (info)->name);
  g_assert_cmpint (dyno_table_info_get_billing_mode (info), ==, DYNO_BILLING_PROVISIONED);
  g_assert_cmpint (dyno_table_info_get_read_capacity (info), ==, 5);
  g_assert_cmpint (dyno_table_info_get_write_capacity (info), ==, 3);
  g_assert_cmpint (dyno_table_info_get_item_count (info), ==, -1);
  g_assert_cmpint (dyno_table_info_get_size_bytes (info), ==, -1);
  g_assert_null (dyno_table_info_get_status (info));
  g_assert_cmpuint (dyno_table_info_get_n_indexes (info), ==, 0);
  keys = dyno_table_info_describe_keys (info, NULL);
  g_assert_cmpstr (keys, ==, "id N");
}

static void
test_from_node (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (on_demand_json, &error);
  g_autoptr(DynoTableInfo) info = NULL;
  g_autoptr(JsonNode) bare = NULL;
  g_autoptr(DynoTableInfo) unknown = NULL;

  g_assert_no_error (error);
  info = dyno_table_info_new_from_node (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyno_table_info_get_name (info), ==, "AppTable");

  /* No throughput and no billing summary: unknown. */
  bare = json_from_string ("{\"TableName\":\"T\",\"KeySchema\":[{\"AttributeName\":\"a\","
                           "\"KeyType\":\"HASH\"}],\"AttributeDefinitions\":[{"
                           "\"AttributeName\":\"a\",\"AttributeType\":\"S\"}]}", &error);
  unknown = dyno_table_info_new_from_node (bare, &error);
  g_assert_no_error (error);
  g_assert_cmpint (dyno_table_info_get_billing_mode (unknown), ==, DYNO_BILLING_UNKNOWN);
  g_assert_cmpint (dyno_table_info_get_read_capacity (unknown), ==, -1);
}

static void
assert_bad (const char *json,
            int         code,
            const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoTableInfo) info = dyno_table_info_new_from_json (json, -1, &error);

  g_assert_null (info);
  g_assert_error (error, DYNO_ERROR, code);
  if (strstr (error->message, message) == NULL)
    g_error ("\u201c%s\u201d does not contain \u201c%s\u201d", error->message, message);
}

static void
test_errors (void)
{
  assert_bad ("{\"Table\":", DYNO_ERROR_JSON, "not valid JSON");
  assert_bad ("[]", DYNO_ERROR_INVALID_VALUE, "expected a JSON object");
  assert_bad ("{\"Table\":{}}", DYNO_ERROR_INVALID_VALUE, "TableName is missing");
  assert_bad ("{\"TableName\":\"T\",\"AttributeDefinitions\":[]}", DYNO_ERROR_INVALID_VALUE,
              "the table has no KeySchema");
  assert_bad ("{\"TableName\":\"T\",\"AttributeDefinitions\":[],\"KeySchema\":"
              "[{\"AttributeName\":\"a\",\"KeyType\":\"HASH\"}]}", DYNO_ERROR_INVALID_VALUE,
              "the key attribute \u201ca\u201d of the table is not in AttributeDefinitions");
  assert_bad ("{\"TableName\":\"T\",\"AttributeDefinitions\":[{\"AttributeName\":\"a\","
              "\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"a\",\"KeyType\":"
              "\"RANGE\"}]}", DYNO_ERROR_INVALID_VALUE, "has no HASH key");
  assert_bad ("{\"TableName\":\"T\",\"AttributeDefinitions\":[{\"AttributeName\":\"a\","
              "\"AttributeType\":\"BOOL\"}],\"KeySchema\":[]}", DYNO_ERROR_INVALID_VALUE,
              "key attributes must be S, N or B");
  assert_bad ("{\"TableName\":\"T\",\"AttributeDefinitions\":[{\"AttributeName\":\"a\","
              "\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"a\",\"KeyType\":"
              "\"HASH\"}],\"GlobalSecondaryIndexes\":[{\"IndexName\":\"G\",\"KeySchema\":"
              "[{\"AttributeName\":\"zz\",\"KeyType\":\"HASH\"}]}]}", DYNO_ERROR_INVALID_VALUE,
              "the key attribute \u201czz\u201d of index \u201cG\u201d");
}

static void
test_hand_built (void)
{
  g_autoptr(DynoTableInfo) info = dyno_table_info_new ("Files", "PK", DYNO_VALUE_S,
                                                       "SK", DYNO_VALUE_S);
  DynoIndexInfo index = { 0 };
  char *non_key[] = { (char *) "size", NULL };
  g_autofree char *keys = NULL;
  DynoValueType type;
  GValue value = G_VALUE_INIT;

  index.name = (char *) "BySize";
  index.global = TRUE;
  index.partition_key.name = (char *) "Kind";
  index.partition_key.type = DYNO_VALUE_S;
  index.sort_key.name = (char *) "Bytes";
  index.sort_key.type = DYNO_VALUE_N;
  index.projection = DYNO_PROJECTION_INCLUDE;
  index.non_key_attributes = non_key;
  index.read_capacity = -1;
  index.write_capacity = -1;
  dyno_table_info_add_index (info, &index);

  /* The index was copied. */
  non_key[0] = (char *) "changed";
  g_assert_cmpstr (dyno_table_info_get_index (info, 0)->non_key_attributes[0], ==, "size");
  g_assert_true (dyno_table_info_get_index (info, 0)->name != index.name);

  keys = dyno_table_info_describe_keys (info, "BySize");
  g_assert_cmpstr (keys, ==, "Kind S \u00b7 Bytes N");
  g_assert_true (dyno_table_info_lookup_attribute_type (info, "Bytes", &type));
  g_assert_cmpint (type, ==, DYNO_VALUE_N);
  g_assert_true (dyno_table_info_is_key_attribute (info, "Kind"));
  g_assert_cmpint (dyno_table_info_get_billing_mode (info), ==, DYNO_BILLING_UNKNOWN);

  /* Boxed and refcounted. */
  g_assert_true (G_TYPE_IS_BOXED (DYNO_TYPE_TABLE_INFO));
  g_value_init (&value, DYNO_TYPE_TABLE_INFO);
  g_value_set_boxed (&value, info);
  g_assert_true (g_value_get_boxed (&value) == info);
  g_value_unset (&value);
  dyno_table_info_unref (dyno_table_info_ref (info));
  g_assert_cmpstr (dyno_table_info_get_name (info), ==, "Files");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/table-info/on-demand", test_on_demand);
  g_test_add_func ("/table-info/provisioned", test_provisioned);
  g_test_add_func ("/table-info/from-node", test_from_node);
  g_test_add_func ("/table-info/errors", test_errors);
  g_test_add_func ("/table-info/hand-built", test_hand_built);

  return g_test_run ();
}
