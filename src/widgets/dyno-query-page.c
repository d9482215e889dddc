/* dyno-query-page.c: one tab: the builder form, the results, the code and the page ledger
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "dyno-application.h"
#include "dyno-builder-form.h"
#include "dyno-capacity.h"
#include "dyno-code-view.h"
#include "dyno-codegen.h"
#include "dyno-collection-view.h"
#include "dyno-delete-items.h"
#include "dyno-engine-backend.h"
#include "dyno-http-backend.h"
#include "dyno-http-error.h"
#include "dyno-import.h"
#include "dyno-item-editor.h"
#include "dyno-json.h"
#include "dyno-page-ledger.h"
#include "dyno-query-store.h"
#include "dyno-query-page.h"
#include "dyno-run.h"
#include "dyno-safe-write.h"
#include "dyno-transaction-dialog.h"
#include "dyno-transfer-dialog.h"
#include "dyno-tx-stage.h"
#include "dyno-window.h"
#include "dyno-widget-util.h"

typedef enum {
  UNDO_NONE,
  UNDO_EDIT,    /* write the old values back, conditioned on the written ones */
  UNDO_NEW,     /* delete the new item, conditioned on it being as written */
  UNDO_DELETE,  /* put the old images back where no item has their key */
} UndoKind;

struct _DynoQueryPage
{
  GtkWidget           parent_instance;

  DynoBackend        *backend;
  DynoConnection     *connection;
  char               *table_name;
  char               *index_name;
  DynoTableInfo      *info;
  char               *subtitle;
  DynoRun            *run;
  GCancellable       *cancellable;

  GtkWidget          *leaflet;         /* the form beside the results; one at a time when narrow */
  GtkWidget          *form_page;
  GtkWidget          *results_page;
  GtkWidget          *show_results_button;
  GtkWidget          *show_query_button;
  DynoBuilderForm    *form;
  GtkWidget          *run_button;
  GtkWidget          *transaction_button;
  GtkWidget          *transaction_count;
  GtkWidget          *stop_button;
  GtkWidget          *reason_label;
  GtkWidget          *results_stack;
  GtkWidget          *error_page;
  GtkWidget          *sign_in_button;  /* on the error page, for IAM Identity Center */
  DynoCollectionView *collection;
  GtkWidget          *status_label;
  GtkWidget          *status_bar;
  GtkWidget          *spinner;
  GtkWidget          *load_more_button;
  GtkWidget          *load_all_button;
  DynoCodeView       *code_view;
  DynoPageLedger     *ledger;
  GtkWidget          *views;           /* code, pages, item */

  /* capacity: the estimate of what the form asks, before running, and a month of it */
  GtkWidget          *cost_button;
  GtkWidget          *estimate_label;
  GtkWidget          *rate_spin;
  GtkWidget          *price_spin;
  GtkWidget          *cost_label;
  DynoReadEstimate    estimate;        /* of the form's request; basis UNKNOWN when none */
  gboolean            has_estimate;
  double              run_estimate;    /* the estimate of the run on screen; -1: none */
  const char         *get_item_status; /* what a GetItem on screen found (static), or NULL */
  guint               run_estimate_pages;

  /* saved queries and history (NULL without a DynoApplication) */
  DynoQueryStore     *store;
  char               *connection_key;
  GtkWidget          *queries_button;
  GtkWidget          *queries_popover;
  GtkWidget          *store_error_label;
  GtkWidget          *saved_search;
  GtkWidget          *saved_list;
  GtkWidget          *history_list;
  GtkFilter          *saved_filter;
  DynoQueryDraft     *run_draft;       /* what the run in flight was asked, for the history */
  gboolean            run_recorded;

  /* the last write, to undo it from its toast */
  UndoKind            undo_kind;
  GPtrArray          *undo_before;     /* DynoItem*: the items as they were (EDIT, DELETE) */
  GArray             *undo_positions;  /* guint: where each deleted item was (DELETE) */
  DynoItem           *undo_after;      /* the item as written (EDIT, NEW) */
  GPtrArray          *deleting;        /* DynoItem*: the items a delete in flight was asked for */
};

G_DEFINE_FINAL_TYPE (DynoQueryPage, dyno_query_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
endpoint_url (DynoQueryPage *self)
{
  if (DYNO_IS_HTTP_BACKEND (self->backend) && self->connection != NULL &&
      dyno_connection_get_kind (self->connection) == DYNO_CONNECTION_LOCAL)
    return dyno_http_backend_get_endpoint_url (DYNO_HTTP_BACKEND (self->backend));
  /* the Playground, where it is served while the app runs: copied code runs against it */
  if (DYNO_IS_ENGINE_BACKEND (self->backend))
    return dyno_engine_backend_get_served_url (DYNO_ENGINE_BACKEND (self->backend));

  return self->connection ? dyno_connection_get_endpoint_url (self->connection) : NULL;
}

static const char *
region (DynoQueryPage *self)
{
  if (DYNO_IS_HTTP_BACKEND (self->backend))
    return dyno_http_backend_get_region (DYNO_HTTP_BACKEND (self->backend));

  return self->connection ? dyno_connection_get_region (self->connection) : NULL;
}

static void
update_subtitle (DynoQueryPage *self)
{
  g_autofree char *keys = NULL;
  g_autofree char *where = NULL;

  if (self->info != NULL)
    keys = dyno_table_info_describe_keys (self->info, self->index_name);
  if (self->connection != NULL)
    where = dyno_connection_dup_subtitle (self->connection);

  g_free (self->subtitle);
  if (keys != NULL && where != NULL)
    self->subtitle = g_strdup_printf ("%s · %s", keys, where);
  else
    self->subtitle = g_strdup (keys ? keys : where ? where : "");
}


/* ---- capacity ---------------------------------------------------------------------------- */

/* The items on screen, when they are this table's: what the estimate counts among. */
static GPtrArray *
loaded_sample (DynoQueryPage *self)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  guint n = self->run != NULL ? dyno_run_get_n_items (self->run) : 0;

  /* enough to judge sizes and selectivity; counting millions would cost a frame */
  n = MIN (n, 20000);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, dyno_item_ref (dyno_run_get_item (self->run, i)));
  return items;
}

static char *
describe_estimate (const DynoReadEstimate *e,
                   guint                   n_loaded)
{
  if (e->basis == DYNO_CAPACITY_BASIS_UNKNOWN)
    /* Translators: the read capacity units of one full page (1 MB) */
    return g_strdup_printf (_("Not enough is known to estimate this read: each page costs at "
                              "most %g RCU (1 MB read). Run it once, or load items of the "
                              "table, and the estimate follows."), e->first_page_units);
  if (e->basis == DYNO_CAPACITY_BASIS_SAMPLED)
    {
      /* Translators: the read capacity units, then the pages */
      g_autofree char *cost = g_strdup_printf (g_dngettext (NULL, "About %g RCU in %u page",
                                                            "About %g RCU in %u pages",
                                                            e->pages),
                                               e->units, e->pages);
      g_autofree char *basis = NULL;

      if (e->upper_bound)
        /* Translators: the items counted, then the items on screen they were counted among */
        basis = g_strdup_printf (g_dngettext (NULL, "at most %llu of the %u item loaded match "
                                              "the key",
                                              "at most %llu of the %u items loaded match the "
                                              "key", n_loaded),
                                 (unsigned long long) e->items, n_loaded);
      else
        /* Translators: the items counted, then the items on screen they were counted among */
        basis = g_strdup_printf (g_dngettext (NULL, "%llu of the %u item loaded match the key",
                                              "%llu of the %u items loaded match the key",
                                              n_loaded),
                                 (unsigned long long) e->items, n_loaded);
      /* Translators: "About 2.5 RCU in 1 page", then "10 of the 200 items loaded match the
       * key" */
      return g_strdup_printf (_("%s: %s."), cost, basis);
    }
  {
    /* Translators: the read capacity units, then the pages */
    g_autofree char *cost = g_strdup_printf (g_dngettext (NULL, "About %g RCU in %u page",
                                                          "About %g RCU in %u pages", e->pages),
                                             e->units, e->pages);

    /* Translators: "About 64 RCU in 3 pages", then the item count DescribeTable gives */
    return g_strdup_printf (_("%s: the whole table, %llu items by DescribeTable (updated about "
                              "every six hours on AWS)."), cost, (unsigned long long) e->items);
  }
}

/* Units per request: the run's own figure when there is one, else the estimate. */
static void
update_cost (DynoQueryPage *self)
{
  double rate = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->rate_spin));
  double price = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->price_spin));
  double actual = self->run != NULL ? dyno_run_get_consumed_capacity (self->run) : -1;
  double units = actual >= 0 && dyno_run_get_n_pages (self->run) > 0 ? actual
                 : self->has_estimate && self->estimate.basis != DYNO_CAPACITY_BASIS_UNKNOWN
                 ? self->estimate.units : -1;
  g_autofree char *text = NULL;

  if (units < 0)
    text = g_strdup (_("The monthly cost follows from a run or an estimate."));
  else
    /* Translators: dollars a month, the read units a month, then the read units of one
     * request and where that figure comes from */
    text = g_strdup_printf (_("≈ $%.2f a month (%.3g million read units; %g RCU a request, %s)"),
                            dyno_capacity_monthly_cost (units, rate, price),
                            dyno_capacity_monthly_units (units, rate) / 1e6, units,
                            actual >= 0 && dyno_run_get_n_pages (self->run) > 0
                            ? _("as read") : _("as estimated"));
  gtk_label_set_label (GTK_LABEL (self->cost_label), text);
}

static void
cost_inputs_changed_cb (DynoQueryPage *self)
{
  update_cost (self);
}

static void
update_estimate (DynoQueryPage     *self,
                 const DynoRequest *request)
{
  g_autoptr(GPtrArray) sample = NULL;
  g_autofree char *text = NULL;
  DynoReadShape shape;

  self->has_estimate = request != NULL && (request->operation == DYNO_OP_QUERY ||
                                           request->operation == DYNO_OP_SCAN);
  if (!self->has_estimate)
    {
      gtk_label_set_label (GTK_LABEL (self->estimate_label),
                           request != NULL && request->operation == DYNO_OP_GET_ITEM
                           ? _("A GetItem reads one item: 0.5 RCU up to 4 KB, 1 RCU strongly "
                               "consistent.")
                           : _("Estimates are for a Query or a Scan."));
      update_cost (self);
      return;
    }
  sample = loaded_sample (self);
  dyno_capacity_shape_for_request (request, self->info, sample, &shape);
  dyno_capacity_estimate_read (&shape, &self->estimate);
  text = describe_estimate (&self->estimate, sample->len);
  gtk_label_set_label (GTK_LABEL (self->estimate_label), text);
  update_cost (self);
}

