/* dyno-codegen-json.c: the request as DynamoDB's JSON (what --cli-input-json and the SDKs take)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-old.h"

char *
dyno_codegen_emit_request_json (const DynoRequest        *request,
                                const DynoPrintedRequest *printed,
                                const DynoCodegenOptions *options,
                                GError                  **error)
{
  GString *out;
  char *json;

  g_return_val_if_fail (request != NULL, NULL);

  /* There is no program form of a JSON document: both forms are the request itself, which
   * `aws dynamodb <op> --cli-input-json file://…` runs.  The endpoint is not part of a
   * request. */
  json = dyno_request_to_json (request, TRUE);
  out = g_string_new (json);
  g_free (json);
  if (out->len == 0 || out->str[out->len - 1] != '\n')
    g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}
