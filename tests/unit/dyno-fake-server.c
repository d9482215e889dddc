/* dyno-fake-server.c: a loopback DynamoDB stand-in that serves Query/Scan pages and faults
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Test code: included by the test programs (tests/meson.build builds one file per test).
 */
#include "dyno-fake-server.h"

#include <json-glib/json-glib.h>
#include <string.h>

struct _FakeServer
{
  SoupServer         *server;
  char               *url;
  GPtrArray          *items;          /* char*: DynamoDB JSON of item i */
  GQueue              faults;         /* GINT_TO_POINTER (FakeFault) */
  FakeFault          *random_faults;
  guint               n_random_faults;
  double              random_rate;
  GRand              *rand;
  guint               slow_ms;
  gsize               page_bytes;
  GStrv               tables;

  guint               n_requests;
  guint               n_faults;
  guint               n_pages_served;
  char               *last_target;
  SoupMessageHeaders *last_headers;
  char               *last_body;
  gint64              disconnect_time;
  gint64              slow_arrival_time;
  GPtrArray          *slow;           /* SlowReply* in flight */
  guint               max_slow;       /* most SlowReply in flight at once */
  guint               unprocessed_rounds;
  guint               n_writes;       /* write requests accepted by BatchWriteItem */
  GHashTable         *answers;        /* operation -> Answer* */
  GHashTable         *clients;        /* the client ports seen: one per connection */
};

typedef struct {
  guint   status;
  GBytes *body;
} Answer;

static void
answer_free (Answer *answer)
{
  g_bytes_unref (answer->body);
  g_free (answer);
}

typedef struct {
  FakeServer        *server;
  SoupServerMessage *message;
  GBytes            *body;
  guint              timeout_id;
  gulong             disconnected_id;
} SlowReply;

static guint32
fake_crc32 (const guint8 *data,
            gsize         len)
{
  guint32 crc = 0xFFFFFFFFu;

  for (gsize i = 0; i < len; i++)
    {
      crc ^= data[i];
      for (guint k = 0; k < 8; k++)
        crc = (crc & 1) ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
    }

  return crc ^ 0xFFFFFFFFu;
}

static void
set_json_response (SoupServerMessage *message,
                   guint              status,
                   GBytes            *body,
                   gboolean           bad_crc)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (message);
  gsize len;
  const guint8 *data = g_bytes_get_data (body, &len);
  g_autofree char *crc = g_strdup_printf ("%u", fake_crc32 (data, len) ^ (bad_crc ? 1u : 0u));

  soup_message_headers_replace (headers, "x-amzn-RequestId", "FAKE-REQUEST-ID");
  soup_message_headers_replace (headers, "x-amz-crc32", crc);
  soup_server_message_set_status (message, status, NULL);
  soup_server_message_set_response (message, "application/x-amz-json-1.0", SOUP_MEMORY_COPY,
                                    (const char *) data, len);
}

static GBytes *
error_body (const char *type,
            const char *text)
{
  char *json = g_strdup_printf ("{\"__type\":\"%s\",\"message\":\"%s\"}", type, text);

  return g_bytes_new_take (json, strlen (json));
}

static gint64
member_int (JsonObject *object,
            const char *name,
            gint64      fallback)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return fallback;
  return json_node_get_int (node);
}