static void
update_status (DynoQueryPage *self)
{
  g_autoptr(GString) status = g_string_new (NULL);
  gboolean loading = self->run != NULL && dyno_run_get_loading (self->run);
  gboolean has_more = self->run != NULL && dyno_run_get_has_more (self->run);

  if (self->run != NULL)
    {
      guint n_items = dyno_run_get_n_items (self->run);
      guint n_pages = dyno_run_get_n_pages (self->run);
      double rcu = dyno_run_get_consumed_capacity (self->run);

      g_string_append_printf (status, g_dngettext (NULL, "%u item", "%u items", n_items), n_items);
      g_string_append (status, " · ");
      g_string_append_printf (status, g_dngettext (NULL, "%u page", "%u pages", n_pages), n_pages);
      if (rcu >= 0)
        {
          g_string_append (status, " · ");
          /* Translators: read capacity units */
          g_string_append_printf (status, _("%g RCU"), rcu);
          if (self->run_estimate >= 0)
            /* Translators: after the RCU a run read: what was estimated before it ran, for
             * how many pages */
            g_string_append_printf (status, g_dngettext (NULL, " (estimated %g in %u page)",
                                                         " (estimated %g in %u pages)",
                                                         self->run_estimate_pages),
                                    self->run_estimate, self->run_estimate_pages);
        }
      if (dyno_run_get_write_capacity (self->run) >= 0)
        {
          g_string_append (status, " · ");
          /* Translators: write capacity units of the writes made from this page */
          g_string_append_printf (status, _("%g WCU"), dyno_run_get_write_capacity (self->run));
        }
      if (dyno_run_get_scanned_count (self->run) != (gint64) n_items)
        {
          g_autofree char *scanned = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                      dyno_run_get_scanned_count (self->run));

          g_string_append (status, " · ");
          /* Translators: %s is the number of items DynamoDB read (ScannedCount) */
          g_string_append_printf (status, _("%s scanned"), scanned);
        }
      if (dyno_run_get_cancelled (self->run))
        {
          g_string_append (status, " · ");
          g_string_append (status, _("stopped"));
        }
      else if (!has_more && !loading && n_pages > 0)
        {
          g_string_append (status, " · ");
          g_string_append (status, _("complete"));
        }
    }

  if (self->run == NULL && self->get_item_status != NULL)
    g_string_append (status, self->get_item_status);
  else if (self->run == NULL && self->has_estimate &&
           self->estimate.basis != DYNO_CAPACITY_BASIS_UNKNOWN)
    /* Translators: before running: the read capacity units the request should cost */
    g_string_append_printf (status, _("Estimate: about %g RCU"), self->estimate.units);
  gtk_label_set_label (GTK_LABEL (self->status_label), status->str);
  update_cost (self);
  /* the whole line when it is ellipsized; on the bar, since a label's tooltip would replace
   * its accessible description */
  gtk_widget_set_tooltip_text (self->status_bar, status->len > 0 ? status->str : NULL);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), loading);
  gtk_widget_set_visible (self->spinner, loading);
  gtk_widget_set_visible (self->stop_button, loading);
  /* actionable buttons follow their action's state, not set_sensitive() */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.load-more", has_more && !loading);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.load-all", has_more && !loading);
}

static void
show_error (DynoQueryPage *self,
            const GError  *error)
{
  const DynoServiceError *info = dyno_error_get_service_info (error);
  g_autofree char *title = NULL;

  if (info != NULL && info->type != NULL)
    title = g_strdup (info->type);
  else if (error->domain == DYNO_ERROR && error->code == DYNO_ERROR_NETWORK)
    title = g_strdup (_("Could not reach DynamoDB"));
  else
    title = g_strdup (_("The request failed"));

  adw_status_page_set_title (ADW_STATUS_PAGE (self->error_page), title);
  if (info != NULL && info->message != NULL)
    {
      g_autofree char *description = NULL;

      if (info->request_id != NULL)
        description = g_markup_printf_escaped ("%s\n\n<small>%s %s</small>", info->message,
                                               _("Request ID"), info->request_id);
      else
        description = g_markup_escape_text (info->message, -1);
      adw_status_page_set_description (ADW_STATUS_PAGE (self->error_page), description);
    }
  else
    {
      g_autofree char *description = g_markup_escape_text (error->message, -1);
      adw_status_page_set_description (ADW_STATUS_PAGE (self->error_page), description);
    }

  /* An IAM Identity Center sign-in that expired during use: sign in again here; the query
   * stays as it is, to run again. */
  {
    gboolean sso = self->connection != NULL
                   && dyno_connection_get_sso_profile (self->connection) != NULL
                   && (g_error_matches (error, DYNO_ERROR, DYNO_ERROR_CONFIG)
                       || g_error_matches (error, DYNO_ERROR, DYNO_ERROR_EXPIRED_TOKEN)
                       || g_error_matches (error, DYNO_ERROR, DYNO_ERROR_AUTH));

    /* the action takes the connection's ID: named only once there is one to give it */
    if (sso)
      {
        gtk_actionable_set_action_target_value (
          GTK_ACTIONABLE (self->sign_in_button),
          g_variant_new_string (dyno_connection_get_id (self->connection)));
        gtk_actionable_set_action_name (GTK_ACTIONABLE (self->sign_in_button),
                                        "win.sso-sign-in");
      }
    gtk_widget_set_visible (self->sign_in_button, sso);
    /* a smaller icon, so that the button shows without scrolling */
    if (sso)
      gtk_widget_add_css_class (self->error_page, "compact");
    else
      gtk_widget_remove_css_class (self->error_page, "compact");
  }

  gtk_stack_set_visible_child_name (GTK_STACK (self->results_stack), "error");
}

/* The item toolbar follows the selection: one item to edit or copy, any number to delete. */
static void
update_item_actions (DynoQueryPage *self)
{
  guint n_selected = dyno_collection_view_count_selected_items (self->collection, 2);
  GListModel *items = dyno_collection_view_get_items (self->collection);
  gboolean writable = self->backend != NULL && self->info != NULL;
  gboolean loading = self->run != NULL && dyno_run_get_loading (self->run);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.new-item", writable);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.edit-item",
                                 writable && n_selected == 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.duplicate-item",
                                 writable && n_selected == 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.delete-items",
                                 writable && n_selected > 0 && !loading);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.import-items", writable);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.stage-delete",
                                 writable && n_selected > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.stage-check",
                                 writable && n_selected == 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.show-transaction",
                                 self->backend != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.export-items",
                                 self->backend != NULL &&
                                 ((items != NULL && g_list_model_get_n_items (items) > 0) ||
                                  dyno_builder_form_get_valid (self->form)));
}

static void record_run (DynoQueryPage *self);

static void
run_notify_cb (DynoQueryPage *self)
{
  const GError *error = self->run ? dyno_run_get_error (self->run) : NULL;

  if (error != NULL)
    show_error (self, error);
  else if (self->run != NULL && dyno_run_get_n_items (self->run) > 0)
    gtk_stack_set_visible_child_name (GTK_STACK (self->results_stack), "results");
  else if (self->run != NULL && !dyno_run_get_loading (self->run) &&
           dyno_run_get_n_pages (self->run) > 0)
    gtk_stack_set_visible_child_name (GTK_STACK (self->results_stack), "no-results");

  /* the items on screen are what the next estimate counts among */
  if (self->run != NULL && !dyno_run_get_loading (self->run) && dyno_builder_form_get_valid (self->form))
    {
      g_autoptr(DynoRequest) request = dyno_builder_form_dup_request (self->form);

      update_estimate (self, request);
    }
  update_status (self);
  update_item_actions (self);
  record_run (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
form_changed_cb (DynoQueryPage *self)
{
  g_autoptr(DynoRequest) request = dyno_builder_form_dup_request (self->form);
  gboolean valid = dyno_builder_form_get_valid (self->form);
  const char *reason = dyno_builder_form_get_reason (self->form);

  dyno_code_view_set_request (self->code_view, request, endpoint_url (self), region (self));
  update_estimate (self, valid ? request : NULL);
  update_status (self);
  /* a request validation refuses is not shown as working code */
  dyno_code_view_set_refused (self->code_view,
                              valid ? NULL : reason ? reason : _("A field needs attention."));

  gtk_widget_set_sensitive (self->run_button, valid && self->backend != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.run", valid && self->backend != NULL);
  if (!valid && reason != NULL)
    {
      g_autofree char *tooltip = g_strdup_printf (_("Cannot run: %s"), reason);
      gtk_widget_set_tooltip_text (self->run_button, tooltip);
      gtk_label_set_label (GTK_LABEL (self->reason_label), reason);
    }
  else
    {
      gtk_widget_set_tooltip_text (self->run_button, _("Run the request (Ctrl+Enter)"));
      gtk_label_set_label (GTK_LABEL (self->reason_label), "");
    }

  update_item_actions (self);
}

static void
clear_run (DynoQueryPage *self)
{
  if (self->run != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->run, self);
      dyno_run_cancel (self->run);
      g_clear_object (&self->run);
    }
}

static void
get_item_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(DynoQueryPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;

  response = dyno_backend_execute_finish (DYNO_BACKEND (object), result, &error);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), FALSE);
  gtk_widget_set_visible (self->spinner, FALSE);

  if (response == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error);
      return;
    }

  {
    JsonObject *object_ = json_node_get_object (response);
    JsonNode *item_node = json_object_get_member (object_, "Item");
    g_autoptr(DynoItem) item = NULL;

    if (item_node == NULL)
      {
        gtk_stack_set_visible_child_name (GTK_STACK (self->results_stack), "no-results");
        self->get_item_status = _("No item with this key");
        gtk_label_set_label (GTK_LABEL (self->status_label), self->get_item_status);
        return;
      }

    item = dyno_item_from_json_node (item_node, &error);
    if (item == NULL)
      {
        show_error (self, error);
        return;
      }
    dyno_collection_view_show_item (self->collection, item, self->info);
    gtk_stack_set_visible_child_name (GTK_STACK (self->results_stack), "results");
    self->get_item_status = _("1 item");
    gtk_label_set_label (GTK_LABEL (self->status_label), self->get_item_status);
  }
}

