/* test-query-page.c: one tab, as a user works it: paste a request, run it, read the status
 *
 * The tab queries the embedded engine in memory (tests/common/fault-backend.h, here with no
 * fault asked for): the pages, their capacity and LastEvaluatedKey are the engine's answers
 * to what the tab sent, as DynamoDB's would be.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "dyno-code-view.h"
#include "dyno-json.h"
#include "dyno-query-page.h"
#include "fault-backend.h"
#include "widget-test-util.h"

typedef struct {
  GtkWidget        *window;
  DynoQueryPage    *page;
  TestFaultBackend *backend;
} Fixture;

/* Table "tenant" (pk S, sk S) with three users of tenant acme, an order of acme (not a
 * user) and a user of another tenant. */
static void
add_tenant_table (TestFaultBackend *backend)
{
  static const char *items[] = {
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"},\"age\":{\"N\":\"41\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3002\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3010\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"ORDER#o_1\"}}",
    "{\"pk\":{\"S\":\"TENANT#zeta\"},\"sk\":{\"S\":\"USER#u_9\"}}",
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) created = NULL;

  created = fault_engine_call (backend, "CreateTable",
    "{\"TableName\":\"tenant\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],\"AttributeDefinitions\":["
    "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\","
    "\"AttributeType\":\"S\"}],\"BillingMode\":\"PAY_PER_REQUEST\"}", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"TableName\":\"tenant\",\"Item\":%s}",
                                               items[i]);
      g_autoptr(JsonNode) put = fault_engine_call (backend, "PutItem", json, &error);

      g_assert_no_error (error);
    }
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(DynoTableInfo) info = dyno_table_info_new ("tenant", "pk", DYNO_VALUE_S, "sk",
                                                       DYNO_VALUE_S);

  fixture->backend = g_object_new (TEST_TYPE_FAULT_BACKEND, NULL);
  add_tenant_table (fixture->backend);

  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1200, 800);
  fixture->page = dyno_query_page_new (DYNO_BACKEND (fixture->backend), NULL, "tenant", info,
                                       NULL);
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->page));
  gtk_window_present (GTK_WINDOW (fixture->window));
  drain_main_context ();
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  drain_main_context ();
  g_clear_object (&fixture->backend);
}

static GtkWidget *
field (Fixture    *fixture,
       const char *name)
{
  return get_by_id (GTK_WIDGET (fixture->page), name);
}

/* Spins the main loop until @label shows @prefix (the run is asynchronous), or fails. */
static void
wait_label_prefix (GtkWidget  *label,
                   const char *prefix)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!g_str_has_prefix (gtk_label_get_label (GTK_LABEL (label)), prefix))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("the label says “%s”, not “%s…”", gtk_label_get_label (GTK_LABEL (label)), prefix);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static void
test_paste_then_run (Fixture       *fixture,
                     gconstpointer  data)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (fixture->page));
  GtkWidget *status = field (fixture, "status_label");
  gint64 deadline;

  /* an untouched tab says what Run needs */
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "query.run", NULL) &&
                  fixture->backend->n_pages > 0);
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (field (fixture, "reason_label"))),
                            "partition key"));

  /* paste a request JSON, as copied from code or the AWS CLI */
  gdk_clipboard_set_text (clipboard,
                          "{\"TableName\": \"tenant\", \"KeyConditionExpression\": "
                          "\"pk = :p AND begins_with(sk, :u)\", \"ExpressionAttributeValues\": "
                          "{\":p\": {\"S\": \"TENANT#acme\"}, \":u\": {\"S\": \"USER#\"}}, "
                          "\"Limit\": 2}");
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "query.paste-request", NULL);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!g_str_equal (gtk_editable_get_text (GTK_EDITABLE (field (fixture, "sk_entry"))),
                       "USER#"))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (fixture, "pk_entry"))), ==,
                   "TENANT#acme");
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (field (fixture,
                                                                            "limit_spin"))), ==, 2);
  drain_main_context ();
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (field (fixture, "reason_label"))), ==, "");

  /* Run (Ctrl+Enter does the same): the first page, and Load More is offered */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "query.run", NULL));
  /* two users of acme, well under 4 KB together: half a read unit, eventually consistent */
  wait_label_prefix (status, "2 items · 1 page · 0.5 RCU");
  g_assert_cmpuint (fixture->backend->n_pages, ==, 1);

  /* Load More: the second page, the last user (the order does not match begins_with); the
   * status adds up pages and capacity.  Every item read matched, so nothing is said about
   * what was scanned. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "query.load-more",
                                             NULL));
  wait_label_prefix (status, "3 items · 2 pages · 1 RCU · complete");
  g_assert_cmpuint (fixture->backend->n_pages, ==, 2);

  /* With items on screen the same query is estimated before it runs: the 3 items match the
   * key, each well under 4 KB, 2 a page (Limit): 2 pages of 0.5 RCU */
  {
    const char *estimate = gtk_label_get_label (GTK_LABEL (field (fixture, "estimate_label")));

    g_assert_cmpstr (estimate, ==, "About 1 RCU in 2 pages: 3 of the 3 items loaded match the "
                                   "key.");
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "query.run", NULL));
  wait_label_prefix (status, "2 items · 1 page · 0.5 RCU (estimated 1 in 2 pages)");

  /* a month of it at 10 requests a second, at the default price: 0.5 x 10 x 3600 x 730 =
   * 13.14 million read units, $1.64 at $0.125 per million */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (field (fixture, "rate_spin")), 10);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (field (fixture, "price_spin"))),
                     ==, 0.125);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (field (fixture, "cost_label"))), ==,
                   "≈ $1.64 a month (13.1 million read units; 0.5 RCU a request, as read)");
}

