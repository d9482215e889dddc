/* dyno-codegen-dotnet.c: a request as AWS SDK for .NET (AWSSDK.DynamoDBv2) C# code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-b-private.h"

/* Object and collection initializers, four-space Allman style.  The program is plain C# 7
 * (a class with an async Main, no top-level statements or `await foreach`) so that it builds
 * on every supported .NET and parses with older compilers. */

static void dotnet_append_value (GString         *out,
                                 const DynoValue *value,
                                 guint            indent);

static void
dotnet_append_string (GString    *out,
                      const char *text,
                      gsize       len)
{
  dyno_cgb_append_c_string_len (out, text, len, DYNO_CGB_LANG_CSHARP);
}

static void
dotnet_append_stream (GString      *out,
                      const guint8 *data,
                      gsize         len)
{
  g_string_append (out, "new MemoryStream(Convert.FromBase64String(\"");
  dyno_cgb_append_base64 (out, data, len);
  g_string_append (out, "\"))");
}

static const DynoCgbMapStyle dotnet_map_style = {
  "new Dictionary<string, AttributeValue>", "()", TRUE, "{\n", "[", "] = ", '}', 4,
  dotnet_append_string, dotnet_append_value,
};

/* The names map holds strings, not AttributeValues. */
static const DynoCgbMapStyle dotnet_names_style = {
  "new Dictionary<string, string>", "()", TRUE, "{\n", "[", "] = ", '}', 4,
  dotnet_append_string, dotnet_append_value,
};

/* `new Dictionary<string, AttributeValue>\n{\n    ["k"] = v,\n}` for an M value's members,
 * the braces at @indent. */
static void
dotnet_append_attribute_map (GString         *out,
                             const DynoValue *map,
                             guint            indent)
{
  dyno_cgb_append_map (out, &dotnet_map_style, DYNO_CGB_ITEM, map, NULL, indent);
}

static void
dotnet_append_value (GString         *out,
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

        g_string_append (out, kind == DYNO_VALUE_S ? "new AttributeValue { S = " :
                                                     "new AttributeValue { N = ");
        dotnet_append_string (out, text, len);
        g_string_append (out, " }");
      }
      break;
    case DYNO_VALUE_B:
      {
        const guint8 *data = dyno_value_get_binary (value, &len);

        g_string_append (out, "new AttributeValue { B = ");
        dotnet_append_stream (out, data, len);
        g_string_append (out, " }");
      }
      break;
    case DYNO_VALUE_BOOL:
      g_string_append_printf (out, "new AttributeValue { BOOL = %s }",
                              dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, "new AttributeValue { NULL = true }");
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      g_string_append_printf (out, "new AttributeValue { %s = new List<%s> { ",
                              dyno_value_type_to_string (kind),
                              kind == DYNO_VALUE_BS ? "MemoryStream" : "string");
      dyno_cgb_append_set_members (out, value, dotnet_append_string, dotnet_append_stream);
      g_string_append (out, " } }");
      break;
    case DYNO_VALUE_M:
      if (n == 0)
        {
          /* The SDK leaves out empty collections unless told they are set. */
          g_string_append (out, "new AttributeValue { M = new Dictionary<string, AttributeValue>(),"
                                " IsMSet = true }");
          break;
        }
      g_string_append (out, "new AttributeValue\n");
      dyno_cgb_indent (out, indent, 1);
      g_string_append (out, "{\n");
      dyno_cgb_indent (out, indent + 4, 1);
      g_string_append (out, "M = ");
      dotnet_append_attribute_map (out, value, indent + 4);
      g_string_append (out, ",\n");
      dyno_cgb_indent (out, indent, 1);
      g_string_append_c (out, '}');
      break;
    case DYNO_VALUE_L:
      if (n == 0)
        {
          g_string_append (out, "new AttributeValue { L = new List<AttributeValue>(),"
                                " IsLSet = true }");
          break;
        }
      g_string_append (out, "new AttributeValue\n");
      dyno_cgb_indent (out, indent, 1);
      g_string_append (out, "{\n");
      dyno_cgb_indent (out, indent + 4, 1);
      g_string_append (out, "L = new List<AttributeValue>\n");
      dyno_cgb_indent (out, indent + 4, 1);
      g_string_append (out, "{\n");
      dyno_cgb_append_list_items (out, value, indent + 8, dotnet_append_value);
      dyno_cgb_indent (out, indent + 4, 1);
      g_string_append (out, "},\n");
      dyno_cgb_indent (out, indent, 1);
      g_string_append_c (out, '}');
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
dotnet_append_name (GString    *out,
                    const char *api_name)
{
  g_string_append_printf (out, "%s = ", api_name);
}

static void
dotnet_append_enum (GString            *out,
                    const DynoCgbField *field)
{
  g_string_append_printf (out, "%s.%s", field->enum_type, field->text);
}

static const DynoCgbFieldStyle dotnet_field_style = {
  dotnet_append_name, dotnet_append_enum, &dotnet_map_style, &dotnet_names_style, ",\n",
};

