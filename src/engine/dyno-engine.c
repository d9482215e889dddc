/* dyno-engine.c: an embedded DynamoDB on SQLite
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <unistd.h>
#include <string.h>

#include "dyno-engine.h"
#include "dyno-engine-private.h"
#include "dyno-eval.h"
#include "dyno-json.h"
#include "dyno-request.h"

#define FORMAT_VERSION "1"

G_DEFINE_FINAL_TYPE (DynoEngine, dyno_engine, G_TYPE_OBJECT)

#define fail(error, code, ...) \
  g_set_error (error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_##code, __VA_ARGS__)

static void
stmt_finalize (gpointer data)
{
  sqlite3_finalize (data);
}

static void
dyno_engine_finalize (GObject *object)
{
  DynoEngine *self = DYNO_ENGINE (object);

  g_clear_pointer (&self->statements, g_hash_table_unref);
  g_clear_pointer (&self->expired, g_ptr_array_unref);
  g_clear_pointer (&self->tables, g_hash_table_unref);
  g_clear_pointer (&self->error_members, g_free);
  g_clear_pointer (&self->tokens, g_hash_table_unref);
  /* the checkpoint thread's connection first: the last one to close checkpoints and removes
   * the WAL */
  dyno_engine_wal_stop (self);
  if (self->db != NULL)
    sqlite3_close (self->db);
  dyno_engine_wal_free (self);
  g_free (self->path);
  G_OBJECT_CLASS (dyno_engine_parent_class)->finalize (object);
}

static void
dyno_engine_class_init (DynoEngineClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_engine_finalize;
  /* SQLite counts every allocation it makes under a global mutex unless told not to; the
   * engine never asks for those figures.  Only possible before SQLite is first used in the
   * process (otherwise SQLITE_MISUSE, and the counting stays: harmless). */
  sqlite3_config (SQLITE_CONFIG_MEMSTATUS, 0);
}

static void
dyno_engine_init (DynoEngine *self)
{
  self->tables = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                        (GDestroyNotify) dyno_engine_table_free);
  self->statements = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, stmt_finalize);
}

/* ---- SQLite ------------------------------------------------------------------------------ */

gboolean
sql_failed (DynoEngine *self,
            GError    **error)
{
  fail (error, INTERNAL, "The workspace could not be read or written: %s",
        sqlite3_errmsg (self->db));
  return FALSE;
}

static gboolean
exec (DynoEngine *self,
      const char *sql,
      GError    **error)
{
  if (sqlite3_exec (self->db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return sql_failed (self, error);
  return TRUE;
}

/* A prepared statement, kept for the engine's life; reset and unbound. */
sqlite3_stmt *
stmt (DynoEngine *self,
      const char *sql,
      GError    **error)
{
  sqlite3_stmt *s = g_hash_table_lookup (self->statements, sql);

  if (s == NULL)
    {
      if (sqlite3_prepare_v3 (self->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL)
          != SQLITE_OK)
        {
          sql_failed (self, error);
          return NULL;
        }
      g_hash_table_insert (self->statements, g_strdup (sql), s);
    }
  sqlite3_reset (s);
  sqlite3_clear_bindings (s);
  return s;
}

void
bind_bytes (sqlite3_stmt *s,
            int           i,
            GByteArray   *bytes)
{
  sqlite3_bind_blob (s, i, bytes->len ? (const void *) bytes->data : "", bytes->len,
                     SQLITE_TRANSIENT);
}

/* bind_bytes() for @bytes that outlive the statement's step (not copied) */
static void
bind_bytes_static (sqlite3_stmt *s,
                   int           i,
                   GByteArray   *bytes)
{
  sqlite3_bind_blob (s, i, bytes->len ? (const void *) bytes->data : "", bytes->len,
                     SQLITE_STATIC);
}

/* Parallel Scan: a partition's segment comes from a hash of its encoded key. */
static void
segment_func (sqlite3_context *ctx,
              int              argc,
              sqlite3_value  **argv)
{
  const guint8 *data = sqlite3_value_blob (argv[0]);
  int len = sqlite3_value_bytes (argv[0]);
  gint64 total = sqlite3_value_int64 (argv[1]);
  guint32 hash = 2166136261u;

  for (int i = 0; i < len; i++)
    hash = (hash ^ data[i]) * 16777619u;
  /* FNV-1a's high bits barely move for short keys: mix them (MurmurHash3's finaliser) */
  hash ^= hash >> 16;
  hash *= 0x85ebca6bu;
  hash ^= hash >> 13;
  hash *= 0xc2b2ae35u;
  hash ^= hash >> 16;
  sqlite3_result_int64 (ctx, total > 0 ? (gint64) (((guint64) hash * (guint64) total) >> 32) : 0);
}

static gboolean
load_tables (DynoEngine *self,
             GError    **error)
{
  sqlite3_stmt *s = stmt (self, "SELECT id, name, created, schema, item_count, size_bytes "
                          "FROM dyno_tables", error);
  int rc;

  if (s == NULL)
    return FALSE;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      const char *schema = (const char *) sqlite3_column_text (s, 3);
      g_autoptr(GError) local = NULL;
      g_autoptr(JsonNode) node = dyno_json_parse (schema, -1, &local);
      DynoEngineTable *table = NULL;

      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
        table = dyno_engine_table_from_json (json_node_get_object (node), &local);
      if (table == NULL)
        {
          fail (error, INTERNAL, "The workspace's table %s has a schema that cannot be read: %s",
                (const char *) sqlite3_column_text (s, 1), local ? local->message : "");
          sqlite3_reset (s);
          return FALSE;
        }
      table->id = sqlite3_column_int64 (s, 0);
      table->created = sqlite3_column_double (s, 2);
      table->item_count = sqlite3_column_int64 (s, 4);
      table->size_bytes = sqlite3_column_int64 (s, 5);
      g_hash_table_replace (self->tables, table->name, table);
    }
  sqlite3_reset (s);
  return rc == SQLITE_DONE || sql_failed (self, error);
}

DynoEngine *
dyno_engine_new (const char *path,
                 GError    **error)
{
  g_autoptr(DynoEngine) self = g_object_new (DYNO_TYPE_ENGINE, NULL);
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  sqlite3_stmt *s;

  self->path = g_strdup (path);
  if (path != NULL && !dyno_engine_wal_lock (self, path, error))
    return NULL;
  if (sqlite3_open_v2 (path ? path : ":memory:", &self->db, flags, NULL) != SQLITE_OK)
    {
      fail (error, INTERNAL, "Cannot open the workspace %s: %s", path ? path : ":memory:",
            self->db ? sqlite3_errmsg (self->db) : "out of memory");
      return NULL;
    }
  /* The engine's lock keeps other engines out (dyno-engine-wal.c); SQLite's locks are only
   * contended by its own checkpoint thread, and by `sqlite3` reading the file meanwhile. */
  sqlite3_busy_timeout (self->db, 5000);
  /* A new workspace (and the in-memory engine) gets 8 KB pages; an existing workspace keeps
   * its own.  Items are rows of a WITHOUT ROWID table, whose rows spill to an overflow page
   * beyond about a quarter of a page: with 4 KB pages every item of 1 KB took a page of its
   * own, with 8 KB it fits up to about 2 KB.  16 KB pages (until 0.3) cost more: every page a
   * write touches is copied whole, to the WAL on a file and in memory alike (BatchWriteItem
   * of items of 200 bytes, 100,000 through serve: 38 against 34 µs an item on a file, 23
   * against 21 in memory).  Set before anything is written, as SQLite requires. */
  if (sqlite3_exec (self->db, "PRAGMA page_size=8192", NULL, NULL, NULL) != SQLITE_OK)
    {
      sql_failed (self, error);
      return NULL;
    }
  sqlite3_create_function (self->db, "dyno_segment", 2,
                           SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                           segment_func, NULL, NULL);
  if (!exec (self, "PRAGMA journal_mode=WAL", error)
      || !exec (self, "PRAGMA synchronous=NORMAL", error)
      /* a WAL that started over is cut back to 128 MB */
      || !exec (self, "PRAGMA journal_size_limit=134217728", error)
      /* up to 64 MB of pages kept between requests (the default is 2 MB) */
      || !exec (self, "PRAGMA cache_size=-65536", error)
      || !exec (self,
                "CREATE TABLE IF NOT EXISTS dyno_meta ("
                "  key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                "CREATE TABLE IF NOT EXISTS dyno_tables ("
                "  id INTEGER PRIMARY KEY,"
                "  name TEXT NOT NULL UNIQUE,"
                "  created REAL NOT NULL,"
                "  schema TEXT NOT NULL,"
                "  item_count INTEGER NOT NULL DEFAULT 0,"
                "  size_bytes INTEGER NOT NULL DEFAULT 0);"
                "CREATE TABLE IF NOT EXISTS dyno_items ("
                "  table_id INTEGER NOT NULL,"
                "  index_id INTEGER NOT NULL,"
                "  pk BLOB NOT NULL,"
                "  sk BLOB NOT NULL,"
                "  tk BLOB NOT NULL,"
                "  size INTEGER NOT NULL,"
                "  item TEXT NOT NULL,"
                "  PRIMARY KEY (table_id, index_id, pk, sk, tk)) WITHOUT ROWID;"
                "CREATE TABLE IF NOT EXISTS dyno_patterns ("
                "  name TEXT PRIMARY KEY, json TEXT NOT NULL);"
                "INSERT OR IGNORE INTO dyno_meta VALUES ('format', '" FORMAT_VERSION "');",
                error))
    return NULL;
  s = stmt (self, "SELECT value FROM dyno_meta WHERE key = 'format'", error);
  if (s == NULL)
    return NULL;
  if (sqlite3_step (s) == SQLITE_ROW
      && g_strcmp0 ((const char *) sqlite3_column_text (s, 0), FORMAT_VERSION) != 0)
    {
      fail (error, INTERNAL, "The workspace %s has format %s; this version reads format "
            FORMAT_VERSION, path, (const char *) sqlite3_column_text (s, 0));
      sqlite3_reset (s);
      return NULL;
    }
  sqlite3_reset (s);
  if (!load_tables (self, error) || !dyno_engine_load_settings (self, error))
    return NULL;
  dyno_engine_wal_start (self);
  return g_steal_pointer (&self);
}

const char *
dyno_engine_get_path (DynoEngine *self)
{
  g_return_val_if_fail (DYNO_IS_ENGINE (self), NULL);
  return self->path;
}

/* ---- the workspace as a whole: copies and the pattern sets it carries -------------------- */

gboolean
dyno_engine_export_to (DynoEngine  *self,
                       const char  *path,
                       GError     **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp = NULL;
  sqlite3_stmt *s = NULL;
  int fd;
  int rc;

  g_return_val_if_fail (DYNO_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->path != NULL)
    {
      g_autoptr(GFile) source = g_file_new_for_path (self->path);
      g_autoptr(GFile) target = g_file_new_for_path (path);

      if (g_file_equal (source, target))
        {
          fail (error, VALIDATION, "The workspace cannot be exported onto itself: %s", path);
          return FALSE;
        }
    }

  /* VACUUM INTO wants a new or empty file: the copy is made beside @path, then renamed over
   * it, so @path is never half written. */
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  tmp = g_strdup_printf ("%s%c.%s.partial-XXXXXX", dir, G_DIR_SEPARATOR, base);
  fd = g_mkstemp (tmp);
  if (fd < 0)
    {
      int saved = errno;

      fail (error, INTERNAL, "Cannot write the workspace copy %s: %s", path,
            g_strerror (saved));
      return FALSE;
    }
  close (fd);

  if (sqlite3_prepare_v2 (self->db, "VACUUM INTO ?", -1, &s, NULL) != SQLITE_OK)
    {
      g_unlink (tmp);
      return sql_failed (self, error);
    }
  sqlite3_bind_text (s, 1, tmp, -1, SQLITE_TRANSIENT);
  rc = sqlite3_step (s);
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      fail (error, INTERNAL, "Cannot write the workspace copy %s: %s", path,
            sqlite3_errmsg (self->db));
      g_unlink (tmp);
      return FALSE;
    }
  if (g_rename (tmp, path) != 0)
    {
      int saved = errno;

      fail (error, INTERNAL, "Cannot write the workspace copy %s: %s", path,
            g_strerror (saved));
      g_unlink (tmp);
      return FALSE;
    }
  return TRUE;
}

char *
dyno_engine_dup_patterns (DynoEngine  *self,
                          const char  *name,
                          GError     **error)
{
  sqlite3_stmt *s;
  char *json = NULL;
  int rc;

  g_return_val_if_fail (DYNO_IS_ENGINE (self), NULL);

  s = stmt (self, "SELECT json FROM dyno_patterns WHERE name = ?", error);
  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, name != NULL ? name : DYNO_ENGINE_DEFAULT_PATTERNS, -1,
                     SQLITE_STATIC);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    json = g_strdup ((const char *) sqlite3_column_text (s, 0));
  else if (rc != SQLITE_DONE)
    sql_failed (self, error);
  sqlite3_reset (s);
  return json;
}

gboolean
dyno_engine_set_patterns (DynoEngine  *self,
                          const char  *name,
                          const char  *json,
                          GError     **error)
{
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (DYNO_IS_ENGINE (self), FALSE);

  if (json != NULL)
    {
      g_autoptr(GError) local = NULL;
      g_autoptr(JsonNode) root = dyno_json_parse (json, -1, &local);

      if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
        {
          fail (error, VALIDATION, "The pattern set is not a JSON object%s%s",
                local != NULL ? ": " : "", local != NULL ? local->message : "");
          return FALSE;
        }
      s = stmt (self, "INSERT OR REPLACE INTO dyno_patterns (name, json) VALUES (?, ?)", error);
    }
  else
    s = stmt (self, "DELETE FROM dyno_patterns WHERE name = ?", error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_text (s, 1, name != NULL ? name : DYNO_ENGINE_DEFAULT_PATTERNS, -1,
                     SQLITE_STATIC);
  if (json != NULL)
    sqlite3_bind_text (s, 2, json, -1, SQLITE_STATIC);
  rc = sqlite3_step (s);
  sqlite3_reset (s);
  sqlite3_clear_bindings (s);
  return rc == SQLITE_DONE || sql_failed (self, error);
}

/* ---- helpers ----------------------------------------------------------------------------- */

DynoEngineTable *
find_table (DynoEngine *self,
            const char *name,
            GError    **error)
{
  DynoEngineTable *table = name ? g_hash_table_lookup (self->tables, name) : NULL;

  if (table == NULL)
    fail (error, RESOURCE_NOT_FOUND, "Requested resource not found");
  return table;
}

static void
write_units (GString *out,
             double   units)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.1f", units));
}

