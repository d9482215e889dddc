/* dyno-conflict-dialog.c: a save met a concurrent change; both versions side by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-conflict-dialog.h"

#include <glib/gi18n.h>

#include "dyno-json.h"
#include "dyno-safe-write.h"

struct _DynoConflictDialog
{
  AdwWindow  parent_instance;

  GStrv      changed;       /* differ between theirs and mine */
  gboolean   chosen;
  GtkWidget *intro_label;
  GtkWidget *grid;
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
  const char *text;
  guint row = 1;

  g_return_val_if_fail (mine != NULL, NULL);

  self = g_object_new (DYNO_TYPE_CONFLICT_DIALOG,
                       "transient-for", parent,
                       NULL);

  diff = dyno_item_diff (theirs, mine);
  for (guint i = 0; i < diff->len; i++)
    {
      DynoDiffEntry *entry = g_ptr_array_index (diff, i);

      g_hash_table_add (changed, entry->attribute);
      g_strv_builder_add (changed_builder, entry->attribute);
    }
  self->changed = g_strv_builder_end (changed_builder);
  conflicting = dyno_item_conflicting_attributes (loaded, mine, theirs);

  if (theirs == NULL)
    text = _("The item was deleted after you loaded it. Overwrite puts your version back as a "
             "new item.");
  else if (loaded == NULL)
    text = _("An item with this key already exists. Reload edits that item instead; Overwrite "
             "replaces it with yours.");
  else
    text = _("Someone changed this item after you loaded it, so it was not saved. Highlighted "
             "attributes differ between the two versions; those marked ⚠ were changed by both.");
  gtk_label_set_label (GTK_LABEL (self->intro_label), text);

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
      gtk_grid_attach (GTK_GRID (self->grid), name_label, 0, row, 1, 1);
      gtk_grid_attach (GTK_GRID (self->grid), theirs_label, 1, row, 1, 1);
      gtk_grid_attach (GTK_GRID (self->grid), mine_label, 2, row, 1, 1);
    }

  gtk_widget_set_sensitive (self->reload_button, theirs != NULL);
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
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = dyno_conflict_dialog_finalize;

  signals[SIGNAL_CHOSEN] = g_signal_new ("chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-conflict-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoConflictDialog, intro_label);
  gtk_widget_class_bind_template_child (widget_class, DynoConflictDialog, grid);
  gtk_widget_class_bind_template_child (widget_class, DynoConflictDialog, reload_button);
  gtk_widget_class_bind_template_child (widget_class, DynoConflictDialog, overwrite_button);
  gtk_widget_class_bind_template_callback (widget_class, reload_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, overwrite_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, close_request_cb);
}

static void
dyno_conflict_dialog_init (DynoConflictDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
