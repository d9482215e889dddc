/* test-workbench-model.c: NoSQL Workbench models, read from real files written by others
 * (tests/data/workbench-models, see its README), written back, and refused when malformed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-workbench-model.h"

#define MODELS_DIR TEST_SRCDIR "/data/workbench-models"

static DynoWorkbenchModel *
load_model (const char *file)
{
  g_autofree char *path = g_build_filename (MODELS_DIR, file, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;
  DynoWorkbenchModel *model;

  g_assert_true (g_file_get_contents (path, &text, &len, &error));
  model = dyno_workbench_model_parse (text, len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

static DynoWorkbenchTable *
find_table (DynoWorkbenchModel *model,
            const char         *name)
{
  for (guint i = 0; i < model->tables->len; i++)
    {
      DynoWorkbenchTable *table = g_ptr_array_index (model->tables, i);

      if (g_strcmp0 (dyno_workbench_table_get_name (table), name) == 0)
        return table;
    }
  g_assert_not_reached ();
}

static guint
n_gsis (DynoWorkbenchTable *table)
{
  guint n = 0;

  for (guint i = 0; i < dyno_table_design_get_n_indexes (table->design); i++)
    if (dyno_table_design_get_index (table->design, i)->global)
      n++;
  return n;
}

static guint
n_all_items (DynoWorkbenchTable *table)
{
  g_autoptr(GPtrArray) all = dyno_workbench_table_get_all_items (table);

  return all->len;
}

/* What each file holds, counted by reading it (README) rather than by this code. */
static const struct {
  const char *file;
  const char *table;
  const char *pk;
  const char *sk;
  guint       n_gsis;
  guint       n_facets;
  guint       n_items;
  gboolean    provisioned;
  guint       n_lenient;
} expected[] = {
  { "ChatSystemSchema.json", "Chat", "PK", "SK", 1, 0, 8, TRUE },
  { "ComplaintManagementSchema.json", "Complaint_management_system", "PK", "SK", 3, 0, 9, TRUE },
  { "GamePlayerProfilesSchema.json", "game-player-profiles", "PK", "SK", 0, 6, 14, TRUE, 12 },
  { "ConnectedVehiclesSchema.json", "Connected_Vehicle", "PK", "SK", 0, 2, 12, TRUE, 8 },
  { "RecurringPaymentsSchema.json", "ReoccuringPayments", "PK", "SK", 2, 2, 2, TRUE },
  { "SocialNetworkSchema.json", "SNS", "PK", "SK", 0, 0, 17, TRUE },
  { "BankModel.json", "PaymentScheduler", "AccountID", "ScheduledTime", 1, 0, 4, FALSE },
  { "BankModel.json", "TransactionHistory", "AccountID", "Timestamp", 2, 0, 2, FALSE },
};

static void
test_real_models (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(DynoWorkbenchModel) model = load_model (expected[i].file);
      DynoWorkbenchTable *table = find_table (model, expected[i].table);
      DynoTableDesign *design = table->design;

      g_test_message ("%s: %s", expected[i].file, expected[i].table);
      g_assert_cmpstr (dyno_table_design_get_partition_key_name (design), ==, expected[i].pk);
      g_assert_cmpstr (dyno_table_design_get_sort_key_name (design), ==, expected[i].sk);
      g_assert_cmpuint (n_gsis (table), ==, expected[i].n_gsis);
      g_assert_cmpuint (table->facets->len, ==, expected[i].n_facets);
      g_assert_cmpuint (n_all_items (table), ==, expected[i].n_items);
      g_assert_cmpuint (table->n_lenient_items, ==, expected[i].n_lenient);
      g_assert_cmpint (dyno_table_design_get_billing_mode (design), ==,
                       expected[i].provisioned ? DYNO_BILLING_PROVISIONED
                                               : DYNO_BILLING_PAY_PER_REQUEST);
    }
}

