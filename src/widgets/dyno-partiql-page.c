/* dyno-partiql-page.c: one tab: a PartiQL statement, its parameters, and the items it reads
 *
 * The statement is checked by core's PartiQL parser before it is sent: a statement that does
 * not parse is marked where it goes wrong and never reaches the server.  A SELECT runs as a
 * DynoRun over ExecuteStatement, page by page with NextToken, into the same collection view
 * as a query; INSERT, UPDATE and DELETE run once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "dyno-collection-view.h"
#include "dyno-http-error.h"
#include "dyno-partiql.h"
#include "dyno-partiql-page.h"
#include "dyno-run.h"
#include "dyno-statement.h"
#include "dyno-widget-util.h"

#define ERROR_TAG "dyno-partiql-error"
/* ExecuteStatement's own bound on Statement */
#define MAX_STATEMENT_CHARS 8192

struct _DynoPartiqlPage
{
  GtkWidget           parent_instance;

  DynoBackend        *backend;
  DynoConnection     *connection;
  char               *table_name;
  DynoTableInfo      *info;
  char               *subtitle;
  DynoRun            *run;
  gboolean            run_is_select;

  /* template children */
  GtkWidget          *paned;
  GtkWidget          *source_view;
  GtkWidget          *statement_error_label;
  GtkWidget          *parameters_entry;
  GtkWidget          *parameters_error_label;
  GtkWidget          *consistent_check;
  GtkWidget          *limit_spin;
  GtkWidget          *run_button;
  GtkWidget          *stop_button;
  GtkWidget          *results_paned;
  GtkWidget          *results_stack;
  GtkWidget          *no_results_page;
  GtkWidget          *error_page;
  DynoCollectionView *collection;
  GtkWidget          *status_bar;
  GtkWidget          *spinner;
  GtkWidget          *status_label;
};

G_DEFINE_FINAL_TYPE (DynoPartiqlPage, dyno_partiql_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GtkTextBuffer *
buffer_of (DynoPartiqlPage *self)
{
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
}

static void
clear_statement_error (DynoPartiqlPage *self)
{
  GtkTextBuffer *buffer = buffer_of (self);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag_by_name (buffer, ERROR_TAG, &start, &end);
  dyno_field_error_show (self->statement_error_label, NULL);
}

/* @message under the editor; @loc (may be NULL) marks where, from its byte offset on. */
static void
show_statement_error (DynoPartiqlPage         *self,
                      const char              *message,
                      const char              *text,
                      const DynoParseLocation *loc)
{
  GtkTextBuffer *buffer = buffer_of (self);

  clear_statement_error (self);
  dyno_field_error_show (self->statement_error_label, message);
  if (loc != NULL && text != NULL && loc->offset <= strlen (text))
    {
      GtkTextIter start, end;
      glong from = g_utf8_pointer_to_offset (text, text + loc->offset);
      glong to = from + 1;

      if (loc->length > 0 && loc->offset + loc->length <= strlen (text))
        to = g_utf8_pointer_to_offset (text, text + loc->offset + loc->length);
      gtk_text_buffer_get_iter_at_offset (buffer, &start, (int) from);
      gtk_text_buffer_get_iter_at_offset (buffer, &end, (int) to);
      /* at the very end (a statement cut short): mark its last character */
      if (gtk_text_iter_equal (&start, &end) && !gtk_text_iter_is_start (&start))
        gtk_text_iter_backward_char (&start);
      gtk_text_buffer_apply_tag_by_name (buffer, ERROR_TAG, &start, &end);
      gtk_text_buffer_place_cursor (buffer, &start);
    }
}

static void
update_status (DynoPartiqlPage *self)
{
  gboolean loading = self->run != NULL && dyno_run_get_loading (self->run);
  gboolean has_more = self->run != NULL && dyno_run_get_has_more (self->run);
  g_autoptr(GString) status = g_string_new (NULL);

  if (self->run != NULL && dyno_run_get_n_pages (self->run) > 0)
    {
      guint n_items = dyno_run_get_n_items (self->run);
      guint n_pages = dyno_run_get_n_pages (self->run);
      double rcu = dyno_run_get_consumed_capacity (self->run);
      double wcu = dyno_run_get_write_capacity (self->run);

      if (self->run_is_select)
        {
          g_string_append_printf (status, g_dngettext (GETTEXT_PACKAGE, "%u item",
                                                       "%u items", n_items), n_items);
          g_string_append (status, " · ");
          g_string_append_printf (status, g_dngettext (GETTEXT_PACKAGE, "%u page", "%u pages",
                                                       n_pages), n_pages);
        }
      else
        g_string_append (status, _("Statement ran"));
      if (rcu >= 0)
        {
          g_string_append (status, " · ");
          g_string_append_printf (status, _("%g RCU"), rcu);
        }
      if (wcu >= 0)
        {
          g_string_append (status, " · ");
          g_string_append_printf (status, _("%g WCU"), wcu);
        }
      if (dyno_run_get_cancelled (self->run))
        {
          g_string_append (status, " · ");
          g_string_append (status, _("stopped"));
        }
      else if (has_more && !loading)
        {
          g_string_append (status, " · ");
          g_string_append (status, _("more to read (NextToken)"));
        }
    }
  else if (loading)
    g_string_append (status, _("Running…"));

  gtk_label_set_label (GTK_LABEL (self->status_label), status->str);
  gtk_widget_set_tooltip_text (self->status_bar, status->len > 0 ? status->str : NULL);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), loading);
  gtk_widget_set_visible (self->spinner, loading);
  gtk_widget_set_visible (self->stop_button, loading);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "partiql.stop", loading);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "partiql.load-more", has_more && !loading);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "partiql.load-all", has_more && !loading);
}

