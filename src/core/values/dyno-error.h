/* dyno-error.h: the one error domain of DynoTable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DYNO_ERROR (dyno_error_quark ())

/* Codes shared by every layer.  The core uses the first group; the client maps HTTP status
 * and the AWS `__type` into the second group in one place (dyno-http-error.c). */
typedef enum {
  DYNO_ERROR_FAILED,
  DYNO_ERROR_JSON,              /* malformed JSON text (position in the message) */
  DYNO_ERROR_INVALID_VALUE,     /* a value DynamoDB would reject (bad number, empty set, …) */
  DYNO_ERROR_SYNTAX,            /* expression syntax error (see DynoParseLocation) */
  DYNO_ERROR_VALIDATION,        /* a rule DynamoDB would reject, found before sending */
  DYNO_ERROR_UNSUPPORTED,       /* not expressible in a target (codegen) */
  /* server-side, from the client layer */
  DYNO_ERROR_SERVICE,           /* any other AWS error: __type + message */
  DYNO_ERROR_SERVICE_VALIDATION,/* ValidationException */
  DYNO_ERROR_RESOURCE_NOT_FOUND,
  DYNO_ERROR_CONDITIONAL_CHECK_FAILED,
  DYNO_ERROR_THROTTLED,
  DYNO_ERROR_AUTH,              /* UnrecognizedClient, InvalidSignature, AccessDenied, … */
  DYNO_ERROR_EXPIRED_TOKEN,
  DYNO_ERROR_NETWORK,
  DYNO_ERROR_CONFIG,            /* credentials/config files: file and line in the message */
} DynoErrorCode;

GQuark dyno_error_quark (void);

/* Where in an expression text an error was found.  Offsets are in bytes; column is 1-based
 * and counts characters, which is what a person sees. */
typedef struct {
  gsize offset;
  gsize length;
  guint column;
} DynoParseLocation;

G_END_DECLS
