/* dyno-json.c: DynamoDB JSON and plain JSON, in and out, with a hand-written scanner
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-json.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

#include "dyno-error.h"
#include "dyno-json-private.h"
#include "dyno-number.h"
#include "dyno-number-private.h"
#include "dyno-value-private.h"

/* Scanner */

void
_dyno_json_scanner_init (DynoJsonScanner *sc,
                         const char      *json,
                         gsize            len)
{
  memset (sc, 0, sizeof *sc);
  sc->start = json;
  sc->p = json;
  sc->end = json + len;
  sc->scratch = g_string_sized_new (64);
  sc->bin = g_string_sized_new (64);
  sc->positions = TRUE;
}

void
_dyno_json_scanner_clear (DynoJsonScanner *sc)
{
  g_string_free (sc->scratch, TRUE);
  g_string_free (sc->bin, TRUE);
  g_free (sc->path);
  g_clear_error (&sc->error);
}

static void
location (DynoJsonScanner *sc,
          const char      *at,
          guint           *line,
          guint           *column)
{
  *line = 1;
  *column = 1;

  if (at > sc->end)
    at = sc->end;

  /* Columns count characters, which is what a person sees. */
  for (const char *q = sc->start; q < at; q++)
    {
      if (*q == '\n')
        {
          (*line)++;
          *column = 1;
        }
      else if (((guchar) *q & 0xC0) != 0x80)
        (*column)++;
    }
}

static char *
format_path (DynoJsonScanner *sc)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < sc->path_len; i++)
    {
      const DynoJsonPathSeg *seg = &sc->path[i];

      if (seg->name != NULL)
        {
          g_autofree char *name = g_utf8_make_valid (seg->name, MIN (seg->len, 200));

          if (s->len > 0)
            g_string_append_c (s, '.');
          g_string_append (s, name);
          if (seg->len > 200)
            g_string_append (s, "\u2026");
        }
      else
        g_string_append_printf (s, "[%" G_GSIZE_FORMAT "]", seg->index);
    }

  return g_string_free (s, FALSE);
}

gboolean
_dyno_json_fail_syntax (DynoJsonScanner *sc,
                        const char      *format,
                        ...)
{
  va_list args;
  g_autofree char *what = NULL;
  g_autofree char *path = NULL;
  g_autofree char *msg = NULL;

  if (sc->error != NULL)
    return FALSE;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  path = format_path (sc);
  /* Whole sentences, so that translations can order their parts. */
  if (sc->positions)
    {
      guint line, column;

      location (sc, sc->p, &line, &column);
      if (path[0] != '\0')
        /* Translators: the line, the column, what is wrong, then the attribute's path. */
        msg = g_strdup_printf (_("Invalid JSON at line %u, column %u: %s (in attribute %s)"),
                               line, column, what, path);
      else
        /* Translators: the line, the column, then what is wrong. */
        msg = g_strdup_printf (_("Invalid JSON at line %u, column %u: %s"), line, column, what);
    }
  else if (path[0] != '\0')
    /* Translators: what is wrong, then the attribute's path. */
    msg = g_strdup_printf (_("Invalid JSON: %s (in attribute %s)"), what, path);
  else
    msg = g_strdup_printf (_("Invalid JSON: %s"), what);

  sc->error = g_error_new_literal (DYNO_ERROR, DYNO_ERROR_JSON, msg);
  if (sc->positions)
    {
      guint line, column;

      location (sc, sc->p, &line, &column);
      dyno_error_set_location (sc->error, line, column);
    }

  return FALSE;
}

gboolean
_dyno_json_fail_value (DynoJsonScanner *sc,
                       const char      *at,
                       const char      *format,
                       ...)
{
  va_list args;
  g_autofree char *what = NULL;
  g_autofree char *path = NULL;
  GString *msg;

  if (sc->error != NULL)
    return FALSE;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  msg = g_string_new (NULL);
  path = format_path (sc);
  if (path[0] != '\0')
    /* Translators: the start of a message about a value; %s is the attribute's path. */
    g_string_append_printf (msg, _("Attribute %s: "), path);
  g_string_append (msg, what);
  if (sc->positions)
    {
      guint line, column;

      location (sc, at, &line, &column);
      /* Translators: added after a message about a value: the line, then the column. */
      g_string_append_printf (msg, _(" (line %u, column %u)"), line, column);
    }

  sc->error = g_error_new_literal (DYNO_ERROR, DYNO_ERROR_INVALID_VALUE, msg->str);
  g_string_free (msg, TRUE);
  if (sc->positions)
    {
      guint line, column;

      location (sc, at, &line, &column);
      dyno_error_set_location (sc->error, line, column);
    }

  return FALSE;
}

static const char *
describe_byte (DynoJsonScanner *sc)
{
  if (sc->p >= sc->end)
    return _("the end of the text");

  switch (*sc->p)
    {
    case '{': return "\u201c{\u201d";
    case '}': return "\u201c}\u201d";
    case '[': return "\u201c[\u201d";
    case ']': return "\u201c]\u201d";
    case ',': return "\u201c,\u201d";
    case ':': return "\u201c:\u201d";
    case '"': return _("a string");
    case 't': case 'f': case 'n': return _("a literal");
    default:
      if (*sc->p == '-' || (*sc->p >= '0' && *sc->p <= '9'))
        return _("a number");
      return _("an unexpected character");
    }
}

gboolean
_dyno_json_expect_slow (DynoJsonScanner *sc,
                   char             c,
                   const char      *what)
{
  _dyno_json_skip_ws (sc);
  if (G_LIKELY (sc->p < sc->end && *sc->p == c))
    {
      sc->p++;
      return TRUE;
    }

  /* Translators: what was expected (such as "an object"), then what was found (such as "a
   * number"). */
  return _dyno_json_fail_syntax (sc, _("expected %s but found %s"), _(what), describe_byte (sc));
}