static void
show_error (DynoPartiqlPage *self,
            const GError    *error)
{
  const DynoServiceError *info = dyno_error_get_service_info (error);
  const char *message = info != NULL && info->message != NULL ? info->message : error->message;
  g_autofree char *description = NULL;

  adw_status_page_set_title (ADW_STATUS_PAGE (self->error_page),
                             info != NULL && info->type != NULL
                             ? info->type
                             : error->domain == DYNO_ERROR && error->code == DYNO_ERROR_NETWORK
                               ? _("Could not reach DynamoDB") : _("The request failed"));
  if (info != NULL && info->request_id != NULL)
    description = g_markup_printf_escaped ("%s\n\n<small>%s %s</small>", message,
                                           _("Request ID"), info->request_id);
  else
    description = g_markup_escape_text (message, -1);
  adw_status_page_set_description (ADW_STATUS_PAGE (self->error_page), description);
  gtk_stack_set_visible_child_name (GTK_STACK (self->results_stack), "error");

  /* what DynamoDB says is wrong with the statement goes where the statement is written */
  if (info != NULL && g_strcmp0 (info->type, "ValidationException") == 0)
    show_statement_error (self, message, NULL, NULL);
}

static void
update_results (DynoPartiqlPage *self)
{
  const GError *error = self->run != NULL ? dyno_run_get_error (self->run) : NULL;

  if (self->run == NULL)
    gtk_stack_set_visible_child_name (GTK_STACK (self->results_stack), "empty");
  else if (error != NULL)
    show_error (self, error);
  else if (dyno_run_get_n_items (self->run) > 0)
    gtk_stack_set_visible_child_name (GTK_STACK (self->results_stack), "results");
  else if (!dyno_run_get_loading (self->run) && dyno_run_get_n_pages (self->run) > 0)
    {
      if (self->run_is_select)
        {
          adw_status_page_set_title (ADW_STATUS_PAGE (self->no_results_page), _("No Results"));
          adw_status_page_set_description (ADW_STATUS_PAGE (self->no_results_page),
                                           _("No item matched the statement."));
        }
      else
        {
          adw_status_page_set_title (ADW_STATUS_PAGE (self->no_results_page),
                                     _("Statement Ran"));
          adw_status_page_set_description (ADW_STATUS_PAGE (self->no_results_page),
                                           _("INSERT, UPDATE and DELETE return no items. Run a "
                                             "SELECT to see the result."));
        }
      gtk_stack_set_visible_child_name (GTK_STACK (self->results_stack), "no-results");
    }
}

