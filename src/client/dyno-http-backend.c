/* dyno-http-backend.c: DynoBackend over HTTPS with libsoup 3 (SigV4, retries, CRC32)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <zlib.h>

#include "dyno-http-backend.h"

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "dyno-endpoints.h"
#include "dyno-error.h"
#include "dyno-http-error.h"
#include "dyno-json.h"
#include "dyno-sigv4.h"

#define TARGET_PREFIX "DynamoDB_20120810."
#define CONTENT_TYPE "application/x-amz-json-1.0"
#define SIGNING_NAME "dynamodb"
/* Refresh process credentials this long before they expire (botocore's advisory window). */
#define CREDENTIALS_REFRESH_MARGIN_S (15 * 60)

struct _DynoHttpBackend
{
  GObject             parent_instance;

  SoupSession        *session;
  GUri               *uri;
  char               *endpoint_url;
  char               *host;
  char               *region;          /* as configured */
  char               *signing_region;
  char               *profile;
  DynoResolvedConfig *config;          /* for credential refresh; NULL when explicit */
  GMutex              credentials_lock;
  DynoCredentials    *credentials;
  DynoRetryPolicy    *policy;
  guint               n_attempts;      /* atomic */
  guint               n_retries;       /* atomic */
};

static void dyno_http_backend_iface_init (DynoBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynoHttpBackend, dyno_http_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (DYNO_TYPE_BACKEND,
                                                      dyno_http_backend_iface_init))

/* ---- CRC32 (IEEE, reflected): DynamoDB's X-Amz-Crc32 is zlib's crc32 -------------------- */

/* zlib's own (braided, several bytes a cycle): a third of the time a table-driven loop took,
 * and the header is checked on every byte of every page. */
guint32
dyno_crc32 (const guint8 *data,
            gsize         len)
{
  return (guint32) crc32_z (0, data, len);
}

static gboolean
is_page_operation (const char *operation)
{
  return g_str_equal (operation, "Query") || g_str_equal (operation, "Scan")
         || g_str_equal (operation, "ExecuteStatement");
}

/* ---- credentials ------------------------------------------------------------------------- */

static DynoCredentials *
dup_credentials (DynoHttpBackend *self)
{
  DynoCredentials *creds;

  g_mutex_lock (&self->credentials_lock);
  creds = self->credentials ? dyno_credentials_ref (self->credentials) : NULL;
  g_mutex_unlock (&self->credentials_lock);

  return creds;
}

static gboolean
needs_refresh (DynoHttpBackend *self)
{
  g_autoptr(DynoCredentials) creds = NULL;

  if (!dyno_resolved_config_can_refresh (self->config))
    return FALSE;

  creds = dup_credentials (self);
  return creds == NULL || dyno_credentials_is_expiring (creds, CREDENTIALS_REFRESH_MARGIN_S);
}

static void
refresh_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  DynoHttpBackend *self = source_object;
  g_auto(GStrv) env = g_get_environ ();
  GError *error = NULL;
  DynoCredentials *creds;

  creds = dyno_credentials_refresh (self->config, env, cancellable, &error);
  if (creds == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_mutex_lock (&self->credentials_lock);
  g_clear_pointer (&self->credentials, dyno_credentials_unref);
  self->credentials = creds;
  g_mutex_unlock (&self->credentials_lock);

  g_task_return_boolean (task, TRUE);
}

/* ---- one call ---------------------------------------------------------------------------- */

typedef struct {
  char        *operation;
  GBytes      *body;
  SoupMessage *message;
  guint        attempt;          /* 1-based, of the attempt in flight */
  guint        retry_cost;       /* quota taken by the last retry */
  gboolean     refreshed;        /* credentials refreshed after ExpiredToken: once only */
  GSource     *delay_source;
  gulong       cancelled_id;
} CallData;

static void
call_data_free (CallData *data)
{
  g_assert (data->delay_source == NULL);
  g_free (data->operation);
  g_clear_pointer (&data->body, g_bytes_unref);
  g_clear_object (&data->message);
  g_free (data);
}

static void send_attempt (GTask *task);

static void
refreshed_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_prefix_error (&error, _("Could not refresh the credentials: "));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  send_attempt (g_steal_pointer (&task));
}

static void
refresh_then_send (GTask *task)
{
  DynoHttpBackend *self = g_task_get_source_object (task);
  g_autoptr(GTask) refresh = NULL;

  refresh = g_task_new (self, g_task_get_cancellable (task), refreshed_cb, task);
  g_task_set_source_tag (refresh, refresh_then_send);
  g_task_run_in_thread (refresh, refresh_thread);
}

