/* dyno-transfer-dialog.c: the Import and Export windows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-transfer-dialog.h"

#include <string.h>

#include <glib/gi18n.h>

#include "dyno-widget-util.h"

/* The rejected-rows list shows this many; the summary counts them all. */
#define MAX_LISTED_ROWS 1000

/* ---- import / export ---------------------------------------------------------------------- */

typedef enum {
  MODE_IMPORT,
  MODE_EXPORT,
} Mode;

struct _DynoTransferDialog
{
  AdwWindow       parent_instance;

  Mode            mode;
  DynoBackend    *backend;
  DynoTableInfo  *info;
  GListModel     *loaded_items;
  DynoRequest    *request;

  GtkWidget      *intro_label;
  GtkWidget      *path_entry;
  GtkWidget      *choose_button;
  GtkWidget      *format_dropdown;
  GtkWidget      *mapping_label;
  GtkWidget      *mapping_entry;
  GtkWidget      *type_row_label;
  GtkWidget      *type_row_switch;
  GtkWidget      *loaded_check;
  GtkWidget      *all_pages_check;
  GtkWidget      *source_label;
  GtkWidget      *source_box;
  GtkWidget      *error_label;
  GtkWidget      *progress_bar;
  GtkWidget      *counts_label;
  GtkWidget      *summary_label;
  GtkWidget      *rows_scroller;
  GtkWidget      *rows_list;
  GtkWidget      *cancel_button;
  GtkWidget      *start_button;

  GtkFileChooserNative *chooser;
  GCancellable   *cancellable;
  DynoImportJob  *import_job;
  DynoExportJob  *export_job;
  char           *summary;
  /* closed while a job ran: its callbacks (which hold a reference) touch no widget */
  gboolean        disposed;
};

enum {
  FINISHED,
  ITEMS_WRITTEN,
  N_TRANSFER_SIGNALS
};

static guint transfer_signals[N_TRANSFER_SIGNALS];

G_DEFINE_FINAL_TYPE (DynoTransferDialog, dyno_transfer_dialog, ADW_TYPE_WINDOW)

/* Import formats in the dropdown's order. */
static const DynoImportFormat import_formats[] = {
  DYNO_IMPORT_AUTO, DYNO_IMPORT_DDB_JSONL, DYNO_IMPORT_PLAIN_JSONL, DYNO_IMPORT_JSON_ARRAY,
  DYNO_IMPORT_CSV,
};
static const DynoExportFormat export_formats[] = {
  DYNO_EXPORT_DDB_JSONL, DYNO_EXPORT_PLAIN_JSONL, DYNO_EXPORT_CSV,
};

static void
dyno_transfer_dialog_dispose (GObject *object)
{
  DynoTransferDialog *self = DYNO_TRANSFER_DIALOG (object);

  self->disposed = TRUE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  G_OBJECT_CLASS (dyno_transfer_dialog_parent_class)->dispose (object);
}

static void
dyno_transfer_dialog_finalize (GObject *object)
{
  DynoTransferDialog *self = DYNO_TRANSFER_DIALOG (object);

  g_clear_object (&self->backend);
  g_clear_pointer (&self->info, dyno_table_info_unref);
  g_clear_object (&self->loaded_items);
  g_clear_pointer (&self->request, dyno_request_free);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->import_job);
  g_clear_object (&self->export_job);
  g_free (self->summary);

  G_OBJECT_CLASS (dyno_transfer_dialog_parent_class)->finalize (object);
}

static void choose_clicked_cb  (DynoTransferDialog *self);
static void format_changed_cb  (DynoTransferDialog *self);
static void cancel_clicked_cb  (DynoTransferDialog *self);
static void start_clicked_cb   (DynoTransferDialog *self);

