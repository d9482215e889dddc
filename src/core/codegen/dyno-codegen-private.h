/* dyno-codegen-private.h: the walker every code target is a table for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-codegen.h"

G_BEGIN_DECLS

/* How code generation works (see HACKING.md, "How to add a code target"):
 *
 * dyno_codegen_walk() walks a request: its members in the order the target's SDK documents
 * them, and each member's values down to their literals.  What a target writes at each step
 * is in its DynoCodegenLang, a table of small emitters: literals (strings, binary, numbers),
 * the words around each value type, maps, lists and sets, the request's members, comments,
 * and the program's pagination loop.  The walker has the only switch over value types
 * (dyno_codegen_write_value) and over member kinds (dyno_codegen_write_member_value). */

typedef struct _DynoCodegenLang   DynoCodegenLang;
typedef struct _DynoCodegenWriter DynoCodegenWriter;

/* What an emitter writes into. */
struct _DynoCodegenWriter {
  GString                  *out;
  const DynoCodegenLang    *lang;
  const DynoRequest        *request;
  const DynoPrintedRequest *printed;  /* the expressions as one printer wrote them */
  const DynoCodegenOptions *options;
  GError                   *error;    /* set by an emitter that cannot write what it met */
  guint                     uses;     /* the target's own flags: what the code needs imported */
  gpointer                  data;     /* the target's own state */
};

/* ---- maps ------------------------------------------------------------------------------ */

/* The key/value pairs of a map: an M value's members, or the request's placeholder maps. */
typedef enum {
  DYNO_CODEGEN_PAIRS_MEMBERS,  /* an M value: name -> DynoValue */
  DYNO_CODEGEN_PAIRS_NAMES,    /* ExpressionAttributeNames: placeholder -> attribute name */
  DYNO_CODEGEN_PAIRS_VALUES,   /* ExpressionAttributeValues: placeholder -> DynoValue */
} DynoCodegenPairsKind;

typedef struct {
  DynoCodegenPairsKind      kind;
  const DynoValue          *map;      /* MEMBERS */
  const DynoPrintedRequest *printed;  /* NAMES, VALUES */
} DynoCodegenPairs;

DynoCodegenPairs dyno_codegen_pairs_of_map     (const DynoValue         *map);
guint            dyno_codegen_pairs_get_n      (const DynoCodegenPairs  *pairs);
/* The @i-th key, with its length (an M member's name may hold NULs). */
const char      *dyno_codegen_pairs_get_key    (const DynoCodegenPairs  *pairs,
                                                guint                    i,
                                                gsize                   *len);
/* The @i-th value; NULL for NAMES, whose values are names (dyno_codegen_pairs_get_name). */
const DynoValue *dyno_codegen_pairs_get_value  (const DynoCodegenPairs  *pairs,
                                                guint                    i);
const char      *dyno_codegen_pairs_get_name   (const DynoCodegenPairs  *pairs,
                                                guint                    i);
/* The @i-th key with the target's text literal. */
void             dyno_codegen_write_pair_key   (DynoCodegenWriter       *w,
                                                const DynoCodegenPairs  *pairs,
                                                guint                    i);
/* The @i-th value: a name with the target's text literal, a DynoValue as the walker writes it. */
void             dyno_codegen_write_pair_value (DynoCodegenWriter       *w,
                                                const DynoCodegenPairs  *pairs,
                                                guint                    i,
                                                guint                    indent);

/* A map written one `key ARROW value,` line a pair (PHP, Ruby, Kotlin, .NET): the words
 * around the lines. */
typedef struct {
  const char *head;           /* always written first ("new Dictionary<…>") */
  const char *empty;          /* after @head when there are no pairs ("[]") */
  gboolean    open_own_line;  /* @open on a line of its own, at the map's indent */
  const char *open;           /* "[\n", "{\n", "mapOf(\n" */
  const char *key_open;       /* before a key ("[") */
  const char *arrow;          /* between key and value (" => ", " to ", "] = ") */
  char        close;          /* after the closing indent */
  guint       step;           /* the pairs' indent, beyond the map's */
} DynoCodegenMapLines;

/* The closing bracket at @indent. */
void             dyno_codegen_write_map_lines  (DynoCodegenWriter         *w,
                                                const DynoCodegenMapLines *style,
                                                const DynoCodegenPairs    *pairs,
                                                guint                      indent);

/* ---- the request's members ------------------------------------------------------------- */

