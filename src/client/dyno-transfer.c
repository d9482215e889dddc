/* dyno-transfer.c: import a file into a table (BatchWriteItem) and export items to a file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-transfer.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "dyno-error.h"
#include "dyno-item-object.h"
#include "dyno-json.h"

/* BatchWriteItem takes 25 requests; a few batches in flight keep the server busy. */
#define BATCH_ITEMS     25
#define MAX_IN_FLIGHT   4
#define READ_CHUNK      (64 * 1024)
/* Loaded items are written in slices so that the main loop keeps turning. */
#define EXPORT_SLICE    1000

const char *
dyno_transfer_row_status_to_string (DynoTransferRowStatus status)
{
  switch (status)
    {
    case DYNO_TRANSFER_ROW_REJECTED:
      return "rejected";
    case DYNO_TRANSFER_ROW_FAILED:
      return "failed";
    case DYNO_TRANSFER_ROW_NOT_WRITTEN:
    default:
      return "not-written";
    }
}

void
dyno_transfer_row_free (DynoTransferRow *row)
{
  if (row == NULL)
    return;
  g_free (row->reason);
  g_free (row);
}

char *
dyno_transfer_format_count (guint64 n)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
  GString *out = g_string_new (NULL);
  gsize len = strlen (digits);

  /* Grouped by ',' as the summaries in the brief show; locales differ, but a grouped number
   * reads better than none and stays unambiguous next to the words. */
  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

/* ---- import: chunks of up to 25 items ----------------------------------------------------- */

typedef struct {
  GPtrArray *items;   /* DynoItem* */
  GArray    *rows;    /* guint64 */
  GArray    *lines;   /* guint64 */
  GPtrArray *keys;    /* char*: dyno_import_key_string() */
  guint      stalled; /* rounds in a row in which the server processed none of them */
} Chunk;

static Chunk *
chunk_new (void)
{
  Chunk *chunk = g_new0 (Chunk, 1);

  chunk->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  chunk->rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  chunk->lines = g_array_new (FALSE, FALSE, sizeof (guint64));
  chunk->keys = g_ptr_array_new_with_free_func (g_free);
  return chunk;
}

static void
chunk_free (Chunk *chunk)
{
  if (chunk == NULL)
    return;
  g_ptr_array_unref (chunk->items);
  g_array_unref (chunk->rows);
  g_array_unref (chunk->lines);
  g_ptr_array_unref (chunk->keys);
  g_free (chunk);
}

static void
chunk_add (Chunk    *chunk,
           DynoItem *item,
           guint64   row,
           guint64   line,
           char     *key)
{
  g_ptr_array_add (chunk->items, item);
  g_array_append_val (chunk->rows, row);
  g_array_append_val (chunk->lines, line);
  g_ptr_array_add (chunk->keys, key);
}

static gboolean
chunk_has_key (Chunk      *chunk,
               const char *key)
{
  for (guint i = 0; i < chunk->keys->len; i++)
    if (strcmp (g_ptr_array_index (chunk->keys, i), key) == 0)
      return TRUE;
  return FALSE;
}

/* ---- import job -------------------------------------------------------------------------- */

struct _DynoImportJob
{
  GObject           parent_instance;

  DynoBackend      *backend;
  DynoTableInfo    *table;
  DynoImportFormat  format;
  GHashTable       *mapping;
  gboolean          dry_run;
  gboolean          keep_rows;
  guint             backoff_base_ms;
  guint             backoff_max_ms;
  guint             max_stalled;
  gboolean          cancel_in_flight;
  guint64           start_line;
  guint64           n_skipped;
  guint64           first_unwritten_line; /* 0: none */
  guint64           last_line_read;

  GTask            *task;          /* while running */
  GCancellable     *cancellable;
  gulong            cancelled_id;
  guint             cancel_idle_id;
  GInputStream     *input;
  guint64           bytes_total;
  DynoImporter     *importer;
  gboolean          read_pending;
  gboolean          input_complete;
  gboolean          reading_done;  /* END, FAILED, cancel or a fatal error */
  Chunk            *current;
  GQueue            retry;         /* Chunk*: to send again (single items, unprocessed) */
  GList            *waiting;       /* BatchCall*: in backoff before a retry */
  GHashTable       *keys_in_flight; /* key string → count */
  guint             in_flight;     /* batches sent or waiting */
  DynoItem         *held;          /* an item whose key is in flight: waits */
  guint64           held_row;
  guint64           held_line;
  char             *held_key;
  guint64           n_written;
  guint64           n_rejected;
  guint64           n_failed;
  guint64           n_not_written;
  GPtrArray        *rows;
  GError           *fatal;
  gboolean          finished;
};

enum {
  IMPORT_PROGRESS,
  IMPORT_ROW,
  IMPORT_WRITTEN,
  N_IMPORT_SIGNALS
};

static guint import_signals[N_IMPORT_SIGNALS];

G_DEFINE_FINAL_TYPE (DynoImportJob, dyno_import_job, G_TYPE_OBJECT)

typedef struct {
  DynoImportJob *job;
  Chunk         *chunk;
  guint          timeout_id;
} BatchCall;

static void
batch_call_free (BatchCall *call)
{
  g_assert (call->timeout_id == 0);
  chunk_free (call->chunk);
  g_object_unref (call->job);
  g_free (call);
}

static void
dyno_import_job_finalize (GObject *object)
{
  DynoImportJob *self = DYNO_IMPORT_JOB (object);

  g_assert (self->task == NULL);
  g_clear_object (&self->backend);
  g_clear_pointer (&self->table, dyno_table_info_unref);
  g_clear_pointer (&self->mapping, g_hash_table_unref);
  g_clear_object (&self->input);
  g_clear_pointer (&self->importer, dyno_importer_free);
  g_clear_pointer (&self->current, chunk_free);
  g_queue_clear_full (&self->retry, (GDestroyNotify) chunk_free);
  g_clear_pointer (&self->keys_in_flight, g_hash_table_unref);
  g_clear_pointer (&self->held, dyno_item_unref);
  g_free (self->held_key);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_error (&self->fatal);

  G_OBJECT_CLASS (dyno_import_job_parent_class)->finalize (object);
}

static void
dyno_import_job_class_init (DynoImportJobClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_import_job_finalize;

  import_signals[IMPORT_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);
  import_signals[IMPORT_ROW] =
    g_signal_new ("row", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  import_signals[IMPORT_WRITTEN] =
    g_signal_new ("written", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);
}

static void
dyno_import_job_init (DynoImportJob *self)
{
  self->keep_rows = TRUE;
  self->backoff_base_ms = 50;
  self->backoff_max_ms = 20000;
  self->max_stalled = 8;
  g_queue_init (&self->retry);
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_transfer_row_free);
}

DynoImportJob *
dyno_import_job_new (DynoBackend      *backend,
                     DynoTableInfo    *table,
                     DynoImportFormat  format)
{
  DynoImportJob *self;

  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (table != NULL, NULL);

  self = g_object_new (DYNO_TYPE_IMPORT_JOB, NULL);
  self->backend = g_object_ref (backend);
  self->table = dyno_table_info_ref (table);
  self->format = format;
  return self;
}

