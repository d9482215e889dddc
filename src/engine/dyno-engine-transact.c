/* dyno-engine-transact.c: TransactWriteItems and TransactGetItems, and
 * ReturnValuesOnConditionCheckFailure on the single writes
 *
 * Each action of a transaction is read as the single request it stands for (Put as a PutItem,
 * Update as an UpdateItem, Delete and ConditionCheck as a DeleteItem, Get as a GetItem) by
 * core's request parser, then checked as that request is.  The writes of one
 * TransactWriteItems are made in one SQLite transaction, after every condition has held.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-engine-private.h"
#include "dyno-eval.h"
#include "dyno-json.h"
#include "dyno-request.h"
#include "dyno-transaction.h"

#define fail(error, code, ...) \
  g_set_error (error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_##code, __VA_ARGS__)

/* A ClientRequestToken is remembered this long after its request succeeded. */
#define TOKEN_LIFETIME_USEC (G_USEC_PER_SEC * 60 * 10)
#define TOKEN_MAX_LENGTH 36

#define RVOCCF "ReturnValuesOnConditionCheckFailure"

/* ---- ReturnValuesOnConditionCheckFailure ------------------------------------------------- */

/* Reads and removes the member from @object; @where is its name in DynamoDB's messages. */
static gboolean
take_return_old (JsonObject *object,
                 const char *where,
                 gboolean   *out_all_old,
                 GError    **error)
{
  JsonNode *node = json_object_get_member (object, RVOCCF);
  const char *text;

  *out_all_old = FALSE;
  if (node == NULL)
    return TRUE;
  text = json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : "";
  if (g_strcmp0 (text, "ALL_OLD") != 0 && g_strcmp0 (text, "NONE") != 0)
    {
      fail (error, VALIDATION, "1 validation error detected: Value '%s' at '%s' failed to "
            "satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]", text,
            where);
      return FALSE;
    }
  *out_all_old = strcmp (text, "ALL_OLD") == 0;
  json_object_remove_member (object, RVOCCF);
  return TRUE;
}

DynoRequest *
dyno_engine_parse_write_request (const char     *body,
                                 gssize          len,
                                 DynoOperation   op,
                                 gboolean       *out_all_old,
                                 GError        **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  JsonObject *object;

  *out_all_old = FALSE;
  /* core's parser takes the member only at NONE: read it here when it is there */
  if (g_strstr_len (body, len, RVOCCF) == NULL)
    return dyno_engine_parse_request (body, len, op, error);
  object = dyno_engine_parse_object (body, len, &node, error);
  if (object == NULL
      || !take_return_old (object, "returnValuesOnConditionCheckFailure", out_all_old, error))
    return NULL;
  text = dyno_json_node_to_string (node, FALSE);
  return dyno_engine_parse_request (text, -1, op, error);
}

static void
write_item_member (GString        *out,
                   const DynoItem *item)
{
  g_string_append (out, "\"Item\":");
  dyno_map_write_ddb_item (dyno_item_get_map (item), out);
}

void
dyno_engine_set_error_item (DynoEngine     *self,
                            const DynoItem *old)
{
  GString *members;

  if (old == NULL)
    return;
  members = g_string_new (NULL);
  write_item_member (members, old);
  dyno_engine_set_error_members (self, g_string_free (members, FALSE));
}

/* ---- the actions of a transaction -------------------------------------------------------- */

typedef struct {
  DynoTransactAction  action;
  DynoRequest        *request;
  gboolean            all_old;   /* ReturnValuesOnConditionCheckFailure ALL_OLD */
  DynoEngineTable    *table;
  DynoItem           *key;       /* the table's key attributes */
  DynoItem           *old;       /* the item as it was, or NULL */
  DynoItem           *new;       /* what a Put or Update writes */
} Action;

static void
action_free (Action *action)
{
  g_clear_pointer (&action->request, dyno_request_free);
  g_clear_pointer (&action->key, dyno_item_unref);
  g_clear_pointer (&action->old, dyno_item_unref);
  g_clear_pointer (&action->new, dyno_item_unref);
  g_free (action);
}

static const struct {
  const char    *name;
  const char    *where;   /* its name in DynamoDB's validation messages */
  DynoOperation  op;
} kinds[] = {
  [DYNO_TRANSACT_PUT] = { "Put", "put", DYNO_OP_PUT_ITEM },
  [DYNO_TRANSACT_UPDATE] = { "Update", "update", DYNO_OP_UPDATE_ITEM },
  [DYNO_TRANSACT_DELETE] = { "Delete", "delete", DYNO_OP_DELETE_ITEM },
  [DYNO_TRANSACT_CONDITION_CHECK] = { "ConditionCheck", "conditionCheck", DYNO_OP_DELETE_ITEM },
  [DYNO_TRANSACT_GET] = { "Get", "get", DYNO_OP_GET_ITEM },
};

