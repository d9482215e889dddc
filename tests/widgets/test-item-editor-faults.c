/* test-item-editor-faults.c: the item editor's save through a fault-injecting proxy
 *
 * The real DynoItemEditor saves with a real DynoHttpBackend pointed at
 * tests/fixtures/fault_proxy.py (run as a subprocess) in front of DynamoDB Local.  For every
 * fault, a new item and an edit, once (a retry gets through) and for ever (every attempt of
 * the write meets it): the save must end (saved, or an error shown) and the table, read back
 * directly with a consistent GetItem, must be exactly what the editor told the user.
 *
 * Run through tests/fixtures/with-ddb-local.sh (DYNO_TEST_ENDPOINT), with-keyring.sh and
 * with-xvfb.sh.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "dyno-backend.h"
#include "dyno-credentials.h"
#include "dyno-http-backend.h"
#include "dyno-item-editor.h"
#include "dyno-item-text.h"
#include "dyno-json.h"
#include "widget-test-util.h"

#define TABLE_PREFIX "editor-faults"
/* Long enough for four attempts each stalled 2 s on a busy machine; the save must end well
 * before (this bounds the test, it does not time the editor). */
#define END_WAIT_SECONDS 90

static const char *endpoint;
static char *table;
static DynoBackend *direct;   /* straight to DynamoDB Local, for set-up and checks */

/* ---- direct calls ---------------------------------------------------------------------------- */

static void
result_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static JsonNode *
call (const char *operation,
      const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) body = json_from_string (json, &error);
  GAsyncResult *result = NULL;
  JsonNode *response;

  g_assert_no_error (error);
  dyno_backend_call_json_async (direct, operation, body, NULL, result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  response = dyno_backend_call_json_finish (direct, result, &error);
  g_object_unref (result);
  if (error != NULL)
    g_error ("%s: %s", operation, error->message);
  return response;
}

/* The item as stored now (consistent read), or NULL when there is none. */
static DynoItem *
stored_item (const char *pk)
{
  g_autofree char *json = g_strdup_printf ("{\"TableName\":\"%s\",\"ConsistentRead\":true,"
                                           "\"Key\":{\"pk\":{\"S\":\"%s\"},"
                                           "\"sk\":{\"S\":\"A\"}}}", table, pk);
  g_autoptr(JsonNode) response = call ("GetItem", json);
  JsonObject *object = json_node_get_object (response);
  g_autoptr(GError) error = NULL;
  DynoItem *item;

  if (!json_object_has_member (object, "Item"))
    return NULL;
  item = dyno_item_from_json_node (json_object_get_member (object, "Item"), &error);
  g_assert_no_error (error);
  return item;
}

static DynoItem *
item (const char *ddb_json)
{
  g_autoptr(GError) error = NULL;
  DynoItem *result = dyno_item_from_ddb_json (ddb_json, -1, &error);

  g_assert_no_error (error);
  return result;
}

static DynoBackend *
backend_for (const char *url)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoCredentials) creds = dyno_credentials_new ("fakeMyKeyId", "fakeSecretAccessKey",
                                                           NULL, NULL);
  DynoHttpBackend *backend = dyno_http_backend_new_for_endpoint (url, "us-east-1", creds, &error);

  g_assert_no_error (error);
  return DYNO_BACKEND (backend);
}

/* ---- the proxy ------------------------------------------------------------------------------- */

typedef struct {
  GSubprocess *process;
  char        *url;
} Proxy;

/* python3 fault_proxy.py ENDPOINT RULE: it prints its URL, then serves until stdin closes. */
static Proxy *
proxy_start (const char *rule)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *script = g_build_filename (TEST_SRCDIR, "fixtures", "fault_proxy.py", NULL);
  g_autoptr(GDataInputStream) out = NULL;
  Proxy *proxy = g_new0 (Proxy, 1);

  proxy->process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                     G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                     "/usr/bin/python3", script, endpoint, rule, NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (proxy->process));
  proxy->url = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (proxy->url);
  g_assert_true (g_str_has_prefix (proxy->url, "http://127.0.0.1:"));
  return proxy;
}

