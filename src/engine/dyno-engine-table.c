/* dyno-engine-table.c: UpdateTable, DescribeTimeToLive, UpdateTimeToLive and TTL expiry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-engine-private.h"
#include "dyno-json.h"

#define fail(error, code, ...) \
  g_set_error (error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_##code, __VA_ARGS__)

/* DynamoDB's per-table limit of global secondary indexes. */
#define MAX_GSIS 20
/* DynamoDB's TTL ignores expiry times more than five years in the past. */
#define TTL_HORIZON ((gint64) 5 * 365 * 24 * 3600)

static JsonObject *
member_object (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* An integer member, or -1. */
static gint64
member_int (JsonObject *object,
            const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && json_node_get_value_type (node) == G_TYPE_INT64 ? json_node_get_int (node) : -1;
}

static gboolean
table_name_of (JsonObject  *request,
               const char **out,
               GError     **error)
{
  *out = object_string (request, "TableName");
  if (*out == NULL)
    {
      fail (error, VALIDATION, "1 validation error detected: Value null at 'tableName' failed "
            "to satisfy constraint: Member must not be null");
      return FALSE;
    }
  return TRUE;
}

static DynoEngineTable *
existing_table (DynoEngine *self,
                const char *name,
                GError    **error)
{
  DynoEngineTable *table = g_hash_table_lookup (self->tables, name);

  if (table == NULL)
    fail (error, RESOURCE_NOT_FOUND, "Requested resource not found: Table: %s not found", name);
  return table;
}

static gboolean
run (DynoEngine   *self,
     sqlite3_stmt *s,
     GError      **error)
{
  int rc = sqlite3_step (s);

  sqlite3_reset (s);
  return rc == SQLITE_DONE || sql_failed (self, error);
}

/* ---- settings ------------------------------------------------------------------------- */

/* What the schema does not hold: dyno_table_settings (table_id, ttl_attribute,
 * on_demand_since), one row per table that has either; the trigger drops a deleted table's. */
gboolean
dyno_engine_load_settings (DynoEngine *self,
                           GError    **error)
{
  sqlite3_stmt *s;
  int rc;

  if (sqlite3_exec (self->db,
                    "CREATE TABLE IF NOT EXISTS dyno_table_settings ("
                    "  table_id INTEGER PRIMARY KEY, ttl_attribute TEXT, on_demand_since REAL);"
                    "CREATE TRIGGER IF NOT EXISTS dyno_table_settings_dropped AFTER DELETE ON "
                    "  dyno_tables BEGIN "
                    "  DELETE FROM dyno_table_settings WHERE table_id = old.id; END;",
                    NULL, NULL, NULL) != SQLITE_OK)
    return sql_failed (self, error);
  s = stmt (self, "SELECT t.name, s.ttl_attribute, s.on_demand_since FROM "
            "dyno_table_settings s JOIN dyno_tables t ON t.id = s.table_id", error);
  if (s == NULL)
    return FALSE;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      DynoEngineTable *table = g_hash_table_lookup (self->tables, sqlite3_column_text (s, 0));

      if (table != NULL)
        {
          g_free (table->ttl_attribute);
          table->ttl_attribute = g_strdup ((const char *) sqlite3_column_text (s, 1));
          table->on_demand_since = sqlite3_column_double (s, 2);
        }
    }
  sqlite3_reset (s);
  return rc == SQLITE_DONE || sql_failed (self, error);
}

static gboolean
store_settings (DynoEngine            *self,
                const DynoEngineTable *table,
                GError               **error)
{
  sqlite3_stmt *s = stmt (self, "INSERT OR REPLACE INTO dyno_table_settings "
                          "(table_id, ttl_attribute, on_demand_since) VALUES (?1, ?2, ?3)",
                          error);

  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, table->id);
  if (table->ttl_attribute != NULL)
    sqlite3_bind_text (s, 2, table->ttl_attribute, -1, SQLITE_TRANSIENT);
  if (table->on_demand_since > 0)
    sqlite3_bind_double (s, 3, table->on_demand_since);
  return run (self, s, error);
}

/* ---- UpdateTable ------------------------------------------------------------------------- */

/* The GlobalSecondaryIndexes entry of @schema named @name, and its position. */
static JsonObject *
schema_gsi (JsonObject *schema,
            const char *name,
            guint      *position)
{
  JsonArray *gsis = member_array (schema, "GlobalSecondaryIndexes");

  for (guint i = 0; gsis && i < json_array_get_length (gsis); i++)
    {
      JsonObject *gsi = json_array_get_object_element (gsis, i);

      if (g_strcmp0 (object_string (gsi, "IndexName"), name) == 0)
        {
          if (position)
            *position = i;
          return gsi;
        }
    }
  return NULL;
}

