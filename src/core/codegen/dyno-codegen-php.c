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

/* [\n 'k' => v,\n] for an M value's members; the closing bracket at @indent. */
static void
php_append_attribute_map (GString         *out,
                          const DynoValue *map,
                          guint            indent)
{
  guint n = dyno_value_get_n_children (map);

  if (n == 0)
    {
      g_string_append (out, "[]");
      return;
    }
  g_string_append (out, "[\n");
  for (guint i = 0; i < n; i++)
    {
      gsize len;
      const char *name = dyno_value_get_member_name (map, i, &len);

      dyno_cgb_indent (out, indent + 4, 1);
      php_append_string (out, name, len);
      g_string_append (out, " => ");
      php_append_value (out, dyno_value_get_child (map, i), indent + 4);
      g_string_append (out, ",\n");
    }
  dyno_cgb_indent (out, indent, 1);
  g_string_append_c (out, ']');
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
      for (guint i = 0; i < n; i++)
        {
          const DynoValue *member = dyno_value_get_child (value, i);

          if (i > 0)
            g_string_append (out, ", ");
          if (kind == DYNO_VALUE_BS)
            {
              const guint8 *data = dyno_value_get_binary (member, &len);

              php_append_bytes (out, data, len);
            }
          else
            {
              const char *text = dyno_value_get_string (member, &len);

              php_append_string (out, text, len);
            }
        }
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
      for (guint i = 0; i < n; i++)
        {
          dyno_cgb_indent (out, indent + 4, 1);
          php_append_value (out, dyno_value_get_child (value, i), indent + 4);
          g_string_append (out, ",\n");
        }
      if (n > 0)
        dyno_cgb_indent (out, indent, 1);
      g_string_append (out, "]]");
      break;
    default:
      g_assert_not_reached ();
    }
}

/* The parameter array `[\n…\n]`, its closing bracket at @indent. */
static void
php_append_params (GString                  *out,
                   const DynoRequest        *request,
                   const DynoPrintedRequest *printed,
                   guint                     indent)
{
  g_autoptr(GArray) fields = dyno_cgb_collect_fields (request, printed);
  guint inner = indent + 4;

  g_string_append (out, "[\n");
  for (guint i = 0; i < fields->len; i++)
    {
      DynoCgbField *field = &g_array_index (fields, DynoCgbField, i);

      dyno_cgb_indent (out, inner, 1);
      g_string_append_printf (out, "'%s' => ", field->api_name);
      switch (field->kind)
        {
        case DYNO_CGB_STRING:
        case DYNO_CGB_ENUM:
          php_append_string (out, field->text, strlen (field->text));
          break;
        case DYNO_CGB_INT:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, field->number);
          break;
        case DYNO_CGB_BOOL:
          g_string_append (out, field->flag ? "true" : "false");
          break;
        case DYNO_CGB_NAMES:
          g_string_append (out, "[\n");
          for (guint j = 0; j < printed->name_placeholders->len; j++)
            {
              const char *placeholder = g_ptr_array_index (printed->name_placeholders, j);
              const char *name = g_ptr_array_index (printed->names, j);

              dyno_cgb_indent (out, inner + 4, 1);
              php_append_string (out, placeholder, strlen (placeholder));
              g_string_append (out, " => ");
              php_append_string (out, name, strlen (name));
              g_string_append (out, ",\n");
            }
          dyno_cgb_indent (out, inner, 1);
          g_string_append_c (out, ']');
          break;
        case DYNO_CGB_VALUES:
          g_string_append (out, "[\n");
          for (guint j = 0; j < printed->value_placeholders->len; j++)
            {
              const char *placeholder = g_ptr_array_index (printed->value_placeholders, j);

              dyno_cgb_indent (out, inner + 4, 1);
              php_append_string (out, placeholder, strlen (placeholder));
              g_string_append (out, " => ");
              php_append_value (out, g_ptr_array_index (printed->values, j), inner + 4);
              g_string_append (out, ",\n");
            }
          dyno_cgb_indent (out, inner, 1);
          g_string_append_c (out, ']');
          break;
        case DYNO_CGB_ITEM:
          php_append_attribute_map (out, field->map, inner);
          break;
        default:
          g_assert_not_reached ();
        }
      g_string_append (out, ",\n");
    }
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
