/* dyno-window.c: the main window: connections and tables in the sidebar, queries in tabs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "dyno-application.h"
#include "dyno-connection-dialog.h"
#include "dyno-delete-table-dialog.h"
#include "dyno-iac-dialog.h"
#include "dyno-patterns-dialog.h"
#include "dyno-keyring.h"
#include "dyno-partiql-page.h"
#include "dyno-query-page.h"
#include "dyno-sidebar-node.h"
#include "dyno-sso-dialog.h"
#include "dyno-table-designer.h"
#include "dyno-model-dialog.h"
#include "dyno-model-reader.h"
#include "dyno-samples-dialog.h"
#include "dyno-transfer-dialog.h"
#include "dyno-window.h"
#include "dyno-widget-util.h"
#include "dyno-workspace-dialog.h"

struct _DynoWindow
{
  AdwApplicationWindow  parent_instance;

  GtkWidget            *main_menu_button;
  GSettings            *settings;
  GCancellable         *cancellable;
  GListStore           *connections;     /* DynoSidebarNode (connections) */
  GtkTreeListModel     *tree;
  GtkStringFilter      *table_filter;
  char                 *pending_table;   /* --table: open once listed */
  GHashTable           *page_nodes;      /* AdwTabPage -> the DynoSidebarNode it shows */

  /* template */
  AdwToastOverlay      *toast_overlay;
  AdwFlap              *flap;
  GtkWidget            *sidebar;
  int                   allocated_width;
  guint                 fold_idle;
  GtkSearchEntry       *search_entry;
  GtkStack             *sidebar_stack;
  GtkListView          *sidebar_list;
  AdwWindowTitle       *window_title;
  AdwTabView           *tab_view;
  GtkStack             *content_stack;
  AdwStatusPage        *content_status;
};

G_DEFINE_FINAL_TYPE (DynoWindow, dyno_window, ADW_TYPE_APPLICATION_WINDOW)

static void open_node (DynoWindow      *self,
                       DynoSidebarNode *node);

/* What a dialog's callbacks act on: the window (weakly: a dialog may outlive it) and the
 * sidebar node or the saved connection the dialog was opened for.  One per handler, freed
 * with the handler. */
typedef struct {
  GWeakRef         window;
  DynoSidebarNode *node;
  char            *connection_id;
} DialogContext;

static DialogContext *
dialog_context_new (DynoWindow      *self,
                    DynoSidebarNode *node,
                    const char      *connection_id)
{
  DialogContext *ctx = g_new0 (DialogContext, 1);

  g_weak_ref_init (&ctx->window, self);
  ctx->node = node != NULL ? g_object_ref (node) : NULL;
  ctx->connection_id = g_strdup (connection_id);
  return ctx;
}

static void
dialog_context_free (gpointer  data,
                     GClosure *closure)
{
  DialogContext *ctx = data;

  g_weak_ref_clear (&ctx->window);
  g_clear_object (&ctx->node);
  g_free (ctx->connection_id);
  g_free (ctx);
}

/* Connects @callback (swapped: it gets a DialogContext first, @dialog last) to @signal of
 * @dialog, which works on @node. */
static void
connect_dialog (DynoWindow      *self,
                GtkWidget       *dialog,
                DynoSidebarNode *node,
                const char      *signal,
                GCallback        callback)
{
  g_signal_connect_data (dialog, signal, callback, dialog_context_new (self, node, NULL),
                         dialog_context_free, G_CONNECT_SWAPPED);
}
static void queue_update_fold (DynoWindow *self);

/* What a query page needs to show its form beside its results, before one is measured. */
#define DYNO_WINDOW_SIDE_BY_SIDE_ESTIMATE 720

static GListModel *
create_children_cb (gpointer item,
                    gpointer user_data)
{
  DynoWindow *self = user_data;
  DynoSidebarNode *node = item;
  GListModel *children = dyno_sidebar_node_get_children (node);

  if (children == NULL)
    return NULL;

  /* The search narrows the tables of every connection; indexes follow their table. */
  if (dyno_sidebar_node_get_kind (node) == DYNO_SIDEBAR_CONNECTION)
    return G_LIST_MODEL (gtk_filter_list_model_new (g_object_ref (children),
                                                    g_object_ref (GTK_FILTER (
                                                      self->table_filter))));

  return g_object_ref (children);
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *subtitle = gtk_label_new (NULL);
  GtkWidget *menu_button = gtk_menu_button_new ();

  dyno_widget_expose_activate (menu_button);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_add_css_class (subtitle, "caption");
  GtkWidget *action_button = gtk_button_new ();

  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), subtitle);
  /* messages that offer a way out ("Sign As…" under an empty DynamoDB Local) */
  gtk_button_set_use_underline (GTK_BUTTON (action_button), TRUE);
  gtk_widget_set_halign (action_button, GTK_ALIGN_START);
  gtk_widget_set_margin_top (action_button, 6);
  gtk_widget_set_visible (action_button, FALSE);
  gtk_box_append (GTK_BOX (box), action_button);
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  gtk_widget_set_hexpand (box, TRUE);
  /* connections and tables: their menu (labels set at bind) */
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (menu_button), "view-more-symbolic");
  gtk_widget_add_css_class (menu_button, "flat");
  gtk_widget_set_valign (menu_button, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (row), box);
  gtk_box_append (GTK_BOX (row), menu_button);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), row);
  gtk_list_item_set_child (list_item, expander);
}

static GtkWidget *
row_menu_button (GtkListItem *list_item)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *row = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));

  return gtk_widget_get_next_sibling (gtk_widget_get_first_child (row));
}

/* The menu is built when a row is bound, not when its labels change: a new menu model
 * replaces the popover, and would close one the person has open (a table's subtitle
 * changes when its description arrives). */
