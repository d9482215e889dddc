/* dyno-sidebar-node.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "dyno-engine-backend.h"
#include "dyno-sidebar-node.h"
#include "dyno-table-names.h"
#include "dyno-widget-util.h"

struct _DynoSidebarNode
{
  GObject              parent_instance;

  DynoSidebarNodeKind  kind;
  char                *title;
  char                *subtitle;
  gboolean             is_error;
  GListStore          *children;

  DynoSidebarNode     *parent;       /* weak pointer */
  char                *table_name;   /* tables and indexes */
  DynoConnection      *connection;
  DynoBackend         *backend;
  DynoTableInfo       *table_info;
  char                *index_name;

  /* messages: the button the row offers */
  char                *action_label;
  char                *action_name;
  GVariant            *action_target;

  /* connection nodes: the refresh in flight (open, list, describe), cancelled by the next
   * refresh and by dispose; linked to the caller's cancellable */
  GCancellable        *cancellable;
  GCancellable        *caller_cancellable;

  /* the Playground's node: serves its engine on loopback while the setting says so */
  GSettings           *settings;
  gulong               caller_cancelled_id;
};

G_DEFINE_FINAL_TYPE (DynoSidebarNode, dyno_sidebar_node, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_SUBTITLE,
  PROP_TABLE_INFO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_subtitle (DynoSidebarNode *self,
              const char      *subtitle)
{
  if (g_strcmp0 (self->subtitle, subtitle) == 0)
    return;

  g_free (self->subtitle);
  self->subtitle = g_strdup (subtitle);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUBTITLE]);
}

static void
replace_children_with_message (DynoSidebarNode *self,
                               const char      *text,
                               gboolean         is_error)
{
  g_autoptr(DynoSidebarNode) message = dyno_sidebar_node_new_message (text, is_error);

  g_list_store_splice (self->children, 0, g_list_model_get_n_items (G_LIST_MODEL (self->children)),
                       (gpointer *) &message, 1);
}

/* DynamoDB Local without -sharedDb keeps one database per access key ID and region: an empty
 * list most often means the tables were made under another key.  Say which key and region
 * this is, and offer to change them. */
static void
show_local_empty_state (DynoSidebarNode *self)
{
  g_autoptr(DynoSidebarNode) message = NULL;
  g_autofree char *title = NULL;

  /* Translators: the access key ID, then the region */
  title = g_strdup_printf (_("No tables for access key %s in %s"),
                           dyno_connection_get_signed_key_id (self->connection),
                           dyno_connection_get_signed_region (self->connection));
  message = dyno_sidebar_node_new_message (title, FALSE);
  message->connection = g_object_ref (self->connection);
  message->subtitle = g_strdup (_("DynamoDB Local started without -sharedDb keeps separate "
                                  "tables for each access key and region: sign as the key "
                                  "and region that made your tables."));
  message->action_label = g_strdup (_("Sign _As…"));
  message->action_name = g_strdup ("win.edit-connection");
  message->action_target = g_variant_ref_sink (
    g_variant_new_string (dyno_connection_get_id (self->connection)));

  g_list_store_splice (self->children, 0, g_list_model_get_n_items (G_LIST_MODEL (self->children)),
                       (gpointer *) &message, 1);
}

/* An empty Playground: what it is, and a way to fill it. */
static void
show_playground_empty_state (DynoSidebarNode *self)
{
  g_autoptr(DynoSidebarNode) message = NULL;

  message = dyno_sidebar_node_new_message (_("The Playground is empty"), FALSE);
  message->connection = g_object_ref (self->connection);
  message->subtitle = g_strdup (_("DynoTable's own DynamoDB, on this computer: design a table "
                                  "or load the sample schemas to try keys and queries without "
                                  "a server or an AWS account."));
  message->action_label = g_strdup (_("Load _Sample Schemas…"));
  message->action_name = g_strdup ("win.load-samples");
  message->action_target = g_variant_ref_sink (
    g_variant_new_string (dyno_connection_get_id (self->connection)));

  g_list_store_splice (self->children, 0, g_list_model_get_n_items (G_LIST_MODEL (self->children)),
                       (gpointer *) &message, 1);
}

