/* dyno-workbench-model.c: NoSQL Workbench data models, read and written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-workbench-model.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"

/* ---- structures ------------------------------------------------------------------------ */

static void
attribute_free (DynoWorkbenchAttribute *attribute)
{
  g_free (attribute->name);
  g_free (attribute);
}

static void
facet_free (DynoWorkbenchFacet *facet)
{
  g_free (facet->name);
  g_free (facet->partition_key_alias);
  g_free (facet->sort_key_alias);
  g_strfreev (facet->non_key_attributes);
  g_ptr_array_unref (facet->items);
  g_free (facet);
}

DynoWorkbenchTable *
dyno_workbench_table_new (DynoTableDesign *design)
{
  DynoWorkbenchTable *table;

  g_return_val_if_fail (design != NULL, NULL);

  table = g_new0 (DynoWorkbenchTable, 1);
  table->design = dyno_table_design_ref (design);
  table->attributes = g_ptr_array_new_with_free_func ((GDestroyNotify) attribute_free);
  table->facets = g_ptr_array_new_with_free_func ((GDestroyNotify) facet_free);
  table->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  return table;
}

void
dyno_workbench_table_free (DynoWorkbenchTable *table)
{
  if (table == NULL)
    return;
  dyno_table_design_unref (table->design);
  g_ptr_array_unref (table->attributes);
  g_ptr_array_unref (table->facets);
  g_ptr_array_unref (table->items);
  g_free (table);
}

const char *
dyno_workbench_table_get_name (const DynoWorkbenchTable *table)
{
  g_return_val_if_fail (table != NULL, NULL);
  return dyno_table_design_get_table_name (table->design);
}

DynoWorkbenchModel *
dyno_workbench_model_new (const char *name)
{
  DynoWorkbenchModel *model = g_new0 (DynoWorkbenchModel, 1);

  model->name = g_strdup (name != NULL ? name : "");
  model->tables = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_workbench_table_free);
  return model;
}

void
dyno_workbench_model_free (DynoWorkbenchModel *model)
{
  if (model == NULL)
    return;
  g_free (model->name);
  g_free (model->author);
  g_free (model->description);
  g_free (model->date_created);
  g_free (model->date_last_modified);
  g_free (model->version);
  g_ptr_array_unref (model->tables);
  g_free (model);
}

GPtrArray *
dyno_workbench_table_get_all_items (const DynoWorkbenchTable *table)
{
  GPtrArray *all;

  g_return_val_if_fail (table != NULL, NULL);

  all = g_ptr_array_new ();
  for (guint i = 0; i < table->items->len; i++)
    g_ptr_array_add (all, g_ptr_array_index (table->items, i));
  for (guint f = 0; f < table->facets->len; f++)
    {
      DynoWorkbenchFacet *facet = g_ptr_array_index (table->facets, f);

      for (guint i = 0; i < facet->items->len; i++)
        g_ptr_array_add (all, g_ptr_array_index (facet->items, i));
    }
  return all;
}

JsonNode *
dyno_workbench_table_to_create_table_json (const DynoWorkbenchTable *table)
{
  g_return_val_if_fail (table != NULL, NULL);
  return dyno_table_design_to_create_table_json (table->design);
}

GBytes *
dyno_workbench_table_dup_items_jsonl (const DynoWorkbenchTable *table)
{
  g_autoptr(GPtrArray) all = NULL;
  GString *out = g_string_new (NULL);
  gsize len;

  g_return_val_if_fail (table != NULL, NULL);

  all = dyno_workbench_table_get_all_items (table);
  for (guint i = 0; i < all->len; i++)
    {
      g_autofree char *line = dyno_item_to_ddb_json (g_ptr_array_index (all, i));

      g_string_append (out, line);
      g_string_append_c (out, '\n');
    }
  len = out->len;
  return g_bytes_new_take (g_string_free (out, FALSE), len);
}

/* ---- reading --------------------------------------------------------------------------- */

static gboolean
model_error (GError     **error,
             const char  *format,
             ...) G_GNUC_PRINTF (2, 3);

static gboolean
model_error (GError     **error,
             const char  *format,
             ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE, message);
  return FALSE;
}

/* Member @name of @obj as a string (NULL when absent or null).  FALSE when of another type. */
static gboolean
get_string (JsonObject  *obj,
            const char  *name,
            const char  *where,
            char       **out,
            GError     **error)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, name) : NULL;

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return model_error (error, _("%s: %s must be a string."), where, name);
  *out = dyno_json_node_dup_string (node, NULL);
  return TRUE;
}

