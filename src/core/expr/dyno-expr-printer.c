/* dyno-expr-printer.c: expressions back to DynamoDB's syntax, with readable placeholders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-expr.h"
#include "dyno-expr-private.h"

#include <string.h>

/* Longest readable part of a generated placeholder (DynamoDB allows 255 bytes). */
#define MAX_PLACEHOLDER_BASE 40

/* ---- the shared walker ------------------------------------------------------------------ */

/* The attribute a path is about, for naming its values: the last map key in it. */
static const char *
path_value_hint (const DynoPath *path)
{
  for (guint i = path->elements->len; i > 0; i--)
    {
      const DynoPathElement *element = &g_array_index (path->elements, DynoPathElement, i - 1);

      if (element->name != NULL)
        return element->name;
    }
  return NULL;
}

static int
condition_precedence (const DynoExpr *expr)
{
  switch (expr->kind)
    {
    case DYNO_EXPR_OR:
      return 1;
    case DYNO_EXPR_AND:
      return 2;
    case DYNO_EXPR_NOT:
      return 3;
    default:
      return 4;
    }
}

static void write_condition (const DynoExprWriter *w, GString *out, const DynoExpr *expr);

static void
write_operand (const DynoExprWriter *w,
               GString              *out,
               const DynoExpr       *expr,
               const char           *hint,
               const char           *suffix)
{
  switch (expr->kind)
    {
    case DYNO_EXPR_PATH:
      w->write_path (w->data, out, expr->path);
      break;
    case DYNO_EXPR_VALUE:
      w->write_value (w->data, out, expr, hint, suffix);
      break;
    case DYNO_EXPR_SIZE:
      g_string_append (out, "size(");
      w->write_path (w->data, out, expr->path);
      g_string_append_c (out, ')');
      break;
    case DYNO_EXPR_PLUS:
    case DYNO_EXPR_MINUS:
      write_operand (w, out, g_ptr_array_index (expr->args, 0), hint, suffix);
      g_string_append (out, expr->kind == DYNO_EXPR_PLUS ? " + " : " - ");
      write_operand (w, out, g_ptr_array_index (expr->args, 1), hint, suffix);
      break;
    case DYNO_EXPR_IF_NOT_EXISTS:
    case DYNO_EXPR_LIST_APPEND:
      g_string_append (out, expr->kind == DYNO_EXPR_IF_NOT_EXISTS ? "if_not_exists("
                                                                  : "list_append(");
      write_operand (w, out, g_ptr_array_index (expr->args, 0), hint, suffix);
      g_string_append (out, ", ");
      write_operand (w, out, g_ptr_array_index (expr->args, 1), hint, suffix);
      g_string_append_c (out, ')');
      break;
    default:
      /* A condition where an operand belongs (only in hand-built trees): keep it visible. */
      g_string_append_c (out, '(');
      write_condition (w, out, expr);
      g_string_append_c (out, ')');
      break;
    }
}

/* The attribute hint of an operand, with the suffix that says how it is used. */
static const char *
operand_hint (const DynoExpr  *expr,
              const char     **suffix)
{
  *suffix = "";
  if (expr->kind == DYNO_EXPR_PATH)
    return path_value_hint (expr->path);
  if (expr->kind == DYNO_EXPR_SIZE)
    {
      *suffix = "_size";
      return path_value_hint (expr->path);
    }
  return NULL;
}

static void
write_child (const DynoExprWriter *w,
             GString              *out,
             const DynoExpr       *child,
             gboolean              parens)
{
  if (parens)
    g_string_append_c (out, '(');
  write_condition (w, out, child);
  if (parens)
    g_string_append_c (out, ')');
}