gboolean
_dyno_json_next_slow (DynoJsonScanner *sc,
                      char             close,
                      gboolean        *more)
{
  char c = _dyno_json_peek (sc);

  if (c == ',')
    {
      sc->p++;
      *more = TRUE;
      return TRUE;
    }
  if (c == close)
    {
      sc->p++;
      *more = FALSE;
      return TRUE;
    }

  *more = FALSE;
  return _dyno_json_fail_syntax (sc, _("expected \u201c,\u201d or \u201c%c\u201d but found %s"),
                                 close, describe_byte (sc));
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
read_hex4 (DynoJsonScanner *sc,
           const char      *q,
           gunichar        *out)
{
  gunichar v = 0;

  if (sc->end - q < 4)
    return FALSE;
  for (int i = 0; i < 4; i++)
    {
      int h = hex_value (q[i]);
      if (h < 0)
        return FALSE;
      v = (v << 4) | (gunichar) h;
    }
  *out = v;
  return TRUE;
}

/* Decodes the escapes of a string whose raw text starts at @from (inside the quotes). */
static gboolean
read_string_slow (DynoJsonScanner *sc,
                  const char      *from)
{
  GString *s = sc->scratch;
  const char *q = from;

  g_string_truncate (s, 0);

  while (q < sc->end)
    {
      const char *run = q;

      while (q < sc->end && *q != '"' && *q != '\\' && (guchar) *q >= 0x20)
        q++;
      g_string_append_len (s, run, q - run);

      if (q >= sc->end)
        break;
      if (*q == '"')
        {
          sc->raw = from;
          sc->raw_len = q - from;
          sc->p = q + 1;
          return TRUE;
        }
      if ((guchar) *q < 0x20)
        {
          sc->p = q;
          return _dyno_json_fail_syntax (sc, _("control character U+%04X must be escaped in a "
                                           "string"), (guint) (guchar) *q);
        }

      /* A backslash. */
      if (q + 1 >= sc->end)
        break;
      switch (q[1])
        {
        case '"': g_string_append_c (s, '"'); q += 2; break;
        case '\\': g_string_append_c (s, '\\'); q += 2; break;
        case '/': g_string_append_c (s, '/'); q += 2; break;
        case 'b': g_string_append_c (s, '\b'); q += 2; break;
        case 'f': g_string_append_c (s, '\f'); q += 2; break;
        case 'n': g_string_append_c (s, '\n'); q += 2; break;
        case 'r': g_string_append_c (s, '\r'); q += 2; break;
        case 't': g_string_append_c (s, '\t'); q += 2; break;
        case 'u':
          {
            gunichar c, low;

            if (!read_hex4 (sc, q + 2, &c))
              {
                sc->p = q;
                return _dyno_json_fail_syntax (sc, _("\\u must be followed by four hex digits"));
              }
            if (c >= 0xDC00 && c <= 0xDFFF)
              {
                sc->p = q;
                return _dyno_json_fail_syntax (sc, _("lone low surrogate \\u%04X in a string "
                                                 "(not valid Unicode)"), c);
              }
            if (c >= 0xD800 && c <= 0xDBFF)
              {
                if (sc->end - q < 12 || q[6] != '\\' || q[7] != 'u' ||
                    !read_hex4 (sc, q + 8, &low) || low < 0xDC00 || low > 0xDFFF)
                  {
                    sc->p = q;
                    return _dyno_json_fail_syntax (sc, _("lone high surrogate \\u%04X in a "
                                                     "string (not valid Unicode)"), c);
                  }
                c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
                q += 12;
              }
            else
              q += 6;
            g_string_append_unichar (s, c);
          }
          break;
        default:
          sc->p = q;
          return _dyno_json_fail_syntax (sc, _("invalid escape \u201c\\%c\u201d in a string"),
                                         g_ascii_isprint (q[1]) ? q[1] : '?');
        }
    }

  sc->p = from - 1;
  return _dyno_json_fail_syntax (sc, _("unterminated string"));
}

/* Checks the raw text of the string just read.  Escapes decode to valid UTF-8, so the raw
 * text holds every byte that needs checking. */
static gboolean
validate_utf8 (DynoJsonScanner *sc)
{
  const char *bad = NULL;

  if (!g_utf8_validate_len (sc->raw, sc->raw_len, &bad))
    {
      sc->p = bad;
      return _dyno_json_fail_syntax (sc, _("invalid UTF-8 in a string"));
    }
  return TRUE;
}

gboolean
_dyno_json_read_string (DynoJsonScanner *sc,
                        const char     **out,
                        gsize           *out_len)
{
  const char *from, *q;
  gboolean ascii = TRUE;

  _dyno_json_skip_ws (sc);
  if (G_UNLIKELY (sc->p >= sc->end || *sc->p != '"'))
    return _dyno_json_fail_syntax (sc, _("expected a string but found %s"), describe_byte (sc));

  from = q = sc->p + 1;

  /* Fast path: no escapes, the string is used in place. */
  for (;;)
    {
      guchar c;

#if defined(__SSE2__) && defined(__GNUC__)
      /* Sixteen bytes at a time up to the next byte that needs a look: a quote, a
       * backslash, a control character, or (until one was seen) a non-ASCII byte. */
      {
        const __m128i quote = _mm_set1_epi8 ('"');
        const __m128i backslash = _mm_set1_epi8 ('\\');
        const __m128i space = _mm_set1_epi8 (0x20);
        const __m128i control_max = _mm_set1_epi8 (0x1F);

        while (sc->end - q >= 16)
          {
            __m128i v = _mm_loadu_si128 ((const __m128i *) q);
            __m128i special = _mm_or_si128 (_mm_cmpeq_epi8 (v, quote),
                                            _mm_cmpeq_epi8 (v, backslash));
            int mask;

            if (ascii)
              /* Signed: true for 0x00-0x1F and for 0x80-0xFF. */
              special = _mm_or_si128 (special, _mm_cmplt_epi8 (v, space));
            else
              special = _mm_or_si128 (special,
                                      _mm_cmpeq_epi8 (_mm_min_epu8 (v, control_max), v));
            mask = _mm_movemask_epi8 (special);
            if (mask == 0)
              {
                q += 16;
                continue;
              }
            q += __builtin_ctz ((unsigned int) mask);
            break;
          }
      }
#endif

      if (G_UNLIKELY (q >= sc->end))
        {
          return _dyno_json_fail_syntax (sc, _("unterminated string"));
        }
      c = (guchar) *q;
      if (c == '"')
        break;
      if (G_UNLIKELY (c == '\\'))
        {
          if (!read_string_slow (sc, from))
            return FALSE;
          *out = sc->scratch->str;
          *out_len = sc->scratch->len;
          return validate_utf8 (sc);
        }
      if (G_UNLIKELY (c < 0x20))
        {
          sc->p = q;
          return _dyno_json_fail_syntax (sc, _("control character U+%04X must be escaped in a "
                                           "string"), (guint) c);
        }
      ascii &= c < 0x80;
      q++;
    }

  sc->raw = from;
  sc->raw_len = q - from;
  sc->p = q + 1;
  *out = from;
  *out_len = q - from;
  return ascii || validate_utf8 (sc);
}

/* The end of the JSON number token at @q, or NULL (with *stop where it went wrong). */
static const char *
scan_number (const char  *q,
             const char  *end,
             const char **stop)
{
  if (q < end && *q == '-')
    q++;
  if (q < end && *q == '0')
    q++;
  else if (q < end && *q >= '1' && *q <= '9')
    while (q < end && *q >= '0' && *q <= '9')
      q++;
  else
    {
      *stop = q;
      return NULL;
    }

  if (q < end && *q == '.')
    {
      q++;
      if (q >= end || *q < '0' || *q > '9')
        {
          *stop = q;
          return NULL;
        }
      while (q < end && *q >= '0' && *q <= '9')
        q++;
    }
  if (q < end && (*q == 'e' || *q == 'E'))
    {
      q++;
      if (q < end && (*q == '+' || *q == '-'))
        q++;
      if (q >= end || *q < '0' || *q > '9')
        {
          *stop = q;
          return NULL;
        }
      while (q < end && *q >= '0' && *q <= '9')
        q++;
    }

  return q;
}

gboolean
_dyno_json_read_number (DynoJsonScanner *sc,
                        const char     **out,
                        gsize           *out_len)
{
  const char *from, *to, *stop = NULL;

  _dyno_json_skip_ws (sc);
  from = sc->p;
  to = scan_number (from, sc->end, &stop);
  if (to == NULL)
    {
      sc->p = stop;
      return _dyno_json_fail_syntax (sc, _("malformed number"));
    }

  *out = from;
  *out_len = to - from;
  sc->p = to;
  return TRUE;
}

/* Reads true, false or null; @out gets 1, 0 or -1. */
static gboolean
read_literal (DynoJsonScanner *sc,
              int             *out)
{
  gsize left;

  _dyno_json_skip_ws (sc);
  left = sc->end - sc->p;

  if (left >= 4 && memcmp (sc->p, "true", 4) == 0)
    {
      sc->p += 4;
      *out = 1;
      return TRUE;
    }
  if (left >= 5 && memcmp (sc->p, "false", 5) == 0)
    {
      sc->p += 5;
      *out = 0;
      return TRUE;
    }
  if (left >= 4 && memcmp (sc->p, "null", 4) == 0)
    {
      sc->p += 4;
      *out = -1;
      return TRUE;
    }

  return _dyno_json_fail_syntax (sc, _("expected a value but found %s"), describe_byte (sc));
}

static gboolean
enter (DynoJsonScanner *sc)
{
  if (G_UNLIKELY (++sc->depth > DYNO_JSON_MAX_DEPTH))
    return _dyno_json_fail_syntax (sc, _("values are nested more than %d levels deep"),
                                   DYNO_JSON_MAX_DEPTH);
  return TRUE;
}

gboolean
_dyno_json_skip_value (DynoJsonScanner *sc)
{
  char c = _dyno_json_peek (sc);
  const char *s;
  gsize len;
  int lit;
  gboolean more;

  switch (c)
    {
    case '"':
      return _dyno_json_read_string (sc, &s, &len);
    case '{':
      if (!enter (sc))
        return FALSE;
      sc->p++;
      if (_dyno_json_peek (sc) == '}')
        sc->p++;
      else
        do
          {
            if (!_dyno_json_read_string (sc, &s, &len) ||
                !_dyno_json_expect (sc, ':', "\u201c:\u201d") ||
                !_dyno_json_skip_value (sc) ||
                !_dyno_json_next (sc, '}', &more))
              return FALSE;
          }
        while (more);
      sc->depth--;
      return TRUE;
    case '[':
      if (!enter (sc))
        return FALSE;
      sc->p++;
      if (_dyno_json_peek (sc) == ']')
        sc->p++;
      else
        do
          {
            if (!_dyno_json_skip_value (sc) || !_dyno_json_next (sc, ']', &more))
              return FALSE;
          }
        while (more);
      sc->depth--;
      return TRUE;
    case 't':
    case 'f':
    case 'n':
      return read_literal (sc, &lit);
    default:
      if (c == '-' || (c >= '0' && c <= '9'))
        return _dyno_json_read_number (sc, &s, &len);
      return _dyno_json_fail_syntax (sc, _("expected a value but found %s"), describe_byte (sc));
    }
}

static gboolean
expect_end (DynoJsonScanner *sc)
{
  _dyno_json_skip_ws (sc);
  if (sc->p != sc->end)
    return _dyno_json_fail_syntax (sc, _("unexpected text after the end of the document"));
  return TRUE;
}

/* Base64 (RFC 4648, standard alphabet).  Padding may be left out; anything else that is not
 * base64 is rejected, since DynamoDB would reject it too. */

static const char b64_alphabet[] =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static gint8 b64_table[256];

static void
init_b64_table (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      memset (b64_table, -1, sizeof b64_table);
      for (int i = 0; i < 64; i++)
        b64_table[(guchar) b64_alphabet[i]] = (gint8) i;
      g_once_init_leave (&done, 1);
    }
}

