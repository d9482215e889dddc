/* dyno-engine-error.h: the engine's errors, each one of DynamoDB's error types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DYNO_ENGINE_ERROR (dyno_engine_error_quark ())

/* One code per DynamoDB `__type`; the message is DynamoDB's text (in English, as the service
 * sends it: clients match on it). */
typedef enum {
  DYNO_ENGINE_ERROR_VALIDATION,                 /* ValidationException */
  DYNO_ENGINE_ERROR_RESOURCE_NOT_FOUND,         /* ResourceNotFoundException */
  DYNO_ENGINE_ERROR_RESOURCE_IN_USE,            /* ResourceInUseException */
  DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED,   /* ConditionalCheckFailedException */
  DYNO_ENGINE_ERROR_UNKNOWN_OPERATION,          /* UnknownOperationException */
  DYNO_ENGINE_ERROR_SERIALIZATION,              /* SerializationException (body not JSON) */
  DYNO_ENGINE_ERROR_INTERNAL,                   /* InternalServerError (the storage failed) */
  DYNO_ENGINE_ERROR_TRANSACTION_CANCELED,       /* TransactionCanceledException */
  DYNO_ENGINE_ERROR_IDEMPOTENT_PARAMETER_MISMATCH, /* IdempotentParameterMismatchException */
  DYNO_ENGINE_ERROR_LIMIT_EXCEEDED,             /* LimitExceededException */
  DYNO_ENGINE_ERROR_DUPLICATE_ITEM,             /* DuplicateItemException (PartiQL INSERT) */
} DynoEngineErrorCode;

GQuark      dyno_engine_error_quark        (void);

/* "ValidationException", … */
const char *dyno_engine_error_type_name    (DynoEngineErrorCode code);
/* The full `__type` DynamoDB puts on the wire:
 * "com.amazon.coral.validate#ValidationException",
 * "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", … */
const char *dyno_engine_error_wire_type    (DynoEngineErrorCode code);
/* The HTTP status DynamoDB answers with (400, or 500 for InternalServerError). */
guint       dyno_engine_error_http_status  (DynoEngineErrorCode code);

G_END_DECLS