static void
run_activated (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);
  g_autoptr(DynoRequest) request = NULL;
  guint64 max_items;

  if (!dyno_builder_form_get_valid (self->form) || self->backend == NULL)
    return;

  request = dyno_builder_form_dup_request (self->form);
  if (request == NULL)
    return;

  /* what was expected, to show beside what it cost (the estimate counts the items on screen,
   * which clear_run() drops) */
  update_estimate (self, request);
  self->run_estimate = self->has_estimate &&
                       self->estimate.basis != DYNO_CAPACITY_BASIS_UNKNOWN
                       ? self->estimate.units : -1;
  self->run_estimate_pages = self->estimate.pages;
  self->get_item_status = NULL;
  clear_run (self);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  /* what the history will say was run (a GetItem is not a query: none) */
  g_clear_object (&self->run_draft);
  self->run_draft = dyno_builder_form_dup_draft (self->form);
  self->run_recorded = FALSE;
  /* narrow, Run shows what it brings */
  if (adw_leaflet_get_folded (ADW_LEAFLET (self->leaflet)))
    adw_leaflet_set_visible_child (ADW_LEAFLET (self->leaflet), self->results_page);

  if (request->operation == DYNO_OP_GET_ITEM)
    {
      gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), TRUE);
      gtk_widget_set_visible (self->spinner, TRUE);
      dyno_collection_view_set_run (self->collection, NULL, self->info, self->index_name);
      dyno_page_ledger_set_run (self->ledger, NULL);
      dyno_backend_execute_async (self->backend, request, self->cancellable, get_item_cb,
                                  g_object_ref (self));
      return;
    }

  self->run = dyno_run_new (self->backend, request);
  max_items = dyno_builder_form_get_max_items (self->form);
  dyno_run_set_max_items (self->run, max_items);

  g_signal_connect_object (self->run, "notify::loading", G_CALLBACK (run_notify_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->run, "notify::error", G_CALLBACK (run_notify_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->run, "notify::n-pages", G_CALLBACK (run_notify_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->run, "notify::has-more", G_CALLBACK (run_notify_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->run, "notify::cancelled", G_CALLBACK (run_notify_cb), self,
                           G_CONNECT_SWAPPED);

  dyno_collection_view_set_run (self->collection, self->run, self->info, request->index_name);
  dyno_page_ledger_set_run (self->ledger, self->run);

  if (max_items > 0)
    dyno_run_load_all (self->run);
  else
    dyno_run_start (self->run);

  run_notify_cb (self);
}

static void
stop_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);

  g_cancellable_cancel (self->cancellable);
  if (self->run != NULL)
    dyno_run_cancel (self->run);
}

static void
load_more_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);

  if (self->run != NULL)
    dyno_run_load_more (self->run);
}

static void
load_all_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);

  if (self->run != NULL)
    dyno_run_load_all (self->run);
}

static void
copy_code_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);

  dyno_code_view_copy (self->code_view);
}

static void
toast (DynoQueryPage *self,
       const char    *message)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (DYNO_IS_WINDOW (root))
    dyno_window_add_toast (DYNO_WINDOW (root), message);
}

static void
clipboard_text_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(DynoQueryPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) request = NULL;
  g_autofree char *text = NULL;
  const char *member = NULL;

  text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);
  if (text == NULL)
    {
      toast (self, _("The clipboard holds no text to read a request from"));
      return;
    }

  request = dyno_request_from_json_located (text, -1, -1, &member, NULL, &error);
  if (request == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Not a request: %s"), error->message);

      toast (self, message);
      return;
    }

  if (request->operation != DYNO_OP_QUERY && request->operation != DYNO_OP_SCAN &&
      request->operation != DYNO_OP_GET_ITEM)
    {
      g_autofree char *message =
        g_strdup_printf (_("This is a %s request; the form builds Query, Scan and GetItem"),
                         dyno_operation_to_string (request->operation));

      toast (self, message);
      return;
    }

  /* The form is about this tab's table: a request for another one keeps its conditions. */
  if (g_strcmp0 (request->table_name, self->table_name) != 0)
    {
      g_autofree char *message =
        g_strdup_printf (_("The request reads “%s”; its conditions were loaded for “%s”"),
                         request->table_name, self->table_name);

      toast (self, message);
    }
  else
    {
      toast (self, _("Request loaded into the form"));
    }

  dyno_builder_form_load_request (self->form, request);
}

static void
paste_request_activated (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), self->cancellable,
                                 clipboard_text_cb, g_object_ref (self));
}

/* ---- saved queries and history ---------------------------------------------------------- */

/* Which connection the lists belong to, the same on every run of the app: DynamoDB Local by
 * its endpoint, a profile or region by name, access keys by the saved connection's id.  No
 * secret is part of it. */
static char *
connection_key (DynoConnection *connection)
{
  const char *region;

  if (connection == NULL)
    return g_strdup ("");
  region = dyno_connection_get_region (connection);
  switch (dyno_connection_get_kind (connection))
    {
    case DYNO_CONNECTION_LOCAL:
      return g_strdup_printf ("local:%s", dyno_connection_get_endpoint_url (connection));
    case DYNO_CONNECTION_PROFILE:
      return g_strdup_printf ("profile:%s@%s", dyno_connection_get_profile (connection),
                              region ? region : "");
    case DYNO_CONNECTION_REGION:
      return g_strdup_printf ("region:%s", region ? region : "");
    case DYNO_CONNECTION_KEYS:
    default:
      return g_strdup_printf ("id:%s", dyno_connection_get_id (connection));
    }
}

/* "gsi1: PK = "USER#1" AND begins_with(SK, "A")", "Scan · status = "open"" */
static char *
describe_draft (DynoQueryPage  *self,
                DynoQueryDraft *draft)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(DynoQueryDraft) with_schema = NULL;
  const char *index = dyno_query_draft_get_index_name (draft);
  const DynoExpr *key = dyno_query_draft_get_key_condition (draft);
  const DynoExpr *filter = dyno_query_draft_get_filter (draft);

  /* a key kept as its parts names its attributes through the table's schema */
  if (key == NULL && self->info != NULL &&
      dyno_query_draft_get_operation (draft) == DYNO_OP_QUERY)
    {
      g_autofree char *json = dyno_query_draft_to_json (draft, FALSE);

      with_schema = dyno_query_draft_new ();
      dyno_query_draft_set_table_info (with_schema, self->info);
      if (dyno_query_draft_load_json (with_schema, json, -1, NULL))
        key = dyno_query_draft_get_key_condition (with_schema);
    }

  if (index != NULL)
    g_string_append_printf (text, "%s: ", index);
  if (dyno_query_draft_get_operation (draft) == DYNO_OP_SCAN)
    g_string_append (text, _("Scan"));
  else if (key != NULL)
    {
      g_autofree char *inline_text = dyno_expr_to_inline (key);
      g_string_append (text, inline_text);
    }
  else
    g_string_append (text, _("Query"));
  if (filter != NULL)
    {
      g_autofree char *inline_text = dyno_expr_to_inline (filter);
      g_string_append_printf (text, " · %s", inline_text);
    }
  if (dyno_query_draft_get_scan_index_forward (draft) == DYNO_TRISTATE_FALSE)
    g_string_append_printf (text, " · %s", _("descending"));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* "14:05:09 · 10 items · 1 page · 0.5 RCU" */
static char *
describe_run (DynoQueryEntry *entry)
{
  g_autoptr(GDateTime) local = g_date_time_to_local (dyno_query_entry_get_when (entry));
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *when = NULL;
  guint64 n_items = dyno_query_entry_get_n_items (entry);
  guint64 n_pages = dyno_query_entry_get_n_pages (entry);
  double rcu = dyno_query_entry_get_rcu (entry);
  g_autofree char *items = g_strdup_printf ("%" G_GUINT64_FORMAT, n_items);
  g_autofree char *pages = g_strdup_printf ("%" G_GUINT64_FORMAT, n_pages);

  if (g_date_time_get_year (local) == g_date_time_get_year (now) &&
      g_date_time_get_day_of_year (local) == g_date_time_get_day_of_year (now))
    when = g_date_time_format (local, "%H:%M:%S");
  else
    when = g_date_time_format (local, "%Y-%m-%d %H:%M");
  g_string_append (text, when);
  g_string_append (text, " · ");
  g_string_append_printf (text, g_dngettext (NULL, "%s item", "%s items", n_items), items);
  g_string_append (text, " · ");
  g_string_append_printf (text, g_dngettext (NULL, "%s page", "%s pages", n_pages), pages);
  if (rcu >= 0)
    {
      g_string_append (text, " · ");
      g_string_append_printf (text, _("%g RCU"), rcu);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
save_store (DynoQueryPage *self)
{
  g_autoptr(GError) error = NULL;

  if (self->store != NULL && !dyno_query_store_save (self->store, &error))
    toast (self, error->message);
}

static void
open_entry (DynoQueryPage  *self,
            DynoQueryEntry *entry)
{
  const char *name = dyno_query_entry_get_name (entry);
  g_autofree char *message = NULL;

  gtk_popover_popdown (GTK_POPOVER (self->queries_popover));
  /* shown in the form, not run: the user looks at it first */
  dyno_builder_form_load_draft (self->form, dyno_query_entry_get_draft (entry));
  if (adw_leaflet_get_folded (ADW_LEAFLET (self->leaflet)))
    adw_leaflet_set_visible_child (ADW_LEAFLET (self->leaflet), self->form_page);
  if (name != NULL)
    /* Translators: a toast; %s is a saved query's name */
    message = g_strdup_printf (_("“%s” is in the form: press Run to run it"), name);
  else
    message = g_strdup (_("The query from the history is in the form: press Run to run it"));
  toast (self, message);
}

/* What a saved or history row's button (or a toast's Undo) acts on: the page, weakly, and
 * the entry; for Move, the direction; for Undo, where the entry was. */
typedef struct {
  GWeakRef        page;
  DynoQueryEntry *entry;
  int             delta;
  guint           position;
} EntryAction;

static EntryAction *
entry_action_new (DynoQueryPage  *self,
                  DynoQueryEntry *entry,
                  int             delta,
                  guint           position)
{
  EntryAction *action = g_new0 (EntryAction, 1);

  g_weak_ref_init (&action->page, self);
  action->entry = g_object_ref (entry);
  action->delta = delta;
  action->position = position;
  return action;
}

static void
entry_action_free (gpointer  data,
                   GClosure *closure)
{
  EntryAction *action = data;

  g_weak_ref_clear (&action->page);
  g_object_unref (action->entry);
  g_free (action);
}

static void
entry_button_clicked_cb (GtkButton   *button,
                         EntryAction *action)
{
  g_autoptr(DynoQueryPage) self = g_weak_ref_get (&action->page);

  if (self != NULL)
    open_entry (self, action->entry);
}

static guint
saved_position (DynoQueryPage  *self,
                DynoQueryEntry *entry)
{
  GListModel *saved = dyno_query_store_get_saved (self->store, self->connection_key,
                                                  self->table_name);
  guint position = G_MAXUINT;

  g_list_store_find (G_LIST_STORE (saved), entry, &position);
  return position;
}

static void
move_clicked_cb (GtkButton   *button,
                 EntryAction *action)
{
  g_autoptr(DynoQueryPage) self = g_weak_ref_get (&action->page);
  int delta = action->delta;
  guint position;

  if (self == NULL)
    return;
  position = saved_position (self, action->entry);

  if (position == G_MAXUINT || (delta < 0 && position == 0))
    return;
  if (dyno_query_store_move_saved (self->store, self->connection_key, self->table_name,
                                   position, position + delta))
    save_store (self);
}

/* Undo on the toast of a deleted saved query: it comes back where it was. */
static void
undo_delete_clicked_cb (AdwToast    *done,
                        EntryAction *action)
{
  g_autoptr(DynoQueryPage) self = g_weak_ref_get (&action->page);
  DynoQueryEntry *entry = action->entry;
  guint position = action->position;
  GListModel *saved;
  g_autoptr(GError) error = NULL;

  if (self == NULL)
    return;
  saved = dyno_query_store_get_saved (self->store, self->connection_key, self->table_name);

  if (dyno_query_store_save_query (self->store, self->connection_key, self->table_name,
                                   dyno_query_entry_get_name (entry),
                                   dyno_query_entry_get_draft (entry), &error) == NULL)
    {
      toast (self, error->message);  /* a query of that name was saved meanwhile */
      return;
    }
  dyno_query_store_move_saved (self->store, self->connection_key, self->table_name,
                               g_list_model_get_n_items (saved) - 1,
                               MIN (position, g_list_model_get_n_items (saved) - 1));
  save_store (self);
}

static void
delete_clicked_cb (GtkButton   *button,
                   EntryAction *action)
{
  g_autoptr(DynoQueryPage) self = g_weak_ref_get (&action->page);
  g_autoptr(DynoQueryEntry) entry = g_object_ref (action->entry);
  g_autofree char *message = NULL;
  GtkRoot *root;
  guint position;
  AdwToast *done;

  if (self == NULL)
    return;
  root = gtk_widget_get_root (GTK_WIDGET (self));
  position = saved_position (self, entry);
  if (position == G_MAXUINT)
    return;
  dyno_query_store_remove_saved (self->store, self->connection_key, self->table_name, position);
  save_store (self);
  if (!DYNO_IS_WINDOW (root))
    return;
  /* Translators: a toast; %s is a saved query's name */
  message = g_strdup_printf (_("Saved query “%s” deleted"), dyno_query_entry_get_name (entry));
  done = dyno_window_add_toast_with_button (DYNO_WINDOW (root), message, _("_Undo"));
  g_signal_connect_data (done, "button-clicked", G_CALLBACK (undo_delete_clicked_cb),
                         entry_action_new (self, entry, 0, position), entry_action_free, 0);
}

static GtkWidget *
new_row_button (DynoQueryPage  *self,
                DynoQueryEntry *entry,
                int             delta,
                const char     *icon,
                const char     *accessible,
                GCallback       callback)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, accessible);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  accessible, -1);
  g_signal_connect_data (button, "clicked", callback, entry_action_new (self, entry, delta, 0),
                         entry_action_free, 0);
  return button;
}

