/* dyno-cli-model.h: dynotable-cli model import|export (NoSQL Workbench data models)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* `model import FILE [--apply]`, `model export TABLE… [-o FILE] [--name NAME]` (the whole
 * argv, global options first).  Exit status: 0 success; 1 the server failed or a table of the
 * model exists already (nothing written); 2 a usage error or a model that cannot be read. */
int dyno_cli_model (int    argc,
                    char **argv);

G_END_DECLS
