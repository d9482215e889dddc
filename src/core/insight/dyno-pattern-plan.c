/* dyno-pattern-plan.c: which key of a table design serves an access pattern
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-pattern-plan.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* One key the design offers: the table's own or a secondary index's. */
typedef struct {
  const char         *index_name;   /* NULL: the table */
  gboolean            global;
  const char         *pk;
  DynoValueType       pk_type;
  const char         *sk;           /* NULL: none */
  DynoValueType       sk_type;
  DynoProjectionType  projection;
  GPtrArray          *non_key;      /* INCLUDE: char* */
} Key;

/* How one key would serve the pattern. */
typedef struct {
  const Key      *key;
  const DynoExpr *pk_term;
  const DynoExpr *sk_term;
  gboolean        order_served;
  gboolean        projection_served;
  GPtrArray      *missing;          /* char*: returned attributes the index lacks */
  int             score;
} Fit;

void
dyno_pattern_plan_free (DynoPatternPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->index_name);
  g_free (plan->key_condition);
  g_free (plan->filter);
  g_free (plan->summary);
  g_clear_pointer (&plan->notes, g_ptr_array_unref);
  g_free (plan);
}

static gboolean
is_set (const char *s)
{
  return s != NULL && *s != '\0';
}

gboolean
dyno_pattern_reads_design (const DynoAccessPattern *pattern,
                           DynoTableDesign         *design)
{
  return g_strcmp0 (pattern->request->table_name,
                    dyno_table_design_get_table_name (design)) == 0;
}

/* The top-level AND terms of @expr (parentheses looked through). */
static void
collect_terms (const DynoExpr *expr,
               GPtrArray      *terms)
{
  if (expr == NULL)
    return;
  if (expr->kind == DYNO_EXPR_PAREN)
    collect_terms (g_ptr_array_index (expr->args, 0), terms);
  else if (expr->kind == DYNO_EXPR_AND)
    {
      collect_terms (g_ptr_array_index (expr->args, 0), terms);
      collect_terms (g_ptr_array_index (expr->args, 1), terms);
    }
  else
    g_ptr_array_add (terms, (gpointer) expr);
}

static const DynoExpr *
arg (const DynoExpr *expr,
     guint           i)
{
  return expr->args != NULL && i < expr->args->len ? g_ptr_array_index (expr->args, i) : NULL;
}

/* The attribute a term constrains when it compares a top-level attribute with values, or
 * NULL; @is_equality says whether it is "attribute = value"; @value one of its values. */
static const char *
term_attribute (const DynoExpr   *term,
                gboolean         *is_equality,
                gboolean         *is_prefix,
                const DynoValue **value)
{
  const DynoExpr *path = arg (term, 0);
  guint first_value = 1;

  *is_equality = FALSE;
  *is_prefix = FALSE;
  *value = NULL;
  switch (term->kind)
    {
    case DYNO_EXPR_COMPARE:
      if (term->op.compare == DYNO_COMPARE_NE)
        return NULL;
      *is_equality = term->op.compare == DYNO_COMPARE_EQ;
      break;
    case DYNO_EXPR_BETWEEN:
      break;
    case DYNO_EXPR_FUNCTION:
      if (term->op.function != DYNO_FUNCTION_BEGINS_WITH)
        return NULL;
      *is_prefix = TRUE;
      break;
    default:
      return NULL;
    }
  if (path == NULL || path->kind != DYNO_EXPR_PATH || dyno_path_get_length (path->path) != 1)
    return NULL;
  for (guint i = first_value; i < term->args->len; i++)
    {
      const DynoExpr *operand = arg (term, i);

      if (operand->kind != DYNO_EXPR_VALUE)
        return NULL;
      *value = operand->value;
    }
  return *value != NULL ? dyno_path_get_attribute (path->path) : NULL;
}

static const char *
type_name (DynoValueType type)
{
  switch (type)
    {
    case DYNO_VALUE_S:
      return C_("key type", "String");
    case DYNO_VALUE_N:
      return C_("key type", "Number");
    case DYNO_VALUE_B:
      return C_("key type", "Binary");
    default:
      return dyno_value_type_to_string (type);
    }
}

static void
add_note (GPtrArray  *notes,
          char       *note)
{
  for (guint i = 0; i < notes->len; i++)
    if (g_str_equal (g_ptr_array_index (notes, i), note))
      {
        g_free (note);
        return;
      }
  g_ptr_array_add (notes, note);
}

