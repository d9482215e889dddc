/* dyno-page-ledger.c: one row per page of a run (Count, ScannedCount, capacity, bytes, time,
 * LastEvaluatedKey, or NextToken for a PartiQL statement's pages)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "dyno-json.h"
#include "dyno-page-ledger.h"

typedef enum {
  COLUMN_PAGE,
  COLUMN_COUNT,
  COLUMN_SCANNED,
  COLUMN_CAPACITY,
  COLUMN_BYTES,
  COLUMN_TIME,
  COLUMN_LAST_KEY,
  N_COLUMNS
} LedgerColumn;

struct _DynoPageLedger
{
  GtkWidget  parent_instance;

  DynoRun   *run;
  GtkWidget *stack;
  GtkWidget *column_view;
  GtkColumnViewColumn *last_key_column;
};

G_DEFINE_FINAL_TYPE (DynoPageLedger, dyno_page_ledger, GTK_TYPE_WIDGET)

/* A write the user made while looking at the run: a line of its own, in WCU. */
static char *
write_cell_text (DynoRunPage  *page,
                 LedgerColumn  column)
{
  switch (column)
    {
    case COLUMN_PAGE:
      return g_strdup (dyno_run_page_get_operation (page));
    case COLUMN_COUNT:
      return g_strdup_printf ("%" G_GINT64_FORMAT, dyno_run_page_get_count (page));
    case COLUMN_CAPACITY:
      if (dyno_run_page_get_consumed_capacity (page) < 0)
        return g_strdup ("—");
      /* Translators: write capacity units, in the read capacity column of the page ledger */
      return g_strdup_printf (_("%g WCU"), dyno_run_page_get_consumed_capacity (page));
    case COLUMN_TIME:
      if (dyno_run_page_get_elapsed_usec (page) <= 0)
        return g_strdup ("—");
      return g_strdup_printf (_("%.0f ms"), dyno_run_page_get_elapsed_usec (page) / 1000.0);
    case COLUMN_SCANNED:
    case COLUMN_BYTES:
    case COLUMN_LAST_KEY:
      return g_strdup ("—");
    case N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

static char *
page_cell_text (DynoRunPage  *page,
                LedgerColumn  column)
{
  if (dyno_run_page_get_operation (page) != NULL)
    return write_cell_text (page, column);

  switch (column)
    {
    case COLUMN_PAGE:
      if (dyno_run_page_get_segment (page) > 0)
        return g_strdup_printf ("%u (%s %u)", dyno_run_page_get_index (page) + 1, _("segment"),
                                dyno_run_page_get_segment (page));
      return g_strdup_printf ("%u", dyno_run_page_get_index (page) + 1);

    case COLUMN_COUNT:
      return g_strdup_printf ("%" G_GINT64_FORMAT, dyno_run_page_get_count (page));

    case COLUMN_SCANNED:
      return g_strdup_printf ("%" G_GINT64_FORMAT, dyno_run_page_get_scanned_count (page));

    case COLUMN_CAPACITY:
      if (dyno_run_page_get_consumed_capacity (page) < 0)
        return g_strdup ("—");
      return g_strdup_printf ("%g", dyno_run_page_get_consumed_capacity (page));

    case COLUMN_BYTES:
      return g_format_size (dyno_run_page_get_bytes (page));

    case COLUMN_TIME:
      return g_strdup_printf (_("%.0f ms"), dyno_run_page_get_elapsed_usec (page) / 1000.0);

    case COLUMN_LAST_KEY:
      if (dyno_run_page_get_is_statement (page))
        {
          const char *token = dyno_run_page_get_next_token (page);
          return token ? g_strdup (token) : g_strdup (_("— (last page)"));
        }
      else
        {
          DynoItem *key = dyno_run_page_get_last_evaluated_key (page);
          return key ? dyno_item_to_ddb_json (key) : g_strdup (_("— (last page)"));
        }

    case N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          gpointer                  user_data)
{
  LedgerColumn column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), column == COLUMN_LAST_KEY ? 0 : 1);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (column == COLUMN_LAST_KEY)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *copy = gtk_button_new_from_icon_name ("edit-copy-symbolic");

      gtk_widget_add_css_class (label, "monospace");
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (copy, "flat");
      gtk_widget_set_tooltip_text (copy, _("Copy LastEvaluatedKey"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (copy), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Copy LastEvaluatedKey"), -1);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), copy);
      gtk_list_item_set_child (list_item, box);
      return;
    }

  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
copy_key_cb (GtkButton *button,
             GtkLabel  *label)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (button)),
                          gtk_label_get_label (label));
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         gpointer                  user_data)
{
  LedgerColumn column = GPOINTER_TO_INT (user_data);
  DynoRunPage *page = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autofree char *text = page_cell_text (page, column);

  if (column == COLUMN_LAST_KEY)
    {
      GtkWidget *label = gtk_widget_get_first_child (child);
      GtkWidget *copy = gtk_widget_get_next_sibling (label);

      gboolean statement = dyno_run_page_get_is_statement (page);
      const char *copy_label = statement ? _("Copy NextToken") : _("Copy LastEvaluatedKey");

      gtk_label_set_label (GTK_LABEL (label), text);
      gtk_widget_set_visible (copy, (statement ? dyno_run_page_get_next_token (page) != NULL
                                               : dyno_run_page_get_last_evaluated_key (page)
                                                 != NULL) &&
                                    dyno_run_page_get_operation (page) == NULL);
      gtk_widget_set_tooltip_text (copy, copy_label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (copy), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      copy_label, -1);
      g_signal_handlers_disconnect_matched (copy, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, copy_key_cb,
                                            NULL);
      g_signal_connect (copy, "clicked", G_CALLBACK (copy_key_cb), label);
      return;
    }

  gtk_label_set_label (GTK_LABEL (child), text);
}

