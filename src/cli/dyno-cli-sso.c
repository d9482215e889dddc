/* dyno-cli-sso.c: dynotable-cli sso login|logout (IAM Identity Center, device authorization)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include "dyno-cli.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "dyno-aws-auth.h"
#include "dyno-cli-io.h"
#include "dyno-credentials.h"
#include "dyno-json.h"

#define EXIT_OK          0
#define EXIT_FAILURE_RUN 1
#define EXIT_USAGE       2

static void
print_sso_usage (FILE *out)
{
  fputs (_("Usage: dynotable-cli sso login [--profile P | --sso-session S] [--no-browser]\n"
           "       dynotable-cli sso logout\n"
           "\n"
           "login   signs in to IAM Identity Center with the device flow and keeps the token in\n"
           "        ~/.aws/sso/cache, where the AWS CLI keeps it (each signs the other in).\n"
           "logout  removes the cached IAM Identity Center tokens.\n"), out);
}

typedef struct {
  gboolean no_browser;
} LoginData;

static void
login_prompt (const char *verification_uri,
              const char *user_code,
              gpointer    user_data)
{
  LoginData *data = user_data;

  /* Translators: the address to open, then the code the page must show. */
  printf (_("To sign in, open this address in a browser:\n\n    %s\n\nand check that it shows "
            "the code %s.\n"), verification_uri, user_code);
  fflush (stdout);
  if (!data->no_browser)
    {
      g_autoptr(GError) browser_error = NULL;

      if (!g_app_info_launch_default_for_uri (verification_uri, NULL, &browser_error))
        {
          /* Translators: the system's message. */
          g_autofree char *message = g_strdup_printf (_("could not open a browser (%s); open "
                                                        "the address yourself"),
                                                      browser_error->message);

          dyno_cli_print_error ("sso login", message);
        }
    }
}

static int
sso_login (const char *profile,
           const char *session,
           gboolean    no_browser)
{
  g_auto(GStrv) env = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoSsoConfig) config = NULL;
  g_autoptr(GDateTime) until = NULL;
  g_autofree char *shown = NULL;
  LoginData data = { no_browser };

  config = dyno_sso_config_lookup (env, profile, session, &error);
  if (config == NULL)
    {
      dyno_cli_print_error ("sso login", error->message);
      return EXIT_USAGE;
    }
  if (!dyno_sso_login (config, login_prompt, &data, &until, NULL, &error))
    {
      dyno_cli_print_error ("sso login", error->message);
      return EXIT_FAILURE_RUN;
    }
  shown = g_date_time_format (until, "%Y-%m-%d %H:%M:%S UTC");
  /* Translators: the start URL, then when the sign-in expires. */
  printf (_("Signed in to %s until %s.\n"), config->start_url, shown);
  return EXIT_OK;
}

/* Removes the cached sign-ins: the files of ~/.aws/sso/cache that hold an accessToken (as
 * the AWS CLI's logout does; its client registrations, without one, stay). */
static int
sso_logout (void)
{
  g_autofree char *dir_path = dyno_sso_cache_dir (NULL);
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint removed = 0;
  int status = EXIT_OK;

  dir = g_dir_open (dir_path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autoptr(DynoSsoToken) token = NULL;
      g_autoptr(GError) error = NULL;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      path = g_build_filename (dir_path, name, NULL);
      token = dyno_sso_token_load (path, &error);
      if (token == NULL)
        continue;
      if (g_unlink (path) != 0)
        {
          g_autofree char *message = g_strdup_printf (_("could not remove %s: %s"), path,
                                                      g_strerror (errno));

          dyno_cli_print_error ("sso logout", message);
          status = EXIT_FAILURE_RUN;
          continue;
        }
      removed++;
    }
  if (removed == 0)
    printf (_("There was no IAM Identity Center sign-in to forget.\n"));
  else
    printf (g_dngettext (GETTEXT_PACKAGE, "Signed out: %u cached sign-in removed.\n",
                         "Signed out: %u cached sign-ins removed.\n", removed), removed);
  return status;
}

int
dyno_cli_sso (int    argc,
              char **argv)
{
  g_autofree char *profile = NULL;
  g_autofree char *session = NULL;
  gboolean no_browser = FALSE;
  const char *action = NULL;
  int i;

  /* Global options before "sso": only --profile matters here. */
  for (i = 1; i < argc && strcmp (argv[i], "sso") != 0; i++)
    {
      if (strcmp (argv[i], "--profile") == 0 && i + 1 < argc)
        {
          g_free (profile);
          profile = g_strdup (argv[++i]);
        }
      else if (g_str_has_prefix (argv[i], "--profile="))
        {
          g_free (profile);
          profile = g_strdup (argv[i] + strlen ("--profile="));
        }
      else if ((strcmp (argv[i], "--region") == 0 || strcmp (argv[i], "--endpoint-url") == 0)
               && i + 1 < argc)
        i++;
    }
  if (i + 1 >= argc)
    {
      dyno_cli_print_error ("sso", _("missing login or logout"));
      print_sso_usage (stderr);
      return EXIT_USAGE;
    }
  action = argv[i + 1];
  if (strcmp (action, "--help") == 0 || strcmp (action, "-h") == 0)
    {
      print_sso_usage (stdout);
      return EXIT_OK;
    }
  if (strcmp (action, "login") != 0 && strcmp (action, "logout") != 0)
    {
      g_autofree char *message = g_strdup_printf (_("unknown sso command \"%s\" (login or "
                                                    "logout)"), action);

      dyno_cli_print_error ("sso", message);
      return EXIT_USAGE;
    }
  for (i = i + 2; i < argc; i++)
    {
      char **target = NULL;
      const char *name = NULL;

      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
        {
          print_sso_usage (stdout);
          return EXIT_OK;
        }
      if (strcmp (argv[i], "--no-browser") == 0 && strcmp (action, "login") == 0)
        {
          no_browser = TRUE;
          continue;
        }
      if (strcmp (action, "login") == 0)
        {
          if (g_str_has_prefix (argv[i], "--profile"))
            target = &profile, name = "--profile";
          else if (g_str_has_prefix (argv[i], "--sso-session"))
            target = &session, name = "--sso-session";
        }
      if (target != NULL && argv[i][strlen (name)] == '=')
        {
          g_free (*target);
          *target = g_strdup (argv[i] + strlen (name) + 1);
          continue;
        }
      if (target != NULL && argv[i][strlen (name)] == '\0' && i + 1 < argc)
        {
          g_free (*target);
          *target = g_strdup (argv[++i]);
          continue;
        }
      {
        g_autofree char *context = g_strdup_printf ("sso %s", action);
        g_autofree char *message = g_strdup_printf (_("unexpected argument \"%s\" (see "
                                                      "'dynotable-cli sso --help')"), argv[i]);

        dyno_cli_print_error (context, message);
        return EXIT_USAGE;
      }
    }

  if (strcmp (action, "logout") == 0)
    return sso_logout ();
  if (profile != NULL && session != NULL)
    {
      dyno_cli_print_error ("sso login", _("give --profile or --sso-session, not both"));
      return EXIT_USAGE;
    }
  return sso_login (profile, session, no_browser);
}