static void
proxy_stop (Proxy *proxy)
{
  g_autoptr(GError) error = NULL;

  g_output_stream_close (g_subprocess_get_stdin_pipe (proxy->process), NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (proxy->process, NULL, &error);
  g_assert_no_error (error);
  g_object_unref (proxy->process);
  g_free (proxy->url);
  g_free (proxy);
}

/* ---- the cases ------------------------------------------------------------------------------- */

typedef struct {
  const char *fault;
  gboolean    edit;        /* an edit (UpdateItem) rather than a new item (PutItem) */
  gboolean    for_ever;    /* every attempt of the write meets the fault, not only the first */
  gboolean    forwarded;   /* the proxy forwards the request (it is applied) */
  gboolean    retried;     /* the backend sees a failed attempt and retries */
} Case;

typedef struct {
  DynoItem *saved;
} Outcome;

static void
saved_cb (DynoItemEditor *editor,
          DynoItem       *written,
          Outcome        *outcome)
{
  g_assert_null (outcome->saved);
  outcome->saved = dyno_item_ref (written);
}

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* The save has ended: saved, a conflict offered, or an error shown with Save usable again. */
static gboolean
save_ended (DynoItemEditor *editor,
            Outcome        *outcome)
{
  GtkWidget *error_label = get_named (GTK_WIDGET (editor), "save_error_label");
  GtkWidget *save = get_named (GTK_WIDGET (editor), "save_button");

  if (outcome->saved != NULL || dyno_item_editor_get_conflict_dialog (editor) != NULL)
    return TRUE;
  return shown_error (error_label) != NULL && gtk_widget_get_sensitive (save);
}

static void
test_save_through_fault (gconstpointer data)
{
  const Case *tc = data;
  g_autofree char *pk = g_strdup_printf ("%s-%s-%s", tc->fault, tc->edit ? "edit" : "new",
                                         tc->for_ever ? "always" : "once");
  g_autofree char *mine_json = NULL;
  g_autofree char *rule = g_strdup_printf ("%s:%s:%s", tc->edit ? "UpdateItem" : "PutItem",
                                           tc->fault, tc->for_ever ? "*" : "1");
  g_autoptr(DynoItem) loaded = NULL;
  g_autoptr(DynoItem) mine = NULL;
  g_autoptr(DynoItem) before = NULL;
  g_autoptr(DynoItem) after = NULL;
  g_autoptr(DynoTableInfo) info = dyno_table_info_new (table, "pk", DYNO_VALUE_S, "sk",
                                                       DYNO_VALUE_S);
  g_autoptr(DynoBackend) backend = NULL;
  g_autoptr(DynoItemEditor) editor = NULL;
  Outcome outcome = { NULL };
  gboolean timed_out = FALSE;
  guint timeout_id;
  const char *message;
  Proxy *proxy;

  if (tc->edit)
    {
      g_autofree char *loaded_json =
        g_strdup_printf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"A\"},\"status\":{\"S\":\"open\"},"
                         "\"total\":{\"N\":\"42\"},\"gone\":{\"BOOL\":true}}", pk);
      g_autofree char *put = g_strdup_printf ("{\"TableName\":\"%s\",\"Item\":%s}", table,
                                              loaded_json);
      g_autoptr(JsonNode) response = call ("PutItem", put);

      loaded = item (loaded_json);
    }
  /* An edit changes one attribute, adds one and removes one. */
  mine_json = g_strdup_printf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"A\"},"
                               "\"status\":{\"S\":\"shipped\"},\"total\":{\"N\":\"42\"},"
                               "\"note\":{\"S\":\"fault %s\"}}", pk, rule);
  mine = item (mine_json);
  before = stored_item (pk);
  g_assert_true (tc->edit ? (before != NULL && dyno_item_equal (before, loaded))
                          : before == NULL);

  proxy = proxy_start (rule);
  backend = backend_for (proxy->url);
  /* Retries at once: the test is about outcomes, not waiting. */
  dyno_retry_policy_set_backoff (dyno_http_backend_get_retry_policy (DYNO_HTTP_BACKEND (backend)),
                                 1, 1, 5);
  dyno_http_backend_set_timeout (DYNO_HTTP_BACKEND (backend), 20);

  editor = DYNO_ITEM_EDITOR (dyno_item_editor_new (NULL, backend, info, loaded,
                                                   tc->edit ? DYNO_ITEM_EDITOR_EDIT
                                                            : DYNO_ITEM_EDITOR_NEW,
                                                   NULL, proxy->url, "us-east-1"));
  g_object_ref_sink (editor);
  g_signal_connect (editor, "saved", G_CALLBACK (saved_cb), &outcome);
  gtk_window_present (GTK_WINDOW (editor));
  drain_main_context ();
  {
    g_autofree char *text = dyno_item_text_format (mine);

    dyno_item_editor_set_text (editor, text);
  }
  g_assert_true (gtk_widget_get_sensitive (get_named (GTK_WIDGET (editor), "save_button")));
  dyno_item_editor_save (editor);

  /* Bounded: a save that never ends fails here instead of hanging the suite. */
  timeout_id = g_timeout_add_seconds (END_WAIT_SECONDS, timeout_cb, &timed_out);
  while (!save_ended (editor, &outcome) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout_id);
  if (timed_out)
    g_error ("%s: the save did not end within %d s", rule, END_WAIT_SECONDS);
  drain_main_context ();

  if (tc->retried)
    g_assert_cmpuint (dyno_http_backend_get_n_retries (DYNO_HTTP_BACKEND (backend)), >=, 1);
  proxy_stop (proxy);

  after = stored_item (pk);
  message = shown_error (get_named (GTK_WIDGET (editor), "save_error_label"));
  g_test_message ("%s (%s): %s", rule, tc->edit ? "edit" : "new",
                  outcome.saved ? "saved" : message);

  /* Nobody else writes this item: a conflict would be a false claim. */
  g_assert_null (dyno_item_editor_get_conflict_dialog (editor));

  if (outcome.saved != NULL)
    {
      /* "Saved": the table holds exactly what the user wrote. */
      g_assert_true (dyno_item_equal (outcome.saved, mine));
      g_assert_nonnull (after);
      g_assert_true (dyno_item_equal (after, mine));
      g_assert_null (message);
    }
  else
    {
      g_autoptr(DynoItem) kept = NULL;
      g_autoptr(GError) error = NULL;

      /* An error: the table holds what it held before, as the message says, and the edits
       * are still there to save again.  Every attempt failed, some without a usable answer
       * (a lost connection, a 5xx), so the editor read the item to tell, and says it was not
       * saved.  Never "may have been applied": the item can be read here. */
      g_assert_nonnull (message);
      g_assert_null (strstr (message, "may have been applied"));
      g_assert_true (g_str_has_prefix (message, "The item was not saved (the table is "
                                                "unchanged): "));
      if (tc->edit)
        g_assert_true (after != NULL && dyno_item_equal (after, loaded));
      else
        g_assert_null (after);
      kept = dyno_item_editor_dup_item (editor, &error);
      g_assert_no_error (error);
      g_assert_true (dyno_item_equal (kept, mine));
      g_assert_true (dyno_item_editor_has_unsaved_changes (editor));
    }

  /* A fault met once is got through by a retry: the save ends saved.  So does one met for
   * ever by a request that reaches the server: its first attempt was applied. */
  if (!tc->for_ever || tc->forwarded)
    g_assert_nonnull (outcome.saved);
  else
    g_assert_null (outcome.saved);

  gtk_window_destroy (GTK_WINDOW (editor));
  drain_main_context ();
  g_clear_pointer (&outcome.saved, dyno_item_unref);
}