static void
write_condition (const DynoExprWriter *w,
                 GString              *out,
                 const DynoExpr       *expr)
{
  const char *suffix = "";
  const char *hint = NULL;

  switch (expr->kind)
    {
    case DYNO_EXPR_OR:
    case DYNO_EXPR_AND:
      {
        const DynoExpr *left = g_ptr_array_index (expr->args, 0);
        const DynoExpr *right = g_ptr_array_index (expr->args, 1);
        int prec = condition_precedence (expr);

        /* Chains group to the right, so a left child of the same kind needs parentheses. */
        write_child (w, out, left, condition_precedence (left) < prec || left->kind == expr->kind);
        g_string_append (out, expr->kind == DYNO_EXPR_OR ? " OR " : " AND ");
        write_child (w, out, right, condition_precedence (right) < prec);
      }
      break;
    case DYNO_EXPR_NOT:
      {
        const DynoExpr *inner = g_ptr_array_index (expr->args, 0);

        g_string_append (out, "NOT ");
        write_child (w, out, inner, condition_precedence (inner) < 4);
      }
      break;
    case DYNO_EXPR_PAREN:
      /* Nested parentheses are written once: DynamoDB rejects "((…))". */
      g_string_append_c (out, '(');
      write_condition (w, out, dyno_expr_skip_parens (expr));
      g_string_append_c (out, ')');
      break;
    case DYNO_EXPR_COMPARE:
      {
        const DynoExpr *left = g_ptr_array_index (expr->args, 0);
        const DynoExpr *right = g_ptr_array_index (expr->args, 1);
        const char *left_suffix, *right_suffix;
        const char *left_hint = operand_hint (left, &left_suffix);
        const char *right_hint = operand_hint (right, &right_suffix);

        write_operand (w, out, left, right_hint, right_suffix);
        g_string_append_printf (out, " %s ", dyno_compare_op_to_string (expr->op.compare));
        write_operand (w, out, right, left_hint, left_suffix);
      }
      break;
    case DYNO_EXPR_BETWEEN:
      {
        const DynoExpr *operand = g_ptr_array_index (expr->args, 0);
        g_autofree char *low = NULL;
        g_autofree char *high = NULL;

        hint = operand_hint (operand, &suffix);
        low = g_strconcat (suffix, "_low", NULL);
        high = g_strconcat (suffix, "_high", NULL);
        write_operand (w, out, operand, NULL, "");
        g_string_append (out, " BETWEEN ");
        write_operand (w, out, g_ptr_array_index (expr->args, 1), hint, low);
        g_string_append (out, " AND ");
        write_operand (w, out, g_ptr_array_index (expr->args, 2), hint, high);
      }
      break;
    case DYNO_EXPR_IN:
      {
        const DynoExpr *operand = g_ptr_array_index (expr->args, 0);

        hint = operand_hint (operand, &suffix);
        write_operand (w, out, operand, NULL, "");
        g_string_append (out, " IN (");
        for (guint i = 1; i < expr->args->len; i++)
          {
            if (i > 1)
              g_string_append (out, ", ");
            write_operand (w, out, g_ptr_array_index (expr->args, i), hint, suffix);
          }
        g_string_append_c (out, ')');
      }
      break;
    case DYNO_EXPR_FUNCTION:
      {
        const char *fsuffix = "";

        if (expr->args->len > 0)
          hint = operand_hint (g_ptr_array_index (expr->args, 0), &suffix);
        if (expr->op.function == DYNO_FUNCTION_ATTRIBUTE_TYPE)
          fsuffix = "_type";
        g_string_append (out, dyno_function_to_string (expr->op.function));
        g_string_append_c (out, '(');
        for (guint i = 0; i < expr->args->len; i++)
          {
            g_autofree char *full = g_strconcat (suffix, fsuffix, NULL);

            if (i > 0)
              g_string_append (out, ", ");
            write_operand (w, out, g_ptr_array_index (expr->args, i), i > 0 ? hint : NULL,
                           full);
          }
        g_string_append_c (out, ')');
      }
      break;
    default:
      /* an operand where a condition belongs (hand-built trees) */
      write_operand (w, out, expr, NULL, "");
      break;
    }
}

void
dyno_expr_write_condition (const DynoExprWriter *writer,
                           GString              *out,
                           const DynoExpr       *expr)
{
  write_condition (writer, out, expr);
}

void
dyno_expr_write_update (const DynoExprWriter *writer,
                        GString              *out,
                        const DynoUpdate     *update)
{
  static const char *const keywords[] = { "SET", "REMOVE", "ADD", "DELETE" };
  gboolean done[4] = { FALSE, FALSE, FALSE, FALSE };

  /* One section per action, in the order each first appears. */
  for (guint i = 0; i < update->clauses->len; i++)
    {
      const DynoUpdateClause *first = g_ptr_array_index (update->clauses, i);
      gboolean first_in_section = TRUE;

      if ((guint) first->action >= G_N_ELEMENTS (done) || done[first->action])
        continue;
      done[first->action] = TRUE;
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, keywords[first->action]);
      g_string_append_c (out, ' ');
      for (guint j = i; j < update->clauses->len; j++)
        {
          const DynoUpdateClause *clause = g_ptr_array_index (update->clauses, j);
          const char *hint = path_value_hint (clause->path);

          if (clause->action != first->action)
            continue;
          if (!first_in_section)
            g_string_append (out, ", ");
          first_in_section = FALSE;
          writer->write_path (writer->data, out, clause->path);
          if (clause->operand == NULL)
            continue;
          g_string_append (out, clause->action == DYNO_UPDATE_SET ? " = " : " ");
          write_operand (writer, out, clause->operand, hint, "");
        }
    }
}

