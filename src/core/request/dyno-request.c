/* dyno-request.c: the builder's state as a DynamoDB request
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-request.h"
#include "dyno-request-private.h"

#include <string.h>

/* ---- enums <-> strings ------------------------------------------------------------------ */

static const char * const operation_names[] = {
  [DYNO_OP_QUERY] = "Query",
  [DYNO_OP_SCAN] = "Scan",
  [DYNO_OP_GET_ITEM] = "GetItem",
  [DYNO_OP_PUT_ITEM] = "PutItem",
  [DYNO_OP_UPDATE_ITEM] = "UpdateItem",
  [DYNO_OP_DELETE_ITEM] = "DeleteItem",
};

static const char * const select_names[] = {
  [DYNO_SELECT_UNSET] = NULL,
  [DYNO_SELECT_ALL_ATTRIBUTES] = "ALL_ATTRIBUTES",
  [DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES] = "ALL_PROJECTED_ATTRIBUTES",
  [DYNO_SELECT_SPECIFIC_ATTRIBUTES] = "SPECIFIC_ATTRIBUTES",
  [DYNO_SELECT_COUNT] = "COUNT",
};

static const char * const consumed_names[] = {
  [DYNO_CONSUMED_UNSET] = NULL,
  [DYNO_CONSUMED_NONE] = "NONE",
  [DYNO_CONSUMED_TOTAL] = "TOTAL",
  [DYNO_CONSUMED_INDEXES] = "INDEXES",
};

static const char * const return_values_names[] = {
  [DYNO_RETURN_VALUES_UNSET] = NULL,
  [DYNO_RETURN_VALUES_NONE] = "NONE",
  [DYNO_RETURN_VALUES_ALL_OLD] = "ALL_OLD",
  [DYNO_RETURN_VALUES_UPDATED_OLD] = "UPDATED_OLD",
  [DYNO_RETURN_VALUES_ALL_NEW] = "ALL_NEW",
  [DYNO_RETURN_VALUES_UPDATED_NEW] = "UPDATED_NEW",
};

gboolean
_dyno_lookup_name (const char * const *names,
                   guint               n_names,
                   const char         *text,
                   int                *out)
{
  if (text == NULL)
    return FALSE;

  for (guint i = 0; i < n_names; i++)
    {
      if (names[i] != NULL && strcmp (names[i], text) == 0)
        {
          *out = (int) i;
          return TRUE;
        }
    }

  return FALSE;
}

static const char * const *
request_enum_names (DynoRequestEnum  which,
                    guint            n_values,
                    guint           *n_names)
{
  const char * const *names;

  switch (which)
    {
    case DYNO_REQUEST_ENUM_SELECT:
      names = select_names;
      *n_names = G_N_ELEMENTS (select_names);
      break;
    case DYNO_REQUEST_ENUM_RETURN_CONSUMED_CAPACITY:
      names = consumed_names;
      *n_names = G_N_ELEMENTS (consumed_names);
      break;
    case DYNO_REQUEST_ENUM_RETURN_VALUES:
      names = return_values_names;
      *n_names = G_N_ELEMENTS (return_values_names);
      break;
    default:
      g_return_val_if_reached (NULL);
    }

  if (n_values > 0)
    *n_names = MIN (*n_names, n_values);
  return names;
}

gboolean
dyno_request_enum_from_string (DynoRequestEnum  which,
                               const char      *text,
                               guint            n_values,
                               int             *out)
{
  guint n_names = 0;
  const char * const *names = request_enum_names (which, n_values, &n_names);

  g_return_val_if_fail (out != NULL, FALSE);

  return names != NULL && _dyno_lookup_name (names, n_names, text, out);
}

char *
dyno_request_enum_list (DynoRequestEnum which,
                        guint           n_values)
{
  guint n_names = 0;
  const char * const *names = request_enum_names (which, n_values, &n_names);
  GString *list = g_string_new (NULL);

  for (guint i = 0; names != NULL && i < n_names; i++)
    {
      if (names[i] == NULL)
        continue;
      if (list->len > 0)
        g_string_append (list, ", ");
      g_string_append (list, names[i]);
    }

  return g_string_free (list, FALSE);
}

