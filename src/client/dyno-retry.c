/* dyno-retry.c: the SDKs' "standard" retry mode, tuned for DynamoDB
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-retry.h"

#include <gio/gio.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-http-error.h"

struct _DynoRetryPolicy
{
  gatomicrefcount ref_count;
  GMutex          mutex;
  guint           max_attempts;
  guint           base_ms;
  guint           throttle_base_ms;
  guint           max_backoff_ms;
  guint           quota;
  double        (*random_func) (gpointer);
  gpointer        random_data;
};

/* dynamodb-facts.md §6.2: throttling codes of standard mode (GO2 DefaultThrottleErrorCodes,
 * botocore standard.py), TransactionInProgressException included. */
static const char * const throttling_types[] = {
  "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
  "TooManyRequestsException", "ProvisionedThroughputExceededException",
  "TransactionInProgressException", "RequestLimitExceeded", "BandwidthLimitExceeded",
  "LimitExceededException", "RequestThrottled", "SlowDown", "PriorRequestNotComplete",
  "EC2ThrottledException", NULL
};

/* Transient codes, plus the errors DynamoDB's model marks retryable. */
static const char * const transient_types[] = {
  "RequestTimeout", "RequestTimeoutException", "InternalServerError", "InternalFailure",
  "ServiceUnavailable", "ReplicatedWriteConflictException", NULL
};

static gboolean
in_list (const char         *type,
         const char * const *list)
{
  for (guint i = 0; list[i] != NULL; i++)
    if (strcmp (type, list[i]) == 0)
      return TRUE;
  return FALSE;
}

DynoRetryKind
dyno_retry_classify (const GError *error)
{
  const DynoServiceError *info;

  if (error == NULL || error->domain != DYNO_ERROR)
    return DYNO_RETRY_NONE;

  info = dyno_error_get_service_info (error);

  if (error->code == DYNO_ERROR_NETWORK)
    {
      if (info != NULL && info->cause_domain == G_IO_ERROR
          && info->cause_code == G_IO_ERROR_TIMED_OUT)
        return DYNO_RETRY_TIMEOUT;
      return DYNO_RETRY_TRANSIENT;
    }

  if (info == NULL)
    return DYNO_RETRY_NONE;

  if (info->type != NULL)
    {
      if (in_list (info->type, throttling_types))
        return DYNO_RETRY_THROTTLING;
      if (in_list (info->type, transient_types))
        return DYNO_RETRY_TRANSIENT;
    }

  switch (info->http_status)
    {
    case 500:
    case 502:
    case 503:
    case 504:
      return DYNO_RETRY_TRANSIENT;
    case 429:
      return DYNO_RETRY_THROTTLING;
    default:
      return DYNO_RETRY_NONE;
    }
}

DynoRetryPolicy *
dyno_retry_policy_new (guint max_attempts)
{
  DynoRetryPolicy *policy = g_new0 (DynoRetryPolicy, 1);

  g_atomic_ref_count_init (&policy->ref_count);
  g_mutex_init (&policy->mutex);
  policy->max_attempts = max_attempts ? max_attempts : DYNO_RETRY_DEFAULT_MAX_ATTEMPTS;
  policy->base_ms = DYNO_RETRY_DEFAULT_BASE_MS;
  policy->throttle_base_ms = DYNO_RETRY_DEFAULT_THROTTLE_BASE_MS;
  policy->max_backoff_ms = DYNO_RETRY_DEFAULT_MAX_BACKOFF_MS;
  policy->quota = DYNO_RETRY_QUOTA_INITIAL;

  return policy;
}

DynoRetryPolicy *
dyno_retry_policy_new_from_env (char **env)
{
  g_auto(GStrv) own_env = NULL;
  const char *value;
  guint max_attempts = 0;

  if (env == NULL)
    env = own_env = g_get_environ ();

  value = g_environ_getenv (env, "AWS_MAX_ATTEMPTS");
  if (value != NULL && value[0] != '\0')
    {
      guint64 parsed = 0;

      if (g_ascii_string_to_unsigned (value, 10, 1, 1000, &parsed, NULL))
        max_attempts = (guint) parsed;
      else
        g_warning ("AWS_MAX_ATTEMPTS=%s is not a whole number of attempts ≥ 1; using %u",
                   value, DYNO_RETRY_DEFAULT_MAX_ATTEMPTS);
    }

  return dyno_retry_policy_new (max_attempts);
}

