/* dyno-request-validate.c: DynamoDB's request rules, checked before sending
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-request.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#define MAX_PARTITION_KEY_BYTES 2048
#define MAX_SORT_KEY_BYTES      1024
#define MAX_TOTAL_SEGMENTS      1000000
#define MAX_ITEM_BYTES          409600

void
dyno_issue_free (DynoIssue *issue)
{
  if (issue == NULL)
    return;
  g_free (issue->field);
  g_free (issue->message);
  g_free (issue);
}

typedef struct {
  GPtrArray           *issues;
  const DynoRequest   *request;
  const DynoTableInfo *schema;
  const DynoIndexInfo *index;       /* the queried/scanned index, or NULL */
  const char          *pk_name;     /* key schema of the table or the index (with schema) */
  DynoValueType        pk_type;
  const char          *sk_name;
  DynoValueType        sk_type;
  /* A valid key condition (with schema), for checking ExclusiveStartKey against it */
  const DynoValue     *kc_pk_value;
  const DynoExpr      *kc_sk_node;   /* the sort-key condition, or NULL */
  DynoCompareOp        kc_sk_op;
  gboolean             kc_sk_between;
  gboolean             kc_sk_begins_with;
  const DynoValue     *kc_sk_values[2];
} Validator;

/* One issue: a sentence for people, then DynamoDB's own words when it has them. */
G_GNUC_PRINTF (5, 6)
static void
add_issue (Validator      *v,
           const char     *field,
           const DynoExpr *node,
           const char     *dynamodb,
           const char     *format,
           ...)
{
  DynoIssue *issue = g_new0 (DynoIssue, 1);
  g_autofree char *text = NULL;
  va_list ap;

  va_start (ap, format);
  text = g_strdup_vprintf (format, ap);
  va_end (ap);
  issue->field = g_strdup (field);
  if (dynamodb != NULL)
    /* Translators: our message, then DynamoDB's own (English) words for the problem. */
    issue->message = g_strdup_printf (_("%s (DynamoDB: %s)"), text, dynamodb);
  else
    issue->message = g_steal_pointer (&text);
  if (node != NULL && (node->offset != 0 || node->length != 0))
    {
      issue->has_location = TRUE;
      issue->location.offset = node->offset;
      issue->location.length = node->length;
      /* The column needs the text, which the AST does not keep: 0 until the caller, who has
       * the text, sets it with dyno_expr_offset_to_column(). */
      issue->location.column = 0;
    }
  g_ptr_array_add (v->issues, issue);
}

static const char *
type_name (DynoValueType type)
{
  return dyno_value_type_to_string (type);
}

static gboolean
is_scalar_key_type (DynoValueType type)
{
  return type == DYNO_VALUE_S || type == DYNO_VALUE_N || type == DYNO_VALUE_B;
}

/* DynamoDB's rendering of a scalar in messages: {S:abc}, {N:1}, {B:<base64>} */
static char *
render_attribute_value (const DynoValue *value)
{
  DynoValueType type = dyno_value_get_kind (value);

  if (type == DYNO_VALUE_S || type == DYNO_VALUE_N)
    return g_strdup_printf ("{%s:%s}", type_name (type), dyno_value_get_string (value, NULL));
  if (type == DYNO_VALUE_B)
    {
      gsize len = 0;
      const guint8 *data = dyno_value_get_binary (value, &len);
      g_autofree char *b64 = g_base64_encode (data, len);

      return g_strdup_printf ("{B:%s}", b64);
    }
  return g_strdup_printf ("{%s}", type_name (type));
}

static gsize
key_value_bytes (const DynoValue *value)
{
  gsize len = 0;

  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_S:
      dyno_value_get_string (value, &len);
      return len;
    case DYNO_VALUE_B:
      dyno_value_get_binary (value, &len);
      return len;
    default:
      return 0;
    }
}

static gboolean
value_is_empty (const DynoValue *value)
{
  DynoValueType type = dyno_value_get_kind (value);

  return (type == DYNO_VALUE_S || type == DYNO_VALUE_B) && key_value_bytes (value) == 0;
}

/* ---- paths ------------------------------------------------------------------------------ */

static void
check_path_depth (Validator      *v,
                  const char     *field,
                  const DynoExpr *node,
                  const DynoPath *path)
{
  g_autofree char *shown = NULL;
  g_autofree char *dynamodb = NULL;

  if (dyno_path_get_length (path) <= DYNO_EXPR_MAX_PATH_DEPTH)
    return;
  shown = dyno_path_to_inline (path);
  dynamodb = g_strdup_printf ("Invalid %s: The document path has too many nesting levels; "
                              "nesting levels: %u", field, dyno_path_get_length (path));
  add_issue (v, field, node, dynamodb,
             /* Translators: the request field (such as FilterExpression), the path, its depth,
              * then the limit. */
             _("%s: the document path %s is %u levels deep; DynamoDB allows at most %d."),
             field, shown, dyno_path_get_length (path), DYNO_EXPR_MAX_PATH_DEPTH);
}

typedef enum { PATHS_DISJOINT, PATHS_OVERLAP, PATHS_CONFLICT } PathRelation;

static PathRelation
relate_paths (const DynoPath *a,
              const DynoPath *b)
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

/* Projection and update paths may not overlap (one inside the other) or conflict (a map
 * key in one where the other has a list index). */
static void
check_path_set (Validator      *v,
                const char     *field,
                const char     *prefix,
                GPtrArray      *paths)
{
  for (guint i = 0; i < paths->len; i++)
    for (guint j = i + 1; j < paths->len; j++)
      {
        const DynoPath *a = g_ptr_array_index (paths, i);
        const DynoPath *b = g_ptr_array_index (paths, j);
        PathRelation relation = relate_paths (a, b);
        g_autofree char *da = NULL;
        g_autofree char *db = NULL;
        g_autofree char *dynamodb = NULL;

        if (relation == PATHS_DISJOINT)
          continue;
        da = dyno_path_to_display (a);
        db = dyno_path_to_display (b);
        dynamodb = g_strdup_printf ("%sTwo document paths %s with each other; must remove or "
                                    "rewrite one of these paths; path one: %s, path two: %s",
                                    prefix,
                                    relation == PATHS_OVERLAP ? "overlap" : "conflict",
                                    da, db);
        if (relation == PATHS_OVERLAP)
          add_issue (v, field, NULL, dynamodb,
                     /* Translators: the request field (such as FilterExpression), then the two
                      * paths. */
                     _("%s: the paths %s and %s overlap (one is the same as or inside the "
                       "other); keep only one of them."), field, da, db);
        else
          add_issue (v, field, NULL, dynamodb,
                     /* Translators: the request field (such as FilterExpression), then the two
                      * paths. */
                     _("%s: the paths %s and %s conflict: one uses a map key where the other "
                       "uses a list index."), field, da, db);
        return;
      }
}

/* ---- conditions (filter, condition, and the shape of key conditions) ---------------------- */

static void check_condition (Validator *v, const char *field, const DynoExpr *expr);

static void
check_operand (Validator      *v,
               const char     *field,
               const DynoExpr *expr)
{
  expr = dyno_expr_skip_parens (expr);
  switch (expr->kind)
    {
    case DYNO_EXPR_PATH:
    case DYNO_EXPR_SIZE:
      check_path_depth (v, field, expr, expr->path);
      break;
    case DYNO_EXPR_VALUE:
      break;
    case DYNO_EXPR_FUNCTION:
      {
        g_autofree char *dynamodb =
          g_strdup_printf ("The function is not allowed to be used this way in an expression; "
                           "function: %s", dyno_function_to_string (expr->op.function));
        add_issue (v, field, expr, dynamodb,
                   /* Translators: the request field (such as FilterExpression), then the
                    * function. */
                   _("%s: %s() is a condition by itself and cannot be compared or used as an "
                     "operand."), field, dyno_function_to_string (expr->op.function));
      }
      break;
    default:
      add_issue (v, field, expr, NULL,
                 _("%s: a condition or an update operation is used where an attribute, a value "
                   "or size() is expected."), field);
      break;
    }
}

static void
check_distinct (Validator      *v,
                const char     *field,
                const DynoExpr *node,
                const char     *op,
                const DynoExpr *a,
                const DynoExpr *b)
{
  g_autofree char *shown = NULL;
  g_autofree char *dynamodb = NULL;

  a = dyno_expr_skip_parens (a);
  b = dyno_expr_skip_parens (b);
  if (a->kind != DYNO_EXPR_PATH || b->kind != DYNO_EXPR_PATH || !dyno_path_equal (a->path, b->path))
    return;
  shown = dyno_path_to_display (a->path);
  dynamodb = g_strdup_printf ("The first operand must be distinct from the remaining operands "
                              "for this operator or function; operator: %s, first operand: %s",
                              op, shown);
  add_issue (v, field, node, dynamodb,
             /* Translators: the request field (such as FilterExpression), the operator or
              * function, then the attribute. */
             _("%s: %s compares the attribute %s with itself."), field, op, shown);
}

static void
operand_type_issue (Validator      *v,
                    const char     *field,
                    const DynoExpr *node,
                    const char     *op,
                    const char     *type,
                    const char     *allowed)
{
  g_autofree char *dynamodb =
    g_strdup_printf ("Incorrect operand type for operator or function; operator or function: "
                     "%s, operand type: %s", op, type);

  /* Translators: the request field (such as FilterExpression), the operator or function, what it
   * takes (such as "a string or a binary"), then a type. */
  add_issue (v, field, node, dynamodb, _("%s: %s takes %s, not a value of type %s."), field, op,
             allowed, type);
}

/* <, <=, >, >= and BETWEEN order only S, N and B.  FALSE when an issue was added. */
static gboolean
check_ordered_operand (Validator      *v,
                       const char     *field,
                       const char     *op,
                       const DynoExpr *expr)
{
  DynoValueType type;

  expr = dyno_expr_skip_parens (expr);
  if (expr->kind != DYNO_EXPR_VALUE)
    return TRUE;
  type = dyno_value_get_kind (expr->value);
  if (is_scalar_key_type (type))
    return TRUE;
  operand_type_issue (v, field, expr, op, type_name (type),
                      _("a string, a number or a binary"));
  return FALSE;
}

