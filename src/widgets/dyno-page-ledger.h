/* dyno-page-ledger.h: one row per page of a run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "dyno-run.h"

G_BEGIN_DECLS

#define DYNO_TYPE_PAGE_LEDGER (dyno_page_ledger_get_type ())
G_DECLARE_FINAL_TYPE (DynoPageLedger, dyno_page_ledger, DYNO, PAGE_LEDGER, GtkWidget)

GtkWidget *dyno_page_ledger_new     (void);
void       dyno_page_ledger_set_run (DynoPageLedger *self,
                                     DynoRun        *run);

G_END_DECLS
