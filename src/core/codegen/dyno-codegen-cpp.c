/* dyno-codegen-cpp.c: a request as AWS SDK for C++ code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-private.h"

#include <string.h>

#include "dyno-json.h"

/* A request object filled by its setters (SetTableName, AddExpressionAttributeValues, …),
 * AttributeValue built by its chained setters.  Non-ASCII text is written as octal escapes
 * of its UTF-8 bytes, so the bytes are exact whatever the compiler's character sets are;
 * binary comes from base64 through HashingUtils::Base64Decode. */

static void
cpp_text (DynoCodegenWriter *w,
          const char        *text,
          gsize              len)
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
      g_string_append (w->out, "Aws::String(");
      dyno_codegen_append_c_string_len (w->out, text, len, DYNO_C_STRING_CPP);
      g_string_append_printf (w->out, ", %" G_GSIZE_FORMAT ")", len);
      return;
    }
  dyno_codegen_append_c_string_len (w->out, text, len, DYNO_C_STRING_CPP);
}

static void
cpp_string (DynoCodegenWriter *w,
            const char        *text)
{
  cpp_text (w, text, strlen (text));
}

static void
cpp_bytes (DynoCodegenWriter *w,
           const guint8      *data,
           gsize              len)
{
  g_string_append (w->out, "Aws::Utils::HashingUtils::Base64Decode(\"");
  dyno_codegen_append_base64 (w->out, data, len);
  g_string_append (w->out, "\")");
}

/* The members of an M or the elements of an L: one chained call each, a nested value as the
 * shared_ptr that AddMEntry/AddLItem take. */
static void
cpp_children (DynoCodegenWriter *w,
              const DynoValue   *value,
              guint              indent)
{
  gboolean map = dyno_value_get_kind (value) == DYNO_VALUE_M;
  DynoCodegenPairs pairs = dyno_codegen_pairs_of_map (value);
  guint n = dyno_value_get_n_children (value);

  if (n == 0)
    {
      g_string_append (w->out, map ? ".SetM({})" : ".SetL({})");
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      g_string_append_c (w->out, '\n');
      dyno_codegen_append_indent (w->out, indent + 4);
      if (map)
        {
          g_string_append (w->out, ".AddMEntry(");
          dyno_codegen_write_pair_key (w, &pairs, i);
          g_string_append (w->out, ", ");
        }
      else
        {
          g_string_append (w->out, ".AddLItem(");
        }
      g_string_append (w->out, "std::make_shared<AttributeValue>(");
      dyno_codegen_write_value (w, dyno_value_get_child (value, i), indent + 4);
      g_string_append (w->out, "))");
    }
}

static void
cpp_member_begin (DynoCodegenWriter       *w,
                  const DynoCodegenMember *m,
                  guint                    indent)
{
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_printf (w->out, "request.Set%s(", m->name);
}

static void
cpp_member_enum (DynoCodegenWriter       *w,
                 const DynoCodegenMember *m)
{
  g_string_append_printf (w->out, "Aws::DynamoDB::Model::%s::%s", m->enum_type, m->string);
}

/* `request.AddKey(key, value);` a pair. */
static void
cpp_member_map (DynoCodegenWriter       *w,
                const DynoCodegenMember *m,
                guint                    indent)
{
  for (guint i = 0; i < dyno_codegen_pairs_get_n (&m->pairs); i++)
    {
      dyno_codegen_append_indent (w->out, indent);
      g_string_append_printf (w->out, "request.Add%s(", m->name);
      dyno_codegen_write_pair_key (w, &m->pairs, i);
      g_string_append (w->out, ", ");
      dyno_codegen_write_pair_value (w, &m->pairs, i, indent);
      g_string_append (w->out, ");\n");
    }
}

/* The request's declaration and setters, each statement at @indent. */
static void
cpp_request (DynoCodegenWriter *w,
             guint              indent)
{
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_printf (w->out, "Aws::DynamoDB::Model::%sRequest request;\n",
                          dyno_codegen_operation_pascal (w->request->operation));
  dyno_codegen_write_members (w, indent);
}