/* Returns NULL on success, or the reason the text is not base64. */
static const char *
base64_decode (const char *text,
               gsize       len,
               GString    *out)
{
  gsize data_len = len;
  guint32 acc = 0;
  int bits = 0;

  init_b64_table ();
  g_string_truncate (out, 0);

  while (data_len > 0 && text[data_len - 1] == '=')
    data_len--;
  if (len - data_len > 2)
    return _("too much \u201c=\u201d padding");
  if (len != data_len && len % 4 != 0)
    return _("the padded length is not a multiple of 4");
  if (data_len % 4 == 1)
    return _("the length is not possible for base64");

  for (gsize i = 0; i < data_len; i++)
    {
      gint8 v = b64_table[(guchar) text[i]];

      if (v < 0)
        return text[i] == '=' ? _("\u201c=\u201d inside the data")
                              : _("a character outside the base64 alphabet");
      acc = (acc << 6) | (guint32) v;
      bits += 6;
      if (bits >= 8)
        {
          bits -= 8;
          g_string_append_c (out, (char) ((acc >> bits) & 0xFF));
        }
    }

  return NULL;
}

static void
base64_encode (GString      *out,
               const guint8 *data,
               gsize         len)
{
  gsize i = 0;

  for (; i + 3 <= len; i += 3)
    {
      guint32 v = ((guint32) data[i] << 16) | ((guint32) data[i + 1] << 8) | data[i + 2];
      char quad[4] = {
        b64_alphabet[(v >> 18) & 63], b64_alphabet[(v >> 12) & 63],
        b64_alphabet[(v >> 6) & 63], b64_alphabet[v & 63],
      };
      g_string_append_len (out, quad, 4);
    }
  if (len - i == 1)
    {
      guint32 v = (guint32) data[i] << 16;
      char quad[4] = { b64_alphabet[(v >> 18) & 63], b64_alphabet[(v >> 12) & 63], '=', '=' };
      g_string_append_len (out, quad, 4);
    }
  else if (len - i == 2)
    {
      guint32 v = ((guint32) data[i] << 16) | ((guint32) data[i + 1] << 8);
      char quad[4] = {
        b64_alphabet[(v >> 18) & 63], b64_alphabet[(v >> 12) & 63],
        b64_alphabet[(v >> 6) & 63], '=',
      };
      g_string_append_len (out, quad, 4);
    }
}

static gboolean
add_base64 (DynoJsonScanner  *sc,
            DynoValueBuilder *builder,
            const char       *text,
            gsize             len,
            const char       *at,
            const char       *what)
{
  const char *why = base64_decode (text, len, sc->bin);

  if (why != NULL)
    /* Translators: "B" or "BS member", then what is wrong. */
    return _dyno_json_fail_value (sc, at, _("The %s value is not valid base64: %s"), what, why);

  dyno_builder_fast_scalar (builder, DYNO_VALUE_B, sc->bin->str, sc->bin->len);
  return TRUE;
}

static gboolean
add_number (DynoJsonScanner  *sc,
            DynoValueBuilder *builder,
            const char       *text,
            gsize             len,
            const char       *at)
{
  g_autoptr(GError) local = NULL;
  char canonical[DYNO_NUMBER_TEXT_MAX];
  gssize canonical_len = _dyno_number_canonicalize_into (text, len, canonical, &local);

  if (canonical_len < 0)
    return _dyno_json_fail_value (sc, at, "%s", local->message);
  dyno_builder_fast_scalar (builder, DYNO_VALUE_N, canonical, canonical_len);
  return TRUE;
}

static gboolean
end_container (DynoJsonScanner  *sc,
               DynoValueBuilder *builder,
               const char       *at)
{
  g_autoptr(GError) local = NULL;

  if (!dyno_value_builder_end (builder, &local))
    return _dyno_json_fail_value (sc, at, "%s", local->message);
  return TRUE;
}

/* Before an M or L is begun: DynamoDB's nesting limit, named where it is passed, before the
 * scanner goes any deeper. */
static gboolean
check_nesting (DynoJsonScanner  *sc,
               DynoValueBuilder *builder,
               const char       *at)
{
  if (G_UNLIKELY (_dyno_value_builder_nesting (builder) >= DYNO_VALUE_MAX_DEPTH))
    return _dyno_json_fail_value (sc, at, _("Maps and lists are nested more than %d levels deep "
                                    "(DynamoDB's limit)"), DYNO_VALUE_MAX_DEPTH);
  return TRUE;
}

/* DynamoDB JSON */

