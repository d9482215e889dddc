/* dyno-partiql.c: DynamoDB's PartiQL subset, parsed into the expression AST
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-partiql.h"

#define NOT_WELL_FORMED "Statement wasn't well formed, can't be processed: "

typedef enum {
  T_EOF,
  T_IDENT,     /* bare name or keyword */
  T_QIDENT,    /* "quoted name"; text unescaped */
  T_STRING,    /* 'string'; text unescaped */
  T_NUMBER,
  T_PARAM,     /* ? */
  T_LPAREN,
  T_RPAREN,
  T_LBRACKET,
  T_RBRACKET,
  T_LBRACE,
  T_RBRACE,
  T_LBAG,      /* << */
  T_RBAG,      /* >> */
  T_COMMA,
  T_DOT,
  T_COLON,
  T_STAR,
  T_EQ,
  T_NE,
  T_LT,
  T_LE,
  T_GT,
  T_GE,
  T_PLUS,
  T_MINUS,
  T_SEMI,      /* ; (only at the end) */
} TokenKind;

typedef struct {
  TokenKind  kind;
  gsize      offset;
  gsize      length;
  char      *text;    /* IDENT, QIDENT, STRING, NUMBER */
  gsize      text_len;
} Token;

typedef struct {
  const char         *text;
  GArray             *tokens;
  guint               pos;
  GPtrArray          *params;
  guint               n_params;     /* ? seen so far */
  /* literals: how deep in lists and maps the value being read is, how deep a ? may be (0 as an
   * operand, 1 in an INSERT's VALUE), and the key or index it is under */
  guint               depth;
  guint               param_depth;
  const char         *slot_key;
  guint               slot_index;
  DynoParseLocation  *loc;
  GError            **error;
} Parser;

static void
token_clear (gpointer data)
{
  Token *t = data;

  g_free (t->text);
}

/* ---- errors ------------------------------------------------------------------------------ */

static void
set_loc (Parser *p,
         gsize   offset,
         gsize   length,
         guint  *column)
{
  const char *end = p->text + offset;
  guint col = 1;

  for (const char *c = p->text; c < end; c = g_utf8_next_char (c))
    col++;
  *column = col;
  if (p->loc)
    {
      p->loc->offset = offset;
      p->loc->length = length;
      p->loc->column = col;
    }
}

static gpointer
fail_at (Parser     *p,
         const Token *t,
         const char *detail)
{
  guint column;

  set_loc (p, t->offset, t->length, &column);
  g_set_error (p->error, DYNO_ERROR, DYNO_ERROR_SYNTAX, NOT_WELL_FORMED "%s (at column %u)",
               detail, column);
  if (p->error)
    dyno_error_set_location (*p->error, 1, column);
  return NULL;
}

static gpointer
unexpected (Parser      *p,
            const Token *t)
{
  g_autofree char *detail = NULL;

  if (t->kind == T_EOF)
    return fail_at (p, t, "Unexpected end of statement");
  detail = g_strdup_printf ("Unexpected term %.*s", (int) t->length, p->text + t->offset);
  return fail_at (p, t, detail);
}

static gpointer
invalid (Parser      *p,
         const Token *t,
         const char  *format,
         ...) G_GNUC_PRINTF (3, 4);

static gpointer
invalid (Parser      *p,
         const Token *t,
         const char  *format,
         ...)
{
  guint column;
  va_list ap;
  g_autofree char *message = NULL;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  set_loc (p, t->offset, t->length, &column);
  g_set_error_literal (p->error, DYNO_ERROR, DYNO_ERROR_VALIDATION, message);
  if (p->error)
    dyno_error_set_location (*p->error, 1, column);
  return NULL;
}

/* ---- lexer ------------------------------------------------------------------------------- */

static gboolean
lex_quoted (Parser *p,
            gsize  *pos,
            char    quote,
            Token  *t)
{
  GString *out = g_string_new (NULL);
  gsize i = *pos + 1;
  gsize len = strlen (p->text);

  for (;;)
    {
      if (i >= len)
        {
          g_string_free (out, TRUE);
          t->length = len - t->offset;
          fail_at (p, t, quote == '\'' ? "Unterminated string literal"
                                       : "Unterminated quoted identifier");
          return FALSE;
        }
      if (p->text[i] == quote)
        {
          if (p->text[i + 1] == quote)
            {
              g_string_append_c (out, quote);
              i += 2;
              continue;
            }
          i++;
          break;
        }
      g_string_append_c (out, p->text[i]);
      i++;
    }
  t->text_len = out->len;
  t->text = g_string_free (out, FALSE);
  *pos = i;
  return TRUE;
}

