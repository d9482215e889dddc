/* dyno-import.c: a streaming reader of JSON lines, JSON arrays and CSV into items, with a
 * report of every rejected row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-import.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-export.h"
#include "dyno-json.h"
#include "dyno-json-private.h"
#include "dyno-value-private.h"
#include "dyno-request.h"

/* dynamodb-facts.md §3.4: 409,600 bytes is accepted, one more is not. */
#define MAX_ITEM_BYTES 409600
/* Consumed input is dropped from the buffer once this much has piled up. */
#define COMPACT_BYTES (256 * 1024)

typedef enum {
  JSON_KIND_UNDECIDED,
  JSON_KIND_DDB,
  JSON_KIND_PLAIN,
} JsonKind;

typedef enum {
  ARRAY_BEFORE,      /* before '[' */
  ARRAY_FIRST,       /* after '[': an element or ']' */
  ARRAY_NEXT,        /* after an element's ',' : an element */
  ARRAY_DONE,        /* after ']' */
} ArrayState;

struct _DynoImporter {
  DynoImportFormat  format;
  DynoTableInfo    *schema;
  GHashTable       *mapping;       /* name → type, given */
  GHashTable       *hints;         /* mapping + schema key types, for plain JSON */
  JsonKind          json_kind;

  GString          *buf;
  gsize             pos;
  guint64           dropped;       /* bytes removed from the front of buf */
  gboolean          eof;
  guint64           line;          /* 1-based line at pos */
  guint64           row;           /* records started so far */
  guint64           record_line;   /* where the last record started */
  gboolean          finished;

  /* JSON array */
  ArrayState        array_state;

  /* CSV */
  gboolean          have_header;
  gboolean          header_checked_for_types;
  GPtrArray        *columns;       /* char* */
  GArray           *column_types;  /* int (DynoValueType or DYNO_CSV_TYPE_ANY) */
  GPtrArray        *fields;        /* GString*, reused */
  GArray           *quoted;        /* gboolean per field */

  guint64           n_items;
  guint64           n_rejected;
};

static const char * const format_names[] = {
  [DYNO_IMPORT_AUTO] = "auto",
  [DYNO_IMPORT_DDB_JSONL] = "ddb-jsonl",
  [DYNO_IMPORT_PLAIN_JSONL] = "plain-jsonl",
  [DYNO_IMPORT_JSON_ARRAY] = "json-array",
  [DYNO_IMPORT_DDB_JSON_ARRAY] = "ddb-json-array",
  [DYNO_IMPORT_PLAIN_JSON_ARRAY] = "plain-json-array",
  [DYNO_IMPORT_CSV] = "csv",
};

const char *
dyno_import_format_to_string (DynoImportFormat format)
{
  g_return_val_if_fail ((guint) format < G_N_ELEMENTS (format_names), NULL);

  return format_names[format];
}

gboolean
dyno_import_format_from_string (const char       *text,
                                DynoImportFormat *out_format)
{
  static const struct {
    const char       *name;
    DynoImportFormat  format;
  } aliases[] = {
    { "ddb", DYNO_IMPORT_DDB_JSONL }, { "jsonl", DYNO_IMPORT_DDB_JSONL },
    { "dynamodb-jsonl", DYNO_IMPORT_DDB_JSONL }, { "plain", DYNO_IMPORT_PLAIN_JSONL },
    { "json", DYNO_IMPORT_JSON_ARRAY },
  };

  g_return_val_if_fail (text != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (format_names); i++)
    if (g_ascii_strcasecmp (text, format_names[i]) == 0)
      {
        if (out_format != NULL)
          *out_format = i;
        return TRUE;
      }
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_ascii_strcasecmp (text, aliases[i].name) == 0)
      {
        if (out_format != NULL)
          *out_format = aliases[i].format;
        return TRUE;
      }

  return FALSE;
}

static gboolean
parse_column_type (const char *text,
                   gsize       len,
                   int        *out)
{
  g_autofree char *upper = g_ascii_strup (text, len);
  DynoValueType type;

  g_strstrip (upper);
  if (strcmp (upper, "ANY") == 0)
    {
      *out = DYNO_CSV_TYPE_ANY;
      return TRUE;
    }
  if (!dyno_value_type_from_string (upper, &type))
    return FALSE;
  *out = type;
  return TRUE;
}

GHashTable *
dyno_import_parse_type_mapping (const char  *text,
                                GError     **error)
{
  g_autoptr(GHashTable) mapping = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) entries = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  entries = g_strsplit (text, ",", -1);
  for (guint i = 0; entries[i] != NULL; i++)
    {
      const char *entry = entries[i];
      const char *colon = strrchr (entry, ':');
      g_autofree char *name = NULL;
      int type;

      while (g_ascii_isspace (*entry))
        entry++;
      if (*entry == '\0')
        continue;
      if (colon == NULL || colon == entry)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("\"%s\" is not of the form attribute:TYPE (e.g. tags:SS)."), entry);
          return NULL;
        }
      if (!parse_column_type (colon + 1, strlen (colon + 1), &type))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("\"%s\": %s is not a type; use S, N, B, BOOL, NULL, M, L, SS, NS, BS "
                         "(or ANY for a CSV column of DynamoDB JSON values)."), entry, colon + 1);
          return NULL;
        }
      name = g_strstrip (g_strndup (entry, colon - entry));
      g_hash_table_insert (mapping, g_steal_pointer (&name), GINT_TO_POINTER (type));
    }

  return g_steal_pointer (&mapping);
}

void
dyno_import_reject_free (DynoImportReject *reject)
{
  if (reject == NULL)
    return;

  g_free (reject->reason);
  g_free (reject);
}

/* ---- checks ------------------------------------------------------------------------------ */