static void
dyno_transfer_dialog_class_init (DynoTransferDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_transfer_dialog_dispose;
  object_class->finalize = dyno_transfer_dialog_finalize;

  transfer_signals[FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  /* import: items DynamoDB confirmed written (GPtrArray of DynoItem*, borrowed), as they are */
  transfer_signals[ITEMS_WRITTEN] =
    g_signal_new ("items-written", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-transfer-dialog.ui");
#define BIND(member) gtk_widget_class_bind_template_child (widget_class, DynoTransferDialog, member)
  BIND (intro_label);
  BIND (path_entry);
  BIND (choose_button);
  BIND (format_dropdown);
  BIND (mapping_label);
  BIND (mapping_entry);
  BIND (type_row_label);
  BIND (type_row_switch);
  BIND (source_label);
  BIND (source_box);
  BIND (loaded_check);
  BIND (all_pages_check);
  BIND (error_label);
  BIND (progress_bar);
  BIND (counts_label);
  BIND (summary_label);
  BIND (rows_scroller);
  BIND (rows_list);
  BIND (cancel_button);
  BIND (start_button);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, choose_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, format_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, start_clicked_cb);
}

static void
import_written_cb (DynoImportJob      *job,
                   GPtrArray          *items,
                   DynoTransferDialog *self)
{
  g_signal_emit (self, transfer_signals[ITEMS_WRITTEN], 0, items);
}

static void
dyno_transfer_dialog_init (DynoTransferDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  dyno_widget_expose_activate (self->format_dropdown);
  dyno_widget_expose_activate (self->loaded_check);
  dyno_widget_expose_activate (self->all_pages_check);
}

static gboolean
is_plain_or_csv (DynoTransferDialog *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->format_dropdown));

  if (self->mode == MODE_IMPORT)
    return selected < G_N_ELEMENTS (import_formats)
           && (import_formats[selected] == DYNO_IMPORT_PLAIN_JSONL
               || import_formats[selected] == DYNO_IMPORT_CSV
               || import_formats[selected] == DYNO_IMPORT_AUTO
               || import_formats[selected] == DYNO_IMPORT_JSON_ARRAY);
  return selected < G_N_ELEMENTS (export_formats) && export_formats[selected] == DYNO_EXPORT_CSV;
}

/* Options that only some formats have. */
static void
update_format_options (DynoTransferDialog *self)
{
  gboolean shown = is_plain_or_csv (self);

  gtk_widget_set_visible (self->mapping_label, shown);
  gtk_widget_set_visible (self->mapping_entry, shown);
  if (self->mode == MODE_EXPORT)
    {
      gtk_widget_set_visible (self->type_row_label, shown);
      gtk_widget_set_visible (self->type_row_switch, shown);
    }
}

static void
format_changed_cb (DynoTransferDialog *self)
{
  update_format_options (self);
}

static void
show_error (DynoTransferDialog *self,
            const char         *message)
{
  gtk_label_set_text (GTK_LABEL (self->error_label), message != NULL ? message : "");
  gtk_widget_set_visible (self->error_label, message != NULL);
}

static void
set_running (DynoTransferDialog *self,
             gboolean            running)
{
  gtk_widget_set_sensitive (self->start_button, !running);
  gtk_widget_set_sensitive (self->path_entry, !running);
  gtk_widget_set_sensitive (self->choose_button, !running);
  gtk_widget_set_sensitive (self->format_dropdown, !running);
  gtk_widget_set_sensitive (self->mapping_entry, !running);
  gtk_widget_set_sensitive (self->type_row_switch, !running);
  gtk_button_set_label (GTK_BUTTON (self->cancel_button), running ? _("_Cancel") : _("_Close"));
  dyno_widget_set_accessible_label (self->cancel_button, running ? _("Cancel") : _("Close"));
  gtk_widget_set_visible (self->progress_bar, TRUE);
}

static void
cancel_clicked_cb (DynoTransferDialog *self)
{
  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      gtk_widget_set_sensitive (self->cancel_button, FALSE);
      gtk_label_set_text (GTK_LABEL (self->counts_label),
                          self->mode == MODE_IMPORT
                          ? _("Cancelling: waiting for the batches already sent…")
                          : _("Cancelling…"));
      return;
    }
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
chooser_response_cb (GtkNativeDialog    *chooser,
                     int                 response,
                     DynoTransferDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path);
    }
  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);
}

static void
choose_clicked_cb (DynoTransferDialog *self)
{
  gboolean import = self->mode == MODE_IMPORT;

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (import ? _("Import From") : _("Export To"),
                                               GTK_WINDOW (self),
                                               import ? GTK_FILE_CHOOSER_ACTION_OPEN
                                                      : GTK_FILE_CHOOSER_ACTION_SAVE,
                                               import ? _("_Open") : _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (!import)
    {
      gboolean csv = is_plain_or_csv (self);
      g_autofree char *name = g_strdup_printf ("%s.%s", dyno_table_info_get_name (self->info),
                                               csv ? "csv" : "jsonl");

      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
    }
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static GFile *
chosen_file (DynoTransferDialog *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));
  g_autofree char *stripped = g_strstrip (g_strdup (text));

  if (*stripped == '\0')
    return NULL;
  return g_file_new_for_commandline_arg (stripped);
}

