/* dyno-table-design.h: a CreateTable (or add-a-GSI UpdateTable) request being designed, with
 * DynamoDB's rules checked before sending
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "dyno-table-info.h"
#include "dyno-value.h"

G_BEGIN_DECLS

/* DynamoDB's limits, for the UI and the tests. */
#define DYNO_TABLE_DESIGN_MAX_GSIS                  20
#define DYNO_TABLE_DESIGN_MAX_LSIS                   5
#define DYNO_TABLE_DESIGN_MAX_NON_KEY_PER_INDEX     20
#define DYNO_TABLE_DESIGN_MAX_NON_KEY_TOTAL        100
#define DYNO_TABLE_DESIGN_MAX_NAME_LENGTH          255

/* One secondary index of the design.  Read the fields directly; change them through the
 * dyno_table_design_index_set_*() functions (they own the strings). */
typedef struct {
  char               *name;
  gboolean            global;               /* GSI (TRUE) or LSI (FALSE) */
  /* An LSI's partition key is the table's: NULL or "" here means "the table's" (the UI
   * shows it read-only); a different name is an error. */
  char               *partition_key_name;
  DynoValueType       partition_key_type;
  char               *sort_key_name;        /* NULL or "" = no sort key */
  DynoValueType       sort_key_type;
  DynoProjectionType  projection;
  GPtrArray          *non_key_attributes;   /* char*, as entered (INCLUDE only) */
  gint64              read_capacity;        /* -1 = not given */
  gint64              write_capacity;
} DynoIndexDesign;

/* One problem found by dyno_table_design_validate(): @field is a stable id of the field it
 * belongs under, @message a sentence for a person. Field ids:
 *   "table-name", "partition-key-name", "partition-key-type", "sort-key-name",
 *   "sort-key-type", "billing-mode", "read-capacity", "write-capacity",
 *   "attribute-definitions" (only for designs read from JSON), "indexes" (count limits),
 *   "index:<i>:name", "index:<i>:type", "index:<i>:partition-key-name",
 *   "index:<i>:partition-key-type", "index:<i>:sort-key-name", "index:<i>:sort-key-type",
 *   "index:<i>:projection", "index:<i>:projection-attributes", "index:<i>:read-capacity",
 *   "index:<i>:write-capacity" (i = position in the design, from 0). */
typedef struct {
  char *field;
  char *message;
} DynoDesignProblem;

void dyno_design_problem_free (DynoDesignProblem *problem);

typedef struct _DynoTableDesign DynoTableDesign;

#define DYNO_TYPE_TABLE_DESIGN (dyno_table_design_get_type ())
GType            dyno_table_design_get_type (void) G_GNUC_CONST;

/* A new table: no name, partition key "pk" of type S, no sort key, on-demand. */
DynoTableDesign *dyno_table_design_new            (void);
/* One new GSI on @table (the table's name, keys and billing are taken from @table and are not
 * part of the design; the design has exactly one index, a GSI, at position 0). */
DynoTableDesign *dyno_table_design_new_for_index  (DynoTableInfo   *table);
/* A CreateTable request (data/samples/<name>/table.json, or what the AWS CLI takes with
 * --cli-input-json).  Fails on malformed JSON or on a shape the design cannot hold (unknown
 * type, key named twice with different types, capacity that is not an integer); everything
 * else, even against the rules, is kept so that validate() can report it. */
DynoTableDesign *dyno_table_design_new_from_json  (const char      *json,
                                                   gssize           len,
                                                   GError         **error);
DynoTableDesign *dyno_table_design_new_from_node  (JsonNode        *node,
                                                   GError         **error);
/* A new table with the schema of @table (a DescribeTable result): keys, indexes with their
 * projections, billing mode and capacity (what creating a copy of it takes). */
DynoTableDesign *dyno_table_design_new_from_table_info (const DynoTableInfo *table);
DynoTableDesign *dyno_table_design_ref            (DynoTableDesign *design);
void             dyno_table_design_unref          (DynoTableDesign *design);

/* NULL for a new table. */
DynoTableInfo   *dyno_table_design_get_existing_table (const DynoTableDesign *design);

const char      *dyno_table_design_get_table_name (const DynoTableDesign *design);
void             dyno_table_design_set_table_name (DynoTableDesign *design,
                                                   const char      *name);
