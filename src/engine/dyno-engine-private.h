/* dyno-engine-private.h: what the engine's files share (schemas, key encoding, capacity)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "dyno-engine.h"
#include "dyno-engine-error.h"
#include "dyno-expr.h"
#include "dyno-request.h"
#include "dyno-table-info.h"
#include "dyno-value.h"

G_BEGIN_DECLS

/* DynamoDB's page limit: a Query or Scan page stops just after passing 1 MB read. */
#define DYNO_ENGINE_PAGE_BYTES 1048576
#define DYNO_ENGINE_MAX_ITEM_SIZE 409600
#define DYNO_ENGINE_MAX_HASH_KEY 2048
#define DYNO_ENGINE_MAX_RANGE_KEY 1024

typedef struct {
  char          *name;   /* NULL: no such key (a table or index without a sort key) */
  DynoValueType  type;
} DynoEngineKey;

typedef struct {
  char               *name;
  guint               id;          /* index_id of its rows in dyno_items (1, 2, …) */
  gboolean            global;
  DynoEngineKey       pk;
  DynoEngineKey       sk;
  DynoProjectionType  projection;
  GStrv               non_key;     /* INCLUDE: NonKeyAttributes, else NULL */
  gint64              rcu;         /* GSI ProvisionedThroughput; 0 on demand */
  gint64              wcu;
} DynoEngineIndex;

typedef struct {
  gint64          id;
  char           *name;
  double          created;        /* seconds since the epoch */
  DynoEngineKey   pk;
  DynoEngineKey   sk;
  GPtrArray      *attributes;     /* DynoEngineKey*: AttributeDefinitions, in order */
  GPtrArray      *indexes;        /* DynoEngineIndex*: GSIs then LSIs, as created */
  gboolean        on_demand;      /* BillingMode PAY_PER_REQUEST */
  gint64          rcu;
  gint64          wcu;
  gint64          item_count;
  gint64          size_bytes;
  gboolean        counters_changed; /* item_count/size_bytes not yet written back */
  char           *ttl_attribute;  /* TimeToLive's attribute; NULL: TTL disabled */
  double          on_demand_since; /* when it last became PAY_PER_REQUEST by UpdateTable; 0:
                                    * never (then, on demand, since its creation) */
} DynoEngineTable;

void             dyno_engine_table_free      (DynoEngineTable *table);
/* Reads (and checks, with DynamoDB's messages) a CreateTable request's schema: KeySchema,
 * AttributeDefinitions, the indexes, BillingMode and ProvisionedThroughput. */
DynoEngineTable *dyno_engine_table_from_json (JsonObject      *request,
                                              GError         **error);
/* The schema as stored in dyno_tables.schema (the same members as CreateTable takes). */
void             dyno_engine_table_write_schema (const DynoEngineTable *table,
                                                 GString               *out);
DynoEngineIndex *dyno_engine_table_find_index (const DynoEngineTable *table,
                                               const char            *name);

/* Order-preserving binary encoding of a key value (S: its UTF-8 bytes; B: its bytes; N: see
 * the README), appended to @out; memcmp order of the encodings is DynamoDB's order. */
void             dyno_engine_encode_key      (const DynoValue *value,
                                              GByteArray      *out);

/* A value as DynamoDB writes it in messages: {S:abc}, {N:1}. */
char            *dyno_engine_value_display   (const DynoValue *value);

/* ---- shared by dyno-engine.c and the operations in the other dyno-engine-*.c files ---- */

typedef struct _DynoEngineWal DynoEngineWal;

struct _DynoEngine {
  GObject      parent_instance;
  char        *path;
  sqlite3     *db;
  DynoEngineWal *wal;       /* a workspace file's lock and checkpoints (dyno-engine-wal.c) */
  GHashTable  *tables;      /* name -> DynoEngineTable* */
  GHashTable  *statements;  /* SQL text -> sqlite3_stmt* */
  GPtrArray   *expired;     /* DynoEngineExpired*: seen expired, deleted after the request */
  char        *error_members; /* the failed request's extra error members, or NULL */
  GHashTable  *tokens;      /* ClientRequestToken -> dyno-engine-transact.c's record */
};

/* Capacity consumed by one request on one table: the table's share and each index's. */
typedef struct {
  double  table;
  double *indexes;  /* parallel to table->indexes */
} DynoEngineCapacity;

/* ResourceNotFoundException when there is no such table. */
DynoEngineTable *dyno_engine_find_table      (DynoEngine                 *self,
                                              const char                 *name,
                                              GError                    **error);
void             dyno_engine_capacity_init   (DynoEngineCapacity         *cap,
                                              const DynoEngineTable      *table);
void             dyno_engine_capacity_clear  (DynoEngineCapacity         *cap);
/* One ConsumedCapacity object ({"TableName":…,"CapacityUnits":…[,"Table":…,indexes]}). */
void             dyno_engine_write_capacity  (GString                    *out,
                                              const DynoEngineTable      *table,
                                              const DynoEngineCapacity   *cap,
                                              DynoReturnConsumedCapacity  mode);
