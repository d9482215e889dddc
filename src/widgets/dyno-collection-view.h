/* dyno-collection-view.h: results as item collections (grouped by partition) or flat
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "dyno-run.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

#define DYNO_TYPE_COLLECTION_VIEW (dyno_collection_view_get_type ())
G_DECLARE_FINAL_TYPE (DynoCollectionView, dyno_collection_view, DYNO, COLLECTION_VIEW, GtkWidget)

GtkWidget *dyno_collection_view_new                 (void);
/* Shows the items of @run as they arrive (NULL clears).  @info gives the key names. */
void       dyno_collection_view_set_run             (DynoCollectionView *self,
                                                     DynoRun            *run,
                                                     DynoTableInfo      *info,
                                                     const char         *index_name);
/* Shows one item (a GetItem result). */
void       dyno_collection_view_show_item           (DynoCollectionView *self,
                                                     DynoItem           *item,
                                                     DynoTableInfo      *info);
/* The pane with the selected item as DynamoDB JSON or plain JSON; the query page places it. */
GtkWidget *dyno_collection_view_get_detail_widget   (DynoCollectionView *self);
/* Every attribute name seen so far, keys first (names holding U+0000 left out). */
GStrv      dyno_collection_view_dup_attribute_names (DynoCollectionView *self);

GPtrArray  *dyno_collection_view_dup_selected_items (DynoCollectionView *self);
guint       dyno_collection_view_count_selected_items (DynoCollectionView *self,
                                                       guint               at_most);
GListModel *dyno_collection_view_get_items          (DynoCollectionView *self);

G_END_DECLS
