/* dyno-transaction-dialog.c: the staged writes of a connection, to review and commit
 *
 * One row per staged write: what it does, on which table and key, under which condition,
 * and (after a cancelled commit) why DynamoDB refused it, with a Remove button.  Commit
 * Transaction sends them all as one TransactWriteItems; Discard empties the set.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "dyno-transaction-dialog.h"
#include "dyno-error.h"
#include "dyno-expr.h"
#include "dyno-http-error.h"
#include "dyno-json.h"
#include "dyno-widget-util.h"

struct _DynoTransactionDialog
{
  AdwWindow     parent_instance;

  DynoTxStage  *stage;
  GCancellable *cancellable;
  GtkWidget    *stack;
  GtkWidget    *list;
  GtkWidget    *error_label;
  GtkWidget    *commit_button;
  GtkWidget    *discard_button;
  GtkWidget    *spinner;
};

G_DEFINE_FINAL_TYPE (DynoTransactionDialog, dyno_transaction_dialog, ADW_TYPE_WINDOW)

static const char *
action_label (DynoTransactAction action)
{
  switch (action)
    {
    case DYNO_TRANSACT_PUT:             return _("Put");
    case DYNO_TRANSACT_UPDATE:          return _("Update");
    case DYNO_TRANSACT_DELETE:          return _("Delete");
    case DYNO_TRANSACT_CONDITION_CHECK: return _("Condition Check");
    case DYNO_TRANSACT_GET:
    default:                            return _("Get");
    }
}

static char *
row_title (DynoTxStage *stage,
           guint        i)
{
  const DynoRequest *request = dyno_tx_stage_get_request (stage, i);

  /* Translators: "Put on orders", "Condition Check on users" */
  return g_strdup_printf (_("%s on %s"), action_label (dyno_tx_stage_get_action (stage, i)),
                          request->table_name);
}

static char *
row_subtitle (DynoTxStage *stage,
              guint        i)
{
  const DynoRequest *request = dyno_tx_stage_get_request (stage, i);
  g_autofree char *key = dyno_item_to_plain_json (dyno_tx_stage_get_key (stage, i));
  GString *text = g_string_new (NULL);
  const char *code = dyno_tx_stage_get_reason_code (stage, i);

  /* Translators: the key of a staged write, as JSON */
  g_string_append_printf (text, _("Key: %s"), key);
  if (request->condition != NULL)
    {
      g_autofree char *condition = dyno_expr_to_inline (request->condition);

      g_string_append_c (text, '\n');
      /* Translators: the ConditionExpression of a staged write */
      g_string_append_printf (text, _("Condition: %s"), condition);
    }
  if (code != NULL && g_strcmp0 (code, "None") != 0)
    {
      const char *message = dyno_tx_stage_get_reason_message (stage, i);

      g_string_append_c (text, '\n');
      /* Translators: why DynamoDB refused a write of the transaction: Code, Message */
      if (message != NULL)
        g_string_append_printf (text, _("Refused: %s: %s"), code, message);
      else
        g_string_append_printf (text, _("Refused: %s"), code);
    }
  return g_string_free (text, FALSE);
}

/* stage.remove(u): the Remove button of the write at that index */
static void
remove_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DynoTransactionDialog *self = DYNO_TRANSACTION_DIALOG (widget);
  guint index = g_variant_get_uint32 (parameter);

  if (!dyno_tx_stage_get_committing (self->stage) &&
      index < dyno_tx_stage_get_n_writes (self->stage))
    dyno_tx_stage_remove (self->stage, index);
}

static void
rebuild (DynoTransactionDialog *self)
{
  GtkWidget *child;
  guint n = dyno_tx_stage_get_n_writes (self->stage);
  gboolean committing = dyno_tx_stage_get_committing (self->stage);

  while ((child = gtk_widget_get_first_child (self->list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->list), child);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = row_title (self->stage, i);
      g_autofree char *subtitle = row_subtitle (self->stage, i);
      g_autofree char *remove_name = NULL;
      const char *code = dyno_tx_stage_get_reason_code (self->stage, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      if (code != NULL && g_strcmp0 (code, "None") != 0)
        gtk_widget_add_css_class (row, "error");

      /* Translators: accessible name of the button removing a staged write */
      remove_name = g_strdup_printf (_("Remove %s"), title);
      gtk_widget_set_tooltip_text (remove, _("Remove From Transaction"));
      dyno_widget_set_accessible_label (remove, remove_name);
      gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (remove, "flat");
      gtk_widget_set_sensitive (remove, !committing);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "stage.remove");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (remove), "u", i);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);

      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      title, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle, -1);
      gtk_list_box_append (GTK_LIST_BOX (self->list), row);
    }

  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), n > 0 ? "writes" : "empty");
  gtk_widget_set_sensitive (self->commit_button, n > 0 && !committing);
  gtk_widget_set_sensitive (self->discard_button, n > 0 && !committing);
  gtk_widget_set_visible (self->spinner, committing);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), committing);
}

