/* dyno-widget-util.h: small pieces every form and dialog of the app is built from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void       dyno_widget_set_accessible_label (GtkWidget  *widget,
                                             const char *label);
GtkWidget *dyno_field_error_label_new       (void);
GtkWidget *dyno_heading_label_new           (const char *text);
GtkWidget *dyno_caption_label_new           (const char *text);

G_END_DECLS
