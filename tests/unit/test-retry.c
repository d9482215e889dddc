/* test-retry.c: the standard retry mode: what is retried, backoff, attempts, quota
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-http-error.h"
#include "dyno-retry.h"

static GError *
service_error (guint       status,
               const char *type)
{
  g_autofree char *json = NULL;
  g_autoptr(GBytes) body = NULL;

  json = type ? g_strdup_printf ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#%s\","
                                 "\"message\":\"m\"}", type)
              : g_strdup ("");
  body = g_bytes_new (json, strlen (json));

  return dyno_http_error_new (status, NULL, body, "RID");
}

static void
test_classify (void)
{
  static const struct {
    guint          status;
    const char    *type;
    DynoRetryKind  kind;
  } cases[] = {
    /* dynamodb-facts.md §6.2: retried */
    { 400, "ProvisionedThroughputExceededException", DYNO_RETRY_THROTTLING },
    { 400, "ThrottlingException", DYNO_RETRY_THROTTLING },
    { 400, "RequestLimitExceeded", DYNO_RETRY_THROTTLING },
    { 400, "LimitExceededException", DYNO_RETRY_THROTTLING },
    { 400, "TransactionInProgressException", DYNO_RETRY_THROTTLING },
    { 500, "InternalServerError", DYNO_RETRY_TRANSIENT },
    { 409, "ReplicatedWriteConflictException", DYNO_RETRY_TRANSIENT },
    { 500, NULL, DYNO_RETRY_TRANSIENT },
    { 502, NULL, DYNO_RETRY_TRANSIENT },
    { 503, NULL, DYNO_RETRY_TRANSIENT },
    { 504, NULL, DYNO_RETRY_TRANSIENT },
    /* not retried */
    { 400, "ValidationException", DYNO_RETRY_NONE },
    { 400, "ConditionalCheckFailedException", DYNO_RETRY_NONE },
    { 400, "ResourceNotFoundException", DYNO_RETRY_NONE },
    { 400, "AccessDeniedException", DYNO_RETRY_NONE },
    { 400, "UnrecognizedClientException", DYNO_RETRY_NONE },
    { 400, "ExpiredTokenException", DYNO_RETRY_NONE },
    { 400, "TransactionCanceledException", DYNO_RETRY_NONE },
    { 400, "ItemCollectionSizeLimitExceededException", DYNO_RETRY_NONE },
    { 400, "IdempotentParameterMismatchException", DYNO_RETRY_NONE },
    { 400, NULL, DYNO_RETRY_NONE },
    { 403, NULL, DYNO_RETRY_NONE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = service_error (cases[i].status, cases[i].type);

      g_test_message ("%u %s", cases[i].status, cases[i].type);
      g_assert_cmpint (dyno_retry_classify (error), ==, cases[i].kind);
    }
}

static void
test_classify_network (void)
{
  g_autoptr(GError) reset = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED, "x");
  g_autoptr(GError) timeout = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "x");
  g_autoptr(GError) cancelled = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "x");
  g_autoptr(GError) net_reset = dyno_http_error_new_network (reset, "http://h");
  g_autoptr(GError) net_timeout = dyno_http_error_new_network (timeout, NULL);
  g_autoptr(GError) net_cancelled = dyno_http_error_new_network (cancelled, NULL);
  g_autoptr(GError) crc = dyno_http_error_new_crc32 (1, 2, "RID");
  g_autoptr(GError) syntax = g_error_new_literal (DYNO_ERROR, DYNO_ERROR_SYNTAX, "x");

  g_assert_error (net_reset, DYNO_ERROR, DYNO_ERROR_NETWORK);
  g_assert_cmpint (dyno_retry_classify (net_reset), ==, DYNO_RETRY_TRANSIENT);
  g_assert_cmpint (dyno_retry_classify (net_timeout), ==, DYNO_RETRY_TIMEOUT);
  /* A cancel is not a network error and is never retried. */
  g_assert_error (net_cancelled, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (dyno_retry_classify (net_cancelled), ==, DYNO_RETRY_NONE);
  g_assert_true (dyno_error_get_service_info (crc)->crc32_mismatch);
  g_assert_cmpint (dyno_retry_classify (crc), ==, DYNO_RETRY_TRANSIENT);
  g_assert_cmpint (dyno_retry_classify (syntax), ==, DYNO_RETRY_NONE);
}

