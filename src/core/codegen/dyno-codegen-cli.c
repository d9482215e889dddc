/* dyno-codegen-cli.c: the request as an AWS CLI v2 command, or a bash script that pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-private.h"

#include "dyno-json.h"

/* Every value reaches the CLI inside JSON (DynamoDB JSON, shell-quoted), so this target has
 * no literals of its own beyond shell words. */

/* The AWS CLI takes blobs as base64 by default, but a profile may say
 * cli_binary_format = raw-in-base64-out: when the request holds binary values the command
 * says which it means. */
static gboolean
value_has_binary (const DynoValue *value)
{
  DynoValueType type = dyno_value_get_kind (value);

  if (type == DYNO_VALUE_B || type == DYNO_VALUE_BS)
    return TRUE;
  if (type == DYNO_VALUE_M || type == DYNO_VALUE_L)
    for (guint i = 0; i < dyno_value_get_n_children (value); i++)
      if (value_has_binary (dyno_value_get_child (value, i)))
        return TRUE;
  return FALSE;
}

static gboolean
request_has_binary (DynoCodegenWriter *w)
{
  g_autoptr(GArray) members = dyno_codegen_collect_members (w->request, w->printed,
                                                            w->lang->order);

  for (guint i = 0; i < members->len; i++)
    {
      const DynoCodegenMember *m = &g_array_index (members, DynoCodegenMember, i);

      if (m->kind != DYNO_CODEGEN_MEMBER_ITEM && m->kind != DYNO_CODEGEN_MEMBER_VALUES)
        continue;
      for (guint j = 0; j < dyno_codegen_pairs_get_n (&m->pairs); j++)
        if (value_has_binary (dyno_codegen_pairs_get_value (&m->pairs, j)))
          return TRUE;
    }
  return FALSE;
}

static void
cli_text (DynoCodegenWriter *w,
          const char        *text,
          gsize              len)
{
  dyno_codegen_append_quoted_len (w->out, text, len, DYNO_QUOTE_SHELL);
}

static void
cli_string (DynoCodegenWriter *w,
            const char        *text)
{
  dyno_codegen_append_quoted (w->out, text, DYNO_QUOTE_SHELL);
}

/* Table and index names are [A-Za-z0-9_.-]: safe as bare words.  Anything else is quoted. */
static void
append_word (GString    *out,
             const char *text)
{
  gboolean plain = text[0] != '\0';

  for (const char *p = text; *p && plain; p++)
    plain = g_ascii_isalnum (*p) || *p == '_' || *p == '.' || *p == '-' || *p == '/' ||
            *p == ':' || *p == '=' || *p == '+' || *p == ',' || *p == '@';
  if (plain)
    g_string_append (out, text);
  else
    dyno_codegen_append_quoted (out, text, DYNO_QUOTE_SHELL);
}

static void
append_continuation (GString *out,
                     guint    indent)
{
  g_string_append (out, " \\\n");
  dyno_codegen_append_indent (out, indent);
}

/* "KeyConditionExpression" -> "--key-condition-expression" */
static void
cli_member_begin (DynoCodegenWriter       *w,
                  const DynoCodegenMember *m,
                  guint                    indent)
{
  append_continuation (w->out, indent);
  g_string_append (w->out, "--");
  dyno_codegen_append_snake (w->out, m->name, '-');
  g_string_append_c (w->out, ' ');
}

static void
cli_member_enum (DynoCodegenWriter       *w,
                 const DynoCodegenMember *m)
{
  g_string_append (w->out, m->string);
}

/* The maps as one line of (DynamoDB) JSON, shell-quoted. */
static void
cli_member_map (DynoCodegenWriter       *w,
                const DynoCodegenMember *m,
                guint                    indent)
{
  g_autoptr(GString) json = g_string_new (NULL);
  const DynoCodegenPairs *pairs = &m->pairs;

  if (m->kind == DYNO_CODEGEN_MEMBER_ITEM)
    {
      dyno_map_write_ddb_item (pairs->map, json);
    }
  else
    {
      g_string_append_c (json, '{');
      for (guint i = 0; i < dyno_codegen_pairs_get_n (pairs); i++)
        {
          if (i > 0)
            g_string_append_c (json, ',');
          dyno_json_write_string (json, dyno_codegen_pairs_get_key (pairs, i, NULL), -1);
          g_string_append_c (json, ':');
          if (m->kind == DYNO_CODEGEN_MEMBER_NAMES)
            dyno_json_write_string (json, dyno_codegen_pairs_get_name (pairs, i), -1);
          else
            dyno_value_write_ddb_json (dyno_codegen_pairs_get_value (pairs, i), json);
        }
      g_string_append_c (json, '}');
    }
  dyno_codegen_append_quoted (w->out, json->str, DYNO_QUOTE_SHELL);
}

/* w->data: the program's loop passes ExclusiveStartKey itself.  Names are bare words;
 * a flag is --name or --no-name. */
static gboolean
cli_member_write (DynoCodegenWriter       *w,
                  const DynoCodegenMember *m,
                  guint                    indent)
{
  if (w->data != NULL && g_str_equal (m->name, "ExclusiveStartKey"))
    return TRUE;
  if (g_str_equal (m->name, "TableName") || g_str_equal (m->name, "IndexName"))
    {
      cli_member_begin (w, m, indent);
      append_word (w->out, m->string);
      return TRUE;
    }
  if (m->kind == DYNO_CODEGEN_MEMBER_BOOLEAN)
    {
      append_continuation (w->out, indent);
      g_string_append (w->out, m->boolean ? "--" : "--no-");
      dyno_codegen_append_snake (w->out, m->name, '-');
      return TRUE;
    }
  return FALSE;
}