/* One element of TransactItems, read and checked as its single request would be. */
static Action *
read_action (DynoEngine *self,
             JsonNode   *element,
             guint       index,
             gboolean    writes,
             GError    **error)
{
  g_autoptr(JsonNode) copy = NULL;
  g_autofree char *text = NULL;
  JsonObject *object = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
  JsonObject *inner;
  Action *action;
  int kind = -1;
  guint found = 0;

  for (guint i = 0; object && i < G_N_ELEMENTS (kinds); i++)
    if ((i != DYNO_TRANSACT_GET) == writes && json_object_has_member (object, kinds[i].name))
      {
        kind = (int) i;
        found++;
      }
  if (found != 1 || (object && json_object_get_size (object) != 1))
    {
      if (writes)
        fail (error, VALIDATION, "TransactItems can only contain one of Check, Put, Update or "
              "Delete");
      else
        fail (error, VALIDATION, "1 validation error detected: Value null at "
              "'transactItems.%u.member.get' failed to satisfy constraint: Member must not be "
              "null", index + 1);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, kinds[kind].name)))
    {
      fail (error, SERIALIZATION, "Start of structure or map found where not expected");
      return NULL;
    }

  action = g_new0 (Action, 1);
  action->action = kind;
  copy = json_node_copy (json_object_get_member (object, kinds[kind].name));
  inner = json_node_get_object (copy);
  if (writes)
    {
      g_autofree char *where = g_strdup_printf ("transactItems.%u.member.%s.%s", index + 1,
                                                kinds[kind].where,
                                                "returnValuesOnConditionCheckFailure");

      if (!take_return_old (inner, where, &action->all_old, error))
        goto failed;
    }
  if ((kind == DYNO_TRANSACT_CONDITION_CHECK && !json_object_has_member (inner,
                                                                         "ConditionExpression"))
      || (kind == DYNO_TRANSACT_UPDATE && !json_object_has_member (inner, "UpdateExpression")))
    {
      fail (error, VALIDATION, "1 validation error detected: Value null at "
            "'transactItems.%u.member.%s.%s' failed to satisfy constraint: Member must not be "
            "null", index + 1, kinds[kind].where,
            kind == DYNO_TRANSACT_UPDATE ? "updateExpression" : "conditionExpression");
      goto failed;
    }
  text = dyno_json_node_to_string (copy, FALSE);
  action->request = dyno_engine_parse_request (text, -1, kinds[kind].op, error);
  if (action->request == NULL)
    goto failed;

  action->table = dyno_engine_find_table (self, action->request->table_name, error);
  if (action->table == NULL)
    goto failed;
  if (kind == DYNO_TRANSACT_PUT)
    {
      if (action->request->item == NULL)
        {
          fail (error, VALIDATION, "1 validation error detected: Value null at "
                "'transactItems.%u.member.put.item' failed to satisfy constraint: Member must "
                "not be null", index + 1);
          goto failed;
        }
      if (!dyno_engine_check_item (action->table, action->request->item, FALSE, error))
        goto failed;
      action->key = dyno_engine_table_key_of (action->table, action->request->item);
    }
  else
    {
      if (!dyno_engine_check_key (action->table, action->request->key, error))
        goto failed;
      action->key = dyno_engine_table_key_of (action->table, action->request->key);
    }
  if (!dyno_engine_check_condition (action->request->condition, DYNO_EXPR_ROLE_CONDITION,
                                    error)
      || !dyno_engine_check_projection (action->request->projection, error))
    goto failed;
  if (kind == DYNO_TRANSACT_UPDATE)
    {
      const char *key_names[3] = { action->table->pk.name, action->table->sk.name, NULL };
      GError *local = NULL;

      if (!dyno_eval_check_update (action->request->update, key_names, &local))
        {
          dyno_engine_to_engine_error (local, error);
          goto failed;
        }
    }
  return action;

failed:
  action_free (action);
  return NULL;
}

