/* test-builder-form.c: the expression-builder form, worked in-process as a user would
 *
 * The fields are filled through their GTK API (set the text, pick an option) and the form is
 * judged by what it shows (messages under the fields, the Run reason, which options it
 * offers) and by the request it builds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "dyno-builder-form.h"
#include "dyno-expr.h"
#include "dyno-json.h"
#include "dyno-request.h"
#include "widget-test-util.h"

typedef struct {
  GtkWidget       *window;
  DynoBuilderForm *form;
} Fixture;

static DynoTableInfo *
tenant_schema (void)
{
  DynoTableInfo *info = dyno_table_info_new ("tenant", "pk", DYNO_VALUE_S, "sk", DYNO_VALUE_S);
  DynoIndexInfo gsi = {
    .name = (char *) "gsi1",
    .global = TRUE,
    .partition_key = { (char *) "gsi1pk", DYNO_VALUE_S },
    .sort_key = { (char *) "gsi1sk", DYNO_VALUE_S },
    .projection = DYNO_PROJECTION_ALL,
    .read_capacity = -1,
    .write_capacity = -1,
  };
  DynoIndexInfo lsi = {
    .name = (char *) "by-created",
    .global = FALSE,
    .partition_key = { (char *) "pk", DYNO_VALUE_S },
    .sort_key = { (char *) "created", DYNO_VALUE_N },
    .projection = DYNO_PROJECTION_KEYS_ONLY,
    .read_capacity = -1,
    .write_capacity = -1,
  };

  dyno_table_info_add_index (info, &gsi);
  dyno_table_info_add_index (info, &lsi);
  return info;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynoTableInfo *(*schema) (void) = data;
  g_autoptr(DynoTableInfo) info = schema ? schema () : tenant_schema ();

  fixture->window = gtk_window_new ();
  fixture->form = DYNO_BUILDER_FORM (dyno_builder_form_new ());
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->form));
  dyno_builder_form_set_table (fixture->form, dyno_table_info_get_name (info), info, NULL);
  gtk_window_present (GTK_WINDOW (fixture->window));
  drain_main_context ();
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  drain_main_context ();
}

static GtkWidget *
field (Fixture    *fixture,
       const char *name)
{
  return get_by_id (GTK_WIDGET (fixture->form), name);
}

static DynoTableInfo *
numeric_sort_key_schema (void)
{
  return dyno_table_info_new ("sensors", "deviceId", DYNO_VALUE_S, "seq", DYNO_VALUE_N);
}

static DynoTableInfo *
numeric_partition_key_schema (void)
{
  return dyno_table_info_new ("orders", "orderId", DYNO_VALUE_N, NULL, DYNO_VALUE_S);
}

static DynoTableInfo *
binary_partition_key_schema (void)
{
  return dyno_table_info_new ("blobs", "digest", DYNO_VALUE_B, NULL, DYNO_VALUE_S);
}

/* ---- the tests ----------------------------------------------------------------------------- */

static void
test_untouched_form (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(DynoRequest) request = NULL;
  const char *reason;

  /* Nothing typed yet: Run is off and says what is missing, without a red message. */
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  reason = dyno_builder_form_get_reason (fixture->form);
  g_assert_nonnull (reason);
  g_assert_nonnull (strstr (reason, "partition key"));
  g_assert_nonnull (strstr (reason, "pk"));
  g_assert_null (shown_error (field (fixture, "pk_error")));
  g_assert_null (shown_error (field (fixture, "key_error")));

  request = dyno_builder_form_dup_request (fixture->form);
  g_assert_null (request);

  /* The labels name each key with its type. */
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (field (fixture, "pk_label"))), ==,
                   "Partition key: pk (S)");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (field (fixture, "sk_label"))), ==,
                   "Sort key: sk (S)");
}

