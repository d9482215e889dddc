/* dyno-codegen-cli.c: the request as an AWS CLI v2 command, or a bash script that pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-old.h"

#include "dyno-json.h"

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
members_have_binary (GArray                   *members,
                     const DynoPrintedRequest *printed)
{
  for (guint i = 0; i < members->len; i++)
    {
      const DynoCodegenOldMember *m = &g_array_index (members, DynoCodegenOldMember, i);

      if (m->kind == DYNO_CODEGEN_MEMBER_ITEM && value_has_binary (m->map))
        return TRUE;
      if (m->kind == DYNO_CODEGEN_MEMBER_VALUES)
        for (guint j = 0; j < printed->values->len; j++)
          if (value_has_binary (printed->values->pdata[j]))
            return TRUE;
    }
  return FALSE;
}

/* "KeyConditionExpression" -> "--key-condition-expression" */
static void
append_option_name (GString    *out,
                    const char *member)
{
  g_string_append (out, "--");
  for (const char *p = member; *p; p++)
    {
      if (g_ascii_isupper (*p) && p != member)
        g_string_append_c (out, '-');
      g_string_append_c (out, g_ascii_tolower (*p));
    }
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
append_names_json (GString                  *out,
                   const DynoPrintedRequest *printed)
{
  g_string_append_c (out, '{');
  for (guint i = 0; i < printed->name_placeholders->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      dyno_json_write_string (out, printed->name_placeholders->pdata[i], -1);
      g_string_append_c (out, ':');
      dyno_json_write_string (out, printed->names->pdata[i], -1);
    }
  g_string_append_c (out, '}');
}

static void
append_values_json (GString                  *out,
                    const DynoPrintedRequest *printed)
{
  g_string_append_c (out, '{');
  for (guint i = 0; i < printed->value_placeholders->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      dyno_json_write_string (out, printed->value_placeholders->pdata[i], -1);
      g_string_append_c (out, ':');
      dyno_value_write_ddb_json (printed->values->pdata[i], out);
    }
  g_string_append_c (out, '}');
}

static void
append_continuation (GString *out,
                     guint    indent)
{
  g_string_append (out, " \\\n");
  dyno_codegen_append_indent (out, indent);
}

/* The command's arguments after "aws dynamodb <op>", each on its own continued line.
 * @skip_start_key leaves ExclusiveStartKey to the program's loop. */
static void
append_arguments (GString                  *out,
                  const DynoRequest        *request,
                  const DynoPrintedRequest *printed,
                  const DynoCodegenOptions *options,
                  guint                     indent,
                  gboolean                  skip_start_key)
{
  g_autoptr(GArray) members = dyno_codegen_collect_old_members (request, printed);

  for (guint i = 0; i < members->len; i++)
    {
      const DynoCodegenOldMember *m = &g_array_index (members, DynoCodegenOldMember, i);
      g_autoptr(GString) json = g_string_new (NULL);

      if (skip_start_key && g_str_equal (m->name, "ExclusiveStartKey"))
        continue;

      append_continuation (out, indent);
      switch (m->kind)
        {
        case DYNO_CODEGEN_MEMBER_STRING:
          append_option_name (out, m->name);
          g_string_append_c (out, ' ');
          if (g_str_equal (m->name, "TableName") || g_str_equal (m->name, "IndexName"))
            append_word (out, m->string);
          else
            dyno_codegen_append_quoted (out, m->string, DYNO_QUOTE_SHELL);
          break;
        case DYNO_CODEGEN_MEMBER_ENUM:
          append_option_name (out, m->name);
          g_string_append_printf (out, " %s", m->string);
          break;
        case DYNO_CODEGEN_MEMBER_INTEGER:
          append_option_name (out, m->name);
          g_string_append_printf (out, " %" G_GINT64_FORMAT, m->integer);
          break;
        case DYNO_CODEGEN_MEMBER_BOOLEAN:
          {
            g_autoptr(GString) name = g_string_new (NULL);

            append_option_name (name, m->name);
            if (m->boolean)
              g_string_append (out, name->str);
            else
              g_string_append_printf (out, "--no-%s", name->str + 2);
          }
          break;
        case DYNO_CODEGEN_MEMBER_ITEM:
          append_option_name (out, m->name);
          g_string_append_c (out, ' ');
          dyno_map_write_ddb_item (m->map, json);
          dyno_codegen_append_quoted (out, json->str, DYNO_QUOTE_SHELL);
          break;
        case DYNO_CODEGEN_MEMBER_NAMES:
          append_option_name (out, m->name);
          g_string_append_c (out, ' ');
          append_names_json (json, printed);
          dyno_codegen_append_quoted (out, json->str, DYNO_QUOTE_SHELL);
          break;
        case DYNO_CODEGEN_MEMBER_VALUES:
          append_option_name (out, m->name);
          g_string_append_c (out, ' ');
          append_values_json (json, printed);
          dyno_codegen_append_quoted (out, json->str, DYNO_QUOTE_SHELL);
          break;
        default:
          g_assert_not_reached ();
        }
    }

  if (members_have_binary (members, printed))
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

static char *
emit_snippet (const DynoRequest        *request,
              const DynoPrintedRequest *printed,
              const DynoCodegenOptions *options)
{
  GString *out = g_string_new ("aws dynamodb ");

  g_string_append (out, dyno_codegen_operation_kebab (request->operation));
  append_arguments (out, request, printed, options, 4, FALSE);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

static char *
emit_program (const DynoRequest        *request,
              const DynoPrintedRequest *printed,
              const DynoCodegenOptions *options)
{
  GString *out = g_string_new ("#!/usr/bin/env bash\n");
  g_autofree char *what = dyno_codegen_describe (request);
  const char *op = dyno_codegen_operation_kebab (request->operation);

  g_string_append_printf (out, "# %s, generated by DynoTable.\n", what);

  if (dyno_codegen_operation_is_paged (request->operation))
    {
      g_string_append (out,
                       "# Prints every item as one line of DynamoDB JSON, page by page: each call returns\n"
                       "# its items and LastEvaluatedKey, which starts the next page.\n"
                       "set -euo pipefail\n"
                       "\n");
      if (request->exclusive_start_key != NULL)
        {
          g_autoptr(GString) json = g_string_new (NULL);

          dyno_map_write_ddb_item (dyno_item_get_map (request->exclusive_start_key), json);
          g_string_append (out, "start_key=");
          dyno_codegen_append_quoted (out, json->str, DYNO_QUOTE_SHELL);
          g_string_append_c (out, '\n');
        }
      else
        g_string_append (out, "start_key=\n");
      g_string_append (out, "while :; do\n");
      /* The CLI's own --query prints the page's items (one JSON text per line) and, on the
       * last line, the next start key or "null": no jq or other tool needed. */
      g_string_append_printf (out, "  page=$(aws dynamodb %s", op);
      append_arguments (out, request, printed, options, 4, TRUE);
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
  else
    {
      const char *query = request->operation == DYNO_OP_GET_ITEM ? "to_string(Item)"
                                                                  : "to_string(Attributes)";

      if (request->operation == DYNO_OP_GET_ITEM)
        g_string_append (out, "# Prints the item as one line of DynamoDB JSON (nothing when there is none).\n");
      else
        g_string_append (out, "# Prints the attributes ReturnValues asks for as one line of DynamoDB JSON.\n");
      g_string_append (out, "set -euo pipefail\n\n");
      g_string_append_printf (out, "result=$(aws dynamodb %s", op);
      append_arguments (out, request, printed, options, 4, FALSE);
      append_continuation (out, 4);
      g_string_append_printf (out, "--output text --query '%s')\n", query);
      g_string_append (out,
                       "if [[ $result != null ]]; then\n"
                       "  printf '%s\\n' \"$result\"\n"
                       "fi\n");
    }
  return g_string_free (out, FALSE);
}

char *
dyno_codegen_emit_cli (const DynoRequest        *request,
                       const DynoPrintedRequest *printed,
                       const DynoCodegenOptions *options,
                       GError                  **error)
{
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (printed != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  if (options->program)
    return emit_program (request, printed, options);
  return emit_snippet (request, printed, options);
}
