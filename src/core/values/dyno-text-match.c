/* dyno-text-match.c: does an item hold some text?
 *
 * The filter runs over every loaded item (a million of them, the issue says, in under
 * 100 ms), so it reads the encoded values in place: no JSON, no copies, no allocation for a
 * text of ASCII only.  A text with other letters is folded with GLib's Unicode case folding,
 * and so is each string holding bytes above 0x7F (an ASCII-only string cannot contain such a
 * text).  For a text of ASCII only, a string is folded only when it holds one of the few
 * letters whose folding is ASCII (ß is "ss", the Kelvin sign "k", …): folding every non-ASCII
 * string would make a search of Japanese or Greek data a hundred times slower.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-text-match.h"
#include "dyno-value-private.h"

struct _DynoTextMatcher {
  char   *text;     /* as typed */
  char   *folded;   /* NFC, case folded */
  gsize   len;      /* of folded */
  gboolean ascii;   /* folded is ASCII only: the byte path */
};

static guint8 ascii_fold[256];

static void
init_fold_table (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (guint c = 0; c < 256; c++)
        ascii_fold[c] = (c >= 'A' && c <= 'Z') ? (guint8) (c - 'A' + 'a') : (guint8) c;
      g_once_init_leave (&done, 1);
    }
}

static char *
fold_text (const char *text,
           gssize      len)
{
  g_autofree char *composed = g_utf8_normalize (text, len, G_NORMALIZE_DEFAULT_COMPOSE);

  /* not valid UTF-8: searched as the bytes it is */
  if (composed == NULL)
    return len < 0 ? g_strdup (text) : g_strndup (text, len);
  return g_utf8_casefold (composed, -1);
}

DynoTextMatcher *
dyno_text_matcher_new (const char *text)
{
  DynoTextMatcher *self;

  g_return_val_if_fail (text != NULL, NULL);

  if (*text == '\0')
    return NULL;

  init_fold_table ();
  self = g_new0 (DynoTextMatcher, 1);
  self->text = g_strdup (text);
  self->folded = fold_text (text, -1);
  self->len = strlen (self->folded);
  self->ascii = TRUE;
  for (const guint8 *p = (const guint8 *) self->folded; *p != '\0'; p++)
    if (*p >= 0x80)
      self->ascii = FALSE;
  if (self->ascii)
    for (char *p = self->folded; *p != '\0'; p++)
      *p = (char) ascii_fold[(guint8) *p];

  return self;
}

void
dyno_text_matcher_free (DynoTextMatcher *self)
{
  if (self == NULL)
    return;
  g_free (self->text);
  g_free (self->folded);
  g_free (self);
}

const char *
dyno_text_matcher_get_text (const DynoTextMatcher *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->text;
}

/* The folded text among @len bytes at @data, ASCII letters folded on the way. */
static gboolean
find_ascii (const DynoTextMatcher *self,
            const guint8          *data,
            gsize                  len)
{
  const guint8 *needle = (const guint8 *) self->folded;
  guint8 first = needle[0];
  gsize k = self->len;

  if (len < k)
    return FALSE;

  for (gsize i = 0, last = len - k; i <= last; i++)
    {
      gsize j;

      if (ascii_fold[data[i]] != first)
        continue;
      for (j = 1; j < k && ascii_fold[data[i + j]] == needle[j]; j++)
        ;
      if (j == k)
        return TRUE;
    }
  return FALSE;
}

static gboolean
find_unicode (const DynoTextMatcher *self,
              const guint8          *data,
              gsize                  len)
{
  g_autofree char *folded = NULL;
  gboolean high = FALSE;

  for (gsize i = 0; i < len && !high; i++)
    high = data[i] >= 0x80;
  /* folding keeps ASCII ASCII: an ASCII-only string cannot hold a text that is not (a
   * string with a U+0000 in it is searched up to there) */
  if (!high)
    return FALSE;

  folded = fold_text ((const char *) data, (gssize) len);
  return strstr (folded, self->folded) != NULL;
}

/* Whether @data holds a letter that case folding turns into ASCII letters: ß U+00DF,
 * İ U+0130, ſ U+017F, ẞ U+1E9E, K U+212A, the ligatures U+FB00–U+FB06.  Their UTF-8 forms. */
static gboolean
folds_to_ascii (const guint8 *data,
                gsize         len)
{
  for (gsize i = 0; i + 1 < len; i++)
    {
      guint8 a = data[i], b = data[i + 1];

      if (a < 0xC3)
        continue;
      if ((a == 0xC3 && b == 0x9F) || (a == 0xC4 && b == 0xB0) || (a == 0xC5 && b == 0xBF))
        return TRUE;
      if (i + 2 < len)
        {
          guint8 c = data[i + 2];

          if ((a == 0xE1 && b == 0xBA && c == 0x9E) || (a == 0xE2 && b == 0x84 && c == 0xAA)
              || (a == 0xEF && b == 0xAC && c >= 0x80 && c <= 0x86))
            return TRUE;
        }
    }
  return FALSE;
}

static gboolean
find_text (const DynoTextMatcher *self,
           const guint8          *data,
           gsize                  len)
{
  if (!self->ascii)
    return find_unicode (self, data, len);
  return find_ascii (self, data, len)
         || (folds_to_ascii (data, len) && find_unicode (self, data, len));
}

static gboolean
match_encoded (const DynoTextMatcher *self,
               const guint8          *p)
{
  switch ((DynoValueType) p[0])
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
      return find_text (self, dyno_record_data (p + 1), dyno_record_len (p + 1));

    case DYNO_VALUE_M:
    case DYNO_VALUE_L:
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
      {
        guint32 n = dyno_container_n (p);

        for (guint32 i = 0; i < n; i++)
          {
            const guint8 *child = dyno_container_entry (p, i);

            /* a member record: <len>[name][NUL], then the value */
            if (p[0] == DYNO_VALUE_M)
              child = dyno_record_data (child) + dyno_record_len (child) + 1;
            if (match_encoded (self, child))
              return TRUE;
          }
        return FALSE;
      }

    case DYNO_VALUE_B:
    case DYNO_VALUE_BS:
    case DYNO_VALUE_BOOL:
    case DYNO_VALUE_NULL:
    default:
      return FALSE;
    }
}

gboolean
dyno_text_matcher_match_value (const DynoTextMatcher *self,
                               const DynoValue       *value)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  return match_encoded (self, (const guint8 *) value);
}

gboolean
dyno_text_matcher_match_item (const DynoTextMatcher *self,
                              const DynoItem        *item)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (item != NULL, FALSE);

  return match_encoded (self, (const guint8 *) dyno_item_get_map (item));
}
