/* dyno-codegen-b-private.h: what the Go, Java, Rust, .NET, Kotlin, PHP, Ruby and C++ emitters share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "dyno-codegen-old.h"

G_BEGIN_DECLS

/* The codegen meson.build lists one source file per emitter, so what these eight share lives
 * here as static inline functions. */

/* One member of a request, in the order every emitter writes them (the order of
 * dyno_request_to_json: TableName, IndexName, Key/Item, the expressions, the two maps, then
 * ExclusiveStartKey, Limit, ScanIndexForward, ConsistentRead, Select, ReturnConsumedCapacity,
 * ReturnValues, Segment, TotalSegments).  Only members that are set and that the operation
 * takes are listed. */
typedef enum {
  DYNO_CGB_STRING,   /* text */
  DYNO_CGB_INT,      /* number */
  DYNO_CGB_BOOL,     /* flag */
  DYNO_CGB_ENUM,     /* enum_type ("Select", "ReturnConsumedCapacity", "ReturnValue"), text
                      * (the API spelling: "ALL_ATTRIBUTES") */
  DYNO_CGB_NAMES,    /* ExpressionAttributeNames: printed->name_placeholders / names */
  DYNO_CGB_VALUES,   /* ExpressionAttributeValues: printed->value_placeholders / values */
  DYNO_CGB_ITEM,     /* Key, Item, ExclusiveStartKey: map (an M value) */
} DynoCgbKind;

typedef struct {
  const char      *api_name;   /* "TableName", "KeyConditionExpression", … */
  DynoCgbKind      kind;
  const char      *text;
  gint64           number;
  gboolean         flag;
  const char      *enum_type;
  const DynoValue *map;
} DynoCgbField;

static inline void
dyno_cgb_push (GArray       *fields,
               DynoCgbField  field)
{
  g_array_append_val (fields, field);
}

