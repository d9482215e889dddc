/* dyno-conflict-dialog.c: a save met a concurrent change; both versions side by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-conflict-dialog.h"

#include <glib/gi18n.h>

#include "dyno-json.h"
#include "dyno-safe-write.h"
#include "dyno-widget-util.h"

struct _DynoConflictDialog
{
  AdwWindow  parent_instance;

  GStrv      changed;       /* differ between theirs and mine */
  gboolean   chosen;
  GtkWidget *reload_button;
  GtkWidget *overwrite_button;
};

G_DEFINE_FINAL_TYPE (DynoConflictDialog, dyno_conflict_dialog, ADW_TYPE_WINDOW)

enum {
  SIGNAL_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
dyno_conflict_dialog_choose (DynoConflictDialog *self,
                             DynoConflictChoice  choice)
{
  g_return_if_fail (DYNO_IS_CONFLICT_DIALOG (self));

  if (self->chosen)
    return;
  self->chosen = TRUE;
  g_object_ref (self);
  g_signal_emit (self, signals[SIGNAL_CHOSEN], 0, (gint) choice);
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}

GStrv
dyno_conflict_dialog_dup_changed (DynoConflictDialog *self)
{
  g_return_val_if_fail (DYNO_IS_CONFLICT_DIALOG (self), NULL);

  return g_strdupv (self->changed);
}

static void
reload_clicked_cb (DynoConflictDialog *self)
{
  dyno_conflict_dialog_choose (self, DYNO_CONFLICT_RELOAD);
}

static void
overwrite_clicked_cb (DynoConflictDialog *self)
{
  dyno_conflict_dialog_choose (self, DYNO_CONFLICT_OVERWRITE);
}

static void
cancel_clicked_cb (DynoConflictDialog *self)
{
  dyno_conflict_dialog_choose (self, DYNO_CONFLICT_CANCEL);
}

static gboolean
close_request_cb (DynoConflictDialog *self)
{
  if (!self->chosen)
    {
      self->chosen = TRUE;
      g_signal_emit (self, signals[SIGNAL_CHOSEN], 0, (gint) DYNO_CONFLICT_CANCEL);
    }
  return FALSE;
}

static GtkWidget *
value_label (const DynoItem *item,
             const char     *name)
{
  const DynoValue *value = item ? dyno_item_lookup (item, name) : NULL;
  g_autofree char *text = value ? dyno_value_to_ddb_json (value) : NULL;
  GtkWidget *label = gtk_label_new (text ? text : _("(absent)"));

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "monospace");
  if (value == NULL)
    gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static void
add_names (GPtrArray      *names,
           GHashTable     *seen,
           const DynoItem *item)
{
  const DynoValue *map;

  if (item == NULL)
    return;
  map = dyno_item_get_map (item);
  for (guint i = 0; i < dyno_value_get_n_children (map); i++)
    {
      const char *name = dyno_value_get_member_name (map, i, NULL);

      if (g_hash_table_add (seen, (gpointer) name))
        g_ptr_array_add (names, (gpointer) name);
    }
}

GtkWidget *
dyno_conflict_dialog_new (GtkWindow *parent,
                          DynoItem  *loaded,
                          DynoItem  *mine,
                          DynoItem  *theirs)
{
  DynoConflictDialog *self;
  g_autoptr(GPtrArray) diff = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) changed = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) conflicting = NULL;
  g_autoptr(GStrvBuilder) changed_builder = g_strv_builder_new ();
  GtkWidget *box, *header, *content, *intro, *scrolled, *grid, *buttons, *cancel, *label;
  const char *text;
  guint row = 1;

  g_return_val_if_fail (mine != NULL, NULL);

  self = g_object_new (DYNO_TYPE_CONFLICT_DIALOG,
                       "modal", TRUE,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       "title", _("The Item Was Changed"),
                       "default-width", 760,
                       "default-height", 520,
                       NULL);
  g_signal_connect (self, "close-request", G_CALLBACK (close_request_cb), NULL);

  diff = dyno_item_diff (theirs, mine);
  for (guint i = 0; i < diff->len; i++)
    {
      DynoDiffEntry *entry = g_ptr_array_index (diff, i);

      g_hash_table_add (changed, entry->attribute);
      g_strv_builder_add (changed_builder, entry->attribute);
    }
  self->changed = g_strv_builder_end (changed_builder);
  conflicting = dyno_item_conflicting_attributes (loaded, mine, theirs);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  gtk_box_append (GTK_BOX (box), header);

  content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (content, 18);
  gtk_widget_set_margin_end (content, 18);
  gtk_widget_set_margin_top (content, 12);
  gtk_widget_set_margin_bottom (content, 18);
  gtk_widget_set_vexpand (content, TRUE);
  gtk_box_append (GTK_BOX (box), content);

  if (theirs == NULL)
    text = _("The item was deleted after you loaded it. Overwrite puts your version back as a "
             "new item.");
  else if (loaded == NULL)
    text = _("An item with this key already exists. Reload edits that item instead; Overwrite "
             "replaces it with yours.");
  else
    text = _("Someone changed this item after you loaded it, so it was not saved. Highlighted "
             "attributes differ between the two versions; those marked ⚠ were changed by both.");
  intro = gtk_label_new (text);
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  gtk_box_append (GTK_BOX (content), intro);

  grid = gtk_grid_new ();
  gtk_widget_set_name (grid, "conflict-grid");
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  label = gtk_label_new (_("Attribute"));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_grid_attach (GTK_GRID (grid), label, 0, 0, 1, 1);
  label = gtk_label_new (_("In the table now"));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_grid_attach (GTK_GRID (grid), label, 1, 0, 1, 1);
  label = gtk_label_new (_("Yours"));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_grid_attach (GTK_GRID (grid), label, 2, 0, 1, 1);

  add_names (names, seen, theirs);
  add_names (names, seen, mine);
  /* what differs first (in item order), then what is the same: the answer is at the top */
  {
    g_autoptr(GPtrArray) ordered = g_ptr_array_sized_new (names->len);

    for (guint pass = 0; pass < 2; pass++)
      for (guint i = 0; i < names->len; i++)
        if (g_hash_table_contains (changed, g_ptr_array_index (names, i)) == (pass == 0))
          g_ptr_array_add (ordered, g_ptr_array_index (names, i));
    g_ptr_array_set_size (names, 0);
    g_ptr_array_extend_and_steal (names, g_steal_pointer (&ordered));
  }
  for (guint i = 0; i < names->len; i++, row++)
    {
      const char *name = g_ptr_array_index (names, i);
      gboolean differs = g_hash_table_contains (changed, name);
      gboolean both = g_strv_contains ((const char * const *) conflicting, name);
      g_autofree char *title = g_strdup_printf ("%s%s", both ? "⚠ " : "", name);
      GtkWidget *name_label = gtk_label_new (title);
      GtkWidget *theirs_label = value_label (theirs, name);
      GtkWidget *mine_label = value_label (mine, name);

      gtk_label_set_xalign (GTK_LABEL (name_label), 0);
      if (differs)
        {
          const char *css = both ? "error" : "warning";

          gtk_widget_add_css_class (name_label, css);
          gtk_widget_add_css_class (theirs_label, css);
          gtk_widget_add_css_class (mine_label, css);
          gtk_widget_add_css_class (name_label, "heading");
        }
      gtk_grid_attach (GTK_GRID (grid), name_label, 0, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), theirs_label, 1, row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), mine_label, 2, row, 1, 1);
    }

  scrolled = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), grid);
  gtk_box_append (GTK_BOX (content), scrolled);

  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  cancel = gtk_button_new_with_mnemonic (_("_Keep Editing"));
  dyno_widget_set_accessible_label (cancel, _("Keep editing"));
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (cancel_clicked_cb), self);
  gtk_box_append (GTK_BOX (buttons), cancel);

  self->reload_button = gtk_button_new_with_mnemonic (_("_Reload Their Version"));
  gtk_widget_set_name (self->reload_button, "reload-theirs");
  dyno_widget_set_accessible_label (self->reload_button, _("Reload their version"));
  gtk_widget_set_tooltip_text (self->reload_button,
                               _("Discard your edits and edit the item as it is now"));
  gtk_widget_set_sensitive (self->reload_button, theirs != NULL);
  g_signal_connect_swapped (self->reload_button, "clicked", G_CALLBACK (reload_clicked_cb), self);
  gtk_box_append (GTK_BOX (buttons), self->reload_button);

  self->overwrite_button = gtk_button_new_with_mnemonic (_("_Overwrite With Mine"));
  gtk_widget_set_name (self->overwrite_button, "overwrite-mine");
  gtk_widget_add_css_class (self->overwrite_button, "destructive-action");
  dyno_widget_set_accessible_label (self->overwrite_button, _("Overwrite with mine"));
  gtk_widget_set_tooltip_text (self->overwrite_button,
                               _("Save your version, replacing the changes shown on the left"));
  g_signal_connect_swapped (self->overwrite_button, "clicked", G_CALLBACK (overwrite_clicked_cb),
                            self);
  gtk_box_append (GTK_BOX (buttons), self->overwrite_button);
  gtk_box_append (GTK_BOX (content), buttons);

  adw_window_set_content (ADW_WINDOW (self), box);
  return GTK_WIDGET (self);
}

static void
dyno_conflict_dialog_finalize (GObject *object)
{
  DynoConflictDialog *self = DYNO_CONFLICT_DIALOG (object);

  g_strfreev (self->changed);
  G_OBJECT_CLASS (dyno_conflict_dialog_parent_class)->finalize (object);
}

static void
dyno_conflict_dialog_class_init (DynoConflictDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dyno_conflict_dialog_finalize;

  signals[SIGNAL_CHOSEN] = g_signal_new ("chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
}

static void
dyno_conflict_dialog_init (DynoConflictDialog *self)
{
}
