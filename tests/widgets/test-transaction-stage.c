/* test-transaction.c: staging writes from the item editor and committing them as one
 * TransactWriteItems, worked in-process against the embedded engine (a real DynamoDB, with
 * CancellationReasons) and a fake backend (what is sent on a retry)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "dyno-backend.h"
#include "dyno-engine-backend.h"
#include "dyno-expr.h"
#include "dyno-item-editor.h"
#include "dyno-json.h"
#include "dyno-transaction-dialog.h"
#include "dyno-tx-stage.h"
#include "test-backend.h"
#include "widget-test-util.h"

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
wait_result_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **location)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (20, timeout_cb, &timed_out);

  while (*location == NULL && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_nonnull (*location);
  return *location;
}

static JsonNode *
call (DynoBackend *backend,
      const char  *operation,
      const char  *json,
      GError     **error)
{
  g_autoptr(JsonNode) body = dyno_json_parse (json, -1, NULL);
  g_autoptr(GAsyncResult) result = NULL;

  g_assert_nonnull (body);
  dyno_backend_call_json_async (backend, operation, body, NULL, wait_result_cb, &result);
  return dyno_backend_call_json_finish (backend, wait_result (&result), error);
}

static DynoTableInfo *
describe (DynoBackend *backend,
          const char  *table)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  DynoTableInfo *info;

  dyno_backend_describe_table_async (backend, table, NULL, wait_result_cb, &result);
  info = dyno_backend_describe_table_finish (backend, wait_result (&result), &error);
  g_assert_no_error (error);
  return info;
}

static void
make_table (DynoBackend *backend,
            const char  *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = g_strdup_printf (
    "{\"TableName\":\"%s\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}]}", name);
  g_autoptr(JsonNode) response = call (backend, "CreateTable", json, &error);

  g_assert_no_error (error);
}

/* Whether @table holds an item with id @id. */
static gboolean
has_item (DynoBackend *backend,
          const char  *table,
          const char  *id)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = g_strdup_printf ("{\"TableName\":\"%s\",\"Key\":{\"id\":{\"S\":\"%s\"}},"
                                           "\"ConsistentRead\":true}", table, id);
  g_autoptr(JsonNode) response = call (backend, "GetItem", json, &error);

  g_assert_no_error (error);
  return json_object_has_member (json_node_get_object (response), "Item");
}

static void
staged_cb (GtkWidget *editor,
           gboolean  *staged)
{
  *staged = TRUE;
}

/* Stages @text as a new item of @info through the item editor's "Add to Transaction". */
static void
stage_from_editor (DynoBackend   *backend,
                   DynoTableInfo *info,
                   const char    *text)
{
  GtkWidget *editor = dyno_item_editor_new (NULL, backend, info, NULL, DYNO_ITEM_EDITOR_NEW,
                                            NULL, NULL, NULL);
  GtkWidget *stage_button;
  gboolean staged = FALSE;

  g_object_ref_sink (editor);
  g_signal_connect (editor, "staged", G_CALLBACK (staged_cb), &staged);
  gtk_window_present (GTK_WINDOW (editor));
  dyno_item_editor_set_text (DYNO_ITEM_EDITOR (editor), text);
  drain_main_context ();
  stage_button = get_by_id (editor, "stage_button");
  g_assert_true (gtk_widget_get_sensitive (stage_button));
  g_signal_emit_by_name (stage_button, "clicked");
  drain_main_context ();
  g_assert_true (staged);
  g_assert_false (gtk_widget_get_visible (editor));
  g_object_unref (editor);
}

