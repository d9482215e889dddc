/* dyno-export.c: items out as JSON lines (DynamoDB JSON or plain JSON) or CSV, streaming
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-export.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"

struct _DynoExporter {
  DynoExportFormat  format;
  DynoTableInfo    *schema;
  GPtrArray        *columns;         /* char*, CSV */
  GHashTable       *column_index;    /* name → index + 1 */
  GHashTable       *column_types;    /* name → type (given) */
  GArray           *resolved_types;  /* int per column, once the header is written */
  gboolean          fixed_columns;
  gboolean          drop_others;
  gboolean          type_row;
  gboolean          header_written;
  GPtrArray        *buffered;        /* DynoItem*, CSV without fixed columns */
  GHashTable       *type_masks;      /* name → bit mask of DynoValueTypes seen */
  GPtrArray        *seen_order;      /* char*: attributes in order of first appearance */
  guint64           n_items;
  GString          *scratch;
};

static const char * const format_names[] = {
  [DYNO_EXPORT_DDB_JSONL] = "ddb-jsonl",
  [DYNO_EXPORT_PLAIN_JSONL] = "plain-jsonl",
  [DYNO_EXPORT_CSV] = "csv",
};

const char *
dyno_export_format_to_string (DynoExportFormat format)
{
  g_return_val_if_fail ((guint) format < G_N_ELEMENTS (format_names), NULL);

  return format_names[format];
}

gboolean
dyno_export_format_from_string (const char       *text,
                                DynoExportFormat *out_format)
{
  static const struct {
    const char       *name;
    DynoExportFormat  format;
  } aliases[] = {
    { "ddb-jsonl", DYNO_EXPORT_DDB_JSONL }, { "ddb", DYNO_EXPORT_DDB_JSONL },
    { "jsonl", DYNO_EXPORT_DDB_JSONL }, { "dynamodb-jsonl", DYNO_EXPORT_DDB_JSONL },
    { "plain-jsonl", DYNO_EXPORT_PLAIN_JSONL }, { "plain", DYNO_EXPORT_PLAIN_JSONL },
    { "csv", DYNO_EXPORT_CSV },
  };

  g_return_val_if_fail (text != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_ascii_strcasecmp (text, aliases[i].name) == 0)
      {
        if (out_format != NULL)
          *out_format = aliases[i].format;
        return TRUE;
      }

  return FALSE;
}

DynoExporter *
dyno_exporter_new (DynoExportFormat  format,
                   DynoTableInfo    *schema)
{
  DynoExporter *self = g_new0 (DynoExporter, 1);

  self->format = format;
  self->schema = schema != NULL ? dyno_table_info_ref (schema) : NULL;
  self->columns = g_ptr_array_new_with_free_func (g_free);
  self->column_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->column_types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->resolved_types = g_array_new (FALSE, FALSE, sizeof (int));
  self->type_row = TRUE;
  self->buffered = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  self->type_masks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->seen_order = g_ptr_array_new ();
  self->scratch = g_string_new (NULL);

  return self;
}

void
dyno_exporter_free (DynoExporter *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->schema, dyno_table_info_unref);
  g_hash_table_unref (self->column_index);
  g_ptr_array_unref (self->columns);
  g_hash_table_unref (self->column_types);
  g_array_unref (self->resolved_types);
  g_ptr_array_unref (self->buffered);
  g_ptr_array_unref (self->seen_order);
  g_hash_table_unref (self->type_masks);
  g_string_free (self->scratch, TRUE);
  g_free (self);
}

static void
add_column (DynoExporter *self,
            const char   *name)
{
  char *copy;

  if (g_hash_table_contains (self->column_index, name))
    return;

  copy = g_strdup (name);
  g_ptr_array_add (self->columns, copy);
  g_hash_table_insert (self->column_index, copy, GUINT_TO_POINTER (self->columns->len));
}

void
dyno_exporter_set_columns (DynoExporter       *self,
                           const char * const *columns)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->header_written);

  g_hash_table_remove_all (self->column_index);
  g_ptr_array_set_size (self->columns, 0);
  for (guint i = 0; columns != NULL && columns[i] != NULL; i++)
    add_column (self, columns[i]);
  self->fixed_columns = columns != NULL;
}

void
dyno_exporter_set_drop_other_attributes (DynoExporter *self,
                                         gboolean      drop)
{
  g_return_if_fail (self != NULL);

  self->drop_others = drop;
}

void
dyno_exporter_set_column_type (DynoExporter *self,
                               const char   *column,
                               int           type)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (column != NULL);
  g_return_if_fail (type == DYNO_CSV_TYPE_ANY || (type >= 0 && type < DYNO_VALUE_N_TYPES));

  g_hash_table_insert (self->column_types, g_strdup (column), GINT_TO_POINTER (type));
}

