/* dyno-eval.c: DynamoDB's semantics for conditions, updates, projections and item sizes
 *
 * The behaviour follows the documented rules (dynamodb-facts.md §2-3) and, where the
 * documentation is silent, what DynamoDB Local 3.3.1 answered (tests/unit/test-eval.c lists
 * those cases).  The error texts are DynamoDB's own: the engine sends them on the wire.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-eval.h"
#include "dyno-json.h"
#include "dyno-number.h"

#define INVALID_PATH_FOR_UPDATE \
  "The document path provided in the update expression is invalid for update"
#define INCORRECT_DATA_TYPE "An operand in the update expression has an incorrect data type"
#define MISSING_ATTRIBUTE \
  "The provided expression refers to an attribute that does not exist in the item"

static gboolean
is_ordered_type (DynoValueType type)
{
  return type == DYNO_VALUE_S || type == DYNO_VALUE_N || type == DYNO_VALUE_B;
}

static const char *
role_field (DynoExprRole role)
{
  return dyno_expr_role_to_field (role);
}

/* DynamoDB's rendering of a scalar in messages: {S:abc}, {N:1}, {B:<base64>} */
static char *
render_attribute_value (const DynoValue *value)
{
  DynoValueType type = dyno_value_get_kind (value);

  if (type == DYNO_VALUE_S || type == DYNO_VALUE_N)
    return g_strdup_printf ("{%s:%s}", dyno_value_type_to_string (type),
                            dyno_value_get_string (value, NULL));
  if (type == DYNO_VALUE_B)
    {
      gsize len = 0;
      const guint8 *data = dyno_value_get_binary (value, &len);
      g_autofree char *b64 = g_base64_encode (data, len);

      return g_strdup_printf ("{B:%s}", b64);
    }
  return g_strdup_printf ("{%s}", dyno_value_type_to_string (type));
}

/* ---- paths ------------------------------------------------------------------------------ */

static const DynoValue *
step (const DynoValue *value, const DynoPathElement *e)
{
  if (value == NULL)
    return NULL;
  if (e->name != NULL)
    return dyno_value_get_kind (value) == DYNO_VALUE_M ? dyno_value_lookup (value, e->name)
                                                        : NULL;
  if (dyno_value_get_kind (value) != DYNO_VALUE_L || e->index >= dyno_value_get_n_children (value))
    return NULL;
  return dyno_value_get_child (value, e->index);
}

const DynoValue *
dyno_eval_resolve_path (const DynoItem *item, const DynoPath *path)
{
  const DynoValue *value;

  g_return_val_if_fail (path != NULL, NULL);

  if (item == NULL)
    return NULL;
  value = dyno_item_get_map (item);
  for (guint i = 0; i < path->elements->len && value != NULL; i++)
    value = step (value, &g_array_index (path->elements, DynoPathElement, i));
  return value;
}

typedef enum {
  PATHS_DISJOINT,
  PATHS_OVERLAP,
  PATHS_CONFLICT,
} PathRelation;

static PathRelation
relate_paths (const DynoPath *a, const DynoPath *b)
{
  guint n = MIN (a->elements->len, b->elements->len);

  for (guint i = 0; i < n; i++)
    {
      const DynoPathElement *ea = &g_array_index (a->elements, DynoPathElement, i);
      const DynoPathElement *eb = &g_array_index (b->elements, DynoPathElement, i);

      if ((ea->name == NULL) != (eb->name == NULL))
        return PATHS_CONFLICT;
      if (ea->name != NULL ? strcmp (ea->name, eb->name) != 0 : ea->index != eb->index)
        return PATHS_DISJOINT;
    }
  return PATHS_OVERLAP;
}

static gboolean
check_path_set (GPtrArray *paths, const char *field, GError **error)
{
  for (guint i = 0; i < paths->len; i++)
    for (guint j = i + 1; j < paths->len; j++)
      {
        const DynoPath *a = g_ptr_array_index (paths, i);
        const DynoPath *b = g_ptr_array_index (paths, j);
        PathRelation relation = relate_paths (a, b);
        g_autofree char *da = NULL;
        g_autofree char *db = NULL;

        if (relation == PATHS_DISJOINT)
          continue;
        da = dyno_path_to_display (a);
        db = dyno_path_to_display (b);
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                     "Invalid %s: Two document paths %s with each other; must remove or "
                     "rewrite one of these paths; path one: %s, path two: %s", field,
                     relation == PATHS_OVERLAP ? "overlap" : "conflict", da, db);
        return FALSE;
      }
  return TRUE;
}

/* ---- conditions: the checks DynamoDB makes on the request ------------------------------- */

static gboolean
operand_type_error (DynoExprRole role, const char *op, const char *type, GError **error)
{
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
               "Invalid %s: Incorrect operand type for operator or function; operator or "
               "function: %s, operand type: %s", role_field (role), op, type);
  return FALSE;
}

/* A literal operand of an ordering operator must be S, N or B. */
static gboolean
check_ordered_literal (const DynoExpr *e, DynoExprRole role, const char *op, GError **error)
{
  DynoValueType type;

  e = dyno_expr_skip_parens (e);
  if (e->kind != DYNO_EXPR_VALUE)
    return TRUE;
  type = dyno_value_get_kind (e->value);
  if (is_ordered_type (type))
    return TRUE;
  return operand_type_error (role, op, dyno_value_type_to_string (type), error);
}

static const char *const attribute_type_names[] = {
  "S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M",
};

/* `a <= a`, `a BETWEEN b AND a`, `begins_with(a, a)`: DynamoDB refuses a first operand that
 * is the same path as a later one (DynamoDB Local 3.3.1, for comparisons, BETWEEN, IN and
 * two-operand functions). */
static gboolean
check_distinct (const DynoExpr *expr, DynoExprRole role, const char *op, GError **error)
{
  const DynoExpr *first;

  if (expr->args == NULL || expr->args->len < 2)
    return TRUE;
  first = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 0));
  if (first->kind != DYNO_EXPR_PATH)
    return TRUE;
  for (guint i = 1; i < expr->args->len; i++)
    {
      const DynoExpr *other = dyno_expr_skip_parens (g_ptr_array_index (expr->args, i));
      g_autofree char *shown = NULL;

      if (other->kind != DYNO_EXPR_PATH || !dyno_path_equal (first->path, other->path))
        continue;
      shown = dyno_path_to_display (first->path);
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   "Invalid %s: The first operand must be distinct from the remaining operands "
                   "for this operator or function; operator: %s, first operand: %s",
                   role_field (role), op, shown);
      return FALSE;
    }
  return TRUE;
}