static void
capacity_init (Capacity              *cap,
               const DynoEngineTable *table)
{
  cap->table = 0;
  cap->indexes = g_new0 (double, table->indexes->len + 1);
}

static void
capacity_clear (Capacity *cap)
{
  g_clear_pointer (&cap->indexes, g_free);
}

static void
write_capacity (GString                    *out,
                const DynoEngineTable      *table,
                const Capacity             *cap,
                DynoReturnConsumedCapacity  mode)
{
  double total = cap->table;

  for (guint i = 0; i < table->indexes->len; i++)
    total += cap->indexes[i];
  g_string_append (out, "{\"TableName\":");
  dyno_json_write_string (out, table->name, -1);
  g_string_append (out, ",\"CapacityUnits\":");
  write_units (out, total);
  if (mode == DYNO_CONSUMED_INDEXES)
    {
      g_string_append (out, ",\"Table\":{\"CapacityUnits\":");
      write_units (out, cap->table);
      g_string_append_c (out, '}');
      for (int global = 1; global >= 0; global--)
        {
          gboolean first = TRUE;

          for (guint i = 0; i < table->indexes->len; i++)
            {
              DynoEngineIndex *index = g_ptr_array_index (table->indexes, i);

              if (index->global != global || cap->indexes[i] == 0)
                continue;
              g_string_append (out, first ? (global ? ",\"GlobalSecondaryIndexes\":{"
                                                    : ",\"LocalSecondaryIndexes\":{") : ",");
              first = FALSE;
              dyno_json_write_string (out, index->name, -1);
              g_string_append (out, ":{\"CapacityUnits\":");
              write_units (out, cap->indexes[i]);
              g_string_append_c (out, '}');
            }
          if (!first)
            g_string_append_c (out, '}');
        }
    }
  g_string_append_c (out, '}');
}

static gboolean
wants_capacity (DynoReturnConsumedCapacity mode)
{
  return mode == DYNO_CONSUMED_TOTAL || mode == DYNO_CONSUMED_INDEXES;
}

static double
write_units_for (gsize size)
{
  return MAX (1, (size + 1023) / 1024);
}

static double
read_units_for (gsize size,
                gboolean consistent)
{
  double units = MAX (1, (size + 4095) / 4096);

  return consistent ? units : units / 2;
}

/* A map with the given attributes of @item (those present). */
static DynoItem *
item_subset (const DynoItem     *item,
             const char * const *names,
             guint               n_names)
{
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  for (guint i = 0; i < n_names; i++)
    {
      const DynoValue *value;

      if (names[i] == NULL || !g_hash_table_add (seen, (gpointer) names[i]))
        continue;
      value = dyno_item_lookup (item, names[i]);
      if (value == NULL)
        continue;
      dyno_value_builder_key (builder, names[i], -1);
      dyno_value_builder_add_value (builder, value);
    }
  dyno_value_builder_end (builder, NULL);
  return dyno_item_new_take (dyno_value_builder_finish (builder));
}

DynoItem *
table_key_of (const DynoEngineTable *table,
              const DynoItem        *item)
{
  const char *names[] = { table->pk.name, table->sk.name };

  return item_subset (item, names, 2);
}

/* ---- key validation ---------------------------------------------------------------------- */

gboolean
value_is_empty (const DynoValue *value)
{
  gsize len = 0;

  if (dyno_value_get_kind (value) == DYNO_VALUE_S)
    dyno_value_get_string (value, &len);
  else if (dyno_value_get_kind (value) == DYNO_VALUE_B)
    dyno_value_get_binary (value, &len);
  else
    return FALSE;
  return len == 0;
}

gboolean
check_key_size (const DynoValue *value,
                gboolean         hash,
                GError         **error)
{
  gsize size = dyno_value_get_size (value);

  if (hash && size > DYNO_ENGINE_MAX_HASH_KEY)
    {
      fail (error, VALIDATION, "One or more parameter values were invalid: Size of hashkey has "
            "exceeded the maximum size limit of2048 bytes");
      return FALSE;
    }
  if (!hash && size > DYNO_ENGINE_MAX_RANGE_KEY)
    {
      fail (error, VALIDATION, "One or more parameter values were invalid: Aggregated size of "
            "all range keys has exceeded the size limit of 1024 bytes");
      return FALSE;
    }
  return TRUE;
}

/* A Key parameter (GetItem, DeleteItem, UpdateItem, batches): exactly the table's key. */
static gboolean
check_key (const DynoEngineTable *table,
           const DynoItem        *key,
           GError               **error)
{
  const DynoEngineKey *keys[] = { &table->pk, &table->sk };
  guint expected = table->sk.name ? 2 : 1;

  if (key == NULL || dyno_item_get_n_attributes (key) != expected)
    {
      fail (error, VALIDATION, "The provided key element does not match the schema");
      return FALSE;
    }
  for (guint i = 0; i < expected; i++)
    {
      const DynoValue *value = dyno_item_lookup (key, keys[i]->name);

      if (value == NULL || dyno_value_get_kind (value) != keys[i]->type)
        {
          fail (error, VALIDATION, "The provided key element does not match the schema");
          return FALSE;
        }
      if (value_is_empty (value))
        {
          fail (error, VALIDATION, "One or more parameter values were invalid: The "
                "AttributeValue for a key attribute cannot contain an empty %s value. Key: %s",
                keys[i]->type == DYNO_VALUE_B ? "binary" : "string", keys[i]->name);
          return FALSE;
        }
      if (!check_key_size (value, i == 0, error))
        return FALSE;
    }
  return TRUE;
}

/* An item to be written: the table's keys present and typed, index keys (when present) typed
 * and not empty, and the size limit.  @update picks UpdateItem's wording of the size error. */
static gboolean
check_item (const DynoEngineTable *table,
            const DynoItem        *item,
            gboolean               update,
            GError               **error)
{
  const DynoEngineKey *keys[] = { &table->pk, &table->sk };

  for (guint i = 0; i < 2 && keys[i]->name; i++)
    {
      const DynoValue *value = dyno_item_lookup (item, keys[i]->name);

      if (value == NULL)
        {
          fail (error, VALIDATION, "One or more parameter values were invalid: Missing the key "
                "%s in the item", keys[i]->name);
          return FALSE;
        }
      if (dyno_value_get_kind (value) != keys[i]->type)
        {
          fail (error, VALIDATION, "One or more parameter values were invalid: Type mismatch "
                "for key %s expected: %s actual: %s", keys[i]->name,
                dyno_value_type_to_string (keys[i]->type),
                dyno_value_type_to_string (dyno_value_get_kind (value)));
          return FALSE;
        }
      if (value_is_empty (value))
        {
          fail (error, VALIDATION, "One or more parameter values are not valid. The "
                "AttributeValue for a key attribute cannot contain an empty %s value. Key: %s",
                keys[i]->type == DYNO_VALUE_B ? "binary" : "string", keys[i]->name);
          return FALSE;
        }
      if (!check_key_size (value, i == 0, error))
        return FALSE;
    }
  for (guint n = 0; n < table->indexes->len; n++)
    {
      DynoEngineIndex *index = g_ptr_array_index (table->indexes, n);
      const DynoEngineKey *ikeys[] = { &index->pk, &index->sk };

      for (guint i = 0; i < 2 && ikeys[i]->name; i++)
        {
          const DynoValue *value = dyno_item_lookup (item, ikeys[i]->name);

          if (value == NULL)
            continue;
          if (dyno_value_get_kind (value) != ikeys[i]->type)
            {
              fail (error, VALIDATION, "One or more parameter values were invalid: Type "
                    "mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s",
                    ikeys[i]->name, dyno_value_type_to_string (ikeys[i]->type),
                    dyno_value_type_to_string (dyno_value_get_kind (value)), index->name);
              return FALSE;
            }
          if (value_is_empty (value))
            {
              fail (error, VALIDATION, "One or more parameter values are not valid. A value "
                    "specified for a secondary index key is not supported. The AttributeValue "
                    "for a key attribute cannot contain an empty %s value. IndexName: %s, "
                    "IndexKey: %s", ikeys[i]->type == DYNO_VALUE_B ? "binary" : "string",
                    index->name, ikeys[i]->name);
              return FALSE;
            }
        }
    }
  if (dyno_item_get_size (item) > DYNO_ENGINE_MAX_ITEM_SIZE)
    {
      fail (error, VALIDATION, update ? "Item size to update has exceeded the maximum allowed size"
                                      : "Item size has exceeded the maximum allowed size");
      return FALSE;
    }
  return TRUE;
}

/* ---- rows -------------------------------------------------------------------------------- */

void
encode_opt (const DynoItem *item,
            const char     *name,
            GByteArray     *out)
{
  const DynoValue *value = name ? dyno_item_lookup (item, name) : NULL;

  if (value != NULL)
    dyno_engine_encode_key (value, out);
}

/* An empty GByteArray may have no buffer at all: memcmp() must not see its NULL. */
static gboolean
bytes_equal (const GByteArray *a,
             const GByteArray *b)
{
  return a->len == b->len && (a->len == 0 || memcmp (a->data, b->data, a->len) == 0);
}

/* The table row's tk for index rows: the table key, length-prefixed partition then sort. */
GByteArray *
table_tk (const DynoEngineTable *table,
          const DynoItem        *item)
{
  GByteArray *pk = g_byte_array_new ();
  GByteArray *tk = g_byte_array_new ();
  guint8 len[4];

  encode_opt (item, table->pk.name, pk);
  len[0] = pk->len >> 24;
  len[1] = pk->len >> 16;
  len[2] = pk->len >> 8;
  len[3] = pk->len;
  g_byte_array_append (tk, len, 4);
  g_byte_array_append (tk, pk->data, pk->len);
  encode_opt (item, table->sk.name, tk);
  g_byte_array_unref (pk);
  return tk;
}

/* The item's entry in @index (its projected attributes), or NULL when it has none there. */
DynoItem *
index_entry (const DynoEngineTable *table,
             const DynoEngineIndex *index,
             const DynoItem        *item)
{
  g_autoptr(GPtrArray) names = NULL;

  if (item == NULL || dyno_item_lookup (item, index->pk.name) == NULL
      || (index->sk.name && dyno_item_lookup (item, index->sk.name) == NULL))
    return NULL;
  if (index->projection == DYNO_PROJECTION_ALL)
    return dyno_item_ref ((DynoItem *) item);
  names = g_ptr_array_new ();
  g_ptr_array_add (names, table->pk.name);
  g_ptr_array_add (names, table->sk.name);
  g_ptr_array_add (names, index->pk.name);
  g_ptr_array_add (names, index->sk.name);
  for (guint i = 0; index->non_key && index->non_key[i]; i++)
    g_ptr_array_add (names, index->non_key[i]);
  return item_subset (item, (const char * const *) names->pdata, names->len);
}

DynoItem *
row_item (sqlite3_stmt *s,
          int           column,
          GError      **error)
{
  const char *json = (const char *) sqlite3_column_text (s, column);
  int len = sqlite3_column_bytes (s, column);
  g_autoptr(GError) local = NULL;
  DynoItem *item = dyno_item_from_ddb_json (json, len, &local);

  if (item == NULL)
    fail (error, INTERNAL, "An item in the workspace cannot be read: %s", local->message);
  return item;
}

/* The stored item with @key (the table's key attributes), or NULL (with no error when absent). */
DynoItem *
load_item (DynoEngine            *self,
           const DynoEngineTable *table,
           const DynoItem        *key,
           GError               **error)
{
  sqlite3_stmt *s = stmt (self, "SELECT item FROM dyno_items WHERE table_id = ?1 AND "
                          "index_id = 0 AND pk = ?2 AND sk = ?3 AND tk = x''", error);
  g_autoptr(GByteArray) pk = g_byte_array_new ();
  g_autoptr(GByteArray) sk = g_byte_array_new ();
  DynoItem *item = NULL;
  int rc;

  if (s == NULL)
    return NULL;
  encode_opt (key, table->pk.name, pk);
  encode_opt (key, table->sk.name, sk);
  sqlite3_bind_int64 (s, 1, table->id);
  bind_bytes_static (s, 2, pk);
  bind_bytes_static (s, 3, sk);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    item = row_item (s, 0, error);
  else if (rc != SQLITE_DONE)
    sql_failed (self, error);
  sqlite3_reset (s);
  if (item != NULL && dyno_engine_item_expired (table, item))
    {
      /* the table is the engine's own, only const here for the readers */
      dyno_engine_expire (self, (DynoEngineTable *) table, item);
      g_clear_pointer (&item, dyno_item_unref);
    }
  return item;
}

gboolean
put_row (DynoEngine     *self,
         gint64          table_id,
         guint           index_id,
         GByteArray     *pk,
         GByteArray     *sk,
         GByteArray     *tk,
         const DynoItem *item,
         gsize           size,
         GError        **error)
{
  sqlite3_stmt *s = stmt (self, "INSERT OR REPLACE INTO dyno_items "
                          "(table_id, index_id, pk, sk, tk, size, item) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", error);
  g_autofree char *json = NULL;
  int rc;

  if (s == NULL)
    return FALSE;
  json = dyno_item_to_ddb_json (item);
  sqlite3_bind_int64 (s, 1, table_id);
  sqlite3_bind_int64 (s, 2, index_id);
  bind_bytes_static (s, 3, pk);
  bind_bytes_static (s, 4, sk);
  bind_bytes_static (s, 5, tk);
  sqlite3_bind_int64 (s, 6, size);
  sqlite3_bind_text (s, 7, json, -1, SQLITE_STATIC);
  rc = sqlite3_step (s);
  sqlite3_reset (s);
  return rc == SQLITE_DONE || sql_failed (self, error);
}

gboolean
delete_row (DynoEngine *self,
            gint64      table_id,
            guint       index_id,
            GByteArray *pk,
            GByteArray *sk,
            GByteArray *tk,
            GError    **error)
{
  sqlite3_stmt *s = stmt (self, "DELETE FROM dyno_items WHERE table_id = ?1 AND index_id = ?2 "
                          "AND pk = ?3 AND sk = ?4 AND tk = ?5", error);
  int rc;

  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, table_id);
  sqlite3_bind_int64 (s, 2, index_id);
  bind_bytes_static (s, 3, pk);
  bind_bytes_static (s, 4, sk);
  bind_bytes_static (s, 5, tk);
  rc = sqlite3_step (s);
  sqlite3_reset (s);
  return rc == SQLITE_DONE || sql_failed (self, error);
}

