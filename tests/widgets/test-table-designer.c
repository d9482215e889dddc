/* test-table-designer.c: the table designer and the delete-table dialog, worked in-process
 *
 * The fields are filled through their GTK API and the designer is judged by what it shows
 * (messages under the fields, the Create button and its reason, the request text) and by the
 * requests it sends to an engine in memory, recorded (with a new table's CREATING time and
 * server errors injected where a test asks).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "dyno-backend.h"
#include "dyno-delete-table-dialog.h"
#include "dyno-engine.h"
#include "dyno-engine-error.h"
#include "dyno-table-designer.h"
#include "test-backend.h"
#include "widget-test-util.h"

/* ---- the engine, recorded, with a server's delays and faults on demand -------------------- */

/* Every call is recorded (TestBackend) and answered by a real engine in memory: CreateTable is
 * validated and made as DynamoDB would, DescribeTable describes what was made.  What the engine
 * cannot show by itself is injected: the seconds a new table spends CREATING on AWS (the
 * engine's tables are ACTIVE at once), and a server error on the next write. */
typedef struct {
  TestBackend *backend;
  DynoEngine  *engine;
  char        *fail_with;      /* an AWS error body to answer the next write with, or NULL */
  guint        creating_polls; /* DescribeTable answers CREATING this many times first */
} DesignServer;

/* @description (a DescribeTable answer) with the table and its GSIs CREATING. */
static char *
still_creating (const char *description)
{
  g_autoptr(JsonNode) root = json_from_string (description, NULL);
  JsonObject *table;

  g_assert_nonnull (root);
  table = json_object_get_object_member (json_node_get_object (root), "Table");
  json_object_set_string_member (table, "TableStatus", "CREATING");
  if (json_object_has_member (table, "GlobalSecondaryIndexes"))
    {
      JsonArray *gsis = json_object_get_array_member (table, "GlobalSecondaryIndexes");

      for (guint i = 0; i < json_array_get_length (gsis); i++)
        json_object_set_string_member (json_array_get_object_element (gsis, i),
                                       "IndexStatus", "CREATING");
    }
  return json_to_string (root, FALSE);
}

static char *
design_answer (const char *operation,
               const char *body,
               guint      *out_status,
               gpointer    user_data)
{
  DesignServer *self = user_data;
  g_autoptr(GError) error = NULL;
  char *engine_body = NULL;
  char *answer;

  if (!g_str_equal (operation, "DescribeTable") && self->fail_with != NULL)
    {
      *out_status = 400;
      return g_steal_pointer (&self->fail_with);
    }
  answer = dyno_engine_request_full (self->engine, operation, body, -1, &engine_body, &error);
  if (answer == NULL)
    {
      g_assert_true (error->domain == DYNO_ENGINE_ERROR);
      *out_status = dyno_engine_error_http_status ((DynoEngineErrorCode) error->code);
      return engine_body != NULL ? engine_body : dyno_engine_error_body (error);
    }
  if (g_str_equal (operation, "DescribeTable") && self->creating_polls > 0)
    {
      g_autofree char *active = answer;

      self->creating_polls--;
      return still_creating (active);
    }
  return answer;
}

static DesignServer *
design_server_new (void)
{
  DesignServer *self = g_new0 (DesignServer, 1);
  g_autoptr(GError) error = NULL;

  self->engine = dyno_engine_new (NULL, &error);
  g_assert_no_error (error);
  self->backend = test_backend_new ();
  test_backend_set_handler (self->backend, design_answer, self, NULL);
  return self;
}

/* Table @name as it is in the engine now (its DescribeTable "Table"), parsed into @parser;
 * NULL if there is none.  Not recorded. */
static JsonObject *
engine_table (DesignServer *self,
              const char   *name,
              JsonParser   *parser)
{
  g_autofree char *request = g_strdup_printf ("{\"TableName\":\"%s\"}", name);
  g_autofree char *answer = dyno_engine_request (self->engine, "DescribeTable", request, -1,
                                                 NULL);

  if (answer == NULL)
    return NULL;
  g_assert_true (json_parser_load_from_data (parser, answer, -1, NULL));
  return json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                        "Table");
}

