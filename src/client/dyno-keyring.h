/* dyno-keyring.h: connection secrets in the Secret Service (libsecret)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The schema name; items are keyed by the attribute "connection-id" (and "kind":
 * "secret-access-key" or "session-token"). */
#define DYNO_KEYRING_SCHEMA_NAME "com.dynotable.DynoTable.Credentials"

/* What the keyring holds for one connection.  Free with dyno_keyring_secret_free(), which
 * wipes the memory. */
typedef struct {
  char *secret_access_key;
  char *session_token;       /* NULL when none was stored */
} DynoKeyringSecret;

void               dyno_keyring_secret_free  (DynoKeyringSecret   *secret);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoKeyringSecret, dyno_keyring_secret_free)

/* Stores (or overwrites) the secret access key of @connection_id, and its session token
 * (NULL removes a stored one).  @label is what keyring managers show ("DynoTable: dev"). */
gboolean           dyno_keyring_store_sync   (const char          *connection_id,
                                              const char          *label,
                                              const char          *secret_access_key,
                                              const char          *session_token,
                                              GCancellable        *cancellable,
                                              GError             **error);
void               dyno_keyring_store_async  (const char          *connection_id,
                                              const char          *label,
                                              const char          *secret_access_key,
                                              const char          *session_token,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
gboolean           dyno_keyring_store_finish (GAsyncResult        *result,
                                              GError             **error);

/* NULL without an error when nothing is stored for @connection_id. */
DynoKeyringSecret *dyno_keyring_lookup_sync   (const char          *connection_id,
                                               GCancellable        *cancellable,
                                               GError             **error);
void               dyno_keyring_lookup_async  (const char          *connection_id,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
DynoKeyringSecret *dyno_keyring_lookup_finish (GAsyncResult        *result,
                                               GError             **error);

/* Deletes everything stored for @connection_id; TRUE also when there was nothing. */
gboolean           dyno_keyring_delete_sync   (const char          *connection_id,
                                               GCancellable        *cancellable,
                                               GError             **error);
void               dyno_keyring_delete_async  (const char          *connection_id,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
gboolean           dyno_keyring_delete_finish (GAsyncResult        *result,
                                               GError             **error);

G_END_DECLS
