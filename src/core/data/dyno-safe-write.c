/* dyno-safe-write.c: writes that never clobber silently (put-new, conditioned edits and
 * deletes) and the diff the conflict dialog shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-safe-write.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-expr.h"
#include "dyno-number.h"

void
dyno_safe_write_info_clear (DynoSafeWriteInfo *info)
{
  if (info == NULL)
    return;

  g_clear_pointer (&info->note, g_free);
  memset (info, 0, sizeof *info);
}

static gboolean
value_equal0 (const DynoValue *a,
              const DynoValue *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return dyno_value_equal (a, b);
}

/* Member @i's name as a C string: a NUL in it is held as C0 80 (see dyno-json.h), so the
 * name stays whole in expressions and lookups and reaches the server as \u0000. */
static char *
held_member_name (const DynoValue *map,
                  guint            i)
{
  gsize len;
  const char *name = dyno_value_get_member_name (map, i, &len);

  return dyno_json_held_string_encode (name, len);
}

static gboolean
is_table_key (const DynoTableInfo *schema,
              const char          *name)
{
  const DynoKeyAttr *pk = dyno_table_info_get_partition_key (schema);
  const DynoKeyAttr *sk = dyno_table_info_get_sort_key (schema);

  return (pk != NULL && g_strcmp0 (pk->name, name) == 0)
         || (sk != NULL && sk->name != NULL && g_strcmp0 (sk->name, name) == 0);
}

DynoItem *
dyno_safe_write_extract_key (const DynoTableInfo  *schema,
                             const DynoItem       *item,
                             GError              **error)
{
  g_autoptr(DynoValueBuilder) builder = NULL;
  const DynoKeyAttr *keys[2];

  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (item != NULL, NULL);

  keys[0] = dyno_table_info_get_partition_key (schema);
  keys[1] = dyno_table_info_get_sort_key (schema);
  builder = dyno_value_builder_new ();
  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  for (guint i = 0; i < 2; i++)
    {
      const DynoValue *value;

      if (keys[i] == NULL || keys[i]->name == NULL)
        continue;
      value = dyno_item_lookup (item, keys[i]->name);
      if (value == NULL)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       i == 0 ? _("The item has no partition key %s.")
                              : _("The item has no sort key %s."),
                       keys[i]->name);
          dyno_value_builder_reset (builder);
          return NULL;
        }
      dyno_value_builder_key (builder, keys[i]->name, -1);
      dyno_value_builder_add_value (builder, value);
    }
  if (!dyno_value_builder_end (builder, error))
    return NULL;

  return dyno_item_new_take (dyno_value_builder_finish (builder));
}

/* ---- expression pieces ------------------------------------------------------------------- */

static DynoExpr *
path_expr (const char *name)
{
  return dyno_expr_new_path (dyno_path_new (name));
}

static DynoExpr *
exists_expr (const char *name,
             gboolean    exists)
{
  return dyno_expr_new_function (exists ? DYNO_FUNCTION_ATTRIBUTE_EXISTS
                                        : DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS,
                                 path_expr (name), NULL);
}

static DynoExpr *
equals_expr (const char      *name,
             const DynoValue *value)
{
  return dyno_expr_new_compare (DYNO_COMPARE_EQ, path_expr (name),
                                dyno_expr_new_value (dyno_value_copy (value)));
}

/* AND of the pieces (DynoExpr*, taken), nested to the right as the parser builds chains. */
static DynoExpr *
and_all (GPtrArray *pieces)
{
  DynoExpr *expr = NULL;

  for (guint i = pieces->len; i > 0; i--)
    {
      DynoExpr *piece = g_ptr_array_index (pieces, i - 1);

      expr = expr == NULL ? piece : dyno_expr_new_and (piece, expr);
    }
  /* the pieces now belong to @expr: empty the array without freeing them */
  g_free (g_ptr_array_steal (pieces, NULL));

  return expr;
}