static void
test_generated_request (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoPrintedRequest) printed = NULL;
  g_autofree char *json = NULL;

  type_text (field (fixture, "pk_entry"), "TENANT#acme");
  dropdown_choose (field (fixture, "sk_op_dropdown"), "begins with");
  type_text (field (fixture, "sk_entry"), "INVOICE#");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (field (fixture, "descending_button")), TRUE);
  type_text (field (fixture, "projection_entry"), "sk, amountDue, status");

  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  g_assert_null (dyno_builder_form_get_reason (fixture->form));

  request = dyno_builder_form_dup_request (fixture->form);
  g_assert_nonnull (request);
  g_assert_cmpint (request->operation, ==, DYNO_OP_QUERY);
  g_assert_cmpstr (request->table_name, ==, "tenant");
  g_assert_null (request->index_name);
  g_assert_cmpint (request->scan_index_forward, ==, DYNO_TRISTATE_FALSE);
  g_assert_cmpint (request->limit, ==, 100);

  printed = dyno_request_print (request);
  g_assert_nonnull (printed->key_condition);
  g_assert_true (g_regex_match_simple ("^pk = (:\\w+) AND begins_with\\(sk, (:\\w+)\\)$",
                                       printed->key_condition, 0, 0));
  /* status is a reserved word: aliased; sk and total are written as they are */
  g_assert_nonnull (printed->projection);
  g_test_message ("projection: %s", printed->projection);
  g_assert_true (g_regex_match_simple ("^sk, amountDue, #\\w+$", printed->projection, 0, 0));
  g_assert_cmpuint (printed->names->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (printed->names, 0), ==, "status");
  g_assert_cmpuint (printed->values->len, ==, 2);

  json = dyno_request_to_json (request, FALSE);
  g_assert_nonnull (strstr (json, "{\"S\":\"TENANT#acme\"}"));
  g_assert_nonnull (strstr (json, "{\"S\":\"INVOICE#\"}"));
  g_assert_nonnull (strstr (json, "\"ScanIndexForward\":false"));
}

static void
test_begins_with_not_for_numbers (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_auto(GStrv) options = dropdown_options (field (fixture, "sk_op_dropdown"));

  /* seq is N: begins_with is not defined on numbers, so it is not offered */
  g_assert_false (g_strv_contains ((const char * const *) options, "begins with"));
  g_assert_true (g_strv_contains ((const char * const *) options, "between"));
  g_assert_true (g_strv_contains ((const char * const *) options, ">="));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (field (fixture, "sk_label"))), ==,
                   "Sort key: seq (N)");
}

static void
test_begins_with_offered_for_strings (Fixture       *fixture,
                                      gconstpointer  data)
{
  g_auto(GStrv) options = dropdown_options (field (fixture, "sk_op_dropdown"));
  g_auto(GStrv) lsi_options = NULL;

  g_assert_true (g_strv_contains ((const char * const *) options, "begins with"));

  /* the LSI sorts by a number: switching the target takes begins_with away */
  dropdown_choose (field (fixture, "target_dropdown"), "by-created (LSI)");
  lsi_options = dropdown_options (field (fixture, "sk_op_dropdown"));
  g_assert_false (g_strv_contains ((const char * const *) lsi_options, "begins with"));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (field (fixture, "sk_label"))), ==,
                   "Sort key: created (N)");
}

static void
test_reversed_between (Fixture       *fixture,
                       gconstpointer  data)
{
  const char *message;
  const char *reason;

  type_text (field (fixture, "pk_entry"), "ACTOR#u_8814");
  dropdown_choose (field (fixture, "sk_op_dropdown"), "between");
  g_assert_true (gtk_widget_get_visible (field (fixture, "sk_entry2")));
  type_text (field (fixture, "sk_entry"), "EVT#2026-06-23T00:00:00Z");
  type_text (field (fixture, "sk_entry2"), "EVT#2026-06-23T23:59:59Z");
  g_assert_true (dyno_builder_form_get_valid (fixture->form));

  /* swapped: the message sits under the key, and Run says why it is off */
  type_text (field (fixture, "sk_entry"), "EVT#2026-06-23T23:59:59Z");
  type_text (field (fixture, "sk_entry2"), "EVT#2026-06-23T00:00:00Z");
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  message = shown_error (field (fixture, "key_error"));
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "BETWEEN"));
  g_assert_nonnull (strstr (message, "greater than"));
  reason = dyno_builder_form_get_reason (fixture->form);
  g_assert_nonnull (reason);
  g_assert_nonnull (strstr (reason, "BETWEEN"));

  /* fixing it clears the message */
  type_text (field (fixture, "sk_entry"), "EVT#2026-06-22T00:00:00Z");
  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  g_assert_null (shown_error (field (fixture, "key_error")));
}

