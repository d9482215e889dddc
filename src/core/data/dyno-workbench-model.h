/* dyno-workbench-model.h: NoSQL Workbench data models (the JSON its data modeler imports and
 * exports), read into table designs and items, and written from them
 *
 * A model is {"ModelName", "ModelMetadata": {Author, DateCreated, DateLastModified,
 * Description, AWSService, Version}, "DataModel": [table…]}; a table is {TableName,
 * KeyAttributes: {PartitionKey, SortKey}, NonKeyAttributes: [{AttributeName, AttributeType}],
 * GlobalSecondaryIndexes / LocalSecondaryIndexes: [{IndexName, KeyAttributes, Projection}],
 * TableData: [item in DynamoDB JSON], TableFacets: [{FacetName, KeyAttributeAlias:
 * {PartitionKeyAlias, SortKeyAlias}, NonKeyAttributes: [name], TableData: [item]}],
 * BillingMode, ProvisionedCapacitySettings: {ProvisionedThroughput: {…}}}.
 * Workbench 3.x keeps the items of a table with facets in its facets' TableData.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "dyno-table-design.h"
#include "dyno-table-info.h"
#include "dyno-value.h"

G_BEGIN_DECLS

/* What real Workbench 3.x files say in ModelMetadata.Version. */
#define DYNO_WORKBENCH_MODEL_VERSION "3.0"

/* A NonKeyAttributes entry of a table. */
typedef struct {
  char          *name;
  DynoValueType  type;
} DynoWorkbenchAttribute;

/* A facet: a named view of a table (an entity type of a single-table design). */
typedef struct {
  char      *name;
  char      *partition_key_alias;   /* never NULL ("" when the model has none) */
  char      *sort_key_alias;        /* NULL: none */
  GStrv      non_key_attributes;    /* never NULL */
  GPtrArray *items;                 /* DynoItem*: the facet's TableData */
} DynoWorkbenchFacet;

typedef struct {
  DynoTableDesign *design;          /* name, keys, indexes, billing */
  GPtrArray       *attributes;      /* DynoWorkbenchAttribute*: NonKeyAttributes */
  GPtrArray       *facets;          /* DynoWorkbenchFacet* */
  GPtrArray       *items;           /* DynoItem*: the table's own TableData */
  /* Items with maps written as plain JSON ({"M": {"on": true}}) or wrapped twice
   * ({"M": {"M": {…}}}), as some real models have them: read as the DynamoDB values they
   * stand for (the model reader says how many). */
  guint            n_lenient_items;
} DynoWorkbenchTable;

typedef struct {
  char      *name;                  /* ModelName */
  char      *author;                /* ModelMetadata members; NULL when absent */
  char      *description;
  char      *date_created;
  char      *date_last_modified;
  char      *version;
  GPtrArray *tables;                /* DynoWorkbenchTable* */
} DynoWorkbenchModel;

DynoWorkbenchModel *dyno_workbench_model_new   (const char          *name);
void                dyno_workbench_model_free  (DynoWorkbenchModel  *model);

/* Reads a model.  Errors (DYNO_ERROR) name the table, index, facet or item and the field:
 * malformed JSON has its line and column (dyno_error_get_location()); a table DynamoDB would
 * refuse (dyno_table_design_validate()) or an item without the table's keys is an error too. */
DynoWorkbenchModel *dyno_workbench_model_parse (const char          *text,
                                                gssize               len,
                                                GError             **error);

/* The names of the model's tables that are among @existing (ListTables), in model order:
 * what must not be there before the model's tables are created.  Never NULL. */
GStrv               dyno_workbench_model_find_tables (const DynoWorkbenchModel *model,
                                                      const char * const       *existing);

/* Writes the model as Workbench 3.x writes it (2-space indented JSON, ModelMetadata Version
 * "3.0", DateLastModified @now, DateCreated kept or @now), ending in a newline. */
char               *dyno_workbench_model_to_json (const DynoWorkbenchModel *model,
                                                  GDateTime                *now);
/* "Jun 16, 2023, 04:27 PM": the date format of real models (English, whatever the locale). */
char               *dyno_workbench_format_date (GDateTime *time);

/* A table of a model, from its design (a reference is taken), with no attributes, facets or
 * items yet. */
DynoWorkbenchTable *dyno_workbench_table_new   (DynoTableDesign     *design);
/* A table as DescribeTable (@info) and a Scan (@items: DynoItem*) show it: each item with
 * its keys first, then its other attributes by name; NonKeyAttributes are the other
 * attributes of the items, in that order as first seen, with the type of their first value. */
DynoWorkbenchTable *dyno_workbench_table_new_from_info (const DynoTableInfo *info,
                                                        GPtrArray           *items);
void                dyno_workbench_table_free  (DynoWorkbenchTable  *table);

const char         *dyno_workbench_table_get_name (const DynoWorkbenchTable *table);
/* Every item of the table: its own TableData, then each facet's, in order (a new array of
 * borrowed DynoItem*). */
GPtrArray          *dyno_workbench_table_get_all_items (const DynoWorkbenchTable *table);
/* The CreateTable request (dyno_table_design_to_create_table_json()). */
JsonNode           *dyno_workbench_table_to_create_table_json (const DynoWorkbenchTable *table);
/* Every item as DynamoDB JSON lines (what BatchWriteItem puts; DYNO_IMPORT_DDB_JSONL). */
GBytes             *dyno_workbench_table_dup_items_jsonl (const DynoWorkbenchTable *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoWorkbenchModel, dyno_workbench_model_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoWorkbenchTable, dyno_workbench_table_free)

G_END_DECLS
