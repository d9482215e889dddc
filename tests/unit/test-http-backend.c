/* test-http-backend.c: the HTTP backend against a loopback fake server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-backend.h"
#include "dyno-error.h"
#include "dyno-http-backend.h"
#include "dyno-http-error.h"
#include "dyno-json.h"
#include "dyno-retry.h"
#include "dyno-table-names.h"

#include "dyno-fake-server.c"

typedef struct {
  FakeServer      *server;
  DynoHttpBackend *backend;
} Fixture;

static void
fixture_setup_with (Fixture         *f,
                    DynoCredentials *creds)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRetryPolicy) policy = dyno_retry_policy_new (4);

  f->server = fake_server_new (20, 4);
  f->backend = dyno_http_backend_new_for_endpoint (fake_server_get_url (f->server), "us-east-1",
                                                   creds, &error);
  g_assert_no_error (error);
  g_assert_nonnull (f->backend);
  /* Milliseconds instead of seconds: the policy is the same, only faster. */
  dyno_retry_policy_set_backoff (policy, 1, 2, 20);
  dyno_http_backend_set_retry_policy (f->backend, policy);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(DynoCredentials) creds = dyno_credentials_new ("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG",
                                                           NULL, NULL);

  fixture_setup_with (f, creds);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->backend);
  fake_server_free (f->server);
}

typedef struct {
  GAsyncResult *result;
  gint64        done_time;
} Waiter;

static void
waiter_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Waiter *w = user_data;

  w->result = g_object_ref (result);
  w->done_time = g_get_monotonic_time ();
}