/* The table's row for @item, written only when no row has its key: *@inserted says whether
 * it was (then there was no item with that key, expired or not). */
static gboolean
insert_if_absent (DynoEngine      *self,
                  DynoEngineTable *table,
                  const DynoItem  *item,
                  gboolean        *inserted,
                  GError         **error)
{
  sqlite3_stmt *s = stmt (self, "INSERT OR IGNORE INTO dyno_items "
                          "(table_id, index_id, pk, sk, tk, size, item) "
                          "VALUES (?1, 0, ?2, ?3, x'', ?4, ?5)", error);
  g_autoptr(GByteArray) pk = g_byte_array_new ();
  g_autoptr(GByteArray) sk = g_byte_array_new ();
  g_autofree char *json = NULL;
  int rc;

  if (s == NULL)
    return FALSE;
  encode_opt (item, table->pk.name, pk);
  encode_opt (item, table->sk.name, sk);
  json = dyno_item_to_ddb_json (item);
  sqlite3_bind_int64 (s, 1, table->id);
  bind_bytes_static (s, 2, pk);
  bind_bytes_static (s, 3, sk);
  sqlite3_bind_int64 (s, 4, dyno_item_get_size (item));
  sqlite3_bind_text (s, 5, json, -1, SQLITE_STATIC);
  rc = sqlite3_step (s);
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    return sql_failed (self, error);
  *inserted = sqlite3_changes (self->db) == 1;
  return TRUE;
}

static gboolean store_item_full (DynoEngine      *self,
                                 DynoEngineTable *table,
                                 const DynoItem  *old,
                                 const DynoItem  *new,
                                 gboolean         row_written,
                                 Capacity        *cap,
                                 GError         **error);

/* Replaces @old (may be NULL) by @new (NULL: deletes) in the table and its indexes, keeps the
 * table's counters, and adds the write units to @cap. */
gboolean
store_item (DynoEngine      *self,
            DynoEngineTable *table,
            const DynoItem  *old,
            const DynoItem  *new,
            Capacity        *cap,
            GError         **error)
{
  return store_item_full (self, table, old, new, FALSE, cap, error);
}

/* store_item(), where @row_written says the table's row of @new is in place already
 * (insert_if_absent()). */
static gboolean
store_item_full (DynoEngine      *self,
                 DynoEngineTable *table,
                 const DynoItem  *old,
                 const DynoItem  *new,
                 gboolean         row_written,
                 Capacity        *cap,
                 GError         **error)
{
  const DynoItem *any = new ? new : old;
  g_autoptr(GByteArray) pk = g_byte_array_new ();
  g_autoptr(GByteArray) sk = g_byte_array_new ();
  g_autoptr(GByteArray) empty = g_byte_array_new ();
  g_autoptr(GByteArray) tk = NULL;
  gsize old_size = old ? dyno_item_get_size (old) : 0;
  gsize new_size = new ? dyno_item_get_size (new) : 0;

  encode_opt (any, table->pk.name, pk);
  encode_opt (any, table->sk.name, sk);
  if (new != NULL)
    {
      if (!row_written && !put_row (self, table->id, 0, pk, sk, empty, new, new_size, error))
        return FALSE;
    }
  else if (old != NULL && !delete_row (self, table->id, 0, pk, sk, empty, error))
    return FALSE;
  if (cap)
    cap->table += write_units_for (MAX (old_size, new_size));

  if (table->indexes->len > 0)
    tk = table_tk (table, any);
  for (guint i = 0; i < table->indexes->len; i++)
    {
      DynoEngineIndex *index = g_ptr_array_index (table->indexes, i);
      g_autoptr(DynoItem) old_entry = index_entry (table, index, old);
      g_autoptr(DynoItem) new_entry = index_entry (table, index, new);
      g_autoptr(GByteArray) opk = g_byte_array_new ();
      g_autoptr(GByteArray) osk = g_byte_array_new ();
      g_autoptr(GByteArray) npk = g_byte_array_new ();
      g_autoptr(GByteArray) nsk = g_byte_array_new ();
      gboolean moved = FALSE;
      double units = 0;

      if (old_entry == NULL && new_entry == NULL)
        continue;
      if (old_entry != NULL)
        {
          encode_opt (old_entry, index->pk.name, opk);
          encode_opt (old_entry, index->sk.name, osk);
        }
      if (new_entry != NULL)
        {
          encode_opt (new_entry, index->pk.name, npk);
          encode_opt (new_entry, index->sk.name, nsk);
        }
      if (old_entry != NULL && new_entry != NULL)
        moved = !bytes_equal (opk, npk) || !bytes_equal (osk, nsk);
      if (old_entry != NULL && (new_entry == NULL || moved))
        {
          if (!delete_row (self, table->id, index->id, opk, osk, tk, error))
            return FALSE;
          units += write_units_for (dyno_item_get_size (old_entry));
        }
      if (new_entry != NULL)
        {
          if (old_entry == NULL || moved || !dyno_item_equal (old_entry, new_entry))
            {
              gsize entry_size = dyno_item_get_size (new_entry);

              if (!put_row (self, table->id, index->id, npk, nsk, tk, new_entry, entry_size,
                            error))
                return FALSE;
              /* an entry rewritten where it was is charged as the table's item is: by the
               * larger of its sizes before and after (DynamoDB Local charges so too) */
              if (old_entry != NULL && !moved)
                entry_size = MAX (entry_size, dyno_item_get_size (old_entry));
              units += write_units_for (entry_size);
            }
        }
      if (cap)
        cap->indexes[i] += units;
    }

  table->item_count += (new != NULL) - (old != NULL);
  table->size_bytes += (gint64) new_size - (gint64) old_size;
  table->counters_changed = TRUE;  /* written once, when the request commits */
  return TRUE;
}

static gboolean
write_counters (DynoEngine *self,
                GError    **error)
{
  GHashTableIter iter;
  DynoEngineTable *table;

  g_hash_table_iter_init (&iter, self->tables);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &table))
    {
      sqlite3_stmt *s;

      if (!table->counters_changed)
        continue;
      s = stmt (self, "UPDATE dyno_tables SET item_count = ?2, size_bytes = ?3 WHERE id = ?1",
                error);
      if (s == NULL)
        return FALSE;
      sqlite3_bind_int64 (s, 1, table->id);
      sqlite3_bind_int64 (s, 2, table->item_count);
      sqlite3_bind_int64 (s, 3, table->size_bytes);
      if (sqlite3_step (s) != SQLITE_DONE)
        {
          sqlite3_reset (s);
          return sql_failed (self, error);
        }
      sqlite3_reset (s);
      table->counters_changed = FALSE;
    }
  return TRUE;
}

/* Runs the table counters back to what the workspace holds (after a rolled-back write). */
static void
reload_counters (DynoEngine *self)
{
  sqlite3_stmt *s = stmt (self, "SELECT name, item_count, size_bytes FROM dyno_tables", NULL);

  if (s == NULL)
    return;
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      DynoEngineTable *table = g_hash_table_lookup (self->tables, sqlite3_column_text (s, 0));

      if (table != NULL)
        {
          table->item_count = sqlite3_column_int64 (s, 1);
          table->size_bytes = sqlite3_column_int64 (s, 2);
          table->counters_changed = FALSE;
        }
    }
  sqlite3_reset (s);
}

/* exec() for the statements of every request (BEGIN, COMMIT, ROLLBACK): prepared once. */
static gboolean
exec_kept (DynoEngine *self,
           const char *sql,
           GError    **error)
{
  sqlite3_stmt *s = stmt (self, sql, error);
  int rc;

  if (s == NULL)
    return FALSE;
  rc = sqlite3_step (s);
  sqlite3_reset (s);
  return rc == SQLITE_DONE || sql_failed (self, error);
}

gboolean
begin (DynoEngine *self,
       GError    **error)
{
  return exec_kept (self, "BEGIN IMMEDIATE", error);
}

gboolean
commit (DynoEngine *self,
        GError    **error)
{
  if (write_counters (self, error) && exec_kept (self, "COMMIT", error))
    return TRUE;
  exec_kept (self, "ROLLBACK", NULL);
  reload_counters (self);
  return FALSE;
}

void
rollback (DynoEngine *self)
{
  exec_kept (self, "ROLLBACK", NULL);
  reload_counters (self);
}

/* ---- request parsing --------------------------------------------------------------------- */

static gboolean
to_engine_error (GError  *local,
                 GError **error)
{
  if (local->domain == DYNO_ENGINE_ERROR)
    g_propagate_error (error, local);
  else if (g_error_matches (local, DYNO_ERROR, DYNO_ERROR_JSON))
    {
      fail (error, SERIALIZATION, "%s", local->message);
      g_error_free (local);
    }
  else
    {
      /* core's parsers end their messages with where the problem is, "(at column 12)"; a
       * DynamoDB message has no such part */
      g_autoptr(GRegex) where = g_regex_new (" \\([^()]* [0-9]+\\)$", 0, 0, NULL);
      g_autofree char *message = g_regex_replace_literal (where, local->message, -1, 0, "", 0,
                                                          NULL);

      fail (error, VALIDATION, "%s", message ? message : local->message);
      g_error_free (local);
    }
  return FALSE;
}

static DynoRequest *
parse_request (const char     *body,
               gssize          len,
               DynoOperation   op,
               GError        **error)
{
  GError *local = NULL;
  DynoRequest *request = dyno_request_from_json (body, len, op, &local);

  if (request == NULL)
    to_engine_error (local, error);
  return request;
}

JsonObject *
parse_object (const char *body,
              gssize      len,
              JsonNode  **out_node,
              GError    **error)
{
  g_autoptr(GError) local = NULL;
  JsonNode *node = dyno_json_parse (body, len, &local);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      fail (error, SERIALIZATION, "%s",
            local ? local->message : "Start of structure or map found where not expected");
      if (node)
        json_node_unref (node);
      return NULL;
    }
  *out_node = node;
  return json_node_get_object (node);
}

const char *
object_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node && json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node)
                                                                   : NULL;
}

static DynoReturnConsumedCapacity
object_capacity (JsonObject *object)
{
  const char *text = object_string (object, "ReturnConsumedCapacity");
  DynoReturnConsumedCapacity mode = DYNO_CONSUMED_NONE;

  if (text)
    dyno_consumed_capacity_from_string (text, &mode);
  return mode;
}

static gboolean
eval_condition (const DynoExpr *expr,
                DynoExprRole    role,
                const DynoItem *item,
                gboolean       *match,
                GError        **error)
{
  GError *local = NULL;

  if (expr == NULL)
    {
      *match = TRUE;
      return TRUE;
    }
  if (!dyno_eval_condition_full (expr, role, item, match, &local))
    return to_engine_error (local, error);
  return TRUE;
}

static gboolean
check_condition (const DynoExpr *expr,
                 DynoExprRole    role,
                 GError        **error)
{
  GError *local = NULL;

  if (expr != NULL && !dyno_eval_check_condition (expr, role, &local))
    return to_engine_error (local, error);
  return TRUE;
}

/* ---- control plane ----------------------------------------------------------------------- */

static void
index_stats (DynoEngine            *self,
             const DynoEngineTable *table,
             guint                  index_id,
             gint64                *count,
             gint64                *bytes)
{
  sqlite3_stmt *s = stmt (self, "SELECT count(*), coalesce(sum(size), 0) FROM dyno_items "
                          "WHERE table_id = ?1 AND index_id = ?2", NULL);

  *count = *bytes = 0;
  if (s == NULL)
    return;
  sqlite3_bind_int64 (s, 1, table->id);
  sqlite3_bind_int64 (s, 2, index_id);
  if (sqlite3_step (s) == SQLITE_ROW)
    {
      *count = sqlite3_column_int64 (s, 0);
      *bytes = sqlite3_column_int64 (s, 1);
    }
  sqlite3_reset (s);
}

/* A TableDescription: the stored schema's members, then status, counts, ARNs. */
void
write_description (DynoEngine            *self,
                   const DynoEngineTable *table,
                   const char            *status,
                   GString               *out)
{
  g_autoptr(GString) schema = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;
  JsonArray *indexes;
  char created[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *arn = g_strdup_printf ("arn:aws:dynamodb:ddblocal:000000000000:table/%s",
                                          table->name);

  dyno_engine_table_write_schema (table, schema);
  node = dyno_json_parse (schema->str, schema->len, NULL);
  object = json_node_get_object (node);
  g_ascii_formatd (created, sizeof created, "%.3f", table->created);

  json_object_remove_member (object, "BillingMode");
  json_object_set_string_member (object, "TableStatus", status);
  json_object_set_member (object, "CreationDateTime",
                          json_node_init_double (json_node_alloc (), table->created));
  if (!table->on_demand)
    json_object_remove_member (object, "ProvisionedThroughput");
  {
    JsonObject *pt = json_object_new ();

    json_object_set_int_member (pt, "NumberOfDecreasesToday", 0);
    json_object_set_int_member (pt, "ReadCapacityUnits", table->rcu);
    json_object_set_int_member (pt, "WriteCapacityUnits", table->wcu);
    json_object_set_object_member (object, "ProvisionedThroughput", pt);
  }
  json_object_set_int_member (object, "TableSizeBytes", table->size_bytes);
  json_object_set_int_member (object, "ItemCount", table->item_count);
  json_object_set_string_member (object, "TableArn", arn);
  if (table->on_demand || table->on_demand_since > 0)
    {
      JsonObject *billing = json_object_new ();

      json_object_set_string_member (billing, "BillingMode",
                                     table->on_demand ? "PAY_PER_REQUEST" : "PROVISIONED");
      json_object_set_member (billing, "LastUpdateToPayPerRequestDateTime",
                              json_node_init_double (json_node_alloc (),
                                                     table->on_demand_since > 0
                                                     ? table->on_demand_since
                                                     : table->created));
      json_object_set_object_member (object, "BillingModeSummary", billing);
    }
  for (int global = 1; global >= 0; global--)
    {
      const char *member = global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes";

      indexes = json_object_has_member (object, member)
                ? json_object_get_array_member (object, member) : NULL;
      for (guint i = 0; indexes && i < json_array_get_length (indexes); i++)
        {
          JsonObject *io = json_array_get_object_element (indexes, i);
          DynoEngineIndex *index = dyno_engine_table_find_index (
            table, json_object_get_string_member (io, "IndexName"));
          g_autofree char *iarn = g_strdup_printf ("%s/index/%s", arn, index->name);
          gint64 count, bytes;

          index_stats (self, table, index->id, &count, &bytes);
          if (global)
            {
              JsonObject *pt = json_object_new ();

              json_object_set_string_member (io, "IndexStatus", status);
              json_object_remove_member (io, "ProvisionedThroughput");
              json_object_set_int_member (pt, "NumberOfDecreasesToday", 0);
              json_object_set_int_member (pt, "ReadCapacityUnits", index->rcu);
              json_object_set_int_member (pt, "WriteCapacityUnits", index->wcu);
              json_object_set_object_member (io, "ProvisionedThroughput", pt);
            }
          json_object_set_int_member (io, "IndexSizeBytes", bytes);
          json_object_set_int_member (io, "ItemCount", count);
          json_object_set_string_member (io, "IndexArn", iarn);
        }
    }
  dyno_json_write_node (out, node, FALSE);
}

static char *
op_create_table (DynoEngine *self,
                 const char *body,
                 gssize      len,
                 GError    **error)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *request = parse_object (body, len, &node, error);
  DynoEngineTable *table;
  g_autoptr(GString) schema = g_string_new (NULL);
  GString *out;
  sqlite3_stmt *s;

  if (request == NULL)
    return NULL;
  table = dyno_engine_table_from_json (request, error);
  if (table == NULL)
    return NULL;
  if (g_hash_table_contains (self->tables, table->name))
    {
      fail (error, RESOURCE_IN_USE, "Table already exists: %s", table->name);
      dyno_engine_table_free (table);
      return NULL;
    }
  table->created = g_get_real_time () / 1e6;
  dyno_engine_table_write_schema (table, schema);
  s = stmt (self, "INSERT INTO dyno_tables (name, created, schema) VALUES (?1, ?2, ?3)", error);
  if (s == NULL)
    {
      dyno_engine_table_free (table);
      return NULL;
    }
  sqlite3_bind_text (s, 1, table->name, -1, SQLITE_STATIC);
  sqlite3_bind_double (s, 2, table->created);
  sqlite3_bind_text (s, 3, schema->str, schema->len, SQLITE_STATIC);
  if (sqlite3_step (s) != SQLITE_DONE)
    {
      sqlite3_reset (s);
      sql_failed (self, error);
      dyno_engine_table_free (table);
      return NULL;
    }
  sqlite3_reset (s);
  table->id = sqlite3_last_insert_rowid (self->db);
  g_hash_table_replace (self->tables, table->name, table);

  out = g_string_new ("{\"TableDescription\":");
  write_description (self, table, "ACTIVE", out);
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);
}

