/* dyno-import.h: a streaming reader of JSON lines, JSON arrays and CSV into items, with a
 * report of every rejected row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-table-info.h"
#include "dyno-value.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_IMPORT_AUTO,          /* '[' → JSON array, '{' → JSON lines, else CSV; DynamoDB JSON
                              * when the first record reads as DynamoDB JSON, else plain */
  DYNO_IMPORT_DDB_JSONL,     /* DynamoDB JSON; lines of DynamoDB's S3 export ({"Item":{…}})
                              * are read too */
  DYNO_IMPORT_PLAIN_JSONL,   /* plain JSON, typed by the type mapping where JSON cannot say */
  DYNO_IMPORT_JSON_ARRAY,    /* [item, item, …] of DynamoDB JSON or plain JSON (guessed from
                              * the first element, as AUTO does) */
  DYNO_IMPORT_DDB_JSON_ARRAY,
  DYNO_IMPORT_PLAIN_JSON_ARRAY,
  DYNO_IMPORT_CSV,           /* see the dialect in dyno-export.h */
} DynoImportFormat;

/* "auto", "ddb-jsonl", "plain-jsonl", "json-array", "ddb-json-array", "plain-json-array",
 * "csv" (from_string also takes "ddb", "plain", "jsonl", "json") */
const char *dyno_import_format_to_string   (DynoImportFormat  format);
gboolean    dyno_import_format_from_string (const char       *text,
                                            DynoImportFormat *out_format);

/* "attr:T,attr:T" (T: S N B BOOL NULL M L SS NS BS, any case; for CSV also ANY) → a table
 * name → GINT_TO_POINTER (type), as dyno_item_from_plain_json() takes it.  Errors name the
 * bad entry. */
GHashTable *dyno_import_parse_type_mapping (const char       *text,
                                            GError          **error);

/* One rejected row. */
typedef struct {
  guint64  row;      /* 1-based: the record (JSON line with content, array element, CSV data
                      * row after the header and type rows) */
  guint64  line;     /* 1-based line of the input where the record starts */
  char    *reason;   /* a sentence naming the attribute / column / position */
} DynoImportReject;

void dyno_import_reject_free (DynoImportReject *reject);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoImportReject, dyno_import_reject_free)

typedef enum {
  DYNO_IMPORT_NEED_MORE,   /* feed more input (or feed_eof) */
  DYNO_IMPORT_ITEM,        /* *out_item is set */
  DYNO_IMPORT_REJECTED,    /* *out_reject is set; reading goes on */
  DYNO_IMPORT_END,         /* everything was read */
  DYNO_IMPORT_FAILED,      /* the input cannot be read on (error set): a CSV without a
                            * header, a JSON array that is not one, … */
} DynoImportStatus;

typedef struct _DynoImporter DynoImporter;

/* With a @schema (may be NULL) every item is checked as DynamoDB would check a PutItem:
 * the key attributes present, of the key's type, not empty, within the key size limits,
 * index keys of their index's type, item size ≤ 400 KB.  Without one, only the values. */
DynoImporter     *dyno_importer_new            (DynoImportFormat     format,
                                                DynoTableInfo       *schema);
void              dyno_importer_free           (DynoImporter        *importer);
/* Types for plain JSON attributes and CSV columns (see dyno_import_parse_type_mapping()).
 * For CSV they override the type row; columns with neither are S.  The schema's key types
 * are used for plain JSON and CSV keys when the mapping does not name them. */
void              dyno_importer_set_type_mapping (DynoImporter      *importer,
                                                  GHashTable        *mapping);
/* Hand over input as it arrives (any chunking; a record may span chunks). */
void              dyno_importer_feed           (DynoImporter        *importer,
                                                const char          *data,
                                                gsize                len);
void              dyno_importer_feed_eof       (DynoImporter        *importer);
/* The next record.  @out_row (may be NULL) is the record's row number for items too. */
DynoImportStatus  dyno_importer_next           (DynoImporter        *importer,
                                                DynoItem           **out_item,
                                                DynoImportReject   **out_reject,
                                                guint64             *out_row,
                                                GError             **error);
/* The 1-based input line where the record last returned by next() started. */
guint64           dyno_importer_get_record_line (DynoImporter       *importer);
/* The format in use (after AUTO has decided; AUTO before the first record). */
DynoImportFormat  dyno_importer_get_format     (DynoImporter        *importer);
guint64           dyno_importer_get_n_items    (DynoImporter        *importer);
guint64           dyno_importer_get_n_rejected (DynoImporter        *importer);
/* Input bytes consumed so far (for progress against a file's size). */
guint64           dyno_importer_get_bytes_read (DynoImporter        *importer);

/* Checks one item against @schema as the importer does (NULL schema: size only).  Returns
 * NULL when the item is fine, else the reason. */
char             *dyno_import_check_item       (const DynoTableInfo *schema,
                                                const DynoItem      *item);

/* Reads everything from @text: items (DynoItem*) and rejects (DynoImportReject*) into the
 * arrays (either may be NULL).  FALSE only when the input cannot be read on. */
gboolean          dyno_import_text             (const char          *text,
                                                gsize                len,
                                                DynoImportFormat     format,
                                                DynoTableInfo       *schema,
                                                GHashTable          *mapping,
                                                GPtrArray           *items,
                                                GPtrArray           *rejects,
                                                GError             **error);

/* The primary key of @item per @schema as a string usable as a hash key (DynamoDB JSON of
 * the key attributes, partition key first); NULL when a key attribute is missing. */
char             *dyno_import_key_string       (const DynoTableInfo *schema,
                                                const DynoItem      *item);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoImporter, dyno_importer_free)

G_END_DECLS
