/* dyno-model-dialog.c: Import NoSQL Workbench Model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-model-dialog.h"

#include <glib/gi18n.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-samples.h"
#include "dyno-table-names.h"
#include "dyno-widget-util.h"
#include "dyno-workbench-model.h"

struct _DynoModelDialog
{
  AdwWindow           parent_instance;

  DynoBackend        *backend;
  DynoWorkbenchModel *model;
  guint               poll_interval_ms;
  GCancellable       *cancellable;
  DynoSampleLoader   *loader;
  GtkNativeDialog    *chooser;
  gboolean            disposed;

  /* template */
  GtkWidget          *intro_label;
  GtkWidget          *file_box;
  GtkWidget          *items_check;
  GtkWidget          *requests_expander;
  GtkWidget          *requests_view;
  GtkWidget          *path_entry;
  GtkWidget          *choose_button;
  GtkWidget          *model_label;
  GtkWidget          *tables_list;
  GtkWidget          *error_label;
  GtkWidget          *progress_bar;
  GtkWidget          *status_label;
  GtkWidget          *summary_label;
  GtkWidget          *close_button;
  GtkWidget          *create_button;
};

enum {
  TABLES_CHANGED,
  N_MODEL_SIGNALS
};

static guint model_signals[N_MODEL_SIGNALS];

G_DEFINE_FINAL_TYPE (DynoModelDialog, dyno_model_dialog, ADW_TYPE_WINDOW)

/* ---- showing the model ----------------------------------------------------------------- */

static char *
keys_text (const char    *pk,
           DynoValueType  pk_type,
           const char    *sk,
           DynoValueType  sk_type)
{
  if (sk == NULL || *sk == '\0')
    return g_strdup_printf ("%s (%s)", pk, dyno_value_type_to_string (pk_type));
  return g_strdup_printf ("%s (%s) · %s (%s)", pk, dyno_value_type_to_string (pk_type), sk,
                          dyno_value_type_to_string (sk_type));
}

static GtkWidget *
index_row (DynoTableDesign *design,
           DynoIndexDesign *index)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *keys = NULL;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  keys = keys_text (index->global ? index->partition_key_name
                                  : dyno_table_design_get_partition_key_name (design),
                    index->global ? index->partition_key_type
                                  : dyno_table_design_get_partition_key_type (design),
                    index->sort_key_name, index->sort_key_type);
  /* Translators: a global or local secondary index and its name */
  title = g_strdup_printf (index->global ? _("Global index %s") : _("Local index %s"),
                           index->name);
  if (index->projection == DYNO_PROJECTION_INCLUDE)
    {
      GString *names = g_string_new (NULL);

      for (guint k = 0; k < index->non_key_attributes->len; k++)
        g_string_append_printf (names, "%s%s", k > 0 ? ", " : "",
                                (const char *) g_ptr_array_index (index->non_key_attributes, k));
      /* Translators: index keys, then the attributes the index projects */
      subtitle = g_strdup_printf (_("%s; projects the keys and %s"), keys, names->str);
      g_string_free (names, TRUE);
    }
  else
    subtitle = g_strdup_printf ("%s; %s", keys,
                                index->projection == DYNO_PROJECTION_KEYS_ONLY
                                ? _("projects the keys only") : _("projects all attributes"));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  return row;
}

/* The facets (entity types) of a table as chips. */
static GtkWidget *
facets_row (DynoWorkbenchTable *table)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *chips = gtk_flow_box_new ();
  g_autofree char *label = NULL;

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Facets"));
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (chips), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (chips), 4);
  gtk_widget_set_margin_top (chips, 6);
  gtk_widget_set_margin_bottom (chips, 6);
  gtk_widget_set_hexpand (chips, TRUE);
  /* Translators: an accessible name; the table's name */
  label = g_strdup_printf (_("Facets of %s"), dyno_workbench_table_get_name (table));
  dyno_widget_set_accessible_label (chips, label);
  for (guint f = 0; f < table->facets->len; f++)
    {
      DynoWorkbenchFacet *facet = g_ptr_array_index (table->facets, f);
      g_autofree char *text = NULL, *tooltip = NULL, *attributes = NULL;
      GtkWidget *chip;

      text = g_strdup_printf (ngettext ("%s · %u item", "%s · %u items", facet->items->len),
                              facet->name, facet->items->len);
      attributes = g_strjoinv (", ", facet->non_key_attributes);
      /* Translators: a facet's key aliases, then its attributes */
      tooltip = g_strdup_printf (_("Keys: %s%s%s\nAttributes: %s"), facet->partition_key_alias,
                                 facet->sort_key_alias != NULL ? " · " : "",
                                 facet->sort_key_alias != NULL ? facet->sort_key_alias : "",
                                 attributes);
      chip = gtk_label_new (text);
      gtk_widget_set_tooltip_text (chip, tooltip);
      gtk_widget_add_css_class (chip, "card");
      gtk_widget_add_css_class (chip, "caption");
      gtk_widget_set_margin_start (chip, 2);
      gtk_widget_set_margin_end (chip, 2);
      gtk_label_set_ellipsize (GTK_LABEL (chip), PANGO_ELLIPSIZE_END);
      gtk_flow_box_append (GTK_FLOW_BOX (chips), chip);
      /* the chip's padding: the flow box child around the label */
      gtk_widget_set_margin_top (chip, 2);
      gtk_widget_set_margin_bottom (chip, 2);
    }
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), chips);
  return row;
}