/* The command's arguments after "aws dynamodb <op>", each on its own continued line.
 * @skip_start_key leaves ExclusiveStartKey to the program's loop. */
static void
append_arguments (DynoCodegenWriter *w,
                  guint              indent,
                  gboolean           skip_start_key)
{
  const DynoCodegenOptions *options = w->options;
  GString *out = w->out;

  w->data = skip_start_key ? (gpointer) "skip" : NULL;
  dyno_codegen_write_members (w, indent);
  w->data = NULL;

  if (request_has_binary (w))
    {
      append_continuation (out, indent);
      g_string_append (out, "--cli-binary-format base64");
    }
  if (options->endpoint_url != NULL)
    {
      append_continuation (out, indent);
      g_string_append (out, "--endpoint-url ");
      append_word (out, options->endpoint_url);
    }
  if (options->region != NULL)
    {
      append_continuation (out, indent);
      g_string_append (out, "--region ");
      append_word (out, options->region);
    }
  if (options->profile != NULL)
    {
      append_continuation (out, indent);
      g_string_append (out, "--profile ");
      append_word (out, options->profile);
    }
}

static void
cli_snippet (DynoCodegenWriter *w)
{
  g_string_append (w->out, "aws dynamodb ");
  g_string_append (w->out, dyno_codegen_operation_kebab (w->request->operation));
  append_arguments (w, 4, FALSE);
  g_string_append_c (w->out, '\n');
}

/* Pages as the CLI's own --query prints them: the page's items (one JSON text per line)
 * and, on the last line, the next start key or "null" (no jq or other tool needed). */
static void
cli_loop (DynoCodegenWriter *w,
          gboolean           count)
{
  GString *out = w->out;

  dyno_codegen_write_comment (w, "Prints every item as one line of DynamoDB JSON, page by page: each call returns");
  dyno_codegen_write_comment (w, "its items and LastEvaluatedKey, which starts the next page.");
  g_string_append (out, "set -euo pipefail\n"
                        "\n");
  if (w->request->exclusive_start_key != NULL)
    {
      g_autoptr(GString) json = g_string_new (NULL);

      dyno_map_write_ddb_item (dyno_item_get_map (w->request->exclusive_start_key), json);
      g_string_append (out, "start_key=");
      dyno_codegen_append_quoted (out, json->str, DYNO_QUOTE_SHELL);
      g_string_append_c (out, '\n');
    }
  else
    g_string_append (out, "start_key=\n");
  g_string_append (out, "while :; do\n");
  g_string_append_printf (out, "  page=$(aws dynamodb %s",
                          dyno_codegen_operation_kebab (w->request->operation));
  append_arguments (w, 4, TRUE);
  append_continuation (out, 4);
  g_string_append (out, "${start_key:+--exclusive-start-key \"$start_key\"}");
  append_continuation (out, 4);
  g_string_append (out, "--no-paginate --output text");
  append_continuation (out, 4);
  g_string_append (out,
                   "--query 'join(`\"\\n\"`, [Items[].to_string(@), "
                   "[to_string(LastEvaluatedKey)]][])')\n"
                   "  mapfile -t lines <<< \"$page\"\n"
                   "  count=${#lines[@]}\n"
                   "  if (( count > 1 )); then\n"
                   "    printf '%s\\n' \"${lines[@]:0:count-1}\"\n"
                   "  fi\n"
                   "  start_key=${lines[count-1]}\n"
                   "  if [[ $start_key == null ]]; then\n"
                   "    break\n"
                   "  fi\n"
                   "done\n");
}

static void
cli_call (DynoCodegenWriter *w)
{
  GString *out = w->out;
  DynoOperation op = w->request->operation;

  if (op == DYNO_OP_GET_ITEM)
    dyno_codegen_write_comment (w, "Prints the item as one line of DynamoDB JSON (nothing when there is none).");
  else
    dyno_codegen_write_comment (w, "Prints the attributes ReturnValues asks for as one line of DynamoDB JSON.");
  g_string_append (out, "set -euo pipefail\n\n");
  g_string_append_printf (out, "result=$(aws dynamodb %s", dyno_codegen_operation_kebab (op));
  append_arguments (w, 4, FALSE);
  append_continuation (out, 4);
  g_string_append_printf (out, "--output text --query 'to_string(%s)')\n",
                          dyno_codegen_result_member (op));
  g_string_append (out,
                   "if [[ $result != null ]]; then\n"
                   "  printf '%s\\n' \"$result\"\n"
                   "fi\n");
}

static void
cli_program (DynoCodegenWriter *w)
{
  g_autofree char *what = dyno_codegen_describe (w->request);
  g_autofree char *title = g_strdup_printf ("%s, generated by DynoTable.", what);

  g_string_append (w->out, "#!/usr/bin/env bash\n");
  dyno_codegen_write_comment (w, title);
  dyno_codegen_write_ending (w);
}

const DynoCodegenLang dyno_codegen_lang_cli = {
  .order = DYNO_CODEGEN_ORDER_API,
  .comment = "# ",
  .value = {
    .text = cli_text,
  },
  .member = {
    .begin = cli_member_begin,
    .end = "",
    .string = cli_string,
    .enumeration = cli_member_enum,
    .map = cli_member_map,
    .write = cli_member_write,
  },
  .snippet = cli_snippet,
  .program = cli_program,
  .loop = cli_loop,
  .call = cli_call,
};
