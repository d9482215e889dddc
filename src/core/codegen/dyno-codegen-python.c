/* dyno-codegen-python.c: the request for boto3, as the low-level client and as the Table
 * resource with boto3.dynamodb.conditions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-old.h"

#include <string.h>

typedef struct {
  GString  *out;
  gboolean  native;        /* resource: plain Python values */
  gboolean  uses_decimal;
} PyWriter;

static void
append_bytes (GString         *out,
              const DynoValue *value)
{
  gsize len = 0;
  const guint8 *data = dyno_value_get_binary (value, &len);

  g_string_append (out, "b\"");
  for (gsize i = 0; i < len; i++)
    {
      if (data[i] == '"' || data[i] == '\\')
        g_string_append_printf (out, "\\%c", data[i]);
      else if (data[i] >= 0x20 && data[i] < 0x7f)
        g_string_append_c (out, (char) data[i]);
      else
        g_string_append_printf (out, "\\x%02x", data[i]);
    }
  g_string_append_c (out, '"');
}

/* boto3 hands Decimals to a context of 38 digits that traps rounding, so an integer written
 * with more than 38 digits (trailing zeros) is given as mantissa and exponent instead. */
static void
append_decimal (PyWriter   *w,
                const char *number)
{
  gsize len = strlen (number);
  gsize digits = len - (number[0] == '-' ? 1 : 0);

  w->uses_decimal = TRUE;
  g_string_append (w->out, "Decimal(\"");
  if (strchr (number, '.') == NULL && digits > 38)
    {
      gsize end = len;
      guint zeros = 0;

      while (end > 1 && number[end - 1] == '0')
        {
          end--;
          zeros++;
        }
      g_string_append_len (w->out, number, end);
      g_string_append_printf (w->out, "E+%u", zeros);
    }
  else
    g_string_append (w->out, number);
  g_string_append (w->out, "\")");
}

static void append_value (PyWriter        *w,
                          const DynoValue *value);

static void
append_list (PyWriter        *w,
             const DynoValue *value,
             const char      *open,
             const char      *close)
{
  guint n = dyno_value_get_n_children (value);

  g_string_append (w->out, open);
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (w->out, ", ");
      append_value (w, dyno_value_get_child (value, i));
    }
  g_string_append (w->out, close);
}

static void
append_map_inline (PyWriter        *w,
                   const DynoValue *map)
{
  guint n = dyno_value_get_n_children (map);

  g_string_append_c (w->out, '{');
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (w->out, ", ");
      dyno_codegen_append_member_name (w->out, map, i, DYNO_QUOTE_PYTHON);
      g_string_append (w->out, ": ");
      append_value (w, dyno_value_get_child (map, i));
    }
  g_string_append_c (w->out, '}');
}

static void
append_native (PyWriter        *w,
               const DynoValue *value)
{
  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_S:
      dyno_codegen_append_value_string (w->out, value, DYNO_QUOTE_PYTHON);
      break;
    case DYNO_VALUE_N:
      append_decimal (w, dyno_value_get_string (value, NULL));
      break;
    case DYNO_VALUE_B:
      append_bytes (w->out, value);
      break;
    case DYNO_VALUE_BOOL:
      g_string_append (w->out, dyno_value_get_bool (value) ? "True" : "False");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (w->out, "None");
      break;
    case DYNO_VALUE_M:
      append_map_inline (w, value);
      break;
    case DYNO_VALUE_L:
      append_list (w, value, "[", "]");
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      /* DynamoDB has no empty sets, so {…} is always a set literal, never a dict. */
      append_list (w, value, "{", "}");
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
append_typed (PyWriter        *w,
              const DynoValue *value)
{
  DynoValueType type = dyno_value_get_kind (value);

  g_string_append_printf (w->out, "{\"%s\": ", dyno_value_type_to_string (type));
  switch (type)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
      dyno_codegen_append_value_string (w->out, value, DYNO_QUOTE_PYTHON);
      break;
    case DYNO_VALUE_B:
      append_bytes (w->out, value);
      break;
    case DYNO_VALUE_BOOL:
      g_string_append (w->out, dyno_value_get_bool (value) ? "True" : "False");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (w->out, "True");
      break;
    case DYNO_VALUE_M:
      append_map_inline (w, value);
      break;
    case DYNO_VALUE_L:
      append_list (w, value, "[", "]");
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      {
        guint n = dyno_value_get_n_children (value);

        g_string_append_c (w->out, '[');
        for (guint i = 0; i < n; i++)
          {
            const DynoValue *child = dyno_value_get_child (value, i);

            if (i > 0)
              g_string_append (w->out, ", ");
            if (type == DYNO_VALUE_BS)
              append_bytes (w->out, child);
            else
              dyno_codegen_append_value_string (w->out, child, DYNO_QUOTE_PYTHON);
          }
        g_string_append_c (w->out, ']');
      }
      break;
    default:
      g_assert_not_reached ();
    }
  g_string_append_c (w->out, '}');
}

