/* dyno-export.h: items out as JSON lines (DynamoDB JSON or plain JSON) or CSV, streaming
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-table-info.h"
#include "dyno-value.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_EXPORT_DDB_JSONL,    /* one item per line: {"pk":{"S":"a"},…} */
  DYNO_EXPORT_PLAIN_JSONL,  /* one item per line: {"pk":"a",…} (B as base64, sets as arrays) */
  DYNO_EXPORT_CSV,          /* RFC 4180, CRLF, a header row and a type row */
} DynoExportFormat;

/* "ddb-jsonl", "plain-jsonl", "csv" (from_string also takes "ddb", "plain", "jsonl") */
const char *dyno_export_format_to_string   (DynoExportFormat  format);
gboolean    dyno_export_format_from_string (const char       *text,
                                            DynoExportFormat *out_format);

/* The CSV dialect (written here, read by dyno-import.h):
 *
 *   pk,sk,total,tags,doc
 *   #types:S,N,N,SS,M
 *   USER#1,1,12.5,"[""a"",""b""]","{""x"":{""S"":""y""}}"
 *
 * Row 1 names the attributes.  Row 2, the type row, is optional on reading: its first cell
 * starts with an unquoted "#types:" followed by the first column's type; the other cells
 * are the other columns' types.  Cells: S as is; N the number; B base64; BOOL true/false;
 * NULL null; SS/NS/BS a JSON array of strings (NS: numbers or strings, BS: base64); M a
 * DynamoDB-JSON item ({"a":{"S":"x"}}), L a DynamoDB-JSON list ([{"S":"x"}]); a column of
 * type ANY holds each cell's full DynamoDB JSON value ({"N":"1"}), for attributes whose type
 * differs between items.  An unquoted empty cell means the attribute is absent; a quoted
 * empty cell ("") is an empty string.  A first cell that begins with '#' is always quoted, so
 * data never looks like a type row. */
#define DYNO_CSV_TYPE_ROW_MARKER "#types:"
/* Column type meaning "the cell is a DynamoDB JSON value" (not a DynoValueType). */
#define DYNO_CSV_TYPE_ANY (-1)

typedef struct _DynoExporter DynoExporter;

/* @schema (may be NULL) puts the key attributes first in CSV and in the type hints. */
DynoExporter *dyno_exporter_new              (DynoExportFormat     format,
                                              DynoTableInfo       *schema);
void          dyno_exporter_free             (DynoExporter        *exporter);

/* CSV: fix the columns (in order).  Items are then written as they come (streaming);
 * attributes of an item that are not among the columns are an error unless
 * dyno_exporter_set_drop_other_attributes() allowed dropping them.  Without fixed columns
 * the exporter keeps the items (references) until finish(), and the columns are the key
 * attributes, then every other attribute in order of first appearance. */
void          dyno_exporter_set_columns      (DynoExporter        *exporter,
                                              const char * const  *columns);
void          dyno_exporter_set_drop_other_attributes (DynoExporter *exporter,
                                                       gboolean      drop);
/* CSV: the type of a column (a DynoValueType, or DYNO_CSV_TYPE_ANY).  Without it a column
 * takes the type its values have, or ANY when they differ (or its values are unknown yet
 * when streaming: then the type of the first item's value).  A value that does not have
 * its column's type is an error naming the item and the attribute. */
void          dyno_exporter_set_column_type  (DynoExporter        *exporter,
                                              const char          *column,
                                              int                  type);
/* CSV in two passes, for exports too large to keep: observe() every item first (it records
 * the attributes and their types, keeping nothing else), then fix_observed_columns() makes
 * them the fixed columns (keys first, then in order of first appearance) with the types
 * seen (ANY where they differ, unless set_column_type() said otherwise), and add_item()
 * streams the items of the second pass. */
void          dyno_exporter_observe          (DynoExporter        *exporter,
                                              DynoItem            *item);
void          dyno_exporter_fix_observed_columns (DynoExporter    *exporter);

/* CSV: write the type row (default TRUE). */
void          dyno_exporter_set_type_row     (DynoExporter        *exporter,
                                              gboolean             type_row);

/* Appends what the item contributes to the output to @out (nothing for CSV without fixed
 * columns, until finish()). */
gboolean      dyno_exporter_add_item         (DynoExporter        *exporter,
                                              DynoItem            *item,
                                              GString             *out,
                                              GError             **error);
/* Appends what is left (the buffered CSV). */
gboolean      dyno_exporter_finish           (DynoExporter        *exporter,
                                              GString             *out,
                                              GError             **error);
guint64       dyno_exporter_get_n_items      (DynoExporter        *exporter);

/* Plain JSON loses types that JSON has not got (B, SS, NS, BS, and strings holding
 * numbers are fine): the type mapping that brings them back on import, as
 * "data:B,tags:SS" (NULL when none is needed).  *@out_ambiguous (may be NULL) is set to
 * TRUE when an attribute had such a type in some items and another in others, which one
 * mapping cannot express. */
char         *dyno_exporter_dup_type_hints   (DynoExporter        *exporter,
                                              gboolean            *out_ambiguous);

/* The same, written to a stream (blocking; use from a worker thread in a UI). */
gboolean      dyno_exporter_write_item       (DynoExporter        *exporter,
                                              DynoItem            *item,
                                              GOutputStream       *stream,
                                              GCancellable        *cancellable,
                                              GError             **error);
gboolean      dyno_exporter_close            (DynoExporter        *exporter,
                                              GOutputStream       *stream,
                                              GCancellable        *cancellable,
                                              GError             **error);

/* All of @items (DynoItem*) in one go. */
char         *dyno_export_items              (GPtrArray           *items,
                                              DynoExportFormat     format,
                                              DynoTableInfo       *schema,
                                              GError             **error);

/* One CSV cell's text for a value of column type @type (DynoValueType or
 * DYNO_CSV_TYPE_ANY), unquoted.  FALSE when the value is not of that type. */
gboolean      dyno_csv_format_cell           (const DynoValue     *value,
                                              int                  type,
                                              GString             *out);
/* Appends @text as one RFC 4180 field, quoted when it needs it (or when @force_quote). */
void          dyno_csv_write_field           (GString             *out,
                                              const char          *text,
                                              gsize                len,
                                              gboolean             force_quote);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoExporter, dyno_exporter_free)

G_END_DECLS