/* The term that serves @attribute (of @type) as a partition key (@equality_only) or a sort
 * key; a term on the attribute with a value of another type is said in @mismatches
 * (attribute -> sentence). */
static const DynoExpr *
term_for_key (GPtrArray     *terms,
              const char    *attribute,
              DynoValueType  type,
              gboolean       equality_only,
              GHashTable    *mismatches)
{
  for (guint i = 0; i < terms->len; i++)
    {
      const DynoExpr *term = g_ptr_array_index (terms, i);
      gboolean equality, prefix;
      const DynoValue *value;
      const char *name = term_attribute (term, &equality, &prefix, &value);

      if (g_strcmp0 (name, attribute) != 0 || (equality_only && !equality))
        continue;
      if (dyno_value_get_kind (value) != type)
        {
          /* Translators: "customer is compared with a Number, but the key customer is a
           * String"; the types are "String", "Number" or "Binary" */
          g_hash_table_insert (mismatches, g_strdup (attribute),
                               g_strdup_printf (_("%s is compared with a %s, but the key %s is "
                                                  "a %s"),
                                                attribute,
                                                type_name (dyno_value_get_kind (value)),
                                                attribute, type_name (type)));
          continue;
        }
      if (prefix && type == DYNO_VALUE_N)
        continue;
      return term;
    }
  return NULL;
}

/* The top-level attributes the pattern returns, or NULL for all of them. */
static GPtrArray *
returned_attributes (const DynoRequest *request)
{
  GPtrArray *names;

  if (request->select == DYNO_SELECT_COUNT ||
      request->select == DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES)
    return g_ptr_array_new ();
  if (request->projection == NULL || request->projection->len == 0)
    return NULL;
  names = g_ptr_array_new ();
  for (guint i = 0; i < request->projection->len; i++)
    {
      const char *name = dyno_path_get_attribute (g_ptr_array_index (request->projection, i));

      if (!g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL))
        g_ptr_array_add (names, (gpointer) name);
    }
  return names;
}

static gboolean
key_holds (const Key   *key,
           const Key   *table,
           const char  *attribute)
{
  if (key->projection == DYNO_PROJECTION_ALL ||
      g_strcmp0 (attribute, key->pk) == 0 || g_strcmp0 (attribute, key->sk) == 0 ||
      g_strcmp0 (attribute, table->pk) == 0 || g_strcmp0 (attribute, table->sk) == 0)
    return TRUE;
  return key->projection == DYNO_PROJECTION_INCLUDE && key->non_key != NULL &&
         g_ptr_array_find_with_equal_func (key->non_key, attribute, g_str_equal, NULL);
}

static void
fit_key (Fit                     *fit,
         const Key               *key,
         const Key               *table,
         GPtrArray               *terms,
         GPtrArray               *returned,
         const char              *order_by,
         const DynoAccessPattern *pattern,
         GHashTable              *mismatches)
{
  memset (fit, 0, sizeof *fit);
  fit->key = key;
  fit->missing = g_ptr_array_new ();
  if (!is_set (key->pk))
    return;
  fit->pk_term = term_for_key (terms, key->pk, key->pk_type, TRUE, mismatches);
  if (fit->pk_term == NULL)
    return;
  if (is_set (key->sk))
    fit->sk_term = term_for_key (terms, key->sk, key->sk_type, FALSE, mismatches);
  fit->order_served = pattern->order == DYNO_PATTERN_ORDER_ANY ||
                      (order_by != NULL && g_strcmp0 (order_by, key->sk) == 0);
  if (key->index_name != NULL && key->projection != DYNO_PROJECTION_ALL)
    {
      if (returned == NULL)
        g_ptr_array_add (fit->missing, (gpointer) _("every attribute"));
      else
        for (guint i = 0; i < returned->len; i++)
          if (!key_holds (key, table, g_ptr_array_index (returned, i)))
            g_ptr_array_add (fit->missing, g_ptr_array_index (returned, i));
    }
  /* an LSI fetches what it lacks from the table; a GSI cannot */
  fit->projection_served = fit->missing->len == 0 || !key->global;
  fit->score = 100 + (fit->sk_term != NULL ? 10 : 0) + (fit->order_served ? 5 : 0) +
               (fit->projection_served ? 20 : 0) + (fit->missing->len == 0 ? 1 : 0);
}

