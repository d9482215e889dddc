/* dyno-endpoints.c: region → DynamoDB endpoint, and checks for custom endpoint URLs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-endpoints.h"

#include <glib/gi18n-lib.h>
#include <gio/gio.h>
#include <string.h>

#include "dyno-error.h"

/* The partitions of botocore's data/partitions.json, in its order (the first match wins). */
typedef struct {
  const char *id;
  const char *region_regex;
  const char *dns_suffix;
  const char *dual_stack_dns_suffix;  /* NULL: no dual-stack endpoints */
} Partition;

static const Partition partitions[] = {
  { "aws", "^(us|eu|ap|sa|ca|me|af|il|mx)\\-\\w+\\-\\d+$", "amazonaws.com", "api.aws" },
  { "aws-cn", "^cn\\-\\w+\\-\\d+$", "amazonaws.com.cn", "api.amazonwebservices.com.cn" },
  { "aws-us-gov", "^us\\-gov\\-\\w+\\-\\d+$", "amazonaws.com", "api.aws" },
  { "aws-iso", "^us\\-iso\\-\\w+\\-\\d+$", "c2s.ic.gov", NULL },
  { "aws-iso-b", "^us\\-isob\\-\\w+\\-\\d+$", "sc2s.sgov.gov", NULL },
  { "aws-iso-e", "^eu\\-isoe\\-\\w+\\-\\d+$", "cloud.adc-e.uk", NULL },
  { "aws-iso-f", "^us\\-isof\\-\\w+\\-\\d+$", "csp.hci.ic.gov", NULL },
  { "aws-eusc", "^eusc\\-(de)\\-\\w+\\-\\d+$", "amazonaws.eu", NULL },
};

static const char * const known_regions[] = {
  /* aws */
  "af-south-1", "ap-east-1", "ap-east-2", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3",
  "ap-south-1", "ap-south-2", "ap-southeast-1", "ap-southeast-2", "ap-southeast-3",
  "ap-southeast-4", "ap-southeast-5", "ap-southeast-7", "ca-central-1", "ca-west-1",
  "eu-central-1", "eu-central-2", "eu-north-1", "eu-south-1", "eu-south-2", "eu-west-1",
  "eu-west-2", "eu-west-3", "il-central-1", "me-central-1", "me-south-1", "mx-central-1",
  "sa-east-1", "us-east-1", "us-east-2", "us-west-1", "us-west-2",
  /* aws-cn */
  "cn-north-1", "cn-northwest-1",
  /* aws-us-gov */
  "us-gov-east-1", "us-gov-west-1",
  /* aws-iso, aws-iso-b, aws-iso-e, aws-iso-f */
  "us-iso-east-1", "us-iso-west-1", "us-isob-east-1", "eu-isoe-west-1", "us-isof-east-1",
  "us-isof-south-1",
  /* aws-eusc */
  "eusc-de-east-1",
  NULL
};

void
dyno_endpoint_free (DynoEndpoint *endpoint)
{
  if (endpoint == NULL)
    return;
  g_free (endpoint->url);
  g_free (endpoint->host);
  g_free (endpoint->signing_region);
  g_free (endpoint->partition);
  g_free (endpoint);
}

const char * const *
dyno_endpoint_known_regions (void)
{
  return known_regions;
}

gboolean
dyno_endpoint_region_is_valid (const char *region)
{
  gsize len;

  if (region == NULL)
    return FALSE;
  len = strlen (region);
  if (len == 0 || len > 63 || region[0] == '-' || region[len - 1] == '-')
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (region[i]) && region[i] != '-')
      return FALSE;
  return TRUE;
}

static const Partition *
partition_for_region (const char *region)
{
  for (gsize i = 0; i < G_N_ELEMENTS (partitions); i++)
    if (g_regex_match_simple (partitions[i].region_regex, region, 0, 0))
      return &partitions[i];
  /* An unknown region name goes to the aws partition, as the SDKs' partition function does. */
  return &partitions[0];
}

const char *
dyno_endpoint_partition_for_region (const char *region)
{
  g_return_val_if_fail (region != NULL, NULL);
  return partition_for_region (region)->id;
}

gboolean
dyno_endpoint_host_is_loopback (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;

  if (host == NULL || *host == '\0')
    return FALSE;
  if (g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;
  address = g_inet_address_new_from_string (host);
  return address != NULL && g_inet_address_get_is_loopback (address);
}

gboolean
dyno_endpoint_validate_url (const char  *url,
                            GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *scheme;
  const char *host;

  g_return_val_if_fail (url != NULL, FALSE);

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, &local_error);
  if (uri == NULL || g_uri_get_scheme (uri) == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The endpoint “%s” is not a valid URL; write it like "
                     "https://dynamodb.example.com or http://localhost:8000."), url);
      return FALSE;
    }
  scheme = g_uri_get_scheme (uri);
  host = g_uri_get_host (uri);
  if (g_ascii_strcasecmp (scheme, "https") != 0 && g_ascii_strcasecmp (scheme, "http") != 0)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The endpoint “%s” must start with https:// (or http:// for this "
                     "computer)."), url);
      return FALSE;
    }
  if (host == NULL || *host == '\0')
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The endpoint “%s” has no host name."), url);
      return FALSE;
    }
  if (g_uri_get_userinfo (uri) != NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The endpoint “%s” contains a user name or password; remove it (credentials "
                     "are never sent in the URL)."), url);
      return FALSE;
    }
  if (g_uri_get_query (uri) != NULL || g_uri_get_fragment (uri) != NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The endpoint “%s” must not have a query (?…) or a fragment (#…)."), url);
      return FALSE;
    }
  if (g_ascii_strcasecmp (scheme, "http") == 0 && !dyno_endpoint_host_is_loopback (host))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The endpoint “%s” uses plain http://, which is only allowed for this "
                     "computer (localhost, 127.0.0.0/8 or ::1); use https:// for “%s”."),
                   url, host);
      return FALSE;
    }
  return TRUE;
}

