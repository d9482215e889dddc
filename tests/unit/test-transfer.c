/* test-transfer.c: import and export jobs against the engine in memory, with injected faults
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-export-job.h"
#include "dyno-import-job.h"

#include <glib/gstdio.h>

#include "dyno-error.h"
#include "dyno-item-object.h"
#include "dyno-json.h"
#include "../common/fault-backend.h"

/* ---- helpers ----------------------------------------------------------------------------- */

typedef struct {
  gboolean      done;
  gboolean      ok;
  GError       *error;
  guint         n_progress;
  guint         n_rows;
  guint64       last_written;
  gboolean      written_went_back;
  GCancellable *cancel_on_progress; /* cancels at the 2nd progress with writes */
} Run;

static void
run_clear (Run *run)
{
  g_clear_error (&run->error);
  g_clear_object (&run->cancel_on_progress);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void
import_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  Run *run = user_data;

  run->ok = dyno_import_job_run_finish (DYNO_IMPORT_JOB (source), result, &run->error);
  run->done = TRUE;
}

static void
import_progress_cb (DynoImportJob *job,
                    Run           *run)
{
  guint64 written = dyno_import_job_get_n_written (job);

  run->n_progress++;
  if (written < run->last_written)
    run->written_went_back = TRUE;
  run->last_written = written;
  g_assert_cmpuint (dyno_import_job_get_bytes_read (job), <=,
                    dyno_import_job_get_bytes_total (job));
}

static void
import_row_cb (DynoImportJob   *job,
               DynoTransferRow *row,
               Run             *run)
{
  g_assert_nonnull (row->reason);
  run->n_rows++;
}

static DynoTableInfo *
table_info (void)
{
  return dyno_table_info_new ("transfer", "pk", DYNO_VALUE_S, "sk", DYNO_VALUE_N);
}

static TestFaultBackend *
fake_new (void)
{
  TestFaultBackend *fake = g_object_new (TEST_TYPE_FAULT_BACKEND, NULL);

  test_fault_backend_add_table (fake, "transfer");
  return fake;
}

/* Runs an import of @text into table transfer and waits for it. */
static DynoImportJob *
run_import (TestFaultBackend *fake,
            const char       *text,
            DynoImportFormat  format,
            const char       *mapping,
            GCancellable     *cancellable,
            Run              *run)
{
  g_autoptr(DynoTableInfo) info = table_info ();
  DynoImportJob *job = dyno_import_job_new (DYNO_BACKEND (fake), info, format);
  g_autoptr(GInputStream) input = g_memory_input_stream_new_from_data (g_strdup (text),
                                                                       strlen (text), g_free);

  if (mapping != NULL)
    {
      g_autoptr(GHashTable) types = dyno_import_parse_type_mapping (mapping, NULL);

      g_assert_nonnull (types);
      dyno_import_job_set_type_mapping (job, types);
    }
  dyno_import_job_set_backoff (job, 1, 4, 4);
  g_signal_connect (job, "progress", G_CALLBACK (import_progress_cb), run);
  g_signal_connect (job, "row", G_CALLBACK (import_row_cb), run);
  dyno_import_job_run_async (job, input, strlen (text), cancellable, import_done_cb, run);
  g_assert_true (dyno_import_job_get_running (job));
  while (!run->done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (dyno_import_job_get_running (job));
  return job;
}

static char *
good_line (guint i)
{
  return g_strdup_printf ("{\"pk\":{\"S\":\"P#%u\"},\"sk\":{\"N\":\"%u\"},\"v\":{\"S\":\"x%u\"}}\n",
                          i % 7, i, i);
}

/* ---- import ------------------------------------------------------------------------------ */

static void
test_import_rejects_and_writes (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(DynoImportJob) job = NULL;
  g_autofree char *summary = NULL;
  g_auto(Run) run = { 0, };
  GPtrArray *rows;
  /* 1-based lines of the bad rows */
  const guint missing_key = 5, bad_json = 31, wrong_type = 57;

  for (guint line = 1; line <= 80; line++)
    {
      g_autofree char *good = good_line (line);

      if (line == missing_key)
        g_string_append (text, "{\"sk\":{\"N\":\"5\"}}\n");
      else if (line == bad_json)
        g_string_append (text, "{\"pk\":{\"S\":\"a\"},\n");
      else if (line == wrong_type)
        g_string_append (text, "{\"pk\":{\"N\":\"1\"},\"sk\":{\"N\":\"57\"}}\n");
      else
        g_string_append (text, good);
    }

  job = run_import (fake, text->str, DYNO_IMPORT_DDB_JSONL, NULL, NULL, &run);
  g_assert_no_error (run.error);
  g_assert_true (run.ok);
  g_assert_true (dyno_import_job_get_input_complete (job));
  g_assert_cmpuint (dyno_import_job_get_n_read (job), ==, 80);
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==, 77);
  g_assert_cmpuint (dyno_import_job_get_n_rejected (job), ==, 3);
  g_assert_cmpuint (dyno_import_job_get_n_not_written (job), ==, 0);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 77);
  g_assert_cmpuint (dyno_import_job_get_bytes_read (job), ==, text->len);
  g_assert_cmpuint (run.n_progress, >, 0);
  g_assert_false (run.written_went_back);
  g_assert_cmpuint (run.last_written, ==, 77);

  rows = dyno_import_job_get_rows (job);
  g_assert_cmpuint (rows->len, ==, 3);
  g_assert_cmpuint (run.n_rows, ==, 3);
  {
    const guint lines[] = { missing_key, bad_json, wrong_type };

    for (guint i = 0; i < rows->len; i++)
      {
        DynoTransferRow *row = g_ptr_array_index (rows, i);

        g_assert_cmpuint (row->line, ==, lines[i]);
        g_assert_cmpint (row->status, ==, DYNO_TRANSFER_ROW_REJECTED);
      }
    g_assert_nonnull (strstr (((DynoTransferRow *) g_ptr_array_index (rows, 0))->reason, "pk"));
  }
  /* 4 batches of 25 at most: 77 items */
  g_assert_cmpuint (fake->n_batch_calls, ==, 4);

  summary = dyno_import_job_dup_summary (job);
  g_assert_cmpstr (summary, ==, "77 items written, 3 rows rejected.");
}

