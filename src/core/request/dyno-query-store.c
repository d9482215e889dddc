/* dyno-query-store.c: saved queries and the history of runs, per connection and table
 *
 * The file (DYNO_QUERY_STORE_FORMAT_VERSION 1), by default
 * $XDG_DATA_HOME/dynotable/queries.json (~/.local/share/dynotable/queries.json):
 *
 *   {
 *     "format": "dynotable-queries",
 *     "version": 1,
 *     "tables": [
 *       {
 *         "connection": "local:http://…",  which connection, never its credentials (the app
 *                                          writes local:URL, profile:NAME@REGION,
 *                                          region:REGION or id:ID); "" for none
 *         "table": "Orders",
 *         "saved": [                       in the order the user gave them
 *           { "name": "Open orders of acme",
 *             "when": "2026-06-23T09:12:00Z", when it was saved (UTC)
 *             "query": { … } }             a saved query (dyno-query-draft.c's format)
 *         ],
 *         "history": [                     newest first, at most 100 per table
 *           { "when": "2026-06-23T09:14:05Z", when the run ended (UTC)
 *             "items": 10, "pages": 1,     what it read
 *             "rcu": 0.5,                  consumed read capacity; absent when unknown
 *             "query": { … } }
 *         ]
 *       }
 *     ]
 *   }
 *
 * A reader refuses another "format", a "version" above its own and members it does not know
 * (a newer writer raises the version).  Nothing secret is written: connections are named
 * without their keys.  The file is written to a new file renamed over the old one (mode 0600).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-query-store.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"

#define FORMAT_NAME "dynotable-queries"

/* ---- DynoQueryEntry -------------------------------------------------------------------------- */

struct _DynoQueryEntry
{
  GObject         parent_instance;

  char           *name;
  DynoQueryDraft *draft;
  GDateTime      *when;
  guint64         n_items;
  guint64         n_pages;
  double          rcu;
};

G_DEFINE_FINAL_TYPE (DynoQueryEntry, dyno_query_entry, G_TYPE_OBJECT)

static void
dyno_query_entry_finalize (GObject *object)
{
  DynoQueryEntry *self = DYNO_QUERY_ENTRY (object);

  g_free (self->name);
  g_clear_object (&self->draft);
  g_clear_pointer (&self->when, g_date_time_unref);

  G_OBJECT_CLASS (dyno_query_entry_parent_class)->finalize (object);
}

static void
dyno_query_entry_class_init (DynoQueryEntryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_query_entry_finalize;
}

static void
dyno_query_entry_init (DynoQueryEntry *self)
{
  self->rcu = -1;
}

/* A copy of @draft, through its saved form (the schema is not copied: it is the table's). */
static DynoQueryDraft *
copy_draft (DynoQueryDraft  *draft,
            GError         **error)
{
  g_autoptr(DynoQueryDraft) copy = dyno_query_draft_new ();
  g_autofree char *json = dyno_query_draft_to_json (draft, FALSE);

  if (!dyno_query_draft_load_json (copy, json, -1, error))
    return NULL;
  return g_steal_pointer (&copy);
}

static DynoQueryEntry *
entry_new (const char     *name,
           DynoQueryDraft *draft,
           GDateTime      *when)
{
  DynoQueryEntry *self = g_object_new (DYNO_TYPE_QUERY_ENTRY, NULL);

  self->name = g_strdup (name);
  self->draft = draft;
  self->when = when ? g_date_time_to_utc (when) : g_date_time_new_now_utc ();
  return self;
}

const char *
dyno_query_entry_get_name (DynoQueryEntry *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_ENTRY (self), NULL);
  return self->name;
}

DynoQueryDraft *
dyno_query_entry_get_draft (DynoQueryEntry *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_ENTRY (self), NULL);
  return self->draft;
}

GDateTime *
dyno_query_entry_get_when (DynoQueryEntry *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_ENTRY (self), NULL);
  return self->when;
}

guint64
dyno_query_entry_get_n_items (DynoQueryEntry *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_ENTRY (self), 0);
  return self->n_items;
}