static void
check_between_bounds (Validator      *v,
                      const char     *field,
                      const DynoExpr *node,
                      const DynoExpr *low,
                      const DynoExpr *high)
{
  g_autofree char *rl = NULL;
  g_autofree char *rh = NULL;
  g_autofree char *dynamodb = NULL;
  DynoValueType tl, th;

  low = dyno_expr_skip_parens (low);
  high = dyno_expr_skip_parens (high);
  if (low->kind != DYNO_EXPR_VALUE || high->kind != DYNO_EXPR_VALUE)
    return;
  tl = dyno_value_get_kind (low->value);
  th = dyno_value_get_kind (high->value);
  if (!is_scalar_key_type (tl) || !is_scalar_key_type (th))
    return;   /* reported by check_ordered_operand */
  rl = render_attribute_value (low->value);
  rh = render_attribute_value (high->value);
  if (tl != th)
    {
      dynamodb = g_strdup_printf ("Invalid %s: The BETWEEN operator requires same data type for "
                                  "lower and upper bounds; lower bound operand: "
                                  "AttributeValue: %s, upper bound operand: AttributeValue: %s",
                                  field, rl, rh);
      add_issue (v, field, node, dynamodb,
                 /* Translators: the request field (such as FilterExpression), then the types of
                  * the two bounds. */
                 _("%s: the bounds of BETWEEN must have the same type; the lower bound is %s and "
                   "the upper bound is %s."), field, type_name (tl), type_name (th));
    }
  else if (dyno_value_compare (low->value, high->value) > 0)
    {
      dynamodb = g_strdup_printf ("Invalid %s: The BETWEEN operator requires upper bound to be "
                                  "greater than or equal to lower bound; lower bound operand: "
                                  "AttributeValue: %s, upper bound operand: AttributeValue: %s",
                                  field, rl, rh);
      add_issue (v, field, node, dynamodb,
                 /* Translators: the request field (such as FilterExpression), the two bounds,
                  * then nothing or " (strings compare by UTF-8 bytes)". */
                 _("%s: the lower bound of BETWEEN (%s) is greater than the upper bound (%s) in "
                   "DynamoDB's order%s; swap them."), field, rl, rh,
                 tl == DYNO_VALUE_S ? _(" (strings compare by UTF-8 bytes)") : "");
    }
}

static void
check_function (Validator      *v,
                const char     *field,
                const DynoExpr *expr)
{
  const char *fname = dyno_function_to_string (expr->op.function);
  guint n = expr->args != NULL ? expr->args->len : 0;
  const DynoExpr *first;

  if (n != dyno_function_get_arity (expr->op.function))
    {
      g_autofree char *dynamodb =
        g_strdup_printf ("Incorrect number of operands for operator or function; operator or "
                         "function: %s, number of operands: %u", fname, n);
      guint arity = dyno_function_get_arity (expr->op.function);

      add_issue (v, field, expr, dynamodb,
                 /* Translators: the request field, the function, the number of operands it
                  * takes, then the number it was given. */
                 g_dngettext (GETTEXT_PACKAGE, "%s: %s() takes %u operand, not %u.",
                              "%s: %s() takes %u operands, not %u.", arity),
                 field, fname, arity, n);
      return;
    }
  for (guint i = 0; i < n; i++)
    check_operand (v, field, g_ptr_array_index (expr->args, i));
  first = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 0));

  switch (expr->op.function)
    {
    case DYNO_FUNCTION_ATTRIBUTE_EXISTS:
    case DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS:
    case DYNO_FUNCTION_ATTRIBUTE_TYPE:
      if (first->kind != DYNO_EXPR_PATH)
        {
          g_autofree char *dynamodb =
            g_strdup_printf ("Operator or function requires a document path; operator or "
                             "function: %s", fname);
          /* Translators: the request field (such as FilterExpression), then the function. */
          add_issue (v, field, first, dynamodb, _("%s: the first operand of %s() must be an "
                       "attribute name."), field, fname);
          return;
        }
      if (expr->op.function == DYNO_FUNCTION_ATTRIBUTE_TYPE)
        {
          const DynoExpr *type = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 1));
          static const char *const valid[] = { "S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL",
                                               "L", "M" };
          const char *text;
          gboolean ok = FALSE;

          if (type->kind != DYNO_EXPR_VALUE ||
              dyno_value_get_kind (type->value) != DYNO_VALUE_S)
            {
              const char *tname = type->kind == DYNO_EXPR_VALUE
                                  ? type_name (dyno_value_get_kind (type->value))
                                  : type->kind == DYNO_EXPR_SIZE ? "N"
                                  : "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}";
              operand_type_issue (v, field, type, fname, tname,
                                  _("a type name as a string value (\"S\", \"N\", \"M\", …)"));
              return;
            }
          text = dyno_value_get_string (type->value, NULL);
          for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
            ok = ok || strcmp (text, valid[i]) == 0;
          if (!ok)
            {
              g_autofree char *dynamodb =
                g_strdup_printf ("Invalid attribute type name found; type: %s, valid types: "
                                 "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}", text);
              add_issue (v, field, type, dynamodb,
                         _("%s: \"%s\" is not a DynamoDB type; attribute_type() takes one of S, "
                           "SS, N, NS, B, BS, BOOL, NULL, L, M."), field, text);
            }
        }
      break;
    case DYNO_FUNCTION_BEGINS_WITH:
      for (guint i = 0; i < n; i++)
        {
          const DynoExpr *arg = dyno_expr_skip_parens (g_ptr_array_index (expr->args, i));
          const char *tname = NULL;

          if (arg->kind == DYNO_EXPR_VALUE)
            {
              DynoValueType type = dyno_value_get_kind (arg->value);

              if (type != DYNO_VALUE_S && type != DYNO_VALUE_B)
                tname = type_name (type);
            }
          else if (arg->kind == DYNO_EXPR_SIZE)
            tname = "N";
          if (tname != NULL)
            {
              operand_type_issue (v, field, arg, fname, tname, _("a string or a binary"));
              return;
            }
        }
      break;
    case DYNO_FUNCTION_CONTAINS:
    default:
      break;
    }
  if (n == 2)
    check_distinct (v, field, expr, fname, g_ptr_array_index (expr->args, 0),
                    g_ptr_array_index (expr->args, 1));
}

static void
check_condition (Validator      *v,
                 const char     *field,
                 const DynoExpr *expr)
{
  expr = dyno_expr_skip_parens (expr);
  switch (expr->kind)
    {
    case DYNO_EXPR_AND:
    case DYNO_EXPR_OR:
      check_condition (v, field, g_ptr_array_index (expr->args, 0));
      check_condition (v, field, g_ptr_array_index (expr->args, 1));
      break;
    case DYNO_EXPR_NOT:
      check_condition (v, field, g_ptr_array_index (expr->args, 0));
      break;
    case DYNO_EXPR_COMPARE:
      {
        const char *op = dyno_compare_op_to_string (expr->op.compare);
        const DynoExpr *a = g_ptr_array_index (expr->args, 0);
        const DynoExpr *b = g_ptr_array_index (expr->args, 1);

        check_operand (v, field, a);
        check_operand (v, field, b);
        check_distinct (v, field, expr, op, a, b);
        if (expr->op.compare != DYNO_COMPARE_EQ && expr->op.compare != DYNO_COMPARE_NE)
          {
            if (check_ordered_operand (v, field, op, a))
              check_ordered_operand (v, field, op, b);
          }
      }
      break;
    case DYNO_EXPR_BETWEEN:
      {
        gboolean types_ok = TRUE;

        for (guint i = 0; i < 3; i++)
          {
            check_operand (v, field, g_ptr_array_index (expr->args, i));
            if (types_ok)
              types_ok = check_ordered_operand (v, field, "BETWEEN",
                                                g_ptr_array_index (expr->args, i));
          }
      }
      check_between_bounds (v, field, expr, g_ptr_array_index (expr->args, 1),
                            g_ptr_array_index (expr->args, 2));
      break;
    case DYNO_EXPR_IN:
      for (guint i = 0; i < expr->args->len; i++)
        check_operand (v, field, g_ptr_array_index (expr->args, i));
      if (expr->args->len - 1 > DYNO_EXPR_MAX_IN_OPERANDS)
        {
          /* DynamoDB Local's words; the documented limit is 100 values. */
          g_autofree char *dynamodb =
            g_strdup_printf ("Invalid %s: The IN operator is provided with too many operands; "
                             "number of operands: %u", field, expr->args->len - 1);

          add_issue (v, field, expr, dynamodb,
                     /* Translators: the request field (such as FilterExpression), the number of
                      * values, then the limit. */
                     _("%s: IN lists %u values; DynamoDB accepts at most %d."), field,
                     expr->args->len - 1, DYNO_EXPR_MAX_IN_OPERANDS);
        }
      break;
    case DYNO_EXPR_FUNCTION:
      check_function (v, field, expr);
      break;
    case DYNO_EXPR_SIZE:
      add_issue (v, field, expr, "The function is not allowed to be used this way in an "
                 "expression; function: size",
                 _("%s: size() gives a number; compare it (size(a) > 3) to make a condition."),
                 field);
      break;
    default:
      add_issue (v, field, expr, NULL,
                 _("%s: an attribute, a value or an update operation stands where a condition "
                   "is expected; compare it with something or use a function."), field);
      break;
    }
}

/* DynamoDB counts comparators, BETWEEN, IN, AND, OR, NOT and function calls (size()
 * included), and in an UpdateExpression + and - and its functions, and allows 300 in one
 * expression; it stops counting at the 301st. */
static guint
count_operators (const DynoExpr *expr)
{
  guint n = 0;

  if (expr == NULL)
    return 0;
  switch (expr->kind)
    {
    case DYNO_EXPR_SIZE:
    case DYNO_EXPR_COMPARE:
    case DYNO_EXPR_BETWEEN:
    case DYNO_EXPR_IN:
    case DYNO_EXPR_AND:
    case DYNO_EXPR_OR:
    case DYNO_EXPR_NOT:
    case DYNO_EXPR_FUNCTION:
    case DYNO_EXPR_PLUS:
    case DYNO_EXPR_MINUS:
    case DYNO_EXPR_IF_NOT_EXISTS:
    case DYNO_EXPR_LIST_APPEND:
      n = 1;
      break;
    default:
      break;
    }
  if (expr->args != NULL)
    for (guint i = 0; i < expr->args->len; i++)
      n += count_operators (g_ptr_array_index (expr->args, i));
  return n;
}

static void
operator_count_issue (Validator  *v,
                      const char *field,
                      guint       n)
{
  g_autofree char *dynamodb = NULL;

  if (n <= DYNO_EXPR_MAX_OPERATORS)
    return;
  dynamodb = g_strdup_printf ("Invalid %s: The expression contains too many operators; "
                              "operator count: %d", field, DYNO_EXPR_MAX_OPERATORS + 1);
  add_issue (v, field, NULL, dynamodb,
             /* Translators: the request field (such as FilterExpression), the number of
              * operators, then the limit. */
             _("%s: the expression has %u operators and functions; DynamoDB allows at most %d "
               "(split it, or use IN lists, which count once)."), field, n,
             DYNO_EXPR_MAX_OPERATORS);
}

static void
check_operator_count (Validator      *v,
                      const char     *field,
                      const DynoExpr *expr)
{
  operator_count_issue (v, field, count_operators (expr));
}