void
dyno_exporter_set_type_row (DynoExporter *self,
                            gboolean      type_row)
{
  g_return_if_fail (self != NULL);

  self->type_row = type_row;
}

guint64
dyno_exporter_get_n_items (DynoExporter *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_items;
}

/* Which types each attribute had: for the plain-JSON type hints and the CSV column types. */
static void
record_types (DynoExporter   *self,
              const DynoItem *item)
{
  const DynoValue *map = dyno_item_get_map (item);
  guint n = dyno_value_get_n_children (map);

  for (guint i = 0; i < n; i++)
    {
      const char *name = dyno_value_get_member_name (map, i, NULL);
      guint bit = 1u << dyno_value_get_kind (dyno_value_get_child (map, i));
      guint *mask = g_hash_table_lookup (self->type_masks, name);

      if (mask == NULL)
        {
          char *copy = g_strdup (name);

          mask = g_new0 (guint, 1);
          g_hash_table_insert (self->type_masks, copy, mask);
          g_ptr_array_add (self->seen_order, copy);
        }
      *mask |= bit;
    }
}

static guint
mask_of (DynoExporter *self,
         const char   *name)
{
  guint *mask = g_hash_table_lookup (self->type_masks, name);

  return mask != NULL ? *mask : 0;
}

static int
type_from_mask (guint mask)
{
  for (int t = 0; t < DYNO_VALUE_N_TYPES; t++)
    if (mask == (1u << t))
      return t;

  return DYNO_CSV_TYPE_ANY;
}

/* ---- CSV --------------------------------------------------------------------------------- */

void
dyno_csv_write_field (GString    *out,
                      const char *text,
                      gsize       len,
                      gboolean    force_quote)
{
  gboolean quote = force_quote;

  g_return_if_fail (out != NULL);

  for (gsize i = 0; i < len && !quote; i++)
    if (text[i] == ',' || text[i] == '"' || text[i] == '\r' || text[i] == '\n')
      quote = TRUE;

  if (!quote)
    {
      g_string_append_len (out, text, len);
      return;
    }

  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, text[i]);
    }
  g_string_append_c (out, '"');
}

static const char *
column_type_name (int type)
{
  return type == DYNO_CSV_TYPE_ANY ? "ANY" : dyno_value_type_to_string (type);
}

gboolean
dyno_csv_format_cell (const DynoValue *value,
                      int              type,
                      GString         *out)
{
  DynoValueType kind;
  const char *s;
  gsize len;
  guint n;

  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  kind = dyno_value_get_kind (value);
  if (type == DYNO_CSV_TYPE_ANY)
    {
      dyno_value_write_ddb_json (value, out);
      return TRUE;
    }
  if ((int) kind != type)
    return FALSE;

  switch (kind)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
      s = dyno_value_get_string (value, &len);
      g_string_append_len (out, s, len);
      break;
    case DYNO_VALUE_B:
      {
        const guint8 *b = dyno_value_get_binary (value, &len);
        g_autofree char *text = len > 0 ? g_base64_encode (b, len) : g_strdup ("");

        g_string_append (out, text);
      }
      break;
    case DYNO_VALUE_BOOL:
      g_string_append (out, dyno_value_get_bool (value) ? "true" : "false");
      break;
    case DYNO_VALUE_NULL:
      g_string_append (out, "null");
      break;
    case DYNO_VALUE_M:
      dyno_map_write_ddb_item (value, out);
      break;
    case DYNO_VALUE_L:
      n = dyno_value_get_n_children (value);
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          dyno_value_write_ddb_json (dyno_value_get_child (value, i), out);
        }
      g_string_append_c (out, ']');
      break;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      n = dyno_value_get_n_children (value);
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          const DynoValue *child = dyno_value_get_child (value, i);

          if (i > 0)
            g_string_append_c (out, ',');
          if (kind == DYNO_VALUE_NS)
            g_string_append (out, dyno_value_get_string (child, NULL));
          else if (kind == DYNO_VALUE_SS)
            {
              s = dyno_value_get_string (child, &len);
              dyno_json_write_string (out, s, len);
            }
          else
            {
              const guint8 *b = dyno_value_get_binary (child, &len);
              g_autofree char *text = len > 0 ? g_base64_encode (b, len) : g_strdup ("");

              dyno_json_write_string (out, text, -1);
            }
        }
      g_string_append_c (out, ']');
      break;
    default:
      g_assert_not_reached ();
    }

  return TRUE;
}