static void
wait_for (Waiter *w)
{
  while (w->result == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static GBytes *
call_sync (Fixture     *f,
           const char  *operation,
           const char  *body,
           GError     **error)
{
  Waiter w = { 0 };
  g_autoptr(GBytes) request = g_bytes_new (body, strlen (body));
  GBytes *response;

  dyno_backend_call_async (DYNO_BACKEND (f->backend), operation, request, NULL, waiter_cb, &w);
  wait_for (&w);
  response = dyno_backend_call_finish (DYNO_BACKEND (f->backend), w.result, error);
  g_object_unref (w.result);

  return response;
}

/* ---- the request on the wire ------------------------------------------------------------- */

static void
test_signed_request (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) response = NULL;
  const char *body = "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}}}";
  SoupMessageHeaders *headers;
  const char *authorization;
  g_autofree char *host = NULL;

  response = call_sync (f, "GetItem", body, &error);
  g_assert_no_error (error);
  g_assert_nonnull (response);

  g_assert_cmpstr (fake_server_get_last_target (f->server), ==, "DynamoDB_20120810.GetItem");
  g_assert_cmpstr (fake_server_get_last_body (f->server), ==, body);
  headers = fake_server_get_last_headers (f->server);
  g_assert_cmpstr (soup_message_headers_get_content_type (headers, NULL), ==,
                   "application/x-amz-json-1.0");
  g_assert_nonnull (soup_message_headers_get_one (headers, "X-Amz-Date"));
  g_assert_null (soup_message_headers_get_one (headers, "X-Amz-Security-Token"));

  authorization = soup_message_headers_get_one (headers, "Authorization");
  g_assert_nonnull (authorization);
  g_assert_true (g_str_has_prefix (authorization, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"));
  g_assert_nonnull (strstr (authorization, "/us-east-1/dynamodb/aws4_request"));
  g_assert_nonnull (strstr (authorization, "host"));
  g_assert_nonnull (strstr (authorization, "x-amz-target"));

  /* The Host we signed is the Host we sent. */
  host = g_strdup (fake_server_get_url (f->server) + strlen ("http://"));
  g_assert_cmpstr (soup_message_headers_get_one (headers, "Host"), ==, host);
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 1);
}

static void
test_session_token (void)
{
  g_autoptr(DynoCredentials) creds = dyno_credentials_new ("ASIAEXAMPLE", "secret", "TOKEN123",
                                                           NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) response = NULL;
  SoupMessageHeaders *headers;
  Fixture f = { 0 };

  fixture_setup_with (&f, creds);
  response = call_sync (&f, "DescribeTable", "{\"TableName\":\"T\"}", &error);
  g_assert_no_error (error);

  headers = fake_server_get_last_headers (f.server);
  g_assert_cmpstr (soup_message_headers_get_one (headers, "X-Amz-Security-Token"), ==,
                   "TOKEN123");
  g_assert_nonnull (strstr (soup_message_headers_get_one (headers, "Authorization"),
                            "x-amz-security-token"));
  fixture_teardown (&f, NULL);
}

/* ---- errors ------------------------------------------------------------------------------ */

static void
test_errors_not_retried (Fixture       *f,
                         gconstpointer  data)
{
  static const struct {
    FakeFault   fault;
    int         code;
    const char *type;
  } cases[] = {
    { FAKE_FAULT_VALIDATION, DYNO_ERROR_SERVICE_VALIDATION, "ValidationException" },
    { FAKE_FAULT_NOT_FOUND, DYNO_ERROR_RESOURCE_NOT_FOUND, "ResourceNotFoundException" },
    { FAKE_FAULT_EXPIRED, DYNO_ERROR_EXPIRED_TOKEN, "ExpiredTokenException" },
    { FAKE_FAULT_UNRECOGNIZED, DYNO_ERROR_AUTH, "UnrecognizedClientException" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) response = NULL;
      const DynoServiceError *info;
      guint before = fake_server_get_n_requests (f->server);
      g_autofree char *prefix = g_strconcat (cases[i].type, ": ", NULL);

      fake_server_push_fault (f->server, cases[i].fault);
      response = call_sync (f, "Query", "{\"TableName\":\"T\"}", &error);
      g_assert_null (response);
      g_assert_error (error, DYNO_ERROR, cases[i].code);
      /* One request: not retried. */
      g_assert_cmpuint (fake_server_get_n_requests (f->server) - before, ==, 1);

      info = dyno_error_get_service_info (error);
      g_assert_nonnull (info);
      g_assert_cmpstr (info->type, ==, cases[i].type);
      g_assert_cmpuint (info->http_status, ==, 400);
      g_assert_cmpstr (info->request_id, ==, "FAKE-REQUEST-ID");
      g_assert_nonnull (info->message);
      g_assert_true (g_str_has_prefix (error->message, prefix));
    }
}

static void
test_parse_type (void)
{
  static const char * const cases[][2] = {
    { "com.amazon.coral.validate#ValidationException", "ValidationException" },
    { "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "ResourceNotFoundException" },
    { "ExpiredTokenException", "ExpiredTokenException" },
    { "aws.protocoltests#FooError:http://internal.amazon.com/coral/", "FooError" },
    { "a#b#ThrottlingException", "ThrottlingException" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *type = dyno_http_error_parse_type (cases[i][0]);
      g_assert_cmpstr (type, ==, cases[i][1]);
    }

  g_assert_null (dyno_http_error_parse_type (NULL));
  g_assert_null (dyno_http_error_parse_type (""));
}

static GBytes *
str_bytes (const char *text)
{
  return g_bytes_new_static (text, strlen (text));
}

static void
test_error_new (void)
{
  g_autoptr(GBytes) capital = str_bytes (
    "{\"__type\":\"com.amazon.coral.service#AccessDeniedException\",\"Message\":\"No.\"}");
  g_autoptr(GBytes) html = str_bytes ("<html>oops</html>");
  g_autoptr(GBytes) conditional = str_bytes (
    "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException\","
    "\"message\":\"The conditional request failed\"}");
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) copy = NULL;
  g_autoptr(GError) html_error = NULL;
  g_autoptr(GError) cond_error = NULL;
  g_autoptr(GError) plain = NULL;
  const DynoServiceError *info;

  error = dyno_http_error_new (400, "Bad Request", capital, "RID1");
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_AUTH);
  g_assert_cmpstr (error->message, ==, "AccessDeniedException: No.");

  /* The details survive g_error_copy(). */
  copy = g_error_copy (error);
  info = dyno_error_get_service_info (copy);
  g_assert_nonnull (info);
  g_assert_cmpstr (info->type, ==, "AccessDeniedException");
  g_assert_cmpstr (info->raw_type, ==, "com.amazon.coral.service#AccessDeniedException");
  g_assert_cmpstr (info->message, ==, "No.");
  g_assert_cmpstr (info->request_id, ==, "RID1");
  g_assert_cmpuint (info->http_status, ==, 400);

  /* A NUL in a message is shown as ␀: the message stays text. */
  {
    g_autoptr(GBytes) nul = str_bytes ("{\"__type\":\"x#ValidationException\","
                                       "\"message\":\"key a\\u0000b\"}");
    g_autoptr(GError) nul_error = dyno_http_error_new (400, "Bad Request", nul, NULL);

    g_assert_cmpstr (nul_error->message, ==, "ValidationException: key a\u2400b");
    g_assert_true (g_utf8_validate (nul_error->message, -1, NULL));
  }

  html_error = dyno_http_error_new (503, "Service Unavailable", html, NULL);
  g_assert_error (html_error, DYNO_ERROR, DYNO_ERROR_SERVICE);
  g_assert_nonnull (strstr (html_error->message, "503"));
  info = dyno_error_get_service_info (html_error);
  g_assert_nonnull (info);
  g_assert_null (info->type);
  g_assert_cmpint (dyno_retry_classify (html_error), ==, DYNO_RETRY_TRANSIENT);

  cond_error = dyno_http_error_new (400, NULL, conditional, NULL);
  g_assert_error (cond_error, DYNO_ERROR, DYNO_ERROR_CONDITIONAL_CHECK_FAILED);
  g_assert_cmpint (dyno_retry_classify (cond_error), ==, DYNO_RETRY_NONE);

  /* A core error has no service details. */
  plain = g_error_new_literal (DYNO_ERROR, DYNO_ERROR_SYNTAX, "bad");
  g_assert_null (dyno_error_get_service_info (plain));
}

/* ---- retries ----------------------------------------------------------------------------- */

static void
test_retry_then_success (Fixture       *f,
                         gconstpointer  data)
{
  static const FakeFault faults[] = {
    FAKE_FAULT_THROTTLE, FAKE_FAULT_500, FAKE_FAULT_503, FAKE_FAULT_DROP, FAKE_FAULT_TRUNCATE,
    FAKE_FAULT_BAD_CRC, FAKE_FAULT_GARBLED,
  };

  for (guint i = 0; i < G_N_ELEMENTS (faults); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) response = NULL;
      guint before = fake_server_get_n_requests (f->server);
      guint retries_before = dyno_http_backend_get_n_retries (f->backend);

      g_test_message ("fault %d", faults[i]);
      fake_server_push_fault (f->server, faults[i]);
      fake_server_push_fault (f->server, faults[i]);
      response = call_sync (f, "Query", "{\"TableName\":\"T\",\"Limit\":2}", &error);
      g_assert_no_error (error);
      g_assert_nonnull (response);
      g_assert_nonnull (strstr (g_bytes_get_data (response, NULL), "\"Count\":2"));
      /* Two failures, then the answer: three attempts, two retries. */
      g_assert_cmpuint (fake_server_get_n_requests (f->server) - before, ==, 3);
      g_assert_cmpuint (dyno_http_backend_get_n_retries (f->backend) - retries_before, ==, 2);
    }
}

static void
test_retry_exhausted (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) response = NULL;

  for (guint i = 0; i < 10; i++)
    fake_server_push_fault (f->server, FAKE_FAULT_THROTTLE);

  response = call_sync (f, "Query", "{\"TableName\":\"T\"}", &error);
  g_assert_null (response);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_THROTTLED);
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 4);
  g_assert_cmpuint (dyno_http_backend_get_n_attempts (f->backend), ==, 4);
}

