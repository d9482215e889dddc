/* dyno-samples.c: the four sample schemas of data/samples, created and filled on a backend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-samples.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-http-error.h"
#include "dyno-import.h"

static const char * const sample_names[] = { "file-tree", "audit-log", "sensors", "tenant", NULL };

const char * const *
dyno_samples_get_names (void)
{
  return sample_names;
}

const char *
dyno_samples_get_title (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  if (strcmp (name, "file-tree") == 0)
    return _("File tree");
  if (strcmp (name, "audit-log") == 0)
    return _("Audit log");
  if (strcmp (name, "sensors") == 0)
    return _("Sensor readings");
  if (strcmp (name, "tenant") == 0)
    return _("Multi-tenant table");
  return NULL;
}

const char *
dyno_samples_get_description (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  if (strcmp (name, "file-tree") == 0)
    return _("A file system in one partition per drive: PK = DRIVE#…, SK = the full path, "
             "folders end in '/'. begins_with(SK, \"root/photos/\") returns a folder and its "
             "descendants, not the sibling file root/photos.txt.");
  if (strcmp (name, "audit-log") == 0)
    return _("A time series per actor: PK = ACTOR#…, SK = EVT#<ISO-8601 timestamp>. Newest "
             "first with ScanIndexForward = false; one day with SK BETWEEN two timestamps.");
  if (strcmp (name, "sensors") == 0)
    return _("Readings with named keys: deviceId and readingTs (ISO-8601), about 2 KB each, "
             "to see what a Query costs in read capacity.");
  if (strcmp (name, "tenant") == 0)
    return _("A multi-tenant single-table design: pk = TENANT#…, sk = PROFILE, USER#…, "
             "INVOICE#…, and a sparse overloaded GSI (gsi1pk, gsi1sk) of invoices by status "
             "and due date.");
  return NULL;
}

void
dyno_sample_free (DynoSample *sample)
{
  if (sample == NULL)
    return;
  g_free (sample->name);
  g_free (sample->table_json);
  g_clear_pointer (&sample->items_jsonl, g_bytes_unref);
  g_free (sample);
}

GPtrArray *
dyno_samples_from_workbench_model (const DynoWorkbenchModel *model)
{
  GPtrArray *samples = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_sample_free);

  g_return_val_if_fail (model != NULL, NULL);

  for (guint t = 0; t < model->tables->len; t++)
    {
      DynoWorkbenchTable *table = g_ptr_array_index (model->tables, t);
      g_autoptr(JsonNode) request = dyno_workbench_table_to_create_table_json (table);
      DynoSample *sample = g_new0 (DynoSample, 1);

      sample->name = g_strdup (dyno_workbench_table_get_name (table));
      sample->table_json = dyno_json_node_to_string (request, FALSE);
      sample->items_jsonl = dyno_workbench_table_dup_items_jsonl (table);
      g_ptr_array_add (samples, sample);
    }
  return samples;
}

void
dyno_sample_result_free (DynoSampleResult *result)
{
  if (result == NULL)
    return;
  g_free (result->sample);
  g_free (result->table_name);
  g_free (result->error);
  g_free (result);
}

static GPtrArray *
samples_new_array (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_sample_free);
}

static DynoSample *
sample_new (const char *name,
            GBytes     *table_json,
            GBytes     *items)
{
  DynoSample *sample = g_new0 (DynoSample, 1);
  gsize len;
  const char *data = g_bytes_get_data (table_json, &len);

  sample->name = g_strdup (name);
  sample->table_json = g_strndup (data, len);
  sample->items_jsonl = g_bytes_ref (items);
  return sample;
}

GPtrArray *
dyno_samples_load_resource (const char  *prefix,
                            GError     **error)
{
  g_autoptr(GPtrArray) samples = samples_new_array ();

  g_return_val_if_fail (prefix != NULL, NULL);

  for (guint i = 0; sample_names[i] != NULL; i++)
    {
      g_autofree char *table_path = g_strdup_printf ("%s/%s/table.json", prefix, sample_names[i]);
      g_autofree char *items_path = g_strdup_printf ("%s/%s/items.jsonl", prefix,
                                                     sample_names[i]);
      g_autoptr(GBytes) table = NULL;
      g_autoptr(GBytes) items = NULL;

      table = g_resources_lookup_data (table_path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
      if (table == NULL)
        return NULL;
      items = g_resources_lookup_data (items_path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
      if (items == NULL)
        return NULL;
      g_ptr_array_add (samples, sample_new (sample_names[i], table, items));
    }
  return g_steal_pointer (&samples);
}

GPtrArray *
dyno_samples_load_directory (GFile   *directory,
                             GError **error)
{
  g_autoptr(GPtrArray) samples = samples_new_array ();

  g_return_val_if_fail (G_IS_FILE (directory), NULL);

  for (guint i = 0; sample_names[i] != NULL; i++)
    {
      g_autoptr(GFile) dir = g_file_get_child (directory, sample_names[i]);
      g_autoptr(GFile) table_file = g_file_get_child (dir, "table.json");
      g_autoptr(GFile) items_file = g_file_get_child (dir, "items.jsonl");
      g_autoptr(GBytes) table = NULL;
      g_autoptr(GBytes) items = NULL;

      table = g_file_load_bytes (table_file, NULL, NULL, error);
      if (table == NULL)
        return NULL;
      items = g_file_load_bytes (items_file, NULL, NULL, error);
      if (items == NULL)
        return NULL;
      g_ptr_array_add (samples, sample_new (sample_names[i], table, items));
    }
  return g_steal_pointer (&samples);
}

/* ---- loader ------------------------------------------------------------------------------ */