static gboolean
get_required_string (JsonObject  *obj,
                     const char  *name,
                     const char  *where,
                     char       **out,
                     GError     **error)
{
  if (!get_string (obj, name, where, out, error))
    return FALSE;
  if (*out == NULL || **out == '\0')
    {
      g_clear_pointer (out, g_free);
      return model_error (error, _("%s: %s is missing."), where, name);
    }
  return TRUE;
}

static gboolean
get_array (JsonObject  *obj,
           const char  *name,
           const char  *where,
           JsonArray  **out,
           GError     **error)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, name) : NULL;

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return model_error (error, _("%s: %s must be a list."), where, name);
  *out = json_node_get_array (node);
  return TRUE;
}

static gboolean
get_object (JsonObject  *obj,
            const char  *name,
            const char  *where,
            JsonObject **out,
            GError     **error)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, name) : NULL;

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return model_error (error, _("%s: %s must be an object."), where, name);
  *out = json_node_get_object (node);
  return TRUE;
}

/* A non-negative integer member; -1 when absent. */
static gboolean
get_capacity (JsonObject  *obj,
              const char  *name,
              const char  *where,
              gint64      *out,
              GError     **error)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, name) : NULL;

  *out = -1;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 0)
    return model_error (error, _("%s: %s must be a whole number of capacity units."), where,
                        name);
  *out = json_node_get_int (node);
  return TRUE;
}

/* {"AttributeName": …, "AttributeType": …} */
static gboolean
read_attribute (JsonNode       *node,
                const char     *where,
                char          **out_name,
                DynoValueType  *out_type,
                GError        **error)
{
  g_autofree char *name = NULL, *type = NULL;
  JsonObject *obj;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return model_error (error, _("%s must be an object with AttributeName and AttributeType."),
                        where);
  obj = json_node_get_object (node);
  if (!get_required_string (obj, "AttributeName", where, &name, error) ||
      !get_required_string (obj, "AttributeType", where, &type, error))
    return FALSE;
  if (!dyno_value_type_from_string (type, out_type))
    return model_error (error, _("%s: AttributeType “%s” is not a DynamoDB type."), where, type);
  *out_name = g_steal_pointer (&name);
  return TRUE;
}

/* KeyAttributes: {"PartitionKey": {…}, "SortKey": {…}}; the sort key is optional. */
static gboolean
read_key_attributes (JsonObject     *obj,
                     const char     *where,
                     char          **pk_name,
                     DynoValueType  *pk_type,
                     char          **sk_name,
                     DynoValueType  *sk_type,
                     GError        **error)
{
  JsonObject *keys;
  JsonNode *node;

  *pk_name = NULL;
  *sk_name = NULL;
  if (!get_object (obj, "KeyAttributes", where, &keys, error))
    return FALSE;
  if (keys == NULL || (node = json_object_get_member (keys, "PartitionKey")) == NULL)
    return model_error (error, _("%s: KeyAttributes.PartitionKey is missing."), where);
  {
    g_autofree char *w = g_strdup_printf ("%s: KeyAttributes.PartitionKey", where);

    if (!read_attribute (node, w, pk_name, pk_type, error))
      return FALSE;
  }
  node = json_object_get_member (keys, "SortKey");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      g_autofree char *w = g_strdup_printf ("%s: KeyAttributes.SortKey", where);

      if (!read_attribute (node, w, sk_name, sk_type, error))
        {
          g_clear_pointer (pk_name, g_free);
          return FALSE;
        }
    }
  return TRUE;
}

/* A list of strings (Projection.NonKeyAttributes, a facet's NonKeyAttributes). */
static gboolean
read_string_list (JsonObject  *obj,
                  const char  *name,
                  const char  *where,
                  GStrv       *out,
                  GError     **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  *out = NULL;
  if (!get_array (obj, name, where, &array, error))
    return FALSE;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        return model_error (error, _("%s: %s[%u] must be an attribute name."), where, name, i);
      g_strv_builder_add (builder, json_node_get_string (node));
    }
  *out = g_strv_builder_end (builder);
  return TRUE;
}

