/* test-backend.c: the one fake DynoBackend of the in-process tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "test-backend.h"

#include <string.h>

#include "dyno-http-error.h"

typedef struct {
  char *operation;
  char *body;
} Call;

typedef struct {
  guint  status;
  char  *body;
} Reply;

struct _TestBackend
{
  GObject             parent_instance;

  GMutex              lock;          /* calls and replies: handlers may run on a worker */
  GPtrArray          *calls;         /* Call* */
  GQueue              replies;       /* Reply* */
  TestBackendHandler  handler;
  gpointer            handler_data;
  GDestroyNotify      handler_destroy;
  gboolean            threaded;
  char               *only;
};

static void test_backend_iface_init (DynoBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestBackend, test_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (DYNO_TYPE_BACKEND,
                                                      test_backend_iface_init))

static void
call_free (Call *call)
{
  g_free (call->operation);
  g_free (call->body);
  g_free (call);
}

static void
reply_free (Reply *reply)
{
  g_free (reply->body);
  g_free (reply);
}

static void
return_reply (GTask *task,
              guint  status,
              char  *body)   /* taken */
{
  gsize len = strlen (body);

  if (status == 200)
    {
      g_task_return_pointer (task, g_bytes_new_take (body, len), (GDestroyNotify) g_bytes_unref);
    }
  else
    {
      g_autoptr(GBytes) error_body = g_bytes_new_take (body, len);

      g_task_return_error (task, dyno_http_error_new (status, NULL, error_body,
                                                      "test-request-id"));
    }
}

static void
handler_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  TestBackend *self = source;
  Call *call = task_data;
  guint status = 200;
  char *body = self->handler (call->operation, call->body, &status, self->handler_data);

  return_reply (task, status, body);
}

static void
test_backend_call_async (DynoBackend         *backend,
                         const char          *operation,
                         GBytes              *body,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  TestBackend *self = TEST_BACKEND (backend);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  Call *call = g_new0 (Call, 1);
  Reply *reply;
  gsize len;
  const char *data = g_bytes_get_data (body, &len);

  call->operation = g_strdup (operation);
  call->body = g_strndup (data, len);
  if (self->only != NULL && !g_str_equal (operation, self->only))
    g_error ("test backend: unexpected operation %s (only %s expected): %s",
             operation, self->only, call->body);

  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->calls, call);
  reply = g_queue_pop_head (&self->replies);
  g_mutex_unlock (&self->lock);

  if (reply != NULL)
    {
      return_reply (task, reply->status, g_steal_pointer (&reply->body));
      reply_free (reply);
      return;
    }

  if (self->handler == NULL)
    g_error ("test backend: no reply for call %s %s", operation, call->body);

  if (self->threaded)
    {
      Call *copy = g_new0 (Call, 1);

      copy->operation = g_strdup (call->operation);
      copy->body = g_strdup (call->body);
      g_task_set_task_data (task, copy, (GDestroyNotify) call_free);
      g_task_run_in_thread (task, handler_thread);
    }
  else
    {
      guint status = 200;
      char *answer = self->handler (call->operation, call->body, &status, self->handler_data);

      return_reply (task, status, answer);
    }
}

static GBytes *
test_backend_call_finish (DynoBackend   *backend,
                          GAsyncResult  *result,
                          GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_backend_iface_init (DynoBackendInterface *iface)
{
  iface->call_async = test_backend_call_async;
  iface->call_finish = test_backend_call_finish;
}

static void
test_backend_finalize (GObject *object)
{
  TestBackend *self = TEST_BACKEND (object);

  g_ptr_array_unref (self->calls);
  g_queue_clear_full (&self->replies, (GDestroyNotify) reply_free);
  if (self->handler_destroy != NULL)
    self->handler_destroy (self->handler_data);
  g_free (self->only);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (test_backend_parent_class)->finalize (object);
}

static void
test_backend_class_init (TestBackendClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_backend_finalize;
}

static void
test_backend_init (TestBackend *self)
{
  g_mutex_init (&self->lock);
  self->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) call_free);
  g_queue_init (&self->replies);
}

TestBackend *
test_backend_new (void)
{
  return g_object_new (TEST_TYPE_BACKEND, NULL);
}

void
test_backend_queue_reply (TestBackend *self,
                          guint        status,
                          const char  *body)
{
  Reply *reply = g_new0 (Reply, 1);

  reply->status = status;
  reply->body = g_strdup (body);
  g_mutex_lock (&self->lock);
  g_queue_push_tail (&self->replies, reply);
  g_mutex_unlock (&self->lock);
}

void
test_backend_set_handler (TestBackend        *self,
                          TestBackendHandler  handler,
                          gpointer            user_data,
                          GDestroyNotify      destroy)
{
  if (self->handler_destroy != NULL)
    self->handler_destroy (self->handler_data);
  self->handler = handler;
  self->handler_data = user_data;
  self->handler_destroy = destroy;
}

void
test_backend_set_threaded (TestBackend *self,
                           gboolean     threaded)
{
  self->threaded = threaded;
}

void
test_backend_expect_only (TestBackend *self,
                          const char  *operation)
{
  g_free (self->only);
  self->only = g_strdup (operation);
}

guint
test_backend_get_n_calls (TestBackend *self)
{
  guint n;

  g_mutex_lock (&self->lock);
  n = self->calls->len;
  g_mutex_unlock (&self->lock);
  return n;
}

guint
test_backend_get_n_pending (TestBackend *self)
{
  guint n;

  g_mutex_lock (&self->lock);
  n = self->replies.length;
  g_mutex_unlock (&self->lock);
  return n;
}

static Call *
nth_call (TestBackend *self,
          guint        i)
{
  Call *call;

  g_mutex_lock (&self->lock);
  if (i >= self->calls->len)
    g_error ("test backend: call %u asked for, %u made", i, self->calls->len);
  call = g_ptr_array_index (self->calls, i);
  g_mutex_unlock (&self->lock);
  return call;
}

const char *
test_backend_get_operation (TestBackend *self,
                            guint        i)
{
  return nth_call (self, i)->operation;
}

const char *
test_backend_get_body (TestBackend *self,
                       guint        i)
{
  return nth_call (self, i)->body;
}

JsonObject *
test_backend_get_body_object (TestBackend *self,
                              guint        i,
                              JsonParser  *parser)
{
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, nth_call (self, i)->body, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

void
test_backend_clear_calls (TestBackend *self)
{
  g_mutex_lock (&self->lock);
  g_ptr_array_set_size (self->calls, 0);
  g_mutex_unlock (&self->lock);
}