/* Every path named in a condition, for the filter-on-key rule. */
static void
collect_paths (const DynoExpr *expr,
               GPtrArray      *out)
{
  if (expr->path != NULL)
    g_ptr_array_add (out, (gpointer) expr);
  if (expr->args != NULL)
    for (guint i = 0; i < expr->args->len; i++)
      collect_paths (g_ptr_array_index (expr->args, i), out);
}

/* Only the key schema of what is queried counts: querying an index, the table's own sort key
 * (LSI) or keys (GSI) are ordinary attributes there and may be filtered on, as DynamoDB
 * Local and dynalite agree. */
static gboolean
is_queried_key (Validator  *v,
                const char *name)
{
  const DynoKeyAttr *pk = dyno_table_info_get_partition_key (v->schema);
  const DynoKeyAttr *sk = dyno_table_info_get_sort_key (v->schema);

  if (v->index != NULL)
    return g_strcmp0 (v->index->partition_key.name, name) == 0 ||
           g_strcmp0 (v->index->sort_key.name, name) == 0;
  return (pk != NULL && g_strcmp0 (pk->name, name) == 0) ||
         (sk != NULL && g_strcmp0 (sk->name, name) == 0);
}

static void
check_query_filter_keys (Validator      *v,
                         const DynoExpr *filter)
{
  g_autoptr(GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr(GHashTable) reported = g_hash_table_new (g_str_hash, g_str_equal);

  collect_paths (filter, nodes);
  for (guint i = 0; i < nodes->len; i++)
    {
      const DynoExpr *node = g_ptr_array_index (nodes, i);
      const char *name = dyno_path_get_attribute (node->path);
      g_autofree char *dynamodb = NULL;

      if (name == NULL || !is_queried_key (v, name) || g_hash_table_contains (reported, name))
        continue;
      g_hash_table_add (reported, (gpointer) name);
      dynamodb = g_strdup_printf ("Filter Expression can only contain non-primary key "
                                  "attributes: Primary key attribute: %s", name);
      add_issue (v, "FilterExpression", node, dynamodb,
                 _("FilterExpression: %s is a key attribute of the queried table or index; "
                   "put its condition in KeyConditionExpression instead."), name);
    }
}

/* ---- key conditions --------------------------------------------------------------------- */

typedef struct {
  const DynoExpr  *node;
  const DynoPath  *path;
  gboolean         is_between;
  gboolean         is_begins_with;
  DynoCompareOp    op;
  const DynoExpr  *values[2];
} KeyTerm;

static void
key_operator_issue (Validator      *v,
                    const DynoExpr *node,
                    const char     *op)
{
  g_autofree char *dynamodb =
    g_strdup_printf ("Invalid operator used in KeyConditionExpression: %s", op);

  add_issue (v, "KeyConditionExpression", node, dynamodb,
             _("KeyConditionExpression: %s cannot be used in a key condition; the partition key "
               "takes =, the sort key =, <, <=, >, >=, BETWEEN or begins_with, joined with AND."),
             op);
}

static gboolean
key_operand_is_value (Validator      *v,
                      const DynoExpr *node,
                      const DynoExpr *operand)
{
  operand = dyno_expr_skip_parens (operand);
  if (operand->kind == DYNO_EXPR_VALUE)
    return TRUE;
  if (operand->kind == DYNO_EXPR_PATH)
    add_issue (v, "KeyConditionExpression", node,
               "Invalid condition in KeyConditionExpression: Multiple attribute names used in "
               "one condition",
               _("KeyConditionExpression: each key condition compares one key attribute with "
                 "values, not with another attribute."));
  else if (operand->kind == DYNO_EXPR_SIZE)
    add_issue (v, "KeyConditionExpression", node,
               "KeyConditionExpressions cannot contain nested operations",
               _("KeyConditionExpression: size() cannot be used in a key condition."));
  else
    check_operand (v, "KeyConditionExpression", operand);
  return FALSE;
}

static gboolean
key_term_from_leaf (Validator      *v,
                    const DynoExpr *expr,
                    KeyTerm        *term)
{
  memset (term, 0, sizeof *term);
  term->node = expr;
  switch (expr->kind)
    {
    case DYNO_EXPR_OR:
      key_operator_issue (v, expr, "OR");
      return FALSE;
    case DYNO_EXPR_NOT:
      key_operator_issue (v, expr, "NOT");
      return FALSE;
    case DYNO_EXPR_IN:
      key_operator_issue (v, expr, "IN");
      return FALSE;
    case DYNO_EXPR_COMPARE:
      {
        const DynoExpr *a = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 0));
        const DynoExpr *b = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 1));
        static const DynoCompareOp flipped[] = {
          DYNO_COMPARE_EQ, DYNO_COMPARE_NE, DYNO_COMPARE_GT, DYNO_COMPARE_GE, DYNO_COMPARE_LT,
          DYNO_COMPARE_LE,
        };

        if (expr->op.compare == DYNO_COMPARE_NE)
          {
            key_operator_issue (v, expr, "<>");
            return FALSE;
          }
        if (a->kind == DYNO_EXPR_SIZE || b->kind == DYNO_EXPR_SIZE)
          {
            add_issue (v, "KeyConditionExpression", expr,
                       "KeyConditionExpressions cannot contain nested operations",
                       _("KeyConditionExpression: size() cannot be used in a key condition."));
            return FALSE;
          }
        if (a->kind == DYNO_EXPR_VALUE && b->kind == DYNO_EXPR_VALUE)
          {
            add_issue (v, "KeyConditionExpression", expr,
                       "Invalid condition in KeyConditionExpression: No key attribute specified",
                       _("KeyConditionExpression: this condition compares two values; one side "
                         "must be a key attribute."));
            return FALSE;
          }
        /* `:v < sk` is `sk > :v` */
        if (a->kind != DYNO_EXPR_PATH && b->kind == DYNO_EXPR_PATH)
          {
            const DynoExpr *t = a;

            a = b;
            b = t;
            term->op = flipped[expr->op.compare];
          }
        else
          term->op = expr->op.compare;
        if (a->kind != DYNO_EXPR_PATH)
          {
            check_operand (v, "KeyConditionExpression", a);
            return FALSE;
          }
        if (!key_operand_is_value (v, expr, b))
          return FALSE;
        term->path = a->path;
        term->values[0] = b;
      }
      return TRUE;
    case DYNO_EXPR_BETWEEN:
      {
        const DynoExpr *a = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 0));

        if (a->kind != DYNO_EXPR_PATH)
          {
            add_issue (v, "KeyConditionExpression", expr,
                       "Invalid condition in KeyConditionExpression: BETWEEN operator must have "
                       "the key attribute as its first operand",
                       _("KeyConditionExpression: BETWEEN must start with the sort key: "
                         "sk BETWEEN :low AND :high."));
            return FALSE;
          }
        if (!key_operand_is_value (v, expr, g_ptr_array_index (expr->args, 1)) ||
            !key_operand_is_value (v, expr, g_ptr_array_index (expr->args, 2)))
          return FALSE;
        term->is_between = TRUE;
        term->path = a->path;
        term->values[0] = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 1));
        term->values[1] = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 2));
      }
      return TRUE;
    case DYNO_EXPR_FUNCTION:
      {
        const DynoExpr *a;

        if (expr->op.function != DYNO_FUNCTION_BEGINS_WITH)
          {
            key_operator_issue (v, expr, dyno_function_to_string (expr->op.function));
            return FALSE;
          }
        if (expr->args->len != 2)
          {
            check_function (v, "KeyConditionExpression", expr);
            return FALSE;
          }
        a = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 0));
        if (a->kind != DYNO_EXPR_PATH)
          {
            add_issue (v, "KeyConditionExpression", expr,
                       "Invalid condition in KeyConditionExpression: begins_with operator must "
                       "have the key attribute as its first operand",
                       _("KeyConditionExpression: begins_with must start with the sort key: "
                         "begins_with(sk, :prefix)."));
            return FALSE;
          }
        if (!key_operand_is_value (v, expr, g_ptr_array_index (expr->args, 1)))
          return FALSE;
        term->is_begins_with = TRUE;
        term->path = a->path;
        term->values[0] = dyno_expr_skip_parens (g_ptr_array_index (expr->args, 1));
        {
          DynoValueType type = dyno_value_get_kind (term->values[0]->value);

          if (type != DYNO_VALUE_S && type != DYNO_VALUE_B)
            {
              g_autofree char *dynamodb =
                g_strdup_printf ("Invalid KeyConditionExpression: Incorrect operand type for "
                                 "operator or function; operator or function: begins_with, "
                                 "operand type: %s", type_name (type));
              add_issue (v, "KeyConditionExpression", term->values[0], dynamodb,
                         _("KeyConditionExpression: begins_with takes a string or binary "
                           "prefix, not a value of type %s."), type_name (type));
              return FALSE;
            }
        }
      }
      return TRUE;
    default:
      check_condition (v, "KeyConditionExpression", expr);
      return FALSE;
    }
}

static void
check_key_value (Validator      *v,
                 const char     *field,
                 const DynoExpr *node,
                 const char     *name,
                 gboolean        is_partition,
                 const DynoValue *value,
                 const char     *empty_prefix)
{
  gsize bytes;

  if (value_is_empty (value))
    {
      gboolean binary = dyno_value_get_kind (value) == DYNO_VALUE_B;
      g_autofree char *dynamodb =
        g_strdup_printf ("%s The AttributeValue for a key attribute cannot contain an empty %s "
                         "value. Key: %s", empty_prefix, binary ? "binary" : "string", name);
      /* Translators: the request field, the attribute, then "binary" or "string". */
      add_issue (v, field, node, dynamodb, _("%s: the key attribute %s cannot be an empty %s."),
                 field, name, binary ? C_("empty value", "binary") : C_("empty value", "string"));
      return;
    }
  bytes = key_value_bytes (value);
  if (is_partition && bytes > MAX_PARTITION_KEY_BYTES)
    add_issue (v, field, node,
               "One or more parameter values were invalid: Size of hashkey has exceeded the "
               "maximum size limit of2048 bytes",
               /* Translators: the request field (such as FilterExpression), the attribute, then
                * its size. */
               _("%s: the partition key %s is %zu bytes long; DynamoDB allows "
                 "at most 2048."), field, name, bytes);
  else if (!is_partition && bytes > MAX_SORT_KEY_BYTES)
    add_issue (v, field, node,
               "One or more parameter values were invalid: Aggregated size of all range keys "
               "has exceeded the size limit of 1024 bytes",
               /* Translators: the request field (such as FilterExpression), the attribute, then
                * its size. */
               _("%s: the sort key %s is %zu bytes long; DynamoDB allows at most "
                 "1024."), field, name, bytes);
}

