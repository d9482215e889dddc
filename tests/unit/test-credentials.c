/* test-credentials.c: credentials, region and endpoint resolution (dynamodb-facts.md §7)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <string.h>

#include "dyno-aws-auth.h"
#include "dyno-credentials.h"
#include "dyno-endpoints.h"
#include "dyno-error.h"

/* Every test gets its own HOME with .aws/ in a temporary directory; the real ~/.aws is
 * never read because HOME comes from the env array. */
typedef struct {
  char  *home;
  char  *aws_dir;
  char **env;
} Fixture;

static void
rm_rf (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            rm_rf (child);
          else
            g_unlink (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->home = g_dir_make_tmp ("dyno-creds-XXXXXX", &error);
  g_assert_no_error (error);
  f->aws_dir = g_build_filename (f->home, ".aws", NULL);
  g_assert_cmpint (g_mkdir (f->aws_dir, 0700), ==, 0);
  f->env = g_environ_setenv (NULL, "HOME", f->home, TRUE);
  f->env = g_environ_setenv (f->env, "PATH", "/usr/bin:/bin", TRUE);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  rm_rf (f->home);
  g_free (f->home);
  g_free (f->aws_dir);
  g_strfreev (f->env);
}

static void
setenv_f (Fixture    *f,
          const char *name,
          const char *value)
{
  f->env = g_environ_setenv (f->env, name, value, TRUE);
}

static char *
write_file (Fixture    *f,
            const char *name,
            const char *contents)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (f->home, name, NULL);

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

static void
write_config (Fixture    *f,
              const char *contents)
{
  g_autofree char *path = write_file (f, ".aws/config", contents);
}

static void
write_credentials (Fixture    *f,
                   const char *contents)
{
  g_autofree char *path = write_file (f, ".aws/credentials", contents);
}

/* An executable shell script in HOME. */
static char *
write_script (Fixture    *f,
              const char *name,
              const char *body)
{
  g_autofree char *text = g_strconcat ("#!/bin/sh\n", body, NULL);
  char *path = write_file (f, name, text);

  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

static DynoResolvedConfig *
resolve_ok (Fixture                      *f,
            const DynoConnectionSettings *settings)
{
  g_autoptr(GError) error = NULL;
  DynoResolvedConfig *config = dyno_resolve_config (settings, f->env, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (config);
  g_assert_nonnull (config->region);
  g_assert_nonnull (config->credentials);
  return config;
}

static GError *
resolve_error (Fixture                      *f,
               const DynoConnectionSettings *settings)
{
  GError *error = NULL;
  DynoResolvedConfig *config = dyno_resolve_config (settings, f->env, NULL, &error);

  g_assert_null (config);
  g_assert_nonnull (error);
  g_test_message ("error: %s", error->message);
  return error;
}

#define assert_contains(haystack, needle) \
  G_STMT_START { \
    if (strstr ((haystack), (needle)) == NULL) \
      g_error ("“%s” does not contain “%s”", (haystack), (needle)); \
  } G_STMT_END

/* ---- the credentials object ------------------------------------------------------------ */

static void
test_credentials_object (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) soon = g_date_time_add_seconds (now, 120);
  g_autoptr(DynoCredentials) plain = dyno_credentials_new ("AKID", "SECRET", NULL, NULL);
  g_autoptr(DynoCredentials) temp = NULL;
  DynoCredentials *ref;

  temp = dyno_credentials_new ("AKID", "SECRET", "TOKEN", soon);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (temp), ==, "AKID");
  g_assert_cmpstr (dyno_credentials_get_secret_access_key (temp), ==, "SECRET");
  g_assert_cmpstr (dyno_credentials_get_session_token (temp), ==, "TOKEN");
  g_assert_true (dyno_credentials_get_expiration (temp) == soon);
  g_assert_false (dyno_credentials_is_expiring (temp, 10));
  g_assert_true (dyno_credentials_is_expiring (temp, 300));
  g_assert_false (dyno_credentials_is_expiring (plain, 1000000));
  g_assert_null (dyno_credentials_get_session_token (plain));
  g_assert_null (dyno_credentials_get_source (plain));
  dyno_credentials_set_source (plain, "keyring");
  g_assert_cmpstr (dyno_credentials_get_source (plain), ==, "keyring");

  ref = dyno_credentials_ref (plain);
  g_assert_true (ref == plain);
  dyno_credentials_unref (ref);
  g_assert_true (G_TYPE_IS_BOXED (DYNO_TYPE_CREDENTIALS));
}

/* ---- explicit and environment ----------------------------------------------------------- */

static void
test_explicit_keys (Fixture       *f,
                    gconstpointer  data)
{
  DynoConnectionSettings settings = {
    .region = (char *) "eu-west-1",
    .access_key_id = (char *) "AKIAEXPLICIT",
    .secret_access_key = (char *) "explicit-secret",
  };
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  setenv_f (f, "AWS_ACCESS_KEY_ID", "AKIAENV");
  setenv_f (f, "AWS_SECRET_ACCESS_KEY", "env-secret");
  write_credentials (f, "[default]\naws_access_key_id = AKIAFILE\naws_secret_access_key = s\n");

  config = resolve_ok (f, &settings);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (config->credentials), ==, "AKIAEXPLICIT");
  g_assert_cmpstr (dyno_credentials_get_source (config->credentials), ==, "connection");
  g_assert_cmpstr (config->region, ==, "eu-west-1");
  g_assert_null (config->credential_process);

  settings.secret_access_key = NULL;
  error = resolve_error (f, &settings);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, "secret access key");
}

static void
test_environment (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_autoptr(DynoResolvedConfig) legacy = NULL;

  setenv_f (f, "AWS_ACCESS_KEY_ID", "AKIAENV");
  setenv_f (f, "AWS_SECRET_ACCESS_KEY", "env-secret");
  setenv_f (f, "AWS_SESSION_TOKEN", "env-token");
  setenv_f (f, "AWS_REGION", "ap-south-1");
  write_credentials (f, "[default]\naws_access_key_id = AKIAFILE\naws_secret_access_key = s\n");

  config = resolve_ok (f, NULL);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (config->credentials), ==, "AKIAENV");
  g_assert_cmpstr (dyno_credentials_get_secret_access_key (config->credentials), ==,
                   "env-secret");
  g_assert_cmpstr (dyno_credentials_get_session_token (config->credentials), ==, "env-token");
  g_assert_cmpstr (dyno_credentials_get_source (config->credentials), ==, "environment");
  g_assert_cmpstr (config->region, ==, "ap-south-1");
  g_assert_null (config->endpoint_url);

  f->env = g_environ_unsetenv (f->env, "AWS_SESSION_TOKEN");
  setenv_f (f, "AWS_SECURITY_TOKEN", "legacy-token");
  legacy = resolve_ok (f, NULL);
  g_assert_cmpstr (dyno_credentials_get_session_token (legacy->credentials), ==, "legacy-token");
}

static void
test_environment_partial (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;

  setenv_f (f, "AWS_REGION", "us-east-1");
  setenv_f (f, "AWS_ACCESS_KEY_ID", "AKIAENV");
  write_credentials (f, "[default]\naws_access_key_id = AKIAFILE\naws_secret_access_key = s\n");
  error = resolve_error (f, NULL);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, "AWS_SECRET_ACCESS_KEY");

  f->env = g_environ_unsetenv (f->env, "AWS_ACCESS_KEY_ID");
  setenv_f (f, "AWS_SECRET_ACCESS_KEY", "the-env-secret");
  error2 = resolve_error (f, NULL);
  assert_contains (error2->message, "AWS_ACCESS_KEY_ID");
  g_assert_null (strstr (error2->message, "the-env-secret"));
}