static GBytes *
query_page (FakeServer *self,
            JsonObject *request)
{
  GString *out = g_string_new ("{\"Items\":[");
  gint64 limit = member_int (request, "Limit", 0);
  gint64 segment = member_int (request, "Segment", 0);
  gint64 total = member_int (request, "TotalSegments", 0);
  guint start = 0;
  guint count = 0;
  gsize bytes = 0;
  gboolean stopped = FALSE;
  guint last = 0;
  JsonNode *esk = json_object_get_member (request, "ExclusiveStartKey");

  if (esk != NULL && JSON_NODE_HOLDS_OBJECT (esk))
    {
      JsonObject *sk = json_object_get_object_member (json_node_get_object (esk), "sk");

      if (sk != NULL && json_object_has_member (sk, "N"))
        start = (guint) g_ascii_strtoull (json_object_get_string_member (sk, "N"), NULL, 10) + 1;
    }

  for (guint i = start; i < self->items->len; i++)
    {
      const char *item = g_ptr_array_index (self->items, i);

      if (total > 0 && (gint64) (i % total) != segment)
        continue;
      if ((limit > 0 && count >= limit) || bytes >= self->page_bytes)
        {
          stopped = TRUE;
          break;
        }
      if (count > 0)
        g_string_append_c (out, ',');
      g_string_append (out, item);
      bytes += strlen (item);
      count++;
      last = i;
    }
  /* DynamoDB returns a LastEvaluatedKey whenever Limit or the size cap stopped the page, even
   * if nothing is left: the client must cope with a last, empty page. */
  if (!stopped && count > 0 && ((limit > 0 && count >= limit) || bytes >= self->page_bytes))
    stopped = TRUE;

  g_string_append_printf (out, "],\"Count\":%u,\"ScannedCount\":%u", count, count);
  if (stopped)
    g_string_append_printf (out,
                            ",\"LastEvaluatedKey\":{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"%u\"}}",
                            count > 0 ? last : (start > 0 ? start - 1 : 0));
  g_string_append (out, ",\"ConsumedCapacity\":{\"TableName\":\"T\",\"CapacityUnits\":0.5}}");

  self->n_pages_served++;
  return g_string_free_to_bytes (out);
}

static GBytes *
list_tables_page (FakeServer *self,
                  JsonObject *request)
{
  GString *out = g_string_new ("{\"TableNames\":[");
  const char *after = json_object_has_member (request, "ExclusiveStartTableName")
                      ? json_object_get_string_member (request, "ExclusiveStartTableName") : NULL;
  guint i = 0;
  guint n = 0;
  guint len = self->tables ? g_strv_length (self->tables) : 0;

  if (after != NULL)
    {
      while (i < len && strcmp (self->tables[i], after) != 0)
        i++;
    }
  if (after != NULL && i < len)
    i++;

  for (; i < len && n < 2; i++, n++)
    g_string_append_printf (out, "%s\"%s\"", n ? "," : "", self->tables[i]);
  g_string_append_c (out, ']');
  if (i < len)
    g_string_append_printf (out, ",\"LastEvaluatedTableName\":\"%s\"", self->tables[i - 1]);
  g_string_append_c (out, '}');

  return g_string_free_to_bytes (out);
}

static GBytes *
batch_write (FakeServer *self,
             JsonObject *request)
{
  JsonObject *items = json_object_get_object_member (request, "RequestItems");
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) unprocessed = NULL;
  JsonArray *list;
  guint n;
  GString *out;

  if (items == NULL || !json_object_has_member (items, "T"))
    return g_bytes_new_static ("{\"UnprocessedItems\":{}}", 23);

  list = json_object_get_array_member (items, "T");
  n = json_array_get_length (list);
  if (self->unprocessed_rounds == 0 || n == 0)
    {
      self->n_writes += n;
      return g_bytes_new_static ("{\"UnprocessedItems\":{}}", 23);
    }

  /* The last write request of the batch is left unprocessed. */
  self->unprocessed_rounds--;
  self->n_writes += n - 1;
  out = g_string_new ("{\"UnprocessedItems\":{\"T\":[");
  json_generator_set_root (generator, json_array_get_element (list, n - 1));
  {
    g_autofree char *text = json_generator_to_data (generator, NULL);
    g_string_append (out, text);
  }
  g_string_append (out, "]}}");
  return g_string_free_to_bytes (out);
}

static void
slow_reply_free (SlowReply *reply)
{
  if (reply->timeout_id)
    g_source_remove (reply->timeout_id);
  if (reply->disconnected_id)
    g_signal_handler_disconnect (reply->message, reply->disconnected_id);
  g_object_unref (reply->message);
  g_bytes_unref (reply->body);
  g_free (reply);
}

