/* bench-collection-scroll.c: 100,000 items in the collection view, ingested and scrolled
 *
 * The issue asks that 100,000 items stay smooth.  This puts a DynoCollectionView (with its
 * detail pane) in a window and feeds it a real DynoRun of generated, realistic items (several
 * partitions, overloaded sort keys, 10-15 attributes with maps, lists and sets) that arrive
 * in ~1 MB Scan pages from a backend made here (pages are written on a worker thread, so the
 * main thread only does what the app does).  It prints:
 *
 *   - ingest: wall time, main-thread and process CPU, frames drawn meanwhile, VmRSS/VmHWM;
 *   - frames while the list is swept top to bottom and back (one step per frame), scrolled
 *     smoothly, and jumped to random positions: per-frame work (frame clock "update" to
 *     "after-paint"), intervals between frames, p50/p95/p99/max and frames over 16.7 ms;
 *   - selecting an item deep down and showing it in the detail pane;
 *   - the bar over the results: a filter text, a sort by a number, and back.
 *
 * In grouped (by partition) and flat mode.  It asserts nothing about time.  Run it with
 *   meson test -C BUILD --benchmark collection-scroll -v
 * or, with options (--help), as
 *   GSETTINGS_SCHEMA_DIR=BUILD/data tests/fixtures/with-keyring.sh \
 *     tests/fixtures/with-xvfb.sh BUILD/tests/bench/bench-collection-scroll --items 100000
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE 1 /* RUSAGE_THREAD */
#include "config.h"

#include <adwaita.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "dyno-backend.h"
#include "dyno-collection-view.h"
#include "dyno-run.h"
#include "test-backend.h"

#define FRAME_BUDGET_USEC 16667

static guint opt_items = 100000;
static guint opt_partitions = 40;
static guint opt_sweep_frames = 300;
static guint opt_smooth_frames = 300;
static guint opt_jump_frames = 100;
static guint opt_page_bytes = 1024 * 1024;
static char *opt_mode = NULL;

/* ---- generated items ---------------------------------------------------------------------- */

static const char *entities[] = { "EVT", "INVOICE", "ORDER", "USER" }; /* sorted, as sk sorts */
static const char *statuses[] = { "open", "paid", "overdue", "void", "shipped", "pending" };
static const char *words[] = { "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
                               "hotel", "india", "juliett", "kilo", "lima", "mike", "november" };

/* Item @i of the table, in Scan order: partitions one after the other, each sorted by sk.
 * Entity types differ in their attributes so the columns are a union, as in real tables. */
