/* dyno-table-iac.c: what a table is made with, read from the server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-table-iac.h"

#include "dyno-http-error.h"

typedef struct {
  char         *table_name;
  DynoIacTable *table;
  guint         step;
} Describe;

static void
describe_free (Describe *d)
{
  g_free (d->table_name);
  g_clear_pointer (&d->table, dyno_iac_table_free);
  g_free (d);
}

static const char * const steps[] = {
  "DescribeTable", "DescribeTimeToLive", "DescribeContinuousBackups", "ListTagsOfResource",
};
/* what each step reads, as named in the note left when it cannot be read */
static const char * const step_names[] = { NULL, "TTL", "point-in-time recovery", "tags" };

static void next_step (GTask *task);

static void
step_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Describe *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;

  response = dyno_backend_call_json_finish (DYNO_BACKEND (source), result, &error);
  if (response == NULL && (d->step == 0 ||
                           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  switch (d->step)
    {
    case 0:
      d->table = dyno_iac_table_new_from_description (response, &error);
      if (d->table == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      break;
    case 1:
      if (response != NULL)
        dyno_iac_table_read_ttl (d->table, response);
      break;
    case 2:
      if (response != NULL)
        dyno_iac_table_read_backups (d->table, response);
      break;
    case 3:
      if (response != NULL)
        dyno_iac_table_read_tags (d->table, response);
      break;
    default:
      g_assert_not_reached ();
    }
  if (response == NULL)
    dyno_iac_table_note_unknown (d->table, step_names[d->step], error->message);

  d->step++;
  next_step (g_steal_pointer (&task));
}

static void
next_step (GTask *task)
{
  Describe *d = g_task_get_task_data (task);
  DynoBackend *backend = g_task_get_source_object (task);
  JsonObject *request;
  g_autoptr(JsonNode) body = NULL;

  if (d->step == G_N_ELEMENTS (steps))
    {
      g_task_return_pointer (task, g_steal_pointer (&d->table),
                             (GDestroyNotify) dyno_iac_table_free);
      g_object_unref (task);
      return;
    }

  request = json_object_new ();
  if (d->step == 3)
    {
      /* tags are asked for by the table's ARN, which DescribeTable gave */
      if (d->table->arn == NULL)
        {
          dyno_iac_table_note_unknown (d->table, step_names[d->step],
                                       "DescribeTable gave no TableArn");
          json_object_unref (request);
          d->step++;
          next_step (task);
          return;
        }
      json_object_set_string_member (request, "ResourceArn", d->table->arn);
    }
  else
    json_object_set_string_member (request, "TableName", d->table_name);
  body = json_node_init_object (json_node_alloc (), request);
  json_object_unref (request);

  dyno_backend_call_json_async (backend, steps[d->step], body, g_task_get_cancellable (task),
                                step_done_cb, task);
}

void
dyno_table_iac_describe_async (DynoBackend         *backend,
                               const char          *table_name,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task = g_task_new (backend, cancellable, callback, user_data);
  Describe *d = g_new0 (Describe, 1);

  g_task_set_source_tag (task, dyno_table_iac_describe_async);
  d->table_name = g_strdup (table_name);
  g_task_set_task_data (task, d, (GDestroyNotify) describe_free);
  next_step (task);
}

DynoIacTable *
dyno_table_iac_describe_finish (DynoBackend   *backend,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, backend), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