/* An IAM Identity Center profile that could not connect (most often: not signed in, or the
 * sign-in expired): the message, and a button to sign in. */
static void
show_sign_in (DynoSidebarNode *self,
              const char      *text)
{
  g_autoptr(DynoSidebarNode) message = dyno_sidebar_node_new_message (text, TRUE);

  message->connection = g_object_ref (self->connection);
  message->action_label = g_strdup (_("Sign _In…"));
  message->action_name = g_strdup ("win.sso-sign-in");
  message->action_target = g_variant_ref_sink (
    g_variant_new_string (dyno_connection_get_id (self->connection)));
  g_list_store_splice (self->children, 0, g_list_model_get_n_items (G_LIST_MODEL (self->children)),
                       (gpointer *) &message, 1);
}

const char *
dyno_sidebar_node_get_sso_profile (DynoSidebarNode *self)
{
  return self->connection != NULL ? dyno_connection_get_sso_profile (self->connection) : NULL;
}

static void
set_table_info (DynoSidebarNode *self,
                DynoTableInfo   *info)
{
  g_autofree char *keys = NULL;
  guint n_indexes;

  g_clear_pointer (&self->table_info, dyno_table_info_unref);
  self->table_info = dyno_table_info_ref (info);

  keys = dyno_table_info_describe_keys (info, NULL);
  set_subtitle (self, keys);

  n_indexes = dyno_table_info_get_n_indexes (info);
  if (n_indexes > 0)
    {
      gboolean had_children = self->children != NULL;

      if (self->children == NULL)
        self->children = g_list_store_new (DYNO_TYPE_SIDEBAR_NODE);

      /* The tree asked for this row's children when it was added, before there were any:
       * put the row in again so it asks once more and can expand to the indexes. */
      if (!had_children && self->parent != NULL && self->parent->children != NULL)
        {
          g_autoptr(DynoSidebarNode) keep = g_object_ref (self);
          guint position;

          if (g_list_store_find (self->parent->children, self, &position))
            g_list_store_splice (self->parent->children, position, 1, (gpointer *) &self, 1);
        }

      g_list_store_remove_all (self->children);
      for (guint i = 0; i < n_indexes; i++)
        {
          g_autoptr(DynoSidebarNode) child =
            dyno_sidebar_node_new_index (self, dyno_table_info_get_index (info, i));
          g_list_store_append (self->children, child);
        }
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TABLE_INFO]);
}

static void
describe_table_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(DynoSidebarNode) self = dyno_weak_ref_steal (user_data);
  g_autoptr(DynoTableInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  info = dyno_backend_describe_table_finish (DYNO_BACKEND (object), result, &error);
  if (self == NULL)
    return;
  if (info == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          self->is_error = TRUE;
          set_subtitle (self, error->message);
        }
      return;
    }

  set_table_info (self, info);
}