static void
test_backoff (void)
{
  g_autoptr(DynoRetryPolicy) policy = dyno_retry_policy_new (0);

  g_assert_cmpuint (dyno_retry_policy_get_max_attempts (policy), ==,
                    DYNO_RETRY_DEFAULT_MAX_ATTEMPTS);

  /* Full jitter: rand * min (base * 2^i, cap). */
  g_assert_cmpuint (dyno_retry_policy_compute_delay (policy, DYNO_RETRY_TRANSIENT, 0, 0.5), ==,
                    DYNO_RETRY_DEFAULT_BASE_MS / 2);
  g_assert_cmpuint (dyno_retry_policy_compute_delay (policy, DYNO_RETRY_TRANSIENT, 3, 1.0), ==,
                    DYNO_RETRY_DEFAULT_BASE_MS * 8);
  g_assert_cmpuint (dyno_retry_policy_compute_delay (policy, DYNO_RETRY_THROTTLING, 1, 1.0), ==,
                    DYNO_RETRY_DEFAULT_THROTTLE_BASE_MS * 2);
  g_assert_cmpuint (dyno_retry_policy_compute_delay (policy, DYNO_RETRY_THROTTLING, 0, 0.0), ==,
                    0);
  /* Capped at 20 s however many retries. */
  g_assert_cmpuint (dyno_retry_policy_compute_delay (policy, DYNO_RETRY_THROTTLING, 40, 1.0), ==,
                    DYNO_RETRY_DEFAULT_MAX_BACKOFF_MS);
  g_assert_cmpuint (dyno_retry_policy_compute_delay (policy, DYNO_RETRY_TRANSIENT, 12, 0.5), ==,
                    DYNO_RETRY_DEFAULT_MAX_BACKOFF_MS / 2);
}

static void
test_jitter_in_range (void)
{
  g_autoptr(DynoRetryPolicy) policy = dyno_retry_policy_new (100);
  g_autoptr(GError) error = service_error (400, "ThrottlingException");
  guint distinct = 0;
  guint previous = G_MAXUINT;

  for (guint attempt = 1; attempt < 8; attempt++)
    {
      guint delay = 0;
      guint cost = 0;
      guint ceiling = MIN (DYNO_RETRY_DEFAULT_THROTTLE_BASE_MS << (attempt - 1),
                           DYNO_RETRY_DEFAULT_MAX_BACKOFF_MS);

      g_assert_true (dyno_retry_policy_should_retry (policy, error, attempt, &delay, &cost));
      g_assert_cmpuint (delay, <=, ceiling);
      g_assert_cmpuint (cost, ==, DYNO_RETRY_QUOTA_COST);
      distinct += delay != previous;
      previous = delay;
    }
  g_assert_cmpuint (distinct, >, 1);
}

static void
test_attempts (void)
{
  g_autoptr(DynoRetryPolicy) policy = dyno_retry_policy_new (3);
  g_autoptr(GError) throttled = service_error (400, "ProvisionedThroughputExceededException");
  g_autoptr(GError) validation = service_error (400, "ValidationException");

  g_assert_true (dyno_retry_policy_should_retry (policy, throttled, 1, NULL, NULL));
  g_assert_true (dyno_retry_policy_should_retry (policy, throttled, 2, NULL, NULL));
  /* Attempt 3 of 3 failed: no more. */
  g_assert_false (dyno_retry_policy_should_retry (policy, throttled, 3, NULL, NULL));
  g_assert_false (dyno_retry_policy_should_retry (policy, validation, 1, NULL, NULL));
}

