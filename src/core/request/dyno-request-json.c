/* dyno-request-json.c: a request as DynamoDB's JSON, and back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-request.h"
#include "dyno-request-private.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dyno-json.h"

/* json-glib's generator writes `"key" : value` and breaks every DynamoDB value over three
 * lines; the request is written in the shape people paste into `--cli-input-json`:
 * `"key": value`, two-space indent, and small containers ({"S": "x"}, a short key) kept on
 * one line. */
static const DynoJsonLayout pretty_layout = { 2, 72 };
static const DynoJsonLayout compact_layout = { 0, 0 };

/* ---- request -> JSON -------------------------------------------------------------------- */

JsonNode *
dyno_request_to_json_node (const DynoRequest *request)
{
  g_autoptr(DynoPrintedRequest) printed = NULL;
  JsonObject *object;
  JsonNode *node;
  guint members;

  g_return_val_if_fail (request != NULL, NULL);

  members = dyno_request_members_for_operation (request->operation);
  printed = dyno_request_print_internal (request, FALSE);
  object = json_object_new ();

  if (request->table_name != NULL)
    json_object_set_string_member (object, "TableName", request->table_name);
  if ((members & DYNO_MEMBER_INDEX_NAME) && request->index_name != NULL)
    json_object_set_string_member (object, "IndexName", request->index_name);
  if ((members & DYNO_MEMBER_KEY) && request->key != NULL)
    json_object_set_member (object, "Key", dyno_item_to_json_node (request->key));
  if ((members & DYNO_MEMBER_ITEM) && request->item != NULL)
    json_object_set_member (object, "Item", dyno_item_to_json_node (request->item));

  /* dyno_request_print_internal() printed only the expressions this operation takes. */
  if (printed->key_condition != NULL)
    json_object_set_string_member (object, "KeyConditionExpression", printed->key_condition);
  if (printed->update != NULL)
    json_object_set_string_member (object, "UpdateExpression", printed->update);
  if (printed->condition != NULL)
    json_object_set_string_member (object, "ConditionExpression", printed->condition);
  if (printed->filter != NULL)
    json_object_set_string_member (object, "FilterExpression", printed->filter);
  if (printed->projection != NULL)
    json_object_set_string_member (object, "ProjectionExpression", printed->projection);

  if (printed->names->len > 0)
    {
      JsonObject *names = json_object_new ();

      for (guint i = 0; i < printed->names->len; i++)
        json_object_set_string_member (names,
                                       g_ptr_array_index (printed->name_placeholders, i),
                                       g_ptr_array_index (printed->names, i));
      json_object_set_object_member (object, "ExpressionAttributeNames", names);
    }

  if (printed->values->len > 0)
    {
      JsonObject *values = json_object_new ();

      for (guint i = 0; i < printed->values->len; i++)
        json_object_set_member (values,
                                g_ptr_array_index (printed->value_placeholders, i),
                                dyno_value_to_json_node (g_ptr_array_index (printed->values, i)));
      json_object_set_object_member (object, "ExpressionAttributeValues", values);
    }

  if ((members & DYNO_MEMBER_EXCLUSIVE_START_KEY) && request->exclusive_start_key != NULL)
    json_object_set_member (object, "ExclusiveStartKey",
                            dyno_item_to_json_node (request->exclusive_start_key));
  if ((members & DYNO_MEMBER_LIMIT) && request->limit > 0)
    json_object_set_int_member (object, "Limit", request->limit);
  if ((members & DYNO_MEMBER_SCAN_INDEX_FORWARD) &&
      request->scan_index_forward != DYNO_TRISTATE_UNSET)
    json_object_set_boolean_member (object, "ScanIndexForward",
                                    request->scan_index_forward == DYNO_TRISTATE_TRUE);
  if ((members & DYNO_MEMBER_CONSISTENT_READ) &&
      request->consistent_read != DYNO_TRISTATE_UNSET)
    json_object_set_boolean_member (object, "ConsistentRead",
                                    request->consistent_read == DYNO_TRISTATE_TRUE);
  if ((members & DYNO_MEMBER_SELECT) && request->select != DYNO_SELECT_UNSET)
    json_object_set_string_member (object, "Select", dyno_select_to_string (request->select));
  if ((members & DYNO_MEMBER_RETURN_CONSUMED_CAPACITY) &&
      request->return_consumed_capacity != DYNO_CONSUMED_UNSET)
    json_object_set_string_member (object, "ReturnConsumedCapacity",
                                   dyno_consumed_capacity_to_string (
                                     request->return_consumed_capacity));
  if ((members & DYNO_MEMBER_RETURN_VALUES) &&
      request->return_values != DYNO_RETURN_VALUES_UNSET)
    json_object_set_string_member (object, "ReturnValues",
                                   dyno_return_values_to_string (request->return_values));
  if ((members & DYNO_MEMBER_SEGMENT) && request->segment >= 0)
    json_object_set_int_member (object, "Segment", request->segment);
  if ((members & DYNO_MEMBER_TOTAL_SEGMENTS) && request->total_segments >= 0)
    json_object_set_int_member (object, "TotalSegments", request->total_segments);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}