static GtkWidget *
table_row (DynoWorkbenchTable *table)
{
  DynoTableDesign *design = table->design;
  GtkWidget *row = adw_expander_row_new ();
  g_autoptr(GPtrArray) all = dyno_workbench_table_get_all_items (table);
  g_autofree char *keys = NULL, *billing = NULL, *items = NULL, *subtitle = NULL;

  keys = keys_text (dyno_table_design_get_partition_key_name (design),
                    dyno_table_design_get_partition_key_type (design),
                    dyno_table_design_get_sort_key_name (design),
                    dyno_table_design_get_sort_key_type (design));
  if (dyno_table_design_get_billing_mode (design) == DYNO_BILLING_PROVISIONED)
    {
      /* the numbers as text: xgettext cannot read G_GINT64_FORMAT in a msgid */
      g_autofree char *rcu = g_strdup_printf ("%" G_GINT64_FORMAT,
                                              dyno_table_design_get_read_capacity (design));
      g_autofree char *wcu = g_strdup_printf ("%" G_GINT64_FORMAT,
                                              dyno_table_design_get_write_capacity (design));

      billing = g_strdup_printf (_("provisioned %s RCU / %s WCU"), rcu, wcu);
    }
  else
    billing = g_strdup (_("on-demand"));
  items = g_strdup_printf (ngettext ("%u item", "%u items", all->len), all->len);
  subtitle = g_strdup_printf ("%s · %s · %s", keys, billing, items);

  gtk_widget_set_name (row, dyno_workbench_table_get_name (table));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), dyno_workbench_table_get_name (table));
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);
  for (guint i = 0; i < dyno_table_design_get_n_indexes (design); i++)
    adw_expander_row_add_row (ADW_EXPANDER_ROW (row),
                              index_row (design, dyno_table_design_get_index (design, i)));
  if (table->facets->len > 0)
    adw_expander_row_add_row (ADW_EXPANDER_ROW (row), facets_row (table));
  if (table->n_lenient_items > 0)
    {
      GtkWidget *note = adw_action_row_new ();
      g_autofree char *text =
        g_strdup_printf (ngettext ("%u item has maps written as plain JSON; they are read as "
                                   "the DynamoDB maps they stand for.",
                                   "%u items have maps written as plain JSON; they are read as "
                                   "the DynamoDB maps they stand for.", table->n_lenient_items),
                         table->n_lenient_items);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (note), _("Note"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (note), text);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), note);
    }
  return row;
}

static void
show_error (DynoModelDialog *self,
            const char      *message)
{
  gtk_label_set_text (GTK_LABEL (self->error_label), message);
  gtk_widget_set_visible (self->error_label, message != NULL);
}

static void
set_running (DynoModelDialog *self,
             gboolean         running)
{
  gtk_widget_set_sensitive (self->create_button, !running && self->model != NULL);
  gtk_widget_set_sensitive (self->choose_button, !running);
  gtk_widget_set_sensitive (self->path_entry, !running);
  gtk_button_set_label (GTK_BUTTON (self->close_button), running ? _("_Cancel") : _("_Close"));
  dyno_widget_set_accessible_label (self->close_button, running ? _("Cancel") : _("Close"));
  gtk_widget_set_sensitive (self->close_button, TRUE);
}