static gboolean
type_from_key (const char    *key,
               gsize          len,
               DynoValueType *out)
{
  switch (len)
    {
    case 1:
      switch (key[0])
        {
        case 'S': *out = DYNO_VALUE_S; return TRUE;
        case 'N': *out = DYNO_VALUE_N; return TRUE;
        case 'B': *out = DYNO_VALUE_B; return TRUE;
        case 'M': *out = DYNO_VALUE_M; return TRUE;
        case 'L': *out = DYNO_VALUE_L; return TRUE;
        default: return FALSE;
        }
    case 2:
      if (key[1] != 'S')
        return FALSE;
      switch (key[0])
        {
        case 'S': *out = DYNO_VALUE_SS; return TRUE;
        case 'N': *out = DYNO_VALUE_NS; return TRUE;
        case 'B': *out = DYNO_VALUE_BS; return TRUE;
        default: return FALSE;
        }
    case 4:
      if (memcmp (key, "BOOL", 4) == 0)
        {
          *out = DYNO_VALUE_BOOL;
          return TRUE;
        }
      if (memcmp (key, "NULL", 4) == 0)
        {
          *out = DYNO_VALUE_NULL;
          return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

/* How one member's value, or one element, is read: DynamoDB JSON or plain JSON.  @name is the
 * member's name (NULL for a list element). */
typedef gboolean (*ParseMemberFunc) (DynoJsonScanner  *sc,
                                     DynoValueBuilder *builder,
                                     const char       *name,
                                     gsize             name_len,
                                     gpointer          data);

/* The members of an M (after its '{'), each a name, a ':' and a value read by @parse: both
 * JSON dialects read maps alike. */
static gboolean
parse_members (DynoJsonScanner  *sc,
               DynoValueBuilder *builder,
               const char       *at,
               ParseMemberFunc   parse,
               gpointer          data)
{
  gboolean more;

  if (!check_nesting (sc, builder, at))
    return FALSE;
  dyno_builder_fast_begin (builder, DYNO_VALUE_M);

  if (_dyno_json_peek (sc) == '}')
    sc->p++;
  else
    do
      {
        const char *name;
        gsize name_len;

        if (!_dyno_json_read_string (sc, &name, &name_len))
          return FALSE;
        _dyno_json_path_push_name (sc, sc->raw, sc->raw_len);
        dyno_builder_fast_key (builder, name, name_len);
        if (!_dyno_json_expect (sc, ':', "\u201c:\u201d") ||
            !parse (sc, builder, name, name_len, data))
          return FALSE;
        _dyno_json_path_pop (sc);
        if (!_dyno_json_next (sc, '}', &more))
          return FALSE;
      }
    while (more);

  return end_container (sc, builder, at);
}

/* The elements of an L (at its '['), each a value read by @parse. */
static gboolean
parse_elements (DynoJsonScanner  *sc,
                DynoValueBuilder *builder,
                const char       *at,
                ParseMemberFunc   parse,
                gpointer          data)
{
  gboolean more;
  gsize index = 0;

  if (!check_nesting (sc, builder, at))
    return FALSE;
  sc->p++;
  dyno_builder_fast_begin (builder, DYNO_VALUE_L);
  if (_dyno_json_peek (sc) == ']')
    sc->p++;
  else
    do
      {
        _dyno_json_path_push_index (sc, index++);
        if (!parse (sc, builder, NULL, 0, data))
          return FALSE;
        _dyno_json_path_pop (sc);
        if (!_dyno_json_next (sc, ']', &more))
          return FALSE;
      }
    while (more);

  return end_container (sc, builder, at);
}

static gboolean
parse_ddb_member (DynoJsonScanner  *sc,
                  DynoValueBuilder *builder,
                  const char       *name,
                  gsize             name_len,
                  gpointer          data)
{
  return _dyno_json_parse_ddb_value (sc, builder);
}

/* One member of an SS, NS or BS, from the text of a JSON string (DynamoDB JSON and plain JSON
 * read sets alike). */
static gboolean
add_set_member (DynoJsonScanner  *sc,
                DynoValueBuilder *builder,
                DynoValueType     type,
                const char       *s,
                gsize             len,
                const char       *member_at)
{
  if (type == DYNO_VALUE_SS)
    {
      dyno_builder_fast_scalar (builder, DYNO_VALUE_S, s, len);
      return TRUE;
    }
  if (type == DYNO_VALUE_NS)
    return add_number (sc, builder, s, len, member_at);

  return add_base64 (sc, builder, s, len, member_at, _("BS member"));
}

/* How the text of a set member is read (DynamoDB JSON takes strings, plain JSON numbers too),
 * with where the member starts (for messages about its value) in @member_at. */
typedef gboolean (*ReadSetMemberFunc) (DynoJsonScanner  *sc,
                                       DynoValueType     type,
                                       const char      **s,
                                       gsize            *len,
                                       const char      **member_at);

/* The members of an SS, NS or BS (at its '['), each read by @read. */
static gboolean
parse_set_members (DynoJsonScanner   *sc,
                   DynoValueBuilder  *builder,
                   DynoValueType      type,
                   const char        *at,
                   ReadSetMemberFunc  read)
{
  gboolean more;
  gsize index = 0;

  sc->p++;
  dyno_builder_fast_begin (builder, type);
  if (_dyno_json_peek (sc) == ']')
    sc->p++;
  else
    do
      {
        const char *s;
        gsize len;
        const char *member_at;

        _dyno_json_path_push_index (sc, index++);
        if (!read (sc, type, &s, &len, &member_at) ||
            !add_set_member (sc, builder, type, s, len, member_at))
          return FALSE;
        _dyno_json_path_pop (sc);
        if (!_dyno_json_next (sc, ']', &more))
          return FALSE;
      }
    while (more);

  return end_container (sc, builder, at);
}

static gboolean
read_ddb_set_member (DynoJsonScanner  *sc,
                     DynoValueType     type,
                     const char      **s,
                     gsize            *len,
                     const char      **member_at)
{
  *member_at = sc->p;
  if (_dyno_json_peek (sc) != '"' && type == DYNO_VALUE_NS)
    /* Translators: %s is the set type, NS. */
    return _dyno_json_fail_value (sc, sc->p, _("The members of an %s must be JSON strings"),
                                  dyno_value_type_to_string (type));
  if (_dyno_json_peek (sc) != '"')
    /* Translators: %s is the set type, SS or BS. */
    return _dyno_json_fail_value (sc, sc->p, _("The members of a %s must be JSON strings"),
                                  dyno_value_type_to_string (type));
  return _dyno_json_read_string (sc, s, len);
}

static gboolean
parse_ddb_set (DynoJsonScanner  *sc,
               DynoValueBuilder *builder,
               DynoValueType     type,
               const char       *at)
{
  if (_dyno_json_peek (sc) != '[')
    return _dyno_json_fail_value (sc, sc->p, _("The %s value must be a JSON array of strings"),
                                  dyno_value_type_to_string (type));
  return parse_set_members (sc, builder, type, at, read_ddb_set_member);
}

gboolean
_dyno_json_parse_ddb_value (DynoJsonScanner  *sc,
                            DynoValueBuilder *builder)
{
  const char *at;
  const char *key;
  gsize key_len;
  DynoValueType type;
  const char *s;
  gsize len;
  int lit;

  if (!enter (sc))
    return FALSE;

  _dyno_json_skip_ws (sc);
  at = sc->p;
  if (G_UNLIKELY (sc->p >= sc->end || *sc->p != '{'))
    {
      if (sc->p < sc->end && (*sc->p == '"' || *sc->p == '[' || *sc->p == '-' ||
                              g_ascii_isdigit (*sc->p) || *sc->p == 't' ||
                              *sc->p == 'f' || *sc->p == 'n'))
        return _dyno_json_fail_value (sc, at, _("Expected an AttributeValue such as "
                                        "{\"S\":\"text\"}, but found %s"), describe_byte (sc));
      return _dyno_json_fail_syntax (sc, _("expected an AttributeValue object but found %s"),
                                     describe_byte (sc));
    }
  sc->p++;

  if (_dyno_json_peek (sc) == '}')
    return _dyno_json_fail_value (sc, at, _("Supplied AttributeValue is empty, must contain "
                                    "exactly one of the supported datatypes"));

  /* The type key is one of ten short upper-case names: read it without the general string
   * reader when it looks like one. */
  key = sc->p + 1;
  if (G_LIKELY (sc->end - sc->p >= 8 && sc->p[0] == '"' && g_ascii_isupper (key[0])))
    {
      if (key[1] == '"')
        key_len = 1;
      else if (g_ascii_isupper (key[1]) && key[2] == '"')
        key_len = 2;
      else if (g_ascii_isupper (key[1]) && g_ascii_isupper (key[2]) &&
               g_ascii_isupper (key[3]) && key[4] == '"')
        key_len = 4;
      else
        key_len = 0;
    }
  else
    key_len = 0;

  if (key_len > 0)
    sc->p = key + key_len + 1;
  else if (!_dyno_json_read_string (sc, &key, &key_len))
    return FALSE;

  if (!type_from_key (key, key_len, &type))
    {
      g_autofree char *shown = g_utf8_make_valid (key, MIN (key_len, 64));

      return _dyno_json_fail_value (sc, at, _("Unknown AttributeValue type \u201c%s\u201d; the "
                                      "supported datatypes are S, N, B, BOOL, NULL, M, L, SS, "
                                      "NS and BS"), shown);
    }
  if (!_dyno_json_expect (sc, ':', "\u201c:\u201d"))
    return FALSE;

  switch (type)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
    case DYNO_VALUE_B:
      if (_dyno_json_peek (sc) != '"')
        {
          if (type == DYNO_VALUE_N)
            return _dyno_json_fail_value (sc, sc->p, _("The N value must be a number written as "
                                            "a JSON string, such as {\"N\":\"42\"}"));
          return _dyno_json_fail_value (sc, sc->p, _("The %s value must be a JSON string"),
                                        dyno_value_type_to_string (type));
        }
      if (!_dyno_json_read_string (sc, &s, &len))
        return FALSE;
      if (type == DYNO_VALUE_S)
        dyno_builder_fast_scalar (builder, DYNO_VALUE_S, s, len);
      else if (type == DYNO_VALUE_N)
        {
          if (!add_number (sc, builder, s, len, at))
            return FALSE;
        }
      else if (!add_base64 (sc, builder, s, len, at, "B"))
        return FALSE;
      break;

    case DYNO_VALUE_BOOL:
    case DYNO_VALUE_NULL:
      {
        const char *lit_at;

        _dyno_json_skip_ws (sc);
        lit_at = sc->p;
        if (sc->p >= sc->end || (*sc->p != 't' && *sc->p != 'f'))
          /* Translators: the type (BOOL or NULL), then "true or false" or "true". */
          return _dyno_json_fail_value (sc, lit_at, _("The %s value must be %s"),
                                        dyno_value_type_to_string (type),
                                        type == DYNO_VALUE_BOOL ? _("true or false") : "true");
        if (!read_literal (sc, &lit))
          return FALSE;
        if (type == DYNO_VALUE_BOOL)
          dyno_value_builder_add_bool (builder, lit == 1);
        else if (lit == 1)
          dyno_value_builder_add_null (builder);
        else
          return _dyno_json_fail_value (sc, lit_at, _("One or more parameter values were invalid: "
                                          "Null attribute value types must have the value of "
                                          "true"));
      }
      break;

    case DYNO_VALUE_M:
      if (_dyno_json_peek (sc) != '{')
        return _dyno_json_fail_value (sc, sc->p, _("The M value must be a JSON object"));
      sc->p++;
      if (!parse_members (sc, builder, at, parse_ddb_member, NULL))
        return FALSE;
      break;

    case DYNO_VALUE_L:
      if (_dyno_json_peek (sc) != '[')
        return _dyno_json_fail_value (sc, sc->p, _("The L value must be a JSON array"));
      if (!parse_elements (sc, builder, at, parse_ddb_member, NULL))
        return FALSE;
      break;

    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      if (!parse_ddb_set (sc, builder, type, at))
        return FALSE;
      break;

    default:
      g_assert_not_reached ();
    }

  if (_dyno_json_peek (sc) == ',')
    return _dyno_json_fail_value (sc, at, _("Supplied AttributeValue has more than one datatypes "
                                    "set, must contain exactly one of the supported datatypes"));
  if (!_dyno_json_expect (sc, '}', "\u201c}\u201d"))
    return FALSE;

  sc->depth--;
  return TRUE;
}

gboolean
_dyno_json_parse_ddb_item (DynoJsonScanner  *sc,
                           DynoValueBuilder *builder)
{
  const char *at;

  _dyno_json_skip_ws (sc);
  at = sc->p;
  if (!_dyno_json_expect (sc, '{', N_("an item object such as {\"id\":{\"S\":\"1\"}}")))
    return FALSE;

  return parse_members (sc, builder, at, parse_ddb_member, NULL);
}

static DynoJsonScanner *
scanner_begin (DynoJsonScanner *sc,
               const char      *json,
               gssize           len)
{
  if (len < 0)
    len = strlen (json);
  _dyno_json_scanner_init (sc, json, len);
  return sc;
}

static gboolean
scanner_end (DynoJsonScanner  *sc,
             gboolean          ok,
             GError          **error)
{
  if (!ok)
    {
      g_assert (sc->error != NULL);
      g_propagate_error (error, g_steal_pointer (&sc->error));
    }
  _dyno_json_scanner_clear (sc);
  return ok;
}

static DynoValue *
value_from_ddb_json (const char  *json,
                     gssize       len,
                     gboolean     positions,
                     GError     **error)
{
  DynoJsonScanner sc;
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  gboolean ok;

  scanner_begin (&sc, json, len);
  sc.positions = positions;
  ok = _dyno_json_parse_ddb_value (&sc, builder) && expect_end (&sc);
  if (!scanner_end (&sc, ok, error))
    return NULL;

  return dyno_value_builder_finish (builder);
}

static DynoItem *
item_from_ddb_json (const char  *json,
                    gssize       len,
                    gboolean     positions,
                    GError     **error)
{
  DynoJsonScanner sc;
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  gboolean ok;

  scanner_begin (&sc, json, len);
  sc.positions = positions;
  ok = _dyno_json_parse_ddb_item (&sc, builder) && expect_end (&sc);
  if (!scanner_end (&sc, ok, error))
    return NULL;

  return _dyno_value_builder_finish_item (builder);
}

DynoValue *
dyno_value_from_ddb_json (const char  *json,
                          gssize       len,
                          GError     **error)
{
  g_return_val_if_fail (json != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return value_from_ddb_json (json != NULL ? json : "", len, TRUE, error);
}

DynoItem *
dyno_item_from_ddb_json (const char  *json,
                         gssize       len,
                         GError     **error)
{
  g_return_val_if_fail (json != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return item_from_ddb_json (json != NULL ? json : "", len, TRUE, error);
}

void
dyno_json_write_string (GString    *out,
                        const char *text,
                        gssize      len)
{
  const char *p, *end, *run;

  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL || len == 0);

  if (len < 0)
    len = strlen (text);

  g_string_append_c (out, '"');
  p = run = text;
  end = text + len;
  while (p < end)
    {
      guchar c = (guchar) *p;

      if (G_LIKELY (c >= 0x20 && c != '"' && c != '\\' && c != 0xC0))
        {
          p++;
          continue;
        }
      if (c == 0xC0)
        {
          /* C0 80 is how json-glib trees hold a NUL (see dyno-json.h); valid UTF-8 never
           * contains it, so no text is changed. */
          if (p + 1 < end && (guchar) p[1] == 0x80)
            {
              g_string_append_len (out, run, p - run);
              g_string_append (out, "\\u0000");
              p += 2;
              run = p;
            }
          else
            p++;
          continue;
        }

      g_string_append_len (out, run, p - run);
      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default: g_string_append_printf (out, "\\u%04x", c); break;
        }
      run = ++p;
    }
  g_string_append_len (out, run, p - run);
  g_string_append_c (out, '"');
}

static void
write_base64_string (GString      *out,
                     const guint8 *data,
                     gsize         len)
{
  g_string_append_c (out, '"');
  base64_encode (out, data, len);
  g_string_append_c (out, '"');
}

static void
write_ddb_value (const DynoValue *value,
                 GString         *out);

static void
write_ddb_members (const DynoValue *map,
                   GString         *out)
{
  guint n = dyno_value_get_n_children (map);

  g_string_append_c (out, '{');
  for (guint i = 0; i < n; i++)
    {
      gsize len;
      const char *name = dyno_value_get_member_name (map, i, &len);

      if (i > 0)
        g_string_append_c (out, ',');
      dyno_json_write_string (out, name, len);
      g_string_append_c (out, ':');
      write_ddb_value (dyno_value_get_child (map, i), out);
    }
  g_string_append_c (out, '}');
}

static void
write_ddb_value (const DynoValue *value,
                 GString         *out)
{
  DynoValueType type = dyno_value_get_kind (value);
  const char *s;
  const guint8 *b;
  gsize len;
  guint n;

  g_string_append (out, "{\"");
  g_string_append (out, dyno_value_type_to_string (type));
  g_string_append (out, "\":");

  switch (type)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
      s = dyno_value_get_string (value, &len);
      dyno_json_write_string (out, s, len);
      break;
    case DYNO_VALUE_B:
      b = dyno_value_get_binary (value, &len);
      write_base64_string (out, b, len);
      break;
    case DYNO_VALUE_BOOL:
      g_string_append (out, dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, "true");
      break;
    case DYNO_VALUE_M:
      write_ddb_members (value, out);
      break;
    case DYNO_VALUE_L:
      n = dyno_value_get_n_children (value);
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          write_ddb_value (dyno_value_get_child (value, i), out);
        }
      g_string_append_c (out, ']');
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      n = dyno_value_get_n_children (value);
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          const DynoValue *child = dyno_value_get_child (value, i);

          if (i > 0)
            g_string_append_c (out, ',');
          if (type == DYNO_VALUE_BS)
            {
              b = dyno_value_get_binary (child, &len);
              write_base64_string (out, b, len);
            }
          else
            {
              s = dyno_value_get_string (child, &len);
              dyno_json_write_string (out, s, len);
            }
        }
      g_string_append_c (out, ']');
      break;
    default:
      g_assert_not_reached ();
    }

  g_string_append_c (out, '}');
}