static gboolean check_types (const DynoExpr *expr, DynoExprRole role, GError **error);

/* Operand types first, then distinct operands (the order DynamoDB Local 3.3.1 reports them). */
static gboolean
check_node (const DynoExpr *expr, DynoExprRole role, GError **error)
{
  expr = dyno_expr_skip_parens (expr);
  if (!check_types (expr, role, error))
    return FALSE;
  switch (expr->kind)
    {
    case DYNO_EXPR_COMPARE:
      return check_distinct (expr, role, dyno_compare_op_to_string (expr->op.compare), error);
    case DYNO_EXPR_BETWEEN:
      return check_distinct (expr, role, "BETWEEN", error);
    case DYNO_EXPR_IN:
      return check_distinct (expr, role, "IN", error);
    case DYNO_EXPR_FUNCTION:
      return check_distinct (expr, role, dyno_function_to_string (expr->op.function), error);
    default:
      return TRUE;
    }
}

static gboolean
check_types (const DynoExpr *expr, DynoExprRole role, GError **error)
{
  switch (expr->kind)
    {
    case DYNO_EXPR_AND:
    case DYNO_EXPR_OR:
      return check_node (g_ptr_array_index (expr->args, 0), role, error) &&
             check_node (g_ptr_array_index (expr->args, 1), role, error);
    case DYNO_EXPR_NOT:
      return check_node (g_ptr_array_index (expr->args, 0), role, error);
    case DYNO_EXPR_COMPARE:
      if (expr->op.compare == DYNO_COMPARE_EQ || expr->op.compare == DYNO_COMPARE_NE)
        return TRUE;
      for (guint i = 0; i < 2; i++)
        if (!check_ordered_literal (g_ptr_array_index (expr->args, i), role,
                                    dyno_compare_op_to_string (expr->op.compare), error))
          return FALSE;
      return TRUE;
    case DYNO_EXPR_BETWEEN:
      {
        const DynoExpr *low, *high;
        g_autofree char *rl = NULL;
        g_autofree char *rh = NULL;

        for (guint i = 0; i < 3; i++)
          if (!check_ordered_literal (g_ptr_array_index (expr->args, i), role, "BETWEEN",
                                      error))
            return FALSE;
        low = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 1));
        high = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 2));
        if (low->kind != DYNO_EXPR_VALUE || high->kind != DYNO_EXPR_VALUE)
          return TRUE;
        rl = render_attribute_value (low->value);
        rh = render_attribute_value (high->value);
        if (dyno_value_get_kind (low->value) != dyno_value_get_kind (high->value))
          {
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                         "Invalid %s: The BETWEEN operator requires same data type for lower "
                         "and upper bounds; lower bound operand: AttributeValue: %s, upper "
                         "bound operand: AttributeValue: %s", role_field (role), rl, rh);
            return FALSE;
          }
        if (dyno_value_compare (low->value, high->value) > 0)
          {
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                         "Invalid %s: The BETWEEN operator requires upper bound to be greater "
                         "than or equal to lower bound; lower bound operand: AttributeValue: "
                         "%s, upper bound operand: AttributeValue: %s", role_field (role), rl,
                         rh);
            return FALSE;
          }
        return TRUE;
      }
    case DYNO_EXPR_FUNCTION:
      {
        const char *fname = dyno_function_to_string (expr->op.function);
        guint n = expr->args != NULL ? expr->args->len : 0;

        if (expr->op.function == DYNO_FUNCTION_ATTRIBUTE_TYPE && n == 2)
          {
            const DynoExpr *t = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 1));
            const char *text;

            if (t->kind == DYNO_EXPR_VALUE && dyno_value_get_kind (t->value) != DYNO_VALUE_S)
              return operand_type_error (role, fname,
                                         dyno_value_type_to_string (dyno_value_get_kind (t->value)),
                                         error);
            if (t->kind == DYNO_EXPR_SIZE)
              return operand_type_error (role, fname, "N", error);
            if (t->kind != DYNO_EXPR_VALUE)
              /* a path: its type is not known before the item is read, and DynamoDB refuses
               * it (DynamoDB Local 3.3.1 lists its internal types here; these are live
               * DynamoDB's words, as core's validator has them) */
              return operand_type_error (role, fname, "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}", error);
            text = dyno_value_get_string (t->value, NULL);
            for (guint i = 0; i < G_N_ELEMENTS (attribute_type_names); i++)
              if (strcmp (text, attribute_type_names[i]) == 0)
                return TRUE;
            /* The list in the order live DynamoDB gives it ([DYN]); DynamoDB Local 3.3.1 lists
             * the same names in another order. */
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                         "Invalid %s: Invalid attribute type name found; type: %s, valid "
                         "types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}", role_field (role), text);
            return FALSE;
          }
        if (expr->op.function == DYNO_FUNCTION_BEGINS_WITH)
          for (guint i = 0; i < n; i++)
            {
              const DynoExpr *a = dyno_expr_skip_parens (g_ptr_array_index (expr->args, i));

              if (a->kind == DYNO_EXPR_SIZE)
                return operand_type_error (role, fname, "N", error);
              if (a->kind == DYNO_EXPR_VALUE &&
                  dyno_value_get_kind (a->value) != DYNO_VALUE_S &&
                  dyno_value_get_kind (a->value) != DYNO_VALUE_B)
                return operand_type_error (role, fname,
                                           dyno_value_type_to_string (dyno_value_get_kind (a->value)),
                                           error);
            }
        return TRUE;
      }
    default:
      return TRUE;
    }
}

gboolean
dyno_eval_check_condition (const DynoExpr *expr, DynoExprRole role, GError **error)
{
  g_return_val_if_fail (expr != NULL, FALSE);
  return check_node (expr, role, error);
}

/* ---- conditions: evaluation ------------------------------------------------------------- */

typedef struct {
  const DynoValue *value;  /* NULL: missing */
  DynoValue       *owned;
} Operand;

static void
operand_clear (Operand *o)
{
  g_clear_pointer (&o->owned, dyno_value_free);
  o->value = NULL;
}

/* size() of a string counts UTF-16 code units: checked against DynamoDB Local 3.3.1
 * ("é" is 1, "😀" is 2); the documentation only says "length of the string". */
static guint64
string_size (const char *text, gsize len)
{
  const char *p = text;
  const char *end = text + len;
  guint64 n = 0;

  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* not UTF-8 (cannot come from the wire): count the byte */
          n++;
          p++;
          continue;
        }
      n += c >= 0x10000 ? 2 : 1;
      p = g_utf8_next_char (p);
    }
  return n;
}

