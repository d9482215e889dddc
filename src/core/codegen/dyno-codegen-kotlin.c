/* dyno-codegen-kotlin.c: a request as AWS SDK for Kotlin code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-b-private.h"

/* The request DSL (QueryRequest { tableName = … }), mapOf(k to v) with trailing commas, the
 * sealed AttributeValue classes (AttributeValue.S(…), .M(…), …).  String literals escape `$`
 * so nothing is interpolated. */

static void kotlin_append_value (GString         *out,
                                 const DynoValue *value,
                                 guint            indent);

static void
kotlin_append_string (GString    *out,
                      const char *text,
                      gsize       len)
{
  dyno_cgb_append_c_string_len (out, text, len, DYNO_CGB_LANG_KOTLIN);
}

static void
kotlin_append_bytes (GString      *out,
                     const guint8 *data,
                     gsize         len)
{
  g_string_append (out, "Base64.getDecoder().decode(\"");
  dyno_cgb_append_base64 (out, data, len);
  g_string_append (out, "\")");
}

static const DynoCgbMapStyle kotlin_map_style = {
  "", "emptyMap()", FALSE, "mapOf(\n", "", " to ", ')', 4,
  kotlin_append_string, kotlin_append_value,
};

/* mapOf(\n  k to v,\n) for an M value's members; the closing parenthesis at @indent. */
static void
kotlin_append_attribute_map (GString         *out,
                             const DynoValue *map,
                             guint            indent)
{
  dyno_cgb_append_map (out, &kotlin_map_style, DYNO_CGB_ITEM, map, NULL, indent);
}

static void
kotlin_append_value (GString         *out,
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

        g_string_append (out, kind == DYNO_VALUE_S ? "AttributeValue.S(" : "AttributeValue.N(");
        kotlin_append_string (out, text, len);
        g_string_append_c (out, ')');
      }
      break;
    case DYNO_VALUE_B:
      {
        const guint8 *data = dyno_value_get_binary (value, &len);

        g_string_append (out, "AttributeValue.B(");
        kotlin_append_bytes (out, data, len);
        g_string_append_c (out, ')');
      }
      break;
    case DYNO_VALUE_BOOL:
      g_string_append_printf (out, "AttributeValue.Bool(%s)",
                              dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, "AttributeValue.Null(true)");
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      g_string_append_printf (out, "AttributeValue.%s(listOf(",
                              kind == DYNO_VALUE_SS ? "Ss" : kind == DYNO_VALUE_NS ? "Ns" : "Bs");
      dyno_cgb_append_set_members (out, value, kotlin_append_string, kotlin_append_bytes);
      g_string_append (out, "))");
      break;
    case DYNO_VALUE_M:
      g_string_append (out, "AttributeValue.M(");
      kotlin_append_attribute_map (out, value, indent);
      g_string_append_c (out, ')');
      break;
    case DYNO_VALUE_L:
      if (n == 0)
        {
          g_string_append (out, "AttributeValue.L(emptyList())");
          break;
        }
      g_string_append (out, "AttributeValue.L(\n");
      dyno_cgb_indent (out, indent + 4, 1);
      g_string_append (out, "listOf(\n");
      dyno_cgb_append_list_items (out, value, indent + 8, kotlin_append_value);
      dyno_cgb_indent (out, indent + 4, 1);
      g_string_append (out, "),\n");
      dyno_cgb_indent (out, indent, 1);
      g_string_append_c (out, ')');
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
kotlin_append_name (GString    *out,
                    const char *api_name)
{
  dyno_cgb_append_camel (out, api_name);
  g_string_append (out, " = ");
}

static void
kotlin_append_enum (GString            *out,
                    const DynoCgbField *field)
{
  g_string_append_printf (out, "%s.", field->enum_type);
  dyno_cgb_append_pascal (out, field->text);
}

static const DynoCgbFieldStyle kotlin_field_style = {
  kotlin_append_name, kotlin_append_enum, &kotlin_map_style, &kotlin_map_style, "\n",
};

/* `val request = XRequest {\n…\n}` with the statement at @indent. */
static void
kotlin_append_request (GString                  *out,
                       const DynoRequest        *request,
                       const DynoPrintedRequest *printed,
                       guint                     indent)
{
  guint inner = indent + 4;

  dyno_cgb_indent (out, indent, 1);
  g_string_append_printf (out, "val request = %sRequest {\n",
                          dyno_cgb_operation_pascal (request->operation));
  dyno_cgb_append_fields (out, &kotlin_field_style, request, printed, inner);
  dyno_cgb_indent (out, indent, 1);
  g_string_append (out, "}\n");
}