void
dyno_import_job_set_type_mapping (DynoImportJob *self,
                                  GHashTable    *mapping)
{
  g_return_if_fail (DYNO_IS_IMPORT_JOB (self));
  g_return_if_fail (self->task == NULL);

  g_clear_pointer (&self->mapping, g_hash_table_unref);
  if (mapping != NULL)
    self->mapping = g_hash_table_ref (mapping);
}

void
dyno_import_job_set_dry_run (DynoImportJob *self,
                             gboolean       dry_run)
{
  g_return_if_fail (DYNO_IS_IMPORT_JOB (self));
  self->dry_run = !!dry_run;
}

void
dyno_import_job_set_keep_rows (DynoImportJob *self,
                               gboolean       keep_rows)
{
  g_return_if_fail (DYNO_IS_IMPORT_JOB (self));
  self->keep_rows = !!keep_rows;
}

void
dyno_import_job_set_backoff (DynoImportJob *self,
                             guint          base_ms,
                             guint          max_ms,
                             guint          max_stalled)
{
  g_return_if_fail (DYNO_IS_IMPORT_JOB (self));
  self->backoff_base_ms = MAX (base_ms, 1);
  self->backoff_max_ms = MAX (max_ms, self->backoff_base_ms);
  self->max_stalled = MAX (max_stalled, 1);
}

static void
import_report_row (DynoImportJob         *self,
                   guint64                row,
                   guint64                line,
                   DynoTransferRowStatus  status,
                   const char            *reason)
{
  DynoTransferRow *report = g_new0 (DynoTransferRow, 1);

  report->row = row;
  report->line = line;
  report->status = status;
  report->reason = g_strdup (reason);
  if (status != DYNO_TRANSFER_ROW_REJECTED
      && (self->first_unwritten_line == 0 || line < self->first_unwritten_line))
    self->first_unwritten_line = line;
  switch (status)
    {
    case DYNO_TRANSFER_ROW_REJECTED:
      self->n_rejected++;
      break;
    case DYNO_TRANSFER_ROW_FAILED:
      self->n_failed++;
      break;
    case DYNO_TRANSFER_ROW_NOT_WRITTEN:
    default:
      self->n_not_written++;
      break;
    }
  g_signal_emit (self, import_signals[IMPORT_ROW], 0, report);
  if (self->keep_rows)
    g_ptr_array_add (self->rows, report);
  else
    dyno_transfer_row_free (report);
}

static void
import_report_chunk (DynoImportJob         *self,
                     Chunk                 *chunk,
                     DynoTransferRowStatus  status,
                     const char            *reason)
{
  for (guint i = 0; i < chunk->items->len; i++)
    import_report_row (self, g_array_index (chunk->rows, guint64, i),
                       g_array_index (chunk->lines, guint64, i), status, reason);
}

static void
import_hold_keys (DynoImportJob *self,
                  Chunk         *chunk)
{
  for (guint i = 0; i < chunk->keys->len; i++)
    {
      const char *key = g_ptr_array_index (chunk->keys, i);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (self->keys_in_flight, key));

      g_hash_table_insert (self->keys_in_flight, g_strdup (key), GUINT_TO_POINTER (count + 1));
    }
}

static void
import_release_key (DynoImportJob *self,
                    const char    *key)
{
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (self->keys_in_flight, key));

  if (count <= 1)
    g_hash_table_remove (self->keys_in_flight, key);
  else
    g_hash_table_insert (self->keys_in_flight, g_strdup (key), GUINT_TO_POINTER (count - 1));
}

static void
import_release_keys (DynoImportJob *self,
                     Chunk         *chunk)
{
  for (guint i = 0; i < chunk->keys->len; i++)
    import_release_key (self, g_ptr_array_index (chunk->keys, i));
}

static void import_pump (DynoImportJob *self);
static void import_send_call (BatchCall *call);

static const char *
import_stop_reason (DynoImportJob *self)
{
  return self->fatal != NULL ? _("Not written: the import stopped after a server failure.")
                             : _("Not written: the import was cancelled.");
}

/* Sends @call->chunk again after a jittered, exponentially growing delay. */
static gboolean
import_backoff_done_cb (gpointer user_data)
{
  BatchCall *call = user_data;
  DynoImportJob *self = call->job;

  call->timeout_id = 0;
  self->waiting = g_list_remove (self->waiting, call);
  if (g_cancellable_is_cancelled (self->cancellable) || self->fatal != NULL)
    {
      /* Stopped while waiting: these were never written. */
      import_report_chunk (self, call->chunk, DYNO_TRANSFER_ROW_NOT_WRITTEN,
                           import_stop_reason (self));
      import_release_keys (self, call->chunk);
      self->in_flight--;
      g_object_ref (self);
      batch_call_free (call);
      import_pump (self);
      g_object_unref (self);
      return G_SOURCE_REMOVE;
    }
  import_send_call (call);
  return G_SOURCE_REMOVE;
}

static void
import_backoff (BatchCall *call)
{
  DynoImportJob *self = call->job;
  guint shift = MIN (call->chunk->stalled, 16u);
  guint64 ceiling = MIN ((guint64) self->backoff_max_ms, (guint64) self->backoff_base_ms << shift);
  guint delay = (guint) (g_random_double () * (double) ceiling);

  self->waiting = g_list_prepend (self->waiting, call);
  call->timeout_id = g_timeout_add (delay, import_backoff_done_cb, call);
}

/* Stop: batches waiting for a retry give up now (rows reported as not written). */
static void
import_abort_waiting (DynoImportJob *self)
{
  while (self->waiting != NULL)
    {
      BatchCall *call = self->waiting->data;

      g_source_remove (call->timeout_id);
      call->timeout_id = 0;
      self->waiting = g_list_delete_link (self->waiting, self->waiting);
      import_report_chunk (self, call->chunk, DYNO_TRANSFER_ROW_NOT_WRITTEN,
                           import_stop_reason (self));
      import_release_keys (self, call->chunk);
      self->in_flight--;
      batch_call_free (call);
    }
}

static Chunk *
chunk_copy (Chunk *chunk)
{
  Chunk *copy = chunk_new ();

  for (guint i = 0; i < chunk->items->len; i++)
    chunk_add (copy, dyno_item_ref (g_ptr_array_index (chunk->items, i)),
               g_array_index (chunk->rows, guint64, i), g_array_index (chunk->lines, guint64, i),
               g_strdup (g_ptr_array_index (chunk->keys, i)));
  return copy;
}

/* Which items of the chunk came back in UnprocessedItems: a new chunk of them (*@again NULL
 * when none), in their original order.  FALSE when @root is not the output of the
 * BatchWriteItem that was sent (not an object, unprocessed items of another table or that
 * were not sent): then nothing is known to be written. */
