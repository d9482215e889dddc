/* dyno-cli-data.h: dynotable-cli import and export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The whole argv (global options first).  Exit status: 0 success; 1 some rows were
 * rejected or could not be written (import; all good rows still written), or the server
 * failed; 2 a usage or validation error (nothing was sent). */
int      dyno_cli_import     (int    argc,
                              char **argv);
int      dyno_cli_export     (int    argc,
                              char **argv);

/* The command of @argv after the global options (--endpoint-url/--region/--profile and
 * their values), or NULL. */
const char *dyno_cli_data_find_command (int    argc,
                                        char **argv);

G_END_DECLS
