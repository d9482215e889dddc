/* dyno-engine-backend.c: a DynoBackend that is the embedded engine, in process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-engine-backend.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include <libsoup/soup.h>

#include "dyno-http-backend.h"
#include "dyno-http-error.h"

#define TARGET_PREFIX "DynamoDB_20120810."
#define CONTENT_TYPE  "application/x-amz-json-1.0"

struct _DynoEngineBackend
{
  GObject     parent_instance;

  GMutex      lock;     /* the engine answers one call at a time */
  DynoEngine *engine;

  /* dyno_engine_backend_serve(): DynamoDB's protocol over HTTP, on the main context */
  SoupServer *server;
  char       *served_url;
  DynoEngineServeFlags serve_flags;
};

enum {
  PROP_0,
  PROP_SERVED_URL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void dyno_engine_backend_iface_init (DynoBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynoEngineBackend, dyno_engine_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (DYNO_TYPE_BACKEND,
                                                      dyno_engine_backend_iface_init))

typedef struct {
  char   *operation;
  GBytes *body;
} Call;

static void
call_free (Call *call)
{
  g_free (call->operation);
  g_bytes_unref (call->body);
  g_free (call);
}

/* The body and status DynamoDB would answer @error with: @engine_body (taken) when the
 * engine gave one (it carries what some errors add: CancellationReasons, Item). */
static GBytes *
error_body (const GError *error,
            char         *engine_body,
            guint        *status)
{
  DynoEngineErrorCode code = error->domain == DYNO_ENGINE_ERROR
                             ? (DynoEngineErrorCode) error->code : DYNO_ENGINE_ERROR_INTERNAL;

  *status = dyno_engine_error_http_status (code);
  if (engine_body == NULL)
    engine_body = dyno_engine_error_body (error);
  return g_bytes_new_take (engine_body, strlen (engine_body));
}

/* The engine's error as the service's: the body DynamoDB would send, read by the one place
 * that turns error bodies into GErrors. */
static GError *
service_error (const GError *error,
               char         *engine_body)
{
  guint status;
  g_autoptr(GBytes) bytes = error_body (error, engine_body, &status);

  return dyno_http_error_new (status, NULL, bytes, NULL);
}

static void
call_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  DynoEngineBackend *self = source;
  Call *call = task_data;
  g_autoptr(GError) error = NULL;
  gsize len;
  const char *body = g_bytes_get_data (call->body, &len);
  char *engine_body = NULL;
  char *response;

  if (g_task_return_error_if_cancelled (task))
    return;

  g_mutex_lock (&self->lock);
  response = dyno_engine_request_full (self->engine, call->operation, body != NULL ? body : "",
                                       (gssize) len, &engine_body, &error);
  g_mutex_unlock (&self->lock);

  if (response == NULL)
    g_task_return_error (task, service_error (error, engine_body));
  else
    g_task_return_pointer (task, g_bytes_new_take (response, strlen (response)),
                           (GDestroyNotify) g_bytes_unref);
}

static void
dyno_engine_backend_call_async (DynoBackend         *backend,
                                const char          *operation,
                                GBytes              *body,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (backend, cancellable, callback, user_data);
  Call *call = g_new0 (Call, 1);

  g_task_set_source_tag (task, dyno_engine_backend_call_async);
  call->operation = g_strdup (operation);
  call->body = g_bytes_ref (body);
  g_task_set_task_data (task, call, (GDestroyNotify) call_free);
  g_task_run_in_thread (task, call_thread);
}

