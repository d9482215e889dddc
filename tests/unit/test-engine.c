/* test-engine.c: DynoEngine request by request, in memory (and once on a file)
 *
 * Expected answers are DynamoDB's (dynamodb-facts.md, test-servers.md); the differential test
 * (tests/integration/test_serve.py) checks the same kinds of requests against DynamoDB Local.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "dyno-engine.h"
#include "dyno-json.h"

static JsonNode *
call (DynoEngine *engine,
      const char *op,
      const char *body)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *response = dyno_engine_request (engine, op, body, -1, &error);
  JsonNode *node;

  g_assert_no_error (error);
  g_assert_nonnull (response);
  node = dyno_json_parse (response, -1, &error);
  g_assert_no_error (error);
  return node;
}

static void
call_fails (DynoEngine          *engine,
            const char          *op,
            const char          *body,
            DynoEngineErrorCode  code,
            const char          *message)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *response = dyno_engine_request (engine, op, body, -1, &error);

  g_assert_null (response);
  g_assert_error (error, DYNO_ENGINE_ERROR, (int) code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
}

static DynoEngine *
engine_with_table (const char *sk_type)
{
  g_autoptr(GError) error = NULL;
  DynoEngine *engine = dyno_engine_new (NULL, &error);
  g_autofree char *create = NULL;
  g_autoptr(JsonNode) node = NULL;

  g_assert_no_error (error);
  create = g_strdup_printf (
    "{\"TableName\":\"things\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"sk\",\"AttributeType\":\"%s\"},"
    "{\"AttributeName\":\"g\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byG\",\"KeySchema\":"
    "[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
    "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}]}", sk_type);
  node = call (engine, "CreateTable", create);
  g_assert_cmpstr (json_object_get_string_member (
                     json_object_get_object_member (json_node_get_object (node),
                                                    "TableDescription"), "TableStatus"),
                   ==, "ACTIVE");
  return engine;
}

static void
put (DynoEngine *engine,
     const char *item)
{
  g_autofree char *body = g_strdup_printf ("{\"TableName\":\"things\",\"Item\":%s}", item);
  g_autoptr(JsonNode) node = call (engine, "PutItem", body);
}

/* The sort keys of a Query's items, as "a,b,c" (N and S as text, B as base64). */
static char *
query_keys (DynoEngine *engine,
            const char *body,
            char      **last_key)
{
  g_autoptr(JsonNode) node = call (engine, "Query", body);
  JsonObject *object = json_node_get_object (node);
  JsonArray *items = json_object_get_array_member (object, "Items");
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonObject *sk = json_object_get_object_member (json_array_get_object_element (items, i),
                                                      "sk");
      GList *members = json_object_get_members (sk);

      g_string_append_printf (out, "%s%s", i ? "," : "",
                              json_object_get_string_member (sk, members->data));
      g_list_free (members);
    }
  if (last_key != NULL)
    *last_key = json_object_has_member (object, "LastEvaluatedKey")
                ? dyno_json_node_to_string (json_object_get_member (object, "LastEvaluatedKey"),
                                            FALSE)
                : NULL;
  return g_string_free (out, FALSE);
}

static void
test_number_order (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");
  static const char * const numbers[] = {
    "-9.9999999999999999999999999999999999999E+125", "-100", "-10", "-1.5", "-1", "-0.5",
    "-0.000001", "-1E-130", "0", "1E-130", "0.001", "0.5", "1", "1.05", "1.5", "9", "10",
    "10.5", "100", "12345678901234567890123456789012345678",
    "9.9999999999999999999999999999999999999E+125" };
  g_autofree char *keys = NULL;
  g_autofree char *desc = NULL;
  g_auto(GStrv) parts = NULL;

  for (guint i = G_N_ELEMENTS (numbers); i > 0; i--)
    {
      g_autofree char *item = g_strdup_printf ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"%s\"}}",
                                               numbers[i - 1]);
      put (engine, item);
    }
  keys = query_keys (engine, "{\"TableName\":\"things\",\"KeyConditionExpression\":\"pk = :p\","
                     "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p\"}}}", NULL);
  parts = g_strsplit (keys, ",", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, G_N_ELEMENTS (numbers));
  g_assert_true (g_str_has_prefix (parts[0], "-99999999999999999999999999999999999999000"));
  g_assert_cmpuint (strlen (parts[0]), ==, 127);
  g_assert_cmpstr (parts[1], ==, "-100");
  g_assert_cmpstr (parts[2], ==, "-10");
  g_assert_cmpstr (parts[3], ==, "-1.5");
  g_assert_cmpstr (parts[6], ==, "-0.000001");
  g_assert_true (g_str_has_prefix (parts[7], "-0.0000000000"));
  g_assert_cmpstr (parts[8], ==, "0");
  g_assert_true (g_str_has_prefix (parts[9], "0.0000000000"));
  g_assert_cmpstr (parts[10], ==, "0.001");
  g_assert_true (g_str_has_prefix (parts[20], "99999999999999999999999999999999999999000"));
  g_assert_cmpstr (parts[12], ==, "1");
  g_assert_cmpstr (parts[13], ==, "1.05");
  g_assert_cmpstr (parts[19], ==, "12345678901234567890123456789012345678");

  desc = query_keys (engine, "{\"TableName\":\"things\",\"KeyConditionExpression\":"
                     "\"pk = :p AND sk BETWEEN :a AND :b\",\"ScanIndexForward\":false,"
                     "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p\"},"
                     "\":a\":{\"N\":\"-1\"},\":b\":{\"N\":\"1.5\"}}}", NULL);
  {
    /* 1E-130 is 0. followed by 129 zeros and a 1 */
    g_autofree char *zeros = g_strnfill (129, '0');
    g_autofree char *expected = g_strdup_printf ("1.5,1.05,1,0.5,0.001,0.%s1,0,-0.%s1,-0.000001,"
                                                 "-0.5,-1", zeros, zeros);

    g_assert_cmpstr (desc, ==, expected);
  }
}

static void
test_string_and_binary_order (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("S");
  g_autoptr(DynoEngine) bengine = engine_with_table ("B");
  /* UTF-8 byte order: a < a~ < aé < a～ < a� < a😀 < b */
  static const char * const strings[] = { "b", "a\xf0\x9f\x98\x80", "a\xef\xbf\xbd",
                                          "a\xef\xbd\x9e", "a\xc3\xa9", "a~", "a" };
  g_autofree char *keys = NULL;
  g_autofree char *prefixed = NULL;
  g_autofree char *bkeys = NULL;
  g_autofree char *bprefix = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    {
      g_autofree char *item = g_strdup_printf ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"S\":\"%s\"}}",
                                               strings[i]);
      put (engine, item);
    }
  keys = query_keys (engine, "{\"TableName\":\"things\",\"KeyConditionExpression\":\"pk = :p\","
                     "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p\"}}}", NULL);
  g_assert_cmpstr (keys, ==, "a,a~,a\xc3\xa9,a\xef\xbd\x9e,a\xef\xbf\xbd,a\xf0\x9f\x98\x80,b");
  prefixed = query_keys (engine, "{\"TableName\":\"things\",\"KeyConditionExpression\":"
                         "\"pk = :p AND begins_with(sk, :a)\",\"ScanIndexForward\":false,"
                         "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p\"},"
                         "\":a\":{\"S\":\"a\"}}}", NULL);
  g_assert_cmpstr (prefixed, ==, "a\xf0\x9f\x98\x80,a\xef\xbf\xbd,a\xef\xbd\x9e,a\xc3\xa9,a~,a");

  /* B: unsigned bytes; begins_with on a prefix of 0xFF has no upper bound */
  put (bengine, "{\"pk\":{\"S\":\"p\"},\"sk\":{\"B\":\"/w==\"}}");     /* FF */
  put (bengine, "{\"pk\":{\"S\":\"p\"},\"sk\":{\"B\":\"//8=\"}}");     /* FF FF */
  put (bengine, "{\"pk\":{\"S\":\"p\"},\"sk\":{\"B\":\"gA==\"}}");     /* 80 */
  put (bengine, "{\"pk\":{\"S\":\"p\"},\"sk\":{\"B\":\"AA==\"}}");     /* 00 */
  put (bengine, "{\"pk\":{\"S\":\"p\"},\"sk\":{\"B\":\"fw==\"}}");     /* 7F */
  bkeys = query_keys (bengine, "{\"TableName\":\"things\",\"KeyConditionExpression\":"
                      "\"pk = :p\",\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p\"}}}", NULL);
  g_assert_cmpstr (bkeys, ==, "AA==,fw==,gA==,/w==,//8=");
  bprefix = query_keys (bengine, "{\"TableName\":\"things\",\"KeyConditionExpression\":"
                        "\"pk = :p AND begins_with(sk, :b)\",\"ExpressionAttributeValues\":"
                        "{\":p\":{\"S\":\"p\"},\":b\":{\"B\":\"/w==\"}}}", NULL);
  g_assert_cmpstr (bprefix, ==, "/w==,//8=");
}

static void
test_pages (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");
  g_autofree char *blob = g_strnfill (100 * 1024, 'x');
  g_autofree char *start = NULL;
  guint pages[4] = { 0 }, n = 0;

  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *item = g_strdup_printf ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"%u\"},"
                                               "\"d\":{\"S\":\"%s\"}}", i, blob);
      put (engine, item);
    }
  /* 30 items of 100 KB: the page stops just after passing 1 MB, so 11, 11, 8 */
  do
    {
      g_autofree char *body = g_strdup_printf (
        "{\"TableName\":\"things\",\"KeyConditionExpression\":\"pk = :p\","
        "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p\"}}%s%s}",
        start ? ",\"ExclusiveStartKey\":" : "", start ? start : "");
      g_autofree char *keys = NULL;
      g_auto(GStrv) parts = NULL;
      char *next = NULL;

      keys = query_keys (engine, body, &next);
      parts = g_strsplit (keys, ",", -1);
      g_assert_cmpuint (n, <, 3);
      pages[n++] = g_strv_length (parts);
      g_free (start);
      start = next;
    }
  while (start != NULL);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (pages[0], ==, 11);
  g_assert_cmpuint (pages[1], ==, 11);
  g_assert_cmpuint (pages[2], ==, 8);

  /* Limit: the last evaluated item is the key, also when a filter drops it */
  {
    g_autoptr(JsonNode) node = call (engine, "Query",
      "{\"TableName\":\"things\",\"KeyConditionExpression\":\"pk = :p\",\"Limit\":3,"
      "\"FilterExpression\":\"attribute_not_exists(d)\",\"ReturnConsumedCapacity\":\"TOTAL\","
      "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p\"}}}");
    JsonObject *o = json_node_get_object (node);
    g_autofree char *lek = dyno_json_node_to_string (json_object_get_member (o,
                                                     "LastEvaluatedKey"), FALSE);

    g_assert_cmpint (json_object_get_int_member (o, "Count"), ==, 0);
    g_assert_cmpint (json_object_get_int_member (o, "ScannedCount"), ==, 3);
    g_assert_cmpstr (lek, ==, "{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"2\"}}");
    /* 3 × ~100 KB read = 300 KB -> 76 units of 4 KB, halved: eventually consistent */
    g_assert_cmpfloat (json_object_get_double_member (
                         json_object_get_object_member (o, "ConsumedCapacity"), "CapacityUnits"),
                       ==, 38.0);
  }
}

static void
test_scan_segments (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");
  gint64 total = 0;

  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *item = g_strdup_printf ("{\"pk\":{\"S\":\"p%u\"},\"sk\":{\"N\":\"%u\"}}",
                                               i % 50, i);
      put (engine, item);
    }
  for (guint s = 0; s < 4; s++)
    {
      g_autofree char *body = g_strdup_printf ("{\"TableName\":\"things\",\"Select\":\"COUNT\","
                                               "\"Segment\":%u,\"TotalSegments\":4}", s);
      g_autoptr(JsonNode) node = call (engine, "Scan", body);
      gint64 count = json_object_get_int_member (json_node_get_object (node), "Count");

      g_assert_cmpint (count, <, 200);
      total += count;
    }
  g_assert_cmpint (total, ==, 200);
  call_fails (engine, "Scan", "{\"TableName\":\"things\",\"Segment\":4,\"TotalSegments\":4}",
              DYNO_ENGINE_ERROR_VALIDATION, NULL);
}

static void
test_index_maintained (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");
  g_autofree char *keys = NULL;

  put (engine, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"g\":{\"S\":\"x\"},"
               "\"v\":{\"N\":\"1\"}}");
  put (engine, "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"},\"g\":{\"S\":\"x\"}}");
  put (engine, "{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"3\"}}");
  /* moving an item to another index partition, and out of the index */
  {
    g_autoptr(JsonNode) n1 = call (engine, "UpdateItem",
      "{\"TableName\":\"things\",\"Key\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"}},"
      "\"UpdateExpression\":\"SET g = :y\",\"ExpressionAttributeValues\":{\":y\":{\"S\":\"y\"}}}");
    g_autoptr(JsonNode) n2 = call (engine, "UpdateItem",
      "{\"TableName\":\"things\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}},"
      "\"UpdateExpression\":\"REMOVE g\"}");
  }
  keys = query_keys (engine, "{\"TableName\":\"things\",\"IndexName\":\"byG\","
                     "\"KeyConditionExpression\":\"g = :g\","
                     "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"x\"}}}", NULL);
  g_assert_cmpstr (keys, ==, "");
  g_clear_pointer (&keys, g_free);
  keys = query_keys (engine, "{\"TableName\":\"things\",\"IndexName\":\"byG\","
                     "\"KeyConditionExpression\":\"g = :g\","
                     "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"y\"}}}", NULL);
  g_assert_cmpstr (keys, ==, "2");
  call_fails (engine, "Query", "{\"TableName\":\"things\",\"IndexName\":\"byG\","
              "\"ConsistentRead\":true,\"KeyConditionExpression\":\"g = :g\","
              "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"y\"}}}",
              DYNO_ENGINE_ERROR_VALIDATION,
              "Consistent reads are not supported on global secondary indexes");
  call_fails (engine, "PutItem", "{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":\"a\"},"
              "\"sk\":{\"N\":\"1\"},\"g\":{\"N\":\"1\"}}}", DYNO_ENGINE_ERROR_VALIDATION,
              "One or more parameter values were invalid: Type mismatch for Index Key g "
              "Expected: S Actual: N IndexName: byG");
}

/* A table and an index with no sort key: their empty sort-key buffers are compared when an
 * item is rewritten (UBSan once caught a memcmp() of their NULL data here). */