static void
test_consistent_read_on_gsi (Fixture       *fixture,
                             gconstpointer  data)
{
  GtkWidget *consistent = field (fixture, "consistent_switch");
  const char *tooltip;
  g_autoptr(DynoRequest) request = NULL;

  g_assert_true (gtk_widget_get_sensitive (consistent));
  gtk_switch_set_active (GTK_SWITCH (consistent), TRUE);

  dropdown_choose (field (fixture, "target_dropdown"), "gsi1 (GSI)");
  drain_main_context ();
  g_assert_false (gtk_widget_get_sensitive (consistent));
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (consistent)));
  tooltip = gtk_widget_get_tooltip_text (gtk_widget_get_parent (consistent));
  g_assert_nonnull (tooltip);
  g_assert_nonnull (strstr (tooltip, "Global secondary indexes"));

  /* the key fields follow the index's key */
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (field (fixture, "pk_label"))), ==,
                   "Partition key: gsi1pk (S)");
  type_text (field (fixture, "pk_entry"), "STATUS#open");
  request = dyno_builder_form_dup_request (fixture->form);
  g_assert_nonnull (request);
  g_assert_cmpstr (request->index_name, ==, "gsi1");
  g_assert_cmpint (request->consistent_read, !=, DYNO_TRISTATE_TRUE);
  g_assert_true (dyno_builder_form_get_valid (fixture->form));

  /* said where the user looks: the switch's subtitle, and to a screen reader */
  {
    const char *subtitle = shown_error (field (fixture, "consistent_subtitle"));

    g_assert_nonnull (subtitle);
    g_assert_nonnull (strstr (subtitle, "Turned off: the global secondary index gsi1"));
    g_assert_nonnull (strstr (subtitle, "comes back on with the table"));
    gtk_test_accessible_assert_property (GTK_ACCESSIBLE (consistent),
                                         GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle);
  }

  /* back on the table, consistent reads are possible again, and the choice is restored */
  dropdown_choose (field (fixture, "target_dropdown"), "tenant");
  drain_main_context ();
  g_assert_true (gtk_widget_get_sensitive (consistent));
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (consistent)));
  g_assert_null (shown_error (field (fixture, "consistent_subtitle")));
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (consistent),
                                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
  g_clear_pointer (&request, dyno_request_free);
  request = dyno_builder_form_dup_request (fixture->form);
  g_assert_cmpint (request->consistent_read, ==, DYNO_TRISTATE_TRUE);

  /* a user who had it off finds it off, and the subtitle does not promise it back */
  gtk_switch_set_active (GTK_SWITCH (consistent), FALSE);
  dropdown_choose (field (fixture, "target_dropdown"), "gsi1 (GSI)");
  drain_main_context ();
  g_assert_nonnull (strstr (shown_error (field (fixture, "consistent_subtitle")),
                            "Off: the global secondary index gsi1"));
  dropdown_choose (field (fixture, "target_dropdown"), "tenant");
  drain_main_context ();
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (consistent)));
}

/* A field's error is exposed to assistive technologies: the field is invalid and its
 * description is the message, so Orca reads it with the field. */
