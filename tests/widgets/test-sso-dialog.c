/* test-sso-dialog.c: the app signs in to IAM Identity Center with the device flow, against a
 * stand-in SSO-OIDC in a thread of its own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <string.h>

#include "dyno-aws-auth.h"
#include "dyno-sso-dialog.h"
#include "widget-test-util.h"

#define USER_CODE "ABCD-1234"

typedef struct {
  GThread      *thread;
  GMainContext *context;
  GMainLoop    *loop;
  SoupServer   *server;
  char         *url;
  gint          n_polls;       /* atomic */
  gint          approve;       /* atomic: answer the token after one pending poll */
  GMutex        lock;
  GCond         ready;
  gboolean      started;
} StubOidc;

static void
answer (SoupServerMessage *msg,
        guint              status,
        const char        *json)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, json,
                                    strlen (json));
}

static void
stub_cb (SoupServer        *server,
         SoupServerMessage *msg,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  StubOidc *stub = user_data;

  if (g_str_equal (path, "/client/register"))
    answer (msg, 200, "{\"clientId\":\"cid\",\"clientSecret\":\"csecret\","
                      "\"clientSecretExpiresAt\":4102444800}");
  else if (g_str_equal (path, "/device_authorization"))
    {
      g_autofree char *json = g_strdup_printf ("{\"deviceCode\":\"dev\",\"userCode\":\"" USER_CODE
                                               "\",\"verificationUri\":\"%s/approve\","
                                               "\"expiresIn\":600,\"interval\":1}", stub->url);
      answer (msg, 200, json);
    }
  else if (g_str_equal (path, "/token"))
    {
      gint n = g_atomic_int_add (&stub->n_polls, 1);

      if (n == 0 || !g_atomic_int_get (&stub->approve))
        answer (msg, 400, "{\"error\":\"authorization_pending\"}");
      else
        answer (msg, 200, "{\"accessToken\":\"the-token\",\"expiresIn\":3600,"
                          "\"refreshToken\":\"the-refresh\"}");
    }
  else
    answer (msg, 404, "{}");
}

static gpointer
stub_thread (gpointer data)
{
  StubOidc *stub = data;
  g_autoptr(GError) error = NULL;
  GSList *uris;

  g_main_context_push_thread_default (stub->context);
  stub->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (stub->server, "/", stub_cb, stub, NULL);
  {
    g_autoptr(GSocketAddress) address = g_inet_socket_address_new_from_string ("127.0.0.1", 0);

    /* soup_server_listen_local() leaks its address in libsoup 3.2 */
    g_assert_true (soup_server_listen (stub->server, address, 0, &error));
  }
  uris = soup_server_get_uris (stub->server);
  stub->url = g_uri_to_string (uris->data);
  if (g_str_has_suffix (stub->url, "/"))
    stub->url[strlen (stub->url) - 1] = '\0';
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  g_mutex_lock (&stub->lock);
  stub->started = TRUE;
  g_cond_signal (&stub->ready);
  g_mutex_unlock (&stub->lock);
  g_main_loop_run (stub->loop);
  soup_server_disconnect (stub->server);
  g_clear_object (&stub->server);
  g_main_context_pop_thread_default (stub->context);
  return NULL;
}

