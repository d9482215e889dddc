/* dyno-cli-session.h: what a dynotable-cli command that talks to DynamoDB shares: the global
 * options, the connection, a main loop to wait on, Ctrl+C, the exit status
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "dyno-backend.h"
#include "dyno-credentials.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

#define EXIT_OK          0
#define EXIT_FAILURE_RUN 1
#define EXIT_USAGE       2

/* --endpoint-url, --region, --profile: each takes a value. */
extern const char * const dyno_cli_global_options[3];

typedef struct {
  const char             *command;     /* "export", "patterns check", … for messages */
  DynoConnectionSettings  settings;
  DynoBackend            *backend;
  GMainLoop              *loop;
  GCancellable           *cancellable; /* cancelled by Ctrl+C or SIGTERM */
  DynoTableInfo          *schema;      /* after dyno_cli_session_describe() */
  guint                   signal_ids[2];
  gboolean                interrupted;
  int                     status;      /* EXIT_* */
} DynoCliSession;

void     dyno_cli_session_clear    (DynoCliSession *s);
/* "dynotable-cli COMMAND: CONTEXT: MESSAGE" on stderr. */
void     dyno_cli_session_report   (DynoCliSession *s,
                                    const char     *context,
                                    const char     *message);
/* The global options, then the command's own (@entries); FALSE (status set) on a usage error
 * or --help. */
gboolean dyno_cli_session_parse    (DynoCliSession *s,
                                    int             argc,
                                    char          **argv,
                                    GOptionEntry   *entries,
                                    const char     *parameter,
                                    const char     *summary);
/* The HTTP backend for the settings (unless s->backend is set already), the loop, and
 * Ctrl+C/SIGTERM cancelling. */
gboolean dyno_cli_session_connect  (DynoCliSession *s);
/* DescribeTable into s->schema, waiting on the session's loop. */
gboolean dyno_cli_session_describe (DynoCliSession *s,
                                    const char     *table);

G_END_DECLS