/* Another client made this table (CreateTable @json) before the test: not recorded. */
static void
engine_create (DesignServer *self,
               const char   *json)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = dyno_engine_request (self->engine, "CreateTable", json, -1, &error);

  g_assert_no_error (error);
}

static const char orders_table[] =
  "{\"TableName\":\"orders\",\"BillingMode\":\"PAY_PER_REQUEST\","
  "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
  "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]}";

static void
design_server_free (DesignServer *self)
{
  g_object_unref (self->backend);
  g_object_unref (self->engine);
  g_free (self->fail_with);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DesignServer, design_server_free)

static guint
count_calls (DesignServer *backend,
             const char   *operation)
{
  guint n = 0;

  for (guint i = 0; i < test_backend_get_n_calls (backend->backend); i++)
    if (g_str_equal (test_backend_get_operation (backend->backend, i), operation))
      n++;
  return n;
}

static const char *
body_of (DesignServer *backend,
         const char   *operation)
{
  for (guint i = 0; i < test_backend_get_n_calls (backend->backend); i++)
    if (g_str_equal (test_backend_get_operation (backend->backend, i), operation))
      return test_backend_get_body (backend->backend, i);
  return NULL;
}

/* ---- helpers --------------------------------------------------------------------------- */

static gboolean
timed_out_cb (gpointer data)
{
  g_error ("timed out waiting for the widget (no answer after 20 s)");
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until *@flag is set (a failsafe aborts a hung test; not an assertion
 * on how long anything takes). */
static void
wait_for (gboolean *flag)
{
  guint id = g_timeout_add_seconds (20, timed_out_cb, NULL);

  while (!*flag)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (id);
}

static void
window_gone_cb (gpointer  data,
                GObject  *where)
{
  *(gboolean *) data = TRUE;
}

static void
table_created_cb (GtkWidget  *designer,
                  const char *name,
                  char      **out)
{
  g_free (*out);
  *out = g_strdup (name);
}

static GtkWidget *
new_designer (DesignServer *backend,
              DynoTableInfo *existing)
{
  GtkWidget *designer = dyno_table_designer_new (NULL, DYNO_BACKEND (backend->backend), existing);

  gtk_window_present (GTK_WINDOW (designer));
  drain_main_context ();
  return designer;
}

/* A click as a person makes it: only on a sensitive, visible button.  (gtk_widget_activate()
 * would delay "clicked" by GTK's activation animation.) */
static void
click (GtkWidget *button)
{
  g_assert_true (gtk_widget_is_sensitive (button));
  g_assert_true (gtk_widget_get_mapped (button));
  g_signal_emit_by_name (button, "clicked");
  drain_main_context ();
}

static void
choose_index (GtkWidget *dropdown,
              guint      position)
{
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), position);
}

static void
set_spin (GtkWidget *spin,
          double     value)
{
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
}

/* The part @id (its id in dyno-designer-index-row.ui) of the card of index @i (from 0), or
 * NULL when there is no such index. */
static GtkWidget *
find_index_part (GtkWidget  *designer,
                 guint       i,
                 const char *id)
{
  GtkWidget *card = gtk_widget_get_first_child (get_named (designer, "index_list"));

  for (; card != NULL && i > 0; i--)
    card = gtk_widget_get_next_sibling (card);
  return card != NULL ? find_named (card, id) : NULL;
}

static GtkWidget *
index_part (GtkWidget  *designer,
            guint       i,
            const char *id)
{
  GtkWidget *part = find_index_part (designer, i, id);

  if (part == NULL)
    g_error ("no “%s” in index %u", id, i);
  return part;
}

/* The request text (a collapsed GtkExpander keeps its child out of the widget tree). */
static const char *
request_text (GtkWidget *designer)
{
  gtk_expander_set_expanded (GTK_EXPANDER (get_named (designer, "request_expander")), TRUE);
  return gtk_label_get_label (GTK_LABEL (get_named (designer, "request_label")));
}

static JsonNode *
request_json (GtkWidget *designer)
{
  const char *text = request_text (designer);
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);

  g_assert_no_error (error);
  return node;
}

static void
fill_valid_table (GtkWidget *designer)
{
  type_text (get_named (designer, "table_name"), "orders");
  type_text (get_named (designer, "partition_key_name"), "pk");
  type_text (get_named (designer, "sort_key_name"), "sk");
}