static gboolean
lex (Parser *p)
{
  const char *s = p->text;
  gsize i = 0;

  for (;;)
    {
      Token t = { 0 };

      while (g_ascii_isspace (s[i]))
        i++;
      t.offset = i;
      if (s[i] == '\0')
        {
          t.kind = T_EOF;
          g_array_append_val (p->tokens, t);
          return TRUE;
        }
      if (g_ascii_isalpha (s[i]) || s[i] == '_')
        {
          gsize start = i;

          while (g_ascii_isalnum (s[i]) || s[i] == '_')
            i++;
          t.kind = T_IDENT;
          t.text = g_strndup (s + start, i - start);
          t.text_len = i - start;
        }
      else if (g_ascii_isdigit (s[i])
               || (s[i] == '.' && g_ascii_isdigit (s[i + 1])))
        {
          gsize start = i;

          while (g_ascii_isdigit (s[i]))
            i++;
          if (s[i] == '.')
            {
              i++;
              while (g_ascii_isdigit (s[i]))
                i++;
            }
          if ((s[i] == 'e' || s[i] == 'E')
              && (g_ascii_isdigit (s[i + 1])
                  || ((s[i + 1] == '+' || s[i + 1] == '-') && g_ascii_isdigit (s[i + 2]))))
            {
              i += 2;
              while (g_ascii_isdigit (s[i]))
                i++;
            }
          t.kind = T_NUMBER;
          t.text = g_strndup (s + start, i - start);
          t.text_len = i - start;
        }
      else if (s[i] == '\'' || s[i] == '"')
        {
          t.kind = s[i] == '\'' ? T_STRING : T_QIDENT;
          if (!lex_quoted (p, &i, s[i], &t))
            return FALSE;
        }
      else
        {
          static const struct {
            const char *text;
            TokenKind   kind;
          } punct[] = {
            { "<<", T_LBAG }, { ">>", T_RBAG }, { "<>", T_NE }, { "!=", T_NE },
            { "<=", T_LE }, { ">=", T_GE }, { "<", T_LT }, { ">", T_GT }, { "=", T_EQ },
            { "(", T_LPAREN }, { ")", T_RPAREN }, { "[", T_LBRACKET }, { "]", T_RBRACKET },
            { "{", T_LBRACE }, { "}", T_RBRACE }, { ",", T_COMMA }, { ".", T_DOT },
            { ":", T_COLON }, { "*", T_STAR }, { "+", T_PLUS }, { "-", T_MINUS },
            { "?", T_PARAM }, { ";", T_SEMI },
          };
          guint k;

          for (k = 0; k < G_N_ELEMENTS (punct); k++)
            if (strncmp (s + i, punct[k].text, strlen (punct[k].text)) == 0)
              break;
          if (k == G_N_ELEMENTS (punct))
            {
              t.length = g_utf8_next_char (s + i) - (s + i);
              fail_at (p, &t, "Unexpected character");
              return FALSE;
            }
          t.kind = punct[k].kind;
          i += strlen (punct[k].text);
        }
      t.length = i - t.offset;
      g_array_append_val (p->tokens, t);
    }
}

/* ---- token helpers ----------------------------------------------------------------------- */

static Token *
peek_at (Parser *p,
         guint   ahead)
{
  guint i = MIN (p->pos + ahead, p->tokens->len - 1);

  return &g_array_index (p->tokens, Token, i);
}

static Token *
peek (Parser *p)
{
  return peek_at (p, 0);
}

static Token *
advance (Parser *p)
{
  Token *t = peek (p);

  if (t->kind != T_EOF)
    p->pos++;
  return t;
}

static gboolean
is_kw (const Token *t,
       const char  *kw)
{
  return t->kind == T_IDENT && g_ascii_strcasecmp (t->text, kw) == 0;
}

static gboolean
accept (Parser    *p,
        TokenKind  kind)
{
  if (peek (p)->kind != kind)
    return FALSE;
  advance (p);
  return TRUE;
}

static gboolean
accept_kw (Parser     *p,
           const char *kw)
{
  if (!is_kw (peek (p), kw))
    return FALSE;
  advance (p);
  return TRUE;
}

static gboolean
expect (Parser    *p,
        TokenKind  kind)
{
  if (accept (p, kind))
    return TRUE;
  unexpected (p, peek (p));
  return FALSE;
}

static gboolean
expect_kw (Parser     *p,
           const char *kw)
{
  if (accept_kw (p, kw))
    return TRUE;
  unexpected (p, peek (p));
  return FALSE;
}

/* ---- literals ---------------------------------------------------------------------------- */

static gboolean
starts_value (const Token *t)
{
  switch (t->kind)
    {
    case T_STRING:
    case T_NUMBER:
    case T_MINUS:
    case T_PARAM:
    case T_LBRACKET:
    case T_LBRACE:
    case T_LBAG:
      return TRUE;
    case T_IDENT:
      return is_kw (t, "true") || is_kw (t, "false") || is_kw (t, "null");
    default:
      return FALSE;
    }
}

static const DynoValue *
next_param (Parser *p)
{
  guint i = p->n_params++;

  return p->params && i < p->params->len ? g_ptr_array_index (p->params, i) : NULL;
}

static gboolean parse_value (Parser *p, DynoValueBuilder *b);

static DynoValue *
parse_value_new (Parser *p)
{
  g_autoptr(DynoValueBuilder) b = dyno_value_builder_new ();

  if (!parse_value (p, b))
    return NULL;
  return dyno_value_builder_finish (b);
}

