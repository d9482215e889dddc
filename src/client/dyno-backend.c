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

  last = dyno_json_object_peek_string (object, "LastEvaluatedTableName");
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

void
dyno_backend_run_statement_page_async (DynoBackend         *self,
                                       const DynoStatement *statement,
                                       const char          *next_token,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GBytes) body = NULL;
  RunPageData *data;

  g_return_if_fail (DYNO_IS_BACKEND (self));
  g_return_if_fail (statement != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_backend_run_statement_page_async);
  data = g_new0 (RunPageData, 1);
  data->started_usec = g_get_monotonic_time ();
  g_task_set_task_data (task, data, (GDestroyNotify) run_page_data_free);

  node = dyno_statement_to_json_node (statement, next_token);
  body = node_to_bytes (node);
  dyno_backend_call_async (self, "ExecuteStatement", body, cancellable, run_page_called_cb,
                           g_steal_pointer (&task));
}

DynoPage *
dyno_backend_run_statement_page_finish (DynoBackend   *self,
                                        GAsyncResult  *result,
                                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result))
                        == dyno_backend_run_statement_page_async, NULL);

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
/* Rounds in a row in which the server processed nothing (every request came back in
 * UnprocessedItems, or the answer was not a BatchWriteItem output) before we give up. */
#define BATCH_MAX_STALLED_ROUNDS 8
#define BATCH_BASE_DELAY_MS 50
#define BATCH_MAX_DELAY_MS 20000

typedef struct {
  guint     index;      /* in items, then delete_keys, as passed */
  gboolean  is_delete;
  DynoItem *item;       /* the item, or the key */
} BatchRequest;

static void
batch_request_free (BatchRequest *request)
{
  dyno_item_unref (request->item);
  g_free (request);
}

typedef struct {
  char              *table_name;
  GQueue             pending;       /* BatchRequest*, in order */
  GPtrArray         *sent;          /* BatchRequest*: the request in flight */
  guint              total;
  guint              done;
  guint              stalled_rounds;
  GError            *last_malformed; /* why the last round did not count */
  GArray            *unwritten;     /* guint: set when the task failed */
  guint              n_unconfirmed; /* of them: in flight when it failed (outcome unknown) */
  DynoBatchProgress  progress;
  gpointer           progress_data;
  guint              timeout_id;
  gulong             cancelled_id;
} BatchData;

static void
batch_data_free (BatchData *data)
{
  g_free (data->table_name);
  g_queue_clear_full (&data->pending, (GDestroyNotify) batch_request_free);
  g_ptr_array_unref (data->sent);
  g_clear_error (&data->last_malformed);
  g_clear_pointer (&data->unwritten, g_array_unref);
  g_assert (data->timeout_id == 0);
  g_free (data);
}

static int
compare_guint (gconstpointer a,
               gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* Fails the task with @error: what was in flight and what was still pending are the
 * requests not known to be written. */
static void
batch_fail (GTask  *task,
            GError *error)
{
  BatchData *data = g_task_get_task_data (task);

  data->n_unconfirmed = data->sent->len;

  g_clear_pointer (&data->unwritten, g_array_unref);
  data->unwritten = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < data->sent->len; i++)
    g_array_append_val (data->unwritten,
                        ((BatchRequest *) g_ptr_array_index (data->sent, i))->index);
  for (GList *l = data->pending.head; l != NULL; l = l->next)
    g_array_append_val (data->unwritten, ((BatchRequest *) l->data)->index);
  g_array_sort (data->unwritten, compare_guint);
  g_task_return_error (task, error);
}

/* The requests of data->sent that the response lists in UnprocessedItems (stolen from
 * data->sent, in their order), or NULL with @error when the response is not the output of
 * the BatchWriteItem we sent: not an object, another table, a request we did not send. */
