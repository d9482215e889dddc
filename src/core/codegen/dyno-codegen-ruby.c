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

/* {\n 'k' => v,\n} for an M value's members; the closing brace at @indent. */
static void
ruby_append_attribute_map (GString         *out,
                           const DynoValue *map,
                           guint            indent)
{
  guint n = dyno_value_get_n_children (map);

  if (n == 0)
    {
      g_string_append (out, "{}");
      return;
    }
  g_string_append (out, "{\n");
  for (guint i = 0; i < n; i++)
    {
      gsize len;
      const char *name = dyno_value_get_member_name (map, i, &len);

      dyno_cgb_indent (out, indent + 2, 1);
      ruby_append_string (out, name, len);
      g_string_append (out, " => ");
      ruby_append_value (out, dyno_value_get_child (map, i), indent + 2);
      g_string_append (out, ",\n");
    }
  dyno_cgb_indent (out, indent, 1);
  g_string_append_c (out, '}');
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
      for (guint i = 0; i < n; i++)
        {
          const DynoValue *member = dyno_value_get_child (value, i);

          if (i > 0)
            g_string_append (out, ", ");
          if (kind == DYNO_VALUE_BS)
            {
              const guint8 *data = dyno_value_get_binary (member, &len);

              ruby_append_bytes (out, data, len);
            }
          else
            {
              const char *text = dyno_value_get_string (member, &len);

              ruby_append_string (out, text, len);
            }
        }
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
      for (guint i = 0; i < n; i++)
        {
          dyno_cgb_indent (out, indent + 2, 1);
          ruby_append_value (out, dyno_value_get_child (value, i), indent + 2);
          g_string_append (out, ",\n");
        }
      if (n > 0)
        dyno_cgb_indent (out, indent, 1);
      g_string_append (out, "] }");
      break;
    default:
      g_assert_not_reached ();
    }
}

/* `name: value,` lines at @indent + 2 (keyword arguments or a hash body). */
static void
ruby_append_params (GString                  *out,
                    const DynoRequest        *request,
                    const DynoPrintedRequest *printed,
                    guint                     indent)
{
  g_autoptr(GArray) fields = dyno_cgb_collect_fields (request, printed);
  guint inner = indent + 2;

  for (guint i = 0; i < fields->len; i++)
    {
      DynoCgbField *field = &g_array_index (fields, DynoCgbField, i);

      dyno_cgb_indent (out, inner, 1);
      dyno_cgb_append_snake (out, field->api_name);
      g_string_append (out, ": ");
      switch (field->kind)
        {
        case DYNO_CGB_STRING:
        case DYNO_CGB_ENUM:
          ruby_append_string (out, field->text, strlen (field->text));
          break;
        case DYNO_CGB_INT:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, field->number);
          break;
        case DYNO_CGB_BOOL:
          g_string_append (out, field->flag ? "true" : "false");
          break;
        case DYNO_CGB_NAMES:
          g_string_append (out, "{\n");
          for (guint j = 0; j < printed->name_placeholders->len; j++)
            {
              const char *placeholder = g_ptr_array_index (printed->name_placeholders, j);
              const char *name = g_ptr_array_index (printed->names, j);

              dyno_cgb_indent (out, inner + 2, 1);
              ruby_append_string (out, placeholder, strlen (placeholder));
              g_string_append (out, " => ");
              ruby_append_string (out, name, strlen (name));
              g_string_append (out, ",\n");
            }
          dyno_cgb_indent (out, inner, 1);
          g_string_append_c (out, '}');
          break;
        case DYNO_CGB_VALUES:
          g_string_append (out, "{\n");
          for (guint j = 0; j < printed->value_placeholders->len; j++)
            {
              const char *placeholder = g_ptr_array_index (printed->value_placeholders, j);

              dyno_cgb_indent (out, inner + 2, 1);
              ruby_append_string (out, placeholder, strlen (placeholder));
              g_string_append (out, " => ");
              ruby_append_value (out, g_ptr_array_index (printed->values, j), inner + 2);
              g_string_append (out, ",\n");
            }
          dyno_cgb_indent (out, inner, 1);
          g_string_append_c (out, '}');
          break;
        case DYNO_CGB_ITEM:
          ruby_append_attribute_map (out, field->map, inner);
          break;
        default:
          g_assert_not_reached ();
        }
      g_string_append (out, ",\n");
    }
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