char *
dyno_import_check_item (const DynoTableInfo *schema,
                        const DynoItem      *item)
{
  const DynoValue *map;
  gsize size;

  g_return_val_if_fail (item != NULL, NULL);

  map = dyno_item_get_map (item);
  for (guint i = 0; i < dyno_value_get_n_children (map); i++)
    {
      gsize len = 0;

      dyno_value_get_member_name (map, i, &len);
      if (len == 0)
        return g_strdup (_("An attribute name is empty; DynamoDB needs names of at least one "
                           "character."));
    }

  if (schema != NULL)
    {
      g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_PUT_ITEM,
                                                         dyno_table_info_get_name (schema));
      g_autoptr(GPtrArray) issues = NULL;

      request->item = dyno_item_ref ((DynoItem *) item);
      issues = dyno_request_validate (request, schema);
      if (issues != NULL && issues->len > 0)
        {
          g_autoptr(GString) reason = g_string_new (NULL);

          for (guint i = 0; i < issues->len; i++)
            {
              const DynoIssue *issue = g_ptr_array_index (issues, i);
              const char *message = issue->message;

              /* only the item's own problems (not, say, the table name's) */
              if (g_strcmp0 (issue->field, "Item") != 0)
                continue;

              /* "Item: the item must …" → "The item must …": the row is the context. */
              if (g_str_has_prefix (message, "Item: "))
                message += strlen ("Item: ");
              if (reason->len > 0)
                g_string_append (reason, " ");
              g_string_append_unichar (reason, g_unichar_toupper (g_utf8_get_char (message)));
              g_string_append (reason, g_utf8_next_char (message));
            }
          if (reason->len > 0)
            return g_string_free (g_steal_pointer (&reason), FALSE);
        }
    }

  size = dyno_item_get_size (item);
  if (size > MAX_ITEM_BYTES)
    return g_strdup_printf (_("Item size has exceeded the maximum allowed size: the item is "
                              "%zu bytes, DynamoDB's limit is 400 KB "
                              "(409,600 bytes)."), size);

  return NULL;
}

char *
dyno_import_key_string (const DynoTableInfo *schema,
                        const DynoItem      *item)
{
  const DynoKeyAttr *keys[2];
  g_autoptr(GString) out = g_string_new (NULL);

  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (item != NULL, NULL);

  keys[0] = dyno_table_info_get_partition_key (schema);
  keys[1] = dyno_table_info_get_sort_key (schema);
  for (guint i = 0; i < 2; i++)
    {
      const DynoValue *value;

      if (keys[i] == NULL || keys[i]->name == NULL)
        continue;
      value = dyno_item_lookup (item, keys[i]->name);
      if (value == NULL)
        return NULL;
      if (i > 0)
        g_string_append_c (out, '\x1f');
      dyno_value_write_ddb_json (value, out);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* ---- the importer ------------------------------------------------------------------------ */

static void
free_field (gpointer data)
{
  g_string_free (data, TRUE);
}

DynoImporter *
dyno_importer_new (DynoImportFormat  format,
                   DynoTableInfo    *schema)
{
  DynoImporter *self = g_new0 (DynoImporter, 1);

  self->format = format;
  self->schema = schema != NULL ? dyno_table_info_ref (schema) : NULL;
  self->buf = g_string_new (NULL);
  self->line = 1;
  self->columns = g_ptr_array_new_with_free_func (g_free);
  self->column_types = g_array_new (FALSE, FALSE, sizeof (int));
  self->fields = g_ptr_array_new_with_free_func (free_field);
  self->quoted = g_array_new (FALSE, FALSE, sizeof (gboolean));

  if (format == DYNO_IMPORT_DDB_JSONL || format == DYNO_IMPORT_DDB_JSON_ARRAY)
    self->json_kind = JSON_KIND_DDB;
  else if (format == DYNO_IMPORT_PLAIN_JSONL || format == DYNO_IMPORT_PLAIN_JSON_ARRAY)
    self->json_kind = JSON_KIND_PLAIN;

  return self;
}

void
dyno_importer_free (DynoImporter *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->schema, dyno_table_info_unref);
  g_clear_pointer (&self->mapping, g_hash_table_unref);
  g_clear_pointer (&self->hints, g_hash_table_unref);
  g_string_free (self->buf, TRUE);
  g_ptr_array_unref (self->columns);
  g_array_unref (self->column_types);
  g_ptr_array_unref (self->fields);
  g_array_unref (self->quoted);
  g_free (self);
}

void
dyno_importer_set_type_mapping (DynoImporter *self,
                                GHashTable   *mapping)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->mapping, g_hash_table_unref);
  g_clear_pointer (&self->hints, g_hash_table_unref);
  if (mapping != NULL)
    self->mapping = g_hash_table_ref (mapping);
}

void
dyno_importer_feed (DynoImporter *self,
                    const char   *data,
                    gsize         len)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->eof);

  if (self->pos >= COMPACT_BYTES && self->pos * 2 >= self->buf->len)
    {
      g_string_erase (self->buf, 0, self->pos);
      self->dropped += self->pos;
      self->pos = 0;
    }
  g_string_append_len (self->buf, data, len);
}

void
dyno_importer_feed_eof (DynoImporter *self)
{
  g_return_if_fail (self != NULL);

  self->eof = TRUE;
}

DynoImportFormat
dyno_importer_get_format (DynoImporter *self)
{
  g_return_val_if_fail (self != NULL, DYNO_IMPORT_AUTO);

  if (self->format == DYNO_IMPORT_DDB_JSONL || self->format == DYNO_IMPORT_PLAIN_JSONL)
    return self->json_kind == JSON_KIND_PLAIN ? DYNO_IMPORT_PLAIN_JSONL : self->format;
  if (self->format == DYNO_IMPORT_JSON_ARRAY)
    return self->json_kind == JSON_KIND_DDB ? DYNO_IMPORT_DDB_JSON_ARRAY
           : self->json_kind == JSON_KIND_PLAIN ? DYNO_IMPORT_PLAIN_JSON_ARRAY
           : DYNO_IMPORT_JSON_ARRAY;
  return self->format;
}

