/* dyno-widget-util.c: small pieces every form and dialog of the app is built from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include <adwaita.h>

#include "dyno-widget-util.h"

/* The name a screen reader says, and the name the end-to-end tests find the widget by. */
void
dyno_widget_set_accessible_label (GtkWidget  *widget,
                                  const char *label)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
}

/* The message under a field: hidden while the field is valid, selectable so it can be
 * copied into a search or a bug report. */
GtkWidget *
dyno_field_error_label_new (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "error");
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_set_visible (label, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (label),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("Error message"),
                                  -1);
  return label;
}

#define FIELDS_KEY "dyno-field-error-fields"  /* on a label: GPtrArray of GWeakRef* */
#define LABELS_KEY "dyno-field-error-labels"  /* on a field: the same, of its labels */

static void
weak_ref_free (GWeakRef *ref)
{
  g_weak_ref_clear (ref);
  g_free (ref);
}

/* Adds @object to the weak list @key of @owner unless it is there; drops dead entries. */
static void
weak_list_add (GObject    *owner,
               const char *key,
               GObject    *object)
{
  GPtrArray *list = g_object_get_data (owner, key);
  GWeakRef *ref;

  if (list == NULL)
    {
      list = g_ptr_array_new_with_free_func ((GDestroyNotify) weak_ref_free);
      g_object_set_data_full (owner, key, list, (GDestroyNotify) g_ptr_array_unref);
    }
  for (guint i = list->len; i > 0; i--)
    {
      g_autoptr(GObject) old = g_weak_ref_get (g_ptr_array_index (list, i - 1));

      if (old == NULL)
        g_ptr_array_remove_index (list, i - 1);
      else if (old == object)
        return;
    }
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, object);
  g_ptr_array_add (list, ref);
}

/* The live objects of the weak list @key of @owner, each with a reference. */
static GPtrArray *
weak_list_get (GObject    *owner,
               const char *key)
{
  GPtrArray *list = g_object_get_data (owner, key);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; list != NULL && i < list->len; i++)
    {
      GObject *object = g_weak_ref_get (g_ptr_array_index (list, i));

      if (object != NULL)
        g_ptr_array_add (out, object);
    }
  return out;
}

void
dyno_field_error_add_field (GtkWidget *label,
                            GtkWidget *field)
{
  g_return_if_fail (GTK_IS_LABEL (label));
  g_return_if_fail (GTK_IS_WIDGET (field));

  weak_list_add (G_OBJECT (label), FIELDS_KEY, G_OBJECT (field));
  weak_list_add (G_OBJECT (field), LABELS_KEY, G_OBJECT (label));
}

/* A field is invalid while any of its labels shows a message: then its description is those
 * messages and it is described by those labels (a field may have several, such as a key
 * entry with its own message and the key condition's). */
static void
update_field (GtkWidget *field)
{
  g_autoptr(GPtrArray) labels = weak_list_get (G_OBJECT (field), LABELS_KEY);
  g_autoptr(GString) description = g_string_new (NULL);
  GtkWidget *showing[4] = { NULL, };
  guint n_showing = 0;

  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (labels, i);
      const char *text = gtk_label_get_label (GTK_LABEL (label));

      if (!gtk_widget_get_visible (label) || text == NULL || *text == '\0')
        continue;
      if (description->len > 0)
        g_string_append_c (description, '\n');
      g_string_append (description, text);
      /* the relation names at most three; the description has every message */
      if (n_showing < G_N_ELEMENTS (showing) - 1)
        showing[n_showing++] = label;
    }

  if (n_showing > 0)
    {
      gtk_widget_add_css_class (field, "error");
      gtk_accessible_update_state (GTK_ACCESSIBLE (field), GTK_ACCESSIBLE_STATE_INVALID,
                                   GTK_ACCESSIBLE_INVALID_TRUE, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (field),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description->str, -1);
      /* the list ends at the first NULL */
      gtk_accessible_update_relation (GTK_ACCESSIBLE (field),
                                      GTK_ACCESSIBLE_RELATION_DESCRIBED_BY,
                                      showing[0], showing[1], showing[2], NULL, -1);
    }
  else
    {
      gtk_widget_remove_css_class (field, "error");
      gtk_accessible_update_state (GTK_ACCESSIBLE (field), GTK_ACCESSIBLE_STATE_INVALID,
                                   GTK_ACCESSIBLE_INVALID_FALSE, -1);
      gtk_accessible_reset_property (GTK_ACCESSIBLE (field),
                                     GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
      gtk_accessible_reset_relation (GTK_ACCESSIBLE (field),
                                     GTK_ACCESSIBLE_RELATION_DESCRIBED_BY);
    }
}

void
dyno_field_error_show (GtkWidget  *label,
                       const char *message)
{
  g_autoptr(GPtrArray) fields = NULL;

  g_return_if_fail (GTK_IS_LABEL (label));

  if (message != NULL && *message == '\0')
    message = NULL;
  gtk_label_set_label (GTK_LABEL (label), message ? message : "");
  gtk_widget_set_visible (label, message != NULL);
  fields = weak_list_get (G_OBJECT (label), FIELDS_KEY);
  for (guint i = 0; i < fields->len; i++)
    update_field (g_ptr_array_index (fields, i));
}

GtkWidget *
dyno_heading_label_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_margin_top (label, 12);
  return label;
}

GtkWidget *
dyno_caption_label_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static void
expose_activate_cb (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  gtk_widget_activate (GTK_WIDGET (user_data));
}

void
dyno_widget_expose_activate (GtkWidget *widget)
{
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) activate = g_simple_action_new ("activate", NULL);

  g_return_if_fail (GTK_IS_WIDGET (widget));

  /* the widget owns the group, which holds no reference to it */
  g_signal_connect_object (activate, "activate", G_CALLBACK (expose_activate_cb), widget, 0);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (activate));
  gtk_widget_insert_action_group (widget, "a11y", G_ACTION_GROUP (group));
}

GtkWidget *
dyno_wrapping_label_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  return label;
}

GWeakRef *
dyno_weak_ref_new (gpointer object)
{
  GWeakRef *weak = g_new0 (GWeakRef, 1);

  g_weak_ref_init (weak, object);
  return weak;
}

gpointer
dyno_weak_ref_steal (GWeakRef *weak)
{
  gpointer object = g_weak_ref_get (weak);

  g_weak_ref_clear (weak);
  g_free (weak);
  return object;
}

static void
apply_style_scheme (GtkSourceBuffer *buffer)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  gboolean dark = adw_style_manager_get_dark (manager);
  GtkSourceStyleScheme *scheme =
    gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "Adwaita-dark" : "Adwaita");

  /* GtkSourceView before 5.4 has no Adwaita schemes */
  if (scheme == NULL)
    scheme = gtk_source_style_scheme_manager_get_scheme (schemes,
                                                         dark ? "classic-dark" : "classic");
  gtk_source_buffer_set_style_scheme (buffer, scheme);
}

void
dyno_source_buffer_follow_style (GtkSourceBuffer *buffer)
{
  g_return_if_fail (GTK_SOURCE_IS_BUFFER (buffer));

  apply_style_scheme (buffer);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (apply_style_scheme), buffer, G_CONNECT_SWAPPED);
}
