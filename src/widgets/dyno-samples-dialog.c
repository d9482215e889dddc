/* dyno-samples-dialog.c: the Sample schemas window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-samples-dialog.h"

#include <glib/gi18n.h>

#include "dyno-samples.h"
#include "dyno-widget-util.h"

#define SAMPLES_RESOURCE "/com/dynotable/DynoTable/samples"

struct _DynoSamplesDialog
{
  AdwWindow         parent_instance;

  DynoBackend      *backend;
  GPtrArray        *samples;
  guint             poll_interval_ms;
  GCancellable     *cancellable;
  DynoSampleLoader *loader;
  char             *summary;
  gboolean          disposed;   /* see DynoTransferDialog */

  GtkWidget        *intro_label;
  GtkWidget        *list;
  GPtrArray        *rows;        /* AdwActionRow, one per sample, in dyno_samples_get_names() order */
  GPtrArray        *open_buttons; /* each row's Open button (borrowed), NULL until loaded */
  GtkWidget        *error_label;
  GtkWidget        *progress_bar;
  GtkWidget        *status_label;
  GtkWidget        *summary_label;
  GtkWidget        *cancel_button;
  GtkWidget        *load_button;
};

enum {
  TABLES_CHANGED,
  OPEN_TABLE,
  N_SAMPLES_SIGNALS
};

static guint samples_signals[N_SAMPLES_SIGNALS];

G_DEFINE_FINAL_TYPE (DynoSamplesDialog, dyno_samples_dialog, ADW_TYPE_WINDOW)

static void
dyno_samples_dialog_dispose (GObject *object)
{
  DynoSamplesDialog *self = DYNO_SAMPLES_DIALOG (object);

  self->disposed = TRUE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (dyno_samples_dialog_parent_class)->dispose (object);
}

static void
dyno_samples_dialog_finalize (GObject *object)
{
  DynoSamplesDialog *self = DYNO_SAMPLES_DIALOG (object);

  g_clear_object (&self->backend);
  g_clear_pointer (&self->samples, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->open_buttons, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->loader);
  g_free (self->summary);

  G_OBJECT_CLASS (dyno_samples_dialog_parent_class)->finalize (object);
}

static void samples_load_clicked_cb   (DynoSamplesDialog *self);
static void samples_cancel_clicked_cb (DynoSamplesDialog *self);

static void
dyno_samples_dialog_class_init (DynoSamplesDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_samples_dialog_dispose;
  object_class->finalize = dyno_samples_dialog_finalize;

  samples_signals[TABLES_CHANGED] =
    g_signal_new ("tables-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);
  /* the user asked to see a loaded sample's table; the dialog closes after this */
  samples_signals[OPEN_TABLE] =
    g_signal_new ("open-table", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-samples-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoSamplesDialog, intro_label);
  gtk_widget_class_bind_template_child (widget_class, DynoSamplesDialog, list);
  gtk_widget_class_bind_template_child (widget_class, DynoSamplesDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, DynoSamplesDialog, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DynoSamplesDialog, status_label);
  gtk_widget_class_bind_template_child (widget_class, DynoSamplesDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, DynoSamplesDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, DynoSamplesDialog, load_button);
  gtk_widget_class_bind_template_callback (widget_class, samples_load_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, samples_cancel_clicked_cb);
}

static void
dyno_samples_dialog_init (DynoSamplesDialog *self)
{
  self->poll_interval_ms = 500;
  gtk_widget_init_template (GTK_WIDGET (self));
}

static void
samples_set_running (DynoSamplesDialog *self,
                     gboolean           running)
{
  gtk_widget_set_sensitive (self->load_button, !running && self->samples != NULL);
  gtk_button_set_label (GTK_BUTTON (self->cancel_button), running ? _("_Cancel") : _("_Close"));
  dyno_widget_set_accessible_label (self->cancel_button, running ? _("Cancel") : _("Close"));
  gtk_widget_set_sensitive (self->cancel_button, TRUE);
}

static void
samples_progress_cb (DynoSampleLoader  *loader,
                     const char        *sample,
                     const char        *message,
                     DynoSamplesDialog *self)
{
  guint total = dyno_sample_loader_get_n_total (loader);

  if (self->disposed)
    return;
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar),
                                 total > 0 ? (double) dyno_sample_loader_get_n_done (loader)
                                             / (double) total : 0);
  gtk_label_set_text (GTK_LABEL (self->status_label), message);
}

/* @table: the name of the table the button opens, freed with the handler */
static void
samples_open_clicked_cb (GtkButton  *button,
                         const char *table)
{
  DynoSamplesDialog *self = DYNO_SAMPLES_DIALOG (gtk_widget_get_root (GTK_WIDGET (button)));

  g_object_ref (self);
  g_signal_emit (self, samples_signals[OPEN_TABLE], 0, table);
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}

/* A loaded sample's row gets an Open button: the way from "loaded" to looking at it. */
static void
samples_offer_open (DynoSamplesDialog      *self,
                    const DynoSampleResult *res)
{
  const char * const *names = dyno_samples_get_names ();
  GtkWidget *row = NULL;
  GtkWidget *button;
  g_autofree char *label = NULL;
  guint index = 0;

  for (guint i = 0; names[i] != NULL && i < self->rows->len; i++)
    if (g_strcmp0 (names[i], res->sample) == 0)
      {
        row = g_ptr_array_index (self->rows, i);
        index = i;
      }
  if (row == NULL || g_ptr_array_index (self->open_buttons, index) != NULL)
    return;

  button = gtk_button_new_with_label (_("Open"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  /* Translators: an accessible name; the table's name */
  label = g_strdup_printf (_("Open table %s"), res->table_name);
  dyno_widget_set_accessible_label (button, label);
  g_signal_connect_data (button, "clicked", G_CALLBACK (samples_open_clicked_cb),
                         g_strdup (res->table_name), (GClosureNotify) G_CALLBACK (g_free), 0);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), button);
  g_ptr_array_index (self->open_buttons, index) = button;
}