static void
update_row_menu (GtkWidget       *menu_button,
                 DynoSidebarNode *node)
{
  gtk_widget_set_visible (menu_button,
                          dyno_sidebar_node_get_kind (node) == DYNO_SIDEBAR_CONNECTION ||
                          dyno_sidebar_node_get_kind (node) == DYNO_SIDEBAR_TABLE);
  if (dyno_sidebar_node_get_kind (node) == DYNO_SIDEBAR_CONNECTION)
    {
      const char *id = dyno_connection_get_id (dyno_sidebar_node_get_connection (node));
      g_autoptr(GMenu) menu = g_menu_new ();
      g_autoptr(GMenu) tables = g_menu_new ();
      g_autoptr(GMenu) settings = g_menu_new ();
      g_autoptr(GMenuItem) new_table = g_menu_item_new (_("_New Table…"), NULL);
      g_autoptr(GMenuItem) samples = g_menu_item_new (_("Load _Sample Schemas…"), NULL);
      g_autoptr(GMenuItem) edit = g_menu_item_new (_("_Edit…"), NULL);
      g_autoptr(GMenuItem) remove = g_menu_item_new (_("_Remove"), NULL);

      g_menu_item_set_action_and_target_value (new_table, "win.new-table",
                                               g_variant_new_string (id));
      g_menu_item_set_action_and_target_value (samples, "win.load-samples",
                                               g_variant_new_string (id));
      g_menu_item_set_action_and_target_value (edit, "win.edit-connection",
                                               g_variant_new_string (id));
      g_menu_item_set_action_and_target_value (remove, "win.remove-connection",
                                               g_variant_new_string (id));
      g_menu_append_item (tables, new_table);
      g_menu_append_item (tables, samples);
      {
        g_autoptr(GMenuItem) model = g_menu_item_new (_("Import NoSQL Workbench _Model…"), NULL);

        g_menu_item_set_action_and_target_value (model, "win.import-model",
                                                 g_variant_new_string (id));
        g_menu_append_item (tables, model);
      }
      if (dyno_connection_get_kind (dyno_sidebar_node_get_connection (node)) !=
          DYNO_CONNECTION_PLAYGROUND)
        {
          g_autoptr(GMenuItem) commit = g_menu_item_new (_("Create _Playground Tables Here…"),
                                                         NULL);

          g_menu_item_set_action_and_target_value (commit, "win.commit-playground",
                                                   g_variant_new_string (id));
          g_menu_append_item (tables, commit);
        }
      {
        g_autoptr(GMenuItem) patterns = g_menu_item_new (_("Check _Access Patterns…"), NULL);

        g_menu_item_set_action_and_target_value (patterns, "win.check-patterns",
                                                 g_variant_new_string (id));
        g_menu_append_item (tables, patterns);
      }
      if (dyno_connection_get_kind (dyno_sidebar_node_get_connection (node)) ==
          DYNO_CONNECTION_PLAYGROUND)
        {
          /* both open a window: safe in a row's popover (see serve-playground below) */
          g_autoptr(GMenuItem) duplicate = g_menu_item_new (_("_Duplicate Workspace…"), NULL);
          g_autoptr(GMenuItem) export = g_menu_item_new (_("E_xport Workspace…"), NULL);

          g_menu_item_set_action_and_target_value (duplicate, "win.duplicate-workspace",
                                                   g_variant_new_string (id));
          g_menu_item_set_action_and_target_value (export, "win.export-workspace",
                                                   g_variant_new_string (id));
          g_menu_append_item (settings, duplicate);
          g_menu_append_item (settings, export);
        }
      /* a Playground has nothing to edit: it is its workspace file */
      if (dyno_connection_get_kind (dyno_sidebar_node_get_connection (node)) !=
          DYNO_CONNECTION_PLAYGROUND)
        g_menu_append_item (settings, edit);

      g_menu_append_item (settings, remove);
      g_menu_append_section (menu, NULL, G_MENU_MODEL (tables));
      g_menu_append_section (menu, NULL, G_MENU_MODEL (settings));
      gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (menu_button), G_MENU_MODEL (menu));
      gtk_widget_set_tooltip_text (menu_button, _("Connection Menu"));
      {
        /* Translators: the accessible name of the menu button of one connection in the
         * sidebar: which connection it is about */
        g_autofree char *connection_menu_name =
          g_strdup_printf (_("Menu of connection %s"),
                           dyno_connection_get_name (dyno_sidebar_node_get_connection (node)));

        gtk_accessible_update_property (GTK_ACCESSIBLE (menu_button),
                                        GTK_ACCESSIBLE_PROPERTY_LABEL, connection_menu_name, -1);
      }
    }
  else if (dyno_sidebar_node_get_kind (node) == DYNO_SIDEBAR_TABLE)
    {
      const char *id = dyno_connection_get_id (dyno_sidebar_node_get_connection (node));
      const char *table = dyno_sidebar_node_get_table_name (node);
      g_autoptr(GMenu) menu = g_menu_new ();
      g_autoptr(GMenu) data = g_menu_new ();
      g_autoptr(GMenu) danger = g_menu_new ();
      g_autoptr(GMenuItem) add_index = g_menu_item_new (_("Add _Global Secondary Index…"), NULL);
      g_autoptr(GMenuItem) import = g_menu_item_new (_("_Import Items…"), NULL);
      g_autoptr(GMenuItem) delete = g_menu_item_new (_("_Delete Table…"), NULL);
      g_autoptr(GMenuItem) iac = g_menu_item_new (_("Infrastructure as _Code…"), NULL);
      g_autofree char *menu_name = NULL;

      g_menu_item_set_action_and_target_value (add_index, "win.add-index",
                                               g_variant_new ("(ss)", id, table));
      g_menu_item_set_action_and_target_value (import, "win.import-items",
                                               g_variant_new ("(ss)", id, table));
      g_menu_item_set_action_and_target_value (delete, "win.delete-table",
                                               g_variant_new ("(ss)", id, table));
      g_menu_item_set_action_and_target_value (iac, "win.table-iac",
                                               g_variant_new ("(ss)", id, table));
      g_menu_append_item (data, add_index);
      g_menu_append_item (data, import);
      g_menu_append_item (data, iac);
      g_menu_append_item (danger, delete);
      g_menu_append_section (menu, NULL, G_MENU_MODEL (data));
      g_menu_append_section (menu, NULL, G_MENU_MODEL (danger));
      gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (menu_button), G_MENU_MODEL (menu));
      gtk_widget_set_tooltip_text (menu_button, _("Table Menu"));
      /* Translators: the accessible name of the menu button of one table in the sidebar */
      menu_name = g_strdup_printf (_("Menu of table %s"), table);
      gtk_accessible_update_property (GTK_ACCESSIBLE (menu_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      menu_name, -1);
    }
}

static void
update_row_labels (GtkListItem     *list_item,
                   DynoSidebarNode *node)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *row = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  GtkWidget *box = gtk_widget_get_first_child (row);
  GtkWidget *title = gtk_widget_get_first_child (box);
  GtkWidget *subtitle = gtk_widget_get_next_sibling (title);
  GtkWidget *action_button = gtk_widget_get_next_sibling (subtitle);
  const char *subtitle_text = dyno_sidebar_node_get_subtitle (node);
  const char *action_label = dyno_sidebar_node_get_action_label (node);
  gboolean is_message = dyno_sidebar_node_get_kind (node) == DYNO_SIDEBAR_MESSAGE;
  gboolean is_connection = dyno_sidebar_node_get_kind (node) == DYNO_SIDEBAR_CONNECTION;
  g_autofree char *accessible = NULL;

  gtk_widget_set_visible (action_button, action_label != NULL);
  if (action_label != NULL)
    {
      gtk_button_set_label (GTK_BUTTON (action_button), action_label);
      /* the target first: the action takes a parameter */
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (action_button),
                                              dyno_sidebar_node_get_action_target (node));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (action_button),
                                      dyno_sidebar_node_get_action_name (node));
    }
  else
    {
      gtk_actionable_set_action_name (GTK_ACTIONABLE (action_button), NULL);
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (action_button), NULL);
    }
  /* A message is read whole, and a connection's subtitle names the key and region it signs
   * with (two lines at most); a table's key schema fits one line. */
  gtk_label_set_wrap (GTK_LABEL (subtitle), is_message || is_connection);
  gtk_label_set_wrap_mode (GTK_LABEL (subtitle), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (GTK_LABEL (subtitle), is_connection ? 2 : -1);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), is_message ? PANGO_ELLIPSIZE_NONE
                                                            : PANGO_ELLIPSIZE_END);
  gtk_label_set_ellipsize (GTK_LABEL (title), is_message ? PANGO_ELLIPSIZE_NONE
                                                         : PANGO_ELLIPSIZE_END);
  if (is_connection)
    {
      DynoConnection *connection = dyno_sidebar_node_get_connection (node);
      g_autofree char *tooltip = NULL;

      if (dyno_connection_get_signed_source (connection) != NULL)
        /* Translators: a connection's tooltip: the access key ID, where it came from (such as
         * "environment" or "profile dev (~/.aws/credentials)"), then the region */
        tooltip = g_strdup_printf (_("Signs as %s, from %s, in %s"),
                                   dyno_connection_get_signed_key_id (connection),
                                   dyno_connection_get_signed_source (connection),
                                   dyno_connection_get_signed_region (connection));
      gtk_widget_set_tooltip_text (box, tooltip);
    }
  else
    gtk_widget_set_tooltip_text (box, NULL);

  gtk_label_set_label (GTK_LABEL (title), dyno_sidebar_node_get_title (node));
  gtk_label_set_label (GTK_LABEL (subtitle), subtitle_text ? subtitle_text : "");
  gtk_widget_set_visible (subtitle, subtitle_text != NULL && *subtitle_text != '\0');

  if (dyno_sidebar_node_get_is_error (node))
    gtk_widget_add_css_class (subtitle, "error");
  else
    gtk_widget_remove_css_class (subtitle, "error");

  if (dyno_sidebar_node_get_kind (node) == DYNO_SIDEBAR_MESSAGE)
    {
      gtk_widget_add_css_class (title, "dim-label");
      if (dyno_sidebar_node_get_is_error (node))
        gtk_widget_add_css_class (title, "error");
      gtk_label_set_wrap (GTK_LABEL (title), TRUE);
    }
  else
    {
      gtk_widget_remove_css_class (title, "dim-label");
      gtk_widget_remove_css_class (title, "error");
      gtk_label_set_wrap (GTK_LABEL (title), FALSE);
    }

  if (dyno_sidebar_node_get_kind (node) == DYNO_SIDEBAR_CONNECTION)
    gtk_widget_add_css_class (title, "heading");
  else
    gtk_widget_remove_css_class (title, "heading");

  /* read as one: "orders, pk S · sk S" */
  if (subtitle_text != NULL && *subtitle_text != '\0')
    accessible = g_strdup_printf ("%s, %s", dyno_sidebar_node_get_title (node), subtitle_text);
  else
    accessible = g_strdup (dyno_sidebar_node_get_title (node));
  gtk_accessible_update_property (GTK_ACCESSIBLE (expander),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
}

