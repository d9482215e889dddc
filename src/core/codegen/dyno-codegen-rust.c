/* dyno-codegen-rust.c: a request as AWS SDK for Rust (aws-sdk-dynamodb) code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dyno-codegen-private.h"

#include <string.h>

/* The fluent builder: one call per member, and one call per map entry
 * (.expression_attribute_values(":pk", …), .key("pk", …)), as the crate's setters append.
 * Layout follows rustfmt: a chain of one call per line, four spaces deeper.  Values own
 * their strings ("…".to_string()); the setters take &str. */

static void
rust_text (DynoCodegenWriter *w,
           const char        *text,
           gsize              len)
{
  dyno_codegen_append_c_string_len (w->out, text, len, DYNO_C_STRING_RUST);
}

static void
rust_member_string (DynoCodegenWriter *w,
                    const char        *text)
{
  rust_text (w, text, strlen (text));
}

static void
rust_owned_text (DynoCodegenWriter *w,
                 const char        *text,
                 gsize              len)
{
  rust_text (w, text, len);
  g_string_append (w->out, ".to_string()");
}

static void
rust_blob (DynoCodegenWriter *w,
           const guint8      *data,
           gsize              len)
{
  g_string_append (w->out, "Blob::new(b\"");
  dyno_codegen_append_byte_escapes (w->out, data, len, FALSE);
  g_string_append (w->out, "\".to_vec())");
}

static void
rust_map (DynoCodegenWriter *w,
          const DynoValue   *map,
          guint              indent)
{
  DynoCodegenPairs pairs = dyno_codegen_pairs_of_map (map);
  guint n = dyno_codegen_pairs_get_n (&pairs);

  if (n == 0)
    {
      g_string_append (w->out, "HashMap::new()");
      return;
    }
  g_string_append (w->out, "HashMap::from([\n");
  for (guint i = 0; i < n; i++)
    {
      dyno_codegen_append_indent (w->out, indent + 4);
      g_string_append_c (w->out, '(');
      dyno_codegen_write_pair_key (w, &pairs, i);
      g_string_append (w->out, ", ");
      dyno_codegen_write_pair_value (w, &pairs, i, indent + 4);
      g_string_append (w->out, "),\n");
    }
  dyno_codegen_append_indent (w->out, indent);
  g_string_append (w->out, "])");
}

static void
rust_list (DynoCodegenWriter *w,
           const DynoValue   *list,
           guint              indent)
{
  if (dyno_value_get_n_children (list) == 0)
    {
      g_string_append (w->out, "vec![]");
      return;
    }
  g_string_append (w->out, "vec![\n");
  dyno_codegen_write_list_lines (w, list, indent + 4);
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_c (w->out, ']');
}

static void
rust_member_begin (DynoCodegenWriter       *w,
                   const DynoCodegenMember *m,
                   guint                    indent)
{
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_c (w->out, '.');
  dyno_codegen_append_snake (w->out, m->name, '_');
  g_string_append_c (w->out, '(');
}

static void
rust_member_enum (DynoCodegenWriter       *w,
                  const DynoCodegenMember *m)
{
  g_string_append_printf (w->out, "%s::", m->enum_type);
  dyno_codegen_append_pascal (w->out, m->string);
}

typedef struct {
  const DynoCodegenPairs *pairs;
  guint                   i;
  guint                   indent;
} RustPair;

/* A name is a &str like the key; a value is written as a value. */
static void
rust_pair_value (DynoCodegenWriter *w,
                 gpointer           data)
{
  RustPair *pair = data;

  if (pair->pairs->kind == DYNO_CODEGEN_PAIRS_NAMES)
    rust_member_string (w, dyno_codegen_pairs_get_name (pair->pairs, pair->i));
  else
    dyno_codegen_write_pair_value (w, pair->pairs, pair->i, pair->indent);
}

/* `.setter(key, value)` a pair, each on its own line at @indent; a value spanning lines gets
 * rustfmt's one-argument-per-line layout. */
static void
rust_member_map (DynoCodegenWriter       *w,
                 const DynoCodegenMember *m,
                 guint                    indent)
{
  g_autoptr(GString) setter = g_string_new (NULL);

  dyno_codegen_append_snake (setter, m->name, '_');
  for (guint i = 0; i < dyno_codegen_pairs_get_n (&m->pairs); i++)
    {
      RustPair pair = { &m->pairs, i, indent + 4 };
      g_autoptr(GString) rendered = dyno_codegen_write_aside (w, rust_pair_value, &pair);
      gsize key_len;
      const char *key = dyno_codegen_pairs_get_key (&m->pairs, i, &key_len);

      dyno_codegen_append_indent (w->out, indent);
      g_string_append_printf (w->out, ".%s(", setter->str);
      if (strchr (rendered->str, '\n') == NULL)
        {
          rust_text (w, key, key_len);
          g_string_append (w->out, ", ");
          g_string_append (w->out, rendered->str);
          g_string_append (w->out, ")\n");
          continue;
        }
      g_string_append_c (w->out, '\n');
      dyno_codegen_append_indent (w->out, indent + 4);
      rust_text (w, key, key_len);
      g_string_append (w->out, ",\n");
      dyno_codegen_append_indent (w->out, indent + 4);
      g_string_append (w->out, rendered->str);
      g_string_append (w->out, ",\n");
      dyno_codegen_append_indent (w->out, indent);
      g_string_append (w->out, ")\n");
    }
}

