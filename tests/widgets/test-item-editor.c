/* test-item-editor.c: the item editor, conflict dialog and item deletion, worked in-process
 *
 * A fake backend records every call (operation and JSON body) and answers from a queue of
 * canned responses, service errors included, so the tests judge what the editor sends and
 * what it shows when the service says no.  Where the service's "no" is a server's own (a
 * condition that fails because another writer changed the item), the tests run on the
 * embedded engine in memory instead, behind a recorder of the calls: the item is really
 * changed behind the editor's back, and the engine refuses from its own state.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "dyno-backend.h"
#include "dyno-code-view.h"
#include "dyno-conflict-dialog.h"
#include "dyno-delete-items.h"
#include "dyno-engine-backend.h"
#include "dyno-http-error.h"
#include "dyno-item-editor.h"
#include "dyno-item-form.h"
#include "dyno-item-text.h"
#include "dyno-json.h"
#include "test-backend.h"
#include "widget-test-util.h"

/* ---- the fake backend's answers ------------------------------------------------------------ */

static const char *conditional_failed =
  "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException\","
  "\"message\":\"The conditional request failed\"}";

/* Whether some ExpressionAttributeValues entry equals @ddb_json (a DynamoDB JSON value). */
static gboolean
has_expression_value (JsonObject *body,
                      const char *ddb_json)
{
  g_autoptr(DynoValue) wanted = dyno_value_from_ddb_json (ddb_json, -1, NULL);
  JsonObject *values;
  g_autoptr(GList) members = NULL;

  g_assert_nonnull (wanted);
  if (!json_object_has_member (body, "ExpressionAttributeValues"))
    return FALSE;
  values = json_object_get_object_member (body, "ExpressionAttributeValues");
  members = json_object_get_members (values);
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_autoptr(DynoValue) value =
        dyno_value_from_json_node (json_object_get_member (values, l->data), NULL);

      if (value != NULL && dyno_value_equal (value, wanted))
        return TRUE;
    }
  return FALSE;
}

/* ---- the engine, recorded ------------------------------------------------------------------- */

/* A DynoBackend that records each call (operation and body) and passes it to a
 * DynoEngineBackend in memory, whose answer (or error) it returns unchanged. */
#define TEST_TYPE_RECORDER (test_recorder_get_type ())
G_DECLARE_FINAL_TYPE (TestRecorder, test_recorder, TEST, RECORDER, GObject)

struct _TestRecorder
{
  GObject      parent_instance;
  DynoBackend *engine;
  GPtrArray   *operations;
  GPtrArray   *bodies;
};

static void test_recorder_iface_init (DynoBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestRecorder, test_recorder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (DYNO_TYPE_BACKEND,
                                                      test_recorder_iface_init))

static void
recorder_forward_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  GBytes *reply = dyno_backend_call_finish (DYNO_BACKEND (source), result, &error);

  if (reply == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, reply, (GDestroyNotify) g_bytes_unref);
}

static void
recorder_call_async (DynoBackend         *backend,
                     const char          *operation,
                     GBytes              *body,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  TestRecorder *self = TEST_RECORDER (backend);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  gsize len;
  const char *data = g_bytes_get_data (body, &len);

  g_ptr_array_add (self->operations, g_strdup (operation));
  g_ptr_array_add (self->bodies, g_strndup (data, len));
  dyno_backend_call_async (self->engine, operation, body, cancellable, recorder_forward_cb,
                           task);
}

static GBytes *
recorder_call_finish (DynoBackend   *backend,
                      GAsyncResult  *result,
                      GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static char *
recorder_dup_description (DynoBackend *backend)
{
  return g_strdup ("engine, recorded");
}

static void
test_recorder_iface_init (DynoBackendInterface *iface)
{
  iface->call_async = recorder_call_async;
  iface->call_finish = recorder_call_finish;
  iface->dup_description = recorder_dup_description;
}

static void
test_recorder_finalize (GObject *object)
{
  TestRecorder *self = TEST_RECORDER (object);

  g_clear_object (&self->engine);
  g_ptr_array_unref (self->operations);
  g_ptr_array_unref (self->bodies);
  G_OBJECT_CLASS (test_recorder_parent_class)->finalize (object);
}

static void
test_recorder_class_init (TestRecorderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_recorder_finalize;
}

static void
test_recorder_init (TestRecorder *self)
{
  g_autoptr(GError) error = NULL;

  self->engine = DYNO_BACKEND (dyno_engine_backend_new (NULL, &error));
  g_assert_no_error (error);
  self->operations = g_ptr_array_new_with_free_func (g_free);
  self->bodies = g_ptr_array_new_with_free_func (g_free);
}

static const char *
recorder_operation (TestRecorder *self,
                    guint         i)
{
  g_assert_cmpuint (i, <, self->operations->len);
  return g_ptr_array_index (self->operations, i);
}

/* The @i-th request body as a JSON object, owned by @parser. */
static JsonObject *
recorder_body (TestRecorder *self,
               guint         i,
               JsonParser   *parser)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (i, <, self->bodies->len);
  json_parser_load_from_data (parser, g_ptr_array_index (self->bodies, i), -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

typedef struct {
  gboolean  done;
  GBytes   *reply;
  GError   *error;
} EngineSync;

static void
engine_sync_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  EngineSync *sync = user_data;

  sync->reply = dyno_backend_call_finish (DYNO_BACKEND (source), result, &sync->error);
  sync->done = TRUE;
}

/* The test's own call to the engine (another writer, or a look at the item), not recorded:
 * its answer as text.  Waited for on a main context of its own, so nothing of the editor
 * runs meanwhile. */
static char *
engine_call (TestRecorder *self,
             const char   *operation,
             const char   *json)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GBytes) body = g_bytes_new (json, strlen (json));
  EngineSync sync = { 0, };
  gsize len;
  const char *data;
  char *text;

  g_main_context_push_thread_default (context);
  dyno_backend_call_async (self->engine, operation, body, NULL, engine_sync_cb, &sync);
  while (!sync.done)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);
  g_assert_no_error (sync.error);
  data = g_bytes_get_data (sync.reply, &len);
  text = g_strndup (data, len);
  g_bytes_unref (sync.reply);
  return text;
}

/* A recorder on a fresh engine holding table "orders" (pk S, sk S), as schema() says. */
static TestRecorder *
engine_new (void)
{
  TestRecorder *self = g_object_new (TEST_TYPE_RECORDER, NULL);
  g_autofree char *reply =
    engine_call (self, "CreateTable",
                 "{\"TableName\":\"orders\",\"KeySchema\":["
                 "{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
                 "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
                 "\"AttributeDefinitions\":["
                 "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
                 "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"}],"
                 "\"BillingMode\":\"PAY_PER_REQUEST\"}");

  return self;
}

/* Another writer puts @item (DynamoDB JSON text) into "orders", unconditionally. */
static void
engine_put (TestRecorder *self,
            const char   *item)
{
  g_autofree char *json = g_strdup_printf ("{\"TableName\":\"orders\",\"Item\":%s}", item);
  g_autofree char *reply = engine_call (self, "PutItem", json);
}

/* The item of "orders" with @pk and @sk as it is now (a consistent GetItem), or NULL. */
static DynoItem *
engine_get (TestRecorder *self,
            const char   *pk,
            const char   *sk)
{
  g_autofree char *json = g_strdup_printf ("{\"TableName\":\"orders\",\"Key\":"
                                           "{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"%s\"}},"
                                           "\"ConsistentRead\":true}", pk, sk);
  g_autofree char *reply = engine_call (self, "GetItem", json);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  DynoItem *result;

  json_parser_load_from_data (parser, reply, -1, &error);
  g_assert_no_error (error);
  object = json_node_get_object (json_parser_get_root (parser));
  if (!json_object_has_member (object, "Item"))
    return NULL;
  result = dyno_item_from_json_node (json_object_get_member (object, "Item"), &error);
  g_assert_no_error (error);
  return result;
}