static void
eval_operand (const DynoExpr *e, const DynoItem *item, Operand *out)
{
  out->value = NULL;
  out->owned = NULL;
  e = dyno_expr_skip_parens (e);
  switch (e->kind)
    {
    case DYNO_EXPR_PATH:
      out->value = dyno_eval_resolve_path (item, e->path);
      break;
    case DYNO_EXPR_VALUE:
      out->value = e->value;
      break;
    case DYNO_EXPR_SIZE:
      {
        const DynoValue *v = dyno_eval_resolve_path (item, e->path);
        guint64 size;
        gsize len = 0;
        char text[32];

        if (v == NULL)
          break;
        switch (dyno_value_get_kind (v))
          {
          case DYNO_VALUE_S:
            {
              const char *s = dyno_value_get_string (v, &len);

              size = string_size (s, len);
            }
            break;
          case DYNO_VALUE_B:
            dyno_value_get_binary (v, &len);
            size = len;
            break;
          case DYNO_VALUE_M:
          case DYNO_VALUE_L:
          case DYNO_VALUE_SS:
          case DYNO_VALUE_NS:
          case DYNO_VALUE_BS:
            size = dyno_value_get_n_children (v);
            break;
          default:
            /* size() of N, BOOL or NULL makes the comparison false (DynamoDB Local 3.3.1) */
            return;
          }
        g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, size);
        out->owned = dyno_value_new_number (text, -1, NULL);
        out->value = out->owned;
      }
      break;
    default:
      /* the parsers let nothing else stand here */
      break;
    }
}

static gboolean
same_ordered (const DynoValue *a, const DynoValue *b)
{
  return a != NULL && b != NULL && dyno_value_get_kind (a) == dyno_value_get_kind (b) &&
         is_ordered_type (dyno_value_get_kind (a));
}

static const guint8 *
bytes_of (const DynoValue *v, gsize *len)
{
  if (dyno_value_get_kind (v) == DYNO_VALUE_B)
    return dyno_value_get_binary (v, len);
  return (const guint8 *) dyno_value_get_string (v, len);
}