/* TransactItems of @request: 1 to 100 actions, no two on one item. */
static GPtrArray *
read_actions (DynoEngine *self,
              JsonObject *request,
              gboolean    writes,
              GError    **error)
{
  JsonNode *list = json_object_get_member (request, "TransactItems");
  JsonArray *array = list && JSON_NODE_HOLDS_ARRAY (list) ? json_node_get_array (list) : NULL;
  g_autoptr(GPtrArray) actions = NULL;
  g_autoptr(GHashTable) seen = NULL;
  guint n;

  if (array == NULL)
    {
      fail (error, VALIDATION, "1 validation error detected: Value null at 'transactItems' "
            "failed to satisfy constraint: Member must not be null");
      return NULL;
    }
  n = json_array_get_length (array);
  if (n == 0 || n > DYNO_TRANSACT_MAX_ITEMS)
    {
      fail (error, VALIDATION, "1 validation error detected: Value at 'transactItems' failed "
            "to satisfy constraint: Member must have length %s %u",
            n == 0 ? "greater than or equal to" : "less than or equal to",
            n == 0 ? 1 : DYNO_TRANSACT_MAX_ITEMS);
      return NULL;
    }
  actions = g_ptr_array_new_with_free_func ((GDestroyNotify) action_free);
  seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    {
      Action *action = read_action (self, json_array_get_element (array, i), i, writes, error);
      g_autofree char *key = NULL;

      if (action == NULL)
        return NULL;
      g_ptr_array_add (actions, action);
      key = dyno_item_to_ddb_json (action->key);
      if (!g_hash_table_add (seen, g_strconcat (action->table->name, "\n", key, NULL)))
        {
          fail (error, VALIDATION, "Transaction request cannot include multiple operations on "
                "one item");
          return NULL;
        }
    }
  return g_steal_pointer (&actions);
}

/* ---- capacity, per table in the order the actions name them ------------------------------ */

typedef struct {
  DynoEngineTable    *table;
  DynoEngineCapacity  cap;
} TableCapacity;

static void
table_capacity_free (TableCapacity *tc)
{
  dyno_engine_capacity_clear (&tc->cap);
  g_free (tc);
}

static DynoEngineCapacity *
capacity_of (GPtrArray       *caps,
             DynoEngineTable *table)
{
  TableCapacity *tc;

  for (guint i = 0; i < caps->len; i++)
    {
      tc = g_ptr_array_index (caps, i);
      if (tc->table == table)
        return &tc->cap;
    }
  tc = g_new0 (TableCapacity, 1);
  tc->table = table;
  dyno_engine_capacity_init (&tc->cap, table);
  g_ptr_array_add (caps, tc);
  return &tc->cap;
}

/* {…"ConsumedCapacity":[…]} (or {}), each table's units times @factor. */
static char *
capacity_response (GPtrArray                  *caps,
                   double                      factor,
                   DynoReturnConsumedCapacity  mode,
                   const char                 *before)
{
  GString *out = g_string_new ("{");

  if (before != NULL)
    g_string_append (out, before);
  if (dyno_engine_wants_capacity (mode))
    {
      g_string_append (out, before ? ",\"ConsumedCapacity\":[" : "\"ConsumedCapacity\":[");
      for (guint i = 0; i < caps->len; i++)
        {
          TableCapacity *tc = g_ptr_array_index (caps, i);

          tc->cap.table *= factor;
          for (guint j = 0; j < tc->table->indexes->len; j++)
            tc->cap.indexes[j] *= factor;
          if (i > 0)
            g_string_append_c (out, ',');
          dyno_engine_write_capacity (out, tc->table, &tc->cap, mode);
        }
      g_string_append_c (out, ']');
    }
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);
}

/* ---- ClientRequestToken ------------------------------------------------------------------ */

typedef struct {
  char   *request;   /* TransactItems as sent */
  gint64  expires;   /* monotonic time */
} Token;

static void
token_free (Token *token)
{
  g_free (token->request);
  g_free (token);
}

static GHashTable *
tokens_of (DynoEngine *self)
{
  GHashTable *tokens = dyno_engine_get_tokens (self, (GDestroyNotify) token_free);
  GHashTableIter iter;
  Token *token;
  gint64 now = g_get_monotonic_time ();

  g_hash_table_iter_init (&iter, tokens);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &token))
    if (token->expires <= now)
      g_hash_table_iter_remove (&iter);
  return tokens;
}

/* ---- TransactWriteItems ------------------------------------------------------------------ */