/* ---- tests: new table ------------------------------------------------------------------ */

static void
test_untouched (void)
{
  g_autoptr(DesignServer) backend = design_server_new ();
  GtkWidget *designer = new_designer (backend, NULL);
  GtkWidget *create = get_named (designer, "create_button");

  /* nothing typed yet: no red text under the name, but Create says why it waits */
  g_assert_null (shown_error (get_named (designer, "table_name_error")));
  g_assert_false (gtk_widget_get_sensitive (create));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (create), "table name"));
  g_assert_nonnull (shown_error (get_named (designer, "create_reason")));
  /* on-demand by default: no capacity fields */
  g_assert_false (gtk_widget_get_mapped (get_named (designer, "read_capacity")));

  gtk_window_destroy (GTK_WINDOW (designer));
  drain_main_context ();
}

static void
test_errors_as_you_type (void)
{
  g_autoptr(DesignServer) backend = design_server_new ();
  GtkWidget *designer = new_designer (backend, NULL);
  GtkWidget *create = get_named (designer, "create_button");

  /* table name */
  type_text (get_named (designer, "table_name"), "ab");
  g_assert_nonnull (strstr (shown_error (get_named (designer, "table_name_error")),
                            "3 to 255"));
  g_assert_false (gtk_widget_get_sensitive (create));
  fill_valid_table (designer);
  g_assert_null (shown_error (get_named (designer, "table_name_error")));
  g_assert_true (gtk_widget_get_sensitive (create));
  g_assert_null (shown_error (get_named (designer, "create_reason")));

  /* sort key equal to the partition key */
  type_text (get_named (designer, "sort_key_name"), "pk");
  g_assert_nonnull (shown_error (get_named (designer, "sort_key_name_error")));
  g_assert_false (gtk_widget_get_sensitive (create));
  type_text (get_named (designer, "sort_key_name"), "sk");

  /* provisioned: capacity shown and checked */
  dropdown_choose (get_named (designer, "billing_mode"), "Provisioned");
  drain_main_context ();
  g_assert_true (gtk_widget_get_mapped (get_named (designer, "read_capacity")));
  set_spin (get_named (designer, "read_capacity"), 0);
  g_assert_nonnull (strstr (shown_error (get_named (designer, "read_capacity_error")),
                            "at least 1"));
  g_assert_false (gtk_widget_get_sensitive (create));
  set_spin (get_named (designer, "read_capacity"), 3);
  g_assert_null (shown_error (get_named (designer, "read_capacity_error")));
  g_assert_true (gtk_widget_get_sensitive (create));

  /* an index with INCLUDE and no attributes */
  click (get_named (designer, "add_index_button"));
  drain_main_context ();
  g_assert_false (gtk_widget_get_sensitive (create));
  type_text (index_part (designer, 0, "name"), "gsi1");
  type_text (index_part (designer, 0, "partition_key_name"), "gsi1pk");
  /* under ALL there is nothing to choose: the attributes field is off */
  g_assert_false (gtk_widget_get_sensitive (index_part (designer, 0,
                                                       "projection_attributes")));
  dropdown_choose (index_part (designer, 0, "projection"), "INCLUDE");
  g_assert_true (gtk_widget_get_sensitive (index_part (designer, 0,
                                                      "projection_attributes")));
  g_assert_nonnull (strstr (shown_error (index_part (designer, 0,
                                                    "projection_attributes_error")),
                            "at least one"));
  type_text (index_part (designer, 0, "projection_attributes"), "total, status");
  g_assert_null (shown_error (index_part (designer, 0, "projection_attributes_error")));
  g_assert_true (gtk_widget_get_sensitive (create));

  /* a key attribute among them */
  type_text (index_part (designer, 0, "projection_attributes"), "total, sk");
  g_assert_nonnull (strstr (shown_error (index_part (designer, 0,
                                                    "projection_attributes_error")),
                            "“sk”"));
  type_text (index_part (designer, 0, "projection_attributes"), "total");

  /* back to ALL: the typed attributes are kept for INCLUDE but are not part of the request */
  dropdown_choose (index_part (designer, 0, "projection"), "ALL");
  g_assert_false (gtk_widget_get_sensitive (index_part (designer, 0,
                                                       "projection_attributes")));
  g_assert_null (shown_error (index_part (designer, 0, "projection_attributes_error")));
  g_assert_true (gtk_widget_get_sensitive (create));
  dropdown_choose (index_part (designer, 0, "projection"), "INCLUDE");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (index_part (designer, 0,
                                                        "projection_attributes"))),
                   ==, "total");

  /* the same attribute with two types */
  type_text (index_part (designer, 0, "partition_key_name"), "sk");
  choose_index (index_part (designer, 0, "partition_key_type"), 1);
  g_assert_nonnull (shown_error (index_part (designer, 0, "partition_key_type_error")));
  choose_index (index_part (designer, 0, "partition_key_type"), 0);
  g_assert_null (shown_error (index_part (designer, 0, "partition_key_type_error")));

  /* a second index, an LSI: it takes the table's partition key, read-only */
  click (get_named (designer, "add_index_button"));
  drain_main_context ();
  dropdown_choose (index_part (designer, 1, "type"), "Local (LSI)");
  type_text (index_part (designer, 1, "name"), "gsi1");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (index_part (designer, 1,
                                                                   "partition_key_name"))),
                   ==, "pk");
  g_assert_false (gtk_widget_get_sensitive (index_part (designer, 1, "partition_key_name")));
  g_assert_nonnull (strstr (shown_error (index_part (designer, 1, "name_error")),
                            "share one set of names"));
  g_assert_nonnull (shown_error (index_part (designer, 1, "sort_key_name_error")));
  type_text (index_part (designer, 1, "name"), "by-date");
  type_text (index_part (designer, 1, "sort_key_name"), "created");
  g_assert_true (gtk_widget_get_sensitive (create));
  /* an LSI has no capacity of its own */
  g_assert_false (gtk_widget_get_mapped (index_part (designer, 1, "read_capacity")));
  g_assert_true (gtk_widget_get_mapped (index_part (designer, 0, "read_capacity")));

  /* removing the first index renumbers the rest */
  click (index_part (designer, 0, "remove_button"));
  drain_main_context ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (index_part (designer, 0, "name"))),
                   ==, "by-date");
  g_assert_null (find_index_part (designer, 1, "name"));
  g_assert_true (gtk_widget_get_sensitive (create));

  /* the request shown is the one the design sends */
  {
    g_autoptr(JsonNode) node = request_json (designer);
    JsonObject *req = json_node_get_object (node);
    JsonObject *lsi;

    g_assert_cmpstr (json_object_get_string_member (req, "TableName"), ==, "orders");
    g_assert_cmpstr (json_object_get_string_member (req, "BillingMode"), ==, "PROVISIONED");
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (
                       req, "ProvisionedThroughput"), "ReadCapacityUnits"), ==, 3);
    g_assert_false (json_object_has_member (req, "GlobalSecondaryIndexes"));
    lsi = json_array_get_object_element (json_object_get_array_member (req,
                                                                       "LocalSecondaryIndexes"),
                                         0);
    g_assert_cmpstr (json_object_get_string_member (lsi, "IndexName"), ==, "by-date");
  }

  gtk_window_destroy (GTK_WINDOW (designer));
  drain_main_context ();
}

