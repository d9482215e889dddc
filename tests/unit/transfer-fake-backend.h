/* transfer-fake-backend.h: an in-memory DynamoDB for the import/export and sample tests
 *
 * Include it from one test program only (it defines the type).  It answers CreateTable,
 * DescribeTable (CREATING for the first describe, then ACTIVE), BatchWriteItem (with
 * UnprocessedItems and ValidationException on demand), Scan and Query (pages of page_size
 * items in insertion order; no key condition evaluated).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include <json-glib/json-glib.h>

#include "dyno-backend.h"
#include "dyno-http-error.h"
#include "dyno-json.h"

typedef struct {
  char       *name;
  JsonNode   *create;   /* the CreateTable request */
  GPtrArray  *keys;     /* char*: key string, in insertion order */
  GHashTable *items;    /* key string → item JSON (DynamoDB JSON text) */
  guint       n_describes;
} FakeTable;

#define TEST_TYPE_FAKE_DDB (test_fake_ddb_get_type ())
G_DECLARE_FINAL_TYPE (TestFakeDdb, test_fake_ddb, TEST, FAKE_DDB, GObject)

struct _TestFakeDdb
{
  GObject     parent_instance;
  GHashTable *tables;         /* name → FakeTable* */
  guint       page_size;
  /* BatchWriteItem: the first n_unprocessed_calls calls leave their last n_unprocessed
   * items unprocessed */
  guint       n_unprocessed_calls;
  guint       n_unprocessed;
  /* an item with this attribute fails its whole batch with a ValidationException */
  char       *poison_attribute;
  /* BatchWriteItem: the next n_garbled_calls calls write nothing and answer a body cut
   * short (a 200 that is not JSON) */
  guint       n_garbled_calls;
  /* BatchWriteItem: the next n_foreign_calls calls write nothing and list, as unprocessed,
   * a request that was not sent */
  guint       n_foreign_calls;
  guint       n_batch_calls;
  guint       n_batch_items;  /* items in all BatchWriteItem requests, retries included */
  guint       n_create_calls;
  /* called before each BatchWriteItem is answered (tests cancel from it) */
  void      (*on_batch) (TestFakeDdb *self, gpointer data);
  gpointer    on_batch_data;
  /* Scan/Query fails with this __type after fail_after_pages pages (0: never) */
  guint       fail_after_pages;
  guint       n_pages;
};

static void test_fake_ddb_iface_init (DynoBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestFakeDdb, test_fake_ddb, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (DYNO_TYPE_BACKEND,
                                                      test_fake_ddb_iface_init))

static void
fake_table_free (FakeTable *table)
{
  g_free (table->name);
  json_node_unref (table->create);
  g_ptr_array_unref (table->keys);
  g_hash_table_unref (table->items);
  g_free (table);
}

static GError *
fake_error (const char *type,
            const char *message)
{
  g_autofree char *body = g_strdup_printf ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#%s\","
                                           "\"message\":\"%s\"}", type, message);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

  return dyno_http_error_new (400, "Bad Request", bytes, "fake-request");
}

/* The key attribute names of @table's CreateTable request: [hash, range or NULL] */
static void
fake_table_key_names (FakeTable   *table,
                      const char **hash,
                      const char **range)
{
  JsonArray *schema = json_object_get_array_member (json_node_get_object (table->create),
                                                    "KeySchema");

  *hash = *range = NULL;
  for (guint i = 0; i < json_array_get_length (schema); i++)
    {
      JsonObject *element = json_array_get_object_element (schema, i);
      const char *kind = json_object_get_string_member (element, "KeyType");

      if (g_strcmp0 (kind, "HASH") == 0)
        *hash = json_object_get_string_member (element, "AttributeName");
      else
        *range = json_object_get_string_member (element, "AttributeName");
    }
}

static char *
fake_node_to_string (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

static char *
fake_table_key_of (FakeTable  *table,
                   JsonObject *item)
{
  const char *hash, *range;
  g_autofree char *h = NULL;
  g_autofree char *r = NULL;

  fake_table_key_names (table, &hash, &range);
  if (!json_object_has_member (item, hash))
    return NULL;
  h = fake_node_to_string (json_object_get_member (item, hash));
  if (range != NULL)
    {
      if (!json_object_has_member (item, range))
        return NULL;
      r = fake_node_to_string (json_object_get_member (item, range));
    }
  return g_strdup_printf ("%s|%s", h, r != NULL ? r : "");
}

static JsonNode *
fake_parse (GBytes *body)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  gsize len;
  const char *data = g_bytes_get_data (body, &len);

  g_assert_true (json_parser_load_from_data (parser, data, len, NULL));
  return json_node_ref (json_parser_get_root (parser));
}

