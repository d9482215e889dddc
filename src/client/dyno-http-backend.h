/* dyno-http-backend.h: DynoBackend over HTTPS with libsoup 3 (SigV4, retries, CRC32)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-backend.h"
#include "dyno-credentials.h"
#include "dyno-retry.h"

G_BEGIN_DECLS

#define DYNO_TYPE_HTTP_BACKEND (dyno_http_backend_get_type ())
G_DECLARE_FINAL_TYPE (DynoHttpBackend, dyno_http_backend, DYNO, HTTP_BACKEND, GObject)

/* From a resolved configuration (copied): its endpoint, or the regional one; its credentials,
 * refreshed with credential_process when they are about to expire.  The retry policy comes
 * from AWS_MAX_ATTEMPTS.  Errors: DYNO_ERROR_CONFIG (bad endpoint URL or region, no
 * credentials). */
DynoHttpBackend *dyno_http_backend_new              (const DynoResolvedConfig *config,
                                                     GError                  **error);
/* Explicit endpoint (NULL: the regional one), region and credentials. */
DynoHttpBackend *dyno_http_backend_new_for_endpoint (const char               *endpoint_url,
                                                     const char               *region,
                                                     DynoCredentials          *credentials,
                                                     GError                  **error);

const char      *dyno_http_backend_get_endpoint_url (DynoHttpBackend          *self);
const char      *dyno_http_backend_get_region       (DynoHttpBackend          *self);

DynoRetryPolicy *dyno_http_backend_get_retry_policy (DynoHttpBackend          *self);
void             dyno_http_backend_set_retry_policy (DynoHttpBackend          *self,
                                                     DynoRetryPolicy          *policy);
/* Seconds of I/O inactivity before an attempt fails with a timeout (default 60). */
void             dyno_http_backend_set_timeout      (DynoHttpBackend          *self,
                                                     guint                     seconds);
/* HTTP requests sent so far (every attempt counts): for tests and the statistics view. */
guint            dyno_http_backend_get_n_attempts   (DynoHttpBackend          *self);
guint            dyno_http_backend_get_n_retries    (DynoHttpBackend          *self);

/* CRC32 as DynamoDB computes x-amz-crc32 (IEEE 802.3, the zlib one). */
guint32          dyno_crc32                         (const guint8             *data,
                                                     gsize                     len);

G_END_DECLS