static char *
op_describe_table (DynoEngine *self,
                   const char *body,
                   gssize      len,
                   GError    **error)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *request = parse_object (body, len, &node, error);
  const char *name;
  DynoEngineTable *table;
  GString *out;

  if (request == NULL)
    return NULL;
  name = object_string (request, "TableName");
  if (name == NULL)
    {
      fail (error, VALIDATION, "1 validation error detected: Value null at 'tableName' failed "
            "to satisfy constraint: Member must not be null");
      return NULL;
    }
  table = g_hash_table_lookup (self->tables, name);
  if (table == NULL)
    {
      fail (error, RESOURCE_NOT_FOUND, "Requested resource not found: Table: %s not found", name);
      return NULL;
    }
  out = g_string_new ("{\"Table\":");
  write_description (self, table, "ACTIVE", out);
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);
}

static char *
op_delete_table (DynoEngine *self,
                 const char *body,
                 gssize      len,
                 GError    **error)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *request = parse_object (body, len, &node, error);
  const char *name;
  DynoEngineTable *table;
  sqlite3_stmt *s;
  GString *out;

  if (request == NULL)
    return NULL;
  name = object_string (request, "TableName");
  table = name ? g_hash_table_lookup (self->tables, name) : NULL;
  if (table == NULL)
    {
      fail (error, RESOURCE_NOT_FOUND, "Requested resource not found: Table: %s not found",
            name ? name : "");
      return NULL;
    }
  out = g_string_new ("{\"TableDescription\":");
  write_description (self, table, "DELETING", out);
  g_string_append_c (out, '}');
  if (!begin (self, error))
    goto failed;
  s = stmt (self, "DELETE FROM dyno_items WHERE table_id = ?1", error);
  if (s == NULL)
    goto rolled;
  sqlite3_bind_int64 (s, 1, table->id);
  if (sqlite3_step (s) != SQLITE_DONE)
    {
      sqlite3_reset (s);
      sql_failed (self, error);
      goto rolled;
    }
  sqlite3_reset (s);
  s = stmt (self, "DELETE FROM dyno_tables WHERE id = ?1", error);
  if (s == NULL)
    goto rolled;
  sqlite3_bind_int64 (s, 1, table->id);
  if (sqlite3_step (s) != SQLITE_DONE)
    {
      sqlite3_reset (s);
      sql_failed (self, error);
      goto rolled;
    }
  sqlite3_reset (s);
  if (!commit (self, error))
    goto failed;
  g_hash_table_remove (self->tables, name);
  return g_string_free (out, FALSE);

rolled:
  rollback (self);
failed:
  g_string_free (out, TRUE);
  return NULL;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static char *
op_list_tables (DynoEngine *self,
                const char *body,
                gssize      len,
                GError    **error)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *request = parse_object (body, len, &node, error);
  g_autoptr(GPtrArray) names = NULL;
  const char *start;
  gint64 limit = 100;
  guint n = 0;
  GString *out;

  if (request == NULL)
    return NULL;
  if (json_object_has_member (request, "Limit"))
    {
      JsonNode *l = json_object_get_member (request, "Limit");

      limit = json_node_get_value_type (l) == G_TYPE_INT64 ? json_node_get_int (l) : 0;
      if (limit < 1 || limit > 100)
        {
          fail (error, VALIDATION, "1 validation error detected: Value '%" G_GINT64_FORMAT
                "' at 'limit' failed to satisfy constraint: Member must have value %s", limit,
                limit < 1 ? "greater than or equal to 1" : "less than or equal to 100");
          return NULL;
        }
    }
  start = object_string (request, "ExclusiveStartTableName");
  names = g_ptr_array_new ();
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, self->tables);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_ptr_array_add (names, key);
  }
  g_ptr_array_sort (names, compare_names);
  out = g_string_new ("{\"TableNames\":[");
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);

      if (start && strcmp (name, start) <= 0)
        continue;
      if (n == limit)
        {
          g_string_append (out, "],\"LastEvaluatedTableName\":");
          dyno_json_write_string (out, g_ptr_array_index (names, i - 1), -1);
          g_string_append_c (out, '}');
          return g_string_free (out, FALSE);
        }
      if (n++ > 0)
        g_string_append_c (out, ',');
      dyno_json_write_string (out, name, -1);
    }
  g_string_append (out, "]}");
  return g_string_free (out, FALSE);
}

/* ---- single-item operations -------------------------------------------------------------- */

static void
write_item_member (GString        *out,
                   const char     *member,
                   const DynoItem *item)
{
  g_string_append_printf (out, "\"%s\":", member);
  dyno_map_write_ddb_item (dyno_item_get_map (item), out);
}

static void
finish_write_response (GString                    *out,
                       const DynoEngineTable      *table,
                       const Capacity             *cap,
                       DynoReturnConsumedCapacity  mode,
                       const char                 *member,
                       const DynoItem             *attributes)
{
  gboolean first = TRUE;

  g_string_append_c (out, '{');
  if (attributes != NULL && dyno_item_get_n_attributes (attributes) > 0)
    {
      write_item_member (out, member, attributes);
      first = FALSE;
    }
  if (wants_capacity (mode))
    {
      g_string_append (out, first ? "\"ConsumedCapacity\":" : ",\"ConsumedCapacity\":");
      write_capacity (out, table, cap, mode);
    }
  g_string_append_c (out, '}');
}

static gboolean
check_return_values (DynoReturnValues rv,
                     gboolean         update,
                     GError         **error)
{
  if (rv == DYNO_RETURN_VALUES_UNSET || rv == DYNO_RETURN_VALUES_NONE
      || rv == DYNO_RETURN_VALUES_ALL_OLD || update)
    return TRUE;
  fail (error, VALIDATION, "Return values set to invalid value");
  return FALSE;
}

static char *
op_put_item (DynoEngine *self,
             const char *body,
             gssize      len,
             GError    **error)
{
  gboolean all_old = FALSE;
  g_autoptr(DynoRequest) request = dyno_engine_parse_write_request (body, len, DYNO_OP_PUT_ITEM,
                                                                    &all_old, error);
  g_autoptr(DynoItem) old = NULL;
  DynoEngineTable *table;
  Capacity cap;
  GError *local = NULL;
  gboolean match;
  GString *out;

  if (request == NULL)
    return NULL;
  if (!check_return_values (request->return_values, FALSE, error))
    return NULL;
  if ((table = find_table (self, request->table_name, error)) == NULL)
    return NULL;
  if (request->item == NULL)
    {
      fail (error, VALIDATION, "1 validation error detected: Value null at 'item' failed to "
            "satisfy constraint: Member must not be null");
      return NULL;
    }
  if (!check_item (table, request->item, FALSE, error)
      || !check_condition (request->condition, DYNO_EXPR_ROLE_CONDITION, error))
    return NULL;
  if (!begin (self, error))
    return NULL;
  capacity_init (&cap, table);
  {
    g_autoptr(DynoItem) key = table_key_of (table, request->item);

    old = load_item (self, table, key, &local);
  }
  if (local != NULL || !eval_condition (request->condition, DYNO_EXPR_ROLE_CONDITION, old,
                                        &match, &local))
    goto failed;
  if (!match)
    {
      fail (&local, CONDITIONAL_CHECK_FAILED, "The conditional request failed");
      if (all_old)
        dyno_engine_set_error_item (self, old);
      goto failed;
    }
  if (!store_item (self, table, old, request->item, &cap, &local) || !commit (self, &local))
    goto failed;
  out = g_string_new (NULL);
  finish_write_response (out, table, &cap, request->return_consumed_capacity, "Attributes",
                         request->return_values == DYNO_RETURN_VALUES_ALL_OLD ? old : NULL);
  capacity_clear (&cap);
  return g_string_free (out, FALSE);

failed:
  rollback (self);
  capacity_clear (&cap);
  g_propagate_error (error, local);
  return NULL;
}

static char *
op_delete_item (DynoEngine *self,
                const char *body,
                gssize      len,
                GError    **error)
{
  gboolean all_old = FALSE;
  g_autoptr(DynoRequest) request = dyno_engine_parse_write_request (body, len, DYNO_OP_DELETE_ITEM,
                                                                    &all_old, error);
  g_autoptr(DynoItem) old = NULL;
  DynoEngineTable *table;
  Capacity cap;
  GError *local = NULL;
  gboolean match;
  GString *out;

  if (request == NULL)
    return NULL;
  if (!check_return_values (request->return_values, FALSE, error))
    return NULL;
  if ((table = find_table (self, request->table_name, error)) == NULL)
    return NULL;
  if (!check_key (table, request->key, error)
      || !check_condition (request->condition, DYNO_EXPR_ROLE_CONDITION, error))
    return NULL;
  if (!begin (self, error))
    return NULL;
  capacity_init (&cap, table);
  old = load_item (self, table, request->key, &local);
  if (local != NULL || !eval_condition (request->condition, DYNO_EXPR_ROLE_CONDITION, old,
                                        &match, &local))
    goto failed;
  if (!match)
    {
      fail (&local, CONDITIONAL_CHECK_FAILED, "The conditional request failed");
      if (all_old)
        dyno_engine_set_error_item (self, old);
      goto failed;
    }
  if (old != NULL && !store_item (self, table, old, NULL, &cap, &local))
    goto failed;
  if (old == NULL)
    cap.table += 1;
  if (!commit (self, &local))
    goto failed;
  out = g_string_new (NULL);
  finish_write_response (out, table, &cap, request->return_consumed_capacity, "Attributes",
                         request->return_values == DYNO_RETURN_VALUES_ALL_OLD ? old : NULL);
  capacity_clear (&cap);
  return g_string_free (out, FALSE);

failed:
  rollback (self);
  capacity_clear (&cap);
  g_propagate_error (error, local);
  return NULL;
}

static DynoItem *
project_updated (const DynoUpdate *update,
                 const DynoItem   *item)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_path_free);

  if (item == NULL)
    return NULL;
  for (guint i = 0; i < update->clauses->len; i++)
    {
      DynoUpdateClause *clause = g_ptr_array_index (update->clauses, i);

      g_ptr_array_add (paths, dyno_path_copy (clause->path));
    }
  return dyno_eval_project (paths, item);
}

static char *
op_update_item (DynoEngine *self,
                const char *body,
                gssize      len,
                GError    **error)
{
  gboolean all_old = FALSE;
  g_autoptr(DynoRequest) request = dyno_engine_parse_write_request (body, len, DYNO_OP_UPDATE_ITEM,
                                                                    &all_old, error);
  g_autoptr(DynoItem) old = NULL;
  g_autoptr(DynoItem) new = NULL;
  g_autoptr(DynoItem) returned = NULL;
  DynoEngineTable *table;
  Capacity cap;
  GError *local = NULL;
  gboolean match;
  GString *out;
  const char *key_names[3] = { NULL, NULL, NULL };

  if (request == NULL)
    return NULL;
  if ((table = find_table (self, request->table_name, error)) == NULL)
    return NULL;
  if (!check_key (table, request->key, error)
      || !check_condition (request->condition, DYNO_EXPR_ROLE_CONDITION, error))
    return NULL;
  key_names[0] = table->pk.name;
  key_names[1] = table->sk.name;
  if (request->update != NULL && !dyno_eval_check_update (request->update, key_names, &local))
    {
      to_engine_error (local, error);
      return NULL;
    }
  if (!begin (self, error))
    return NULL;
  capacity_init (&cap, table);
  old = load_item (self, table, request->key, &local);
  if (local != NULL || !eval_condition (request->condition, DYNO_EXPR_ROLE_CONDITION, old,
                                        &match, &local))
    goto failed;
  if (!match)
    {
      fail (&local, CONDITIONAL_CHECK_FAILED, "The conditional request failed");
      if (all_old)
        dyno_engine_set_error_item (self, old);
      goto failed;
    }
  if (request->update != NULL)
    {
      new = dyno_eval_update (request->update, old, request->key, &local);
      if (new == NULL)
        {
          GError *converted = NULL;

          to_engine_error (local, &converted);
          local = converted;
          goto failed;
        }
    }
  else
    new = old ? dyno_item_ref (old) : dyno_item_ref (request->key);
  if (!check_item (table, new, TRUE, &local))
    goto failed;
  if (!store_item (self, table, old, new, &cap, &local) || !commit (self, &local))
    goto failed;
  switch (request->return_values)
    {
    case DYNO_RETURN_VALUES_ALL_OLD:
      returned = old ? dyno_item_ref (old) : NULL;
      break;
    case DYNO_RETURN_VALUES_ALL_NEW:
      returned = dyno_item_ref (new);
      break;
    case DYNO_RETURN_VALUES_UPDATED_OLD:
      returned = request->update ? project_updated (request->update, old) : NULL;
      break;
    case DYNO_RETURN_VALUES_UPDATED_NEW:
      returned = request->update ? project_updated (request->update, new) : NULL;
      break;
    default:
      break;
    }
  out = g_string_new (NULL);
  finish_write_response (out, table, &cap, request->return_consumed_capacity, "Attributes",
                         returned);
  capacity_clear (&cap);
  return g_string_free (out, FALSE);

failed:
  rollback (self);
  capacity_clear (&cap);
  g_propagate_error (error, local);
  return NULL;
}

