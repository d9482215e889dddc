/* dyno-engine.h: an embedded DynamoDB, on a SQLite workspace or in memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "dyno-engine-error.h"

G_BEGIN_DECLS

#define DYNO_TYPE_ENGINE (dyno_engine_get_type ())
G_DECLARE_FINAL_TYPE (DynoEngine, dyno_engine, DYNO, ENGINE, GObject)

/* Opens (or creates) the workspace at @path, a SQLite database in WAL mode (see the README's
 * "The workspace file"), or an empty in-memory engine when @path is NULL.  Every request that
 * is answered without an error is committed: it survives the process being killed. */
DynoEngine *dyno_engine_new     (const char  *path,
                                 GError     **error);

/* One DynamoDB request: @operation is the X-Amz-Target suffix ("PutItem", "Query", …) and
 * @body the request JSON.  Returns the response JSON, or NULL with a DYNO_ENGINE_ERROR whose
 * code is DynamoDB's `__type` and whose message is DynamoDB's.  Not thread-safe: call it from
 * one thread. */
char       *dyno_engine_request (DynoEngine  *self,
                                 const char  *operation,
                                 const char  *body,
                                 gssize       len,
                                 GError     **error);

/* The workspace file, or NULL in memory. */
const char *dyno_engine_get_path (DynoEngine *self);

G_END_DECLS