static gboolean
import_take_unprocessed (DynoImportJob *self,
                         Chunk         *chunk,
                         JsonNode      *root,
                         Chunk        **again_out)
{
  JsonObject *object;
  JsonNode *unprocessed, *list;
  JsonArray *array;
  g_autoptr(GHashTable) pending = NULL;
  g_autoptr(GList) names = NULL;
  Chunk *again = NULL;
  guint n_listed = 0, n_found = 0;

  *again_out = NULL;
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  object = json_node_get_object (root);
  unprocessed = json_object_get_member (object, "UnprocessedItems");
  if (unprocessed == NULL || JSON_NODE_HOLDS_NULL (unprocessed))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (unprocessed))
    return FALSE;
  names = json_object_get_members (json_node_get_object (unprocessed));
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *other = json_object_get_member (json_node_get_object (unprocessed), l->data);

      if (strcmp (l->data, dyno_table_info_get_name (self->table)) != 0
          && (!JSON_NODE_HOLDS_ARRAY (other)
              || json_array_get_length (json_node_get_array (other)) > 0))
        return FALSE;
    }
  list = json_object_get_member (json_node_get_object (unprocessed),
                                 dyno_table_info_get_name (self->table));
  if (list == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (list))
    return FALSE;

  array = json_node_get_array (list);
  pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *request = json_array_get_element (array, i);
      JsonNode *put;
      JsonNode *item_node;
      g_autoptr(DynoItem) item = NULL;
      char *key;

      if (!JSON_NODE_HOLDS_OBJECT (request)
          || (put = json_object_get_member (json_node_get_object (request),
                                            "PutRequest")) == NULL
          || !JSON_NODE_HOLDS_OBJECT (put)
          || (item_node = json_object_get_member (json_node_get_object (put), "Item")) == NULL
          || (item = dyno_item_from_json_node (item_node, NULL)) == NULL
          || (key = dyno_import_key_string (self->table, item)) == NULL)
        return FALSE;
      if (!g_hash_table_add (pending, key))
        return FALSE;   /* the same request twice */
      n_listed++;
    }

  for (guint i = 0; i < chunk->items->len; i++)
    {
      const char *key = g_ptr_array_index (chunk->keys, i);

      if (!g_hash_table_contains (pending, key))
        continue;
      n_found++;
      if (again == NULL)
        again = chunk_new ();
      chunk_add (again, dyno_item_ref (g_ptr_array_index (chunk->items, i)),
                 g_array_index (chunk->rows, guint64, i),
                 g_array_index (chunk->lines, guint64, i), g_strdup (key));
    }
  if (n_found != n_listed)
    {
      /* It names a request that was not sent. */
      chunk_free (again);
      return FALSE;
    }
  *again_out = again;
  return TRUE;
}

static void
import_batch_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  BatchCall *call = user_data;
  g_autoptr(DynoImportJob) self = g_object_ref (call->job);
  Chunk *chunk = call->chunk;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) root = NULL;

  body = dyno_backend_call_finish (DYNO_BACKEND (source), result, &error);
  if (body != NULL)
    {
      gsize len;
      const char *data = g_bytes_get_data (body, &len);

      root = dyno_json_parse (data != NULL ? data : "{}", data != NULL ? len : 2, NULL);
    }

  if (error == NULL)
    {
      Chunk *again = NULL;
      gboolean understood = import_take_unprocessed (self, chunk, root, &again);
      guint n_again;

      /* An answer that is not this BatchWriteItem's output (cut short, garbled) says nothing
       * about what was written: the whole chunk goes again (puts are idempotent), as after a
       * 5xx, and the round counts as one in which nothing was processed. */
      if (!understood)
        again = chunk_copy (chunk);
      n_again = again != NULL ? again->items->len : 0;

      self->n_written += chunk->items->len - n_again;
      /* Release the keys of what was written; the unprocessed ones stay in flight. */
      {
        gboolean tell = g_signal_has_handler_pending (self, import_signals[IMPORT_WRITTEN], 0,
                                                      FALSE);
        g_autoptr(GPtrArray) written = tell ? g_ptr_array_new () : NULL;

        for (guint i = 0; i < chunk->keys->len; i++)
          {
            const char *key = g_ptr_array_index (chunk->keys, i);

            if (again == NULL || !chunk_has_key (again, key))
              {
                import_release_key (self, key);
                if (written != NULL)
                  g_ptr_array_add (written, g_ptr_array_index (chunk->items, i));
              }
          }
        if (written != NULL && written->len > 0)
          g_signal_emit (self, import_signals[IMPORT_WRITTEN], 0, written);
      }

      if (again != NULL)
        {
          again->stalled = n_again == chunk->items->len ? chunk->stalled + 1 : 0;
          chunk_free (call->chunk);
          call->chunk = again;
          if (again->stalled >= self->max_stalled)
            {
              g_autofree char *reason = NULL;

              g_clear_error (&self->fatal);
              if (understood)
                self->fatal = g_error_new (DYNO_ERROR, DYNO_ERROR_THROTTLED,
                                           _("BatchWriteItem: %u items were still unprocessed "
                                             "after %u attempts in a row; the table is "
                                             "probably throttled."), n_again, again->stalled);
              else
                self->fatal = g_error_new (DYNO_ERROR, DYNO_ERROR_NETWORK,
                                           _("The BatchWriteItem response was not valid %u "
                                             "times in a row; %u items were not written."),
                                           again->stalled, n_again);
              reason = g_strdup_printf (_("Not written: %s"), self->fatal->message);
              import_report_chunk (self, again, DYNO_TRANSFER_ROW_FAILED, reason);
              import_release_keys (self, again);
              self->in_flight--;
              batch_call_free (call);
            }
          else
            import_backoff (call);   /* still in flight */
        }
      else
        {
          self->in_flight--;
          batch_call_free (call);
        }
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* Cancelled in flight (set_cancel_in_flight): the server may or may not have
       * applied it. */
      import_release_keys (self, chunk);
      self->in_flight--;
      import_report_chunk (self, chunk, DYNO_TRANSFER_ROW_NOT_WRITTEN,
                           _("Not confirmed: the import was cancelled while this batch was "
                             "in flight; it may or may not have been written."));
      batch_call_free (call);
    }
  else if (error->domain == DYNO_ERROR && error->code == DYNO_ERROR_SERVICE_VALIDATION)
    {
      import_release_keys (self, chunk);
      self->in_flight--;
      /* One bad item fails the whole BatchWriteItem: write them one by one to find it. */
      if (chunk->items->len == 1)
        import_report_row (self, g_array_index (chunk->rows, guint64, 0),
                           g_array_index (chunk->lines, guint64, 0),
                           DYNO_TRANSFER_ROW_REJECTED, error->message);
      else
        for (guint i = 0; i < chunk->items->len; i++)
          {
            Chunk *single = chunk_new ();

            chunk_add (single, dyno_item_ref (g_ptr_array_index (chunk->items, i)),
                       g_array_index (chunk->rows, guint64, i),
                       g_array_index (chunk->lines, guint64, i),
                       g_strdup (g_ptr_array_index (chunk->keys, i)));
            g_queue_push_tail (&self->retry, single);
          }
      batch_call_free (call);
    }
  else
    {
      /* Throttled beyond the backend's retries, the network, the table gone: stop. */
      g_autofree char *reason = g_strdup_printf (_("Not written: %s"), error->message);

      import_release_keys (self, chunk);
      self->in_flight--;
      import_report_chunk (self, chunk, DYNO_TRANSFER_ROW_FAILED, reason);
      if (self->fatal == NULL)
        self->fatal = g_error_copy (error);
      batch_call_free (call);
    }

  g_signal_emit (self, import_signals[IMPORT_PROGRESS], 0);
  import_pump (self);
}