/* ---- helpers --------------------------------------------------------------------------------- */

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until *@flag is set (work may finish on a worker thread). */
static void
wait_for (gboolean *flag)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (10, timeout_cb, &timed_out);

  while (!*flag && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_true (*flag);
  drain_main_context ();
}

static gboolean
pointer_set (gpointer *location)
{
  return *location != NULL;
}

static void
wait_for_pointer (gpointer *location)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (10, timeout_cb, &timed_out);

  while (!pointer_set (location) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_nonnull (*location);
  drain_main_context ();
}

/* The value widgets (an entry, a dropdown) of the form rows under @root, in order: what
 * each row's value_slot (dyno-item-form-row.ui) holds; maps, lists and sets have none. */
static void
collect_values (GtkWidget *root,
                GPtrArray *found)
{
  if (g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (root)), "value_slot") == 0)
    {
      GtkWidget *value = gtk_widget_get_first_child (root);

      if (value != NULL && (GTK_IS_EDITABLE (value) || GTK_IS_DROP_DOWN (value)))
        g_ptr_array_add (found, value);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_values (child, found);
}

/* The value widget of the form row @row. */
static GtkWidget *
row_value (GtkWidget *row)
{
  GtkWidget *value = gtk_widget_get_first_child (get_named (row, "value_slot"));

  g_assert_nonnull (value);
  return value;
}

/* The first button under @root whose label (mnemonic included) is @label, as a person reads
 * it, or NULL. */
static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A click (gtk_widget_activate() would emit "clicked" only after a visual delay). */
static void
click (GtkWidget *button)
{
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

static DynoTableInfo *
schema (void)
{
  return dyno_table_info_new ("orders", "pk", DYNO_VALUE_S, "sk", DYNO_VALUE_S);
}

static DynoItem *
item (const char *ddb_json)
{
  g_autoptr(GError) error = NULL;
  DynoItem *result = dyno_item_from_ddb_json (ddb_json, -1, &error);

  g_assert_no_error (error);
  return result;
}

typedef struct {
  TestBackend *backend;
  TestRecorder     *engine;   /* set: the editor works on the engine, not on the fake */
  DynoTableInfo    *info;
  DynoItemEditor   *editor;
  DynoItem         *saved;
} Fixture;

static void
saved_cb (DynoItemEditor *editor,
          DynoItem       *written,
          Fixture        *fixture)
{
  g_assert_null (fixture->saved);
  fixture->saved = dyno_item_ref (written);
}

/* gtk_window_destroy() takes the window off the toplevels (the fixture still holds a
 * reference, so "destroy" comes only later). */
static gboolean
editor_closed (Fixture *fixture)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (window == G_OBJECT (fixture->editor))
        return FALSE;
    }
  return TRUE;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->backend = test_backend_new ();
  fixture->info = schema ();
}

static void
open_editor (Fixture            *fixture,
             DynoItem           *loaded,
             DynoItemEditorMode  mode,
             GPtrArray          *collection)
{
  DynoBackend *backend = fixture->engine != NULL ? DYNO_BACKEND (fixture->engine)
                                                 : DYNO_BACKEND (fixture->backend);

  fixture->editor = DYNO_ITEM_EDITOR (dyno_item_editor_new (NULL, backend,
                                                            fixture->info, loaded, mode,
                                                            collection,
                                                            "http://localhost:8000",
                                                            "us-east-1"));
  g_object_ref_sink (fixture->editor);
  g_signal_connect (fixture->editor, "saved", G_CALLBACK (saved_cb), fixture);
  gtk_window_present (GTK_WINDOW (fixture->editor));
  drain_main_context ();
}

static void
close_toplevels_except (GtkWidget *keep)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = g_list_model_get_n_items (toplevels); i > 0; i--)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i - 1);

      if (GTK_WIDGET (window) != keep)
        gtk_window_destroy (window);
    }
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  close_toplevels_except (NULL);
  drain_main_context ();
  g_clear_object (&fixture->editor);
  g_clear_pointer (&fixture->saved, dyno_item_unref);
  g_clear_pointer (&fixture->info, dyno_table_info_unref);
  g_clear_object (&fixture->backend);
  g_clear_object (&fixture->engine);
  drain_main_context ();
}

static GtkWidget *
editor_part (Fixture    *fixture,
             const char *name)
{
  return get_named (GTK_WIDGET (fixture->editor), name);
}

/* The message dialog whose heading begins with @heading, as a person reads it. */
static GtkWidget *
find_toplevel (const char *heading)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window)
          && g_str_has_prefix (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (window)),
                               heading))
        return window;
    }
  return NULL;
}

/* ---- round trips ----------------------------------------------------------------------------- */

typedef struct {
  const char *name;
  const char *value;   /* DynamoDB JSON of attribute "v" */
  const char *shown;   /* what the form's value entry shows (NULL: not an entry) */
} TypeCase;

static const TypeCase type_cases[] = {
  { "S", "{\"S\":\"héllo \\\"quoted\\\"\\nline\"}", "héllo \"quoted\"\nline" },
  { "N", "{\"N\":\"12345678901234567890123456789012345678\"}",
    "12345678901234567890123456789012345678" },
  { "N-small", "{\"N\":\"-0.000000000000000000000000000000000001\"}",
    "-0.000000000000000000000000000000000001" },
  { "B", "{\"B\":\"AP+AgQ==\"}", "AP+AgQ==" },
  { "BOOL", "{\"BOOL\":false}", NULL },
  { "NULL", "{\"NULL\":true}", NULL },
  { "M", "{\"M\":{\"street\":{\"S\":\"Main\"},"
         "\"no\":{\"N\":\"99999999999999999999999999999999999999\"},"
         "\"deep\":{\"M\":{\"bin\":{\"B\":\"AQID\"},\"flag\":{\"BOOL\":true}}}}}", NULL },
  { "L", "{\"L\":[{\"S\":\"a\"},{\"N\":\"1\"},{\"L\":[{\"NULL\":true}]},{\"M\":{}},"
         "{\"SS\":[\"x\"]}]}", NULL },
  { "SS", "{\"SS\":[\"red\",\"green\",\"\"]}", NULL },
  { "NS", "{\"NS\":[\"1\",\"12345678901234567890123456789012345678\",\"-2.5\"]}", NULL },
  { "BS", "{\"BS\":[\"AQ==\",\"/w==\"]}", NULL },
  /* U+0000 is shown as ␀ and kept: the form gives back the exact string. */
  { "S-nul", "{\"S\":\"a\\u0000b\\u0000\"}", "a\u2400b\u2400" },
  { "M-nul", "{\"M\":{\"k\\u0000\":{\"SS\":[\"\\u0000\",\"x\"]},\"\\u2400\":{\"S\":\"\\u2400\"}}}",
    NULL },
};

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  const TypeCase *tc = data;
  g_autofree char *text = g_strdup_printf ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"},"
                                           "\"v\":%s}", tc->value);
  g_autoptr(DynoItem) original = item (text);
  g_autoptr(DynoItem) from_form = NULL;
  g_autoptr(DynoItem) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *back_text = NULL;
  DynoItemForm *form;
  GtkWidget *row;

  open_editor (fixture, NULL, DYNO_ITEM_EDITOR_NEW, NULL);
  dyno_item_editor_set_text (fixture->editor, text);
  g_assert_false (gtk_widget_get_visible (editor_part (fixture, "item_error_label")));

  g_assert_true (dyno_item_editor_set_view (fixture->editor, DYNO_ITEM_EDITOR_VIEW_FORM));
  form = DYNO_ITEM_FORM (editor_part (fixture, "form"));
  row = dyno_item_form_find_attribute (form, "v");
  g_assert_nonnull (row);
  if (tc->shown != NULL)
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row_value (row))),
                     ==, tc->shown);
  from_form = dyno_item_form_dup_item (form, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_item_equal (from_form, original));

  g_assert_true (dyno_item_editor_set_view (fixture->editor, DYNO_ITEM_EDITOR_VIEW_JSON));
  back_text = dyno_item_editor_dup_text (fixture->editor);
  back = dyno_item_text_parse (back_text, -1, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_item_equal (back, original));
  /* Numbers keep every digit and binary every byte: compare the encoded text too. */
  {
    g_autofree char *want = dyno_value_to_ddb_json (dyno_item_lookup (original, "v"));
    g_autofree char *got = dyno_value_to_ddb_json (dyno_item_lookup (back, "v"));

    g_assert_cmpstr (got, ==, want);
  }
  /* Nothing changed, so nothing is unsaved: the round trip did not alter the item. */
  g_assert_false (!dyno_item_equal (back, original));
}