static void
append_item (GString *out,
             guint    i)
{
  guint per_partition = MAX (1, opt_items / opt_partitions);
  guint p = i / per_partition;
  guint j = i % per_partition;
  guint e = MIN (3, j * 4 / per_partition);   /* a quarter of the partition per entity */
  GRand *rand = g_rand_new_with_seed (i * 2654435761u);
  const char *w1 = words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))];
  const char *w2 = words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))];

  g_string_append_printf (out, "{\"pk\":{\"S\":\"TENANT#t%04u\"}", p);
  switch (e)
    {
    case 0:
      g_string_append_printf (out, ",\"sk\":{\"S\":\"EVT#2026-%02u-%02uT%02u:%02u:00Z#%06u\"}",
                              1 + j % 12, 1 + j % 28, j % 24, j % 60, j);
      break;
    case 1:
      g_string_append_printf (out, ",\"sk\":{\"S\":\"INVOICE#2026#i%06u\"}", j);
      break;
    case 2:
      g_string_append_printf (out, ",\"sk\":{\"S\":\"ORDER#o%06u#%s\"}", j, w1);
      break;
    default:
      g_string_append_printf (out, ",\"sk\":{\"S\":\"USER#%s.%s%06u\"}", w1, w2, j);
      break;
    }
  g_string_append_printf (out, ",\"entityType\":{\"S\":\"%s\"}", entities[e]);
  g_string_append_printf (out, ",\"createdAt\":{\"S\":\"2026-%02u-%02uT%02u:%02u:%02u.%03uZ\"}",
                          1 + j % 12, 1 + j % 28, j % 24, j % 60, (j * 7) % 60, j % 1000);
  g_string_append_printf (out, ",\"version\":{\"N\":\"%u\"}", 1 + g_rand_int_range (rand, 0, 40));
  g_string_append_printf (out, ",\"status\":{\"S\":\"%s\"}",
                          statuses[g_rand_int_range (rand, 0, G_N_ELEMENTS (statuses))]);
  g_string_append_printf (out, ",\"tags\":{\"SS\":[\"%s\",\"%s-%u\"]}", w1, w2, j % 17);
  g_string_append_printf (out, ",\"active\":{\"BOOL\":%s}", j % 3 ? "true" : "false");
  g_string_append_printf (out, ",\"meta\":{\"M\":{\"source\":{\"S\":\"%s\"},"
                          "\"attempt\":{\"N\":\"%u\"},\"trace\":{\"S\":\"%08x-%04x-%04x\"}}}",
                          w2, j % 5, g_rand_int (rand), j & 0xffff, p);

  switch (e)
    {
    case 0:
      g_string_append_printf (out, ",\"payload\":{\"M\":{\"kind\":{\"S\":\"%s.%s\"},"
                              "\"values\":{\"L\":[{\"N\":\"%u\"},{\"N\":\"%d.%02u\"},"
                              "{\"S\":\"%s\"},{\"NULL\":true}]}}}",
                              w1, w2, j, g_rand_int_range (rand, -500, 500), j % 100, w2);
      g_string_append_printf (out, ",\"ttl\":{\"N\":\"%u\"}", 1790000000u + j);
      break;
    case 1:
      g_string_append_printf (out, ",\"amount\":{\"N\":\"%u.%02u\"}",
                              g_rand_int_range (rand, 1, 100000), j % 100);
      g_string_append_printf (out, ",\"currency\":{\"S\":\"EUR\"}");
      g_string_append (out, ",\"lines\":{\"L\":[");
      for (guint l = 0, n = 1 + j % 4; l < n; l++)
        g_string_append_printf (out, "%s{\"M\":{\"sku\":{\"S\":\"SKU-%05u\"},"
                                "\"qty\":{\"N\":\"%u\"},\"price\":{\"N\":\"%u.99\"}}}",
                                l ? "," : "", (j * 31 + l) % 100000, 1 + l, 3 + l * 10);
      g_string_append (out, "]}");
      g_string_append_printf (out, ",\"gsi1pk\":{\"S\":\"STATUS#%s\"}",
                              statuses[j % G_N_ELEMENTS (statuses)]);
      break;
    case 2:
      g_string_append_printf (out, ",\"amount\":{\"N\":\"%u.%02u\"}",
                              g_rand_int_range (rand, 1, 5000), j % 100);
      g_string_append_printf (out, ",\"scores\":{\"NS\":[\"%u\",\"%u.5\",\"-%u\"]}",
                              j % 10, j % 7, 1 + j % 3);
      g_string_append_printf (out, ",\"shipTo\":{\"M\":{\"street\":{\"S\":\"%u %s street\"},"
                              "\"city\":{\"S\":\"%s\"},\"zip\":{\"S\":\"%05u\"}}}",
                              1 + j % 300, w1, w2, (j * 13) % 100000);
      break;
    default:
      g_string_append_printf (out, ",\"email\":{\"S\":\"%s.%s%u@example.com\"}", w1, w2, j);
      g_string_append_printf (out, ",\"name\":{\"S\":\"%c%s %c%s\"}",
                              g_ascii_toupper (w1[0]), w1 + 1, g_ascii_toupper (w2[0]), w2 + 1);
      g_string_append_printf (out, ",\"roles\":{\"SS\":[\"reader\"%s]}",
                              j % 5 == 0 ? ",\"admin\"" : "");
      g_string_append_printf (out, ",\"avatar\":{\"B\":\"iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB%04u\"}",
                              j % 10000);
      break;
    }
  g_string_append_c (out, '}');
  g_rand_free (rand);
}

/* ---- Scan pages, written on a worker thread -------------------------------------------------- */

typedef struct {
  guint next_item;   /* where the next page starts: calls come one after the other */
} PageWriter;

