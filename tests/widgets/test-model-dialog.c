/* test-model-dialog.c: Import NoSQL Workbench Model, worked in-process against the engine in
 * memory (tests/common/fault-backend.h) with the real models of tests/data/workbench-models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "dyno-model-dialog.h"
#include "widget-test-util.h"
#include "fault-backend.h"

#define MODELS_DIR TEST_SRCDIR "/data/workbench-models"

typedef struct {
  TestFaultBackend *fake;
  GtkWidget   *dialog;
  gboolean     tables_changed;
} Fixture;

static void
tables_changed_cb (GtkWidget *dialog,
                   Fixture   *f)
{
  f->tables_changed = TRUE;
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->fake = g_object_new (TEST_TYPE_FAULT_BACKEND, NULL);
  f->dialog = dyno_model_dialog_new (NULL, DYNO_BACKEND (f->fake));
  dyno_model_dialog_set_poll_interval (DYNO_MODEL_DIALOG (f->dialog), 1);
  g_signal_connect (f->dialog, "tables-changed", G_CALLBACK (tables_changed_cb), f);
  gtk_window_present (GTK_WINDOW (f->dialog));
  drain_main_context ();
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->dialog));
  drain_main_context ();
  g_clear_object (&f->fake);
}

static void
load (Fixture    *f,
      const char *file)
{
  g_autoptr(GFile) gfile = g_file_new_build_filename (MODELS_DIR, file, NULL);

  g_assert_true (dyno_model_dialog_load_file (DYNO_MODEL_DIALOG (f->dialog), gfile));
  drain_main_context ();
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

/* A label showing exactly @text somewhere under @root. */
static GtkWidget *
find_label (GtkWidget  *root,
            const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
create_and_wait (Fixture *f)
{
  GtkWidget *button = get_named (f->dialog, "create-tables");

  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (dyno_model_dialog_get_running (DYNO_MODEL_DIALOG (f->dialog)));
  while (dyno_model_dialog_get_running (DYNO_MODEL_DIALOG (f->dialog)))
    g_main_context_iteration (NULL, TRUE);
  drain_main_context ();
}

static void
test_shows_the_model (Fixture       *f,
                      gconstpointer  data)
{
  GtkWidget *list = get_named (f->dialog, "tables");

  /* nothing to create before a model is read */
  g_assert_false (gtk_widget_is_sensitive (get_named (f->dialog, "create-tables")));
  g_assert_cmpuint (count_children (list), ==, 0);

  load (f, "BankModel.json");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (get_named (f->dialog, "model"))), ==,
                   "Bank: 2 tables");
  g_assert_cmpuint (count_children (list), ==, 2);
  g_assert_nonnull (find_named (list, "PaymentScheduler"));
  g_assert_nonnull (find_named (list, "TransactionHistory"));
  g_assert_nonnull (find_label (list, "AccountID (S) · Timestamp (S) · on-demand · 2 items"));
  g_assert_nonnull (find_label (list, "Global index Query_TransactionID"));
  g_assert_nonnull (find_label (list, "TransactionID (S); projects all attributes"));
  g_assert_true (gtk_widget_is_sensitive (get_named (f->dialog, "create-tables")));

  /* another model replaces it; facets are chips with their item counts */
  load (f, "RecurringPaymentsSchema.json");
  g_assert_cmpuint (count_children (list), ==, 1);
  g_assert_null (find_named (list, "PaymentScheduler"));
  g_assert_nonnull (find_label (list, "PK (S) · SK (S) · provisioned 5 RCU / 5 WCU · 2 items"));
  g_assert_nonnull (find_label (list, "Subscription · 1 item"));
  g_assert_nonnull (find_label (list, "Receipts · 1 item"));
  g_assert_nonnull (find_label (list, "NextPaymentDate (S) · LastPaymentDate (S); projects the "
                                      "keys and Email, PaymentDay, PaymentAmount, SKU, "
                                      "PaymentDetails"));
  g_assert_null (shown_error (get_named (f->dialog, "error")));
}