static void
test_form_edit_through_widgets (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(DynoItem) loaded = item ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"}}");
  g_autoptr(DynoItem) edited = NULL;
  g_autoptr(GError) error = NULL;
  DynoItemForm *form;
  GtkWidget *row, *add_member;
  GtkWidget *set_row;
  g_autoptr(GPtrArray) members = NULL;
  g_auto(GStrv) types = NULL;

  open_editor (fixture, loaded, DYNO_ITEM_EDITOR_EDIT, NULL);
  g_assert_true (dyno_item_editor_set_view (fixture->editor, DYNO_ITEM_EDITOR_VIEW_FORM));
  form = DYNO_ITEM_FORM (editor_part (fixture, "form"));

  /* Key rows: first, type fixed. */
  row = dyno_item_form_find_attribute (form, "pk");
  g_assert_false (gtk_widget_get_sensitive (get_named (row, "type_dropdown")));
  types = dropdown_options (get_named (row, "type_dropdown"));
  g_assert_cmpuint (g_strv_length (types), ==, 10);

  click (editor_part (fixture, "add_button"));
  drain_main_context ();
  row = dyno_item_form_find_attribute (form, "");
  g_assert_nonnull (row);
  type_text (get_named (row, "name_entry"), "total");
  dropdown_choose (get_named (row, "type_dropdown"), "N");
  type_text (row_value (row), "12345678901234567890123456789012345678");

  set_row = dyno_item_form_add_attribute (form);
  type_text (get_named (set_row, "name_entry"), "tags");
  dropdown_choose (get_named (set_row, "type_dropdown"), "SS");
  add_member = find_button (set_row, "Add _member");
  g_assert_nonnull (add_member);
  click (add_member);
  click (add_member);
  drain_main_context ();
  members = g_ptr_array_new ();
  collect_values (set_row, members);
  g_assert_cmpuint (members->len, ==, 2);
  type_text (g_ptr_array_index (members, 0), "blue");
  type_text (g_ptr_array_index (members, 1), "blue");
  /* Two equal members: the set is refused, naming the attribute; switching is refused too. */
  g_assert_false (dyno_item_editor_set_view (fixture->editor, DYNO_ITEM_EDITOR_VIEW_JSON));
  g_assert_nonnull (strstr (shown_error (editor_part (fixture, "item_error_label")), "tags"));
  g_assert_cmpint (dyno_item_editor_get_view (fixture->editor), ==, DYNO_ITEM_EDITOR_VIEW_FORM);
  type_text (g_ptr_array_index (members, 1), "green");

  g_assert_true (dyno_item_editor_set_view (fixture->editor, DYNO_ITEM_EDITOR_VIEW_JSON));
  edited = dyno_item_editor_dup_item (fixture->editor, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (edited, "total"), NULL), ==,
                   "12345678901234567890123456789012345678");
  g_assert_cmpint (dyno_value_get_kind (dyno_item_lookup (edited, "tags")), ==, DYNO_VALUE_SS);
  g_assert_cmpuint (dyno_value_get_n_children (dyno_item_lookup (edited, "tags")), ==, 2);
  g_assert_true (dyno_item_editor_has_unsaved_changes (fixture->editor));
}

static void
test_form_bad_binary_named (Fixture       *fixture,
                            gconstpointer  data)
{
  DynoItemForm *form;
  GtkWidget *row;
  g_autoptr(GError) error = NULL;
  DynoItem *result;

  open_editor (fixture, NULL, DYNO_ITEM_EDITOR_NEW, NULL);
  g_assert_true (dyno_item_editor_set_view (fixture->editor, DYNO_ITEM_EDITOR_VIEW_FORM));
  form = DYNO_ITEM_FORM (editor_part (fixture, "form"));
  row = dyno_item_form_add_attribute (form);
  type_text (get_named (row, "name_entry"), "blob");
  dropdown_choose (get_named (row, "type_dropdown"), "B");
  type_text (row_value (row), "not base64!");
  result = dyno_item_form_dup_item (form, &error);
  g_assert_null (result);
  g_assert_nonnull (strstr (error->message, "blob"));
  g_assert_nonnull (strstr (error->message, "base64"));
}

/* ---- validation ----------------------------------------------------------------------------- */

static void
test_invalid_json_shows_line (Fixture       *fixture,
                              gconstpointer  data)
{
  const char *bad = "{\n  \"pk\": {\"S\": \"USER#1\"},\n  \"sk\": {\"S\" \"A\"}\n}\n";
  GtkTextBuffer *buffer;
  GtkTextIter iter;
  GtkTextTag *tag;
  const char *message;

  open_editor (fixture, NULL, DYNO_ITEM_EDITOR_NEW, NULL);
  dyno_item_editor_set_text (fixture->editor, bad);

  message = shown_error (editor_part (fixture, "item_error_label"));
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "line 3, column"));
  g_assert_false (gtk_widget_get_sensitive (editor_part (fixture, "save_button")));

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor_part (fixture, "source_view")));
  tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "dyno-error-line");
  g_assert_nonnull (tag);
  gtk_text_buffer_get_iter_at_line (buffer, &iter, 2);
  g_assert_true (gtk_text_iter_has_tag (&iter, tag));
  gtk_text_buffer_get_iter_at_line (buffer, &iter, 1);
  g_assert_false (gtk_text_iter_has_tag (&iter, tag));

  /* Switching is refused and the text is left exactly as typed. */
  g_assert_false (dyno_item_editor_set_view (fixture->editor, DYNO_ITEM_EDITOR_VIEW_FORM));
  g_assert_cmpint (dyno_item_editor_get_view (fixture->editor), ==, DYNO_ITEM_EDITOR_VIEW_JSON);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (editor_part (fixture,
                                                                               "json_button"))));
  {
    g_autofree char *text = dyno_item_editor_dup_text (fixture->editor);

    g_assert_cmpstr (text, ==, bad);
  }

  /* Fixing it clears the mark. */
  dyno_item_editor_set_text (fixture->editor, "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"}}");
  g_assert_null (shown_error (editor_part (fixture, "item_error_label")));
  g_assert_true (gtk_widget_get_sensitive (editor_part (fixture, "save_button")));
}

static void
test_bad_number_shows_line (Fixture       *fixture,
                            gconstpointer  data)
{
  open_editor (fixture, NULL, DYNO_ITEM_EDITOR_NEW, NULL);
  dyno_item_editor_set_text (fixture->editor,
                             "{\n\"pk\": {\"S\": \"a\"},\n\"sk\": {\"S\": \"b\"},\n"
                             "\"n\": {\"N\": \"1e999\"}\n}");
  g_assert_nonnull (strstr (shown_error (editor_part (fixture, "item_error_label")), "line 4"));
}

