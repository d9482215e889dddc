/* dyno-http-error.h: HTTP status and AWS error bodies to GError, in one place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-error.h"
#include "dyno-value.h"

G_BEGIN_DECLS

/* What the service (or the network) said, kept with the GError so that the UI can show the
 * `__type`, the request ID and the HTTP status next to the message, and the retry policy can
 * classify the error without parsing text.
 *
 * Design: every GError in the DYNO_ERROR domain carries this struct as GLib "extended error"
 * private data (g_error_domain_register_static(), GLib ≥ 2.68).  The domain is registered by
 * a constructor in dyno-http-error.c, i.e. before main() in every program that links this
 * file, so no DYNO_ERROR error can be allocated without it.  Errors from the core (syntax,
 * validation, …) simply have every field empty, and dyno_error_get_service_info() returns
 * NULL for them.  The struct is copied by g_error_copy() and freed with the error. */
/* Why one item of a cancelled transaction was refused (TransactionCanceledException's
 * CancellationReasons, in the order of the request's items; Code "None" for the others). */
typedef struct {
  char     *code;         /* "ConditionalCheckFailed", "TransactionConflict", "None", … */
  char     *message;      /* or NULL */
  DynoItem *item;         /* the item as it is, when ReturnValuesOnConditionCheckFailure
                           * asked for it; or NULL */
} DynoCancellationReason;

typedef struct {
  char    *type;          /* "ValidationException": __type cut as botocore does; NULL if none */
  char    *raw_type;      /* __type exactly as sent */
  char    *message;       /* message / Message as sent (may be NULL) */
  char    *request_id;    /* x-amzn-RequestId, or NULL */
  guint    http_status;   /* 0 for network errors */
  /* Network errors: the transport error underneath (e.g. G_IO_ERROR / G_IO_ERROR_TIMED_OUT),
   * so that the retry policy can tell timeouts from other connection failures. */
  GQuark   cause_domain;
  int      cause_code;
  /* x-amz-crc32 did not match the body (a network error, retried like botocore does). */
  gboolean crc32_mismatch;
  /* A 2xx whose body is not a JSON object (cut short, garbled): retried like a 5xx. */
  gboolean malformed;
  /* TransactionCanceledException: DynoCancellationReason*, one per item; else NULL. */
  GPtrArray *cancellation_reasons;
} DynoServiceError;

/* The service details of @error, or NULL when @error is not a DYNO_ERROR from the client
 * layer (a service or network error).  Borrowed: valid as long as @error. */
const DynoServiceError *dyno_error_get_service_info (const GError *error);

/* Cuts an AWS __type the way botocore does: at the first ':' then after the last '#'.
 * "com.amazon.coral.validate#ValidationException" -> "ValidationException". */
char          *dyno_http_error_parse_type  (const char *raw_type);

/* The DYNO_ERROR code for a short __type (and HTTP status, for bodies without one). */
DynoErrorCode  dyno_http_error_code_for_type (const char *type,
                                              guint       http_status);

/* The one place where a non-2xx response becomes a GError: code from __type/status, message
 * "<type>: <message>" (the form the CLI prints), service info attached.  @body may be NULL or
 * not JSON (a proxy's HTML page): the status line is used then.  @reason may be NULL. */
GError        *dyno_http_error_new         (guint       http_status,
                                            const char *reason,
                                            GBytes     *body,
                                            const char *request_id);

/* A transport failure (connection refused/reset, TLS, timeout, truncated body) as
 * DYNO_ERROR_NETWORK, with @cause's domain/code kept.  G_IO_ERROR_CANCELLED is not a network
 * error: it is returned as a copy of @cause unchanged. */
GError        *dyno_http_error_new_network (const GError *cause,
                                            const char *endpoint);

/* x-amz-crc32 mismatch (DYNO_ERROR_NETWORK, crc32_mismatch set). */
GError        *dyno_http_error_new_crc32   (guint32     expected,
                                            guint32     actual,
                                            const char *request_id);

/* A 2xx response whose body is not one JSON object (DYNO_ERROR_NETWORK, malformed set): the
 * operation's outcome is unknown, so it is retried as a transient failure. */
GError        *dyno_http_error_new_malformed (const char *operation,
                                              guint       http_status,
                                              const char *detail,
                                              const char *request_id);

G_END_DECLS