static void
node_notify_cb (DynoSidebarNode *node,
                GParamSpec      *pspec,
                GtkListItem     *list_item)
{
  update_row_labels (list_item, node);
  /* the menu's accessible name says whose it is */
  if (g_strcmp0 (pspec->name, "title") == 0)
    update_row_menu (row_menu_button (list_item), node);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  DynoSidebarNode *node = gtk_tree_list_row_get_item (row);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  update_row_labels (list_item, node);
  update_row_menu (row_menu_button (list_item), node);
  g_signal_connect_object (node, "notify::subtitle", G_CALLBACK (node_notify_cb), list_item, 0);
  g_signal_connect_object (node, "notify::title", G_CALLBACK (node_notify_cb), list_item, 0);

  gtk_list_item_set_activatable (list_item,
                                 dyno_sidebar_node_get_kind (node) != DYNO_SIDEBAR_MESSAGE);

  g_object_unref (node);
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr(DynoSidebarNode) node = row ? gtk_tree_list_row_get_item (row) : NULL;

  if (node != NULL)
    g_signal_handlers_disconnect_by_func (node, node_notify_cb, list_item);
}

static void
search_changed_cb (DynoWindow     *self,
                   GtkSearchEntry *entry)
{
  gtk_string_filter_set_search (self->table_filter,
                                gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
sidebar_activated_cb (DynoWindow  *self,
                      guint        position,
                      GtkListView *list_view)
{
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (list_view));
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, position);
  g_autoptr(DynoSidebarNode) node = NULL;

  if (row == NULL)
    return;

  node = gtk_tree_list_row_get_item (row);

  switch (dyno_sidebar_node_get_kind (node))
    {
    case DYNO_SIDEBAR_CONNECTION:
      gtk_tree_list_row_set_expanded (row, !gtk_tree_list_row_get_expanded (row));
      break;

    case DYNO_SIDEBAR_TABLE:
    case DYNO_SIDEBAR_INDEX:
      open_node (self, node);
      break;

    case DYNO_SIDEBAR_MESSAGE:
    default:
      break;
    }
}

/* A tab holds a query page or a PartiQL page. */
static const char *
tab_subtitle (GtkWidget *child)
{
  if (DYNO_IS_PARTIQL_PAGE (child))
    return dyno_partiql_page_get_subtitle (DYNO_PARTIQL_PAGE (child));
  return dyno_query_page_get_subtitle (DYNO_QUERY_PAGE (child));
}

static void
update_title (DynoWindow *self)
{
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);

  if (page == NULL)
    {
      adw_window_title_set_title (self->window_title, "DynoTable");
      adw_window_title_set_subtitle (self->window_title, NULL);
      gtk_window_set_title (GTK_WINDOW (self), "DynoTable");
      return;
    }

  adw_window_title_set_title (self->window_title, adw_tab_page_get_title (page));
  /* the window list and assistive technologies name the window after the table in front */
  gtk_window_set_title (GTK_WINDOW (self), adw_tab_page_get_title (page));
  adw_window_title_set_subtitle (self->window_title,
                                 tab_subtitle (adw_tab_page_get_child (page)));
}

static void
selected_page_changed_cb (DynoWindow *self)
{
  AdwTabPage *selected = adw_tab_view_get_selected_page (self->tab_view);
  int n = adw_tab_view_get_n_pages (self->tab_view);

  update_title (self);
  queue_update_fold (self);

  /* AdwTabView keeps every page's widgets alive, and GTK 4.8 reports those of background
   * pages as showing: a screen reader (or a script) would find two "New item" buttons at
   * one place and act on the wrong table.  Only the front page is presented. */
  for (int i = 0; i < n; i++)
    {
      AdwTabPage *page = adw_tab_view_get_nth_page (self->tab_view, i);

      gtk_accessible_update_state (GTK_ACCESSIBLE (adw_tab_page_get_child (page)),
                                   GTK_ACCESSIBLE_STATE_HIDDEN, page != selected, -1);
    }
}

/* A closed tab no longer shows its node. */
static void
page_detached_cb (DynoWindow *self,
                  AdwTabPage *page,
                  int         position)
{
  g_hash_table_remove (self->page_nodes, page);
}

static void
n_pages_changed_cb (DynoWindow *self)
{
  gboolean has_pages = adw_tab_view_get_n_pages (self->tab_view) > 0;

  gtk_stack_set_visible_child_name (self->content_stack, has_pages ? "tabs" : "empty");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.close-tab", has_pages);
}

static AdwTabPage *
add_query_page (DynoWindow      *self,
                DynoSidebarNode *node)
{
  DynoQueryPage *query_page;
  AdwTabPage *page;
  g_autofree char *title = NULL;
  const char *index_name = dyno_sidebar_node_get_index_name (node);

  query_page = dyno_query_page_new (dyno_sidebar_node_get_backend (node),
                                    dyno_sidebar_node_get_connection (node),
                                    dyno_sidebar_node_get_table_name (node),
                                    dyno_sidebar_node_get_table_info (node),
                                    index_name);

  if (index_name != NULL)
    title = g_strdup_printf ("%s · %s", dyno_sidebar_node_get_table_name (node), index_name);
  else
    title = g_strdup (dyno_sidebar_node_get_table_name (node));

  page = adw_tab_view_append (self->tab_view, GTK_WIDGET (query_page));
  adw_tab_page_set_title (page, title);
  adw_tab_page_set_tooltip (page, dyno_query_page_get_subtitle (query_page));
  g_object_bind_property (query_page, "loading", page, "loading", G_BINDING_SYNC_CREATE);

  return page;
}

/* Selects @node's row in the sidebar, and shows a table's indexes under it. */
static void
reveal_node (DynoWindow      *self,
             DynoSidebarNode *node)
{
  GtkSelectionModel *selection = gtk_list_view_get_model (self->sidebar_list);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tree));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree), i);
      g_autoptr(DynoSidebarNode) item = gtk_tree_list_row_get_item (row);

      if (item != node)
        continue;

      if (dyno_sidebar_node_get_kind (node) == DYNO_SIDEBAR_TABLE)
        gtk_tree_list_row_set_expanded (row, TRUE);
      gtk_selection_model_select_item (selection, i, TRUE);
      return;
    }
}

static void
open_node (DynoWindow      *self,
           DynoSidebarNode *node)
{
  AdwTabPage *page = NULL;
  guint n_pages = adw_tab_view_get_n_pages (self->tab_view);

  /* A table already open is shown again; Ctrl+T makes a second tab on it. */
  for (guint i = 0; i < n_pages && page == NULL; i++)
    {
      AdwTabPage *candidate = adw_tab_view_get_nth_page (self->tab_view, i);

      if (g_hash_table_lookup (self->page_nodes, candidate) == node)
        page = candidate;
    }

  if (page == NULL)
    {
      page = add_query_page (self, node);
      g_hash_table_insert (self->page_nodes, g_object_ref (page), g_object_ref (node));
    }

  reveal_node (self, node);
  adw_tab_view_set_selected_page (self->tab_view, page);
  /* folded over the page, the sidebar steps aside once a table is chosen */
  if (adw_flap_get_folded (self->flap))
    adw_flap_set_reveal_flap (self->flap, FALSE);
  /* the page was selected before it had a title */
  update_title (self);
  dyno_query_page_focus_form (DYNO_QUERY_PAGE (adw_tab_page_get_child (page)));
}

