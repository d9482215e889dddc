/* dyno-codegen-java.c: a request as AWS SDK for Java 2.x code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-private.h"

#include <string.h>

/* Builders with the AttributeValue.fromX() factories, Map.of()/List.of() for the maps (or
 * Map.ofEntries() past Map.of()'s ten pairs).  Continuation lines are indented by 8, the
 * Java convention. */

#define JAVA_CONTINUATION 8

static void
java_text (DynoCodegenWriter *w,
           const char        *text,
           gsize              len)
{
  dyno_codegen_append_c_string_len (w->out, text, len, DYNO_C_STRING_JAVA);
}

static void
java_bytes (DynoCodegenWriter *w,
            const guint8      *data,
            gsize              len)
{
  g_string_append (w->out, "SdkBytes.fromByteArray(Base64.getDecoder().decode(\"");
  dyno_codegen_append_base64 (w->out, data, len);
  g_string_append (w->out, "\"))");
}

/* Map.of(k, v, …) with one pair per line at @indent + 8; the closing parenthesis ends the
 * last line. */
static void
java_pairs (DynoCodegenWriter      *w,
            const DynoCodegenPairs *pairs,
            guint                   indent)
{
  guint n = dyno_codegen_pairs_get_n (pairs);
  gboolean entries = n > 10;

  if (n == 0)
    {
      g_string_append (w->out, "Map.of()");
      return;
    }
  g_string_append (w->out, entries ? "Map.ofEntries(\n" : "Map.of(\n");
  for (guint i = 0; i < n; i++)
    {
      dyno_codegen_append_indent (w->out, indent + JAVA_CONTINUATION);
      if (entries)
        g_string_append (w->out, "Map.entry(");
      dyno_codegen_write_pair_key (w, pairs, i);
      g_string_append (w->out, ", ");
      dyno_codegen_write_pair_value (w, pairs, i, indent + JAVA_CONTINUATION);
      if (entries)
        g_string_append_c (w->out, ')');
      g_string_append (w->out, i + 1 < n ? ",\n" : ")");
    }
}

static void
java_map (DynoCodegenWriter *w,
          const DynoValue   *map,
          guint              indent)
{
  DynoCodegenPairs pairs = dyno_codegen_pairs_of_map (map);

  java_pairs (w, &pairs, indent);
}

static void
java_list (DynoCodegenWriter *w,
           const DynoValue   *list,
           guint              indent)
{
  guint n = dyno_value_get_n_children (list);

  if (n > 0)
    g_string_append_c (w->out, '\n');
  for (guint i = 0; i < n; i++)
    {
      dyno_codegen_append_indent (w->out, indent + JAVA_CONTINUATION);
      dyno_codegen_write_value (w, dyno_value_get_child (list, i), indent + JAVA_CONTINUATION);
      if (i + 1 < n)
        g_string_append (w->out, ",\n");
    }
}

static void
java_member_begin (DynoCodegenWriter       *w,
                   const DynoCodegenMember *m,
                   guint                    indent)
{
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_c (w->out, '.');
  dyno_codegen_append_camel (w->out, m->name);
  g_string_append_c (w->out, '(');
}

static void
java_member_enum (DynoCodegenWriter       *w,
                  const DynoCodegenMember *m)
{
  g_string_append_printf (w->out, "%s.%s", m->enum_type, m->string);
}

static void
java_member_map (DynoCodegenWriter       *w,
                 const DynoCodegenMember *m,
                 guint                    indent)
{
  java_pairs (w, &m->pairs, indent);
}

/* `XRequest request = XRequest.builder()…build();` with the statement at @indent. */
static void
java_request (DynoCodegenWriter *w,
              guint              indent)
{
  const char *op = dyno_codegen_operation_pascal (w->request->operation);

  dyno_codegen_append_indent (w->out, indent);
  g_string_append_printf (w->out, "%sRequest request = %sRequest.builder()\n", op, op);
  dyno_codegen_write_members (w, indent + JAVA_CONTINUATION);
  dyno_codegen_append_indent (w->out, indent + JAVA_CONTINUATION);
  g_string_append (w->out, ".build();\n");
}

static void
java_loop (DynoCodegenWriter *w,
           gboolean           count)
{
  const char *op = dyno_codegen_operation_pascal (w->request->operation);
  g_autofree char *method = dyno_codegen_operation_camel (w->request->operation);

  if (count)
    g_string_append_printf (w->out,
                            "            int count = 0;\n"
                            "            for (%sResponse page : client.%sPaginator(request)) {\n"
                            "                count += page.count();\n"
                            "            }\n"
                            "            System.out.println(\"Count: \" + count);\n",
                            op, method);
  else
    g_string_append_printf (w->out,
                            "            for (Map<String, AttributeValue> item"
                            " : client.%sPaginator(request).items()) {\n"
                            "                System.out.println(item);\n"
                            "            }\n",
                            method);
}