const char      *dyno_table_design_get_partition_key_name (const DynoTableDesign *design);
DynoValueType    dyno_table_design_get_partition_key_type (const DynoTableDesign *design);
void             dyno_table_design_set_partition_key (DynoTableDesign *design,
                                                      const char      *name,
                                                      DynoValueType    type);
/* NULL when the table has no sort key. */
const char      *dyno_table_design_get_sort_key_name (const DynoTableDesign *design);
DynoValueType    dyno_table_design_get_sort_key_type (const DynoTableDesign *design);
/* @name NULL or "" removes the sort key. */
void             dyno_table_design_set_sort_key   (DynoTableDesign *design,
                                                   const char      *name,
                                                   DynoValueType    type);
DynoBillingMode  dyno_table_design_get_billing_mode (const DynoTableDesign *design);
void             dyno_table_design_set_billing_mode (DynoTableDesign *design,
                                                     DynoBillingMode  mode);
/* -1 = not given.  Switching to on-demand does not clear them: the UI does (and the validator
 * reports capacity given for an on-demand table, as DynamoDB does). */
gint64           dyno_table_design_get_read_capacity  (const DynoTableDesign *design);
gint64           dyno_table_design_get_write_capacity (const DynoTableDesign *design);
void             dyno_table_design_set_capacity   (DynoTableDesign *design,
                                                   gint64           read_capacity,
                                                   gint64           write_capacity);

guint            dyno_table_design_get_n_indexes  (const DynoTableDesign *design);
DynoIndexDesign *dyno_table_design_get_index      (DynoTableDesign *design,
                                                   guint            i);
/* Appends an index (GSI: no keys, ALL, no capacity; LSI: the table's partition key) and
 * returns its position. */
guint            dyno_table_design_add_index      (DynoTableDesign *design,
                                                   gboolean         global);
void             dyno_table_design_remove_index   (DynoTableDesign *design,
                                                   guint            i);

void dyno_table_design_index_set_name          (DynoIndexDesign    *index,
                                                const char         *name);
void dyno_table_design_index_set_global        (DynoIndexDesign    *index,
                                                gboolean            global);
void dyno_table_design_index_set_partition_key (DynoIndexDesign    *index,
                                                const char         *name,
                                                DynoValueType       type);
void dyno_table_design_index_set_sort_key      (DynoIndexDesign    *index,
                                                const char         *name,
                                                DynoValueType       type);
void dyno_table_design_index_set_projection    (DynoIndexDesign    *index,
                                                DynoProjectionType  projection);
/* @attributes: NULL-terminated; NULL clears. */
void dyno_table_design_index_set_non_key_attributes (DynoIndexDesign    *index,
                                                     const char * const *attributes);
/* "a, b,c" as typed in one entry: split at commas, each name trimmed (an empty name between
 * two commas is kept, so that the validator can point at it; a trailing comma is ignored). */
void dyno_table_design_index_set_non_key_attributes_text (DynoIndexDesign *index,
                                                          const char      *text);
void dyno_table_design_index_set_capacity      (DynoIndexDesign    *index,
                                                gint64              read_capacity,
                                                gint64              write_capacity);

/* Every problem, in field order: a GPtrArray of DynoDesignProblem* (free func set), empty when
 * the design can be sent. */
GPtrArray       *dyno_table_design_validate       (const DynoTableDesign *design);
/* The messages of @problems for @field joined by newlines, or NULL: what the UI shows under
 * that field. */
char            *dyno_design_problems_for_field   (GPtrArray             *problems,
                                                   const char            *field);

/* The CreateTable request body (an object node).  Works on an invalid design too (the UI
 * shows the request as it would be sent); empty names are left out. */
JsonNode        *dyno_table_design_to_create_table_json (const DynoTableDesign *design);
/* The UpdateTable request that adds the design's one GSI to its existing table (only for a
 * design made by dyno_table_design_new_for_index()). */
JsonNode        *dyno_table_design_to_update_table_json (const DynoTableDesign *design);
/* The request the design sends (CreateTable or UpdateTable) as pretty-printed JSON text. */
char            *dyno_table_design_to_json_text   (const DynoTableDesign *design);

/* Whether a DescribeTable result (@info) has the design's schema: keys and types, every
 * index with its keys, projection and non-key attributes, and the billing mode.  FALSE with a
 * message naming the first difference. */
gboolean         dyno_table_design_matches        (const DynoTableDesign *design,
                                                   const DynoTableInfo   *info,
                                                   char                 **difference);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoTableDesign, dyno_table_design_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoDesignProblem, dyno_design_problem_free)

G_END_DECLS