static void
show_model (DynoModelDialog *self)
{
  GtkWidget *child;
  g_autofree char *heading = NULL;

  while ((child = gtk_widget_get_first_child (self->tables_list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->tables_list), child);
  if (self->model == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->model_label), "");
      set_running (self, FALSE);
      return;
    }
  heading = g_strdup_printf (ngettext ("%s: %u table", "%s: %u tables", self->model->tables->len),
                             self->model->name, self->model->tables->len);
  gtk_label_set_text (GTK_LABEL (self->model_label), heading);
  for (guint t = 0; t < self->model->tables->len; t++)
    gtk_list_box_append (GTK_LIST_BOX (self->tables_list),
                         table_row (g_ptr_array_index (self->model->tables, t)));
  gtk_widget_set_visible (self->summary_label, FALSE);
  gtk_widget_set_visible (self->progress_bar, FALSE);
  gtk_label_set_text (GTK_LABEL (self->status_label), "");
  set_running (self, FALSE);
}

gboolean
dyno_model_dialog_load_file (DynoModelDialog *self,
                             GFile           *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *name = NULL;
  gsize len;

  g_return_val_if_fail (DYNO_IS_MODEL_DIALOG (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  g_clear_pointer (&self->model, dyno_workbench_model_free);
  name = g_file_get_basename (file);
  if (g_file_load_contents (file, NULL, &text, &len, NULL, &error))
    self->model = dyno_workbench_model_parse (text, len, &error);
  if (self->model == NULL)
    {
      guint line, column;
      g_autofree char *message = NULL;

      if (dyno_error_get_location (error, &line, &column))
        /* Translators: file name, line, column, then what is wrong */
        message = g_strdup_printf (_("%s, line %u, column %u: %s"), name, line, column,
                                   error->message);
      else
        message = g_strdup_printf ("%s: %s", name, error->message);
      show_error (self, message);
      show_model (self);
      return FALSE;
    }
  show_error (self, NULL);
  show_model (self);
  return TRUE;
}

/* The model is read as soon as the path names a file (typed, pasted or chosen); a path that
 * names nothing yet is not an error while it is being typed. */
static void
path_changed_cb (DynoModelDialog *self)
{
  const char *path = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));
  g_autoptr(GFile) file = NULL;

  if (self->cancellable != NULL)
    return;
  if (*path == '\0' || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_clear_pointer (&self->model, dyno_workbench_model_free);
      show_error (self, NULL);
      show_model (self);
      return;
    }
  file = g_file_new_for_path (path);
  dyno_model_dialog_load_file (self, file);
}

static void
chooser_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     DynoModelDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path);
      else if (file != NULL)
        dyno_model_dialog_load_file (self, file);
    }
  g_clear_object (&self->chooser);
}

static void
choose_clicked_cb (DynoModelDialog *self)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;
  chooser = gtk_file_chooser_native_new (_("Choose a NoSQL Workbench Model"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("NoSQL Workbench models (JSON)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response_cb), self);
  self->chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->chooser);
}

/* ---- creating the tables --------------------------------------------------------------- */

static void
loader_progress_cb (DynoSampleLoader *loader,
                    const char       *sample,
                    const char       *message,
                    DynoModelDialog  *self)
{
  guint total = dyno_sample_loader_get_n_total (loader);

  if (self->disposed)
    return;
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar),
                                 total > 0 ? (double) dyno_sample_loader_get_n_done (loader)
                                             / (double) total : 0);
  gtk_label_set_text (GTK_LABEL (self->status_label), message);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(DynoModelDialog) self = dyno_weak_ref_steal (user_data);
  DynoSampleLoader *loader = DYNO_SAMPLE_LOADER (source);
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;
  GPtrArray *results;
  gboolean changed = FALSE;
  gboolean ok;

  ok = dyno_sample_loader_run_finish (loader, result, &error);
  results = dyno_sample_loader_get_results (loader);
  for (guint i = 0; i < results->len; i++)
    {
      DynoSampleResult *res = g_ptr_array_index (results, i);

      changed = changed || res->created || res->n_items > 0;
    }
  if (self == NULL)
    return;
  if (self->disposed)
    {
      if (changed)
        g_signal_emit (self, model_signals[TABLES_CHANGED], 0);
      return;
    }

  summary = dyno_sample_loader_dup_summary (loader);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *text = g_strdup_printf ("%s%s%s", summary, *summary != '\0' ? "\n" : "",
                                               _("Cancelled: the other tables were not "
                                                 "created."));
      g_free (summary);
      summary = g_steal_pointer (&text);
    }
  gtk_label_set_text (GTK_LABEL (self->summary_label), summary);
  gtk_widget_set_visible (self->summary_label, TRUE);
  gtk_label_set_text (GTK_LABEL (self->status_label), "");
  if (ok)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 1.0);
  g_clear_object (&self->cancellable);
  set_running (self, FALSE);
  if (changed)
    g_signal_emit (self, model_signals[TABLES_CHANGED], 0);
}