static void
append_value (PyWriter        *w,
              const DynoValue *value)
{
  if (w->native)
    append_native (w, value);
  else
    append_typed (w, value);
}

static void
append_item_block (PyWriter        *w,
                   const DynoValue *map,
                   guint            indent)
{
  guint n = dyno_value_get_n_children (map);

  g_string_append (w->out, "{\n");
  for (guint i = 0; i < n; i++)
    {
      dyno_codegen_append_indent (w->out, indent + 4);
      dyno_codegen_append_member_name (w->out, map, i, DYNO_QUOTE_PYTHON);
      g_string_append (w->out, ": ");
      append_value (w, dyno_value_get_child (map, i));
      g_string_append (w->out, ",\n");
    }
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_c (w->out, '}');
}

/* ---- boto3.dynamodb.conditions ------------------------------------------------------------ */

/* boto3 splits an Attr/Key name on '.' and reads [n] as list indexes: a path is expressible
 * when none of its names holds those characters. */
static gboolean
append_path_name (GString        *out,
                  const DynoPath *path)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < path->elements->len; i++)
    {
      const DynoPathElement *e = &g_array_index (path->elements, DynoPathElement, i);

      if (e->name != NULL)
        {
          if (e->name[0] == '\0' || strpbrk (e->name, ".[]") != NULL)
            return FALSE;
          if (i > 0)
            g_string_append_c (text, '.');
          g_string_append (text, e->name);
        }
      else
        g_string_append_printf (text, "[%u]", e->index);
    }
  dyno_codegen_append_quoted (out, text->str, DYNO_QUOTE_PYTHON);
  return TRUE;
}

static const DynoExpr *
strip_parens (const DynoExpr *expr)
{
  while (expr->kind == DYNO_EXPR_PAREN)
    expr = expr->args->pdata[0];
  return expr;
}

static gboolean
is_attribute (const DynoExpr *expr)
{
  return expr->kind == DYNO_EXPR_PATH || expr->kind == DYNO_EXPR_SIZE;
}

/* Attr("a.b") / Key("pk") / Attr("a").size() */
static gboolean
append_attribute (PyWriter       *w,
                  const DynoExpr *expr,
                  gboolean        key)
{
  if (expr->kind == DYNO_EXPR_SIZE && key)
    return FALSE;
  g_string_append (w->out, key ? "Key(" : "Attr(");
  if (!append_path_name (w->out, expr->path))
    return FALSE;
  g_string_append_c (w->out, ')');
  if (expr->kind == DYNO_EXPR_SIZE)
    g_string_append (w->out, ".size()");
  return TRUE;
}

static gboolean append_condition (PyWriter       *w,
                                  const DynoExpr *expr,
                                  gboolean        key);

static gboolean
append_operand_condition (PyWriter       *w,
                          const DynoExpr *expr,
                          gboolean        key,
                          DynoExprKind    parent)
{
  const DynoExpr *inner = strip_parens (expr);
  gboolean group = (inner->kind == DYNO_EXPR_AND || inner->kind == DYNO_EXPR_OR) &&
                   inner->kind != parent;

  /* & binds tighter than | in Python, as AND does than OR; parentheses when they mix keep
   * the grouping visible anyway. */
  if (group || parent == DYNO_EXPR_NOT)
    group = inner->kind == DYNO_EXPR_AND || inner->kind == DYNO_EXPR_OR ||
            inner->kind == DYNO_EXPR_NOT;
  if (group)
    g_string_append_c (w->out, '(');
  if (!append_condition (w, inner, key))
    return FALSE;
  if (group)
    g_string_append_c (w->out, ')');
  return TRUE;
}

