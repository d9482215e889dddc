/* dyno-codegen-util.c: what the targets not yet moved to the walker share (transitional)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-old.h"

void
dyno_codegen_append_value_string (GString         *out,
                                  const DynoValue *value,
                                  DynoQuoteStyle   style)
{
  gsize len;
  const char *text = dyno_value_get_string (value, &len);

  dyno_codegen_append_quoted_len (out, text, len, style);
}

void
dyno_codegen_append_member_name (GString         *out,
                                 const DynoValue *map,
                                 guint            i,
                                 DynoQuoteStyle   style)
{
  gsize len;
  const char *name = dyno_value_get_member_name (map, i, &len);

  dyno_codegen_append_quoted_len (out, name, len, style);
}

static const char *
select_to_string (DynoSelect select)
{
  switch (select)
    {
    case DYNO_SELECT_ALL_ATTRIBUTES:
      return "ALL_ATTRIBUTES";
    case DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES:
      return "ALL_PROJECTED_ATTRIBUTES";
    case DYNO_SELECT_SPECIFIC_ATTRIBUTES:
      return "SPECIFIC_ATTRIBUTES";
    case DYNO_SELECT_COUNT:
      return "COUNT";
    case DYNO_SELECT_UNSET:
    default:
      return NULL;
    }
}

static const char *
consumed_to_string (DynoReturnConsumedCapacity consumed)
{
  switch (consumed)
    {
    case DYNO_CONSUMED_NONE:
      return "NONE";
    case DYNO_CONSUMED_TOTAL:
      return "TOTAL";
    case DYNO_CONSUMED_INDEXES:
      return "INDEXES";
    case DYNO_CONSUMED_UNSET:
    default:
      return NULL;
    }
}

static const char *
return_values_to_string (DynoReturnValues values)
{
  switch (values)
    {
    case DYNO_RETURN_VALUES_NONE:
      return "NONE";
    case DYNO_RETURN_VALUES_ALL_OLD:
      return "ALL_OLD";
    case DYNO_RETURN_VALUES_UPDATED_OLD:
      return "UPDATED_OLD";
    case DYNO_RETURN_VALUES_ALL_NEW:
      return "ALL_NEW";
    case DYNO_RETURN_VALUES_UPDATED_NEW:
      return "UPDATED_NEW";
    case DYNO_RETURN_VALUES_UNSET:
    default:
      return NULL;
    }
}

static void
add_string (GArray     *members,
            const char *name,
            const char *value)
{
  DynoCodegenOldMember m = { name, DYNO_CODEGEN_MEMBER_STRING, value, 0, FALSE, NULL };

  if (value != NULL)
    g_array_append_val (members, m);
}

static void
add_enum (GArray     *members,
          const char *name,
          const char *value)
{
  DynoCodegenOldMember m = { name, DYNO_CODEGEN_MEMBER_ENUM, value, 0, FALSE, NULL };

  if (value != NULL)
    g_array_append_val (members, m);
}

static void
add_item (GArray         *members,
          const char     *name,
          const DynoItem *item)
{
  DynoCodegenOldMember m = { name, DYNO_CODEGEN_MEMBER_ITEM, NULL, 0, FALSE, NULL };

  if (item == NULL)
    return;
  m.map = dyno_item_get_map (item);
  g_array_append_val (members, m);
}

static void
add_integer (GArray     *members,
             const char *name,
             gint64      value)
{
  DynoCodegenOldMember m = { name, DYNO_CODEGEN_MEMBER_INTEGER, NULL, value, FALSE, NULL };

  g_array_append_val (members, m);
}

static void
add_boolean (GArray       *members,
             const char   *name,
             DynoTristate  value)
{
  DynoCodegenOldMember m = { name, DYNO_CODEGEN_MEMBER_BOOLEAN, NULL, 0, value == DYNO_TRISTATE_TRUE,
                          NULL };

  if (value != DYNO_TRISTATE_UNSET)
    g_array_append_val (members, m);
}

GArray *
dyno_codegen_collect_old_members (const DynoRequest        *request,
                              const DynoPrintedRequest *printed)
{
  GArray *members;
  DynoOperation op;
  gboolean paged;

  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (printed != NULL, NULL);

  members = g_array_new (FALSE, TRUE, sizeof (DynoCodegenOldMember));
  op = request->operation;
  paged = dyno_codegen_operation_is_paged (op);

  add_string (members, "TableName", request->table_name);
  if (paged)
    add_string (members, "IndexName", request->index_name);
  if (op == DYNO_OP_PUT_ITEM)
    add_item (members, "Item", request->item);
  else if (!paged)
    add_item (members, "Key", request->key);

  if (op == DYNO_OP_QUERY)
    add_string (members, "KeyConditionExpression", printed->key_condition);
  if (op == DYNO_OP_UPDATE_ITEM)
    add_string (members, "UpdateExpression", printed->update);
  if (op == DYNO_OP_PUT_ITEM || op == DYNO_OP_UPDATE_ITEM || op == DYNO_OP_DELETE_ITEM)
    add_string (members, "ConditionExpression", printed->condition);
  if (paged)
    add_string (members, "FilterExpression", printed->filter);
  if (paged || op == DYNO_OP_GET_ITEM)
    add_string (members, "ProjectionExpression", printed->projection);

  if (printed->name_placeholders != NULL && printed->name_placeholders->len > 0)
    {
      DynoCodegenOldMember m = { "ExpressionAttributeNames", DYNO_CODEGEN_MEMBER_NAMES,
                              NULL, 0, FALSE, NULL };
      g_array_append_val (members, m);
    }
  if (printed->value_placeholders != NULL && printed->value_placeholders->len > 0)
    {
      DynoCodegenOldMember m = { "ExpressionAttributeValues", DYNO_CODEGEN_MEMBER_VALUES,
                              NULL, 0, FALSE, NULL };
      g_array_append_val (members, m);
    }

  if (op == DYNO_OP_QUERY)
    add_boolean (members, "ScanIndexForward", request->scan_index_forward);
  if (paged || op == DYNO_OP_GET_ITEM)
    add_boolean (members, "ConsistentRead", request->consistent_read);
  if (paged && request->limit > 0)
    add_integer (members, "Limit", request->limit);
  if (paged)
    add_enum (members, "Select", select_to_string (request->select));
  if (paged)
    add_item (members, "ExclusiveStartKey", request->exclusive_start_key);
  if (op == DYNO_OP_SCAN && request->segment >= 0)
    add_integer (members, "Segment", request->segment);
  if (op == DYNO_OP_SCAN && request->total_segments >= 0)
    add_integer (members, "TotalSegments", request->total_segments);
  if (op == DYNO_OP_PUT_ITEM || op == DYNO_OP_UPDATE_ITEM || op == DYNO_OP_DELETE_ITEM)
    add_enum (members, "ReturnValues", return_values_to_string (request->return_values));
  add_enum (members, "ReturnConsumedCapacity",
            consumed_to_string (request->return_consumed_capacity));

  return members;
}

