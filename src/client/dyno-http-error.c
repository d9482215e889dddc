/* dyno-http-error.c: HTTP status and AWS error bodies to GError, in one place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-http-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "dyno-json.h"

static DynoCancellationReason *
cancellation_reason_copy (const DynoCancellationReason *src)
{
  DynoCancellationReason *dest = g_new0 (DynoCancellationReason, 1);

  dest->code = g_strdup (src->code);
  dest->message = g_strdup (src->message);
  dest->item = src->item != NULL ? dyno_item_ref (src->item) : NULL;
  return dest;
}

static gpointer
cancellation_reason_copy_func (gconstpointer src,
                               gpointer      user_data)
{
  return cancellation_reason_copy (src);
}

static void
cancellation_reason_free (DynoCancellationReason *reason)
{
  g_free (reason->code);
  g_free (reason->message);
  g_clear_pointer (&reason->item, dyno_item_unref);
  g_free (reason);
}

/* The service details ride on the error itself, as the extra data of the core's extended
 * error domain (dyno_error_set_extra()); the copy function is also their type tag. */
static DynoServiceError *
service_info_copy (const DynoServiceError *src)
{
  DynoServiceError *dest = g_new0 (DynoServiceError, 1);

  *dest = *src;
  dest->type = g_strdup (src->type);
  dest->raw_type = g_strdup (src->raw_type);
  dest->message = g_strdup (src->message);
  dest->request_id = g_strdup (src->request_id);
  if (src->cancellation_reasons != NULL)
    dest->cancellation_reasons = g_ptr_array_copy (src->cancellation_reasons,
                                                   cancellation_reason_copy_func, NULL);
  return dest;
}

static void
service_info_free (DynoServiceError *info)
{
  g_free (info->type);
  g_free (info->raw_type);
  g_free (info->message);
  g_free (info->request_id);
  g_clear_pointer (&info->cancellation_reasons, g_ptr_array_unref);
  g_free (info);
}

const DynoServiceError *
dyno_error_get_service_info (const GError *error)
{
  const DynoServiceError *info;

  if (error == NULL || error->domain != DYNO_ERROR)
    return NULL;

  info = dyno_error_get_extra (error, (GBoxedCopyFunc) service_info_copy);
  if (info == NULL)
    return NULL;
  if (info->http_status == 0 && info->type == NULL && info->cause_domain == 0
      && !info->crc32_mismatch && error->code != DYNO_ERROR_NETWORK)
    return NULL;

  return info;
}

static DynoServiceError *
writable_info (GError *error)
{
  DynoServiceError *info;

  g_assert (error->domain == DYNO_ERROR);

  info = dyno_error_get_extra (error, (GBoxedCopyFunc) service_info_copy);
  if (info == NULL)
    {
      info = g_new0 (DynoServiceError, 1);
      dyno_error_set_extra (error, info, (GBoxedCopyFunc) service_info_copy,
                            (GDestroyNotify) service_info_free);
    }
  return info;
}

char *
dyno_http_error_parse_type (const char *raw_type)
{
  const char *colon;
  const char *hash;
  g_autofree char *cut = NULL;

  if (raw_type == NULL || raw_type[0] == '\0')
    return NULL;

  colon = strchr (raw_type, ':');
  cut = colon ? g_strndup (raw_type, colon - raw_type) : g_strdup (raw_type);
  hash = strrchr (cut, '#');
  if (hash != NULL)
    return g_strdup (hash + 1);

  return g_steal_pointer (&cut);
}

static gboolean
type_in (const char         *type,
         const char * const *list)
{
  for (guint i = 0; list[i] != NULL; i++)
    if (strcmp (type, list[i]) == 0)
      return TRUE;
  return FALSE;
}

