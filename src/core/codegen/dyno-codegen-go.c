/* dyno-codegen-go.c: a request as AWS SDK for Go v2 code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "dyno-codegen-b-private.h"

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

  dyno_cgb_append_c_string_len (out, text, len, DYNO_CGB_LANG_GO);
  return g_string_free (out, FALSE);
}

static void
go_append_bytes (GString      *out,
                 const guint8 *data,
                 gsize         len)
{
  g_string_append (out, "[]byte(\"");
  dyno_cgb_append_byte_escapes (out, data, len, FALSE);
  g_string_append (out, "\")");
}

static void go_append_value (GString         *out,
                             const DynoValue *value,
                             guint            depth);

/* The members of an M value as a map[string]types.AttributeValue literal whose closing brace
 * is at @depth. */
static void
go_append_attribute_map (GString         *out,
                         const DynoValue *map,
                         guint            depth)
{
  guint n = dyno_value_get_n_children (map);
  g_autoptr(GPtrArray) elements = go_elements_new ();

  g_string_append (out, "map[string]types.AttributeValue{");
  if (n == 0)
    {
      g_string_append_c (out, '}');
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      gsize len;
      const char *name = dyno_value_get_member_name (map, i, &len);
      GString *value = g_string_new (NULL);

      go_append_value (value, dyno_value_get_child (map, i), depth + 1);
      go_elements_add (elements, go_string (name, len), g_string_free (value, FALSE));
    }
  g_string_append_c (out, '\n');
  go_write_elements (out, elements, depth + 1);
  go_tabs (out, depth);
  g_string_append_c (out, '}');
}

static void
go_append_value (GString         *out,
                 const DynoValue *value,
                 guint            depth)
{
  gsize len;
  guint n;

  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
      {
        const char *text = dyno_value_get_string (value, &len);

        g_string_append_printf (out, "&types.AttributeValueMember%s{Value: ",
                                dyno_value_get_kind (value) == DYNO_VALUE_S ? "S" : "N");
        dyno_cgb_append_c_string_len (out, text, len, DYNO_CGB_LANG_GO);
        g_string_append_c (out, '}');
      }
      break;
    case DYNO_VALUE_B:
      {
        const guint8 *data = dyno_value_get_binary (value, &len);

        g_string_append (out, "&types.AttributeValueMemberB{Value: ");
        go_append_bytes (out, data, len);
        g_string_append_c (out, '}');
      }
      break;
    case DYNO_VALUE_BOOL:
      g_string_append_printf (out, "&types.AttributeValueMemberBOOL{Value: %s}",
                              dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, "&types.AttributeValueMemberNULL{Value: true}");
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
      g_string_append_printf (out, "&types.AttributeValueMember%s{Value: []string{",
                              dyno_value_type_to_string (dyno_value_get_kind (value)));
      n = dyno_value_get_n_children (value);
      for (guint i = 0; i < n; i++)
        {
          const char *text = dyno_value_get_string (dyno_value_get_child (value, i), &len);

          if (i > 0)
            g_string_append (out, ", ");
          dyno_cgb_append_c_string_len (out, text, len, DYNO_CGB_LANG_GO);
        }
      g_string_append (out, "}}");
      break;
    case DYNO_VALUE_BS:
      g_string_append (out, "&types.AttributeValueMemberBS{Value: [][]byte{");
      n = dyno_value_get_n_children (value);
      for (guint i = 0; i < n; i++)
        {
          const guint8 *data = dyno_value_get_binary (dyno_value_get_child (value, i), &len);

          if (i > 0)
            g_string_append (out, ", ");
          go_append_bytes (out, data, len);
        }
      g_string_append (out, "}}");
      break;
    case DYNO_VALUE_M:
      g_string_append (out, "&types.AttributeValueMemberM{Value: ");
      go_append_attribute_map (out, value, depth);
      g_string_append_c (out, '}');
      break;
    case DYNO_VALUE_L:
      g_string_append (out, "&types.AttributeValueMemberL{Value: []types.AttributeValue{");
      n = dyno_value_get_n_children (value);
      if (n > 0)
        g_string_append_c (out, '\n');
      for (guint i = 0; i < n; i++)
        {
          go_tabs (out, depth + 1);
          go_append_value (out, dyno_value_get_child (value, i), depth + 1);
          g_string_append (out, ",\n");
        }
      if (n > 0)
        go_tabs (out, depth);
      g_string_append (out, "}}");
      break;
    default:
      g_assert_not_reached ();
    }
}

