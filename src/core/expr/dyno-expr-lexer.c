/* dyno-expr-lexer.c: tokens of DynamoDB's expression syntax and of the inline syntax
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-expr.h"
#include "dyno-expr-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

guint
dyno_text_column (const char *text,
                  gsize       offset)
{
  guint column = 1;
  gsize i = 0;

  /* Count characters, not bytes: continuation bytes (10xxxxxx) do not start one. */
  while (i < offset && text[i] != '\0')
    {
      if (((guchar) text[i] & 0xC0) != 0x80)
        column++;
      i++;
    }
  /* The first byte counted above is the character at column 1. */
  return column;
}

guint
dyno_expr_offset_to_column (const char *text,
                            gsize       offset)
{
  g_return_val_if_fail (text != NULL, 0);
  return dyno_text_column (text, offset);
}

void
dyno_set_location (DynoParseLocation *loc,
                   const char        *text,
                   gsize              offset,
                   gsize              length)
{
  if (loc == NULL)
    return;
  loc->offset = offset;
  loc->length = length;
  loc->column = dyno_text_column (text, offset);
}

void
dyno_lexer_init (DynoLexer  *lexer,
                 const char *text,
                 DynoSyntax  syntax)
{
  lexer->text = text;
  lexer->len = strlen (text);
  lexer->pos = 0;
  lexer->syntax = syntax;
}

void
dyno_token_clear (DynoToken *token)
{
  g_clear_pointer (&token->text, g_free);
  token->text_len = 0;
}

char *
dyno_token_describe (const DynoLexer *lexer,
                     const DynoToken *token)
{
  g_autofree char *shown = NULL;
  const char *start;
  gsize len;

  if (token->kind == DYNO_TOKEN_EOF)
    return g_strdup (_("end of input"));
  start = lexer->text + token->offset;
  len = token->length;
  /* Long tokens are cut at a character boundary. */
  if (g_utf8_strlen (start, len) > 24)
    {
      const char *end = g_utf8_offset_to_pointer (start, 24);

      shown = g_strdup_printf ("%.*s…", (int) (end - start), start);
    }
  else
    shown = g_strndup (start, len);
  return g_strdup_printf ("\"%s\"", shown);
}

static gboolean
lex_error (DynoLexer          *lexer,
           gsize               offset,
           gsize               length,
           DynoParseLocation  *loc,
           GError            **error,
           const char         *message)
{
  guint column = dyno_text_column (lexer->text, offset);

  dyno_set_location (loc, lexer->text, offset, length);
  /* Translators: the column, then what is wrong. */
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_SYNTAX, _("Syntax error at column %u: %s"),
               column, message);
  return FALSE;
}

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static gsize
utf8_char_length (const char *p)
{
  const char *next = g_utf8_find_next_char (p, NULL);

  return next != NULL && next > p ? (gsize) (next - p) : 1;
}

/* Fills @token: @kind, spanning [@start, @end) of the text, with @text (taken) as its text;
 * the lexer goes on after it. */
static gboolean
end_token (DynoLexer     *lexer,
           DynoToken     *token,
           DynoTokenKind  kind,
           gsize          start,
           gsize          end,
           GString       *text)
{
  token->kind = kind;
  token->offset = start;
  token->length = end - start;
  token->text_len = text->len;
  token->text = g_string_free (text, FALSE);
  lexer->pos = end;
  return TRUE;
}

