/* dyno-cli-io.c: small helpers shared by the dynotable-cli subcommands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include "dyno-cli-io.h"

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <gio/gio.h>

#include "dyno-endpoints.h"
#include "dyno-http-backend.h"

gboolean
dyno_cli_read_input (const char  *path,
                     char       **contents,
                     gsize       *length,
                     GError     **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);

  if (strcmp (path, "-") == 0)
    {
      GString *buffer = g_string_new (NULL);
      char chunk[8192];
      size_t n;

      while ((n = fread (chunk, 1, sizeof chunk, stdin)) > 0)
        g_string_append_len (buffer, chunk, n);

      if (ferror (stdin))
        {
          int saved_errno = errno;

          g_string_free (buffer, TRUE);
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_FAILED,
                       _("Could not read standard input: %s"), g_strerror (saved_errno));
          return FALSE;
        }

      if (length != NULL)
        *length = buffer->len;
      *contents = g_string_free (buffer, FALSE);
      return TRUE;
    }

  {
    g_autoptr(GError) local_error = NULL;

    if (!g_file_get_contents (path, contents, length, &local_error))
      {
        /* GLib's message already names the file. */
        g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_FAILED, local_error->message);
        return FALSE;
      }
  }

  return TRUE;
}

void
dyno_cli_print_error (const char *context,
                      const char *message)
{
  if (context != NULL)
    fprintf (stderr, "dynotable-cli: %s: %s\n", context, message);
  else
    fprintf (stderr, "dynotable-cli: %s\n", message);
}

void
dyno_cli_print_location (FILE                    *out,
                         const char              *text,
                         const DynoParseLocation *location)
{
  gsize text_len;
  gsize offset;
  const char *line_start;
  const char *line_end;
  const char *p;
  const char *mark_end;

  g_return_if_fail (text != NULL);
  g_return_if_fail (location != NULL);

  text_len = strlen (text);
  offset = MIN (location->offset, text_len);

  line_start = text + offset;
  while (line_start > text && line_start[-1] != '\n')
    line_start--;
  line_end = strchr (text + offset, '\n');
  if (line_end == NULL)
    line_end = text + text_len;

  fputs ("  ", out);
  fwrite (line_start, 1, line_end - line_start, out);
  fputs ("\n  ", out);

  /* One column per character; tabs copied so the caret lines up under them. */
  for (p = line_start; p < text + offset; p = g_utf8_find_next_char (p, NULL))
    fputc (*p == '\t' ? '\t' : ' ', out);
  fputc ('^', out);

  mark_end = text + MIN (offset + location->length, (gsize) (line_end - text));
  if (p < mark_end)
    {
      for (p = g_utf8_find_next_char (p, NULL); p != NULL && p < mark_end;
           p = g_utf8_find_next_char (p, NULL))
        fputc ('~', out);
    }
  fputc ('\n', out);
}

gboolean
dyno_cli_write_output (const char *text)
{
  gsize len = strlen (text);

  if (fwrite (text, 1, len, stdout) != len)
    return FALSE;
  if (len == 0 || text[len - 1] != '\n')
    {
      if (fputc ('\n', stdout) == EOF)
        return FALSE;
    }

  return fflush (stdout) == 0;
}

static char *mfa_code;

void
dyno_cli_set_mfa_code (const char *code)
{
  g_free (mfa_code);
  mfa_code = g_strdup (code);
}

/* --mfa-code, else a prompt on the terminal, else an error saying how to give the code. */
static char *
mfa_prompt (const char  *profile,
            const char  *mfa_serial,
            const char  *previous_error,
            gpointer     user_data,
            GError     **error)
{
  char line[256];
  struct termios saved;
  gboolean echo_off = FALSE;
  gboolean read_ok;

  if (mfa_code != NULL)
    return g_strdup (mfa_code);
  if (!isatty (STDIN_FILENO))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   /* Translators: the profile, then the MFA device. */
                   _("The profile “%s” needs a code from the MFA device %s: give it with "
                     "--mfa-code CODE (before the command)."), profile, mfa_serial);
      return NULL;
    }
  /* Not echoed, as the AWS CLI's prompt (getpass); echo goes off before the prompt shows,
   * so nothing typed after it is lost. */
  if (tcgetattr (STDIN_FILENO, &saved) == 0)
    {
      struct termios quiet = saved;

      quiet.c_lflag &= ~(tcflag_t) ECHO;
      echo_off = tcsetattr (STDIN_FILENO, TCSANOW, &quiet) == 0;
    }
  if (previous_error != NULL)
    /* Translators: STS's reason follows. */
    fprintf (stderr, _("The code was not accepted: %s\n"), previous_error);
  /* Translators: a prompt: the MFA device, then the profile. */
  fprintf (stderr, _("Code from the MFA device %s (profile %s): "), mfa_serial, profile);
  fflush (stderr);
  read_ok = fgets (line, sizeof line, stdin) != NULL;
  if (echo_off)
    {
      tcsetattr (STDIN_FILENO, TCSANOW, &saved);
      fputc ('\n', stderr);
    }
  if (!read_ok || *g_strstrip (line) == '\0')
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The profile “%s” needs a code from the MFA device %s, and none was "
                     "given."), profile, mfa_serial);
      return NULL;
    }
  return g_strdup (line);
}

DynoResolvedConfig *
dyno_cli_resolve_config (const DynoConnectionSettings  *settings,
                         GError                       **error)
{
  g_auto(GStrv) env = g_get_environ ();

  dyno_credentials_set_mfa_prompt (mfa_prompt, NULL);

  if (settings->endpoint_url != NULL && !dyno_endpoint_validate_url (settings->endpoint_url, error))
    {
      g_prefix_error (error, "--endpoint-url: ");
      return NULL;
    }
  if (settings->profile != NULL && !dyno_aws_check_profile (env, settings->profile, "--profile",
                                                            error))
    return NULL;

  return dyno_resolve_config (settings, env, NULL, error);
}

DynoBackend *
dyno_cli_connect (const DynoConnectionSettings  *settings,
                  DynoResolvedConfig           **config,
                  GError                       **error)
{
  g_autoptr(DynoResolvedConfig) resolved = dyno_cli_resolve_config (settings, error);
  DynoHttpBackend *backend;

  if (resolved == NULL)
    return NULL;
  backend = dyno_http_backend_new (resolved, error);
  if (backend == NULL)
    return NULL;

  if (config != NULL)
    *config = g_steal_pointer (&resolved);
  return DYNO_BACKEND (backend);
}
