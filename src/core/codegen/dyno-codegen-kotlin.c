/* dyno-codegen-kotlin.c: a request as AWS SDK for Kotlin code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-private.h"

#include <string.h>

/* The request DSL (QueryRequest { tableName = … }), mapOf(k to v) with trailing commas, the
 * sealed AttributeValue classes (AttributeValue.S(…), .M(…), …).  String literals escape `$`
 * so nothing is interpolated. */

static void
kotlin_text (DynoCodegenWriter *w,
             const char        *text,
             gsize              len)
{
  dyno_codegen_append_c_string_len (w->out, text, len, DYNO_C_STRING_KOTLIN);
}

static void
kotlin_bytes (DynoCodegenWriter *w,
              const guint8      *data,
              gsize              len)
{
  g_string_append (w->out, "Base64.getDecoder().decode(\"");
  dyno_codegen_append_base64 (w->out, data, len);
  g_string_append (w->out, "\")");
}

static const DynoCodegenMapLines kotlin_map_lines = {
  "", "emptyMap()", FALSE, "mapOf(\n", "", " to ", ')', 4,
};

static void
kotlin_map (DynoCodegenWriter *w,
            const DynoValue   *map,
            guint              indent)
{
  DynoCodegenPairs pairs = dyno_codegen_pairs_of_map (map);

  dyno_codegen_write_map_lines (w, &kotlin_map_lines, &pairs, indent);
}

static void
kotlin_list (DynoCodegenWriter *w,
             const DynoValue   *list,
             guint              indent)
{
  if (dyno_value_get_n_children (list) == 0)
    {
      g_string_append (w->out, "emptyList()");
      return;
    }
  g_string_append_c (w->out, '\n');
  dyno_codegen_append_indent (w->out, indent + 4);
  g_string_append (w->out, "listOf(\n");
  dyno_codegen_write_list_lines (w, list, indent + 8);
  dyno_codegen_append_indent (w->out, indent + 4);
  g_string_append (w->out, "),\n");
  dyno_codegen_append_indent (w->out, indent);
}

static void
kotlin_member_begin (DynoCodegenWriter       *w,
                     const DynoCodegenMember *m,
                     guint                    indent)
{
  dyno_codegen_append_indent (w->out, indent);
  dyno_codegen_append_camel (w->out, m->name);
  g_string_append (w->out, " = ");
}

static void
kotlin_member_enum (DynoCodegenWriter       *w,
                    const DynoCodegenMember *m)
{
  g_string_append_printf (w->out, "%s.", m->enum_type);
  dyno_codegen_append_pascal (w->out, m->string);
}

static void
kotlin_member_map (DynoCodegenWriter       *w,
                   const DynoCodegenMember *m,
                   guint                    indent)
{
  dyno_codegen_write_map_lines (w, &kotlin_map_lines, &m->pairs, indent);
}

/* `val request = XRequest {\n…\n}` with the statement at @indent. */
static void
kotlin_request (DynoCodegenWriter *w,
                guint              indent)
{
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_printf (w->out, "val request = %sRequest {\n",
                          dyno_codegen_operation_pascal (w->request->operation));
  dyno_codegen_write_members (w, indent + 4);
  dyno_codegen_append_indent (w->out, indent);
  g_string_append (w->out, "}\n");
}

static void
kotlin_loop (DynoCodegenWriter *w,
             gboolean           count)
{
  g_autofree char *method = dyno_codegen_operation_camel (w->request->operation);

  if (count)
    g_string_append_printf (w->out,
                            "        var count = 0\n"
                            "        client.%sPaginated(request)"
                            ".collect { page -> count += page.count }\n"
                            "        println(\"Count: \" + count)\n",
                            method);
  else
    g_string_append_printf (w->out,
                            "        client.%sPaginated(request)\n"
                            "            .items()\n"
                            "            .collect { item -> println(item) }\n",
                            method);
}

static void
kotlin_call (DynoCodegenWriter *w)
{
  g_autofree char *method = dyno_codegen_operation_camel (w->request->operation);

  g_string_append_printf (w->out,
                          "        val response = client.%s(request)\n"
                          "        response.%s?.let { println(it) }\n",
                          method,
                          w->request->operation == DYNO_OP_GET_ITEM ? "item" : "attributes");
}

static void
kotlin_body (DynoCodegenWriter *w,
             gpointer           data)
{
  const DynoCodegenOptions *options = w->options;

  kotlin_request (w, 4);
  g_string_append (w->out, "\n"
                           "    DynamoDbClient.fromEnvironment {\n");
  if (options->region != NULL)
    {
      g_string_append (w->out, "        region = ");
      kotlin_text (w, options->region, strlen (options->region));
      g_string_append_c (w->out, '\n');
    }
  if (options->profile != NULL)
    {
      g_string_append (w->out, "        credentialsProvider ="
                               " ProfileCredentialsProvider(profileName = ");
      kotlin_text (w, options->profile, strlen (options->profile));
      g_string_append (w->out, ")\n");
    }
  if (options->endpoint_url != NULL)
    {
      g_string_append (w->out, "        endpointUrl = Url.parse(");
      kotlin_text (w, options->endpoint_url, strlen (options->endpoint_url));
      g_string_append (w->out, ")\n");
    }
  g_string_append (w->out, "    }.use { client ->\n");
  dyno_codegen_write_ending (w);
  g_string_append (w->out, "    }\n"
                           "}\n");
}

