/* dyno-sigv4.h: AWS Signature Version 4
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "dyno-credentials.h"

G_BEGIN_DECLS

/* One header: name as sent, value as sent. */
typedef struct {
  char *name;
  char *value;
} DynoHeader;

typedef struct {
  const char *method;          /* "POST" */
  const char *path;            /* "/" (unencoded) */
  const char *query;           /* raw query string without '?', or NULL */
  GPtrArray  *headers;         /* DynoHeader*, must include Host (and X-Amz-Date, or give
                                * @amz_date and it is added) */
  const guint8 *body;
  gsize       body_len;
} DynoSigv4Request;

typedef struct {
  char *canonical_request;
  char *string_to_sign;
  char *signature;             /* hex */
  char *authorization;         /* the Authorization header value */
  char *signed_headers;        /* "content-type;host;x-amz-date;…" */
} DynoSigv4Result;

void             dyno_sigv4_result_free (DynoSigv4Result *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoSigv4Result, dyno_sigv4_result_free)

/* Signs @request for @region/@service at @amz_date ("20150830T123600Z").  When the
 * credentials carry a session token, X-Amz-Security-Token is signed (and must be among the
 * headers the caller sends: see dyno_sigv4_sign_headers()). */
DynoSigv4Result *dyno_sigv4_sign        (const DynoSigv4Request *request,
                                         DynoCredentials        *credentials,
                                         const char             *region,
                                         const char             *service,
                                         const char             *amz_date);

/* Added by the implementation: helpers for callers that build the header list. */
DynoHeader      *dyno_header_new        (const char             *name,
                                         const char             *value);
void             dyno_header_free       (DynoHeader             *header);
/* A GPtrArray of DynoHeader* that frees its elements. */
GPtrArray       *dyno_headers_new       (void);

/* Signs like dyno_sigv4_sign() and appends to @request->headers what must be sent with the
 * request: X-Amz-Date (when absent), X-Amz-Security-Token (when the credentials carry a
 * session token and the header is absent) and Authorization.  @request->headers must free its
 * elements with dyno_header_free() (dyno_headers_new()).  @amz_date may be NULL: the current
 * UTC time is used.  Returns the signing details.  They hold no secret key, but the canonical
 * request holds the session token when there is one: do not log it. */
DynoSigv4Result *dyno_sigv4_sign_headers (DynoSigv4Request      *request,
                                          DynoCredentials       *credentials,
                                          const char            *region,
                                          const char            *service,
                                          const char            *amz_date);
/* @time (NULL: now) in UTC as "YYYYMMDDTHHMMSSZ". */
char            *dyno_sigv4_format_amz_date (GDateTime          *time);

G_END_DECLS
