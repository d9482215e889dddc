/* dyno-query-draft.c: the Query or Scan being built, as one model
 *
 * The saved-query format (DYNO_QUERY_DRAFT_FORMAT_VERSION 1) is one JSON object:
 *
 *   {
 *     "format": "dynotable-query-draft",
 *     "version": 1,
 *     "operation": "Query",              "Query" or "Scan"
 *     "request": { … },                  the request as DynamoDB takes it (TableName,
 *                                        IndexName, the expressions with their name and value
 *                                        maps, Limit, ScanIndexForward, ConsistentRead,
 *                                        Select, ReturnConsumedCapacity, ExclusiveStartKey,
 *                                        Segment, TotalSegments)
 *     "key": {                           only when the key condition is edited by parts; the
 *       "partition": "USER#1",           request then has no KeyConditionExpression, so an
 *       "sortOperator": "between",       unfinished key (an empty or mistyped value) is
 *       "sort": "A", "sort2": "M"        saved as the person left it
 *     },
 *     "maxItems": 500                    how many items to fetch over all pages (omitted: all)
 *   }
 *
 * A reader refuses another "format" and a "version" above its own; members it does not know
 * are errors, so a newer writer must raise the version.  The schema (table info) is not saved:
 * it is the table's, read again when the query is opened.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-query-draft.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-json.h"
#include "dyno-request-private.h"

#define FORMAT_NAME "dynotable-query-draft"

struct _DynoQueryDraft
{
  GObject                     parent_instance;

  DynoOperation               operation;
  char                       *table_name;
  char                       *index_name;
  DynoTableInfo              *info;

  /* the target's key attributes: from the schema, else read off the key condition */
  char                       *pk_name;
  char                       *sk_name;
  DynoValueType               pk_type;
  DynoValueType               sk_type;

  DynoExpr                   *key_condition;
  gboolean                    key_from_expr;  /* the expression is the source, parts a view */
  gboolean                    structured;     /* the parts describe the key condition */
  char                       *pk_text;
  DynoSortKeyOperator         sk_op;
  char                       *sk_text;
  char                       *sk_text2;

  DynoExpr                   *filter;
  GPtrArray                  *projection;
  DynoTristate                scan_index_forward;
  gint64                      limit;
  DynoTristate                consistent_read;
  DynoSelect                  select;
  DynoReturnConsumedCapacity  return_consumed_capacity;
  DynoItem                   *start_key;
  gint                        segment;
  gint                        total_segments;
  guint64                     max_items;

  guint                       change_depth;
  gboolean                    change_pending;
};

G_DEFINE_FINAL_TYPE (DynoQueryDraft, dyno_query_draft, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (DynoSortKeyOperator, dyno_sort_key_operator,
                    G_DEFINE_ENUM_VALUE (DYNO_SORT_KEY_NONE, "none"),
                    G_DEFINE_ENUM_VALUE (DYNO_SORT_KEY_EQ, "eq"),
                    G_DEFINE_ENUM_VALUE (DYNO_SORT_KEY_LT, "lt"),
                    G_DEFINE_ENUM_VALUE (DYNO_SORT_KEY_LE, "le"),
                    G_DEFINE_ENUM_VALUE (DYNO_SORT_KEY_GT, "gt"),
                    G_DEFINE_ENUM_VALUE (DYNO_SORT_KEY_GE, "ge"),
                    G_DEFINE_ENUM_VALUE (DYNO_SORT_KEY_BETWEEN, "between"),
                    G_DEFINE_ENUM_VALUE (DYNO_SORT_KEY_BEGINS_WITH, "begins-with"))

enum {
  PROP_0,
  PROP_OPERATION,
  PROP_TABLE_NAME,
  PROP_INDEX_NAME,
  PROP_TABLE_INFO,
  PROP_PARTITION_KEY_NAME,
  PROP_SORT_KEY_NAME,
  PROP_KEY_CONDITION,
  PROP_KEY_CONDITION_STRUCTURED,
  PROP_PARTITION_KEY_TEXT,
  PROP_SORT_KEY_OPERATOR,
  PROP_SORT_KEY_TEXT,
  PROP_SORT_KEY_TEXT2,
  PROP_FILTER,
  PROP_PROJECTION,
  PROP_SCAN_INDEX_FORWARD,
  PROP_LIMIT,
  PROP_CONSISTENT_READ,
  PROP_SELECT,
  PROP_RETURN_CONSUMED_CAPACITY,
  PROP_EXCLUSIVE_START_KEY,
  PROP_SEGMENT,
  PROP_TOTAL_SEGMENTS,
  PROP_MAX_ITEMS,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const char * const sort_key_operator_names[] = {
  [DYNO_SORT_KEY_NONE] = "none",
  [DYNO_SORT_KEY_EQ] = "=",
  [DYNO_SORT_KEY_LT] = "<",
  [DYNO_SORT_KEY_LE] = "<=",
  [DYNO_SORT_KEY_GT] = ">",
  [DYNO_SORT_KEY_GE] = ">=",
  [DYNO_SORT_KEY_BETWEEN] = "between",
  [DYNO_SORT_KEY_BEGINS_WITH] = "begins_with",
};

/* ---- change bookkeeping --------------------------------------------------------------------- */

static void
begin_change (DynoQueryDraft *self)
{
  g_object_freeze_notify (G_OBJECT (self));
  self->change_depth++;
}

/* "changed" comes after the notifications, once per outermost change. */
static void
end_change (DynoQueryDraft *self)
{
  g_assert (self->change_depth > 0);

  g_object_thaw_notify (G_OBJECT (self));
  if (--self->change_depth == 0 && self->change_pending)
    {
      self->change_pending = FALSE;
      g_signal_emit (self, signals[CHANGED], 0);
    }
}

static void
mark_changed (DynoQueryDraft *self,
              guint           prop)
{
  g_assert (self->change_depth > 0);

  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  self->change_pending = TRUE;
}

static void
update_string (DynoQueryDraft  *self,
               char           **field,
               const char      *value,
               guint            prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  mark_changed (self, prop);
}

static gboolean
expr_equal0 (const DynoExpr *a,
             const DynoExpr *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return dyno_expr_equal (a, b);
}

/* ---- the key condition by parts ------------------------------------------------------------- */

typedef struct {
  const char          *attribute;
  DynoSortKeyOperator  op;           /* EQ for the partition key */
  const DynoValue     *values[2];
} KeyTerm;


/* One `name op value` term, with a scalar key value (S, N, B) on the right. */
static gboolean
read_key_term (const DynoExpr *expr,
               KeyTerm        *term)
{
  const DynoExpr *operand;
  guint n_values;

  expr = dyno_expr_skip_parens (expr);
  switch (expr->kind)
    {
    case DYNO_EXPR_COMPARE:
      {
        static const DynoSortKeyOperator map[] = {
          [DYNO_COMPARE_EQ] = DYNO_SORT_KEY_EQ, [DYNO_COMPARE_NE] = DYNO_SORT_KEY_NONE,
          [DYNO_COMPARE_LT] = DYNO_SORT_KEY_LT, [DYNO_COMPARE_LE] = DYNO_SORT_KEY_LE,
          [DYNO_COMPARE_GT] = DYNO_SORT_KEY_GT, [DYNO_COMPARE_GE] = DYNO_SORT_KEY_GE,
        };
        term->op = map[expr->op.compare];
        n_values = 1;
      }
      break;

    case DYNO_EXPR_BETWEEN:
      term->op = DYNO_SORT_KEY_BETWEEN;
      n_values = 2;
      break;

    case DYNO_EXPR_FUNCTION:
      if (expr->op.function != DYNO_FUNCTION_BEGINS_WITH)
        return FALSE;
      term->op = DYNO_SORT_KEY_BEGINS_WITH;
      n_values = 1;
      break;

    default:
      return FALSE;
    }

  if (term->op == DYNO_SORT_KEY_NONE || expr->args == NULL || expr->args->len != n_values + 1)
    return FALSE;

  operand = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 0));
  if (operand->kind != DYNO_EXPR_PATH || dyno_path_get_length (operand->path) != 1)
    return FALSE;
  term->attribute = dyno_path_get_attribute (operand->path);

  for (guint i = 0; i < n_values; i++)
    {
      const DynoExpr *value = dyno_expr_skip_parens (g_ptr_array_index (expr->args, i + 1));
      DynoValueType kind;

      if (value->kind != DYNO_EXPR_VALUE)
        return FALSE;
      kind = dyno_value_get_kind (value->value);
      if (kind != DYNO_VALUE_S && kind != DYNO_VALUE_N && kind != DYNO_VALUE_B)
        return FALSE;
      term->values[i] = value->value;
    }

  return TRUE;
}