/* A 200 whose body is not JSON is not an answer: retried, and reported if it persists. */
static void
test_garbled_exhausted (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) response = NULL;
  const DynoServiceError *info;

  for (guint i = 0; i < 10; i++)
    fake_server_push_fault (f->server, FAKE_FAULT_GARBLED);

  response = call_sync (f, "Query", "{\"TableName\":\"T\"}", &error);
  g_assert_null (response);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_NETWORK);
  info = dyno_error_get_service_info (error);
  g_assert_nonnull (info);
  g_assert_true (info->malformed);
  g_assert_cmpuint (info->http_status, ==, 200);
  g_assert_nonnull (strstr (error->message, "Query"));
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 4);
}

static void
test_max_attempts_env (Fixture       *f,
                       gconstpointer  data)
{
  char *env[] = { (char *) "AWS_MAX_ATTEMPTS=2", NULL };
  g_autoptr(DynoRetryPolicy) policy = dyno_retry_policy_new_from_env (env);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) response = NULL;

  g_assert_cmpuint (dyno_retry_policy_get_max_attempts (policy), ==, 2);
  dyno_retry_policy_set_backoff (policy, 1, 1, 5);
  dyno_http_backend_set_retry_policy (f->backend, policy);

  for (guint i = 0; i < 5; i++)
    fake_server_push_fault (f->server, FAKE_FAULT_500);
  response = call_sync (f, "Scan", "{\"TableName\":\"T\"}", &error);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_SERVICE);
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 2);
}

