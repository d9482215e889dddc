/* dyno-code-view.c: the request as expressions and as code for 15 targets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>
#include <gtksourceview/gtksource.h>

#include "dyno-code-view.h"
#include "dyno-codegen.h"
#include "dyno-json.h"
#include "dyno-widget-util.h"

typedef struct {
  const char *field;
  GtkWidget  *label;
  GtkWidget  *box;
  GtkWidget  *copy;
} ExpressionPart;

enum {
  PART_KEY_CONDITION,
  PART_FILTER,
  PART_PROJECTION,
  PART_CONDITION,
  PART_UPDATE,
  PART_NAMES,
  PART_VALUES,
  N_PARTS
};

struct _DynoCodeView
{
  GtkWidget       parent_instance;

  GSettings      *settings;
  DynoRequest    *request;
  char           *endpoint_url;
  char           *region;
  char           *code;
  char           *refused;      /* why validation refuses the request, or NULL */
  ExpressionPart  parts[N_PARTS];

  GtkWidget      *box;             /* the template's child: bound so dispose unparents it */
  GtkWidget      *parts_box;
  GtkWidget      *format_dropdown;
  GtkWidget      *program_switch;
  GtkWidget      *copy_button;
  GtkWidget      *source_view;
  GtkWidget      *message_label;
  GtkWidget      *refused_banner;
};

G_DEFINE_FINAL_TYPE (DynoCodeView, dyno_code_view, GTK_TYPE_WIDGET)

static const char *
selected_target (DynoCodeView *self)
{
  const char * const *targets = dyno_codegen_list_targets ();
  guint pos = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->format_dropdown));
  guint n = g_strv_length ((char **) targets);

  return pos < n ? targets[pos] : targets[0];
}

static void
set_part (DynoCodeView *self,
          guint         part,
          const char   *text)
{
  gtk_widget_set_visible (self->parts[part].box, text != NULL);
  gtk_label_set_label (GTK_LABEL (self->parts[part].label), text ? text : "");
}

static void
update_parts (DynoCodeView *self)
{
  g_autoptr(DynoPrintedRequest) printed = NULL;

  if (self->request == NULL)
    return;

  printed = dyno_request_print (self->request);
  set_part (self, PART_KEY_CONDITION, printed->key_condition);
  set_part (self, PART_FILTER, printed->filter);
  set_part (self, PART_PROJECTION, printed->projection);
  set_part (self, PART_CONDITION, printed->condition);
  set_part (self, PART_UPDATE, printed->update);

  if (printed->names->len > 0)
    {
      g_autoptr(GString) json = g_string_new ("{");

      for (guint i = 0; i < printed->names->len; i++)
        {
          if (i > 0)
            g_string_append (json, ", ");
          dyno_json_write_string (json, g_ptr_array_index (printed->name_placeholders, i), -1);
          g_string_append (json, ": ");
          dyno_json_write_string (json, g_ptr_array_index (printed->names, i), -1);
        }
      g_string_append_c (json, '}');
      set_part (self, PART_NAMES, json->str);
    }
  else
    {
      set_part (self, PART_NAMES, NULL);
    }

  if (printed->values->len > 0)
    {
      g_autoptr(GString) json = g_string_new ("{");

      for (guint i = 0; i < printed->values->len; i++)
        {
          if (i > 0)
            g_string_append (json, ", ");
          dyno_json_write_string (json, g_ptr_array_index (printed->value_placeholders, i), -1);
          g_string_append (json, ": ");
          dyno_value_write_ddb_json (g_ptr_array_index (printed->values, i), json);
        }
      g_string_append_c (json, '}');
      set_part (self, PART_VALUES, json->str);
    }
  else
    {
      set_part (self, PART_VALUES, NULL);
    }
}

/* A refused request is marked, dimmed and cannot be copied: it is not working code. */
static void
apply_refusal (DynoCodeView *self)
{
  /* nothing shown yet: nothing to mark */
  gboolean refused = self->refused != NULL && self->request != NULL;

  if (refused)
    {
      /* Translators: the reason validation gives. */
      g_autofree char *text = g_strdup_printf (_("Refused: %s DynamoDB would reject this "
                                                 "request; it is shown for reference only."),
                                               self->refused);

      gtk_label_set_label (GTK_LABEL (self->refused_banner), text);
    }
  else
    gtk_label_set_label (GTK_LABEL (self->refused_banner), "");
  gtk_widget_set_visible (self->refused_banner, refused);
  gtk_widget_set_opacity (self->source_view, self->request && !refused ? 1.0 : 0.5);
  gtk_widget_set_sensitive (self->copy_button, self->code != NULL && !refused);
  gtk_widget_set_tooltip_text (self->copy_button,
                               refused ? _("The request is refused: nothing to copy")
                                       : _("Copy Code (Ctrl+Shift+C)"));
  for (guint i = 0; i < N_PARTS; i++)
    gtk_widget_set_sensitive (self->parts[i].copy, !refused);
}

