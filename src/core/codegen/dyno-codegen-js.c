/* dyno-codegen-js.c: the request for the AWS SDK for JavaScript v3, low-level client and
 * DocumentClient
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-private.h"

#include <string.h>

/* w->uses: a number needs NumberValue to stay exact (DocumentClient) */
#define JS_USES_NUMBER_VALUE 1u

static gboolean
js_is_document (DynoCodegenWriter *w)
{
  return w->lang == &dyno_codegen_lang_js_docclient;
}

static void
js_text (DynoCodegenWriter *w,
         const char        *text,
         gsize              len)
{
  dyno_codegen_append_quoted_len (w->out, text, len, DYNO_QUOTE_JS);
}

static void
js_string (DynoCodegenWriter *w,
           const char        *text)
{
  dyno_codegen_append_quoted (w->out, text, DYNO_QUOTE_JS);
}

static void
js_key (DynoCodegenWriter *w,
        const char        *name,
        gsize              len)
{
  if (strlen (name) == len && dyno_codegen_is_js_identifier (name))
    g_string_append (w->out, name);
  else
    js_text (w, name, len);
}

static void
js_buffer (DynoCodegenWriter *w,
           const guint8      *data,
           gsize              len)
{
  g_autofree char *b64 = g_base64_encode (data, len);

  g_string_append_printf (w->out, "Buffer.from(\"%s\", \"base64\")", b64);
}

/* A JS number is a double: digits it cannot hold go through NumberValue, which the
 * DocumentClient marshals back to the exact N string. */
static void
js_number_value (DynoCodegenWriter *w,
                 const char        *number)
{
  w->uses |= JS_USES_NUMBER_VALUE;
  g_string_append (w->out, "NumberValue.from(");
  js_string (w, number);
  g_string_append_c (w->out, ')');
}

static void
js_native_number (DynoCodegenWriter *w,
                  const char        *number)
{
  if (dyno_codegen_number_fits_double (number))
    g_string_append (w->out, number);
  else
    js_number_value (w, number);
}

/* A set's members must be of one JS type for the marshaller: all NumberValue when any of
 * them needs it. */
static void
js_native_set (DynoCodegenWriter *w,
               const DynoValue   *set,
               guint              indent)
{
  guint n = dyno_value_get_n_children (set);
  gboolean all_fit = TRUE;

  if (dyno_value_get_kind (set) != DYNO_VALUE_NS)
    {
      dyno_codegen_write_set_members (w, set);
      return;
    }
  for (guint i = 0; i < n; i++)
    all_fit = all_fit && dyno_codegen_number_fits_double (
                           dyno_value_get_string (dyno_value_get_child (set, i), NULL));
  for (guint i = 0; i < n; i++)
    {
      const char *number = dyno_value_get_string (dyno_value_get_child (set, i), NULL);

      if (i > 0)
        g_string_append (w->out, ", ");
      if (all_fit)
        g_string_append (w->out, number);
      else
        js_number_value (w, number);
    }
}

static void
js_map (DynoCodegenWriter *w,
        const DynoValue   *map,
        guint              indent)
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
      gsize len;
      const char *name = dyno_value_get_member_name (map, i, &len);

      if (i > 0)
        g_string_append (w->out, ", ");
      js_key (w, name, len);
      g_string_append (w->out, ": ");
      dyno_codegen_write_value (w, dyno_value_get_child (map, i), indent);
    }
  g_string_append (w->out, " }");
}

static void
js_list (DynoCodegenWriter *w,
         const DynoValue   *list,
         guint              indent)
{
  dyno_codegen_write_list_inline (w, list);
}