static char *
write_page (const char *operation,
            const char *request,
            guint      *out_status,
            gpointer    user_data)
{
  PageWriter *self = user_data;
  GString *body = g_string_sized_new (opt_page_bytes + 4096);
  guint from = self->next_item;
  guint to = from;
  gsize last_start = 0;

  g_string_append (body, "{\"Items\":[");
  while (to < opt_items && (to == from || body->len < opt_page_bytes))
    {
      if (to > from)
        g_string_append_c (body, ',');
      last_start = body->len;
      append_item (body, to++);
    }
  g_string_append_printf (body, "],\"Count\":%u,\"ScannedCount\":%u,"
                          "\"ConsumedCapacity\":{\"TableName\":\"bench\",\"CapacityUnits\":%u}",
                          to - from, to - from, (guint) (body->len / 8192));
  if (to < opt_items)
    {
      /* the last item's keys: its text starts with pk then sk */
      const char *item = body->str + last_start;
      const char *end = strstr (item, "},\"entityType\"");
      g_autofree char *key = g_strndup (item, end - item + 1);  /* body moves as it grows */

      g_string_append (body, ",\"LastEvaluatedKey\":");
      g_string_append (body, key);
      g_string_append_c (body, '}');
    }
  g_string_append_c (body, '}');
  self->next_item = to;

  return g_string_free (body, FALSE);
}

/* ---- measuring ------------------------------------------------------------------------------ */

static gint64
thread_cpu_usec (int who)
{
  struct rusage usage;

  getrusage (who, &usage);
  return (gint64) usage.ru_utime.tv_sec * G_USEC_PER_SEC + usage.ru_utime.tv_usec +
         (gint64) usage.ru_stime.tv_sec * G_USEC_PER_SEC + usage.ru_stime.tv_usec;
}

/* Bytes the heap has handed out and not taken back (malloc's own figure: unlike VmRSS it does
 * not count freed memory the allocator keeps, nor code and fonts), in MiB. */
static double
heap_in_use_mib (void)
{
  struct mallinfo2 info = mallinfo2 ();

  return (info.uordblks + info.hblkhd) / 1048576.0;
}

/* VmRSS or VmHWM in MiB */
static double
status_mib (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  line = strstr (status, field);
  if (line == NULL)
    return -1;
  return g_ascii_strtod (line + strlen (field) + 1, NULL) / 1024.0;
}

typedef struct {
  GArray *work;        /* gint64: frame clock update -> after-paint, usec */
  GArray *interval;    /* gint64: update -> next update, usec */
  gint64  update_start;
  gint64  last_update;
} Frames;

static void
frames_reset (Frames *frames)
{
  if (frames->work == NULL)
    {
      frames->work = g_array_new (FALSE, FALSE, sizeof (gint64));
      frames->interval = g_array_new (FALSE, FALSE, sizeof (gint64));
    }
  g_array_set_size (frames->work, 0);
  g_array_set_size (frames->interval, 0);
  frames->update_start = 0;
  frames->last_update = 0;
}

static void
frame_update_cb (GdkFrameClock *clock,
                 Frames        *frames)
{
  gint64 now = g_get_monotonic_time ();

  if (frames->last_update != 0)
    {
      gint64 interval = now - frames->last_update;
      g_array_append_val (frames->interval, interval);
    }
  frames->last_update = now;
  frames->update_start = now;
}