/* "price=N,tags=SS" or "price:N,tags:SS" → the mapping; NULL text → NULL, no error. */
static gboolean
parse_mapping (DynoTransferDialog  *self,
               GHashTable         **out)
{
  const char *typed = gtk_editable_get_text (GTK_EDITABLE (self->mapping_entry));
  g_autofree char *text = g_strstrip (g_strdup (typed));
  g_autoptr(GError) error = NULL;

  *out = NULL;
  if (*text == '\0' || !gtk_widget_get_visible (self->mapping_entry))
    return TRUE;
  g_strdelimit (text, "=", ':');
  *out = dyno_import_parse_type_mapping (text, &error);
  if (*out == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Type mapping: %s"), error->message);

      show_error (self, message);
      return FALSE;
    }
  return TRUE;
}

static void
clear_rows (DynoTransferDialog *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->rows_list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->rows_list), child);
  gtk_widget_set_visible (self->rows_scroller, FALSE);
}

static void
add_row_label (DynoTransferDialog *self,
               const char         *text)
{
  GtkWidget *label = dyno_wrapping_label_new (text);

  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_end (label, 6);
  gtk_widget_set_margin_top (label, 3);
  gtk_widget_set_margin_bottom (label, 3);
  gtk_list_box_append (GTK_LIST_BOX (self->rows_list), label);
}

static void
finish (DynoTransferDialog *self,
        gboolean            ok,
        char               *summary)
{
  g_free (self->summary);
  self->summary = summary;
  gtk_label_set_text (GTK_LABEL (self->summary_label), summary);
  gtk_widget_set_visible (self->summary_label, TRUE);
  g_clear_object (&self->cancellable);
  gtk_widget_set_sensitive (self->cancel_button, TRUE);
  set_running (self, FALSE);
  g_signal_emit (self, transfer_signals[FINISHED], 0, ok);
}

/* The number ngettext() chooses a plural form by: counts past its range
 * take the form of a large number, which is what they are. */
static unsigned long
plural_count (guint64 n)
{
  return n > G_MAXULONG ? 1000000 : (unsigned long) n;
}

/* ---- import ---- */

static void
import_progress_cb (DynoImportJob      *job,
                    DynoTransferDialog *self)
{
  guint64 total = dyno_import_job_get_bytes_total (job);
  g_autofree char *read = dyno_transfer_format_count (dyno_import_job_get_n_read (job));
  g_autofree char *written = dyno_transfer_format_count (dyno_import_job_get_n_written (job));
  g_autofree char *rejected = dyno_transfer_format_count (dyno_import_job_get_n_rejected (job));
  g_autofree char *counts = NULL;
  if (self->disposed)
    return;

  if (total > 0)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar),
                                   MIN (1.0, (double) dyno_import_job_get_bytes_read (job)
                                             / (double) total));
  else
    gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->progress_bar));
  /* Translators: counts of rows, e.g. "1,200 rows read, 1,150 written, 3 rejected"; the
   * plural form follows the number of rows read */
  counts = g_strdup_printf (ngettext ("%s row read, %s written, %s rejected",
                                      "%s rows read, %s written, %s rejected",
                                      plural_count (dyno_import_job_get_n_read (job))),
                            read, written, rejected);
  if (self->cancellable == NULL || !g_cancellable_is_cancelled (self->cancellable))
    gtk_label_set_text (GTK_LABEL (self->counts_label), counts);
}

static void
import_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(DynoTransferDialog) self = dyno_weak_ref_steal (user_data);
  DynoImportJob *job = DYNO_IMPORT_JOB (source);
  g_autoptr(GError) error = NULL;
  GPtrArray *rows;
  gboolean ok;
  g_autofree char *summary = NULL;

  ok = dyno_import_job_run_finish (job, result, &error);
  if (self == NULL || self->disposed)
    return;
  import_progress_cb (job, self);
  summary = dyno_import_job_dup_summary (job);
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      && dyno_import_job_get_n_read (job) == 0)
    {
      /* nothing was read: the error is the whole story */
      g_free (summary);
      summary = g_strdup (error->message);
    }
  else if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_error (self, error->message);

  rows = dyno_import_job_get_rows (job);
  for (guint i = 0; i < rows->len && i < MAX_LISTED_ROWS; i++)
    {
      DynoTransferRow *row = g_ptr_array_index (rows, i);
      g_autofree char *line = dyno_transfer_format_count (row->line);
      g_autofree char *text = NULL;

      if (row->status == DYNO_TRANSFER_ROW_REJECTED)
        text = g_strdup_printf (_("Line %s: %s"), line, row->reason);
      else
        text = g_strdup_printf (_("Line %s (not written): %s"), line, row->reason);
      add_row_label (self, text);
    }
  if (rows->len > MAX_LISTED_ROWS)
    {
      g_autofree char *more = dyno_transfer_format_count (rows->len - MAX_LISTED_ROWS);
      g_autofree char *text = g_strdup_printf (_("… and %s more rows"), more);

      add_row_label (self, text);
    }
  gtk_widget_set_visible (self->rows_scroller, rows->len > 0);
  if (ok)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 1.0);
  finish (self, ok, g_steal_pointer (&summary));
}