static void
test_hash_only_rewrite (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngine) engine = dyno_engine_new (NULL, &error);

  g_assert_no_error (error);
  {
    g_autoptr(JsonNode) created = call (engine, "CreateTable",
      "{\"TableName\":\"flat\",\"BillingMode\":\"PAY_PER_REQUEST\","
      "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
      "{\"AttributeName\":\"g\",\"AttributeType\":\"S\"}],"
      "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
      "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byG\",\"KeySchema\":"
      "[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
      "\"Projection\":{\"ProjectionType\":\"ALL\"}}]}");
    g_autoptr(JsonNode) p1 = call (engine, "PutItem",
      "{\"TableName\":\"flat\",\"Item\":{\"pk\":{\"S\":\"a\"},\"g\":{\"S\":\"x\"}}}");
    g_autoptr(JsonNode) p2 = call (engine, "PutItem",
      "{\"TableName\":\"flat\",\"Item\":{\"pk\":{\"S\":\"a\"},\"g\":{\"S\":\"x\"},"
      "\"v\":{\"N\":\"1\"}}}");
    g_autoptr(JsonNode) u = call (engine, "UpdateItem",
      "{\"TableName\":\"flat\",\"Key\":{\"pk\":{\"S\":\"a\"}},"
      "\"UpdateExpression\":\"SET g = :y\",\"ExpressionAttributeValues\":"
      "{\":y\":{\"S\":\"y\"}}}");
    g_autoptr(JsonNode) q = call (engine, "Query",
      "{\"TableName\":\"flat\",\"IndexName\":\"byG\",\"KeyConditionExpression\":"
      "\"g = :g\",\"ExpressionAttributeValues\":{\":g\":{\"S\":\"y\"}}}");
    JsonArray *items = json_object_get_array_member (json_node_get_object (q), "Items");

    g_assert_cmpuint (json_array_get_length (items), ==, 1);
    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                       json_array_get_object_element (items, 0), "v"), "N"), ==, "1");
  }
}

/* Index rows with equal index keys: pages of a Query on the index and of a Scan of it see
 * every item once, in both directions. */
static void
test_index_ties_page (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *item = g_strdup_printf ("{\"pk\":{\"S\":\"p%u\"},\"sk\":{\"N\":\"%u\"},"
                                               "\"g\":{\"S\":\"same\"}}", i % 3, i);
      put (engine, item);
    }
  for (int forward = 0; forward < 3; forward++)
    {
      g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autofree char *start = NULL;
      guint pages = 0;

      do
        {
          g_autofree char *body = g_strdup_printf (
            forward == 2 ? "{\"TableName\":\"things\",\"IndexName\":\"byG\",\"Limit\":3%s%s}"
                         : "{\"TableName\":\"things\",\"IndexName\":\"byG\",\"Limit\":3,"
                           "\"KeyConditionExpression\":\"g = :g\",\"ScanIndexForward\":%s,"
                           "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"same\"}}%s%s}",
            forward == 2 ? (start ? ",\"ExclusiveStartKey\":" : "")
                         : (forward ? "true" : "false"),
            forward == 2 ? (start ? start : "") : (start ? ",\"ExclusiveStartKey\":" : ""),
            forward == 2 ? "" : (start ? start : ""));
          g_autoptr(JsonNode) node = call (engine, forward == 2 ? "Scan" : "Query", body);
          JsonObject *o = json_node_get_object (node);
          JsonArray *items = json_object_get_array_member (o, "Items");

          for (guint i = 0; i < json_array_get_length (items); i++)
            g_assert_true (g_hash_table_add (seen, dyno_json_node_to_string (
                                               json_array_get_element (items, i), FALSE)));
          g_free (start);
          start = json_object_has_member (o, "LastEvaluatedKey")
                  ? dyno_json_node_to_string (json_object_get_member (o, "LastEvaluatedKey"),
                                              FALSE)
                  : NULL;
          g_assert_cmpuint (++pages, <=, 8);
        }
      while (start != NULL);
      g_assert_cmpuint (g_hash_table_size (seen), ==, 20);
    }
}

static void
test_key_errors (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");

  call_fails (engine, "GetItem", "{\"TableName\":\"things\",\"Key\":{\"pk\":{\"S\":\"a\"}}}",
              DYNO_ENGINE_ERROR_VALIDATION, "The provided key element does not match the schema");
  call_fails (engine, "GetItem", "{\"TableName\":\"things\",\"Key\":{\"pk\":{\"S\":\"\"},"
              "\"sk\":{\"N\":\"1\"}}}", DYNO_ENGINE_ERROR_VALIDATION,
              "One or more parameter values were invalid: The AttributeValue for a key "
              "attribute cannot contain an empty string value. Key: pk");
  call_fails (engine, "PutItem", "{\"TableName\":\"things\",\"Item\":{\"sk\":{\"N\":\"1\"}}}",
              DYNO_ENGINE_ERROR_VALIDATION,
              "One or more parameter values were invalid: Missing the key pk in the item");
  call_fails (engine, "GetItem", "{\"TableName\":\"nothing\",\"Key\":{\"pk\":{\"S\":\"a\"}}}",
              DYNO_ENGINE_ERROR_RESOURCE_NOT_FOUND, "Requested resource not found");
  call_fails (engine, "Query", "{\"TableName\":\"things\",\"KeyConditionExpression\":"
              "\"pk = :p AND begins_with(sk, :n)\",\"ExpressionAttributeValues\":"
              "{\":p\":{\"S\":\"a\"},\":n\":{\"N\":\"1\"}}}", DYNO_ENGINE_ERROR_VALIDATION,
              "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
              "operator or function: begins_with, operand type: N");
  call_fails (engine, "Query", "{\"TableName\":\"things\",\"KeyConditionExpression\":"
              "\"pk = :p AND sk BETWEEN :b AND :a\",\"ExpressionAttributeValues\":"
              "{\":p\":{\"S\":\"a\"},\":a\":{\"N\":\"1\"},\":b\":{\"N\":\"2\"}}}",
              DYNO_ENGINE_ERROR_VALIDATION,
              "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be "
              "greater than or equal to lower bound; lower bound operand: AttributeValue: {N:2}, "
              "upper bound operand: AttributeValue: {N:1}");
  call_fails (engine, "Query", "{\"TableName\":\"things\",\"KeyConditionExpression\":"
              "\"sk = :a\",\"ExpressionAttributeValues\":{\":a\":{\"N\":\"1\"}}}",
              DYNO_ENGINE_ERROR_VALIDATION, "Query condition missed key schema element: pk");
  call_fails (engine, "Query", "{\"TableName\":\"things\",\"KeyConditionExpression\":"
              "\"pk = :p\",\"FilterExpression\":\"sk > :a\",\"ExpressionAttributeValues\":"
              "{\":p\":{\"S\":\"a\"},\":a\":{\"N\":\"1\"}}}", DYNO_ENGINE_ERROR_VALIDATION,
              "Filter Expression can only contain non-primary key attributes: Primary key "
              "attribute: sk");
  call_fails (engine, "NoSuchThing", "{}", DYNO_ENGINE_ERROR_UNKNOWN_OPERATION, NULL);
  call_fails (engine, "PutItem", "{not json", DYNO_ENGINE_ERROR_SERIALIZATION, NULL);
}

static void
test_conditional_writes (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");
  g_autoptr(JsonNode) old = NULL;
  g_autoptr(JsonNode) got = NULL;
  g_autofree char *item = NULL;

  put (engine, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"N\":\"1\"}}");
  call_fails (engine, "PutItem", "{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":\"a\"},"
              "\"sk\":{\"N\":\"1\"}},\"ConditionExpression\":\"attribute_not_exists(pk)\"}",
              DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed");
  old = call (engine, "PutItem", "{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":\"a\"},"
              "\"sk\":{\"N\":\"1\"},\"v\":{\"N\":\"2\"}},\"ConditionExpression\":\"v = :one\","
              "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}},"
              "\"ReturnValues\":\"ALL_OLD\"}");
  item = dyno_json_node_to_string (json_object_get_member (json_node_get_object (old),
                                                           "Attributes"), FALSE);
  g_assert_cmpstr (item, ==, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"N\":\"1\"}}");
  call_fails (engine, "PutItem", "{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":\"a\"},"
              "\"sk\":{\"N\":\"1\"}},\"ReturnValues\":\"ALL_NEW\"}",
              DYNO_ENGINE_ERROR_VALIDATION, NULL);
  got = call (engine, "GetItem", "{\"TableName\":\"things\",\"Key\":{\"pk\":{\"S\":\"a\"},"
              "\"sk\":{\"N\":\"1\"}},\"ProjectionExpression\":\"v\"}");
  g_clear_pointer (&item, g_free);
  item = dyno_json_node_to_string (json_object_get_member (json_node_get_object (got), "Item"),
                                   FALSE);
  g_assert_cmpstr (item, ==, "{\"v\":{\"N\":\"2\"}}");
}

static void
test_batches (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");
  g_autoptr(JsonNode) written = NULL;
  g_autoptr(JsonNode) got = NULL;
  g_autoptr(JsonNode) described = NULL;

  call_fails (engine, "BatchWriteItem", "{\"RequestItems\":{\"things\":["
              "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}},"
              "{\"DeleteRequest\":{\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}}]}}",
              DYNO_ENGINE_ERROR_VALIDATION, "Provided list of item keys contains duplicates");
  written = call (engine, "BatchWriteItem", "{\"ReturnConsumedCapacity\":\"TOTAL\","
                  "\"RequestItems\":{\"things\":["
                  "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}},"
                  "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},"
                  "\"g\":{\"S\":\"x\"}}}}]}}");
  /* two 1 KB table writes and one index write */
  g_assert_cmpfloat (json_object_get_double_member (
                       json_array_get_object_element (json_object_get_array_member (
                         json_node_get_object (written), "ConsumedCapacity"), 0),
                       "CapacityUnits"), ==, 3.0);
  got = call (engine, "BatchGetItem", "{\"RequestItems\":{\"things\":{\"Keys\":["
              "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"}},"
              "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"9\"}}],"
              "\"ProjectionExpression\":\"g\"}}}");
  {
    g_autofree char *responses = dyno_json_node_to_string (
      json_object_get_member (json_node_get_object (got), "Responses"), FALSE);

    g_assert_cmpstr (responses, ==, "{\"things\":[{\"g\":{\"S\":\"x\"}}]}");
  }
  described = call (engine, "DescribeTable", "{\"TableName\":\"things\"}");
  {
    JsonObject *table = json_object_get_object_member (json_node_get_object (described), "Table");
    JsonObject *gsi = json_array_get_object_element (
      json_object_get_array_member (table, "GlobalSecondaryIndexes"), 0);

    g_assert_cmpint (json_object_get_int_member (table, "ItemCount"), ==, 2);
    g_assert_cmpint (json_object_get_int_member (gsi, "ItemCount"), ==, 1);
    g_assert_cmpstr (json_object_get_string_member (gsi, "IndexStatus"), ==, "ACTIVE");
  }
}

/* BatchWriteItem has two readers: one reads the usual request in place, the other (a
 * json-glib tree) everything else, with DynamoDB's errors.  Each body is sent as it is to
 * one engine, and to another behind an empty RequestItems: a member twice, which the fast
 * reader leaves to the tree reader, for which the last one counts.  Answers, errors and the
 * items after must be the same. */
static char *
scan_all (DynoEngine *engine)
{
  g_autofree char *a = dyno_engine_request (engine, "Scan", "{\"TableName\":\"things\"}", -1,
                                            NULL);
  g_autofree char *b = dyno_engine_request (engine, "Scan", "{\"TableName\":\"things\","
                                            "\"IndexName\":\"byG\"}", -1, NULL);

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  return g_strconcat (a, b, NULL);
}

static void
test_batch_readers_agree (void)
{
  static const char *const bodies[] = {
    /* the usual */
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"},"
    "\"sk\":{\"N\":\"1\"},\"g\":{\"S\":\"x\"},\"v\":{\"L\":[{\"N\":\"1.50\"},{\"B\":\"AQI=\"}]}}}},"
    "{\"DeleteRequest\":{\"Key\":{\"pk\":{\"S\":\"z\"},\"sk\":{\"N\":\"9\"}}}}]}}",
    /* whitespace, members the engine ignores, an escaped table name */
    " { \"ReturnItemCollectionMetrics\" : \"NONE\" , \"RequestItems\" : { \"thing\\u0073\" : "
    "[ { \"Extra\" : [1, {\"a\": null}] , \"PutRequest\" : { \"Item\" : { \"pk\" : {\"S\":\"b\"} ,"
    " \"sk\" : {\"N\":\"2\"} } , \"Other\" : true } } ] } } ",
    /* the same key twice */
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"},"
    "\"sk\":{\"N\":\"1\"}}}},{\"DeleteRequest\":{\"Key\":{\"pk\":{\"S\":\"a\"},"
    "\"sk\":{\"N\":\"1\"}}}}]}}",
    /* a table that is not there, after one that is */
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"c\"},"
    "\"sk\":{\"N\":\"1\"}}}}],\"nothing\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"c\"}}}}]}}",
    /* no writes; no tables; no RequestItems; RequestItems of another type */
    "{\"RequestItems\":{\"things\":[]}}",
    "{\"RequestItems\":{}}",
    "{}",
    "{\"RequestItems\":[1]}",
    "{\"RequestItems\":{\"things\":{}}}",
    /* a value DynamoDB refuses; an attribute twice; a missing key attribute; a number too big */
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"d\"},"
    "\"sk\":{\"N\":\"1\"},\"v\":{\"S\":1}}}}]}}",
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"d\"},"
    "\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"1\"},\"v\":{\"N\":\"2\"}}}}]}}",
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"d\"}}}}]}}",
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"d\"},"
    "\"sk\":{\"N\":\"1E+126\"}}}}]}}",
    /* both requests in one write; neither; no Item; a Key with more than the key */
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"e\"},"
    "\"sk\":{\"N\":\"1\"}}},\"DeleteRequest\":{\"Key\":{\"pk\":{\"S\":\"e\"},"
    "\"sk\":{\"N\":\"1\"}}}}]}}",
    "{\"RequestItems\":{\"things\":[{}]}}",
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{}}]}}",
    "{\"RequestItems\":{\"things\":[{\"DeleteRequest\":{\"Key\":{\"pk\":{\"S\":\"a\"},"
    "\"sk\":{\"N\":\"1\"},\"g\":{\"S\":\"x\"}}}}]}}",
    /* a table twice (the tree reader keeps the last) */
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"f\"},"
    "\"sk\":{\"N\":\"1\"}}}}],\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"f\"},"
    "\"sk\":{\"N\":\"2\"}}}}]}}",
    /* a request twice in one write; an item twice in one request (the last is kept) */
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"h\"},"
    "\"sk\":{\"N\":\"1\"}}},\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"h\"},"
    "\"sk\":{\"N\":\"2\"}}}}]}}",
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"i\"},"
    "\"sk\":{\"N\":\"1\"}},\"Item\":{\"pk\":{\"S\":\"i\"},\"sk\":{\"N\":\"2\"}}}}]}}",
    /* 26 writes are made below; bad JSON */
    "{\"RequestItems\":{\"things\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"g\"},",
    "{\"RequestItems\":{\"things\":[]}} trailing",
  };
  g_autoptr(GString) many = g_string_new ("{\"RequestItems\":{\"things\":[");
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  for (guint i = 0; i < 26; i++)
    g_string_append_printf (many, "%s{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"m\"},"
                            "\"sk\":{\"N\":\"%u\"}}}}", i ? "," : "", i);
  g_string_append (many, "]}}");
  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    g_ptr_array_add (all, (gpointer) bodies[i]);
  g_ptr_array_add (all, many->str);

  for (guint i = 0; i < all->len; i++)
    {
      const char *body = g_ptr_array_index (all, i);
      const char *brace = strchr (body, '{');
      g_autofree char *slow_body = g_strdup_printf (
        "{\"RequestItems\":{}%s%s", brace[1] == '}' ? "" : ",",
        brace + 1);
      g_autoptr(DynoEngine) fast = engine_with_table ("N");
      g_autoptr(DynoEngine) slow = engine_with_table ("N");
      g_autoptr(GError) fast_error = NULL;
      g_autoptr(GError) slow_error = NULL;
      g_autofree char *fast_answer = NULL, *slow_answer = NULL;
      g_autofree char *fast_items = NULL, *slow_items = NULL;

      put (fast, "{\"pk\":{\"S\":\"z\"},\"sk\":{\"N\":\"9\"}}");
      put (slow, "{\"pk\":{\"S\":\"z\"},\"sk\":{\"N\":\"9\"}}");
      g_test_message ("%s", body);
      fast_answer = dyno_engine_request (fast, "BatchWriteItem", body, -1, &fast_error);
      slow_answer = dyno_engine_request (slow, "BatchWriteItem", slow_body, -1, &slow_error);
      g_assert_cmpstr (fast_answer, ==, slow_answer);
      if (slow_error != NULL)
        {
          g_assert_nonnull (fast_error);
          g_assert_cmpint (fast_error->code, ==, slow_error->code);
          /* a message naming a line and column counts from the body's start */
          if (strstr (slow_error->message, "line") == NULL)
            g_assert_cmpstr (fast_error->message, ==, slow_error->message);
        }
      else
        g_assert_no_error (fast_error);
      fast_items = scan_all (fast);
      slow_items = scan_all (slow);
      g_assert_cmpstr (fast_items, ==, slow_items);
    }
}

