/* test-transfer-dialog.c: the Import, Export and Sample schemas windows, worked in-process
 *
 * The fields are filled through their GTK API (type a path, pick a format, click) against the
 * engine in memory, and the windows are judged by what they show (summary, rejected rows,
 * errors) and by what reached the table or the file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "dyno-item-object.h"
#include "dyno-json.h"
#include "dyno-samples-dialog.h"
#include "dyno-transfer-dialog.h"
#include "widget-test-util.h"
#include "fault-backend.h"

typedef struct {
  TestFaultBackend   *fake;
  DynoTableInfo *info;
  char          *dir;
  GtkWidget     *dialog;
  gboolean       finished;
  gboolean       ok;
  gboolean       tables_changed;
  char          *opened;
  guint          n_items_written;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->fake = g_object_new (TEST_TYPE_FAULT_BACKEND, NULL);
  test_fault_backend_add_table (f->fake, "transfer");
  f->info = dyno_table_info_new ("transfer", "pk", DYNO_VALUE_S, "sk", DYNO_VALUE_N);
  f->dir = g_dir_make_tmp ("test-transfer-dialog-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  if (f->dialog != NULL)
    {
      /* a GtkText destroyed while it has the focus warns that it missed its focus-out */
      gtk_window_set_focus (GTK_WINDOW (f->dialog), NULL);
      drain_main_context ();
      gtk_window_destroy (GTK_WINDOW (f->dialog));
    }
  drain_main_context ();
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_clear_object (&f->fake);
  g_clear_pointer (&f->info, dyno_table_info_unref);
  g_free (f->opened);
}

static void
finished_cb (GtkWidget *dialog,
             gboolean   ok,
             Fixture   *f)
{
  f->finished = TRUE;
  f->ok = ok;
}

static void
tables_changed_cb (GtkWidget *dialog,
                   Fixture   *f)
{
  f->tables_changed = TRUE;
}

static void
items_written_cb (GtkWidget *dialog,
                  GPtrArray *items,
                  Fixture   *f)
{
  f->n_items_written += items->len;
}

static void
open_table_cb (GtkWidget  *dialog,
               const char *table,
               Fixture    *f)
{
  g_free (f->opened);
  f->opened = g_strdup (table);
}

static void
show_dialog (Fixture   *f,
             GtkWidget *dialog)
{
  f->dialog = dialog;
  if (DYNO_IS_TRANSFER_DIALOG (dialog))
    g_signal_connect (dialog, "finished", G_CALLBACK (finished_cb), f);
  else
    g_signal_connect (dialog, "tables-changed", G_CALLBACK (tables_changed_cb), f);
  gtk_window_present (GTK_WINDOW (dialog));
  drain_main_context ();
}

static void
click (Fixture    *f,
       const char *name)
{
  GtkWidget *button = get_named (f->dialog, name);

  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

static void
wait_finished (Fixture *f)
{
  while (!f->finished)
    g_main_context_iteration (NULL, TRUE);
  drain_main_context ();
}

static char *
write_file (Fixture    *f,
            const char *name,
            const char *contents)
{
  char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

static guint
count_children (GtkWidget *widget)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

/* The text of the @index-th rejected row (a GtkListBoxRow holding a label). */
static const char *
row_text (Fixture *f,
          guint    index)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (get_named (f->dialog,
                                                                               "rows_list")),
                                                      index);

  g_assert_nonnull (row);
  return gtk_label_get_label (GTK_LABEL (gtk_list_box_row_get_child (row)));
}

/* ---- import ------------------------------------------------------------------------------ */

