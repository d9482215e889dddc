/* dyno-connection-dialog.h: add or edit a connection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-connection.h"

G_BEGIN_DECLS

#define DYNO_TYPE_CONNECTION_DIALOG (dyno_connection_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynoConnectionDialog, dyno_connection_dialog, DYNO, CONNECTION_DIALOG,
                      AdwWindow)

/* @connection NULL: a new connection. */
DynoConnectionDialog *dyno_connection_dialog_new (GtkWindow      *parent,
                                                  DynoConnection *connection);

G_END_DECLS