/* A batch's puts of new keys are inserted in one step; a put over an item (or over one past
 * its TTL) replaces it, with its index entries moved and the table's counters kept. */
static void
test_batch_overwrite (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");
  g_autoptr(JsonNode) first = NULL, second = NULL, described = NULL;
  g_autoptr(JsonNode) on_x = NULL, on_y = NULL;
  JsonObject *table;

  first = call (engine, "BatchWriteItem", "{\"RequestItems\":{\"things\":["
                "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},"
                "\"g\":{\"S\":\"x\"},\"v\":{\"S\":\"old\"}}}}]}}");
  second = call (engine, "BatchWriteItem", "{\"ReturnConsumedCapacity\":\"INDEXES\","
                 "\"RequestItems\":{\"things\":["
                 "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},"
                 "\"g\":{\"S\":\"y\"}}}},"
                 "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"1\"},"
                 "\"g\":{\"S\":\"y\"}}}}]}}");
  {
    JsonObject *cap = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (second), "ConsumedCapacity"), 0);
    JsonObject *gsi = json_object_get_object_member (
      json_object_get_object_member (cap, "GlobalSecondaryIndexes"), "byG");

    /* two table writes; on byG a's entry moves (removed and put) and b's is put */
    g_assert_cmpfloat (json_object_get_double_member (
                         json_object_get_object_member (cap, "Table"), "CapacityUnits"), ==, 2.0);
    g_assert_cmpfloat (json_object_get_double_member (gsi, "CapacityUnits"), ==, 3.0);
  }
  on_x = call (engine, "Query", "{\"TableName\":\"things\",\"IndexName\":\"byG\","
               "\"KeyConditionExpression\":\"g = :g\",\"ExpressionAttributeValues\":"
               "{\":g\":{\"S\":\"x\"}}}");
  on_y = call (engine, "Query", "{\"TableName\":\"things\",\"IndexName\":\"byG\","
               "\"KeyConditionExpression\":\"g = :g\",\"ExpressionAttributeValues\":"
               "{\":g\":{\"S\":\"y\"}}}");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (on_x), "Count"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (on_y), "Count"), ==, 2);
  described = call (engine, "DescribeTable", "{\"TableName\":\"things\"}");
  table = json_object_get_object_member (json_node_get_object (described), "Table");
  g_assert_cmpint (json_object_get_int_member (table, "ItemCount"), ==, 2);
  {
    g_autoptr(DynoItem) a = dyno_item_from_ddb_json (
      "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"g\":{\"S\":\"y\"}}", -1, NULL);
    g_autoptr(DynoItem) b = dyno_item_from_ddb_json (
      "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"1\"},\"g\":{\"S\":\"y\"}}", -1, NULL);

    g_assert_cmpint (json_object_get_int_member (table, "TableSizeBytes"), ==,
                     (gint64) (dyno_item_get_size (a) + dyno_item_get_size (b)));
  }
}

/* Reads with nothing to filter or project send each item as the engine stored it; with a
 * filter every item is read and written again.  A filter that keeps everything must give the
 * same pages, byte for byte: Items, Count, ScannedCount, LastEvaluatedKey. */
static void
test_read_as_stored (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");
  /* each read: its operation, and its members after TableName */
  static const char *const reads[][2] = {
    { "Query", ",\"KeyConditionExpression\":\"pk = :p\","
               "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p\\u00001\"}}" },
    { "Query", ",\"KeyConditionExpression\":\"pk = :p\",\"ScanIndexForward\":false,"
               "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p\\u00001\"}}" },
    { "Query", ",\"IndexName\":\"byG\",\"KeyConditionExpression\":\"g = :g\","
               "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"g\"}}" },
    { "Scan", "" },
  };
  const char *keep_all = "\"FilterExpression\":\"attribute_exists(v) OR attribute_not_exists(v)\"";

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *item = g_strdup_printf (
        "{\"pk\":{\"S\":\"p\\u0000%u\"},\"sk\":{\"N\":\"%u.50\"},\"g\":{\"S\":\"g\"},"
        "\"v\":{\"M\":{\"z\":{\"NS\":[\"3\",\"1e2\"]},\"a\":{\"L\":[{\"B\":\"AP8=\"},"
        "{\"S\":\"\\u00e9\\\"\\n\"},{\"NULL\":true}]}}},\"b\":{\"BOOL\":%s}}",
        i % 2, i, i % 3 ? "true" : "false");

      put (engine, item);
    }
  for (guint r = 0; r < G_N_ELEMENTS (reads); r++)
    for (guint limit = 0; limit <= 7; limit += 7)
      {
        g_autofree char *start = NULL;
        guint pages = 0;

        do
          {
            g_autoptr(GString) common = g_string_new ("\"TableName\":\"things\"");
            g_autofree char *plain = NULL, *filtered = NULL;
            g_autofree char *a = NULL, *b = NULL;
            g_autoptr(GError) error = NULL;
            g_autoptr(JsonNode) node = NULL;
            JsonObject *object;

            g_string_append (common, reads[r][1]);
            if (limit > 0)
              g_string_append_printf (common, ",\"Limit\":%u", limit);
            if (start != NULL)
              g_string_append_printf (common, ",\"ExclusiveStartKey\":%s", start);
            plain = g_strdup_printf ("{%s}", common->str);
            filtered = g_strdup_printf ("{%s,%s}", common->str, keep_all);
            a = dyno_engine_request (engine, reads[r][0], plain, -1, &error);
            g_assert_no_error (error);
            b = dyno_engine_request (engine, reads[r][0], filtered, -1, &error);
            g_assert_no_error (error);
            g_assert_cmpstr (a, ==, b);
            node = dyno_json_parse (a, -1, &error);
            g_assert_no_error (error);
            object = json_node_get_object (node);
            g_clear_pointer (&start, g_free);
            if (json_object_has_member (object, "LastEvaluatedKey"))
              start = dyno_json_node_to_string (json_object_get_member (object,
                                                                        "LastEvaluatedKey"),
                                                FALSE);
            pages++;
          }
        while (start != NULL);
        /* Limit 7 reads 20 items (or 40) in pages of 7, and one more empty page or not */
        g_assert_cmpuint (pages, >=, limit ? 3 : 1);
      }
}

/* A row changed outside the engine (the file is SQLite's, open to `sqlite3`) into something
 * that is not an item is refused by every read, never sent on. */
static void
test_damaged_row (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("dyno-engine-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "w.db", NULL);
  sqlite3 *db = NULL;

  {
    g_autoptr(DynoEngine) engine = dyno_engine_new (path, &error);
    g_autoptr(JsonNode) node = NULL;

    g_assert_no_error (error);
    node = call (engine, "CreateTable", "{\"TableName\":\"things\",\"BillingMode\":"
                 "\"PAY_PER_REQUEST\",\"AttributeDefinitions\":[{\"AttributeName\":\"pk\","
                 "\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"pk\","
                 "\"KeyType\":\"HASH\"}]}");
    put (engine, "{\"pk\":{\"S\":\"a\"}}");
    put (engine, "{\"pk\":{\"S\":\"b\"}}");
  }
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "UPDATE dyno_items SET item = '{\"pk\":{\"S\":\"b\"},' "
                                 "WHERE item LIKE '%\"b\"%'", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_close (db);
  {
    g_autoptr(DynoEngine) engine = dyno_engine_new (path, &error);

    g_assert_no_error (error);
    call_fails (engine, "Scan", "{\"TableName\":\"things\"}", DYNO_ENGINE_ERROR_INTERNAL, NULL);
    call_fails (engine, "Query", "{\"TableName\":\"things\",\"KeyConditionExpression\":"
                "\"pk = :p\",\"ExpressionAttributeValues\":{\":p\":{\"S\":\"b\"}}}",
                DYNO_ENGINE_ERROR_INTERNAL, NULL);
    /* the other item reads as it was */
    {
      g_autoptr(JsonNode) node = call (engine, "Query", "{\"TableName\":\"things\","
                                       "\"KeyConditionExpression\":\"pk = :p\","
                                       "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"a\"}}}");

      g_assert_cmpint (json_object_get_int_member (json_node_get_object (node), "Count"), ==, 1);
    }
  }
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_create_table_rules (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngine) engine = dyno_engine_new (NULL, &error);

  g_assert_no_error (error);
  call_fails (engine, "CreateTable", "{\"TableName\":\"t1x\",\"BillingMode\":\"PAY_PER_REQUEST\","
              "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
              "{\"AttributeName\":\"extra\",\"AttributeType\":\"S\"}],"
              "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]}",
              DYNO_ENGINE_ERROR_VALIDATION, "One or more parameter values were invalid: Number "
              "of attributes in KeySchema does not exactly match number of attributes defined "
              "in AttributeDefinitions");
  call_fails (engine, "CreateTable", "{\"TableName\":\"t1x\","
              "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
              "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]}",
              DYNO_ENGINE_ERROR_VALIDATION, "One or more parameter values were invalid: "
              "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode "
              "is PROVISIONED");
  call_fails (engine, "CreateTable", "{\"TableName\":\"t1x\",\"BillingMode\":\"PAY_PER_REQUEST\","
              "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
              "{\"AttributeName\":\"l\",\"AttributeType\":\"S\"}],"
              "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
              "\"LocalSecondaryIndexes\":[{\"IndexName\":\"byL\",\"KeySchema\":["
              "{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"l\","
              "\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}]}",
              DYNO_ENGINE_ERROR_VALIDATION, "One or more parameter values were invalid: Table "
              "KeySchema does not have a range key, which is required when specifying a "
              "LocalSecondaryIndex");
  call_fails (engine, "CreateTable", "{\"TableName\":\"t1x\",\"BillingMode\":\"PAY_PER_REQUEST\","
              "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
              "\"KeySchema\":[{\"AttributeName\":\"nope\",\"KeyType\":\"HASH\"}]}",
              DYNO_ENGINE_ERROR_VALIDATION, "One or more parameter values were invalid: Some "
              "index key attributes are not defined in AttributeDefinitions. Keys: [nope], "
              "AttributeDefinitions: [pk]");
  call_fails (engine, "DescribeTable", "{\"TableName\":\"t1x\"}",
              DYNO_ENGINE_ERROR_RESOURCE_NOT_FOUND,
              "Requested resource not found: Table: t1x not found");

  /* ListTables pages by name */
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *body = g_strdup_printf (
        "{\"TableName\":\"tab%u\",\"ProvisionedThroughput\":{\"ReadCapacityUnits\":1,"
        "\"WriteCapacityUnits\":1},\"AttributeDefinitions\":[{\"AttributeName\":\"pk\","
        "\"AttributeType\":\"B\"}],"
        "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]}",
        4 - i);
      g_autoptr(JsonNode) node = call (engine, "CreateTable", body);
    }
  call_fails (engine, "CreateTable", "{\"TableName\":\"tab1\",\"BillingMode\":\"PAY_PER_REQUEST\","
              "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
              "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]}",
              DYNO_ENGINE_ERROR_RESOURCE_IN_USE, "Table already exists: tab1");
  {
    g_autoptr(JsonNode) page1 = call (engine, "ListTables", "{\"Limit\":3}");
    g_autoptr(JsonNode) page2 = call (engine, "ListTables",
                                      "{\"Limit\":3,\"ExclusiveStartTableName\":\"tab2\"}");
    g_autofree char *one = dyno_json_node_to_string (page1, FALSE);
    g_autofree char *two = dyno_json_node_to_string (page2, FALSE);

    g_assert_cmpstr (one, ==, "{\"TableNames\":[\"tab0\",\"tab1\",\"tab2\"],"
                     "\"LastEvaluatedTableName\":\"tab2\"}");
    g_assert_cmpstr (two, ==, "{\"TableNames\":[\"tab3\",\"tab4\"]}");
  }
  {
    g_autoptr(JsonNode) deleted = call (engine, "DeleteTable", "{\"TableName\":\"tab3\"}");
    g_autoptr(JsonNode) list = call (engine, "ListTables", "{}");
    g_autofree char *names = dyno_json_node_to_string (list, FALSE);

    g_assert_cmpstr (names, ==, "{\"TableNames\":[\"tab0\",\"tab1\",\"tab2\",\"tab4\"]}");
  }
}

static void
test_workspace_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("dyno-engine-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "w.db", NULL);
  g_autofree char *keys = NULL;

  g_assert_no_error (error);
  {
    g_autoptr(DynoEngine) engine = dyno_engine_new (path, &error);
    g_autoptr(JsonNode) node = NULL;

    g_assert_no_error (error);
    node = call (engine, "CreateTable", "{\"TableName\":\"things\",\"BillingMode\":"
                 "\"PAY_PER_REQUEST\",\"AttributeDefinitions\":[{\"AttributeName\":\"pk\","
                 "\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"}],"
                 "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
                 "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]}");
    put (engine, "{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"2\"}}");
    put (engine, "{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"-3\"}}");
  }
  {
    g_autoptr(DynoEngine) engine = dyno_engine_new (path, &error);
    g_autoptr(JsonNode) described = NULL;

    g_assert_no_error (error);
    keys = query_keys (engine, "{\"TableName\":\"things\",\"KeyConditionExpression\":"
                       "\"pk = :p\",\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p\"}}}", NULL);
    g_assert_cmpstr (keys, ==, "-3,2");
    described = call (engine, "DescribeTable", "{\"TableName\":\"things\"}");
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (
                       json_node_get_object (described), "Table"), "ItemCount"), ==, 2);
  }
  g_remove (path);
  {
    g_autofree char *wal = g_strconcat (path, "-wal", NULL);
    g_autofree char *shm = g_strconcat (path, "-shm", NULL);

    g_remove (wal);
    g_remove (shm);
  }
  g_rmdir (dir);
}

static gint64
file_size (const char *path)
{
  GStatBuf buf;

  return g_stat (path, &buf) == 0 ? (gint64) buf.st_size : 0;
}

/* The WAL is checkpointed by a thread of the engine's (dyno-engine-wal.c); under writes that
 * never pause it still starts over, so that it stays under its limit plus one transaction.
 * What was written survives closing and reopening; closing checkpoints and removes the WAL,
 * leaving a database that sqlite3 reads as it is; a second engine on the same file is
 * refused while the first has it open. */
