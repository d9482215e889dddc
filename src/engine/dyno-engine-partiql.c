/* dyno-engine-partiql.c: ExecuteStatement, PartiQL run as the engine's own requests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A statement is parsed (core's dyno-partiql.h) and translated into one request of the
 * engine's: a SELECT whose WHERE has an equality on the partition key into a Query (that and
 * a condition on the sort key its key condition, the rest its FilterExpression), any other
 * SELECT into a Scan with the WHERE as its FilterExpression (a Scan visits partitions in key
 * order, DynamoDB in an order of its own).  Other conditions on key attributes, which a
 * FilterExpression may not name, make it a Scan too, as in DynamoDB Local, but with ORDER BY:
 * then they are checked here on the Query's items; INSERT into a PutItem with
 * attribute_not_exists(pk); UPDATE into an UpdateItem on the key of its WHERE with
 * attribute_exists(pk) and the rest of the WHERE as its condition; DELETE into a DeleteItem
 * with the rest of the WHERE as its condition on an item that exists
 * (ReturnValuesOnConditionCheckFailure goes to
 * those two).  Conditions are printed back with generated
 * #name and :value placeholders, so nothing is lost on the way.
 */
#include "config.h"

#include <string.h>

#include "dyno-engine.h"
#include "dyno-engine-private.h"
#include "dyno-eval.h"
#include "dyno-json.h"
#include "dyno-partiql.h"