static void
list_tables_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(DynoSidebarNode) self = dyno_weak_ref_steal (user_data);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) nodes = NULL;

  names = dyno_table_names_list_finish (DYNO_BACKEND (object), result, &error);
  if (self == NULL)
    return;
  if (names == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        replace_children_with_message (self, error->message, TRUE);
      return;
    }

  if (names[0] == NULL)
    {
      if (dyno_connection_get_kind (self->connection) == DYNO_CONNECTION_PLAYGROUND)
        show_playground_empty_state (self);
      else if (dyno_connection_is_local (self->connection)
          && dyno_connection_get_signed_key_id (self->connection) != NULL)
        show_local_empty_state (self);
      else
        replace_children_with_message (self, _("No tables"), FALSE);
      return;
    }

  /* Tables listed before keep their node (a tab may hold it, a row may be expanded): only
   * the tables that came or went change the list, so a refresh after creating or deleting
   * one table moves one row.  Every table is described again: it may have a new index. */
  {
    g_autoptr(GHashTable) existing = g_hash_table_new (g_str_hash, g_str_equal);
    g_autoptr(GHashTable) wanted = g_hash_table_new (NULL, NULL);
    guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));

    for (guint i = 0; i < n; i++)
      {
        g_autoptr(DynoSidebarNode) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

        if (child->kind == DYNO_SIDEBAR_TABLE)
          g_hash_table_insert (existing, child->table_name, child);  /* the store keeps it */
      }

    nodes = g_ptr_array_new_with_free_func (g_object_unref);
    for (guint i = 0; names[i] != NULL; i++)
      {
        DynoSidebarNode *table = g_hash_table_lookup (existing, names[i]);

        table = table ? g_object_ref (table) : dyno_sidebar_node_new_table (self, names[i]);
        g_ptr_array_add (nodes, table);
        g_hash_table_add (wanted, table);
        dyno_backend_describe_table_async (self->backend, names[i], self->cancellable,
                                           describe_table_cb, dyno_weak_ref_new (table));
      }

    for (guint i = 0; i < nodes->len || i < g_list_model_get_n_items (G_LIST_MODEL (self->children));)
      {
        DynoSidebarNode *want = i < nodes->len ? g_ptr_array_index (nodes, i) : NULL;
        g_autoptr(DynoSidebarNode) child = NULL;
        guint found;

        if (i < g_list_model_get_n_items (G_LIST_MODEL (self->children)))
          child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

        if (child != NULL && child == want)
          i++;
        else if (child != NULL && (!g_hash_table_contains (wanted, child) ||
                                   (want != NULL &&
                                    g_list_store_find (self->children, want, &found))))
          g_list_store_remove (self->children, i);  /* gone, or out of order */
        else
          {
            g_list_store_insert (self->children, i, want);
            i++;
          }
      }
  }
}

/* The connection's own subtitle, and where a Playground is served. */
static char *
dup_connection_subtitle (DynoSidebarNode *self)
{
  g_autofree char *subtitle = dyno_connection_dup_subtitle (self->connection);
  const char *url = DYNO_IS_ENGINE_BACKEND (self->backend)
                    ? dyno_engine_backend_get_served_url (DYNO_ENGINE_BACKEND (self->backend))
                    : NULL;

  if (url == NULL)
    return g_steal_pointer (&subtitle);
  /* Translators: the Playground's subtitle, then the address it is served at while the app
   * runs ("Built in · playground.db · http://127.0.0.1:8100"). */
  return g_strdup_printf (_("%s · %s"), subtitle, url);
}

static void
update_connection_subtitle (DynoSidebarNode *self)
{
  g_autofree char *subtitle = dup_connection_subtitle (self);

  set_subtitle (self, subtitle);
}

/* The Playground answers DynamoDB's protocol on loopback while the app runs, so the code the
 * code view shows runs against it as is: on the port of the settings, or on a free one when
 * that is taken (another window, DynamoDB Local...).  The subtitle says where. */
static void
update_serving (DynoSidebarNode *self)
{
  DynoEngineBackend *engine;
  g_autoptr(GError) error = NULL;
  guint port;

  if (!DYNO_IS_ENGINE_BACKEND (self->backend) || self->settings == NULL)
    return;
  engine = DYNO_ENGINE_BACKEND (self->backend);
  if (!g_settings_get_boolean (self->settings, "serve-playground"))
    dyno_engine_backend_stop_serving (engine);
  else
    {
      port = (guint) g_settings_get_int (self->settings, "playground-port");
      if (dyno_engine_backend_get_served_url (engine) == NULL
          && !dyno_engine_backend_serve (engine, "127.0.0.1", port,
                                             DYNO_ENGINE_SERVE_NONE, &error)
          && port != 0)
        {
          g_debug ("Playground: port %u: %s; serving on a free port", port, error->message);
          g_clear_error (&error);
          dyno_engine_backend_serve (engine, "127.0.0.1", 0, DYNO_ENGINE_SERVE_NONE,
                                     &error);
        }
      if (error != NULL)
        g_warning ("The Playground cannot be served on loopback: %s", error->message);
    }
  update_connection_subtitle (self);
}