static void
frame_after_paint_cb (GdkFrameClock *clock,
                      Frames        *frames)
{
  gint64 work;

  if (frames->update_start == 0)
    return;
  work = g_get_monotonic_time () - frames->update_start;
  g_array_append_val (frames->work, work);
  frames->update_start = 0;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
print_distribution (const char *what,
                    GArray     *values)
{
  g_autoptr(GArray) sorted = NULL;
  guint n = values->len, over = 0;

  if (n == 0)
    {
      printf ("    %-9s no frames\n", what);
      return;
    }
  sorted = g_array_copy (values);
  g_array_sort (sorted, compare_gint64);
  for (guint i = 0; i < n; i++)
    if (g_array_index (sorted, gint64, i) > FRAME_BUDGET_USEC)
      over++;

#define PCT(p) (g_array_index (sorted, gint64, MIN (n - 1, (guint) ceil ((p) * n) - 1)) / 1000.0)
  printf ("    %-9s n=%-5u p50 %6.2f  p95 %6.2f  p99 %6.2f  max %7.2f ms  over 16.7 ms: %u\n",
          what, n, PCT (0.50), PCT (0.95), PCT (0.99),
          g_array_index (sorted, gint64, n - 1) / 1000.0, over);
#undef PCT
}

/* ---- the window ----------------------------------------------------------------------------- */

typedef struct {
  GtkWidget          *window;
  DynoCollectionView *view;
  GtkScrolledWindow  *scroller;
  GtkAdjustment      *vadj;
  GtkColumnView      *column_view;
  GtkTextView        *detail;
  Frames              frames;
  GRand              *rand;

  /* the scroll phase running in the tick callback */
  enum { PHASE_NONE, PHASE_SWEEP, PHASE_SMOOTH, PHASE_JUMP } phase;
  guint               frame;
  guint               n_frames;
  double              step;
  gboolean            done;
} Bench;

/* The widget of the view's template with the id @id. */
static GtkWidget *
find_by_id (GtkWidget  *root,
            const char *id)
{
  if (g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (root)), id) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_by_id (child, id);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
iterate_until (gboolean *flag)
{
  while (!*flag)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
set_flag_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Lets a few frames be drawn (so measurements start from a settled window). */
static void
settle (guint msec)
{
  gboolean done = FALSE;

  g_timeout_add (msec, set_flag_cb, &done);
  iterate_until (&done);
}

static gboolean
scroll_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  Bench *bench = user_data;
  double upper = gtk_adjustment_get_upper (bench->vadj);
  double page = gtk_adjustment_get_page_size (bench->vadj);
  double max = MAX (0, upper - page);
  double value = gtk_adjustment_get_value (bench->vadj);

  switch (bench->phase)
    {
    case PHASE_SWEEP:
      /* down in n_frames/2 steps, then back up */
      if (bench->frame < bench->n_frames / 2)
        value = MIN (max, (bench->frame + 1) * max / (bench->n_frames / 2));
      else
        value = MAX (0, max - (bench->frame + 1 - bench->n_frames / 2) * max /
                        (bench->n_frames / 2));
      break;

    case PHASE_SMOOTH:
      value = MIN (max, value + bench->step);
      break;

    case PHASE_JUMP:
      value = g_rand_double_range (bench->rand, 0, max);
      break;

    case PHASE_NONE:
    default:
      return G_SOURCE_CONTINUE;
    }

  gtk_adjustment_set_value (bench->vadj, value);
  if (++bench->frame >= bench->n_frames)
    {
      bench->phase = PHASE_NONE;
      bench->done = TRUE;
    }
  return G_SOURCE_CONTINUE;
}

static void
run_phase (Bench      *bench,
           const char *name,
           int         phase,
           guint       n_frames,
           double      start,
           double      step)
{
  gint64 t0, cpu0;

  gtk_adjustment_set_value (bench->vadj, start);
  settle (100);
  frames_reset (&bench->frames);
  bench->frame = 0;
  bench->n_frames = n_frames;
  bench->step = step;
  bench->done = FALSE;
  t0 = g_get_monotonic_time ();
  cpu0 = thread_cpu_usec (RUSAGE_THREAD);
  bench->phase = phase;
  iterate_until (&bench->done);
  /* the last value's frame */
  settle (50);
  printf ("  %s: %u frames in %.2f s, main thread CPU %.2f s\n", name, n_frames,
          (g_get_monotonic_time () - t0) / 1e6,
          (thread_cpu_usec (RUSAGE_THREAD) - cpu0) / 1e6);
  print_distribution ("work", bench->frames.work);
  print_distribution ("interval", bench->frames.interval);
}

static double
run_bytes (DynoRun *run)
{
  GListModel *pages = dyno_run_get_pages (run);
  gsize bytes = 0;

  for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr(DynoRunPage) page = g_list_model_get_item (pages, i);
      bytes += dyno_run_page_get_bytes (page);
    }
  return bytes;
}

static char *
detail_text (Bench *bench)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (bench->detail);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* One change in the bar over the results (a filter text, or a sort attribute): the main
 * thread's share, the time until the result is on screen (the spinner stops and a frame is
 * drawn), and the frames meanwhile (the clock keeps ticking: a stall is a long interval). */
static void
bar_phase (Bench      *bench,
           GtkWidget  *spinner,
           const char *label,
           GtkWidget  *entry,
           const char *text,
           GtkWidget  *dropdown,
           guint       selected)
{
  gint64 t0, t_set;
  GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (bench->column_view));

  frames_reset (&bench->frames);
  t0 = g_get_monotonic_time ();
  if (entry != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (entry), text);
      g_signal_emit_by_name (entry, "search-changed");
    }
  else
    gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), selected);
  t_set = g_get_monotonic_time ();
  do
    g_main_context_iteration (NULL, TRUE);
  while (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));
  {
    guint n_frames = bench->frames.work->len;

    while (bench->frames.work->len == n_frames)
      g_main_context_iteration (NULL, TRUE);
  }
  printf ("  %s: %u rows, shown after %.2f ms (main thread in the change itself %.2f ms)\n",
          label, g_list_model_get_n_items (rows), (g_get_monotonic_time () - t0) / 1000.0,
          (t_set - t0) / 1000.0);
  print_distribution ("work", bench->frames.work);
  print_distribution ("interval", bench->frames.interval);
}