static void
test_workspace_wal (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("dyno-engine-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "w.db", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  g_autofree char *pad = g_strnfill (1000, 'x');
  const guint limit = 512, batches = 400;
  /* pages of 8 KB (16 KB in older workspaces: the bound allows either) plus a frame header
   * each; one batch of 25 KB writes some 30 pages */
  const gint64 bound = 32 + (limit + 64) * (16384 + 24);
  gint64 largest = 0;
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;

  g_assert_no_error (error);
  {
    g_autoptr(DynoEngine) engine = dyno_engine_new (path, &error);
    g_autoptr(DynoEngine) second = NULL;
    g_autoptr(JsonNode) node = NULL;

    g_assert_no_error (error);
    second = dyno_engine_new (path, &error);
    g_assert_null (second);
    g_assert_error (error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_INTERNAL);
    g_assert_nonnull (strstr (error->message, "is open in another process"));
    g_clear_error (&error);

    dyno_engine_set_wal_limits (engine, 64, 256, limit);
    node = call (engine, "CreateTable", "{\"TableName\":\"things\",\"BillingMode\":"
                 "\"PAY_PER_REQUEST\",\"AttributeDefinitions\":[{\"AttributeName\":\"pk\","
                 "\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"}],"
                 "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
                 "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]}");
    for (guint b = 0; b < batches; b++)
      {
        g_autoptr(GString) body = g_string_new ("{\"RequestItems\":{\"things\":[");
        g_autoptr(JsonNode) written = NULL;

        for (guint i = 0; i < 25; i++)
          g_string_append_printf (body, "%s{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"p%u\"},"
                                  "\"sk\":{\"N\":\"%u\"},\"pad\":{\"S\":\"%s\"}}}}",
                                  i ? "," : "", (b * 25 + i) % 7, b * 25 + i, pad);
        g_string_append (body, "]}}");
        written = call (engine, "BatchWriteItem", body->str);
        g_assert_cmpuint (json_object_get_size (json_object_get_object_member (
                            json_node_get_object (written), "UnprocessedItems")), ==, 0);
        largest = MAX (largest, file_size (wal));
      }
    /* some 190 MB of pages went through a WAL that never held more than 9 MB */
    g_assert_cmpint (largest, >, 0);
    g_assert_cmpint (largest, <=, bound);
  }
  g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &s, NULL), ==,
                   SQLITE_OK);
  g_assert_cmpint (sqlite3_step (s), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (s, 0), ==, "ok");
  sqlite3_finalize (s);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count(*) FROM dyno_items WHERE index_id = 0",
                                       -1, &s, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (s), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int64 (s, 0), ==, batches * 25);
  sqlite3_finalize (s);
  sqlite3_close (db);

  {
    g_autoptr(DynoEngine) engine = dyno_engine_new (path, &error);
    g_autoptr(JsonNode) described = NULL;
    g_autoptr(JsonNode) got = NULL;

    g_assert_no_error (error);
    described = call (engine, "DescribeTable", "{\"TableName\":\"things\"}");
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (
                       json_node_get_object (described), "Table"), "ItemCount"), ==,
                     batches * 25);
    got = call (engine, "GetItem", "{\"TableName\":\"things\",\"Key\":{\"pk\":{\"S\":\"p3\"},"
                "\"sk\":{\"N\":\"9999\"}}}");
    g_assert_true (json_object_has_member (json_node_get_object (got), "Item"));
  }
  g_remove (path);
  g_remove (wal);
  g_remove (shm);
  g_rmdir (dir);
}

/* ---- transactions ---------------------------------------------------------------------- */

/* JSON written with ' for " (the requests below are long). */
static char *
q (const char *text)
{
  char *out = g_strdup (text);

  g_strdelimit (out, "'", '"');
  return out;
}

static JsonNode *
qcall (DynoEngine *engine,
       const char *op,
       const char *body)
{
  g_autofree char *json = q (body);

  return call (engine, op, json);
}

/* Fails with @code and @message; returns the error body the engine gives for it. */
static JsonNode *
qcall_fails (DynoEngine          *engine,
             const char          *op,
             const char          *body,
             DynoEngineErrorCode  code,
             const char          *message)
{
  g_autofree char *json = q (body);
  g_autoptr(GError) error = NULL;
  g_autofree char *error_body = NULL;
  g_autofree char *response = dyno_engine_request_full (engine, op, json, -1, &error_body,
                                                        &error);
  JsonNode *node;
  JsonObject *object;

  g_assert_null (response);
  g_assert_error (error, DYNO_ENGINE_ERROR, (int) code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
  g_assert_nonnull (error_body);
  node = dyno_json_parse (error_body, -1, NULL);
  g_assert_nonnull (node);
  object = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (object, "__type"), ==,
                   dyno_engine_error_wire_type (code));
  g_assert_cmpstr (json_object_get_string_member (object,
                                                  code == DYNO_ENGINE_ERROR_TRANSACTION_CANCELED
                                                  ? "Message" : "message"), ==, error->message);
  return node;
}

/* A member of a response as compact JSON ("" when absent). */
static char *
member_text (JsonNode   *node,
             const char *name)
{
  JsonObject *object = json_node_get_object (node);

  if (!json_object_has_member (object, name))
    return g_strdup ("");
  return dyno_json_node_to_string (json_object_get_member (object, name), FALSE);
}

/* The item with partition key @pk and sort key "1", compact, or "" when there is none. */
static char *
item_text (DynoEngine *engine,
           const char *pk)
{
  g_autofree char *body = g_strdup_printf ("{'TableName':'things','Key':{'pk':{'S':'%s'},"
                                           "'sk':{'S':'1'}}}", pk);
  g_autoptr(JsonNode) got = qcall (engine, "GetItem", body);

  return member_text (got, "Item");
}

static void
test_transact_write (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("S");
  g_autoptr(JsonNode) done = NULL;
  g_autofree char *capacity = NULL;
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL;

  put (engine, "{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"1\"},\"n\":{\"N\":\"1\"}}");
  put (engine, "{\"pk\":{\"S\":\"c\"},\"sk\":{\"S\":\"1\"}}");
  put (engine, "{\"pk\":{\"S\":\"d\"},\"sk\":{\"S\":\"1\"},\"ok\":{\"BOOL\":true}}");
  done = qcall (engine, "TransactWriteItems", "{'ReturnConsumedCapacity':'INDEXES',"
                "'TransactItems':["
                "{'Put':{'TableName':'things','Item':{'pk':{'S':'a'},'sk':{'S':'1'},"
                "'g':{'S':'x'}},'ConditionExpression':'attribute_not_exists(pk)'}},"
                "{'Update':{'TableName':'things','Key':{'pk':{'S':'b'},'sk':{'S':'1'}},"
                "'UpdateExpression':'SET n = n + :one','ConditionExpression':'n = :one',"
                "'ExpressionAttributeValues':{':one':{'N':'1'}}}},"
                "{'Delete':{'TableName':'things','Key':{'pk':{'S':'c'},'sk':{'S':'1'}}}},"
                "{'ConditionCheck':{'TableName':'things','Key':{'pk':{'S':'d'},'sk':{'S':'1'}},"
                "'ConditionExpression':'#o = :t','ExpressionAttributeNames':{'#o':'ok'},"
                "'ExpressionAttributeValues':{':t':{'BOOL':true}}}}]}");
  /* each action's units doubled (prepare and commit): 4 table writes of 1 unit, the index
   * entry of the Put */
  capacity = member_text (done, "ConsumedCapacity");
  g_assert_cmpstr (capacity, ==, "[{\"TableName\":\"things\",\"CapacityUnits\":10.0,"
                   "\"Table\":{\"CapacityUnits\":8.0},"
                   "\"GlobalSecondaryIndexes\":{\"byG\":{\"CapacityUnits\":2.0}}}]");
  a = item_text (engine, "a");
  b = item_text (engine, "b");
  c = item_text (engine, "c");
  d = item_text (engine, "d");
  g_assert_cmpstr (a, ==, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},\"g\":{\"S\":\"x\"}}");
  g_assert_cmpstr (b, ==, "{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"1\"},\"n\":{\"N\":\"2\"}}");
  g_assert_cmpstr (c, ==, "");
  g_assert_cmpstr (d, ==, "{\"pk\":{\"S\":\"d\"},\"sk\":{\"S\":\"1\"},\"ok\":{\"BOOL\":true}}");

  /* without ReturnConsumedCapacity: an empty answer */
  g_clear_pointer (&done, json_node_unref);
  done = qcall (engine, "TransactWriteItems", "{'TransactItems':[{'Delete':{'TableName':"
                "'things','Key':{'pk':{'S':'a'},'sk':{'S':'1'}}}}]}");
  g_assert_cmpuint (json_object_get_size (json_node_get_object (done)), ==, 0);
}

static void
test_transact_cancelled (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("S");
  g_autoptr(JsonNode) body = NULL;
  g_autofree char *reasons = NULL;
  g_autofree char *a = NULL, *b = NULL, *c = NULL;

  put (engine, "{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"1\"},\"n\":{\"N\":\"5\"}}");
  put (engine, "{\"pk\":{\"S\":\"c\"},\"sk\":{\"S\":\"1\"},\"s\":{\"S\":\"text\"}}");
  body = qcall_fails (engine, "TransactWriteItems", "{'TransactItems':["
                      "{'Put':{'TableName':'things','Item':{'pk':{'S':'a'},'sk':{'S':'1'}}}},"
                      "{'Update':{'TableName':'things','Key':{'pk':{'S':'b'},'sk':{'S':'1'}},"
                      "'UpdateExpression':'SET n = :z','ConditionExpression':'n = :z',"
                      "'ExpressionAttributeValues':{':z':{'N':'0'}},"
                      "'ReturnValuesOnConditionCheckFailure':'ALL_OLD'}},"
                      "{'ConditionCheck':{'TableName':'things','Key':{'pk':{'S':'c'},"
                      "'sk':{'S':'1'}},'ConditionExpression':'attribute_not_exists(s)'}},"
                      "{'Delete':{'TableName':'things','Key':{'pk':{'S':'d'},'sk':{'S':'1'}},"
                      "'ConditionExpression':'attribute_exists(pk)',"
                      "'ReturnValuesOnConditionCheckFailure':'ALL_OLD'}}]}",
                      DYNO_ENGINE_ERROR_TRANSACTION_CANCELED,
                      "Transaction cancelled, please refer cancellation reasons for specific "
                      "reasons [None, ConditionalCheckFailed, ConditionalCheckFailed, "
                      "ConditionalCheckFailed]");
  /* the old item only where ALL_OLD was asked and there was one */
  reasons = member_text (body, "CancellationReasons");
  g_assert_cmpstr (reasons, ==, "[{\"Code\":\"None\"},"
                   "{\"Code\":\"ConditionalCheckFailed\",\"Message\":\"The conditional request "
                   "failed\",\"Item\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"1\"},"
                   "\"n\":{\"N\":\"5\"}}},"
                   "{\"Code\":\"ConditionalCheckFailed\",\"Message\":\"The conditional request "
                   "failed.\"},"
                   "{\"Code\":\"ConditionalCheckFailed\",\"Message\":\"The conditional request "
                   "failed\"}]");
  /* nothing applied */
  a = item_text (engine, "a");
  b = item_text (engine, "b");
  c = item_text (engine, "c");
  g_assert_cmpstr (a, ==, "");
  g_assert_cmpstr (b, ==, "{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"1\"},\"n\":{\"N\":\"5\"}}");
  g_assert_cmpstr (c, ==, "{\"pk\":{\"S\":\"c\"},\"sk\":{\"S\":\"1\"},\"s\":{\"S\":\"text\"}}");

  /* an update that cannot apply to the item is a ValidationError reason */
  g_clear_pointer (&body, json_node_unref);
  g_clear_pointer (&reasons, g_free);
  body = qcall_fails (engine, "TransactWriteItems", "{'TransactItems':["
                      "{'Put':{'TableName':'things','Item':{'pk':{'S':'a'},'sk':{'S':'1'}}}},"
                      "{'Update':{'TableName':'things','Key':{'pk':{'S':'c'},'sk':{'S':'1'}},"
                      "'UpdateExpression':'SET s = s + :one',"
                      "'ExpressionAttributeValues':{':one':{'N':'1'}}}}]}",
                      DYNO_ENGINE_ERROR_TRANSACTION_CANCELED,
                      "Transaction cancelled, please refer cancellation reasons for specific "
                      "reasons [None, ValidationError]");
  reasons = member_text (body, "CancellationReasons");
  g_assert_true (g_str_has_prefix (reasons, "[{\"Code\":\"None\"},{\"Code\":\"ValidationError\","
                                   "\"Message\":\"An operand in the update expression has an "
                                   "incorrect data type"));
  g_clear_pointer (&a, g_free);
  a = item_text (engine, "a");
  g_assert_cmpstr (a, ==, "");
}

static void
test_transact_rules (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("S");
  g_autoptr(GString) many = g_string_new ("{'TransactItems':[");
  g_autoptr(JsonNode) e1 = NULL;
  g_autoptr(JsonNode) e2 = NULL;
  g_autoptr(JsonNode) e3 = NULL;
  g_autoptr(JsonNode) e4 = NULL;
  g_autoptr(JsonNode) e5 = NULL;
  g_autoptr(JsonNode) e6 = NULL;
  g_autofree char *a = NULL;

  /* a Put and a ConditionCheck on one item */
  e1 = qcall_fails (engine, "TransactWriteItems", "{'TransactItems':["
                    "{'Put':{'TableName':'things','Item':{'pk':{'S':'a'},'sk':{'S':'1'}}}},"
                    "{'ConditionCheck':{'TableName':'things','Key':{'sk':{'S':'1'},"
                    "'pk':{'S':'a'}},'ConditionExpression':'attribute_not_exists(pk)'}}]}",
                    DYNO_ENGINE_ERROR_VALIDATION,
                    "Transaction request cannot include multiple operations on one item");
  for (guint i = 0; i < 101; i++)
    g_string_append_printf (many, "%s{'Put':{'TableName':'things','Item':{'pk':{'S':'k%u'},"
                            "'sk':{'S':'1'}}}}", i ? "," : "", i);
  g_string_append (many, "]}");
  e2 = qcall_fails (engine, "TransactWriteItems", many->str, DYNO_ENGINE_ERROR_VALIDATION,
                    NULL);
  /* validation inside an action: as its single request */
  e3 = qcall_fails (engine, "TransactWriteItems", "{'TransactItems':["
                    "{'Delete':{'TableName':'things','Key':{'pk':{'S':'a'}}}}]}",
                    DYNO_ENGINE_ERROR_VALIDATION,
                    "The provided key element does not match the schema");
  e4 = qcall_fails (engine, "TransactWriteItems", "{'TransactItems':["
                    "{'Put':{'TableName':'nope','Item':{'pk':{'S':'a'},'sk':{'S':'1'}}}}]}",
                    DYNO_ENGINE_ERROR_RESOURCE_NOT_FOUND, "Requested resource not found");
  e5 = qcall_fails (engine, "TransactWriteItems", "{'TransactItems':["
                    "{'Put':{'TableName':'things','Item':{'pk':{'S':'a'},'sk':{'S':'1'}}},"
                    "'Delete':{'TableName':'things','Key':{'pk':{'S':'b'},'sk':{'S':'1'}}}}]}",
                    DYNO_ENGINE_ERROR_VALIDATION,
                    "TransactItems can only contain one of Check, Put, Update or Delete");
  e6 = qcall_fails (engine, "TransactWriteItems", "{'TransactItems':["
                    "{'Update':{'TableName':'things','Key':{'pk':{'S':'a'},'sk':{'S':'1'}},"
                    "'UpdateExpression':'SET #x = :v','ExpressionAttributeValues':"
                    "{':v':{'N':'1'}}}}]}", DYNO_ENGINE_ERROR_VALIDATION, NULL);
  a = item_text (engine, "a");
  g_assert_cmpstr (a, ==, "");
}