static DynoSidebarNode *
find_table_node (GListModel *children,
                 const char *table)
{
  guint n = g_list_model_get_n_items (children);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynoSidebarNode) node = g_list_model_get_item (children, i);

      if (dyno_sidebar_node_get_kind (node) == DYNO_SIDEBAR_TABLE &&
          g_strcmp0 (dyno_sidebar_node_get_table_name (node), table) == 0)
        return g_steal_pointer (&node);
    }

  return NULL;
}

static void
table_info_ready_cb (DynoSidebarNode *node,
                     GParamSpec      *pspec,
                     DynoWindow      *self)
{
  if (dyno_sidebar_node_get_table_info (node) == NULL)
    return;

  g_signal_handlers_disconnect_by_func (node, table_info_ready_cb, self);
  open_node (self, node);
}

static void
connection_children_changed_cb (GListModel *children,
                                guint       position,
                                guint       removed,
                                guint       added,
                                DynoWindow *self)
{
  g_autoptr(DynoSidebarNode) node = NULL;

  if (self->pending_table == NULL)
    return;

  node = find_table_node (children, self->pending_table);
  if (node == NULL)
    return;

  g_clear_pointer (&self->pending_table, g_free);
  g_signal_handlers_disconnect_by_func (children, connection_children_changed_cb, self);

  /* Open once the schema is known, so the form can type the key values. */
  if (dyno_sidebar_node_get_table_info (node) != NULL)
    open_node (self, node);
  else
    g_signal_connect_object (node, "notify::table-info", G_CALLBACK (table_info_ready_cb),
                             self, 0);
}

static void
add_connection_activated (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoConnectionDialog *dialog = dyno_connection_dialog_new (GTK_WINDOW (self), NULL);

  gtk_window_present (GTK_WINDOW (dialog));
}

static DynoSidebarNode *
find_connection_node (DynoWindow *self,
                      const char *id,
                      guint      *position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->connections));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynoSidebarNode) node = g_list_model_get_item (G_LIST_MODEL (self->connections), i);

      if (g_strcmp0 (dyno_connection_get_id (dyno_sidebar_node_get_connection (node)), id) == 0)
        {
          if (position != NULL)
            *position = i;
          return node;  /* the list keeps it */
        }
    }

  return NULL;
}

static void
edit_dialog_destroyed_cb (DialogContext *ctx,
                          GtkWidget     *dialog)
{
  g_autoptr(DynoWindow) self = g_weak_ref_get (&ctx->window);

  /* new settings (or the same): a new backend, and the tables listed again */
  if (self != NULL)
    dyno_sidebar_node_reload (ctx->node, self->cancellable);
}

static void
edit_connection_activated (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoSidebarNode *node = find_connection_node (self, g_variant_get_string (param, NULL), NULL);
  DynoConnectionDialog *dialog;

  if (node == NULL)
    return;

  dialog = dyno_connection_dialog_new (GTK_WINDOW (self), dyno_sidebar_node_get_connection (node));
  connect_dialog (self, GTK_WIDGET (dialog), node, "destroy",
                  G_CALLBACK (edit_dialog_destroyed_cb));
  gtk_window_present (GTK_WINDOW (dialog));
}

typedef struct {
  GWeakRef         window;
  DynoSidebarNode *node;
} SignIn;

static void
signed_in_cb (gboolean signed_in,
              gpointer user_data)
{
  SignIn *sign_in = user_data;
  g_autoptr(GObject) window = g_weak_ref_get (&sign_in->window);

  /* signed in: connect again, and list the tables */
  if (signed_in && window != NULL)
    dyno_sidebar_node_reload (sign_in->node, DYNO_WINDOW (window)->cancellable);
  g_weak_ref_clear (&sign_in->window);
  g_object_unref (sign_in->node);
  g_free (sign_in);
}

static void
sso_sign_in_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoSidebarNode *node = find_connection_node (self, g_variant_get_string (param, NULL), NULL);
  const char *profile = node != NULL ? dyno_sidebar_node_get_sso_profile (node) : NULL;
  SignIn *sign_in;

  if (profile == NULL)
    return;
  sign_in = g_new0 (SignIn, 1);
  g_weak_ref_init (&sign_in->window, self);
  sign_in->node = g_object_ref (node);
  dyno_sso_dialog_present (GTK_WINDOW (self), profile,
                           g_getenv ("DYNO_TEST_NO_BROWSER") == NULL, signed_in_cb, sign_in);
}

static void
remove_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    DialogContext    *ctx)
{
  g_autoptr(DynoWindow) self = g_weak_ref_get (&ctx->window);
  const char *id = ctx->connection_id;
  DynoApplication *app;
  DynoConnectionStore *store;
  DynoConnection *saved;
  guint position;

  if (self == NULL || !g_str_equal (response, "remove"))
    return;

  app = DYNO_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  store = dyno_application_get_connection_store (app);
  saved = dyno_connection_store_lookup (store, id);

  if (saved != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (dyno_connection_get_kind (saved) == DYNO_CONNECTION_KEYS)
        dyno_keyring_delete_async (id, NULL, NULL, NULL);
      dyno_connection_store_remove (store, saved);
      if (!dyno_connection_store_save (store, &error))
        dyno_window_add_toast (self, error->message);
    }

  if (find_connection_node (self, id, &position) != NULL)
    g_list_store_remove (self->connections, position);
}

