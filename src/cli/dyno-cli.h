/* dyno-cli.h: subcommands of dynotable-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Each returns the process exit status: 0 success, 1 server/runtime error, 2 usage or
 * validation error (message on stderr, nothing on stdout). */
int dyno_cli_expr (int argc, char **argv);  /* dyno-cli-expr.c; argv[0] is "expr" */
int dyno_cli_run  (int argc, char **argv);  /* dyno-cli-run.c; the whole argv (global options first) */

int dyno_cli_sso  (int argc, char **argv);  /* dyno-cli-sso.c; the whole argv */
int dyno_cli_serve (int argc, char **argv); /* dyno-cli-serve.c; the whole argv */

G_END_DECLS