/* ---- saving --------------------------------------------------------------------------------- */

static void
test_save_new_puts_with_condition (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(DynoItem) expected = item ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#7\"},"
                                       "\"total\":{\"N\":\"42\"}}");
  g_autoptr(DynoItem) sent = NULL;
  g_autoptr(DynoItem) stored = NULL;
  g_autofree char *text = dyno_item_text_format (expected);
  JsonObject *body;
  const char *code;

  fixture->engine = engine_new ();
  open_editor (fixture, NULL, DYNO_ITEM_EDITOR_NEW, NULL);
  dyno_item_editor_set_text (fixture->editor, text);

  /* The request about to be sent is shown as code (under "Show request"). */
  gtk_expander_set_expanded (GTK_EXPANDER (editor_part (fixture, "request_expander")), TRUE);
  code = dyno_code_view_get_code (DYNO_CODE_VIEW (editor_part (fixture, "code_view")));
  g_assert_nonnull (code);
  g_assert_nonnull (strstr (code, "orders"));

  click (editor_part (fixture, "save_button"));
  wait_for_pointer ((gpointer *) &fixture->saved);

  g_assert_cmpuint (fixture->engine->operations->len, ==, 1);
  g_assert_cmpstr (recorder_operation (fixture->engine, 0), ==, "PutItem");
  body = recorder_body (fixture->engine, 0, parser);
  g_assert_nonnull (strstr (json_object_get_string_member (body, "ConditionExpression"),
                            "attribute_not_exists"));
  sent = dyno_item_from_json_node (json_object_get_member (body, "Item"), NULL);
  g_assert_true (dyno_item_equal (sent, expected));
  g_assert_true (dyno_item_equal (fixture->saved, expected));
  g_assert_true (editor_closed (fixture));
  /* the engine has it, as the editor said */
  stored = engine_get (fixture->engine, "USER#1", "ORDER#7");
  g_assert_nonnull (stored);
  g_assert_true (dyno_item_equal (stored, expected));
}

static void
test_save_edit_updates_conditioned (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(DynoItem) loaded = item ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#7\"},"
                                     "\"status\":{\"S\":\"open\"},\"total\":{\"N\":\"42\"}}");
  g_autoptr(DynoItem) stored = NULL;
  g_autofree char *loaded_json = dyno_item_to_ddb_json (loaded);
  JsonObject *body;

  fixture->engine = engine_new ();
  engine_put (fixture->engine, loaded_json);
  open_editor (fixture, loaded, DYNO_ITEM_EDITOR_EDIT, NULL);
  g_assert_false (dyno_item_editor_has_unsaved_changes (fixture->editor));
  dyno_item_editor_set_text (fixture->editor,
                             "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#7\"},"
                             "\"status\":{\"S\":\"shipped\"},\"total\":{\"N\":\"42\"}}");
  g_assert_true (dyno_item_editor_has_unsaved_changes (fixture->editor));
  dyno_item_editor_save (fixture->editor);
  wait_for_pointer ((gpointer *) &fixture->saved);

  g_assert_cmpuint (fixture->engine->operations->len, ==, 1);
  g_assert_cmpstr (recorder_operation (fixture->engine, 0), ==, "UpdateItem");
  body = recorder_body (fixture->engine, 0, parser);
  g_assert_true (json_object_has_member (body, "UpdateExpression"));
  g_assert_true (json_object_has_member (body, "ConditionExpression"));
  /* Conditioned on what was loaded: the old status and the untouched total. */
  g_assert_true (has_expression_value (body, "{\"S\":\"open\"}"));
  g_assert_true (has_expression_value (body, "{\"N\":\"42\"}"));
  g_assert_true (has_expression_value (body, "{\"S\":\"shipped\"}"));
  /* and the engine, which held what was loaded, took it */
  stored = engine_get (fixture->engine, "USER#1", "ORDER#7");
  g_assert_true (dyno_item_equal (stored, fixture->saved));
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (stored, "status"), NULL), ==,
                   "shipped");
}

static void
test_edit_key_change_refused (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(DynoItem) loaded = item ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#7\"}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) request = NULL;

  open_editor (fixture, loaded, DYNO_ITEM_EDITOR_EDIT, NULL);
  dyno_item_editor_set_text (fixture->editor,
                             "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#8\"}}");
  request = dyno_item_editor_dup_request (fixture->editor, &error);
  g_assert_null (request);
  g_assert_nonnull (strstr (error->message, "“sk”"));
  g_assert_nonnull (strstr (error->message, "Duplicate"));
  g_assert_false (gtk_widget_get_sensitive (editor_part (fixture, "save_button")));
  dyno_item_editor_save (fixture->editor);
  drain_main_context ();
  g_assert_cmpuint (test_backend_get_n_calls (fixture->backend), ==, 0);
  g_assert_nonnull (shown_error (editor_part (fixture, "save_error_label")));
}

static void
test_key_sizes_refused (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) request = NULL;
  g_autofree char *long_pk = g_strnfill (2100, 'x');
  /* 1025 bytes of UTF-8 in 513 characters: sizes are counted in bytes, as DynamoDB does */
  g_autoptr(GString) long_sk = g_string_new ("é");
  g_autofree char *text = NULL;
  const char *message;

  for (guint i = 0; i < 511; i++)
    g_string_append (long_sk, "é");
  g_string_append_c (long_sk, 'x');
  g_assert_cmpuint (long_sk->len, ==, 1025);

  open_editor (fixture, NULL, DYNO_ITEM_EDITOR_NEW, NULL);
  text = g_strdup_printf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"a\"}}", long_pk);
  dyno_item_editor_set_text (fixture->editor, text);
  request = dyno_item_editor_dup_request (fixture->editor, &error);
  g_assert_null (request);
  g_assert_nonnull (strstr (error->message, "2100 bytes"));
  g_assert_nonnull (strstr (error->message, "2048"));
  message = shown_error (editor_part (fixture, "item_error_label"));
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "partition key pk"));
  g_assert_false (gtk_widget_get_sensitive (editor_part (fixture, "save_button")));
  g_clear_error (&error);

  g_free (text);
  text = g_strdup_printf ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"%s\"}}", long_sk->str);
  dyno_item_editor_set_text (fixture->editor, text);
  g_assert_null (dyno_item_editor_dup_request (fixture->editor, &error));
  g_assert_nonnull (strstr (error->message, "1025 bytes"));
  g_assert_nonnull (strstr (error->message, "1024"));
  g_clear_error (&error);

  /* at the limits exactly: accepted */
  g_free (text);
  g_string_truncate (long_sk, 1024);
  long_pk[2048] = '\0';
  text = g_strdup_printf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"%s\"}}", long_pk,
                          long_sk->str);
  dyno_item_editor_set_text (fixture->editor, text);
  request = dyno_item_editor_dup_request (fixture->editor, &error);
  g_assert_no_error (error);
  g_assert_nonnull (request);
  g_assert_null (shown_error (editor_part (fixture, "item_error_label")));
  g_assert_true (gtk_widget_get_sensitive (editor_part (fixture, "save_button")));
}

