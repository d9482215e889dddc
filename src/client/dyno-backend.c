/* dyno-backend.c: the backend interface, and the typed operations built on call_async
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-backend.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"

G_DEFINE_INTERFACE (DynoBackend, dyno_backend, G_TYPE_OBJECT)

static void
dyno_backend_default_init (DynoBackendInterface *iface)
{
}

void
dyno_backend_call_async (DynoBackend         *self,
                         const char          *operation,
                         GBytes              *body,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (DYNO_IS_BACKEND (self));
  g_return_if_fail (operation != NULL);
  g_return_if_fail (body != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  DYNO_BACKEND_GET_IFACE (self)->call_async (self, operation, body, cancellable, callback,
                                             user_data);
}

GBytes *
dyno_backend_call_finish (DynoBackend   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (DYNO_IS_BACKEND (self), NULL);

  return DYNO_BACKEND_GET_IFACE (self)->call_finish (self, result, error);
}

char *
dyno_backend_dup_description (DynoBackend *self)
{
  DynoBackendInterface *iface;

  g_return_val_if_fail (DYNO_IS_BACKEND (self), NULL);

  iface = DYNO_BACKEND_GET_IFACE (self);
  if (iface->dup_description == NULL)
    return g_strdup (G_OBJECT_TYPE_NAME (self));

  return iface->dup_description (self);
}

/* ---- helpers ----------------------------------------------------------------------------- */

static GBytes *
node_to_bytes (JsonNode *node)
{
  GString *text = g_string_new (NULL);

  /* Not json-glib's generator: strings in the tree may hold NULs (see dyno-json.h). */
  dyno_json_write_node (text, node, FALSE);
  return g_string_free_to_bytes (text);
}

static JsonNode *
bytes_to_node (GBytes       *bytes,
               const char   *operation,
               GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  g_autoptr(JsonNode) root = NULL;

  if (len == 0)
    {
      JsonNode *empty = json_node_new (JSON_NODE_OBJECT);

      json_node_take_object (empty, json_object_new ());
      return empty;
    }

  root = dyno_json_parse (data, len, &local_error);
  if (root == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   /* Translators: the operation (such as Query), then the parser's message. */
                   _("The %s response is not valid JSON: %s"), operation, local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   _("The %s response is not a JSON object."), operation);
      return NULL;
    }

  return g_steal_pointer (&root);
}

static const char *
object_get_string (JsonObject *object,
                   const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

/* ---- ListTables -------------------------------------------------------------------------- */

typedef struct {
  GPtrArray *names;
  char      *start;
} ListTablesData;

static void
list_tables_data_free (ListTablesData *data)
{
  g_ptr_array_unref (data->names);
  g_free (data->start);
  g_free (data);
}

static void list_tables_next (GTask *task);

static void
list_tables_called_cb (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ListTablesData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonNode *names;
  const char *last;

  body = dyno_backend_call_finish (DYNO_BACKEND (source), result, &error);
  if (body != NULL)
    root = bytes_to_node (body, "ListTables", &error);
  if (root == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  object = json_node_get_object (root);
  names = json_object_get_member (object, "TableNames");
  if (names != NULL && JSON_NODE_HOLDS_ARRAY (names))
    {
      JsonArray *array = json_node_get_array (names);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          const char *name = JSON_NODE_HOLDS_VALUE (element)
                             && json_node_get_value_type (element) == G_TYPE_STRING
                             ? json_node_get_string (element) : NULL;

          if (name != NULL)
            g_ptr_array_add (data->names, g_strdup (name));
        }
    }

  last = object_get_string (object, "LastEvaluatedTableName");
  if (last == NULL)
    {
      g_ptr_array_add (data->names, NULL);
      g_task_return_pointer (task, g_ptr_array_steal (data->names, NULL),
                             (GDestroyNotify) g_strfreev);
      return;
    }

  /* A server that repeats the same key would loop forever. */
  if (g_strcmp0 (last, data->start) == 0)
    {
      g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_SERVICE,
                               _("ListTables returned the same LastEvaluatedTableName (%s) twice."),
                               last);
      return;
    }

  g_free (data->start);
  data->start = g_strdup (last);
  list_tables_next (g_steal_pointer (&task));
}

static void
list_tables_next (GTask *task)
{
  ListTablesData *data = g_task_get_task_data (task);
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GBytes) body = NULL;

  json_builder_begin_object (builder);
  if (data->start != NULL)
    {
      json_builder_set_member_name (builder, "ExclusiveStartTableName");
      json_builder_add_string_value (builder, data->start);
    }
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  body = node_to_bytes (node);

  dyno_backend_call_async (g_task_get_source_object (task), "ListTables", body,
                           g_task_get_cancellable (task), list_tables_called_cb, task);
}