static gboolean
parse_set (Parser           *p,
           DynoValueBuilder *b)
{
  Token *start = advance (p);  /* << */
  g_autoptr(GPtrArray) elements = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_value_free);
  DynoValueType type = DYNO_VALUE_SS;
  GError *local = NULL;

  if (peek (p)->kind != T_RBAG)
    do
      {
        DynoValue *v;

        if (peek (p)->kind == T_PARAM)  /* (DynamoDB Local's words) */
          return invalid (p, start, "Unsupported data type in Bag. DynamoDB only supports "
                          "either numbers or strings in bags") != NULL;
        if ((v = parse_value_new (p)) == NULL)
          return FALSE;
        g_ptr_array_add (elements, v);
      }
    while (accept (p, T_COMMA));
  if (!expect (p, T_RBAG))
    return FALSE;
  if (elements->len == 0)
    return invalid (p, start, "Empty bags are not supported") != NULL;
  for (guint i = 0; i < elements->len; i++)
    {
      DynoValueType kind = dyno_value_get_kind (g_ptr_array_index (elements, i));
      DynoValueType set = kind == DYNO_VALUE_S ? DYNO_VALUE_SS
                        : kind == DYNO_VALUE_N ? DYNO_VALUE_NS
                        : kind == DYNO_VALUE_B ? DYNO_VALUE_BS : DYNO_VALUE_M;

      if (set == DYNO_VALUE_M || (i > 0 && set != type))
        return invalid (p, start, "Unsupported data type in Bag. DynamoDB only supports "
                        "either numbers or strings in bags") != NULL;
      type = set;
    }
  dyno_value_builder_begin (b, type);
  for (guint i = 0; i < elements->len; i++)
    dyno_value_builder_add_value (b, g_ptr_array_index (elements, i));
  if (!dyno_value_builder_end (b, &local))
    {
      g_error_free (local);
      return invalid (p, start, "Input collection contains duplicates") != NULL;
    }
  return TRUE;
}