static void
samples_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(DynoSamplesDialog) self = dyno_weak_ref_steal (user_data);
  DynoSampleLoader *loader = DYNO_SAMPLE_LOADER (source);
  g_autoptr(GError) error = NULL;
  GPtrArray *results;
  gboolean changed = FALSE;
  gboolean ok;

  ok = dyno_sample_loader_run_finish (loader, result, &error);
  results = dyno_sample_loader_get_results (loader);
  for (guint i = 0; i < results->len; i++)
    {
      DynoSampleResult *res = g_ptr_array_index (results, i);

      if (res->created || res->n_items > 0)
        changed = TRUE;
      if (self != NULL && !self->disposed && res->error == NULL && (res->created || res->existed))
        samples_offer_open (self, res);
    }
  if (self == NULL || self->disposed)
    {
      /* closed while loading: the tables that were made still need the sidebar */
      if (changed && self != NULL)
        g_signal_emit (self, samples_signals[TABLES_CHANGED], 0);
      return;
    }

  g_free (self->summary);
  self->summary = dyno_sample_loader_dup_summary (loader);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *text = g_strdup_printf ("%s%s%s", self->summary,
                                               *self->summary != '\0' ? "\n" : "",
                                               _("Cancelled: the other samples were not loaded."));
      g_free (self->summary);
      self->summary = g_steal_pointer (&text);
    }
  gtk_label_set_text (GTK_LABEL (self->summary_label), self->summary);
  gtk_widget_set_visible (self->summary_label, TRUE);
  gtk_label_set_text (GTK_LABEL (self->status_label), "");
  if (ok)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 1.0);
  g_clear_object (&self->cancellable);
  samples_set_running (self, FALSE);
  if (changed)
    g_signal_emit (self, samples_signals[TABLES_CHANGED], 0);
}

static void
samples_load_clicked_cb (DynoSamplesDialog *self)
{
  if (self->cancellable != NULL || self->samples == NULL)
    return;

  g_clear_object (&self->loader);
  self->loader = dyno_sample_loader_new (self->backend, self->samples);
  dyno_sample_loader_set_polling (self->loader, self->poll_interval_ms, 240);
  g_signal_connect_object (self->loader, "progress", G_CALLBACK (samples_progress_cb), self, 0);
  self->cancellable = g_cancellable_new ();
  gtk_widget_set_visible (self->progress_bar, TRUE);
  gtk_widget_set_visible (self->summary_label, FALSE);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  samples_set_running (self, TRUE);
  dyno_sample_loader_run_async (self->loader, self->cancellable, samples_done_cb,
                                dyno_weak_ref_new (self));
}

static void
samples_cancel_clicked_cb (DynoSamplesDialog *self)
{
  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      gtk_widget_set_sensitive (self->cancel_button, FALSE);
      return;
    }
  gtk_window_destroy (GTK_WINDOW (self));
}

GtkWidget *
dyno_samples_dialog_new (GtkWindow   *parent,
                         DynoBackend *backend)
{
  DynoSamplesDialog *self;
  g_autoptr(GError) error = NULL;
  g_autofree char *where = NULL;
  g_autofree char *intro = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);

  self = g_object_new (DYNO_TYPE_SAMPLES_DIALOG,
                       "modal", parent != NULL,
                       "transient-for", parent,
                       NULL);
  self->backend = g_object_ref (backend);
  self->samples = dyno_samples_load_resource (SAMPLES_RESOURCE, &error);
  self->rows = g_ptr_array_new ();
  self->open_buttons = g_ptr_array_new ();

  where = dyno_backend_dup_description (backend);
  intro = g_strdup_printf (_("Creates the four example tables on %s and writes their "
                             "representative items. A table that exists already is left as "
                             "it is and only gets the sample's items written again."),
                           where != NULL ? where : _("this connection"));
  gtk_label_set_label (GTK_LABEL (self->intro_label), intro);

  for (const char * const *name = dyno_samples_get_names (); *name != NULL; name++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *title = g_strdup_printf ("%s (%s)", dyno_samples_get_title (*name), *name);

      /* descriptions hold '<' and '&' */
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), dyno_samples_get_description (*name));
      /* nothing to do with a row until its table exists: then it gets an Open button */
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_append (GTK_LIST_BOX (self->list), row);
      g_ptr_array_add (self->rows, row);
      g_ptr_array_add (self->open_buttons, NULL);
    }
  if (error != NULL)
    {
      gtk_label_set_label (GTK_LABEL (self->error_label), error->message);
      gtk_widget_set_visible (self->error_label, TRUE);
    }
  samples_set_running (self, FALSE);

  return GTK_WIDGET (self);
}

void
dyno_samples_dialog_set_poll_interval (DynoSamplesDialog *self,
                                       guint              interval_ms)
{
  g_return_if_fail (DYNO_IS_SAMPLES_DIALOG (self));
  self->poll_interval_ms = interval_ms;
}

gboolean
dyno_samples_dialog_get_running (DynoSamplesDialog *self)
{
  g_return_val_if_fail (DYNO_IS_SAMPLES_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}

const char *
dyno_samples_dialog_get_summary (DynoSamplesDialog *self)
{
  g_return_val_if_fail (DYNO_IS_SAMPLES_DIALOG (self), NULL);
  return self->summary;
}
