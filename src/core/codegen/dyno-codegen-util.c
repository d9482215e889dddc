/* dyno-codegen-util.c: helpers every code emitter shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-codegen-private.h"

#include "dyno-json.h"

#include <stdlib.h>
#include <string.h>

static gboolean
has_control_other_than_newline (const char *text,
                                const char *end)
{
  for (const char *p = text; p < end; p++)
    {
      guchar c = (guchar) *p;

      if ((c < 0x20 && c != '\n') || c == 0x7f)
        return TRUE;
    }
  return FALSE;
}

static void
append_c_like (GString    *out,
               const char *text,
               const char *end,
               gboolean    rust,
               gboolean    plain_dollar)
{
  g_string_append_c (out, '"');
  for (const char *p = text; p < end; p++)
    {
      guchar c = (guchar) *p;

      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '$':
          /* Kotlin would start a template; \u0024 means '$' everywhere else too. */
          if (rust || plain_dollar)
            g_string_append_c (out, '$');
          else
            g_string_append (out, "\\u0024");
          break;
        default:
          if (c < 0x20 || c == 0x7f)
            {
              if (rust)
                g_string_append_printf (out, "\\u{%02x}", c);
              else
                g_string_append_printf (out, "\\u%04x", c);
            }
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

static void
append_python (GString    *out,
               const char *text,
               const char *end)
{
  /* Double quotes as PEP 8 tools write them; single quotes when that saves escaping. */
  char quote = '"';

  if (memchr (text, '"', end - text) != NULL && memchr (text, '\'', end - text) == NULL)
    quote = '\'';

  g_string_append_c (out, quote);
  for (const char *p = text; p < end; p++)
    {
      guchar c = (guchar) *p;

      if (c == (guchar) quote || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
        }
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_c (out, (char) c);
    }
  g_string_append_c (out, quote);
}

/* Ruby and PHP double-quoted strings: the same escapes, and the interpolation starters
 * escaped ('#' before '{', '$', '@' in Ruby; '$' in PHP). */
static void
append_double_quoted_script (GString    *out,
                             const char *text,
                             const char *end,
                             gboolean    ruby)
{
  g_string_append_c (out, '"');
  for (const char *p = text; p < end; p++)
    {
      guchar c = (guchar) *p;

      if (c == '"' || c == '\\' || (c == '$' && !ruby) || (c == '#' && ruby))
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
        }
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_c (out, (char) c);
    }
  g_string_append_c (out, '"');
}

static void
append_single_quoted_script (GString    *out,
                             const char *text,
                             const char *end)
{
  g_string_append_c (out, '\'');
  for (const char *p = text; p < end; p++)
    {
      if (*p == '\'' || *p == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '\'');
}

static void
append_shell (GString    *out,
              const char *text,
              const char *end)
{
  /* Inside single quotes nothing is special but the quote itself, which has to leave the
   * quotes: 'it'\''s'.  (A NUL cannot be in a shell word at all; strings reach the shell
   * inside JSON, where it is \u0000.) */
  g_string_append_c (out, '\'');
  for (const char *p = text; p < end; p++)
    {
      if (*p == '\'')
        g_string_append (out, "'\\''");
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '\'');
}

void
dyno_codegen_append_quoted_len (GString        *out,
                                const char     *text,
                                gsize           len,
                                DynoQuoteStyle  style)
{
  const char *end;

  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL || len == 0);

  if (text == NULL)
    text = "";
  end = text + len;
  switch (style)
    {
    case DYNO_QUOTE_C_LIKE:
      append_c_like (out, text, end, FALSE, FALSE);
      break;
    case DYNO_QUOTE_RUST:
      append_c_like (out, text, end, TRUE, TRUE);
      break;
    case DYNO_QUOTE_JS:
      append_c_like (out, text, end, FALSE, TRUE);
      break;
    case DYNO_QUOTE_PYTHON:
      append_python (out, text, end);
      break;
    case DYNO_QUOTE_RUBY_SINGLE:
      if (has_control_other_than_newline (text, end))
        append_double_quoted_script (out, text, end, TRUE);
      else
        append_single_quoted_script (out, text, end);
      break;
    case DYNO_QUOTE_PHP_SINGLE:
      if (has_control_other_than_newline (text, end))
        append_double_quoted_script (out, text, end, FALSE);
      else
        append_single_quoted_script (out, text, end);
      break;
    case DYNO_QUOTE_SHELL:
      append_shell (out, text, end);
      break;
    default:
      g_return_if_reached ();
    }
}

