/* dyno-codegen-partiql.c: the request as a PartiQL statement, where PartiQL can say it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-error.h"

static gboolean G_GNUC_PRINTF (2, 3)
unsupported (GError    **error,
             const char *format,
             ...)
{
  va_list args;
  g_autofree char *reason = NULL;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_UNSUPPORTED, _("Not expressible in PartiQL: %s."),
               reason);
  return FALSE;
}

/* @text between @quote characters, a @quote inside doubled: "name", 'text' */
static void
append_quoted_doubling (GString    *out,
                        const char *text,
                        char        quote)
{
  g_string_append_c (out, quote);
  for (const char *p = text; *p; p++)
    {
      if (*p == quote)
        g_string_append_c (out, quote);
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, quote);
}

static void
append_identifier (GString    *out,
                   const char *name)
{
  append_quoted_doubling (out, name, '"');
}

static void
append_string (GString    *out,
               const char *text)
{
  append_quoted_doubling (out, text, '\'');
}

/* A path's names are C strings in which a U+0000 is held as C0 80 (dyno-json.h): PartiQL has
 * no way to write it, so such a path is refused rather than written as other bytes. */
static gboolean
append_path (GString         *out,
             const DynoPath  *path,
             GError         **error)
{
  for (guint i = 0; i < path->elements->len; i++)
    {
      const DynoPathElement *e = &g_array_index (path->elements, DynoPathElement, i);

      if (e->name != NULL)
        {
          if (strstr (e->name, "\xc0\x80") != NULL)
            return unsupported (error, _("a name holding U+0000 has no PartiQL literal form"));
          if (i > 0)
            g_string_append_c (out, '.');
          append_identifier (out, e->name);
        }
      else
        g_string_append_printf (out, "[%u]", e->index);
    }
  return TRUE;
}

/* ---- values: the literals PartiQL has, and errors for those it has not ------------------ */

static void
partiql_text (DynoCodegenWriter *w,
              const char        *text,
              gsize              len)
{
  /* A PartiQL string literal has no escape for it. */
  if (memchr (text, '\0', len) != NULL)
    {
      unsupported (&w->error, _("a string holding U+0000 has no PartiQL literal form"));
      return;
    }
  append_string (w->out, text);
}

static void
partiql_number (DynoCodegenWriter *w,
                const char        *number)
{
  g_string_append (w->out, number);
}

static void
partiql_bytes (DynoCodegenWriter *w,
               const guint8      *data,
               gsize              len)
{
  unsupported (&w->error, _("binary values have no literal form (only a ? parameter, "
                            "which a statement on its own cannot carry)"));
}

static void
partiql_map (DynoCodegenWriter *w,
             const DynoValue   *map,
             guint              indent)
{
  for (guint i = 0; i < dyno_value_get_n_children (map) && w->error == NULL; i++)
    {
      gsize len;
      const char *name = dyno_value_get_member_name (map, i, &len);

      if (i > 0)
        g_string_append (w->out, ", ");
      if (memchr (name, '\0', len) != NULL)
        {
          unsupported (&w->error, _("a name holding U+0000 has no PartiQL literal form"));
          return;
        }
      append_string (w->out, name);
      g_string_append (w->out, ": ");
      dyno_codegen_write_value (w, dyno_value_get_child (map, i), indent);
    }
}

static void
partiql_list (DynoCodegenWriter *w,
              const DynoValue   *list,
              guint              indent)
{
  dyno_codegen_write_list_inline (w, list);
}

static gboolean
append_literal (GString          *out,
                const DynoValue  *value,
                GError          **error)
{
  DynoCodegenWriter w = { out, &dyno_codegen_lang_partiql, NULL, NULL, NULL, NULL, 0, NULL };

  dyno_codegen_write_value (&w, value, 0);
  if (w.error != NULL)
    {
      g_propagate_error (error, w.error);
      return FALSE;
    }
  return TRUE;
}

static gboolean append_expr (GString         *out,
                             const DynoExpr  *expr,
                             gboolean         under_not,
                             GError         **error);

static gboolean
append_arg (GString         *out,
            const DynoExpr  *expr,
            guint            i,
            GError         **error)
{
  return append_expr (out, expr->args->pdata[i], FALSE, error);
}