void
dyno_backend_list_tables_async (DynoBackend         *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task;
  ListTablesData *data;

  g_return_if_fail (DYNO_IS_BACKEND (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_backend_list_tables_async);
  data = g_new0 (ListTablesData, 1);
  data->names = g_ptr_array_new_with_free_func (g_free);
  g_task_set_task_data (task, data, (GDestroyNotify) list_tables_data_free);

  list_tables_next (task);
}

GStrv
dyno_backend_list_tables_finish (DynoBackend   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- DescribeTable ----------------------------------------------------------------------- */

static void
describe_called_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  DynoTableInfo *info;
  gsize len;
  const char *data;

  body = dyno_backend_call_finish (DYNO_BACKEND (source), result, &error);
  if (body == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data = g_bytes_get_data (body, &len);
  info = dyno_table_info_new_from_json (data, len, &error);
  if (info == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, info, (GDestroyNotify) dyno_table_info_unref);
}

void
dyno_backend_describe_table_async (DynoBackend         *self,
                                   const char          *table_name,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GBytes) body = NULL;
  GString *json;

  g_return_if_fail (DYNO_IS_BACKEND (self));
  g_return_if_fail (table_name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_backend_describe_table_async);

  json = g_string_new ("{\"TableName\":");
  dyno_json_write_string (json, table_name, -1);
  g_string_append_c (json, '}');
  body = g_string_free_to_bytes (json);

  dyno_backend_call_async (self, "DescribeTable", body, cancellable, describe_called_cb,
                           g_steal_pointer (&task));
}

DynoTableInfo *
dyno_backend_describe_table_finish (DynoBackend   *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- Query / Scan pages ------------------------------------------------------------------ */

typedef struct {
  gint64  started_usec;
  GBytes *body;
} RunPageData;

static void
run_page_data_free (RunPageData *data)
{
  g_clear_pointer (&data->body, g_bytes_unref);
  g_free (data);
}

static void
run_page_parse_thread (GTask        *task,
                       gpointer      source_object,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  RunPageData *data = task_data;
  GError *error = NULL;
  DynoPage *page;
  gsize len;
  const char *json = g_bytes_get_data (data->body, &len);

  page = dyno_page_parse (json, len, &error);
  if (page == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  page->bytes = len;
  page->elapsed_usec = g_get_monotonic_time () - data->started_usec;
  /* The body is no longer needed: free it here, not on the main thread. */
  g_clear_pointer (&data->body, g_bytes_unref);
  g_task_return_pointer (task, page, (GDestroyNotify) dyno_page_free);
}

static void
run_page_called_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  RunPageData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  data->body = dyno_backend_call_finish (DYNO_BACKEND (source), result, &error);
  if (data->body == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* A cancel that arrives now must still win over a parse that would take a while. */
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, run_page_parse_thread);
}

void
dyno_backend_run_page_async (DynoBackend         *self,
                             const DynoRequest   *request,
                             DynoItem            *start_key,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GBytes) body = NULL;
  RunPageData *data;

  g_return_if_fail (DYNO_IS_BACKEND (self));
  g_return_if_fail (request != NULL);
  g_return_if_fail (request->operation == DYNO_OP_QUERY || request->operation == DYNO_OP_SCAN);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_backend_run_page_async);
  data = g_new0 (RunPageData, 1);
  data->started_usec = g_get_monotonic_time ();
  g_task_set_task_data (task, data, (GDestroyNotify) run_page_data_free);

  node = dyno_request_to_json_node (request);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_FAILED,
                               _("The request could not be written as JSON."));
      return;
    }
  if (start_key != NULL)
    json_object_set_member (json_node_get_object (node), "ExclusiveStartKey",
                            dyno_item_to_json_node (start_key));
  body = node_to_bytes (node);

  dyno_backend_call_async (self, dyno_operation_to_string (request->operation), body,
                           cancellable, run_page_called_cb, g_steal_pointer (&task));
}

