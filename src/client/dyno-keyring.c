/* dyno-keyring.c: connection secrets in the Secret Service (libsecret)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-keyring.h"

#include <glib/gi18n-lib.h>
#include <libsecret/secret.h>
#include <string.h>

#include "dyno-error.h"

#define KIND_SECRET_KEY "secret-access-key"
#define KIND_SESSION_TOKEN "session-token"

static const SecretSchema *
get_schema (void)
{
  static const SecretSchema schema = {
    DYNO_KEYRING_SCHEMA_NAME, SECRET_SCHEMA_NONE,
    {
      { "connection-id", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    },
    0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  };

  return &schema;
}

void
dyno_keyring_secret_free (DynoKeyringSecret *secret)
{
  if (secret == NULL)
    return;
  if (secret->secret_access_key != NULL)
    explicit_bzero (secret->secret_access_key, strlen (secret->secret_access_key));
  g_free (secret->secret_access_key);
  if (secret->session_token != NULL)
    explicit_bzero (secret->session_token, strlen (secret->session_token));
  g_free (secret->session_token);
  g_free (secret);
}

/* The message names the action and the connection, never the secret. */
static gboolean
keyring_error (GError     **error,
               GError      *cause,
               const char  *action,
               const char  *connection_id)
{
  if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, cause);
  else
    {
      /* One whole sentence per action, so that translations can conjugate the verb. */
      const char *format;

      if (g_strcmp0 (action, "store") == 0)
        /* Translators: the connection's ID, then the keyring's error message. */
        format = _("Could not store the secret of connection “%s” in the keyring: %s");
      else if (g_strcmp0 (action, "read") == 0)
        /* Translators: the connection's ID, then the keyring's error message. */
        format = _("Could not read the secret of connection “%s” in the keyring: %s");
      else
        /* Translators: the connection's ID, then the keyring's error message. */
        format = _("Could not delete the secret of connection “%s” in the keyring: %s");
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_FAILED, format, connection_id, cause->message);
      g_error_free (cause);
    }
  return FALSE;
}

