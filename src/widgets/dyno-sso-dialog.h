/* dyno-sso-dialog.h: signing in to IAM Identity Center from the app (device authorization)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Called once the dialog is done: @signed_in TRUE when the token cache was written. */
typedef void (*DynoSsoDialogDone) (gboolean  signed_in,
                                   gpointer  user_data);

/* Shows a dialog over @parent that signs the profile @profile in to IAM Identity Center: it
 * shows the address and the code, opens the address in the browser (unless @open_browser is
 * FALSE: tests), waits with a Cancel button, and closes itself when the sign-in is approved.
 * A failure stays on screen with its message.  Returns the dialog (owned by GTK). */
GtkWidget *dyno_sso_dialog_present (GtkWindow         *parent,
                                    const char        *profile,
                                    gboolean           open_browser,
                                    DynoSsoDialogDone  done,
                                    gpointer           user_data);

G_END_DECLS