static void
test_connection_refused (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(DynoCredentials) creds = dyno_credentials_new ("AKID", "secret", NULL, NULL);
  g_autoptr(DynoHttpBackend) backend = NULL;
  g_autoptr(DynoRetryPolicy) policy = dyno_retry_policy_new (3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) request = str_bytes ("{}");
  g_autoptr(GBytes) response = NULL;
  g_autofree char *url = NULL;
  Waiter w = { 0 };

  /* A port nobody listens on: bind, note it, close. */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                         &error);
  g_assert_no_error (error);
  g_socket_bind (socket, any, TRUE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  url = g_strdup_printf ("http://127.0.0.1:%u",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  g_socket_close (socket, NULL);

  backend = dyno_http_backend_new_for_endpoint (url, "us-east-1", creds, &error);
  g_assert_no_error (error);
  dyno_retry_policy_set_backoff (policy, 1, 1, 5);
  dyno_http_backend_set_retry_policy (backend, policy);

  dyno_backend_call_async (DYNO_BACKEND (backend), "ListTables", request, NULL, waiter_cb, &w);
  wait_for (&w);
  response = dyno_backend_call_finish (DYNO_BACKEND (backend), w.result, &error);
  g_object_unref (w.result);
  g_assert_null (response);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_NETWORK);
  g_assert_nonnull (strstr (error->message, url));
  /* Connection errors are transient: every attempt was used. */
  g_assert_cmpuint (dyno_http_backend_get_n_attempts (backend), ==, 3);
}

/* ---- cancellation ------------------------------------------------------------------------ */

static void
test_cancel_in_flight (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GBytes) request = str_bytes ("{\"TableName\":\"T\"}");
  g_autoptr(GBytes) response = NULL;
  g_autoptr(GError) error = NULL;
  const guint slow_ms = 5000;
  Waiter w = { 0 };
  gint64 cancel_time;

  fake_server_set_slow_ms (f->server, slow_ms);
  fake_server_push_fault (f->server, FAKE_FAULT_SLOW);
  dyno_backend_call_async (DYNO_BACKEND (f->backend), "Query", request, cancellable, waiter_cb,
                           &w);

  while (fake_server_get_slow_arrival_time (f->server) == 0 && w.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (w.result);

  cancel_time = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  wait_for (&w);

  response = dyno_backend_call_finish (DYNO_BACKEND (f->backend), w.result, &error);
  g_object_unref (w.result);
  g_assert_null (response);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* It did not wait for the slow answer, and did not retry. */
  g_assert_cmpint (w.done_time, <, fake_server_get_slow_arrival_time (f->server)
                                   + slow_ms * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpint (w.done_time, >=, cancel_time);
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 1);
}

static double
almost_one (gpointer data)
{
  return 0.999;
}

static void
test_cancel_during_backoff (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(DynoRetryPolicy) policy = dyno_retry_policy_new (4);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GBytes) request = str_bytes ("{}");
  g_autoptr(GBytes) response = NULL;
  g_autoptr(GError) error = NULL;
  Waiter w = { 0 };
  gint64 start;

  /* A 10 s backoff that the cancel must cut short. */
  dyno_retry_policy_set_backoff (policy, 10000, 10000, 20000);
  dyno_retry_policy_set_random (policy, almost_one, NULL);
  dyno_http_backend_set_retry_policy (f->backend, policy);
  fake_server_push_fault (f->server, FAKE_FAULT_THROTTLE);

  start = g_get_monotonic_time ();
  dyno_backend_call_async (DYNO_BACKEND (f->backend), "Query", request, cancellable, waiter_cb,
                           &w);
  while (fake_server_get_n_requests (f->server) == 0)
    g_main_context_iteration (NULL, TRUE);
  /* Let the throttling answer arrive and the backoff begin. */
  while (dyno_http_backend_get_n_retries (f->backend) == 0)
    g_main_context_iteration (NULL, TRUE);

  g_cancellable_cancel (cancellable);
  wait_for (&w);
  response = dyno_backend_call_finish (DYNO_BACKEND (f->backend), w.result, &error);
  g_object_unref (w.result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (w.done_time - start, <, 9990 * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 1);
}

/* ---- credentials from a process ---------------------------------------------------------- */