static void
copy_member (JsonObject *to,
             JsonObject *from,
             const char *name)
{
  if (json_object_has_member (from, name))
    json_object_set_member (to, name, json_node_copy (json_object_get_member (from, name)));
}

/* The index updates: each names exactly one action, each index at most once, and at most one
 * index is created or deleted (DynamoDB's online index limit). */
static gboolean
check_index_updates (JsonArray *updates,
                     GError   **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  guint creates_deletes = 0;

  for (guint i = 0; updates && i < json_array_get_length (updates); i++)
    {
      JsonNode *node = json_array_get_element (updates, i);
      JsonObject *update = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      static const char * const actions[] = { "Create", "Update", "Delete" };
      JsonObject *action = NULL;
      const char *name;
      guint n = 0;

      for (guint a = 0; a < G_N_ELEMENTS (actions); a++)
        if (member_object (update, actions[a]) != NULL)
          {
            action = member_object (update, actions[a]);
            n++;
            if (a != 1)
              creates_deletes++;
          }
      if (n == 0)
        {
          fail (error, VALIDATION, "One or more parameter values were invalid: One of "
                "GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
                "GlobalSecondaryIndexUpdate.Delete must not be null");
          return FALSE;
        }
      if (n > 1)
        {
          fail (error, VALIDATION, "One or more parameter values were invalid: Only one of "
                "GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
                "GlobalSecondaryIndexUpdate.Delete can be specified");
          return FALSE;
        }
      name = object_string (action, "IndexName");
      if (name == NULL)
        {
          fail (error, VALIDATION, "1 validation error detected: Value null at "
                "'globalSecondaryIndexUpdates.%u.member.indexName' failed to satisfy "
                "constraint: Member must not be null", i + 1);
          return FALSE;
        }
      if (!g_hash_table_add (names, (gpointer) name))
        {
          fail (error, VALIDATION, "One or more parameter values were invalid: Only one global "
                "secondary index update per index is allowed simultaneously. Index: %s", name);
          return FALSE;
        }
    }
  if (creates_deletes > 1)
    {
      fail (error, LIMIT_EXCEEDED, "Subscriber limit exceeded: Only 1 online index can be "
            "created or deleted simultaneously per table");
      return FALSE;
    }
  return TRUE;
}

/* AttributeDefinitions of an UpdateTable: merged into @schema's (a type may not change);
 * @given collects the names the request defines. */
static gboolean
merge_definitions (JsonObject *schema,
                   JsonArray  *definitions,
                   GHashTable *given,
                   GError    **error)
{
  JsonArray *existing = member_array (schema, "AttributeDefinitions");

  for (guint i = 0; definitions && i < json_array_get_length (definitions); i++)
    {
      JsonNode *node = json_array_get_element (definitions, i);
      JsonObject *def = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *name = object_string (def, "AttributeName");
      const char *type = object_string (def, "AttributeType");
      gboolean found = FALSE;

      if (name == NULL || type == NULL)
        {
          fail (error, VALIDATION, "1 validation error detected: Value null at "
                "'attributeDefinitions.%u.member.%s' failed to satisfy constraint: Member "
                "must not be null", i + 1, name == NULL ? "attributeName" : "attributeType");
          return FALSE;
        }
      g_hash_table_add (given, (gpointer) name);
      for (guint k = 0; k < json_array_get_length (existing); k++)
        {
          JsonObject *old = json_array_get_object_element (existing, k);

          if (g_strcmp0 (object_string (old, "AttributeName"), name) != 0)
            continue;
          found = TRUE;
          if (g_strcmp0 (object_string (old, "AttributeType"), type) != 0)
            {
              fail (error, VALIDATION, "One or more parameter values were invalid: Attributes "
                    "cannot be redefined. Please check that your attribute has the same type as "
                    "previously defined. Attribute: %s, existing type: %s, new type: %s", name,
                    object_string (old, "AttributeType"), type);
              return FALSE;
            }
        }
      if (!found)
        json_array_add_element (existing, json_node_copy (node));
    }
  return TRUE;
}