guint64
dyno_importer_get_record_line (DynoImporter *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->record_line;
}

guint64
dyno_importer_get_n_items (DynoImporter *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_items;
}

guint64
dyno_importer_get_n_rejected (DynoImporter *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_rejected;
}

guint64
dyno_importer_get_bytes_read (DynoImporter *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->dropped + self->pos;
}

static void
consume (DynoImporter *self,
         gsize         n)
{
  const char *p = self->buf->str + self->pos;

  for (gsize i = 0; i < n; i++)
    if (p[i] == '\n')
      self->line++;
  self->pos += n;
}

static void
skip_space (DynoImporter *self)
{
  gsize n = 0;
  const char *p = self->buf->str + self->pos;
  gsize len = self->buf->len - self->pos;

  /* A UTF-8 byte-order mark at the very start is not content. */
  if (self->dropped == 0 && self->pos == 0 && len >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
    n = 3;
  while (n < len && g_ascii_isspace (p[n]))
    n++;
  consume (self, n);
}

static GHashTable *
effective_hints (DynoImporter *self)
{
  if (self->hints != NULL)
    return self->hints;

  self->hints = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (self->schema != NULL)
    {
      const DynoKeyAttr *keys[2] = { dyno_table_info_get_partition_key (self->schema),
                                     dyno_table_info_get_sort_key (self->schema) };

      for (guint i = 0; i < 2; i++)
        if (keys[i] != NULL && keys[i]->name != NULL)
          g_hash_table_insert (self->hints, g_strdup (keys[i]->name),
                               GINT_TO_POINTER (keys[i]->type));
      for (guint i = 0; i < dyno_table_info_get_n_indexes (self->schema); i++)
        {
          const DynoIndexInfo *index = dyno_table_info_get_index (self->schema, i);

          if (index->partition_key.name != NULL)
            g_hash_table_insert (self->hints, g_strdup (index->partition_key.name),
                                 GINT_TO_POINTER (index->partition_key.type));
          if (index->sort_key.name != NULL)
            g_hash_table_insert (self->hints, g_strdup (index->sort_key.name),
                                 GINT_TO_POINTER (index->sort_key.type));
        }
    }
  if (self->mapping != NULL)
    {
      GHashTableIter iter;
      gpointer name, type;

      g_hash_table_iter_init (&iter, self->mapping);
      while (g_hash_table_iter_next (&iter, &name, &type))
        if (GPOINTER_TO_INT (type) != DYNO_CSV_TYPE_ANY)
          g_hash_table_insert (self->hints, g_strdup (name), type);
    }

  return self->hints;
}

/* DynamoDB's export to S3 writes {"Item":{…}} per line.  NULL when the line is not of that
 * shape; when it is but the item is bad, NULL with @error set (the attribute named). */
static DynoItem *
item_from_s3_export_line (const char  *text,
                          gsize        len,
                          GError     **error)
{
  DynoJsonScanner sc;
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  DynoItem *item = NULL;
  const char *s;
  gsize n;

  _dyno_json_scanner_init (&sc, text, len);
  if (_dyno_json_peek (&sc) != '{')
    goto out;
  sc.p++;
  if (!_dyno_json_read_string (&sc, &s, &n) || n != 4 || memcmp (s, "Item", 4) != 0
      || !_dyno_json_expect (&sc, ':', "\u201c:\u201d"))
    goto out;
  if (!_dyno_json_parse_ddb_item (&sc, builder))
    {
      /* {"Item": …} is this shape: what is wrong inside the item is the answer. */
      if (sc.error != NULL && sc.error->code != DYNO_ERROR_JSON)
        g_propagate_error (error, g_steal_pointer (&sc.error));
      goto out;
    }
  if (_dyno_json_peek (&sc) != '}')
    goto out;
  sc.p++;
  _dyno_json_skip_ws (&sc);
  if (sc.p != sc.end)
    goto out;
  item = _dyno_value_builder_finish_item (builder);

out:
  _dyno_json_scanner_clear (&sc);
  return item;
}

/* Every attribute is an object with one member named like a type ("S", "NS", …).  Read with
 * the scanner, not into a tree: an attribute nested too deep to skip (which DynamoDB JSON's
 * reader has just refused, naming the attribute) still shows the shape of DynamoDB JSON. */
static gboolean
looks_like_ddb_item (const char *text,
                     gsize       len)
{
  DynoJsonScanner sc;
  gboolean ok = FALSE;
  gboolean more = TRUE;
  const char *s;
  gsize n;

  _dyno_json_scanner_init (&sc, text, len);
  if (_dyno_json_peek (&sc) != '{')
    goto out;
  sc.p++;
  if (_dyno_json_peek (&sc) == '}')
    goto out;
  while (more)
    {
      g_autofree char *key = NULL;
      DynoValueType type;

      if (!_dyno_json_read_string (&sc, &s, &n) || !_dyno_json_expect (&sc, ':', "\u201c:\u201d")
          || _dyno_json_peek (&sc) != '{')
        goto out;
      sc.p++;
      if (!_dyno_json_read_string (&sc, &s, &n))
        goto out;
      key = g_strndup (s, n);
      if (!dyno_value_type_from_string (key, &type) || !_dyno_json_expect (&sc, ':', "\u201c:\u201d"))
        goto out;
      if (!_dyno_json_skip_value (&sc))
        {
          ok = sc.depth > DYNO_JSON_MAX_DEPTH;
          goto out;
        }
      /* Exactly one member. */
      if (_dyno_json_peek (&sc) != '}')
        goto out;
      sc.p++;
      _dyno_json_skip_ws (&sc);
      if (!_dyno_json_next (&sc, '}', &more))
        goto out;
    }
  ok = TRUE;

out:
  _dyno_json_scanner_clear (&sc);
  return ok;
}

static DynoItem *
parse_json_record (DynoImporter  *self,
                   const char    *text,
                   gsize          len,
                   char         **reason)
{
  g_autoptr(GError) error = NULL;
  DynoItem *item = NULL;

  switch (self->json_kind)
    {
    case JSON_KIND_DDB:
      item = dyno_item_from_ddb_json (text, len, &error);
      if (item == NULL && len > 8 && g_str_has_prefix (text, "{\"Item\""))
        {
          g_autoptr(GError) s3_error = NULL;

          item = item_from_s3_export_line (text, len, &s3_error);
          if (s3_error != NULL)
            {
              g_clear_error (&error);
              error = g_steal_pointer (&s3_error);
            }
        }
      break;
    case JSON_KIND_PLAIN:
      item = dyno_item_from_plain_json (text, len, effective_hints (self), &error);
      break;
    case JSON_KIND_UNDECIDED:
    default:
      /* The first record decides, and the rest are read the same way: a later line that
       * does not fit is reported rather than read differently. */
      item = dyno_item_from_ddb_json (text, len, &error);
      if (item != NULL)
        {
          self->json_kind = JSON_KIND_DDB;
          break;
        }
      if (len > 8 && g_str_has_prefix (text, "{\"Item\""))
        {
          g_autoptr(GError) s3_error = NULL;

          item = item_from_s3_export_line (text, len, &s3_error);
          if (item != NULL || s3_error != NULL)
            {
              self->json_kind = JSON_KIND_DDB;
              if (s3_error != NULL)
                {
                  g_clear_error (&error);
                  error = g_steal_pointer (&s3_error);
                }
              break;
            }
        }
      /* A DynamoDB-JSON record with a bad value ({"N":"12abc"}) is still DynamoDB JSON: it
       * is rejected as such, not read as plain JSON maps. */
      if (error->code != DYNO_ERROR_JSON && looks_like_ddb_item (text, len))
        {
          self->json_kind = JSON_KIND_DDB;
          break;
        }
      {
        g_autoptr(GError) plain_error = NULL;

        item = dyno_item_from_plain_json (text, len, effective_hints (self), &plain_error);
        /* Not JSON at all: DynamoDB JSON's message.  JSON, but not an item: plain's. */
        if (item != NULL)
          self->json_kind = JSON_KIND_PLAIN;
        else if (plain_error->code != DYNO_ERROR_JSON)
          {
            g_clear_error (&error);
            error = g_steal_pointer (&plain_error);
          }
      }
      break;
    }

  if (item == NULL)
    {
      /* The record is one line of a file whose line the report already names. */
      g_autoptr(GString) message = g_string_new (error != NULL ? error->message
                                                                : _("Not an item."));

      if (self->format == DYNO_IMPORT_DDB_JSONL || self->format == DYNO_IMPORT_PLAIN_JSONL)
        g_string_replace (message, "(line 1, column ", "(column ", 0);
      *reason = g_string_free (g_steal_pointer (&message), FALSE);
    }
  return item;
}

static DynoImportStatus
finish_record (DynoImporter      *self,
               DynoItem          *item,
               char              *reason,
               guint64            line,
               DynoItem         **out_item,
               DynoImportReject **out_reject,
               guint64           *out_row)
{
  if (item != NULL && reason == NULL)
    reason = dyno_import_check_item (self->schema, item);

  if (out_row != NULL)
    *out_row = self->row;
  self->record_line = line;

  if (reason != NULL)
    {
      DynoImportReject *reject = g_new0 (DynoImportReject, 1);

      g_clear_pointer (&item, dyno_item_unref);
      reject->row = self->row;
      reject->line = line;
      reject->reason = reason;
      self->n_rejected++;
      if (out_reject != NULL)
        *out_reject = reject;
      else
        dyno_import_reject_free (reject);
      return DYNO_IMPORT_REJECTED;
    }

  self->n_items++;
  if (out_item != NULL)
    *out_item = item;
  else
    dyno_item_unref (item);
  return DYNO_IMPORT_ITEM;
}

/* ---- JSON lines -------------------------------------------------------------------------- */

static DynoImportStatus
next_json_line (DynoImporter      *self,
                DynoItem         **out_item,
                DynoImportReject **out_reject,
                guint64           *out_row)
{
  for (;;)
    {
      const char *p = self->buf->str + self->pos;
      gsize avail = self->buf->len - self->pos;
      const char *nl = memchr (p, '\n', avail);
      gsize len, line_len;
      guint64 line;
      char *reason = NULL;
      DynoItem *item;

      if (nl == NULL && !self->eof)
        return DYNO_IMPORT_NEED_MORE;
      if (nl == NULL && avail == 0)
        return DYNO_IMPORT_END;

      line_len = nl != NULL ? (gsize) (nl - p) : avail;
      len = line_len;
      line = self->line;
      /* leading/trailing blanks (and a CR of CRLF) are not content */
      while (len > 0 && g_ascii_isspace (p[len - 1]))
        len--;
      while (len > 0 && g_ascii_isspace (*p))
        {
          p++;
          len--;
        }
      if (line == 1 && self->dropped == 0 && len >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
        {
          p += 3;
          len -= 3;
        }

      consume (self, nl != NULL ? line_len + 1 : line_len);
      if (len == 0)
        continue;

      self->row++;
      item = parse_json_record (self, p, len, &reason);
      return finish_record (self, item, reason, line, out_item, out_reject, out_row);
    }
}

/* ---- JSON arrays ------------------------------------------------------------------------- */

/* Where the element starting at @p ends: at the ',' or ']' outside strings and brackets.
 * 1: found (*end), 0: need more input, -1: the input ends inside it. */
static int
scan_element (const char *p,
              gsize       len,
              gboolean    eof,
              gsize      *end)
{
  int depth = 0;
  gboolean in_string = FALSE;
  gboolean escape = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      char c = p[i];

      if (in_string)
        {
          if (escape)
            escape = FALSE;
          else if (c == '\\')
            escape = TRUE;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      switch (c)
        {
        case '"':
          in_string = TRUE;
          break;
        case '{':
        case '[':
          depth++;
          break;
        case '}':
          if (depth > 0)
            depth--;
          break;
        case ']':
          if (depth == 0)
            {
              *end = i;
              return 1;
            }
          depth--;
          break;
        case ',':
          if (depth == 0)
            {
              *end = i;
              return 1;
            }
          break;
        default:
          break;
        }
    }

  return eof ? -1 : 0;
}

static DynoImportStatus
next_json_array (DynoImporter      *self,
                 DynoItem         **out_item,
                 DynoImportReject **out_reject,
                 guint64           *out_row,
                 GError           **error)
{
  for (;;)
    {
      const char *p;
      gsize avail;
      gsize end = 0;
      gsize len;
      guint64 line;
      int found;
      char *reason = NULL;
      DynoItem *item;

      skip_space (self);
      p = self->buf->str + self->pos;
      avail = self->buf->len - self->pos;

      if (avail == 0 && !self->eof)
        return DYNO_IMPORT_NEED_MORE;

      switch (self->array_state)
        {
        case ARRAY_BEFORE:
          if (avail == 0)
            return DYNO_IMPORT_END;
          if (*p != '[')
            {
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                           _("Line %" PRIu64 ": a JSON array must start with '['."),
                           self->line);
              return DYNO_IMPORT_FAILED;
            }
          consume (self, 1);
          self->array_state = ARRAY_FIRST;
          continue;
        case ARRAY_DONE:
          if (avail == 0)
            return DYNO_IMPORT_END;
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                       _("Line %" PRIu64 ": unexpected text after the end of the JSON "
                         "array."), self->line);
          return DYNO_IMPORT_FAILED;
        case ARRAY_FIRST:
        case ARRAY_NEXT:
        default:
          break;
        }

      if (avail == 0)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                       _("The input ends inside the JSON array (after element %" PRIu64
                         "): the closing ']' is missing."), self->row);
          return DYNO_IMPORT_FAILED;
        }

      if (self->array_state == ARRAY_FIRST && *p == ']')
        {
          consume (self, 1);
          self->array_state = ARRAY_DONE;
          continue;
        }

      found = scan_element (p, avail, self->eof, &end);
      if (found == 0)
        return DYNO_IMPORT_NEED_MORE;
      if (found < 0)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                       _("The input ends inside element %" PRIu64 " of the JSON array "
                         "(line %" PRIu64 "): a string, object or the array is not "
                         "closed."), self->row + 1, self->line);
          return DYNO_IMPORT_FAILED;
        }

      len = end;
      while (len > 0 && g_ascii_isspace (p[len - 1]))
        len--;
      line = self->line;
      self->row++;
      self->array_state = p[end] == ']' ? ARRAY_DONE : ARRAY_NEXT;

      if (len == 0)
        {
          consume (self, end + 1);
          reason = g_strdup (_("The array element is empty (two commas in a row, or a comma "
                               "before ']')."));
          return finish_record (self, NULL, reason, line, out_item, out_reject, out_row);
        }

      item = parse_json_record (self, p, len, &reason);
      consume (self, end + 1);
      return finish_record (self, item, reason, line, out_item, out_reject, out_row);
    }
}

