/* dyno-credentials.c: AWS credentials and their resolution as the SDKs do it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-credentials.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "dyno-aws-auth.h"
#include "dyno-aws-config.h"
#include "dyno-endpoints.h"
#include "dyno-error.h"
#include "dyno-json.h"

struct _DynoCredentials {
  gatomicrefcount  ref_count;
  char            *access_key_id;
  char            *secret_access_key;
  char            *session_token;
  GDateTime       *expiration;
  char            *source;
};

G_DEFINE_BOXED_TYPE (DynoCredentials, dyno_credentials, dyno_credentials_ref,
                     dyno_credentials_unref)

/* Secrets are wiped before their memory goes back to the allocator. */
void
dyno_secret_free (char *secret)
{
  if (secret == NULL)
    return;
  explicit_bzero (secret, strlen (secret));
  g_free (secret);
}

DynoCredentials *
dyno_credentials_new (const char *access_key_id,
                      const char *secret_access_key,
                      const char *session_token,
                      GDateTime  *expiration)
{
  DynoCredentials *creds;

  g_return_val_if_fail (access_key_id != NULL, NULL);
  g_return_val_if_fail (secret_access_key != NULL, NULL);

  creds = g_new0 (DynoCredentials, 1);
  g_atomic_ref_count_init (&creds->ref_count);
  creds->access_key_id = g_strdup (access_key_id);
  creds->secret_access_key = g_strdup (secret_access_key);
  creds->session_token = session_token != NULL && *session_token != '\0'
                         ? g_strdup (session_token) : NULL;
  creds->expiration = expiration != NULL ? g_date_time_ref (expiration) : NULL;
  return creds;
}

DynoCredentials *
dyno_credentials_ref (DynoCredentials *creds)
{
  g_return_val_if_fail (creds != NULL, NULL);
  g_atomic_ref_count_inc (&creds->ref_count);
  return creds;
}

void
dyno_credentials_unref (DynoCredentials *creds)
{
  g_return_if_fail (creds != NULL);
  if (!g_atomic_ref_count_dec (&creds->ref_count))
    return;
  g_free (creds->access_key_id);
  dyno_secret_free (creds->secret_access_key);
  dyno_secret_free (creds->session_token);
  g_clear_pointer (&creds->expiration, g_date_time_unref);
  g_free (creds->source);
  g_free (creds);
}

const char *
dyno_credentials_get_access_key_id (DynoCredentials *creds)
{
  g_return_val_if_fail (creds != NULL, NULL);
  return creds->access_key_id;
}

const char *
dyno_credentials_get_secret_access_key (DynoCredentials *creds)
{
  g_return_val_if_fail (creds != NULL, NULL);
  return creds->secret_access_key;
}

const char *
dyno_credentials_get_session_token (DynoCredentials *creds)
{
  g_return_val_if_fail (creds != NULL, NULL);
  return creds->session_token;
}

GDateTime *
dyno_credentials_get_expiration (DynoCredentials *creds)
{
  g_return_val_if_fail (creds != NULL, NULL);
  return creds->expiration;
}

gboolean
dyno_credentials_is_expiring (DynoCredentials *creds,
                              gint64           margin_seconds)
{
  g_autoptr(GDateTime) now = NULL;

  g_return_val_if_fail (creds != NULL, FALSE);
  if (creds->expiration == NULL)
    return FALSE;
  now = g_date_time_new_now_utc ();
  return g_date_time_difference (creds->expiration, now) <= margin_seconds * G_TIME_SPAN_SECOND;
}

const char *
dyno_credentials_get_source (DynoCredentials *creds)
{
  g_return_val_if_fail (creds != NULL, NULL);
  return creds->source;
}

void
dyno_credentials_set_source (DynoCredentials *creds,
                             const char      *source)
{
  g_return_if_fail (creds != NULL);
  g_free (creds->source);
  creds->source = g_strdup (source);
}

void
dyno_resolved_config_free (DynoResolvedConfig *config)
{
  if (config == NULL)
    return;
  g_free (config->region);
  g_free (config->endpoint_url);
  g_free (config->profile);
  g_clear_pointer (&config->credentials, dyno_credentials_unref);
  g_free (config->credential_process);
  g_free (config->explicit_profile);
  g_free (config);
}

DynoResolvedConfig *
dyno_resolved_config_copy (const DynoResolvedConfig *config)
{
  DynoResolvedConfig *copy = g_new0 (DynoResolvedConfig, 1);

  copy->region = g_strdup (config->region);
  copy->endpoint_url = g_strdup (config->endpoint_url);
  copy->profile = g_strdup (config->profile);
  copy->credentials = config->credentials ? dyno_credentials_ref (config->credentials) : NULL;
  copy->credential_process = g_strdup (config->credential_process);
  copy->endpoint_flags = config->endpoint_flags;
  copy->kind = config->kind;
  copy->explicit_profile = g_strdup (config->explicit_profile);
  return copy;
}

gboolean
dyno_resolved_config_can_refresh (const DynoResolvedConfig *config)
{
  return config != NULL
         && (config->credential_process != NULL || config->kind == DYNO_CREDENTIAL_KIND_ROLE
             || config->kind == DYNO_CREDENTIAL_KIND_WEB_IDENTITY
             || config->kind == DYNO_CREDENTIAL_KIND_SSO);
}

/* ------------------------------------------------------------------------------------------ */
/* Resolution */

typedef struct {
  char          **env;
  const char     *home;
  DynoAwsConfig  *config;        /* the config file (may not exist) */
  DynoAwsConfig  *credentials;   /* the credentials file (may not exist) */
  DynoAwsSection *config_profile;
  DynoAwsSection *credentials_profile;
  const char     *profile;
} Resolver;

static const char *
env_get (char       **env,
         const char  *name)
{
  const char *value = g_environ_getenv (env, name);

  /* An empty variable counts as unset, as `export AWS_PROFILE=` means "none". */
  return value != NULL && *value != '\0' ? value : NULL;
}

static char *
expand_home (const char *path,
             const char *home)
{
  if (home != NULL && path[0] == '~' && (path[1] == '\0' || path[1] == '/'))
    return g_strconcat (home, path + 1, NULL);
  return g_strdup (path);
}

/* "~/.aws/config" for files under HOME: what a person recognises. */
static char *
display_path (const char *path,
              const char *home)
{
  gsize len = home != NULL ? strlen (home) : 0;

  if (len > 1 && g_str_has_prefix (path, home) && path[len] == '/')
    return g_strconcat ("~", path + len, NULL);
  return g_strdup (path);
}

static char *
file_line (Resolver       *resolver,
           DynoAwsConfig  *file,
           guint           line)
{
  g_autofree char *shown = display_path (dyno_aws_config_get_filename (file), resolver->home);

  return line > 0 ? g_strdup_printf ("%s:%u", shown, line) : g_steal_pointer (&shown);
}

/* A profile value: the credentials file wins over the config file, as in botocore's merged
 * profile map.  @file/@line say where it was found. */
static const char *
profile_get (Resolver       *resolver,
             const char     *key,
             DynoAwsConfig **file,
             guint          *line)
{
  const char *value;

  if (resolver->credentials_profile != NULL
      && (value = dyno_aws_section_get (resolver->credentials_profile, key)) != NULL)
    {
      if (file != NULL)
        *file = resolver->credentials;
      if (line != NULL)
        *line = dyno_aws_section_get_key_line (resolver->credentials_profile, key);
      return value;
    }
  if (resolver->config_profile != NULL
      && (value = dyno_aws_section_get (resolver->config_profile, key)) != NULL)
    {
      if (file != NULL)
        *file = resolver->config;
      if (line != NULL)
        *line = dyno_aws_section_get_key_line (resolver->config_profile, key);
      return value;
    }
  return NULL;
}

static gboolean
parse_bool (const char *value,
            gboolean   *out)
{
  if (g_ascii_strcasecmp (value, "true") == 0)
    *out = TRUE;
  else if (g_ascii_strcasecmp (value, "false") == 0)
    *out = FALSE;
  else
    return FALSE;
  return TRUE;
}

/* Static keys of the profile in one file.  FALSE with an error for half a pair; FALSE
 * without one when there are none. */
static gboolean
static_keys (Resolver         *resolver,
             DynoAwsConfig    *file,
             DynoAwsSection   *section,
             DynoCredentials **out,
             GError          **error)
{
  const char *akid;
  const char *secret;
  const char *token;

  if (section == NULL)
    return FALSE;
  akid = dyno_aws_section_get (section, "aws_access_key_id");
  secret = dyno_aws_section_get (section, "aws_secret_access_key");
  token = dyno_aws_section_get (section, "aws_session_token");
  if (token == NULL)
    token = dyno_aws_section_get (section, "aws_security_token");
  if ((akid == NULL || *akid == '\0') && (secret == NULL || *secret == '\0'))
    return FALSE;
  if (akid == NULL || *akid == '\0' || secret == NULL || *secret == '\0')
    {
      guint line = dyno_aws_section_get_key_line (section, akid != NULL && *akid != '\0'
                                                  ? "aws_access_key_id"
                                                  : "aws_secret_access_key");
      g_autofree char *where = file_line (resolver, file, line);

      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   /* Translators: "FILE:LINE", the profile, then the setting found and the one
                    * missing. */
                   _("%s: the profile “%s” has %s but no %s."), where, resolver->profile,
                   akid != NULL && *akid != '\0' ? "aws_access_key_id" : "aws_secret_access_key",
                   akid != NULL && *akid != '\0' ? "aws_secret_access_key" : "aws_access_key_id");
      return FALSE;
    }
  *out = dyno_credentials_new (akid, secret, token, NULL);
  {
    g_autofree char *shown = display_path (dyno_aws_config_get_filename (file), resolver->home);
    /* Translators: where credentials came from: the profile, then the file. */
    g_autofree char *source = g_strdup_printf (_("profile %s (%s)"), resolver->profile, shown);

    dyno_credentials_set_source (*out, source);
  }
  return TRUE;
}