G_DEFINE_ENUM_TYPE (DynoOperation, dyno_operation,
                    G_DEFINE_ENUM_VALUE (DYNO_OP_QUERY, "query"),
                    G_DEFINE_ENUM_VALUE (DYNO_OP_SCAN, "scan"),
                    G_DEFINE_ENUM_VALUE (DYNO_OP_GET_ITEM, "get-item"),
                    G_DEFINE_ENUM_VALUE (DYNO_OP_PUT_ITEM, "put-item"),
                    G_DEFINE_ENUM_VALUE (DYNO_OP_UPDATE_ITEM, "update-item"),
                    G_DEFINE_ENUM_VALUE (DYNO_OP_DELETE_ITEM, "delete-item"))

G_DEFINE_ENUM_TYPE (DynoTristate, dyno_tristate,
                    G_DEFINE_ENUM_VALUE (DYNO_TRISTATE_UNSET, "unset"),
                    G_DEFINE_ENUM_VALUE (DYNO_TRISTATE_FALSE, "false"),
                    G_DEFINE_ENUM_VALUE (DYNO_TRISTATE_TRUE, "true"))

G_DEFINE_ENUM_TYPE (DynoSelect, dyno_select,
                    G_DEFINE_ENUM_VALUE (DYNO_SELECT_UNSET, "unset"),
                    G_DEFINE_ENUM_VALUE (DYNO_SELECT_ALL_ATTRIBUTES, "all-attributes"),
                    G_DEFINE_ENUM_VALUE (DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES,
                                         "all-projected-attributes"),
                    G_DEFINE_ENUM_VALUE (DYNO_SELECT_SPECIFIC_ATTRIBUTES, "specific-attributes"),
                    G_DEFINE_ENUM_VALUE (DYNO_SELECT_COUNT, "count"))

G_DEFINE_ENUM_TYPE (DynoReturnConsumedCapacity, dyno_return_consumed_capacity,
                    G_DEFINE_ENUM_VALUE (DYNO_CONSUMED_UNSET, "unset"),
                    G_DEFINE_ENUM_VALUE (DYNO_CONSUMED_NONE, "none"),
                    G_DEFINE_ENUM_VALUE (DYNO_CONSUMED_TOTAL, "total"),
                    G_DEFINE_ENUM_VALUE (DYNO_CONSUMED_INDEXES, "indexes"))

const char *
dyno_operation_to_string (DynoOperation op)
{
  g_return_val_if_fail (op <= DYNO_OP_DELETE_ITEM, NULL);

  return operation_names[op];
}

gboolean
dyno_operation_from_string (const char    *text,
                            DynoOperation *out_op)
{
  int i;

  g_return_val_if_fail (out_op != NULL, FALSE);

  if (!_dyno_lookup_name (operation_names, G_N_ELEMENTS (operation_names), text, &i))
    return FALSE;

  *out_op = (DynoOperation) i;
  return TRUE;
}

const char *
dyno_select_to_string (DynoSelect select)
{
  g_return_val_if_fail (select <= DYNO_SELECT_COUNT, NULL);

  return select_names[select];
}

gboolean
dyno_select_from_string (const char *text,
                         DynoSelect *out)
{
  int i;

  g_return_val_if_fail (out != NULL, FALSE);

  if (!_dyno_lookup_name (select_names, G_N_ELEMENTS (select_names), text, &i))
    return FALSE;

  *out = (DynoSelect) i;
  return TRUE;
}

const char *
dyno_consumed_capacity_to_string (DynoReturnConsumedCapacity rcc)
{
  g_return_val_if_fail (rcc <= DYNO_CONSUMED_INDEXES, NULL);

  return consumed_names[rcc];
}

gboolean
dyno_consumed_capacity_from_string (const char                 *text,
                                    DynoReturnConsumedCapacity *out)
{
  int i;

  g_return_val_if_fail (out != NULL, FALSE);

  if (!_dyno_lookup_name (consumed_names, G_N_ELEMENTS (consumed_names), text, &i))
    return FALSE;

  *out = (DynoReturnConsumedCapacity) i;
  return TRUE;
}

const char *
dyno_return_values_to_string (DynoReturnValues rv)
{
  g_return_val_if_fail (rv <= DYNO_RETURN_VALUES_UPDATED_NEW, NULL);

  return return_values_names[rv];
}

