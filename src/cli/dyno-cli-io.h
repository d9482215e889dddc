/* dyno-cli-io.h: small helpers shared by the dynotable-cli subcommands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>

#include "dyno-backend.h"
#include "dyno-credentials.h"
#include "dyno-error.h"

G_BEGIN_DECLS

/* Reads @path, or standard input when @path is "-".  The contents are NUL-terminated. */
gboolean dyno_cli_read_input       (const char               *path,
                                    char                    **contents,
                                    gsize                    *length,
                                    GError                  **error);

/* "dynotable-cli: <context>: <message>" on stderr (@context may be NULL). */
void     dyno_cli_print_error      (const char               *context,
                                    const char               *message);

/* Shows the line of @text that @location points into, and a caret line under it:
 *
 *     PK = "a" AND )
 *                  ^
 *
 * The caret sits under the character at the location (tabs are copied so it lines up), and
 * '~' continues it over the rest of the location's length on that line. */
void     dyno_cli_print_location   (FILE                     *out,
                                    const char               *text,
                                    const DynoParseLocation  *location);

/* Writes @text to stdout with a final newline if it has none.  Returns FALSE if stdout
 * could not be written (a closed pipe, a full disk). */
gboolean dyno_cli_write_output     (const char               *text);

/* dyno_resolve_config() for the global options, with the process's environment: a bad
 * --endpoint-url or a --profile that does not exist is named as the option it came from. */
DynoResolvedConfig *dyno_cli_resolve_config (const DynoConnectionSettings *settings,
                                             GError                      **error);

/* The backend for the global options: dyno_cli_resolve_config(), then an HTTP backend for
 * that configuration, which goes into @config (may be NULL). */
DynoBackend        *dyno_cli_connect        (const DynoConnectionSettings *settings,
                                             DynoResolvedConfig          **config,
                                             GError                      **error);

/* The code of --mfa-code, for profiles with mfa_serial (NULL: ask on the terminal). */
void     dyno_cli_set_mfa_code     (const char               *code);

G_END_DECLS