DynoErrorCode
dyno_http_error_code_for_type (const char *type,
                               guint       http_status)
{
  static const char * const throttling[] = {
    "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
    "Throttling", "ThrottledException", "RequestThrottledException",
    "TooManyRequestsException", "RequestThrottled", "SlowDown", "BandwidthLimitExceeded",
    "LimitExceededException", "EC2ThrottledException", NULL
  };
  static const char * const auth[] = {
    "UnrecognizedClientException", "InvalidSignatureException", "IncompleteSignatureException",
    "AccessDeniedException", "AccessDenied", "MissingAuthenticationTokenException",
    "MissingAuthenticationToken", "InvalidClientTokenId", "SignatureDoesNotMatch",
    "AuthFailure", "RequestExpired", "UnauthorizedOperation", "NotAuthorized", NULL
  };
  static const char * const expired[] = {
    "ExpiredTokenException", "ExpiredToken", NULL
  };

  if (type != NULL)
    {
      if (strcmp (type, "ValidationException") == 0)
        return DYNO_ERROR_SERVICE_VALIDATION;
      if (strcmp (type, "ResourceNotFoundException") == 0)
        return DYNO_ERROR_RESOURCE_NOT_FOUND;
      if (strcmp (type, "ConditionalCheckFailedException") == 0)
        return DYNO_ERROR_CONDITIONAL_CHECK_FAILED;
      if (type_in (type, throttling))
        return DYNO_ERROR_THROTTLED;
      if (type_in (type, expired))
        return DYNO_ERROR_EXPIRED_TOKEN;
      if (type_in (type, auth))
        return DYNO_ERROR_AUTH;
      return DYNO_ERROR_SERVICE;
    }

  if (http_status == 401 || http_status == 403)
    return DYNO_ERROR_AUTH;
  if (http_status == 429)
    return DYNO_ERROR_THROTTLED;
  if (http_status == 404)
    return DYNO_ERROR_RESOURCE_NOT_FOUND;

  return DYNO_ERROR_SERVICE;
}

/* CancellationReasons: [{"Code": …, "Message": …, "Item": {…}}, …] */
static GPtrArray *
read_cancellation_reasons (JsonObject *object)
{
  JsonNode *node = json_object_get_member (object, "CancellationReasons");
  GPtrArray *reasons;
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  reasons = g_ptr_array_new_with_free_func ((GDestroyNotify) cancellation_reason_free);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      DynoCancellationReason *reason = g_new0 (DynoCancellationReason, 1);

      if (JSON_NODE_HOLDS_OBJECT (element))
        {
          JsonObject *member = json_node_get_object (element);
          JsonNode *item = json_object_get_member (member, "Item");

          reason->code = g_strdup (dyno_json_object_peek_string (member, "Code"));
          reason->message = g_strdup (dyno_json_object_peek_string (member, "Message"));
          if (item != NULL)
            reason->item = dyno_item_from_json_node (item, NULL);
        }
      if (reason->code == NULL)
        reason->code = g_strdup ("None");
      g_ptr_array_add (reasons, reason);
    }
  return reasons;
}

