/* test-endpoints.c: regions, partitions and custom endpoint URLs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-endpoints.h"
#include "dyno-error.h"

typedef struct {
  const char        *region;
  DynoEndpointFlags  flags;
  const char        *url;
  const char        *partition;
} RegionCase;

static void
test_regions (void)
{
  /* Expected URLs from botocore's DynamoDB endpoint tests (endpoint-tests-1.json) and the
   * partition table (dynamodb-facts.md §5.2). */
  static const RegionCase cases[] = {
    { "us-east-1", 0, "https://dynamodb.us-east-1.amazonaws.com", "aws" },
    { "eu-west-1", 0, "https://dynamodb.eu-west-1.amazonaws.com", "aws" },
    { "il-central-1", 0, "https://dynamodb.il-central-1.amazonaws.com", "aws" },
    { "mx-central-1", 0, "https://dynamodb.mx-central-1.amazonaws.com", "aws" },
    { "us-east-1", DYNO_ENDPOINT_FIPS, "https://dynamodb-fips.us-east-1.amazonaws.com", "aws" },
    { "us-east-1", DYNO_ENDPOINT_DUAL_STACK, "https://dynamodb.us-east-1.api.aws", "aws" },
    { "us-east-1", DYNO_ENDPOINT_FIPS | DYNO_ENDPOINT_DUAL_STACK,
      "https://dynamodb-fips.us-east-1.api.aws", "aws" },
    { "cn-north-1", 0, "https://dynamodb.cn-north-1.amazonaws.com.cn", "aws-cn" },
    { "cn-northwest-1", DYNO_ENDPOINT_DUAL_STACK,
      "https://dynamodb.cn-northwest-1.api.amazonwebservices.com.cn", "aws-cn" },
    { "cn-north-1", DYNO_ENDPOINT_FIPS, "https://dynamodb-fips.cn-north-1.amazonaws.com.cn",
      "aws-cn" },
    { "us-gov-west-1", 0, "https://dynamodb.us-gov-west-1.amazonaws.com", "aws-us-gov" },
    /* GovCloud's plain endpoint is already FIPS. */
    { "us-gov-west-1", DYNO_ENDPOINT_FIPS, "https://dynamodb.us-gov-west-1.amazonaws.com",
      "aws-us-gov" },
    { "us-gov-east-1", DYNO_ENDPOINT_FIPS | DYNO_ENDPOINT_DUAL_STACK,
      "https://dynamodb-fips.us-gov-east-1.api.aws", "aws-us-gov" },
    { "us-gov-east-1", DYNO_ENDPOINT_DUAL_STACK, "https://dynamodb.us-gov-east-1.api.aws",
      "aws-us-gov" },
    { "us-iso-east-1", 0, "https://dynamodb.us-iso-east-1.c2s.ic.gov", "aws-iso" },
    { "us-iso-east-1", DYNO_ENDPOINT_FIPS, "https://dynamodb-fips.us-iso-east-1.c2s.ic.gov",
      "aws-iso" },
    { "us-isob-east-1", 0, "https://dynamodb.us-isob-east-1.sc2s.sgov.gov", "aws-iso-b" },
    { "eu-isoe-west-1", 0, "https://dynamodb.eu-isoe-west-1.cloud.adc-e.uk", "aws-iso-e" },
    { "us-isof-south-1", 0, "https://dynamodb.us-isof-south-1.csp.hci.ic.gov", "aws-iso-f" },
    { "eusc-de-east-1", 0, "https://dynamodb.eusc-de-east-1.amazonaws.eu", "aws-eusc" },
    /* A region no partition claims goes to aws, as in the SDKs. */
    { "xx-future-9", 0, "https://dynamodb.xx-future-9.amazonaws.com", "aws" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoEndpoint) endpoint = dyno_endpoint_resolve (cases[i].region, NULL,
                                                                cases[i].flags, &error);

      g_test_message ("%s flags %d", cases[i].region, cases[i].flags);
      g_assert_no_error (error);
      g_assert_cmpstr (endpoint->url, ==, cases[i].url);
      g_assert_cmpstr (endpoint->host, ==, cases[i].url + strlen ("https://"));
      g_assert_cmpstr (endpoint->partition, ==, cases[i].partition);
      g_assert_cmpstr (endpoint->signing_region, ==, cases[i].region);
      g_assert_cmpstr (dyno_endpoint_partition_for_region (cases[i].region), ==,
                       cases[i].partition);
    }
}