static void
write_csv_header (DynoExporter *self,
                  GString      *out)
{
  for (guint i = 0; i < self->columns->len; i++)
    {
      const char *name = g_ptr_array_index (self->columns, i);

      if (i > 0)
        g_string_append_c (out, ',');
      dyno_csv_write_field (out, name, strlen (name), FALSE);
    }
  g_string_append (out, "\r\n");

  if (self->type_row && self->columns->len > 0)
    {
      g_string_append (out, DYNO_CSV_TYPE_ROW_MARKER);
      for (guint i = 0; i < self->columns->len; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          g_string_append (out, column_type_name (g_array_index (self->resolved_types, int, i)));
        }
      g_string_append (out, "\r\n");
    }

  self->header_written = TRUE;
}

/* Column types once the columns are known: given, else from the values seen. */
static void
resolve_types (DynoExporter *self)
{
  g_array_set_size (self->resolved_types, 0);
  for (guint i = 0; i < self->columns->len; i++)
    {
      const char *name = g_ptr_array_index (self->columns, i);
      gpointer given;
      int type;

      if (g_hash_table_lookup_extended (self->column_types, name, NULL, &given))
        type = GPOINTER_TO_INT (given);
      else
        type = type_from_mask (mask_of (self, name));
      g_array_append_val (self->resolved_types, type);
    }
}

static gboolean
write_csv_row (DynoExporter  *self,
               DynoItem      *item,
               guint64        item_number,
               GString       *out,
               GError       **error)
{
  const DynoValue *map = dyno_item_get_map (item);
  guint n = dyno_value_get_n_children (map);
  gsize start = out->len;

  if (!self->drop_others)
    for (guint i = 0; i < n; i++)
      {
        const char *name = dyno_value_get_member_name (map, i, NULL);

        if (!g_hash_table_contains (self->column_index, name))
          {
            g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                         /* Translators: the item's number, then the attribute. */
                         _("Item %" PRIu64 " has the attribute %s, which is not "
                           "among the CSV columns."), item_number, name);
            return FALSE;
          }
      }

  for (guint i = 0; i < self->columns->len; i++)
    {
      const char *name = g_ptr_array_index (self->columns, i);
      const DynoValue *value = dyno_value_lookup (map, name);
      int type = g_array_index (self->resolved_types, int, i);
      gboolean force_quote;

      if (i > 0)
        g_string_append_c (out, ',');
      if (value == NULL)
        continue;

      g_string_truncate (self->scratch, 0);
      if (!dyno_csv_format_cell (value, type, self->scratch))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                       /* Translators: the item's number, the attribute, its type, then the
                        * column's type. */
                       _("Item %" PRIu64 ": the attribute %s is of type %s, but its "
                         "CSV column has type %s (give the column the type ANY to keep "
                         "values of several types)."), item_number, name,
                       dyno_value_type_to_string (dyno_value_get_kind (value)),
                       column_type_name (type));
          g_string_truncate (out, start);
          return FALSE;
        }
      /* An empty cell means "absent": an empty value is written as "" to tell it apart, and
       * a first cell starting with '#' is quoted so it never reads as the type row. */
      force_quote = self->scratch->len == 0 || (i == 0 && self->scratch->str[0] == '#');
      dyno_csv_write_field (out, self->scratch->str, self->scratch->len, force_quote);
    }
  g_string_append (out, "\r\n");

  return TRUE;
}

/* The columns of a buffered export: the keys first, then in order of first appearance. */
static void
infer_columns (DynoExporter *self)
{
  if (self->schema != NULL)
    {
      const DynoKeyAttr *pk = dyno_table_info_get_partition_key (self->schema);
      const DynoKeyAttr *sk = dyno_table_info_get_sort_key (self->schema);

      if (pk != NULL && pk->name != NULL && g_hash_table_contains (self->type_masks, pk->name))
        add_column (self, pk->name);
      if (sk != NULL && sk->name != NULL && g_hash_table_contains (self->type_masks, sk->name))
        add_column (self, sk->name);
    }
  for (guint i = 0; i < self->seen_order->len; i++)
    add_column (self, g_ptr_array_index (self->seen_order, i));
}

void
dyno_exporter_observe (DynoExporter *self,
                       DynoItem     *item)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (item != NULL);

  record_types (self, item);
}

void
dyno_exporter_fix_observed_columns (DynoExporter *self)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->header_written);

  g_hash_table_remove_all (self->column_index);
  g_ptr_array_set_size (self->columns, 0);
  infer_columns (self);
  self->fixed_columns = TRUE;
  /* the types seen over the whole first pass, not just the first item's */
  resolve_types (self);
  for (guint i = 0; i < self->columns->len; i++)
    if (!g_hash_table_contains (self->column_types, g_ptr_array_index (self->columns, i)))
      g_hash_table_insert (self->column_types, g_strdup (g_ptr_array_index (self->columns, i)),
                           GINT_TO_POINTER (g_array_index (self->resolved_types, int, i)));
}