/* A "JSON string": the usual escapes, \uXXXX with surrogate pairs. */
static gboolean
lex_string (DynoLexer          *lexer,
            DynoToken          *token,
            DynoParseLocation  *loc,
            GError            **error)
{
  const char *text = lexer->text;
  gsize start = lexer->pos;
  gsize i = start + 1;
  GString *out = g_string_new (NULL);

  for (;;)
    {
      char c = text[i];

      if (i >= lexer->len)
        {
          g_string_free (out, TRUE);
          return lex_error (lexer, start, i - start, loc, error,
                            _("the string that starts here is not closed with \""));
        }
      if (c == '"')
        {
          i++;
          break;
        }
      if ((guchar) c < 0x20)
        {
          g_string_free (out, TRUE);
          return lex_error (lexer, i, 1, loc, error,
                            _("a control character in a string must be written as an escape "
                              "such as \\n or \\u0009"));
        }
      if (c != '\\')
        {
          g_string_append_c (out, c);
          i++;
          continue;
        }
      /* escape */
      c = text[i + 1];
      switch (c)
        {
        case '"': g_string_append_c (out, '"'); i += 2; break;
        case '\\': g_string_append_c (out, '\\'); i += 2; break;
        case '/': g_string_append_c (out, '/'); i += 2; break;
        case 'b': g_string_append_c (out, '\b'); i += 2; break;
        case 'f': g_string_append_c (out, '\f'); i += 2; break;
        case 'n': g_string_append_c (out, '\n'); i += 2; break;
        case 'r': g_string_append_c (out, '\r'); i += 2; break;
        case 't': g_string_append_c (out, '\t'); i += 2; break;
        case 'u':
          {
            gunichar ch = 0;
            gsize esc = i;

            for (int k = 0; k < 4; k++)
              {
                int d = g_ascii_xdigit_value (text[i + 2 + k]);

                if (d < 0)
                  {
                    g_string_free (out, TRUE);
                    return lex_error (lexer, esc, 2, loc, error,
                                      _("\\u must be followed by four hexadecimal digits"));
                  }
                ch = ch * 16 + (gunichar) d;
              }
            i += 6;
            if (ch >= 0xD800 && ch <= 0xDBFF)
              {
                gunichar low = 0;
                gboolean ok = text[i] == '\\' && text[i + 1] == 'u';

                for (int k = 0; ok && k < 4; k++)
                  {
                    int d = g_ascii_xdigit_value (text[i + 2 + k]);

                    if (d < 0)
                      ok = FALSE;
                    else
                      low = low * 16 + (gunichar) d;
                  }
                if (!ok || low < 0xDC00 || low > 0xDFFF)
                  {
                    g_string_free (out, TRUE);
                    return lex_error (lexer, esc, 6, loc, error,
                                      _("a \\u escape of a high surrogate must be followed by "
                                        "one of a low surrogate"));
                  }
                ch = 0x10000 + ((ch - 0xD800) << 10) + (low - 0xDC00);
                i += 6;
              }
            else if (ch >= 0xDC00 && ch <= 0xDFFF)
              {
                g_string_free (out, TRUE);
                return lex_error (lexer, esc, 6, loc, error,
                                  _("a \\u escape of a low surrogate must follow one of a high "
                                    "surrogate"));
              }
            g_string_append_unichar (out, ch);
          }
          break;
        default:
          g_string_free (out, TRUE);
          return lex_error (lexer, i, i + 1 < lexer->len ? 2 : 1, loc, error,
                            _("unknown escape in a string (use \\\", \\\\, \\/, \\b, \\f, \\n, "
                              "\\r, \\t or \\uXXXX)"));
        }
    }
  return end_token (lexer, token, DYNO_TOKEN_STRING, start, i, out);
}

static gboolean
lex_quoted_name (DynoLexer          *lexer,
                 DynoToken          *token,
                 DynoParseLocation  *loc,
                 GError            **error)
{
  const char *text = lexer->text;
  gsize start = lexer->pos;
  gsize i = start + 1;
  GString *out = g_string_new (NULL);

  for (;;)
    {
      if (i >= lexer->len)
        {
          g_string_free (out, TRUE);
          return lex_error (lexer, start, i - start, loc, error,
                            _("the name that starts here is not closed with `"));
        }
      if (text[i] == '`')
        {
          /* A backtick inside a quoted name is written twice. */
          if (text[i + 1] == '`')
            {
              g_string_append_c (out, '`');
              i += 2;
              continue;
            }
          i++;
          break;
        }
      g_string_append_c (out, text[i]);
      i++;
    }
  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return lex_error (lexer, start, i - start, loc, error,
                        _("an attribute name cannot be empty"));
    }
  return end_token (lexer, token, DYNO_TOKEN_QUOTED_NAME, start, i, out);
}

