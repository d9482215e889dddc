/* dyno-engine-schema.c: table schemas (CreateTable's rules) and the key encoding
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-engine-private.h"
#include "dyno-json.h"

#define invalid(error, ...) \
  g_set_error (error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_VALIDATION, __VA_ARGS__)

static void
index_free (gpointer data)
{
  DynoEngineIndex *index = data;

  g_free (index->name);
  g_free (index->pk.name);
  g_free (index->sk.name);
  g_strfreev (index->non_key);
  g_free (index);
}

static void
key_free (gpointer data)
{
  DynoEngineKey *key = data;

  g_free (key->name);
  g_free (key);
}

void
dyno_engine_table_free (DynoEngineTable *table)
{
  if (table == NULL)
    return;
  g_free (table->name);
  g_free (table->pk.name);
  g_free (table->sk.name);
  g_ptr_array_unref (table->attributes);
  g_ptr_array_unref (table->indexes);
  g_free (table->ttl_attribute);
  g_free (table);
}

DynoEngineIndex *
dyno_engine_table_find_index (const DynoEngineTable *table,
                              const char            *name)
{
  for (guint i = 0; i < table->indexes->len; i++)
    {
      DynoEngineIndex *index = g_ptr_array_index (table->indexes, i);

      if (g_strcmp0 (index->name, name) == 0)
        return index;
    }
  return NULL;
}

static gboolean
check_name (const char *what,
            const char *name,
            GError    **error)
{
  gsize len = strlen (name);

  if (len < 3 || len > 255)
    {
      invalid (error, "1 validation error detected: Value '%s' at '%s' failed to satisfy "
               "constraint: Member must have length %s", name, what,
               len < 3 ? "greater than or equal to 3" : "less than or equal to 255");
      return FALSE;
    }
  for (const char *p = name; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '.' && *p != '-')
      {
        invalid (error, "1 validation error detected: Value '%s' at '%s' failed to satisfy "
                 "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
                 name, what);
        return FALSE;
      }
  return TRUE;
}

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static JsonObject *
member_object (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static gint64
member_int (JsonObject *object,
            const char *name,
            gint64      unset)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return unset;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return json_node_get_int (node);
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    return (gint64) json_node_get_double (node);
  return unset;
}

static gboolean
lookup_type (GPtrArray     *attributes,
             const char    *name,
             DynoValueType *out)
{
  for (guint i = 0; i < attributes->len; i++)
    {
      DynoEngineKey *key = g_ptr_array_index (attributes, i);

      if (strcmp (key->name, name) == 0)
        {
          *out = key->type;
          return TRUE;
        }
    }
  return FALSE;
}

static char *
attribute_names (GPtrArray *attributes)
{
  GString *out = g_string_new ("[");

  for (guint i = 0; i < attributes->len; i++)
    {
      DynoEngineKey *key = g_ptr_array_index (attributes, i);

      g_string_append_printf (out, "%s%s", i ? ", " : "", key->name);
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

/* KeySchema -> pk, sk; @used collects the names (for the AttributeDefinitions count). */
static gboolean
read_key_schema (JsonArray     *schema,
                 const char    *where,
                 GPtrArray     *attributes,
                 GHashTable    *used,
                 DynoEngineKey *pk,
                 DynoEngineKey *sk,
                 GError       **error)
{
  guint n;

  if (schema == NULL)
    {
      invalid (error, "1 validation error detected: Value null at '%s' failed to satisfy "
               "constraint: Member must not be null", where);
      return FALSE;
    }
  n = json_array_get_length (schema);
  if (n < 1 || n > 2)
    {
      invalid (error, "1 validation error detected: Value '[]' at '%s' failed to satisfy "
               "constraint: Member must have length %s", where,
               n < 1 ? "greater than or equal to 1" : "less than or equal to 2");
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (schema, i);
      JsonObject *element = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *name = member_string (element, "AttributeName");
      const char *type = member_string (element, "KeyType");
      DynoEngineKey *key = i == 0 ? pk : sk;
      DynoValueType value_type;

      if (name == NULL || type == NULL)
        {
          invalid (error, "1 validation error detected: Value null at '%s.%u.member.%s' "
                   "failed to satisfy constraint: Member must not be null", where, i + 1,
                   name == NULL ? "attributeName" : "keyType");
          return FALSE;
        }
      if (strcmp (type, "HASH") != 0 && strcmp (type, "RANGE") != 0)
        {
          invalid (error, "1 validation error detected: Value '%s' at '%s.%u.member.keyType' "
                   "failed to satisfy constraint: Member must satisfy enum value set: "
                   "[HASH, RANGE]", type, where, i + 1);
          return FALSE;
        }
      if (i == 0 && strcmp (type, "HASH") != 0)
        {
          invalid (error, "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
          return FALSE;
        }
      if (i == 1 && strcmp (type, "RANGE") != 0)
        {
          invalid (error, "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
          return FALSE;
        }
      if (i == 1 && strcmp (name, pk->name) == 0)
        {
          invalid (error, "Both the Hash Key and the Range Key element in the KeySchema have "
                   "the same name");
          return FALSE;
        }
      if (!lookup_type (attributes, name, &value_type))
        {
          g_autofree char *defined = attribute_names (attributes);

          invalid (error, "One or more parameter values were invalid: Some index key "
                   "attributes are not defined in AttributeDefinitions. Keys: [%s], "
                   "AttributeDefinitions: %s", name, defined);
          return FALSE;
        }
      key->name = g_strdup (name);
      key->type = value_type;
      g_hash_table_add (used, key->name);
    }
  return TRUE;
}

static gboolean
read_throughput (JsonObject *object,
                 gboolean    on_demand,
                 const char *index_name,
                 gint64     *rcu,
                 gint64     *wcu,
                 GError    **error)
{
  JsonObject *pt = member_object (object, "ProvisionedThroughput");

  *rcu = *wcu = 0;
  if (on_demand)
    {
      if (pt != NULL)
        {
          invalid (error, "One or more parameter values were invalid: Neither "
                   "ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode "
                   "is PAY_PER_REQUEST");
          return FALSE;
        }
      return TRUE;
    }
  if (pt == NULL)
    {
      if (index_name != NULL)
        invalid (error, "One or more parameter values were invalid: ProvisionedThroughput "
                 "must be specified for index: %s", index_name);
      else
        invalid (error, "One or more parameter values were invalid: ReadCapacityUnits and "
                 "WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
      return FALSE;
    }
  *rcu = member_int (pt, "ReadCapacityUnits", -1);
  *wcu = member_int (pt, "WriteCapacityUnits", -1);
  if (*rcu < 1 || *wcu < 1)
    {
      invalid (error, "1 validation error detected: Value '%" G_GINT64_FORMAT "' at "
               "'provisionedThroughput.%s' failed to satisfy constraint: Member must have "
               "value greater than or equal to 1", *rcu < 1 ? *rcu : *wcu,
               *rcu < 1 ? "readCapacityUnits" : "writeCapacityUnits");
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_projection (JsonObject      *object,
                 DynoEngineIndex *index,
                 GError         **error)
{
  JsonObject *projection = member_object (object, "Projection");
  const char *type = member_string (projection, "ProjectionType");
  JsonArray *non_key = member_array (projection, "NonKeyAttributes");

  if (projection == NULL)
    {
      invalid (error, "1 validation error detected: Value null at 'projection' failed to "
               "satisfy constraint: Member must not be null");
      return FALSE;
    }
  if (type == NULL || strcmp (type, "ALL") == 0)
    index->projection = DYNO_PROJECTION_ALL;
  else if (strcmp (type, "KEYS_ONLY") == 0)
    index->projection = DYNO_PROJECTION_KEYS_ONLY;
  else if (strcmp (type, "INCLUDE") == 0)
    index->projection = DYNO_PROJECTION_INCLUDE;
  else
    {
      invalid (error, "1 validation error detected: Value '%s' at 'projection.projectionType' "
               "failed to satisfy constraint: Member must satisfy enum value set: "
               "[ALL, INCLUDE, KEYS_ONLY]", type);
      return FALSE;
    }
  if (index->projection == DYNO_PROJECTION_INCLUDE && non_key == NULL)
    {
      invalid (error, "One or more parameter values were invalid: ProjectionType is INCLUDE, "
               "but NonKeyAttributes is not specified");
      return FALSE;
    }
  if (index->projection != DYNO_PROJECTION_INCLUDE && non_key != NULL)
    {
      invalid (error, "One or more parameter values were invalid: ProjectionType is %s, but "
               "NonKeyAttributes is specified", type ? type : "ALL");
      return FALSE;
    }
  if (non_key != NULL)
    {
      guint n = json_array_get_length (non_key);
      GPtrArray *names = g_ptr_array_new ();

      for (guint i = 0; i < n; i++)
        {
          JsonNode *node = json_array_get_element (non_key, i);

          if (json_node_get_value_type (node) == G_TYPE_STRING)
            g_ptr_array_add (names, g_strdup (json_node_get_string (node)));
        }
      g_ptr_array_add (names, NULL);
      index->non_key = (GStrv) g_ptr_array_free (names, FALSE);
    }
  return TRUE;
}

static gboolean
read_indexes (JsonArray       *array,
              gboolean         global,
              DynoEngineTable *table,
              GHashTable      *used,
              GError         **error)
{
  guint n = json_array_get_length (array);

  if (n == 0)
    {
      invalid (error, "1 validation error detected: Value '[]' at '%s' failed to satisfy "
               "constraint: Member must have length greater than or equal to 1",
               global ? "globalSecondaryIndexes" : "localSecondaryIndexes");
      return FALSE;
    }
  if (!global && table->sk.name == NULL)
    {
      invalid (error, "One or more parameter values were invalid: Table KeySchema does not "
               "have a range key, which is required when specifying a LocalSecondaryIndex");
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *name = member_string (object, "IndexName");
      DynoEngineIndex *index;

      if (name == NULL)
        {
          invalid (error, "1 validation error detected: Value null at 'indexName' failed to "
                   "satisfy constraint: Member must not be null");
          return FALSE;
        }
      if (!check_name ("indexName", name, error))
        return FALSE;
      if (dyno_engine_table_find_index (table, name) != NULL)
        {
          invalid (error, "One or more parameter values were invalid: Duplicate index name: %s",
                   name);
          return FALSE;
        }
      index = g_new0 (DynoEngineIndex, 1);
      index->name = g_strdup (name);
      index->global = global;
      index->id = table->indexes->len + 1;
      g_ptr_array_add (table->indexes, index);
      if (!read_key_schema (member_array (object, "KeySchema"), "keySchema", table->attributes,
                            used, &index->pk, &index->sk, error))
        return FALSE;
      if (!global && strcmp (index->pk.name, table->pk.name) != 0)
        {
          invalid (error, "One or more parameter values were invalid: Index KeySchema does not "
                   "have the same leading hash key as table KeySchema for index: %s. index "
                   "hash key: %s, table hash key: %s", name, index->pk.name, table->pk.name);
          return FALSE;
        }
      if (!global && index->sk.name == NULL)
        {
          invalid (error, "One or more parameter values were invalid: Index KeySchema does not "
                   "have a range key for index: %s", name);
          return FALSE;
        }
      if (!read_projection (object, index, error))
        return FALSE;
      if (global && !read_throughput (object, table->on_demand, name, &index->rcu, &index->wcu,
                                      error))
        return FALSE;
      if (!global && json_object_has_member (object, "ProvisionedThroughput"))
        {
          invalid (error, "One or more parameter values were invalid: ProvisionedThroughput "
                   "is not supported for local secondary indexes");
          return FALSE;
        }
    }
  return TRUE;
}

DynoEngineTable *
dyno_engine_table_from_json (JsonObject *request,
                             GError    **error)
{
  g_autoptr(GHashTable) used = g_hash_table_new (g_str_hash, g_str_equal);
  DynoEngineTable *table = g_new0 (DynoEngineTable, 1);
  const char *name = member_string (request, "TableName");
  const char *billing = member_string (request, "BillingMode");
  JsonArray *definitions = member_array (request, "AttributeDefinitions");
  JsonArray *gsis = member_array (request, "GlobalSecondaryIndexes");
  JsonArray *lsis = member_array (request, "LocalSecondaryIndexes");

  table->attributes = g_ptr_array_new_with_free_func (key_free);
  table->indexes = g_ptr_array_new_with_free_func (index_free);

  if (name == NULL)
    {
      invalid (error, "1 validation error detected: Value null at 'tableName' failed to "
               "satisfy constraint: Member must not be null");
      goto fail;
    }
  if (!check_name ("tableName", name, error))
    goto fail;
  table->name = g_strdup (name);
  if (definitions == NULL)
    {
      invalid (error, "1 validation error detected: Value null at 'attributeDefinitions' "
               "failed to satisfy constraint: Member must not be null");
      goto fail;
    }
  for (guint i = 0; i < json_array_get_length (definitions); i++)
    {
      JsonNode *node = json_array_get_element (definitions, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *attr = member_string (object, "AttributeName");
      const char *type = member_string (object, "AttributeType");
      DynoEngineKey *key;
      DynoValueType existing;

      if (attr == NULL || type == NULL)
        {
          invalid (error, "1 validation error detected: Value null at "
                   "'attributeDefinitions.%u.member.%s' failed to satisfy constraint: Member "
                   "must not be null", i + 1, attr == NULL ? "attributeName" : "attributeType");
          goto fail;
        }
      if (strcmp (type, "S") != 0 && strcmp (type, "N") != 0 && strcmp (type, "B") != 0)
        {
          invalid (error, "1 validation error detected: Value '%s' at "
                   "'attributeDefinitions.%u.member.attributeType' failed to satisfy "
                   "constraint: Member must satisfy enum value set: [B, N, S]", type, i + 1);
          goto fail;
        }
      if (lookup_type (table->attributes, attr, &existing))
        {
          invalid (error, "Cannot have two attributes with the same name");
          goto fail;
        }
      key = g_new0 (DynoEngineKey, 1);
      key->name = g_strdup (attr);
      dyno_value_type_from_string (type, &key->type);
      g_ptr_array_add (table->attributes, key);
    }
  if (!read_key_schema (member_array (request, "KeySchema"), "keySchema", table->attributes,
                        used, &table->pk, &table->sk, error))
    goto fail;
  if (billing == NULL || strcmp (billing, "PROVISIONED") == 0)
    table->on_demand = FALSE;
  else if (strcmp (billing, "PAY_PER_REQUEST") == 0)
    table->on_demand = TRUE;
  else
    {
      invalid (error, "1 validation error detected: Value '%s' at 'billingMode' failed to "
               "satisfy constraint: Member must satisfy enum value set: [PROVISIONED, "
               "PAY_PER_REQUEST]", billing);
      goto fail;
    }
  if (!read_throughput (request, table->on_demand, NULL, &table->rcu, &table->wcu, error))
    goto fail;
  if (gsis != NULL && !read_indexes (gsis, TRUE, table, used, error))
    goto fail;
  if (lsis != NULL && !read_indexes (lsis, FALSE, table, used, error))
    goto fail;
  if (g_hash_table_size (used) != table->attributes->len)
    {
      invalid (error, "One or more parameter values were invalid: Number of attributes in "
               "KeySchema does not exactly match number of attributes defined in "
               "AttributeDefinitions");
      goto fail;
    }
  return table;

fail:
  dyno_engine_table_free (table);
  return NULL;
}

static void
write_key_schema (GString             *out,
                  const DynoEngineKey *pk,
                  const DynoEngineKey *sk)
{
  g_string_append (out, "\"KeySchema\":[{\"AttributeName\":");
  dyno_json_write_string (out, pk->name, -1);
  g_string_append (out, ",\"KeyType\":\"HASH\"}");
  if (sk->name != NULL)
    {
      g_string_append (out, ",{\"AttributeName\":");
      dyno_json_write_string (out, sk->name, -1);
      g_string_append (out, ",\"KeyType\":\"RANGE\"}");
    }
  g_string_append_c (out, ']');
}

static void
write_throughput (GString *out,
                  gint64   rcu,
                  gint64   wcu)
{
  g_string_append_printf (out, "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":%"
                          G_GINT64_FORMAT ",\"WriteCapacityUnits\":%" G_GINT64_FORMAT "}",
                          rcu, wcu);
}

static void
write_indexes (GString               *out,
               const DynoEngineTable *table,
               gboolean               global)
{
  gboolean first = TRUE;

  for (guint i = 0; i < table->indexes->len; i++)
    {
      DynoEngineIndex *index = g_ptr_array_index (table->indexes, i);
      static const char * const projections[] = { "ALL", "KEYS_ONLY", "INCLUDE" };

      if (index->global != global)
        continue;
      g_string_append (out, first ? (global ? ",\"GlobalSecondaryIndexes\":["
                                            : ",\"LocalSecondaryIndexes\":[") : ",");
      first = FALSE;
      g_string_append (out, "{\"IndexName\":");
      dyno_json_write_string (out, index->name, -1);
      g_string_append_c (out, ',');
      write_key_schema (out, &index->pk, &index->sk);
      g_string_append_printf (out, ",\"Projection\":{\"ProjectionType\":\"%s\"",
                              projections[index->projection]);
      if (index->non_key != NULL)
        {
          g_string_append (out, ",\"NonKeyAttributes\":[");
          for (guint k = 0; index->non_key[k] != NULL; k++)
            {
              if (k > 0)
                g_string_append_c (out, ',');
              dyno_json_write_string (out, index->non_key[k], -1);
            }
          g_string_append_c (out, ']');
        }
      g_string_append_c (out, '}');
      if (global && !table->on_demand)
        {
          g_string_append_c (out, ',');
          write_throughput (out, index->rcu, index->wcu);
        }
      g_string_append_c (out, '}');
    }
  if (!first)
    g_string_append_c (out, ']');
}

void
dyno_engine_table_write_schema (const DynoEngineTable *table,
                                GString               *out)
{
  g_string_append (out, "{\"TableName\":");
  dyno_json_write_string (out, table->name, -1);
  g_string_append (out, ",\"AttributeDefinitions\":[");
  for (guint i = 0; i < table->attributes->len; i++)
    {
      DynoEngineKey *key = g_ptr_array_index (table->attributes, i);

      g_string_append (out, i ? ",{\"AttributeName\":" : "{\"AttributeName\":");
      dyno_json_write_string (out, key->name, -1);
      g_string_append_printf (out, ",\"AttributeType\":\"%s\"}",
                              dyno_value_type_to_string (key->type));
    }
  g_string_append (out, "],");
  write_key_schema (out, &table->pk, &table->sk);
  g_string_append_printf (out, ",\"BillingMode\":\"%s\"",
                          table->on_demand ? "PAY_PER_REQUEST" : "PROVISIONED");
  if (!table->on_demand)
    {
      g_string_append_c (out, ',');
      write_throughput (out, table->rcu, table->wcu);
    }
  write_indexes (out, table, TRUE);
  write_indexes (out, table, FALSE);
  g_string_append_c (out, '}');
}

/* ---- keys -------------------------------------------------------------------------------- */

/* N: 0x80 for zero; a positive number 0xC0, its exponent E (value = 0.d1d2… × 10^E) plus 129
 * in one byte, then its significant digits as bytes 1..10; a negative number 0x40, then the
 * same bytes complemented (255 - b) and a final 0xFF, so that a longer magnitude sorts first. */
static void
encode_number (const char *text,
               GByteArray *out)
{
  gboolean negative = text[0] == '-';
  const char *p = negative ? text + 1 : text;
  const char *dot = strchr (p, '.');
  gsize int_len = dot ? (gsize) (dot - p) : strlen (p);
  GString *digits = g_string_new (NULL);
  int exponent;
  gsize first = 0;
  guint8 b;

  for (const char *q = p; *q; q++)
    if (g_ascii_isdigit (*q))
      g_string_append_c (digits, *q);
  while (first < digits->len && digits->str[first] == '0')
    first++;
  if (first == digits->len)
    {
      b = 0x80;
      g_byte_array_append (out, &b, 1);
      g_string_free (digits, TRUE);
      return;
    }
  exponent = (int) int_len - (int) first;
  while (digits->len > first && digits->str[digits->len - 1] == '0')
    g_string_truncate (digits, digits->len - 1);

  b = negative ? 0x40 : 0xC0;
  g_byte_array_append (out, &b, 1);
  b = (guint8) CLAMP (exponent + 129, 0, 255);
  if (negative)
    b = 255 - b;
  g_byte_array_append (out, &b, 1);
  for (gsize i = first; i < digits->len; i++)
    {
      b = (guint8) (digits->str[i] - '0' + 1);
      if (negative)
        b = 255 - b;
      g_byte_array_append (out, &b, 1);
    }
  if (negative)
    {
      b = 0xFF;
      g_byte_array_append (out, &b, 1);
    }
  g_string_free (digits, TRUE);
}

void
dyno_engine_encode_key (const DynoValue *value,
                        GByteArray      *out)
{
  gsize len;

  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_S:
      {
        const char *s = dyno_value_get_string (value, &len);

        g_byte_array_append (out, (const guint8 *) s, len);
      }
      break;
    case DYNO_VALUE_B:
      {
        const guint8 *b = dyno_value_get_binary (value, &len);

        g_byte_array_append (out, b, len);
      }
      break;
    case DYNO_VALUE_N:
      encode_number (dyno_value_get_string (value, NULL), out);
      break;
    default:
      g_return_if_reached ();
    }
}

char *
dyno_engine_value_display (const DynoValue *value)
{
  DynoValueType kind = dyno_value_get_kind (value);

  if (kind == DYNO_VALUE_S || kind == DYNO_VALUE_N)
    return g_strdup_printf ("{%s:%s}", dyno_value_type_to_string (kind),
                            dyno_value_get_string (value, NULL));
  if (kind == DYNO_VALUE_B)
    {
      gsize len;
      const guint8 *data = dyno_value_get_binary (value, &len);
      g_autofree char *b64 = g_base64_encode (data, len);

      return g_strdup_printf ("{B:%s}", b64);
    }
  {
    g_autofree char *json = dyno_value_to_ddb_json (value);

    return g_strdup (json);
  }
}