static gboolean
append_condition (PyWriter       *w,
                  const DynoExpr *expr,
                  gboolean        key)
{
  static const char * const compare_methods[] = { "eq", "ne", "lt", "lte", "gt", "gte" };
  static const DynoCompareOp swapped[] = {
    DYNO_COMPARE_EQ, DYNO_COMPARE_NE, DYNO_COMPARE_GT, DYNO_COMPARE_GE, DYNO_COMPARE_LT,
    DYNO_COMPARE_LE,
  };

  expr = strip_parens (expr);
  switch (expr->kind)
    {
    case DYNO_EXPR_AND:
    case DYNO_EXPR_OR:
      if (key && expr->kind == DYNO_EXPR_OR)
        return FALSE;
      if (!append_operand_condition (w, expr->args->pdata[0], key, expr->kind))
        return FALSE;
      g_string_append (w->out, expr->kind == DYNO_EXPR_AND ? " & " : " | ");
      return append_operand_condition (w, expr->args->pdata[1], key, expr->kind);

    case DYNO_EXPR_NOT:
      if (key)
        return FALSE;
      g_string_append_c (w->out, '~');
      return append_operand_condition (w, expr->args->pdata[0], key, DYNO_EXPR_NOT);

    case DYNO_EXPR_COMPARE:
      {
        const DynoExpr *left = strip_parens (expr->args->pdata[0]);
        const DynoExpr *right = strip_parens (expr->args->pdata[1]);
        DynoCompareOp op = expr->op.compare;

        if (!is_attribute (left) && is_attribute (right))
          {
            const DynoExpr *tmp = left;

            left = right;
            right = tmp;
            op = swapped[op];
          }
        if (!is_attribute (left))
          return FALSE;
        /* Size has no ne(); Key has no ne() either. */
        if (op == DYNO_COMPARE_NE && (key || left->kind == DYNO_EXPR_SIZE))
          return FALSE;
        if (!append_attribute (w, left, key))
          return FALSE;
        g_string_append_printf (w->out, ".%s(", compare_methods[op]);
        if (right->kind == DYNO_EXPR_VALUE)
          append_native (w, right->value);
        else if (is_attribute (right) && !key)
          {
            if (!append_attribute (w, right, FALSE))
              return FALSE;
          }
        else
          return FALSE;
        g_string_append_c (w->out, ')');
        return TRUE;
      }

    case DYNO_EXPR_BETWEEN:
      {
        const DynoExpr *operand = strip_parens (expr->args->pdata[0]);
        const DynoExpr *low = strip_parens (expr->args->pdata[1]);
        const DynoExpr *high = strip_parens (expr->args->pdata[2]);

        if (!is_attribute (operand) || low->kind != DYNO_EXPR_VALUE ||
            high->kind != DYNO_EXPR_VALUE)
          return FALSE;
        if (!append_attribute (w, operand, key))
          return FALSE;
        g_string_append (w->out, ".between(");
        append_native (w, low->value);
        g_string_append (w->out, ", ");
        append_native (w, high->value);
        g_string_append_c (w->out, ')');
        return TRUE;
      }

    case DYNO_EXPR_IN:
      {
        const DynoExpr *operand = strip_parens (expr->args->pdata[0]);

        if (key || operand->kind != DYNO_EXPR_PATH)
          return FALSE;
        for (guint i = 1; i < expr->args->len; i++)
          if (strip_parens (expr->args->pdata[i])->kind != DYNO_EXPR_VALUE)
            return FALSE;
        if (!append_attribute (w, operand, FALSE))
          return FALSE;
        g_string_append (w->out, ".is_in([");
        for (guint i = 1; i < expr->args->len; i++)
          {
            if (i > 1)
              g_string_append (w->out, ", ");
            append_native (w, strip_parens (expr->args->pdata[i])->value);
          }
        g_string_append (w->out, "])");
        return TRUE;
      }

    case DYNO_EXPR_FUNCTION:
      {
        const DynoExpr *path = strip_parens (expr->args->pdata[0]);
        const DynoExpr *arg = expr->args->len > 1 ? strip_parens (expr->args->pdata[1]) : NULL;

        if (path->kind != DYNO_EXPR_PATH)
          return FALSE;
        if (key && expr->op.function != DYNO_FUNCTION_BEGINS_WITH)
          return FALSE;
        if (arg != NULL && arg->kind != DYNO_EXPR_VALUE)
          return FALSE;
        if (!append_attribute (w, path, key))
          return FALSE;
        switch (expr->op.function)
          {
          case DYNO_FUNCTION_ATTRIBUTE_EXISTS:
            g_string_append (w->out, ".exists()");
            return TRUE;
          case DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS:
            g_string_append (w->out, ".not_exists()");
            return TRUE;
          case DYNO_FUNCTION_ATTRIBUTE_TYPE:
            g_string_append (w->out, ".attribute_type(");
            break;
          case DYNO_FUNCTION_BEGINS_WITH:
            g_string_append (w->out, ".begins_with(");
            break;
          case DYNO_FUNCTION_CONTAINS:
            g_string_append (w->out, ".contains(");
            break;
          default:
            return FALSE;
          }
        if (arg == NULL)
          return FALSE;
        append_native (w, arg->value);
        g_string_append_c (w->out, ')');
        return TRUE;
      }

    default:
      return FALSE;
    }
}

