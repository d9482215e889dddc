/* dyno-query-draft-partiql.c: a PartiQL SELECT read back into the query builder's model
 *
 * The other direction of the "partiql" code target (dyno-codegen-partiql.c): the statement is
 * parsed (dyno-partiql.c), turned into the Query or Scan request DynamoDB would run for it, and
 * that request is loaded with dyno_query_draft_from_request().
 *
 * How DynamoDB runs a SELECT [DG ql-reference.select]: as a Query when the WHERE has an
 * equality or IN on the partition key, else as a full Scan; ORDER BY names the key the results
 * are sorted by.  The builder says one Query or one Scan, so:
 *
 *   - the WHERE is split into its top-level AND terms (parentheses around an AND are looked
 *     through; a term's own outer parentheses are dropped, the printer puts back those the
 *     precedence needs);
 *   - the first term `pk = value` (either side; `pk IN [value]` is the same) makes it a Query
 *     and is the key condition's first half;
 *   - then the first term on the sort key of a key condition's shape (= < <= > >= BETWEEN
 *     begins_with against values) is its second half; `sk >= a` and `sk <= b` as the only two
 *     such terms are read as `sk BETWEEN a AND b`, which is what they say;
 *   - every other term, in order, is the filter (an AND of them, nesting to the right as the
 *     parser nests a chain).  A Query's filter cannot name a key attribute of the queried
 *     table or index (DynamoDB: "Filter Expression can only contain non-primary key
 *     attributes", dyno-request-validate.c), where PartiQL filters on anything: such a term
 *     is refused, not moved to a Scan (which would read the whole table for what DynamoDB
 *     answers with a Query);
 *   - without a partition key equality the read is a Scan whose filter is the whole WHERE.
 *     Several partition key values (IN with more than one, an OR of equalities) are refused:
 *     PartiQL runs one Query per value, the builder one Query, and a Scan would again read
 *     the whole table.
 *
 * Values are kept as the parser read them (a ? already bound to its parameter); a key value
 * of another type than the key's stays in the key condition, where the draft's validation
 * reports it as DynamoDB would.  A WHERE term has the same meaning as a FilterExpression
 * term: dyno-codegen-partiql.c writes one as the other, and the parser reads IS [NOT]
 * MISSING as attribute_[not_]exists and IS <type> as attribute_type.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-query-draft.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-partiql.h"

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
  /* Translators: the reason follows (a PartiQL statement opened in the query builder). */
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_UNSUPPORTED,
               _("Not expressible in the query builder: %s."), reason);
  return FALSE;
}

static const DynoExpr *
arg (const DynoExpr *expr,
     guint           i)
{
  return dyno_expr_skip_parens (g_ptr_array_index (expr->args, i));
}

static gboolean
is_attribute (const DynoExpr *expr,
              const char     *attribute)
{
  return expr->kind == DYNO_EXPR_PATH && dyno_path_get_length (expr->path) == 1 &&
         strcmp (dyno_path_get_attribute (expr->path), attribute) == 0;
}

/* ---- key terms ------------------------------------------------------------------------------ */

typedef struct {
  DynoSortKeyOperator  op;
  const DynoValue     *values[2];
} KeyTerm;

/* `attribute op value`, `value op attribute` (read the other way round), `attribute BETWEEN
 * value AND value`, begins_with (attribute, value), `attribute IN [value]`. */
