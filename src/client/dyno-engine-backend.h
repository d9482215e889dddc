/* dyno-engine-backend.h: a DynoBackend that is the embedded engine, in process
 *
 * The Playground: every call goes to a DynoEngine on a workspace file (or in memory), on a
 * worker thread, one call at a time, with no HTTP in between.  Errors are the same GErrors
 * the HTTP backend gives (dyno_error_get_service_info() has the `__type`), so the app and
 * the CLI show them the same way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-backend.h"
#include "dyno-engine.h"

G_BEGIN_DECLS

#define DYNO_TYPE_ENGINE_BACKEND (dyno_engine_backend_get_type ())
G_DECLARE_FINAL_TYPE (DynoEngineBackend, dyno_engine_backend, DYNO, ENGINE_BACKEND, GObject)

/* Opens (or creates) the workspace at @path; NULL: in memory. */
DynoEngineBackend *dyno_engine_backend_new      (const char        *path,
                                                 GError           **error);
const char        *dyno_engine_backend_get_path (DynoEngineBackend *self);

typedef enum {
  DYNO_ENGINE_SERVE_NONE   = 0,
  /* answer on the thread that runs the main context rather than on a worker thread: for a
   * process that does nothing else (`dynotable-cli serve`), one thread hop less per request */
  DYNO_ENGINE_SERVE_INLINE = 1 << 0,
} DynoEngineServeFlags;

/* Also answers DynamoDB's JSON protocol over HTTP on @host (an IP address, or "localhost")
 * and @port (0: a free port), on the thread-default main context, so the AWS CLI, the SDKs
 * and copied code reach the same tables; any signature and any key are accepted, as DynamoDB
 * Local does.  There is no authentication: callers keep @host a loopback address unless the
 * user said otherwise.  Serving again first stops the previous server.  The URL is the
 * "served-url" property. */
gboolean           dyno_engine_backend_serve              (DynoEngineBackend  *self,
                                                           const char         *host,
                                                           guint               port,
                                                           DynoEngineServeFlags flags,
                                                           GError            **error);
void               dyno_engine_backend_stop_serving       (DynoEngineBackend  *self);
const char        *dyno_engine_backend_get_served_url     (DynoEngineBackend  *self);

/* A consistent copy of the workspace (dyno_engine_export_to()) written to @path, on a worker
 * thread, between two calls: never a copy of the file while it is being written.  Errors are
 * the engine's (DYNO_ENGINE_ERROR). */
void               dyno_engine_backend_export_async       (DynoEngineBackend   *self,
                                                           const char          *path,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean           dyno_engine_backend_export_finish      (DynoEngineBackend   *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);

/* The pattern set saved in the workspace (a "dynotable-patterns" document), or NULL; setting
 * NULL removes it.  Quick (one row), so synchronous: they wait for a call in progress. */
char              *dyno_engine_backend_dup_patterns       (DynoEngineBackend   *self,
                                                           GError             **error);
gboolean           dyno_engine_backend_set_patterns       (DynoEngineBackend   *self,
                                                           const char          *json,
                                                           GError             **error);

G_END_DECLS