void
dyno_codegen_append_value_string (GString         *out,
                                  const DynoValue *value,
                                  DynoQuoteStyle   style)
{
  gsize len;
  const char *text = dyno_value_get_string (value, &len);

  dyno_codegen_append_quoted_len (out, text, len, style);
}

void
dyno_codegen_append_member_name (GString         *out,
                                 const DynoValue *map,
                                 guint            i,
                                 DynoQuoteStyle   style)
{
  gsize len;
  const char *name = dyno_value_get_member_name (map, i, &len);

  dyno_codegen_append_quoted_len (out, name, len, style);
}

void
dyno_codegen_append_quoted (GString        *out,
                            const char     *text,
                            DynoQuoteStyle  style)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL);

  /* Names read from request JSON hold a NUL as C0 80 (see dyno-json.h). */
  if (strstr (text, "\xC0\x80") != NULL)
    {
      gsize len;
      g_autofree char *bytes = dyno_json_held_string_decode (text, &len);

      dyno_codegen_append_quoted_len (out, bytes, len, style);
      return;
    }
  dyno_codegen_append_quoted_len (out, text, strlen (text), style);
}

static const char *
select_to_string (DynoSelect select)
{
  switch (select)
    {
    case DYNO_SELECT_ALL_ATTRIBUTES:
      return "ALL_ATTRIBUTES";
    case DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES:
      return "ALL_PROJECTED_ATTRIBUTES";
    case DYNO_SELECT_SPECIFIC_ATTRIBUTES:
      return "SPECIFIC_ATTRIBUTES";
    case DYNO_SELECT_COUNT:
      return "COUNT";
    case DYNO_SELECT_UNSET:
    default:
      return NULL;
    }
}

static const char *
consumed_to_string (DynoReturnConsumedCapacity consumed)
{
  switch (consumed)
    {
    case DYNO_CONSUMED_NONE:
      return "NONE";
    case DYNO_CONSUMED_TOTAL:
      return "TOTAL";
    case DYNO_CONSUMED_INDEXES:
      return "INDEXES";
    case DYNO_CONSUMED_UNSET:
    default:
      return NULL;
    }
}

static const char *
return_values_to_string (DynoReturnValues values)
{
  switch (values)
    {
    case DYNO_RETURN_VALUES_NONE:
      return "NONE";
    case DYNO_RETURN_VALUES_ALL_OLD:
      return "ALL_OLD";
    case DYNO_RETURN_VALUES_UPDATED_OLD:
      return "UPDATED_OLD";
    case DYNO_RETURN_VALUES_ALL_NEW:
      return "ALL_NEW";
    case DYNO_RETURN_VALUES_UPDATED_NEW:
      return "UPDATED_NEW";
    case DYNO_RETURN_VALUES_UNSET:
    default:
      return NULL;
    }
}

static void
add_string (GArray     *members,
            const char *name,
            const char *value)
{
  DynoCodegenMember m = { name, DYNO_CODEGEN_MEMBER_STRING, value, 0, FALSE, NULL };

  if (value != NULL)
    g_array_append_val (members, m);
}

static void
add_enum (GArray     *members,
          const char *name,
          const char *value)
{
  DynoCodegenMember m = { name, DYNO_CODEGEN_MEMBER_ENUM, value, 0, FALSE, NULL };

  if (value != NULL)
    g_array_append_val (members, m);
}

static void
add_item (GArray         *members,
          const char     *name,
          const DynoItem *item)
{
  DynoCodegenMember m = { name, DYNO_CODEGEN_MEMBER_ITEM, NULL, 0, FALSE, NULL };

  if (item == NULL)
    return;
  m.map = dyno_item_get_map (item);
  g_array_append_val (members, m);
}