/* ---- CSV --------------------------------------------------------------------------------- */

static GString *
field_at (DynoImporter *self,
          guint         i)
{
  GString *field;

  if (i < self->fields->len)
    {
      field = g_ptr_array_index (self->fields, i);
      g_string_truncate (field, 0);
      return field;
    }

  field = g_string_new (NULL);
  g_ptr_array_add (self->fields, field);
  return field;
}

/* One record at pos.  1: complete (*n_fields, *consumed), 0: need more input, -1: malformed
 * (*consumed covers it up to its line end, *bad says why). */
static int
parse_csv_record (DynoImporter  *self,
                  guint         *n_fields,
                  gsize         *consumed,
                  char         **bad)
{
  const char *p = self->buf->str + self->pos;
  gsize len = self->buf->len - self->pos;
  gboolean eof = self->eof;
  gsize i = 0;
  guint n = 0;

  g_array_set_size (self->quoted, 0);
  for (;;)
    {
      GString *field = field_at (self, n);
      gboolean quoted = FALSE;

      if (i < len && p[i] == '"')
        {
          quoted = TRUE;
          i++;
          for (;;)
            {
              if (i >= len)
                {
                  if (!eof)
                    return 0;
                  *consumed = len;
                  *bad = g_strdup_printf (_("The quoted cell in column %u is not closed before "
                                            "the end of the input."), n + 1);
                  return -1;
                }
              if (p[i] == '"')
                {
                  if (i + 1 >= len && !eof)
                    return 0;
                  if (i + 1 < len && p[i + 1] == '"')
                    {
                      g_string_append_c (field, '"');
                      i += 2;
                      continue;
                    }
                  i++;
                  break;
                }
              g_string_append_c (field, p[i]);
              i++;
            }
          if (i < len && p[i] != ',' && p[i] != '\r' && p[i] != '\n')
            {
              const char *nl = memchr (p + i, '\n', len - i);

              if (nl == NULL && !eof)
                return 0;
              *consumed = nl != NULL ? (gsize) (nl - p) + 1 : len;
              *bad = g_strdup_printf (_("Column %u has text after its closing quote (a quote "
                                        "inside a quoted cell is written as \"\")."), n + 1);
              return -1;
            }
        }
      else
        {
          while (i < len && p[i] != ',' && p[i] != '\r' && p[i] != '\n')
            g_string_append_c (field, p[i++]);
        }

      g_array_append_val (self->quoted, quoted);
      n++;

      if (i >= len)
        {
          if (!eof)
            return 0;
          break;
        }
      if (p[i] == ',')
        {
          i++;
          continue;
        }
      if (p[i] == '\r')
        {
          if (i + 1 >= len && !eof)
            return 0;
          i += (i + 1 < len && p[i + 1] == '\n') ? 2 : 1;
          break;
        }
      /* '\n' */
      i++;
      break;
    }

  *n_fields = n;
  *consumed = i;
  return 1;
}