#define fail(error, code, ...) \
  g_set_error (error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_##code, __VA_ARGS__)

#define NO_KEY_EQUALITY "Where clause does not contain a mandatory equality on all key attributes"

typedef struct {
  DynoEngine                 *engine;
  DynoPartiqlStatement       *st;
  const DynoEngineTable      *table;
  const char                 *capacity;     /* ReturnConsumedCapacity as sent, or NULL */
  const char                 *on_failure;   /* ReturnValuesOnConditionCheckFailure, or NULL */
  gboolean                    consistent;
  gint64                      limit;        /* 0: none */
  JsonNode                   *start_key;    /* from NextToken, or NULL */
} Run;

/* ---- conditions -------------------------------------------------------------------------- */

/* The conjuncts of @expr's top-level AND chain (through parentheses), borrowed. */
static void
collect_conjuncts (const DynoExpr *expr,
                   GPtrArray      *out)
{
  const DynoExpr *inner = dyno_expr_skip_parens (expr);

  if (inner->kind == DYNO_EXPR_AND)
    {
      collect_conjuncts (g_ptr_array_index (inner->args, 0), out);
      collect_conjuncts (g_ptr_array_index (inner->args, 1), out);
    }
  else
    g_ptr_array_add (out, (gpointer) expr);
}

static gboolean
is_attribute (const DynoExpr *expr,
              const char     *name)
{
  return expr->kind == DYNO_EXPR_PATH && dyno_path_get_length (expr->path) == 1
         && strcmp (dyno_path_get_attribute (expr->path), name) == 0;
}

static gboolean
references (const DynoExpr *expr,
            const char     *name)
{
  if ((expr->kind == DYNO_EXPR_PATH || expr->kind == DYNO_EXPR_SIZE)
      && strcmp (dyno_path_get_attribute (expr->path), name) == 0)
    return TRUE;
  for (guint i = 0; expr->args && i < expr->args->len; i++)
    if (references (g_ptr_array_index (expr->args, i), name))
      return TRUE;
  return FALSE;
}

/* The value of `name = value` (either way round), or NULL. */
static const DynoValue *
key_equality (const DynoExpr *conjunct,
              const char     *name)
{
  const DynoExpr *e = dyno_expr_skip_parens (conjunct);
  const DynoExpr *a, *b;

  if (e->kind != DYNO_EXPR_COMPARE || e->op.compare != DYNO_COMPARE_EQ)
    return NULL;
  a = g_ptr_array_index (e->args, 0);
  b = g_ptr_array_index (e->args, 1);
  if (is_attribute (a, name) && b->kind == DYNO_EXPR_VALUE)
    return b->value;
  if (is_attribute (b, name) && a->kind == DYNO_EXPR_VALUE)
    return a->value;
  return NULL;
}

static gboolean
value_of_type (const DynoExpr *expr,
               DynoValueType   type)
{
  return expr->kind == DYNO_EXPR_VALUE && dyno_value_get_kind (expr->value) == type;
}

/* Whether @conjunct can be a Query's condition on the sort key @key: sk op value (not <>),
 * sk BETWEEN value AND value, begins_with(sk, value) (S and B keys), with values of the key's
 * type (with another type the condition matches nothing, which a FilterExpression says). */
static gboolean
is_sort_condition (const DynoExpr      *conjunct,
                   const DynoEngineKey *key)
{
  const DynoExpr *e = dyno_expr_skip_parens (conjunct);
  const DynoExpr *a, *b;

  switch (e->kind)
    {
    case DYNO_EXPR_COMPARE:
      if (e->op.compare == DYNO_COMPARE_NE)
        return FALSE;
      a = g_ptr_array_index (e->args, 0);
      b = g_ptr_array_index (e->args, 1);
      return (is_attribute (a, key->name) && value_of_type (b, key->type))
             || (is_attribute (b, key->name) && value_of_type (a, key->type));
    case DYNO_EXPR_BETWEEN:
      return is_attribute (g_ptr_array_index (e->args, 0), key->name)
             && value_of_type (g_ptr_array_index (e->args, 1), key->type)
             && value_of_type (g_ptr_array_index (e->args, 2), key->type);
    case DYNO_EXPR_FUNCTION:
      return e->op.function == DYNO_FUNCTION_BEGINS_WITH && key->type != DYNO_VALUE_N
             && is_attribute (g_ptr_array_index (e->args, 0), key->name)
             && value_of_type (g_ptr_array_index (e->args, 1), key->type);
    default:
      return FALSE;
    }
}

/* A comparison of @key with a value of another type (pk = 1 on an S key) anywhere in @expr,
 * which DynamoDB refuses: with one message in a top-level condition of a WHERE (@top), with
 * another below it. */
static gboolean
check_key_type_full (const DynoExpr      *expr,
                     const DynoEngineKey *key,
                     gboolean             top,
                     GError             **error)
{
  const DynoExpr *e = dyno_expr_skip_parens (expr);
  guint n = e->kind == DYNO_EXPR_COMPARE ? 2 : e->kind == DYNO_EXPR_BETWEEN ? 3 : 0;
  gboolean ours = FALSE, other = FALSE;

  if (key->name == NULL)
    return TRUE;
  if (e->kind == DYNO_EXPR_AND || e->kind == DYNO_EXPR_OR || e->kind == DYNO_EXPR_NOT)
    {
      for (guint i = 0; i < e->args->len; i++)
        if (!check_key_type_full (g_ptr_array_index (e->args, i), key, FALSE, error))
          return FALSE;
      return TRUE;
    }
  for (guint i = 0; i < n; i++)
    {
      const DynoExpr *a = g_ptr_array_index (e->args, i);

      if (is_attribute (a, key->name))
        ours = TRUE;
      else if (a->kind == DYNO_EXPR_VALUE && dyno_value_get_kind (a->value) != key->type)
        other = TRUE;
    }
  if (ours && other)
    {
      if (top)
        fail (error, VALIDATION, "Key attribute's data type should match its data type in "
              "table's schema: Key %s", key->name);
      else
        fail (error, VALIDATION, "One or more parameter values were invalid: Condition "
              "parameter type does not match schema type");
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_key_type (const DynoExpr      *conjunct,
                const DynoEngineKey *key,
                GError             **error)
{
  return check_key_type_full (conjunct, key, TRUE, error);
}

/* @first (taken; may be NULL) AND the conjuncts of @all but @skip1 and @skip2, copied, in
 * order; NULL for none. */
static DynoExpr *
and_of (GPtrArray      *all,
        const DynoExpr *skip1,
        const DynoExpr *skip2,
        DynoExpr       *first)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  DynoExpr *result;

  if (first != NULL)
    g_ptr_array_add (parts, first);
  for (guint i = 0; i < all->len; i++)
    {
      const DynoExpr *c = g_ptr_array_index (all, i);
      DynoExpr *copy;

      if (c == skip1 || c == skip2)
        continue;
      copy = dyno_expr_copy (c);
      if (copy->kind == DYNO_EXPR_OR)
        copy = dyno_expr_new_paren (copy);
      g_ptr_array_add (parts, copy);
    }
  if (parts->len == 0)
    return NULL;
  result = g_ptr_array_index (parts, parts->len - 1);
  for (guint i = parts->len - 1; i-- > 0;)
    result = dyno_expr_new_and (g_ptr_array_index (parts, i), result);
  return result;
}

/* ---- request text ------------------------------------------------------------------------ */

static void
write_placeholders (GString         *out,
                    DynoExprPrinter *printer)
{
  guint n = dyno_expr_printer_get_n_names (printer);

  if (n > 0)
    {
      g_string_append (out, ",\"ExpressionAttributeNames\":{");
      for (guint i = 0; i < n; i++)
        {
          const char *placeholder, *name;

          dyno_expr_printer_get_name (printer, i, &placeholder, &name);
          if (i > 0)
            g_string_append_c (out, ',');
          dyno_json_write_string (out, placeholder, -1);
          g_string_append_c (out, ':');
          dyno_json_write_string (out, name, -1);
        }
      g_string_append_c (out, '}');
    }
  n = dyno_expr_printer_get_n_values (printer);
  if (n > 0)
    {
      g_string_append (out, ",\"ExpressionAttributeValues\":{");
      for (guint i = 0; i < n; i++)
        {
          const char *placeholder;
          const DynoValue *value;

          dyno_expr_printer_get_value (printer, i, &placeholder, &value);
          if (i > 0)
            g_string_append_c (out, ',');
          dyno_json_write_string (out, placeholder, -1);
          g_string_append_c (out, ':');
          dyno_value_write_ddb_json (value, out);
        }
      g_string_append_c (out, '}');
    }
}

static void
write_member (GString    *out,
              const char *member,
              const char *text)
{
  g_string_append_printf (out, ",\"%s\":", member);
  dyno_json_write_string (out, text, -1);
}

static void
write_condition (GString         *out,
                 const char      *member,
                 DynoExprPrinter *printer,
                 const DynoExpr  *expr)
{
  g_autofree char *text = NULL;

  if (expr == NULL)
    return;
  text = dyno_expr_printer_print_condition (printer, expr);
  write_member (out, member, text);
}

static GString *
request_new (const Run *run)
{
  GString *out = g_string_new ("{\"TableName\":");

  dyno_json_write_string (out, run->table->name, -1);
  if (run->capacity)
    write_member (out, "ReturnConsumedCapacity", run->capacity);
  return out;
}

/* Runs @request (freed) as @operation; the parsed response. */
static JsonObject *
run_request (const Run   *run,
             const char  *operation,
             GString     *request,
             JsonNode   **out_node,
             GError     **error)
{
  g_autofree char *response = NULL;
  g_autofree char *error_body = NULL;
  JsonNode *node;

  g_string_append_c (request, '}');
  response = dyno_engine_request_full (run->engine, operation, request->str, request->len,
                                       &error_body, error);
  g_string_free (request, TRUE);
  if (response == NULL)
    {
      /* the error body's own members (a ConditionalCheckFailedException's Item) are the
       * ExecuteStatement's: the inner request has cleared them, so they are set again */
      g_autoptr(JsonNode) body = dyno_json_parse (error_body, -1, NULL);
      g_autoptr(GString) members = g_string_new (NULL);
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      if (body == NULL || !JSON_NODE_HOLDS_OBJECT (body))
        return NULL;
      json_object_iter_init (&iter, json_node_get_object (body));
      while (json_object_iter_next (&iter, &name, &value))
        {
          if (strcmp (name, "__type") == 0 || g_ascii_strcasecmp (name, "message") == 0)
            continue;
          if (members->len > 0)
            g_string_append_c (members, ',');
          dyno_json_write_string (members, name, -1);
          g_string_append_c (members, ':');
          dyno_json_write_node (members, value, FALSE);
        }
      if (members->len > 0)
        dyno_engine_set_error_members (run->engine, g_string_free (g_steal_pointer (&members),
                                                                   FALSE));
      return NULL;
    }
  node = dyno_json_parse (response, -1, NULL);
  g_assert (node != NULL && JSON_NODE_HOLDS_OBJECT (node));
  *out_node = node;
  return json_node_get_object (node);
}

static void
write_capacity (GString    *out,
                JsonObject *response)
{
  JsonNode *cap = json_object_get_member (response, "ConsumedCapacity");

  if (cap != NULL)
    {
      g_string_append (out, ",\"ConsumedCapacity\":");
      dyno_json_write_node (out, cap, FALSE);
    }
}

/* ---- SELECT ------------------------------------------------------------------------------ */

/* The name DynamoDB gives a projected path in the result: its last name with the list
 * indexes after it (m.x -> x, l[0] -> l[0]), as DynamoDB Local answers (DynamoDB's
 * documentation does not say); an item without any of the paths is an empty item. */
static char *
projected_name (const DynoPath *path)
{
  GString *out = g_string_new (NULL);
  guint n = dyno_path_get_length (path);
  guint last = n - 1;

  while (g_array_index (path->elements, DynoPathElement, last).name == NULL)
    last--;
  g_string_append (out, g_array_index (path->elements, DynoPathElement, last).name);
  for (guint i = last + 1; i < n; i++)
    g_string_append_printf (out, "[%u]", g_array_index (path->elements, DynoPathElement,
                                                        i).index);
  return g_string_free (out, FALSE);
}

static gboolean
write_projected (GString    *out,
                 GPtrArray  *projection,
                 JsonNode   *node,
                 GError    **error)
{
  g_autoptr(DynoItem) item = dyno_item_from_json_node (node, error);
  g_autoptr(DynoValueBuilder) b = NULL;
  g_autoptr(GHashTable) seen = NULL;
  g_autoptr(DynoValue) map = NULL;

  if (item == NULL)
    return FALSE;
  b = dyno_value_builder_new ();
  seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  dyno_value_builder_begin (b, DYNO_VALUE_M);
  for (guint i = 0; i < projection->len; i++)
    {
      const DynoPath *path = g_ptr_array_index (projection, i);
      const DynoValue *value = dyno_eval_resolve_path (item, path);
      char *name;

      if (value == NULL)
        continue;
      name = projected_name (path);
      if (!g_hash_table_add (seen, name))
        continue;
      dyno_value_builder_key (b, name, -1);
      dyno_value_builder_add_value (b, value);
    }
  if (!dyno_value_builder_end (b, error))
    return FALSE;
  map = dyno_value_builder_finish (b);
  dyno_map_write_ddb_item (map, out);
  return TRUE;
}

static char *
encode_token (JsonNode *key)
{
  g_autoptr(GString) json = g_string_new (NULL);

  dyno_json_write_node (json, key, FALSE);
  return g_base64_encode ((const guchar *) json->str, json->len);
}

static char *
run_select (Run     *run,
            GError **error)
{
  DynoPartiqlStatement *st = run->st;
  const DynoEngineKey *pk = &run->table->pk, *sk = &run->table->sk;
  g_autoptr(GPtrArray) conjuncts = g_ptr_array_new ();
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GPtrArray) filtered = g_ptr_array_new ();  /* the Query's FilterExpression */
  g_autoptr(GPtrArray) here = g_ptr_array_new ();      /* checked on its items */
  g_autoptr(DynoExpr) residual = NULL;
  const DynoExpr *pk_conjunct = NULL, *sk_conjunct = NULL;
  gboolean query = FALSE;
  JsonObject *response;
  JsonArray *items;
  JsonNode *last;
  GString *request, *out;

  if (st->index != NULL)
    {
      DynoEngineIndex *index = dyno_engine_table_find_index (run->table, st->index);

      if (index == NULL)
        {
          fail (error, VALIDATION, "The table does not have the specified index: %s",
                st->index);
          return NULL;
        }
      pk = &index->pk;
      sk = &index->sk;
    }
  if (st->where != NULL)
    collect_conjuncts (st->where, conjuncts);
  for (guint i = 0; i < conjuncts->len; i++)
    if (!check_key_type (g_ptr_array_index (conjuncts, i), pk, error)
        || !check_key_type (g_ptr_array_index (conjuncts, i), sk, error))
      return NULL;
  for (guint i = 0; i < conjuncts->len && pk_conjunct == NULL; i++)
    {
      const DynoValue *v = key_equality (g_ptr_array_index (conjuncts, i), pk->name);

      if (v != NULL && dyno_value_get_kind (v) == pk->type)
        pk_conjunct = g_ptr_array_index (conjuncts, i);
    }
  if (pk_conjunct != NULL)
    {
      /* a Query: the equality on the partition key and one condition on the sort key are its
       * key condition; a Query's FilterExpression may not name a key attribute (the table's
       * nor the index's), so the other conditions that do are checked here, on the items of
       * the page (as a filter: after Limit, before the page is answered) */
      const char *keys[] = { pk->name, sk->name, run->table->pk.name, run->table->sk.name };

      query = TRUE;
      for (guint i = 0; i < conjuncts->len; i++)
        {
          const DynoExpr *c = g_ptr_array_index (conjuncts, i);
          gboolean key = FALSE;

          if (c == pk_conjunct)
            continue;
          if (sk_conjunct == NULL && sk->name != NULL && is_sort_condition (c, sk))
            {
              sk_conjunct = c;
              continue;
            }
          for (guint k = 0; k < G_N_ELEMENTS (keys) && !key; k++)
            key = keys[k] != NULL && references (c, keys[k]);
          g_ptr_array_add (key ? here : filtered, (gpointer) c);
        }
      /* DynamoDB Local runs such a statement as a Scan (its pages with Limit are a Scan's):
       * so does this, unless ORDER BY needs the Query */
      if (here->len > 0 && st->order_by == NULL)
        query = FALSE;
    }
  if (st->order_by != NULL)
    {
      if (st->where == NULL)
        {
          fail (error, VALIDATION, "Must have WHERE clause in the statement when using "
                "ORDER BY clause.");
          return NULL;
        }
      if (strcmp (st->order_by, pk->name) != 0
          && (sk->name == NULL || strcmp (st->order_by, sk->name) != 0))
        {
          fail (error, VALIDATION, "Variable reference %s in ORDER BY clause must be part of "
                "the primary key", st->order_by);
          return NULL;
        }
      if (!query)
        {
          fail (error, VALIDATION, "Must have at least one non-optional hash key condition in "
                "WHERE clause when using ORDER BY clause.");
          return NULL;
        }
    }

  dyno_expr_printer_set_alias_all (printer, TRUE);
  request = request_new (run);
  if (st->index)
    write_member (request, "IndexName", st->index);
  if (query)
    {
      g_autoptr(DynoExpr) key = dyno_expr_copy (pk_conjunct);
      g_autoptr(DynoExpr) filter = and_of (filtered, NULL, NULL, NULL);

      if (sk_conjunct)
        key = dyno_expr_new_and (g_steal_pointer (&key), dyno_expr_copy (sk_conjunct));
      write_condition (request, "KeyConditionExpression", printer, key);
      write_condition (request, "FilterExpression", printer, filter);
      if (st->descending)
        g_string_append (request, ",\"ScanIndexForward\":false");
    }
  else
    write_condition (request, "FilterExpression", printer, st->where);
  write_placeholders (request, printer);
  if (run->consistent)
    g_string_append (request, ",\"ConsistentRead\":true");
  if (run->limit > 0)
    g_string_append_printf (request, ",\"Limit\":%" G_GINT64_FORMAT, run->limit);
  if (run->start_key)
    {
      g_string_append (request, ",\"ExclusiveStartKey\":");
      dyno_json_write_node (request, run->start_key, FALSE);
    }
  residual = and_of (here, NULL, NULL, NULL);
  if (residual != NULL && !dyno_engine_check_condition (residual, DYNO_EXPR_ROLE_FILTER, error))
    {
      g_string_free (request, TRUE);
      return NULL;
    }
  response = run_request (run, query ? "Query" : "Scan", request, &node, error);
  if (response == NULL)
    return NULL;

  out = g_string_new ("{\"Items\":[");
  items = json_object_get_array_member (response, "Items");
  for (guint i = 0, n = 0; i < json_array_get_length (items); i++)
    {
      JsonNode *item = json_array_get_element (items, i);

      if (residual != NULL)
        {
          g_autoptr(DynoItem) found = dyno_item_from_json_node (item, error);
          gboolean match = FALSE;

          if (found == NULL
              || !dyno_engine_eval_condition (residual, DYNO_EXPR_ROLE_FILTER, found, &match,
                                              error))
            {
              g_string_free (out, TRUE);
              return NULL;
            }
          if (!match)
            continue;
        }
      if (n++ > 0)
        g_string_append_c (out, ',');
      if (st->projection == NULL)
        dyno_json_write_node (out, item, FALSE);
      else if (!write_projected (out, st->projection, item, error))
        {
          g_string_free (out, TRUE);
          return NULL;
        }
    }
  g_string_append_c (out, ']');
  last = json_object_get_member (response, "LastEvaluatedKey");
  if (last != NULL)
    {
      g_autofree char *token = encode_token (last);

      write_member (out, "NextToken", token);
    }
  write_capacity (out, response);
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);
}

