/* dyno-cli-request.c: the request options that expr, the run commands and export share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include "dyno-cli-request.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-cli-io.h"
#include "dyno-http-error.h"
#include "dyno-json.h"

void
dyno_cli_add_option (GArray     *entries,
                     const char *long_name,
                     GOptionArg  arg,
                     gpointer    data,
                     const char *description,
                     const char *arg_description)
{
  GOptionEntry entry = { long_name, 0, 0, arg, data, description, arg_description };

  g_array_append_val (entries, entry);
}

void
dyno_cli_report (const char *prefix,
                 const char *context,
                 const char *message)
{
  g_autofree char *where = context != NULL ? g_strdup_printf ("%s: %s", prefix, context)
                                           : g_strdup (prefix);

  dyno_cli_print_error (where, message);
}

void
dyno_cli_report_service_error (const char   *prefix,
                               const GError *error)
{
  const DynoServiceError *info = dyno_error_get_service_info (error);

  if (info != NULL && info->request_id != NULL)
    {
      /* Translators: the error message, then DynamoDB's request ID. */
      g_autofree char *message = g_strdup_printf (_("%s (request ID %s)"), error->message,
                                                  info->request_id);
      dyno_cli_report (prefix, NULL, message);
    }
  else
    dyno_cli_report (prefix, NULL, error->message);
}

void
dyno_cli_request_options_clear (DynoCliRequestOptions *o)
{
  g_free (o->key);
  g_free (o->index);
  g_free (o->filter);
  g_free (o->project);
  g_free (o->condition);
  g_free (o->update);
  g_free (o->key_item);
  g_free (o->item);
  g_free (o->start_key);
  g_free (o->values);
  g_free (o->select);
  g_free (o->return_consumed_capacity);
  g_free (o->return_values);
}

void
dyno_cli_add_request_options (GArray                *entries,
                              DynoOperation          op,
                              DynoCliRequestOptions *o)
{
  gboolean reads = op == DYNO_OP_QUERY || op == DYNO_OP_SCAN;
  gboolean writes = op == DYNO_OP_PUT_ITEM || op == DYNO_OP_UPDATE_ITEM ||
                    op == DYNO_OP_DELETE_ITEM;

  if (op == DYNO_OP_QUERY)
    dyno_cli_add_option (entries, "key", G_OPTION_ARG_STRING, &o->key,
                         _("Key condition (required), inline syntax"), "COND");
  if (reads)
    {
      dyno_cli_add_option (entries, "index", G_OPTION_ARG_STRING, &o->index,
                           _("Query or scan this index"), "NAME");
      dyno_cli_add_option (entries, "filter", G_OPTION_ARG_STRING, &o->filter,
                           _("Filter expression, inline syntax"), "COND");
    }
  if (reads || op == DYNO_OP_GET_ITEM)
    dyno_cli_add_option (entries, "project", G_OPTION_ARG_STRING, &o->project,
                         _("Attributes to return: comma-separated paths"), "PATHS");
  if (op == DYNO_OP_QUERY)
    dyno_cli_add_option (entries, "desc", G_OPTION_ARG_NONE, &o->desc,
                         _("Descending sort-key order (ScanIndexForward=false)"), NULL);
  if (reads)
    {
      dyno_cli_add_option (entries, "limit", G_OPTION_ARG_INT, &o->limit,
                           _("Items to evaluate per page"), "N");
      dyno_cli_add_option (entries, "start-key", G_OPTION_ARG_STRING, &o->start_key,
                           _("ExclusiveStartKey (DynamoDB JSON)"), "JSON");
      dyno_cli_add_option (entries, "select", G_OPTION_ARG_STRING, &o->select,
                           _("ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, SPECIFIC_ATTRIBUTES or "
                             "COUNT"),
                           "WHAT");
    }
  if (reads || op == DYNO_OP_GET_ITEM)
    dyno_cli_add_option (entries, "consistent", G_OPTION_ARG_NONE, &o->consistent,
                         _("Strongly consistent read"), NULL);
  if (op == DYNO_OP_GET_ITEM || op == DYNO_OP_UPDATE_ITEM || op == DYNO_OP_DELETE_ITEM)
    dyno_cli_add_option (entries, "key-item", G_OPTION_ARG_STRING, &o->key_item,
                         _("The item's primary key (required), DynamoDB JSON"), "JSON");
  if (op == DYNO_OP_PUT_ITEM)
    dyno_cli_add_option (entries, "item", G_OPTION_ARG_STRING, &o->item,
                         _("The item (required), DynamoDB JSON"), "JSON");
  if (op == DYNO_OP_UPDATE_ITEM)
    dyno_cli_add_option (entries, "update", G_OPTION_ARG_STRING, &o->update,
                         _("Update expression, inline syntax ('SET a = 1 REMOVE b')"), "UPDATE");
  if (writes)
    {
      dyno_cli_add_option (entries, "condition", G_OPTION_ARG_STRING, &o->condition,
                           _("Condition expression, inline syntax"), "COND");
      dyno_cli_add_option (entries, "return-values", G_OPTION_ARG_STRING, &o->return_values,
                           _("NONE, ALL_OLD, UPDATED_OLD, ALL_NEW or UPDATED_NEW"), "WHAT");
    }
  dyno_cli_add_option (entries, "values", G_OPTION_ARG_STRING, &o->values,
                       _("Values for :placeholders in the expressions: "
                         "{\":v\": {\"B\": \"AQ==\"}, …}"), "JSON");
  dyno_cli_add_option (entries, "return-consumed-capacity", G_OPTION_ARG_STRING,
                       &o->return_consumed_capacity, _("NONE, TOTAL or INDEXES"), "WHAT");
}

