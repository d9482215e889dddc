/* dyno-codegen-walk.c: the one walk over a request and its values that every target's table
 * of emitters is called from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-private.h"

#include <string.h>

/* ---- maps ------------------------------------------------------------------------------ */

DynoCodegenPairs
dyno_codegen_pairs_of_map (const DynoValue *map)
{
  return (DynoCodegenPairs) { DYNO_CODEGEN_PAIRS_MEMBERS, map, NULL };
}

guint
dyno_codegen_pairs_get_n (const DynoCodegenPairs *pairs)
{
  switch (pairs->kind)
    {
    case DYNO_CODEGEN_PAIRS_MEMBERS:
      return dyno_value_get_n_children (pairs->map);
    case DYNO_CODEGEN_PAIRS_NAMES:
      return pairs->printed->name_placeholders->len;
    case DYNO_CODEGEN_PAIRS_VALUES:
      return pairs->printed->value_placeholders->len;
    default:
      g_assert_not_reached ();
    }
  return 0;
}

const char *
dyno_codegen_pairs_get_key (const DynoCodegenPairs *pairs,
                            guint                   i,
                            gsize                  *len)
{
  const char *key;

  switch (pairs->kind)
    {
    case DYNO_CODEGEN_PAIRS_MEMBERS:
      return dyno_value_get_member_name (pairs->map, i, len);
    case DYNO_CODEGEN_PAIRS_NAMES:
      key = g_ptr_array_index (pairs->printed->name_placeholders, i);
      break;
    case DYNO_CODEGEN_PAIRS_VALUES:
      key = g_ptr_array_index (pairs->printed->value_placeholders, i);
      break;
    default:
      g_assert_not_reached ();
    }
  if (len != NULL)
    *len = strlen (key);
  return key;
}

const DynoValue *
dyno_codegen_pairs_get_value (const DynoCodegenPairs *pairs,
                              guint                   i)
{
  switch (pairs->kind)
    {
    case DYNO_CODEGEN_PAIRS_MEMBERS:
      return dyno_value_get_child (pairs->map, i);
    case DYNO_CODEGEN_PAIRS_VALUES:
      return g_ptr_array_index (pairs->printed->values, i);
    case DYNO_CODEGEN_PAIRS_NAMES:
    default:
      return NULL;
    }
}

const char *
dyno_codegen_pairs_get_name (const DynoCodegenPairs *pairs,
                             guint                   i)
{
  g_return_val_if_fail (pairs->kind == DYNO_CODEGEN_PAIRS_NAMES, NULL);

  return g_ptr_array_index (pairs->printed->names, i);
}

void
dyno_codegen_write_pair_key (DynoCodegenWriter      *w,
                             const DynoCodegenPairs *pairs,
                             guint                   i)
{
  gsize len;
  const char *key = dyno_codegen_pairs_get_key (pairs, i, &len);

  w->lang->value.text (w, key, len);
}

void
dyno_codegen_write_pair_value (DynoCodegenWriter      *w,
                               const DynoCodegenPairs *pairs,
                               guint                   i,
                               guint                   indent)
{
  const DynoValue *value = dyno_codegen_pairs_get_value (pairs, i);

  if (value != NULL)
    {
      dyno_codegen_write_value (w, value, indent);
    }
  else
    {
      const char *name = dyno_codegen_pairs_get_name (pairs, i);

      w->lang->value.text (w, name, strlen (name));
    }
}

void
dyno_codegen_write_map_lines (DynoCodegenWriter         *w,
                              const DynoCodegenMapLines *style,
                              const DynoCodegenPairs    *pairs,
                              guint                      indent)
{
  guint n = dyno_codegen_pairs_get_n (pairs);

  g_string_append (w->out, style->head);
  if (n == 0)
    {
      g_string_append (w->out, style->empty);
      return;
    }
  if (style->open_own_line)
    {
      g_string_append_c (w->out, '\n');
      dyno_codegen_append_indent (w->out, indent);
    }
  g_string_append (w->out, style->open);
  for (guint i = 0; i < n; i++)
    {
      dyno_codegen_append_indent (w->out, indent + style->step);
      g_string_append (w->out, style->key_open);
      dyno_codegen_write_pair_key (w, pairs, i);
      g_string_append (w->out, style->arrow);
      dyno_codegen_write_pair_value (w, pairs, i, indent + style->step);
      g_string_append (w->out, ",\n");
    }
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_c (w->out, style->close);
}