static gboolean
is_blank_record (DynoImporter *self,
                 guint         n_fields)
{
  GString *first = g_ptr_array_index (self->fields, 0);

  return n_fields == 1 && first->len == 0 && !g_array_index (self->quoted, gboolean, 0);
}

static gboolean
base64_valid (const char *text,
              gsize       len)
{
  gsize pad = 0;

  if (len % 4 != 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      if (c == '=')
        {
          pad++;
          if (pad > 2 || i < len - 2)
            return FALSE;
          continue;
        }
      if (pad > 0 || !(g_ascii_isalnum (c) || c == '+' || c == '/'))
        return FALSE;
    }
  return TRUE;
}

static DynoValue *
binary_from_base64 (const char  *text,
                    gsize        len,
                    const char  *column,
                    GError     **error)
{
  g_autofree char *copy = NULL;
  g_autofree guint8 *bytes = NULL;
  gsize n = 0;

  if (!base64_valid (text, len))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                   _("Column %s: \"%.*s\" is not base64 (a B value is written in base64)."),
                   column, (int) MIN (len, 40), text);
      return NULL;
    }
  if (len == 0)
    return dyno_value_new_binary (NULL, 0);
  copy = g_strndup (text, len);
  bytes = g_base64_decode (copy, &n);
  return dyno_value_new_binary (bytes, n);
}