static void
test_details (void)
{
  g_autoptr(DynoWorkbenchModel) bank = load_model ("BankModel.json");
  g_autoptr(DynoWorkbenchModel) pay = load_model ("RecurringPaymentsSchema.json");
  g_autoptr(DynoWorkbenchModel) game = load_model ("GamePlayerProfilesSchema.json");
  DynoWorkbenchTable *history = find_table (bank, "TransactionHistory");
  DynoWorkbenchTable *payments = find_table (pay, "ReoccuringPayments");
  DynoWorkbenchTable *profiles = find_table (game, "game-player-profiles");
  DynoIndexDesign *index;
  DynoWorkbenchFacet *facet;
  const DynoValue *friends;

  g_assert_cmpstr (bank->name, ==, "Bank");
  g_assert_cmpstr (bank->author, ==, "yoderd");
  g_assert_cmpstr (bank->version, ==, "2.0");
  g_assert_cmpstr (bank->date_created, ==, "Sep 23, 2019, 8:57 AM");
  g_assert_cmpuint (bank->tables->len, ==, 2);

  /* Query_TransactionID: a GSI with only a partition key */
  index = dyno_table_design_get_index (history->design, 1);
  g_assert_cmpstr (index->name, ==, "Query_TransactionID");
  g_assert_cmpstr (index->partition_key_name, ==, "TransactionID");
  g_assert_true (index->sort_key_name == NULL || *index->sort_key_name == '\0');
  g_assert_cmpint (index->projection, ==, DYNO_PROJECTION_ALL);

  /* GSI-2 of the recurring payments: INCLUDE with seven attributes, the table's capacity */
  index = dyno_table_design_get_index (payments->design, 1);
  g_assert_cmpstr (index->name, ==, "GSI-2");
  g_assert_cmpint (index->projection, ==, DYNO_PROJECTION_INCLUDE);
  g_assert_cmpuint (index->non_key_attributes->len, ==, 5);  /* PK and SK left out */
  g_assert_cmpstr (g_ptr_array_index (index->non_key_attributes, 0), ==, "Email");
  g_assert_cmpstr (g_ptr_array_index (index->non_key_attributes, 4), ==, "PaymentDetails");
  g_assert_cmpint (index->read_capacity, ==, 5);
  g_assert_cmpint (index->write_capacity, ==, 5);
  g_assert_cmpint (dyno_table_design_get_read_capacity (payments->design), ==, 5);

  facet = g_ptr_array_index (payments->facets, 0);
  g_assert_cmpstr (facet->name, ==, "Subscription");
  g_assert_cmpstr (facet->partition_key_alias, ==, "AccountId");
  g_assert_cmpstr (facet->sort_key_alias, ==, "SubId#SKU");
  g_assert_cmpuint (g_strv_length (facet->non_key_attributes), ==, 10);
  g_assert_cmpuint (facet->items->len, ==, 1);
  g_assert_cmpuint (payments->items->len, ==, 0);

  /* a list of maps in a facet's item */
  facet = g_ptr_array_index (profiles->facets, 1);
  g_assert_cmpstr (facet->name, ==, "Friends");
  friends = dyno_item_lookup (g_ptr_array_index (facet->items, 0), "FriendList");
  g_assert_nonnull (friends);
  g_assert_cmpint (dyno_value_get_kind (friends), ==, DYNO_VALUE_L);
  g_assert_cmpuint (dyno_value_get_n_children (friends), ==, 2);
  g_assert_cmpint (dyno_value_get_kind (dyno_value_get_child (friends, 0)), ==, DYNO_VALUE_M);

  /* {"M": {"M": {"HP": {"N": "50"}}}} is the map {HP: 50} */
  facet = g_ptr_array_index (profiles->facets, 2);
  g_assert_cmpstr (facet->name, ==, "Items");
  {
    g_autofree char *text = dyno_item_to_ddb_json (g_ptr_array_index (facet->items, 0));

    g_assert_nonnull (strstr (text, "\"ItemAttributes\":{\"M\":{\"HP\":{\"N\":\"50\"}}}"));
  }
}