/* "[a, b]": the names @definitions defines. */
static char *
definition_names (JsonArray *definitions)
{
  GString *out = g_string_new ("[");

  for (guint i = 0; definitions && i < json_array_get_length (definitions); i++)
    {
      JsonNode *node = json_array_get_element (definitions, i);
      const char *name = JSON_NODE_HOLDS_OBJECT (node)
                         ? object_string (json_node_get_object (node), "AttributeName") : NULL;

      g_string_append_printf (out, "%s%s", i ? ", " : "", name ? name : "");
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

static void
add_key_names (JsonArray  *key_schema,
               GHashTable *used)
{
  for (guint i = 0; key_schema && i < json_array_get_length (key_schema); i++)
    {
      JsonNode *node = json_array_get_element (key_schema, i);
      JsonObject *element = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *name = object_string (element, "AttributeName");

      if (name != NULL)
        g_hash_table_add (used, (gpointer) name);
    }
}

/* Drops the AttributeDefinitions no key uses any more (a deleted index's; DynamoDB also
 * ignores extra definitions in an UpdateTable). */
static void
prune_definitions (JsonObject *schema)
{
  g_autoptr(GHashTable) used = g_hash_table_new (g_str_hash, g_str_equal);
  JsonArray *existing = member_array (schema, "AttributeDefinitions");
  JsonArray *kept = json_array_new ();

  add_key_names (member_array (schema, "KeySchema"), used);
  for (int global = 1; global >= 0; global--)
    {
      JsonArray *indexes = member_array (schema, global ? "GlobalSecondaryIndexes"
                                                        : "LocalSecondaryIndexes");

      for (guint i = 0; indexes && i < json_array_get_length (indexes); i++)
        add_key_names (member_array (json_array_get_object_element (indexes, i), "KeySchema"),
                       used);
    }
  for (guint i = 0; i < json_array_get_length (existing); i++)
    {
      JsonNode *node = json_array_get_element (existing, i);

      if (g_hash_table_contains (used, object_string (json_node_get_object (node),
                                                      "AttributeName")))
        json_array_add_element (kept, json_node_copy (node));
    }
  json_object_set_array_member (schema, "AttributeDefinitions", kept);
}

/* Applies the request to @schema (the table's CreateTable members); the result is then
 * checked by CreateTable's rules.  *@created and *@deleted name the index created or
 * deleted, if any. */
static gboolean
apply_update (const DynoEngineTable *table,
              JsonObject            *request,
              JsonObject            *schema,
              const char           **created,
              const char           **deleted,
              GError               **error)
{
  const char *billing = object_string (request, "BillingMode");
  JsonObject *pt = member_object (request, "ProvisionedThroughput");
  JsonArray *updates = member_array (request, "GlobalSecondaryIndexUpdates");
  g_autoptr(GHashTable) given = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean on_demand = table->on_demand;

  *created = *deleted = NULL;
  if (billing == NULL && pt == NULL && (updates == NULL || json_array_get_length (updates) == 0))
    {
      fail (error, VALIDATION, "At least one of ProvisionedThroughput, BillingMode, "
            "UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or "
            "ReplicaUpdates is required");
      return FALSE;
    }
  if (!check_index_updates (updates, error))
    return FALSE;

  if (billing != NULL)
    {
      if (strcmp (billing, "PAY_PER_REQUEST") != 0 && strcmp (billing, "PROVISIONED") != 0)
        {
          fail (error, VALIDATION, "1 validation error detected: Value '%s' at 'billingMode' "
                "failed to satisfy constraint: Member must satisfy enum value set: "
                "[PROVISIONED, PAY_PER_REQUEST]", billing);
          return FALSE;
        }
      on_demand = strcmp (billing, "PAY_PER_REQUEST") == 0;
      if (!on_demand && table->on_demand && pt == NULL)
        {
          fail (error, VALIDATION, "No provisioned throughput specified for the table");
          return FALSE;
        }
      json_object_set_string_member (schema, "BillingMode", billing);
      if (on_demand)
        {
          /* on demand: no throughput, neither the table's nor its indexes' */
          JsonArray *gsis = member_array (schema, "GlobalSecondaryIndexes");

          json_object_remove_member (schema, "ProvisionedThroughput");
          for (guint i = 0; gsis && i < json_array_get_length (gsis); i++)
            json_object_remove_member (json_array_get_object_element (gsis, i),
                                       "ProvisionedThroughput");
        }
    }
  if (pt != NULL)
    {
      if (!on_demand && !table->on_demand && billing == NULL
          && member_int (pt, "ReadCapacityUnits") == table->rcu
          && member_int (pt, "WriteCapacityUnits") == table->wcu
          && (updates == NULL || json_array_get_length (updates) == 0))
        {
          fail (error, VALIDATION, "The provisioned throughput for the table will not change. "
                "The requested value equals the current value. Current ReadCapacityUnits "
                "provisioned for the table: %" G_GINT64_FORMAT ". Requested ReadCapacityUnits: "
                "%" G_GINT64_FORMAT ". Current WriteCapacityUnits provisioned for the table: %"
                G_GINT64_FORMAT ". Requested WriteCapacityUnits: %" G_GINT64_FORMAT ". Refer to "
                "the Amazon DynamoDB Developer Guide for current limits and how to request "
                "higher limits.", table->rcu, table->rcu, table->wcu, table->wcu);
          return FALSE;
        }
      copy_member (schema, request, "ProvisionedThroughput");
    }
  if (!merge_definitions (schema, member_array (request, "AttributeDefinitions"), given, error))
    return FALSE;

  for (guint i = 0; updates && i < json_array_get_length (updates); i++)
    {
      JsonObject *update = json_array_get_object_element (updates, i);
      JsonObject *action;
      const char *name;
      const DynoEngineIndex *index;
      guint position = 0;

      if ((action = member_object (update, "Delete")) != NULL)
        {
          JsonArray *gsis = member_array (schema, "GlobalSecondaryIndexes");

          name = object_string (action, "IndexName");
          index = dyno_engine_table_find_index (table, name);
          if (index != NULL && !index->global)
            {
              fail (error, VALIDATION, "One or more parameter values were invalid: %s is a "
                    "local secondary index; only global secondary indexes can be deleted",
                    name);
              return FALSE;
            }
          if (index == NULL || schema_gsi (schema, name, &position) == NULL)
            {
              fail (error, RESOURCE_NOT_FOUND, "Requested resource not found: Requested index "
                    "%s does not exist", name);
              return FALSE;
            }
          json_array_remove_element (gsis, position);
          if (json_array_get_length (gsis) == 0)
            json_object_remove_member (schema, "GlobalSecondaryIndexes");
          *deleted = name;
        }
      else if ((action = member_object (update, "Update")) != NULL)
        {
          JsonObject *gsi;

          name = object_string (action, "IndexName");
          gsi = schema_gsi (schema, name, NULL);
          if (gsi == NULL)
            {
              fail (error, RESOURCE_NOT_FOUND, "Requested resource not found: Requested index "
                    "%s does not exist", name);
              return FALSE;
            }
          if (member_object (action, "ProvisionedThroughput") == NULL)
            {
              fail (error, VALIDATION, "1 validation error detected: Value null at "
                    "'globalSecondaryIndexUpdates.%u.member.update.provisionedThroughput' "
                    "failed to satisfy constraint: Member must not be null", i + 1);
              return FALSE;
            }
          copy_member (gsi, action, "ProvisionedThroughput");
        }
      else
        {
          JsonArray *gsis = member_array (schema, "GlobalSecondaryIndexes");
          JsonArray *keys;
          JsonObject *entry;

          action = member_object (update, "Create");
          name = object_string (action, "IndexName");
          if (dyno_engine_table_find_index (table, name) != NULL)
            {
              fail (error, VALIDATION, "Attempting to create an index which already exists");
              return FALSE;
            }
          if (gsis != NULL && json_array_get_length (gsis) >= MAX_GSIS)
            {
              fail (error, VALIDATION, "One or more parameter values were invalid: "
                    "GlobalSecondaryIndex count exceeds the per-table limit of %d", MAX_GSIS);
              return FALSE;
            }
          /* the new index's key attributes must be defined in this request, even those the
           * table already defines */
          keys = member_array (action, "KeySchema");
          for (guint k = 0; keys && k < json_array_get_length (keys); k++)
            {
              JsonNode *kn = json_array_get_element (keys, k);
              const char *key = JSON_NODE_HOLDS_OBJECT (kn)
                                ? object_string (json_node_get_object (kn), "AttributeName")
                                : NULL;

              if (key != NULL && !g_hash_table_contains (given, key))
                {
                  g_autofree char *defined = definition_names (member_array (request,
                                                               "AttributeDefinitions"));

                  fail (error, VALIDATION, "One or more parameter values were invalid: Some "
                        "index key attributes are not defined in AttributeDefinitions. Keys: "
                        "[%s], AttributeDefinitions: %s", key, defined);
                  return FALSE;
                }
            }
          entry = json_object_new ();
          json_object_set_string_member (entry, "IndexName", name);
          copy_member (entry, action, "KeySchema");
          copy_member (entry, action, "Projection");
          copy_member (entry, action, "ProvisionedThroughput");
          if (gsis == NULL)
            {
              gsis = json_array_new ();
              json_object_set_array_member (schema, "GlobalSecondaryIndexes", gsis);
            }
          json_array_add_object_element (gsis, entry);
          *created = name;
        }
    }
  prune_definitions (schema);
  return TRUE;
}

/* Moves the rows of the kept indexes to their new index_id (an index's id is its position in
 * the schema, which a created or deleted GSI shifts): through negative ids, so that no two
 * indexes' rows meet on the primary key. */
static gboolean
renumber_indexes (DynoEngine            *self,
                  const DynoEngineTable *old,
                  const DynoEngineTable *new,
                  GError               **error)
{
  gboolean moved = FALSE;
  sqlite3_stmt *s;

  for (guint i = 0; i < new->indexes->len; i++)
    {
      DynoEngineIndex *index = g_ptr_array_index (new->indexes, i);
      DynoEngineIndex *before = dyno_engine_table_find_index (old, index->name);

      if (before == NULL || before->id == index->id)
        continue;
      s = stmt (self, "UPDATE dyno_items SET index_id = ?3 WHERE table_id = ?1 AND "
                "index_id = ?2", error);
      if (s == NULL)
        return FALSE;
      sqlite3_bind_int64 (s, 1, old->id);
      sqlite3_bind_int64 (s, 2, before->id);
      sqlite3_bind_int64 (s, 3, -(gint64) index->id);
      if (!run (self, s, error))
        return FALSE;
      moved = TRUE;
    }
  if (!moved)
    return TRUE;
  s = stmt (self, "UPDATE dyno_items SET index_id = -index_id WHERE table_id = ?1 AND "
            "index_id < 0", error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, old->id);
  return run (self, s, error);
}

static gboolean
drop_index_rows (DynoEngine            *self,
                 const DynoEngineTable *table,
                 guint                  index_id,
                 GError               **error)
{
  sqlite3_stmt *s = stmt (self, "DELETE FROM dyno_items WHERE table_id = ?1 AND index_id = ?2",
                          error);

  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, table->id);
  sqlite3_bind_int64 (s, 2, index_id);
  return run (self, s, error);
}

/* Can @item's value of @key be an index key?  DynamoDB's backfill skips (and counts as
 * violations) items whose index key has another type, is empty or is too long. */
static gboolean
indexable (const DynoItem      *item,
           const DynoEngineKey *key,
           gboolean             hash)
{
  const DynoValue *value;

  if (key->name == NULL)
    return TRUE;
  value = dyno_item_lookup (item, key->name);
  return value != NULL && dyno_value_get_kind (value) == key->type && !value_is_empty (value)
         && check_key_size (value, hash, NULL);
}

/* Fills the new index @index of @table from the table's items (synchronously: DynamoDB builds
 * it in the background, the index CREATING meanwhile). */
static gboolean
backfill (DynoEngine            *self,
          const DynoEngineTable *table,
          const DynoEngineIndex *index,
          GError               **error)
{
  sqlite3_stmt *s = stmt (self, "SELECT item FROM dyno_items WHERE table_id = ?1 AND "
                          "index_id = 0", error);
  int rc;

  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, table->id);
  /* the rows written are outside the range read (index_id 0), so the read is not disturbed */
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      g_autoptr(DynoItem) item = row_item (s, 0, error);
      g_autoptr(DynoItem) entry = NULL;
      g_autoptr(GByteArray) pk = NULL;
      g_autoptr(GByteArray) sk = NULL;
      g_autoptr(GByteArray) tk = NULL;

      if (item == NULL)
        {
          sqlite3_reset (s);
          return FALSE;
        }
      if (!indexable (item, &index->pk, TRUE) || !indexable (item, &index->sk, FALSE))
        continue;
      entry = index_entry (table, index, item);
      pk = g_byte_array_new ();
      sk = g_byte_array_new ();
      encode_opt (entry, index->pk.name, pk);
      encode_opt (entry, index->sk.name, sk);
      tk = table_tk (table, item);
      if (!put_row (self, table->id, index->id, pk, sk, tk, entry, dyno_item_get_size (entry),
                    error))
        {
          sqlite3_reset (s);
          return FALSE;
        }
    }
  sqlite3_reset (s);
  return rc == SQLITE_DONE || sql_failed (self, error);
}

