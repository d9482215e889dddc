/* dyno-connection.h: a saved connection (non-secret settings) and the store that keeps them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-backend.h"
#include "dyno-credentials.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_CONNECTION_LOCAL,    /* DynamoDB Local: endpoint URL, dummy credentials */
  DYNO_CONNECTION_PROFILE,  /* an AWS profile from ~/.aws/config */
  DYNO_CONNECTION_REGION,   /* a region with the default credential chain */
  DYNO_CONNECTION_KEYS,     /* access keys; the secret lives in the keyring */
} DynoConnectionKind;

#define DYNO_TYPE_CONNECTION (dyno_connection_get_type ())
G_DECLARE_FINAL_TYPE (DynoConnection, dyno_connection, DYNO, CONNECTION, GObject)

DynoConnection     *dyno_connection_new               (DynoConnectionKind  kind);
const char         *dyno_connection_get_id            (DynoConnection     *self);
DynoConnectionKind  dyno_connection_get_kind          (DynoConnection     *self);
const char         *dyno_connection_get_name          (DynoConnection     *self);
void                dyno_connection_set_name          (DynoConnection     *self,
                                                       const char         *name);
const char         *dyno_connection_get_endpoint_url  (DynoConnection     *self);
void                dyno_connection_set_endpoint_url  (DynoConnection     *self,
                                                       const char         *url);
const char         *dyno_connection_get_region        (DynoConnection     *self);
void                dyno_connection_set_region        (DynoConnection     *self,
                                                       const char         *region);
const char         *dyno_connection_get_profile       (DynoConnection     *self);
void                dyno_connection_set_profile       (DynoConnection     *self,
                                                       const char         *profile);
const char         *dyno_connection_get_access_key_id (DynoConnection     *self);
void                dyno_connection_set_access_key_id (DynoConnection     *self,
                                                       const char         *access_key_id);
/* "DynamoDB Local · localhost:8000", "Profile dev · eu-west-1", … */
char               *dyno_connection_dup_subtitle      (DynoConnection     *self);
/* The settings handed to dyno_resolve_config (the secret is looked up in the keyring by the
 * backend when kind is KEYS, never kept here). */
DynoConnectionSettings *dyno_connection_dup_settings  (DynoConnection     *self);

/* Resolves credentials (keyring lookup for KEYS, the AWS chain otherwise) and builds an HTTP
 * backend, off the main thread. */
void                dyno_connection_open_async        (DynoConnection     *self,
                                                       GCancellable       *cancellable,
                                                       GAsyncReadyCallback callback,
                                                       gpointer            user_data);
DynoBackend        *dyno_connection_open_finish       (DynoConnection     *self,
                                                       GAsyncResult       *result,
                                                       GError            **error);

void dyno_connection_settings_free (DynoConnectionSettings *settings);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoConnectionSettings, dyno_connection_settings_free)

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

G_END_DECLS
