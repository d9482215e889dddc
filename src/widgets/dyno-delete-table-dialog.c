/* dyno-delete-table-dialog.c: delete a table only after its name has been typed
 *
 * The Delete button lives in the dialog's extra child, not among its responses: an
 * AdwMessageDialog closes itself on any response, and a failed DeleteTable must be shown
 * in place with the dialog still open.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-delete-table-dialog.h"

#include <glib/gi18n.h>

#include "dyno-http-error.h"

struct _DynoDeleteTableDialog
{
  AdwMessageDialog  parent_instance;

  DynoBackend      *backend;
  char             *table_name;
  GCancellable     *cancellable;
  gboolean          busy;

  GtkWidget        *entry;
  GtkWidget        *delete_button;
  GtkWidget        *spinner;
  GtkWidget        *error_label;
};

G_DEFINE_FINAL_TYPE (DynoDeleteTableDialog, dyno_delete_table_dialog, ADW_TYPE_MESSAGE_DIALOG)

enum {
  SIGNAL_TABLE_DELETED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
update_sensitivity (DynoDeleteTableDialog *self)
{
  gboolean matches = g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->entry)),
                                self->table_name) == 0;

  gtk_widget_set_sensitive (self->delete_button, matches && !self->busy);
  gtk_widget_set_sensitive (self->entry, !self->busy);
  gtk_widget_set_visible (self->spinner, self->busy);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), self->busy);
}

static void
entry_changed_cb (DynoDeleteTableDialog *self)
{
  gtk_widget_set_visible (self->error_label, FALSE);
  update_sensitivity (self);
}

static void
deleted_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(DynoDeleteTableDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;

  response = dyno_backend_call_json_finish (DYNO_BACKEND (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->busy = FALSE;
  update_sensitivity (self);
  if (response == NULL)
    {
      const DynoServiceError *info = dyno_error_get_service_info (error);
      g_autofree char *text = NULL;

      if (info != NULL && info->type != NULL)
        text = g_strdup_printf ("%s: %s", info->type, info->message ? info->message : "");
      else
        text = g_strdup (error->message);
      gtk_label_set_label (GTK_LABEL (self->error_label), text);
      gtk_widget_set_visible (self->error_label, TRUE);
      gtk_widget_grab_focus (self->entry);
      return;
    }

  g_signal_emit (self, signals[SIGNAL_TABLE_DELETED], 0, self->table_name);
  gtk_window_set_focus (GTK_WINDOW (self), NULL);
  gtk_window_close (GTK_WINDOW (self));
}

static void
delete_clicked_cb (DynoDeleteTableDialog *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body = NULL;

  if (self->busy || self->backend == NULL ||
      g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->entry)), self->table_name) != 0)
    return;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "TableName");
  json_builder_add_string_value (builder, self->table_name);
  json_builder_end_object (builder);
  body = json_builder_get_root (builder);

  self->busy = TRUE;
  /* the focused entry is about to go insensitive: GTK wants the focus moved first */
  gtk_window_set_focus (GTK_WINDOW (self), NULL);
  gtk_widget_set_visible (self->error_label, FALSE);
  update_sensitivity (self);
  dyno_backend_call_json_async (self->backend, "DeleteTable", body, self->cancellable,
                                deleted_cb, g_object_ref (self));
}

static void
dyno_delete_table_dialog_dispose (GObject *object)
{
  DynoDeleteTableDialog *self = DYNO_DELETE_TABLE_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->backend);

  G_OBJECT_CLASS (dyno_delete_table_dialog_parent_class)->dispose (object);
}

static void
dyno_delete_table_dialog_finalize (GObject *object)
{
  DynoDeleteTableDialog *self = DYNO_DELETE_TABLE_DIALOG (object);

  g_free (self->table_name);

  G_OBJECT_CLASS (dyno_delete_table_dialog_parent_class)->finalize (object);
}

static void
dyno_delete_table_dialog_class_init (DynoDeleteTableDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_delete_table_dialog_dispose;
  object_class->finalize = dyno_delete_table_dialog_finalize;

  /* DeleteTable succeeded: the table's name. */
  signals[SIGNAL_TABLE_DELETED] =
    g_signal_new ("table-deleted",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/com/dynotable/DynoTable/dyno-delete-table-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoDeleteTableDialog, entry);
  gtk_widget_class_bind_template_child (widget_class, DynoDeleteTableDialog, delete_button);
  gtk_widget_class_bind_template_child (widget_class, DynoDeleteTableDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, DynoDeleteTableDialog, error_label);
  gtk_widget_class_bind_template_callback (widget_class, entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, delete_clicked_cb);
}

static void
dyno_delete_table_dialog_init (DynoDeleteTableDialog *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
dyno_delete_table_dialog_new (GtkWindow   *parent,
                              DynoBackend *backend,
                              const char  *table_name)
{
  DynoDeleteTableDialog *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (backend == NULL || DYNO_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (table_name != NULL, NULL);

  self = g_object_new (DYNO_TYPE_DELETE_TABLE_DIALOG,
                       "transient-for", parent,
                       NULL);
  self->backend = backend ? g_object_ref (backend) : NULL;
  self->table_name = g_strdup (table_name);
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (self),
                                  _("The table “%s” and all its items will be deleted. This "
                                    "cannot be undone. Type the table name to confirm."),
                                  table_name);
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->entry), table_name);
  update_sensitivity (self);
  return GTK_WIDGET (self);
}
