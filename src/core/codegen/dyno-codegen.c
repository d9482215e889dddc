/* dyno-codegen.c: the code targets, their names, and the walk with each one's table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen.h"
#include "dyno-codegen-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-error.h"

typedef struct {
  const char            *id;
  const char            *label;
  const char            *language;  /* GtkSourceView 5 language id */
  const DynoCodegenLang *lang;      /* its table of emitters for the walker */
} DynoCodegenTarget;

static const DynoCodegenTarget targets[] = {
  { "request-json", N_("Request JSON"), "json",
    &dyno_codegen_lang_request_json },
  { "cli", N_("AWS CLI v2"), "sh",
    &dyno_codegen_lang_cli },
  { "js-v3", N_("JavaScript SDK v3"), "js",
    &dyno_codegen_lang_js_v3 },
  { "js-docclient", N_("JavaScript SDK v3 (DocumentClient)"), "js",
    &dyno_codegen_lang_js_docclient },
  { "boto3", N_("Python boto3 (client)"), "python3",
    &dyno_codegen_lang_boto3 },
  { "boto3-resource", N_("Python boto3 (Table resource)"), "python3",
    &dyno_codegen_lang_boto3_resource },
  { "go-v2", N_("Go SDK v2"), "go",
    &dyno_codegen_lang_go_v2 },
  { "java-v2", N_("Java SDK v2"), "java",
    &dyno_codegen_lang_java_v2 },
  { "rust", N_("Rust SDK"), "rust",
    &dyno_codegen_lang_rust },
  { "dotnet", N_(".NET SDK (C#)"), "c-sharp",
    &dyno_codegen_lang_dotnet },
  { "kotlin", N_("Kotlin SDK"), "kotlin",
    &dyno_codegen_lang_kotlin },
  { "php", N_("PHP SDK v3"), "php",
    &dyno_codegen_lang_php },
  { "ruby", N_("Ruby SDK v3"), "ruby",
    &dyno_codegen_lang_ruby },
  { "cpp", N_("C++ SDK"), "cpp",
    &dyno_codegen_lang_cpp },
  { "partiql", N_("PartiQL"), "sql",
    &dyno_codegen_lang_partiql },
};

static const DynoCodegenTarget *
find_target (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    if (g_strcmp0 (targets[i].id, id) == 0)
      return &targets[i];
  return NULL;
}

const char * const *
dyno_codegen_list_targets (void)
{
  static const char * const ids[] = {
    "request-json", "cli", "js-v3", "js-docclient", "boto3", "boto3-resource", "go-v2",
    "java-v2", "rust", "dotnet", "kotlin", "php", "ruby", "cpp", "partiql", NULL,
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (ids) == G_N_ELEMENTS (targets) + 1);
  return ids;
}

const char *
dyno_codegen_get_label (const char *target)
{
  const DynoCodegenTarget *t;

  g_return_val_if_fail (target != NULL, NULL);

  t = find_target (target);
  return t != NULL ? _(t->label) : NULL;
}

const char *
dyno_codegen_get_language (const char *target)
{
  const DynoCodegenTarget *t;

  g_return_val_if_fail (target != NULL, NULL);

  t = find_target (target);
  return t != NULL ? t->language : NULL;
}

/* What the two forms promise (the tests hold every target of codegen-a to it):
 *
 * - A snippet is self-contained up to one call: imports, a client of its own (endpoint,
 *   region and profile from @options, else the SDK's default chain), the request with the
 *   printed expressions and typed values, and ONE call whose result is bound to `response`
 *   (JS, Python).  The CLI snippet is the command itself; the CLI pages on its own unless
 *   --limit is given.  PartiQL's snippet is the statement.
 * - A program runs as is (bash script, `node program.mjs`, `python3 program.py`): Query and
 *   Scan loop on LastEvaluatedKey/ExclusiveStartKey (PartiQL: NextToken) and print every item
 *   as one line of DynamoDB JSON, binary in base64; GetItem prints the item, writes print
 *   the Attributes ReturnValues asks for.  DocumentClient and the boto3 Table resource turn
 *   their plain values back into DynamoDB JSON with marshall()/TypeSerializer (numbers exact,
 *   though TypeSerializer may write 1E-21 for 0.000000000000000000001). */
char *
dyno_codegen_emit (const DynoRequest        *request,
                   const char               *target,
                   const DynoCodegenOptions *options,
                   GError                  **error)
{
  static const DynoCodegenOptions default_options = { FALSE, NULL, NULL, NULL };
  const DynoCodegenTarget *t;
  g_autoptr(DynoPrintedRequest) printed = NULL;

  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (target != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  t = find_target (target);
  if (t == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_FAILED,
                   _("There is no code target named “%s”."), target);
      return NULL;
    }
  if (request->table_name == NULL || request->table_name[0] == '\0')
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           _("The request has no table name."));
      return NULL;
    }

  /* One printer for all the request's expressions, so every target shows the same
   * expression strings and placeholders. */
  printed = dyno_request_print (request);
  return dyno_codegen_walk (t->lang, request, printed,
                            options != NULL ? options : &default_options, error);
}