static gboolean
slow_reply_cb (gpointer user_data)
{
  SlowReply *reply = user_data;

  reply->timeout_id = 0;
  set_json_response (reply->message, 200, reply->body, FALSE);
  soup_server_message_unpause (reply->message);
  g_ptr_array_remove (reply->server->slow, reply);

  return G_SOURCE_REMOVE;
}

static void
slow_disconnected_cb (SoupServerMessage *message,
                      gpointer           user_data)
{
  SlowReply *reply = user_data;

  if (reply->timeout_id == 0)
    return;
  reply->server->disconnect_time = g_get_monotonic_time ();
  g_source_remove (reply->timeout_id);
  reply->timeout_id = 0;
}

static void
write_raw_and_close (SoupServerMessage *message,
                     const char        *raw)
{
  g_autoptr(GIOStream) stream = soup_server_message_steal_connection (message);

  if (raw != NULL)
    g_output_stream_write_all (g_io_stream_get_output_stream (stream), raw, strlen (raw),
                               NULL, NULL, NULL);
  g_io_stream_close (stream, NULL, NULL);
}

static FakeFault
next_fault (FakeServer *self)
{
  if (!g_queue_is_empty (&self->faults))
    return GPOINTER_TO_INT (g_queue_pop_head (&self->faults));

  if (self->n_random_faults > 0 && g_rand_double (self->rand) < self->random_rate)
    return self->random_faults[g_rand_int_range (self->rand, 0, self->n_random_faults)];

  return FAKE_FAULT_NONE;
}