static void
run_notify_cb (DynoPartiqlPage *self)
{
  update_status (self);
  update_results (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
clear_run (DynoPartiqlPage *self)
{
  if (self->run != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->run, self);
      dyno_run_cancel (self->run);
      g_clear_object (&self->run);
    }
}

static char *
dup_text (DynoPartiqlPage *self)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer_of (self), &start, &end);
  return gtk_text_buffer_get_text (buffer_of (self), &start, &end, FALSE);
}

static gboolean
is_blank (const char *text)
{
  for (; *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

/* The statement as the page would send it, checked by the parser; NULL after showing what is
 * wrong next to the editor or the parameters.  @out_parsed (may be NULL) gets the parse. */
static DynoStatement *
dup_checked_statement (DynoPartiqlPage       *self,
                       DynoPartiqlStatement **out_parsed)
{
  g_autofree char *text = dup_text (self);
  const char *parameters_text = gtk_editable_get_text (GTK_EDITABLE (self->parameters_entry));
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) parameters = NULL;
  g_autoptr(DynoStatement) statement = NULL;
  g_autoptr(DynoPartiqlStatement) parsed = NULL;
  DynoParseLocation loc = { 0, };
  guint placeholders;

  clear_statement_error (self);
  dyno_field_error_show (self->parameters_error_label, NULL);

  if (is_blank (text))
    {
      show_statement_error (self, _("Write a statement first, e.g. SELECT * FROM \"table\""),
                            NULL, NULL);
      return NULL;
    }
  if (g_utf8_strlen (text, -1) > MAX_STATEMENT_CHARS)
    {
      g_autofree char *message = g_strdup_printf (
        _("The statement has %ld characters; DynamoDB takes at most %d"),
        g_utf8_strlen (text, -1), MAX_STATEMENT_CHARS);

      show_statement_error (self, message, NULL, NULL);
      return NULL;
    }

  parameters = dyno_statement_parse_parameters (parameters_text, &error);
  if (parameters == NULL)
    {
      dyno_field_error_show (self->parameters_error_label, error->message);
      return NULL;
    }

  statement = dyno_statement_new (text);
  placeholders = dyno_statement_count_placeholders (statement);
  if (placeholders != parameters->len)
    {
      g_autofree char *message = NULL;

      /* Translators: the first %u counts the statement's ? placeholders */
      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "The statement has %u ? placeholder and the "
                                              "parameters give %u value",
                                              "The statement has %u ? placeholders and the "
                                              "parameters give %u values",
                                              placeholders),
                                 placeholders, parameters->len);
      dyno_field_error_show (self->parameters_error_label, message);
      return NULL;
    }

  parsed = dyno_partiql_parse (text, parameters, &loc, &error);
  if (parsed == NULL)
    {
      show_statement_error (self, error->message, text,
                            g_error_matches (error, DYNO_ERROR, DYNO_ERROR_SYNTAX) ? &loc
                                                                                    : NULL);
      return NULL;
    }

  if (parameters->len > 0)
    statement->parameters = g_steal_pointer (&parameters);
  statement->consistent_read =
    gtk_check_button_get_active (GTK_CHECK_BUTTON (self->consistent_check))
    ? DYNO_TRISTATE_TRUE : DYNO_TRISTATE_UNSET;
  statement->limit = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->limit_spin));
  if (out_parsed != NULL)
    *out_parsed = g_steal_pointer (&parsed);
  return g_steal_pointer (&statement);
}

