/* test-collection-view.c: results grouped by partition, columns, entity tags and chips
 *
 * The tenant sample is loaded into the embedded engine in memory (tests/common/fault-backend.h,
 * no fault asked for), and the view is fed by a real DynoRun querying it: the engine's pages,
 * their LastEvaluatedKey (a Limit cuts them) and its key order, as DynamoDB's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "dyno-collection-view.h"
#include "dyno-json.h"
#include "dyno-partition-model.h"
#include "dyno-run.h"
#include "dyno-run-view.h"
#include "widget-test-util.h"

#include "fault-backend.h"

/* ---- the tenant sample ---------------------------------------------------------------------- */

static int
compare_lines_by_sk (gconstpointer a,
                     gconstpointer b)
{
  g_autoptr(DynoItem) x = dyno_item_from_ddb_json (*(const char **) a, -1, NULL);
  g_autoptr(DynoItem) y = dyno_item_from_ddb_json (*(const char **) b, -1, NULL);

  /* strcmp compares unsigned bytes: DynamoDB's order for S */
  return strcmp (dyno_value_get_string (dyno_item_lookup (x, "sk"), NULL),
                 dyno_value_get_string (dyno_item_lookup (y, "sk"), NULL));
}

/* The items of TENANT#acme as a Query returns them (sorted by sk), as DynamoDB JSON lines. */
static GPtrArray *
acme_items (void)
{
  g_autofree char *path = g_build_filename (TEST_SRCDIR, "..", "data", "samples", "tenant",
                                            "items.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *items = g_ptr_array_new_with_free_func (g_free);

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], "\"TENANT#acme\"") != NULL)
      g_ptr_array_add (items, g_strdup (lines[i]));
  g_ptr_array_sort (items, compare_lines_by_sk);
  g_assert_cmpuint (items->len, >, 6);

  return items;
}

/* The tenant sample's table and all of its items (every tenant), in the engine. */
static void
load_tenant_sample (TestFaultBackend *backend)
{
  g_autofree char *dir = g_build_filename (TEST_SRCDIR, "..", "data", "samples", "tenant", NULL);
  g_autofree char *table_path = g_build_filename (dir, "table.json", NULL);
  g_autofree char *items_path = g_build_filename (dir, "items.jsonl", NULL);
  g_autofree char *table = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) created = NULL;
  g_auto(GStrv) lines = NULL;

  g_file_get_contents (table_path, &table, NULL, &error);
  g_assert_no_error (error);
  created = fault_engine_call (backend, "CreateTable", table, &error);
  g_assert_no_error (error);
  g_file_get_contents (items_path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *put = NULL;
      g_autoptr(JsonNode) reply = NULL;

      if (*g_strstrip (lines[i]) == '\0')
        continue;
      put = g_strdup_printf ("{\"TableName\":\"tenant\",\"Item\":%s}", lines[i]);
      reply = fault_engine_call (backend, "PutItem", put, &error);
      g_assert_no_error (error);
    }
}

/* ---- fixture -------------------------------------------------------------------------------- */

typedef struct {
  GtkWidget          *window;
  DynoCollectionView *view;
  GPtrArray          *items;     /* char*: the sample lines, in server order */
  DynoTableInfo      *info;
  TestFaultBackend   *backend;
  DynoRun            *run;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  guint page_size = GPOINTER_TO_UINT (data);
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(GError) error = NULL;

  fixture->items = acme_items ();
  fixture->info = dyno_table_info_new ("tenant", "pk", DYNO_VALUE_S, "sk", DYNO_VALUE_S);
  fixture->backend = g_object_new (TEST_TYPE_FAULT_BACKEND, NULL);
  load_tenant_sample (fixture->backend);

  /* page_size items a page (a Limit), or all of them in one */
  request = dyno_request_from_json ("{\"TableName\":\"tenant\","
                                    "\"KeyConditionExpression\":\"pk = :pk\","
                                    "\"ExpressionAttributeValues\":"
                                    "{\":pk\":{\"S\":\"TENANT#acme\"}}}",
                                    -1, -1, &error);
  g_assert_no_error (error);
  if (page_size > 0)
    request->limit = page_size;
  fixture->run = dyno_run_new (DYNO_BACKEND (fixture->backend), request);

  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1000, 700);
  fixture->view = DYNO_COLLECTION_VIEW (dyno_collection_view_new ());
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->view));
  gtk_window_present (GTK_WINDOW (fixture->window));
  dyno_collection_view_set_run (fixture->view, fixture->run, fixture->info, NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  drain_main_context ();
  g_clear_object (&fixture->run);
  g_clear_object (&fixture->backend);
  g_clear_pointer (&fixture->info, dyno_table_info_unref);
  g_clear_pointer (&fixture->items, g_ptr_array_unref);
}