static GPtrArray *
new_pieces (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_expr_free);
}

/* @item with @name set to @value (replacing any). */
static DynoItem *
item_with_attribute (const DynoItem  *item,
                     const char      *name,
                     const DynoValue *value)
{
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  const DynoValue *map = dyno_item_get_map (item);
  guint n = dyno_value_get_n_children (map);

  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  for (guint i = 0; i < n; i++)
    {
      gsize len;
      const char *member = dyno_value_get_member_name (map, i, &len);

      if (strcmp (member, name) == 0)
        continue;
      dyno_value_builder_key (builder, member, len);
      dyno_value_builder_add_value (builder, dyno_value_get_child (map, i));
    }
  dyno_value_builder_key (builder, name, -1);
  dyno_value_builder_add_value (builder, value);
  if (!dyno_value_builder_end (builder, NULL))
    return NULL;

  return dyno_item_new_take (dyno_value_builder_finish (builder));
}

static gsize
max_bytes (const DynoSafeWriteOptions *options)
{
  return options != NULL && options->max_expression_bytes > 0
         ? options->max_expression_bytes : DYNO_SAFE_WRITE_MAX_EXPRESSION_BYTES;
}

/* ---- put-new ----------------------------------------------------------------------------- */

DynoRequest *
dyno_safe_write_put_new (const DynoTableInfo         *schema,
                         DynoItem                    *item,
                         const DynoSafeWriteOptions  *options,
                         GError                     **error)
{
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoItem) key = NULL;
  g_autoptr(GPtrArray) pieces = new_pieces ();
  const DynoKeyAttr *pk, *sk;

  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (item != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  key = dyno_safe_write_extract_key (schema, item, error);
  if (key == NULL)
    return NULL;

  pk = dyno_table_info_get_partition_key (schema);
  sk = dyno_table_info_get_sort_key (schema);
  request = dyno_request_new (DYNO_OP_PUT_ITEM, dyno_table_info_get_name (schema));

  if (options != NULL && options->version_attribute != NULL
      && dyno_item_lookup (item, options->version_attribute) == NULL)
    {
      g_autoptr(DynoValue) one = dyno_value_new_number ("1", -1, NULL);

      request->item = item_with_attribute (item, options->version_attribute, one);
    }
  else
    request->item = dyno_item_ref (item);

  g_ptr_array_add (pieces, exists_expr (pk->name, FALSE));
  if (sk != NULL && sk->name != NULL)
    g_ptr_array_add (pieces, exists_expr (sk->name, FALSE));
  request->condition = and_all (pieces);

  return g_steal_pointer (&request);
}

/* ---- edit and delete --------------------------------------------------------------------- */

typedef struct {
  const DynoTableInfo        *schema;
  const DynoSafeWriteOptions *options;
  DynoItem                   *loaded;
  const char                 *version;        /* options->version_attribute or NULL */
  DynoValue                  *next_version;   /* the version this write sets */
} Plan;

