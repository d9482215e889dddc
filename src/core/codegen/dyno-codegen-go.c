/* dyno-codegen-go.c: a request as AWS SDK for Go v2 code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "dyno-codegen-private.h"

#include <string.h>

/* The output is what gofmt would print, so that `gofmt -l` is silent on it: tabs for
 * indentation, and the keys of consecutive one-line key: value elements aligned the way
 * go/printer's exprList decides (a multi-line element, or a key much longer than the ones
 * before it, starts a new alignment section). */

typedef struct {
  char *key;
  char *value;
} GoElement;

static void
go_element_free (gpointer data)
{
  GoElement *element = data;

  g_free (element->key);
  g_free (element->value);
  g_free (element);
}

static GPtrArray *
go_elements_new (void)
{
  return g_ptr_array_new_with_free_func (go_element_free);
}

static void
go_elements_add (GPtrArray *elements,
                 char      *key,     /* takes ownership */
                 char      *value)   /* takes ownership */
{
  GoElement *element = g_new0 (GoElement, 1);

  element->key = key;
  element->value = value;
  g_ptr_array_add (elements, element);
}

static void
go_tabs (GString *out,
         guint    depth)
{
  for (guint i = 0; i < depth; i++)
    g_string_append_c (out, '\t');
}

/* Writes one element per line at @depth tabs, each followed by a comma. */
static void
go_write_elements (GString   *out,
                   GPtrArray *elements,
                   guint      depth)
{
  g_autofree gsize *section = g_new0 (gsize, elements->len + 1);
  g_autofree glong *width = g_new0 (glong, elements->len + 1);
  gsize prev_size, size = 0;
  double lnsum = 0.0;
  guint count = 0;
  guint n_sections = 0;

  /* First pass: which alignment section each element belongs to (go/printer's rule). */
  for (guint i = 0; i < elements->len; i++)
    {
      GoElement *element = g_ptr_array_index (elements, i);
      gboolean use_ff = TRUE;

      prev_size = size;
      size = strchr (element->value, '\n') != NULL ? 0 : strlen (element->key);
      if (prev_size > 0 && size > 0)
        {
          if (count == 0 || (prev_size <= 40 && size <= 40))
            {
              use_ff = FALSE;
            }
          else
            {
              double geomean = exp (lnsum / count);
              double ratio = size / geomean;

              use_ff = 2.5 * ratio <= 1 || 2.5 <= ratio;
            }
        }
      if (i == 0 || use_ff)
        n_sections++;
      section[i] = n_sections;
      if (size > 0)
        {
          lnsum += log ((double) size);
          count++;
        }
    }

  /* Second pass: the widest key of each section (in characters, as tabwriter counts). */
  for (guint i = 0; i < elements->len; i++)
    {
      GoElement *element = g_ptr_array_index (elements, i);

      if (strchr (element->value, '\n') == NULL)
        width[section[i]] = MAX (width[section[i]], g_utf8_strlen (element->key, -1));
    }

  for (guint i = 0; i < elements->len; i++)
    {
      GoElement *element = g_ptr_array_index (elements, i);
      gboolean multiline = strchr (element->value, '\n') != NULL;

      go_tabs (out, depth);
      g_string_append (out, element->key);
      g_string_append_c (out, ':');
      if (!multiline && elements->len > 1)
        for (glong pad = g_utf8_strlen (element->key, -1); pad < width[section[i]]; pad++)
          g_string_append_c (out, ' ');
      g_string_append_c (out, ' ');
      g_string_append (out, element->value);
      g_string_append (out, ",\n");
    }
}

static char *
go_string (const char *text,
           gsize       len)
{
  GString *out = g_string_new (NULL);

  dyno_codegen_append_c_string_len (out, text, len, DYNO_C_STRING_GO);
  return g_string_free (out, FALSE);
}

static void
go_text (DynoCodegenWriter *w,
         const char        *text,
         gsize              len)
{
  dyno_codegen_append_c_string_len (w->out, text, len, DYNO_C_STRING_GO);
}

static void
go_bytes (DynoCodegenWriter *w,
          const guint8      *data,
          gsize              len)
{
  g_string_append (w->out, "[]byte(\"");
  dyno_codegen_append_byte_escapes (w->out, data, len, FALSE);
  g_string_append (w->out, "\")");
}

typedef struct {
  const DynoCodegenPairs *pairs;
  guint                   i;
  guint                   depth;
} GoPairValue;

