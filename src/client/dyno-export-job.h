/* dyno-export-job.h: export items to a file, asynchronously, with progress and Cancel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-backend.h"
#include "dyno-export.h"
#include "dyno-transfer.h"

G_BEGIN_DECLS

/* Items out through a DynoExporter: the loaded items (a GListModel of DynoItemObject, or a
 * GPtrArray of DynoItem) or every page of a Query or Scan run through the backend.  Writing
 * to a file goes to a temporary file next to it, renamed over the file only when the export
 * completes: Cancel or a failure never leaves a half file under the chosen name (and an
 * existing file stays as it was).  CSV of all pages without fixed columns is written in two
 * passes, the first spooled to a temporary file, so that no page is kept in memory.
 *
 * Signal "progress" () after each page / slice of items written. */
#define DYNO_TYPE_EXPORT_JOB (dyno_export_job_get_type ())
G_DECLARE_FINAL_TYPE (DynoExportJob, dyno_export_job, DYNO, EXPORT_JOB, GObject)

/* @schema (may be NULL) puts key attributes first in CSV. */
DynoExportJob *dyno_export_job_new              (DynoExportFormat  format,
                                                 DynoTableInfo    *schema);
/* The source: exactly one of these. */
void           dyno_export_job_set_items        (DynoExportJob    *self,
                                                 GListModel       *items);  /* DynoItemObject */
void           dyno_export_job_set_item_array   (DynoExportJob    *self,
                                                 GPtrArray        *items);  /* DynoItem */
void           dyno_export_job_set_request      (DynoExportJob    *self,
                                                 DynoBackend      *backend,
                                                 const DynoRequest *request);
/* The exporter, to set CSV columns, types and the type row before running. */
DynoExporter  *dyno_export_job_get_exporter     (DynoExportJob    *self);
/* Tell the job the exporter has fixed columns (dyno_exporter_set_columns()): CSV then
 * streams in one pass. */
void           dyno_export_job_set_columns      (DynoExportJob    *self,
                                                 const char * const *columns);

/* Completes TRUE when every item was written (and, for a file, renamed into place). */
void           dyno_export_job_run_async        (DynoExportJob       *self,
                                                 GOutputStream       *output,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
void           dyno_export_job_run_file_async   (DynoExportJob       *self,
                                                 GFile               *file,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean       dyno_export_job_run_finish       (DynoExportJob       *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

guint64        dyno_export_job_get_n_items      (DynoExportJob    *self); /* written */
guint64        dyno_export_job_get_n_total      (DynoExportJob    *self); /* loaded: all; pages: 0 */
guint          dyno_export_job_get_n_pages      (DynoExportJob    *self);
/* After a stop (Cancel, a failure) of an export of pages in one pass: the LastEvaluatedKey
 * of the last page whose items were all written, from which the same request continues with
 * nothing skipped or repeated; NULL at the end, before the first page, or for a two-pass CSV
 * export.  Borrowed. */
DynoItem      *dyno_export_job_get_resume_key   (DynoExportJob    *self);
gboolean       dyno_export_job_get_running      (DynoExportJob    *self);
/* "1,234 items exported (5 pages)", plus the type mapping plain JSON needs to come back. */
char          *dyno_export_job_dup_summary      (DynoExportJob    *self);

G_END_DECLS