static void
test_field_error_accessible (Fixture       *fixture,
                             gconstpointer  data)
{
  GtkWidget *entry = field (fixture, "pk_entry");
  GtkWidget *path;
  const char *message;

  type_text (entry, "12x");
  drain_main_context ();
  message = shown_error (field (fixture, "pk_error"));
  g_assert_nonnull (message);
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_STATE_INVALID,
                                    GTK_ACCESSIBLE_INVALID_TRUE);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (entry),
                                       GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message);
  gtk_test_accessible_assert_relation (GTK_ACCESSIBLE (entry),
                                       GTK_ACCESSIBLE_RELATION_DESCRIBED_BY,
                                       field (fixture, "pk_error"), NULL);
  g_assert_true (gtk_widget_has_css_class (entry, "error"));

  type_text (entry, "1e2");
  drain_main_context ();
  g_assert_null (shown_error (field (fixture, "pk_error")));
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_STATE_INVALID,
                                    GTK_ACCESSIBLE_INVALID_FALSE);
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (entry),
                                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
  g_assert_false (gtk_widget_has_css_class (entry, "error"));

  /* a filter row's message is on the row's fields */
  path = field (fixture, "path_entry");
  type_text (path, "a[");
  drain_main_context ();
  message = shown_error (field (fixture, "error_label"));
  g_assert_nonnull (message);
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (path), GTK_ACCESSIBLE_STATE_INVALID,
                                    GTK_ACCESSIBLE_INVALID_TRUE);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (path),
                                       GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message);
}

/* DynamoDB's limits and what an index carries are said at the field, in form and text mode. */
static void
test_limits_at_the_field (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GString) long_filter = g_string_new (NULL);
  const char *message;

  type_text (field (fixture, "pk_entry"), "TENANT#acme");
  drain_main_context ();
  g_assert_true (dyno_builder_form_get_valid (fixture->form));

  /* a KEYS_ONLY LSI cannot filter on what it does not carry */
  dropdown_choose (field (fixture, "target_dropdown"), "by-created (LSI)");
  type_text (field (fixture, "path_entry"), "amountDue");
  type_text (field (fixture, "value_entry"), "x");
  drain_main_context ();
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  message = shown_error (field (fixture, "filter_error"));
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "the index by-created (projection KEYS_ONLY) carries only "
                                     "pk, sk, created; it cannot filter on amountDue"));
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (field (fixture, "path_entry")),
                                    GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE);
  dropdown_choose (field (fixture, "target_dropdown"), "tenant");
  drain_main_context ();
  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  type_text (field (fixture, "path_entry"), "");
  type_text (field (fixture, "value_entry"), "");

  /* a filter over 4 KB as sent, typed as text */
  for (guint i = 0; i < 120; i++)
    g_string_append_printf (long_filter, "%sattribute_not_exists(someLongAttributeName%u)",
                            i ? " OR " : "", i);
  gtk_switch_set_active (GTK_SWITCH (field (fixture, "text_mode_switch")), TRUE);
  drain_main_context ();
  type_text (field (fixture, "filter_text_entry"), long_filter->str);
  drain_main_context ();
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  message = shown_error (field (fixture, "filter_text_error"));
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "FilterExpression: the expression is"));
  g_assert_nonnull (strstr (message, "DynamoDB accepts at most 4096 bytes (4 KB)"));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (field (fixture, "filter_text_entry")),
                                       GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message);
}