static void
import_start (DynoTransferDialog *self)
{
  g_autoptr(GFile) file = chosen_file (self);
  g_autoptr(GHashTable) mapping = NULL;
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->format_dropdown));
  DynoImportFormat format = selected < G_N_ELEMENTS (import_formats) ? import_formats[selected]
                                                                     : DYNO_IMPORT_AUTO;

  show_error (self, NULL);
  if (file == NULL)
    {
      show_error (self, _("Choose the file to import."));
      return;
    }
  if (!parse_mapping (self, &mapping))
    return;
  if (format == DYNO_IMPORT_AUTO)
    {
      g_autofree char *base = g_file_get_basename (file);

      if (base != NULL && g_str_has_suffix (base, ".csv"))
        format = DYNO_IMPORT_CSV;
    }

  clear_rows (self);
  gtk_widget_set_visible (self->summary_label, FALSE);
  g_clear_object (&self->import_job);
  self->import_job = dyno_import_job_new (self->backend, self->info, format);
  dyno_import_job_set_type_mapping (self->import_job, mapping);
  g_signal_connect_object (self->import_job, "progress", G_CALLBACK (import_progress_cb), self, 0);
  if (g_signal_has_handler_pending (self, transfer_signals[ITEMS_WRITTEN], 0, FALSE))
    g_signal_connect_object (self->import_job, "written", G_CALLBACK (import_written_cb), self, 0);
  self->cancellable = g_cancellable_new ();
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  gtk_label_set_text (GTK_LABEL (self->counts_label), _("Reading…"));
  set_running (self, TRUE);
  dyno_import_job_run_file_async (self->import_job, file, self->cancellable, import_done_cb,
                                  dyno_weak_ref_new (self));
}

/* ---- export ---- */

static void
export_progress_cb (DynoExportJob      *job,
                    DynoTransferDialog *self)
{
  guint64 total = dyno_export_job_get_n_total (job);
  g_autofree char *done = dyno_transfer_format_count (dyno_export_job_get_n_items (job));
  g_autofree char *counts = NULL;
  if (self->disposed)
    return;

  if (total > 0)
    {
      g_autofree char *all = dyno_transfer_format_count (total);

      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar),
                                     MIN (1.0, (double) dyno_export_job_get_n_items (job)
                                               / (double) total));
      /* Translators: the plural form follows the total, e.g. "1,200 of 5,000 items written" */
      counts = g_strdup_printf (ngettext ("%s of %s item written", "%s of %s items written",
                                          plural_count (total)),
                                done, all);
    }
  else
    {
      gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->progress_bar));
      /* Translators: the plural form follows the number of items, e.g. "Page 3: 1 item" */
      counts = g_strdup_printf (ngettext ("Page %u: %s item", "Page %u: %s items",
                                          plural_count (dyno_export_job_get_n_items (job))),
                                dyno_export_job_get_n_pages (job), done);
    }
  if (self->cancellable == NULL || !g_cancellable_is_cancelled (self->cancellable))
    gtk_label_set_text (GTK_LABEL (self->counts_label), counts);
}

static void
export_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(DynoTransferDialog) self = dyno_weak_ref_steal (user_data);
  DynoExportJob *job = DYNO_EXPORT_JOB (source);
  g_autoptr(GError) error = NULL;
  gboolean ok;
  char *summary;

  ok = dyno_export_job_run_finish (job, result, &error);
  if (self == NULL || self->disposed)
    return;
  if (ok)
    {
      summary = dyno_export_job_dup_summary (job);
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 1.0);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    summary = g_strdup (_("The export was cancelled; the file was not written."));
  else
    summary = g_strdup_printf (_("The export failed; the file was not written. %s"),
                               error->message);
  finish (self, ok, summary);
}