gboolean
dyno_return_values_from_string (const char       *text,
                                DynoReturnValues *out)
{
  int i;

  g_return_val_if_fail (out != NULL, FALSE);

  if (!_dyno_lookup_name (return_values_names, G_N_ELEMENTS (return_values_names), text, &i))
    return FALSE;

  *out = (DynoReturnValues) i;
  return TRUE;
}

/* ---- which members each operation takes ------------------------------------------------- */

guint
dyno_request_members_for_operation (DynoOperation op)
{
  const guint expression_maps = DYNO_MEMBER_EXPRESSION_ATTRIBUTE_NAMES |
                                DYNO_MEMBER_EXPRESSION_ATTRIBUTE_VALUES;

  switch (op)
    {
    case DYNO_OP_QUERY:
      return DYNO_MEMBER_TABLE_NAME | DYNO_MEMBER_INDEX_NAME |
             DYNO_MEMBER_KEY_CONDITION_EXPRESSION | DYNO_MEMBER_FILTER_EXPRESSION |
             DYNO_MEMBER_PROJECTION_EXPRESSION | expression_maps |
             DYNO_MEMBER_EXCLUSIVE_START_KEY | DYNO_MEMBER_LIMIT |
             DYNO_MEMBER_SCAN_INDEX_FORWARD | DYNO_MEMBER_CONSISTENT_READ | DYNO_MEMBER_SELECT |
             DYNO_MEMBER_RETURN_CONSUMED_CAPACITY;
    case DYNO_OP_SCAN:
      return DYNO_MEMBER_TABLE_NAME | DYNO_MEMBER_INDEX_NAME |
             DYNO_MEMBER_FILTER_EXPRESSION | DYNO_MEMBER_PROJECTION_EXPRESSION |
             expression_maps | DYNO_MEMBER_EXCLUSIVE_START_KEY | DYNO_MEMBER_LIMIT |
             DYNO_MEMBER_CONSISTENT_READ | DYNO_MEMBER_SELECT |
             DYNO_MEMBER_RETURN_CONSUMED_CAPACITY | DYNO_MEMBER_SEGMENT |
             DYNO_MEMBER_TOTAL_SEGMENTS;
    case DYNO_OP_GET_ITEM:
      /* GetItem has no ExpressionAttributeValues: a projection takes no values. */
      return DYNO_MEMBER_TABLE_NAME | DYNO_MEMBER_KEY | DYNO_MEMBER_PROJECTION_EXPRESSION |
             DYNO_MEMBER_EXPRESSION_ATTRIBUTE_NAMES | DYNO_MEMBER_CONSISTENT_READ |
             DYNO_MEMBER_RETURN_CONSUMED_CAPACITY;
    case DYNO_OP_PUT_ITEM:
      return DYNO_MEMBER_TABLE_NAME | DYNO_MEMBER_ITEM | DYNO_MEMBER_CONDITION_EXPRESSION |
             expression_maps | DYNO_MEMBER_RETURN_CONSUMED_CAPACITY |
             DYNO_MEMBER_RETURN_VALUES;
    case DYNO_OP_UPDATE_ITEM:
      return DYNO_MEMBER_TABLE_NAME | DYNO_MEMBER_KEY | DYNO_MEMBER_UPDATE_EXPRESSION |
             DYNO_MEMBER_CONDITION_EXPRESSION | expression_maps |
             DYNO_MEMBER_RETURN_CONSUMED_CAPACITY | DYNO_MEMBER_RETURN_VALUES;
    case DYNO_OP_DELETE_ITEM:
      return DYNO_MEMBER_TABLE_NAME | DYNO_MEMBER_KEY | DYNO_MEMBER_CONDITION_EXPRESSION |
             expression_maps | DYNO_MEMBER_RETURN_CONSUMED_CAPACITY |
             DYNO_MEMBER_RETURN_VALUES;
    default:
      g_assert_not_reached ();
    }
}

/* ---- life cycle ------------------------------------------------------------------------- */

DynoRequest *
dyno_request_new (DynoOperation  op,
                  const char    *table_name)
{
  DynoRequest *request;

  g_return_val_if_fail (op <= DYNO_OP_DELETE_ITEM, NULL);

  request = g_new0 (DynoRequest, 1);
  request->operation = op;
  request->table_name = g_strdup (table_name);
  request->scan_index_forward = DYNO_TRISTATE_UNSET;
  request->consistent_read = DYNO_TRISTATE_UNSET;
  request->select = DYNO_SELECT_UNSET;
  request->return_consumed_capacity = DYNO_CONSUMED_UNSET;
  request->return_values = DYNO_RETURN_VALUES_UNSET;
  request->segment = -1;
  request->total_segments = -1;

  return request;
}

