/* dyno-codegen-python.c: the request for boto3, as the low-level client and as the Table
 * resource with boto3.dynamodb.conditions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-private.h"

#include <string.h>

/* w->uses: a number is written as a Decimal (the resource) */
#define PY_USES_DECIMAL 1u

static gboolean
py_is_resource (DynoCodegenWriter *w)
{
  return w->lang == &dyno_codegen_lang_boto3_resource;
}

static void
py_text (DynoCodegenWriter *w,
         const char        *text,
         gsize              len)
{
  dyno_codegen_append_quoted_len (w->out, text, len, DYNO_QUOTE_PYTHON);
}

static void
py_string (DynoCodegenWriter *w,
           const char        *text)
{
  dyno_codegen_append_quoted (w->out, text, DYNO_QUOTE_PYTHON);
}

static void
py_bytes (DynoCodegenWriter *w,
          const guint8      *data,
          gsize              len)
{
  g_string_append (w->out, "b\"");
  dyno_codegen_append_byte_escapes (w->out, data, len, FALSE);
  g_string_append_c (w->out, '"');
}

/* boto3 hands Decimals to a context of 38 digits that traps rounding, so an integer written
 * with more than 38 digits (trailing zeros) is given as mantissa and exponent instead. */
static void
py_decimal (DynoCodegenWriter *w,
            const char        *number)
{
  gsize len = strlen (number);
  gsize digits = len - (number[0] == '-' ? 1 : 0);

  w->uses |= PY_USES_DECIMAL;
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

static void
py_map (DynoCodegenWriter *w,
        const DynoValue   *map,
        guint              indent)
{
  DynoCodegenPairs pairs = dyno_codegen_pairs_of_map (map);

  g_string_append_c (w->out, '{');
  for (guint i = 0; i < dyno_codegen_pairs_get_n (&pairs); i++)
    {
      if (i > 0)
        g_string_append (w->out, ", ");
      dyno_codegen_write_pair_key (w, &pairs, i);
      g_string_append (w->out, ": ");
      dyno_codegen_write_pair_value (w, &pairs, i, indent);
    }
  g_string_append_c (w->out, '}');
}

static void
py_list (DynoCodegenWriter *w,
         const DynoValue   *list,
         guint              indent)
{
  dyno_codegen_write_list_inline (w, list);
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
append_attribute (DynoCodegenWriter *w,
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

static gboolean append_condition (DynoCodegenWriter *w,
                                  const DynoExpr *expr,
                                  gboolean        key);

static gboolean
append_operand_condition (DynoCodegenWriter *w,
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
append_condition (DynoCodegenWriter *w,
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
          dyno_codegen_write_value (w, right->value, 0);
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
        dyno_codegen_write_value (w, low->value, 0);
        g_string_append (w->out, ", ");
        dyno_codegen_write_value (w, high->value, 0);
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
            dyno_codegen_write_value (w, strip_parens (expr->args->pdata[i])->value, 0);
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
        dyno_codegen_write_value (w, arg->value, 0);
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
plan_one (DynoCodegenWriter *w,
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
plan_resource (DynoCodegenWriter        *w,
               const DynoRequest        *request,
               const DynoPrintedRequest *printed,
               ResourcePlan             *plan)
{
  DynoOperation op = request->operation;
  guint saved_uses = w->uses;

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
      w->uses = saved_uses;
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
            w->uses = saved_uses;
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

/* How the request's members are written this time (w->data). */
typedef struct {
  const ResourcePlan  *plan;              /* NULL: the low-level client */
  gboolean             skip_table_name;   /* the Table resource knows it */
  gboolean             dict;              /* "Name": value, else Name=value */
  char               **projection_names;  /* NULL: every name of the names map */
} PyArgs;

/* The resource's Key/Attr conditions stand for the expressions, and boto3 writes their
 * placeholders itself: only the projection's names remain. */
static gboolean
py_member_write (DynoCodegenWriter       *w,
                 const DynoCodegenMember *m,
                 guint                    indent)
{
  const PyArgs *args = w->data;
  const ResourcePlan *plan = args->plan;
  GString *condition = NULL;

  if (args->skip_table_name && g_str_equal (m->name, "TableName"))
    return TRUE;
  if (plan == NULL || !plan->use_conditions)
    return FALSE;
  if (g_str_equal (m->name, "KeyConditionExpression"))
    condition = plan->key_condition;
  else if (g_str_equal (m->name, "FilterExpression"))
    condition = plan->filter;
  else if (g_str_equal (m->name, "ConditionExpression"))
    condition = plan->condition;
  else if (m->kind == DYNO_CODEGEN_MEMBER_VALUES)
    return TRUE;  /* only the conditions used values, and boto3 writes those */
  else if (m->kind == DYNO_CODEGEN_MEMBER_NAMES && args->projection_names == NULL)
    return TRUE;
  if (condition == NULL)
    return FALSE;
  w->lang->member.begin (w, m, indent);
  g_string_append (w->out, condition->str);
  g_string_append (w->out, ",\n");
  return TRUE;
}

static void
py_member_begin (DynoCodegenWriter       *w,
                 const DynoCodegenMember *m,
                 guint                    indent)
{
  const PyArgs *args = w->data;

  dyno_codegen_append_indent (w->out, indent);
  if (args->dict)
    g_string_append_printf (w->out, "\"%s\": ", m->name);
  else
    g_string_append_printf (w->out, "%s=", m->name);
}

static void
py_member_map (DynoCodegenWriter       *w,
               const DynoCodegenMember *m,
               guint                    indent)
{
  const PyArgs *args = w->data;
  const DynoCodegenPairs *pairs = &m->pairs;

  g_string_append (w->out, "{\n");
  for (guint i = 0; i < dyno_codegen_pairs_get_n (pairs); i++)
    {
      gsize len;
      const char *key = dyno_codegen_pairs_get_key (pairs, i, &len);

      if (m->kind == DYNO_CODEGEN_MEMBER_NAMES && args->projection_names != NULL &&
          !name_in (key, args->projection_names))
        continue;
      dyno_codegen_append_indent (w->out, indent + 4);
      if (m->kind == DYNO_CODEGEN_MEMBER_ITEM)
        py_text (w, key, len);
      else
        py_string (w, key);
      g_string_append (w->out, ": ");
      if (m->kind == DYNO_CODEGEN_MEMBER_NAMES)
        py_string (w, dyno_codegen_pairs_get_name (pairs, i));
      else
        dyno_codegen_write_value (w, dyno_codegen_pairs_get_value (pairs, i), indent);
      g_string_append (w->out, ",\n");
    }
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_c (w->out, '}');
}

static void
py_members (DynoCodegenWriter *w,
            const PyArgs      *args,
            guint              indent)
{
  gpointer saved = w->data;

  w->data = (gpointer) args;
  dyno_codegen_write_members (w, indent);
  w->data = saved;
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

static void
py_loop (DynoCodegenWriter *w,
         gboolean           count)
{
  const char *method = dyno_codegen_operation_snake (w->request->operation);
  const char *args = w->data;

  if (py_is_resource (w))
    {
      g_string_append (w->out, args);
      g_string_append_printf (w->out,
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
  else
    {
      g_string_append_printf (w->out,
                              "# The paginator sends ExclusiveStartKey = LastEvaluatedKey until there is none.\n"
                              "paginator = client.get_paginator(\"%s\")\n"
                              "for page in paginator.paginate(\n%s):\n"
                              "    for item in page.get(\"Items\", []):\n"
                              "        print(to_dynamo_json(item))\n",
                              method, args);
    }
}

static void
py_call (DynoCodegenWriter *w)
{
  const char *member = dyno_codegen_result_member (w->request->operation);

  g_string_append_printf (w->out,
                          "response = %s.%s(\n%s)\n"
                          "if \"%s\" in response:\n"
                          "    print(to_dynamo_json(response[\"%s\"]))\n",
                          py_is_resource (w) ? "table" : "client",
                          dyno_codegen_operation_snake (w->request->operation),
                          (const char *) w->data, member, member);
}

static void
py_document (DynoCodegenWriter *w,
             gboolean           program)
{
  gboolean resource = py_is_resource (w);
  GString *out = w->out;
  g_autofree char *what = dyno_codegen_describe (w->request);
  DynoOperation op = w->request->operation;
  const char *method = dyno_codegen_operation_snake (op);
  gboolean paged = dyno_codegen_operation_is_paged (op);
  ResourcePlan plan = { 0, };
  PyArgs args = { NULL, resource, FALSE, NULL };
  g_autoptr(GString) note = g_string_new (NULL);
  const char *printed_projection = w->printed->projection;

  if (resource)
    {
      plan_resource (w, w->request, w->printed, &plan);
      args.plan = &plan;
      if (plan.use_conditions && printed_projection != NULL)
        args.projection_names = dyno_codegen_expression_placeholders (printed_projection, '#');
      if (args.projection_names != NULL && args.projection_names[0] == NULL)
        g_clear_pointer (&args.projection_names, g_strfreev);
    }

  /* The call's arguments first: they decide the imports. */
  w->out = g_string_new (NULL);
  if (program && paged && resource)
    {
      args.dict = TRUE;
      g_string_append (w->out, "params = {\n");
      py_members (w, &args, 4);
      g_string_append (w->out, "}\n");
    }
  else
    py_members (w, &args, 4);
  w->data = g_string_free (w->out, FALSE);
  w->out = out;

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
  if (w->uses & PY_USES_DECIMAL)
    g_string_append (out, "from decimal import Decimal\n");
  if (program || (w->uses & PY_USES_DECIMAL))
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
      append_factory (out, w->options, "dynamodb", "resource");
      g_string_append (out, "table = dynamodb.Table(");
      py_string (w, w->request->table_name);
      g_string_append (out, ")\n");
    }
  else
    append_factory (out, w->options, "client", "client");
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
                              method, (const char *) w->data);
    }
  else
    {
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
      dyno_codegen_write_ending (w);
    }
  g_clear_pointer (&w->data, g_free);
  g_strfreev (args.projection_names);
  resource_plan_clear (&plan);
}

static void
py_snippet (DynoCodegenWriter *w)
{
  py_document (w, FALSE);
}

static void
py_program (DynoCodegenWriter *w)
{
  py_document (w, TRUE);
}

#define PY_MEMBERS \
  .begin = py_member_begin, \
  .end = ",\n", \
  .string = py_string, \
  .map = py_member_map, \
  .write = py_member_write

/* The low-level client: typed values, {"S": "…"} */
const DynoCodegenLang dyno_codegen_lang_boto3 = {
  .order = DYNO_CODEGEN_ORDER_API,
  .comment = "# ",
  .value = {
    .text = py_text,
    .bytes = py_bytes,
    .true_word = "True",
    .false_word = "False",
    .null_word = "True",
    .open = {
      [DYNO_VALUE_S] = "{\"S\": ", [DYNO_VALUE_N] = "{\"N\": ", [DYNO_VALUE_B] = "{\"B\": ",
      [DYNO_VALUE_BOOL] = "{\"BOOL\": ", [DYNO_VALUE_NULL] = "{\"NULL\": ",
      [DYNO_VALUE_M] = "{\"M\": ", [DYNO_VALUE_L] = "{\"L\": [",
      [DYNO_VALUE_SS] = "{\"SS\": [", [DYNO_VALUE_NS] = "{\"NS\": [",
      [DYNO_VALUE_BS] = "{\"BS\": [",
    },
    .close = {
      [DYNO_VALUE_S] = "}", [DYNO_VALUE_N] = "}", [DYNO_VALUE_B] = "}", [DYNO_VALUE_BOOL] = "}",
      [DYNO_VALUE_NULL] = "}", [DYNO_VALUE_M] = "}", [DYNO_VALUE_L] = "]}",
      [DYNO_VALUE_SS] = "]}", [DYNO_VALUE_NS] = "]}", [DYNO_VALUE_BS] = "]}",
    },
    .map = py_map,
    .list = py_list,
  },
  .member = { PY_MEMBERS },
  .snippet = py_snippet,
  .program = py_program,
  .loop = py_loop,
  .call = py_call,
};

/* The Table resource: plain Python values, numbers as Decimal; sets are {…} (DynamoDB has no
 * empty sets, so a set literal is never a dict). */
const DynoCodegenLang dyno_codegen_lang_boto3_resource = {
  .order = DYNO_CODEGEN_ORDER_API,
  .comment = "# ",
  .value = {
    .text = py_text,
    .bytes = py_bytes,
    .number = py_decimal,
    .true_word = "True",
    .false_word = "False",
    .null_word = "None",
    .open = {
      [DYNO_VALUE_L] = "[", [DYNO_VALUE_SS] = "{", [DYNO_VALUE_NS] = "{", [DYNO_VALUE_BS] = "{",
    },
    .close = {
      [DYNO_VALUE_L] = "]", [DYNO_VALUE_SS] = "}", [DYNO_VALUE_NS] = "}", [DYNO_VALUE_BS] = "}",
    },
    .map = py_map,
    .list = py_list,
  },
  .member = { PY_MEMBERS },
  .snippet = py_snippet,
  .program = py_program,
  .loop = py_loop,
  .call = py_call,
};
