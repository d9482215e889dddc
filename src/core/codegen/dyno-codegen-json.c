/* dyno-codegen-json.c: the request as DynamoDB's JSON (what --cli-input-json and the SDKs take)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-private.h"

/* There is no program form of a JSON document: both forms are the request itself, which
 * `aws dynamodb <op> --cli-input-json file://…` runs.  The endpoint is not part of a
 * request. */
static void
json_snippet (DynoCodegenWriter *w)
{
  g_autofree char *json = dyno_request_to_json (w->request, TRUE);

  g_string_append (w->out, json);
  if (w->out->len == 0 || w->out->str[w->out->len - 1] != '\n')
    g_string_append_c (w->out, '\n');
}

const DynoCodegenLang dyno_codegen_lang_request_json = {
  .order = DYNO_CODEGEN_ORDER_REQUEST_JSON,
  .snippet = json_snippet,
};