static void
test_import_unprocessed_retried (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(DynoImportJob) job = NULL;
  g_auto(Run) run = { 0, };

  for (guint i = 1; i <= 60; i++)
    {
      g_autofree char *line = good_line (i);
      g_string_append (text, line);
    }
  fake->n_unprocessed_calls = 3;
  fake->n_unprocessed = 7;

  job = run_import (fake, text->str, DYNO_IMPORT_AUTO, NULL, NULL, &run);
  g_assert_no_error (run.error);
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==, 60);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 60);
  /* 21 items were sent twice */
  g_assert_cmpuint (fake->n_batch_items, ==, 60 + 21);
  g_assert_cmpuint (dyno_import_job_get_rows (job)->len, ==, 0);
}

static void
test_import_throttled_gives_up (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(DynoImportJob) job = NULL;
  g_autofree char *summary = NULL;
  g_auto(Run) run = { 0, };

  for (guint i = 1; i <= 200; i++)
    {
      g_autofree char *line = good_line (i);
      g_string_append (text, line);
    }
  fake->n_unprocessed_calls = G_MAXUINT;
  fake->n_unprocessed = 25;

  job = run_import (fake, text->str, DYNO_IMPORT_DDB_JSONL, NULL, NULL, &run);
  g_assert_error (run.error, DYNO_ERROR, DYNO_ERROR_THROTTLED);
  g_assert_false (dyno_import_job_get_input_complete (job));
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==, 0);
  g_assert_cmpuint (dyno_import_job_get_n_failed (job), >, 0);
  /* every row read is accounted for */
  g_assert_cmpuint (dyno_import_job_get_n_written (job) + dyno_import_job_get_n_failed (job)
                    + dyno_import_job_get_n_not_written (job), ==,
                    dyno_import_job_get_n_read (job));
  g_assert_cmpuint (dyno_import_job_get_n_read (job), <, 200);
  summary = dyno_import_job_dup_summary (job);
  g_assert_nonnull (strstr (summary, "safe"));
}

static void
cancel_at_third_batch (TestFaultBackend *fake,
                       gpointer          data)
{
  if (fake->n_batch_calls == 3)
    g_cancellable_cancel (data);
}

static void
test_import_cancel_exact (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(DynoImportJob) job = NULL;
  g_autoptr(DynoImportJob) again = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *summary = NULL;
  g_auto(Run) run = { 0, };
  g_auto(Run) rerun = { 0, };
  GPtrArray *rows;

  for (guint i = 1; i <= 1000; i++)
    {
      g_autofree char *line = good_line (i);
      g_string_append (text, line);
    }
  fake->on_batch = cancel_at_third_batch;
  fake->on_batch_data = cancellable;

  job = run_import (fake, text->str, DYNO_IMPORT_DDB_JSONL, NULL, cancellable, &run);
  g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (dyno_import_job_get_input_complete (job));
  /* what was sent was completed: the count is exactly what the table holds */
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==,
                    test_fault_backend_count (fake, "transfer"));
  g_assert_cmpuint (dyno_import_job_get_n_written (job), >, 0);
  g_assert_cmpuint (dyno_import_job_get_n_written (job), <, 1000);
  g_assert_cmpuint (dyno_import_job_get_n_written (job) + dyno_import_job_get_n_not_written (job),
                    ==, dyno_import_job_get_n_read (job));
  rows = dyno_import_job_get_rows (job);
  g_assert_cmpuint (rows->len, ==, dyno_import_job_get_n_not_written (job));
  for (guint i = 0; i < rows->len; i++)
    g_assert_cmpint (((DynoTransferRow *) g_ptr_array_index (rows, i))->status, ==,
                     DYNO_TRANSFER_ROW_NOT_WRITTEN);
  summary = dyno_import_job_dup_summary (job);
  g_assert_nonnull (strstr (summary, "cancelled"));
  g_assert_nonnull (strstr (summary, "idempotent"));

  /* running it again writes everything, once per key */
  fake->on_batch = NULL;
  again = run_import (fake, text->str, DYNO_IMPORT_DDB_JSONL, NULL, NULL, &rerun);
  g_assert_no_error (rerun.error);
  g_assert_cmpuint (dyno_import_job_get_n_written (again), ==, 1000);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 1000);
}