guint64
dyno_query_entry_get_n_pages (DynoQueryEntry *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_ENTRY (self), 0);
  return self->n_pages;
}

double
dyno_query_entry_get_rcu (DynoQueryEntry *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_ENTRY (self), -1);
  return self->rcu;
}

static char *
fold (const char *text)
{
  g_autofree char *normal = g_utf8_normalize (text, -1, G_NORMALIZE_ALL);

  return g_utf8_casefold (normal ? normal : text, -1);
}

gboolean
dyno_query_entry_matches (DynoQueryEntry *self,
                          const char     *search)
{
  g_auto(GStrv) words = NULL;
  g_autoptr(GString) haystack = g_string_new (NULL);
  g_autofree char *folded = NULL;
  const char *parts[5];

  g_return_val_if_fail (DYNO_IS_QUERY_ENTRY (self), FALSE);

  if (search == NULL || *search == '\0')
    return TRUE;

  parts[0] = self->name;
  parts[1] = dyno_query_draft_get_index_name (self->draft);
  parts[2] = dyno_query_draft_get_partition_key_text (self->draft);
  parts[3] = dyno_query_draft_get_sort_key_text (self->draft);
  parts[4] = dyno_query_draft_get_sort_key_text2 (self->draft);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (parts[i] != NULL)
      {
        g_string_append (haystack, parts[i]);
        g_string_append_c (haystack, '\n');
      }

  {
    g_autofree char *needle = fold (search);

    folded = fold (haystack->str);
    words = g_strsplit_set (needle, " \t\n", -1);
  }
  for (guint i = 0; words[i] != NULL; i++)
    if (*words[i] != '\0' && strstr (folded, words[i]) == NULL)
      return FALSE;
  return TRUE;
}

/* ---- DynoQueryStore --------------------------------------------------------------------------- */

typedef struct {
  char       *connection_id;
  char       *table_name;
  GListStore *saved;
  GListStore *history;
} TableQueries;

struct _DynoQueryStore
{
  GObject     parent_instance;

  char       *path;
  GPtrArray  *tables;     /* TableQueries*, in the file's order */
  GHashTable *by_key;     /* "connection\ntable" -> TableQueries* (borrowed) */
  gboolean    read_only;  /* the file could not be read: never write over it */
};

G_DEFINE_FINAL_TYPE (DynoQueryStore, dyno_query_store, G_TYPE_OBJECT)

static void
table_queries_free (TableQueries *table)
{
  g_free (table->connection_id);
  g_free (table->table_name);
  g_clear_object (&table->saved);
  g_clear_object (&table->history);
  g_free (table);
}

static char *
table_key (const char *connection_id,
           const char *table_name)
{
  return g_strconcat (connection_id ? connection_id : "", "\n", table_name, NULL);
}

static TableQueries *
lookup_table (DynoQueryStore *self,
              const char     *connection_id,
              const char     *table_name,
              gboolean        create)
{
  g_autofree char *key = table_key (connection_id, table_name);
  TableQueries *table = g_hash_table_lookup (self->by_key, key);

  if (table == NULL && create)
    {
      table = g_new0 (TableQueries, 1);
      table->connection_id = g_strdup (connection_id ? connection_id : "");
      table->table_name = g_strdup (table_name);
      table->saved = g_list_store_new (DYNO_TYPE_QUERY_ENTRY);
      table->history = g_list_store_new (DYNO_TYPE_QUERY_ENTRY);
      g_ptr_array_add (self->tables, table);
      g_hash_table_insert (self->by_key, g_steal_pointer (&key), table);
    }
  return table;
}

/* Empties every list (the models stay: widgets may hold them). */
static void
clear_tables (DynoQueryStore *self)
{
  for (guint i = 0; i < self->tables->len; i++)
    {
      TableQueries *table = g_ptr_array_index (self->tables, i);

      g_list_store_remove_all (table->saved);
      g_list_store_remove_all (table->history);
    }
}

