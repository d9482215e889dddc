/* dyno-codegen.h: a request as code for 15 targets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-request.h"

G_BEGIN_DECLS

typedef struct {
  gboolean    program;       /* a complete runnable program with its pagination loop */
  const char *endpoint_url;  /* set when the connection is not AWS (DynamoDB Local) */
  const char *region;        /* NULL: the SDK's default chain decides */
  const char *profile;       /* NULL: default */
} DynoCodegenOptions;

/* Target ids: request-json cli js-v3 js-docclient boto3 boto3-resource go-v2 java-v2 rust
 * dotnet kotlin php ruby cpp partiql */
const char * const *dyno_codegen_list_targets   (void);
/* A human name: "AWS CLI v2", "JavaScript SDK v3 (DocumentClient)", … */
const char         *dyno_codegen_get_label      (const char               *target);
/* The GtkSourceView language id for highlighting ("json", "sh", "js", "python", …) */
const char         *dyno_codegen_get_language   (const char               *target);

/* Returns the code, or NULL with DYNO_ERROR_UNSUPPORTED ("not expressible in PartiQL: …")
 * or DYNO_ERROR_FAILED for an unknown target. */
char               *dyno_codegen_emit           (const DynoRequest        *request,
                                                 const char               *target,
                                                 const DynoCodegenOptions *options,
                                                 GError                  **error);

G_END_DECLS