static void
wait_idle (DynoRun *run)
{
  while (dyno_run_get_loading (run))
    g_main_context_iteration (NULL, TRUE);
  drain_main_context ();
}

static GListModel *
view_rows (Fixture *fixture)
{
  GtkWidget *column_view = get_by_id (GTK_WIDGET (fixture->view), "column_view");

  return G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (column_view)));
}

static GStrv
column_titles (Fixture *fixture)
{
  GtkWidget *column_view = get_by_id (GTK_WIDGET (fixture->view), "column_view");
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (column_view));
  GStrvBuilder *builder = g_strv_builder_new ();
  GStrv titles;

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (gtk_column_view_column_get_visible (column))
        g_strv_builder_add (builder, gtk_column_view_column_get_title (column));
    }
  titles = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);

  return titles;
}

/* What the sample says: entity prefix -> count, for keys with a '#'. */
static GHashTable *
expected_entities (GPtrArray *items)
{
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < items->len; i++)
    {
      g_autoptr(DynoItem) item = dyno_item_from_ddb_json (g_ptr_array_index (items, i), -1, NULL);
      const char *sk = dyno_value_get_string (dyno_item_lookup (item, "sk"), NULL);
      const char *hash = strchr (sk, '#');

      if (hash != NULL)
        {
          char *entity = g_strndup (sk, hash - sk);
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, entity));

          g_hash_table_insert (counts, entity, GUINT_TO_POINTER (n + 1));
        }
    }

  return counts;
}

/* ---- the tests ------------------------------------------------------------------------------ */

static void
test_grouped_in_server_order (Fixture       *fixture,
                              gconstpointer  data)
{
  GListModel *rows;
  g_autoptr(GObject) partition = NULL;
  g_auto(GStrv) titles = NULL;

  dyno_run_load_all (fixture->run);
  wait_idle (fixture->run);
  g_assert_null (dyno_run_get_error (fixture->run));
  g_assert_cmpuint (dyno_run_get_n_items (fixture->run), ==, fixture->items->len);
  /* every page read is in the ledger, one Query each; Limit 4 cuts the acme items in
   * pages of 4 (and an empty last one when they are a multiple of 4: DynamoDB cannot know
   * a full page was the last) */
  g_assert_cmpuint (dyno_run_get_n_pages (fixture->run), ==, fixture->backend->n_pages);
  g_assert_cmpuint (fixture->backend->n_pages, ==, fixture->items->len / 4 + 1);

  /* one partition row, expanded, then its items in the order the pages brought them */
  rows = view_rows (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1 + fixture->items->len);
  partition = g_list_model_get_item (rows, 0);
  g_assert_true (DYNO_IS_PARTITION (partition));
  g_assert_cmpstr (dyno_partition_get_key_text (DYNO_PARTITION (partition)), ==, "TENANT#acme");
  g_assert_cmpuint (dyno_partition_get_n_items (DYNO_PARTITION (partition)), ==,
                    fixture->items->len);
  for (guint i = 0; i < fixture->items->len; i++)
    {
      g_autoptr(GObject) object = g_list_model_get_item (rows, i + 1);
      g_autoptr(DynoItem) want = dyno_item_from_ddb_json (g_ptr_array_index (fixture->items, i),
                                                          -1, NULL);
      DynoItem *got;

      g_assert_true (DYNO_IS_ITEM_OBJECT (object));
      got = dyno_item_object_get_item (DYNO_ITEM_OBJECT (object));
      g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (got, "sk"), NULL), ==,
                       dyno_value_get_string (dyno_item_lookup (want, "sk"), NULL));
    }

  /* grouped: the partition key is the group's title, so its column is hidden; the first
   * column shows each item's sort key and is named after it (no second sort key column),
   * then the other attributes in the order they were first seen */
  titles = column_titles (fixture);
  g_assert_cmpstr (titles[0], ==, "sk");
  g_assert_false (g_strv_contains ((const char * const *) titles + 1, "sk"));
  g_assert_false (g_strv_contains ((const char * const *) titles, "pk"));
  g_assert_true (g_strv_contains ((const char * const *) titles, "entityType"));

  /* flat: every item is a row of its own, and the partition key has its column again */
  gtk_switch_set_active (GTK_SWITCH (get_by_id (GTK_WIDGET (fixture->view), "group_switch")),
                         FALSE);
  drain_main_context ();
  rows = view_rows (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, fixture->items->len);
  g_strfreev (titles);
  titles = column_titles (fixture);
  g_assert_cmpstr (titles[0], ==, "sk");
  g_assert_cmpstr (titles[1], ==, "pk");
  g_assert_false (g_strv_contains ((const char * const *) titles + 1, "sk"));
}

