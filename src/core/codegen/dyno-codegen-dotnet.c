/* dyno-codegen-dotnet.c: a request as AWS SDK for .NET (AWSSDK.DynamoDBv2) C# code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-private.h"

#include <string.h>

/* Object and collection initializers, four-space Allman style.  The program is plain C# 7
 * (a class with an async Main, no top-level statements or `await foreach`) so that it builds
 * on every supported .NET and parses with older compilers. */

static void
dotnet_text (DynoCodegenWriter *w,
             const char        *text,
             gsize              len)
{
  dyno_codegen_append_c_string_len (w->out, text, len, DYNO_C_STRING_CSHARP);
}

static void
dotnet_stream (DynoCodegenWriter *w,
               const guint8      *data,
               gsize              len)
{
  g_string_append (w->out, "new MemoryStream(Convert.FromBase64String(\"");
  dyno_codegen_append_base64 (w->out, data, len);
  g_string_append (w->out, "\"))");
}

static const DynoCodegenMapLines dotnet_map_lines = {
  "new Dictionary<string, AttributeValue>", "()", TRUE, "{\n", "[", "] = ", '}', 4,
};

/* The names map holds strings, not AttributeValues. */
static const DynoCodegenMapLines dotnet_names_lines = {
  "new Dictionary<string, string>", "()", TRUE, "{\n", "[", "] = ", '}', 4,
};

/* The SDK leaves out empty collections unless told they are set.  A non-empty one is an
 * initializer over lines, `M = …,` inside it. */
static void
dotnet_map (DynoCodegenWriter *w,
            const DynoValue   *map,
            guint              indent)
{
  DynoCodegenPairs pairs = dyno_codegen_pairs_of_map (map);

  if (dyno_value_get_n_children (map) == 0)
    {
      g_string_append (w->out, "new AttributeValue { M = new Dictionary<string, AttributeValue>(),"
                               " IsMSet = true }");
      return;
    }
  g_string_append (w->out, "new AttributeValue\n");
  dyno_codegen_append_indent (w->out, indent);
  g_string_append (w->out, "{\n");
  dyno_codegen_append_indent (w->out, indent + 4);
  g_string_append (w->out, "M = ");
  dyno_codegen_write_map_lines (w, &dotnet_map_lines, &pairs, indent + 4);
  g_string_append (w->out, ",\n");
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_c (w->out, '}');
}

static void
dotnet_list (DynoCodegenWriter *w,
             const DynoValue   *list,
             guint              indent)
{
  if (dyno_value_get_n_children (list) == 0)
    {
      g_string_append (w->out, "new AttributeValue { L = new List<AttributeValue>(),"
                               " IsLSet = true }");
      return;
    }
  g_string_append (w->out, "new AttributeValue\n");
  dyno_codegen_append_indent (w->out, indent);
  g_string_append (w->out, "{\n");
  dyno_codegen_append_indent (w->out, indent + 4);
  g_string_append (w->out, "L = new List<AttributeValue>\n");
  dyno_codegen_append_indent (w->out, indent + 4);
  g_string_append (w->out, "{\n");
  dyno_codegen_write_list_lines (w, list, indent + 8);
  dyno_codegen_append_indent (w->out, indent + 4);
  g_string_append (w->out, "},\n");
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_c (w->out, '}');
}

static void
dotnet_member_enum (DynoCodegenWriter       *w,
                    const DynoCodegenMember *m)
{
  g_string_append_printf (w->out, "%s.%s", m->enum_type, m->string);
}

static void
dotnet_member_map (DynoCodegenWriter       *w,
                   const DynoCodegenMember *m,
                   guint                    indent)
{
  dyno_codegen_write_map_lines (w, m->kind == DYNO_CODEGEN_MEMBER_NAMES ? &dotnet_names_lines
                                                                      : &dotnet_map_lines,
                                &m->pairs, indent);
}

/* `var request = new XRequest\n{\n…\n};` with the statement at @indent. */
static void
dotnet_request (DynoCodegenWriter *w,
                guint              indent)
{
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_printf (w->out, "var request = new %sRequest\n",
                          dyno_codegen_operation_pascal (w->request->operation));
  dyno_codegen_append_indent (w->out, indent);
  g_string_append (w->out, "{\n");
  dyno_codegen_write_members (w, indent + 4);
  dyno_codegen_append_indent (w->out, indent);
  g_string_append (w->out, "};\n");
}