static void
plan_clear (Plan *plan)
{
  g_clear_pointer (&plan->next_version, dyno_value_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Plan, plan_clear)

/* attribute_exists(pk) and the version condition: the part that is always there. */
static void
add_base_pieces (Plan      *plan,
                 GPtrArray *pieces)
{
  const DynoKeyAttr *pk = dyno_table_info_get_partition_key (plan->schema);

  g_ptr_array_add (pieces, exists_expr (pk->name, TRUE));
  if (plan->version != NULL)
    {
      const DynoValue *loaded = dyno_item_lookup (plan->loaded, plan->version);

      g_ptr_array_add (pieces, loaded != NULL ? equals_expr (plan->version, loaded)
                                              : exists_expr (plan->version, FALSE));
    }
}

static gboolean
skip_attribute (Plan       *plan,
                const char *name)
{
  return is_table_key (plan->schema, name) || g_strcmp0 (name, plan->version) == 0;
}

/* Every loaded attribute still has its loaded value; the ones seen absent are absent. */
static guint
add_full_pieces (Plan           *plan,
                 const DynoItem *edited,
                 GPtrArray      *pieces)
{
  const DynoValue *map = dyno_item_get_map (plan->loaded);
  guint n = dyno_value_get_n_children (map);
  guint count = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = held_member_name (map, i);

      if (skip_attribute (plan, name))
        continue;
      g_ptr_array_add (pieces, equals_expr (name, dyno_value_get_child (map, i)));
      count++;
    }

  if (edited != NULL)
    {
      map = dyno_item_get_map (edited);
      n = dyno_value_get_n_children (map);
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *name = held_member_name (map, i);

          if (skip_attribute (plan, name) || dyno_item_lookup (plan->loaded, name) != NULL)
            continue;
          g_ptr_array_add (pieces, exists_expr (name, FALSE));
          count++;
        }
    }

  if (plan->options != NULL && plan->options->absent_attributes != NULL)
    for (guint i = 0; plan->options->absent_attributes[i] != NULL; i++)
      {
        const char *name = plan->options->absent_attributes[i];

        if (skip_attribute (plan, name) || dyno_item_lookup (plan->loaded, name) != NULL
            || (edited != NULL && dyno_item_lookup (edited, name) != NULL))
          continue;
        g_ptr_array_add (pieces, exists_expr (name, FALSE));
        count++;
      }

  return count;
}

/* Only the attributes this edit changes: what it would overwrite. */
static guint
add_changed_pieces (Plan           *plan,
                    const DynoItem *edited,
                    GPtrArray      *pieces)
{
  g_autoptr(GPtrArray) diff = dyno_item_diff (plan->loaded, edited);
  guint count = 0;

  for (guint i = 0; i < diff->len; i++)
    {
      const DynoDiffEntry *entry = g_ptr_array_index (diff, i);

      if (skip_attribute (plan, entry->attribute))
        continue;
      g_ptr_array_add (pieces, entry->old_value != NULL
                               ? equals_expr (entry->attribute, entry->old_value)
                               : exists_expr (entry->attribute, FALSE));
      count++;
    }

  return count;
}

static gboolean
check_keys (const DynoTableInfo  *schema,
            const DynoItem       *loaded,
            const DynoItem       *edited,
            GError              **error)
{
  const DynoKeyAttr *keys[2] = { dyno_table_info_get_partition_key (schema),
                                 dyno_table_info_get_sort_key (schema) };

  for (guint i = 0; i < 2; i++)
    {
      const DynoValue *a, *b;

      if (keys[i] == NULL || keys[i]->name == NULL)
        continue;
      a = dyno_item_lookup (loaded, keys[i]->name);
      b = edited != NULL ? dyno_item_lookup (edited, keys[i]->name) : a;
      if (a == NULL || b == NULL)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       /* Translators: "loaded" or "edited", "partition" or "sort", then the
                        * attribute. */
                       _("The %s item has no %s key %s."),
                       a == NULL ? C_("item", "loaded") : C_("item", "edited"),
                       i == 0 ? C_("key", "partition") : C_("key", "sort"), keys[i]->name);
          return FALSE;
        }
      if (!dyno_value_equal (a, b))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("The key attribute %s changed: an item's key cannot be edited.  Save "
                         "the item as a new item and delete the old one."), keys[i]->name);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
prepare_version (Plan    *plan,
                 GError **error)
{
  const DynoValue *loaded;
  g_autofree char *next = NULL;

  if (plan->version == NULL)
    return TRUE;

  loaded = dyno_item_lookup (plan->loaded, plan->version);
  if (loaded != NULL && dyno_value_get_kind (loaded) != DYNO_VALUE_N)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   /* Translators: the attribute, then its type (such as S). */
                   _("The version attribute %s is a %s; it must be a number."), plan->version,
                   dyno_value_type_to_string (dyno_value_get_kind (loaded)));
      return FALSE;
    }
  next = loaded != NULL ? dyno_number_add (dyno_value_get_string (loaded, NULL), "1", error)
                        : g_strdup ("1");
  if (next == NULL)
    return FALSE;
  plan->next_version = dyno_value_new_number (next, -1, error);

  return plan->next_version != NULL;
}

