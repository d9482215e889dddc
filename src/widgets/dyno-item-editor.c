/* dyno-item-editor.c: create, edit or duplicate one item, with safe writes
 *
 * The edit lives in one of two views (DynamoDB JSON text, or the typed form); switching
 * converts it through a DynoItem, so nothing is lost and an invalid text cannot be switched
 * away from.  Save sends what dyno-safe-write builds (put-new or a conditioned edit); a
 * ConditionalCheckFailedException fetches the item as it is now and offers the conflict
 * dialog.  A save that failed without a usable answer (a lost connection, a 5xx, a broken
 * 200, or after retrying such a failure) may have been applied: the item as it is now tells
 * whether it was saved, not saved, or changed by someone else (the conflict dialog).  A
 * failed save never touches the edits.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-item-editor.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "dyno-code-view.h"
#include "dyno-conflict-dialog.h"
#include "dyno-error.h"
#include "dyno-http-backend.h"
#include "dyno-http-error.h"
#include "dyno-item-form.h"
#include "dyno-item-text.h"
#include "dyno-json.h"
#include "dyno-safe-write.h"
#include "dyno-sort-lint.h"
#include "dyno-tx-stage.h"
#include "dyno-widget-util.h"

#define ERROR_TAG "dyno-error-line"

struct _DynoItemEditor
{
  AdwWindow           parent_instance;

  DynoBackend        *backend;
  DynoTableInfo      *info;
  DynoItem           *loaded;      /* EDIT: the version the edit is conditioned on */
  DynoItem           *initial;     /* what the editor opened with (unsaved-changes check) */
  DynoItemEditorMode  mode;
  GPtrArray          *collection;  /* DynoItem*, may be NULL */
  char               *endpoint_url;
  char               *region;
  DynoItemEditorView  view;
  GCancellable       *cancellable;
  DynoItem           *saving_item; /* the user's version while a save is in flight */
  gboolean            saving;
  gboolean            saved;
  guint               retries_before;   /* the HTTP backend's retries when the save began */
  char               *unknown_outcome;  /* why a failed save may have been applied (checking) */
  DynoOperation       write_operation;  /* of the last save */
  double              write_capacity;   /* its ConsumedCapacity (WCU), -1 when not said */
  gint64              write_started;
  gint64              write_usec;
  gboolean            force_close;
  guint               loading;

  GtkWidget          *title;
  GtkWidget          *json_button;
  GtkWidget          *form_button;
  GtkWidget          *save_button;
  GtkWidget          *stage_button;
  GtkWidget          *save_error_label;
  GtkWidget          *stack;
  GtkWidget          *source_view;
  GtkSourceBuffer    *buffer;
  GtkWidget          *form;
  GtkWidget          *item_error_label;
  GtkWidget          *placement_label;
  GtkWidget          *lints_label;
  GtkWidget          *request_expander;
  GtkWidget          *request_reason_label;
  GtkWidget          *note_label;
  GtkWidget          *code_view;
  GtkWidget          *conflict_dialog;
  DynoItem           *conflict_mine;    /* what the open conflict dialog weighs */
  DynoItem           *conflict_theirs;  /* NULL: deleted meanwhile */
};

G_DEFINE_FINAL_TYPE (DynoItemEditor, dyno_item_editor, ADW_TYPE_WINDOW)

enum {
  SIGNAL_SAVED,
  SIGNAL_STAGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void refresh (DynoItemEditor *self);

static void
show_label (GtkWidget  *label,
            const char *text)
{
  gtk_label_set_label (GTK_LABEL (label), text ? text : "");
  gtk_widget_set_visible (label, text != NULL && text[0] != '\0');
}

/* “__type: message” for service errors, the message otherwise. */
static char *
describe_error (const GError *error)
{
  const DynoServiceError *service = dyno_error_get_service_info (error);

  if (service != NULL && service->type != NULL && service->message != NULL)
    return g_strdup_printf ("%s: %s", service->type, service->message);
  return g_strdup (error->message);
}

static gboolean
is_conditional_check_failed (const GError *error)
{
  const DynoServiceError *service = dyno_error_get_service_info (error);

  if (g_error_matches (error, DYNO_ERROR, DYNO_ERROR_CONDITIONAL_CHECK_FAILED))
    return TRUE;
  return service != NULL && g_strcmp0 (service->type, "ConditionalCheckFailedException") == 0;
}

/* Whether a failed save may have been applied: the answer was lost or broken (a network
 * error, a 2xx that is not JSON) or the service failed after it may have written (5xx), or an
 * earlier attempt of the same save was retried for one of those reasons. */
static gboolean
outcome_unknown (DynoItemEditor *self,
                 const GError   *error)
{
  const DynoServiceError *service = dyno_error_get_service_info (error);

  if (g_error_matches (error, DYNO_ERROR, DYNO_ERROR_NETWORK))
    return TRUE;
  if (service != NULL && service->http_status >= 500)
    return TRUE;
  return DYNO_IS_HTTP_BACKEND (self->backend)
         && dyno_http_backend_get_n_retries (DYNO_HTTP_BACKEND (self->backend))
            != self->retries_before;
}

static void
update_title (DynoItemEditor *self)
{
  const char *title = self->mode == DYNO_ITEM_EDITOR_EDIT ? _("Edit Item")
                      : self->mode == DYNO_ITEM_EDITOR_DUPLICATE ? _("Duplicate Item")
                      : _("New Item");

  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_window_title_set_title (ADW_WINDOW_TITLE (self->title), title);
  adw_window_title_set_subtitle (ADW_WINDOW_TITLE (self->title),
                                 dyno_table_info_get_name (self->info));
}

/* ---- text ----------------------------------------------------------------------------------- */

static char *
buffer_text (DynoItemEditor *self)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  return gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, FALSE);
}

