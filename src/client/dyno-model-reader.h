/* dyno-model-reader.h: every table of a connection, read into a NoSQL Workbench model
 *
 * What "Create Playground Tables Here…" copies to another connection: each table's description
 * (keys, indexes, billing) and all its items (consistent Scans, every page), as the model that
 * `dynotable-cli model export` writes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-backend.h"
#include "dyno-workbench-model.h"

G_BEGIN_DECLS

/* Lists the tables of @backend, describes and scans each, in name order. */
void                dyno_model_reader_read_async  (DynoBackend         *backend,
                                                   const char          *model_name,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
/* The model (free with dyno_workbench_model_free()), or NULL with @error. */
DynoWorkbenchModel *dyno_model_reader_read_finish (DynoBackend         *backend,
                                                   GAsyncResult        *result,
                                                   GError             **error);

G_END_DECLS
