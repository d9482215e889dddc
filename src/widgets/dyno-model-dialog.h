/* dyno-model-dialog.h: Import NoSQL Workbench Model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-backend.h"
#include "dyno-workbench-model.h"

G_BEGIN_DECLS

/* A NoSQL Workbench model file read and shown (tables with their keys, billing and item
 * counts; indexes; facets as chips), and a "Create Tables" button that creates them on
 * @backend, waits until they are ACTIVE and writes their items (dyno-samples.h).  Every
 * table must be new: when one exists, nothing is created and the error names it.
 *
 * Signal "tables-changed" (): after creating, when at least one table was created. */
#define DYNO_TYPE_MODEL_DIALOG (dyno_model_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoModelDialog, dyno_model_dialog, DYNO, MODEL_DIALOG, AdwWindow)

GtkWidget  *dyno_model_dialog_new         (GtkWindow       *parent,
                                           DynoBackend     *backend);
/* Reads @file as a path typed or chosen is read (the tests; FALSE with the error shown in
 * the dialog). */
gboolean    dyno_model_dialog_load_file   (DynoModelDialog *self,
                                           GFile           *file);
/* Shows @model (taken), read from another connection (@source: "the Playground"), in place
 * of a file: "Create Playground Tables Here", with the requests shown first and the items
 * optional. */
void        dyno_model_dialog_set_model   (DynoModelDialog    *self,
                                           DynoWorkbenchModel *model,
                                           const char         *source);
/* DescribeTable polling while a table is created (default 500 ms; tests shorten it). */
void        dyno_model_dialog_set_poll_interval (DynoModelDialog *self,
                                                 guint            interval_ms);
gboolean    dyno_model_dialog_get_running (DynoModelDialog *self);

G_END_DECLS