/* The imports are those the body uses. */
static void
kotlin_program (DynoCodegenWriter *w)
{
  const char *op = dyno_codegen_operation_pascal (w->request->operation);
  g_autofree char *method = dyno_codegen_operation_camel (w->request->operation);
  g_autoptr(GString) body = dyno_codegen_write_aside (w, kotlin_body, NULL);
  gboolean paginated = dyno_codegen_operation_is_paged (w->request->operation);
  gboolean count = paginated && w->request->select == DYNO_SELECT_COUNT;
  const char *model_types[] = { "AttributeValue", "ReturnConsumedCapacity", "ReturnValue",
                                "Select" };

  if (w->options->profile != NULL)
    g_string_append (w->out,
                     "import aws.sdk.kotlin.runtime.auth.credentials.ProfileCredentialsProvider\n");
  g_string_append (w->out, "import aws.sdk.kotlin.services.dynamodb.DynamoDbClient\n");
  for (guint i = 0; i < G_N_ELEMENTS (model_types); i++)
    {
      g_autofree char *use = g_strdup_printf ("%s.", model_types[i]);

      if (strstr (body->str, use) != NULL)
        g_string_append_printf (w->out, "import aws.sdk.kotlin.services.dynamodb.model.%s\n",
                                model_types[i]);
    }
  g_string_append_printf (w->out, "import aws.sdk.kotlin.services.dynamodb.model.%sRequest\n",
                          op);
  if (paginated && !count)
    g_string_append (w->out, "import aws.sdk.kotlin.services.dynamodb.paginators.items\n");
  if (paginated)
    g_string_append_printf (w->out,
                            "import aws.sdk.kotlin.services.dynamodb.paginators.%sPaginated\n",
                            method);
  if (w->options->endpoint_url != NULL)
    g_string_append (w->out, "import aws.smithy.kotlin.runtime.net.url.Url\n");
  if (strstr (body->str, "Base64.") != NULL)
    g_string_append (w->out, "import java.util.Base64\n");
  g_string_append (w->out, "\n"
                           "suspend fun main() {\n");
  g_string_append (w->out, body->str);
}

static void
kotlin_snippet (DynoCodegenWriter *w)
{
  g_autofree char *method = dyno_codegen_operation_camel (w->request->operation);

  kotlin_request (w, 0);
  g_string_append_printf (w->out, "val response = client.%s(request)\n", method);
}

const DynoCodegenLang dyno_codegen_lang_kotlin = {
  .order = DYNO_CODEGEN_ORDER_REQUEST_JSON,
  .comment = "// ",
  .value = {
    .text = kotlin_text,
    .bytes = kotlin_bytes,
    .true_word = "true",
    .false_word = "false",
    .null_word = "true",
    .open = {
      [DYNO_VALUE_S] = "AttributeValue.S(", [DYNO_VALUE_N] = "AttributeValue.N(",
      [DYNO_VALUE_B] = "AttributeValue.B(", [DYNO_VALUE_BOOL] = "AttributeValue.Bool(",
      [DYNO_VALUE_NULL] = "AttributeValue.Null(", [DYNO_VALUE_M] = "AttributeValue.M(",
      [DYNO_VALUE_L] = "AttributeValue.L(", [DYNO_VALUE_SS] = "AttributeValue.Ss(listOf(",
      [DYNO_VALUE_NS] = "AttributeValue.Ns(listOf(", [DYNO_VALUE_BS] = "AttributeValue.Bs(listOf(",
    },
    .close = {
      [DYNO_VALUE_S] = ")", [DYNO_VALUE_N] = ")", [DYNO_VALUE_B] = ")", [DYNO_VALUE_BOOL] = ")",
      [DYNO_VALUE_NULL] = ")", [DYNO_VALUE_M] = ")", [DYNO_VALUE_L] = ")",
      [DYNO_VALUE_SS] = "))", [DYNO_VALUE_NS] = "))", [DYNO_VALUE_BS] = "))",
    },
    .map = kotlin_map,
    .list = kotlin_list,
  },
  .member = {
    .begin = kotlin_member_begin,
    .end = "\n",
    .enumeration = kotlin_member_enum,
    .map = kotlin_member_map,
  },
  .snippet = kotlin_snippet,
  .program = kotlin_program,
  .loop = kotlin_loop,
  .call = kotlin_call,
};