static void
test_create (void)
{
  g_autoptr(DesignServer) backend = design_server_new ();
  GtkWidget *designer = new_designer (backend, NULL);
  g_autofree char *created = NULL;
  g_autofree char *shown = NULL;
  gboolean gone = FALSE;

  fill_valid_table (designer);
  click (get_named (designer, "add_index_button"));
  type_text (index_part (designer, 0, "name"), "gsi1");
  type_text (index_part (designer, 0, "partition_key_name"), "gsi1pk");
  type_text (index_part (designer, 0, "sort_key_name"), "gsi1sk");
  shown = g_strdup (request_text (designer));

  backend->creating_polls = 1;
  g_signal_connect (designer, "table-created", G_CALLBACK (table_created_cb), &created);
  g_object_weak_ref (G_OBJECT (designer), window_gone_cb, &gone);
  /* not click(): draining the main loop while the spinner animates could run it all */
  g_assert_true (gtk_widget_is_sensitive (get_named (designer, "create_button")));
  g_signal_emit_by_name (get_named (designer, "create_button"), "clicked");
  g_assert_true (gtk_widget_get_visible (get_named (designer, "progress")));
  g_assert_false (gtk_widget_is_sensitive (get_named (designer, "table_name")));
  wait_for (&gone);

  g_assert_cmpstr (created, ==, "orders");
  g_assert_cmpuint (count_calls (backend, "CreateTable"), ==, 1);
  /* polled until ACTIVE: once CREATING, then ACTIVE */
  g_assert_cmpuint (count_calls (backend, "DescribeTable"), ==, 2);
  /* what was sent is what the Request expander showed */
  {
    g_autoptr(JsonNode) a = json_from_string (shown, NULL);
    g_autoptr(JsonNode) b = json_from_string (body_of (backend, "CreateTable"), NULL);

    g_assert_true (json_node_equal (a, b));
  }
  /* and the engine made it so */
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *table = engine_table (backend, "orders", parser);
    JsonArray *gsis;

    g_assert_nonnull (table);
    g_assert_cmpstr (json_object_get_string_member (table, "TableStatus"), ==, "ACTIVE");
    gsis = json_object_get_array_member (table, "GlobalSecondaryIndexes");
    g_assert_cmpuint (json_array_get_length (gsis), ==, 1);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (gsis, 0),
                                                    "IndexName"), ==, "gsi1");
  }
}