gboolean
dyno_cli_parse_values_option (const char *prefix,
                              const char *text,
                              GHashTable *values)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) members = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;

  root = dyno_json_parse (text, -1, &error);
  if (root == NULL)
    {
      dyno_cli_report (prefix, "--values", error->message);
      return FALSE;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      dyno_cli_report (prefix, "--values",
                       _("must be a JSON object of \":name\": DynamoDB JSON value, e.g. "
                         "{\":photo\": {\"B\": \"iVBORw0K\"}}"));
      return FALSE;
    }

  object = json_node_get_object (root);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      DynoValue *value;

      if (!dyno_request_is_placeholder (name, ':'))
        {
          g_autofree char *message =
            g_strdup_printf (_("\"%s\" is not a value placeholder: use ':' followed by letters, "
                               "digits or '_'"), name);
          dyno_cli_report (prefix, "--values", message);
          return FALSE;
        }

      value = dyno_value_from_json_node (json_object_get_member (object, name), &error);
      if (value == NULL)
        {
          g_autofree char *message = g_strdup_printf ("%s: %s", name, error->message);
          dyno_cli_report (prefix, "--values", message);
          return FALSE;
        }

      g_hash_table_insert (values, g_strdup (name), value);
    }

  return TRUE;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

gboolean
dyno_cli_check_values_used (const char *prefix,
                            GHashTable *values,
                            GHashTable *used)
{
  g_autoptr(GPtrArray) unused = g_ptr_array_new ();
  g_autofree char *message = NULL;
  g_autofree char *list = NULL;
  GHashTableIter iter;
  gpointer name;

  if (values == NULL)
    return TRUE;

  g_hash_table_iter_init (&iter, values);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    {
      if (!g_hash_table_contains (used, name))
        g_ptr_array_add (unused, name);
    }
  if (unused->len == 0)
    return TRUE;

  g_ptr_array_sort (unused, compare_strings);
  g_ptr_array_add (unused, NULL);
  list = g_strjoinv (", ", (char **) unused->pdata);
  message = g_strdup_printf (_("not used in any expression: %s"), list);
  dyno_cli_report (prefix, "--values", message);
  return FALSE;
}

gboolean
dyno_cli_parse_condition_option (const char    *prefix,
                                 const char    *option,
                                 const char    *text,
                                 DynoExprRole   role,
                                 GHashTable    *values,
                                 GHashTable    *used,
                                 DynoExpr     **out)
{
  g_autoptr(GError) error = NULL;
  DynoParseLocation location = { 0, };

  *out = dyno_expr_parse_condition (text, DYNO_SYNTAX_INLINE, role, NULL, values, used,
                                    &location, &error);
  if (*out == NULL)
    {
      dyno_cli_report (prefix, option, error->message);
      dyno_cli_print_location (stderr, text, &location);
      return FALSE;
    }

  return TRUE;
}

gboolean
dyno_cli_parse_update_option (const char  *prefix,
                              const char  *text,
                              GHashTable  *values,
                              GHashTable  *used,
                              DynoUpdate **out)
{
  g_autoptr(GError) error = NULL;
  DynoParseLocation location = { 0, };

  *out = dyno_expr_parse_update (text, DYNO_SYNTAX_INLINE, NULL, values, used, &location,
                                 &error);
  if (*out == NULL)
    {
      dyno_cli_report (prefix, "--update", error->message);
      dyno_cli_print_location (stderr, text, &location);
      return FALSE;
    }

  return TRUE;
}