static gboolean
append_expr (GString         *out,
             const DynoExpr  *expr,
             gboolean         under_not,
             GError         **error)
{
  switch (expr->kind)
    {
    case DYNO_EXPR_PATH:
      return append_path (out, expr->path, error);
    case DYNO_EXPR_VALUE:
      return append_literal (out, expr->value, error);
    case DYNO_EXPR_SIZE:
      g_string_append (out, "size(");
      if (!append_path (out, expr->path, error))
        return FALSE;
      g_string_append_c (out, ')');
      return TRUE;
    case DYNO_EXPR_PLUS:
    case DYNO_EXPR_MINUS:
      if (!append_arg (out, expr, 0, error))
        return FALSE;
      g_string_append (out, expr->kind == DYNO_EXPR_PLUS ? " + " : " - ");
      return append_arg (out, expr, 1, error);
    case DYNO_EXPR_IF_NOT_EXISTS:
      return unsupported (error, _("if_not_exists() has no PartiQL counterpart"));
    case DYNO_EXPR_LIST_APPEND:
      g_string_append (out, "list_append(");
      if (!append_arg (out, expr, 0, error))
        return FALSE;
      g_string_append (out, ", ");
      if (!append_arg (out, expr, 1, error))
        return FALSE;
      g_string_append_c (out, ')');
      return TRUE;
    case DYNO_EXPR_COMPARE:
      if (!append_arg (out, expr, 0, error))
        return FALSE;
      g_string_append_printf (out, " %s ", dyno_compare_op_to_string (expr->op.compare));
      return append_arg (out, expr, 1, error);
    case DYNO_EXPR_BETWEEN:
      if (!append_arg (out, expr, 0, error))
        return FALSE;
      g_string_append (out, " BETWEEN ");
      if (!append_arg (out, expr, 1, error))
        return FALSE;
      g_string_append (out, " AND ");
      return append_arg (out, expr, 2, error);
    case DYNO_EXPR_IN:
      if (!append_arg (out, expr, 0, error))
        return FALSE;
      g_string_append (out, " IN [");
      for (guint i = 1; i < expr->args->len; i++)
        {
          if (i > 1)
            g_string_append (out, ", ");
          if (!append_arg (out, expr, i, error))
            return FALSE;
        }
      g_string_append_c (out, ']');
      return TRUE;
    case DYNO_EXPR_AND:
    case DYNO_EXPR_OR:
      if (!append_arg (out, expr, 0, error))
        return FALSE;
      g_string_append (out, expr->kind == DYNO_EXPR_AND ? " AND " : " OR ");
      return append_arg (out, expr, 1, error);
    case DYNO_EXPR_NOT:
      g_string_append (out, "NOT ");
      return append_expr (out, expr->args->pdata[0], TRUE, error);
    case DYNO_EXPR_PAREN:
      g_string_append_c (out, '(');
      if (!append_arg (out, expr, 0, error))
        return FALSE;
      g_string_append_c (out, ')');
      return TRUE;
    case DYNO_EXPR_FUNCTION:
      switch (expr->op.function)
        {
        case DYNO_FUNCTION_ATTRIBUTE_EXISTS:
        case DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS:
          if (under_not)
            g_string_append_c (out, '(');
          if (!append_arg (out, expr, 0, error))
            return FALSE;
          g_string_append (out, expr->op.function == DYNO_FUNCTION_ATTRIBUTE_EXISTS
                                  ? " IS NOT MISSING" : " IS MISSING");
          if (under_not)
            g_string_append_c (out, ')');
          return TRUE;
        case DYNO_FUNCTION_ATTRIBUTE_TYPE:
        case DYNO_FUNCTION_BEGINS_WITH:
        case DYNO_FUNCTION_CONTAINS:
          g_string_append_printf (out, "%s(", dyno_function_to_string (expr->op.function));
          for (guint i = 0; i < expr->args->len; i++)
            {
              if (i > 0)
                g_string_append (out, ", ");
              if (!append_arg (out, expr, i, error))
                return FALSE;
            }
          g_string_append_c (out, ')');
          return TRUE;
        default:
          break;
        }
      break;
    default:
      break;
    }
  return unsupported (error, _("an expression node of an unknown kind"));
}

