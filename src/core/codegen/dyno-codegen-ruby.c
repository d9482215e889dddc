/* dyno-codegen-ruby.c: a request as AWS SDK for Ruby v3 (aws-sdk-dynamodb) code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-b-private.h"

/* Aws::DynamoDB::Client marshals plain Ruby values by default (simple_attributes: true):
 * a String becomes S, a Numeric N, a Hash M.  Typed values ({ s: '…' }) given to such a
 * client would be stored as maps, so the code always makes its client with
 * `simple_attributes: false` and writes every value with its type, numbers as strings.
 * Strings are single-quoted unless they need escapes; then double-quoted with `#` escaped,
 * so nothing is interpolated.  Binary is a double-quoted byte string forced to binary (.b). */

static void ruby_append_value (GString         *out,
                               const DynoValue *value,
                               guint            indent);

static void
ruby_append_string (GString    *out,
                    const char *text,
                    gsize       len)
{
  dyno_cgb_append_script_string_len (out, text, len, TRUE);
}

static void
ruby_append_bytes (GString      *out,
                   const guint8 *data,
                   gsize         len)
{
  g_string_append_c (out, '"');
  dyno_cgb_append_byte_escapes (out, data, len, TRUE);
  g_string_append (out, "\".b");
}

static const DynoCgbMapStyle ruby_map_style = {
  "", "{}", FALSE, "{\n", "", " => ", '}', 2,
  ruby_append_string, ruby_append_value,
};

/* {\n 'k' => v,\n} for an M value's members; the closing brace at @indent. */
static void
ruby_append_attribute_map (GString         *out,
                           const DynoValue *map,
                           guint            indent)
{
  dyno_cgb_append_map (out, &ruby_map_style, DYNO_CGB_ITEM, map, NULL, indent);
}

static void
ruby_append_value (GString         *out,
                   const DynoValue *value,
                   guint            indent)
{
  DynoValueType kind = dyno_value_get_kind (value);
  guint n = dyno_value_get_n_children (value);
  gsize len;

  switch (kind)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
      {
        const char *text = dyno_value_get_string (value, &len);

        g_string_append (out, kind == DYNO_VALUE_S ? "{ s: " : "{ n: ");
        ruby_append_string (out, text, len);
        g_string_append (out, " }");
      }
      break;
    case DYNO_VALUE_B:
      {
        const guint8 *data = dyno_value_get_binary (value, &len);

        g_string_append (out, "{ b: ");
        ruby_append_bytes (out, data, len);
        g_string_append (out, " }");
      }
      break;
    case DYNO_VALUE_BOOL:
      g_string_append_printf (out, "{ bool: %s }", dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, "{ null: true }");
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      g_string_append_printf (out, "{ %s: [",
                              kind == DYNO_VALUE_SS ? "ss" : kind == DYNO_VALUE_NS ? "ns" : "bs");
      dyno_cgb_append_set_members (out, value, ruby_append_string, ruby_append_bytes);
      g_string_append (out, "] }");
      break;
    case DYNO_VALUE_M:
      g_string_append (out, "{ m: ");
      ruby_append_attribute_map (out, value, indent);
      g_string_append (out, " }");
      break;
    case DYNO_VALUE_L:
      g_string_append (out, "{ l: [");
      if (n > 0)
        g_string_append_c (out, '\n');
      dyno_cgb_append_list_items (out, value, indent + 2, ruby_append_value);
      if (n > 0)
        dyno_cgb_indent (out, indent, 1);
      g_string_append (out, "] }");
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
ruby_append_name (GString    *out,
                  const char *api_name)
{
  dyno_cgb_append_snake (out, api_name);
  g_string_append (out, ": ");
}

static const DynoCgbFieldStyle ruby_field_style = {
  ruby_append_name, NULL, &ruby_map_style, &ruby_map_style, ",\n",
};

/* `name: value,` lines at @indent + 2 (keyword arguments or a hash body). */
static void
ruby_append_params (GString                  *out,
                    const DynoRequest        *request,
                    const DynoPrintedRequest *printed,
                    guint                     indent)
{
  dyno_cgb_append_fields (out, &ruby_field_style, request, printed, indent + 2);
}

static void
ruby_append_program (GString                  *out,
                     const DynoRequest        *request,
                     const DynoPrintedRequest *printed,
                     const DynoCodegenOptions *options)
{
  const char *method = dyno_cgb_operation_snake (request->operation);
  gboolean paginated = request->operation == DYNO_OP_QUERY ||
                       request->operation == DYNO_OP_SCAN;

  g_string_append (out, "require 'aws-sdk-dynamodb'\n"
                        "\n"
                        "# simple_attributes: false, so that the typed values below are sent as"
                        " written\n"
                        "client = Aws::DynamoDB::Client.new(\n"
                        "  simple_attributes: false,\n");
  if (options->region != NULL)
    {
      g_string_append (out, "  region: ");
      ruby_append_string (out, options->region, strlen (options->region));
      g_string_append (out, ",\n");
    }
  if (options->profile != NULL)
    {
      g_string_append (out, "  profile: ");
      ruby_append_string (out, options->profile, strlen (options->profile));
      g_string_append (out, ",\n");
    }
  if (options->endpoint_url != NULL)
    {
      g_string_append (out, "  endpoint: ");
      ruby_append_string (out, options->endpoint_url, strlen (options->endpoint_url));
      g_string_append (out, ",\n");
    }
  g_string_append (out, ")\n"
                        "\n"
                        "params = {\n");
  ruby_append_params (out, request, printed, 0);
  g_string_append (out, "}\n\n");

  if (paginated && request->select == DYNO_SELECT_COUNT)
    g_string_append_printf (out,
                            "count = 0\n"
                            "client.%s(params).each_page do |page|\n"
                            "  count += page.count\n"
                            "end\n"
                            "puts \"Count: \" + count.to_s\n",
                            method);
  else if (paginated)
    g_string_append_printf (out,
                            "client.%s(params).each_page do |page|\n"
                            "  page.items.each do |item|\n"
                            "    p item.transform_values(&:to_h)\n"
                            "  end\n"
                            "end\n",
                            method);
  else
    g_string_append_printf (out,
                            "response = client.%s(params)\n"
                            "p response.%s.transform_values(&:to_h) if response.%s\n",
                            method,
                            request->operation == DYNO_OP_GET_ITEM ? "item" : "attributes",
                            request->operation == DYNO_OP_GET_ITEM ? "item" : "attributes");
}

char *
dyno_codegen_emit_ruby (const DynoRequest        *request,
                        const DynoPrintedRequest *printed,
                        const DynoCodegenOptions *options,
                        GError                  **error)
{
  GString *out;

  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (printed != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  out = g_string_new (NULL);
  if (options->program)
    {
      ruby_append_program (out, request, printed, options);
    }
  else
    {
      g_string_append (out, "# Typed values need a client made with simple_attributes: false\n"
                            "client = Aws::DynamoDB::Client.new(simple_attributes: false)\n");
      g_string_append_printf (out, "response = client.%s(\n",
                              dyno_cgb_operation_snake (request->operation));
      ruby_append_params (out, request, printed, 0);
      g_string_append (out, ")\n");
    }
  return g_string_free (out, FALSE);
}
