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

/* ---- shared by dyno-engine.c and the files that add operations to it ---------------------- */

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

/* ---- dyno-engine-partiql.c --------------------------------------------------------------- */

/* ExecuteStatement: PartiQL run through dyno_engine_request(). */
char            *dyno_engine_execute_statement (DynoEngine    *self,
                                                const char    *body,
                                                gssize         len,
                                                GError       **error);

G_END_DECLS
