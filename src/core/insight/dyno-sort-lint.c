/* dyno-sort-lint.c: where a key lands in its collection, and keys whose form breaks the
 * intended order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-sort-lint.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-insight.h"

/* Delimiters that can follow an entity tag (the tag itself may hold '_'). */
static const char tag_delimiters[] = "#|:/~-.";

void
dyno_sort_lint_free (DynoSortLint *lint)
{
  if (lint == NULL)
    return;

  g_free (lint->key);
  g_free (lint->other);
  g_free (lint->message);
  g_free (lint);
}

const char *
dyno_sort_lint_kind_to_string (DynoSortLintKind kind)
{
  static const char * const names[] = {
    [DYNO_SORT_LINT_UNPADDED_NUMBER] = "unpadded-number",
    [DYNO_SORT_LINT_NON_ISO_DATE] = "non-iso-date",
    [DYNO_SORT_LINT_MIXED_DELIMITERS] = "mixed-delimiters",
    [DYNO_SORT_LINT_PREFIX_OF_OTHER_ENTITY] = "prefix-of-other-entity",
    [DYNO_SORT_LINT_RAW_UUID] = "raw-uuid",
    [DYNO_SORT_LINT_MIXED_CASE] = "mixed-case",
    [DYNO_SORT_LINT_MIXED_TIME_ZONES] = "mixed-time-zones",
  };

  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (names), NULL);
  return names[kind];
}

static void
add_lint (GPtrArray        *lints,
          DynoSortLintKind  kind,
          const char       *key,
          gsize             offset,
          gsize             length,
          const char       *other,
          char             *message)
{
  DynoSortLint *lint = g_new0 (DynoSortLint, 1);

  lint->kind = kind;
  lint->key = g_strdup (key);
  lint->offset = offset;
  lint->length = length;
  lint->other = g_strdup (other);
  lint->message = message;
  g_ptr_array_add (lints, lint);
}

/* ---- unpadded numbers -------------------------------------------------------------------- */

static gsize
digit_run (const char *s)
{
  gsize n = 0;

  while (g_ascii_isdigit (s[n]))
    n++;
  return n;
}

/* Numeric order of two digit runs. */
static int
compare_runs (const char *a,
              gsize       alen,
              const char *b,
              gsize       blen)
{
  int c;

  while (alen > 1 && *a == '0')
    a++, alen--;
  while (blen > 1 && *b == '0')
    b++, blen--;
  if (alen != blen)
    return alen < blen ? -1 : 1;
  c = memcmp (a, b, alen);
  return c < 0 ? -1 : c > 0;
}

static int
sign (int v)
{
  return v < 0 ? -1 : v > 0;
}

/* Compares @key and @other as a person would read them (numbers as numbers) and as DynamoDB
 * does (bytes); TRUE with the run of @key where they first disagree. */
static gboolean
number_order_breaks (const char *key,
                     const char *other,
                     gsize      *run_offset,
                     gsize      *run_length,
                     gsize      *other_offset,
                     gsize      *other_length)
{
  gsize i = 0, j = 0;

  while (key[i] != '\0' && other[j] != '\0')
    {
      if (g_ascii_isdigit (key[i]) && g_ascii_isdigit (other[j]))
        {
          gsize a = digit_run (key + i);
          gsize b = digit_run (other + j);
          gboolean fraction = i > 0 && key[i - 1] == '.' && j > 0 && other[j - 1] == '.';

          if (a == b && memcmp (key + i, other + j, a) == 0)
            {
              i += a;
              j += b;
              continue;
            }
          if (fraction)
            return FALSE;  /* 1.5 vs 1.25: digits after a point compare as text correctly */
          if (sign (compare_runs (key + i, a, other + j, b)) != sign (strcmp (key + i, other + j)))
            {
              *run_offset = i;
              *run_length = a;
              *other_offset = j;
              *other_length = b;
              return TRUE;
            }
          return FALSE;
        }
      if (key[i] != other[j])
        return FALSE;
      i++;
      j++;
    }

  return FALSE;
}

