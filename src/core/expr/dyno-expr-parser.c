/* dyno-expr-parser.c: recursive-descent parsers for DynamoDB's syntax and the inline syntax
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-expr.h"
#include "dyno-expr-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-json.h"

/* Deeper trees are refused so that recursion over them stays well inside the stack. */
#define MAX_TREE_DEPTH 1000

typedef struct {
  DynoLexer           lexer;
  DynoToken           tok;
  DynoToken           next;
  gboolean            has_next;
  const char         *field;
  GHashTable         *names;
  GHashTable         *values;
  GHashTable         *used;
  DynoParseLocation  *loc;
  GError            **error;
  gboolean            failed;
  gsize               prev_end;   /* end offset of the last consumed token */
  guint               depth;      /* nesting of parenthesised operands */
} Parser;

/* Past MAX_TREE_DEPTH the expression is far over DynamoDB's own limits, so say those rather
 * than our recursion bound. */
static void
too_large (Parser     *p,
           gboolean    chain,
           gsize       offset,
           gsize       length);

static gboolean
is_inline (Parser *p)
{
  return p->lexer.syntax == DYNO_SYNTAX_INLINE;
}

static void
parser_fail (Parser     *p,
             int         code,
             gsize       offset,
             gsize       length,
             const char *message)
{
  guint column;

  if (p->failed)
    return;
  p->failed = TRUE;
  column = dyno_text_column (p->lexer.text, offset);
  dyno_set_location (p->loc, p->lexer.text, offset, length);
  if (code == DYNO_ERROR_SYNTAX)
    /* Translators: the column, then what is wrong. */
    g_set_error (p->error, DYNO_ERROR, code, _("Syntax error at column %u: %s"), column, message);
  else
    /* Translators: the request field (such as KeyConditionExpression), what is wrong, then the
     * column. */
    g_set_error (p->error, DYNO_ERROR, code, _("Invalid %s: %s (at column %u)"), p->field,
                 message, column);
}

G_GNUC_PRINTF (5, 0)
static void
parser_failv (Parser     *p,
              int         code,
              gsize       offset,
              gsize       length,
              const char *format,
              va_list     ap)
{
  g_autofree char *message = g_strdup_vprintf (format, ap);

  parser_fail (p, code, offset, length, message);
}

G_GNUC_PRINTF (4, 5)
static void
syntax_error (Parser     *p,
              gsize       offset,
              gsize       length,
              const char *format,
              ...)
{
  va_list ap;

  va_start (ap, format);
  parser_failv (p, DYNO_ERROR_SYNTAX, offset, length, format, ap);
  va_end (ap);
}

G_GNUC_PRINTF (4, 5)
static void
semantic_error (Parser     *p,
                gsize       offset,
                gsize       length,
                const char *format,
                ...)
{
  va_list ap;

  va_start (ap, format);
  parser_failv (p, DYNO_ERROR_VALIDATION, offset, length, format, ap);
  va_end (ap);
}

static void
too_large (Parser     *p,
           gboolean    chain,
           gsize       offset,
           gsize       length)
{
  if (chain)
    semantic_error (p, offset, length,
                    /* Translators: the number of conditions, then DynamoDB's limits: operators
                     * and functions, then bytes. */
                    _("more than %d conditions are joined with AND or OR; DynamoDB allows at "
                      "most %d operators and functions (each AND, OR, NOT, comparison, BETWEEN, "
                      "IN and function counts) and %d bytes of text in one expression"),
                    MAX_TREE_DEPTH, DYNO_EXPR_MAX_OPERATORS, DYNO_EXPR_MAX_BYTES);
  else
    semantic_error (p, offset, length,
                    /* Translators: the number of levels, then DynamoDB's limits: operators and
                     * functions, then bytes. */
                    _("the expression nests NOT and parentheses more than %d levels deep; "
                      "DynamoDB allows at most %d operators and functions (each AND, OR, NOT, "
                      "comparison, BETWEEN, IN and function counts) and %d bytes of text in one "
                      "expression"),
                    MAX_TREE_DEPTH, DYNO_EXPR_MAX_OPERATORS, DYNO_EXPR_MAX_BYTES);
}

/* "expected X, found Y" at the current token */
static void
expected (Parser     *p,
          const char *what)
{
  g_autofree char *found = dyno_token_describe (&p->lexer, &p->tok);

  if (is_inline (p) && p->tok.kind == DYNO_TOKEN_IDENT && dyno_is_inline_keyword (p->tok.text))
    syntax_error (p, p->tok.offset, p->tok.length,
                  /* Translators: what was expected (a phrase such as "an attribute name"), the
                   * text found, then a name (twice). */
                  _("expected %s, found %s (write an attribute called %s in backticks: `%s`)"),
                  what, found, p->tok.text, p->tok.text);
  else
    /* Translators: what was expected (a phrase such as "an attribute name"), then the text found
     * (quoted, or "end of input"). */
    syntax_error (p, p->tok.offset, p->tok.length, _("expected %s, found %s"), what, found);
}

static gboolean
advance (Parser *p)
{
  GError *lex_error = NULL;

  if (p->failed)
    return FALSE;
  p->prev_end = p->tok.offset + p->tok.length;
  if (p->has_next)
    {
      dyno_token_clear (&p->tok);
      p->tok = p->next;
      memset (&p->next, 0, sizeof p->next);
      p->has_next = FALSE;
      return TRUE;
    }
  if (!dyno_lexer_next (&p->lexer, &p->tok, p->loc, &lex_error))
    {
      p->failed = TRUE;
      g_propagate_error (p->error, lex_error);
      return FALSE;
    }
  return TRUE;
}