static void
test_typed_path (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *path = g_build_filename (MODELS_DIR, "ChatSystemSchema.json", NULL);
  GtkWidget *entry = get_named (f->dialog, "model-path");

  /* a path being typed is no error; the whole path reads the model */
  type_text (entry, MODELS_DIR "/Chat");
  drain_main_context ();
  g_assert_null (shown_error (get_named (f->dialog, "error")));
  g_assert_false (gtk_widget_is_sensitive (get_named (f->dialog, "create-tables")));
  type_text (entry, path);
  drain_main_context ();
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (get_named (f->dialog, "model"))), ==,
                   "Chat: 1 table");
  g_assert_nonnull (find_named (get_named (f->dialog, "tables"), "Chat"));
  g_assert_true (gtk_widget_is_sensitive (get_named (f->dialog, "create-tables")));
  /* and emptied, nothing is left to create */
  type_text (entry, "");
  drain_main_context ();
  g_assert_cmpuint (count_children (get_named (f->dialog, "tables")), ==, 0);
  g_assert_false (gtk_widget_is_sensitive (get_named (f->dialog, "create-tables")));
}

static void
test_creates_the_tables (Fixture       *f,
                         gconstpointer  data)
{
  const char *summary;

  load (f, "BankModel.json");
  create_and_wait (f);

  g_assert_null (shown_error (get_named (f->dialog, "error")));
  g_assert_true (f->tables_changed);
  g_assert_cmpuint (f->fake->n_create_calls, ==, 2);
  g_assert_cmpuint (test_fault_backend_count (f->fake, "PaymentScheduler"), ==, 4);
  g_assert_cmpuint (test_fault_backend_count (f->fake, "TransactionHistory"), ==, 2);
  summary = gtk_label_get_text (GTK_LABEL (get_named (f->dialog, "summary")));
  g_assert_nonnull (strstr (summary, "PaymentScheduler created with 4 items."));
  g_assert_nonnull (strstr (summary, "TransactionHistory created with 2 items."));
}

static void
test_existing_table_creates_nothing (Fixture       *f,
                                     gconstpointer  data)
{
  const char *error;

  test_fault_backend_add_table (f->fake, "TransactionHistory");
  load (f, "BankModel.json");
  create_and_wait (f);

  error = shown_error (get_named (f->dialog, "error"));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error, "Table TransactionHistory already exists on this "
                                   "connection: nothing was created or written."));
  g_assert_cmpuint (f->fake->n_create_calls, ==, 0);
  g_assert_cmpuint (f->fake->n_batch_calls, ==, 0);
  g_assert_false (f->tables_changed);
  /* and the model can still be created elsewhere: the button is back */
  g_assert_true (gtk_widget_is_sensitive (get_named (f->dialog, "create-tables")));
}

static void
test_bad_file (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("test-model-dialog-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "broken.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  const char *error;

  g_assert_true (g_file_set_contents (path, "{\n  \"ModelName\": \"m\",\n  \"DataModel\": [,]\n}",
                                      -1, NULL));
  load (f, "BankModel.json");
  g_assert_false (dyno_model_dialog_load_file (DYNO_MODEL_DIALOG (f->dialog), file));
  drain_main_context ();
  error = shown_error (get_named (f->dialog, "error"));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error, "broken.json, line 3, column 17: The model is not "
                                          "valid JSON"));
  /* the model shown before is gone: nothing half-read to create */
  g_assert_cmpuint (count_children (get_named (f->dialog, "tables")), ==, 0);
  g_assert_false (gtk_widget_is_sensitive (get_named (f->dialog, "create-tables")));
  g_unlink (path);
  g_rmdir (dir);
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);

  ADD ("/model-dialog/shows-the-model", test_shows_the_model);
  ADD ("/model-dialog/typed-path", test_typed_path);
  ADD ("/model-dialog/creates-the-tables", test_creates_the_tables);
  ADD ("/model-dialog/existing-table-creates-nothing", test_existing_table_creates_nothing);
  ADD ("/model-dialog/bad-file", test_bad_file);

  return g_test_run ();
}
