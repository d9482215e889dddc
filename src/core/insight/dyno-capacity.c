/* dyno-capacity.c: read and write units, and estimates of a read before it runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-capacity.h"

#include <math.h>
#include <string.h>

#include "dyno-expr.h"

#define HOURS_PER_MONTH 730.0

static guint64
blocks (guint64 bytes,
        guint64 block)
{
  guint64 n = bytes / block + (bytes % block != 0 ? 1 : 0);

  return MAX (n, 1);
}

double
dyno_capacity_read_units (guint64  bytes,
                          gboolean consistent)
{
  return (double) blocks (bytes, DYNO_CAPACITY_READ_BLOCK) * (consistent ? 1.0 : 0.5);
}

double
dyno_capacity_write_units (guint64 bytes)
{
  return (double) blocks (bytes, DYNO_CAPACITY_WRITE_BLOCK);
}

guint64
dyno_capacity_items_per_page (double item_bytes,
                              guint  limit)
{
  guint64 n;

  if (item_bytes < 1.0)
    item_bytes = 1.0;
  /* the page goes on while it has read less than 1 MB: the item that passes it is the last */
  n = (guint64) ceil ((double) DYNO_CAPACITY_PAGE_BYTES / item_bytes);
  if ((double) n * item_bytes == (double) DYNO_CAPACITY_PAGE_BYTES)
    n++;
  n = MAX (n, 1);
  if (limit > 0)
    n = MIN (n, limit);
  return n;
}

void
dyno_capacity_estimate_read (const DynoReadShape *shape,
                             DynoReadEstimate    *out)
{
  guint64 per_page;

  g_return_if_fail (shape != NULL && out != NULL);

  *out = (DynoReadEstimate) { 0, };
  out->basis = shape->basis;
  out->upper_bound = shape->upper_bound;

  if (shape->basis == DYNO_CAPACITY_BASIS_UNKNOWN)
    {
      /* all that is known: no page reads more than 1 MB (and a little) */
      out->first_page_units = dyno_capacity_read_units (DYNO_CAPACITY_PAGE_BYTES,
                                                        shape->consistent);
      return;
    }

  per_page = dyno_capacity_items_per_page (shape->item_bytes, shape->limit);
  out->items = shape->items;
  out->bytes = (guint64) llround ((double) shape->items * shape->item_bytes);

  /* full pages, then the rest; an empty result is still one page at the minimum */
  {
    guint64 full = shape->items / per_page;
    guint64 rest = shape->items % per_page;
    double full_units = dyno_capacity_read_units ((guint64) llround ((double) per_page *
                                                                    shape->item_bytes),
                                                  shape->consistent);
    double rest_units = dyno_capacity_read_units ((guint64) llround ((double) rest *
                                                                    shape->item_bytes),
                                                  shape->consistent);

    out->pages = (guint) MIN (full + (rest > 0 || full == 0 ? 1 : 0), G_MAXUINT);
    out->units = (double) full * full_units + (rest > 0 || full == 0 ? rest_units : 0.0);
    out->first_page_units = full > 0 ? full_units : rest_units;
  }
}

double
dyno_capacity_monthly_units (double units,
                             double requests_per_second)
{
  return units * requests_per_second * 3600.0 * HOURS_PER_MONTH;
}

double
dyno_capacity_monthly_cost (double units,
                            double requests_per_second,
                            double usd_per_million)
{
  return dyno_capacity_monthly_units (units, requests_per_second) / 1e6 * usd_per_million;
}

/* ---- the shape of a request's read ------------------------------------------------------- */

typedef struct {
  const DynoExpr *pk;   /* pk = :v */
  const DynoExpr *sk;   /* the sort-key condition, or NULL */
} KeyParts;

static const char *
path_name (const DynoExpr *operand)
{
  operand = dyno_expr_skip_parens (operand);
  if (operand->kind != DYNO_EXPR_PATH || dyno_path_get_length (operand->path) != 1)
    return NULL;
  return dyno_path_get_attribute (operand->path);
}

