/* test-transaction.c: reading and writing the items of TransactWriteItems/TransactGetItems
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-transaction.h"

static GPtrArray *
read_ok (const char *json,
         gboolean    writes)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *items = dyno_transact_items_from_json (json, -1, writes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (items);
  return items;
}

static char *
read_error (const char *json,
            gboolean    writes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = dyno_transact_items_from_json (json, -1, writes, &error);

  g_assert_null (items);
  g_assert_nonnull (error);
  g_assert_true (error->domain == DYNO_ERROR);
  return g_strdup (error->message);
}

static const char *order_transfer =
  "[{\"Put\":{\"TableName\":\"orders\",\"Item\":{\"pk\":{\"S\":\"C#1\"},\"sk\":{\"S\":\"O#9\"},"
  "\"total\":{\"N\":\"12.50\"}},\"ConditionExpression\":\"attribute_not_exists(pk)\"}},"
  " {\"Update\":{\"TableName\":\"customers\",\"Key\":{\"pk\":{\"S\":\"C#1\"}},"
  "\"UpdateExpression\":\"SET #n = #n + :one\",\"ExpressionAttributeNames\":{\"#n\":\"orders\"},"
  "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}},"
  "\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"}},"
  " {\"ConditionCheck\":{\"TableName\":\"stock\",\"Key\":{\"sku\":{\"S\":\"A\"}},"
  "\"ConditionExpression\":\"qty > :zero\",\"ExpressionAttributeValues\":{\":zero\":{\"N\":\"0\"}}}},"
  " {\"Delete\":{\"TableName\":\"carts\",\"Key\":{\"pk\":{\"S\":\"C#1\"}}}}]";

static void
test_read_writes (void)
{
  g_autoptr(GPtrArray) items = read_ok (order_transfer, TRUE);
  DynoTransactItem *item;

  g_assert_cmpuint (items->len, ==, 4);
  item = g_ptr_array_index (items, 0);
  g_assert_cmpint (item->action, ==, DYNO_TRANSACT_PUT);
  g_assert_cmpstr (item->request->table_name, ==, "orders");
  g_assert_nonnull (item->request->condition);
  item = g_ptr_array_index (items, 1);
  g_assert_cmpint (item->action, ==, DYNO_TRANSACT_UPDATE);
  g_assert_true (item->return_old_on_failure);
  g_assert_nonnull (item->request->update);
  item = g_ptr_array_index (items, 2);
  g_assert_cmpint (item->action, ==, DYNO_TRANSACT_CONDITION_CHECK);
  item = g_ptr_array_index (items, 3);
  g_assert_cmpint (item->action, ==, DYNO_TRANSACT_DELETE);

  /* the --cli-input-json form is read too */
  {
    g_autofree char *wrapped = g_strdup_printf ("{\"TransactItems\":%s,"
                                                "\"ClientRequestToken\":\"x\"}",
                                                order_transfer);
    g_autoptr(GPtrArray) again = read_ok (wrapped, TRUE);

    g_assert_cmpuint (again->len, ==, 4);
  }
}

/* Written back, each item reads again as the same request, with its token and options. */
static void
test_round_trip (void)
{
  g_autoptr(GPtrArray) items = read_ok (order_transfer, TRUE);
  g_autoptr(JsonNode) body = dyno_transact_items_to_request (items, "tok-123");
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) again = NULL;
  JsonObject *object = json_node_get_object (body);
  JsonObject *update;

  g_assert_cmpstr (json_object_get_string_member (object, "ClientRequestToken"), ==, "tok-123");
  g_assert_cmpstr (json_object_get_string_member (object, "ReturnConsumedCapacity"), ==,
                   "TOTAL");
  update = json_object_get_object_member (
    json_array_get_object_element (json_object_get_array_member (object, "TransactItems"), 1),
    "Update");
  g_assert_cmpstr (json_object_get_string_member (update, "ReturnValuesOnConditionCheckFailure"),
                   ==, "ALL_OLD");

  dyno_json_write_node (text, body, FALSE);
  again = read_ok (text->str, TRUE);
  g_assert_cmpuint (again->len, ==, items->len);
  for (guint i = 0; i < items->len; i++)
    {
      DynoTransactItem *a = g_ptr_array_index (items, i);
      DynoTransactItem *b = g_ptr_array_index (again, i);

      g_assert_cmpint (a->action, ==, b->action);
      g_assert_true (dyno_request_equal (a->request, b->request));
      g_assert_cmpint (a->return_old_on_failure, ==, b->return_old_on_failure);
    }
}