/* `client\n    .query()\n    …` up to (not including) the final .send(), chain at @indent. */
static void
rust_builder (DynoCodegenWriter *w,
              guint              indent)
{
  g_string_append (w->out, "client\n");
  dyno_codegen_append_indent (w->out, indent);
  g_string_append_printf (w->out, ".%s()\n", dyno_codegen_operation_snake (w->request->operation));
  dyno_codegen_write_members (w, indent);
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

/* After the builder: page through it, or send it once. */
static void
rust_loop (DynoCodegenWriter *w,
           gboolean           count)
{
  if (count)
    g_string_append (w->out, "        .into_paginator()\n"
                             "        .send();\n"
                             "    while let Some(page) = pages.next().await {\n"
                             "        count += page?.count();\n"
                             "    }\n"
                             "    println!(\"Count: {}\", count);\n");
  else
    g_string_append (w->out, "        .into_paginator()\n"
                             "        .items()\n"
                             "        .send();\n"
                             "    while let Some(item) = items.next().await {\n"
                             "        println!(\"{:?}\", item?);\n"
                             "    }\n");
}

static void
rust_call (DynoCodegenWriter *w)
{
  const char *member = w->request->operation == DYNO_OP_GET_ITEM ? "item" : "attributes";

  g_string_append_printf (w->out,
                          "        .send()\n"
                          "        .await?;\n"
                          "    if let Some(%s) = response.%s() {\n"
                          "        println!(\"{:?}\", %s);\n"
                          "    }\n",
                          member, member, member);
}

static void
rust_body (DynoCodegenWriter *w,
           gpointer           data)
{
  const DynoCodegenOptions *options = w->options;
  DynoOperation op = w->request->operation;
  gboolean paginated = dyno_codegen_operation_is_paged (op);
  gboolean count = paginated && w->request->select == DYNO_SELECT_COUNT;
  GString *body = w->out;

  g_string_append (body, "#[tokio::main]\n"
                         "async fn main() -> Result<(), Error> {\n"
                         "    let config ="
                         " aws_config::defaults(aws_config::BehaviorVersion::latest())\n");
  if (options->region != NULL)
    {
      g_string_append (body, "        .region(Region::new(");
      rust_text (w, options->region, strlen (options->region));
      g_string_append (body, "))\n");
    }
  if (options->profile != NULL)
    {
      g_string_append (body, "        .profile_name(");
      rust_text (w, options->profile, strlen (options->profile));
      g_string_append (body, ")\n");
    }
  if (options->endpoint_url != NULL)
    {
      g_string_append (body, "        .endpoint_url(");
      rust_text (w, options->endpoint_url, strlen (options->endpoint_url));
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
  rust_builder (w, 8);
  dyno_codegen_write_ending (w);
  g_string_append (body, "    Ok(())\n"
                         "}\n");
}

/* The uses are those the body needs. */
static void
rust_program (DynoCodegenWriter *w)
{
  g_autoptr(GString) body = dyno_codegen_write_aside (w, rust_body, NULL);

  rust_append_uses (w->out, body->str);
  g_string_append (w->out, body->str);
}

static void
rust_snippet (DynoCodegenWriter *w)
{
  g_string_append (w->out, "let response = ");
  rust_builder (w, 4);
  g_string_append (w->out, "    .send()\n"
                           "    .await?;\n");
}

const DynoCodegenLang dyno_codegen_lang_rust = {
  .order = DYNO_CODEGEN_ORDER_REQUEST_JSON,
  .comment = "// ",
  .value = {
    .text = rust_owned_text,
    .bytes = rust_blob,
    .true_word = "true",
    .false_word = "false",
    .null_word = "true",
    .open = {
      [DYNO_VALUE_S] = "AttributeValue::S(", [DYNO_VALUE_N] = "AttributeValue::N(",
      [DYNO_VALUE_B] = "AttributeValue::B(", [DYNO_VALUE_BOOL] = "AttributeValue::Bool(",
      [DYNO_VALUE_NULL] = "AttributeValue::Null(", [DYNO_VALUE_M] = "AttributeValue::M(",
      [DYNO_VALUE_L] = "AttributeValue::L(", [DYNO_VALUE_SS] = "AttributeValue::Ss(vec![",
      [DYNO_VALUE_NS] = "AttributeValue::Ns(vec![", [DYNO_VALUE_BS] = "AttributeValue::Bs(vec![",
    },
    .close = {
      [DYNO_VALUE_S] = ")", [DYNO_VALUE_N] = ")", [DYNO_VALUE_B] = ")", [DYNO_VALUE_BOOL] = ")",
      [DYNO_VALUE_NULL] = ")", [DYNO_VALUE_M] = ")", [DYNO_VALUE_L] = ")",
      [DYNO_VALUE_SS] = "])", [DYNO_VALUE_NS] = "])", [DYNO_VALUE_BS] = "])",
    },
    .map = rust_map,
    .list = rust_list,
  },
  .member = {
    .begin = rust_member_begin,
    .end = ")\n",
    .string = rust_member_string,
    .enumeration = rust_member_enum,
    .map = rust_member_map,
    .map_lines = TRUE,
  },
  .snippet = rust_snippet,
  .program = rust_program,
  .loop = rust_loop,
  .call = rust_call,
};