static void
java_call (DynoCodegenWriter *w)
{
  const char *op = dyno_codegen_operation_pascal (w->request->operation);
  g_autofree char *method = dyno_codegen_operation_camel (w->request->operation);

  if (w->request->operation == DYNO_OP_GET_ITEM)
    g_string_append (w->out,
                     "            GetItemResponse response = client.getItem(request);\n"
                     "            if (response.hasItem()) {\n"
                     "                System.out.println(response.item());\n"
                     "            }\n");
  else
    g_string_append_printf (w->out,
                            "            %sResponse response = client.%s(request);\n"
                            "            if (response.hasAttributes()) {\n"
                            "                System.out.println(response.attributes());\n"
                            "            }\n",
                            op, method);
}

static void
java_program (DynoCodegenWriter *w)
{
  const DynoCodegenOptions *options = w->options;
  GString *out = w->out;

  if (options->endpoint_url != NULL)
    g_string_append (out, "import java.net.URI;\n");
  g_string_append (out, "import java.util.Base64;\n"
                        "import java.util.List;\n"
                        "import java.util.Map;\n");
  if (options->profile != NULL)
    g_string_append (out,
                     "import software.amazon.awssdk.auth.credentials."
                     "ProfileCredentialsProvider;\n");
  g_string_append (out, "import software.amazon.awssdk.core.SdkBytes;\n");
  if (options->region != NULL)
    g_string_append (out, "import software.amazon.awssdk.regions.Region;\n");
  g_string_append (out, "import software.amazon.awssdk.services.dynamodb.DynamoDbClient;\n"
                        "import software.amazon.awssdk.services.dynamodb.model.*;\n"
                        "\n"
                        "public class Main {\n"
                        "    public static void main(String[] args) {\n"
                        "        try (DynamoDbClient client = DynamoDbClient.builder()\n");
  if (options->region != NULL)
    {
      g_string_append (out, "                .region(Region.of(");
      java_text (w, options->region, strlen (options->region));
      g_string_append (out, "))\n");
    }
  if (options->profile != NULL)
    {
      g_string_append (out, "                .credentialsProvider("
                            "ProfileCredentialsProvider.create(");
      java_text (w, options->profile, strlen (options->profile));
      g_string_append (out, "))\n");
    }
  if (options->endpoint_url != NULL)
    {
      g_string_append (out, "                .endpointOverride(URI.create(");
      java_text (w, options->endpoint_url, strlen (options->endpoint_url));
      g_string_append (out, "))\n");
    }
  g_string_append (out, "                .build()) {\n");
  java_request (w, 12);
  dyno_codegen_write_ending (w);
  g_string_append (out, "        }\n"
                        "    }\n"
                        "}\n");
}

static void
java_snippet (DynoCodegenWriter *w)
{
  const char *op = dyno_codegen_operation_pascal (w->request->operation);
  g_autofree char *method = dyno_codegen_operation_camel (w->request->operation);

  java_request (w, 0);
  g_string_append_printf (w->out, "%sResponse response = client.%s(request);\n", op, method);
}

const DynoCodegenLang dyno_codegen_lang_java_v2 = {
  .order = DYNO_CODEGEN_ORDER_REQUEST_JSON,
  .comment = "// ",
  .value = {
    .text = java_text,
    .bytes = java_bytes,
    .true_word = "true",
    .false_word = "false",
    .null_word = "true",
    .open = {
      [DYNO_VALUE_S] = "AttributeValue.fromS(", [DYNO_VALUE_N] = "AttributeValue.fromN(",
      [DYNO_VALUE_B] = "AttributeValue.fromB(", [DYNO_VALUE_BOOL] = "AttributeValue.fromBool(",
      [DYNO_VALUE_NULL] = "AttributeValue.fromNul(", [DYNO_VALUE_M] = "AttributeValue.fromM(",
      [DYNO_VALUE_L] = "AttributeValue.fromL(List.of(",
      [DYNO_VALUE_SS] = "AttributeValue.fromSs(List.of(",
      [DYNO_VALUE_NS] = "AttributeValue.fromNs(List.of(",
      [DYNO_VALUE_BS] = "AttributeValue.fromBs(List.of(",
    },
    .close = {
      [DYNO_VALUE_S] = ")", [DYNO_VALUE_N] = ")", [DYNO_VALUE_B] = ")", [DYNO_VALUE_BOOL] = ")",
      [DYNO_VALUE_NULL] = ")", [DYNO_VALUE_M] = ")", [DYNO_VALUE_L] = "))",
      [DYNO_VALUE_SS] = "))", [DYNO_VALUE_NS] = "))", [DYNO_VALUE_BS] = "))",
    },
    .map = java_map,
    .list = java_list,
  },
  .member = {
    .begin = java_member_begin,
    .end = ")\n",
    .enumeration = java_member_enum,
    .map = java_member_map,
  },
  .snippet = java_snippet,
  .program = java_program,
  .loop = java_loop,
  .call = java_call,
};