static void
go_pair_value (DynoCodegenWriter *w,
               gpointer           data)
{
  GoPairValue *pair = data;

  dyno_codegen_write_pair_value (w, pair->pairs, pair->i, pair->depth);
}

/* A map literal of @pairs after @head, whose closing brace is at @depth. */
static void
go_pairs (DynoCodegenWriter      *w,
          const char             *head,
          const DynoCodegenPairs *pairs,
          guint                   depth)
{
  guint n = dyno_codegen_pairs_get_n (pairs);
  g_autoptr(GPtrArray) elements = go_elements_new ();

  g_string_append (w->out, head);
  if (n == 0)
    {
      g_string_append_c (w->out, '}');
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      gsize len;
      const char *key = dyno_codegen_pairs_get_key (pairs, i, &len);
      GoPairValue pair = { pairs, i, depth + 1 };
      GString *value = dyno_codegen_write_aside (w, go_pair_value, &pair);

      go_elements_add (elements, go_string (key, len), g_string_free (value, FALSE));
    }
  g_string_append_c (w->out, '\n');
  go_write_elements (w->out, elements, depth + 1);
  go_tabs (w->out, depth);
  g_string_append_c (w->out, '}');
}

static void
go_map (DynoCodegenWriter *w,
        const DynoValue   *map,
        guint              depth)
{
  DynoCodegenPairs pairs = dyno_codegen_pairs_of_map (map);

  go_pairs (w, "map[string]types.AttributeValue{", &pairs, depth);
}

static void
go_list (DynoCodegenWriter *w,
         const DynoValue   *list,
         guint              depth)
{
  guint n = dyno_value_get_n_children (list);

  if (n > 0)
    g_string_append_c (w->out, '\n');
  for (guint i = 0; i < n; i++)
    {
      go_tabs (w->out, depth + 1);
      dyno_codegen_write_value (w, dyno_value_get_child (list, i), depth + 1);
      g_string_append (w->out, ",\n");
    }
  if (n > 0)
    go_tabs (w->out, depth);
}

static void
go_member_string (DynoCodegenWriter *w,
                  const char        *text)
{
  g_string_append (w->out, "aws.String(");
  go_text (w, text, strlen (text));
  g_string_append_c (w->out, ')');
}

static void
go_member_integer (DynoCodegenWriter       *w,
                   const DynoCodegenMember *m)
{
  g_string_append_printf (w->out, "aws.Int32(%" G_GINT64_FORMAT ")", m->integer);
}

static void
go_member_boolean (DynoCodegenWriter       *w,
                   const DynoCodegenMember *m)
{
  g_string_append_printf (w->out, "aws.Bool(%s)", m->boolean ? "true" : "false");
}

static void
go_member_enum (DynoCodegenWriter       *w,
                const DynoCodegenMember *m)
{
  g_string_append_printf (w->out, "types.%s", m->enum_type);
  dyno_codegen_append_pascal (w->out, m->string);
}

/* @depth: the member's line; the map closes there. */
static void
go_member_map (DynoCodegenWriter       *w,
               const DynoCodegenMember *m,
               guint                    depth)
{
  go_pairs (w, m->kind == DYNO_CODEGEN_MEMBER_NAMES ? "map[string]string{"
                                                    : "map[string]types.AttributeValue{",
            &m->pairs, depth);
}

typedef struct {
  const DynoCodegenMember *member;
  guint                    depth;
} GoMember;

static void
go_member_value (DynoCodegenWriter *w,
                 gpointer           data)
{
  GoMember *m = data;

  dyno_codegen_write_member_value (w, m->member, m->depth);
}

/* The request as `&dynamodb.<Op>Input{…}` whose closing brace is at @depth; the members are
 * aligned as gofmt aligns them, so they are written aside first. */
static void
go_input (DynoCodegenWriter *w,
          guint              depth)
{
  g_autoptr(GArray) members = dyno_codegen_collect_members (w->request, w->printed,
                                                            w->lang->order);
  g_autoptr(GPtrArray) elements = go_elements_new ();

  for (guint i = 0; i < members->len; i++)
    {
      GoMember m = { &g_array_index (members, DynoCodegenMember, i), depth + 1 };
      GString *value = dyno_codegen_write_aside (w, go_member_value, &m);

      go_elements_add (elements, g_strdup (m.member->name), g_string_free (value, FALSE));
    }

  g_string_append_printf (w->out, "&dynamodb.%sInput{\n",
                          dyno_codegen_operation_pascal (w->request->operation));
  go_write_elements (w->out, elements, depth + 1);
  go_tabs (w->out, depth);
  g_string_append_c (w->out, '}');
}