static gboolean
bytes_contain (const guint8 *hay, gsize hay_len, const guint8 *needle, gsize needle_len)
{
  if (needle_len == 0)
    return TRUE;
  if (needle_len > hay_len)
    return FALSE;
  for (gsize i = 0; i + needle_len <= hay_len; i++)
    if (hay[i] == needle[0] && memcmp (hay + i, needle, needle_len) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
eval_contains (const DynoValue *a, const DynoValue *b)
{
  DynoValueType ta, tb;

  if (a == NULL || b == NULL)
    return FALSE;
  ta = dyno_value_get_kind (a);
  tb = dyno_value_get_kind (b);
  switch (ta)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_B:
      {
        gsize la = 0, lb = 0;
        const guint8 *pa, *pb;

        if (tb != ta)
          return FALSE;
        pa = bytes_of (a, &la);
        pb = bytes_of (b, &lb);
        return bytes_contain (pa, la, pb, lb);
      }
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      if ((ta == DYNO_VALUE_SS && tb != DYNO_VALUE_S) ||
          (ta == DYNO_VALUE_NS && tb != DYNO_VALUE_N) ||
          (ta == DYNO_VALUE_BS && tb != DYNO_VALUE_B))
        return FALSE;
      G_GNUC_FALLTHROUGH;
    case DYNO_VALUE_L:
      /* a list contains any element equal to the operand, sets, lists and maps included
       * (DynamoDB Local 3.3.1) */
      for (guint i = 0; i < dyno_value_get_n_children (a); i++)
        if (dyno_value_equal (dyno_value_get_child (a, i), b))
          return TRUE;
      return FALSE;
    default:
      return FALSE;
    }
}

static gboolean
eval_node (const DynoExpr *expr, const DynoItem *item)
{
  expr = dyno_expr_skip_parens (expr);
  switch (expr->kind)
    {
    case DYNO_EXPR_AND:
      return eval_node (g_ptr_array_index (expr->args, 0), item) &&
             eval_node (g_ptr_array_index (expr->args, 1), item);
    case DYNO_EXPR_OR:
      return eval_node (g_ptr_array_index (expr->args, 0), item) ||
             eval_node (g_ptr_array_index (expr->args, 1), item);
    case DYNO_EXPR_NOT:
      return !eval_node (g_ptr_array_index (expr->args, 0), item);
    case DYNO_EXPR_COMPARE:
      {
        Operand a, b;
        gboolean result = FALSE;

        eval_operand (g_ptr_array_index (expr->args, 0), item, &a);
        eval_operand (g_ptr_array_index (expr->args, 1), item, &b);
        switch (expr->op.compare)
          {
          case DYNO_COMPARE_EQ:
            result = a.value != NULL && b.value != NULL && dyno_value_equal (a.value, b.value);
            break;
          case DYNO_COMPARE_NE:
            /* true for a missing operand and for values of different types */
            result = !(a.value != NULL && b.value != NULL &&
                       dyno_value_equal (a.value, b.value));
            break;
          default:
            if (same_ordered (a.value, b.value))
              {
                int c = dyno_value_compare (a.value, b.value);

                result = expr->op.compare == DYNO_COMPARE_LT ? c < 0
                         : expr->op.compare == DYNO_COMPARE_LE ? c <= 0
                         : expr->op.compare == DYNO_COMPARE_GT ? c > 0
                         : c >= 0;
              }
            break;
          }
        operand_clear (&a);
        operand_clear (&b);
        return result;
      }
    case DYNO_EXPR_BETWEEN:
      {
        Operand v, lo, hi;
        gboolean result;

        eval_operand (g_ptr_array_index (expr->args, 0), item, &v);
        eval_operand (g_ptr_array_index (expr->args, 1), item, &lo);
        eval_operand (g_ptr_array_index (expr->args, 2), item, &hi);
        /* bounds read from the item in the wrong order are simply false */
        result = same_ordered (v.value, lo.value) && same_ordered (v.value, hi.value) &&
                 dyno_value_compare (lo.value, v.value) <= 0 &&
                 dyno_value_compare (v.value, hi.value) <= 0;
        operand_clear (&v);
        operand_clear (&lo);
        operand_clear (&hi);
        return result;
      }
    case DYNO_EXPR_IN:
      {
        Operand v;
        gboolean result = FALSE;

        eval_operand (g_ptr_array_index (expr->args, 0), item, &v);
        for (guint i = 1; v.value != NULL && !result && i < expr->args->len; i++)
          {
            Operand o;

            eval_operand (g_ptr_array_index (expr->args, i), item, &o);
            result = o.value != NULL && dyno_value_equal (v.value, o.value);
            operand_clear (&o);
          }
        operand_clear (&v);
        return result;
      }
    case DYNO_EXPR_FUNCTION:
      {
        Operand a = { NULL, NULL }, b = { NULL, NULL };
        gboolean result = FALSE;
        guint n = expr->args != NULL ? expr->args->len : 0;

        if (n >= 1)
          eval_operand (g_ptr_array_index (expr->args, 0), item, &a);
        if (n >= 2)
          eval_operand (g_ptr_array_index (expr->args, 1), item, &b);
        switch (expr->op.function)
          {
          case DYNO_FUNCTION_ATTRIBUTE_EXISTS:
            result = a.value != NULL;
            break;
          case DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS:
            result = a.value == NULL;
            break;
          case DYNO_FUNCTION_ATTRIBUTE_TYPE:
            result = a.value != NULL && b.value != NULL &&
                     dyno_value_get_kind (b.value) == DYNO_VALUE_S &&
                     strcmp (dyno_value_type_to_string (dyno_value_get_kind (a.value)),
                             dyno_value_get_string (b.value, NULL)) == 0;
            break;
          case DYNO_FUNCTION_BEGINS_WITH:
            if (a.value != NULL && b.value != NULL &&
                dyno_value_get_kind (a.value) == dyno_value_get_kind (b.value) &&
                (dyno_value_get_kind (a.value) == DYNO_VALUE_S ||
                 dyno_value_get_kind (a.value) == DYNO_VALUE_B))
              {
                gsize la = 0, lb = 0;
                const guint8 *pa = bytes_of (a.value, &la);
                const guint8 *pb = bytes_of (b.value, &lb);

                result = lb <= la && (lb == 0 || memcmp (pa, pb, lb) == 0);
              }
            break;
          case DYNO_FUNCTION_CONTAINS:
            result = eval_contains (a.value, b.value);
            break;
          default:
            break;
          }
        operand_clear (&a);
        operand_clear (&b);
        return result;
      }
    default:
      /* an operand where a condition belongs: the parsers refuse it */
      return FALSE;
    }
}

gboolean
dyno_eval_condition_full (const DynoExpr *expr, DynoExprRole role, const DynoItem *item,
                          gboolean *out_match, GError **error)
{
  g_return_val_if_fail (expr != NULL, FALSE);
  g_return_val_if_fail (out_match != NULL, FALSE);

  *out_match = FALSE;
  if (!check_node (expr, role, error))
    return FALSE;
  *out_match = eval_node (expr, item);
  return TRUE;
}

gboolean
dyno_eval_condition (const DynoExpr *expr, const DynoItem *item, gboolean *out_match,
                     GError **error)
{
  return dyno_eval_condition_full (expr, DYNO_EXPR_ROLE_CONDITION, item, out_match, error);
}

/* ---- a mutable copy of an item, for updates --------------------------------------------- */

typedef struct _Node Node;
struct _Node {
  const DynoValue *value;    /* while not expanded: borrowed, or owned */
  DynoValue       *owned;
  DynoValueType    type;
  gboolean         expanded; /* an M or L whose children are below */
  gboolean         removed;  /* a list element REMOVE took (positions stay until the end) */
  guint            orig_len; /* L: elements before the update (indexes refer to them) */
  guint            append_index; /* an element SET past the end: the index it was given */
  GPtrArray       *children; /* Node* */
  GPtrArray       *names;    /* GString*, M only, parallel to children */
};

static void
node_free (Node *node)
{
  if (node == NULL)
    return;
  g_clear_pointer (&node->owned, dyno_value_free);
  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_clear_pointer (&node->names, g_ptr_array_unref);
  g_free (node);
}

static void
string_free (gpointer s)
{
  g_string_free (s, TRUE);
}

static Node *
node_new (const DynoValue *value, DynoValue *owned)
{
  Node *node = g_new0 (Node, 1);

  node->owned = owned;
  node->value = owned != NULL ? owned : value;
  node->type = dyno_value_get_kind (node->value);
  return node;
}

static Node *
node_new_empty_map (void)
{
  Node *node = g_new0 (Node, 1);

  node->type = DYNO_VALUE_M;
  node->expanded = TRUE;
  node->children = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  node->names = g_ptr_array_new_with_free_func (string_free);
  return node;
}

static void
node_expand (Node *node)
{
  guint n;

  if (node->expanded || (node->type != DYNO_VALUE_M && node->type != DYNO_VALUE_L))
    return;
  n = dyno_value_get_n_children (node->value);
  node->children = g_ptr_array_new_full (n, (GDestroyNotify) node_free);
  if (node->type == DYNO_VALUE_M)
    node->names = g_ptr_array_new_full (n, string_free);
  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (node->children, node_new (dyno_value_get_child (node->value, i), NULL));
      if (node->type == DYNO_VALUE_M)
        {
          gsize len = 0;
          const char *name = dyno_value_get_member_name (node->value, i, &len);
          GString *s = g_string_sized_new (len);

          g_string_append_len (s, name, len);
          g_ptr_array_add (node->names, s);
        }
    }
  node->orig_len = n;
  node->expanded = TRUE;
}

/* A path's names are C strings holding each NUL as C0 80 (dyno-json.h); member names in values
 * are bytes.  The bytes of @name, in *owned when they had to be decoded. */
static const char *
name_bytes (const char *name, gsize *len, char **owned)
{
  *owned = NULL;
  if (G_UNLIKELY (strstr (name, "\xC0\x80") != NULL))
    return *owned = dyno_json_held_string_decode (name, len);
  *len = strlen (name);
  return name;
}

static gint
map_find (Node *map, const char *name)
{
  g_autofree char *owned = NULL;
  gsize len;
  const char *bytes = name_bytes (name, &len, &owned);

  for (guint i = 0; i < map->children->len; i++)
    {
      const GString *s = g_ptr_array_index (map->names, i);

      if (s->len == len && memcmp (s->str, bytes, len) == 0)
        return (gint) i;
    }
  return -1;
}

