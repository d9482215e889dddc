/* dyno-codegen-cpp.c: a request as AWS SDK for C++ code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-b-private.h"

#include "dyno-json.h"

/* A request object filled by its setters (SetTableName, AddExpressionAttributeValues, …),
 * AttributeValue built by its chained setters.  Non-ASCII text is written as octal escapes
 * of its UTF-8 bytes, so the bytes are exact whatever the compiler's character sets are;
 * binary comes from base64 through HashingUtils::Base64Decode. */

static void cpp_append_value (GString         *out,
                              const DynoValue *value,
                              guint            indent);

static void
cpp_append_string (GString    *out,
                   const char *text,
                   gsize       len)
{
  g_autofree char *decoded = NULL;

  /* Names read from request JSON hold a NUL as C0 80 (see dyno-json.h). */
  if (g_strstr_len (text, len, "\xC0\x80") != NULL)
    {
      decoded = dyno_json_held_string_decode (text, &len);
      text = decoded;
    }
  /* A literal with a NUL would be cut where it is made into a string: give the length. */
  if (memchr (text, '\0', len) != NULL)
    {
      g_string_append (out, "Aws::String(");
      dyno_cgb_append_c_string_len (out, text, len, DYNO_CGB_LANG_CPP);
      g_string_append_printf (out, ", %" G_GSIZE_FORMAT ")", len);
      return;
    }
  dyno_cgb_append_c_string_len (out, text, len, DYNO_CGB_LANG_CPP);
}

static void
cpp_append_bytes (GString      *out,
                  const guint8 *data,
                  gsize         len)
{
  g_string_append (out, "Aws::Utils::HashingUtils::Base64Decode(\"");
  dyno_cgb_append_base64 (out, data, len);
  g_string_append (out, "\")");
}

/* One nested value as the shared_ptr that SetM/AddMEntry/AddLItem take. */
static void
cpp_append_shared (GString         *out,
                   const DynoValue *value,
                   guint            indent)
{
  g_string_append (out, "std::make_shared<AttributeValue>(");
  cpp_append_value (out, value, indent);
  g_string_append_c (out, ')');
}

