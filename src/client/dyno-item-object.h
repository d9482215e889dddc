/* dyno-item-object.h: a DynoItem as a GObject, for list models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "dyno-value.h"

G_BEGIN_DECLS

#define DYNO_TYPE_ITEM_OBJECT (dyno_item_object_get_type ())
G_DECLARE_FINAL_TYPE (DynoItemObject, dyno_item_object, DYNO, ITEM_OBJECT, GObject)

/* A thin wrapper: the item itself stays compact and immutable (DynoItem); list models make
 * these on demand.  @position is the item's position in the model that made it (or 0). */
DynoItemObject *dyno_item_object_new          (DynoItem       *item,
                                               guint           position);
DynoItem       *dyno_item_object_get_item     (DynoItemObject *self);
guint           dyno_item_object_get_position (DynoItemObject *self);

G_END_DECLS