static void
export_start (DynoTransferDialog *self)
{
  g_autoptr(GFile) file = chosen_file (self);
  g_autoptr(GHashTable) types = NULL;
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->format_dropdown));
  DynoExportFormat format = selected < G_N_ELEMENTS (export_formats) ? export_formats[selected]
                                                                     : DYNO_EXPORT_DDB_JSONL;
  gboolean all_pages = gtk_check_button_get_active (GTK_CHECK_BUTTON (self->all_pages_check));
  DynoExporter *exporter;

  show_error (self, NULL);
  if (file == NULL)
    {
      show_error (self, _("Choose the file to export to."));
      return;
    }
  if (!parse_mapping (self, &types))
    return;

  g_clear_object (&self->export_job);
  self->export_job = dyno_export_job_new (format, format == DYNO_EXPORT_CSV ? self->info : NULL);
  exporter = dyno_export_job_get_exporter (self->export_job);
  if (format == DYNO_EXPORT_CSV)
    {
      dyno_exporter_set_type_row (exporter,
                                  gtk_switch_get_active (GTK_SWITCH (self->type_row_switch)));
      if (types != NULL)
        {
          GHashTableIter iter;
          gpointer name, type;

          g_hash_table_iter_init (&iter, types);
          while (g_hash_table_iter_next (&iter, &name, &type))
            dyno_exporter_set_column_type (exporter, name, GPOINTER_TO_INT (type));
        }
    }
  if (all_pages && self->request != NULL)
    dyno_export_job_set_request (self->export_job, self->backend, self->request);
  else if (self->loaded_items != NULL)
    dyno_export_job_set_items (self->export_job, self->loaded_items);
  else
    {
      show_error (self, _("There are no loaded results to export."));
      return;
    }

  g_signal_connect_object (self->export_job, "progress", G_CALLBACK (export_progress_cb), self, 0);
  self->cancellable = g_cancellable_new ();
  gtk_widget_set_visible (self->summary_label, FALSE);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  gtk_label_set_text (GTK_LABEL (self->counts_label), _("Writing…"));
  set_running (self, TRUE);
  dyno_export_job_run_file_async (self->export_job, file, self->cancellable, export_done_cb,
                                  dyno_weak_ref_new (self));
}

static void
start_clicked_cb (DynoTransferDialog *self)
{
  if (self->cancellable != NULL)
    return;
  if (self->mode == MODE_IMPORT)
    import_start (self);
  else
    export_start (self);
}

static GListModel *
format_list_new (Mode mode)
{
  const char * const import_labels[] = {
    _("Detect from the file"), _("DynamoDB JSON lines"), _("Plain JSON lines"),
    _("JSON array"), _("CSV"), NULL,
  };
  const char * const export_labels[] = {
    _("DynamoDB JSON lines"), _("Plain JSON lines"), _("CSV"), NULL,
  };

  return G_LIST_MODEL (gtk_string_list_new (mode == MODE_IMPORT ? import_labels
                                                                 : export_labels));
}