static DynoUpdate *
build_update (Plan           *plan,
              const DynoItem *edited,
              guint          *n_operators)
{
  g_autoptr(GPtrArray) diff = dyno_item_diff (plan->loaded, edited);
  DynoUpdate *update = dyno_update_new ();

  *n_operators = 0;
  for (guint i = 0; i < diff->len; i++)
    {
      const DynoDiffEntry *entry = g_ptr_array_index (diff, i);

      if (skip_attribute (plan, entry->attribute))
        continue;
      if (entry->new_value != NULL)
        dyno_update_add_clause (update, DYNO_UPDATE_SET, dyno_path_new (entry->attribute),
                                dyno_expr_new_value (dyno_value_copy (entry->new_value)));
      else
        dyno_update_add_clause (update, DYNO_UPDATE_REMOVE, dyno_path_new (entry->attribute),
                                NULL);
      (*n_operators)++;
    }
  if (plan->next_version != NULL)
    {
      dyno_update_add_clause (update, DYNO_UPDATE_SET, dyno_path_new (plan->version),
                              dyno_expr_new_value (dyno_value_copy (plan->next_version)));
      (*n_operators)++;
    }

  return update;
}

/* The lengths the expressions will have on the wire (one printer, as the request prints). */
static void
measure (const DynoRequest *request,
         gsize             *condition_len,
         gsize             *update_len)
{
  g_autoptr(DynoPrintedRequest) printed = dyno_request_print (request);

  *condition_len = printed->condition != NULL ? strlen (printed->condition) : 0;
  *update_len = printed->update != NULL ? strlen (printed->update) : 0;
}