static void
test_env (void)
{
  char *good[] = { (char *) "AWS_MAX_ATTEMPTS=7", NULL };
  char *none[] = { NULL };
  g_autoptr(DynoRetryPolicy) p1 = dyno_retry_policy_new_from_env (good);
  g_autoptr(DynoRetryPolicy) p2 = dyno_retry_policy_new_from_env (none);

  g_assert_cmpuint (dyno_retry_policy_get_max_attempts (p1), ==, 7);
  g_assert_cmpuint (dyno_retry_policy_get_max_attempts (p2), ==, DYNO_RETRY_DEFAULT_MAX_ATTEMPTS);

  if (g_test_subprocess ())
    {
      char *bad[] = { (char *) "AWS_MAX_ATTEMPTS=zero", NULL };
      g_autoptr(DynoRetryPolicy) p3 = NULL;

      /* The warning is the point here: not fatal in this child. */
      g_log_set_always_fatal (G_LOG_FATAL_MASK);
      p3 = dyno_retry_policy_new_from_env (bad);

      g_assert_cmpuint (dyno_retry_policy_get_max_attempts (p3), ==,
                        DYNO_RETRY_DEFAULT_MAX_ATTEMPTS);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_stderr ("*AWS_MAX_ATTEMPTS=zero*");
}

static void
test_quota (void)
{
  g_autoptr(DynoRetryPolicy) policy = dyno_retry_policy_new (1000);
  g_autoptr(GError) throttled = service_error (400, "ThrottlingException");
  g_autoptr(GError) reset = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "x");
  g_autoptr(GError) timeout = dyno_http_error_new_network (reset, NULL);
  guint retries = 0;
  guint cost = 0;

  g_assert_cmpuint (dyno_retry_policy_get_quota (policy), ==, DYNO_RETRY_QUOTA_INITIAL);

  /* 500 tokens at 5 each: 100 retries, then the quota refuses. */
  while (dyno_retry_policy_should_retry (policy, throttled, 1, NULL, &cost))
    retries++;
  g_assert_cmpuint (retries, ==, DYNO_RETRY_QUOTA_INITIAL / DYNO_RETRY_QUOTA_COST);
  g_assert_cmpuint (dyno_retry_policy_get_quota (policy), ==, 0);

  /* A successful retry gives its cost back; a success at first try gives 1. */
  dyno_retry_policy_release (policy, DYNO_RETRY_QUOTA_COST);
  g_assert_cmpuint (dyno_retry_policy_get_quota (policy), ==, DYNO_RETRY_QUOTA_COST);
  dyno_retry_policy_release (policy, 0);
  g_assert_cmpuint (dyno_retry_policy_get_quota (policy), ==, DYNO_RETRY_QUOTA_COST + 1);

  /* A timeout costs 10: 6 tokens cannot pay for it, but can pay for a throttle. */
  g_assert_false (dyno_retry_policy_should_retry (policy, timeout, 1, NULL, NULL));
  g_assert_true (dyno_retry_policy_should_retry (policy, throttled, 1, NULL, NULL));
  g_assert_cmpuint (dyno_retry_policy_get_quota (policy), ==, 1);

  /* Never above the initial amount. */
  for (guint i = 0; i < 1000; i++)
    dyno_retry_policy_release (policy, DYNO_RETRY_QUOTA_TIMEOUT_COST);
  g_assert_cmpuint (dyno_retry_policy_get_quota (policy), ==, DYNO_RETRY_QUOTA_INITIAL);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/retry/classify", test_classify);
  g_test_add_func ("/retry/classify-network", test_classify_network);
  g_test_add_func ("/retry/backoff", test_backoff);
  g_test_add_func ("/retry/jitter-in-range", test_jitter_in_range);
  g_test_add_func ("/retry/attempts", test_attempts);
  g_test_add_func ("/retry/env", test_env);
  g_test_add_func ("/retry/quota", test_quota);

  return g_test_run ();
}
