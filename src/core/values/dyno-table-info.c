/* dyno-table-info.c: a table's schema, from a DescribeTable response
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-table-info.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"

struct _DynoTableInfo {
  gint             ref_count;
  char            *name;
  DynoKeyAttr      partition_key;
  DynoKeyAttr      sort_key;
  GHashTable      *attribute_types; /* name -> GINT_TO_POINTER (DynoValueType) */
  GPtrArray       *indexes;         /* DynoIndexInfo* */
  DynoBillingMode  billing_mode;
  gint64           read_capacity;
  gint64           write_capacity;
  gint64           item_count;
  gint64           size_bytes;
  char            *status;
};

G_DEFINE_BOXED_TYPE (DynoTableInfo, dyno_table_info, dyno_table_info_ref, dyno_table_info_unref)

static void
index_info_free (DynoIndexInfo *index)
{
  g_free (index->name);
  g_free (index->partition_key.name);
  g_free (index->sort_key.name);
  g_strfreev (index->non_key_attributes);
  g_free (index->status);
  g_free (index);
}

static DynoIndexInfo *
index_info_copy (const DynoIndexInfo *src)
{
  DynoIndexInfo *index = g_new0 (DynoIndexInfo, 1);

  *index = *src;
  index->name = g_strdup (src->name);
  index->partition_key.name = g_strdup (src->partition_key.name);
  index->sort_key.name = g_strdup (src->sort_key.name);
  index->non_key_attributes = g_strdupv (src->non_key_attributes);
  index->status = g_strdup (src->status);

  return index;
}

static DynoTableInfo *
table_info_alloc (void)
{
  DynoTableInfo *info = g_new0 (DynoTableInfo, 1);

  info->ref_count = 1;
  info->attribute_types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  info->indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) index_info_free);
  info->billing_mode = DYNO_BILLING_UNKNOWN;
  info->read_capacity = -1;
  info->write_capacity = -1;
  info->item_count = -1;
  info->size_bytes = -1;

  return info;
}

DynoTableInfo *
dyno_table_info_ref (DynoTableInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);

  g_atomic_int_inc (&info->ref_count);
  return info;
}

void
dyno_table_info_unref (DynoTableInfo *info)
{
  g_return_if_fail (info != NULL);

  if (!g_atomic_int_dec_and_test (&info->ref_count))
    return;

  g_free (info->name);
  g_free (info->partition_key.name);
  g_free (info->sort_key.name);
  g_hash_table_unref (info->attribute_types);
  g_ptr_array_unref (info->indexes);
  g_free (info->status);
  g_free (info);
}

static void
define_attribute (DynoTableInfo *info,
                  const char    *name,
                  DynoValueType  type)
{
  if (name != NULL && !g_hash_table_contains (info->attribute_types, name))
    g_hash_table_insert (info->attribute_types, g_strdup (name), GINT_TO_POINTER (type));
}

DynoTableInfo *
dyno_table_info_new (const char    *table_name,
                     const char    *partition_key_name,
                     DynoValueType  partition_key_type,
                     const char    *sort_key_name,
                     DynoValueType  sort_key_type)
{
  DynoTableInfo *info;

  g_return_val_if_fail (table_name != NULL, NULL);
  g_return_val_if_fail (partition_key_name != NULL, NULL);

  info = table_info_alloc ();
  info->name = g_strdup (table_name);
  info->partition_key.name = g_strdup (partition_key_name);
  info->partition_key.type = partition_key_type;
  info->sort_key.name = g_strdup (sort_key_name);
  info->sort_key.type = sort_key_type;
  define_attribute (info, partition_key_name, partition_key_type);
  define_attribute (info, sort_key_name, sort_key_type);

  return info;
}

void
dyno_table_info_add_index (DynoTableInfo       *info,
                           const DynoIndexInfo *index)
{
  g_return_if_fail (info != NULL);
  g_return_if_fail (index != NULL && index->name != NULL);
  g_return_if_fail (index->partition_key.name != NULL);

  define_attribute (info, index->partition_key.name, index->partition_key.type);
  define_attribute (info, index->sort_key.name, index->sort_key.type);
  g_ptr_array_add (info->indexes, index_info_copy (index));
}

/* Reading DescribeTable JSON */

static gboolean
fail (GError     **error,
      const char  *format,
      ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (GError     **error,
      const char  *format,
      ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
               _("Not a valid DescribeTable response: %s"), msg);
  return FALSE;
}

