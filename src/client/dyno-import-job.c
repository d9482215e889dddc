/* dyno-import-job.c: import a file into a table with BatchWriteItem
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-import-job.h"

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
