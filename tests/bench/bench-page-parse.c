/* bench-page-parse.c: throughput and memory of dyno_page_parse on realistic pages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: bench-page-parse [MEGABYTES] [ROUNDS] [--no-reference]
 *
 * Builds about MEGABYTES of Query response bodies in memory (pages of about 1 MB, the size
 * DynamoDB stops a page at), parses them ROUNDS times and prints MB/s and the bytes of item
 * memory per byte of JSON.  json-glib's tree parser runs on the same text for comparison.
 * Prints figures only; nothing is asserted.
 */
#include "config.h"

#include <stdlib.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <json-glib/json-glib.h>

#include "dyno-page.h"

/* CPU time of this thread: steadier than wall time on a busy machine. */
static gint64
cpu_usec (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* Bytes the allocator has handed out, to check the estimate of dyno_item_get_memory_size(). */
static gssize
heap_in_use (void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2 ();

  return (gssize) (info.uordblks + info.hblkhd);
#else
  return -1;
#endif
}

static void
append_item (GString *s,
             guint    i)
{
  static const char * const statuses[] = { "PENDING", "SHIPPED", "DELIVERED", "RETURNED" };

  g_string_append_printf (s,
    "{\"pk\":{\"S\":\"CUSTOMER#%05u\"},"
    "\"sk\":{\"S\":\"ORDER#2026-%02u-%02uT%02u:%02u:00Z#%06u\"},"
    "\"entity\":{\"S\":\"Order\"},"
    "\"status\":{\"S\":\"%s\"},"
    "\"amount\":{\"N\":\"%u.%u\"},"
    "\"quantity\":{\"N\":\"%u\"},"
    "\"paid\":{\"BOOL\":%s},"
    "\"tags\":{\"SS\":[\"gift\",\"prio-%u\"]},"
    "\"shipTo\":{\"M\":{\"name\":{\"S\":\"Customer %u\"},\"street\":{\"S\":\"%u Long Road\"},"
    "\"city\":{\"S\":\"Troms\u00f8\"},\"zip\":{\"S\":\"%04u\"}}},"
    "\"lines\":{\"L\":[{\"M\":{\"sku\":{\"S\":\"SKU-%u\"},\"qty\":{\"N\":\"%u\"}}},"
    "{\"M\":{\"sku\":{\"S\":\"SKU-%u\"},\"qty\":{\"N\":\"1\"}}}]},"
    "\"note\":{\"S\":\"Leave the parcel at the door, please.\"},"
    "\"version\":{\"N\":\"%u\"}}",
    i / 10, 1 + i % 12, 1 + i % 28, i % 24, i % 60, i,
    statuses[i % 4], 10 + i % 990, 1 + i % 9, 1 + i % 5, i % 3 ? "true" : "false",
    i % 7, i, 1 + i % 200, i % 10000, i % 500, 1 + i % 4, (i + 7) % 500, 1 + i % 9);
}

static GString *
make_page (guint *next_item)
{
  GString *s = g_string_sized_new (1100 * 1024);
  guint n = 0;

  g_string_append (s, "{\"Items\":[");
  while (s->len < 1024 * 1024 - 2048)
    {
      if (n > 0)
        g_string_append_c (s, ',');
      append_item (s, (*next_item)++);
      n++;
    }
  g_string_append_printf (s, "],\"Count\":%u,\"ScannedCount\":%u,\"LastEvaluatedKey\":"
                          "{\"pk\":{\"S\":\"CUSTOMER#00001\"},\"sk\":{\"S\":\"ORDER#x\"}},"
                          "\"ConsumedCapacity\":{\"TableName\":\"Orders\","
                          "\"CapacityUnits\":128.5}}", n, n);
  return s;
}

int
main (int   argc,
      char *argv[])
{
  guint megabytes = argc > 1 ? (guint) atoi (argv[1]) : 32;
  guint rounds = argc > 2 ? (guint) atoi (argv[2]) : 3;
  g_autoptr(GPtrArray) pages = g_ptr_array_new ();
  gsize total = 0;
  gsize n_items = 0;
  gsize memory = 0;
  gint64 best = G_MAXINT64, best_cpu = G_MAXINT64;
  gint64 start, start_cpu, elapsed;
  guint next_item = 0;
  gssize heap_before = 0, heap_after = 0;

  if (megabytes == 0 || rounds == 0)
    {
      g_printerr ("Usage: %s [MEGABYTES] [ROUNDS]\n", argv[0]);
      return 2;
    }

  while (total < (gsize) megabytes * 1024 * 1024)
    {
      GString *page = make_page (&next_item);

      total += page->len;
      g_ptr_array_add (pages, page);
    }

  for (guint r = 0; r < rounds; r++)
    {
      g_autoptr(GPtrArray) parsed = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                    dyno_page_free);

      heap_before = heap_in_use ();
      start = g_get_monotonic_time ();
      start_cpu = cpu_usec ();
      for (guint i = 0; i < pages->len; i++)
        {
          GString *text = g_ptr_array_index (pages, i);
          g_autoptr(GError) error = NULL;
          DynoPage *page = dyno_page_parse (text->str, text->len, &error);

          if (page == NULL)
            g_error ("parse failed: %s", error->message);
          g_ptr_array_add (parsed, page);
        }
      best_cpu = MIN (best_cpu, cpu_usec () - start_cpu);
      heap_after = heap_in_use ();
      elapsed = g_get_monotonic_time () - start;
      best = MIN (best, elapsed);

      if (r == 0)
        for (guint i = 0; i < parsed->len; i++)
          {
            DynoPage *page = g_ptr_array_index (parsed, i);

            n_items += page->items->len;
            for (guint j = 0; j < page->items->len; j++)
              memory += dyno_item_get_memory_size (g_ptr_array_index (page->items, j)) +
                        sizeof (gpointer);
          }
    }

  g_print ("dyno_page_parse: %u pages, %" G_GSIZE_FORMAT " items, %.1f MB of JSON\n",
           pages->len, n_items, total / 1048576.0);
  g_print ("  best of %u rounds: %.1f ms wall, %.0f MB/s; %.1f ms CPU, %.0f MB/s\n", rounds,
           best / 1000.0, (total / 1048576.0) / (best / 1e6),
           best_cpu / 1000.0, (total / 1048576.0) / (best_cpu / 1e6));
  g_print ("  item memory: %" G_GSIZE_FORMAT " bytes, %.2f bytes per byte of JSON\n",
           memory, (double) memory / total);
  if (heap_before >= 0)
    g_print ("  heap growth while the pages are held (mallinfo2, incl. page structs): "
             "%.2f bytes per byte of JSON\n", (double) (heap_after - heap_before) / total);

  /* For comparison: a json-glib tree of the same text. */
  if (argc <= 3 || !g_str_equal (argv[3], "--no-reference"))
    {
      start_cpu = cpu_usec ();
      for (guint i = 0; i < pages->len; i++)
        {
          GString *text = g_ptr_array_index (pages, i);
          g_autoptr(JsonParser) parser = json_parser_new_immutable ();

          if (!json_parser_load_from_data (parser, text->str, text->len, NULL))
            g_error ("json-glib could not parse a page");
        }
      elapsed = cpu_usec () - start_cpu;
      g_print ("json-glib tree (reference): %.0f MB/s CPU\n",
               (total / 1048576.0) / (elapsed / 1e6));
    }

  for (guint i = 0; i < pages->len; i++)
    g_string_free (g_ptr_array_index (pages, i), TRUE);

  return 0;
}