/* ---- the request as keyword arguments ------------------------------------------------------ */

typedef struct {
  gboolean    use_conditions;  /* resource: Key/Attr objects for the conditions */
  const char *fallback_reason; /* why expression strings are used instead, for a comment */
  GString    *key_condition;   /* the Key/Attr forms, when use_conditions */
  GString    *filter;
  GString    *condition;
} ResourcePlan;

static void
resource_plan_clear (ResourcePlan *plan)
{
  if (plan->key_condition != NULL)
    g_string_free (plan->key_condition, TRUE);
  if (plan->filter != NULL)
    g_string_free (plan->filter, TRUE);
  if (plan->condition != NULL)
    g_string_free (plan->condition, TRUE);
}

static gboolean
plan_one (PyWriter       *w,
          const DynoExpr *expr,
          gboolean        key,
          GString       **out)
{
  GString *saved = w->out;
  gboolean ok;

  if (expr == NULL)
    return TRUE;
  w->out = g_string_new (NULL);
  ok = append_condition (w, expr, key);
  *out = w->out;
  w->out = saved;
  return ok;
}

static void
plan_resource (PyWriter                 *w,
               const DynoRequest        *request,
               const DynoPrintedRequest *printed,
               ResourcePlan             *plan)
{
  DynoOperation op = request->operation;
  gboolean saved_decimal = w->uses_decimal;

  memset (plan, 0, sizeof *plan);
  if (op == DYNO_OP_UPDATE_ITEM)
    {
      plan->fallback_reason = "UpdateExpression has no boto3.dynamodb.conditions form";
      return;
    }
  if (!plan_one (w, op == DYNO_OP_QUERY ? request->key_condition : NULL, TRUE,
                 &plan->key_condition) ||
      !plan_one (w, dyno_codegen_operation_is_paged (op) ? request->filter : NULL, FALSE,
                 &plan->filter) ||
      !plan_one (w, (op == DYNO_OP_PUT_ITEM || op == DYNO_OP_DELETE_ITEM) ? request->condition
                                                                          : NULL,
                 FALSE, &plan->condition))
    {
      w->uses_decimal = saved_decimal;
      resource_plan_clear (plan);
      memset (plan, 0, sizeof *plan);
      plan->fallback_reason = "a condition names an attribute with '.' or '[', or has\n"
                              "# an operand that Key/Attr cannot take";
      return;
    }

  /* boto3 names its own placeholders #n0, :v0, … and merges them into the maps given: the
   * projection's names must not collide with those. */
  if (printed->projection != NULL)
    {
      g_auto(GStrv) names = dyno_codegen_expression_placeholders (printed->projection, '#');

      for (guint i = 0; names[i] != NULL; i++)
        if (g_regex_match_simple ("^#n[0-9]+$", names[i], 0, 0))
          {
            w->uses_decimal = saved_decimal;
            resource_plan_clear (plan);
            memset (plan, 0, sizeof *plan);
            plan->fallback_reason = "the projection's placeholders would collide with\n"
                                    "# the ones boto3 generates for Key/Attr conditions";
            return;
          }
    }
  plan->use_conditions = TRUE;
}