static void
check_unpadded (GPtrArray          *lints,
                const char         *key,
                const char * const *samples,
                guint               n_samples)
{
  for (guint s = 0; s < n_samples; s++)
    {
      gsize offset, length, other_offset, other_length;
      g_autofree char *padded = NULL;
      g_autofree char *number = NULL;
      g_autofree char *other_number = NULL;
      gsize width;
      const char *first, *second;

      if (samples[s] == NULL || !number_order_breaks (key, samples[s], &offset, &length,
                                                      &other_offset, &other_length))
        continue;

      number = g_strndup (key + offset, length);
      other_number = g_strndup (samples[s] + other_offset, other_length);
      width = MAX (MAX (length, other_length), 4);
      padded = g_strdup_printf ("%.*s%0*d%s%s", (int) offset, key, (int) (width - length), 0,
                                number, key + offset + length);
      if (width == length)
        {
          g_free (padded);
          padded = g_strdup (key);
        }
      /* Which one sorts first as bytes. */
      first = strcmp (key, samples[s]) < 0 ? key : samples[s];
      second = first == key ? samples[s] : key;
      add_lint (lints, DYNO_SORT_LINT_UNPADDED_NUMBER, key, offset, length, samples[s],
                /* Translators: two keys, then the two numbers in them. */
                g_strdup_printf (_("%s sorts before %s: DynamoDB compares string keys byte by "
                                   "byte, so the numbers %s and %s compare as text, not as "
                                   "numbers.  Pad numbers in keys with zeros to one fixed width "
                                   "(%s)."), first, second, number, other_number, padded));
      return;
    }
}

/* ---- dates ------------------------------------------------------------------------------- */

static const char * const month_names[] = {
  "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
};

static gboolean
digit_at (const char *key,
          gsize       len,
          gssize      i)
{
  return i >= 0 && (gsize) i < len && g_ascii_isdigit (key[i]);
}

static void
check_dates (GPtrArray  *lints,
             const char *key)
{
  gsize len = strlen (key);

  for (gsize i = 0; i < len; i++)
    {
      gsize a, b, c;
      char sep1, sep2;

      if (!g_ascii_isdigit (key[i]) || digit_at (key, len, (gssize) i - 1))
        continue;

      a = digit_run (key + i);
      sep1 = key[i + a];
      if (sep1 != '/' && sep1 != '-' && sep1 != '.')
        goto times;
      b = digit_run (key + i + a + 1);
      if (b == 0 || b > 2)
        goto times;
      sep2 = key[i + a + 1 + b];
      if (sep2 != sep1)
        goto times;
      c = digit_run (key + i + a + 1 + b + 1);

      /* 6/23/2026, 23-06-2026, 23.06.26: day or month first */
      if (a <= 2 && (c == 4 || c == 2))
        {
          gsize total = a + 1 + b + 1 + c;
          int x = atoi (key + i), y = atoi (key + i + a + 1), year = atoi (key + i + a + 1 + b + 1);
          int month, day;
          g_autofree char *text = g_strndup (key + i, total);

          if (c == 2)
            year += 2000;
          if (x > 12)
            day = x, month = y;
          else if (y > 12)
            month = x, day = y;
          else if (sep1 == '/')
            month = x, day = y;
          else
            day = x, month = y;
          add_lint (lints, DYNO_SORT_LINT_NON_ISO_DATE, key, i, total, NULL,
                    g_strdup_printf (_("%s is not an ISO 8601 date: as text it sorts by its "
                                       "first field, not by year, month and day.  Write dates "
                                       "year first with padded fields (%04d-%02d-%02d)."), text,
                                     year, month, day));
          return;
        }
      /* 2026-6-3: year first but a field is not padded */
      if (a == 4 && c >= 1 && c <= 2 && (b == 1 || c == 1))
        {
          gsize total = a + 1 + b + 1 + c;
          g_autofree char *text = g_strndup (key + i, total);

          add_lint (lints, DYNO_SORT_LINT_NON_ISO_DATE, key, i, total, NULL,
                    g_strdup_printf (_("%s has a month or day without its leading zero, so "
                                       "%.4s%c10 sorts before %.4s%c9.  Pad them to two digits "
                                       "(%.4s%c%02d%c%02d)."), text, key + i, sep1, key + i, sep1,
                                     key + i, sep1,
                                     atoi (key + i + a + 1), sep1,
                                     atoi (key + i + a + 1 + b + 1)));
          return;
        }
times:
      /* 9:05 PM */
      if (a <= 2 && key[i + a] == ':' && digit_run (key + i + a + 1) == 2)
        {
          gsize k = i + a + 3;

          if (key[k] == ':' && digit_run (key + k + 1) == 2)
            k += 3;
          if (key[k] == ' ')
            k++;
          if ((key[k] == 'a' || key[k] == 'A' || key[k] == 'p' || key[k] == 'P')
              && (key[k + 1] == 'm' || key[k + 1] == 'M'))
            {
              g_autofree char *text = g_strndup (key + i, k + 2 - i);

              add_lint (lints, DYNO_SORT_LINT_NON_ISO_DATE, key, i, k + 2 - i, NULL,
                        g_strdup_printf (_("%s is a 12-hour time: as text, 1:00 PM sorts before "
                                           "9:00 AM.  Use 24-hour ISO 8601 times (13:00)."),
                                         text));
              return;
            }
        }
    }

  /* month names: Jun 23 2026, 23 June 2026 */
  for (gsize i = 0; i + 3 <= len; i++)
    {
      if (!g_ascii_isalpha (key[i]) || (i > 0 && g_ascii_isalpha (key[i - 1])))
        continue;
      for (guint m = 0; m < G_N_ELEMENTS (month_names); m++)
        {
          gsize word = 0;
          gboolean has_year = FALSE;

          if (g_ascii_strncasecmp (key + i, month_names[m], 3) != 0)
            continue;
          while (g_ascii_isalpha (key[i + word]))
            word++;
          if (word != 3 && !(word > 3 && word <= 9))
            continue;
          /* a 4-digit year close by */
          for (gsize k = (i > 12 ? i - 12 : 0); k < MIN (len, i + word + 12); k++)
            if (digit_run (key + k) == 4 && (k == 0 || !g_ascii_isdigit (key[k - 1])))
              has_year = TRUE;
          if (!has_year)
            continue;
          {
            g_autofree char *text = g_strndup (key + i, word);

            add_lint (lints, DYNO_SORT_LINT_NON_ISO_DATE, key, i, word, NULL,
                      g_strdup_printf (_("The date with the month name %s sorts alphabetically "
                                         "(Apr before Jan).  Write dates as ISO 8601 "
                                         "(YYYY-MM-DD)."), text));
            return;
          }
        }
    }
}