static GtkWidget *
create_saved_row_cb (gpointer item,
                     gpointer user_data)
{
  DynoQueryPage *self = user_data;
  DynoQueryEntry *entry = item;
  const char *name = dyno_query_entry_get_name (entry);
  g_autofree char *summary = describe_draft (self, dyno_query_entry_get_draft (entry));
  g_autofree char *up = NULL, *down = NULL, *delete = NULL;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *open = gtk_button_new ();
  GtkWidget *label = gtk_label_new (name);
  GtkWidget *button;

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_button_set_child (GTK_BUTTON (open), label);
  gtk_widget_add_css_class (open, "flat");
  gtk_widget_set_hexpand (open, TRUE);
  gtk_widget_set_tooltip_text (open, summary);
  gtk_accessible_update_property (GTK_ACCESSIBLE (open), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, summary, -1);
  g_signal_connect_data (open, "clicked", G_CALLBACK (entry_button_clicked_cb),
                         entry_action_new (self, entry, 0, 0), entry_action_free, 0);
  gtk_box_append (GTK_BOX (box), open);

  /* Translators: %s is a saved query's name */
  up = g_strdup_printf (_("Move “%s” up"), name);
  button = new_row_button (self, entry, -1, "go-up-symbolic", up, G_CALLBACK (move_clicked_cb));
  gtk_box_append (GTK_BOX (box), button);
  /* Translators: %s is a saved query's name */
  down = g_strdup_printf (_("Move “%s” down"), name);
  button = new_row_button (self, entry, 1, "go-down-symbolic", down,
                           G_CALLBACK (move_clicked_cb));
  gtk_box_append (GTK_BOX (box), button);
  /* Translators: %s is a saved query's name */
  delete = g_strdup_printf (_("Delete “%s”"), name);
  gtk_box_append (GTK_BOX (box), new_row_button (self, entry, 0, "user-trash-symbolic", delete,
                                                 G_CALLBACK (delete_clicked_cb)));
  return box;
}

static GtkWidget *
create_history_row_cb (gpointer item,
                       gpointer user_data)
{
  DynoQueryPage *self = user_data;
  DynoQueryEntry *entry = item;
  g_autofree char *summary = describe_draft (self, dyno_query_entry_get_draft (entry));
  g_autofree char *run = describe_run (entry);
  g_autofree char *accessible = g_strdup_printf ("%s, %s", summary, run);
  GtkWidget *button = gtk_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label;

  label = gtk_label_new (summary);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_box_append (GTK_BOX (box), label);
  label = gtk_label_new (run);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (box), label);
  gtk_button_set_child (GTK_BUTTON (button), box);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, summary);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  accessible, -1);
  g_signal_connect_data (button, "clicked", G_CALLBACK (entry_button_clicked_cb),
                         entry_action_new (self, entry, 0, 0), entry_action_free, 0);
  return button;
}

static gboolean
saved_filter_cb (gpointer item,
                 gpointer user_data)
{
  DynoQueryPage *self = user_data;

  return dyno_query_entry_matches (item, gtk_editable_get_text (GTK_EDITABLE (self->saved_search)));
}

static void
saved_search_changed_cb (DynoQueryPage *self)
{
  gtk_filter_changed (self->saved_filter, GTK_FILTER_CHANGE_DIFFERENT);
}

/* Centred on its button, the popover would reach past the window's edge when the window is
 * narrow (360 px, the button near the right end): it is moved inside the window, its arrow
 * still pointing at the button. */
static void
queries_popover_show_cb (DynoQueryPage *self)
{
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (self)));
  graphene_rect_t bounds;
  int width = 0, window_width, left, center;

  gtk_popover_set_offset (GTK_POPOVER (self->queries_popover), 0, 0);
  if (root == NULL ||
      !gtk_widget_compute_bounds (self->queries_button, root, &bounds))
    return;
  gtk_widget_measure (self->queries_popover, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &width,
                      NULL, NULL);
  window_width = gtk_widget_get_width (root);
  center = (int) (bounds.origin.x + bounds.size.width / 2);
  left = CLAMP (center - width / 2, 0, MAX (0, window_width - width));
  gtk_popover_set_offset (GTK_POPOVER (self->queries_popover), left + width / 2 - center, 0);
}

/* The lists of this page's connection and table. */
static void
attach_store (DynoQueryPage *self)
{
  GApplication *app = g_application_get_default ();
  GtkFilterListModel *filtered;
  const char *error;

  if (!DYNO_IS_APPLICATION (app))
    {
      /* no app (widget tests): nothing to keep queries in */
      gtk_widget_set_visible (self->queries_button, FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "query.save-query", FALSE);
      return;
    }
  self->store = g_object_ref (dyno_application_get_query_store (DYNO_APPLICATION (app)));
  self->connection_key = connection_key (self->connection);

  self->saved_filter = GTK_FILTER (gtk_custom_filter_new (saved_filter_cb, self, NULL));
  filtered = gtk_filter_list_model_new (g_object_ref (dyno_query_store_get_saved (self->store,
                                                                                  self->connection_key,
                                                                                  self->table_name)),
                                        g_object_ref (self->saved_filter));
  gtk_list_box_bind_model (GTK_LIST_BOX (self->saved_list), G_LIST_MODEL (filtered),
                           create_saved_row_cb, self, NULL);
  g_object_unref (filtered);
  gtk_list_box_bind_model (GTK_LIST_BOX (self->history_list),
                           dyno_query_store_get_history (self->store, self->connection_key,
                                                         self->table_name),
                           create_history_row_cb, self, NULL);

  error = dyno_application_get_query_store_error (DYNO_APPLICATION (app));
  gtk_label_set_label (GTK_LABEL (self->store_error_label), error);
  gtk_widget_set_visible (self->store_error_label, error != NULL);
}

/* A run that has read what it was asked for (or was stopped) goes to the history, once. */
static void
record_run (DynoQueryPage *self)
{
  if (self->store == NULL || self->run == NULL || self->run_draft == NULL ||
      self->run_recorded || dyno_run_get_loading (self->run) ||
      dyno_run_get_error (self->run) != NULL || dyno_run_get_n_pages (self->run) == 0)
    return;

  self->run_recorded = TRUE;
  dyno_query_store_add_history (self->store, self->connection_key, self->table_name,
                                self->run_draft, dyno_run_get_n_items (self->run),
                                dyno_run_get_n_pages (self->run),
                                dyno_run_get_consumed_capacity (self->run), NULL);
  save_store (self);
}