static const DynoToken *
peek (Parser *p)
{
  GError *lex_error = NULL;

  if (p->failed)
    return NULL;
  if (!p->has_next)
    {
      if (!dyno_lexer_next (&p->lexer, &p->next, p->loc, &lex_error))
        {
          p->failed = TRUE;
          g_propagate_error (p->error, lex_error);
          return NULL;
        }
      p->has_next = TRUE;
    }
  return &p->next;
}

static gboolean
tok_is_word (Parser     *p,
             const char *word)
{
  return p->tok.kind == DYNO_TOKEN_IDENT && g_ascii_strcasecmp (p->tok.text, word) == 0;
}

static gboolean
parser_init (Parser             *p,
             const char         *text,
             DynoSyntax          syntax,
             const char         *field,
             GHashTable         *names,
             GHashTable         *values,
             GHashTable         *used,
             DynoParseLocation  *loc,
             GError            **error)
{
  const char *bad = NULL;

  memset (p, 0, sizeof *p);
  dyno_lexer_init (&p->lexer, text, syntax);
  p->field = field;
  p->names = names;
  p->values = values;
  p->used = used;
  p->loc = loc;
  p->error = error;
  if (!g_utf8_validate (text, -1, &bad))
    {
      syntax_error (p, bad - text, 1, _("the text is not valid UTF-8"));
      return FALSE;
    }
  return advance (p);
}

static void
parser_clear (Parser *p)
{
  dyno_token_clear (&p->tok);
  dyno_token_clear (&p->next);
}

static void
mark_used (Parser     *p,
           const char *placeholder)
{
  if (p->used != NULL && !g_hash_table_contains (p->used, placeholder))
    g_hash_table_add (p->used, g_strdup (placeholder));
}

static void
set_span (DynoExpr *expr,
          gsize     start,
          gsize     end)
{
  expr->offset = start;
  expr->length = end > start ? end - start : 0;
}

/* ---- paths ------------------------------------------------------------------------------ */

static gboolean
tok_starts_path (Parser *p)
{
  switch (p->tok.kind)
    {
    case DYNO_TOKEN_NAME_REF:
    case DYNO_TOKEN_QUOTED_NAME:
      return TRUE;
    case DYNO_TOKEN_IDENT:
      if (is_inline (p))
        return !dyno_is_inline_keyword (p->tok.text) &&
               strcmp (p->tok.text, "true") != 0 && strcmp (p->tok.text, "false") != 0 &&
               strcmp (p->tok.text, "null") != 0;
      return TRUE;
    default:
      return FALSE;
    }
}

/* One path element from the current token (a name); NULL on error. */
static char *
parse_name_element (Parser   *p,
                    gboolean  first)
{
  char *name = NULL;

  switch (p->tok.kind)
    {
    case DYNO_TOKEN_IDENT:
      if (is_inline (p))
        {
          if (first && !tok_starts_path (p))
            {
              g_autofree char *what =
                g_strdup_printf (_("an attribute name (write an attribute called %s in "
                                   "backticks: `%s`)"), p->tok.text, p->tok.text);
              expected (p, what);
              return NULL;
            }
        }
      else if (p->tok.text[0] == '_')
        {
          /* DynamoDB (Local) answers `Syntax error; token: "_"`: a bare name starts with a
           * letter, as the Developer Guide says; '_' is allowed after it. */
          syntax_error (p, p->tok.offset, 1,
                        _("\"%s\" is not a valid name; a name that starts with '_' needs an "
                          "ExpressionAttributeNames placeholder such as #n"), p->tok.text);
          return NULL;
        }
      else if (dyno_is_reserved_word (p->tok.text))
        {
          semantic_error (p, p->tok.offset, p->tok.length,
                          _("Attribute name is a reserved keyword; reserved keyword: %s"),
                          p->tok.text);
          return NULL;
        }
      name = g_strdup (p->tok.text);
      break;
    case DYNO_TOKEN_QUOTED_NAME:
      name = g_strdup (p->tok.text);
      break;
    case DYNO_TOKEN_NAME_REF:
      {
        const char *resolved = p->names != NULL ? g_hash_table_lookup (p->names, p->tok.text)
                                                : NULL;

        if (resolved == NULL)
          {
            semantic_error (p, p->tok.offset, p->tok.length,
                            _("An expression attribute name used in the document path is not "
                              "defined; attribute name: %s"), p->tok.text);
            return NULL;
          }
        mark_used (p, p->tok.text);
        name = g_strdup (resolved);
      }
      break;
    default:
      expected (p, _("an attribute name"));
      return NULL;
    }
  advance (p);
  return name;
}

static DynoPath *
parse_path (Parser *p)
{
  g_autoptr(DynoPath) path = NULL;
  g_autofree char *first = parse_name_element (p, TRUE);

  if (first == NULL)
    return NULL;
  path = dyno_path_new (first);
  while (!p->failed)
    {
      if (p->tok.kind == DYNO_TOKEN_DOT)
        {
          g_autofree char *name = NULL;

          if (!advance (p))
            return NULL;
          if (p->tok.kind != DYNO_TOKEN_IDENT && p->tok.kind != DYNO_TOKEN_QUOTED_NAME &&
              p->tok.kind != DYNO_TOKEN_NAME_REF)
            {
              expected (p, _("an attribute name after \".\""));
              return NULL;
            }
          name = parse_name_element (p, FALSE);
          if (name == NULL)
            return NULL;
          dyno_path_append_name (path, name);
        }
      else if (p->tok.kind == DYNO_TOKEN_LBRACKET)
        {
          guint64 index = 0;
          gsize open = p->tok.offset;

          if (!advance (p))
            return NULL;
          if (p->tok.kind != DYNO_TOKEN_NUMBER)
            {
              expected (p, _("a list index (a whole number of 0 or more) after \"[\""));
              return NULL;
            }
          for (const char *c = p->tok.text; *c != '\0'; c++)
            {
              if (!g_ascii_isdigit (*c))
                {
                  syntax_error (p, p->tok.offset, p->tok.length,
                                _("a list index must be a whole number of 0 or more"));
                  return NULL;
                }
              index = index * 10 + (guint64) (*c - '0');
              if (index > G_MAXINT32)
                {
                  syntax_error (p, p->tok.offset, p->tok.length, _("the list index is too large"));
                  return NULL;
                }
            }
          if (!advance (p))
            return NULL;
          if (p->tok.kind != DYNO_TOKEN_RBRACKET)
            {
              g_autofree char *what = g_strdup_printf (_("\"]\" to close the \"[\" at column %u"),
                                                       dyno_text_column (p->lexer.text, open));
              expected (p, what);
              return NULL;
            }
          if (!advance (p))
            return NULL;
          dyno_path_append_index (path, (guint) index);
        }
      else
        break;
    }
  if (p->failed)
    return NULL;
  return g_steal_pointer (&path);
}