static gboolean
lex_number (DynoLexer          *lexer,
            DynoToken          *token,
            DynoParseLocation  *loc,
            GError            **error)
{
  const char *text = lexer->text;
  gsize start = lexer->pos;
  gsize i = start;

  while (g_ascii_isdigit (text[i]))
    i++;
  if (lexer->syntax == DYNO_SYNTAX_INLINE)
    {
      if (text[i] == '.' && g_ascii_isdigit (text[i + 1]))
        {
          i++;
          while (g_ascii_isdigit (text[i]))
            i++;
        }
      if ((text[i] == 'e' || text[i] == 'E') &&
          (g_ascii_isdigit (text[i + 1]) ||
           ((text[i + 1] == '+' || text[i + 1] == '-') && g_ascii_isdigit (text[i + 2]))))
        {
          i += 2;
          while (g_ascii_isdigit (text[i]))
            i++;
        }
    }
  if (is_ident_char (text[i]))
    {
      gsize end = i;
      g_autofree char *message = NULL;

      while (is_ident_char (text[end]))
        end++;
      if (lexer->syntax == DYNO_SYNTAX_INLINE)
        message = g_strdup_printf (_("\"%.*s\" is not a number; write a name that starts with "
                                     "a digit in backticks: `%.*s`"),
                                   (int) (end - start), text + start,
                                   (int) (end - start), text + start);
      else
        message = g_strdup_printf (_("\"%.*s\" is not a valid name; a name that starts with a "
                                     "digit needs an ExpressionAttributeNames placeholder "
                                     "such as #n"),
                                   (int) (end - start), text + start);
      return lex_error (lexer, start, end - start, loc, error, message);
    }
  return end_token (lexer, token, DYNO_TOKEN_NUMBER, start, i,
                    g_string_new_len (text + start, i - start));
}

/* :{…} in the inline syntax: a DynamoDB JSON value, up to its matching brace. */
static gboolean
lex_ddb_json (DynoLexer          *lexer,
              DynoToken          *token,
              DynoParseLocation  *loc,
              GError            **error)
{
  const char *text = lexer->text;
  gsize start = lexer->pos;
  gsize i = start + 1;
  guint depth = 0;
  gboolean in_string = FALSE;

  for (; i < lexer->len; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (c == '\\' && i + 1 < lexer->len)
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '{' || c == '[')
        depth++;
      else if (c == '}' || c == ']')
        {
          if (depth == 0)
            break;
          depth--;
          if (depth == 0)
            {
              i++;
              return end_token (lexer, token, DYNO_TOKEN_DDB_JSON, start, i,
                                g_string_new_len (text + start + 1, i - start - 1));
            }
        }
    }
  return lex_error (lexer, start, i - start, loc, error,
                    _("the DynamoDB JSON value that starts here is not closed with }"));
}