static gboolean
name_taken (DynoQueryPage *self,
            const char    *name)
{
  GListModel *saved = dyno_query_store_get_saved (self->store, self->connection_key,
                                                  self->table_name);

  for (guint i = 0; i < g_list_model_get_n_items (saved); i++)
    {
      g_autoptr(DynoQueryEntry) entry = g_list_model_get_item (saved, i);

      if (g_strcmp0 (dyno_query_entry_get_name (entry), name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* The Save Query dialog's parts, for its callbacks (the dialog and its children live as long
 * as these handlers). */
typedef struct {
  GWeakRef          page;
  AdwMessageDialog *dialog;
  GtkWidget        *entry;
  GtkWidget        *message;
} SaveDialog;

static void
save_dialog_free (gpointer  data,
                  GClosure *closure)
{
  SaveDialog *parts = data;

  g_weak_ref_clear (&parts->page);
  g_free (parts);
}

static void
save_name_changed_cb (GtkEditable *entry,
                      SaveDialog  *parts)
{
  g_autoptr(DynoQueryPage) self = g_weak_ref_get (&parts->page);
  AdwMessageDialog *dialog = parts->dialog;
  GtkWidget *message = parts->message;
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));
  g_autofree char *problem = NULL;

  if (self == NULL)
    return;
  if (name_taken (self, name))
    /* Translators: under the name field of Save Query; %s is the name typed */
    problem = g_strdup_printf (_("This table already has a saved query named “%s”"), name);
  gtk_label_set_label (GTK_LABEL (message), problem ? problem : "");
  gtk_widget_set_visible (message, problem != NULL);
  if (problem != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  adw_message_dialog_set_response_enabled (dialog, "save", *name != '\0' && problem == NULL);
}

static void
save_response_cb (AdwMessageDialog *dialog,
                  const char       *response,
                  SaveDialog       *parts)
{
  g_autoptr(DynoQueryPage) self = g_weak_ref_get (&parts->page);
  GtkWidget *entry = parts->entry;
  g_autoptr(DynoQueryDraft) draft = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  DynoQueryEntry *saved;

  if (self == NULL || g_strcmp0 (response, "save") != 0 || self->store == NULL)
    return;
  draft = dyno_builder_form_dup_draft (self->form);
  if (draft == NULL)
    return;
  saved = dyno_query_store_save_query (self->store, self->connection_key, self->table_name,
                                       gtk_editable_get_text (GTK_EDITABLE (entry)), draft,
                                       &error);
  if (saved == NULL)
    {
      toast (self, error->message);
      return;
    }
  save_store (self);
  /* Translators: a toast; %s is the name the query was saved under */
  message = g_strdup_printf (_("Query saved as “%s”"), dyno_query_entry_get_name (saved));
  toast (self, message);
}

static void
save_query_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);
  g_autoptr(DynoQueryDraft) draft = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog, *box, *entry, *message;
  SaveDialog *parts;

  if (self->store == NULL)
    return;
  draft = dyno_builder_form_dup_draft (self->form);
  if (draft == NULL)
    {
      toast (self, _("Only a Query or a Scan can be saved"));
      return;
    }

  gtk_popover_popdown (GTK_POPOVER (self->queries_popover));
  /* Translators: %s is a table name */
  body = g_strdup_printf (_("The query in the form is kept under this name with the saved "
                            "queries of %s."), self->table_name);
  dialog = adw_message_dialog_new (GTK_WINDOW (gtk_widget_get_root (widget)), _("Save Query"),
                                   body);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  entry = gtk_entry_new ();
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Query name"), -1);
  gtk_box_append (GTK_BOX (box), entry);
  message = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_widget_add_css_class (message, "error");
  gtk_widget_add_css_class (message, "caption");
  gtk_widget_set_visible (message, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (message), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Query name problem"), -1);
  gtk_box_append (GTK_BOX (box), message);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "save", _("_Save"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "save", FALSE);
  parts = g_new0 (SaveDialog, 1);
  g_weak_ref_init (&parts->page, self);
  parts->dialog = ADW_MESSAGE_DIALOG (dialog);
  parts->entry = entry;
  parts->message = message;
  /* the entry's handler ends with the entry, inside the dialog; the dialog's frees the parts */
  g_signal_connect (entry, "changed", G_CALLBACK (save_name_changed_cb), parts);
  g_signal_connect_data (dialog, "response", G_CALLBACK (save_response_cb), parts,
                         save_dialog_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}

/* ---- items: new, edit, duplicate, delete, import, export ------------------------------- */

static void
refresh_after_write (DynoQueryPage *self)
{
  /* What the table now holds is read again with the same request, so the view never shows
   * an item as it was before the write. */
  if (self->run != NULL || dyno_collection_view_get_items (self->collection) != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "query.run", NULL);
}

/* The run on screen, when writes can change it in place. */
static DynoRun *
shown_run (DynoQueryPage *self)
{
  if (self->run != NULL &&
      dyno_collection_view_get_items (self->collection) == G_LIST_MODEL (self->run))
    return self->run;
  return NULL;
}

static void
clear_undo (DynoQueryPage *self)
{
  self->undo_kind = UNDO_NONE;
  g_clear_pointer (&self->undo_before, g_ptr_array_unref);
  g_clear_pointer (&self->undo_positions, g_array_unref);
  g_clear_pointer (&self->undo_after, dyno_item_unref);
}

/* An Undo toast: the page (weakly: the toast may outlive it) and the kind of write it undoes. */
typedef struct {
  GWeakRef page;
  int      undo_kind;
} UndoToast;

static void
undo_toast_free (gpointer  data,
                 GClosure *closure)
{
  UndoToast *undo_toast = data;

  g_weak_ref_clear (&undo_toast->page);
  g_free (undo_toast);
}

static void undo_clicked_cb (AdwToast *toast, UndoToast *undo_toast);

static void
toast_with_undo (DynoQueryPage *self,
                 const char    *message)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  AdwToast *toast;
  UndoToast *undo_toast;

  if (!DYNO_IS_WINDOW (root))
    return;
  toast = dyno_window_add_toast_with_button (DYNO_WINDOW (root), message, _("_Undo"));
  undo_toast = g_new0 (UndoToast, 1);
  g_weak_ref_init (&undo_toast->page, self);
  undo_toast->undo_kind = self->undo_kind;
  g_signal_connect_data (toast, "button-clicked", G_CALLBACK (undo_clicked_cb), undo_toast,
                         undo_toast_free, 0);
}

/* The key attributes of @item, to find its row. */
static DynoItem *
key_of (DynoQueryPage *self,
        DynoItem      *item)
{
  return dyno_safe_write_extract_key (self->info, item, NULL);
}

static void
item_saved_cb (DynoQueryPage  *self,
               DynoItem       *item,
               DynoItemEditor *editor)
{
  DynoItemEditorMode mode = dyno_item_editor_get_mode (editor);
  DynoItem *before = mode == DYNO_ITEM_EDITOR_EDIT ? dyno_item_editor_get_loaded (editor) : NULL;
  DynoRun *run = shown_run (self);

  if (run == NULL)
    {
      toast (self, _("Item saved"));
      refresh_after_write (self);
      return;
    }

  /* The row changes in place: the pages loaded, the scroll position and the selection stay.
   * An edited item stays where it was even when it no longer matches the request, until the
   * request runs again. */
  {
    g_autoptr(DynoItem) old_key = before ? key_of (self, before) : NULL;
    g_autoptr(DynoItem) new_key = key_of (self, item);

    if (!(old_key != NULL && dyno_run_replace_item (run, old_key, item)) &&
        !(new_key != NULL && dyno_run_replace_item (run, new_key, item)))
      {
        g_autoptr(GPtrArray) selected = dyno_collection_view_dup_selected_items (self->collection);
        g_autoptr(DynoItem) near = NULL;
        int position = -1;

        /* a new item (or a duplicate) goes after the one selected, else at the end */
        if (selected->len > 0 && (near = key_of (self, g_ptr_array_index (selected, 0))) != NULL)
          position = dyno_run_find_item (run, near);
        dyno_run_insert_item (run, position >= 0 ? (guint) position + 1
                                                 : dyno_run_get_n_items (run), item);
      }
  }
  dyno_run_record_write (run, dyno_item_editor_get_write_operation (editor), 1,
                         dyno_item_editor_get_write_capacity (editor),
                         dyno_item_editor_get_write_usec (editor));

  clear_undo (self);
  self->undo_after = dyno_item_ref (item);
  if (before != NULL)
    {
      self->undo_kind = UNDO_EDIT;
      self->undo_before = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
      g_ptr_array_add (self->undo_before, dyno_item_ref (before));
    }
  else
    self->undo_kind = UNDO_NEW;
  toast_with_undo (self, _("Item saved"));
}

/* ---- undo ---- */

typedef struct {
  DynoQueryPage *self;
  UndoKind       kind;
  GPtrArray     *before;
  GArray        *positions;
  DynoItem      *after;
  guint          next;       /* DELETE: the next item to put back */
  guint          n_done;
  double         capacity;
  gint64         started;
} UndoRun;

static void
undo_run_free (UndoRun *undo)
{
  g_clear_object (&undo->self);
  g_clear_pointer (&undo->before, g_ptr_array_unref);
  g_clear_pointer (&undo->positions, g_array_unref);
  g_clear_pointer (&undo->after, dyno_item_unref);
  g_free (undo);
}

static void undo_step (UndoRun *undo);

static double
response_capacity (JsonNode *response)
{
  JsonObject *object = JSON_NODE_HOLDS_OBJECT (response) ? json_node_get_object (response) : NULL;
  JsonNode *consumed = object ? json_object_get_member (object, "ConsumedCapacity") : NULL;

  if (consumed != NULL && JSON_NODE_HOLDS_OBJECT (consumed) &&
      json_object_has_member (json_node_get_object (consumed), "CapacityUnits"))
    return json_object_get_double_member (json_node_get_object (consumed), "CapacityUnits");
  return -1;
}

static void
undo_finish (UndoRun      *undo,
             const GError *error)
{
  DynoQueryPage *self = undo->self;
  DynoRun *run = shown_run (self);
  const char *operation = undo->kind == UNDO_EDIT ? "UpdateItem"
                          : undo->kind == UNDO_NEW ? "DeleteItem" : "PutItem";

  if (run != NULL && undo->n_done > 0)
    dyno_run_record_write (run, operation, undo->n_done, undo->capacity,
                           g_get_monotonic_time () - undo->started);
  if (error != NULL)
    {
      g_autofree char *message = NULL;

      /* Translators: a toast; the reason follows */
      message = g_strdup_printf (_("Could not undo: %s"), error->message);
      toast (self, message);
    }
  else
    toast (self, _("Undone"));
  undo_run_free (undo);
}

static void
undo_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  UndoRun *undo = user_data;
  DynoQueryPage *self = undo->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;
  DynoRun *run;

  response = dyno_backend_execute_finish (DYNO_BACKEND (source), result, &error);
  if (response == NULL)
    {
      undo_finish (undo, error);
      return;
    }
  undo->n_done++;
  if (response_capacity (response) >= 0)
    undo->capacity = MAX (undo->capacity, 0) + response_capacity (response);

  run = shown_run (self);
  if (run != NULL)
    {
      if (undo->kind == UNDO_EDIT)
        {
          g_autoptr(DynoItem) key = key_of (self, undo->after);

          dyno_run_replace_item (run, key, g_ptr_array_index (undo->before, 0));
        }
      else if (undo->kind == UNDO_NEW)
        {
          g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);

          g_ptr_array_add (keys, key_of (self, undo->after));
          dyno_run_remove_items (run, keys);
        }
      else
        {
          guint position = g_array_index (undo->positions, guint, undo->next);

          dyno_run_insert_item (run, MIN (position, dyno_run_get_n_items (run)),
                                g_ptr_array_index (undo->before, undo->next));
        }
    }
  undo->next++;
  if (undo->kind == UNDO_DELETE && undo->next < undo->before->len)
    undo_step (undo);
  else
    undo_finish (undo, NULL);
}

