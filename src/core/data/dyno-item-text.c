/* dyno-item-text.c: an item as editable DynamoDB JSON text, and errors with their line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-item-text.h"

#include <stdlib.h>

#include "dyno-error.h"
#include "dyno-json.h"

static void
indent (GString *out,
        guint    depth)
{
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

static void write_value (GString *out, const DynoValue *value, guint depth);

/* Members of an M (named) or elements of an L, one per line at @depth + 1. */
static void
write_children (GString         *out,
                const DynoValue *value,
                gboolean         named,
                guint            depth)
{
  guint n = dyno_value_get_n_children (value);

  if (n == 0)
    {
      g_string_append (out, named ? "{}" : "[]");
      return;
    }

  g_string_append (out, named ? "{\n" : "[\n");
  for (guint i = 0; i < n; i++)
    {
      indent (out, depth + 1);
      if (named)
        {
          gsize len;
          const char *name = dyno_value_get_member_name (value, i, &len);

          dyno_json_write_string (out, name, len);
          g_string_append (out, ": ");
        }
      write_value (out, dyno_value_get_child (value, i), depth + 1);
      g_string_append (out, i + 1 < n ? ",\n" : "\n");
    }
  indent (out, depth);
  g_string_append (out, named ? "}" : "]");
}

static void
write_value (GString         *out,
             const DynoValue *value,
             guint            depth)
{
  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_M:
      g_string_append (out, "{\"M\": ");
      write_children (out, value, TRUE, depth);
      g_string_append (out, "}");
      break;
    case DYNO_VALUE_L:
      g_string_append (out, "{\"L\": ");
      write_children (out, value, FALSE, depth);
      g_string_append (out, "}");
      break;
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
    case DYNO_VALUE_B:
    case DYNO_VALUE_BOOL:
    case DYNO_VALUE_NULL:
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
    default:
      dyno_value_write_ddb_json (value, out);
      break;
    }
}

char *
dyno_item_text_format (const DynoItem *item)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (item != NULL, NULL);

  write_children (out, dyno_item_get_map (item), TRUE, 0);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

gboolean
dyno_item_text_error_location (const GError *error,
                               guint        *out_line,
                               guint        *out_column)
{
  /* carried in the error, never read back out of its (translated) message */
  return dyno_error_get_location (error, out_line, out_column);
}

DynoItem *
dyno_item_text_parse (const char  *text,
                      gssize       len,
                      guint       *out_line,
                      guint       *out_column,
                      GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  DynoItem *item;
  guint line = 0, column = 0;

  g_return_val_if_fail (text != NULL, NULL);

  if (out_line != NULL)
    *out_line = 0;
  if (out_column != NULL)
    *out_column = 0;

  /* Syntax first: its messages always carry the place; then the DynamoDB JSON shape. */
  if (dyno_json_validate (text, len, &local_error))
    {
      item = dyno_item_from_ddb_json (text, len, &local_error);
      if (item != NULL)
        return item;
    }

  dyno_item_text_error_location (local_error, &line, &column);
  if (out_line != NULL)
    *out_line = line;
  if (out_column != NULL)
    *out_column = column;
  g_propagate_error (error, g_steal_pointer (&local_error));
  return NULL;
}