static void
import_send_call (BatchCall *call)
{
  DynoImportJob *self = call->job;
  g_autoptr(GBytes) body = NULL;
  GString *json = g_string_new ("{\"RequestItems\":{");

  dyno_json_write_string (json, dyno_table_info_get_name (self->table), -1);
  g_string_append (json, ":[");
  for (guint i = 0; i < call->chunk->items->len; i++)
    {
      if (i > 0)
        g_string_append_c (json, ',');
      g_string_append (json, "{\"PutRequest\":{\"Item\":");
      dyno_map_write_ddb_item (dyno_item_get_map (g_ptr_array_index (call->chunk->items, i)),
                               json);
      g_string_append (json, "}}");
    }
  g_string_append (json, "]}}");
  body = g_string_free_to_bytes (json);

  /* By default no cancellable: a request that was sent completes, so that the count of
   * written items stays exact, and Cancel stops between batches (import_pump).  With
   * cancel_in_flight, Cancel aborts the requests too and their rows are not confirmed. */
  dyno_backend_call_async (self->backend, "BatchWriteItem", body,
                           self->cancel_in_flight ? self->cancellable : NULL, import_batch_cb,
                           call);
}

static void
import_send (DynoImportJob *self,
             Chunk         *chunk)
{
  BatchCall *call;

  if (chunk->items->len == 0)
    {
      chunk_free (chunk);
      return;
    }

  if (self->dry_run)
    {
      self->n_written += chunk->items->len;
      chunk_free (chunk);
      return;
    }

  import_hold_keys (self, chunk);
  call = g_new0 (BatchCall, 1);
  call->job = g_object_ref (self);
  call->chunk = chunk;
  self->in_flight++;
  import_send_call (call);
}

static void
import_send_current (DynoImportJob *self)
{
  import_send (self, g_steal_pointer (&self->current));
  self->current = chunk_new ();
}

static void
import_read_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(DynoImportJob) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  self->read_pending = FALSE;
  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (bytes == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && self->fatal == NULL)
        self->fatal = g_error_new (DYNO_ERROR, DYNO_ERROR_FAILED,
                                   _("Could not read the input: %s"), error->message);
      self->reading_done = TRUE;
    }
  else if (g_bytes_get_size (bytes) == 0)
    dyno_importer_feed_eof (self->importer);
  else
    dyno_importer_feed (self->importer, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  g_signal_emit (self, import_signals[IMPORT_PROGRESS], 0);
  import_pump (self);
}

/* Reads records until the current chunk is full, the input ends, a read is pending or an
 * item must wait. */
static void
import_read (DynoImportJob *self)
{
  while (!self->reading_done && !self->read_pending && self->held == NULL
         && self->current->items->len < BATCH_ITEMS)
    {
      g_autoptr(GError) error = NULL;
      DynoItem *item = NULL;
      DynoImportReject *reject = NULL;
      guint64 row = 0;
      DynoImportStatus status;

      status = dyno_importer_next (self->importer, &item, &reject, &row, &error);
      switch (status)
        {
        case DYNO_IMPORT_NEED_MORE:
          self->read_pending = TRUE;
          g_input_stream_read_bytes_async (self->input, READ_CHUNK, G_PRIORITY_DEFAULT,
                                           self->cancellable, import_read_cb,
                                           g_object_ref (self));
          break;
        case DYNO_IMPORT_REJECTED:
          self->last_line_read = MAX (self->last_line_read, reject->line);
          if (reject->line < self->start_line)
            self->n_skipped++;
          else
            import_report_row (self, reject->row, reject->line, DYNO_TRANSFER_ROW_REJECTED,
                               reject->reason);
          dyno_import_reject_free (reject);
          break;
        case DYNO_IMPORT_ITEM:
          {
            guint64 line = dyno_importer_get_record_line (self->importer);
            char *key;

            self->last_line_read = MAX (self->last_line_read, line);
            if (line < self->start_line)
              {
                /* before --start-line: written by an earlier run */
                self->n_skipped++;
                dyno_item_unref (item);
                break;
              }
            key = dyno_import_key_string (self->table, item);

            if (key == NULL)
              {
                /* The importer checks the keys; keep going if it ever lets one through. */
                import_report_row (self, row, line, DYNO_TRANSFER_ROW_REJECTED,
                                   _("The item has no value for a key attribute."));
                dyno_item_unref (item);
                break;
              }
            /* The same key twice in one BatchWriteItem is refused, and two batches with
             * one key in flight could land in either order: such an item waits, so the
             * later row wins, as consecutive puts do. */
            if (chunk_has_key (self->current, key)
                || g_hash_table_contains (self->keys_in_flight, key))
              {
                self->held = item;
                self->held_row = row;
                self->held_line = line;
                self->held_key = key;
                break;
              }
            chunk_add (self->current, item, row, line, key);
          }
          break;
        case DYNO_IMPORT_END:
          self->reading_done = TRUE;
          self->input_complete = TRUE;
          break;
        case DYNO_IMPORT_FAILED:
        default:
          if (self->fatal == NULL)
            self->fatal = error != NULL ? g_steal_pointer (&error)
                                        : g_error_new_literal (DYNO_ERROR, DYNO_ERROR_FAILED,
                                                               _("The input cannot be read."));
          self->reading_done = TRUE;
          break;
        }
    }
}

static void
import_finish (DynoImportJob *self)
{
  g_autoptr(GTask) task = NULL;
  gboolean cancelled = g_cancellable_is_cancelled (self->cancellable);

  if (self->finished)
    return;
  self->finished = TRUE;

  if (cancelled || self->fatal != NULL)
    {
      const char *reason = import_stop_reason (self);

      if (self->held != NULL)
        {
          import_report_row (self, self->held_row, self->held_line,
                             DYNO_TRANSFER_ROW_NOT_WRITTEN, reason);
          g_clear_pointer (&self->held, dyno_item_unref);
          g_clear_pointer (&self->held_key, g_free);
        }
      import_report_chunk (self, self->current, DYNO_TRANSFER_ROW_NOT_WRITTEN, reason);
      g_ptr_array_set_size (self->current->items, 0);
      for (GList *l = self->retry.head; l != NULL; l = l->next)
        import_report_chunk (self, l->data, DYNO_TRANSFER_ROW_NOT_WRITTEN, reason);
      g_queue_clear_full (&self->retry, (GDestroyNotify) chunk_free);
    }

  if (self->cancelled_id != 0)
    g_cancellable_disconnect (self->cancellable, self->cancelled_id);
  self->cancelled_id = 0;
  g_clear_handle_id (&self->cancel_idle_id, g_source_remove);
  g_clear_object (&self->cancellable);

  g_signal_emit (self, import_signals[IMPORT_PROGRESS], 0);

  task = g_steal_pointer (&self->task);
  g_task_set_check_cancellable (task, FALSE);
  if (self->fatal != NULL)
    g_task_return_error (task, g_error_copy (self->fatal));
  else if (cancelled)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             _("The import was cancelled."));
  else
    g_task_return_boolean (task, TRUE);
}

