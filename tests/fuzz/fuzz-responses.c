/* fuzz-responses.c: fuzz everything that reads a DynamoDB server's answers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A broken or hostile server (or a proxy in the way) can send anything.  Each input goes
 * through: the JSON reader every response goes through (dyno_json_parse) and its writer,
 * which must agree with each other (NULs and nesting included); DescribeTable
 * (dyno_table_info); Query/Scan pages (dyno_page_parse); error bodies (dyno_http_error_new);
 * and the members the client reads out of BatchWriteItem/BatchGetItem/ListTables/GetItem
 * answers (UnprocessedItems, UnprocessedKeys, Responses, TableNames, Item), read as the
 * client reads them.
 *
 * Built with -fsanitize=fuzzer, libFuzzer supplies main() and calls LLVMFuzzerTestOneInput.
 * Built without it, the main() below runs the entry point over the files named on the
 * command line (a corpus, or a crash to reproduce).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dyno-http-error.h"
#include "dyno-json.h"
#include "dyno-page.h"
#include "dyno-table-info.h"
#include "dyno-value.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* The writer's output reads back into a tree that writes out the same again. */
static void
check_tree (JsonNode *root)
{
  g_autofree char *compact = dyno_json_node_to_string (root, FALSE);
  g_autofree char *pretty = dyno_json_node_to_string (root, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) again = dyno_json_parse (compact, -1, &error);
  g_autoptr(JsonNode) from_pretty = NULL;
  g_autofree char *compact_again = NULL;
  g_autofree char *compact_pretty = NULL;

  if (again == NULL)
    g_error ("written JSON does not read back: %s\n%s", error->message, compact);
  compact_again = dyno_json_node_to_string (again, FALSE);
  if (strcmp (compact, compact_again) != 0)
    g_error ("JSON changed on a round trip:\n%s\n%s", compact, compact_again);

  from_pretty = dyno_json_parse (pretty, -1, &error);
  if (from_pretty == NULL)
    g_error ("pretty JSON does not read back: %s\n%s", error->message, pretty);
  compact_pretty = dyno_json_node_to_string (from_pretty, FALSE);
  if (strcmp (compact, compact_pretty) != 0)
    g_error ("pretty JSON reads back different:\n%s\n%s", compact, compact_pretty);
}

/* An item member as the client reads it; what reads must write and read back equal. */
static void
read_item (JsonNode *node)
{
  g_autoptr(DynoItem) item = NULL;
  g_autoptr(DynoItem) again = NULL;
  g_autofree char *json = NULL;

  if (node == NULL)
    return;
  item = dyno_item_from_json_node (node, NULL);
  if (item == NULL)
    return;
  json = dyno_item_to_ddb_json (item);
  again = dyno_item_from_ddb_json (json, -1, NULL);
  if (again == NULL || !dyno_item_equal (item, again))
    g_error ("an item read from a response does not round-trip: %s", json);
}

static JsonNode *
member (JsonNode   *node,
        const char *name)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_get_member (json_node_get_object (node), name);
}

/* UnprocessedItems: {table: [{PutRequest: {Item}} | {DeleteRequest: {Key}}]};
 * UnprocessedKeys: {table: {Keys: [key…]}}; Responses: {table: [item…]}. */