static void
cpp_loop (DynoCodegenWriter *w,
          gboolean           count)
{
  if (count)
    g_string_append (w->out, "        long long count = 0;\n");
  g_string_append_printf (w->out,
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
                          dyno_codegen_operation_pascal (w->request->operation));
  if (count)
    g_string_append (w->out, "            count += result.GetCount();\n");
  else
    g_string_append (w->out, "            for (const auto &item : result.GetItems())\n"
                             "                printItem(item);\n");
  g_string_append (w->out, "            request.SetExclusiveStartKey("
                           "result.GetLastEvaluatedKey());\n"
                           "        } while (!request.GetExclusiveStartKey().empty());\n");
  if (count)
    g_string_append (w->out, "        std::cout << \"Count: \" << count << std::endl;\n");
}

static void
cpp_call (DynoCodegenWriter *w)
{
  g_string_append_printf (w->out,
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
                          dyno_codegen_operation_pascal (w->request->operation),
                          dyno_codegen_result_member (w->request->operation));
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
cpp_program (DynoCodegenWriter *w)
{
  const DynoCodegenOptions *options = w->options;
  const char *op = dyno_codegen_operation_pascal (w->request->operation);
  GString *out = w->out;

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
      cpp_string (w, options->profile);
      g_string_append (out, ");\n");
    }
  else
    {
      g_string_append (out, "        Aws::Client::ClientConfiguration config;\n");
    }
  if (options->region != NULL)
    {
      g_string_append (out, "        config.region = ");
      cpp_string (w, options->region);
      g_string_append (out, ";\n");
    }
  if (options->endpoint_url != NULL)
    {
      g_string_append (out, "        config.endpointOverride = ");
      cpp_string (w, options->endpoint_url);
      g_string_append (out, ";\n");
      if (g_str_has_prefix (options->endpoint_url, "http://"))
        g_string_append (out, "        config.scheme = Aws::Http::Scheme::HTTP;\n");
    }
  g_string_append (out, "        Aws::DynamoDB::DynamoDBClient client(config);\n"
                        "\n");
  cpp_request (w, 8);
  g_string_append_c (out, '\n');
  dyno_codegen_write_ending (w);
  g_string_append (out, "    }\n"
                        "    Aws::ShutdownAPI(options);\n"
                        "    return status;\n"
                        "}\n");
}

static void
cpp_snippet (DynoCodegenWriter *w)
{
  g_string_append (w->out, "using Aws::DynamoDB::Model::AttributeValue;\n\n");
  cpp_request (w, 0);
  g_string_append_printf (w->out,
                          "\n"
                          "auto outcome = client.%s(request);\n"
                          "if (!outcome.IsSuccess())\n"
                          "    std::cerr << outcome.GetError().GetMessage() << std::endl;\n",
                          dyno_codegen_operation_pascal (w->request->operation));
}

const DynoCodegenLang dyno_codegen_lang_cpp = {
  .order = DYNO_CODEGEN_ORDER_REQUEST_JSON,
  .comment = "// ",
  .value = {
    .text = cpp_text,
    .bytes = cpp_bytes,
    .true_word = "true",
    .false_word = "false",
    .null_word = "true",
    .open = {
      [DYNO_VALUE_S] = "AttributeValue().SetS(", [DYNO_VALUE_N] = "AttributeValue().SetN(",
      [DYNO_VALUE_B] = "AttributeValue().SetB(", [DYNO_VALUE_BOOL] = "AttributeValue().SetBool(",
      [DYNO_VALUE_NULL] = "AttributeValue().SetNull(", [DYNO_VALUE_M] = "AttributeValue()",
      [DYNO_VALUE_L] = "AttributeValue()", [DYNO_VALUE_SS] = "AttributeValue().SetSS({",
      [DYNO_VALUE_NS] = "AttributeValue().SetNS({", [DYNO_VALUE_BS] = "AttributeValue().SetBS({",
    },
    .close = {
      [DYNO_VALUE_S] = ")", [DYNO_VALUE_N] = ")", [DYNO_VALUE_B] = ")", [DYNO_VALUE_BOOL] = ")",
      [DYNO_VALUE_NULL] = ")", [DYNO_VALUE_SS] = "})", [DYNO_VALUE_NS] = "})",
      [DYNO_VALUE_BS] = "})",
    },
    .map = cpp_children,
    .list = cpp_children,
  },
  .member = {
    .begin = cpp_member_begin,
    .end = ");\n",
    .enumeration = cpp_member_enum,
    .map = cpp_member_map,
    .map_lines = TRUE,
  },
  .snippet = cpp_snippet,
  .program = cpp_program,
  .loop = cpp_loop,
  .call = cpp_call,
};