static void
entity_activated_cb (DynoCollectionView  *view,
                     const char          *prefix,
                     char               **out)
{
  g_free (*out);
  *out = g_strdup (prefix);
}

static void
test_entity_chips (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *chips = get_by_id (GTK_WIDGET (fixture->view), "chips");
  g_autoptr(GHashTable) expected = expected_entities (fixture->items);
  g_autofree char *activated = NULL;
  GtkWidget *invoice = NULL;
  guint n_chips = 0;
  const char *previous = "";

  dyno_run_load_all (fixture->run);
  wait_idle (fixture->run);

  /* the delimiter is inferred ('#'), each entity gets a chip with its count, sorted */
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (gtk_widget_get_parent (chips))));
  for (GtkWidget *chip = gtk_widget_get_first_child (chips); chip != NULL;
       chip = gtk_widget_get_next_sibling (chip))
    {
      const char *label = gtk_button_get_label (GTK_BUTTON (chip));
      g_auto(GStrv) parts = g_strsplit (label, " ", 2);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (expected, parts[0]));
      g_autofree char *count_text = g_strdup_printf ("%u", count);

      g_assert_cmpuint (count, >, 0);
      g_assert_cmpstr (parts[1], ==, count_text);
      g_assert_cmpint (strcmp (previous, label), <, 0);
      previous = label;
      n_chips++;
      if (g_str_equal (parts[0], "INVOICE"))
        invoice = chip;
    }
  g_assert_cmpuint (n_chips, ==, g_hash_table_size (expected));

  /* a click asks for begins_with on the entity's prefix */
  g_assert_nonnull (invoice);
  g_signal_connect (fixture->view, "entity-activated", G_CALLBACK (entity_activated_cb),
                    &activated);
  g_signal_emit_by_name (invoice, "clicked");
  g_assert_cmpstr (activated, ==, "INVOICE#");
}

static void
test_pages_arrive (Fixture       *fixture,
                   gconstpointer  data)
{
  GListModel *rows;
  g_autoptr(GObject) partition = NULL;
  guint page_size = GPOINTER_TO_UINT (data);

  /* one page at a time: the partition grows in place */
  dyno_run_start (fixture->run);
  wait_idle (fixture->run);
  g_assert_true (dyno_run_get_has_more (fixture->run));
  rows = view_rows (fixture);
  partition = g_list_model_get_item (rows, 0);
  g_assert_cmpuint (dyno_partition_get_n_items (DYNO_PARTITION (partition)), ==, page_size);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1 + page_size);

  dyno_run_load_more (fixture->run);
  wait_idle (fixture->run);
  g_assert_cmpuint (dyno_partition_get_n_items (DYNO_PARTITION (partition)), ==,
                    MIN (2 * page_size, fixture->items->len));
  g_assert_cmpuint (g_list_model_get_n_items (view_rows (fixture)), ==,
                    1 + MIN (2 * page_size, fixture->items->len));

  dyno_run_load_all (fixture->run);
  wait_idle (fixture->run);
  g_assert_false (dyno_run_get_has_more (fixture->run));
  g_assert_cmpuint (dyno_partition_get_n_items (DYNO_PARTITION (partition)), ==,
                    fixture->items->len);
}

