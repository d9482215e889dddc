/* dyno-run-page-private.h: the fields of a DynoRunPage, which the DynoRun that reads
 * the page fills in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-run-page.h"

G_BEGIN_DECLS

struct _DynoRunPage
{
  GObject   parent_instance;
  guint     index;
  guint     segment;
  gint64    count;
  gint64    scanned_count;
  double    consumed_capacity;
  char     *consumed_capacity_json;
  DynoItem *last_evaluated_key;
  DynoItem *start_key;
  char     *next_token; /* a statement's page: its NextToken, NULL on the last */
  gboolean  statement;  /* a page of a statement run */
  gsize     bytes;
  gint64    elapsed_usec;
  guint     position;
  guint     n_items;
  char     *operation;   /* a write's line: PutItem, UpdateItem, DeleteItem; NULL for a page */
};

G_END_DECLS