static void
test_import_reports_rejected_rows (Fixture       *f,
                                   gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *path = NULL;
  GtkWidget *summary;

  for (guint line = 1; line <= 40; line++)
    {
      if (line == 3)
        g_string_append (text, "{\"sk\":{\"N\":\"3\"}}\n");
      else if (line == 27)
        g_string_append (text, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"x\"}}\n");
      else
        g_string_append_printf (text, "{\"pk\":{\"S\":\"P\"},\"sk\":{\"N\":\"%u\"}}\n", line);
    }
  path = write_file (f, "in.jsonl", text->str);

  show_dialog (f, dyno_import_dialog_new (NULL, DYNO_BACKEND (f->fake), f->info));
  g_signal_connect (f->dialog, "items-written", G_CALLBACK (items_written_cb), f);
  g_assert_false (gtk_widget_get_visible (get_named (f->dialog, "rows_list")) &&
                  gtk_widget_get_mapped (get_named (f->dialog, "rows_list")));
  type_text (get_named (f->dialog, "path_entry"), path);
  dropdown_choose (get_named (f->dialog, "format_dropdown"), "DynamoDB JSON lines");
  /* DynamoDB JSON says its own types: no mapping asked */
  g_assert_false (gtk_widget_get_visible (get_named (f->dialog, "mapping_entry")));
  click (f, "start_button");
  g_assert_true (dyno_transfer_dialog_get_running (DYNO_TRANSFER_DIALOG (f->dialog)));
  g_assert_false (gtk_widget_is_sensitive (get_named (f->dialog, "start_button")));
  wait_finished (f);

  g_assert_true (f->ok);
  g_assert_false (dyno_transfer_dialog_get_running (DYNO_TRANSFER_DIALOG (f->dialog)));
  summary = get_named (f->dialog, "summary_label");
  g_assert_true (gtk_widget_get_visible (summary));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (summary)), ==,
                   "38 items written, 2 rows rejected.");
  g_assert_cmpuint (test_fault_backend_count (f->fake, "transfer"), ==, 38);
  /* what DynamoDB confirmed, told as it was (the query page updates its loaded rows) */
  g_assert_cmpuint (f->n_items_written, ==, 38);
  g_assert_cmpuint (count_children (get_named (f->dialog, "rows_list")), ==, 2);
  g_assert_true (g_str_has_prefix (row_text (f, 0), "Line 3: "));
  g_assert_true (g_str_has_prefix (row_text (f, 1), "Line 27: "));
  g_assert_nonnull (strstr (row_text (f, 1), "x"));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (get_named (f->dialog, "cancel_button"))), ==,
                   "_Close");
}

static void
test_import_type_mapping (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *path = write_file (f, "plain.jsonl",
                                      "{\"pk\":\"a\",\"sk\":1,\"price\":\"12.50\","
                                      "\"tags\":[\"x\"]}\n");
  GtkWidget *mapping, *error;
  g_autofree char *stored = NULL;

  show_dialog (f, dyno_import_dialog_new (NULL, DYNO_BACKEND (f->fake), f->info));
  type_text (get_named (f->dialog, "path_entry"), path);
  dropdown_choose (get_named (f->dialog, "format_dropdown"), "Plain JSON lines");
  mapping = get_named (f->dialog, "mapping_entry");
  g_assert_true (gtk_widget_get_visible (mapping));

  /* a bad type is refused before anything is read */
  type_text (mapping, "price=STRING");
  click (f, "start_button");
  error = get_named (f->dialog, "error_label");
  g_assert_nonnull (shown_error (error));
  g_assert_nonnull (strstr (shown_error (error), "STRING"));
  g_assert_false (dyno_transfer_dialog_get_running (DYNO_TRANSFER_DIALOG (f->dialog)));
  g_assert_null (dyno_transfer_dialog_get_import_job (DYNO_TRANSFER_DIALOG (f->dialog)));

  type_text (mapping, "price=N,tags=SS");
  click (f, "start_button");
  g_assert_null (shown_error (error));
  wait_finished (f);
  g_assert_true (f->ok);
  stored = test_fault_backend_get (f->fake, "transfer", "a", "1");
  g_assert_nonnull (stored);
  g_assert_nonnull (strstr (stored, "{\"N\":\"12.5"));
  g_assert_nonnull (strstr (stored, "\"SS\""));
}

static void
test_import_needs_a_file (Fixture       *f,
                          gconstpointer  data)
{
  show_dialog (f, dyno_import_dialog_new (NULL, DYNO_BACKEND (f->fake), f->info));
  click (f, "start_button");
  g_assert_nonnull (shown_error (get_named (f->dialog, "error_label")));
  g_assert_false (dyno_transfer_dialog_get_running (DYNO_TRANSFER_DIALOG (f->dialog)));
}

static void
cancel_from_batch (TestFaultBackend *fake,
                   gpointer          data)
{
  Fixture *f = data;

  if (fake->n_batch_calls == 2)
    click (f, "cancel_button");
}

