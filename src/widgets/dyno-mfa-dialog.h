/* dyno-mfa-dialog.h: asks for the code of an MFA device when a profile's role needs one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Call on the thread that runs GTK.  Makes every credential resolution of this process that needs an MFA code ask for it in a
 * dialog over the active window of @app (dyno_credentials_set_mfa_prompt()).  The resolution
 * runs in a worker thread: it waits while the dialog is open; Cancel fails it. */
void dyno_mfa_dialog_install (GtkApplication *app);   /* nullable: no parent window */

/* The prompt itself, for tests: shown over @parent (nullable); blocks the calling thread,
 * which must not be the main one, until the dialog is answered. */
char *dyno_mfa_dialog_ask    (GtkWindow      *parent,
                              const char     *profile,
                              const char     *mfa_serial,
                              const char     *previous_error,  /* nullable */
                              GError        **error);

G_END_DECLS