static void
bench_mode (gboolean grouped)
{
  Bench bench = { 0 };
  g_autoptr(TestBackend) backend = test_backend_new ();
  PageWriter writer = { 0 };

  test_backend_expect_only (backend, "Scan");
  test_backend_set_threaded (backend, TRUE);
  test_backend_set_handler (backend, write_page, &writer, NULL);
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoTableInfo) info = dyno_table_info_new ("bench", "pk", DYNO_VALUE_S,
                                                       "sk", DYNO_VALUE_S);
  g_autoptr(DynoRun) run = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  GtkWidget *paned, *column_view, *group_switch;
  GdkFrameClock *clock;
  GListModel *rows;
  double rss0, hwm0, heap0;
  gint64 t0, cpu0, pcpu0;
  guint n_rows, target, tick_id;

  printf ("\n== %s ==\n", grouped ? "grouped by partition" : "flat");
  request = dyno_request_from_json ("{\"TableName\":\"bench\"}", -1, -1, &error);
  g_assert_no_error (error);
  run = dyno_run_new (DYNO_BACKEND (backend), request);
  bench.rand = g_rand_new_with_seed (42);

  bench.window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (bench.window), 1300, 850);
  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  bench.view = DYNO_COLLECTION_VIEW (dyno_collection_view_new ());
  gtk_paned_set_start_child (GTK_PANED (paned), GTK_WIDGET (bench.view));
  gtk_paned_set_end_child (GTK_PANED (paned),
                           dyno_collection_view_get_detail_widget (bench.view));
  gtk_paned_set_position (GTK_PANED (paned), 900);
  gtk_window_set_child (GTK_WINDOW (bench.window), paned);
  column_view = find_by_id (GTK_WIDGET (bench.view), "column_view");
  group_switch = find_by_id (GTK_WIDGET (bench.view), "group_switch");
  g_assert_nonnull (column_view);
  g_assert_nonnull (group_switch);
  bench.column_view = GTK_COLUMN_VIEW (column_view);
  bench.scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (column_view,
                                                                 GTK_TYPE_SCROLLED_WINDOW));
  bench.vadj = gtk_scrolled_window_get_vadjustment (bench.scroller);
  bench.detail = GTK_TEXT_VIEW (find_by_id (dyno_collection_view_get_detail_widget (bench.view),
                                            "detail_view"));
  gtk_switch_set_active (GTK_SWITCH (group_switch), grouped);
  gtk_window_present (GTK_WINDOW (bench.window));
  settle (300);

  clock = gtk_widget_get_frame_clock (bench.window);
  g_assert_nonnull (clock);
  frames_reset (&bench.frames);
  g_signal_connect (clock, "update", G_CALLBACK (frame_update_cb), &bench.frames);
  g_signal_connect (clock, "after-paint", G_CALLBACK (frame_after_paint_cb), &bench.frames);
  /* keeps the frame clock ticking, so frames are measured while pages arrive too */
  tick_id = gtk_widget_add_tick_callback (bench.window, scroll_tick_cb, &bench, NULL);

  /* ---- ingest ---- */
  rss0 = status_mib ("VmRSS:");
  hwm0 = status_mib ("VmHWM:");
  heap0 = heap_in_use_mib ();
  dyno_collection_view_set_run (bench.view, run, info, NULL);
  frames_reset (&bench.frames);
  t0 = g_get_monotonic_time ();
  cpu0 = thread_cpu_usec (RUSAGE_THREAD);
  pcpu0 = thread_cpu_usec (RUSAGE_SELF);
  dyno_run_load_all (run);
  while (dyno_run_get_loading (run))
    g_main_context_iteration (NULL, TRUE);
  if (dyno_run_get_error (run) != NULL)
    g_error ("the run failed: %s", dyno_run_get_error (run)->message);
  printf ("  ingest: %u items in %u pages (%.1f MB of JSON) in %.2f s wall; "
          "CPU main thread %.2f s, process %.2f s (page writing included)\n",
          dyno_run_get_n_items (run), dyno_run_get_n_pages (run),
          run_bytes (run) / 1e6,
          (g_get_monotonic_time () - t0) / 1e6,
          (thread_cpu_usec (RUSAGE_THREAD) - cpu0) / 1e6,
          (thread_cpu_usec (RUSAGE_SELF) - pcpu0) / 1e6);
  print_distribution ("work", bench.frames.work);
  print_distribution ("interval", bench.frames.interval);
  settle (300);
  printf ("  memory: VmRSS %.1f -> %.1f MiB, VmHWM %.1f -> %.1f MiB\n", rss0,
          status_mib ("VmRSS:"), hwm0, status_mib ("VmHWM:"));
  /* what the issue measures: memory per byte of DynamoDB JSON loaded */
  printf ("  memory per byte of JSON: VmRSS %.2f, heap in use %.2f (heap %.1f -> %.1f MiB)\n",
          (status_mib ("VmRSS:") - rss0) * 1048576.0 / run_bytes (run),
          (heap_in_use_mib () - heap0) * 1048576.0 / run_bytes (run), heap0,
          heap_in_use_mib ());

  rows = G_LIST_MODEL (gtk_column_view_get_model (bench.column_view));
  n_rows = g_list_model_get_n_items (rows);
  printf ("  rows %u, scroll height %.0f px, viewport %.0f px, columns %u\n", n_rows,
          gtk_adjustment_get_upper (bench.vadj), gtk_adjustment_get_page_size (bench.vadj),
          g_list_model_get_n_items (gtk_column_view_get_columns (bench.column_view)));

  /* ---- scrolling ---- */
  run_phase (&bench, "sweep top->bottom->top", PHASE_SWEEP, opt_sweep_frames, 0, 0);
  run_phase (&bench, "smooth scroll (1/6 viewport per frame, from the middle)", PHASE_SMOOTH,
             opt_smooth_frames,
             (gtk_adjustment_get_upper (bench.vadj) - gtk_adjustment_get_page_size (bench.vadj))
             / 2, gtk_adjustment_get_page_size (bench.vadj) / 6);
  run_phase (&bench, "random jumps", PHASE_JUMP, opt_jump_frames, 0, 0);

  /* ---- an item deep down, in the detail pane ---- */
  target = n_rows * 9 / 10 + 1;
  {
    gint64 t_select, t_detail;
    double upper = gtk_adjustment_get_upper (bench.vadj);

    frames_reset (&bench.frames);
    t_select = g_get_monotonic_time ();
    gtk_adjustment_set_value (bench.vadj, MIN (upper - gtk_adjustment_get_page_size (bench.vadj),
                                               upper * target / n_rows));
    gtk_selection_model_select_item (GTK_SELECTION_MODEL (rows), target, TRUE);
    t_detail = g_get_monotonic_time ();
    while (bench.frames.work->len < 1)
      g_main_context_iteration (NULL, TRUE);
    text = detail_text (&bench);
    printf ("  select row %u of %u: selection + detail %.2f ms, next frame done after %.2f ms, "
            "detail %zu chars\n", target, n_rows, (t_detail - t_select) / 1000.0,
            (g_get_monotonic_time () - t_select) / 1000.0, strlen (text));
    g_assert_cmpuint (strlen (text), >, 0);
  }

  /* ---- the loaded items filtered and sorted (the bar over the results) ---- */
  {
    GtkWidget *entry = find_by_id (GTK_WIDGET (bench.view), "filter_entry");
    GtkWidget *dropdown = find_by_id (GTK_WIDGET (bench.view), "sort_dropdown");
    GtkWidget *spinner = find_by_id (GTK_WIDGET (bench.view), "filter_spinner");
    GListModel *names = gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown));
    guint amount = 0;

    for (guint i = 0; i < g_list_model_get_n_items (names); i++)
      if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (names), i), "amount"))
        amount = i;
    g_assert_cmpuint (amount, >, 0);
    bar_phase (&bench, spinner, "filter \"hotel\" (in a sort key or a nested value)",
               entry, "hotel", NULL, 0);
    bar_phase (&bench, spinner, "sort the matches by amount (a number)", NULL, NULL, dropdown,
               amount);
    bar_phase (&bench, spinner, "filter cleared: every item, sorted by amount", entry, "", NULL,
               0);
    bar_phase (&bench, spinner, "sort back to the order read", NULL, NULL, dropdown, 0);
  }

  /* ---- switching modes with everything loaded ---- */
  {
    gint64 t_switch = g_get_monotonic_time ();

    gtk_switch_set_active (GTK_SWITCH (group_switch), !grouped);
    frames_reset (&bench.frames);
    while (bench.frames.work->len < 1)
      g_main_context_iteration (NULL, TRUE);
    printf ("  switch to %s with %u items: %.2f ms to the next frame drawn\n",
            grouped ? "flat" : "grouped", dyno_run_get_n_items (run),
            (g_get_monotonic_time () - t_switch) / 1000.0);

    /* grouping a run goes on in idle time after the first frame: the frames of the next
     * second, and when the rows were all there */
    {
      GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (bench.column_view));
      guint last_rows = g_list_model_get_n_items (model);
      gint64 t_after = g_get_monotonic_time ();
      gint64 t_rows = t_after;

      frames_reset (&bench.frames);
      while (g_get_monotonic_time () - t_after < 1000000)
        {
          g_main_context_iteration (NULL, TRUE);
          if (g_list_model_get_n_items (model) != last_rows)
            {
              last_rows = g_list_model_get_n_items (model);
              t_rows = g_get_monotonic_time ();
            }
        }
      printf ("  the second after that first frame: %u rows, the last added %.2f ms after it\n",
              last_rows, (t_rows - t_after) / 1000.0);
      print_distribution ("work", bench.frames.work);
      print_distribution ("interval", bench.frames.interval);
    }
  }
  printf ("  memory at the end: VmRSS %.1f MiB, VmHWM %.1f MiB\n", status_mib ("VmRSS:"),
          status_mib ("VmHWM:"));

  gtk_widget_remove_tick_callback (bench.window, tick_id);
  g_signal_handlers_disconnect_by_data (clock, &bench.frames);
  gtk_window_destroy (GTK_WINDOW (bench.window));
  settle (100);
  g_array_unref (bench.frames.work);
  g_array_unref (bench.frames.interval);
  g_rand_free (bench.rand);
}