static FakeTable *
fake_lookup (TestFakeDdb  *self,
             JsonObject   *request,
             GError      **error)
{
  const char *name = json_object_get_string_member (request, "TableName");
  FakeTable *table = g_hash_table_lookup (self->tables, name);

  if (table == NULL)
    *error = fake_error ("ResourceNotFoundException", "Requested resource not found");
  return table;
}

static char *
fake_batch_write (TestFakeDdb  *self,
                  JsonObject   *request,
                  GError      **error)
{
  JsonObject *items = json_object_get_object_member (request, "RequestItems");
  g_autoptr(GList) names = json_object_get_members (items);
  g_autoptr(GString) out = g_string_new ("{\"UnprocessedItems\":{");
  gboolean any = FALSE;

  self->n_batch_calls++;
  if (self->on_batch != NULL)
    self->on_batch (self, self->on_batch_data);
  if (self->n_garbled_calls > 0)
    {
      self->n_garbled_calls--;
      return g_strdup ("{\"UnprocessedItems\":{\"t\":[{\"PutRequ");
    }
  if (self->n_foreign_calls > 0)
    {
      self->n_foreign_calls--;
      return g_strdup ("{\"UnprocessedItems\":{\"t\":[{\"PutRequest\":{\"Item\":"
                       "{\"pk\":{\"S\":\"never-sent\"}}}}]}}");
    }

  for (GList *l = names; l != NULL; l = l->next)
    {
      FakeTable *table = g_hash_table_lookup (self->tables, l->data);
      JsonArray *writes = json_object_get_array_member (items, l->data);
      guint n = json_array_get_length (writes);
      guint n_keep = 0;

      if (table == NULL)
        {
          *error = fake_error ("ResourceNotFoundException", "Requested resource not found");
          return NULL;
        }
      g_assert_cmpuint (n, >=, 1);
      g_assert_cmpuint (n, <=, 25);
      self->n_batch_items += n;

      /* validate the whole batch first, as DynamoDB does */
      for (guint i = 0; i < n; i++)
        {
          JsonObject *put = json_object_get_object_member (json_array_get_object_element (writes,
                                                                                          i),
                                                           "PutRequest");
          JsonObject *item = json_object_get_object_member (put, "Item");
          g_autofree char *key = fake_table_key_of (table, item);

          if (self->poison_attribute != NULL
              && json_object_has_member (item, self->poison_attribute))
            {
              *error = fake_error ("ValidationException",
                                   "One or more parameter values were invalid: poisoned");
              return NULL;
            }
          for (guint j = 0; j < i; j++)
            {
              JsonObject *other_put =
                json_object_get_object_member (json_array_get_object_element (writes, j),
                                               "PutRequest");
              g_autofree char *other = fake_table_key_of (table,
                                                          json_object_get_object_member (other_put,
                                                                                         "Item"));

              if (g_strcmp0 (key, other) == 0)
                {
                  *error = fake_error ("ValidationException",
                                       "Provided list of item keys contains duplicates");
                  return NULL;
                }
            }
        }

      if (self->n_unprocessed_calls > 0)
        {
          self->n_unprocessed_calls--;
          n_keep = MIN (self->n_unprocessed, n);
        }

      for (guint i = 0; i < n; i++)
        {
          JsonNode *write = json_array_get_element (writes, i);
          JsonObject *put = json_object_get_object_member (json_node_get_object (write),
                                                           "PutRequest");
          JsonObject *item = json_object_get_object_member (put, "Item");
          char *key;

          if (i >= n - n_keep)
            {
              g_autofree char *text = fake_node_to_string (write);

              if (!any)
                {
                  dyno_json_write_string (out, l->data, -1);
                  g_string_append (out, ":[");
                }
              else
                g_string_append_c (out, ',');
              g_string_append (out, text);
              any = TRUE;
              continue;
            }
          key = fake_table_key_of (table, item);
          if (!g_hash_table_contains (table->items, key))
            g_ptr_array_add (table->keys, g_strdup (key));
          g_hash_table_insert (table->items, key,
                               fake_node_to_string (json_object_get_member (put, "Item")));
        }
    }
  if (any)
    g_string_append (out, "]");
  g_string_append (out, "}}");
  return g_strdup (out->str);
}

