/* dyno-codegen-php.c: a request as AWS SDK for PHP v3 code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-private.h"

#include <string.h>

/* The low-level client's parameter arrays, values as typed arrays (['S' => …]).  Strings are
 * single-quoted unless they hold characters that need an escape; then double-quoted with `$`
 * escaped, so nothing is interpolated.  Binary is written as base64_decode('…'): the SDK
 * takes raw bytes and encodes them itself. */

static void
php_text (DynoCodegenWriter *w,
          const char        *text,
          gsize              len)
{
  dyno_codegen_append_script_string (w->out, text, len, FALSE);
}

static void
php_bytes (DynoCodegenWriter *w,
           const guint8      *data,
           gsize              len)
{
  g_string_append (w->out, "base64_decode('");
  dyno_codegen_append_base64 (w->out, data, len);
  g_string_append (w->out, "')");
}

static const DynoCodegenMapLines php_map_lines = {
  "", "[]", FALSE, "[\n", "", " => ", ']', 4,
};

static void
php_map (DynoCodegenWriter *w,
         const DynoValue   *map,
         guint              indent)
{
  DynoCodegenPairs pairs = dyno_codegen_pairs_of_map (map);

  dyno_codegen_write_map_lines (w, &php_map_lines, &pairs, indent);
}

static void
php_list (DynoCodegenWriter *w,
          const DynoValue   *list,
          guint              indent)
{
  if (dyno_value_get_n_children (list) == 0)
    return;
  g_string_append_c (w->out, '\n');
  dyno_codegen_write_list_lines (w, list, indent + 4);
  dyno_codegen_append_indent (w->out, indent);
}

static void
php_member_map (DynoCodegenWriter       *w,
                const DynoCodegenMember *m,
                guint                    indent)
{
  dyno_codegen_write_map_lines (w, &php_map_lines, &m->pairs, indent);
}

/* The parameter array `[\n…\n]`, its closing bracket at column 0. */
static void
php_params (DynoCodegenWriter *w)
{
  g_string_append (w->out, "[\n");
  dyno_codegen_write_members (w, 4);
  g_string_append_c (w->out, ']');
}

static void
php_option (DynoCodegenWriter *w,
            const char        *name,
            const char        *value)
{
  if (value == NULL)
    return;
  g_string_append_printf (w->out, "    '%s' => ", name);
  php_text (w, value, strlen (value));
  g_string_append (w->out, ",\n");
}

static void
php_loop (DynoCodegenWriter *w,
          gboolean           count)
{
  const char *op = dyno_codegen_operation_pascal (w->request->operation);

  if (count)
    g_string_append_printf (w->out,
                            "$count = 0;\n"
                            "foreach ($client->getPaginator('%s', $params) as $page) {\n"
                            "    $count += $page['Count'];\n"
                            "}\n"
                            "echo 'Count: ', $count, \"\\n\";\n",
                            op);
  else
    g_string_append_printf (w->out,
                            "foreach ($client->getPaginator('%s', $params) as $page) {\n"
                            "    foreach ($page['Items'] as $item) {\n"
                            "        print_r($item);\n"
                            "    }\n"
                            "}\n",
                            op);
}

static void
php_call (DynoCodegenWriter *w)
{
  g_autofree char *method = dyno_codegen_operation_camel (w->request->operation);
  const char *member = dyno_codegen_result_member (w->request->operation);

  g_string_append_printf (w->out,
                          "$result = $client->%s($params);\n"
                          "if (isset($result['%s'])) {\n"
                          "    print_r($result['%s']);\n"
                          "}\n",
                          method, member, member);
}

static void
php_program (DynoCodegenWriter *w)
{
  g_string_append (w->out, "<?php\n"
                           "\n"
                           "require __DIR__ . '/vendor/autoload.php';\n"
                           "\n"
                           "use Aws\\DynamoDb\\DynamoDbClient;\n"
                           "\n"
                           "$client = new DynamoDbClient([\n"
                           "    'version' => 'latest',\n");
  php_option (w, "region", w->options->region);
  php_option (w, "profile", w->options->profile);
  php_option (w, "endpoint", w->options->endpoint_url);
  g_string_append (w->out, "]);\n"
                           "\n"
                           "$params = ");
  php_params (w);
  g_string_append (w->out, ";\n\n");
  dyno_codegen_write_ending (w);
}

static void
php_snippet (DynoCodegenWriter *w)
{
  g_autofree char *method = dyno_codegen_operation_camel (w->request->operation);

  g_string_append_printf (w->out, "$result = $client->%s(", method);
  php_params (w);
  g_string_append (w->out, ");\n");
}

const DynoCodegenLang dyno_codegen_lang_php = {
  .order = DYNO_CODEGEN_ORDER_REQUEST_JSON,
  .comment = "// ",
  .value = {
    .text = php_text,
    .bytes = php_bytes,
    .true_word = "true",
    .false_word = "false",
    .null_word = "true",
    .open = {
      [DYNO_VALUE_S] = "['S' => ", [DYNO_VALUE_N] = "['N' => ", [DYNO_VALUE_B] = "['B' => ",
      [DYNO_VALUE_BOOL] = "['BOOL' => ", [DYNO_VALUE_NULL] = "['NULL' => ",
      [DYNO_VALUE_M] = "['M' => ", [DYNO_VALUE_L] = "['L' => [",
      [DYNO_VALUE_SS] = "['SS' => [", [DYNO_VALUE_NS] = "['NS' => [", [DYNO_VALUE_BS] = "['BS' => [",
    },
    .close = {
      [DYNO_VALUE_S] = "]", [DYNO_VALUE_N] = "]", [DYNO_VALUE_B] = "]", [DYNO_VALUE_BOOL] = "]",
      [DYNO_VALUE_NULL] = "]", [DYNO_VALUE_M] = "]", [DYNO_VALUE_L] = "]]",
      [DYNO_VALUE_SS] = "]]", [DYNO_VALUE_NS] = "]]", [DYNO_VALUE_BS] = "]]",
    },
    .map = php_map,
    .list = php_list,
  },
  .member = {
    .name_format = "'%s' => ",
    .end = ",\n",
    .map = php_member_map,
  },
  .snippet = php_snippet,
  .program = php_program,
  .loop = php_loop,
  .call = php_call,
};