static void
dyno_query_store_finalize (GObject *object)
{
  DynoQueryStore *self = DYNO_QUERY_STORE (object);

  g_free (self->path);
  g_clear_pointer (&self->by_key, g_hash_table_unref);
  g_clear_pointer (&self->tables, g_ptr_array_unref);

  G_OBJECT_CLASS (dyno_query_store_parent_class)->finalize (object);
}

static void
dyno_query_store_class_init (DynoQueryStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyno_query_store_finalize;
}

static void
dyno_query_store_init (DynoQueryStore *self)
{
  self->tables = g_ptr_array_new_with_free_func ((GDestroyNotify) table_queries_free);
  self->by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

DynoQueryStore *
dyno_query_store_new (const char *path)
{
  DynoQueryStore *self = g_object_new (DYNO_TYPE_QUERY_STORE, NULL);

  if (path != NULL)
    self->path = g_strdup (path);
  else
    self->path = g_build_filename (g_get_user_data_dir (), "dynotable", "queries.json", NULL);
  return self;
}

const char *
dyno_query_store_get_path (DynoQueryStore *self)
{
  g_return_val_if_fail (DYNO_IS_QUERY_STORE (self), NULL);
  return self->path;
}

/* ---- reading ---------------------------------------------------------------------------------- */

static gboolean
check_members (JsonObject         *object,
               const char * const *known,
               guint               n_known,
               const char         *where,
               GError            **error)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < n_known && !found; i++)
        found = strcmp (l->data, known[i]) == 0;
      if (!found)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                       /* Translators: %s is where in the file ("tables[0]"), then a member name */
                       _("%s: unknown member “%s”"), where, (const char *) l->data);
          return FALSE;
        }
    }
  return TRUE;
}

static const char *
read_string (JsonObject  *object,
             const char  *member,
             const char  *where,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   /* Translators: where in the file ("tables[0]"), then a member name */
                   _("%s: “%s” must be a string"), where, member);
      return NULL;
    }
  return json_node_get_string (node);
}

static JsonArray *
read_array (JsonObject  *object,
            const char  *member,
            const char  *where,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    return NULL;  /* an absent list is an empty one */
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   /* Translators: where in the file ("tables[0]"), then a member name */
                   _("%s: “%s” must be an array"), where, member);
      return NULL;
    }
  return json_node_get_array (node);
}

static gboolean
read_count (JsonObject  *object,
            const char  *member,
            const char  *where,
            guint64     *out,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64 || json_node_get_int (node) < 0)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   /* Translators: where in the file ("tables[0].history[3]"), then a member */
                   _("%s: “%s” must be a whole number, 0 or more"), where, member);
      return FALSE;
    }
  *out = (guint64) json_node_get_int (node);
  return TRUE;
}

static JsonObject *
element_object (JsonArray  *array,
                guint       i,
                const char *where,
                GError    **error)
{
  JsonNode *node = json_array_get_element (array, i);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   /* Translators: where in the file ("tables[0].saved[2]") */
                   _("%s must be an object"), where);
      return NULL;
    }
  return json_node_get_object (node);
}