static void
import_pump (DynoImportJob *self)
{
  if (self->finished)
    return;

  for (;;)
    {
      gboolean stopped = g_cancellable_is_cancelled (self->cancellable) || self->fatal != NULL;

      if (stopped)
        {
          self->reading_done = TRUE;
          import_abort_waiting (self);
        }

      /* single-item retries of a refused batch first */
      while (!stopped && self->in_flight < MAX_IN_FLIGHT && !g_queue_is_empty (&self->retry))
        import_send (self, g_queue_pop_head (&self->retry));
      if (self->in_flight >= MAX_IN_FLIGHT)
        return;

      if (!stopped && self->held != NULL)
        {
          if (chunk_has_key (self->current, self->held_key)
              || (g_hash_table_contains (self->keys_in_flight, self->held_key)
                  && self->current->items->len > 0))
            {
              import_send_current (self);
              continue;
            }
          if (g_hash_table_contains (self->keys_in_flight, self->held_key))
            return;  /* wait for the batch that writes the earlier row */
          chunk_add (self->current, g_steal_pointer (&self->held), self->held_row,
                     self->held_line, g_steal_pointer (&self->held_key));
        }

      if (!self->reading_done)
        import_read (self);

      if (!stopped && self->current->items->len > 0
          && (self->current->items->len >= BATCH_ITEMS || self->held != NULL
              || self->reading_done))
        {
          import_send_current (self);
          continue;
        }

      if (self->in_flight > 0 || self->read_pending)
        return;
      if (self->reading_done
          && (stopped || (self->held == NULL && g_queue_is_empty (&self->retry)
                          && self->current->items->len == 0)))
        {
          import_finish (self);
          return;
        }
      if (self->held != NULL && !self->reading_done)
        continue;
      if (!self->reading_done)
        continue;
      return;
    }
}

static gboolean
import_cancelled_idle_cb (gpointer user_data)
{
  DynoImportJob *self = user_data;

  self->cancel_idle_id = 0;
  import_pump (self);
  return G_SOURCE_REMOVE;
}

static void
import_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  DynoImportJob *self = user_data;

  /* Any thread: continue on the job's context, where batches waiting for a retry give up. */
  if (self->cancel_idle_id == 0 && self->task != NULL)
    self->cancel_idle_id = g_idle_add (import_cancelled_idle_cb, self);
}

void
dyno_import_job_run_async (DynoImportJob       *self,
                           GInputStream        *input,
                           guint64              input_size,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (DYNO_IS_IMPORT_JOB (self));
  g_return_if_fail (G_IS_INPUT_STREAM (input));
  g_return_if_fail (self->task == NULL && self->importer == NULL);

  self->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (self->task, dyno_import_job_run_async);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  self->input = g_object_ref (input);
  self->bytes_total = input_size;
  self->importer = dyno_importer_new (self->format, self->table);
  dyno_importer_set_type_mapping (self->importer, self->mapping);
  self->current = chunk_new ();
  self->keys_in_flight = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* The callback runs at once when already cancelled; the idle it adds handles that. */
  self->cancelled_id = g_cancellable_connect (self->cancellable,
                                              G_CALLBACK (import_cancelled_cb), self, NULL);

  import_pump (self);
}

void
dyno_import_job_run_file_async (DynoImportJob       *self,
                                GFile               *file,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInputStream) input = NULL;
  g_autoptr(GFileInfo) info = NULL;

  g_return_if_fail (DYNO_IS_IMPORT_JOB (self));
  g_return_if_fail (G_IS_FILE (file));

  input = g_file_read (file, cancellable, &error);
  if (input == NULL)
    {
      g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
      g_autofree char *name = g_file_get_parse_name (file);

      g_task_set_source_tag (task, dyno_import_job_run_async);
      g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_FAILED,
                               _("Cannot open %s: %s"), name, error->message);
      return;
    }
  info = g_file_input_stream_query_info (input, G_FILE_ATTRIBUTE_STANDARD_SIZE, NULL, NULL);
  dyno_import_job_run_async (self, G_INPUT_STREAM (input),
                             info != NULL ? (guint64) g_file_info_get_size (info) : 0,
                             cancellable, callback, user_data);
}

gboolean
dyno_import_job_run_finish (DynoImportJob  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

DynoTableInfo *
dyno_import_job_get_table (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), NULL);
  return self->table;
}

DynoImportFormat
dyno_import_job_get_format (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), DYNO_IMPORT_AUTO);
  return self->importer != NULL ? dyno_importer_get_format (self->importer) : self->format;
}

guint64
dyno_import_job_get_bytes_read (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), 0);
  return self->importer != NULL ? dyno_importer_get_bytes_read (self->importer) : 0;
}

guint64
dyno_import_job_get_bytes_total (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), 0);
  return self->bytes_total;
}

guint64
dyno_import_job_get_n_read (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), 0);
  if (self->importer == NULL)
    return 0;
  return dyno_importer_get_n_items (self->importer)
         + dyno_importer_get_n_rejected (self->importer);
}

guint64
dyno_import_job_get_n_written (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), 0);
  return self->n_written;
}

guint64
dyno_import_job_get_n_rejected (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), 0);
  return self->n_rejected;
}

guint64
dyno_import_job_get_n_failed (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), 0);
  return self->n_failed;
}

guint64
dyno_import_job_get_n_not_written (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), 0);
  return self->n_not_written;
}

gboolean
dyno_import_job_get_input_complete (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), FALSE);
  return self->input_complete;
}

gboolean
dyno_import_job_get_running (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), FALSE);
  return self->task != NULL;
}

GPtrArray *
dyno_import_job_get_rows (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), NULL);
  return self->rows;
}

