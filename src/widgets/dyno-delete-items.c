/* dyno-delete-items.c: delete one or many items, after a confirmation that says how many
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-delete-items.h"

#include <glib/gi18n.h>

#include "dyno-error.h"
#include "dyno-http-error.h"
#include "dyno-safe-write.h"

/* The progress dialog of a batch: its layout is dyno-delete-items.ui. */
#define DYNO_TYPE_DELETE_PROGRESS (dyno_delete_progress_get_type ())
G_DECLARE_FINAL_TYPE (DynoDeleteProgress, dyno_delete_progress, DYNO, DELETE_PROGRESS,
                      AdwMessageDialog)

struct _DynoDeleteProgress {
  AdwMessageDialog  parent_instance;
  GtkWidget        *progress_bar;
};

G_DEFINE_FINAL_TYPE (DynoDeleteProgress, dyno_delete_progress, ADW_TYPE_MESSAGE_DIALOG)

static void
dyno_delete_progress_class_init (DynoDeleteProgressClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-delete-items.ui");
  gtk_widget_class_bind_template_child (widget_class, DynoDeleteProgress, progress_bar);
}

static void
dyno_delete_progress_init (DynoDeleteProgress *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

typedef struct {
  GtkWindow           *parent;
  DynoBackend         *backend;
  DynoTableInfo       *info;
  GPtrArray           *items;   /* DynoItem* as loaded */
  GPtrArray           *keys;    /* DynoItem*: their keys */
  DynoDeleteItemsDone  done;
  gpointer             user_data;
  GDestroyNotify       destroy;
  GCancellable        *cancellable;
  GtkWidget           *progress_dialog;
  GtkWidget           *progress_bar;
  guint                n_done;
  GError              *key_error;  /* an item without its key: nothing is deleted */
} DeleteRun;

static void
delete_run_free (DeleteRun *run)
{
  if (run->destroy != NULL)
    run->destroy (run->user_data);
  g_clear_object (&run->parent);
  g_clear_object (&run->backend);
  g_clear_object (&run->cancellable);
  g_clear_pointer (&run->info, dyno_table_info_unref);
  g_clear_pointer (&run->items, g_ptr_array_unref);
  g_clear_pointer (&run->keys, g_ptr_array_unref);
  g_clear_error (&run->key_error);
  g_free (run);
}

/* pk = “USER#1”, sk = “ORDER#9” */
static char *
describe_key (DynoItem *key)
{
  const DynoValue *map = dyno_item_get_map (key);
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < dyno_value_get_n_children (map); i++)
    {
      const DynoValue *value = dyno_value_get_child (map, i);
      g_autofree char *text = NULL;

      if (dyno_value_get_kind (value) == DYNO_VALUE_B)
        {
          gsize len;
          const guint8 *data = dyno_value_get_binary (value, &len);

          text = g_base64_encode (data, len);
        }
      else
        text = g_strdup (dyno_value_get_string (value, NULL));
      g_string_append_printf (out, "%s%s = “%s”", i > 0 ? ", " : "",
                              dyno_value_get_member_name (map, i, NULL), text);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
show_result (DeleteRun    *run,
             GPtrArray    *deleted,
             const GError *error)
{
  guint n = run->keys->len;
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  if (error == NULL)
    {
      heading = g_strdup_printf (ngettext ("Deleted %u item", "Deleted %u items", n), n);
      body = n == 1 ? describe_key (g_ptr_array_index (run->keys, 0))
                    : g_strdup_printf (_("All %u items were deleted from “%s”."), n,
                                       dyno_table_info_get_name (run->info));
    }
  else
    {
      heading = g_strdup_printf (ngettext ("Deleted %u of %u item", "Deleted %u of %u items", n),
                                 deleted->len > 0 ? deleted->len : run->n_done, n);
      body = g_strdup (error->message);
    }

  dialog = adw_message_dialog_new (run->parent, heading, body);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
finish (DeleteRun    *run,
        GPtrArray    *deleted,
        gboolean      cancelled,
        const GError *error)
{
  if (run->progress_dialog != NULL)
    {
      gtk_window_destroy (GTK_WINDOW (run->progress_dialog));
      run->progress_dialog = NULL;
    }
  /* success is told by the caller, with a toast that can undo it; a failure needs reading */
  if (!cancelled && error != NULL)
    show_result (run, deleted, error);
  if (run->done != NULL)
    run->done (deleted, run->keys->len, cancelled, error, run->user_data);
  delete_run_free (run);
}

static void
delete_one_done_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  DeleteRun *run = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;
  g_autoptr(GPtrArray) deleted = g_ptr_array_new ();

  response = dyno_backend_execute_finish (DYNO_BACKEND (source), result, &error);
  if (response == NULL)
    {
      const DynoServiceError *service = dyno_error_get_service_info (error);

      if (g_error_matches (error, DYNO_ERROR, DYNO_ERROR_CONDITIONAL_CHECK_FAILED) ||
          (service != NULL && g_strcmp0 (service->type, "ConditionalCheckFailedException") == 0))
        {
          g_autoptr(GError) explained =
            g_error_new (DYNO_ERROR, DYNO_ERROR_CONDITIONAL_CHECK_FAILED,
                         _("The item was changed or deleted since it was loaded, so it was "
                           "not deleted. Reload to see its current version. (%s)"),
                         error->message);

          finish (run, deleted, FALSE, explained);
          return;
        }
      finish (run, deleted, g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED),
              g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? NULL : error);
      return;
    }

  g_ptr_array_add (deleted, g_ptr_array_index (run->keys, 0));
  finish (run, deleted, FALSE, NULL);
}

static void
batch_progress_cb (guint    done,
                   guint    total,
                   gpointer user_data)
{
  DeleteRun *run = user_data;

  run->n_done = done;
  if (run->progress_bar != NULL && total > 0)
    {
      g_autofree char *text = g_strdup_printf (_("%u of %u deleted"), done, total);

      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (run->progress_bar),
                                     (double) done / total);
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (run->progress_bar), text);
    }
}

