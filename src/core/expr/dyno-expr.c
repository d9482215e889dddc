/* dyno-expr.c: document paths, expression nodes and update expressions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-expr.h"
#include "dyno-expr-private.h"

#include <stdarg.h>
#include <string.h>

const char *
dyno_expr_role_to_field (DynoExprRole role)
{
  switch (role)
    {
    case DYNO_EXPR_ROLE_KEY_CONDITION:
      return "KeyConditionExpression";
    case DYNO_EXPR_ROLE_FILTER:
      return "FilterExpression";
    case DYNO_EXPR_ROLE_CONDITION:
      return "ConditionExpression";
    case DYNO_EXPR_ROLE_PROJECTION:
      return "ProjectionExpression";
    case DYNO_EXPR_ROLE_UPDATE:
      return "UpdateExpression";
    default:
      return "Expression";
    }
}

const char *
dyno_compare_op_to_string (DynoCompareOp op)
{
  static const char *const ops[] = { "=", "<>", "<", "<=", ">", ">=" };

  g_return_val_if_fail ((guint) op < G_N_ELEMENTS (ops), "?");
  return ops[op];
}

static const char *const function_names[] = {
  "attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains",
};

const char *
dyno_function_to_string (DynoFunction func)
{
  g_return_val_if_fail ((guint) func < G_N_ELEMENTS (function_names), "?");
  return function_names[func];
}

gboolean
dyno_function_from_string (const char   *name,
                           DynoFunction *out_func)
{
  for (guint i = 0; i < G_N_ELEMENTS (function_names); i++)
    if (strcmp (name, function_names[i]) == 0)
      {
        *out_func = (DynoFunction) i;
        return TRUE;
      }
  return FALSE;
}

guint
dyno_function_get_arity (DynoFunction func)
{
  switch (func)
    {
    case DYNO_FUNCTION_ATTRIBUTE_EXISTS:
    case DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS:
      return 1;
    case DYNO_FUNCTION_ATTRIBUTE_TYPE:
    case DYNO_FUNCTION_BEGINS_WITH:
    case DYNO_FUNCTION_CONTAINS:
    default:
      return 2;
    }
}

/* ---- paths ------------------------------------------------------------------------------ */

static void
path_element_clear (gpointer data)
{
  DynoPathElement *element = data;

  g_clear_pointer (&element->name, g_free);
}

static DynoPath *
path_new_empty (void)
{
  DynoPath *path = g_new0 (DynoPath, 1);

  path->elements = g_array_new (FALSE, TRUE, sizeof (DynoPathElement));
  g_array_set_clear_func (path->elements, path_element_clear);
  return path;
}

DynoPath *
dyno_path_new (const char *attribute)
{
  DynoPath *path;

  g_return_val_if_fail (attribute != NULL, NULL);

  path = path_new_empty ();
  dyno_path_append_name (path, attribute);
  return path;
}

DynoPath *
dyno_path_copy (const DynoPath *path)
{
  DynoPath *copy;

  g_return_val_if_fail (path != NULL, NULL);

  copy = path_new_empty ();
  for (guint i = 0; i < path->elements->len; i++)
    {
      const DynoPathElement *element = &g_array_index (path->elements, DynoPathElement, i);
      DynoPathElement dup = { g_strdup (element->name), element->index };

      g_array_append_val (copy->elements, dup);
    }
  return copy;
}

void
dyno_path_free (DynoPath *path)
{
  if (path == NULL)
    return;
  g_array_unref (path->elements);
  g_free (path);
}

void
dyno_path_append_name (DynoPath   *path,
                       const char *name)
{
  DynoPathElement element = { NULL, 0 };

  g_return_if_fail (path != NULL);
  g_return_if_fail (name != NULL);

  element.name = g_strdup (name);
  g_array_append_val (path->elements, element);
}

void
dyno_path_append_index (DynoPath *path,
                        guint     index)
{
  DynoPathElement element = { NULL, 0 };

  g_return_if_fail (path != NULL);
  g_return_if_fail (path->elements->len > 0);

  element.index = index;
  g_array_append_val (path->elements, element);
}