/* Splits @expr into the partition-key term and at most one sort-key term.  With a schema the
 * names decide; without one the partition key is the term with `=` (the first when both
 * have it).  Values must have the schema's types, or the parts would read back otherwise. */
static gboolean
decompose_key_condition (DynoQueryDraft *self,
                         const DynoExpr *expr,
                         KeyTerm        *pk,
                         KeyTerm        *sk)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  KeyTerm terms[2] = { { 0, }, };

  memset (pk, 0, sizeof *pk);
  memset (sk, 0, sizeof *sk);

  dyno_expr_flatten_and (expr, parts);
  if (parts->len == 0 || parts->len > 2)
    return FALSE;
  for (guint i = 0; i < parts->len; i++)
    if (!read_key_term (g_ptr_array_index (parts, i), &terms[i]))
      return FALSE;

  if (self->info != NULL)
    {
      for (guint i = 0; i < parts->len; i++)
        {
          if (self->pk_name != NULL && strcmp (terms[i].attribute, self->pk_name) == 0
              && terms[i].op == DYNO_SORT_KEY_EQ && pk->attribute == NULL
              && dyno_value_get_kind (terms[i].values[0]) == self->pk_type)
            *pk = terms[i];
          else if (self->sk_name != NULL && strcmp (terms[i].attribute, self->sk_name) == 0
                   && sk->attribute == NULL
                   && dyno_value_get_kind (terms[i].values[0]) == self->sk_type
                   && (terms[i].values[1] == NULL
                       || dyno_value_get_kind (terms[i].values[1]) == self->sk_type))
            *sk = terms[i];
          else
            return FALSE;
        }
      return pk->attribute != NULL;
    }

  if (terms[0].op == DYNO_SORT_KEY_EQ)
    {
      *pk = terms[0];
      *sk = terms[1];
    }
  else if (parts->len == 2 && terms[1].op == DYNO_SORT_KEY_EQ)
    {
      *pk = terms[1];
      *sk = terms[0];
    }
  else
    return FALSE;

  if (sk->attribute != NULL
      && (strcmp (sk->attribute, pk->attribute) == 0
          || (sk->values[1] != NULL
              && dyno_value_get_kind (sk->values[1]) != dyno_value_get_kind (sk->values[0]))))
    return FALSE;

  return TRUE;
}

/* The key condition the parts describe, or NULL when they are incomplete or do not read;
 * validate_parts() says why. */
static DynoExpr *
build_key_condition (DynoQueryDraft *self)
{
  g_autoptr(DynoValue) pk_value = NULL;
  g_autoptr(DynoExpr) condition = NULL;
  g_autoptr(DynoValue) v1 = NULL;
  g_autoptr(DynoValue) v2 = NULL;
  DynoExpr *sk_condition;

  if (self->pk_name == NULL || self->pk_text == NULL || *self->pk_text == '\0')
    return NULL;

  pk_value = dyno_value_new_from_key_text (self->pk_text, self->pk_type, NULL);
  if (pk_value == NULL)
    return NULL;

  condition = dyno_expr_new_compare (DYNO_COMPARE_EQ,
                                     dyno_expr_new_path (dyno_path_new (self->pk_name)),
                                     dyno_expr_new_value (g_steal_pointer (&pk_value)));

  if (self->sk_name == NULL || self->sk_op == DYNO_SORT_KEY_NONE)
    return g_steal_pointer (&condition);

  if (self->sk_text == NULL || *self->sk_text == '\0'
      || (self->sk_op == DYNO_SORT_KEY_BETWEEN
          && (self->sk_text2 == NULL || *self->sk_text2 == '\0')))
    return NULL;

  v1 = dyno_value_new_from_key_text (self->sk_text, self->sk_type, NULL);
  if (v1 == NULL)
    return NULL;

  switch (self->sk_op)
    {
    case DYNO_SORT_KEY_BETWEEN:
      v2 = dyno_value_new_from_key_text (self->sk_text2, self->sk_type, NULL);
      if (v2 == NULL)
        return NULL;
      sk_condition = dyno_expr_new_between (dyno_expr_new_path (dyno_path_new (self->sk_name)),
                                            dyno_expr_new_value (g_steal_pointer (&v1)),
                                            dyno_expr_new_value (g_steal_pointer (&v2)));
      break;

    case DYNO_SORT_KEY_BEGINS_WITH:
      sk_condition = dyno_expr_new_function (DYNO_FUNCTION_BEGINS_WITH,
                                             dyno_expr_new_path (dyno_path_new (self->sk_name)),
                                             dyno_expr_new_value (g_steal_pointer (&v1)),
                                             NULL);
      break;

    case DYNO_SORT_KEY_EQ:
    case DYNO_SORT_KEY_LT:
    case DYNO_SORT_KEY_LE:
    case DYNO_SORT_KEY_GT:
    case DYNO_SORT_KEY_GE:
    default:
      {
        static const DynoCompareOp map[] = {
          [DYNO_SORT_KEY_EQ] = DYNO_COMPARE_EQ, [DYNO_SORT_KEY_LT] = DYNO_COMPARE_LT,
          [DYNO_SORT_KEY_LE] = DYNO_COMPARE_LE, [DYNO_SORT_KEY_GT] = DYNO_COMPARE_GT,
          [DYNO_SORT_KEY_GE] = DYNO_COMPARE_GE,
        };
        sk_condition = dyno_expr_new_compare (map[self->sk_op],
                                              dyno_expr_new_path (dyno_path_new (self->sk_name)),
                                              dyno_expr_new_value (g_steal_pointer (&v1)));
      }
      break;
    }

  return dyno_expr_new_and (g_steal_pointer (&condition), sk_condition);
}

