/* dyno-transaction.c: the items of a TransactWriteItems or TransactGetItems request
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-transaction.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"

static const struct {
  const char    *name;
  DynoOperation  op;    /* what the item is read as */
} actions[] = {
  [DYNO_TRANSACT_PUT] = { "Put", DYNO_OP_PUT_ITEM },
  [DYNO_TRANSACT_UPDATE] = { "Update", DYNO_OP_UPDATE_ITEM },
  [DYNO_TRANSACT_DELETE] = { "Delete", DYNO_OP_DELETE_ITEM },
  [DYNO_TRANSACT_CONDITION_CHECK] = { "ConditionCheck", DYNO_OP_DELETE_ITEM },
  [DYNO_TRANSACT_GET] = { "Get", DYNO_OP_GET_ITEM },
};

const char *
dyno_transact_action_to_string (DynoTransactAction action)
{
  g_return_val_if_fail (action <= DYNO_TRANSACT_GET, NULL);
  return actions[action].name;
}

void
dyno_transact_item_free (DynoTransactItem *item)
{
  if (item == NULL)
    return;
  g_clear_pointer (&item->request, dyno_request_free);
  g_free (item);
}

static gboolean
is_write (DynoTransactAction action)
{
  return action != DYNO_TRANSACT_GET;
}

/* Reads one element of TransactItems; the message is prefixed with where it is. */
static DynoTransactItem *
read_item (JsonNode  *node,
           guint      index,
           gboolean   writes,
           GError   **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) body = NULL;
  JsonObject *object, *inner;
  GList *members;
  const char *name;
  DynoTransactItem *item;
  int action = -1;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   _("TransactItems[%u] must be an object such as {\"%s\": {…}}"), index,
                   writes ? "Put" : "Get");
      return NULL;
    }
  object = json_node_get_object (node);
  members = json_object_get_members (object);
  name = members != NULL ? members->data : NULL;
  if (g_list_length (members) == 1)
    for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
      if (g_strcmp0 (name, actions[i].name) == 0 && is_write (i) == writes)
        action = (int) i;
  g_list_free (members);
  if (action < 0)
    {
      if (writes)
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                     _("TransactItems[%u] must hold exactly one of Put, Update, Delete or "
                       "ConditionCheck"), index);
      else
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                     _("TransactItems[%u] must hold exactly one Get"), index);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, name)))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON, _("TransactItems[%u].%s must be an object"),
                   index, name);
      return NULL;
    }

  item = g_new0 (DynoTransactItem, 1);
  item->action = action;

  /* the one member a transaction item may have that a single request may not */
  body = json_node_copy (json_object_get_member (object, name));
  inner = json_node_get_object (body);
  if (json_object_has_member (inner, "ReturnValuesOnConditionCheckFailure"))
    {
      const char *rv = json_object_get_string_member_with_default (
        inner, "ReturnValuesOnConditionCheckFailure", "");

      if (!writes || (g_strcmp0 (rv, "ALL_OLD") != 0 && g_strcmp0 (rv, "NONE") != 0))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("TransactItems[%u].%s: ReturnValuesOnConditionCheckFailure must be "
                         "ALL_OLD or NONE"), index, name);
          dyno_transact_item_free (item);
          return NULL;
        }
      item->return_old_on_failure = g_str_equal (rv, "ALL_OLD");
      json_object_remove_member (inner, "ReturnValuesOnConditionCheckFailure");
    }

  dyno_json_write_node (text, body, FALSE);
  item->request = dyno_request_from_json (text->str, text->len, actions[action].op,
                                          &local_error);
  if (item->request == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code, "TransactItems[%u].%s: %s",
                   index, name, local_error->message);
      dyno_transact_item_free (item);
      return NULL;
    }
  {
    const char *refused = NULL;

    if (item->request->return_values != DYNO_RETURN_VALUES_UNSET)
      refused = "ReturnValues";
    else if (item->request->return_consumed_capacity != DYNO_CONSUMED_UNSET)
      refused = "ReturnConsumedCapacity";
    else if (item->request->consistent_read != DYNO_TRISTATE_UNSET)
      refused = "ConsistentRead";
    if (refused != NULL)
      {
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                     _("TransactItems[%u].%s: %s belongs to a single request, not to an item "
                       "of a transaction"), index, name, refused);
        dyno_transact_item_free (item);
        return NULL;
      }
  }
  if (action == DYNO_TRANSACT_CONDITION_CHECK && item->request->condition == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   _("TransactItems[%u].ConditionCheck needs a ConditionExpression"), index);
      dyno_transact_item_free (item);
      return NULL;
    }
  return item;
}