gboolean
dyno_cli_parse_projection_option (const char  *prefix,
                                  const char  *text,
                                  GHashTable  *used,
                                  GPtrArray  **out)
{
  g_autoptr(GError) error = NULL;
  DynoParseLocation location = { 0, };

  *out = dyno_expr_parse_projection (text, DYNO_SYNTAX_INLINE, NULL, used, &location, &error);
  if (*out == NULL)
    {
      dyno_cli_report (prefix, "--project", error->message);
      dyno_cli_print_location (stderr, text, &location);
      return FALSE;
    }

  return TRUE;
}

GHashTable *
dyno_cli_schema_hints (DynoTableInfo *schema)
{
  GHashTable *hints = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const DynoKeyAttr *keys[2];

  if (schema == NULL)
    return hints;

  keys[0] = dyno_table_info_get_partition_key (schema);
  keys[1] = dyno_table_info_get_sort_key (schema);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      if (keys[i] != NULL && keys[i]->name != NULL)
        g_hash_table_insert (hints, g_strdup (keys[i]->name), GINT_TO_POINTER (keys[i]->type));
    }

  for (guint i = 0; i < dyno_table_info_get_n_indexes (schema); i++)
    {
      const DynoIndexInfo *index = dyno_table_info_get_index (schema, i);

      if (index->partition_key.name != NULL)
        g_hash_table_insert (hints, g_strdup (index->partition_key.name),
                             GINT_TO_POINTER (index->partition_key.type));
      if (index->sort_key.name != NULL)
        g_hash_table_insert (hints, g_strdup (index->sort_key.name),
                             GINT_TO_POINTER (index->sort_key.type));
    }

  return hints;
}

DynoItem *
dyno_cli_parse_item_text (const char     *text,
                          gssize          len,
                          gboolean        plain,
                          DynoTableInfo  *schema,
                          GError        **error)
{
  if (plain)
    {
      g_autoptr(GHashTable) hints = dyno_cli_schema_hints (schema);

      return dyno_item_from_plain_json (text, len, hints, error);
    }

  return dyno_item_from_ddb_json (text, len, error);
}

gboolean
dyno_cli_parse_item_option (const char     *prefix,
                            const char     *option,
                            const char     *text,
                            gboolean        plain,
                            DynoTableInfo  *schema,
                            DynoItem      **out)
{
  g_autoptr(GError) error = NULL;

  *out = dyno_cli_parse_item_text (text, -1, plain, schema, &error);
  if (*out == NULL)
    {
      dyno_cli_report (prefix, option, error->message);
      return FALSE;
    }

  return TRUE;
}

gboolean
dyno_cli_parse_limit_option (const char *prefix,
                             gint        limit,
                             gint64     *out)
{
  if (limit == G_MININT)
    return TRUE;

  if (limit < 1)
    {
      dyno_cli_report (prefix, "--limit", _("must be at least 1"));
      return FALSE;
    }

  *out = limit;
  return TRUE;
}

/* --select and the like: the API's spelling in any case, with '-' for '_' (people type
 * "count" or "all-old"); @text NULL leaves @out alone. */
static gboolean
parse_enum_option (const char      *prefix,
                   const char      *option,
                   const char      *text,
                   DynoRequestEnum  which,
                   int             *out)
{
  g_autofree char *upper = NULL;
  g_autofree char *message = NULL;
  g_autofree char *list = NULL;

  if (text == NULL)
    return TRUE;

  upper = g_ascii_strup (text, -1);
  g_strdelimit (upper, "-", '_');
  if (dyno_request_enum_from_string (which, upper, 0, out))
    return TRUE;

  list = dyno_request_enum_list (which, 0);
  /* Translators: the value given, then the list of allowed values. */
  message = g_strdup_printf (_("\"%s\" is not one of %s"), text, list);
  dyno_cli_report (prefix, option, message);
  return FALSE;
}

gboolean
dyno_cli_parse_select_option (const char *prefix,
                              const char *text,
                              DynoSelect *out)
{
  int choice = DYNO_SELECT_UNSET;

  if (!parse_enum_option (prefix, "--select", text, DYNO_REQUEST_ENUM_SELECT, &choice))
    return FALSE;

  *out = choice;
  return TRUE;
}

gboolean
dyno_cli_parse_consumed_option (const char                 *prefix,
                                const char                 *text,
                                DynoReturnConsumedCapacity *out)
{
  int choice = DYNO_CONSUMED_UNSET;

  if (!parse_enum_option (prefix, "--return-consumed-capacity", text,
                          DYNO_REQUEST_ENUM_RETURN_CONSUMED_CAPACITY, &choice))
    return FALSE;

  *out = choice;
  return TRUE;
}