guint
dyno_path_get_length (const DynoPath *path)
{
  g_return_val_if_fail (path != NULL, 0);
  return path->elements->len;
}

const char *
dyno_path_get_attribute (const DynoPath *path)
{
  g_return_val_if_fail (path != NULL, NULL);
  if (path->elements->len == 0)
    return NULL;
  return g_array_index (path->elements, DynoPathElement, 0).name;
}

gboolean
dyno_path_equal (const DynoPath *a,
                 const DynoPath *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;
  if (a->elements->len != b->elements->len)
    return FALSE;
  for (guint i = 0; i < a->elements->len; i++)
    {
      const DynoPathElement *ea = &g_array_index (a->elements, DynoPathElement, i);
      const DynoPathElement *eb = &g_array_index (b->elements, DynoPathElement, i);

      if ((ea->name == NULL) != (eb->name == NULL))
        return FALSE;
      if (ea->name != NULL ? strcmp (ea->name, eb->name) != 0 : ea->index != eb->index)
        return FALSE;
    }
  return TRUE;
}

char *
dyno_path_to_display (const DynoPath *path)
{
  GString *out;

  g_return_val_if_fail (path != NULL, NULL);

  out = g_string_new ("[");
  for (guint i = 0; i < path->elements->len; i++)
    {
      const DynoPathElement *element = &g_array_index (path->elements, DynoPathElement, i);

      if (i > 0)
        g_string_append (out, ", ");
      if (element->name != NULL)
        g_string_append (out, element->name);
      else
        g_string_append_printf (out, "[%u]", element->index);
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

/* ---- expressions ------------------------------------------------------------------------ */

static DynoExpr *
expr_new (DynoExprKind kind)
{
  DynoExpr *expr = g_new0 (DynoExpr, 1);

  expr->kind = kind;
  return expr;
}

static DynoExpr *
expr_new_args (DynoExprKind kind,
               guint        n_args,
               ...)
{
  DynoExpr *expr = expr_new (kind);
  va_list ap;

  expr->args = g_ptr_array_new_full (n_args, (GDestroyNotify) dyno_expr_free);
  va_start (ap, n_args);
  for (guint i = 0; i < n_args; i++)
    g_ptr_array_add (expr->args, va_arg (ap, DynoExpr *));
  va_end (ap);
  return expr;
}

DynoExpr *
dyno_expr_new_path (DynoPath *path)
{
  DynoExpr *expr;

  g_return_val_if_fail (path != NULL, NULL);

  expr = expr_new (DYNO_EXPR_PATH);
  expr->path = path;
  return expr;
}

DynoExpr *
dyno_expr_new_value (DynoValue *value)
{
  DynoExpr *expr;

  g_return_val_if_fail (value != NULL, NULL);

  expr = expr_new (DYNO_EXPR_VALUE);
  expr->value = value;
  return expr;
}

DynoExpr *
dyno_expr_new_size (DynoPath *path)
{
  DynoExpr *expr;

  g_return_val_if_fail (path != NULL, NULL);

  expr = expr_new (DYNO_EXPR_SIZE);
  expr->path = path;
  return expr;
}

DynoExpr *
dyno_expr_new_compare (DynoCompareOp  op,
                       DynoExpr      *left,
                       DynoExpr      *right)
{
  DynoExpr *expr;

  g_return_val_if_fail (left != NULL && right != NULL, NULL);

  expr = expr_new_args (DYNO_EXPR_COMPARE, 2, left, right);
  expr->op.compare = op;
  return expr;
}

DynoExpr *
dyno_expr_new_between (DynoExpr *operand,
                       DynoExpr *low,
                       DynoExpr *high)
{
  g_return_val_if_fail (operand != NULL && low != NULL && high != NULL, NULL);
  return expr_new_args (DYNO_EXPR_BETWEEN, 3, operand, low, high);
}

DynoExpr *
dyno_expr_new_in (DynoExpr  *operand,
                  GPtrArray *list)
{
  DynoExpr *expr;

  g_return_val_if_fail (operand != NULL && list != NULL, NULL);

  expr = expr_new_args (DYNO_EXPR_IN, 1, operand);
  for (guint i = 0; i < list->len; i++)
    g_ptr_array_add (expr->args, g_ptr_array_index (list, i));
  /* The elements now belong to @expr; free only the array. */
  g_ptr_array_set_free_func (list, NULL);
  g_ptr_array_unref (list);
  return expr;
}

DynoExpr *
dyno_expr_new_and (DynoExpr *left,
                   DynoExpr *right)
{
  g_return_val_if_fail (left != NULL && right != NULL, NULL);
  return expr_new_args (DYNO_EXPR_AND, 2, left, right);
}

DynoExpr *
dyno_expr_new_or (DynoExpr *left,
                  DynoExpr *right)
{
  g_return_val_if_fail (left != NULL && right != NULL, NULL);
  return expr_new_args (DYNO_EXPR_OR, 2, left, right);
}

DynoExpr *
dyno_expr_new_not (DynoExpr *operand)
{
  g_return_val_if_fail (operand != NULL, NULL);
  return expr_new_args (DYNO_EXPR_NOT, 1, operand);
}

DynoExpr *
dyno_expr_new_paren (DynoExpr *inner)
{
  g_return_val_if_fail (inner != NULL, NULL);
  return expr_new_args (DYNO_EXPR_PAREN, 1, inner);
}

DynoExpr *
dyno_expr_new_function (DynoFunction func,
                        ...)
{
  DynoExpr *expr = expr_new (DYNO_EXPR_FUNCTION);
  DynoExpr *arg;
  va_list ap;

  expr->op.function = func;
  expr->args = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_expr_free);
  va_start (ap, func);
  while ((arg = va_arg (ap, DynoExpr *)) != NULL)
    g_ptr_array_add (expr->args, arg);
  va_end (ap);
  return expr;
}

DynoExpr *
dyno_expr_new_arith (DynoExprKind  kind,
                     DynoExpr     *a,
                     DynoExpr     *b)
{
  g_return_val_if_fail (kind == DYNO_EXPR_PLUS || kind == DYNO_EXPR_MINUS ||
                        kind == DYNO_EXPR_IF_NOT_EXISTS || kind == DYNO_EXPR_LIST_APPEND, NULL);
  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  return expr_new_args (kind, 2, a, b);
}

DynoExpr *
dyno_expr_copy (const DynoExpr *expr)
{
  DynoExpr *copy;

  g_return_val_if_fail (expr != NULL, NULL);

  copy = expr_new (expr->kind);
  copy->op = expr->op;
  copy->path = expr->path != NULL ? dyno_path_copy (expr->path) : NULL;
  copy->value = expr->value != NULL ? dyno_value_copy (expr->value) : NULL;
  copy->value_name = g_strdup (expr->value_name);
  copy->offset = expr->offset;
  copy->length = expr->length;
  if (expr->args != NULL)
    {
      copy->args = g_ptr_array_new_full (expr->args->len, (GDestroyNotify) dyno_expr_free);
      for (guint i = 0; i < expr->args->len; i++)
        g_ptr_array_add (copy->args, dyno_expr_copy (g_ptr_array_index (expr->args, i)));
    }
  return copy;
}

void
dyno_expr_free (DynoExpr *expr)
{
  if (expr == NULL)
    return;
  g_clear_pointer (&expr->path, dyno_path_free);
  g_clear_pointer (&expr->value, dyno_value_free);
  g_clear_pointer (&expr->value_name, g_free);
  g_clear_pointer (&expr->args, g_ptr_array_unref);
  g_free (expr);
}

const DynoExpr *
dyno_expr_skip_parens (const DynoExpr *expr)
{
  while (expr != NULL && expr->kind == DYNO_EXPR_PAREN && expr->args != NULL &&
         expr->args->len == 1)
    expr = g_ptr_array_index (expr->args, 0);
  return expr;
}

void
dyno_expr_flatten_and (const DynoExpr *expr,
                       GPtrArray      *out)
{
  expr = dyno_expr_skip_parens (expr);
  if (expr->kind == DYNO_EXPR_AND)
    {
      for (guint i = 0; i < expr->args->len; i++)
        dyno_expr_flatten_and (g_ptr_array_index (expr->args, i), out);
    }
  else
    g_ptr_array_add (out, (gpointer) expr);
}

gboolean
dyno_expr_equal (const DynoExpr *a,
                 const DynoExpr *b)
{
  guint na, nb;

  a = dyno_expr_skip_parens (a);
  b = dyno_expr_skip_parens (b);
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;
  if (a->kind != b->kind)
    return FALSE;
  if (a->kind == DYNO_EXPR_COMPARE && a->op.compare != b->op.compare)
    return FALSE;
  if (a->kind == DYNO_EXPR_FUNCTION && a->op.function != b->op.function)
    return FALSE;
  if ((a->path != NULL || b->path != NULL) && !dyno_path_equal (a->path, b->path))
    return FALSE;
  if (a->value != NULL || b->value != NULL)
    {
      if (a->value == NULL || b->value == NULL || !dyno_value_equal (a->value, b->value))
        return FALSE;
    }
  na = a->args != NULL ? a->args->len : 0;
  nb = b->args != NULL ? b->args->len : 0;
  if (na != nb)
    return FALSE;
  for (guint i = 0; i < na; i++)
    if (!dyno_expr_equal (g_ptr_array_index (a->args, i), g_ptr_array_index (b->args, i)))
      return FALSE;
  return TRUE;
}

/* ---- update expressions ----------------------------------------------------------------- */

static void
update_clause_free (gpointer data)
{
  DynoUpdateClause *clause = data;

  dyno_path_free (clause->path);
  dyno_expr_free (clause->operand);
  g_free (clause);
}

DynoUpdate *
dyno_update_new (void)
{
  DynoUpdate *update = g_new0 (DynoUpdate, 1);

  update->clauses = g_ptr_array_new_with_free_func (update_clause_free);
  return update;
}

void
dyno_update_add_clause (DynoUpdate       *update,
                        DynoUpdateAction  action,
                        DynoPath         *path,
                        DynoExpr         *operand)
{
  DynoUpdateClause *clause;

  g_return_if_fail (update != NULL);
  g_return_if_fail (path != NULL);

  clause = g_new0 (DynoUpdateClause, 1);
  clause->action = action;
  clause->path = path;
  clause->operand = operand;
  g_ptr_array_add (update->clauses, clause);
}

DynoUpdate *
dyno_update_copy (const DynoUpdate *update)
{
  DynoUpdate *copy;

  g_return_val_if_fail (update != NULL, NULL);

  copy = dyno_update_new ();
  for (guint i = 0; i < update->clauses->len; i++)
    {
      const DynoUpdateClause *clause = g_ptr_array_index (update->clauses, i);

      dyno_update_add_clause (copy, clause->action, dyno_path_copy (clause->path),
                              clause->operand != NULL ? dyno_expr_copy (clause->operand)
                                                      : NULL);
    }
  return copy;
}

void
dyno_update_free (DynoUpdate *update)
{
  if (update == NULL)
    return;
  g_ptr_array_unref (update->clauses);
  g_free (update);
}

gboolean
dyno_update_equal (const DynoUpdate *a,
                   const DynoUpdate *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL || a->clauses->len != b->clauses->len)
    return FALSE;
  for (guint i = 0; i < a->clauses->len; i++)
    {
      const DynoUpdateClause *ca = g_ptr_array_index (a->clauses, i);
      const DynoUpdateClause *cb = g_ptr_array_index (b->clauses, i);

      if (ca->action != cb->action || !dyno_path_equal (ca->path, cb->path))
        return FALSE;
      if ((ca->operand != NULL || cb->operand != NULL) &&
          !dyno_expr_equal (ca->operand, cb->operand))
        return FALSE;
    }
  return TRUE;
}

GPtrArray *
dyno_projection_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_path_free);
}

gboolean
dyno_projection_equal (GPtrArray *a,
                       GPtrArray *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL || a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (!dyno_path_equal (g_ptr_array_index (a, i), g_ptr_array_index (b, i)))
      return FALSE;
  return TRUE;
}
