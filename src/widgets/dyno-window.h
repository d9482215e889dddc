/* dyno-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-connection.h"

G_BEGIN_DECLS

typedef struct _DynoApplication DynoApplication;

#define DYNO_TYPE_WINDOW (dyno_window_get_type ())
G_DECLARE_FINAL_TYPE (DynoWindow, dyno_window, DYNO, WINDOW, AdwApplicationWindow)

DynoWindow *dyno_window_new             (DynoApplication *app);
/* Shows @connection in the sidebar, opens it, and when @table is non-NULL opens that table
 * in a tab as soon as it is listed. */
void        dyno_window_open_connection (DynoWindow      *self,
                                         DynoConnection  *connection,
                                         const char      *table);
void        dyno_window_add_toast       (DynoWindow      *self,
                                         const char      *message);
/* A toast with a button (e.g. Undo): connect to the returned toast's "button-clicked". */
AdwToast   *dyno_window_add_toast_with_button (DynoWindow *self,
                                               const char *message,
                                               const char *button_label);

G_END_DECLS