static char *
fake_create_table (TestFakeDdb  *self,
                   JsonNode     *root,
                   GError      **error)
{
  JsonObject *request = json_node_get_object (root);
  const char *name = json_object_get_string_member (request, "TableName");
  FakeTable *table;
  g_autofree char *text = NULL;

  self->n_create_calls++;
  if (g_hash_table_contains (self->tables, name))
    {
      g_autofree char *message = g_strdup_printf ("Table already exists: %s", name);

      *error = fake_error ("ResourceInUseException", message);
      return NULL;
    }
  table = g_new0 (FakeTable, 1);
  table->name = g_strdup (name);
  table->create = json_node_copy (root);
  table->keys = g_ptr_array_new_with_free_func (g_free);
  table->items = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_insert (self->tables, table->name, table);
  text = fake_node_to_string (root);
  return g_strdup_printf ("{\"TableDescription\":%s}", text);
}

static char *
fake_describe (TestFakeDdb  *self,
               JsonObject   *request,
               GError      **error)
{
  FakeTable *table = fake_lookup (self, request, error);
  g_autoptr(JsonNode) copy = NULL;
  g_autofree char *text = NULL;

  if (table == NULL)
    return NULL;
  copy = json_node_copy (table->create);
  json_object_set_string_member (json_node_get_object (copy), "TableStatus",
                                 table->n_describes++ == 0 ? "CREATING" : "ACTIVE");
  json_object_set_int_member (json_node_get_object (copy), "ItemCount",
                              g_hash_table_size (table->items));
  text = fake_node_to_string (copy);
  return g_strdup_printf ("{\"Table\":%s}", text);
}

static char *
fake_scan (TestFakeDdb  *self,
           JsonObject   *request,
           GError      **error)
{
  FakeTable *table = fake_lookup (self, request, error);
  g_autoptr(GString) out = g_string_new ("{\"Items\":[");
  guint start = 0, end, count = 0;

  if (table == NULL)
    return NULL;
  self->n_pages++;
  if (self->fail_after_pages > 0 && self->n_pages > self->fail_after_pages)
    {
      *error = fake_error ("InternalServerError", "Internal server error");
      return NULL;
    }
  if (json_object_has_member (request, "ExclusiveStartKey"))
    {
      JsonObject *from = json_object_get_object_member (request, "ExclusiveStartKey");
      g_autofree char *key = fake_table_key_of (table, from);

      for (guint i = 0; i < table->keys->len; i++)
        if (strcmp (g_ptr_array_index (table->keys, i), key) == 0)
          start = i + 1;
    }
  end = MIN (table->keys->len, start + (self->page_size > 0 ? self->page_size : 1000000));
  for (guint i = start; i < end; i++)
    {
      if (count++ > 0)
        g_string_append_c (out, ',');
      g_string_append (out, g_hash_table_lookup (table->items, g_ptr_array_index (table->keys, i)));
    }
  g_string_append_printf (out, "],\"Count\":%u,\"ScannedCount\":%u", count, count);
  if (end < table->keys->len)
    {
      /* LastEvaluatedKey: the key attributes of the page's last item */
      const char *hash, *range;
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *item;

      fake_table_key_names (table, &hash, &range);
      const char *last = g_hash_table_lookup (table->items,
                                              g_ptr_array_index (table->keys, end - 1));

      g_assert_true (json_parser_load_from_data (parser, last, -1, NULL));
      item = json_node_get_object (json_parser_get_root (parser));
      g_string_append (out, ",\"LastEvaluatedKey\":{");
      dyno_json_write_string (out, hash, -1);
      g_string_append_c (out, ':');
      {
        g_autofree char *h = fake_node_to_string (json_object_get_member (item, hash));
        g_string_append (out, h);
      }
      if (range != NULL)
        {
          g_autofree char *r = fake_node_to_string (json_object_get_member (item, range));

          g_string_append_c (out, ',');
          dyno_json_write_string (out, range, -1);
          g_string_append_c (out, ':');
          g_string_append (out, r);
        }
      g_string_append_c (out, '}');
    }
  g_string_append_c (out, '}');
  return g_strdup (out->str);
}

typedef struct {
  GTask *task;
  char  *body;
  GError *error;
} FakeReply;

static gboolean
fake_reply_cb (gpointer user_data)
{
  FakeReply *reply = user_data;

  if (reply->error != NULL)
    g_task_return_error (reply->task, reply->error);
  else
    g_task_return_pointer (reply->task, g_bytes_new_take (reply->body, strlen (reply->body)),
                           (GDestroyNotify) g_bytes_unref);
  g_object_unref (reply->task);
  g_free (reply);
  return G_SOURCE_REMOVE;
}