static gboolean
read_index (DynoTableDesign *design,
            JsonNode        *node,
            gboolean         global,
            guint            i,
            const char      *table_where,
            GError         **error)
{
  const char *list = global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes";
  g_autofree char *where = NULL, *name = NULL, *pk = NULL, *sk = NULL, *projection = NULL;
  g_auto(GStrv) attributes = NULL;
  DynoValueType pk_type = DYNO_VALUE_S, sk_type = DYNO_VALUE_S;
  JsonObject *obj, *proj, *throughput;
  DynoIndexDesign *index;
  DynoProjectionType type;
  gint64 rcu = -1, wcu = -1;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return model_error (error, _("%s: %s[%u] must be an object."), table_where, list, i);
  obj = json_node_get_object (node);
  where = g_strdup_printf ("%s, %s[%u]", table_where, list, i);
  if (!get_required_string (obj, "IndexName", where, &name, error))
    return FALSE;
  g_free (where);
  where = g_strdup_printf (_("%s, index “%s”"), table_where, name);

  if (!read_key_attributes (obj, where, &pk, &pk_type, &sk, &sk_type, error) ||
      !get_object (obj, "Projection", where, &proj, error) ||
      !get_string (proj, "ProjectionType", where, &projection, error) ||
      !read_string_list (proj, "NonKeyAttributes", where, &attributes, error) ||
      !get_object (obj, "ProvisionedThroughput", where, &throughput, error) ||
      !get_capacity (throughput, "ReadCapacityUnits", where, &rcu, error) ||
      !get_capacity (throughput, "WriteCapacityUnits", where, &wcu, error))
    return FALSE;

  if (projection == NULL || g_str_equal (projection, "ALL"))
    type = DYNO_PROJECTION_ALL;
  else if (g_str_equal (projection, "KEYS_ONLY"))
    type = DYNO_PROJECTION_KEYS_ONLY;
  else if (g_str_equal (projection, "INCLUDE"))
    type = DYNO_PROJECTION_INCLUDE;
  else
    return model_error (error, _("%s: Projection.ProjectionType must be ALL, KEYS_ONLY or "
                                 "INCLUDE, not “%s”."), where, projection);

  index = dyno_table_design_get_index (design, dyno_table_design_add_index (design, global));
  dyno_table_design_index_set_name (index, name);
  dyno_table_design_index_set_partition_key (index, pk, pk_type);
  dyno_table_design_index_set_sort_key (index, sk, sk_type);
  dyno_table_design_index_set_projection (index, type);
  if (type == DYNO_PROJECTION_INCLUDE)
    {
      /* Real models list key attributes among the projected ones (DynamoDB refuses that:
       * keys are always projected), so they are left out. */
      const char *keys[] = { dyno_table_design_get_partition_key_name (design),
                             dyno_table_design_get_sort_key_name (design), pk, sk };
      g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
      g_auto(GStrv) kept_list = NULL;

      for (guint k = 0; attributes != NULL && attributes[k] != NULL; k++)
        {
          gboolean key = FALSE;

          for (guint j = 0; j < G_N_ELEMENTS (keys); j++)
            key = key || g_strcmp0 (attributes[k], keys[j]) == 0;
          if (!key)
            g_strv_builder_add (kept, attributes[k]);
        }
      kept_list = g_strv_builder_end (kept);
      dyno_table_design_index_set_non_key_attributes (index,
                                                      (const char * const *) kept_list);
    }
  if (global && dyno_table_design_get_billing_mode (design) == DYNO_BILLING_PROVISIONED)
    {
      /* Workbench gives GSIs no capacity of their own: they get the table's */
      if (rcu < 0)
        rcu = dyno_table_design_get_read_capacity (design);
      if (wcu < 0)
        wcu = dyno_table_design_get_write_capacity (design);
      dyno_table_design_index_set_capacity (index, rcu, wcu);
    }
  return TRUE;
}

/* Real models (Workbench 3.x) hold maps whose members are plain JSON ({"M": {"on": true}})
 * or a map wrapped twice ({"M": {"M": {"HP": {"N": "50"}}}}), which DynamoDB JSON readers
 * refuse.  An item refused as DynamoDB JSON is read again with such members taken as plain
 * JSON (dyno_value_from_plain_json()) and the double wrapper taken off.  A value that is
 * valid DynamoDB JSON is never read another way. */
static gboolean
is_attribute_value (JsonNode *node)
{
  JsonObject *obj;
  g_autoptr(GList) members = NULL;
  DynoValueType type;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  obj = json_node_get_object (node);
  if (json_object_get_size (obj) != 1)
    return FALSE;
  members = json_object_get_members (obj);
  return dyno_value_type_from_string (members->data, &type);
}

static JsonNode *lenient_value (JsonNode *node);

static JsonNode *
plain_value (JsonNode *node)
{
  g_autofree char *text = dyno_json_node_to_string (node, FALSE);
  g_autoptr(DynoValue) value = dyno_value_from_plain_json (text, -1, NULL, NULL);

  return value != NULL ? dyno_value_to_json_node (value) : json_node_copy (node);
}