static gboolean
read_key_term (const DynoExpr *expr,
               const char     *attribute,
               KeyTerm        *term)
{
  static const DynoSortKeyOperator ops[] = {
    [DYNO_COMPARE_EQ] = DYNO_SORT_KEY_EQ, [DYNO_COMPARE_NE] = DYNO_SORT_KEY_NONE,
    [DYNO_COMPARE_LT] = DYNO_SORT_KEY_LT, [DYNO_COMPARE_LE] = DYNO_SORT_KEY_LE,
    [DYNO_COMPARE_GT] = DYNO_SORT_KEY_GT, [DYNO_COMPARE_GE] = DYNO_SORT_KEY_GE,
  };
  static const DynoSortKeyOperator flipped[] = {
    [DYNO_COMPARE_EQ] = DYNO_SORT_KEY_EQ, [DYNO_COMPARE_NE] = DYNO_SORT_KEY_NONE,
    [DYNO_COMPARE_LT] = DYNO_SORT_KEY_GT, [DYNO_COMPARE_LE] = DYNO_SORT_KEY_GE,
    [DYNO_COMPARE_GT] = DYNO_SORT_KEY_LT, [DYNO_COMPARE_GE] = DYNO_SORT_KEY_LE,
  };

  memset (term, 0, sizeof *term);
  if (attribute == NULL)
    return FALSE;
  expr = dyno_expr_skip_parens (expr);
  switch (expr->kind)
    {
    case DYNO_EXPR_COMPARE:
      if (is_attribute (arg (expr, 0), attribute) && arg (expr, 1)->kind == DYNO_EXPR_VALUE)
        {
          term->op = ops[expr->op.compare];
          term->values[0] = arg (expr, 1)->value;
        }
      else if (is_attribute (arg (expr, 1), attribute) && arg (expr, 0)->kind == DYNO_EXPR_VALUE)
        {
          term->op = flipped[expr->op.compare];
          term->values[0] = arg (expr, 0)->value;
        }
      return term->op != DYNO_SORT_KEY_NONE;

    case DYNO_EXPR_BETWEEN:
      if (!is_attribute (arg (expr, 0), attribute) || arg (expr, 1)->kind != DYNO_EXPR_VALUE ||
          arg (expr, 2)->kind != DYNO_EXPR_VALUE)
        return FALSE;
      term->op = DYNO_SORT_KEY_BETWEEN;
      term->values[0] = arg (expr, 1)->value;
      term->values[1] = arg (expr, 2)->value;
      return TRUE;

    case DYNO_EXPR_FUNCTION:
      if (expr->op.function != DYNO_FUNCTION_BEGINS_WITH ||
          !is_attribute (arg (expr, 0), attribute) || arg (expr, 1)->kind != DYNO_EXPR_VALUE)
        return FALSE;
      term->op = DYNO_SORT_KEY_BEGINS_WITH;
      term->values[0] = arg (expr, 1)->value;
      return TRUE;

    case DYNO_EXPR_IN:
      if (expr->args->len != 2 || !is_attribute (arg (expr, 0), attribute) ||
          arg (expr, 1)->kind != DYNO_EXPR_VALUE)
        return FALSE;
      term->op = DYNO_SORT_KEY_EQ;
      term->values[0] = arg (expr, 1)->value;
      return TRUE;

    default:
      return FALSE;
    }
}

static DynoExpr *
value_expr (const DynoValue *value)
{
  return dyno_expr_new_value (dyno_value_copy (value));
}

static DynoExpr *
build_key_term (const char    *attribute,
                const KeyTerm *term)
{
  static const DynoCompareOp compare[] = {
    [DYNO_SORT_KEY_EQ] = DYNO_COMPARE_EQ, [DYNO_SORT_KEY_LT] = DYNO_COMPARE_LT,
    [DYNO_SORT_KEY_LE] = DYNO_COMPARE_LE, [DYNO_SORT_KEY_GT] = DYNO_COMPARE_GT,
    [DYNO_SORT_KEY_GE] = DYNO_COMPARE_GE,
  };
  DynoExpr *path = dyno_expr_new_path (dyno_path_new (attribute));

  switch (term->op)
    {
    case DYNO_SORT_KEY_BETWEEN:
      return dyno_expr_new_between (path, value_expr (term->values[0]),
                                    value_expr (term->values[1]));
    case DYNO_SORT_KEY_BEGINS_WITH:
      return dyno_expr_new_function (DYNO_FUNCTION_BEGINS_WITH, path,
                                     value_expr (term->values[0]), NULL);
    case DYNO_SORT_KEY_EQ:
    case DYNO_SORT_KEY_LT:
    case DYNO_SORT_KEY_LE:
    case DYNO_SORT_KEY_GT:
    case DYNO_SORT_KEY_GE:
      return dyno_expr_new_compare (compare[term->op], path, value_expr (term->values[0]));
    case DYNO_SORT_KEY_NONE:
    default:
      g_assert_not_reached ();
    }
}