static void
test_read_gets (void)
{
  g_autoptr(GPtrArray) items = read_ok (
    "[{\"Get\":{\"TableName\":\"orders\",\"Key\":{\"pk\":{\"S\":\"C#1\"},\"sk\":{\"S\":\"O#9\"}},"
    "\"ProjectionExpression\":\"amount\"}},"
    " {\"Get\":{\"TableName\":\"customers\",\"Key\":{\"pk\":{\"S\":\"C#1\"}}}}]", FALSE);
  g_autoptr(JsonNode) body = dyno_transact_items_to_request (items, "ignored");

  g_assert_cmpuint (items->len, ==, 2);
  g_assert_nonnull (((DynoTransactItem *) g_ptr_array_index (items, 0))->request->projection);
  /* a read transaction has no idempotency token */
  g_assert_false (json_object_has_member (json_node_get_object (body), "ClientRequestToken"));
}

static void
test_refused (void)
{
  static const struct {
    const char *json;
    gboolean    writes;
    const char *says;
  } cases[] = {
    { "[]", TRUE, "1 to 100 items" },
    { "{\"Items\":[]}", TRUE, "TransactItems array" },
    { "[{\"Put\":{\"TableName\":\"t\",\"Item\":{\"pk\":{\"S\":\"a\"}}},"
      "\"Delete\":{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"a\"}}}}]", TRUE,
      "TransactItems[0] must hold exactly one of Put" },
    { "[{\"Get\":{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"a\"}}}}]", TRUE,
      "TransactItems[0] must hold exactly one of Put" },
    { "[{\"Put\":{\"TableName\":\"t\",\"Item\":{\"pk\":{\"S\":\"a\"}}}}]", FALSE,
      "exactly one Get" },
    { "[{\"ConditionCheck\":{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"a\"}}}}]", TRUE,
      "needs a ConditionExpression" },
    { "[{\"Update\":{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"a\"}},"
      "\"UpdateExpression\":\"SET a = :v\"}}]", TRUE, "TransactItems[0].Update: " },
    { "[{\"Put\":{\"TableName\":\"t\",\"Item\":{\"pk\":{\"S\":\"a\"}},"
      "\"ReturnValues\":\"ALL_OLD\"}}]", TRUE, "ReturnValues belongs to a single request" },
    { "[{\"Put\":{\"TableName\":\"t\",\"Item\":{\"pk\":{\"S\":\"a\"}},"
      "\"ReturnValuesOnConditionCheckFailure\":\"ALL_NEW\"}}]", TRUE, "ALL_OLD or NONE" },
    { "[{\"Delete\":{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"a\"}}}},"
      " {\"Update\":{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"a\"}},"
      "\"UpdateExpression\":\"SET a = :v\",\"ExpressionAttributeValues\":{\":v\":{\"N\":\"1\"}}}}]",
      TRUE, "TransactItems[0] and TransactItems[1] are on the same item" },
    { "[1]", TRUE, "TransactItems[0] must be an object" },
    { "[{\"Put\":", TRUE, "Not valid JSON" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *message = read_error (cases[i].json, cases[i].writes);

      g_test_message ("%s -> %s", cases[i].json, message);
      g_assert_nonnull (strstr (message, cases[i].says));
    }

  /* 101 items */
  {
    GString *many = g_string_new ("[");
    g_autofree char *message = NULL;

    for (guint i = 0; i < 101; i++)
      g_string_append_printf (many, "%s{\"Delete\":{\"TableName\":\"t\",\"Key\":{\"pk\":{\"N\":"
                              "\"%u\"}}}}", i > 0 ? "," : "", i);
    g_string_append_c (many, ']');
    message = read_error (many->str, TRUE);
    g_assert_nonnull (strstr (message, "this one has 101"));
    g_string_free (many, TRUE);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/transaction/read-writes", test_read_writes);
  g_test_add_func ("/transaction/round-trip", test_round_trip);
  g_test_add_func ("/transaction/read-gets", test_read_gets);
  g_test_add_func ("/transaction/refused", test_refused);

  return g_test_run ();
}