static void
listed_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(DynoModelDialog) self = dyno_weak_ref_steal (user_data);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  g_auto(GStrv) existing = NULL;
  g_autoptr(GPtrArray) samples = NULL;

  names = dyno_table_names_list_finish (DYNO_BACKEND (source), result, &error);
  if (self == NULL || self->disposed)
    return;
  if (names == NULL)
    {
      show_error (self, error->message);
      g_clear_object (&self->cancellable);
      gtk_widget_set_visible (self->progress_bar, FALSE);
      set_running (self, FALSE);
      return;
    }
  existing = dyno_workbench_model_find_tables (self->model, (const char * const *) names);
  if (existing[0] != NULL)
    {
      g_autofree char *list = g_strjoinv (", ", existing);
      g_autofree char *message =
        g_strdup_printf (ngettext ("Table %s already exists on this connection: nothing was "
                                   "created or written. Delete it, or import the model into "
                                   "another connection.",
                                   "Tables %s already exist on this connection: nothing was "
                                   "created or written. Delete them, or import the model into "
                                   "another connection.", g_strv_length (existing)), list);

      show_error (self, message);
      g_clear_object (&self->cancellable);
      gtk_widget_set_visible (self->progress_bar, FALSE);
      set_running (self, FALSE);
      return;
    }

  samples = dyno_samples_from_workbench_model (self->model);
  if (gtk_widget_get_visible (self->items_check)
      && !gtk_check_button_get_active (GTK_CHECK_BUTTON (self->items_check)))
    for (guint i = 0; i < samples->len; i++)
      {
        DynoSample *sample = g_ptr_array_index (samples, i);

        /* the tables only */
        g_bytes_unref (sample->items_jsonl);
        sample->items_jsonl = g_bytes_new_static ("", 0);
      }
  g_clear_object (&self->loader);
  self->loader = dyno_sample_loader_new (self->backend, samples);
  dyno_sample_loader_set_polling (self->loader, self->poll_interval_ms, 240);
  g_signal_connect_object (self->loader, "progress", G_CALLBACK (loader_progress_cb), self, 0);
  dyno_sample_loader_run_async (self->loader, self->cancellable, loaded_cb,
                                dyno_weak_ref_new (self));
}

static void
create_clicked_cb (DynoModelDialog *self)
{
  if (self->cancellable != NULL || self->model == NULL)
    return;

  self->cancellable = g_cancellable_new ();
  show_error (self, NULL);
  gtk_widget_set_visible (self->progress_bar, TRUE);
  gtk_widget_set_visible (self->summary_label, FALSE);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  set_running (self, TRUE);
  /* every table must be new: checked before anything is created */
  dyno_table_names_list_async (self->backend, self->cancellable, listed_cb,
                               dyno_weak_ref_new (self));
}

/* What Create sends, shown before it is sent: each CreateTable, then how the items go. */
static void
update_requests (DynoModelDialog *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  gboolean items = gtk_check_button_get_active (GTK_CHECK_BUTTON (self->items_check));
  guint n_items = 0, n_batches = 0;

  if (self->model == NULL)
    return;
  for (guint t = 0; t < self->model->tables->len; t++)
    {
      const DynoWorkbenchTable *table = g_ptr_array_index (self->model->tables, t);
      g_autoptr(JsonNode) create = dyno_workbench_table_to_create_table_json (table);
      g_autofree char *json = dyno_json_node_to_string (create, TRUE);

      g_string_append_printf (text, "CreateTable %s\n%s\n\n", json_node_get_string (
                                json_object_get_member (json_node_get_object (create),
                                                        "TableName")), json);
      n_items += table->items->len;
      n_batches += (table->items->len + 24) / 25;
    }
  if (items && n_items > 0)
    g_string_append_printf (text,
                            /* Translators: after the CreateTable requests of the tables */
                            ngettext ("Then BatchWriteItem: %u item in %u request.",
                                      "Then BatchWriteItem: %u items in %u requests of up to "
                                      "25 items.", n_items),
                            n_items, n_batches);
  else
    g_string_append (text, _("No items are written."));
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->requests_view)),
                            text->str, -1);
}

static void
items_toggled_cb (DynoModelDialog *self)
{
  update_requests (self);
}