/* The zone of the first ISO 8601 date-time in @key: "Z", "+02:00", "" (none), or NULL when
 * the key has no date-time. */
static char *
iso_zone (const char *key,
          gsize      *offset,
          gsize      *length)
{
  gsize len = strlen (key);

  for (gsize i = 0; i + 16 <= len; i++)
    {
      const char *p = key + i;
      gsize k;

      if (!(digit_run (p) == 4 && p[4] == '-' && digit_run (p + 5) == 2 && p[7] == '-'
            && digit_run (p + 8) == 2 && (p[10] == 'T' || p[10] == ' ')
            && digit_run (p + 11) == 2 && p[13] == ':' && digit_run (p + 14) == 2))
        continue;
      k = 16;
      if (p[k] == ':' && digit_run (p + k + 1) == 2)
        k += 3;
      if (p[k] == '.' && g_ascii_isdigit (p[k + 1]))
        k += 1 + digit_run (p + k + 1);
      *offset = i;
      if (p[k] == 'Z')
        {
          *length = k + 1;
          return g_strdup ("Z");
        }
      if ((p[k] == '+' || p[k] == '-') && digit_run (p + k + 1) == 2)
        {
          gsize z = 3;

          if (p[k + 3] == ':' && digit_run (p + k + 4) == 2)
            z = 6;
          else if (digit_run (p + k + 3) == 2)
            z = 5;
          *length = k + z;
          return g_strndup (p + k, z);
        }
      *length = k;
      return g_strdup ("");
    }

  return NULL;
}

static void
check_time_zones (GPtrArray          *lints,
                  const char         *key,
                  const char * const *samples,
                  guint               n_samples)
{
  gsize offset, length, o2, l2;
  g_autofree char *zone = iso_zone (key, &offset, &length);

  if (zone == NULL)
    return;

  for (guint s = 0; s < n_samples; s++)
    {
      g_autofree char *other = samples[s] != NULL ? iso_zone (samples[s], &o2, &l2) : NULL;

      if (other == NULL || strcmp (other, zone) == 0)
        continue;
      add_lint (lints, DYNO_SORT_LINT_MIXED_TIME_ZONES, key, offset, length, samples[s],
                /* Translators: two keys, then their two time zones. */
                g_strdup_printf (_("%s and %s write their times with different time zones "
                                   "(%s and %s): as text they sort by local clock time, not by "
                                   "instant.  Store every time in UTC with a Z."), key, samples[s],
                                 *zone ? zone : "none", *other ? other : "none"));
      return;
    }
}

/* ---- delimiters, entities, case ---------------------------------------------------------- */

