/* dyno-codegen-js.c: the request for the AWS SDK for JavaScript v3, low-level client and
 * DocumentClient
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-old.h"

/* What both flavours share while one is written. */
typedef struct {
  GString  *out;
  gboolean  document;          /* DocumentClient: native values */
  gboolean  uses_number_value; /* a number needs NumberValue to stay exact */
} JsWriter;

static void
append_key (JsWriter   *w,
            const char *name,
            gsize       len)
{
  if (strlen (name) == len && dyno_codegen_is_js_identifier (name))
    g_string_append (w->out, name);
  else
    dyno_codegen_append_quoted_len (w->out, name, len, DYNO_QUOTE_JS);
}

static void
append_member_key (JsWriter        *w,
                   const DynoValue *map,
                   guint            i)
{
  gsize len;
  const char *name = dyno_value_get_member_name (map, i, &len);

  append_key (w, name, len);
}

static void
append_buffer (JsWriter        *w,
               const DynoValue *value)
{
  gsize len = 0;
  const guint8 *data = dyno_value_get_binary (value, &len);
  g_autofree char *b64 = g_base64_encode (data, len);

  g_string_append_printf (w->out, "Buffer.from(\"%s\", \"base64\")", b64);
}

static void
append_native_number (JsWriter   *w,
                      const char *number)
{
  /* A JS number is a double: digits it cannot hold go through NumberValue, which the
   * DocumentClient marshals back to the exact N string. */
  if (dyno_codegen_number_fits_double (number))
    g_string_append (w->out, number);
  else
    {
      w->uses_number_value = TRUE;
      g_string_append (w->out, "NumberValue.from(");
      dyno_codegen_append_quoted (w->out, number, DYNO_QUOTE_JS);
      g_string_append_c (w->out, ')');
    }
}

static void append_value (JsWriter        *w,
                          const DynoValue *value);

static void
append_children (JsWriter        *w,
                 const DynoValue *value,
                 gboolean         as_strings)
{
  guint n = dyno_value_get_n_children (value);

  g_string_append_c (w->out, '[');
  for (guint i = 0; i < n; i++)
    {
      const DynoValue *child = dyno_value_get_child (value, i);

      if (i > 0)
        g_string_append (w->out, ", ");
      if (as_strings)
        dyno_codegen_append_value_string (w->out, child, DYNO_QUOTE_JS);
      else
        append_value (w, child);
    }
  g_string_append_c (w->out, ']');
}

static void
append_map_inline (JsWriter        *w,
                   const DynoValue *map)
{
  guint n = dyno_value_get_n_children (map);

  if (n == 0)
    {
      g_string_append (w->out, "{}");
      return;
    }
  g_string_append (w->out, "{ ");
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (w->out, ", ");
      append_member_key (w, map, i);
      g_string_append (w->out, ": ");
      append_value (w, dyno_value_get_child (map, i));
    }
  g_string_append (w->out, " }");
}