static void
delay_finish (GTask    *task,
              gboolean  cancelled)
{
  CallData *data = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  g_source_destroy (data->delay_source);
  g_clear_pointer (&data->delay_source, g_source_unref);
  if (data->cancelled_id != 0)
    {
      g_cancellable_disconnect (cancellable, data->cancelled_id);
      data->cancelled_id = 0;
    }

  if (cancelled)
    {
      g_task_return_error_if_cancelled (task);
      g_object_unref (task);
      return;
    }

  send_attempt (task);
}

static gboolean
delay_elapsed_cb (gpointer user_data)
{
  delay_finish (user_data, FALSE);
  return G_SOURCE_REMOVE;
}

static gboolean
delay_cancelled_idle_cb (gpointer user_data)
{
  GTask *task = user_data;
  CallData *data = g_task_get_task_data (task);

  /* The timeout may have fired in between: then send_attempt saw the cancellation.
   * Otherwise the delay's own reference is dropped here (the idle holds another). */
  if (data->delay_source != NULL)
    delay_finish (task, TRUE);

  return G_SOURCE_REMOVE;
}

static void
delay_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  dyno_task_continue_in_idle (user_data, G_PRIORITY_HIGH, delay_cancelled_idle_cb);
}

static void
retry_after (GTask *task,
             guint  delay_ms)
{
  CallData *data = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  /* The delay source owns the task reference until it fires or the wait is cancelled. */
  data->delay_source = g_timeout_source_new (delay_ms);
  g_source_set_callback (data->delay_source, delay_elapsed_cb, task, NULL);
  g_source_attach (data->delay_source, g_task_get_context (task));
  if (cancellable != NULL)
    data->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (delay_cancelled_cb),
                                                task, NULL);
}

static void
attempt_failed (GTask  *task,
                GError *error)
{
  DynoHttpBackend *self = g_task_get_source_object (task);
  CallData *data = g_task_get_task_data (task);
  guint delay_ms = 0;
  guint cost = 0;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  /* Expired temporary credentials (a process, a role, IAM Identity Center): refresh once and
   * try again at once. */
  if (g_error_matches (error, DYNO_ERROR, DYNO_ERROR_EXPIRED_TOKEN) && !data->refreshed
      && dyno_resolved_config_can_refresh (self->config))
    {
      g_debug ("%s: credentials expired, refreshing", data->operation);
      data->refreshed = TRUE;
      g_error_free (error);
      refresh_then_send (task);
      return;
    }

  if (!dyno_retry_policy_should_retry (self->policy, error, data->attempt, &delay_ms, &cost))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  g_debug ("%s: attempt %u failed (%s); retrying in %u ms", data->operation, data->attempt,
           error->message, delay_ms);
  g_error_free (error);
  data->retry_cost = cost;
  g_atomic_int_inc (&self->n_retries);
  retry_after (task, delay_ms);
}

static void
sent_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  DynoHttpBackend *self = g_task_get_source_object (task);
  CallData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(SoupMessage) message = g_steal_pointer (&data->message);
  SoupMessageHeaders *headers;
  const char *request_id;
  const char *crc_header;
  guint status;

  body = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);
  if (body == NULL)
    {
      attempt_failed (task, dyno_http_error_new_network (error, self->endpoint_url));
      return;
    }

  status = soup_message_get_status (message);
  headers = soup_message_get_response_headers (message);
  request_id = soup_message_headers_get_one (headers, "x-amzn-RequestId");

  if (status < 200 || status >= 300)
    {
      attempt_failed (task, dyno_http_error_new (status, soup_message_get_reason_phrase (message),
                                                 body, request_id));
      return;
    }

  crc_header = soup_message_headers_get_one (headers, "x-amz-crc32");
  if (crc_header != NULL)
    {
      guint64 expected = 0;
      gsize len;
      const guint8 *bytes = g_bytes_get_data (body, &len);
      guint32 actual = dyno_crc32 (bytes, len);

      if (!g_ascii_string_to_unsigned (crc_header, 10, 0, G_MAXUINT32, &expected, NULL)
          || (guint32) expected != actual)
        {
          attempt_failed (task, dyno_http_error_new_crc32 ((guint32) expected, actual,
                                                           request_id));
          return;
        }
    }

  /* Every DynamoDB output is one JSON object: a 200 that is anything else (cut short by a
   * proxy, garbled) says nothing about what was done, and is retried like a 5xx.  Except
   * for a page (Query, Scan, ExecuteStatement) whose X-Amz-Crc32 matched: those bytes are
   * what the server sent, whole, and the page parser reads every one of them on a worker
   * thread and names what is wrong; checking them here as well read every 1 MB page twice,
   * a third of the cost of ingesting it, on the main thread. */
  {
    g_autoptr(GError) json_error = NULL;
    gsize len;
    const char *text = g_bytes_get_data (body, &len);
    gsize i = 0;

    while (text != NULL && i < len && g_ascii_isspace (text[i]))
      i++;
    if (text == NULL || i == len || text[i] != '{')
      json_error = g_error_new_literal (DYNO_ERROR, DYNO_ERROR_JSON,
                                        len == 0 ? _("the body is empty")
                                                 : _("it does not start with {"));
    else if (crc_header == NULL || !is_page_operation (data->operation))
      dyno_json_validate (text, len, &json_error);
    if (json_error != NULL)
      {
        attempt_failed (task, dyno_http_error_new_malformed (data->operation, status,
                                                             json_error->message,
                                                             request_id));
        return;
      }
  }

  dyno_retry_policy_release (self->policy, data->retry_cost);
  g_task_return_pointer (task, g_steal_pointer (&body), (GDestroyNotify) g_bytes_unref);
  g_object_unref (task);
}

