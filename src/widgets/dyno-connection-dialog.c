/* dyno-connection-dialog.c: add or edit a connection, and test it before saving
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "dyno-application.h"
#include "dyno-connection-dialog.h"
#include "dyno-credentials.h"
#include "dyno-endpoints.h"
#include "dyno-keyring.h"
#include "dyno-table-names.h"

struct _DynoConnectionDialog
{
  AdwWindow       parent_instance;

  DynoConnection *connection;    /* NULL for a new one */
  DynoConnection *testing;       /* the unsaved connection under test */
  GCancellable   *cancellable;

  GtkWidget      *save_button;
  GtkWidget      *kind_row;
  GtkWidget      *sign_as_row;
  GtkWidget      *name_row;
  GtkWidget      *endpoint_row;
  GtkWidget      *region_row;
  GtkWidget      *profile_row;
  GtkWidget      *sandbox_label;  /* what the Flatpak lets a profile use */
  gboolean        sandboxed;
  GtkWidget      *access_key_row;
  GtkWidget      *secret_row;
  GtkWidget      *test_button;
  GtkWidget      *test_spinner;
  GtkWidget      *test_label;
  GtkWidget      *error_label;

  GStrv           profiles;       /* from the AWS files, NULL when they could not be read */
  char           *profiles_error;
};

G_DEFINE_FINAL_TYPE (DynoConnectionDialog, dyno_connection_dialog, ADW_TYPE_WINDOW)

static DynoConnectionKind
selected_kind (DynoConnectionDialog *self)
{
  return (DynoConnectionKind) adw_combo_row_get_selected (ADW_COMBO_ROW (self->kind_row));
}

static DynoSignAs
selected_sign_as (DynoConnectionDialog *self)
{
  return (DynoSignAs) adw_combo_row_get_selected (ADW_COMBO_ROW (self->sign_as_row));
}

static gboolean
uses_profile (DynoConnectionDialog *self)
{
  return selected_kind (self) == DYNO_CONNECTION_PROFILE
         || (selected_kind (self) == DYNO_CONNECTION_LOCAL
             && selected_sign_as (self) == DYNO_SIGN_AS_PROFILE);
}

static gboolean
uses_key_id (DynoConnectionDialog *self)
{
  return selected_kind (self) == DYNO_CONNECTION_KEYS
         || (selected_kind (self) == DYNO_CONNECTION_LOCAL
             && selected_sign_as (self) == DYNO_SIGN_AS_KEY);
}

static const char *
row_text (GtkWidget *row)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (row));
  return (text && *text) ? text : NULL;
}

static void
update_rows (DynoConnectionDialog *self)
{
  DynoConnectionKind kind = selected_kind (self);

  gtk_widget_set_visible (self->endpoint_row, TRUE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->endpoint_row),
                                 kind == DYNO_CONNECTION_LOCAL ? _("Endpoint URL")
                                                               : _("Endpoint URL (optional)"));
  gtk_widget_set_visible (self->sign_as_row, kind == DYNO_CONNECTION_LOCAL);
  gtk_widget_set_visible (self->profile_row, uses_profile (self));
  gtk_widget_set_visible (self->sandbox_label, self->sandboxed && uses_profile (self));
  gtk_widget_set_visible (self->access_key_row, uses_key_id (self));
  /* DynamoDB Local does not check the secret: only real access keys ask for it */
  gtk_widget_set_visible (self->secret_row, kind == DYNO_CONNECTION_KEYS);
}