DynoRequest *
dyno_safe_write_edit (const DynoTableInfo         *schema,
                      DynoItem                    *loaded,
                      DynoItem                    *edited,
                      const DynoSafeWriteOptions  *options,
                      DynoSafeWriteInfo           *info,
                      GError                     **error)
{
  g_auto(Plan) plan = { 0, };
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(GPtrArray) pieces = new_pieces ();
  g_autoptr(DynoExpr) full = NULL;
  g_autoptr(DynoExpr) reduced = NULL;
  g_autoptr(DynoUpdate) update = NULL;
  gsize limit = max_bytes (options);
  gsize condition_len, update_len;
  guint n_operators = 0;
  guint n_full, n_reduced;

  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (loaded != NULL, NULL);
  g_return_val_if_fail (edited != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (info != NULL)
    memset (info, 0, sizeof *info);

  if (!check_keys (schema, loaded, edited, error))
    return NULL;

  plan.schema = schema;
  plan.options = options;
  plan.loaded = loaded;
  plan.version = options != NULL ? options->version_attribute : NULL;
  if (!prepare_version (&plan, error))
    return NULL;

  update = build_update (&plan, edited, &n_operators);
  if (update->clauses->len == 0)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   _("Nothing to save: the item is unchanged."));
      return NULL;
    }

  add_base_pieces (&plan, pieces);
  n_full = add_full_pieces (&plan, edited, pieces);
  full = and_all (pieces);
  add_base_pieces (&plan, pieces);
  n_reduced = add_changed_pieces (&plan, edited, pieces);
  reduced = and_all (pieces);

  request = dyno_request_new (DYNO_OP_UPDATE_ITEM, dyno_table_info_get_name (schema));
  request->key = dyno_safe_write_extract_key (schema, loaded, error);
  if (request->key == NULL)
    return NULL;
  request->update = g_steal_pointer (&update);
  request->condition = dyno_expr_copy (full);
  measure (request, &condition_len, &update_len);

  if (info != NULL)
    {
      info->covers_all = TRUE;
      info->uses_version = plan.version != NULL;
      info->n_conditioned = n_full;
    }

  if (condition_len > limit)
    {
      dyno_expr_free (request->condition);
      request->condition = dyno_expr_copy (reduced);
      measure (request, &condition_len, &update_len);
      if (condition_len > limit && plan.version != NULL)
        {
          add_base_pieces (&plan, pieces);
          dyno_expr_free (request->condition);
          request->condition = and_all (pieces);
          n_reduced = 0;
          measure (request, &condition_len, &update_len);
        }
      if (condition_len > limit)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("The edit changes too many attributes to condition it within "
                         "DynamoDB's 4 KB expression limit.  Give the table a version "
                         "attribute, or save fewer changes at a time."));
          return NULL;
        }
      if (info != NULL)
        {
          info->covers_all = FALSE;
          info->n_conditioned = n_reduced;
          info->note = g_strdup_printf (
            _("The item has too many attributes to condition the save on all of them (4 KB "
              "expression limit): it is conditioned on %s, so a concurrent change to another "
              "attribute is not detected."),
            plan.version != NULL ? (n_reduced > 0 ? _("the version attribute and the changed "
                                                      "attributes")
                                                  : _("the version attribute"))
                                 : _("the attributes it changes"));
        }
    }

  if (update_len > limit || n_operators > DYNO_SAFE_WRITE_MAX_UPDATE_OPERATORS)
    {
      /* The same condition on a Put of the whole edited item. */
      g_autoptr(DynoRequest) put = dyno_request_new (DYNO_OP_PUT_ITEM,
                                                     dyno_table_info_get_name (schema));

      put->condition = g_steal_pointer (&request->condition);
      put->item = plan.next_version != NULL
                  ? item_with_attribute (edited, plan.version, plan.next_version)
                  : dyno_item_ref (edited);
      if (info != NULL)
        {
          g_autofree char *previous = g_steal_pointer (&info->note);

          info->strategy = DYNO_SAFE_WRITE_PUT;
          /* Translators: the first two %s are an earlier note and its separating spaces
           * (or nothing); keep them first. */
          info->note = g_strdup_printf (_("%s%sThe changes are too many for one UpdateExpression "
                                          "(4 KB, 300 operators): the whole item is written "
                                          "with a conditional PutItem, which replaces "
                                          "attributes the editor did not load."),
                                        previous != NULL ? previous : "",
                                        previous != NULL ? "  " : "");
        }
      return g_steal_pointer (&put);
    }

  if (info != NULL)
    info->strategy = DYNO_SAFE_WRITE_UPDATE;
  return g_steal_pointer (&request);
}