static void
check_key_condition (Validator      *v,
                     const DynoExpr *expr)
{
  const char *field = "KeyConditionExpression";
  g_autoptr(GPtrArray) leaves = g_ptr_array_new ();
  g_autofree KeyTerm *terms = NULL;
  guint n_terms = 0;
  gboolean ok = TRUE;
  const KeyTerm *pk_term = NULL;
  guint n_issues;

  dyno_expr_flatten_and (expr, leaves);
  terms = g_new0 (KeyTerm, leaves->len);
  for (guint i = 0; i < leaves->len; i++)
    {
      KeyTerm term;

      if (!key_term_from_leaf (v, g_ptr_array_index (leaves, i), &term))
        {
          ok = FALSE;
          continue;
        }
      if (dyno_path_get_length (term.path) > 1)
        {
          add_issue (v, field, term.node,
                     "KeyConditionExpressions cannot have conditions on nested attributes",
                     _("KeyConditionExpression: key attributes are top-level attributes; %s "
                       "goes inside one."),
                     dyno_path_get_attribute (term.path));
          ok = FALSE;
          continue;
        }
      if (term.is_between)
        {
          guint before = v->issues->len;

          check_between_bounds (v, field, term.node, term.values[0], term.values[1]);
          if (v->issues->len != before)
            {
              ok = FALSE;
              continue;
            }
        }
      for (guint j = 0; j < n_terms; j++)
        if (strcmp (dyno_path_get_attribute (terms[j].path),
                    dyno_path_get_attribute (term.path)) == 0)
          {
            add_issue (v, field, term.node,
                       "KeyConditionExpressions must only contain one condition per key",
                       _("KeyConditionExpression: %s has more than one condition; use one "
                         "(BETWEEN covers a range)."), dyno_path_get_attribute (term.path));
            ok = FALSE;
          }
      terms[n_terms++] = term;
    }
  if (!ok)
    return;

  if (v->schema == NULL || v->pk_name == NULL)
    {
      /* Without a schema: still no empty key values. */
      for (guint i = 0; i < n_terms; i++)
        for (guint k = 0; k < 2 && terms[i].values[k] != NULL; k++)
          if (value_is_empty (terms[i].values[k]->value))
            check_key_value (v, field, terms[i].values[k], dyno_path_get_attribute (terms[i].path),
                             TRUE, terms[i].values[k]->value,
                             "One or more parameter values were invalid:");
      if (n_terms > 2)
        add_issue (v, field, expr,
                   "KeyConditionExpressions must only contain one condition per key",
                   _("KeyConditionExpression: a key condition has at most two parts: the "
                     "partition key and the sort key."));
      return;
    }

  n_issues = v->issues->len;
  for (guint i = 0; i < n_terms; i++)
    if (strcmp (dyno_path_get_attribute (terms[i].path), v->pk_name) == 0)
      pk_term = &terms[i];
  if (pk_term == NULL)
    {
      g_autofree char *dynamodb =
        g_strdup_printf ("Query condition missed key schema element: %s", v->pk_name);
      add_issue (v, field, expr, dynamodb,
                 _("KeyConditionExpression: a Query needs the partition key: %s = :value."),
                 v->pk_name);
      return;
    }
  if (pk_term->is_between || pk_term->is_begins_with || pk_term->op != DYNO_COMPARE_EQ)
    {
      add_issue (v, field, pk_term->node, "Query key condition not supported",
                 _("KeyConditionExpression: the partition key %s can only be tested with =; "
                   "ranges and prefixes work on the sort key."), v->pk_name);
      return;
    }
  for (guint i = 0; i < n_terms; i++)
    {
      const KeyTerm *term = &terms[i];
      const char *name = dyno_path_get_attribute (term->path);
      gboolean is_pk = term == pk_term;
      DynoValueType key_type;

      if (!is_pk && (v->sk_name == NULL || strcmp (name, v->sk_name) != 0))
        {
          if (v->sk_name != NULL)
            {
              g_autofree char *dynamodb =
                g_strdup_printf ("Query condition missed key schema element: %s", v->sk_name);
              add_issue (v, field, term->node, dynamodb,
                         _("KeyConditionExpression: %s is not a key attribute here; only the "
                           "partition key %s and the sort key %s can be in a key condition "
                           "(filter other attributes with FilterExpression)."),
                         name, v->pk_name, v->sk_name);
            }
          else
            add_issue (v, field, term->node, "Query key condition not supported",
                       _("KeyConditionExpression: there is no sort key here, so only the "
                         "partition key %s can be in the key condition (filter %s with "
                         "FilterExpression)."), v->pk_name, name);
          continue;
        }
      key_type = is_pk ? v->pk_type : v->sk_type;
      if (term->is_begins_with && key_type == DYNO_VALUE_N)
        {
          /* The prefix is S or B here (an N prefix was reported as an operand type): to
           * DynamoDB Local and dynalite that is a value of the wrong type for the key. */
          add_issue (v, field, term->node,
                     "One or more parameter values were invalid: Condition parameter type "
                     "does not match schema type",
                     _("KeyConditionExpression: begins_with cannot be used on the sort key %s "
                       "because it is a number."), name);
          continue;
        }
      for (guint k = 0; k < 2 && term->values[k] != NULL; k++)
        {
          const DynoValue *value = term->values[k]->value;
          DynoValueType type = dyno_value_get_kind (value);

          if (type != key_type)
            {
              add_issue (v, field, term->values[k],
                         "One or more parameter values were invalid: Condition parameter type "
                         "does not match schema type",
                         /* Translators: the key attribute, its type, then the value's type. */
                         _("KeyConditionExpression: %s is of type %s, but it is compared with a "
                           "value of type %s."), name, type_name (key_type), type_name (type));
              continue;
            }
          if (v->index != NULL && value_is_empty (value))
            {
              const char *what = type == DYNO_VALUE_B ? "binary" : "string";
              g_autofree char *dynamodb =
                g_strdup_printf ("One or more parameter values are not valid. A value "
                                 "specified for a secondary index key is not supported. The "
                                 "AttributeValue for a key attribute cannot contain an empty %s "
                                 "value. IndexName: %s, IndexKey: %s", what, v->index->name,
                                 name);

              add_issue (v, field, term->values[k], dynamodb,
                         /* Translators: the request field, the attribute, the index, then
                          * "binary" or "string". */
                         _("%s: the key attribute %s of the index %s cannot be an empty %s."),
                         field, name, v->index->name,
                         type == DYNO_VALUE_B ? C_("empty value", "binary")
                                              : C_("empty value", "string"));
              continue;
            }
          /* DynamoDB (Local) does not limit the size of the partition key value in a Query,
           * only the sort key's: a longer value just matches nothing. */
          if (is_pk && !value_is_empty (value))
            continue;
          check_key_value (v, field, term->values[k], name, is_pk, value,
                           "One or more parameter values are not valid.");
        }
    }
  if (v->issues->len != n_issues)
    return;
  v->kc_pk_value = pk_term->values[0]->value;
  for (guint i = 0; i < n_terms; i++)
    if (&terms[i] != pk_term)
      {
        v->kc_sk_node = terms[i].node;
        v->kc_sk_op = terms[i].op;
        v->kc_sk_between = terms[i].is_between;
        v->kc_sk_begins_with = terms[i].is_begins_with;
        v->kc_sk_values[0] = terms[i].values[0]->value;
        v->kc_sk_values[1] = terms[i].values[1] != NULL ? terms[i].values[1]->value : NULL;
      }
}

/* ---- items and keys --------------------------------------------------------------------- */

static void
check_key_item (Validator      *v,
                const char     *field,
                const DynoItem *key)
{
  const DynoKeyAttr *pk, *sk;
  guint expected = 0;

  if (key == NULL)
    {
      add_issue (v, field, NULL,
                 "1 validation error detected: Value null at 'key' failed to satisfy "
                 "constraint: Member must not be null",
                 /* Translators: the operation (such as GetItem), then nothing or " and sort
                  * key". */
                 _("Key: %s needs the key of the item (its partition key%s)."),
                 dyno_operation_to_string (v->request->operation),
                 v->schema != NULL && dyno_table_info_get_sort_key (v->schema) != NULL &&
                 dyno_table_info_get_sort_key (v->schema)->name != NULL
                 ? _(" and sort key") : "");
      return;
    }
  if (v->schema == NULL)
    {
      const DynoValue *map = dyno_item_get_map (key);

      for (guint i = 0; i < dyno_value_get_n_children (map); i++)
        {
          const char *name = dyno_value_get_member_name (map, i, NULL);

          if (value_is_empty (dyno_value_get_child (map, i)))
            check_key_value (v, field, NULL, name, TRUE, dyno_value_get_child (map, i),
                             "One or more parameter values were invalid:");
        }
      return;
    }
  pk = dyno_table_info_get_partition_key (v->schema);
  sk = dyno_table_info_get_sort_key (v->schema);
  for (guint k = 0; k < 2; k++)
    {
      const DynoKeyAttr *attr = k == 0 ? pk : sk;
      const DynoValue *value;

      if (attr == NULL || attr->name == NULL)
        continue;
      expected++;
      value = dyno_item_lookup (key, attr->name);
      if (value == NULL)
        {
          add_issue (v, field, NULL, "The provided key element does not match the schema",
                     /* Translators: "partition" or "sort", then the attribute. */
                     _("Key: the %s key %s is missing."),
                     k == 0 ? C_("key", "partition") : C_("key", "sort"), attr->name);
          return;
        }
      if (dyno_value_get_kind (value) != attr->type)
        {
          add_issue (v, field, NULL, "The provided key element does not match the schema",
                     /* Translators: the attribute, the type it must have, then the type it has. */
                     _("Key: %s must be of type %s, not %s."), attr->name, type_name (attr->type),
                     type_name (dyno_value_get_kind (value)));
          return;
        }
      check_key_value (v, field, NULL, attr->name, k == 0, value,
                       "One or more parameter values were invalid:");
    }
  if (dyno_item_get_n_attributes (key) > expected)
    add_issue (v, field, NULL, "The provided key element does not match the schema",
               /* Translators: the partition key, then ", " and the sort key, or nothing. */
               _("Key: the key may contain only the table's key attributes (%s%s%s)."),
               pk->name, sk != NULL && sk->name != NULL ? ", " : "",
               sk != NULL && sk->name != NULL ? sk->name : "");
}

/* An index key value is limited like a table key: 2048 bytes for the partition key, 1024
 * for the sort key.  DynamoDB Local's message does not say which. */
static void
check_index_key_size (Validator           *v,
                      const char          *field,
                      const DynoExpr      *node,
                      const DynoIndexInfo *index,
                      const char          *name,
                      gboolean             is_partition,
                      const DynoValue     *value)
{
  gsize bytes = key_value_bytes (value);
  gsize max = is_partition ? MAX_PARTITION_KEY_BYTES : MAX_SORT_KEY_BYTES;

  if (bytes <= max)
    return;
  add_issue (v, field, node, "One or more parameter values were invalid: Size limit exceeded",
             /* Translators: the request field, the attribute, "partition" or "sort", the index,
              * then the value's size and the limit in bytes. */
             _("%s: %s is the %s key of the index %s; its value is %zu bytes "
               "long and DynamoDB allows at most %zu."), field, name,
             is_partition ? C_("key", "partition") : C_("key", "sort"), index->name, bytes,
             max);
}