/* Checks the fields; returns a message for the first problem, or NULL. */
static char *
check_fields (DynoConnectionDialog *self)
{
  DynoConnectionKind kind = selected_kind (self);
  const char *endpoint = row_text (self->endpoint_row);
  const char *region = row_text (self->region_row);
  g_autoptr(GError) error = NULL;

  if (kind == DYNO_CONNECTION_LOCAL && endpoint == NULL)
    return g_strdup (_("Enter the endpoint URL of DynamoDB Local, e.g. http://localhost:8000"));
  if (endpoint != NULL && !dyno_endpoint_validate_url (endpoint, &error))
    return g_strdup (error->message);
  if (region != NULL && !dyno_endpoint_region_is_valid (region))
    return g_strdup_printf (_("“%s” is not an AWS region name (like eu-west-1)"), region);
  if (uses_profile (self) && kind == DYNO_CONNECTION_LOCAL && row_text (self->profile_row) == NULL)
    return g_strdup (_("Enter the profile to sign as, from ~/.aws/config or ~/.aws/credentials"));
  if (uses_profile (self) && row_text (self->profile_row) != NULL)
    {
      const char *profile = row_text (self->profile_row);

      if (self->profiles == NULL)
        return g_strdup (self->profiles_error);
      if (!g_strv_contains ((const char * const *) self->profiles, profile))
        {
          g_autoptr(GString) known = g_string_new (NULL);

          /* each with how it signs in: "dev (access keys), corp (IAM Identity Center)" */
          for (guint i = 0; self->profiles[i] != NULL; i++)
            {
              DynoCredentialKind profile_kind = dyno_aws_profile_kind (NULL, self->profiles[i]);

              if (known->len > 0)
                g_string_append (known, ", ");
              g_string_append (known, self->profiles[i]);
              if (profile_kind != DYNO_CREDENTIAL_KIND_NONE)
                g_string_append_printf (known, " (%s)",
                                        dyno_credential_kind_get_label (profile_kind));
            }

          if (self->profiles[0] == NULL)
            return g_strdup_printf (_("There is no profile “%s”: ~/.aws/config and "
                                      "~/.aws/credentials have no profiles"), profile);
          /* Translators: the profile typed, then the profiles found, comma-separated */
          return g_strdup_printf (_("There is no profile “%s” in ~/.aws/config or "
                                    "~/.aws/credentials; they have: %s"), profile, known->str);
        }
    }
  if (uses_key_id (self) && row_text (self->access_key_row) == NULL)
    return g_strdup (_("Enter the access key ID"));
  if (kind == DYNO_CONNECTION_LOCAL && uses_key_id (self))
    {
      /* DynamoDB Local answers UnrecognizedClientException to anything else */
      for (const char *p = row_text (self->access_key_row); *p != '\0'; p++)
        if (!g_ascii_isalnum (*p))
          return g_strdup (_("DynamoDB Local accepts only letters and digits in an access "
                             "key ID"));
    }
  if (kind == DYNO_CONNECTION_KEYS && self->connection == NULL &&
      row_text (self->secret_row) == NULL)
    return g_strdup (_("Enter the secret access key"));

  return NULL;
}

static void
fields_changed_cb (DynoConnectionDialog *self)
{
  g_autofree char *problem = NULL;

  update_rows (self);
  problem = check_fields (self);
  gtk_label_set_label (GTK_LABEL (self->error_label), problem ? problem : "");
  gtk_widget_set_visible (self->error_label, problem != NULL);
  gtk_widget_set_sensitive (self->save_button, problem == NULL);
  gtk_widget_set_sensitive (self->test_button, problem == NULL);
}

static void
apply_to (DynoConnectionDialog *self,
          DynoConnection       *connection)
{
  dyno_connection_set_name (connection, row_text (self->name_row));
  dyno_connection_set_endpoint_url (connection, row_text (self->endpoint_row));
  dyno_connection_set_region (connection, row_text (self->region_row));
  dyno_connection_set_profile (connection, uses_profile (self) ? row_text (self->profile_row)
                                                               : NULL);
  dyno_connection_set_access_key_id (connection, uses_key_id (self)
                                                 ? row_text (self->access_key_row) : NULL);
  if (selected_kind (self) == DYNO_CONNECTION_LOCAL)
    dyno_connection_set_sign_as (connection, selected_sign_as (self));
}

static void
list_tables_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(DynoConnectionDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = dyno_table_names_list_finish (DYNO_BACKEND (object), result, &error);

  gtk_spinner_set_spinning (GTK_SPINNER (self->test_spinner), FALSE);
  if (names == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_label_set_label (GTK_LABEL (self->test_label), error->message);
          gtk_widget_add_css_class (self->test_label, "error");
        }
      return;
    }

  {
    guint n = g_strv_length (names);
    g_autofree char *text = NULL;

    if (dyno_connection_get_signed_key_id (self->testing) != NULL)
      /* Translators: the access key ID, the region, then the number of tables */
      text = g_strdup_printf (g_dngettext (NULL, "Connected as %s in %s: %u table",
                                           "Connected as %s in %s: %u tables", n),
                              dyno_connection_get_signed_key_id (self->testing),
                              dyno_connection_get_signed_region (self->testing), n);
    else
      text = g_strdup_printf (g_dngettext (NULL, "Connected: %u table",
                                           "Connected: %u tables", n), n);

    gtk_label_set_label (GTK_LABEL (self->test_label), text);
    gtk_widget_remove_css_class (self->test_label, "error");
    gtk_widget_add_css_class (self->test_label, "success");
  }
}