static JsonNode *
lenient_member (JsonNode *node)
{
  return is_attribute_value (node) ? lenient_value (node) : plain_value (node);
}

static JsonNode *
lenient_value (JsonNode *node)
{
  JsonObject *obj = json_node_get_object (node);
  g_autoptr(GList) members = json_object_get_members (obj);
  const char *tag = members->data;
  JsonNode *inner = json_object_get_member (obj, tag);
  JsonObject *out = json_object_new ();
  JsonNode *result = json_node_new (JSON_NODE_OBJECT);

  if (g_str_equal (tag, "M") && JSON_NODE_HOLDS_OBJECT (inner))
    {
      JsonObject *map = json_node_get_object (inner);
      JsonObject *copy = json_object_new ();
      JsonNode *twice = json_object_get_member (map, "M");
      g_autoptr(GList) names = NULL;

      if (json_object_get_size (map) == 1 && twice != NULL && JSON_NODE_HOLDS_OBJECT (twice) &&
          !is_attribute_value (twice))
        map = json_node_get_object (twice);
      names = json_object_get_members (map);
      for (GList *l = names; l != NULL; l = l->next)
        json_object_set_member (copy, l->data,
                                lenient_member (json_object_get_member (map, l->data)));
      json_object_set_object_member (out, "M", copy);
    }
  else if (g_str_equal (tag, "L") && JSON_NODE_HOLDS_ARRAY (inner))
    {
      JsonArray *list = json_node_get_array (inner);
      JsonArray *copy = json_array_new ();

      for (guint i = 0; i < json_array_get_length (list); i++)
        json_array_add_element (copy, lenient_member (json_array_get_element (list, i)));
      json_object_set_array_member (out, "L", copy);
    }
  else
    json_object_set_member (out, tag, json_node_copy (inner));
  json_node_take_object (result, out);
  return result;
}

static DynoItem *
lenient_item (JsonNode *node)
{
  g_autoptr(JsonNode) copy = NULL;
  g_autoptr(GList) names = NULL;
  JsonObject *obj, *out;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  obj = json_node_get_object (node);
  out = json_object_new ();
  copy = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (copy, out);
  names = json_object_get_members (obj);
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (obj, l->data);

      if (!is_attribute_value (value))
        return NULL;
      json_object_set_member (out, l->data, lenient_value (value));
    }
  return dyno_item_from_json_node (copy, NULL);
}

/* The items of a TableData list, each checked to hold the table's keys with their types. */
static gboolean
read_items (JsonObject       *obj,
            DynoTableDesign  *design,
            const char       *where,
            GPtrArray        *items,
            guint            *n_lenient,
            GError          **error)
{
  const char *pk = dyno_table_design_get_partition_key_name (design);
  const char *sk = dyno_table_design_get_sort_key_name (design);
  JsonArray *array;

  if (!get_array (obj, "TableData", where, &array, error))
    return FALSE;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) local = NULL;
      g_autoptr(DynoItem) item = NULL;
      const char *key_names[2] = { pk, sk };
      DynoValueType key_types[2] = { dyno_table_design_get_partition_key_type (design),
                                     dyno_table_design_get_sort_key_type (design) };

      item = dyno_item_from_json_node (json_array_get_element (array, i), &local);
      if (item == NULL && (item = lenient_item (json_array_get_element (array, i))) != NULL)
        (*n_lenient)++;
      if (item == NULL)
        return model_error (error, _("%s: TableData item %u is not an item in DynamoDB JSON: "
                                     "%s"), where, i + 1, local->message);
      for (guint k = 0; k < 2; k++)
        {
          const DynoValue *value;

          if (key_names[k] == NULL)
            continue;
          value = dyno_item_lookup (item, key_names[k]);
          if (value == NULL)
            return model_error (error, _("%s: TableData item %u has no key attribute “%s”."),
                                where, i + 1, key_names[k]);
          if (dyno_value_get_kind (value) != key_types[k])
            return model_error (error, _("%s: TableData item %u: key attribute “%s” is %s, "
                                         "the table says %s."), where, i + 1, key_names[k],
                                dyno_value_type_to_string (dyno_value_get_kind (value)),
                                dyno_value_type_to_string (key_types[k]));
        }
      g_ptr_array_add (items, g_steal_pointer (&item));
    }
  return TRUE;
}

