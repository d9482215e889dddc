/* dyno-cli-session.c: the connection and loop a dynotable-cli command shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include "dyno-cli-session.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib-unix.h>

#include "dyno-cli-io.h"
#include "dyno-cli-request.h"
#include "dyno-http-backend.h"

const char * const dyno_cli_global_options[3] = { "--endpoint-url", "--region", "--profile" };

void
dyno_cli_session_clear (DynoCliSession *s)
{
  for (guint i = 0; i < G_N_ELEMENTS (s->signal_ids); i++)
    if (s->signal_ids[i] != 0)
      g_source_remove (s->signal_ids[i]);
  g_free (s->settings.profile);
  g_free (s->settings.region);
  g_free (s->settings.endpoint_url);
  g_clear_object (&s->backend);
  g_clear_pointer (&s->loop, g_main_loop_unref);
  g_clear_object (&s->cancellable);
  g_clear_pointer (&s->schema, dyno_table_info_unref);
}

void
dyno_cli_session_report (DynoCliSession *s,
                         const char     *context,
                         const char     *message)
{
  dyno_cli_report (s->command, context, message);
}

static gboolean
interrupted_cb (gpointer user_data)
{
  DynoCliSession *s = user_data;

  /* A second Ctrl+C while finishing up: exit at once (output goes out in whole lines). */
  if (s->interrupted)
    {
      g_printerr ("%s: interrupted again, exiting\n", s->command);
      _exit (130);
    }
  s->interrupted = TRUE;
  g_printerr ("%s: cancelling…\n", s->command);
  g_cancellable_cancel (s->cancellable);
  return G_SOURCE_CONTINUE;
}

/* Global options and the command's own; returns FALSE (status set) on a usage error or
 * --help. */
gboolean
dyno_cli_session_parse (DynoCliSession  *s,
                        int              argc,
                        char           **argv,
                        GOptionEntry    *entries,
                        const char      *parameter,
                        const char      *summary)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = NULL;
  int i;

  for (i = 1; i < argc; i++)
    {
      char **targets[] = { &s->settings.endpoint_url, &s->settings.region,
                           &s->settings.profile };
      gboolean taken = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (dyno_cli_global_options) && !taken; k++)
        {
          gsize len = strlen (dyno_cli_global_options[k]);

          if (strncmp (argv[i], dyno_cli_global_options[k], len) != 0)
            continue;
          if (argv[i][len] == '=')
            {
              g_free (*targets[k]);
              *targets[k] = g_strdup (argv[i] + len + 1);
              taken = TRUE;
            }
          else if (argv[i][len] == '\0' && i + 1 < argc)
            {
              g_free (*targets[k]);
              *targets[k] = g_strdup (argv[++i]);
              taken = TRUE;
            }
        }
      if (!taken)
        break;
    }

  /* argv[i] is the command */
  context = g_option_context_new (parameter);
  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, NULL);
  prgname = g_strdup_printf ("dynotable-cli %s", s->command);
  g_set_prgname (prgname);

  {
    int sub_argc = argc - i;
    char **sub_argv = argv + i;

    if (!g_option_context_parse (context, &sub_argc, &sub_argv, &error))
      {
        g_autofree char *message = g_strdup_printf ("%s (see 'dynotable-cli %s --help')",
                                                    error->message, s->command);
        dyno_cli_session_report (s, NULL, message);
        s->status = EXIT_USAGE;
        return FALSE;
      }
  }

  return TRUE;
}

gboolean
dyno_cli_session_connect (DynoCliSession *s)
{
  g_autoptr(GError) error = NULL;

  /* a command may have set its own backend (patterns check --workspace) */
  if (s->backend == NULL)
    s->backend = dyno_cli_connect (&s->settings, NULL, &error);
  if (s->backend == NULL)
    {
      dyno_cli_session_report (s, NULL, error->message);
      s->status = EXIT_USAGE;
      return FALSE;
    }

  s->loop = g_main_loop_new (NULL, FALSE);
  s->cancellable = g_cancellable_new ();
  s->signal_ids[0] = g_unix_signal_add (SIGINT, interrupted_cb, s);
  s->signal_ids[1] = g_unix_signal_add (SIGTERM, interrupted_cb, s);
  return TRUE;
}

static void
session_described_cb (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  DynoCliSession *s = user_data;
  g_autoptr(GError) error = NULL;

  s->schema = dyno_backend_describe_table_finish (DYNO_BACKEND (source), result, &error);
  if (s->schema == NULL)
    {
      dyno_cli_report_service_error (s->command, error);
      s->status = EXIT_FAILURE_RUN;
    }
  g_main_loop_quit (s->loop);
}

/* DescribeTable, synchronously on the session's loop. */
gboolean
dyno_cli_session_describe (DynoCliSession *s,
                           const char     *table)
{
  dyno_backend_describe_table_async (s->backend, table, s->cancellable, session_described_cb, s);
  g_main_loop_run (s->loop);
  return s->schema != NULL;
}