/* `var request = new XRequest\n{\n…\n};` with the statement at @indent. */
static void
dotnet_append_request (GString                  *out,
                       const DynoRequest        *request,
                       const DynoPrintedRequest *printed,
                       guint                     indent)
{
  guint inner = indent + 4;

  dyno_cgb_indent (out, indent, 1);
  g_string_append_printf (out, "var request = new %sRequest\n",
                          dyno_cgb_operation_pascal (request->operation));
  dyno_cgb_indent (out, indent, 1);
  g_string_append (out, "{\n");
  dyno_cgb_append_fields (out, &dotnet_field_style, request, printed, inner);
  dyno_cgb_indent (out, indent, 1);
  g_string_append (out, "};\n");
}

static void
dotnet_append_program (GString                  *out,
                       const DynoRequest        *request,
                       const DynoPrintedRequest *printed,
                       const DynoCodegenOptions *options)
{
  const char *op = dyno_cgb_operation_pascal (request->operation);
  gboolean paginated = request->operation == DYNO_OP_QUERY ||
                       request->operation == DYNO_OP_SCAN;

  g_string_append (out, "using System;\n"
                        "using System.Collections.Generic;\n"
                        "using System.IO;\n"
                        "using System.Threading.Tasks;\n"
                        "using Amazon;\n"
                        "using Amazon.DynamoDBv2;\n"
                        "using Amazon.DynamoDBv2.DocumentModel;\n"
                        "using Amazon.DynamoDBv2.Model;\n");
  if (options->profile != NULL)
    g_string_append (out, "using Amazon.Runtime;\n"
                          "using Amazon.Runtime.CredentialManagement;\n");
  g_string_append (out, "\n"
                        "class Program\n"
                        "{\n"
                        "    static async Task Main()\n"
                        "    {\n"
                        "        var config = new AmazonDynamoDBConfig();\n");
  if (options->endpoint_url != NULL)
    {
      g_string_append (out, "        config.ServiceURL = ");
      dotnet_append_string (out, options->endpoint_url, strlen (options->endpoint_url));
      g_string_append (out, ";\n");
      if (options->region != NULL)
        {
          g_string_append (out, "        config.AuthenticationRegion = ");
          dotnet_append_string (out, options->region, strlen (options->region));
          g_string_append (out, ";\n");
        }
    }
  else if (options->region != NULL)
    {
      g_string_append (out, "        config.RegionEndpoint = RegionEndpoint.GetBySystemName(");
      dotnet_append_string (out, options->region, strlen (options->region));
      g_string_append (out, ");\n");
    }
  if (options->profile != NULL)
    {
      g_string_append (out, "        AWSCredentials credentials;\n"
                            "        if (!new CredentialProfileStoreChain().TryGetAWSCredentials(");
      dotnet_append_string (out, options->profile, strlen (options->profile));
      g_string_append (out, ", out credentials))\n"
                            "        {\n"
                            "            throw new Exception(\"No such AWS profile\");\n"
                            "        }\n"
                            "        using (var client ="
                            " new AmazonDynamoDBClient(credentials, config))\n");
    }
  else
    {
      g_string_append (out, "        using (var client = new AmazonDynamoDBClient(config))\n");
    }
  g_string_append (out, "        {\n");
  dotnet_append_request (out, request, printed, 12);

  if (paginated)
    {
      gboolean count = request->select == DYNO_SELECT_COUNT;

      if (count)
        g_string_append (out, "            var count = 0;\n");
      g_string_append_printf (out,
                              "            %sResponse response;\n"
                              "            do\n"
                              "            {\n"
                              "                response = await client.%sAsync(request);\n",
                              op, op);
      if (count)
        g_string_append (out, "                count += Convert.ToInt32(response.Count);\n");
      else
        g_string_append (out, "                foreach (var item in response.Items)\n"
                              "                {\n"
                              "                    Console.WriteLine("
                              "Document.FromAttributeMap(item).ToJson());\n"
                              "                }\n");
      g_string_append (out, "                request.ExclusiveStartKey ="
                            " response.LastEvaluatedKey;\n"
                            "            } while (response.LastEvaluatedKey != null &&"
                            " response.LastEvaluatedKey.Count > 0);\n");
      if (count)
        g_string_append (out, "            Console.WriteLine(\"Count: \" + count);\n");
    }
  else
    {
      const char *member = request->operation == DYNO_OP_GET_ITEM ? "Item" : "Attributes";

      g_string_append_printf (out,
                              "            var response = await client.%sAsync(request);\n"
                              "            if (response.%s != null && response.%s.Count > 0)\n"
                              "            {\n"
                              "                Console.WriteLine("
                              "Document.FromAttributeMap(response.%s).ToJson());\n"
                              "            }\n",
                              op, member, member, member);
    }
  g_string_append (out, "        }\n"
                        "    }\n"
                        "}\n");
}

char *
dyno_codegen_emit_dotnet (const DynoRequest        *request,
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
      dotnet_append_program (out, request, printed, options);
    }
  else
    {
      dotnet_append_request (out, request, printed, 0);
      g_string_append_printf (out, "var response = await client.%sAsync(request);\n",
                              dyno_cgb_operation_pascal (request->operation));
    }
  return g_string_free (out, FALSE);
}