static void
test_transact_token (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("S");
  static const char request[] =
    "{'ClientRequestToken':'t-1','ReturnConsumedCapacity':'TOTAL','TransactItems':["
    "{'Update':{'TableName':'things','Key':{'pk':{'S':'a'},'sk':{'S':'1'}},"
    "'UpdateExpression':'ADD n :one','ExpressionAttributeValues':{':one':{'N':'1'}}}}]}";
  g_autoptr(JsonNode) first = qcall (engine, "TransactWriteItems", request);
  g_autoptr(JsonNode) again = qcall (engine, "TransactWriteItems", request);
  g_autoptr(JsonNode) other = NULL;
  g_autoptr(JsonNode) mismatch = NULL;
  g_autofree char *first_capacity = member_text (first, "ConsumedCapacity");
  g_autofree char *again_capacity = member_text (again, "ConsumedCapacity");
  g_autofree char *a = item_text (engine, "a");

  /* made once; the second answer counts the read of the item, not writes */
  g_assert_cmpstr (a, ==, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},\"n\":{\"N\":\"1\"}}");
  g_assert_cmpstr (first_capacity, ==, "[{\"TableName\":\"things\",\"CapacityUnits\":2.0}]");
  g_assert_cmpstr (again_capacity, ==, "[{\"TableName\":\"things\",\"CapacityUnits\":1.0}]");
  mismatch = qcall_fails (engine, "TransactWriteItems",
                          "{'ClientRequestToken':'t-1','TransactItems':["
                          "{'Delete':{'TableName':'things','Key':{'pk':{'S':'a'},"
                          "'sk':{'S':'1'}}}}]}",
                          DYNO_ENGINE_ERROR_IDEMPOTENT_PARAMETER_MISMATCH, NULL);
  /* another token: made again */
  other = qcall (engine, "TransactWriteItems", "{'ClientRequestToken':'t-2','TransactItems':["
                 "{'Update':{'TableName':'things','Key':{'pk':{'S':'a'},'sk':{'S':'1'}},"
                 "'UpdateExpression':'ADD n :one','ExpressionAttributeValues':"
                 "{':one':{'N':'1'}}}}]}");
  g_clear_pointer (&a, g_free);
  a = item_text (engine, "a");
  g_assert_cmpstr (a, ==, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},\"n\":{\"N\":\"2\"}}");
}

static void
test_transact_get (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("S");
  g_autoptr(JsonNode) got = NULL;
  g_autoptr(JsonNode) dup = NULL;
  g_autofree char *responses = NULL;
  g_autofree char *capacity = NULL;
  g_autoptr(GString) big = g_string_new ("{\"pk\":{\"S\":\"big\"},\"sk\":{\"S\":\"1\"},"
                                         "\"blob\":{\"S\":\"");

  for (guint i = 0; i < 5000; i++)
    g_string_append_c (big, 'x');
  g_string_append (big, "\"}}");
  put (engine, big->str);
  put (engine, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}}");
  put (engine, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},\"n\":{\"N\":\"1\"},"
       "\"m\":{\"M\":{\"x\":{\"S\":\"y\"},\"z\":{\"S\":\"w\"}}}}");
  got = qcall (engine, "TransactGetItems", "{'ReturnConsumedCapacity':'TOTAL','TransactItems':["
               "{'Get':{'TableName':'things','Key':{'pk':{'S':'zz'},'sk':{'S':'1'}}}},"
               "{'Get':{'TableName':'things','Key':{'pk':{'S':'a'},'sk':{'S':'1'}},"
               "'ProjectionExpression':'#m.x, n','ExpressionAttributeNames':{'#m':'m'}}},"
               "{'Get':{'TableName':'things','Key':{'pk':{'S':'big'},'sk':{'S':'1'}},"
               "'ProjectionExpression':'pk'}},"
               "{'Get':{'TableName':'things','Key':{'pk':{'S':'a'},'sk':{'S':'2'}},"
               "'ProjectionExpression':'nothing'}}]}");
  responses = member_text (got, "Responses");
  g_assert_cmpstr (responses, ==, "[{},{\"Item\":{\"m\":{\"M\":{\"x\":{\"S\":\"y\"}}},"
                   "\"n\":{\"N\":\"1\"}}},{\"Item\":{\"pk\":{\"S\":\"big\"}}},"
                   "{\"Item\":{}}]");
  /* 2 units per 4 KB read, whole items: 2 + 2 + 4 + 2 */
  capacity = member_text (got, "ConsumedCapacity");
  g_assert_cmpstr (capacity, ==, "[{\"TableName\":\"things\",\"CapacityUnits\":10.0}]");
  dup = qcall_fails (engine, "TransactGetItems", "{'TransactItems':["
                     "{'Get':{'TableName':'things','Key':{'pk':{'S':'a'},'sk':{'S':'1'}}}},"
                     "{'Get':{'TableName':'things','Key':{'pk':{'S':'a'},'sk':{'S':'1'}},"
                     "'ProjectionExpression':'n'}}]}", DYNO_ENGINE_ERROR_VALIDATION,
                     "Transaction request cannot include multiple operations on one item");
}

/* An index entry rewritten in place (same index key) is charged by the larger of its sizes
 * before and after, as the table's item is; moved, it is a delete of the old entry and a put
 * of the new one (found by tests/integration/test_tx_differential.py: the engine charged the
 * new entry's size only). */
static void
test_index_rewrite_capacity (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngine) engine = dyno_engine_new (NULL, &error);
  g_autoptr(JsonNode) created = NULL;
  g_autoptr(GString) big = g_string_new ("{'TableName':'all','Item':{'pk':{'S':'a'},"
                                         "'g':{'S':'x'},'s':{'S':'");
  static const char * const writes[][2] = {
    /* 2.5 KB in the index, replaced by a few bytes under the same g: 3 units each */
    { "{'TableName':'all','Item':{'pk':{'S':'a'},'g':{'S':'x'}},"
      "'ReturnConsumedCapacity':'INDEXES'}",
      "{\"TableName\":\"all\",\"CapacityUnits\":6.0,\"Table\":{\"CapacityUnits\":3.0},"
      "\"GlobalSecondaryIndexes\":{\"byG\":{\"CapacityUnits\":3.0}}}" },
    /* 2.5 KB again, then moved to another g as a small item: 3 to delete, 1 to put */
    { NULL, NULL },
    { "{'TableName':'all','Key':{'pk':{'S':'a'}},'UpdateExpression':'SET g = :y REMOVE s',"
      "'ExpressionAttributeValues':{':y':{'S':'y'}},'ReturnConsumedCapacity':'INDEXES'}",
      "{\"TableName\":\"all\",\"CapacityUnits\":7.0,\"Table\":{\"CapacityUnits\":3.0},"
      "\"GlobalSecondaryIndexes\":{\"byG\":{\"CapacityUnits\":4.0}}}" },
  };

  g_assert_no_error (error);
  created = qcall (engine, "CreateTable", "{'TableName':'all','BillingMode':'PAY_PER_REQUEST',"
                   "'AttributeDefinitions':[{'AttributeName':'pk','AttributeType':'S'},"
                   "{'AttributeName':'g','AttributeType':'S'}],"
                   "'KeySchema':[{'AttributeName':'pk','KeyType':'HASH'}],"
                   "'GlobalSecondaryIndexes':[{'IndexName':'byG','KeySchema':"
                   "[{'AttributeName':'g','KeyType':'HASH'}],"
                   "'Projection':{'ProjectionType':'ALL'}}]}");
  for (guint i = 0; i < 2500; i++)
    g_string_append_c (big, 'x');
  g_string_append (big, "'}}}");
  for (guint i = 0; i < G_N_ELEMENTS (writes); i++)
    {
      g_autoptr(JsonNode) large = NULL;
      g_autoptr(JsonNode) got = NULL;
      g_autofree char *capacity = NULL;

      if (writes[i][0] == NULL || i == 0)
        large = qcall (engine, "PutItem", big->str);
      if (writes[i][0] == NULL)
        continue;
      got = qcall (engine, strstr (writes[i][0], "'Item'") ? "PutItem" : "UpdateItem",
                   writes[i][0]);
      capacity = member_text (got, "ConsumedCapacity");
      g_assert_cmpstr (capacity, ==, writes[i][1]);
    }
}

/* A ProjectionExpression whose paths overlap is refused by every read that takes one, as
 * Query and Scan refuse it (found by tests/integration/test_tx_differential.py: GetItem,
 * BatchGetItem and TransactGetItems answered with the item). */
static void
test_projection_overlap (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("S");
  static const char * const requests[][3] = {
    { "GetItem", "{'TableName':'things','Key':{'pk':{'S':'a'},'sk':{'S':'1'}},"
      "'ProjectionExpression':'m, m.x'}", "path one: [m], path two: [m, x]" },
    { "GetItem", "{'TableName':'things','Key':{'pk':{'S':'zz'},'sk':{'S':'1'}},"
      "'ProjectionExpression':'#m.x, #m','ExpressionAttributeNames':{'#m':'m'}}",
      "path one: [m, x], path two: [m]" },
    { "BatchGetItem", "{'RequestItems':{'things':{'Keys':[{'pk':{'S':'a'},'sk':{'S':'1'}}],"
      "'ProjectionExpression':'l, l[0]'}}}", "path one: [l], path two: [l, [0]]" },
    { "TransactGetItems", "{'TransactItems':["
      "{'Get':{'TableName':'things','Key':{'pk':{'S':'zz'},'sk':{'S':'2'}}}},"
      "{'Get':{'TableName':'things','Key':{'pk':{'S':'a'},'sk':{'S':'1'}},"
      "'ProjectionExpression':'n, n'}}]}", "path one: [n], path two: [n]" },
  };

  put (engine, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},\"n\":{\"N\":\"1\"},"
       "\"l\":{\"L\":[{\"N\":\"2\"}]},\"m\":{\"M\":{\"x\":{\"S\":\"y\"}}}}");
  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      g_autofree char *message = g_strdup_printf (
        "Invalid ProjectionExpression: Two document paths overlap with each other; must "
        "remove or rewrite one of these paths; %s", requests[i][2]);
      g_autoptr(JsonNode) refused = qcall_fails (engine, requests[i][0], requests[i][1],
                                                 DYNO_ENGINE_ERROR_VALIDATION, message);
    }
}

static void
test_condition_failure_item (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("S");
  static const char * const requests[][2] = {
    { "PutItem", "{'TableName':'things','Item':{'pk':{'S':'a'},'sk':{'S':'1'}},"
      "'ConditionExpression':'attribute_not_exists(pk)',"
      "'ReturnValuesOnConditionCheckFailure':'ALL_OLD'}" },
    { "UpdateItem", "{'TableName':'things','Key':{'pk':{'S':'a'},'sk':{'S':'1'}},"
      "'UpdateExpression':'SET v = :v','ConditionExpression':'v = :v',"
      "'ExpressionAttributeValues':{':v':{'N':'2'}},"
      "'ReturnValuesOnConditionCheckFailure':'ALL_OLD'}" },
    { "DeleteItem", "{'TableName':'things','Key':{'pk':{'S':'a'},'sk':{'S':'1'}},"
      "'ConditionExpression':'attribute_not_exists(v)',"
      "'ReturnValuesOnConditionCheckFailure':'ALL_OLD'}" },
  };

  put (engine, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},\"v\":{\"N\":\"1\"}}");
  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      g_autoptr(JsonNode) body = qcall_fails (engine, requests[i][0], requests[i][1],
                                              DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED,
                                              "The conditional request failed");
      g_autofree char *item = member_text (body, "Item");

      g_assert_cmpstr (item, ==, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},\"v\":{\"N\":\"1\"}}");
    }
  {
    /* NONE (or no member): no Item */
    g_autoptr(JsonNode) body = qcall_fails (engine, "PutItem", "{'TableName':'things','Item':"
                                            "{'pk':{'S':'a'},'sk':{'S':'1'}},"
                                            "'ConditionExpression':'attribute_not_exists(pk)',"
                                            "'ReturnValuesOnConditionCheckFailure':'NONE'}",
                                            DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED, NULL);
    g_autoptr(JsonNode) bad = qcall_fails (engine, "PutItem", "{'TableName':'things','Item':"
                                           "{'pk':{'S':'a'},'sk':{'S':'1'}},"
                                           "'ReturnValuesOnConditionCheckFailure':'ALL_NEW'}",
                                           DYNO_ENGINE_ERROR_VALIDATION, NULL);

    g_assert_false (json_object_has_member (json_node_get_object (body), "Item"));
  }
}

/* The TableDescription member of an UpdateTable answer. */
static JsonObject *
description_of (JsonNode *node)
{
  return json_object_get_object_member (json_node_get_object (node), "TableDescription");
}

static const char *
index_names (JsonObject *description,
             GString    *out)
{
  JsonArray *gsis = json_object_has_member (description, "GlobalSecondaryIndexes")
                    ? json_object_get_array_member (description, "GlobalSecondaryIndexes") : NULL;

  g_string_truncate (out, 0);
  for (guint i = 0; gsis && i < json_array_get_length (gsis); i++)
    {
      JsonObject *gsi = json_array_get_object_element (gsis, i);

      g_string_append_printf (out, "%s%s:%s:%" G_GINT64_FORMAT, i ? "," : "",
                              json_object_get_string_member (gsi, "IndexName"),
                              json_object_get_string_member (gsi, "IndexStatus"),
                              json_object_get_int_member (gsi, "ItemCount"));
    }
  return out->str;
}

/* UpdateTable: a new GSI is filled from the items there (skipping those whose key attribute
 * has another type), kept up to date after, and a deleted one is gone with its rows; the
 * indexes after it keep their rows. */
