/* dyno-engine-backend.c: a DynoBackend that is the embedded engine, in process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-engine-backend.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-http-error.h"
#include "dyno-json.h"

struct _DynoEngineBackend
{
  GObject     parent_instance;

  GMutex      lock;     /* the engine answers one call at a time */
  DynoEngine *engine;
};

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

/* The engine's error as the service's: the body DynamoDB would send, read by the one place
 * that turns error bodies into GErrors. */
static GError *
service_error (const GError *error)
{
  DynoEngineErrorCode code = error->domain == DYNO_ENGINE_ERROR
                             ? (DynoEngineErrorCode) error->code : DYNO_ENGINE_ERROR_INTERNAL;
  g_autoptr(GString) body = g_string_new ("{\"__type\":");
  g_autoptr(GBytes) bytes = NULL;

  dyno_json_write_string (body, dyno_engine_error_wire_type (code), -1);
  g_string_append (body, ",\"message\":");
  dyno_json_write_string (body, error->message, -1);
  g_string_append_c (body, '}');
  bytes = g_bytes_new (body->str, body->len);
  return dyno_http_error_new (dyno_engine_error_http_status (code), NULL, bytes, NULL);
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
  char *response;

  if (g_task_return_error_if_cancelled (task))
    return;

  g_mutex_lock (&self->lock);
  response = dyno_engine_request (self->engine, call->operation, body != NULL ? body : "",
                                  (gssize) len, &error);
  g_mutex_unlock (&self->lock);

  if (response == NULL)
    g_task_return_error (task, service_error (error));
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

static void
dyno_engine_backend_finalize (GObject *object)
{
  DynoEngineBackend *self = DYNO_ENGINE_BACKEND (object);

  g_clear_object (&self->engine);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (dyno_engine_backend_parent_class)->finalize (object);
}

static void
dyno_engine_backend_class_init (DynoEngineBackendClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_engine_backend_finalize;
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
