/* dyno-connection.c: a saved connection (no secrets here) and how it opens a backend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-connection-private.h"
#include "dyno-endpoints.h"
#include "dyno-error.h"
#include "dyno-engine-backend.h"
#include "dyno-http-backend.h"
#include "dyno-keyring.h"

G_DEFINE_FINAL_TYPE (DynoConnection, dyno_connection, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (DynoSignAs, dyno_sign_as,
                    G_DEFINE_ENUM_VALUE (DYNO_SIGN_AS_DEFAULT, "default"),
                    G_DEFINE_ENUM_VALUE (DYNO_SIGN_AS_PROFILE, "profile"),
                    G_DEFINE_ENUM_VALUE (DYNO_SIGN_AS_KEY, "key"))

enum {
  PROP_0,
  PROP_NAME,
  PROP_ENDPOINT_URL,
  PROP_REGION,
  PROP_PROFILE,
  PROP_ACCESS_KEY_ID,
  PROP_SIGN_AS,
  PROP_SIGNED_AS,
  PROP_WORKSPACE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The secret sent with a chosen local key ID: DynamoDB Local does not check it. */
#define LOCAL_ANY_SECRET "dynotablelocal"

static void
forget_signed_as (DynoConnection *self)
{
  if (self->signed_key_id == NULL && self->signed_region == NULL && self->signed_source == NULL)
    return;

  g_clear_pointer (&self->signed_key_id, g_free);
  g_clear_pointer (&self->signed_region, g_free);
  g_clear_pointer (&self->signed_source, g_free);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIGNED_AS]);
}

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
    case PROP_SIGN_AS:
      g_value_set_enum (value, self->sign_as);
      break;
    case PROP_SIGNED_AS:
      g_value_set_string (value, self->signed_key_id);
      break;
    case PROP_WORKSPACE:
      g_value_set_string (value, self->workspace);
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
    case PROP_SIGN_AS:
      dyno_connection_set_sign_as (self, g_value_get_enum (value));
      break;
    case PROP_WORKSPACE:
      dyno_connection_set_workspace (self, g_value_get_string (value));
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
  g_free (self->workspace);
  g_free (self->signed_key_id);
  g_free (self->signed_region);
  g_free (self->signed_source);
  g_strfreev (self->env);

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
  properties[PROP_SIGN_AS] =
    g_param_spec_enum ("sign-as", NULL, NULL, DYNO_TYPE_SIGN_AS, DYNO_SIGN_AS_DEFAULT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the access key ID of the last open; notified when it or the region or source changes */
  properties[PROP_SIGNED_AS] =
    g_param_spec_string ("signed-as", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* a Playground's workspace file */
  properties[PROP_WORKSPACE] =
    g_param_spec_string ("workspace", NULL, NULL, NULL,
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
  if (kind == DYNO_CONNECTION_PLAYGROUND)
    self->workspace = dyno_connection_dup_default_workspace ();

  return self;
}

char *
dyno_connection_dup_default_workspace (void)
{
  return g_build_filename (g_get_user_data_dir (), "dynotable", "playground.sqlite", NULL);
}

char *
dyno_connection_dup_workspaces_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "dynotable", "workspaces", NULL);
}

char *
dyno_connection_dup_workspace_path_for_name (const char  *name,
                                             GError     **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (name != NULL ? name : ""));
  g_autofree char *dir = NULL;
  g_autofree char *file = NULL;

  if (stripped[0] == '\0' || stripped[0] == '.' || strchr (stripped, G_DIR_SEPARATOR) != NULL)
    {
      /* Translators: a workspace's name becomes a file name. */
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("“%s” cannot be a workspace name: give a name without “/” that does not start with a dot"),
                   stripped);
      return NULL;
    }
  dir = dyno_connection_dup_workspaces_dir ();
  file = g_strconcat (stripped, DYNO_WORKSPACE_EXTENSION, NULL);
  return g_build_filename (dir, file, NULL);
}

char *
dyno_connection_dup_workspace_name (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  return g_steal_pointer (&base);
}