char *
dyno_request_to_json (const DynoRequest *request,
                      gboolean           pretty)
{
  g_autoptr(JsonNode) node = NULL;
  GString *out;

  g_return_val_if_fail (request != NULL, NULL);

  node = dyno_request_to_json_node (request);
  out = g_string_new (NULL);
  dyno_json_write_node_layout (out, node, pretty ? &pretty_layout : &compact_layout);
  if (pretty)
    g_string_append_c (out, '\n');

  return g_string_free (out, FALSE);
}

/* ---- JSON -> request -------------------------------------------------------------------- */

typedef struct {
  const char        *name;
  DynoRequestMember  member;
} MemberInfo;

static const MemberInfo known_members[] = {
  { "TableName", DYNO_MEMBER_TABLE_NAME },
  { "IndexName", DYNO_MEMBER_INDEX_NAME },
  { "Key", DYNO_MEMBER_KEY },
  { "Item", DYNO_MEMBER_ITEM },
  { "KeyConditionExpression", DYNO_MEMBER_KEY_CONDITION_EXPRESSION },
  { "UpdateExpression", DYNO_MEMBER_UPDATE_EXPRESSION },
  { "ConditionExpression", DYNO_MEMBER_CONDITION_EXPRESSION },
  { "FilterExpression", DYNO_MEMBER_FILTER_EXPRESSION },
  { "ProjectionExpression", DYNO_MEMBER_PROJECTION_EXPRESSION },
  { "ExpressionAttributeNames", DYNO_MEMBER_EXPRESSION_ATTRIBUTE_NAMES },
  { "ExpressionAttributeValues", DYNO_MEMBER_EXPRESSION_ATTRIBUTE_VALUES },
  { "ExclusiveStartKey", DYNO_MEMBER_EXCLUSIVE_START_KEY },
  { "Limit", DYNO_MEMBER_LIMIT },
  { "ScanIndexForward", DYNO_MEMBER_SCAN_INDEX_FORWARD },
  { "ConsistentRead", DYNO_MEMBER_CONSISTENT_READ },
  { "Select", DYNO_MEMBER_SELECT },
  { "ReturnConsumedCapacity", DYNO_MEMBER_RETURN_CONSUMED_CAPACITY },
  { "ReturnValues", DYNO_MEMBER_RETURN_VALUES },
  { "Segment", DYNO_MEMBER_SEGMENT },
  { "TotalSegments", DYNO_MEMBER_TOTAL_SEGMENTS },
};

/* The pre-expression API: DynamoDB still takes these, DynoTable reads only expressions. */
typedef struct {
  const char *name;
  const char *instead;
} LegacyInfo;

static const LegacyInfo legacy_members[] = {
  { "KeyConditions", "KeyConditionExpression" },
  { "QueryFilter", "FilterExpression" },
  { "ScanFilter", "FilterExpression" },
  { "AttributesToGet", "ProjectionExpression" },
  { "Expected", "ConditionExpression" },
  { "AttributeUpdates", "UpdateExpression" },
  { "ConditionalOperator", N_("AND/OR inside the expression") },
};

/* Members DynamoDB takes that DynoTable does not model.  Their default value changes
 * nothing, so a request that spells it out is read; any other value is refused rather than
 * silently dropped. */
static const char * const default_only_members[] = {
  "ReturnItemCollectionMetrics",
  "ReturnValuesOnConditionCheckFailure",
};

static const MemberInfo *
find_known_member (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_members); i++)
    {
      if (strcmp (known_members[i].name, name) == 0)
        return &known_members[i];
    }
  return NULL;
}