static gint64
get_int (JsonObject *obj,
         const char *member,
         gint64      fallback)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, member) : NULL;
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return fallback;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    return json_node_get_int (node);
  if (type == G_TYPE_DOUBLE)
    return (gint64) json_node_get_double (node);
  return fallback;
}

static JsonObject *
get_object (JsonObject *obj,
            const char *member)
{
  JsonNode *node = json_object_get_member (obj, member);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_node_get_object (node);
}

static JsonArray *
get_array (JsonObject *obj,
           const char *member)
{
  JsonNode *node = json_object_get_member (obj, member);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  return json_node_get_array (node);
}

/* KeySchema: [{"AttributeName":…,"KeyType":"HASH"|"RANGE"}] */
static gboolean
read_key_schema (DynoTableInfo  *info,
                 JsonObject     *obj,
                 const char     *owner,
                 DynoKeyAttr    *pk,
                 DynoKeyAttr    *sk,
                 GError        **error)
{
  JsonArray *schema = get_array (obj, "KeySchema");

  if (schema == NULL)
    return fail (error, _("%s has no KeySchema"), owner);

  for (guint i = 0; i < json_array_get_length (schema); i++)
    {
      JsonNode *node = json_array_get_element (schema, i);
      JsonObject *element;
      const char *name, *key_type;
      DynoKeyAttr *attr;
      gpointer type;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return fail (error, _("KeySchema of %s has an element that is not an object"), owner);
      element = json_node_get_object (node);
      name = dyno_json_object_peek_string (element, "AttributeName");
      key_type = dyno_json_object_peek_string (element, "KeyType");
      if (name == NULL || key_type == NULL)
        return fail (error, _("KeySchema of %s needs AttributeName and KeyType"), owner);

      if (strcmp (key_type, "HASH") == 0)
        attr = pk;
      else if (strcmp (key_type, "RANGE") == 0)
        attr = sk;
      else
        /* Translators: "the table" or "index “NAME”", then the key type found. */
        return fail (error, _("KeySchema of %s has the unknown KeyType \u201c%s\u201d"), owner,
                     key_type);

      if (attr->name != NULL)
        /* Translators: "the table" or "index “NAME”", then HASH or RANGE. */
        return fail (error, _("KeySchema of %s has more than one %s key"), owner, key_type);
      if (!g_hash_table_lookup_extended (info->attribute_types, name, NULL, &type))
        return fail (error, _("the key attribute \u201c%s\u201d of %s is not in "
                       "AttributeDefinitions"), name, owner);
      attr->name = g_strdup (name);
      attr->type = GPOINTER_TO_INT (type);
    }

  if (pk->name == NULL)
    return fail (error, _("KeySchema of %s has no HASH key"), owner);

  return TRUE;
}

static gboolean
read_indexes (DynoTableInfo  *info,
              JsonObject     *table,
              const char     *member,
              gboolean        global,
              GError        **error)
{
  JsonArray *array = get_array (table, member);

  if (array == NULL)
    return TRUE;

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *obj, *projection, *throughput;
      const char *name, *projection_type;
      g_autofree char *owner = NULL;
      DynoIndexInfo *index;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return fail (error, _("%s has an element that is not an object"), member);
      obj = json_node_get_object (node);
      name = dyno_json_object_peek_string (obj, "IndexName");
      if (name == NULL)
        return fail (error, _("an index in %s has no IndexName"), member);

      owner = g_strdup_printf (_("index \u201c%s\u201d"), name);
      index = g_new0 (DynoIndexInfo, 1);
      index->name = g_strdup (name);
      index->global = global;
      index->read_capacity = -1;
      index->write_capacity = -1;
      g_ptr_array_add (info->indexes, index);

      if (!read_key_schema (info, obj, owner, &index->partition_key, &index->sort_key, error))
        return FALSE;

      projection = get_object (obj, "Projection");
      projection_type = dyno_json_object_peek_string (projection, "ProjectionType");
      if (projection_type == NULL || strcmp (projection_type, "ALL") == 0)
        index->projection = DYNO_PROJECTION_ALL;
      else if (strcmp (projection_type, "KEYS_ONLY") == 0)
        index->projection = DYNO_PROJECTION_KEYS_ONLY;
      else if (strcmp (projection_type, "INCLUDE") == 0)
        {
          JsonArray *non_key = get_array (projection, "NonKeyAttributes");
          GPtrArray *names = g_ptr_array_new ();

          index->projection = DYNO_PROJECTION_INCLUDE;
          for (guint j = 0; non_key != NULL && j < json_array_get_length (non_key); j++)
            {
              JsonNode *n = json_array_get_element (non_key, j);

              if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
                g_ptr_array_add (names, g_strdup (json_node_get_string (n)));
            }
          g_ptr_array_add (names, NULL);
          index->non_key_attributes = (GStrv) g_ptr_array_free (names, FALSE);
        }
      else
        /* Translators: "index “NAME”", then the projection type found. */
        return fail (error, _("%s has the unknown ProjectionType \u201c%s\u201d"), owner,
                     projection_type);

      index->status = g_strdup (dyno_json_object_peek_string (obj, "IndexStatus"));
      throughput = get_object (obj, "ProvisionedThroughput");
      index->read_capacity = get_int (throughput, "ReadCapacityUnits", -1);
      index->write_capacity = get_int (throughput, "WriteCapacityUnits", -1);
    }

  return TRUE;
}

