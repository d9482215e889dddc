/* dyno-codegen-java.c: a request as AWS SDK for Java 2.x code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-b-private.h"

/* Builders with the AttributeValue.fromX() factories, Map.of()/List.of() for the maps (or
 * Map.ofEntries() past Map.of()'s ten pairs).  Continuation lines are indented by 8, the
 * Java convention. */

#define JAVA_CONTINUATION 8

static void java_append_value (GString         *out,
                               const DynoValue *value,
                               guint            indent);

static void
java_append_string (GString    *out,
                    const char *text,
                    gsize       len)
{
  dyno_cgb_append_c_string_len (out, text, len, DYNO_CGB_LANG_JAVA);
}

static void
java_append_bytes (GString      *out,
                   const guint8 *data,
                   gsize         len)
{
  g_string_append (out, "SdkBytes.fromByteArray(Base64.getDecoder().decode(\"");
  dyno_cgb_append_base64 (out, data, len);
  g_string_append (out, "\"))");
}

/* Writes the key (@key TRUE) or the value of the @i-th pair of a map. */
typedef void (*JavaPairFunc) (GString  *out,
                              gpointer  data,
                              guint     i,
                              gboolean  key,
                              guint     indent);

/* Map.of(k, v, …) with one pair per line at @indent + 8; the closing parenthesis ends the
 * last line. */

static void
java_append_map (GString      *out,
                 guint         n,
                 JavaPairFunc  pair,
                 gpointer      data,
                 guint         indent)
{
  gboolean entries = n > 10;

  if (n == 0)
    {
      g_string_append (out, "Map.of()");
      return;
    }
  g_string_append (out, entries ? "Map.ofEntries(\n" : "Map.of(\n");
  for (guint i = 0; i < n; i++)
    {
      dyno_cgb_indent (out, indent + JAVA_CONTINUATION, 1);
      if (entries)
        g_string_append (out, "Map.entry(");
      pair (out, data, i, TRUE, indent + JAVA_CONTINUATION);
      g_string_append (out, ", ");
      pair (out, data, i, FALSE, indent + JAVA_CONTINUATION);
      if (entries)
        g_string_append_c (out, ')');
      g_string_append (out, i + 1 < n ? ",\n" : ")");
    }
}

static void
java_member_pair (GString  *out,
                  gpointer  data,
                  guint     i,
                  gboolean  key,
                  guint     indent)
{
  const DynoValue *map = data;

  if (key)
    {
      gsize len;
      const char *name = dyno_value_get_member_name (map, i, &len);

      java_append_string (out, name, len);
    }
  else
    {
      java_append_value (out, dyno_value_get_child (map, i), indent);
    }
}

static void
java_name_pair (GString  *out,
                gpointer  data,
                guint     i,
                gboolean  key,
                guint     indent)
{
  const DynoPrintedRequest *printed = data;
  const char *text = g_ptr_array_index (key ? printed->name_placeholders : printed->names, i);

  java_append_string (out, text, strlen (text));
}

static void
java_value_pair (GString  *out,
                 gpointer  data,
                 guint     i,
                 gboolean  key,
                 guint     indent)
{
  const DynoPrintedRequest *printed = data;

  if (key)
    {
      const char *text = g_ptr_array_index (printed->value_placeholders, i);

      java_append_string (out, text, strlen (text));
    }
  else
    {
      java_append_value (out, g_ptr_array_index (printed->values, i), indent);
    }
}

static void
java_append_value (GString         *out,
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

        g_string_append (out, kind == DYNO_VALUE_S ? "AttributeValue.fromS(" :
                                                     "AttributeValue.fromN(");
        java_append_string (out, text, len);
        g_string_append_c (out, ')');
      }
      break;
    case DYNO_VALUE_B:
      {
        const guint8 *data = dyno_value_get_binary (value, &len);

        g_string_append (out, "AttributeValue.fromB(");
        java_append_bytes (out, data, len);
        g_string_append_c (out, ')');
      }
      break;
    case DYNO_VALUE_BOOL:
      g_string_append_printf (out, "AttributeValue.fromBool(%s)",
                              dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, "AttributeValue.fromNul(true)");
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      g_string_append_printf (out, "AttributeValue.from%s(List.of(",
                              kind == DYNO_VALUE_SS ? "Ss" : kind == DYNO_VALUE_NS ? "Ns" : "Bs");
      dyno_cgb_append_set_members (out, value, java_append_string, java_append_bytes);
      g_string_append (out, "))");
      break;
    case DYNO_VALUE_M:
      g_string_append (out, "AttributeValue.fromM(");
      java_append_map (out, n, java_member_pair, (gpointer) value, indent);
      g_string_append_c (out, ')');
      break;
    case DYNO_VALUE_L:
      g_string_append (out, "AttributeValue.fromL(List.of(");
      if (n > 0)
        g_string_append_c (out, '\n');
      for (guint i = 0; i < n; i++)
        {
          dyno_cgb_indent (out, indent + JAVA_CONTINUATION, 1);
          java_append_value (out, dyno_value_get_child (value, i), indent + JAVA_CONTINUATION);
          if (i + 1 < n)
            g_string_append (out, ",\n");
        }
      g_string_append (out, "))");
      break;
    default:
      g_assert_not_reached ();
    }
}