static void
test_known_regions (void)
{
  const char * const *regions = dyno_endpoint_known_regions ();
  guint n = 0;

  for (; regions[n] != NULL; n++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoEndpoint) endpoint = dyno_endpoint_resolve (regions[n], NULL, 0, &error);

      g_assert_no_error (error);
      g_assert_true (g_str_has_prefix (endpoint->url, "https://dynamodb."));
    }
  g_assert_cmpuint (n, >, 30);
  g_assert_true (g_strv_contains (regions, "us-east-1"));
  g_assert_true (g_strv_contains (regions, "cn-north-1"));
  g_assert_true (g_strv_contains (regions, "us-gov-west-1"));
}

static void
test_local_region (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEndpoint) local = dyno_endpoint_resolve ("local", NULL, 0, &error);
  g_autoptr(DynoEndpoint) fips = NULL;
  g_autoptr(DynoEndpoint) dual = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (local->url, ==, "http://localhost:8000");
  g_assert_cmpstr (local->host, ==, "localhost:8000");
  g_assert_cmpstr (local->signing_region, ==, "us-east-1");

  fips = dyno_endpoint_resolve ("local", NULL, DYNO_ENDPOINT_FIPS, &error);
  g_assert_null (fips);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  g_clear_error (&error);
  dual = dyno_endpoint_resolve ("local", NULL, DYNO_ENDPOINT_DUAL_STACK, &error);
  g_assert_null (dual);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
}

static void
test_bad_regions (void)
{
  static const char *bad[] = {
    "", "us east 1", "evil.com/x", "-us-east-1", "us-east-1-", "us_east_1", "ü-east-1",
    "a123456789012345678901234567890123456789012345678901234567890123",
  };
  static const struct {
    const char *region;
    DynoEndpointFlags flags;
  } unsupported[] = {
    { "us-iso-east-1", DYNO_ENDPOINT_DUAL_STACK },
    { "us-isob-east-1", DYNO_ENDPOINT_DUAL_STACK | DYNO_ENDPOINT_FIPS },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoEndpoint) endpoint = dyno_endpoint_resolve (bad[i], NULL, 0, &error);

      g_assert_null (endpoint);
      g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
      g_assert_false (dyno_endpoint_region_is_valid (bad[i]));
    }
  for (gsize i = 0; i < G_N_ELEMENTS (unsupported); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoEndpoint) endpoint = dyno_endpoint_resolve (unsupported[i].region, NULL,
                                                                unsupported[i].flags, &error);

      g_assert_null (endpoint);
      g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
      g_assert_nonnull (strstr (error->message, "Dual-stack"));
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynoEndpoint) endpoint = dyno_endpoint_resolve (NULL, NULL, 0, &error);

    g_assert_null (endpoint);
    g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  }
}

typedef struct {
  const char *url;
  const char *host;   /* NULL: must be rejected */
  const char *normalized;
} UrlCase;