static void
test_environment_vs_profiles (Fixture       *f,
                              gconstpointer  data)
{
  DynoConnectionSettings settings = { .profile = (char *) "dev" };
  g_autoptr(DynoResolvedConfig) env_wins = NULL;
  g_autoptr(DynoResolvedConfig) explicit = NULL;

  setenv_f (f, "AWS_ACCESS_KEY_ID", "AKIAENV");
  setenv_f (f, "AWS_SECRET_ACCESS_KEY", "env-secret");
  setenv_f (f, "AWS_PROFILE", "dev");
  write_config (f, "[profile dev]\nregion = eu-west-3\n");
  write_credentials (f, "[dev]\naws_access_key_id = AKIADEV\naws_secret_access_key = s\n");

  /* AWS_PROFILE does not beat the environment keys (botocore's chain) … */
  env_wins = resolve_ok (f, NULL);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (env_wins->credentials), ==, "AKIAENV");
  g_assert_cmpstr (env_wins->profile, ==, "dev");
  g_assert_cmpstr (env_wins->region, ==, "eu-west-3");

  /* … but a profile chosen for the connection skips them. */
  explicit = resolve_ok (f, &settings);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (explicit->credentials), ==, "AKIADEV");
  g_assert_cmpstr (dyno_credentials_get_source (explicit->credentials), ==,
                   "profile dev (~/.aws/credentials)");
}

/* ---- profiles ---------------------------------------------------------------------------- */

static void
test_default_profile (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(DynoResolvedConfig) config = NULL;

  write_config (f, "[default]\nregion = eu-central-1\n");
  write_credentials (f, "# keys\n[default]\naws_access_key_id = AKIADEFAULT\n"
                        "aws_secret_access_key = default-secret\naws_session_token = tok\n");
  config = resolve_ok (f, NULL);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (config->credentials), ==, "AKIADEFAULT");
  g_assert_cmpstr (dyno_credentials_get_secret_access_key (config->credentials), ==,
                   "default-secret");
  g_assert_cmpstr (dyno_credentials_get_session_token (config->credentials), ==, "tok");
  g_assert_cmpstr (dyno_credentials_get_source (config->credentials), ==,
                   "profile default (~/.aws/credentials)");
  g_assert_cmpstr (config->profile, ==, "default");
  g_assert_cmpstr (config->region, ==, "eu-central-1");
}

static void
test_profile_selection (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(DynoResolvedConfig) by_profile = NULL;
  g_autoptr(DynoResolvedConfig) by_default_profile = NULL;
  g_autoptr(DynoResolvedConfig) both = NULL;

  write_config (f, "[profile a]\nregion = us-west-1\n[profile b]\nregion = us-west-2\n");
  write_credentials (f, "[a]\naws_access_key_id = AKIAA\naws_secret_access_key = sa\n"
                        "[b]\naws_access_key_id = AKIAB\naws_secret_access_key = sb\n");

  setenv_f (f, "AWS_PROFILE", "a");
  by_profile = resolve_ok (f, NULL);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (by_profile->credentials), ==, "AKIAA");
  g_assert_cmpstr (by_profile->region, ==, "us-west-1");

  f->env = g_environ_unsetenv (f->env, "AWS_PROFILE");
  setenv_f (f, "AWS_DEFAULT_PROFILE", "b");
  by_default_profile = resolve_ok (f, NULL);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (by_default_profile->credentials), ==,
                   "AKIAB");
  g_assert_cmpstr (by_default_profile->profile, ==, "b");

  /* AWS_PROFILE comes first (the order of the Go, JS and Java SDKs). */
  setenv_f (f, "AWS_PROFILE", "a");
  both = resolve_ok (f, NULL);
  g_assert_cmpstr (both->profile, ==, "a");
}

static void
test_profile_not_found (Fixture       *f,
                        gconstpointer  data)
{
  DynoConnectionSettings settings = { .profile = (char *) "ghost", .region = (char *) "r-1" };
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;

  /* [ghost] in the config file is not a profile: only [profile ghost] is. */
  write_config (f, "[ghost]\nregion = us-east-1\n");
  error = resolve_error (f, &settings);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, "“ghost”");
  assert_contains (error->message, "not found");
  assert_contains (error->message, "~/.aws/config");

  setenv_f (f, "AWS_PROFILE", "ghost");
  error2 = resolve_error (f, NULL);
  assert_contains (error2->message, "AWS_PROFILE");
}

static void
test_no_default_fallback (Fixture       *f,
                          gconstpointer  data)
{
  DynoConnectionSettings settings = { .profile = (char *) "dev" };
  g_autoptr(GError) error = NULL;

  write_config (f, "[default]\nregion = us-east-1\n[profile dev]\noutput = json\n");
  write_credentials (f, "[default]\naws_access_key_id = AKIADEFAULT\n"
                        "aws_secret_access_key = s\n");
  /* Neither the region nor the keys of [default] fill in for dev. */
  error = resolve_error (f, &settings);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, "region");

  settings.region = (char *) "eu-west-1";
  g_clear_error (&error);
  error = resolve_error (f, &settings);
  assert_contains (error->message, "No AWS credentials");
  assert_contains (error->message, "“dev”");
}

static void
test_config_file_keys_and_precedence (Fixture       *f,
                                      gconstpointer  data)
{
  DynoConnectionSettings settings = { .profile = (char *) "dev" };
  g_autoptr(DynoResolvedConfig) from_config = NULL;
  g_autoptr(DynoResolvedConfig) from_credentials = NULL;

  write_config (f, "[profile dev]\nregion = ca-central-1\naws_access_key_id = AKIACONFIG\n"
                   "aws_secret_access_key = config-secret\n");
  from_config = resolve_ok (f, &settings);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (from_config->credentials), ==,
                   "AKIACONFIG");
  g_assert_cmpstr (dyno_credentials_get_source (from_config->credentials), ==,
                   "profile dev (~/.aws/config)");

  write_credentials (f, "[dev]\naws_access_key_id = AKIACREDS\naws_secret_access_key = c\n");
  from_credentials = resolve_ok (f, &settings);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (from_credentials->credentials), ==,
                   "AKIACREDS");
  g_assert_cmpstr (from_credentials->region, ==, "ca-central-1");
}

static void
test_partial_profile_keys (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  write_config (f, "[default]\nregion = us-east-1\n");
  write_credentials (f, "[default]\n\naws_secret_access_key = do-not-print-me\n");
  error = resolve_error (f, NULL);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, "~/.aws/credentials:3");
  assert_contains (error->message, "aws_access_key_id");
  g_assert_null (strstr (error->message, "do-not-print-me"));
}

static void
test_missing_everything (Fixture       *f,
                         gconstpointer  data)
{
  DynoConnectionSettings settings = { .region = (char *) "us-east-1" };
  g_autoptr(GError) error = NULL;

  error = resolve_error (f, &settings);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, "No AWS credentials");
  assert_contains (error->message, "the connection settings");
  assert_contains (error->message, "AWS_ACCESS_KEY_ID");
  assert_contains (error->message, "~/.aws/credentials (no such file)");
  assert_contains (error->message, "~/.aws/config (no such file)");
  assert_contains (error->message, "“default”");
}

static void
test_custom_file_locations (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_autofree char *cfg = write_file (f, "my-config", "[profile x]\nregion = sa-east-1\n");
  g_autofree char *creds = write_file (f, "my-creds",
                                       "[x]\naws_access_key_id = AKIAX\n"
                                       "aws_secret_access_key = sx\n");

  /* The default files exist too but must not be read. */
  write_config (f, "[profile x]\nregion = wrong-1\n");
  setenv_f (f, "AWS_CONFIG_FILE", cfg);
  setenv_f (f, "AWS_SHARED_CREDENTIALS_FILE", "~/my-creds");
  setenv_f (f, "AWS_PROFILE", "x");
  config = resolve_ok (f, NULL);
  g_assert_cmpstr (config->region, ==, "sa-east-1");
  g_assert_cmpstr (dyno_credentials_get_access_key_id (config->credentials), ==, "AKIAX");
  g_assert_cmpstr (dyno_credentials_get_source (config->credentials), ==, "profile x (~/my-creds)");
}