static void
fake_call_async (DynoBackend         *backend,
                 const char          *operation,
                 GBytes              *body,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  TestFakeDdb *self = TEST_FAKE_DDB (backend);
  FakeReply *reply = g_new0 (FakeReply, 1);
  g_autoptr(JsonNode) root = fake_parse (body);
  JsonObject *request = json_node_get_object (root);

  reply->task = g_task_new (self, cancellable, callback, user_data);
  if (strcmp (operation, "BatchWriteItem") == 0)
    reply->body = fake_batch_write (self, request, &reply->error);
  else if (strcmp (operation, "CreateTable") == 0)
    reply->body = fake_create_table (self, root, &reply->error);
  else if (strcmp (operation, "DescribeTable") == 0)
    reply->body = fake_describe (self, request, &reply->error);
  else if (strcmp (operation, "Scan") == 0 || strcmp (operation, "Query") == 0)
    reply->body = fake_scan (self, request, &reply->error);
  else if (strcmp (operation, "ListTables") == 0)
    {
      /* one page, every table */
      g_autoptr(GString) json = g_string_new ("{\"TableNames\":[");
      g_autoptr(GList) names = g_hash_table_get_keys (self->tables);

      names = g_list_sort (names, (GCompareFunc) strcmp);
      for (GList *l = names; l != NULL; l = l->next)
        {
          if (l != names)
            g_string_append_c (json, ',');
          dyno_json_write_string (json, l->data, -1);
        }
      g_string_append (json, "]}");
      reply->body = g_strdup (json->str);
    }
  else
    g_error ("fake backend: unexpected operation %s", operation);

  /* answer later, as a server would */
  g_idle_add (fake_reply_cb, reply);
}

static GBytes *
fake_call_finish (DynoBackend   *backend,
                  GAsyncResult  *result,
                  GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static char *
fake_dup_description (DynoBackend *backend)
{
  return g_strdup ("fake DynamoDB");
}

static void
test_fake_ddb_iface_init (DynoBackendInterface *iface)
{
  iface->call_async = fake_call_async;
  iface->call_finish = fake_call_finish;
  iface->dup_description = fake_dup_description;
}

static void
test_fake_ddb_finalize (GObject *object)
{
  TestFakeDdb *self = TEST_FAKE_DDB (object);

  g_hash_table_unref (self->tables);
  g_free (self->poison_attribute);
  G_OBJECT_CLASS (test_fake_ddb_parent_class)->finalize (object);
}

static void
test_fake_ddb_class_init (TestFakeDdbClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_fake_ddb_finalize;
}

static void
test_fake_ddb_init (TestFakeDdb *self)
{
  self->tables = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                        (GDestroyNotify) fake_table_free);
}

/* A table with key pk (S) and sort key sk (N), created directly. */
static G_GNUC_UNUSED void
test_fake_ddb_add_table (TestFakeDdb *self,
                         const char  *name)
{
  g_autofree char *json = g_strdup_printf (
    "{\"TableName\":\"%s\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],\"AttributeDefinitions\":["
    "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\","
    "\"AttributeType\":\"N\"}],\"BillingMode\":\"PAY_PER_REQUEST\"}", name);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  reply = fake_create_table (self, json_parser_get_root (parser), &error);
  g_assert_no_error (error);
  self->n_create_calls--;
  ((FakeTable *) g_hash_table_lookup (self->tables, name))->n_describes = 1;
}

static G_GNUC_UNUSED guint
test_fake_ddb_count (TestFakeDdb *self,
                     const char  *name)
{
  FakeTable *table = g_hash_table_lookup (self->tables, name);

  return table != NULL ? g_hash_table_size (table->items) : 0;
}

/* The stored item (DynamoDB JSON text) with pk = @pk (S) and sk = @sk (N), or NULL. */
static G_GNUC_UNUSED const char *
test_fake_ddb_get (TestFakeDdb *self,
                   const char  *name,
                   const char  *pk,
                   const char  *sk)
{
  FakeTable *table = g_hash_table_lookup (self->tables, name);
  g_autofree char *key = g_strdup_printf ("{\"S\":\"%s\"}|{\"N\":\"%s\"}", pk, sk);

  return table != NULL ? g_hash_table_lookup (table->items, key) : NULL;
}