gboolean
dyno_cli_parse_return_values_option (const char       *prefix,
                                     const char       *text,
                                     DynoReturnValues *out)
{
  int choice = DYNO_RETURN_VALUES_UNSET;

  if (!parse_enum_option (prefix, "--return-values", text, DYNO_REQUEST_ENUM_RETURN_VALUES,
                          &choice))
    return FALSE;

  *out = choice;
  return TRUE;
}

/* ---- GetItem, PutItem, UpdateItem, DeleteItem --------------------------------------------- */

gboolean
dyno_cli_item_request_options (DynoRequest                 *request,
                               const char                  *prefix,
                               const DynoCliRequestOptions *o,
                               GHashTable                  *values,
                               GHashTable                  *used)
{
  if (o->update != NULL &&
      !dyno_cli_parse_update_option (prefix, o->update, values, used, &request->update))
    return FALSE;

  if (o->condition != NULL &&
      !dyno_cli_parse_condition_option (prefix, "--condition", o->condition,
                                        DYNO_EXPR_ROLE_CONDITION, values, used,
                                        &request->condition))
    return FALSE;

  if (o->project != NULL &&
      !dyno_cli_parse_projection_option (prefix, o->project, used, &request->projection))
    return FALSE;

  if (!dyno_cli_check_values_used (prefix, values, used))
    return FALSE;

  if (o->consistent)
    request->consistent_read = DYNO_TRISTATE_TRUE;

  return dyno_cli_parse_consumed_option (prefix, o->return_consumed_capacity,
                                         &request->return_consumed_capacity) &&
         dyno_cli_parse_return_values_option (prefix, o->return_values,
                                              &request->return_values);
}

/* ---- Query and Scan ------------------------------------------------------------------------ */

DynoCliReadOptions
dyno_cli_request_options_read (const DynoCliRequestOptions *o)
{
  return (DynoCliReadOptions) {
    .key = o->key, .filter = o->filter, .project = o->project, .limit = o->limit,
    .desc = o->desc, .consistent = o->consistent, .select = o->select,
    .consumed = o->return_consumed_capacity,
  };
}

DynoQueryDraft *
dyno_cli_read_draft_new (DynoOperation  op,
                         const char    *table,
                         const char    *index)
{
  DynoQueryDraft *draft = dyno_query_draft_new ();

  dyno_query_draft_set_operation (draft, op);
  dyno_query_draft_set_table_name (draft, table);
  dyno_query_draft_set_index_name (draft, index);

  return draft;
}

gboolean
dyno_cli_read_draft_expressions (DynoQueryDraft           *draft,
                                 const char               *prefix,
                                 const DynoCliReadOptions *o,
                                 GHashTable               *values,
                                 GHashTable               *used)
{
  if (o->key != NULL)
    {
      g_autoptr(DynoExpr) key = NULL;

      if (!dyno_cli_parse_condition_option (prefix, "--key", o->key,
                                            DYNO_EXPR_ROLE_KEY_CONDITION, values, used, &key))
        return FALSE;
      dyno_query_draft_set_key_condition (draft, key);
    }

  if (o->filter != NULL)
    {
      g_autoptr(DynoExpr) filter = NULL;

      if (!dyno_cli_parse_condition_option (prefix, "--filter", o->filter,
                                            DYNO_EXPR_ROLE_FILTER, values, used, &filter))
        return FALSE;
      dyno_query_draft_set_filter (draft, filter);
    }

  if (o->project != NULL)
    {
      g_autoptr(GPtrArray) paths = NULL;

      if (!dyno_cli_parse_projection_option (prefix, o->project, used, &paths))
        return FALSE;
      dyno_query_draft_set_projection (draft, paths);
    }

  return TRUE;
}

gboolean
dyno_cli_read_draft_options (DynoQueryDraft           *draft,
                             const char               *prefix,
                             const DynoCliReadOptions *o)
{
  gint64 limit = 0;
  DynoSelect select = DYNO_SELECT_UNSET;
  DynoReturnConsumedCapacity consumed = DYNO_CONSUMED_UNSET;

  if (!dyno_cli_parse_limit_option (prefix, o->limit, &limit))
    return FALSE;
  dyno_query_draft_set_limit (draft, limit);
  if (o->desc)
    dyno_query_draft_set_scan_index_forward (draft, DYNO_TRISTATE_FALSE);
  if (o->consistent)
    dyno_query_draft_set_consistent_read (draft, DYNO_TRISTATE_TRUE);

  if (!dyno_cli_parse_select_option (prefix, o->select, &select)
      || !dyno_cli_parse_consumed_option (prefix, o->consumed, &consumed))
    return FALSE;
  dyno_query_draft_set_select (draft, select);
  dyno_query_draft_set_return_consumed_capacity (draft, consumed);

  return TRUE;
}