static void
test_plain_json_maps (void)
{
  g_autoptr(DynoWorkbenchModel) model = load_model ("ConnectedVehiclesSchema.json");
  DynoWorkbenchTable *table = find_table (model, "Connected_Vehicle");
  DynoWorkbenchFacet *facet = g_ptr_array_index (table->facets, 0);
  g_autofree char *text = dyno_item_to_ddb_json (g_ptr_array_index (facet->items, 1));

  /* {"M": {"is_enabled": true, "version": "v0.000.1 beta"}}: plain JSON members */
  g_assert_nonnull (strstr (text, "\"is_enabled\":{\"BOOL\":true}"));
  g_assert_nonnull (strstr (text, "\"version\":{\"S\":\"v0.000.1 beta\"}"));
}

static void
test_create_table (void)
{
  g_autoptr(DynoWorkbenchModel) chat = load_model ("ChatSystemSchema.json");
  g_autoptr(DynoWorkbenchModel) bank = load_model ("BankModel.json");
  g_autoptr(JsonNode) request = NULL;
  g_autoptr(JsonNode) expected_node = NULL;
  g_autofree char *text = NULL, *expected_text = NULL;
  g_autoptr(GBytes) jsonl = NULL;

  /* The CreateTable request a person would write for the chat model */
  request = dyno_workbench_table_to_create_table_json (find_table (chat, "Chat"));
  text = dyno_json_node_to_string (request, FALSE);
  expected_node = dyno_json_parse (
    "{\"TableName\":\"Chat\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"RoomID\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"CreatedAt\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],"
    "\"BillingMode\":\"PROVISIONED\","
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":5},"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"RoomID_Comment_IDX\","
    "\"KeySchema\":[{\"AttributeName\":\"RoomID\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"CreatedAt\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"ALL\"},"
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":5}}]}", -1, NULL);
  g_assert_nonnull (expected_node);
  if (!json_node_equal (request, expected_node))
    g_error ("CreateTable: %s", text);

  /* no billing in a 2.0 model: on-demand, no throughput anywhere */
  g_clear_pointer (&request, json_node_unref);
  g_clear_pointer (&text, g_free);
  request = dyno_workbench_table_to_create_table_json (find_table (bank, "TransactionHistory"));
  text = dyno_json_node_to_string (request, FALSE);
  g_assert_nonnull (strstr (text, "\"BillingMode\":\"PAY_PER_REQUEST\""));
  g_assert_null (strstr (text, "ProvisionedThroughput"));

  /* the items as DynamoDB JSON lines, one per item */
  jsonl = dyno_workbench_table_dup_items_jsonl (find_table (bank, "TransactionHistory"));
  expected_text = g_strndup (g_bytes_get_data (jsonl, NULL), g_bytes_get_size (jsonl));
  {
    g_auto(GStrv) lines = g_strsplit (expected_text, "\n", -1);

    g_assert_cmpuint (g_strv_length (lines), ==, 3);   /* 2 items and the final "" */
    g_assert_cmpstr (lines[2], ==, "");
    for (guint i = 0; i < 2; i++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(DynoItem) item = dyno_item_from_ddb_json (lines[i], -1, &error);

        g_assert_no_error (error);
        g_assert_nonnull (dyno_item_lookup (item, "AccountID"));
      }
  }
}

static void
assert_same_items (GPtrArray *a,
                   GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    g_assert_true (dyno_item_equal (g_ptr_array_index (a, i), g_ptr_array_index (b, i)));
}