DynoRetryPolicy *
dyno_retry_policy_ref (DynoRetryPolicy *policy)
{
  g_return_val_if_fail (policy != NULL, NULL);

  g_atomic_ref_count_inc (&policy->ref_count);
  return policy;
}

void
dyno_retry_policy_unref (DynoRetryPolicy *policy)
{
  g_return_if_fail (policy != NULL);

  if (g_atomic_ref_count_dec (&policy->ref_count))
    {
      g_mutex_clear (&policy->mutex);
      g_free (policy);
    }
}

guint
dyno_retry_policy_get_max_attempts (DynoRetryPolicy *policy)
{
  g_return_val_if_fail (policy != NULL, 0);

  return policy->max_attempts;
}

void
dyno_retry_policy_set_max_attempts (DynoRetryPolicy *policy,
                                    guint            max_attempts)
{
  g_return_if_fail (policy != NULL);
  g_return_if_fail (max_attempts >= 1);

  policy->max_attempts = max_attempts;
}

void
dyno_retry_policy_set_backoff (DynoRetryPolicy *policy,
                               guint            base_ms,
                               guint            throttle_base_ms,
                               guint            max_backoff_ms)
{
  g_return_if_fail (policy != NULL);

  if (base_ms)
    policy->base_ms = base_ms;
  if (throttle_base_ms)
    policy->throttle_base_ms = throttle_base_ms;
  if (max_backoff_ms)
    policy->max_backoff_ms = max_backoff_ms;
}

void
dyno_retry_policy_set_random (DynoRetryPolicy *policy,
                              double         (*random_func) (gpointer),
                              gpointer         data)
{
  g_return_if_fail (policy != NULL);

  policy->random_func = random_func;
  policy->random_data = data;
}

guint
dyno_retry_policy_compute_delay (DynoRetryPolicy *policy,
                                 DynoRetryKind    kind,
                                 guint            retry_index,
                                 double           random)
{
  double base;
  double ceiling;

  g_return_val_if_fail (policy != NULL, 0);

  base = kind == DYNO_RETRY_THROTTLING ? policy->throttle_base_ms : policy->base_ms;
  /* 2^retry_index overflows nothing useful past 30; the cap applies long before. */
  ceiling = base * (double) (1u << MIN (retry_index, 30u));
  ceiling = MIN (ceiling, (double) policy->max_backoff_ms);
  random = CLAMP (random, 0.0, 1.0);

  return (guint) (random * ceiling);
}

gboolean
dyno_retry_policy_should_retry (DynoRetryPolicy *policy,
                                const GError    *error,
                                guint            attempt,
                                guint           *out_delay_ms,
                                guint           *out_cost)
{
  DynoRetryKind kind;
  guint cost;
  double random;

  g_return_val_if_fail (policy != NULL, FALSE);
  g_return_val_if_fail (attempt >= 1, FALSE);

  kind = dyno_retry_classify (error);
  if (kind == DYNO_RETRY_NONE || attempt >= policy->max_attempts)
    return FALSE;

  cost = kind == DYNO_RETRY_TIMEOUT ? DYNO_RETRY_QUOTA_TIMEOUT_COST : DYNO_RETRY_QUOTA_COST;

  g_mutex_lock (&policy->mutex);
  if (policy->quota < cost)
    {
      g_mutex_unlock (&policy->mutex);
      return FALSE;
    }
  policy->quota -= cost;
  g_mutex_unlock (&policy->mutex);

  random = policy->random_func ? policy->random_func (policy->random_data)
                               : g_random_double ();
  if (out_delay_ms != NULL)
    *out_delay_ms = dyno_retry_policy_compute_delay (policy, kind, attempt - 1, random);
  if (out_cost != NULL)
    *out_cost = cost;

  return TRUE;
}

void
dyno_retry_policy_release (DynoRetryPolicy *policy,
                           guint            cost)
{
  g_return_if_fail (policy != NULL);

  g_mutex_lock (&policy->mutex);
  policy->quota += cost ? cost : DYNO_RETRY_QUOTA_NO_RETRY_INCREMENT;
  policy->quota = MIN (policy->quota, DYNO_RETRY_QUOTA_INITIAL);
  g_mutex_unlock (&policy->mutex);
}

guint
dyno_retry_policy_get_quota (DynoRetryPolicy *policy)
{
  guint quota;

  g_return_val_if_fail (policy != NULL, 0);

  g_mutex_lock (&policy->mutex);
  quota = policy->quota;
  g_mutex_unlock (&policy->mutex);

  return quota;
}
