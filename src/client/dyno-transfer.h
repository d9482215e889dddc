/* dyno-transfer.h: what imports (dyno-import-job.h) and exports (dyno-export-job.h) share:
 * the rows an import did not write, counts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* ---- rows the import did not write ------------------------------------------------------- */

typedef enum {
  DYNO_TRANSFER_ROW_REJECTED,    /* not a valid item for the table (or refused by the server
                                  * as invalid): never written */
  DYNO_TRANSFER_ROW_FAILED,      /* the server failed (throttled beyond retries, network, the
                                  * table gone): not written */
  DYNO_TRANSFER_ROW_NOT_WRITTEN, /* read, but the import stopped (Cancel, a failure) before
                                  * its batch was sent */
} DynoTransferRowStatus;

/* "rejected", "failed", "not-written" */
const char *dyno_transfer_row_status_to_string (DynoTransferRowStatus status);

typedef struct {
  guint64                row;     /* 1-based record number (see DynoImportReject) */
  guint64                line;    /* 1-based input line where the record starts */
  DynoTransferRowStatus  status;
  char                  *reason;  /* a sentence */
} DynoTransferRow;

void dyno_transfer_row_free (DynoTransferRow *row);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoTransferRow, dyno_transfer_row_free)

/* "12,345" (thousands grouped by the locale when it has a separator, else by ','). */
char          *dyno_transfer_format_count       (guint64           n);

G_END_DECLS
