/* dyno-table-names.h: the tables of a backend, in the order a person browses them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-backend.h"

G_BEGIN_DECLS

/* Lists @backend's tables (ListTables, every page) and sorts the names with
 * dyno_table_names_sort().  The widgets list tables through this, with a GCancellable they
 * keep and cancel when they go away. */
void  dyno_table_names_list_async  (DynoBackend         *backend,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data);
/* A GStrv of names (empty when the backend has no tables), or NULL with @error. */
GStrv dyno_table_names_list_finish (DynoBackend         *backend,
                                    GAsyncResult        *result,
                                    GError             **error);

/* Sorts @names in place as a person reads a list: case-insensitive, numbers by value
 * (orders2 before orders10), where ListTables gives byte order (every uppercase name before
 * any lowercase one).  Names that collate alike ("Orders", "orders") keep byte order. */
void  dyno_table_names_sort        (GStrv                names);

G_END_DECLS
