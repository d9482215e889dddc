/* fault-backend.h: the embedded engine, with the faults a test cannot ask a real server for
 *
 * Include it from one test program only (it defines the type).  Every call goes to a
 * DynoEngineBackend in memory, so tables, items, key order, pages and validation are the
 * engine's, as DynamoDB's.  What this wrapper adds is only what a server cannot be asked to
 * do on demand:
 *
 *  - BatchWriteItem: UnprocessedItems (the last n_unprocessed items of the next
 *    n_unprocessed_calls calls are not sent to the engine and come back unprocessed), a
 *    ValidationException for a batch holding poison_attribute, answers cut short
 *    (n_garbled_calls) or naming a request that was never sent (n_foreign_calls), and a hook
 *    run before each batch (tests cancel from it);
 *  - Scan and Query: an InternalServerError after fail_after_pages pages;
 *  - the first DescribeTable of a table made by CreateTable through this backend answers
 *    CREATING (the engine creates tables at once; DynamoDB takes a while, and the callers'
 *    waiting is what the tests see);
 *  - counters of the calls made.
 *
 * A call that the client cancels while it is in flight still reaches the engine, as a request
 * already sent reaches the server: the caller sees G_IO_ERROR_CANCELLED, the write is done.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include <json-glib/json-glib.h>

#include "dyno-backend.h"
#include "dyno-engine-backend.h"
#include "dyno-http-error.h"
#include "dyno-json.h"

#define TEST_TYPE_FAULT_BACKEND (test_fault_backend_get_type ())
G_DECLARE_FINAL_TYPE (TestFaultBackend, test_fault_backend, TEST, FAULT_BACKEND, GObject)

struct _TestFaultBackend
{
  GObject      parent_instance;
  DynoBackend *engine;        /* a DynoEngineBackend in memory: the server */
  GHashTable  *creating;      /* names of tables created through the backend, not described */
  /* BatchWriteItem: the first n_unprocessed_calls calls leave their last n_unprocessed
   * items unprocessed */
  guint        n_unprocessed_calls;
  guint        n_unprocessed;
  /* an item with this attribute fails its whole batch with a ValidationException */
  char        *poison_attribute;
  /* BatchWriteItem: the next n_garbled_calls calls write nothing and answer a body cut
   * short (a 200 that is not JSON) */
  guint        n_garbled_calls;
  /* BatchWriteItem: the next n_foreign_calls calls write nothing and list, as unprocessed,
   * a request that was not sent */
  guint        n_foreign_calls;
  guint        n_batch_calls;
  guint        n_batch_items; /* items in all BatchWriteItem requests, retries included */
  guint        n_create_calls;
  guint        n_describe_calls;
  /* called before each BatchWriteItem is answered (tests cancel from it) */
  void       (*on_batch) (TestFaultBackend *self, gpointer data);
  gpointer     on_batch_data;
  /* Scan/Query fails with an InternalServerError after fail_after_pages pages (0: never) */
  guint        fail_after_pages;
  guint        n_pages;
};

static void test_fault_backend_iface_init (DynoBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestFaultBackend, test_fault_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (DYNO_TYPE_BACKEND,
                                                      test_fault_backend_iface_init))

static GError *
fault_error (guint       status,
             const char *type,
             const char *message)
{
  g_autofree char *body = g_strdup_printf ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#%s\","
                                           "\"message\":\"%s\"}", type, message);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

  return dyno_http_error_new (status, NULL, bytes, "fault-request");
}

static JsonNode *
fault_parse (const char *data,
             gsize       len)
{
  JsonNode *root = dyno_json_parse (data, len, NULL);

  g_assert_nonnull (root);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return root;
}

static GBytes *
fault_node_to_bytes (JsonNode *node)
{
  char *text = dyno_json_node_to_string (node, FALSE);

  return g_bytes_new_take (text, strlen (text));
}

/* The object member @name of @object, or NULL. */
static JsonObject *
fault_peek_object (JsonObject *object,
                   const char *name)
{
  JsonNode *member = object != NULL ? json_object_get_member (object, name) : NULL;

  return member != NULL && JSON_NODE_HOLDS_OBJECT (member) ? json_node_get_object (member)
                                                           : NULL;
}

/* ---- one call to the engine, waited for (the helpers) ---------------------------------- */

typedef struct {
  gboolean  done;
  GBytes   *reply;
  GError   *error;
} FaultSync;

static void
fault_sync_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  FaultSync *sync = user_data;

  sync->reply = dyno_backend_call_finish (DYNO_BACKEND (source), result, &sync->error);
  sync->done = TRUE;
}

/* The engine's answer to @operation with @json, as a parsed object, or NULL and @error.
 * Waited for on a main context of its own: nothing else of the test runs meanwhile. */