static void
run_activated (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  DynoPartiqlPage *self = DYNO_PARTIQL_PAGE (widget);
  g_autoptr(DynoPartiqlStatement) parsed = NULL;
  g_autoptr(DynoStatement) statement = dup_checked_statement (self, &parsed);

  if (statement == NULL || self->backend == NULL)
    return;

  clear_run (self);
  self->run_is_select = parsed->kind == DYNO_PARTIQL_SELECT;
  self->run = dyno_run_new_for_statement (self->backend, statement);
  g_signal_connect_swapped (self->run, "notify::loading", G_CALLBACK (run_notify_cb), self);
  g_signal_connect_swapped (self->run, "notify::error", G_CALLBACK (run_notify_cb), self);
  g_signal_connect_swapped (self->run, "notify::n-pages", G_CALLBACK (run_notify_cb), self);
  g_signal_connect_swapped (self->run, "notify::has-more", G_CALLBACK (run_notify_cb), self);
  g_signal_connect_swapped (self->run, "notify::cancelled", G_CALLBACK (run_notify_cb), self);
  dyno_collection_view_set_run (self->collection, self->run, self->info, parsed->index);
  dyno_run_start (self->run);
  run_notify_cb (self);
}

static void
stop_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  DynoPartiqlPage *self = DYNO_PARTIQL_PAGE (widget);

  if (self->run != NULL)
    dyno_run_cancel (self->run);
}

static void
load_more_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  DynoPartiqlPage *self = DYNO_PARTIQL_PAGE (widget);

  if (self->run != NULL)
    dyno_run_load_more (self->run);
}

static void
load_all_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  DynoPartiqlPage *self = DYNO_PARTIQL_PAGE (widget);

  if (self->run != NULL)
    dyno_run_load_all (self->run);
}

static void
open_builder_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  /* the window opens the tab: it knows where tabs go */
  gtk_widget_activate_action (widget, "win.open-builder", NULL);
}

static void
parameters_activate_cb (DynoPartiqlPage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "partiql.run", NULL);
}

static void
statement_changed_cb (DynoPartiqlPage *self)
{
  /* the mark belonged to the text as it was */
  clear_statement_error (self);
}

static void
dyno_partiql_page_dispose (GObject *object)
{
  DynoPartiqlPage *self = DYNO_PARTIQL_PAGE (object);

  clear_run (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYNO_TYPE_PARTIQL_PAGE);
  G_OBJECT_CLASS (dyno_partiql_page_parent_class)->dispose (object);
}

static void
dyno_partiql_page_finalize (GObject *object)
{
  DynoPartiqlPage *self = DYNO_PARTIQL_PAGE (object);

  g_clear_object (&self->backend);
  g_clear_object (&self->connection);
  g_clear_pointer (&self->info, dyno_table_info_unref);
  g_free (self->table_name);
  g_free (self->subtitle);
  G_OBJECT_CLASS (dyno_partiql_page_parent_class)->finalize (object);
}

static void
dyno_partiql_page_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DynoPartiqlPage *self = DYNO_PARTIQL_PAGE (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, dyno_partiql_page_get_loading (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_partiql_page_class_init (DynoPartiqlPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_partiql_page_dispose;
  object_class->finalize = dyno_partiql_page_finalize;
  object_class->get_property = dyno_partiql_page_get_property;

  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  g_type_ensure (DYNO_TYPE_COLLECTION_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-partiql-page.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, paned);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, source_view);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, statement_error_label);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, parameters_entry);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, parameters_error_label);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, consistent_check);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, limit_spin);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, run_button);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, stop_button);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, results_paned);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, results_stack);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, no_results_page);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, collection);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, status_bar);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, DynoPartiqlPage, status_label);

  gtk_widget_class_install_action (widget_class, "partiql.run", NULL, run_activated);
  gtk_widget_class_install_action (widget_class, "partiql.stop", NULL, stop_activated);
  gtk_widget_class_install_action (widget_class, "partiql.load-more", NULL, load_more_activated);
  gtk_widget_class_install_action (widget_class, "partiql.load-all", NULL, load_all_activated);
  gtk_widget_class_install_action (widget_class, "partiql.open-builder", NULL,
                                   open_builder_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "partiql.stop", NULL);
}

