/* dyno-connection.c: saved connections and the store that keeps them (no secrets here)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-connection.h"
#include "dyno-error.h"
#include "dyno-http-backend.h"
#include "dyno-keyring.h"

struct _DynoConnection
{
  GObject             parent_instance;

  char               *id;
  DynoConnectionKind  kind;
  char               *name;
  char               *endpoint_url;
  char               *region;
  char               *profile;
  char               *access_key_id;
};

G_DEFINE_FINAL_TYPE (DynoConnection, dyno_connection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_ENDPOINT_URL,
  PROP_REGION,
  PROP_PROFILE,
  PROP_ACCESS_KEY_ID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* DynamoDB Local accepts any credentials (with -sharedDb it ignores them); these make that
 * visible in its logs instead of borrowing a real key.  Since version 2 it answers
 * UnrecognizedClientException to an access key ID with anything but letters and digits. */
#define LOCAL_ACCESS_KEY_ID     "dynotablelocal"
#define LOCAL_SECRET_ACCESS_KEY "dynotablelocal"
#define LOCAL_DEFAULT_REGION    "us-east-1"

static gboolean
set_string (char       **field,
            const char  *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;

  g_free (*field);
  *field = (value != NULL && *value != '\0') ? g_strdup (value) : NULL;
  return TRUE;
}

static void
dyno_connection_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  DynoConnection *self = DYNO_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, dyno_connection_get_name (self));
      break;
    case PROP_ENDPOINT_URL:
      g_value_set_string (value, self->endpoint_url);
      break;
    case PROP_REGION:
      g_value_set_string (value, self->region);
      break;
    case PROP_PROFILE:
      g_value_set_string (value, self->profile);
      break;
    case PROP_ACCESS_KEY_ID:
      g_value_set_string (value, self->access_key_id);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_connection_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  DynoConnection *self = DYNO_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_NAME:
      dyno_connection_set_name (self, g_value_get_string (value));
      break;
    case PROP_ENDPOINT_URL:
      dyno_connection_set_endpoint_url (self, g_value_get_string (value));
      break;
    case PROP_REGION:
      dyno_connection_set_region (self, g_value_get_string (value));
      break;
    case PROP_PROFILE:
      dyno_connection_set_profile (self, g_value_get_string (value));
      break;
    case PROP_ACCESS_KEY_ID:
      dyno_connection_set_access_key_id (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_connection_finalize (GObject *object)
{
  DynoConnection *self = DYNO_CONNECTION (object);

  g_free (self->id);
  g_free (self->name);
  g_free (self->endpoint_url);
  g_free (self->region);
  g_free (self->profile);
  g_free (self->access_key_id);

  G_OBJECT_CLASS (dyno_connection_parent_class)->finalize (object);
}

static void
dyno_connection_class_init (DynoConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = dyno_connection_get_property;
  object_class->set_property = dyno_connection_set_property;
  object_class->finalize = dyno_connection_finalize;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ENDPOINT_URL] =
    g_param_spec_string ("endpoint-url", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REGION] =
    g_param_spec_string ("region", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROFILE] =
    g_param_spec_string ("profile", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ACCESS_KEY_ID] =
    g_param_spec_string ("access-key-id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyno_connection_init (DynoConnection *self)
{
  self->id = g_uuid_string_random ();
}

DynoConnection *
dyno_connection_new (DynoConnectionKind kind)
{
  DynoConnection *self = g_object_new (DYNO_TYPE_CONNECTION, NULL);

  self->kind = kind;
  if (kind == DYNO_CONNECTION_LOCAL)
    self->endpoint_url = g_strdup ("http://localhost:8000");

  return self;
}

const char *
dyno_connection_get_id (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);
  return self->id;
}

DynoConnectionKind
dyno_connection_get_kind (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), DYNO_CONNECTION_LOCAL);
  return self->kind;
}

const char *
dyno_connection_get_name (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);

  if (self->name != NULL)
    return self->name;

  switch (self->kind)
    {
    case DYNO_CONNECTION_LOCAL:
      return _("DynamoDB Local");
    case DYNO_CONNECTION_PROFILE:
      return self->profile ? self->profile : _("AWS profile");
    case DYNO_CONNECTION_REGION:
      return self->region ? self->region : _("AWS");
    case DYNO_CONNECTION_KEYS:
    default:
      return self->access_key_id ? self->access_key_id : _("Access keys");
    }
}

