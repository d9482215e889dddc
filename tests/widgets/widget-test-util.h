/* widget-test-util.h: finding and working widgets in-process, for the widget tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The first descendant of @root (or @root) whose id in the .ui template it comes from, or
 * else whose widget name, is @name, or NULL. */
static inline GtkWidget *
find_named (GtkWidget  *root,
            const char *name)
{
  if (g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (root)), name) == 0
      || g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_named (child, name);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static inline GtkWidget *
get_named (GtkWidget  *root,
           const char *name)
{
  GtkWidget *widget = find_named (root, name);

  if (widget == NULL)
    g_error ("no widget named “%s”", name);
  return widget;
}

/* The first descendant of @root (or @root) built from a template or .ui file with the id @id
 * (its buildable id: "pk_entry" in <object class="GtkEntry" id="pk_entry">), or NULL.  The
 * widgets of templates are found by what they are in the template, not by widget names. */
static inline GtkWidget *
find_by_id (GtkWidget  *root,
            const char *id)
{
  if (g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (root)), id) == 0)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_by_id (child, id);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static inline GtkWidget *
get_by_id (GtkWidget  *root,
           const char *id)
{
  GtkWidget *widget = find_by_id (root, id);

  if (widget == NULL)
    g_error ("no widget with the id “%s”", id);
  return widget;
}

/* The options a GtkDropDown of strings offers. */
static inline GStrv
dropdown_options (GtkWidget *dropdown)
{
  GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown));
  GStrvBuilder *builder = g_strv_builder_new ();
  GStrv result;

  for (guint i = 0; model != NULL && i < g_list_model_get_n_items (model); i++)
    g_strv_builder_add (builder, gtk_string_list_get_string (GTK_STRING_LIST (model), i));
  result = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);

  return result;
}

/* Selects the option labelled @option, as a click on it would; fails the test when absent. */
static inline void
dropdown_choose (GtkWidget  *dropdown,
                 const char *option)
{
  g_auto(GStrv) options = dropdown_options (dropdown);

  for (guint i = 0; options[i] != NULL; i++)
    if (g_str_equal (options[i], option))
      {
        gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), i);
        return;
      }

  g_error ("the dropdown “%s” has no option “%s”", gtk_widget_get_name (dropdown), option);
}

static inline void
type_text (GtkWidget  *entry,
           const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
}

/* The text an error label shows, or NULL when it is hidden. */
static inline const char *
shown_error (GtkWidget *label)
{
  if (!gtk_widget_get_visible (label))
    return NULL;
  return gtk_label_get_label (GTK_LABEL (label));
}

/* Runs the main context until it has nothing left to do (idle revalidation, model updates). */
static inline void
drain_main_context (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

G_END_DECLS