static void
test_update_table_indexes (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");
  g_autoptr(GString) names = g_string_new (NULL);
  g_autofree char *keys = NULL;

  put (engine, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"g\":{\"S\":\"x\"},"
               "\"h\":{\"S\":\"red\"}}");
  put (engine, "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"},\"g\":{\"S\":\"x\"},"
               "\"h\":{\"S\":\"red\"}}");
  put (engine, "{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"3\"},\"h\":{\"N\":\"7\"}}");
  put (engine, "{\"pk\":{\"S\":\"d\"},\"sk\":{\"N\":\"4\"}}");
  {
    g_autoptr(JsonNode) node = call (engine, "UpdateTable",
      "{\"TableName\":\"things\",\"AttributeDefinitions\":[{\"AttributeName\":\"h\","
      "\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"}],"
      "\"GlobalSecondaryIndexUpdates\":[{\"Create\":{\"IndexName\":\"byH\",\"KeySchema\":["
      "{\"AttributeName\":\"h\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\","
      "\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}}]}");
    JsonObject *description = description_of (node);

    g_assert_cmpstr (json_object_get_string_member (description, "TableStatus"), ==, "ACTIVE");
    g_assert_cmpstr (index_names (description, names), ==, "byG:ACTIVE:2,byH:ACTIVE:2");
    g_assert_cmpint (json_array_get_length (json_object_get_array_member (
                       description, "AttributeDefinitions")), ==, 4);
  }
  keys = query_keys (engine, "{\"TableName\":\"things\",\"IndexName\":\"byH\","
                     "\"KeyConditionExpression\":\"h = :h\","
                     "\"ExpressionAttributeValues\":{\":h\":{\"S\":\"red\"}}}", NULL);
  g_assert_cmpstr (keys, ==, "1,2");
  g_clear_pointer (&keys, g_free);
  /* maintained from now on, and its key type enforced */
  put (engine, "{\"pk\":{\"S\":\"e\"},\"sk\":{\"N\":\"5\"},\"h\":{\"S\":\"red\"}}");
  call_fails (engine, "PutItem", "{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":\"f\"},"
              "\"sk\":{\"N\":\"6\"},\"h\":{\"N\":\"1\"}}}", DYNO_ENGINE_ERROR_VALIDATION,
              "One or more parameter values were invalid: Type mismatch for Index Key h "
              "Expected: S Actual: N IndexName: byH");
  keys = query_keys (engine, "{\"TableName\":\"things\",\"IndexName\":\"byH\","
                     "\"KeyConditionExpression\":\"h = :h\","
                     "\"ExpressionAttributeValues\":{\":h\":{\"S\":\"red\"}}}", NULL);
  g_assert_cmpstr (keys, ==, "1,2,5");
  g_clear_pointer (&keys, g_free);

  /* deleting the first GSI: the second one (now at its place) keeps its rows */
  {
    g_autoptr(JsonNode) node = call (engine, "UpdateTable",
      "{\"TableName\":\"things\",\"GlobalSecondaryIndexUpdates\":[{\"Delete\":"
      "{\"IndexName\":\"byG\"}}]}");
    JsonObject *description = description_of (node);

    /* the answer still lists it, DELETING, as DynamoDB's does */
    g_assert_cmpstr (index_names (description, names), ==, "byH:ACTIVE:3,byG:DELETING:2");
    /* g's definition went with the index */
    g_assert_cmpint (json_array_get_length (json_object_get_array_member (
                       description, "AttributeDefinitions")), ==, 3);
  }
  {
    g_autoptr(JsonNode) node = call (engine, "DescribeTable", "{\"TableName\":\"things\"}");

    g_assert_cmpstr (index_names (json_object_get_object_member (json_node_get_object (node),
                                                                 "Table"), names),
                     ==, "byH:ACTIVE:3");
  }
  call_fails (engine, "Query", "{\"TableName\":\"things\",\"IndexName\":\"byG\","
              "\"KeyConditionExpression\":\"g = :g\","
              "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"x\"}}}",
              DYNO_ENGINE_ERROR_VALIDATION, "The table does not have the specified index: byG");
  /* g is a plain attribute again */
  put (engine, "{\"pk\":{\"S\":\"g\"},\"sk\":{\"N\":\"7\"},\"g\":{\"N\":\"1\"}}");
  keys = query_keys (engine, "{\"TableName\":\"things\",\"IndexName\":\"byH\","
                     "\"KeyConditionExpression\":\"h = :h\","
                     "\"ExpressionAttributeValues\":{\":h\":{\"S\":\"red\"}}}", NULL);
  g_assert_cmpstr (keys, ==, "1,2,5");
  g_clear_pointer (&keys, g_free);
  {
    g_autoptr(JsonNode) node = call (engine, "Scan", "{\"TableName\":\"things\","
                                     "\"IndexName\":\"byH\",\"Select\":\"COUNT\"}");

    g_assert_cmpint (json_object_get_int_member (json_node_get_object (node), "Count"), ==, 3);
  }
}

static void
test_update_table_billing (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("S");
  g_autoptr(JsonNode) node = NULL;
  JsonObject *description, *pt;

  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\",\"BillingMode\":"
              "\"PROVISIONED\"}", DYNO_ENGINE_ERROR_VALIDATION,
              "No provisioned throughput specified for the table");
  /* its GSI needs a throughput too */
  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\",\"BillingMode\":"
              "\"PROVISIONED\",\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,"
              "\"WriteCapacityUnits\":6}}", DYNO_ENGINE_ERROR_VALIDATION,
              "One or more parameter values were invalid: ProvisionedThroughput must be "
              "specified for index: byG");
  node = call (engine, "UpdateTable", "{\"TableName\":\"things\",\"BillingMode\":"
               "\"PROVISIONED\",\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,"
               "\"WriteCapacityUnits\":6},\"GlobalSecondaryIndexUpdates\":[{\"Update\":{"
               "\"IndexName\":\"byG\",\"ProvisionedThroughput\":{\"ReadCapacityUnits\":2,"
               "\"WriteCapacityUnits\":3}}}]}");
  description = description_of (node);
  /* once on demand, a table keeps a BillingModeSummary */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     description, "BillingModeSummary"), "BillingMode"), ==, "PROVISIONED");
  pt = json_object_get_object_member (description, "ProvisionedThroughput");
  g_assert_cmpint (json_object_get_int_member (pt, "ReadCapacityUnits"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (pt, "WriteCapacityUnits"), ==, 6);
  pt = json_object_get_object_member (json_array_get_object_element (
         json_object_get_array_member (description, "GlobalSecondaryIndexes"), 0),
         "ProvisionedThroughput");
  g_assert_cmpint (json_object_get_int_member (pt, "ReadCapacityUnits"), ==, 2);
  g_clear_pointer (&node, json_node_unref);

  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\",\"ProvisionedThroughput\":"
              "{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":6}}",
              DYNO_ENGINE_ERROR_VALIDATION, NULL);
  node = call (engine, "UpdateTable", "{\"TableName\":\"things\",\"ProvisionedThroughput\":"
               "{\"ReadCapacityUnits\":7,\"WriteCapacityUnits\":6}}");
  pt = json_object_get_object_member (description_of (node), "ProvisionedThroughput");
  g_assert_cmpint (json_object_get_int_member (pt, "ReadCapacityUnits"), ==, 7);
  g_clear_pointer (&node, json_node_unref);

  node = call (engine, "UpdateTable", "{\"TableName\":\"things\",\"BillingMode\":"
               "\"PAY_PER_REQUEST\"}");
  description = description_of (node);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     description, "BillingModeSummary"), "BillingMode"), ==, "PAY_PER_REQUEST");
  pt = json_object_get_object_member (description, "ProvisionedThroughput");
  g_assert_cmpint (json_object_get_int_member (pt, "ReadCapacityUnits"), ==, 0);
  g_clear_pointer (&node, json_node_unref);
  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\",\"ProvisionedThroughput\":"
              "{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":6}}",
              DYNO_ENGINE_ERROR_VALIDATION,
              "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
              "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  node = call (engine, "DescribeTable", "{\"TableName\":\"things\"}");
  g_assert_true (json_object_has_member (json_object_get_object_member (
                   json_node_get_object (node), "Table"), "BillingModeSummary"));
}

#define CREATE_GSI(name, attr) \
  "{\"Create\":{\"IndexName\":\"" name "\",\"KeySchema\":[{\"AttributeName\":\"" attr "\"," \
  "\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}}"

static void
test_update_table_errors (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("S");

  call_fails (engine, "UpdateTable", "{\"TableName\":\"nothing\",\"BillingMode\":"
              "\"PAY_PER_REQUEST\"}", DYNO_ENGINE_ERROR_RESOURCE_NOT_FOUND,
              "Requested resource not found: Table: nothing not found");
  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\"}",
              DYNO_ENGINE_ERROR_VALIDATION, "At least one of ProvisionedThroughput, "
              "BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or "
              "SSESpecification or ReplicaUpdates is required");
  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\","
              "\"GlobalSecondaryIndexUpdates\":[]}", DYNO_ENGINE_ERROR_VALIDATION, NULL);
  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\","
              "\"GlobalSecondaryIndexUpdates\":[{\"Delete\":{\"IndexName\":\"nope\"}}]}",
              DYNO_ENGINE_ERROR_RESOURCE_NOT_FOUND, NULL);
  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\",\"AttributeDefinitions\":"
              "[{\"AttributeName\":\"g\",\"AttributeType\":\"S\"}],"
              "\"GlobalSecondaryIndexUpdates\":[" CREATE_GSI ("byG", "g") "]}",
              DYNO_ENGINE_ERROR_VALIDATION, "Attempting to create an index which already exists");
  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\",\"AttributeDefinitions\":"
              "[{\"AttributeName\":\"x\",\"AttributeType\":\"S\"},{\"AttributeName\":\"y\","
              "\"AttributeType\":\"S\"}],\"GlobalSecondaryIndexUpdates\":["
              CREATE_GSI ("byX", "x") "," CREATE_GSI ("byY", "y") "]}",
              DYNO_ENGINE_ERROR_LIMIT_EXCEEDED, "Subscriber limit exceeded: Only 1 online "
              "index can be created or deleted simultaneously per table");
  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\",\"AttributeDefinitions\":"
              "[{\"AttributeName\":\"x\",\"AttributeType\":\"S\"}],"
              "\"GlobalSecondaryIndexUpdates\":[" CREATE_GSI ("byX", "x") ","
              "{\"Delete\":{\"IndexName\":\"byG\"}}]}", DYNO_ENGINE_ERROR_LIMIT_EXCEEDED, NULL);
  /* the new key's attribute must be defined in the request */
  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\","
              "\"GlobalSecondaryIndexUpdates\":[" CREATE_GSI ("byX", "x") "]}",
              DYNO_ENGINE_ERROR_VALIDATION, "One or more parameter values were invalid: Some "
              "index key attributes are not defined in AttributeDefinitions. Keys: [x], "
              "AttributeDefinitions: []");
  /* nor can a defined attribute change type */
  call_fails (engine, "UpdateTable", "{\"TableName\":\"things\",\"AttributeDefinitions\":"
              "[{\"AttributeName\":\"g\",\"AttributeType\":\"N\"}],"
              "\"GlobalSecondaryIndexUpdates\":[" CREATE_GSI ("byG2", "g") "]}",
              DYNO_ENGINE_ERROR_VALIDATION, NULL);
  /* up to 20 GSIs */
  for (int i = 2; i <= 21; i++)
    {
      g_autofree char *body = g_strdup_printf (
        "{\"TableName\":\"things\",\"AttributeDefinitions\":[{\"AttributeName\":\"a%d\","
        "\"AttributeType\":\"S\"}],\"GlobalSecondaryIndexUpdates\":[{\"Create\":{"
        "\"IndexName\":\"index%d\",\"KeySchema\":[{\"AttributeName\":\"a%d\","
        "\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}}]}", i, i, i);

      if (i <= 20)
        {
          g_autoptr(JsonNode) node = call (engine, "UpdateTable", body);
        }
      else
        call_fails (engine, "UpdateTable", body, DYNO_ENGINE_ERROR_VALIDATION,
                    "One or more parameter values were invalid: GlobalSecondaryIndex count "
                    "exceeds the per-table limit of 20");
    }
}

static void
test_ttl_settings (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("S");
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;

  node = call (engine, "DescribeTimeToLive", "{\"TableName\":\"things\"}");
  text = dyno_json_node_to_string (node, FALSE);
  g_assert_cmpstr (text, ==, "{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"DISABLED\"}}");
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&node, json_node_unref);
  call_fails (engine, "UpdateTimeToLive", "{\"TableName\":\"things\","
              "\"TimeToLiveSpecification\":{\"Enabled\":false,\"AttributeName\":\"exp\"}}",
              DYNO_ENGINE_ERROR_VALIDATION, "TimeToLive is already disabled");
  node = call (engine, "UpdateTimeToLive", "{\"TableName\":\"things\","
               "\"TimeToLiveSpecification\":{\"Enabled\":true,\"AttributeName\":\"exp\"}}");
  text = dyno_json_node_to_string (node, FALSE);
  g_assert_cmpstr (text, ==, "{\"TimeToLiveSpecification\":{\"Enabled\":true,"
                   "\"AttributeName\":\"exp\"}}");
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&node, json_node_unref);
  node = call (engine, "DescribeTimeToLive", "{\"TableName\":\"things\"}");
  text = dyno_json_node_to_string (node, FALSE);
  g_assert_cmpstr (text, ==, "{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"ENABLED\","
                   "\"AttributeName\":\"exp\"}}");
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&node, json_node_unref);
  call_fails (engine, "UpdateTimeToLive", "{\"TableName\":\"things\","
              "\"TimeToLiveSpecification\":{\"Enabled\":true,\"AttributeName\":\"other\"}}",
              DYNO_ENGINE_ERROR_VALIDATION, "TimeToLive is already enabled");
  call_fails (engine, "UpdateTimeToLive", "{\"TableName\":\"nothing\","
              "\"TimeToLiveSpecification\":{\"Enabled\":true,\"AttributeName\":\"exp\"}}",
              DYNO_ENGINE_ERROR_RESOURCE_NOT_FOUND,
              "Requested resource not found: Table: nothing not found");
  call_fails (engine, "DescribeTimeToLive", "{\"TableName\":\"nothing\"}",
              DYNO_ENGINE_ERROR_RESOURCE_NOT_FOUND,
              "Requested resource not found: Table: nothing not found");
  call_fails (engine, "UpdateTimeToLive", "{\"TableName\":\"things\","
              "\"TimeToLiveSpecification\":{\"Enabled\":false,\"AttributeName\":\"other\"}}",
              DYNO_ENGINE_ERROR_VALIDATION, "TimeToLive is active on a different AttributeName");
  call_fails (engine, "UpdateTimeToLive", "{\"TableName\":\"things\"}",
              DYNO_ENGINE_ERROR_VALIDATION, "1 validation error detected: Value null at "
              "'timeToLiveSpecification' failed to satisfy constraint: Member must not be null");
  node = call (engine, "UpdateTimeToLive", "{\"TableName\":\"things\","
               "\"TimeToLiveSpecification\":{\"Enabled\":false,\"AttributeName\":\"exp\"}}");
  g_clear_pointer (&node, json_node_unref);
  node = call (engine, "DescribeTimeToLive", "{\"TableName\":\"things\"}");
  text = dyno_json_node_to_string (node, FALSE);
  g_assert_cmpstr (text, ==, "{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"DISABLED\"}}");
}

static gint64
count_of (DynoEngine *engine,
          const char *op,
          const char *body)
{
  g_autoptr(JsonNode) node = call (engine, op, body);

  return json_object_get_int_member (json_node_get_object (node), "Count");
}

static gint64
item_count (DynoEngine *engine)
{
  g_autoptr(JsonNode) node = call (engine, "DescribeTable", "{\"TableName\":\"things\"}");

  return json_object_get_int_member (json_object_get_object_member (
                                       json_node_get_object (node), "Table"), "ItemCount");
}

static gboolean
has_item (DynoEngine *engine,
          const char *pk)
{
  g_autofree char *body = g_strdup_printf ("{\"TableName\":\"things\",\"Key\":{\"pk\":{\"S\":"
                                           "\"%s\"},\"sk\":{\"S\":\"s\"}}}", pk);
  g_autoptr(JsonNode) node = call (engine, "GetItem", body);

  return json_object_has_member (json_node_get_object (node), "Item");
}

/* Items past their TTL read as absent and are deleted with their index rows; the TTL setting
 * and the deletions survive a restart on the same workspace. */