static void
test_import_validation_split (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(DynoImportJob) job = NULL;
  g_auto(Run) run = { 0, };
  DynoTransferRow *row;

  for (guint i = 1; i <= 30; i++)
    {
      if (i == 12)
        g_string_append (text, "{\"pk\":{\"S\":\"x\"},\"sk\":{\"N\":\"12\"},"
                         "\"poison\":{\"BOOL\":true}}\n");
      else
        {
          g_autofree char *line = good_line (i);
          g_string_append (text, line);
        }
    }
  fake->poison_attribute = g_strdup ("poison");

  job = run_import (fake, text->str, DYNO_IMPORT_DDB_JSONL, NULL, NULL, &run);
  g_assert_no_error (run.error);
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==, 29);
  g_assert_cmpuint (dyno_import_job_get_n_rejected (job), ==, 1);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 29);
  row = g_ptr_array_index (dyno_import_job_get_rows (job), 0);
  g_assert_cmpuint (row->line, ==, 12);
  g_assert_nonnull (strstr (row->reason, "poisoned"));
}

static void
test_import_duplicate_key_later_wins (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(DynoImportJob) job = NULL;
  g_auto(Run) run = { 0, };
  g_autofree char *stored = NULL;
  const char *text =
    "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"first\"}}\n"
    "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"v\":{\"S\":\"other\"}}\n"
    "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"second\"}}\n"
    "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"third\"}}\n";

  job = run_import (fake, text, DYNO_IMPORT_DDB_JSONL, NULL, NULL, &run);
  g_assert_no_error (run.error);
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==, 4);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 2);
  stored = test_fault_backend_get (fake, "transfer", "a", "1");
  g_assert_nonnull (stored);
  g_assert_nonnull (strstr (stored, "third"));
}

static void
test_import_plain_with_mapping (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(DynoImportJob) job = NULL;
  g_auto(Run) run = { 0, };
  const char *text = "{\"pk\":\"a\",\"sk\":1,\"tags\":[\"x\",\"y\"],\"price\":\"12.5\"}\n";
  g_autofree char *stored = NULL;

  job = run_import (fake, text, DYNO_IMPORT_PLAIN_JSONL, "tags:SS,price:N", NULL, &run);
  g_assert_no_error (run.error);
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==, 1);
  stored = test_fault_backend_get (fake, "transfer", "a", "1");
  g_assert_nonnull (stored);
  g_assert_nonnull (strstr (stored, "\"SS\""));
  g_assert_nonnull (strstr (stored, "{\"N\":\"12.5\"}"));
}

static void
test_import_csv_header_fails (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(DynoImportJob) job = NULL;
  g_auto(Run) run = { 0, };

  job = run_import (fake, "a,a\n1,2\n", DYNO_IMPORT_CSV, NULL, NULL, &run);
  g_assert_false (run.ok);
  g_assert_nonnull (run.error);
  g_assert_nonnull (strstr (run.error->message, "twice"));
  g_assert_cmpuint (fake->n_batch_calls, ==, 0);
}

static void
test_import_dry_run (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(DynoImportJob) job = NULL;
  g_autoptr(DynoTableInfo) info = table_info ();
  g_autoptr(GInputStream) input = NULL;
  g_auto(Run) run = { 0, };
  const char *text = "pk,sk\n#types:S,N\na,1\nb,2\n,3\n";
  g_autofree char *summary = NULL;

  job = dyno_import_job_new (DYNO_BACKEND (fake), info, DYNO_IMPORT_CSV);
  dyno_import_job_set_dry_run (job, TRUE);
  input = g_memory_input_stream_new_from_data (text, strlen (text), NULL);
  dyno_import_job_run_async (job, input, 0, NULL, import_done_cb, &run);
  while (!run.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (run.error);
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==, 2);
  g_assert_cmpuint (dyno_import_job_get_n_rejected (job), ==, 1);
  g_assert_cmpuint (((DynoTransferRow *) g_ptr_array_index (dyno_import_job_get_rows (job),
                                                            0))->line, ==, 5);
  g_assert_cmpuint (fake->n_batch_calls, ==, 0);
  summary = dyno_import_job_dup_summary (job);
  g_assert_nonnull (strstr (summary, "would be written"));
}

static void
test_import_missing_file (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(DynoTableInfo) info = table_info ();
  g_autoptr(DynoImportJob) job = dyno_import_job_new (DYNO_BACKEND (fake), info,
                                                      DYNO_IMPORT_AUTO);
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/dir/x.jsonl");
  g_auto(Run) run = { 0, };

  dyno_import_job_run_file_async (job, file, NULL, import_done_cb, &run);
  while (!run.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (run.error, DYNO_ERROR, DYNO_ERROR_FAILED);
  g_assert_nonnull (strstr (run.error->message, "x.jsonl"));
}

static void
test_import_garbled_retried (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(DynoImportJob) job = NULL;
  g_auto(Run) run = { 0, };

  for (guint i = 1; i <= 60; i++)
    {
      g_autofree char *line = good_line (i);
      g_string_append (text, line);
    }
  /* two answers cut short: those batches wrote nothing and are sent again */
  fake->n_garbled_calls = 2;

  job = run_import (fake, text->str, DYNO_IMPORT_DDB_JSONL, NULL, NULL, &run);
  g_assert_no_error (run.error);
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==, 60);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 60);
  g_assert_cmpuint (fake->n_batch_calls, ==, 3 + 2);
}