static gboolean
read_facet (DynoWorkbenchTable *table,
            JsonNode           *node,
            guint               i,
            const char         *table_where,
            GError            **error)
{
  g_autofree char *where = NULL, *name = NULL;
  DynoWorkbenchFacet *facet;
  JsonObject *obj, *alias;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return model_error (error, _("%s: TableFacets[%u] must be an object."), table_where, i);
  obj = json_node_get_object (node);
  where = g_strdup_printf ("%s, TableFacets[%u]", table_where, i);
  if (!get_required_string (obj, "FacetName", where, &name, error))
    return FALSE;
  g_free (where);
  where = g_strdup_printf (_("%s, facet “%s”"), table_where, name);

  facet = g_new0 (DynoWorkbenchFacet, 1);
  facet->name = g_steal_pointer (&name);
  facet->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  g_ptr_array_add (table->facets, facet);

  if (!get_object (obj, "KeyAttributeAlias", where, &alias, error) ||
      !get_string (alias, "PartitionKeyAlias", where, &facet->partition_key_alias, error) ||
      !get_string (alias, "SortKeyAlias", where, &facet->sort_key_alias, error) ||
      !read_string_list (obj, "NonKeyAttributes", where, &facet->non_key_attributes, error) ||
      !read_items (obj, table->design, where, facet->items, &table->n_lenient_items,
                   error))
    return FALSE;
  if (facet->partition_key_alias == NULL)
    facet->partition_key_alias = g_strdup ("");
  if (facet->non_key_attributes == NULL)
    facet->non_key_attributes = g_new0 (char *, 1);
  return TRUE;
}

static DynoWorkbenchTable *
read_table (JsonNode  *node,
            guint      i,
            GError   **error)
{
  g_autoptr(DynoTableDesign) design = dyno_table_design_new ();
  g_autoptr(DynoWorkbenchTable) table = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *where = NULL, *name = NULL, *pk = NULL, *sk = NULL, *billing = NULL;
  DynoValueType pk_type = DYNO_VALUE_S, sk_type = DYNO_VALUE_S;
  JsonObject *obj, *settings, *throughput;
  JsonArray *array;
  gint64 rcu = -1, wcu = -1;

  where = g_strdup_printf ("DataModel[%u]", i);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      model_error (error, _("%s must be an object (a table)."), where);
      return NULL;
    }
  obj = json_node_get_object (node);
  if (!get_required_string (obj, "TableName", where, &name, error))
    return NULL;
  g_free (where);
  where = g_strdup_printf (_("Table “%s”"), name);

  dyno_table_design_set_table_name (design, name);
  if (!read_key_attributes (obj, where, &pk, &pk_type, &sk, &sk_type, error))
    return NULL;
  dyno_table_design_set_partition_key (design, pk, pk_type);
  dyno_table_design_set_sort_key (design, sk, sk_type);

  /* Billing: Workbench 3.x writes BillingMode and ProvisionedCapacitySettings; older models
   * have neither, and get on-demand. */
  if (!get_string (obj, "BillingMode", where, &billing, error) ||
      !get_object (obj, "ProvisionedCapacitySettings", where, &settings, error) ||
      !get_object (settings, "ProvisionedThroughput", where, &throughput, error) ||
      !get_capacity (throughput, "ReadCapacityUnits", where, &rcu, error) ||
      !get_capacity (throughput, "WriteCapacityUnits", where, &wcu, error))
    return NULL;
  if (billing == NULL || g_str_equal (billing, "PAY_PER_REQUEST"))
    dyno_table_design_set_billing_mode (design, DYNO_BILLING_PAY_PER_REQUEST);
  else if (g_str_equal (billing, "PROVISIONED"))
    {
      dyno_table_design_set_billing_mode (design, DYNO_BILLING_PROVISIONED);
      dyno_table_design_set_capacity (design, rcu, wcu);
    }
  else
    {
      model_error (error, _("%s: BillingMode must be PROVISIONED or PAY_PER_REQUEST, not “%s”."),
                   where, billing);
      return NULL;
    }

  for (int global = 1; global >= 0; global--)
    {
      const char *list = global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes";

      if (!get_array (obj, list, where, &array, error))
        return NULL;
      for (guint k = 0; array != NULL && k < json_array_get_length (array); k++)
        if (!read_index (design, json_array_get_element (array, k), global, k, where, error))
          return NULL;
    }

  problems = dyno_table_design_validate (design);
  if (problems->len > 0)
    {
      DynoDesignProblem *problem = g_ptr_array_index (problems, 0);

      model_error (error, _("%s cannot be created: %s"), where, problem->message);
      return NULL;
    }

  table = dyno_workbench_table_new (design);

  if (!get_array (obj, "NonKeyAttributes", where, &array, error))
    return NULL;
  for (guint k = 0; array != NULL && k < json_array_get_length (array); k++)
    {
      g_autofree char *w = g_strdup_printf ("%s, NonKeyAttributes[%u]", where, k);
      DynoWorkbenchAttribute *attribute = g_new0 (DynoWorkbenchAttribute, 1);

      g_ptr_array_add (table->attributes, attribute);
      if (!read_attribute (json_array_get_element (array, k), w, &attribute->name,
                           &attribute->type, error))
        return NULL;
    }

  if (!read_items (obj, design, where, table->items, &table->n_lenient_items, error) ||
      !get_array (obj, "TableFacets", where, &array, error))
    return NULL;
  for (guint k = 0; array != NULL && k < json_array_get_length (array); k++)
    if (!read_facet (table, json_array_get_element (array, k), k, where, error))
      return NULL;

  return g_steal_pointer (&table);
}

