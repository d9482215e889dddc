/* dyno-export-job.c: export items to a file through a DynoExporter
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-export-job.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "dyno-error.h"
#include "dyno-item-object.h"
#include "dyno-json.h"

/* Loaded items are written in slices so that the main loop keeps turning. */
#define EXPORT_SLICE    1000

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
  /* The next page is asked for as soon as a page comes, so that the server works on it while
   * this one is written: at most two pages are held. */
  gboolean           fetching;     /* a page request is in flight */
  gboolean           waiting;      /* export_step() waits for it */
  DynoPage          *fetched;      /* it came (or fetch_error) before it was wanted */
  GError            *fetch_error;
  DynoPage          *writing;      /* the page written out by the idle callback */
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
  g_clear_pointer (&self->fetched, dyno_page_free);
  g_clear_error (&self->fetch_error);
  g_clear_pointer (&self->writing, dyno_page_free);

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
  /* a page request still in flight is dropped when it returns (no task) */
  self->waiting = FALSE;
  g_clear_pointer (&self->fetched, dyno_page_free);
  g_clear_error (&self->fetch_error);
  g_clear_pointer (&self->writing, dyno_page_free);
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

static void export_fetch (DynoExportJob *self);

static gboolean export_write_page_idle (gpointer user_data);

/* A page came (@page taken): ask for the next one at once, then write this one out. */
static void
export_handle_page (DynoExportJob *self,
                    DynoPage      *page_taken,
                    GError        *error)
{
  g_autoptr(DynoPage) page = page_taken;

  if (page == NULL)
    {
      export_fail (self, error);
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
  if (!self->last_page)
    export_fetch (self);

  /* The page is written out from an idle callback: the main loop first sends the request
   * for the next one (libsoup writes it from the main loop), so that the server works on it
   * while this one is formatted. */
  g_assert (self->writing == NULL);
  self->writing = g_steal_pointer (&page);
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, export_write_page_idle, g_object_ref (self),
                   g_object_unref);
}

static gboolean
export_write_page_idle (gpointer user_data)
{
  DynoExportJob *self = user_data;
  g_autoptr(DynoPage) page = g_steal_pointer (&self->writing);

  if (self->task == NULL || page == NULL)
    return G_SOURCE_REMOVE;     /* the export failed or was cancelled meanwhile */

  if (self->spool != NULL)
    {
      /* First pass: remember the columns and their types, keep the items on disk. */
      g_autoptr(GString) lines = g_string_new (NULL);
      g_autoptr(GError) write_error = NULL;
      GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (self->spool));

      for (guint i = 0; i < page->items->len; i++)
        {
          DynoItem *item = g_ptr_array_index (page->items, i);

          dyno_exporter_observe (self->exporter, item);
          dyno_map_write_ddb_item (dyno_item_get_map (item), lines);
          g_string_append_c (lines, '\n');
        }
      self->n_items += page->items->len;
      if (!g_output_stream_write_all (out, lines->str, lines->len, NULL, NULL, &write_error))
        {
          export_fail (self, g_error_new (DYNO_ERROR, DYNO_ERROR_FAILED,
                                          _("Could not write the temporary file of the CSV "
                                            "export: %s"), write_error->message));
          return G_SOURCE_REMOVE;
        }
      g_signal_emit (self, export_signals[EXPORT_PROGRESS], 0);
      export_step (self);
      return G_SOURCE_REMOVE;
    }

  for (guint i = 0; i < page->items->len; i++)
    if (!export_add (self, g_ptr_array_index (page->items, i)))
      return G_SOURCE_REMOVE;
  export_flush_then_step (self);
  return G_SOURCE_REMOVE;
}

static void
export_fetched_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(DynoExportJob) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoPage) page = NULL;

  page = dyno_backend_run_page_finish (DYNO_BACKEND (source), result, &error);
  self->fetching = FALSE;
  if (self->task == NULL)
    return;     /* the export failed or was cancelled meanwhile */
  if (self->waiting)
    {
      self->waiting = FALSE;
      export_handle_page (self, g_steal_pointer (&page), g_steal_pointer (&error));
      return;
    }
  self->fetched = g_steal_pointer (&page);
  self->fetch_error = g_steal_pointer (&error);
}

/* Asks for the page at start_key. */
static void
export_fetch (DynoExportJob *self)
{
  g_assert (!self->fetching && self->fetched == NULL && self->fetch_error == NULL);

  self->fetching = TRUE;
  dyno_backend_run_page_async (self->backend, self->request, self->start_key,
                               self->cancellable, export_fetched_cb, g_object_ref (self));
}

/* The next page: the one fetched already, else when it comes. */
static void
export_next_page (DynoExportJob *self)
{
  if (self->fetched != NULL || self->fetch_error != NULL)
    {
      g_autoptr(DynoPage) page = g_steal_pointer (&self->fetched);

      export_handle_page (self, g_steal_pointer (&page), g_steal_pointer (&self->fetch_error));
      return;
    }
  if (!self->fetching)
    export_fetch (self);
  self->waiting = TRUE;
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
      export_next_page (self);
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