static void
test_failed_save_keeps_edits (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(DynoItem) loaded = item ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"},"
                                     "\"v\":{\"S\":\"old\"}}");
  const char *mine = "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"},\"v\":{\"S\":\"mine\"}}";
  g_autofree char *text = NULL;

  test_backend_queue_reply (fixture->backend, 400,
                            "{\"__type\":\"com.amazon.coral.validate#ValidationException\","
                            "\"message\":\"Item size has exceeded the maximum allowed size\"}");
  open_editor (fixture, loaded, DYNO_ITEM_EDITOR_EDIT, NULL);
  dyno_item_editor_set_text (fixture->editor, mine);
  dyno_item_editor_save (fixture->editor);
  while (test_backend_get_n_calls (fixture->backend) < 1 ||
         !gtk_widget_get_visible (editor_part (fixture, "save_error_label")))
    g_main_context_iteration (NULL, TRUE);
  drain_main_context ();

  g_assert_cmpstr (shown_error (editor_part (fixture, "save_error_label")), ==,
                   "ValidationException: Item size has exceeded the maximum allowed size");
  text = dyno_item_editor_dup_text (fixture->editor);
  g_assert_cmpstr (text, ==, mine);
  g_assert_false (editor_closed (fixture));
  g_assert_null (fixture->saved);
  g_assert_true (gtk_widget_get_sensitive (editor_part (fixture, "save_button")));
}

/* On the engine: @loaded (DynamoDB JSON, NULL: a new item) is put and opened in the editor,
 * another writer puts @theirs behind the editor's back, and the editor saves @mine.  The
 * engine refuses the save's condition from its own state; the editor reads their item. */
static void
start_conflict (Fixture    *fixture,
                const char *loaded_json,
                const char *mine,
                const char *theirs)
{
  g_autoptr(DynoItem) loaded = loaded_json != NULL ? item (loaded_json) : NULL;

  fixture->engine = engine_new ();
  if (loaded_json != NULL)
    engine_put (fixture->engine, loaded_json);
  open_editor (fixture, loaded, loaded ? DYNO_ITEM_EDITOR_EDIT : DYNO_ITEM_EDITOR_NEW, NULL);
  engine_put (fixture->engine, theirs);
  dyno_item_editor_set_text (fixture->editor, mine);
  dyno_item_editor_save (fixture->editor);
  /* (a save that went through, had the engine not refused, ends the wait too, and fails) */
  while (dyno_item_editor_get_conflict_dialog (fixture->editor) == NULL
         && fixture->saved == NULL)
    g_main_context_iteration (NULL, TRUE);
  drain_main_context ();
  g_assert_null (fixture->saved);
  g_assert_nonnull (dyno_item_editor_get_conflict_dialog (fixture->editor));
}

static const char *conflict_loaded =
  "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"},\"status\":{\"S\":\"open\"},"
  "\"note\":{\"S\":\"x\"}}";
static const char *conflict_mine =
  "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"},\"status\":{\"S\":\"shipped\"},"
  "\"note\":{\"S\":\"x\"}}";
/* another writer's version, put while the editor had the item open */
static const char *conflict_theirs_item =
  "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"},\"status\":{\"S\":\"cancelled\"},"
  "\"note\":{\"S\":\"x\"}}";
/* the same, as a canned GetItem answer (the tests of lost answers) */
static const char *conflict_theirs =
  "{\"Item\":{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"},\"status\":{\"S\":\"cancelled\"},"
  "\"note\":{\"S\":\"x\"}}}";

/* The first attempt of the save was applied but its answer lost; the retry was refused by
 * the condition (our own write).  The item as it is now is exactly the user's version: saved,
 * with no conflict shown. */
static void
test_save_answer_lost_is_saved (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(DynoItem) loaded = item (conflict_loaded);
  g_autoptr(DynoItem) mine = item (conflict_mine);
  g_autofree char *now = g_strdup_printf ("{\"Item\":%s}", conflict_mine);

  test_backend_queue_reply (fixture->backend, 400, conditional_failed);
  test_backend_queue_reply (fixture->backend, 200, now);
  open_editor (fixture, loaded, DYNO_ITEM_EDITOR_EDIT, NULL);
  dyno_item_editor_set_text (fixture->editor, conflict_mine);
  dyno_item_editor_save (fixture->editor);
  wait_for_pointer ((gpointer *) &fixture->saved);

  g_assert_null (dyno_item_editor_get_conflict_dialog (fixture->editor));
  g_assert_true (dyno_item_equal (fixture->saved, mine));
  g_assert_cmpuint (test_backend_get_n_calls (fixture->backend), ==, 2);
  g_assert_cmpstr (test_backend_get_operation (fixture->backend, 1), ==, "GetItem");
  g_assert_true (editor_closed (fixture));
}

static const char *internal_error =
  "{\"__type\":\"com.amazonaws.dynamodb.v20120810#InternalServerError\","
  "\"message\":\"Internal server error\"}";

/* A save that got a 5xx (its outcome unknown) waits until the editor has read the item. */
static void
save_with_unknown_outcome (Fixture    *fixture,
                           DynoItem   *loaded,
                           const char *get_status_and_body)
{
  gboolean timed_out = FALSE;
  guint timeout_id;

  test_backend_queue_reply (fixture->backend, 500, internal_error);
  if (g_str_has_prefix (get_status_and_body, "500 "))
    test_backend_queue_reply (fixture->backend, 500, get_status_and_body + 4);
  else
    test_backend_queue_reply (fixture->backend, 200, get_status_and_body);
  open_editor (fixture, loaded, loaded ? DYNO_ITEM_EDITOR_EDIT : DYNO_ITEM_EDITOR_NEW, NULL);
  dyno_item_editor_set_text (fixture->editor, conflict_mine);
  dyno_item_editor_save (fixture->editor);
  /* Bounded: an editor that never reads the item (or never ends) fails, not hangs. */
  timeout_id = g_timeout_add_seconds (10, timeout_cb, &timed_out);
  while (!timed_out && fixture->saved == NULL
         && dyno_item_editor_get_conflict_dialog (fixture->editor) == NULL
         && !(test_backend_get_n_calls (fixture->backend) == 2
              && gtk_widget_get_sensitive (editor_part (fixture, "save_button"))))
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout_id);
  drain_main_context ();
  g_assert_cmpuint (test_backend_get_n_calls (fixture->backend), ==, 2);
  g_assert_cmpstr (test_backend_get_operation (fixture->backend, 1), ==, "GetItem");
}

static void
test_save_5xx_applied_is_saved (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(DynoItem) loaded = item (conflict_loaded);
  g_autoptr(DynoItem) mine = item (conflict_mine);
  g_autofree char *now = g_strdup_printf ("{\"Item\":%s}", conflict_mine);

  save_with_unknown_outcome (fixture, loaded, now);
  g_assert_nonnull (fixture->saved);
  g_assert_true (dyno_item_equal (fixture->saved, mine));
  g_assert_true (editor_closed (fixture));
}

static void
test_save_5xx_not_applied_says_so (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(DynoItem) loaded = item (conflict_loaded);
  g_autofree char *now = g_strdup_printf ("{\"Item\":%s}", conflict_loaded);
  g_autofree char *text = NULL;

  /* an edit: the item is as loaded */
  save_with_unknown_outcome (fixture, loaded, now);
  g_assert_null (fixture->saved);
  g_assert_null (dyno_item_editor_get_conflict_dialog (fixture->editor));
  g_assert_cmpstr (shown_error (editor_part (fixture, "save_error_label")), ==,
                   "The item was not saved (the table is unchanged): InternalServerError: "
                   "Internal server error");
  text = dyno_item_editor_dup_text (fixture->editor);
  g_assert_cmpstr (text, ==, conflict_mine);
  g_assert_false (editor_closed (fixture));
}

static void
test_save_5xx_new_not_applied_says_so (Fixture       *fixture,
                                       gconstpointer  data)
{
  /* a new item: there is none */
  save_with_unknown_outcome (fixture, NULL, "{}");
  g_assert_null (fixture->saved);
  g_assert_null (dyno_item_editor_get_conflict_dialog (fixture->editor));
  g_assert_true (g_str_has_prefix (shown_error (editor_part (fixture, "save_error_label")),
                                   "The item was not saved (the table is unchanged): "));
}