/* The index and key position of NAME when it is an index key but not a table key. */
static const DynoIndexInfo *
find_index_key (Validator  *v,
                const char *name,
                gboolean   *is_partition)
{
  const DynoKeyAttr *pk = dyno_table_info_get_partition_key (v->schema);
  const DynoKeyAttr *sk = dyno_table_info_get_sort_key (v->schema);

  if ((pk != NULL && g_strcmp0 (pk->name, name) == 0) ||
      (sk != NULL && g_strcmp0 (sk->name, name) == 0))
    return NULL;
  for (guint i = 0; i < dyno_table_info_get_n_indexes (v->schema); i++)
    {
      const DynoIndexInfo *index = dyno_table_info_get_index (v->schema, i);

      for (guint k = 0; k < 2; k++)
        {
          const DynoKeyAttr *attr = k == 0 ? &index->partition_key : &index->sort_key;

          if (attr->name != NULL && strcmp (attr->name, name) == 0)
            {
              *is_partition = k == 0;
              return index;
            }
        }
    }
  return NULL;
}

static void
check_put_item (Validator      *v,
                const DynoItem *item)
{
  const char *field = "Item";

  if (item == NULL)
    {
      add_issue (v, field, NULL,
                 "1 validation error detected: Value null at 'item' failed to satisfy "
                 "constraint: Member must not be null",
                 _("Item: PutItem needs the item to write."));
      return;
    }
  if (v->schema == NULL)
    return;
  for (guint k = 0; k < 2; k++)
    {
      const DynoKeyAttr *attr = k == 0 ? dyno_table_info_get_partition_key (v->schema)
                                       : dyno_table_info_get_sort_key (v->schema);
      const DynoValue *value;

      if (attr == NULL || attr->name == NULL)
        continue;
      value = dyno_item_lookup (item, attr->name);
      if (value == NULL)
        {
          g_autofree char *dynamodb =
            g_strdup_printf ("One or more parameter values were invalid: Missing the key %s "
                             "in the item", attr->name);
          /* Translators: "partition" or "sort", then the attribute. */
          add_issue (v, field, NULL, dynamodb, _("Item: the item must contain the %s key %s."),
                     k == 0 ? C_("key", "partition") : C_("key", "sort"), attr->name);
          continue;
        }
      if (dyno_value_get_kind (value) != attr->type)
        {
          g_autofree char *dynamodb =
            g_strdup_printf ("One or more parameter values were invalid: Type mismatch for key "
                             "%s expected: %s actual: %s", attr->name, type_name (attr->type),
                             type_name (dyno_value_get_kind (value)));
          /* Translators: the attribute, the type it must have, then the type it has. */
          add_issue (v, field, NULL, dynamodb, _("Item: the key %s must be of type %s, not %s."),
                     attr->name, type_name (attr->type),
                     type_name (dyno_value_get_kind (value)));
          continue;
        }
      check_key_value (v, field, NULL, attr->name, k == 0, value,
                       "One or more parameter values are not valid.");
    }
  /* Index keys are optional in an item, but when present they must fit the index. */
  for (guint i = 0; i < dyno_table_info_get_n_indexes (v->schema); i++)
    {
      const DynoIndexInfo *index = dyno_table_info_get_index (v->schema, i);

      for (guint k = 0; k < 2; k++)
        {
          const DynoKeyAttr *attr = k == 0 ? &index->partition_key : &index->sort_key;
          const DynoValue *value;

          if (attr->name == NULL)
            continue;
          /* table key attributes were checked above */
          if (g_strcmp0 (attr->name, dyno_table_info_get_partition_key (v->schema)->name) == 0 ||
              (dyno_table_info_get_sort_key (v->schema) != NULL &&
               g_strcmp0 (attr->name, dyno_table_info_get_sort_key (v->schema)->name) == 0))
            continue;
          value = dyno_item_lookup (item, attr->name);
          if (value == NULL)
            continue;
          if (dyno_value_get_kind (value) != attr->type)
            {
              g_autofree char *dynamodb =
                g_strdup_printf ("One or more parameter values were invalid: Type mismatch for "
                                 "Index Key %s Expected: %s Actual: %s IndexName: %s",
                                 attr->name, type_name (attr->type),
                                 type_name (dyno_value_get_kind (value)), index->name);
              add_issue (v, field, NULL, dynamodb,
                         /* Translators: the attribute, the index, the type it must have, then
                          * the type it has. */
                         _("Item: %s is a key of the index %s and must be of type %s, not %s."),
                         attr->name, index->name, type_name (attr->type),
                         type_name (dyno_value_get_kind (value)));
            }
          else if (value_is_empty (value))
            {
              g_autofree char *dynamodb =
                g_strdup_printf ("One or more parameter values are not valid. A value "
                                 "specified for a secondary index key is not supported. The "
                                 "AttributeValue for a key attribute cannot contain an empty "
                                 "%s value. IndexName: %s, IndexKey: %s",
                                 dyno_value_get_kind (value) == DYNO_VALUE_B ? "binary"
                                                                             : "string",
                                 index->name, attr->name);
              add_issue (v, field, NULL, dynamodb,
                         _("Item: %s is a key of the index %s and cannot be empty (leave it out "
                           "to keep the item out of the index)."), attr->name, index->name);
            }
          else
            check_index_key_size (v, field, NULL, index, attr->name, k == 0, value);
        }
    }
  if (dyno_item_get_size (item) > MAX_ITEM_BYTES)
    add_issue (v, field, NULL, "Item size has exceeded the maximum allowed size",
               _("Item: the item is %zu bytes; DynamoDB stores items of at most "
                 "400 KB (409600 bytes)."), dyno_item_get_size (item));
}

/* ---- key attributes are scalars --------------------------------------------------------- */

/* `pk.x` or `gsk[0]` in a projection, filter, condition or update: DynamoDB rejects a document
 * path into a table or index key attribute, whose value is always S, N or B. */
static void
check_scalar_key_path (Validator      *v,
                       const char     *field,
                       const DynoExpr *node,
                       const DynoPath *path,
                       GHashTable     *reported)
{
  const char *name = dyno_path_get_attribute (path);
  const DynoKeyAttr *pk, *sk;
  const DynoIndexInfo *index;
  gboolean is_partition = FALSE;
  g_autofree char *dynamodb = NULL;

  if (v->schema == NULL || name == NULL || dyno_path_get_length (path) < 2 ||
      g_hash_table_contains (reported, name))
    return;
  pk = dyno_table_info_get_partition_key (v->schema);
  sk = dyno_table_info_get_sort_key (v->schema);
  if ((pk != NULL && g_strcmp0 (pk->name, name) == 0) ||
      (sk != NULL && g_strcmp0 (sk->name, name) == 0))
    {
      dynamodb = g_strdup_printf ("Key attributes must be scalars; list random access '[]' and "
                                  "map lookup '.' are not allowed: Key: %s", name);
      add_issue (v, field, node, dynamodb,
                 _("%s: %s is a key attribute, so its value is a string, number or binary; it "
                   "has no elements to reach with '.' or '[]'."), field, name);
    }
  else if ((index = find_index_key (v, name, &is_partition)) != NULL)
    {
      dynamodb = g_strdup_printf ("Key attributes must be scalars; list random access '[]' and "
                                  "map lookup '.' are not allowed: IndexKey: %s", name);
      add_issue (v, field, node, dynamodb,
                 _("%s: %s is a key attribute of the index %s, so its value is a string, number "
                   "or binary; it has no elements to reach with '.' or '[]'."), field, name,
                 index->name);
    }
  else
    return;
  g_hash_table_add (reported, (gpointer) name);
}