static void
open_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(DynoConnectionDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoBackend) backend = dyno_connection_open_finish (DYNO_CONNECTION (object), result,
                                                                &error);

  if (backend == NULL)
    {
      gtk_spinner_set_spinning (GTK_SPINNER (self->test_spinner), FALSE);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_label_set_label (GTK_LABEL (self->test_label), error->message);
          gtk_widget_add_css_class (self->test_label, "error");
        }
      return;
    }

  dyno_table_names_list_async (backend, self->cancellable, list_tables_cb, g_object_ref (self));
}

static void
store_for_test_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(DynoConnectionDialog) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!dyno_keyring_store_finish (result, &error))
    {
      gtk_spinner_set_spinning (GTK_SPINNER (self->test_spinner), FALSE);
      gtk_label_set_label (GTK_LABEL (self->test_label), error->message);
      gtk_widget_add_css_class (self->test_label, "error");
      return;
    }

  dyno_connection_open_async (self->testing, self->cancellable, open_cb, g_object_ref (self));
}

static void
test_clicked_cb (DynoConnectionDialog *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  g_clear_object (&self->testing);
  self->testing = dyno_connection_new (selected_kind (self));
  apply_to (self, self->testing);

  gtk_widget_remove_css_class (self->test_label, "error");
  gtk_widget_remove_css_class (self->test_label, "success");
  gtk_label_set_label (GTK_LABEL (self->test_label), _("Connecting…"));
  gtk_spinner_set_spinning (GTK_SPINNER (self->test_spinner), TRUE);

  /* The secret goes to the keyring under the test connection's id, never to a file. */
  if (selected_kind (self) == DYNO_CONNECTION_KEYS && row_text (self->secret_row) != NULL)
    dyno_keyring_store_async (dyno_connection_get_id (self->testing), "DynoTable (test)",
                              row_text (self->secret_row), NULL, self->cancellable,
                              store_for_test_cb, g_object_ref (self));
  else
    dyno_connection_open_async (self->testing, self->cancellable, open_cb, g_object_ref (self));
}

static void
save_clicked_cb (DynoConnectionDialog *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  DynoConnectionStore *store;
  g_autoptr(DynoConnection) connection = NULL;
  g_autoptr(GError) error = NULL;

  if (app == NULL && parent != NULL)
    app = gtk_window_get_application (parent);
  store = dyno_application_get_connection_store (DYNO_APPLICATION (app));

  connection = self->connection ? g_object_ref (self->connection)
                                : dyno_connection_new (selected_kind (self));
  apply_to (self, connection);

  if (selected_kind (self) == DYNO_CONNECTION_KEYS && row_text (self->secret_row) != NULL)
    {
      g_autofree char *label = g_strdup_printf ("DynoTable: %s",
                                                dyno_connection_get_name (connection));

      if (!dyno_keyring_store_sync (dyno_connection_get_id (connection), label,
                                    row_text (self->secret_row), NULL, NULL, &error))
        {
          /* Nothing is saved without its secret: the dialog stays open with the message. */
          gtk_label_set_label (GTK_LABEL (self->error_label), error->message);
          gtk_widget_set_visible (self->error_label, TRUE);
          return;
        }
    }

  if (self->connection == NULL)
    dyno_connection_store_add (store, connection);
  if (!dyno_connection_store_save (store, &error))
    {
      gtk_label_set_label (GTK_LABEL (self->error_label), error->message);
      gtk_widget_set_visible (self->error_label, TRUE);
      return;
    }

  gtk_window_destroy (GTK_WINDOW (self));
}