/* @name looked up in the PATH of @env (GSubprocess would search the PATH of this process,
 * which is not the environment the command is meant to run in). */
static char *
find_program (const char  *name,
              char       **env)
{
  const char *path = env != NULL ? g_environ_getenv (env, "PATH") : NULL;
  g_auto(GStrv) dirs = NULL;

  if (strchr (name, '/') != NULL)
    return g_strdup (name);
  if (path == NULL)
    return g_find_program_in_path (name);
  dirs = g_strsplit (path, G_SEARCHPATH_SEPARATOR_S, -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *candidate = g_build_filename (*dirs[i] != '\0' ? dirs[i] : ".", name,
                                                     NULL);

      if (g_file_test (candidate, G_FILE_TEST_IS_REGULAR)
          && g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&candidate);
    }
  return NULL;
}

/* TRUE inside a Flatpak sandbox (the file flatpak puts at the root of every sandbox). */
static gboolean
in_flatpak_sandbox (void)
{
  return g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);
}

/* TRUE when the sandbox may talk to org.freedesktop.Flatpak, the service flatpak-spawn --host
 * uses: only when the user granted it (flatpak override --talk-name=org.freedesktop.Flatpak). */
static gboolean
sandbox_may_run_host_programs (void)
{
  g_autoptr(GKeyFile) info = g_key_file_new ();
  g_autofree char *policy = NULL;

  if (!g_key_file_load_from_file (info, "/.flatpak-info", G_KEY_FILE_NONE, NULL))
    return FALSE;
  policy = g_key_file_get_string (info, "Session Bus Policy", "org.freedesktop.Flatpak", NULL);

  return policy != NULL && (g_str_equal (policy, "talk") || g_str_equal (policy, "own"));
}

/* flatpak-spawn --host --watch-bus [--env=…] PROGRAM ARGS…: the few AWS variables a
 * credential process reads are passed on (never keys: the command line is visible to others).
 * @program_index: where PROGRAM is in the result. */
static GStrv
wrap_for_host (char  **argv,
               char  **env,
               guint  *program_index)
{
  static const char *forwarded[] = { "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION" };
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GPtrArray) options = g_ptr_array_new_with_free_func (g_free);
  GStrv result;

  for (guint i = 0; i < G_N_ELEMENTS (forwarded); i++)
    {
      const char *value = g_environ_getenv (env, forwarded[i]);

      if (value != NULL)
        g_ptr_array_add (options, g_strdup_printf ("--env=%s=%s", forwarded[i], value));
    }
  g_strv_builder_add_many (builder, "flatpak-spawn", "--host", "--watch-bus", NULL);
  for (guint i = 0; i < options->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (options, i));
  g_strv_builder_addv (builder, (const char **) argv);
  result = g_strv_builder_end (builder);
  *program_index = 3 + options->len;

  return result;
}

/* Runs @command (split like a shell command line, but without a shell) and reads the
 * credentials it prints (JSON, Version 1). */
static DynoCredentials *
run_credential_process (const char    *command,
                        const char    *profile,
                        char         **env,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GDateTime) expiration = NULL;
  g_auto(GStrv) argv = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *source = NULL;
  g_autofree char *program = NULL;
  DynoCredentials *creds;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonNode *version;
  const char *akid;
  const char *secret;
  const char *token;
  const char *expiration_text;
  const char *shown = NULL;

  if (!g_shell_parse_argv (command, NULL, &argv, &local_error))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The credential_process of profile “%s” is not a valid command line: %s"),
                   profile, local_error->message);
      return NULL;
    }

  if (in_flatpak_sandbox ())
    {
      /* The program is on the user's computer, not in the sandbox: it runs there through
       * flatpak-spawn, which the Flatpak does not allow by default (README, "Flatpak"). */
      GStrv host_argv;
      guint program_index;

      if (!sandbox_may_run_host_programs ())
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       _("The credential_process of profile “%s” (%s) is a program outside "
                         "DynoTable’s Flatpak sandbox, which the sandbox does not run by "
                         "default. To allow it, run on your computer: flatpak override --user "
                         "--talk-name=org.freedesktop.Flatpak %s"),
                       profile, argv[0], APP_ID);
          return NULL;
        }
      host_argv = wrap_for_host (argv, env, &program_index);
      g_strfreev (argv);
      argv = host_argv;
      shown = argv[program_index];
    }
  else
    {
      program = find_program (argv[0], env);
      if (program == NULL)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       _("The credential_process of profile “%s” could not be started: there "
                         "is no program “%s” in PATH."), profile, argv[0]);
          return NULL;
        }
      g_free (argv[0]);
      argv[0] = g_steal_pointer (&program);
      shown = argv[0];
    }

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE
                                        | G_SUBPROCESS_FLAGS_STDIN_INHERIT);
  if (env != NULL)
    g_subprocess_launcher_set_environ (launcher, env);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, &local_error);
  if (process == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   /* Translators: the profile, the program, then the system's error message. */
                   _("The credential_process of profile “%s” (%s) could not be started: %s"),
                   profile, shown, local_error->message);
      return NULL;
    }
  if (!g_subprocess_communicate_utf8 (process, NULL, cancellable, &out, &err, &local_error))
    {
      g_subprocess_force_exit (process);
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                     _("Could not read the output of the credential_process of profile “%s”: %s"),
                     profile, local_error->message);
      return NULL;
    }
  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    {
      g_autofree char *message = g_strstrip (g_strdup (err != NULL ? err : ""));

      if (g_subprocess_get_if_exited (process))
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                     /* Translators: the profile, the program, its exit status, then either
                      * ": " and what it printed or "." and nothing. */
                     _("The credential_process of profile “%s” (%s) failed with exit status "
                       "%d%s%s"),
                     profile, shown, g_subprocess_get_exit_status (process),
                     *message != '\0' ? ": " : ".", message);
      else
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                     /* Translators: the profile, the program, the signal, then either ": " and
                      * what it printed or "." and nothing. */
                     _("The credential_process of profile “%s” (%s) was killed by signal %d%s%s"),
                     profile, shown, g_subprocess_get_term_sig (process),
                     *message != '\0' ? ": " : ".", message);
      return NULL;
    }

  /* The output holds the secret: it never goes into an error message. */
  if (out == NULL || (root = dyno_json_parse (out, -1, NULL)) == NULL
      || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The credential_process of profile “%s” (%s) did not print a JSON object."),
                   profile, shown);
      if (out != NULL)
        explicit_bzero (out, strlen (out));
      return NULL;
    }
  explicit_bzero (out, strlen (out));
  object = json_node_get_object (root);

  version = json_object_get_member (object, "Version");
  if (version == NULL || !JSON_NODE_HOLDS_VALUE (version)
      || json_node_get_value_type (version) != G_TYPE_INT64 || json_node_get_int (version) != 1)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The credential_process of profile “%s” (%s) must print \"Version\": 1."),
                   profile, shown);
      return NULL;
    }
  akid = dyno_json_object_peek_string (object, "AccessKeyId");
  secret = dyno_json_object_peek_string (object, "SecretAccessKey");
  token = dyno_json_object_peek_string (object, "SessionToken");
  expiration_text = dyno_json_object_peek_string (object, "Expiration");
  if (akid == NULL || *akid == '\0' || secret == NULL || *secret == '\0')
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   /* Translators: the profile, the program, then the missing member (such as
                    * AccessKeyId). */
                   _("The credential_process of profile “%s” (%s) did not print %s."),
                   profile, shown, akid == NULL || *akid == '\0' ? "AccessKeyId"
                                                                   : "SecretAccessKey");
      return NULL;
    }
  if (expiration_text != NULL)
    {
      g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

      expiration = g_date_time_new_from_iso8601 (expiration_text, utc);
      if (expiration == NULL)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       _("The credential_process of profile “%s” (%s) printed an Expiration that "
                         "is not an ISO 8601 time: “%s”."), profile, shown, expiration_text);
          return NULL;
        }
      if (g_date_time_compare (expiration, now) <= 0)
        {
          g_autofree char *when = g_date_time_format_iso8601 (expiration);

          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       _("The credential_process of profile “%s” (%s) returned credentials that "
                         "already expired at %s."), profile, shown, when);
          return NULL;
        }
    }

  creds = dyno_credentials_new (akid, secret, token, expiration);
  source = g_strdup_printf (_("credential_process of profile %s"), profile);
  dyno_credentials_set_source (creds, source);
  return creds;
}

