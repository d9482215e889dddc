/* dyno-codegen-literals.c: literals in each target's spelling, and the names the targets share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-private.h"

#include "dyno-json.h"

#include <stdlib.h>
#include <string.h>

/* "…" with \" \\ \n \r \t and other control characters as \u00XX (UTF-8 passes through). */
static void
append_js (GString    *out,
           const char *text,
           const char *end)
{
  g_string_append_c (out, '"');
  for (const char *p = text; p < end; p++)
    {
      guchar c = (guchar) *p;

      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        default:
          if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

static void
append_python (GString    *out,
               const char *text,
               const char *end)
{
  /* Double quotes as PEP 8 tools write them; single quotes when that saves escaping. */
  char quote = '"';

  if (memchr (text, '"', end - text) != NULL && memchr (text, '\'', end - text) == NULL)
    quote = '\'';

  g_string_append_c (out, quote);
  for (const char *p = text; p < end; p++)
    {
      guchar c = (guchar) *p;

      if (c == (guchar) quote || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
        }
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_c (out, (char) c);
    }
  g_string_append_c (out, quote);
}

static void
append_shell (GString    *out,
              const char *text,
              const char *end)
{
  /* Inside single quotes nothing is special but the quote itself, which has to leave the
   * quotes: 'it'\''s'.  (A NUL cannot be in a shell word at all; strings reach the shell
   * inside JSON, where it is \u0000.) */
  g_string_append_c (out, '\'');
  for (const char *p = text; p < end; p++)
    {
      if (*p == '\'')
        g_string_append (out, "'\\''");
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '\'');
}

void
dyno_codegen_append_quoted_len (GString        *out,
                                const char     *text,
                                gsize           len,
                                DynoQuoteStyle  style)
{
  const char *end;

  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL || len == 0);

  if (text == NULL)
    text = "";
  end = text + len;
  switch (style)
    {
    case DYNO_QUOTE_JS:
      append_js (out, text, end);
      break;
    case DYNO_QUOTE_PYTHON:
      append_python (out, text, end);
      break;
    case DYNO_QUOTE_SHELL:
      append_shell (out, text, end);
      break;
    default:
      g_return_if_reached ();
    }
}

void
dyno_codegen_append_quoted (GString        *out,
                            const char     *text,
                            DynoQuoteStyle  style)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL);

  /* Names read from request JSON hold a NUL as C0 80 (see dyno-json.h). */
  if (strstr (text, "\xC0\x80") != NULL)
    {
      gsize len;
      g_autofree char *bytes = dyno_json_held_string_decode (text, &len);

      dyno_codegen_append_quoted_len (out, bytes, len, style);
      return;
    }
  dyno_codegen_append_quoted_len (out, text, strlen (text), style);
}

const char *
dyno_codegen_operation_snake (DynoOperation op)
{
  static const char * const names[] = {
    "query", "scan", "get_item", "put_item", "update_item", "delete_item",
  };

  g_return_val_if_fail ((guint) op < G_N_ELEMENTS (names), NULL);
  return names[op];
}

const char *
dyno_codegen_operation_kebab (DynoOperation op)
{
  static const char * const names[] = {
    "query", "scan", "get-item", "put-item", "update-item", "delete-item",
  };

  g_return_val_if_fail ((guint) op < G_N_ELEMENTS (names), NULL);
  return names[op];
}

const char *
dyno_codegen_operation_pascal (DynoOperation op)
{
  static const char * const names[] = {
    "Query", "Scan", "GetItem", "PutItem", "UpdateItem", "DeleteItem",
  };

  g_return_val_if_fail ((guint) op < G_N_ELEMENTS (names), NULL);
  return names[op];
}

char *
dyno_codegen_operation_camel (DynoOperation op)
{
  char *name = g_strdup (dyno_codegen_operation_pascal (op));

  name[0] = g_ascii_tolower (name[0]);
  return name;
}

const char *
dyno_codegen_result_member (DynoOperation op)
{
  return op == DYNO_OP_GET_ITEM ? "Item" : "Attributes";
}

gboolean
dyno_codegen_operation_is_paged (DynoOperation op)
{
  return op == DYNO_OP_QUERY || op == DYNO_OP_SCAN;
}

char *
dyno_codegen_describe (const DynoRequest *request)
{
  GString *out;

  g_return_val_if_fail (request != NULL, NULL);

  out = g_string_new (dyno_codegen_operation_pascal (request->operation));
  g_string_append_printf (out, " on table %s", request->table_name ? request->table_name : "?");
  if (dyno_codegen_operation_is_paged (request->operation) && request->index_name != NULL)
    g_string_append_printf (out, " (index %s)", request->index_name);
  return g_string_free (out, FALSE);
}

void
dyno_codegen_append_indent (GString *out,
                            guint    spaces)
{
  for (guint i = 0; i < spaces; i++)
    g_string_append_c (out, ' ');
}