static gboolean
completion_find (GtkTreeModel *model,
                 const char   *name,
                 GtkTreeIter  *iter)
{
  gboolean more = gtk_tree_model_get_iter_first (model, iter);

  for (; more; more = gtk_tree_model_iter_next (model, iter))
    {
      g_autofree char *row_name = NULL;

      gtk_tree_model_get (model, iter, 1, &row_name, -1);
      if (g_strcmp0 (row_name, name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Completing an attribute whose name needs quoting inserts it quoted: a bare order.total
 * would be the path order → total and match nothing. */
static void
test_completion_quotes_names (Fixture       *fixture,
                              gconstpointer  data)
{
  static const char *names[] = { "status", "order.total", "order-date", "name", NULL };
  GtkWidget *path = field (fixture, "path_entry");
  GtkEntryCompletion *completion = gtk_entry_get_completion (GTK_ENTRY (path));
  GtkTreeModel *model = gtk_entry_completion_get_model (completion);
  GtkTreeIter iter;
  gboolean handled = FALSE;
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoPrintedRequest) printed = NULL;
  static const struct { const char *name, *inserted; } expected[] = {
    { "status", "status" },          /* reserved in DynamoDB, plain in the inline syntax */
    { "order.total", "`order.total`" },
    { "order-date", "`order-date`" },
    { "name", "name" },
  };

  dyno_builder_form_set_known_attributes (fixture->form, names);
  drain_main_context ();
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *inserted = NULL;

      g_assert_true (completion_find (model, expected[i].name, &iter));
      gtk_tree_model_get (model, &iter, gtk_entry_completion_get_text_column (completion),
                          &inserted, -1);
      g_assert_cmpstr (inserted, ==, expected[i].inserted);
    }

  /* the user picks order.total from the list */
  type_text (field (fixture, "pk_entry"), "TENANT#acme");
  type_text (path, "ord");
  g_assert_true (completion_find (model, "order.total", &iter));
  g_signal_emit_by_name (completion, "match-selected", model, &iter, &handled);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (path)), ==, "`order.total`");
  dropdown_choose (field (fixture, "op_dropdown"), "exists");
  drain_main_context ();
  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  request = dyno_builder_form_dup_request (fixture->form);
  printed = dyno_request_print (request);
  /* one attribute behind one placeholder, not a path of two */
  g_assert_true (g_regex_match_simple ("^attribute_exists\\(#\\w+\\)$", printed->filter, 0, 0));
  g_assert_cmpuint (printed->names->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (printed->names, 0), ==, "order.total");
}

/* A typed order.total, when the items have no map "order" but an attribute named
 * "order.total": said at the field, with the quoted form offered, in the form and as text. */
static void
test_dotted_name_offers_quoted (Fixture       *fixture,
                                gconstpointer  data)
{
  static const char *names[] = { "status", "order.total", NULL };
  static const char *with_map[] = { "order", "order.total", NULL };
  GtkWidget *path = field (fixture, "path_entry");
  GtkWidget *fix = field (fixture, "quote_button");
  const char *message;
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoPrintedRequest) printed = NULL;

  dyno_builder_form_set_known_attributes (fixture->form, names);
  type_text (field (fixture, "pk_entry"), "TENANT#acme");
  dropdown_choose (field (fixture, "op_dropdown"), "exists");
  type_text (path, "order.total");
  drain_main_context ();
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  message = shown_error (field (fixture, "error_label"));
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "attribute named “order.total”"));
  g_assert_nonnull (strstr (message, "DynamoDB reads a dot as a path"));
  g_assert_nonnull (strstr (message, "write `order.total`"));
  g_assert_true (gtk_widget_get_visible (fix));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (fix)), ==, "Use `order.total`");
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (path), GTK_ACCESSIBLE_STATE_INVALID,
                                    GTK_ACCESSIBLE_INVALID_TRUE);

  g_signal_emit_by_name (fix, "clicked");
  drain_main_context ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (path)), ==, "`order.total`");
  g_assert_null (shown_error (field (fixture, "error_label")));
  g_assert_false (gtk_widget_get_visible (fix));
  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  request = dyno_builder_form_dup_request (fixture->form);
  printed = dyno_request_print (request);
  g_assert_cmpstr (g_ptr_array_index (printed->names, 0), ==, "order.total");

  /* when a map "order" was seen too, a path is plausible: nothing is said */
  dyno_builder_form_set_known_attributes (fixture->form, with_map);
  type_text (path, "order.total");
  drain_main_context ();
  g_assert_null (shown_error (field (fixture, "error_label")));
  g_assert_true (dyno_builder_form_get_valid (fixture->form));

  /* as text: the filter and the attributes to return */
  dyno_builder_form_set_known_attributes (fixture->form, names);
  type_text (path, "");
  gtk_switch_set_active (GTK_SWITCH (field (fixture, "text_mode_switch")), TRUE);
  drain_main_context ();
  type_text (field (fixture, "filter_text_entry"), "status = \"open\" AND order.total > 3");
  drain_main_context ();
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  message = shown_error (field (fixture, "filter_text_error"));
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "write `order.total`"));
  type_text (field (fixture, "filter_text_entry"), "status = \"open\" AND `order.total` > 3");
  drain_main_context ();
  g_assert_null (shown_error (field (fixture, "filter_text_error")));
  type_text (field (fixture, "projection_entry"), "status, order.total");
  drain_main_context ();
  message = shown_error (field (fixture, "projection_error"));
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "write `order.total`"));
}