static char *
detail_text (Fixture *fixture)
{
  GtkWidget *detail = dyno_collection_view_get_detail_widget (fixture->view);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (get_by_id (detail,
                                                                              "detail_view")));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
count_changes (guint *changes)
{
  (*changes)++;
}

static void
test_item_detail (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkSelectionModel *selection;
  g_autofree char *ddb = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *empty = NULL;
  g_autoptr(DynoItem) shown = NULL;
  g_autoptr(DynoItem) want = NULL;

  dyno_run_load_all (fixture->run);
  wait_idle (fixture->run);
  empty = detail_text (fixture);
  g_assert_cmpstr (empty, ==, "");

  /* the partition row shows nothing; the first item shows itself, as DynamoDB JSON */
  selection = GTK_SELECTION_MODEL (view_rows (fixture));
  gtk_selection_model_select_item (selection, 1, TRUE);
  drain_main_context ();
  ddb = detail_text (fixture);
  shown = dyno_item_from_ddb_json (ddb, -1, NULL);
  want = dyno_item_from_ddb_json (g_ptr_array_index (fixture->items, 0), -1, NULL);
  g_assert_nonnull (shown);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (shown, "sk"), NULL), ==,
                   dyno_value_get_string (dyno_item_lookup (want, "sk"), NULL));
  g_assert_cmpuint (dyno_item_get_size (shown), ==, dyno_item_get_size (want));

  /* or as plain JSON */
  dropdown_choose (get_by_id (dyno_collection_view_get_detail_widget (fixture->view),
                              "detail_format"), "Plain JSON");
  drain_main_context ();
  plain = detail_text (fixture);
  g_assert_null (strstr (plain, "{\"S\""));
  g_assert_nonnull (strstr (plain, dyno_value_get_string (dyno_item_lookup (want, "sk"), NULL)));
}

static void
test_multi_selection (Fixture       *fixture,
                      gconstpointer  data)
{
  GtkSelectionModel *selection;
  g_autoptr(GPtrArray) none = NULL;
  g_autoptr(GPtrArray) three = NULL;
  g_autoptr(DynoItem) first = NULL;
  g_autoptr(DynoItem) third = NULL;
  guint changes = 0;

  dyno_run_load_all (fixture->run);
  wait_idle (fixture->run);
  g_signal_connect_swapped (fixture->view, "selection-changed", G_CALLBACK (count_changes),
                            &changes);

  none = dyno_collection_view_dup_selected_items (fixture->view);
  g_assert_cmpuint (none->len, ==, 0);
  g_assert_cmpuint (dyno_collection_view_count_selected_items (fixture->view, 2), ==, 0);

  /* row 0 is the partition: selecting it with three items gives the three items only */
  selection = GTK_SELECTION_MODEL (view_rows (fixture));
  gtk_selection_model_select_range (selection, 0, 4, TRUE);
  drain_main_context ();
  g_assert_cmpuint (changes, >, 0);
  three = dyno_collection_view_dup_selected_items (fixture->view);
  g_assert_cmpuint (three->len, ==, 3);
  /* counting stops where the caller stops caring; the partition row is not an item */
  g_assert_cmpuint (dyno_collection_view_count_selected_items (fixture->view, 2), ==, 2);
  g_assert_cmpuint (dyno_collection_view_count_selected_items (fixture->view, 10), ==, 3);
  first = dyno_item_from_ddb_json (g_ptr_array_index (fixture->items, 0), -1, NULL);
  third = dyno_item_from_ddb_json (g_ptr_array_index (fixture->items, 2), -1, NULL);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (g_ptr_array_index (three, 0), "sk"),
                                          NULL), ==,
                   dyno_value_get_string (dyno_item_lookup (first, "sk"), NULL));
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (g_ptr_array_index (three, 2), "sk"),
                                          NULL), ==,
                   dyno_value_get_string (dyno_item_lookup (third, "sk"), NULL));
}