gboolean
dyno_lexer_next (DynoLexer          *lexer,
                 DynoToken          *token,
                 DynoParseLocation  *loc,
                 GError            **error)
{
  const char *text = lexer->text;
  gsize start;
  char c;

  dyno_token_clear (token);
  while (lexer->pos < lexer->len &&
         (text[lexer->pos] == ' ' || text[lexer->pos] == '\t' || text[lexer->pos] == '\n' ||
          text[lexer->pos] == '\r'))
    lexer->pos++;

  start = lexer->pos;
  token->offset = start;
  token->length = 1;
  if (start >= lexer->len)
    {
      token->kind = DYNO_TOKEN_EOF;
      token->length = 0;
      return TRUE;
    }

  c = text[start];
  switch (c)
    {
    case '(': token->kind = DYNO_TOKEN_LPAREN; lexer->pos++; return TRUE;
    case ')': token->kind = DYNO_TOKEN_RPAREN; lexer->pos++; return TRUE;
    case '[': token->kind = DYNO_TOKEN_LBRACKET; lexer->pos++; return TRUE;
    case ']': token->kind = DYNO_TOKEN_RBRACKET; lexer->pos++; return TRUE;
    case ',': token->kind = DYNO_TOKEN_COMMA; lexer->pos++; return TRUE;
    case '.': token->kind = DYNO_TOKEN_DOT; lexer->pos++; return TRUE;
    case '+': token->kind = DYNO_TOKEN_PLUS; lexer->pos++; return TRUE;
    case '-': token->kind = DYNO_TOKEN_MINUS; lexer->pos++; return TRUE;
    case '=': token->kind = DYNO_TOKEN_EQ; lexer->pos++; return TRUE;
    case '<':
      if (text[start + 1] == '>')
        token->kind = DYNO_TOKEN_NE;
      else if (text[start + 1] == '=')
        token->kind = DYNO_TOKEN_LE;
      else
        token->kind = DYNO_TOKEN_LT;
      token->length = token->kind == DYNO_TOKEN_LT ? 1 : 2;
      lexer->pos += token->length;
      return TRUE;
    case '>':
      if (text[start + 1] == '=')
        token->kind = DYNO_TOKEN_GE;
      else
        token->kind = DYNO_TOKEN_GT;
      token->length = token->kind == DYNO_TOKEN_GT ? 1 : 2;
      lexer->pos += token->length;
      return TRUE;
    default:
      break;
    }

  if (g_ascii_isalpha (c) || c == '_')
    {
      gsize i = start + 1;

      while (is_ident_char (text[i]))
        i++;
      token->kind = DYNO_TOKEN_IDENT;
      token->length = i - start;
      token->text = g_strndup (text + start, i - start);
      token->text_len = i - start;
      lexer->pos = i;
      return TRUE;
    }

  if (c == '#' || c == ':')
    {
      gsize i = start + 1;

      if (c == ':' && lexer->syntax == DYNO_SYNTAX_INLINE && text[i] == '{')
        return lex_ddb_json (lexer, token, loc, error);
      if (c == '#' && lexer->syntax == DYNO_SYNTAX_INLINE)
        return lex_error (lexer, start, 1, loc, error,
                          _("#name placeholders are not used in the inline syntax; write the "
                            "name itself, in backticks if needed"));
      while (is_ident_char (text[i]))
        i++;
      if (i == start + 1)
        return lex_error (lexer, start, 1, loc, error,
                          c == '#' ? _("\"#\" must be followed by a placeholder name such as #n")
                                   : _("\":\" must be followed by a placeholder name such as :v"));
      token->kind = c == '#' ? DYNO_TOKEN_NAME_REF : DYNO_TOKEN_VALUE_REF;
      token->length = i - start;
      token->text = g_strndup (text + start, i - start);
      token->text_len = i - start;
      lexer->pos = i;
      return TRUE;
    }

  if (g_ascii_isdigit (c))
    return lex_number (lexer, token, loc, error);

  if (lexer->syntax == DYNO_SYNTAX_INLINE)
    {
      if (c == '"')
        return lex_string (lexer, token, loc, error);
      if (c == '`')
        return lex_quoted_name (lexer, token, loc, error);
    }
  else if (c == '"' || c == '\'' || c == '`')
    {
      return lex_error (lexer, start, 1, loc, error,
                        _("quoted literals are not part of DynamoDB's syntax; put values in "
                          "ExpressionAttributeValues (:v) and awkward names in "
                          "ExpressionAttributeNames (#n)"));
    }

  {
    gsize clen = utf8_char_length (text + start);
    g_autofree char *message = NULL;

    if (!g_utf8_validate (text + start, clen, NULL))
      message = g_strdup (_("the text is not valid UTF-8"));
    else if (lexer->syntax == DYNO_SYNTAX_INLINE && ((guchar) c >= 0x80))
      message = g_strdup_printf (_("unexpected character \"%.*s\"; write names with such "
                                   "characters in backticks"), (int) clen, text + start);
    else
      message = g_strdup_printf (_("unexpected character \"%.*s\""), (int) clen, text + start);
    return lex_error (lexer, start, clen, loc, error, message);
  }
}