static void
test_malformed_files (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;
  g_autofree char *config_path = g_build_filename (f->aws_dir, "config", NULL);
  g_autofree char *creds_path = g_build_filename (f->aws_dir, "credentials", NULL);
  g_autofree char *expected = g_strdup_printf ("%s:3:", config_path);
  g_autofree char *expected2 = g_strdup_printf ("%s:1:", creds_path);

  setenv_f (f, "AWS_ACCESS_KEY_ID", "AKIAENV");
  setenv_f (f, "AWS_SECRET_ACCESS_KEY", "env-secret");
  write_config (f, "[default]\nregion = us-east-1\nthis line is wrong\n");
  error = resolve_error (f, NULL);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, expected);

  write_config (f, "[default]\nregion = us-east-1\n");
  write_credentials (f, "aws_access_key_id = x\n");
  error2 = resolve_error (f, NULL);
  g_assert_error (error2, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error2->message, expected2);
}

/* Profiles that fail before anything is sent: each message names the profile and what to do.
 * The keys in the credentials file must never be used instead (that would talk to AWS as
 * someone else than the profile says). */
static void
test_profile_kind_errors (Fixture       *f,
                          gconstpointer  data)
{
  static const struct {
    const char *config;
    const char *words[3];
  } cases[] = {
    /* a cycle of source profiles, named */
    { "[profile p]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/P\nsource_profile = a\n"
      "[profile a]\nrole_arn = arn:aws:iam::1:role/A\nsource_profile = b\n"
      "[profile b]\nrole_arn = arn:aws:iam::1:role/B\nsource_profile = a\n",
      { "cycle", "a → b → a", NULL } },
    { "[profile p]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/P\nsource_profile = a\n"
      "[profile a]\nrole_arn = arn:aws:iam::1:role/A\nsource_profile = a\n",
      { "cycle", "(a → a)", NULL } },
    /* a missing source profile, named with its line */
    { "[profile p]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/P\n"
      "source_profile = nowhere\n",
      { "~/.aws/config:4", "“nowhere”", NULL } },
    { "[profile p]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/P\n",
      { "source_profile", "credential_source", NULL } },
    { "[profile p]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/P\n"
      "credential_source = Ec2InstanceMetadata\n",
      { "Ec2InstanceMetadata", "does not support", NULL } },
    { "[profile p]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/P\n"
      "credential_source = Environment\n",
      { "AWS_ACCESS_KEY_ID", "credential_source = Environment", NULL } },
    { "[profile p]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/P\nsource_profile = k\n"
      "duration_seconds = 10\n[profile k]\naws_access_key_id = AKIDK\naws_secret_access_key = s\n",
      { "~/.aws/config:5", "duration_seconds", "900" } },
    /* MFA with nothing to ask for the code */
    { "[profile p]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/P\nsource_profile = k\n"
      "mfa_serial = arn:aws:iam::1:mfa/me\n"
      "[profile k]\naws_access_key_id = AKIDK\naws_secret_access_key = s\n",
      { "MFA", "arn:aws:iam::1:mfa/me", NULL } },
    { "[profile p]\nregion = us-east-1\nweb_identity_token_file = /tmp/t\n",
      { "web_identity_token_file", "role_arn", NULL } },
    { "[profile p]\nregion = us-east-1\nweb_identity_token_file = ~/no-such-token\n"
      "role_arn = arn:aws:iam::1:role/W\n",
      { "web identity token file", "no-such-token", NULL } },
    /* IAM Identity Center without a sign-in */
    { "[profile p]\nregion = us-east-1\nsso_session = corp\nsso_account_id = 1\n"
      "sso_role_name = R\n[sso-session corp]\nsso_start_url = https://x/start\n"
      "sso_region = us-east-1\n",
      { "dynotable-cli sso login --profile p", "no cached sign-in", NULL } },
    { "[profile p]\nregion = us-east-1\nsso_start_url = https://x/start\nsso_region = us-east-1\n"
      "sso_account_id = 1\nsso_role_name = R\n",
      { "dynotable-cli sso login --profile p", NULL, NULL } },
    { "[profile p]\nregion = us-east-1\nsso_session = corp\nsso_account_id = 1\n"
      "sso_role_name = R\n",
      { "[sso-session corp]", NULL, NULL } },
    { "[profile p]\nregion = us-east-1\nsso_session = corp\nsso_account_id = 1\n"
      "sso_role_name = R\n[sso-session corp]\nsso_start_url = https://x/start\n",
      { "[sso-session corp], used by", "has no sso_region", NULL } },
    { "[profile p]\nregion = us-east-1\nsso_session = corp\nsso_role_name = R\n"
      "[sso-session corp]\nsso_start_url = https://x/start\nsso_region = us-east-1\n",
      { "sso_account_id", NULL, NULL } },
  };

  write_credentials (f, "[p]\naws_access_key_id = AKIAFALLBACK\naws_secret_access_key = x\n");
  setenv_f (f, "AWS_PROFILE", "p");
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;

      write_config (f, cases[i].config);
      error = resolve_error (f, NULL);
      g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
      assert_contains (error->message, "“p”");
      for (guint k = 0; k < G_N_ELEMENTS (cases[i].words) && cases[i].words[k] != NULL; k++)
        assert_contains (error->message, cases[i].words[k]);
      g_assert_null (strstr (error->message, "AKIAFALLBACK"));
    }
}

/* Where STS is: AWS_ENDPOINT_URL_STS > AWS_ENDPOINT_URL > the services section > the
 * profile's endpoint_url > https://sts.REGION.amazonaws.com.  Nothing listens on port 9 of
 * the loopback, so the message says which URL was tried. */
static void
test_sts_endpoint_precedence (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;
  g_autoptr(GError) e4 = NULL;

  write_config (f, "[profile p]\nregion = eu-west-3\nrole_arn = arn:aws:iam::1:role/P\n"
                   "source_profile = k\nservices = mine\nendpoint_url = http://127.0.0.4:9\n"
                   "[profile k]\naws_access_key_id = AKIDK\naws_secret_access_key = s\n"
                   "[services mine]\nsts =\n  endpoint_url = http://127.0.0.3:9\n");
  setenv_f (f, "AWS_PROFILE", "p");
  setenv_f (f, "AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.9:9");
  setenv_f (f, "AWS_ENDPOINT_URL", "http://127.0.0.2:9");
  setenv_f (f, "AWS_ENDPOINT_URL_STS", "http://127.0.0.1:9");
  dyno_credentials_clear_cache ();
  e1 = resolve_error (f, NULL);
  assert_contains (e1->message, "STS at http://127.0.0.1:9");
  f->env = g_environ_unsetenv (f->env, "AWS_ENDPOINT_URL_STS");
  e2 = resolve_error (f, NULL);
  assert_contains (e2->message, "STS at http://127.0.0.2:9");
  f->env = g_environ_unsetenv (f->env, "AWS_ENDPOINT_URL");
  e3 = resolve_error (f, NULL);
  assert_contains (e3->message, "STS at http://127.0.0.3:9");
  write_config (f, "[profile p]\nregion = eu-west-3\nrole_arn = arn:aws:iam::1:role/P\n"
                   "source_profile = k\nendpoint_url = http://127.0.0.4:9\n"
                   "[profile k]\naws_access_key_id = AKIDK\naws_secret_access_key = s\n");
  e4 = resolve_error (f, NULL);
  assert_contains (e4->message, "STS at http://127.0.0.4:9");
  assert_contains (e4->message, "Profile “p”");
}

