/* dyno-patterns-dialog.c: Check Access Patterns — a pattern set run against a connection
 *
 * The same checks as `dynotable-cli patterns check` (dyno_pattern_check_async()), one pattern
 * after the other; each becomes a row: passed or failed, the plan and the figures, and the
 * reasons and notes when the row is expanded.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-patterns-dialog.h"

#include <glib/gi18n.h>
#include <string.h>

#include "dyno-access-pattern.h"
#include "dyno-engine-backend.h"
#include "dyno-pattern-check.h"

#define MAX_ITEMS 10000

struct _DynoPatternsDialog
{
  AdwWindow     parent_instance;

  DynoBackend  *backend;
  GCancellable *cancellable;
  GPtrArray    *patterns;     /* DynoAccessPattern* of the check in progress or done */
  GHashTable   *schemas;      /* table name -> DynoTableInfo, for the check in progress */
  guint         next;         /* the pattern checked now */
  guint         passed;
  GtkFileChooserNative *chooser;
  char         *saved_json;   /* the Playground workspace's pattern set, or NULL */

  GtkWidget    *save_button;  /* Save to Workspace: a Playground only */

  GtkWidget    *intro_label;
  GtkWidget    *path_entry;
  GtkWidget    *choose_button;
  GtkWidget    *check_button;
  GtkWidget    *summary_label;
  GtkWidget    *patterns_list;
};

G_DEFINE_FINAL_TYPE (DynoPatternsDialog, dyno_patterns_dialog, ADW_TYPE_WINDOW)

static const char *
path_text (DynoPatternsDialog *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));

  return text[0] != '\0' ? text : NULL;
}

static void
set_checking (DynoPatternsDialog *self,
              gboolean            checking)
{
  gtk_widget_set_sensitive (self->check_button,
                            !checking && (path_text (self) != NULL || self->saved_json != NULL));
  if (self->save_button != NULL)
    gtk_widget_set_sensitive (self->save_button, !checking && path_text (self) != NULL);
  gtk_widget_set_sensitive (self->path_entry, !checking);
  gtk_widget_set_sensitive (self->choose_button, !checking);
}

static void
path_changed_cb (DynoPatternsDialog *self)
{
  gtk_widget_remove_css_class (self->path_entry, "error");
  set_checking (self, FALSE);
}

static void
add_sentences (GtkWidget  *row,
               GPtrArray  *sentences,
               const char *icon)
{
  for (guint i = 0; sentences != NULL && i < sentences->len; i++)
    {
      GtkWidget *line = adw_action_row_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (line), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (line),
                                     g_ptr_array_index (sentences, i));
      adw_action_row_set_title_lines (ADW_ACTION_ROW (line), 0);
      adw_action_row_add_prefix (ADW_ACTION_ROW (line), gtk_image_new_from_icon_name (icon));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), line);
    }
}

/* One row for @pattern: PASS/FAIL, its plan and figures; problems and notes inside. */
static void
add_result (DynoPatternsDialog      *self,
            const DynoAccessPattern *pattern,
            const DynoPatternCheck  *check)
{
  GtkWidget *row = adw_expander_row_new ();
  gboolean passed = check->verdict != NULL && check->verdict->passed;
  g_autofree char *subtitle = NULL;
  g_autofree char *title = NULL;
  g_autofree char *figures = NULL;

  if (check->verdict == NULL)
    subtitle = g_strdup (check->error);
  else
    {
      g_autofree char *items = g_strdup_printf (g_dngettext (NULL, "%llu item", "%llu items",
                                                             check->run.items),
                                                (unsigned long long) check->run.items);
      g_autofree char *pages = g_strdup_printf (g_dngettext (NULL, "%u page", "%u pages",
                                                             check->run.pages),
                                                check->run.pages);

      /* Translators: items returned, pages, items read (ScannedCount) */
      figures = g_strdup_printf (_("%s, %s, %llu read"), items, pages,
                                 (unsigned long long) check->run.scanned);
      if (check->run.rcu >= 0)
        /* Translators: the plan ("Query on Orders"), the figures, the read capacity units */
        subtitle = g_strdup_printf (_("%s: %s, %g RCU"), check->verdict->plan, figures,
                                    check->run.rcu);
      else
        subtitle = g_strdup_printf ("%s: %s", check->verdict->plan, figures);
    }
  /* Translators: a pattern's row: "Passed: orders-of-customer" */
  title = g_strdup_printf (passed ? _("Passed: %s") : _("Failed: %s"), pattern->name);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);
  adw_expander_row_add_prefix (ADW_EXPANDER_ROW (row),
                               gtk_image_new_from_icon_name (passed ? "emblem-ok-symbolic"
                                                                    : "dialog-warning-symbolic"));
  if (pattern->description != NULL)
    {
      GtkWidget *line = adw_action_row_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (line), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (line), pattern->description);
      adw_action_row_set_title_lines (ADW_ACTION_ROW (line), 0);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), line);
    }
  if (check->verdict != NULL)
    {
      add_sentences (row, check->verdict->problems, "dialog-warning-symbolic");
      add_sentences (row, check->verdict->notes, "dialog-information-symbolic");
    }
  adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (row),
                                         pattern->description != NULL ||
                                         (check->verdict != NULL &&
                                          check->verdict->problems->len +
                                          check->verdict->notes->len > 0));
  gtk_list_box_append (GTK_LIST_BOX (self->patterns_list), row);
}