static void
test_save_5xx_unreadable_may_be_applied (Fixture       *fixture,
                                         gconstpointer  data)
{
  g_autoptr(DynoItem) loaded = item (conflict_loaded);
  const char *message;

  save_with_unknown_outcome (fixture, loaded, "500 {\"__type\":\"InternalServerError\","
                                              "\"message\":\"still down\"}");
  g_assert_null (fixture->saved);
  message = shown_error (editor_part (fixture, "save_error_label"));
  g_assert_nonnull (message);
  g_assert_true (g_str_has_prefix (message, "The save got no usable answer and may have been "
                                            "applied (InternalServerError: Internal server "
                                            "error); reading the item to tell failed too: "));
  g_assert_nonnull (strstr (message, "still down"));
  g_assert_true (dyno_item_editor_has_unsaved_changes (fixture->editor));
}

static void
test_save_5xx_changed_meanwhile_is_a_conflict (Fixture       *fixture,
                                               gconstpointer  data)
{
  g_autoptr(DynoItem) loaded = item (conflict_loaded);

  save_with_unknown_outcome (fixture, loaded, conflict_theirs);
  g_assert_null (fixture->saved);
  g_assert_nonnull (dyno_item_editor_get_conflict_dialog (fixture->editor));
}

static void
test_conflict_keeps_edits_and_reloads (Fixture       *fixture,
                                       gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(DynoItem) theirs = item (conflict_theirs_item);
  g_autoptr(DynoItem) now = NULL;
  g_autoptr(DynoItem) stored = NULL;
  g_auto(GStrv) changed = NULL;
  g_autofree char *text = NULL;
  JsonObject *body;
  GtkWidget *dialog;

  start_conflict (fixture, conflict_loaded, conflict_mine, conflict_theirs_item);

  /* The save failed visibly, the edits are intact, and the current item was read. */
  g_assert_cmpstr (shown_error (editor_part (fixture, "save_error_label")), ==,
                   "ConditionalCheckFailedException: The conditional request failed");
  text = dyno_item_editor_dup_text (fixture->editor);
  g_assert_cmpstr (text, ==, conflict_mine);
  g_assert_cmpuint (fixture->engine->operations->len, ==, 2);
  g_assert_cmpstr (recorder_operation (fixture->engine, 0), ==, "UpdateItem");
  g_assert_cmpstr (recorder_operation (fixture->engine, 1), ==, "GetItem");
  body = recorder_body (fixture->engine, 1, parser);
  g_assert_true (json_object_get_boolean_member (body, "ConsistentRead"));

  dialog = dyno_item_editor_get_conflict_dialog (fixture->editor);
  changed = dyno_conflict_dialog_dup_changed (DYNO_CONFLICT_DIALOG (dialog));
  g_assert_cmpstrv (changed, ((const char * const[]) { "status", NULL }));
  g_assert_true (gtk_widget_get_sensitive (get_named (dialog, "reload_button")));

  click (get_named (dialog, "reload_button"));
  drain_main_context ();
  g_assert_null (dyno_item_editor_get_conflict_dialog (fixture->editor));
  now = dyno_item_editor_dup_item (fixture->editor, NULL);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (now, "status"), NULL), ==,
                   "cancelled");
  g_assert_true (dyno_item_equal (now, theirs));
  g_assert_false (dyno_item_editor_has_unsaved_changes (fixture->editor));
  g_assert_null (shown_error (editor_part (fixture, "save_error_label")));
  g_assert_false (editor_closed (fixture));
  /* nothing of mine was written: the item is still theirs */
  g_assert_cmpuint (fixture->engine->operations->len, ==, 2);
  stored = engine_get (fixture->engine, "USER#1", "A");
  g_assert_nonnull (stored);
  g_assert_true (dyno_item_equal (stored, theirs));
}

static void
test_conflict_overwrite (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(DynoItem) mine = item (conflict_mine);
  g_autoptr(DynoItem) stored = NULL;
  JsonObject *body;
  GtkWidget *dialog;

  start_conflict (fixture, conflict_loaded, conflict_mine, conflict_theirs_item);
  dialog = dyno_item_editor_get_conflict_dialog (fixture->editor);
  click (get_named (dialog, "overwrite_button"));
  wait_for_pointer ((gpointer *) &fixture->saved);

  g_assert_cmpuint (fixture->engine->operations->len, ==, 3);
  g_assert_cmpstr (recorder_operation (fixture->engine, 2), ==, "UpdateItem");
  body = recorder_body (fixture->engine, 2, parser);
  /* Conditioned on their version now, not on the stale loaded one. */
  g_assert_true (has_expression_value (body, "{\"S\":\"cancelled\"}"));
  g_assert_false (has_expression_value (body, "{\"S\":\"open\"}"));
  g_assert_true (has_expression_value (body, "{\"S\":\"shipped\"}"));
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (fixture->saved, "status"), NULL),
                   ==, "shipped");
  /* the engine took it (its condition held on their version): the item is now mine */
  stored = engine_get (fixture->engine, "USER#1", "A");
  g_assert_nonnull (stored);
  g_assert_true (dyno_item_equal (stored, mine));
}

static void
test_new_item_exists_conflict (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(DynoItem) theirs = item (conflict_theirs_item);
  g_autoptr(DynoItem) stored = NULL;
  GtkWidget *dialog;
  g_auto(GStrv) changed = NULL;

  start_conflict (fixture, NULL,
                  "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"},\"status\":{\"S\":\"new\"}}",
                  conflict_theirs_item);
  g_assert_cmpstr (recorder_operation (fixture->engine, 0), ==, "PutItem");
  g_assert_cmpstr (recorder_operation (fixture->engine, 1), ==, "GetItem");
  dialog = dyno_item_editor_get_conflict_dialog (fixture->editor);
  changed = dyno_conflict_dialog_dup_changed (DYNO_CONFLICT_DIALOG (dialog));
  g_assert_true (g_strv_contains ((const char * const *) changed, "status"));
  g_assert_true (g_strv_contains ((const char * const *) changed, "note"));

  /* Keep editing: nothing else is sent, the edits stay. */
  dyno_conflict_dialog_choose (DYNO_CONFLICT_DIALOG (dialog), DYNO_CONFLICT_CANCEL);
  drain_main_context ();
  g_assert_cmpuint (fixture->engine->operations->len, ==, 2);
  g_assert_cmpint (dyno_item_editor_get_mode (fixture->editor), ==, DYNO_ITEM_EDITOR_NEW);
  g_assert_true (dyno_item_editor_has_unsaved_changes (fixture->editor));
  /* the item that existed is untouched */
  stored = engine_get (fixture->engine, "USER#1", "A");
  g_assert_nonnull (stored);
  g_assert_true (dyno_item_equal (stored, theirs));
}

static void
test_duplicate_is_new (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(DynoItem) loaded = item ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"},"
                                     "\"v\":{\"N\":\"1\"}}");
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoItem) now = NULL;

  open_editor (fixture, loaded, DYNO_ITEM_EDITOR_DUPLICATE, NULL);
  now = dyno_item_editor_dup_item (fixture->editor, NULL);
  g_assert_true (dyno_item_equal (now, loaded));
  dyno_item_editor_set_text (fixture->editor,
                             "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"B\"},"
                             "\"v\":{\"N\":\"1\"}}");
  request = dyno_item_editor_dup_request (fixture->editor, NULL);
  g_assert_nonnull (request);
  g_assert_cmpint (request->operation, ==, DYNO_OP_PUT_ITEM);
  g_assert_nonnull (request->condition);
}

/* ---- sort feedback --------------------------------------------------------------------------- */

