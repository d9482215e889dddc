/* dyno-endpoints.h: region → DynamoDB endpoint, and checks for custom endpoint URLs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  DYNO_ENDPOINT_DEFAULT    = 0,
  DYNO_ENDPOINT_FIPS       = 1 << 0,
  DYNO_ENDPOINT_DUAL_STACK = 1 << 1,
} DynoEndpointFlags;

typedef struct {
  char *url;             /* "https://dynamodb.eu-west-1.amazonaws.com" (no trailing slash) */
  char *host;            /* what goes in the Host header: "dynamodb.eu-west-1.amazonaws.com",
                          * "localhost:8000" */
  char *signing_region;  /* the SigV4 region: "us-east-1" for the `local` region */
  char *partition;       /* "aws", "aws-cn", …; NULL for a custom URL */
} DynoEndpoint;

void          dyno_endpoint_free          (DynoEndpoint      *endpoint);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoEndpoint, dyno_endpoint_free)

/* The endpoint for @region (the AWS rule set for DynamoDB: partitions aws, aws-cn,
 * aws-us-gov, the ISO ones and aws-eusc; the special region "local" is
 * http://localhost:8000), or for @custom_url when non-NULL (checked with
 * dyno_endpoint_validate_url(); FIPS/dual-stack cannot be combined with it).  Errors are
 * DYNO_ERROR_CONFIG. */
DynoEndpoint *dyno_endpoint_resolve       (const char        *region,
                                           const char        *custom_url,
                                           DynoEndpointFlags  flags,
                                           GError           **error);

/* TRUE when @url is acceptable as a custom endpoint: https:// to any host, or http:// only to
 * this computer (localhost, 127.0.0.0/8, ::1); no user info, query or fragment. */
gboolean      dyno_endpoint_validate_url  (const char        *url,
                                           GError           **error);

/* TRUE when @host (no port; IPv6 without brackets) is this computer. */
gboolean      dyno_endpoint_host_is_loopback (const char     *host);

/* TRUE when @url (nullable) is a URL whose host is this computer: DynamoDB Local. */
gboolean      dyno_endpoint_is_local_url  (const char        *url);

/* The partition id of @region ("aws" for names no partition claims, as the SDKs do). */
const char   *dyno_endpoint_partition_for_region (const char *region);

/* TRUE when @region is usable in a host name (letters, digits, '-', at most 63). */
gboolean      dyno_endpoint_region_is_valid (const char      *region);

/* The regions AWS lists, for a region picker (NULL-terminated, static). */
const char * const *dyno_endpoint_known_regions (void);

G_END_DECLS
