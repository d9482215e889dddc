/* dyno-iac-dialog.c: a table as CloudFormation, CDK or Terraform, to copy or save
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-iac-dialog.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "dyno-iac.h"
#include "dyno-table-iac.h"
#include "dyno-widget-util.h"

struct _DynoIacDialog
{
  AdwWindow     parent_instance;

  DynoBackend  *backend;
  char         *table_name;
  GCancellable *cancellable;
  GPtrArray    *tables;       /* DynoIacTable*: the one table, once described */

  GtkWidget    *format_dropdown;
  GtkWidget    *copy_button;
  GtkWidget    *save_button;
  GtkWidget    *toasts;
  GtkWidget    *stack;
  GtkWidget    *error_page;
  GtkWidget    *notes_label;
  GtkWidget    *source_view;
};

G_DEFINE_FINAL_TYPE (DynoIacDialog, dyno_iac_dialog, ADW_TYPE_WINDOW)

/* The dropdown's order */
static const struct {
  DynoIacFormat  format;
  const char    *language;   /* GtkSourceView's, or NULL */
  const char    *extension;
} formats[] = {
  { DYNO_IAC_CLOUDFORMATION_YAML, "yaml", ".yaml" },
  { DYNO_IAC_CLOUDFORMATION_JSON, "json", ".json" },
  { DYNO_IAC_CDK, "typescript", ".ts" },
  { DYNO_IAC_TERRAFORM, NULL, ".tf" },
};

static guint
selected_format (DynoIacDialog *self)
{
  guint i = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->format_dropdown));

  return i < G_N_ELEMENTS (formats) ? i : 0;
}

static void
show_code (DynoIacDialog *self)
{
  GtkSourceBuffer *buffer;
  GtkSourceLanguage *language = NULL;
  g_autofree char *text = NULL;
  guint i = selected_format (self);

  if (self->tables == NULL)
    return;
  text = dyno_iac_generate (self->tables, formats[i].format);
  buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view)));
  if (formats[i].language != NULL)
    language = gtk_source_language_manager_get_language (
      gtk_source_language_manager_get_default (), formats[i].language);
  gtk_source_buffer_set_language (buffer, language);
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), text, -1);
}

static void
format_changed_cb (DynoIacDialog *self)
{
  show_code (self);
}

static char *
dup_text (DynoIacDialog *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
copy_clicked_cb (DynoIacDialog *self)
{
  g_autofree char *text = dup_text (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (self->toasts), adw_toast_new (_("Copied")));
}

static void
save_response_cb (GtkNativeDialog *chooser,
                  int              response,
                  gpointer         user_data)
{
  g_autoptr(DynoIacDialog) self = user_data;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  if (file == NULL)
    return;

  text = dup_text (self);
  /* replaced whole or not at all */
  if (!g_file_replace_contents (file, text, strlen (text), NULL, FALSE,
                                G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, &error))
    {
      /* Translators: the system's error message */
      g_autofree char *message = g_strdup_printf (_("Could not save: %s"), error->message);

      adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (self->toasts), adw_toast_new (message));
      return;
    }
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (self->toasts), adw_toast_new (_("Saved")));
}

static void
save_clicked_cb (DynoIacDialog *self)
{
  GtkFileChooserNative *chooser;
  g_autofree char *name = g_strconcat (self->table_name,
                                       formats[selected_format (self)].extension, NULL);

  chooser = gtk_file_chooser_native_new (_("Save Infrastructure as Code"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (save_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
described_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(DynoIacDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  DynoIacTable *table = dyno_table_iac_describe_finish (DYNO_BACKEND (source), result, &error);

  if (table == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      adw_status_page_set_description (ADW_STATUS_PAGE (self->error_page), error->message);
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "error");
      return;
    }

  if (table->unknown->len > 0)
    {
      g_autoptr(GString) notes = g_string_new (_("Left out, because the server did not say:"));

      for (guint i = 0; i < table->unknown->len; i++)
        g_string_append_printf (notes, "\n• %s", (const char *) g_ptr_array_index (table->unknown,
                                                                                    i));
      gtk_label_set_label (GTK_LABEL (self->notes_label), notes->str);
      gtk_widget_set_visible (self->notes_label, TRUE);
    }
  self->tables = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_iac_table_free);
  g_ptr_array_add (self->tables, table);
  show_code (self);
  gtk_widget_set_sensitive (self->copy_button, TRUE);
  gtk_widget_set_sensitive (self->save_button, TRUE);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "code");
}

static void
dyno_iac_dialog_dispose (GObject *object)
{
  DynoIacDialog *self = DYNO_IAC_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYNO_TYPE_IAC_DIALOG);
  G_OBJECT_CLASS (dyno_iac_dialog_parent_class)->dispose (object);
}

static void
dyno_iac_dialog_finalize (GObject *object)
{
  DynoIacDialog *self = DYNO_IAC_DIALOG (object);

  g_clear_object (&self->backend);
  g_clear_object (&self->cancellable);
  g_free (self->table_name);
  g_clear_pointer (&self->tables, g_ptr_array_unref);
  G_OBJECT_CLASS (dyno_iac_dialog_parent_class)->finalize (object);
}

static void
dyno_iac_dialog_class_init (DynoIacDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_iac_dialog_dispose;
  object_class->finalize = dyno_iac_dialog_finalize;

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-iac-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoIacDialog, format_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynoIacDialog, copy_button);
  gtk_widget_class_bind_template_child (widget_class, DynoIacDialog, save_button);
  gtk_widget_class_bind_template_child (widget_class, DynoIacDialog, toasts);
  gtk_widget_class_bind_template_child (widget_class, DynoIacDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, DynoIacDialog, error_page);
  gtk_widget_class_bind_template_child (widget_class, DynoIacDialog, notes_label);
  gtk_widget_class_bind_template_child (widget_class, DynoIacDialog, source_view);
  gtk_widget_class_bind_template_callback (widget_class, format_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, copy_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, save_clicked_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
dyno_iac_dialog_init (DynoIacDialog *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  dyno_widget_expose_activate (self->format_dropdown);
}

GtkWidget *
dyno_iac_dialog_new (GtkWindow   *parent,
                     DynoBackend *backend,
                     const char  *table_name)
{
  DynoIacDialog *self = g_object_new (DYNO_TYPE_IAC_DIALOG, "transient-for", parent, NULL);
  /* Translators: the window's title: the table's name */
  g_autofree char *title = g_strdup_printf (_("%s as Code"), table_name);

  self->backend = g_object_ref (backend);
  self->table_name = g_strdup (table_name);
  gtk_window_set_title (GTK_WINDOW (self), title);
  dyno_table_iac_describe_async (backend, table_name, self->cancellable, described_cb,
                                 g_object_ref (self));
  return GTK_WIDGET (self);
}