gboolean         dyno_engine_wants_capacity  (DynoReturnConsumedCapacity  mode);
double           dyno_engine_write_units_for (gsize                       size);
double           dyno_engine_read_units_for  (gsize                       size,
                                              gboolean                    consistent);
/* The table's key attributes of @item. */
DynoItem        *dyno_engine_table_key_of    (const DynoEngineTable      *table,
                                              const DynoItem             *item);
/* A Key parameter: exactly the table's key (DynamoDB's messages). */
gboolean         dyno_engine_check_key       (const DynoEngineTable      *table,
                                              const DynoItem             *key,
                                              GError                    **error);
/* An item to be written (keys, index keys, size); @update: UpdateItem's size message. */
gboolean         dyno_engine_check_item      (const DynoEngineTable      *table,
                                              const DynoItem             *item,
                                              gboolean                    update,
                                              GError                    **error);
/* The stored item with @key, or NULL (no error when absent). */
DynoItem        *dyno_engine_load_item       (DynoEngine                 *self,
                                              const DynoEngineTable      *table,
                                              const DynoItem             *key,
                                              GError                    **error);
/* Replaces @old (or nothing) by @new (NULL: deletes), indexes and counters included; adds
 * the write units to @cap (may be NULL).  Inside dyno_engine_begin() … commit/rollback. */
gboolean         dyno_engine_store_item      (DynoEngine                 *self,
                                              DynoEngineTable            *table,
                                              const DynoItem             *old,
                                              const DynoItem             *new,
                                              DynoEngineCapacity         *cap,
                                              GError                    **error);
gboolean         dyno_engine_begin           (DynoEngine                 *self,
                                              GError                    **error);
/* Writes the counters and commits; on failure rolls back. */
gboolean         dyno_engine_commit          (DynoEngine                 *self,
                                              GError                    **error);
void             dyno_engine_rollback        (DynoEngine                 *self);
/* Takes @local (core's errors) and sets @error as DynamoDB words it; returns FALSE. */
gboolean         dyno_engine_to_engine_error (GError                     *local,
                                              GError                    **error);
DynoRequest     *dyno_engine_parse_request   (const char                 *body,
                                              gssize                      len,
                                              DynoOperation               op,
                                              GError                    **error);
/* The body as a JSON object (SerializationException otherwise); *@out_node owns it. */
JsonObject      *dyno_engine_parse_object    (const char                 *body,
                                              gssize                      len,
                                              JsonNode                  **out_node,
                                              GError                    **error);
DynoReturnConsumedCapacity dyno_engine_object_capacity (JsonObject       *object);
gboolean         dyno_engine_check_condition (const DynoExpr             *expr,
                                              DynoExprRole                role,
                                              GError                    **error);
/* A ProjectionExpression's paths (NULL: none) as DynamoDB checks them: no two overlap or
 * conflict. */
gboolean         dyno_engine_check_projection (GPtrArray                 *projection,
                                               GError                   **error);
gboolean         dyno_engine_eval_condition  (const DynoExpr             *expr,
                                              DynoExprRole                role,
                                              const DynoItem             *item,
                                              gboolean                   *match,
                                              GError                    **error);
/* Extra members of the error body of the request being answered, as JSON text without
 * braces ("\"Item\":{…}"); taken.  Cleared when the next request starts. */
void             dyno_engine_set_error_members (DynoEngine               *self,
                                                char                     *members);
/* The engine's ClientRequestTokens (string keys), created with @value_free on first use. */
GHashTable      *dyno_engine_get_tokens      (DynoEngine                 *self,
                                              GDestroyNotify              value_free);

/* ---- dyno-engine-wal.c ------------------------------------------------------------------- */

/* Before the workspace is opened: takes the lock that keeps it to this engine. */
gboolean         dyno_engine_wal_lock        (DynoEngine                 *self,
                                              const char                 *path,
                                              GError                    **error);
/* Once the workspace is in WAL mode: checkpoints move to a thread of their own. */
void             dyno_engine_wal_start       (DynoEngine                 *self);
/* Before the engine's connection is closed: the thread and its connection go. */
void             dyno_engine_wal_stop        (DynoEngine                 *self);
/* After the engine's connection is closed: the lock goes. */
void             dyno_engine_wal_free        (DynoEngine                 *self);

/* ---- dyno-engine-transact.c -------------------------------------------------------------- */

/* A PutItem, UpdateItem or DeleteItem request, with ReturnValuesOnConditionCheckFailure
 * (which core's parser takes only at NONE) read here: *@out_all_old is TRUE for ALL_OLD. */
DynoRequest     *dyno_engine_parse_write_request (const char     *body,
                                                  gssize          len,
                                                  DynoOperation   op,
                                                  gboolean       *out_all_old,
                                                  GError        **error);
/* A ConditionalCheckFailedException's "Item" member: @old (nothing when NULL). */
void             dyno_engine_set_error_item  (DynoEngine                 *self,
                                              const DynoItem             *old);
char            *dyno_engine_op_transact_write_items (DynoEngine *self,
                                                      const char *body,
                                                      gssize      len,
                                                      GError    **error);