DynoConnection *
dyno_connection_new_playground (const char *workspace)
{
  DynoConnection *self = dyno_connection_new (DYNO_CONNECTION_PLAYGROUND);

  g_return_val_if_fail (workspace != NULL, self);
  g_free (self->workspace);
  self->workspace = g_strdup (workspace);
  self->name = dyno_connection_dup_workspace_name (workspace);
  return self;
}

const char *
dyno_connection_get_workspace (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);
  return self->workspace;
}

void
dyno_connection_set_workspace (DynoConnection *self,
                               const char     *path)
{
  g_return_if_fail (DYNO_IS_CONNECTION (self));
  if (g_strcmp0 (self->workspace, path) == 0)
    return;
  g_free (self->workspace);
  self->workspace = g_strdup (path);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WORKSPACE]);
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
    case DYNO_CONNECTION_PLAYGROUND:
      return _("Playground");
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
    {
      forget_signed_as (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENDPOINT_URL]);
    }
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
    {
      forget_signed_as (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REGION]);
    }
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
    {
      forget_signed_as (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
    }
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
    {
      forget_signed_as (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACCESS_KEY_ID]);
    }
}

DynoSignAs
dyno_connection_get_sign_as (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), DYNO_SIGN_AS_DEFAULT);
  return self->sign_as;
}

void
dyno_connection_set_sign_as (DynoConnection *self,
                             DynoSignAs      sign_as)
{
  g_return_if_fail (DYNO_IS_CONNECTION (self));
  g_return_if_fail (sign_as <= DYNO_SIGN_AS_KEY);

  if (self->sign_as == sign_as)
    return;

  self->sign_as = sign_as;
  forget_signed_as (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIGN_AS]);
}

const char *
dyno_connection_get_signed_key_id (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);
  return self->signed_key_id;
}

const char *
dyno_connection_get_signed_region (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);
  return self->signed_region;
}

const char *
dyno_connection_get_signed_source (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);
  return self->signed_source;
}

void
dyno_connection_set_environ (DynoConnection  *self,
                             char           **env)
{
  g_return_if_fail (DYNO_IS_CONNECTION (self));

  g_strfreev (self->env);
  self->env = g_strdupv (env);
  forget_signed_as (self);
}

gboolean
dyno_connection_is_local (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), FALSE);

  return self->kind == DYNO_CONNECTION_LOCAL || dyno_endpoint_is_local_url (self->endpoint_url);
}

/* "localhost:8000" for a URL with a port, else the URL itself. */
static char *
dup_endpoint_label (const char *url)
{
  g_autoptr(GUri) uri = url ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;

  if (uri != NULL && g_uri_get_host (uri) != NULL && g_uri_get_port (uri) > 0)
    return g_strdup_printf ("%s:%d", g_uri_get_host (uri), g_uri_get_port (uri));
  return g_strdup (url ? url : "");
}

const char *
dyno_connection_get_sso_profile (DynoConnection *self)
{
  const char *profile;

  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);

  if (self->kind != DYNO_CONNECTION_PROFILE
      && !(self->kind == DYNO_CONNECTION_LOCAL && self->sign_as == DYNO_SIGN_AS_PROFILE))
    return NULL;
  profile = self->profile != NULL ? self->profile : "default";
  return dyno_aws_profile_kind (NULL, profile) == DYNO_CREDENTIAL_KIND_SSO ? profile : NULL;
}