static const char *
find_member_case_insensitive (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_members); i++)
    {
      if (g_ascii_strcasecmp (known_members[i].name, name) == 0)
        return known_members[i].name;
    }
  return NULL;
}

static const char *
member_name (DynoRequestMember member)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_members); i++)
    {
      if (known_members[i].member == member)
        return known_members[i].name;
    }
  g_assert_not_reached ();
}

typedef struct {
  JsonObject    *object;
  DynoOperation  op;
  gboolean       guessed;
  guint          allowed;
  GHashTable    *names;   /* "#n" -> attribute name */
  GHashTable    *values;  /* ":v" -> DynoValue* */
  GHashTable    *used;    /* placeholders seen in the expressions */
  gboolean       key_condition_optional;  /* a draft's Query, its key still being written */
  /* where an expression error is */
  const char        *error_member;
  DynoParseLocation  location;
} ReadContext;

static void
read_context_clear (ReadContext *ctx)
{
  g_clear_pointer (&ctx->names, g_hash_table_unref);
  g_clear_pointer (&ctx->values, g_hash_table_unref);
  g_clear_pointer (&ctx->used, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ReadContext, read_context_clear)

static gboolean
has_member (JsonObject *object,
            const char *name)
{
  return json_object_has_member (object, name);
}

/* Which operation a request is, from its members.  Documented rule:
 *   KeyConditionExpression (or KeyConditions)        -> Query
 *   UpdateExpression (or AttributeUpdates)           -> UpdateItem
 *   Item                                             -> PutItem
 *   Key with ConditionExpression / ReturnValues / Expected: a DeleteItem or an UpdateItem
 *     without an UpdateExpression, which the members cannot tell apart -> an error asking for
 *     the operation
 *   Key otherwise                                    -> GetItem
 *   ScanIndexForward (Query only)                    -> Query
 *   anything else                                    -> Scan */
static gboolean
guess_operation (JsonObject     *object,
                 DynoOperation  *out_op,
                 GError        **error)
{
  if (has_member (object, "KeyConditionExpression") || has_member (object, "KeyConditions"))
    *out_op = DYNO_OP_QUERY;
  else if (has_member (object, "UpdateExpression") || has_member (object, "AttributeUpdates"))
    *out_op = DYNO_OP_UPDATE_ITEM;
  else if (has_member (object, "Item"))
    *out_op = DYNO_OP_PUT_ITEM;
  else if (has_member (object, "Key"))
    {
      if (has_member (object, "ConditionExpression") || has_member (object, "ReturnValues") ||
          has_member (object, "Expected"))
        {
          g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                               _("The operation cannot be told from the members: a request with "
                                 "Key and ConditionExpression or ReturnValues but no "
                                 "UpdateExpression may be a DeleteItem or an UpdateItem; "
                                 "give the operation"));
          return FALSE;
        }
      *out_op = DYNO_OP_GET_ITEM;
    }
  else if (has_member (object, "ScanIndexForward"))
    *out_op = DYNO_OP_QUERY;
  else
    *out_op = DYNO_OP_SCAN;

  return TRUE;
}

static gboolean
check_legacy_members (JsonObject  *object,
                      GError     **error)
{
  /* Before anything else: their message is the most useful one. */
  for (guint i = 0; i < G_N_ELEMENTS (legacy_members); i++)
    {
      if (json_object_has_member (object, legacy_members[i].name))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       /* Translators: the legacy member, then what to use instead. */
                       _("%s is a legacy parameter, not supported: use %s instead"),
                       legacy_members[i].name, _(legacy_members[i].instead));
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
check_members (ReadContext  *ctx,
               GError      **error)
{
  g_autoptr(GList) members = json_object_get_members (ctx->object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      const MemberInfo *info = find_known_member (name);

      if (info == NULL)
        {
          const char *suggestion = find_member_case_insensitive (name);
          gboolean default_only = FALSE;

          for (guint i = 0; i < G_N_ELEMENTS (default_only_members); i++)
            default_only |= strcmp (default_only_members[i], name) == 0;

          if (default_only && ctx->op != DYNO_OP_QUERY && ctx->op != DYNO_OP_SCAN &&
              ctx->op != DYNO_OP_GET_ITEM)
            {
              JsonNode *node = json_object_get_member (ctx->object, name);

              if (JSON_NODE_HOLDS_VALUE (node) &&
                  json_node_get_value_type (node) == G_TYPE_STRING &&
                  strcmp (json_node_get_string (node), "NONE") == 0)
                continue;

              g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           _("%s is not supported; only its default, \"NONE\", can be read"),
                           name);
              return FALSE;
            }

          if (suggestion != NULL)
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                         /* Translators: the member found, then the member with the right case. */
                         _("Unknown member in the request: %s (member names are "
                           "case-sensitive: did you mean %s?)"), name, suggestion);
          else
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                         _("Unknown member in the request: %s"), name);
          return FALSE;
        }

      if ((ctx->allowed & info->member) == 0)
        {
          const char *guessed = ctx->guessed
                                ? _(" (the operation was guessed from the members; give it to "
                                    "read the request as another one)")
                                : "";

          if (ctx->op == DYNO_OP_UPDATE_ITEM)
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                         /* Translators: the member, the operation (such as Query), then either
                          * nothing or a note that the operation was guessed. */
                         _("%s is not a member of an %s request%s"), name,
                         dyno_operation_to_string (ctx->op), guessed);
          else
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                         /* Translators: the member, the operation (such as Query), then either
                          * nothing or a note that the operation was guessed. */
                         _("%s is not a member of a %s request%s"), name,
                         dyno_operation_to_string (ctx->op), guessed);
          return FALSE;
        }
    }

  return TRUE;
}