/* Key and Item with bare keys where JS allows; the placeholder maps quoted. */
static void
js_member_map (DynoCodegenWriter       *w,
               const DynoCodegenMember *m,
               guint                    indent)
{
  const DynoCodegenPairs *pairs = &m->pairs;

  g_string_append (w->out, "{\n");
  for (guint i = 0; i < dyno_codegen_pairs_get_n (pairs); i++)
    {
      gsize len;
      const char *key = dyno_codegen_pairs_get_key (pairs, i, &len);

      dyno_codegen_append_indent (w->out, indent + 2);
      if (m->kind == DYNO_CODEGEN_MEMBER_ITEM)
        js_key (w, key, len);
      else
        js_string (w, key);
      g_string_append (w->out, ": ");
      if (m->kind == DYNO_CODEGEN_MEMBER_NAMES)
        js_string (w, dyno_codegen_pairs_get_name (pairs, i));
      else
        dyno_codegen_write_value (w, dyno_codegen_pairs_get_value (pairs, i), indent + 2);
      g_string_append (w->out, ",\n");
    }
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_c (w->out, '}');
}

/* const input = { … }; */
static void
js_input (DynoCodegenWriter *w,
          gpointer           data)
{
  g_string_append (w->out, "const input = {\n");
  dyno_codegen_write_members (w, 2);
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

static const char *
js_paginator (DynoOperation op)
{
  return op == DYNO_OP_QUERY ? "paginateQuery" : "paginateScan";
}

static void
js_loop (DynoCodegenWriter *w,
         gboolean           count)
{
  g_string_append_printf (w->out,
                          "// The paginator sends ExclusiveStartKey = LastEvaluatedKey until there is none.\n"
                          "for await (const page of %s({ client }, input)) {\n"
                          "  for (const item of page.Items ?? []) {\n"
                          "    console.log(toDynamoJson(item));\n"
                          "  }\n"
                          "}\n",
                          js_paginator (w->request->operation));
}

static void
js_call (DynoCodegenWriter *w)
{
  const char *member = dyno_codegen_result_member (w->request->operation);

  g_string_append_printf (w->out,
                          "const response = await client.send(new %s(input));\n"
                          "if (response.%s) {\n"
                          "  console.log(toDynamoJson(response.%s));\n"
                          "}\n",
                          command_name (w->request->operation, js_is_document (w)), member,
                          member);
}

static void
js_document (DynoCodegenWriter *w,
             gboolean           program)
{
  gboolean document = js_is_document (w);
  g_autoptr(GString) body = dyno_codegen_write_aside (w, js_input, NULL);
  g_autoptr(GString) client = g_string_new (NULL);
  DynoOperation op = w->request->operation;
  const char *command = command_name (op, document);
  gboolean paged = dyno_codegen_operation_is_paged (op);
  GString *head = w->out;

  if (program)
    {
      g_autofree char *what = dyno_codegen_describe (w->request);
      g_autofree char *title = g_strdup_printf ("%s, generated by DynoTable.", what);

      dyno_codegen_write_comment (w, title);
      if (paged)
        dyno_codegen_write_comment (w, "Prints every item as one line of DynamoDB JSON, page by page.");
      else if (op == DYNO_OP_GET_ITEM)
        dyno_codegen_write_comment (w, "Prints the item as one line of DynamoDB JSON.");
      else
        dyno_codegen_write_comment (w, "Prints the returned attributes as one line of DynamoDB JSON.");
      dyno_codegen_write_comment (w, "Run as an ES module: node program.mjs");
    }

  /* imports */
  if (document)
    {
      g_string_append (head, "import { DynamoDBClient } from \"@aws-sdk/client-dynamodb\";\n");
      g_string_append (head, "import {\n  DynamoDBDocumentClient,\n");
      g_string_append_printf (head, "  %s,\n", program && paged ? js_paginator (op) : command);
      if (w->uses & JS_USES_NUMBER_VALUE)
        g_string_append (head, "  NumberValue,\n");
      g_string_append (head, "} from \"@aws-sdk/lib-dynamodb\";\n");
      if (program)
        g_string_append (head, "import { marshall } from \"@aws-sdk/util-dynamodb\";\n");
    }
  else
    {
      g_string_append_printf (head, "import { DynamoDBClient, %s } from \"@aws-sdk/client-dynamodb\";\n",
                              program && paged ? js_paginator (op) : command);
    }
  g_string_append_c (head, '\n');

  /* client */
  append_client_config (client, w->options);
  if (document)
    g_string_append_printf (head,
                            "// wrapNumbers: numbers come back as NumberValue, exact to 38 digits\n"
                            "// (Number(value) when a double is enough).\n"
                            "const client = DynamoDBDocumentClient.from(new DynamoDBClient(%s), {\n"
                            "  unmarshallOptions: { wrapNumbers: true },\n"
                            "});\n\n",
                            client->str);
  else
    g_string_append_printf (head, "const client = new DynamoDBClient(%s);\n\n", client->str);

  g_string_append (head, body->str);
  g_string_append_c (head, '\n');

  if (!program)
    {
      g_string_append_printf (head, "const response = await client.send(new %s(input));\n",
                              command);
      return;
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
  dyno_codegen_write_ending (w);
}

static void
js_snippet (DynoCodegenWriter *w)
{
  js_document (w, FALSE);
}

static void
js_program (DynoCodegenWriter *w)
{
  js_document (w, TRUE);
}

#define JS_MEMBERS \
  .name_format = "%s: ", \
  .end = ",\n", \
  .string = js_string, \
  .map = js_member_map

/* The low-level client: typed AttributeValues, { S: "…" } */
const DynoCodegenLang dyno_codegen_lang_js_v3 = {
  .order = DYNO_CODEGEN_ORDER_API,
  .comment = "// ",
  .value = {
    .text = js_text,
    .bytes = js_buffer,
    .true_word = "true",
    .false_word = "false",
    .null_word = "true",
    .open = {
      [DYNO_VALUE_S] = "{ S: ", [DYNO_VALUE_N] = "{ N: ", [DYNO_VALUE_B] = "{ B: ",
      [DYNO_VALUE_BOOL] = "{ BOOL: ", [DYNO_VALUE_NULL] = "{ NULL: ", [DYNO_VALUE_M] = "{ M: ",
      [DYNO_VALUE_L] = "{ L: [", [DYNO_VALUE_SS] = "{ SS: [", [DYNO_VALUE_NS] = "{ NS: [",
      [DYNO_VALUE_BS] = "{ BS: [",
    },
    .close = {
      [DYNO_VALUE_S] = " }", [DYNO_VALUE_N] = " }", [DYNO_VALUE_B] = " }",
      [DYNO_VALUE_BOOL] = " }", [DYNO_VALUE_NULL] = " }", [DYNO_VALUE_M] = " }",
      [DYNO_VALUE_L] = "] }", [DYNO_VALUE_SS] = "] }", [DYNO_VALUE_NS] = "] }",
      [DYNO_VALUE_BS] = "] }",
    },
    .map = js_map,
    .list = js_list,
  },
  .member = { JS_MEMBERS },
  .snippet = js_snippet,
  .program = js_program,
  .loop = js_loop,
  .call = js_call,
};

/* The DocumentClient: native values, sets as Set, big numbers as NumberValue */
const DynoCodegenLang dyno_codegen_lang_js_docclient = {
  .order = DYNO_CODEGEN_ORDER_API,
  .comment = "// ",
  .value = {
    .text = js_text,
    .bytes = js_buffer,
    .number = js_native_number,
    .true_word = "true",
    .false_word = "false",
    .null_word = "null",
    .open = {
      [DYNO_VALUE_L] = "[", [DYNO_VALUE_SS] = "new Set([", [DYNO_VALUE_NS] = "new Set([",
      [DYNO_VALUE_BS] = "new Set([",
    },
    .close = {
      [DYNO_VALUE_L] = "]", [DYNO_VALUE_SS] = "])", [DYNO_VALUE_NS] = "])",
      [DYNO_VALUE_BS] = "])",
    },
    .map = js_map,
    .list = js_list,
    .set = js_native_set,
  },
  .member = { JS_MEMBERS },
  .snippet = js_snippet,
  .program = js_program,
  .loop = js_loop,
  .call = js_call,
};