static gboolean
quit_cb (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

typedef struct {
  StubOidc  *stub;
  char      *home;
  char      *cache;
  GtkWindow *parent;
  gboolean   done;
  gboolean   signed_in;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *config = NULL;
  g_autofree char *aws = NULL;
  StubOidc *stub = g_new0 (StubOidc, 1);

  stub->context = g_main_context_new ();
  stub->loop = g_main_loop_new (stub->context, FALSE);
  g_mutex_init (&stub->lock);
  g_cond_init (&stub->ready);
  stub->thread = g_thread_new ("stub-oidc", stub_thread, stub);
  g_mutex_lock (&stub->lock);
  while (!stub->started)
    g_cond_wait (&stub->ready, &stub->lock);
  g_mutex_unlock (&stub->lock);
  f->stub = stub;

  f->home = g_dir_make_tmp ("dyno-sso-XXXXXX", NULL);
  aws = g_build_filename (f->home, ".aws", NULL);
  g_assert_cmpint (g_mkdir (aws, 0700), ==, 0);
  config = g_build_filename (aws, "config", NULL);
  g_assert_true (g_file_set_contents (config,
                                      "[profile s]\nsso_session = corp\nsso_account_id = 1\n"
                                      "sso_role_name = R\n[sso-session corp]\n"
                                      "sso_start_url = https://corp.example/start\n"
                                      "sso_region = eu-west-1\n", -1, NULL));
  g_setenv ("HOME", f->home, TRUE);
  g_setenv ("AWS_CONFIG_FILE", config, TRUE);
  g_unsetenv ("AWS_PROFILE");
  g_unsetenv ("AWS_ENDPOINT_URL");
  g_setenv ("AWS_ENDPOINT_URL_SSO_OIDC", stub->url, TRUE);
  f->cache = dyno_sso_cache_path (f->home, "corp");
  f->parent = GTK_WINDOW (gtk_window_new ());
  gtk_window_present (f->parent);
}

static void
rm_rf (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR))
            rm_rf (child);
          else
            g_unlink (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (f->parent);
  g_main_context_invoke (f->stub->context, quit_cb, f->stub->loop);
  g_thread_join (f->stub->thread);
  g_main_loop_unref (f->stub->loop);
  g_main_context_unref (f->stub->context);
  g_free (f->stub->url);
  g_free (f->stub);
  rm_rf (f->home);
  g_free (f->home);
  g_free (f->cache);
}

static void
done_cb (gboolean signed_in,
         gpointer user_data)
{
  Fixture *f = user_data;

  f->done = TRUE;
  f->signed_in = signed_in;
}

/* Runs the main context until the dialog shows the code. */
static void
wait_for_code (GtkWidget *dialog)
{
  while (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), USER_CODE) == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_signed_in (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(DynoSsoToken) token = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *dialog;
  const char *body;

  g_atomic_int_set (&f->stub->approve, TRUE);
  dialog = dyno_sso_dialog_present (f->parent, "s", FALSE, done_cb, f);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  wait_for_code (dialog);
  body = adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog));
  g_assert_nonnull (strstr (body, "/approve"));
  while (!f->done)
    g_main_context_iteration (NULL, TRUE);
  drain_main_context ();
  g_assert_true (f->signed_in);
  /* approved: the dialog went away by itself */
  g_assert_true (dialog == NULL || !gtk_widget_get_visible (dialog));
  g_assert_cmpint (g_atomic_int_get (&f->stub->n_polls), >=, 2);
  token = dyno_sso_token_load (f->cache, &error);
  g_assert_no_error (error);
  g_assert_nonnull (token);
  g_assert_cmpstr (token->access_token, ==, "the-token");
  g_assert_cmpstr (token->refresh_token, ==, "the-refresh");
  g_assert_cmpstr (token->client_id, ==, "cid");
  g_assert_cmpstr (token->start_url, ==, "https://corp.example/start");
}

static void
test_cancelled (Fixture       *f,
                gconstpointer  data)
{
  GtkWidget *dialog = dyno_sso_dialog_present (f->parent, "s", FALSE, done_cb, f);

  wait_for_code (dialog);
  /* what a person sees: the heading and a Cancel button, which Escape also answers */
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==,
                   "Sign In to IAM Identity Center");
  g_assert_cmpstr (adw_message_dialog_get_response_label (ADW_MESSAGE_DIALOG (dialog),
                                                          "cancel"), ==, "_Cancel");
  g_assert_cmpstr (adw_message_dialog_get_close_response (ADW_MESSAGE_DIALOG (dialog)), ==,
                   "cancel");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_window_close (GTK_WINDOW (dialog));
  while (!f->done)
    g_main_context_iteration (NULL, TRUE);
  drain_main_context ();
  g_assert_false (f->signed_in);
  g_assert_false (g_file_test (f->cache, G_FILE_TEST_EXISTS));
}

static void
test_not_sso (Fixture       *f,
              gconstpointer  data)
{
  GtkWidget *dialog = dyno_sso_dialog_present (f->parent, "nowhere", FALSE, done_cb, f);
  const char *body;

  while (!f->done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (f->signed_in);
  /* the failure stays on screen, named */
  body = adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog));
  g_assert_nonnull (strstr (body, "“nowhere”"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);

  ADD ("/sso-dialog/signed-in", test_signed_in);
  ADD ("/sso-dialog/cancelled", test_cancelled);
  ADD ("/sso-dialog/not-sso", test_not_sso);

  return g_test_run ();
}