static const char *
json_type_name (JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      return _("an object");
    case JSON_NODE_ARRAY:
      return _("an array");
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return _("a string");
        case G_TYPE_BOOLEAN:
          return _("a boolean");
        default:
          return _("a number");
        }
    }
}

static gboolean
get_string_member (JsonObject  *object,
                   const char  *name,
                   const char **out,
                   GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);

  *out = NULL;
  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   /* Translators: the member, then a JSON kind (such as "an object"). */
                   _("%s must be a string, not %s"), name, json_type_name (node));
      return FALSE;
    }

  *out = json_node_get_string (node);
  return TRUE;
}

/* An expression string: at most 4 KB (DynamoDB's quota), in DynamoDB Local's words. */
#define MAX_EXPRESSION_BYTES 4096

static gboolean
get_expression_member (JsonObject  *object,
                       const char  *name,
                       const char **out,
                       GError     **error)
{
  gsize len;

  if (!get_string_member (object, name, out, error))
    return FALSE;
  if (*out == NULL || (len = strlen (*out)) <= MAX_EXPRESSION_BYTES)
    return TRUE;
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
               /* Translators: the member (such as FilterExpression), its size in bytes, then
                * the limit in bytes. */
               _("Invalid %s: Expression size has exceeded the maximum allowed size; expression "
                 "size: %zu (DynamoDB accepts at most %d bytes, 4 KB, in one expression)"),
               name, len, MAX_EXPRESSION_BYTES);
  *out = NULL;
  return FALSE;
}

static gboolean
get_bool_member (JsonObject    *object,
                 const char    *name,
                 DynoTristate  *out,
                 GError       **error)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   /* Translators: the member, then a JSON kind (such as "a string"). */
                   _("%s must be true or false, not %s"), name, json_type_name (node));
      return FALSE;
    }

  *out = json_node_get_boolean (node) ? DYNO_TRISTATE_TRUE : DYNO_TRISTATE_FALSE;
  return TRUE;
}

static gboolean
get_int_member (JsonObject  *object,
                const char  *name,
                gint64       min,
                gint64       max,
                gint64      *out,
                GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);
  gint64 value;

  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   /* Translators: the member, then a JSON kind (such as "a string"). */
                   _("%s must be a whole number, not %s"), name,
                   JSON_NODE_HOLDS_VALUE (node) &&
                   json_node_get_value_type (node) == G_TYPE_DOUBLE
                     ? _("a fraction or a number this large") : json_type_name (node));
      return FALSE;
    }

  value = json_node_get_int (node);
  if (value < min || value > max)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   /* Translators: the member, the minimum, the maximum, then the value given. */
                   _("%s must be between %" PRId64 " and %" PRId64
                     ", not %" PRId64), name, min, max, value);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

static gboolean
get_item_member (JsonObject  *object,
                 const char  *name,
                 DynoItem   **out,
                 GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);
  GError *local_error = NULL;

  *out = NULL;
  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   /* Translators: the member, then a JSON kind (such as "a string"). */
                   _("%s must be an object of attributes in DynamoDB JSON, not %s"), name,
                   json_type_name (node));
      return FALSE;
    }

  *out = dyno_item_from_json_node (node, &local_error);
  if (*out == NULL)
    {
      g_propagate_prefixed_error (error, local_error, "%s: ", name);
      return FALSE;
    }

  return TRUE;
}