static const char go_print_helpers[] =
  "\n"
  "// printItem writes one item as DynamoDB JSON on one line.\n"
  "func printItem(item map[string]types.AttributeValue) {\n"
  "\ttext, err := json.Marshal(plainMap(item))\n"
  "\tif err != nil {\n"
  "\t\tlog.Fatal(err)\n"
  "\t}\n"
  "\tfmt.Println(string(text))\n"
  "}\n"
  "\n"
  "func plainMap(m map[string]types.AttributeValue) map[string]any {\n"
  "\tout := make(map[string]any, len(m))\n"
  "\tfor name, value := range m {\n"
  "\t\tout[name] = plain(value)\n"
  "\t}\n"
  "\treturn out\n"
  "}\n"
  "\n"
  "// plain returns the value as DynamoDB JSON would spell it ([]byte marshals as base64).\n"
  "func plain(value types.AttributeValue) any {\n"
  "\tswitch v := value.(type) {\n"
  "\tcase *types.AttributeValueMemberS:\n"
  "\t\treturn map[string]any{\"S\": v.Value}\n"
  "\tcase *types.AttributeValueMemberN:\n"
  "\t\treturn map[string]any{\"N\": v.Value}\n"
  "\tcase *types.AttributeValueMemberB:\n"
  "\t\treturn map[string]any{\"B\": v.Value}\n"
  "\tcase *types.AttributeValueMemberBOOL:\n"
  "\t\treturn map[string]any{\"BOOL\": v.Value}\n"
  "\tcase *types.AttributeValueMemberNULL:\n"
  "\t\treturn map[string]any{\"NULL\": v.Value}\n"
  "\tcase *types.AttributeValueMemberSS:\n"
  "\t\treturn map[string]any{\"SS\": v.Value}\n"
  "\tcase *types.AttributeValueMemberNS:\n"
  "\t\treturn map[string]any{\"NS\": v.Value}\n"
  "\tcase *types.AttributeValueMemberBS:\n"
  "\t\treturn map[string]any{\"BS\": v.Value}\n"
  "\tcase *types.AttributeValueMemberM:\n"
  "\t\treturn map[string]any{\"M\": plainMap(v.Value)}\n"
  "\tcase *types.AttributeValueMemberL:\n"
  "\t\tlist := make([]any, len(v.Value))\n"
  "\t\tfor i, element := range v.Value {\n"
  "\t\t\tlist[i] = plain(element)\n"
  "\t\t}\n"
  "\t\treturn map[string]any{\"L\": list}\n"
  "\t}\n"
  "\treturn nil\n"
  "}\n";

static void
go_program (DynoCodegenWriter *w)
{
  const DynoCodegenOptions *options = w->options;
  GString *out = w->out;

  g_string_append (out,
                   "package main\n"
                   "\n"
                   "import (\n"
                   "\t\"context\"\n"
                   "\t\"encoding/json\"\n"
                   "\t\"fmt\"\n"
                   "\t\"log\"\n"
                   "\n"
                   "\t\"github.com/aws/aws-sdk-go-v2/aws\"\n"
                   "\t\"github.com/aws/aws-sdk-go-v2/config\"\n"
                   "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb\"\n"
                   "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb/types\"\n"
                   ")\n"
                   "\n"
                   "func main() {\n"
                   "\tctx := context.Background()\n"
                   "\tcfg, err := config.LoadDefaultConfig(ctx");
  if (options->region != NULL)
    {
      g_string_append (out, ", config.WithRegion(");
      go_text (w, options->region, strlen (options->region));
      g_string_append_c (out, ')');
    }
  if (options->profile != NULL)
    {
      g_string_append (out, ", config.WithSharedConfigProfile(");
      go_text (w, options->profile, strlen (options->profile));
      g_string_append_c (out, ')');
    }
  g_string_append (out, ")\n"
                        "\tif err != nil {\n"
                        "\t\tlog.Fatal(err)\n"
                        "\t}\n");
  if (options->endpoint_url != NULL)
    {
      g_string_append (out, "\tclient := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {\n"
                            "\t\to.EndpointResolver = dynamodb.EndpointResolverFromURL(");
      go_text (w, options->endpoint_url, strlen (options->endpoint_url));
      g_string_append (out, ")\n"
                            "\t})\n");
    }
  else
    {
      g_string_append (out, "\tclient := dynamodb.NewFromConfig(cfg)\n");
    }
  g_string_append (out, "\n\tinput := ");
  go_input (w, 1);
  g_string_append (out, "\n");
  dyno_codegen_write_ending (w);
  g_string_append (out, "}\n");
  g_string_append (out, go_print_helpers);
}

