/* dyno-model-reader.h: every table of a connection, read into a NoSQL Workbench model
 *
 * What "Create Playground Tables Here…" copies to another connection and what
 * `dynotable-cli model export` writes: each table's description (keys, indexes, billing) and
 * all its items (consistent Scans, every page).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-backend.h"
#include "dyno-workbench-model.h"

G_BEGIN_DECLS

/* Describes and scans each of @tables (NULL-terminated; a name given twice is read once) in
 * their order, or, for NULL, every table of @backend in name order. */
void                dyno_model_reader_read_async  (DynoBackend         *backend,
                                                   const char          *model_name,
                                                   const char * const  *tables,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
/* The model (free with dyno_workbench_model_free()), or NULL with @error. */
DynoWorkbenchModel *dyno_model_reader_read_finish (DynoBackend         *backend,
                                                   GAsyncResult        *result,
                                                   GError             **error);

G_END_DECLS