/* A path as an operand (the current token starts one), its span from @start. */
static DynoExpr *
parse_path_operand (Parser *p,
                    gsize   start)
{
  DynoPath *path = parse_path (p);
  DynoExpr *expr;

  if (path == NULL)
    return NULL;
  expr = dyno_expr_new_path (path);
  set_span (expr, start, p->prev_end);
  return expr;
}

/* ---- values ----------------------------------------------------------------------------- */

static gboolean
tok_starts_value (Parser *p)
{
  switch (p->tok.kind)
    {
    case DYNO_TOKEN_VALUE_REF:
      return TRUE;
    case DYNO_TOKEN_STRING:
    case DYNO_TOKEN_NUMBER:
    case DYNO_TOKEN_DDB_JSON:
    case DYNO_TOKEN_MINUS:
      return is_inline (p);
    case DYNO_TOKEN_IDENT:
      return is_inline (p) &&
             (strcmp (p->tok.text, "true") == 0 || strcmp (p->tok.text, "false") == 0 ||
              strcmp (p->tok.text, "null") == 0);
    default:
      return FALSE;
    }
}

static DynoExpr *
parse_value (Parser *p)
{
  g_autoptr(GError) value_error = NULL;
  DynoValue *value = NULL;
  char *value_name = NULL;
  gsize start = p->tok.offset;

  switch (p->tok.kind)
    {
    case DYNO_TOKEN_VALUE_REF:
      {
        const DynoValue *found = p->values != NULL ? g_hash_table_lookup (p->values,
                                                                          p->tok.text)
                                                   : NULL;

        if (found == NULL)
          {
            semantic_error (p, p->tok.offset, p->tok.length,
                            _("An expression attribute value used in expression is not "
                              "defined; attribute value: %s"), p->tok.text);
            return NULL;
          }
        mark_used (p, p->tok.text);
        value = dyno_value_copy (found);
        value_name = g_strdup (p->tok.text);
      }
      break;
    case DYNO_TOKEN_STRING:
      value = dyno_value_new_string (p->tok.text, p->tok.text_len);
      break;
    case DYNO_TOKEN_MINUS:
    case DYNO_TOKEN_NUMBER:
      {
        g_autofree char *number = NULL;

        if (p->tok.kind == DYNO_TOKEN_MINUS)
          {
            const DynoToken *n = peek (p);

            if (n == NULL)
              return NULL;
            if (n->kind != DYNO_TOKEN_NUMBER || n->offset != p->tok.offset + 1)
              {
                syntax_error (p, p->tok.offset, p->tok.length,
                              _("\"-\" must be followed directly by a number here"));
                return NULL;
              }
            if (!advance (p))
              return NULL;
            number = g_strconcat ("-", p->tok.text, NULL);
          }
        else
          number = g_strdup (p->tok.text);
        value = dyno_value_new_number (number, -1, &value_error);
        if (value == NULL)
          {
            syntax_error (p, start, p->tok.offset + p->tok.length - start, "%s",
                          value_error != NULL ? value_error->message : _("not a valid number"));
            return NULL;
          }
      }
      break;
    case DYNO_TOKEN_DDB_JSON:
      value = dyno_value_from_ddb_json (p->tok.text, p->tok.text_len, &value_error);
      if (value == NULL)
        {
          syntax_error (p, p->tok.offset, p->tok.length, _("invalid DynamoDB JSON value: %s"),
                        value_error != NULL ? value_error->message : _("unknown error"));
          return NULL;
        }
      break;
    case DYNO_TOKEN_IDENT:
      if (strcmp (p->tok.text, "true") == 0)
        value = dyno_value_new_bool (TRUE);
      else if (strcmp (p->tok.text, "false") == 0)
        value = dyno_value_new_bool (FALSE);
      else
        value = dyno_value_new_null ();
      break;
    default:
      g_assert_not_reached ();
    }
  if (!advance (p))
    {
      dyno_value_free (value);
      g_free (value_name);
      return NULL;
    }
  {
    DynoExpr *expr = dyno_expr_new_value (value);

    expr->value_name = value_name;
    set_span (expr, start, p->prev_end);
    return expr;
  }
}

/* ---- operands --------------------------------------------------------------------------- */

static gboolean
tok_is_function_call (Parser *p)
{
  const DynoToken *n;

  if (p->tok.kind != DYNO_TOKEN_IDENT)
    return FALSE;
  n = peek (p);
  return n != NULL && n->kind == DYNO_TOKEN_LPAREN;
}

static void
unknown_function (Parser *p)
{
  semantic_error (p, p->tok.offset, p->tok.length, _("Invalid function name; function: %s"),
                  p->tok.text);
}

static void
literal_in_dynamodb_syntax (Parser *p)
{
  syntax_error (p, p->tok.offset, p->tok.length,
                _("literal values are not part of DynamoDB's syntax; use an "
                  "ExpressionAttributeValues placeholder such as :v"));
}