static void
test_import_garbled_persistent (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(DynoImportJob) job = NULL;
  g_autofree char *summary = NULL;
  g_auto(Run) run = { 0, };

  for (guint i = 1; i <= 60; i++)
    {
      g_autofree char *line = good_line (i);
      g_string_append (text, line);
    }
  fake->n_garbled_calls = G_MAXUINT;

  job = run_import (fake, text->str, DYNO_IMPORT_DDB_JSONL, NULL, NULL, &run);
  g_assert_nonnull (run.error);
  /* nothing is counted as written that the server did not confirm */
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==, 0);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 0);
  g_assert_cmpuint (dyno_import_job_get_n_failed (job), >, 0);
  g_assert_cmpuint (dyno_import_job_get_n_failed (job) + dyno_import_job_get_n_not_written (job),
                    ==, dyno_import_job_get_n_read (job));
  summary = dyno_import_job_dup_summary (job);
  g_assert_null (strstr (summary, "60 items written"));
}

static void
test_import_foreign_unprocessed (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(DynoImportJob) job = NULL;
  g_auto(Run) run = { 0, };

  for (guint i = 1; i <= 30; i++)
    {
      g_autofree char *line = good_line (i);
      g_string_append (text, line);
    }
  /* an answer naming a request that was not sent is not believed */
  fake->n_foreign_calls = 1;

  job = run_import (fake, text->str, DYNO_IMPORT_DDB_JSONL, NULL, NULL, &run);
  g_assert_no_error (run.error);
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==, 30);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 30);
}

static void
cancel_at_tenth_batch (TestFaultBackend *fake,
                       gpointer          data)
{
  if (fake->n_batch_calls == 10)
    g_cancellable_cancel (data);
}

static void
test_import_cancel_in_flight_resume (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(DynoImportJob) job = NULL;
  g_autoptr(DynoImportJob) again = NULL;
  g_autoptr(DynoTableInfo) info = table_info ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GInputStream) input = NULL;
  g_auto(Run) run = { 0, };
  g_auto(Run) rerun = { 0, };
  guint64 resume;
  GPtrArray *rows;

  for (guint i = 1; i <= 1000; i++)
    {
      g_autofree char *line = good_line (i);
      g_string_append (text, line);
    }
  fake->on_batch = cancel_at_tenth_batch;
  fake->on_batch_data = cancellable;

  job = dyno_import_job_new (DYNO_BACKEND (fake), info, DYNO_IMPORT_DDB_JSONL);
  dyno_import_job_set_cancel_in_flight (job, TRUE);
  dyno_import_job_set_backoff (job, 1, 4, 4);
  g_signal_connect (job, "progress", G_CALLBACK (import_progress_cb), &run);
  g_signal_connect (job, "row", G_CALLBACK (import_row_cb), &run);
  input = g_memory_input_stream_new_from_data (g_strdup (text->str), text->len, g_free);
  dyno_import_job_run_async (job, input, text->len, cancellable, import_done_cb, &run);
  while (!run.done)
    g_main_context_iteration (NULL, TRUE);

  g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* the batch cancelled in flight is not counted as written (the server applied it) */
  g_assert_cmpuint (dyno_import_job_get_n_written (job), <,
                    test_fault_backend_count (fake, "transfer"));
  g_assert_cmpuint (dyno_import_job_get_n_written (job) + dyno_import_job_get_n_not_written (job),
                    ==, dyno_import_job_get_n_read (job));
  rows = dyno_import_job_get_rows (job);
  g_assert_cmpuint (rows->len, >, 0);
  resume = dyno_import_job_get_resume_line (job);
  g_assert_cmpuint (resume, >, 1);
  /* every row before the resume line is in the table */
  for (guint i = 1; i < resume; i++)
    {
      g_autofree char *pk = g_strdup_printf ("P#%u", i % 7);
      g_autofree char *sk = g_strdup_printf ("%u", i);
      g_autofree char *stored = test_fault_backend_get (fake, "transfer", pk, sk);

      g_assert_nonnull (stored);
    }
  for (guint i = 0; i < rows->len; i++)
    g_assert_cmpuint (((DynoTransferRow *) g_ptr_array_index (rows, i))->line, >=, resume);

  /* from the resume line, the rest is written and nothing before it is read again */
  fake->on_batch = NULL;
  {
    g_autoptr(GInputStream) input2 = g_memory_input_stream_new_from_data (g_strdup (text->str),
                                                                          text->len, g_free);

    again = dyno_import_job_new (DYNO_BACKEND (fake), info, DYNO_IMPORT_DDB_JSONL);
    dyno_import_job_set_start_line (again, resume);
    g_signal_connect (again, "progress", G_CALLBACK (import_progress_cb), &rerun);
    g_signal_connect (again, "row", G_CALLBACK (import_row_cb), &rerun);
    dyno_import_job_run_async (again, input2, text->len, NULL, import_done_cb, &rerun);
    while (!rerun.done)
      g_main_context_iteration (NULL, TRUE);
  }
  g_assert_no_error (rerun.error);
  g_assert_cmpuint (dyno_import_job_get_n_skipped (again), ==, resume - 1);
  g_assert_cmpuint (dyno_import_job_get_n_written (again), ==, 1000 - (resume - 1));
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 1000);
  g_assert_cmpuint (dyno_import_job_get_resume_line (again), ==, 0);
}