static void
check_scalar_key_paths_in (Validator      *v,
                           const char     *field,
                           const DynoExpr *expr)
{
  g_autoptr(GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr(GHashTable) reported = g_hash_table_new (g_str_hash, g_str_equal);

  if (expr == NULL || v->schema == NULL)
    return;
  collect_paths (expr, nodes);
  for (guint i = 0; i < nodes->len; i++)
    {
      const DynoExpr *node = g_ptr_array_index (nodes, i);
      const char *name = dyno_path_get_attribute (node->path);

      /* A Query's filter on its own keys is reported once, as a filter on a key. */
      if (v->request->operation == DYNO_OP_QUERY && name != NULL && is_queried_key (v, name))
        continue;
      check_scalar_key_path (v, field, node, node->path, reported);
    }
}

/* ---- update expressions ----------------------------------------------------------------- */

static void
check_update_operand (Validator      *v,
                      const DynoExpr *expr)
{
  const char *field = "UpdateExpression";

  switch (expr->kind)
    {
    case DYNO_EXPR_PATH:
      check_path_depth (v, field, expr, expr->path);
      break;
    case DYNO_EXPR_VALUE:
      break;
    case DYNO_EXPR_PLUS:
    case DYNO_EXPR_MINUS:
    case DYNO_EXPR_LIST_APPEND:
    case DYNO_EXPR_IF_NOT_EXISTS:
      for (guint i = 0; i < expr->args->len; i++)
        {
          const DynoExpr *arg = g_ptr_array_index (expr->args, i);

          check_update_operand (v, arg);
          if (arg->kind != DYNO_EXPR_VALUE || expr->kind == DYNO_EXPR_IF_NOT_EXISTS)
            continue;
          if ((expr->kind == DYNO_EXPR_LIST_APPEND &&
               dyno_value_get_kind (arg->value) != DYNO_VALUE_L) ||
              (expr->kind != DYNO_EXPR_LIST_APPEND &&
               dyno_value_get_kind (arg->value) != DYNO_VALUE_N))
            operand_type_issue (v, field, arg,
                                expr->kind == DYNO_EXPR_PLUS ? "+"
                                : expr->kind == DYNO_EXPR_MINUS ? "-" : "list_append",
                                type_name (dyno_value_get_kind (arg->value)),
                                expr->kind == DYNO_EXPR_LIST_APPEND ? _("lists")
                                                                    : _("numbers"));
        }
      if ((expr->kind == DYNO_EXPR_PLUS || expr->kind == DYNO_EXPR_MINUS) &&
          (((const DynoExpr *) g_ptr_array_index (expr->args, 0))->kind == DYNO_EXPR_PLUS ||
           ((const DynoExpr *) g_ptr_array_index (expr->args, 0))->kind == DYNO_EXPR_MINUS ||
           ((const DynoExpr *) g_ptr_array_index (expr->args, 1))->kind == DYNO_EXPR_PLUS ||
           ((const DynoExpr *) g_ptr_array_index (expr->args, 1))->kind == DYNO_EXPR_MINUS))
        add_issue (v, field, expr, NULL,
                   _("UpdateExpression: a SET action takes one + or -, not a chain (a + b + c); "
                     "split it over two updates or compute the value first."));
      if (expr->kind == DYNO_EXPR_IF_NOT_EXISTS &&
          ((const DynoExpr *) g_ptr_array_index (expr->args, 0))->kind != DYNO_EXPR_PATH)
        add_issue (v, field, expr, "Operator or function requires a document path; operator or "
                   "function: if_not_exists",
                   _("UpdateExpression: the first operand of if_not_exists() must be an "
                     "attribute name."));
      break;
    default:
      add_issue (v, field, expr, NULL,
                 _("UpdateExpression: only attributes, values, +, -, if_not_exists() and "
                   "list_append() can be assigned with SET."));
      break;
    }
}

/* What an update writes that can be known without the stored item: values assigned to index
 * keys, and a lower bound of the new item's size (its key plus the plain values SET at the
 * top level). */
static void
check_update_values (Validator        *v,
                     const DynoUpdate *update)
{
  const char *field = "UpdateExpression";
  gsize size = v->request->key != NULL ? dyno_item_get_size (v->request->key) : 0;

  for (guint i = 0; i < update->clauses->len; i++)
    {
      const DynoUpdateClause *clause = g_ptr_array_index (update->clauses, i);
      const char *name = dyno_path_get_attribute (clause->path);
      const DynoIndexInfo *index;
      const DynoValue *value;
      gboolean is_partition = FALSE;
      DynoValueType type;

      if (clause->action != DYNO_UPDATE_SET || clause->operand == NULL ||
          clause->operand->kind != DYNO_EXPR_VALUE || name == NULL ||
          dyno_path_get_length (clause->path) != 1)
        continue;
      value = clause->operand->value;
      type = dyno_value_get_kind (value);
      size += strlen (name) + dyno_value_get_size (value);
      if (v->schema == NULL || (index = find_index_key (v, name, &is_partition)) == NULL)
        continue;
      if (type != (is_partition ? index->partition_key.type : index->sort_key.type))
        {
          DynoValueType want = is_partition ? index->partition_key.type : index->sort_key.type;
          g_autofree char *dynamodb =
            g_strdup_printf ("One or more parameter values were invalid: Type mismatch for "
                             "Index Key %s Expected: %s Actual: %s IndexName: %s", name,
                             type_name (want), type_name (type), index->name);

          add_issue (v, field, clause->operand, dynamodb,
                     /* Translators: the attribute, the index, the type it must have, then the
                      * type it has. */
                     _("UpdateExpression: %s is a key of the index %s and must be of type %s, "
                       "not %s."), name, index->name, type_name (want), type_name (type));
        }
      else if (value_is_empty (value))
        {
          g_autofree char *dynamodb =
            g_strdup_printf ("One or more parameter values are not valid. The update expression "
                             "attempted to update a secondary index key to a value that is not "
                             "supported. The AttributeValue for a key attribute cannot contain "
                             "an empty %s value.", type == DYNO_VALUE_B ? "binary" : "string");

          add_issue (v, field, clause->operand, dynamodb,
                     _("UpdateExpression: %s is a key of the index %s and cannot be set to an "
                       "empty value (REMOVE it to take the item out of the index)."), name,
                     index->name);
        }
      else
        check_index_key_size (v, field, clause->operand, index, name, is_partition, value);
    }
  if (size > MAX_ITEM_BYTES)
    add_issue (v, field, NULL, "Item size to update has exceeded the maximum allowed size",
               _("UpdateExpression: the key and the values it sets come to %zu bytes, more "
                 "than the 400 KB (409600 bytes) DynamoDB stores in one item."), size);
}

static void
check_update (Validator        *v,
              const DynoUpdate *update)
{
  const char *field = "UpdateExpression";
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();

  for (guint i = 0; i < update->clauses->len; i++)
    {
      const DynoUpdateClause *clause = g_ptr_array_index (update->clauses, i);
      const char *name = dyno_path_get_attribute (clause->path);

      g_ptr_array_add (paths, clause->path);
      check_path_depth (v, field, NULL, clause->path);
      if (v->schema != NULL && name != NULL)
        {
          const DynoKeyAttr *pk = dyno_table_info_get_partition_key (v->schema);
          const DynoKeyAttr *sk = dyno_table_info_get_sort_key (v->schema);

          if ((pk != NULL && g_strcmp0 (pk->name, name) == 0) ||
              (sk != NULL && g_strcmp0 (sk->name, name) == 0))
            {
              g_autofree char *dynamodb =
                g_strdup_printf ("Cannot update attribute %s. This attribute is part of the key",
                                 name);
              add_issue (v, field, clause->operand, dynamodb,
                         _("UpdateExpression: %s is part of the table's key and cannot be "
                           "changed; write a new item instead."), name);
            }
        }
      if (clause->operand == NULL)
        {
          if (clause->action != DYNO_UPDATE_REMOVE)
            /* Translators: the clause (ADD or DELETE), then the path. */
            add_issue (v, field, NULL, NULL, _("UpdateExpression: %s of %s needs a value."),
                       clause->action == DYNO_UPDATE_SET ? "SET"
                       : clause->action == DYNO_UPDATE_ADD ? "ADD" : "DELETE", name);
          continue;
        }
      switch (clause->action)
        {
        case DYNO_UPDATE_SET:
          check_update_operand (v, clause->operand);
          break;
        case DYNO_UPDATE_ADD:
        case DYNO_UPDATE_DELETE:
          {
            gboolean is_add = clause->action == DYNO_UPDATE_ADD;
            DynoValueType type;

            if (clause->operand->kind != DYNO_EXPR_VALUE)
              {
                add_issue (v, field, clause->operand, NULL,
                           _("UpdateExpression: %s takes a value, not an attribute or an "
                             "operation."), is_add ? "ADD" : "DELETE");
                break;
              }
            type = dyno_value_get_kind (clause->operand->value);
            if ((is_add && type != DYNO_VALUE_N && type != DYNO_VALUE_SS &&
                 type != DYNO_VALUE_NS && type != DYNO_VALUE_BS) ||
                (!is_add && type != DYNO_VALUE_SS && type != DYNO_VALUE_NS &&
                 type != DYNO_VALUE_BS))
              {
                g_autofree char *dynamodb =
                  g_strdup_printf ("Invalid UpdateExpression: Incorrect operand type for "
                                   "operator or function; operator: %s, operand type: %s",
                                   is_add ? "ADD" : "DELETE", type_name (type));
                add_issue (v, field, clause->operand, dynamodb,
                           /* Translators: ADD or DELETE, what it takes ("a number or a set" or
                            * "a set"), then a type. */
                           _("UpdateExpression: %s takes %s, not a value of type %s."),
                           is_add ? "ADD" : "DELETE",
                           is_add ? _("a number or a set") : _("a set"), type_name (type));
              }
          }
          break;
        case DYNO_UPDATE_REMOVE:
        default:
          break;
        }
    }
  check_path_set (v, field, "Invalid UpdateExpression: ", paths);
  check_update_values (v, update);
  {
    guint n = 0;

    for (guint i = 0; i < update->clauses->len; i++)
      n += count_operators (((const DynoUpdateClause *) g_ptr_array_index (update->clauses,
                                                                          i))->operand);
    operator_count_issue (v, field, n);
  }
  if (v->schema != NULL)
    {
      g_autoptr(GHashTable) reported = g_hash_table_new (g_str_hash, g_str_equal);
      const DynoKeyAttr *pk = dyno_table_info_get_partition_key (v->schema);
      const DynoKeyAttr *sk = dyno_table_info_get_sort_key (v->schema);

      /* a table key in a path is already reported as an update of the key */
      if (pk != NULL && pk->name != NULL)
        g_hash_table_add (reported, pk->name);
      if (sk != NULL && sk->name != NULL)
        g_hash_table_add (reported, sk->name);
      for (guint i = 0; i < update->clauses->len; i++)
        {
          const DynoUpdateClause *clause = g_ptr_array_index (update->clauses, i);

          check_scalar_key_path (v, field, NULL, clause->path, reported);
        }
    }
}

/* ---- the request ------------------------------------------------------------------------ */

static void
check_projection (Validator *v,
                  GPtrArray *paths)
{
  const char *field = "ProjectionExpression";

  g_autoptr(GHashTable) reported = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < paths->len; i++)
    check_path_depth (v, field, NULL, g_ptr_array_index (paths, i));
  check_path_set (v, field, "Invalid ProjectionExpression: ", paths);
  for (guint i = 0; i < paths->len; i++)
    check_scalar_key_path (v, field, NULL, g_ptr_array_index (paths, i), reported);
}

static void
check_options (Validator *v)
{
  const DynoRequest *r = v->request;
  gboolean is_read = r->operation == DYNO_OP_QUERY || r->operation == DYNO_OP_SCAN;

  if (is_read && r->limit < 0)
    {
      g_autofree char *dynamodb =
        g_strdup_printf ("1 validation error detected: Value '%" G_GINT64_FORMAT "' at 'limit' "
                         "failed to satisfy constraint: Member must have value greater than or "
                         "equal to 1", r->limit);
      add_issue (v, "Limit", NULL, dynamodb, _("Limit must be 1 or more (it is %" PRId64
                   ")."), r->limit);
    }
  if ((r->operation == DYNO_OP_PUT_ITEM || r->operation == DYNO_OP_DELETE_ITEM) &&
      r->return_values != DYNO_RETURN_VALUES_UNSET &&
      r->return_values != DYNO_RETURN_VALUES_NONE &&
      r->return_values != DYNO_RETURN_VALUES_ALL_OLD)
    add_issue (v, "ReturnValues", NULL, "ReturnValues can only be ALL_OLD or NONE",
               _("ReturnValues: %s can only return the old item (ALL_OLD) or nothing (NONE)."),
               dyno_operation_to_string (r->operation));
  if (r->operation == DYNO_OP_SCAN)
    {
      gboolean has_segment = r->segment != -1;
      gboolean has_total = r->total_segments != -1;

      if (has_segment && !has_total)
        add_issue (v, "TotalSegments", NULL,
                   "The TotalSegments parameter is required but was not present in the request "
                   "when Segment parameter is present",
                   _("TotalSegments: a parallel scan with Segment also needs TotalSegments."));
      else if (has_total && !has_segment)
        add_issue (v, "Segment", NULL,
                   "The Segment parameter is required but was not present in the request when "
                   "parameter TotalSegments is present",
                   _("Segment: a parallel scan with TotalSegments also needs Segment (0 to "
                     "TotalSegments - 1)."));
      if (has_total && (r->total_segments < 1 || r->total_segments > MAX_TOTAL_SEGMENTS))
        {
          g_autofree char *dynamodb =
            g_strdup_printf ("1 validation error detected: Value '%d' at 'totalSegments' failed "
                             "to satisfy constraint: Member must have value %s", r->total_segments,
                             r->total_segments < 1 ? "greater than or equal to 1"
                                                   : "less than or equal to 1000000");
          add_issue (v, "TotalSegments", NULL, dynamodb,
                     _("TotalSegments must be from 1 to 1000000 (it is %d)."), r->total_segments);
        }
      else if (has_segment && r->segment < 0)
        {
          g_autofree char *dynamodb =
            g_strdup_printf ("1 validation error detected: Value '%d' at 'segment' failed to "
                             "satisfy constraint: Member must have value greater than or equal "
                             "to 0", r->segment);
          add_issue (v, "Segment", NULL, dynamodb, _("Segment must be 0 or more (it is %d)."),
                     r->segment);
        }
      else if (has_segment && has_total && r->segment >= r->total_segments)
        {
          g_autofree char *dynamodb =
            g_strdup_printf ("The Segment parameter is zero-based and must be less than "
                             "parameter TotalSegments: Segment: %d is out of bounds for "
                             "TotalSegments: %d", r->segment, r->total_segments);
          add_issue (v, "Segment", NULL, dynamodb,
                     /* Translators: TotalSegments, the largest allowed Segment, then the Segment
                      * given. */
                     _("Segment counts from 0 and must be less than TotalSegments (%d), so at "
                       "most %d; it is %d."), r->total_segments, r->total_segments - 1, r->segment);
        }
    }
}