static gboolean
resolve_endpoint (Resolver                     *resolver,
                  const DynoConnectionSettings *settings,
                  char                        **endpoint_url,
                  GError                      **error)
{
  g_autofree char *source = NULL;
  const char *url = NULL;
  const char *value;
  gboolean ignore = FALSE;

  if (settings->endpoint_url != NULL && *settings->endpoint_url != '\0')
    {
      url = settings->endpoint_url;
      source = g_strdup (_("the connection"));
    }
  else
    {
      DynoAwsConfig *file = NULL;
      guint line = 0;

      if ((value = env_get (resolver->env, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")) != NULL)
        {
          if (!parse_bool (value, &ignore))
            {
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                           _("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS must be true or false, not "
                             "“%s”."), value);
              return FALSE;
            }
        }
      else if ((value = profile_get (resolver, "ignore_configured_endpoint_urls", &file,
                                     &line)) != NULL && !parse_bool (value, &ignore))
        {
          g_autofree char *where = file_line (resolver, file, line);

          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       /* Translators: "FILE:LINE" or an environment variable, then the value
                        * found. */
                       _("%s: ignore_configured_endpoint_urls must be true or false, not “%s”."),
                       where, value);
          return FALSE;
        }

      if (ignore)
        ;
      else if ((url = env_get (resolver->env, "AWS_ENDPOINT_URL_DYNAMODB")) != NULL)
        source = g_strdup ("AWS_ENDPOINT_URL_DYNAMODB");
      else if ((url = env_get (resolver->env, "AWS_ENDPOINT_URL")) != NULL)
        source = g_strdup ("AWS_ENDPOINT_URL");
      else
        {
          const char *services = profile_get (resolver, "services", &file, &line);

          if (services != NULL && *services != '\0')
            {
              DynoAwsSection *section = dyno_aws_config_get_section (resolver->config,
                                                                     DYNO_AWS_SECTION_SERVICES,
                                                                     services);

              if (section == NULL)
                {
                  g_autofree char *where = file_line (resolver, file, line);

                  g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                               /* Translators: "FILE:LINE", the profile, then the services
                                * section's name (twice). */
                               _("%s: the profile “%s” refers to services “%s”, but the config "
                                 "file has no [services %s] section."), where, resolver->profile,
                               services, services);
                  return FALSE;
                }
              url = dyno_aws_section_get_sub (section, "dynamodb", "endpoint_url");
              if (url != NULL)
                source = file_line (resolver, resolver->config,
                                    dyno_aws_section_get_sub_line (section, "dynamodb",
                                                                   "endpoint_url"));
            }
          if (url == NULL && (url = profile_get (resolver, "endpoint_url", &file, &line)) != NULL)
            source = file_line (resolver, file, line);
        }
    }

  if (url == NULL || *url == '\0')
    return TRUE;
  if (!dyno_endpoint_validate_url (url, error))
    {
      g_prefix_error (error, "%s: ", source);
      return FALSE;
    }
  *endpoint_url = g_strdup (url);
  return TRUE;
}

/* A boolean setting from the environment, else from the profile. */
static gboolean
resolve_flag (Resolver    *resolver,
              const char  *env_name,
              const char  *key,
              gboolean    *out,
              GError     **error)
{
  DynoAwsConfig *file = NULL;
  guint line = 0;
  const char *value;

  *out = FALSE;
  if ((value = env_get (resolver->env, env_name)) != NULL)
    {
      if (!parse_bool (value, out))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       /* Translators: an environment variable, then the value found. */
                       _("%s must be true or false, not “%s”."), env_name, value);
          return FALSE;
        }
    }
  else if ((value = profile_get (resolver, key, &file, &line)) != NULL && !parse_bool (value, out))
    {
      g_autofree char *where = file_line (resolver, file, line);

      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   /* Translators: "FILE:LINE", the setting's name, then the value found. */
                   _("%s: %s must be true or false, not “%s”."), where, key, value);
      return FALSE;
    }
  return TRUE;
}

static gboolean
resolve_region (Resolver                     *resolver,
                const DynoConnectionSettings *settings,
                gboolean                      has_endpoint,
                char                        **region,
                GError                      **error)
{
  g_autofree char *source = NULL;
  DynoAwsConfig *file = NULL;
  guint line = 0;
  const char *value;

  if (settings->region != NULL && *settings->region != '\0')
    {
      value = settings->region;
      source = g_strdup (_("the connection"));
    }
  else if ((value = env_get (resolver->env, "AWS_REGION")) != NULL)
    source = g_strdup ("AWS_REGION");
  else if ((value = env_get (resolver->env, "AWS_DEFAULT_REGION")) != NULL)
    source = g_strdup ("AWS_DEFAULT_REGION");
  else if ((value = profile_get (resolver, "region", &file, &line)) != NULL && *value != '\0')
    source = file_line (resolver, file, line);
  else
    value = NULL;

  if (value == NULL)
    {
      if (has_endpoint)
        {
          /* A custom endpoint (DynamoDB Local) still needs a region to sign with. */
          *region = g_strdup ("us-east-1");
          return TRUE;
        }
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("No region is set. Choose one for the connection, set AWS_REGION, or add "
                     "“region = …” to the profile “%s”."), resolver->profile);
      return FALSE;
    }
  if (!g_str_equal (value, "local") && !dyno_endpoint_region_is_valid (value))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   /* Translators: where the region came from ("the connection", an environment
                    * variable or "FILE:LINE"), then the region. */
                   _("%s: “%s” is not a valid region name (letters, digits and hyphens, such as "
                     "eu-west-1)."), source, value);
      return FALSE;
    }
  *region = g_strdup (value);
  return TRUE;
}

/* ------------------------------------------------------------------------------------------ */
/* Temporary credentials: roles, web identity, IAM Identity Center */

/* Temporary credentials are fetched again this long before they expire (botocore's advisory
 * refresh window), and so is an IAM Identity Center token. */
#define REFRESH_MARGIN_S (15 * 60)

typedef struct {
  Resolver           *top;
  const char         *region;
  gboolean            explicit_profile;
  gboolean            bypass_cache;
  GCancellable       *cancellable;
  DynoCredentialKind  kind;
  char               *credential_process;
} Ctx;

static GMutex cache_lock;
static GHashTable *cache;   /* key → DynoCredentials* */
static DynoMfaPromptFunc mfa_prompt;
static gpointer mfa_prompt_data;

void
dyno_credentials_set_mfa_prompt (DynoMfaPromptFunc func,
                                 gpointer          user_data)
{
  g_mutex_lock (&cache_lock);
  mfa_prompt = func;
  mfa_prompt_data = user_data;
  g_mutex_unlock (&cache_lock);
}

void
dyno_credentials_clear_cache (void)
{
  g_mutex_lock (&cache_lock);
  g_clear_pointer (&cache, g_hash_table_unref);
  g_mutex_unlock (&cache_lock);
}

static char *
cache_key (Resolver   *resolver,
           Ctx        *ctx)
{
  return g_strdup_printf ("%s\n%s\n%s\n%s", dyno_aws_config_get_filename (resolver->config),
                          dyno_aws_config_get_filename (resolver->credentials),
                          resolver->profile, ctx->region);
}

static DynoCredentials *
cache_lookup (const char *key)
{
  DynoCredentials *creds = NULL;

  g_mutex_lock (&cache_lock);
  if (cache != NULL)
    {
      DynoCredentials *found = g_hash_table_lookup (cache, key);

      if (found != NULL && !dyno_credentials_is_expiring (found, REFRESH_MARGIN_S))
        creds = dyno_credentials_ref (found);
    }
  g_mutex_unlock (&cache_lock);
  return creds;
}

static void
cache_store (const char      *key,
             DynoCredentials *creds)
{
  g_mutex_lock (&cache_lock);
  if (cache == NULL)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                   (GDestroyNotify) dyno_credentials_unref);
  g_hash_table_replace (cache, g_strdup (key), dyno_credentials_ref (creds));
  g_mutex_unlock (&cache_lock);
}

/* Fresh credentials of @kind, said to come from @shown (taken): cached under @key, and
 * ctx->kind set.  Returns @creds. */
static DynoCredentials *
remember_credentials (Ctx                *ctx,
                      const char         *key,
                      DynoCredentials    *creds,
                      DynoCredentialKind  kind,
                      char               *shown)
{
  dyno_credentials_set_source (creds, shown);
  g_free (shown);
  cache_store (key, creds);
  ctx->kind = kind;
  return creds;
}

/* The same files, another profile. */
static void
resolver_for_profile (Resolver   *base,
                      const char *profile,
                      Resolver   *out)
{
  *out = *base;
  out->profile = profile;
  out->config_profile = dyno_aws_config_get_section (base->config, DYNO_AWS_SECTION_PROFILE,
                                                     profile);
  out->credentials_profile = dyno_aws_config_get_section (base->credentials,
                                                          DYNO_AWS_SECTION_PROFILE, profile);
}

static gboolean
has_static_keys (Resolver *resolver)
{
  const char *akid = profile_get (resolver, "aws_access_key_id", NULL, NULL);

  return akid != NULL && *akid != '\0';
}

/* The endpoint of an AWS service other than DynamoDB, with the SDKs' precedence:
 * AWS_ENDPOINT_URL_<ID>, AWS_ENDPOINT_URL, the profile's services section, the profile's
 * endpoint_url, then @default_url (taken). */