static GPtrArray *
batch_take_unprocessed (BatchData  *data,
                        JsonNode   *root,
                        GError    **error)
{
  g_autoptr(GPtrArray) unprocessed = g_ptr_array_new ();
  g_autofree gboolean *matched = NULL;
  JsonNode *member;
  JsonObject *tables;
  g_autoptr(GList) names = NULL;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_JSON,
                           _("The BatchWriteItem response is not a JSON object."));
      return NULL;
    }

  matched = g_new0 (gboolean, data->sent->len);
  member = json_object_get_member (json_node_get_object (root), "UnprocessedItems");
  if (member == NULL || JSON_NODE_HOLDS_NULL (member))
    goto done;
  if (!JSON_NODE_HOLDS_OBJECT (member))
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_JSON,
                           _("The BatchWriteItem response has UnprocessedItems that are not "
                             "an object."));
      return NULL;
    }

  tables = json_node_get_object (member);
  names = json_object_get_members (tables);
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *list = json_object_get_member (tables, l->data);
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (list)
          || (strcmp (l->data, data->table_name) != 0
              && json_array_get_length (json_node_get_array (list)) > 0))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                       _("The BatchWriteItem response lists unprocessed items of “%s”, "
                         "which was not written to."), (const char *) l->data);
          return NULL;
        }
      array = json_node_get_array (list);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          JsonObject *object, *inner;
          g_autoptr(DynoItem) item = NULL;
          gboolean is_delete;
          JsonNode *value = NULL;
          guint j;

          if (!JSON_NODE_HOLDS_OBJECT (element))
            goto unknown;
          object = json_node_get_object (element);
          is_delete = json_object_has_member (object, "DeleteRequest");
          value = json_object_get_member (object, is_delete ? "DeleteRequest" : "PutRequest");
          inner = value != NULL && JSON_NODE_HOLDS_OBJECT (value) ? json_node_get_object (value)
                                                                  : NULL;
          value = NULL;
          if (inner != NULL)
            value = json_object_get_member (inner, is_delete ? "Key" : "Item");
          if (value == NULL || (item = dyno_item_from_json_node (value, NULL)) == NULL)
            goto unknown;
          for (j = 0; j < data->sent->len; j++)
            {
              BatchRequest *request = g_ptr_array_index (data->sent, j);

              if (!matched[j] && request->is_delete == is_delete
                  && dyno_item_equal (request->item, item))
                break;
            }
          if (j == data->sent->len)
            goto unknown;
          matched[j] = TRUE;
        }
    }

done:
  {
    g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                batch_request_free);

    /* Steal in order: the unprocessed out, the rest freed with data->sent. */
    for (guint j = 0; j < data->sent->len; j++)
      {
        gpointer request = g_ptr_array_index (data->sent, j);

        g_ptr_array_add (matched[j] ? unprocessed : kept, request);
      }
    g_ptr_array_set_free_func (data->sent, NULL);
    g_ptr_array_set_size (data->sent, 0);
    g_ptr_array_set_free_func (data->sent, (GDestroyNotify) batch_request_free);
  }
  return g_steal_pointer (&unprocessed);

unknown:
  g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_JSON,
                       _("The BatchWriteItem response lists an unprocessed request that was "
                         "not sent."));
  return NULL;
}

static void batch_send (GTask *task);

/* DYNO_BATCH_BACKOFF_MS (tests shorten the wait; 0 is allowed) overrides the base delay. */
static guint
batch_base_delay_ms (void)
{
  static gsize once = 0;
  static guint base = BATCH_BASE_DELAY_MS;

  if (g_once_init_enter (&once))
    {
      const char *text = g_getenv ("DYNO_BATCH_BACKOFF_MS");
      guint64 value;

      if (text != NULL && g_ascii_string_to_unsigned (text, 10, 0, 60000, &value, NULL))
        base = (guint) value;
      g_once_init_leave (&once, 1);
    }
  return base;
}

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
  g_autoptr(GPtrArray) unprocessed = NULL;
  guint n_sent = data->sent->len;

  body = dyno_backend_call_finish (DYNO_BACKEND (source), result, &error);
  if (body == NULL)
    {
      /* Cancelled, or failed beyond the backend's own retries. */
      batch_fail (task, g_steal_pointer (&error));
      return;
    }

  root = bytes_to_node (body, "BatchWriteItem", &error);
  if (root != NULL)
    unprocessed = batch_take_unprocessed (data, root, &error);

  if (unprocessed == NULL)
    {
      /* Not an answer to what was sent: nothing is known to be written.  Puts and deletes
       * are idempotent, so all of it goes again, and the round counts as stalled. */
      for (guint i = data->sent->len; i > 0; i--)
        g_queue_push_head (&data->pending, g_ptr_array_steal_index (data->sent, i - 1));
      g_clear_error (&data->last_malformed);
      data->last_malformed = g_steal_pointer (&error);
      data->stalled_rounds++;
    }
  else
    {
      /* Put the unprocessed back at the front, keeping their order. */
      for (guint i = unprocessed->len; i > 0; i--)
        g_queue_push_head (&data->pending, g_ptr_array_index (unprocessed, i - 1));
      data->done += n_sent - unprocessed->len;
      data->stalled_rounds = unprocessed->len == n_sent ? data->stalled_rounds + 1 : 0;
      g_clear_error (&data->last_malformed);
    }

  if (data->progress != NULL)
    data->progress (data->done, data->total, data->progress_data);

  if (data->stalled_rounds >= BATCH_MAX_STALLED_ROUNDS)
    {
      if (data->last_malformed != NULL)
        batch_fail (task, g_error_new (DYNO_ERROR, DYNO_ERROR_NETWORK,
                                       /* Translators: the reason, then the counts. */
                                       _("%s %u of %u items were not written after %u "
                                         "attempts in a row."),
                                       data->last_malformed->message,
                                       g_queue_get_length (&data->pending), data->total,
                                       data->stalled_rounds));
      else
        batch_fail (task, g_error_new (DYNO_ERROR, DYNO_ERROR_THROTTLED,
                                       /* Translators: the unprocessed items, all items, then
                                        * the number of attempts. */
                                       _("BatchWriteItem: %u of %u items were still "
                                         "unprocessed after %u attempts in a row; the table "
                                         "is probably throttled."),
                                       g_queue_get_length (&data->pending), data->total,
                                       data->stalled_rounds));
      return;
    }

  batch_send (g_steal_pointer (&task));
}