static void
remove_connection_activated (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  const char *id = g_variant_get_string (param, NULL);
  DynoSidebarNode *node = find_connection_node (self, id, NULL);
  GtkWidget *dialog;

  if (node == NULL)
    return;

  dialog = adw_message_dialog_new (GTK_WINDOW (self), NULL, NULL);
  adw_message_dialog_format_heading (ADW_MESSAGE_DIALOG (dialog), _("Remove “%s”?"),
                                     dyno_sidebar_node_get_title (node));
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (dialog),
                               _("Its settings are forgotten and a secret access key is deleted "
                                 "from the keyring. The tables themselves are not touched."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "remove", _("_Remove"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "remove",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_data (dialog, "response", G_CALLBACK (remove_response_cb),
                         dialog_context_new (self, NULL, id), dialog_context_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ---- workspaces: Playgrounds on their own files -------------------------------------------- */

static gboolean require_backend (DynoWindow      *self,
                                 DynoSidebarNode *node);

static void
workspace_dialog (DynoWindow              *self,
                  DynoWorkspaceDialogMode  mode,
                  GVariant                *param)
{
  DynoApplication *app = DYNO_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  DynoSidebarNode *node = NULL;
  DynoBackend *backend = NULL;
  const char *name = NULL;
  DynoWorkspaceDialog *dialog;

  if (param != NULL)
    {
      node = find_connection_node (self, g_variant_get_string (param, NULL), NULL);
      if (!require_backend (self, node))
        return;
      backend = dyno_sidebar_node_get_backend (node);
      if (!DYNO_IS_ENGINE_BACKEND (backend))
        return;
      name = dyno_connection_get_name (dyno_sidebar_node_get_connection (node));
    }
  dialog = dyno_workspace_dialog_new (GTK_WINDOW (self), mode,
                                      dyno_application_get_connection_store (app),
                                      backend != NULL ? DYNO_ENGINE_BACKEND (backend) : NULL,
                                      name);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
new_workspace_activated (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  workspace_dialog (DYNO_WINDOW (widget), DYNO_WORKSPACE_DIALOG_NEW, NULL);
}

static void
open_workspace_activated (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  workspace_dialog (DYNO_WINDOW (widget), DYNO_WORKSPACE_DIALOG_OPEN, NULL);
}

static void
duplicate_workspace_activated (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *param)
{
  workspace_dialog (DYNO_WINDOW (widget), DYNO_WORKSPACE_DIALOG_DUPLICATE, param);
}

static void
export_workspace_activated (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *param)
{
  workspace_dialog (DYNO_WINDOW (widget), DYNO_WORKSPACE_DIALOG_EXPORT, param);
}

/* ---- tables: design, delete, samples, import -------------------------------------------- */

/* The connection the user is working on: the current tab's, else the selected sidebar row's,
 * else the only (first) one. */
static DynoSidebarNode *
current_connection_node (DynoWindow *self)
{
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);
  GtkSelectionModel *selection = gtk_list_view_get_model (self->sidebar_list);
  DynoSidebarNode *node = NULL;
  DynoConnection *connection = NULL;

  if (page != NULL)
    node = g_hash_table_lookup (self->page_nodes, page);

  if (node == NULL && GTK_IS_SINGLE_SELECTION (selection))
    {
      GtkTreeListRow *row =
        gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));
      g_autoptr(DynoSidebarNode) selected = row ? gtk_tree_list_row_get_item (row) : NULL;

      if (selected != NULL)
        connection = dyno_sidebar_node_get_connection (selected);
    }
  else if (node != NULL)
    {
      connection = dyno_sidebar_node_get_connection (node);
    }

  if (connection != NULL)
    return find_connection_node (self, dyno_connection_get_id (connection), NULL);

  if (g_list_model_get_n_items (G_LIST_MODEL (self->connections)) > 0)
    {
      g_autoptr(DynoSidebarNode) first = g_list_model_get_item (G_LIST_MODEL (self->connections),
                                                                0);
      return first;  /* the list keeps it */
    }

  return NULL;
}

static DynoSidebarNode *
connection_node_for_param (DynoWindow *self,
                           GVariant   *param,
                           const char **table)
{
  const char *id = NULL;

  if (param == NULL)
    return current_connection_node (self);

  if (g_variant_is_of_type (param, G_VARIANT_TYPE ("(ss)")))
    g_variant_get (param, "(&s&s)", &id, table);
  else
    id = g_variant_get_string (param, NULL);

  return find_connection_node (self, id, NULL);
}

/* The dialog's connection lists its tables again (a table was created, filled or deleted). */
static void
refresh_connection_cb (DialogContext *ctx,
                       GtkWidget     *dialog)
{
  g_autoptr(DynoWindow) self = g_weak_ref_get (&ctx->window);

  if (self != NULL)
    dyno_sidebar_node_refresh (ctx->node, self->cancellable);
}

/* Opens @table of @connection_node in a tab as soon as the sidebar lists it (and its schema is
 * read): after --table, or once a new table exists. */
static void
open_table_once_listed (DynoWindow      *self,
                        DynoSidebarNode *connection_node,
                        const char      *table)
{
  GListModel *children = dyno_sidebar_node_get_children (connection_node);

  g_free (self->pending_table);
  self->pending_table = g_strdup (table);
  g_signal_handlers_disconnect_by_func (children, connection_children_changed_cb, self);
  g_signal_connect_object (children, "items-changed",
                           G_CALLBACK (connection_children_changed_cb), self, 0);
  /* listed already (a sample table that existed): open it now */
  connection_children_changed_cb (children, 0, 0, 0, self);
}

static void
table_created_cb (DialogContext *ctx,
                  const char    *table_name,
                  GtkWidget     *dialog)
{
  g_autoptr(DynoWindow) self = g_weak_ref_get (&ctx->window);
  g_autofree char *message = NULL;

  if (self == NULL)
    return;
  /* Translators: a toast; the table's name */
  message = g_strdup_printf (_("Table “%s” created"), table_name);
  dyno_window_add_toast (self, message);
  open_table_once_listed (self, ctx->node, table_name);
  dyno_sidebar_node_refresh (ctx->node, self->cancellable);
}

static void
index_added_cb (DialogContext *ctx,
                const char    *table_name,
                GtkWidget     *dialog)
{
  g_autoptr(DynoWindow) self = g_weak_ref_get (&ctx->window);
  g_autofree char *message = NULL;

  if (self == NULL)
    return;
  /* Translators: a toast; the table's name */
  message = g_strdup_printf (_("Index added to “%s”"), table_name);
  dyno_window_add_toast (self, message);
  refresh_connection_cb (ctx, dialog);
}

/* Shows @dialog, which works on @connection_node; @signal (when not NULL) calls @callback
 * with a DialogContext (see connect_dialog()). */
static void
present_dialog (DynoWindow      *self,
                GtkWidget       *dialog,
                DynoSidebarNode *connection_node,
                const char      *signal,
                GCallback        callback)
{
  if (signal != NULL)
    connect_dialog (self, dialog, connection_node, signal, callback);
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
require_backend (DynoWindow      *self,
                 DynoSidebarNode *node)
{
  if (node == NULL)
    {
      dyno_window_add_toast (self, _("Add a connection first"));
      return FALSE;
    }

  if (dyno_sidebar_node_get_backend (node) == NULL)
    {
      dyno_window_add_toast (self, _("This connection is not ready: test or edit it first"));
      return FALSE;
    }

  return TRUE;
}

/* The table named by @param ("(ss)": connection id, table), once its connection is ready and,
 * with @need_schema, its schema has been read; otherwise NULL, and a toast says why. */
static DynoSidebarNode *
ready_table_node (DynoWindow       *self,
                  GVariant         *param,
                  DynoSidebarNode **connection_node,
                  gboolean          need_schema)
{
  const char *table = NULL;
  g_autoptr(DynoSidebarNode) node = NULL;

  *connection_node = connection_node_for_param (self, param, &table);
  if (!require_backend (self, *connection_node) || table == NULL)
    return NULL;

  node = find_table_node (dyno_sidebar_node_get_children (*connection_node), table);
  if (node != NULL && need_schema && dyno_sidebar_node_get_table_info (node) == NULL)
    {
      dyno_window_add_toast (self, _("The table’s schema is still being read; try again"));
      return NULL;
    }

  return node;  /* the connection's children keep it */
}

static void
new_table_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoSidebarNode *node = connection_node_for_param (self, param, NULL);

  if (!require_backend (self, node))
    return;

  present_dialog (self,
                  dyno_table_designer_new (GTK_WINDOW (self), dyno_sidebar_node_get_backend (node),
                                           NULL),
                  node, "table-created", G_CALLBACK (table_created_cb));
}

static void
add_index_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoSidebarNode *connection_node = NULL;
  DynoSidebarNode *node = ready_table_node (self, param, &connection_node, TRUE);

  if (node == NULL)
    return;

  present_dialog (self,
                  dyno_table_designer_new (GTK_WINDOW (self),
                                           dyno_sidebar_node_get_backend (connection_node),
                                           dyno_sidebar_node_get_table_info (node)),
                  connection_node, "table-created", G_CALLBACK (index_added_cb));
}

static void
table_deleted_cb (DialogContext *ctx,
                  const char    *table_name,
                  GtkWidget     *dialog)
{
  g_autoptr(DynoWindow) self = g_weak_ref_get (&ctx->window);
  DynoSidebarNode *node = ctx->node;
  DynoConnection *connection = dyno_sidebar_node_get_connection (node);
  g_autofree char *message = NULL;

  if (self == NULL)
    return;

  /* tabs on the deleted table (or its indexes) cannot run anything any more */
  for (int i = adw_tab_view_get_n_pages (self->tab_view) - 1; i >= 0; i--)
    {
      AdwTabPage *page = adw_tab_view_get_nth_page (self->tab_view, i);
      DynoSidebarNode *page_node = g_hash_table_lookup (self->page_nodes, page);

      if (page_node != NULL && dyno_sidebar_node_get_connection (page_node) == connection &&
          g_strcmp0 (dyno_sidebar_node_get_table_name (page_node), table_name) == 0)
        adw_tab_view_close_page (self->tab_view, page);
    }

  message = g_strdup_printf (_("Table “%s” deleted"), table_name);
  dyno_window_add_toast (self, message);
  dyno_sidebar_node_refresh (node, self->cancellable);
}

static void
delete_table_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoSidebarNode *connection_node = NULL;
  DynoSidebarNode *node = ready_table_node (self, param, &connection_node, FALSE);

  if (node == NULL)
    return;

  present_dialog (self,
                  dyno_delete_table_dialog_new (GTK_WINDOW (self),
                                                dyno_sidebar_node_get_backend (connection_node),
                                                dyno_sidebar_node_get_table_name (node)),
                  connection_node, "table-deleted", G_CALLBACK (table_deleted_cb));
}