typedef enum {
  DYNO_CODEGEN_MEMBER_STRING,   /* TableName, IndexName, the expressions: @string */
  DYNO_CODEGEN_MEMBER_ENUM,     /* Select, ReturnValues, ReturnConsumedCapacity: @string, @enum_type */
  DYNO_CODEGEN_MEMBER_INTEGER,  /* Limit, Segment, TotalSegments: @integer */
  DYNO_CODEGEN_MEMBER_BOOLEAN,  /* ScanIndexForward, ConsistentRead: @boolean */
  DYNO_CODEGEN_MEMBER_ITEM,     /* Key, Item, ExclusiveStartKey: @pairs of an M value */
  DYNO_CODEGEN_MEMBER_NAMES,    /* ExpressionAttributeNames: @pairs */
  DYNO_CODEGEN_MEMBER_VALUES,   /* ExpressionAttributeValues: @pairs */
} DynoCodegenMemberKind;

typedef struct {
  const char            *name;       /* "TableName", … */
  DynoCodegenMemberKind  kind;
  const char            *string;
  const char            *enum_type;  /* "Select", "ReturnConsumedCapacity", "ReturnValue" */
  gint64                 integer;
  gboolean               boolean;
  DynoCodegenPairs       pairs;
} DynoCodegenMember;

/* The order a target lists the members in. */
typedef enum {
  /* TableName, IndexName, Key/Item, the expressions, the maps, ScanIndexForward,
   * ConsistentRead, Limit, Select, ExclusiveStartKey, Segment, TotalSegments, ReturnValues,
   * ReturnConsumedCapacity (the CLI, JavaScript and Python) */
  DYNO_CODEGEN_ORDER_API,
  /* that of dyno_request_to_json(): …, the maps, ExclusiveStartKey, Limit, ScanIndexForward,
   * ConsistentRead, Select, ReturnConsumedCapacity, ReturnValues, Segment, TotalSegments */
  DYNO_CODEGEN_ORDER_REQUEST_JSON,
} DynoCodegenOrder;

/* A GArray of DynoCodegenMember borrowing from @request and @printed: the members that are
 * set and that the operation takes. */
GArray *dyno_codegen_collect_members (const DynoRequest        *request,
                                      const DynoPrintedRequest *printed,
                                      DynoCodegenOrder          order);

/* ---- the per-target table ---------------------------------------------------------------- */

typedef void (*DynoCodegenTextFunc)  (DynoCodegenWriter *w,
                                      const char        *text,
                                      gsize              len);
typedef void (*DynoCodegenBytesFunc) (DynoCodegenWriter *w,
                                      const guint8      *data,
                                      gsize              len);
typedef void (*DynoCodegenValueFunc) (DynoCodegenWriter *w,
                                      const DynoValue   *value,
                                      guint              indent);

/* How a target writes a value. */
typedef struct {
  DynoCodegenTextFunc   text;     /* a string literal of @len bytes (NULs spelled as escapes) */
  DynoCodegenBytesFunc  bytes;    /* a binary literal */
  void                (*number) (DynoCodegenWriter *w, const char *number);  /* NULL: text */
  const char           *true_word;
  const char           *false_word;
  const char           *null_word;
  /* Written before and after each value, by type ("AttributeValue.S(" … ")"); NULL: nothing */
  const char           *open[DYNO_VALUE_N_TYPES];
  const char           *close[DYNO_VALUE_N_TYPES];
  DynoCodegenValueFunc  map;      /* an M value's members (between its open and close) */
  DynoCodegenValueFunc  list;     /* an L value's elements */
  DynoCodegenValueFunc  set;      /* NULL: the members, ", " between them */
} DynoCodegenValueStyle;

/* How a target writes a member of the request.  The walker writes begin, the value by its
 * kind, then end. */
typedef struct {
  /* The member's name and what comes before its value ("TableName=", ".tableName(");
   * NULL: the indent, then @name_format with the name ("'%s' => ") */
  void        (*begin)       (DynoCodegenWriter *w, const DynoCodegenMember *m, guint indent);
  const char   *name_format;
  const char   *end;
  /* NULL: the value style's text literal */
  void        (*string)      (DynoCodegenWriter *w, const char *text);
  /* NULL: the string */
  void        (*enumeration) (DynoCodegenWriter *w, const DynoCodegenMember *m);
  /* NULL: the number as digits */
  void        (*integer)     (DynoCodegenWriter *w, const DynoCodegenMember *m);
  /* NULL: the value style's true and false words */
  void        (*boolean)     (DynoCodegenWriter *w, const DynoCodegenMember *m);
  /* Key, Item, ExclusiveStartKey and the placeholder maps */
  void        (*map)         (DynoCodegenWriter *w, const DynoCodegenMember *m, guint indent);
  /* The map writes whole lines of its own (one setter call a pair): no begin and end */
  gboolean      map_lines;
  /* NULL, or TRUE when it wrote or left out the member itself */
  gboolean    (*write)       (DynoCodegenWriter *w, const DynoCodegenMember *m, guint indent);
} DynoCodegenMemberStyle;

