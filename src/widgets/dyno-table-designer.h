/* dyno-table-designer.h: design a new table, or a new GSI for an existing one, and create it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-backend.h"
#include "dyno-table-design.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

#define DYNO_TYPE_TABLE_DESIGNER (dyno_table_designer_get_type ())
G_DECLARE_FINAL_TYPE (DynoTableDesigner, dyno_table_designer, DYNO, TABLE_DESIGNER, AdwWindow)

/* A modal window over @parent (may be NULL).  @existing NULL: "New Table"; otherwise "Add
 * Global Secondary Index" to that table.  On success it emits "table-created" (the table's
 * name) and closes itself.
 *
 * Widget names (for tests): "table-name", "partition-key-name", "partition-key-type",
 * "sort-key-name", "sort-key-type", "billing-mode", "read-capacity", "write-capacity",
 * "add-index", "create-button", "create-reason", "request-expander" (holds "request-text" and
 * "copy-request", in the widget tree only while expanded),
 * "server-error", "progress"; error labels are the field's name + "-error" (also
 * "indexes-error"); index rows use "index-<i>-" + "type", "name", "partition-key-name",
 * "partition-key-type", "sort-key-name", "sort-key-type", "projection",
 * "projection-attributes", "read-capacity", "write-capacity", "remove" (+ "-error"). */
GtkWidget       *dyno_table_designer_new        (GtkWindow         *parent,
                                                 DynoBackend       *backend,
                                                 DynoTableInfo     *existing);

/* The design as the fields show it now (borrowed). */
DynoTableDesign *dyno_table_designer_get_design (DynoTableDesigner *self);

/* Fills the fields from @design (e.g. a sample's table.json); new-table mode only. */
void             dyno_table_designer_load_design (DynoTableDesigner *self,
                                                  DynoTableDesign   *design);

G_END_DECLS
