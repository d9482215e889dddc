/* dyno-expr-inline.c: expressions as inline-literal text (`name`, "string", 42, true, null)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-expr.h"
#include "dyno-expr-private.h"

#include <string.h>

#include "dyno-json.h"

void
dyno_expr_append_json_string (GString    *out,
                              const char *text,
                              gsize       len)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) text[i];

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (c < 0x20 || c == 0x7F)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

static gboolean
name_is_bare_inline (const char *name)
{
  return dyno_is_identifier (name) && !dyno_is_inline_keyword (name) &&
         strcmp (name, "true") != 0 && strcmp (name, "false") != 0 &&
         strcmp (name, "null") != 0;
}

static void
append_inline_name (GString    *out,
                    const char *name)
{
  if (name_is_bare_inline (name))
    {
      g_string_append (out, name);
      return;
    }
  g_string_append_c (out, '`');
  for (const char *c = name; *c != '\0'; c++)
    {
      if (*c == '`')
        g_string_append_c (out, '`');
      g_string_append_c (out, *c);
    }
  g_string_append_c (out, '`');
}

void
dyno_expr_append_path (GString        *out,
                       const DynoPath *path,
                       void          (*write_name) (GString    *out,
                                                    const char *name,
                                                    gpointer    data),
                       gpointer        data)
{
  for (guint i = 0; i < path->elements->len; i++)
    {
      const DynoPathElement *element = &g_array_index (path->elements, DynoPathElement, i);

      if (element->name == NULL)
        {
          g_string_append_printf (out, "[%u]", element->index);
          continue;
        }
      if (i > 0)
        g_string_append_c (out, '.');
      write_name (out, element->name, data);
    }
}

static void
inline_write_name (GString    *out,
                   const char *name,
                   gpointer    data)
{
  append_inline_name (out, name);
}

static void
inline_write_path (gpointer        data,
                   GString        *out,
                   const DynoPath *path)
{
  dyno_expr_append_path (out, path, inline_write_name, NULL);
}

static void
inline_write_value (gpointer        data,
                    GString        *out,
                    const DynoExpr *node,
                    const char     *attribute,
                    const char     *suffix)
{
  const DynoValue *value = node->value;

  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_S:
      {
        gsize len = 0;
        const char *text = dyno_value_get_string (value, &len);

        dyno_expr_append_json_string (out, text, len);
      }
      break;
    case DYNO_VALUE_N:
      g_string_append (out, dyno_value_get_string (value, NULL));
      break;
    case DYNO_VALUE_BOOL:
      g_string_append (out, dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, "null");
      break;
    default:
      /* No literal form: DynamoDB JSON after a ':' marker, which the inline parser reads. */
      g_string_append_c (out, ':');
      dyno_value_write_ddb_json (value, out);
      break;
    }
}

static const DynoExprWriter inline_writer = { inline_write_path, inline_write_value, NULL };

char *
dyno_expr_to_inline (const DynoExpr *expr)
{
  GString *out;

  g_return_val_if_fail (expr != NULL, NULL);

  out = g_string_new (NULL);
  dyno_expr_write_condition (&inline_writer, out, expr);
  return g_string_free (out, FALSE);
}

char *
dyno_update_to_inline (const DynoUpdate *update)
{
  GString *out;

  g_return_val_if_fail (update != NULL, NULL);

  out = g_string_new (NULL);
  dyno_expr_write_update (&inline_writer, out, update);
  return g_string_free (out, FALSE);
}

char *
dyno_projection_to_inline (GPtrArray *paths)
{
  GString *out;

  g_return_val_if_fail (paths != NULL, NULL);

  out = g_string_new (NULL);
  dyno_expr_write_projection (&inline_writer, out, paths);
  return g_string_free (out, FALSE);
}

char *
dyno_path_to_inline (const DynoPath *path)
{
  GString *out;

  g_return_val_if_fail (path != NULL, NULL);

  out = g_string_new (NULL);
  inline_write_path (NULL, out, path);
  return g_string_free (out, FALSE);
}