static void
assert_same_model (DynoWorkbenchModel *a,
                   DynoWorkbenchModel *b)
{
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpuint (a->tables->len, ==, b->tables->len);
  for (guint t = 0; t < a->tables->len; t++)
    {
      DynoWorkbenchTable *ta = g_ptr_array_index (a->tables, t);
      DynoWorkbenchTable *tb = g_ptr_array_index (b->tables, t);
      g_autoptr(JsonNode) ra = dyno_workbench_table_to_create_table_json (ta);
      g_autoptr(JsonNode) rb = dyno_workbench_table_to_create_table_json (tb);

      /* keys, indexes, projections, billing: the same CreateTable */
      g_assert_true (json_node_equal (ra, rb));
      g_assert_cmpuint (ta->attributes->len, ==, tb->attributes->len);
      for (guint i = 0; i < ta->attributes->len; i++)
        {
          DynoWorkbenchAttribute *x = g_ptr_array_index (ta->attributes, i);
          DynoWorkbenchAttribute *y = g_ptr_array_index (tb->attributes, i);

          g_assert_cmpstr (x->name, ==, y->name);
          g_assert_cmpint (x->type, ==, y->type);
        }
      assert_same_items (ta->items, tb->items);
      g_assert_cmpuint (ta->facets->len, ==, tb->facets->len);
      for (guint f = 0; f < ta->facets->len; f++)
        {
          DynoWorkbenchFacet *fa = g_ptr_array_index (ta->facets, f);
          DynoWorkbenchFacet *fb = g_ptr_array_index (tb->facets, f);

          g_assert_cmpstr (fa->name, ==, fb->name);
          g_assert_cmpstr (fa->partition_key_alias, ==, fb->partition_key_alias);
          g_assert_cmpstr (fa->sort_key_alias, ==, fb->sort_key_alias);
          g_assert_true (g_strv_equal ((const char * const *) fa->non_key_attributes,
                                       (const char * const *) fb->non_key_attributes));
          assert_same_items (fa->items, fb->items);
        }
    }
}

static void
test_round_trip (void)
{
  static const char * const files[] = {
    "ChatSystemSchema.json", "ComplaintManagementSchema.json", "GamePlayerProfilesSchema.json",
    "RecurringPaymentsSchema.json", "SocialNetworkSchema.json", "BankModel.json",
    "ConnectedVehiclesSchema.json",
  };
  g_autoptr(GDateTime) now = g_date_time_new_utc (2026, 12, 2, 17, 5, 0);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(DynoWorkbenchModel) model = load_model (files[i]);
      g_autoptr(DynoWorkbenchModel) again = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *text = dyno_workbench_model_to_json (model, now);
      g_autofree char *text2 = NULL;

      g_test_message ("%s", files[i]);
      again = dyno_workbench_model_parse (text, -1, &error);
      g_assert_no_error (error);
      assert_same_model (model, again);
      g_assert_cmpstr (again->version, ==, "3.0");
      g_assert_cmpstr (again->date_created, ==, model->date_created);
      g_assert_cmpstr (again->date_last_modified, ==, "Dec 02, 2026, 05:05 PM");
      g_assert_cmpstr (again->author, ==, model->author);
      /* and writing it again changes nothing */
      text2 = dyno_workbench_model_to_json (again, now);
      g_assert_cmpstr (text, ==, text2);
    }
}