/* The Remove buttons of the dialog's rows, in order. */
static void
collect_remove_buttons (GtkWidget *root,
                        GPtrArray *found)
{
  if (GTK_IS_BUTTON (root) &&
      g_strcmp0 (gtk_widget_get_tooltip_text (root), "Remove From Transaction") == 0)
    g_ptr_array_add (found, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_remove_buttons (child, found);
}

static void
commit_and_wait (DynoTransactionDialog *dialog,
                 DynoTxStage           *stage)
{
  gboolean timed_out = FALSE;
  guint id;

  dyno_transaction_dialog_commit (dialog);
  g_assert_true (dyno_tx_stage_get_committing (stage));
  id = g_timeout_add_seconds (20, timeout_cb, &timed_out);
  while (dyno_tx_stage_get_committing (stage) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_false (dyno_tx_stage_get_committing (stage));
  drain_main_context ();
}

static void
committed_cb (DynoTxStage *stage,
              GStrv        tables,
              GStrv       *out)
{
  g_strfreev (*out);
  *out = g_strdupv (tables);
}

static void
test_engine_all_or_nothing (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngineBackend) engine = dyno_engine_backend_new (NULL, &error);
  DynoBackend *backend = DYNO_BACKEND (engine);
  g_autoptr(DynoTableInfo) orders = NULL;
  g_autoptr(DynoTableInfo) users = NULL;
  g_autoptr(JsonNode) put = NULL;
  g_autoptr(DynoRequest) check = NULL;
  g_autoptr(DynoItem) check_key = NULL;
  g_autoptr(GPtrArray) removes = g_ptr_array_new ();
  g_auto(GStrv) committed = NULL;
  g_autofree char *first_token = NULL;
  g_autofree char *row = NULL;
  DynoTxStage *stage;
  GtkWidget *dialog;

  g_assert_no_error (error);
  make_table (backend, "orders");
  make_table (backend, "users");
  put = call (backend, "PutItem",
              "{\"TableName\":\"users\",\"Item\":{\"id\":{\"S\":\"u1\"},"
              "\"status\":{\"S\":\"blocked\"}}}", &error);
  g_assert_no_error (error);
  orders = describe (backend, "orders");
  users = describe (backend, "users");

  stage = dyno_tx_stage_for_backend (backend);
  g_assert_true (stage == dyno_tx_stage_for_backend (backend));
  g_signal_connect (stage, "committed", G_CALLBACK (committed_cb), &committed);

  /* two writes on two tables, from the item editor */
  stage_from_editor (backend, orders, "{\"id\":{\"S\":\"o1\"},\"total\":{\"N\":\"12\"}}");
  stage_from_editor (backend, users, "{\"id\":{\"S\":\"u2\"},\"status\":{\"S\":\"active\"}}");
  g_assert_cmpuint (dyno_tx_stage_get_n_writes (stage), ==, 2);
  g_assert_cmpint (dyno_tx_stage_get_action (stage, 0), ==, DYNO_TRANSACT_PUT);
  g_assert_cmpstr (dyno_tx_stage_get_request (stage, 1)->table_name, ==, "users");

  /* the same item twice is refused, as DynamoDB would */
  {
    GtkWidget *editor = dyno_item_editor_new (NULL, backend, orders, NULL,
                                              DYNO_ITEM_EDITOR_NEW, NULL, NULL, NULL);

    g_object_ref_sink (editor);
    dyno_item_editor_set_text (DYNO_ITEM_EDITOR (editor), "{\"id\":{\"S\":\"o1\"}}");
    dyno_item_editor_stage (DYNO_ITEM_EDITOR (editor));
    g_assert_cmpuint (dyno_tx_stage_get_n_writes (stage), ==, 2);
    gtk_window_destroy (GTK_WINDOW (editor));
    g_object_unref (editor);
  }

  /* a condition check that fails: u1's status is "blocked" */
  check_key = dyno_item_from_plain_json ("{\"id\": \"u1\"}", -1, NULL, &error);
  g_assert_no_error (error);
  check = dyno_request_new (DYNO_OP_DELETE_ITEM, "users");
  check->key = dyno_item_ref (check_key);
  check->condition = dyno_expr_parse_condition ("status = \"active\"", DYNO_SYNTAX_INLINE,
                                                DYNO_EXPR_ROLE_CONDITION, NULL, NULL, NULL,
                                                NULL, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_tx_stage_add (stage, DYNO_TRANSACT_CONDITION_CHECK, check, check_key,
                                    &error));
  g_assert_no_error (error);

  dialog = dyno_transaction_dialog_present (NULL, stage);
  g_assert_true (dialog == dyno_transaction_dialog_present (NULL, stage));
  drain_main_context ();
  collect_remove_buttons (dialog, removes);
  g_assert_cmpuint (removes->len, ==, 3);

  first_token = g_strdup (dyno_tx_stage_get_token (stage));
  commit_and_wait (DYNO_TRANSACTION_DIALOG (dialog), stage);

  /* refused: each write's reason, everything still staged, nothing written */
  g_assert_null (committed);
  g_assert_cmpuint (dyno_tx_stage_get_n_writes (stage), ==, 3);
  g_assert_nonnull (strstr (dyno_transaction_dialog_get_error (DYNO_TRANSACTION_DIALOG (dialog)),
                            "TransactionCanceled"));
  g_assert_cmpstr (dyno_tx_stage_get_reason_code (stage, 0), ==, "None");
  g_assert_cmpstr (dyno_tx_stage_get_reason_code (stage, 2), ==, "ConditionalCheckFailed");
  row = dyno_transaction_dialog_dup_row_text (DYNO_TRANSACTION_DIALOG (dialog), 2);
  g_assert_nonnull (strstr (row, "Condition Check on users"));
  g_assert_nonnull (strstr (row, "Refused: ConditionalCheckFailed"));
  g_clear_pointer (&row, g_free);
  row = dyno_transaction_dialog_dup_row_text (DYNO_TRANSACTION_DIALOG (dialog), 0);
  g_assert_null (strstr (row, "Refused"));
  g_clear_pointer (&row, g_free);
  g_assert_false (has_item (backend, "orders", "o1"));
  g_assert_false (has_item (backend, "users", "u2"));
  /* the same set keeps its token (a retry is the same transaction) */
  g_assert_cmpstr (dyno_tx_stage_get_token (stage), ==, first_token);

  /* remove the check (its row's Remove button): a new set, with a new token */
  g_ptr_array_set_size (removes, 0);
  collect_remove_buttons (dialog, removes);
  g_assert_cmpuint (removes->len, ==, 3);
  g_signal_emit_by_name (g_ptr_array_index (removes, 2), "clicked");
  drain_main_context ();
  g_assert_cmpuint (dyno_tx_stage_get_n_writes (stage), ==, 2);
  g_assert_cmpstr (dyno_tx_stage_get_token (stage), !=, first_token);
  g_assert_null (dyno_tx_stage_get_reason_code (stage, 0));

  commit_and_wait (DYNO_TRANSACTION_DIALOG (dialog), stage);
  g_assert_cmpstr (dyno_transaction_dialog_get_error (DYNO_TRANSACTION_DIALOG (dialog)), ==, "");
  g_assert_cmpuint (dyno_tx_stage_get_n_writes (stage), ==, 0);
  g_assert_true (has_item (backend, "orders", "o1"));
  g_assert_true (has_item (backend, "users", "u2"));
  g_assert_nonnull (committed);
  g_assert_cmpuint (g_strv_length (committed), ==, 2);
  g_assert_true (g_strv_contains ((const char * const *) committed, "orders"));
  g_assert_true (g_strv_contains ((const char * const *) committed, "users"));

  gtk_window_destroy (GTK_WINDOW (dialog));
  drain_main_context ();
}

/* An edit staged from the editor is the conditioned UpdateItem Save would send: committed, the
 * item has the new value. */
static void
test_engine_staged_edit (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngineBackend) engine = dyno_engine_backend_new (NULL, &error);
  DynoBackend *backend = DYNO_BACKEND (engine);
  g_autoptr(DynoTableInfo) orders = NULL;
  g_autoptr(JsonNode) put = NULL;
  g_autoptr(JsonNode) got = NULL;
  g_autoptr(DynoItem) loaded = NULL;
  GtkWidget *editor, *dialog;
  DynoTxStage *stage;
  JsonObject *item;

  g_assert_no_error (error);
  make_table (backend, "orders");
  put = call (backend, "PutItem",
              "{\"TableName\":\"orders\",\"Item\":{\"id\":{\"S\":\"o9\"},\"n\":{\"N\":\"1\"}}}",
              &error);
  g_assert_no_error (error);
  orders = describe (backend, "orders");
  loaded = dyno_item_from_plain_json ("{\"id\": \"o9\", \"n\": 1}", -1, NULL, &error);
  g_assert_no_error (error);

  editor = dyno_item_editor_new (NULL, backend, orders, loaded, DYNO_ITEM_EDITOR_EDIT, NULL,
                                 NULL, NULL);
  g_object_ref_sink (editor);
  gtk_window_present (GTK_WINDOW (editor));
  dyno_item_editor_set_text (DYNO_ITEM_EDITOR (editor),
                             "{\"id\":{\"S\":\"o9\"},\"n\":{\"N\":\"2\"}}");
  drain_main_context ();
  g_signal_emit_by_name (get_by_id (editor, "stage_button"), "clicked");
  drain_main_context ();
  g_assert_false (gtk_widget_get_visible (editor));
  g_object_unref (editor);

  stage = dyno_tx_stage_for_backend (backend);
  g_assert_cmpuint (dyno_tx_stage_get_n_writes (stage), ==, 1);
  g_assert_cmpint (dyno_tx_stage_get_action (stage, 0), ==, DYNO_TRANSACT_UPDATE);
  g_assert_nonnull (dyno_tx_stage_get_request (stage, 0)->condition);

  dialog = dyno_transaction_dialog_present (NULL, stage);
  commit_and_wait (DYNO_TRANSACTION_DIALOG (dialog), stage);
  g_assert_cmpstr (dyno_transaction_dialog_get_error (DYNO_TRANSACTION_DIALOG (dialog)), ==, "");
  g_assert_cmpuint (dyno_tx_stage_get_n_writes (stage), ==, 0);
  got = call (backend, "GetItem",
              "{\"TableName\":\"orders\",\"Key\":{\"id\":{\"S\":\"o9\"}}}", &error);
  g_assert_no_error (error);
  item = json_object_get_object_member (json_node_get_object (got), "Item");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (item, "n"),
                                                  "N"), ==, "2");
  gtk_window_destroy (GTK_WINDOW (dialog));
  drain_main_context ();
}