#define NEW_CREDS_PROCESS \
  "/bin/echo '{\"Version\":1,\"AccessKeyId\":\"ASIANEWKEY\",\"SecretAccessKey\":\"s2\"," \
  "\"SessionToken\":\"NEWTOKEN\",\"Expiration\":\"2099-01-01T00:00:00Z\"}'"

static DynoHttpBackend *
process_backend (FakeServer *server,
                 GDateTime  *expiration)
{
  g_autoptr(DynoResolvedConfig) config = g_new0 (DynoResolvedConfig, 1);
  g_autoptr(DynoRetryPolicy) policy = dyno_retry_policy_new (4);
  g_autoptr(GError) error = NULL;
  DynoHttpBackend *backend;

  config->region = g_strdup ("us-east-1");
  config->endpoint_url = g_strdup (fake_server_get_url (server));
  config->credentials = dyno_credentials_new ("ASIAOLDKEY", "s1", "OLDTOKEN", expiration);
  config->credential_process = g_strdup (NEW_CREDS_PROCESS);
  backend = dyno_http_backend_new (config, &error);
  g_assert_no_error (error);
  dyno_retry_policy_set_backoff (policy, 1, 1, 5);
  dyno_http_backend_set_retry_policy (backend, policy);

  return backend;
}

static GBytes *
backend_call (DynoHttpBackend  *backend,
              GError          **error)
{
  g_autoptr(GBytes) request = g_bytes_new_static ("{}", 2);
  Waiter w = { 0 };
  GBytes *response;

  dyno_backend_call_async (DYNO_BACKEND (backend), "ListTables", request, NULL, waiter_cb, &w);
  wait_for (&w);
  response = dyno_backend_call_finish (DYNO_BACKEND (backend), w.result, error);
  g_object_unref (w.result);
  return response;
}

static void
test_expired_token_refreshes (void)
{
  g_autoptr(GDateTime) later = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) expiration = g_date_time_add_hours (later, 6);
  FakeServer *server = fake_server_new (1, 1);
  g_autoptr(DynoHttpBackend) backend = process_backend (server, expiration);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) response = NULL;
  SoupMessageHeaders *headers;

  /* The server says the token expired: refresh with credential_process, once, and resend. */
  fake_server_push_fault (server, FAKE_FAULT_EXPIRED);
  response = backend_call (backend, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fake_server_get_n_requests (server), ==, 2);
  headers = fake_server_get_last_headers (server);
  g_assert_nonnull (strstr (soup_message_headers_get_one (headers, "Authorization"),
                            "Credential=ASIANEWKEY/"));
  g_assert_cmpstr (soup_message_headers_get_one (headers, "X-Amz-Security-Token"), ==,
                   "NEWTOKEN");

  /* Expired again right after a refresh: reported, not looped. */
  g_clear_pointer (&response, g_bytes_unref);
  g_clear_object (&backend);
  backend = process_backend (server, expiration);
  fake_server_push_fault (server, FAKE_FAULT_EXPIRED);
  fake_server_push_fault (server, FAKE_FAULT_EXPIRED);
  response = backend_call (backend, &error);
  g_assert_null (response);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_EXPIRED_TOKEN);
  g_assert_cmpuint (fake_server_get_n_requests (server), ==, 4);

  g_clear_object (&backend);
  fake_server_free (server);
}

static void
test_expiring_credentials_refreshed_first (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) soon = g_date_time_add_minutes (now, 2);
  FakeServer *server = fake_server_new (1, 1);
  g_autoptr(DynoHttpBackend) backend = process_backend (server, soon);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) response = NULL;

  /* Two minutes left: refreshed before the request is signed. */
  response = backend_call (backend, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fake_server_get_n_requests (server), ==, 1);
  g_assert_nonnull (strstr (soup_message_headers_get_one (fake_server_get_last_headers (server),
                                                          "Authorization"),
                            "Credential=ASIANEWKEY/"));

  g_clear_object (&backend);
  fake_server_free (server);
}

/* ---- typed helpers ----------------------------------------------------------------------- */

static void
test_list_tables (Fixture       *f,
                  gconstpointer  data)
{
  static const char * const tables[] = { "a", "b", "c", "d", "e", NULL };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  Waiter w = { 0 };

  fake_server_set_tables (f->server, tables);
  dyno_backend_list_tables_async (DYNO_BACKEND (f->backend), NULL, waiter_cb, &w);
  wait_for (&w);
  names = dyno_backend_list_tables_finish (DYNO_BACKEND (f->backend), w.result, &error);
  g_object_unref (w.result);
  g_assert_no_error (error);
  g_assert_true (g_strv_equal ((const char * const *) names, tables));
  /* Pages of two: a b | c d | e */
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 3);
}