static void
add_integer (GArray     *members,
             const char *name,
             gint64      value)
{
  DynoCodegenMember m = { name, DYNO_CODEGEN_MEMBER_INTEGER, NULL, value, FALSE, NULL };

  g_array_append_val (members, m);
}

static void
add_boolean (GArray       *members,
             const char   *name,
             DynoTristate  value)
{
  DynoCodegenMember m = { name, DYNO_CODEGEN_MEMBER_BOOLEAN, NULL, 0, value == DYNO_TRISTATE_TRUE,
                          NULL };

  if (value != DYNO_TRISTATE_UNSET)
    g_array_append_val (members, m);
}

GArray *
dyno_codegen_collect_members (const DynoRequest        *request,
                              const DynoPrintedRequest *printed)
{
  GArray *members;
  DynoOperation op;
  gboolean paged;

  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (printed != NULL, NULL);

  members = g_array_new (FALSE, TRUE, sizeof (DynoCodegenMember));
  op = request->operation;
  paged = dyno_codegen_operation_is_paged (op);

  add_string (members, "TableName", request->table_name);
  if (paged)
    add_string (members, "IndexName", request->index_name);
  if (op == DYNO_OP_PUT_ITEM)
    add_item (members, "Item", request->item);
  else if (!paged)
    add_item (members, "Key", request->key);

  if (op == DYNO_OP_QUERY)
    add_string (members, "KeyConditionExpression", printed->key_condition);
  if (op == DYNO_OP_UPDATE_ITEM)
    add_string (members, "UpdateExpression", printed->update);
  if (op == DYNO_OP_PUT_ITEM || op == DYNO_OP_UPDATE_ITEM || op == DYNO_OP_DELETE_ITEM)
    add_string (members, "ConditionExpression", printed->condition);
  if (paged)
    add_string (members, "FilterExpression", printed->filter);
  if (paged || op == DYNO_OP_GET_ITEM)
    add_string (members, "ProjectionExpression", printed->projection);

  if (printed->name_placeholders != NULL && printed->name_placeholders->len > 0)
    {
      DynoCodegenMember m = { "ExpressionAttributeNames", DYNO_CODEGEN_MEMBER_NAMES,
                              NULL, 0, FALSE, NULL };
      g_array_append_val (members, m);
    }
  if (printed->value_placeholders != NULL && printed->value_placeholders->len > 0)
    {
      DynoCodegenMember m = { "ExpressionAttributeValues", DYNO_CODEGEN_MEMBER_VALUES,
                              NULL, 0, FALSE, NULL };
      g_array_append_val (members, m);
    }

  if (op == DYNO_OP_QUERY)
    add_boolean (members, "ScanIndexForward", request->scan_index_forward);
  if (paged || op == DYNO_OP_GET_ITEM)
    add_boolean (members, "ConsistentRead", request->consistent_read);
  if (paged && request->limit > 0)
    add_integer (members, "Limit", request->limit);
  if (paged)
    add_enum (members, "Select", select_to_string (request->select));
  if (paged)
    add_item (members, "ExclusiveStartKey", request->exclusive_start_key);
  if (op == DYNO_OP_SCAN && request->segment >= 0)
    add_integer (members, "Segment", request->segment);
  if (op == DYNO_OP_SCAN && request->total_segments >= 0)
    add_integer (members, "TotalSegments", request->total_segments);
  if (op == DYNO_OP_PUT_ITEM || op == DYNO_OP_UPDATE_ITEM || op == DYNO_OP_DELETE_ITEM)
    add_enum (members, "ReturnValues", return_values_to_string (request->return_values));
  add_enum (members, "ReturnConsumedCapacity",
            consumed_to_string (request->return_consumed_capacity));

  return members;
}

const char *
dyno_codegen_operation_snake (DynoOperation op)
{
  static const char * const names[] = {
    "query", "scan", "get_item", "put_item", "update_item", "delete_item",
  };

  g_return_val_if_fail ((guint) op < G_N_ELEMENTS (names), NULL);
  return names[op];
}