static void
test_paste_rejects_other_text (Fixture       *fixture,
                               gconstpointer  data)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (fixture->page));

  gdk_clipboard_set_text (clipboard, "pk = \"TENANT#acme\"");
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "query.paste-request", NULL);
  for (int i = 0; i < 200; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  /* nothing was loaded: the form is as it was */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (fixture, "pk_entry"))), ==,
                   "");
}

static DynoCodeView *
find_code_view (GtkWidget *root)
{
  if (DYNO_IS_CODE_VIEW (root))
    return DYNO_CODE_VIEW (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      DynoCodeView *found = find_code_view (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A request that validation refuses is marked refused in the code view, with the reason, and
 * is not offered for copying as working code. */
static void
test_code_view_marks_refused (Fixture       *fixture,
                              gconstpointer  data)
{
  DynoCodeView *code_view = find_code_view (GTK_WIDGET (fixture->page));
  GtkWidget *banner = field (fixture, "refused_banner");
  GtkWidget *copy = field (fixture, "copy_button");

  g_assert_nonnull (code_view);
  /* nothing built yet: nothing marked */
  g_assert_false (gtk_widget_get_visible (banner));

  type_text (field (fixture, "pk_entry"), "TENANT#acme");
  drain_main_context ();
  g_assert_false (gtk_widget_get_visible (banner));
  g_assert_true (gtk_widget_get_sensitive (copy));
  g_assert_nonnull (dyno_code_view_get_code (code_view));

  /* a filter on the sort key: the form builds the request, validation refuses it */
  type_text (field (fixture, "path_entry"), "sk");
  type_text (field (fixture, "value_entry"), "x");
  drain_main_context ();
  g_assert_true (gtk_widget_get_visible (banner));
  g_assert_true (g_str_has_prefix (gtk_label_get_label (GTK_LABEL (banner)), "Refused: "));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (banner)),
                            "sk is a key attribute"));
  g_assert_false (gtk_widget_get_sensitive (copy));
  g_assert_null (dyno_code_view_get_code (code_view));

  /* fixed: working code again */
  type_text (field (fixture, "path_entry"), "age");
  drain_main_context ();
  g_assert_false (gtk_widget_get_visible (banner));
  g_assert_true (gtk_widget_get_sensitive (copy));
  g_assert_nonnull (strstr (dyno_code_view_get_code (code_view), "age"));
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/query-page/paste-then-run", Fixture, NULL, fixture_set_up, test_paste_then_run,
              fixture_tear_down);
  g_test_add ("/query-page/paste-rejects-other-text", Fixture, NULL, fixture_set_up,
              test_paste_rejects_other_text, fixture_tear_down);
  g_test_add ("/query-page/code-view-marks-refused", Fixture, NULL, fixture_set_up,
              test_code_view_marks_refused, fixture_tear_down);

  return g_test_run ();
}