struct _DynoSampleLoader
{
  GObject        parent_instance;

  DynoBackend   *backend;
  GPtrArray     *samples;
  char          *prefix;
  guint          poll_interval_ms;
  guint          max_polls;

  GTask         *task;
  GCancellable  *cancellable;
  guint          index;       /* the sample being loaded */
  guint          n_polls;
  guint          poll_id;
  GPtrArray     *results;
  GPtrArray     *items;       /* the current sample's items */
};

enum {
  PROGRESS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (DynoSampleLoader, dyno_sample_loader, G_TYPE_OBJECT)

static void
dyno_sample_loader_finalize (GObject *object)
{
  DynoSampleLoader *self = DYNO_SAMPLE_LOADER (object);

  g_assert (self->task == NULL);
  g_clear_object (&self->backend);
  g_clear_pointer (&self->samples, g_ptr_array_unref);
  g_free (self->prefix);
  g_clear_pointer (&self->results, g_ptr_array_unref);
  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (dyno_sample_loader_parent_class)->finalize (object);
}

static void
dyno_sample_loader_class_init (DynoSampleLoaderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_sample_loader_finalize;

  signals[PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                    G_TYPE_STRING, G_TYPE_STRING);
}

static void
dyno_sample_loader_init (DynoSampleLoader *self)
{
  self->prefix = g_strdup ("");
  self->poll_interval_ms = 500;
  self->max_polls = 240;
  self->results = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_sample_result_free);
}

DynoSampleLoader *
dyno_sample_loader_new (DynoBackend *backend,
                        GPtrArray   *samples)
{
  DynoSampleLoader *self;

  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (samples != NULL, NULL);

  self = g_object_new (DYNO_TYPE_SAMPLE_LOADER, NULL);
  self->backend = g_object_ref (backend);
  self->samples = g_ptr_array_ref (samples);
  return self;
}

void
dyno_sample_loader_set_prefix (DynoSampleLoader *self,
                               const char       *prefix)
{
  g_return_if_fail (DYNO_IS_SAMPLE_LOADER (self));
  g_free (self->prefix);
  self->prefix = g_strdup (prefix != NULL ? prefix : "");
}

void
dyno_sample_loader_set_polling (DynoSampleLoader *self,
                                guint             interval_ms,
                                guint             max_polls)
{
  g_return_if_fail (DYNO_IS_SAMPLE_LOADER (self));
  self->poll_interval_ms = interval_ms;
  self->max_polls = MAX (max_polls, 1);
}

static DynoSampleResult *
current_result (DynoSampleLoader *self)
{
  return g_ptr_array_index (self->results, self->results->len - 1);
}

static void
progress (DynoSampleLoader *self,
          const char       *message)
{
  g_signal_emit (self, signals[PROGRESS], 0, current_result (self)->sample, message);
}

static void loader_next (DynoSampleLoader *self);

static void
loader_sample_failed (DynoSampleLoader *self,
                      const char       *message)
{
  DynoSampleResult *result = current_result (self);

  g_free (result->error);
  result->error = g_strdup (message);
  progress (self, message);
  self->index++;
  loader_next (self);
}

static gboolean
loader_check_cancelled (DynoSampleLoader *self)
{
  g_autoptr(GTask) task = NULL;

  if (!g_cancellable_is_cancelled (self->cancellable))
    return FALSE;
  task = g_steal_pointer (&self->task);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_task_set_check_cancellable (task, FALSE);
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("Loading the sample schemas was cancelled."));
  return TRUE;
}

