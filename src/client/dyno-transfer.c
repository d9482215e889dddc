/* dyno-transfer.c: what imports and exports share: the rows an import did not write, counts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-transfer.h"

#include <string.h>

const char *
dyno_transfer_row_status_to_string (DynoTransferRowStatus status)
{
  switch (status)
    {
    case DYNO_TRANSFER_ROW_REJECTED:
      return "rejected";
    case DYNO_TRANSFER_ROW_FAILED:
      return "failed";
    case DYNO_TRANSFER_ROW_NOT_WRITTEN:
    default:
      return "not-written";
    }
}

void
dyno_transfer_row_free (DynoTransferRow *row)
{
  if (row == NULL)
    return;
  g_free (row->reason);
  g_free (row);
}

char *
dyno_transfer_format_count (guint64 n)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
  GString *out = g_string_new (NULL);
  gsize len = strlen (digits);

  /* Grouped by ',' as the summaries in the brief show; locales differ, but a grouped number
   * reads better than none and stays unambiguous next to the words. */
  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}