static JsonNode *
fault_engine_call (TestFaultBackend  *self,
                   const char        *operation,
                   const char        *json,
                   GError           **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GBytes) body = g_bytes_new (json, strlen (json));
  FaultSync sync = { 0, };
  JsonNode *root;
  gsize len;
  const char *data;

  g_main_context_push_thread_default (context);
  dyno_backend_call_async (self->engine, operation, body, NULL, fault_sync_cb, &sync);
  while (!sync.done)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);
  if (sync.reply == NULL)
    {
      g_propagate_error (error, sync.error);
      return NULL;
    }
  data = g_bytes_get_data (sync.reply, &len);
  root = fault_parse (data, len);
  g_bytes_unref (sync.reply);
  return root;
}

/* ---- the faults --------------------------------------------------------------------------- */

/* A call forwarded to the engine, and what to change in its answer. */
typedef struct {
  GTask      *task;
  char       *operation;
  char       *table_name;   /* DescribeTable: answer CREATING */
  JsonObject *unprocessed;  /* BatchWriteItem: table → writes held back, or NULL */
} FaultForward;

static void
fault_forward_free (FaultForward *forward)
{
  g_clear_object (&forward->task);
  g_free (forward->operation);
  g_free (forward->table_name);
  g_clear_pointer (&forward->unprocessed, json_object_unref);
  g_free (forward);
}

static void
fault_forward_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  FaultForward *forward = user_data;
  TestFaultBackend *self = g_task_get_source_object (forward->task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) reply = dyno_backend_call_finish (DYNO_BACKEND (source), result, &error);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  gsize len;
  const char *data;

  if (reply == NULL)
    {
      g_task_return_error (forward->task, g_steal_pointer (&error));
      fault_forward_free (forward);
      return;
    }
  if (forward->table_name == NULL && forward->unprocessed == NULL)
    {
      g_task_return_pointer (forward->task, g_steal_pointer (&reply),
                             (GDestroyNotify) g_bytes_unref);
      fault_forward_free (forward);
      return;
    }

  data = g_bytes_get_data (reply, &len);
  root = fault_parse (data, len);
  object = json_node_get_object (root);
  /* CreateTable answers CREATING, as DynamoDB does, and so does the first DescribeTable */
  if (strcmp (forward->operation, "CreateTable") == 0)
    {
      g_hash_table_add (self->creating, g_strdup (forward->table_name));
      json_object_set_string_member (fault_peek_object (object, "TableDescription"),
                                     "TableStatus", "CREATING");
    }
  else if (strcmp (forward->operation, "DescribeTable") == 0
           && g_hash_table_remove (self->creating, forward->table_name))
    json_object_set_string_member (fault_peek_object (object, "Table"), "TableStatus",
                                   "CREATING");
  if (forward->unprocessed != NULL)
    {
      JsonObject *unprocessed = fault_peek_object (object, "UnprocessedItems");
      g_autoptr(GList) names = json_object_get_members (forward->unprocessed);

      if (unprocessed == NULL)
        {
          json_object_set_object_member (object, "UnprocessedItems", json_object_new ());
          unprocessed = json_object_get_object_member (object, "UnprocessedItems");
        }
      for (GList *l = names; l != NULL; l = l->next)
        {
          JsonArray *held = json_object_get_array_member (forward->unprocessed, l->data);

          if (!json_object_has_member (unprocessed, l->data))
            json_object_set_array_member (unprocessed, l->data, json_array_new ());
          for (guint i = 0; i < json_array_get_length (held); i++)
            json_array_add_element (json_object_get_array_member (unprocessed, l->data),
                                    json_node_copy (json_array_get_element (held, i)));
        }
    }
  g_task_return_pointer (forward->task, fault_node_to_bytes (root),
                         (GDestroyNotify) g_bytes_unref);
  fault_forward_free (forward);
}

static void
fault_return_text (GTask      *task,
                   const char *text)
{
  g_task_return_pointer (task, g_bytes_new (text, strlen (text)),
                         (GDestroyNotify) g_bytes_unref);
}

/* BatchWriteItem: answers @task itself (a fault) and returns NULL, or returns the request to
 * send to the engine, with the writes held back as unprocessed in @forward. */