static void
test_cancel_waiting (void)
{
  g_autoptr(DesignServer) backend = design_server_new ();
  GtkWidget *designer = new_designer (backend, NULL);
  guint polls;

  fill_valid_table (designer);
  backend->creating_polls = G_MAXUINT;
  g_signal_emit_by_name (get_named (designer, "create_button"), "clicked");
  while (count_calls (backend, "DescribeTable") == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (gtk_widget_get_visible (get_named (designer, "progress")));

  /* Cancel stops waiting (it does not close: the request may have been accepted) */
  click (get_named (designer, "cancel_button"));
  polls = count_calls (backend, "DescribeTable");
  g_assert_false (gtk_widget_get_visible (get_named (designer, "progress")));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (get_named (designer,
                                                                       "server_error"))),
                            "Stopped waiting"));
  g_assert_true (gtk_widget_is_sensitive (get_named (designer, "table_name")));
  g_assert_true (gtk_widget_is_sensitive (get_named (designer, "create_button")));
  drain_main_context ();
  g_assert_cmpuint (count_calls (backend, "DescribeTable"), ==, polls);

  gtk_window_destroy (GTK_WINDOW (designer));
  drain_main_context ();
}

static void
test_server_error (void)
{
  g_autoptr(DesignServer) backend = design_server_new ();
  GtkWidget *designer = new_designer (backend, NULL);
  GtkWidget *error_label = get_named (designer, "server_error");

  /* someone made "orders" meanwhile: the engine refuses a second one */
  fill_valid_table (designer);
  engine_create (backend, orders_table);
  click (get_named (designer, "create_button"));
  while (count_calls (backend, "CreateTable") == 0 || gtk_widget_get_visible (
           get_named (designer, "progress")))
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (gtk_widget_get_visible (error_label));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (error_label)), ==,
                   "ResourceInUseException: Table already exists: orders");
  /* the form is usable again and nothing was polled */
  g_assert_true (gtk_widget_get_sensitive (get_named (designer, "create_button")));
  g_assert_cmpuint (count_calls (backend, "DescribeTable"), ==, 0);

  gtk_window_destroy (GTK_WINDOW (designer));
  drain_main_context ();
}

static void
test_load_sample (void)
{
  g_autoptr(DesignServer) backend = design_server_new ();
  GtkWidget *designer = new_designer (backend, NULL);
  g_autofree char *path = g_build_filename (g_getenv ("DYNO_SOURCE_ROOT")
                                            ? g_getenv ("DYNO_SOURCE_ROOT") : TEST_SRCDIR "/..",
                                            "data", "samples", "tenant", "table.json", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(DynoTableDesign) design = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_file_get_contents (path, &contents, NULL, &error))
    {
      g_test_skip (error->message);
      gtk_window_destroy (GTK_WINDOW (designer));
      return;
    }
  design = dyno_table_design_new_from_json (contents, -1, &error);
  g_assert_no_error (error);
  dyno_table_designer_load_design (DYNO_TABLE_DESIGNER (designer), design);

  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (get_named (designer, "table_name"))),
                   ==, "tenant");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (index_part (designer, 0,
                                                                   "sort_key_name"))),
                   ==, "gsi1sk");
  g_assert_true (gtk_widget_get_sensitive (get_named (designer, "create_button")));
  {
    g_autoptr(JsonNode) shown = request_json (designer);
    g_autoptr(JsonNode) original = dyno_table_design_to_create_table_json (design);

    g_assert_true (json_node_equal (shown, original));
  }

  gtk_window_destroy (GTK_WINDOW (designer));
  drain_main_context ();
}