static void
test_number_key (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoPrintedRequest) printed = NULL;
  const char *message;

  type_text (field (fixture, "pk_entry"), "12x");
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  message = shown_error (field (fixture, "pk_error"));
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (dyno_builder_form_get_reason (fixture->form), message));

  type_text (field (fixture, "pk_entry"), "1e2");
  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  g_assert_null (shown_error (field (fixture, "pk_error")));
  request = dyno_builder_form_dup_request (fixture->form);
  printed = dyno_request_print (request);
  g_assert_cmpuint (printed->values->len, ==, 1);
  g_assert_cmpint (dyno_value_get_kind (g_ptr_array_index (printed->values, 0)), ==,
                   DYNO_VALUE_N);
  /* 1e2 is the number 100, sent as a number, never as the string "1e2" */
  g_assert_cmpstr (dyno_value_get_string (g_ptr_array_index (printed->values, 0), NULL), ==,
                   "100");
}

static void
test_binary_key (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoPrintedRequest) printed = NULL;
  const guint8 *bytes;
  gsize len = 0;

  type_text (field (fixture, "pk_entry"), "not base64!");
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  g_assert_nonnull (strstr (shown_error (field (fixture, "pk_error")), "base64"));

  type_text (field (fixture, "pk_entry"), "AAEC/w==");
  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  request = dyno_builder_form_dup_request (fixture->form);
  printed = dyno_request_print (request);
  g_assert_cmpint (dyno_value_get_kind (g_ptr_array_index (printed->values, 0)), ==,
                   DYNO_VALUE_B);
  bytes = dyno_value_get_binary (g_ptr_array_index (printed->values, 0), &len);
  g_assert_cmpmem (bytes, len, "\x00\x01\x02\xff", 4);
}

static void
test_filter_row (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoPrintedRequest) printed = NULL;

  type_text (field (fixture, "pk_entry"), "TENANT#acme");
  type_text (field (fixture, "path_entry"), "amountDue");
  dropdown_choose (field (fixture, "op_dropdown"), ">=");
  dropdown_choose (field (fixture, "type_dropdown"), "N");
  type_text (field (fixture, "value_entry"), "ten");
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  g_assert_nonnull (shown_error (field (fixture, "error_label")));

  type_text (field (fixture, "value_entry"), "10.50");
  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  request = dyno_builder_form_dup_request (fixture->form);
  printed = dyno_request_print (request);
  g_assert_nonnull (printed->filter);
  g_assert_true (g_regex_match_simple ("^amountDue >= :\\w+$", printed->filter, 0, 0));

  /* a filter on a key attribute of a Query is refused, next to the filter */
  type_text (field (fixture, "path_entry"), "sk");
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  g_assert_nonnull (shown_error (field (fixture, "filter_error")));
}