/* SS/NS/BS cells are JSON arrays: read as plain JSON typed by a hint, so numbers keep
 * their exact text and base64 is checked as for plain JSON. */
static DynoValue *
set_from_cell (const char     *text,
               gsize           len,
               DynoValueType   type,
               const char     *column,
               GError        **error)
{
  g_autoptr(GHashTable) hints = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GString) json = g_string_new ("{");
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DynoItem) wrapper = NULL;
  const DynoValue *value;

  g_hash_table_insert (hints, (gpointer) column, GINT_TO_POINTER (type));
  dyno_json_write_string (json, column, -1);
  g_string_append_c (json, ':');
  g_string_append_len (json, text, len);
  g_string_append_c (json, '}');

  wrapper = dyno_item_from_plain_json (json->str, json->len, hints, &local_error);
  if (wrapper == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                   /* Translators: the column, its type (such as SS), an example, then the
                    * parser's message. */
                   _("Column %s: a %s cell is a JSON array (e.g. %s): %s"), column,
                   dyno_value_type_to_string (type),
                   type == DYNO_VALUE_NS ? "[1,2.5]" : type == DYNO_VALUE_BS ? "[\"AQ==\"]"
                                                                             : "[\"a\",\"b\"]",
                   local_error->message);
      return NULL;
    }
  value = dyno_item_lookup (wrapper, column);
  if (value == NULL || dyno_value_get_kind (value) != type)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                   /* Translators: the column, then a type (such as N). */
                   _("Column %s: the cell is not a %s."), column, dyno_value_type_to_string (type));
      return NULL;
    }

  return dyno_value_copy (value);
}

static DynoValue *
value_from_cell (GString     *cell,
                 int          type,
                 const char  *column,
                 GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  DynoValue *value = NULL;
  const char *text = cell->str;
  gsize len = cell->len;

  switch (type)
    {
    case DYNO_VALUE_S:
      return dyno_value_new_string (text, len);
    case DYNO_VALUE_N:
      {
        g_autofree char *trimmed = g_strstrip (g_strndup (text, len));

        value = dyno_value_new_number (trimmed, -1, &local_error);
        if (value == NULL)
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE, _("Column %s: %s"), column,
                       local_error->message);
        return value;
      }
    case DYNO_VALUE_B:
      return binary_from_base64 (text, len, column, error);
    case DYNO_VALUE_BOOL:
      if (g_ascii_strcasecmp (text, "true") == 0)
        return dyno_value_new_bool (TRUE);
      if (g_ascii_strcasecmp (text, "false") == 0)
        return dyno_value_new_bool (FALSE);
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                   _("Column %s: a BOOL cell is true or false, not \"%.*s\"."), column,
                   (int) MIN (len, 40), text);
      return NULL;
    case DYNO_VALUE_NULL:
      if (g_ascii_strcasecmp (text, "null") == 0 || g_ascii_strcasecmp (text, "true") == 0)
        return dyno_value_new_null ();
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                   _("Column %s: a NULL cell is null, not \"%.*s\"."), column,
                   (int) MIN (len, 40), text);
      return NULL;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      return set_from_cell (text, len, type, column, error);
    case DYNO_VALUE_M:
    case DYNO_VALUE_L:
    case DYNO_CSV_TYPE_ANY:
    default:
      {
        g_autoptr(GString) json = g_string_new (NULL);

        if (type == DYNO_VALUE_M)
          g_string_append (json, "{\"M\":");
        else if (type == DYNO_VALUE_L)
          g_string_append (json, "{\"L\":");
        g_string_append_len (json, text, len);
        if (type != DYNO_CSV_TYPE_ANY)
          g_string_append_c (json, '}');
        value = dyno_value_from_ddb_json (json->str, json->len, &local_error);
        if (value == NULL)
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                       /* Translators: the column, its type, then the parser's message. */
                       _("Column %s: not a DynamoDB-JSON %s: %s"), column,
                       type == DYNO_VALUE_M ? "map" : type == DYNO_VALUE_L ? "list" : "value",
                       local_error->message);
        return value;
      }
    }
}