static void
handler (SoupServer        *soup_server,
         SoupServerMessage *message,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  FakeServer *self = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (message);
  SoupMessageBody *request_body = soup_server_message_get_request_body (message);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GBytes) body = NULL;
  const char *target;
  const char *operation;
  JsonObject *request = NULL;
  FakeFault fault;

  self->n_requests++;
  {
    GSocketAddress *remote = soup_server_message_get_remote_address (message);

    if (G_IS_INET_SOCKET_ADDRESS (remote))
      g_hash_table_add (self->clients, GUINT_TO_POINTER (
                          g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (remote))));
  }
  target = soup_message_headers_get_one (headers, "X-Amz-Target");
  g_free (self->last_target);
  self->last_target = g_strdup (target);
  g_clear_pointer (&self->last_headers, soup_message_headers_unref);
  self->last_headers = soup_message_headers_ref (headers);
  g_free (self->last_body);
  self->last_body = g_strndup (request_body->data, request_body->length);

  fault = next_fault (self);
  if (fault != FAKE_FAULT_NONE)
    self->n_faults++;

  switch (fault)
    {
    case FAKE_FAULT_THROTTLE:
      body = error_body ("com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                         "The level of configured provisioned throughput for the table was "
                         "exceeded.");
      set_json_response (message, 400, body, FALSE);
      return;
    case FAKE_FAULT_500:
      body = error_body ("com.amazonaws.dynamodb.v20120810#InternalServerError",
                         "Internal server error");
      set_json_response (message, 500, body, FALSE);
      return;
    case FAKE_FAULT_503:
      soup_server_message_set_status (message, 503, NULL);
      soup_server_message_set_response (message, "text/html", SOUP_MEMORY_STATIC,
                                        "<html>busy</html>", 17);
      return;
    case FAKE_FAULT_VALIDATION:
      body = error_body ("com.amazon.coral.validate#ValidationException",
                         "One or more parameter values were invalid");
      set_json_response (message, 400, body, FALSE);
      return;
    case FAKE_FAULT_NOT_FOUND:
      body = error_body ("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                         "Requested resource not found");
      set_json_response (message, 400, body, FALSE);
      return;
    case FAKE_FAULT_EXPIRED:
      body = error_body ("ExpiredTokenException",
                         "The security token included in the request is expired");
      set_json_response (message, 400, body, FALSE);
      return;
    case FAKE_FAULT_UNRECOGNIZED:
      body = error_body ("com.amazon.coral.service#UnrecognizedClientException",
                         "The security token included in the request is invalid.");
      set_json_response (message, 400, body, FALSE);
      return;
    case FAKE_FAULT_DROP:
      write_raw_and_close (message, NULL);
      return;
    case FAKE_FAULT_TRUNCATE:
      write_raw_and_close (message,
                           "HTTP/1.1 200 OK\r\n"
                           "Content-Type: application/x-amz-json-1.0\r\n"
                           "Content-Length: 4000\r\n"
                           "\r\n"
                           "{\"Items\":[{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"0\"}}");
      return;
    case FAKE_FAULT_GARBLED:
      write_raw_and_close (message,
                           "HTTP/1.1 200 OK\r\n"
                           "Content-Type: application/x-amz-json-1.0\r\n"
                           "Content-Length: 15\r\n"
                           "\r\n"
                           "{\"Items\":[{\"pk\"");
      return;
    case FAKE_FAULT_NONE:
    case FAKE_FAULT_BAD_CRC:
    case FAKE_FAULT_SLOW:
    case FAKE_N_FAULTS:
    default:
      break;
    }

  if (json_parser_load_from_data (parser, request_body->data, request_body->length, NULL)
      && JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    request = json_node_get_object (json_parser_get_root (parser));

  operation = target && g_str_has_prefix (target, "DynamoDB_20120810.") ? target + 18 : "";
  {
    Answer *answer = g_hash_table_lookup (self->answers, operation);

    if (answer != NULL)
      {
        set_json_response (message, answer->status, answer->body, FALSE);
        return;
      }
  }
  if (request == NULL)
    body = error_body ("com.amazon.coral.service#SerializationException", "Bad JSON");
  else if (strcmp (operation, "Query") == 0 || strcmp (operation, "Scan") == 0)
    body = query_page (self, request);
  else if (strcmp (operation, "ListTables") == 0)
    body = list_tables_page (self, request);
  else if (strcmp (operation, "BatchWriteItem") == 0)
    body = batch_write (self, request);
  else
    body = g_bytes_new_static ("{}", 2);

  if (request == NULL)
    {
      set_json_response (message, 400, body, FALSE);
      return;
    }

  if (fault == FAKE_FAULT_SLOW)
    {
      SlowReply *reply = g_new0 (SlowReply, 1);

      reply->server = self;
      reply->message = g_object_ref (message);
      reply->body = g_bytes_ref (body);
      self->slow_arrival_time = g_get_monotonic_time ();
      reply->disconnected_id = g_signal_connect (message, "disconnected",
                                                 G_CALLBACK (slow_disconnected_cb), reply);
      reply->timeout_id = g_timeout_add (self->slow_ms, slow_reply_cb, reply);
      g_ptr_array_add (self->slow, reply);
      self->max_slow = MAX (self->max_slow, self->slow->len);
      soup_server_message_pause (message);
      return;
    }

  set_json_response (message, 200, body, fault == FAKE_FAULT_BAD_CRC);
}

static char *
item_json (guint i,
           gsize padding)
{
  g_autofree char *pad = g_strnfill (padding, 'x');

  return g_strdup_printf ("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"%u\"},\"data\":{\"S\":\"%s%u\"}}",
                          i, pad, i);
}

FakeServer *
fake_server_new (guint n_items,
                 gsize item_padding)
{
  FakeServer *self = g_new0 (FakeServer, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  GSList *uris;

  self->items = g_ptr_array_new_with_free_func (g_free);
  self->answers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) answer_free);
  for (guint i = 0; i < n_items; i++)
    g_ptr_array_add (self->items, item_json (i, item_padding));
  self->clients = g_hash_table_new (NULL, NULL);
  g_queue_init (&self->faults);
  self->page_bytes = 1024 * 1024;
  self->slow_ms = 5000;
  self->slow = g_ptr_array_new_with_free_func ((GDestroyNotify) slow_reply_free);

  self->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (self->server, NULL, handler, self, NULL);
  if (!soup_server_listen (self->server, address, 0, &error))
    g_error ("fake server: %s", error->message);

  uris = soup_server_get_uris (self->server);
  g_assert_nonnull (uris);
  self->url = g_uri_to_string (uris->data);
  /* "http://127.0.0.1:PORT/" -> no trailing slash, as endpoints are written */
  if (g_str_has_suffix (self->url, "/"))
    self->url[strlen (self->url) - 1] = '\0';
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  return self;
}