/* TRUE when every item @expr selects has its partition key equal to one of the values it
 * lists: what DynamoDB runs as one Query per value. */
static gboolean
pins_partition_key (const DynoExpr *expr,
                    const char     *pk)
{
  KeyTerm term;

  expr = dyno_expr_skip_parens (expr);
  switch (expr->kind)
    {
    case DYNO_EXPR_AND:
      return pins_partition_key (g_ptr_array_index (expr->args, 0), pk) ||
             pins_partition_key (g_ptr_array_index (expr->args, 1), pk);
    case DYNO_EXPR_OR:
      return pins_partition_key (g_ptr_array_index (expr->args, 0), pk) &&
             pins_partition_key (g_ptr_array_index (expr->args, 1), pk);
    case DYNO_EXPR_IN:
      if (!is_attribute (arg (expr, 0), pk))
        return FALSE;
      for (guint i = 1; i < expr->args->len; i++)
        if (arg (expr, i)->kind != DYNO_EXPR_VALUE)
          return FALSE;
      return TRUE;
    default:
      return read_key_term (expr, pk, &term) && term.op == DYNO_SORT_KEY_EQ;
    }
}

/* A top-level `pk IN [a, b, …]` with several values, or NULL. */
static const DynoExpr *
find_multi_in (GPtrArray  *terms,
               const char *pk)
{
  for (guint i = 0; i < terms->len; i++)
    {
      const DynoExpr *term = g_ptr_array_index (terms, i);

      if (term->kind == DYNO_EXPR_IN && term->args->len > 2 && pins_partition_key (term, pk))
        return term;
    }
  return NULL;
}