/* “pk = “a”; pk = “b”; … and 7 more” */
static char *
describe_keys (DeleteRun *run,
               GArray    *indexes)
{
  g_autoptr(GString) out = g_string_new (NULL);
  guint shown = MIN (indexes->len, 10u);

  for (guint i = 0; i < shown; i++)
    {
      g_autofree char *key = describe_key (g_ptr_array_index (run->keys,
                                                              g_array_index (indexes, guint, i)));

      g_string_append_printf (out, "%s%s", i > 0 ? "; " : "", key);
    }
  if (indexes->len > shown)
    g_string_append_printf (out, ngettext (" and %u more", " and %u more",
                                           indexes->len - shown), indexes->len - shown);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
batch_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  DeleteRun *run = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) deleted = g_ptr_array_new ();
  g_autoptr(GArray) unwritten = NULL;
  guint n_written = 0;

  if (!dyno_backend_batch_write_finish_full (DYNO_BACKEND (source), result, &n_written,
                                             &unwritten, NULL, &error))
    {
      gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_autoptr(GError) explained = NULL;
      g_autofree char *remaining = describe_keys (run, unwritten);
      guint next = 0;

      /* The server acknowledged all but @unwritten: those are deleted for sure. */
      for (guint i = 0; i < run->keys->len; i++)
        {
          if (next < unwritten->len && g_array_index (unwritten, guint, next) == i)
            {
              next++;
              continue;
            }
          g_ptr_array_add (deleted, g_ptr_array_index (run->keys, i));
        }
      run->n_done = deleted->len;

      if (cancelled)
        explained = g_error_new (DYNO_ERROR, DYNO_ERROR_FAILED,
                                 _("Cancelled after %u of %u items were deleted. Not deleted "
                                   "(or not confirmed): %s."), deleted->len, run->keys->len,
                                 remaining);
      else
        explained = g_error_new (error->domain, error->code,
                                 _("%s %u of %u items were deleted. Not deleted (or not "
                                   "confirmed): %s."), error->message, deleted->len,
                                 run->keys->len, remaining);
      finish (run, deleted, FALSE, explained);
      return;
    }

  for (guint i = 0; i < run->keys->len; i++)
    g_ptr_array_add (deleted, g_ptr_array_index (run->keys, i));
  finish (run, deleted, FALSE, NULL);
}

static void
progress_response_cb (AdwMessageDialog *dialog,
                      const char       *response,
                      DeleteRun        *run)
{
  /* The dialog is destroyed by finish(); the response only asks to stop. */
  g_cancellable_cancel (run->cancellable);
}