/* The attribute a key condition's clause is about (its left side, or begins_with's path). */
static const char *
clause_attribute (const DynoExpr *clause)
{
  clause = dyno_expr_skip_parens (clause);
  switch (clause->kind)
    {
    case DYNO_EXPR_COMPARE:
    case DYNO_EXPR_BETWEEN:
    case DYNO_EXPR_FUNCTION:
      return path_name (g_ptr_array_index (clause->args, 0));
    default:
      return NULL;
    }
}

static gboolean
split_key_condition (const DynoExpr *expr,
                     const char     *pk_name,
                     KeyParts       *parts)
{
  expr = dyno_expr_skip_parens (expr);
  if (expr->kind == DYNO_EXPR_AND)
    return split_key_condition (g_ptr_array_index (expr->args, 0), pk_name, parts) &&
           split_key_condition (g_ptr_array_index (expr->args, 1), pk_name, parts);

  if (g_strcmp0 (clause_attribute (expr), pk_name) == 0 && expr->kind == DYNO_EXPR_COMPARE &&
      expr->op.compare == DYNO_COMPARE_EQ && parts->pk == NULL)
    parts->pk = expr;
  else if (parts->sk == NULL && clause_attribute (expr) != NULL)
    parts->sk = expr;
  else
    return FALSE;
  return TRUE;
}

static const DynoValue *
operand_value (const DynoExpr *operand)
{
  operand = dyno_expr_skip_parens (operand);
  return operand->kind == DYNO_EXPR_VALUE ? operand->value : NULL;
}

static gboolean
begins_with (const DynoValue *value,
             const DynoValue *prefix)
{
  gsize len, prefix_len;
  const void *data, *prefix_data;

  if (dyno_value_get_kind (value) != dyno_value_get_kind (prefix))
    return FALSE;
  if (dyno_value_get_kind (value) == DYNO_VALUE_S)
    {
      data = dyno_value_get_string (value, &len);
      prefix_data = dyno_value_get_string (prefix, &prefix_len);
    }
  else if (dyno_value_get_kind (value) == DYNO_VALUE_B)
    {
      data = dyno_value_get_binary (value, &len);
      prefix_data = dyno_value_get_binary (prefix, &prefix_len);
    }
  else
    return FALSE;
  return prefix_len <= len && memcmp (data, prefix_data, prefix_len) == 0;
}

/* Whether @value (NULL: the item lacks the attribute) meets a key clause.  Only the forms a
 * key condition allows are understood; anything else counts as met (an upper bound). */
static gboolean
key_clause_holds (const DynoExpr  *clause,
                  const DynoValue *value)
{
  const DynoValue *a, *b;

  clause = dyno_expr_skip_parens (clause);
  if (value == NULL)
    return FALSE;

  switch (clause->kind)
    {
    case DYNO_EXPR_COMPARE:
      a = operand_value (g_ptr_array_index (clause->args, 1));
      if (a == NULL || dyno_value_get_kind (a) != dyno_value_get_kind (value))
        return a == NULL;
      switch (clause->op.compare)
        {
        case DYNO_COMPARE_EQ: return dyno_value_compare (value, a) == 0;
        case DYNO_COMPARE_NE: return dyno_value_compare (value, a) != 0;
        case DYNO_COMPARE_LT: return dyno_value_compare (value, a) < 0;
        case DYNO_COMPARE_LE: return dyno_value_compare (value, a) <= 0;
        case DYNO_COMPARE_GT: return dyno_value_compare (value, a) > 0;
        case DYNO_COMPARE_GE: return dyno_value_compare (value, a) >= 0;
        default: return TRUE;
        }
    case DYNO_EXPR_BETWEEN:
      a = operand_value (g_ptr_array_index (clause->args, 1));
      b = operand_value (g_ptr_array_index (clause->args, 2));
      if (a == NULL || b == NULL)
        return TRUE;
      return dyno_value_get_kind (a) == dyno_value_get_kind (value) &&
             dyno_value_compare (value, a) >= 0 && dyno_value_compare (value, b) <= 0;
    case DYNO_EXPR_FUNCTION:
      if (clause->op.function != DYNO_FUNCTION_BEGINS_WITH)
        return TRUE;
      a = operand_value (g_ptr_array_index (clause->args, 1));
      return a == NULL || begins_with (value, a);
    default:
      return TRUE;
    }
}