static void
test_custom_urls (void)
{
  static const UrlCase cases[] = {
    { "https://dynamodb.example.com", "dynamodb.example.com", "https://dynamodb.example.com" },
    { "https://dynamodb.example.com:8443/prefix/", "dynamodb.example.com:8443",
      "https://dynamodb.example.com:8443/prefix" },
    { "HTTPS://DDB.Example.com:443", "ddb.example.com", "https://ddb.example.com:443" },
    { "http://localhost:8000", "localhost:8000", "http://localhost:8000" },
    { "http://LOCALHOST:8000/", "localhost:8000", "http://localhost:8000" },
    { "http://127.0.0.1:8000", "127.0.0.1:8000", "http://127.0.0.1:8000" },
    { "http://127.45.6.7", "127.45.6.7", "http://127.45.6.7" },
    { "http://[::1]:8000", "[::1]:8000", "http://[::1]:8000" },
    { "https://[2001:db8::1]:8443", "[2001:db8::1]:8443", "https://[2001:db8::1]:8443" },
    /* plain http elsewhere is refused */
    { "http://example.com:8000", NULL },
    { "http://192.168.1.10:8000", NULL },
    { "http://10.0.0.1", NULL },
    { "http://[2001:db8::1]:8000", NULL },
    { "http://localhost.example.com", NULL },
    { "http://128.0.0.1", NULL },
    { "http://0.0.0.0:8000", NULL },
    /* and so are these */
    { "ftp://localhost", NULL },
    { "localhost:8000", NULL },
    { "dynamodb.example.com", NULL },
    { "https://", NULL },
    { "https://user:pass@example.com", NULL },
    { "https://example.com/?x=1", NULL },
    { "https://example.com/#top", NULL },
    { "not a url", NULL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) error2 = NULL;
      g_autoptr(DynoEndpoint) endpoint = NULL;
      gboolean valid = dyno_endpoint_validate_url (cases[i].url, &error);

      g_test_message ("%s: %s", cases[i].url, error != NULL ? error->message : "ok");
      endpoint = dyno_endpoint_resolve ("eu-west-1", cases[i].url, 0, &error2);
      if (cases[i].host != NULL)
        {
          g_assert_no_error (error);
          g_assert_true (valid);
          g_assert_no_error (error2);
          g_assert_cmpstr (endpoint->host, ==, cases[i].host);
          g_assert_cmpstr (endpoint->signing_region, ==, "eu-west-1");
          g_assert_null (endpoint->partition);
          g_assert_cmpstr (endpoint->url, ==, cases[i].normalized);
        }
      else
        {
          g_assert_false (valid);
          g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
          g_assert_null (endpoint);
          g_assert_error (error2, DYNO_ERROR, DYNO_ERROR_CONFIG);
        }
    }
}

static void
test_custom_url_messages (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEndpoint) endpoint = NULL;
  g_autoptr(DynoEndpoint) local = NULL;

  g_assert_false (dyno_endpoint_validate_url ("http://ddb.internal:8000", &error));
  g_assert_nonnull (strstr (error->message, "http://"));
  g_assert_nonnull (strstr (error->message, "https://"));
  g_assert_nonnull (strstr (error->message, "ddb.internal"));
  g_clear_error (&error);

  endpoint = dyno_endpoint_resolve ("us-east-1", "https://x.example.com", DYNO_ENDPOINT_FIPS,
                                    &error);
  g_assert_null (endpoint);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  g_clear_error (&error);

  /* A custom URL with no region (or "local") signs for us-east-1. */
  local = dyno_endpoint_resolve (NULL, "http://localhost:8001", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (local->signing_region, ==, "us-east-1");
  g_assert_cmpstr (local->url, ==, "http://localhost:8001");
}

static void
test_loopback (void)
{
  g_assert_true (dyno_endpoint_host_is_loopback ("localhost"));
  g_assert_true (dyno_endpoint_host_is_loopback ("127.0.0.1"));
  g_assert_true (dyno_endpoint_host_is_loopback ("127.255.255.254"));
  g_assert_true (dyno_endpoint_host_is_loopback ("::1"));
  g_assert_false (dyno_endpoint_host_is_loopback ("::2"));
  g_assert_false (dyno_endpoint_host_is_loopback ("126.0.0.1"));
  g_assert_false (dyno_endpoint_host_is_loopback (""));
  g_assert_false (dyno_endpoint_host_is_loopback ("localhost6"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/endpoints/regions", test_regions);
  g_test_add_func ("/endpoints/known-regions", test_known_regions);
  g_test_add_func ("/endpoints/local-region", test_local_region);
  g_test_add_func ("/endpoints/bad-regions", test_bad_regions);
  g_test_add_func ("/endpoints/custom-urls", test_custom_urls);
  g_test_add_func ("/endpoints/custom-url-messages", test_custom_url_messages);
  g_test_add_func ("/endpoints/loopback", test_loopback);

  return g_test_run ();
}