static char *
op_get_item (DynoEngine *self,
             const char *body,
             gssize      len,
             GError    **error)
{
  g_autoptr(DynoRequest) request = parse_request (body, len, DYNO_OP_GET_ITEM, error);
  g_autoptr(DynoItem) item = NULL;
  g_autoptr(DynoItem) shown = NULL;
  DynoEngineTable *table;
  Capacity cap;
  GError *local = NULL;
  GString *out;

  if (request == NULL)
    return NULL;
  if ((table = find_table (self, request->table_name, error)) == NULL)
    return NULL;
  if (!check_key (table, request->key, error)
      || !dyno_engine_check_projection (request->projection, error))
    return NULL;
  item = load_item (self, table, request->key, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  capacity_init (&cap, table);
  cap.table = read_units_for (item ? dyno_item_get_size (item) : 0,
                              request->consistent_read == DYNO_TRISTATE_TRUE);
  if (item != NULL)
    shown = request->projection ? dyno_eval_project (request->projection, item)
                                : dyno_item_ref (item);
  out = g_string_new (NULL);
  finish_write_response (out, table, &cap, request->return_consumed_capacity, "Item", shown);
  capacity_clear (&cap);
  return g_string_free (out, FALSE);
}

/* ---- Query and Scan ---------------------------------------------------------------------- */

typedef struct {
  DynoCompareOp  op;        /* EQ, LT, LE, GT, GE; or -1 */
  gboolean       between;
  gboolean       begins_with;
  const DynoValue *a;
  const DynoValue *b;
} SortCondition;

static gboolean
kc_invalid (GError    **error,
            const char *message)
{
  fail (error, VALIDATION, "%s", message);
  return FALSE;
}

static void
collect_and (const DynoExpr *expr,
             GPtrArray      *out)
{
  expr = dyno_expr_skip_parens (expr);
  if (expr->kind == DYNO_EXPR_AND)
    {
      collect_and (g_ptr_array_index (expr->args, 0), out);
      collect_and (g_ptr_array_index (expr->args, 1), out);
    }
  else
    g_ptr_array_add (out, (gpointer) expr);
}

static const DynoExpr *
arg (const DynoExpr *expr,
     guint           i)
{
  return dyno_expr_skip_parens (g_ptr_array_index (expr->args, i));
}

/* Reads a KeyConditionExpression against the keys (@pk, @sk) it is to use. */
static gboolean
read_key_condition (const DynoExpr       *expr,
                    const DynoEngineKey  *pk,
                    const DynoEngineKey  *sk,
                    const DynoValue     **out_pk,
                    SortCondition        *out_sk,
                    GError              **error)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();

  *out_pk = NULL;
  memset (out_sk, 0, sizeof *out_sk);
  out_sk->op = (DynoCompareOp) -1;
  collect_and (expr, parts);
  for (guint i = 0; i < parts->len; i++)
    {
      const DynoExpr *part = g_ptr_array_index (parts, i);
      const DynoExpr *path = NULL;
      const DynoValue *values[2] = { NULL, NULL };
      DynoCompareOp op = DYNO_COMPARE_EQ;
      gboolean between = FALSE, begins = FALSE;
      const char *name;

      switch (part->kind)
        {
        case DYNO_EXPR_OR:
          return kc_invalid (error, "Invalid operator used in KeyConditionExpression: OR");
        case DYNO_EXPR_NOT:
          return kc_invalid (error, "Invalid operator used in KeyConditionExpression: NOT");
        case DYNO_EXPR_IN:
          return kc_invalid (error, "Invalid operator used in KeyConditionExpression: IN");
        case DYNO_EXPR_COMPARE:
          {
            const DynoExpr *l = arg (part, 0), *r = arg (part, 1);

            if (l->kind == DYNO_EXPR_SIZE || r->kind == DYNO_EXPR_SIZE)
              return kc_invalid (error, "KeyConditionExpressions cannot contain nested "
                                 "operations");
            if (part->op.compare == DYNO_COMPARE_NE)
              return kc_invalid (error, "Invalid operator used in KeyConditionExpression: <>");
            op = part->op.compare;
            if (l->kind == DYNO_EXPR_PATH && r->kind == DYNO_EXPR_PATH)
              return kc_invalid (error, "Invalid condition in KeyConditionExpression: Multiple "
                                 "attribute names used in one condition");
            if (l->kind == DYNO_EXPR_PATH && r->kind == DYNO_EXPR_VALUE)
              {
                path = l;
                values[0] = r->value;
              }
            else if (r->kind == DYNO_EXPR_PATH && l->kind == DYNO_EXPR_VALUE)
              {
                static const DynoCompareOp flipped[] = {
                  DYNO_COMPARE_EQ, DYNO_COMPARE_NE, DYNO_COMPARE_GT, DYNO_COMPARE_GE,
                  DYNO_COMPARE_LT, DYNO_COMPARE_LE };

                path = r;
                values[0] = l->value;
                op = flipped[op];
              }
            else
              return kc_invalid (error, "Invalid condition in KeyConditionExpression: No key "
                                 "attribute specified");
          }
          break;
        case DYNO_EXPR_BETWEEN:
          if (arg (part, 0)->kind != DYNO_EXPR_PATH)
            return kc_invalid (error, "Invalid condition in KeyConditionExpression: BETWEEN "
                               "operator must have the key attribute as its first operand");
          if (arg (part, 1)->kind != DYNO_EXPR_VALUE || arg (part, 2)->kind != DYNO_EXPR_VALUE)
            return kc_invalid (error, "Invalid condition in KeyConditionExpression: Multiple "
                               "attribute names used in one condition");
          path = arg (part, 0);
          values[0] = arg (part, 1)->value;
          values[1] = arg (part, 2)->value;
          between = TRUE;
          break;
        case DYNO_EXPR_FUNCTION:
          if (part->op.function != DYNO_FUNCTION_BEGINS_WITH)
            {
              fail (error, VALIDATION, "Invalid operator used in KeyConditionExpression: %s",
                    dyno_function_to_string (part->op.function));
              return FALSE;
            }
          if (arg (part, 0)->kind != DYNO_EXPR_PATH)
            return kc_invalid (error, "Invalid condition in KeyConditionExpression: "
                               "begins_with operator must have the key attribute as its "
                               "first operand");
          if (arg (part, 1)->kind != DYNO_EXPR_VALUE)
            return kc_invalid (error, "Invalid condition in KeyConditionExpression: Multiple "
                               "attribute names used in one condition");
          path = arg (part, 0);
          values[0] = arg (part, 1)->value;
          begins = TRUE;
          break;
        default:
          return kc_invalid (error, "Invalid condition in KeyConditionExpression: No key "
                             "attribute specified");
        }
      if (dyno_path_get_length (path->path) != 1)
        return kc_invalid (error, "KeyConditionExpressions cannot have conditions on nested "
                           "attributes");
      name = dyno_path_get_attribute (path->path);
      if (strcmp (name, pk->name) == 0)
        {
          if (*out_pk != NULL)
            return kc_invalid (error, "KeyConditionExpressions must only contain one "
                               "condition per key");
          if (between || begins || op != DYNO_COMPARE_EQ)
            return kc_invalid (error, "Query key condition not supported");
          *out_pk = values[0];
          if (dyno_value_get_kind (values[0]) != pk->type)
            return kc_invalid (error, "One or more parameter values were invalid: Condition "
                               "parameter type does not match schema type");
        }
      else if (sk->name != NULL && strcmp (name, sk->name) == 0)
        {
          if (out_sk->a != NULL)
            return kc_invalid (error, "KeyConditionExpressions must only contain one "
                               "condition per key");
          if (begins && sk->type == DYNO_VALUE_N)
            return kc_invalid (error, "Invalid KeyConditionExpression: Incorrect operand type "
                               "for operator or function; operator or function: begins_with, "
                               "operand type: N");
          for (guint v = 0; v < 2 && values[v]; v++)
            if (dyno_value_get_kind (values[v]) != sk->type)
              return kc_invalid (error, "One or more parameter values were invalid: Condition "
                                 "parameter type does not match schema type");
          if (between && dyno_value_compare (values[0], values[1]) > 0)
            {
              g_autofree char *lo = dyno_engine_value_display (values[0]);
              g_autofree char *hi = dyno_engine_value_display (values[1]);

              fail (error, VALIDATION, "Invalid KeyConditionExpression: The BETWEEN operator "
                    "requires upper bound to be greater than or equal to lower bound; lower "
                    "bound operand: AttributeValue: %s, upper bound operand: AttributeValue: %s",
                    lo, hi);
              return FALSE;
            }
          out_sk->op = between || begins ? (DynoCompareOp) -1 : op;
          out_sk->between = between;
          out_sk->begins_with = begins;
          out_sk->a = values[0];
          out_sk->b = values[1];
        }
      else
        {
          fail (error, VALIDATION, "Query condition missed key schema element: %s",
                *out_pk == NULL && (sk->name == NULL || i == 0) ? pk->name
                                                                : (sk->name ? sk->name : pk->name));
          return FALSE;
        }
    }
  if (*out_pk == NULL)
    {
      fail (error, VALIDATION, "Query condition missed key schema element: %s", pk->name);
      return FALSE;
    }
  if (value_is_empty (*out_pk))
    {
      fail (error, VALIDATION, "One or more parameter values were invalid: The AttributeValue "
            "for a key attribute cannot contain an empty %s value. Key: %s",
            pk->type == DYNO_VALUE_B ? "binary" : "string", pk->name);
      return FALSE;
    }
  return TRUE;
}

/* The smallest byte string greater than every string starting with @prefix; FALSE if none. */
static gboolean
prefix_successor (GByteArray *prefix)
{
  while (prefix->len > 0 && prefix->data[prefix->len - 1] == 0xFF)
    g_byte_array_set_size (prefix, prefix->len - 1);
  if (prefix->len == 0)
    return FALSE;
  prefix->data[prefix->len - 1]++;
  return TRUE;
}

typedef struct {
  DynoEngineTable   *table;
  DynoEngineIndex   *index;      /* NULL: the table */
  const DynoEngineKey *pk;
  const DynoEngineKey *sk;
} Target;

static gboolean
find_target (DynoEngine  *self,
             DynoRequest *request,
             Target      *target,
             GError     **error)
{
  if ((target->table = find_table (self, request->table_name, error)) == NULL)
    return FALSE;
  target->index = NULL;
  target->pk = &target->table->pk;
  target->sk = &target->table->sk;
  if (request->index_name != NULL)
    {
      target->index = dyno_engine_table_find_index (target->table, request->index_name);
      if (target->index == NULL)
        {
          fail (error, VALIDATION, "The table does not have the specified index: %s",
                request->index_name);
          return FALSE;
        }
      target->pk = &target->index->pk;
      target->sk = &target->index->sk;
      if (target->index->global && request->consistent_read == DYNO_TRISTATE_TRUE)
        {
          fail (error, VALIDATION, "Consistent reads are not supported on global secondary "
                "indexes");
          return FALSE;
        }
    }
  return TRUE;
}

/* The key attributes LastEvaluatedKey carries for @item. */
static DynoItem *
evaluated_key (const Target   *target,
               const DynoItem *item)
{
  const char *names[4] = { target->table->pk.name, target->table->sk.name, NULL, NULL };

  if (target->index != NULL)
    {
      names[2] = target->index->pk.name;
      names[3] = target->index->sk.name;
    }
  return item_subset (item, names, 4);
}

/* ExclusiveStartKey: checked (the right attributes, typed) and encoded as (pk, sk, tk). */
static gboolean
read_start_key (const Target   *target,
                const DynoItem *start,
                GByteArray     *pk,
                GByteArray     *sk,
                GByteArray     *tk,
                GError        **error)
{
  const char *names[4] = { target->table->pk.name, target->table->sk.name, NULL, NULL };
  const DynoEngineKey *keys[4] = { &target->table->pk, &target->table->sk, NULL, NULL };
  guint expected = 0;

  if (target->index != NULL)
    {
      names[2] = target->index->pk.name;
      names[3] = target->index->sk.name;
      keys[2] = &target->index->pk;
      keys[3] = &target->index->sk;
    }
  {
    g_autoptr(GHashTable) distinct = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint i = 0; i < 4; i++)
      if (names[i] != NULL)
        g_hash_table_add (distinct, (gpointer) names[i]);
    expected = g_hash_table_size (distinct);
  }
  if (dyno_item_get_n_attributes (start) != expected)
    {
      fail (error, VALIDATION, "The provided starting key is invalid: The provided key element "
            "does not match the schema");
      return FALSE;
    }
  for (guint i = 0; i < 4; i++)
    {
      const DynoValue *value;

      if (names[i] == NULL)
        continue;
      value = dyno_item_lookup (start, names[i]);
      if (value == NULL || dyno_value_get_kind (value) != keys[i]->type)
        {
          fail (error, VALIDATION, "The provided starting key is invalid: The provided key "
                "element does not match the schema");
          return FALSE;
        }
    }
  encode_opt (start, target->pk->name, pk);
  encode_opt (start, target->sk->name, sk);
  if (target->index != NULL)
    {
      g_autoptr(GByteArray) t = table_tk (target->table, start);

      g_byte_array_append (tk, t->data, t->len);
    }
  return TRUE;
}