static void
test_import_cancel (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *path = NULL;
  DynoImportJob *job;
  const char *summary;

  for (guint i = 1; i <= 2000; i++)
    g_string_append_printf (text, "{\"pk\":{\"S\":\"P%u\"},\"sk\":{\"N\":\"%u\"}}\n", i % 9, i);
  path = write_file (f, "big.jsonl", text->str);
  f->fake->on_batch = cancel_from_batch;
  f->fake->on_batch_data = f;

  show_dialog (f, dyno_import_dialog_new (NULL, DYNO_BACKEND (f->fake), f->info));
  type_text (get_named (f->dialog, "path_entry"), path);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (get_named (f->dialog, "cancel_button"))), ==,
                   "_Close");
  click (f, "start_button");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (get_named (f->dialog, "cancel_button"))), ==,
                   "_Cancel");
  wait_finished (f);

  g_assert_false (f->ok);
  job = dyno_transfer_dialog_get_import_job (DYNO_TRANSFER_DIALOG (f->dialog));
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==,
                    test_fault_backend_count (f->fake, "transfer"));
  g_assert_cmpuint (dyno_import_job_get_n_written (job), <, 2000);
  summary = dyno_transfer_dialog_get_summary (DYNO_TRANSFER_DIALOG (f->dialog));
  g_assert_nonnull (strstr (summary, "cancelled"));
  g_assert_nonnull (strstr (summary, "safe"));
  /* the window stays, now with Close */
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (get_named (f->dialog, "cancel_button"))), ==,
                   "_Close");
}

static void
close_from_batch (TestFaultBackend *fake,
                  gpointer          data)
{
  Fixture *f = data;

  if (fake->n_batch_calls == 2 && f->dialog != NULL)
    {
      gtk_window_set_focus (GTK_WINDOW (f->dialog), NULL);
      gtk_window_destroy (GTK_WINDOW (f->dialog));
      f->dialog = NULL;
    }
}

/* Closing the window while an import runs cancels it; the job's last callbacks find no
 * widgets to update and touch none. */
static void
test_import_close_while_running (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autoptr(DynoImportJob) job = NULL;

  for (guint i = 1; i <= 2000; i++)
    g_string_append_printf (text, "{\"pk\":{\"S\":\"P%u\"},\"sk\":{\"N\":\"%u\"}}\n", i % 9, i);
  path = write_file (f, "big.jsonl", text->str);

  show_dialog (f, dyno_import_dialog_new (NULL, DYNO_BACKEND (f->fake), f->info));
  type_text (get_named (f->dialog, "path_entry"), path);
  click (f, "start_button");
  job = g_object_ref (dyno_transfer_dialog_get_import_job (DYNO_TRANSFER_DIALOG (f->dialog)));
  f->fake->on_batch = close_from_batch;
  f->fake->on_batch_data = f;
  while (dyno_import_job_get_running (job))
    g_main_context_iteration (NULL, TRUE);
  drain_main_context ();

  g_assert_null (f->dialog);
  g_assert_false (f->finished);
  g_assert_cmpuint (dyno_import_job_get_n_written (job), ==,
                    test_fault_backend_count (f->fake, "transfer"));
  g_assert_cmpuint (dyno_import_job_get_n_written (job), <, 2000);
}

/* ---- export ------------------------------------------------------------------------------ */

static GListModel *
loaded_items (guint n)
{
  GListStore *store = g_list_store_new (DYNO_TYPE_ITEM_OBJECT);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"%u\"},"
                                               "\"v\":{\"S\":\"x,y\"}}", i);
      g_autoptr(DynoItem) item = dyno_item_from_ddb_json (json, -1, NULL);
      g_autoptr(DynoItemObject) object = dyno_item_object_new (item, i);

      g_list_store_append (store, object);
    }
  return G_LIST_MODEL (store);
}

static void
test_export_loaded_csv (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GListModel) items = loaded_items (12);
  g_autofree char *path = g_build_filename (f->dir, "out.csv", NULL);
  g_autofree char *contents = NULL;
  GtkWidget *loaded, *all_pages, *type_row;

  show_dialog (f, dyno_export_dialog_new (NULL, DYNO_BACKEND (f->fake), f->info, items, NULL));
  loaded = get_named (f->dialog, "loaded_check");
  all_pages = get_named (f->dialog, "all_pages_check");
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (loaded)));
  g_assert_false (gtk_widget_is_sensitive (all_pages));   /* no request given */

  type_row = get_named (f->dialog, "type_row_switch");
  g_assert_false (gtk_widget_get_visible (type_row));
  dropdown_choose (get_named (f->dialog, "format_dropdown"), "CSV");
  g_assert_true (gtk_widget_get_visible (type_row));
  gtk_switch_set_active (GTK_SWITCH (type_row), FALSE);
  type_text (get_named (f->dialog, "path_entry"), path);
  click (f, "start_button");
  wait_finished (f);

  g_assert_true (f->ok);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "pk,sk,v\r\na,0,\"x,y\"\r\n"));
  g_assert_null (strstr (contents, "#types:"));
  g_assert_cmpstr (dyno_transfer_dialog_get_summary (DYNO_TRANSFER_DIALOG (f->dialog)), ==,
                   "12 items exported.");
}