/* A condition joined to others by AND keeps its meaning when it is not an OR at the top. */
static gboolean
append_conjunct (GString         *out,
                 const DynoExpr  *expr,
                 GError         **error)
{
  gboolean group = expr->kind == DYNO_EXPR_OR;

  if (group)
    g_string_append_c (out, '(');
  if (!append_expr (out, expr, FALSE, error))
    return FALSE;
  if (group)
    g_string_append_c (out, ')');
  return TRUE;
}

static gboolean
append_key_equalities (GString         *out,
                       const DynoItem  *key,
                       GError         **error)
{
  const DynoValue *map;
  guint n;

  if (key == NULL)
    return unsupported (error, _("the request has no Key"));
  map = dyno_item_get_map (key);
  n = dyno_value_get_n_children (map);
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (out, " AND ");
      gsize len;
      const char *name = dyno_value_get_member_name (map, i, &len);

      if (memchr (name, '\0', len) != NULL)
        return unsupported (error, _("a name holding U+0000 has no PartiQL literal form"));
      append_identifier (out, name);
      g_string_append (out, " = ");
      if (!append_literal (out, dyno_value_get_child (map, i), error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
append_projection (GString            *out,
                   const DynoRequest  *request,
                   GError            **error)
{
  if (request->projection == NULL || request->projection->len == 0)
    {
      g_string_append_c (out, '*');
      return TRUE;
    }
  for (guint i = 0; i < request->projection->len; i++)
    {
      const DynoPath *path = request->projection->pdata[i];

      /* SELECT "a"."b" returns a top-level attribute "b", where ProjectionExpression a.b
       * returns a map a holding b. */
      if (dyno_path_get_length (path) > 1)
        {
          g_autofree char *shown = dyno_path_to_inline (path);

          return unsupported (error, _("projecting the nested path %s returns it as a top-level "
                                       "attribute, not inside its map or list"), shown);
        }
      if (i > 0)
        g_string_append (out, ", ");
      if (!append_path (out, path, error))
        return FALSE;
    }
  return TRUE;
}

/* The sort key of a key condition: the attribute of its part that is not an equality.
 * When both parts are equalities nothing in the request says which is the sort key. */
static const DynoExpr *
skip_parens (const DynoExpr *e)
{
  while (e->kind == DYNO_EXPR_PAREN)
    e = e->args->pdata[0];
  return e;
}

static const DynoPath *
find_sort_key (const DynoExpr *key_condition)
{
  const DynoExpr *e = skip_parens (key_condition);

  if (e->kind != DYNO_EXPR_AND)
    return NULL;
  for (guint i = 0; i < 2; i++)
    {
      const DynoExpr *part = skip_parens (e->args->pdata[i]);

      if (part->kind == DYNO_EXPR_COMPARE && part->op.compare == DYNO_COMPARE_EQ)
        continue;
      for (guint j = 0; part->args != NULL && j < part->args->len; j++)
        {
          const DynoExpr *operand = skip_parens (part->args->pdata[j]);

          if (operand->kind == DYNO_EXPR_PATH)
            return operand->path;
        }
    }
  return NULL;
}

/* @program: the statement runs in a script that passes ExecuteStatement's Limit and
 * ConsistentRead parameters, which a bare statement cannot carry. */
static gboolean
check_read_options (const DynoRequest  *request,
                    gboolean            program,
                    GError            **error)
{
  if (request->limit > 0 && !program)
    return unsupported (error, _("Limit is a parameter of ExecuteStatement, not part of the "
                                 "statement (the program form passes it)"));
  if (request->exclusive_start_key != NULL)
    return unsupported (error, _("ExclusiveStartKey has no PartiQL form (ExecuteStatement "
                                 "continues with its own NextToken)"));
  if (request->consistent_read == DYNO_TRISTATE_TRUE && !program)
    return unsupported (error, _("ConsistentRead is a parameter of ExecuteStatement, not part of "
                                 "the statement (the program form passes it)"));
  if (request->select == DYNO_SELECT_COUNT)
    return unsupported (error, _("Select COUNT has no PartiQL form in DynamoDB"));
  if (request->segment >= 0 || request->total_segments >= 0)
    return unsupported (error, _("a parallel scan (Segment, TotalSegments) has no PartiQL form"));
  return TRUE;
}

static gboolean
emit_select (GString            *out,
             const DynoRequest  *request,
             gboolean            program,
             GError            **error)
{
  gboolean where = FALSE;

  if (!check_read_options (request, program, error))
    return FALSE;

  g_string_append (out, "SELECT ");
  if (!append_projection (out, request, error))
    return FALSE;
  g_string_append (out, " FROM ");
  append_identifier (out, request->table_name);
  if (request->index_name != NULL && request->operation != DYNO_OP_GET_ITEM)
    {
      g_string_append_c (out, '.');
      append_identifier (out, request->index_name);
    }

  if (request->operation == DYNO_OP_GET_ITEM)
    {
      g_string_append (out, " WHERE ");
      return append_key_equalities (out, request->key, error);
    }

  if (request->operation == DYNO_OP_QUERY)
    {
      if (request->key_condition == NULL)
        return unsupported (error, _("the Query has no key condition"));
      g_string_append (out, " WHERE ");
      if (!append_conjunct (out, request->key_condition, error))
        return FALSE;
      where = TRUE;
    }
  if (request->filter != NULL)
    {
      g_string_append (out, where ? " AND " : " WHERE ");
      if (!append_conjunct (out, request->filter, error))
        return FALSE;
    }

  if (request->operation == DYNO_OP_QUERY && request->scan_index_forward == DYNO_TRISTATE_FALSE)
    {
      const DynoPath *sort_key = find_sort_key (request->key_condition);

      if (sort_key == NULL)
        return unsupported (error, _("descending order needs ORDER BY on the sort key, and the "
                                     "key condition does not say which attribute that is"));
      g_string_append (out, " ORDER BY ");
      if (!append_path (out, sort_key, error))
        return FALSE;
      g_string_append (out, " DESC");
    }
  return TRUE;
}

static gboolean
emit_insert (GString            *out,
             const DynoRequest  *request,
             GError            **error)
{
  const DynoExpr *condition = request->condition ? skip_parens (request->condition) : NULL;
  const DynoExpr *path = NULL;

  /* INSERT fails when the item exists, where PutItem replaces it: the two agree only when
   * the put is conditioned on the item not existing (an attribute of the item, which we take
   * to be a key attribute, missing). */
  if (condition != NULL && condition->kind == DYNO_EXPR_FUNCTION &&
      condition->op.function == DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS)
    path = skip_parens (condition->args->pdata[0]);
  if (path == NULL || path->kind != DYNO_EXPR_PATH || dyno_path_get_length (path->path) != 1 ||
      request->item == NULL ||
      dyno_item_lookup (request->item, dyno_path_get_attribute (path->path)) == NULL)
    return unsupported (error, _("PutItem replaces an existing item but INSERT fails when it "
                                 "exists; only a put conditioned on attribute_not_exists(<key "
                                 "attribute>) is an INSERT"));
  if (request->return_values != DYNO_RETURN_VALUES_UNSET &&
      request->return_values != DYNO_RETURN_VALUES_NONE)
    return unsupported (error, _("INSERT returns no attributes"));

  g_string_append (out, "INSERT INTO ");
  append_identifier (out, request->table_name);
  g_string_append (out, " VALUE ");
  return append_literal (out, dyno_item_get_map (request->item), error);
}

static gboolean
append_returning (GString            *out,
                  const DynoRequest  *request,
                  GError            **error)
{
  switch (request->return_values)
    {
    case DYNO_RETURN_VALUES_UNSET:
    case DYNO_RETURN_VALUES_NONE:
      return TRUE;
    case DYNO_RETURN_VALUES_ALL_OLD:
      g_string_append (out, " RETURNING ALL OLD *");
      return TRUE;
    case DYNO_RETURN_VALUES_UPDATED_OLD:
      if (request->operation != DYNO_OP_UPDATE_ITEM)
        break;
      g_string_append (out, " RETURNING MODIFIED OLD *");
      return TRUE;
    case DYNO_RETURN_VALUES_ALL_NEW:
      if (request->operation != DYNO_OP_UPDATE_ITEM)
        break;
      g_string_append (out, " RETURNING ALL NEW *");
      return TRUE;
    case DYNO_RETURN_VALUES_UPDATED_NEW:
      if (request->operation != DYNO_OP_UPDATE_ITEM)
        break;
      g_string_append (out, " RETURNING MODIFIED NEW *");
      return TRUE;
    default:
      break;
    }
  return unsupported (error, _("this ReturnValues has no RETURNING form for DELETE"));
}

/* UPDATE's and DELETE's end: the key's equalities, the condition, what they return. */
static gboolean
append_where_key (GString            *out,
                  const DynoRequest  *request,
                  GError            **error)
{
  g_string_append (out, " WHERE ");
  if (!append_key_equalities (out, request->key, error))
    return FALSE;
  if (request->condition != NULL)
    {
      g_string_append (out, " AND ");
      if (!append_conjunct (out, request->condition, error))
        return FALSE;
    }
  return append_returning (out, request, error);
}

/* TRUE when @condition requires, as one of its top-level AND terms, that a key attribute
 * exists: the item exists. */
static gboolean
requires_existing_item (const DynoExpr *condition,
                        const DynoItem *key)
{
  const DynoExpr *e;

  if (condition == NULL || key == NULL)
    return FALSE;
  e = skip_parens (condition);
  if (e->kind == DYNO_EXPR_AND)
    return requires_existing_item (e->args->pdata[0], key) ||
           requires_existing_item (e->args->pdata[1], key);
  if (e->kind == DYNO_EXPR_FUNCTION && e->op.function == DYNO_FUNCTION_ATTRIBUTE_EXISTS)
    {
      const DynoExpr *path = skip_parens (e->args->pdata[0]);

      return path->kind == DYNO_EXPR_PATH && dyno_path_get_length (path->path) == 1 &&
             dyno_item_lookup (key, dyno_path_get_attribute (path->path)) != NULL;
    }
  return FALSE;
}

static gboolean
emit_update (GString            *out,
             const DynoRequest  *request,
             GError            **error)
{
  if (request->update == NULL || request->update->clauses->len == 0)
    return unsupported (error, _("the UpdateItem has no update expression"));
  /* Checked against DynamoDB Local: UPDATE of a missing item fails with
   * ConditionalCheckFailedException. */
  if (!requires_existing_item (request->condition, request->key))
    return unsupported (error, _("UpdateItem creates a missing item but UPDATE fails on it; only "
                                 "an update conditioned on attribute_exists(<key attribute>) is "
                                 "an UPDATE"));

  g_string_append (out, "UPDATE ");
  append_identifier (out, request->table_name);
  for (guint i = 0; i < request->update->clauses->len; i++)
    {
      const DynoUpdateClause *clause = request->update->clauses->pdata[i];

      switch (clause->action)
        {
        case DYNO_UPDATE_SET:
          g_string_append (out, " SET ");
          if (!append_path (out, clause->path, error))
            return FALSE;
          g_string_append (out, " = ");
          if (!append_expr (out, clause->operand, FALSE, error))
            return FALSE;
          break;
        case DYNO_UPDATE_REMOVE:
          g_string_append (out, " REMOVE ");
          if (!append_path (out, clause->path, error))
            return FALSE;
          break;
        case DYNO_UPDATE_ADD:
          return unsupported (error, _("ADD (which starts a missing number at 0 and a missing "
                                       "set empty) has no exact PartiQL form"));
        case DYNO_UPDATE_DELETE:
          return unsupported (error, _("DELETE from a set has no exact PartiQL form"));
        default:
          g_assert_not_reached ();
        }
    }
  return append_where_key (out, request, error);
}

static gboolean
emit_delete (GString            *out,
             const DynoRequest  *request,
             GError            **error)
{
  g_string_append (out, "DELETE FROM ");
  append_identifier (out, request->table_name);
  return append_where_key (out, request, error);
}

static void
append_option (GString    *out,
               const char *option,
               const char *value)
{
  g_string_append_printf (out, " \\\n    %s", option);
  if (value != NULL)
    {
      g_string_append_c (out, ' ');
      dyno_codegen_append_quoted (out, value, DYNO_QUOTE_SHELL);
    }
}

/* A bash script that runs the statement with the AWS CLI and follows NextToken; the CLI's
 * --query prints the items and, last, the next token or "null" (no jq needed). */
static void
emit_program (DynoCodegenWriter *w,
              const char        *statement)
{
  const DynoRequest *request = w->request;
  const DynoCodegenOptions *options = w->options;
  GString *out = w->out;
  g_autofree char *what = dyno_codegen_describe (request);

  g_string_append (out, "#!/usr/bin/env bash\n");

  g_string_append_printf (out,
                          "# %s as PartiQL, generated by DynoTable.\n"
                          "# Prints every item the statement returns as one line of DynamoDB "
                          "JSON, page by page:\n"
                          "# each call returns its items and NextToken, which continues.\n"
                          "set -euo pipefail\n"
                          "\n"
                          "statement=", what);
  dyno_codegen_append_quoted (out, statement, DYNO_QUOTE_SHELL);
  g_string_append (out, "\nnext_token=\nwhile :; do\n  page=$(aws dynamodb execute-statement");
  append_option (out, "--statement \"$statement\"", NULL);
  if (request->limit > 0)
    g_string_append_printf (out, " \\\n    --limit %" G_GINT64_FORMAT, request->limit);
  if (request->consistent_read == DYNO_TRISTATE_TRUE)
    append_option (out, "--consistent-read", NULL);
  if (options->endpoint_url != NULL)
    append_option (out, "--endpoint-url", options->endpoint_url);
  if (options->region != NULL)
    append_option (out, "--region", options->region);
  if (options->profile != NULL)
    append_option (out, "--profile", options->profile);
  append_option (out, "${next_token:+--next-token \"$next_token\"}", NULL);
  append_option (out, "--output text", NULL);
  append_option (out, "--query 'join(`\"\\n\"`, [Items[].to_string(@), [to_string(NextToken)]][])')",
                 NULL);
  g_string_append (out,
                   "\n"
                   "  mapfile -t lines <<< \"$page\"\n"
                   "  count=${#lines[@]}\n"
                   "  if (( count > 1 )); then\n"
                   "    printf '%s\\n' \"${lines[@]:0:count-1}\"\n"
                   "  fi\n"
                   "  next_token=${lines[count-1]}\n"
                   "  if [[ $next_token == null ]]; then\n"
                   "    break\n"
                   "  fi\n"
                   "done\n");
}

/* ReturnConsumedCapacity is left out: it changes what the response reports, not what the
 * statement does, and ExecuteStatement takes it as a parameter. */
static void
partiql_statement (DynoCodegenWriter *w)
{
  const DynoRequest *request = w->request;

  switch (request->operation)
    {
    case DYNO_OP_QUERY:
    case DYNO_OP_SCAN:
    case DYNO_OP_GET_ITEM:
      emit_select (w->out, request, w->options->program, &w->error);
      break;
    case DYNO_OP_PUT_ITEM:
      emit_insert (w->out, request, &w->error);
      break;
    case DYNO_OP_UPDATE_ITEM:
      emit_update (w->out, request, &w->error);
      break;
    case DYNO_OP_DELETE_ITEM:
      emit_delete (w->out, request, &w->error);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
partiql_snippet (DynoCodegenWriter *w)
{
  partiql_statement (w);
  g_string_append_c (w->out, '\n');
}

static void
partiql_program (DynoCodegenWriter *w)
{
  g_autoptr(GString) statement = g_string_new (NULL);
  GString *out = w->out;

  w->out = statement;
  partiql_statement (w);
  w->out = out;
  if (w->error == NULL)
    emit_program (w, statement->str);
}

const DynoCodegenLang dyno_codegen_lang_partiql = {
  .order = DYNO_CODEGEN_ORDER_API,
  .comment = "# ",   /* the program is a bash script */
  .value = {
    .text = partiql_text,
    .bytes = partiql_bytes,
    .number = partiql_number,
    .true_word = "true",
    .false_word = "false",
    .null_word = "null",
    .open = {
      [DYNO_VALUE_M] = "{", [DYNO_VALUE_L] = "[", [DYNO_VALUE_SS] = "<<", [DYNO_VALUE_NS] = "<<",
      [DYNO_VALUE_BS] = "<<",
    },
    .close = {
      [DYNO_VALUE_M] = "}", [DYNO_VALUE_L] = "]", [DYNO_VALUE_SS] = ">>", [DYNO_VALUE_NS] = ">>",
      [DYNO_VALUE_BS] = ">>",
    },
    .map = partiql_map,
    .list = partiql_list,
  },
  .snippet = partiql_snippet,
  .program = partiql_program,
};
