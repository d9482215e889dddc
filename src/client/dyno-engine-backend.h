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

G_END_DECLS
