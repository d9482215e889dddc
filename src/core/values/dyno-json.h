/* dyno-json.h: DynamoDB JSON and plain JSON, in and out, without json-glib trees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "dyno-value.h"

G_BEGIN_DECLS

/* DynamoDB JSON: {"S":"x"}, {"N":"1"}, {"B":"<base64>"}, {"M":{…}}, … Errors name the
 * problem and where it is (the attribute path, or the line/column of bad JSON). */
DynoValue *dyno_value_from_ddb_json   (const char      *json,
                                       gssize           len,
                                       GError         **error);
/* An item: {"attr":{"S":"x"}, …} */
DynoItem  *dyno_item_from_ddb_json    (const char      *json,
                                       gssize           len,
                                       GError         **error);
void       dyno_value_write_ddb_json  (const DynoValue *value,
                                       GString         *out);
/* Writes an M value (or an item's map) as an item: {"attr":{…}, …} */
void       dyno_map_write_ddb_item    (const DynoValue *map,
                                       GString         *out);
char      *dyno_value_to_ddb_json     (const DynoValue *value);
char      *dyno_item_to_ddb_json      (const DynoItem  *item);

/* Bridges for small documents (request JSON) parsed with json-glib. */
DynoValue *dyno_value_from_json_node  (JsonNode        *node,
                                       GError         **error);
DynoItem  *dyno_item_from_json_node   (JsonNode        *node,
                                       GError         **error);
JsonNode  *dyno_value_to_json_node    (const DynoValue *value);
JsonNode  *dyno_item_to_json_node     (const DynoItem  *item);

/* Plain JSON.  Reading: strings -> S, numbers -> N (from the number's exact text, never a
 * double), true/false -> BOOL, null -> NULL, arrays -> L, objects -> M, unless @hints
 * (attribute name -> DynoValueType as GINT_TO_POINTER, top-level attributes; may be NULL)
 * chooses otherwise: B (string holds base64), SS/NS/BS (array), N (string holds a number),
 * S (number kept as its text).  Writing: B and BS as base64 strings, sets as arrays, N as
 * the exact number token. */
DynoValue *dyno_value_from_plain_json (const char      *json,
                                       gssize           len,
                                       GHashTable      *hints,
                                       GError         **error);
DynoItem  *dyno_item_from_plain_json  (const char      *json,
                                       gssize           len,
                                       GHashTable      *hints,
                                       GError         **error);
void       dyno_value_write_plain_json (const DynoValue *value,
                                        GString         *out);
char      *dyno_item_to_plain_json    (const DynoItem  *item);

/* A pull reader over one JSON document, for the callers that read a known shape in place,
 * without a tree: each call reads what is at the reader and checks it as it goes.  A call
 * that fails (the text is not well-formed there, or is not what was asked for) returns
 * FALSE/NULL and leaves the reason in dyno_json_reader_get_error(); the reader is then
 * done. */
typedef struct _DynoJsonReader DynoJsonReader;

DynoJsonReader *dyno_json_reader_new          (const char      *json,
                                               gssize           len);
void            dyno_json_reader_free         (DynoJsonReader  *reader);
/* The next byte that is not whitespace, not consumed ('\0' at the end). */
char            dyno_json_reader_peek         (DynoJsonReader  *reader);
/* Enters the object (array) at the reader. */
gboolean        dyno_json_reader_begin_object (DynoJsonReader  *reader);
gboolean        dyno_json_reader_begin_array  (DynoJsonReader  *reader);
/* In an object: the next member's name (decoded; valid until the next call), the reader
 * then at its value, which must be read before the next member; NULL at the object's end
 * (left) or on error. */
const char     *dyno_json_reader_next_member  (DynoJsonReader  *reader);
/* In an array: TRUE with the reader at the next element; FALSE at the array's end (left) or
 * on error. */
gboolean        dyno_json_reader_next_element (DynoJsonReader  *reader);
/* The value at the reader, skipped (still checked), read as a string (decoded; valid until
 * the next call), or read as a DynamoDB JSON item. */
gboolean        dyno_json_reader_skip         (DynoJsonReader  *reader);
const char     *dyno_json_reader_read_string  (DynoJsonReader  *reader,
                                               gsize           *len);
DynoItem       *dyno_json_reader_read_ddb_item (DynoJsonReader *reader);
/* TRUE when nothing but whitespace is left. */
gboolean        dyno_json_reader_end          (DynoJsonReader  *reader);
const GError   *dyno_json_reader_get_error    (DynoJsonReader  *reader);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoJsonReader, dyno_json_reader_free)

/* Checks that @json is one well-formed JSON value (and nothing after it), without building
 * anything; the error says what is wrong and at which line and column. */
gboolean   dyno_json_validate         (const char      *json,
                                       gssize           len,
                                       GError         **error);

/* JSON documents as json-glib trees, read and written here rather than by json-glib, whose
 * parser cuts strings at "\u0000" and recurses without a bound.  In these trees a U+0000
 * inside a string (member names too) is held as the bytes C0 80, which valid UTF-8 never
 * contains; dyno_json_node_dup_string() and the writer turn them back into NULs and "\u0000".
 * Reading nests at most DYNO_JSON_MAX_NESTING arrays and objects; the error says where. */
#define DYNO_JSON_MAX_NESTING 200

JsonNode  *dyno_json_parse            (const char      *json,
                                       gssize           len,
                                       GError         **error);
void       dyno_json_write_node       (GString         *out,
                                       JsonNode        *node,
                                       gboolean         pretty);
/* How dyno_json_write_node_layout() lays a document out.  @indent: spaces a nesting level
 * deeper, one member or element a line ("key": value); 0 writes everything on one line
 * without spaces (what dyno_json_write_node() does when not @pretty; @pretty is indent 2).
 * @inline_width: with an @indent, a nested object or array whose one-line form
 * ({"S": "x"}, a space after ':' and ',') ends within this column stays on one line; 0: never. */
typedef struct {
  guint indent;
  guint inline_width;
} DynoJsonLayout;

void       dyno_json_write_node_layout (GString              *out,
                                        JsonNode             *node,
                                        const DynoJsonLayout *layout);
char      *dyno_json_node_to_string   (JsonNode        *node,
                                       gboolean         pretty);
/* The string member @name of @object (which may be NULL), or NULL when there is no such member
 * or it is not a string: for reading services' answers and files, where a member of another
 * type counts as missing. */
const char *dyno_json_object_peek_string (JsonObject    *object,
                                          const char    *name);
/* A string node's text with its NULs (@len gets its length), or NULL if not a string. */
char      *dyno_json_node_dup_string  (JsonNode        *node,
                                       gsize           *len);
JsonNode  *dyno_json_node_new_string  (const char      *text,
                                       gssize           len);
/* A string as held in a tree (or copied out of one into a C string, as request names are):
 * the bytes with their NULs; @len gets the length. */
char      *dyno_json_held_string_decode (const char    *held,
                                         gsize         *len);
/* @len bytes as a C string, each NUL held as C0 80 (for names kept as C strings). */
char      *dyno_json_held_string_encode (const char    *bytes,
                                         gsize          len);

/* Appends @text as a JSON string literal (with quotes) to @out; NULs (and C0 80, a NUL held
 * in a json-glib tree) are written as \u0000. */
void       dyno_json_write_string     (GString         *out,
                                       const char      *text,
                                       gssize           len);

G_END_DECLS
