/* fuzz-aws-config.c: the AWS config/credentials parser, endpoint checks and SigV4
 * canonicalisation on arbitrary bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built with -DDYNO_LIBFUZZER and -fsanitize=fuzzer it is a libFuzzer target; without, main()
 * runs every file named on the command line (or every file in a directory) once, so the
 * corpus (tests/fuzz/corpus/aws-config/, plain config and credentials files) can be replayed.
 *
 * The parser must either accept the text (and then every profile it lists can be looked up)
 * or reject it with DYNO_ERROR_CONFIG and a "FILE:LINE: " prefix naming a line of the text.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyno-aws-config.h"
#include "dyno-endpoints.h"
#include "dyno-error.h"
#include "dyno-sigv4.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static guint
count_lines (const guint8 *data,
             size_t        size)
{
  guint lines = 1;

  for (size_t i = 0; i < size; i++)
    if (data[i] == '\n')
      lines++;
  return lines;
}

static void
parse_one (const guint8    *data,
           size_t           size,
           DynoAwsFileKind  kind)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoAwsConfig) config = dyno_aws_config_parse ((const char *) data, size, "fuzz",
                                                           kind, &error);

  if (config == NULL)
    {
      guint line;

      if (!g_error_matches (error, DYNO_ERROR, DYNO_ERROR_CONFIG))
        g_error ("rejected without a DYNO_ERROR_CONFIG");
      if (!g_str_has_prefix (error->message, "fuzz:"))
        g_error ("the message does not name the file: %s", error->message);
      line = (guint) strtoul (error->message + strlen ("fuzz:"), NULL, 10);
      if (line == 0 || line > count_lines (data, size))
        g_error ("the message names line %u of %u: %s", line, count_lines (data, size),
                 error->message);
      return;
    }
  if (error != NULL)
    g_error ("accepted with an error set");

  {
    g_auto(GStrv) names = dyno_aws_config_dup_profile_names (config);

    for (guint i = 0; names[i] != NULL; i++)
      {
        DynoAwsSection *section = dyno_aws_config_get_section (config, DYNO_AWS_SECTION_PROFILE,
                                                               names[i]);

        if (section == NULL)
          g_error ("listed profile “%s” cannot be looked up", names[i]);
        if (dyno_aws_section_get_line (section) == 0)
          g_error ("profile “%s” has no line", names[i]);
        dyno_aws_section_get (section, "region");
        dyno_aws_section_get_sub (section, "dynamodb", "endpoint_url");
      }
  }
}

static void
sign_one (const guint8 *data,
          size_t        size)
{
  g_autoptr(DynoCredentials) creds = dyno_credentials_new ("AKID", "SECRET", "TOKEN", NULL);
  g_autoptr(GPtrArray) headers = dyno_headers_new ();
  g_autoptr(DynoSigv4Result) result = NULL;
  g_autofree char *text = g_strndup ((const char *) data, size);
  char *query = strchr (text, '?');
  DynoSigv4Request request = { .method = "POST", .headers = NULL };

  if (query != NULL)
    *query++ = '\0';
  g_ptr_array_add (headers, dyno_header_new ("Host", "localhost:8000"));
  g_ptr_array_add (headers, dyno_header_new ("X-Odd", text));
  request.path = text;
  request.query = query;
  request.headers = headers;
  request.body = data;
  request.body_len = size;
  result = dyno_sigv4_sign (&request, creds, "us-east-1", "dynamodb", "20150830T123600Z");
  if (result == NULL || strlen (result->signature) != 64)
    g_error ("signing failed");
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);

  parse_one (data, size, DYNO_AWS_FILE_CONFIG);
  parse_one (data, size, DYNO_AWS_FILE_CREDENTIALS);
  sign_one (data, size);

  /* The same bytes as an endpoint URL and as a region. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynoEndpoint) endpoint = dyno_endpoint_resolve (text, NULL, 0, &error);
    g_autoptr(GError) url_error = NULL;
    g_autoptr(DynoEndpoint) custom = dyno_endpoint_resolve ("us-east-1", text, 0, &url_error);

    if ((endpoint == NULL) == (error == NULL))
      g_error ("region: result and error disagree");
    if ((custom == NULL) == (url_error == NULL))
      g_error ("URL: result and error disagree");
    if (custom != NULL)
      {
        /* Only loopback may be plain http. */
        g_autoptr(GUri) uri = g_uri_parse (custom->url, G_URI_FLAGS_NONE, NULL);

        if (uri == NULL)
          g_error ("accepted an endpoint that is not a URL");
        if (g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") != 0
            && !dyno_endpoint_host_is_loopback (g_uri_get_host (uri)))
          g_error ("accepted plain http to %s", custom->host);
      }
  }
  return 0;
}

#ifndef DYNO_LIBFUZZER
static void
run_file (const char *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(GError) error = NULL;

  if (!g_file_get_contents (path, &contents, &length, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      exit (1);
    }

  LLVMFuzzerTestOneInput ((const guint8 *) contents, length);
}

int
main (int    argc,
      char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    {
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          g_autoptr(GDir) dir = g_dir_open (argv[i], 0, NULL);
          const char *name;

          while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
            {
              g_autofree char *path = g_build_filename (argv[i], name, NULL);

              if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
                {
                  run_file (path);
                  n++;
                }
            }
        }
      else
        {
          run_file (argv[i]);
          n++;
        }
    }

  printf ("ran %u inputs\n", n);
  return 0;
}
#endif
