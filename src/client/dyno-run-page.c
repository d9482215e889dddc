/* dyno-run-page.c: one page of a DynoRun as the server returned it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-run-page-private.h"

G_DEFINE_FINAL_TYPE (DynoRunPage, dyno_run_page, G_TYPE_OBJECT)

static void
dyno_run_page_finalize (GObject *object)
{
  DynoRunPage *self = DYNO_RUN_PAGE (object);

  g_free (self->consumed_capacity_json);
  g_free (self->operation);
  g_clear_pointer (&self->last_evaluated_key, dyno_item_unref);
  g_clear_pointer (&self->start_key, dyno_item_unref);
  g_free (self->next_token);

  G_OBJECT_CLASS (dyno_run_page_parent_class)->finalize (object);
}

static void
dyno_run_page_class_init (DynoRunPageClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_run_page_finalize;
}

static void
dyno_run_page_init (DynoRunPage *self)
{
}

guint
dyno_run_page_get_index (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), 0);
  return self->index;
}

guint
dyno_run_page_get_segment (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), 0);
  return self->segment;
}

gint64
dyno_run_page_get_count (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), 0);
  return self->count;
}

gint64
dyno_run_page_get_scanned_count (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), 0);
  return self->scanned_count;
}

double
dyno_run_page_get_consumed_capacity (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), -1);
  return self->consumed_capacity;
}

const char *
dyno_run_page_get_consumed_capacity_json (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), NULL);
  return self->consumed_capacity_json;
}

DynoItem *
dyno_run_page_get_last_evaluated_key (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), NULL);
  return self->last_evaluated_key;
}

const char *
dyno_run_page_get_next_token (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), NULL);

  return self->next_token;
}

gboolean
dyno_run_page_get_is_statement (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), FALSE);

  return self->statement;
}

DynoItem *
dyno_run_page_get_start_key (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), NULL);
  return self->start_key;
}

gsize
dyno_run_page_get_bytes (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), 0);
  return self->bytes;
}

gint64
dyno_run_page_get_elapsed_usec (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), 0);
  return self->elapsed_usec;
}

guint
dyno_run_page_get_position (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), 0);
  return self->position;
}

guint
dyno_run_page_get_n_items (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), 0);
  return self->n_items;
}

const char *
dyno_run_page_get_operation (DynoRunPage *self)
{
  g_return_val_if_fail (DYNO_IS_RUN_PAGE (self), NULL);
  return self->operation;
}