/* Select and ProjectionExpression must agree (Query, Scan). */
static void
check_select (Validator *v)
{
  const DynoRequest *r = v->request;
  gboolean has_projection = r->projection != NULL && r->projection->len > 0;
  gboolean has_index = r->index_name != NULL && r->index_name[0] != '\0';
  const char *what = NULL;

  switch (r->select)
    {
    case DYNO_SELECT_SPECIFIC_ATTRIBUTES:
      if (!has_projection)
        add_issue (v, "Select", NULL,
                   "Must specify the AttributesToGet or ProjectionExpression when choosing to "
                   "get SPECIFIC_ATTRIBUTES",
                   _("Select: SPECIFIC_ATTRIBUTES needs a ProjectionExpression naming the "
                     "attributes to return."));
      return;
    case DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES:
      if (!has_index)
        add_issue (v, "Select", NULL,
                   "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
                   _("Select: ALL_PROJECTED_ATTRIBUTES only applies when reading an index; "
                     "choose an IndexName or ALL_ATTRIBUTES."));
      what = "ALL_PROJECTED_ATTRIBUTES";
      break;
    case DYNO_SELECT_ALL_ATTRIBUTES:
      what = "ALL_ATTRIBUTES";
      if (v->index != NULL && v->index->global && v->index->projection != DYNO_PROJECTION_ALL)
        {
          g_autofree char *dynamodb =
            g_strdup_printf ("One or more parameter values were invalid: Select type "
                             "ALL_ATTRIBUTES is not supported for global secondary index %s "
                             "because its projection type is not ALL", v->index->name);
          add_issue (v, "Select", NULL, dynamodb,
                     /* Translators: the index, then its projection type (KEYS_ONLY or INCLUDE). */
                     _("Select: the global secondary index %s holds only some attributes of each "
                       "item (projection %s), so ALL_ATTRIBUTES cannot be read from it; use "
                       "ALL_PROJECTED_ATTRIBUTES or name the attributes."), v->index->name,
                     v->index->projection == DYNO_PROJECTION_KEYS_ONLY ? "KEYS_ONLY"
                                                                         : "INCLUDE");
        }
      break;
    case DYNO_SELECT_COUNT:
      what = "COUNT";
      break;
    case DYNO_SELECT_UNSET:
    default:
      return;
    }
  if (has_projection)
    {
      g_autofree char *dynamodb =
        g_strdup_printf ("Cannot specify the ProjectionExpression when choosing to get %s", what);
      add_issue (v, "Select", NULL, dynamodb,
                 /* Translators: the Select value, then "only the count" or "whole items". */
                 _("Select: %s returns %s, so a ProjectionExpression cannot be given with it; "
                   "use SPECIFIC_ATTRIBUTES."), what,
                 r->select == DYNO_SELECT_COUNT ? _("only the count") : _("whole items"));
    }
}

/* Does VALUE satisfy the key condition's sort-key term? */
static gboolean
sort_key_matches (Validator       *v,
                  const DynoValue *value)
{
  const DynoValue *a = v->kc_sk_values[0];
  int c = dyno_value_compare (value, a);

  if (v->kc_sk_between)
    return c >= 0 && dyno_value_compare (value, v->kc_sk_values[1]) <= 0;
  if (v->kc_sk_begins_with)
    {
      gsize len_v = 0, len_a = 0;
      const void *dv, *da;

      if (dyno_value_get_kind (value) == DYNO_VALUE_B)
        {
          dv = dyno_value_get_binary (value, &len_v);
          da = dyno_value_get_binary (a, &len_a);
        }
      else
        {
          dv = dyno_value_get_string (value, &len_v);
          da = dyno_value_get_string (a, &len_a);
        }
      return len_a <= len_v && memcmp (dv, da, len_a) == 0;
    }
  switch (v->kc_sk_op)
    {
    case DYNO_COMPARE_EQ: return c == 0;
    case DYNO_COMPARE_LT: return c < 0;
    case DYNO_COMPARE_LE: return c <= 0;
    case DYNO_COMPARE_GT: return c > 0;
    case DYNO_COMPARE_GE: return c >= 0;
    case DYNO_COMPARE_NE:
    default:
      return TRUE;
    }
}

/* A Query restarts inside what its key condition selects: the starting key has the queried
 * partition key value, and a sort key the sort-key condition accepts. */
static void
check_start_key_in_range (Validator      *v,
                          const DynoItem *key)
{
  const DynoValue *value;

  if (v->request->operation != DYNO_OP_QUERY || v->kc_pk_value == NULL)
    return;
  value = dyno_item_lookup (key, v->pk_name);
  if (value != NULL && !dyno_value_equal (value, v->kc_pk_value))
    {
      add_issue (v, "ExclusiveStartKey", NULL,
                 "The provided starting key is outside query boundaries based on provided "
                 "conditions",
                 _("ExclusiveStartKey: the starting key's %s is not the partition key value the "
                   "key condition queries (pass the LastEvaluatedKey of the previous page "
                   "unchanged)."), v->pk_name);
      return;
    }
  if (v->kc_sk_node == NULL || v->sk_name == NULL)
    return;
  value = dyno_item_lookup (key, v->sk_name);
  if (value != NULL && !sort_key_matches (v, value))
    add_issue (v, "ExclusiveStartKey", NULL,
               "The provided starting key does not match the range key predicate",
               _("ExclusiveStartKey: the starting key's %s is outside the range the key condition "
                 "selects (pass the LastEvaluatedKey of the previous page unchanged)."),
               v->sk_name);
}

/* ExclusiveStartKey is a LastEvaluatedKey: the table's key, plus the index's key when an
 * index is read. */
static void
check_start_key (Validator *v)
{
  const DynoItem *key = v->request->exclusive_start_key;
  const DynoKeyAttr *attrs[4] = { NULL, NULL, NULL, NULL };

  if (key == NULL || v->schema == NULL)
    return;
  attrs[0] = dyno_table_info_get_partition_key (v->schema);
  attrs[1] = dyno_table_info_get_sort_key (v->schema);
  if (v->index != NULL)
    {
      attrs[2] = &v->index->partition_key;
      attrs[3] = &v->index->sort_key;
    }
  for (guint i = 0; i < G_N_ELEMENTS (attrs); i++)
    {
      const DynoValue *value;

      if (attrs[i] == NULL || attrs[i]->name == NULL)
        continue;
      value = dyno_item_lookup (key, attrs[i]->name);
      if (value == NULL || dyno_value_get_kind (value) != attrs[i]->type)
        {
          add_issue (v, "ExclusiveStartKey", NULL,
                     "The provided starting key is invalid: The provided key element does not "
                     "match the schema",
                     _("ExclusiveStartKey: the starting key needs %s of type %s (pass the "
                       "LastEvaluatedKey of the previous page unchanged)."), attrs[i]->name,
                     type_name (attrs[i]->type));
          return;
        }
    }
  check_start_key_in_range (v, key);
}


/* Table and index names: 3 to 255 characters of [A-Za-z0-9_.-] (the API's TableName
 * pattern), which the SDKs and the AWS CLI check before sending. */
static void
check_table_name (Validator  *v,
                  const char *field,
                  const char *name)
{
  gsize len = name ? strlen (name) : 0;

  if (len < 3 || len > 255)
    {
      add_issue (v, field, NULL, NULL,
                 /* Translators: the request field (TableName or IndexName), the name, then its
                  * length. */
                 _("%s: a name is 3 to 255 characters long; “%s” has %zu."),
                 field, name ? name : "", len);
      return;
    }

  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '_' && name[i] != '.' && name[i] != '-')
      {
        add_issue (v, field, NULL, NULL,
                   /* Translators: the request field (TableName or IndexName), the name, then the
                    * character. */
                   _("%s: “%s” contains “%c”; names use only letters, digits, '_', '.' and '-'."),
                   field, name, name[i]);
        return;
      }
}

/* ---- what an index carries -------------------------------------------------------------- */

static gboolean
index_projects (Validator  *v,
                const char *name)
{
  const DynoKeyAttr *pk = dyno_table_info_get_partition_key (v->schema);
  const DynoKeyAttr *sk = dyno_table_info_get_sort_key (v->schema);

  if (v->index->projection == DYNO_PROJECTION_ALL)
    return TRUE;
  if ((pk != NULL && g_strcmp0 (pk->name, name) == 0) ||
      (sk != NULL && g_strcmp0 (sk->name, name) == 0) ||
      g_strcmp0 (v->index->partition_key.name, name) == 0 ||
      g_strcmp0 (v->index->sort_key.name, name) == 0)
    return TRUE;
  return v->index->projection == DYNO_PROJECTION_INCLUDE &&
         v->index->non_key_attributes != NULL &&
         g_strv_contains ((const char * const *) v->index->non_key_attributes, name);
}

/* "pk, sk, gsi1pk, status" */
static char *
index_carried (Validator *v)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const DynoKeyAttr *pk = dyno_table_info_get_partition_key (v->schema);
  const DynoKeyAttr *sk = dyno_table_info_get_sort_key (v->schema);
  const char *keys[] = {
    pk ? pk->name : NULL, sk ? sk->name : NULL, v->index->partition_key.name,
    v->index->sort_key.name,
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      gboolean seen = FALSE;

      if (keys[i] == NULL)
        continue;
      for (guint j = 0; j < names->len && !seen; j++)
        seen = g_str_equal (g_ptr_array_index (names, j), keys[i]);
      if (!seen)
        g_ptr_array_add (names, (gpointer) keys[i]);
    }
  if (v->index->projection == DYNO_PROJECTION_INCLUDE && v->index->non_key_attributes != NULL)
    for (guint i = 0; v->index->non_key_attributes[i] != NULL; i++)
      g_ptr_array_add (names, v->index->non_key_attributes[i]);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (", ", (char **) names->pdata);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The top-level attributes of @paths (DynamoExpr* with a path, or DynoPath*) that the index
 * does not carry, sorted and without repeats as DynamoDB lists them; NULL when none. */