static void
update_key_names (DynoQueryDraft *self)
{
  const DynoKeyAttr *pk = NULL, *sk = NULL;

  if (self->info == NULL)
    {
      /* no schema (any more): the key condition names them, or nothing does */
      update_string (self, &self->pk_name, NULL, PROP_PARTITION_KEY_NAME);
      update_string (self, &self->sk_name, NULL, PROP_SORT_KEY_NAME);
      self->pk_type = DYNO_VALUE_S;
      self->sk_type = DYNO_VALUE_S;
      return;
    }

  if (self->index_name != NULL)
    {
      const DynoIndexInfo *index = dyno_table_info_find_index (self->info, self->index_name);

      if (index != NULL)
        {
          pk = &index->partition_key;
          sk = &index->sort_key;
        }
    }
  if (pk == NULL)
    {
      pk = dyno_table_info_get_partition_key (self->info);
      sk = dyno_table_info_get_sort_key (self->info);
    }

  update_string (self, &self->pk_name, pk != NULL ? pk->name : NULL, PROP_PARTITION_KEY_NAME);
  update_string (self, &self->sk_name, sk != NULL ? sk->name : NULL, PROP_SORT_KEY_NAME);
  self->pk_type = pk != NULL ? pk->type : DYNO_VALUE_S;
  self->sk_type = sk != NULL && sk->name != NULL ? sk->type : DYNO_VALUE_S;
}

static void
set_key_condition_internal (DynoQueryDraft *self,
                            DynoExpr       *expr)  /* owned */
{
  if (expr_equal0 (self->key_condition, expr))
    {
      /* same meaning; keep the given one (its placeholder names and parentheses) */
      if (self->key_from_expr && expr != NULL)
        {
          g_clear_pointer (&self->key_condition, dyno_expr_free);
          self->key_condition = expr;
        }
      else
        g_clear_pointer (&expr, dyno_expr_free);
      return;
    }

  g_clear_pointer (&self->key_condition, dyno_expr_free);
  self->key_condition = expr;
  mark_changed (self, PROP_KEY_CONDITION);
}

static void
set_structured (DynoQueryDraft *self,
                gboolean        structured)
{
  if (self->structured == structured)
    return;
  self->structured = structured;
  mark_changed (self, PROP_KEY_CONDITION_STRUCTURED);
}

static void
set_sort_key_operator_internal (DynoQueryDraft      *self,
                                DynoSortKeyOperator  op)
{
  if (self->sk_op == op)
    return;
  self->sk_op = op;
  mark_changed (self, PROP_SORT_KEY_OPERATOR);
}

/* After the names or the source changed: the parts follow the expression, or the expression
 * follows the parts. */
static void
sync_key (DynoQueryDraft *self)
{
  if (self->key_from_expr)
    {
      KeyTerm pk, sk;
      g_autofree char *pk_text = NULL;
      g_autofree char *sk_text = NULL;
      g_autofree char *sk_text2 = NULL;
      gboolean ok;

      g_assert (self->key_condition != NULL);

      ok = decompose_key_condition (self, self->key_condition, &pk, &sk);
      if (ok)
        {
          pk_text = dyno_value_to_key_text (pk.values[0]);
          if (sk.attribute != NULL)
            {
              sk_text = dyno_value_to_key_text (sk.values[0]);
              if (sk.values[1] != NULL)
                sk_text2 = dyno_value_to_key_text (sk.values[1]);
            }
          if (self->info == NULL)
            {
              update_string (self, &self->pk_name, pk.attribute, PROP_PARTITION_KEY_NAME);
              self->pk_type = dyno_value_get_kind (pk.values[0]);
              if (sk.attribute != NULL)
                {
                  update_string (self, &self->sk_name, sk.attribute, PROP_SORT_KEY_NAME);
                  self->sk_type = dyno_value_get_kind (sk.values[0]);
                }
            }
        }

      update_string (self, &self->pk_text, pk_text ? pk_text : "", PROP_PARTITION_KEY_TEXT);
      set_sort_key_operator_internal (self, ok && sk.attribute != NULL ? sk.op
                                                                   : DYNO_SORT_KEY_NONE);
      update_string (self, &self->sk_text, sk_text ? sk_text : "", PROP_SORT_KEY_TEXT);
      update_string (self, &self->sk_text2, sk_text2 ? sk_text2 : "", PROP_SORT_KEY_TEXT2);
      set_structured (self, ok);
    }
  else
    {
      set_key_condition_internal (self, build_key_condition (self));
      set_structured (self, TRUE);
    }
}

/* A part was set: from now on the parts are the source. */
static void
parts_changed (DynoQueryDraft *self)
{
  self->key_from_expr = FALSE;
  sync_key (self);
}

/* ---- validation ----------------------------------------------------------------------------- */

static void
add_issue (GPtrArray  *issues,
           const char *field,
           char       *message)  /* owned */
{
  DynoIssue *issue = g_new0 (DynoIssue, 1);

  issue->field = g_strdup (field);
  issue->message = message;
  g_ptr_array_add (issues, issue);
}

static gboolean
check_key_text (GPtrArray     *issues,
                const char    *field,
                const char    *text,
                DynoValueType  type)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoValue) value = dyno_value_new_from_key_text (text, type, &error);

  if (value == NULL)
    {
      add_issue (issues, field, g_strdup (error->message));
      return FALSE;
    }
  return TRUE;
}

/* Why the parts give no key condition; FALSE when they have a problem. */
static gboolean
validate_parts (DynoQueryDraft *self,
                GPtrArray      *issues)
{
  gboolean ok = TRUE;

  if (self->pk_name == NULL)
    {
      add_issue (issues, DYNO_DRAFT_FIELD_KEY_CONDITION,
                 g_strdup (_("The table's key schema is not known yet")));
      return FALSE;
    }

  if (self->pk_text == NULL || *self->pk_text == '\0')
    {
      add_issue (issues, DYNO_DRAFT_FIELD_PARTITION_KEY_TEXT,
                 g_strdup_printf (_("Enter the partition key value (%s)"), self->pk_name));
      ok = FALSE;
    }
  else
    ok &= check_key_text (issues, DYNO_DRAFT_FIELD_PARTITION_KEY_TEXT, self->pk_text,
                          self->pk_type);

  if (self->sk_name == NULL || self->sk_op == DYNO_SORT_KEY_NONE)
    return ok;

  if (self->sk_op == DYNO_SORT_KEY_BETWEEN
      && (*self->sk_text == '\0' || *self->sk_text2 == '\0'))
    {
      add_issue (issues, *self->sk_text == '\0' ? DYNO_DRAFT_FIELD_SORT_KEY_TEXT
                                                : DYNO_DRAFT_FIELD_SORT_KEY_TEXT2,
                 g_strdup_printf (_("Enter both bounds of the sort key (%s)"), self->sk_name));
      return FALSE;
    }
  if (*self->sk_text == '\0')
    {
      add_issue (issues, DYNO_DRAFT_FIELD_SORT_KEY_TEXT,
                 g_strdup_printf (_("Enter the sort key value (%s)"), self->sk_name));
      return FALSE;
    }

  ok &= check_key_text (issues, DYNO_DRAFT_FIELD_SORT_KEY_TEXT, self->sk_text, self->sk_type);
  if (self->sk_op == DYNO_SORT_KEY_BETWEEN)
    ok &= check_key_text (issues, DYNO_DRAFT_FIELD_SORT_KEY_TEXT2, self->sk_text2,
                          self->sk_type);

  return ok;
}