static void
test_ttl_expiry (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("dyno-engine-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "w.db", NULL);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  g_autofree char *past = g_strdup_printf ("%" G_GINT64_FORMAT, now - 3600);
  g_autofree char *future = g_strdup_printf ("%" G_GINT64_FORMAT, now + 86400);
  g_autofree char *ancient = g_strdup_printf ("%" G_GINT64_FORMAT, now - 6 * 366 * 86400);
  const char *query = "{\"TableName\":\"things\",\"IndexName\":\"byG\","
                      "\"KeyConditionExpression\":\"g = :g\","
                      "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"x\"}}}";

  g_assert_no_error (error);
  {
    g_autoptr(DynoEngine) engine = dyno_engine_new (path, &error);
    g_autoptr(JsonNode) node = NULL;
    g_autofree char *item = NULL;

    g_assert_no_error (error);
    node = call (engine, "CreateTable",
      "{\"TableName\":\"things\",\"BillingMode\":\"PAY_PER_REQUEST\","
      "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
      "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"},"
      "{\"AttributeName\":\"g\",\"AttributeType\":\"S\"}],"
      "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
      "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
      "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byG\",\"KeySchema\":"
      "[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
      "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}]}");
    g_clear_pointer (&node, json_node_unref);
    node = call (engine, "UpdateTimeToLive", "{\"TableName\":\"things\","
                 "\"TimeToLiveSpecification\":{\"Enabled\":true,\"AttributeName\":\"exp\"}}");
    /* expired; not yet; ignored (more than 5 years old); not a Number; no TTL */
    item = g_strdup_printf ("{\"pk\":{\"S\":\"old\"},\"sk\":{\"S\":\"s\"},\"g\":{\"S\":\"x\"},"
                            "\"exp\":{\"N\":\"%s\"}}", past);
    put (engine, item);
    g_clear_pointer (&item, g_free);
    item = g_strdup_printf ("{\"pk\":{\"S\":\"new\"},\"sk\":{\"S\":\"s\"},\"g\":{\"S\":\"x\"},"
                            "\"exp\":{\"N\":\"%s\"}}", future);
    put (engine, item);
    g_clear_pointer (&item, g_free);
    item = g_strdup_printf ("{\"pk\":{\"S\":\"ancient\"},\"sk\":{\"S\":\"s\"},"
                            "\"g\":{\"S\":\"x\"},\"exp\":{\"N\":\"%s\"}}", ancient);
    put (engine, item);
    g_clear_pointer (&item, g_free);
    item = g_strdup_printf ("{\"pk\":{\"S\":\"text\"},\"sk\":{\"S\":\"s\"},\"g\":{\"S\":\"x\"},"
                            "\"exp\":{\"S\":\"%s\"}}", past);
    put (engine, item);
    put (engine, "{\"pk\":{\"S\":\"none\"},\"sk\":{\"S\":\"s\"},\"g\":{\"S\":\"x\"}}");
  }
  {
    g_autoptr(DynoEngine) engine = dyno_engine_new (path, &error);
    g_autoptr(JsonNode) node = NULL;
    g_autofree char *item = NULL;

    g_assert_no_error (error);
    node = call (engine, "DescribeTimeToLive", "{\"TableName\":\"things\"}");
    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                       json_node_get_object (node), "TimeToLiveDescription"),
                       "AttributeName"), ==, "exp");
    g_clear_pointer (&node, json_node_unref);
    /* still stored until something reads it */
    g_assert_cmpint (item_count (engine), ==, 5);
    /* the index does not project exp: the table's item tells */
    g_assert_cmpint (count_of (engine, "Query", query), ==, 4);
    g_assert_cmpint (count_of (engine, "Scan", "{\"TableName\":\"things\"}"), ==, 4);
    g_assert_false (has_item (engine, "old"));
    g_assert_true (has_item (engine, "new"));
    g_assert_true (has_item (engine, "ancient"));
    g_assert_true (has_item (engine, "text"));
    g_assert_true (has_item (engine, "none"));
    /* deleted, with its index row */
    g_assert_cmpint (item_count (engine), ==, 4);
    node = call (engine, "Scan", "{\"TableName\":\"things\",\"IndexName\":\"byG\"}");
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (node), "ScannedCount"),
                     ==, 4);
    g_clear_pointer (&node, json_node_unref);

    /* a condition sees an expired item as absent, and the write replaces it */
    item = g_strdup_printf ("{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":\"gone\"},"
                            "\"sk\":{\"S\":\"s\"},\"g\":{\"S\":\"x\"},"
                            "\"exp\":{\"N\":\"%s\"}}}", past);
    node = call (engine, "PutItem", item);
    g_clear_pointer (&node, json_node_unref);
    g_assert_cmpint (item_count (engine), ==, 5);
    node = call (engine, "PutItem", "{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":\"gone\"},"
                 "\"sk\":{\"S\":\"s\"},\"v\":{\"N\":\"1\"}},"
                 "\"ConditionExpression\":\"attribute_not_exists(pk)\"}");
    g_clear_pointer (&node, json_node_unref);
    g_assert_true (has_item (engine, "gone"));
    g_assert_cmpint (item_count (engine), ==, 5);
    g_assert_cmpint (count_of (engine, "Query", query), ==, 4);

    /* a write refused by its condition still leaves the expired item deleted */
    g_clear_pointer (&item, g_free);
    item = g_strdup_printf ("{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":\"refused\"},"
                            "\"sk\":{\"S\":\"s\"},\"g\":{\"S\":\"x\"},"
                            "\"exp\":{\"N\":\"%s\"}}}", past);
    node = call (engine, "PutItem", item);
    g_clear_pointer (&node, json_node_unref);
    g_assert_cmpint (item_count (engine), ==, 6);
    call_fails (engine, "PutItem", "{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":"
                "\"refused\"},\"sk\":{\"S\":\"s\"}},\"ConditionExpression\":"
                "\"attribute_exists(pk)\"}", DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED, NULL);
    g_assert_cmpint (item_count (engine), ==, 5);

    /* BatchGetItem leaves it out too */
    g_clear_pointer (&item, g_free);
    item = g_strdup_printf ("{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":\"later\"},"
                            "\"sk\":{\"S\":\"s\"},\"exp\":{\"N\":\"%s\"}}}", past);
    node = call (engine, "PutItem", item);
    g_clear_pointer (&node, json_node_unref);
    node = call (engine, "BatchGetItem", "{\"RequestItems\":{\"things\":{\"Keys\":["
                 "{\"pk\":{\"S\":\"later\"},\"sk\":{\"S\":\"s\"}},"
                 "{\"pk\":{\"S\":\"new\"},\"sk\":{\"S\":\"s\"}}]}}}");
    g_assert_cmpint (json_array_get_length (json_object_get_array_member (
                       json_object_get_object_member (json_node_get_object (node), "Responses"),
                       "things")), ==, 1);
  }
  {
    g_autoptr(DynoEngine) engine = dyno_engine_new (path, &error);

    g_assert_no_error (error);
    g_assert_cmpint (item_count (engine), ==, 5);
    g_assert_cmpint (count_of (engine, "Scan", "{\"TableName\":\"things\"}"), ==, 5);
    g_assert_cmpint (count_of (engine, "Query", query), ==, 4);
  }
  g_remove (path);
  {
    g_autofree char *wal = g_strconcat (path, "-wal", NULL);
    g_autofree char *shm = g_strconcat (path, "-shm", NULL);

    g_remove (wal);
    g_remove (shm);
  }
  g_rmdir (dir);
}

/* ---- ExecuteStatement -------------------------------------------------------------------- */

/* The response of ExecuteStatement @statement (with Parameters @params, JSON, or NULL; and the
 * extra members @extra, "" for none), as compact JSON. */
static char *
pql (DynoEngine *engine,
     const char *statement,
     const char *params,
     const char *extra)
{
  g_autoptr(GString) body = g_string_new ("{\"Statement\":");
  g_autoptr(JsonNode) node = NULL;

  dyno_json_write_string (body, statement, -1);
  if (params)
    g_string_append_printf (body, ",\"Parameters\":%s", params);
  g_string_append_printf (body, "%s}", extra ? extra : "");
  node = call (engine, "ExecuteStatement", body->str);
  return dyno_json_node_to_string (node, FALSE);
}

static void
pql_fails (DynoEngine          *engine,
           const char          *statement,
           const char          *params,
           DynoEngineErrorCode  code,
           const char          *message)
{
  g_autoptr(GString) body = g_string_new ("{\"Statement\":");

  dyno_json_write_string (body, statement, -1);
  if (params)
    g_string_append_printf (body, ",\"Parameters\":%s", params);
  g_string_append_c (body, '}');
  call_fails (engine, "ExecuteStatement", body->str, code, message);
}

#define PQL_EXPECT(engine, statement, params, expected) \
  G_STMT_START { \
    g_autofree char *_r = pql (engine, statement, params, NULL); \
    g_assert_cmpstr (_r, ==, expected); \
  } G_STMT_END

static void
test_partiql_select (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");
  g_autofree char *page = NULL;

  put (engine, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"n\":{\"N\":\"5\"},"
               "\"m\":{\"M\":{\"x\":{\"BOOL\":true}}},"
               "\"l\":{\"L\":[{\"S\":\"p\"},{\"S\":\"q\"}]}}");
  put (engine, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"g\":{\"S\":\"x\"}}");
  put (engine, "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"1\"},\"n\":{\"N\":\"7\"}}");

  /* a Query on the partition key, with the sort key and a filter */
  PQL_EXPECT (engine, "SELECT sk FROM \"things\" WHERE pk = 'a'", NULL,
              "{\"Items\":[{\"sk\":{\"N\":\"1\"}},{\"sk\":{\"N\":\"2\"}}]}");
  PQL_EXPECT (engine, "SELECT sk FROM things WHERE pk = 'a' ORDER BY sk DESC", NULL,
              "{\"Items\":[{\"sk\":{\"N\":\"2\"}},{\"sk\":{\"N\":\"1\"}}]}");
  PQL_EXPECT (engine, "select sk from things where pk = ? and sk >= ? and n = 5",
              "[{\"S\":\"a\"},{\"N\":\"1\"}]", "{\"Items\":[{\"sk\":{\"N\":\"1\"}}]}");
  /* projected paths are named by their last part */
  PQL_EXPECT (engine, "SELECT pk, m.x, l[1], absent FROM things WHERE pk = 'a' AND sk = 1",
              NULL, "{\"Items\":[{\"pk\":{\"S\":\"a\"},\"x\":{\"BOOL\":true},"
                    "\"l[1]\":{\"S\":\"q\"}}]}");
  PQL_EXPECT (engine, "SELECT absent FROM things WHERE pk = 'b'", NULL, "{\"Items\":[{}]}");
  /* two conditions on the sort key: a Scan; with ORDER BY a Query on one, the other checked on
   * its items, after Limit as a filter is */
  PQL_EXPECT (engine, "SELECT sk FROM things WHERE pk = 'a' AND sk > 1 AND sk < 5", NULL,
              "{\"Items\":[{\"sk\":{\"N\":\"2\"}}]}");
  PQL_EXPECT (engine, "SELECT sk FROM things WHERE pk = 'a' AND sk > 0 AND sk < 5 "
              "ORDER BY sk DESC", NULL,
              "{\"Items\":[{\"sk\":{\"N\":\"2\"}},{\"sk\":{\"N\":\"1\"}}]}");
  PQL_EXPECT (engine, "SELECT sk FROM things WHERE pk = 'a' AND pk = 'b'", NULL,
              "{\"Items\":[]}");
  {
    g_autofree char *r = pql (engine, "SELECT sk FROM things WHERE pk = 'a' AND sk >= 1 "
                              "AND sk <> 1 ORDER BY sk", NULL, ",\"Limit\":1");
    g_autoptr(JsonNode) node = dyno_json_parse (r, -1, NULL);
    JsonObject *object = json_node_get_object (node);

    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "Items")),
                      ==, 0);
    g_assert_true (json_object_has_member (object, "NextToken"));
  }
  /* IN, OR: a Scan with a filter */
  PQL_EXPECT (engine, "SELECT pk FROM things WHERE n IS NOT MISSING AND (n = 7 OR sk = 9)",
              NULL, "{\"Items\":[{\"pk\":{\"S\":\"b\"}}]}");
  PQL_EXPECT (engine, "SELECT pk, sk FROM things WHERE pk IN ['b', 'c'] OR g IS NOT MISSING",
              NULL, "{\"Items\":[{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"}},"
                    "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"1\"}}]}");
  /* a key compared with a value of another type: refused, with another message below the
   * top of the WHERE */
  pql_fails (engine, "SELECT * FROM things WHERE n = 1 AND pk = 1", NULL,
             DYNO_ENGINE_ERROR_VALIDATION,
             "Key attribute's data type should match its data type in table's schema: Key pk");
  pql_fails (engine, "SELECT * FROM things WHERE pk = 'a' AND sk BETWEEN 'a' AND 'b'", NULL,
             DYNO_ENGINE_ERROR_VALIDATION,
             "Key attribute's data type should match its data type in table's schema: Key sk");
  pql_fails (engine, "SELECT * FROM things WHERE n = 1 OR NOT (pk = 1)", NULL,
             DYNO_ENGINE_ERROR_VALIDATION, "One or more parameter values were invalid: "
             "Condition parameter type does not match schema type");
  PQL_EXPECT (engine, "SELECT * FROM \"things\".\"byG\" WHERE g = 'x'", NULL,
              "{\"Items\":[{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"g\":{\"S\":\"x\"}}]}");
  /* the table's key in a SELECT from an index: not a Query's filter, so a Scan */
  PQL_EXPECT (engine, "SELECT sk FROM \"things\".\"byG\" WHERE g = 'x' AND sk = 2 AND pk <> 'b'",
              NULL, "{\"Items\":[{\"sk\":{\"N\":\"2\"}}]}");

  /* pages: NextToken carries on where Limit stopped */
  {
    g_autoptr(GString) extra = g_string_new (NULL);
    g_autoptr(JsonNode) node = NULL;
    const char *token;

    page = pql (engine, "SELECT sk FROM things", NULL, ",\"Limit\":2");
    node = dyno_json_parse (page, -1, NULL);
    token = json_object_get_string_member (json_node_get_object (node), "NextToken");
    g_assert_nonnull (token);
    g_string_append_printf (extra, ",\"Limit\":2,\"NextToken\":\"%s\"", token);
    g_free (page);
    page = pql (engine, "SELECT sk FROM things", NULL, extra->str);
    g_assert_cmpstr (page, ==, "{\"Items\":[{\"sk\":{\"N\":\"1\"}}]}");
  }
  call_fails (engine, "ExecuteStatement",
              "{\"Statement\":\"SELECT * FROM things\",\"NextToken\":\"garbage\"}",
              DYNO_ENGINE_ERROR_VALIDATION, "Invalid NextToken");

  pql_fails (engine, "SELECT * FROM no_such_table", NULL, DYNO_ENGINE_ERROR_RESOURCE_NOT_FOUND,
             NULL);
  pql_fails (engine, "SELECT * FROM things.nope", NULL, DYNO_ENGINE_ERROR_VALIDATION,
             "The table does not have the specified index: nope");
  pql_fails (engine, "SELECT * FROM things ORDER BY sk", NULL, DYNO_ENGINE_ERROR_VALIDATION,
             "Must have WHERE clause in the statement when using ORDER BY clause.");
  pql_fails (engine, "SELECT * FROM things WHERE n = 1 ORDER BY sk", NULL,
             DYNO_ENGINE_ERROR_VALIDATION, "Must have at least one non-optional hash key "
             "condition in WHERE clause when using ORDER BY clause.");
  pql_fails (engine, "SELECT * FROM things WHERE pk = 'a' ORDER BY n", NULL,
             DYNO_ENGINE_ERROR_VALIDATION,
             "Variable reference n in ORDER BY clause must be part of the primary key");
  pql_fails (engine, "SELECT * FROM things WHERE", NULL, DYNO_ENGINE_ERROR_VALIDATION,
             "Statement wasn't well formed, can't be processed: Unexpected end of statement");
  pql_fails (engine, "SELECT * FROM things WHERE pk = ?", NULL, DYNO_ENGINE_ERROR_VALIDATION,
             "Number of parameters in request and statement don't match.");
  {
    g_autofree char *filler = g_strnfill (8192 - strlen ("SELECT * FROM things WHERE pk = ''"),
                                          'x');
    g_autofree char *longest = g_strdup_printf ("SELECT * FROM things WHERE pk = '%s'", filler);
    g_autofree char *longer = g_strdup_printf ("SELECT * FROM things WHERE pk = '%sx'", filler);
    g_autofree char *r = pql (engine, longest, NULL, NULL);

    g_assert_cmpstr (r, ==, "{\"Items\":[]}");
    pql_fails (engine, longer, NULL, DYNO_ENGINE_ERROR_VALIDATION,
               "Member must have length less than or equal to 8192");
  }
  pql_fails (engine, "SELECT * FROM things", "[]", DYNO_ENGINE_ERROR_VALIDATION,
             "1 validation error detected: Value '[]' at 'parameters' failed to satisfy "
             "constraint: Member must have length greater than or equal to 1");
  call_fails (engine, "ExecuteStatement", "{\"Statement\":\"SELECT * FROM things\","
              "\"ReturnValuesOnConditionCheckFailure\":\"ALL_NEW\"}", DYNO_ENGINE_ERROR_VALIDATION,
              "1 validation error detected: Value 'ALL_NEW' at "
              "'returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must "
              "satisfy enum value set: [ALL_OLD, NONE]");
  call_fails (engine, "ExecuteStatement", "{}", DYNO_ENGINE_ERROR_VALIDATION,
              "1 validation error detected: Value null at 'statement' failed to satisfy "
              "constraint: Member must not be null");
}