static gboolean
name_in (const char  *placeholder,
         char       **list)
{
  return list != NULL && g_strv_contains ((const char * const *) list, placeholder);
}

static void
append_kwargs (PyWriter                 *w,
               const DynoRequest        *request,
               const DynoPrintedRequest *printed,
               const ResourcePlan       *plan,
               guint                     indent,
               gboolean                  skip_table_name,
               const char               *separator)  /* "=" for kwargs, ": " for a dict */
{
  g_autoptr(GArray) members = dyno_codegen_collect_old_members (request, printed);
  g_auto(GStrv) projection_names = NULL;
  gboolean dict = g_str_equal (separator, ": ");

  if (plan != NULL && plan->use_conditions && printed->projection != NULL)
    projection_names = dyno_codegen_expression_placeholders (printed->projection, '#');
  if (projection_names != NULL && projection_names[0] == NULL)
    g_clear_pointer (&projection_names, g_strfreev);

  for (guint i = 0; i < members->len; i++)
    {
      const DynoCodegenOldMember *m = &g_array_index (members, DynoCodegenOldMember, i);
      GString *condition = NULL;

      if (skip_table_name && g_str_equal (m->name, "TableName"))
        continue;
      if (plan != NULL && plan->use_conditions)
        {
          if (g_str_equal (m->name, "KeyConditionExpression"))
            condition = plan->key_condition;
          else if (g_str_equal (m->name, "FilterExpression"))
            condition = plan->filter;
          else if (g_str_equal (m->name, "ConditionExpression"))
            condition = plan->condition;
          else if (m->kind == DYNO_CODEGEN_MEMBER_VALUES)
            continue;  /* only the conditions used values, and boto3 writes those */
          else if (m->kind == DYNO_CODEGEN_MEMBER_NAMES && projection_names == NULL)
            continue;
        }

      dyno_codegen_append_indent (w->out, indent);
      if (dict)
        g_string_append_printf (w->out, "\"%s\": ", m->name);
      else
        g_string_append_printf (w->out, "%s=", m->name);

      if (condition != NULL)
        {
          g_string_append (w->out, condition->str);
          g_string_append (w->out, ",\n");
          continue;
        }

      switch (m->kind)
        {
        case DYNO_CODEGEN_MEMBER_STRING:
        case DYNO_CODEGEN_MEMBER_ENUM:
          dyno_codegen_append_quoted (w->out, m->string, DYNO_QUOTE_PYTHON);
          break;
        case DYNO_CODEGEN_MEMBER_INTEGER:
          g_string_append_printf (w->out, "%" G_GINT64_FORMAT, m->integer);
          break;
        case DYNO_CODEGEN_MEMBER_BOOLEAN:
          g_string_append (w->out, m->boolean ? "True" : "False");
          break;
        case DYNO_CODEGEN_MEMBER_ITEM:
          append_item_block (w, m->map, indent);
          break;
        case DYNO_CODEGEN_MEMBER_NAMES:
          g_string_append (w->out, "{\n");
          for (guint j = 0; j < printed->name_placeholders->len; j++)
            {
              if (projection_names != NULL &&
                  !name_in (printed->name_placeholders->pdata[j], projection_names))
                continue;
              dyno_codegen_append_indent (w->out, indent + 4);
              dyno_codegen_append_quoted (w->out, printed->name_placeholders->pdata[j],
                                          DYNO_QUOTE_PYTHON);
              g_string_append (w->out, ": ");
              dyno_codegen_append_quoted (w->out, printed->names->pdata[j], DYNO_QUOTE_PYTHON);
              g_string_append (w->out, ",\n");
            }
          dyno_codegen_append_indent (w->out, indent);
          g_string_append_c (w->out, '}');
          break;
        case DYNO_CODEGEN_MEMBER_VALUES:
          g_string_append (w->out, "{\n");
          for (guint j = 0; j < printed->value_placeholders->len; j++)
            {
              dyno_codegen_append_indent (w->out, indent + 4);
              dyno_codegen_append_quoted (w->out, printed->value_placeholders->pdata[j],
                                          DYNO_QUOTE_PYTHON);
              g_string_append (w->out, ": ");
              append_value (w, printed->values->pdata[j]);
              g_string_append (w->out, ",\n");
            }
          dyno_codegen_append_indent (w->out, indent);
          g_string_append_c (w->out, '}');
          break;
        default:
          g_assert_not_reached ();
        }
      g_string_append (w->out, ",\n");
    }
}