static void
loader_written_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(DynoSampleLoader) self = user_data;
  g_autoptr(GError) error = NULL;
  DynoSampleResult *res = current_result (self);
  guint n = 0;

  if (!dyno_backend_batch_write_finish (DYNO_BACKEND (source), result, &n, &error))
    {
      g_autofree char *message = NULL;

      if (loader_check_cancelled (self))
        return;
      message = g_strdup_printf (_("%s: the items could not be written: %s"), res->table_name,
                                 error->message);
      loader_sample_failed (self, message);
      return;
    }
  res->n_items = n;
  {
    g_autofree char *message = g_strdup_printf (ngettext ("%s: %u item", "%s: %u items", n),
                                                res->table_name, n);
    progress (self, message);
  }
  self->index++;
  loader_next (self);
}

static void loader_poll (DynoSampleLoader *self);

static gboolean
all_active (DynoTableInfo *info)
{
  if (g_strcmp0 (dyno_table_info_get_status (info), "ACTIVE") != 0)
    return FALSE;
  for (guint i = 0; i < dyno_table_info_get_n_indexes (info); i++)
    {
      const DynoIndexInfo *index = dyno_table_info_get_index (info, i);

      if (index->global && index->status != NULL && strcmp (index->status, "ACTIVE") != 0)
        return FALSE;
    }
  return TRUE;
}

static gboolean
loader_poll_timeout_cb (gpointer user_data)
{
  DynoSampleLoader *self = user_data;

  self->poll_id = 0;
  loader_poll (self);
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

static void
loader_described_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(DynoSampleLoader) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoTableInfo) info = NULL;
  g_autoptr(GPtrArray) rejects = NULL;
  DynoSample *sample = g_ptr_array_index (self->samples, self->index);
  DynoSampleResult *res = current_result (self);
  gsize len;
  const char *text;

  info = dyno_backend_describe_table_finish (DYNO_BACKEND (source), result, &error);
  if (loader_check_cancelled (self))
    return;
  if (info == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("%s: %s"), res->table_name, error->message);
      loader_sample_failed (self, message);
      return;
    }

  if (!all_active (info))
    {
      if (++self->n_polls >= self->max_polls)
        {
          g_autofree char *message = g_strdup_printf (_("Table %s did not become active."),
                                                      res->table_name);
          loader_sample_failed (self, message);
          return;
        }
      self->poll_id = g_timeout_add (self->poll_interval_ms, loader_poll_timeout_cb,
                                     g_object_ref (self));
      return;
    }

  /* The items, checked against the table as it really is. */
  g_clear_pointer (&self->items, g_ptr_array_unref);
  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  rejects = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_import_reject_free);
  text = g_bytes_get_data (sample->items_jsonl, &len);
  if (!dyno_import_text (text != NULL ? text : "", len, DYNO_IMPORT_DDB_JSONL, info, NULL,
                         self->items, rejects, &error)
      || rejects->len > 0)
    {
      g_autofree char *message = NULL;

      if (error != NULL)
        message = g_strdup_printf (_("%s: items.jsonl cannot be read: %s"), res->table_name,
                                   error->message);
      else
        {
          DynoImportReject *reject = g_ptr_array_index (rejects, 0);
          g_autofree char *line = g_strdup_printf ("%" G_GUINT64_FORMAT, reject->line);

          /* the line as text: xgettext cannot read G_GUINT64_FORMAT in a msgid */
          message = g_strdup_printf (_("%s: line %s of items.jsonl does not fit the table: %s"),
                                     res->table_name, line, reject->reason);
        }
      loader_sample_failed (self, message);
      return;
    }

  {
    g_autofree char *message = g_strdup_printf (ngettext ("Writing %u item to %s…",
                                                          "Writing %u items to %s…",
                                                          self->items->len),
                                                self->items->len, res->table_name);
    progress (self, message);
  }
  dyno_backend_batch_write_async (self->backend, res->table_name, self->items, NULL, NULL, NULL,
                                  self->cancellable, loader_written_cb, g_object_ref (self));
}

static void
loader_poll (DynoSampleLoader *self)
{
  if (loader_check_cancelled (self))
    return;
  dyno_backend_describe_table_async (self->backend, current_result (self)->table_name,
                                     self->cancellable, loader_described_cb, g_object_ref (self));
}