char            *dyno_engine_op_transact_get_items   (DynoEngine *self,
                                                      const char *body,
                                                      gssize      len,
                                                      GError    **error);

/* dyno-engine-table.c and dyno-engine.c call it Capacity */
typedef DynoEngineCapacity Capacity;


gboolean      sql_failed        (DynoEngine *self,
                                 GError    **error);
sqlite3_stmt *stmt              (DynoEngine *self,
                                 const char *sql,
                                 GError    **error);
void          bind_bytes        (sqlite3_stmt *s,
                                 int           i,
                                 GByteArray   *bytes);
gboolean      begin             (DynoEngine *self,
                                 GError    **error);
gboolean      commit            (DynoEngine *self,
                                 GError    **error);
void          rollback          (DynoEngine *self);
DynoEngineTable *find_table     (DynoEngine *self,
                                 const char *name,
                                 GError    **error);
DynoItem     *table_key_of      (const DynoEngineTable *table,
                                 const DynoItem        *item);
gboolean      value_is_empty    (const DynoValue *value);
gboolean      check_key_size    (const DynoValue *value,
                                 gboolean         hash,
                                 GError         **error);
void          encode_opt        (const DynoItem *item,
                                 const char     *name,
                                 GByteArray     *out);
GByteArray   *table_tk          (const DynoEngineTable *table,
                                 const DynoItem        *item);
DynoItem     *index_entry       (const DynoEngineTable *table,
                                 const DynoEngineIndex *index,
                                 const DynoItem        *item);
DynoItem     *row_item          (sqlite3_stmt *s,
                                 int           column,
                                 GError      **error);
/* The stored item with @key, or NULL; an item past its TTL is NULL too (see
 * dyno_engine_expire). */
DynoItem     *load_item         (DynoEngine            *self,
                                 const DynoEngineTable *table,
                                 const DynoItem        *key,
                                 GError               **error);
gboolean      put_row           (DynoEngine     *self,
                                 gint64          table_id,
                                 guint           index_id,
                                 GByteArray     *pk,
                                 GByteArray     *sk,
                                 GByteArray     *tk,
                                 const DynoItem *item,
                                 gsize           size,
                                 GError        **error);
gboolean      delete_row        (DynoEngine *self,
                                 gint64      table_id,
                                 guint       index_id,
                                 GByteArray *pk,
                                 GByteArray *sk,
                                 GByteArray *tk,
                                 GError    **error);
gboolean      store_item        (DynoEngine      *self,
                                 DynoEngineTable *table,
                                 const DynoItem  *old,
                                 const DynoItem  *new,
                                 Capacity        *cap,
                                 GError         **error);
JsonObject   *parse_object      (const char *body,
                                 gssize      len,
                                 JsonNode  **out_node,
                                 GError    **error);
const char   *object_string     (JsonObject *object,
                                 const char *name);
void          write_description (DynoEngine            *self,
                                 const DynoEngineTable *table,
                                 const char            *status,
                                 GString               *out);

/* ---- dyno-engine-table.c: UpdateTable and Time to Live ---- */

char     *dyno_engine_op_update_table        (DynoEngine *self,
                                              const char *body,
                                              gssize      len,
                                              GError    **error);
char     *dyno_engine_op_describe_time_to_live (DynoEngine *self,
                                                const char *body,
                                                gssize      len,
                                                GError    **error);
char     *dyno_engine_op_update_time_to_live (DynoEngine *self,
                                              const char *body,
                                              gssize      len,
                                              GError    **error);
/* Creates dyno_table_settings if needed and reads it into the loaded tables (their TTL
 * attribute and on_demand_since). */
gboolean  dyno_engine_load_settings          (DynoEngine *self,
                                              GError    **error);
/* TRUE when @item is past its TTL: its TTL attribute is a Number of epoch seconds before
 * now, and no more than five years before (DynamoDB ignores older values). */
gboolean  dyno_engine_item_expired           (const DynoEngineTable *table,
                                              const DynoItem        *item);
/* @item (stored in @table) is past its TTL: remembers its key so that it is deleted after
 * the request, and deletes it at once when a write transaction is open (the write that
 * follows must see it gone). */
void      dyno_engine_expire                 (DynoEngine      *self,
                                              DynoEngineTable *table,
                                              const DynoItem  *item);
/* TRUE when the row @row of @table (an index row when @index is set) belongs to an item past
 * its TTL, which is then expired as above. */
gboolean  dyno_engine_row_expired            (DynoEngine            *self,
                                              DynoEngineTable       *table,
                                              const DynoEngineIndex *index,
                                              const DynoItem        *row);
/* Deletes the items dyno_engine_expire() remembered, in a transaction of their own. */
void      dyno_engine_flush_expired          (DynoEngine *self);

/* ---- dyno-engine-partiql.c --------------------------------------------------------------- */

/* ExecuteStatement: PartiQL run through dyno_engine_request(). */
char            *dyno_engine_execute_statement (DynoEngine    *self,
                                                const char    *body,
                                                gssize         len,
                                                GError       **error);

G_END_DECLS
