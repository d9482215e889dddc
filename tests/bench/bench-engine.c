/* bench-engine.c: the Playground engine in process (no HTTP): time to open a workspace, and
 * BatchWriteItem, PutItem and Query throughput with the same items as bench-serve.py.
 *
 *   meson benchmark -C _build engine      (or: _build/tests/bench/bench-engine [ITEMS])
 *
 * Prints `name value unit` lines.  Request bodies are built before the clock starts, so the
 * figures are the engine's own: JSON parsing, validation, SQLite and the response.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>

#include "dyno-engine.h"

static char *
item_json (guint i)
{
  return g_strdup_printf ("{\"pk\":{\"S\":\"user#%u\"},\"sk\":{\"S\":\"order#%08u\"},"
                          "\"total\":{\"N\":\"%u.%02u\"},\"status\":{\"S\":\"open\"},"
                          "\"note\":{\"S\":\"%0120d\"}}", i % 100, i, i, i % 100, 0);
}

static char *
call (DynoEngine *engine,
      const char *operation,
      const char *body)
{
  g_autoptr(GError) error = NULL;
  char *response = dyno_engine_request (engine, operation, body, -1, &error);

  if (response == NULL)
    {
      g_printerr ("%s: %s\n", operation, error->message);
      exit (1);
    }
  return response;
}

static const char *create_table =
  "{\"TableName\":\"bench\",\"BillingMode\":\"PAY_PER_REQUEST\","
  "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
  "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"}],"
  "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
  "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]}";

static void
run (const char *label,
     const char *path,
     guint       n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batches = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(DynoEngine) engine = NULL;
  gint64 start;
  double seconds;
  guint64 items_read = 0;

  for (guint first = 0; first < n; first += 25)
    {
      g_autoptr(GString) body = g_string_new ("{\"RequestItems\":{\"bench\":[");

      for (guint i = first; i < first + 25 && i < n; i++)
        {
          g_autofree char *item = item_json (i);

          g_string_append_printf (body, "%s{\"PutRequest\":{\"Item\":%s}}",
                                  i == first ? "" : ",", item);
        }
      g_string_append (body, "]}}");
      g_ptr_array_add (batches, g_string_free (g_steal_pointer (&body), FALSE));
    }
  for (guint i = 0; i < n / 4; i++)
    {
      g_autofree char *item = item_json (n + i);

      g_ptr_array_add (puts, g_strdup_printf ("{\"TableName\":\"bench\",\"Item\":%s}", item));
    }

  start = g_get_monotonic_time ();
  engine = dyno_engine_new (path, &error);
  if (engine == NULL)
    {
      g_printerr ("%s\n", error->message);
      exit (1);
    }
  g_free (call (engine, "ListTables", "{}"));
  printf ("%s_open_to_first_answer %.2f ms\n", label,
          (g_get_monotonic_time () - start) / 1000.0);
  g_free (call (engine, "CreateTable", create_table));

  start = g_get_monotonic_time ();
  for (guint i = 0; i < batches->len; i++)
    g_free (call (engine, "BatchWriteItem", g_ptr_array_index (batches, i)));
  seconds = (g_get_monotonic_time () - start) / 1e6;
  printf ("%s_batch_write %.0f items/s\n", label, n / seconds);
  printf ("%s_batch_write_per_item %.1f us\n", label, seconds * 1e6 / n);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < puts->len; i++)
    g_free (call (engine, "PutItem", g_ptr_array_index (puts, i)));
  seconds = (g_get_monotonic_time () - start) / 1e6;
  printf ("%s_put_item %.0f items/s\n", label, puts->len / seconds);

  /* every partition, every page */
  start = g_get_monotonic_time ();
  for (guint p = 0; p < 100; p++)
    {
      g_autofree char *next = NULL;

      do
        {
          g_autofree char *body = NULL;
          g_autofree char *response = NULL;
          const char *count;

          body = g_strdup_printf ("{\"TableName\":\"bench\",\"KeyConditionExpression\":"
                                  "\"pk = :p\",\"ExpressionAttributeValues\":{\":p\":"
                                  "{\"S\":\"user#%u\"}}%s%s}", p,
                                  next ? ",\"ExclusiveStartKey\":" : "", next ? next : "");
          response = call (engine, "Query", body);
          count = strstr (response, "\"Count\":");
          items_read += count ? strtoull (count + 8, NULL, 10) : 0;
          g_clear_pointer (&next, g_free);
          {
            const char *lek = strstr (response, "\"LastEvaluatedKey\":");

            if (lek != NULL)
              {
                const char *open = lek + 19;
                int depth = 0;
                const char *end = open;

                /* the key object, braces balanced (its strings hold no braces) */
                do
                  {
                    if (*end == '{')
                      depth++;
                    else if (*end == '}')
                      depth--;
                    end++;
                  }
                while (depth > 0 && *end != '\0');
                next = g_strndup (open, end - open);
              }
          }
        }
      while (next != NULL);
    }
  seconds = (g_get_monotonic_time () - start) / 1e6;
  printf ("%s_query %.0f items/s\n", label, items_read / seconds);
  printf ("%s_query_per_item %.2f us\n", label, seconds * 1e6 / items_read);
}

int
main (int    argc,
      char **argv)
{
  guint n = argc > 1 ? (guint) atoi (argv[1]) : 100000;
  g_autofree char *dir = g_dir_make_tmp ("dyno-bench-engine-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bench.db", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);

  run ("memory", NULL, n);
  run ("file", path, n);
  g_unlink (path);
  g_unlink (wal);
  g_unlink (shm);
  g_rmdir (dir);
  return 0;
}
