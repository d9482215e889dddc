/* dyno-widget-util.c: small pieces every form and dialog of the app is built from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

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
