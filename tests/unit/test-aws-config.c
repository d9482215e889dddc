/* test-aws-config.c: the ~/.aws/config and ~/.aws/credentials parser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "dyno-aws-config.h"
#include "dyno-error.h"

static DynoAwsConfig *
parse_ok (const char      *text,
          DynoAwsFileKind  kind)
{
  g_autoptr(GError) error = NULL;
  DynoAwsConfig *config = dyno_aws_config_parse (text, -1, "/home/u/.aws/config", kind, &error);

  g_assert_no_error (error);
  g_assert_nonnull (config);
  return config;
}

static DynoAwsSection *
profile (DynoAwsConfig *config,
         const char    *name)
{
  return dyno_aws_config_get_section (config, DYNO_AWS_SECTION_PROFILE, name);
}

static void
test_config_profiles (void)
{
  g_autoptr(DynoAwsConfig) config = parse_ok (
    "# a comment\n"
    "; another comment\n"
    "[default]\n"
    "region = us-east-1\n"
    "\n"
    "[profile dev]\n"
    "region=eu-west-1\n"
    "output   =   json   \n"
    "[dev]\n"                          /* not a profile in the config file */
    "region = ap-south-1\n"
    "[profile   spaced  ]\n"
    "region = sa-east-1\n"
    "[profilex]\n"
    "region = nope\n", DYNO_AWS_FILE_CONFIG);
  g_auto(GStrv) names = dyno_aws_config_dup_profile_names (config);
  DynoAwsSection *dev;

  g_assert_cmpstr (dyno_aws_section_get (profile (config, "default"), "region"), ==, "us-east-1");
  dev = profile (config, "dev");
  g_assert_nonnull (dev);
  g_assert_cmpstr (dyno_aws_section_get (dev, "region"), ==, "eu-west-1");
  g_assert_cmpstr (dyno_aws_section_get (dev, "output"), ==, "json");
  g_assert_cmpuint (dyno_aws_section_get_line (dev), ==, 6);
  g_assert_cmpuint (dyno_aws_section_get_key_line (dev, "region"), ==, 7);
  g_assert_cmpuint (dyno_aws_section_get_key_line (dev, "missing"), ==, 0);
  g_assert_null (dyno_aws_section_get (dev, "missing"));
  g_assert_cmpstr (dyno_aws_section_get (profile (config, "spaced"), "region"), ==, "sa-east-1");
  g_assert_null (profile (config, "profilex"));
  g_assert_null (profile (config, "x"));

  g_assert_cmpstrv (names, ((const char *[]) { "default", "dev", "spaced", NULL }));
}

static void
test_credentials_bare_names (void)
{
  g_autoptr(DynoAwsConfig) creds = parse_ok (
    "[default]\n"
    "aws_access_key_id = AKIADEFAULT\n"
    "aws_secret_access_key = secret/with+chars=\n"
    "[dev]\n"
    "aws_access_key_id = AKIADEV\n"
    "[profile prod]\n"
    "aws_access_key_id = AKIAPROD\n", DYNO_AWS_FILE_CREDENTIALS);

  g_assert_cmpstr (dyno_aws_section_get (profile (creds, "default"), "aws_secret_access_key"), ==,
                   "secret/with+chars=");
  g_assert_cmpstr (dyno_aws_section_get (profile (creds, "dev"), "aws_access_key_id"), ==,
                   "AKIADEV");
  /* In the credentials file the name is taken literally: "profile prod" is not "prod". */
  g_assert_null (profile (creds, "prod"));
  g_assert_nonnull (profile (creds, "profile prod"));
}

static void
test_comments (void)
{
  g_autoptr(DynoAwsConfig) config = parse_ok (
    "[default] # trailing comment\n"
    "region = us-west-2 # why this region\n"
    "endpoint_url = https://example.com/#frag;x\n"
    "other = a ;b\n"
    "  # an indented comment line\n"
    "[profile x];c\n"
    "k = v\n", DYNO_AWS_FILE_CONFIG);
  DynoAwsSection *def = profile (config, "default");

  g_assert_cmpstr (dyno_aws_section_get (def, "region"), ==, "us-west-2");
  g_assert_cmpstr (dyno_aws_section_get (def, "endpoint_url"), ==, "https://example.com/#frag;x");
  g_assert_cmpstr (dyno_aws_section_get (def, "other"), ==, "a");
  g_assert_cmpstr (dyno_aws_section_get (profile (config, "x"), "k"), ==, "v");
}

