/* dyno-workspace-dialog.c: New, Open, Duplicate and Export Workspace
 *
 * One small window for the four: a name (New, Duplicate) or a file (Open, Export) typed or
 * chosen, and one button.  Copies are the engine's (VACUUM INTO on the live workspace,
 * dyno_engine_backend_export_async()), never a copy of the file while it is written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-workspace-dialog.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>

#include "dyno-window.h"

struct _DynoWorkspaceDialog
{
  AdwWindow               parent_instance;

  DynoWorkspaceDialogMode mode;
  DynoConnectionStore    *store;
  DynoEngineBackend      *backend;
  GCancellable           *cancellable;
  GtkFileChooserNative   *chooser;
  GtkWindow              *parent;   /* weak: where the toasts go */
  char                   *target;   /* the file being written (Duplicate, Export) */

  GtkWidget              *entry;
  GtkWidget              *choose_button;
  GtkWidget              *action_button;
  GtkWidget              *message_label;
};

G_DEFINE_FINAL_TYPE (DynoWorkspaceDialog, dyno_workspace_dialog, ADW_TYPE_WINDOW)

static gboolean
wants_file (DynoWorkspaceDialog *self)
{
  return self->mode == DYNO_WORKSPACE_DIALOG_OPEN || self->mode == DYNO_WORKSPACE_DIALOG_EXPORT;
}

static void
show_error (DynoWorkspaceDialog *self,
            const char          *message)
{
  gtk_widget_add_css_class (self->entry, "error");
  gtk_label_set_label (GTK_LABEL (self->message_label), message);
  gtk_widget_set_visible (self->message_label, TRUE);
}

static void
set_busy (DynoWorkspaceDialog *self,
          gboolean             busy)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (
                                                  GTK_EDITABLE (self->entry))));

  gtk_widget_set_sensitive (self->entry, !busy);
  gtk_widget_set_sensitive (self->choose_button, !busy);
  gtk_widget_set_sensitive (self->action_button, !busy && text[0] != '\0');
}

static void
text_changed_cb (DynoWorkspaceDialog *self)
{
  gtk_widget_remove_css_class (self->entry, "error");
  gtk_widget_set_visible (self->message_label, FALSE);
  set_busy (self, FALSE);
}

static void
toast (DynoWorkspaceDialog *self,
       const char          *message)
{
  if (self->parent != NULL && DYNO_IS_WINDOW (self->parent))
    dyno_window_add_toast (DYNO_WINDOW (self->parent), message);
}

/* A Playground on @path in the store (and so in the sidebar), saved. */
static gboolean
add_workspace (DynoWorkspaceDialog *self,
               const char          *path)
{
  g_autoptr(DynoConnection) connection = NULL;
  g_autoptr(GError) error = NULL;

  if (dyno_connection_store_find_workspace (self->store, path) != NULL)
    {
      /* Translators: the workspace's file. */
      g_autofree char *message = g_strdup_printf (_("%s is already open"), path);

      show_error (self, message);
      return FALSE;
    }
  connection = dyno_connection_new_playground (path);
  dyno_connection_store_add (self->store, connection);
  if (!dyno_connection_store_save (self->store, &error))
    toast (self, error->message);
  return TRUE;
}