static double
mean_size (GPtrArray *items)
{
  guint64 total = 0;

  if (items == NULL || items->len == 0)
    return 0.0;
  for (guint i = 0; i < items->len; i++)
    total += dyno_item_get_size (g_ptr_array_index (items, i));
  return (double) total / items->len;
}

static void
query_shape (const DynoRequest   *request,
             const DynoTableInfo *info,
             GPtrArray           *sample,
             DynoReadShape       *out)
{
  const char *pk_name = dyno_table_info_get_partition_key (info)->name;
  const char *sk_name = dyno_table_info_get_sort_key (info)->name;
  const DynoValue *pk_value;
  KeyParts parts = { NULL, NULL };
  g_autoptr(GPtrArray) selected = NULL;

  if (request->index_name != NULL)
    {
      const DynoIndexInfo *index = dyno_table_info_find_index (info, request->index_name);

      if (index == NULL)
        return;
      pk_name = index->partition_key.name;
      sk_name = index->sort_key.name;
    }

  if (sample == NULL || sample->len == 0 || request->key_condition == NULL ||
      !split_key_condition (request->key_condition, pk_name, &parts) || parts.pk == NULL)
    return;
  pk_value = operand_value (g_ptr_array_index (parts.pk->args, 1));
  if (pk_value == NULL)
    return;
  if (parts.sk != NULL && g_strcmp0 (clause_attribute (parts.sk), sk_name) != 0)
    return;

  selected = g_ptr_array_new ();
  for (guint i = 0; i < sample->len; i++)
    {
      DynoItem *item = g_ptr_array_index (sample, i);
      const DynoValue *value = dyno_item_lookup (item, pk_name);

      if (value == NULL || !dyno_value_equal (value, pk_value))
        continue;
      if (parts.sk != NULL && !key_clause_holds (parts.sk, dyno_item_lookup (item, sk_name)))
        continue;
      g_ptr_array_add (selected, item);
    }

  out->basis = DYNO_CAPACITY_BASIS_SAMPLED;
  out->items = selected->len;
  out->item_bytes = selected->len > 0 ? mean_size (selected) : mean_size (sample);
}

static void
scan_shape (const DynoRequest   *request,
            const DynoTableInfo *info,
            GPtrArray           *sample,
            DynoReadShape       *out)
{
  gint64 count = dyno_table_info_get_item_count (info);
  gint64 size = dyno_table_info_get_size_bytes (info);

  if (count < 0)
    return;
  out->basis = DYNO_CAPACITY_BASIS_DESCRIBED;
  out->items = (guint64) count;
  if (count > 0 && size > 0)
    out->item_bytes = (double) size / (double) count;
  else if (sample != NULL && sample->len > 0)
    out->item_bytes = mean_size (sample);
  else if (count > 0)
    {
      out->basis = DYNO_CAPACITY_BASIS_UNKNOWN;
      return;
    }
  if (request->total_segments > 1)
    out->items = (out->items + (guint64) request->total_segments - 1) /
                 (guint64) request->total_segments;
}

void
dyno_capacity_shape_for_request (const DynoRequest   *request,
                                 const DynoTableInfo *info,
                                 GPtrArray           *sample,
                                 DynoReadShape       *out)
{
  g_return_if_fail (request != NULL && out != NULL);

  *out = (DynoReadShape) { 0, };
  out->basis = DYNO_CAPACITY_BASIS_UNKNOWN;
  out->consistent = request->consistent_read == DYNO_TRISTATE_TRUE;
  out->limit = request->limit > 0 ? (guint) MIN (request->limit, G_MAXUINT) : 0;
  if (info == NULL)
    return;

  if (request->operation == DYNO_OP_QUERY)
    query_shape (request, info, sample, out);
  else if (request->operation == DYNO_OP_SCAN)
    scan_shape (request, info, sample, out);
}
