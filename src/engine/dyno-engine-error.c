/* dyno-engine-error.c: the engine's errors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-engine-error.h"

G_DEFINE_QUARK (dyno-engine-error-quark, dyno_engine_error)

static const struct {
  const char *name;
  const char *wire;
  guint       status;
} types[] = {
  [DYNO_ENGINE_ERROR_VALIDATION] =
    { "ValidationException", "com.amazon.coral.validate#ValidationException", 400 },
  [DYNO_ENGINE_ERROR_RESOURCE_NOT_FOUND] =
    { "ResourceNotFoundException",
      "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", 400 },
  [DYNO_ENGINE_ERROR_RESOURCE_IN_USE] =
    { "ResourceInUseException", "com.amazonaws.dynamodb.v20120810#ResourceInUseException", 400 },
  [DYNO_ENGINE_ERROR_CONDITIONAL_CHECK_FAILED] =
    { "ConditionalCheckFailedException",
      "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", 400 },
  [DYNO_ENGINE_ERROR_UNKNOWN_OPERATION] =
    { "UnknownOperationException", "com.amazon.coral.service#UnknownOperationException", 400 },
  [DYNO_ENGINE_ERROR_SERIALIZATION] =
    { "SerializationException", "com.amazon.coral.service#SerializationException", 400 },
  [DYNO_ENGINE_ERROR_INTERNAL] =
    { "InternalServerError", "com.amazonaws.dynamodb.v20120810#InternalServerError", 500 },
  [DYNO_ENGINE_ERROR_TRANSACTION_CANCELED] =
    { "TransactionCanceledException",
      "com.amazonaws.dynamodb.v20120810#TransactionCanceledException", 400 },
  [DYNO_ENGINE_ERROR_IDEMPOTENT_PARAMETER_MISMATCH] =
    { "IdempotentParameterMismatchException",
      "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException", 400 },
  [DYNO_ENGINE_ERROR_LIMIT_EXCEEDED] =
    { "LimitExceededException", "com.amazonaws.dynamodb.v20120810#LimitExceededException",
      400 },
  [DYNO_ENGINE_ERROR_DUPLICATE_ITEM] =
    { "DuplicateItemException", "com.amazonaws.dynamodb.v20120810#DuplicateItemException", 400 },
};

const char *
dyno_engine_error_type_name (DynoEngineErrorCode code)
{
  g_return_val_if_fail ((guint) code < G_N_ELEMENTS (types), "InternalServerError");
  return types[code].name;
}

const char *
dyno_engine_error_wire_type (DynoEngineErrorCode code)
{
  g_return_val_if_fail ((guint) code < G_N_ELEMENTS (types),
                        types[DYNO_ENGINE_ERROR_INTERNAL].wire);
  return types[code].wire;
}

guint
dyno_engine_error_http_status (DynoEngineErrorCode code)
{
  g_return_val_if_fail ((guint) code < G_N_ELEMENTS (types), 500);
  return types[code].status;
}