/* The child of @node at @e, or NULL (missing, removed, or @node of the wrong kind). */
static Node *
node_child (Node *node, const DynoPathElement *e)
{
  if (e->name != NULL)
    {
      gint i;

      if (node->type != DYNO_VALUE_M)
        return NULL;
      node_expand (node);
      i = map_find (node, e->name);
      return i < 0 ? NULL : g_ptr_array_index (node->children, i);
    }
  if (node->type != DYNO_VALUE_L)
    return NULL;
  node_expand (node);
  if (e->index >= node->orig_len)
    return NULL;
  {
    Node *child = g_ptr_array_index (node->children, e->index);

    return child->removed ? NULL : child;
  }
}

/* The node holding the last element of @path, or NULL when the path cannot be updated. */
static Node *
node_parent (Node *root, const DynoPath *path)
{
  Node *node = root;

  for (guint i = 0; i + 1 < path->elements->len && node != NULL; i++)
    node = node_child (node, &g_array_index (path->elements, DynoPathElement, i));
  return node;
}

static const DynoPathElement *
last_element (const DynoPath *path)
{
  return &g_array_index (path->elements, DynoPathElement, path->elements->len - 1);
}

/* Puts @value (owned) at the last element of @path under @parent.  FALSE when the parent is
 * of the wrong kind. */
static gboolean
node_set (Node *parent, const DynoPathElement *e, DynoValue *value)
{
  Node *child = node_new (NULL, value);

  if (e->name != NULL)
    {
      gint i;

      if (parent->type != DYNO_VALUE_M)
        goto wrong;
      node_expand (parent);
      i = map_find (parent, e->name);
      if (i >= 0)
        {
          node_free (g_ptr_array_index (parent->children, i));
          g_ptr_array_index (parent->children, i) = child;
        }
      else
        {
          g_autofree char *owned = NULL;
          gsize len;
          const char *bytes = name_bytes (e->name, &len, &owned);
          GString *member = g_string_sized_new (len);

          g_string_append_len (member, bytes, len);
          g_ptr_array_add (parent->children, child);
          g_ptr_array_add (parent->names, member);
        }
      return TRUE;
    }
  if (parent->type != DYNO_VALUE_L)
    goto wrong;
  node_expand (parent);
  if (e->index < parent->orig_len)
    {
      node_free (g_ptr_array_index (parent->children, e->index));
      g_ptr_array_index (parent->children, e->index) = child;
      return TRUE;
    }
  /* past the end: appended; several appends land in the order of their indexes (DynamoDB
   * Local 3.3.1: SET a[5] = :x, a[3] = :y on [1] gives [1, y, x]) */
  {
    guint at = parent->children->len;

    child->append_index = e->index;
    while (at > parent->orig_len &&
           ((Node *) g_ptr_array_index (parent->children, at - 1))->append_index > e->index)
      at--;
    g_ptr_array_insert (parent->children, at, child);
  }
  return TRUE;

wrong:
  node_free (child);
  return FALSE;
}

static gboolean
node_remove (Node *parent, const DynoPathElement *e)
{
  if (e->name != NULL)
    {
      gint i;

      if (parent->type != DYNO_VALUE_M)
        return FALSE;
      node_expand (parent);
      i = map_find (parent, e->name);
      if (i >= 0)
        {
          g_ptr_array_remove_index (parent->children, i);
          g_ptr_array_remove_index (parent->names, i);
        }
      return TRUE;
    }
  if (parent->type != DYNO_VALUE_L)
    return FALSE;
  node_expand (parent);
  /* an index past the end removes nothing */
  if (e->index < parent->orig_len)
    ((Node *) g_ptr_array_index (parent->children, e->index))->removed = TRUE;
  return TRUE;
}

static gboolean
node_emit (Node *node, DynoValueBuilder *builder, GError **error)
{
  if (!node->expanded)
    {
      dyno_value_builder_add_value (builder, node->value);
      return TRUE;
    }
  dyno_value_builder_begin (builder, node->type);
  for (guint i = 0; i < node->children->len; i++)
    {
      Node *child = g_ptr_array_index (node->children, i);

      if (child->removed)
        continue;
      if (node->type == DYNO_VALUE_M)
        {
          const GString *s = g_ptr_array_index (node->names, i);

          dyno_value_builder_key (builder, s->str, s->len);
        }
      if (!node_emit (child, builder, error))
        return FALSE;
    }
  return dyno_value_builder_end (builder, error);
}

/* ---- updates ---------------------------------------------------------------------------- */

static gboolean
update_error (GError **error, const char *message)
{
  g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION, message);
  return FALSE;
}

static gboolean
check_update_operand (const DynoExpr *e, GError **error)
{
  const char *op = NULL;
  DynoValueType want = DYNO_VALUE_N;

  e = dyno_expr_skip_parens (e);
  switch (e->kind)
    {
    case DYNO_EXPR_PLUS:
      op = "+";
      break;
    case DYNO_EXPR_MINUS:
      op = "-";
      break;
    case DYNO_EXPR_LIST_APPEND:
      op = "list_append";
      want = DYNO_VALUE_L;
      break;
    case DYNO_EXPR_IF_NOT_EXISTS:
      {
        const DynoExpr *a = dyno_expr_skip_parens (g_ptr_array_index (e->args, 0));
        const DynoExpr *b = dyno_expr_skip_parens (g_ptr_array_index (e->args, 1));

        if (a->kind == DYNO_EXPR_PATH && b->kind == DYNO_EXPR_PATH &&
            dyno_path_equal (a->path, b->path))
          {
            g_autofree char *shown = dyno_path_to_display (a->path);

            g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                         "Invalid UpdateExpression: The first operand must be distinct from the "
                         "remaining operands for this operator or function; operator: "
                         "if_not_exists, first operand: %s", shown);
            return FALSE;
          }
        return check_update_operand (b, error);
      }
    case DYNO_EXPR_SIZE:
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           "Invalid UpdateExpression: The function is not allowed in an update "
                           "expression; function: size");
      return FALSE;
    default:
      return TRUE;
    }
  for (guint i = 0; i < e->args->len; i++)
    {
      const DynoExpr *a = dyno_expr_skip_parens (g_ptr_array_index (e->args, i));

      if (a->kind == DYNO_EXPR_VALUE && dyno_value_get_kind (a->value) != want)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       "Invalid UpdateExpression: Incorrect operand type for operator or "
                       "function; operator or function: %s, operand type: %s", op,
                       dyno_value_type_to_string (dyno_value_get_kind (a->value)));
          return FALSE;
        }
      if (!check_update_operand (a, error))
        return FALSE;
    }
  return TRUE;
}