DynoPage *
dyno_backend_run_page_finish (DynoBackend   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- JSON calls (execute and the generic one) -------------------------------------------- */

static void
json_called_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  JsonNode *node;

  body = dyno_backend_call_finish (DYNO_BACKEND (source), result, &error);
  if (body == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  node = bytes_to_node (body, g_task_get_task_data (task), &error);
  if (node == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, node, (GDestroyNotify) json_node_unref);
}

static void
call_json_internal (DynoBackend         *self,
                    const char          *operation,
                    JsonNode            *body_node,
                    GCancellable        *cancellable,
                    GTask               *task)
{
  g_autoptr(GBytes) body = NULL;

  g_task_set_task_data (task, g_strdup (operation), g_free);
  body = node_to_bytes (body_node);
  dyno_backend_call_async (self, operation, body, cancellable, json_called_cb, task);
}

void
dyno_backend_execute_async (DynoBackend         *self,
                            const DynoRequest   *request,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(JsonNode) node = NULL;
  GTask *task;

  g_return_if_fail (DYNO_IS_BACKEND (self));
  g_return_if_fail (request != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_backend_execute_async);

  node = dyno_request_to_json_node (request);
  if (node == NULL)
    {
      g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_FAILED,
                               _("The request could not be written as JSON."));
      g_object_unref (task);
      return;
    }

  call_json_internal (self, dyno_operation_to_string (request->operation), node, cancellable,
                      task);
}

JsonNode *
dyno_backend_execute_finish (DynoBackend   *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
dyno_backend_call_json_async (DynoBackend         *self,
                              const char          *operation,
                              JsonNode            *body,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (DYNO_IS_BACKEND (self));
  g_return_if_fail (operation != NULL);
  g_return_if_fail (body != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_backend_call_json_async);
  call_json_internal (self, operation, body, cancellable, task);
}

JsonNode *
dyno_backend_call_json_finish (DynoBackend   *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- BatchWriteItem ---------------------------------------------------------------------- */

#define BATCH_SIZE 25
/* Rounds in a row in which the server processed nothing before we give up. */
#define BATCH_MAX_STALLED_ROUNDS 8
#define BATCH_BASE_DELAY_MS 50
#define BATCH_MAX_DELAY_MS 20000

typedef struct {
  char              *table_name;
  GQueue             pending;       /* char*: one WriteRequest as JSON, in order */
  guint              total;
  guint              done;
  guint              in_flight;
  guint              stalled_rounds;
  DynoBatchProgress  progress;
  gpointer           progress_data;
  guint              timeout_id;
  gulong             cancelled_id;
} BatchData;

static void
batch_data_free (BatchData *data)
{
  g_free (data->table_name);
  g_queue_clear_full (&data->pending, g_free);
  g_assert (data->timeout_id == 0);
  g_free (data);
}

static void batch_send (GTask *task);

static void
batch_called_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  BatchData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonNode *unprocessed;
  guint n_unprocessed = 0;

  body = dyno_backend_call_finish (DYNO_BACKEND (source), result, &error);
  if (body != NULL)
    root = bytes_to_node (body, "BatchWriteItem", &error);
  if (root == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  unprocessed = json_object_get_member (json_node_get_object (root), "UnprocessedItems");
  if (unprocessed != NULL && JSON_NODE_HOLDS_OBJECT (unprocessed))
    {
      JsonNode *list = json_object_get_member (json_node_get_object (unprocessed),
                                               data->table_name);

      if (list != NULL && JSON_NODE_HOLDS_ARRAY (list))
        {
          JsonArray *array = json_node_get_array (list);

          /* Put them back at the front, keeping their order. */
          for (guint i = json_array_get_length (array); i > 0; i--)
            {
              g_queue_push_head (&data->pending,
                                 dyno_json_node_to_string (json_array_get_element (array, i - 1),
                                                           FALSE));
              n_unprocessed++;
            }
        }
    }

  n_unprocessed = MIN (n_unprocessed, data->in_flight);
  data->done += data->in_flight - n_unprocessed;
  data->stalled_rounds = n_unprocessed == data->in_flight && n_unprocessed > 0
                         ? data->stalled_rounds + 1 : 0;
  data->in_flight = 0;

  if (data->progress != NULL)
    data->progress (data->done, data->total, data->progress_data);

  if (data->stalled_rounds >= BATCH_MAX_STALLED_ROUNDS)
    {
      g_task_return_new_error (task, DYNO_ERROR, DYNO_ERROR_THROTTLED,
                               /* Translators: the unprocessed items, all items, then the number
                                * of attempts. */
                               _("BatchWriteItem: %u of %u items were still unprocessed after "
                                 "%u attempts in a row; the table is probably throttled."),
                               g_queue_get_length (&data->pending), data->total,
                               data->stalled_rounds);
      return;
    }

  batch_send (g_steal_pointer (&task));
}

static gboolean
batch_delay_done_cb (gpointer user_data)
{
  GTask *task = user_data;
  BatchData *data = g_task_get_task_data (task);

  data->timeout_id = 0;
  g_cancellable_disconnect (g_task_get_cancellable (task), data->cancelled_id);
  data->cancelled_id = 0;
  batch_send (task);

  return G_SOURCE_REMOVE;
}

static void
batch_send_now (GTask *task)
{
  BatchData *data = g_task_get_task_data (task);
  g_autoptr(GBytes) body = NULL;
  GString *json;

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  if (g_queue_is_empty (&data->pending))
    {
      g_task_return_int (task, data->done);
      g_object_unref (task);
      return;
    }

  json = g_string_new ("{\"RequestItems\":{");
  dyno_json_write_string (json, data->table_name, -1);
  g_string_append (json, ":[");
  while (data->in_flight < BATCH_SIZE && !g_queue_is_empty (&data->pending))
    {
      g_autofree char *request = g_queue_pop_head (&data->pending);

      if (data->in_flight > 0)
        g_string_append_c (json, ',');
      g_string_append (json, request);
      data->in_flight++;
    }
  g_string_append (json, "]}}");
  body = g_string_free_to_bytes (json);

  dyno_backend_call_async (g_task_get_source_object (task), "BatchWriteItem", body,
                           g_task_get_cancellable (task), batch_called_cb, task);
}

static gboolean
batch_cancelled_idle_cb (gpointer user_data)
{
  GTask *task = user_data;
  BatchData *data = g_task_get_task_data (task);

  if (data->timeout_id != 0)
    {
      g_source_remove (data->timeout_id);
      data->timeout_id = 0;
      g_cancellable_disconnect (g_task_get_cancellable (task), data->cancelled_id);
      data->cancelled_id = 0;
      batch_send_now (task); /* returns the cancellation and drops the ref */
    }

  return G_SOURCE_REMOVE;
}

static void
batch_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  GTask *task = user_data;

  GSource *idle = g_idle_source_new ();

  /* Any thread, and possibly inside g_cancellable_connect(): always continue later, on the
   * task's context.  The idle holds its own reference. */
  g_source_set_callback (idle, batch_cancelled_idle_cb, g_object_ref (task), g_object_unref);
  g_source_attach (idle, g_task_get_context (task));
  g_source_unref (idle);
}

static void
batch_send (GTask *task)
{
  BatchData *data = g_task_get_task_data (task);

  if (data->stalled_rounds > 0)
    {
      guint ceiling = MIN (BATCH_MAX_DELAY_MS,
                           BATCH_BASE_DELAY_MS << MIN (data->stalled_rounds - 1, 16u));
      guint delay = (guint) (g_random_double () * ceiling);
      GCancellable *cancellable = g_task_get_cancellable (task);
      GSource *source = g_timeout_source_new (delay);

      g_source_set_callback (source, batch_delay_done_cb, task, NULL);
      data->timeout_id = g_source_attach (source, g_task_get_context (task));
      g_source_unref (source);
      if (cancellable != NULL)
        data->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (batch_cancelled_cb),
                                                    task, NULL);
      return;
    }

  batch_send_now (task);
}