typedef struct {
  DynoRequest *request;
  Target       target;
  DynoSelect   select;
  gint64       count;
  gint64       scanned;
  gsize        bytes;
  gboolean     fetch;          /* ALL_ATTRIBUTES on a local index that projects less */
  double       fetched_units;  /* those reads from the table: each item rounded up to 4 KB */
  GString     *items;
  DynoItem    *last;
} Page;

/* Reads rows of @s (item, size) into the page until the limit or 1 MB; TRUE on success. */
static gboolean
read_page (DynoEngine   *self,
           sqlite3_stmt *s,
           Page         *page,
           DynoExprRole  filter_role,
           GError      **error)
{
  /* With nothing to filter, project, fetch or expire, each item is the row's own text:
   * written by dyno_item_to_ddb_json(), it is what writing the item again would give.  It is
   * still checked to be JSON, so that a row damaged outside the engine is refused as the
   * other path refuses it, never sent. */
  gboolean as_stored = !page->fetch && page->request->filter == NULL
                       && page->request->projection == NULL
                       && page->target.table->ttl_attribute == NULL;
  int rc;

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      g_autoptr(DynoItem) item = NULL;
      gboolean match;

      if (as_stored)
        {
          const char *json = (const char *) sqlite3_column_text (s, 0);
          int len = sqlite3_column_bytes (s, 0);

          if (json != NULL && dyno_json_validate (json, len, NULL))
            {
              page->scanned++;
              page->count++;
              page->bytes += sqlite3_column_int64 (s, 1);
              if (page->select != DYNO_SELECT_COUNT)
                {
                  if (page->count > 1)
                    g_string_append_c (page->items, ',');
                  g_string_append_len (page->items, json, len);
                }
              if ((page->request->limit > 0 && page->scanned >= page->request->limit)
                  || page->bytes >= DYNO_ENGINE_PAGE_BYTES)
                {
                  item = row_item (s, 0, error);
                  if (item == NULL)
                    return FALSE;
                  page->last = evaluated_key (&page->target, item);
                  return TRUE;
                }
              continue;
            }
        }
      item = row_item (s, 0, error);

      if (item == NULL)
        return FALSE;
      if (dyno_engine_row_expired (self, page->target.table, page->target.index, item))
        continue;
      page->scanned++;
      page->bytes += sqlite3_column_int64 (s, 1);
      if (page->fetch)
        {
          g_autoptr(DynoItem) key = table_key_of (page->target.table, item);
          GError *local = NULL;
          DynoItem *full = load_item (self, page->target.table, key, &local);

          if (local != NULL)
            {
              g_propagate_error (error, local);
              return FALSE;
            }
          if (full != NULL)
            {
              page->fetched_units += read_units_for (dyno_item_get_size (full),
                                                     page->request->consistent_read
                                                     == DYNO_TRISTATE_TRUE);
              dyno_item_unref (item);
              item = full;
            }
        }
      if (!eval_condition (page->request->filter, filter_role, item, &match, error))
        return FALSE;
      if (match)
        {
          page->count++;
          if (page->select != DYNO_SELECT_COUNT)
            {
              g_autoptr(DynoItem) shown = page->request->projection
                                          ? dyno_eval_project (page->request->projection, item)
                                          : dyno_item_ref (item);

              if (page->count > 1)
                g_string_append_c (page->items, ',');
              dyno_map_write_ddb_item (dyno_item_get_map (shown), page->items);
            }
        }
      if ((page->request->limit > 0 && page->scanned >= page->request->limit)
          || page->bytes >= DYNO_ENGINE_PAGE_BYTES)
        {
          page->last = evaluated_key (&page->target, item);
          return TRUE;
        }
    }
  if (rc != SQLITE_DONE)
    return sql_failed (self, error);
  return TRUE;
}

static gboolean
check_select (DynoRequest *request,
              DynoSelect  *out,
              GError     **error)
{
  DynoSelect select = request->select;

  if (select == DYNO_SELECT_UNSET)
    select = request->projection ? DYNO_SELECT_SPECIFIC_ATTRIBUTES
             : request->index_name ? DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES
             : DYNO_SELECT_ALL_ATTRIBUTES;
  if (select == DYNO_SELECT_SPECIFIC_ATTRIBUTES && request->projection == NULL)
    {
      fail (error, VALIDATION, "Select type SPECIFIC_ATTRIBUTES requires AttributesToGet or "
            "ProjectionExpression");
      return FALSE;
    }
  if (select != DYNO_SELECT_SPECIFIC_ATTRIBUTES && request->projection != NULL)
    {
      fail (error, VALIDATION, "Cannot specify the ProjectionExpression when choosing to get "
            "%s", dyno_select_to_string (select));
      return FALSE;
    }
  if (select == DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES && request->index_name == NULL)
    {
      fail (error, VALIDATION, "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using "
            "an IndexName");
      return FALSE;
    }
  *out = select;
  return TRUE;
}

/* Select=ALL_ATTRIBUTES on an index: refused on a GSI that does not project everything,
 * read from the table on such an LSI. */
static gboolean
check_index_select (Page    *page,
                    GError **error)
{
  DynoEngineIndex *index = page->target.index;

  if (index == NULL || index->projection == DYNO_PROJECTION_ALL
      || page->select != DYNO_SELECT_ALL_ATTRIBUTES)
    return TRUE;
  if (index->global)
    {
      fail (error, VALIDATION, "One or more parameter values were invalid: Select type "
            "ALL_ATTRIBUTES is not supported for global secondary index %s because its "
            "projection type is not ALL", index->name);
      return FALSE;
    }
  page->fetch = TRUE;
  return TRUE;
}

static char *
finish_page (Page *page)
{
  gboolean consistent = page->request->consistent_read == DYNO_TRISTATE_TRUE;
  double units = read_units_for (page->bytes, consistent);
  GString *out;
  Capacity cap;

  /* the items were written after the answer's beginning (page_items_new()): the answer goes
   * on where they end, without copying them */
  out = g_steal_pointer (&page->items);
  if (page->select != DYNO_SELECT_COUNT)
    g_string_append (out, "],");
  g_string_append_printf (out, "\"Count\":%" G_GINT64_FORMAT ",\"ScannedCount\":%"
                          G_GINT64_FORMAT, page->count, page->scanned);
  if (page->last != NULL)
    {
      g_string_append_c (out, ',');
      write_item_member (out, "LastEvaluatedKey", page->last);
    }
  if (wants_capacity (page->request->return_consumed_capacity))
    {
      capacity_init (&cap, page->target.table);
      if (page->target.index == NULL)
        cap.table = units;
      else
        {
          guint i;

          for (i = 0; i < page->target.table->indexes->len; i++)
            if (g_ptr_array_index (page->target.table->indexes, i) == page->target.index)
              cap.indexes[i] = units;
          cap.table = page->fetched_units;
        }
      g_string_append (out, ",\"ConsumedCapacity\":");
      write_capacity (out, page->target.table, &cap, page->request->return_consumed_capacity);
      capacity_clear (&cap);
    }
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);
}

/* The answer's text as read_page() begins it: its items are appended, and finish_page() ends
 * it.  Sized for a page of some items at once (a page is at most 1 MB). */
static GString *
page_items_new (DynoSelect select)
{
  GString *items = g_string_sized_new (16384);

  g_string_append (items, select == DYNO_SELECT_COUNT ? "{" : "{\"Items\":[");
  return items;
}

static void
page_clear (Page *page)
{
  g_clear_pointer (&page->request, dyno_request_free);
  if (page->items)
    g_string_free (page->items, TRUE);
  g_clear_pointer (&page->last, dyno_item_unref);
}

static gboolean
check_filter_keys (const DynoExpr        *expr,
                   const Target          *target,
                   GError               **error)
{
  if (expr == NULL)
    return TRUE;
  if (expr->kind == DYNO_EXPR_PATH || expr->kind == DYNO_EXPR_SIZE)
    {
      const char *name = dyno_path_get_attribute (expr->path);
      const char *keys[] = { target->table->pk.name, target->table->sk.name,
                             target->index ? target->index->pk.name : NULL,
                             target->index ? target->index->sk.name : NULL };

      for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
        if (keys[i] && strcmp (keys[i], name) == 0)
          {
            fail (error, VALIDATION, "Filter Expression can only contain non-primary key "
                  "attributes: Primary key attribute: %s", name);
            return FALSE;
          }
    }
  for (guint i = 0; expr->args && i < expr->args->len; i++)
    if (!check_filter_keys (g_ptr_array_index (expr->args, i), target, error))
      return FALSE;
  return TRUE;
}

static char *
op_query (DynoEngine *self,
          const char *body,
          gssize      len,
          GError    **error)
{
  Page page = { 0 };
  const DynoValue *pk_value;
  SortCondition sc;
  g_autoptr(GByteArray) pk = g_byte_array_new ();
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autoptr(GByteArray) esk_pk = g_byte_array_new ();
  g_autoptr(GByteArray) esk_sk = g_byte_array_new ();
  g_autoptr(GByteArray) esk_tk = g_byte_array_new ();
  g_autoptr(GString) sql = g_string_new (NULL);
  gboolean forward, has_upper = TRUE;
  sqlite3_stmt *s;
  char *response = NULL;

  page.request = parse_request (body, len, DYNO_OP_QUERY, error);
  if (page.request == NULL)
    return NULL;
  if (page.request->key_condition == NULL)
    {
      fail (error, VALIDATION, "Either the KeyConditions or KeyConditionExpression parameter "
            "must be specified in the request.");
      goto out;
    }
  if (!check_select (page.request, &page.select, error)
      || !find_target (self, page.request, &page.target, error)
      || !check_index_select (&page, error)
      || !read_key_condition (page.request->key_condition, page.target.pk, page.target.sk,
                              &pk_value, &sc, error)
      || !check_filter_keys (page.request->filter, &page.target, error)
      || !check_condition (page.request->filter, DYNO_EXPR_ROLE_FILTER, error))
    goto out;
  if (page.request->projection != NULL)
    {
      GError *local = NULL;

      if (!dyno_eval_check_projection (page.request->projection, &local))
        {
          to_engine_error (local, error);
          goto out;
        }
    }
  forward = page.request->scan_index_forward != DYNO_TRISTATE_FALSE;
  dyno_engine_encode_key (pk_value, pk);

  g_string_append (sql, "SELECT item, size FROM dyno_items WHERE table_id = ?1 AND "
                        "index_id = ?2 AND pk = ?3");
  if (sc.a != NULL)
    {
      dyno_engine_encode_key (sc.a, a);
      if (sc.b)
        dyno_engine_encode_key (sc.b, b);
      if (sc.between)
        g_string_append (sql, " AND sk >= ?4 AND sk <= ?5");
      else if (sc.begins_with)
        {
          g_byte_array_append (b, a->data, a->len);
          has_upper = prefix_successor (b);
          g_string_append (sql, has_upper ? " AND sk >= ?4 AND sk < ?5" : " AND sk >= ?4");
        }
      else
        {
          static const char * const ops[] = { "=", "<>", "<", "<=", ">", ">=" };

          g_string_append_printf (sql, " AND sk %s ?4", ops[sc.op]);
        }
    }
  if (page.request->exclusive_start_key != NULL)
    {
      if (!read_start_key (&page.target, page.request->exclusive_start_key, esk_pk, esk_sk,
                           esk_tk, error))
        goto out;
      if (!bytes_equal (esk_pk, pk))
        {
          fail (error, VALIDATION, "The provided starting key is outside query boundaries "
                "based on provided conditions");
          goto out;
        }
      g_string_append_printf (sql, " AND (sk, tk) %s (?6, ?7)", forward ? ">" : "<");
    }
  g_string_append (sql, forward ? " ORDER BY sk ASC, tk ASC" : " ORDER BY sk DESC, tk DESC");

  s = stmt (self, sql->str, error);
  if (s == NULL)
    goto out;
  sqlite3_bind_int64 (s, 1, page.target.table->id);
  sqlite3_bind_int64 (s, 2, page.target.index ? page.target.index->id : 0);
  bind_bytes (s, 3, pk);
  if (sc.a != NULL)
    {
      bind_bytes (s, 4, a);
      if ((sc.between || sc.begins_with) && has_upper)
        bind_bytes (s, 5, b);
    }
  if (page.request->exclusive_start_key != NULL)
    {
      bind_bytes (s, 6, esk_sk);
      bind_bytes (s, 7, esk_tk);
    }
  page.items = page_items_new (page.select);
  if (read_page (self, s, &page, DYNO_EXPR_ROLE_FILTER, error))
    response = finish_page (&page);
  sqlite3_reset (s);

out:
  page_clear (&page);
  return response;
}

static char *
op_scan (DynoEngine *self,
         const char *body,
         gssize      len,
         GError    **error)
{
  Page page = { 0 };
  g_autoptr(GByteArray) esk_pk = g_byte_array_new ();
  g_autoptr(GByteArray) esk_sk = g_byte_array_new ();
  g_autoptr(GByteArray) esk_tk = g_byte_array_new ();
  g_autoptr(GString) sql = g_string_new (NULL);
  sqlite3_stmt *s;
  char *response = NULL;
  gboolean segmented;

  page.request = parse_request (body, len, DYNO_OP_SCAN, error);
  if (page.request == NULL)
    return NULL;
  if (!check_select (page.request, &page.select, error)
      || !find_target (self, page.request, &page.target, error)
      || !check_index_select (&page, error)
      || !check_condition (page.request->filter, DYNO_EXPR_ROLE_FILTER, error))
    goto out;
  if (page.request->projection != NULL)
    {
      GError *local = NULL;

      if (!dyno_eval_check_projection (page.request->projection, &local))
        {
          to_engine_error (local, error);
          goto out;
        }
    }
  segmented = page.request->total_segments > 0;
  if ((page.request->segment >= 0) != segmented)
    {
      fail (error, VALIDATION, "The TotalSegments parameter is required but was not present "
            "in the request when Segment parameter is present");
      goto out;
    }
  if (segmented && page.request->segment >= page.request->total_segments)
    {
      fail (error, VALIDATION, "The Segment parameter is zero-based and must be less than "
            "parameter TotalSegments: Segment: %d is not less than TotalSegments: %d",
            page.request->segment, page.request->total_segments);
      goto out;
    }
  g_string_append (sql, "SELECT item, size FROM dyno_items WHERE table_id = ?1 AND "
                        "index_id = ?2");
  if (page.request->exclusive_start_key != NULL)
    {
      if (!read_start_key (&page.target, page.request->exclusive_start_key, esk_pk, esk_sk,
                           esk_tk, error))
        goto out;
      g_string_append (sql, " AND (pk, sk, tk) > (?3, ?4, ?5)");
    }
  if (segmented)
    g_string_append (sql, " AND dyno_segment(pk, ?6) = ?7");
  g_string_append (sql, " ORDER BY pk, sk, tk");

  s = stmt (self, sql->str, error);
  if (s == NULL)
    goto out;
  sqlite3_bind_int64 (s, 1, page.target.table->id);
  sqlite3_bind_int64 (s, 2, page.target.index ? page.target.index->id : 0);
  if (page.request->exclusive_start_key != NULL)
    {
      bind_bytes (s, 3, esk_pk);
      bind_bytes (s, 4, esk_sk);
      bind_bytes (s, 5, esk_tk);
    }
  if (segmented)
    {
      sqlite3_bind_int64 (s, 6, page.request->total_segments);
      sqlite3_bind_int64 (s, 7, page.request->segment);
    }
  page.items = page_items_new (page.select);
  if (read_page (self, s, &page, DYNO_EXPR_ROLE_FILTER, error))
    response = finish_page (&page);
  sqlite3_reset (s);

out:
  page_clear (&page);
  return response;
}