static char *
service_endpoint (Resolver    *resolver,
                  const char  *env_id,
                  const char  *services_key,
                  char        *default_url)
{
  g_autofree char *env_name = g_strconcat ("AWS_ENDPOINT_URL_", env_id, NULL);
  g_autofree char *fallback = default_url;
  const char *value;
  gboolean ignore = FALSE;

  if ((value = env_get (resolver->env, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")) != NULL)
    parse_bool (value, &ignore);
  else if ((value = profile_get (resolver, "ignore_configured_endpoint_urls", NULL, NULL)) != NULL)
    parse_bool (value, &ignore);
  if (ignore)
    return g_steal_pointer (&fallback);

  if ((value = env_get (resolver->env, env_name)) != NULL)
    return g_strdup (value);
  if ((value = env_get (resolver->env, "AWS_ENDPOINT_URL")) != NULL)
    return g_strdup (value);
  if ((value = profile_get (resolver, "services", NULL, NULL)) != NULL && *value != '\0')
    {
      DynoAwsSection *section = dyno_aws_config_get_section (resolver->config,
                                                             DYNO_AWS_SECTION_SERVICES, value);
      const char *url = section != NULL ? dyno_aws_section_get_sub (section, services_key,
                                                                    "endpoint_url")
                                        : NULL;

      if (url != NULL && *url != '\0')
        return g_strdup (url);
    }
  if ((value = profile_get (resolver, "endpoint_url", NULL, NULL)) != NULL && *value != '\0')
    return g_strdup (value);
  return g_steal_pointer (&fallback);
}

static char *
sts_endpoint (Ctx *ctx)
{
  const char *region = ctx->region != NULL && !g_str_equal (ctx->region, "local")
                       ? ctx->region : "us-east-1";

  return service_endpoint (ctx->top, "STS", "sts", dyno_sts_default_endpoint (region));
}

/* A required setting of the profile, or an error naming it. */
static const char *
require (Resolver    *resolver,
         const char  *key,
         const char  *because,
         GError     **error)
{
  const char *value = profile_get (resolver, key, NULL, NULL);

  if (value == NULL || *value == '\0')
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   /* Translators: the profile, the setting it has (such as role_arn), then the
                    * setting it lacks. */
                   _("The profile “%s” has %s but no %s: add “%s = …” to it."),
                   resolver->profile, because, key, key);
      return NULL;
    }
  return value;
}

/* duration_seconds, validated like STS does (15 minutes to 12 hours). */
static gboolean
read_duration (Resolver  *resolver,
               gint64    *out,
               GError   **error)
{
  DynoAwsConfig *file = NULL;
  guint line = 0;
  const char *value = profile_get (resolver, "duration_seconds", &file, &line);
  guint64 number = 0;

  *out = 0;
  if (value == NULL || *value == '\0')
    return TRUE;
  if (!g_ascii_string_to_unsigned (value, 10, 900, 43200, &number, NULL))
    {
      g_autofree char *where = file_line (resolver, file, line);

      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   /* Translators: "FILE:LINE", the profile, then the value found. */
                   _("%s: duration_seconds of the profile “%s” must be a number of seconds "
                     "from 900 to 43200, not “%s”."), where, resolver->profile, value);
      return FALSE;
    }
  *out = (gint64) number;
  return TRUE;
}

static char *
default_session_name (void)
{
  return g_strdup_printf ("botocore-session-%" G_GINT64_FORMAT, g_get_real_time () / G_USEC_PER_SEC);
}

static DynoCredentials *profile_credentials (Resolver  *resolver,
                                             Ctx       *ctx,
                                             GPtrArray *visited,
                                             gboolean   as_source,
                                             GError   **error);

static DynoCredentials *
environment_keys (Resolver  *resolver,
                  GError   **error)
{
  const char *akid = env_get (resolver->env, "AWS_ACCESS_KEY_ID");
  const char *secret = env_get (resolver->env, "AWS_SECRET_ACCESS_KEY");
  const char *token = env_get (resolver->env, "AWS_SESSION_TOKEN");
  DynoCredentials *creds;

  if (akid == NULL || secret == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The profile “%s” takes its source credentials from the environment "
                     "(credential_source = Environment), but AWS_ACCESS_KEY_ID and "
                     "AWS_SECRET_ACCESS_KEY are not both set."), resolver->profile);
      return NULL;
    }
  creds = dyno_credentials_new (akid, secret, token, NULL);
  dyno_credentials_set_source (creds, _("environment"));
  return creds;
}

static DynoCredentials *
assume_role (Resolver   *resolver,
             Ctx        *ctx,
             GPtrArray  *visited,
             gboolean    as_source,
             GError    **error)
{
  g_autoptr(DynoCredentials) source = NULL;
  g_autofree char *key = cache_key (resolver, ctx);
  g_autofree char *session_name = NULL;
  g_autofree char *endpoint = NULL;
  g_autofree char *code = NULL;
  g_autofree char *shown = NULL;
  DynoAssumeRoleParams params = { 0 };
  const char *role_arn = profile_get (resolver, "role_arn", NULL, NULL);
  const char *source_profile = profile_get (resolver, "source_profile", NULL, NULL);
  const char *credential_source = profile_get (resolver, "credential_source", NULL, NULL);
  DynoCredentials *creds;
  GError *local_error = NULL;

  if (source_profile != NULL && *source_profile == '\0')
    source_profile = NULL;
  if (credential_source != NULL && *credential_source == '\0')
    credential_source = NULL;
  if (source_profile != NULL && credential_source != NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The profile “%s” has both source_profile and credential_source: keep "
                     "only one."), resolver->profile);
      return NULL;
    }
  if (source_profile == NULL && credential_source == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The profile “%s” has role_arn but neither source_profile nor "
                     "credential_source: add one to say which credentials assume the role."),
                   resolver->profile);
      return NULL;
    }

  g_ptr_array_add (visited, (gpointer) resolver->profile);

  if (!(ctx->bypass_cache && !as_source) && (creds = cache_lookup (key)) != NULL)
    return creds;

  if (credential_source != NULL)
    {
      if (g_ascii_strcasecmp (credential_source, "Environment") == 0)
        source = environment_keys (resolver, error);
      else if (g_ascii_strcasecmp (credential_source, "Ec2InstanceMetadata") == 0
               || g_ascii_strcasecmp (credential_source, "EcsContainer") == 0)
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                     _("The profile “%s” takes its source credentials from %s, which DynoTable "
                       "does not support. Use source_profile or credential_source = "
                       "Environment."), resolver->profile, credential_source);
      else
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                     _("The profile “%s” has credential_source = %s; the values are "
                       "Environment, Ec2InstanceMetadata and EcsContainer."), resolver->profile,
                     credential_source);
      if (source == NULL)
        return NULL;
    }
  else
    {
      Resolver sub;

      resolver_for_profile (resolver, source_profile, &sub);
      if (sub.config_profile == NULL && sub.credentials_profile == NULL)
        {
          DynoAwsConfig *file = NULL;
          guint line = 0;
          g_autofree char *where = NULL;

          profile_get (resolver, "source_profile", &file, &line);
          where = file_line (resolver, file, line);
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       /* Translators: "FILE:LINE", the profile, then the missing profile. */
                       _("%s: the profile “%s” has source_profile = %s, but there is no profile "
                         "“%s”."), where, resolver->profile, source_profile, source_profile);
          return NULL;
        }
      if (!has_static_keys (&sub) && profile_get (&sub, "role_arn", NULL, NULL) != NULL)
        {
          for (guint i = 0; i < visited->len; i++)
            if (g_str_equal (g_ptr_array_index (visited, i), source_profile))
              {
                g_autoptr(GString) cycle = g_string_new (NULL);

                for (guint k = i; k < visited->len; k++)
                  g_string_append_printf (cycle, "%s → ", (char *) g_ptr_array_index (visited, k));
                g_string_append (cycle, source_profile);
                g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                             /* Translators: the profile, then the cycle ("a → b → a"). */
                             _("The profile “%s” cannot be used: its source profiles form a "
                               "cycle (%s)."), (char *) g_ptr_array_index (visited, 0),
                             cycle->str);
                return NULL;
              }
        }
      source = profile_credentials (&sub, ctx, visited, TRUE, error);
      if (source == NULL)
        return NULL;
    }

  params.role_arn = role_arn;
  session_name = g_strdup (profile_get (resolver, "role_session_name", NULL, NULL));
  if (session_name == NULL || *session_name == '\0')
    {
      g_free (session_name);
      session_name = default_session_name ();
    }
  params.session_name = session_name;
  params.external_id = profile_get (resolver, "external_id", NULL, NULL);
  if (!read_duration (resolver, &params.duration_seconds, error))
    return NULL;
  params.mfa_serial = profile_get (resolver, "mfa_serial", NULL, NULL);
  if (params.mfa_serial != NULL && *params.mfa_serial == '\0')
    params.mfa_serial = NULL;
  endpoint = sts_endpoint (ctx);
  /* With MFA: a code STS refuses is asked for again (up to three times), with STS's reason,
   * as long as the prompt gives another code (--mfa-code gives the same one: no loop). */
  for (guint attempt = 0; ; attempt++)
    {
      g_autofree char *previous = g_steal_pointer (&code);

      if (params.mfa_serial != NULL)
        {
          DynoMfaPromptFunc func;
          gpointer data;

          g_mutex_lock (&cache_lock);
          func = mfa_prompt;
          data = mfa_prompt_data;
          g_mutex_unlock (&cache_lock);
          if (func == NULL)
            {
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                           _("The profile “%s” needs a code from the MFA device %s, and "
                             "nothing here can ask for it."), resolver->profile,
                           params.mfa_serial);
              return NULL;
            }
          code = func (resolver->profile, params.mfa_serial,
                       local_error != NULL ? local_error->message : NULL, data, error);
          if (code == NULL)
            return NULL;
          if (previous != NULL && g_str_equal (previous, code))
            {
              explicit_bzero (code, strlen (code));
              g_propagate_error (error, g_steal_pointer (&local_error));
              return NULL;
            }
          g_clear_error (&local_error);
          params.mfa_code = code;
        }

      creds = dyno_sts_assume_role (endpoint,
                                    ctx->region != NULL && !g_str_equal (ctx->region, "local")
                                    ? ctx->region : "us-east-1",
                                    source, &params, ctx->cancellable, &local_error);
      if (previous != NULL)
        explicit_bzero (previous, strlen (previous));
      if (creds != NULL)
        break;
      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        /* Translators: the profile; the message follows. */
        g_prefix_error (&local_error, _("Profile “%s”: "), resolver->profile);
      if (params.mfa_serial == NULL || attempt >= 2
          || !g_error_matches (local_error, DYNO_ERROR, DYNO_ERROR_AUTH)
          || strstr (local_error->message, "MultiFactorAuthentication") == NULL)
        {
          if (code != NULL)
            explicit_bzero (code, strlen (code));
          g_propagate_error (error, local_error);
          return NULL;
        }
    }
  if (code != NULL)
    explicit_bzero (code, strlen (code));
  return remember_credentials (ctx, key, creds, DYNO_CREDENTIAL_KIND_ROLE,
                               /* Translators: where credentials came from: the role ARN,
                                * then the profile. */
                               g_strdup_printf (_("role %s of profile %s"), role_arn,
                                                resolver->profile));
}