static void
undo_step (UndoRun *undo)
{
  DynoQueryPage *self = undo->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) request = NULL;

  switch (undo->kind)
    {
    case UNDO_EDIT:
      request = dyno_safe_write_edit (self->info, undo->after,
                                      g_ptr_array_index (undo->before, 0), NULL, NULL, &error);
      break;
    case UNDO_NEW:
      request = dyno_safe_write_delete (self->info, undo->after, NULL, NULL, &error);
      break;
    case UNDO_DELETE:
      request = dyno_safe_write_put_new (self->info, g_ptr_array_index (undo->before, undo->next),
                                         NULL, &error);
      break;
    case UNDO_NONE:
    default:
      g_assert_not_reached ();
    }
  if (request == NULL)
    {
      undo_finish (undo, error);
      return;
    }
  request->return_consumed_capacity = DYNO_CONSUMED_TOTAL;
  dyno_backend_execute_async (self->backend, request, self->cancellable, undo_done_cb, undo);
}

static void
undo_clicked_cb (AdwToast  *toast,
                 UndoToast *undo_toast)
{
  g_autoptr(DynoQueryPage) self = g_weak_ref_get (&undo_toast->page);
  UndoRun *undo;

  /* only the last write's toast can undo it */
  if (self == NULL || self->undo_kind == UNDO_NONE || self->backend == NULL ||
      self->info == NULL || undo_toast->undo_kind != (int) self->undo_kind)
    return;

  undo = g_new0 (UndoRun, 1);
  undo->self = g_object_ref (self);
  undo->kind = self->undo_kind;
  undo->before = g_steal_pointer (&self->undo_before);
  undo->positions = g_steal_pointer (&self->undo_positions);
  undo->after = g_steal_pointer (&self->undo_after);
  undo->capacity = -1;
  undo->started = g_get_monotonic_time ();
  clear_undo (self);
  undo_step (undo);
}

/* A new item's keys: the partition key of @near, an empty sort key of the schema's type. */
static DynoItem *
new_item_in_collection (DynoTableInfo *info,
                        DynoItem      *near)
{
  const DynoKeyAttr *pk = dyno_table_info_get_partition_key (info);
  const DynoKeyAttr *sk = dyno_table_info_get_sort_key (info);
  const DynoValue *pk_value = dyno_item_lookup (near, pk->name);
  g_autoptr(DynoValueBuilder) builder = NULL;

  if (pk_value == NULL)
    return NULL;

  builder = dyno_value_builder_new ();
  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  dyno_value_builder_key (builder, pk->name, -1);
  dyno_value_builder_add_value (builder, pk_value);
  if (sk != NULL && sk->name != NULL)
    {
      dyno_value_builder_key (builder, sk->name, -1);
      if (sk->type == DYNO_VALUE_N)
        dyno_value_builder_add_number (builder, "0", -1, NULL);
      else if (sk->type == DYNO_VALUE_B)
        dyno_value_builder_add_binary (builder, (const guint8 *) "", 0);
      else
        dyno_value_builder_add_string (builder, "", 0);
    }
  dyno_value_builder_end (builder, NULL);
  return dyno_item_new_take (dyno_value_builder_finish (builder));
}

/* ---- staging writes for one transaction ---------------------------------------------- */

static void
show_transaction_activated (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);

  if (self->backend == NULL)
    return;
  dyno_transaction_dialog_present (GTK_WINDOW (gtk_widget_get_root (widget)),
                                   dyno_tx_stage_for_backend (self->backend));
}

static void
update_transaction_button (DynoQueryPage *self)
{
  guint n = dyno_tx_stage_get_n_writes (dyno_tx_stage_for_backend (self->backend));
  g_autofree char *count = g_strdup_printf ("%u", n);
  g_autofree char *tooltip = NULL;

  /* the count next to the icon; the button keeps its name, the tooltip says it in words */
  gtk_label_set_text (GTK_LABEL (self->transaction_count), count);
  gtk_widget_set_visible (self->transaction_count, n > 0);
  tooltip = n > 0
            ? g_strdup_printf (ngettext ("Transaction: %u Write Staged",
                                         "Transaction: %u Writes Staged", n), n)
            : g_strdup (_("Transaction: Stage Writes to Commit Together"));
  gtk_widget_set_tooltip_text (self->transaction_button, tooltip);
}

static void
transaction_committed_cb (DynoQueryPage *self,
                          GStrv          tables)
{
  if (g_strv_contains ((const char * const *) tables, self->table_name))
    refresh_after_write (self);
}

static void
review_clicked_cb (AdwToast      *toast,
                   DynoQueryPage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "query.show-transaction", NULL);
}

static void
toast_staged (DynoQueryPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  guint n = dyno_tx_stage_get_n_writes (dyno_tx_stage_for_backend (self->backend));
  g_autofree char *message = NULL;
  AdwToast *done;

  if (!DYNO_IS_WINDOW (root))
    return;
  message = g_strdup_printf (ngettext ("Added to the transaction (%u write staged)",
                                       "Added to the transaction (%u writes staged)", n), n);
  done = dyno_window_add_toast_with_button (DYNO_WINDOW (root), message, _("Review"));
  g_signal_connect_object (done, "button-clicked", G_CALLBACK (review_clicked_cb), self, 0);
}

static void
stage_delete_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);
  g_autoptr(GPtrArray) selected = dyno_collection_view_dup_selected_items (self->collection);
  DynoTxStage *stage;
  guint staged = 0;

  if (self->backend == NULL || self->info == NULL || selected->len == 0)
    return;
  stage = dyno_tx_stage_for_backend (self->backend);
  for (guint i = 0; i < selected->len; i++)
    {
      DynoItem *item = g_ptr_array_index (selected, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoRequest) request = NULL;
      g_autoptr(DynoItem) key = NULL;

      /* conditioned as a delete from the list is: on the item as it was seen */
      request = dyno_safe_write_delete (self->info, item, NULL, NULL, &error);
      if (request != NULL)
        key = dyno_safe_write_extract_key (self->info, item, &error);
      if (key == NULL ||
          !dyno_tx_stage_add (stage, DYNO_TRANSACT_DELETE, request, key, &error))
        {
          toast (self, error->message);
          break;
        }
      staged++;
    }
  if (staged > 0)
    toast_staged (self);
}

typedef struct {
  DynoQueryPage *page;
  DynoItem      *key;
  GtkWidget     *entry;
  GtkWidget     *error_label;
  GtkWidget     *dialog;       /* unowned: it owns this struct (its "response" handler) */
} CheckDialog;

static void
check_dialog_free (CheckDialog *check)
{
  g_object_unref (check->page);
  dyno_item_unref (check->key);
  g_free (check);
}

static DynoExpr *
parse_check (CheckDialog  *check,
             GError      **error)
{
  return dyno_expr_parse_condition (gtk_editable_get_text (GTK_EDITABLE (check->entry)),
                                    DYNO_SYNTAX_INLINE, DYNO_EXPR_ROLE_CONDITION,
                                    NULL, NULL, NULL, NULL, error);
}

static void
check_changed_cb (GtkEditable *entry,
                  CheckDialog *check)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (check->dialog);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoExpr) expr = parse_check (check, &error);
  gboolean empty = *gtk_editable_get_text (entry) == '\0';

  adw_message_dialog_set_response_enabled (dialog, "add", expr != NULL);
  dyno_field_error_show (check->error_label, expr == NULL && !empty ? error->message : NULL);
}

static void
check_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   gpointer          user_data)
{
  CheckDialog *check = user_data;
  DynoQueryPage *self = check->page;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoExpr) expr = NULL;
  g_autoptr(DynoRequest) request = NULL;

  if (g_strcmp0 (response, "add") != 0 || self->info == NULL || self->backend == NULL)
    return;
  expr = parse_check (check, &error);
  if (expr == NULL)
    {
      toast (self, error->message);
      return;
    }
  /* a ConditionCheck is read and written as a DeleteItem with its condition */
  request = dyno_request_new (DYNO_OP_DELETE_ITEM, self->table_name);
  request->key = dyno_item_ref (check->key);
  request->condition = g_steal_pointer (&expr);
  if (!dyno_tx_stage_add (dyno_tx_stage_for_backend (self->backend),
                          DYNO_TRANSACT_CONDITION_CHECK, request, check->key, &error))
    toast (self, error->message);
  else
    toast_staged (self);
}

static void
stage_check_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);
  g_autoptr(GPtrArray) selected = dyno_collection_view_dup_selected_items (self->collection);
  g_autoptr(GError) error = NULL;
  g_autofree char *key_text = NULL;
  CheckDialog *check;
  GtkWidget *dialog, *box;
  DynoItem *key;

  if (self->backend == NULL || self->info == NULL || selected->len != 1)
    return;
  key = dyno_safe_write_extract_key (self->info, g_ptr_array_index (selected, 0), &error);
  if (key == NULL)
    {
      toast (self, error->message);
      return;
    }
  key_text = dyno_item_to_plain_json (key);

  dialog = adw_message_dialog_new (GTK_WINDOW (gtk_widget_get_root (widget)),
                                   _("Add Condition Check"), NULL);
  /* Translators: %s is an item's key as JSON */
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  _("The transaction is only committed if this condition holds "
                                    "for the item with the key %s. Write values as literals: "
                                    "status = \"active\", attribute_exists(pk)."), key_text);
  check = g_new0 (CheckDialog, 1);
  check->page = g_object_ref (self);
  check->key = key;
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  check->entry = gtk_entry_new ();
  dyno_widget_set_accessible_label (check->entry, _("Condition expression"));
  gtk_entry_set_activates_default (GTK_ENTRY (check->entry), TRUE);
  gtk_box_append (GTK_BOX (box), check->entry);
  check->error_label = dyno_field_error_label_new ();
  dyno_field_error_add_field (check->error_label, check->entry);
  gtk_box_append (GTK_BOX (box), check->error_label);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "add", _("_Add to Transaction"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "add",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "add");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "add", FALSE);
  check->dialog = dialog;
  g_signal_connect (check->entry, "changed", G_CALLBACK (check_changed_cb), check);
  /* the struct lives as long as the dialog's handler */
  g_signal_connect_data (dialog, "response", G_CALLBACK (check_response_cb), check,
                         (GClosureNotify) (void (*) (void)) check_dialog_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
open_editor (DynoQueryPage      *self,
             DynoItemEditorMode  mode)
{
  g_autoptr(GPtrArray) selected = dyno_collection_view_dup_selected_items (self->collection);
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  GListModel *items = dyno_collection_view_get_items (self->collection);
  g_autoptr(DynoItem) template = NULL;
  DynoItem *loaded = NULL;
  GtkWidget *editor;

  if (self->backend == NULL || self->info == NULL)
    return;

  if (mode != DYNO_ITEM_EDITOR_NEW)
    {
      if (selected->len != 1)
        return;
      loaded = g_ptr_array_index (selected, 0);
    }
  else
    {
      /* a new item most often joins the collection being looked at: start it there */
      DynoItem *near = selected->len > 0 ? g_ptr_array_index (selected, 0) : NULL;
      g_autoptr(DynoItemObject) first = NULL;

      if (near == NULL && self->run != NULL && dyno_run_get_request (self->run) != NULL &&
          dyno_run_get_request (self->run)->operation == DYNO_OP_QUERY &&
          self->index_name == NULL && g_list_model_get_n_items (items) > 0)
        {
          first = g_list_model_get_item (items, 0);
          near = dyno_item_object_get_item (first);
        }
      if (near != NULL)
        template = new_item_in_collection (self->info, near);
      loaded = template;
    }

  /* the items on screen tell the editor where a new key will land */
  if (items != NULL)
    {
      guint n = MIN (g_list_model_get_n_items (items), 5000);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(DynoItemObject) object = g_list_model_get_item (items, i);

          g_ptr_array_add (shown, dyno_item_ref (dyno_item_object_get_item (object)));
        }
    }

  editor = dyno_item_editor_new (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                 self->backend, self->info, loaded, mode, shown,
                                 endpoint_url (self), region (self));
  g_signal_connect_object (editor, "saved", G_CALLBACK (item_saved_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (editor, "staged", G_CALLBACK (toast_staged), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (editor));
}

static void
new_item_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  open_editor (DYNO_QUERY_PAGE (widget), DYNO_ITEM_EDITOR_NEW);
}

static void
edit_item_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  open_editor (DYNO_QUERY_PAGE (widget), DYNO_ITEM_EDITOR_EDIT);
}