static gboolean
get_enum_member (JsonObject       *object,
                 const char       *name,
                 DynoRequestEnum   which,
                 guint             n_values,
                 int              *out,
                 GError          **error)
{
  const char *text;
  g_autofree char *list = NULL;

  if (!get_string_member (object, name, &text, error))
    return FALSE;
  if (text == NULL || dyno_request_enum_from_string (which, text, n_values, out))
    return TRUE;

  list = dyno_request_enum_list (which, n_values);
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
               /* Translators: the member, the allowed values, then the value given. */
               _("%s must be one of %s, not \"%s\""), name, list, text);
  return FALSE;
}

/* A placeholder is at most 255 bytes, its '#' or ':' included. */
static gboolean
check_placeholder_length (const char  *member,
                          const char  *key,
                          GError     **error)
{
  gsize len = strlen (key);

  if (len <= 255)
    return TRUE;
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
               _("%s contains invalid key: The expression attribute map contains a key that is "
                 "too long; size of key: %zu (at most 255 bytes): %.20s…"),
               member, len, key);
  return FALSE;
}

gboolean
dyno_request_is_placeholder (const char *key,
                             char        sigil)
{
  g_return_val_if_fail (key != NULL, FALSE);

  if (key[0] != sigil || key[1] == '\0')
    return FALSE;

  for (const char *p = key + 1; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '_')
        return FALSE;
    }

  return TRUE;
}

/* ExpressionAttributeNames ('#' placeholders) or ExpressionAttributeValues (':'): @node must
 * be an object with members.  Returns it, or NULL with @error set. */
static JsonObject *
placeholder_object (JsonNode  *node,
                    char       sigil,
                    GError   **error)
{
  JsonObject *object;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   sigil == '#'
                   ? _("ExpressionAttributeNames must be an object of \"#name\": \"attribute\", "
                       "not %s")
                   : _("ExpressionAttributeValues must be an object of \":name\": "
                       "{\"<type>\": value}, not %s"),
                   json_type_name (node));
      return NULL;
    }

  object = json_node_get_object (node);
  if (json_object_get_size (object) == 0)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           sigil == '#' ? _("ExpressionAttributeNames must not be empty")
                                        : _("ExpressionAttributeValues must not be empty"));
      return NULL;
    }

  return object;
}

/* A key of placeholder_object()'s: @sigil and a name DynamoDB takes. */
static gboolean
check_placeholder_key (const char  *key,
                       char         sigil,
                       GError     **error)
{
  if (!dyno_request_is_placeholder (key, sigil))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   sigil == '#'
                   ? _("ExpressionAttributeNames contains invalid key: Syntax error; "
                       "key: \"%s\"")
                   : _("ExpressionAttributeValues contains invalid key: Syntax error; "
                       "key: \"%s\""), key);
      return FALSE;
    }

  return check_placeholder_length (sigil == '#' ? "ExpressionAttributeNames"
                                                : "ExpressionAttributeValues", key, error);
}

static gboolean
read_names (ReadContext  *ctx,
            JsonNode     *node,
            GError      **error)
{
  JsonObject *object;
  g_autoptr(GList) members = NULL;

  object = placeholder_object (node, '#', error);
  if (object == NULL)
    return FALSE;

  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      JsonNode *value = json_object_get_member (object, key);

      if (!check_placeholder_key (key, '#', error))
        return FALSE;

      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       /* Translators: the placeholder, then a JSON kind (such as "a number"). */
                       _("ExpressionAttributeNames: the value of %s must be a string (the "
                         "attribute name), not %s"), key, json_type_name (value));
          return FALSE;
        }

      if (*json_node_get_string (value) == '\0')
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("ExpressionAttributeNames contains invalid value: Empty attribute "
                         "name for key %s"), key);
          return FALSE;
        }

      g_hash_table_insert (ctx->names, g_strdup (key), g_strdup (json_node_get_string (value)));
    }

  return TRUE;
}