static void
pages_changed_cb (DynoPageLedger *self)
{
  guint n = self->run ? g_list_model_get_n_items (dyno_run_get_pages (self->run)) : 0;

  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), n > 0 ? "pages" : "empty");
}

static void
dyno_page_ledger_dispose (GObject *object)
{
  DynoPageLedger *self = DYNO_PAGE_LEDGER (object);

  g_clear_object (&self->run);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYNO_TYPE_PAGE_LEDGER);

  G_OBJECT_CLASS (dyno_page_ledger_parent_class)->dispose (object);
}

static void
dyno_page_ledger_class_init (DynoPageLedgerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_page_ledger_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-page-ledger.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoPageLedger, stack);
  gtk_widget_class_bind_template_child (widget_class, DynoPageLedger, column_view);
}

static void
dyno_page_ledger_init (DynoPageLedger *self)
{
  const char *titles[N_COLUMNS] = {
    _("Page"), _("Count"), _("Scanned"), _("RCU"), _("Bytes"), _("Time"), _("LastEvaluatedKey"),
  };

  gtk_widget_init_template (GTK_WIDGET (self));

  /* the columns, one factory each */
  for (int i = 0; i < N_COLUMNS; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (i));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GINT_TO_POINTER (i));
      column = gtk_column_view_column_new (titles[i], factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, i == COLUMN_LAST_KEY);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), column);
      if (i == COLUMN_LAST_KEY)
        self->last_key_column = column;   /* the column view holds it */
      g_object_unref (column);
    }
}

GtkWidget *
dyno_page_ledger_new (void)
{
  return g_object_new (DYNO_TYPE_PAGE_LEDGER, NULL);
}

void
dyno_page_ledger_set_run (DynoPageLedger *self,
                          DynoRun        *run)
{
  g_return_if_fail (DYNO_IS_PAGE_LEDGER (self));

  if (self->run != NULL)
    g_signal_handlers_disconnect_by_data (dyno_run_get_pages (self->run), self);
  g_set_object (&self->run, run);

  /* a statement's pages continue with NextToken, not LastEvaluatedKey */
  gtk_column_view_column_set_title (self->last_key_column,
                                    run != NULL && dyno_run_get_statement (run) != NULL
                                    ? _("NextToken") : _("LastEvaluatedKey"));

  if (run != NULL)
    {
      g_autoptr(GtkNoSelection) selection =
        gtk_no_selection_new (g_object_ref (dyno_run_get_pages (run)));

      gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view),
                                 GTK_SELECTION_MODEL (selection));
      g_signal_connect_swapped (dyno_run_get_pages (run), "items-changed",
                                G_CALLBACK (pages_changed_cb), self);
    }
  else
    {
      gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), NULL);
    }

  pages_changed_cb (self);
}