static DynoQueryEntry *
read_entry (JsonObject  *object,
            gboolean     saved,
            const char  *where,
            GError     **error)
{
  static const char * const saved_known[] = { "name", "when", "query" };
  static const char * const history_known[] = { "when", "items", "pages", "rcu", "query" };
  g_autoptr(DynoQueryEntry) entry = NULL;
  g_autoptr(DynoQueryDraft) draft = dyno_query_draft_new ();
  g_autoptr(GDateTime) when = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *query_text = NULL;
  const char *name = NULL;
  const char *when_text;
  JsonNode *query;
  guint64 n_items = 0, n_pages = 0;
  double rcu = -1;

  if (!check_members (object, saved ? saved_known : history_known,
                      saved ? G_N_ELEMENTS (saved_known) : G_N_ELEMENTS (history_known),
                      where, error))
    return NULL;
  if (saved && (name = read_string (object, "name", where, error)) == NULL)
    return NULL;
  if ((when_text = read_string (object, "when", where, error)) == NULL)
    return NULL;
  when = g_date_time_new_from_iso8601 (when_text, NULL);
  if (when == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   /* Translators: where in the file, then the text found */
                   _("%s: “when” is not an ISO 8601 date and time: “%s”"), where, when_text);
      return NULL;
    }

  if (!saved)
    {
      JsonNode *node = json_object_get_member (object, "rcu");

      if (!read_count (object, "items", where, &n_items, error) ||
          !read_count (object, "pages", where, &n_pages, error))
        return NULL;
      if (node != NULL)
        {
          GType type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node)
                                                    : G_TYPE_NONE;

          if ((type != G_TYPE_DOUBLE && type != G_TYPE_INT64) ||
              json_node_get_double (node) < 0)
            {
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                           /* Translators: where in the file ("tables[0].history[3]") */
                           _("%s: “rcu” must be a number, 0 or more"), where);
              return NULL;
            }
          rcu = json_node_get_double (node);
        }
    }

  query = json_object_get_member (object, "query");
  if (query == NULL || !JSON_NODE_HOLDS_OBJECT (query))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   /* Translators: where in the file ("tables[0].saved[2]") */
                   _("%s: “query” must be a saved query (an object)"), where);
      return NULL;
    }
  query_text = dyno_json_node_to_string (query, FALSE);
  if (!dyno_query_draft_load_json (draft, query_text, -1, &local_error))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON, "%s.query: %s", where,
                   local_error->message);
      return NULL;
    }

  entry = entry_new (name, g_steal_pointer (&draft), when);
  entry->n_items = n_items;
  entry->n_pages = n_pages;
  entry->rcu = rcu;
  return g_steal_pointer (&entry);
}

/* Fills the store from @text; on error the store is left empty. */
static gboolean
read_store (DynoQueryStore  *self,
            const char      *text,
            gsize            len,
            GError         **error)
{
  static const char * const known[] = { "format", "version", "tables" };
  static const char * const table_known[] = { "connection", "table", "saved", "history" };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonNode *version;
  JsonArray *tables;
  const char *format;

  root = dyno_json_parse (text, (gssize) len, error);
  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_JSON,
                           _("The file is not a JSON object"));
      return FALSE;
    }
  object = json_node_get_object (root);
  if ((format = read_string (object, "format", _("the file"), error)) == NULL)
    return FALSE;
  if (strcmp (format, FORMAT_NAME) != 0)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   _("This is not a list of saved queries: its format is “%s”, not “%s”"),
                   format, FORMAT_NAME);
      return FALSE;
    }
  version = json_object_get_member (object, "version");
  if (version == NULL || !JSON_NODE_HOLDS_VALUE (version) ||
      json_node_get_value_type (version) != G_TYPE_INT64 || json_node_get_int (version) < 1)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_JSON,
                           _("“version” must be a whole number, 1 or more"));
      return FALSE;
    }
  if (json_node_get_int (version) > DYNO_QUERY_STORE_FORMAT_VERSION)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                   _("The file is version %d, written by a newer DynoTable (this one reads "
                     "version %d)"),
                   (int) MIN (json_node_get_int (version), G_MAXINT),
                   DYNO_QUERY_STORE_FORMAT_VERSION);
      return FALSE;
    }
  if (!check_members (object, known, G_N_ELEMENTS (known), _("the file"), error))
    return FALSE;

  tables = read_array (object, "tables", _("the file"), error);
  if (tables == NULL)
    return error == NULL || *error == NULL;

  for (guint t = 0; t < json_array_get_length (tables); t++)
    {
      g_autofree char *where = g_strdup_printf ("tables[%u]", t);
      JsonObject *table_object = element_object (tables, t, where, error);
      const char *connection_id, *table_name;
      TableQueries *table;
      JsonArray *lists[2];

      if (table_object == NULL ||
          !check_members (table_object, table_known, G_N_ELEMENTS (table_known), where, error) ||
          (connection_id = read_string (table_object, "connection", where, error)) == NULL ||
          (table_name = read_string (table_object, "table", where, error)) == NULL)
        return FALSE;
      if (*table_name == '\0')
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                       /* Translators: where in the file ("tables[0]") */
                       _("%s: “table” is empty"), where);
          return FALSE;
        }
      table = lookup_table (self, connection_id, table_name, TRUE);

      lists[0] = read_array (table_object, "saved", where, error);
      if (lists[0] == NULL && error != NULL && *error != NULL)
        return FALSE;
      lists[1] = read_array (table_object, "history", where, error);
      if (lists[1] == NULL && error != NULL && *error != NULL)
        return FALSE;

      for (guint l = 0; l < 2; l++)
        for (guint i = 0; lists[l] != NULL && i < json_array_get_length (lists[l]); i++)
          {
            g_autofree char *entry_where = g_strdup_printf ("%s.%s[%u]", where,
                                                            l == 0 ? "saved" : "history", i);
            JsonObject *entry_object = element_object (lists[l], i, entry_where, error);
            g_autoptr(DynoQueryEntry) entry = NULL;

            if (entry_object == NULL)
              return FALSE;
            entry = read_entry (entry_object, l == 0, entry_where, error);
            if (entry == NULL)
              return FALSE;
            if (l == 1 && i >= DYNO_QUERY_STORE_MAX_HISTORY)
              continue;
            if (l == 0)
              for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (table->saved)); k++)
                {
                  g_autoptr(DynoQueryEntry) other =
                    g_list_model_get_item (G_LIST_MODEL (table->saved), k);

                  if (strcmp (other->name, entry->name) == 0)
                    {
                      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON,
                                   /* Translators: where in the file, then a query's name */
                                   _("%s: a saved query named “%s” comes twice"), entry_where,
                                   entry->name);
                      return FALSE;
                    }
                }
            g_list_store_append (l == 0 ? table->saved : table->history, entry);
          }
    }
  return TRUE;
}