static DynoExpr *parse_operand (Parser *p, const char *what);

/* DynamoDB accepts parentheses around an operand, "(a) = :v".  At a "(" this looks past the
 * matching ")" for a comparator, BETWEEN or IN, which only an operand can be followed by. */
static gboolean
paren_starts_operand (Parser *p)
{
  const char *text = p->lexer.text;
  gsize len = p->lexer.len;
  gsize i = p->tok.offset + 1;
  guint depth = 1;

  /* A raw scan, without tokens: it runs at every "(", so it must be cheap.  Quoted names and
   * strings (inline syntax) may hold parentheses and are skipped. */
  while (i < len && depth > 0)
    {
      char c = text[i++];

      if (c == '(')
        depth++;
      else if (c == ')')
        depth--;
      else if (c == '"' && is_inline (p))
        {
          while (i < len && text[i] != '"')
            i += text[i] == '\\' && i + 1 < len ? 2 : 1;
          i++;
        }
      else if (c == '`' && is_inline (p))
        {
          while (i < len && text[i] != '`')
            i++;
          i++;
        }
    }
  if (depth > 0)
    return FALSE;
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
    i++;
  if (i >= len)
    return FALSE;
  if (text[i] == '=' || text[i] == '<' || text[i] == '>')
    return TRUE;
  if (g_ascii_strncasecmp (text + i, "BETWEEN", 7) == 0)
    i += 7;
  else if (g_ascii_strncasecmp (text + i, "IN", 2) == 0)
    i += 2;
  else
    return FALSE;
  return !(g_ascii_isalnum (text[i]) || text[i] == '_');
}

/* "(" operand ")": the parentheses are not kept, as they change nothing. */
static DynoExpr *
parse_paren_operand (Parser     *p,
                     const char *what)
{
  gsize start = p->tok.offset;
  DynoExpr *inner;

  if (!advance (p))
    return NULL;
  if (p->tok.kind == DYNO_TOKEN_LPAREN && !is_inline (p))
    {
      semantic_error (p, start, 2, _("The expression has redundant parentheses;"));
      return NULL;
    }
  inner = parse_operand (p, what);
  if (inner == NULL)
    return NULL;
  if (p->tok.kind != DYNO_TOKEN_RPAREN)
    {
      g_autofree char *w = g_strdup_printf (_("\")\" to close the \"(\" at column %u"),
                                            dyno_text_column (p->lexer.text, start));
      dyno_expr_free (inner);
      expected (p, w);
      return NULL;
    }
  if (!advance (p))
    {
      dyno_expr_free (inner);
      return NULL;
    }
  return inner;
}

/* size(path), with the current token on "size" */
static DynoExpr *
parse_size (Parser *p)
{
  g_autoptr(DynoPath) path = NULL;
  gsize start = p->tok.offset;
  DynoExpr *expr;
  guint n_args = 0;

  advance (p);   /* size */
  if (!advance (p))  /* ( */
    return NULL;
  if (!tok_starts_path (p))
    {
      if (p->tok.kind == DYNO_TOKEN_RPAREN)
        {
          semantic_error (p, start, p->tok.offset + 1 - start,
                          _("Incorrect number of operands for operator or function; operator "
                            "or function: size, number of operands: 0"));
          return NULL;
        }
      if (tok_starts_value (p))
        {
          semantic_error (p, p->tok.offset, p->tok.length,
                          _("Operator or function requires a document path; operator or "
                            "function: size"));
          return NULL;
        }
      expected (p, _("an attribute name inside size()"));
      return NULL;
    }
  path = parse_path (p);
  if (path == NULL)
    return NULL;
  n_args = 1;
  while (p->tok.kind == DYNO_TOKEN_COMMA)
    {
      g_autoptr(DynoExpr) extra = NULL;

      if (!advance (p))
        return NULL;
      extra = parse_operand (p, _("an operand after \",\""));
      if (extra == NULL)
        return NULL;
      n_args++;
    }
  if (p->tok.kind != DYNO_TOKEN_RPAREN)
    {
      expected (p, _("\")\" to close size("));
      return NULL;
    }
  if (n_args != 1)
    {
      semantic_error (p, start, p->tok.offset + 1 - start,
                      _("Incorrect number of operands for operator or function; operator or "
                        "function: size, number of operands: %u"), n_args);
      return NULL;
    }
  if (!advance (p))
    return NULL;
  expr = dyno_expr_new_size (g_steal_pointer (&path));
  set_span (expr, start, p->prev_end);
  return expr;
}

/* An operand of a condition: a path, a value or size(path). */
static DynoExpr *
parse_operand (Parser     *p,
               const char *what)
{
  gsize start = p->tok.offset;

  if (p->failed)
    return NULL;
  if (tok_is_function_call (p))
    {
      DynoFunction func;

      if (strcmp (p->tok.text, "size") == 0)
        return parse_size (p);
      if (dyno_function_from_string (p->tok.text, &func))
        semantic_error (p, p->tok.offset, p->tok.length,
                        _("The function is not allowed to be used this way in an expression; "
                          "function: %s"), p->tok.text);
      else
        unknown_function (p);
      return NULL;
    }
  if (p->failed)
    return NULL;
  if (p->tok.kind == DYNO_TOKEN_LPAREN)
    {
      if (p->depth > MAX_TREE_DEPTH)
        {
          too_large (p, FALSE, p->tok.offset, p->tok.length);
          return NULL;
        }
      {
        DynoExpr *inner;

        p->depth++;
        inner = parse_paren_operand (p, what);
        p->depth--;
        return inner;
      }
    }
  if (tok_starts_value (p))
    return parse_value (p);
  if (tok_starts_path (p))
    return parse_path_operand (p, start);
  if (!is_inline (p) && (p->tok.kind == DYNO_TOKEN_NUMBER || p->tok.kind == DYNO_TOKEN_MINUS))
    {
      literal_in_dynamodb_syntax (p);
      return NULL;
    }
  expected (p, what);
  return NULL;
}