/* The SSO token cache: where the AWS CLI keeps it, as it writes it, mode 0600. */
static void
test_sso_token_cache (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = dyno_sso_cache_path (f->home, "corp");
  g_autofree char *legacy = dyno_sso_cache_path (f->home, "https://x/start");
  g_autofree char *contents = NULL;
  g_autoptr(DynoSsoToken) loaded = NULL;
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  DynoSsoToken token = { 0 };
  GStatBuf st;

  /* sha1("corp"), sha1("https://x/start") */
  g_assert_true (g_str_has_suffix (path, "/.aws/sso/cache/"
                                         "ee0bfd2552fbd840c02cc48b6e823320543c450f.json"));
  g_assert_true (g_str_has_suffix (legacy, "/.aws/sso/cache/"
                                           "f9bd89c67fef27fcb5df8d2e4b64eabe5bae45a4.json"));
  g_assert_null (dyno_sso_token_load (path, &error));
  g_assert_no_error (error);

  token.access_token = (char *) "ACCESS";
  token.expires_at = g_date_time_new (utc, 2030, 1, 2, 3, 4, 5);
  token.refresh_token = (char *) "REFRESH";
  token.client_id = (char *) "CLIENT";
  token.client_secret = (char *) "SECRET";
  token.registration_expires_at = g_date_time_new (utc, 2030, 2, 1, 0, 0, 0);
  token.region = (char *) "eu-west-1";
  token.start_url = (char *) "https://x/start";
  g_assert_true (dyno_sso_token_save (path, &token, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  assert_contains (contents, "\"expiresAt\": \"2030-01-02T03:04:05Z\"");
  assert_contains (contents, "\"registrationExpiresAt\": \"2030-02-01T00:00:00Z\"");
  assert_contains (contents, "\"startUrl\": \"https://x/start\"");
  loaded = dyno_sso_token_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loaded->access_token, ==, "ACCESS");
  g_assert_cmpstr (loaded->refresh_token, ==, "REFRESH");
  g_assert_cmpstr (loaded->client_id, ==, "CLIENT");
  g_assert_cmpstr (loaded->client_secret, ==, "SECRET");
  g_assert_cmpstr (loaded->region, ==, "eu-west-1");
  g_assert_true (g_date_time_equal (loaded->expires_at, token.expires_at));
  g_assert_true (g_date_time_equal (loaded->registration_expires_at,
                                    token.registration_expires_at));
  g_date_time_unref (token.expires_at);
  g_date_time_unref (token.registration_expires_at);

  /* The AWS CLI v1 wrote "…UTC"; a broken file is named. */
  g_assert_true (g_file_set_contents (path, "{\"accessToken\": \"A\", \"expiresAt\": "
                                      "\"2030-01-02T03:04:05UTC\"}", -1, NULL));
  g_clear_pointer (&loaded, dyno_sso_token_free);
  loaded = dyno_sso_token_load (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded->expires_at);
  g_assert_cmpint (g_date_time_get_year (loaded->expires_at), ==, 2030);
  g_assert_true (g_file_set_contents (path, "[1]", -1, NULL));
  g_assert_null (dyno_sso_token_load (path, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, path);
}

/* ---- region and endpoint --------------------------------------------------------------- */

static void
test_region_precedence (Fixture       *f,
                        gconstpointer  data)
{
  DynoConnectionSettings settings = { .region = (char *) "eu-south-1" };
  g_autoptr(DynoResolvedConfig) a = NULL;
  g_autoptr(DynoResolvedConfig) b = NULL;
  g_autoptr(DynoResolvedConfig) c = NULL;
  g_autoptr(DynoResolvedConfig) d = NULL;
  g_autoptr(GError) error = NULL;

  write_config (f, "[default]\nregion = eu-west-2\n");
  write_credentials (f, "[default]\naws_access_key_id = A\naws_secret_access_key = s\n");
  setenv_f (f, "AWS_REGION", "us-east-2");
  setenv_f (f, "AWS_DEFAULT_REGION", "us-west-2");

  a = resolve_ok (f, &settings);
  g_assert_cmpstr (a->region, ==, "eu-south-1");
  b = resolve_ok (f, NULL);
  g_assert_cmpstr (b->region, ==, "us-east-2");
  f->env = g_environ_unsetenv (f->env, "AWS_REGION");
  c = resolve_ok (f, NULL);
  g_assert_cmpstr (c->region, ==, "us-west-2");
  f->env = g_environ_unsetenv (f->env, "AWS_DEFAULT_REGION");
  d = resolve_ok (f, NULL);
  g_assert_cmpstr (d->region, ==, "eu-west-2");

  setenv_f (f, "AWS_REGION", "bad region!");
  error = resolve_error (f, NULL);
  assert_contains (error->message, "AWS_REGION");
  assert_contains (error->message, "bad region!");
}

static void
test_region_missing (Fixture       *f,
                     gconstpointer  data)
{
  DynoConnectionSettings local = { .endpoint_url = (char *) "http://localhost:8000" };
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  write_credentials (f, "[default]\naws_access_key_id = A\naws_secret_access_key = s\n");
  error = resolve_error (f, NULL);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, "No region");
  assert_contains (error->message, "AWS_REGION");

  /* DynamoDB Local needs no region; us-east-1 is used to sign. */
  config = resolve_ok (f, &local);
  g_assert_cmpstr (config->region, ==, "us-east-1");
  g_assert_cmpstr (config->endpoint_url, ==, "http://localhost:8000");
}

static void
test_endpoint_precedence (Fixture       *f,
                          gconstpointer  data)
{
  DynoConnectionSettings explicit = { .endpoint_url = (char *) "https://explicit.example.com" };
  g_autoptr(DynoResolvedConfig) r1 = NULL;
  g_autoptr(DynoResolvedConfig) r2 = NULL;
  g_autoptr(DynoResolvedConfig) r3 = NULL;
  g_autoptr(DynoResolvedConfig) r4 = NULL;
  g_autoptr(DynoResolvedConfig) r5 = NULL;
  g_autoptr(DynoResolvedConfig) r6 = NULL;
  g_autoptr(DynoResolvedConfig) r7 = NULL;
  g_autoptr(DynoResolvedConfig) r8 = NULL;

  write_config (f, "[default]\nregion = us-east-1\nservices = ddb\n"
                   "endpoint_url = https://profile.example.com\n"
                   "[services ddb]\n"
                   "s3 =\n  endpoint_url = https://s3.example.com\n"
                   "dynamodb =\n  endpoint_url = http://127.0.0.1:8001\n");
  write_credentials (f, "[default]\naws_access_key_id = A\naws_secret_access_key = s\n");
  setenv_f (f, "AWS_ENDPOINT_URL_DYNAMODB", "http://localhost:8002");
  setenv_f (f, "AWS_ENDPOINT_URL", "http://[::1]:8003");

  r1 = resolve_ok (f, &explicit);
  g_assert_cmpstr (r1->endpoint_url, ==, "https://explicit.example.com");
  r2 = resolve_ok (f, NULL);
  g_assert_cmpstr (r2->endpoint_url, ==, "http://localhost:8002");
  f->env = g_environ_unsetenv (f->env, "AWS_ENDPOINT_URL_DYNAMODB");
  r3 = resolve_ok (f, NULL);
  g_assert_cmpstr (r3->endpoint_url, ==, "http://[::1]:8003");
  f->env = g_environ_unsetenv (f->env, "AWS_ENDPOINT_URL");
  r4 = resolve_ok (f, NULL);
  g_assert_cmpstr (r4->endpoint_url, ==, "http://127.0.0.1:8001");

  write_config (f, "[default]\nregion = us-east-1\nendpoint_url = https://profile.example.com\n"
                   "services = ddb\n[services ddb]\ns3 =\n  endpoint_url = https://s3.example.com\n");
  r5 = resolve_ok (f, NULL);
  g_assert_cmpstr (r5->endpoint_url, ==, "https://profile.example.com");

  /* AWS_IGNORE_CONFIGURED_ENDPOINT_URLS turns off everything but the connection's own. */
  setenv_f (f, "AWS_ENDPOINT_URL", "http://localhost:8003");
  setenv_f (f, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "TRUE");
  r6 = resolve_ok (f, NULL);
  g_assert_null (r6->endpoint_url);
  r7 = resolve_ok (f, &explicit);
  g_assert_cmpstr (r7->endpoint_url, ==, "https://explicit.example.com");

  f->env = g_environ_unsetenv (f->env, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
  write_config (f, "[default]\nregion = us-east-1\nendpoint_url = https://profile.example.com\n"
                   "ignore_configured_endpoint_urls = true\n");
  r8 = resolve_ok (f, NULL);
  g_assert_null (r8->endpoint_url);
}

static void
test_endpoint_errors (Fixture       *f,
                      gconstpointer  data)
{
  DynoConnectionSettings insecure = { .endpoint_url = (char *) "http://ddb.example.com:8000" };
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;
  g_autoptr(GError) e4 = NULL;
  g_autoptr(GError) e5 = NULL;

  write_credentials (f, "[default]\naws_access_key_id = A\naws_secret_access_key = s\n");
  write_config (f, "[default]\nregion = us-east-1\nservices = nowhere\n");
  e1 = resolve_error (f, NULL);
  g_assert_error (e1, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (e1->message, "~/.aws/config:3");
  assert_contains (e1->message, "[services nowhere]");

  write_config (f, "[default]\nregion = us-east-1\n\nendpoint_url = http://10.1.2.3:8000\n");
  e2 = resolve_error (f, NULL);
  assert_contains (e2->message, "~/.aws/config:4");
  assert_contains (e2->message, "http://");

  write_config (f, "[default]\nregion = us-east-1\n");
  e3 = resolve_error (f, &insecure);
  assert_contains (e3->message, "the connection");
  assert_contains (e3->message, "ddb.example.com");

  setenv_f (f, "AWS_ENDPOINT_URL", "ftp://localhost");
  e4 = resolve_error (f, NULL);
  assert_contains (e4->message, "AWS_ENDPOINT_URL");

  f->env = g_environ_unsetenv (f->env, "AWS_ENDPOINT_URL");
  setenv_f (f, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "maybe");
  e5 = resolve_error (f, NULL);
  assert_contains (e5->message, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
}

static void
test_endpoint_flags (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(DynoResolvedConfig) none = NULL;
  g_autoptr(DynoResolvedConfig) from_profile = NULL;
  g_autoptr(DynoResolvedConfig) from_env = NULL;
  g_autoptr(GError) error = NULL;

  write_credentials (f, "[default]\naws_access_key_id = A\naws_secret_access_key = s\n");
  write_config (f, "[default]\nregion = us-east-1\n");
  none = resolve_ok (f, NULL);
  g_assert_cmpuint (none->endpoint_flags, ==, 0);

  write_config (f, "[default]\nregion = us-east-1\nuse_fips_endpoint = true\n"
                   "use_dualstack_endpoint = false\n");
  from_profile = resolve_ok (f, NULL);
  g_assert_cmpuint (from_profile->endpoint_flags, ==, DYNO_ENDPOINT_FIPS);

  /* The environment wins over the profile. */
  setenv_f (f, "AWS_USE_FIPS_ENDPOINT", "false");
  setenv_f (f, "AWS_USE_DUALSTACK_ENDPOINT", "true");
  from_env = resolve_ok (f, NULL);
  g_assert_cmpuint (from_env->endpoint_flags, ==, DYNO_ENDPOINT_DUAL_STACK);

  setenv_f (f, "AWS_USE_DUALSTACK_ENDPOINT", "yes");
  error = resolve_error (f, NULL);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, "AWS_USE_DUALSTACK_ENDPOINT");
}

/* ---- credential_process ----------------------------------------------------------------- */

static void
use_process (Fixture    *f,
             const char *command)
{
  g_autofree char *config = g_strdup_printf ("[profile proc]\nregion = eu-west-1\n"
                                             "credential_process = %s\n", command);

  write_config (f, config);
  setenv_f (f, "AWS_PROFILE", "proc");
}

static void
test_process_ok (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_autofree char *script = NULL;
  g_autofree char *command = NULL;
  g_autofree char *dir = g_build_filename (f->home, "dir with space", NULL);

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  script = write_script (
    f, "dir with space/creds.sh",
    "printf '{\"Version\": 1, \"AccessKeyId\": \"AKIAPROC\", \"SecretAccessKey\": \"%s\", "
    "\"SessionToken\": \"%s|%s|%s\"}' \"$1\" \"$2\" \"$3\" \"$DYNO_TEST_MARK\"\n");
  /* Quoted like a shell command line, but no shell runs it: $HOME and ';' stay as written. */
  command = g_strdup_printf ("\"%s\" proc-secret 'two words' '$HOME;echo'", script);
  use_process (f, command);
  setenv_f (f, "DYNO_TEST_MARK", "from-env");

  config = resolve_ok (f, NULL);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (config->credentials), ==, "AKIAPROC");
  g_assert_cmpstr (dyno_credentials_get_secret_access_key (config->credentials), ==,
                   "proc-secret");
  g_assert_cmpstr (dyno_credentials_get_session_token (config->credentials), ==,
                   "two words|$HOME;echo|from-env");
  g_assert_null (dyno_credentials_get_expiration (config->credentials));
  g_assert_cmpstr (dyno_credentials_get_source (config->credentials), ==,
                   "credential_process of profile proc");
  g_assert_cmpstr (config->credential_process, ==, command);
  g_assert_cmpstr (config->region, ==, "eu-west-1");
}

static void
test_process_path_from_env (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_autofree char *bin = g_build_filename (f->home, "bin", NULL);
  g_autofree char *path = NULL;
  g_autofree char *script = NULL;
  g_autoptr(GError) error = NULL;

  /* A bare command name is looked up in the PATH of the environment given, not ours. */
  g_assert_cmpint (g_mkdir (bin, 0700), ==, 0);
  script = write_script (f, "bin/dyno-test-creds-tool",
                         "echo '{\"Version\": 1, \"AccessKeyId\": \"AKIAPATH\", "
                         "\"SecretAccessKey\": \"S\"}'\n");
  path = g_strconcat (bin, ":/usr/bin:/bin", NULL);
  setenv_f (f, "PATH", path);
  use_process (f, "dyno-test-creds-tool --flag");
  config = resolve_ok (f, NULL);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (config->credentials), ==, "AKIAPATH");

  setenv_f (f, "PATH", "/usr/bin:/bin");
  error = resolve_error (f, NULL);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, "no program “dyno-test-creds-tool” in PATH");
}