static GBytes *
dyno_engine_backend_call_finish (DynoBackend   *backend,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static char *
dyno_engine_backend_dup_description (DynoBackend *backend)
{
  DynoEngineBackend *self = DYNO_ENGINE_BACKEND (backend);
  const char *path = dyno_engine_get_path (self->engine);

  if (path == NULL)
    return g_strdup (_("Playground (in memory)"));
  /* Translators: the workspace file of the embedded engine. */
  return g_strdup_printf (_("Playground at %s"), path);
}

static void
dyno_engine_backend_iface_init (DynoBackendInterface *iface)
{
  iface->call_async = dyno_engine_backend_call_async;
  iface->call_finish = dyno_engine_backend_call_finish;
  iface->dup_description = dyno_engine_backend_dup_description;
}

/* ---- the workspace as a whole ------------------------------------------------------------ */

static void
export_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  DynoEngineBackend *self = source;
  g_autoptr(GError) error = NULL;
  gboolean done;

  if (g_task_return_error_if_cancelled (task))
    return;

  g_mutex_lock (&self->lock);
  done = dyno_engine_export_to (self->engine, task_data, &error);
  g_mutex_unlock (&self->lock);

  if (done)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

void
dyno_engine_backend_export_async (DynoEngineBackend   *self,
                                  const char          *path,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (DYNO_IS_ENGINE_BACKEND (self));
  g_return_if_fail (path != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_engine_backend_export_async);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, export_thread);
}

gboolean
dyno_engine_backend_export_finish (DynoEngineBackend  *self,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

char *
dyno_engine_backend_dup_patterns (DynoEngineBackend  *self,
                                  GError            **error)
{
  char *json;

  g_return_val_if_fail (DYNO_IS_ENGINE_BACKEND (self), NULL);

  g_mutex_lock (&self->lock);
  json = dyno_engine_dup_patterns (self->engine, NULL, error);
  g_mutex_unlock (&self->lock);
  return json;
}

gboolean
dyno_engine_backend_set_patterns (DynoEngineBackend  *self,
                                  const char         *json,
                                  GError            **error)
{
  gboolean done;

  g_return_val_if_fail (DYNO_IS_ENGINE_BACKEND (self), FALSE);

  g_mutex_lock (&self->lock);
  done = dyno_engine_set_patterns (self->engine, NULL, json, error);
  g_mutex_unlock (&self->lock);
  return done;
}

/* ---- serving: DynamoDB's JSON protocol over HTTP ------------------------------------------ */

typedef struct {
  SoupServer        *server;   /* unowned: compared, to drop answers of a stopped server */
  SoupServerMessage *msg;
  char              *operation;
  GBytes            *body;
  GBytes            *response;
  guint              status;
} Served;

static void
served_free (Served *served)
{
  g_object_unref (served->msg);
  g_free (served->operation);
  g_bytes_unref (served->body);
  g_clear_pointer (&served->response, g_bytes_unref);
  g_free (served);
}

static void
respond (SoupServerMessage *msg,
         guint              status,
         GBytes            *body)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  gsize len;
  const guint8 *data = g_bytes_get_data (body, &len);
  g_autofree char *id = g_uuid_string_random ();
  char crc[16];

  g_snprintf (crc, sizeof crc, "%u", dyno_crc32 (data, len));
  soup_message_headers_replace (headers, "x-amz-crc32", crc);
  soup_message_headers_replace (headers, "x-amzn-RequestId", id);
  soup_server_message_set_status (msg, status, NULL);
  /* soup_server_message_set_response() without its copy: the body holds @body */
  soup_message_headers_replace (headers, "Content-Type", CONTENT_TYPE);
  soup_message_body_truncate (soup_server_message_get_response_body (msg));
  soup_message_body_append_bytes (soup_server_message_get_response_body (msg), body);
}

/* The engine's answer to @served, in @served. */
static void
answer (DynoEngineBackend *self,
        Served            *served)
{
  g_autoptr(GError) error = NULL;
  gsize len;
  const char *body = g_bytes_get_data (served->body, &len);
  char *engine_body = NULL;
  char *response;

  g_mutex_lock (&self->lock);
  response = dyno_engine_request_full (self->engine, served->operation, len ? body : "{}",
                                       len ? (gssize) len : 2, &engine_body, &error);
  g_mutex_unlock (&self->lock);

  if (response == NULL)
    served->response = error_body (error, engine_body, &served->status);
  else
    {
      served->response = g_bytes_new_take (response, strlen (response));
      served->status = SOUP_STATUS_OK;
    }
}

