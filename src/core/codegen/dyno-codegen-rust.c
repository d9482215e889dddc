/* dyno-codegen-rust.c: a request as AWS SDK for Rust (aws-sdk-dynamodb) code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-b-private.h"

/* The fluent builder: one call per member, and one call per map entry
 * (.expression_attribute_values(":pk", …), .key("pk", …)), as the crate's setters append.
 * Layout follows rustfmt: a chain of one call per line, four spaces deeper. */

static void rust_append_value (GString         *out,
                               const DynoValue *value,
                               guint            indent);

static void
rust_append_string (GString    *out,
                    const char *text,
                    gsize       len)
{
  dyno_cgb_append_c_string_len (out, text, len, DYNO_CGB_LANG_RUST);
}

static void
rust_append_owned_string (GString    *out,
                          const char *text,
                          gsize       len)
{
  rust_append_string (out, text, len);
  g_string_append (out, ".to_string()");
}

static void
rust_append_blob (GString      *out,
                  const guint8 *data,
                  gsize         len)
{
  g_string_append (out, "Blob::new(b\"");
  dyno_cgb_append_byte_escapes (out, data, len, FALSE);
  g_string_append (out, "\".to_vec())");
}

static void
rust_append_value (GString         *out,
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

        g_string_append (out, kind == DYNO_VALUE_S ? "AttributeValue::S(" : "AttributeValue::N(");
        rust_append_owned_string (out, text, len);
        g_string_append_c (out, ')');
      }
      break;
    case DYNO_VALUE_B:
      {
        const guint8 *data = dyno_value_get_binary (value, &len);

        g_string_append (out, "AttributeValue::B(");
        rust_append_blob (out, data, len);
        g_string_append_c (out, ')');
      }
      break;
    case DYNO_VALUE_BOOL:
      g_string_append_printf (out, "AttributeValue::Bool(%s)",
                              dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, "AttributeValue::Null(true)");
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      g_string_append_printf (out, "AttributeValue::%s(vec![",
                              kind == DYNO_VALUE_SS ? "Ss" : kind == DYNO_VALUE_NS ? "Ns" : "Bs");
      dyno_cgb_append_set_members (out, value, rust_append_owned_string, rust_append_blob);
      g_string_append (out, "])");
      break;
    case DYNO_VALUE_M:
      if (n == 0)
        {
          g_string_append (out, "AttributeValue::M(HashMap::new())");
          break;
        }
      g_string_append (out, "AttributeValue::M(HashMap::from([\n");
      for (guint i = 0; i < n; i++)
        {
          const char *name = dyno_value_get_member_name (value, i, &len);

          dyno_cgb_indent (out, indent + 4, 1);
          g_string_append_c (out, '(');
          rust_append_owned_string (out, name, len);
          g_string_append (out, ", ");
          rust_append_value (out, dyno_value_get_child (value, i), indent + 4);
          g_string_append (out, "),\n");
        }
      dyno_cgb_indent (out, indent, 1);
      g_string_append (out, "]))");
      break;
    case DYNO_VALUE_L:
      if (n == 0)
        {
          g_string_append (out, "AttributeValue::L(vec![])");
          break;
        }
      g_string_append (out, "AttributeValue::L(vec![\n");
      dyno_cgb_append_list_items (out, value, indent + 4, rust_append_value);
      dyno_cgb_indent (out, indent, 1);
      g_string_append (out, "])");
      break;
    default:
      g_assert_not_reached ();
    }
}

/* `.setter(key, value)` on its own line at @indent; a value spanning lines gets rustfmt's
 * one-argument-per-line layout. */