static void
exported_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(DynoWorkspaceDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  const char *path = self->target;

  if (!dyno_engine_backend_export_finish (DYNO_ENGINE_BACKEND (source), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          set_busy (self, FALSE);
          show_error (self, error->message);
        }
      return;
    }

  if (self->mode == DYNO_WORKSPACE_DIALOG_DUPLICATE)
    {
      if (!add_workspace (self, path))
        {
          set_busy (self, FALSE);
          return;
        }
    }
  else
    {
      /* Translators: the file a workspace was exported to. */
      g_autofree char *message = g_strdup_printf (_("Workspace exported to %s"), path);

      toast (self, message);
    }
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
export_to (DynoWorkspaceDialog *self,
           const char          *path)
{
  set_busy (self, TRUE);
  g_free (self->target);
  self->target = g_strdup (path);
  dyno_engine_backend_export_async (self->backend, path, self->cancellable,
                                    exported_cb, g_object_ref (self));
}

/* An empty file (a new workspace) or a SQLite database: anything else is refused before it
 * becomes a Playground that cannot open. */
static gboolean
looks_like_workspace (const char *path)
{
  static const char magic[16] = "SQLite format 3";  /* and its NUL */
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
  char head[16];
  gsize got = 0;

  if (stream == NULL
      || !g_input_stream_read_all (G_INPUT_STREAM (stream), head, sizeof head, &got, NULL, NULL))
    return FALSE;
  return got == 0 || (got == sizeof head && memcmp (head, magic, sizeof head) == 0);
}

static void
action_clicked_cb (DynoWorkspaceDialog *self)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (
                                                  GTK_EDITABLE (self->entry))));
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (text[0] == '\0' || !gtk_widget_get_sensitive (self->action_button))
    return;

  if (wants_file (self))
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (text);

      path = g_file_get_path (file);
    }
  else
    {
      path = dyno_connection_dup_workspace_path_for_name (text, &error);
      if (path == NULL)
        {
          show_error (self, error->message);
          return;
        }
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        {
          /* Translators: a workspace's name. */
          g_autofree char *message = g_strdup_printf (_("A workspace named “%s” exists already"),
                                                      text);

          show_error (self, message);
          return;
        }
    }

  switch (self->mode)
    {
    case DYNO_WORKSPACE_DIALOG_NEW:
      /* the file is made when the Playground opens */
      if (add_workspace (self, path))
        gtk_window_destroy (GTK_WINDOW (self));
      return;

    case DYNO_WORKSPACE_DIALOG_OPEN:
      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          /* Translators: a file that does not exist. */
          g_autofree char *message = g_strdup_printf (_("There is no file %s"), path);

          show_error (self, message);
          return;
        }
      if (!looks_like_workspace (path))
        {
          /* Translators: a file that is not a SQLite database. */
          g_autofree char *message = g_strdup_printf (_("%s is not a workspace file"), path);

          show_error (self, message);
          return;
        }
      if (add_workspace (self, path))
        gtk_window_destroy (GTK_WINDOW (self));
      return;

    case DYNO_WORKSPACE_DIALOG_DUPLICATE:
    case DYNO_WORKSPACE_DIALOG_EXPORT:
    default:
      {
        g_autofree char *dir = g_path_get_dirname (path);

        /* the copy replaces the file as a whole: never one a Playground has open */
        if (dyno_connection_store_find_workspace (self->store, path) != NULL)
          {
            /* Translators: the file chosen to export a workspace to. */
            g_autofree char *message =
              g_strdup_printf (_("%s is an open workspace: choose another file"), path);

            show_error (self, message);
            return;
          }

        if (g_mkdir_with_parents (dir, 0700) != 0)
          {
            /* Translators: the folder, then the system's error message. */
            g_autofree char *message = g_strdup_printf (_("Could not make the folder %s: %s"),
                                                        dir, g_strerror (errno));

            show_error (self, message);
            return;
          }
        export_to (self, path);
        return;
      }
    }
}

static void
chooser_response_cb (GtkNativeDialog     *chooser,
                     int                  response,
                     DynoWorkspaceDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        gtk_editable_set_text (GTK_EDITABLE (self->entry), path);
    }
  g_clear_object (&self->chooser);
}

static void
choose_clicked_cb (DynoWorkspaceDialog *self)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();
  gboolean save = self->mode == DYNO_WORKSPACE_DIALOG_EXPORT;

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (save ? _("Export Workspace") : _("Open Workspace"),
                                               GTK_WINDOW (self),
                                               save ? GTK_FILE_CHOOSER_ACTION_SAVE
                                                    : GTK_FILE_CHOOSER_ACTION_OPEN,
                                               save ? _("_Export") : _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("DynoTable workspaces"));
  gtk_file_filter_add_pattern (filter, "*" DYNO_WORKSPACE_EXTENSION);
  gtk_file_filter_add_pattern (filter, "*.sqlite");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), all);
  if (save)
    {
      const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
      g_autofree char *base = g_path_get_basename (text);

      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), base);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
dyno_workspace_dialog_dispose (GObject *object)
{
  DynoWorkspaceDialog *self = DYNO_WORKSPACE_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_weak_pointer (&self->parent);

  G_OBJECT_CLASS (dyno_workspace_dialog_parent_class)->dispose (object);
}

static void
dyno_workspace_dialog_finalize (GObject *object)
{
  DynoWorkspaceDialog *self = DYNO_WORKSPACE_DIALOG (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->store);
  g_clear_object (&self->backend);
  g_clear_pointer (&self->target, g_free);

  G_OBJECT_CLASS (dyno_workspace_dialog_parent_class)->finalize (object);
}

static void
dyno_workspace_dialog_class_init (DynoWorkspaceDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyno_workspace_dialog_dispose;
  object_class->finalize = dyno_workspace_dialog_finalize;

  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0,
                                       "window.close", NULL);
}