/* The GlobalSecondaryIndexes entry named @name of @table's description, as it is now. */
static JsonNode *
described_index (DynoEngine            *self,
                 const DynoEngineTable *table,
                 const char            *name)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;
  JsonArray *gsis;

  write_description (self, table, "ACTIVE", text);
  node = dyno_json_parse (text->str, text->len, NULL);
  gsis = member_array (json_node_get_object (node), "GlobalSecondaryIndexes");
  for (guint i = 0; gsis && i < json_array_get_length (gsis); i++)
    {
      JsonObject *gsi = json_array_get_object_element (gsis, i);

      if (g_strcmp0 (object_string (gsi, "IndexName"), name) == 0)
        return json_node_copy (json_array_get_element (gsis, i));
    }
  return NULL;
}

static gboolean
store_schema (DynoEngine            *self,
              const DynoEngineTable *table,
              GError               **error)
{
  g_autoptr(GString) schema = g_string_new (NULL);
  sqlite3_stmt *s = stmt (self, "UPDATE dyno_tables SET schema = ?2 WHERE id = ?1", error);

  if (s == NULL)
    return FALSE;
  dyno_engine_table_write_schema (table, schema);
  sqlite3_bind_int64 (s, 1, table->id);
  sqlite3_bind_text (s, 2, schema->str, schema->len, SQLITE_TRANSIENT);
  return run (self, s, error);
}