char *
dyno_import_job_dup_summary (DynoImportJob *self)
{
  g_autofree char *written = NULL;
  g_autofree char *rejected = NULL;
  GString *out;

  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), NULL);

  written = dyno_transfer_format_count (self->n_written);
  rejected = dyno_transfer_format_count (self->n_rejected);
  out = g_string_new (NULL);
  if (self->dry_run)
    g_string_append_printf (out, ngettext ("%s item would be written", "%s items would be written",
                                           (gulong) self->n_written), written);
  else
    g_string_append_printf (out, ngettext ("%s item written", "%s items written",
                                           (gulong) self->n_written), written);
  g_string_append (out, ", ");
  g_string_append_printf (out, ngettext ("%s row rejected", "%s rows rejected",
                                         (gulong) self->n_rejected), rejected);
  if (self->n_failed > 0)
    {
      g_autofree char *failed = dyno_transfer_format_count (self->n_failed);

      g_string_append (out, ", ");
      g_string_append_printf (out, ngettext ("%s row failed", "%s rows failed",
                                             (gulong) self->n_failed), failed);
    }
  if (self->n_not_written > 0)
    {
      g_autofree char *unsent = dyno_transfer_format_count (self->n_not_written);

      g_string_append (out, ", ");
      g_string_append_printf (out, ngettext ("%s row read but not written",
                                             "%s rows read but not written",
                                             (gulong) self->n_not_written), unsent);
    }
  g_string_append_c (out, '.');
  if (self->importer != NULL && !self->input_complete)
    {
      g_string_append_c (out, ' ');
      g_string_append (out, self->fatal != NULL
                            ? _("The import stopped after a failure before the end of the "
                                "input; the rest was not imported.")
                            : _("The import was cancelled before the end of the input; the "
                                "rest was not imported."));
      g_string_append_c (out, ' ');
      g_string_append (out, _("Running the same import again is safe: puts are idempotent per "
                              "key."));
    }
  return g_string_free (out, FALSE);
}

void
dyno_import_job_set_cancel_in_flight (DynoImportJob *self,
                                      gboolean       cancel_in_flight)
{
  g_return_if_fail (DYNO_IS_IMPORT_JOB (self));

  self->cancel_in_flight = cancel_in_flight;
}

void
dyno_import_job_set_start_line (DynoImportJob *self,
                                guint64        line)
{
  g_return_if_fail (DYNO_IS_IMPORT_JOB (self));

  self->start_line = line;
}

guint64
dyno_import_job_get_n_skipped (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), 0);

  return self->n_skipped;
}

guint64
dyno_import_job_get_resume_line (DynoImportJob *self)
{
  g_return_val_if_fail (DYNO_IS_IMPORT_JOB (self), 0);

  if (self->first_unwritten_line > 0)
    return self->first_unwritten_line;
  if (self->input_complete)
    return 0;
  /* Everything read was written: continue after the last record read. */
  return MAX (self->last_line_read + 1, self->start_line);
}

/* ---- export job -------------------------------------------------------------------------- */

struct _DynoExportJob
{
  GObject            parent_instance;

  DynoExportFormat   format;
  DynoTableInfo     *schema;
  DynoExporter      *exporter;
  gboolean           fixed_columns;
  GListModel        *model;
  GPtrArray         *array;
  DynoBackend       *backend;
  DynoRequest       *request;

  GTask             *task;
  GCancellable      *cancellable;
  GOutputStream     *output;
  GFile             *target;       /* run_file: the file, and the temporary one */
  GFile             *temporary;
  GString           *buffer;
  guint              position;     /* next loaded item */
  guint64            n_items;
  guint              n_pages;
  DynoItem          *start_key;    /* next page */
  gboolean           last_page;
  /* CSV of all pages without fixed columns: the first pass, as DynamoDB JSON lines */
  GFile             *spool_file;
  GFileIOStream     *spool;
  GDataInputStream  *spool_reader;
  gboolean           second_pass;
  gboolean           finishing;    /* the exporter's tail is being written */
};

enum {
  EXPORT_PROGRESS,
  N_EXPORT_SIGNALS
};

static guint export_signals[N_EXPORT_SIGNALS];

G_DEFINE_FINAL_TYPE (DynoExportJob, dyno_export_job, G_TYPE_OBJECT)

static void
export_drop_spool (DynoExportJob *self)
{
  g_clear_object (&self->spool_reader);
  if (self->spool != NULL)
    g_io_stream_close (G_IO_STREAM (self->spool), NULL, NULL);
  g_clear_object (&self->spool);
  if (self->spool_file != NULL)
    g_file_delete (self->spool_file, NULL, NULL);
  g_clear_object (&self->spool_file);
}

static void
dyno_export_job_finalize (GObject *object)
{
  DynoExportJob *self = DYNO_EXPORT_JOB (object);

  g_assert (self->task == NULL);
  export_drop_spool (self);
  g_clear_pointer (&self->schema, dyno_table_info_unref);
  g_clear_pointer (&self->exporter, dyno_exporter_free);
  g_clear_object (&self->model);
  g_clear_pointer (&self->array, g_ptr_array_unref);
  g_clear_object (&self->backend);
  g_clear_pointer (&self->request, dyno_request_free);
  g_clear_object (&self->output);
  g_clear_object (&self->target);
  g_clear_object (&self->temporary);
  if (self->buffer != NULL)
    g_string_free (self->buffer, TRUE);
  g_clear_pointer (&self->start_key, dyno_item_unref);

  G_OBJECT_CLASS (dyno_export_job_parent_class)->finalize (object);
}

static void
dyno_export_job_class_init (DynoExportJobClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_export_job_finalize;

  export_signals[EXPORT_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);
}

static void
dyno_export_job_init (DynoExportJob *self)
{
  self->buffer = g_string_new (NULL);
}

DynoExportJob *
dyno_export_job_new (DynoExportFormat  format,
                     DynoTableInfo    *schema)
{
  DynoExportJob *self = g_object_new (DYNO_TYPE_EXPORT_JOB, NULL);

  self->format = format;
  if (schema != NULL)
    self->schema = dyno_table_info_ref (schema);
  self->exporter = dyno_exporter_new (format, schema);
  return self;
}

void
dyno_export_job_set_items (DynoExportJob *self,
                           GListModel    *items)
{
  g_return_if_fail (DYNO_IS_EXPORT_JOB (self));
  g_return_if_fail (G_IS_LIST_MODEL (items));
  g_return_if_fail (self->task == NULL);

  g_set_object (&self->model, items);
}

void
dyno_export_job_set_item_array (DynoExportJob *self,
                                GPtrArray     *items)
{
  g_return_if_fail (DYNO_IS_EXPORT_JOB (self));
  g_return_if_fail (items != NULL);
  g_return_if_fail (self->task == NULL);

  g_clear_pointer (&self->array, g_ptr_array_unref);
  self->array = g_ptr_array_ref (items);
}

void
dyno_export_job_set_request (DynoExportJob     *self,
                             DynoBackend       *backend,
                             const DynoRequest *request)
{
  g_return_if_fail (DYNO_IS_EXPORT_JOB (self));
  g_return_if_fail (DYNO_IS_BACKEND (backend));
  g_return_if_fail (request != NULL);
  g_return_if_fail (self->task == NULL);

  g_set_object (&self->backend, backend);
  g_clear_pointer (&self->request, dyno_request_free);
  self->request = dyno_request_copy (request);
}

DynoExporter *
dyno_export_job_get_exporter (DynoExportJob *self)
{
  g_return_val_if_fail (DYNO_IS_EXPORT_JOB (self), NULL);
  return self->exporter;
}