/* Moves the unreadable file out of the way, to a name no other file has; NULL on failure. */
static char *
move_aside (DynoQueryStore *self)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%dT%H%M%SZ");

  for (guint n = 0; n < 100; n++)
    {
      g_autofree char *aside = n == 0 ? g_strdup_printf ("%s.broken-%s", self->path, stamp)
                                      : g_strdup_printf ("%s.broken-%s-%u", self->path, stamp, n);

      if (g_file_test (aside, G_FILE_TEST_EXISTS))
        continue;
      if (g_rename (self->path, aside) != 0)
        return NULL;
      return g_steal_pointer (&aside);
    }
  return NULL;
}

gboolean
dyno_query_store_load (DynoQueryStore  *self,
                       GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *aside = NULL;
  gsize len = 0;

  g_return_val_if_fail (DYNO_IS_QUERY_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  clear_tables (self);
  self->read_only = FALSE;

  if (!g_file_get_contents (self->path, &text, &len, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      self->read_only = TRUE;
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("Could not read saved queries from %s: %s"), self->path,
                   local_error->message);
      return FALSE;
    }

  if (read_store (self, text, len, &local_error))
    return TRUE;

  clear_tables (self);
  aside = move_aside (self);
  if (aside == NULL)
    {
      int saved_errno = errno;

      self->read_only = TRUE;
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("Could not read saved queries from %s: %s.  It could not be moved aside "
                     "(%s), so nothing will be saved over it."),
                   self->path, local_error->message, g_strerror (saved_errno));
      return FALSE;
    }
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
               _("Could not read saved queries from %s: %s.  The file was kept as %s; saved "
                 "queries and history start empty."),
               self->path, local_error->message, aside);
  return FALSE;
}

/* ---- writing ---------------------------------------------------------------------------------- */

static void
add_when (JsonBuilder    *builder,
          DynoQueryEntry *entry)
{
  g_autofree char *when = g_date_time_format (entry->when, "%Y-%m-%dT%H:%M:%SZ");

  json_builder_set_member_name (builder, "when");
  json_builder_add_string_value (builder, when);
}

static void
add_query (JsonBuilder    *builder,
           DynoQueryEntry *entry)
{
  g_autofree char *text = dyno_query_draft_to_json (entry->draft, FALSE);
  JsonNode *node = dyno_json_parse (text, -1, NULL);

  g_assert (node != NULL);
  json_builder_set_member_name (builder, "query");
  json_builder_add_value (builder, node);
}