static gboolean
update_serving_idle (gpointer user_data)
{
  g_autoptr(DynoSidebarNode) self = dyno_weak_ref_steal (user_data);

  if (self != NULL)
    update_serving (self);
  return G_SOURCE_REMOVE;
}

static void
serve_setting_changed_cb (GSettings       *settings,
                          const char      *key,
                          DynoSidebarNode *self)
{
  if (g_str_equal (key, "playground-port") && DYNO_IS_ENGINE_BACKEND (self->backend))
    dyno_engine_backend_stop_serving (DYNO_ENGINE_BACKEND (self->backend));
  /* The setting is usually changed from this row's own menu, which is closing: the row's
   * subtitle (and size) changes once it is closed.  GTK 4.8 crashes in
   * gdk_surface_request_motion() when a closing popover's row is resized under it. */
  g_idle_add (update_serving_idle, dyno_weak_ref_new (self));
}

static void
stop_serving (DynoSidebarNode *self)
{
  if (DYNO_IS_ENGINE_BACKEND (self->backend) && self->kind == DYNO_SIDEBAR_CONNECTION)
    dyno_engine_backend_stop_serving (DYNO_ENGINE_BACKEND (self->backend));
}

static void
open_connection_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(DynoSidebarNode) self = dyno_weak_ref_steal (user_data);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoBackend) backend = NULL;

  backend = dyno_connection_open_finish (DYNO_CONNECTION (object), result, &error);
  if (self == NULL)
    return;
  if (backend == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      if (dyno_sidebar_node_get_sso_profile (self) != NULL)
        show_sign_in (self, error->message);
      else
        replace_children_with_message (self, error->message, TRUE);
      return;
    }

  stop_serving (self);
  g_clear_object (&self->backend);
  self->backend = g_steal_pointer (&backend);

  if (DYNO_IS_ENGINE_BACKEND (self->backend) && self->settings == NULL)
    {
      GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
      g_autoptr(GSettingsSchema) schema = source != NULL
        ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;

      /* (unit tests run without the app's schema: nothing is served there) */
      if (schema != NULL)
        {
          self->settings = g_settings_new (APP_ID);
          g_signal_connect_object (self->settings, "changed::serve-playground",
                                   G_CALLBACK (serve_setting_changed_cb), self, 0);
          g_signal_connect_object (self->settings, "changed::playground-port",
                                   G_CALLBACK (serve_setting_changed_cb), self, 0);
        }
    }
  update_serving (self);

  /* now it says which key and region it signs with (and where a Playground is served) */
  update_connection_subtitle (self);

  dyno_table_names_list_async (self->backend, self->cancellable, list_tables_cb,
                               dyno_weak_ref_new (self));
}

