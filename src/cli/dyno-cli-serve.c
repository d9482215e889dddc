/* dyno-cli-serve.c: `dynotable-cli serve`, the embedded engine behind DynamoDB's HTTP protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-cli.h"

#include <glib-unix.h>
#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyno-cli-io.h"
#include "dyno-engine.h"
#include "dyno-json.h"

#define EXIT_OK          0
#define EXIT_FAILURE_RUN 1
#define EXIT_USAGE       2

#define TARGET_PREFIX "DynamoDB_20120810."
#define CONTENT_TYPE "application/x-amz-json-1.0"

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

typedef struct {
  DynoEngine *engine;
  GMainLoop  *loop;
} Serve;

static guint32 crc_table[256];

static void
crc_init (void)
{
  for (guint32 i = 0; i < 256; i++)
    {
      guint32 c = i;

      for (int k = 0; k < 8; k++)
        c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      crc_table[i] = c;
    }
}

static guint32
crc32_of (const char *data,
          gsize       len)
{
  guint32 c = 0xFFFFFFFFu;

  for (gsize i = 0; i < len; i++)
    c = crc_table[(c ^ (guint8) data[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

static void
respond (SoupServerMessage *msg,
         guint              status,
         char              *body)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  gsize len = strlen (body);
  char crc[16];
  g_autofree char *id = g_uuid_string_random ();

  g_snprintf (crc, sizeof crc, "%u", crc32_of (body, len));
  soup_message_headers_replace (headers, "x-amz-crc32", crc);
  soup_message_headers_replace (headers, "x-amzn-RequestId", id);
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, CONTENT_TYPE, SOUP_MEMORY_TAKE, body, len);
}

static void
respond_error (SoupServerMessage *msg,
               const GError      *error)
{
  DynoEngineErrorCode code = error->domain == DYNO_ENGINE_ERROR ? (DynoEngineErrorCode) error->code
                                                                : DYNO_ENGINE_ERROR_INTERNAL;
  GString *body = g_string_new ("{\"__type\":");

  dyno_json_write_string (body, dyno_engine_error_wire_type (code), -1);
  g_string_append (body, ",\"message\":");
  dyno_json_write_string (body, error->message, -1);
  g_string_append_c (body, '}');
  respond (msg, dyno_engine_error_http_status (code), g_string_free (body, FALSE));
}

static void
handle_request (SoupServer        *server,
                SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  Serve *serve = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *target = soup_message_headers_get_one (headers, "X-Amz-Target");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *body;
  gsize len;
  char *response;

  if (target == NULL || !g_str_has_prefix (target, TARGET_PREFIX)
      || strcmp (soup_server_message_get_method (msg), "POST") != 0)
    {
      g_set_error (&error, DYNO_ENGINE_ERROR, DYNO_ENGINE_ERROR_UNKNOWN_OPERATION,
                   "An unknown operation was requested");
      respond_error (msg, error);
      return;
    }
  bytes = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  body = g_bytes_get_data (bytes, &len);
  response = dyno_engine_request (serve->engine, target + strlen (TARGET_PREFIX),
                                  len ? body : "{}", len ? (gssize) len : 2, &error);
  if (response == NULL)
    respond_error (msg, error);
  else
    respond (msg, SOUP_STATUS_OK, response);
}

static gboolean
on_signal (gpointer user_data)
{
  Serve *serve = user_data;

  g_main_loop_quit (serve->loop);
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
  g_autoptr(GSocketAddress) socket_address = NULL;
  g_autoptr(SoupServer) server = NULL;
  GSList *listeners;
  Serve serve = { 0 };
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

  serve.engine = dyno_engine_new (data, &error);
  if (serve.engine == NULL)
    {
      dyno_cli_print_error ("serve", error->message);
      return EXIT_FAILURE_RUN;
    }
  crc_init ();
  /* before the first line: whoever reads it may stop the server at once */
  serve.loop = g_main_loop_new (NULL, FALSE);
  sigterm = g_unix_signal_add (SIGTERM, on_signal, &serve);
  sigint = g_unix_signal_add (SIGINT, on_signal, &serve);
  server = soup_server_new ("server-header", NULL, NULL);
  soup_server_add_handler (server, NULL, handle_request, &serve, NULL);
  socket_address = g_inet_socket_address_new (address, (guint16) port);
  if (!soup_server_listen (server, socket_address, 0, &error))
    {
      dyno_cli_print_error ("serve", error->message);
      g_source_remove (sigterm);
      g_source_remove (sigint);
      g_main_loop_unref (serve.loop);
      g_object_unref (serve.engine);
      return EXIT_FAILURE_RUN;
    }
  /* the port the system gave (--port 0); not soup_server_get_uris(), which leaks in 3.2 */
  listeners = soup_server_get_listeners (server);
  if (listeners != NULL)
    {
      g_autoptr(GSocketAddress) local = g_socket_get_local_address (listeners->data, NULL);

      if (local != NULL)
        port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local));
    }
  g_slist_free (listeners);
  if (g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV6)
    printf ("listening on http://[%s]:%u\n", host, (guint) port);
  else
    printf ("listening on http://%s:%u\n", host, (guint) port);
  fflush (stdout);

  g_main_loop_run (serve.loop);
  g_source_remove (sigterm);
  g_source_remove (sigint);

  soup_server_disconnect (server);
  g_clear_object (&server);
  g_main_loop_unref (serve.loop);
  g_object_unref (serve.engine);
  return EXIT_OK;
}