static void
loader_created_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(DynoSampleLoader) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) reply = NULL;
  DynoSampleResult *res = current_result (self);

  reply = dyno_backend_call_json_finish (DYNO_BACKEND (source), result, &error);
  if (loader_check_cancelled (self))
    return;
  if (reply == NULL)
    {
      const DynoServiceError *info = dyno_error_get_service_info (error);

      if (info != NULL && g_strcmp0 (info->type, "ResourceInUseException") == 0)
        {
          g_autofree char *message = g_strdup_printf (_("Table %s exists already: writing the "
                                                        "sample's items to it again…"),
                                                      res->table_name);
          res->existed = TRUE;
          progress (self, message);
        }
      else
        {
          g_autofree char *message = g_strdup_printf (_("Table %s could not be created: %s"),
                                                      res->table_name, error->message);
          loader_sample_failed (self, message);
          return;
        }
    }
  else
    {
      g_autofree char *message = g_strdup_printf (_("Waiting for table %s to be active…"),
                                                  res->table_name);
      res->created = TRUE;
      progress (self, message);
    }
  self->n_polls = 0;
  loader_poll (self);
}

static void
loader_finish (DynoSampleLoader *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  g_autoptr(GString) failed = g_string_new (NULL);

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  for (guint i = 0; i < self->results->len; i++)
    {
      DynoSampleResult *res = g_ptr_array_index (self->results, i);

      if (res->error == NULL)
        continue;
      if (failed->len > 0)
        g_string_append (failed, " ");
      g_string_append (failed, res->error);
    }
  if (failed->len > 0)
    g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_FAILED, "%s", failed->str);
  else
    g_task_return_boolean (task, TRUE);
}

static void
loader_next (DynoSampleLoader *self)
{
  DynoSample *sample;
  DynoSampleResult *res;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  const char *table_name;

  if (loader_check_cancelled (self))
    return;
  if (self->index >= self->samples->len)
    {
      loader_finish (self);
      return;
    }

  sample = g_ptr_array_index (self->samples, self->index);
  res = g_new0 (DynoSampleResult, 1);
  res->sample = g_strdup (sample->name);
  g_ptr_array_add (self->results, res);

  if ((root = dyno_json_parse (sample->table_json, -1, &error)) == NULL
      || !JSON_NODE_HOLDS_OBJECT (root)
      || (table_name = json_object_get_string_member_with_default (json_node_get_object (root),
                                                                    "TableName", NULL)) == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("%s: table.json is not a CreateTable "
                                                    "request with a TableName."), sample->name);
      res->table_name = g_strdup (sample->name);
      loader_sample_failed (self, message);
      return;
    }

  res->table_name = g_strconcat (self->prefix, table_name, NULL);
  json_object_set_string_member (json_node_get_object (root), "TableName", res->table_name);
  {
    g_autofree char *message = g_strdup_printf (_("Creating table %s…"), res->table_name);
    progress (self, message);
  }
  dyno_backend_call_json_async (self->backend, "CreateTable", root, self->cancellable,
                                loader_created_cb, g_object_ref (self));
}

void
dyno_sample_loader_run_async (DynoSampleLoader    *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (DYNO_IS_SAMPLE_LOADER (self));
  g_return_if_fail (self->task == NULL);

  self->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (self->task, dyno_sample_loader_run_async);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  self->index = 0;
  g_ptr_array_set_size (self->results, 0);
  loader_next (self);
}

gboolean
dyno_sample_loader_run_finish (DynoSampleLoader  *self,
                               GAsyncResult      *result,
                               GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

GPtrArray *
dyno_sample_loader_get_results (DynoSampleLoader *self)
{
  g_return_val_if_fail (DYNO_IS_SAMPLE_LOADER (self), NULL);
  return self->results;
}

guint
dyno_sample_loader_get_n_done (DynoSampleLoader *self)
{
  g_return_val_if_fail (DYNO_IS_SAMPLE_LOADER (self), 0);
  return self->index;
}

guint
dyno_sample_loader_get_n_total (DynoSampleLoader *self)
{
  g_return_val_if_fail (DYNO_IS_SAMPLE_LOADER (self), 0);
  return self->samples->len;
}

char *
dyno_sample_loader_dup_summary (DynoSampleLoader *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (DYNO_IS_SAMPLE_LOADER (self), NULL);

  for (guint i = 0; i < self->results->len; i++)
    {
      DynoSampleResult *res = g_ptr_array_index (self->results, i);

      if (out->len > 0)
        g_string_append_c (out, '\n');
      if (res->error != NULL)
        g_string_append (out, res->error);
      else if (res->existed)
        g_string_append_printf (out, ngettext ("%s existed already: %u item written again.",
                                               "%s existed already: %u items written again.",
                                               res->n_items), res->table_name, res->n_items);
      else
        g_string_append_printf (out, ngettext ("%s created with %u item.",
                                               "%s created with %u items.", res->n_items),
                                res->table_name, res->n_items);
    }
  return g_string_free (out, FALSE);
}
