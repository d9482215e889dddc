/* dyno-mfa-dialog.c: asks for the code of an MFA device when a profile's role needs one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-mfa-dialog.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-credentials.h"
#include "dyno-error.h"

/* The dialog itself: its layout is dyno-mfa-dialog.ui. */
#define DYNO_TYPE_MFA_DIALOG (dyno_mfa_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoMfaDialog, dyno_mfa_dialog, DYNO, MFA_DIALOG, AdwMessageDialog)

struct _DynoMfaDialog {
  AdwMessageDialog  parent_instance;
  GtkWidget        *code_entry;
};

G_DEFINE_FINAL_TYPE (DynoMfaDialog, dyno_mfa_dialog, ADW_TYPE_MESSAGE_DIALOG)

static void
code_activate_cb (GtkEntry      *entry,
                  DynoMfaDialog *self)
{
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (self), "sign-in");
  gtk_window_close (GTK_WINDOW (self));
}

static void
dyno_mfa_dialog_class_init (DynoMfaDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-mfa-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoMfaDialog, code_entry);
  gtk_widget_class_bind_template_callback (widget_class, code_activate_cb);
}

static void
dyno_mfa_dialog_init (DynoMfaDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

static GThread *ui_thread;   /* where dyno_mfa_dialog_install() ran: the one running GTK */

typedef struct {
  GMutex     lock;
  GCond      answered;
  gboolean   done;
  char      *code;       /* NULL: cancelled */
  GtkWindow *parent;
  char      *profile;
  char      *mfa_serial;
  char      *previous_error;
} Request;

static void
finish (Request    *request,
        const char *code)
{
  g_mutex_lock (&request->lock);
  request->code = code != NULL && *code != '\0' ? g_strdup (code) : NULL;
  request->done = TRUE;
  g_cond_signal (&request->answered);
  g_mutex_unlock (&request->lock);
}

static void
response_cb (AdwMessageDialog *dialog,
             const char       *response,
             gpointer          user_data)
{
  Request *request = user_data;
  g_autofree char *code = NULL;

  /* Once: closing the dialog after a response may emit the close response too, and the
   * request lives on the waiting thread's stack only until it is answered. */
  g_signal_handlers_disconnect_by_data (dialog, request);
  if (g_strcmp0 (response, "sign-in") == 0)
    code = g_strstrip (g_strdup (gtk_editable_get_text (
                         GTK_EDITABLE (DYNO_MFA_DIALOG (dialog)->code_entry))));
  finish (request, code);
}

static gboolean
show_dialog_cb (gpointer user_data)
{
  Request *request = user_data;
  g_autofree char *body = NULL;
  DynoMfaDialog *dialog;

  if (request->previous_error != NULL)
    /* Translators: STS's reason, the profile, then the MFA device. */
    body = g_strdup_printf (_("The code was not accepted (%s). Enter a new code from the MFA "
                              "device %s for the profile “%s”."), request->previous_error,
                            request->mfa_serial, request->profile);
  else
    body = g_strdup_printf (_("The profile “%s” assumes a role that needs a code from the MFA "
                              "device %s."), request->profile, request->mfa_serial);
  dialog = g_object_new (DYNO_TYPE_MFA_DIALOG,
                         "transient-for", request->parent,
                         "body", body,
                         NULL);
  g_signal_connect (dialog, "response", G_CALLBACK (response_cb), request);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (dialog->code_entry);
  return G_SOURCE_REMOVE;
}

char *
dyno_mfa_dialog_ask (GtkWindow   *parent,
                     const char  *profile,
                     const char  *mfa_serial,
                     const char  *previous_error,
                     GError     **error)
{
  Request request = { 0 };
  char *code;

  if (g_thread_self () == ui_thread || g_main_context_is_owner (g_main_context_default ()))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The profile “%s” needs a code from the MFA device %s, and it cannot be "
                     "asked for here."), profile, mfa_serial);
      return NULL;
    }
  g_mutex_init (&request.lock);
  g_cond_init (&request.answered);
  request.parent = parent;
  request.profile = g_strdup (profile);
  request.mfa_serial = g_strdup (mfa_serial);
  request.previous_error = g_strdup (previous_error);
  g_main_context_invoke (NULL, show_dialog_cb, &request);
  g_mutex_lock (&request.lock);
  while (!request.done)
    g_cond_wait (&request.answered, &request.lock);
  g_mutex_unlock (&request.lock);
  code = g_steal_pointer (&request.code);
  g_free (request.profile);
  g_free (request.mfa_serial);
  g_free (request.previous_error);
  g_mutex_clear (&request.lock);
  g_cond_clear (&request.answered);
  if (code == NULL)
    g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                 _("No MFA code was given for the profile “%s”: connect again to enter it."),
                 profile);
  return code;
}

static char *
prompt_cb (const char  *profile,
           const char  *mfa_serial,
           const char  *previous_error,
           gpointer     user_data,
           GError     **error)
{
  GtkApplication *app = user_data;

  return dyno_mfa_dialog_ask (app != NULL ? gtk_application_get_active_window (app) : NULL,
                              profile, mfa_serial, previous_error, error);
}

void
dyno_mfa_dialog_install (GtkApplication *app)
{
  ui_thread = g_thread_self ();
  dyno_credentials_set_mfa_prompt (prompt_cb, app);
}