/* Returns a GArray of DynoCgbField; the pointers borrow from @request and @printed. */
static inline GArray *
dyno_cgb_collect_fields (const DynoRequest        *request,
                         const DynoPrintedRequest *printed)
{
  GArray *fields = g_array_new (FALSE, TRUE, sizeof (DynoCgbField));
  DynoOperation op = request->operation;
  gboolean read_many = (op == DYNO_OP_QUERY || op == DYNO_OP_SCAN);
  gboolean write = (op == DYNO_OP_PUT_ITEM || op == DYNO_OP_UPDATE_ITEM ||
                    op == DYNO_OP_DELETE_ITEM);
  gboolean keyed = (op == DYNO_OP_GET_ITEM || op == DYNO_OP_UPDATE_ITEM ||
                    op == DYNO_OP_DELETE_ITEM);

  dyno_cgb_push (fields, (DynoCgbField) { "TableName", DYNO_CGB_STRING,
                                          .text = request->table_name ? request->table_name : "" });
  if (read_many && request->index_name != NULL && *request->index_name != '\0')
    dyno_cgb_push (fields, (DynoCgbField) { "IndexName", DYNO_CGB_STRING,
                                            .text = request->index_name });
  if (keyed && request->key != NULL)
    dyno_cgb_push (fields, (DynoCgbField) { "Key", DYNO_CGB_ITEM,
                                            .map = dyno_item_get_map (request->key) });
  if (op == DYNO_OP_PUT_ITEM && request->item != NULL)
    dyno_cgb_push (fields, (DynoCgbField) { "Item", DYNO_CGB_ITEM,
                                            .map = dyno_item_get_map (request->item) });
  if (printed->key_condition != NULL)
    dyno_cgb_push (fields, (DynoCgbField) { "KeyConditionExpression", DYNO_CGB_STRING,
                                            .text = printed->key_condition });
  if (printed->update != NULL)
    dyno_cgb_push (fields, (DynoCgbField) { "UpdateExpression", DYNO_CGB_STRING,
                                            .text = printed->update });
  if (printed->condition != NULL)
    dyno_cgb_push (fields, (DynoCgbField) { "ConditionExpression", DYNO_CGB_STRING,
                                            .text = printed->condition });
  if (printed->filter != NULL)
    dyno_cgb_push (fields, (DynoCgbField) { "FilterExpression", DYNO_CGB_STRING,
                                            .text = printed->filter });
  if (printed->projection != NULL)
    dyno_cgb_push (fields, (DynoCgbField) { "ProjectionExpression", DYNO_CGB_STRING,
                                            .text = printed->projection });
  if (printed->name_placeholders != NULL && printed->name_placeholders->len > 0)
    dyno_cgb_push (fields, (DynoCgbField) { "ExpressionAttributeNames", DYNO_CGB_NAMES });
  if (printed->value_placeholders != NULL && printed->value_placeholders->len > 0)
    dyno_cgb_push (fields, (DynoCgbField) { "ExpressionAttributeValues", DYNO_CGB_VALUES });
  if (read_many && request->exclusive_start_key != NULL)
    dyno_cgb_push (fields, (DynoCgbField) { "ExclusiveStartKey", DYNO_CGB_ITEM,
                                            .map = dyno_item_get_map (
                                              request->exclusive_start_key) });
  if (read_many && request->limit > 0)
    dyno_cgb_push (fields, (DynoCgbField) { "Limit", DYNO_CGB_INT, .number = request->limit });
  if (op == DYNO_OP_QUERY && request->scan_index_forward != DYNO_TRISTATE_UNSET)
    dyno_cgb_push (fields, (DynoCgbField) { "ScanIndexForward", DYNO_CGB_BOOL,
                                            .flag = request->scan_index_forward ==
                                                    DYNO_TRISTATE_TRUE });
  if ((read_many || op == DYNO_OP_GET_ITEM) && request->consistent_read != DYNO_TRISTATE_UNSET)
    dyno_cgb_push (fields, (DynoCgbField) { "ConsistentRead", DYNO_CGB_BOOL,
                                            .flag = request->consistent_read ==
                                                    DYNO_TRISTATE_TRUE });
  if (read_many && request->select != DYNO_SELECT_UNSET)
    dyno_cgb_push (fields, (DynoCgbField) { "Select", DYNO_CGB_ENUM, .enum_type = "Select",
                                            .text = dyno_select_to_string (request->select) });
  if (request->return_consumed_capacity != DYNO_CONSUMED_UNSET)
    dyno_cgb_push (fields, (DynoCgbField) { "ReturnConsumedCapacity", DYNO_CGB_ENUM,
                                            .enum_type = "ReturnConsumedCapacity",
                                            .text = dyno_consumed_capacity_to_string (
                                              request->return_consumed_capacity) });
  if (write && request->return_values != DYNO_RETURN_VALUES_UNSET)
    dyno_cgb_push (fields, (DynoCgbField) { "ReturnValues", DYNO_CGB_ENUM,
                                            .enum_type = "ReturnValue",
                                            .text = dyno_return_values_to_string (
                                              request->return_values) });
  if (op == DYNO_OP_SCAN && request->segment >= 0)
    dyno_cgb_push (fields, (DynoCgbField) { "Segment", DYNO_CGB_INT,
                                            .number = request->segment });
  if (op == DYNO_OP_SCAN && request->total_segments >= 0)
    dyno_cgb_push (fields, (DynoCgbField) { "TotalSegments", DYNO_CGB_INT,
                                            .number = request->total_segments });
  return fields;
}

/* "ALL_PROJECTED_ATTRIBUTES" -> "AllProjectedAttributes" (Go, Rust, Kotlin enum members). */
static inline void
dyno_cgb_append_pascal (GString    *out,
                        const char *wire)
{
  gboolean upper = TRUE;

  for (const char *p = wire; *p != '\0'; p++)
    {
      if (*p == '_')
        {
          upper = TRUE;
          continue;
        }
      g_string_append_c (out, upper ? g_ascii_toupper (*p) : g_ascii_tolower (*p));
      upper = FALSE;
    }
}