/* ---- tests: access patterns read against the design ------------------------------------ */

/* The labels of the pattern rows, one string per row ("name — description|summary|• note"). */
static char *
pattern_rows (GtkWidget *designer)
{
  GString *text = g_string_new (NULL);

  for (GtkWidget *row = gtk_widget_get_first_child (get_named (designer, "pattern_list"));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      for (GtkWidget *l = gtk_widget_get_first_child (row); l != NULL;
           l = gtk_widget_get_next_sibling (l))
        g_string_append_printf (text, "%s|", gtk_label_get_label (GTK_LABEL (l)));
      g_string_append_c (text, '\n');
    }
  return g_string_free (text, FALSE);
}

static void
test_patterns (void)
{
  g_autoptr(DesignServer) backend = design_server_new ();
  GtkWidget *designer = new_designer (backend, NULL);
  g_autofree char *dir = g_dir_make_tmp ("dyno-designer-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "patterns.json", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.json", NULL);
  GtkWidget *entry = get_named (designer, "patterns_path");
  GtkWidget *status = get_named (designer, "patterns_status");
  const char *set =
    "{\"format\":\"dynotable-patterns\",\"version\":1,\"patterns\":["
    " {\"name\":\"orders-of-customer\",\"description\":\"newest first\","
    "  \"request\":{\"TableName\":\"orders\",\"KeyConditionExpression\":\"pk = :c\","
    "   \"ExpressionAttributeValues\":{\":c\":{\"S\":\"C#1\"}}},"
    "  \"expect\":{\"order\":\"descending\"}},"
    " {\"name\":\"open-orders\",\"request\":{\"TableName\":\"orders\","
    "   \"FilterExpression\":\"phase = :o\","
    "   \"ExpressionAttributeValues\":{\":o\":{\"S\":\"OPEN\"}}}},"
    " {\"name\":\"elsewhere\",\"request\":{\"TableName\":\"other\","
    "   \"KeyConditionExpression\":\"pk = :c\","
    "   \"ExpressionAttributeValues\":{\":c\":{\"S\":\"x\"}}}}]}";
  g_autofree char *rows = NULL;

  g_assert_true (g_file_set_contents (path, set, -1, NULL));
  g_assert_true (g_file_set_contents (bad, "{\"format\":\"dynotable-patterns\"", -1, NULL));
  fill_valid_table (designer);

  /* a path being typed is no error; Enter on a missing file is */
  type_text (entry, "/nonexistent/pat");
  g_assert_false (gtk_widget_get_visible (status));
  g_signal_emit_by_name (entry, "activate");
  g_assert_true (gtk_widget_get_visible (status));
  g_assert_true (gtk_widget_has_css_class (status, "error"));

  /* a broken set says where */
  type_text (entry, bad);
  g_assert_true (gtk_widget_get_visible (status));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (status)), "line"));
  g_assert_null (gtk_widget_get_first_child (get_named (designer, "pattern_list")));

  type_text (entry, path);
  rows = pattern_rows (designer);
  g_assert_cmpstr (rows, ==,
                   "orders-of-customer — newest first|Query on the table: pk = :c|"
                   "• Newest (highest) first: ScanIndexForward false|\n"
                   "open-orders|Needs a Scan: no key of this design has phase as its partition "
                   "key|• Reads every item of the table, then filters phase = :o|\n");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (status)), ==,
                   "1 pattern reads another table: not shown.");

  /* a GSI on phase: the second pattern becomes a Query on it, as the design changes */
  click (get_named (designer, "add_index_button"));
  type_text (index_part (designer, 0, "name"), "byPhase");
  type_text (index_part (designer, 0, "partition_key_name"), "phase");
  g_clear_pointer (&rows, g_free);
  rows = pattern_rows (designer);
  g_assert_nonnull (strstr (rows, "\nopen-orders|Query on index byPhase: phase = :o|\n"));

  /* another table name: none of the set's patterns read it */
  type_text (get_named (designer, "table_name"), "invoices");
  g_assert_null (gtk_widget_get_first_child (get_named (designer, "pattern_list")));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (status)), ==,
                   "No pattern of this set reads table “invoices”.");

  gtk_window_destroy (GTK_WINDOW (designer));
  drain_main_context ();
  g_unlink (path);
  g_unlink (bad);
  g_rmdir (dir);
}