/* ---- writes ------------------------------------------------------------------------------ */

static void
write_key (GString               *out,
           const DynoEngineTable *table,
           const DynoValue       *pk,
           const DynoValue       *sk)
{
  g_string_append (out, ",\"Key\":{");
  dyno_json_write_string (out, table->pk.name, -1);
  g_string_append_c (out, ':');
  dyno_value_write_ddb_json (pk, out);
  if (sk != NULL)
    {
      g_string_append_c (out, ',');
      dyno_json_write_string (out, table->sk.name, -1);
      g_string_append_c (out, ':');
      dyno_value_write_ddb_json (sk, out);
    }
  g_string_append_c (out, '}');
}

/* The key equalities of an UPDATE's or DELETE's WHERE (both parts of the table's key). */
static gboolean
find_key (Run             *run,
          GPtrArray       *conjuncts,
          const DynoExpr **pk_conjunct,
          const DynoExpr **sk_conjunct,
          const DynoValue **pk,
          const DynoValue **sk,
          GError         **error)
{
  const DynoEngineTable *table = run->table;

  *pk_conjunct = *sk_conjunct = NULL;
  *pk = *sk = NULL;
  if (run->st->where != NULL)
    collect_conjuncts (run->st->where, conjuncts);
  for (guint i = 0; i < conjuncts->len; i++)
    {
      const DynoExpr *c = g_ptr_array_index (conjuncts, i);
      const DynoValue *v;
      const DynoEngineKey *key = NULL;

      if (!check_key_type (c, &table->pk, error) || !check_key_type (c, &table->sk, error))
        return FALSE;

      if ((v = key_equality (c, table->pk.name)) != NULL)
        key = &table->pk;
      else if (table->sk.name && (v = key_equality (c, table->sk.name)) != NULL)
        key = &table->sk;
      else
        continue;
      if ((key == &table->pk ? *pk : *sk) != NULL)
        {
          fail (error, VALIDATION, "Multiple conditions on same key %s. Only single item "
                "Update/Insert/Delete are supported", key->name);
          return FALSE;
        }
      if (key == &table->pk)
        {
          *pk = v;
          *pk_conjunct = c;
        }
      else
        {
          *sk = v;
          *sk_conjunct = c;
        }
    }
  if (*pk == NULL || (table->sk.name != NULL && *sk == NULL))
    {
      fail (error, VALIDATION, NO_KEY_EQUALITY);
      return FALSE;
    }
  return TRUE;
}