/* "KeyConditionExpression" -> "keyConditionExpression" (Java builders, Kotlin DSL). */
static inline void
dyno_cgb_append_camel (GString    *out,
                       const char *api_name)
{
  g_string_append_c (out, g_ascii_tolower (api_name[0]));
  g_string_append (out, api_name + 1);
}

/* "KeyConditionExpression" -> "key_condition_expression" (Rust, Ruby). */
static inline void
dyno_cgb_append_snake (GString    *out,
                       const char *api_name)
{
  for (const char *p = api_name; *p != '\0'; p++)
    {
      if (g_ascii_isupper (*p) && p != api_name)
        g_string_append_c (out, '_');
      g_string_append_c (out, g_ascii_tolower (*p));
    }
}

static inline void
dyno_cgb_indent (GString *out,
                 guint    depth,
                 guint    width)
{
  for (guint i = 0; i < depth * width; i++)
    g_string_append_c (out, ' ');
}

/* Characters that are legal in a string literal but that no one should paste unseen: C0 and
 * C1 controls, DEL, line/paragraph separators, the BOM and the bidirectional overrides and
 * isolates (the "Trojan source" characters).  Every emitter writes these as escapes. */
static inline gboolean
dyno_cgb_char_needs_escape (gunichar c)
{
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 || c == 0xfeff ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e ||
         c == 0x200f || c == 0x061c;
}