/* Operations that may reach the server twice with the same effect as once: reads, and
 * BatchWriteItem (its puts and deletes are unconditional). */
static gboolean
operation_is_idempotent (const char *operation)
{
  static const char * const prefixes[] = {
    "Get", "BatchGet", "Query", "Scan", "Describe", "List", "TransactGet",
  };

  if (strcmp (operation, "BatchWriteItem") == 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (operation, prefixes[i]))
      return TRUE;
  return FALSE;
}

static void
send_attempt (GTask *task)
{
  DynoHttpBackend *self = g_task_get_source_object (task);
  CallData *data = g_task_get_task_data (task);
  g_autoptr(DynoCredentials) creds = NULL;
  g_autoptr(DynoSigv4Result) signature = NULL;
  g_autoptr(GPtrArray) sign_headers = NULL;
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *amz_date = NULL;
  g_autofree char *target = NULL;
  DynoHeader host = { (char *) "Host", self->host };
  DynoHeader content_type = { (char *) "Content-Type", (char *) CONTENT_TYPE };
  DynoHeader date = { (char *) "X-Amz-Date", NULL };
  DynoHeader target_header = { (char *) "X-Amz-Target", NULL };
  DynoHeader token = { (char *) "X-Amz-Security-Token", NULL };
  DynoSigv4Request request = { 0 };
  SoupMessageHeaders *headers;
  gsize len;

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  if (needs_refresh (self) && !data->refreshed)
    {
      data->refreshed = TRUE;
      refresh_then_send (task);
      return;
    }

  creds = dup_credentials (self);
  if (creds == NULL)
    {
      g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_CONFIG,
                               _("No AWS credentials: set AWS_ACCESS_KEY_ID and "
                                 "AWS_SECRET_ACCESS_KEY, or choose a profile."));
      g_object_unref (task);
      return;
    }

  data->attempt++;
  g_atomic_int_inc (&self->n_attempts);

  now = g_date_time_new_now_utc ();
  amz_date = g_date_time_format (now, "%Y%m%dT%H%M%SZ");
  target = g_strconcat (TARGET_PREFIX, data->operation, NULL);
  date.value = amz_date;
  target_header.value = target;

  sign_headers = g_ptr_array_new ();
  g_ptr_array_add (sign_headers, &host);
  g_ptr_array_add (sign_headers, &content_type);
  g_ptr_array_add (sign_headers, &date);
  g_ptr_array_add (sign_headers, &target_header);
  if (dyno_credentials_get_session_token (creds) != NULL)
    {
      token.value = (char *) dyno_credentials_get_session_token (creds);
      g_ptr_array_add (sign_headers, &token);
    }

  request.method = "POST";
  request.path = "/";
  request.query = NULL;
  request.headers = sign_headers;
  request.body = g_bytes_get_data (data->body, &len);
  request.body_len = len;
  signature = dyno_sigv4_sign (&request, creds, self->signing_region, SIGNING_NAME, amz_date);
  if (signature == NULL || signature->authorization == NULL)
    {
      g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_FAILED,
                               _("Could not sign the %s request."), data->operation);
      g_object_unref (task);
      return;
    }

  data->message = soup_message_new_from_uri ("POST", self->uri);
  headers = soup_message_get_request_headers (data->message);
  /* libsoup writes Host itself from the URI (host:port when not the default port), which is
   * what the endpoint resolver gave us to sign. */
  soup_message_headers_replace (headers, "X-Amz-Date", amz_date);
  soup_message_headers_replace (headers, "X-Amz-Target", target);
  if (token.value != NULL)
    soup_message_headers_replace (headers, "X-Amz-Security-Token", token.value);
  soup_message_headers_replace (headers, "Authorization", signature->authorization);
  soup_message_set_request_body_from_bytes (data->message, CONTENT_TYPE, data->body);
  /* libsoup sends a POST on a new connection of its own unless it is marked idempotent (and
   * then may send it again by itself when a kept-alive connection turns out closed): without
   * the flag every page of a scan or an import costs a new TCP (and TLS) connection.  Other
   * writes may be conditional: a second attempt must go through the retries above, which
   * count it (the CLI then checks whether the first one was applied). */
  if (operation_is_idempotent (data->operation))
    soup_message_add_flags (data->message, SOUP_MESSAGE_IDEMPOTENT);

  soup_session_send_and_read_async (self->session, data->message, G_PRIORITY_DEFAULT,
                                    g_task_get_cancellable (task), sent_cb, task);
}