/* Reads and BatchWriteItem, one after the other, go on one kept-alive connection (libsoup
 * opens a connection per POST unless it is marked idempotent: a TCP and TLS handshake per
 * page of a scan or batch of an import). */
static void
test_connection_reused (Fixture       *f,
                        gconstpointer  data)
{
  static const char * const tables[] = { "a", "b", "c", "d", "e", NULL };
  static const char * const reads[] = {
    "Scan", "Query", "GetItem", "DescribeTable", "BatchWriteItem", "Scan",
  };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  Waiter w = { 0 };

  fake_server_set_tables (f->server, tables);
  dyno_backend_list_tables_async (DYNO_BACKEND (f->backend), NULL, waiter_cb, &w);
  wait_for (&w);
  names = dyno_backend_list_tables_finish (DYNO_BACKEND (f->backend), w.result, &error);
  g_object_unref (w.result);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (reads); i++)
    {
      g_autoptr(GBytes) response = call_sync (f, reads[i],
                                              "{\"TableName\":\"t\",\"RequestItems\":{}}",
                                              &error);

      g_assert_no_error (error);
      g_assert_nonnull (response);
    }
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 3 + G_N_ELEMENTS (reads));
  g_assert_cmpuint (fake_server_get_n_connections (f->server), ==, 1);
}

static void
test_table_names_sort (void)
{
  g_auto(GStrv) names = g_strsplit ("orders10 Zebra apple orders2 Orders1 orders Orders", " ", -1);
  static const char * const want[] = { "apple", "Orders", "orders", "Orders1", "orders2",
                                       "orders10", "Zebra", NULL };

  dyno_table_names_sort (names);
  g_assert_true (g_strv_equal ((const char * const *) names, want));

  /* a connection without tables, or with one */
  {
    g_auto(GStrv) none = g_new0 (char *, 1);
    g_auto(GStrv) one = g_strsplit ("only", " ", -1);

    dyno_table_names_sort (none);
    g_assert_null (none[0]);
    dyno_table_names_sort (one);
    g_assert_cmpstr (one[0], ==, "only");
    g_assert_null (one[1]);
  }
}

/* What the sidebar and the connection dialog list: every page, sorted for people. */
static void
test_table_names_list (Fixture       *f,
                       gconstpointer  data)
{
  static const char * const tables[] = { "Zebra", "orders10", "orders2", "apple", "Orders1",
                                         NULL };
  static const char * const want[] = { "apple", "Orders1", "orders2", "orders10", "Zebra",
                                       NULL };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  Waiter w = { 0 };

  fake_server_set_tables (f->server, tables);
  dyno_table_names_list_async (DYNO_BACKEND (f->backend), NULL, waiter_cb, &w);
  wait_for (&w);
  names = dyno_table_names_list_finish (DYNO_BACKEND (f->backend), w.result, &error);
  g_clear_object (&w.result);
  g_assert_no_error (error);
  g_assert_true (g_strv_equal ((const char * const *) names, want));
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 3);
}

static void
test_table_names_list_cancelled (Fixture       *f,
                                 gconstpointer  data)
{
  static const char * const tables[] = { "a", "b", "c", NULL };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  Waiter w = { 0 };

  fake_server_set_tables (f->server, tables);
  g_cancellable_cancel (cancellable);
  dyno_table_names_list_async (DYNO_BACKEND (f->backend), cancellable, waiter_cb, &w);
  wait_for (&w);
  names = dyno_table_names_list_finish (DYNO_BACKEND (f->backend), w.result, &error);
  g_clear_object (&w.result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (names);
}

typedef struct {
  guint calls;
  guint last_done;
  guint last_total;
} Progress;

static void
progress_cb (guint    done,
             guint    total,
             gpointer user_data)
{
  Progress *p = user_data;

  p->calls++;
  g_assert_cmpuint (done, >=, p->last_done);
  p->last_done = done;
  p->last_total = total;
}

static void
test_batch_write (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  g_autoptr(GError) error = NULL;
  Progress progress = { 0 };
  Waiter w = { 0 };
  guint n_written = 0;
  gboolean ok;

  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"pk\":{\"S\":\"k%u\"}}", i);
      DynoItem *item = dyno_item_from_ddb_json (json, -1, &error);

      g_assert_no_error (error);
      g_ptr_array_add (items, item);
    }

  /* Two answers leave one write unprocessed: 25 (1 back) | 6 (1 back) | 1. */
  fake_server_set_unprocessed_rounds (f->server, 2);
  dyno_backend_batch_write_async (DYNO_BACKEND (f->backend), "T", items, NULL, progress_cb,
                                  &progress, NULL, waiter_cb, &w);
  wait_for (&w);
  ok = dyno_backend_batch_write_finish (DYNO_BACKEND (f->backend), w.result, &n_written, &error);
  g_object_unref (w.result);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpuint (n_written, ==, 30);
  g_assert_cmpuint (fake_server_get_n_writes (f->server), ==, 30);
  g_assert_cmpuint (fake_server_get_n_requests (f->server), ==, 3);
  g_assert_cmpuint (progress.calls, ==, 3);
  g_assert_cmpuint (progress.last_done, ==, 30);
  g_assert_cmpuint (progress.last_total, ==, 30);
}

