/* dyno-cli-iac.h: dynotable-cli iac
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The whole argv (global options first).  Exit status: 0 written; 1 a table could not be
 * described or the file not written; 2 a usage error. */
int dyno_cli_iac (int    argc,
                  char **argv);

G_END_DECLS