static void
update_code (DynoCodeView *self)
{
  const char *target = selected_target (self);
  GtkTextView *view = GTK_TEXT_VIEW (self->source_view);
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (view));
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceLanguage *language;
  DynoCodegenOptions options = { 0, };
  g_autoptr(GError) error = NULL;
  g_autofree char *code = NULL;

  language = gtk_source_language_manager_get_language (languages,
                                                       dyno_codegen_get_language (target));
  gtk_source_buffer_set_language (buffer, language);

  if (self->request == NULL)
    {
      apply_refusal (self);
      return;
    }

  options.program = gtk_switch_get_active (GTK_SWITCH (self->program_switch));
  options.endpoint_url = self->endpoint_url;
  options.region = self->region;

  code = dyno_codegen_emit (self->request, target, &options, &error);
  if (code == NULL)
    {
      /* e.g. "not expressible in PartiQL: …": said plainly where the code would be */
      gtk_label_set_label (GTK_LABEL (self->message_label), error->message);
      gtk_widget_set_visible (self->message_label, TRUE);
      gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), "", -1);
      g_clear_pointer (&self->code, g_free);
      apply_refusal (self);
      return;
    }

  gtk_widget_set_visible (self->message_label, FALSE);
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), code, -1);
  g_free (self->code);
  self->code = g_steal_pointer (&code);
  apply_refusal (self);
}

static void
format_changed_cb (DynoCodeView *self)
{
  g_settings_set_string (self->settings, "code-format", selected_target (self));
  update_code (self);
}

static void
copy_clicked_cb (DynoCodeView *self)
{
  dyno_code_view_copy (self);
}

static void
copy_part_clicked_cb (GtkButton *button,
                      GtkLabel  *label)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (button)),
                          gtk_label_get_label (label));
}

static void
build_ui (DynoCodeView *self)
{
  static const char *fields[N_PARTS] = {
    "KeyConditionExpression", "FilterExpression", "ProjectionExpression",
    "ConditionExpression", "UpdateExpression", "ExpressionAttributeNames",
    "ExpressionAttributeValues",
  };
  const char * const *targets = dyno_codegen_list_targets ();
  GtkStringList *labels = gtk_string_list_new (NULL);

  /* one row per part of the request, shown when the request has it */
  for (guint i = 0; i < N_PARTS; i++)
    {
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *name = gtk_label_new (fields[i]);
      GtkWidget *value = gtk_label_new (NULL);
      GtkWidget *copy = gtk_button_new_from_icon_name ("edit-copy-symbolic");
      g_autofree char *copy_name = g_strdup_printf (_("Copy %s"), fields[i]);

      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_widget_add_css_class (name, "dim-label");
      gtk_widget_add_css_class (name, "caption");
      gtk_label_set_xalign (GTK_LABEL (value), 0);
      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      gtk_label_set_wrap (GTK_LABEL (value), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
      gtk_widget_set_hexpand (value, TRUE);
      gtk_widget_add_css_class (value, "monospace");
      gtk_accessible_update_property (GTK_ACCESSIBLE (value),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, fields[i], -1);
      gtk_widget_add_css_class (copy, "flat");
      gtk_widget_set_valign (copy, GTK_ALIGN_START);
      gtk_widget_set_tooltip_text (copy, copy_name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (copy),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, copy_name, -1);
      g_signal_connect (copy, "clicked", G_CALLBACK (copy_part_clicked_cb), value);

      gtk_box_append (GTK_BOX (row), gtk_box_new (GTK_ORIENTATION_VERTICAL, 0));
      {
        GtkWidget *col = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
        gtk_widget_set_hexpand (col, TRUE);
        gtk_box_append (GTK_BOX (col), name);
        gtk_box_append (GTK_BOX (col), value);
        gtk_box_append (GTK_BOX (row), col);
      }
      gtk_box_append (GTK_BOX (row), copy);
      gtk_widget_set_visible (row, FALSE);

      self->parts[i].field = fields[i];
      self->parts[i].label = value;
      self->parts[i].box = row;
      self->parts[i].copy = copy;
      gtk_box_append (GTK_BOX (self->parts_box), row);
    }

  for (guint i = 0; targets[i] != NULL; i++)
    gtk_string_list_append (labels, dyno_codegen_get_label (targets[i]));
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->format_dropdown), G_LIST_MODEL (labels));
  g_object_unref (labels);
  dyno_widget_expose_activate (self->format_dropdown);

  dyno_source_buffer_follow_style (
    GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view))));
}

