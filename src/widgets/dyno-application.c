/* dyno-application.c: the application, its command line and its app-wide actions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "dyno-application.h"
#include "dyno-credentials.h"
#include "dyno-endpoints.h"
#include "dyno-mfa-dialog.h"
#include "dyno-window.h"

struct _DynoApplication
{
  AdwApplication       parent_instance;

  DynoConnectionStore *store;
  DynoQueryStore      *queries;
  char                *queries_error;  /* why the saved queries could not be read */
};

G_DEFINE_FINAL_TYPE (DynoApplication, dyno_application, ADW_TYPE_APPLICATION)

static DynoWindow *
get_or_create_window (DynoApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (dyno_window_new (self));

  return DYNO_WINDOW (window);
}

/* DYNOTABLE_BENCH_FIRST_FRAME=1 (tests/bench/bench-startup.py): when the window's first frame
 * is painted, print the monotonic clock and quit, so start-up can be timed from outside. */
static void
first_frame_cb (GdkFrameClock *clock,
                GtkWindow     *window)
{
  g_signal_handlers_disconnect_by_func (clock, first_frame_cb, window);
  g_print ("first_frame_monotonic_us %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  g_application_quit (g_application_get_default ());
}

static void
present (DynoWindow *window)
{
  gtk_window_present (GTK_WINDOW (window));
  if (g_strcmp0 (g_getenv ("DYNOTABLE_BENCH_FIRST_FRAME"), "1") == 0)
    g_signal_connect_object (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                             G_CALLBACK (first_frame_cb), window, 0);
}

static void
dyno_application_activate (GApplication *app)
{
  present (get_or_create_window (DYNO_APPLICATION (app)));
}

static int
dyno_application_command_line (GApplication            *app,
                               GApplicationCommandLine *cmdline)
{
  DynoApplication *self = DYNO_APPLICATION (app);
  GVariantDict *options = g_application_command_line_get_options_dict (cmdline);
  const char *endpoint_url = NULL;
  const char *region = NULL;
  const char *profile = NULL;
  const char *table = NULL;
  g_auto(GStrv) env = NULL;
  g_autoptr(GError) error = NULL;
  DynoWindow *window;

  g_variant_dict_lookup (options, "endpoint-url", "&s", &endpoint_url);
  g_variant_dict_lookup (options, "region", "&s", &region);
  g_variant_dict_lookup (options, "profile", "&s", &profile);
  g_variant_dict_lookup (options, "table", "&s", &table);

  /* Mistakes on the command line are answered there, before a window or a request. */
  env = g_strdupv ((char **) g_application_command_line_get_environ (cmdline));
  if (endpoint_url != NULL && !dyno_endpoint_validate_url (endpoint_url, &error))
    {
      g_application_command_line_printerr (cmdline, "dynotable: --endpoint-url: %s\n",
                                           error->message);
      return 2;
    }
  if (region != NULL && !dyno_endpoint_region_is_valid (region))
    {
      g_autofree char *message =
        g_strdup_printf (_("“%s” is not an AWS region name (like eu-west-1)"), region);

      g_application_command_line_printerr (cmdline, "dynotable: --region: %s\n", message);
      return 2;
    }
  if (profile != NULL && !dyno_aws_check_profile (env, profile, "--profile", &error))
    {
      g_application_command_line_printerr (cmdline, "dynotable: %s\n", error->message);
      return 2;
    }

  window = get_or_create_window (self);

  if (endpoint_url != NULL || region != NULL || profile != NULL)
    {
      g_autoptr(DynoConnection) connection = NULL;

      if (endpoint_url != NULL)
        {
          /* Signed as the AWS CLI would sign with the same arguments and environment: the
           * profile, else the default credentials (dyno_resolve_config). */
          connection = dyno_connection_new (DYNO_CONNECTION_LOCAL);
          dyno_connection_set_endpoint_url (connection, endpoint_url);
          dyno_connection_set_sign_as (connection, profile != NULL ? DYNO_SIGN_AS_PROFILE
                                                                   : DYNO_SIGN_AS_DEFAULT);
        }
      else if (profile != NULL)
        {
          connection = dyno_connection_new (DYNO_CONNECTION_PROFILE);
          dyno_connection_set_profile (connection, profile);
        }
      else
        {
          connection = dyno_connection_new (DYNO_CONNECTION_REGION);
        }

      if (region != NULL)
        dyno_connection_set_region (connection, region);
      if (profile != NULL)
        dyno_connection_set_profile (connection, profile);
      /* The credentials and region of the shell that ran the command, as the AWS CLI would
       * see them, even when another instance of the app was already running. */
      dyno_connection_set_environ (connection, env);

      /* A connection from the command line is for this run only: it is not saved. */
      dyno_window_open_connection (window, connection, table);
    }

  present (window);

  return 0;
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  static const char *developers[] = { "The DynoTable developers", NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", gtk_application_get_active_window (app),
                        "application-name", "DynoTable",
                        "application-icon", APP_ID,
                        "developer-name", "The DynoTable developers",
                        "version", PACKAGE_VERSION,
                        "developers", developers,
                        "copyright", "© 2026 The DynoTable developers",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "comments",
                        _("Design DynamoDB key schemas and build, run and copy queries"),
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated },
  { "about", about_activated },
};

static void
dyno_application_startup (GApplication *app)
{
  DynoApplication *self = DYNO_APPLICATION (app);
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *run_accels[] = { "<Control>Return", NULL };
  static const char *search_accels[] = { "<Control>f", NULL };
  static const char *new_tab_accels[] = { "<Control>t", NULL };
  static const char *close_tab_accels[] = { "<Control>w", NULL };
  static const char *copy_code_accels[] = { "<Control><Shift>c", NULL };
  static const char *shortcuts_accels[] = { "<Control>question", NULL };
  static const char *partiql_accels[] = { "<Control><Shift>p", NULL };
  g_autoptr(GError) error = NULL;

  G_APPLICATION_CLASS (dyno_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "query.run", run_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.search-tables",
                                         search_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.new-tab", new_tab_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.close-tab",
                                         close_tab_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "query.copy-code",
                                         copy_code_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay",
                                         shortcuts_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.open-partiql",
                                         partiql_accels);

  dyno_mfa_dialog_install (GTK_APPLICATION (app));

  if (!dyno_connection_store_load (self->store, &error))
    g_warning ("Could not read the saved connections: %s", error->message);
  g_clear_error (&error);
  /* the built-in engine: there to try things with no server at all */
  dyno_connection_store_ensure_playground (self->store);

  if (!dyno_query_store_load (self->queries, &error))
    {
      g_warning ("%s", error->message);
      self->queries_error = g_strdup (error->message);
    }
}

static void
dyno_application_dispose (GObject *object)
{
  DynoApplication *self = DYNO_APPLICATION (object);

  g_clear_object (&self->store);
  g_clear_object (&self->queries);
  g_clear_pointer (&self->queries_error, g_free);

  G_OBJECT_CLASS (dyno_application_parent_class)->dispose (object);
}

static void
dyno_application_class_init (DynoApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = dyno_application_dispose;

  app_class->activate = dyno_application_activate;
  app_class->startup = dyno_application_startup;
  app_class->command_line = dyno_application_command_line;
}

static void
dyno_application_init (DynoApplication *self)
{
  static const GOptionEntry entries[] = {
    { "endpoint-url", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Open a connection to this endpoint (DynamoDB Local)"), N_("URL") },
    { "region", 0, 0, G_OPTION_ARG_STRING, NULL, N_("AWS region"), N_("REGION") },
    { "profile", 0, 0, G_OPTION_ARG_STRING, NULL, N_("AWS profile"), N_("PROFILE") },
    { "table", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Open this table"), N_("TABLE") },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  self->store = dyno_connection_store_new (NULL);
  self->queries = dyno_query_store_new (NULL);
}

DynoApplication *
dyno_application_new (void)
{
  return g_object_new (DYNO_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE | G_APPLICATION_NON_UNIQUE,
                       "resource-base-path", "/com/dynotable/DynoTable",
                       NULL);
}

DynoConnectionStore *
dyno_application_get_connection_store (DynoApplication *self)
{
  g_return_val_if_fail (DYNO_IS_APPLICATION (self), NULL);

  return self->store;
}

DynoQueryStore *
dyno_application_get_query_store (DynoApplication *self)
{
  g_return_val_if_fail (DYNO_IS_APPLICATION (self), NULL);

  return self->queries;
}

const char *
dyno_application_get_query_store_error (DynoApplication *self)
{
  g_return_val_if_fail (DYNO_IS_APPLICATION (self), NULL);

  return self->queries_error;
}