void
dyno_export_job_set_columns (DynoExportJob      *self,
                             const char * const *columns)
{
  g_return_if_fail (DYNO_IS_EXPORT_JOB (self));
  g_return_if_fail (self->task == NULL);

  if (columns == NULL)
    return;
  dyno_exporter_set_columns (self->exporter, columns);
  self->fixed_columns = TRUE;
}

static void export_step (DynoExportJob *self);

static void
export_fail (DynoExportJob *self,
             GError        *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  export_drop_spool (self);
  if (self->output != NULL && self->temporary != NULL)
    {
      g_output_stream_close (self->output, NULL, NULL);
      g_file_delete (self->temporary, NULL, NULL);
    }
  g_clear_object (&self->output);
  g_clear_object (&self->temporary);
  g_clear_object (&self->cancellable);
  g_task_set_check_cancellable (task, FALSE);
  g_task_return_error (task, error);
}

static void
export_succeed (DynoExportJob *self)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  export_drop_spool (self);
  if (self->temporary != NULL)
    {
      if (!g_output_stream_close (self->output, NULL, &error)
          || !g_file_move (self->temporary, self->target, G_FILE_COPY_OVERWRITE, NULL, NULL,
                           NULL, &error))
        {
          g_autofree char *name = g_file_get_parse_name (self->target);
          GError *wrapped = g_error_new (DYNO_ERROR, DYNO_ERROR_FAILED, _("Could not write %s: %s"),
                                         name, error->message);

          export_fail (self, wrapped);
          return;
        }
      g_clear_object (&self->temporary);
    }
  else if (!g_output_stream_flush (self->output, NULL, &error))
    {
      export_fail (self, g_error_new (DYNO_ERROR, DYNO_ERROR_FAILED,
                                      _("Could not write the export: %s"), error->message));
      return;
    }
  g_clear_object (&self->output);
  g_clear_object (&self->cancellable);

  task = g_steal_pointer (&self->task);
  g_signal_emit (self, export_signals[EXPORT_PROGRESS], 0);
  g_task_return_boolean (task, TRUE);
}

static gboolean
export_check_cancelled (DynoExportJob *self)
{
  if (!g_cancellable_is_cancelled (self->cancellable))
    return FALSE;
  export_fail (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                          _("The export was cancelled.")));
  return TRUE;
}

static void
export_written_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(DynoExportJob) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, NULL, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        export_fail (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                _("The export was cancelled.")));
      else
        export_fail (self, g_error_new (DYNO_ERROR, DYNO_ERROR_FAILED,
                                        _("Could not write the export: %s"), error->message));
      return;
    }
  g_string_truncate (self->buffer, 0);
  g_signal_emit (self, export_signals[EXPORT_PROGRESS], 0);
  export_step (self);
}

/* Writes the buffer out, then takes the next step. */
static void
export_flush_then_step (DynoExportJob *self)
{
  if (self->buffer->len == 0)
    {
      g_signal_emit (self, export_signals[EXPORT_PROGRESS], 0);
      export_step (self);
      return;
    }
  /* Not cancellable: a page's items are written whole (never half a line); Cancel takes
   * effect just after, so the resume key is exactly where the output stops. */
  g_output_stream_write_all_async (self->output, self->buffer->str, self->buffer->len,
                                   G_PRIORITY_DEFAULT, NULL, export_written_cb,
                                   g_object_ref (self));
}

static gboolean
export_add (DynoExportJob *self,
            DynoItem      *item)
{
  g_autoptr(GError) error = NULL;

  if (!dyno_exporter_add_item (self->exporter, item, self->buffer, &error))
    {
      export_fail (self, g_steal_pointer (&error));
      return FALSE;
    }
  self->n_items++;
  return TRUE;
}

/* The end of the items: the exporter's tail (buffered CSV), then done. */
static void
export_finish_items (DynoExportJob *self)
{
  g_autoptr(GError) error = NULL;

  if (self->finishing)
    {
      export_succeed (self);
      return;
    }
  self->finishing = TRUE;
  if (!dyno_exporter_finish (self->exporter, self->buffer, &error))
    {
      export_fail (self, g_steal_pointer (&error));
      return;
    }
  export_flush_then_step (self);
}

static void
export_page_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(DynoExportJob) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoPage) page = NULL;

  page = dyno_backend_run_page_finish (DYNO_BACKEND (source), result, &error);
  if (page == NULL)
    {
      export_fail (self, g_steal_pointer (&error));
      return;
    }
  if (export_check_cancelled (self))
    return;

  self->n_pages++;
  g_clear_pointer (&self->start_key, dyno_item_unref);
  if (page->last_evaluated_key != NULL)
    self->start_key = dyno_item_ref (page->last_evaluated_key);
  else
    self->last_page = TRUE;

  if (self->spool != NULL)
    {
      /* First pass: remember the columns and their types, keep the items on disk. */
      g_autoptr(GString) lines = g_string_new (NULL);
      GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (self->spool));

      for (guint i = 0; i < page->items->len; i++)
        {
          DynoItem *item = g_ptr_array_index (page->items, i);

          dyno_exporter_observe (self->exporter, item);
          dyno_map_write_ddb_item (dyno_item_get_map (item), lines);
          g_string_append_c (lines, '\n');
        }
      self->n_items += page->items->len;
      if (!g_output_stream_write_all (out, lines->str, lines->len, NULL, NULL, &error))
        {
          export_fail (self, g_error_new (DYNO_ERROR, DYNO_ERROR_FAILED,
                                          _("Could not write the temporary file of the CSV "
                                            "export: %s"), error->message));
          return;
        }
      g_signal_emit (self, export_signals[EXPORT_PROGRESS], 0);
      export_step (self);
      return;
    }

  for (guint i = 0; i < page->items->len; i++)
    if (!export_add (self, g_ptr_array_index (page->items, i)))
      return;
  export_flush_then_step (self);
}

/* CSV, second pass: the columns are known; the spooled items go out a slice at a time. */
static void
export_second_pass_slice (DynoExportJob *self)
{
  g_autoptr(GError) error = NULL;

  if (!self->second_pass)
    {
      GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (self->spool));
      GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (self->spool));

      self->second_pass = TRUE;
      self->n_items = 0;
      dyno_exporter_fix_observed_columns (self->exporter);
      if (!g_output_stream_flush (out, NULL, &error)
          || !g_seekable_seek (G_SEEKABLE (self->spool), 0, G_SEEK_SET, NULL, &error))
        {
          export_fail (self, g_error_new (DYNO_ERROR, DYNO_ERROR_FAILED,
                                          _("Could not read back the temporary file of the "
                                            "CSV export: %s"), error->message));
          return;
        }
      self->spool_reader = g_data_input_stream_new (in);
      g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (self->spool_reader),
                                                   FALSE);
    }

  for (guint i = 0; i < EXPORT_SLICE; i++)
    {
      gsize len = 0;
      g_autofree char *line = g_data_input_stream_read_line (self->spool_reader, &len, NULL,
                                                             &error);
      g_autoptr(DynoItem) item = NULL;

      if (line == NULL)
        {
          if (error != NULL)
            {
              export_fail (self, g_steal_pointer (&error));
              return;
            }
          export_drop_spool (self);
          export_finish_items (self);
          return;
        }
      item = dyno_item_from_ddb_json (line, len, &error);
      if (item == NULL)
        {
          export_fail (self, g_steal_pointer (&error));
          return;
        }
      if (!export_add (self, item))
        return;
    }
  export_flush_then_step (self);
}