static char *
write_response (JsonObject *response,
                const char *returning)
{
  GString *out = g_string_new ("{\"Items\":[");
  JsonNode *attributes = json_object_get_member (response, "Attributes");

  if (returning != NULL && attributes != NULL)
    dyno_json_write_node (out, attributes, FALSE);
  g_string_append_c (out, ']');
  write_capacity (out, response);
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);
}

static char *
run_insert (Run     *run,
            GError **error)
{
  const DynoEngineTable *table = run->table;
  const DynoEngineKey *keys[] = { &table->pk, &table->sk };
  g_autoptr(JsonNode) node = NULL;
  GError *local = NULL;
  JsonObject *response;
  GString *request;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const DynoValue *v;

      if (keys[i]->name == NULL)
        continue;
      v = dyno_value_lookup (run->st->item, keys[i]->name);
      if (v == NULL)
        {
          fail (error, VALIDATION, "Key attribute should be present in the item: Key %s",
                keys[i]->name);
          return NULL;
        }
      if (dyno_value_get_kind (v) != keys[i]->type)
        {
          fail (error, VALIDATION, "Key attribute's data type should match its data type in "
                "table's schema: Key %s", keys[i]->name);
          return NULL;
        }
    }
  request = request_new (run);
  g_string_append (request, ",\"Item\":");
  dyno_map_write_ddb_item (run->st->item, request);
  g_string_append (request, ",\"ConditionExpression\":\"attribute_not_exists(#k)\","
                            "\"ExpressionAttributeNames\":{\"#k\":");
  dyno_json_write_string (request, table->pk.name, -1);
  g_string_append_c (request, '}');
  response = run_request (run, "PutItem", request, &node, &local);
  if (response == NULL)
    {
      if (g_error_matches (local, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED))
        {
          g_error_free (local);
          fail (error, DUPLICATE_ITEM, "Duplicate primary key exists in table");
        }
      else
        g_propagate_error (error, local);
      return NULL;
    }
  return write_response (response, NULL);
}