/* A table as DescribeTable and a Scan show it: what `model export` writes. */
static void
test_from_table_info (void)
{
  g_autoptr(DynoTableInfo) info = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  g_autoptr(DynoWorkbenchModel) model = dyno_workbench_model_new ("blobs");
  g_autoptr(DynoWorkbenchModel) again = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_utc (2026, 1, 5, 0, 7, 0);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  DynoWorkbenchTable *table;
  DynoWorkbenchAttribute *attribute;
  const DynoIndexDesign *index;

  info = dyno_table_info_new_from_json (
    "{\"Table\":{\"TableName\":\"blobs\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"B\"},"
    "{\"AttributeName\":\"n\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"kind\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"n\",\"KeyType\":\"RANGE\"}],"
    "\"BillingModeSummary\":{\"BillingMode\":\"PAY_PER_REQUEST\"},"
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":0,\"WriteCapacityUnits\":0},"
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"by-kind\","
    "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"kind\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"kinds\","
    "\"KeySchema\":[{\"AttributeName\":\"kind\",\"KeyType\":\"HASH\"}],"
    "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"tags\"]},"
    "\"IndexStatus\":\"ACTIVE\"}]}}", -1, &error);
  g_assert_no_error (error);
  g_ptr_array_add (items, dyno_item_from_ddb_json (
    "{\"id\":{\"B\":\"AAEC\"},\"n\":{\"N\":\"1\"},\"kind\":{\"S\":\"a\"},"
    "\"tags\":{\"BS\":[\"AA==\",\"/w==\"]},\"empty\":{\"NULL\":true}}", -1, &error));
  g_assert_no_error (error);
  g_ptr_array_add (items, dyno_item_from_ddb_json (
    "{\"id\":{\"B\":\"AAEC\"},\"n\":{\"N\":\"-2.5\"},\"ok\":{\"BOOL\":false},"
    "\"kind\":{\"N\":\"3\"}}", -1, &error));
  g_assert_no_error (error);

  table = dyno_workbench_table_new_from_info (info, items);
  g_ptr_array_add (model->tables, table);
  /* each item: keys first, then the other attributes by name */
  {
    const DynoValue *map = dyno_item_get_map (g_ptr_array_index (table->items, 0));

    g_assert_cmpstr (dyno_value_get_member_name (map, 0, NULL), ==, "id");
    g_assert_cmpstr (dyno_value_get_member_name (map, 1, NULL), ==, "n");
    g_assert_cmpstr (dyno_value_get_member_name (map, 2, NULL), ==, "empty");
    g_assert_true (dyno_item_equal (g_ptr_array_index (table->items, 0),
                                    g_ptr_array_index (items, 0)));
  }
  /* the other attributes, in that order as first seen, with their first type */
  g_assert_cmpuint (table->attributes->len, ==, 4);
  attribute = g_ptr_array_index (table->attributes, 0);
  g_assert_cmpstr (attribute->name, ==, "empty");
  g_assert_cmpint (attribute->type, ==, DYNO_VALUE_NULL);
  attribute = g_ptr_array_index (table->attributes, 1);
  g_assert_cmpstr (attribute->name, ==, "kind");
  g_assert_cmpint (attribute->type, ==, DYNO_VALUE_S);
  attribute = g_ptr_array_index (table->attributes, 3);
  g_assert_cmpstr (attribute->name, ==, "ok");
  g_assert_cmpint (attribute->type, ==, DYNO_VALUE_BOOL);
  g_assert_cmpint (dyno_table_design_get_billing_mode (table->design), ==,
                   DYNO_BILLING_PAY_PER_REQUEST);

  text = dyno_workbench_model_to_json (model, now);
  g_assert_nonnull (strstr (text, "\"DateCreated\": \"Jan 05, 2026, 12:07 AM\""));
  g_assert_nonnull (strstr (text, "\"Version\": \"3.0\""));
  again = dyno_workbench_model_parse (text, -1, &error);
  g_assert_no_error (error);
  assert_same_model (model, again);
  table = g_ptr_array_index (again->tables, 0);
  g_assert_cmpint (dyno_table_design_get_partition_key_type (table->design), ==, DYNO_VALUE_B);
  index = dyno_table_design_get_index (table->design, 0);
  g_assert_cmpstr (index->name, ==, "kinds");
  g_assert_true (index->global);
  g_assert_cmpint (index->projection, ==, DYNO_PROJECTION_INCLUDE);
  index = dyno_table_design_get_index (table->design, 1);
  g_assert_cmpstr (index->name, ==, "by-kind");
  g_assert_false (index->global);
  g_assert_cmpint (index->projection, ==, DYNO_PROJECTION_KEYS_ONLY);
}