/* ---- the request's members ------------------------------------------------------------- */

typedef enum {
  M_TABLE_NAME,
  M_INDEX_NAME,
  M_KEY,
  M_ITEM,
  M_KEY_CONDITION,
  M_UPDATE,
  M_CONDITION,
  M_FILTER,
  M_PROJECTION,
  M_NAMES,
  M_VALUES,
  M_EXCLUSIVE_START_KEY,
  M_LIMIT,
  M_SCAN_INDEX_FORWARD,
  M_CONSISTENT_READ,
  M_SELECT,
  M_RETURN_CONSUMED_CAPACITY,
  M_RETURN_VALUES,
  M_SEGMENT,
  M_TOTAL_SEGMENTS,
  M_N_MEMBERS
} MemberId;

static const MemberId api_order[] = {
  M_TABLE_NAME, M_INDEX_NAME, M_ITEM, M_KEY, M_KEY_CONDITION, M_UPDATE, M_CONDITION, M_FILTER,
  M_PROJECTION, M_NAMES, M_VALUES, M_SCAN_INDEX_FORWARD, M_CONSISTENT_READ, M_LIMIT, M_SELECT,
  M_EXCLUSIVE_START_KEY, M_SEGMENT, M_TOTAL_SEGMENTS, M_RETURN_VALUES,
  M_RETURN_CONSUMED_CAPACITY,
};

static const MemberId request_json_order[] = {
  M_TABLE_NAME, M_INDEX_NAME, M_KEY, M_ITEM, M_KEY_CONDITION, M_UPDATE, M_CONDITION, M_FILTER,
  M_PROJECTION, M_NAMES, M_VALUES, M_EXCLUSIVE_START_KEY, M_LIMIT, M_SCAN_INDEX_FORWARD,
  M_CONSISTENT_READ, M_SELECT, M_RETURN_CONSUMED_CAPACITY, M_RETURN_VALUES, M_SEGMENT,
  M_TOTAL_SEGMENTS,
};

G_STATIC_ASSERT (G_N_ELEMENTS (api_order) == M_N_MEMBERS);
G_STATIC_ASSERT (G_N_ELEMENTS (request_json_order) == M_N_MEMBERS);

static void
add_string (GArray     *members,
            const char *name,
            const char *text)
{
  DynoCodegenMember m = { name, DYNO_CODEGEN_MEMBER_STRING, .string = text };

  if (text != NULL)
    g_array_append_val (members, m);
}

static void
add_item (GArray         *members,
          const char     *name,
          const DynoItem *item)
{
  DynoCodegenMember m = { name, DYNO_CODEGEN_MEMBER_ITEM };

  if (item == NULL)
    return;
  m.pairs = dyno_codegen_pairs_of_map (dyno_item_get_map (item));
  g_array_append_val (members, m);
}

static void
add_map (GArray                   *members,
         const char               *name,
         DynoCodegenMemberKind     kind,
         const DynoPrintedRequest *printed,
         GPtrArray                *placeholders)
{
  DynoCodegenMember m = { name, kind };

  if (placeholders == NULL || placeholders->len == 0)
    return;
  m.pairs = (DynoCodegenPairs) { kind == DYNO_CODEGEN_MEMBER_NAMES ? DYNO_CODEGEN_PAIRS_NAMES
                                                                   : DYNO_CODEGEN_PAIRS_VALUES,
                                 NULL, printed };
  g_array_append_val (members, m);
}

static void
add_integer (GArray     *members,
             const char *name,
             gboolean    set,
             gint64      value)
{
  DynoCodegenMember m = { name, DYNO_CODEGEN_MEMBER_INTEGER, .integer = value };

  if (set)
    g_array_append_val (members, m);
}

static void
add_boolean (GArray       *members,
             const char   *name,
             DynoTristate  value)
{
  DynoCodegenMember m = { name, DYNO_CODEGEN_MEMBER_BOOLEAN,
                          .boolean = value == DYNO_TRISTATE_TRUE };

  if (value != DYNO_TRISTATE_UNSET)
    g_array_append_val (members, m);
}