/* Appends @c as one \uXXXX escape, or two (a UTF-16 surrogate pair) above the BMP. */
static inline void
dyno_cgb_append_utf16_escape (GString  *out,
                              gunichar  c)
{
  if (c < 0x10000)
    {
      g_string_append_printf (out, "\\u%04x", c);
    }
  else
    {
      c -= 0x10000;
      g_string_append_printf (out, "\\u%04x\\u%04x", 0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
    }
}

/* A "…" literal for the C family.  Newline, tab, CR, quote and backslash get their short
 * escapes everywhere; the rest of dyno_cgb_char_needs_escape() as each language allows. */
typedef enum {
  DYNO_CGB_LANG_GO,
  DYNO_CGB_LANG_JAVA,
  DYNO_CGB_LANG_CSHARP,
  DYNO_CGB_LANG_KOTLIN,
  DYNO_CGB_LANG_RUST,
  DYNO_CGB_LANG_CPP,
} DynoCgbLang;

static inline void
dyno_cgb_append_c_string_len (GString     *out,
                              const char  *text,
                              gsize        len,
                              DynoCgbLang  lang)
{
  const char *end = text + len;

  g_string_append_c (out, '"');
  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          continue;
        case '\\':
          g_string_append (out, "\\\\");
          continue;
        case '\n':
          g_string_append (out, "\\n");
          continue;
        case '\t':
          g_string_append (out, "\\t");
          continue;
        case '\r':
          g_string_append (out, "\\r");
          continue;
        case '$':
          /* Kotlin interpolates "$name" and "${…}" */
          g_string_append (out, lang == DYNO_CGB_LANG_KOTLIN ? "\\$" : "$");
          continue;
        case '?':
          /* C++ before 17 reads ??= and friends as trigraphs (before escapes): no two
           * question marks may touch */
          g_string_append (out, lang == DYNO_CGB_LANG_CPP && p > text && p[-1] == '?'
                                ? "\\?" : "?");
          continue;
        default:
          break;
        }

      if (lang == DYNO_CGB_LANG_JAVA && c >= 0x80)
        {
          /* javac reads sources in the platform encoding before JDK 18: \u escapes are
           * the only spelling every build reads the same way. */
          dyno_cgb_append_utf16_escape (out, c);
          continue;
        }
      if (lang == DYNO_CGB_LANG_CPP && c >= 0x80)
        {
          /* Octal escapes of the UTF-8 bytes: exact whatever the compiler's source and
           * execution character sets are (hex escapes would swallow following digits). */
          for (const char *b = p; b < g_utf8_next_char (p); b++)
            g_string_append_printf (out, "\\%03o", (guint8) *b);
          continue;
        }
      if (!dyno_cgb_char_needs_escape (c))
        {
          g_string_append_len (out, p, g_utf8_next_char (p) - p);
          continue;
        }
      switch (lang)
        {
        case DYNO_CGB_LANG_GO:
          if (c < 0x80)
            g_string_append_printf (out, "\\x%02x", c);
          else
            g_string_append_printf (out, "\\u%04x", c);
          break;
        case DYNO_CGB_LANG_JAVA:
          /* Java translates \uXXXX before lexing, so \u000a would end the literal */
          g_string_append_printf (out, "\\%03o", c);
          break;
        case DYNO_CGB_LANG_CSHARP:
        case DYNO_CGB_LANG_KOTLIN:
          dyno_cgb_append_utf16_escape (out, c);
          break;
        case DYNO_CGB_LANG_RUST:
          g_string_append_printf (out, "\\u{%x}", c);
          break;
        case DYNO_CGB_LANG_CPP:
          g_string_append_printf (out, "\\%03o", c);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  g_string_append_c (out, '"');
}

static inline void
dyno_cgb_append_c_string (GString     *out,
                          const char  *text,
                          DynoCgbLang  lang)
{
  dyno_cgb_append_c_string_len (out, text, strlen (text), lang);
}

/* A PHP or Ruby literal: single-quoted when nothing needs an escape sequence (only \\ and \'
 * are special there, nothing is interpolated), else double-quoted with `$` (PHP) or `#`
 * (Ruby) escaped so nothing is interpolated. */
static inline void
dyno_cgb_append_script_string_len (GString    *out,
                                   const char *text,
                                   gsize       len,
                                   gboolean    ruby)
{
  const char *end = text + len;
  gboolean plain = TRUE;

  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    if (dyno_cgb_char_needs_escape (g_utf8_get_char (p)))
      {
        plain = FALSE;
        break;
      }

  if (plain)
    {
      g_string_append_c (out, '\'');
      for (const char *p = text; p < end; p++)
        {
          if (*p == '\'' || *p == '\\')
            g_string_append_c (out, '\\');
          g_string_append_c (out, *p);
        }
      g_string_append_c (out, '\'');
      return;
    }

  g_string_append_c (out, '"');
  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '"' || c == '\\' || (ruby && c == '#') || (!ruby && c == '$'))
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
        }
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (dyno_cgb_char_needs_escape (c))
        g_string_append_printf (out, "\\u{%x}", c);  /* both languages spell it so */
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  g_string_append_c (out, '"');
}

static inline void
dyno_cgb_append_script_string (GString    *out,
                               const char *text,
                               gboolean    ruby)
{
  dyno_cgb_append_script_string_len (out, text, strlen (text), ruby);
}

/* Printable ASCII stays as is, every other byte as \xHH: a Go/Rust/Ruby byte-string body. */
static inline void
dyno_cgb_append_byte_escapes (GString      *out,
                              const guint8 *data,
                              gsize         len,
                              gboolean      escape_hash)
{
  for (gsize i = 0; i < len; i++)
    {
      guint8 b = data[i];

      if (b == '"' || b == '\\' || (escape_hash && b == '#'))
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) b);
        }
      else if (b >= 0x20 && b < 0x7f)
        g_string_append_c (out, (char) b);
      else
        g_string_append_printf (out, "\\x%02x", b);
    }
}

static inline void
dyno_cgb_append_base64 (GString      *out,
                        const guint8 *data,
                        gsize         len)
{
  g_autofree char *b64 = g_base64_encode (data, len);

  g_string_append (out, b64);
}

/* How one language writes a map literal: the members of an M value, or the placeholders of
 * ExpressionAttributeNames/-Values.  PHP, Ruby, Kotlin and .NET write the same thing, one
 * `key SEP value,` line a member, and differ only in these words. */