/* The leading tag ([A-Za-z][A-Za-z0-9_]*) and the delimiter after it ('\0' when none). */
static gsize
leading_tag (const char *key,
             char       *out_delimiter)
{
  gsize n = 0;

  *out_delimiter = '\0';
  if (!g_ascii_isalpha (key[0]))
    return 0;
  while (g_ascii_isalnum (key[n]) || key[n] == '_')
    n++;
  if (key[n] != '\0' && strchr (tag_delimiters, key[n]) != NULL)
    *out_delimiter = key[n];
  return n;
}

static void
check_delimiters (GPtrArray          *lints,
                  const char         *key,
                  const char * const *samples,
                  guint               n_samples,
                  char                dominant)
{
  char mine;
  gsize tag_len = leading_tag (key, &mine);
  const char *example = NULL;

  if (mine == '\0' || dominant == '\0' || mine == dominant)
    return;

  for (guint s = 0; s < n_samples; s++)
    {
      char theirs;
      gsize their_len;

      if (samples[s] == NULL)
        continue;
      their_len = leading_tag (samples[s], &theirs);
      if (theirs != dominant)
        continue;
      /* the same entity with the other delimiter is the best example */
      if (their_len == tag_len && strncmp (samples[s], key, tag_len) == 0)
        {
          example = samples[s];
          break;
        }
      if (example == NULL)
        example = samples[s];
    }
  if (example == NULL)
    return;

  add_lint (lints, DYNO_SORT_LINT_MIXED_DELIMITERS, key, tag_len, 1, example,
            /* Translators: the key, its delimiter, the entity before it, the usual delimiter,
             * examples, then the two delimiters again. */
            g_strdup_printf (_("%s uses '%c' after %.*s where the other keys use '%c' (%s): "
                               "'%c' and '%c' sort apart, so these keys do not group together "
                               "and begins_with(\"%.*s%c\") misses %s.  Use one delimiter "
                               "throughout."), key, mine, (int) tag_len, key, dominant, example,
                             mine, dominant, (int) tag_len, key, dominant, key));
}

static void
check_entities (GPtrArray          *lints,
                const char         *key,
                const char * const *samples,
                guint               n_samples,
                char                delimiter,
                gboolean            check_prefix,
                gboolean            check_case)
{
  g_autofree char *mine = dyno_insight_entity_prefix (key, delimiter);
  gboolean prefix_done = !check_prefix, case_done = !check_case;

  if (mine == NULL)
    return;

  for (guint s = 0; s < n_samples && !(prefix_done && case_done); s++)
    {
      g_autofree char *theirs = samples[s] != NULL
                                ? dyno_insight_entity_prefix (samples[s], delimiter) : NULL;
      const char *shorter, *longer;

      if (theirs == NULL || strcmp (theirs, mine) == 0)
        continue;

      if (!case_done && g_ascii_strcasecmp (theirs, mine) == 0)
        {
          add_lint (lints, DYNO_SORT_LINT_MIXED_CASE, key, 0, strlen (mine), samples[s],
                    /* Translators: two keys, then the entity. */
                    g_strdup_printf (_("%s and %s spell the entity %s in different case: "
                                       "every upper-case letter sorts before every lower-case "
                                       "one, and begins_with is case-sensitive.  Use one "
                                       "spelling."), key, samples[s], mine));
          case_done = TRUE;
          continue;
        }

      if (prefix_done)
        continue;
      if (g_str_has_prefix (theirs, mine))
        shorter = mine, longer = theirs;
      else if (g_str_has_prefix (mine, theirs))
        shorter = theirs, longer = mine;
      else
        continue;
      add_lint (lints, DYNO_SORT_LINT_PREFIX_OF_OTHER_ENTITY, key, 0, strlen (mine), samples[s],
                /* Translators: the shorter entity, the longer one, the prefix, the longer
                 * entity, examples, then the prefix with its delimiter. */
                g_strdup_printf (_("The entity %s is a prefix of %s: begins_with(\"%s\") also "
                                   "matches %s keys (%s).  Query with the delimiter: "
                                   "begins_with(\"%s%c\")."), shorter, longer, shorter, longer,
                                 shorter == mine ? samples[s] : key, shorter, delimiter));
      prefix_done = TRUE;
    }
}

/* ---- UUIDs ------------------------------------------------------------------------------- */