/* ---- conditions ------------------------------------------------------------------------- */

typedef struct {
  DynoExpr *expr;
  guint     depth;
} Node;

static Node parse_or (Parser *p, guint depth);

static gboolean
tok_compare_op (Parser        *p,
                DynoCompareOp *op)
{
  switch (p->tok.kind)
    {
    case DYNO_TOKEN_EQ: *op = DYNO_COMPARE_EQ; return TRUE;
    case DYNO_TOKEN_NE: *op = DYNO_COMPARE_NE; return TRUE;
    case DYNO_TOKEN_LT: *op = DYNO_COMPARE_LT; return TRUE;
    case DYNO_TOKEN_LE: *op = DYNO_COMPARE_LE; return TRUE;
    case DYNO_TOKEN_GT: *op = DYNO_COMPARE_GT; return TRUE;
    case DYNO_TOKEN_GE: *op = DYNO_COMPARE_GE; return TRUE;
    default: return FALSE;
    }
}

/* A condition function call: attribute_exists(…), begins_with(…), … */
static DynoExpr *
parse_function (Parser       *p,
                DynoFunction  func)
{
  g_autoptr(DynoExpr) expr = dyno_expr_new_function (func, NULL);
  gsize start = p->tok.offset;
  const char *fname = dyno_function_to_string (func);

  advance (p);  /* name */
  if (!advance (p))  /* ( */
    return NULL;
  if (p->tok.kind != DYNO_TOKEN_RPAREN)
    {
      for (;;)
        {
          g_autofree char *what = g_strdup_printf (_("an operand of %s()"), fname);
          DynoExpr *arg = parse_operand (p, what);

          if (arg == NULL)
            return NULL;
          g_ptr_array_add (expr->args, arg);
          if (p->tok.kind != DYNO_TOKEN_COMMA)
            break;
          if (!advance (p))
            return NULL;
        }
    }
  if (p->tok.kind != DYNO_TOKEN_RPAREN)
    {
      g_autofree char *what = g_strdup_printf (_("\",\" or \")\" in %s()"), fname);
      expected (p, what);
      return NULL;
    }
  if (expr->args->len != dyno_function_get_arity (func))
    {
      semantic_error (p, start, p->tok.offset + 1 - start,
                      _("Incorrect number of operands for operator or function; operator or "
                        "function: %s, number of operands: %u"), fname, expr->args->len);
      return NULL;
    }
  if (!advance (p))
    return NULL;
  set_span (expr, start, p->prev_end);
  return g_steal_pointer (&expr);
}

/* operand followed by a comparator, BETWEEN or IN; or a function */
static DynoExpr *
parse_predicate (Parser *p)
{
  g_autoptr(DynoExpr) left = NULL;
  gsize start = p->tok.offset;
  DynoCompareOp op;

  if (tok_is_function_call (p))
    {
      DynoFunction func;

      if (dyno_function_from_string (p->tok.text, &func))
        {
          g_autoptr(DynoExpr) call = parse_function (p, func);
          DynoCompareOp ignored;

          if (call == NULL)
            return NULL;
          if (tok_compare_op (p, &ignored) || tok_is_word (p, "BETWEEN") ||
              tok_is_word (p, "IN"))
            {
              semantic_error (p, call->offset, call->length,
                              _("The function is not allowed to be used this way in an "
                                "expression; function: %s"), dyno_function_to_string (func));
              return NULL;
            }
          return g_steal_pointer (&call);
        }
      if (strcmp (p->tok.text, "size") != 0)
        {
          unknown_function (p);
          return NULL;
        }
    }
  if (p->failed)
    return NULL;

  left = parse_operand (p, _("a condition (an attribute name, a value, a function or \"(\")"));
  if (left == NULL)
    return NULL;

  if (tok_compare_op (p, &op))
    {
      g_autofree char *what = g_strdup_printf (_("a value after \"%s\""),
                                               dyno_compare_op_to_string (op));
      DynoExpr *right;
      DynoExpr *expr;

      if (!advance (p))
        return NULL;
      right = parse_operand (p, what);
      if (right == NULL)
        return NULL;
      expr = dyno_expr_new_compare (op, g_steal_pointer (&left), right);
      set_span (expr, start, p->prev_end);
      return expr;
    }
  if (tok_is_word (p, "BETWEEN"))
    {
      g_autoptr(DynoExpr) low = NULL;
      DynoExpr *high;
      DynoExpr *expr;

      if (!advance (p))
        return NULL;
      low = parse_operand (p, _("the lower bound after BETWEEN"));
      if (low == NULL)
        return NULL;
      if (!tok_is_word (p, "AND"))
        {
          expected (p, _("AND after the lower bound of BETWEEN"));
          return NULL;
        }
      if (!advance (p))
        return NULL;
      high = parse_operand (p, _("the upper bound after BETWEEN … AND"));
      if (high == NULL)
        return NULL;
      expr = dyno_expr_new_between (g_steal_pointer (&left), g_steal_pointer (&low), high);
      set_span (expr, start, p->prev_end);
      return expr;
    }
  if (tok_is_word (p, "IN"))
    {
      g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_expr_free);
      DynoExpr *expr;

      if (!advance (p))
        return NULL;
      if (p->tok.kind != DYNO_TOKEN_LPAREN)
        {
          expected (p, _("\"(\" after IN"));
          return NULL;
        }
      if (!advance (p))
        return NULL;
      for (;;)
        {
          DynoExpr *item = parse_operand (p, _("a value in the IN list"));

          if (item == NULL)
            return NULL;
          g_ptr_array_add (list, item);
          if (p->tok.kind != DYNO_TOKEN_COMMA)
            break;
          if (!advance (p))
            return NULL;
        }
      if (p->tok.kind != DYNO_TOKEN_RPAREN)
        {
          expected (p, _("\",\" or \")\" in the IN list"));
          return NULL;
        }
      if (!advance (p))
        return NULL;
      expr = dyno_expr_new_in (g_steal_pointer (&left), g_steal_pointer (&list));
      set_span (expr, start, p->prev_end);
      return expr;
    }
  if (left->kind == DYNO_EXPR_SIZE)
    {
      semantic_error (p, left->offset, left->length,
                      _("The function is not allowed to be used this way in an expression; "
                        "function: size"));
      return NULL;
    }
  {
    g_autofree char *shown = g_strndup (p->lexer.text + left->offset, left->length);
    g_autofree char *what = g_strdup_printf (_("a comparison (=, <>, <, <=, >, >=), BETWEEN or "
                                               "IN after \"%s\""), shown);
    expected (p, what);
  }
  return NULL;
}

