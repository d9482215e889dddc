/* dyno-cli-serve.c: `dynotable-cli serve`, the embedded engine behind DynamoDB's HTTP protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-cli.h"

#include <glib-unix.h>
#include <glib/gi18n-lib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyno-cli-io.h"
#include "dyno-engine-backend.h"

#define EXIT_OK          0
#define EXIT_FAILURE_RUN 1
#define EXIT_USAGE       2


static void
print_serve_usage (FILE *out)
{
  fputs (_("Usage: dynotable-cli serve [--data FILE] [--port N] [--host ADDRESS]\n"
           "\n"
           "Serves DynamoDB's API from the embedded engine, for the AWS CLI, the SDKs and\n"
           "DynoTable itself (any signature and any key are accepted, as DynamoDB Local does).\n"
           "\n"
           "  --data FILE     keep the tables in FILE (a SQLite workspace, created if missing);\n"
           "                  without it the tables live in memory until the server stops\n"
           "  --port N        TCP port (default 8000; 0 picks a free one)\n"
           "  --host ADDRESS  address to listen on (default 127.0.0.1); there is no\n"
           "                  authentication, so anything but a loopback address is open to\n"
           "                  whoever can reach it\n"
           "\n"
           "The first line on standard output is \"listening on http://HOST:PORT\".  SIGTERM or\n"
           "SIGINT stops the server cleanly.\n"), out);
}

static gboolean
on_signal (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_CONTINUE;
}

static gboolean
take_value (int          argc,
            char       **argv,
            int         *i,
            const char  *option,
            const char **out)
{
  gsize len = strlen (option);

  if (strcmp (argv[*i], option) == 0)
    {
      if (*i + 1 >= argc)
        {
          g_autofree char *message = g_strdup_printf (_("%s needs a value"), option);

          dyno_cli_print_error ("serve", message);
          *out = NULL;
          return TRUE;
        }
      *out = argv[++*i];
      return TRUE;
    }
  if (strncmp (argv[*i], option, len) == 0 && argv[*i][len] == '=')
    {
      *out = argv[*i] + len + 1;
      return TRUE;
    }
  return FALSE;
}

int
dyno_cli_serve (int    argc,
                char **argv)
{
  const char *data = NULL, *port_text = "8000", *host = "127.0.0.1";
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) address = NULL;
  g_autoptr(DynoEngineBackend) backend = NULL;
  GMainLoop *loop;
  guint64 port;
  guint sigterm, sigint;
  int i;

  for (i = 1; i < argc && strcmp (argv[i], "serve") != 0; i++)
    ;
  for (i = i + 1; i < argc; i++)
    {
      const char *value = NULL;

      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
        {
          print_serve_usage (stdout);
          return EXIT_OK;
        }
      if (take_value (argc, argv, &i, "--data", &value))
        data = value;
      else if (take_value (argc, argv, &i, "--port", &value))
        port_text = value;
      else if (take_value (argc, argv, &i, "--host", &value))
        host = value;
      else
        {
          g_autofree char *message = g_strdup_printf (_("unknown option \"%s\""), argv[i]);

          dyno_cli_print_error ("serve", message);
          print_serve_usage (stderr);
          return EXIT_USAGE;
        }
      if (value == NULL)
        return EXIT_USAGE;
    }
  if (port_text == NULL || !g_ascii_string_to_unsigned (port_text, 10, 0, 65535, &port, NULL))
    {
      g_autofree char *message = g_strdup_printf (_("--port takes a number from 0 to 65535, "
                                                    "not \"%s\""), port_text);

      dyno_cli_print_error ("serve", message);
      return EXIT_USAGE;
    }
  if (strcmp (host, "localhost") == 0)
    host = "127.0.0.1";
  address = g_inet_address_new_from_string (host);
  if (address == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("--host takes an IP address such as "
                                                    "127.0.0.1 or ::1, not \"%s\""), host);

      dyno_cli_print_error ("serve", message);
      return EXIT_USAGE;
    }
  if (!g_inet_address_get_is_loopback (address))
    {
      g_autofree char *message = g_strdup_printf (_("warning: %s is not a loopback address: "
                                                    "anyone who can reach it can read and "
                                                    "change every table (there is no "
                                                    "authentication)"), host);

      dyno_cli_print_error ("serve", message);
    }

  backend = dyno_engine_backend_new (data, &error);
  if (backend == NULL)
    {
      dyno_cli_print_error ("serve", error->message);
      return EXIT_FAILURE_RUN;
    }
  /* before the first line: whoever reads it may stop the server at once */
  loop = g_main_loop_new (NULL, FALSE);
  sigterm = g_unix_signal_add (SIGTERM, on_signal, loop);
  sigint = g_unix_signal_add (SIGINT, on_signal, loop);
  if (!dyno_engine_backend_serve (backend, host, (guint) port, DYNO_ENGINE_SERVE_INLINE,
                                  &error))
    {
      dyno_cli_print_error ("serve", error->message);
      g_source_remove (sigterm);
      g_source_remove (sigint);
      g_main_loop_unref (loop);
      return EXIT_FAILURE_RUN;
    }
  printf ("listening on %s\n", dyno_engine_backend_get_served_url (backend));
  fflush (stdout);

  g_main_loop_run (loop);
  g_source_remove (sigterm);
  g_source_remove (sigint);

  dyno_engine_backend_stop_serving (backend);
  g_main_loop_unref (loop);
  return EXIT_OK;
}