char *
dyno_engine_op_update_table (DynoEngine *self,
                             const char *body,
                             gssize      len,
                             GError    **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) schema_node = NULL;
  g_autoptr(GString) schema_text = g_string_new (NULL);
  JsonObject *request = parse_object (body, len, &node, error);
  JsonObject *schema;
  DynoEngineTable *table, *updated;
  const char *name, *created, *deleted;
  g_autoptr(JsonNode) deleting = NULL;
  GError *local = NULL;
  GString *out;

  if (request == NULL || !table_name_of (request, &name, error)
      || (table = existing_table (self, name, error)) == NULL)
    return NULL;
  dyno_engine_table_write_schema (table, schema_text);
  schema_node = dyno_json_parse (schema_text->str, schema_text->len, NULL);
  schema = json_node_get_object (schema_node);
  if (!apply_update (table, request, schema, &created, &deleted, error))
    return NULL;
  updated = dyno_engine_table_from_json (schema, error);
  if (updated == NULL)
    return NULL;
  updated->id = table->id;
  updated->created = table->created;
  updated->item_count = table->item_count;
  updated->size_bytes = table->size_bytes;
  updated->ttl_attribute = g_strdup (table->ttl_attribute);
  /* BillingModeSummary: shown once a table has been on demand, with the last time it became
   * so */
  if (updated->on_demand && !table->on_demand)
    updated->on_demand_since = g_get_real_time () / 1e6;
  else if (!updated->on_demand && table->on_demand && table->on_demand_since == 0)
    updated->on_demand_since = table->created;
  else
    updated->on_demand_since = table->on_demand_since;

  /* DynamoDB's answer still lists a deleted index, DELETING */
  if (deleted != NULL)
    deleting = described_index (self, table, deleted);
  if (!begin (self, &local))
    goto failed;
  if (deleted != NULL
      && !drop_index_rows (self, table, dyno_engine_table_find_index (table, deleted)->id,
                           &local))
    goto rolled;
  if (!renumber_indexes (self, table, updated, &local))
    goto rolled;
  if (created != NULL
      && !backfill (self, updated, dyno_engine_table_find_index (updated, created), &local))
    goto rolled;
  if (!store_schema (self, updated, &local)
      || (updated->on_demand_since != table->on_demand_since
          && !store_settings (self, updated, &local)))
    goto rolled;
  if (!commit (self, &local))
    goto failed;
  /* frees the old table */
  g_hash_table_replace (self->tables, updated->name, updated);

  /* DynamoDB answers UPDATING, and a new index is CREATING until its backfill ends; here the
   * backfill is done within the request, so everything is ACTIVE at once. */
  out = g_string_new ("{\"TableDescription\":");
  if (deleting == NULL)
    write_description (self, updated, "ACTIVE", out);
  else
    {
      g_autoptr(GString) text = g_string_new (NULL);
      g_autoptr(JsonNode) description = NULL;
      JsonObject *object;
      JsonArray *gsis;

      write_description (self, updated, "ACTIVE", text);
      description = dyno_json_parse (text->str, text->len, NULL);
      object = json_node_get_object (description);
      gsis = member_array (object, "GlobalSecondaryIndexes");
      if (gsis == NULL)
        {
          gsis = json_array_new ();
          json_object_set_array_member (object, "GlobalSecondaryIndexes", gsis);
        }
      json_object_set_string_member (json_node_get_object (deleting), "IndexStatus",
                                     "DELETING");
      json_array_add_element (gsis, g_steal_pointer (&deleting));
      dyno_json_write_node (out, description, FALSE);
    }
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);

