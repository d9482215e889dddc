/* dyno-pattern-check.c: one access pattern run against a connection and judged
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-pattern-check.h"

#include "dyno-run.h"

typedef struct {
  const DynoAccessPattern *pattern;   /* the caller keeps it alive until finish */
  GHashTable              *schemas;
  guint64                  max_items;
  DynoTableInfo           *schema;
  DynoRun                 *run;
} Check;

static void
check_free (Check *check)
{
  g_clear_pointer (&check->schemas, g_hash_table_unref);
  g_clear_pointer (&check->schema, dyno_table_info_unref);
  g_clear_object (&check->run);
  g_free (check);
}

void
dyno_pattern_check_free (DynoPatternCheck *check)
{
  if (check == NULL)
    return;
  g_clear_pointer (&check->verdict, dyno_pattern_verdict_free);
  g_free (check->error);
  g_free (check);
}

/* The check could not run: that is its result, not a GError. */
static void
return_failure (GTask      *task,
                const char *message)
{
  DynoPatternCheck *result = g_new0 (DynoPatternCheck, 1);

  result->error = g_strdup (message);
  g_task_return_pointer (task, result, (GDestroyNotify) dyno_pattern_check_free);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *res,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Check *check = g_task_get_task_data (task);
  DynoRun *run = DYNO_RUN (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;
  DynoPatternCheck *result;

  if (!dyno_run_load_all_finish (run, res, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        return_failure (task, error->message);
      return;
    }

  items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  for (guint i = 0; i < dyno_run_get_n_items (run); i++)
    g_ptr_array_add (items, dyno_item_ref (dyno_run_get_item (run, i)));

  result = g_new0 (DynoPatternCheck, 1);
  result->run.items = dyno_run_get_n_items (run);
  result->run.scanned = (guint64) MAX (dyno_run_get_scanned_count (run), 0);
  result->run.pages = dyno_run_get_n_pages (run);
  result->run.rcu = dyno_run_get_consumed_capacity (run);
  result->run.complete = !dyno_run_get_has_more (run);
  result->verdict = dyno_access_pattern_judge (check->pattern, check->schema, items,
                                               &result->run);
  g_task_return_pointer (task, result, (GDestroyNotify) dyno_pattern_check_free);
}

static void
cancelled_cb (GCancellable *cancellable,
              DynoRun      *run)
{
  dyno_run_cancel (run);
}

static void
run_pattern (GTask *task)
{
  Check *check = g_task_get_task_data (task);
  g_autoptr(DynoRequest) request = dyno_request_copy (check->pattern->request);
  g_autoptr(GPtrArray) issues = dyno_request_validate (request, check->schema);
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (issues->len > 0)
    {
      DynoIssue *issue = g_ptr_array_index (issues, 0);
      g_autofree char *message = g_strdup_printf ("%s: %s", issue->field, issue->message);

      return_failure (task, message);
      g_object_unref (task);
      return;
    }

  if (request->return_consumed_capacity == DYNO_CONSUMED_UNSET)
    request->return_consumed_capacity = DYNO_CONSUMED_TOTAL;
  check->run = dyno_run_new (g_task_get_source_object (task), request);
  dyno_run_set_max_items (check->run, check->max_items);
  if (cancellable != NULL)
    g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), g_object_ref (check->run),
                           g_object_unref);
  dyno_run_load_all_async (check->run, loaded_cb, task);
}

static void
described_cb (GObject      *source,
              GAsyncResult *res,
              gpointer      user_data)
{
  GTask *task = user_data;
  Check *check = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  check->schema = dyno_backend_describe_table_finish (DYNO_BACKEND (source), res, &error);
  if (check->schema == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        return_failure (task, error->message);
      g_object_unref (task);
      return;
    }
  if (check->schemas != NULL)
    g_hash_table_replace (check->schemas, g_strdup (check->pattern->request->table_name),
                          dyno_table_info_ref (check->schema));
  run_pattern (task);
}

void
dyno_pattern_check_async (DynoBackend             *backend,
                          const DynoAccessPattern *pattern,
                          GHashTable              *schemas,
                          guint64                  max_items,
                          GCancellable            *cancellable,
                          GAsyncReadyCallback      callback,
                          gpointer                 user_data)
{
  GTask *task = g_task_new (backend, cancellable, callback, user_data);
  Check *check = g_new0 (Check, 1);
  DynoTableInfo *known;

  g_task_set_source_tag (task, dyno_pattern_check_async);
  check->pattern = pattern;
  check->schemas = schemas != NULL ? g_hash_table_ref (schemas) : NULL;
  check->max_items = max_items;
  g_task_set_task_data (task, check, (GDestroyNotify) check_free);

  known = schemas != NULL ? g_hash_table_lookup (schemas, pattern->request->table_name) : NULL;
  if (known != NULL)
    {
      check->schema = dyno_table_info_ref (known);
      run_pattern (task);
      return;
    }
  dyno_backend_describe_table_async (backend, pattern->request->table_name, cancellable,
                                     described_cb, task);
}

DynoPatternCheck *
dyno_pattern_check_finish (DynoBackend   *backend,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, backend), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