static void
test_text_mode_round_trip (Fixture       *fixture,
                           gconstpointer  data)
{
  GtkWidget *text_mode = field (fixture, "text_mode_switch");
  GtkWidget *key_text = field (fixture, "key_text_entry");
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoPrintedRequest) printed = NULL;
  g_auto(GStrv) options = NULL;
  guint selected;

  type_text (field (fixture, "pk_entry"), "TENANT#acme");
  dropdown_choose (field (fixture, "sk_op_dropdown"), "begins with");
  type_text (field (fixture, "sk_entry"), "USER#");

  /* form -> text: the same condition in the inline syntax */
  gtk_switch_set_active (GTK_SWITCH (text_mode), TRUE);
  drain_main_context ();
  g_assert_true (gtk_widget_get_visible (key_text));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (key_text)), ==,
                   "pk = \"TENANT#acme\" AND begins_with(sk, \"USER#\")");

  /* a syntax error stays in text mode, with the message under the text */
  type_text (key_text, "pk = \"TENANT#acme\" AND sk BETWEEN");
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  g_assert_nonnull (shown_error (field (fixture, "key_text_error")));

  /* text -> form */
  type_text (key_text, "pk = \"TENANT#acme\" AND "
                       "sk BETWEEN \"INVOICE#2026-0001\" AND \"INVOICE#2026-0020\"");
  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  gtk_switch_set_active (GTK_SWITCH (text_mode), FALSE);
  drain_main_context ();
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (text_mode)));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (fixture, "pk_entry"))), ==,
                   "TENANT#acme");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (fixture, "sk_entry"))), ==,
                   "INVOICE#2026-0001");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (fixture, "sk_entry2"))), ==,
                   "INVOICE#2026-0020");
  options = dropdown_options (field (fixture, "sk_op_dropdown"));
  selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (field (fixture, "sk_op_dropdown")));
  g_assert_cmpstr (options[selected], ==, "between");

  request = dyno_builder_form_dup_request (fixture->form);
  printed = dyno_request_print (request);
  g_assert_true (g_regex_match_simple ("^pk = :\\w+ AND sk BETWEEN :\\w+ AND :\\w+$",
                                       printed->key_condition, 0, 0));
}

static void
test_text_mode_keeps_what_the_form_cannot_show (Fixture       *fixture,
                                                gconstpointer  data)
{
  GtkWidget *text_mode = field (fixture, "text_mode_switch");

  type_text (field (fixture, "pk_entry"), "TENANT#acme");
  gtk_switch_set_active (GTK_SWITCH (text_mode), TRUE);
  drain_main_context ();
  /* a nested group: the form has only one level of AND/OR */
  type_text (field (fixture, "filter_text_entry"),
             "(status = \"open\" OR status = \"late\") AND total > 10");
  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  gtk_switch_set_active (GTK_SWITCH (text_mode), FALSE);
  drain_main_context ();

  /* it stays as text, nothing lost, and says why */
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (text_mode)));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (fixture, "filter_text_entry"))), ==,
                   "(status = \"open\" OR status = \"late\") AND total > 10");
  g_assert_nonnull (shown_error (field (fixture, "general_error")));
}

static void
test_load_request (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) pasted = NULL;
  g_autoptr(DynoRequest) request = NULL;
  g_autofree char *json = NULL;
  const char *text =
    "{\"TableName\": \"tenant\", \"IndexName\": \"gsi1\","
    " \"KeyConditionExpression\": \"gsi1pk = :s AND gsi1sk < :d\","
    " \"FilterExpression\": \"#t > :min\","
    " \"ExpressionAttributeNames\": {\"#t\": \"total\"},"
    " \"ExpressionAttributeValues\": {\":s\": {\"S\": \"STATUS#open\"},"
    " \":d\": {\"S\": \"2026-07-01\"}, \":min\": {\"N\": \"100\"}},"
    " \"ScanIndexForward\": false, \"Limit\": 25}";

  pasted = dyno_request_from_json (text, -1, -1, &error);
  g_assert_no_error (error);
  dyno_builder_form_load_request (fixture->form, pasted);
  drain_main_context ();

  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (fixture, "pk_entry"))), ==,
                   "STATUS#open");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (fixture, "sk_entry"))), ==,
                   "2026-07-01");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (fixture, "path_entry"))), ==,
                   "total");
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (field (fixture,
                                                                         "descending_button"))));
  g_assert_true (dyno_builder_form_get_valid (fixture->form));

  /* what the form builds is what was pasted */
  request = dyno_builder_form_dup_request (fixture->form);
  request->return_consumed_capacity = pasted->return_consumed_capacity;
  g_assert_true (dyno_request_equal (request, pasted));
}

