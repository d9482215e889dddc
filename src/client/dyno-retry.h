/* dyno-retry.h: the SDKs' "standard" retry mode, tuned for DynamoDB
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Default number of attempts (the first one included).  Standard mode says 3; DynamoDB's
 * own SDK defaults are higher because throttling is an everyday event on provisioned tables
 * (Java v2: 9, botocore's new DynamoDB default and Java's "v2.1": 4).  We take 4: one more
 * chance than standard mode for a throttled page, without the legacy 10 that can keep a
 * person waiting for most of a minute.  AWS_MAX_ATTEMPTS overrides it. */
#define DYNO_RETRY_DEFAULT_MAX_ATTEMPTS 4

/* Backoff: delay = rand[0,1) * min (base * 2^retry_index, max_backoff), full jitter.
 * Transient errors (5xx, connection, CRC32) start at 25 ms (DynamoDB's SDK base delay);
 * throttling starts at 500 ms (the JS v3 throttling base) so that a throttled table gets
 * time to refill.  Both capped at 20 s. */
#define DYNO_RETRY_DEFAULT_BASE_MS          25
#define DYNO_RETRY_DEFAULT_THROTTLE_BASE_MS 500
#define DYNO_RETRY_DEFAULT_MAX_BACKOFF_MS   20000

/* Retry quota (token bucket shared by all requests of one client), as the SDKs do. */
#define DYNO_RETRY_QUOTA_INITIAL    500
#define DYNO_RETRY_QUOTA_COST       5
#define DYNO_RETRY_QUOTA_TIMEOUT_COST 10
#define DYNO_RETRY_QUOTA_NO_RETRY_INCREMENT 1

typedef enum {
  DYNO_RETRY_NONE,       /* not retryable: validation, auth, conditional check, … */
  DYNO_RETRY_TRANSIENT,  /* 500/502/503/504, InternalServerError, connection errors, CRC32 */
  DYNO_RETRY_TIMEOUT,    /* a connect/read timeout: transient, but costs more quota */
  DYNO_RETRY_THROTTLING, /* ProvisionedThroughputExceeded, Throttling, RequestLimitExceeded … */
} DynoRetryKind;

/* Classifies an error of the client layer (uses dyno_error_get_service_info()).
 * G_IO_ERROR_CANCELLED and errors of other domains are DYNO_RETRY_NONE. */
DynoRetryKind dyno_retry_classify (const GError *error);

/* Refcounted and thread-safe (the quota is shared). */
typedef struct _DynoRetryPolicy DynoRetryPolicy;

/* @max_attempts 0 means the default. */
DynoRetryPolicy *dyno_retry_policy_new           (guint            max_attempts);
/* Reads AWS_MAX_ATTEMPTS from @env (environ-style; NULL: the process environment).  Invalid
 * or < 1 values are ignored (with a warning), as the SDKs reject them. */
DynoRetryPolicy *dyno_retry_policy_new_from_env  (char           **env);
DynoRetryPolicy *dyno_retry_policy_ref           (DynoRetryPolicy *policy);
void             dyno_retry_policy_unref         (DynoRetryPolicy *policy);

guint            dyno_retry_policy_get_max_attempts (DynoRetryPolicy *policy);
void             dyno_retry_policy_set_max_attempts (DynoRetryPolicy *policy,
                                                     guint            max_attempts);
/* Tests shorten the delays; 0 keeps a value unchanged. */
void             dyno_retry_policy_set_backoff   (DynoRetryPolicy *policy,
                                                  guint            base_ms,
                                                  guint            throttle_base_ms,
                                                  guint            max_backoff_ms);
/* Tests replace the jitter source: returns a value in [0, 1). NULL restores g_random. */
void             dyno_retry_policy_set_random    (DynoRetryPolicy *policy,
                                                  double         (*random_func) (gpointer),
                                                  gpointer         data);

/* The delay before retry number @retry_index (0 for the first retry), with full jitter
 * given @random in [0, 1). */
guint            dyno_retry_policy_compute_delay (DynoRetryPolicy *policy,
                                                  DynoRetryKind    kind,
                                                  guint            retry_index,
                                                  double           random);

/* After attempt number @attempt (1-based) failed with @error: TRUE when it should be
 * retried, with the delay to wait in @out_delay_ms and the quota taken in @out_cost (give it
 * back with dyno_retry_policy_release() when the retry succeeds).  FALSE when not retryable,
 * attempts are exhausted, or the quota cannot pay. */
gboolean         dyno_retry_policy_should_retry  (DynoRetryPolicy *policy,
                                                  const GError    *error,
                                                  guint            attempt,
                                                  guint           *out_delay_ms,
                                                  guint           *out_cost);
/* A request succeeded: @cost is what its last retry took (0 when it succeeded at once, which
 * refills the quota by NO_RETRY_INCREMENT). */
void             dyno_retry_policy_release       (DynoRetryPolicy *policy,
                                                  guint            cost);
guint            dyno_retry_policy_get_quota     (DynoRetryPolicy *policy);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoRetryPolicy, dyno_retry_policy_unref)

G_END_DECLS