static void
set_buffer_text (DynoItemEditor *self,
                 const char     *text)
{
  self->loading++;
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text, -1);
  self->loading--;
}

static void
mark_error_line (DynoItemEditor *self,
                 guint           line)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag_by_name (buffer, ERROR_TAG, &start, &end);
  if (line == 0)
    return;
  if (!gtk_text_buffer_get_iter_at_line (buffer, &start, (int) line - 1))
    return;
  end = start;
  if (!gtk_text_iter_ends_line (&end))
    gtk_text_iter_forward_to_line_end (&end);
  gtk_text_buffer_apply_tag_by_name (buffer, ERROR_TAG, &start, &end);
}

/* The item as the shown view has it; in the JSON view also marks the error's line. */
static DynoItem *
current_item (DynoItemEditor  *self,
              guint           *out_line,
              GError         **error)
{
  if (out_line != NULL)
    *out_line = 0;

  if (self->view == DYNO_ITEM_EDITOR_VIEW_JSON)
    {
      g_autofree char *text = buffer_text (self);

      return dyno_item_text_parse (text, -1, out_line, NULL, error);
    }
  return dyno_item_form_dup_item (DYNO_ITEM_FORM (self->form), error);
}

/* The skeleton of a new item: its key attributes with empty values of the schema's types. */
static DynoItem *
new_item_skeleton (DynoTableInfo *info)
{
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  const DynoKeyAttr *keys[2] = { dyno_table_info_get_partition_key (info),
                                 dyno_table_info_get_sort_key (info) };

  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      if (keys[i] == NULL || keys[i]->name == NULL)
        continue;
      dyno_value_builder_key (builder, keys[i]->name, -1);
      if (keys[i]->type == DYNO_VALUE_N)
        dyno_value_builder_add_number (builder, "0", -1, NULL);
      else if (keys[i]->type == DYNO_VALUE_B)
        dyno_value_builder_add_binary (builder, (const guint8 *) "", 0);
      else
        dyno_value_builder_add_string (builder, "", 0);
    }
  dyno_value_builder_end (builder, NULL);
  return dyno_item_new_take (dyno_value_builder_finish (builder));
}

/* ---- request --------------------------------------------------------------------------------- */

static gboolean
key_changed (DynoItemEditor *self,
             DynoItem       *edited,
             char          **out_name)
{
  const DynoKeyAttr *keys[2] = { dyno_table_info_get_partition_key (self->info),
                                 dyno_table_info_get_sort_key (self->info) };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const DynoValue *was, *now;

      if (keys[i] == NULL || keys[i]->name == NULL)
        continue;
      was = dyno_item_lookup (self->loaded, keys[i]->name);
      now = dyno_item_lookup (edited, keys[i]->name);
      if (was == NULL || now == NULL || !dyno_value_equal (was, now))
        {
          *out_name = g_strdup (keys[i]->name);
          return TRUE;
        }
    }
  return FALSE;
}

static DynoRequest *request_for_unchecked (DynoItemEditor *self, DynoItem *item,
                                           char **out_note, GError **error);

/* The write for @item, refused (NULL + error) when DynamoDB would refuse it: key sizes
 * (2048/1024 bytes), key types, empty keys, the expressions' limits. */
static DynoRequest *
request_for (DynoItemEditor  *self,
             DynoItem        *item,
             char           **out_note,
             GError         **error)
{
  g_autoptr(DynoRequest) request = request_for_unchecked (self, item, out_note, error);
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GString) message = NULL;

  if (request == NULL)
    return NULL;
  issues = dyno_request_validate (request, self->info);
  if (issues->len == 0)
    return g_steal_pointer (&request);

  message = g_string_new (NULL);
  for (guint i = 0; i < issues->len; i++)
    {
      const DynoIssue *issue = g_ptr_array_index (issues, i);

      g_string_append_printf (message, "%s%s", i > 0 ? "\n" : "", issue->message);
    }
  if (out_note != NULL)
    g_clear_pointer (out_note, g_free);
  g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION, message->str);
  return NULL;
}