static JsonNode *
fault_batch_write (TestFaultBackend *self,
                   JsonNode         *root,
                   GTask            *task,
                   FaultForward     *forward)
{
  JsonObject *items = fault_peek_object (json_node_get_object (root), "RequestItems");
  g_autoptr(GList) names = NULL;
  guint n_keep = 0;
  guint n_sent = 0;

  self->n_batch_calls++;
  if (self->on_batch != NULL)
    self->on_batch (self, self->on_batch_data);
  if (items == NULL)
    return json_node_ref (root);

  names = json_object_get_members (items);
  if (self->n_garbled_calls > 0 && names != NULL)
    {
      g_autoptr(GString) text = g_string_new ("{\"UnprocessedItems\":{");

      self->n_garbled_calls--;
      dyno_json_write_string (text, names->data, -1);
      g_string_append (text, ":[{\"PutRequ");
      fault_return_text (task, text->str);
      return NULL;
    }
  if (self->n_foreign_calls > 0 && names != NULL)
    {
      g_autoptr(GString) text = g_string_new ("{\"UnprocessedItems\":{");

      self->n_foreign_calls--;
      dyno_json_write_string (text, names->data, -1);
      g_string_append (text, ":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"never-sent\"}}}}]}}");
      fault_return_text (task, text->str);
      return NULL;
    }
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonArray *writes = json_object_get_array_member (items, l->data);

      self->n_batch_items += json_array_get_length (writes);
      for (guint i = 0; self->poison_attribute != NULL && i < json_array_get_length (writes); i++)
        {
          JsonObject *put = fault_peek_object (json_array_get_object_element (writes, i),
                                               "PutRequest");
          JsonObject *item = fault_peek_object (put, "Item");

          if (item != NULL && json_object_has_member (item, self->poison_attribute))
            {
              g_task_return_error (task,
                                   fault_error (400, "ValidationException",
                                                "One or more parameter values were invalid: "
                                                "poisoned"));
              return NULL;
            }
        }
    }

  if (self->n_unprocessed_calls > 0)
    {
      self->n_unprocessed_calls--;
      n_keep = self->n_unprocessed;
    }
  if (n_keep > 0)
    {
      forward->unprocessed = json_object_new ();
      for (GList *l = names; l != NULL; l = l->next)
        {
          JsonArray *writes = json_object_get_array_member (items, l->data);
          guint n = json_array_get_length (writes);
          guint keep = MIN (n_keep, n);
          JsonArray *held = json_array_new ();

          for (guint i = n - keep; i < n; i++)
            json_array_add_element (held, json_node_copy (json_array_get_element (writes, i)));
          json_object_set_array_member (forward->unprocessed, l->data, held);
          for (guint i = 0; i < keep; i++)
            json_array_remove_element (writes, n - 1 - i);
          if (json_array_get_length (writes) == 0)
            json_object_remove_member (items, l->data);
          else
            n_sent++;
        }
      if (n_sent == 0)
        {
          /* nothing left to send: every write comes back unprocessed */
          g_autoptr(JsonNode) reply = json_node_new (JSON_NODE_OBJECT);
          g_autoptr(GBytes) bytes = NULL;

          json_node_take_object (reply, json_object_new ());
          json_object_set_object_member (json_node_get_object (reply), "UnprocessedItems",
                                         g_steal_pointer (&forward->unprocessed));
          bytes = fault_node_to_bytes (reply);
          g_task_return_pointer (task, g_steal_pointer (&bytes), (GDestroyNotify) g_bytes_unref);
          return NULL;
        }
    }
  return json_node_ref (root);
}

static void
fault_call_async (DynoBackend         *backend,
                  const char          *operation,
                  GBytes              *body,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  TestFaultBackend *self = TEST_FAULT_BACKEND (backend);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  FaultForward *forward = g_new0 (FaultForward, 1);
  g_autoptr(GBytes) send = g_bytes_ref (body);
  gsize len;
  const char *data = g_bytes_get_data (body, &len);
  g_autoptr(JsonNode) root = fault_parse (data, len);
  JsonObject *request = json_node_get_object (root);

  forward->operation = g_strdup (operation);
  if (strcmp (operation, "BatchWriteItem") == 0)
    {
      g_autoptr(JsonNode) sent = fault_batch_write (self, root, task, forward);

      if (sent == NULL)
        {
          fault_forward_free (forward);
          return;
        }
      g_bytes_unref (send);
      send = fault_node_to_bytes (sent);
    }
  else if (strcmp (operation, "Scan") == 0 || strcmp (operation, "Query") == 0)
    {
      self->n_pages++;
      if (self->fail_after_pages > 0 && self->n_pages > self->fail_after_pages)
        {
          g_task_return_error (task, fault_error (500, "InternalServerError",
                                                  "Internal server error"));
          fault_forward_free (forward);
          return;
        }
    }
  else if (strcmp (operation, "CreateTable") == 0)
    {
      self->n_create_calls++;
      forward->table_name = g_strdup (json_object_get_string_member (request, "TableName"));
    }
  else if (strcmp (operation, "DescribeTable") == 0)
    {
      const char *name = json_object_get_string_member (request, "TableName");

      self->n_describe_calls++;
      if (g_hash_table_contains (self->creating, name))
        forward->table_name = g_strdup (name);
    }

  /* The request reaches the server whatever the client does next: the caller's cancellable
   * stays on the task it waits for, not on the call. */
  forward->task = g_steal_pointer (&task);
  dyno_backend_call_async (self->engine, operation, send, NULL, fault_forward_cb, forward);
}