static const char *
field_for_member (const char *member)
{
  static const struct {
    const char *member;
    const char *field;
  } map[] = {
    { "TableName", DYNO_DRAFT_FIELD_TABLE_NAME },
    { "IndexName", DYNO_DRAFT_FIELD_INDEX_NAME },
    { "KeyConditionExpression", DYNO_DRAFT_FIELD_KEY_CONDITION },
    { "FilterExpression", DYNO_DRAFT_FIELD_FILTER },
    { "ProjectionExpression", DYNO_DRAFT_FIELD_PROJECTION },
    { "Limit", DYNO_DRAFT_FIELD_LIMIT },
    { "ConsistentRead", DYNO_DRAFT_FIELD_CONSISTENT_READ },
    { "Select", DYNO_DRAFT_FIELD_SELECT },
    { "ExclusiveStartKey", DYNO_DRAFT_FIELD_EXCLUSIVE_START_KEY },
    { "Segment", DYNO_DRAFT_FIELD_SEGMENT },
    { "TotalSegments", DYNO_DRAFT_FIELD_TOTAL_SEGMENTS },
  };

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (g_strcmp0 (member, map[i].member) == 0)
      return map[i].field;

  return member;
}

/* ---- GObject -------------------------------------------------------------------------------- */

static void
dyno_query_draft_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  DynoQueryDraft *self = DYNO_QUERY_DRAFT (object);

  switch (prop_id)
    {
    case PROP_OPERATION:
      g_value_set_enum (value, self->operation);
      break;
    case PROP_TABLE_NAME:
      g_value_set_string (value, self->table_name);
      break;
    case PROP_INDEX_NAME:
      g_value_set_string (value, self->index_name);
      break;
    case PROP_TABLE_INFO:
      g_value_set_boxed (value, self->info);
      break;
    case PROP_PARTITION_KEY_NAME:
      g_value_set_string (value, self->pk_name);
      break;
    case PROP_SORT_KEY_NAME:
      g_value_set_string (value, self->sk_name);
      break;
    case PROP_KEY_CONDITION:
      g_value_set_pointer (value, self->key_condition);
      break;
    case PROP_KEY_CONDITION_STRUCTURED:
      g_value_set_boolean (value, self->structured);
      break;
    case PROP_PARTITION_KEY_TEXT:
      g_value_set_string (value, self->pk_text);
      break;
    case PROP_SORT_KEY_OPERATOR:
      g_value_set_enum (value, self->sk_op);
      break;
    case PROP_SORT_KEY_TEXT:
      g_value_set_string (value, self->sk_text);
      break;
    case PROP_SORT_KEY_TEXT2:
      g_value_set_string (value, self->sk_text2);
      break;
    case PROP_FILTER:
      g_value_set_pointer (value, self->filter);
      break;
    case PROP_PROJECTION:
      g_value_set_pointer (value, self->projection);
      break;
    case PROP_SCAN_INDEX_FORWARD:
      g_value_set_enum (value, self->scan_index_forward);
      break;
    case PROP_LIMIT:
      g_value_set_int64 (value, self->limit);
      break;
    case PROP_CONSISTENT_READ:
      g_value_set_enum (value, self->consistent_read);
      break;
    case PROP_SELECT:
      g_value_set_enum (value, self->select);
      break;
    case PROP_RETURN_CONSUMED_CAPACITY:
      g_value_set_enum (value, self->return_consumed_capacity);
      break;
    case PROP_EXCLUSIVE_START_KEY:
      g_value_set_boxed (value, self->start_key);
      break;
    case PROP_SEGMENT:
      g_value_set_int (value, self->segment);
      break;
    case PROP_TOTAL_SEGMENTS:
      g_value_set_int (value, self->total_segments);
      break;
    case PROP_MAX_ITEMS:
      g_value_set_uint64 (value, self->max_items);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_query_draft_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  DynoQueryDraft *self = DYNO_QUERY_DRAFT (object);

  switch (prop_id)
    {
    case PROP_OPERATION:
      dyno_query_draft_set_operation (self, g_value_get_enum (value));
      break;
    case PROP_TABLE_NAME:
      dyno_query_draft_set_table_name (self, g_value_get_string (value));
      break;
    case PROP_INDEX_NAME:
      dyno_query_draft_set_index_name (self, g_value_get_string (value));
      break;
    case PROP_TABLE_INFO:
      dyno_query_draft_set_table_info (self, g_value_get_boxed (value));
      break;
    case PROP_PARTITION_KEY_TEXT:
      dyno_query_draft_set_partition_key_text (self, g_value_get_string (value));
      break;
    case PROP_SORT_KEY_OPERATOR:
      dyno_query_draft_set_sort_key_operator (self, g_value_get_enum (value));
      break;
    case PROP_SORT_KEY_TEXT:
      dyno_query_draft_set_sort_key_text (self, g_value_get_string (value));
      break;
    case PROP_SORT_KEY_TEXT2:
      dyno_query_draft_set_sort_key_text2 (self, g_value_get_string (value));
      break;
    case PROP_SCAN_INDEX_FORWARD:
      dyno_query_draft_set_scan_index_forward (self, g_value_get_enum (value));
      break;
    case PROP_LIMIT:
      dyno_query_draft_set_limit (self, g_value_get_int64 (value));
      break;
    case PROP_CONSISTENT_READ:
      dyno_query_draft_set_consistent_read (self, g_value_get_enum (value));
      break;
    case PROP_SELECT:
      dyno_query_draft_set_select (self, g_value_get_enum (value));
      break;
    case PROP_RETURN_CONSUMED_CAPACITY:
      dyno_query_draft_set_return_consumed_capacity (self, g_value_get_enum (value));
      break;
    case PROP_EXCLUSIVE_START_KEY:
      dyno_query_draft_set_exclusive_start_key (self, g_value_get_boxed (value));
      break;
    case PROP_SEGMENT:
      dyno_query_draft_set_segment (self, g_value_get_int (value));
      break;
    case PROP_TOTAL_SEGMENTS:
      dyno_query_draft_set_total_segments (self, g_value_get_int (value));
      break;
    case PROP_MAX_ITEMS:
      dyno_query_draft_set_max_items (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_query_draft_finalize (GObject *object)
{
  DynoQueryDraft *self = DYNO_QUERY_DRAFT (object);

  g_free (self->table_name);
  g_free (self->index_name);
  g_clear_pointer (&self->info, dyno_table_info_unref);
  g_free (self->pk_name);
  g_free (self->sk_name);
  g_clear_pointer (&self->key_condition, dyno_expr_free);
  g_free (self->pk_text);
  g_free (self->sk_text);
  g_free (self->sk_text2);
  g_clear_pointer (&self->filter, dyno_expr_free);
  g_clear_pointer (&self->projection, g_ptr_array_unref);
  g_clear_pointer (&self->start_key, dyno_item_unref);

  G_OBJECT_CLASS (dyno_query_draft_parent_class)->finalize (object);
}

static void
dyno_query_draft_class_init (DynoQueryDraftClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = dyno_query_draft_get_property;
  object_class->set_property = dyno_query_draft_set_property;
  object_class->finalize = dyno_query_draft_finalize;

  properties[PROP_OPERATION] =
    g_param_spec_enum ("operation", NULL, NULL, DYNO_TYPE_OPERATION, DYNO_OP_QUERY, rw);
  properties[PROP_TABLE_NAME] = g_param_spec_string ("table-name", NULL, NULL, NULL, rw);
  properties[PROP_INDEX_NAME] = g_param_spec_string ("index-name", NULL, NULL, NULL, rw);
  properties[PROP_TABLE_INFO] =
    g_param_spec_boxed ("table-info", NULL, NULL, DYNO_TYPE_TABLE_INFO, rw);
  properties[PROP_PARTITION_KEY_NAME] =
    g_param_spec_string ("partition-key-name", NULL, NULL, NULL, ro);
  properties[PROP_SORT_KEY_NAME] = g_param_spec_string ("sort-key-name", NULL, NULL, NULL, ro);
  /* a const DynoExpr*, set with dyno_query_draft_set_key_condition() */
  properties[PROP_KEY_CONDITION] = g_param_spec_pointer ("key-condition", NULL, NULL, ro);
  properties[PROP_KEY_CONDITION_STRUCTURED] =
    g_param_spec_boolean ("key-condition-structured", NULL, NULL, TRUE, ro);
  properties[PROP_PARTITION_KEY_TEXT] =
    g_param_spec_string ("partition-key-text", NULL, NULL, "", rw);
  properties[PROP_SORT_KEY_OPERATOR] =
    g_param_spec_enum ("sort-key-operator", NULL, NULL, DYNO_TYPE_SORT_KEY_OPERATOR,
                       DYNO_SORT_KEY_NONE, rw);
  properties[PROP_SORT_KEY_TEXT] = g_param_spec_string ("sort-key-text", NULL, NULL, "", rw);
  properties[PROP_SORT_KEY_TEXT2] = g_param_spec_string ("sort-key-text2", NULL, NULL, "", rw);
  properties[PROP_FILTER] = g_param_spec_pointer ("filter", NULL, NULL, ro);
  properties[PROP_PROJECTION] = g_param_spec_pointer ("projection", NULL, NULL, ro);
  properties[PROP_SCAN_INDEX_FORWARD] =
    g_param_spec_enum ("scan-index-forward", NULL, NULL, DYNO_TYPE_TRISTATE,
                       DYNO_TRISTATE_UNSET, rw);
  properties[PROP_LIMIT] = g_param_spec_int64 ("limit", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                                               rw);
  properties[PROP_CONSISTENT_READ] =
    g_param_spec_enum ("consistent-read", NULL, NULL, DYNO_TYPE_TRISTATE, DYNO_TRISTATE_UNSET,
                       rw);
  properties[PROP_SELECT] =
    g_param_spec_enum ("select", NULL, NULL, DYNO_TYPE_SELECT, DYNO_SELECT_UNSET, rw);
  properties[PROP_RETURN_CONSUMED_CAPACITY] =
    g_param_spec_enum ("return-consumed-capacity", NULL, NULL,
                       DYNO_TYPE_RETURN_CONSUMED_CAPACITY, DYNO_CONSUMED_UNSET, rw);
  properties[PROP_EXCLUSIVE_START_KEY] =
    g_param_spec_boxed ("exclusive-start-key", NULL, NULL, DYNO_TYPE_ITEM, rw);
  properties[PROP_SEGMENT] = g_param_spec_int ("segment", NULL, NULL, G_MININT, G_MAXINT, -1, rw);
  properties[PROP_TOTAL_SEGMENTS] =
    g_param_spec_int ("total-segments", NULL, NULL, G_MININT, G_MAXINT, -1, rw);
  properties[PROP_MAX_ITEMS] =
    g_param_spec_uint64 ("max-items", NULL, NULL, 0, G_MAXUINT64, 0, rw);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * DynoQueryDraft::changed:
   *
   * Once after any change (after the property notifications), once for a whole
   * from_request() or load_json().
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
dyno_query_draft_init (DynoQueryDraft *self)
{
  self->operation = DYNO_OP_QUERY;
  self->pk_type = DYNO_VALUE_S;
  self->sk_type = DYNO_VALUE_S;
  self->structured = TRUE;
  self->pk_text = g_strdup ("");
  self->sk_text = g_strdup ("");
  self->sk_text2 = g_strdup ("");
  self->scan_index_forward = DYNO_TRISTATE_UNSET;
  self->consistent_read = DYNO_TRISTATE_UNSET;
  self->segment = -1;
  self->total_segments = -1;
}

/* ---- public API ----------------------------------------------------------------------------- */

const char *
dyno_sort_key_operator_to_string (DynoSortKeyOperator op)
{
  g_return_val_if_fail (op <= DYNO_SORT_KEY_BEGINS_WITH, NULL);

  return sort_key_operator_names[op];
}

gboolean
dyno_sort_key_operator_from_string (const char          *text,
                                    DynoSortKeyOperator *out)
{
  int i;

  g_return_val_if_fail (out != NULL, FALSE);

  if (!_dyno_lookup_name (sort_key_operator_names, G_N_ELEMENTS (sort_key_operator_names),
                          text, &i))
    return FALSE;

  *out = (DynoSortKeyOperator) i;
  return TRUE;
}

DynoQueryDraft *
dyno_query_draft_new (void)
{
  return g_object_new (DYNO_TYPE_QUERY_DRAFT, NULL);
}

DynoOperation
dyno_query_draft_get_operation (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), DYNO_OP_QUERY);
  return self->operation;
}

void
dyno_query_draft_set_operation (DynoQueryDraft *self,
                                DynoOperation   operation)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));
  g_return_if_fail (operation == DYNO_OP_QUERY || operation == DYNO_OP_SCAN);

  if (self->operation == operation)
    return;

  begin_change (self);
  self->operation = operation;
  mark_changed (self, PROP_OPERATION);
  end_change (self);
}