gboolean
dyno_codegen_number_fits_double (const char *canonical)
{
  const char *p = canonical;
  guint significant = 0;
  guint integer_digits = 0;
  guint leading_fraction_zeros = 0;
  gboolean in_fraction = FALSE;
  gboolean seen_nonzero = FALSE;

  g_return_val_if_fail (canonical != NULL, FALSE);

  /* A canonical number is [-]digits[.digits] without exponent.  Up to 15 significant digits
   * always survive a double (DBL_DIG), JS prints them back positionally between 1e-7 and
   * 1e21, and integers must stay below 2^53 for the SDK's marshaller: keep the integer part
   * under 16 digits and the magnitude at least 1e-6. */
  if (*p == '-')
    p++;
  if (*p == '\0')
    return FALSE;
  for (; *p; p++)
    {
      if (*p == '.')
        {
          if (in_fraction)
            return FALSE;
          in_fraction = TRUE;
          continue;
        }
      if (!g_ascii_isdigit (*p))
        return FALSE;
      if (*p != '0')
        seen_nonzero = TRUE;
      if (seen_nonzero)
        significant++;
      else if (in_fraction)
        leading_fraction_zeros++;
      if (!in_fraction && seen_nonzero)
        integer_digits++;
    }

  if (!seen_nonzero)
    return TRUE; /* zero */
  if (significant > 15 || integer_digits > 15)
    return FALSE;
  if (integer_digits == 0 && leading_fraction_zeros > 5)
    return FALSE;
  return TRUE;
}

gboolean
dyno_codegen_is_js_identifier (const char *text)
{
  g_return_val_if_fail (text != NULL, FALSE);

  if (!(g_ascii_isalpha (text[0]) || text[0] == '_' || text[0] == '$'))
    return FALSE;
  for (const char *p = text + 1; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == '$'))
      return FALSE;
  return TRUE;
}

char **
dyno_codegen_expression_placeholders (const char *expression,
                                      char        prefix)
{
  GPtrArray *found = g_ptr_array_new ();

  for (const char *p = expression; p != NULL && *p; p++)
    {
      const char *start;

      if (*p != prefix)
        continue;
      start = p++;
      while (*p && (g_ascii_isalnum (*p) || *p == '_'))
        p++;
      if (p > start + 1)
        {
          g_autofree char *name = g_strndup (start, p - start);
          gboolean seen = FALSE;

          for (guint i = 0; i < found->len && !seen; i++)
            seen = strcmp (found->pdata[i], name) == 0;
          if (!seen)
            g_ptr_array_add (found, g_steal_pointer (&name));
        }
      p--;
    }
  g_ptr_array_add (found, NULL);
  return (char **) g_ptr_array_free (found, FALSE);
}

/* ---- the C family, PHP and Ruby ------------------------------------------------------------- */

/* Characters that are legal in a string literal but that no one should paste unseen: C0 and
 * C1 controls, DEL, line/paragraph separators, the BOM and the bidirectional overrides and
 * isolates (the "Trojan source" characters).  Every emitter writes these as escapes. */
static gboolean
char_needs_escape (gunichar c)
{
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 || c == 0xfeff ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e ||
         c == 0x200f || c == 0x061c;
}