static void
table_iac_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoSidebarNode *connection_node = NULL;
  DynoSidebarNode *node = ready_table_node (self, param, &connection_node, FALSE);

  if (node == NULL)
    return;
  present_dialog (self,
                  dyno_iac_dialog_new (GTK_WINDOW (self),
                                       dyno_sidebar_node_get_backend (connection_node),
                                       dyno_sidebar_node_get_table_name (node)),
                  connection_node, NULL, NULL);
}

static void
sample_open_table_cb (DialogContext *ctx,
                      const char    *table_name,
                      GtkWidget     *dialog)
{
  g_autoptr(DynoWindow) self = g_weak_ref_get (&ctx->window);

  if (self == NULL)
    return;
  open_table_once_listed (self, ctx->node, table_name);
  dyno_sidebar_node_refresh (ctx->node, self->cancellable);
}

static void
load_samples_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoSidebarNode *node = connection_node_for_param (self, param, NULL);
  GtkWidget *dialog;

  if (!require_backend (self, node))
    return;

  dialog = dyno_samples_dialog_new (GTK_WINDOW (self), dyno_sidebar_node_get_backend (node));
  connect_dialog (self, dialog, node, "open-table", G_CALLBACK (sample_open_table_cb));
  /* closed half-way, some tables may exist already: list them again then too */
  connect_dialog (self, dialog, node, "destroy", G_CALLBACK (refresh_connection_cb));
  present_dialog (self, dialog, node, "tables-changed", G_CALLBACK (refresh_connection_cb));
}

static void
import_model_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoSidebarNode *node = connection_node_for_param (self, param, NULL);
  GtkWidget *dialog;

  if (!require_backend (self, node))
    return;
  dialog = dyno_model_dialog_new (GTK_WINDOW (self), dyno_sidebar_node_get_backend (node));
  connect_dialog (self, dialog, node, "destroy", G_CALLBACK (refresh_connection_cb));
  present_dialog (self, dialog, node, "tables-changed", G_CALLBACK (refresh_connection_cb));
}

/* ---- Create Playground Tables Here: the Playground's tables committed to a connection ---- */

typedef struct {
  GWeakRef  window;
  char     *target_id;
} CommitContext;

static void
commit_context_free (CommitContext *ctx)
{
  g_weak_ref_clear (&ctx->window);
  g_free (ctx->target_id);
  g_free (ctx);
}

static DynoSidebarNode *
playground_node (DynoWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->connections));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynoSidebarNode) node = g_list_model_get_item (G_LIST_MODEL (self->connections), i);

      if (dyno_connection_get_kind (dyno_sidebar_node_get_connection (node)) ==
          DYNO_CONNECTION_PLAYGROUND)
        return node;  /* the list keeps it */
    }
  return NULL;
}

static void
playground_read_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  CommitContext *ctx = user_data;
  g_autoptr(DynoWindow) self = g_weak_ref_get (&ctx->window);
  g_autoptr(GError) error = NULL;
  DynoWorkbenchModel *model = dyno_model_reader_read_finish (DYNO_BACKEND (source), result,
                                                             &error);
  DynoSidebarNode *node;
  GtkWidget *dialog;

  if (self == NULL || model == NULL)
    {
      if (self != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Translators: what went wrong reading the Playground's tables */
          g_autofree char *message = g_strdup_printf (_("Could not read the Playground: %s"),
                                                      error->message);

          dyno_window_add_toast (self, message);
        }
      if (model != NULL)
        dyno_workbench_model_free (model);
      commit_context_free (ctx);
      return;
    }
  node = find_connection_node (self, ctx->target_id, NULL);
  commit_context_free (ctx);
  if (model->tables->len == 0)
    {
      dyno_workbench_model_free (model);
      dyno_window_add_toast (self, _("The Playground has no tables"));
      return;
    }
  if (!require_backend (self, node))
    {
      dyno_workbench_model_free (model);
      return;
    }
  dialog = dyno_model_dialog_new (GTK_WINDOW (self), dyno_sidebar_node_get_backend (node));
  dyno_model_dialog_set_model (DYNO_MODEL_DIALOG (dialog), model, _("the Playground"));
  connect_dialog (self, dialog, node, "destroy", G_CALLBACK (refresh_connection_cb));
  present_dialog (self, dialog, node, "tables-changed", G_CALLBACK (refresh_connection_cb));
}

static void
commit_playground_activated (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoSidebarNode *node = connection_node_for_param (self, param, NULL);
  DynoSidebarNode *playground = playground_node (self);
  CommitContext *ctx;

  if (!require_backend (self, node))
    return;
  if (playground == NULL || dyno_sidebar_node_get_backend (playground) == NULL)
    {
      dyno_window_add_toast (self, _("The Playground is not open in this window"));
      return;
    }
  ctx = g_new0 (CommitContext, 1);
  g_weak_ref_init (&ctx->window, self);
  ctx->target_id = g_strdup (g_variant_get_string (param, NULL));
  dyno_model_reader_read_async (dyno_sidebar_node_get_backend (playground), "Playground", NULL,
                                self->cancellable, playground_read_cb, ctx);
}

static void
check_patterns_activated (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoSidebarNode *node = connection_node_for_param (self, param, NULL);

  if (!require_backend (self, node))
    return;
  present_dialog (self,
                  dyno_patterns_dialog_new (GTK_WINDOW (self),
                                            dyno_sidebar_node_get_backend (node),
                                            dyno_connection_get_name (
                                              dyno_sidebar_node_get_connection (node))),
                  node, NULL, NULL);
}

static void
import_items_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  DynoSidebarNode *connection_node = NULL;
  DynoSidebarNode *node = ready_table_node (self, param, &connection_node, TRUE);

  if (node == NULL)
    return;

  present_dialog (self,
                  dyno_import_dialog_new (GTK_WINDOW (self),
                                          dyno_sidebar_node_get_backend (connection_node),
                                          dyno_sidebar_node_get_table_info (node)),
                  connection_node, NULL, NULL);
}

static void
refresh_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->connections));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynoSidebarNode) node = g_list_model_get_item (G_LIST_MODEL (self->connections), i);

      dyno_sidebar_node_refresh (node, self->cancellable);
    }
}

static void
search_tables_activated (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* Adds @child (a query or PartiQL page) as a tab after the others, and shows it. */
static void
append_tab (DynoWindow *self,
            GtkWidget  *child,
            const char *title)
{
  AdwTabPage *page = adw_tab_view_append (self->tab_view, child);

  adw_tab_page_set_title (page, title);
  adw_tab_page_set_tooltip (page, tab_subtitle (child));
  g_object_bind_property (child, "loading", page, "loading", G_BINDING_SYNC_CREATE);
  adw_tab_view_set_selected_page (self->tab_view, page);
  update_title (self);
}

static void
new_tab_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);
  GtkWidget *child, *copy;

  /* A new tab is another query on the table of the current one. */
  if (page == NULL)
    {
      dyno_window_add_toast (self, _("Pick a table in the sidebar first"));
      return;
    }

  child = adw_tab_page_get_child (page);
  if (DYNO_IS_PARTIQL_PAGE (child))
    copy = GTK_WIDGET (dyno_partiql_page_duplicate (DYNO_PARTIQL_PAGE (child)));
  else
    copy = GTK_WIDGET (dyno_query_page_duplicate (DYNO_QUERY_PAGE (child)));
  append_tab (self, copy, adw_tab_page_get_title (page));
}