DynoWorkbenchModel *
dyno_workbench_model_parse (const char  *text,
                            gssize       len,
                            GError     **error)
{
  g_autoptr(DynoWorkbenchModel) model = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *name = NULL;
  JsonObject *obj, *metadata;
  JsonArray *tables;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  root = dyno_json_parse (text != NULL ? text : "", len, &local);
  if (root == NULL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                  _("The model is not valid JSON: "));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      model_error (error, _("A NoSQL Workbench model is a JSON object with ModelName and "
                            "DataModel."));
      return NULL;
    }
  obj = json_node_get_object (root);
  if (!get_string (obj, "ModelName", _("The model"), &name, error) ||
      !get_array (obj, "DataModel", _("The model"), &tables, error) ||
      !get_object (obj, "ModelMetadata", _("The model"), &metadata, error))
    return NULL;
  if (tables == NULL)
    {
      model_error (error, _("The model has no DataModel: this is not a NoSQL Workbench "
                            "model."));
      return NULL;
    }

  model = dyno_workbench_model_new (name);
  if (!get_string (metadata, "Author", "ModelMetadata", &model->author, error) ||
      !get_string (metadata, "Description", "ModelMetadata", &model->description, error) ||
      !get_string (metadata, "DateCreated", "ModelMetadata", &model->date_created, error) ||
      !get_string (metadata, "DateLastModified", "ModelMetadata", &model->date_last_modified,
                   error) ||
      !get_string (metadata, "Version", "ModelMetadata", &model->version, error))
    return NULL;

  for (guint i = 0; i < json_array_get_length (tables); i++)
    {
      DynoWorkbenchTable *table = read_table (json_array_get_element (tables, i), i, error);
      const char *table_name;

      if (table == NULL)
        return NULL;
      g_ptr_array_add (model->tables, table);
      table_name = dyno_workbench_table_get_name (table);
      if (!g_hash_table_add (names, (gpointer) table_name))
        {
          model_error (error, _("The model has two tables named “%s”."), table_name);
          return NULL;
        }
    }
  return g_steal_pointer (&model);
}

GStrv
dyno_workbench_model_find_tables (const DynoWorkbenchModel *model,
                                  const char * const       *existing)
{
  g_autoptr(GStrvBuilder) found = g_strv_builder_new ();

  g_return_val_if_fail (model != NULL, NULL);

  for (guint t = 0; existing != NULL && t < model->tables->len; t++)
    {
      const char *name = dyno_workbench_table_get_name (g_ptr_array_index (model->tables, t));

      if (g_strv_contains (existing, name))
        g_strv_builder_add (found, name);
    }
  return g_strv_builder_end (found);
}

/* ---- from a live table ----------------------------------------------------------------- */

DynoWorkbenchTable *
dyno_workbench_table_new_from_info (const DynoTableInfo *info,
                                    GPtrArray           *items)
{
  g_autoptr(DynoTableDesign) design = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *keys[3] = { NULL, NULL, NULL };
  DynoWorkbenchTable *table;

  g_return_val_if_fail (info != NULL, NULL);

  design = dyno_table_design_new_from_table_info (info);
  table = dyno_workbench_table_new (design);
  keys[0] = dyno_table_design_get_partition_key_name (design);
  keys[1] = dyno_table_design_get_sort_key_name (design);
  for (guint i = 0; items != NULL && i < items->len; i++)
    {
      /* the keys first, then the other attributes by name, as a person reads them */
      DynoItem *item = dyno_item_new_ordered (g_ptr_array_index (items, i), keys);
      const DynoValue *map = dyno_item_get_map (item);

      g_ptr_array_add (table->items, item);
      for (guint k = 0; k < dyno_value_get_n_children (map); k++)
        {
          const char *name = dyno_value_get_member_name (map, k, NULL);
          DynoWorkbenchAttribute *attribute;

          if (g_strcmp0 (name, dyno_table_design_get_partition_key_name (design)) == 0 ||
              g_strcmp0 (name, dyno_table_design_get_sort_key_name (design)) == 0 ||
              g_hash_table_contains (seen, name))
            continue;
          attribute = g_new0 (DynoWorkbenchAttribute, 1);
          attribute->name = g_strdup (name);
          attribute->type = dyno_value_get_kind (dyno_value_get_child (map, k));
          g_ptr_array_add (table->attributes, attribute);
          g_hash_table_add (seen, attribute->name);
        }
    }
  return table;
}