char *
dyno_connection_dup_subtitle (DynoConnection *self)
{
  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);

  switch (self->kind)
    {
    case DYNO_CONNECTION_LOCAL:
      {
        g_autofree char *where = dup_endpoint_label (self->endpoint_url);
        g_autofree char *as = NULL;

        /* Once open, the key and region themselves: they name DynamoDB Local's database. */
        if (self->signed_key_id != NULL && self->sign_as == DYNO_SIGN_AS_PROFILE)
          /* Translators: what a DynamoDB Local connection signs as: the profile, then its
           * access key ID. */
          as = g_strdup_printf (_("profile %s, %s"), self->profile ? self->profile : "default",
                                self->signed_key_id);
        else if (self->signed_key_id != NULL)
          as = g_strdup (self->signed_key_id);
        else if (self->sign_as == DYNO_SIGN_AS_PROFILE)
          /* Translators: what a DynamoDB Local connection signs as */
          as = g_strdup_printf (_("profile %s"), self->profile ? self->profile : "default");
        else if (self->sign_as == DYNO_SIGN_AS_KEY)
          /* Translators: what a DynamoDB Local connection signs as */
          as = g_strdup_printf (_("key %s"), self->access_key_id ? self->access_key_id : "");
        else
          as = g_strdup (_("default credentials"));

        if (self->signed_region != NULL || self->region != NULL)
          /* Translators: a DynamoDB Local connection's subtitle: "localhost:8000 · AKID ·
           * us-east-1" (where, what it signs as, the region). */
          return g_strdup_printf (_("%s · %s · %s"), where, as,
                                  self->signed_region ? self->signed_region : self->region);
        /* Translators: a DynamoDB Local connection's subtitle: where, then what it signs as. */
        return g_strdup_printf (_("%s · %s"), where, as);
      }

    case DYNO_CONNECTION_PROFILE:
      {
        const char *profile = self->profile ? self->profile : "default";
        DynoCredentialKind kind = dyno_aws_profile_kind (NULL, profile);
        const char *region = self->region ? self->region : _("region from the profile");

        if (kind != DYNO_CREDENTIAL_KIND_NONE)
          /* Translators: a connection's subtitle: the profile, how it signs in (such as
           * "role" or "IAM Identity Center"), then the region. */
          return g_strdup_printf (_("Profile %s (%s) · %s"), profile,
                                  dyno_credential_kind_get_label (kind), region);
        /* Translators: a connection's subtitle: the profile, then the region. */
        return g_strdup_printf (_("Profile %s · %s"), profile, region);
      }

    case DYNO_CONNECTION_REGION:
      return g_strdup_printf (_("AWS · %s"), self->region ? self->region : _("default region"));

    case DYNO_CONNECTION_PLAYGROUND:
      {
        g_autofree char *file = g_path_get_basename (self->workspace != NULL ? self->workspace
                                                                            : "");

        /* Translators: the Playground's subtitle, with its workspace file's name. */
        return g_strdup_printf (_("Built in · %s"), file);
      }

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
      if (self->sign_as == DYNO_SIGN_AS_PROFILE)
        settings->profile = g_strdup (self->profile ? self->profile : "default");
      else if (self->sign_as == DYNO_SIGN_AS_KEY && self->access_key_id != NULL)
        {
          settings->access_key_id = g_strdup (self->access_key_id);
          settings->secret_access_key = g_strdup (LOCAL_ANY_SECRET);
        }
      break;
    case DYNO_CONNECTION_PROFILE:
      settings->profile = g_strdup (self->profile);
      settings->endpoint_url = g_strdup (self->endpoint_url);
      break;
    case DYNO_CONNECTION_KEYS:
      settings->access_key_id = g_strdup (self->access_key_id);
      settings->endpoint_url = g_strdup (self->endpoint_url);
      break;
    case DYNO_CONNECTION_PLAYGROUND:
      break;
    case DYNO_CONNECTION_REGION:
    default:
      settings->endpoint_url = g_strdup (self->endpoint_url);
      break;
    }

  return settings;
}

typedef struct {
  DynoConnectionSettings *settings;
  DynoConnectionKind      kind;
  char                   *workspace;
  char                   *id;
  char                   *name;
  char                  **env;
} OpenData;

typedef struct {
  DynoBackend     *backend;
  char            *key_id;
  char            *region;
  char            *source;
} OpenResult;

static void
open_data_free (OpenData *data)
{
  dyno_connection_settings_free (data->settings);
  g_free (data->workspace);
  g_free (data->id);
  g_free (data->name);
  g_strfreev (data->env);
  g_free (data);
}

static void
open_result_free (OpenResult *result)
{
  g_clear_object (&result->backend);
  g_free (result->key_id);
  g_free (result->region);
  g_free (result->source);
  g_free (result);
}