static char *
unprojected_names (Validator *v,
                   GPtrArray *paths,
                   gboolean   nodes)
{
  g_autoptr(GPtrArray) missing = g_ptr_array_new ();

  for (guint i = 0; i < paths->len; i++)
    {
      const DynoPath *path = nodes ? ((const DynoExpr *) g_ptr_array_index (paths, i))->path
                                   : g_ptr_array_index (paths, i);
      const char *name = dyno_path_get_attribute (path);
      gboolean seen = FALSE;

      if (name == NULL || index_projects (v, name))
        continue;
      for (guint j = 0; j < missing->len && !seen; j++)
        seen = g_str_equal (g_ptr_array_index (missing, j), name);
      if (!seen)
        g_ptr_array_add (missing, (gpointer) name);
    }
  if (missing->len == 0)
    return NULL;
  g_ptr_array_sort (missing, compare_strings);
  g_ptr_array_add (missing, NULL);
  return g_strjoinv (", ", (char **) missing->pdata);
}

/* An index with a KEYS_ONLY or INCLUDE projection holds only some attributes.  DynamoDB
 * refuses a Query whose filter names others (on a GSI and on an LSI alike), and a
 * ProjectionExpression naming others on a GSI (an LSI fetches them from the table), as
 * DynamoDB Local does.  A Scan's filter is not refused. */
static void
check_index_projection (Validator *v)
{
  const DynoRequest *r = v->request;
  const char *projection;
  g_autofree char *carried = NULL;

  if (v->schema == NULL || v->index == NULL || v->index->projection == DYNO_PROJECTION_ALL)
    return;
  projection = v->index->projection == DYNO_PROJECTION_KEYS_ONLY ? "KEYS_ONLY" : "INCLUDE";
  carried = index_carried (v);

  if (r->operation == DYNO_OP_QUERY && r->filter != NULL)
    {
      g_autoptr(GPtrArray) nodes = g_ptr_array_new ();
      g_autofree char *missing = NULL;

      collect_paths (r->filter, nodes);
      missing = unprojected_names (v, nodes, TRUE);
      if (missing != NULL)
        {
          g_autofree char *dynamodb =
            g_strdup_printf ("One or more parameter values were invalid: Secondary index %s "
                             "does not project one or more filter attributes: [%s]",
                             v->index->name, missing);

          add_issue (v, "FilterExpression", NULL, dynamodb,
                     /* Translators: the index, its projection type (KEYS_ONLY or INCLUDE),
                      * the attributes it carries, then the ones the filter names that it
                      * does not carry. */
                     _("FilterExpression: the index %s (projection %s) carries only %s; it "
                       "cannot filter on %s. Query the table instead, or filter on what the "
                       "index carries."), v->index->name, projection, carried, missing);
        }
    }
  if (v->index->global && r->projection != NULL && r->projection->len > 0)
    {
      g_autofree char *missing = unprojected_names (v, r->projection, FALSE);

      if (missing != NULL)
        {
          g_autofree char *dynamodb =
            g_strdup_printf ("One or more parameter values were invalid: Global secondary "
                             "index %s does not project [%s]", v->index->name, missing);

          add_issue (v, "ProjectionExpression", NULL, dynamodb,
                     /* Translators: the index, its projection type (KEYS_ONLY or INCLUDE),
                      * the attributes it carries, then the ones asked for that it does not
                      * carry. */
                     _("ProjectionExpression: the global secondary index %s (projection %s) "
                       "carries only %s; it cannot return %s."), v->index->name, projection,
                     carried, missing);
        }
    }
}

/* ---- sizes of the expressions as sent ---------------------------------------------------- */

/* The 4 KB limit is on the text DynamoDB receives, which is what the printer writes (the
 * request JSON and the generated code print the same way), not what was typed. */
static void
check_expression_size (Validator  *v,
                       const char *field,
                       const char *text)
{
  gsize len = text ? strlen (text) : 0;
  g_autofree char *dynamodb = NULL;

  if (len <= DYNO_EXPR_MAX_BYTES)
    return;
  /* DynamoDB Local gives the size for conditions, not for projections and updates. */
  if (g_str_equal (field, "ProjectionExpression") || g_str_equal (field, "UpdateExpression"))
    dynamodb = g_strdup_printf ("Invalid %s: Expression size has exceeded the maximum allowed "
                                "size;", field);
  else
    dynamodb = g_strdup_printf ("Invalid %s: Expression size has exceeded the maximum allowed "
                                "size; expression size: %zu", field, len);
  add_issue (v, field, NULL, dynamodb,
             /* Translators: the request field (such as FilterExpression), its size in bytes
              * as sent, then the limit in bytes. */
             _("%s: the expression is %zu bytes long as sent; DynamoDB accepts at most %d "
               "bytes (4 KB) in one expression. Remove conditions, or use IN lists and shorter "
               "attribute names."), field, len, DYNO_EXPR_MAX_BYTES);
}

#define MAX_SUBSTITUTION_BYTES (2 * 1024 * 1024)

static void
check_sizes (Validator *v)
{
  g_autoptr(DynoPrintedRequest) printed = dyno_request_print (v->request);
  gsize substitutions = 0;

  check_expression_size (v, "KeyConditionExpression", printed->key_condition);
  check_expression_size (v, "UpdateExpression", printed->update);
  check_expression_size (v, "ConditionExpression", printed->condition);
  check_expression_size (v, "FilterExpression", printed->filter);
  check_expression_size (v, "ProjectionExpression", printed->projection);

  for (guint i = 0; i < printed->names->len; i++)
    substitutions += strlen (g_ptr_array_index (printed->name_placeholders, i)) +
                     strlen (g_ptr_array_index (printed->names, i));
  for (guint i = 0; i < printed->values->len; i++)
    substitutions += strlen (g_ptr_array_index (printed->value_placeholders, i)) +
                     dyno_value_get_size (g_ptr_array_index (printed->values, i));
  if (substitutions > MAX_SUBSTITUTION_BYTES)
    add_issue (v, "ExpressionAttributeValues", NULL, NULL,
               /* Translators: the size in bytes, then the limit in bytes. */
               _("ExpressionAttributeNames and ExpressionAttributeValues hold %zu bytes together; "
                 "DynamoDB accepts at most %d (2 MB) in one request."), substitutions,
               MAX_SUBSTITUTION_BYTES);
}

GPtrArray *
dyno_request_validate (const DynoRequest   *request,
                       const DynoTableInfo *schema)
{
  Validator v = { 0, };
  const DynoRequest *r = request;
  gboolean is_read;

  g_return_val_if_fail (request != NULL, NULL);

  v.issues = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_issue_free);
  v.request = request;
  v.schema = schema;
  is_read = r->operation == DYNO_OP_QUERY || r->operation == DYNO_OP_SCAN;

  check_table_name (&v, "TableName", r->table_name);
  if (is_read && r->index_name != NULL)
    check_table_name (&v, "IndexName", r->index_name);

  if (schema != NULL)
    {
      const DynoKeyAttr *pk = dyno_table_info_get_partition_key (schema);
      const DynoKeyAttr *sk = dyno_table_info_get_sort_key (schema);

      if (pk != NULL)
        {
          v.pk_name = pk->name;
          v.pk_type = pk->type;
        }
      if (sk != NULL && sk->name != NULL)
        {
          v.sk_name = sk->name;
          v.sk_type = sk->type;
        }
      if (is_read && r->index_name != NULL && r->index_name[0] != '\0')
        {
          v.index = dyno_table_info_find_index (schema, r->index_name);
          if (v.index == NULL)
            {
              g_autofree char *dynamodb =
                g_strdup_printf ("The table does not have the specified index: %s",
                                 r->index_name);
              add_issue (&v, "IndexName", NULL, dynamodb,
                         /* Translators: the table, then the index. */
                         _("IndexName: the table %s has no index called %s."),
                         dyno_table_info_get_name (schema), r->index_name);
              v.pk_name = NULL;
              v.sk_name = NULL;
            }
          else
            {
              v.pk_name = v.index->partition_key.name;
              v.pk_type = v.index->partition_key.type;
              v.sk_name = v.index->sort_key.name;
              v.sk_type = v.index->sort_key.type;
              if (v.index->global && r->consistent_read == DYNO_TRISTATE_TRUE)
                add_issue (&v, "ConsistentRead", NULL,
                           "Consistent reads are not supported on global secondary indexes",
                           _("ConsistentRead: %s is a global secondary index, which only "
                             "supports eventually consistent reads; turn ConsistentRead off."),
                           r->index_name);
            }
        }
    }

  if (r->operation == DYNO_OP_QUERY)
    {
      if (r->key_condition == NULL)
        add_issue (&v, "KeyConditionExpression", NULL,
                   "Either the KeyConditions or KeyConditionExpression parameter must be "
                   "specified in the request.",
                   _("KeyConditionExpression: a Query needs a key condition (at least "
                     "partition key = value)."));
      else if (schema == NULL || v.index != NULL || r->index_name == NULL ||
               r->index_name[0] == '\0')
        check_key_condition (&v, r->key_condition);
    }
  if (is_read && r->filter != NULL)
    {
      check_condition (&v, "FilterExpression", r->filter);
      check_operator_count (&v, "FilterExpression", r->filter);
      check_scalar_key_paths_in (&v, "FilterExpression", r->filter);
      if (r->operation == DYNO_OP_QUERY && schema != NULL)
        check_query_filter_keys (&v, r->filter);
    }
  if ((r->operation == DYNO_OP_PUT_ITEM || r->operation == DYNO_OP_UPDATE_ITEM ||
       r->operation == DYNO_OP_DELETE_ITEM) && r->condition != NULL)
    {
      check_condition (&v, "ConditionExpression", r->condition);
      check_operator_count (&v, "ConditionExpression", r->condition);
      check_scalar_key_paths_in (&v, "ConditionExpression", r->condition);
    }
  if ((is_read || r->operation == DYNO_OP_GET_ITEM) && r->projection != NULL)
    check_projection (&v, r->projection);
  if (r->operation == DYNO_OP_GET_ITEM || r->operation == DYNO_OP_UPDATE_ITEM ||
      r->operation == DYNO_OP_DELETE_ITEM)
    check_key_item (&v, "Key", r->key);
  if (r->operation == DYNO_OP_PUT_ITEM)
    check_put_item (&v, r->item);
  if (r->operation == DYNO_OP_UPDATE_ITEM && r->update != NULL)
    check_update (&v, r->update);
  if (is_read)
    {
      check_select (&v);
      check_start_key (&v);
    }
  if (is_read)
    check_index_projection (&v);
  check_options (&v);
  check_sizes (&v);
  return v.issues;
}