void
dyno_value_write_ddb_json (const DynoValue *value,
                           GString         *out)
{
  g_return_if_fail (value != NULL);
  g_return_if_fail (out != NULL);

  write_ddb_value (value, out);
}

void
dyno_map_write_ddb_item (const DynoValue *map,
                         GString         *out)
{
  g_return_if_fail (map != NULL);
  g_return_if_fail (dyno_value_get_kind (map) == DYNO_VALUE_M);
  g_return_if_fail (out != NULL);

  write_ddb_members (map, out);
}

char *
dyno_value_to_ddb_json (const DynoValue *value)
{
  GString *out;

  g_return_val_if_fail (value != NULL, NULL);

  out = g_string_sized_new (dyno_value_get_encoded_size (value) + 16);
  write_ddb_value (value, out);
  return g_string_free (out, FALSE);
}

char *
dyno_item_to_ddb_json (const DynoItem *item)
{
  const DynoValue *map;
  GString *out;

  g_return_val_if_fail (item != NULL, NULL);

  map = dyno_item_get_map (item);
  out = g_string_sized_new (dyno_value_get_encoded_size (map) + 16);
  write_ddb_members (map, out);
  return g_string_free (out, FALSE);
}

/* json-glib bridges: small documents, so going through text keeps one set of rules.  The
 * positions in messages would point into the re-serialised text, so they are left out. */

DynoValue *
dyno_value_from_json_node (JsonNode  *node,
                           GError   **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  text = dyno_json_node_to_string (node, FALSE);
  return value_from_ddb_json (text, -1, FALSE, error);
}

DynoItem *
dyno_item_from_json_node (JsonNode  *node,
                          GError   **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  text = dyno_json_node_to_string (node, FALSE);
  return item_from_ddb_json (text, -1, FALSE, error);
}

static JsonNode *
node_from_text (const char *text)
{
  g_autoptr(GError) local = NULL;
  JsonNode *node = dyno_json_parse (text, -1, &local);

  /* Our writer only produces valid JSON. */
  if (node == NULL)
    g_critical ("Could not re-read generated JSON: %s", local->message);
  return node;
}

JsonNode *
dyno_value_to_json_node (const DynoValue *value)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (value != NULL, NULL);

  text = dyno_value_to_ddb_json (value);
  return node_from_text (text);
}

JsonNode *
dyno_item_to_json_node (const DynoItem *item)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (item != NULL, NULL);

  text = dyno_item_to_ddb_json (item);
  return node_from_text (text);
}

/* Plain JSON */