static GPtrArray *
copy_projection (GPtrArray *projection)
{
  GPtrArray *copy = dyno_projection_new ();

  for (guint i = 0; i < projection->len; i++)
    g_ptr_array_add (copy, dyno_path_copy (g_ptr_array_index (projection, i)));

  return copy;
}

DynoRequest *
dyno_request_copy (const DynoRequest *request)
{
  DynoRequest *copy;

  g_return_val_if_fail (request != NULL, NULL);

  copy = g_new0 (DynoRequest, 1);
  *copy = *request;
  copy->table_name = g_strdup (request->table_name);
  copy->index_name = g_strdup (request->index_name);
  copy->key_condition = request->key_condition ? dyno_expr_copy (request->key_condition) : NULL;
  copy->filter = request->filter ? dyno_expr_copy (request->filter) : NULL;
  copy->projection = request->projection ? copy_projection (request->projection) : NULL;
  copy->condition = request->condition ? dyno_expr_copy (request->condition) : NULL;
  copy->update = request->update ? dyno_update_copy (request->update) : NULL;
  /* Items are immutable, so sharing them is a copy. */
  copy->key = request->key ? dyno_item_ref (request->key) : NULL;
  copy->item = request->item ? dyno_item_ref (request->item) : NULL;
  copy->exclusive_start_key = request->exclusive_start_key
                                ? dyno_item_ref (request->exclusive_start_key) : NULL;

  return copy;
}

void
dyno_request_free (DynoRequest *request)
{
  if (request == NULL)
    return;

  g_free (request->table_name);
  g_free (request->index_name);
  g_clear_pointer (&request->key_condition, dyno_expr_free);
  g_clear_pointer (&request->filter, dyno_expr_free);
  g_clear_pointer (&request->projection, g_ptr_array_unref);
  g_clear_pointer (&request->condition, dyno_expr_free);
  g_clear_pointer (&request->update, dyno_update_free);
  g_clear_pointer (&request->key, dyno_item_unref);
  g_clear_pointer (&request->item, dyno_item_unref);
  g_clear_pointer (&request->exclusive_start_key, dyno_item_unref);
  g_free (request);
}

/* ---- equality --------------------------------------------------------------------------- */

static gboolean
expr_equal0 (const DynoExpr *a,
             const DynoExpr *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return dyno_expr_equal (a, b);
}

static gboolean
item_equal0 (const DynoItem *a,
             const DynoItem *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return dyno_item_equal (a, b);
}

static gboolean
projection_equal0 (GPtrArray *a,
                   GPtrArray *b)
{
  /* An empty projection is not emitted, so it means the same as none. */
  guint len_a = a ? a->len : 0;
  guint len_b = b ? b->len : 0;

  if (len_a != len_b)
    return FALSE;

  for (guint i = 0; i < len_a; i++)
    {
      if (!dyno_path_equal (g_ptr_array_index (a, i), g_ptr_array_index (b, i)))
        return FALSE;
    }

  return TRUE;
}

static gboolean
update_equal0 (const DynoUpdate *a,
               const DynoUpdate *b)
{
  guint len_a = a ? a->clauses->len : 0;
  guint len_b = b ? b->clauses->len : 0;

  if (len_a != len_b)
    return FALSE;

  for (guint i = 0; i < len_a; i++)
    {
      const DynoUpdateClause *ca = g_ptr_array_index (a->clauses, i);
      const DynoUpdateClause *cb = g_ptr_array_index (b->clauses, i);

      if (ca->action != cb->action ||
          !dyno_path_equal (ca->path, cb->path) ||
          !expr_equal0 (ca->operand, cb->operand))
        return FALSE;
    }

  return TRUE;
}