/* ---- dyno_backend_batch_write ------------------------------------------------------------- */

typedef struct {
  gboolean  done;
  gboolean  ok;
  guint     n_written;
  GArray   *unwritten;
  guint     n_unconfirmed;
  GError   *error;
} BatchResult;

static void
batch_result_clear (BatchResult *result)
{
  g_clear_pointer (&result->unwritten, g_array_unref);
  g_clear_error (&result->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (BatchResult, batch_result_clear)

static void
batch_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  BatchResult *r = user_data;

  r->ok = dyno_backend_batch_write_finish_full (DYNO_BACKEND (source), result, &r->n_written,
                                                &r->unwritten, &r->n_unconfirmed, &r->error);
  r->done = TRUE;
}

static GPtrArray *
batch_items (guint n)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);

  for (guint i = 1; i <= n; i++)
    {
      g_autofree char *line = good_line (i);
      DynoItem *item = dyno_item_from_ddb_json (line, -1, NULL);

      g_assert_nonnull (item);
      g_ptr_array_add (items, item);
    }
  return items;
}

static void
run_batch (TestFaultBackend *fake,
           GPtrArray        *items,
           BatchResult      *r)
{
  dyno_backend_batch_write_async (DYNO_BACKEND (fake), "transfer", items, NULL, NULL, NULL, NULL,
                                  batch_done_cb, r);
  while (!r->done)
    g_main_context_iteration (NULL, TRUE);
}

/* Item i of good_line() is in table transfer. */
static gboolean
batch_item_stored (TestFaultBackend *fake,
                   guint             i)
{
  g_autofree char *pk = g_strdup_printf ("P#%u", i % 7);
  g_autofree char *sk = g_strdup_printf ("%u", i);
  g_autofree char *stored = test_fault_backend_get (fake, "transfer", pk, sk);

  return stored != NULL;
}

static void
test_batch_partial_unprocessed (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GPtrArray) items = batch_items (60);
  g_auto(BatchResult) r = { 0, };

  fake->n_unprocessed_calls = 3;
  fake->n_unprocessed = 7;
  fake->n_garbled_calls = 1;
  run_batch (fake, items, &r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_cmpuint (r.n_written, ==, 60);
  g_assert_cmpuint (r.unwritten->len, ==, 0);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 60);
}

static void
all_unprocessed_after_first (TestFaultBackend *fake,
                             gpointer          data)
{
  if (fake->n_batch_calls == 1)
    {
      fake->n_unprocessed_calls = 1;
      fake->n_unprocessed = 10;
    }
  else
    {
      fake->n_unprocessed_calls = 1;
      fake->n_unprocessed = 25;
    }
}

static void
test_batch_all_unprocessed_gives_up (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GPtrArray) items = batch_items (60);
  g_auto(BatchResult) r = { 0, };
  guint next = 0;

  /* the first batch writes 15 of 25, then the server processes nothing, ever */
  fake->on_batch = all_unprocessed_after_first;
  run_batch (fake, items, &r);
  g_assert_false (r.ok);
  g_assert_error (r.error, DYNO_ERROR, DYNO_ERROR_THROTTLED);
  g_assert_cmpuint (r.n_written, ==, 15);
  g_assert_cmpuint (r.n_unconfirmed, ==, 0);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 15);
  /* exactly the items not in the table are named, in order */
  g_assert_cmpuint (r.unwritten->len, ==, 45);
  for (guint i = 0; i < 60; i++)
    {
      gboolean named = next < r.unwritten->len && g_array_index (r.unwritten, guint, next) == i;

      if (named)
        next++;
      g_assert_cmpint (named, ==, !batch_item_stored (fake, i + 1));
    }
  /* the first round, then 8 rounds that processed nothing */
  g_assert_cmpuint (fake->n_batch_calls, ==, 1 + 8);
}

static void
test_batch_foreign_gives_up (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GPtrArray) items = batch_items (30);
  g_auto(BatchResult) r = { 0, };

  fake->n_foreign_calls = G_MAXUINT;
  run_batch (fake, items, &r);
  g_assert_false (r.ok);
  g_assert_error (r.error, DYNO_ERROR, DYNO_ERROR_NETWORK);
  g_assert_cmpuint (r.n_written, ==, 0);
  g_assert_cmpuint (r.unwritten->len, ==, 30);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, 0);
}

static void
cancel_at_second_batch (TestFaultBackend *fake,
                        gpointer          data)
{
  if (fake->n_batch_calls == 2)
    g_cancellable_cancel (data);
}

