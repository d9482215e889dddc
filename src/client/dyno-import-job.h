/* dyno-import-job.h: import a file into a table (BatchWriteItem), asynchronously, with
 * progress, Cancel and a report of every row that was not written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-backend.h"
#include "dyno-import.h"
#include "dyno-transfer.h"

G_BEGIN_DECLS

/* Reads the input with a DynoImporter checked against the table's schema, and writes the good
 * items with BatchWriteItem, 25 per request, a few requests in flight.  UnprocessedItems are
 * retried with capped, jittered exponential backoff; a batch refused as invalid is retried
 * item by item so that only the bad item is rejected.  An item whose key is already in a
 * batch in flight waits for it, so a later row with the same key wins, as in the file.
 *
 * Cancel (the GCancellable) stops between batches: requests already sent are completed (not
 * aborted), so the count of written items is exact and every row that was read but not
 * written is reported as not-written.  Puts are idempotent per key: running the same import
 * again after a Cancel is safe and writes the same table.
 *
 * Signals (on the main context the job runs on):
 *   "progress" ()                 — after each batch and each chunk of input read;
 *   "row" (DynoTransferRow *row)  — each row not written, as it is known (the job keeps them
 *                                   too: dyno_import_job_get_rows()).
 *   "written" (GPtrArray *items)  — the items (DynoItem*, borrowed) a BatchWriteItem answer
 *                                   confirmed written; emitted only when connected. */
#define DYNO_TYPE_IMPORT_JOB (dyno_import_job_get_type ())
G_DECLARE_FINAL_TYPE (DynoImportJob, dyno_import_job, DYNO, IMPORT_JOB, GObject)

/* @table is the table's schema (DescribeTable): the items go to its name. */
DynoImportJob *dyno_import_job_new              (DynoBackend      *backend,
                                                 DynoTableInfo    *table,
                                                 DynoImportFormat  format);
/* Types for plain JSON attributes and CSV columns (dyno_import_parse_type_mapping()). */
void           dyno_import_job_set_type_mapping (DynoImportJob    *self,
                                                 GHashTable       *mapping);
/* Check every row, write nothing (counts as written what would be). */
void           dyno_import_job_set_dry_run      (DynoImportJob    *self,
                                                 gboolean          dry_run);
/* Keep the rows not written in memory (default TRUE; the CLI streams them via "row"). */
void           dyno_import_job_set_keep_rows    (DynoImportJob    *self,
                                                 gboolean          keep_rows);
/* Backoff for UnprocessedItems (tests shorten it): full jitter over
 * min (base_ms * 2^n, max_ms); after @max_stalled rounds in a row in which the server
 * processed nothing, the items are failed.  Defaults 50 ms, 20 s, 8. */
void           dyno_import_job_set_backoff      (DynoImportJob    *self,
                                                 guint             base_ms,
                                                 guint             max_ms,
                                                 guint             max_stalled);

/* Cancel also aborts the BatchWriteItem requests in flight (default FALSE: they complete, so
 * the count of written items is exact).  Their rows are then reported as not-written,
 * "not confirmed": the server may or may not have applied them.  The CLI sets it so that
 * Ctrl+C is immediate. */
void           dyno_import_job_set_cancel_in_flight (DynoImportJob *self,
                                                     gboolean       cancel_in_flight);
/* Skip the records that start before input line @line (1-based; 0 or 1: none), written by an
 * earlier run that stopped there.  Skipped records are not checked, written or reported. */
void           dyno_import_job_set_start_line   (DynoImportJob    *self,
                                                 guint64           line);
guint64        dyno_import_job_get_n_skipped    (DynoImportJob    *self);
/* After a stop: the input line from which running the import again (set_start_line) writes
 * everything not confirmed as written, and skips only rows that were; 0 when there is
 * nothing left to write.  Rows after it may have been written already: puts are idempotent
 * per key, so writing them again is safe. */
guint64        dyno_import_job_get_resume_line  (DynoImportJob    *self);

/* Runs the import of @input (@input_size: its size in bytes for progress, 0 if unknown).
 * Completes TRUE when the whole input was read and every good row written (rejected rows
 * may exist: see the counters); FALSE with G_IO_ERROR_CANCELLED after Cancel, or with the
 * error that stopped it (unreadable input, a CSV header naming a column twice, a server
 * failure).  The counters and rows are valid in every case.  Run a job once. */
void           dyno_import_job_run_async        (DynoImportJob       *self,
                                                 GInputStream        *input,
                                                 guint64              input_size,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
/* The same, reading @file (its size from its info). */
void           dyno_import_job_run_file_async   (DynoImportJob       *self,
                                                 GFile               *file,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean       dyno_import_job_run_finish       (DynoImportJob       *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

DynoTableInfo *dyno_import_job_get_table        (DynoImportJob    *self);
/* The importer (after run started: its format once AUTO decided, bytes read). */
DynoImportFormat dyno_import_job_get_format     (DynoImportJob    *self);
guint64        dyno_import_job_get_bytes_read   (DynoImportJob    *self);
guint64        dyno_import_job_get_bytes_total  (DynoImportJob    *self);  /* 0: unknown */
guint64        dyno_import_job_get_n_read       (DynoImportJob    *self);  /* records */
guint64        dyno_import_job_get_n_written    (DynoImportJob    *self);
guint64        dyno_import_job_get_n_rejected   (DynoImportJob    *self);
guint64        dyno_import_job_get_n_failed     (DynoImportJob    *self);
guint64        dyno_import_job_get_n_not_written (DynoImportJob   *self);
gboolean       dyno_import_job_get_input_complete (DynoImportJob  *self); /* read to the end */
gboolean       dyno_import_job_get_running      (DynoImportJob    *self);
/* DynoTransferRow*, in the order they became known (NULL before run). */
GPtrArray     *dyno_import_job_get_rows         (DynoImportJob    *self);
/* One line for people: "9,993 items written, 7 rows rejected", then, when it stopped early,
 * what was not imported and that running it again is safe. */
char          *dyno_import_job_dup_summary      (DynoImportJob    *self);

G_END_DECLS
