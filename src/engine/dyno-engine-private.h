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

/* The table named @name, or NULL with DynamoDB's ResourceNotFoundException. */
DynoEngineTable *dyno_engine_find_table      (DynoEngine      *self,
                                              const char      *name,
                                              GError         **error);

/* ExecuteStatement (dyno-engine-partiql.c): PartiQL run through dyno_engine_request(). */
char            *dyno_engine_execute_statement (DynoEngine    *self,
                                                const char    *body,
                                                gssize         len,
                                                GError       **error);

G_END_DECLS