#define NO_HINT (-1)

static const char *
json_kind_name (char c)
{
  switch (c)
    {
    case '"': return _("a string");
    case '{': return _("an object");
    case '[': return _("an array");
    case 't': case 'f': return _("a boolean");
    case 'n': return "null";
    default: return _("a number");
    }
}

static gboolean
hint_mismatch (DynoJsonScanner *sc,
               int              hint,
               char             c)
{
  /* Translators: the type (such as SS), then a JSON kind (such as "an object"). */
  return _dyno_json_fail_value (sc, sc->p, _("The type hint is %s, but the JSON value is %s"),
                                dyno_value_type_to_string ((DynoValueType) hint),
                                json_kind_name (c));
}

static gboolean parse_plain_value (DynoJsonScanner  *sc,
                                   DynoValueBuilder *builder,
                                   int               hint,
                                   GHashTable       *hints);

static gboolean
read_plain_set_member (DynoJsonScanner  *sc,
                       DynoValueType     type,
                       const char      **s,
                       gsize            *len,
                       const char      **member_at)
{
  char c = _dyno_json_peek (sc);
  const char *allowed;

  *member_at = sc->p;
  if (c == '"')
    return _dyno_json_read_string (sc, s, len);
  if ((c == '-' || g_ascii_isdigit (c)) && type != DYNO_VALUE_BS)
    return _dyno_json_read_number (sc, s, len);

  allowed = type == DYNO_VALUE_BS ? _("base64 strings") : _("strings or numbers");
  if (type == DYNO_VALUE_NS)
    /* Translators: the set type (NS, SS or BS), then what its members must be. */
    return _dyno_json_fail_value (sc, *member_at, _("The members of an %s must be %s"),
                                  dyno_value_type_to_string (type), allowed);
  /* Translators: the set type (SS or BS), then what its members must be. */
  return _dyno_json_fail_value (sc, *member_at, _("The members of a %s must be %s"),
                                dyno_value_type_to_string (type), allowed);
}

static gboolean
parse_plain_set (DynoJsonScanner  *sc,
                 DynoValueBuilder *builder,
                 DynoValueType     type)
{
  return parse_set_members (sc, builder, type, sc->p, read_plain_set_member);
}

/* A member's value or an element in plain JSON; @data is the hints for the members of this
 * object (the top level only), or NULL. */
static gboolean
parse_plain_member (DynoJsonScanner  *sc,
                    DynoValueBuilder *builder,
                    const char       *name,
                    gsize             name_len,
                    gpointer          data)
{
  GHashTable *hints = data;
  int hint = NO_HINT;

  if (hints != NULL)
    {
      g_autofree char *key = g_strndup (name, name_len);
      gpointer v;

      if (g_hash_table_lookup_extended (hints, key, NULL, &v))
        hint = GPOINTER_TO_INT (v);
    }

  return parse_plain_value (sc, builder, hint, NULL);
}

/* @hints applies to the members of an object at this level (the top level only). */
static gboolean
parse_plain_value (DynoJsonScanner  *sc,
                   DynoValueBuilder *builder,
                   int               hint,
                   GHashTable       *hints)
{
  char c = _dyno_json_peek (sc);
  const char *at = sc->p;
  const char *s;
  gsize len;
  int lit;
  gboolean ok = TRUE;

  if (!enter (sc))
    return FALSE;

  if (hint != NO_HINT && (hint < 0 || hint >= DYNO_VALUE_N_TYPES))
    return _dyno_json_fail_value (sc, at, _("Invalid type hint %d"), hint);

  switch (c)
    {
    case '"':
      if (hint != NO_HINT && hint != DYNO_VALUE_S && hint != DYNO_VALUE_N &&
          hint != DYNO_VALUE_B)
        return hint_mismatch (sc, hint, c);
      if (!_dyno_json_read_string (sc, &s, &len))
        return FALSE;
      if (hint == DYNO_VALUE_N)
        ok = add_number (sc, builder, s, len, at);
      else if (hint == DYNO_VALUE_B)
        ok = add_base64 (sc, builder, s, len, at, "B");
      else
        dyno_builder_fast_scalar (builder, DYNO_VALUE_S, s, len);
      break;

    case '{':
      if (hint != NO_HINT && hint != DYNO_VALUE_M)
        return hint_mismatch (sc, hint, c);
      sc->p++;
      ok = parse_members (sc, builder, at, parse_plain_member, hints);
      break;

    case '[':
      if (hint == DYNO_VALUE_SS || hint == DYNO_VALUE_NS || hint == DYNO_VALUE_BS)
        {
          ok = parse_plain_set (sc, builder, (DynoValueType) hint);
          break;
        }
      if (hint != NO_HINT && hint != DYNO_VALUE_L)
        return hint_mismatch (sc, hint, c);
      ok = parse_elements (sc, builder, at, parse_plain_member, NULL);
      break;

    case 't':
    case 'f':
    case 'n':
      if (!read_literal (sc, &lit))
        return FALSE;
      if (lit >= 0 && hint != NO_HINT && hint != DYNO_VALUE_BOOL)
        return hint_mismatch (sc, hint, c);
      if (lit < 0 && hint != NO_HINT && hint != DYNO_VALUE_NULL)
        return hint_mismatch (sc, hint, c);
      if (lit < 0)
        dyno_value_builder_add_null (builder);
      else
        dyno_value_builder_add_bool (builder, lit == 1);
      break;

    default:
      if (c != '-' && !g_ascii_isdigit (c))
        return _dyno_json_fail_syntax (sc, _("expected a value but found %s"),
                                       describe_byte (sc));
      if (hint != NO_HINT && hint != DYNO_VALUE_N && hint != DYNO_VALUE_S)
        return hint_mismatch (sc, hint, c);
      if (!_dyno_json_read_number (sc, &s, &len))
        return FALSE;
      /* The number's exact text: never through a double. */
      if (hint == DYNO_VALUE_S)
        dyno_builder_fast_scalar (builder, DYNO_VALUE_S, s, len);
      else
        ok = add_number (sc, builder, s, len, at);
      break;
    }

  if (ok)
    sc->depth--;
  return ok;
}

DynoValue *
dyno_value_from_plain_json (const char  *json,
                            gssize       len,
                            GHashTable  *hints,
                            GError     **error)
{
  DynoJsonScanner sc;
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  gboolean ok;

  g_return_val_if_fail (json != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  scanner_begin (&sc, json != NULL ? json : "", len);
  ok = parse_plain_value (&sc, builder, NO_HINT, hints) && expect_end (&sc);
  if (!scanner_end (&sc, ok, error))
    return NULL;

  return dyno_value_builder_finish (builder);
}

DynoItem *
dyno_item_from_plain_json (const char  *json,
                           gssize       len,
                           GHashTable  *hints,
                           GError     **error)
{
  DynoJsonScanner sc;
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  gboolean ok;

  g_return_val_if_fail (json != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  scanner_begin (&sc, json != NULL ? json : "", len);
  if (_dyno_json_peek (&sc) != '{')
    ok = _dyno_json_fail_syntax (&sc, _("expected an item object but found %s"),
                                 describe_byte (&sc));
  else
    ok = parse_plain_value (&sc, builder, NO_HINT, hints) && expect_end (&sc);
  if (!scanner_end (&sc, ok, error))
    return NULL;

  return _dyno_value_builder_finish_item (builder);
}

void
dyno_value_write_plain_json (const DynoValue *value,
                             GString         *out)
{
  DynoValueType type;
  const char *s;
  const guint8 *b;
  gsize len;
  guint n;

  g_return_if_fail (value != NULL);
  g_return_if_fail (out != NULL);

  type = dyno_value_get_kind (value);
  switch (type)
    {
    case DYNO_VALUE_S:
      s = dyno_value_get_string (value, &len);
      dyno_json_write_string (out, s, len);
      break;
    case DYNO_VALUE_N:
      s = dyno_value_get_string (value, &len);
      g_string_append_len (out, s, len);
      break;
    case DYNO_VALUE_B:
      b = dyno_value_get_binary (value, &len);
      write_base64_string (out, b, len);
      break;
    case DYNO_VALUE_BOOL:
      g_string_append (out, dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, "null");
      break;
    case DYNO_VALUE_M:
      n = dyno_value_get_n_children (value);
      g_string_append_c (out, '{');
      for (guint i = 0; i < n; i++)
        {
          const char *name = dyno_value_get_member_name (value, i, &len);

          if (i > 0)
            g_string_append_c (out, ',');
          dyno_json_write_string (out, name, len);
          g_string_append_c (out, ':');
          dyno_value_write_plain_json (dyno_value_get_child (value, i), out);
        }
      g_string_append_c (out, '}');
      break;
    case DYNO_VALUE_L:
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      n = dyno_value_get_n_children (value);
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          dyno_value_write_plain_json (dyno_value_get_child (value, i), out);
        }
      g_string_append_c (out, ']');
      break;
    default:
      g_assert_not_reached ();
    }
}

char *
dyno_item_to_plain_json (const DynoItem *item)
{
  GString *out;

  g_return_val_if_fail (item != NULL, NULL);

  out = g_string_new (NULL);
  dyno_value_write_plain_json (dyno_item_get_map (item), out);
  return g_string_free (out, FALSE);
}

gboolean
dyno_json_validate (const char  *json,
                    gssize       len,
                    GError     **error)
{
  DynoJsonScanner sc;
  gboolean ok;

  g_return_val_if_fail (json != NULL, FALSE);

  if (len < 0)
    len = strlen (json);

  _dyno_json_scanner_init (&sc, json, len);
  sc.positions = TRUE;
  ok = _dyno_json_skip_value (&sc);
  if (ok)
    {
      _dyno_json_skip_ws (&sc);
      if (sc.p != sc.end)
        ok = _dyno_json_fail_syntax (&sc, _("unexpected text after the JSON value"));
    }
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&sc.error));
  _dyno_json_scanner_clear (&sc);

  return ok;
}

