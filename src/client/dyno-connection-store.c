/* dyno-connection-store.c: the saved connections, kept in a key file (no secrets here)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-connection-private.h"
#include "dyno-connection-store.h"
#include "dyno-credentials.h"
#include "dyno-error.h"

struct _DynoConnectionStore
{
  GObject     parent_instance;

  char       *path;
  GListStore *connections;
  gboolean    playground_removed;  /* the user removed the default Playground */
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

static const char *kind_names[] = { "local", "profile", "region", "keys", "playground" };

/* A DynamoDB Local connection saved before "sign-as" existed signed with DynoTable's fixed
 * key: it keeps doing so, as a chosen key the dialog and the subtitle show, so its tables
 * stay where they were. */
static void
load_sign_as (DynoConnection *connection,
              GKeyFile       *file,
              const char     *group)
{
  g_autofree char *nick = g_key_file_get_string (file, group, "sign-as", NULL);
  g_autoptr(GEnumClass) enum_class = g_type_class_ref (DYNO_TYPE_SIGN_AS);
  GEnumValue *value = nick != NULL ? g_enum_get_value_by_nick (enum_class, nick) : NULL;

  if (value != NULL)
    connection->sign_as = value->value;
  else
    {
      if (nick != NULL)
        g_warning ("[%s] has an unknown sign-as “%s”; using DynoTable's local key", group, nick);
      connection->sign_as = DYNO_SIGN_AS_KEY;
      if (connection->access_key_id == NULL)
        connection->access_key_id = g_strdup (DYNO_LOCAL_ACCESS_KEY_ID);
    }
}

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
  self->playground_removed = g_key_file_get_boolean (file, "store", "playground-removed", NULL);
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
      if (connection->kind == DYNO_CONNECTION_PLAYGROUND)
        {
          g_autofree char *workspace = g_key_file_get_string (file, groups[i], "workspace",
                                                              NULL);

          if (workspace != NULL)
            {
              g_free (connection->workspace);
              connection->workspace = g_steal_pointer (&workspace);
            }
        }
      if (connection->kind == DYNO_CONNECTION_LOCAL)
        load_sign_as (connection, file, groups[i]);
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
      if (connection->workspace)
        g_key_file_set_string (file, group, "workspace", connection->workspace);
      if (connection->kind == DYNO_CONNECTION_LOCAL)
        {
          g_autoptr(GEnumClass) enum_class = g_type_class_ref (DYNO_TYPE_SIGN_AS);

          g_key_file_set_string (file, group, "sign-as",
                                 g_enum_get_value (enum_class, connection->sign_as)->value_nick);
        }
    }

  if (self->playground_removed)
    g_key_file_set_boolean (file, "store", "playground-removed", TRUE);

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
  if (dyno_connection_get_kind (connection) == DYNO_CONNECTION_PLAYGROUND &&
      !dyno_connection_store_has_playground (self))
    self->playground_removed = TRUE;
}

gboolean
dyno_connection_store_has_playground (DynoConnectionStore *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->connections));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynoConnection) connection = g_list_model_get_item (G_LIST_MODEL (self->connections),
                                                                    i);

      if (dyno_connection_get_kind (connection) == DYNO_CONNECTION_PLAYGROUND)
        return TRUE;
    }
  return FALSE;
}

gboolean
dyno_connection_store_ensure_playground (DynoConnectionStore *self)
{
  g_autoptr(DynoConnection) playground = NULL;

  g_return_val_if_fail (DYNO_IS_CONNECTION_STORE (self), FALSE);

  if (self->playground_removed || dyno_connection_store_has_playground (self))
    return FALSE;
  playground = dyno_connection_new (DYNO_CONNECTION_PLAYGROUND);
  g_list_store_insert (self->connections, 0, playground);
  return TRUE;
}

DynoConnection *
dyno_connection_store_find_workspace (DynoConnectionStore *self,
                                      const char          *path)
{
  g_autoptr(GFile) file = NULL;
  guint n;

  g_return_val_if_fail (DYNO_IS_CONNECTION_STORE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  file = g_file_new_for_path (path);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->connections));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynoConnection) connection = g_list_model_get_item (G_LIST_MODEL (self->connections), i);
      g_autoptr(GFile) other = NULL;

      if (connection->kind != DYNO_CONNECTION_PLAYGROUND || connection->workspace == NULL)
        continue;
      other = g_file_new_for_path (connection->workspace);
      if (g_file_equal (file, other))
        return connection;  /* the store keeps it */
    }

  return NULL;
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