static Node
parse_not (Parser *p,
           guint   depth)
{
  Node result = { NULL, 0 };
  gsize start = p->tok.offset;

  if (depth > MAX_TREE_DEPTH)
    {
      too_large (p, FALSE, p->tok.offset, p->tok.length);
      return result;
    }
  if (tok_is_word (p, "NOT"))
    {
      Node inner;

      if (!advance (p))
        return result;
      inner = parse_not (p, depth + 1);
      if (inner.expr == NULL)
        return result;
      result.expr = dyno_expr_new_not (inner.expr);
      result.depth = inner.depth + 1;
      set_span (result.expr, start, p->prev_end);
      return result;
    }
  if (p->tok.kind == DYNO_TOKEN_LPAREN && !paren_starts_operand (p))
    {
      Node inner;

      if (!advance (p))
        return result;
      inner = parse_or (p, depth + 1);
      if (inner.expr == NULL)
        return result;
      if (p->tok.kind != DYNO_TOKEN_RPAREN)
        {
          g_autofree char *what = g_strdup_printf (_("\")\" to close the \"(\" at column %u"),
                                                   dyno_text_column (p->lexer.text, start));
          dyno_expr_free (inner.expr);
          expected (p, what);
          return result;
        }
      if (!is_inline (p) && inner.expr->kind == DYNO_EXPR_PAREN)
        {
          dyno_expr_free (inner.expr);
          semantic_error (p, start, p->tok.offset + 1 - start,
                          _("The expression has redundant parentheses;"));
          return result;
        }
      if (!advance (p))
        {
          dyno_expr_free (inner.expr);
          return result;
        }
      result.expr = dyno_expr_new_paren (inner.expr);
      result.depth = inner.depth + 1;
      set_span (result.expr, start, p->prev_end);
      return result;
    }
  result.expr = parse_predicate (p);
  result.depth = 2;
  return result;
}

/* AND/OR chains: read iteratively, then nested to the right as DynamoDB groups them. */
static Node
parse_chain (Parser       *p,
             guint         depth,
             DynoExprKind  kind)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_expr_free);
  Node result = { NULL, 0 };
  guint max_depth = 0;
  const char *word = kind == DYNO_EXPR_OR ? "OR" : "AND";

  for (;;)
    {
      Node item = kind == DYNO_EXPR_OR ? parse_chain (p, depth, DYNO_EXPR_AND)
                                       : parse_not (p, depth);

      if (item.expr == NULL)
        return result;
      g_ptr_array_add (items, item.expr);
      max_depth = MAX (max_depth, item.depth);
      if (depth + max_depth + items->len > MAX_TREE_DEPTH)
        {
          too_large (p, items->len > max_depth, p->tok.offset, p->tok.length);
          return result;
        }
      if (!tok_is_word (p, word))
        break;
      if (!advance (p))
        return result;
    }
  {
    DynoExpr *acc = g_ptr_array_steal_index (items, items->len - 1);

    while (items->len > 0)
      {
        DynoExpr *left = g_ptr_array_steal_index (items, items->len - 1);
        gsize start = left->offset;
        gsize end = acc->offset + acc->length;

        acc = kind == DYNO_EXPR_OR ? dyno_expr_new_or (left, acc) : dyno_expr_new_and (left, acc);
        set_span (acc, start, end);
      }
    result.expr = acc;
    result.depth = max_depth + 1;
  }
  return result;
}

static Node
parse_or (Parser *p,
          guint   depth)
{
  return parse_chain (p, depth, DYNO_EXPR_OR);
}

static void
empty_expression (Parser *p)
{
  semantic_error (p, 0, 0, _("The expression can not be empty;"));
}

DynoExpr *
dyno_expr_parse_condition (const char         *text,
                           DynoSyntax          syntax,
                           DynoExprRole        role,
                           GHashTable         *names,
                           GHashTable         *values,
                           GHashTable         *used,
                           DynoParseLocation  *loc,
                           GError            **error)
{
  Parser p;
  Node node = { NULL, 0 };

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (parser_init (&p, text, syntax, dyno_expr_role_to_field (role), names, values, used,
                   loc, error))
    {
      if (p.tok.kind == DYNO_TOKEN_EOF)
        empty_expression (&p);
      else
        node = parse_or (&p, 0);
      if (node.expr != NULL && p.tok.kind != DYNO_TOKEN_EOF)
        {
          if (p.tok.kind == DYNO_TOKEN_RPAREN)
            syntax_error (&p, p.tok.offset, 1, _("this \")\" closes no \"(\""));
          else
            expected (&p, _("AND, OR or the end of the expression"));
          g_clear_pointer (&node.expr, dyno_expr_free);
        }
    }
  parser_clear (&p);
  if (p.failed)
    g_clear_pointer (&node.expr, dyno_expr_free);
  return node.expr;
}