typedef struct {
  const char *head;           /* always written first ("new Dictionary<…>") */
  const char *empty;          /* after @head when there are no members ("[]") */
  gboolean    open_own_line;  /* @open on a line of its own, at the map's indent */
  const char *open;           /* "[\n", "{\n", "mapOf(\n" */
  const char *key_open;       /* before a key ("[") */
  const char *arrow;          /* between key and value (" => ", " to ", "] = ") */
  char        close;          /* after the closing indent */
  guint       step;           /* the members' indent, beyond the map's */
  void      (*append_string) (GString *out, const char *text, gsize len);
  void      (*append_value)  (GString *out, const DynoValue *value, guint indent);
} DynoCgbMapStyle;

/* @kind: DYNO_CGB_ITEM (the members of @map), DYNO_CGB_NAMES or DYNO_CGB_VALUES (from
 * @printed).  The closing bracket at @indent. */
static inline void
dyno_cgb_append_map (GString                  *out,
                     const DynoCgbMapStyle    *style,
                     DynoCgbKind               kind,
                     const DynoValue          *map,
                     const DynoPrintedRequest *printed,
                     guint                     indent)
{
  guint n;

  if (kind == DYNO_CGB_ITEM)
    n = dyno_value_get_n_children (map);
  else if (kind == DYNO_CGB_NAMES)
    n = printed->name_placeholders->len;
  else
    n = printed->value_placeholders->len;

  g_string_append (out, style->head);
  if (n == 0)
    {
      g_string_append (out, style->empty);
      return;
    }
  if (style->open_own_line)
    {
      g_string_append_c (out, '\n');
      dyno_cgb_indent (out, indent, 1);
    }
  g_string_append (out, style->open);
  for (guint i = 0; i < n; i++)
    {
      dyno_cgb_indent (out, indent + style->step, 1);
      g_string_append (out, style->key_open);
      if (kind == DYNO_CGB_ITEM)
        {
          gsize len;
          const char *name = dyno_value_get_member_name (map, i, &len);

          style->append_string (out, name, len);
          g_string_append (out, style->arrow);
          style->append_value (out, dyno_value_get_child (map, i), indent + style->step);
        }
      else if (kind == DYNO_CGB_NAMES)
        {
          const char *placeholder = g_ptr_array_index (printed->name_placeholders, i);
          const char *name = g_ptr_array_index (printed->names, i);

          style->append_string (out, placeholder, strlen (placeholder));
          g_string_append (out, style->arrow);
          style->append_string (out, name, strlen (name));
        }
      else
        {
          const char *placeholder = g_ptr_array_index (printed->value_placeholders, i);

          style->append_string (out, placeholder, strlen (placeholder));
          g_string_append (out, style->arrow);
          style->append_value (out, g_ptr_array_index (printed->values, i),
                               indent + style->step);
        }
      g_string_append (out, ",\n");
    }
  dyno_cgb_indent (out, indent, 1);
  g_string_append_c (out, style->close);
}

/* The members of an SS, NS or BS value, separated by ", ": text with @append_string, binary
 * with @append_bytes.  Every emitter writes a set's members this way, inside its own
 * brackets. */
static inline void
dyno_cgb_append_set_members (GString         *out,
                             const DynoValue *set,
                             void           (*append_string) (GString    *out,
                                                              const char *text,
                                                              gsize       len),
                             void           (*append_bytes)  (GString      *out,
                                                              const guint8 *data,
                                                              gsize         len))
{
  gboolean binary = dyno_value_get_kind (set) == DYNO_VALUE_BS;

  for (guint i = 0; i < dyno_value_get_n_children (set); i++)
    {
      const DynoValue *member = dyno_value_get_child (set, i);
      gsize len;

      if (i > 0)
        g_string_append (out, ", ");
      if (binary)
        {
          const guint8 *data = dyno_value_get_binary (member, &len);

          append_bytes (out, data, len);
        }
      else
        {
          const char *text = dyno_value_get_string (member, &len);

          append_string (out, text, len);
        }
    }
}