void
dyno_expr_write_projection (const DynoExprWriter *writer,
                            GString              *out,
                            GPtrArray            *paths)
{
  for (guint i = 0; i < paths->len; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      writer->write_path (writer->data, out, g_ptr_array_index (paths, i));
    }
}

/* ---- the printer ------------------------------------------------------------------------ */

struct _DynoExprPrinter {
  gboolean    alias_all;
  GPtrArray  *name_placeholders;   /* char*, owned */
  GPtrArray  *names;               /* char*, owned */
  GHashTable *name_to_placeholder; /* name -> placeholder, borrowed from the arrays */
  GHashTable *taken_names;         /* placeholder set, borrowed */
  GPtrArray  *value_placeholders;  /* char*, owned */
  GPtrArray  *values;              /* DynoValue*, owned */
  GHashTable *taken_values;        /* placeholder -> index + 1 */
};

DynoExprPrinter *
dyno_expr_printer_new (void)
{
  DynoExprPrinter *printer = g_new0 (DynoExprPrinter, 1);

  printer->name_placeholders = g_ptr_array_new_with_free_func (g_free);
  printer->names = g_ptr_array_new_with_free_func (g_free);
  printer->name_to_placeholder = g_hash_table_new (g_str_hash, g_str_equal);
  printer->taken_names = g_hash_table_new (g_str_hash, g_str_equal);
  printer->value_placeholders = g_ptr_array_new_with_free_func (g_free);
  printer->values = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_value_free);
  printer->taken_values = g_hash_table_new (g_str_hash, g_str_equal);
  return printer;
}

void
dyno_expr_printer_free (DynoExprPrinter *printer)
{
  if (printer == NULL)
    return;
  g_hash_table_unref (printer->name_to_placeholder);
  g_hash_table_unref (printer->taken_names);
  g_hash_table_unref (printer->taken_values);
  g_ptr_array_unref (printer->name_placeholders);
  g_ptr_array_unref (printer->names);
  g_ptr_array_unref (printer->value_placeholders);
  g_ptr_array_unref (printer->values);
  g_free (printer);
}

void
dyno_expr_printer_set_alias_all (DynoExprPrinter *printer,
                                 gboolean         alias_all)
{
  g_return_if_fail (printer != NULL);
  printer->alias_all = !!alias_all;
}

/* A readable placeholder body from any name: runs of other characters become one '_'. */
static char *
sanitize (const char *name)
{
  GString *out = g_string_new (NULL);
  gboolean pending = FALSE;

  for (const char *c = name; *c != '\0'; c++)
    {
      if (g_ascii_isalnum (*c) || *c == '_')
        {
          if (pending && out->len > 0)
            g_string_append_c (out, '_');
          pending = FALSE;
          g_string_append_c (out, *c);
        }
      else
        pending = TRUE;
      if (out->len >= MAX_PLACEHOLDER_BASE)
        break;
    }
  if (out->len == 0)
    g_string_append (out, "attr");
  else if (g_ascii_isdigit (out->str[0]))
    g_string_prepend_c (out, 'n');
  return g_string_free (out, FALSE);
}

static const char *
name_placeholder (DynoExprPrinter *printer,
                  const char      *name)
{
  const char *existing = g_hash_table_lookup (printer->name_to_placeholder, name);
  g_autofree char *base = NULL;
  char *candidate;

  if (existing != NULL)
    return existing;
  base = sanitize (name);
  candidate = g_strconcat ("#", base, NULL);
  for (guint n = 1; g_hash_table_contains (printer->taken_names, candidate); n++)
    {
      g_free (candidate);
      candidate = g_strdup_printf ("#%s_%u", base, n);
    }
  g_ptr_array_add (printer->name_placeholders, candidate);
  g_ptr_array_add (printer->names, g_strdup (name));
  g_hash_table_add (printer->taken_names, candidate);
  g_hash_table_insert (printer->name_to_placeholder,
                       g_ptr_array_index (printer->names, printer->names->len - 1), candidate);
  return candidate;
}

static void
printer_write_name (GString    *out,
                    const char *name,
                    gpointer    data)
{
  DynoExprPrinter *printer = data;

  if (printer->alias_all || !dyno_name_is_plain (name))
    g_string_append (out, name_placeholder (printer, name));
  else
    g_string_append (out, name);
}

static void
printer_write_path (gpointer        data,
                    GString        *out,
                    const DynoPath *path)
{
  dyno_expr_append_path (out, path, printer_write_name, data);
}

static gboolean
is_valid_value_placeholder (const char *name)
{
  if (name == NULL || name[0] != ':' || name[1] == '\0' || strlen (name) > 255)
    return FALSE;
  for (const char *c = name + 1; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '_')
      return FALSE;
  return TRUE;
}