static void
dyno_workspace_dialog_init (DynoWorkspaceDialog *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *body = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *header = adw_header_bar_new ();

  self->cancellable = g_cancellable_new ();
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (self), 480, -1);

  self->action_button = gtk_button_new ();
  gtk_button_set_use_underline (GTK_BUTTON (self->action_button), TRUE);
  gtk_widget_add_css_class (self->action_button, "suggested-action");
  gtk_widget_set_sensitive (self->action_button, FALSE);
  g_signal_connect_swapped (self->action_button, "clicked", G_CALLBACK (action_clicked_cb), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), self->action_button);
  gtk_box_append (GTK_BOX (box), header);

  gtk_widget_set_margin_start (body, 18);
  gtk_widget_set_margin_end (body, 18);
  gtk_widget_set_margin_top (body, 12);
  gtk_widget_set_margin_bottom (body, 18);
  self->entry = gtk_entry_new ();
  gtk_widget_set_hexpand (self->entry, TRUE);
  g_signal_connect_swapped (self->entry, "changed", G_CALLBACK (text_changed_cb), self);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (action_clicked_cb), self);
  gtk_box_append (GTK_BOX (line), self->entry);
  self->choose_button = gtk_button_new_with_mnemonic (_("C_hoose…"));
  g_signal_connect_swapped (self->choose_button, "clicked", G_CALLBACK (choose_clicked_cb), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->choose_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Choose workspace file"), -1);
  gtk_box_append (GTK_BOX (line), self->choose_button);
  gtk_box_append (GTK_BOX (body), line);

  self->message_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->message_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->message_label), 0);
  gtk_label_set_selectable (GTK_LABEL (self->message_label), TRUE);
  gtk_widget_add_css_class (self->message_label, "error");
  gtk_widget_set_visible (self->message_label, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->message_label),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("Workspace problem"), -1);
  gtk_box_append (GTK_BOX (body), self->message_label);
  gtk_box_append (GTK_BOX (box), body);

  adw_window_set_content (ADW_WINDOW (self), box);
}

DynoWorkspaceDialog *
dyno_workspace_dialog_new (GtkWindow               *parent,
                           DynoWorkspaceDialogMode  mode,
                           DynoConnectionStore     *store,
                           DynoEngineBackend       *backend,
                           const char              *source_name)
{
  DynoWorkspaceDialog *self = g_object_new (DYNO_TYPE_WORKSPACE_DIALOG,
                                            "transient-for", parent, NULL);
  const char *title;
  const char *button;
  const char *button_name;
  const char *entry_name;
  const char *placeholder;

  g_return_val_if_fail (DYNO_IS_CONNECTION_STORE (store), self);
  g_return_val_if_fail (backend != NULL || mode == DYNO_WORKSPACE_DIALOG_NEW ||
                        mode == DYNO_WORKSPACE_DIALOG_OPEN, self);

  self->mode = mode;
  self->store = g_object_ref (store);
  self->backend = backend != NULL ? g_object_ref (backend) : NULL;
  g_set_weak_pointer (&self->parent, parent);

  switch (mode)
    {
    case DYNO_WORKSPACE_DIALOG_NEW:
      title = _("New Workspace");
      button = _("C_reate");
      button_name = _("Create workspace");
      entry_name = _("Workspace name");
      placeholder = _("Name of the new workspace");
      break;
    case DYNO_WORKSPACE_DIALOG_OPEN:
      title = _("Open Workspace");
      button = _("_Open");
      button_name = _("Open workspace");
      entry_name = _("Workspace file");
      placeholder = _("Path of a workspace file (.dynotable)");
      break;
    case DYNO_WORKSPACE_DIALOG_DUPLICATE:
      title = _("Duplicate Workspace");
      button = _("_Duplicate");
      button_name = _("Duplicate workspace");
      entry_name = _("Workspace name");
      placeholder = _("Name of the copy");
      break;
    case DYNO_WORKSPACE_DIALOG_EXPORT:
    default:
      title = _("Export Workspace");
      button = _("_Export");
      button_name = _("Export workspace");
      entry_name = _("Export file");
      placeholder = _("Path of the file to write (.dynotable)");
      break;
    }

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_button_set_label (GTK_BUTTON (self->action_button), button);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->action_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, button_name, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, entry_name, -1);
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->entry), placeholder);
  gtk_widget_set_visible (self->choose_button, wants_file (self));

  if (mode == DYNO_WORKSPACE_DIALOG_DUPLICATE && source_name != NULL)
    {
      /* Translators: the suggested name of a workspace's copy. */
      g_autofree char *copy = g_strdup_printf (_("%s copy"), source_name);

      gtk_editable_set_text (GTK_EDITABLE (self->entry), copy);
    }
  else if (mode == DYNO_WORKSPACE_DIALOG_EXPORT && source_name != NULL)
    {
      g_autofree char *file = g_strconcat (source_name, DYNO_WORKSPACE_EXTENSION, NULL);
      g_autofree char *path = g_build_filename (g_get_home_dir (), file, NULL);

      gtk_editable_set_text (GTK_EDITABLE (self->entry), path);
    }

  return self;
}