static DynoCredentials *
web_identity (Resolver    *resolver,
              Ctx         *ctx,
              const char  *token_file,
              const char  *role_arn,
              const char  *session_name,
              gboolean     from_env,
              GError     **error)
{
  g_autofree char *key = cache_key (resolver, ctx);
  g_autofree char *path = expand_home (token_file, resolver->home);
  g_autofree char *token = NULL;
  g_autofree char *name = NULL;
  g_autofree char *endpoint = NULL;
  g_autofree char *shown = NULL;
  g_autoptr(GError) local_error = NULL;
  DynoAssumeRoleParams params = { 0 };
  DynoCredentials *creds;
  gsize len;

  if (!ctx->bypass_cache && (creds = cache_lookup (key)) != NULL)
    return creds;
  if (!g_file_get_contents (path, &token, &len, &local_error))
    {
      if (from_env)
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                     /* Translators: the system's message follows. */
                     _("Could not read the web identity token file named by "
                       "AWS_WEB_IDENTITY_TOKEN_FILE: %s"), local_error->message);
      else
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                     /* Translators: the profile, then the system's message. */
                     _("Could not read the web identity token file of the profile “%s”: %s"),
                     resolver->profile, local_error->message);
      return NULL;
    }
  g_strstrip (token);
  name = session_name != NULL && *session_name != '\0' ? g_strdup (session_name)
                                                       : default_session_name ();
  params.role_arn = role_arn;
  params.session_name = name;
  if (!from_env && !read_duration (resolver, &params.duration_seconds, error))
    return NULL;
  endpoint = sts_endpoint (ctx);
  creds = dyno_sts_assume_role_with_web_identity (endpoint, &params, token, ctx->cancellable,
                                                  &local_error);
  explicit_bzero (token, strlen (token));
  if (creds == NULL)
    {
      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && !from_env)
        g_prefix_error (&local_error, _("Profile “%s”: "), resolver->profile);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  return remember_credentials (ctx, key, creds, DYNO_CREDENTIAL_KIND_WEB_IDENTITY,
                               /* Translators: where credentials came from: the role ARN (web
                                * identity). */
                               g_strdup_printf (_("web identity role %s"), role_arn));
}

void
dyno_sso_config_free (DynoSsoConfig *config)
{
  if (config == NULL)
    return;
  g_free (config->profile);
  g_free (config->session_name);
  g_free (config->start_url);
  g_free (config->sso_region);
  g_strfreev (config->scopes);
  g_free (config->cache_path);
  g_free (config->oidc_endpoint);
  g_free (config);
}

static gboolean
profile_is_sso (Resolver *resolver)
{
  return profile_get (resolver, "sso_session", NULL, NULL) != NULL
         || profile_get (resolver, "sso_start_url", NULL, NULL) != NULL
         || profile_get (resolver, "sso_account_id", NULL, NULL) != NULL
         || profile_get (resolver, "sso_role_name", NULL, NULL) != NULL;
}

/* The sso-session section @name, or the profile's legacy settings when @name is NULL. */
static DynoSsoConfig *
sso_config (Resolver    *resolver,
            const char  *name,
            GError     **error)
{
  g_autoptr(DynoSsoConfig) config = g_new0 (DynoSsoConfig, 1);
  const char *scopes;

  config->profile = g_strdup (resolver->profile);
  if (name != NULL)
    {
      DynoAwsSection *section = dyno_aws_config_get_section (resolver->config,
                                                             DYNO_AWS_SECTION_SSO_SESSION, name);
      g_autofree char *shown = display_path (dyno_aws_config_get_filename (resolver->config),
                                             resolver->home);
      const char *missing = NULL;

      if (section == NULL)
        {
          if (resolver->profile != NULL)
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                         /* Translators: the profile, the session, the config file, then the
                          * session. */
                         _("The profile “%s” names the sso-session “%s”, but %s has no "
                           "[sso-session %s] section."), resolver->profile, name, shown, name);
          else
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                         /* Translators: the config file, then the session. */
                         _("%s has no [sso-session %s] section."), shown, name);
          return NULL;
        }
      config->session_name = g_strdup (name);
      config->start_url = g_strdup (dyno_aws_section_get (section, "sso_start_url"));
      config->sso_region = g_strdup (dyno_aws_section_get (section, "sso_region"));
      scopes = dyno_aws_section_get (section, "sso_registration_scopes");
      if (config->start_url == NULL || *config->start_url == '\0')
        missing = "sso_start_url";
      else if (config->sso_region == NULL || *config->sso_region == '\0')
        missing = "sso_region";
      if (missing != NULL)
        {
          g_autofree char *where = file_line (resolver, resolver->config,
                                              dyno_aws_section_get_line (section));

          if (resolver->profile != NULL)
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                         /* Translators: "FILE:LINE", the session, the profile, then the
                          * missing setting. */
                         _("%s: [sso-session %s], used by the profile “%s”, has no %s."), where,
                         name, resolver->profile, missing);
          else
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                         /* Translators: "FILE:LINE", the session, then the missing setting. */
                         _("%s: [sso-session %s] has no %s."), where, name, missing);
          return NULL;
        }
      config->cache_path = dyno_sso_cache_path (resolver->home, name);
    }
  else
    {
      const char *start_url = require (resolver, "sso_start_url", "sso_account_id", error);
      const char *region;

      if (start_url == NULL)
        return NULL;
      region = require (resolver, "sso_region", "sso_start_url", error);
      if (region == NULL)
        return NULL;
      config->start_url = g_strdup (start_url);
      config->sso_region = g_strdup (region);
      scopes = NULL;
      config->cache_path = dyno_sso_cache_path (resolver->home, start_url);
    }
  if (scopes != NULL && *scopes != '\0')
    {
      g_auto(GStrv) parts = g_strsplit (scopes, ",", -1);
      g_autoptr(GPtrArray) list = g_ptr_array_new ();

      for (guint i = 0; parts[i] != NULL; i++)
        if (*g_strstrip (parts[i]) != '\0')
          g_ptr_array_add (list, g_strdup (parts[i]));
      g_ptr_array_add (list, NULL);
      config->scopes = (char **) g_ptr_array_free (g_steal_pointer (&list), FALSE);
    }
  else if (name != NULL)
    config->scopes = g_strdupv ((char *[]) { (char *) "sso:account:access", NULL });
  else
    config->scopes = g_new0 (char *, 1);
  config->oidc_endpoint = service_endpoint (resolver, "SSO_OIDC", "sso_oidc",
                                            dyno_sso_oidc_default_endpoint (config->sso_region));
  return g_steal_pointer (&config);
}

static void
set_login_error (GError     **error,
                 const char  *profile,
                 const char  *why)
{
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
               /* Translators: the profile, why (such as "there is no cached sign-in"), then
                * the profile again. */
               _("The profile “%s” signs in through IAM Identity Center, and %s. Run "
                 "`dynotable-cli sso login --profile %s` (or `aws sso login --profile %s`)."),
               profile, why, profile, profile);
}

static DynoCredentials *
sso_credentials (Resolver  *resolver,
                 Ctx       *ctx,
                 GError   **error)
{
  g_autofree char *key = cache_key (resolver, ctx);
  g_autoptr(DynoSsoConfig) config = NULL;
  g_autoptr(DynoSsoToken) token = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *endpoint = NULL;
  g_autofree char *shown = NULL;
  const char *session = profile_get (resolver, "sso_session", NULL, NULL);
  const char *account;
  const char *role;
  DynoCredentials *creds;

  if (session != NULL && *session == '\0')
    session = NULL;
  account = require (resolver, "sso_account_id",
                     session != NULL ? "sso_session" : "sso_start_url", error);
  if (account == NULL)
    return NULL;
  role = require (resolver, "sso_role_name", "sso_account_id", error);
  if (role == NULL)
    return NULL;
  config = sso_config (resolver, session, error);
  if (config == NULL)
    return NULL;

  if (!ctx->bypass_cache && (creds = cache_lookup (key)) != NULL)
    return creds;

  token = dyno_sso_token_load (config->cache_path, error);
  if (token == NULL)
    {
      if (error == NULL || *error == NULL)
        set_login_error (error, resolver->profile, _("there is no cached sign-in"));
      return NULL;
    }
  {
    g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
    gint64 left = token->expires_at != NULL
                  ? g_date_time_difference (token->expires_at, now) / G_TIME_SPAN_SECOND : -1;
    gboolean can_refresh = token->refresh_token != NULL && token->client_id != NULL
                           && token->client_secret != NULL
                           && (token->registration_expires_at == NULL
                               || g_date_time_compare (token->registration_expires_at, now) > 0);

    if (left < REFRESH_MARGIN_S && can_refresh)
      {
        DynoOidcStatus status;

        status = dyno_oidc_create_token (config->oidc_endpoint, token->client_id,
                                         token->client_secret, "refresh_token",
                                         token->refresh_token, token, ctx->cancellable,
                                         &local_error);
        if (status == DYNO_OIDC_OK)
          {
            if (token->start_url == NULL)
              token->start_url = g_strdup (config->start_url);
            if (token->region == NULL)
              token->region = g_strdup (config->sso_region);
            if (!dyno_sso_token_save (config->cache_path, token, error))
              return NULL;
            left = 3600;
          }
        else
          {
            if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
              {
                g_propagate_error (error, g_steal_pointer (&local_error));
                return NULL;
              }
            g_debug ("profile %s: the SSO token could not be refreshed: %s", resolver->profile,
                     local_error != NULL ? local_error->message : "pending");
            g_clear_error (&local_error);
          }
      }
    if (left <= 0)
      {
        set_login_error (error, resolver->profile,
                         can_refresh ? _("its sign-in has expired and could not be renewed")
                                     : _("its sign-in has expired"));
        return NULL;
      }
  }

  endpoint = service_endpoint (ctx->top, "SSO", "sso",
                               dyno_sso_default_endpoint (config->sso_region));
  creds = dyno_sso_get_role_credentials (endpoint, token->access_token, account, role,
                                         ctx->cancellable, &local_error);
  if (creds == NULL)
    {
      if (g_error_matches (local_error, DYNO_ERROR, DYNO_ERROR_EXPIRED_TOKEN))
        set_login_error (error, resolver->profile,
                         _("IAM Identity Center no longer accepts its sign-in"));
      else
        {
          if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_prefix_error (&local_error, _("Profile “%s”: "), resolver->profile);
          g_propagate_error (error, g_steal_pointer (&local_error));
        }
      return NULL;
    }
  return remember_credentials (ctx, key, creds, DYNO_CREDENTIAL_KIND_SSO,
                               /* Translators: where credentials came from: the role, the
                                * account, then the profile. */
                               g_strdup_printf (_("IAM Identity Center role %s in %s "
                                                  "(profile %s)"), role, account,
                                                resolver->profile));
}