static gboolean
read_values (ReadContext  *ctx,
             JsonNode     *node,
             GError      **error)
{
  JsonObject *object;
  g_autoptr(GList) members = NULL;

  object = placeholder_object (node, ':', error);
  if (object == NULL)
    return FALSE;

  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      g_autoptr(GError) local_error = NULL;
      DynoValue *value;

      if (!check_placeholder_key (key, ':', error))
        return FALSE;

      value = dyno_value_from_json_node (json_object_get_member (object, key), &local_error);
      if (value == NULL)
        {
          g_set_error (error, DYNO_ERROR,
                       local_error->domain == DYNO_ERROR ? local_error->code
                                                         : DYNO_ERROR_INVALID_VALUE,
                       /* Translators: the parser's message, then the placeholder. */
                       _("ExpressionAttributeValues contains invalid value: %s for key %s"),
                       local_error->message, key);
          return FALSE;
        }

      g_hash_table_insert (ctx->values, g_strdup (key), value);
    }

  return TRUE;
}

/* Keeps the parser's message, making sure it names the member it is about. */
static void
propagate_expression_error (GError     **error,
                            GError      *local_error,
                            const char  *member)
{
  if (strstr (local_error->message, member) != NULL)
    g_propagate_error (error, local_error);
  else
    g_propagate_prefixed_error (error, local_error, _("Invalid %s: "), member);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static gboolean
report_unused (GHashTable  *map,
               GHashTable  *used,
               const char  *member,
               GError     **error)
{
  g_autoptr(GPtrArray) unused = g_ptr_array_new ();
  g_autoptr(GString) keys = NULL;
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, map);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      if (!g_hash_table_contains (used, key))
        g_ptr_array_add (unused, key);
    }

  if (unused->len == 0)
    return TRUE;

  /* Sorted, so the message does not depend on hash order. */
  g_ptr_array_sort (unused, compare_strings);
  keys = g_string_new (NULL);
  for (guint i = 0; i < unused->len; i++)
    {
      if (i > 0)
        g_string_append (keys, ", ");
      g_string_append (keys, g_ptr_array_index (unused, i));
    }

  g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
               /* Translators: the member, then the unused placeholders. */
               _("Value provided in %s unused in expressions: keys: {%s}"), member, keys->str);
  return FALSE;
}

/* "FilterExpression and KeyConditionExpression are null", as DynamoDB words it. */
static char *
describe_value_expressions (guint allowed)
{
  static const DynoRequestMember value_members[] = {
    DYNO_MEMBER_UPDATE_EXPRESSION,
    DYNO_MEMBER_CONDITION_EXPRESSION,
    DYNO_MEMBER_FILTER_EXPRESSION,
    DYNO_MEMBER_KEY_CONDITION_EXPRESSION,
  };
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (value_members); i++)
    {
      if ((allowed & value_members[i]) == 0)
        continue;
      if (n > 0)
        g_string_append (text, _(" and "));
      g_string_append (text, member_name (value_members[i]));
      n++;
    }

  g_string_append (text, n > 1 ? _(" are null") : _(" is null"));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static gboolean
parse_condition_member (ReadContext   *ctx,
                        const char    *member,
                        DynoExprRole   role,
                        DynoExpr     **out,
                        GError       **error)
{
  const char *text;
  GError *local_error = NULL;

  if (!get_expression_member (ctx->object, member, &text, error))
    return FALSE;
  if (text == NULL)
    return TRUE;

  *out = dyno_expr_parse_condition (text, DYNO_SYNTAX_DYNAMODB, role, ctx->names, ctx->values,
                                    ctx->used, &ctx->location, &local_error);
  if (*out == NULL)
    {
      ctx->error_member = member;
      propagate_expression_error (error, local_error, member);
      return FALSE;
    }

  return TRUE;
}

