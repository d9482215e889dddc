/* dyno-patterns-dialog.h: Check Access Patterns — a pattern set run against a connection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-backend.h"

G_BEGIN_DECLS

#define DYNO_TYPE_PATTERNS_DIALOG (dyno_patterns_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoPatternsDialog, dyno_patterns_dialog, DYNO, PATTERNS_DIALOG, AdwWindow)

/* @connection_name: shown in the introduction. */
GtkWidget *dyno_patterns_dialog_new      (GtkWindow   *parent,
                                          DynoBackend *backend,
                                          const char  *connection_name);
/* The path field, as if typed (tests). */
void       dyno_patterns_dialog_set_path (DynoPatternsDialog *self,
                                          const char         *path);

G_END_DECLS
