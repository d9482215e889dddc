/* dyno-codegen-php.c: a request as AWS SDK for PHP v3 code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-b-private.h"

/* The low-level client's parameter arrays, values as typed arrays (['S' => …]).  Strings are
 * single-quoted unless they hold characters that need an escape; then double-quoted with `$`
 * escaped, so nothing is interpolated.  Binary is written as base64_decode('…'): the SDK
 * takes raw bytes and encodes them itself. */

static void php_append_value (GString         *out,
                              const DynoValue *value,
                              guint            indent);

static void
php_append_string (GString    *out,
                   const char *text,
                   gsize       len)
{
  dyno_cgb_append_script_string_len (out, text, len, FALSE);
}

static void
php_append_bytes (GString      *out,
                  const guint8 *data,
                  gsize         len)
{
  g_string_append (out, "base64_decode('");
  dyno_cgb_append_base64 (out, data, len);
  g_string_append (out, "')");
}

static const DynoCgbMapStyle php_map_style = {
  "", "[]", FALSE, "[\n", "", " => ", ']', 4,
  php_append_string, php_append_value,
};

/* [\n 'k' => v,\n] for an M value's members; the closing bracket at @indent. */
static void
php_append_attribute_map (GString         *out,
                          const DynoValue *map,
                          guint            indent)
{
  dyno_cgb_append_map (out, &php_map_style, DYNO_CGB_ITEM, map, NULL, indent);
}

static void
php_append_value (GString         *out,
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

        g_string_append (out, kind == DYNO_VALUE_S ? "['S' => " : "['N' => ");
        php_append_string (out, text, len);
        g_string_append_c (out, ']');
      }
      break;
    case DYNO_VALUE_B:
      {
        const guint8 *data = dyno_value_get_binary (value, &len);

        g_string_append (out, "['B' => ");
        php_append_bytes (out, data, len);
        g_string_append_c (out, ']');
      }
      break;
    case DYNO_VALUE_BOOL:
      g_string_append_printf (out, "['BOOL' => %s]",
                              dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, "['NULL' => true]");
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      g_string_append_printf (out, "['%s' => [", dyno_value_type_to_string (kind));
      dyno_cgb_append_set_members (out, value, php_append_string, php_append_bytes);
      g_string_append (out, "]]");
      break;
    case DYNO_VALUE_M:
      g_string_append (out, "['M' => ");
      php_append_attribute_map (out, value, indent);
      g_string_append_c (out, ']');
      break;
    case DYNO_VALUE_L:
      g_string_append (out, "['L' => [");
      if (n > 0)
        g_string_append_c (out, '\n');
      dyno_cgb_append_list_items (out, value, indent + 4, php_append_value);
      if (n > 0)
        dyno_cgb_indent (out, indent, 1);
      g_string_append (out, "]]");
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
php_append_name (GString    *out,
                 const char *api_name)
{
  g_string_append_printf (out, "'%s' => ", api_name);
}

static const DynoCgbFieldStyle php_field_style = {
  php_append_name, NULL, &php_map_style, &php_map_style, ",\n",
};

/* The parameter array `[\n…\n]`, its closing bracket at @indent. */
static void
php_append_params (GString                  *out,
                   const DynoRequest        *request,
                   const DynoPrintedRequest *printed,
                   guint                     indent)
{
  guint inner = indent + 4;

  g_string_append (out, "[\n");
  dyno_cgb_append_fields (out, &php_field_style, request, printed, inner);
  dyno_cgb_indent (out, indent, 1);
  g_string_append_c (out, ']');
}

static void
php_append_program (GString                  *out,
                    const DynoRequest        *request,
                    const DynoPrintedRequest *printed,
                    const DynoCodegenOptions *options)
{
  const char *op = dyno_cgb_operation_pascal (request->operation);
  g_autofree char *method = g_strdup (op);
  gboolean paginated = request->operation == DYNO_OP_QUERY ||
                       request->operation == DYNO_OP_SCAN;

  method[0] = g_ascii_tolower (method[0]);

  g_string_append (out, "<?php\n"
                        "\n"
                        "require __DIR__ . '/vendor/autoload.php';\n"
                        "\n"
                        "use Aws\\DynamoDb\\DynamoDbClient;\n"
                        "\n"
                        "$client = new DynamoDbClient([\n"
                        "    'version' => 'latest',\n");
  if (options->region != NULL)
    {
      g_string_append (out, "    'region' => ");
      php_append_string (out, options->region, strlen (options->region));
      g_string_append (out, ",\n");
    }
  if (options->profile != NULL)
    {
      g_string_append (out, "    'profile' => ");
      php_append_string (out, options->profile, strlen (options->profile));
      g_string_append (out, ",\n");
    }
  if (options->endpoint_url != NULL)
    {
      g_string_append (out, "    'endpoint' => ");
      php_append_string (out, options->endpoint_url, strlen (options->endpoint_url));
      g_string_append (out, ",\n");
    }
  g_string_append (out, "]);\n"
                        "\n"
                        "$params = ");
  php_append_params (out, request, printed, 0);
  g_string_append (out, ";\n\n");

  if (paginated && request->select == DYNO_SELECT_COUNT)
    g_string_append_printf (out,
                            "$count = 0;\n"
                            "foreach ($client->getPaginator('%s', $params) as $page) {\n"
                            "    $count += $page['Count'];\n"
                            "}\n"
                            "echo 'Count: ', $count, \"\\n\";\n",
                            op);
  else if (paginated)
    g_string_append_printf (out,
                            "foreach ($client->getPaginator('%s', $params) as $page) {\n"
                            "    foreach ($page['Items'] as $item) {\n"
                            "        print_r($item);\n"
                            "    }\n"
                            "}\n",
                            op);
  else
    g_string_append_printf (out,
                            "$result = $client->%s($params);\n"
                            "if (isset($result['%s'])) {\n"
                            "    print_r($result['%s']);\n"
                            "}\n",
                            method,
                            request->operation == DYNO_OP_GET_ITEM ? "Item" : "Attributes",
                            request->operation == DYNO_OP_GET_ITEM ? "Item" : "Attributes");
}

char *
dyno_codegen_emit_php (const DynoRequest        *request,
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
      php_append_program (out, request, printed, options);
    }
  else
    {
      g_autofree char *method = g_strdup (dyno_cgb_operation_pascal (request->operation));

      method[0] = g_ascii_tolower (method[0]);
      g_string_append_printf (out, "$result = $client->%s(", method);
      php_append_params (out, request, printed, 0);
      g_string_append (out, ");\n");
    }
  return g_string_free (out, FALSE);
}