GPtrArray *
dyno_expr_parse_projection (const char         *text,
                            DynoSyntax          syntax,
                            GHashTable         *names,
                            GHashTable         *used,
                            DynoParseLocation  *loc,
                            GError            **error)
{
  g_autoptr(GPtrArray) paths = dyno_projection_new ();
  Parser p;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (parser_init (&p, text, syntax, "ProjectionExpression", names, NULL, used, loc, error))
    {
      if (p.tok.kind == DYNO_TOKEN_EOF)
        empty_expression (&p);
      while (!p.failed)
        {
          DynoPath *path;

          if (!tok_starts_path (&p) && p.tok.kind != DYNO_TOKEN_IDENT)
            {
              expected (&p, _("an attribute name"));
              break;
            }
          path = parse_path (&p);
          if (path == NULL)
            break;
          g_ptr_array_add (paths, path);
          if (p.tok.kind == DYNO_TOKEN_EOF)
            break;
          if (p.tok.kind != DYNO_TOKEN_COMMA)
            {
              expected (&p, _("\",\" or the end of the projection"));
              break;
            }
          advance (&p);
        }
    }
  parser_clear (&p);
  if (p.failed)
    return NULL;
  return g_steal_pointer (&paths);
}

/* ---- update expressions ----------------------------------------------------------------- */

static DynoExpr *parse_set_value (Parser *p, const char *what);

/* path | value | if_not_exists(path, value) | list_append(operand, operand) */
static DynoExpr *
parse_set_operand (Parser     *p,
                   const char *what)
{
  gsize start = p->tok.offset;

  if (tok_is_function_call (p))
    {
      gboolean is_ine = strcmp (p->tok.text, "if_not_exists") == 0;
      g_autoptr(DynoExpr) a = NULL;
      g_autoptr(DynoExpr) b = NULL;
      const char *fname;
      DynoExpr *expr;

      if (!is_ine && strcmp (p->tok.text, "list_append") != 0)
        {
          static const char *const condition_functions[] = {
            "attribute_exists", "attribute_not_exists", "attribute_type", "begins_with",
            "contains", "size",
          };

          /* A condition function is a known function, just not one an update can use. */
          for (guint i = 0; i < G_N_ELEMENTS (condition_functions); i++)
            if (strcmp (p->tok.text, condition_functions[i]) == 0)
              {
                semantic_error (p, p->tok.offset, p->tok.length,
                                _("The function is not allowed in an update expression; "
                                  "function: %s"), p->tok.text);
                return NULL;
              }
          unknown_function (p);
          return NULL;
        }
      fname = is_ine ? "if_not_exists" : "list_append";
      advance (p);
      if (!advance (p))
        return NULL;
      if (is_ine)
        {
          g_autoptr(DynoPath) path = NULL;

          if (!tok_starts_path (p))
            {
              if (tok_starts_value (p) || p->tok.kind == DYNO_TOKEN_IDENT)
                semantic_error (p, p->tok.offset, p->tok.length,
                                _("Operator or function requires a document path; operator or "
                                  "function: if_not_exists"));
              else
                expected (p, _("an attribute name in if_not_exists()"));
              return NULL;
            }
          {
            gsize pstart = p->tok.offset;

            path = parse_path (p);
            if (path == NULL)
              return NULL;
            a = dyno_expr_new_path (g_steal_pointer (&path));
            set_span (a, pstart, p->prev_end);
          }
        }
      else
        {
          a = parse_set_operand (p, _("an operand of list_append()"));
          if (a == NULL)
            return NULL;
        }
      if (p->tok.kind != DYNO_TOKEN_COMMA)
        {
          if (p->tok.kind == DYNO_TOKEN_RPAREN)
            semantic_error (p, start, p->tok.offset + 1 - start,
                            _("Incorrect number of operands for operator or function; operator "
                              "or function: %s, number of operands: 1"), fname);
          else
            {
              g_autofree char *w = g_strdup_printf (_("\",\" in %s()"), fname);
              expected (p, w);
            }
          return NULL;
        }
      if (!advance (p))
        return NULL;
      b = is_ine ? parse_set_value (p, _("a value in if_not_exists()"))
                 : parse_set_operand (p, _("an operand of list_append()"));
      if (b == NULL)
        return NULL;
      if (p->tok.kind != DYNO_TOKEN_RPAREN)
        {
          g_autofree char *w = g_strdup_printf (_("\")\" to close %s("), fname);
          if (p->tok.kind == DYNO_TOKEN_COMMA)
            {
              guint n = 2;

              while (p->tok.kind == DYNO_TOKEN_COMMA && !p->failed)
                {
                  g_autoptr(DynoExpr) extra = NULL;

                  advance (p);
                  extra = parse_set_operand (p, _("an operand"));
                  if (extra == NULL)
                    return NULL;
                  n++;
                }
              semantic_error (p, start, p->tok.offset + p->tok.length - start,
                              _("Incorrect number of operands for operator or function; "
                                "operator or function: %s, number of operands: %u"), fname, n);
              return NULL;
            }
          expected (p, w);
          return NULL;
        }
      if (!advance (p))
        return NULL;
      expr = dyno_expr_new_arith (is_ine ? DYNO_EXPR_IF_NOT_EXISTS : DYNO_EXPR_LIST_APPEND,
                                  g_steal_pointer (&a), g_steal_pointer (&b));
      set_span (expr, start, p->prev_end);
      return expr;
    }
  if (p->failed)
    return NULL;
  if (tok_starts_value (p))
    return parse_value (p);
  if (tok_starts_path (p))
    return parse_path_operand (p, start);
  if (!is_inline (p) && p->tok.kind == DYNO_TOKEN_NUMBER)
    {
      literal_in_dynamodb_syntax (p);
      return NULL;
    }
  expected (p, what);
  return NULL;
}