static void
test_sort_feedback (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) collection =
    g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  const char *text;

  g_ptr_array_add (collection,
                   item ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#2026-01-01\"}}"));
  g_ptr_array_add (collection,
                   item ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#2026-03-01\"}}"));
  g_ptr_array_add (collection,
                   item ("{\"pk\":{\"S\":\"USER#2\"},\"sk\":{\"S\":\"ORDER#2026-02-01\"}}"));
  open_editor (fixture, NULL, DYNO_ITEM_EDITOR_NEW, collection);

  dyno_item_editor_set_text (fixture->editor,
                             "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#2026-02-01\"}}");
  text = shown_error (editor_part (fixture, "placement_label"));
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "between"));
  g_assert_nonnull (strstr (text, "ORDER#2026-01-01"));
  g_assert_nonnull (strstr (text, "ORDER#2026-03-01"));

  dyno_item_editor_set_text (fixture->editor,
                             "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#2025-12-01\"}}");
  g_assert_nonnull (strstr (shown_error (editor_part (fixture, "placement_label")), "first"));

  dyno_item_editor_set_text (fixture->editor,
                             "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#2026-03-01\"}}");
  g_assert_nonnull (strstr (shown_error (editor_part (fixture, "placement_label")), "Replaces"));

  /* A non-ISO date among ISO ones is warned about. */
  g_assert_null (shown_error (editor_part (fixture, "lints_label")));
  dyno_item_editor_set_text (fixture->editor,
                             "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#3/15/2026\"}}");
  g_assert_nonnull (shown_error (editor_part (fixture, "lints_label")));
}

/* ---- closing --------------------------------------------------------------------------------- */

static void
test_close_with_unsaved_asks (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(DynoItem) loaded = item ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"}}");
  GtkWidget *dialog;

  open_editor (fixture, loaded, DYNO_ITEM_EDITOR_EDIT, NULL);
  dyno_item_editor_set_text (fixture->editor,
                             "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"},"
                             "\"x\":{\"S\":\"y\"}}");
  gtk_window_close (GTK_WINDOW (fixture->editor));
  drain_main_context ();
  g_assert_false (editor_closed (fixture));
  dialog = find_toplevel ("Discard Unsaved Changes?");
  g_assert_nonnull (dialog);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "discard");
  drain_main_context ();
  g_assert_true (editor_closed (fixture));
}

static void
test_close_unchanged_closes (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(DynoItem) loaded = item ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"A\"}}");

  open_editor (fixture, loaded, DYNO_ITEM_EDITOR_EDIT, NULL);
  /* A view round trip is not a change. */
  g_assert_true (dyno_item_editor_set_view (fixture->editor, DYNO_ITEM_EDITOR_VIEW_FORM));
  g_assert_true (dyno_item_editor_set_view (fixture->editor, DYNO_ITEM_EDITOR_VIEW_JSON));
  gtk_window_close (GTK_WINDOW (fixture->editor));
  drain_main_context ();
  g_assert_true (editor_closed (fixture));
  g_assert_null (find_toplevel ("Discard Unsaved Changes?"));
}

/* ---- deleting -------------------------------------------------------------------------------- */

typedef struct {
  gboolean   finished;
  gboolean   cancelled;
  guint      n_requested;
  GPtrArray *deleted;   /* DynoItem* */
  char      *error;
} DeleteResult;

static void
delete_done_cb (GPtrArray    *deleted_keys,
                guint         n_requested,
                gboolean      cancelled,
                const GError *error,
                gpointer      user_data)
{
  DeleteResult *result = user_data;

  result->finished = TRUE;
  result->cancelled = cancelled;
  result->n_requested = n_requested;
  result->deleted = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  for (guint i = 0; deleted_keys != NULL && i < deleted_keys->len; i++)
    g_ptr_array_add (result->deleted, dyno_item_ref (g_ptr_array_index (deleted_keys, i)));
  result->error = error ? g_strdup (error->message) : NULL;
}

static void
delete_result_clear (DeleteResult *result)
{
  g_clear_pointer (&result->deleted, g_ptr_array_unref);
  g_clear_pointer (&result->error, g_free);
}

static GPtrArray *
some_items (guint n)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"pk\":{\"S\":\"USER#1\"},"
                                               "\"sk\":{\"S\":\"ORDER#%02u\"},"
                                               "\"status\":{\"S\":\"open\"}}", i);

      g_ptr_array_add (items, item (json));
    }
  return items;
}

static void
test_delete_one (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GPtrArray) items = some_items (1);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *listed = dyno_item_to_ddb_json (g_ptr_array_index (items, 0));
  g_autoptr(DynoItem) left = NULL;
  DeleteResult result = { 0 };
  GtkWidget *dialog;
  JsonObject *body;

  fixture->engine = engine_new ();
  engine_put (fixture->engine, listed);
  dialog = dyno_delete_items_run (NULL, DYNO_BACKEND (fixture->engine), fixture->info, items,
                                  delete_done_cb, &result, NULL);
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==,
                   "Delete 1 item?");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)),
                            "ORDER#00"));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "delete");
  wait_for (&result.finished);

  g_assert_cmpuint (fixture->engine->operations->len, ==, 1);
  g_assert_cmpstr (recorder_operation (fixture->engine, 0), ==, "DeleteItem");
  body = recorder_body (fixture->engine, 0, parser);
  g_assert_true (json_object_has_member (body, "ConditionExpression"));
  g_assert_true (has_expression_value (body, "{\"S\":\"open\"}"));
  g_assert_null (result.error);
  g_assert_cmpuint (result.deleted->len, ==, 1);
  left = engine_get (fixture->engine, "USER#1", "ORDER#00");
  g_assert_null (left);
  /* a success is told by a toast, not a second dialog */
  g_assert_null (find_toplevel ("Deleted "));
  delete_result_clear (&result);
}

static void
test_delete_one_changed_meanwhile (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(GPtrArray) items = some_items (1);
  g_autoptr(DynoItem) stored = NULL;
  g_autofree char *listed = NULL;
  const char *theirs = "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#00\"},"
                       "\"status\":{\"S\":\"shipped\"}}";
  DeleteResult result = { 0 };
  GtkWidget *dialog;

  /* the item as listed is in the engine; another writer changes it before the delete */
  fixture->engine = engine_new ();
  listed = dyno_item_to_ddb_json (g_ptr_array_index (items, 0));
  engine_put (fixture->engine, listed);
  dialog = dyno_delete_items_run (NULL, DYNO_BACKEND (fixture->engine), fixture->info, items,
                                  delete_done_cb, &result, NULL);
  engine_put (fixture->engine, theirs);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "delete");
  wait_for (&result.finished);
  g_assert_cmpstr (recorder_operation (fixture->engine, 0), ==, "DeleteItem");
  g_assert_nonnull (result.error);
  g_assert_nonnull (strstr (result.error, "changed"));
  g_assert_cmpuint (result.deleted->len, ==, 0);
  /* the engine kept their version */
  stored = engine_get (fixture->engine, "USER#1", "ORDER#00");
  g_assert_nonnull (stored);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (stored, "status"), NULL), ==,
                   "shipped");
  delete_result_clear (&result);
}

