/* eval-driver.c: the engine's evaluator behind a line protocol, for test_eval_differential.py
 *
 * Reads lines of four tab-separated fields: a mode ("cond", "update" or "project"), the item as DynamoDB
 * JSON (or "null"), the expression in DynamoDB's syntax, and the expression attribute values
 * as a DynamoDB JSON map.  Writes one line per input line: for "cond" `true`, `false`, or
 * `ERR <message>`; for "update" the new item as DynamoDB JSON or `ERR <message>`; for "project"
 * the projected item as DynamoDB JSON or `ERR <message>`.  Updates run
 * with the key {"pk":{"S":"u"}}.  A parse error is `PARSE <message>`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dyno-eval.h"
#include "dyno-json.h"

static void
answer (const DynoItem *item, const char *mode, const char *text, GHashTable *values,
        GString *out)
{
  g_autoptr(GError) error = NULL;

  if (strcmp (mode, "cond") == 0)
    {
      g_autoptr(DynoExpr) expr = dyno_expr_parse_condition (text, DYNO_SYNTAX_DYNAMODB,
                                                            DYNO_EXPR_ROLE_CONDITION, NULL,
                                                            values, NULL, NULL, &error);
      gboolean match = FALSE;

      if (expr == NULL)
        g_string_append_printf (out, "PARSE %s", error->message);
      else if (!dyno_eval_condition (expr, item, &match, &error))
        g_string_append_printf (out, "ERR %s", error->message);
      else
        g_string_append (out, match ? "true" : "false");
    }
  else if (strcmp (mode, "project") == 0)
    {
      g_autoptr(GPtrArray) paths = dyno_expr_parse_projection (text, DYNO_SYNTAX_DYNAMODB, NULL,
                                                               NULL, NULL, &error);
      g_autoptr(DynoItem) result = NULL;

      if (paths == NULL)
        g_string_append_printf (out, "PARSE %s", error->message);
      else if (!dyno_eval_check_projection (paths, &error))
        g_string_append_printf (out, "ERR %s", error->message);
      else
        {
          g_autofree char *json = NULL;

          result = dyno_eval_project (paths, item);
          json = dyno_item_to_ddb_json (result);
          g_string_append (out, json);
        }
    }
  else
    {
      g_autoptr(DynoItem) key = dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"u\"}}", -1, NULL);
      g_autoptr(DynoUpdate) update = dyno_expr_parse_update (text, DYNO_SYNTAX_DYNAMODB, NULL,
                                                             values, NULL, NULL, &error);
      g_autoptr(DynoItem) result = NULL;

      if (update == NULL)
        g_string_append_printf (out, "PARSE %s", error->message);
      else if ((result = dyno_eval_update (update, item, key, &error)) == NULL)
        g_string_append_printf (out, "ERR %s", error->message);
      else
        {
          g_autofree char *json = dyno_item_to_ddb_json (result);

          g_string_append (out, json);
        }
    }
}

int
main (int argc, char **argv)
{
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  int c;

  while (TRUE)
    {
      g_auto(GStrv) fields = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoItem) item = NULL;
      g_autoptr(DynoItem) holder = NULL;
      g_autoptr(GHashTable) values = NULL;

      g_string_truncate (line, 0);
      while ((c = getchar ()) != EOF && c != '\n')
        g_string_append_c (line, (char) c);
      if (c == EOF && line->len == 0)
        break;
      fields = g_strsplit (line->str, "\t", 4);
      g_string_truncate (out, 0);
      if (g_strv_length (fields) != 4)
        {
          g_string_append (out, "PARSE expected four tab-separated fields");
          goto reply;
        }
      if (strcmp (fields[1], "null") != 0 &&
          (item = dyno_item_from_ddb_json (fields[1], -1, &error)) == NULL)
        {
          g_string_append_printf (out, "PARSE %s", error->message);
          goto reply;
        }
      if ((holder = dyno_item_from_ddb_json (fields[3], -1, &error)) == NULL)
        {
          g_string_append_printf (out, "PARSE %s", error->message);
          goto reply;
        }
      values = g_hash_table_new (g_str_hash, g_str_equal);
      {
        const DynoValue *map = dyno_item_get_map (holder);

        for (guint i = 0; i < dyno_value_get_n_children (map); i++)
          g_hash_table_insert (values, (gpointer) dyno_value_get_member_name (map, i, NULL),
                               (gpointer) dyno_value_get_child (map, i));
      }
      answer (item, fields[0], fields[2], values, out);
    reply:
      printf ("%s\n", out->str);
      fflush (stdout);
    }
  return 0;
}