const char *
dyno_query_draft_get_table_name (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->table_name;
}

void
dyno_query_draft_set_table_name (DynoQueryDraft *self,
                                 const char     *table_name)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));

  begin_change (self);
  update_string (self, &self->table_name, table_name, PROP_TABLE_NAME);
  end_change (self);
}

const char *
dyno_query_draft_get_index_name (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->index_name;
}

void
dyno_query_draft_set_index_name (DynoQueryDraft *self,
                                 const char     *index_name)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));

  if (g_strcmp0 (self->index_name, index_name) == 0)
    return;

  begin_change (self);
  update_string (self, &self->index_name, index_name, PROP_INDEX_NAME);
  /* without a schema the names come from the key condition, whatever the index */
  if (self->info != NULL)
    {
      update_key_names (self);
      sync_key (self);
    }
  end_change (self);
}

DynoTableInfo *
dyno_query_draft_get_table_info (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->info;
}

void
dyno_query_draft_set_table_info (DynoQueryDraft *self,
                                 DynoTableInfo  *info)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));

  if (self->info == info)
    return;

  begin_change (self);
  g_clear_pointer (&self->info, dyno_table_info_unref);
  if (info != NULL)
    self->info = dyno_table_info_ref (info);
  mark_changed (self, PROP_TABLE_INFO);
  update_key_names (self);
  sync_key (self);
  end_change (self);
}