static gboolean
read_request (ReadContext  *ctx,
              DynoRequest  *request,
              GError      **error)
{
  JsonObject *object = ctx->object;
  JsonNode *node;
  const char *text;
  gint64 number;
  int choice;
  gboolean has_expression;
  gboolean has_value_expression;

  if (!get_string_member (object, "TableName", &text, error))
    return FALSE;
  if (text == NULL || *text == '\0')
    {
      if (ctx->guessed)
        g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                             _("The request has no TableName"));
      else
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                     _("The %s request has no TableName"), dyno_operation_to_string (ctx->op));
      return FALSE;
    }
  request->table_name = g_strdup (text);

  if (!get_string_member (object, "IndexName", &text, error))
    return FALSE;
  if (text != NULL && *text == '\0')
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           _("IndexName must not be empty (leave it out to use the table)"));
      return FALSE;
    }
  request->index_name = g_strdup (text);

  if (!get_item_member (object, "Key", &request->key, error) ||
      !get_item_member (object, "Item", &request->item, error) ||
      !get_item_member (object, "ExclusiveStartKey", &request->exclusive_start_key, error))
    return FALSE;

  if ((ctx->allowed & DYNO_MEMBER_KEY) && request->key == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   _("The %s request has no Key (the item's primary key)"),
                   dyno_operation_to_string (ctx->op));
      return FALSE;
    }
  if ((ctx->allowed & DYNO_MEMBER_ITEM) && request->item == NULL)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           _("The PutItem request has no Item"));
      return FALSE;
    }

  /* The maps first: the expressions are read through them. */
  has_expression = FALSE;
  has_value_expression = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (known_members); i++)
    {
      DynoRequestMember m = known_members[i].member;

      if (!has_member (object, known_members[i].name))
        continue;
      if (m & (DYNO_MEMBER_KEY_CONDITION_EXPRESSION | DYNO_MEMBER_UPDATE_EXPRESSION |
               DYNO_MEMBER_CONDITION_EXPRESSION | DYNO_MEMBER_FILTER_EXPRESSION))
        has_expression = has_value_expression = TRUE;
      if (m & DYNO_MEMBER_PROJECTION_EXPRESSION)
        has_expression = TRUE;
    }

  node = json_object_get_member (object, "ExpressionAttributeNames");
  if (node != NULL)
    {
      if (!read_names (ctx, node, error))
        return FALSE;
      if (!has_expression)
        {
          g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                               _("ExpressionAttributeNames can only be specified when using "
                                 "expressions"));
          return FALSE;
        }
    }

  node = json_object_get_member (object, "ExpressionAttributeValues");
  if (node != NULL)
    {
      if (!read_values (ctx, node, error))
        return FALSE;
      if (!has_value_expression)
        {
          g_autofree char *which = describe_value_expressions (ctx->allowed);

          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("ExpressionAttributeValues can only be specified when using "
                         "expressions: %s"), which);
          return FALSE;
        }
    }

  /* DynamoDB's order: update, condition, key condition, filter, projection. */
  if (!get_expression_member (object, "UpdateExpression", &text, error))
    return FALSE;
  if (text != NULL)
    {
      GError *local_error = NULL;

      request->update = dyno_expr_parse_update (text, DYNO_SYNTAX_DYNAMODB, ctx->names,
                                                ctx->values, ctx->used, &ctx->location,
                                                &local_error);
      if (request->update == NULL)
        {
          ctx->error_member = "UpdateExpression";
          propagate_expression_error (error, local_error, "UpdateExpression");
          return FALSE;
        }
    }

  if (!parse_condition_member (ctx, "ConditionExpression", DYNO_EXPR_ROLE_CONDITION,
                               &request->condition, error) ||
      !parse_condition_member (ctx, "KeyConditionExpression", DYNO_EXPR_ROLE_KEY_CONDITION,
                               &request->key_condition, error) ||
      !parse_condition_member (ctx, "FilterExpression", DYNO_EXPR_ROLE_FILTER,
                               &request->filter, error))
    return FALSE;

  if (!get_expression_member (object, "ProjectionExpression", &text, error))
    return FALSE;
  if (text != NULL)
    {
      GError *local_error = NULL;

      request->projection = dyno_expr_parse_projection (text, DYNO_SYNTAX_DYNAMODB, ctx->names,
                                                        ctx->used, &ctx->location,
                                                        &local_error);
      if (request->projection == NULL)
        {
          ctx->error_member = "ProjectionExpression";
          propagate_expression_error (error, local_error, "ProjectionExpression");
          return FALSE;
        }
    }

  if (ctx->op == DYNO_OP_QUERY && request->key_condition == NULL
      && !ctx->key_condition_optional)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           _("Either the KeyConditions or KeyConditionExpression parameter must "
                             "be specified in the request."));
      return FALSE;
    }

  /* Names before values, as DynamoDB checks them. */
  if (!report_unused (ctx->names, ctx->used, "ExpressionAttributeNames", error) ||
      !report_unused (ctx->values, ctx->used, "ExpressionAttributeValues", error))
    return FALSE;

  number = 0;
  if (!get_int_member (object, "Limit", 1, G_MAXINT32, &number, error))
    return FALSE;
  request->limit = number;

  if (!get_bool_member (object, "ScanIndexForward", &request->scan_index_forward, error) ||
      !get_bool_member (object, "ConsistentRead", &request->consistent_read, error))
    return FALSE;

  choice = DYNO_SELECT_UNSET;
  if (!get_enum_member (object, "Select", DYNO_REQUEST_ENUM_SELECT, 0, &choice, error))
    return FALSE;
  request->select = choice;

  choice = DYNO_CONSUMED_UNSET;
  if (!get_enum_member (object, "ReturnConsumedCapacity",
                        DYNO_REQUEST_ENUM_RETURN_CONSUMED_CAPACITY, 0, &choice, error))
    return FALSE;
  request->return_consumed_capacity = choice;

  choice = DYNO_RETURN_VALUES_UNSET;
  /* PutItem and DeleteItem: "ReturnValues can only be ALL_OLD or NONE" */
  if (!get_enum_member (object, "ReturnValues", DYNO_REQUEST_ENUM_RETURN_VALUES,
                        ctx->op == DYNO_OP_UPDATE_ITEM ? 0 : DYNO_RETURN_VALUES_ALL_OLD + 1,
                        &choice, error))
    return FALSE;
  request->return_values = choice;

  number = -1;
  if (!get_int_member (object, "Segment", 0, G_MAXINT32, &number, error))
    return FALSE;
  request->segment = (gint) number;

  number = -1;
  if (!get_int_member (object, "TotalSegments", 0, G_MAXINT32, &number, error))
    return FALSE;
  request->total_segments = (gint) number;

  return TRUE;
}