static DynoRequest *
request_for_unchecked (DynoItemEditor  *self,
                       DynoItem        *item,
                       char           **out_note,
                       GError         **error)
{
  if (out_note != NULL)
    *out_note = NULL;

  if (self->mode == DYNO_ITEM_EDITOR_EDIT && self->loaded != NULL)
    {
      g_autofree char *name = NULL;
      DynoSafeWriteInfo write_info = { 0 };
      DynoRequest *request;

      /* Our choice: an edit never changes the key (DynamoDB identifies the item by it, and
       * a "rename" would be a put and a delete that are not atomic).  Duplicate does that. */
      if (key_changed (self, item, &name))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("The key attribute “%s” cannot be changed by an edit: DynamoDB "
                         "identifies the item by its key. Undo the change, or use Duplicate "
                         "to save the item under a new key."), name);
          return NULL;
        }
      request = dyno_safe_write_edit (self->info, self->loaded, item, NULL, &write_info, error);
      if (request != NULL && out_note != NULL)
        *out_note = g_strdup (write_info.note);
      dyno_safe_write_info_clear (&write_info);
      return request;
    }

  return dyno_safe_write_put_new (self->info, item, NULL, error);
}

/* ---- feedback -------------------------------------------------------------------------------- */

static char *
key_text (DynoItem   *item,
          const char *name)
{
  const DynoValue *value = item ? dyno_item_lookup (item, name) : NULL;

  if (value == NULL)
    return g_strdup ("?");
  if (dyno_value_get_kind (value) == DYNO_VALUE_B)
    {
      gsize len;
      const guint8 *data = dyno_value_get_binary (value, &len);
      g_autofree char *base64 = g_base64_encode (data, len);

      return g_strdup_printf ("“%s”", base64);
    }
  if (dyno_value_get_kind (value) == DYNO_VALUE_S || dyno_value_get_kind (value) == DYNO_VALUE_N)
    return g_strdup_printf ("“%s”", dyno_value_get_string (value, NULL));
  return dyno_value_to_ddb_json (value);
}

static void
update_placement (DynoItemEditor *self,
                  DynoItem       *item)
{
  g_autoptr(DynoSortPlacement) placement = NULL;
  const DynoKeyAttr *sk = dyno_table_info_get_sort_key (self->info);
  g_autoptr(GPtrArray) samples = NULL;
  g_autoptr(GString) lints = g_string_new (NULL);
  g_autofree char *text = NULL;

  /* An edit keeps its key, so it keeps its place: only new items get feedback. */
  if (item == NULL || self->mode == DYNO_ITEM_EDITOR_EDIT)
    {
      show_label (self->placement_label, NULL);
      show_label (self->lints_label, NULL);
      return;
    }

  samples = self->collection ? g_ptr_array_ref (self->collection)
                             : g_ptr_array_new ();
  placement = dyno_sort_lint_place_item (self->info, NULL, item, samples, NULL);
  if (placement == NULL)
    {
      show_label (self->placement_label, NULL);
      show_label (self->lints_label, NULL);
      return;
    }

  if (placement->replaces)
    text = g_strdup (_("Replaces an existing item: an item with this key is already in the "
                       "table (saving will ask before overwriting it)."));
  else if (sk == NULL || sk->name == NULL || placement->n_items == 0)
    text = g_strdup (_("First item of its collection among the items shown."));
  else if (placement->before == NULL)
    {
      g_autofree char *after = key_text (placement->after, sk->name);

      text = g_strdup_printf (_("Lands first in its collection, before %s."), after);
    }
  else if (placement->after == NULL)
    {
      g_autofree char *before = key_text (placement->before, sk->name);

      text = g_strdup_printf (_("Lands last in its collection, after %s."), before);
    }
  else
    {
      g_autofree char *before = key_text (placement->before, sk->name);
      g_autofree char *after = key_text (placement->after, sk->name);

      text = g_strdup_printf (_("Lands between %s and %s (position %u of %u)."), before, after,
                              placement->position + 1, placement->n_items + 1);
    }
  show_label (self->placement_label, text);

  for (guint i = 0; i < placement->lints->len; i++)
    {
      DynoSortLint *lint = g_ptr_array_index (placement->lints, i);

      g_string_append_printf (lints, "%s⚠ %s", lints->len > 0 ? "\n" : "", lint->message);
    }
  show_label (self->lints_label, lints->str);
}