/* The first attribute among @keys that @expr names (a path's top-level attribute), or NULL. */
static const char *
find_key_attribute (const DynoExpr     *expr,
                    const char * const *keys,
                    guint               n_keys)
{
  if (expr->path != NULL)
    for (guint k = 0; k < n_keys; k++)
      if (keys[k] != NULL && strcmp (dyno_path_get_attribute (expr->path), keys[k]) == 0)
        return keys[k];
  for (guint i = 0; expr->args != NULL && i < expr->args->len; i++)
    {
      const char *found = find_key_attribute (g_ptr_array_index (expr->args, i), keys, n_keys);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* ---- the statement as a request ------------------------------------------------------------ */

typedef struct {
  const char *pk;   /* the queried table's or index's keys; pk NULL when unknown */
  const char *sk;
} Keys;

static void
find_keys (DynoQueryDraft             *self,
           const DynoPartiqlStatement *st,
           Keys                       *keys)
{
  DynoTableInfo *info = dyno_query_draft_get_table_info (self);

  keys->pk = keys->sk = NULL;
  if (info == NULL || g_strcmp0 (dyno_table_info_get_name (info), st->table) != 0)
    return;
  if (st->index != NULL)
    {
      const DynoIndexInfo *index = dyno_table_info_find_index (info, st->index);

      if (index != NULL)
        {
          keys->pk = index->partition_key.name;
          keys->sk = index->sort_key.name;
        }
      return;
    }
  if (dyno_table_info_get_partition_key (info) != NULL)
    {
      keys->pk = dyno_table_info_get_partition_key (info)->name;
      if (dyno_table_info_get_sort_key (info) != NULL)
        keys->sk = dyno_table_info_get_sort_key (info)->name;
    }
}

/* @terms (const DynoExpr*) but those marked in @used, as a right-nested AND, or NULL. */
static DynoExpr *
join_rest (GPtrArray      *terms,
           const gboolean *used)
{
  DynoExpr *result = NULL;

  for (guint i = terms->len; i-- > 0;)
    {
      DynoExpr *term;

      if (used != NULL && used[i])
        continue;
      term = dyno_expr_copy (g_ptr_array_index (terms, i));
      result = result != NULL ? dyno_expr_new_and (term, result) : term;
    }
  return result;
}

/* `sk >= low` and `sk <= high` (either first) as `sk BETWEEN low AND high`, which DynamoDB
 * defines as inclusive at both ends: the same items.  Only for bounds of one type in order,
 * as DynamoDB refuses a BETWEEN whose bounds differ in type or are reversed (where the two
 * comparisons select nothing). */
static gboolean
between_bounds (const KeyTerm *a,
                const KeyTerm *b,
                KeyTerm       *out)
{
  const KeyTerm *ge = a->op == DYNO_SORT_KEY_GE ? a : b;
  const KeyTerm *le = a->op == DYNO_SORT_KEY_GE ? b : a;

  if (dyno_value_get_kind (ge->values[0]) != dyno_value_get_kind (le->values[0]) ||
      dyno_value_compare (ge->values[0], le->values[0]) > 0)
    return FALSE;
  out->op = DYNO_SORT_KEY_BETWEEN;
  out->values[0] = ge->values[0];
  out->values[1] = le->values[0];
  return TRUE;
}

/* Fills @request's key condition and filter from @terms, for a Query on @keys.  FALSE when
 * the statement has no partition key equality (then nothing is set). */
static gboolean
split_query (GPtrArray    *terms,
             const Keys   *keys,
             DynoRequest  *request,
             GError      **error)
{
  g_autofree gboolean *used = g_new0 (gboolean, terms->len);
  g_autoptr(DynoExpr) key_condition = NULL;
  KeyTerm pk_term, sk_term = { 0, };
  gint pk_at = -1;
  guint n_sk = 0;
  gint sk_at[2] = { -1, -1 };
  KeyTerm sk_terms[2];
  const char * const names[] = { keys->pk, keys->sk };

  for (guint i = 0; i < terms->len && pk_at < 0; i++)
    if (read_key_term (g_ptr_array_index (terms, i), keys->pk, &pk_term) &&
        pk_term.op == DYNO_SORT_KEY_EQ)
      pk_at = (gint) i;
  if (pk_at < 0)
    return FALSE;
  used[pk_at] = TRUE;

  for (guint i = 0; i < terms->len; i++)
    {
      KeyTerm term;

      if (used[i] || !read_key_term (g_ptr_array_index (terms, i), keys->sk, &term))
        continue;
      if (n_sk < 2)
        {
          sk_at[n_sk] = (gint) i;
          sk_terms[n_sk] = term;
        }
      n_sk++;
    }
  if (n_sk == 2 &&
      ((sk_terms[0].op == DYNO_SORT_KEY_GE && sk_terms[1].op == DYNO_SORT_KEY_LE) ||
       (sk_terms[0].op == DYNO_SORT_KEY_LE && sk_terms[1].op == DYNO_SORT_KEY_GE)) &&
      between_bounds (&sk_terms[0], &sk_terms[1], &sk_term))
    used[sk_at[0]] = used[sk_at[1]] = TRUE;
  else if (n_sk > 0)
    {
      sk_term = sk_terms[0];
      used[sk_at[0]] = TRUE;
    }

  key_condition = build_key_term (keys->pk, &pk_term);
  if (sk_term.op != DYNO_SORT_KEY_NONE)
    key_condition = dyno_expr_new_and (g_steal_pointer (&key_condition),
                                       build_key_term (keys->sk, &sk_term));

  for (guint i = 0; i < terms->len; i++)
    {
      const DynoExpr *term = g_ptr_array_index (terms, i);
      const char *key;

      if (used[i] || (key = find_key_attribute (term, names, G_N_ELEMENTS (names))) == NULL)
        continue;
      {
        g_autofree char *shown = dyno_expr_to_inline (term);

        /* Translators: a condition of the statement, then an attribute name. */
        return unsupported (error, _("the condition %s uses the key attribute %s, which a "
                                     "Query's filter cannot (its key condition takes one "
                                     "condition per key: = on the partition key; =, <, <=, "
                                     ">, >=, BETWEEN or begins_with on the sort key)"),
                            shown, key);
      }
    }

  request->operation = DYNO_OP_QUERY;
  request->key_condition = g_steal_pointer (&key_condition);
  request->filter = join_rest (terms, used);
  return TRUE;
}

static DynoRequest *
statement_to_request (DynoQueryDraft              *self,
                      const DynoPartiqlStatement  *st,
                      GError                     **error)
{
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, st->table);
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  g_autoptr(GError) local = NULL;
  Keys keys;

  if (st->kind != DYNO_PARTIQL_SELECT)
    {
      unsupported (error, _("only a SELECT reads into the builder"));
      return NULL;
    }

  request->index_name = g_strdup (st->index);
  find_keys (self, st, &keys);

  if (st->projection != NULL)
    {
      for (guint i = 0; i < st->projection->len; i++)
        {
          const DynoPath *path = g_ptr_array_index (st->projection, i);

          /* SELECT "a"."b" returns a top-level attribute "b", where ProjectionExpression a.b
           * returns a map a holding b (dyno-codegen-partiql.c refuses the other way). */
          if (dyno_path_get_length (path) > 1)
            {
              g_autofree char *shown = dyno_path_to_inline (path);

              unsupported (error, _("projecting the nested path %s returns it as a top-level "
                                    "attribute, not inside its map or list"), shown);
              return NULL;
            }
        }
      request->projection = dyno_projection_new ();
      for (guint i = 0; i < st->projection->len; i++)
        g_ptr_array_add (request->projection,
                         dyno_path_copy (g_ptr_array_index (st->projection, i)));
    }

  if (st->where != NULL)
    dyno_expr_flatten_and (st->where, terms);

  if (keys.pk != NULL && terms->len > 0)
    {
      if (!split_query (terms, &keys, request, &local))
        {
          const DynoExpr *in;

          if (local != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return NULL;
            }
          if ((in = find_multi_in (terms, keys.pk)) != NULL)
            {
              /* Translators: the partition key's name, then how many values it lists. */
              unsupported (error, _("%s IN […] with %u values runs one Query per value, and the "
                                    "builder runs one Query"),
                           keys.pk, in->args->len - 1);
              return NULL;
            }
          if (pins_partition_key (st->where, keys.pk))
            {
              /* Translators: the partition key's name. */
              unsupported (error, _("an OR of values of the partition key %s runs one Query per "
                                    "value, and the builder runs one Query"), keys.pk);
              return NULL;
            }
        }
    }
  if (request->operation == DYNO_OP_SCAN)
    request->filter = join_rest (terms, NULL);

  if (st->order_by != NULL)
    {
      if (request->operation != DYNO_OP_QUERY && keys.pk == NULL)
        {
          g_autofree char *target = st->index != NULL
                                    ? g_strdup_printf ("%s.%s", st->table, st->index)
                                    : g_strdup (st->table);

          /* Translators: the table's name (or table.index). */
          unsupported (error, _("ORDER BY needs a Query, and without the key schema of %s the "
                                "key condition cannot be told apart"), target);
          return NULL;
        }
      if (request->operation != DYNO_OP_QUERY)
        {
          /* Translators: the partition key's name. */
          unsupported (error, _("ORDER BY needs a Query, and without an equality on the "
                                "partition key %s the statement reads as a Scan"), keys.pk);
          return NULL;
        }
      if (keys.sk == NULL)
        {
          unsupported (error, _("ORDER BY %s: the queried table or index has no sort key, the "
                                "one order the builder sets"), st->order_by);
          return NULL;
        }
      if (strcmp (st->order_by, keys.sk) != 0)
        {
          /* Translators: the ORDER BY attribute, then the sort key's name. */
          unsupported (error, _("ORDER BY %s: the builder orders a Query by its sort key %s "
                                "only"), st->order_by, keys.sk);
          return NULL;
        }
      /* ascending is the default: nothing to send */
      if (st->descending)
        request->scan_index_forward = DYNO_TRISTATE_FALSE;
    }

  return g_steal_pointer (&request);
}

gboolean
dyno_query_draft_load_partiql (DynoQueryDraft  *self,
                               const char      *statement,
                               GPtrArray       *parameters,
                               GError         **error)
{
  g_autoptr(DynoPartiqlStatement) st = NULL;
  g_autoptr(DynoRequest) request = NULL;

  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), FALSE);
  g_return_val_if_fail (statement != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  st = dyno_partiql_parse (statement, parameters, NULL, error);
  if (st == NULL)
    return FALSE;
  request = statement_to_request (self, st, error);
  if (request == NULL)
    return FALSE;
  return dyno_query_draft_from_request (self, request, error);
}