void
dyno_connection_set_name (DynoConnection *self,
                          const char     *name)
{
  g_return_if_fail (DYNO_IS_CONNECTION (self));

  if (set_string (&self->name, name))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

const char *
dyno_connection_get_endpoint_url (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);
  return self->endpoint_url;
}

void
dyno_connection_set_endpoint_url (DynoConnection *self,
                                  const char     *url)
{
  g_return_if_fail (DYNO_IS_CONNECTION (self));

  if (set_string (&self->endpoint_url, url))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENDPOINT_URL]);
}

const char *
dyno_connection_get_region (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);
  return self->region;
}

void
dyno_connection_set_region (DynoConnection *self,
                            const char     *region)
{
  g_return_if_fail (DYNO_IS_CONNECTION (self));

  if (set_string (&self->region, region))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REGION]);
}

const char *
dyno_connection_get_profile (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);
  return self->profile;
}

void
dyno_connection_set_profile (DynoConnection *self,
                             const char     *profile)
{
  g_return_if_fail (DYNO_IS_CONNECTION (self));

  if (set_string (&self->profile, profile))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

const char *
dyno_connection_get_access_key_id (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);
  return self->access_key_id;
}

void
dyno_connection_set_access_key_id (DynoConnection *self,
                                   const char     *access_key_id)
{
  g_return_if_fail (DYNO_IS_CONNECTION (self));

  if (set_string (&self->access_key_id, access_key_id))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACCESS_KEY_ID]);
}

char *
dyno_connection_dup_subtitle (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);

  switch (self->kind)
    {
    case DYNO_CONNECTION_LOCAL:
      {
        g_autoptr(GUri) uri = self->endpoint_url ? g_uri_parse (self->endpoint_url,
                                                                G_URI_FLAGS_NONE, NULL) : NULL;

        if (uri != NULL && g_uri_get_port (uri) > 0)
          return g_strdup_printf ("%s · %s:%d", _("DynamoDB Local"), g_uri_get_host (uri),
                                  g_uri_get_port (uri));
        return g_strdup_printf ("%s · %s", _("DynamoDB Local"),
                                self->endpoint_url ? self->endpoint_url : "");
      }

    case DYNO_CONNECTION_PROFILE:
      /* Translators: a connection's subtitle: the profile, then the region. */
      return g_strdup_printf (_("Profile %s · %s"), self->profile ? self->profile : "default",
                              self->region ? self->region : _("region from the profile"));

    case DYNO_CONNECTION_REGION:
      return g_strdup_printf (_("AWS · %s"), self->region ? self->region : _("default region"));

    case DYNO_CONNECTION_KEYS:
    default:
      /* Translators: a connection's subtitle: the access key ID, then the region. */
      return g_strdup_printf (_("Access key %s · %s"),
                              self->access_key_id ? self->access_key_id : "",
                              self->region ? self->region : _("default region"));
    }
}

void
dyno_connection_settings_free (DynoConnectionSettings *settings)
{
  if (settings == NULL)
    return;

  g_free (settings->profile);
  g_free (settings->region);
  g_free (settings->endpoint_url);
  g_free (settings->access_key_id);
  if (settings->secret_access_key != NULL)
    {
      memset (settings->secret_access_key, 0, strlen (settings->secret_access_key));
      g_free (settings->secret_access_key);
    }
  if (settings->session_token != NULL)
    {
      memset (settings->session_token, 0, strlen (settings->session_token));
      g_free (settings->session_token);
    }
  g_free (settings);
}

DynoConnectionSettings *
dyno_connection_dup_settings (DynoConnection *self)
{
  DynoConnectionSettings *settings;

  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);

  settings = g_new0 (DynoConnectionSettings, 1);
  settings->region = g_strdup (self->region);

  switch (self->kind)
    {
    case DYNO_CONNECTION_LOCAL:
      settings->endpoint_url = g_strdup (self->endpoint_url);
      break;
    case DYNO_CONNECTION_PROFILE:
      settings->profile = g_strdup (self->profile);
      settings->endpoint_url = g_strdup (self->endpoint_url);
      break;
    case DYNO_CONNECTION_KEYS:
      settings->access_key_id = g_strdup (self->access_key_id);
      settings->endpoint_url = g_strdup (self->endpoint_url);
      break;
    case DYNO_CONNECTION_REGION:
    default:
      settings->endpoint_url = g_strdup (self->endpoint_url);
      break;
    }

  return settings;
}