static void
open_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  OpenData *data = task_data;
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  DynoHttpBackend *backend;
  OpenResult *result;

  if (data->kind == DYNO_CONNECTION_PLAYGROUND)
    {
      g_autofree char *dir = g_path_get_dirname (data->workspace);
      DynoEngineBackend *engine;

      if (g_mkdir_with_parents (dir, 0700) != 0)
        {
          int saved = errno;

          /* Translators: the folder, then the system's error message. */
          g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_CONFIG,
                                   _("Could not make the Playground's folder %s: %s"), dir,
                                   g_strerror (saved));
          return;
        }
      engine = dyno_engine_backend_new (data->workspace, &error);
      if (engine == NULL)
        {
          /* Translators: the workspace file, then what is wrong with it. */
          g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_CONFIG,
                                   _("Could not open the Playground workspace %s: %s"),
                                   data->workspace, error->message);
          return;
        }
      result = g_new0 (OpenResult, 1);
      result->backend = DYNO_BACKEND (engine);
      g_task_return_pointer (task, result, (GDestroyNotify) open_result_free);
      return;
    }

  if (data->kind == DYNO_CONNECTION_KEYS)
    {
      g_autoptr(DynoKeyringSecret) secret = NULL;

      secret = dyno_keyring_lookup_sync (data->id, cancellable, &error);
      if (secret == NULL && error == NULL)
        g_set_error (&error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                     _("The secret access key of “%s” is not in the keyring: edit the connection and enter it again"),
                     data->name);
      if (error != NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      data->settings->secret_access_key = g_strdup (secret->secret_access_key);
      data->settings->session_token = g_strdup (secret->session_token);
    }

  /* The same resolution as dynotable-cli's, for every kind: DynamoDB Local included. */
  config = dyno_resolve_config (data->settings, data->env, cancellable, &error);
  backend = config != NULL ? dyno_http_backend_new (config, &error) : NULL;
  if (backend == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  result = g_new0 (OpenResult, 1);
  result->backend = DYNO_BACKEND (backend);
  result->key_id = g_strdup (dyno_credentials_get_access_key_id (config->credentials));
  result->region = g_strdup (config->region);
  result->source = g_strdup (dyno_credentials_get_source (config->credentials));
  g_task_return_pointer (task, result, (GDestroyNotify) open_result_free);
}

void
dyno_connection_open_async (DynoConnection      *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  OpenData *data;

  g_return_if_fail (DYNO_IS_CONNECTION (self));

  /* Everything the thread needs is copied here: the connection may change meanwhile. */
  data = g_new0 (OpenData, 1);
  data->settings = dyno_connection_dup_settings (self);
  data->kind = self->kind;
  data->workspace = g_strdup (self->workspace);
  data->id = g_strdup (self->id);
  data->name = g_strdup (dyno_connection_get_name (self));
  data->env = self->env != NULL ? g_strdupv (self->env) : g_get_environ ();

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_connection_open_async);
  g_task_set_task_data (task, data, (GDestroyNotify) open_data_free);
  g_task_run_in_thread (task, open_thread);
}

DynoBackend *
dyno_connection_open_finish (DynoConnection  *self,
                             GAsyncResult    *result,
                             GError         **error)
{
  OpenResult *opened;
  DynoBackend *backend;

  g_return_val_if_fail (DYNO_IS_CONNECTION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  opened = g_task_propagate_pointer (G_TASK (result), error);
  if (opened == NULL)
    return NULL;

  backend = g_steal_pointer (&opened->backend);
  if (g_strcmp0 (self->signed_key_id, opened->key_id) != 0
      || g_strcmp0 (self->signed_region, opened->region) != 0
      || g_strcmp0 (self->signed_source, opened->source) != 0)
    {
      g_free (self->signed_key_id);
      g_free (self->signed_region);
      g_free (self->signed_source);
      self->signed_key_id = g_steal_pointer (&opened->key_id);
      self->signed_region = g_steal_pointer (&opened->region);
      self->signed_source = g_steal_pointer (&opened->source);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIGNED_AS]);
    }
  open_result_free (opened);

  return backend;
}
