/* test-mfa-dialog.c: the MFA code asked for in a dialog while a resolution thread waits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-mfa-dialog.h"
#include "widget-test-util.h"

static GtkWindow *parent;

typedef struct {
  const char *previous;
  char   *code;
  GError *error;
  gint    done;   /* atomic */
} Asked;

static gpointer
ask_thread (gpointer data)
{
  Asked *asked = data;

  asked->code = dyno_mfa_dialog_ask (parent, "dev", "arn:aws:iam::1:mfa/me", asked->previous,
                                     &asked->error);
  g_atomic_int_set (&asked->done, 1);
  return NULL;
}

/* The dialog that the thread made appear, found among the toplevels as a person sees it. */
static GtkWidget *
wait_for_dialog (void)
{
  for (;;)
    {
      GListModel *toplevels = gtk_window_get_toplevels ();

      for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
        {
          g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

          if (ADW_IS_MESSAGE_DIALOG (window)
              && g_strcmp0 (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (window)),
                            "MFA Code") == 0
              && gtk_widget_get_visible (window))
            return window;
        }
      g_main_context_iteration (NULL, TRUE);
    }
}

/* The field the dialog asks for the code in. */
static GtkWidget *
code_field (GtkWidget *dialog)
{
  GtkWidget *field = adw_message_dialog_get_extra_child (ADW_MESSAGE_DIALOG (dialog));

  g_assert_true (GTK_IS_ENTRY (field));
  return field;
}

static void
wait_done (Asked *asked)
{
  while (!g_atomic_int_get (&asked->done))
    g_main_context_iteration (NULL, FALSE);
}

static void
test_code_given (void)
{
  Asked asked = { 0 };
  GThread *thread = g_thread_new ("ask", ask_thread, &asked);
  GtkWidget *dialog = wait_for_dialog ();
  const char *body = adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog));

  g_assert_nonnull (strstr (body, "“dev”"));
  g_assert_nonnull (strstr (body, "arn:aws:iam::1:mfa/me"));
  type_text (code_field (dialog), " 123456 ");
  /* Enter in the field answers like the default button */
  g_signal_emit_by_name (code_field (dialog), "activate");
  wait_done (&asked);
  g_thread_join (thread);
  g_assert_no_error (asked.error);
  g_assert_cmpstr (asked.code, ==, "123456");
  g_free (asked.code);
  drain_main_context ();
}

static void
test_cancelled (void)
{
  Asked asked = { 0 };
  GThread *thread = g_thread_new ("ask", ask_thread, &asked);
  GtkWidget *dialog = wait_for_dialog ();

  type_text (code_field (dialog), "999999");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_window_close (GTK_WINDOW (dialog));
  wait_done (&asked);
  g_thread_join (thread);
  g_assert_null (asked.code);
  g_assert_error (asked.error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  g_assert_nonnull (strstr (asked.error->message, "“dev”"));
  g_clear_error (&asked.error);
  drain_main_context ();
}

static void
test_asked_again (void)
{
  Asked asked = { "AccessDenied: MultiFactorAuthentication failed", NULL, NULL, 0 };
  GThread *thread = g_thread_new ("ask", ask_thread, &asked);
  GtkWidget *dialog = wait_for_dialog ();
  const char *body = adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog));

  g_assert_nonnull (strstr (body, "not accepted"));
  g_assert_nonnull (strstr (body, "MultiFactorAuthentication failed"));
  type_text (code_field (dialog), "111111");
  g_signal_emit_by_name (code_field (dialog), "activate");
  wait_done (&asked);
  g_thread_join (thread);
  g_assert_cmpstr (asked.code, ==, "111111");
  g_free (asked.code);
  drain_main_context ();
}

static void
test_not_on_the_main_thread (void)
{
  g_autoptr(GError) error = NULL;

  /* the main thread cannot wait for its own dialog */
  g_assert_null (dyno_mfa_dialog_ask (NULL, "dev", "arn:aws:iam::1:mfa/me", NULL, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);
  dyno_mfa_dialog_install (NULL);
  parent = GTK_WINDOW (gtk_window_new ());
  gtk_window_present (parent);

  g_test_add_func ("/mfa-dialog/code-given", test_code_given);
  g_test_add_func ("/mfa-dialog/cancelled", test_cancelled);
  g_test_add_func ("/mfa-dialog/asked-again", test_asked_again);
  g_test_add_func ("/mfa-dialog/not-on-the-main-thread", test_not_on_the_main_thread);

  return g_test_run ();
}