/* A broken or hostile server: responses nested far deeper than any DynamoDB document give an
 * error naming the operation, never a stack overflow; a NUL in a response is kept. */
static char *
deep_text (const char *before,
           const char *open,
           guint       levels,
           const char *after)
{
  GString *s = g_string_new (before);

  for (guint i = 0; i < levels; i++)
    g_string_append (s, open);
  g_string_append (s, after);
  return g_string_free (s, FALSE);
}

static void
test_hostile_responses (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *describe = deep_text ("{\"Table\":{\"TableName\":\"T\",\"KeySchema\":",
                                         "[", 500000, "");
  g_autofree char *page = deep_text ("{\"Items\":[{\"pk\":", "{\"L\":[", 200000, "");
  g_autofree char *tables = deep_text ("{\"TableNames\":", "[", 500000, "");
  g_autofree char *batch = deep_text ("{\"UnprocessedItems\":{\"T\":", "[", 500000, "");
  g_autofree char *fault = deep_text ("{\"__type\":", "{\"a\":", 500000, "");
  g_autoptr(DynoRequest) scan = dyno_request_new (DYNO_OP_SCAN, "T");
  g_autoptr(DynoRequest) get = dyno_request_new (DYNO_OP_GET_ITEM, "T");
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  Waiter w = { 0 };

  fake_server_set_answer (f->server, "DescribeTable", 200, describe, -1);
  dyno_backend_describe_table_async (DYNO_BACKEND (f->backend), "T", NULL, waiter_cb, &w);
  wait_for (&w);
  g_assert_null (dyno_backend_describe_table_finish (DYNO_BACKEND (f->backend), w.result,
                                                     &error));
  g_clear_object (&w.result);
  /* a 200 that is not the operation's output is retried like a 5xx, then fails */
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_NETWORK);
  g_assert_true (strstr (error->message, "DescribeTable") != NULL);
  g_assert_true (strstr (error->message, "nested more than 200 levels deep") != NULL);
  g_clear_error (&error);

  fake_server_set_answer (f->server, "Scan", 200, page, -1);
  dyno_backend_run_page_async (DYNO_BACKEND (f->backend), scan, NULL, NULL, waiter_cb, &w);
  wait_for (&w);
  g_assert_null (dyno_backend_run_page_finish (DYNO_BACKEND (f->backend), w.result, &error));
  g_clear_object (&w.result);
  g_assert_nonnull (error);
  g_assert_true (strstr (error->message, "nested more than") != NULL);
  g_clear_error (&error);

  fake_server_set_answer (f->server, "ListTables", 200, tables, -1);
  dyno_backend_list_tables_async (DYNO_BACKEND (f->backend), NULL, waiter_cb, &w);
  wait_for (&w);
  g_assert_null (dyno_backend_list_tables_finish (DYNO_BACKEND (f->backend), w.result, &error));
  g_clear_object (&w.result);
  /* a 200 that is not the operation's output is retried like a 5xx, then fails */
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_NETWORK);
  g_assert_true (strstr (error->message, "ListTables") != NULL);
  g_clear_error (&error);

  fake_server_set_answer (f->server, "BatchWriteItem", 200, batch, -1);
  g_ptr_array_add (items, dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"a\"}}", -1, NULL));
  dyno_backend_batch_write_async (DYNO_BACKEND (f->backend), "T", items, NULL, NULL, NULL, NULL,
                                  waiter_cb, &w);
  wait_for (&w);
  g_assert_false (dyno_backend_batch_write_finish (DYNO_BACKEND (f->backend), w.result, NULL,
                                                   &error));
  g_clear_object (&w.result);
  /* a 200 that is not the operation's output is retried like a 5xx, then fails */
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_NETWORK);
  g_assert_true (strstr (error->message, "BatchWriteItem") != NULL);
  g_clear_error (&error);

  /* An error body that deep is no error document: the HTTP status speaks. */
  fake_server_set_answer (f->server, "DescribeTable", 400, fault, -1);
  dyno_backend_describe_table_async (DYNO_BACKEND (f->backend), "T", NULL, waiter_cb, &w);
  wait_for (&w);
  g_assert_null (dyno_backend_describe_table_finish (DYNO_BACKEND (f->backend), w.result,
                                                     &error));
  g_clear_object (&w.result);
  g_assert_nonnull (error);
  g_assert_true (strstr (error->message, "HTTP 400") != NULL);
  g_clear_error (&error);

  /* GetItem: the key that came back is the key with its NUL. */
  get->key = dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"a\\u0000b\"}}", -1, NULL);
  fake_server_set_answer (f->server, "GetItem", 200,
                          "{\"Item\":{\"pk\":{\"S\":\"a\\u0000b\"}}}", -1);
  dyno_backend_execute_async (DYNO_BACKEND (f->backend), get, NULL, waiter_cb, &w);
  wait_for (&w);
  {
    g_autoptr(JsonNode) response = dyno_backend_execute_finish (DYNO_BACKEND (f->backend),
                                                                w.result, &error);
    g_autoptr(DynoItem) item = NULL;
    const char *s;
    gsize len;

    g_clear_object (&w.result);
    g_assert_no_error (error);
    item = dyno_item_from_json_node (json_object_get_member (json_node_get_object (response),
                                                             "Item"), &error);
    g_assert_no_error (error);
    s = dyno_value_get_string (dyno_value_get_child (dyno_item_get_map (item), 0), &len);
    g_assert_cmpmem (s, len, "a\0b", 3);
    /* And the request carried the whole key. */
    g_assert_true (strstr (fake_server_get_last_body (f->server),
                           "{\"pk\":{\"S\":\"a\\u0000b\"}}") != NULL);
  }
}