/* ---- tests: a GSI on an existing table ------------------------------------------------- */

/* Table "tenant" (provisioned, with GSI gsi1) made in the engine, as DescribeTable shows it. */
static DynoTableInfo *
provisioned_table (DesignServer *server)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  DynoTableInfo *info;

  engine_create (server,
    "{\"TableName\":\"tenant\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":5},"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"gsi1\",\"KeySchema\":[{\"AttributeName\":"
    "\"sk\",\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"ALL\"},"
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":1,\"WriteCapacityUnits\":1}}]}");
  json = dyno_engine_request (server->engine, "DescribeTable", "{\"TableName\":\"tenant\"}",
                              -1, &error);
  g_assert_no_error (error);
  info = dyno_table_info_new_from_json (json, -1, &error);

  g_assert_no_error (error);
  return info;
}

static void
test_add_index (void)
{
  g_autoptr(DesignServer) backend = design_server_new ();
  g_autoptr(DynoTableInfo) table = provisioned_table (backend);
  GtkWidget *designer = new_designer (backend, table);
  GtkWidget *create = get_named (designer, "create_button");
  g_autofree char *created = NULL;
  gboolean gone = FALSE;

  /* one GSI row, no table fields, no way to make it an LSI or add another */
  g_assert_false (gtk_widget_get_mapped (get_named (designer, "table_name")));
  g_assert_false (gtk_widget_get_visible (get_named (designer, "add_index_button")));
  g_assert_false (gtk_widget_get_sensitive (index_part (designer, 0, "type")));
  g_assert_true (gtk_widget_get_mapped (index_part (designer, 0, "read_capacity")));

  type_text (index_part (designer, 0, "name"), "gsi1");
  type_text (index_part (designer, 0, "partition_key_name"), "status");
  g_assert_nonnull (strstr (shown_error (index_part (designer, 0, "name_error")),
                            "already has"));
  type_text (index_part (designer, 0, "name"), "by-status");
  /* the table's sort key is a String: reusing it as a Number clashes */
  type_text (index_part (designer, 0, "sort_key_name"), "sk");
  choose_index (index_part (designer, 0, "sort_key_type"), 1);
  g_assert_nonnull (shown_error (index_part (designer, 0, "sort_key_type_error")));
  choose_index (index_part (designer, 0, "sort_key_type"), 0);
  set_spin (index_part (designer, 0, "read_capacity"), 0);
  g_assert_false (gtk_widget_get_sensitive (create));
  set_spin (index_part (designer, 0, "read_capacity"), 2);
  g_assert_true (gtk_widget_get_sensitive (create));

  {
    g_autoptr(JsonNode) node = request_json (designer);
    JsonObject *req = json_node_get_object (node);
    JsonObject *create_op;

    g_assert_cmpstr (json_object_get_string_member (req, "TableName"), ==, "tenant");
    create_op = json_object_get_object_member (
      json_array_get_object_element (json_object_get_array_member (req,
                                                                   "GlobalSecondaryIndexUpdates"),
                                     0), "Create");
    g_assert_cmpstr (json_object_get_string_member (create_op, "IndexName"), ==, "by-status");
    g_assert_true (json_object_has_member (create_op, "ProvisionedThroughput"));
  }

  /* after UpdateTable the designer waits for the new index to be ACTIVE */
  backend->creating_polls = 1;
  g_signal_connect (designer, "table-created", G_CALLBACK (table_created_cb), &created);
  g_object_weak_ref (G_OBJECT (designer), window_gone_cb, &gone);
  g_signal_emit_by_name (create, "clicked");
  wait_for (&gone);
  g_assert_cmpstr (created, ==, "tenant");
  g_assert_cmpuint (count_calls (backend, "UpdateTable"), ==, 1);
  g_assert_cmpuint (count_calls (backend, "CreateTable"), ==, 0);
  g_assert_cmpuint (count_calls (backend, "DescribeTable"), ==, 2);
  /* the engine has the new index, beside the old one */
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *t = engine_table (backend, "tenant", parser);
    JsonArray *gsis = json_object_get_array_member (t, "GlobalSecondaryIndexes");
    gboolean found = FALSE;

    g_assert_cmpuint (json_array_get_length (gsis), ==, 2);
    for (guint i = 0; i < 2; i++)
      found |= g_str_equal (json_object_get_string_member (json_array_get_object_element (gsis, i),
                                                           "IndexName"), "by-status");
    g_assert_true (found);
  }
}