static void
test_services_subsections (void)
{
  g_autoptr(DynoAwsConfig) config = parse_ok (
    "[profile dev]\n"
    "region = eu-west-1\n"
    "services = local-ddb\n"
    "s3 =\n"
    "  max_concurrent_requests = 20\n"
    "\n"
    "[services local-ddb]\n"
    "dynamodb =\n"
    "  endpoint_url = http://localhost:8000\n"
    "\tregion = us-east-1\n"
    "s3 =\n"
    "  endpoint_url = http://localhost:9000\n"
    "[sso-session corp]\n"
    "sso_start_url = https://corp.awsapps.com/start\n"
    "sso_region = us-east-1\n", DYNO_AWS_FILE_CONFIG);
  DynoAwsSection *services = dyno_aws_config_get_section (config, DYNO_AWS_SECTION_SERVICES,
                                                          "local-ddb");
  DynoAwsSection *sso = dyno_aws_config_get_section (config, DYNO_AWS_SECTION_SSO_SESSION,
                                                     "corp");
  g_auto(GStrv) names = dyno_aws_config_dup_profile_names (config);

  g_assert_nonnull (services);
  g_assert_cmpstr (dyno_aws_section_get (services, "dynamodb"), ==, "");
  g_assert_cmpstr (dyno_aws_section_get_sub (services, "dynamodb", "endpoint_url"), ==,
                   "http://localhost:8000");
  g_assert_cmpuint (dyno_aws_section_get_sub_line (services, "dynamodb", "endpoint_url"), ==, 9);
  g_assert_cmpstr (dyno_aws_section_get_sub (services, "dynamodb", "region"), ==, "us-east-1");
  g_assert_cmpstr (dyno_aws_section_get_sub (services, "s3", "endpoint_url"), ==,
                   "http://localhost:9000");
  g_assert_null (dyno_aws_section_get_sub (services, "dynamodb", "nope"));
  g_assert_null (dyno_aws_section_get_sub (services, "sqs", "endpoint_url"));
  g_assert_cmpstr (dyno_aws_section_get_sub (profile (config, "dev"), "s3",
                                             "max_concurrent_requests"), ==, "20");
  g_assert_cmpstr (dyno_aws_section_get (profile (config, "dev"), "services"), ==, "local-ddb");
  g_assert_nonnull (sso);
  g_assert_cmpstr (dyno_aws_section_get (sso, "sso_region"), ==, "us-east-1");
  /* Neither services nor sso-session sections are profiles. */
  g_assert_cmpstrv (names, ((const char *[]) { "dev", NULL }));
}

static void
test_continuation (void)
{
  g_autoptr(DynoAwsConfig) config = parse_ok (
    "[default]\n"
    "long = first\n"
    "   second\n"
    "\tthird\n", DYNO_AWS_FILE_CONFIG);

  g_assert_cmpstr (dyno_aws_section_get (profile (config, "default"), "long"), ==,
                   "first\nsecond\nthird");
}

static void
test_merge_and_override (void)
{
  g_autoptr(DynoAwsConfig) config = parse_ok (
    "[profile a]\r\n"
    "region = one\r\n"
    "Output = text\r\n"
    "[profile b]\n"
    "region = b\n"
    "[profile a]\n"
    "region = two\n"
    "output = json\n", DYNO_AWS_FILE_CONFIG);
  DynoAwsSection *a = profile (config, "a");

  g_assert_cmpstr (dyno_aws_section_get (a, "region"), ==, "two");
  g_assert_cmpuint (dyno_aws_section_get_key_line (a, "region"), ==, 7);
  /* Keys are case-insensitive; the last value wins. */
  g_assert_cmpstr (dyno_aws_section_get (a, "OUTPUT"), ==, "json");
  g_assert_cmpuint (dyno_aws_section_get_line (a), ==, 1);
}