void
fake_server_free (FakeServer *self)
{
  g_ptr_array_unref (self->slow);
  soup_server_disconnect (self->server);
  g_object_unref (self->server);
  g_free (self->url);
  g_ptr_array_unref (self->items);
  g_hash_table_unref (self->answers);
  g_hash_table_unref (self->clients);
  g_queue_clear (&self->faults);
  g_free (self->random_faults);
  g_clear_pointer (&self->rand, g_rand_free);
  g_strfreev (self->tables);
  g_free (self->last_target);
  g_clear_pointer (&self->last_headers, soup_message_headers_unref);
  g_free (self->last_body);
  g_free (self);
}

const char *
fake_server_get_url (FakeServer *self)
{
  return self->url;
}

void
fake_server_push_fault (FakeServer *self,
                        FakeFault   fault)
{
  g_queue_push_tail (&self->faults, GINT_TO_POINTER (fault));
}

void
fake_server_set_random_faults (FakeServer      *self,
                               const FakeFault *faults,
                               double           rate,
                               guint32          seed)
{
  guint n = 0;

  while (faults[n] != FAKE_FAULT_NONE)
    n++;
  g_free (self->random_faults);
  self->random_faults = g_memdup2 (faults, n * sizeof (FakeFault));
  self->n_random_faults = n;
  self->random_rate = rate;
  g_clear_pointer (&self->rand, g_rand_free);
  self->rand = g_rand_new_with_seed (seed);
}

void
fake_server_set_slow_ms (FakeServer *self,
                         guint       slow_ms)
{
  self->slow_ms = slow_ms;
}

void
fake_server_set_page_bytes (FakeServer *self,
                            gsize       max_bytes)
{
  self->page_bytes = max_bytes;
}

void
fake_server_set_tables (FakeServer         *self,
                        const char * const *names)
{
  g_strfreev (self->tables);
  self->tables = g_strdupv ((char **) names);
}

guint
fake_server_get_n_connections (FakeServer *self)
{
  return g_hash_table_size (self->clients);
}

guint
fake_server_get_n_requests (FakeServer *self)
{
  return self->n_requests;
}

guint
fake_server_get_n_faults (FakeServer *self)
{
  return self->n_faults;
}

guint
fake_server_get_n_pages_served (FakeServer *self)
{
  return self->n_pages_served;
}

const char *
fake_server_get_last_target (FakeServer *self)
{
  return self->last_target;
}

SoupMessageHeaders *
fake_server_get_last_headers (FakeServer *self)
{
  return self->last_headers;
}

const char *
fake_server_get_last_body (FakeServer *self)
{
  return self->last_body;
}

gint64
fake_server_get_disconnect_time (FakeServer *self)
{
  return self->disconnect_time;
}

void
fake_server_set_unprocessed_rounds (FakeServer *self,
                                    guint       rounds)
{
  self->unprocessed_rounds = rounds;
}

guint
fake_server_get_n_writes (FakeServer *self)
{
  return self->n_writes;
}

gint64
fake_server_get_slow_arrival_time (FakeServer *self)
{
  return self->slow_arrival_time;
}

void
fake_server_set_answer (FakeServer *self,
                        const char *operation,
                        guint       status,
                        const char *body,
                        gssize      len)
{
  Answer *answer = g_new0 (Answer, 1);

  answer->status = status;
  answer->body = g_bytes_new (body, len < 0 ? strlen (body) : (gsize) len);
  g_hash_table_replace (self->answers, g_strdup (operation), answer);
}

guint
fake_server_get_max_slow_in_flight (FakeServer *self)
{
  return self->max_slow;
}