/* The shown headings' open/close buttons, top row first. */
static GtkWidget *
find_expander (GtkWidget *widget)
{
  /* the heading's disclosure button: its arrow points down (open) or to the end (closed) */
  if (GTK_IS_BUTTON (widget) && gtk_widget_get_visible (widget) && gtk_widget_get_mapped (widget)
      && (g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), "pan-down-symbolic") == 0
          || g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), "pan-end-symbolic") == 0))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_expander (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_collapse_expand (Fixture       *fixture,
                      gconstpointer  data)
{
  GtkWidget *column_view = get_by_id (GTK_WIDGET (fixture->view), "column_view");
  GListModel *rows;
  GtkWidget *expander;
  g_autoptr(GObject) partition = NULL;
  guint n = fixture->items->len;

  dyno_run_load_all (fixture->run);
  wait_idle (fixture->run);
  rows = view_rows (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1 + n);
  partition = g_list_model_get_item (rows, 0);
  g_assert_true (dyno_partition_get_expanded (DYNO_PARTITION (partition)));

  /* the heading's button closes the partition: its items' rows go */
  expander = find_expander (column_view);
  g_assert_nonnull (expander);
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (expander)), ==, "pan-down-symbolic");
  g_signal_emit_by_name (expander, "clicked");
  drain_main_context ();
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1);
  g_assert_false (dyno_partition_get_expanded (DYNO_PARTITION (partition)));
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (expander)), ==, "pan-end-symbolic");

  /* Enter (or a double-click) on the heading opens it again */
  g_signal_emit_by_name (column_view, "activate", 0);
  drain_main_context ();
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1 + n);
  g_assert_true (dyno_partition_get_expanded (DYNO_PARTITION (partition)));
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (find_expander (column_view))), ==,
                   "pan-down-symbolic");

  /* what a screen reader does: the row's own action */
  g_assert_true (gtk_widget_activate_action (gtk_widget_get_parent (find_expander (column_view)),
                                             "row.activate", NULL));
  drain_main_context ();
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1);
}

static void
test_selection_kept (Fixture       *fixture,
                     gconstpointer  data)
{
  GtkSelectionModel *selection;
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(GPtrArray) collapsed = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *detail_after = NULL;
  g_autoptr(GObject) partition = NULL;

  /* the second item of the first page is selected, then more pages come */
  dyno_run_start (fixture->run);
  wait_idle (fixture->run);
  selection = GTK_SELECTION_MODEL (view_rows (fixture));
  gtk_selection_model_select_item (selection, 2, TRUE);
  drain_main_context ();
  before = dyno_collection_view_dup_selected_items (fixture->view);
  g_assert_cmpuint (before->len, ==, 1);
  detail = detail_text (fixture);

  dyno_run_load_all (fixture->run);
  wait_idle (fixture->run);
  after = dyno_collection_view_dup_selected_items (fixture->view);
  g_assert_cmpuint (after->len, ==, 1);
  g_assert_true (dyno_item_equal (g_ptr_array_index (after, 0), g_ptr_array_index (before, 0)));
  detail_after = detail_text (fixture);
  g_assert_cmpstr (detail_after, ==, detail);
  g_assert_true (gtk_selection_model_is_selected (selection, 2));

  /* a closed partition's items are not selected any more */
  partition = g_list_model_get_item (G_LIST_MODEL (selection), 0);
  g_signal_emit_by_name (get_by_id (GTK_WIDGET (fixture->view), "column_view"), "activate", 0);
  drain_main_context ();
  g_assert_false (dyno_partition_get_expanded (DYNO_PARTITION (partition)));
  collapsed = dyno_collection_view_dup_selected_items (fixture->view);
  g_assert_cmpuint (collapsed->len, ==, 0);
}

