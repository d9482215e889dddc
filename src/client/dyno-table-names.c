/* dyno-table-names.c: the tables of a backend, in the order a person browses them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-table-names.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  char *key;
  char *name;
} SortEntry;

static int
compare_sort_entries (gconstpointer a,
                      gconstpointer b)
{
  const SortEntry *ea = a;
  const SortEntry *eb = b;
  int result = strcmp (ea->key, eb->key);

  /* names that collate alike ("Orders", "orders") keep DynamoDB's (byte) order */
  return result != 0 ? result : strcmp (ea->name, eb->name);
}

void
dyno_table_names_sort (GStrv names)
{
  guint n;
  g_autofree SortEntry *entries = NULL;

  g_return_if_fail (names != NULL);

  n = g_strv_length (names);
  /* nothing to sort (and qsort must not get the NULL that g_new() gives for none) */
  if (n < 2)
    return;
  entries = g_new (SortEntry, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *folded = g_utf8_casefold (names[i], -1);

      entries[i].key = g_utf8_collate_key_for_filename (folded, -1);
      entries[i].name = names[i];
    }
  qsort (entries, n, sizeof (SortEntry), compare_sort_entries);
  for (guint i = 0; i < n; i++)
    {
      names[i] = entries[i].name;
      g_free (entries[i].key);
    }
}

static void
list_tables_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  GStrv names;

  names = dyno_backend_list_tables_finish (DYNO_BACKEND (source), result, &error);
  if (names == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  dyno_table_names_sort (names);
  g_task_return_pointer (task, names, (GDestroyNotify) g_strfreev);
}

void
dyno_table_names_list_async (DynoBackend         *backend,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (DYNO_IS_BACKEND (backend));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (backend, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyno_table_names_list_async);
  dyno_backend_list_tables_async (backend, cancellable, list_tables_cb, g_steal_pointer (&task));
}

GStrv
dyno_table_names_list_finish (DynoBackend   *backend,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (DYNO_IS_BACKEND (backend), NULL);
  g_return_val_if_fail (g_task_is_valid (result, backend), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyno_table_names_list_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