/* The request as `&dynamodb.<Op>Input{…}` whose closing brace is at @depth. */
static void
go_append_input (GString                  *out,
                 const DynoRequest        *request,
                 const DynoPrintedRequest *printed,
                 guint                     depth)
{
  g_autoptr(GArray) fields = dyno_cgb_collect_fields (request, printed);
  g_autoptr(GPtrArray) elements = go_elements_new ();

  for (guint i = 0; i < fields->len; i++)
    {
      DynoCgbField *field = &g_array_index (fields, DynoCgbField, i);
      GString *value = g_string_new (NULL);

      switch (field->kind)
        {
        case DYNO_CGB_STRING:
          g_string_append (value, "aws.String(");
          dyno_cgb_append_c_string (value, field->text, DYNO_CGB_LANG_GO);
          g_string_append_c (value, ')');
          break;
        case DYNO_CGB_INT:
          g_string_append_printf (value, "aws.Int32(%" G_GINT64_FORMAT ")", field->number);
          break;
        case DYNO_CGB_BOOL:
          g_string_append_printf (value, "aws.Bool(%s)", field->flag ? "true" : "false");
          break;
        case DYNO_CGB_ENUM:
          g_string_append_printf (value, "types.%s", field->enum_type);
          dyno_cgb_append_pascal (value, field->text);
          break;
        case DYNO_CGB_NAMES:
          {
            g_autoptr(GPtrArray) names = go_elements_new ();

            for (guint j = 0; j < printed->name_placeholders->len; j++)
              {
                const char *placeholder = g_ptr_array_index (printed->name_placeholders, j);
                const char *name = g_ptr_array_index (printed->names, j);

                go_elements_add (names, go_string (placeholder, strlen (placeholder)),
                                 go_string (name, strlen (name)));
              }
            g_string_append (value, "map[string]string{\n");
            go_write_elements (value, names, depth + 2);
            go_tabs (value, depth + 1);
            g_string_append_c (value, '}');
          }
          break;
        case DYNO_CGB_VALUES:
          {
            g_autoptr(GPtrArray) values = go_elements_new ();

            for (guint j = 0; j < printed->value_placeholders->len; j++)
              {
                const char *placeholder = g_ptr_array_index (printed->value_placeholders, j);
                GString *v = g_string_new (NULL);

                go_append_value (v, g_ptr_array_index (printed->values, j), depth + 2);
                go_elements_add (values, go_string (placeholder, strlen (placeholder)),
                                 g_string_free (v, FALSE));
              }
            g_string_append (value, "map[string]types.AttributeValue{\n");
            go_write_elements (value, values, depth + 2);
            go_tabs (value, depth + 1);
            g_string_append_c (value, '}');
          }
          break;
        case DYNO_CGB_ITEM:
          go_append_attribute_map (value, field->map, depth + 1);
          break;
        default:
          g_assert_not_reached ();
        }
      go_elements_add (elements, g_strdup (field->api_name), g_string_free (value, FALSE));
    }

  g_string_append_printf (out, "&dynamodb.%sInput{\n",
                          dyno_cgb_operation_pascal (request->operation));
  go_write_elements (out, elements, depth + 1);
  go_tabs (out, depth);
  g_string_append_c (out, '}');
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
go_append_program (GString                  *out,
                   const DynoRequest        *request,
                   const DynoPrintedRequest *printed,
                   const DynoCodegenOptions *options)
{
  const char *op = dyno_cgb_operation_pascal (request->operation);
  gboolean paginated = request->operation == DYNO_OP_QUERY ||
                       request->operation == DYNO_OP_SCAN;
  gboolean count = paginated && request->select == DYNO_SELECT_COUNT;

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
      dyno_cgb_append_c_string (out, options->region, DYNO_CGB_LANG_GO);
      g_string_append_c (out, ')');
    }
  if (options->profile != NULL)
    {
      g_string_append (out, ", config.WithSharedConfigProfile(");
      dyno_cgb_append_c_string (out, options->profile, DYNO_CGB_LANG_GO);
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
      dyno_cgb_append_c_string (out, options->endpoint_url, DYNO_CGB_LANG_GO);
      g_string_append (out, ")\n"
                            "\t})\n");
    }
  else
    {
      g_string_append (out, "\tclient := dynamodb.NewFromConfig(cfg)\n");
    }
  g_string_append (out, "\n\tinput := ");
  go_append_input (out, request, printed, 1);
  g_string_append (out, "\n");

  if (paginated)
    {
      if (count)
        g_string_append (out, "\tcount := int32(0)\n");
      g_string_append_printf (out,
                              "\tpaginator := dynamodb.New%sPaginator(client, input)\n"
                              "\tfor paginator.HasMorePages() {\n"
                              "\t\tpage, err := paginator.NextPage(ctx)\n"
                              "\t\tif err != nil {\n"
                              "\t\t\tlog.Fatal(err)\n"
                              "\t\t}\n"
                              "\t\tfor _, item := range page.Items {\n"
                              "\t\t\tprintItem(item)\n"
                              "\t\t}\n", op);
      if (count)
        g_string_append (out, "\t\tcount += page.Count\n");
      g_string_append (out, "\t}\n");
      if (count)
        g_string_append (out, "\tfmt.Println(\"Count:\", count)\n");
    }
  else
    {
      g_string_append_printf (out,
                              "\toutput, err := client.%s(ctx, input)\n"
                              "\tif err != nil {\n"
                              "\t\tlog.Fatal(err)\n"
                              "\t}\n", op);
      if (request->operation == DYNO_OP_GET_ITEM)
        g_string_append (out, "\tif output.Item != nil {\n"
                              "\t\tprintItem(output.Item)\n"
                              "\t}\n");
      else
        g_string_append (out, "\tif len(output.Attributes) > 0 {\n"
                              "\t\tprintItem(output.Attributes)\n"
                              "\t}\n");
    }
  g_string_append (out, "}\n");
  g_string_append (out, go_print_helpers);
}

char *
dyno_codegen_emit_go_v2 (const DynoRequest        *request,
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
      go_append_program (out, request, printed, options);
    }
  else
    {
      g_string_append (out, "input := ");
      go_append_input (out, request, printed, 0);
      g_string_append_printf (out,
                              "\n"
                              "output, err := client.%s(context.TODO(), input)\n"
                              "if err != nil {\n"
                              "\tlog.Fatal(err)\n"
                              "}\n",
                              dyno_cgb_operation_pascal (request->operation));
    }
  return g_string_free (out, FALSE);
}