static void
refresh (DynoItemEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = NULL;
  g_autoptr(DynoRequest) request = NULL;
  g_autofree char *note = NULL;
  guint line = 0;

  item = current_item (self, &line, &error);
  if (self->view == DYNO_ITEM_EDITOR_VIEW_JSON)
    mark_error_line (self, line);

  if (item == NULL)
    {
      /* The JSON readers' messages already say where (line and column). */
      show_label (self->item_error_label, error->message);
      show_label (self->request_reason_label, error->message);
      dyno_code_view_set_request (DYNO_CODE_VIEW (self->code_view), NULL, self->endpoint_url,
                                  self->region);
      show_label (self->note_label, NULL);
      gtk_widget_set_sensitive (self->save_button, FALSE);
      gtk_widget_set_sensitive (self->stage_button, FALSE);
      update_placement (self, NULL);
      return;
    }

  request = request_for (self, item, &note, &error);
  /* what DynamoDB would refuse in the item (a key too long, of the wrong type) is the
   * item field's error, where it was typed */
  show_label (self->item_error_label, request == NULL ? error->message : NULL);
  dyno_code_view_set_request (DYNO_CODE_VIEW (self->code_view), request, self->endpoint_url,
                              self->region);
  show_label (self->request_reason_label, request ? NULL : error->message);
  show_label (self->note_label, note);
  gtk_widget_set_sensitive (self->save_button, request != NULL && !self->saving);
  gtk_widget_set_tooltip_text (self->save_button, request ? NULL : error->message);
  gtk_widget_set_sensitive (self->stage_button, request != NULL && !self->saving);
  update_placement (self, item);
}

static void
buffer_changed_cb (DynoItemEditor *self)
{
  if (self->loading == 0)
    refresh (self);
}

static void
form_changed_cb (DynoItemEditor *self)
{
  refresh (self);
}

/* Loads @item into both views as the thing being edited: its keys first, then the rest in
 * a stable order (DynamoDB returns attributes in none). */
static void
load_item (DynoItemEditor *self,
           DynoItem       *item)
{
  const DynoKeyAttr *pk = self->info ? dyno_table_info_get_partition_key (self->info) : NULL;
  const DynoKeyAttr *sk = self->info ? dyno_table_info_get_sort_key (self->info) : NULL;
  const char *keys[3] = { NULL, NULL, NULL };
  g_autoptr(DynoItem) ordered = NULL;
  g_autofree char *text = NULL;
  guint n_keys = 0;

  if (pk != NULL && pk->name != NULL)
    keys[n_keys++] = pk->name;
  if (sk != NULL && sk->name != NULL)
    keys[n_keys++] = sk->name;
  ordered = dyno_item_new_ordered (item, keys);
  text = dyno_item_text_format (ordered);
  set_buffer_text (self, text);
  dyno_item_form_set_item (DYNO_ITEM_FORM (self->form), ordered);
  refresh (self);
}

/* ---- views ----------------------------------------------------------------------------------- */

static void
sync_toggles (DynoItemEditor *self)
{
  self->loading++;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->json_button),
                                self->view == DYNO_ITEM_EDITOR_VIEW_JSON);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->form_button),
                                self->view == DYNO_ITEM_EDITOR_VIEW_FORM);
  self->loading--;
}

gboolean
dyno_item_editor_set_view (DynoItemEditor     *self,
                           DynoItemEditorView  view)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = NULL;
  guint line = 0;

  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), FALSE);

  if (view == self->view)
    {
      sync_toggles (self);
      return TRUE;
    }

  item = current_item (self, &line, &error);
  if (item == NULL)
    {
      g_autofree char *message = NULL;

      if (self->view == DYNO_ITEM_EDITOR_VIEW_JSON)
        message = g_strdup_printf (_("%s Fix the JSON to switch to the form."), error->message);
      else
        message = g_strdup_printf (_("%s Fix the form to switch to DynamoDB JSON."),
                                   error->message);
      show_label (self->item_error_label, message);
      sync_toggles (self);
      return FALSE;
    }

  if (view == DYNO_ITEM_EDITOR_VIEW_FORM)
    {
      dyno_item_form_set_item (DYNO_ITEM_FORM (self->form), item);
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "form");
    }
  else
    {
      g_autofree char *text = dyno_item_text_format (item);

      set_buffer_text (self, text);
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "json");
    }
  self->view = view;
  sync_toggles (self);
  refresh (self);
  return TRUE;
}

DynoItemEditorView
dyno_item_editor_get_view (DynoItemEditor *self)
{
  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), DYNO_ITEM_EDITOR_VIEW_JSON);

  return self->view;
}

static void
json_toggled_cb (GtkToggleButton *button,
                 DynoItemEditor  *self)
{
  if (self->loading == 0 && gtk_toggle_button_get_active (button))
    dyno_item_editor_set_view (self, DYNO_ITEM_EDITOR_VIEW_JSON);
}

static void
form_toggled_cb (GtkToggleButton *button,
                 DynoItemEditor  *self)
{
  if (self->loading == 0 && gtk_toggle_button_get_active (button))
    dyno_item_editor_set_view (self, DYNO_ITEM_EDITOR_VIEW_FORM);
}

/* ---- saving ---------------------------------------------------------------------------------- */

static void save_done_cb (GObject *source, GAsyncResult *result, gpointer user_data);

static void
set_saving (DynoItemEditor *self,
            gboolean        saving)
{
  self->saving = saving;
  gtk_widget_set_sensitive (self->save_button, !saving);
  /* What is being sent is what the user sees: no edits while it is in flight. */
  gtk_widget_set_sensitive (self->stack, !saving);
  if (!saving)
    refresh (self);
}