static void
go_loop (DynoCodegenWriter *w,
         gboolean           count)
{
  if (count)
    g_string_append (w->out, "\tcount := int32(0)\n");
  g_string_append_printf (w->out,
                          "\tpaginator := dynamodb.New%sPaginator(client, input)\n"
                          "\tfor paginator.HasMorePages() {\n"
                          "\t\tpage, err := paginator.NextPage(ctx)\n"
                          "\t\tif err != nil {\n"
                          "\t\t\tlog.Fatal(err)\n"
                          "\t\t}\n"
                          "\t\tfor _, item := range page.Items {\n"
                          "\t\t\tprintItem(item)\n"
                          "\t\t}\n", dyno_codegen_operation_pascal (w->request->operation));
  if (count)
    g_string_append (w->out, "\t\tcount += page.Count\n");
  g_string_append (w->out, "\t}\n");
  if (count)
    g_string_append (w->out, "\tfmt.Println(\"Count:\", count)\n");
}

static void
go_call (DynoCodegenWriter *w)
{
  g_string_append_printf (w->out,
                          "\toutput, err := client.%s(ctx, input)\n"
                          "\tif err != nil {\n"
                          "\t\tlog.Fatal(err)\n"
                          "\t}\n", dyno_codegen_operation_pascal (w->request->operation));
  if (w->request->operation == DYNO_OP_GET_ITEM)
    g_string_append (w->out, "\tif output.Item != nil {\n"
                             "\t\tprintItem(output.Item)\n"
                             "\t}\n");
  else
    g_string_append (w->out, "\tif len(output.Attributes) > 0 {\n"
                             "\t\tprintItem(output.Attributes)\n"
                             "\t}\n");
}

static void
go_snippet (DynoCodegenWriter *w)
{
  g_string_append (w->out, "input := ");
  go_input (w, 0);
  g_string_append_printf (w->out,
                          "\n"
                          "output, err := client.%s(context.TODO(), input)\n"
                          "if err != nil {\n"
                          "\tlog.Fatal(err)\n"
                          "}\n",
                          dyno_codegen_operation_pascal (w->request->operation));
}

const DynoCodegenLang dyno_codegen_lang_go_v2 = {
  .order = DYNO_CODEGEN_ORDER_REQUEST_JSON,
  .comment = "// ",
  .value = {
    .text = go_text,
    .bytes = go_bytes,
    .true_word = "true",
    .false_word = "false",
    .null_word = "true",
    .open = {
      [DYNO_VALUE_S] = "&types.AttributeValueMemberS{Value: ",
      [DYNO_VALUE_N] = "&types.AttributeValueMemberN{Value: ",
      [DYNO_VALUE_B] = "&types.AttributeValueMemberB{Value: ",
      [DYNO_VALUE_BOOL] = "&types.AttributeValueMemberBOOL{Value: ",
      [DYNO_VALUE_NULL] = "&types.AttributeValueMemberNULL{Value: ",
      [DYNO_VALUE_M] = "&types.AttributeValueMemberM{Value: ",
      [DYNO_VALUE_L] = "&types.AttributeValueMemberL{Value: []types.AttributeValue{",
      [DYNO_VALUE_SS] = "&types.AttributeValueMemberSS{Value: []string{",
      [DYNO_VALUE_NS] = "&types.AttributeValueMemberNS{Value: []string{",
      [DYNO_VALUE_BS] = "&types.AttributeValueMemberBS{Value: [][]byte{",
    },
    .close = {
      [DYNO_VALUE_S] = "}", [DYNO_VALUE_N] = "}", [DYNO_VALUE_B] = "}", [DYNO_VALUE_BOOL] = "}",
      [DYNO_VALUE_NULL] = "}", [DYNO_VALUE_M] = "}", [DYNO_VALUE_L] = "}}",
      [DYNO_VALUE_SS] = "}}", [DYNO_VALUE_NS] = "}}", [DYNO_VALUE_BS] = "}}",
    },
    .map = go_map,
    .list = go_list,
  },
  .member = {
    .string = go_member_string,
    .enumeration = go_member_enum,
    .integer = go_member_integer,
    .boolean = go_member_boolean,
    .map = go_member_map,
  },
  .snippet = go_snippet,
  .program = go_program,
  .loop = go_loop,
  .call = go_call,
};