static gboolean
is_uuid_at (const char *p)
{
  static const int groups[] = { 8, 4, 4, 4, 12 };
  gsize k = 0;

  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      for (int n = 0; n < groups[g]; n++, k++)
        if (!g_ascii_isxdigit (p[k]))
          return FALSE;
      if (g < 4 && p[k++] != '-')
        return FALSE;
    }
  return !g_ascii_isxdigit (p[k]) && p[k] != '-';
}

static void
check_uuid (GPtrArray  *lints,
            const char *key)
{
  gsize len = strlen (key);

  for (gsize i = 0; i + 36 <= len; i++)
    {
      char version;

      if ((i > 0 && (g_ascii_isxdigit (key[i - 1]) || key[i - 1] == '-')) || !is_uuid_at (key + i))
        continue;
      version = key[i + 14];
      /* versions 6 and 7 put the time first: they sort by creation */
      if (version == '6' || version == '7')
        return;
      add_lint (lints, DYNO_SORT_LINT_RAW_UUID, key, i, 36, NULL,
                /* Translators: the UUID, its kind ("random (version 4)", "version 1" or "non
                 * time-ordered"), then "scrambled" or "random". */
                g_strdup_printf (_("%.36s is a %s UUID: items sorted by it come in %s order, not "
                                   "in the order they were made.  If you meant creation order, "
                                   "put an ISO 8601 timestamp first, or use a UUIDv7 or a ULID."),
                                 key + i, version == '4' ? _("random (version 4)")
                                          : version == '1' ? _("version 1")
                                          : _("non time-ordered"),
                                 version == '1' ? _("scrambled") : _("random")));
      return;
    }
}

/* ---- entry points ------------------------------------------------------------------------ */

GPtrArray *
dyno_sort_lint_check (const char         *key,
                      const char * const *samples,
                      guint               n_samples,
                      char                delimiter,
                      gboolean            is_sort_key)
{
  GPtrArray *lints = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_sort_lint_free);
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  g_return_val_if_fail (key != NULL, lints);
  g_return_val_if_fail (samples != NULL || n_samples == 0, lints);

  for (guint i = 0; i < n_samples; i++)
    if (samples[i] != NULL && strcmp (samples[i], key) != 0)
      g_ptr_array_add (all, (gpointer) samples[i]);

  if (delimiter == '\0')
    {
      g_ptr_array_add (all, (gpointer) key);
      delimiter = dyno_insight_infer_delimiter ((const char * const *) all->pdata, all->len);
      g_ptr_array_remove_index (all, all->len - 1);
    }

  if (is_sort_key)
    {
      check_unpadded (lints, key, (const char * const *) all->pdata, all->len);
      check_dates (lints, key);
      check_time_zones (lints, key, (const char * const *) all->pdata, all->len);
    }
  check_delimiters (lints, key, (const char * const *) all->pdata, all->len, delimiter);
  if (delimiter != '\0')
    check_entities (lints, key, (const char * const *) all->pdata, all->len, delimiter, TRUE,
                    TRUE);
  if (is_sort_key)
    check_uuid (lints, key);

  return lints;
}