static void
kotlin_append_program (GString                  *out,
                       const DynoRequest        *request,
                       const DynoPrintedRequest *printed,
                       const DynoCodegenOptions *options)
{
  const char *op = dyno_cgb_operation_pascal (request->operation);
  g_autofree char *method = g_strdup (op);
  g_autoptr(GString) body = g_string_new (NULL);
  gboolean paginated = request->operation == DYNO_OP_QUERY ||
                       request->operation == DYNO_OP_SCAN;
  gboolean count = paginated && request->select == DYNO_SELECT_COUNT;
  const char *model_types[] = { "AttributeValue", "ReturnConsumedCapacity", "ReturnValue",
                                "Select" };

  method[0] = g_ascii_tolower (method[0]);

  kotlin_append_request (body, request, printed, 4);
  g_string_append (body, "\n"
                         "    DynamoDbClient.fromEnvironment {\n");
  if (options->region != NULL)
    {
      g_string_append (body, "        region = ");
      kotlin_append_string (body, options->region, strlen (options->region));
      g_string_append_c (body, '\n');
    }
  if (options->profile != NULL)
    {
      g_string_append (body, "        credentialsProvider ="
                             " ProfileCredentialsProvider(profileName = ");
      kotlin_append_string (body, options->profile, strlen (options->profile));
      g_string_append (body, ")\n");
    }
  if (options->endpoint_url != NULL)
    {
      g_string_append (body, "        endpointUrl = Url.parse(");
      kotlin_append_string (body, options->endpoint_url, strlen (options->endpoint_url));
      g_string_append (body, ")\n");
    }
  g_string_append (body, "    }.use { client ->\n");
  if (count)
    g_string_append_printf (body,
                            "        var count = 0\n"
                            "        client.%sPaginated(request)"
                            ".collect { page -> count += page.count }\n"
                            "        println(\"Count: \" + count)\n",
                            method);
  else if (paginated)
    g_string_append_printf (body,
                            "        client.%sPaginated(request)\n"
                            "            .items()\n"
                            "            .collect { item -> println(item) }\n",
                            method);
  else
    g_string_append_printf (body,
                            "        val response = client.%s(request)\n"
                            "        response.%s?.let { println(it) }\n",
                            method,
                            request->operation == DYNO_OP_GET_ITEM ? "item" : "attributes");
  g_string_append (body, "    }\n"
                         "}\n");

  if (options->profile != NULL)
    g_string_append (out,
                     "import aws.sdk.kotlin.runtime.auth.credentials.ProfileCredentialsProvider\n");
  g_string_append (out, "import aws.sdk.kotlin.services.dynamodb.DynamoDbClient\n");
  for (guint i = 0; i < G_N_ELEMENTS (model_types); i++)
    {
      g_autofree char *use = g_strdup_printf ("%s.", model_types[i]);

      if (strstr (body->str, use) != NULL)
        g_string_append_printf (out, "import aws.sdk.kotlin.services.dynamodb.model.%s\n",
                                model_types[i]);
    }
  g_string_append_printf (out, "import aws.sdk.kotlin.services.dynamodb.model.%sRequest\n", op);
  if (paginated && !count)
    g_string_append (out, "import aws.sdk.kotlin.services.dynamodb.paginators.items\n");
  if (paginated)
    g_string_append_printf (out, "import aws.sdk.kotlin.services.dynamodb.paginators.%sPaginated\n",
                            method);
  if (options->endpoint_url != NULL)
    g_string_append (out, "import aws.smithy.kotlin.runtime.net.url.Url\n");
  if (strstr (body->str, "Base64.") != NULL)
    g_string_append (out, "import java.util.Base64\n");
  g_string_append (out, "\n"
                        "suspend fun main() {\n");
  g_string_append (out, body->str);
}

char *
dyno_codegen_emit_kotlin (const DynoRequest        *request,
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
      kotlin_append_program (out, request, printed, options);
    }
  else
    {
      g_autofree char *method = g_strdup (dyno_cgb_operation_pascal (request->operation));

      method[0] = g_ascii_tolower (method[0]);
      kotlin_append_request (out, request, printed, 0);
      g_string_append_printf (out, "val response = client.%s(request)\n", method);
    }
  return g_string_free (out, FALSE);
}
