/* engine-table.h: a table of items in a new embedded engine in memory, for tests and benchmarks
 *
 * Include it from one program only (it defines static functions).  Calls are waited for on
 * the thread-default main context, so use it before the code under test runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "dyno-engine-backend.h"

static void
engine_table_keep_result_cb (GObject      *source,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* A new engine in memory holding table @name: pk (S) and sk of @sk_type ("S" or "N"). */
static G_GNUC_UNUSED DynoEngineBackend *
test_engine_new_table (const char *name,
                       const char *sk_type)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoEngineBackend) engine = dyno_engine_backend_new (NULL, &error);
  g_autofree char *json = g_strdup_printf (
    "{\"TableName\":\"%s\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],\"AttributeDefinitions\":["
    "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\","
    "\"AttributeType\":\"%s\"}],\"BillingMode\":\"PAY_PER_REQUEST\"}", name, sk_type);
  g_autoptr(GBytes) create = NULL;
  g_autoptr(GBytes) reply = NULL;
  GAsyncResult *result = NULL;

  g_assert_no_error (error);
  create = g_bytes_new (json, strlen (json));
  dyno_backend_call_async (DYNO_BACKEND (engine), "CreateTable", create, NULL,
                           engine_table_keep_result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  reply = dyno_backend_call_finish (DYNO_BACKEND (engine), result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  return g_steal_pointer (&engine);
}

/* Writes @items (DynoItem*) to table @name of @engine; every one must be written. */
static G_GNUC_UNUSED void
test_engine_write (DynoEngineBackend *engine,
                   const char        *name,
                   GPtrArray         *items)
{
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;
  guint n_written = 0;

  dyno_backend_batch_write_async (DYNO_BACKEND (engine), name, items, NULL, NULL, NULL, NULL,
                                  engine_table_keep_result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (dyno_backend_batch_write_finish (DYNO_BACKEND (engine), result, &n_written,
                                                  &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_written, ==, items->len);
  g_clear_object (&result);
}