static void
open_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  DynoConnection *self = source_object;
  g_autoptr(DynoConnectionSettings) settings = NULL;
  g_autoptr(GError) error = NULL;
  DynoHttpBackend *backend = NULL;

  settings = dyno_connection_dup_settings (self);

  if (self->kind == DYNO_CONNECTION_LOCAL)
    {
      g_autoptr(DynoCredentials) credentials =
        dyno_credentials_new (LOCAL_ACCESS_KEY_ID, LOCAL_SECRET_ACCESS_KEY, NULL, NULL);

      dyno_credentials_set_source (credentials, "DynamoDB Local");
      backend = dyno_http_backend_new_for_endpoint (self->endpoint_url,
                                                    self->region ? self->region : LOCAL_DEFAULT_REGION,
                                                    credentials, &error);
    }
  else
    {
      g_autoptr(DynoResolvedConfig) config = NULL;
      g_auto(GStrv) env = g_get_environ ();

      if (self->kind == DYNO_CONNECTION_KEYS)
        {
          g_autoptr(DynoKeyringSecret) secret = NULL;

          secret = dyno_keyring_lookup_sync (self->id, cancellable, &error);
          if (secret == NULL && error == NULL)
            g_set_error (&error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                         _("The secret access key of “%s” is not in the keyring: edit the connection and enter it again"),
                         dyno_connection_get_name (self));
          if (error != NULL)
            {
              g_task_return_error (task, g_steal_pointer (&error));
              return;
            }
          settings->secret_access_key = g_strdup (secret->secret_access_key);
          settings->session_token = g_strdup (secret->session_token);
        }

      config = dyno_resolve_config (settings, env, cancellable, &error);
      if (config != NULL)
        backend = dyno_http_backend_new (config, &error);
    }

  if (backend == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, backend, g_object_unref);
}

void
dyno_connection_open_async (DynoConnection      *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (DYNO_IS_CONNECTION (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_connection_open_async);
  g_task_run_in_thread (task, open_thread);
}

DynoBackend *
dyno_connection_open_finish (DynoConnection  *self,
                             GAsyncResult    *result,
                             GError         **error)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- the store ----------------------------------------------------------------------------- */

struct _DynoConnectionStore
{
  GObject     parent_instance;

  char       *path;
  GListStore *connections;
};

static void dyno_connection_store_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynoConnectionStore, dyno_connection_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      dyno_connection_store_list_model_init))

static GType
dyno_connection_store_get_item_type (GListModel *model)
{
  return DYNO_TYPE_CONNECTION;
}

static guint
dyno_connection_store_get_n_items (GListModel *model)
{
  return g_list_model_get_n_items (G_LIST_MODEL (DYNO_CONNECTION_STORE (model)->connections));
}

static gpointer
dyno_connection_store_get_item (GListModel *model,
                                guint       position)
{
  return g_list_model_get_item (G_LIST_MODEL (DYNO_CONNECTION_STORE (model)->connections),
                                position);
}

static void
dyno_connection_store_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = dyno_connection_store_get_item_type;
  iface->get_n_items = dyno_connection_store_get_n_items;
  iface->get_item = dyno_connection_store_get_item;
}

static void
connections_changed_cb (GListModel          *model,
                        guint                position,
                        guint                removed,
                        guint                added,
                        DynoConnectionStore *self)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

static void
dyno_connection_store_finalize (GObject *object)
{
  DynoConnectionStore *self = DYNO_CONNECTION_STORE (object);

  g_clear_object (&self->connections);
  g_free (self->path);

  G_OBJECT_CLASS (dyno_connection_store_parent_class)->finalize (object);
}

static void
dyno_connection_store_class_init (DynoConnectionStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_connection_store_finalize;
}

static void
dyno_connection_store_init (DynoConnectionStore *self)
{
  self->connections = g_list_store_new (DYNO_TYPE_CONNECTION);
  g_signal_connect_object (self->connections, "items-changed",
                           G_CALLBACK (connections_changed_cb), self, 0);
}

DynoConnectionStore *
dyno_connection_store_new (const char *path)
{
  DynoConnectionStore *self = g_object_new (DYNO_TYPE_CONNECTION_STORE, NULL);

  if (path != NULL)
    self->path = g_strdup (path);
  else
    self->path = g_build_filename (g_get_user_config_dir (), "dynotable", "connections.ini", NULL);

  return self;
}

static const char *kind_names[] = { "local", "profile", "region", "keys" };

