/* dyno-credentials.c: AWS credentials and their resolution as the SDKs do it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-credentials.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <string.h>

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
static void
free_secret (char *secret)
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
  free_secret (creds->secret_access_key);
  free_secret (creds->session_token);
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
  g_free (config);
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

/* Profiles whose credentials come from somewhere DynoTable cannot reach yet: failing here is
 * better than quietly using other keys than the ones the profile asks for. */
static gboolean
check_unsupported (Resolver  *resolver,
                   GError   **error)
{
  static const struct {
    const char *key;
    const char *what;
  } unsupported[] = {
    { "role_arn", N_("assume role") },
    { "web_identity_token_file", N_("web identity") },
    { "sso_session", N_("IAM Identity Center (SSO)") },
    { "sso_start_url", N_("IAM Identity Center (SSO)") },
    { "sso_account_id", N_("IAM Identity Center (SSO)") },
    { "sso_role_name", N_("IAM Identity Center (SSO)") },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (unsupported); i++)
    {
      DynoAwsConfig *file = NULL;
      guint line = 0;

      if (profile_get (resolver, unsupported[i].key, &file, &line) != NULL)
        {
          g_autofree char *where = file_line (resolver, file, line);

          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       /* Translators: the profile, the kind of credentials (such as "assume
                        * role"), the setting, then "FILE:LINE". */
                       _("The profile “%s” gets its credentials through %s (%s at %s), which "
                         "DynoTable does not support yet. Use a profile with access keys or "
                         "credential_process, or set AWS_ACCESS_KEY_ID and "
                         "AWS_SECRET_ACCESS_KEY."),
                       resolver->profile, _(unsupported[i].what), unsupported[i].key, where);
          return FALSE;
        }
    }
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

static const char *
json_string_member (JsonObject *object,
                    const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
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
  akid = json_string_member (object, "AccessKeyId");
  secret = json_string_member (object, "SecretAccessKey");
  token = json_string_member (object, "SessionToken");
  expiration_text = json_string_member (object, "Expiration");
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

/* Sets *@none_found when nothing anywhere names credentials (as opposed to credentials that
 * are there but broken): only then may a local endpoint fall back to the fixed local key. */
static DynoCredentials *
resolve_credentials (Resolver                     *resolver,
                     const DynoConnectionSettings *settings,
                     char                        **credential_process,
                     gboolean                     *none_found,
                     GCancellable                 *cancellable,
                     GError                      **error)
{
  g_autoptr(GString) looked = g_string_new (NULL);
  g_autofree char *config_shown = NULL;
  g_autofree char *credentials_shown = NULL;
  DynoCredentials *creds = NULL;
  GError *local_error = NULL;
  const char *akid;
  const char *secret;
  const char *command;

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
          return creds;
        }
      g_string_append (looked, _(", the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)"));
    }

  /* 3. The profile: what it cannot do, then static keys in the credentials file,
   * credential_process, static keys in the config file (botocore's order). */
  if (!check_unsupported (resolver, error))
    return NULL;

  if (static_keys (resolver, resolver->credentials, resolver->credentials_profile, &creds,
                   &local_error))
    return creds;
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }

  command = profile_get (resolver, "credential_process", NULL, NULL);
  if (command != NULL && *command != '\0')
    {
      creds = run_credential_process (command, resolver->profile, resolver->env, cancellable,
                                      error);
      if (creds != NULL)
        *credential_process = g_strdup (command);
      return creds;
    }

  if (static_keys (resolver, resolver->config, resolver->config_profile, &creds, &local_error))
    return creds;
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
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

DynoResolvedConfig *
dyno_resolve_config (const DynoConnectionSettings *settings,
                     char                        **env,
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

  aws_file_paths (env, resolver.home, &config_path, &credentials_path);

  config = dyno_aws_config_load (config_path, DYNO_AWS_FILE_CONFIG, error);
  if (config == NULL)
    return NULL;
  credentials = dyno_aws_config_load (credentials_path, DYNO_AWS_FILE_CREDENTIALS, error);
  if (credentials == NULL)
    return NULL;
  resolver.config = config;
  resolver.credentials = credentials;
  resolver.config_profile = dyno_aws_config_get_section (config, DYNO_AWS_SECTION_PROFILE,
                                                         resolver.profile);
  resolver.credentials_profile = dyno_aws_config_get_section (credentials,
                                                              DYNO_AWS_SECTION_PROFILE,
                                                              resolver.profile);

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

    result->credentials = resolve_credentials (&resolver, settings, &result->credential_process,
                                               &none_found, cancellable, &local_error);
    if (result->credentials == NULL && none_found
        && (dyno_endpoint_is_local_url (result->endpoint_url) || g_str_equal (result->region, "local")))
      {
        /* DynamoDB Local takes any key; with no credentials configured anywhere, sign with
         * DynoTable's own rather than refuse (the AWS CLI would refuse: it has no such key). */
        result->credentials = dyno_credentials_new (DYNO_LOCAL_ACCESS_KEY_ID,
                                                    DYNO_LOCAL_SECRET_ACCESS_KEY, NULL, NULL);
        dyno_credentials_set_source (result->credentials,
                                     _("DynoTable’s local key (no credentials are configured)"));
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
  free_secret (rd->settings.secret_access_key);
  free_secret (rd->settings.session_token);
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

  if (config->credential_process == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("These credentials (%s) cannot be refreshed: they do not come from a "
                     "credential_process."),
                   config->credentials != NULL
                   && dyno_credentials_get_source (config->credentials) != NULL
                   ? dyno_credentials_get_source (config->credentials) : _("unknown source"));
      return NULL;
    }
  if (env == NULL)
    env = own_env = g_get_environ ();
  return run_credential_process (config->credential_process,
                                 config->profile != NULL ? config->profile : "default",
                                 env, cancellable, error);
}