static void
dyno_code_view_dispose (GObject *object)
{
  DynoCodeView *self = DYNO_CODE_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), DYNO_TYPE_CODE_VIEW);

  G_OBJECT_CLASS (dyno_code_view_parent_class)->dispose (object);
}

static void
dyno_code_view_finalize (GObject *object)
{
  DynoCodeView *self = DYNO_CODE_VIEW (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->request, dyno_request_free);
  g_clear_pointer (&self->endpoint_url, g_free);
  g_clear_pointer (&self->region, g_free);
  g_clear_pointer (&self->code, g_free);
  g_clear_pointer (&self->refused, g_free);

  G_OBJECT_CLASS (dyno_code_view_parent_class)->finalize (object);
}

static void
dyno_code_view_class_init (DynoCodeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_code_view_dispose;
  object_class->finalize = dyno_code_view_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-code-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoCodeView, box);
  gtk_widget_class_bind_template_child (widget_class, DynoCodeView, refused_banner);
  gtk_widget_class_bind_template_child (widget_class, DynoCodeView, parts_box);
  gtk_widget_class_bind_template_child (widget_class, DynoCodeView, format_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynoCodeView, program_switch);
  gtk_widget_class_bind_template_child (widget_class, DynoCodeView, copy_button);
  gtk_widget_class_bind_template_child (widget_class, DynoCodeView, message_label);
  gtk_widget_class_bind_template_child (widget_class, DynoCodeView, source_view);
  gtk_widget_class_bind_template_callback (widget_class, copy_clicked_cb);
}

static void
dyno_code_view_init (DynoCodeView *self)
{
  const char * const *targets = dyno_codegen_list_targets ();
  g_autofree char *saved = NULL;

  gtk_source_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
  build_ui (self);

  self->settings = g_settings_new (APP_ID);
  saved = g_settings_get_string (self->settings, "code-format");
  for (guint i = 0; targets[i] != NULL; i++)
    if (g_str_equal (targets[i], saved))
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->format_dropdown), i);
  g_settings_bind (self->settings, "code-full-program", self->program_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);

  g_signal_connect_swapped (self->format_dropdown, "notify::selected",
                            G_CALLBACK (format_changed_cb), self);
  g_signal_connect_swapped (self->program_switch, "notify::active", G_CALLBACK (update_code), self);
}

GtkWidget *
dyno_code_view_new (void)
{
  return g_object_new (DYNO_TYPE_CODE_VIEW, NULL);
}

void
dyno_code_view_set_request (DynoCodeView      *self,
                            const DynoRequest *request,
                            const char        *endpoint_url,
                            const char        *region)
{
  g_return_if_fail (DYNO_IS_CODE_VIEW (self));

  if (request != NULL)
    {
      g_clear_pointer (&self->request, dyno_request_free);
      self->request = dyno_request_copy (request);
      g_free (self->endpoint_url);
      self->endpoint_url = g_strdup (endpoint_url);
      g_free (self->region);
      self->region = g_strdup (region);
      update_parts (self);
      update_code (self);
    }
  else
    {
      gtk_widget_set_opacity (self->source_view, 0.5);
    }
}

void
dyno_code_view_set_refused (DynoCodeView *self,
                            const char   *reason)
{
  g_return_if_fail (DYNO_IS_CODE_VIEW (self));

  if (reason != NULL && *reason == '\0')
    reason = NULL;
  if (g_strcmp0 (self->refused, reason) != 0)
    {
      g_free (self->refused);
      self->refused = g_strdup (reason);
    }
  apply_refusal (self);
}

const char *
dyno_code_view_get_code (DynoCodeView *self)
{
  g_return_val_if_fail (DYNO_IS_CODE_VIEW (self), NULL);
  return self->refused != NULL && self->request != NULL ? NULL : self->code;
}

void
dyno_code_view_copy (DynoCodeView *self)
{
  g_return_if_fail (DYNO_IS_CODE_VIEW (self));

  if (self->code != NULL && self->refused == NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->code);
}