/* TRUE when @placeholder is free (then taken for @value) or already holds an equal value. */
static gboolean
try_value_placeholder (DynoExprPrinter *printer,
                       const char      *placeholder,
                       const DynoValue *value)
{
  gpointer index = g_hash_table_lookup (printer->taken_values, placeholder);

  if (index != NULL)
    return dyno_value_equal (g_ptr_array_index (printer->values, GPOINTER_TO_UINT (index) - 1),
                             value);
  g_ptr_array_add (printer->value_placeholders, g_strdup (placeholder));
  g_ptr_array_add (printer->values, dyno_value_copy (value));
  g_hash_table_insert (printer->taken_values,
                       g_ptr_array_index (printer->value_placeholders,
                                          printer->value_placeholders->len - 1),
                       GUINT_TO_POINTER (printer->values->len));
  return TRUE;
}

static void
printer_write_value (gpointer        data,
                     GString        *out,
                     const DynoExpr *node,
                     const char     *attribute,
                     const char     *suffix)
{
  DynoExprPrinter *printer = data;
  g_autofree char *base = NULL;
  g_autofree char *candidate = NULL;

  if (is_valid_value_placeholder (node->value_name) &&
      try_value_placeholder (printer, node->value_name, node->value))
    {
      g_string_append (out, node->value_name);
      return;
    }
  if (attribute != NULL)
    {
      g_autofree char *clean = sanitize (attribute);

      base = g_strconcat (clean, suffix, NULL);
    }
  else
    base = g_strconcat ("v", suffix, NULL);
  candidate = g_strconcat (":", base, NULL);
  for (guint n = 1; !try_value_placeholder (printer, candidate, node->value); n++)
    {
      g_free (candidate);
      candidate = g_strdup_printf (":%s_%u", base, n);
    }
  g_string_append (out, candidate);
}

static DynoExprWriter
printer_writer (DynoExprPrinter *printer)
{
  DynoExprWriter writer = { printer_write_path, printer_write_value, printer };

  return writer;
}

char *
dyno_expr_printer_print_condition (DynoExprPrinter *printer,
                                   const DynoExpr  *expr)
{
  DynoExprWriter writer;
  GString *out;

  g_return_val_if_fail (printer != NULL, NULL);
  g_return_val_if_fail (expr != NULL, NULL);

  writer = printer_writer (printer);
  out = g_string_new (NULL);
  dyno_expr_write_condition (&writer, out, expr);
  return g_string_free (out, FALSE);
}

char *
dyno_expr_printer_print_projection (DynoExprPrinter *printer,
                                    GPtrArray       *paths)
{
  DynoExprWriter writer;
  GString *out;

  g_return_val_if_fail (printer != NULL, NULL);
  g_return_val_if_fail (paths != NULL, NULL);

  writer = printer_writer (printer);
  out = g_string_new (NULL);
  dyno_expr_write_projection (&writer, out, paths);
  return g_string_free (out, FALSE);
}

char *
dyno_expr_printer_print_update (DynoExprPrinter  *printer,
                                const DynoUpdate *update)
{
  DynoExprWriter writer;
  GString *out;

  g_return_val_if_fail (printer != NULL, NULL);
  g_return_val_if_fail (update != NULL, NULL);

  writer = printer_writer (printer);
  out = g_string_new (NULL);
  dyno_expr_write_update (&writer, out, update);
  return g_string_free (out, FALSE);
}

guint
dyno_expr_printer_get_n_names (DynoExprPrinter *printer)
{
  g_return_val_if_fail (printer != NULL, 0);
  return printer->names->len;
}

void
dyno_expr_printer_get_name (DynoExprPrinter  *printer,
                            guint             i,
                            const char      **placeholder,
                            const char      **name)
{
  g_return_if_fail (printer != NULL);
  g_return_if_fail (i < printer->names->len);

  if (placeholder != NULL)
    *placeholder = g_ptr_array_index (printer->name_placeholders, i);
  if (name != NULL)
    *name = g_ptr_array_index (printer->names, i);
}

guint
dyno_expr_printer_get_n_values (DynoExprPrinter *printer)
{
  g_return_val_if_fail (printer != NULL, 0);
  return printer->values->len;
}

void
dyno_expr_printer_get_value (DynoExprPrinter  *printer,
                             guint             i,
                             const char      **placeholder,
                             const DynoValue **value)
{
  g_return_if_fail (printer != NULL);
  g_return_if_fail (i < printer->values->len);

  if (placeholder != NULL)
    *placeholder = g_ptr_array_index (printer->value_placeholders, i);
  if (value != NULL)
    *value = g_ptr_array_index (printer->values, i);
}