/* The query of the tab in front as PartiQL, in a new tab (Ctrl+Shift+P); from a PartiQL tab,
 * another one like it. */
static void
open_partiql_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);
  GtkWidget *child = page != NULL ? adw_tab_page_get_child (page) : NULL;
  DynoPartiqlPage *partiql;
  g_autofree char *reason = NULL;
  g_autofree char *title = NULL;

  if (child == NULL)
    {
      dyno_window_add_toast (self, _("Pick a table in the sidebar first"));
      return;
    }
  if (DYNO_IS_PARTIQL_PAGE (child))
    partiql = dyno_partiql_page_duplicate (DYNO_PARTIQL_PAGE (child));
  else
    partiql = dyno_query_page_new_partiql_page (DYNO_QUERY_PAGE (child), &reason);

  /* Translators: a PartiQL tab's title, after its table's name */
  title = g_strdup_printf (_("%s · PartiQL"), dyno_partiql_page_get_table_name (partiql));
  append_tab (self, GTK_WIDGET (partiql), title);
  dyno_partiql_page_focus_editor (partiql);
  if (reason != NULL)
    {
      g_autofree char *message = g_strdup_printf (_("%s: the PartiQL tab starts from SELECT *"),
                                                  reason);

      dyno_window_add_toast (self, message);
    }
}

/* The SELECT of the PartiQL tab in front as a query, in a new builder tab. */
static void
open_builder_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);
  GtkWidget *child = page != NULL ? adw_tab_page_get_child (page) : NULL;
  DynoPartiqlPage *partiql;
  g_autoptr(DynoQueryDraft) draft = NULL;
  DynoQueryPage *query_page;
  DynoTableInfo *info;
  const char *table, *index;
  g_autofree char *title = NULL;

  if (child == NULL || !DYNO_IS_PARTIQL_PAGE (child))
    return;
  partiql = DYNO_PARTIQL_PAGE (child);
  /* NULL: the page says under its editor why the builder cannot take it */
  draft = dyno_partiql_page_dup_draft (partiql);
  if (draft == NULL)
    return;

  table = dyno_query_draft_get_table_name (draft);
  index = dyno_query_draft_get_index_name (draft);
  info = g_strcmp0 (table, dyno_partiql_page_get_table_name (partiql)) == 0
         ? dyno_partiql_page_get_table_info (partiql) : NULL;
  query_page = dyno_query_page_new (dyno_partiql_page_get_backend (partiql),
                                    dyno_partiql_page_get_connection (partiql),
                                    table, info, index);
  dyno_query_page_load_draft (query_page, draft);
  title = index != NULL ? g_strdup_printf ("%s · %s", table, index) : g_strdup (table);
  append_tab (self, GTK_WIDGET (query_page), title);
  dyno_query_page_focus_form (query_page);
}

static void
close_tab_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  DynoWindow *self = DYNO_WINDOW (widget);
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);

  if (page != NULL)
    adw_tab_view_close_page (self->tab_view, page);
}

static void
connections_changed_cb (DynoWindow *self)
{
  gboolean empty = g_list_model_get_n_items (G_LIST_MODEL (self->connections)) == 0;

  gtk_stack_set_visible_child_name (self->sidebar_stack, empty ? "empty" : "list");
}

static void
store_items_changed_cb (GListModel *store,
                        guint       position,
                        guint       removed,
                        guint       added,
                        DynoWindow *self)
{
  /* Mirror the saved connections into the sidebar (command-line ones stay in front). */
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(DynoConnection) connection = g_list_model_get_item (store, i);

      dyno_window_open_connection (self, connection, NULL);
    }
}

/* The width the front page needs to show its form beside its results. */
static int
content_width_needed (DynoWindow *self)
{
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);

  if (page != NULL && DYNO_IS_QUERY_PAGE (adw_tab_page_get_child (page)))
    return dyno_query_page_get_side_by_side_width (
             DYNO_QUERY_PAGE (adw_tab_page_get_child (page)));
  return DYNO_WINDOW_SIDE_BY_SIDE_ESTIMATE;
}

/* The sidebar folds away (over the content, with Show Sidebar) before the page has to show
 * its form and results one at a time: a flap folds by its own rule only when even the folded
 * page does not fit, so the window decides, from its width, after each allocation. */
static gboolean
update_fold_cb (gpointer user_data)
{
  DynoWindow *self = user_data;
  int sidebar = 0;
  AdwFlapFoldPolicy policy;

  self->fold_idle = 0;
  gtk_widget_measure (self->sidebar, GTK_ORIENTATION_HORIZONTAL, -1, &sidebar, NULL, NULL, NULL);
  policy = self->allocated_width < sidebar + 1 + content_width_needed (self)
           ? ADW_FLAP_FOLD_POLICY_ALWAYS : ADW_FLAP_FOLD_POLICY_NEVER;
  if (adw_flap_get_fold_policy (self->flap) != policy)
    {
      adw_flap_set_fold_policy (self->flap, policy);
      /* unfolded, the sidebar is always there; folded, it starts hidden */
      adw_flap_set_reveal_flap (self->flap, policy == ADW_FLAP_FOLD_POLICY_NEVER);
    }
  return G_SOURCE_REMOVE;
}

static void
queue_update_fold (DynoWindow *self)
{
  if (self->fold_idle == 0)
    self->fold_idle = g_idle_add (update_fold_cb, self);
}

static void
dyno_window_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  DynoWindow *self = DYNO_WINDOW (widget);

  GTK_WIDGET_CLASS (dyno_window_parent_class)->size_allocate (widget, width, height, baseline);
  if (width != self->allocated_width)
    {
      self->allocated_width = width;
      queue_update_fold (self);
    }
}

static void
dyno_window_dispose (GObject *object)
{
  DynoWindow *self = DYNO_WINDOW (object);

  g_clear_handle_id (&self->fold_idle, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYNO_TYPE_WINDOW);

  G_OBJECT_CLASS (dyno_window_parent_class)->dispose (object);
}

static void
dyno_window_finalize (GObject *object)
{
  DynoWindow *self = DYNO_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  g_clear_object (&self->tree);
  g_clear_object (&self->connections);
  g_clear_object (&self->table_filter);
  g_clear_pointer (&self->pending_table, g_free);
  g_clear_pointer (&self->page_nodes, g_hash_table_unref);

  G_OBJECT_CLASS (dyno_window_parent_class)->finalize (object);
}