/* A table and key as text, to find two items on one item ("orders" + key JSON). */
static char *
item_identity (const DynoTransactItem *item)
{
  g_autofree char *key = NULL;

  if (item->request->key == NULL)
    return NULL;   /* a Put: its key is inside the item, known only with the schema */
  key = dyno_item_to_ddb_json (item->request->key);
  return g_strconcat (item->request->table_name, "\n", key, NULL);
}

GPtrArray *
dyno_transact_items_from_json (const char  *json,
                               gssize       len,
                               gboolean     writes,
                               GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GHashTable) seen = NULL;
  JsonNode *list;
  JsonArray *array;
  guint n;

  g_return_val_if_fail (json != NULL, NULL);

  root = dyno_json_parse (json, len, &local_error);
  if (root == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON, _("Not valid JSON: %s"),
                   local_error->message);
      return NULL;
    }
  list = root;
  if (JSON_NODE_HOLDS_OBJECT (root))
    list = json_object_get_member (json_node_get_object (root), "TransactItems");
  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_JSON,
                           _("Expected the TransactItems array, or an object holding it "
                             "({\"TransactItems\": […]})"));
      return NULL;
    }

  array = json_node_get_array (list);
  n = json_array_get_length (array);
  if (n == 0 || n > DYNO_TRANSACT_MAX_ITEMS)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   _("A transaction holds 1 to %u items; this one has %u"),
                   DYNO_TRANSACT_MAX_ITEMS, n);
      return NULL;
    }

  items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_transact_item_free);
  seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    {
      DynoTransactItem *item = read_item (json_array_get_element (array, i), i, writes, error);
      char *identity;

      if (item == NULL)
        return NULL;
      g_ptr_array_add (items, item);

      identity = item_identity (item);
      if (identity == NULL)
        continue;
      if (g_hash_table_contains (seen, identity))
        {
          guint first = GPOINTER_TO_UINT (g_hash_table_lookup (seen, identity)) - 1;

          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("TransactItems[%u] and TransactItems[%u] are on the same item of "
                         "“%s”: a transaction can hold one action per item"),
                       first, i, item->request->table_name);
          g_free (identity);
          return NULL;
        }
      g_hash_table_insert (seen, identity, GUINT_TO_POINTER (i + 1));
    }

  return g_steal_pointer (&items);
}

JsonNode *
dyno_transact_items_to_request (GPtrArray  *items,
                                const char *token)
{
  JsonObject *body = json_object_new ();
  JsonArray *array = json_array_new ();
  JsonNode *root;
  gboolean writes = FALSE;

  for (guint i = 0; i < items->len; i++)
    {
      DynoTransactItem *item = g_ptr_array_index (items, i);
      JsonNode *request = dyno_request_to_json_node (item->request);
      JsonObject *wrapper = json_object_new ();

      if (item->return_old_on_failure)
        json_object_set_string_member (json_node_get_object (request),
                                       "ReturnValuesOnConditionCheckFailure", "ALL_OLD");
      json_object_set_member (wrapper, actions[item->action].name, request);
      json_array_add_object_element (array, wrapper);
      writes = writes || is_write (item->action);
    }

  json_object_set_array_member (body, "TransactItems", array);
  if (writes && token != NULL)
    json_object_set_string_member (body, "ClientRequestToken", token);
  json_object_set_string_member (body, "ReturnConsumedCapacity", "TOTAL");
  root = json_node_init_object (json_node_alloc (), body);
  json_object_unref (body);
  return root;
}