static void
add_enum (GArray     *members,
          const char *name,
          const char *enum_type,
          gboolean    set,
          const char *text)
{
  DynoCodegenMember m = { name, DYNO_CODEGEN_MEMBER_ENUM, .string = text,
                          .enum_type = enum_type };

  if (set && text != NULL)
    g_array_append_val (members, m);
}

static void
add_member (GArray                   *members,
            MemberId                  id,
            const DynoRequest        *r,
            const DynoPrintedRequest *printed)
{
  DynoOperation op = r->operation;
  gboolean paged = dyno_codegen_operation_is_paged (op);
  gboolean write = op == DYNO_OP_PUT_ITEM || op == DYNO_OP_UPDATE_ITEM ||
                   op == DYNO_OP_DELETE_ITEM;
  gboolean keyed = op == DYNO_OP_GET_ITEM || op == DYNO_OP_UPDATE_ITEM ||
                   op == DYNO_OP_DELETE_ITEM;

  /* The printed expressions are there only when the operation takes them. */
  switch (id)
    {
    case M_TABLE_NAME:
      add_string (members, "TableName", r->table_name);
      break;
    case M_INDEX_NAME:
      if (paged && r->index_name != NULL && r->index_name[0] != '\0')
        add_string (members, "IndexName", r->index_name);
      break;
    case M_KEY:
      if (keyed)
        add_item (members, "Key", r->key);
      break;
    case M_ITEM:
      if (op == DYNO_OP_PUT_ITEM)
        add_item (members, "Item", r->item);
      break;
    case M_KEY_CONDITION:
      add_string (members, "KeyConditionExpression", printed->key_condition);
      break;
    case M_UPDATE:
      add_string (members, "UpdateExpression", printed->update);
      break;
    case M_CONDITION:
      add_string (members, "ConditionExpression", printed->condition);
      break;
    case M_FILTER:
      add_string (members, "FilterExpression", printed->filter);
      break;
    case M_PROJECTION:
      add_string (members, "ProjectionExpression", printed->projection);
      break;
    case M_NAMES:
      add_map (members, "ExpressionAttributeNames", DYNO_CODEGEN_MEMBER_NAMES, printed,
               printed->name_placeholders);
      break;
    case M_VALUES:
      add_map (members, "ExpressionAttributeValues", DYNO_CODEGEN_MEMBER_VALUES, printed,
               printed->value_placeholders);
      break;
    case M_EXCLUSIVE_START_KEY:
      if (paged)
        add_item (members, "ExclusiveStartKey", r->exclusive_start_key);
      break;
    case M_LIMIT:
      add_integer (members, "Limit", paged && r->limit > 0, r->limit);
      break;
    case M_SCAN_INDEX_FORWARD:
      if (op == DYNO_OP_QUERY)
        add_boolean (members, "ScanIndexForward", r->scan_index_forward);
      break;
    case M_CONSISTENT_READ:
      if (paged || op == DYNO_OP_GET_ITEM)
        add_boolean (members, "ConsistentRead", r->consistent_read);
      break;
    case M_SELECT:
      add_enum (members, "Select", "Select", paged && r->select != DYNO_SELECT_UNSET,
                dyno_select_to_string (r->select));
      break;
    case M_RETURN_CONSUMED_CAPACITY:
      add_enum (members, "ReturnConsumedCapacity", "ReturnConsumedCapacity",
                r->return_consumed_capacity != DYNO_CONSUMED_UNSET,
                dyno_consumed_capacity_to_string (r->return_consumed_capacity));
      break;
    case M_RETURN_VALUES:
      add_enum (members, "ReturnValues", "ReturnValue",
                write && r->return_values != DYNO_RETURN_VALUES_UNSET,
                dyno_return_values_to_string (r->return_values));
      break;
    case M_SEGMENT:
      add_integer (members, "Segment", op == DYNO_OP_SCAN && r->segment >= 0, r->segment);
      break;
    case M_TOTAL_SEGMENTS:
      add_integer (members, "TotalSegments", op == DYNO_OP_SCAN && r->total_segments >= 0,
                   r->total_segments);
      break;
    case M_N_MEMBERS:
    default:
      g_assert_not_reached ();
    }
}