/* DynamoDB's internal names of the types, which some of its messages show. */
static const char *
document_type_name (DynoValueType type)
{
  switch (type)
    {
    case DYNO_VALUE_S: return "STRING";
    case DYNO_VALUE_N: return "NUMBER";
    case DYNO_VALUE_B: return "BINARY";
    case DYNO_VALUE_BOOL: return "BOOLEAN";
    case DYNO_VALUE_NULL: return "NULL";
    case DYNO_VALUE_M: return "MAP";
    case DYNO_VALUE_L: return "LIST";
    case DYNO_VALUE_SS: return "STRING_SET";
    case DYNO_VALUE_NS: return "NUMBER_SET";
    case DYNO_VALUE_BS: return "BINARY_SET";
    default: return "UNKNOWN";
    }
}

gboolean
dyno_eval_check_update (const DynoUpdate *update, const char * const *key_names,
                        GError **error)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();

  g_return_val_if_fail (update != NULL, FALSE);

  /* in the order DynamoDB Local 3.3.1 reports them: paths, ADD and DELETE values, SET
   * operands, keys */
  for (guint i = 0; i < update->clauses->len; i++)
    g_ptr_array_add (paths, ((const DynoUpdateClause *) g_ptr_array_index (update->clauses,
                                                                           i))->path);
  if (!check_path_set (paths, "UpdateExpression", error))
    return FALSE;
  for (guint i = 0; i < update->clauses->len; i++)
    {
      const DynoUpdateClause *clause = g_ptr_array_index (update->clauses, i);

      if ((clause->action == DYNO_UPDATE_ADD || clause->action == DYNO_UPDATE_DELETE) &&
          clause->operand != NULL)
        {
          const DynoExpr *v = dyno_expr_skip_parens (clause->operand);
          gboolean is_add = clause->action == DYNO_UPDATE_ADD;
          DynoValueType type;

          if (v->kind != DYNO_EXPR_VALUE)
            continue;
          type = dyno_value_get_kind (v->value);
          if ((is_add && type != DYNO_VALUE_N && type != DYNO_VALUE_SS &&
               type != DYNO_VALUE_NS && type != DYNO_VALUE_BS) ||
              (!is_add && type != DYNO_VALUE_SS && type != DYNO_VALUE_NS &&
               type != DYNO_VALUE_BS))
            {
              /* DynamoDB Local 3.3.1's words, with its internal type names */
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           "Invalid UpdateExpression: Incorrect operand type for operator or "
                           "function; operator: %s, operand type: %s, typeSet: %s",
                           is_add ? "ADD" : "DELETE", document_type_name (type),
                           is_add ? "ALLOWED_FOR_ADD_OPERAND" : "ALLOWED_FOR_DELETE_OPERAND");
              return FALSE;
            }
        }
    }
  for (guint i = 0; i < update->clauses->len; i++)
    {
      const DynoUpdateClause *clause = g_ptr_array_index (update->clauses, i);

      if (clause->action == DYNO_UPDATE_SET && clause->operand != NULL &&
          !check_update_operand (clause->operand, error))
        return FALSE;
    }
  for (guint i = 0; key_names != NULL && i < update->clauses->len; i++)
    {
      const DynoUpdateClause *clause = g_ptr_array_index (update->clauses, i);
      const char *name = dyno_path_get_attribute (clause->path);

      for (guint k = 0; key_names[k] != NULL; k++)
        if (g_strcmp0 (name, key_names[k]) == 0)
          {
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                         "One or more parameter values were invalid: Cannot update attribute "
                         "%s. This attribute is part of the key", name);
            return FALSE;
          }
    }
  return TRUE;
}

/* Evaluates a SET operand against the item as it was before the update. */
static DynoValue *
eval_update_operand (const DynoExpr *e, const DynoItem *item, GError **error)
{
  e = dyno_expr_skip_parens (e);
  switch (e->kind)
    {
    case DYNO_EXPR_VALUE:
      return dyno_value_copy (e->value);
    case DYNO_EXPR_PATH:
      {
        const DynoValue *v = dyno_eval_resolve_path (item, e->path);

        if (v == NULL)
          {
            update_error (error, MISSING_ATTRIBUTE);
            return NULL;
          }
        return dyno_value_copy (v);
      }
    case DYNO_EXPR_IF_NOT_EXISTS:
      {
        const DynoExpr *p = dyno_expr_skip_parens (g_ptr_array_index (e->args, 0));
        /* the fallback is evaluated even when the path exists: a missing attribute there
         * fails the update (DynamoDB Local 3.3.1) */
        DynoValue *fallback = eval_update_operand (g_ptr_array_index (e->args, 1), item, error);

        if (fallback == NULL)
          return NULL;
        if (p->kind == DYNO_EXPR_PATH)
          {
            const DynoValue *v = dyno_eval_resolve_path (item, p->path);

            if (v != NULL)
              {
                dyno_value_free (fallback);
                return dyno_value_copy (v);
              }
          }
        return fallback;
      }
    case DYNO_EXPR_PLUS:
    case DYNO_EXPR_MINUS:
      {
        g_autoptr(DynoValue) a = NULL;
        g_autoptr(DynoValue) b = NULL;
        g_autofree char *text = NULL;
        GError *local = NULL;
        DynoValue *result;

        a = eval_update_operand (g_ptr_array_index (e->args, 0), item, error);
        if (a == NULL)
          return NULL;
        b = eval_update_operand (g_ptr_array_index (e->args, 1), item, error);
        if (b == NULL)
          return NULL;
        if (dyno_value_get_kind (a) != DYNO_VALUE_N || dyno_value_get_kind (b) != DYNO_VALUE_N)
          {
            update_error (error, INCORRECT_DATA_TYPE);
            return NULL;
          }
        text = e->kind == DYNO_EXPR_PLUS
               ? dyno_number_add (dyno_value_get_string (a, NULL),
                                  dyno_value_get_string (b, NULL), &local)
               : dyno_number_subtract (dyno_value_get_string (a, NULL),
                                       dyno_value_get_string (b, NULL), &local);
        if (text == NULL)
          {
            g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION, local->message);
            g_error_free (local);
            return NULL;
          }
        result = dyno_value_new_number (text, -1, error);
        return result;
      }
    case DYNO_EXPR_LIST_APPEND:
      {
        g_autoptr(DynoValue) a = NULL;
        g_autoptr(DynoValue) b = NULL;
        g_autoptr(DynoValueBuilder) builder = NULL;

        a = eval_update_operand (g_ptr_array_index (e->args, 0), item, error);
        if (a == NULL)
          return NULL;
        b = eval_update_operand (g_ptr_array_index (e->args, 1), item, error);
        if (b == NULL)
          return NULL;
        if (dyno_value_get_kind (a) != DYNO_VALUE_L || dyno_value_get_kind (b) != DYNO_VALUE_L)
          {
            update_error (error, INCORRECT_DATA_TYPE);
            return NULL;
          }
        builder = dyno_value_builder_new ();
        dyno_value_builder_begin (builder, DYNO_VALUE_L);
        for (guint i = 0; i < dyno_value_get_n_children (a); i++)
          dyno_value_builder_add_value (builder, dyno_value_get_child (a, i));
        for (guint i = 0; i < dyno_value_get_n_children (b); i++)
          dyno_value_builder_add_value (builder, dyno_value_get_child (b, i));
        if (!dyno_value_builder_end (builder, error))
          return NULL;
        return dyno_value_builder_finish (builder);
      }
    case DYNO_EXPR_SIZE:
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           "Invalid UpdateExpression: The function is not allowed in an update "
                           "expression; function: size");
      return NULL;
    default:
      update_error (error, "Invalid UpdateExpression: Syntax error");
      return NULL;
    }
}