rolled:
  rollback (self);
failed:
  dyno_engine_table_free (updated);
  g_propagate_error (error, local);
  return NULL;
}

/* ---- Time to Live ------------------------------------------------------------------------ */

char *
dyno_engine_op_describe_time_to_live (DynoEngine *self,
                                      const char *body,
                                      gssize      len,
                                      GError    **error)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *request = parse_object (body, len, &node, error);
  DynoEngineTable *table;
  const char *name;
  GString *out;

  if (request == NULL || !table_name_of (request, &name, error)
      || (table = existing_table (self, name, error)) == NULL)
    return NULL;
  out = g_string_new ("{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":");
  if (table->ttl_attribute == NULL)
    g_string_append (out, "\"DISABLED\"");
  else
    {
      g_string_append (out, "\"ENABLED\",\"AttributeName\":");
      dyno_json_write_string (out, table->ttl_attribute, -1);
    }
  g_string_append (out, "}}");
  return g_string_free (out, FALSE);
}

char *
dyno_engine_op_update_time_to_live (DynoEngine *self,
                                    const char *body,
                                    gssize      len,
                                    GError    **error)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *request = parse_object (body, len, &node, error);
  JsonObject *spec;
  JsonNode *enabled_node;
  DynoEngineTable *table;
  const char *name, *attribute;
  gboolean enabled, ok;
  GString *out;

  if (request == NULL || !table_name_of (request, &name, error))
    return NULL;
  spec = member_object (request, "TimeToLiveSpecification");
  if (spec == NULL)
    {
      fail (error, VALIDATION, "1 validation error detected: Value null at "
            "'timeToLiveSpecification' failed to satisfy constraint: Member must not be null");
      return NULL;
    }
  enabled_node = json_object_get_member (spec, "Enabled");
  attribute = object_string (spec, "AttributeName");
  if (enabled_node == NULL || json_node_get_value_type (enabled_node) != G_TYPE_BOOLEAN
      || attribute == NULL)
    {
      fail (error, VALIDATION, "1 validation error detected: Value null at "
            "'timeToLiveSpecification.%s' failed to satisfy constraint: Member must not be null",
            attribute == NULL ? "attributeName" : "enabled");
      return NULL;
    }
  if (strlen (attribute) < 1 || strlen (attribute) > 255)
    {
      fail (error, VALIDATION, "1 validation error detected: Value '%s' at "
            "'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must "
            "have length %s", attribute, *attribute ? "less than or equal to 255"
                                                    : "greater than or equal to 1");
      return NULL;
    }
  if ((table = existing_table (self, name, error)) == NULL)
    return NULL;
  enabled = json_node_get_boolean (enabled_node);
  if (enabled && table->ttl_attribute != NULL)
    {
      fail (error, VALIDATION, "TimeToLive is already enabled");
      return NULL;
    }
  if (!enabled && table->ttl_attribute == NULL)
    {
      fail (error, VALIDATION, "TimeToLive is already disabled");
      return NULL;
    }
  if (!enabled && strcmp (table->ttl_attribute, attribute) != 0)
    {
      fail (error, VALIDATION, "TimeToLive is active on a different AttributeName");
      return NULL;
    }
  {
    g_autofree char *before = g_steal_pointer (&table->ttl_attribute);

    table->ttl_attribute = enabled ? g_strdup (attribute) : NULL;
    if (!begin (self, error))
      ok = FALSE;
    else if (!store_settings (self, table, error))
      {
        rollback (self);
        ok = FALSE;
      }
    else
      ok = commit (self, error);
    if (!ok)
      {
        g_free (table->ttl_attribute);
        table->ttl_attribute = g_steal_pointer (&before);
        return NULL;
      }
  }

  out = g_string_new ("{\"TimeToLiveSpecification\":{\"Enabled\":");
  g_string_append (out, enabled ? "true" : "false");
  g_string_append (out, ",\"AttributeName\":");
  dyno_json_write_string (out, attribute, -1);
  g_string_append (out, "}}");
  return g_string_free (out, FALSE);
}