const char *
dyno_codegen_operation_kebab (DynoOperation op)
{
  static const char * const names[] = {
    "query", "scan", "get-item", "put-item", "update-item", "delete-item",
  };

  g_return_val_if_fail ((guint) op < G_N_ELEMENTS (names), NULL);
  return names[op];
}

const char *
dyno_codegen_operation_pascal (DynoOperation op)
{
  static const char * const names[] = {
    "Query", "Scan", "GetItem", "PutItem", "UpdateItem", "DeleteItem",
  };

  g_return_val_if_fail ((guint) op < G_N_ELEMENTS (names), NULL);
  return names[op];
}

gboolean
dyno_codegen_operation_is_paged (DynoOperation op)
{
  return op == DYNO_OP_QUERY || op == DYNO_OP_SCAN;
}

char *
dyno_codegen_describe (const DynoRequest *request)
{
  GString *out;

  g_return_val_if_fail (request != NULL, NULL);

  out = g_string_new (dyno_codegen_operation_pascal (request->operation));
  g_string_append_printf (out, " on table %s", request->table_name ? request->table_name : "?");
  if (dyno_codegen_operation_is_paged (request->operation) && request->index_name != NULL)
    g_string_append_printf (out, " (index %s)", request->index_name);
  return g_string_free (out, FALSE);
}

void
dyno_codegen_append_indent (GString *out,
                            guint    spaces)
{
  for (guint i = 0; i < spaces; i++)
    g_string_append_c (out, ' ');
}

gboolean
dyno_codegen_number_fits_double (const char *canonical)
{
  const char *p = canonical;
  guint significant = 0;
  guint integer_digits = 0;
  guint leading_fraction_zeros = 0;
  gboolean in_fraction = FALSE;
  gboolean seen_nonzero = FALSE;

  g_return_val_if_fail (canonical != NULL, FALSE);

  /* A canonical number is [-]digits[.digits] without exponent.  Up to 15 significant digits
   * always survive a double (DBL_DIG), JS prints them back positionally between 1e-7 and
   * 1e21, and integers must stay below 2^53 for the SDK's marshaller: keep the integer part
   * under 16 digits and the magnitude at least 1e-6. */
  if (*p == '-')
    p++;
  if (*p == '\0')
    return FALSE;
  for (; *p; p++)
    {
      if (*p == '.')
        {
          if (in_fraction)
            return FALSE;
          in_fraction = TRUE;
          continue;
        }
      if (!g_ascii_isdigit (*p))
        return FALSE;
      if (*p != '0')
        seen_nonzero = TRUE;
      if (seen_nonzero)
        significant++;
      else if (in_fraction)
        leading_fraction_zeros++;
      if (!in_fraction && seen_nonzero)
        integer_digits++;
    }

  if (!seen_nonzero)
    return TRUE; /* zero */
  if (significant > 15 || integer_digits > 15)
    return FALSE;
  if (integer_digits == 0 && leading_fraction_zeros > 5)
    return FALSE;
  return TRUE;
}

gboolean
dyno_codegen_is_js_identifier (const char *text)
{
  g_return_val_if_fail (text != NULL, FALSE);

  if (!(g_ascii_isalpha (text[0]) || text[0] == '_' || text[0] == '$'))
    return FALSE;
  for (const char *p = text + 1; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == '$'))
      return FALSE;
  return TRUE;
}

char **
dyno_codegen_expression_placeholders (const char *expression,
                                      char        prefix)
{
  GPtrArray *found = g_ptr_array_new ();

  for (const char *p = expression; p != NULL && *p; p++)
    {
      const char *start;

      if (*p != prefix)
        continue;
      start = p++;
      while (*p && (g_ascii_isalnum (*p) || *p == '_'))
        p++;
      if (p > start + 1)
        {
          g_autofree char *name = g_strndup (start, p - start);
          gboolean seen = FALSE;

          for (guint i = 0; i < found->len && !seen; i++)
            seen = strcmp (found->pdata[i], name) == 0;
          if (!seen)
            g_ptr_array_add (found, g_steal_pointer (&name));
        }
      p--;
    }
  g_ptr_array_add (found, NULL);
  return (char **) g_ptr_array_free (found, FALSE);
}