static void
conflict_chosen_cb (DynoConflictDialog *dialog,
                    gint                choice,
                    DynoItemEditor     *self)
{
  g_autoptr(DynoItem) theirs = g_steal_pointer (&self->conflict_theirs);
  g_autoptr(DynoItem) mine = g_steal_pointer (&self->conflict_mine);

  self->conflict_dialog = NULL;

  switch ((DynoConflictChoice) choice)
    {
    case DYNO_CONFLICT_RELOAD:
      if (theirs == NULL)
        break;
      /* Their version becomes what the edit starts from. */
      g_clear_pointer (&self->loaded, dyno_item_unref);
      g_clear_pointer (&self->initial, dyno_item_unref);
      self->loaded = dyno_item_ref (theirs);
      self->initial = dyno_item_ref (theirs);
      self->mode = DYNO_ITEM_EDITOR_EDIT;
      update_title (self);
      show_label (self->save_error_label, NULL);
      load_item (self, theirs);
      break;

    case DYNO_CONFLICT_OVERWRITE:
      /* Mine wins, conditioned on what the user has now seen (theirs); an item that was
       * deleted meanwhile is put back as a new one. */
      g_clear_pointer (&self->loaded, dyno_item_unref);
      if (theirs != NULL)
        {
          self->loaded = dyno_item_ref (theirs);
          self->mode = DYNO_ITEM_EDITOR_EDIT;
        }
      else
        self->mode = DYNO_ITEM_EDITOR_NEW;
      update_title (self);
      if (mine != NULL)
        load_item (self, mine);
      dyno_item_editor_save (self);
      break;

    case DYNO_CONFLICT_CANCEL:
    default:
      break;
    }
}

static void
fetch_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(DynoItemEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;
  g_autoptr(DynoItem) theirs = NULL;
  g_autoptr(DynoItem) mine = g_steal_pointer (&self->saving_item);
  JsonObject *object;
  GtkWidget *dialog;

  response = dyno_backend_execute_finish (DYNO_BACKEND (source), result, &error);
  set_saving (self, FALSE);
  if (response == NULL)
    {
      g_autofree char *why = describe_error (error);
      g_autofree char *message = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_pointer (&self->unknown_outcome, g_free);
          return;
        }
      if (self->unknown_outcome != NULL)
        /* Translators: why the save failed, then why the item could not be read. */
        message = g_strdup_printf (_("The save got no usable answer and may have been "
                                     "applied (%s); reading the item to tell failed too: %s"),
                                   self->unknown_outcome, why);
      else
        message = g_strdup_printf (_("Someone changed the item since it was loaded, so it was "
                                     "not saved; reading its current version failed too: %s"),
                                   why);
      g_clear_pointer (&self->unknown_outcome, g_free);
      show_label (self->save_error_label, message);
      return;
    }

  object = JSON_NODE_HOLDS_OBJECT (response) ? json_node_get_object (response) : NULL;
  if (object != NULL && json_object_has_member (object, "Item"))
    {
      theirs = dyno_item_from_json_node (json_object_get_member (object, "Item"), &error);
      if (theirs == NULL)
        {
          g_clear_pointer (&self->unknown_outcome, g_free);
          show_label (self->save_error_label, error->message);
          return;
        }
    }

  /* The table holds exactly the user's version: the save's first attempt was applied and
   * its answer lost (a dropped connection, a 5xx after the write), so the retry's condition
   * saw our own write.  It is saved; there is no conflict to show. */
  if (theirs != NULL && dyno_item_equal (theirs, mine))
    {
      g_clear_pointer (&self->unknown_outcome, g_free);
      self->saved = TRUE;
      show_label (self->save_error_label, NULL);
      g_signal_emit (self, signals[SIGNAL_SAVED], 0, mine);
      gtk_window_close (GTK_WINDOW (self));
      return;
    }

  /* A save whose outcome was unknown, and the item is as it was before it: not applied. */
  if (self->unknown_outcome != NULL)
    {
      DynoItem *before = self->mode == DYNO_ITEM_EDITOR_EDIT ? self->loaded : NULL;
      gboolean unchanged = theirs == NULL ? before == NULL
                           : before != NULL && dyno_item_equal (theirs, before);
      g_autofree char *why = g_steal_pointer (&self->unknown_outcome);

      if (unchanged)
        {
          g_autofree char *message =
            /* Translators: why the save failed. */
            g_strdup_printf (_("The item was not saved (the table is unchanged): %s"), why);

          show_label (self->save_error_label, message);
          return;
        }
      /* Changed by someone else meanwhile: the conflict, as for a refused condition. */
    }

  dialog = dyno_conflict_dialog_new (GTK_WINDOW (self), self->loaded, mine, theirs);
  g_clear_pointer (&self->conflict_theirs, dyno_item_unref);
  g_clear_pointer (&self->conflict_mine, dyno_item_unref);
  self->conflict_theirs = theirs ? dyno_item_ref (theirs) : NULL;
  self->conflict_mine = dyno_item_ref (mine);
  g_signal_connect_object (dialog, "chosen", G_CALLBACK (conflict_chosen_cb), self, 0);
  self->conflict_dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