static void
test_partiql_writes (void)
{
  g_autoptr(DynoEngine) engine = engine_with_table ("N");

  PQL_EXPECT (engine, "INSERT INTO things VALUE {'pk': 'a', 'sk': 1, 'l': [1, 'x'], "
              "'s': <<'a', 'b'>>, 'm': {'k': null}}", NULL, "{\"Items\":[]}");
  PQL_EXPECT (engine, "SELECT * FROM things WHERE pk = 'a' AND sk = 1", NULL,
              "{\"Items\":[{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},"
              "\"l\":{\"L\":[{\"N\":\"1\"},{\"S\":\"x\"}]},\"s\":{\"SS\":[\"a\",\"b\"]},"
              "\"m\":{\"M\":{\"k\":{\"NULL\":true}}}}]}");
  pql_fails (engine, "INSERT INTO things VALUE {'pk': 'a', 'sk': 1}", NULL,
             DYNO_ENGINE_ERROR_DUPLICATE_ITEM, "Duplicate primary key exists in table");
  pql_fails (engine, "INSERT INTO things VALUE {'pk': 'a'}", NULL, DYNO_ENGINE_ERROR_VALIDATION,
             "Key attribute should be present in the item: Key sk");
  pql_fails (engine, "INSERT INTO things VALUE {'pk': 'a', 'sk': 'x'}", NULL,
             DYNO_ENGINE_ERROR_VALIDATION,
             "Key attribute's data type should match its data type in table's schema: Key sk");

  /* UPDATE: the whole key, an existing item, the rest of the WHERE as a condition */
  PQL_EXPECT (engine, "UPDATE things SET n = 1, m.k = ? REMOVE l SET s = set_add(s, <<'c'>>) "
              "WHERE pk = 'a' AND sk = 1", "[{\"S\":\"v\"}]", "{\"Items\":[]}");
  PQL_EXPECT (engine, "SELECT n, m, s, l FROM things WHERE pk = 'a'", NULL,
              "{\"Items\":[{\"n\":{\"N\":\"1\"},\"m\":{\"M\":{\"k\":{\"S\":\"v\"}}},"
              "\"s\":{\"SS\":[\"a\",\"b\",\"c\"]}}]}");
  PQL_EXPECT (engine, "UPDATE things SET n = n + 1 WHERE pk = 'a' AND sk = 1 AND n = 1 "
              "RETURNING ALL NEW *", NULL,
              "{\"Items\":[{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},"
              "\"s\":{\"SS\":[\"a\",\"b\",\"c\"]},\"m\":{\"M\":{\"k\":{\"S\":\"v\"}}},"
              "\"n\":{\"N\":\"2\"}}]}");
  pql_fails (engine, "UPDATE things SET n = 3 WHERE pk = 'a' AND sk = 1 AND n = 1", NULL,
             DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed");
  pql_fails (engine, "UPDATE things SET n = 3 WHERE pk = 'zz' AND sk = 1", NULL,
             DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed");
  pql_fails (engine, "UPDATE things SET n = 3 WHERE pk = 'a'", NULL,
             DYNO_ENGINE_ERROR_VALIDATION,
             "Where clause does not contain a mandatory equality on all key attributes");
  pql_fails (engine, "UPDATE things SET n = 3 WHERE pk = 'a' OR sk = 1", NULL,
             DYNO_ENGINE_ERROR_VALIDATION,
             "Where clause does not contain a mandatory equality on all key attributes");

  /* ReturnValuesOnConditionCheckFailure: the item in the error */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *error_body = NULL;
    g_autofree char *response = dyno_engine_request_full (
      engine, "ExecuteStatement", "{\"Statement\":\"UPDATE things SET n = 9 WHERE pk = 'a' "
      "AND sk = 1 AND n = 7\",\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"}", -1,
      &error_body, &error);
    g_autoptr(JsonNode) node = NULL;
    g_autofree char *item = NULL;

    g_assert_null (response);
    g_assert_error (error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED);
    node = dyno_json_parse (error_body, -1, NULL);
    item = dyno_json_node_to_string (json_object_get_member (json_node_get_object (node),
                                                             "Item"), FALSE);
    g_assert_cmpstr (item, ==, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},"
                               "\"s\":{\"SS\":[\"a\",\"b\",\"c\"]},"
                               "\"m\":{\"M\":{\"k\":{\"S\":\"v\"}}},\"n\":{\"N\":\"2\"}}");
  }

  /* DELETE: no item is no error, whatever the rest of the WHERE says; an item is deleted if
   * it holds */
  pql_fails (engine, "DELETE FROM things WHERE pk = 'a' AND sk = 1 AND n = 5", NULL,
             DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed");
  PQL_EXPECT (engine, "DELETE FROM things WHERE pk = 'zz' AND sk = 1 AND n = 5", NULL,
              "{\"Items\":[]}");
  PQL_EXPECT (engine, "DELETE FROM things WHERE pk = 'a' AND sk = 1 AND n = 2", NULL,
              "{\"Items\":[]}");
  PQL_EXPECT (engine, "DELETE FROM things WHERE sk = 1 AND pk = 'a'", NULL, "{\"Items\":[]}");
  PQL_EXPECT (engine, "SELECT * FROM things", NULL, "{\"Items\":[]}");
  pql_fails (engine, "DELETE FROM things WHERE pk = 'a' AND sk = 1 AND sk = 2", NULL,
             DYNO_ENGINE_ERROR_VALIDATION, "Multiple conditions on same key sk. Only single "
             "item Update/Insert/Delete are supported");
  pql_fails (engine, "DELETE FROM things WHERE pk = 'a' AND sk = 1 RETURNING MODIFIED NEW *",
             NULL, DYNO_ENGINE_ERROR_VALIDATION, "Invalid returning clause: RETURNING MODIFIED "
             "NEW *. Only RETURNING ALL OLD * is allowed in DELETE statements.");
  pql_fails (engine, "DELETE FROM things WHERE pk = 'a'", NULL, DYNO_ENGINE_ERROR_VALIDATION,
             "Where clause does not contain a mandatory equality on all key attributes");

  /* capacity, as the operation it ran as reports it */
  {
    g_autofree char *r = pql (engine, "INSERT INTO things VALUE {'pk': 'c', 'sk': 3}", NULL,
                              ",\"ReturnConsumedCapacity\":\"TOTAL\"");

    g_assert_cmpstr (r, ==, "{\"Items\":[],\"ConsumedCapacity\":{\"TableName\":\"things\","
                            "\"CapacityUnits\":1.0}}");
  }
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *file = g_build_filename (dir, name, NULL);

      g_unlink (file);
    }
  g_rmdir (dir);
}

/* A live WAL workspace copied with VACUUM INTO: the copy has the tables, the items and the
 * pattern set as of the export, later writes stay in the source, and an existing target is
 * replaced as a whole. */
static void
test_export_and_patterns (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("dyno-engine-export-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "source.dynotable", NULL);
  g_autofree char *copy = g_build_filename (dir, "copy.dynotable", NULL);
  g_autoptr(DynoEngine) engine = NULL;
  g_autofree char *patterns = NULL;
  g_autoptr(JsonNode) node = NULL;
  const char *set = "{\"format\":\"dynotable-patterns\",\"version\":1,\"patterns\":[]}";

  g_assert_no_error (error);
  engine = dyno_engine_new (path, &error);
  g_assert_no_error (error);

  /* no pattern set yet: NULL without an error */
  patterns = dyno_engine_dup_patterns (engine, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (patterns);
  g_assert_false (dyno_engine_set_patterns (engine, NULL, "[1,2]", &error));
  g_assert_error (error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_VALIDATION);
  g_clear_error (&error);
  g_assert_true (dyno_engine_set_patterns (engine, NULL, set, &error));
  g_assert_no_error (error);
  g_assert_true (dyno_engine_set_patterns (engine, "other", "{}", &error));
  g_assert_no_error (error);

  g_clear_pointer (&node, json_node_unref);
  node = call (engine, "CreateTable",
               "{\"TableName\":\"things\",\"BillingMode\":\"PAY_PER_REQUEST\","
               "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
               "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]}");
  g_clear_pointer (&node, json_node_unref);
  node = call (engine, "PutItem", "{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":\"a\"}}}");

  /* onto itself: refused */
  g_assert_false (dyno_engine_export_to (engine, path, &error));
  g_assert_error (error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_VALIDATION);
  g_clear_error (&error);

  /* an existing file is replaced */
  g_assert_true (g_file_set_contents (copy, "not a workspace", -1, &error));
  g_assert_true (dyno_engine_export_to (engine, copy, &error));
  g_assert_no_error (error);

  /* written after the export: only in the source */
  g_clear_pointer (&node, json_node_unref);
  node = call (engine, "PutItem", "{\"TableName\":\"things\",\"Item\":{\"pk\":{\"S\":\"b\"}}}");
  g_assert_true (dyno_engine_set_patterns (engine, NULL, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&patterns, g_free);
  patterns = dyno_engine_dup_patterns (engine, NULL, &error);
  g_assert_null (patterns);

  {
    /* the source stays open (it holds its file exclusively): the copy is another file */
    g_autoptr(DynoEngine) opened = dyno_engine_new (copy, &error);

    g_assert_no_error (error);
    g_clear_pointer (&node, json_node_unref);
    node = call (opened, "Scan", "{\"TableName\":\"things\",\"Select\":\"COUNT\"}");
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (node), "Count"), ==, 1);
    g_clear_pointer (&patterns, g_free);
    patterns = dyno_engine_dup_patterns (opened, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (patterns, ==, set);
    g_clear_pointer (&patterns, g_free);
    patterns = dyno_engine_dup_patterns (opened, "other", &error);
    g_assert_cmpstr (patterns, ==, "{}");
  }

  /* an in-memory engine exports too */
  {
    g_autoptr(DynoEngine) memory = dyno_engine_new (NULL, &error);
    g_autofree char *mem_copy = g_build_filename (dir, "memory.dynotable", NULL);

    g_assert_no_error (error);
    g_assert_true (dyno_engine_export_to (memory, mem_copy, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_test (mem_copy, G_FILE_TEST_IS_REGULAR));
  }

  /* a folder that does not exist: an error, nothing left behind */
  {
    g_autofree char *missing = g_build_filename (dir, "no", "such.dynotable", NULL);

    g_assert_false (dyno_engine_export_to (engine, missing, &error));
    g_assert_error (error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_INTERNAL);
    g_clear_error (&error);
  }

  g_clear_object (&engine);
  remove_dir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/order/number", test_number_order);
  g_test_add_func ("/engine/order/string-binary", test_string_and_binary_order);
  g_test_add_func ("/engine/pages", test_pages);
  g_test_add_func ("/engine/scan-segments", test_scan_segments);
  g_test_add_func ("/engine/index-maintained", test_index_maintained);
  g_test_add_func ("/engine/index-ties", test_index_ties_page);
  g_test_add_func ("/engine/hash-only-rewrite", test_hash_only_rewrite);
  g_test_add_func ("/engine/key-errors", test_key_errors);
  g_test_add_func ("/engine/conditional-writes", test_conditional_writes);
  g_test_add_func ("/engine/batches", test_batches);
  g_test_add_func ("/engine/batch-readers-agree", test_batch_readers_agree);
  g_test_add_func ("/engine/read-as-stored", test_read_as_stored);
  g_test_add_func ("/engine/batch-overwrite", test_batch_overwrite);
  g_test_add_func ("/engine/damaged-row", test_damaged_row);
  g_test_add_func ("/engine/create-table", test_create_table_rules);
  g_test_add_func ("/engine/workspace-file", test_workspace_file);
  g_test_add_func ("/engine/workspace-wal", test_workspace_wal);
  g_test_add_func ("/engine/partiql/select", test_partiql_select);
  g_test_add_func ("/engine/partiql/writes", test_partiql_writes);
  g_test_add_func ("/engine/transact/write", test_transact_write);
  g_test_add_func ("/engine/transact/cancelled", test_transact_cancelled);
  g_test_add_func ("/engine/transact/rules", test_transact_rules);
  g_test_add_func ("/engine/transact/token", test_transact_token);
  g_test_add_func ("/engine/transact/get", test_transact_get);
  g_test_add_func ("/engine/projection-overlap", test_projection_overlap);
  g_test_add_func ("/engine/index-rewrite-capacity", test_index_rewrite_capacity);
  g_test_add_func ("/engine/condition-failure-item", test_condition_failure_item);
  g_test_add_func ("/engine/update-table/indexes", test_update_table_indexes);
  g_test_add_func ("/engine/update-table/billing", test_update_table_billing);
  g_test_add_func ("/engine/update-table/errors", test_update_table_errors);
  g_test_add_func ("/engine/ttl/settings", test_ttl_settings);
  g_test_add_func ("/engine/ttl/expiry", test_ttl_expiry);
  g_test_add_func ("/engine/workspace/export-and-patterns", test_export_and_patterns);
  return g_test_run ();
}
