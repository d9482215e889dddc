/* dyno-run-view.h: the loaded items of a run, narrowed by a text and sorted by an attribute
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-run.h"

G_BEGIN_DECLS

#define DYNO_TYPE_RUN_VIEW (dyno_run_view_get_type ())
G_DECLARE_FINAL_TYPE (DynoRunView, dyno_run_view, DYNO, RUN_VIEW, GObject)

/* A GListModel of DynoItemObject over @run's items, made on demand (as the run makes them):
 * all of them in the run's order until a filter text or a sort is set; then those whose S or
 * N values contain the text (dyno-text-match.h), in the order of the sort attribute's values
 * (DynamoDB's order: strings by bytes, numbers by value; items without the attribute last;
 * ties in the run's order).
 *
 * A new text or sort is computed on worker threads over the items loaded then; meanwhile the
 * view keeps showing the previous result (:busy is TRUE), and only the finished result
 * replaces it, in one items-changed.  Items that arrive, change or go while a view is set
 * are placed at once on the main thread (a page at a time costs its own items, plus one pass
 * over the view's positions when items go).  The item objects' position is the run's. */
DynoRunView *dyno_run_view_new               (DynoRun     *run);
DynoRun     *dyno_run_view_get_run           (DynoRunView *self);
void         dyno_run_view_set_filter_text   (DynoRunView *self,
                                              const char  *text);
const char  *dyno_run_view_get_filter_text   (DynoRunView *self);
/* @attribute NULL: the run's order. */
void         dyno_run_view_set_sort          (DynoRunView *self,
                                              const char  *attribute,
                                              gboolean     descending);
const char  *dyno_run_view_get_sort_attribute (DynoRunView *self);
gboolean     dyno_run_view_get_sort_descending (DynoRunView *self);
/* TRUE while a text or sort is being computed. */
gboolean     dyno_run_view_get_busy          (DynoRunView *self);
/* Borrowed: the item at @position of the view (no GObject made). */
DynoItem    *dyno_run_view_get_item          (DynoRunView *self,
                                              guint        position);
/* The run's position of the view's @position. */
guint        dyno_run_view_get_run_position  (DynoRunView *self,
                                              guint        position);

G_END_DECLS
