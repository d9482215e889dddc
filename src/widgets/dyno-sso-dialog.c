/* dyno-sso-dialog.c: signing in to IAM Identity Center from the app (device authorization)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-sso-dialog.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "dyno-credentials.h"

/* The dialog itself: its layout is dyno-sso-dialog.ui. */
#define DYNO_TYPE_SSO_DIALOG (dyno_sso_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoSsoDialog, dyno_sso_dialog, DYNO, SSO_DIALOG, AdwMessageDialog)

struct _DynoSsoDialog {
  AdwMessageDialog parent_instance;
};

G_DEFINE_FINAL_TYPE (DynoSsoDialog, dyno_sso_dialog, ADW_TYPE_MESSAGE_DIALOG)

static void
dyno_sso_dialog_class_init (DynoSsoDialogClass *klass)
{
  gtk_widget_class_set_template_from_resource (GTK_WIDGET_CLASS (klass),
                                               "/com/dynotable/DynoTable/dyno-sso-dialog.ui");
}

static void
dyno_sso_dialog_init (DynoSsoDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* Shared by the dialog and the signing-in thread; the dialog may go first. */
typedef struct {
  gatomicrefcount    ref_count;
  GWeakRef           dialog;
  GCancellable      *cancellable;
  char              *profile;
  gboolean           open_browser;
  DynoSsoDialogDone  done;
  gpointer           user_data;
  gboolean           finished;
} Job;

static Job *
job_ref (Job *job)
{
  g_atomic_ref_count_inc (&job->ref_count);
  return job;
}

static void
job_unref (Job *job)
{
  if (!g_atomic_ref_count_dec (&job->ref_count))
    return;
  g_weak_ref_clear (&job->dialog);
  g_clear_object (&job->cancellable);
  g_free (job->profile);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Job, job_unref)

static void
finish (Job      *job,
        gboolean  signed_in)
{
  if (job->finished)
    return;
  job->finished = TRUE;
  if (job->done != NULL)
    job->done (signed_in, job->user_data);
}

typedef struct {
  Job  *job;
  char *uri;
  char *code;
} Shown;

static gboolean
show_code_cb (gpointer data)
{
  Shown *shown = data;
  g_autoptr(GtkWidget) dialog = g_weak_ref_get (&shown->job->dialog);

  if (dialog != NULL)
    {
      g_autofree char *body = NULL;

      /* Translators: the address to open, then the code it must show. */
      body = g_strdup_printf (_("Open %s in a browser, check that it shows the code %s, and "
                                "approve the sign-in. DynoTable connects as soon as it is "
                                "approved."), shown->uri, shown->code);
      adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (dialog), body);
      if (shown->job->open_browser)
        gtk_show_uri (GTK_WINDOW (dialog), shown->uri, GDK_CURRENT_TIME);
    }
  job_unref (shown->job);
  g_free (shown->uri);
  g_free (shown->code);
  g_free (shown);
  return G_SOURCE_REMOVE;
}

/* In the signing-in thread. */
static void
prompt_cb (const char *verification_uri,
           const char *user_code,
           gpointer    user_data)
{
  Shown *shown = g_new0 (Shown, 1);

  shown->job = job_ref (user_data);
  shown->uri = g_strdup (verification_uri);
  shown->code = g_strdup (user_code);
  g_main_context_invoke (NULL, show_code_cb, shown);
}

static void
login_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(DynoSsoConfig) config = NULL;
  GError *error = NULL;

  config = dyno_sso_config_lookup (NULL, job->profile, NULL, &error);
  if (config == NULL || !dyno_sso_login (config, prompt_cb, job, NULL, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
login_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(Job) job = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GtkWidget) dialog = g_weak_ref_get (&job->dialog);

  if (g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (dialog != NULL)
        gtk_window_close (GTK_WINDOW (dialog));
      finish (job, TRUE);
      return;
    }
  if (dialog != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (dialog), _("Sign-In Failed"));
      adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (dialog), error->message);
      adw_message_dialog_set_response_label (ADW_MESSAGE_DIALOG (dialog), "cancel",
                                             _("_Close"));
    }
  finish (job, FALSE);
}

static void
response_cb (AdwMessageDialog *dialog,
             const char       *response,
             Job              *job)
{
  /* Cancel (or Close after a failure): stop polling; the thread ends soon after. */
  g_cancellable_cancel (job->cancellable);
}

GtkWidget *
dyno_sso_dialog_present (GtkWindow         *parent,
                         const char        *profile,
                         gboolean           open_browser,
                         DynoSsoDialogDone  done,
                         gpointer           user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;
  Job *job;

  g_return_val_if_fail (profile != NULL, NULL);

  job = g_new0 (Job, 1);
  g_atomic_ref_count_init (&job->ref_count);
  job->cancellable = g_cancellable_new ();
  job->profile = g_strdup (profile);
  job->open_browser = open_browser;
  job->done = done;
  job->user_data = user_data;

  /* Translators: the profile. */
  body = g_strdup_printf (_("Starting the sign-in of the profile “%s” to IAM Identity "
                            "Center…"), profile);
  dialog = g_object_new (DYNO_TYPE_SSO_DIALOG,
                         "transient-for", parent,
                         "body", body,
                         NULL);
  g_weak_ref_init (&job->dialog, dialog);
  g_signal_connect_data (dialog, "response", G_CALLBACK (response_cb), job_ref (job),
                         (GClosureNotify) (void (*) (void)) job_unref, 0);

  task = g_task_new (NULL, job->cancellable, login_done_cb, job_ref (job));
  g_task_set_source_tag (task, dyno_sso_dialog_present);
  g_task_set_task_data (task, job, (GDestroyNotify) job_unref);
  g_task_run_in_thread (task, login_thread);

  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}