static void
serve_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  answer (source, task_data);
  g_task_return_boolean (task, TRUE);
}

static void
serve_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  DynoEngineBackend *self = DYNO_ENGINE_BACKEND (source);
  Served *served = g_task_get_task_data (G_TASK (result));

  if (self->server != served->server)
    return;  /* stopped meanwhile: the connection is gone */
  respond (served->msg, served->status, served->response);
  soup_server_message_unpause (served->msg);
}

/* libsoup 3.2 (Debian 12's) never closes a kept-alive connection that the client closed
 * while it waited for the next request (fixed in 3.3.0): every client that opens a
 * connection per request (the AWS CLI run once per command, a script's plain HTTP client)
 * left a socket in CLOSE_WAIT, and after some 20,000 of them the server had no file
 * descriptor left to accept with.  So after each answer the connection's socket is watched:
 * when it becomes readable and what it holds is the end of the stream, the client is gone and
 * the socket is closed here (libsoup, were it to look, would find it closed).  When a request
 * comes instead, libsoup reads it and the watch ends. */
static gboolean
idle_socket_cb (GSocket      *socket,
                GIOCondition  condition,
                gpointer      user_data)
{
  char byte;
  GInputVector vector = { &byte, 1 };
  int flags = G_SOCKET_MSG_PEEK;
  gssize got;

  if (g_socket_is_closed (socket))
    return G_SOURCE_REMOVE;
  got = g_socket_receive_message (socket, NULL, &vector, 1, NULL, NULL, &flags, NULL, NULL);
  if (got == 0 || (condition & (G_IO_HUP | G_IO_ERR)) != 0)
    g_socket_close (socket, NULL);
  return G_SOURCE_REMOVE;
}

static void
request_finished_cb (SoupServer        *server,
                     SoupServerMessage *msg)
{
  GSocket *socket = soup_server_message_get_socket (msg);
  g_autoptr(GSource) source = NULL;

  if (socket == NULL || g_socket_is_closed (socket))
    return;
  source = g_socket_create_source (socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
  g_source_set_callback (source, G_SOURCE_FUNC (idle_socket_cb), NULL, NULL);
  g_source_attach (source, g_main_context_get_thread_default ());
}

static void
handle_request (SoupServer        *server,
                SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  DynoEngineBackend *self = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *target = soup_message_headers_get_one (headers, "X-Amz-Target");
  g_autoptr(GTask) task = NULL;
  Served *served;

  if (target == NULL || !g_str_has_prefix (target, TARGET_PREFIX)
      || strcmp (soup_server_message_get_method (msg), "POST") != 0)
    {
      g_autoptr(GError) error = g_error_new (DYNO_ENGINE_ERROR,
                                             DYNO_ENGINE_ERROR_UNKNOWN_OPERATION,
                                             "An unknown operation was requested");
      guint status;
      g_autoptr(GBytes) body = error_body (error, NULL, &status);

      respond (msg, status, body);
      return;
    }

  served = g_new0 (Served, 1);
  served->server = server;
  served->msg = g_object_ref (msg);
  served->operation = g_strdup (target + strlen (TARGET_PREFIX));
  served->body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  if (self->serve_flags & DYNO_ENGINE_SERVE_INLINE)
    {
      answer (self, served);
      respond (msg, served->status, served->response);
      served_free (served);
      return;
    }

  /* the engine runs on a worker thread, as for the app's own calls: the server's main
   * context (the app's) stays free */
  task = g_task_new (self, NULL, serve_done, NULL);
  g_task_set_source_tag (task, handle_request);
  g_task_set_task_data (task, served, (GDestroyNotify) served_free);
  soup_server_message_pause (msg);
  g_task_run_in_thread (task, serve_thread);
}

gboolean
dyno_engine_backend_serve (DynoEngineBackend     *self,
                           const char            *host,
                           guint                  port,
                           DynoEngineServeFlags   flags,
                           GError               **error)
{
  g_autoptr(GInetAddress) address = NULL;
  g_autoptr(GSocketAddress) socket_address = NULL;
  g_autoptr(SoupServer) server = NULL;
  g_autofree char *address_text = NULL;
  GSList *listeners;

  g_return_val_if_fail (DYNO_IS_ENGINE_BACKEND (self), FALSE);
  g_return_val_if_fail (host != NULL, FALSE);
  g_return_val_if_fail (port <= 65535, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (strcmp (host, "localhost") == 0)
    host = "127.0.0.1";
  address = g_inet_address_new_from_string (host);
  if (address == NULL)
    {
      /* Translators: what the user gave as the address to serve on. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not an IP address such as 127.0.0.1 or ::1"), host);
      return FALSE;
    }

  dyno_engine_backend_stop_serving (self);
  server = soup_server_new ("server-header", NULL, NULL);
  soup_server_add_handler (server, NULL, handle_request, self, NULL);
  g_signal_connect (server, "request-finished", G_CALLBACK (request_finished_cb), NULL);
  socket_address = g_inet_socket_address_new (address, (guint16) port);
  if (!soup_server_listen (server, socket_address, 0, error))
    return FALSE;

  /* the port the system gave (port 0); not soup_server_get_uris(), which leaks in 3.2 */
  listeners = soup_server_get_listeners (server);
  if (listeners != NULL)
    {
      g_autoptr(GSocketAddress) local = g_socket_get_local_address (listeners->data, NULL);

      if (local != NULL)
        port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local));
    }
  g_slist_free (listeners);

  address_text = g_inet_address_to_string (address);
  self->serve_flags = flags;
  self->server = g_steal_pointer (&server);
  if (g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV6)
    self->served_url = g_strdup_printf ("http://[%s]:%u", address_text, port);
  else
    self->served_url = g_strdup_printf ("http://%s:%u", address_text, port);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SERVED_URL]);
  return TRUE;
}