static char *
print_and (GPtrArray *terms)
{
  g_autoptr(DynoExprPrinter) printer = NULL;
  DynoExpr *expr = NULL;
  char *text;

  if (terms->len == 0)
    return NULL;
  for (guint i = terms->len; i-- > 0;)
    {
      DynoExpr *copy = dyno_expr_copy (g_ptr_array_index (terms, i));

      expr = expr == NULL ? copy : dyno_expr_new_and (copy, expr);
    }
  printer = dyno_expr_printer_new ();
  text = dyno_expr_printer_print_condition (printer, expr);
  dyno_expr_free (expr);
  return text;
}

static char *
join_names (GPtrArray *names)
{
  g_autoptr(GString) joined = g_string_new (NULL);

  for (guint i = 0; i < names->len; i++)
    {
      if (i > 0)
        g_string_append (joined, ", ");
      g_string_append (joined, g_ptr_array_index (names, i));
    }
  return g_string_free (g_steal_pointer (&joined), FALSE);
}

DynoPatternPlan *
dyno_pattern_plan_for_design (const DynoAccessPattern *pattern,
                              DynoTableDesign         *design)
{
  const DynoRequest *request = pattern->request;
  DynoPatternPlan *plan = g_new0 (DynoPatternPlan, 1);
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  g_autoptr(GPtrArray) returned = returned_attributes (request);
  g_autoptr(GArray) keys = g_array_new (FALSE, TRUE, sizeof (Key));
  g_autoptr(GHashTable) mismatches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            g_free);
  g_autoptr(GPtrArray) leftover = g_ptr_array_new ();
  const char *order_by = pattern->order_by;
  const Key *named = NULL;
  Fit best = { 0 };
  guint n_indexes = dyno_table_design_get_n_indexes (design);
  Key table = {
    .pk = dyno_table_design_get_partition_key_name (design),
    .pk_type = dyno_table_design_get_partition_key_type (design),
    .sk = dyno_table_design_get_sort_key_name (design),
    .sk_type = dyno_table_design_get_sort_key_type (design),
    .projection = DYNO_PROJECTION_ALL,
  };

  plan->notes = g_ptr_array_new_with_free_func (g_free);
  if (!is_set (table.sk))
    table.sk = NULL;

  collect_terms (request->key_condition, terms);
  collect_terms (request->filter, terms);

  g_array_append_val (keys, table);
  for (guint i = 0; i < n_indexes; i++)
    {
      DynoIndexDesign *index = dyno_table_design_get_index (design, i);
      Key key = {
        .index_name = index->name,
        .global = index->global,
        .pk = index->global || is_set (index->partition_key_name) ? index->partition_key_name
                                                                    : table.pk,
        .pk_type = index->global ? index->partition_key_type : table.pk_type,
        .sk = is_set (index->sort_key_name) ? index->sort_key_name : NULL,
        .sk_type = index->sort_key_type,
        .projection = index->projection,
        .non_key = index->non_key_attributes,
      };

      if (!is_set (index->name))
        continue;
      g_array_append_val (keys, key);
    }
  if (is_set (request->index_name))
    {
      for (guint i = 1; i < keys->len; i++)
        if (g_strcmp0 (g_array_index (keys, Key, i).index_name, request->index_name) == 0)
          named = &g_array_index (keys, Key, i);
      if (named == NULL)
        add_note (plan->notes,
                  g_strdup_printf (_("The pattern reads index %s, which this design does not have"),
                                   request->index_name));
    }
  /* The order expected is by the sort key of what the pattern reads, unless it names one. */
  if (order_by == NULL && pattern->order != DYNO_PATTERN_ORDER_ANY)
    order_by = named != NULL ? named->sk : is_set (request->index_name) ? NULL : table.sk;

  /* The pattern's own index first, then the table, then the indexes: ties go to the first. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < keys->len; i++)
      {
        const Key *key = &g_array_index (keys, Key, i);
        Fit fit;

        if ((pass == 0) != (key == named))
          continue;
        fit_key (&fit, key, &table, terms, returned, order_by, pattern, mismatches);
        if (fit.pk_term != NULL && fit.score > best.score)
          {
            g_clear_pointer (&best.missing, g_ptr_array_unref);
            best = fit;
          }
        else
          g_ptr_array_unref (fit.missing);
      }

  if (best.key == NULL)
    {
      g_autoptr(GPtrArray) equalities = g_ptr_array_new ();

      for (guint i = 0; i < terms->len; i++)
        {
          gboolean equality, prefix;
          const DynoValue *value;
          const char *name = term_attribute (g_ptr_array_index (terms, i), &equality, &prefix,
                                             &value);

          if (name != NULL && equality &&
              !g_ptr_array_find_with_equal_func (equalities, name, g_str_equal, NULL))
            g_ptr_array_add (equalities, (gpointer) name);
        }
      plan->kind = DYNO_PATTERN_PLAN_SCAN;
      if (equalities->len == 0)
        plan->summary = g_strdup (_("Needs a Scan: the pattern fixes no attribute with “=”, "
                                    "and a Query needs its partition key"));
      else
        {
          g_autofree char *names = join_names (equalities);

          /* Translators: %s is a list of attribute names, "customer, status" */
          plan->summary = g_strdup_printf (_("Needs a Scan: no key of this design has %s as "
                                             "its partition key"), names);
        }
      plan->filter = print_and (terms);
      if (plan->filter != NULL)
        add_note (plan->notes,
                  g_strdup_printf (_("Reads every item of the table, then filters %s"),
                                   plan->filter));
      plan->order_served = pattern->order == DYNO_PATTERN_ORDER_ANY;
      plan->projection_served = TRUE;
      {
        g_autoptr(GList) attributes = g_hash_table_get_keys (mismatches);

        attributes = g_list_sort (attributes, (GCompareFunc) strcmp);
        for (GList *l = attributes; l != NULL; l = l->next)
          add_note (plan->notes, g_strdup (g_hash_table_lookup (mismatches, l->data)));
      }
      if (pattern->allow_scan)
        add_note (plan->notes, g_strdup (_("The pattern allows a Scan")));
      return plan;
    }

  {
    g_autoptr(GPtrArray) key_terms = g_ptr_array_new ();

    g_ptr_array_add (key_terms, (gpointer) best.pk_term);
    if (best.sk_term != NULL)
      g_ptr_array_add (key_terms, (gpointer) best.sk_term);
    for (guint i = 0; i < terms->len; i++)
      if (g_ptr_array_index (terms, i) != best.pk_term &&
          g_ptr_array_index (terms, i) != best.sk_term)
        g_ptr_array_add (leftover, g_ptr_array_index (terms, i));
    plan->kind = DYNO_PATTERN_PLAN_QUERY;
    plan->index_name = g_strdup (best.key->index_name);
    plan->key_condition = print_and (key_terms);
    plan->filter = print_and (leftover);
    plan->order_served = best.order_served;
    plan->projection_served = best.projection_served;
    if (plan->index_name != NULL)
      /* Translators: "Query on index byStatus: status = :s AND orderDate > :d" */
      plan->summary = g_strdup_printf (_("Query on index %s: %s"), plan->index_name,
                                       plan->key_condition);
    else
      /* Translators: "Query on the table: customer = :c" */
      plan->summary = g_strdup_printf (_("Query on the table: %s"), plan->key_condition);
  }

  /* the key's own type mismatches matter; others' were only candidates */
  if (best.key->sk != NULL && best.sk_term == NULL &&
      g_hash_table_contains (mismatches, best.key->sk))
    add_note (plan->notes, g_strdup (g_hash_table_lookup (mismatches, best.key->sk)));
  if (plan->filter != NULL)
    add_note (plan->notes,
              g_strdup_printf (_("Filters %s after reading: items that do not match are read "
                                 "and paid for all the same"), plan->filter));
  if (!best.order_served)
    {
      if (order_by != NULL)
        add_note (plan->notes,
                  g_strdup_printf (_("The items come sorted by %s, not by %s as the pattern "
                                     "expects"),
                                   best.key->sk != NULL ? best.key->sk : _("no key"), order_by));
      else
        add_note (plan->notes, g_strdup (_("The pattern expects an order, but names no "
                                           "attribute to sort by")));
    }
  else if (pattern->order == DYNO_PATTERN_ORDER_DESCENDING)
    add_note (plan->notes, g_strdup (_("Newest (highest) first: ScanIndexForward false")));
  if (best.missing->len > 0)
    {
      g_autofree char *names = join_names (best.missing);

      if (best.key->global)
        add_note (plan->notes,
                  g_strdup_printf (_("Index %s does not hold %s: a Query on it cannot return "
                                     "them"), best.key->index_name, names));
      else
        add_note (plan->notes,
                  g_strdup_printf (_("Index %s does not hold %s: DynamoDB fetches them from "
                                     "the table, at an extra read cost"),
                                   best.key->index_name, names));
    }
  g_ptr_array_unref (best.missing);
  return plan;
}