static void
caller_cancelled_cb (GCancellable *caller,
                     gpointer      user_data)
{
  /* may run in another thread: only touch the cancellable, which is thread-safe */
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

/* Cancels the refresh in flight, if any, and forgets the caller's cancellable. */
static void
cancel_refresh (DynoSidebarNode *self)
{
  if (self->caller_cancellable != NULL)
    g_cancellable_disconnect (self->caller_cancellable, self->caller_cancelled_id);
  self->caller_cancelled_id = 0;
  g_clear_object (&self->caller_cancellable);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
}

static void
dyno_sidebar_node_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DynoSidebarNode *self = DYNO_SIDEBAR_NODE (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_SUBTITLE:
      g_value_set_string (value, self->subtitle);
      break;

    case PROP_TABLE_INFO:
      g_value_set_boxed (value, self->table_info);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_sidebar_node_dispose (GObject *object)
{
  DynoSidebarNode *self = DYNO_SIDEBAR_NODE (object);

  cancel_refresh (self);
  stop_serving (self);
  g_clear_object (&self->settings);
  g_clear_weak_pointer (&self->parent);
  g_clear_object (&self->children);
  g_clear_object (&self->connection);
  g_clear_object (&self->backend);
  g_clear_pointer (&self->table_info, dyno_table_info_unref);

  G_OBJECT_CLASS (dyno_sidebar_node_parent_class)->dispose (object);
}

static void
dyno_sidebar_node_finalize (GObject *object)
{
  DynoSidebarNode *self = DYNO_SIDEBAR_NODE (object);

  g_free (self->title);
  g_free (self->subtitle);
  g_free (self->index_name);
  g_free (self->table_name);
  g_free (self->action_label);
  g_free (self->action_name);
  g_clear_pointer (&self->action_target, g_variant_unref);

  G_OBJECT_CLASS (dyno_sidebar_node_parent_class)->finalize (object);
}

static void
dyno_sidebar_node_class_init (DynoSidebarNodeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = dyno_sidebar_node_get_property;
  object_class->dispose = dyno_sidebar_node_dispose;
  object_class->finalize = dyno_sidebar_node_finalize;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SUBTITLE] =
    g_param_spec_string ("subtitle", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TABLE_INFO] =
    g_param_spec_boxed ("table-info", NULL, NULL, DYNO_TYPE_TABLE_INFO,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyno_sidebar_node_init (DynoSidebarNode *self)
{
}

DynoSidebarNode *
dyno_sidebar_node_new_connection (DynoConnection *connection)
{
  DynoSidebarNode *self;

  g_return_val_if_fail (DYNO_IS_CONNECTION (connection), NULL);

  self = g_object_new (DYNO_TYPE_SIDEBAR_NODE, NULL);
  self->kind = DYNO_SIDEBAR_CONNECTION;
  self->connection = g_object_ref (connection);
  self->title = g_strdup (dyno_connection_get_name (connection));
  self->subtitle = dyno_connection_dup_subtitle (connection);
  self->children = g_list_store_new (DYNO_TYPE_SIDEBAR_NODE);

  return self;
}

DynoSidebarNode *
dyno_sidebar_node_new_table (DynoSidebarNode *connection_node,
                             const char      *table_name)
{
  DynoSidebarNode *self;

  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (connection_node), NULL);
  g_return_val_if_fail (table_name != NULL, NULL);

  self = g_object_new (DYNO_TYPE_SIDEBAR_NODE, NULL);
  self->kind = DYNO_SIDEBAR_TABLE;
  g_set_weak_pointer (&self->parent, connection_node);
  self->title = g_strdup (table_name);
  self->table_name = g_strdup (table_name);
  if (connection_node->backend != NULL)
    self->backend = g_object_ref (connection_node->backend);
  self->subtitle = g_strdup ("");
  self->connection = g_object_ref (connection_node->connection);

  return self;
}

DynoSidebarNode *
dyno_sidebar_node_new_index (DynoSidebarNode     *table_node,
                             const DynoIndexInfo *index)
{
  DynoSidebarNode *self;
  const char *projection;

  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (table_node), NULL);
  g_return_val_if_fail (index != NULL, NULL);

  switch (index->projection)
    {
    case DYNO_PROJECTION_KEYS_ONLY:
      projection = _("keys only");
      break;

    case DYNO_PROJECTION_INCLUDE:
      projection = _("include");
      break;

    case DYNO_PROJECTION_ALL:
    default:
      projection = _("all");
      break;
    }

  self = g_object_new (DYNO_TYPE_SIDEBAR_NODE, NULL);
  self->kind = DYNO_SIDEBAR_INDEX;
  g_set_weak_pointer (&self->parent, table_node);
  self->table_name = g_strdup (table_node->table_name);
  if (table_node->backend != NULL)
    self->backend = g_object_ref (table_node->backend);
  self->title = g_strdup (index->name);
  self->index_name = g_strdup (index->name);
  self->connection = g_object_ref (table_node->connection);
  if (table_node->table_info != NULL)
    {
      g_autofree char *keys = dyno_table_info_describe_keys (table_node->table_info, index->name);

      /* Translators: "GSI · gsi1pk S · gsi1sk S · all" */
      self->subtitle = g_strdup_printf ("%s · %s · %s", index->global ? _("GSI") : _("LSI"),
                                        keys, projection);
      self->table_info = dyno_table_info_ref (table_node->table_info);
    }

  return self;
}

DynoSidebarNode *
dyno_sidebar_node_new_message (const char *text,
                               gboolean    is_error)
{
  DynoSidebarNode *self = g_object_new (DYNO_TYPE_SIDEBAR_NODE, NULL);

  self->kind = DYNO_SIDEBAR_MESSAGE;
  self->title = g_strdup (text);
  self->is_error = is_error;

  return self;
}

const char *
dyno_sidebar_node_get_action_label (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);
  return self->action_label;
}

