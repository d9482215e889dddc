/* dyno-codegen-ruby.c: a request as AWS SDK for Ruby v3 (aws-sdk-dynamodb) code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-private.h"

#include <string.h>

/* Aws::DynamoDB::Client marshals plain Ruby values by default (simple_attributes: true):
 * a String becomes S, a Numeric N, a Hash M.  Typed values ({ s: '…' }) given to such a
 * client would be stored as maps, so the code always makes its client with
 * `simple_attributes: false` and writes every value with its type, numbers as strings.
 * Strings are single-quoted unless they need escapes; then double-quoted with `#` escaped,
 * so nothing is interpolated.  Binary is a double-quoted byte string forced to binary (.b). */

static void
ruby_text (DynoCodegenWriter *w,
           const char        *text,
           gsize              len)
{
  dyno_codegen_append_script_string (w->out, text, len, TRUE);
}

static void
ruby_bytes (DynoCodegenWriter *w,
            const guint8      *data,
            gsize              len)
{
  g_string_append_c (w->out, '"');
  dyno_codegen_append_byte_escapes (w->out, data, len, TRUE);
  g_string_append (w->out, "\".b");
}

static const DynoCodegenMapLines ruby_map_lines = {
  "", "{}", FALSE, "{\n", "", " => ", '}', 2,
};

static void
ruby_map (DynoCodegenWriter *w,
          const DynoValue   *map,
          guint              indent)
{
  DynoCodegenPairs pairs = dyno_codegen_pairs_of_map (map);

  dyno_codegen_write_map_lines (w, &ruby_map_lines, &pairs, indent);
}

static void
ruby_list (DynoCodegenWriter *w,
           const DynoValue   *list,
           guint              indent)
{
  if (dyno_value_get_n_children (list) == 0)
    return;
  g_string_append_c (w->out, '\n');
  dyno_codegen_write_list_lines (w, list, indent + 2);
  dyno_codegen_append_indent (w->out, indent);
}

static void
ruby_member_begin (DynoCodegenWriter       *w,
                   const DynoCodegenMember *m,
                   guint                    indent)
{
  dyno_codegen_append_indent (w->out, indent);
  dyno_codegen_append_snake (w->out, m->name, '_');
  g_string_append (w->out, ": ");
}

static void
ruby_member_map (DynoCodegenWriter       *w,
                 const DynoCodegenMember *m,
                 guint                    indent)
{
  dyno_codegen_write_map_lines (w, &ruby_map_lines, &m->pairs, indent);
}

static void
ruby_option (DynoCodegenWriter *w,
             const char        *name,
             const char        *value)
{
  if (value == NULL)
    return;
  g_string_append_printf (w->out, "  %s: ", name);
  ruby_text (w, value, strlen (value));
  g_string_append (w->out, ",\n");
}

static void
ruby_loop (DynoCodegenWriter *w,
           gboolean           count)
{
  const char *method = dyno_codegen_operation_snake (w->request->operation);

  if (count)
    g_string_append_printf (w->out,
                            "count = 0\n"
                            "client.%s(params).each_page do |page|\n"
                            "  count += page.count\n"
                            "end\n"
                            "puts \"Count: \" + count.to_s\n",
                            method);
  else
    g_string_append_printf (w->out,
                            "client.%s(params).each_page do |page|\n"
                            "  page.items.each do |item|\n"
                            "    p item.transform_values(&:to_h)\n"
                            "  end\n"
                            "end\n",
                            method);
}

static void
ruby_call (DynoCodegenWriter *w)
{
  const char *member = w->request->operation == DYNO_OP_GET_ITEM ? "item" : "attributes";

  g_string_append_printf (w->out,
                          "response = client.%s(params)\n"
                          "p response.%s.transform_values(&:to_h) if response.%s\n",
                          dyno_codegen_operation_snake (w->request->operation), member, member);
}

static void
ruby_program (DynoCodegenWriter *w)
{
  g_string_append (w->out, "require 'aws-sdk-dynamodb'\n"
                           "\n"
                           "# simple_attributes: false, so that the typed values below are sent as"
                           " written\n"
                           "client = Aws::DynamoDB::Client.new(\n"
                           "  simple_attributes: false,\n");
  ruby_option (w, "region", w->options->region);
  ruby_option (w, "profile", w->options->profile);
  ruby_option (w, "endpoint", w->options->endpoint_url);
  g_string_append (w->out, ")\n"
                           "\n"
                           "params = {\n");
  dyno_codegen_write_members (w, 2);
  g_string_append (w->out, "}\n\n");
  dyno_codegen_write_ending (w);
}

static void
ruby_snippet (DynoCodegenWriter *w)
{
  g_string_append (w->out, "# Typed values need a client made with simple_attributes: false\n"
                           "client = Aws::DynamoDB::Client.new(simple_attributes: false)\n");
  g_string_append_printf (w->out, "response = client.%s(\n",
                          dyno_codegen_operation_snake (w->request->operation));
  dyno_codegen_write_members (w, 2);
  g_string_append (w->out, ")\n");
}

const DynoCodegenLang dyno_codegen_lang_ruby = {
  .order = DYNO_CODEGEN_ORDER_REQUEST_JSON,
  .comment = "# ",
  .value = {
    .text = ruby_text,
    .bytes = ruby_bytes,
    .true_word = "true",
    .false_word = "false",
    .null_word = "true",
    .open = {
      [DYNO_VALUE_S] = "{ s: ", [DYNO_VALUE_N] = "{ n: ", [DYNO_VALUE_B] = "{ b: ",
      [DYNO_VALUE_BOOL] = "{ bool: ", [DYNO_VALUE_NULL] = "{ null: ",
      [DYNO_VALUE_M] = "{ m: ", [DYNO_VALUE_L] = "{ l: [",
      [DYNO_VALUE_SS] = "{ ss: [", [DYNO_VALUE_NS] = "{ ns: [", [DYNO_VALUE_BS] = "{ bs: [",
    },
    .close = {
      [DYNO_VALUE_S] = " }", [DYNO_VALUE_N] = " }", [DYNO_VALUE_B] = " }",
      [DYNO_VALUE_BOOL] = " }", [DYNO_VALUE_NULL] = " }", [DYNO_VALUE_M] = " }",
      [DYNO_VALUE_L] = "] }", [DYNO_VALUE_SS] = "] }", [DYNO_VALUE_NS] = "] }",
      [DYNO_VALUE_BS] = "] }",
    },
    .map = ruby_map,
    .list = ruby_list,
  },
  .member = {
    .begin = ruby_member_begin,
    .end = ",\n",
    .map = ruby_member_map,
  },
  .snippet = ruby_snippet,
  .program = ruby_program,
  .loop = ruby_loop,
  .call = ruby_call,
};