static GBytes *
fault_call_finish (DynoBackend   *backend,
                   GAsyncResult  *result,
                   GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static char *
fault_dup_description (DynoBackend *backend)
{
  return g_strdup ("engine with injected faults");
}

static void
test_fault_backend_iface_init (DynoBackendInterface *iface)
{
  iface->call_async = fault_call_async;
  iface->call_finish = fault_call_finish;
  iface->dup_description = fault_dup_description;
}

static void
test_fault_backend_finalize (GObject *object)
{
  TestFaultBackend *self = TEST_FAULT_BACKEND (object);

  g_clear_object (&self->engine);
  g_hash_table_unref (self->creating);
  g_free (self->poison_attribute);
  G_OBJECT_CLASS (test_fault_backend_parent_class)->finalize (object);
}

static void
test_fault_backend_class_init (TestFaultBackendClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_fault_backend_finalize;
}

static void
test_fault_backend_init (TestFaultBackend *self)
{
  g_autoptr(GError) error = NULL;

  self->engine = DYNO_BACKEND (dyno_engine_backend_new (NULL, &error));
  g_assert_no_error (error);
  self->creating = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* ---- the test's own look at the server (not counted, no faults) ----------------------- */

/* A table with key pk (S) and sort key sk (N), ACTIVE already. */
static G_GNUC_UNUSED void
test_fault_backend_add_table (TestFaultBackend *self,
                              const char       *name)
{
  g_autofree char *json = g_strdup_printf (
    "{\"TableName\":\"%s\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],\"AttributeDefinitions\":["
    "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\","
    "\"AttributeType\":\"N\"}],\"BillingMode\":\"PAY_PER_REQUEST\"}", name);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) reply = fault_engine_call (self, "CreateTable", json, &error);

  g_assert_no_error (error);
}

/* Whether table @name exists. */
static G_GNUC_UNUSED gboolean
test_fault_backend_has_table (TestFaultBackend *self,
                              const char       *name)
{
  g_autofree char *json = g_strdup_printf ("{\"TableName\":\"%s\"}", name);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) reply = fault_engine_call (self, "DescribeTable", json, &error);

  if (reply == NULL)
    g_assert_nonnull (strstr (error->message, "ResourceNotFoundException"));
  return reply != NULL;
}

/* The number of items in table @name (0 if there is no such table): a Scan with Select
 * COUNT, page after page. */
static G_GNUC_UNUSED guint
test_fault_backend_count (TestFaultBackend *self,
                          const char       *name)
{
  g_autofree char *start = NULL;
  guint count = 0;

  if (!test_fault_backend_has_table (self, name))
    return 0;
  do
    {
      g_autofree char *json = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) reply = NULL;
      JsonObject *object;

      json = g_strdup_printf ("{\"TableName\":\"%s\",\"Select\":\"COUNT\","
                              "\"ConsistentRead\":true%s%s}", name,
                              start != NULL ? ",\"ExclusiveStartKey\":" : "",
                              start != NULL ? start : "");
      g_clear_pointer (&start, g_free);
      reply = fault_engine_call (self, "Scan", json, &error);
      g_assert_no_error (error);
      object = json_node_get_object (reply);
      count += json_object_get_int_member (object, "Count");
      if (json_object_has_member (object, "LastEvaluatedKey"))
        start = dyno_json_node_to_string (json_object_get_member (object, "LastEvaluatedKey"),
                                          FALSE);
    }
  while (start != NULL);
  return count;
}

/* The item (DynamoDB JSON text) with pk = @pk (S) and sk = @sk (N), or NULL. */
static G_GNUC_UNUSED char *
test_fault_backend_get (TestFaultBackend *self,
                        const char       *name,
                        const char       *pk,
                        const char       *sk)
{
  g_autofree char *json = g_strdup_printf ("{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"%s\"},"
                                           "\"sk\":{\"N\":\"%s\"}},\"ConsistentRead\":true}",
                                           name, pk, sk);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) reply = fault_engine_call (self, "GetItem", json, &error);
  JsonObject *object;

  g_assert_no_error (error);
  object = json_node_get_object (reply);
  if (!json_object_has_member (object, "Item"))
    return NULL;
  return dyno_json_node_to_string (json_object_get_member (object, "Item"), FALSE);
}

/* Puts @item (DynamoDB JSON text) into table @name. */
static G_GNUC_UNUSED void
test_fault_backend_put (TestFaultBackend *self,
                        const char       *name,
                        const char       *item)
{
  g_autofree char *json = g_strdup_printf ("{\"TableName\":\"%s\",\"Item\":%s}", name, item);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) reply = fault_engine_call (self, "PutItem", json, &error);

  g_assert_no_error (error);
}