/* The cancellation: every action's reason, in order. */
static void
cancel (DynoEngine *self,
        GPtrArray  *actions,
        GPtrArray  *reasons,
        GError    **error)
{
  g_autoptr(GString) codes = g_string_new (NULL);
  GString *members = g_string_new ("\"CancellationReasons\":[");

  for (guint i = 0; i < actions->len; i++)
    {
      Action *action = g_ptr_array_index (actions, i);
      GError *reason = g_ptr_array_index (reasons, i);
      const char *code = "None";

      if (reason != NULL)
        code = reason->code == DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED
               ? "ConditionalCheckFailed" : "ValidationError";
      g_string_append_printf (codes, "%s%s", i ? ", " : "", code);
      g_string_append_printf (members, "%s{\"Code\":\"%s\"", i ? "," : "", code);
      if (reason != NULL)
        {
          g_string_append (members, ",\"Message\":");
          dyno_json_write_string (members, reason->message, -1);
        }
      if (reason != NULL && reason->code == DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED
          && action->all_old && action->old != NULL)
        {
          g_string_append_c (members, ',');
          write_item_member (members, action->old);
        }
      g_string_append_c (members, '}');
    }
  g_string_append_c (members, ']');
  dyno_engine_set_error_members (self, g_string_free (members, FALSE));
  fail (error, TRANSACTION_CANCELED, "Transaction cancelled, please refer cancellation "
        "reasons for specific reasons [%s]", codes->str);
}

static void
reason_free (gpointer reason)
{
  if (reason != NULL)
    g_error_free (reason);
}

/* Reads the item of @action and decides what it writes; FALSE with @reason set when the
 * action cannot be made (its condition failed, its update cannot apply), FALSE with @error
 * set when the workspace failed. */