static void
test_delete_many_batches (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GPtrArray) items = some_items (3);
  g_autoptr(JsonParser) parser = json_parser_new ();
  DeleteResult result = { 0 };
  GtkWidget *dialog;
  JsonObject *body;
  JsonArray *requests;

  /* The first answer leaves one delete unprocessed: it is sent again. */
  test_backend_queue_reply (fixture->backend, 200,
                            "{\"UnprocessedItems\":{\"orders\":[{\"DeleteRequest\":{\"Key\":"
                            "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#02\"}}}}]}}");
  test_backend_queue_reply (fixture->backend, 200, "{\"UnprocessedItems\":{}}");
  dialog = dyno_delete_items_run (NULL, DYNO_BACKEND (fixture->backend), fixture->info, items,
                                  delete_done_cb, &result, NULL);
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==,
                   "Delete 3 items?");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "delete");
  wait_for (&result.finished);

  g_assert_cmpuint (test_backend_get_n_calls (fixture->backend), ==, 2);
  g_assert_cmpstr (test_backend_get_operation (fixture->backend, 0), ==, "BatchWriteItem");
  body = test_backend_get_body_object (fixture->backend, 0, parser);
  requests = json_object_get_array_member (json_object_get_object_member (body, "RequestItems"),
                                           "orders");
  g_assert_cmpuint (json_array_get_length (requests), ==, 3);
  g_assert_true (json_object_has_member (json_array_get_object_element (requests, 0),
                                         "DeleteRequest"));
  body = test_backend_get_body_object (fixture->backend, 1, parser);
  requests = json_object_get_array_member (json_object_get_object_member (body, "RequestItems"),
                                           "orders");
  g_assert_cmpuint (json_array_get_length (requests), ==, 1);

  g_assert_null (result.error);
  g_assert_false (result.cancelled);
  g_assert_cmpuint (result.deleted->len, ==, 3);
  g_assert_cmpuint (result.n_requested, ==, 3);
  /* a success is told by a toast, not a second dialog */
  g_assert_null (find_toplevel ("Deleted "));
  delete_result_clear (&result);
}

/* The server keeps one delete unprocessed: after its retry budget the run gives up, and the
 * caller is told exactly which keys are gone (the acknowledged ones) and which are not. */
static void
test_delete_many_gives_up (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GPtrArray) items = some_items (3);
  DeleteResult result = { 0 };
  GtkWidget *dialog;
  const char *stuck = "{\"UnprocessedItems\":{\"orders\":[{\"DeleteRequest\":{\"Key\":"
                      "{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"S\":\"ORDER#02\"}}}}]}}";

  for (guint i = 0; i < 1 + 8; i++)
    test_backend_queue_reply (fixture->backend, 200, stuck);
  dialog = dyno_delete_items_run (NULL, DYNO_BACKEND (fixture->backend), fixture->info, items,
                                  delete_done_cb, &result, NULL);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "delete");
  wait_for (&result.finished);

  /* the first round, then 8 in which nothing was processed */
  g_assert_cmpuint (test_backend_get_n_calls (fixture->backend), ==, 9);
  g_assert_nonnull (result.error);
  g_assert_cmpuint (result.deleted->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *json = dyno_item_to_ddb_json (g_ptr_array_index (result.deleted, i));

      g_assert_nonnull (strstr (json, i == 0 ? "ORDER#00" : "ORDER#01"));
    }
  g_assert_nonnull (strstr (result.error, "2 of 3 items were deleted"));
  g_assert_nonnull (strstr (result.error, "ORDER#02"));
  g_assert_null (strstr (result.error, "ORDER#01"));
  delete_result_clear (&result);
}

static void
test_delete_cancelled (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GPtrArray) items = some_items (2);
  DeleteResult result = { 0 };
  GtkWidget *dialog;

  dialog = dyno_delete_items_run (NULL, DYNO_BACKEND (fixture->backend), fixture->info, items,
                                  delete_done_cb, &result, NULL);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  drain_main_context ();
  g_assert_true (result.finished);
  g_assert_true (result.cancelled);
  g_assert_cmpuint (result.deleted->len, ==, 0);
  g_assert_cmpuint (test_backend_get_n_calls (fixture->backend), ==, 0);
  delete_result_clear (&result);
}

static void
test_delete_item_without_key (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(GPtrArray) items = some_items (2);
  DeleteResult result = { 0 };
  GtkWidget *dialog;

  g_ptr_array_add (items, item ("{\"pk\":{\"S\":\"USER#1\"},\"status\":{\"S\":\"open\"}}"));
  dialog = dyno_delete_items_run (NULL, DYNO_BACKEND (fixture->backend), fixture->info, items,
                                  delete_done_cb, &result, NULL);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), "sk"));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  drain_main_context ();
  g_assert_true (result.finished);
  g_assert_false (result.cancelled);
  g_assert_nonnull (result.error);
  g_assert_cmpuint (result.deleted->len, ==, 0);
  g_assert_cmpuint (result.n_requested, ==, 3);
  g_assert_cmpuint (test_backend_get_n_calls (fixture->backend), ==, 0);
  delete_result_clear (&result);
}

#define ADD(path, fn, data) \
  g_test_add (path, Fixture, data, fixture_set_up, fn, fixture_tear_down)

int
main (int    argc,
      char **argv)
{
  g_setenv ("DYNO_BATCH_BACKOFF_MS", "1", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  gtk_source_init ();

  for (guint i = 0; i < G_N_ELEMENTS (type_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/item-editor/round-trip/%s", type_cases[i].name);

      ADD (path, test_round_trip, &type_cases[i]);
    }
  ADD ("/item-editor/form/edit-through-widgets", test_form_edit_through_widgets, NULL);
  ADD ("/item-editor/form/bad-binary-named", test_form_bad_binary_named, NULL);
  ADD ("/item-editor/json/invalid-shows-line", test_invalid_json_shows_line, NULL);
  ADD ("/item-editor/json/bad-number-shows-line", test_bad_number_shows_line, NULL);
  ADD ("/item-editor/save/new-puts-with-attribute-not-exists",
       test_save_new_puts_with_condition, NULL);
  ADD ("/item-editor/save/edit-updates-conditioned", test_save_edit_updates_conditioned, NULL);
  ADD ("/item-editor/save/edit-key-change-refused", test_edit_key_change_refused, NULL);
  ADD ("/item-editor/save/key-sizes-refused", test_key_sizes_refused, NULL);
  ADD ("/item-editor/save/failure-keeps-edits", test_failed_save_keeps_edits, NULL);
  ADD ("/item-editor/save/duplicate-is-new", test_duplicate_is_new, NULL);
  ADD ("/item-editor/conflict/keeps-edits-and-reloads", test_conflict_keeps_edits_and_reloads,
       NULL);
  ADD ("/item-editor/save/answer-lost-is-saved", test_save_answer_lost_is_saved, NULL);
  ADD ("/item-editor/save/5xx-applied-is-saved", test_save_5xx_applied_is_saved, NULL);
  ADD ("/item-editor/save/5xx-not-applied-says-so", test_save_5xx_not_applied_says_so, NULL);
  ADD ("/item-editor/save/5xx-new-not-applied-says-so", test_save_5xx_new_not_applied_says_so,
       NULL);
  ADD ("/item-editor/save/5xx-unreadable-may-be-applied",
       test_save_5xx_unreadable_may_be_applied, NULL);
  ADD ("/item-editor/save/5xx-changed-meanwhile-is-a-conflict",
       test_save_5xx_changed_meanwhile_is_a_conflict, NULL);
  ADD ("/item-editor/conflict/overwrite-conditioned-on-theirs", test_conflict_overwrite, NULL);
  ADD ("/item-editor/conflict/new-item-exists", test_new_item_exists_conflict, NULL);
  ADD ("/item-editor/sort-feedback", test_sort_feedback, NULL);
  ADD ("/item-editor/close/unsaved-asks", test_close_with_unsaved_asks, NULL);
  ADD ("/item-editor/close/unchanged-closes", test_close_unchanged_closes, NULL);
  ADD ("/delete-items/one-conditioned", test_delete_one, NULL);
  ADD ("/delete-items/one-changed-meanwhile", test_delete_one_changed_meanwhile, NULL);
  ADD ("/delete-items/many-batch-write", test_delete_many_batches, NULL);
  ADD ("/delete-items/many-gives-up", test_delete_many_gives_up, NULL);
  ADD ("/delete-items/cancelled", test_delete_cancelled, NULL);
  ADD ("/delete-items/item-without-key", test_delete_item_without_key, NULL);

  return g_test_run ();
}