static void
dyno_window_class_init (DynoWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_window_dispose;
  object_class->finalize = dyno_window_finalize;
  widget_class->size_allocate = dyno_window_size_allocate;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, DynoWindow, main_menu_button);
  gtk_widget_class_bind_template_child (widget_class, DynoWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, DynoWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, DynoWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, DynoWindow, sidebar_stack);
  gtk_widget_class_bind_template_child (widget_class, DynoWindow, sidebar_list);
  gtk_widget_class_bind_template_child (widget_class, DynoWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, DynoWindow, tab_view);
  gtk_widget_class_bind_template_child (widget_class, DynoWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, DynoWindow, content_status);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, sidebar_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, selected_page_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, n_pages_changed_cb);

  gtk_widget_class_install_action (widget_class, "win.add-connection", NULL,
                                   add_connection_activated);
  gtk_widget_class_install_action (widget_class, "win.refresh", NULL, refresh_activated);

  gtk_widget_class_install_action (widget_class, "win.sso-sign-in", "s",
                                   sso_sign_in_activated);
  gtk_widget_class_install_action (widget_class, "win.edit-connection", "s",
                                   edit_connection_activated);
  gtk_widget_class_install_action (widget_class, "win.remove-connection", "s",
                                   remove_connection_activated);
  gtk_widget_class_install_action (widget_class, "win.search-tables", NULL,
                                   search_tables_activated);
  gtk_widget_class_install_action (widget_class, "win.new-tab", NULL, new_tab_activated);
  gtk_widget_class_install_action (widget_class, "win.open-partiql", NULL,
                                   open_partiql_activated);
  gtk_widget_class_install_action (widget_class, "win.open-builder", NULL,
                                   open_builder_activated);
  gtk_widget_class_install_action (widget_class, "win.new-table", "s", new_table_activated);
  gtk_widget_class_install_action (widget_class, "win.new-table-here", NULL, new_table_activated);
  gtk_widget_class_install_action (widget_class, "win.load-samples", "s", load_samples_activated);
  gtk_widget_class_install_action (widget_class, "win.import-model", "s", import_model_activated);
  gtk_widget_class_install_action (widget_class, "win.commit-playground", "s",
                                   commit_playground_activated);
  gtk_widget_class_install_action (widget_class, "win.check-patterns", "s",
                                   check_patterns_activated);
  gtk_widget_class_install_action (widget_class, "win.new-workspace", NULL,
                                   new_workspace_activated);
  gtk_widget_class_install_action (widget_class, "win.open-workspace", NULL,
                                   open_workspace_activated);
  gtk_widget_class_install_action (widget_class, "win.duplicate-workspace", "s",
                                   duplicate_workspace_activated);
  gtk_widget_class_install_action (widget_class, "win.export-workspace", "s",
                                   export_workspace_activated);
  gtk_widget_class_install_action (widget_class, "win.load-samples-here", NULL,
                                   load_samples_activated);
  gtk_widget_class_install_action (widget_class, "win.add-index", "(ss)", add_index_activated);
  gtk_widget_class_install_action (widget_class, "win.import-items", "(ss)",
                                   import_items_activated);
  gtk_widget_class_install_action (widget_class, "win.delete-table", "(ss)",
                                   delete_table_activated);
  gtk_widget_class_install_action (widget_class, "win.table-iac", "(ss)", table_iac_activated);
  gtk_widget_class_install_action (widget_class, "win.close-tab", NULL, close_tab_activated);
}

static void
dyno_window_init (DynoWindow *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;
  g_autoptr(GtkSingleSelection) selection = NULL;

  g_type_ensure (DYNO_TYPE_QUERY_PAGE);
  gtk_widget_init_template (GTK_WIDGET (self));
  /* GTK 4.8 gives menu buttons no accessible action: a screen reader can open it by one */
  dyno_widget_expose_activate (self->main_menu_button);

  self->cancellable = g_cancellable_new ();
  self->page_nodes = g_hash_table_new_full (NULL, NULL, g_object_unref, g_object_unref);
  g_signal_connect_object (self->tab_view, "page-detached", G_CALLBACK (page_detached_cb), self,
                           G_CONNECT_SWAPPED);
  self->settings = g_settings_new (APP_ID);
  self->connections = g_list_store_new (DYNO_TYPE_SIDEBAR_NODE);
  self->table_filter = gtk_string_filter_new (gtk_property_expression_new (DYNO_TYPE_SIDEBAR_NODE,
                                                                           NULL, "title"));
  gtk_string_filter_set_match_mode (self->table_filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->table_filter, TRUE);

  self->tree = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->connections)),
                                        FALSE, FALSE, create_children_cb, self, NULL);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), self);
  gtk_list_view_set_factory (self->sidebar_list, factory);

  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->tree)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_list_view_set_model (self->sidebar_list, GTK_SELECTION_MODEL (selection));

  g_signal_connect_object (self->connections, "items-changed",
                           G_CALLBACK (connections_changed_cb), self, G_CONNECT_SWAPPED);

  /* the sidebar keeps its width; a window too narrow for it and a table folds it away */
  gtk_widget_set_size_request (self->sidebar,
                               CLAMP (g_settings_get_int (self->settings, "sidebar-width"),
                                      220, 400), -1);
  /* decided before the first allocation, so that a narrow window starts narrow (its size is
   * refined from the page's needs once it is allocated: update_fold_cb) */
  if (g_settings_get_int (self->settings, "window-width") <
      CLAMP (g_settings_get_int (self->settings, "sidebar-width"), 220, 400) + 1 +
      DYNO_WINDOW_SIDE_BY_SIDE_ESTIMATE)
    {
      adw_flap_set_fold_policy (self->flap, ADW_FLAP_FOLD_POLICY_ALWAYS);
      adw_flap_set_reveal_flap (self->flap, FALSE);
    }
  g_settings_bind (self->settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-height", self, "default-height",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.close-tab", FALSE);
  {
    /* the main menu's check item: the Playground served on loopback, or not.  Not in the
     * Playground row's own menu: GTK 4.8 crashes (gdk_surface_request_motion) when an item
     * of a list row's popover that opens no window is activated while a table is open. */
    g_autoptr(GAction) serve = g_settings_create_action (self->settings, "serve-playground");

    g_action_map_add_action (G_ACTION_MAP (self), serve);
  }
}

DynoWindow *
dyno_window_new (DynoApplication *app)
{
  g_autoptr(GtkBuilder) builder = NULL;
  DynoConnectionStore *store = dyno_application_get_connection_store (app);
  DynoWindow *self;

  /* The shortcuts window is made before the main window, not by GtkApplication after it.
   * GTK 4.8 answers an accessibility client's GetChildAtIndex past the last shown window
   * (which happens when a dialog closes between the client's two calls) with the newest
   * window, shown or not; a never-shown shortcuts window has no accessible path, and that
   * reply aborts the app.  Made first, the newest window is the main one. */
  builder = gtk_builder_new_from_resource ("/com/dynotable/DynoTable/dyno-shortcuts-window.ui");
  self = g_object_new (DYNO_TYPE_WINDOW, "application", app, NULL);
  gtk_application_window_set_help_overlay (GTK_APPLICATION_WINDOW (self),
                                           GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (
                                             builder, "help_overlay")));

  store_items_changed_cb (G_LIST_MODEL (store), 0, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (store)), self);
  g_signal_connect_object (store, "items-changed", G_CALLBACK (store_items_changed_cb), self, 0);

  return self;
}

void
dyno_window_open_connection (DynoWindow     *self,
                             DynoConnection *connection,
                             const char     *table)
{
  g_autoptr(DynoSidebarNode) node = NULL;
  guint n;

  g_return_if_fail (DYNO_IS_WINDOW (self));
  g_return_if_fail (DYNO_IS_CONNECTION (connection));

  node = dyno_sidebar_node_new_connection (connection);
  g_list_store_append (self->connections, node);

  if (table != NULL)
    open_table_once_listed (self, node, table);

  dyno_sidebar_node_refresh (node, self->cancellable);

  /* Expand the new connection so its tables show. */
  n = g_list_model_get_n_items (G_LIST_MODEL (self->tree));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree), i);
      g_autoptr(DynoSidebarNode) item = gtk_tree_list_row_get_item (row);

      if (item == node)
        {
          gtk_tree_list_row_set_expanded (row, TRUE);
          break;
        }
    }
}

void
dyno_window_add_toast (DynoWindow *self,
                       const char *message)
{
  g_return_if_fail (DYNO_IS_WINDOW (self));

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

AdwToast *
dyno_window_add_toast_with_button (DynoWindow *self,
                                   const char *message,
                                   const char *button_label)
{
  AdwToast *toast;

  g_return_val_if_fail (DYNO_IS_WINDOW (self), NULL);

  toast = adw_toast_new (message);
  adw_toast_set_button_label (toast, button_label);
  /* long enough to reach for Undo */
  adw_toast_set_timeout (toast, 10);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  return toast;
}
