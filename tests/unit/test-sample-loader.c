/* test-sample-loader.c: the sample schemas created and filled on the engine in memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-samples.h"

#include "dyno-error.h"
#include "../common/fault-backend.h"

static GPtrArray *
load_samples (void)
{
  g_autofree char *path = g_build_filename (TEST_SRCDIR, "..", "data", "samples", NULL);
  g_autoptr(GFile) dir = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  GPtrArray *samples = dyno_samples_load_directory (dir, &error);

  g_assert_no_error (error);
  g_assert_nonnull (samples);
  return samples;
}

static guint
count_lines (GBytes *bytes)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  guint n = 0;

  for (gsize i = 0; i < len; i++)
    if (data[i] == '\n' && i > 0 && data[i - 1] != '\n')
      n++;
  return n;
}

typedef struct {
  gboolean      done;
  gboolean      ok;
  GError       *error;
  GPtrArray    *messages;
  GCancellable *cancel_at_second;
} Run;

static void
progress_cb (DynoSampleLoader *loader,
             const char       *sample,
             const char       *message,
             Run              *run)
{
  g_assert_nonnull (sample);
  g_ptr_array_add (run->messages, g_strdup (message));
  if (run->cancel_at_second != NULL && g_strcmp0 (sample, "audit-log") == 0)
    g_cancellable_cancel (run->cancel_at_second);
}

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Run *run = user_data;

  run->ok = dyno_sample_loader_run_finish (DYNO_SAMPLE_LOADER (source), result, &run->error);
  run->done = TRUE;
}

static DynoSampleLoader *
run_loader (TestFaultBackend *fake,
            GPtrArray        *samples,
            const char       *prefix,
            GCancellable     *cancellable,
            Run              *run)
{
  DynoSampleLoader *loader = dyno_sample_loader_new (DYNO_BACKEND (fake), samples);

  run->messages = g_ptr_array_new_with_free_func (g_free);
  dyno_sample_loader_set_prefix (loader, prefix);
  dyno_sample_loader_set_polling (loader, 1, 10);
  g_signal_connect (loader, "progress", G_CALLBACK (progress_cb), run);
  dyno_sample_loader_run_async (loader, cancellable, done_cb, run);
  while (!run->done)
    g_main_context_iteration (NULL, TRUE);
  return loader;
}

static void
run_clear (Run *run)
{
  g_clear_error (&run->error);
  g_clear_pointer (&run->messages, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static gboolean
messages_contain (Run        *run,
                  const char *needle)
{
  for (guint i = 0; i < run->messages->len; i++)
    if (strstr (g_ptr_array_index (run->messages, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_load_directory (void)
{
  g_autoptr(GPtrArray) samples = load_samples ();
  const char * const *names = dyno_samples_get_names ();

  g_assert_cmpuint (samples->len, ==, 4);
  g_assert_cmpuint (g_strv_length ((char **) names), ==, 4);
  for (guint i = 0; i < samples->len; i++)
    {
      DynoSample *sample = g_ptr_array_index (samples, i);

      g_assert_cmpstr (sample->name, ==, names[i]);
      g_assert_nonnull (strstr (sample->table_json, "\"KeySchema\""));
      g_assert_cmpuint (count_lines (sample->items_jsonl), >=, 10);
      g_assert_nonnull (dyno_samples_get_title (sample->name));
      g_assert_nonnull (dyno_samples_get_description (sample->name));
    }
  g_assert_null (dyno_samples_get_title ("nope"));
}

static void
test_load_missing (void)
{
  g_autoptr(GFile) dir = g_file_new_for_path ("/nonexistent-samples");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) samples = dyno_samples_load_directory (dir, &error);

  g_assert_null (samples);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  g_clear_error (&error);
  samples = dyno_samples_load_resource ("/com/dynotable/Missing/samples", &error);
  g_assert_null (samples);
  g_assert_nonnull (error);
}

static void
test_create_and_fill (void)
{
  g_autoptr(TestFaultBackend) fake = g_object_new (TEST_TYPE_FAULT_BACKEND, NULL);
  g_autoptr(GPtrArray) samples = load_samples ();
  g_autoptr(DynoSampleLoader) loader = NULL;
  g_autoptr(DynoSampleLoader) again = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *summary_again = NULL;
  g_auto(Run) run = { 0, };
  g_auto(Run) rerun = { 0, };
  GPtrArray *results;

  loader = run_loader (fake, samples, "demo-", NULL, &run);
  g_assert_no_error (run.error);
  g_assert_true (run.ok);
  g_assert_cmpuint (dyno_sample_loader_get_n_done (loader), ==, 4);
  g_assert_cmpuint (dyno_sample_loader_get_n_total (loader), ==, 4);
  g_assert_cmpuint (fake->n_create_calls, ==, 4);
  /* each new table was polled until ACTIVE: described CREATING once, then ACTIVE */
  g_assert_cmpuint (fake->n_describe_calls, ==, 2 * 4);

  results = dyno_sample_loader_get_results (loader);
  g_assert_cmpuint (results->len, ==, 4);
  for (guint i = 0; i < results->len; i++)
    {
      DynoSampleResult *res = g_ptr_array_index (results, i);
      DynoSample *sample = g_ptr_array_index (samples, i);
      guint n_lines = count_lines (sample->items_jsonl);

      g_assert_cmpstr (res->sample, ==, sample->name);
      g_assert_true (g_str_has_prefix (res->table_name, "demo-"));
      g_assert_true (res->created);
      g_assert_false (res->existed);
      g_assert_null (res->error);
      g_assert_cmpuint (res->n_items, ==, n_lines);
      g_assert_cmpuint (test_fault_backend_count (fake, res->table_name), ==, n_lines);
    }
  g_assert_true (test_fault_backend_has_table (fake, "demo-tenant"));
  g_assert_true (messages_contain (&run, "Creating table demo-tenant"));
  g_assert_true (messages_contain (&run, "Waiting for table demo-sensors"));
  summary = dyno_sample_loader_dup_summary (loader);
  g_assert_nonnull (strstr (summary, "demo-file-tree created with 18 items."));

  /* again: the tables exist; their items are written again, nothing is duplicated */
  again = run_loader (fake, samples, "demo-", NULL, &rerun);
  g_assert_no_error (rerun.error);
  results = dyno_sample_loader_get_results (again);
  for (guint i = 0; i < results->len; i++)
    {
      DynoSampleResult *res = g_ptr_array_index (results, i);

      g_assert_false (res->created);
      g_assert_true (res->existed);
      g_assert_cmpuint (test_fault_backend_count (fake, res->table_name), ==, res->n_items);
    }
  g_assert_true (messages_contain (&rerun, "exists already"));
  summary_again = dyno_sample_loader_dup_summary (again);
  g_assert_nonnull (strstr (summary_again, "existed already"));
}