static char *
run_update_or_delete (Run     *run,
                      GError **error)
{
  DynoPartiqlStatement *st = run->st;
  gboolean update = st->kind == DYNO_PARTIQL_UPDATE;
  g_autoptr(GPtrArray) conjuncts = g_ptr_array_new ();
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  g_autoptr(DynoExpr) condition = NULL;
  g_autoptr(JsonNode) node = NULL;
  const DynoExpr *pk_conjunct, *sk_conjunct;
  const DynoValue *pk, *sk;
  JsonObject *response;
  GString *request;

  if (!find_key (run, conjuncts, &pk_conjunct, &sk_conjunct, &pk, &sk, error))
    return NULL;
  if (st->returning != NULL && !update && strcmp (st->returning, "ALL_OLD") != 0)
    {
      fail (error, VALIDATION, "Invalid returning clause: RETURNING %s %s *. Only RETURNING "
            "ALL OLD * is allowed in DELETE statements.",
            g_str_has_prefix (st->returning, "ALL") ? "ALL" : "MODIFIED",
            g_str_has_suffix (st->returning, "OLD") ? "OLD" : "NEW");
      return NULL;
    }
  /* an UPDATE changes an item that exists; a DELETE of no item succeeds whatever the rest of
   * its WHERE says (as DynamoDB Local answers), and of an item only if it holds */
  condition = and_of (conjuncts, pk_conjunct, sk_conjunct,
                      update ? dyno_expr_new_function (DYNO_FUNCTION_ATTRIBUTE_EXISTS,
                                                       dyno_expr_new_path (
                                                         dyno_path_new (run->table->pk.name)),
                                                       NULL)
                             : NULL);
  if (!update && condition != NULL)
    condition = dyno_expr_new_or (dyno_expr_new_function (DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS,
                                                          dyno_expr_new_path (dyno_path_new (
                                                            run->table->pk.name)),
                                                          NULL),
                                  dyno_expr_new_paren (g_steal_pointer (&condition)));
  dyno_expr_printer_set_alias_all (printer, TRUE);
  request = request_new (run);
  write_key (request, run->table, pk, sk);
  if (update)
    {
      g_autofree char *text = dyno_expr_printer_print_update (printer, st->update);

      write_member (request, "UpdateExpression", text);
    }
  write_condition (request, "ConditionExpression", printer, condition);
  write_placeholders (request, printer);
  if (st->returning)
    write_member (request, "ReturnValues", st->returning);
  if (run->on_failure)
    write_member (request, "ReturnValuesOnConditionCheckFailure", run->on_failure);
  response = run_request (run, update ? "UpdateItem" : "DeleteItem", request, &node, error);
  if (response == NULL)
    return NULL;
  return write_response (response, st->returning);
}