static void
test_default_forms (void)
{
  g_autoptr(DynoAwsConfig) config = parse_ok ("\xef\xbb\xbf[profile default]\nregion = r1\n",
                                              DYNO_AWS_FILE_CONFIG);

  g_assert_cmpstr (dyno_aws_section_get (profile (config, "default"), "region"), ==, "r1");
}

typedef struct {
  const char *text;
  guint       line;
  const char *words;   /* a fragment the message must contain */
} BadCase;

static void
test_errors (void)
{
  static const BadCase cases[] = {
    { "region = x\n", 1, "section header" },
    { "# ok\n\n  indented = x\n", 3, "section header" },
    { "[default]\nregion\n", 2, "key = value" },
    { "[default]\nregion = a\n= b\n", 3, "no name" },
    { "[default\nregion = a\n", 1, "]" },
    { "[default]\n[]\n", 2, "no name" },
    { "[default] junk\n", 1, "after the section header" },
    { "[default]\n  indented = x\n", 2, "must follow" },
    { "[default]\nregion = a\n[profile x]\ndynamodb =\n  not a pair\n", 5, "sub-property" },
    { "[default]\nregion = \xff\xfe\n", 2, "UTF-8" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoAwsConfig) config = NULL;
      g_autofree char *prefix = g_strdup_printf ("/tmp/cfg:%u: ", cases[i].line);

      config = dyno_aws_config_parse (cases[i].text, -1, "/tmp/cfg", DYNO_AWS_FILE_CONFIG, &error);
      g_test_message ("case %" G_GSIZE_FORMAT ": %s", i, error != NULL ? error->message : "-");
      g_assert_null (config);
      g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
      g_assert_true (g_str_has_prefix (error->message, prefix));
      g_assert_nonnull (strstr (error->message, cases[i].words));
    }
}

static void
test_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("dyno-aws-config-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *missing = NULL;
  g_autoptr(DynoAwsConfig) config = NULL;
  g_autoptr(DynoAwsConfig) none = NULL;
  g_autoptr(DynoAwsConfig) bad = NULL;

  g_assert_no_error (error);
  path = g_build_filename (dir, "config", NULL);
  missing = g_build_filename (dir, "nope", NULL);
  g_file_set_contents (path, "[profile p]\nregion = eu-north-1\n", -1, &error);
  g_assert_no_error (error);

  config = dyno_aws_config_load (path, DYNO_AWS_FILE_CONFIG, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_aws_config_get_exists (config));
  g_assert_cmpstr (dyno_aws_config_get_filename (config), ==, path);
  g_assert_cmpstr (dyno_aws_section_get (profile (config, "p"), "region"), ==, "eu-north-1");

  none = dyno_aws_config_load (missing, DYNO_AWS_FILE_CONFIG, &error);
  g_assert_no_error (error);
  g_assert_false (dyno_aws_config_get_exists (none));
  g_assert_null (profile (none, "default"));

  g_file_set_contents (path, "[profile p]\nbroken\n", -1, &error);
  g_assert_no_error (error);
  bad = dyno_aws_config_load (path, DYNO_AWS_FILE_CONFIG, &error);
  g_assert_null (bad);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  {
    g_autofree char *prefix = g_strdup_printf ("%s:2: ", path);

    g_assert_true (g_str_has_prefix (error->message, prefix));
  }

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/aws-config/config-profiles", test_config_profiles);
  g_test_add_func ("/aws-config/credentials-bare-names", test_credentials_bare_names);
  g_test_add_func ("/aws-config/comments", test_comments);
  g_test_add_func ("/aws-config/services-subsections", test_services_subsections);
  g_test_add_func ("/aws-config/continuation", test_continuation);
  g_test_add_func ("/aws-config/merge-and-override", test_merge_and_override);
  g_test_add_func ("/aws-config/default-forms", test_default_forms);
  g_test_add_func ("/aws-config/errors", test_errors);
  g_test_add_func ("/aws-config/load", test_load);

  return g_test_run ();
}