DynoRequest *
dyno_safe_write_delete (const DynoTableInfo         *schema,
                        DynoItem                    *loaded,
                        const DynoSafeWriteOptions  *options,
                        DynoSafeWriteInfo           *info,
                        GError                     **error)
{
  g_auto(Plan) plan = { 0, };
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(GPtrArray) pieces = new_pieces ();
  gsize condition_len, update_len;
  guint n_full;

  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (loaded != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (info != NULL)
    memset (info, 0, sizeof *info);

  plan.schema = schema;
  plan.options = options;
  plan.loaded = loaded;
  plan.version = options != NULL ? options->version_attribute : NULL;

  request = dyno_request_new (DYNO_OP_DELETE_ITEM, dyno_table_info_get_name (schema));
  request->key = dyno_safe_write_extract_key (schema, loaded, error);
  if (request->key == NULL)
    return NULL;

  add_base_pieces (&plan, pieces);
  n_full = add_full_pieces (&plan, NULL, pieces);
  request->condition = and_all (pieces);
  measure (request, &condition_len, &update_len);

  if (info != NULL)
    {
      info->covers_all = TRUE;
      info->uses_version = plan.version != NULL;
      info->n_conditioned = n_full;
    }

  if (condition_len > max_bytes (options))
    {
      add_base_pieces (&plan, pieces);
      dyno_expr_free (request->condition);
      request->condition = and_all (pieces);
      if (info != NULL)
        {
          info->covers_all = FALSE;
          info->n_conditioned = 0;
          info->note = g_strdup (plan.version != NULL
                                 ? _("The item has too many attributes to condition the delete "
                                     "on all of them (4 KB expression limit): it is "
                                     "conditioned on the version attribute.")
                                 : _("The item has too many attributes to condition the delete "
                                     "on all of them (4 KB expression limit): it only checks "
                                     "that the item still exists."));
        }
    }

  return g_steal_pointer (&request);
}

/* ---- diff -------------------------------------------------------------------------------- */

void
dyno_diff_entry_free (DynoDiffEntry *entry)
{
  if (entry == NULL)
    return;

  g_free (entry->attribute);
  g_clear_pointer (&entry->old_value, dyno_value_free);
  g_clear_pointer (&entry->new_value, dyno_value_free);
  g_free (entry);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The sorted union of the top-level names of the items (a NUL held as C0 80). */
static GPtrArray *
union_names (const DynoItem *items[],
             guint           n_items)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (guint k = 0; k < n_items; k++)
    {
      const DynoValue *map;

      if (items[k] == NULL)
        continue;
      map = dyno_item_get_map (items[k]);
      for (guint i = 0; i < dyno_value_get_n_children (map); i++)
        {
          char *name = held_member_name (map, i);

          /* Not g_hash_table_add() on a name seen: it would keep this copy as the key. */
          if (g_hash_table_contains (seen, name))
            g_free (name);
          else
            {
              g_hash_table_add (seen, name);
              g_ptr_array_add (names, name);
            }
        }
    }
  g_ptr_array_sort (names, compare_names);

  return names;
}

static const DynoValue *
lookup0 (const DynoItem *item,
         const char     *name)
{
  return item != NULL ? dyno_item_lookup (item, name) : NULL;
}

GPtrArray *
dyno_item_diff (const DynoItem *old_item,
                const DynoItem *new_item)
{
  const DynoItem *items[2] = { old_item, new_item };
  g_autoptr(GPtrArray) names = union_names (items, 2);
  GPtrArray *diff = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_diff_entry_free);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      const DynoValue *a = lookup0 (old_item, name);
      const DynoValue *b = lookup0 (new_item, name);
      DynoDiffEntry *entry;

      if (value_equal0 (a, b))
        continue;
      entry = g_new0 (DynoDiffEntry, 1);
      entry->attribute = g_strdup (name);
      entry->kind = a == NULL ? DYNO_DIFF_ADDED : b == NULL ? DYNO_DIFF_REMOVED
                                                            : DYNO_DIFF_CHANGED;
      entry->old_value = a != NULL ? dyno_value_copy (a) : NULL;
      entry->new_value = b != NULL ? dyno_value_copy (b) : NULL;
      g_ptr_array_add (diff, entry);
    }

  return diff;
}

GStrv
dyno_item_conflicting_attributes (const DynoItem *loaded,
                                  const DynoItem *mine,
                                  const DynoItem *theirs)
{
  const DynoItem *items[3] = { loaded, mine, theirs };
  g_autoptr(GPtrArray) names = union_names (items, 3);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      const DynoValue *base = lookup0 (loaded, name);
      const DynoValue *a = lookup0 (mine, name);
      const DynoValue *b = lookup0 (theirs, name);

      if (!value_equal0 (base, a) && !value_equal0 (base, b) && !value_equal0 (a, b))
        g_strv_builder_add (builder, name);
    }

  return g_strv_builder_end (builder);
}