/* ---- the operation ----------------------------------------------------------------------- */

static gboolean
read_parameters (JsonObject  *object,
                 GPtrArray  **out,
                 GError     **error)
{
  JsonNode *node = json_object_get_member (object, "Parameters");
  JsonArray *array;

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      fail (error, SERIALIZATION, "Start of structure or map found where not expected");
      return FALSE;
    }
  array = json_node_get_array (node);
  /* (DynamoDB's constraint on Parameters; DynamoDB Local takes an empty list) */
  if (json_array_get_length (array) == 0)
    {
      fail (error, VALIDATION, "1 validation error detected: Value '[]' at 'parameters' failed "
            "to satisfy constraint: Member must have length greater than or equal to 1");
      return FALSE;
    }
  *out = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_value_free);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) local = NULL;
      DynoValue *value = dyno_value_from_json_node (json_array_get_element (array, i), &local);

      if (value == NULL)
        {
          fail (error, VALIDATION, "%s", local->message);
          g_clear_pointer (out, g_ptr_array_unref);
          return FALSE;
        }
      g_ptr_array_add (*out, value);
    }
  return TRUE;
}

/* core's message ends with where the problem is, "(at column 12)"; DynamoDB's has no such
 * part */
static void
parse_failed (GError  *local,
              GError **error)
{
  const char *where = g_strrstr (local->message, " (at column ");
  int len = where ? (int) (where - local->message) : (int) strlen (local->message);

  fail (error, VALIDATION, "%.*s", len, local->message);
  g_error_free (local);
}