static void
dotnet_loop (DynoCodegenWriter *w,
             gboolean           count)
{
  const char *op = dyno_codegen_operation_pascal (w->request->operation);

  if (count)
    g_string_append (w->out, "            var count = 0;\n");
  g_string_append_printf (w->out,
                          "            %sResponse response;\n"
                          "            do\n"
                          "            {\n"
                          "                response = await client.%sAsync(request);\n",
                          op, op);
  if (count)
    g_string_append (w->out, "                count += Convert.ToInt32(response.Count);\n");
  else
    g_string_append (w->out, "                foreach (var item in response.Items)\n"
                             "                {\n"
                             "                    Console.WriteLine("
                             "Document.FromAttributeMap(item).ToJson());\n"
                             "                }\n");
  g_string_append (w->out, "                request.ExclusiveStartKey ="
                           " response.LastEvaluatedKey;\n"
                           "            } while (response.LastEvaluatedKey != null &&"
                           " response.LastEvaluatedKey.Count > 0);\n");
  if (count)
    g_string_append (w->out, "            Console.WriteLine(\"Count: \" + count);\n");
}

static void
dotnet_call (DynoCodegenWriter *w)
{
  const char *member = dyno_codegen_result_member (w->request->operation);

  g_string_append_printf (w->out,
                          "            var response = await client.%sAsync(request);\n"
                          "            if (response.%s != null && response.%s.Count > 0)\n"
                          "            {\n"
                          "                Console.WriteLine("
                          "Document.FromAttributeMap(response.%s).ToJson());\n"
                          "            }\n",
                          dyno_codegen_operation_pascal (w->request->operation),
                          member, member, member);
}

static void
dotnet_program (DynoCodegenWriter *w)
{
  const DynoCodegenOptions *options = w->options;
  GString *out = w->out;

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
      dotnet_text (w, options->endpoint_url, strlen (options->endpoint_url));
      g_string_append (out, ";\n");
      if (options->region != NULL)
        {
          g_string_append (out, "        config.AuthenticationRegion = ");
          dotnet_text (w, options->region, strlen (options->region));
          g_string_append (out, ";\n");
        }
    }
  else if (options->region != NULL)
    {
      g_string_append (out, "        config.RegionEndpoint = RegionEndpoint.GetBySystemName(");
      dotnet_text (w, options->region, strlen (options->region));
      g_string_append (out, ");\n");
    }
  if (options->profile != NULL)
    {
      g_string_append (out, "        AWSCredentials credentials;\n"
                            "        if (!new CredentialProfileStoreChain().TryGetAWSCredentials(");
      dotnet_text (w, options->profile, strlen (options->profile));
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
  dotnet_request (w, 12);
  dyno_codegen_write_ending (w);
  g_string_append (out, "        }\n"
                        "    }\n"
                        "}\n");
}

static void
dotnet_snippet (DynoCodegenWriter *w)
{
  dotnet_request (w, 0);
  g_string_append_printf (w->out, "var response = await client.%sAsync(request);\n",
                          dyno_codegen_operation_pascal (w->request->operation));
}

const DynoCodegenLang dyno_codegen_lang_dotnet = {
  .order = DYNO_CODEGEN_ORDER_REQUEST_JSON,
  .comment = "// ",
  .value = {
    .text = dotnet_text,
    .bytes = dotnet_stream,
    .true_word = "true",
    .false_word = "false",
    .null_word = "true",
    .open = {
      [DYNO_VALUE_S] = "new AttributeValue { S = ", [DYNO_VALUE_N] = "new AttributeValue { N = ",
      [DYNO_VALUE_B] = "new AttributeValue { B = ",
      [DYNO_VALUE_BOOL] = "new AttributeValue { BOOL = ",
      [DYNO_VALUE_NULL] = "new AttributeValue { NULL = ",
      [DYNO_VALUE_SS] = "new AttributeValue { SS = new List<string> { ",
      [DYNO_VALUE_NS] = "new AttributeValue { NS = new List<string> { ",
      [DYNO_VALUE_BS] = "new AttributeValue { BS = new List<MemoryStream> { ",
    },
    .close = {
      [DYNO_VALUE_S] = " }", [DYNO_VALUE_N] = " }", [DYNO_VALUE_B] = " }",
      [DYNO_VALUE_BOOL] = " }", [DYNO_VALUE_NULL] = " }",
      [DYNO_VALUE_SS] = " } }", [DYNO_VALUE_NS] = " } }", [DYNO_VALUE_BS] = " } }",
    },
    .map = dotnet_map,
    .list = dotnet_list,
  },
  .member = {
    .name_format = "%s = ",
    .end = ",\n",
    .enumeration = dotnet_member_enum,
    .map = dotnet_member_map,
  },
  .snippet = dotnet_snippet,
  .program = dotnet_program,
  .loop = dotnet_loop,
  .call = dotnet_call,
};