static int
column_type (DynoImporter *self,
             guint         i)
{
  const char *name = g_ptr_array_index (self->columns, i);
  gpointer type;

  if (self->mapping != NULL && g_hash_table_lookup_extended (self->mapping, name, NULL, &type))
    return GPOINTER_TO_INT (type);
  if (i < self->column_types->len && g_array_index (self->column_types, int, i) != G_MININT)
    return g_array_index (self->column_types, int, i);
  if (g_hash_table_lookup_extended (effective_hints (self), name, NULL, &type))
    return GPOINTER_TO_INT (type);
  return DYNO_VALUE_S;
}

static gboolean
read_csv_header (DynoImporter  *self,
                 guint          n_fields,
                 GError       **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < n_fields; i++)
    {
      GString *field = g_ptr_array_index (self->fields, i);
      int unset = G_MININT;

      if (field->len == 0)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("The CSV header (line %" PRIu64 ") has an empty name in "
                         "column %u: every column needs an attribute name."), self->line, i + 1);
          return FALSE;
        }
      if (g_hash_table_contains (seen, field->str))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("The CSV header (line %" PRIu64 ") names %s twice."),
                       self->line, field->str);
          return FALSE;
        }
      g_ptr_array_add (self->columns, g_strdup (field->str));
      g_hash_table_add (seen, g_ptr_array_index (self->columns, i));
      g_array_append_val (self->column_types, unset);
    }

  self->have_header = TRUE;
  return TRUE;
}

static gboolean
read_csv_type_row (DynoImporter  *self,
                   guint          n_fields,
                   GError       **error)
{
  if (n_fields != self->columns->len)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                   _("The CSV type row (line %" PRIu64 ") has %u cells where the "
                     "header has %u."), self->line, n_fields, self->columns->len);
      return FALSE;
    }
  for (guint i = 0; i < n_fields; i++)
    {
      GString *field = g_ptr_array_index (self->fields, i);
      const char *text = field->str;
      int type;

      if (i == 0)
        text += strlen (DYNO_CSV_TYPE_ROW_MARKER);
      if (*text == '\0')
        continue;  /* no type given: the mapping, the schema or S */
      if (!parse_column_type (text, strlen (text), &type))
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       /* Translators: the line, the column, then the text found. */
                       _("The CSV type row (line %" PRIu64 "), column %s: \"%s\" is "
                         "not a type (S, N, B, BOOL, NULL, M, L, SS, NS, BS or ANY)."), self->line,
                       (const char *) g_ptr_array_index (self->columns, i), text);
          return FALSE;
        }
      g_array_index (self->column_types, int, i) = type;
    }

  return TRUE;
}

static DynoItem *
item_from_csv_fields (DynoImporter  *self,
                      guint          n_fields,
                      char         **reason)
{
  g_autoptr(DynoValueBuilder) builder = NULL;
  g_autoptr(GError) error = NULL;

  if (n_fields != self->columns->len)
    {
      *reason = g_strdup_printf (_("The row has %u cells where the header has %u."), n_fields,
                                 self->columns->len);
      return NULL;
    }

  builder = dyno_value_builder_new ();
  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  for (guint i = 0; i < n_fields; i++)
    {
      GString *cell = g_ptr_array_index (self->fields, i);
      gboolean quoted = g_array_index (self->quoted, gboolean, i);
      const char *name = g_ptr_array_index (self->columns, i);
      int type = column_type (self, i);
      g_autoptr(DynoValue) value = NULL;

      if (cell->len == 0 && !quoted)
        continue;  /* absent */
      if (cell->len == 0 && type != DYNO_VALUE_S && type != DYNO_VALUE_B)
        {
          /* Translators: the column, then its type. */
          *reason = g_strdup_printf (_("Column %s: an empty quoted cell is an empty string, "
                                       "which a %s cannot be (leave the cell unquoted and empty "
                                       "for no value)."), name,
                                     type == DYNO_CSV_TYPE_ANY
                                     ? "ANY" : dyno_value_type_to_string (type));
          dyno_value_builder_reset (builder);
          return NULL;
        }
      value = value_from_cell (cell, type, name, &error);
      if (value == NULL)
        {
          *reason = g_strdup (error->message);
          dyno_value_builder_reset (builder);
          return NULL;
        }
      dyno_value_builder_key (builder, name, -1);
      dyno_value_builder_add_value (builder, value);
    }
  if (!dyno_value_builder_end (builder, &error))
    {
      *reason = g_strdup (error->message);
      return NULL;
    }

  return dyno_item_new_take (dyno_value_builder_finish (builder));
}