static void
dyno_connection_dialog_dispose (GObject *object)
{
  DynoConnectionDialog *self = DYNO_CONNECTION_DIALOG (object);

  g_cancellable_cancel (self->cancellable);

  /* a secret stored only to test an unsaved connection must not stay behind */
  if (self->testing != NULL && dyno_connection_get_kind (self->testing) == DYNO_CONNECTION_KEYS)
    dyno_keyring_delete_async (dyno_connection_get_id (self->testing), NULL, NULL, NULL);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->connection);
  g_clear_object (&self->testing);

  G_OBJECT_CLASS (dyno_connection_dialog_parent_class)->dispose (object);
}

static void
dyno_connection_dialog_finalize (GObject *object)
{
  DynoConnectionDialog *self = DYNO_CONNECTION_DIALOG (object);

  g_strfreev (self->profiles);
  g_free (self->profiles_error);

  G_OBJECT_CLASS (dyno_connection_dialog_parent_class)->finalize (object);
}

static void
dyno_connection_dialog_class_init (DynoConnectionDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_connection_dialog_dispose;
  object_class->finalize = dyno_connection_dialog_finalize;

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/com/dynotable/DynoTable/dyno-connection-dialog.ui");
#define BIND(member) \
  gtk_widget_class_bind_template_child (widget_class, DynoConnectionDialog, member)
  BIND (save_button);
  BIND (kind_row);
  BIND (sign_as_row);
  BIND (name_row);
  BIND (endpoint_row);
  BIND (region_row);
  BIND (profile_row);
  BIND (sandbox_label);
  BIND (access_key_row);
  BIND (secret_row);
  BIND (test_button);
  BIND (test_spinner);
  BIND (test_label);
  BIND (error_label);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, save_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, test_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, fields_changed_cb);
}

static void
dyno_connection_dialog_init (DynoConnectionDialog *self)
{
  g_autoptr(GError) error = NULL;

  /* The profiles are read once: they check the profile field as it is typed. */
  self->profiles = dyno_aws_list_profiles (NULL, &error);
  if (self->profiles == NULL)
    self->profiles_error = g_strdup (error->message);

  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    {
      g_autofree char *text =
        g_strdup_printf (_("In the Flatpak, DynoTable reads ~/.aws/config, ~/.aws/credentials "
                           "and the sign-in cache in ~/.aws/sso/cache, but no file that "
                           "AWS_CONFIG_FILE names elsewhere. A profile’s credential_process "
                           "runs on your computer only once you allow it: flatpak override "
                           "--user --talk-name=org.freedesktop.Flatpak %s"), APP_ID);

      self->sandboxed = TRUE;
      gtk_label_set_label (GTK_LABEL (self->sandbox_label), text);
    }
  fields_changed_cb (self);
}

DynoConnectionDialog *
dyno_connection_dialog_new (GtkWindow      *parent,
                            DynoConnection *connection)
{
  DynoConnectionDialog *self = g_object_new (DYNO_TYPE_CONNECTION_DIALOG,
                                             "transient-for", parent,
                                             "application",
                                             parent ? gtk_window_get_application (parent) : NULL,
                                             NULL);

  if (connection != NULL)
    {
      self->connection = g_object_ref (connection);
      gtk_window_set_title (GTK_WINDOW (self), _("Edit Connection"));
      adw_combo_row_set_selected (ADW_COMBO_ROW (self->kind_row),
                                  dyno_connection_get_kind (connection));
      gtk_widget_set_sensitive (self->kind_row, FALSE);
      if (dyno_connection_get_kind (connection) == DYNO_CONNECTION_LOCAL)
        adw_combo_row_set_selected (ADW_COMBO_ROW (self->sign_as_row),
                                    dyno_connection_get_sign_as (connection));
      gtk_editable_set_text (GTK_EDITABLE (self->name_row), dyno_connection_get_name (connection));
      gtk_editable_set_text (GTK_EDITABLE (self->endpoint_row),
                             dyno_connection_get_endpoint_url (connection) ?: "");
      gtk_editable_set_text (GTK_EDITABLE (self->region_row),
                             dyno_connection_get_region (connection) ?: "");
      gtk_editable_set_text (GTK_EDITABLE (self->profile_row),
                             dyno_connection_get_profile (connection) ?: "");
      gtk_editable_set_text (GTK_EDITABLE (self->access_key_row),
                             dyno_connection_get_access_key_id (connection) ?: "");
      fields_changed_cb (self);
    }

  return self;
}