/* ---- expiry ------------------------------------------------------------------------------ *
 *
 * DynamoDB deletes expired items in the background, typically within a few days, and until
 * then they still show in reads.  A prototype expects them gone when they expire, so here an
 * item past its TTL reads as absent at once (GetItem, Query, Scan, BatchGetItem, conditions)
 * and is deleted, with its index rows, by the request that finds it. */

typedef struct {
  char     *table;
  DynoItem *key;
} DynoEngineExpired;

static void
expired_free (gpointer data)
{
  DynoEngineExpired *expired = data;

  g_free (expired->table);
  dyno_item_unref (expired->key);
  g_free (expired);
}

gboolean
dyno_engine_item_expired (const DynoEngineTable *table,
                          const DynoItem        *item)
{
  const DynoValue *value;
  gint64 now;
  double when;

  if (table->ttl_attribute == NULL)
    return FALSE;
  value = dyno_item_lookup (item, table->ttl_attribute);
  if (value == NULL || dyno_value_get_kind (value) != DYNO_VALUE_N)
    return FALSE;
  now = g_get_real_time () / G_USEC_PER_SEC;
  when = g_ascii_strtod (dyno_value_get_string (value, NULL), NULL);
  return when < (double) now && when >= (double) (now - TTL_HORIZON);
}