static void check_next (DynoPatternsDialog *self);

static void
checked_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(DynoPatternsDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoPatternCheck) check = NULL;

  check = dyno_pattern_check_finish (DYNO_BACKEND (source), result, &error);
  if (check == NULL)
    return;   /* cancelled: the window is going away */

  add_result (self, g_ptr_array_index (self->patterns, self->next), check);
  if (check->verdict != NULL && check->verdict->passed)
    self->passed++;
  self->next++;
  check_next (self);
}

static void
check_next (DynoPatternsDialog *self)
{
  g_autofree char *summary = NULL;

  if (self->next < self->patterns->len)
    {
      /* Translators: which pattern is being checked, of how many */
      summary = g_strdup_printf (_("Checking %u of %u…"), self->next + 1, self->patterns->len);
      gtk_label_set_label (GTK_LABEL (self->summary_label), summary);
      dyno_pattern_check_async (self->backend, g_ptr_array_index (self->patterns, self->next),
                                self->schemas, MAX_ITEMS, self->cancellable, checked_cb,
                                g_object_ref (self));
      return;
    }

  /* Translators: the patterns that passed, of how many */
  summary = g_strdup_printf (g_dngettext (NULL, "%u of %u pattern passed",
                                          "%u of %u patterns passed", self->patterns->len),
                             self->passed, self->patterns->len);
  gtk_label_set_label (GTK_LABEL (self->summary_label), summary);
  set_checking (self, FALSE);
}

static void
clear_list (DynoPatternsDialog *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->patterns_list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->patterns_list), child);
}

static void
check_clicked_cb (DynoPatternsDialog *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GPtrArray) patterns = NULL;
  const char *path = path_text (self);
  gsize length;

  if ((path == NULL && self->saved_json == NULL)
      || !gtk_widget_get_sensitive (self->check_button))
    return;
  clear_list (self);
  /* no file: the pattern set saved in the workspace */
  if (path == NULL)
    {
      contents = g_strdup (self->saved_json);
      length = strlen (contents);
    }
  else if (!g_file_get_contents (path, &contents, &length, &error))
    {
      gtk_widget_add_css_class (self->path_entry, "error");
      gtk_label_set_label (GTK_LABEL (self->summary_label), error->message);
      return;
    }
  patterns = dyno_access_patterns_from_json (contents, length, NULL, &error);
  if (patterns == NULL || patterns->len == 0)
    {
      gtk_widget_add_css_class (self->path_entry, "error");
      gtk_label_set_label (GTK_LABEL (self->summary_label),
                           patterns == NULL ? error->message
                                            : _("The pattern set has no patterns."));
      return;
    }

  g_clear_pointer (&self->patterns, g_ptr_array_unref);
  self->patterns = g_steal_pointer (&patterns);
  g_clear_pointer (&self->schemas, g_hash_table_unref);
  self->schemas = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) dyno_table_info_unref);
  self->next = 0;
  self->passed = 0;
  set_checking (self, TRUE);
  check_next (self);
}

/* Save to Workspace: the file's pattern set, read and checked, kept in the workspace (and so
 * exported, duplicated and opened with it). */
static void
save_clicked_cb (DynoPatternsDialog *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GPtrArray) patterns = NULL;
  g_autofree char *summary = NULL;
  const char *path = path_text (self);
  gsize length;

  if (path == NULL || !DYNO_IS_ENGINE_BACKEND (self->backend))
    return;
  if (!g_file_get_contents (path, &contents, &length, &error)
      || (patterns = dyno_access_patterns_from_json (contents, length, NULL, &error)) == NULL
      || !dyno_engine_backend_set_patterns (DYNO_ENGINE_BACKEND (self->backend), contents,
                                            &error))
    {
      gtk_widget_add_css_class (self->path_entry, "error");
      gtk_label_set_label (GTK_LABEL (self->summary_label), error->message);
      return;
    }
  g_free (self->saved_json);
  self->saved_json = g_steal_pointer (&contents);
  summary = g_strdup_printf (g_dngettext (NULL,
                                          "%u pattern saved in the workspace",
                                          "%u patterns saved in the workspace", patterns->len),
                             patterns->len);
  gtk_label_set_label (GTK_LABEL (self->summary_label), summary);
  set_checking (self, FALSE);
}