/* The credentials of a profile: a role (unless @as_source and it has keys of its own, as
 * botocore does for a source profile), web identity, IAM Identity Center, static keys in the
 * credentials file, credential_process, static keys in the config file.  Sets
 * ctx->kind.  NULL without an error when the profile names no credentials at all. */
static DynoCredentials *
profile_credentials (Resolver   *resolver,
                     Ctx        *ctx,
                     GPtrArray  *visited,
                     gboolean    as_source,
                     GError    **error)
{
  const char *role_arn = profile_get (resolver, "role_arn", NULL, NULL);
  const char *token_file = profile_get (resolver, "web_identity_token_file", NULL, NULL);
  const char *command;
  DynoCredentials *creds = NULL;
  GError *local_error = NULL;

  if (role_arn != NULL && *role_arn == '\0')
    role_arn = NULL;
  if (token_file != NULL && *token_file == '\0')
    token_file = NULL;

  if (role_arn != NULL && token_file == NULL && !(as_source && has_static_keys (resolver)))
    return assume_role (resolver, ctx, visited, as_source, error);

  if (token_file != NULL)
    {
      if (role_arn == NULL)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       _("The profile “%s” has web_identity_token_file but no role_arn: add "
                         "“role_arn = …” to it."), resolver->profile);
          return NULL;
        }
      return web_identity (resolver, ctx, token_file, role_arn,
                           profile_get (resolver, "role_session_name", NULL, NULL), FALSE, error);
    }
  if (!as_source && !ctx->explicit_profile
      && env_get (resolver->env, "AWS_WEB_IDENTITY_TOKEN_FILE") != NULL
      && env_get (resolver->env, "AWS_ROLE_ARN") != NULL)
    return web_identity (resolver, ctx, env_get (resolver->env, "AWS_WEB_IDENTITY_TOKEN_FILE"),
                         env_get (resolver->env, "AWS_ROLE_ARN"),
                         env_get (resolver->env, "AWS_ROLE_SESSION_NAME"), TRUE, error);

  if (profile_is_sso (resolver))
    return sso_credentials (resolver, ctx, error);

  if (static_keys (resolver, resolver->credentials, resolver->credentials_profile, &creds,
                   &local_error))
    {
      ctx->kind = DYNO_CREDENTIAL_KIND_KEYS;
      return creds;
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }

  command = profile_get (resolver, "credential_process", NULL, NULL);
  if (command != NULL && *command != '\0')
    {
      creds = run_credential_process (command, resolver->profile, resolver->env,
                                      ctx->cancellable, error);
      if (creds != NULL && !as_source)
        {
          ctx->kind = DYNO_CREDENTIAL_KIND_PROCESS;
          g_free (ctx->credential_process);
          ctx->credential_process = g_strdup (command);
        }
      return creds;
    }

  if (static_keys (resolver, resolver->config, resolver->config_profile, &creds, &local_error))
    {
      ctx->kind = DYNO_CREDENTIAL_KIND_KEYS;
      return creds;
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  if (as_source)
    g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                 _("The source profile “%s” has no credentials (no keys, role, "
                   "credential_process or IAM Identity Center settings)."), resolver->profile);
  return NULL;
}

/* Sets *@none_found when nothing anywhere names credentials (as opposed to credentials that
 * are there but broken): only then may a local endpoint fall back to the fixed local key. */
static DynoCredentials *
resolve_credentials (Resolver                     *resolver,
                     const DynoConnectionSettings *settings,
                     Ctx                          *ctx,
                     gboolean                     *none_found,
                     GError                      **error)
{
  g_autoptr(GString) looked = g_string_new (NULL);
  g_autofree char *config_shown = NULL;
  g_autofree char *credentials_shown = NULL;
  DynoCredentials *creds = NULL;
  GError *local_error = NULL;
  const char *akid;
  const char *secret;

  /* 1. Keys given with the connection. */
  akid = settings->access_key_id;
  secret = settings->secret_access_key;
  if ((akid != NULL && *akid != '\0') || (secret != NULL && *secret != '\0'))
    {
      if (akid == NULL || *akid == '\0' || secret == NULL || *secret == '\0')
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       /* Translators: "an access key ID" or "a secret access key", then the
                        * other one. */
                       _("The connection has %s but no %s."),
                       akid != NULL && *akid != '\0' ? _("an access key ID")
                                                     : _("a secret access key"),
                       akid != NULL && *akid != '\0' ? _("secret access key")
                                                     : _("access key ID"));
          return NULL;
        }
      creds = dyno_credentials_new (akid, secret, settings->session_token, NULL);
      dyno_credentials_set_source (creds, _("connection"));
      ctx->kind = DYNO_CREDENTIAL_KIND_CONNECTION;
      return creds;
    }
  g_string_append (looked, _("the connection settings"));

  /* 2. The environment, unless the connection names a profile (botocore skips the
   * environment keys for a profile given in code). */
  if (settings->profile == NULL || *settings->profile == '\0')
    {
      const char *token;
      const char *expiration_text;
      g_autoptr(GDateTime) expiration = NULL;

      akid = env_get (resolver->env, "AWS_ACCESS_KEY_ID");
      secret = env_get (resolver->env, "AWS_SECRET_ACCESS_KEY");
      if (akid != NULL || secret != NULL)
        {
          if (akid == NULL || secret == NULL)
            {
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                           /* Translators: two environment variable names. */
                           _("%s is set in the environment but %s is not."),
                           akid != NULL ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
                           akid != NULL ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
              return NULL;
            }
          token = env_get (resolver->env, "AWS_SESSION_TOKEN");
          if (token == NULL)
            token = env_get (resolver->env, "AWS_SECURITY_TOKEN");
          expiration_text = env_get (resolver->env, "AWS_CREDENTIAL_EXPIRATION");
          if (expiration_text != NULL)
            {
              g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();

              expiration = g_date_time_new_from_iso8601 (expiration_text, utc);
              if (expiration == NULL)
                {
                  g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                               _("AWS_CREDENTIAL_EXPIRATION is not an ISO 8601 time: “%s”."),
                               expiration_text);
                  return NULL;
                }
            }
          creds = dyno_credentials_new (akid, secret, token, expiration);
          dyno_credentials_set_source (creds, _("environment"));
          ctx->kind = DYNO_CREDENTIAL_KIND_ENVIRONMENT;
          return creds;
        }
      g_string_append (looked, _(", the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)"));
    }

  /* 3. The profile (botocore's order: role, web identity, IAM Identity Center, keys in the
   * credentials file, credential_process, keys in the config file). */
  {
    g_autoptr(GPtrArray) visited = g_ptr_array_new ();

    creds = profile_credentials (resolver, ctx, visited, FALSE, &local_error);
    if (creds != NULL)
      return creds;
    if (local_error != NULL)
      {
        g_propagate_error (error, local_error);
        return NULL;
      }
  }

  credentials_shown = display_path (dyno_aws_config_get_filename (resolver->credentials),
                                    resolver->home);
  config_shown = display_path (dyno_aws_config_get_filename (resolver->config), resolver->home);
  /* Translators: the profile, the credentials file, " (no such file)" or nothing, the config
   * file, " (no such file)" or nothing. */
  g_string_append_printf (looked, _(", profile “%s” in %s%s and in %s%s"), resolver->profile,
                          credentials_shown,
                          dyno_aws_config_get_exists (resolver->credentials)
                          ? "" : _(" (no such file)"),
                          config_shown,
                          dyno_aws_config_get_exists (resolver->config)
                          ? "" : _(" (no such file)"));
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
               _("No AWS credentials were found. DynoTable looked in %s."), looked->str);
  *none_found = TRUE;
  return NULL;
}

static void
set_profile_not_found (GError     **error,
                       const char  *profile,
                       const char  *from,
                       const char  *config_path,
                       const char  *credentials_path,
                       const char  *home)
{
  g_autofree char *config_shown = display_path (config_path, home);
  g_autofree char *credentials_shown = display_path (credentials_path, home);

  g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
               /* Translators: the profile, where its name came from, the config file, the
                * profile, the credentials file, then the profile. */
               _("The profile “%s” (from %s) was not found: neither %s has [profile %s] nor "
                 "%s has [%s]."), profile, from, config_shown, profile, credentials_shown,
               profile);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The config and credentials files, as AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE say. */
static void
aws_file_paths (char       **env,
                const char  *home,
                char       **config_path,
                char       **credentials_path)
{
  const char *value;

  value = env_get (env, "AWS_CONFIG_FILE");
  *config_path = value != NULL ? expand_home (value, home)
                               : g_build_filename (home, ".aws", "config", NULL);
  value = env_get (env, "AWS_SHARED_CREDENTIALS_FILE");
  *credentials_path = value != NULL ? expand_home (value, home)
                                    : g_build_filename (home, ".aws", "credentials", NULL);
}