static void
show_error (DynoTransactionDialog *self,
            const char            *message)
{
  gtk_label_set_text (GTK_LABEL (self->error_label), message ? message : "");
  gtk_widget_set_visible (self->error_label, message != NULL && *message != '\0');
}

static void
commit_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(DynoTransactionDialog) self = dyno_weak_ref_steal (user_data);
  g_autoptr(GError) error = NULL;

  if (dyno_tx_stage_commit_finish (DYNO_TX_STAGE (source), result, &error))
    {
      if (self != NULL)
        show_error (self, NULL);
      return;
    }
  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  {
    const DynoServiceError *info = dyno_error_get_service_info (error);
    g_autofree char *message = NULL;

    if (g_error_matches (error, DYNO_ERROR, DYNO_ERROR_NETWORK) ||
        (info != NULL && info->http_status >= 500))
      /* Translators: the answer to a commit was lost; %s says why */
      message = g_strdup_printf (_("The commit got no usable answer, so it may or may not have "
                                   "been applied. Committing again is safe: it is sent as the "
                                   "same transaction and applied at most once. (%s)"),
                                 error->message);
    else
      /* Translators: the transaction was not applied, and why */
      message = g_strdup_printf (_("Nothing was written: %s"), error->message);
    show_error (self, message);
  }
}

void
dyno_transaction_dialog_commit (DynoTransactionDialog *self)
{
  g_return_if_fail (DYNO_IS_TRANSACTION_DIALOG (self));

  if (dyno_tx_stage_get_committing (self->stage) ||
      dyno_tx_stage_get_n_writes (self->stage) == 0)
    return;
  show_error (self, NULL);
  dyno_tx_stage_commit_async (self->stage, self->cancellable, commit_done_cb,
                              dyno_weak_ref_new (self));
}

static void
discard_clicked_cb (DynoTransactionDialog *self)
{
  if (dyno_tx_stage_get_committing (self->stage))
    return;
  show_error (self, NULL);
  dyno_tx_stage_clear (self->stage);
}

const char *
dyno_transaction_dialog_get_error (DynoTransactionDialog *self)
{
  g_return_val_if_fail (DYNO_IS_TRANSACTION_DIALOG (self), NULL);
  return gtk_widget_get_visible (self->error_label)
         ? gtk_label_get_text (GTK_LABEL (self->error_label)) : "";
}

char *
dyno_transaction_dialog_dup_row_text (DynoTransactionDialog *self,
                                      guint                  index)
{
  g_autofree char *title = NULL, *subtitle = NULL;

  g_return_val_if_fail (DYNO_IS_TRANSACTION_DIALOG (self), NULL);
  if (index >= dyno_tx_stage_get_n_writes (self->stage))
    return NULL;
  title = row_title (self->stage, index);
  subtitle = row_subtitle (self->stage, index);
  return g_strdup_printf ("%s\n%s", title, subtitle);
}