/* ---- writing --------------------------------------------------------------------------- */

char *
dyno_workbench_format_date (GDateTime *time)
{
  static const char * const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul",
                                         "Aug", "Sep", "Oct", "Nov", "Dec" };
  int hour;

  g_return_val_if_fail (time != NULL, NULL);

  hour = g_date_time_get_hour (time) % 12;
  return g_strdup_printf ("%s %02d, %d, %02d:%02d %s",
                          months[g_date_time_get_month (time) - 1],
                          g_date_time_get_day_of_month (time), g_date_time_get_year (time),
                          hour == 0 ? 12 : hour, g_date_time_get_minute (time),
                          g_date_time_get_hour (time) < 12 ? "AM" : "PM");
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value != NULL ? value : "");
}

static void
add_attribute (JsonBuilder   *builder,
               const char    *member,
               const char    *name,
               DynoValueType  type)
{
  if (member != NULL)
    json_builder_set_member_name (builder, member);
  json_builder_begin_object (builder);
  add_string (builder, "AttributeName", name);
  add_string (builder, "AttributeType", dyno_value_type_to_string (type));
  json_builder_end_object (builder);
}

static void
add_key_attributes (JsonBuilder   *builder,
                    const char    *pk,
                    DynoValueType  pk_type,
                    const char    *sk,
                    DynoValueType  sk_type)
{
  json_builder_set_member_name (builder, "KeyAttributes");
  json_builder_begin_object (builder);
  add_attribute (builder, "PartitionKey", pk, pk_type);
  if (sk != NULL && *sk != '\0')
    add_attribute (builder, "SortKey", sk, sk_type);
  json_builder_end_object (builder);
}

static void
add_string_list (JsonBuilder        *builder,
                 const char         *member,
                 const char * const *names,
                 guint               n)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    json_builder_add_string_value (builder, names[i]);
  json_builder_end_array (builder);
}

static void
add_items (JsonBuilder *builder,
           GPtrArray   *items)
{
  json_builder_set_member_name (builder, "TableData");
  json_builder_begin_array (builder);
  for (guint i = 0; i < items->len; i++)
    json_builder_add_value (builder, dyno_item_to_json_node (g_ptr_array_index (items, i)));
  json_builder_end_array (builder);
}

static void
add_indexes (JsonBuilder     *builder,
             DynoTableDesign *design,
             gboolean         global)
{
  gboolean any = FALSE;

  for (guint i = 0; i < dyno_table_design_get_n_indexes (design); i++)
    {
      DynoIndexDesign *index = dyno_table_design_get_index (design, i);
      const char *pk = index->partition_key_name;
      DynoValueType pk_type = index->partition_key_type;

      if (index->global != global)
        continue;
      if (!any)
        {
          json_builder_set_member_name (builder, global ? "GlobalSecondaryIndexes"
                                                        : "LocalSecondaryIndexes");
          json_builder_begin_array (builder);
          any = TRUE;
        }
      if (!global && (pk == NULL || *pk == '\0'))
        {
          pk = dyno_table_design_get_partition_key_name (design);
          pk_type = dyno_table_design_get_partition_key_type (design);
        }
      json_builder_begin_object (builder);
      add_string (builder, "IndexName", index->name);
      add_key_attributes (builder, pk, pk_type, index->sort_key_name, index->sort_key_type);
      json_builder_set_member_name (builder, "Projection");
      json_builder_begin_object (builder);
      add_string (builder, "ProjectionType",
                  index->projection == DYNO_PROJECTION_INCLUDE ? "INCLUDE"
                  : index->projection == DYNO_PROJECTION_KEYS_ONLY ? "KEYS_ONLY" : "ALL");
      if (index->projection == DYNO_PROJECTION_INCLUDE)
        add_string_list (builder, "NonKeyAttributes",
                         (const char * const *) index->non_key_attributes->pdata,
                         index->non_key_attributes->len);
      json_builder_end_object (builder);
      json_builder_end_object (builder);
    }
  if (any)
    json_builder_end_array (builder);
}