guint
dyno_sort_lint_insertion_index (const DynoValue * const *sorted,
                                guint                    n_sorted,
                                const DynoValue         *key,
                                gboolean                *out_equal)
{
  guint lo = 0, hi = n_sorted;

  g_return_val_if_fail (key != NULL, 0);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (dyno_value_compare (sorted[mid], key) <= 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (out_equal != NULL)
    *out_equal = lo > 0 && dyno_value_compare (sorted[lo - 1], key) == 0;

  return lo;
}

void
dyno_sort_placement_free (DynoSortPlacement *placement)
{
  if (placement == NULL)
    return;

  g_clear_pointer (&placement->before, dyno_item_unref);
  g_clear_pointer (&placement->after, dyno_item_unref);
  g_clear_pointer (&placement->lints, g_ptr_array_unref);
  g_free (placement);
}

typedef struct {
  const char *sort_key;
} SortContext;

static int
compare_by_sort_key (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const SortContext *context = user_data;
  DynoItem *x = *(DynoItem * const *) a;
  DynoItem *y = *(DynoItem * const *) b;

  return dyno_value_compare (dyno_item_lookup (x, context->sort_key),
                             dyno_item_lookup (y, context->sort_key));
}

static void
append_lints (GPtrArray *into,
              GPtrArray *from)
{
  for (guint i = 0; i < from->len; i++)
    g_ptr_array_add (into, g_ptr_array_index (from, i));
  g_ptr_array_set_free_func (from, NULL);
  g_ptr_array_unref (from);
}

DynoSortPlacement *
dyno_sort_lint_place_item (const DynoTableInfo  *schema,
                           const char           *index_name,
                           DynoItem             *item,
                           GPtrArray            *samples,
                           GError              **error)
{
  g_autoptr(DynoSortPlacement) placement = g_new0 (DynoSortPlacement, 1);
  g_autoptr(GPtrArray) collection = g_ptr_array_new ();
  g_autoptr(GPtrArray) pk_samples = g_ptr_array_new ();
  g_autoptr(GPtrArray) sk_samples = g_ptr_array_new ();
  const DynoKeyAttr *pk, *sk;
  const DynoValue *pk_value, *sk_value = NULL;
  SortContext context;

  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (item != NULL, NULL);

  placement->lints = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_sort_lint_free);

  if (index_name != NULL)
    {
      const DynoIndexInfo *index = dyno_table_info_find_index (schema, index_name);

      if (index == NULL)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       /* Translators: the table, then the index. */
                       _("The table %s has no index %s."), dyno_table_info_get_name (schema),
                       index_name);
          return NULL;
        }
      pk = &index->partition_key;
      sk = index->sort_key.name != NULL ? &index->sort_key : NULL;
    }
  else
    {
      pk = dyno_table_info_get_partition_key (schema);
      sk = dyno_table_info_get_sort_key (schema);
      if (sk != NULL && sk->name == NULL)
        sk = NULL;
    }

  pk_value = dyno_item_lookup (item, pk->name);
  if (sk != NULL)
    sk_value = dyno_item_lookup (item, sk->name);
  if (pk_value == NULL || (sk != NULL && sk_value == NULL))
    {
      if (index_name != NULL)
        return g_steal_pointer (&placement);  /* not in the index: a sparse index */
      if (pk_value == NULL)
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                     _("The item has no partition key %s."), pk->name);
      else
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                     _("The item has no sort key %s."), sk->name);
      return NULL;
    }

  for (guint i = 0; samples != NULL && i < samples->len; i++)
    {
      DynoItem *sample = g_ptr_array_index (samples, i);
      const DynoValue *spk = dyno_item_lookup (sample, pk->name);
      const DynoValue *ssk = sk != NULL ? dyno_item_lookup (sample, sk->name) : NULL;

      if (spk != NULL && dyno_value_get_kind (spk) == DYNO_VALUE_S)
        g_ptr_array_add (pk_samples, (gpointer) dyno_value_get_string (spk, NULL));
      if (ssk != NULL && dyno_value_get_kind (ssk) == DYNO_VALUE_S)
        g_ptr_array_add (sk_samples, (gpointer) dyno_value_get_string (ssk, NULL));
      if (spk == NULL || !dyno_value_equal (spk, pk_value) || (sk != NULL && ssk == NULL))
        continue;
      g_ptr_array_add (collection, sample);
    }

  placement->n_items = collection->len;
  if (sk == NULL)
    {
      placement->replaces = collection->len > 0;
      placement->position = 0;
    }
  else
    {
      g_autofree const DynoValue **keys = NULL;
      gboolean equal = FALSE;
      guint at;

      context.sort_key = sk->name;
      g_ptr_array_sort_with_data (collection, compare_by_sort_key, &context);
      keys = g_new (const DynoValue *, collection->len + 1);
      for (guint i = 0; i < collection->len; i++)
        keys[i] = dyno_item_lookup (g_ptr_array_index (collection, i), sk->name);
      at = dyno_sort_lint_insertion_index (keys, collection->len, sk_value, &equal);
      placement->replaces = equal;
      placement->position = equal ? at - 1 : at;
      if (placement->position > 0)
        placement->before = dyno_item_ref (g_ptr_array_index (collection,
                                                              placement->position - 1));
      if (at < collection->len)
        placement->after = dyno_item_ref (g_ptr_array_index (collection, at));
    }

  if (sk_value != NULL && dyno_value_get_kind (sk_value) == DYNO_VALUE_S)
    append_lints (placement->lints,
                  dyno_sort_lint_check (dyno_value_get_string (sk_value, NULL),
                                        (const char * const *) sk_samples->pdata,
                                        sk_samples->len, '\0', TRUE));
  if (dyno_value_get_kind (pk_value) == DYNO_VALUE_S)
    append_lints (placement->lints,
                  dyno_sort_lint_check (dyno_value_get_string (pk_value, NULL),
                                        (const char * const *) pk_samples->pdata,
                                        pk_samples->len, '\0', FALSE));

  return g_steal_pointer (&placement);
}