static const char *
env_home (char **env)
{
  const char *home = g_environ_getenv (env, "HOME");

  return home != NULL && *home != '\0' ? home : g_get_home_dir ();
}

/* Points @resolver at @env and loads the config and credentials files it names (their paths
 * into @config_path and @credentials_path; the files into @config and @credentials, which the
 * caller owns and @resolver borrows). */
static gboolean
resolver_load_files (Resolver       *resolver,
                     char          **env,
                     DynoAwsConfig **config,
                     DynoAwsConfig **credentials,
                     char          **config_path,
                     char          **credentials_path,
                     GError        **error)
{
  resolver->env = env;
  resolver->home = env_home (env);
  aws_file_paths (env, resolver->home, config_path, credentials_path);
  *config = dyno_aws_config_load (*config_path, DYNO_AWS_FILE_CONFIG, error);
  if (*config == NULL)
    return FALSE;
  *credentials = dyno_aws_config_load (*credentials_path, DYNO_AWS_FILE_CREDENTIALS, error);
  if (*credentials == NULL)
    return FALSE;
  resolver->config = *config;
  resolver->credentials = *credentials;
  return TRUE;
}

GStrv
dyno_aws_list_profiles (char    **env,
                        GError  **error)
{
  g_auto(GStrv) own_env = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *credentials_path = NULL;
  g_autoptr(DynoAwsConfig) config = NULL;
  g_autoptr(DynoAwsConfig) credentials = NULL;
  g_auto(GStrv) from_config = NULL;
  g_auto(GStrv) from_credentials = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (env == NULL)
    env = own_env = g_get_environ ();
  aws_file_paths (env, env_home (env), &config_path, &credentials_path);
  config = dyno_aws_config_load (config_path, DYNO_AWS_FILE_CONFIG, error);
  if (config == NULL)
    return NULL;
  credentials = dyno_aws_config_load (credentials_path, DYNO_AWS_FILE_CREDENTIALS, error);
  if (credentials == NULL)
    return NULL;

  from_config = dyno_aws_config_dup_profile_names (config);
  from_credentials = dyno_aws_config_dup_profile_names (credentials);
  for (guint i = 0; from_config[i] != NULL; i++)
    g_ptr_array_add (names, from_config[i]);
  for (guint i = 0; from_credentials[i] != NULL; i++)
    if (!g_strv_contains ((const char * const *) from_config, from_credentials[i]))
      g_ptr_array_add (names, from_credentials[i]);
  g_ptr_array_sort (names, (GCompareFunc) compare_names);
  g_ptr_array_add (names, NULL);

  return g_strdupv ((char **) names->pdata);
}

gboolean
dyno_aws_check_profile (char        **env,
                        const char   *profile,
                        const char   *from,
                        GError      **error)
{
  g_auto(GStrv) own_env = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *credentials_path = NULL;

  g_return_val_if_fail (profile != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (env == NULL)
    env = own_env = g_get_environ ();
  names = dyno_aws_list_profiles (env, error);
  if (names == NULL)
    return FALSE;
  if (g_strv_contains ((const char * const *) names, profile))
    return TRUE;

  aws_file_paths (env, env_home (env), &config_path, &credentials_path);
  set_profile_not_found (error, profile, from, config_path, credentials_path, env_home (env));
  return FALSE;
}

static DynoResolvedConfig *
resolve_config (const DynoConnectionSettings *settings,
                char                        **env,
                gboolean                      bypass_cache,
                GCancellable                 *cancellable,
                GError                      **error)
{
  static const DynoConnectionSettings no_settings = { 0 };
  g_autoptr(DynoResolvedConfig) result = NULL;
  g_autoptr(DynoAwsConfig) config = NULL;
  g_autoptr(DynoAwsConfig) credentials = NULL;
  g_auto(GStrv) own_env = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *credentials_path = NULL;
  g_autofree char *profile_from = NULL;
  Resolver resolver = { 0 };
  const char *value;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (settings == NULL)
    settings = &no_settings;
  if (env == NULL)
    env = own_env = g_get_environ ();
  resolver.env = env;
  resolver.home = env_home (env);

  /* Which profile: the connection's, then AWS_PROFILE, then AWS_DEFAULT_PROFILE. */
  if (settings->profile != NULL && *settings->profile != '\0')
    {
      resolver.profile = settings->profile;
      profile_from = g_strdup ("the connection");
    }
  else if ((value = env_get (env, "AWS_PROFILE")) != NULL)
    {
      resolver.profile = value;
      profile_from = g_strdup ("AWS_PROFILE");
    }
  else if ((value = env_get (env, "AWS_DEFAULT_PROFILE")) != NULL)
    {
      resolver.profile = value;
      profile_from = g_strdup ("AWS_DEFAULT_PROFILE");
    }
  else
    resolver.profile = "default";

  if (!resolver_load_files (&resolver, env, &config, &credentials, &config_path,
                            &credentials_path, error))
    return NULL;
  resolver_for_profile (&resolver, resolver.profile, &resolver);

  if (profile_from != NULL && resolver.config_profile == NULL
      && resolver.credentials_profile == NULL)
    {
      set_profile_not_found (error, resolver.profile, profile_from, config_path,
                             credentials_path, resolver.home);
      return NULL;
    }

  result = g_new0 (DynoResolvedConfig, 1);
  if (resolver.config_profile != NULL || resolver.credentials_profile != NULL)
    result->profile = g_strdup (resolver.profile);

  if (!resolve_endpoint (&resolver, settings, &result->endpoint_url, error))
    return NULL;
  if (!resolve_region (&resolver, settings, result->endpoint_url != NULL, &result->region, error))
    return NULL;
  {
    gboolean fips;
    gboolean dual_stack;

    if (!resolve_flag (&resolver, "AWS_USE_FIPS_ENDPOINT", "use_fips_endpoint", &fips, error)
        || !resolve_flag (&resolver, "AWS_USE_DUALSTACK_ENDPOINT", "use_dualstack_endpoint",
                          &dual_stack, error))
      return NULL;
    result->endpoint_flags = (fips ? DYNO_ENDPOINT_FIPS : 0)
                             | (dual_stack ? DYNO_ENDPOINT_DUAL_STACK : 0);
  }
  {
    g_autoptr(GError) local_error = NULL;
    gboolean none_found = FALSE;
    Ctx ctx = { 0 };

    ctx.top = &resolver;
    ctx.region = result->region;
    ctx.explicit_profile = settings->profile != NULL && *settings->profile != '\0';
    ctx.bypass_cache = bypass_cache;
    ctx.cancellable = cancellable;
    result->credentials = resolve_credentials (&resolver, settings, &ctx, &none_found,
                                               &local_error);
    result->credential_process = g_steal_pointer (&ctx.credential_process);
    result->kind = ctx.kind;
    if (ctx.explicit_profile)
      result->explicit_profile = g_strdup (settings->profile);
    if (result->credentials == NULL && none_found
        && (dyno_endpoint_is_local_url (result->endpoint_url) || g_str_equal (result->region, "local")))
      {
        /* DynamoDB Local takes any key; with no credentials configured anywhere, sign with
         * DynoTable's own rather than refuse (the AWS CLI would refuse: it has no such key). */
        result->credentials = dyno_credentials_new (DYNO_LOCAL_ACCESS_KEY_ID,
                                                    DYNO_LOCAL_SECRET_ACCESS_KEY, NULL, NULL);
        dyno_credentials_set_source (result->credentials,
                                     _("DynoTable’s local key (no credentials are configured)"));
        result->kind = DYNO_CREDENTIAL_KIND_LOCAL;
        g_clear_error (&local_error);
      }
    if (result->credentials == NULL)
      {
        g_propagate_error (error, g_steal_pointer (&local_error));
        return NULL;
      }
  }
  return g_steal_pointer (&result);
}

DynoResolvedConfig *
dyno_resolve_config (const DynoConnectionSettings *settings,
                     char                        **env,
                     GCancellable                 *cancellable,
                     GError                      **error)
{
  return resolve_config (settings, env, FALSE, cancellable, error);
}

/* ------------------------------------------------------------------------------------------ */
/* Async */

typedef struct {
  DynoConnectionSettings settings;
  char                 **env;
} ResolveData;

static void
resolve_data_free (gpointer data)
{
  ResolveData *rd = data;

  g_free (rd->settings.profile);
  g_free (rd->settings.region);
  g_free (rd->settings.endpoint_url);
  g_free (rd->settings.access_key_id);
  dyno_secret_free (rd->settings.secret_access_key);
  dyno_secret_free (rd->settings.session_token);
  g_strfreev (rd->env);
  g_free (rd);
}

static void
resolve_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  ResolveData *rd = task_data;
  GError *error = NULL;
  DynoResolvedConfig *config;

  config = dyno_resolve_config (&rd->settings, rd->env, cancellable, &error);
  if (config == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, config, (GDestroyNotify) dyno_resolved_config_free);
}

void
dyno_resolve_config_async (const DynoConnectionSettings *settings,
                           GCancellable                 *cancellable,
                           GAsyncReadyCallback           callback,
                           gpointer                      user_data)
{
  g_autoptr(GTask) task = NULL;
  ResolveData *rd;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_resolve_config_async);

  rd = g_new0 (ResolveData, 1);
  if (settings != NULL)
    {
      rd->settings.profile = g_strdup (settings->profile);
      rd->settings.region = g_strdup (settings->region);
      rd->settings.endpoint_url = g_strdup (settings->endpoint_url);
      rd->settings.access_key_id = g_strdup (settings->access_key_id);
      rd->settings.secret_access_key = g_strdup (settings->secret_access_key);
      rd->settings.session_token = g_strdup (settings->session_token);
    }
  rd->env = g_get_environ ();
  g_task_set_task_data (task, rd, resolve_data_free);
  g_task_run_in_thread (task, resolve_thread);
}