static void
add_capacity (JsonBuilder *builder,
              const char  *member,
              gint64       value)
{
  json_builder_set_member_name (builder, member);
  json_builder_add_int_value (builder, value >= 0 ? value : 0);
}

static void
add_table (JsonBuilder        *builder,
           DynoWorkbenchTable *table)
{
  DynoTableDesign *design = table->design;

  json_builder_begin_object (builder);
  add_string (builder, "TableName", dyno_table_design_get_table_name (design));
  add_key_attributes (builder,
                      dyno_table_design_get_partition_key_name (design),
                      dyno_table_design_get_partition_key_type (design),
                      dyno_table_design_get_sort_key_name (design),
                      dyno_table_design_get_sort_key_type (design));

  json_builder_set_member_name (builder, "NonKeyAttributes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < table->attributes->len; i++)
    {
      DynoWorkbenchAttribute *attribute = g_ptr_array_index (table->attributes, i);

      add_attribute (builder, NULL, attribute->name, attribute->type);
    }
  json_builder_end_array (builder);

  if (table->facets->len > 0)
    {
      json_builder_set_member_name (builder, "TableFacets");
      json_builder_begin_array (builder);
      for (guint i = 0; i < table->facets->len; i++)
        {
          DynoWorkbenchFacet *facet = g_ptr_array_index (table->facets, i);

          json_builder_begin_object (builder);
          add_string (builder, "FacetName", facet->name);
          json_builder_set_member_name (builder, "KeyAttributeAlias");
          json_builder_begin_object (builder);
          add_string (builder, "PartitionKeyAlias", facet->partition_key_alias);
          if (facet->sort_key_alias != NULL)
            add_string (builder, "SortKeyAlias", facet->sort_key_alias);
          json_builder_end_object (builder);
          add_items (builder, facet->items);
          add_string_list (builder, "NonKeyAttributes",
                           (const char * const *) facet->non_key_attributes,
                           g_strv_length (facet->non_key_attributes));
          json_builder_set_member_name (builder, "DataAccess");
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "MySql");
          json_builder_begin_object (builder);
          json_builder_end_object (builder);
          json_builder_end_object (builder);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }

  add_indexes (builder, design, TRUE);
  add_indexes (builder, design, FALSE);

  /* Workbench writes the table's own TableData even when the items are in facets */
  if (table->items->len > 0 || table->facets->len == 0)
    add_items (builder, table->items);

  json_builder_set_member_name (builder, "DataAccess");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "MySql");
  json_builder_begin_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  if (dyno_table_design_get_billing_mode (design) == DYNO_BILLING_PROVISIONED)
    {
      add_string (builder, "BillingMode", "PROVISIONED");
      json_builder_set_member_name (builder, "ProvisionedCapacitySettings");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "ProvisionedThroughput");
      json_builder_begin_object (builder);
      add_capacity (builder, "ReadCapacityUnits", dyno_table_design_get_read_capacity (design));
      add_capacity (builder, "WriteCapacityUnits",
                    dyno_table_design_get_write_capacity (design));
      json_builder_end_object (builder);
      json_builder_end_object (builder);
    }
  else
    add_string (builder, "BillingMode", "PAY_PER_REQUEST");
  json_builder_end_object (builder);
}

char *
dyno_workbench_model_to_json (const DynoWorkbenchModel *model,
                              GDateTime                *now)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *date = NULL;
  const DynoJsonLayout layout = { 2, 0 };
  GString *out;

  g_return_val_if_fail (model != NULL, NULL);
  g_return_val_if_fail (now != NULL, NULL);

  date = dyno_workbench_format_date (now);
  json_builder_begin_object (builder);
  add_string (builder, "ModelName", model->name);
  json_builder_set_member_name (builder, "ModelMetadata");
  json_builder_begin_object (builder);
  add_string (builder, "Author", model->author);
  add_string (builder, "DateCreated", model->date_created != NULL ? model->date_created : date);
  add_string (builder, "DateLastModified", date);
  add_string (builder, "Description", model->description);
  add_string (builder, "AWSService", "Amazon DynamoDB");
  add_string (builder, "Version", DYNO_WORKBENCH_MODEL_VERSION);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "DataModel");
  json_builder_begin_array (builder);
  for (guint i = 0; i < model->tables->len; i++)
    add_table (builder, g_ptr_array_index (model->tables, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  out = g_string_new (NULL);
  dyno_json_write_node_layout (out, root, &layout);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}
