/* dyno-insight.c: reading overloaded keys (delimiters, entity prefixes) and capacity
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-insight.h"

static const char delimiters[] = "#|:/~_-.";

#define MAX_PREFIX_BYTES 32

static gboolean
is_tag (const char *start,
        gsize       len)
{
  if (len == 0 || len > MAX_PREFIX_BYTES || !g_ascii_isalpha (start[0]))
    return FALSE;

  for (gsize i = 1; i < len; i++)
    if (!g_ascii_isalnum (start[i]) && start[i] != '_')
      return FALSE;

  return TRUE;
}

char
dyno_insight_infer_delimiter (const char * const *keys,
                              guint               n_keys)
{
  guint counts[sizeof delimiters] = { 0, };
  guint best = 0;
  char best_delimiter = '\0';

  if (n_keys == 0)
    return '\0';

  for (guint k = 0; k < n_keys; k++)
    {
      const char *key = keys[k];

      if (key == NULL)
        continue;

      for (guint d = 0; delimiters[d] != '\0'; d++)
        {
          const char *hit = strchr (key, delimiters[d]);

          /* '_' and '-' also appear inside ids (u_3001): count them only after a tag. */
          if (hit != NULL && hit > key && is_tag (key, hit - key))
            counts[d]++;
          else if (hit != NULL && hit > key && delimiters[d] != '_' && delimiters[d] != '-')
            counts[d]++;
        }
    }

  for (guint d = 0; delimiters[d] != '\0'; d++)
    if (counts[d] > best)
      {
        best = counts[d];
        best_delimiter = delimiters[d];
      }

  if (best * 2 < n_keys)
    return '\0';

  return best_delimiter;
}

char *
dyno_insight_entity_prefix (const char *key,
                            char        delimiter)
{
  const char *hit;

  if (key == NULL || delimiter == '\0')
    return NULL;

  hit = strchr (key, delimiter);
  if (hit == NULL || !is_tag (key, hit - key))
    return NULL;

  return g_strndup (key, hit - key);
}

GStrv
dyno_insight_split_key (const char *key,
                        char        delimiter)
{
  char separator[2] = { delimiter, '\0' };

  if (key == NULL)
    return g_new0 (char *, 1);
  if (delimiter == '\0')
    {
      char **result = g_new0 (char *, 2);
      result[0] = g_strdup (key);
      return result;
    }

  return g_strsplit (key, separator, -1);
}

guint
dyno_insight_entity_color (const char *entity)
{
  return entity ? g_str_hash (entity) % 8 : 0;
}

double
dyno_insight_query_rcu (const gsize *sizes,
                        guint        n_sizes,
                        gboolean     consistent)
{
  guint64 total = 0;
  guint64 blocks;

  for (guint i = 0; i < n_sizes; i++)
    total += sizes[i];

  blocks = (total + 4095) / 4096;
  if (blocks == 0)
    blocks = 1;

  return consistent ? (double) blocks : blocks * 0.5;
}

double
dyno_insight_get_item_rcu (const gsize *sizes,
                           guint        n_sizes,
                           gboolean     consistent)
{
  guint64 blocks = 0;

  for (guint i = 0; i < n_sizes; i++)
    blocks += MAX ((sizes[i] + 4095) / 4096, 1);

  return consistent ? (double) blocks : blocks * 0.5;
}