int
main (int    argc,
      char **argv)
{
  GOptionEntry entries[] = {
    { "items", 0, 0, G_OPTION_ARG_INT, &opt_items, "Items (100000)", "N" },
    { "partitions", 0, 0, G_OPTION_ARG_INT, &opt_partitions, "Partitions (40)", "N" },
    { "page-bytes", 0, 0, G_OPTION_ARG_INT, &opt_page_bytes, "Bytes per page (1 MiB)", "N" },
    { "sweep-frames", 0, 0, G_OPTION_ARG_INT, &opt_sweep_frames,
      "Frames for the sweep down and up (300)", "N" },
    { "smooth-frames", 0, 0, G_OPTION_ARG_INT, &opt_smooth_frames, "Smooth frames (300)", "N" },
    { "jump-frames", 0, 0, G_OPTION_ARG_INT, &opt_jump_frames, "Random jumps (100)", "N" },
    { "mode", 0, 0, G_OPTION_ARG_STRING, &opt_mode, "grouped, flat or both (both)", "MODE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- collection view benchmark");
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (opt_items == 0 || opt_partitions == 0 || opt_sweep_frames < 2)
    {
      g_printerr ("--items, --partitions must be > 0 and --sweep-frames >= 2\n");
      return 2;
    }

  setvbuf (stdout, NULL, _IOLBF, 0);  /* figures show as they come, also in a log */
  gtk_init ();
  adw_init ();

  printf ("collection view: %u items, %u partitions, pages of %u bytes; GDK_BACKEND=%s "
          "GSK_RENDERER=%s\n", opt_items, opt_partitions, opt_page_bytes,
          g_getenv ("GDK_BACKEND") ?: "(unset)", g_getenv ("GSK_RENDERER") ?: "(unset)");
  if (opt_mode == NULL || g_str_equal (opt_mode, "both") || g_str_equal (opt_mode, "grouped"))
    bench_mode (TRUE);
  if (opt_mode == NULL || g_str_equal (opt_mode, "both") || g_str_equal (opt_mode, "flat"))
    bench_mode (FALSE);
  g_free (opt_mode);

  return 0;
}