/* A commit that failed (a 5xx beyond the retries) is sent again with the same
 * ClientRequestToken, so DynamoDB applies it at most once; a changed set gets a new one. */
static void
test_retry_reuses_token (void)
{
  g_autoptr(TestBackend) backend = test_backend_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(DynoTxStage) stage = dyno_tx_stage_new (DYNO_BACKEND (backend));
  g_autoptr(DynoItem) key = dyno_item_from_plain_json ("{\"id\": \"a\"}", -1, NULL, NULL);
  g_autoptr(DynoItem) key2 = dyno_item_from_plain_json ("{\"id\": \"b\"}", -1, NULL, NULL);
  g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_DELETE_ITEM, "t");
  g_autoptr(DynoRequest) request2 = dyno_request_new (DYNO_OP_DELETE_ITEM, "t");
  g_autofree char *token1 = NULL, *token2 = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *body;
  GtkWidget *dialog;

  test_backend_expect_only (backend, "TransactWriteItems");
  request->key = dyno_item_ref (key);
  request2->key = dyno_item_ref (key2);
  g_assert_true (dyno_tx_stage_add (stage, DYNO_TRANSACT_DELETE, request, key, &error));
  g_assert_no_error (error);

  dialog = dyno_transaction_dialog_present (NULL, stage);
  test_backend_queue_reply (backend, 500,
                            "{\"__type\":\"com.amazonaws.dynamodb.v20120810#InternalServerError\","
                            "\"message\":\"Internal server error\"}");
  commit_and_wait (DYNO_TRANSACTION_DIALOG (dialog), stage);
  /* a 5xx leaves the outcome unknown: said so, not "nothing was written" */
  g_assert_nonnull (strstr (dyno_transaction_dialog_get_error (DYNO_TRANSACTION_DIALOG (dialog)),
                            "may or may not have been applied"));
  g_assert_cmpuint (dyno_tx_stage_get_n_writes (stage), ==, 1);

  test_backend_queue_reply (backend, 500,
                            "{\"__type\":\"com.amazonaws.dynamodb.v20120810#InternalServerError\","
                            "\"message\":\"Internal server error\"}");
  commit_and_wait (DYNO_TRANSACTION_DIALOG (dialog), stage);
  g_assert_cmpuint (test_backend_get_n_calls (backend), ==, 2);
  body = test_backend_get_body_object (backend, 0, parser);
  token1 = g_strdup (json_object_get_string_member (body, "ClientRequestToken"));
  g_assert_nonnull (token1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (body, "TransactItems")),
                    ==, 1);
  body = test_backend_get_body_object (backend, 1, parser);
  g_assert_cmpstr (json_object_get_string_member (body, "ClientRequestToken"), ==, token1);

  /* one more write: another transaction */
  g_assert_true (dyno_tx_stage_add (stage, DYNO_TRANSACT_DELETE, request2, key2, &error));
  test_backend_queue_reply (backend, 200, "{}");
  commit_and_wait (DYNO_TRANSACTION_DIALOG (dialog), stage);
  body = test_backend_get_body_object (backend, 2, parser);
  token2 = g_strdup (json_object_get_string_member (body, "ClientRequestToken"));
  g_assert_cmpstr (token2, !=, token1);
  g_assert_cmpuint (dyno_tx_stage_get_n_writes (stage), ==, 0);
  g_assert_cmpstr (dyno_transaction_dialog_get_error (DYNO_TRANSACTION_DIALOG (dialog)), ==, "");

  gtk_window_destroy (GTK_WINDOW (dialog));
  drain_main_context ();
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  gtk_source_init ();

  g_test_add_func ("/transaction/engine/all-or-nothing", test_engine_all_or_nothing);
  g_test_add_func ("/transaction/engine/staged-edit", test_engine_staged_edit);
  g_test_add_func ("/transaction/retry-reuses-token", test_retry_reuses_token);
  return g_test_run ();
}