static void
cpp_append_value (GString         *out,
                  const DynoValue *value,
                  guint            indent)
{
  DynoValueType kind = dyno_value_get_kind (value);
  guint n = dyno_value_get_n_children (value);
  gsize len;

  g_string_append (out, "AttributeValue()");
  switch (kind)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
      {
        const char *text = dyno_value_get_string (value, &len);

        g_string_append (out, kind == DYNO_VALUE_S ? ".SetS(" : ".SetN(");
        cpp_append_string (out, text, len);
        g_string_append_c (out, ')');
      }
      break;
    case DYNO_VALUE_B:
      {
        const guint8 *data = dyno_value_get_binary (value, &len);

        g_string_append (out, ".SetB(");
        cpp_append_bytes (out, data, len);
        g_string_append_c (out, ')');
      }
      break;
    case DYNO_VALUE_BOOL:
      g_string_append_printf (out, ".SetBool(%s)", dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, ".SetNull(true)");
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      g_string_append_printf (out, ".Set%s({", dyno_value_type_to_string (kind));
      dyno_cgb_append_set_members (out, value, cpp_append_string, cpp_append_bytes);
      g_string_append (out, "})");
      break;
    case DYNO_VALUE_M:
      if (n == 0)
        {
          g_string_append (out, ".SetM({})");
          break;
        }
      for (guint i = 0; i < n; i++)
        {
          const char *name = dyno_value_get_member_name (value, i, &len);

          g_string_append_c (out, '\n');
          dyno_cgb_indent (out, indent + 4, 1);
          g_string_append (out, ".AddMEntry(");
          cpp_append_string (out, name, len);
          g_string_append (out, ", ");
          cpp_append_shared (out, dyno_value_get_child (value, i), indent + 4);
          g_string_append_c (out, ')');
        }
      break;
    case DYNO_VALUE_L:
      if (n == 0)
        {
          g_string_append (out, ".SetL({})");
          break;
        }
      for (guint i = 0; i < n; i++)
        {
          g_string_append_c (out, '\n');
          dyno_cgb_indent (out, indent + 4, 1);
          g_string_append (out, ".AddLItem(");
          cpp_append_shared (out, dyno_value_get_child (value, i), indent + 4);
          g_string_append_c (out, ')');
        }
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
cpp_append_add (GString         *out,
                const char      *api_name,
                const char      *key,
                gsize            key_len,
                const DynoValue *value,
                const char      *text_value,
                guint            indent)
{
  dyno_cgb_indent (out, indent, 1);
  g_string_append_printf (out, "request.Add%s(", api_name);
  cpp_append_string (out, key, key_len);
  g_string_append (out, ", ");
  if (value != NULL)
    cpp_append_value (out, value, indent);
  else
    cpp_append_string (out, text_value, strlen (text_value));
  g_string_append (out, ");\n");
}

/* The request's declaration and setters, each statement at @indent. */
static void
cpp_append_request (GString                  *out,
                    const DynoRequest        *request,
                    const DynoPrintedRequest *printed,
                    guint                     indent)
{
  g_autoptr(GArray) fields = dyno_cgb_collect_fields (request, printed);

  dyno_cgb_indent (out, indent, 1);
  g_string_append_printf (out, "Aws::DynamoDB::Model::%sRequest request;\n",
                          dyno_cgb_operation_pascal (request->operation));
  for (guint i = 0; i < fields->len; i++)
    {
      DynoCgbField *field = &g_array_index (fields, DynoCgbField, i);

      switch (field->kind)
        {
        case DYNO_CGB_STRING:
          dyno_cgb_indent (out, indent, 1);
          g_string_append_printf (out, "request.Set%s(", field->api_name);
          cpp_append_string (out, field->text, strlen (field->text));
          g_string_append (out, ");\n");
          break;
        case DYNO_CGB_INT:
          dyno_cgb_indent (out, indent, 1);
          g_string_append_printf (out, "request.Set%s(%" G_GINT64_FORMAT ");\n",
                                  field->api_name, field->number);
          break;
        case DYNO_CGB_BOOL:
          dyno_cgb_indent (out, indent, 1);
          g_string_append_printf (out, "request.Set%s(%s);\n",
                                  field->api_name, field->flag ? "true" : "false");
          break;
        case DYNO_CGB_ENUM:
          dyno_cgb_indent (out, indent, 1);
          g_string_append_printf (out, "request.Set%s(Aws::DynamoDB::Model::%s::%s);\n",
                                  field->api_name, field->enum_type, field->text);
          break;
        case DYNO_CGB_NAMES:
          for (guint j = 0; j < printed->name_placeholders->len; j++)
            {
              const char *placeholder = g_ptr_array_index (printed->name_placeholders, j);

              cpp_append_add (out, field->api_name, placeholder, strlen (placeholder), NULL,
                              g_ptr_array_index (printed->names, j), indent);
            }
          break;
        case DYNO_CGB_VALUES:
          for (guint j = 0; j < printed->value_placeholders->len; j++)
            {
              const char *placeholder = g_ptr_array_index (printed->value_placeholders, j);

              cpp_append_add (out, field->api_name, placeholder, strlen (placeholder),
                              g_ptr_array_index (printed->values, j), NULL, indent);
            }
          break;
        case DYNO_CGB_ITEM:
          for (guint j = 0; j < dyno_value_get_n_children (field->map); j++)
            {
              gsize len;
              const char *name = dyno_value_get_member_name (field->map, j, &len);

              cpp_append_add (out, field->api_name, name, len,
                              dyno_value_get_child (field->map, j), NULL, indent);
            }
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

static const char cpp_print_item[] =
  "// Writes one item as DynamoDB JSON on one line.\n"
  "static void printItem(const Aws::Map<Aws::String, AttributeValue> &item)\n"
  "{\n"
  "    Aws::Utils::Json::JsonValue json;\n"
  "    for (const auto &attribute : item)\n"
  "        json.WithObject(attribute.first, attribute.second.Jsonize());\n"
  "    std::cout << json.View().WriteCompact() << std::endl;\n"
  "}\n"
  "\n";

static void
cpp_append_program (GString                  *out,
                    const DynoRequest        *request,
                    const DynoPrintedRequest *printed,
                    const DynoCodegenOptions *options)
{
  const char *op = dyno_cgb_operation_pascal (request->operation);
  gboolean paginated = request->operation == DYNO_OP_QUERY ||
                       request->operation == DYNO_OP_SCAN;
  gboolean count = paginated && request->select == DYNO_SELECT_COUNT;

  g_string_append_printf (out,
                          "#include <aws/core/Aws.h>\n"
                          "#include <aws/core/client/ClientConfiguration.h>\n"
                          "#include <aws/core/utils/HashingUtils.h>\n"
                          "#include <aws/core/utils/json/JsonSerializer.h>\n"
                          "#include <aws/dynamodb/DynamoDBClient.h>\n"
                          "#include <aws/dynamodb/model/%sRequest.h>\n"
                          "#include <iostream>\n"
                          "#include <memory>\n"
                          "\n"
                          "using Aws::DynamoDB::Model::AttributeValue;\n"
                          "\n",
                          op);
  g_string_append (out, cpp_print_item);
  g_string_append (out, "int main()\n"
                        "{\n"
                        "    Aws::SDKOptions options;\n"
                        "    Aws::InitAPI(options);\n"
                        "    int status = 0;\n"
                        "    {\n");
  if (options->profile != NULL)
    {
      g_string_append (out, "        Aws::Client::ClientConfiguration config(");
      cpp_append_string (out, options->profile, strlen (options->profile));
      g_string_append (out, ");\n");
    }
  else
    {
      g_string_append (out, "        Aws::Client::ClientConfiguration config;\n");
    }
  if (options->region != NULL)
    {
      g_string_append (out, "        config.region = ");
      cpp_append_string (out, options->region, strlen (options->region));
      g_string_append (out, ";\n");
    }
  if (options->endpoint_url != NULL)
    {
      g_string_append (out, "        config.endpointOverride = ");
      cpp_append_string (out, options->endpoint_url, strlen (options->endpoint_url));
      g_string_append (out, ";\n");
      if (g_str_has_prefix (options->endpoint_url, "http://"))
        g_string_append (out, "        config.scheme = Aws::Http::Scheme::HTTP;\n");
    }
  g_string_append (out, "        Aws::DynamoDB::DynamoDBClient client(config);\n"
                        "\n");
  cpp_append_request (out, request, printed, 8);
  g_string_append_c (out, '\n');

  if (paginated)
    {
      if (count)
        g_string_append (out, "        long long count = 0;\n");
      g_string_append_printf (out,
                              "        do\n"
                              "        {\n"
                              "            auto outcome = client.%s(request);\n"
                              "            if (!outcome.IsSuccess())\n"
                              "            {\n"
                              "                std::cerr << outcome.GetError().GetMessage()"
                              " << std::endl;\n"
                              "                status = 1;\n"
                              "                break;\n"
                              "            }\n"
                              "            const auto &result = outcome.GetResult();\n",
                              op);
      if (count)
        g_string_append (out, "            count += result.GetCount();\n");
      else
        g_string_append (out, "            for (const auto &item : result.GetItems())\n"
                              "                printItem(item);\n");
      g_string_append (out, "            request.SetExclusiveStartKey("
                            "result.GetLastEvaluatedKey());\n"
                            "        } while (!request.GetExclusiveStartKey().empty());\n");
      if (count)
        g_string_append (out, "        std::cout << \"Count: \" << count << std::endl;\n");
    }
  else
    {
      g_string_append_printf (out,
                              "        auto outcome = client.%s(request);\n"
                              "        if (outcome.IsSuccess())\n"
                              "        {\n"
                              "            const auto &attributes = outcome.GetResult().Get%s();\n"
                              "            if (!attributes.empty())\n"
                              "                printItem(attributes);\n"
                              "        }\n"
                              "        else\n"
                              "        {\n"
                              "            std::cerr << outcome.GetError().GetMessage()"
                              " << std::endl;\n"
                              "            status = 1;\n"
                              "        }\n",
                              op, request->operation == DYNO_OP_GET_ITEM ? "Item" : "Attributes");
    }
  g_string_append (out, "    }\n"
                        "    Aws::ShutdownAPI(options);\n"
                        "    return status;\n"
                        "}\n");
}

char *
dyno_codegen_emit_cpp (const DynoRequest        *request,
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
      cpp_append_program (out, request, printed, options);
    }
  else
    {
      g_string_append (out, "using Aws::DynamoDB::Model::AttributeValue;\n\n");
      cpp_append_request (out, request, printed, 0);
      g_string_append_printf (out,
                              "\n"
                              "auto outcome = client.%s(request);\n"
                              "if (!outcome.IsSuccess())\n"
                              "    std::cerr << outcome.GetError().GetMessage() << std::endl;\n",
                              dyno_cgb_operation_pascal (request->operation));
    }
  return g_string_free (out, FALSE);
}
