/* dyno-connection-store.h: the saved connections
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-connection.h"

G_BEGIN_DECLS

/* The saved connections: a GListModel of DynoConnection, persisted as a key file
 * ($XDG_CONFIG_HOME/dynotable/connections.ini) without secrets. */
#define DYNO_TYPE_CONNECTION_STORE (dyno_connection_store_get_type ())
G_DECLARE_FINAL_TYPE (DynoConnectionStore, dyno_connection_store, DYNO, CONNECTION_STORE, GObject)

DynoConnectionStore *dyno_connection_store_new    (const char          *path);   /* NULL: default */
gboolean             dyno_connection_store_load   (DynoConnectionStore *self,
                                                   GError             **error);
gboolean             dyno_connection_store_save   (DynoConnectionStore *self,
                                                   GError             **error);
void                 dyno_connection_store_add    (DynoConnectionStore *self,
                                                   DynoConnection      *connection);
void                 dyno_connection_store_remove (DynoConnectionStore *self,
                                                   DynoConnection      *connection);
DynoConnection      *dyno_connection_store_lookup (DynoConnectionStore *self,
                                                   const char          *id);
gboolean             dyno_connection_store_has_playground (DynoConnectionStore *self);
/* Puts the default Playground first, unless there is one or the user removed it (which is
 * remembered by save()).  TRUE when it added one. */
gboolean             dyno_connection_store_ensure_playground (DynoConnectionStore *self);

/* The Playground on the workspace file @path, if one is saved (paths compared as files). */
DynoConnection      *dyno_connection_store_find_workspace (DynoConnectionStore *self,
                                                          const char          *path);

G_END_DECLS