char *
dyno_query_store_to_json (DynoQueryStore *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (DYNO_IS_QUERY_STORE (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, FORMAT_NAME);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, DYNO_QUERY_STORE_FORMAT_VERSION);
  json_builder_set_member_name (builder, "tables");
  json_builder_begin_array (builder);
  for (guint t = 0; t < self->tables->len; t++)
    {
      TableQueries *table = g_ptr_array_index (self->tables, t);
      GListModel *saved = G_LIST_MODEL (table->saved);
      GListModel *history = G_LIST_MODEL (table->history);

      if (g_list_model_get_n_items (saved) == 0 && g_list_model_get_n_items (history) == 0)
        continue;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "connection");
      json_builder_add_string_value (builder, table->connection_id);
      json_builder_set_member_name (builder, "table");
      json_builder_add_string_value (builder, table->table_name);

      json_builder_set_member_name (builder, "saved");
      json_builder_begin_array (builder);
      for (guint i = 0; i < g_list_model_get_n_items (saved); i++)
        {
          g_autoptr(DynoQueryEntry) entry = g_list_model_get_item (saved, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, entry->name);
          add_when (builder, entry);
          add_query (builder, entry);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);

      json_builder_set_member_name (builder, "history");
      json_builder_begin_array (builder);
      for (guint i = 0; i < g_list_model_get_n_items (history); i++)
        {
          g_autoptr(DynoQueryEntry) entry = g_list_model_get_item (history, i);

          json_builder_begin_object (builder);
          add_when (builder, entry);
          json_builder_set_member_name (builder, "items");
          json_builder_add_int_value (builder, (gint64) entry->n_items);
          json_builder_set_member_name (builder, "pages");
          json_builder_add_int_value (builder, (gint64) entry->n_pages);
          if (entry->rcu >= 0)
            {
              json_builder_set_member_name (builder, "rcu");
              json_builder_add_double_value (builder, entry->rcu);
            }
          add_query (builder, entry);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return dyno_json_node_to_string (root, TRUE);
}

gboolean
dyno_query_store_save (DynoQueryStore  *self,
                       GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (DYNO_IS_QUERY_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->read_only)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("Saved queries are not written: %s could not be read, and is kept as it "
                     "is"), self->path);
      return FALSE;
    }

  text = dyno_query_store_to_json (self);
  dir = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("Could not save queries to %s: %s"), self->path, g_strerror (saved_errno));
      return FALSE;
    }
  /* a new file, synced, renamed over the old one: a crash leaves the old or the new list */
  if (!g_file_set_contents_full (self->path, text, -1,
                                 G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                 0600, &local_error))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("Could not save queries to %s: %s"), self->path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* ---- the lists ------------------------------------------------------------------------------ */

GListModel *
dyno_query_store_get_saved (DynoQueryStore *self,
                            const char     *connection_id,
                            const char     *table_name)
{
  g_return_val_if_fail (DYNO_IS_QUERY_STORE (self), NULL);
  g_return_val_if_fail (table_name != NULL, NULL);

  return G_LIST_MODEL (lookup_table (self, connection_id, table_name, TRUE)->saved);
}

GListModel *
dyno_query_store_get_history (DynoQueryStore *self,
                              const char     *connection_id,
                              const char     *table_name)
{
  g_return_val_if_fail (DYNO_IS_QUERY_STORE (self), NULL);
  g_return_val_if_fail (table_name != NULL, NULL);

  return G_LIST_MODEL (lookup_table (self, connection_id, table_name, TRUE)->history);
}