/* operand [ (+|-) operand ] */
static DynoExpr *
parse_set_value (Parser     *p,
                 const char *what)
{
  g_autoptr(DynoExpr) left = NULL;
  gsize start = p->tok.offset;

  left = parse_set_operand (p, what);
  if (left == NULL)
    return NULL;
  if (p->tok.kind == DYNO_TOKEN_PLUS || p->tok.kind == DYNO_TOKEN_MINUS)
    {
      DynoExprKind kind = p->tok.kind == DYNO_TOKEN_PLUS ? DYNO_EXPR_PLUS : DYNO_EXPR_MINUS;
      g_autofree char *w = g_strdup_printf (_("an operand after \"%s\""),
                                            kind == DYNO_EXPR_PLUS ? "+" : "-");
      DynoExpr *right;
      DynoExpr *expr;

      if (!advance (p))
        return NULL;
      right = parse_set_operand (p, w);
      if (right == NULL)
        return NULL;
      expr = dyno_expr_new_arith (kind, g_steal_pointer (&left), right);
      set_span (expr, start, p->prev_end);
      return expr;
    }
  return g_steal_pointer (&left);
}

static gboolean
tok_clause (Parser           *p,
            DynoUpdateAction *action)
{
  static const char *const words[] = { "SET", "REMOVE", "ADD", "DELETE" };

  if (p->tok.kind != DYNO_TOKEN_IDENT)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (g_ascii_strcasecmp (p->tok.text, words[i]) == 0)
      {
        *action = (DynoUpdateAction) i;
        return TRUE;
      }
  return FALSE;
}

DynoUpdate *
dyno_expr_parse_update (const char         *text,
                        DynoSyntax          syntax,
                        GHashTable         *names,
                        GHashTable         *values,
                        GHashTable         *used,
                        DynoParseLocation  *loc,
                        GError            **error)
{
  static const char *const clause_names[] = { "SET", "REMOVE", "ADD", "DELETE" };
  g_autoptr(DynoUpdate) update = dyno_update_new ();
  gboolean seen[4] = { FALSE, FALSE, FALSE, FALSE };
  Parser p;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (parser_init (&p, text, syntax, "UpdateExpression", names, values, used, loc, error))
    {
      DynoUpdateAction action;

      if (p.tok.kind == DYNO_TOKEN_EOF)
        empty_expression (&p);
      else if (!tok_clause (&p, &action))
        expected (&p, _("SET, REMOVE, ADD or DELETE"));

      while (!p.failed && p.tok.kind != DYNO_TOKEN_EOF)
        {
          const char *cname;

          if (!tok_clause (&p, &action))
            {
              expected (&p, _("\",\" or the next clause (SET, REMOVE, ADD, DELETE)"));
              break;
            }
          cname = clause_names[action];
          if (seen[action])
            {
              semantic_error (&p, p.tok.offset, p.tok.length,
                              _("The \"%s\" section can only be used once in an update "
                                "expression;"), cname);
              break;
            }
          seen[action] = TRUE;
          if (!advance (&p))
            break;
          for (;;)
            {
              g_autoptr(DynoPath) path = NULL;
              DynoExpr *operand = NULL;

              if (!tok_starts_path (&p))
                {
                  g_autofree char *w = g_strdup_printf (_("an attribute name after %s"), cname);

                  expected (&p, w);
                  break;
                }
              path = parse_path (&p);
              if (path == NULL)
                break;
              if (action == DYNO_UPDATE_SET)
                {
                  if (p.tok.kind != DYNO_TOKEN_EQ)
                    {
                      expected (&p, _("\"=\" after the attribute name in SET"));
                      break;
                    }
                  if (!advance (&p))
                    break;
                  operand = parse_set_value (&p, _("a value after \"=\""));
                  if (operand == NULL)
                    break;
                }
              else if (action == DYNO_UPDATE_ADD || action == DYNO_UPDATE_DELETE)
                {
                  if (!tok_starts_value (&p))
                    {
                      g_autofree char *w =
                        g_strdup_printf (_("a value after the attribute name in %s"), cname);
                      if (!is_inline (&p) && p.tok.kind == DYNO_TOKEN_NUMBER)
                        literal_in_dynamodb_syntax (&p);
                      else
                        expected (&p, w);
                      break;
                    }
                  operand = parse_value (&p);
                  if (operand == NULL)
                    break;
                }
              dyno_update_add_clause (update, action, g_steal_pointer (&path), operand);
              if (p.tok.kind != DYNO_TOKEN_COMMA)
                break;
              if (!advance (&p))
                break;
            }
        }
    }
  parser_clear (&p);
  if (p.failed)
    return NULL;
  return g_steal_pointer (&update);
}

DynoPath *
dyno_path_parse_inline (const char  *text,
                        GError     **error)
{
  g_autoptr(DynoPath) path = NULL;
  Parser p;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (parser_init (&p, text, DYNO_SYNTAX_INLINE, "ProjectionExpression", NULL, NULL, NULL,
                   NULL, error))
    {
      if (p.tok.kind == DYNO_TOKEN_EOF)
        expected (&p, _("an attribute name"));
      else
        path = parse_path (&p);
      if (path != NULL && p.tok.kind != DYNO_TOKEN_EOF)
        {
          expected (&p, _("\".\", \"[\" or the end of the path"));
          g_clear_pointer (&path, dyno_path_free);
        }
    }
  parser_clear (&p);
  if (p.failed)
    return NULL;
  return g_steal_pointer (&path);
}