fetch_current (DynoItemEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) get = NULL;
  g_autoptr(DynoItem) key = NULL;

  key = dyno_safe_write_extract_key (self->info, self->saving_item, &error);
  if (key == NULL)
    {
      set_saving (self, FALSE);
      show_label (self->save_error_label, error->message);
      return;
    }
  get = dyno_request_new (DYNO_OP_GET_ITEM, dyno_table_info_get_name (self->info));
  get->key = g_steal_pointer (&key);
  get->consistent_read = DYNO_TRISTATE_TRUE;
  dyno_backend_execute_async (self->backend, get, self->cancellable, fetch_done_cb,
                              g_object_ref (self));
}

static void
save_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(DynoItemEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;
  g_autoptr(DynoItem) written = NULL;

  response = dyno_backend_execute_finish (DYNO_BACKEND (source), result, &error);
  if (response == NULL)
    {
      g_autofree char *message = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_pointer (&self->saving_item, dyno_item_unref);
          set_saving (self, FALSE);
          return;
        }
      /* The edits stay where they are: only the message changes. */
      message = describe_error (error);
      show_label (self->save_error_label, message);
      if (is_conditional_check_failed (error))
        {
          fetch_current (self);
          return;
        }
      /* It may have been applied: the item as it is now tells. */
      if (outcome_unknown (self, error))
        {
          self->unknown_outcome = g_steal_pointer (&message);
          fetch_current (self);
          return;
        }
      g_clear_pointer (&self->saving_item, dyno_item_unref);
      set_saving (self, FALSE);
      return;
    }

  written = g_steal_pointer (&self->saving_item);
  self->saving = FALSE;
  self->saved = TRUE;
  self->write_usec = g_get_monotonic_time () - self->write_started;
  self->write_capacity = -1;
  if (JSON_NODE_HOLDS_OBJECT (response))
    {
      JsonObject *object = json_node_get_object (response);
      JsonNode *consumed = json_object_get_member (object, "ConsumedCapacity");

      if (consumed != NULL && JSON_NODE_HOLDS_OBJECT (consumed) &&
          json_object_has_member (json_node_get_object (consumed), "CapacityUnits"))
        self->write_capacity = json_object_get_double_member (json_node_get_object (consumed),
                                                              "CapacityUnits");
    }
  show_label (self->save_error_label, NULL);
  g_signal_emit (self, signals[SIGNAL_SAVED], 0, written);
  gtk_window_close (GTK_WINDOW (self));
}

void
dyno_item_editor_save (DynoItemEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = NULL;
  g_autoptr(DynoRequest) request = NULL;

  g_return_if_fail (DYNO_IS_ITEM_EDITOR (self));

  if (self->saving)
    return;

  item = current_item (self, NULL, &error);
  if (item != NULL)
    request = request_for (self, item, NULL, &error);
  if (request == NULL)
    {
      show_label (self->save_error_label, error->message);
      return;
    }

  show_label (self->save_error_label, NULL);
  self->saving_item = g_steal_pointer (&item);
  set_saving (self, TRUE);
  /* what the write cost goes in the query page's ledger */
  request->return_consumed_capacity = DYNO_CONSUMED_TOTAL;
  self->write_operation = request->operation;
  self->write_started = g_get_monotonic_time ();
  g_clear_pointer (&self->unknown_outcome, g_free);
  self->retries_before = DYNO_IS_HTTP_BACKEND (self->backend)
                         ? dyno_http_backend_get_n_retries (DYNO_HTTP_BACKEND (self->backend))
                         : 0;
  dyno_backend_execute_async (self->backend, request, self->cancellable, save_done_cb,
                              g_object_ref (self));
}

void
dyno_item_editor_stage (DynoItemEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = NULL;
  g_autoptr(DynoItem) key = NULL;
  g_autoptr(DynoRequest) request = NULL;
  DynoTransactAction action;

  g_return_if_fail (DYNO_IS_ITEM_EDITOR (self));

  if (self->saving)
    return;

  item = current_item (self, NULL, &error);
  if (item != NULL)
    request = request_for (self, item, NULL, &error);
  if (request != NULL)
    key = dyno_safe_write_extract_key (self->info, item, &error);
  if (key == NULL)
    {
      show_label (self->save_error_label, error->message);
      return;
    }

  /* the same write Save would send, with its condition; a transaction's writes return
   * nothing of their own */
  request->return_values = DYNO_RETURN_VALUES_UNSET;
  request->return_consumed_capacity = DYNO_CONSUMED_UNSET;
  action = request->operation == DYNO_OP_UPDATE_ITEM ? DYNO_TRANSACT_UPDATE : DYNO_TRANSACT_PUT;
  if (!dyno_tx_stage_add (dyno_tx_stage_for_backend (self->backend), action, request, key,
                          &error))
    {
      show_label (self->save_error_label, error->message);
      return;
    }

  show_label (self->save_error_label, NULL);
  g_signal_emit (self, signals[SIGNAL_STAGED], 0);
  /* the edits live on in the transaction: closing loses nothing */
  self->force_close = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

/* ---- closing --------------------------------------------------------------------------------- */

gboolean
dyno_item_editor_has_unsaved_changes (DynoItemEditor *self)
{
  g_autoptr(DynoItem) item = NULL;

  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), FALSE);

  if (self->saved)
    return FALSE;
  item = current_item (self, NULL, NULL);
  return item == NULL || self->initial == NULL || !dyno_item_equal (item, self->initial);
}