gboolean
dyno_keyring_store_sync (const char    *connection_id,
                         const char    *label,
                         const char    *secret_access_key,
                         const char    *session_token,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autofree char *token_label = NULL;
  GError *local_error = NULL;

  g_return_val_if_fail (connection_id != NULL && *connection_id != '\0', FALSE);
  g_return_val_if_fail (secret_access_key != NULL && *secret_access_key != '\0', FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (label == NULL)
    label = "DynoTable";
  if (!secret_password_store_sync (get_schema (), SECRET_COLLECTION_DEFAULT, label,
                                   secret_access_key, cancellable, &local_error,
                                   "connection-id", connection_id,
                                   "kind", KIND_SECRET_KEY,
                                   NULL))
    return keyring_error (error, local_error, "store", connection_id);

  if (session_token != NULL && *session_token != '\0')
    {
      token_label = g_strdup_printf (_("%s (session token)"), label);
      if (!secret_password_store_sync (get_schema (), SECRET_COLLECTION_DEFAULT, token_label,
                                       session_token, cancellable, &local_error,
                                       "connection-id", connection_id,
                                       "kind", KIND_SESSION_TOKEN,
                                       NULL))
        return keyring_error (error, local_error, "store", connection_id);
    }
  else
    {
      /* An older token must not outlive the key it went with. */
      secret_password_clear_sync (get_schema (), cancellable, &local_error,
                                  "connection-id", connection_id,
                                  "kind", KIND_SESSION_TOKEN,
                                  NULL);
      if (local_error != NULL)
        return keyring_error (error, local_error, "store", connection_id);
    }
  return TRUE;
}

DynoKeyringSecret *
dyno_keyring_lookup_sync (const char    *connection_id,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_autoptr(DynoKeyringSecret) secret = NULL;
  GError *local_error = NULL;
  char *key;
  char *token;

  g_return_val_if_fail (connection_id != NULL && *connection_id != '\0', NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  key = secret_password_lookup_sync (get_schema (), cancellable, &local_error,
                                     "connection-id", connection_id,
                                     "kind", KIND_SECRET_KEY,
                                     NULL);
  if (local_error != NULL)
    {
      keyring_error (error, local_error, "read", connection_id);
      return NULL;
    }
  if (key == NULL)
    return NULL;

  secret = g_new0 (DynoKeyringSecret, 1);
  secret->secret_access_key = g_strdup (key);
  secret_password_free (key);

  token = secret_password_lookup_sync (get_schema (), cancellable, &local_error,
                                       "connection-id", connection_id,
                                       "kind", KIND_SESSION_TOKEN,
                                       NULL);
  if (local_error != NULL)
    {
      keyring_error (error, local_error, "read", connection_id);
      return NULL;
    }
  if (token != NULL)
    {
      secret->session_token = g_strdup (token);
      secret_password_free (token);
    }
  return g_steal_pointer (&secret);
}

gboolean
dyno_keyring_delete_sync (const char    *connection_id,
                          GCancellable  *cancellable,
                          GError       **error)
{
  GError *local_error = NULL;

  g_return_val_if_fail (connection_id != NULL && *connection_id != '\0', FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  secret_password_clear_sync (get_schema (), cancellable, &local_error,
                              "connection-id", connection_id,
                              NULL);
  if (local_error != NULL)
    return keyring_error (error, local_error, "delete", connection_id);
  return TRUE;
}

/* ------------------------------------------------------------------------------------------ */
/* Async: the sync calls in a worker thread (libsecret's sync API runs its own main context,
 * so it is safe there), which keeps the two-item logic in one place. */

typedef struct {
  char *connection_id;
  char *label;
  char *secret_access_key;
  char *session_token;
} KeyringData;

static void
keyring_data_free (gpointer data)
{
  KeyringData *kd = data;

  g_free (kd->connection_id);
  g_free (kd->label);
  if (kd->secret_access_key != NULL)
    explicit_bzero (kd->secret_access_key, strlen (kd->secret_access_key));
  g_free (kd->secret_access_key);
  if (kd->session_token != NULL)
    explicit_bzero (kd->session_token, strlen (kd->session_token));
  g_free (kd->session_token);
  g_free (kd);
}

static GTask *
keyring_task_new (gpointer             source_tag,
                  const char          *connection_id,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  KeyringData *kd = g_new0 (KeyringData, 1);

  g_task_set_source_tag (task, source_tag);
  kd->connection_id = g_strdup (connection_id);
  g_task_set_task_data (task, kd, keyring_data_free);
  return task;
}

static void
store_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  KeyringData *kd = task_data;
  GError *error = NULL;

  if (dyno_keyring_store_sync (kd->connection_id, kd->label, kd->secret_access_key,
                               kd->session_token, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
dyno_keyring_store_async (const char          *connection_id,
                          const char          *label,
                          const char          *secret_access_key,
                          const char          *session_token,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  KeyringData *kd;

  g_return_if_fail (connection_id != NULL && *connection_id != '\0');
  g_return_if_fail (secret_access_key != NULL && *secret_access_key != '\0');

  task = keyring_task_new (dyno_keyring_store_async, connection_id, cancellable, callback,
                           user_data);
  kd = g_task_get_task_data (task);
  kd->label = g_strdup (label);
  kd->secret_access_key = g_strdup (secret_access_key);
  kd->session_token = g_strdup (session_token);
  g_task_run_in_thread (task, store_thread);
}

gboolean
dyno_keyring_store_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyno_keyring_store_async,
                        FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
lookup_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  KeyringData *kd = task_data;
  GError *error = NULL;
  DynoKeyringSecret *secret;

  secret = dyno_keyring_lookup_sync (kd->connection_id, cancellable, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, secret, (GDestroyNotify) dyno_keyring_secret_free);
}

void
dyno_keyring_lookup_async (const char          *connection_id,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (connection_id != NULL && *connection_id != '\0');

  task = keyring_task_new (dyno_keyring_lookup_async, connection_id, cancellable, callback,
                           user_data);
  g_task_run_in_thread (task, lookup_thread);
}

DynoKeyringSecret *
dyno_keyring_lookup_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyno_keyring_lookup_async,
                        NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
delete_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  KeyringData *kd = task_data;
  GError *error = NULL;

  if (dyno_keyring_delete_sync (kd->connection_id, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
dyno_keyring_delete_async (const char          *connection_id,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (connection_id != NULL && *connection_id != '\0');

  task = keyring_task_new (dyno_keyring_delete_async, connection_id, cancellable, callback,
                           user_data);
  g_task_run_in_thread (task, delete_thread);
}

gboolean
dyno_keyring_delete_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyno_keyring_delete_async,
                        FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