gboolean
dyno_request_equal (const DynoRequest *a,
                    const DynoRequest *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  return a->operation == b->operation &&
         g_strcmp0 (a->table_name, b->table_name) == 0 &&
         g_strcmp0 (a->index_name, b->index_name) == 0 &&
         expr_equal0 (a->key_condition, b->key_condition) &&
         expr_equal0 (a->filter, b->filter) &&
         projection_equal0 (a->projection, b->projection) &&
         expr_equal0 (a->condition, b->condition) &&
         update_equal0 (a->update, b->update) &&
         item_equal0 (a->key, b->key) &&
         item_equal0 (a->item, b->item) &&
         item_equal0 (a->exclusive_start_key, b->exclusive_start_key) &&
         a->limit == b->limit &&
         a->scan_index_forward == b->scan_index_forward &&
         a->consistent_read == b->consistent_read &&
         a->select == b->select &&
         a->return_consumed_capacity == b->return_consumed_capacity &&
         a->return_values == b->return_values &&
         a->segment == b->segment &&
         a->total_segments == b->total_segments;
}

/* ---- printing --------------------------------------------------------------------------- */

DynoPrintedRequest *
dyno_request_print_internal (const DynoRequest *request,
                             gboolean           alias_all)
{
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  DynoPrintedRequest *printed;
  guint members = dyno_request_members_for_operation (request->operation);
  guint n;

  dyno_expr_printer_set_alias_all (printer, alias_all);

  printed = g_new0 (DynoPrintedRequest, 1);

  /* The order of the request JSON, so that the maps list placeholders in the order a person
   * meets them reading the request top to bottom, and the key condition (the heart of a
   * Query) gets the plainest placeholders (#pk, :pk). */
  if ((members & DYNO_MEMBER_KEY_CONDITION_EXPRESSION) && request->key_condition != NULL)
    printed->key_condition = dyno_expr_printer_print_condition (printer, request->key_condition);
  if ((members & DYNO_MEMBER_UPDATE_EXPRESSION) &&
      request->update != NULL && request->update->clauses->len > 0)
    printed->update = dyno_expr_printer_print_update (printer, request->update);
  if ((members & DYNO_MEMBER_CONDITION_EXPRESSION) && request->condition != NULL)
    printed->condition = dyno_expr_printer_print_condition (printer, request->condition);
  if ((members & DYNO_MEMBER_FILTER_EXPRESSION) && request->filter != NULL)
    printed->filter = dyno_expr_printer_print_condition (printer, request->filter);
  if ((members & DYNO_MEMBER_PROJECTION_EXPRESSION) &&
      request->projection != NULL && request->projection->len > 0)
    printed->projection = dyno_expr_printer_print_projection (printer, request->projection);

  printed->name_placeholders = g_ptr_array_new_with_free_func (g_free);
  printed->names = g_ptr_array_new_with_free_func (g_free);
  printed->value_placeholders = g_ptr_array_new_with_free_func (g_free);
  printed->values = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_value_free);

  n = dyno_expr_printer_get_n_names (printer);
  for (guint i = 0; i < n; i++)
    {
      const char *placeholder = NULL;
      const char *name = NULL;

      dyno_expr_printer_get_name (printer, i, &placeholder, &name);
      g_ptr_array_add (printed->name_placeholders, g_strdup (placeholder));
      g_ptr_array_add (printed->names, g_strdup (name));
    }

  n = dyno_expr_printer_get_n_values (printer);
  for (guint i = 0; i < n; i++)
    {
      const char *placeholder = NULL;
      const DynoValue *value = NULL;

      dyno_expr_printer_get_value (printer, i, &placeholder, &value);
      g_ptr_array_add (printed->value_placeholders, g_strdup (placeholder));
      g_ptr_array_add (printed->values, dyno_value_copy (value));
    }

  return printed;
}

DynoPrintedRequest *
dyno_request_print (const DynoRequest *request)
{
  g_return_val_if_fail (request != NULL, NULL);

  return dyno_request_print_internal (request, FALSE);
}

void
dyno_printed_request_free (DynoPrintedRequest *printed)
{
  if (printed == NULL)
    return;

  g_free (printed->key_condition);
  g_free (printed->filter);
  g_free (printed->projection);
  g_free (printed->condition);
  g_free (printed->update);
  g_clear_pointer (&printed->name_placeholders, g_ptr_array_unref);
  g_clear_pointer (&printed->names, g_ptr_array_unref);
  g_clear_pointer (&printed->value_placeholders, g_ptr_array_unref);
  g_clear_pointer (&printed->values, g_ptr_array_unref);
  g_free (printed);
}