static gboolean
close_when_idle (gpointer data)
{
  gtk_window_close (GTK_WINDOW (data));
  return G_SOURCE_REMOVE;
}

static void
discard_response_cb (AdwMessageDialog *dialog,
                     const char       *response,
                     DynoItemEditor   *self)
{
  if (g_strcmp0 (response, "discard") == 0)
    {
      self->force_close = TRUE;
      /* Closed once the question has gone: it holds itself while it emits "response", and
       * closing the editor now would leave it transient for a window that no longer exists. */
      g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_when_idle, g_object_ref (self),
                       g_object_unref);
    }
}

static gboolean
close_request_cb (DynoItemEditor *self)
{
  GtkWidget *dialog;

  if (self->force_close || !dyno_item_editor_has_unsaved_changes (self))
    return FALSE;

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Discard Unsaved Changes?"),
                                   _("The edits to this item have not been saved."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Keep Editing"),
                                    "discard", _("_Discard"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (discard_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

/* ---- public ---------------------------------------------------------------------------------- */

DynoItemEditorMode
dyno_item_editor_get_mode (DynoItemEditor *self)
{
  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), DYNO_ITEM_EDITOR_NEW);

  return self->mode;
}

char *
dyno_item_editor_dup_text (DynoItemEditor *self)
{
  g_autoptr(DynoItem) item = NULL;

  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), NULL);

  if (self->view == DYNO_ITEM_EDITOR_VIEW_JSON)
    return buffer_text (self);
  item = dyno_item_form_dup_item (DYNO_ITEM_FORM (self->form), NULL);
  return item ? dyno_item_text_format (item) : NULL;
}

void
dyno_item_editor_set_text (DynoItemEditor *self,
                           const char     *text)
{
  g_autoptr(DynoItem) item = NULL;

  g_return_if_fail (DYNO_IS_ITEM_EDITOR (self));
  g_return_if_fail (text != NULL);

  if (self->view == DYNO_ITEM_EDITOR_VIEW_JSON)
    {
      /* As typing would: the buffer's "changed" revalidates. */
      gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text, -1);
      return;
    }
  item = dyno_item_text_parse (text, -1, NULL, NULL, NULL);
  if (item != NULL)
    {
      dyno_item_form_set_item (DYNO_ITEM_FORM (self->form), item);
      refresh (self);
    }
}

DynoItem *
dyno_item_editor_dup_item (DynoItemEditor  *self,
                           GError         **error)
{
  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), NULL);

  return current_item (self, NULL, error);
}

DynoRequest *
dyno_item_editor_dup_request (DynoItemEditor  *self,
                              GError         **error)
{
  g_autoptr(DynoItem) item = NULL;

  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), NULL);

  item = current_item (self, NULL, error);
  return item ? request_for (self, item, NULL, error) : NULL;
}

GtkWidget *
dyno_item_editor_get_conflict_dialog (DynoItemEditor *self)
{
  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), NULL);

  return self->conflict_dialog;
}

/* The text view's buffer, with the tag that marks the line of a JSON error; the rest is
 * dyno-item-editor.ui. */
static void
build_ui (DynoItemEditor *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceLanguage *json = gtk_source_language_manager_get_language (languages, "json");

  self->buffer = gtk_source_buffer_new (NULL);
  if (json != NULL)
    gtk_source_buffer_set_language (self->buffer, json);
  gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (self->buffer), ERROR_TAG,
                              "underline", PANGO_UNDERLINE_ERROR,
                              "paragraph-background", "rgba(224,27,36,0.15)",
                              NULL);
  dyno_source_buffer_follow_style (self->buffer);
  g_signal_connect_swapped (self->buffer, "changed", G_CALLBACK (buffer_changed_cb), self);
  gtk_text_view_set_buffer (GTK_TEXT_VIEW (self->source_view), GTK_TEXT_BUFFER (self->buffer));
}

static gboolean
save_shortcut_cb (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   user_data)
{
  DynoItemEditor *self = DYNO_ITEM_EDITOR (widget);

  if (gtk_widget_get_sensitive (self->save_button))
    dyno_item_editor_save (self);
  return TRUE;
}

static gboolean
close_shortcut_cb (GtkWidget *widget,
                   GVariant  *args,
                   gpointer   user_data)
{
  gtk_window_close (GTK_WINDOW (widget));
  return TRUE;
}