/* `XRequest request = XRequest.builder()…build();` with the statement at @indent. */
static void
java_append_request (GString                  *out,
                     const DynoRequest        *request,
                     const DynoPrintedRequest *printed,
                     guint                     indent)
{
  g_autoptr(GArray) fields = dyno_cgb_collect_fields (request, printed);
  const char *op = dyno_cgb_operation_pascal (request->operation);
  guint chain = indent + JAVA_CONTINUATION;

  dyno_cgb_indent (out, indent, 1);
  g_string_append_printf (out, "%sRequest request = %sRequest.builder()\n", op, op);
  for (guint i = 0; i < fields->len; i++)
    {
      DynoCgbField *field = &g_array_index (fields, DynoCgbField, i);

      dyno_cgb_indent (out, chain, 1);
      g_string_append_c (out, '.');
      dyno_cgb_append_camel (out, field->api_name);
      g_string_append_c (out, '(');
      switch (field->kind)
        {
        case DYNO_CGB_STRING:
          java_append_string (out, field->text, strlen (field->text));
          break;
        case DYNO_CGB_INT:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, field->number);
          break;
        case DYNO_CGB_BOOL:
          g_string_append (out, field->flag ? "true" : "false");
          break;
        case DYNO_CGB_ENUM:
          g_string_append_printf (out, "%s.%s", field->enum_type, field->text);
          break;
        case DYNO_CGB_NAMES:
          java_append_map (out, printed->name_placeholders->len, java_name_pair,
                           (gpointer) printed, chain);
          break;
        case DYNO_CGB_VALUES:
          java_append_map (out, printed->value_placeholders->len, java_value_pair,
                           (gpointer) printed, chain);
          break;
        case DYNO_CGB_ITEM:
          java_append_map (out, dyno_value_get_n_children (field->map), java_member_pair,
                           (gpointer) field->map, chain);
          break;
        default:
          g_assert_not_reached ();
        }
      g_string_append (out, ")\n");
    }
  dyno_cgb_indent (out, chain, 1);
  g_string_append (out, ".build();\n");
}

static void
java_append_program (GString                  *out,
                     const DynoRequest        *request,
                     const DynoPrintedRequest *printed,
                     const DynoCodegenOptions *options)
{
  const char *op = dyno_cgb_operation_pascal (request->operation);
  g_autofree char *method = g_strdup (op);
  gboolean paginated = request->operation == DYNO_OP_QUERY ||
                       request->operation == DYNO_OP_SCAN;

  method[0] = g_ascii_tolower (method[0]);

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
      java_append_string (out, options->region, strlen (options->region));
      g_string_append (out, "))\n");
    }
  if (options->profile != NULL)
    {
      g_string_append (out, "                .credentialsProvider("
                            "ProfileCredentialsProvider.create(");
      java_append_string (out, options->profile, strlen (options->profile));
      g_string_append (out, "))\n");
    }
  if (options->endpoint_url != NULL)
    {
      g_string_append (out, "                .endpointOverride(URI.create(");
      java_append_string (out, options->endpoint_url, strlen (options->endpoint_url));
      g_string_append (out, "))\n");
    }
  g_string_append (out, "                .build()) {\n");
  java_append_request (out, request, printed, 12);

  if (paginated && request->select == DYNO_SELECT_COUNT)
    g_string_append_printf (out,
                            "            int count = 0;\n"
                            "            for (%sResponse page : client.%sPaginator(request)) {\n"
                            "                count += page.count();\n"
                            "            }\n"
                            "            System.out.println(\"Count: \" + count);\n",
                            op, method);
  else if (paginated)
    g_string_append_printf (out,
                            "            for (Map<String, AttributeValue> item"
                            " : client.%sPaginator(request).items()) {\n"
                            "                System.out.println(item);\n"
                            "            }\n",
                            method);
  else if (request->operation == DYNO_OP_GET_ITEM)
    g_string_append (out,
                     "            GetItemResponse response = client.getItem(request);\n"
                     "            if (response.hasItem()) {\n"
                     "                System.out.println(response.item());\n"
                     "            }\n");
  else
    g_string_append_printf (out,
                            "            %sResponse response = client.%s(request);\n"
                            "            if (response.hasAttributes()) {\n"
                            "                System.out.println(response.attributes());\n"
                            "            }\n",
                            op, method);
  g_string_append (out, "        }\n"
                        "    }\n"
                        "}\n");
}

char *
dyno_codegen_emit_java_v2 (const DynoRequest        *request,
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
      java_append_program (out, request, printed, options);
    }
  else
    {
      const char *op = dyno_cgb_operation_pascal (request->operation);
      g_autofree char *method = g_strdup (op);

      method[0] = g_ascii_tolower (method[0]);
      java_append_request (out, request, printed, 0);
      g_string_append_printf (out, "%sResponse response = client.%s(request);\n", op, method);
    }
  return g_string_free (out, FALSE);
}