/* json-glib trees
 *
 * json-glib keeps strings as C strings and its parser cuts a string at "\u0000" (1.6), and
 * recurses without a bound.  So documents are read here, with the scanner above, into
 * json-glib trees in which a U+0000 is held as the two bytes C0 80 ("modified UTF-8", as
 * Java's DataInput writes it): valid UTF-8 never contains them, and every string read is
 * checked to be valid UTF-8, so no text can be taken for a NUL.  The writer below turns C0 80
 * back into "\u0000"; dyno_json_node_dup_string() gives the string with its NULs. */

static char *
tree_string (const char *s,
             gsize       len)
{
  GString *out;

  if (memchr (s, '\0', len) == NULL)
    return g_strndup (s, len);

  out = g_string_sized_new (len + 8);
  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == '\0')
        g_string_append_len (out, "\xC0\x80", 2);
      else
        g_string_append_c (out, s[i]);
    }
  return g_string_free (out, FALSE);
}

static JsonNode *
parse_tree_value (DynoJsonScanner *sc)
{
  char c = _dyno_json_peek (sc);
  g_autoptr(JsonNode) node = NULL;
  const char *s;
  gsize len;
  int lit;
  gboolean more;

  switch (c)
    {
    case '"':
      {
        g_autofree char *text = NULL;

        if (!_dyno_json_read_string (sc, &s, &len))
          return NULL;
        text = tree_string (s, len);
        node = json_node_init_string (json_node_alloc (), text);
      }
      break;

    case '{':
      {
        JsonObject *object;

        if (!enter (sc))
          return NULL;
        sc->p++;
        object = json_object_new ();
        node = json_node_init_object (json_node_alloc (), object);
        json_object_unref (object);
        if (_dyno_json_peek (sc) == '}')
          sc->p++;
        else
          do
            {
              g_autofree char *name = NULL;
              JsonNode *member;

              if (!_dyno_json_read_string (sc, &s, &len))
                return NULL;
              name = tree_string (s, len);
              if (!_dyno_json_expect (sc, ':', "\u201c:\u201d") ||
                  (member = parse_tree_value (sc)) == NULL)
                return NULL;
              json_object_set_member (object, name, member);
              if (!_dyno_json_next (sc, '}', &more))
                return NULL;
            }
          while (more);
        sc->depth--;
      }
      break;

    case '[':
      {
        JsonArray *array;

        if (!enter (sc))
          return NULL;
        sc->p++;
        array = json_array_new ();
        node = json_node_init_array (json_node_alloc (), array);
        json_array_unref (array);
        if (_dyno_json_peek (sc) == ']')
          sc->p++;
        else
          do
            {
              JsonNode *element = parse_tree_value (sc);

              if (element == NULL)
                return NULL;
              json_array_add_element (array, element);
              if (!_dyno_json_next (sc, ']', &more))
                return NULL;
            }
          while (more);
        sc->depth--;
      }
      break;

    case 't':
    case 'f':
    case 'n':
      if (!read_literal (sc, &lit))
        return NULL;
      node = lit < 0 ? json_node_init_null (json_node_alloc ())
                     : json_node_init_boolean (json_node_alloc (), lit == 1);
      break;

    default:
      if (c == '-' || (c >= '0' && c <= '9'))
        {
          g_autofree char *text = NULL;
          gint64 integer;

          if (!_dyno_json_read_number (sc, &s, &len))
            return NULL;
          text = g_strndup (s, len);
          /* As json-glib reads them: integers as gint64, anything else as a double. */
          if (strpbrk (text, ".eE") == NULL &&
              g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &integer, NULL))
            node = json_node_init_int (json_node_alloc (), integer);
          else
            node = json_node_init_double (json_node_alloc (), g_ascii_strtod (text, NULL));
        }
      else
        {
          _dyno_json_fail_syntax (sc, _("expected a value but found %s"), describe_byte (sc));
          return NULL;
        }
      break;
    }

  return g_steal_pointer (&node);
}