static void
start_delete (DeleteRun *run)
{
  g_autoptr(GError) error = NULL;

  if (run->items->len == 1)
    {
      g_autoptr(DynoRequest) request = dyno_safe_write_delete (run->info,
                                                               g_ptr_array_index (run->items, 0),
                                                               NULL, NULL, &error);

      if (request == NULL)
        {
          g_autoptr(GPtrArray) none = g_ptr_array_new ();

          finish (run, none, FALSE, error);
          return;
        }
      dyno_backend_execute_async (run->backend, request, run->cancellable, delete_one_done_cb,
                                  run);
      return;
    }

  run->progress_dialog = g_object_new (DYNO_TYPE_DELETE_PROGRESS,
                                       "transient-for", run->parent,
                                       NULL);
  run->progress_bar = DYNO_DELETE_PROGRESS (run->progress_dialog)->progress_bar;
  g_signal_connect (run->progress_dialog, "response", G_CALLBACK (progress_response_cb), run);
  batch_progress_cb (0, run->keys->len, run);
  gtk_window_present (GTK_WINDOW (run->progress_dialog));

  dyno_backend_batch_write_async (run->backend, dyno_table_info_get_name (run->info), NULL,
                                  run->keys, batch_progress_cb, run, run->cancellable,
                                  batch_done_cb, run);
}

static void
confirm_response_cb (AdwMessageDialog *dialog,
                     const char       *response,
                     DeleteRun        *run)
{
  if (g_strcmp0 (response, "delete") == 0)
    start_delete (run);
  else
    {
      g_autoptr(GPtrArray) none = g_ptr_array_new ();

      if (run->done != NULL)
        run->done (none, run->items->len, run->key_error == NULL, run->key_error,
                   run->user_data);
      delete_run_free (run);
    }
}

GtkWidget *
dyno_delete_items_run (GtkWindow           *parent,
                       DynoBackend         *backend,
                       DynoTableInfo       *info,
                       GPtrArray           *items,
                       DynoDeleteItemsDone  done,
                       gpointer             user_data,
                       GDestroyNotify       destroy)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  DeleteRun *run;
  GtkWidget *dialog;
  guint n;

  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (items != NULL && items->len > 0, NULL);

  run = g_new0 (DeleteRun, 1);
  run->parent = parent ? g_object_ref (parent) : NULL;
  run->backend = g_object_ref (backend);
  run->info = dyno_table_info_ref (info);
  run->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  run->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  run->done = done;
  run->user_data = user_data;
  run->destroy = destroy;
  run->cancellable = g_cancellable_new ();

  for (guint i = 0; i < items->len; i++)
    {
      DynoItem *item = g_ptr_array_index (items, i);
      DynoItem *key = dyno_safe_write_extract_key (info, item, error ? NULL : &error);

      g_ptr_array_add (run->items, dyno_item_ref (item));
      if (key != NULL)
        g_ptr_array_add (run->keys, key);
    }
  n = items->len;

  if (error != NULL)
    {
      heading = g_strdup (_("Cannot Delete"));
      body = g_strdup_printf (_("Not every selected item has its key, so nothing was deleted: "
                                "%s"), error->message);
      run->key_error = g_steal_pointer (&error);
      dialog = adw_message_dialog_new (parent, heading, body);
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Close"));
      g_signal_connect (dialog, "response", G_CALLBACK (confirm_response_cb), run);
      gtk_window_present (GTK_WINDOW (dialog));
      return dialog;
    }

  heading = g_strdup_printf (ngettext ("Delete %u item?", "Delete %u items?", n), n);
  if (n == 1)
    {
      g_autofree char *key = describe_key (g_ptr_array_index (run->keys, 0));

      body = g_strdup_printf (_("The item %s will be deleted from “%s”, provided it still has "
                                "the values you loaded. Until the next write, Undo puts it "
                                "back."), key,
                              dyno_table_info_get_name (info));
    }
  else
    body = g_strdup_printf (_("%u items will be deleted from “%s”. Until the next write, Undo "
                              "puts them back."), n,
                            dyno_table_info_get_name (info));

  dialog = adw_message_dialog_new (parent, heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "delete", ngettext ("_Delete Item", "_Delete Items", n),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (confirm_response_cb), run);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}