const char *
dyno_query_draft_get_partition_key_name (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->pk_name;
}

const char *
dyno_query_draft_get_sort_key_name (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->sk_name;
}

const DynoExpr *
dyno_query_draft_get_key_condition (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->key_condition;
}

void
dyno_query_draft_set_key_condition (DynoQueryDraft *self,
                                    const DynoExpr *expr)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));

  begin_change (self);
  if (expr == NULL)
    {
      /* nothing given: empty parts */
      self->key_from_expr = FALSE;
      update_string (self, &self->pk_text, "", PROP_PARTITION_KEY_TEXT);
      update_string (self, &self->sk_text, "", PROP_SORT_KEY_TEXT);
      update_string (self, &self->sk_text2, "", PROP_SORT_KEY_TEXT2);
      set_sort_key_operator_internal (self, DYNO_SORT_KEY_NONE);
      set_key_condition_internal (self, NULL);
      set_structured (self, TRUE);
    }
  else
    {
      self->key_from_expr = TRUE;
      set_key_condition_internal (self, dyno_expr_copy (expr));
      sync_key (self);
    }
  end_change (self);
}

gboolean
dyno_query_draft_get_key_condition_structured (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), FALSE);
  return self->structured;
}

void
dyno_query_draft_take_key_from_parts (DynoQueryDraft *self)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));

  if (!self->key_from_expr || !self->structured)
    return;

  begin_change (self);
  parts_changed (self);
  end_change (self);
}

const char *
dyno_query_draft_get_partition_key_text (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->pk_text;
}

static void
set_part_text (DynoQueryDraft  *self,
               char           **field,
               const char      *text,
               guint            prop)
{
  if (text == NULL)
    text = "";
  if (g_strcmp0 (*field, text) == 0)
    return;

  begin_change (self);
  update_string (self, field, text, prop);
  parts_changed (self);
  end_change (self);
}

void
dyno_query_draft_set_partition_key_text (DynoQueryDraft *self,
                                         const char     *text)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));
  set_part_text (self, &self->pk_text, text, PROP_PARTITION_KEY_TEXT);
}

DynoSortKeyOperator
dyno_query_draft_get_sort_key_operator (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), DYNO_SORT_KEY_NONE);
  return self->sk_op;
}

void
dyno_query_draft_set_sort_key_operator (DynoQueryDraft      *self,
                                        DynoSortKeyOperator  op)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));
  g_return_if_fail (op <= DYNO_SORT_KEY_BEGINS_WITH);

  if (self->sk_op == op)
    return;

  begin_change (self);
  set_sort_key_operator_internal (self, op);
  parts_changed (self);
  end_change (self);
}

const char *
dyno_query_draft_get_sort_key_text (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->sk_text;
}

void
dyno_query_draft_set_sort_key_text (DynoQueryDraft *self,
                                    const char     *text)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));
  set_part_text (self, &self->sk_text, text, PROP_SORT_KEY_TEXT);
}

const char *
dyno_query_draft_get_sort_key_text2 (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->sk_text2;
}

void
dyno_query_draft_set_sort_key_text2 (DynoQueryDraft *self,
                                     const char     *text)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));
  set_part_text (self, &self->sk_text2, text, PROP_SORT_KEY_TEXT2);
}

const DynoExpr *
dyno_query_draft_get_filter (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->filter;
}

void
dyno_query_draft_set_filter (DynoQueryDraft *self,
                             const DynoExpr *expr)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));

  if (self->filter == expr)
    return;

  begin_change (self);
  if (!expr_equal0 (self->filter, expr))
    mark_changed (self, PROP_FILTER);
  /* an equal one still replaces it: its placeholder names may differ */
  g_clear_pointer (&self->filter, dyno_expr_free);
  self->filter = expr ? dyno_expr_copy (expr) : NULL;
  end_change (self);
}

GPtrArray *
dyno_query_draft_get_projection (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->projection;
}

static GPtrArray *
copy_projection (GPtrArray *paths)
{
  GPtrArray *copy = dyno_projection_new ();

  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (copy, dyno_path_copy (g_ptr_array_index (paths, i)));

  return copy;
}

void
dyno_query_draft_set_projection (DynoQueryDraft *self,
                                 GPtrArray      *paths)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));

  if (paths != NULL && paths->len == 0)
    paths = NULL;
  if (self->projection == NULL ? paths == NULL
                               : paths != NULL && dyno_projection_equal (self->projection, paths))
    return;

  begin_change (self);
  g_clear_pointer (&self->projection, g_ptr_array_unref);
  self->projection = paths ? copy_projection (paths) : NULL;
  mark_changed (self, PROP_PROJECTION);
  end_change (self);
}

#define SIMPLE_ACCESSORS(type, name, field, PROP, check)                                \
  type                                                                                 \
  dyno_query_draft_get_##name (DynoQueryDraft *self)                                   \
  {                                                                                    \
    g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), 0);                              \
    return self->field;                                                                \
  }                                                                                    \
                                                                                       \
  void                                                                                 \
  dyno_query_draft_set_##name (DynoQueryDraft *self,                                   \
                               type            value)                                  \
  {                                                                                    \
    g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));                                     \
    g_return_if_fail (check);                                                          \
                                                                                       \
    if (self->field == value)                                                          \
      return;                                                                          \
                                                                                       \
    begin_change (self);                                                               \
    self->field = value;                                                               \
    mark_changed (self, PROP);                                                         \
    end_change (self);                                                                 \
  }

SIMPLE_ACCESSORS (DynoTristate, scan_index_forward, scan_index_forward,
                  PROP_SCAN_INDEX_FORWARD,
                  value >= DYNO_TRISTATE_UNSET && value <= DYNO_TRISTATE_TRUE)
SIMPLE_ACCESSORS (gint64, limit, limit, PROP_LIMIT, TRUE)
SIMPLE_ACCESSORS (DynoTristate, consistent_read, consistent_read, PROP_CONSISTENT_READ,
                  value >= DYNO_TRISTATE_UNSET && value <= DYNO_TRISTATE_TRUE)
