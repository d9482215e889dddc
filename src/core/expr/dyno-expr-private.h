/* dyno-expr-private.h: what the expression files share among themselves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-expr.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_TOKEN_EOF,
  DYNO_TOKEN_IDENT,          /* bare identifier */
  DYNO_TOKEN_NAME_REF,       /* #name (DynamoDB syntax) */
  DYNO_TOKEN_VALUE_REF,      /* :name */
  DYNO_TOKEN_QUOTED_NAME,    /* `name` (inline syntax); text is unescaped */
  DYNO_TOKEN_STRING,         /* "json string" (inline syntax); text is unescaped */
  DYNO_TOKEN_NUMBER,         /* 12, 1.5e3 (inline syntax), without sign */
  DYNO_TOKEN_DDB_JSON,       /* :{"B":"AQ=="} (inline syntax); text is the JSON */
  DYNO_TOKEN_LPAREN,
  DYNO_TOKEN_RPAREN,
  DYNO_TOKEN_LBRACKET,
  DYNO_TOKEN_RBRACKET,
  DYNO_TOKEN_COMMA,
  DYNO_TOKEN_DOT,
  DYNO_TOKEN_EQ,
  DYNO_TOKEN_NE,
  DYNO_TOKEN_LT,
  DYNO_TOKEN_LE,
  DYNO_TOKEN_GT,
  DYNO_TOKEN_GE,
  DYNO_TOKEN_PLUS,
  DYNO_TOKEN_MINUS,
} DynoTokenKind;

typedef struct {
  DynoTokenKind  kind;
  gsize          offset;  /* bytes into the text */
  gsize          length;  /* bytes of source text */
  char          *text;    /* identifier / placeholder / unescaped string; owned */
  gsize          text_len;
} DynoToken;

typedef struct {
  const char *text;
  gsize       len;
  gsize       pos;
  DynoSyntax  syntax;
} DynoLexer;

void     dyno_lexer_init      (DynoLexer   *lexer,
                               const char  *text,
                               DynoSyntax   syntax);
/* Reads the next token; on a lexical error returns FALSE with a DYNO_ERROR_SYNTAX error and
 * @loc filled.  The token's text must be freed with dyno_token_clear(). */
gboolean dyno_lexer_next      (DynoLexer          *lexer,
                               DynoToken          *token,
                               DynoParseLocation  *loc,
                               GError            **error);
void     dyno_token_clear     (DynoToken   *token);
/* "end of input", "\"abc\"", "\")\"" for messages */
char    *dyno_token_describe  (const DynoLexer *lexer,
                               const DynoToken *token);

/* 1-based column in characters of byte @offset (invalid UTF-8 counts one per byte). */
guint    dyno_text_column     (const char  *text,
                               gsize        offset);
void     dyno_set_location    (DynoParseLocation *loc,
                               const char        *text,
                               gsize              offset,
                               gsize              length);

/* [A-Za-z_][A-Za-z0-9_]* */
gboolean dyno_is_identifier   (const char  *name);
/* AND OR NOT BETWEEN IN, case-insensitive */
gboolean dyno_is_inline_keyword (const char *name);

/* Appends @path: its names through @write_name (each syntax spells them its own way), joined
 * by '.', and its list indexes as [N]. */
void     dyno_expr_append_path (GString        *out,
                                const DynoPath *path,
                                void          (*write_name) (GString    *out,
                                                             const char *name,
                                                             gpointer    data),
                                gpointer        data);

/* Appends @text as a JSON string literal. */
void     dyno_expr_append_json_string (GString    *out,
                                       const char *text,
                                       gsize       len);

gboolean dyno_function_from_string (const char   *name,
                                    DynoFunction *out_func);

/* One walker prints expressions in both syntaxes; these say how paths and values look.
 * @attribute is the attribute a value is compared with or assigned to (or NULL), @suffix a
 * hint such as "_low" or "_size" (or ""). */
typedef struct {
  void     (*write_path)  (gpointer        data,
                           GString        *out,
                           const DynoPath *path);
  void     (*write_value) (gpointer        data,
                           GString        *out,
                           const DynoExpr *value,
                           const char     *attribute,
                           const char     *suffix);
  gpointer data;
} DynoExprWriter;

void     dyno_expr_write_condition  (const DynoExprWriter *writer,
                                     GString              *out,
                                     const DynoExpr       *expr);
void     dyno_expr_write_update     (const DynoExprWriter *writer,
                                     GString              *out,
                                     const DynoUpdate     *update);
void     dyno_expr_write_projection (const DynoExprWriter *writer,
                                     GString              *out,
                                     GPtrArray            *paths);

G_END_DECLS