static void
duplicate_item_activated (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  open_editor (DYNO_QUERY_PAGE (widget), DYNO_ITEM_EDITOR_DUPLICATE);
}

static void
item_activated_cb (DynoQueryPage *self,
                   DynoItem      *item)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "query.edit-item", NULL);
}

static void
items_deleted_cb (GPtrArray    *deleted_keys,
                  guint         n_requested,
                  gboolean      cancelled,
                  const GError *error,
                  gpointer      user_data)
{
  DynoQueryPage *self = user_data;
  g_autoptr(GPtrArray) asked = g_steal_pointer (&self->deleting);
  DynoRun *run = shown_run (self);
  g_autofree char *message = NULL;
  guint n = deleted_keys != NULL ? deleted_keys->len : 0;

  if (n == 0)
    return;
  if (run == NULL || asked == NULL)
    {
      refresh_after_write (self);
      return;
    }

  /* the deleted rows leave; every other row, page and the scroll position stay */
  clear_undo (self);
  self->undo_kind = UNDO_DELETE;
  self->undo_before = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  self->undo_positions = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < asked->len; i++)
    {
      DynoItem *item = g_ptr_array_index (asked, i);
      g_autoptr(DynoItem) key = key_of (self, item);
      int position;

      if (key == NULL)
        continue;
      for (guint k = 0; k < n; k++)
        if (dyno_item_equal (key, g_ptr_array_index (deleted_keys, k)))
          {
            g_autoptr(GPtrArray) one = g_ptr_array_new ();

            position = dyno_run_find_item (run, key);
            g_ptr_array_add (one, key);
            if (position >= 0 && dyno_run_remove_items (run, one) == 1)
              {
                guint where = (guint) position;

                g_ptr_array_add (self->undo_before, dyno_item_ref (item));
                g_array_append_val (self->undo_positions, where);
              }
            break;
          }
    }
  dyno_run_record_write (run, n == 1 ? "DeleteItem" : "BatchWriteItem", n, -1, 0);
  /* put back in reverse: each at the place it had once the later ones are back */
  {
    guint len = self->undo_before->len;

    for (guint i = 0; i < len / 2; i++)
      {
        gpointer item = self->undo_before->pdata[i];
        guint where = g_array_index (self->undo_positions, guint, i);

        self->undo_before->pdata[i] = self->undo_before->pdata[len - 1 - i];
        self->undo_before->pdata[len - 1 - i] = item;
        g_array_index (self->undo_positions, guint, i) =
          g_array_index (self->undo_positions, guint, len - 1 - i);
        g_array_index (self->undo_positions, guint, len - 1 - i) = where;
      }
  }
  if (error != NULL)
    return;  /* the dialog says what was and was not deleted */
  /* Translators: a toast */
  message = g_strdup_printf (ngettext ("%u item deleted", "%u items deleted", n), n);
  toast_with_undo (self, message);
}

static void
delete_items_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);
  g_autoptr(GPtrArray) selected = dyno_collection_view_dup_selected_items (self->collection);

  if (self->backend == NULL || self->info == NULL || selected->len == 0)
    return;

  g_clear_pointer (&self->deleting, g_ptr_array_unref);
  self->deleting = g_ptr_array_ref (selected);
  dyno_delete_items_run (GTK_WINDOW (gtk_widget_get_root (widget)), self->backend, self->info,
                         selected, items_deleted_cb, g_object_ref (self), g_object_unref);
}

/* What an import dialog's handlers share: the page (weakly), the items written so far and
 * the loaded rows they replaced, the loaded rows by key, and the toast told when the dialog
 * closes.  Each handler holds a reference. */
typedef struct {
  GWeakRef    page;
  guint       n_written;
  guint       n_replaced;
  GHashTable *key_index;   /* key string -> 1 + position in the shown run */
  char       *toast;
} ImportTally;

static void
import_tally_clear (gpointer data)
{
  ImportTally *tally = data;

  g_weak_ref_clear (&tally->page);
  g_clear_pointer (&tally->key_index, g_hash_table_unref);
  g_free (tally->toast);
}

static void
import_tally_release (gpointer  data,
                      GClosure *closure)
{
  g_rc_box_release_full (data, import_tally_clear);
}

static void
import_finished_cb (ImportTally *tally,
                    gboolean     ok,
                    GtkWidget   *dialog)
{
  g_autoptr(DynoQueryPage) self = g_weak_ref_get (&tally->page);
  guint n = tally->n_written;
  guint n_shown = tally->n_replaced;
  DynoRun *run;
  g_autofree char *message = NULL;

  if (self == NULL || n == 0)
    return;
  run = shown_run (self);
  if (run == NULL)
    {
      /* Translators: a toast after an import */
      message = g_strdup_printf (ngettext ("%u item imported", "%u items imported", n), n);
      g_free (tally->toast);
      tally->toast = g_steal_pointer (&message);
      /* written rows stay written after a Cancel too: a result on screen is read again */
      refresh_after_write (self);
      return;
    }
  /* The loaded pages stay: the rows of items the import rewrote show what it wrote; items
   * it added are not guessed into the results (whether they match is the server's to say). */
  dyno_run_record_write (run, "BatchWriteItem", n, -1, 0);
  /* Translators: a toast after an import; the number of items written, then of rows on screen
   * it changed */
  message = g_strdup_printf (ngettext ("%u item imported, %u loaded row updated; run the "
                                       "query again to see new items",
                                       "%u items imported, %u loaded rows updated; run the "
                                       "query again to see new items", n), n, n_shown);
  /* told when the dialog (which has the import's own report) is closed */
  g_free (tally->toast);
  tally->toast = g_steal_pointer (&message);
}

static void
import_closed_cb (ImportTally *tally,
                  GtkWidget   *dialog)
{
  g_autoptr(DynoQueryPage) self = g_weak_ref_get (&tally->page);

  if (self != NULL && tally->toast != NULL)
    toast (self, tally->toast);
}

static void
import_written_cb (ImportTally *tally,
                   GPtrArray   *items,
                   GtkWidget   *dialog)
{
  g_autoptr(DynoQueryPage) self = g_weak_ref_get (&tally->page);
  DynoRun *run;
  guint n = tally->n_written;
  guint n_shown = tally->n_replaced;
  GHashTable *index = tally->key_index;

  if (self == NULL)
    return;
  run = shown_run (self);

  /* the loaded rows by key, once per import (the dialog is modal: they do not move) */
  if (run != NULL && index == NULL)
    {
      index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint i = 0; i < dyno_run_get_n_items (run); i++)
        {
          char *key = dyno_import_key_string (self->info, dyno_run_get_item (run, i));

          if (key != NULL)
            g_hash_table_insert (index, key, GUINT_TO_POINTER (i + 1));
        }
      tally->key_index = index;
    }
  for (guint i = 0; i < items->len && run != NULL; i++)
    {
      DynoItem *item = g_ptr_array_index (items, i);
      g_autofree char *key = dyno_import_key_string (self->info, item);
      guint position = key ? GPOINTER_TO_UINT (g_hash_table_lookup (index, key)) : 0;

      if (position > 0 && position <= dyno_run_get_n_items (run))
        {
          /* still that row (a run started meanwhile loads other rows) */
          g_autofree char *there = dyno_import_key_string (self->info,
                                                           dyno_run_get_item (run, position - 1));

          if (g_strcmp0 (there, key) != 0)
            continue;
          dyno_run_set_item (run, position - 1, item);
          n_shown++;
        }
    }
  tally->n_written = n + items->len;
  tally->n_replaced = n_shown;
}

static void
import_items_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);
  GtkWidget *dialog;
  ImportTally *tally;

  if (self->backend == NULL || self->info == NULL)
    return;

  dialog = dyno_import_dialog_new (GTK_WINDOW (gtk_widget_get_root (widget)), self->backend,
                                   self->info);
  tally = g_rc_box_new0 (ImportTally);
  g_weak_ref_init (&tally->page, self);
  g_signal_connect_data (dialog, "finished", G_CALLBACK (import_finished_cb),
                         g_rc_box_acquire (tally), import_tally_release, G_CONNECT_SWAPPED);
  g_signal_connect_data (dialog, "items-written", G_CALLBACK (import_written_cb),
                         g_rc_box_acquire (tally), import_tally_release, G_CONNECT_SWAPPED);
  g_signal_connect_data (dialog, "destroy", G_CALLBACK (import_closed_cb),
                         tally, import_tally_release, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
export_items_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (widget);
  g_autoptr(DynoRequest) form_request = NULL;
  const DynoRequest *request = NULL;
  GtkWidget *dialog;

  if (self->backend == NULL)
    return;

  /* "All pages" repeats the request that was run; before any run, the one in the form.
   * GetItem has no pages: only what is shown can be exported. */
  if (self->run != NULL)
    {
      request = dyno_run_get_request (self->run);
    }
  else if (dyno_builder_form_get_valid (self->form))
    {
      form_request = dyno_builder_form_dup_request (self->form);
      if (form_request != NULL && form_request->operation != DYNO_OP_GET_ITEM)
        request = form_request;
    }

  dialog = dyno_export_dialog_new (GTK_WINDOW (gtk_widget_get_root (widget)), self->backend,
                                   self->info, dyno_collection_view_get_items (self->collection),
                                   request);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
entity_activated_cb (DynoQueryPage *self,
                     const char    *prefix)
{
  /* An entity chip is a begins_with on the sort key, run at once. */
  dyno_builder_form_set_sort_key_prefix (self->form, prefix);
  gtk_widget_activate_action (GTK_WIDGET (self), "query.run", NULL);
}

static void
attributes_changed_cb (DynoQueryPage *self)
{
  g_auto(GStrv) names = dyno_collection_view_dup_attribute_names (self->collection);

  dyno_builder_form_set_known_attributes (self->form, (const char * const *) names);
}

static void
describe_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(DynoQueryPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoTableInfo) info = NULL;

  info = dyno_backend_describe_table_finish (DYNO_BACKEND (object), result, &error);
  if (info == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error);
      return;
    }

  self->info = dyno_table_info_ref (info);
  update_subtitle (self);
  dyno_builder_form_set_table (self->form, self->table_name, self->info, self->index_name);
}