GError *
dyno_http_error_new (guint       http_status,
                     const char *reason,
                     GBytes     *body,
                     const char *request_id)
{
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *type = NULL;
  g_autofree char *raw_type = NULL;
  g_autofree char *message = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) reasons = NULL;
  DynoServiceError *info;
  GError *error;

  /* Bodies of errors are small; a huge one is not a DynamoDB error document. */
  if (body != NULL && g_bytes_get_size (body) > 0 && g_bytes_get_size (body) < 256 * 1024)
    {
      gsize len;
      const char *data = g_bytes_get_data (body, &len);

      root = dyno_json_parse (data, len, NULL);
      if (root != NULL)
        {
          if (JSON_NODE_HOLDS_OBJECT (root))
            {
              JsonObject *object = json_node_get_object (root);
              const char *m;

              raw_type = g_strdup (dyno_json_object_peek_string (object, "__type"));
              reasons = read_cancellation_reasons (object);
              m = dyno_json_object_peek_string (object, "message");
              if (m == NULL)
                m = dyno_json_object_peek_string (object, "Message");
              /* A NUL in the message (held as C0 80) is shown as ␀: the message is text. */
              if (m != NULL && strstr (m, "\xC0\x80") != NULL)
                {
                  gsize n;
                  g_autofree char *bytes = dyno_json_held_string_decode (m, &n);

                  message = dyno_string_dup_visible (bytes, n, NULL);
                }
              else
                message = g_strdup (m);
            }
        }
    }

  /* Some front ends only send the type in a header (x-amzn-ErrorType); not DynamoDB, but
   * harmless to leave to the caller.  Here: body only. */
  type = dyno_http_error_parse_type (raw_type);

  if (type != NULL && message != NULL && message[0] != '\0')
    text = g_strdup_printf ("%s: %s", type, message);
  else if (type != NULL)
    text = g_strdup_printf ("%s (HTTP %u%s%s)", type, http_status,
                            reason ? " " : "", reason ? reason : "");
  else if (message != NULL && message[0] != '\0')
    text = g_strdup_printf ("HTTP %u: %s", http_status, message);
  else
    /* Translators: the HTTP status code, then " " and its reason phrase, or nothing. */
    text = g_strdup_printf (_("The server answered HTTP %u%s%s."), http_status,
                            reason ? " " : "", reason ? reason : "");

  error = g_error_new_literal (DYNO_ERROR, dyno_http_error_code_for_type (type, http_status),
                               text);
  info = writable_info (error);
  if (info != NULL)
    {
      info->type = g_steal_pointer (&type);
      info->raw_type = g_steal_pointer (&raw_type);
      info->message = g_steal_pointer (&message);
      info->request_id = g_strdup (request_id);
      info->http_status = http_status;
      info->cancellation_reasons = g_steal_pointer (&reasons);
    }

  return error;
}

GError *
dyno_http_error_new_network (const GError *cause,
                             const char   *endpoint)
{
  DynoServiceError *info;
  GError *error;

  g_return_val_if_fail (cause != NULL, NULL);

  if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_copy (cause);

  if (endpoint != NULL)
    /* Translators: the endpoint, then the network error message. */
    error = g_error_new (DYNO_ERROR, DYNO_ERROR_NETWORK, _("Could not reach %s: %s"), endpoint,
                         cause->message);
  else
    error = g_error_new (DYNO_ERROR, DYNO_ERROR_NETWORK, _("Network error: %s"),
                         cause->message);

  info = writable_info (error);
  if (info != NULL)
    {
      info->cause_domain = cause->domain;
      info->cause_code = cause->code;
    }

  return error;
}

GError *
dyno_http_error_new_crc32 (guint32     expected,
                           guint32     actual,
                           const char *request_id)
{
  DynoServiceError *info;
  GError *error;

  error = g_error_new (DYNO_ERROR, DYNO_ERROR_NETWORK,
                       _("The response was damaged in transit: its CRC32 is %u but the "
                         "x-amz-crc32 header says %u."), actual, expected);
  info = writable_info (error);
  if (info != NULL)
    {
      info->crc32_mismatch = TRUE;
      info->request_id = g_strdup (request_id);
    }

  return error;
}

GError *
dyno_http_error_new_malformed (const char *operation,
                               guint       http_status,
                               const char *detail,
                               const char *request_id)
{
  DynoServiceError *info;
  GError *error;

  error = g_error_new (DYNO_ERROR, DYNO_ERROR_NETWORK,
                       /* Translators: the operation (such as BatchWriteItem), then what is
                        * wrong with the body. */
                       _("The %s response was damaged in transit: it is not a JSON object (%s)."),
                       operation, detail);
  info = writable_info (error);
  if (info != NULL)
    {
      info->malformed = TRUE;
      info->http_status = http_status;
      info->request_id = g_strdup (request_id);
    }

  return error;
}