static void
test_export_all_pages (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GListModel) items = loaded_items (3);
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "transfer");
  g_autofree char *path = g_build_filename (f->dir, "all.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  for (guint i = 0; i < 25; i++)
    {
      g_autofree char *item = g_strdup_printf ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"%u\"}}", i);

      test_fault_backend_put (f->fake, "transfer", item);
    }
  /* pages of 10 items: DynamoDB's pages are 1 MB, which 25 small items do not fill */
  request->limit = 10;

  show_dialog (f, dyno_export_dialog_new (NULL, DYNO_BACKEND (f->fake), f->info, items,
                                          request));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (get_named (f->dialog, "all_pages_check")), TRUE);
  type_text (get_named (f->dialog, "path_entry"), path);
  click (f, "start_button");
  wait_finished (f);

  g_assert_true (f->ok);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 26);
  g_assert_cmpstr (dyno_transfer_dialog_get_summary (DYNO_TRANSFER_DIALOG (f->dialog)), ==,
                   "25 items exported (3 pages).");
}

/* ---- samples ----------------------------------------------------------------------------- */

/* The row of @sample in the list, found by its title as a person reads it: “Title (name)”. */
static AdwActionRow *
sample_row (GtkWidget  *list,
            const char *sample)
{
  g_autofree char *suffix = g_strdup_printf (" (%s)", sample);

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (g_str_has_suffix (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), suffix))
      return ADW_ACTION_ROW (row);
  g_error ("no sample row for “%s”", sample);
}

static void
test_samples_load (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *list, *summary;

  show_dialog (f, dyno_samples_dialog_new (NULL, DYNO_BACKEND (f->fake)));
  dyno_samples_dialog_set_poll_interval (DYNO_SAMPLES_DIALOG (f->dialog), 1);
  list = get_named (f->dialog, "list");
  g_assert_cmpuint (count_children (list), ==, 4);
  g_assert_null (shown_error (get_named (f->dialog, "error_label")));

  click (f, "load_button");
  g_assert_true (dyno_samples_dialog_get_running (DYNO_SAMPLES_DIALOG (f->dialog)));
  while (dyno_samples_dialog_get_running (DYNO_SAMPLES_DIALOG (f->dialog)))
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (f->tables_changed);
  for (const char * const *name = (const char * const []) { "file-tree", "audit-log", "sensors",
                                                            "tenant", NULL };
       *name != NULL; name++)
    g_assert_cmpuint (test_fault_backend_count (f->fake, *name), >=, 10);
  summary = get_named (f->dialog, "summary_label");
  g_assert_true (gtk_widget_get_visible (summary));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (summary)),
                            "tenant created with 16 items."));

  /* each loaded sample's row now offers its table; Open names it and closes the dialog */
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    g_assert_true (gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (row)));
  g_signal_connect (f->dialog, "open-table", G_CALLBACK (open_table_cb), f);
  g_object_add_weak_pointer (G_OBJECT (f->dialog), (gpointer *) &f->dialog);
  g_signal_emit_by_name (adw_action_row_get_activatable_widget (sample_row (list, "tenant")),
                         "clicked");
  drain_main_context ();
  g_assert_cmpstr (f->opened, ==, "tenant");
  g_assert_null (f->dialog);
}

static void
test_samples_rows_inert (Fixture       *f,
                         gconstpointer  data)
{
  GtkWidget *list;

  show_dialog (f, dyno_samples_dialog_new (NULL, DYNO_BACKEND (f->fake)));
  list = get_named (f->dialog, "list");
  /* before loading, a row has nothing to do: it must not look (or act) clickable */
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    g_assert_false (gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (row)));
  g_assert_null (adw_action_row_get_activatable_widget (sample_row (list, "tenant")));
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  /* No cursor blink: its timer warns when a window loses the focus without a focus-out,
   * which Xvfb without a window manager does when the next test's window appears. */
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);

  ADD ("/transfer-dialog/import/rejected-rows", test_import_reports_rejected_rows);
  ADD ("/transfer-dialog/import/type-mapping", test_import_type_mapping);
  ADD ("/transfer-dialog/import/needs-a-file", test_import_needs_a_file);
  ADD ("/transfer-dialog/import/cancel", test_import_cancel);
  ADD ("/transfer-dialog/import/close-while-running", test_import_close_while_running);
  ADD ("/transfer-dialog/export/loaded-csv", test_export_loaded_csv);
  ADD ("/transfer-dialog/export/all-pages", test_export_all_pages);
  ADD ("/transfer-dialog/samples/load", test_samples_load);
  ADD ("/transfer-dialog/samples/rows-inert", test_samples_rows_inert);

  return g_test_run ();
}