static void
test_find_tables (void)
{
  g_autoptr(DynoWorkbenchModel) bank = load_model ("BankModel.json");
  const char * const none[] = { "Chat", "payment-scheduler", NULL };
  const char * const both[] = { "TransactionHistory", "x", "PaymentScheduler", NULL };
  g_auto(GStrv) found_none = dyno_workbench_model_find_tables (bank, none);
  g_auto(GStrv) found_both = dyno_workbench_model_find_tables (bank, both);

  g_assert_cmpuint (g_strv_length (found_none), ==, 0);
  g_assert_cmpuint (g_strv_length (found_both), ==, 2);
  /* in the model's order */
  g_assert_cmpstr (found_both[0], ==, "PaymentScheduler");
  g_assert_cmpstr (found_both[1], ==, "TransactionHistory");
}

static void
test_date_format (void)
{
  g_autoptr(GDateTime) noon = g_date_time_new_utc (2023, 6, 16, 12, 27, 0);
  g_autoptr(GDateTime) evening = g_date_time_new_utc (2023, 10, 5, 18, 2, 0);
  g_autofree char *a = dyno_workbench_format_date (noon);
  g_autofree char *b = dyno_workbench_format_date (evening);

  g_assert_cmpstr (a, ==, "Jun 16, 2023, 12:27 PM");
  g_assert_cmpstr (b, ==, "Oct 05, 2023, 06:02 PM");
}

/* A minimal valid model with @table_members inserted into its one table ("tbl", key pk S). */
static char *
model_with (const char *table_members)
{
  return g_strdup_printf ("{\"ModelName\":\"m\",\"DataModel\":[{\"TableName\":\"tbl\","
                          "\"KeyAttributes\":{\"PartitionKey\":{\"AttributeName\":\"pk\","
                          "\"AttributeType\":\"S\"}}%s}]}", table_members);
}

static void
assert_refused (const char *text,
                const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoWorkbenchModel) model = dyno_workbench_model_parse (text, -1, &error);

  g_assert_null (model);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  g_test_message ("%s", error->message);
  if (strstr (error->message, fragment) == NULL)
    g_error ("“%s” does not say “%s”", error->message, fragment);
}