static void
test_flat_is_the_run (Fixture       *fixture,
                      gconstpointer  data)
{
  GtkWidget *column_view = get_by_id (GTK_WIDGET (fixture->view), "column_view");
  GtkSelectionModel *selection;
  g_autoptr(GObject) first = NULL;

  dyno_run_load_all (fixture->run);
  wait_idle (fixture->run);
  gtk_switch_set_active (GTK_SWITCH (get_by_id (GTK_WIDGET (fixture->view), "group_switch")),
                         FALSE);
  drain_main_context ();

  /* flat, the rows are the run's own items: its view, with no filter and no sort, keeps
   * nothing per item (row i is the run's item i) */
  selection = gtk_column_view_get_model (GTK_COLUMN_VIEW (column_view));
  {
    GListModel *rows = gtk_multi_selection_get_model (GTK_MULTI_SELECTION (selection));

    g_assert_true (DYNO_IS_RUN_VIEW (rows));
    g_assert_true (dyno_run_view_get_run (DYNO_RUN_VIEW (rows)) == fixture->run);
    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, dyno_run_get_n_items (fixture->run));
    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_assert_cmpuint (dyno_run_view_get_run_position (DYNO_RUN_VIEW (rows), i), ==, i);
        g_assert_true (dyno_run_view_get_item (DYNO_RUN_VIEW (rows), i) ==
                       dyno_run_get_item (fixture->run, i));
      }
  }
  first = g_list_model_get_item (G_LIST_MODEL (selection), 0);
  g_assert_true (DYNO_IS_ITEM_OBJECT (first));
  g_assert_null (find_expander (column_view));

  /* and back: grouped, partitions open */
  gtk_switch_set_active (GTK_SWITCH (get_by_id (GTK_WIDGET (fixture->view), "group_switch")),
                         TRUE);
  drain_main_context ();
  g_assert_cmpuint (g_list_model_get_n_items (view_rows (fixture)), ==, 1 + fixture->items->len);
}

/* The first column's text of each row (the sort key of items; partitions say their key). */
static GStrv
first_cells (Fixture *fixture)
{
  GListModel *rows = view_rows (fixture);
  GStrvBuilder *builder = g_strv_builder_new ();
  GStrv result;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (rows, i);

      if (DYNO_IS_ITEM_OBJECT (row))
        g_strv_builder_add (builder, dyno_value_get_string (
          dyno_item_lookup (dyno_item_object_get_item (DYNO_ITEM_OBJECT (row)), "sk"), NULL));
    }
  result = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return result;
}

static void
wait_view (Fixture *fixture)
{
  GtkWidget *spinner = get_by_id (GTK_WIDGET (fixture->view), "filter_spinner");
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  drain_main_context ();
  while (gtk_spinner_get_spinning (GTK_SPINNER (spinner)))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
    }
  drain_main_context ();
}

/* The bar narrows the loaded items by a text and orders them by an attribute; nothing is read
 * again; closing it shows them as read. */