/* ---- items ------------------------------------------------------------------------------- */

gboolean
dyno_exporter_add_item (DynoExporter  *self,
                        DynoItem      *item,
                        GString       *out,
                        GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (item != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  switch (self->format)
    {
    case DYNO_EXPORT_DDB_JSONL:
      dyno_map_write_ddb_item (dyno_item_get_map (item), out);
      g_string_append_c (out, '\n');
      break;
    case DYNO_EXPORT_PLAIN_JSONL:
      record_types (self, item);
      dyno_value_write_plain_json (dyno_item_get_map (item), out);
      g_string_append_c (out, '\n');
      break;
    case DYNO_EXPORT_CSV:
      if (!self->fixed_columns)
        {
          record_types (self, item);
          g_ptr_array_add (self->buffered, dyno_item_ref (item));
          break;
        }
      if (!self->header_written)
        {
          /* Streaming: the first item decides the types the caller did not give. */
          record_types (self, item);
          resolve_types (self);
          write_csv_header (self, out);
        }
      if (!write_csv_row (self, item, self->n_items + 1, out, error))
        return FALSE;
      break;
    default:
      g_return_val_if_reached (FALSE);
    }

  self->n_items++;
  return TRUE;
}

gboolean
dyno_exporter_finish (DynoExporter  *self,
                      GString       *out,
                      GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (self->format != DYNO_EXPORT_CSV || self->header_written)
    return TRUE;

  if (!self->fixed_columns)
    infer_columns (self);
  resolve_types (self);
  write_csv_header (self, out);

  for (guint i = 0; i < self->buffered->len; i++)
    if (!write_csv_row (self, g_ptr_array_index (self->buffered, i), i + 1, out, error))
      return FALSE;

  g_ptr_array_set_size (self->buffered, 0);
  return TRUE;
}

char *
dyno_exporter_dup_type_hints (DynoExporter *self,
                              gboolean     *out_ambiguous)
{
  g_autoptr(GString) hints = g_string_new (NULL);
  const guint lossy = (1u << DYNO_VALUE_B) | (1u << DYNO_VALUE_SS) | (1u << DYNO_VALUE_NS)
                      | (1u << DYNO_VALUE_BS);
  gboolean ambiguous = FALSE;

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->seen_order->len; i++)
    {
      const char *name = g_ptr_array_index (self->seen_order, i);
      guint mask = mask_of (self, name);
      int type;

      if ((mask & lossy) == 0)
        continue;
      type = type_from_mask (mask);
      if (type == DYNO_CSV_TYPE_ANY)
        {
          ambiguous = TRUE;
          continue;
        }
      if (hints->len > 0)
        g_string_append_c (hints, ',');
      g_string_append_printf (hints, "%s:%s", name, dyno_value_type_to_string (type));
    }

  if (out_ambiguous != NULL)
    *out_ambiguous = ambiguous;

  return hints->len > 0 ? g_string_free (g_steal_pointer (&hints), FALSE) : NULL;
}

/* ---- streams ----------------------------------------------------------------------------- */

static gboolean
flush_scratch (GString       *text,
               GOutputStream *stream,
               GCancellable  *cancellable,
               GError       **error)
{
  gboolean ok = TRUE;

  if (text->len > 0)
    ok = g_output_stream_write_all (stream, text->str, text->len, NULL, cancellable, error);
  g_string_truncate (text, 0);

  return ok;
}

gboolean
dyno_exporter_write_item (DynoExporter   *self,
                          DynoItem       *item,
                          GOutputStream  *stream,
                          GCancellable   *cancellable,
                          GError        **error)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  if (!dyno_exporter_add_item (self, item, text, error))
    return FALSE;

  return flush_scratch (text, stream, cancellable, error);
}

gboolean
dyno_exporter_close (DynoExporter   *self,
                     GOutputStream  *stream,
                     GCancellable   *cancellable,
                     GError        **error)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  if (!dyno_exporter_finish (self, text, error))
    return FALSE;

  return flush_scratch (text, stream, cancellable, error)
         && g_output_stream_flush (stream, cancellable, error);
}

char *
dyno_export_items (GPtrArray         *items,
                   DynoExportFormat   format,
                   DynoTableInfo     *schema,
                   GError           **error)
{
  g_autoptr(DynoExporter) exporter = dyno_exporter_new (format, schema);
  g_autoptr(GString) out = g_string_new (NULL);

  g_return_val_if_fail (items != NULL, NULL);

  for (guint i = 0; i < items->len; i++)
    if (!dyno_exporter_add_item (exporter, g_ptr_array_index (items, i), out, error))
      return NULL;
  if (!dyno_exporter_finish (exporter, out, error))
    return NULL;

  return g_string_free (g_steal_pointer (&out), FALSE);
}
