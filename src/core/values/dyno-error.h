/* dyno-error.h: the one error domain of DynoTable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

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

/* Where in a text (1-based line and column, in characters) a DYNO_ERROR was found, carried in
 * the error itself: the message is translated, its numbers are for people.  set does nothing
 * on errors of other domains; get is FALSE when there is no location. */
void     dyno_error_set_location (GError       *error,
                                  guint         line,
                                  guint         column);
gboolean dyno_error_get_location (const GError *error,
                                  guint        *out_line,
                                  guint        *out_column);
/* A layer's own details on a DYNO_ERROR (the client's service info), copied and freed with the
 * error; @copy is also the tag get_extra() asks by.  set replaces what was there. */
void     dyno_error_set_extra    (GError         *error,
                                  gpointer        data,
                                  GBoxedCopyFunc  copy,
                                  GDestroyNotify  free_func);
gpointer dyno_error_get_extra    (const GError   *error,
                                  GBoxedCopyFunc  copy);

/* Where in an expression text an error was found.  Offsets are in bytes; column is 1-based
 * and counts characters, which is what a person sees. */
typedef struct {
  gsize offset;
  gsize length;
  guint column;
} DynoParseLocation;

G_END_DECLS