JsonNode *
dyno_json_parse (const char  *json,
                 gssize       len,
                 GError     **error)
{
  DynoJsonScanner sc;
  g_autoptr(JsonNode) root = NULL;
  gboolean ok;

  g_return_val_if_fail (json != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  scanner_begin (&sc, json != NULL ? json : "", len);
  root = parse_tree_value (&sc);
  ok = root != NULL && expect_end (&sc);
  if (!scanner_end (&sc, ok, error))
    return NULL;
  return g_steal_pointer (&root);
}

/* ---- DynoJsonReader ----------------------------------------------------------------------- */

struct _DynoJsonReader
{
  DynoJsonScanner   sc;
  DynoValueBuilder *builder;
  GString          *name;
  /* per open container, innermost last: whether no member or element was read yet */
  GArray           *first;
  gboolean          failed;
};

DynoJsonReader *
dyno_json_reader_new (const char *json,
                      gssize      len)
{
  DynoJsonReader *reader = g_new0 (DynoJsonReader, 1);

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  scanner_begin (&reader->sc, json != NULL ? json : "", len);
  reader->sc.positions = FALSE;
  reader->builder = dyno_value_builder_new ();
  reader->name = g_string_sized_new (32);
  reader->first = g_array_sized_new (FALSE, FALSE, sizeof (gboolean), 8);
  return reader;
}

void
dyno_json_reader_free (DynoJsonReader *reader)
{
  if (reader == NULL)
    return;
  _dyno_json_scanner_clear (&reader->sc);
  dyno_value_builder_free (reader->builder);
  g_string_free (reader->name, TRUE);
  g_array_unref (reader->first);
  g_free (reader);
}

/* @ok, remembering a failure (the scanner's error says why) */
static gboolean
reader_check (DynoJsonReader *reader,
              gboolean        ok)
{
  if (!ok)
    reader->failed = TRUE;
  return ok;
}

char
dyno_json_reader_peek (DynoJsonReader *reader)
{
  g_return_val_if_fail (reader != NULL, '\0');

  return reader->failed ? '\0' : _dyno_json_peek (&reader->sc);
}

static gboolean
reader_begin (DynoJsonReader *reader,
              char            open,
              const char     *what)
{
  gboolean first = TRUE;

  if (reader->failed)
    return FALSE;
  _dyno_json_skip_ws (&reader->sc);
  if (!reader_check (reader, _dyno_json_expect (&reader->sc, open, what) && enter (&reader->sc)))
    return FALSE;
  g_array_append_val (reader->first, first);
  return TRUE;
}

gboolean
dyno_json_reader_begin_object (DynoJsonReader *reader)
{
  g_return_val_if_fail (reader != NULL, FALSE);

  return reader_begin (reader, '{', N_("\u201c{\u201d"));
}

gboolean
dyno_json_reader_begin_array (DynoJsonReader *reader)
{
  g_return_val_if_fail (reader != NULL, FALSE);

  return reader_begin (reader, '[', N_("\u201c[\u201d"));
}

/* Before the next member or element of the innermost container: TRUE when there is one,
 * FALSE at its end (left) or on error. */
static gboolean
reader_more (DynoJsonReader *reader,
             char            close)
{
  gboolean *first;
  gboolean more;

  if (reader->failed)
    return FALSE;
  g_return_val_if_fail (reader->first->len > 0, FALSE);
  first = &g_array_index (reader->first, gboolean, reader->first->len - 1);
  if (*first)
    {
      *first = FALSE;
      more = _dyno_json_peek (&reader->sc) != close;
      if (!more)
        reader->sc.p++;
    }
  else if (!reader_check (reader, _dyno_json_next (&reader->sc, close, &more)))
    return FALSE;
  if (!more)
    {
      g_array_set_size (reader->first, reader->first->len - 1);
      reader->sc.depth--;
    }
  return more;
}

const char *
dyno_json_reader_next_member (DynoJsonReader *reader)
{
  const char *text;
  gsize len;

  g_return_val_if_fail (reader != NULL, NULL);

  _dyno_json_skip_ws (&reader->sc);
  if (!reader_more (reader, '}'))
    return NULL;
  if (!reader_check (reader, _dyno_json_read_string (&reader->sc, &text, &len)
                             && _dyno_json_expect (&reader->sc, ':', N_("\u201c:\u201d"))))
    return NULL;
  g_string_truncate (reader->name, 0);
  g_string_append_len (reader->name, text, len);
  return reader->name->str;
}

gboolean
dyno_json_reader_next_element (DynoJsonReader *reader)
{
  g_return_val_if_fail (reader != NULL, FALSE);

  _dyno_json_skip_ws (&reader->sc);
  return reader_more (reader, ']');
}

gboolean
dyno_json_reader_skip (DynoJsonReader *reader)
{
  g_return_val_if_fail (reader != NULL, FALSE);

  return !reader->failed && reader_check (reader, _dyno_json_skip_value (&reader->sc));
}

const char *
dyno_json_reader_read_string (DynoJsonReader *reader,
                              gsize          *len)
{
  const char *text;
  gsize text_len;

  g_return_val_if_fail (reader != NULL, NULL);

  if (reader->failed
      || !reader_check (reader, _dyno_json_read_string (&reader->sc, &text, &text_len)))
    return NULL;
  /* NUL-terminated for the caller: a copy (strings read in place are not) */
  g_string_truncate (reader->name, 0);
  g_string_append_len (reader->name, text, text_len);
  if (len != NULL)
    *len = text_len;
  return reader->name->str;
}

DynoItem *
dyno_json_reader_read_ddb_item (DynoJsonReader *reader)
{
  g_return_val_if_fail (reader != NULL, NULL);

  if (reader->failed
      || !reader_check (reader, _dyno_json_parse_ddb_item (&reader->sc, reader->builder)))
    return NULL;
  return _dyno_value_builder_finish_item (reader->builder);
}

gboolean
dyno_json_reader_end (DynoJsonReader *reader)
{
  g_return_val_if_fail (reader != NULL, FALSE);

  g_return_val_if_fail (reader->first->len == 0, FALSE);

  return !reader->failed && reader_check (reader, expect_end (&reader->sc));
}

const GError *
dyno_json_reader_get_error (DynoJsonReader *reader)
{
  g_return_val_if_fail (reader != NULL, NULL);

  return reader->sc.error;
}

const char *
dyno_json_object_peek_string (JsonObject *object,
                              const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

char *
dyno_json_node_dup_string (JsonNode *node,
                           gsize    *len)
{
  const char *s;

  g_return_val_if_fail (node != NULL, NULL);

  s = json_node_get_string (node);
  if (s == NULL)
    return NULL;
  return dyno_json_held_string_decode (s, len);
}

char *
dyno_json_held_string_decode (const char *s,
                              gsize      *len)
{
  GString *out;

  g_return_val_if_fail (s != NULL, NULL);

  out = g_string_new (NULL);
  for (const char *q = s; *q != '\0'; q++)
    {
      if ((guchar) q[0] == 0xC0 && (guchar) q[1] == 0x80)
        {
          g_string_append_c (out, '\0');
          q++;
        }
      else
        g_string_append_c (out, *q);
    }
  if (len != NULL)
    *len = out->len;
  return g_string_free (out, FALSE);
}

char *
dyno_json_held_string_encode (const char *bytes,
                              gsize       len)
{
  g_return_val_if_fail (bytes != NULL || len == 0, NULL);

  return tree_string (bytes != NULL ? bytes : "", len);
}

JsonNode *
dyno_json_node_new_string (const char *text,
                           gssize      len)
{
  g_autofree char *held = NULL;

  g_return_val_if_fail (text != NULL || len == 0, NULL);

  if (len < 0)
    len = strlen (text);
  held = tree_string (text != NULL ? text : "", len);
  return json_node_init_string (json_node_alloc (), held);
}

/* A string held in a tree: dyno_json_write_string() turns C0 80 into \u0000. */
static void
write_tree_string (GString    *out,
                   const char *s)
{
  dyno_json_write_string (out, s, -1);
}

static void
write_newline (GString *out,
               guint    column)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < column; i++)
    g_string_append_c (out, ' ');
}

static void
write_scalar (GString  *out,
              JsonNode *node)
{
  GType type = json_node_get_value_type (node);

  if (json_node_get_node_type (node) != JSON_NODE_VALUE)
    g_string_append (out, "null");
  else if (type == G_TYPE_STRING)
    write_tree_string (out, json_node_get_string (node));
  else if (type == G_TYPE_INT64)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
  else if (type == G_TYPE_BOOLEAN)
    g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
  else if (type == G_TYPE_DOUBLE)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      double d = json_node_get_double (node);

      /* JSON has no NaN or infinity. */
      if (!isfinite (d))
        g_string_append (out, "null");
      else
        {
          const char *text = g_ascii_dtostr (buf, sizeof buf, d);

          g_string_append (out, text);
          /* a double stays a double when read again ("-0.0", not "-0": an integer) */
          if (strpbrk (text, ".eE") == NULL)
            g_string_append (out, ".0");
        }
    }
  else
    g_string_append (out, "null");
}

/* The one writer of JSON trees.  @column is the indent of the node's line (its nesting
 * times @layout->indent); @one_line writes a nested container of a pretty document on one
 * line, a space after ',' and ':'. */
static void
write_tree (GString              *out,
            JsonNode             *node,
            const DynoJsonLayout *layout,
            guint                 column,
            gboolean              one_line)
{
  JsonNodeType type = json_node_get_node_type (node);
  gboolean breaks = layout->indent > 0 && !one_line;
  const char *comma = one_line ? ", " : ",";
  const char *colon = layout->indent > 0 ? ": " : ":";

  if (type != JSON_NODE_OBJECT && type != JSON_NODE_ARRAY)
    {
      write_scalar (out, node);
      return;
    }

  /* A nested container that fits on the rest of the line stays on it. */
  if (breaks && column > 0 && layout->inline_width > 0)
    {
      g_autoptr(GString) line = g_string_new (NULL);

      write_tree (line, node, layout, column, TRUE);
      if (line->len + column <= layout->inline_width)
        {
          g_string_append_len (out, line->str, line->len);
          return;
        }
    }

  if (type == JSON_NODE_OBJECT)
    {
      JsonObject *object = json_node_get_object (node);
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;
      gboolean first = TRUE;

      g_string_append_c (out, '{');
      json_object_iter_init_ordered (&iter, object);
      while (json_object_iter_next_ordered (&iter, &name, &member))
        {
          if (!first)
            g_string_append (out, breaks ? "," : comma);
          first = FALSE;
          if (breaks)
            write_newline (out, column + layout->indent);
          write_tree_string (out, name);
          g_string_append (out, colon);
          write_tree (out, member, layout, column + layout->indent, one_line);
        }
      if (breaks && !first)
        write_newline (out, column);
      g_string_append_c (out, '}');
    }
  else
    {
      JsonArray *array = json_node_get_array (node);
      guint n = json_array_get_length (array);

      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, breaks ? "," : comma);
          if (breaks)
            write_newline (out, column + layout->indent);
          write_tree (out, json_array_get_element (array, i), layout,
                      column + layout->indent, one_line);
        }
      if (breaks && n > 0)
        write_newline (out, column);
      g_string_append_c (out, ']');
    }
}

void
dyno_json_write_node_layout (GString              *out,
                             JsonNode             *node,
                             const DynoJsonLayout *layout)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (node != NULL);
  g_return_if_fail (layout != NULL);

  write_tree (out, node, layout, 0, FALSE);
}

void
dyno_json_write_node (GString  *out,
                      JsonNode *node,
                      gboolean  pretty)
{
  DynoJsonLayout layout = { pretty ? 2 : 0, 0 };

  g_return_if_fail (out != NULL);
  g_return_if_fail (node != NULL);

  write_tree (out, node, &layout, 0, FALSE);
}

char *
dyno_json_node_to_string (JsonNode *node,
                          gboolean  pretty)
{
  GString *out;

  g_return_val_if_fail (node != NULL, NULL);

  out = g_string_new (NULL);
  dyno_json_write_node (out, node, pretty);
  return g_string_free (out, FALSE);
}