DynoRequest *
dyno_request_from_json (const char  *json,
                        gssize       len,
                        int          op_hint,
                        GError     **error)
{
  return dyno_request_from_json_located (json, len, op_hint, NULL, NULL, error);
}

static DynoRequest *
read_json (const char         *json,
           gssize              len,
           int                 op_hint,
           gboolean            key_condition_optional,
           const char        **out_member,
           DynoParseLocation  *out_location,
           GError            **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DynoRequest) request = NULL;
  g_auto(ReadContext) ctx = { 0, };

  g_return_val_if_fail (json != NULL, NULL);
  g_return_val_if_fail (op_hint >= -1 && op_hint <= DYNO_OP_DELETE_ITEM, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (out_member != NULL)
    *out_member = NULL;
  if (out_location != NULL)
    memset (out_location, 0, sizeof *out_location);

  if (len < 0)
    len = strlen (json);

  /* Our own reader, not json-glib's: it keeps NULs in strings and bounds the nesting. */
  root = dyno_json_parse (json, len, &local_error);
  if (root == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON, _("The request is not valid JSON: %s"),
                   local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   _("The request must be a JSON object ({\"TableName\": …}), not %s"),
                   root == NULL ? _("nothing") : json_type_name (root));
      return NULL;
    }

  ctx.object = json_node_get_object (root);
  if (!check_legacy_members (ctx.object, error))
    return NULL;

  if (op_hint >= 0)
    ctx.op = (DynoOperation) op_hint;
  else
    {
      ctx.guessed = TRUE;
      if (!guess_operation (ctx.object, &ctx.op, error))
        return NULL;
    }
  ctx.allowed = dyno_request_members_for_operation (ctx.op);
  ctx.key_condition_optional = key_condition_optional;
  ctx.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  ctx.values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) dyno_value_free);
  /* The parsers add g_strdup()ed placeholders. */
  ctx.used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (!check_members (&ctx, error))
    return NULL;

  request = dyno_request_new (ctx.op, NULL);
  if (!read_request (&ctx, request, error))
    {
      if (ctx.error_member != NULL)
        {
          if (out_member != NULL)
            *out_member = ctx.error_member;
          if (out_location != NULL)
            *out_location = ctx.location;
        }
      return NULL;
    }

  return g_steal_pointer (&request);
}

DynoRequest *
dyno_request_from_json_located (const char         *json,
                                gssize              len,
                                int                 op_hint,
                                const char        **out_member,
                                DynoParseLocation  *out_location,
                                GError            **error)
{
  return read_json (json, len, op_hint, FALSE, out_member, out_location, error);
}

DynoRequest *
dyno_request_from_json_draft (const char     *json,
                              gssize          len,
                              DynoOperation   op,
                              GError        **error)
{
  return read_json (json, len, op, TRUE, NULL, NULL, error);
}