/* ---- batches ----------------------------------------------------------------------------- */

static char *
node_to_json (JsonNode *node)
{
  GString *out = g_string_new (NULL);

  dyno_json_write_node (out, node, FALSE);
  return g_string_free (out, FALSE);
}

/* A request JSON for one item of a batch: the table name and @members of @object. */
static char *
sub_request (const char *table_name,
             JsonObject *object,
             const char *key_member,
             JsonNode   *key)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *request = json_object_new ();
  static const char * const copied[] = { "ProjectionExpression", "ExpressionAttributeNames",
                                         "ConsistentRead" };

  json_object_set_string_member (request, "TableName", table_name);
  json_object_set_member (request, key_member, json_node_copy (key));
  for (guint i = 0; object && i < G_N_ELEMENTS (copied); i++)
    if (json_object_has_member (object, copied[i]))
      json_object_set_member (request, copied[i],
                              json_node_copy (json_object_get_member (object, copied[i])));
  json_node_take_object (node, request);
  return node_to_json (node);
}

static char *
op_batch_get_item (DynoEngine *self,
                   const char *body,
                   gssize      len,
                   GError    **error)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *request = parse_object (body, len, &node, error);
  JsonObject *items;
  DynoReturnConsumedCapacity mode;
  g_autoptr(GString) responses = g_string_new (NULL);
  g_autoptr(GString) capacity = g_string_new (NULL);
  GList *tables, *l;
  guint total = 0;

  if (request == NULL)
    return NULL;
  mode = object_capacity (request);
  items = json_object_has_member (request, "RequestItems")
          && JSON_NODE_HOLDS_OBJECT (json_object_get_member (request, "RequestItems"))
          ? json_object_get_object_member (request, "RequestItems") : NULL;
  if (items == NULL || json_object_get_size (items) == 0)
    {
      fail (error, VALIDATION, "1 validation error detected: Value null at 'requestItems' "
            "failed to satisfy constraint: Member must not be null");
      return NULL;
    }
  tables = json_object_get_members (items);
  /* Checked all first: a batch is refused as a whole. */
  for (l = tables; l; l = l->next)
    {
      JsonNode *tn = json_object_get_member (items, l->data);
      JsonObject *to = JSON_NODE_HOLDS_OBJECT (tn) ? json_node_get_object (tn) : NULL;
      JsonNode *keys = to ? json_object_get_member (to, "Keys") : NULL;
      DynoEngineTable *table = find_table (self, l->data, error);
      g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      if (table == NULL)
        goto fail;
      if (keys == NULL || !JSON_NODE_HOLDS_ARRAY (keys)
          || json_array_get_length (json_node_get_array (keys)) == 0)
        {
          fail (error, VALIDATION, "1 validation error detected: Value null at "
                "'requestItems.%s.member.keys' failed to satisfy constraint: Member must not "
                "be null", (const char *) l->data);
          goto fail;
        }
      total += json_array_get_length (json_node_get_array (keys));
      for (guint i = 0; i < json_array_get_length (json_node_get_array (keys)); i++)
        {
          GError *local = NULL;
          JsonNode *kn = json_array_get_element (json_node_get_array (keys), i);
          g_autoptr(DynoItem) key = dyno_item_from_json_node (kn, &local);

          if (key == NULL)
            {
              to_engine_error (local, error);
              goto fail;
            }
          if (!check_key (table, key, error))
            goto fail;
          if (!g_hash_table_add (seen, dyno_item_to_ddb_json (key)))
            {
              fail (error, VALIDATION, "Provided list of item keys contains duplicates");
              goto fail;
            }
        }
    }
  if (total > 100)
    {
      fail (error, VALIDATION, "Too many items requested for the BatchGetItem call");
      goto fail;
    }
  for (l = tables; l; l = l->next)
    {
      JsonObject *to = json_object_get_object_member (items, l->data);
      JsonArray *keys = json_object_get_array_member (to, "Keys");
      DynoEngineTable *table = g_hash_table_lookup (self->tables, l->data);
      gboolean consistent = json_object_has_member (to, "ConsistentRead")
                            && json_object_get_boolean_member (to, "ConsistentRead");
      Capacity cap;

      capacity_init (&cap, table);
      if (responses->len > 0)
        g_string_append_c (responses, ',');
      dyno_json_write_string (responses, l->data, -1);
      g_string_append (responses, ":[");
      for (guint i = 0, n = 0; i < json_array_get_length (keys); i++)
        {
          g_autofree char *sub = sub_request (l->data, to, "Key",
                                              json_array_get_element (keys, i));
          g_autoptr(DynoRequest) get = parse_request (sub, -1, DYNO_OP_GET_ITEM, error);
          g_autoptr(DynoItem) item = NULL;
          GError *local = NULL;

          if (get == NULL || !dyno_engine_check_projection (get->projection, error))
            {
              capacity_clear (&cap);
              goto fail;
            }
          item = load_item (self, table, get->key, &local);
          if (local != NULL)
            {
              g_propagate_error (error, local);
              capacity_clear (&cap);
              goto fail;
            }
          cap.table += read_units_for (item ? dyno_item_get_size (item) : 0, consistent);
          if (item != NULL)
            {
              g_autoptr(DynoItem) shown = get->projection
                                          ? dyno_eval_project (get->projection, item)
                                          : dyno_item_ref (item);

              if (n++ > 0)
                g_string_append_c (responses, ',');
              dyno_map_write_ddb_item (dyno_item_get_map (shown), responses);
            }
        }
      g_string_append_c (responses, ']');
      if (wants_capacity (mode))
        {
          if (capacity->len > 0)
            g_string_append_c (capacity, ',');
          write_capacity (capacity, table, &cap, mode);
        }
      capacity_clear (&cap);
    }
  g_list_free (tables);
  {
    GString *out = g_string_new ("{\"Responses\":{");

    g_string_append_len (out, responses->str, responses->len);
    g_string_append (out, "},\"UnprocessedKeys\":{}");
    if (wants_capacity (mode))
      g_string_append_printf (out, ",\"ConsumedCapacity\":[%s]", capacity->str);
    g_string_append_c (out, '}');
    return g_string_free (out, FALSE);
  }

fail:
  g_list_free (tables);
  return NULL;
}

/* One table's writes in a BatchWriteItem, in the order sent. */
typedef struct {
  char      *name;
  GPtrArray *writes;   /* DynoRequest: a PutItem (its item) or a DeleteItem (its key) */
} BatchTable;

static void
batch_table_clear (gpointer data)
{
  BatchTable *batch = data;

  g_free (batch->name);
  g_clear_pointer (&batch->writes, g_ptr_array_unref);
}

static GArray *
batch_tables_new (void)
{
  GArray *tables = g_array_new (FALSE, TRUE, sizeof (BatchTable));

  g_array_set_clear_func (tables, batch_table_clear);
  return tables;
}

static BatchTable *
batch_tables_add (GArray     *tables,
                  const char *name)
{
  BatchTable batch = { g_strdup (name),
                       g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_request_free) };

  g_array_append_val (tables, batch);
  return &g_array_index (tables, BatchTable, tables->len - 1);
}

static gboolean
batch_check_count (guint    n,
                   GError **error)
{
  if (n > 0)
    return TRUE;
  fail (error, VALIDATION, "1 validation error detected: Value null at "
        "'requestItems' failed to satisfy constraint: Map value must satisfy "
        "constraint: [Member must have length less than or equal to 25, Member must "
        "have length greater than or equal to 1]");
  return FALSE;
}

/* The keys a batch's writes of one table have used, for batch_check_write(). */
static GHashTable *
batch_seen_new (void)
{
  return g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                NULL);
}

/* One write of @table: its item or key as the table needs it, and a key not seen before in the
 * batch (@seen: the keys, encoded as the index rows' table key is). */
static gboolean
batch_check_write (const DynoEngineTable *table,
                   const DynoRequest     *write,
                   GHashTable            *seen,
                   GError               **error)
{
  GByteArray *key;

  if (write->item != NULL ? !check_item (table, write->item, FALSE, error)
                          : !check_key (table, write->key, error))
    return FALSE;
  key = table_tk (table, write->item ? write->item : write->key);
  if (g_hash_table_add (seen, g_byte_array_free_to_bytes (key)))
    return TRUE;
  fail (error, VALIDATION, "Provided list of item keys contains duplicates");
  return FALSE;
}

/* The usual BatchWriteItem read in place, in one pass, without a json-glib tree:
 * {"RequestItems":{"t":[{"PutRequest":{"Item":{…}}}|{"DeleteRequest":{"Key":{…}}}, …], …}[,
 * "ReturnConsumedCapacity":"…"]}.  Anything else (bad JSON, a member twice, a value of
 * another type, an item DynamoDB would refuse) makes it give up, and the request is read
 * again by the tree reader, whose errors are the ones DynamoDB gives. */
static gboolean
batch_scan_write (DynoJsonReader *reader,
                  BatchTable     *batch)
{
  g_autoptr(DynoItem) item = NULL;
  gboolean seen_put = FALSE, seen_delete = FALSE;
  const char *name;

  if (!dyno_json_reader_begin_object (reader))
    return FALSE;
  while ((name = dyno_json_reader_next_member (reader)) != NULL)
    {
      gboolean put = strcmp (name, "PutRequest") == 0;
      const char *wanted = put ? "Item" : "Key";

      if (!put && strcmp (name, "DeleteRequest") != 0)
        {
          if (!dyno_json_reader_skip (reader))
            return FALSE;
          continue;
        }
      if (seen_put || seen_delete || !dyno_json_reader_begin_object (reader))
        return FALSE;
      if (put)
        seen_put = TRUE;
      else
        seen_delete = TRUE;
      while ((name = dyno_json_reader_next_member (reader)) != NULL)
        {
          if (strcmp (name, wanted) != 0)
            {
              if (!dyno_json_reader_skip (reader))
                return FALSE;
              continue;
            }
          if (item != NULL)
            return FALSE;
          item = dyno_json_reader_read_ddb_item (reader);
          if (item == NULL)
            return FALSE;
        }
      if (dyno_json_reader_get_error (reader) != NULL || item == NULL)
        return FALSE;
    }
  if (dyno_json_reader_get_error (reader) != NULL || item == NULL)
    return FALSE;
  {
    DynoRequest *write = dyno_request_new (seen_put ? DYNO_OP_PUT_ITEM : DYNO_OP_DELETE_ITEM,
                                           batch->name);

    if (seen_put)
      write->item = g_steal_pointer (&item);
    else
      write->key = g_steal_pointer (&item);
    g_ptr_array_add (batch->writes, write);
  }
  return TRUE;
}

static gboolean
batch_scan_items (DynoJsonReader *reader,
                  GArray         *tables)
{
  const char *name;

  if (dyno_json_reader_peek (reader) != '{' || !dyno_json_reader_begin_object (reader))
    return FALSE;
  while ((name = dyno_json_reader_next_member (reader)) != NULL)
    {
      BatchTable *batch;

      for (guint i = 0; i < tables->len; i++)
        if (strcmp (g_array_index (tables, BatchTable, i).name, name) == 0)
          return FALSE;
      if (dyno_json_reader_peek (reader) != '[')
        return FALSE;
      batch = batch_tables_add (tables, name);
      if (!dyno_json_reader_begin_array (reader))
        return FALSE;
      while (dyno_json_reader_next_element (reader))
        if (!batch_scan_write (reader, batch))
          return FALSE;
      if (dyno_json_reader_get_error (reader) != NULL)
        return FALSE;
    }
  return dyno_json_reader_get_error (reader) == NULL;
}

/* The writes of @body by the fast reader, or NULL when it gave up. */
static GArray *
batch_scan (const char                 *body,
            gssize                      len,
            DynoReturnConsumedCapacity *mode)
{
  g_autoptr(DynoJsonReader) reader = dyno_json_reader_new (body, len);
  g_autoptr(GArray) tables = batch_tables_new ();
  DynoReturnConsumedCapacity capacity = DYNO_CONSUMED_NONE;
  gboolean seen_items = FALSE, seen_capacity = FALSE;
  const char *name;

  if (!dyno_json_reader_begin_object (reader))
    return NULL;
  while ((name = dyno_json_reader_next_member (reader)) != NULL)
    {
      if (strcmp (name, "RequestItems") == 0)
        {
          if (seen_items || !batch_scan_items (reader, tables))
            return NULL;
          seen_items = TRUE;
        }
      else if (strcmp (name, "ReturnConsumedCapacity") == 0)
        {
          const char *text;

          /* a string, as the tree reader reads it (anything else: its call) */
          if (seen_capacity || dyno_json_reader_peek (reader) != '"'
              || (text = dyno_json_reader_read_string (reader, NULL)) == NULL)
            return NULL;
          seen_capacity = TRUE;
          dyno_consumed_capacity_from_string (text, &capacity);
        }
      else if (!dyno_json_reader_skip (reader))
        return NULL;
    }
  if (dyno_json_reader_get_error (reader) != NULL || !dyno_json_reader_end (reader)
      || tables->len == 0)
    return NULL;
  *mode = capacity;
  return g_steal_pointer (&tables);
}

/* The writes of @body by the tree reader, checked as they are read; NULL with DynamoDB's
 * error. */