static gboolean
prepare (DynoEngine *self,
         Action     *action,
         GError    **reason,
         GError    **error)
{
  DynoRequest *request = action->request;
  GError *local = NULL;
  gboolean match;

  action->old = dyno_engine_load_item (self, action->table, action->key, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (!dyno_engine_eval_condition (request->condition, DYNO_EXPR_ROLE_CONDITION, action->old,
                                   &match, reason))
    return FALSE;
  if (!match)
    {
      /* a ConditionCheck's message ends with a full stop, the others' not (as DynamoDB
       * Local words them) */
      fail (reason, CONDITIONAL_CHECK_FAILED, "The conditional request failed%s",
            action->action == DYNO_TRANSACT_CONDITION_CHECK ? "." : "");
      return FALSE;
    }
  switch (action->action)
    {
    case DYNO_TRANSACT_PUT:
      action->new = dyno_item_ref (request->item);
      break;
    case DYNO_TRANSACT_UPDATE:
      action->new = dyno_eval_update (request->update, action->old, action->key, &local);
      if (action->new == NULL)
        return dyno_engine_to_engine_error (local, reason);
      if (!dyno_engine_check_item (action->table, action->new, TRUE, reason))
        return FALSE;
      break;
    default:
      break;
    }
  return TRUE;
}

char *
dyno_engine_op_transact_write_items (DynoEngine *self,
                                     const char *body,
                                     gssize      len,
                                     GError    **error)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *request = dyno_engine_parse_object (body, len, &node, error);
  g_autoptr(GPtrArray) actions = NULL;
  g_autoptr(GPtrArray) reasons = NULL;
  g_autoptr(GPtrArray) caps = NULL;
  g_autofree char *sent = NULL;
  DynoReturnConsumedCapacity mode;
  const char *token = NULL;
  GHashTable *tokens;
  Token *known;
  GError *local = NULL;
  gboolean cancelled = FALSE;

  if (request == NULL)
    return NULL;
  mode = dyno_engine_object_capacity (request);
  if (json_object_has_member (request, "ClientRequestToken"))
    {
      JsonNode *tn = json_object_get_member (request, "ClientRequestToken");

      token = json_node_get_value_type (tn) == G_TYPE_STRING ? json_node_get_string (tn) : "";
      if (*token == '\0' || g_utf8_strlen (token, -1) > TOKEN_MAX_LENGTH)
        {
          fail (error, VALIDATION, "1 validation error detected: Value '%s' at "
                "'clientRequestToken' failed to satisfy constraint: Member must have length "
                "%s", token, *token ? "less than or equal to 36" : "greater than or equal to 1");
          return NULL;
        }
    }
  actions = read_actions (self, request, TRUE, error);
  if (actions == NULL)
    return NULL;
  caps = g_ptr_array_new_with_free_func ((GDestroyNotify) table_capacity_free);

  /* the same token: the same TransactItems are answered without being made again (the
   * response then counts the reads of the items, as DynamoDB's does), others are refused */
  sent = dyno_json_node_to_string (json_object_get_member (request, "TransactItems"), FALSE);
  tokens = tokens_of (self);
  known = token ? g_hash_table_lookup (tokens, token) : NULL;
  if (known != NULL)
    {
      if (strcmp (known->request, sent) != 0)
        {
          fail (error, IDEMPOTENT_PARAMETER_MISMATCH, "Request parameters do not match the "
                "request made earlier with the same ClientRequestToken");
          return NULL;
        }
      for (guint i = 0; i < actions->len; i++)
        {
          Action *action = g_ptr_array_index (actions, i);
          g_autoptr(DynoItem) item = dyno_engine_load_item (self, action->table, action->key,
                                                            &local);

          if (local != NULL)
            {
              g_propagate_error (error, local);
              return NULL;
            }
          capacity_of (caps, action->table)->table +=
            dyno_engine_read_units_for (item ? dyno_item_get_size (item) : 0, TRUE);
        }
      return capacity_response (caps, 1, mode, NULL);
    }

  if (!dyno_engine_begin (self, error))
    return NULL;
  /* every condition first, against the items as they were: all or nothing */
  reasons = g_ptr_array_new_with_free_func (reason_free);
  for (guint i = 0; i < actions->len; i++)
    {
      GError *reason = NULL;

      if (!prepare (self, g_ptr_array_index (actions, i), &reason, &local))
        {
          if (local != NULL)
            goto failed;
          cancelled = TRUE;
        }
      g_ptr_array_add (reasons, reason);
    }
  if (cancelled)
    {
      dyno_engine_rollback (self);
      cancel (self, actions, reasons, error);
      return NULL;
    }
  for (guint i = 0; i < actions->len; i++)
    {
      Action *action = g_ptr_array_index (actions, i);
      DynoEngineCapacity *cap = capacity_of (caps, action->table);

      switch (action->action)
        {
        case DYNO_TRANSACT_PUT:
        case DYNO_TRANSACT_UPDATE:
          if (!dyno_engine_store_item (self, action->table, action->old, action->new, cap,
                                       &local))
            goto failed;
          break;
        case DYNO_TRANSACT_DELETE:
          if (action->old == NULL)
            cap->table += 1;
          else if (!dyno_engine_store_item (self, action->table, action->old, NULL, cap, &local))
            goto failed;
          break;
        case DYNO_TRANSACT_CONDITION_CHECK:
          /* a check reads its item: a strongly consistent read, doubled below */
          cap->table += dyno_engine_read_units_for (action->old
                                                    ? dyno_item_get_size (action->old) : 0,
                                                    TRUE);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  if (!dyno_engine_commit (self, error))
    return NULL;
  if (token != NULL)
    {
      Token *entry = g_new0 (Token, 1);

      entry->request = g_steal_pointer (&sent);
      entry->expires = g_get_monotonic_time () + TOKEN_LIFETIME_USEC;
      g_hash_table_replace (tokens, g_strdup (token), entry);
    }
  /* a transactional write is two: one to prepare, one to commit */
  return capacity_response (caps, 2, mode, NULL);

failed:
  dyno_engine_rollback (self);
  g_propagate_error (error, local);
  return NULL;
}

/* ---- TransactGetItems -------------------------------------------------------------------- */

char *
dyno_engine_op_transact_get_items (DynoEngine *self,
                                   const char *body,
                                   gssize      len,
                                   GError    **error)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *request = dyno_engine_parse_object (body, len, &node, error);
  g_autoptr(GPtrArray) actions = NULL;
  g_autoptr(GPtrArray) caps = NULL;
  g_autoptr(GString) responses = g_string_new ("\"Responses\":[");

  if (request == NULL)
    return NULL;
  actions = read_actions (self, request, FALSE, error);
  if (actions == NULL)
    return NULL;
  caps = g_ptr_array_new_with_free_func ((GDestroyNotify) table_capacity_free);
  for (guint i = 0; i < actions->len; i++)
    {
      Action *action = g_ptr_array_index (actions, i);
      GError *local = NULL;
      g_autoptr(DynoItem) shown = NULL;

      action->old = dyno_engine_load_item (self, action->table, action->key, &local);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return NULL;
        }
      /* a read the size of the item, strongly consistent; doubled below */
      capacity_of (caps, action->table)->table +=
        dyno_engine_read_units_for (action->old ? dyno_item_get_size (action->old) : 0, TRUE);
      if (action->old != NULL)
        shown = action->request->projection
                ? dyno_eval_project (action->request->projection, action->old)
                : dyno_item_ref (action->old);
      /* a missing item is {}; an item the projection leaves nothing of is {"Item":{}} (as
       * DynamoDB Local answers; GetItem then has no Item at all) */
      g_string_append (responses, i ? ",{" : "{");
      if (shown != NULL)
        write_item_member (responses, shown);
      g_string_append_c (responses, '}');
    }
  g_string_append_c (responses, ']');
  return capacity_response (caps, 2, dyno_engine_object_capacity (request), responses->str);
}