static void
rust_append_entry_call (GString         *out,
                        const char      *setter,
                        const char      *key,
                        gsize            key_len,
                        const DynoValue *value,
                        const char      *text_value,
                        guint            indent)
{
  g_autoptr(GString) rendered = g_string_new (NULL);

  if (value != NULL)
    rust_append_value (rendered, value, indent + 4);
  else
    rust_append_string (rendered, text_value, strlen (text_value));

  dyno_cgb_indent (out, indent, 1);
  g_string_append_printf (out, ".%s(", setter);
  if (strchr (rendered->str, '\n') == NULL)
    {
      rust_append_string (out, key, key_len);
      g_string_append (out, ", ");
      g_string_append (out, rendered->str);
      g_string_append (out, ")\n");
      return;
    }
  g_string_append_c (out, '\n');
  dyno_cgb_indent (out, indent + 4, 1);
  rust_append_string (out, key, key_len);
  g_string_append (out, ",\n");
  dyno_cgb_indent (out, indent + 4, 1);
  g_string_append (out, rendered->str);
  g_string_append (out, ",\n");
  dyno_cgb_indent (out, indent, 1);
  g_string_append (out, ")\n");
}

/* `client\n    .query()\n    …` up to (not including) the final .send(), chain at @indent. */
static void
rust_append_builder (GString                  *out,
                     const DynoRequest        *request,
                     const DynoPrintedRequest *printed,
                     guint                     indent)
{
  g_autoptr(GArray) fields = dyno_cgb_collect_fields (request, printed);
  g_autoptr(GString) setter = g_string_new (NULL);

  g_string_append (out, "client\n");
  dyno_cgb_indent (out, indent, 1);
  g_string_append_printf (out, ".%s()\n", dyno_cgb_operation_snake (request->operation));
  for (guint i = 0; i < fields->len; i++)
    {
      DynoCgbField *field = &g_array_index (fields, DynoCgbField, i);

      g_string_truncate (setter, 0);
      dyno_cgb_append_snake (setter, field->api_name);
      switch (field->kind)
        {
        case DYNO_CGB_STRING:
          dyno_cgb_indent (out, indent, 1);
          g_string_append_printf (out, ".%s(", setter->str);
          rust_append_string (out, field->text, strlen (field->text));
          g_string_append (out, ")\n");
          break;
        case DYNO_CGB_INT:
          dyno_cgb_indent (out, indent, 1);
          g_string_append_printf (out, ".%s(%" G_GINT64_FORMAT ")\n", setter->str, field->number);
          break;
        case DYNO_CGB_BOOL:
          dyno_cgb_indent (out, indent, 1);
          g_string_append_printf (out, ".%s(%s)\n", setter->str, field->flag ? "true" : "false");
          break;
        case DYNO_CGB_ENUM:
          dyno_cgb_indent (out, indent, 1);
          g_string_append_printf (out, ".%s(%s::", setter->str, field->enum_type);
          dyno_cgb_append_pascal (out, field->text);
          g_string_append (out, ")\n");
          break;
        case DYNO_CGB_NAMES:
          for (guint j = 0; j < printed->name_placeholders->len; j++)
            {
              const char *placeholder = g_ptr_array_index (printed->name_placeholders, j);

              rust_append_entry_call (out, setter->str, placeholder, strlen (placeholder), NULL,
                                      g_ptr_array_index (printed->names, j), indent);
            }
          break;
        case DYNO_CGB_VALUES:
          for (guint j = 0; j < printed->value_placeholders->len; j++)
            {
              const char *placeholder = g_ptr_array_index (printed->value_placeholders, j);

              rust_append_entry_call (out, setter->str, placeholder, strlen (placeholder),
                                      g_ptr_array_index (printed->values, j), NULL, indent);
            }
          break;
        case DYNO_CGB_ITEM:
          for (guint j = 0; j < dyno_value_get_n_children (field->map); j++)
            {
              gsize len;
              const char *name = dyno_value_get_member_name (field->map, j, &len);

              rust_append_entry_call (out, setter->str, name, len,
                                      dyno_value_get_child (field->map, j), NULL, indent);
            }
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

static void
rust_append_uses (GString    *out,
                  const char *body)
{
  const char *types[] = { "AttributeValue", "ReturnConsumedCapacity", "ReturnValue", "Select" };
  g_autoptr(GString) list = g_string_new (NULL);
  guint n = 0;

  if (strstr (body, "HashMap::") != NULL)
    g_string_append (out, "use std::collections::HashMap;\n\n");
  if (strstr (body, "Region::") != NULL)
    g_string_append (out, "use aws_sdk_dynamodb::config::Region;\n");
  if (strstr (body, "Blob::") != NULL)
    g_string_append (out, "use aws_sdk_dynamodb::primitives::Blob;\n");
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_autofree char *use = g_strdup_printf ("%s::", types[i]);

      if (strstr (body, use) == NULL)
        continue;
      if (n++ > 0)
        g_string_append (list, ", ");
      g_string_append (list, types[i]);
    }
  if (n == 1)
    g_string_append_printf (out, "use aws_sdk_dynamodb::types::%s;\n", list->str);
  else if (n > 1)
    g_string_append_printf (out, "use aws_sdk_dynamodb::types::{%s};\n", list->str);
  g_string_append (out, "use aws_sdk_dynamodb::{Client, Error};\n\n");
}

static void
rust_append_program (GString                  *out,
                     const DynoRequest        *request,
                     const DynoPrintedRequest *printed,
                     const DynoCodegenOptions *options)
{
  g_autoptr(GString) body = g_string_new (NULL);
  gboolean paginated = request->operation == DYNO_OP_QUERY ||
                       request->operation == DYNO_OP_SCAN;
  gboolean count = paginated && request->select == DYNO_SELECT_COUNT;

  g_string_append (body, "#[tokio::main]\n"
                         "async fn main() -> Result<(), Error> {\n"
                         "    let config ="
                         " aws_config::defaults(aws_config::BehaviorVersion::latest())\n");
  if (options->region != NULL)
    {
      g_string_append (body, "        .region(Region::new(");
      rust_append_string (body, options->region, strlen (options->region));
      g_string_append (body, "))\n");
    }
  if (options->profile != NULL)
    {
      g_string_append (body, "        .profile_name(");
      rust_append_string (body, options->profile, strlen (options->profile));
      g_string_append (body, ")\n");
    }
  if (options->endpoint_url != NULL)
    {
      g_string_append (body, "        .endpoint_url(");
      rust_append_string (body, options->endpoint_url, strlen (options->endpoint_url));
      g_string_append (body, ")\n");
    }
  g_string_append (body, "        .load()\n"
                         "        .await;\n"
                         "    let client = Client::new(&config);\n"
                         "\n");
  if (count)
    g_string_append (body, "    let mut count = 0;\n"
                           "    let mut pages = ");
  else if (paginated)
    g_string_append (body, "    let mut items = ");
  else
    g_string_append (body, "    let response = ");
  rust_append_builder (body, request, printed, 8);
  if (count)
    g_string_append (body, "        .into_paginator()\n"
                           "        .send();\n"
                           "    while let Some(page) = pages.next().await {\n"
                           "        count += page?.count();\n"
                           "    }\n"
                           "    println!(\"Count: {}\", count);\n");
  else if (paginated)
    g_string_append (body, "        .into_paginator()\n"
                           "        .items()\n"
                           "        .send();\n"
                           "    while let Some(item) = items.next().await {\n"
                           "        println!(\"{:?}\", item?);\n"
                           "    }\n");
  else
    g_string_append_printf (body,
                            "        .send()\n"
                            "        .await?;\n"
                            "    if let Some(%s) = response.%s() {\n"
                            "        println!(\"{:?}\", %s);\n"
                            "    }\n",
                            request->operation == DYNO_OP_GET_ITEM ? "item" : "attributes",
                            request->operation == DYNO_OP_GET_ITEM ? "item" : "attributes",
                            request->operation == DYNO_OP_GET_ITEM ? "item" : "attributes");
  g_string_append (body, "    Ok(())\n"
                         "}\n");

  rust_append_uses (out, body->str);
  g_string_append (out, body->str);
}

char *
dyno_codegen_emit_rust (const DynoRequest        *request,
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
      rust_append_program (out, request, printed, options);
    }
  else
    {
      g_string_append (out, "let response = ");
      rust_append_builder (out, request, printed, 4);
      g_string_append (out, "    .send()\n"
                            "    .await?;\n");
    }
  return g_string_free (out, FALSE);
}