static void
test_conflicting_table (void)
{
  g_autoptr(TestFaultBackend) fake = g_object_new (TEST_TYPE_FAULT_BACKEND, NULL);
  g_autoptr(GPtrArray) samples = load_samples ();
  g_autoptr(DynoSampleLoader) loader = NULL;
  g_auto(Run) run = { 0, };
  GPtrArray *results;
  DynoSampleResult *tenant;

  /* a table named tenant with another key schema (sort key sk of type N) */
  test_fault_backend_add_table (fake, "tenant");
  loader = run_loader (fake, samples, "", NULL, &run);
  g_assert_false (run.ok);
  g_assert_error (run.error, DYNO_ERROR, DYNO_ERROR_FAILED);
  g_assert_nonnull (strstr (run.error->message, "tenant"));

  results = dyno_sample_loader_get_results (loader);
  g_assert_cmpuint (results->len, ==, 4);
  for (guint i = 0; i < 3; i++)
    g_assert_null (((DynoSampleResult *) g_ptr_array_index (results, i))->error);
  tenant = g_ptr_array_index (results, 3);
  g_assert_true (tenant->existed);
  g_assert_nonnull (tenant->error);
  g_assert_nonnull (strstr (tenant->error, "line 1"));
  g_assert_cmpuint (test_fault_backend_count (fake, "tenant"), ==, 0);
  g_assert_cmpuint (test_fault_backend_count (fake, "sensors"), >, 0);
}

static void
test_cancel (void)
{
  g_autoptr(TestFaultBackend) fake = g_object_new (TEST_TYPE_FAULT_BACKEND, NULL);
  g_autoptr(GPtrArray) samples = load_samples ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(DynoSampleLoader) loader = NULL;
  g_auto(Run) run = { 0, };

  run.cancel_at_second = cancellable;
  loader = run_loader (fake, samples, "", cancellable, &run);
  g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (dyno_sample_loader_get_n_done (loader), ==, 1);
  g_assert_cmpuint (test_fault_backend_count (fake, "file-tree"), ==, 18);
  g_assert_false (test_fault_backend_has_table (fake, "sensors"));
  g_assert_false (test_fault_backend_has_table (fake, "tenant"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/samples/load-directory", test_load_directory);
  g_test_add_func ("/samples/load-missing", test_load_missing);
  g_test_add_func ("/samples/create-and-fill", test_create_and_fill);
  g_test_add_func ("/samples/conflicting-table", test_conflicting_table);
  g_test_add_func ("/samples/cancel", test_cancel);

  return g_test_run ();
}