/* Appends @c as one \uXXXX escape, or two (a UTF-16 surrogate pair) above the BMP. */
static void
append_utf16_escape (GString  *out,
                              gunichar  c)
{
  if (c < 0x10000)
    {
      g_string_append_printf (out, "\\u%04x", c);
    }
  else
    {
      c -= 0x10000;
      g_string_append_printf (out, "\\u%04x\\u%04x", 0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
    }
}

/* A "…" literal for the C family.  Newline, tab, CR, quote and backslash get their short
 * escapes everywhere; the rest of char_needs_escape() as each language allows. */

void
dyno_codegen_append_c_string_len (GString         *out,
                                  const char      *text,
                                  gsize            len,
                                  DynoCStringLang  lang)
{
  const char *end = text + len;

  g_string_append_c (out, '"');
  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          continue;
        case '\\':
          g_string_append (out, "\\\\");
          continue;
        case '\n':
          g_string_append (out, "\\n");
          continue;
        case '\t':
          g_string_append (out, "\\t");
          continue;
        case '\r':
          g_string_append (out, "\\r");
          continue;
        case '$':
          /* Kotlin interpolates "$name" and "${…}" */
          g_string_append (out, lang == DYNO_C_STRING_KOTLIN ? "\\$" : "$");
          continue;
        case '?':
          /* C++ before 17 reads ??= and friends as trigraphs (before escapes): no two
           * question marks may touch */
          g_string_append (out, lang == DYNO_C_STRING_CPP && p > text && p[-1] == '?'
                                ? "\\?" : "?");
          continue;
        default:
          break;
        }

      if (lang == DYNO_C_STRING_JAVA && c >= 0x80)
        {
          /* javac reads sources in the platform encoding before JDK 18: \u escapes are
           * the only spelling every build reads the same way. */
          append_utf16_escape (out, c);
          continue;
        }
      if (lang == DYNO_C_STRING_CPP && c >= 0x80)
        {
          /* Octal escapes of the UTF-8 bytes: exact whatever the compiler's source and
           * execution character sets are (hex escapes would swallow following digits). */
          for (const char *b = p; b < g_utf8_next_char (p); b++)
            g_string_append_printf (out, "\\%03o", (guint8) *b);
          continue;
        }
      if (!char_needs_escape (c))
        {
          g_string_append_len (out, p, g_utf8_next_char (p) - p);
          continue;
        }
      switch (lang)
        {
        case DYNO_C_STRING_GO:
          if (c < 0x80)
            g_string_append_printf (out, "\\x%02x", c);
          else
            g_string_append_printf (out, "\\u%04x", c);
          break;
        case DYNO_C_STRING_JAVA:
          /* Java translates \uXXXX before lexing, so \u000a would end the literal */
          g_string_append_printf (out, "\\%03o", c);
          break;
        case DYNO_C_STRING_CSHARP:
        case DYNO_C_STRING_KOTLIN:
          append_utf16_escape (out, c);
          break;
        case DYNO_C_STRING_RUST:
          g_string_append_printf (out, "\\u{%x}", c);
          break;
        case DYNO_C_STRING_CPP:
          g_string_append_printf (out, "\\%03o", c);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  g_string_append_c (out, '"');
}

/* A PHP or Ruby literal: single-quoted when nothing needs an escape sequence (only \\ and \'
 * are special there, nothing is interpolated), else double-quoted with `$` (PHP) or `#`
 * (Ruby) escaped so nothing is interpolated. */
void
dyno_codegen_append_script_string (GString    *out,
                                   const char *text,
                                   gsize       len,
                                   gboolean    ruby)
{
  const char *end = text + len;
  gboolean plain = TRUE;

  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    if (char_needs_escape (g_utf8_get_char (p)))
      {
        plain = FALSE;
        break;
      }

  if (plain)
    {
      g_string_append_c (out, '\'');
      for (const char *p = text; p < end; p++)
        {
          if (*p == '\'' || *p == '\\')
            g_string_append_c (out, '\\');
          g_string_append_c (out, *p);
        }
      g_string_append_c (out, '\'');
      return;
    }

  g_string_append_c (out, '"');
  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '"' || c == '\\' || (ruby && c == '#') || (!ruby && c == '$'))
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
        }
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (char_needs_escape (c))
        g_string_append_printf (out, "\\u{%x}", c);  /* both languages spell it so */
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  g_string_append_c (out, '"');
}

/* Printable ASCII stays as is, every other byte as \xHH: a Go/Rust/Ruby byte-string body. */
void
dyno_codegen_append_byte_escapes (GString      *out,
                                  const guint8 *data,
                                  gsize         len,
                                  gboolean      escape_hash)
{
  for (gsize i = 0; i < len; i++)
    {
      guint8 b = data[i];

      if (b == '"' || b == '\\' || (escape_hash && b == '#'))
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) b);
        }
      else if (b >= 0x20 && b < 0x7f)
        g_string_append_c (out, (char) b);
      else
        g_string_append_printf (out, "\\x%02x", b);
    }
}

void
dyno_codegen_append_base64 (GString      *out,
                            const guint8 *data,
                            gsize         len)
{
  g_autofree char *b64 = g_base64_encode (data, len);

  g_string_append (out, b64);
}

/* "ALL_PROJECTED_ATTRIBUTES" -> "AllProjectedAttributes" (Go, Rust, Kotlin enum members). */
void
dyno_codegen_append_pascal (GString    *out,
                            const char *wire)
{
  gboolean upper = TRUE;

  for (const char *p = wire; *p != '\0'; p++)
    {
      if (*p == '_')
        {
          upper = TRUE;
          continue;
        }
      g_string_append_c (out, upper ? g_ascii_toupper (*p) : g_ascii_tolower (*p));
      upper = FALSE;
    }
}

/* "KeyConditionExpression" -> "keyConditionExpression" (Java builders, Kotlin DSL). */
void
dyno_codegen_append_camel (GString    *out,
                           const char *api_name)
{
  g_string_append_c (out, g_ascii_tolower (api_name[0]));
  g_string_append (out, api_name + 1);
}

/* "KeyConditionExpression" -> "key_condition_expression" (Rust, Ruby), "key-condition-expression"
 * (the CLI). */
void
dyno_codegen_append_snake (GString    *out,
                           const char *api_name,
                           char        separator)
{
  for (const char *p = api_name; *p != '\0'; p++)
    {
      if (g_ascii_isupper (*p) && p != api_name)
        g_string_append_c (out, separator);
      g_string_append_c (out, g_ascii_tolower (*p));
    }
}