/* Map and list levels in @value (0 for a scalar or a set). */
static guint
container_depth (const DynoValue *value)
{
  DynoValueType type = dyno_value_get_kind (value);
  guint deepest = 0;

  if (type != DYNO_VALUE_M && type != DYNO_VALUE_L)
    return 0;
  for (guint i = 0; i < dyno_value_get_n_children (value); i++)
    deepest = MAX (deepest, container_depth (dyno_value_get_child (value, i)));
  return 1 + deepest;
}

static gboolean
set_has (const DynoValue *set, const DynoValue *member)
{
  for (guint i = 0; i < dyno_value_get_n_children (set); i++)
    if (dyno_value_equal (dyno_value_get_child (set, i), member))
      return TRUE;
  return FALSE;
}

/* @a ∪ @b (add) or @a ∖ @b; NULL for an empty result. */
static DynoValue *
set_combine (const DynoValue *a, const DynoValue *b, gboolean add)
{
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  guint count = 0;

  dyno_value_builder_begin (builder, dyno_value_get_kind (a));
  for (guint i = 0; i < dyno_value_get_n_children (a); i++)
    {
      const DynoValue *m = dyno_value_get_child (a, i);

      if (!add && set_has (b, m))
        continue;
      dyno_value_builder_add_value (builder, m);
      count++;
    }
  if (add)
    for (guint i = 0; i < dyno_value_get_n_children (b); i++)
      {
        const DynoValue *m = dyno_value_get_child (b, i);

        if (set_has (a, m))
          continue;
        dyno_value_builder_add_value (builder, m);
        count++;
      }
  if (count == 0)
    {
      dyno_value_builder_reset (builder);
      return NULL;
    }
  if (!dyno_value_builder_end (builder, NULL))
    return NULL;
  return dyno_value_builder_finish (builder);
}

static gboolean
apply_add_delete (Node *root, const DynoUpdateClause *clause, const DynoItem *item,
                  GError **error)
{
  gboolean is_add = clause->action == DYNO_UPDATE_ADD;
  const DynoExpr *e = dyno_expr_skip_parens (clause->operand);
  const DynoValue *operand = e->kind == DYNO_EXPR_VALUE ? e->value : NULL;
  const DynoValue *current;
  Node *parent;
  DynoValueType tc, to;

  if (operand == NULL)
    return update_error (error, INCORRECT_DATA_TYPE);
  parent = node_parent (root, clause->path);
  if (parent == NULL ||
      (last_element (clause->path)->name != NULL ? parent->type != DYNO_VALUE_M
                                                 : parent->type != DYNO_VALUE_L))
    return update_error (error, INVALID_PATH_FOR_UPDATE);
  /* paths of one update never overlap, so what is there is what the item had */
  current = dyno_eval_resolve_path (item, clause->path);
  to = dyno_value_get_kind (operand);
  if (current == NULL)
    {
      if (!is_add)
        return TRUE;   /* DELETE from nothing: nothing to do */
      return node_set (parent, last_element (clause->path), dyno_value_copy (operand)) ||
             update_error (error, INVALID_PATH_FOR_UPDATE);
    }
  tc = dyno_value_get_kind (current);
  if (is_add && tc == DYNO_VALUE_N && to == DYNO_VALUE_N)
    {
      GError *local = NULL;
      g_autofree char *text = dyno_number_add (dyno_value_get_string (current, NULL),
                                               dyno_value_get_string (operand, NULL), &local);
      DynoValue *sum;

      if (text == NULL)
        {
          g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION, local->message);
          g_error_free (local);
          return FALSE;
        }
      sum = dyno_value_new_number (text, -1, error);
      if (sum == NULL)
        return FALSE;
      node_set (parent, last_element (clause->path), sum);
      return TRUE;
    }
  if (tc != to || (tc != DYNO_VALUE_SS && tc != DYNO_VALUE_NS && tc != DYNO_VALUE_BS))
    return update_error (error, INCORRECT_DATA_TYPE);
  {
    DynoValue *combined = set_combine (current, operand, is_add);

    if (combined == NULL)   /* DELETE emptied the set: the attribute goes */
      node_remove (parent, last_element (clause->path));
    else
      node_set (parent, last_element (clause->path), combined);
  }
  return TRUE;
}