const char *
dyno_sidebar_node_get_action_name (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);
  return self->action_name;
}

GVariant *
dyno_sidebar_node_get_action_target (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);
  return self->action_target;
}

DynoSidebarNodeKind
dyno_sidebar_node_get_kind (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), DYNO_SIDEBAR_MESSAGE);
  return self->kind;
}

const char *
dyno_sidebar_node_get_title (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);
  return self->title;
}

const char *
dyno_sidebar_node_get_subtitle (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);
  return self->subtitle;
}

gboolean
dyno_sidebar_node_get_is_error (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), FALSE);
  return self->is_error;
}

GListModel *
dyno_sidebar_node_get_children (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);
  return self->children ? G_LIST_MODEL (self->children) : NULL;
}

DynoConnection *
dyno_sidebar_node_get_connection (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);
  return self->connection;
}

DynoBackend *
dyno_sidebar_node_get_backend (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);
  return self->backend;
}

DynoTableInfo *
dyno_sidebar_node_get_table_info (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);
  return self->table_info;
}

const char *
dyno_sidebar_node_get_table_name (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);

  return self->table_name;
}

const char *
dyno_sidebar_node_get_index_name (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);
  return self->index_name;
}

DynoSidebarNode *
dyno_sidebar_node_get_parent (DynoSidebarNode *self)
{
  g_return_val_if_fail (DYNO_IS_SIDEBAR_NODE (self), NULL);
  return self->parent;
}

void
dyno_sidebar_node_refresh (DynoSidebarNode *self,
                           GCancellable    *cancellable)
{
  g_return_if_fail (DYNO_IS_SIDEBAR_NODE (self));
  g_return_if_fail (self->kind == DYNO_SIDEBAR_CONNECTION);

  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  replace_children_with_message (self, _("Loading tables…"), FALSE);

  cancel_refresh (self);
  self->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      self->caller_cancellable = g_object_ref (cancellable);
      /* runs at once when @cancellable is already cancelled */
      self->caller_cancelled_id = g_cancellable_connect (cancellable,
                                                         G_CALLBACK (caller_cancelled_cb),
                                                         g_object_ref (self->cancellable),
                                                         g_object_unref);
    }

  if (self->backend != NULL)
    dyno_table_names_list_async (self->backend, self->cancellable, list_tables_cb,
                                 dyno_weak_ref_new (self));
  else
    dyno_connection_open_async (self->connection, self->cancellable, open_connection_cb,
                                dyno_weak_ref_new (self));
}

void
dyno_sidebar_node_reload (DynoSidebarNode *self,
                          GCancellable    *cancellable)
{
  g_return_if_fail (DYNO_IS_SIDEBAR_NODE (self));
  g_return_if_fail (self->kind == DYNO_SIDEBAR_CONNECTION);

  if (g_strcmp0 (self->title, dyno_connection_get_name (self->connection)) != 0)
    {
      g_free (self->title);
      self->title = g_strdup (dyno_connection_get_name (self->connection));
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
  stop_serving (self);
  g_clear_object (&self->backend);
  update_connection_subtitle (self);
  dyno_sidebar_node_refresh (self, cancellable);
}