static void
test_get_item_needs_the_whole_key (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(DynoRequest) request = NULL;

  dropdown_choose (field (fixture, "operation_dropdown"), "Get item");
  type_text (field (fixture, "pk_entry"), "TENANT#acme");
  g_assert_false (dyno_builder_form_get_valid (fixture->form));
  g_assert_nonnull (strstr (dyno_builder_form_get_reason (fixture->form), "sk"));
  g_assert_false (gtk_widget_get_visible (field (fixture, "sk_op_dropdown")));

  type_text (field (fixture, "sk_entry"), "PROFILE");
  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  request = dyno_builder_form_dup_request (fixture->form);
  g_assert_cmpint (request->operation, ==, DYNO_OP_GET_ITEM);
  g_assert_nonnull (request->key);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (request->key, "sk"), NULL), ==,
                   "PROFILE");
}

static void
test_entity_prefix (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoPrintedRequest) printed = NULL;

  type_text (field (fixture, "pk_entry"), "TENANT#acme");
  dyno_builder_form_set_sort_key_prefix (fixture->form, "INVOICE#");
  g_assert_true (dyno_builder_form_get_valid (fixture->form));
  request = dyno_builder_form_dup_request (fixture->form);
  printed = dyno_request_print (request);
  g_assert_true (g_regex_match_simple ("^pk = :\\w+ AND begins_with\\(sk, :\\w+\\)$",
                                       printed->key_condition, 0, 0));
  g_assert_cmpstr (dyno_value_get_string (g_ptr_array_index (printed->values, 1), NULL), ==,
                   "INVOICE#");
}

#define ADD(path, fn, schema) \
  g_test_add (path, Fixture, schema, fixture_set_up, fn, fixture_tear_down)

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  ADD ("/builder-form/untouched", test_untouched_form, NULL);
  ADD ("/builder-form/generated-request", test_generated_request, NULL);
  ADD ("/builder-form/sort-key/begins-with-not-for-numbers", test_begins_with_not_for_numbers,
       numeric_sort_key_schema);
  ADD ("/builder-form/sort-key/begins-with-for-strings", test_begins_with_offered_for_strings,
       NULL);
  ADD ("/builder-form/sort-key/reversed-between", test_reversed_between, NULL);
  ADD ("/builder-form/consistent-read-on-gsi", test_consistent_read_on_gsi, NULL);
  ADD ("/builder-form/field-error-accessible", test_field_error_accessible,
       numeric_partition_key_schema);
  ADD ("/builder-form/completion-quotes-names", test_completion_quotes_names, NULL);
  ADD ("/builder-form/limits-at-the-field", test_limits_at_the_field, NULL);
  ADD ("/builder-form/dotted-name-offers-quoted", test_dotted_name_offers_quoted, NULL);
  ADD ("/builder-form/types/number", test_number_key, numeric_partition_key_schema);
  ADD ("/builder-form/types/binary", test_binary_key, binary_partition_key_schema);
  ADD ("/builder-form/filter-row", test_filter_row, NULL);
  ADD ("/builder-form/text-mode/round-trip", test_text_mode_round_trip, NULL);
  ADD ("/builder-form/text-mode/keeps-nested-groups",
       test_text_mode_keeps_what_the_form_cannot_show, NULL);
  ADD ("/builder-form/load-request", test_load_request, NULL);
  ADD ("/builder-form/get-item", test_get_item_needs_the_whole_key, NULL);
  ADD ("/builder-form/entity-prefix", test_entity_prefix, NULL);

  return g_test_run ();
}