struct _DynoCodegenLang {
  DynoCodegenOrder        order;
  const char             *comment;   /* a line comment's start ("# ", "// ") */
  DynoCodegenValueStyle   value;
  DynoCodegenMemberStyle  member;
  /* The call in its context (the client is assumed) */
  void                  (*snippet) (DynoCodegenWriter *w);
  /* A runnable program; NULL: the snippet is the program too */
  void                  (*program) (DynoCodegenWriter *w);
  /* In a program: Query and Scan page through and print each item, or the count (Select
   * COUNT); the other operations make one call and print the item or attributes. */
  void                  (*loop)    (DynoCodegenWriter *w, gboolean count);
  void                  (*call)    (DynoCodegenWriter *w);
};

/* The targets' tables */
extern const DynoCodegenLang dyno_codegen_lang_request_json;
extern const DynoCodegenLang dyno_codegen_lang_cli;
extern const DynoCodegenLang dyno_codegen_lang_js_v3;
extern const DynoCodegenLang dyno_codegen_lang_js_docclient;
extern const DynoCodegenLang dyno_codegen_lang_boto3;
extern const DynoCodegenLang dyno_codegen_lang_boto3_resource;
extern const DynoCodegenLang dyno_codegen_lang_go_v2;
extern const DynoCodegenLang dyno_codegen_lang_java_v2;
extern const DynoCodegenLang dyno_codegen_lang_rust;
extern const DynoCodegenLang dyno_codegen_lang_dotnet;
extern const DynoCodegenLang dyno_codegen_lang_kotlin;
extern const DynoCodegenLang dyno_codegen_lang_php;
extern const DynoCodegenLang dyno_codegen_lang_ruby;
extern const DynoCodegenLang dyno_codegen_lang_cpp;
extern const DynoCodegenLang dyno_codegen_lang_partiql;

/* ---- the walker ------------------------------------------------------------------------ */

/* The code for @request with @lang's table: its program or its snippet.  NULL with the error
 * an emitter set. */
char *dyno_codegen_walk                 (const DynoCodegenLang    *lang,
                                         const DynoRequest        *request,
                                         const DynoPrintedRequest *printed,
                                         const DynoCodegenOptions *options,
                                         GError                  **error);
/* One value, nested values at @indent (the column of the line it is on). */
void  dyno_codegen_write_value          (DynoCodegenWriter        *w,
                                         const DynoValue          *value,
                                         guint                     indent);
/* The members of a set, ", " between them. */
void  dyno_codegen_write_set_members    (DynoCodegenWriter        *w,
                                         const DynoValue          *set);
/* The elements of an L, one a line at @indent, each followed by ",\n". */
void  dyno_codegen_write_list_lines     (DynoCodegenWriter        *w,
                                         const DynoValue          *list,
                                         guint                     indent);
/* The elements of an L on one line, ", " between them. */
void  dyno_codegen_write_list_inline    (DynoCodegenWriter        *w,
                                         const DynoValue          *list);
/* Every member of the request: begin, value, end. */
void  dyno_codegen_write_members        (DynoCodegenWriter        *w,
                                         guint                     indent);
/* One member's value, by its kind. */
void  dyno_codegen_write_member_value   (DynoCodegenWriter        *w,
                                         const DynoCodegenMember  *m,
                                         guint                     indent);
/* The program's last part: the target's loop (Query, Scan) or its call. */
void  dyno_codegen_write_ending         (DynoCodegenWriter        *w);
/* A comment line: the target's comment start, @text, a newline. */
void  dyno_codegen_write_comment        (DynoCodegenWriter        *w,
                                         const char               *text);
/* Runs @func with w->out set to a new string, and returns that string. */
GString *dyno_codegen_write_aside       (DynoCodegenWriter        *w,
                                         void                    (*func) (DynoCodegenWriter *w,
                                                                          gpointer           data),
                                         gpointer                  data);

/* ---- literals (dyno-codegen-literals.c) --------------------------------------------------- */

/* The quoting of the CLI, JavaScript and Python targets (the C family, PHP and Ruby have
 * dyno_codegen_append_c_string_len() and dyno_codegen_append_script_string()). */