/* ---- tests: delete table --------------------------------------------------------------- */

static void
table_deleted_cb (GtkWidget  *dialog,
                  const char *name,
                  char      **out)
{
  g_free (*out);
  *out = g_strdup (name);
}

static void
test_delete_table (void)
{
  g_autoptr(DesignServer) backend = design_server_new ();
  GtkWidget *parent = gtk_window_new ();
  GtkWidget *dialog = dyno_delete_table_dialog_new (GTK_WINDOW (parent), DYNO_BACKEND (backend->backend),
                                                    "orders");
  GtkWidget *entry, *button;
  g_autofree char *deleted = NULL;
  gboolean gone = FALSE;

  engine_create (backend, orders_table);
  gtk_window_present (GTK_WINDOW (dialog));
  drain_main_context ();
  entry = get_named (dialog, "entry");
  button = get_named (dialog, "delete_button");

  g_assert_false (gtk_widget_get_sensitive (button));
  type_text (entry, "order");
  g_assert_false (gtk_widget_get_sensitive (button));
  type_text (entry, "Orders");
  g_assert_false (gtk_widget_get_sensitive (button));
  type_text (entry, "orders ");
  g_assert_false (gtk_widget_get_sensitive (button));
  type_text (entry, "orders");
  g_assert_true (gtk_widget_get_sensitive (button));

  /* a failure is shown in place; the dialog stays */
  backend->fail_with = g_strdup ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
                                 "ResourceInUseException\",\"message\":\"Attempt to change a "
                                 "resource which is still in use\"}");
  click (button);
  while (!gtk_widget_get_visible (get_named (dialog, "error_label")))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (get_named (dialog,
                                                                       "error_label"))),
                            "ResourceInUseException: "));
  g_assert_true (gtk_widget_get_sensitive (button));

  g_signal_connect (dialog, "table-deleted", G_CALLBACK (table_deleted_cb), &deleted);
  g_object_weak_ref (G_OBJECT (dialog), window_gone_cb, &gone);
  click (button);
  wait_for (&gone);
  g_assert_cmpstr (deleted, ==, "orders");
  g_assert_cmpuint (count_calls (backend, "DeleteTable"), ==, 2);
  g_assert_cmpstr (body_of (backend, "DeleteTable"), ==, "{\"TableName\":\"orders\"}");
  {
    g_autoptr(JsonParser) parser = json_parser_new ();

    g_assert_null (engine_table (backend, "orders", parser));
  }
  gtk_window_destroy (GTK_WINDOW (parent));
  drain_main_context ();
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/table-designer/untouched", test_untouched);
  g_test_add_func ("/table-designer/errors-as-you-type", test_errors_as_you_type);
  g_test_add_func ("/table-designer/create", test_create);
  g_test_add_func ("/table-designer/server-error", test_server_error);
  g_test_add_func ("/table-designer/cancel-waiting", test_cancel_waiting);
  g_test_add_func ("/table-designer/load-sample", test_load_sample);
  g_test_add_func ("/table-designer/add-index", test_add_index);
  g_test_add_func ("/table-designer/patterns", test_patterns);
  g_test_add_func ("/delete-table-dialog/confirm-and-delete", test_delete_table);

  return g_test_run ();
}