static char *
host_with_port (GUri *uri)
{
  const char *host = g_uri_get_host (uri);
  gboolean ipv6 = strchr (host, ':') != NULL;
  int port = g_uri_get_port (uri);
  const char *scheme = g_uri_get_scheme (uri);
  gboolean default_port = port == -1
                          || (port == 443 && g_ascii_strcasecmp (scheme, "https") == 0)
                          || (port == 80 && g_ascii_strcasecmp (scheme, "http") == 0);
  g_autofree char *lower = g_ascii_strdown (host, -1);

  if (default_port)
    return ipv6 ? g_strdup_printf ("[%s]", lower) : g_steal_pointer (&lower);
  return ipv6 ? g_strdup_printf ("[%s]:%d", lower, port) : g_strdup_printf ("%s:%d", lower, port);
}

DynoEndpoint *
dyno_endpoint_resolve (const char         *region,
                       const char         *custom_url,
                       DynoEndpointFlags   flags,
                       GError            **error)
{
  g_autoptr(DynoEndpoint) endpoint = g_new0 (DynoEndpoint, 1);
  gboolean fips = (flags & DYNO_ENDPOINT_FIPS) != 0;
  gboolean dual_stack = (flags & DYNO_ENDPOINT_DUAL_STACK) != 0;
  const Partition *partition;
  const char *prefix;
  const char *suffix;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (custom_url != NULL)
    {
      g_autoptr(GUri) uri = NULL;
      g_autofree char *scheme = NULL;
      g_autofree char *host = NULL;
      g_autofree char *path = NULL;
      gsize len;

      if (fips || dual_stack)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       _("A custom endpoint cannot be combined with %s endpoints."),
                       fips ? "FIPS" : "dual-stack");
          return NULL;
        }
      if (!dyno_endpoint_validate_url (custom_url, error))
        return NULL;
      uri = g_uri_parse (custom_url, G_URI_FLAGS_NONE, NULL);
      g_assert (uri != NULL);
      /* Scheme and host in lower case, no trailing slash: the URL libsoup sends to must give
       * the very Host header that is signed. */
      scheme = g_ascii_strdown (g_uri_get_scheme (uri), -1);
      host = g_ascii_strdown (g_uri_get_host (uri), -1);
      path = g_strdup (g_uri_get_path (uri));
      len = strlen (path);
      while (len > 0 && path[len - 1] == '/')
        path[--len] = '\0';
      endpoint->url = g_uri_join (G_URI_FLAGS_NONE, scheme, NULL, host, g_uri_get_port (uri),
                                  path, NULL, NULL);
      endpoint->host = host_with_port (uri);
      endpoint->signing_region = g_strdup (region != NULL && !g_str_equal (region, "local")
                                           ? region : "us-east-1");
      return g_steal_pointer (&endpoint);
    }

  if (region == NULL || *region == '\0')
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("No region is set: choose a region such as us-east-1, or give an endpoint "
                     "URL."));
      return NULL;
    }

  if (g_str_equal (region, "local"))
    {
      if (fips || dual_stack)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                       _("The region “local” (DynamoDB Local) has no %s endpoint."),
                       fips ? "FIPS" : "dual-stack");
          return NULL;
        }
      endpoint->url = g_strdup ("http://localhost:8000");
      endpoint->host = g_strdup ("localhost:8000");
      endpoint->signing_region = g_strdup ("us-east-1");
      return g_steal_pointer (&endpoint);
    }

  if (!dyno_endpoint_region_is_valid (region))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("“%s” is not a valid region name: use letters, digits and hyphens, such as "
                     "eu-west-1."), region);
      return NULL;
    }

  partition = partition_for_region (region);
  if (dual_stack && partition->dual_stack_dns_suffix == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   /* Translators: the AWS partition (such as aws-cn), then the region. */
                   _("Dual-stack endpoints are not available in the %s partition (region %s)."),
                   partition->id, region);
      return NULL;
    }

  suffix = dual_stack ? partition->dual_stack_dns_suffix : partition->dns_suffix;
  prefix = fips ? "dynamodb-fips" : "dynamodb";
  /* GovCloud's plain DynamoDB endpoints are FIPS endpoints already; the rule set keeps the
   * plain host there unless dual-stack is asked for too. */
  if (fips && !dual_stack && g_str_equal (partition->id, "aws-us-gov"))
    prefix = "dynamodb";

  endpoint->host = g_strdup_printf ("%s.%s.%s", prefix, region, suffix);
  endpoint->url = g_strdup_printf ("https://%s", endpoint->host);
  endpoint->signing_region = g_strdup (region);
  endpoint->partition = g_strdup (partition->id);
  return g_steal_pointer (&endpoint);
}

gboolean
dyno_endpoint_is_local_url (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;

  return uri != NULL && g_uri_get_host (uri) != NULL
         && dyno_endpoint_host_is_loopback (g_uri_get_host (uri));
}