static void
test_filter_and_sort (Fixture       *fixture,
                      gconstpointer  data)
{
  GtkWidget *self = GTK_WIDGET (fixture->view);
  GtkWidget *entry = get_by_id (self, "filter_entry");
  GtkWidget *sort = get_by_id (self, "sort_dropdown");
  GtkWidget *status = get_by_id (self, "filter_status");
  GListModel *names = gtk_drop_down_get_model (GTK_DROP_DOWN (sort));
  g_auto(GStrv) as_read = NULL;
  g_auto(GStrv) invoices = NULL;
  g_auto(GStrv) by_amount = NULL;
  g_autofree char *expected_status = NULL;
  guint n_pages, amount = G_MAXUINT, n_invoices = 0;

  dyno_run_load_all (fixture->run);
  wait_idle (fixture->run);
  gtk_switch_set_active (GTK_SWITCH (get_by_id (self, "group_switch")), FALSE);
  drain_main_context ();
  n_pages = fixture->backend->n_pages;
  as_read = first_cells (fixture);
  g_assert_cmpuint (g_strv_length (as_read), ==, fixture->items->len);

  /* the button opens the bar */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (get_by_id (self, "filter_button")), TRUE);
  drain_main_context ();
  g_assert_true (gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (get_by_id (self, "filter_bar"))));

  /* a text, any case, in any value: the invoices (their sk, and the events naming one) */
  for (guint i = 0; i < fixture->items->len; i++)
    if (strstr (g_ptr_array_index (fixture->items, i), "INVOICE#") != NULL)
      n_invoices++;
  gtk_editable_set_text (GTK_EDITABLE (entry), "invoice#");
  g_signal_emit_by_name (entry, "search-changed");
  wait_view (fixture);
  invoices = first_cells (fixture);
  g_assert_cmpuint (g_strv_length (invoices), ==, n_invoices);
  g_assert_cmpuint (n_invoices, <, fixture->items->len);
  {
    guint j = 0;

    /* in the order read: the invoices are a subsequence of the items as read */
    for (guint i = 0; as_read[i] != NULL; i++)
      if (invoices[j] != NULL && g_str_equal (as_read[i], invoices[j]))
        j++;
    g_assert_null (invoices[j]);
  }
  expected_status = g_strdup_printf ("%u of %u items", n_invoices, fixture->items->len);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (status)), ==, expected_status);

  /* sorted by amount, largest first; the invoices without one last */
  for (guint i = 0; i < g_list_model_get_n_items (names); i++)
    if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (names), i), "amount"))
      amount = i;
  g_assert_cmpuint (amount, !=, G_MAXUINT);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (get_by_id (self, "sort_descending")), TRUE);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (sort), amount);
  wait_view (fixture);
  {
    GListModel *rows = view_rows (fixture);
    double last = G_MAXDOUBLE;
    gboolean missing = FALSE;

    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_invoices);
    for (guint i = 0; i < n_invoices; i++)
      {
        g_autoptr(DynoItemObject) row = g_list_model_get_item (rows, i);
        const DynoValue *value = dyno_item_lookup (dyno_item_object_get_item (row), "amount");

        if (value == NULL)
          missing = TRUE;
        else
          {
            double v = g_ascii_strtod (dyno_value_get_string (value, NULL), NULL);

            g_assert_false (missing);
            g_assert_cmpfloat (v, <=, last);
            last = v;
          }
      }
  }

  /* closing the bar: every item, as read, and the sort back to "As Read" */
  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (get_by_id (self, "filter_bar")), FALSE);
  wait_view (fixture);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (sort)), ==, 0);
  by_amount = first_cells (fixture);
  g_assert_true (g_strv_equal ((const char * const *) by_amount, (const char * const *) as_read));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (status)), ==, "");
  /* all of it on the items loaded: no request was sent */
  g_assert_cmpuint (fixture->backend->n_pages, ==, n_pages);
}

#define ADD(path, fn, page_size) \
  g_test_add (path, Fixture, GUINT_TO_POINTER (page_size), fixture_set_up, fn, fixture_tear_down)

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  ADD ("/collection-view/grouped-in-server-order", test_grouped_in_server_order, 4);
  ADD ("/collection-view/entity-chips", test_entity_chips, 0);
  ADD ("/collection-view/pages-arrive", test_pages_arrive, 4);
  ADD ("/collection-view/item-detail", test_item_detail, 0);
  ADD ("/collection-view/multi-selection", test_multi_selection, 0);
  ADD ("/collection-view/collapse-expand", test_collapse_expand, 0);
  ADD ("/collection-view/selection-kept", test_selection_kept, 4);
  ADD ("/collection-view/flat-is-the-run", test_flat_is_the_run, 0);
  ADD ("/collection-view/filter-and-sort", test_filter_and_sort, 4);

  return g_test_run ();
}