gboolean
dyno_connection_store_load (DynoConnectionStore  *self,
                            GError              **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  g_auto(GStrv) groups = NULL;
  g_autoptr(GPtrArray) loaded = NULL;

  g_return_val_if_fail (DYNO_IS_CONNECTION_STORE (self), FALSE);

  if (!g_key_file_load_from_file (file, self->path, G_KEY_FILE_NONE, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG, "%s: %s", self->path,
                   local_error->message);
      return FALSE;
    }

  loaded = g_ptr_array_new_with_free_func (g_object_unref);
  groups = g_key_file_get_groups (file, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autofree char *kind = NULL;
      DynoConnection *connection;
      int kind_index = -1;

      if (!g_str_has_prefix (groups[i], "connection "))
        continue;

      kind = g_key_file_get_string (file, groups[i], "kind", NULL);
      for (guint k = 0; k < G_N_ELEMENTS (kind_names); k++)
        if (g_strcmp0 (kind, kind_names[k]) == 0)
          kind_index = k;
      if (kind_index < 0)
        {
          g_warning ("%s: [%s] has an unknown kind “%s”; skipped", self->path, groups[i],
                     kind ? kind : "");
          continue;
        }

      connection = dyno_connection_new ((DynoConnectionKind) kind_index);
      g_free (connection->id);
      connection->id = g_strdup (groups[i] + strlen ("connection "));
      g_free (connection->endpoint_url);
      connection->endpoint_url = g_key_file_get_string (file, groups[i], "endpoint-url", NULL);
      connection->name = g_key_file_get_string (file, groups[i], "name", NULL);
      connection->region = g_key_file_get_string (file, groups[i], "region", NULL);
      connection->profile = g_key_file_get_string (file, groups[i], "profile", NULL);
      connection->access_key_id = g_key_file_get_string (file, groups[i], "access-key-id", NULL);
      g_ptr_array_add (loaded, connection);
    }

  g_list_store_splice (self->connections, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->connections)),
                       loaded->pdata, loaded->len);
  return TRUE;
}

gboolean
dyno_connection_store_save (DynoConnectionStore  *self,
                            GError              **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autofree char *dir = NULL;
  g_autoptr(GError) local_error = NULL;
  guint n;

  g_return_val_if_fail (DYNO_IS_CONNECTION_STORE (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->connections));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynoConnection) connection = g_list_model_get_item (G_LIST_MODEL (self->connections), i);
      g_autofree char *group = g_strconcat ("connection ", connection->id, NULL);

      /* Non-secret settings only: the secret access key lives in the keyring. */
      g_key_file_set_string (file, group, "kind", kind_names[connection->kind]);
      if (connection->name)
        g_key_file_set_string (file, group, "name", connection->name);
      if (connection->endpoint_url)
        g_key_file_set_string (file, group, "endpoint-url", connection->endpoint_url);
      if (connection->region)
        g_key_file_set_string (file, group, "region", connection->region);
      if (connection->profile)
        g_key_file_set_string (file, group, "profile", connection->profile);
      if (connection->access_key_id)
        g_key_file_set_string (file, group, "access-key-id", connection->access_key_id);
    }

  dir = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !g_key_file_save_to_file (file, self->path, &local_error))
    {
      /* Translators: the file, then the system's error message. */
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG, _("Could not save connections to %s: %s"),
                   self->path, local_error ? local_error->message : g_strerror (errno));
      return FALSE;
    }

  return TRUE;
}

void
dyno_connection_store_add (DynoConnectionStore *self,
                           DynoConnection      *connection)
{
  g_return_if_fail (DYNO_IS_CONNECTION_STORE (self));
  g_return_if_fail (DYNO_IS_CONNECTION (connection));

  g_list_store_append (self->connections, connection);
}

void
dyno_connection_store_remove (DynoConnectionStore *self,
                              DynoConnection      *connection)
{
  guint position;

  g_return_if_fail (DYNO_IS_CONNECTION_STORE (self));

  if (g_list_store_find (self->connections, connection, &position))
    g_list_store_remove (self->connections, position);
}

DynoConnection *
dyno_connection_store_lookup (DynoConnectionStore *self,
                              const char          *id)
{
  guint n;

  g_return_val_if_fail (DYNO_IS_CONNECTION_STORE (self), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->connections));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynoConnection) connection = g_list_model_get_item (G_LIST_MODEL (self->connections), i);

      if (g_strcmp0 (connection->id, id) == 0)
        return connection;
    }

  return NULL;
}