DynoResolvedConfig *
dyno_resolve_config_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyno_resolve_config_async,
                        NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

DynoCredentials *
dyno_credentials_refresh (const DynoResolvedConfig  *config,
                          char                     **env,
                          GCancellable              *cancellable,
                          GError                   **error)
{
  g_auto(GStrv) own_env = NULL;

  g_return_val_if_fail (config != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!dyno_resolved_config_can_refresh (config))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("These credentials (%s) cannot be refreshed: they do not come from a "
                     "credential_process, a role or IAM Identity Center."),
                   config->credentials != NULL
                   && dyno_credentials_get_source (config->credentials) != NULL
                   ? dyno_credentials_get_source (config->credentials) : _("unknown source"));
      return NULL;
    }
  if (env == NULL)
    env = own_env = g_get_environ ();
  if (config->credential_process != NULL)
    return run_credential_process (config->credential_process,
                                   config->profile != NULL ? config->profile : "default",
                                   env, cancellable, error);
  {
    DynoConnectionSettings settings = { 0 };
    g_autoptr(DynoResolvedConfig) again = NULL;

    settings.profile = config->explicit_profile;
    settings.region = config->region;
    settings.endpoint_url = config->endpoint_url;
    again = resolve_config (&settings, env, TRUE, cancellable, error);
    if (again == NULL)
      return NULL;
    return g_steal_pointer (&again->credentials);
  }
}

char *
dyno_sso_cache_dir (char **env)
{
  g_auto(GStrv) own_env = NULL;

  if (env == NULL)
    env = own_env = g_get_environ ();
  return g_build_filename (env_home (env), ".aws", "sso", "cache", NULL);
}

DynoSsoConfig *
dyno_sso_config_lookup (char       **env,
                        const char  *profile,
                        const char  *session,
                        GError     **error)
{
  g_auto(GStrv) own_env = NULL;
  g_autoptr(DynoAwsConfig) config = NULL;
  g_autoptr(DynoAwsConfig) credentials = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *credentials_path = NULL;
  Resolver resolver = { 0 };
  const char *value;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (env == NULL)
    env = own_env = g_get_environ ();
  if (!resolver_load_files (&resolver, env, &config, &credentials, &config_path,
                            &credentials_path, error))
    return NULL;

  if (session != NULL)
    return sso_config (&resolver, session, error);

  if (profile != NULL && *profile != '\0')
    resolver.profile = profile;
  else if ((value = env_get (env, "AWS_PROFILE")) != NULL)
    resolver.profile = value;
  else
    resolver.profile = "default";
  resolver_for_profile (&resolver, resolver.profile, &resolver);
  if (resolver.config_profile == NULL && resolver.credentials_profile == NULL)
    {
      set_profile_not_found (error, resolver.profile, "--profile", config_path,
                             credentials_path, resolver.home);
      return NULL;
    }
  value = profile_get (&resolver, "sso_session", NULL, NULL);
  if (value != NULL && *value != '\0')
    return sso_config (&resolver, value, error);
  if (profile_get (&resolver, "sso_start_url", NULL, NULL) == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The profile “%s” does not sign in through IAM Identity Center: it has "
                     "neither sso_session nor sso_start_url."), resolver.profile);
      return NULL;
    }
  return sso_config (&resolver, NULL, error);
}

DynoCredentialKind
dyno_aws_profile_kind (char       **env,
                       const char  *profile)
{
  g_auto(GStrv) own_env = NULL;
  g_autoptr(DynoAwsConfig) config = NULL;
  g_autoptr(DynoAwsConfig) credentials = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *credentials_path = NULL;
  Resolver resolver = { 0 };
  const char *value;

  g_return_val_if_fail (profile != NULL, DYNO_CREDENTIAL_KIND_NONE);

  if (env == NULL)
    env = own_env = g_get_environ ();
  if (!resolver_load_files (&resolver, env, &config, &credentials, &config_path,
                            &credentials_path, NULL))
    return DYNO_CREDENTIAL_KIND_NONE;
  resolver_for_profile (&resolver, profile, &resolver);
  if (resolver.config_profile == NULL && resolver.credentials_profile == NULL)
    return DYNO_CREDENTIAL_KIND_NONE;

  value = profile_get (&resolver, "web_identity_token_file", NULL, NULL);
  if (value != NULL && *value != '\0')
    return DYNO_CREDENTIAL_KIND_WEB_IDENTITY;
  value = profile_get (&resolver, "role_arn", NULL, NULL);
  if (value != NULL && *value != '\0')
    return DYNO_CREDENTIAL_KIND_ROLE;
  if (profile_is_sso (&resolver))
    return DYNO_CREDENTIAL_KIND_SSO;
  if (resolver.credentials_profile != NULL
      && dyno_aws_section_get (resolver.credentials_profile, "aws_access_key_id") != NULL)
    return DYNO_CREDENTIAL_KIND_KEYS;
  value = profile_get (&resolver, "credential_process", NULL, NULL);
  if (value != NULL && *value != '\0')
    return DYNO_CREDENTIAL_KIND_PROCESS;
  if (has_static_keys (&resolver))
    return DYNO_CREDENTIAL_KIND_KEYS;
  return DYNO_CREDENTIAL_KIND_NONE;
}

const char *
dyno_credential_kind_get_label (DynoCredentialKind kind)
{
  switch (kind)
    {
    case DYNO_CREDENTIAL_KIND_CONNECTION:
      return _("the connection’s keys");
    case DYNO_CREDENTIAL_KIND_ENVIRONMENT:
      return _("environment");
    case DYNO_CREDENTIAL_KIND_KEYS:
      return _("access keys");
    case DYNO_CREDENTIAL_KIND_PROCESS:
      return "credential_process";
    case DYNO_CREDENTIAL_KIND_ROLE:
      return _("role");
    case DYNO_CREDENTIAL_KIND_WEB_IDENTITY:
      return _("web identity");
    case DYNO_CREDENTIAL_KIND_SSO:
      return _("IAM Identity Center");
    case DYNO_CREDENTIAL_KIND_LOCAL:
      return _("DynoTable’s local key");
    case DYNO_CREDENTIAL_KIND_NONE:
    default:
      return _("no credentials");
    }
}

#define DEVICE_GRANT "urn:ietf:params:oauth:grant-type:device_code"

/* Sleeps @seconds unless @cancellable is cancelled first (then FALSE). */
static gboolean
sleep_cancellable (gint64        seconds,
                   GCancellable *cancellable)
{
  gint64 end = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;

  for (;;)
    {
      gint64 left = end - g_get_monotonic_time ();

      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      if (left <= 0)
        return TRUE;
      g_usleep ((gulong) MIN (left, 100000));
    }
}

gboolean
dyno_sso_login (const DynoSsoConfig *config,
                DynoSsoLoginPrompt   prompt,
                gpointer             user_data,
                GDateTime          **until,
                GCancellable        *cancellable,
                GError             **error)
{
  g_autofree char *client_name = NULL;
  g_autoptr(GDateTime) deadline = NULL;
  g_autoptr(DynoSsoToken) token = g_new0 (DynoSsoToken, 1);
  DynoOidcClient client = { 0 };
  DynoOidcDeviceAuth auth = { 0 };
  gboolean ok = FALSE;
  gint64 interval;

  g_return_val_if_fail (config != NULL, FALSE);

  client_name = g_strdup_printf ("dynotable-%" G_GINT64_FORMAT,
                                 g_get_real_time () / G_USEC_PER_SEC);
  if (!dyno_oidc_register_client (config->oidc_endpoint, client_name,
                                  (const char * const *) config->scopes, &client, cancellable,
                                  error)
      || !dyno_oidc_start_device_authorization (config->oidc_endpoint, &client,
                                                config->start_url, &auth, cancellable, error))
    goto out;

  if (prompt != NULL)
    prompt (auth.verification_uri_complete != NULL ? auth.verification_uri_complete
                                                   : auth.verification_uri,
            auth.user_code, user_data);

  {
    g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

    deadline = g_date_time_add_seconds (now, (gdouble) auth.expires_in);
  }
  interval = auth.interval;
  for (;;)
    {
      g_autoptr(GDateTime) now = NULL;
      DynoOidcStatus status;

      status = dyno_oidc_create_token (config->oidc_endpoint, client.client_id,
                                       client.client_secret, DEVICE_GRANT, auth.device_code,
                                       token, cancellable, error);
      if (status == DYNO_OIDC_OK)
        break;
      if (status == DYNO_OIDC_FAILED)
        goto out;
      if (status == DYNO_OIDC_SLOW_DOWN)
        interval += 5;
      now = g_date_time_new_now_utc ();
      if (g_date_time_compare (now, deadline) >= 0)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_EXPIRED_TOKEN,
                       _("The sign-in to %s was not approved in time. Sign in again."),
                       config->start_url);
          goto out;
        }
      if (!sleep_cancellable (interval, cancellable))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The sign-in was cancelled."));
          goto out;
        }
    }

  token->client_id = g_strdup (client.client_id);
  token->client_secret = g_strdup (client.client_secret);
  if (client.client_secret_expires_at > 0)
    token->registration_expires_at = g_date_time_new_from_unix_utc (client.client_secret_expires_at);
  token->region = g_strdup (config->sso_region);
  token->start_url = g_strdup (config->start_url);
  if (!dyno_sso_token_save (config->cache_path, token, error))
    goto out;
  if (until != NULL)
    *until = g_date_time_ref (token->expires_at);
  /* Signing in again starts from the new token, not from credentials kept in memory. */
  dyno_credentials_clear_cache ();
  ok = TRUE;

out:
  dyno_oidc_client_clear (&client);
  dyno_oidc_device_auth_clear (&auth);
  return ok;
}