/* fault, forwarded (applied), retried */
static const struct {
  const char *fault;
  gboolean    forwarded;
  gboolean    retried;
} faults[] = {
  { "drop", FALSE, TRUE },
  { "reset", FALSE, TRUE },
  { "stall", TRUE, FALSE },
  { "truncate", TRUE, TRUE },
  { "garble", TRUE, TRUE },
  { "5xx", FALSE, TRUE },
  { "5xx-after", TRUE, TRUE },
  { "throttle", FALSE, TRUE },
};

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) cases = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *create = NULL;
  g_autofree char *delete = NULL;
  int status;

  /* Before the display is needed: run alone, this is a skip (77), not a failure. */
  endpoint = g_getenv ("DYNO_TEST_ENDPOINT");
  if (endpoint == NULL || *endpoint == '\0')
    {
      g_printerr ("no DYNO_TEST_ENDPOINT: run through tests/fixtures/with-ddb-local.sh\n");
      return 77;
    }
  if (!g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_printerr ("no /usr/bin/python3 to run the fault proxy\n");
      return 77;
    }
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  gtk_source_init ();

  direct = backend_for (endpoint);
  table = g_strdup_printf (TABLE_PREFIX "-%d", (int) getpid ());
  create = g_strdup_printf ("{\"TableName\":\"%s\",\"BillingMode\":\"PAY_PER_REQUEST\","
                            "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\","
                            "\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\","
                            "\"AttributeType\":\"S\"}],"
                            "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
                            "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]}", table);
  json_node_unref (call ("CreateTable", create));

  for (guint f = 0; f < G_N_ELEMENTS (faults); f++)
    for (guint edit = 0; edit < 2; edit++)
      for (guint for_ever = 0; for_ever < 2; for_ever++)
        {
          Case *tc = g_new0 (Case, 1);
          g_autofree char *path = NULL;

          tc->fault = faults[f].fault;
          tc->edit = edit;
          tc->for_ever = for_ever;
          tc->forwarded = faults[f].forwarded;
          tc->retried = faults[f].retried;
          g_ptr_array_add (cases, tc);
          path = g_strdup_printf ("/item-editor-faults/%s/%s/%s", tc->fault,
                                  edit ? "edit" : "new", for_ever ? "always" : "once");
          g_test_add_data_func (path, tc, test_save_through_fault);
        }

  status = g_test_run ();

  delete = g_strdup_printf ("{\"TableName\":\"%s\"}", table);
  json_node_unref (call ("DeleteTable", delete));
  g_clear_object (&direct);
  g_free (table);
  return status;
}