static void
dyno_partiql_page_init (DynoPartiqlPage *self)
{
  GtkSourceLanguageManager *languages;
  GtkSourceLanguage *sql;
  GtkShortcutController *shortcuts;
  GtkWidget *detail;

  gtk_source_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  languages = gtk_source_language_manager_get_default ();
  sql = gtk_source_language_manager_get_language (languages, "sql");
  if (sql != NULL)
    gtk_source_buffer_set_language (GTK_SOURCE_BUFFER (buffer_of (self)), sql);
  gtk_text_buffer_create_tag (buffer_of (self), ERROR_TAG,
                              "underline", PANGO_UNDERLINE_ERROR,
                              "background", "rgba(224,27,36,0.18)",
                              NULL);
  dyno_source_buffer_follow_style (GTK_SOURCE_BUFFER (buffer_of (self)));
  g_signal_connect_swapped (buffer_of (self), "changed", G_CALLBACK (statement_changed_cb),
                            self);

  dyno_field_error_add_field (self->statement_error_label, self->source_view);
  dyno_field_error_add_field (self->parameters_error_label, self->parameters_entry);
  dyno_widget_expose_activate (self->consistent_check);

  /* Ctrl+Enter runs, even from inside the editor (which would take it for a new line) */
  shortcuts = GTK_SHORTCUT_CONTROLLER (gtk_shortcut_controller_new ());
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (shortcuts),
                                              GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (
    shortcuts, gtk_shortcut_new (gtk_alternative_trigger_new (
                                   gtk_keyval_trigger_new (GDK_KEY_Return, GDK_CONTROL_MASK),
                                   gtk_keyval_trigger_new (GDK_KEY_KP_Enter, GDK_CONTROL_MASK)),
                                 gtk_named_action_new ("partiql.run")));
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (shortcuts));
  /* Enter in the parameters runs too */
  g_signal_connect_swapped (self->parameters_entry, "activate",
                            G_CALLBACK (parameters_activate_cb), self);

  /* the selected item, beside the results */
  detail = dyno_collection_view_get_detail_widget (self->collection);
  gtk_widget_set_size_request (detail, 260, -1);
  gtk_paned_set_end_child (GTK_PANED (self->results_paned), detail);

  update_status (self);
}

DynoPartiqlPage *
dyno_partiql_page_new (DynoBackend    *backend,
                       DynoConnection *connection,
                       const char     *table_name,
                       DynoTableInfo  *info)
{
  DynoPartiqlPage *self;
  g_autofree char *description = NULL;
  g_autoptr(GString) select = g_string_new ("SELECT * FROM \"");

  g_return_val_if_fail (table_name != NULL, NULL);

  self = g_object_new (DYNO_TYPE_PARTIQL_PAGE, NULL);
  self->backend = backend != NULL ? g_object_ref (backend) : NULL;
  self->connection = connection != NULL ? g_object_ref (connection) : NULL;
  self->table_name = g_strdup (table_name);
  self->info = info != NULL ? dyno_table_info_ref (info) : NULL;
  description = backend != NULL ? dyno_backend_dup_description (backend) : NULL;
  self->subtitle = description != NULL ? g_strdup_printf ("PartiQL · %s", description)
                                        : g_strdup ("PartiQL");

  /* a "name" doubles its quotes */
  for (const char *p = table_name; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (select, '"');
      g_string_append_c (select, *p);
    }
  g_string_append_c (select, '"');
  dyno_partiql_page_set_statement (self, select->str);
  return self;
}

DynoPartiqlPage *
dyno_partiql_page_duplicate (DynoPartiqlPage *self)
{
  DynoPartiqlPage *copy;
  g_autofree char *text = NULL;

  g_return_val_if_fail (DYNO_IS_PARTIQL_PAGE (self), NULL);

  copy = dyno_partiql_page_new (self->backend, self->connection, self->table_name, self->info);
  text = dup_text (self);
  dyno_partiql_page_set_statement (copy, text);
  gtk_editable_set_text (GTK_EDITABLE (copy->parameters_entry),
                         gtk_editable_get_text (GTK_EDITABLE (self->parameters_entry)));
  dyno_partiql_page_set_options (
    copy, gtk_check_button_get_active (GTK_CHECK_BUTTON (self->consistent_check)),
    gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->limit_spin)));
  return copy;
}