static void
chooser_response_cb (GtkNativeDialog    *chooser,
                     int                 response,
                     DynoPatternsDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path);
    }
  g_clear_object (&self->chooser);
}

static void
choose_clicked_cb (DynoPatternsDialog *self)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Choose a Pattern Set"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                                               _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Pattern sets (JSON)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
dyno_patterns_dialog_dispose (GObject *object)
{
  DynoPatternsDialog *self = DYNO_PATTERNS_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  if (self->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->chooser, self);
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), DYNO_TYPE_PATTERNS_DIALOG);
  G_OBJECT_CLASS (dyno_patterns_dialog_parent_class)->dispose (object);
}

static void
dyno_patterns_dialog_finalize (GObject *object)
{
  DynoPatternsDialog *self = DYNO_PATTERNS_DIALOG (object);

  g_clear_object (&self->backend);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->saved_json, g_free);
  g_clear_pointer (&self->patterns, g_ptr_array_unref);
  g_clear_pointer (&self->schemas, g_hash_table_unref);
  G_OBJECT_CLASS (dyno_patterns_dialog_parent_class)->finalize (object);
}

static void
dyno_patterns_dialog_class_init (DynoPatternsDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_patterns_dialog_dispose;
  object_class->finalize = dyno_patterns_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-patterns-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoPatternsDialog, intro_label);
  gtk_widget_class_bind_template_child (widget_class, DynoPatternsDialog, path_entry);
  gtk_widget_class_bind_template_child (widget_class, DynoPatternsDialog, choose_button);
  gtk_widget_class_bind_template_child (widget_class, DynoPatternsDialog, check_button);
  gtk_widget_class_bind_template_child (widget_class, DynoPatternsDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, DynoPatternsDialog, patterns_list);
  gtk_widget_class_bind_template_callback (widget_class, path_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, check_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, choose_clicked_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
dyno_patterns_dialog_init (DynoPatternsDialog *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
dyno_patterns_dialog_new (GtkWindow   *parent,
                          DynoBackend *backend,
                          const char  *connection_name)
{
  DynoPatternsDialog *self = g_object_new (DYNO_TYPE_PATTERNS_DIALOG, "transient-for", parent,
                                           NULL);
  /* Translators: the connection's name */
  g_autofree char *intro = g_strdup_printf (_("Runs every access pattern of a pattern set on "
                                              "%s, every page, and judges it: a Scan, items out "
                                              "of order, too few or too many, or many more read "
                                              "than returned fail it. The format is in the "
                                              "README; `dynotable-cli patterns check` does the "
                                              "same."), connection_name);

  self->backend = g_object_ref (backend);
  gtk_label_set_label (GTK_LABEL (self->intro_label), intro);
  if (DYNO_IS_ENGINE_BACKEND (backend))
    {
      g_autoptr(GError) error = NULL;

      self->save_button = gtk_button_new_with_mnemonic (_("_Save to Workspace"));
      gtk_widget_set_tooltip_text (self->save_button,
                                   _("Keep this pattern set in the workspace file: it is "
                                     "exported and opened with it"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->save_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Save pattern set to workspace"), -1);
      g_signal_connect_swapped (self->save_button, "clicked", G_CALLBACK (save_clicked_cb),
                                self);
      gtk_box_append (GTK_BOX (gtk_widget_get_parent (self->choose_button)), self->save_button);

      self->saved_json = dyno_engine_backend_dup_patterns (DYNO_ENGINE_BACKEND (backend),
                                                           &error);
      if (error != NULL)
        gtk_label_set_label (GTK_LABEL (self->summary_label), error->message);
      if (self->saved_json != NULL)
        gtk_entry_set_placeholder_text (GTK_ENTRY (self->path_entry),
                                        _("Empty: the pattern set saved in the workspace"));
      set_checking (self, FALSE);
    }
  return GTK_WIDGET (self);
}

void
dyno_patterns_dialog_set_path (DynoPatternsDialog *self,
                               const char         *path)
{
  g_return_if_fail (DYNO_IS_PATTERNS_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path);
}