SIMPLE_ACCESSORS (DynoSelect, select, select, PROP_SELECT, value <= DYNO_SELECT_COUNT)
SIMPLE_ACCESSORS (DynoReturnConsumedCapacity, return_consumed_capacity,
                  return_consumed_capacity, PROP_RETURN_CONSUMED_CAPACITY,
                  value <= DYNO_CONSUMED_INDEXES)
SIMPLE_ACCESSORS (gint, segment, segment, PROP_SEGMENT, TRUE)
SIMPLE_ACCESSORS (gint, total_segments, total_segments, PROP_TOTAL_SEGMENTS, TRUE)
SIMPLE_ACCESSORS (guint64, max_items, max_items, PROP_MAX_ITEMS, TRUE)

#undef SIMPLE_ACCESSORS

DynoItem *
dyno_query_draft_get_exclusive_start_key (DynoQueryDraft *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);
  return self->start_key;
}

void
dyno_query_draft_set_exclusive_start_key (DynoQueryDraft *self,
                                          DynoItem       *key)
{
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (self));

  if (self->start_key == key)
    return;

  begin_change (self);
  g_clear_pointer (&self->start_key, dyno_item_unref);
  if (key != NULL)
    self->start_key = dyno_item_ref (key);
  mark_changed (self, PROP_EXCLUSIVE_START_KEY);
  end_change (self);
}

/* ---- conversions ---------------------------------------------------------------------------- */

DynoRequest *
dyno_query_draft_to_request (DynoQueryDraft *self)
{
  DynoRequest *request;

  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);

  request = dyno_request_new (self->operation, self->table_name);
  request->index_name = g_strdup (self->index_name);
  if (self->operation == DYNO_OP_QUERY && self->key_condition != NULL)
    request->key_condition = dyno_expr_copy (self->key_condition);
  if (self->filter != NULL)
    request->filter = dyno_expr_copy (self->filter);
  if (self->projection != NULL)
    request->projection = copy_projection (self->projection);
  if (self->start_key != NULL)
    request->exclusive_start_key = dyno_item_ref (self->start_key);
  request->limit = self->limit;
  if (self->operation == DYNO_OP_QUERY)
    request->scan_index_forward = self->scan_index_forward;
  request->consistent_read = self->consistent_read;
  request->select = self->select;
  request->return_consumed_capacity = self->return_consumed_capacity;
  request->segment = self->segment;
  request->total_segments = self->total_segments;

  return request;
}

static gboolean
check_representable (const DynoRequest  *request,
                     GError            **error)
{
  const char *op = dyno_operation_to_string (request->operation);
  const char *member = NULL;

  if (request->operation != DYNO_OP_QUERY && request->operation != DYNO_OP_SCAN)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   _("A %s request cannot be opened as a query: only a Query or a Scan can"),
                   op);
      return FALSE;
    }

  if (request->key != NULL)
    member = "Key";
  else if (request->item != NULL)
    member = "Item";
  else if (request->update != NULL)
    member = "UpdateExpression";
  else if (request->condition != NULL)
    member = "ConditionExpression";
  else if (request->return_values != DYNO_RETURN_VALUES_UNSET)
    member = "ReturnValues";
  else if (request->operation == DYNO_OP_SCAN && request->key_condition != NULL)
    member = "KeyConditionExpression";
  else if (request->operation == DYNO_OP_SCAN && request->scan_index_forward != DYNO_TRISTATE_UNSET)
    member = "ScanIndexForward";

  if (member != NULL)
    {
      /* Translators: the operation ("Query", "Scan"), then a request member ("Key"). */
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   _("A %s has no %s: the request cannot be opened as a query"), op, member);
      return FALSE;
    }

  return TRUE;
}

static void
apply_request (DynoQueryDraft    *self,
               const DynoRequest *request)
{
  begin_change (self);
  dyno_query_draft_set_operation (self, request->operation);
  dyno_query_draft_set_table_name (self, request->table_name);
  dyno_query_draft_set_index_name (self, request->index_name);
  dyno_query_draft_set_key_condition (self, request->key_condition);
  dyno_query_draft_set_filter (self, request->filter);
  dyno_query_draft_set_projection (self, request->projection);
  dyno_query_draft_set_scan_index_forward (self, request->scan_index_forward);
  dyno_query_draft_set_limit (self, request->limit);
  dyno_query_draft_set_consistent_read (self, request->consistent_read);
  dyno_query_draft_set_select (self, request->select);
  dyno_query_draft_set_return_consumed_capacity (self, request->return_consumed_capacity);
  dyno_query_draft_set_exclusive_start_key (self, request->exclusive_start_key);
  dyno_query_draft_set_segment (self, request->segment);
  dyno_query_draft_set_total_segments (self, request->total_segments);
  end_change (self);
}

gboolean
dyno_query_draft_from_request (DynoQueryDraft     *self,
                               const DynoRequest  *request,
                               GError            **error)
{
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), FALSE);
  g_return_val_if_fail (request != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_representable (request, error))
    return FALSE;

  begin_change (self);
  apply_request (self, request);
  dyno_query_draft_set_max_items (self, 0);
  end_change (self);

  return TRUE;
}

GPtrArray *
dyno_query_draft_validate (DynoQueryDraft *self)
{
  GPtrArray *issues;
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(GPtrArray) request_issues = NULL;
  gboolean key_ok = TRUE;

  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);

  issues = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_issue_free);

  if (self->operation == DYNO_OP_QUERY)
    {
      if (!self->key_from_expr)
        key_ok = validate_parts (self, issues);
      if (key_ok && self->key_condition == NULL)
        {
          add_issue (issues, DYNO_DRAFT_FIELD_KEY_CONDITION,
                     g_strdup (_("A query needs a key condition: the partition key with =")));
          key_ok = FALSE;
        }
    }

  request = dyno_query_draft_to_request (self);
  request_issues = dyno_request_validate (request, self->info);
  for (guint i = 0; i < request_issues->len; i++)
    {
      DynoIssue *issue = g_ptr_array_index (request_issues, i);
      const char *field = field_for_member (issue->field);

      if (!key_ok && strcmp (field, DYNO_DRAFT_FIELD_KEY_CONDITION) == 0)
        continue;

      g_free (issue->field);
      issue->field = g_strdup (field);
      g_ptr_array_add (issues, g_steal_pointer (&request_issues->pdata[i]));
    }

  return issues;
}

GHashTable *
dyno_query_draft_dup_errors (DynoQueryDraft *self)
{
  g_autoptr(GPtrArray) issues = NULL;
  GHashTable *errors;

  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);

  issues = dyno_query_draft_validate (self);
  errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                  (GDestroyNotify) g_error_free);
  for (guint i = 0; i < issues->len; i++)
    {
      const DynoIssue *issue = g_ptr_array_index (issues, i);
      GError *previous = g_hash_table_lookup (errors, issue->field);
      GError *error;

      if (previous != NULL)
        error = g_error_new (DYNO_ERROR, DYNO_ERROR_VALIDATION, "%s\n%s", previous->message,
                             issue->message);
      else
        error = g_error_new_literal (DYNO_ERROR, DYNO_ERROR_VALIDATION, issue->message);
      g_hash_table_replace (errors, g_strdup (issue->field), error);
    }

  return errors;
}

