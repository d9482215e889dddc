/* dyno-cli-patterns.h: dynotable-cli patterns check
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The whole argv (global options first).  Exit status: 0 every pattern passed; 1 a pattern
 * failed or could not run; 2 a usage error or a pattern set that cannot be read (nothing
 * was sent). */
int dyno_cli_patterns (int    argc,
                       char **argv);

G_END_DECLS
