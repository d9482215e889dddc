/* dyno-model-reader.c: every table of a connection, read into a NoSQL Workbench model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-model-reader.h"

#include "dyno-table-names.h"

typedef struct {
  DynoWorkbenchModel *model;
  GStrv               names;
  guint               next;       /* index in names of the table being read */
  DynoTableInfo      *info;       /* its description */
  GPtrArray          *items;      /* its items so far */
  DynoRequest        *scan;
} Read;

static void
read_free (Read *read)
{
  g_clear_pointer (&read->model, dyno_workbench_model_free);
  g_strfreev (read->names);
  g_clear_pointer (&read->info, dyno_table_info_unref);
  g_clear_pointer (&read->items, g_ptr_array_unref);
  g_clear_pointer (&read->scan, dyno_request_free);
  g_free (read);
}

static void read_next_table (GTask *task);

static void
page_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Read *read = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoPage) page = dyno_backend_run_page_finish (DYNO_BACKEND (source), result, &error);

  if (page == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  for (guint i = 0; i < page->items->len; i++)
    g_ptr_array_add (read->items, dyno_item_ref (g_ptr_array_index (page->items, i)));
  if (page->last_evaluated_key != NULL)
    {
      dyno_backend_run_page_async (DYNO_BACKEND (source), read->scan, page->last_evaluated_key,
                                   g_task_get_cancellable (task), page_cb,
                                   g_steal_pointer (&task));
      return;
    }

  g_ptr_array_add (read->model->tables,
                   dyno_workbench_table_new_from_info (read->info, read->items));
  g_clear_pointer (&read->info, dyno_table_info_unref);
  g_clear_pointer (&read->items, g_ptr_array_unref);
  g_clear_pointer (&read->scan, dyno_request_free);
  read->next++;
  read_next_table (g_steal_pointer (&task));
}

static void
described_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Read *read = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  read->info = dyno_backend_describe_table_finish (DYNO_BACKEND (source), result, &error);
  if (read->info == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  read->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  read->scan = dyno_request_new (DYNO_OP_SCAN, read->names[read->next]);
  read->scan->consistent_read = DYNO_TRISTATE_TRUE;
  dyno_backend_run_page_async (DYNO_BACKEND (source), read->scan, NULL,
                               g_task_get_cancellable (task), page_cb, g_steal_pointer (&task));
}

static void
read_next_table (GTask *task)
{
  Read *read = g_task_get_task_data (task);

  if (read->names[read->next] == NULL)
    {
      g_task_return_pointer (task, g_steal_pointer (&read->model),
                             (GDestroyNotify) dyno_workbench_model_free);
      g_object_unref (task);
      return;
    }
  dyno_backend_describe_table_async (g_task_get_source_object (task), read->names[read->next],
                                     g_task_get_cancellable (task), described_cb, task);
}

static void
listed_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Read *read = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  read->names = dyno_table_names_list_finish (DYNO_BACKEND (source), result, &error);
  if (read->names == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  read_next_table (g_steal_pointer (&task));
}

void
dyno_model_reader_read_async (DynoBackend         *backend,
                              const char          *model_name,
                              const char * const  *tables,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Read *read;

  g_return_if_fail (DYNO_IS_BACKEND (backend));
  g_return_if_fail (model_name != NULL);

  task = g_task_new (backend, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_model_reader_read_async);
  read = g_new0 (Read, 1);
  read->model = dyno_workbench_model_new (model_name);
  read->model->author = g_strdup ("");
  read->model->description = g_strdup ("");
  g_task_set_task_data (task, read, (GDestroyNotify) read_free);
  if (tables != NULL)
    {
      g_autoptr(GStrvBuilder) names = g_strv_builder_new ();

      for (guint i = 0; tables[i] != NULL; i++)
        if (!g_strv_contains (tables + i + 1, tables[i]))
          g_strv_builder_add (names, tables[i]);
      read->names = g_strv_builder_end (names);
      read_next_table (g_steal_pointer (&task));
      return;
    }
  dyno_table_names_list_async (backend, cancellable, listed_cb, g_steal_pointer (&task));
}

DynoWorkbenchModel *
dyno_model_reader_read_finish (DynoBackend   *backend,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, backend), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