static void
append_write_request (BatchData  *data,
                      const char *kind,
                      const char *member,
                      DynoItem   *item)
{
  GString *json = g_string_new (NULL);

  g_string_append_printf (json, "{\"%s\":{\"%s\":", kind, member);
  dyno_map_write_ddb_item (dyno_item_get_map (item), json);
  g_string_append (json, "}}");
  g_queue_push_tail (&data->pending, g_string_free (json, FALSE));
  data->total++;
}

void
dyno_backend_batch_write_async (DynoBackend         *self,
                                const char          *table_name,
                                GPtrArray           *items,
                                GPtrArray           *delete_keys,
                                DynoBatchProgress    progress,
                                gpointer             progress_data,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task;
  BatchData *data;

  g_return_if_fail (DYNO_IS_BACKEND (self));
  g_return_if_fail (table_name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_backend_batch_write_async);
  data = g_new0 (BatchData, 1);
  data->table_name = g_strdup (table_name);
  g_queue_init (&data->pending);
  data->progress = progress;
  data->progress_data = progress_data;
  g_task_set_task_data (task, data, (GDestroyNotify) batch_data_free);

  for (guint i = 0; items != NULL && i < items->len; i++)
    append_write_request (data, "PutRequest", "Item", g_ptr_array_index (items, i));
  for (guint i = 0; delete_keys != NULL && i < delete_keys->len; i++)
    append_write_request (data, "DeleteRequest", "Key", g_ptr_array_index (delete_keys, i));

  batch_send (task);
}

gboolean
dyno_backend_batch_write_finish (DynoBackend   *self,
                                 GAsyncResult  *result,
                                 guint         *n_written,
                                 GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  gssize n;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  n = g_task_propagate_int (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  if (n_written != NULL)
    *n_written = (guint) n;

  return TRUE;
}