static void
test_batch_cancel_names_rest (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(GPtrArray) items = batch_items (100);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_auto(BatchResult) r = { 0, };

  fake->on_batch = cancel_at_second_batch;
  fake->on_batch_data = cancellable;
  dyno_backend_batch_write_async (DYNO_BACKEND (fake), "transfer", items, NULL, NULL, NULL,
                                  cancellable, batch_done_cb, &r);
  while (!r.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* the written ones and the named ones cover every item, with no overlap but the batch
   * whose answer was lost to the cancel */
  g_assert_cmpuint (r.n_written + r.unwritten->len, ==, 100);
  /* the batch in flight when it was cancelled: its outcome is not known */
  g_assert_cmpuint (r.n_unconfirmed, >, 0);
  g_assert_cmpuint (r.n_unconfirmed, <=, 25);
  for (guint i = 0; i < r.unwritten->len; i++)
    g_assert_cmpuint (g_array_index (r.unwritten, guint, i), >=, r.n_written);
  for (guint i = 0; i < r.n_written; i++)
    g_assert_true (batch_item_stored (fake, i + 1));
}

/* ---- export ------------------------------------------------------------------------------ */

static void
export_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  Run *run = user_data;

  run->ok = dyno_export_job_run_finish (DYNO_EXPORT_JOB (source), result, &run->error);
  run->done = TRUE;
}

static void
export_progress_cb (DynoExportJob *job,
                    Run           *run)
{
  run->n_progress++;
  if (run->cancel_on_progress != NULL && dyno_export_job_get_n_pages (job) >= 2)
    g_cancellable_cancel (run->cancel_on_progress);
}

static void
wait_export (DynoExportJob *job,
             GFile         *file,
             GCancellable  *cancellable,
             Run           *run)
{
  g_signal_connect (job, "progress", G_CALLBACK (export_progress_cb), run);
  dyno_export_job_run_file_async (job, file, cancellable, export_done_cb, run);
  g_assert_true (dyno_export_job_get_running (job));
  while (!run->done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (dyno_export_job_get_running (job));
}

static char *
make_tmpdir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-transfer-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

/* Files in @dir (names), sorted, joined by ' '. */
static char *
list_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

static DynoItem *
item_new (guint i)
{
  g_autofree char *json = g_strdup_printf ("{\"pk\":{\"S\":\"P#%u\"},\"sk\":{\"N\":\"%u\"}%s}",
                                           i % 3, i,
                                           i % 2 ? ",\"odd\":{\"BOOL\":true}" : "");

  return dyno_item_from_ddb_json (json, -1, NULL);
}

static void
test_export_loaded_items (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "out.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GListStore) store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);
  g_autoptr(DynoExportJob) job = dyno_export_job_new (DYNO_EXPORT_DDB_JSONL, NULL);
  g_autofree char *contents = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *summary = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(Run) run = { 0, };

  for (guint i = 0; i < 2500; i++)
    {
      g_autoptr(DynoItem) item = item_new (i);
      g_autoptr(DynoItemObject) object = dyno_item_object_new (item, i);

      g_list_store_append (store, object);
    }
  dyno_export_job_set_items (job, G_LIST_MODEL (store));
  g_assert_cmpuint (dyno_export_job_get_n_total (job), ==, 2500);
  wait_export (job, file, NULL, &run);
  g_assert_no_error (run.error);
  g_assert_true (run.ok);
  g_assert_cmpuint (dyno_export_job_get_n_items (job), ==, 2500);
  g_assert_cmpuint (run.n_progress, >=, 3);   /* in slices */

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 2501);  /* the last is empty */
  g_assert_cmpstr (lines[1], ==,
                   "{\"pk\":{\"S\":\"P#1\"},\"sk\":{\"N\":\"1\"},\"odd\":{\"BOOL\":true}}");
  /* the temporary file was renamed: nothing else is left */
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "out.jsonl");
  summary = dyno_export_job_dup_summary (job);
  g_assert_cmpstr (summary, ==, "2,500 items exported.");
  remove_dir (dir);
}

static void
fill_fake (TestFaultBackend *fake,
           guint             n)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(DynoImportJob) job = NULL;
  g_auto(Run) run = { 0, };

  for (guint i = 1; i <= n; i++)
    {
      if (i % 5 == 0)
        g_string_append_printf (text, "{\"pk\":{\"S\":\"Q\"},\"sk\":{\"N\":\"%u\"},"
                                "\"mixed\":{\"S\":\"t%u\"},\"bin\":{\"B\":\"AAE=\"}}\n", i, i);
      else
        g_string_append_printf (text, "{\"pk\":{\"S\":\"Q\"},\"sk\":{\"N\":\"%u\"},"
                                "\"mixed\":{\"N\":\"%u\"}}\n", i, i);
    }
  job = run_import (fake, text->str, DYNO_IMPORT_DDB_JSONL, NULL, NULL, &run);
  g_assert_no_error (run.error);
  g_assert_cmpuint (test_fault_backend_count (fake, "transfer"), ==, n);
}