DynoItem *
dyno_eval_update (const DynoUpdate *update, const DynoItem *item, const DynoItem *key,
                  GError **error)
{
  g_autofree const char **key_names = NULL;
  g_autoptr(GPtrArray) values = NULL;
  g_autoptr(DynoValueBuilder) builder = NULL;
  g_autoptr(DynoValue) map = NULL;
  Node *root;
  gboolean ok = TRUE;

  g_return_val_if_fail (update != NULL, NULL);

  if (key != NULL)
    {
      const DynoValue *kmap = dyno_item_get_map (key);
      guint n = dyno_value_get_n_children (kmap);

      key_names = g_new0 (const char *, n + 1);
      for (guint i = 0; i < n; i++)
        key_names[i] = dyno_value_get_member_name (kmap, i, NULL);
    }
  if (!dyno_eval_check_update (update, key_names, error))
    return NULL;

  /* every SET operand reads the item as it was (SET a = :y, b = a gives b the old a) */
  values = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_value_free);
  for (guint i = 0; i < update->clauses->len; i++)
    {
      const DynoUpdateClause *clause = g_ptr_array_index (update->clauses, i);
      DynoValue *v = NULL;

      if (clause->action == DYNO_UPDATE_SET)
        {
          v = eval_update_operand (clause->operand, item, error);
          if (v == NULL)
            return NULL;
        }
      g_ptr_array_add (values, v);
    }

  if (item != NULL)
    root = node_new (dyno_item_get_map (item), NULL);
  else if (key != NULL)
    root = node_new (dyno_item_get_map (key), NULL);
  else
    root = node_new_empty_map ();
  node_expand (root);

  for (guint i = 0; ok && i < update->clauses->len; i++)
    {
      const DynoUpdateClause *clause = g_ptr_array_index (update->clauses, i);
      Node *parent;

      switch (clause->action)
        {
        case DYNO_UPDATE_SET:
          /* the item's own map is the first of DynamoDB's 32 levels, so a value at a path of
           * n elements has its maps and lists from level n + 1 on (DynamoDB Local 3.3.1) */
          if (dyno_path_get_length (clause->path) +
              container_depth (g_ptr_array_index (values, i)) > DYNO_VALUE_MAX_DEPTH)
            {
              ok = update_error (error, "Nesting Levels have exceeded supported limits");
              break;
            }
          parent = node_parent (root, clause->path);
          ok = (parent != NULL &&
                node_set (parent, last_element (clause->path),
                          g_steal_pointer (&g_ptr_array_index (values, i)))) ||
               update_error (error, INVALID_PATH_FOR_UPDATE);
          break;
        case DYNO_UPDATE_REMOVE:
          parent = node_parent (root, clause->path);
          ok = (parent != NULL && node_remove (parent, last_element (clause->path))) ||
               update_error (error, INVALID_PATH_FOR_UPDATE);
          break;
        case DYNO_UPDATE_ADD:
        case DYNO_UPDATE_DELETE:
          ok = apply_add_delete (root, clause, item, error);
          break;
        default:
          break;
        }
    }
  if (!ok)
    {
      node_free (root);
      return NULL;
    }
  builder = dyno_value_builder_new ();
  ok = node_emit (root, builder, NULL);
  node_free (root);
  if (!ok)
    {
      /* the only way a built item fails: nested deeper than DynamoDB allows */
      update_error (error, "Nesting Levels have exceeded supported limits");
      return NULL;
    }
  map = dyno_value_builder_finish (builder);
  return dyno_item_new_take (g_steal_pointer (&map));
}

/* ---- projections ------------------------------------------------------------------------ */

typedef struct _PNode PNode;
struct _PNode {
  const DynoValue *leaf;     /* a whole value projected, or NULL for a container built */
  DynoValueType    type;     /* M or L when leaf == NULL */
  char            *name;     /* member name in a parent M */
  guint            index;    /* element index in a parent L */
  GPtrArray       *children; /* PNode* */
};

static void
pnode_free (PNode *node)
{
  g_free (node->name);
  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_free (node);
}

static PNode *
pnode_child (PNode *parent, const DynoPathElement *e, DynoValueType type)
{
  PNode *child;

  for (guint i = 0; i < parent->children->len; i++)
    {
      child = g_ptr_array_index (parent->children, i);
      if (e->name != NULL ? g_strcmp0 (child->name, e->name) == 0 : child->index == e->index)
        return child;
    }
  child = g_new0 (PNode, 1);
  child->type = type;
  child->name = g_strdup (e->name);
  child->index = e->index;
  child->children = g_ptr_array_new_with_free_func ((GDestroyNotify) pnode_free);
  g_ptr_array_add (parent->children, child);
  return child;
}

static gint
compare_pnode_index (gconstpointer a, gconstpointer b)
{
  const PNode *pa = *(const PNode * const *) a;
  const PNode *pb = *(const PNode * const *) b;

  return pa->index < pb->index ? -1 : pa->index > pb->index;
}

static void
pnode_emit (PNode *node, DynoValueBuilder *builder)
{
  if (node->leaf != NULL)
    {
      dyno_value_builder_add_value (builder, node->leaf);
      return;
    }
  if (node->type == DYNO_VALUE_L)
    /* projected elements come back in index order, the others dropped */
    g_ptr_array_sort (node->children, compare_pnode_index);
  dyno_value_builder_begin (builder, node->type);
  for (guint i = 0; i < node->children->len; i++)
    {
      PNode *child = g_ptr_array_index (node->children, i);

      if (node->type == DYNO_VALUE_M)
        {
          g_autofree char *owned = NULL;
          gsize len;
          const char *bytes = name_bytes (child->name, &len, &owned);

          dyno_value_builder_key (builder, bytes, len);
        }
      pnode_emit (child, builder);
    }
  /* no deeper than the item it comes from */
  dyno_value_builder_end (builder, NULL);
}

DynoItem *
dyno_eval_project (GPtrArray *paths, const DynoItem *item)
{
  g_autoptr(DynoValueBuilder) builder = NULL;
  PNode *root;
  DynoValue *map;

  g_return_val_if_fail (paths != NULL, NULL);
  g_return_val_if_fail (item != NULL, NULL);

  root = g_new0 (PNode, 1);
  root->type = DYNO_VALUE_M;
  root->children = g_ptr_array_new_with_free_func ((GDestroyNotify) pnode_free);

  for (guint p = 0; p < paths->len; p++)
    {
      const DynoPath *path = g_ptr_array_index (paths, p);
      const DynoValue *value = dyno_item_get_map (item);
      PNode *node = root;

      /* only a path that leads to a value projects anything */
      if (dyno_eval_resolve_path (item, path) == NULL)
        continue;
      for (guint i = 0; i < path->elements->len; i++)
        {
          const DynoPathElement *e = &g_array_index (path->elements, DynoPathElement, i);

          value = step (value, e);
          node = pnode_child (node, e, dyno_value_get_kind (value));
        }
      node->leaf = value;
    }

  builder = dyno_value_builder_new ();
  pnode_emit (root, builder);
  pnode_free (root);
  map = dyno_value_builder_finish (builder);
  return dyno_item_new_take (map);
}

gboolean
dyno_eval_check_projection (GPtrArray *paths, GError **error)
{
  g_return_val_if_fail (paths != NULL, FALSE);
  return check_path_set (paths, "ProjectionExpression", error);
}

/* ---- sizes and key order ---------------------------------------------------------------- */

gsize
dyno_eval_item_size (const DynoItem *item)
{
  g_return_val_if_fail (item != NULL, 0);
  return dyno_item_get_size (item);
}

int
dyno_eval_key_compare (const DynoValue *a, const DynoValue *b)
{
  return dyno_value_compare (a, b);
}