static DynoImportStatus
next_csv (DynoImporter      *self,
          DynoItem         **out_item,
          DynoImportReject **out_reject,
          guint64           *out_row,
          GError           **error)
{
  for (;;)
    {
      guint n_fields = 0;
      gsize consumed = 0;
      g_autofree char *bad = NULL;
      guint64 line = self->line;
      char *reason = NULL;
      DynoItem *item;
      int status;

      if (self->pos >= self->buf->len)
        {
          if (!self->eof)
            return DYNO_IMPORT_NEED_MORE;
          if (!self->have_header)
            {
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           _("The CSV input is empty: it needs a header row naming the "
                             "attributes."));
              return DYNO_IMPORT_FAILED;
            }
          return DYNO_IMPORT_END;
        }

      status = parse_csv_record (self, &n_fields, &consumed, &bad);
      if (status == 0)
        return DYNO_IMPORT_NEED_MORE;

      if (!self->have_header)
        {
          if (status < 0)
            {
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           _("The CSV header (line %" PRIu64 ") cannot be read: %s"),
                           line, bad);
              return DYNO_IMPORT_FAILED;
            }
          if (line == 1 && self->dropped == 0 && n_fields > 0)
            {
              GString *first = g_ptr_array_index (self->fields, 0);

              if (first->len >= 3 && memcmp (first->str, "\xef\xbb\xbf", 3) == 0)
                g_string_erase (first, 0, 3);
            }
          if (is_blank_record (self, n_fields))
            {
              consume (self, consumed);
              continue;
            }
          if (!read_csv_header (self, n_fields, error))
            return DYNO_IMPORT_FAILED;
          consume (self, consumed);
          continue;
        }

      if (status > 0 && !self->header_checked_for_types)
        {
          GString *first = g_ptr_array_index (self->fields, 0);

          self->header_checked_for_types = TRUE;
          if (!g_array_index (self->quoted, gboolean, 0)
              && g_str_has_prefix (first->str, DYNO_CSV_TYPE_ROW_MARKER))
            {
              if (!read_csv_type_row (self, n_fields, error))
                return DYNO_IMPORT_FAILED;
              consume (self, consumed);
              continue;
            }
        }
      self->header_checked_for_types = TRUE;

      if (status > 0 && is_blank_record (self, n_fields))
        {
          consume (self, consumed);
          continue;
        }

      self->row++;
      if (status < 0)
        {
          consume (self, consumed);
          return finish_record (self, NULL, g_steal_pointer (&bad), line, out_item, out_reject,
                                out_row);
        }

      item = item_from_csv_fields (self, n_fields, &reason);
      consume (self, consumed);
      return finish_record (self, item, reason, line, out_item, out_reject, out_row);
    }
}

/* ---- dispatch ---------------------------------------------------------------------------- */

DynoImportStatus
dyno_importer_next (DynoImporter      *self,
                    DynoItem         **out_item,
                    DynoImportReject **out_reject,
                    guint64           *out_row,
                    GError           **error)
{
  g_return_val_if_fail (self != NULL, DYNO_IMPORT_FAILED);
  g_return_val_if_fail (error == NULL || *error == NULL, DYNO_IMPORT_FAILED);

  if (out_item != NULL)
    *out_item = NULL;
  if (out_reject != NULL)
    *out_reject = NULL;

  if (self->finished)
    return DYNO_IMPORT_END;

  if (self->format == DYNO_IMPORT_AUTO)
    {
      const char *p;
      gsize avail;
      gsize n = 0;

      p = self->buf->str + self->pos;
      avail = self->buf->len - self->pos;
      if (avail >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
        n = 3;
      while (n < avail && g_ascii_isspace (p[n]))
        n++;
      if (n == avail)
        {
          if (!self->eof)
            return DYNO_IMPORT_NEED_MORE;
          self->finished = TRUE;
          return DYNO_IMPORT_END;
        }
      self->format = p[n] == '[' ? DYNO_IMPORT_JSON_ARRAY
                     : p[n] == '{' ? DYNO_IMPORT_DDB_JSONL : DYNO_IMPORT_CSV;
      /* JSON lines of either kind: the first line decides (json_kind is still undecided). */
    }

  {
    DynoImportStatus status;

    switch (self->format)
      {
      case DYNO_IMPORT_DDB_JSONL:
      case DYNO_IMPORT_PLAIN_JSONL:
        status = next_json_line (self, out_item, out_reject, out_row);
        break;
      case DYNO_IMPORT_JSON_ARRAY:
      case DYNO_IMPORT_DDB_JSON_ARRAY:
      case DYNO_IMPORT_PLAIN_JSON_ARRAY:
        status = next_json_array (self, out_item, out_reject, out_row, error);
        break;
      case DYNO_IMPORT_CSV:
        status = next_csv (self, out_item, out_reject, out_row, error);
        break;
      case DYNO_IMPORT_AUTO:
      default:
        g_return_val_if_reached (DYNO_IMPORT_FAILED);
      }

    if (status == DYNO_IMPORT_END || status == DYNO_IMPORT_FAILED)
      self->finished = TRUE;
    return status;
  }
}

gboolean
dyno_import_text (const char        *text,
                  gsize              len,
                  DynoImportFormat   format,
                  DynoTableInfo     *schema,
                  GHashTable        *mapping,
                  GPtrArray         *items,
                  GPtrArray         *rejects,
                  GError           **error)
{
  g_autoptr(DynoImporter) importer = dyno_importer_new (format, schema);

  g_return_val_if_fail (text != NULL || len == 0, FALSE);

  dyno_importer_set_type_mapping (importer, mapping);
  dyno_importer_feed (importer, text, len);
  dyno_importer_feed_eof (importer);

  for (;;)
    {
      DynoItem *item = NULL;
      DynoImportReject *reject = NULL;

      switch (dyno_importer_next (importer, &item, &reject, NULL, error))
        {
        case DYNO_IMPORT_ITEM:
          if (items != NULL)
            g_ptr_array_add (items, item);
          else
            dyno_item_unref (item);
          break;
        case DYNO_IMPORT_REJECTED:
          if (rejects != NULL)
            g_ptr_array_add (rejects, reject);
          else
            dyno_import_reject_free (reject);
          break;
        case DYNO_IMPORT_END:
          return TRUE;
        case DYNO_IMPORT_FAILED:
          return FALSE;
        case DYNO_IMPORT_NEED_MORE:
        default:
          g_return_val_if_reached (FALSE);
        }
    }
}