static void
test_export_all_pages (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "all.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(DynoExportJob) job = dyno_export_job_new (DYNO_EXPORT_DDB_JSONL, NULL);
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "transfer");
  g_autofree char *contents = NULL;
  g_autofree char *summary = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(Run) run = { 0, };

  fill_fake (fake, 55);
  /* pages of 10 items: DynamoDB's pages are 1 MB, which 55 small items do not fill */
  request->limit = 10;
  dyno_export_job_set_request (job, DYNO_BACKEND (fake), request);
  wait_export (job, file, NULL, &run);
  g_assert_no_error (run.error);
  g_assert_cmpuint (dyno_export_job_get_n_pages (job), ==, 6);
  g_assert_cmpuint (dyno_export_job_get_n_items (job), ==, 55);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 56);
  /* in key order: one partition, sk a number */
  for (guint i = 0; i < 55; i++)
    {
      g_autofree char *sk = g_strdup_printf ("\"sk\":{\"N\":\"%u\"}", i + 1);
      g_assert_nonnull (strstr (lines[i], sk));
    }
  summary = dyno_export_job_dup_summary (job);
  g_assert_cmpstr (summary, ==, "55 items exported (6 pages).");
  remove_dir (dir);
}

static void
test_export_csv_two_passes (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "all.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(DynoTableInfo) info = table_info ();
  g_autoptr(DynoExportJob) job = dyno_export_job_new (DYNO_EXPORT_CSV, info);
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "transfer");
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  g_autoptr(GPtrArray) rejects = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                 dyno_import_reject_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *listing = NULL;
  gsize len;
  g_auto(Run) run = { 0, };

  fill_fake (fake, 23);
  request->limit = 4;
  dyno_export_job_set_request (job, DYNO_BACKEND (fake), request);
  wait_export (job, file, NULL, &run);
  g_assert_no_error (run.error);
  g_assert_cmpuint (dyno_export_job_get_n_pages (job), ==, 6);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_true (g_str_has_prefix (contents, "pk,sk,mixed,bin\r\n#types:S,N,ANY,B\r\n"));
  /* it reads back as the same 23 items */
  g_assert_true (dyno_import_text (contents, len, DYNO_IMPORT_CSV, info, NULL, items, rejects,
                                   &error));
  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 23);
  g_assert_cmpuint (rejects->len, ==, 0);
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "all.csv");
  remove_dir (dir);
}

static void
test_export_failure_keeps_file (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "kept.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "transfer");
  g_autofree char *contents = NULL;
  g_autofree char *listing = NULL;

  fill_fake (fake, 40);
  request->limit = 5;
  g_assert_true (g_file_set_contents (path, "previous\n", -1, NULL));

  /* a server failure on the third page */
  {
    g_autoptr(DynoExportJob) job = dyno_export_job_new (DYNO_EXPORT_DDB_JSONL, NULL);
    g_auto(Run) run = { 0, };

    fake->fail_after_pages = 2;
    dyno_export_job_set_request (job, DYNO_BACKEND (fake), request);
    wait_export (job, file, NULL, &run);
    g_assert_false (run.ok);
    g_assert_nonnull (run.error);
    g_assert_nonnull (strstr (run.error->message, "InternalServerError"));
  }
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "previous\n");
  g_clear_pointer (&contents, g_free);

  /* Cancel after the second page */
  {
    g_autoptr(DynoExportJob) job = dyno_export_job_new (DYNO_EXPORT_DDB_JSONL, NULL);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_auto(Run) run = { 0, };

    fake->fail_after_pages = 0;
    run.cancel_on_progress = g_object_ref (cancellable);
    dyno_export_job_set_request (job, DYNO_BACKEND (fake), request);
    wait_export (job, file, cancellable, &run);
    g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_assert_cmpuint (dyno_export_job_get_n_pages (job), <, 8);
  }
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "previous\n");
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "kept.jsonl");
  remove_dir (dir);
}

/* Exports to a memory stream; the text written. */
static char *
export_to_memory (DynoExportJob *job,
                  GCancellable  *cancellable,
                  Run           *run)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  GMemoryOutputStream *memory = G_MEMORY_OUTPUT_STREAM (out);

  g_signal_connect (job, "progress", G_CALLBACK (export_progress_cb), run);
  dyno_export_job_run_async (job, out, cancellable, export_done_cb, run);
  while (!run->done)
    g_main_context_iteration (NULL, TRUE);
  return g_strndup (g_memory_output_stream_get_data (memory),
                    g_memory_output_stream_get_data_size (memory));
}

/* The next page is asked for while a page is written: the output is still every item once,
 * in order, at most one page is asked for ahead, and after Cancel the resume key is exactly
 * where the output stops (the page asked for ahead is dropped, not written). */