static void
export_step (DynoExportJob *self)
{
  if (self->task == NULL)
    return;
  if (self->finishing)
    {
      export_finish_items (self);
      return;
    }
  if (export_check_cancelled (self))
    return;

  if (self->request != NULL)
    {
      if (self->second_pass || (self->last_page && self->spool != NULL))
        {
          export_second_pass_slice (self);
          return;
        }
      if (self->last_page)
        {
          export_finish_items (self);
          return;
        }
      dyno_backend_run_page_async (self->backend, self->request, self->start_key,
                                   self->cancellable, export_page_cb, g_object_ref (self));
      return;
    }

  {
    guint total = self->model != NULL ? g_list_model_get_n_items (self->model)
                                      : self->array != NULL ? self->array->len : 0;
    guint end = MIN (total, self->position + EXPORT_SLICE);

    if (self->position >= total)
      {
        export_finish_items (self);
        return;
      }
    for (; self->position < end; self->position++)
      {
        if (self->model != NULL)
          {
            g_autoptr(GObject) object = g_list_model_get_item (self->model, self->position);

            if (!DYNO_IS_ITEM_OBJECT (object))
              continue;
            if (!export_add (self, dyno_item_object_get_item (DYNO_ITEM_OBJECT (object))))
              return;
          }
        else if (!export_add (self, g_ptr_array_index (self->array, self->position)))
          return;
      }
    export_flush_then_step (self);
  }
}

static void
export_start (DynoExportJob *self)
{
  if (self->request != NULL && self->format == DYNO_EXPORT_CSV && !self->fixed_columns)
    {
      g_autoptr(GError) error = NULL;

      self->spool_file = g_file_new_tmp ("dynotable-export-XXXXXX.jsonl", &self->spool, &error);
      if (self->spool_file == NULL)
        {
          export_fail (self, g_error_new (DYNO_ERROR, DYNO_ERROR_FAILED,
                                          _("Cannot create a temporary file: %s"),
                                          error->message));
          return;
        }
    }
  export_step (self);
}

static GTask *
export_new_task (DynoExportJob       *self,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, dyno_export_job_run_async);
  return task;
}

void
dyno_export_job_run_async (DynoExportJob       *self,
                           GOutputStream       *output,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (DYNO_IS_EXPORT_JOB (self));
  g_return_if_fail (G_IS_OUTPUT_STREAM (output));
  g_return_if_fail (self->task == NULL);

  self->task = export_new_task (self, cancellable, callback, user_data);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  self->output = g_object_ref (output);
  export_start (self);
}

void
dyno_export_job_run_file_async (DynoExportJob       *self,
                                GFile               *file,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GFile) parent = NULL;
  g_autofree char *base = NULL;
  g_autoptr(GError) error = NULL;
  GFileOutputStream *stream = NULL;

  g_return_if_fail (DYNO_IS_EXPORT_JOB (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (self->task == NULL);

  self->task = export_new_task (self, cancellable, callback, user_data);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  g_set_object (&self->target, file);

  /* A temporary file in the same directory, so that the final rename is atomic. */
  parent = g_file_get_parent (file);
  base = g_file_get_basename (file);
  for (guint attempt = 0; parent != NULL && stream == NULL && attempt < 16; attempt++)
    {
      g_autofree char *name = g_strdup_printf (".%s.%08x.part", base, g_random_int ());

      g_clear_object (&self->temporary);
      g_clear_error (&error);
      self->temporary = g_file_get_child (parent, name);
      stream = g_file_create (self->temporary, G_FILE_CREATE_NONE, NULL, &error);
      if (stream == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        break;
    }
  if (stream == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);

      g_clear_object (&self->temporary);
      export_fail (self, g_error_new (DYNO_ERROR, DYNO_ERROR_FAILED, _("Cannot write %s: %s"),
                                      name, error != NULL ? error->message
                                                          : _("it has no parent folder")));
      return;
    }
  self->output = G_OUTPUT_STREAM (stream);
  export_start (self);
}

gboolean
dyno_export_job_run_finish (DynoExportJob  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

guint64
dyno_export_job_get_n_items (DynoExportJob *self)
{
  g_return_val_if_fail (DYNO_IS_EXPORT_JOB (self), 0);
  return self->n_items;
}

guint64
dyno_export_job_get_n_total (DynoExportJob *self)
{
  g_return_val_if_fail (DYNO_IS_EXPORT_JOB (self), 0);
  if (self->model != NULL)
    return g_list_model_get_n_items (self->model);
  if (self->array != NULL)
    return self->array->len;
  return 0;
}

DynoItem *
dyno_export_job_get_resume_key (DynoExportJob *self)
{
  g_return_val_if_fail (DYNO_IS_EXPORT_JOB (self), NULL);

  if (self->request == NULL || self->last_page || self->spool != NULL)
    return NULL;
  return self->start_key;
}

guint
dyno_export_job_get_n_pages (DynoExportJob *self)
{
  g_return_val_if_fail (DYNO_IS_EXPORT_JOB (self), 0);
  return self->n_pages;
}

gboolean
dyno_export_job_get_running (DynoExportJob *self)
{
  g_return_val_if_fail (DYNO_IS_EXPORT_JOB (self), FALSE);
  return self->task != NULL;
}

char *
dyno_export_job_dup_summary (DynoExportJob *self)
{
  g_autofree char *count = NULL;
  g_autofree char *hints = NULL;
  GString *out;

  g_return_val_if_fail (DYNO_IS_EXPORT_JOB (self), NULL);

  count = dyno_transfer_format_count (dyno_exporter_get_n_items (self->exporter));
  out = g_string_new (NULL);
  g_string_append_printf (out, ngettext ("%s item exported", "%s items exported",
                                         (gulong) dyno_exporter_get_n_items (self->exporter)),
                          count);
  if (self->request != NULL)
    {
      g_string_append (out, " ");
      g_string_append_printf (out, ngettext ("(%u page)", "(%u pages)", self->n_pages),
                              self->n_pages);
    }
  g_string_append_c (out, '.');
  if (self->format == DYNO_EXPORT_PLAIN_JSONL)
    {
      gboolean ambiguous = FALSE;

      hints = dyno_exporter_dup_type_hints (self->exporter, &ambiguous);
      if (hints != NULL)
        {
          g_string_append_c (out, ' ');
          g_string_append_printf (out, _("Plain JSON has no binary or set types: import it "
                                         "back with the type mapping %s."), hints);
        }
      if (ambiguous)
        {
          g_string_append_c (out, ' ');
          g_string_append (out, _("Some attributes hold binary or set values in some items "
                                  "and other types in others: export DynamoDB JSON to keep "
                                  "every type."));
        }
    }
  return g_string_free (out, FALSE);
}
