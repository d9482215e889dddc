/* dyno-cli-transact.h: dynotable-cli transact-write, transact-get and partiql
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The whole argv (global options first).  Exit status: 0 done; 1 the server refused (a
 * cancelled transaction: nothing written) or failed; 2 a usage or validation error (nothing
 * was sent). */
int dyno_cli_transact_write (int    argc,
                             char **argv);
int dyno_cli_transact_get   (int    argc,
                             char **argv);
int dyno_cli_partiql        (int    argc,
                             char **argv);

G_END_DECLS
