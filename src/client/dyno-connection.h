/* dyno-connection.h: a saved connection (non-secret settings)
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
  DYNO_CONNECTION_PLAYGROUND, /* the embedded engine, on a workspace file: no server at all */
} DynoConnectionKind;

/* Which credentials a connection with an endpoint URL (DynamoDB Local) signs with.  It
 * matters: DynamoDB Local started without -sharedDb keeps one database per access key ID and
 * region, so a table made with the AWS CLI is only visible under the same key and region. */
typedef enum {
  DYNO_SIGN_AS_DEFAULT,  /* as the AWS CLI: environment keys, AWS_PROFILE, [default]; else
                          * DynoTable's own local key */
  DYNO_SIGN_AS_PROFILE,  /* the connection's profile */
  DYNO_SIGN_AS_KEY,      /* the connection's access key ID (DynamoDB Local ignores the secret) */
} DynoSignAs;

#define DYNO_TYPE_SIGN_AS (dyno_sign_as_get_type ())
GType dyno_sign_as_get_type (void) G_GNUC_CONST;

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
/* A Playground's workspace file; by default $XDG_DATA_HOME/dynotable/playground.sqlite. */
const char         *dyno_connection_get_workspace     (DynoConnection     *self);
void                dyno_connection_set_workspace     (DynoConnection     *self,
                                                       const char         *path);
/* The default Playground's workspace file. */
char               *dyno_connection_dup_default_workspace (void);

/* Workspaces made in the app: $XDG_DATA_HOME/dynotable/workspaces/NAME.dynotable (any file
 * can be opened as a workspace; .dynotable is the name DynoTable gives the ones it makes). */
#define DYNO_WORKSPACE_EXTENSION ".dynotable"
char               *dyno_connection_dup_workspaces_dir    (void);
/* NAME.dynotable in that folder, or NULL with a DYNO_ERROR_CONFIG for an empty name, one
 * with a "/" or one starting with a dot. */
char               *dyno_connection_dup_workspace_path_for_name (const char  *name,
                                                                 GError     **error);
/* A workspace's name: its file's name without the extension. */
char               *dyno_connection_dup_workspace_name    (const char         *path);
/* A Playground on @workspace, named after the file. */
DynoConnection     *dyno_connection_new_playground        (const char         *workspace);
const char         *dyno_connection_get_region        (DynoConnection     *self);
void                dyno_connection_set_region        (DynoConnection     *self,
                                                       const char         *region);
const char         *dyno_connection_get_profile       (DynoConnection     *self);
void                dyno_connection_set_profile       (DynoConnection     *self,
                                                       const char         *profile);
const char         *dyno_connection_get_access_key_id (DynoConnection     *self);
void                dyno_connection_set_access_key_id (DynoConnection     *self,
                                                       const char         *access_key_id);
/* DynamoDB Local connections: what they sign as.  New ones use the default credentials. */
DynoSignAs          dyno_connection_get_sign_as       (DynoConnection     *self);
void                dyno_connection_set_sign_as       (DynoConnection     *self,
                                                       DynoSignAs          sign_as);
/* After a successful open: the access key ID and region requests are signed with (never the
 * secret), and where the key came from ("environment", "profile dev (~/.aws/credentials)", …);
 * NULL before, and again once a setting changes. */
const char         *dyno_connection_get_signed_key_id (DynoConnection     *self);
const char         *dyno_connection_get_signed_region (DynoConnection     *self);
const char         *dyno_connection_get_signed_source (DynoConnection     *self);
/* The environment credentials and regions are resolved in (AWS_*, HOME): NULL for the
 * process's own.  Not saved: for connections made from a command line. */
void                dyno_connection_set_environ       (DynoConnection     *self,
                                                       char              **env);
/* TRUE for a connection to this computer (DynamoDB Local): a loopback endpoint URL. */
gboolean            dyno_connection_is_local          (DynoConnection     *self);
/* "localhost:8000 · AKIDEXAMPLE · us-east-1", "Profile dev · eu-west-1", … */
char               *dyno_connection_dup_subtitle      (DynoConnection     *self);
/* The profile of a connection that signs in through IAM Identity Center (a profile
 * connection, or DynamoDB Local signing as a profile), or NULL. */
const char         *dyno_connection_get_sso_profile   (DynoConnection     *self);
/* The settings handed to dyno_resolve_config (the secret is looked up in the keyring by the
 * backend when kind is KEYS, never kept here). */
DynoConnectionSettings *dyno_connection_dup_settings  (DynoConnection     *self);

/* Resolves credentials (keyring lookup for KEYS, the AWS chain otherwise, as
 * dyno_resolve_config() does for dynotable-cli) and builds an HTTP backend, off the main
 * thread.  On success the signed-* fields say what the backend signs as ("notify::signed-as"). */
void                dyno_connection_open_async        (DynoConnection     *self,
                                                       GCancellable       *cancellable,
                                                       GAsyncReadyCallback callback,
                                                       gpointer            user_data);
DynoBackend        *dyno_connection_open_finish       (DynoConnection     *self,
                                                       GAsyncResult       *result,
                                                       GError            **error);

void dyno_connection_settings_free (DynoConnectionSettings *settings);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoConnectionSettings, dyno_connection_settings_free)

G_END_DECLS