static void
dyno_http_backend_call_async (DynoBackend         *backend,
                              const char          *operation,
                              GBytes              *body,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  DynoHttpBackend *self = DYNO_HTTP_BACKEND (backend);
  GTask *task;
  CallData *data;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_http_backend_call_async);
  g_task_set_name (task, operation);
  data = g_new0 (CallData, 1);
  data->operation = g_strdup (operation);
  data->body = g_bytes_ref (body);
  g_task_set_task_data (task, data, (GDestroyNotify) call_data_free);

  send_attempt (task);
}

static GBytes *
dyno_http_backend_call_finish (DynoBackend   *backend,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, backend), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static char *
dyno_http_backend_dup_description (DynoBackend *backend)
{
  DynoHttpBackend *self = DYNO_HTTP_BACKEND (backend);
  const char *host = g_uri_get_host (self->uri);

  if (dyno_endpoint_host_is_loopback (host))
    return g_strdup_printf (_("DynamoDB Local at %s"), self->endpoint_url);
  if (self->profile != NULL)
    return g_strdup_printf ("AWS %s (profile %s)", self->region, self->profile);
  if (self->config == NULL || self->config->endpoint_url == NULL)
    return g_strdup_printf ("AWS %s", self->region);

  return g_strdup_printf ("%s (%s)", self->endpoint_url, self->region);
}

static void
dyno_http_backend_iface_init (DynoBackendInterface *iface)
{
  iface->call_async = dyno_http_backend_call_async;
  iface->call_finish = dyno_http_backend_call_finish;
  iface->dup_description = dyno_http_backend_dup_description;
}

/* ---- object ------------------------------------------------------------------------------ */

static void
dyno_http_backend_finalize (GObject *object)
{
  DynoHttpBackend *self = DYNO_HTTP_BACKEND (object);

  g_clear_object (&self->session);
  g_clear_pointer (&self->uri, g_uri_unref);
  g_free (self->endpoint_url);
  g_free (self->host);
  g_free (self->region);
  g_free (self->signing_region);
  g_free (self->profile);
  g_clear_pointer (&self->config, dyno_resolved_config_free);
  g_clear_pointer (&self->credentials, dyno_credentials_unref);
  g_clear_pointer (&self->policy, dyno_retry_policy_unref);
  g_mutex_clear (&self->credentials_lock);

  G_OBJECT_CLASS (dyno_http_backend_parent_class)->finalize (object);
}

static void
dyno_http_backend_class_init (DynoHttpBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dyno_http_backend_finalize;
}

static void
dyno_http_backend_init (DynoHttpBackend *self)
{
  g_autofree char *user_agent = g_strdup_printf ("dynotable/%s", PACKAGE_VERSION);

  g_mutex_init (&self->credentials_lock);
  /* TLS verification is libsoup's default and we never turn it off.  No content decoder:
   * x-amz-crc32 is computed over the bytes as sent, and DynamoDB sends JSON uncompressed. */
  self->session = soup_session_new_with_options ("user-agent", user_agent,
                                                 "timeout", 60,
                                                 "idle-timeout", 60,
                                                 "max-conns-per-host", 16,
                                                 NULL);
  soup_session_remove_feature_by_type (self->session, SOUP_TYPE_CONTENT_DECODER);
  self->policy = dyno_retry_policy_new_from_env (NULL);
}

