/* dyno-samples-dialog.h: the Sample schemas window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-backend.h"

G_BEGIN_DECLS

/* The four sample schemas with their descriptions and a "Load sample schemas" button that
 * creates and fills them on @backend (dyno-samples.h), with progress.
 *
 * Signal "tables-changed" (): after loading, when at least one table was created or
 * written, so that the window refreshes its sidebar. */
#define DYNO_TYPE_SAMPLES_DIALOG (dyno_samples_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoSamplesDialog, dyno_samples_dialog, DYNO, SAMPLES_DIALOG, AdwWindow)

GtkWidget     *dyno_samples_dialog_new             (GtkWindow          *parent,
                                                    DynoBackend        *backend);
/* DescribeTable polling while a table is created (default 500 ms; tests shorten it). */
void           dyno_samples_dialog_set_poll_interval (DynoSamplesDialog *self,
                                                      guint              interval_ms);
gboolean       dyno_samples_dialog_get_running     (DynoSamplesDialog  *self);
const char    *dyno_samples_dialog_get_summary     (DynoSamplesDialog  *self);

G_END_DECLS
