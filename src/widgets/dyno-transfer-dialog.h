/* dyno-transfer-dialog.h: the Import and Export windows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-backend.h"
#include "dyno-request.h"
#include "dyno-export-job.h"
#include "dyno-import-job.h"

G_BEGIN_DECLS

/* Import into a table, or export from one: a file (typed path or GtkFileChooserNative), a
 * format, the options of that format, a progress bar with counts, Cancel, and at the end a
 * one-line summary and (import) the list of rejected rows.  The window stays open after the
 * job so that the report can be read; Cancel (relabelled Close when idle) closes it.
 *
 * Signal "finished" (gboolean ok): the job ended (ok FALSE after Cancel or a failure). */
#define DYNO_TYPE_TRANSFER_DIALOG (dyno_transfer_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoTransferDialog, dyno_transfer_dialog, DYNO, TRANSFER_DIALOG, AdwWindow)

/* @info: the table's schema (DescribeTable). */
GtkWidget     *dyno_import_dialog_new              (GtkWindow          *parent,
                                                    DynoBackend        *backend,
                                                    DynoTableInfo      *info);
/* @loaded_items: the results on screen (GListModel of DynoItemObject), may be NULL;
 * @request: the Query/Scan whose every page "All pages" exports, may be NULL.  At least one
 * of the two. */
GtkWidget     *dyno_export_dialog_new              (GtkWindow          *parent,
                                                    DynoBackend        *backend,
                                                    DynoTableInfo      *info,
                                                    GListModel         *loaded_items,
                                                    const DynoRequest  *request);

gboolean       dyno_transfer_dialog_get_running    (DynoTransferDialog *self);
/* The summary line shown at the end ("9,993 items written, 7 rows rejected."), or NULL. */
const char    *dyno_transfer_dialog_get_summary    (DynoTransferDialog *self);
/* The last import job (NULL for an export dialog or before the first Import). */
DynoImportJob *dyno_transfer_dialog_get_import_job (DynoTransferDialog *self);

G_END_DECLS