static void
add_shortcuts (DynoItemEditor *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
    gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>s"),
                      gtk_callback_action_new (save_shortcut_cb, NULL, NULL)));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
    gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("Escape"),
                      gtk_callback_action_new (close_shortcut_cb, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

GtkWidget *
dyno_item_editor_new (GtkWindow          *parent,
                      DynoBackend        *backend,
                      DynoTableInfo      *info,
                      DynoItem           *loaded,
                      DynoItemEditorMode  mode,
                      GPtrArray          *collection_items,
                      const char         *endpoint_url,
                      const char         *region)
{
  DynoItemEditor *self;
  g_autoptr(DynoItem) start = NULL;

  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (mode != DYNO_ITEM_EDITOR_EDIT || loaded != NULL, NULL);

  self = g_object_new (DYNO_TYPE_ITEM_EDITOR,
                       "transient-for", parent,
                       NULL);
  self->backend = g_object_ref (backend);
  self->info = dyno_table_info_ref (info);
  self->mode = mode;
  self->collection = collection_items ? g_ptr_array_ref (collection_items) : NULL;
  self->endpoint_url = g_strdup (endpoint_url);
  self->region = g_strdup (region);
  if (mode == DYNO_ITEM_EDITOR_EDIT)
    self->loaded = dyno_item_ref (loaded);

  dyno_item_form_set_schema (DYNO_ITEM_FORM (self->form), info);
  start = loaded ? dyno_item_ref (loaded) : new_item_skeleton (info);
  self->initial = dyno_item_ref (start);
  update_title (self);
  load_item (self, start);
  return GTK_WIDGET (self);
}

static void
dyno_item_editor_dispose (GObject *object)
{
  DynoItemEditor *self = DYNO_ITEM_EDITOR (object);

  g_cancellable_cancel (self->cancellable);
  G_OBJECT_CLASS (dyno_item_editor_parent_class)->dispose (object);
}

static void
dyno_item_editor_finalize (GObject *object)
{
  DynoItemEditor *self = DYNO_ITEM_EDITOR (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->backend);
  g_clear_object (&self->buffer);
  g_clear_pointer (&self->info, dyno_table_info_unref);
  g_clear_pointer (&self->loaded, dyno_item_unref);
  g_clear_pointer (&self->initial, dyno_item_unref);
  g_clear_pointer (&self->saving_item, dyno_item_unref);
  g_clear_pointer (&self->conflict_mine, dyno_item_unref);
  g_clear_pointer (&self->conflict_theirs, dyno_item_unref);
  g_clear_pointer (&self->collection, g_ptr_array_unref);
  g_free (self->unknown_outcome);
  g_free (self->endpoint_url);
  g_free (self->region);
  G_OBJECT_CLASS (dyno_item_editor_parent_class)->finalize (object);
}

static void
dyno_item_editor_class_init (DynoItemEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyno_item_editor_dispose;
  object_class->finalize = dyno_item_editor_finalize;

  signals[SIGNAL_STAGED] = g_signal_new ("staged", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_SAVED] = g_signal_new ("saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 1, DYNO_TYPE_ITEM);

  gtk_source_init ();
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  g_type_ensure (DYNO_TYPE_ITEM_FORM);
  g_type_ensure (DYNO_TYPE_CODE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/com/dynotable/DynoTable/dyno-item-editor.ui");
#define BIND(member) gtk_widget_class_bind_template_child (widget_class, DynoItemEditor, member)
  BIND (title);
  BIND (json_button);
  BIND (form_button);
  BIND (save_button);
  BIND (stage_button);
  BIND (save_error_label);
  BIND (stack);
  BIND (source_view);
  BIND (form);
  BIND (item_error_label);
  BIND (placement_label);
  BIND (lints_label);
  BIND (request_expander);
  BIND (request_reason_label);
  BIND (note_label);
  BIND (code_view);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, json_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, form_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, form_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, close_request_cb);
  gtk_widget_class_bind_template_callback (widget_class, dyno_item_editor_save);
  gtk_widget_class_bind_template_callback (widget_class, dyno_item_editor_stage);
}

static void
dyno_item_editor_init (DynoItemEditor *self)
{
  self->cancellable = g_cancellable_new ();
  self->view = DYNO_ITEM_EDITOR_VIEW_JSON;
  gtk_widget_init_template (GTK_WIDGET (self));
  build_ui (self);
  add_shortcuts (self);
}

DynoItem *
dyno_item_editor_get_loaded (DynoItemEditor *self)
{
  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), NULL);
  return self->loaded;
}

const char *
dyno_item_editor_get_write_operation (DynoItemEditor *self)
{
  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), NULL);
  return self->saved ? dyno_operation_to_string (self->write_operation) : NULL;
}

double
dyno_item_editor_get_write_capacity (DynoItemEditor *self)
{
  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), -1);
  return self->saved ? self->write_capacity : -1;
}

gint64
dyno_item_editor_get_write_usec (DynoItemEditor *self)
{
  g_return_val_if_fail (DYNO_IS_ITEM_EDITOR (self), 0);
  return self->write_usec;
}