void
dyno_engine_expire (DynoEngine      *self,
                    DynoEngineTable *table,
                    const DynoItem  *item)
{
  DynoEngineExpired *expired = g_new0 (DynoEngineExpired, 1);

  expired->table = g_strdup (table->name);
  expired->key = table_key_of (table, item);
  if (self->expired == NULL)
    self->expired = g_ptr_array_new_with_free_func (expired_free);
  g_ptr_array_add (self->expired, expired);
  /* A write is under way (its transaction is open): it must find the item gone.  If that
   * write is rolled back, the deletion is too, and dyno_engine_flush_expired() redoes it. */
  if (!sqlite3_get_autocommit (self->db))
    store_item (self, table, item, NULL, NULL, NULL);
}

gboolean
dyno_engine_row_expired (DynoEngine            *self,
                         DynoEngineTable       *table,
                         const DynoEngineIndex *index,
                         const DynoItem        *row)
{
  g_autoptr(DynoItem) key = NULL;
  g_autoptr(DynoItem) item = NULL;
  gboolean projected;

  if (table->ttl_attribute == NULL)
    return FALSE;
  projected = index == NULL || index->projection == DYNO_PROJECTION_ALL
              || g_strcmp0 (index->pk.name, table->ttl_attribute) == 0
              || g_strcmp0 (index->sk.name, table->ttl_attribute) == 0
              || g_strcmp0 (table->pk.name, table->ttl_attribute) == 0
              || g_strcmp0 (table->sk.name, table->ttl_attribute) == 0
              || (index->non_key != NULL
                  && g_strv_contains ((const char * const *) index->non_key,
                                      table->ttl_attribute));
  if (projected && !dyno_engine_item_expired (table, row))
    return FALSE;
  if (index == NULL)
    {
      dyno_engine_expire (self, table, row);
      return TRUE;
    }
  /* an index row may hold part of the item only: the table's item tells (when the index does
   * not carry the TTL attribute) and is what load_item expires */
  key = table_key_of (table, row);
  item = load_item (self, table, key, NULL);
  return item == NULL;
}

void
dyno_engine_flush_expired (DynoEngine *self)
{
  g_autoptr(GPtrArray) pending = g_steal_pointer (&self->expired);
  g_autoptr(GError) error = NULL;

  if (pending == NULL || pending->len == 0 || !sqlite3_get_autocommit (self->db))
    return;
  if (!begin (self, &error))
    {
      g_debug ("Expired items not deleted: %s", error->message);
      return;
    }
  for (guint i = 0; i < pending->len; i++)
    {
      DynoEngineExpired *expired = g_ptr_array_index (pending, i);
      DynoEngineTable *table = g_hash_table_lookup (self->tables, expired->table);
      g_autoptr(DynoItem) item = NULL;

      /* load_item deletes it, the transaction being open, if it is still there and expired */
      if (table != NULL)
        item = load_item (self, table, expired->key, &error);
      if (error != NULL)
        break;
    }
  if (error != NULL)
    {
      g_debug ("Expired items not deleted: %s", error->message);
      rollback (self);
    }
  else if (!commit (self, &error))
    g_debug ("Expired items not deleted: %s", error->message);
  /* what load_item noted again while deleting is done */
  g_clear_pointer (&self->expired, g_ptr_array_unref);
}
