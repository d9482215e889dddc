/* dyno-codegen-private.h: what the per-language emitters share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-codegen.h"

G_BEGIN_DECLS

/* Every emitter has this shape.  @printed holds the request's expressions and placeholder
 * maps as one DynoExprPrinter printed them (the same text in every target). */
typedef char *(*DynoCodegenEmitFunc) (const DynoRequest        *request,
                                      const DynoPrintedRequest *printed,
                                      const DynoCodegenOptions *options,
                                      GError                  **error);

/* dyno-codegen-json.c */
char *dyno_codegen_emit_request_json   (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
/* dyno-codegen-cli.c */
char *dyno_codegen_emit_cli            (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
/* dyno-codegen-js.c */
char *dyno_codegen_emit_js_v3          (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_js_docclient   (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
/* dyno-codegen-python.c */
char *dyno_codegen_emit_boto3          (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_boto3_resource (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
/* dyno-codegen-partiql.c */
char *dyno_codegen_emit_partiql        (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
/* dyno-codegen-go.c, -java.c, -rust.c, -dotnet.c, -kotlin.c, -php.c, -ruby.c, -cpp.c */
char *dyno_codegen_emit_go_v2          (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_java_v2        (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_rust           (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_dotnet         (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_kotlin         (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_php            (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_ruby           (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);
char *dyno_codegen_emit_cpp            (const DynoRequest *, const DynoPrintedRequest *,
                                        const DynoCodegenOptions *, GError **);

/* dyno-codegen-util.c: shared helpers (string literal escaping per language family, the
 * SDK operation/method names, member lists in API order, indentation).  Owned by codegen-a;
 * codegen-b may add helpers in its own files. */
typedef enum {
  DYNO_QUOTE_C_LIKE,      /* "…" with \" \\ \n \t \uXXXX: JS, Java, C#, Kotlin ($ too), Go, C++, Rust */
  DYNO_QUOTE_PYTHON,      /* '…' or "…" Python literal */
  DYNO_QUOTE_RUBY_SINGLE, /* '…' */
  DYNO_QUOTE_PHP_SINGLE,  /* '…' */
  DYNO_QUOTE_SHELL,       /* POSIX shell single-quoted word */
  DYNO_QUOTE_RUST,        /* "…" with \u{XX} (Rust has no \uXXXX); added by codegen-a */
  DYNO_QUOTE_JS,          /* "…" as C_LIKE but '$' as is (JS needs no escape for it) */
} DynoQuoteStyle;

void  dyno_codegen_append_quoted (GString        *out,
                                  const char     *text,
                                  DynoQuoteStyle  style);
/* The same for @len bytes, which may hold NULs (DynamoDB strings may): each style spells
 * U+0000 with its own escape (\u0000, \x00, \u{00}). */
void  dyno_codegen_append_quoted_len (GString        *out,
                                      const char     *text,
                                      gsize           len,
                                      DynoQuoteStyle  style);
/* The name of member @i of an M, quoted (with its NULs). */
void  dyno_codegen_append_member_name (GString         *out,
                                       const DynoValue *map,
                                       guint            i,
                                       DynoQuoteStyle   style);
/* An S or N value's text, quoted (with its NULs). */
void  dyno_codegen_append_value_string (GString         *out,
                                        const DynoValue *value,
                                        DynoQuoteStyle   style);

/* DYNO_QUOTE_C_LIKE writes \" \\ \n \r \t, other control characters and '$' as \u00XX
 * (valid in JS, Java, C#, Kotlin, Go, C++; UTF-8 passes through).  Ruby/PHP single-quoted
 * styles switch to a double-quoted literal (with #/$ escaped) when the text holds control
 * characters other than newline, which single quotes cannot spell.  SHELL always quotes. */

/* The request's members in API order, as every SDK names them (TableName, IndexName, Key or
 * Item, KeyConditionExpression, UpdateExpression, ConditionExpression, FilterExpression,
 * ProjectionExpression, ExpressionAttributeNames, ExpressionAttributeValues, then the
 * options).  Unset members are left out. */
typedef enum {
  DYNO_CODEGEN_MEMBER_STRING,   /* TableName, IndexName, the expressions: @string */
  DYNO_CODEGEN_MEMBER_ENUM,     /* Select, ReturnValues, ReturnConsumedCapacity: @string */
  DYNO_CODEGEN_MEMBER_INTEGER,  /* Limit, Segment, TotalSegments: @integer */
  DYNO_CODEGEN_MEMBER_BOOLEAN,  /* ScanIndexForward, ConsistentRead: @boolean */
  DYNO_CODEGEN_MEMBER_ITEM,     /* Key, Item, ExclusiveStartKey: @map (an M value) */
  DYNO_CODEGEN_MEMBER_NAMES,    /* ExpressionAttributeNames: printed->name_placeholders/names */
  DYNO_CODEGEN_MEMBER_VALUES,   /* ExpressionAttributeValues: printed->value_placeholders/values */
} DynoCodegenMemberKind;

typedef struct {
  const char            *name;     /* "TableName", … */
  DynoCodegenMemberKind  kind;
  const char            *string;
  gint64                 integer;
  gboolean               boolean;
  const DynoValue       *map;
} DynoCodegenMember;

/* A GArray of DynoCodegenMember borrowing from @request and @printed. */
GArray     *dyno_codegen_collect_members     (const DynoRequest        *request,
                                              const DynoPrintedRequest *printed);
/* "query", "scan", "get_item", "put_item", "update_item", "delete_item" */
const char *dyno_codegen_operation_snake     (DynoOperation             op);
/* "query", "scan", "get-item", … (AWS CLI subcommands) */
const char *dyno_codegen_operation_kebab     (DynoOperation             op);
/* "Query", "Scan", "GetItem", … */
const char *dyno_codegen_operation_pascal    (DynoOperation             op);
/* Query and Scan are the paginated operations. */
gboolean    dyno_codegen_operation_is_paged  (DynoOperation             op);
/* A one-line description for a comment: "Query on table Files (index GSI1)". */
char       *dyno_codegen_describe            (const DynoRequest        *request);
void        dyno_codegen_append_indent       (GString                  *out,
                                              guint                     spaces);
/* TRUE when a canonical DynamoDB number reads back unchanged through an IEEE double and is a
 * safe integer when integral (JS `Number`, so a plain JS literal keeps it exact). */
gboolean    dyno_codegen_number_fits_double  (const char               *canonical);
/* TRUE when @text is [A-Za-z_$][A-Za-z0-9_$]*: usable as a bare JS property name. */
gboolean    dyno_codegen_is_js_identifier    (const char               *text);
/* The operand's placeholder names ("#pk", …) mentioned in @expression, for splitting the
 * shared name map per expression.  Returns a NULL-terminated array. */
char      **dyno_codegen_expression_placeholders (const char           *expression,
                                                  char                  prefix);

G_END_DECLS