/* The elements of an L value, one a line at @indent, each followed by ",\n". */
static inline void
dyno_cgb_append_list_items (GString         *out,
                            const DynoValue *list,
                            guint            indent,
                            void           (*append_value) (GString         *out,
                                                            const DynoValue *value,
                                                            guint            indent))
{
  for (guint i = 0; i < dyno_value_get_n_children (list); i++)
    {
      dyno_cgb_indent (out, indent, 1);
      append_value (out, dyno_value_get_child (list, i), indent);
      g_string_append (out, ",\n");
    }
}

/* How PHP, Ruby, Kotlin and .NET write a request's members: one `name SEP value END` line
 * each, strings and maps in the language's own style. */
typedef struct {
  void                  (*append_name) (GString *out, const char *api_name);  /* and SEP */
  /* NULL: an enum member is written as a string */
  void                  (*append_enum) (GString *out, const DynoCgbField *field);
  const DynoCgbMapStyle  *map_style;    /* items and ExpressionAttributeValues; its
                                         * append_string writes every string */
  const DynoCgbMapStyle  *names_style;  /* ExpressionAttributeNames */
  const char             *end;          /* after each member */
} DynoCgbFieldStyle;

/* The members of @request, one a line at @indent. */
static inline void
dyno_cgb_append_fields (GString                  *out,
                        const DynoCgbFieldStyle  *style,
                        const DynoRequest        *request,
                        const DynoPrintedRequest *printed,
                        guint                     indent)
{
  g_autoptr(GArray) fields = dyno_cgb_collect_fields (request, printed);

  for (guint i = 0; i < fields->len; i++)
    {
      DynoCgbField *field = &g_array_index (fields, DynoCgbField, i);

      dyno_cgb_indent (out, indent, 1);
      style->append_name (out, field->api_name);
      switch (field->kind)
        {
        case DYNO_CGB_ENUM:
          if (style->append_enum != NULL)
            {
              style->append_enum (out, field);
              break;
            }
          G_GNUC_FALLTHROUGH;
        case DYNO_CGB_STRING:
          style->map_style->append_string (out, field->text, strlen (field->text));
          break;
        case DYNO_CGB_INT:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, field->number);
          break;
        case DYNO_CGB_BOOL:
          g_string_append (out, field->flag ? "true" : "false");
          break;
        case DYNO_CGB_NAMES:
          dyno_cgb_append_map (out, style->names_style, DYNO_CGB_NAMES, NULL, printed, indent);
          break;
        case DYNO_CGB_VALUES:
          dyno_cgb_append_map (out, style->map_style, DYNO_CGB_VALUES, NULL, printed, indent);
          break;
        case DYNO_CGB_ITEM:
          dyno_cgb_append_map (out, style->map_style, DYNO_CGB_ITEM, field->map, NULL, indent);
          break;
        default:
          g_assert_not_reached ();
        }
      g_string_append (out, style->end);
    }
}

/* Attribute names and map keys are S text; values come typed from DynoValue. */
static inline const char *
dyno_cgb_value_text (const DynoValue *value)
{
  return dyno_value_get_string (value, NULL);
}

static inline const char *
dyno_cgb_operation_snake (DynoOperation op)
{
  switch (op)
    {
    case DYNO_OP_QUERY: return "query";
    case DYNO_OP_SCAN: return "scan";
    case DYNO_OP_GET_ITEM: return "get_item";
    case DYNO_OP_PUT_ITEM: return "put_item";
    case DYNO_OP_UPDATE_ITEM: return "update_item";
    case DYNO_OP_DELETE_ITEM: return "delete_item";
    default: g_assert_not_reached ();
    }
  return NULL;
}

/* "Query", "GetItem", …: request types and PHP/C++/Go method names. */
static inline const char *
dyno_cgb_operation_pascal (DynoOperation op)
{
  return dyno_operation_to_string (op);
}

G_END_DECLS