static JsonNode *
decode_token (const char  *token,
              GError     **error)
{
  gsize len = 0;
  g_autofree guchar *json = NULL;
  JsonNode *node = NULL;

  if (*token != '\0')
    json = g_base64_decode (token, &len);
  if (json != NULL && len > 0)
    node = dyno_json_parse ((const char *) json, len, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_clear_pointer (&node, json_node_unref);
      fail (error, VALIDATION, "Invalid NextToken");
    }
  return node;
}

char *
dyno_engine_execute_statement (DynoEngine *self,
                               const char *body,
                               gssize      len,
                               GError    **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) params = NULL;
  g_autoptr(DynoPartiqlStatement) st = NULL;
  g_autoptr(JsonNode) start_key = NULL;
  GError *local = NULL;
  JsonObject *object;
  JsonNode *member;
  const char *statement, *token;
  Run run = { self };

  root = dyno_json_parse (body, len, &local);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      fail (error, SERIALIZATION, "%s",
            local ? local->message : "Start of structure or map found where not expected");
      g_clear_error (&local);
      return NULL;
    }
  object = json_node_get_object (root);
  member = json_object_get_member (object, "Statement");
  statement = member && json_node_get_value_type (member) == G_TYPE_STRING
              ? json_node_get_string (member) : NULL;
  if (statement == NULL)
    {
      fail (error, VALIDATION, "1 validation error detected: Value null at 'statement' failed "
            "to satisfy constraint: Member must not be null");
      return NULL;
    }
  if (g_utf8_strlen (statement, -1) > 8192)
    {
      /* (DynamoDB Local's words) */
      fail (error, VALIDATION, "Member must have length less than or equal to 8192");
      return NULL;
    }
  if (!read_parameters (object, &params, error))
    return NULL;
  st = dyno_partiql_parse (statement, params, NULL, &local);
  if (st == NULL)
    {
      parse_failed (local, error);
      return NULL;
    }
  run.st = st;
  if ((run.table = dyno_engine_find_table (self, st->table, error)) == NULL)
    return NULL;
  /* ReturnValuesOnConditionCheckFailure: passed on to an UPDATE's or DELETE's request, whose
   * ConditionalCheckFailedException then carries the item (an INSERT's failure is a
   * DuplicateItemException, without one) */
  token = dyno_json_object_peek_string (object, "ReturnValuesOnConditionCheckFailure");
  if (token != NULL && strcmp (token, "ALL_OLD") != 0 && strcmp (token, "NONE") != 0)
    {
      fail (error, VALIDATION, "1 validation error detected: Value '%s' at "
            "'returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must "
            "satisfy enum value set: [ALL_OLD, NONE]", token);
      return NULL;
    }
  run.on_failure = token;
  run.capacity = dyno_json_object_peek_string (object, "ReturnConsumedCapacity");
  member = json_object_get_member (object, "ConsistentRead");
  run.consistent = member && JSON_NODE_HOLDS_VALUE (member)
                   && json_node_get_value_type (member) == G_TYPE_BOOLEAN
                   && json_node_get_boolean (member);
  member = json_object_get_member (object, "Limit");
  if (member && JSON_NODE_HOLDS_VALUE (member))
    {
      run.limit = json_node_get_int (member);
      if (run.limit < 1)
        {
          fail (error, VALIDATION, "1 validation error detected: Value '%" G_GINT64_FORMAT
                "' at 'limit' failed to satisfy constraint: Member must have value greater "
                "than or equal to 1", run.limit);
          return NULL;
        }
    }
  token = dyno_json_object_peek_string (object, "NextToken");
  if (token != NULL)
    {
      if ((start_key = decode_token (token, error)) == NULL)
        return NULL;
      run.start_key = start_key;
    }

  switch (st->kind)
    {
    case DYNO_PARTIQL_SELECT:
      return run_select (&run, error);
    case DYNO_PARTIQL_INSERT:
      return run_insert (&run, error);
    case DYNO_PARTIQL_UPDATE:
    case DYNO_PARTIQL_DELETE:
      return run_update_or_delete (&run, error);
    default:
      g_assert_not_reached ();
    }
}