void
dyno_engine_backend_stop_serving (DynoEngineBackend *self)
{
  g_return_if_fail (DYNO_IS_ENGINE_BACKEND (self));

  if (self->server == NULL)
    return;
  soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  g_clear_pointer (&self->served_url, g_free);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SERVED_URL]);
}

const char *
dyno_engine_backend_get_served_url (DynoEngineBackend *self)
{
  g_return_val_if_fail (DYNO_IS_ENGINE_BACKEND (self), NULL);

  return self->served_url;
}

static void
dyno_engine_backend_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  DynoEngineBackend *self = DYNO_ENGINE_BACKEND (object);

  switch (prop_id)
    {
    case PROP_SERVED_URL:
      g_value_set_string (value, self->served_url);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_engine_backend_finalize (GObject *object)
{
  DynoEngineBackend *self = DYNO_ENGINE_BACKEND (object);

  if (self->server != NULL)
    soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  g_clear_pointer (&self->served_url, g_free);
  g_clear_object (&self->engine);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (dyno_engine_backend_parent_class)->finalize (object);
}

static void
dyno_engine_backend_class_init (DynoEngineBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dyno_engine_backend_finalize;
  object_class->get_property = dyno_engine_backend_get_property;

  /**
   * DynoEngineBackend:served-url:
   *
   * Where dyno_engine_backend_serve() answers ("http://127.0.0.1:8001"), or %NULL.
   */
  properties[PROP_SERVED_URL] =
    g_param_spec_string ("served-url", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyno_engine_backend_init (DynoEngineBackend *self)
{
  g_mutex_init (&self->lock);
}

DynoEngineBackend *
dyno_engine_backend_new (const char  *path,
                         GError     **error)
{
  g_autoptr(DynoEngine) engine = dyno_engine_new (path, error);
  DynoEngineBackend *self;

  if (engine == NULL)
    return NULL;
  self = g_object_new (DYNO_TYPE_ENGINE_BACKEND, NULL);
  self->engine = g_steal_pointer (&engine);
  return self;
}

const char *
dyno_engine_backend_get_path (DynoEngineBackend *self)
{
  g_return_val_if_fail (DYNO_IS_ENGINE_BACKEND (self), NULL);

  return dyno_engine_get_path (self->engine);
}