void
dyno_partiql_page_set_statement (DynoPartiqlPage *self,
                                 const char      *statement)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_if_fail (DYNO_IS_PARTIQL_PAGE (self));

  buffer = buffer_of (self);
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_delete (buffer, &start, &end);
  gtk_text_buffer_insert (buffer, &start, statement != NULL ? statement : "", -1);
  gtk_text_buffer_end_user_action (buffer);
}

char *
dyno_partiql_page_dup_statement (DynoPartiqlPage *self)
{
  g_return_val_if_fail (DYNO_IS_PARTIQL_PAGE (self), NULL);
  return dup_text (self);
}

void
dyno_partiql_page_set_options (DynoPartiqlPage *self,
                               gboolean         consistent,
                               gint64           limit)
{
  g_return_if_fail (DYNO_IS_PARTIQL_PAGE (self));

  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->consistent_check), consistent);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->limit_spin), (double) MAX (limit, 0));
}

DynoQueryDraft *
dyno_partiql_page_dup_draft (DynoPartiqlPage *self)
{
  g_autoptr(DynoStatement) statement = NULL;
  g_autoptr(DynoQueryDraft) draft = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (DYNO_IS_PARTIQL_PAGE (self), NULL);

  statement = dup_checked_statement (self, NULL);
  if (statement == NULL)
    return NULL;
  text = dup_text (self);
  draft = dyno_query_draft_new ();
  if (self->info != NULL)
    dyno_query_draft_set_table_info (draft, self->info);
  if (!dyno_query_draft_load_partiql (draft, text, statement->parameters, &error))
    {
      show_statement_error (self, error->message, NULL, NULL);
      return NULL;
    }
  if (statement->limit > 0)
    dyno_query_draft_set_limit (draft, statement->limit);
  if (statement->consistent_read == DYNO_TRISTATE_TRUE)
    dyno_query_draft_set_consistent_read (draft, DYNO_TRISTATE_TRUE);
  return g_steal_pointer (&draft);
}

DynoBackend *
dyno_partiql_page_get_backend (DynoPartiqlPage *self)
{
  g_return_val_if_fail (DYNO_IS_PARTIQL_PAGE (self), NULL);
  return self->backend;
}

DynoConnection *
dyno_partiql_page_get_connection (DynoPartiqlPage *self)
{
  g_return_val_if_fail (DYNO_IS_PARTIQL_PAGE (self), NULL);
  return self->connection;
}

const char *
dyno_partiql_page_get_table_name (DynoPartiqlPage *self)
{
  g_return_val_if_fail (DYNO_IS_PARTIQL_PAGE (self), NULL);
  return self->table_name;
}

DynoTableInfo *
dyno_partiql_page_get_table_info (DynoPartiqlPage *self)
{
  g_return_val_if_fail (DYNO_IS_PARTIQL_PAGE (self), NULL);
  return self->info;
}

const char *
dyno_partiql_page_get_subtitle (DynoPartiqlPage *self)
{
  g_return_val_if_fail (DYNO_IS_PARTIQL_PAGE (self), NULL);
  return self->subtitle;
}

gboolean
dyno_partiql_page_get_loading (DynoPartiqlPage *self)
{
  g_return_val_if_fail (DYNO_IS_PARTIQL_PAGE (self), FALSE);
  return self->run != NULL && dyno_run_get_loading (self->run);
}

void
dyno_partiql_page_focus_editor (DynoPartiqlPage *self)
{
  g_return_if_fail (DYNO_IS_PARTIQL_PAGE (self));
  gtk_widget_grab_focus (self->source_view);
}