DynoTableInfo *
dyno_table_info_new_from_node (JsonNode  *node,
                               GError   **error)
{
  g_autoptr(DynoTableInfo) info = NULL;
  JsonObject *table, *inner, *billing, *throughput;
  JsonArray *defs;
  const char *name;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      fail (error, _("expected a JSON object"));
      return NULL;
    }
  table = json_node_get_object (node);
  inner = get_object (table, "Table");
  if (inner != NULL)
    table = inner;

  name = dyno_json_object_peek_string (table, "TableName");
  if (name == NULL)
    {
      fail (error, _("TableName is missing"));
      return NULL;
    }

  info = table_info_alloc ();
  info->name = g_strdup (name);

  defs = get_array (table, "AttributeDefinitions");
  if (defs == NULL)
    {
      fail (error, _("AttributeDefinitions is missing"));
      return NULL;
    }
  for (guint i = 0; i < json_array_get_length (defs); i++)
    {
      JsonNode *n = json_array_get_element (defs, i);
      JsonObject *def;
      const char *attr, *type_name;
      DynoValueType type;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        {
          fail (error, _("AttributeDefinitions has an element that is not an object"));
          return NULL;
        }
      def = json_node_get_object (n);
      attr = dyno_json_object_peek_string (def, "AttributeName");
      type_name = dyno_json_object_peek_string (def, "AttributeType");
      if (attr == NULL || type_name == NULL)
        {
          fail (error, _("AttributeDefinitions needs AttributeName and AttributeType"));
          return NULL;
        }
      if (!dyno_value_type_from_string (type_name, &type) ||
          (type != DYNO_VALUE_S && type != DYNO_VALUE_N && type != DYNO_VALUE_B))
        {
          fail (error, _("the attribute \u201c%s\u201d has the type \u201c%s\u201d; key "
                  "attributes must be S, N or B"), attr, type_name);
          return NULL;
        }
      define_attribute (info, attr, type);
    }

  if (!read_key_schema (info, table, _("the table"), &info->partition_key, &info->sort_key,
                        error) ||
      !read_indexes (info, table, "GlobalSecondaryIndexes", TRUE, error) ||
      !read_indexes (info, table, "LocalSecondaryIndexes", FALSE, error))
    return NULL;

  throughput = get_object (table, "ProvisionedThroughput");
  info->read_capacity = get_int (throughput, "ReadCapacityUnits", -1);
  info->write_capacity = get_int (throughput, "WriteCapacityUnits", -1);

  /* BillingModeSummary is absent for tables that were always provisioned. */
  billing = get_object (table, "BillingModeSummary");
  if (billing != NULL && g_strcmp0 (dyno_json_object_peek_string (billing, "BillingMode"),
                                    "PAY_PER_REQUEST") == 0)
    info->billing_mode = DYNO_BILLING_PAY_PER_REQUEST;
  else if (billing != NULL && g_strcmp0 (dyno_json_object_peek_string (billing, "BillingMode"),
                                         "PROVISIONED") == 0)
    info->billing_mode = DYNO_BILLING_PROVISIONED;
  else if (throughput != NULL)
    info->billing_mode = DYNO_BILLING_PROVISIONED;

  info->item_count = get_int (table, "ItemCount", -1);
  info->size_bytes = get_int (table, "TableSizeBytes", -1);
  info->status = g_strdup (dyno_json_object_peek_string (table, "TableStatus"));

  return g_steal_pointer (&info);
}