GArray *
dyno_codegen_collect_members (const DynoRequest        *request,
                              const DynoPrintedRequest *printed,
                              DynoCodegenOrder          order)
{
  const MemberId *ids = order == DYNO_CODEGEN_ORDER_API ? api_order : request_json_order;
  GArray *members;

  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (printed != NULL, NULL);

  members = g_array_new (FALSE, TRUE, sizeof (DynoCodegenMember));
  for (guint i = 0; i < M_N_MEMBERS; i++)
    add_member (members, ids[i], request, printed);
  return members;
}

/* ---- values ---------------------------------------------------------------------------- */

static void
write_scalar (DynoCodegenWriter *w,
              const DynoValue   *value,
              DynoValueType      type)
{
  const DynoCodegenValueStyle *style = &w->lang->value;
  gsize len;

  switch (type)
    {
    case DYNO_VALUE_S:
      {
        const char *text = dyno_value_get_string (value, &len);

        style->text (w, text, len);
      }
      break;
    case DYNO_VALUE_N:
      {
        const char *text = dyno_value_get_string (value, &len);

        if (style->number != NULL)
          style->number (w, text);
        else
          style->text (w, text, len);
      }
      break;
    case DYNO_VALUE_B:
      {
        const guint8 *data = dyno_value_get_binary (value, &len);

        style->bytes (w, data, len);
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

void
dyno_codegen_write_set_members (DynoCodegenWriter *w,
                                const DynoValue   *set)
{
  DynoValueType type = dyno_value_get_kind (set);
  DynoValueType member_type = type == DYNO_VALUE_SS ? DYNO_VALUE_S
                              : type == DYNO_VALUE_NS ? DYNO_VALUE_N : DYNO_VALUE_B;

  for (guint i = 0; i < dyno_value_get_n_children (set) && w->error == NULL; i++)
    {
      if (i > 0)
        g_string_append (w->out, ", ");
      write_scalar (w, dyno_value_get_child (set, i), member_type);
    }
}

void
dyno_codegen_write_value (DynoCodegenWriter *w,
                          const DynoValue   *value,
                          guint              indent)
{
  const DynoCodegenValueStyle *style = &w->lang->value;
  DynoValueType type = dyno_value_get_kind (value);

  if (w->error != NULL)
    return;
  if (style->open[type] != NULL)
    g_string_append (w->out, style->open[type]);
  switch (type)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
    case DYNO_VALUE_B:
      write_scalar (w, value, type);
      break;
    case DYNO_VALUE_BOOL:
      g_string_append (w->out, dyno_value_get_bool (value) ? style->true_word
                                                           : style->false_word);
      break;
    case DYNO_VALUE_NULL:
      g_string_append (w->out, style->null_word);
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      if (style->set != NULL)
        style->set (w, value, indent);
      else
        dyno_codegen_write_set_members (w, value);
      break;
    case DYNO_VALUE_M:
      style->map (w, value, indent);
      break;
    case DYNO_VALUE_L:
      style->list (w, value, indent);
      break;
    default:
      g_assert_not_reached ();
    }
  if (style->close[type] != NULL)
    g_string_append (w->out, style->close[type]);
}

void
dyno_codegen_write_list_lines (DynoCodegenWriter *w,
                               const DynoValue   *list,
                               guint              indent)
{
  for (guint i = 0; i < dyno_value_get_n_children (list); i++)
    {
      dyno_codegen_append_indent (w->out, indent);
      dyno_codegen_write_value (w, dyno_value_get_child (list, i), indent);
      g_string_append (w->out, ",\n");
    }
}

void
dyno_codegen_write_list_inline (DynoCodegenWriter *w,
                                const DynoValue   *list)
{
  for (guint i = 0; i < dyno_value_get_n_children (list); i++)
    {
      if (i > 0)
        g_string_append (w->out, ", ");
      dyno_codegen_write_value (w, dyno_value_get_child (list, i), 0);
    }
}

/* ---- members --------------------------------------------------------------------------- */

void
dyno_codegen_write_member_value (DynoCodegenWriter       *w,
                                 const DynoCodegenMember *m,
                                 guint                    indent)
{
  const DynoCodegenMemberStyle *style = &w->lang->member;

  switch (m->kind)
    {
    case DYNO_CODEGEN_MEMBER_ENUM:
      if (style->enumeration != NULL)
        {
          style->enumeration (w, m);
          break;
        }
      G_GNUC_FALLTHROUGH;
    case DYNO_CODEGEN_MEMBER_STRING:
      if (style->string != NULL)
        style->string (w, m->string);
      else
        w->lang->value.text (w, m->string, strlen (m->string));
      break;
    case DYNO_CODEGEN_MEMBER_INTEGER:
      if (style->integer != NULL)
        style->integer (w, m);
      else
        g_string_append_printf (w->out, "%" G_GINT64_FORMAT, m->integer);
      break;
    case DYNO_CODEGEN_MEMBER_BOOLEAN:
      if (style->boolean != NULL)
        style->boolean (w, m);
      else
        g_string_append (w->out, m->boolean ? w->lang->value.true_word
                                            : w->lang->value.false_word);
      break;
    case DYNO_CODEGEN_MEMBER_ITEM:
    case DYNO_CODEGEN_MEMBER_NAMES:
    case DYNO_CODEGEN_MEMBER_VALUES:
      style->map (w, m, indent);
      break;
    default:
      g_assert_not_reached ();
    }
}

void
dyno_codegen_write_members (DynoCodegenWriter *w,
                            guint              indent)
{
  const DynoCodegenMemberStyle *style = &w->lang->member;
  g_autoptr(GArray) members = dyno_codegen_collect_members (w->request, w->printed,
                                                            w->lang->order);

  for (guint i = 0; i < members->len; i++)
    {
      const DynoCodegenMember *m = &g_array_index (members, DynoCodegenMember, i);
      gboolean is_map = m->kind == DYNO_CODEGEN_MEMBER_ITEM ||
                        m->kind == DYNO_CODEGEN_MEMBER_NAMES ||
                        m->kind == DYNO_CODEGEN_MEMBER_VALUES;

      if (style->write != NULL && style->write (w, m, indent))
        continue;
      if (is_map && style->map_lines)
        {
          style->map (w, m, indent);
          continue;
        }
      if (style->begin != NULL)
        {
          style->begin (w, m, indent);
        }
      else
        {
          dyno_codegen_append_indent (w->out, indent);
          g_string_append_printf (w->out, style->name_format, m->name);
        }
      dyno_codegen_write_member_value (w, m, indent);
      g_string_append (w->out, style->end);
    }
}

/* ---- the document ---------------------------------------------------------------------- */

void
dyno_codegen_write_ending (DynoCodegenWriter *w)
{
  DynoOperation op = w->request->operation;

  if (dyno_codegen_operation_is_paged (op))
    w->lang->loop (w, w->request->select == DYNO_SELECT_COUNT);
  else
    w->lang->call (w);
}

void
dyno_codegen_write_comment (DynoCodegenWriter *w,
                            const char        *text)
{
  g_string_append_printf (w->out, "%s%s\n", w->lang->comment, text);
}

GString *
dyno_codegen_write_aside (DynoCodegenWriter *w,
                          void             (*func) (DynoCodegenWriter *w,
                                                    gpointer           data),
                          gpointer           data)
{
  GString *saved = w->out;
  GString *aside = g_string_new (NULL);

  w->out = aside;
  func (w, data);
  w->out = saved;
  return aside;
}

char *
dyno_codegen_walk (const DynoCodegenLang    *lang,
                   const DynoRequest        *request,
                   const DynoPrintedRequest *printed,
                   const DynoCodegenOptions *options,
                   GError                  **error)
{
  DynoCodegenWriter w = { g_string_new (NULL), lang, request, printed, options, NULL, 0, NULL };

  g_return_val_if_fail (lang != NULL, NULL);
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (printed != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (options->program && lang->program != NULL)
    lang->program (&w);
  else
    lang->snippet (&w);
  if (w.error != NULL)
    {
      g_propagate_error (error, w.error);
      g_string_free (w.out, TRUE);
      return NULL;
    }
  return g_string_free (w.out, FALSE);
}