static void
test_export_stream_resume (void)
{
  g_autoptr(TestFaultBackend) fake = fake_new ();
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "transfer");
  g_autoptr(GString) all = g_string_new (NULL);
  g_autofree char *first = NULL;
  g_autofree char *rest = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_first;
  guint n_requests;

  fill_fake (fake, 55);
  request->limit = 10;

  {
    g_autoptr(DynoExportJob) job = dyno_export_job_new (DYNO_EXPORT_DDB_JSONL, NULL);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_auto(Run) run = { 0, };
    DynoItem *resume;

    run.cancel_on_progress = g_object_ref (cancellable);
    fake->n_pages = 0;
    dyno_export_job_set_request (job, DYNO_BACKEND (fake), request);
    first = export_to_memory (job, cancellable, &run);
    g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    n_first = (guint) dyno_export_job_get_n_items (job);
    g_assert_cmpuint (n_first, ==, 10 * dyno_export_job_get_n_pages (job));
    g_assert_cmpuint (n_first, >=, 20);
    g_assert_cmpuint (n_first, <, 55);
    /* written pages, and one asked for ahead at most */
    n_requests = fake->n_pages;
    g_assert_cmpuint (n_requests, <=, dyno_export_job_get_n_pages (job) + 1);
    resume = dyno_export_job_get_resume_key (job);
    g_assert_nonnull (resume);
    g_assert_cmpuint (g_ascii_strtoull (dyno_value_get_string (dyno_item_lookup (resume, "sk"),
                                                               NULL), NULL, 10), ==, n_first);
    request->exclusive_start_key = dyno_item_ref (resume);
  }
  {
    g_autoptr(DynoExportJob) job = dyno_export_job_new (DYNO_EXPORT_DDB_JSONL, NULL);
    g_auto(Run) run = { 0, };

    dyno_export_job_set_request (job, DYNO_BACKEND (fake), request);
    rest = export_to_memory (job, NULL, &run);
    g_assert_no_error (run.error);
    g_assert_cmpuint (dyno_export_job_get_n_items (job), ==, 55 - n_first);
  }

  g_string_append (all, first);
  g_string_append (all, rest);
  lines = g_strsplit (all->str, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 56);
  for (guint i = 0; i < 55; i++)
    {
      g_autofree char *sk = g_strdup_printf ("\"sk\":{\"N\":\"%u\"}", i + 1);

      g_assert_nonnull (strstr (lines[i], sk));
    }
  g_assert_cmpstr (lines[55], ==, "");
}

static void
test_export_plain_hints (void)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  g_autoptr(DynoExportJob) job = dyno_export_job_new (DYNO_EXPORT_PLAIN_JSONL, NULL);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autofree char *summary = NULL;
  g_auto(Run) run = { 0, };

  g_ptr_array_add (items,
                   dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"a\"},\"tags\":{\"SS\":[\"x\"]}}",
                                            -1, NULL));
  dyno_export_job_set_item_array (job, items);
  dyno_export_job_run_async (job, out, NULL, export_done_cb, &run);
  while (!run.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (run.error);
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  g_assert_cmpmem (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                   g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)),
                   "{\"pk\":\"a\",\"tags\":[\"x\"]}\n", 24);
  summary = dyno_export_job_dup_summary (job);
  g_assert_nonnull (strstr (summary, "tags:SS"));
}

static void
test_format_count (void)
{
  const struct { guint64 n; const char *text; } cases[] = {
    { 0, "0" }, { 7, "7" }, { 999, "999" }, { 1000, "1,000" }, { 9993, "9,993" },
    { 1234567, "1,234,567" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = dyno_transfer_format_count (cases[i].n);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

int
main (int    argc,
      char **argv)
{
  g_setenv ("DYNO_BATCH_BACKOFF_MS", "1", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/transfer/import/rejects-and-writes", test_import_rejects_and_writes);
  g_test_add_func ("/transfer/import/unprocessed-retried", test_import_unprocessed_retried);
  g_test_add_func ("/transfer/import/throttled-gives-up", test_import_throttled_gives_up);
  g_test_add_func ("/transfer/import/cancel-exact", test_import_cancel_exact);
  g_test_add_func ("/transfer/import/validation-split", test_import_validation_split);
  g_test_add_func ("/transfer/import/duplicate-key-later-wins",
                   test_import_duplicate_key_later_wins);
  g_test_add_func ("/transfer/import/plain-with-mapping", test_import_plain_with_mapping);
  g_test_add_func ("/transfer/import/csv-header-fails", test_import_csv_header_fails);
  g_test_add_func ("/transfer/import/dry-run", test_import_dry_run);
  g_test_add_func ("/transfer/import/missing-file", test_import_missing_file);
  g_test_add_func ("/transfer/import/garbled-retried", test_import_garbled_retried);
  g_test_add_func ("/transfer/import/garbled-persistent", test_import_garbled_persistent);
  g_test_add_func ("/transfer/import/foreign-unprocessed", test_import_foreign_unprocessed);
  g_test_add_func ("/transfer/import/cancel-in-flight-resume",
                   test_import_cancel_in_flight_resume);
  g_test_add_func ("/transfer/batch/partial-unprocessed", test_batch_partial_unprocessed);
  g_test_add_func ("/transfer/batch/all-unprocessed-gives-up",
                   test_batch_all_unprocessed_gives_up);
  g_test_add_func ("/transfer/batch/foreign-gives-up", test_batch_foreign_gives_up);
  g_test_add_func ("/transfer/batch/cancel-names-rest", test_batch_cancel_names_rest);
  g_test_add_func ("/transfer/export/loaded-items", test_export_loaded_items);
  g_test_add_func ("/transfer/export/all-pages", test_export_all_pages);
  g_test_add_func ("/transfer/export/csv-two-passes", test_export_csv_two_passes);
  g_test_add_func ("/transfer/export/failure-keeps-file", test_export_failure_keeps_file);
  g_test_add_func ("/transfer/export/plain-hints", test_export_plain_hints);
  g_test_add_func ("/transfer/export/stream-resume", test_export_stream_resume);
  g_test_add_func ("/transfer/format-count", test_format_count);

  return g_test_run ();
}