static void batch_send_now (GTask *task);

static gboolean
batch_delay_done_cb (gpointer user_data)
{
  GTask *task = user_data;
  BatchData *data = g_task_get_task_data (task);

  data->timeout_id = 0;
  g_cancellable_disconnect (g_task_get_cancellable (task), data->cancelled_id);
  data->cancelled_id = 0;
  /* Send now: batch_send() would wait again, for ever, while the round is stalled. */
  batch_send_now (task);

  return G_SOURCE_REMOVE;
}

static void
batch_send_now (GTask *task)
{
  BatchData *data = g_task_get_task_data (task);
  g_autoptr(GBytes) body = NULL;
  GString *json;

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      batch_fail (task, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                             _("Operation was cancelled")));
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
  while (data->sent->len < BATCH_SIZE && !g_queue_is_empty (&data->pending))
    {
      BatchRequest *request = g_queue_pop_head (&data->pending);

      if (data->sent->len > 0)
        g_string_append_c (json, ',');
      if (request->is_delete)
        g_string_append (json, "{\"DeleteRequest\":{\"Key\":");
      else
        g_string_append (json, "{\"PutRequest\":{\"Item\":");
      dyno_map_write_ddb_item (dyno_item_get_map (request->item), json);
      g_string_append (json, "}}");
      g_ptr_array_add (data->sent, request);
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
  dyno_task_continue_in_idle (user_data, G_PRIORITY_DEFAULT_IDLE, batch_cancelled_idle_cb);
}

static void
batch_send (GTask *task)
{
  BatchData *data = g_task_get_task_data (task);

  if (data->stalled_rounds > 0)
    {
      guint ceiling = MIN (BATCH_MAX_DELAY_MS,
                           batch_base_delay_ms () << MIN (data->stalled_rounds - 1, 16u));
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
append_write_request (BatchData *data,
                      gboolean   is_delete,
                      DynoItem  *item)
{
  BatchRequest *request = g_new0 (BatchRequest, 1);

  request->index = data->total++;
  request->is_delete = is_delete;
  request->item = dyno_item_ref (item);
  g_queue_push_tail (&data->pending, request);
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
  data->sent = g_ptr_array_new_with_free_func ((GDestroyNotify) batch_request_free);
  data->progress = progress;
  data->progress_data = progress_data;
  g_task_set_task_data (task, data, (GDestroyNotify) batch_data_free);

  for (guint i = 0; items != NULL && i < items->len; i++)
    append_write_request (data, FALSE, g_ptr_array_index (items, i));
  for (guint i = 0; delete_keys != NULL && i < delete_keys->len; i++)
    append_write_request (data, TRUE, g_ptr_array_index (delete_keys, i));

  batch_send (task);
}

gboolean
dyno_backend_batch_write_finish_full (DynoBackend   *self,
                                      GAsyncResult  *result,
                                      guint         *n_written,
                                      GArray       **unwritten,
                                      guint         *n_unconfirmed,
                                      GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  BatchData *data;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  data = g_task_get_task_data (G_TASK (result));
  g_task_propagate_int (G_TASK (result), &local_error);
  if (n_written != NULL)
    *n_written = data->done;
  if (n_unconfirmed != NULL)
    *n_unconfirmed = local_error != NULL ? data->n_unconfirmed : 0;
  if (unwritten != NULL)
    {
      *unwritten = g_array_new (FALSE, FALSE, sizeof (guint));
      if (local_error != NULL && data->unwritten != NULL)
        g_array_append_vals (*unwritten, data->unwritten->data, data->unwritten->len);
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  return TRUE;
}

gboolean
dyno_backend_batch_write_finish (DynoBackend   *self,
                                 GAsyncResult  *result,
                                 guint         *n_written,
                                 GError       **error)
{
  guint n = 0;

  if (!dyno_backend_batch_write_finish_full (self, result, &n, NULL, NULL, error))
    return FALSE;
  if (n_written != NULL)
    *n_written = n;

  return TRUE;
}

void
dyno_task_continue_in_idle (GTask       *task,
                            gint         priority,
                            GSourceFunc  func)
{
  GSource *idle;

  g_return_if_fail (G_IS_TASK (task));

  idle = g_idle_source_new ();
  g_source_set_priority (idle, priority);
  g_source_set_callback (idle, func, g_object_ref (task), g_object_unref);
  g_source_attach (idle, g_task_get_context (task));
  g_source_unref (idle);
}