static GArray *
batch_read_tree (DynoEngine                 *self,
                 const char                 *body,
                 gssize                      len,
                 DynoReturnConsumedCapacity *mode,
                 GError                    **error)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *request = parse_object (body, len, &node, error);
  JsonObject *items;
  g_autoptr(GArray) tables = batch_tables_new ();
  g_autoptr(GList) names = NULL;
  guint total = 0;

  if (request == NULL)
    return NULL;
  *mode = object_capacity (request);
  items = json_object_has_member (request, "RequestItems")
          && JSON_NODE_HOLDS_OBJECT (json_object_get_member (request, "RequestItems"))
          ? json_object_get_object_member (request, "RequestItems") : NULL;
  if (items == NULL || json_object_get_size (items) == 0)
    {
      fail (error, VALIDATION, "1 validation error detected: Value null at 'requestItems' "
            "failed to satisfy constraint: Member must not be null");
      return NULL;
    }
  names = json_object_get_members (items);
  /* Every write is read and checked before any is made: a batch is refused as a whole. */
  for (GList *l = names; l; l = l->next)
    {
      JsonNode *tn = json_object_get_member (items, l->data);
      JsonArray *list = JSON_NODE_HOLDS_ARRAY (tn) ? json_node_get_array (tn) : NULL;
      DynoEngineTable *table = find_table (self, l->data, error);
      g_autoptr(GHashTable) seen = batch_seen_new ();
      guint n = list ? json_array_get_length (list) : 0;
      BatchTable *batch;

      if (table == NULL || !batch_check_count (n, error))
        return NULL;
      batch = batch_tables_add (tables, l->data);
      total += n;
      for (guint i = 0; i < n; i++)
        {
          JsonNode *wn = json_array_get_element (list, i);
          JsonObject *wo = JSON_NODE_HOLDS_OBJECT (wn) ? json_node_get_object (wn) : NULL;
          JsonObject *put = wo && json_object_has_member (wo, "PutRequest")
                            ? json_object_get_object_member (wo, "PutRequest") : NULL;
          JsonObject *del = wo && json_object_has_member (wo, "DeleteRequest")
                            ? json_object_get_object_member (wo, "DeleteRequest") : NULL;
          JsonNode *payload;
          DynoRequest *write;
          GError *bad = NULL;
          DynoItem *value;

          if ((put == NULL) == (del == NULL))
            {
              fail (error, VALIDATION, "Supplied AttributeValue has more than one datatypes "
                    "set, must contain exactly one of the supported datatypes");
              return NULL;
            }
          payload = put ? json_object_get_member (put, "Item")
                        : json_object_get_member (del, "Key");
          if (payload == NULL)
            {
              fail (error, VALIDATION, "1 validation error detected: Value null at '%s' failed "
                    "to satisfy constraint: Member must not be null", put ? "item" : "key");
              return NULL;
            }
          write = dyno_request_new (put ? DYNO_OP_PUT_ITEM : DYNO_OP_DELETE_ITEM, l->data);
          g_ptr_array_add (batch->writes, write);
          value = dyno_item_from_json_node (payload, &bad);
          if (value == NULL)
            {
              to_engine_error (bad, error);
              return NULL;
            }
          if (put)
            write->item = value;
          else
            write->key = value;
          if (!batch_check_write (table, write, seen, error))
            return NULL;
        }
    }
  if (total > 25)
    {
      fail (error, VALIDATION, "Too many items requested for the BatchWriteItem call");
      return NULL;
    }
  return g_steal_pointer (&tables);
}

/* The checks batch_read_tree() makes as it reads, in the same order, on what the fast
 * reader read. */
static gboolean
batch_check (DynoEngine *self,
             GArray     *tables,
             GError    **error)
{
  guint total = 0;

  for (guint t = 0; t < tables->len; t++)
    {
      BatchTable *batch = &g_array_index (tables, BatchTable, t);
      DynoEngineTable *table = find_table (self, batch->name, error);
      g_autoptr(GHashTable) seen = batch_seen_new ();

      if (table == NULL || !batch_check_count (batch->writes->len, error))
        return FALSE;
      total += batch->writes->len;
      for (guint i = 0; i < batch->writes->len; i++)
        if (!batch_check_write (table, g_ptr_array_index (batch->writes, i), seen, error))
          return FALSE;
    }
  if (total <= 25)
    return TRUE;
  fail (error, VALIDATION, "Too many items requested for the BatchWriteItem call");
  return FALSE;
}

static char *
op_batch_write_item (DynoEngine *self,
                     const char *body,
                     gssize      len,
                     GError    **error)
{
  DynoReturnConsumedCapacity mode = DYNO_CONSUMED_NONE;
  g_autoptr(GString) capacity = g_string_new (NULL);
  g_autoptr(GArray) tables = batch_scan (body, len, &mode);
  GError *local = NULL;

  if (tables != NULL && !batch_check (self, tables, error))
    return NULL;
  if (tables == NULL && (tables = batch_read_tree (self, body, len, &mode, error)) == NULL)
    return NULL;
  if (!begin (self, error))
    return NULL;
  for (guint t = 0; t < tables->len; t++)
    {
      BatchTable *batch = &g_array_index (tables, BatchTable, t);
      DynoEngineTable *table = g_hash_table_lookup (self->tables, batch->name);
      Capacity cap;

      capacity_init (&cap, table);
      for (guint i = 0; i < batch->writes->len; i++)
        {
          DynoRequest *write = g_ptr_array_index (batch->writes, i);
          g_autoptr(DynoItem) key = NULL;
          g_autoptr(DynoItem) old = NULL;
          gboolean inserted = FALSE;

          /* a put of a new key (the usual load): one look for the key, not two */
          if (write->item != NULL
              && !insert_if_absent (self, table, write->item, &inserted, &local))
            {
              capacity_clear (&cap);
              goto rolled;
            }
          if (inserted)
            {
              if (!store_item_full (self, table, NULL, write->item, TRUE, &cap, &local))
                {
                  capacity_clear (&cap);
                  goto rolled;
                }
              continue;
            }
          key = table_key_of (table, write->item ? write->item : write->key);
          old = load_item (self, table, key, &local);
          if (local != NULL)
            {
              capacity_clear (&cap);
              goto rolled;
            }
          if (write->item == NULL && old == NULL)
            {
              cap.table += 1;
              continue;
            }
          if (!store_item (self, table, old, write->item, &cap, &local))
            {
              capacity_clear (&cap);
              goto rolled;
            }
        }
      if (wants_capacity (mode))
        {
          if (capacity->len > 0)
            g_string_append_c (capacity, ',');
          write_capacity (capacity, table, &cap, mode);
        }
      capacity_clear (&cap);
    }
  if (!commit (self, error))
    return NULL;
  {
    GString *out = g_string_new ("{\"UnprocessedItems\":{}");

    if (wants_capacity (mode))
      g_string_append_printf (out, ",\"ConsumedCapacity\":[%s]", capacity->str);
    g_string_append_c (out, '}');
    return g_string_free (out, FALSE);
  }

rolled:
  rollback (self);
  g_propagate_error (error, local);
  return NULL;
}

/* ---- shared with the other files of the engine (dyno-engine-private.h) ------------------ */

DynoEngineTable *
dyno_engine_find_table (DynoEngine *self,
                        const char *name,
                        GError    **error)
{
  return find_table (self, name, error);
}

void
dyno_engine_capacity_init (DynoEngineCapacity    *cap,
                           const DynoEngineTable *table)
{
  capacity_init (cap, table);
}

void
dyno_engine_capacity_clear (DynoEngineCapacity *cap)
{
  capacity_clear (cap);
}

void
dyno_engine_write_capacity (GString                    *out,
                            const DynoEngineTable      *table,
                            const DynoEngineCapacity   *cap,
                            DynoReturnConsumedCapacity  mode)
{
  write_capacity (out, table, cap, mode);
}

gboolean
dyno_engine_wants_capacity (DynoReturnConsumedCapacity mode)
{
  return wants_capacity (mode);
}

double
dyno_engine_write_units_for (gsize size)
{
  return write_units_for (size);
}

double
dyno_engine_read_units_for (gsize    size,
                            gboolean consistent)
{
  return read_units_for (size, consistent);
}

DynoItem *
dyno_engine_table_key_of (const DynoEngineTable *table,
                          const DynoItem        *item)
{
  return table_key_of (table, item);
}

gboolean
dyno_engine_check_key (const DynoEngineTable *table,
                       const DynoItem        *key,
                       GError               **error)
{
  return check_key (table, key, error);
}

gboolean
dyno_engine_check_item (const DynoEngineTable *table,
                        const DynoItem        *item,
                        gboolean               update,
                        GError               **error)
{
  return check_item (table, item, update, error);
}

DynoItem *
dyno_engine_load_item (DynoEngine            *self,
                       const DynoEngineTable *table,
                       const DynoItem        *key,
                       GError               **error)
{
  return load_item (self, table, key, error);
}

gboolean
dyno_engine_store_item (DynoEngine         *self,
                        DynoEngineTable    *table,
                        const DynoItem     *old,
                        const DynoItem     *new,
                        DynoEngineCapacity *cap,
                        GError            **error)
{
  return store_item (self, table, old, new, cap, error);
}

gboolean
dyno_engine_begin (DynoEngine *self,
                   GError    **error)
{
  return begin (self, error);
}

gboolean
dyno_engine_commit (DynoEngine *self,
                    GError    **error)
{
  return commit (self, error);
}

void
dyno_engine_rollback (DynoEngine *self)
{
  rollback (self);
}

gboolean
dyno_engine_to_engine_error (GError  *local,
                             GError **error)
{
  return to_engine_error (local, error);
}

DynoRequest *
dyno_engine_parse_request (const char    *body,
                           gssize         len,
                           DynoOperation  op,
                           GError       **error)
{
  return parse_request (body, len, op, error);
}

JsonObject *
dyno_engine_parse_object (const char *body,
                          gssize      len,
                          JsonNode  **out_node,
                          GError    **error)
{
  return parse_object (body, len, out_node, error);
}

DynoReturnConsumedCapacity
dyno_engine_object_capacity (JsonObject *object)
{
  return object_capacity (object);
}

gboolean
dyno_engine_check_condition (const DynoExpr *expr,
                             DynoExprRole    role,
                             GError        **error)
{
  return check_condition (expr, role, error);
}

gboolean
dyno_engine_check_projection (GPtrArray *projection,
                              GError   **error)
{
  GError *local = NULL;

  if (projection == NULL || dyno_eval_check_projection (projection, &local))
    return TRUE;
  return to_engine_error (local, error);
}

gboolean
dyno_engine_eval_condition (const DynoExpr *expr,
                            DynoExprRole    role,
                            const DynoItem *item,
                            gboolean       *match,
                            GError        **error)
{
  return eval_condition (expr, role, item, match, error);
}

void
dyno_engine_set_error_members (DynoEngine *self,
                               char       *members)
{
  g_free (self->error_members);
  self->error_members = members;
}

GHashTable *
dyno_engine_get_tokens (DynoEngine     *self,
                        GDestroyNotify  value_free)
{
  if (self->tokens == NULL)
    self->tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, value_free);
  return self->tokens;
}

/* ---- the entry point --------------------------------------------------------------------- */

typedef char *(*OperationFunc) (DynoEngine *self, const char *body, gssize len, GError **error);

static const struct {
  const char    *name;
  OperationFunc  func;
} operations[] = {
  { "CreateTable", op_create_table },
  { "DescribeTable", op_describe_table },
  { "DeleteTable", op_delete_table },
  { "ListTables", op_list_tables },
  { "PutItem", op_put_item },
  { "GetItem", op_get_item },
  { "DeleteItem", op_delete_item },
  { "UpdateItem", op_update_item },
  { "Query", op_query },
  { "Scan", op_scan },
  { "BatchGetItem", op_batch_get_item },
  { "BatchWriteItem", op_batch_write_item },
  { "TransactWriteItems", dyno_engine_op_transact_write_items },
  { "TransactGetItems", dyno_engine_op_transact_get_items },
  { "UpdateTable", dyno_engine_op_update_table },
  { "DescribeTimeToLive", dyno_engine_op_describe_time_to_live },
  { "UpdateTimeToLive", dyno_engine_op_update_time_to_live },
  { "ExecuteStatement", dyno_engine_execute_statement },
};

char *
dyno_engine_request (DynoEngine *self,
                     const char *operation,
                     const char *body,
                     gssize      len,
                     GError    **error)
{
  return dyno_engine_request_full (self, operation, body, len, NULL, error);
}

/* The body DynamoDB sends for @error, with @members (JSON members, may be NULL) after its
 * type and message. */
static char *
error_body (const GError *error,
            const char   *members)
{
  DynoEngineErrorCode code = error->domain == DYNO_ENGINE_ERROR
                             ? (DynoEngineErrorCode) error->code : DYNO_ENGINE_ERROR_INTERNAL;
  GString *out = g_string_new ("{\"__type\":");

  dyno_json_write_string (out, dyno_engine_error_wire_type (code), -1);
  /* a TransactionCanceledException's message is a member of its shape, "Message" */
  g_string_append (out, code == DYNO_ENGINE_ERROR_TRANSACTION_CANCELED ? ",\"Message\":"
                                                                     : ",\"message\":");
  dyno_json_write_string (out, error->message, -1);
  if (members != NULL)
    g_string_append_printf (out, ",%s", members);
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);
}

char *
dyno_engine_error_body (const GError *error)
{
  g_return_val_if_fail (error != NULL, NULL);
  return error_body (error, NULL);
}

char *
dyno_engine_request_full (DynoEngine  *self,
                          const char  *operation,
                          const char  *body,
                          gssize       len,
                          char       **out_error_body,
                          GError     **error)
{
  GError *local = NULL;
  char *response = NULL;
  gboolean known = FALSE;

  g_return_val_if_fail (DYNO_IS_ENGINE (self), NULL);
  g_return_val_if_fail (operation != NULL, NULL);

  if (out_error_body != NULL)
    *out_error_body = NULL;
  if (body == NULL)
    {
      body = "{}";
      len = 2;
    }
  g_clear_pointer (&self->error_members, g_free);
  for (guint i = 0; i < G_N_ELEMENTS (operations) && !known; i++)
    if (strcmp (operations[i].name, operation) == 0)
      {
        known = TRUE;
        response = operations[i].func (self, body, len, &local);
        /* the items a read found past their TTL, deleted after the request */
        dyno_engine_flush_expired (self);
      }
  if (!known)
    fail (&local, UNKNOWN_OPERATION, "An unknown operation was requested: %s", operation);
  if (response != NULL)
    return response;
  if (out_error_body != NULL)
    *out_error_body = error_body (local, self->error_members);
  g_clear_pointer (&self->error_members, g_free);
  g_propagate_error (error, local);
  return NULL;
}