DynoTableInfo *
dyno_table_info_new_from_json (const char  *json,
                               gssize       len,
                               GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (json != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  root = dyno_json_parse (json, len, &local);
  if (root == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   _("The DescribeTable response is not valid JSON: %s"), local->message);
      return NULL;
    }

  return dyno_table_info_new_from_node (root, error);
}

/* Accessors */

const char *
dyno_table_info_get_name (const DynoTableInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);

  return info->name;
}

const DynoKeyAttr *
dyno_table_info_get_partition_key (const DynoTableInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);

  return &info->partition_key;
}

const DynoKeyAttr *
dyno_table_info_get_sort_key (const DynoTableInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);

  return &info->sort_key;
}

guint
dyno_table_info_get_n_indexes (const DynoTableInfo *info)
{
  g_return_val_if_fail (info != NULL, 0);

  return info->indexes->len;
}

const DynoIndexInfo *
dyno_table_info_get_index (const DynoTableInfo *info,
                           guint                i)
{
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (i < info->indexes->len, NULL);

  return g_ptr_array_index (info->indexes, i);
}

const DynoIndexInfo *
dyno_table_info_find_index (const DynoTableInfo *info,
                            const char          *name)
{
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < info->indexes->len; i++)
    {
      const DynoIndexInfo *index = g_ptr_array_index (info->indexes, i);

      if (strcmp (index->name, name) == 0)
        return index;
    }

  return NULL;
}

gboolean
dyno_table_info_lookup_attribute_type (const DynoTableInfo *info,
                                       const char          *name,
                                       DynoValueType       *out_type)
{
  gpointer type;

  g_return_val_if_fail (info != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!g_hash_table_lookup_extended (info->attribute_types, name, NULL, &type))
    return FALSE;
  if (out_type != NULL)
    *out_type = GPOINTER_TO_INT (type);
  return TRUE;
}

gboolean
dyno_table_info_is_key_attribute (const DynoTableInfo *info,
                                  const char          *name)
{
  g_return_val_if_fail (info != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (g_strcmp0 (info->partition_key.name, name) == 0 ||
      g_strcmp0 (info->sort_key.name, name) == 0)
    return TRUE;

  for (guint i = 0; i < info->indexes->len; i++)
    {
      const DynoIndexInfo *index = g_ptr_array_index (info->indexes, i);

      if (g_strcmp0 (index->partition_key.name, name) == 0 ||
          g_strcmp0 (index->sort_key.name, name) == 0)
        return TRUE;
    }

  return FALSE;
}

DynoBillingMode
dyno_table_info_get_billing_mode (const DynoTableInfo *info)
{
  g_return_val_if_fail (info != NULL, DYNO_BILLING_UNKNOWN);

  return info->billing_mode;
}

gint64
dyno_table_info_get_read_capacity (const DynoTableInfo *info)
{
  g_return_val_if_fail (info != NULL, -1);

  return info->read_capacity;
}

gint64
dyno_table_info_get_write_capacity (const DynoTableInfo *info)
{
  g_return_val_if_fail (info != NULL, -1);

  return info->write_capacity;
}

gint64
dyno_table_info_get_item_count (const DynoTableInfo *info)
{
  g_return_val_if_fail (info != NULL, -1);

  return info->item_count;
}

gint64
dyno_table_info_get_size_bytes (const DynoTableInfo *info)
{
  g_return_val_if_fail (info != NULL, -1);

  return info->size_bytes;
}

const char *
dyno_table_info_get_status (const DynoTableInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);

  return info->status;
}

char *
dyno_table_info_describe_keys (const DynoTableInfo *info,
                               const char          *index_name)
{
  const DynoKeyAttr *pk, *sk;

  g_return_val_if_fail (info != NULL, NULL);

  if (index_name != NULL)
    {
      const DynoIndexInfo *index = dyno_table_info_find_index (info, index_name);

      if (index == NULL)
        return NULL;
      pk = &index->partition_key;
      sk = &index->sort_key;
    }
  else
    {
      pk = &info->partition_key;
      sk = &info->sort_key;
    }

  if (sk->name == NULL)
    return g_strdup_printf ("%s %s", pk->name, dyno_value_type_to_string (pk->type));

  return g_strdup_printf ("%s %s \u00b7 %s %s",
                          pk->name, dyno_value_type_to_string (pk->type),
                          sk->name, dyno_value_type_to_string (sk->type));
}