static gboolean
parse_value (Parser           *p,
             DynoValueBuilder *b)
{
  Token *t = peek (p);
  GError *local = NULL;

  switch (t->kind)
    {
    case T_STRING:
      advance (p);
      dyno_value_builder_add_string (b, t->text, t->text_len);
      return TRUE;
    case T_MINUS:
    case T_NUMBER:
      {
        g_autofree char *number = NULL;
        Token *start = t;

        advance (p);
        if (t->kind == T_MINUS)
          {
            t = peek (p);
            if (t->kind != T_NUMBER)
              return unexpected (p, t) != NULL;
            advance (p);
          }
        number = g_strconcat (start->kind == T_MINUS ? "-" : "", t->text, NULL);
        {
          /* the mantissa's significant digits, for DynamoDB's words on too many of them */
          gsize end = strcspn (t->text, "eE");
          g_autofree char *digits = g_strndup (t->text, end);
          char *d;

          while ((d = strchr (digits, '.')) != NULL)
            memmove (d, d + 1, strlen (d));
          g_strchomp (digits);
          d = digits + strspn (digits, "0");
          while (*d != '\0' && digits[strlen (digits) - 1] == '0')
            digits[strlen (digits) - 1] = '\0';
          if (strlen (d) > 38)
            return invalid (p, start, "DynamoDB only supports precision up to 38 digits")
                   != NULL;
          if (*d == '\0' && start->kind == T_MINUS)
            return invalid (p, start, "Negative zero decimal is not supported under key root")
                   != NULL;
        }
        if (!dyno_value_builder_add_number (b, number, -1, &local))
          {
            invalid (p, start, "%s", local->message);
            g_error_free (local);
            return FALSE;
          }
        return TRUE;
      }
    case T_PARAM:
      {
        const DynoValue *v;

        /* (DynamoDB Local's words: DynamoDB binds parameters only where a whole value goes,
         * not inside a literal list or map) */
        if (p->depth > p->param_depth)
          {
            if (p->slot_key)
              return invalid (p, t, "Unsupported data type: Parameter under key root.%s",
                              p->slot_key) != NULL;
            return invalid (p, t, "Unsupported data type: Parameter under key root.%u",
                            p->slot_index) != NULL;
          }
        v = next_param (p);
        advance (p);
        if (v)
          dyno_value_builder_add_value (b, v);
        else
          dyno_value_builder_add_null (b);  /* counted; reported at the end */
        return TRUE;
      }
    case T_LBRACKET:
      advance (p);
      dyno_value_builder_begin (b, DYNO_VALUE_L);
      if (peek (p)->kind != T_RBRACKET)
        {
          guint n = 0;

          p->depth++;
          do
            {
              p->slot_key = NULL;
              p->slot_index = n++;
              if (!parse_value (p, b))
                return FALSE;
            }
          while (accept (p, T_COMMA));
          p->depth--;
        }
      if (!expect (p, T_RBRACKET))
        return FALSE;
      break;
    case T_LBRACE:
      advance (p);
      dyno_value_builder_begin (b, DYNO_VALUE_M);
      if (peek (p)->kind != T_RBRACE)
        {
          g_autoptr(GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);

          p->depth++;
          do
            {
              Token *key = peek (p);

              if (key->kind != T_STRING)
                return unexpected (p, key) != NULL;
              /* (DynamoDB Local's words) */
              if (key->text_len == 0)
                return invalid (p, key, "Path component cannot be an empty string") != NULL;
              if (!g_hash_table_add (keys, key->text))
                return invalid (p, key, "Duplicate keys in tuple. Key: %s under root",
                                key->text) != NULL;
              advance (p);
              if (!expect (p, T_COLON))
                return FALSE;
              dyno_value_builder_key (b, key->text, key->text_len);
              p->slot_key = key->text;
              if (!parse_value (p, b))
                return FALSE;
            }
          while (accept (p, T_COMMA));
          p->depth--;
        }
      if (!expect (p, T_RBRACE))
        return FALSE;
      break;
    case T_LBAG:
      return parse_set (p, b);
    case T_IDENT:
      if (is_kw (t, "true") || is_kw (t, "false"))
        {
          advance (p);
          dyno_value_builder_add_bool (b, is_kw (t, "true"));
          return TRUE;
        }
      if (is_kw (t, "null"))
        {
          advance (p);
          dyno_value_builder_add_null (b);
          return TRUE;
        }
      return unexpected (p, t) != NULL;
    default:
      return unexpected (p, t) != NULL;
    }
  if (!dyno_value_builder_end (b, &local))
    {
      invalid (p, t, "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

/* ---- paths and operands ------------------------------------------------------------------ */

/* The words DynamoDB's PartiQL does not take as a bare name (they must be "quoted"), in byte
 * order: SQL's reserved words and PartiQL's own, as far as DynamoDB Local refuses them. */
static const char * const reserved[] = {
  "absolute", "action", "add", "all", "allocate", "alter", "and", "any", "are", "as", "asc",
  "assertion", "at", "authorization", "avg", "bag", "begin", "between", "bit", "bit_length",
  "blob", "bool", "boolean", "by", "cascade", "cascaded", "case", "cast", "catalog", "char",
  "char_length", "character", "character_length", "check", "clob", "close", "coalesce", "collate",
  "collation", "column", "commit", "conflict", "connect", "connection", "constraint",
  "constraints", "continue", "convert", "corresponding", "count", "create", "cross", "current",
  "current_date", "current_time", "current_timestamp", "current_user", "cursor", "date",
  "date_add", "date_diff", "deallocate", "dec", "decimal", "declare", "default", "deferrable",
  "deferred", "delete", "desc", "describe", "descriptor", "diagnostics", "disconnect", "distinct",
  "do", "domain", "double", "drop", "else", "end", "escape", "except", "exception", "exec",
  "execute", "exists", "external", "extract", "false", "fetch", "first", "float", "for",
  "foreign", "found", "from", "full", "get", "global", "go", "goto", "grant", "group", "having",
  "identity", "immediate", "in", "index", "indicator", "initially", "inner", "input",
  "insensitive", "insert", "int", "integer", "intersect", "interval", "into", "is", "isolation",
  "join", "key", "language", "last", "left", "let", "level", "like", "limit", "list", "local",
  "lower", "match", "max", "min", "missing", "modified", "module", "names", "national", "natural",
  "nchar", "new", "next", "no", "not", "nothing", "null", "nullif", "numeric", "octet_length",
  "of", "old", "on", "only", "open", "option", "or", "order", "outer", "output", "overlaps",
  "pad", "partial", "pivot", "position", "precision", "prepare", "preserve", "primary", "prior",
  "privileges", "procedure", "public", "read", "real", "references", "relative", "remove",
  "restrict", "returning", "revoke", "right", "rollback", "rows", "schema", "scroll", "section",
  "select", "session", "session_user", "set", "sexp", "size", "smallint", "some", "space", "sql",
  "sqlcode", "sqlerror", "sqlstate", "string", "struct", "substring", "sum", "symbol",
  "system_user", "table", "temporary", "then", "time", "timestamp", "to", "transaction",
  "translate", "translation", "trim", "true", "tuple", "union", "unique", "unknown", "unpivot",
  "update", "upper", "usage", "user", "using", "value", "values", "varchar", "varying", "view",
  "when", "whenever", "where", "with", "work", "write", "zone",
};

static int
compare_word (const void *a,
              const void *b)
{
  return strcmp (a, *(const char * const *) b);
}

static gboolean
is_reserved (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return bsearch (lower, reserved, G_N_ELEMENTS (reserved), sizeof reserved[0],
                  compare_word) != NULL;
}

static gboolean
is_name (const Token *t)
{
  return t->kind == T_QIDENT || (t->kind == T_IDENT && !is_reserved (t->text));
}

static char *
parse_name (Parser *p)
{
  Token *t = peek (p);

  if (t->kind == T_IDENT && is_reserved (t->text))
    {
      g_autofree char *detail = g_strdup_printf ("Unexpected keyword %s", t->text);

      return fail_at (p, t, detail);
    }
  if (!is_name (t))
    return unexpected (p, t);
  advance (p);
  return g_strdup (t->text);
}

static DynoPath *
parse_path (Parser *p)
{
  g_autofree char *first = parse_name (p);
  g_autoptr(DynoPath) path = NULL;

  if (first == NULL)
    return NULL;
  path = dyno_path_new (first);
  for (;;)
    {
      if (accept (p, T_DOT))
        {
          g_autofree char *name = parse_name (p);

          if (name == NULL)
            return NULL;
          dyno_path_append_name (path, name);
        }
      else if (accept (p, T_LBRACKET))
        {
          Token *t = peek (p);

          if (t->kind == T_NUMBER && strspn (t->text, "0123456789") == t->text_len)
            {
              guint64 index;

              if (!g_ascii_string_to_unsigned (t->text, 10, 0, G_MAXUINT, &index, NULL))
                return invalid (p, t, "Invalid list index: %s", t->text);
              dyno_path_append_index (path, index);
            }
          else if (t->kind == T_STRING)
            dyno_path_append_name (path, t->text);
          else
            return unexpected (p, t);
          advance (p);
          if (!expect (p, T_RBRACKET))
            return NULL;
        }
      else
        return g_steal_pointer (&path);
    }
}

static DynoExpr *
located (DynoExpr    *expr,
         Parser      *p,
         const Token *start)
{
  Token *last = &g_array_index (p->tokens, Token, p->pos > 0 ? p->pos - 1 : 0);

  if (expr)
    {
      expr->offset = start->offset;
      expr->length = last->offset + last->length > start->offset
                     ? last->offset + last->length - start->offset : start->length;
    }
  return expr;
}

static gboolean
is_call (Parser     *p,
         const char *name)
{
  return is_kw (peek (p), name) && peek_at (p, 1)->kind == T_LPAREN;
}

/* A value, a path or size(path). */
static DynoExpr *
parse_operand (Parser *p)
{
  Token *start = peek (p);

  if (starts_value (start))
    {
      DynoValue *v = parse_value_new (p);

      return v ? located (dyno_expr_new_value (v), p, start) : NULL;
    }
  if (is_call (p, "size"))
    {
      DynoPath *path;

      advance (p);
      advance (p);
      if ((path = parse_path (p)) == NULL)
        return NULL;
      if (!expect (p, T_RPAREN))
        {
          dyno_path_free (path);
          return NULL;
        }
      return located (dyno_expr_new_size (path), p, start);
    }
  if (start->kind == T_IDENT && peek_at (p, 1)->kind == T_LPAREN)
    return invalid (p, start, "Unrecognized function: %s", start->text);
  {
    DynoPath *path = parse_path (p);

    return path ? located (dyno_expr_new_path (path), p, start) : NULL;
  }
}

/* ---- conditions -------------------------------------------------------------------------- */

static DynoExpr *parse_or (Parser *p);

static const struct {
  const char   *name;
  DynoFunction  func;
  guint         arity;
} functions[] = {
  { "attribute_exists", DYNO_FUNCTION_ATTRIBUTE_EXISTS, 1 },
  { "attribute_not_exists", DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS, 1 },
  { "attribute_type", DYNO_FUNCTION_ATTRIBUTE_TYPE, 2 },
  { "begins_with", DYNO_FUNCTION_BEGINS_WITH, 2 },
  { "contains", DYNO_FUNCTION_CONTAINS, 2 },
};

static DynoExpr *
parse_function (Parser *p)
{
  Token *start = advance (p);
  g_autoptr(DynoExpr) a = NULL;
  g_autoptr(DynoExpr) b = NULL;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (functions); f++)
    if (g_ascii_strcasecmp (start->text, functions[f].name) == 0)
      break;
  if (f == G_N_ELEMENTS (functions))
    return invalid (p, start, "Unrecognized function: %s", start->text);
  advance (p);  /* ( */
  if ((a = parse_operand (p)) == NULL)
    return NULL;
  if (functions[f].arity == 2)
    {
      if (!expect (p, T_COMMA) || (b = parse_operand (p)) == NULL)
        return NULL;
    }
  if (!expect (p, T_RPAREN))
    return NULL;
  if (functions[f].arity == 2)
    return located (dyno_expr_new_function (functions[f].func, g_steal_pointer (&a),
                                            g_steal_pointer (&b), NULL), p, start);
  return located (dyno_expr_new_function (functions[f].func, g_steal_pointer (&a), NULL),
                  p, start);
}

static DynoExpr *
parse_predicate (Parser *p)
{
  Token *start = peek (p);
  g_autoptr(DynoExpr) left = NULL;
  gboolean negated = FALSE;
  DynoExpr *result;
  Token *t;

  if (accept (p, T_LPAREN))
    {
      DynoExpr *inner = parse_or (p);

      if (inner == NULL)
        return NULL;
      if (!expect (p, T_RPAREN))
        {
          dyno_expr_free (inner);
          return NULL;
        }
      return located (dyno_expr_new_paren (inner), p, start);
    }
  if (start->kind == T_IDENT && peek_at (p, 1)->kind == T_LPAREN && !is_kw (start, "size"))
    return parse_function (p);
  if ((left = parse_operand (p)) == NULL)
    return NULL;
  t = peek (p);
  switch (t->kind)
    {
    case T_EQ: case T_NE: case T_LT: case T_LE: case T_GT: case T_GE:
      {
        static const DynoCompareOp ops[] = {
          [T_EQ] = DYNO_COMPARE_EQ, [T_NE] = DYNO_COMPARE_NE, [T_LT] = DYNO_COMPARE_LT,
          [T_LE] = DYNO_COMPARE_LE, [T_GT] = DYNO_COMPARE_GT, [T_GE] = DYNO_COMPARE_GE,
        };
        DynoExpr *right;

        advance (p);
        if ((right = parse_operand (p)) == NULL)
          return NULL;
        return located (dyno_expr_new_compare (ops[t->kind], g_steal_pointer (&left), right),
                        p, start);
      }
    default:
      break;
    }
  if (is_kw (t, "is"))
    {
      /* IS [NOT] MISSING, and IS [NOT] type: DynamoDB's attribute_type */
      static const struct {
        const char *name;
        const char *type;   /* NULL: a type DynamoDB names in its message and refuses */
      } types[] = {
        { "null", "NULL" }, { "string", "S" }, { "numeric", "N" }, { "boolean", "BOOL" },
        { "bool", "BOOL" }, { "blob", "B" }, { "struct", "M" }, { "tuple", "M" },
        { "list", "L" }, { "decimal", NULL }, { "int", NULL }, { "integer", NULL },
        { "bag", NULL },
      };
      Token *type;
      DynoExpr *check;
      guint i;

      advance (p);
      negated = accept_kw (p, "not");
      type = peek (p);
      if (accept_kw (p, "missing"))
        {
          if (left->kind != DYNO_EXPR_PATH)
            return unexpected (p, start);
          return located (dyno_expr_new_function (negated ? DYNO_FUNCTION_ATTRIBUTE_EXISTS
                                                          : DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS,
                                                  g_steal_pointer (&left), NULL), p, start);
        }
      for (i = 0; i < G_N_ELEMENTS (types); i++)
        if (is_kw (type, types[i].name))
          break;
      if (i == G_N_ELEMENTS (types))
        return unexpected (p, type);
      if (types[i].type == NULL)
        {
          g_autofree char *upper = g_ascii_strup (is_kw (type, "int") ? "integer" : type->text,
                                                  -1);

          return invalid (p, type, "Unsupported data type for IS operator: %s. Supported data "
                          "types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, "
                          "TUPLE, LIST]", upper);
        }
      advance (p);
      if (left->kind != DYNO_EXPR_PATH)
        return unexpected (p, start);
      check = dyno_expr_new_function (DYNO_FUNCTION_ATTRIBUTE_TYPE, g_steal_pointer (&left),
                                      dyno_expr_new_value (dyno_value_new_string (types[i].type,
                                                                                  -1)),
                                      NULL);
      located (check, p, start);
      return negated ? located (dyno_expr_new_not (check), p, start) : check;
    }
  if (t->kind == T_PLUS || t->kind == T_MINUS || is_kw (t, "like"))
    {
      g_autofree char *op = g_ascii_strdown (p->text + t->offset, t->length);

      return invalid (p, t, "Unsupported operator in Condition Expression. Operator: %s", op);
    }
  if (is_kw (t, "not") && (is_kw (peek_at (p, 1), "between") || is_kw (peek_at (p, 1), "in")))
    {
      advance (p);
      negated = TRUE;
      t = peek (p);
    }
  if (accept_kw (p, "between"))
    {
      g_autoptr(DynoExpr) low = parse_operand (p);
      DynoExpr *high;

      if (low == NULL || !expect_kw (p, "and") || (high = parse_operand (p)) == NULL)
        return NULL;
      result = dyno_expr_new_between (g_steal_pointer (&left), g_steal_pointer (&low), high);
    }
  else if (accept_kw (p, "in"))
    {
      g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_expr_free);
      TokenKind close;

      if (accept (p, T_LBRACKET))
        close = T_RBRACKET;
      else if (accept (p, T_LPAREN))
        close = T_RPAREN;
      else
        return unexpected (p, peek (p));
      do
        {
          DynoExpr *item = parse_operand (p);

          if (item == NULL)
            return NULL;
          g_ptr_array_add (list, item);
        }
      while (accept (p, T_COMMA));
      if (!expect (p, close))
        return NULL;
      result = dyno_expr_new_in (g_steal_pointer (&left), g_steal_pointer (&list));
    }
  else
    return unexpected (p, t);
  located (result, p, start);
  return negated ? located (dyno_expr_new_not (result), p, start) : result;
}

static DynoExpr *
parse_not (Parser *p)
{
  Token *start = peek (p);

  if (accept_kw (p, "not"))
    {
      DynoExpr *inner = parse_not (p);

      return inner ? located (dyno_expr_new_not (inner), p, start) : NULL;
    }
  return parse_predicate (p);
}

static DynoExpr *
parse_and (Parser *p)
{
  Token *start = peek (p);
  DynoExpr *left = parse_not (p);

  if (left == NULL)
    return NULL;
  if (accept_kw (p, "and"))
    {
      DynoExpr *right = parse_and (p);  /* chains nest to the right, as dyno-expr.h says */

      if (right == NULL)
        {
          dyno_expr_free (left);
          return NULL;
        }
      return located (dyno_expr_new_and (left, right), p, start);
    }
  return left;
}

static DynoExpr *
parse_or (Parser *p)
{
  Token *start = peek (p);
  DynoExpr *left = parse_and (p);

  if (left == NULL)
    return NULL;
  if (accept_kw (p, "or"))
    {
      DynoExpr *right = parse_or (p);

      if (right == NULL)
        {
          dyno_expr_free (left);
          return NULL;
        }
      return located (dyno_expr_new_or (left, right), p, start);
    }
  return left;
}

/* ---- statements -------------------------------------------------------------------------- */

static gboolean
parse_where (Parser               *p,
             DynoPartiqlStatement *st)
{
  if (!accept_kw (p, "where"))
    return TRUE;
  st->where = parse_or (p);
  return st->where != NULL;
}

static gboolean
parse_table (Parser               *p,
             DynoPartiqlStatement *st,
             gboolean              index)
{
  if ((st->table = parse_name (p)) == NULL)
    return FALSE;
  if (index && accept (p, T_DOT))
    return (st->index = parse_name (p)) != NULL;
  return TRUE;
}

static gboolean
parse_select (Parser               *p,
              DynoPartiqlStatement *st)
{
  if (is_kw (peek (p), "distinct"))
    return invalid (p, peek (p), "Unsupported token in expression: DISTINCT") != NULL;
  if (!accept (p, T_STAR))
    {
      st->projection = dyno_projection_new ();
      do
        {
          DynoPath *path = parse_path (p);

          if (path == NULL)
            return FALSE;
          g_ptr_array_add (st->projection, path);
          if (is_kw (peek (p), "as"))
            return invalid (p, peek (p), "Aliasing is not supported") != NULL;
        }
      while (accept (p, T_COMMA));
    }
  if (!expect_kw (p, "from") || !parse_table (p, st, TRUE))
    return FALSE;
  if (is_kw (peek (p), "as") || (peek (p)->kind == T_IDENT && !is_reserved (peek (p)->text)))
    return invalid (p, peek (p), "Aliasing is not supported") != NULL;
  if (!parse_where (p, st))
    return FALSE;
  if (accept_kw (p, "order"))
    {
      if (!expect_kw (p, "by") || (st->order_by = parse_name (p)) == NULL)
        return FALSE;
      if (accept_kw (p, "desc"))
        st->descending = TRUE;
      else
        accept_kw (p, "asc");
    }
  return TRUE;
}

static gboolean
parse_insert (Parser               *p,
              DynoPartiqlStatement *st)
{
  Token *t;

  if (!expect_kw (p, "into") || !parse_table (p, st, FALSE) || !expect_kw (p, "value"))
    return FALSE;
  t = peek (p);
  if (t->kind == T_PARAM)
    return invalid (p, t, "Unsupported format in item expression. Please use struct format "
                    "{...} to express item values for insert statement.") != NULL;
  if (t->kind != T_LBRACE)
    return unexpected (p, t) != NULL;
  p->param_depth = 1;
  st->item = parse_value_new (p);
  p->param_depth = 0;
  return st->item != NULL;
}

/* The right-hand side of SET path = …: an operand, operand + operand, operand - operand,
 * list_append (a, b), if_not_exists (path, value). */
static DynoExpr *
parse_set_term (Parser *p)
{
  Token *start = peek (p);
  gboolean append = is_call (p, "list_append");

  if (append || is_call (p, "if_not_exists"))
    {
      g_autoptr(DynoExpr) a = NULL;
      g_autoptr(DynoExpr) b = NULL;

      advance (p);
      advance (p);
      if ((a = parse_operand (p)) == NULL || !expect (p, T_COMMA)
          || (b = parse_operand (p)) == NULL || !expect (p, T_RPAREN))
        return NULL;
      return located (dyno_expr_new_arith (append ? DYNO_EXPR_LIST_APPEND
                                                  : DYNO_EXPR_IF_NOT_EXISTS,
                                           g_steal_pointer (&a), g_steal_pointer (&b)),
                      p, start);
    }
  return parse_operand (p);
}

static gboolean
parse_set_clause (Parser               *p,
                  DynoPartiqlStatement *st)
{
  g_autoptr(DynoPath) path = parse_path (p);
  Token *start;
  DynoExpr *a;

  if (path == NULL || !expect (p, T_EQ))
    return FALSE;
  start = peek (p);
  if (is_call (p, "set_add") || is_call (p, "set_delete"))
    {
      gboolean add = is_kw (start, "set_add");
      g_autoptr(DynoPath) target = NULL;
      g_autoptr(DynoExpr) value = NULL;

      advance (p);
      advance (p);
      if ((target = parse_path (p)) == NULL || !expect (p, T_COMMA)
          || (value = parse_operand (p)) == NULL || !expect (p, T_RPAREN))
        return FALSE;
      if (!dyno_path_equal (target, path))
        return invalid (p, start, "%s: the set must be the attribute being set",
                        start->text) != NULL;
      if (value->kind != DYNO_EXPR_VALUE)
        return unexpected (p, start) != NULL;
      dyno_update_add_clause (st->update, add ? DYNO_UPDATE_ADD : DYNO_UPDATE_DELETE,
                              g_steal_pointer (&path), g_steal_pointer (&value));
      return TRUE;
    }
  if ((a = parse_set_term (p)) == NULL)
    return FALSE;
  if (peek (p)->kind == T_PLUS || peek (p)->kind == T_MINUS)
    {
      gboolean plus = advance (p)->kind == T_PLUS;
      DynoExpr *b = parse_set_term (p);

      if (b == NULL)
        {
          dyno_expr_free (a);
          return FALSE;
        }
      a = located (dyno_expr_new_arith (plus ? DYNO_EXPR_PLUS : DYNO_EXPR_MINUS, a, b), p,
                   start);
    }
  dyno_update_add_clause (st->update, DYNO_UPDATE_SET, g_steal_pointer (&path), a);
  return TRUE;
}

static gboolean
parse_returning (Parser               *p,
                 DynoPartiqlStatement *st)
{
  gboolean all, old;

  if (!accept_kw (p, "returning"))
    return TRUE;
  if (accept_kw (p, "all"))
    all = TRUE;
  else if (accept_kw (p, "modified"))
    all = FALSE;
  else
    return unexpected (p, peek (p)) != NULL;
  if (accept_kw (p, "old"))
    old = TRUE;
  else if (accept_kw (p, "new"))
    old = FALSE;
  else
    return unexpected (p, peek (p)) != NULL;
  if (!expect (p, T_STAR))
    return FALSE;
  st->returning = g_strdup_printf ("%s_%s", all ? "ALL" : "UPDATED", old ? "OLD" : "NEW");
  return TRUE;
}

static gboolean
parse_update (Parser               *p,
              DynoPartiqlStatement *st)
{
  if (!parse_table (p, st, FALSE))
    return FALSE;
  st->update = dyno_update_new ();
  if (!is_kw (peek (p), "set") && !is_kw (peek (p), "remove"))
    return unexpected (p, peek (p)) != NULL;
  for (;;)
    {
      if (accept_kw (p, "set"))
        {
          do
            if (!parse_set_clause (p, st))
              return FALSE;
          while (accept (p, T_COMMA));
        }
      else if (accept_kw (p, "remove"))
        {
          do
            {
              DynoPath *path = parse_path (p);

              if (path == NULL)
                return FALSE;
              dyno_update_add_clause (st->update, DYNO_UPDATE_REMOVE, path, NULL);
            }
          while (accept (p, T_COMMA));
        }
      else
        break;
    }
  return parse_where (p, st) && parse_returning (p, st);
}

static gboolean
parse_delete (Parser               *p,
              DynoPartiqlStatement *st)
{
  return expect_kw (p, "from") && parse_table (p, st, FALSE) && parse_where (p, st)
         && parse_returning (p, st);
}

DynoPartiqlStatement *
dyno_partiql_parse (const char         *text,
                    GPtrArray          *parameters,
                    DynoParseLocation  *loc,
                    GError            **error)
{
  g_autoptr(DynoPartiqlStatement) st = g_new0 (DynoPartiqlStatement, 1);
  g_autoptr(GArray) tokens = g_array_new (FALSE, TRUE, sizeof (Token));
  Parser p = { .text = text, .tokens = tokens, .params = parameters, .loc = loc,
               .error = error };
  Token *first;
  gboolean ok;

  g_return_val_if_fail (text != NULL, NULL);
  g_array_set_clear_func (tokens, token_clear);

  if (!lex (&p))
    return NULL;
  first = advance (&p);
  if (is_kw (first, "select"))
    {
      st->kind = DYNO_PARTIQL_SELECT;
      ok = parse_select (&p, st);
    }
  else if (is_kw (first, "insert"))
    {
      st->kind = DYNO_PARTIQL_INSERT;
      ok = parse_insert (&p, st);
    }
  else if (is_kw (first, "update"))
    {
      st->kind = DYNO_PARTIQL_UPDATE;
      ok = parse_update (&p, st);
    }
  else if (is_kw (first, "delete"))
    {
      st->kind = DYNO_PARTIQL_DELETE;
      ok = parse_delete (&p, st);
    }
  else
    ok = fail_at (&p, first, "Expected data manipulation") != NULL;
  if (!ok)
    return NULL;
  accept (&p, T_SEMI);
  if (peek (&p)->kind != T_EOF)
    return unexpected (&p, peek (&p));
  st->n_parameters = p.n_params;
  /* (DynamoDB Local ignores parameters beyond the statement's ?s: so does this) */
  if (p.n_params > (parameters ? parameters->len : 0))
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           "Number of parameters in request and statement don't match.");
      return NULL;
    }
  return g_steal_pointer (&st);
}

void
dyno_partiql_statement_free (DynoPartiqlStatement *st)
{
  if (st == NULL)
    return;
  g_free (st->table);
  g_free (st->index);
  g_clear_pointer (&st->projection, g_ptr_array_unref);
  g_clear_pointer (&st->where, dyno_expr_free);
  g_clear_pointer (&st->update, dyno_update_free);
  g_clear_pointer (&st->item, dyno_value_free);
  g_free (st->order_by);
  g_free (st->returning);
  g_free (st);
}