static void
append_client_arguments (GString                  *out,
                         const DynoCodegenOptions *options)
{
  if (options->endpoint_url != NULL)
    {
      g_string_append (out, ", endpoint_url=");
      dyno_codegen_append_quoted (out, options->endpoint_url, DYNO_QUOTE_PYTHON);
    }
  if (options->region != NULL)
    {
      g_string_append (out, ", region_name=");
      dyno_codegen_append_quoted (out, options->region, DYNO_QUOTE_PYTHON);
    }
}

static void
append_factory (GString                  *out,
                const DynoCodegenOptions *options,
                const char               *variable,
                const char               *factory)  /* "client" or "resource" */
{
  if (options->profile != NULL)
    {
      g_string_append (out, "session = boto3.Session(profile_name=");
      dyno_codegen_append_quoted (out, options->profile, DYNO_QUOTE_PYTHON);
      g_string_append_printf (out, ")\n%s = session.%s(\"dynamodb\"", variable, factory);
    }
  else
    g_string_append_printf (out, "%s = boto3.%s(\"dynamodb\"", variable, factory);
  append_client_arguments (out, options);
  g_string_append (out, ")\n");
}

static char *
emit (const DynoRequest        *request,
      const DynoPrintedRequest *printed,
      const DynoCodegenOptions *options,
      gboolean                  resource)
{
  PyWriter w = { g_string_new (NULL), resource, FALSE };
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *what = dyno_codegen_describe (request);
  DynoOperation op = request->operation;
  const char *method = dyno_codegen_operation_snake (op);
  gboolean paged = dyno_codegen_operation_is_paged (op);
  gboolean program = options->program;
  ResourcePlan plan = { 0, };
  g_autoptr(GString) args = NULL;
  g_autoptr(GString) note = g_string_new (NULL);

  if (resource)
    plan_resource (&w, request, printed, &plan);

  /* The call's arguments first: they decide the imports. */
  if (program && paged && resource)
    {
      g_string_append (w.out, "params = {\n");
      append_kwargs (&w, request, printed, &plan, 4, TRUE, ": ");
      g_string_append (w.out, "}\n");
    }
  else
    append_kwargs (&w, request, printed, resource ? &plan : NULL, 4, resource, "=");
  args = w.out;

  if (program)
    {
      g_string_append_printf (out, "#!/usr/bin/env python3\n\"\"\"%s, generated by DynoTable.\n\n",
                              what);
      if (paged)
        g_string_append (out, "Prints every item as one line of DynamoDB JSON, page by page.\n");
      else if (op == DYNO_OP_GET_ITEM)
        g_string_append (out, "Prints the item as one line of DynamoDB JSON.\n");
      else
        g_string_append (out, "Prints the returned attributes as one line of DynamoDB JSON.\n");
      g_string_append (out, "\"\"\"\n");
      g_string_append (out, "import base64\nimport json\n");
    }
  if (w.uses_decimal)
    g_string_append (out, "from decimal import Decimal\n");
  if (program || w.uses_decimal)
    g_string_append_c (out, '\n');
  g_string_append (out, "import boto3\n");
  if (resource && plan.use_conditions &&
      (plan.key_condition != NULL || plan.filter != NULL || plan.condition != NULL))
    {
      gboolean key = plan.key_condition != NULL;
      gboolean attr = (plan.filter != NULL && strstr (plan.filter->str, "Attr(") != NULL) ||
                      (plan.condition != NULL && strstr (plan.condition->str, "Attr(") != NULL);

      g_string_append_printf (out, "from boto3.dynamodb.conditions import %s%s%s\n",
                              attr ? "Attr" : "", attr && key ? ", " : "", key ? "Key" : "");
    }
  if (resource && program)
    g_string_append (out, "from boto3.dynamodb.types import TypeSerializer\n");
  g_string_append_c (out, '\n');

  if (resource)
    {
      append_factory (out, options, "dynamodb", "resource");
      g_string_append (out, "table = dynamodb.Table(");
      dyno_codegen_append_quoted (out, request->table_name, DYNO_QUOTE_PYTHON);
      g_string_append (out, ")\n");
    }
  else
    append_factory (out, options, "client", "client");
  g_string_append_c (out, '\n');

  if (resource && plan.fallback_reason != NULL)
    g_string_append_printf (note,
                            "# Expression strings and placeholder maps, which the Table resource\n"
                            "# takes as they are: %s.\n",
                            plan.fallback_reason);

  if (!program)
    {
      g_string_append (out, note->str);
      g_string_append_printf (out, "response = %s.%s(\n%s)\n", resource ? "table" : "client",
                              method, args->str);
      resource_plan_clear (&plan);
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  if (resource)
    g_string_append (out,
                     "\n"
                     "def to_dynamo_json(item):\n"
                     "    \"\"\"The Table resource returns plain values (Decimal, Binary, set):\n"
                     "    TypeSerializer turns them back into DynamoDB JSON, binary in base64.\"\"\"\n"
                     "    serializer = TypeSerializer()\n"
                     "    typed = {name: serializer.serialize(value) for name, value in item.items()}\n"
                     "    return json.dumps(typed, default=lambda b: base64.b64encode(bytes(b)).decode(\"ascii\"))\n"
                     "\n\n");
  else
    g_string_append (out,
                     "\n"
                     "def to_dynamo_json(item):\n"
                     "    \"\"\"DynamoDB JSON with binary values in base64, as the service sends them.\"\"\"\n"
                     "    return json.dumps(item, default=lambda b: base64.b64encode(b).decode(\"ascii\"))\n"
                     "\n\n");

  g_string_append (out, note->str);
  if (paged && resource)
    {
      g_string_append (out, args->str);
      g_string_append_printf (out,
                              "# Each page's LastEvaluatedKey is the next page's ExclusiveStartKey.\n"
                              "while True:\n"
                              "    response = table.%s(**params)\n"
                              "    for item in response.get(\"Items\", []):\n"
                              "        print(to_dynamo_json(item))\n"
                              "    if \"LastEvaluatedKey\" not in response:\n"
                              "        break\n"
                              "    params[\"ExclusiveStartKey\"] = response[\"LastEvaluatedKey\"]\n",
                              method);
    }
  else if (paged)
    {
      g_string_append_printf (out,
                              "# The paginator sends ExclusiveStartKey = LastEvaluatedKey until there is none.\n"
                              "paginator = client.get_paginator(\"%s\")\n"
                              "for page in paginator.paginate(\n%s):\n"
                              "    for item in page.get(\"Items\", []):\n"
                              "        print(to_dynamo_json(item))\n",
                              method, args->str);
    }
  else
    {
      const char *member = op == DYNO_OP_GET_ITEM ? "Item" : "Attributes";

      g_string_append_printf (out,
                              "response = %s.%s(\n%s)\n"
                              "if \"%s\" in response:\n"
                              "    print(to_dynamo_json(response[\"%s\"]))\n",
                              resource ? "table" : "client", method, args->str, member, member);
    }
  resource_plan_clear (&plan);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
dyno_codegen_emit_boto3 (const DynoRequest        *request,
                         const DynoPrintedRequest *printed,
                         const DynoCodegenOptions *options,
                         GError                  **error)
{
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (printed != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  return emit (request, printed, options, FALSE);
}

char *
dyno_codegen_emit_boto3_resource (const DynoRequest        *request,
                                  const DynoPrintedRequest *printed,
                                  const DynoCodegenOptions *options,
                                  GError                  **error)
{
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (printed != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  return emit (request, printed, options, TRUE);
}
