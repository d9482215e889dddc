/* test-pages-backend.h: a DynoBackend that answers each call with the next canned body
 *
 * Include it from one test program only (it defines the type).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "dyno-backend.h"

#define TEST_TYPE_PAGES_BACKEND (test_pages_backend_get_type ())
G_DECLARE_FINAL_TYPE (TestPagesBackend, test_pages_backend, TEST, PAGES_BACKEND, GObject)

struct _TestPagesBackend
{
  GObject    parent_instance;
  GPtrArray *pages;   /* char*: response bodies, one per call, in order */
  guint      next;
};

static void test_pages_backend_iface_init (DynoBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestPagesBackend, test_pages_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (DYNO_TYPE_BACKEND,
                                                      test_pages_backend_iface_init))

static void
pages_call_async (DynoBackend         *backend,
                  const char          *operation,
                  GBytes              *body,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  TestPagesBackend *self = TEST_PAGES_BACKEND (backend);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  const char *page;

  g_assert_cmpstr (operation, ==, "Query");
  g_assert_cmpuint (self->next, <, self->pages->len);
  page = g_ptr_array_index (self->pages, self->next++);
  g_task_return_pointer (task, g_bytes_new (page, strlen (page)), (GDestroyNotify) g_bytes_unref);
}

static GBytes *
pages_call_finish (DynoBackend   *backend,
                   GAsyncResult  *result,
                   GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_pages_backend_iface_init (DynoBackendInterface *iface)
{
  iface->call_async = pages_call_async;
  iface->call_finish = pages_call_finish;
}

static void
test_pages_backend_finalize (GObject *object)
{
  g_ptr_array_unref (TEST_PAGES_BACKEND (object)->pages);
  G_OBJECT_CLASS (test_pages_backend_parent_class)->finalize (object);
}

static void
test_pages_backend_class_init (TestPagesBackendClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_pages_backend_finalize;
}

static void
test_pages_backend_init (TestPagesBackend *self)
{
  self->pages = g_ptr_array_new_with_free_func (g_free);
}