/* ---- saved queries -------------------------------------------------------------------------- */

char *
dyno_query_draft_to_json (DynoQueryDraft *self,
                          gboolean        pretty)
{
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonObject *key = NULL;

  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), NULL);

  request = dyno_query_draft_to_request (self);
  object = json_object_new ();
  root = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (root, object);
  json_object_set_string_member (object, "format", FORMAT_NAME);
  json_object_set_int_member (object, "version", DYNO_QUERY_DRAFT_FORMAT_VERSION);
  json_object_set_string_member (object, "operation", dyno_operation_to_string (self->operation));

  if (self->operation == DYNO_OP_QUERY && !self->key_from_expr)
    {
      /* the parts are the source: save them as typed, not the expression they give */
      key = json_object_new ();
      g_clear_pointer (&request->key_condition, dyno_expr_free);
      json_object_set_string_member (key, "partition", self->pk_text);
      json_object_set_string_member (key, "sortOperator",
                                     dyno_sort_key_operator_to_string (self->sk_op));
      json_object_set_string_member (key, "sort", self->sk_text);
      json_object_set_string_member (key, "sort2", self->sk_text2);
    }
  json_object_set_member (object, "request", dyno_request_to_json_node (request));
  if (key != NULL)
    json_object_set_object_member (object, "key", key);
  if (self->max_items > 0)
    json_object_set_int_member (object, "maxItems", (gint64) MIN (self->max_items, G_MAXINT64));

  return dyno_json_node_to_string (root, pretty);
}

static gboolean
get_string (JsonObject  *object,
            const char  *member,
            gboolean     required,
            const char **out,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *out = NULL;
  if (node == NULL && !required)
    return TRUE;
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   _("A saved query's “%s” must be a string"), member);
      return FALSE;
    }

  *out = json_node_get_string (node);
  return TRUE;
}

gboolean
dyno_query_draft_load_json (DynoQueryDraft  *self,
                            const char      *json,
                            gssize           len,
                            GError         **error)
{
  static const char * const known[] = {
    "format", "version", "operation", "request", "key", "maxItems",
  };
  static const char * const key_known[] = { "partition", "sortOperator", "sort", "sort2" };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GList) members = NULL;
  g_autoptr(DynoRequest) request = NULL;
  g_autofree char *request_text = NULL;
  JsonObject *object;
  JsonNode *node;
  const char *text = NULL;
  const char *pk_text = NULL, *sk_op_text = NULL, *sk_text = NULL, *sk_text2 = NULL;
  DynoOperation op;
  DynoSortKeyOperator sk_op = DYNO_SORT_KEY_NONE;
  gint64 version, max_items = 0;
  gboolean has_key = FALSE;

  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (self), FALSE);
  g_return_val_if_fail (json != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  root = dyno_json_parse (json, len, error);
  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_JSON,
                           _("A saved query is a JSON object"));
      return FALSE;
    }
  object = json_node_get_object (root);

  if (!get_string (object, "format", TRUE, &text, error))
    return FALSE;
  if (strcmp (text, FORMAT_NAME) != 0)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   _("This is not a saved query: its format is “%s”, not “%s”"), text,
                   FORMAT_NAME);
      return FALSE;
    }

  node = json_object_get_member (object, "version");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_JSON,
                           _("A saved query's “version” must be a whole number"));
      return FALSE;
    }
  version = json_node_get_int (node);
  if (version < 1 || version > DYNO_QUERY_DRAFT_FORMAT_VERSION)
    {
      g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, version);

      if (version < 1)
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                     _("A saved query's version is 1 or more, not %s"), number);
      else
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                     _("This saved query has version %s, and this DynoTable reads versions up "
                       "to %d: it was saved by a newer DynoTable"),
                     number, DYNO_QUERY_DRAFT_FORMAT_VERSION);
      return FALSE;
    }

  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      gboolean ok = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (known); i++)
        ok |= strcmp (l->data, known[i]) == 0;
      if (!ok)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                       _("A saved query has no member “%s”"), (const char *) l->data);
          return FALSE;
        }
    }

  if (!get_string (object, "operation", TRUE, &text, error))
    return FALSE;
  if (!dyno_operation_from_string (text, &op) || (op != DYNO_OP_QUERY && op != DYNO_OP_SCAN))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   _("A saved query's operation is “Query” or “Scan”, not “%s”"), text);
      return FALSE;
    }

  node = json_object_get_member (object, "request");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_JSON,
                           _("A saved query's “request” must be a JSON object"));
      return FALSE;
    }
  request_text = dyno_json_node_to_string (node, FALSE);
  request = dyno_request_from_json_draft (request_text, -1, op, error);
  if (request == NULL)
    return FALSE;
  if (!check_representable (request, error))
    return FALSE;

  node = json_object_get_member (object, "key");
  if (node != NULL)
    {
      JsonObject *key;
      g_autoptr(GList) key_members = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node) || op != DYNO_OP_QUERY
          || request->key_condition != NULL)
        {
          g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_JSON,
                               _("A saved query's “key” is an object, and only a Query "
                                 "without a KeyConditionExpression has one"));
          return FALSE;
        }
      key = json_node_get_object (node);
      key_members = json_object_get_members (key);
      for (GList *l = key_members; l != NULL; l = l->next)
        {
          gboolean ok = FALSE;

          for (guint i = 0; i < G_N_ELEMENTS (key_known); i++)
            ok |= strcmp (l->data, key_known[i]) == 0;
          if (!ok)
            {
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                           _("A saved query's key has no member “%s”"), (const char *) l->data);
              return FALSE;
            }
        }
      if (!get_string (key, "partition", FALSE, &pk_text, error)
          || !get_string (key, "sortOperator", FALSE, &sk_op_text, error)
          || !get_string (key, "sort", FALSE, &sk_text, error)
          || !get_string (key, "sort2", FALSE, &sk_text2, error))
        return FALSE;
      if (sk_op_text != NULL && !dyno_sort_key_operator_from_string (sk_op_text, &sk_op))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                       _("A saved query's sort-key operator is one of none, =, <, <=, >, >=, "
                         "between, begins_with, not “%s”"), sk_op_text);
          return FALSE;
        }
      has_key = TRUE;
    }

  node = json_object_get_member (object, "maxItems");
  if (node != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64
          || json_node_get_int (node) < 1)
        {
          g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_JSON,
                               _("A saved query's “maxItems” must be a whole number of at "
                                 "least 1"));
          return FALSE;
        }
      max_items = json_node_get_int (node);
    }

  begin_change (self);
  apply_request (self, request);
  if (has_key)
    {
      dyno_query_draft_set_partition_key_text (self, pk_text);
      dyno_query_draft_set_sort_key_operator (self, sk_op);
      dyno_query_draft_set_sort_key_text (self, sk_text);
      dyno_query_draft_set_sort_key_text2 (self, sk_text2);
    }
  dyno_query_draft_set_max_items (self, (guint64) max_items);
  end_change (self);

  return TRUE;
}