static void
test_malformed (void)
{
  static const struct {
    const char *members;
    const char *fragment;
  } cases[] = {
    { ",\"TableData\":[{\"x\":{\"S\":\"1\"}}]",
      "Table “tbl”: TableData item 1 has no key attribute “pk”" },
    { ",\"TableData\":[{\"pk\":{\"S\":\"a\"}},{\"pk\":{\"N\":\"1\"}}]",
      "Table “tbl”: TableData item 2: key attribute “pk” is N, the table says S" },
    { ",\"TableData\":[{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"one\"}}]",
      "Table “tbl”: TableData item 1 is not an item in DynamoDB JSON" },
    { ",\"TableData\":[{\"pk\":\"plain\"}]",
      "TableData item 1 is not an item in DynamoDB JSON" },
    { ",\"NonKeyAttributes\":[{\"AttributeName\":\"a\",\"AttributeType\":\"STRING\"}]",
      "Table “tbl”, NonKeyAttributes[0]: AttributeType “STRING” is not a DynamoDB type" },
    { ",\"GlobalSecondaryIndexes\":[{\"IndexName\":\"g\",\"KeyAttributes\":{\"PartitionKey\":"
      "{\"AttributeName\":\"a\",\"AttributeType\":\"S\"}},\"Projection\":{\"ProjectionType\":"
      "\"SOME\"}}]",
      "Table “tbl”, index “g”: Projection.ProjectionType must be ALL, KEYS_ONLY or INCLUDE" },
    { ",\"GlobalSecondaryIndexes\":[{\"KeyAttributes\":{}}]",
      "Table “tbl”, GlobalSecondaryIndexes[0]: IndexName is missing" },
    { ",\"GlobalSecondaryIndexes\":[{\"IndexName\":\"g\",\"KeyAttributes\":{}}]",
      "Table “tbl”, index “g”: KeyAttributes.PartitionKey is missing" },
    { ",\"GlobalSecondaryIndexes\":[{\"IndexName\":\"gsi\",\"KeyAttributes\":{\"PartitionKey\":"
      "{\"AttributeName\":\"pk\",\"AttributeType\":\"N\"}}}]",
      "Table “tbl” cannot be created: “pk” is already a String (S) key of the table" },
    { ",\"BillingMode\":\"FREE\"",
      "Table “tbl”: BillingMode must be PROVISIONED or PAY_PER_REQUEST, not “FREE”" },
    { ",\"BillingMode\":\"PROVISIONED\",\"ProvisionedCapacitySettings\":{\"ProvisionedThroughput\":"
      "{\"ReadCapacityUnits\":\"five\",\"WriteCapacityUnits\":5}}",
      "Table “tbl”: ReadCapacityUnits must be a whole number of capacity units" },
    { ",\"TableFacets\":[{\"FacetName\":\"f\",\"TableData\":[{\"pk\":{\"N\":\"1\"}}]}]",
      "Table “tbl”, facet “f”: TableData item 1: key attribute “pk” is N" },
    { ",\"TableFacets\":[{\"FacetName\":\"f\",\"NonKeyAttributes\":[1]}]",
      "Table “tbl”, facet “f”: NonKeyAttributes[0] must be an attribute name" },
    { ",\"TableFacets\":[{\"KeyAttributeAlias\":{}}]",
      "Table “tbl”, TableFacets[0]: FacetName is missing" },
    { ",\"TableData\":{}", "Table “tbl”: TableData must be a list" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = model_with (cases[i].members);

      assert_refused (text, cases[i].fragment);
    }

  assert_refused ("[1,2]", "is a JSON object with ModelName and DataModel");
  assert_refused ("{\"ModelName\":\"m\"}", "has no DataModel");
  assert_refused ("{\"DataModel\":[{\"KeyAttributes\":{}}]}", "DataModel[0]: TableName is missing");
  assert_refused ("{\"DataModel\":[{\"TableName\":\"tbl\"}]}",
                  "Table “tbl”: KeyAttributes.PartitionKey is missing");
  assert_refused ("{\"DataModel\":[{\"TableName\":\"tbl\",\"KeyAttributes\":{\"PartitionKey\":"
                  "{\"AttributeName\":\"pk\"}}}]}",
                  "Table “tbl”: KeyAttributes.PartitionKey: AttributeType is missing");
  assert_refused ("{\"DataModel\":[{\"TableName\":\"tbl\",\"KeyAttributes\":{\"PartitionKey\":"
                  "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}}},"
                  "{\"TableName\":\"tbl\",\"KeyAttributes\":{\"PartitionKey\":"
                  "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}}}]}",
                  "The model has two tables named “tbl”");
  assert_refused ("{\"ModelName\":3,\"DataModel\":[]}", "ModelName must be a string");
}

static void
test_malformed_json (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoWorkbenchModel) model = NULL;
  guint line = 0, column = 0;

  model = dyno_workbench_model_parse ("{\n  \"ModelName\": \"m\",\n  \"DataModel\": [,]\n}", -1,
                                      &error);
  g_assert_null (model);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_JSON);
  g_assert_true (g_str_has_prefix (error->message, "The model is not valid JSON: "));
  g_assert_true (dyno_error_get_location (error, &line, &column));
  g_assert_cmpuint (line, ==, 3);
  g_assert_cmpuint (column, ==, 17);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/workbench-model/real-models", test_real_models);
  g_test_add_func ("/workbench-model/details", test_details);
  g_test_add_func ("/workbench-model/plain-json-maps", test_plain_json_maps);
  g_test_add_func ("/workbench-model/create-table", test_create_table);
  g_test_add_func ("/workbench-model/round-trip", test_round_trip);
  g_test_add_func ("/workbench-model/from-table-info", test_from_table_info);
  g_test_add_func ("/workbench-model/find-tables", test_find_tables);
  g_test_add_func ("/workbench-model/date-format", test_date_format);
  g_test_add_func ("/workbench-model/malformed", test_malformed);
  g_test_add_func ("/workbench-model/malformed-json", test_malformed_json);

  return g_test_run ();
}