static gboolean
setup_endpoint (DynoHttpBackend  *self,
                const char       *endpoint_url,
                const char       *region,
                GError          **error)
{
  g_autoptr(DynoEndpoint) endpoint = NULL;
  g_autoptr(GError) local_error = NULL;

  if (region == NULL || region[0] == '\0')
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                           _("No region: set AWS_REGION, choose one, or give an endpoint URL."));
      return FALSE;
    }

  endpoint = dyno_endpoint_resolve (region, endpoint_url, DYNO_ENDPOINT_DEFAULT, error);
  if (endpoint == NULL)
    return FALSE;

  self->uri = g_uri_parse (endpoint->url, G_URI_FLAGS_NONE, &local_error);
  /* DynamoDB's path is always "/": an endpoint written without it must not send "POST ". */
  if (self->uri != NULL && g_uri_get_path (self->uri)[0] == '\0')
    {
      GUri *with_path = g_uri_build (G_URI_FLAGS_NONE, g_uri_get_scheme (self->uri), NULL,
                                     g_uri_get_host (self->uri), g_uri_get_port (self->uri),
                                     "/", NULL, NULL);

      g_uri_unref (self->uri);
      self->uri = with_path;
    }
  if (self->uri == NULL)
    {
      /* Translators: the URL, then the parser's message. */
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG, _("The endpoint URL %s is not valid: %s"),
                   endpoint->url, local_error->message);
      return FALSE;
    }

  self->endpoint_url = g_strdup (endpoint->url);
  self->host = g_strdup (endpoint->host);
  self->region = g_strdup (region);
  self->signing_region = g_strdup (endpoint->signing_region ? endpoint->signing_region
                                                            : region);
  return TRUE;
}


DynoHttpBackend *
dyno_http_backend_new (const DynoResolvedConfig  *config,
                       GError                   **error)
{
  g_autoptr(DynoHttpBackend) self = NULL;

  g_return_val_if_fail (config != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (config->credentials == NULL && config->credential_process == NULL)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                           _("No AWS credentials were found: set AWS_ACCESS_KEY_ID and "
                             "AWS_SECRET_ACCESS_KEY, or choose a profile that has them."));
      return NULL;
    }

  self = g_object_new (DYNO_TYPE_HTTP_BACKEND, NULL);
  if (!setup_endpoint (self, config->endpoint_url, config->region, error))
    return NULL;

  self->config = dyno_resolved_config_copy (config);
  self->profile = g_strdup (config->profile);
  self->credentials = config->credentials ? dyno_credentials_ref (config->credentials) : NULL;

  return g_steal_pointer (&self);
}

DynoHttpBackend *
dyno_http_backend_new_for_endpoint (const char       *endpoint_url,
                                    const char       *region,
                                    DynoCredentials  *credentials,
                                    GError          **error)
{
  g_autoptr(DynoHttpBackend) self = NULL;

  g_return_val_if_fail (credentials != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (DYNO_TYPE_HTTP_BACKEND, NULL);
  if (!setup_endpoint (self, endpoint_url, region, error))
    return NULL;

  self->credentials = dyno_credentials_ref (credentials);

  return g_steal_pointer (&self);
}

const char *
dyno_http_backend_get_endpoint_url (DynoHttpBackend *self)
{
  g_return_val_if_fail (DYNO_IS_HTTP_BACKEND (self), NULL);

  return self->endpoint_url;
}

const char *
dyno_http_backend_get_region (DynoHttpBackend *self)
{
  g_return_val_if_fail (DYNO_IS_HTTP_BACKEND (self), NULL);

  return self->region;
}

DynoRetryPolicy *
dyno_http_backend_get_retry_policy (DynoHttpBackend *self)
{
  g_return_val_if_fail (DYNO_IS_HTTP_BACKEND (self), NULL);

  return self->policy;
}

void
dyno_http_backend_set_retry_policy (DynoHttpBackend *self,
                                    DynoRetryPolicy *policy)
{
  g_return_if_fail (DYNO_IS_HTTP_BACKEND (self));
  g_return_if_fail (policy != NULL);

  dyno_retry_policy_ref (policy);
  g_clear_pointer (&self->policy, dyno_retry_policy_unref);
  self->policy = policy;
}

void
dyno_http_backend_set_timeout (DynoHttpBackend *self,
                               guint            seconds)
{
  g_return_if_fail (DYNO_IS_HTTP_BACKEND (self));

  soup_session_set_timeout (self->session, seconds);
}

guint
dyno_http_backend_get_n_attempts (DynoHttpBackend *self)
{
  g_return_val_if_fail (DYNO_IS_HTTP_BACKEND (self), 0);

  return g_atomic_int_get (&self->n_attempts);
}

guint
dyno_http_backend_get_n_retries (DynoHttpBackend *self)
{
  g_return_val_if_fail (DYNO_IS_HTTP_BACKEND (self), 0);

  return g_atomic_int_get (&self->n_retries);
}