static void
test_process_failures (Fixture       *f,
                       gconstpointer  data)
{
  static const struct {
    const char *body;
    const char *words;
  } cases[] = {
    { "echo 'token expired, run: corp-login' >&2\nexit 1\n", "token expired, run: corp-login" },
    { "echo 'not json {'\n", "JSON" },
    { "echo '[1, 2]'\n", "JSON" },
    { "echo '{\"Version\": 2, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"S\"}'\n",
      "Version" },
    { "echo '{\"AccessKeyId\": \"A\", \"SecretAccessKey\": \"S\"}'\n", "Version" },
    { "echo '{\"Version\": 1, \"SecretAccessKey\": \"S\"}'\n", "AccessKeyId" },
    { "echo '{\"Version\": 1, \"AccessKeyId\": \"A\"}'\n", "SecretAccessKey" },
    { "echo '{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"S\", "
      "\"Expiration\": \"yesterday\"}'\n", "ISO 8601" },
    { "echo '{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"S\", "
      "\"Expiration\": \"2001-02-03T04:05:06Z\"}'\n", "expired" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("fail-%" G_GSIZE_FORMAT ".sh", i);
      g_autofree char *script = write_script (f, name, cases[i].body);
      g_autoptr(GError) error = NULL;

      use_process (f, script);
      error = resolve_error (f, NULL);
      g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
      assert_contains (error->message, "credential_process");
      assert_contains (error->message, "“proc”");
      assert_contains (error->message, cases[i].words);
    }
}

static void
test_process_exit_status (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *script = write_script (f, "exit3.sh", "echo 'secret-ish stdout'\nexit 3\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) missing = NULL;
  g_autoptr(GError) unparsable = NULL;
  g_autofree char *nowhere = g_build_filename (f->home, "no-such-program", NULL);

  use_process (f, script);
  error = resolve_error (f, NULL);
  assert_contains (error->message, "exit status 3");
  /* Standard output may hold secrets: it is never quoted. */
  g_assert_null (strstr (error->message, "secret-ish"));

  use_process (f, nowhere);
  missing = resolve_error (f, NULL);
  g_assert_error (missing, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (missing->message, "could not be started");

  use_process (f, "\"unterminated");
  unparsable = resolve_error (f, NULL);
  g_assert_error (unparsable, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (unparsable->message, "command line");
}

static void
test_process_expiration_and_refresh (Fixture       *f,
                                     gconstpointer  data)
{
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_autoptr(DynoCredentials) refreshed = NULL;
  g_autoptr(GDateTime) future = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *expiration = NULL;
  g_autofree char *body = NULL;
  g_autofree char *script = NULL;
  g_autofree char *counter = g_build_filename (f->home, "count", NULL);

  future = g_date_time_add_hours (now, 2);
  expiration = g_date_time_format (future, "%Y-%m-%dT%H:%M:%SZ");
  /* Each run prints a new key, so the refresh is seen to run the process again. */
  body = g_strdup_printf ("n=$(cat '%s' 2>/dev/null || echo 0)\nn=$((n + 1))\n"
                          "echo $n > '%s'\n"
                          "echo '{\"Version\": 1, \"AccessKeyId\": \"AKIA'$n'\", "
                          "\"SecretAccessKey\": \"S\", \"SessionToken\": \"T\", "
                          "\"Expiration\": \"%s\"}'\n", counter, counter, expiration);
  script = write_script (f, "expiring.sh", body);
  use_process (f, script);

  config = resolve_ok (f, NULL);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (config->credentials), ==, "AKIA1");
  g_assert_nonnull (dyno_credentials_get_expiration (config->credentials));
  g_assert_cmpint (g_date_time_to_unix (dyno_credentials_get_expiration (config->credentials)),
                   ==, g_date_time_to_unix (future));
  g_assert_false (dyno_credentials_is_expiring (config->credentials, 60));
  g_assert_true (dyno_credentials_is_expiring (config->credentials, 3 * 3600));
  g_assert_cmpstr (config->profile, ==, "proc");

  {
    g_autoptr(GError) error = NULL;

    refreshed = dyno_credentials_refresh (config, f->env, NULL, &error);
    g_assert_no_error (error);
  }
  g_assert_cmpstr (dyno_credentials_get_access_key_id (refreshed), ==, "AKIA2");
  g_assert_cmpstr (dyno_credentials_get_source (refreshed), ==,
                   "credential_process of profile proc");
}

static void
test_refresh_without_process (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_autoptr(DynoCredentials) refreshed = NULL;
  g_autoptr(GError) error = NULL;

  setenv_f (f, "AWS_ACCESS_KEY_ID", "AKIAENV");
  setenv_f (f, "AWS_SECRET_ACCESS_KEY", "env-secret");
  setenv_f (f, "AWS_REGION", "us-east-1");
  config = resolve_ok (f, NULL);
  refreshed = dyno_credentials_refresh (config, f->env, NULL, &error);
  g_assert_null (refreshed);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, "environment");
}

static void
test_process_cancelled (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *script = write_script (f, "slow.sh", "exec sleep 30\n");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  DynoResolvedConfig *config;

  use_process (f, script);
  g_cancellable_cancel (cancellable);
  config = dyno_resolve_config (NULL, f->env, cancellable, &error);
  g_assert_null (config);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- async ------------------------------------------------------------------------------ */

static void
resolved_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  DynoResolvedConfig **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = dyno_resolve_config_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async (Fixture       *f,
            gconstpointer  data)
{
  DynoConnectionSettings settings = { .profile = (char *) "dev" };
  DynoResolvedConfig *config = NULL;

  /* The async variant reads the process environment: point it at the fixture. */
  write_config (f, "[profile dev]\nregion = eu-north-1\n");
  write_credentials (f, "[dev]\naws_access_key_id = AKIAASYNC\naws_secret_access_key = s\n");
  g_setenv ("HOME", f->home, TRUE);
  g_unsetenv ("AWS_CONFIG_FILE");
  g_unsetenv ("AWS_SHARED_CREDENTIALS_FILE");
  g_unsetenv ("AWS_REGION");
  g_unsetenv ("AWS_DEFAULT_REGION");
  g_unsetenv ("AWS_ENDPOINT_URL");
  g_unsetenv ("AWS_ENDPOINT_URL_DYNAMODB");

  dyno_resolve_config_async (&settings, NULL, resolved_cb, &config);
  while (config == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (config->credentials), ==, "AKIAASYNC");
  g_assert_cmpstr (config->region, ==, "eu-north-1");
  dyno_resolved_config_free (config);
}


/* ---- DynamoDB Local: the same credentials as the AWS CLI, then DynoTable's key -------------- */

/* What a connection to DynamoDB Local signs with, row by row: flags, environment, profile,
 * [default], fallback.  DynamoDB Local keeps one database per key and region, so each row is
 * the database the user sees. */
static void
test_local_precedence (Fixture       *f,
                       gconstpointer  data)
{
  static const struct {
    const char *what;
    const char *profile;      /* --profile */
    const char *region;       /* --region */
    gboolean    env_keys;     /* AWS_ACCESS_KEY_ID=AKIDENV */
    const char *aws_profile;  /* AWS_PROFILE */
    gboolean    env_region;   /* AWS_REGION=ap-south-1 */
    gboolean    default_keys; /* [default] in the credentials file (AKIDDEFAULT) */
    const char *key;          /* expected */
    const char *want_region;
  } rows[] = {
    { "flag profile beats the environment", "dev", NULL, TRUE, NULL, FALSE, TRUE,
      "AKIDDEV", "eu-west-1" },
    { "--region beats the profile's", "dev", "sa-east-1", FALSE, NULL, FALSE, TRUE,
      "AKIDDEV", "sa-east-1" },
    { "environment keys beat [default]", NULL, NULL, TRUE, NULL, FALSE, TRUE,
      "AKIDENV", "us-west-2" },
    { "AWS_PROFILE beats [default]", NULL, NULL, FALSE, "dev", FALSE, TRUE,
      "AKIDDEV", "eu-west-1" },
    { "AWS_REGION beats the profile's region", NULL, NULL, FALSE, "dev", TRUE, TRUE,
      "AKIDDEV", "ap-south-1" },
    { "[default] profile", NULL, NULL, FALSE, NULL, FALSE, TRUE, "AKIDDEFAULT", "us-west-2" },
    { "nothing configured: DynoTable's local key", NULL, NULL, FALSE, NULL, FALSE, FALSE,
      DYNO_LOCAL_ACCESS_KEY_ID, "us-west-2" },
    { "a profile without keys: the local key", "nokeys", NULL, FALSE, NULL, FALSE, TRUE,
      DYNO_LOCAL_ACCESS_KEY_ID, "ca-central-1" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      DynoConnectionSettings settings = {
        .endpoint_url = (char *) "http://localhost:8000",
        .profile = (char *) rows[i].profile,
        .region = (char *) rows[i].region,
      };
      g_autoptr(DynoResolvedConfig) config = NULL;

      g_test_message ("%s", rows[i].what);
      g_strfreev (f->env);
      f->env = g_environ_setenv (NULL, "HOME", f->home, TRUE);
      write_config (f, "[default]\nregion = us-west-2\n"
                       "[profile dev]\nregion = eu-west-1\n"
                       "[profile nokeys]\nregion = ca-central-1\n");
      if (rows[i].default_keys)
        write_credentials (f, "[default]\naws_access_key_id = AKIDDEFAULT\n"
                              "aws_secret_access_key = s\n"
                              "[dev]\naws_access_key_id = AKIDDEV\naws_secret_access_key = s\n");
      else
        write_credentials (f, "");
      if (rows[i].env_keys)
        {
          setenv_f (f, "AWS_ACCESS_KEY_ID", "AKIDENV");
          setenv_f (f, "AWS_SECRET_ACCESS_KEY", "env-secret");
        }
      if (rows[i].aws_profile != NULL)
        setenv_f (f, "AWS_PROFILE", rows[i].aws_profile);
      if (rows[i].env_region)
        setenv_f (f, "AWS_REGION", "ap-south-1");

      config = resolve_ok (f, &settings);
      g_assert_cmpstr (dyno_credentials_get_access_key_id (config->credentials), ==,
                       rows[i].key);
      g_assert_cmpstr (config->region, ==, rows[i].want_region);
      g_assert_cmpstr (config->endpoint_url, ==, "http://localhost:8000");
    }
}

/* The fixed key is a fallback for DynamoDB Local only, and never hides a mistake. */
static void
test_local_fallback_limits (Fixture       *f,
                            gconstpointer  data)
{
  DynoConnectionSettings remote = {
    .endpoint_url = (char *) "https://dynamodb.example.com",
    .region = (char *) "eu-west-1",
  };
  DynoConnectionSettings local = { .endpoint_url = (char *) "http://127.0.0.1:8000" };
  DynoConnectionSettings local_region = { .region = (char *) "local" };
  DynoConnectionSettings missing = {
    .endpoint_url = (char *) "http://[::1]:8000",
    .profile = (char *) "nosuch",
  };
  g_autoptr(DynoResolvedConfig) loopback = NULL;
  g_autoptr(DynoResolvedConfig) by_region = NULL;
  g_autoptr(GError) error = NULL;

  /* a real endpoint with no credentials: an error, not a key AWS would refuse */
  error = resolve_error (f, &remote);
  assert_contains (error->message, "No AWS credentials");
  g_clear_error (&error);

  loopback = resolve_ok (f, &local);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (loopback->credentials), ==,
                   DYNO_LOCAL_ACCESS_KEY_ID);
  assert_contains (dyno_credentials_get_source (loopback->credentials), "no credentials");
  by_region = resolve_ok (f, &local_region);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (by_region->credentials), ==,
                   DYNO_LOCAL_ACCESS_KEY_ID);

  /* a profile that does not exist is named, also for DynamoDB Local */
  error = resolve_error (f, &missing);
  assert_contains (error->message, "“nosuch”");
  g_clear_error (&error);

  /* broken credentials are an error, not a reason to fall back */
  setenv_f (f, "AWS_ACCESS_KEY_ID", "AKIDHALF");
  error = resolve_error (f, &local);
  assert_contains (error->message, "AWS_SECRET_ACCESS_KEY");
}

static void
test_list_and_check_profiles (Fixture       *f,
                              gconstpointer  data)
{
  g_auto(GStrv) none = NULL;
  g_auto(GStrv) names = NULL;
  g_autoptr(GError) error = NULL;

  none = dyno_aws_list_profiles (f->env, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (none), ==, 0);

  write_config (f, "[profile zeta]\nregion = us-east-1\n[default]\nregion = us-east-1\n"
                   "[sso-session corp]\nsso_region = us-east-1\n");
  write_credentials (f, "[alpha]\naws_access_key_id = A\naws_secret_access_key = s\n"
                        "[zeta]\naws_access_key_id = Z\naws_secret_access_key = s\n");
  names = dyno_aws_list_profiles (f->env, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, 3);
  g_assert_cmpstr (names[0], ==, "alpha");
  g_assert_cmpstr (names[1], ==, "default");
  g_assert_cmpstr (names[2], ==, "zeta");

  g_assert_true (dyno_aws_check_profile (f->env, "alpha", "--profile", &error));
  g_assert_no_error (error);
  g_assert_false (dyno_aws_check_profile (f->env, "corp", "--profile", &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  assert_contains (error->message, "“corp” (from --profile)");
  assert_contains (error->message, "~/.aws/config");
}

/* ---- temporary credentials kept in memory ----------------------------------------------- */

/* A stand-in STS in a thread of its own (resolution blocks the calling thread): every
 * AssumeRole gets new keys "ASIA<n>", valid for @lifetime seconds. */
typedef struct {
  GThread      *thread;
  GMainContext *context;
  GMainLoop    *loop;
  SoupServer   *server;
  char         *url;
  gint          n_calls;        /* atomic */
  gint          lifetime;
  GMutex        lock;
  GCond         ready;
  gboolean      started;
} StubSts;

static void
stub_sts_cb (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  StubSts *sts = user_data;
  gint n = g_atomic_int_add (&sts->n_calls, 1) + 1;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) expires = g_date_time_add_seconds (now, sts->lifetime);
  g_autofree char *when = g_date_time_format (expires, "%Y-%m-%dT%H:%M:%SZ");
  g_autofree char *xml = NULL;

  g_assert_nonnull (soup_message_headers_get_one (soup_server_message_get_request_headers (msg),
                                                  "Authorization"));
  xml = g_strdup_printf ("<AssumeRoleResponse><AssumeRoleResult><Credentials>"
                         "<AccessKeyId>ASIA%d</AccessKeyId>"
                         "<SecretAccessKey>secret%d</SecretAccessKey>"
                         "<SessionToken>token%d</SessionToken>"
                         "<Expiration>%s</Expiration></Credentials></AssumeRoleResult>"
                         "</AssumeRoleResponse>", n, n, n, when);
  soup_server_message_set_status (msg, 200, NULL);
  soup_server_message_set_response (msg, "text/xml", SOUP_MEMORY_COPY, xml, strlen (xml));
}

static gpointer
stub_sts_thread (gpointer data)
{
  StubSts *sts = data;
  g_autoptr(GError) error = NULL;
  GSList *uris;

  g_main_context_push_thread_default (sts->context);
  sts->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (sts->server, "/", stub_sts_cb, sts, NULL);
  {
    g_autoptr(GSocketAddress) address = g_inet_socket_address_new_from_string ("127.0.0.1", 0);

    /* soup_server_listen_local() leaks its address in libsoup 3.2 */
    g_assert_true (soup_server_listen (sts->server, address, 0, &error));
  }
  g_assert_no_error (error);
  uris = soup_server_get_uris (sts->server);
  sts->url = g_uri_to_string (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  g_mutex_lock (&sts->lock);
  sts->started = TRUE;
  g_cond_signal (&sts->ready);
  g_mutex_unlock (&sts->lock);
  g_main_loop_run (sts->loop);
  soup_server_disconnect (sts->server);
  g_clear_object (&sts->server);
  g_main_context_pop_thread_default (sts->context);
  return NULL;
}

static StubSts *
stub_sts_new (gint lifetime)
{
  StubSts *sts = g_new0 (StubSts, 1);

  sts->lifetime = lifetime;
  sts->context = g_main_context_new ();
  sts->loop = g_main_loop_new (sts->context, FALSE);
  g_mutex_init (&sts->lock);
  g_cond_init (&sts->ready);
  sts->thread = g_thread_new ("stub-sts", stub_sts_thread, sts);
  g_mutex_lock (&sts->lock);
  while (!sts->started)
    g_cond_wait (&sts->ready, &sts->lock);
  g_mutex_unlock (&sts->lock);
  return sts;
}

static gboolean
quit_cb (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
stub_sts_free (StubSts *sts)
{
  g_main_context_invoke (sts->context, quit_cb, sts->loop);
  g_thread_join (sts->thread);
  g_main_loop_unref (sts->loop);
  g_main_context_unref (sts->context);
  g_free (sts->url);
  g_free (sts);
}

/* Two connections to one role profile share its temporary credentials; a refresh asks STS
 * again; credentials about to expire are not reused; a chain reuses its first role. */
static void
test_role_credentials_cached (Fixture       *f,
                              gconstpointer  data)
{
  StubSts *sts = stub_sts_new (3600);
  g_autoptr(DynoResolvedConfig) first = NULL;
  g_autoptr(DynoResolvedConfig) second = NULL;
  g_autoptr(DynoResolvedConfig) chained = NULL;
  g_autoptr(DynoCredentials) refreshed = NULL;
  g_autoptr(GError) error = NULL;

  dyno_credentials_clear_cache ();
  write_config (f, "[profile r]\nregion = eu-west-1\nrole_arn = arn:aws:iam::1:role/R\n"
                   "source_profile = k\n"
                   "[profile top]\nregion = eu-west-1\nrole_arn = arn:aws:iam::1:role/T\n"
                   "source_profile = r\n"
                   "[profile k]\naws_access_key_id = AKIDK\naws_secret_access_key = s\n");
  setenv_f (f, "AWS_ENDPOINT_URL_STS", sts->url);
  setenv_f (f, "AWS_PROFILE", "r");
  first = resolve_ok (f, NULL);
  g_assert_cmpint (first->kind, ==, DYNO_CREDENTIAL_KIND_ROLE);
  g_assert_true (dyno_resolved_config_can_refresh (first));
  g_assert_cmpstr (dyno_credentials_get_access_key_id (first->credentials), ==, "ASIA1");
  g_assert_nonnull (dyno_credentials_get_expiration (first->credentials));
  second = resolve_ok (f, NULL);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (second->credentials), ==, "ASIA1");
  g_assert_cmpint (g_atomic_int_get (&sts->n_calls), ==, 1);

  refreshed = dyno_credentials_refresh (first, f->env, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (refreshed), ==, "ASIA2");
  g_assert_cmpstr (dyno_credentials_get_session_token (refreshed), ==, "token2");
  g_assert_cmpint (g_atomic_int_get (&sts->n_calls), ==, 2);

  /* the chain: r's credentials (ASIA2, in memory) sign the AssumeRole of top */
  setenv_f (f, "AWS_PROFILE", "top");
  chained = resolve_ok (f, NULL);
  g_assert_cmpstr (dyno_credentials_get_access_key_id (chained->credentials), ==, "ASIA3");
  g_assert_cmpint (g_atomic_int_get (&sts->n_calls), ==, 3);

  /* credentials that expire within the refresh window are fetched again */
  dyno_credentials_clear_cache ();
  sts->lifetime = 60;
  {
    g_autoptr(DynoResolvedConfig) a = NULL;
    g_autoptr(DynoResolvedConfig) b = NULL;

    setenv_f (f, "AWS_PROFILE", "r");
    a = resolve_ok (f, NULL);
    b = resolve_ok (f, NULL);
    g_assert_cmpstr (dyno_credentials_get_access_key_id (a->credentials), !=,
                     dyno_credentials_get_access_key_id (b->credentials));
    g_assert_cmpint (g_atomic_int_get (&sts->n_calls), ==, 5);
  }
  dyno_credentials_clear_cache ();
  stub_sts_free (sts);
}

static void
test_profile_kinds (Fixture       *f,
                    gconstpointer  data)
{
  write_config (f, "[profile role]\nrole_arn = arn:aws:iam::1:role/R\nsource_profile = keys\n"
                   "[profile web]\nrole_arn = arn:aws:iam::1:role/W\n"
                   "web_identity_token_file = /t\n"
                   "[profile sso]\nsso_session = corp\nsso_account_id = 1\nsso_role_name = R\n"
                   "[profile legacy]\nsso_start_url = https://x\nsso_region = eu-west-1\n"
                   "[profile proc]\ncredential_process = /bin/true\n"
                   "[profile config-keys]\naws_access_key_id = A\naws_secret_access_key = s\n"
                   "[profile empty]\nregion = eu-west-1\n");
  write_credentials (f, "[keys]\naws_access_key_id = A\naws_secret_access_key = s\n"
                        "[proc]\naws_access_key_id = A\naws_secret_access_key = s\n");
  g_assert_cmpint (dyno_aws_profile_kind (f->env, "role"), ==, DYNO_CREDENTIAL_KIND_ROLE);
  g_assert_cmpint (dyno_aws_profile_kind (f->env, "web"), ==, DYNO_CREDENTIAL_KIND_WEB_IDENTITY);
  g_assert_cmpint (dyno_aws_profile_kind (f->env, "sso"), ==, DYNO_CREDENTIAL_KIND_SSO);
  g_assert_cmpint (dyno_aws_profile_kind (f->env, "legacy"), ==, DYNO_CREDENTIAL_KIND_SSO);
  /* keys in the credentials file come before credential_process, as in botocore */
  g_assert_cmpint (dyno_aws_profile_kind (f->env, "proc"), ==, DYNO_CREDENTIAL_KIND_KEYS);
  g_assert_cmpint (dyno_aws_profile_kind (f->env, "keys"), ==, DYNO_CREDENTIAL_KIND_KEYS);
  g_assert_cmpint (dyno_aws_profile_kind (f->env, "config-keys"), ==, DYNO_CREDENTIAL_KIND_KEYS);
  g_assert_cmpint (dyno_aws_profile_kind (f->env, "empty"), ==, DYNO_CREDENTIAL_KIND_NONE);
  g_assert_cmpint (dyno_aws_profile_kind (f->env, "nowhere"), ==, DYNO_CREDENTIAL_KIND_NONE);
  write_credentials (f, "");
  g_assert_cmpint (dyno_aws_profile_kind (f->env, "proc"), ==, DYNO_CREDENTIAL_KIND_PROCESS);
  g_assert_cmpstr (dyno_credential_kind_get_label (DYNO_CREDENTIAL_KIND_SSO), ==,
                   "IAM Identity Center");
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/credentials/object", test_credentials_object);
  ADD ("/credentials/explicit-keys", test_explicit_keys);
  ADD ("/credentials/environment", test_environment);
  ADD ("/credentials/environment-partial", test_environment_partial);
  ADD ("/credentials/environment-vs-profiles", test_environment_vs_profiles);
  ADD ("/credentials/default-profile", test_default_profile);
  ADD ("/credentials/profile-selection", test_profile_selection);
  ADD ("/credentials/profile-not-found", test_profile_not_found);
  ADD ("/credentials/no-default-fallback", test_no_default_fallback);
  ADD ("/credentials/config-file-keys", test_config_file_keys_and_precedence);
  ADD ("/credentials/partial-profile-keys", test_partial_profile_keys);
  ADD ("/credentials/missing-everything", test_missing_everything);
  ADD ("/credentials/custom-file-locations", test_custom_file_locations);
  ADD ("/credentials/malformed-files", test_malformed_files);
  ADD ("/credentials/profile-kind-errors", test_profile_kind_errors);
  ADD ("/credentials/sts-endpoint-precedence", test_sts_endpoint_precedence);
  ADD ("/credentials/sso-token-cache", test_sso_token_cache);
  ADD ("/credentials/role-credentials-cached", test_role_credentials_cached);
  ADD ("/credentials/profile-kinds", test_profile_kinds);
  ADD ("/credentials/region-precedence", test_region_precedence);
  ADD ("/credentials/region-missing", test_region_missing);
  ADD ("/credentials/endpoint-precedence", test_endpoint_precedence);
  ADD ("/credentials/endpoint-errors", test_endpoint_errors);
  ADD ("/credentials/endpoint-flags", test_endpoint_flags);
  ADD ("/credentials/local/precedence", test_local_precedence);
  ADD ("/credentials/local/fallback-limits", test_local_fallback_limits);
  ADD ("/credentials/profiles/list-and-check", test_list_and_check_profiles);
  ADD ("/credentials/process/ok", test_process_ok);
  ADD ("/credentials/process/failures", test_process_failures);
  ADD ("/credentials/process/path-from-env", test_process_path_from_env);
  ADD ("/credentials/process/exit-status", test_process_exit_status);
  ADD ("/credentials/process/expiration-and-refresh", test_process_expiration_and_refresh);
  ADD ("/credentials/process/refresh-without-process", test_refresh_without_process);
  ADD ("/credentials/process/cancelled", test_process_cancelled);
  ADD ("/credentials/async", test_async);

  return g_test_run ();
}