static void
build (DynoTransactionDialog *self)
{
  GtkWidget *view = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *empty = adw_status_page_new ();
  GtkWidget *intro;

  gtk_window_set_title (GTK_WINDOW (self), _("Transaction"));
  gtk_window_set_default_size (GTK_WINDOW (self), 560, 480);
  gtk_box_append (GTK_BOX (view), header);

  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (empty), "view-list-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (empty), _("No Staged Writes"));
  adw_status_page_set_description (ADW_STATUS_PAGE (empty),
                                   _("Use “Add to Transaction” in the item editor, or the "
                                     "Transaction menu above a table’s items, to write "
                                     "several items all or nothing."));
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");

  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  intro = dyno_wrapping_label_new (_("These writes are sent together as one "
                                     "TransactWriteItems: either all are applied, or none."));
  gtk_widget_add_css_class (intro, "dim-label");
  gtk_box_append (GTK_BOX (box), intro);

  self->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (self->list, "boxed-list");
  dyno_widget_set_accessible_label (self->list, _("Staged writes"));
  gtk_box_append (GTK_BOX (box), self->list);

  self->error_label = dyno_wrapping_label_new ("");
  gtk_widget_add_css_class (self->error_label, "error");
  gtk_label_set_selectable (GTK_LABEL (self->error_label), TRUE);
  gtk_widget_set_visible (self->error_label, FALSE);
  gtk_box_append (GTK_BOX (box), self->error_label);

  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  self->spinner = gtk_spinner_new ();
  gtk_widget_set_visible (self->spinner, FALSE);
  gtk_box_append (GTK_BOX (buttons), self->spinner);
  self->discard_button = gtk_button_new_with_mnemonic (_("_Discard"));
  gtk_widget_set_tooltip_text (self->discard_button, _("Remove All Staged Writes"));
  dyno_widget_set_accessible_label (self->discard_button, _("Discard"));
  g_signal_connect_swapped (self->discard_button, "clicked", G_CALLBACK (discard_clicked_cb),
                            self);
  gtk_box_append (GTK_BOX (buttons), self->discard_button);
  self->commit_button = gtk_button_new_with_mnemonic (_("_Commit Transaction"));
  gtk_widget_add_css_class (self->commit_button, "suggested-action");
  dyno_widget_set_accessible_label (self->commit_button, _("Commit Transaction"));
  g_signal_connect_swapped (self->commit_button, "clicked",
                            G_CALLBACK (dyno_transaction_dialog_commit), self);
  gtk_box_append (GTK_BOX (buttons), self->commit_button);
  gtk_box_append (GTK_BOX (box), buttons);

  adw_clamp_set_child (ADW_CLAMP (clamp), box);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), clamp);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_stack_add_named (GTK_STACK (self->stack), scrolled, "writes");
  gtk_box_append (GTK_BOX (view), self->stack);
  adw_window_set_content (ADW_WINDOW (self), view);
}

/* stage -> its one window, while it is open */
static GHashTable *dialogs;

GtkWidget *
dyno_transaction_dialog_present (GtkWindow   *parent,
                                 DynoTxStage *stage)
{
  DynoTransactionDialog *self;

  g_return_val_if_fail (DYNO_IS_TX_STAGE (stage), NULL);

  if (dialogs == NULL)
    dialogs = g_hash_table_new (NULL, NULL);
  self = g_hash_table_lookup (dialogs, stage);
  if (self == NULL)
    {
      self = g_object_new (DYNO_TYPE_TRANSACTION_DIALOG, NULL);
      self->stage = g_object_ref (stage);
      build (self);
      g_signal_connect_object (stage, "changed", G_CALLBACK (rebuild), self,
                               G_CONNECT_SWAPPED);
      g_hash_table_insert (dialogs, stage, self);
      rebuild (self);
    }
  if (parent != NULL)
    gtk_window_set_transient_for (GTK_WINDOW (self), parent);
  gtk_window_present (GTK_WINDOW (self));
  return GTK_WIDGET (self);
}

static void
dyno_transaction_dialog_dispose (GObject *object)
{
  DynoTransactionDialog *self = DYNO_TRANSACTION_DIALOG (object);

  /* a commit in flight goes on when the window closes: its outcome reaches the stage (and
   * the pages refreshed on "committed"), and the set stays staged if it fails */
  g_clear_object (&self->cancellable);
  if (self->stage != NULL && dialogs != NULL &&
      g_hash_table_lookup (dialogs, self->stage) == self)
    g_hash_table_remove (dialogs, self->stage);
  g_clear_object (&self->stage);
  G_OBJECT_CLASS (dyno_transaction_dialog_parent_class)->dispose (object);
}

static void
dyno_transaction_dialog_class_init (DynoTransactionDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = dyno_transaction_dialog_dispose;
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_install_action (widget_class, "stage.remove", "u", remove_activated);
}

static void
dyno_transaction_dialog_init (DynoTransactionDialog *self)
{
  self->cancellable = g_cancellable_new ();
}