DynoQueryEntry *
dyno_query_store_add_history (DynoQueryStore *self,
                              const char     *connection_id,
                              const char     *table_name,
                              DynoQueryDraft *draft,
                              guint64         n_items,
                              guint64         n_pages,
                              double          rcu,
                              GDateTime      *when)
{
  g_autoptr(DynoQueryEntry) entry = NULL;
  DynoQueryDraft *copy;
  TableQueries *table;
  guint n;

  g_return_val_if_fail (DYNO_IS_QUERY_STORE (self), NULL);
  g_return_val_if_fail (table_name != NULL, NULL);
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (draft), NULL);

  copy = copy_draft (draft, NULL);
  if (copy == NULL)
    return NULL;  /* a draft with no table: nothing to reopen it on */
  entry = entry_new (NULL, copy, when);
  entry->n_items = n_items;
  entry->n_pages = n_pages;
  entry->rcu = rcu >= 0 ? rcu : -1;

  table = lookup_table (self, connection_id, table_name, TRUE);
  n = g_list_model_get_n_items (G_LIST_MODEL (table->history));
  /* the oldest ones (at the end) out, the new entry in at the top */
  if (n >= DYNO_QUERY_STORE_MAX_HISTORY)
    g_list_store_splice (table->history, DYNO_QUERY_STORE_MAX_HISTORY - 1,
                         n - DYNO_QUERY_STORE_MAX_HISTORY + 1, NULL, 0);
  g_list_store_insert (table->history, 0, entry);
  return entry;
}

DynoQueryEntry *
dyno_query_store_save_query (DynoQueryStore  *self,
                             const char      *connection_id,
                             const char      *table_name,
                             const char      *name,
                             DynoQueryDraft  *draft,
                             GError         **error)
{
  g_autoptr(DynoQueryEntry) entry = NULL;
  g_autofree char *trimmed = NULL;
  DynoQueryDraft *copy;
  TableQueries *table;

  g_return_val_if_fail (DYNO_IS_QUERY_STORE (self), NULL);
  g_return_val_if_fail (table_name != NULL, NULL);
  g_return_val_if_fail (DYNO_IS_QUERY_DRAFT (draft), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  trimmed = g_strstrip (g_strdup (name ? name : ""));
  if (*trimmed == '\0')
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                           _("Enter a name for the query"));
      return NULL;
    }
  table = lookup_table (self, connection_id, table_name, TRUE);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (table->saved)); i++)
    {
      g_autoptr(DynoQueryEntry) other = g_list_model_get_item (G_LIST_MODEL (table->saved), i);

      if (strcmp (other->name, trimmed) == 0)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION,
                       _("A saved query of %s is already named “%s”"), table_name, trimmed);
          return NULL;
        }
    }
  copy = copy_draft (draft, error);
  if (copy == NULL)
    return NULL;
  entry = entry_new (trimmed, copy, NULL);
  g_list_store_append (table->saved, entry);
  return entry;
}

gboolean
dyno_query_store_move_saved (DynoQueryStore *self,
                             const char     *connection_id,
                             const char     *table_name,
                             guint           from,
                             guint           to)
{
  g_autoptr(DynoQueryEntry) entry = NULL;
  TableQueries *table;
  guint n;

  g_return_val_if_fail (DYNO_IS_QUERY_STORE (self), FALSE);
  g_return_val_if_fail (table_name != NULL, FALSE);

  table = lookup_table (self, connection_id, table_name, FALSE);
  n = table ? g_list_model_get_n_items (G_LIST_MODEL (table->saved)) : 0;
  if (from >= n || to >= n)
    return FALSE;
  if (from == to)
    return TRUE;
  entry = g_list_model_get_item (G_LIST_MODEL (table->saved), from);
  g_list_store_remove (table->saved, from);
  g_list_store_insert (table->saved, to, entry);
  return TRUE;
}

gboolean
dyno_query_store_remove_saved (DynoQueryStore *self,
                               const char     *connection_id,
                               const char     *table_name,
                               guint           position)
{
  TableQueries *table;

  g_return_val_if_fail (DYNO_IS_QUERY_STORE (self), FALSE);
  g_return_val_if_fail (table_name != NULL, FALSE);

  table = lookup_table (self, connection_id, table_name, FALSE);
  if (table == NULL || position >= g_list_model_get_n_items (G_LIST_MODEL (table->saved)))
    return FALSE;
  g_list_store_remove (table->saved, position);
  return TRUE;
}