typedef enum {
  DYNO_QUOTE_PYTHON,      /* '…' or "…" Python literal */
  DYNO_QUOTE_SHELL,       /* POSIX shell single-quoted word */
  DYNO_QUOTE_JS,          /* "…" with \" \\ \n \t \uXXXX */
} DynoQuoteStyle;

/* @len bytes, which may hold NULs (DynamoDB strings may): each style spells U+0000 with its
 * own escape (\u0000, \x00).  SHELL always quotes. */
void  dyno_codegen_append_quoted_len    (GString         *out,
                                         const char      *text,
                                         gsize            len,
                                         DynoQuoteStyle   style);
/* A C string; names read from request JSON hold a NUL as C0 80 (dyno-json.h), which is
 * written as a NUL. */
void  dyno_codegen_append_quoted        (GString         *out,
                                         const char      *text,
                                         DynoQuoteStyle   style);

/* A "…" literal for the C family, with every character that no one should paste unseen
 * (controls, line separators, BOM, the bidirectional overrides) escaped as each language
 * allows; Java and C++ escape all non-ASCII too. */
typedef enum {
  DYNO_C_STRING_GO,
  DYNO_C_STRING_JAVA,
  DYNO_C_STRING_CSHARP,
  DYNO_C_STRING_KOTLIN,
  DYNO_C_STRING_RUST,
  DYNO_C_STRING_CPP,
} DynoCStringLang;

void  dyno_codegen_append_c_string_len  (GString         *out,
                                         const char      *text,
                                         gsize            len,
                                         DynoCStringLang  lang);
/* A PHP or Ruby literal: single-quoted when nothing needs an escape sequence, else
 * double-quoted with `$` (PHP) or `#` (Ruby) escaped so nothing is interpolated. */
void  dyno_codegen_append_script_string (GString         *out,
                                         const char      *text,
                                         gsize            len,
                                         gboolean         ruby);
/* Printable ASCII as is, every other byte as \xHH ('"', '\\' and with @escape_hash '#'
 * escaped): a Go/Rust/Ruby/Python byte-string body. */
void  dyno_codegen_append_byte_escapes  (GString         *out,
                                         const guint8    *data,
                                         gsize            len,
                                         gboolean         escape_hash);
void  dyno_codegen_append_base64        (GString         *out,
                                         const guint8    *data,
                                         gsize            len);

/* "ALL_PROJECTED_ATTRIBUTES" -> "AllProjectedAttributes" */
void  dyno_codegen_append_pascal        (GString         *out,
                                         const char      *wire);
/* "KeyConditionExpression" -> "keyConditionExpression" */
void  dyno_codegen_append_camel         (GString         *out,
                                         const char      *api_name);
/* "KeyConditionExpression" -> "key_condition_expression"; with @dash '-' for '_' */
void  dyno_codegen_append_snake         (GString         *out,
                                         const char      *api_name,
                                         char             separator);
void  dyno_codegen_append_indent        (GString         *out,
                                         guint            spaces);

/* "query", "scan", "get_item", "put_item", "update_item", "delete_item" */
const char *dyno_codegen_operation_snake    (DynoOperation  op);
/* "query", "scan", "get-item", … (AWS CLI subcommands) */
const char *dyno_codegen_operation_kebab    (DynoOperation  op);
/* "Query", "Scan", "GetItem", … */
const char *dyno_codegen_operation_pascal   (DynoOperation  op);
/* "query", "scan", "getItem", … */
char       *dyno_codegen_operation_camel    (DynoOperation  op);
/* Query and Scan are the paginated operations. */
gboolean    dyno_codegen_operation_is_paged (DynoOperation  op);
/* "Item" for GetItem, else "Attributes": what a single call's program prints */
const char *dyno_codegen_result_member      (DynoOperation  op);
/* A one-line description for a comment: "Query on table Files (index GSI1)". */
char       *dyno_codegen_describe           (const DynoRequest *request);
/* TRUE when a canonical DynamoDB number reads back unchanged through an IEEE double and is a
 * safe integer when integral (JS `Number`, so a plain JS literal keeps it exact). */
gboolean    dyno_codegen_number_fits_double (const char     *canonical);
/* TRUE when @text is [A-Za-z_$][A-Za-z0-9_$]*: usable as a bare JS property name. */
gboolean    dyno_codegen_is_js_identifier   (const char     *text);
/* The placeholder names ("#pk", …) mentioned in @expression.  NULL-terminated. */
char      **dyno_codegen_expression_placeholders (const char *expression,
                                                  char        prefix);

G_END_DECLS