/* What differs between Import and Export; the rest is dyno-transfer-dialog.ui. */
static void
build (DynoTransferDialog *self)
{
  gboolean import = self->mode == MODE_IMPORT;
  const char *table = dyno_table_info_get_name (self->info);
  g_autoptr(GListModel) formats = format_list_new (self->mode);
  g_autofree char *title = NULL;

  title = g_strdup_printf (import ? _("Import into %s") : _("Export from %s"), table);
  gtk_window_set_title (GTK_WINDOW (self), title);

  gtk_label_set_label (GTK_LABEL (self->intro_label),
                       import
                       ? _("Rows are checked against the table's keys first; good "
                           "rows are written with BatchWriteItem, 25 at a time. "
                           "Puts are idempotent per key: importing the same file "
                           "again is safe.")
                       : _("The file is written under its name only when the "
                           "export completes."));

  /* file */
  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    {
      /* In the sandbox a typed path would land in the sandbox's own, temporary files and be
       * lost: the file comes from the file chooser portal, which grants that file only. */
      gtk_editable_set_editable (GTK_EDITABLE (self->path_entry), FALSE);
      gtk_entry_set_placeholder_text (GTK_ENTRY (self->path_entry), _("Choose a file…"));
      gtk_widget_set_tooltip_text (self->path_entry,
                                   _("In the Flatpak, DynoTable reads and writes only the files "
                                     "you choose"));
    }

  gtk_drop_down_set_model (GTK_DROP_DOWN (self->format_dropdown), formats);

  /* type mapping (import: plain JSON and CSV) / column types (export: CSV) */
  dyno_widget_set_accessible_label (self->mapping_entry,
                                    import ? _("Type mapping") : _("Column types"));
  gtk_widget_set_tooltip_text (self->mapping_entry,
                               import ? _("Types that plain JSON or CSV cannot say: attribute=TYPE "
                                          "with S N B BOOL NULL M L SS NS BS, separated by "
                                          "commas.")
                                      : _("Column types: attribute=TYPE, with ANY for a column "
                                          "whose cells are DynamoDB JSON values."));
  gtk_label_set_label (GTK_LABEL (self->mapping_label),
                       import ? _("_Type mapping") : _("Column _types"));

  if (!import)
    {
      g_autofree char *loaded = NULL;

      if (self->loaded_items != NULL)
        {
          guint n_loaded = g_list_model_get_n_items (self->loaded_items);
          g_autofree char *n = dyno_transfer_format_count (n_loaded);

          loaded = g_strdup_printf (ngettext ("_Loaded results (%s item)",
                                              "_Loaded results (%s items)", n_loaded), n);
        }
      else
        loaded = g_strdup (_("_Loaded results"));
      gtk_check_button_set_label (GTK_CHECK_BUTTON (self->loaded_check), loaded);
      gtk_widget_set_sensitive (self->loaded_check, self->loaded_items != NULL);
      gtk_widget_set_sensitive (self->all_pages_check, self->request != NULL);
      if (self->loaded_items != NULL)
        gtk_check_button_set_active (GTK_CHECK_BUTTON (self->loaded_check), TRUE);
      else
        gtk_check_button_set_active (GTK_CHECK_BUTTON (self->all_pages_check), TRUE);
      gtk_widget_set_visible (self->source_label, TRUE);
      gtk_widget_set_visible (self->source_box, TRUE);
    }

  gtk_button_set_label (GTK_BUTTON (self->start_button), import ? _("_Import") : _("_Export"));
  dyno_widget_set_accessible_label (self->start_button, import ? _("Import") : _("Export"));

  update_format_options (self);
}

static DynoTransferDialog *
transfer_dialog_new (GtkWindow     *parent,
                     DynoBackend   *backend,
                     DynoTableInfo *info,
                     Mode           mode)
{
  DynoTransferDialog *self = g_object_new (DYNO_TYPE_TRANSFER_DIALOG,
                                           "modal", parent != NULL,
                                           "transient-for", parent,
                                           NULL);

  self->mode = mode;
  self->backend = g_object_ref (backend);
  self->info = dyno_table_info_ref (info);
  return self;
}

GtkWidget *
dyno_import_dialog_new (GtkWindow     *parent,
                        DynoBackend   *backend,
                        DynoTableInfo *info)
{
  DynoTransferDialog *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (info != NULL, NULL);

  self = transfer_dialog_new (parent, backend, info, MODE_IMPORT);
  build (self);
  return GTK_WIDGET (self);
}

GtkWidget *
dyno_export_dialog_new (GtkWindow         *parent,
                        DynoBackend       *backend,
                        DynoTableInfo     *info,
                        GListModel        *loaded_items,
                        const DynoRequest *request)
{
  DynoTransferDialog *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (loaded_items == NULL || G_IS_LIST_MODEL (loaded_items), NULL);
  g_return_val_if_fail (loaded_items != NULL || request != NULL, NULL);

  self = transfer_dialog_new (parent, backend, info, MODE_EXPORT);
  if (loaded_items != NULL)
    self->loaded_items = g_object_ref (loaded_items);
  if (request != NULL)
    self->request = dyno_request_copy (request);
  build (self);
  return GTK_WIDGET (self);
}

gboolean
dyno_transfer_dialog_get_running (DynoTransferDialog *self)
{
  g_return_val_if_fail (DYNO_IS_TRANSFER_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}

const char *
dyno_transfer_dialog_get_summary (DynoTransferDialog *self)
{
  g_return_val_if_fail (DYNO_IS_TRANSFER_DIALOG (self), NULL);
  return self->summary;
}

DynoImportJob *
dyno_transfer_dialog_get_import_job (DynoTransferDialog *self)
{
  g_return_val_if_fail (DYNO_IS_TRANSFER_DIALOG (self), NULL);
  return self->import_job;
}