static void
folded_changed_cb (DynoQueryPage *self)
{
  gboolean folded = adw_leaflet_get_folded (ADW_LEAFLET (self->leaflet));

  gtk_widget_set_visible (self->show_results_button, folded);
  gtk_widget_set_visible (self->show_query_button, folded);
}

static void
show_results_clicked_cb (DynoQueryPage *self)
{
  adw_leaflet_set_visible_child (ADW_LEAFLET (self->leaflet), self->results_page);
}

static void
show_query_clicked_cb (DynoQueryPage *self)
{
  adw_leaflet_set_visible_child (ADW_LEAFLET (self->leaflet), self->form_page);
  dyno_query_page_focus_form (self);
}

static void
build_ui (DynoQueryPage *self)
{
  GtkWidget *detail = dyno_collection_view_get_detail_widget (self->collection);

  /* the Item view under the results is the collection view's */
  adw_view_stack_page_set_icon_name (adw_view_stack_add_titled (ADW_VIEW_STACK (self->views),
                                                                detail, "item", _("Item")),
                                     "x-office-document-symbolic");
  dyno_widget_expose_activate (self->queries_button);
  folded_changed_cb (self);
  update_status (self);
}

static void
dyno_query_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, dyno_query_page_get_loading (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyno_query_page_dispose (GObject *object)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  clear_run (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYNO_TYPE_QUERY_PAGE);

  G_OBJECT_CLASS (dyno_query_page_parent_class)->dispose (object);
}

static void
dyno_query_page_finalize (GObject *object)
{
  DynoQueryPage *self = DYNO_QUERY_PAGE (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->backend);
  g_clear_object (&self->connection);
  g_clear_pointer (&self->info, dyno_table_info_unref);
  g_free (self->table_name);
  g_free (self->index_name);
  g_free (self->subtitle);
  clear_undo (self);
  g_clear_pointer (&self->deleting, g_ptr_array_unref);
  g_clear_object (&self->store);
  g_free (self->connection_key);
  g_clear_object (&self->saved_filter);
  g_clear_object (&self->run_draft);

  G_OBJECT_CLASS (dyno_query_page_parent_class)->finalize (object);
}

static void
dyno_query_page_class_init (DynoQueryPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = dyno_query_page_get_property;
  object_class->dispose = dyno_query_page_dispose;
  object_class->finalize = dyno_query_page_finalize;

  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  g_type_ensure (DYNO_TYPE_BUILDER_FORM);
  g_type_ensure (DYNO_TYPE_CODE_VIEW);
  g_type_ensure (DYNO_TYPE_COLLECTION_VIEW);
  g_type_ensure (DYNO_TYPE_PAGE_LEDGER);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-query-page.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, leaflet);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, transaction_button);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, transaction_count);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, form_page);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, results_page);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, show_results_button);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, show_query_button);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, form);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, run_button);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, stop_button);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, reason_label);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, results_stack);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, sign_in_button);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, collection);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, status_bar);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, cost_button);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, estimate_label);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, rate_spin);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, price_spin);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, cost_label);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, load_more_button);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, load_all_button);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, code_view);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, ledger);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, views);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, queries_button);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, queries_popover);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, store_error_label);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, saved_search);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, saved_list);
  gtk_widget_class_bind_template_child (widget_class, DynoQueryPage, history_list);
  gtk_widget_class_bind_template_callback (widget_class, folded_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, cost_inputs_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, form_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, queries_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, saved_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_results_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_query_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, update_item_actions);
  gtk_widget_class_bind_template_callback (widget_class, item_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, entity_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, attributes_changed_cb);

  gtk_widget_class_install_action (widget_class, "query.run", NULL, run_activated);
  gtk_widget_class_install_action (widget_class, "query.stop", NULL, stop_activated);
  gtk_widget_class_install_action (widget_class, "query.load-more", NULL, load_more_activated);
  gtk_widget_class_install_action (widget_class, "query.load-all", NULL, load_all_activated);
  gtk_widget_class_install_action (widget_class, "query.copy-code", NULL, copy_code_activated);
  gtk_widget_class_install_action (widget_class, "query.paste-request", NULL,
                                   paste_request_activated);
  gtk_widget_class_install_action (widget_class, "query.save-query", NULL,
                                   save_query_activated);

  gtk_widget_class_install_action (widget_class, "query.new-item", NULL, new_item_activated);
  gtk_widget_class_install_action (widget_class, "query.edit-item", NULL, edit_item_activated);
  gtk_widget_class_install_action (widget_class, "query.duplicate-item", NULL,
                                   duplicate_item_activated);
  gtk_widget_class_install_action (widget_class, "query.stage-delete", NULL,
                                   stage_delete_activated);
  gtk_widget_class_install_action (widget_class, "query.stage-check", NULL,
                                   stage_check_activated);
  gtk_widget_class_install_action (widget_class, "query.show-transaction", NULL,
                                   show_transaction_activated);
  gtk_widget_class_install_action (widget_class, "query.delete-items", NULL,
                                   delete_items_activated);
  gtk_widget_class_install_action (widget_class, "query.import-items", NULL,
                                   import_items_activated);
  gtk_widget_class_install_action (widget_class, "query.export-items", NULL,
                                   export_items_activated);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK,
                                       "query.new-item", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "query.delete-items",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "query.run",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK,
                                       "query.run", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "query.copy-code", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "query.stop", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "query.paste-request", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK,
                                       "query.save-query", NULL);
}

static void
dyno_query_page_init (DynoQueryPage *self)
{
  self->cancellable = g_cancellable_new ();
  self->run_estimate = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  build_ui (self);
  dyno_widget_expose_activate (self->cost_button);
  dyno_widget_expose_activate (self->transaction_button);
}

DynoQueryPage *
dyno_query_page_new (DynoBackend    *backend,
                     DynoConnection *connection,
                     const char     *table_name,
                     DynoTableInfo  *info,
                     const char     *index_name)
{
  DynoQueryPage *self;

  g_return_val_if_fail (table_name != NULL, NULL);

  self = g_object_new (DYNO_TYPE_QUERY_PAGE, NULL);
  self->backend = backend ? g_object_ref (backend) : NULL;
  self->connection = connection ? g_object_ref (connection) : NULL;
  self->table_name = g_strdup (table_name);
  self->index_name = g_strdup (index_name);
  self->info = info ? dyno_table_info_ref (info) : NULL;
  update_subtitle (self);
  attach_store (self);
  if (backend != NULL)
    {
      DynoTxStage *stage = dyno_tx_stage_for_backend (backend);

      g_signal_connect_object (stage, "changed", G_CALLBACK (update_transaction_button), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (stage, "committed", G_CALLBACK (transaction_committed_cb), self,
                               G_CONNECT_SWAPPED);
      update_transaction_button (self);
    }

  dyno_builder_form_set_table (self->form, table_name, info, index_name);
  if (info == NULL && backend != NULL)
    dyno_backend_describe_table_async (backend, table_name, self->cancellable, describe_cb,
                                       g_object_ref (self));

  return self;
}

DynoQueryPage *
dyno_query_page_duplicate (DynoQueryPage *self)
{
  DynoQueryPage *copy;
  g_autoptr(DynoRequest) request = NULL;

  g_return_val_if_fail (DYNO_IS_QUERY_PAGE (self), NULL);

  copy = dyno_query_page_new (self->backend, self->connection, self->table_name, self->info,
                              self->index_name);
  request = dyno_builder_form_dup_request (self->form);
  if (request != NULL)
    dyno_builder_form_load_request (copy->form, request);

  return copy;
}

DynoPartiqlPage *
dyno_query_page_new_partiql_page (DynoQueryPage  *self,
                                  char          **out_reason)
{
  DynoPartiqlPage *page;
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *code = NULL;
  DynoCodegenOptions options = { 0, };
  gint64 limit;
  gboolean consistent;

  g_return_val_if_fail (DYNO_IS_QUERY_PAGE (self), NULL);

  page = dyno_partiql_page_new (self->backend, self->connection, self->table_name, self->info);
  request = dyno_builder_form_dup_request (self->form);
  /* an unfinished form has nothing to carry over: the tab starts from SELECT * quietly */
  if (request == NULL)
    return page;

  /* Limit and ConsistentRead are ExecuteStatement's parameters: the tab's options */
  limit = request->limit;
  consistent = request->consistent_read == DYNO_TRISTATE_TRUE;
  request->limit = 0;
  request->consistent_read = DYNO_TRISTATE_UNSET;
  code = dyno_codegen_emit (request, "partiql", &options, &error);
  if (code == NULL)
    {
      if (out_reason != NULL)
        *out_reason = g_strdup (error->message);
      return page;
    }
  g_strchomp (code);
  dyno_partiql_page_set_statement (page, code);
  dyno_partiql_page_set_options (page, consistent, limit);
  return page;
}

void
dyno_query_page_load_draft (DynoQueryPage  *self,
                            DynoQueryDraft *draft)
{
  g_return_if_fail (DYNO_IS_QUERY_PAGE (self));
  g_return_if_fail (DYNO_IS_QUERY_DRAFT (draft));

  dyno_builder_form_load_draft (self->form, draft);
}

const char *
dyno_query_page_get_subtitle (DynoQueryPage *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_PAGE (self), NULL);
  return self->subtitle;
}

gboolean
dyno_query_page_get_loading (DynoQueryPage *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_PAGE (self), FALSE);
  return self->run != NULL && dyno_run_get_loading (self->run);
}

void
dyno_query_page_focus_form (DynoQueryPage *self)
{
  g_return_if_fail (DYNO_IS_QUERY_PAGE (self));
  dyno_builder_form_focus (self->form);
}

int
dyno_query_page_get_side_by_side_width (DynoQueryPage *self)
{
  int form = 0, results = 0;

  g_return_val_if_fail (DYNO_IS_QUERY_PAGE (self), 0);

  gtk_widget_measure (self->form_page, GTK_ORIENTATION_HORIZONTAL, -1, &form, NULL, NULL, NULL);
  gtk_widget_measure (self->results_page, GTK_ORIENTATION_HORIZONTAL, -1, &results, NULL, NULL,
                      NULL);
  return form + 1 + results;
}