static void
test_crc32 (void)
{
  /* The standard check value of CRC-32/ISO-HDLC. */
  g_assert_cmphex (dyno_crc32 ((const guint8 *) "123456789", 9), ==, 0xCBF43926);
  g_assert_cmphex (dyno_crc32 ((const guint8 *) "", 0), ==, 0);
  g_assert_cmphex (dyno_crc32 ((const guint8 *) "{}", 2), ==,
                   fake_crc32 ((const guint8 *) "{}", 2));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/http-backend/signed-request", test_signed_request);
  g_test_add_func ("/http-backend/session-token", test_session_token);
  ADD ("/http-backend/errors-not-retried", test_errors_not_retried);
  g_test_add_func ("/http-error/parse-type", test_parse_type);
  g_test_add_func ("/http-error/new", test_error_new);
  ADD ("/http-backend/retry/then-success", test_retry_then_success);
  ADD ("/http-backend/retry/exhausted", test_retry_exhausted);
  ADD ("/http-backend/retry/garbled-exhausted", test_garbled_exhausted);
  ADD ("/http-backend/retry/max-attempts-env", test_max_attempts_env);
  g_test_add_func ("/http-backend/retry/connection-refused", test_connection_refused);
  ADD ("/http-backend/cancel/in-flight", test_cancel_in_flight);
  ADD ("/http-backend/cancel/during-backoff", test_cancel_during_backoff);
  g_test_add_func ("/http-backend/credentials/expired-token-refreshes",
                   test_expired_token_refreshes);
  g_test_add_func ("/http-backend/credentials/expiring-refreshed-first",
                   test_expiring_credentials_refreshed_first);
  ADD ("/http-backend/list-tables", test_list_tables);
  ADD ("/http-backend/connection-reused", test_connection_reused);
  g_test_add_func ("/table-names/sort", test_table_names_sort);
  ADD ("/table-names/list", test_table_names_list);
  ADD ("/table-names/list-cancelled", test_table_names_list_cancelled);
  ADD ("/http-backend/batch-write", test_batch_write);
  g_test_add_func ("/http-backend/crc32", test_crc32);
  ADD ("/http-backend/hostile-responses", test_hostile_responses);

  return g_test_run ();
}