static void
close_clicked_cb (DynoModelDialog *self)
{
  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      gtk_widget_set_sensitive (self->close_button, FALSE);
      return;
    }
  gtk_window_destroy (GTK_WINDOW (self));
}

/* ---- the type -------------------------------------------------------------------------- */

static void
dyno_model_dialog_dispose (GObject *object)
{
  DynoModelDialog *self = DYNO_MODEL_DIALOG (object);

  self->disposed = TRUE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->chooser, self);
      gtk_native_dialog_destroy (self->chooser);
      g_clear_object (&self->chooser);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), DYNO_TYPE_MODEL_DIALOG);

  G_OBJECT_CLASS (dyno_model_dialog_parent_class)->dispose (object);
}

static void
dyno_model_dialog_finalize (GObject *object)
{
  DynoModelDialog *self = DYNO_MODEL_DIALOG (object);

  g_clear_object (&self->backend);
  g_clear_pointer (&self->model, dyno_workbench_model_free);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->loader);

  G_OBJECT_CLASS (dyno_model_dialog_parent_class)->finalize (object);
}

static void
dyno_model_dialog_class_init (DynoModelDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_model_dialog_dispose;
  object_class->finalize = dyno_model_dialog_finalize;

  model_signals[TABLES_CHANGED] =
    g_signal_new ("tables-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-model-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, intro_label);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, file_box);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, items_check);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, requests_expander);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, requests_view);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, path_entry);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, choose_button);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, model_label);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, tables_list);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, status_label);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, close_button);
  gtk_widget_class_bind_template_child (widget_class, DynoModelDialog, create_button);
  gtk_widget_class_bind_template_callback (widget_class, path_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, choose_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, create_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, close_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, items_toggled_cb);
}

static void
dyno_model_dialog_init (DynoModelDialog *self)
{
  self->poll_interval_ms = 500;
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
dyno_model_dialog_new (GtkWindow   *parent,
                       DynoBackend *backend)
{
  DynoModelDialog *self;
  g_autofree char *where = NULL;
  g_autofree char *intro = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);

  self = g_object_new (DYNO_TYPE_MODEL_DIALOG,
                       "modal", parent != NULL,
                       "transient-for", parent,
                       NULL);
  self->backend = g_object_ref (backend);
  where = dyno_backend_dup_description (backend);
  intro = g_strdup_printf (_("Creates the tables of a data model exported by NoSQL Workbench on "
                             "%s, waits until they are active and writes their items. Every "
                             "table must be new."),
                           where != NULL ? where : _("this connection"));
  gtk_label_set_text (GTK_LABEL (self->intro_label), intro);
  show_model (self);
  return GTK_WIDGET (self);
}

void
dyno_model_dialog_set_model (DynoModelDialog    *self,
                             DynoWorkbenchModel *model,
                             const char         *source)
{
  g_autofree char *where = NULL;
  g_autofree char *intro = NULL;

  g_return_if_fail (DYNO_IS_MODEL_DIALOG (self));
  g_return_if_fail (model != NULL);
  g_return_if_fail (source != NULL);

  g_clear_pointer (&self->model, dyno_workbench_model_free);
  self->model = model;
  gtk_window_set_title (GTK_WINDOW (self), _("Create Playground Tables Here"));
  where = dyno_backend_dup_description (self->backend);
  /* Translators: where the tables come from (the Playground), then where they are created */
  intro = g_strdup_printf (_("Creates the tables of %s on %s with the same keys, indexes and "
                             "billing, waits until they are active and, if you choose, writes "
                             "their items. Every table must be new here. The requests are below."),
                           source, where != NULL ? where : _("this connection"));
  gtk_label_set_text (GTK_LABEL (self->intro_label), intro);
  gtk_widget_set_visible (self->file_box, FALSE);
  gtk_widget_set_visible (self->items_check, TRUE);
  gtk_widget_set_visible (self->requests_expander, TRUE);
  gtk_expander_set_expanded (GTK_EXPANDER (self->requests_expander), TRUE);
  show_error (self, NULL);
  show_model (self);
  update_requests (self);
}

void
dyno_model_dialog_set_poll_interval (DynoModelDialog *self,
                                     guint            interval_ms)
{
  g_return_if_fail (DYNO_IS_MODEL_DIALOG (self));
  self->poll_interval_ms = interval_ms;
}

gboolean
dyno_model_dialog_get_running (DynoModelDialog *self)
{
  g_return_val_if_fail (DYNO_IS_MODEL_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}
