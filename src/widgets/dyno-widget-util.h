/* dyno-widget-util.h: small pieces every form and dialog of the app is built from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

/* Gives @widget an "activate" action of its own ("a11y.activate", which does what Space or
 * Enter does on it), so that assistive technologies, which list a widget's own actions, can
 * use widgets GTK exposes without one (check buttons, in GTK 4.8). */
void       dyno_widget_expose_activate      (GtkWidget  *widget);
void       dyno_widget_set_accessible_label (GtkWidget  *widget,
                                             const char *label);
GtkWidget *dyno_field_error_label_new       (void);
/* The field (an entry, a switch, …) whose problem @label tells; a label may speak for
 * several.  Fields are held weakly. */
void       dyno_field_error_add_field       (GtkWidget  *label,
                                             GtkWidget  *field);
/* Shows @message under its fields, or hides the label for NULL or "".  Each field of the
 * label gets the "error" style, the invalid state and the message as its accessible
 * description, so a screen reader says the problem with the field; all three are cleared
 * with the message. */
void       dyno_field_error_show            (GtkWidget  *label,
                                             const char *message);
GtkWidget *dyno_heading_label_new           (const char *text);
GtkWidget *dyno_caption_label_new           (const char *text);
/* A label that wraps, aligned to the start. */
GtkWidget *dyno_wrapping_label_new          (const char *text);

/* Async callbacks of a window hold only a weak reference to it: closing the window drops its
 * last reference, and its dispose cancels what it was running.  _steal() returns a strong
 * reference (or NULL when the object is gone) and frees @weak. */
GWeakRef  *dyno_weak_ref_new                (gpointer    object);
gpointer   dyno_weak_ref_steal              (GWeakRef   *weak);

/* Gives @buffer the Adwaita style scheme of the app's light or dark style, now and whenever
 * the style changes, for as long as the buffer lives. */
void       dyno_source_buffer_follow_style  (GtkSourceBuffer *buffer);

G_END_DECLS