static void
read_batch_members (JsonNode *root)
{
  JsonNode *unprocessed = member (root, "UnprocessedItems");
  JsonNode *keys = member (root, "UnprocessedKeys");
  JsonNode *responses = member (root, "Responses");

  if (unprocessed != NULL && JSON_NODE_HOLDS_OBJECT (unprocessed))
    {
      JsonObjectIter iter;
      const char *table;
      JsonNode *list;

      json_object_iter_init (&iter, json_node_get_object (unprocessed));
      while (json_object_iter_next (&iter, &table, &list))
        {
          if (!JSON_NODE_HOLDS_ARRAY (list))
            continue;
          for (guint i = 0; i < json_array_get_length (json_node_get_array (list)); i++)
            {
              JsonNode *request = json_array_get_element (json_node_get_array (list), i);

              read_item (member (member (request, "PutRequest"), "Item"));
              read_item (member (member (request, "DeleteRequest"), "Key"));
              /* The retry writes the request back out as it came. */
              g_free (dyno_json_node_to_string (request, FALSE));
            }
        }
    }

  if (keys != NULL && JSON_NODE_HOLDS_OBJECT (keys))
    {
      JsonObjectIter iter;
      const char *table;
      JsonNode *entry;

      json_object_iter_init (&iter, json_node_get_object (keys));
      while (json_object_iter_next (&iter, &table, &entry))
        {
          JsonNode *list = member (entry, "Keys");

          if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
            continue;
          for (guint i = 0; i < json_array_get_length (json_node_get_array (list)); i++)
            read_item (json_array_get_element (json_node_get_array (list), i));
        }
    }

  if (responses != NULL && JSON_NODE_HOLDS_OBJECT (responses))
    {
      JsonObjectIter iter;
      const char *table;
      JsonNode *list;

      json_object_iter_init (&iter, json_node_get_object (responses));
      while (json_object_iter_next (&iter, &table, &list))
        {
          if (!JSON_NODE_HOLDS_ARRAY (list))
            continue;
          for (guint i = 0; i < json_array_get_length (json_node_get_array (list)); i++)
            read_item (json_array_get_element (json_node_get_array (list), i));
        }
    }
}

static void
read_strings (JsonNode *root)
{
  JsonNode *names = member (root, "TableNames");

  if (names != NULL && JSON_NODE_HOLDS_ARRAY (names))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (names)); i++)
      {
        JsonNode *name = json_array_get_element (json_node_get_array (names), i);
        g_autofree char *text = NULL;
        gsize len = 0;

        if (!JSON_NODE_HOLDS_VALUE (name) || json_node_get_value_type (name) != G_TYPE_STRING)
          continue;
        text = dyno_json_node_dup_string (name, &len);
        if (text == NULL || len > strlen (json_node_get_string (name)))
          g_error ("a string read back longer than it was held");
      }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  /* held to the end, so that what was read is freed (and checked by ASan) in one place */
  g_autoptr(DynoTableInfo) info = NULL;
  g_autoptr(DynoPage) page = NULL;

  {
    g_autoptr(JsonNode) root = dyno_json_parse (text, size, NULL);

    if (root != NULL)
      {
        check_tree (root);
        read_batch_members (root);
        read_strings (root);
        read_item (member (root, "Item"));
        read_item (member (root, "Attributes"));
        read_item (member (root, "LastEvaluatedKey"));
        g_clear_pointer (&info, dyno_table_info_unref);
        info = dyno_table_info_new_from_node (root, NULL);
      }
  }
  g_clear_pointer (&info, dyno_table_info_unref);
  info = dyno_table_info_new_from_json (text, size, NULL);
  page = dyno_page_parse (text, size, NULL);
  {
    g_autoptr(GBytes) body = g_bytes_new (data, size);
    g_autoptr(GError) error = dyno_http_error_new (400, "Bad Request", body, "request-id");

    if (error == NULL || error->message == NULL)
      g_error ("an error body gave no error");
  }

  return 0;
}

#ifndef DYNO_FUZZING_ENGINE
int main (int argc, char *argv[]) __attribute__ ((weak));

int
main (int   argc,
      char *argv[])
{
  int failures = 0;

  if (argc < 2)
    {
      g_printerr ("Usage: %s FILE…\nRuns the fuzz target once over each file.\n", argv[0]);
      return 2;
    }

  for (int i = 1; i < argc; i++)
    {
      g_autofree char *contents = NULL;
      gsize len = 0;
      g_autoptr(GError) error = NULL;

      if (!g_file_get_contents (argv[i], &contents, &len, &error))
        {
          g_printerr ("%s\n", error->message);
          failures++;
          continue;
        }
      LLVMFuzzerTestOneInput ((const uint8_t *) contents, len);
    }

  g_print ("ran %d input(s)\n", argc - 1 - failures);
  return failures ? 1 : 0;
}
#endif