/* A native JS value (DocumentClient) */
static void
append_native (JsWriter        *w,
               const DynoValue *value)
{
  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_S:
      dyno_codegen_append_value_string (w->out, value, DYNO_QUOTE_JS);
      break;
    case DYNO_VALUE_N:
      append_native_number (w, dyno_value_get_string (value, NULL));
      break;
    case DYNO_VALUE_B:
      append_buffer (w, value);
      break;
    case DYNO_VALUE_BOOL:
      g_string_append (w->out, dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (w->out, "null");
      break;
    case DYNO_VALUE_M:
      append_map_inline (w, value);
      break;
    case DYNO_VALUE_L:
      append_children (w, value, FALSE);
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_BS:
      g_string_append (w->out, "new Set(");
      append_children (w, value, FALSE);
      g_string_append_c (w->out, ')');
      break;
    case DYNO_VALUE_NS:
      {
        /* A set's members must be of one JS type for the marshaller: all NumberValue when
         * any of them needs it. */
        gboolean all_fit = TRUE;
        guint n = dyno_value_get_n_children (value);

        for (guint i = 0; i < n; i++)
          {
            const DynoValue *member = dyno_value_get_child (value, i);

            all_fit = all_fit &&
                      dyno_codegen_number_fits_double (dyno_value_get_string (member, NULL));
          }
        g_string_append (w->out, "new Set([");
        for (guint i = 0; i < n; i++)
          {
            const char *number = dyno_value_get_string (dyno_value_get_child (value, i), NULL);

            if (i > 0)
              g_string_append (w->out, ", ");
            if (all_fit)
              g_string_append (w->out, number);
            else
              {
                w->uses_number_value = TRUE;
                g_string_append (w->out, "NumberValue.from(");
                dyno_codegen_append_quoted (w->out, number, DYNO_QUOTE_JS);
                g_string_append_c (w->out, ')');
              }
          }
        g_string_append (w->out, "])");
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

/* A typed AttributeValue (low-level client): { S: "…" } */
static void
append_attribute_value (JsWriter        *w,
                        const DynoValue *value)
{
  DynoValueType type = dyno_value_get_kind (value);

  g_string_append_printf (w->out, "{ %s: ", dyno_value_type_to_string (type));
  switch (type)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
      dyno_codegen_append_value_string (w->out, value, DYNO_QUOTE_JS);
      break;
    case DYNO_VALUE_B:
      append_buffer (w, value);
      break;
    case DYNO_VALUE_BOOL:
      g_string_append (w->out, dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (w->out, "true");
      break;
    case DYNO_VALUE_M:
      append_map_inline (w, value);
      break;
    case DYNO_VALUE_L:
      append_children (w, value, FALSE);
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
      append_children (w, value, TRUE);
      break;
    case DYNO_VALUE_BS:
      {
        guint n = dyno_value_get_n_children (value);

        g_string_append_c (w->out, '[');
        for (guint i = 0; i < n; i++)
          {
            if (i > 0)
              g_string_append (w->out, ", ");
            append_buffer (w, dyno_value_get_child (value, i));
          }
        g_string_append_c (w->out, ']');
      }
      break;
    default:
      g_assert_not_reached ();
    }
  g_string_append (w->out, " }");
}

static void
append_value (JsWriter        *w,
              const DynoValue *value)
{
  if (w->document)
    append_native (w, value);
  else
    append_attribute_value (w, value);
}

static void
append_item_block (JsWriter        *w,
                   const DynoValue *map,
                   guint            indent)
{
  guint n = dyno_value_get_n_children (map);

  g_string_append (w->out, "{\n");
  for (guint i = 0; i < n; i++)
    {
      dyno_codegen_append_indent (w->out, indent + 2);
      append_member_key (w, map, i);
      g_string_append (w->out, ": ");
      append_value (w, dyno_value_get_child (map, i));
      g_string_append (w->out, ",\n");
    }
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_c (w->out, '}');
}

/* const input = { … }; */
static void
append_input (JsWriter                 *w,
              const DynoRequest        *request,
              const DynoPrintedRequest *printed)
{
  g_autoptr(GArray) members = dyno_codegen_collect_old_members (request, printed);

  g_string_append (w->out, "const input = {\n");
  for (guint i = 0; i < members->len; i++)
    {
      const DynoCodegenOldMember *m = &g_array_index (members, DynoCodegenOldMember, i);

      g_string_append_printf (w->out, "  %s: ", m->name);
      switch (m->kind)
        {
        case DYNO_CODEGEN_MEMBER_STRING:
        case DYNO_CODEGEN_MEMBER_ENUM:
          dyno_codegen_append_quoted (w->out, m->string, DYNO_QUOTE_JS);
          break;
        case DYNO_CODEGEN_MEMBER_INTEGER:
          g_string_append_printf (w->out, "%" G_GINT64_FORMAT, m->integer);
          break;
        case DYNO_CODEGEN_MEMBER_BOOLEAN:
          g_string_append (w->out, m->boolean ? "true" : "false");
          break;
        case DYNO_CODEGEN_MEMBER_ITEM:
          append_item_block (w, m->map, 2);
          break;
        case DYNO_CODEGEN_MEMBER_NAMES:
          g_string_append (w->out, "{\n");
          for (guint j = 0; j < printed->name_placeholders->len; j++)
            {
              g_string_append (w->out, "    ");
              dyno_codegen_append_quoted (w->out, printed->name_placeholders->pdata[j],
                                          DYNO_QUOTE_JS);
              g_string_append (w->out, ": ");
              dyno_codegen_append_quoted (w->out, printed->names->pdata[j], DYNO_QUOTE_JS);
              g_string_append (w->out, ",\n");
            }
          g_string_append (w->out, "  }");
          break;
        case DYNO_CODEGEN_MEMBER_VALUES:
          g_string_append (w->out, "{\n");
          for (guint j = 0; j < printed->value_placeholders->len; j++)
            {
              g_string_append (w->out, "    ");
              dyno_codegen_append_quoted (w->out, printed->value_placeholders->pdata[j],
                                          DYNO_QUOTE_JS);
              g_string_append (w->out, ": ");
              append_value (w, printed->values->pdata[j]);
              g_string_append (w->out, ",\n");
            }
          g_string_append (w->out, "  }");
          break;
        default:
          g_assert_not_reached ();
        }
      g_string_append (w->out, ",\n");
    }
  g_string_append (w->out, "};\n");
}

static void
append_client_config (GString                  *out,
                      const DynoCodegenOptions *options)
{
  if (options->endpoint_url == NULL && options->region == NULL && options->profile == NULL)
    {
      g_string_append (out, "{}");
      return;
    }
  g_string_append (out, "{\n");
  if (options->endpoint_url != NULL)
    {
      g_string_append (out, "  endpoint: ");
      dyno_codegen_append_quoted (out, options->endpoint_url, DYNO_QUOTE_JS);
      g_string_append (out, ",\n");
    }
  if (options->region != NULL)
    {
      g_string_append (out, "  region: ");
      dyno_codegen_append_quoted (out, options->region, DYNO_QUOTE_JS);
      g_string_append (out, ",\n");
    }
  if (options->profile != NULL)
    {
      g_string_append (out, "  profile: ");
      dyno_codegen_append_quoted (out, options->profile, DYNO_QUOTE_JS);
      g_string_append (out, ",\n");
    }
  g_string_append (out, "}");
}

/* The DocumentClient's command names drop "Item": GetCommand, PutCommand, … */
static const char *
command_name (DynoOperation op,
              gboolean      document)
{
  static const char * const low_level[] = {
    "QueryCommand", "ScanCommand", "GetItemCommand", "PutItemCommand", "UpdateItemCommand",
    "DeleteItemCommand",
  };
  static const char * const doc[] = {
    "QueryCommand", "ScanCommand", "GetCommand", "PutCommand", "UpdateCommand",
    "DeleteCommand",
  };

  return document ? doc[op] : low_level[op];
}

static char *
emit (const DynoRequest        *request,
      const DynoPrintedRequest *printed,
      const DynoCodegenOptions *options,
      gboolean                  document)
{
  JsWriter w = { g_string_new (NULL), document, FALSE };
  g_autoptr(GString) head = g_string_new (NULL);
  g_autoptr(GString) client = g_string_new (NULL);
  g_autofree char *what = dyno_codegen_describe (request);
  DynoOperation op = request->operation;
  const char *command = command_name (op, document);
  gboolean paged = dyno_codegen_operation_is_paged (op);
  gboolean program = options->program;
  const char *paginator = op == DYNO_OP_QUERY ? "paginateQuery" : "paginateScan";
  g_autoptr(GString) body = NULL;

  append_input (&w, request, printed);
  body = w.out;

  if (program)
    {
      g_string_append_printf (head, "// %s, generated by DynoTable.\n", what);
      if (paged)
        g_string_append (head, "// Prints every item as one line of DynamoDB JSON, page by page.\n");
      else if (op == DYNO_OP_GET_ITEM)
        g_string_append (head, "// Prints the item as one line of DynamoDB JSON.\n");
      else
        g_string_append (head, "// Prints the returned attributes as one line of DynamoDB JSON.\n");
      g_string_append (head, "// Run as an ES module: node program.mjs\n");
    }

  /* imports */
  if (document)
    {
      g_string_append (head, "import { DynamoDBClient } from \"@aws-sdk/client-dynamodb\";\n");
      g_string_append (head, "import {\n  DynamoDBDocumentClient,\n");
      if (program && paged)
        g_string_append_printf (head, "  %s,\n", paginator);
      else
        g_string_append_printf (head, "  %s,\n", command);
      if (w.uses_number_value)
        g_string_append (head, "  NumberValue,\n");
      g_string_append (head, "} from \"@aws-sdk/lib-dynamodb\";\n");
      if (program)
        g_string_append (head, "import { marshall } from \"@aws-sdk/util-dynamodb\";\n");
    }
  else
    {
      g_string_append_printf (head, "import { DynamoDBClient, %s } from \"@aws-sdk/client-dynamodb\";\n",
                              program && paged ? paginator : command);
    }
  g_string_append_c (head, '\n');

  /* client */
  append_client_config (client, options);
  if (document)
    {
      g_string_append_printf (head,
                              "// wrapNumbers: numbers come back as NumberValue, exact to 38 digits\n"
                              "// (Number(value) when a double is enough).\n"
                              "const client = DynamoDBDocumentClient.from(new DynamoDBClient(%s), {\n"
                              "  unmarshallOptions: { wrapNumbers: true },\n"
                              "});\n\n",
                              client->str);
    }
  else
    g_string_append_printf (head, "const client = new DynamoDBClient(%s);\n\n", client->str);

  g_string_append (head, body->str);
  g_string_append_c (head, '\n');

  if (!program)
    {
      g_string_append_printf (head, "const response = await client.send(new %s(input));\n",
                              command);
      return g_strdup (head->str);
    }

  if (document)
    g_string_append (head,
                     "// Items come back as plain values; marshall() turns them into DynamoDB JSON\n"
                     "// again (binary values in base64).\n"
                     "function toDynamoJson(item) {\n"
                     "  return JSON.stringify(marshall(item), (key, value) =>\n"
                     "    value instanceof Uint8Array ? Buffer.from(value).toString(\"base64\") : value);\n"
                     "}\n\n");
  else
    g_string_append (head,
                     "// DynamoDB JSON with binary values in base64, as the service sends them.\n"
                     "function toDynamoJson(item) {\n"
                     "  return JSON.stringify(item, (key, value) =>\n"
                     "    value instanceof Uint8Array ? Buffer.from(value).toString(\"base64\") : value);\n"
                     "}\n\n");

  if (paged)
    g_string_append_printf (head,
                            "// The paginator sends ExclusiveStartKey = LastEvaluatedKey until there is none.\n"
                            "for await (const page of %s({ client }, input)) {\n"
                            "  for (const item of page.Items ?? []) {\n"
                            "    console.log(toDynamoJson(item));\n"
                            "  }\n"
                            "}\n",
                            paginator);
  else
    g_string_append_printf (head,
                            "const response = await client.send(new %s(input));\n"
                            "if (response.%s) {\n"
                            "  console.log(toDynamoJson(response.%s));\n"
                            "}\n",
                            command,
                            op == DYNO_OP_GET_ITEM ? "Item" : "Attributes",
                            op == DYNO_OP_GET_ITEM ? "Item" : "Attributes");
  return g_strdup (head->str);
}

char *
dyno_codegen_emit_js_v3 (const DynoRequest        *request,
                         const DynoPrintedRequest *printed,
                         const DynoCodegenOptions *options,
                         GError                  **error)
{
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (printed != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  return emit (request, printed, options, FALSE);
}

char *
dyno_codegen_emit_js_docclient (const DynoRequest        *request,
                                const DynoPrintedRequest *printed,
                                const DynoCodegenOptions *options,
                                GError                  **error)
{
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (printed != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  return emit (request, printed, options, TRUE);
}
