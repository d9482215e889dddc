/* dyno-cli-run.c: the dynotable-cli commands that talk to DynamoDB
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include "dyno-cli.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include <glib-unix.h>

#include "dyno-backend.h"
#include "dyno-cli-io.h"
#include "dyno-cli-request.h"
#include "dyno-credentials.h"
#include "dyno-endpoints.h"
#include "dyno-expr.h"
#include "dyno-http-backend.h"
#include "dyno-http-error.h"
#include "dyno-json.h"
#include "dyno-request.h"
#include "dyno-run.h"
#include "dyno-safe-write.h"
#include "dyno-table-info.h"

#define EXIT_OK      0
#define EXIT_FAILURE_RUN 1
#define EXIT_USAGE   2
#define EXIT_INTERRUPTED 130

typedef enum {
  COMMAND_TABLES,
  COMMAND_DESCRIBE,
  COMMAND_QUERY,
  COMMAND_SCAN,
  COMMAND_GET,
  COMMAND_PUT,
  COMMAND_UPDATE,
  COMMAND_DELETE,
  COMMAND_BATCH_WRITE,
} Command;

typedef struct {
  const char    *name;
  Command        command;
  DynoOperation  op;
  const char    *parameter;
  const char    *summary;
} CommandInfo;

static const CommandInfo commands[] = {
  { "tables", COMMAND_TABLES, 0, "tables", N_("List the tables (every page of ListTables).") },
  { "describe", COMMAND_DESCRIBE, 0, "describe TABLE", N_("Print the DescribeTable response.") },
  { "query", COMMAND_QUERY, DYNO_OP_QUERY, "query TABLE",
    N_("Run a Query and print the items as JSON lines, in server order.  The key condition is\n"
       "in the inline syntax, e.g. --key 'PK = \"USER#1\" AND begins_with(SK, \"ORDER#\")'.\n"
       "The request is checked against the table's schema (DescribeTable) before it is sent.") },
  { "scan", COMMAND_SCAN, DYNO_OP_SCAN, "scan TABLE",
    N_("Run a Scan (--segments N: a parallel scan) and print the items as JSON lines.") },
  { "get", COMMAND_GET, DYNO_OP_GET_ITEM, "get TABLE", N_("GetItem: print the item, if any.") },
  { "put", COMMAND_PUT, DYNO_OP_PUT_ITEM, "put TABLE", N_("PutItem.") },
  { "update", COMMAND_UPDATE, DYNO_OP_UPDATE_ITEM, "update TABLE", N_("UpdateItem.") },
  { "delete", COMMAND_DELETE, DYNO_OP_DELETE_ITEM, "delete TABLE", N_("DeleteItem.") },
  { "batch-write", COMMAND_BATCH_WRITE, 0, "batch-write TABLE FILE|-",
    N_("Write the items of FILE (JSON lines of DynamoDB-JSON items; '-' for standard input)\n"
       "with BatchWriteItem, 25 at a time, retrying unprocessed items.") },
};

typedef struct {
  DynoCliRequestOptions request;
  char     *unprocessed;
  gboolean  plain;
  gboolean  stats;
  gboolean  quiet;
  gint      segments;
  gint      parallel;
  gint64    max_items;
  char    **rest;
} Options;

static void
options_clear (Options *o)
{
  dyno_cli_request_options_clear (&o->request);
  g_free (o->unprocessed);
  g_strfreev (o->rest);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

typedef struct {
  const CommandInfo *info;
  Options           *options;
  char              *prefix;      /* "query" */
  DynoConnectionSettings settings;
  DynoBackend       *backend;
  GMainLoop         *loop;
  GHashTable        *values;
  GHashTable        *used;
  DynoTableInfo     *schema;
  DynoQueryDraft    *draft;       /* query, scan: what the options say */
  DynoRequest       *request;     /* what is sent (for query and scan, the draft's) */
  int                status;
  char              *local_signer;  /* "key AKID in us-east-1" for DynamoDB Local, else NULL */
  /* query/scan output */
  DynoRun           *run;
  GPtrArray         *pending;       /* DynoItem*: handed out by the run, not yet written */
  guint              pending_id;    /* the idle that writes them */
  GPtrArray         *batch_items;   /* batch-write: DynoItem*, as read */
  guint              n_written;
  gboolean           output_failed;
  /* Ctrl+C: the first cancels (and says where to resume), the second exits at once. */
  GCancellable      *cancellable;
  guint              retries_before;  /* the backend's retries when the write was sent */
  guint              n_interrupts;
  guint              signal_id;
  /* --stats: how long the main loop went without running (the UI budget is 16 ms). */
  guint              tick_id;
  gint64             last_tick;
  gint64             longest_stall;
  gint64             last_tick_cpu;
  gint64             longest_busy;   /* main-thread CPU time between two ticks */
} Cli;

static void
cli_clear (Cli *cli)
{
  g_free (cli->prefix);
  g_free (cli->settings.profile);
  g_free (cli->settings.region);
  g_free (cli->settings.endpoint_url);
  g_free (cli->local_signer);
  g_clear_object (&cli->backend);
  g_clear_pointer (&cli->loop, g_main_loop_unref);
  g_clear_pointer (&cli->values, g_hash_table_unref);
  g_clear_pointer (&cli->used, g_hash_table_unref);
  g_clear_pointer (&cli->schema, dyno_table_info_unref);
  g_clear_object (&cli->draft);
  g_clear_pointer (&cli->request, dyno_request_free);
  g_clear_handle_id (&cli->pending_id, g_source_remove);
  g_clear_pointer (&cli->pending, g_ptr_array_unref);
  g_clear_object (&cli->run);
  g_clear_pointer (&cli->batch_items, g_ptr_array_unref);
  g_clear_object (&cli->cancellable);
  g_clear_handle_id (&cli->signal_id, g_source_remove);
  g_clear_handle_id (&cli->tick_id, g_source_remove);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Cli, cli_clear)

/* ---- usage ------------------------------------------------------------------------------- */

static void
print_run_usage (FILE *out)
{
  fputs (_("Usage: dynotable-cli [--endpoint-url URL] [--region R] [--profile P] [--mfa-code CODE]\n"
           "       COMMAND …\n"
           "\n"
           "  tables\n"
           "  describe TABLE\n"
           "  query TABLE --key COND [--index NAME] [--filter COND] [--project PATHS] [--desc]\n"
           "              [--limit N] [--consistent] [--start-key JSON] [--select WHAT]\n"
           "              [--max-items N] [--stats] [--quiet] [--plain]\n"
           "  scan TABLE [--filter COND] [--segments N [--parallel K]] [--max-items N] [--stats] …\n"
           "  get TABLE --key-item JSON [--project PATHS] [--consistent]\n"
           "  put TABLE --item JSON [--condition COND] [--return-values WHAT]\n"
           "  update TABLE --key-item JSON --update UPDATE [--condition COND]\n"
           "  delete TABLE --key-item JSON [--condition COND]\n"
           "  batch-write TABLE FILE|- [--unprocessed FILE]\n"
           "\n"
           "Items are printed as JSON lines of DynamoDB JSON (--plain: plain JSON).\n"
           "Exit status: 0 success; 1 the server or the network failed (`__type: message` on\n"
           "stderr); 2 a usage or validation error (nothing was sent).\n"), out);
}

static void
report (Cli        *cli,
        const char *context,
        const char *message)
{
  dyno_cli_report (cli->prefix, context, message);
}

/* Errors reported once something was sent: the server's or the network's (1), unless the
 * configuration itself is at fault (credentials that could not be refreshed: 2). */
static int
exit_status_for (const GError *error)
{
  if (g_error_matches (error, DYNO_ERROR, DYNO_ERROR_CONFIG))
    return EXIT_USAGE;

  return EXIT_FAILURE_RUN;
}

/* A call failed: an interruption when the user cancelled it (said as @interrupted), else the
 * server's or the network's error; either way the exit status says so. */
static void
report_failure (Cli          *cli,
                const GError *error,
                const char   *interrupted)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      report (cli, NULL, interrupted);
      cli->status = EXIT_INTERRUPTED;
    }
  else
    {
      dyno_cli_report_service_error (cli->prefix, error);
      cli->status = exit_status_for (error);
    }
}

/* ---- options ----------------------------------------------------------------------------- */

static GArray *
build_entries (const CommandInfo *info,
               Options           *o)
{
  GArray *entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  Command command = info->command;

  if (command >= COMMAND_QUERY && command <= COMMAND_DELETE)
    dyno_cli_add_request_options (entries, info->op, &o->request);
  if (command == COMMAND_QUERY || command == COMMAND_SCAN)
    {
      dyno_cli_add_option (entries, "max-items", G_OPTION_ARG_INT64, &o->max_items,
                           _("Stop after N items"), "N");
      dyno_cli_add_option (entries, "stats", G_OPTION_ARG_NONE, &o->stats,
                           _("Print the page ledger (Count, ScannedCount, capacity, bytes, time) "
                             "on stderr"), NULL);
      dyno_cli_add_option (entries, "quiet", G_OPTION_ARG_NONE, &o->quiet,
                           _("Do not print the items (load them only: with --stats, for the "
                             "ledger)"), NULL);
    }
  if (command == COMMAND_SCAN)
    {
      dyno_cli_add_option (entries, "segments", G_OPTION_ARG_INT, &o->segments,
                           _("Parallel scan over N segments"), "N");
      dyno_cli_add_option (entries, "parallel", G_OPTION_ARG_INT, &o->parallel,
                           _("With --segments: at most K segments in flight at once "
                             "(default 4)"), "K");
    }
  if (command == COMMAND_BATCH_WRITE)
    dyno_cli_add_option (entries, "unprocessed", G_OPTION_ARG_FILENAME, &o->unprocessed,
                         _("When it gives up, write the items not written to FILE as JSON "
                           "lines (default: standard output)"), "FILE");
  if (command != COMMAND_TABLES && command != COMMAND_DESCRIBE)
    dyno_cli_add_option (entries, "plain", G_OPTION_ARG_NONE, &o->plain,
                         _("Plain JSON in and out (items, keys) instead of DynamoDB JSON"), NULL);
  dyno_cli_add_option (entries, G_OPTION_REMAINING, G_OPTION_ARG_STRING_ARRAY, &o->rest, NULL,
                       NULL);

  return entries;
}

static DynoItem *
parse_item_text (Cli         *cli,
                 const char  *text,
                 gssize       len,
                 GError     **error)
{
  return dyno_cli_parse_item_text (text, len, cli->options->plain, cli->schema, error);
}

/* Query and Scan: the options fill a draft, and the draft makes the request. */
static gboolean
build_read_request (Cli *cli)
{
  Options *o = cli->options;
  const DynoCliReadOptions read = dyno_cli_request_options_read (&o->request);
  g_autoptr(DynoQueryDraft) draft = dyno_cli_read_draft_new (cli->info->op, o->rest[0],
                                                             o->request.index);

  if (cli->info->command == COMMAND_QUERY && o->request.key == NULL)
    {
      report (cli, NULL, _("--key is required: the key condition, e.g. "
                           "--key 'PK = \"USER#1\" AND begins_with(SK, \"ORDER#\")'"));
      return FALSE;
    }

  if (!dyno_cli_read_draft_expressions (draft, cli->prefix, &read, cli->values, cli->used)
      || !dyno_cli_check_values_used (cli->prefix, cli->values, cli->used)
      || !dyno_cli_read_draft_options (draft, cli->prefix, &read))
    return FALSE;

  if (o->max_items < 0)
    {
      report (cli, "--max-items", _("must be at least 1"));
      return FALSE;
    }
  if (o->segments != G_MININT && (o->segments < 1 || o->segments > 1000000))
    {
      report (cli, "--segments", _("must be between 1 and 1000000 (TotalSegments)"));
      return FALSE;
    }
  if (o->parallel != G_MININT && (o->parallel < 1 || o->parallel > 1000))
    {
      report (cli, "--parallel", _("must be between 1 and 1000"));
      return FALSE;
    }

  /* The ledger shows capacity: ask for it unless told otherwise. */
  if (o->stats && dyno_query_draft_get_return_consumed_capacity (draft) == DYNO_CONSUMED_UNSET)
    dyno_query_draft_set_return_consumed_capacity (draft, DYNO_CONSUMED_TOTAL);
  dyno_query_draft_set_max_items (draft, (guint64) o->max_items);

  cli->request = dyno_query_draft_to_request (draft);
  cli->draft = g_steal_pointer (&draft);
  return TRUE;
}

/* The expressions: checked before anything is sent. */
static gboolean
build_expressions (Cli *cli)
{
  Options *o = cli->options;
  const CommandInfo *info = cli->info;
  g_autoptr(DynoRequest) request = NULL;

  if (o->request.values != NULL
      && !dyno_cli_parse_values_option (cli->prefix, o->request.values, cli->values))
    return FALSE;

  if (info->command == COMMAND_QUERY || info->command == COMMAND_SCAN)
    return build_read_request (cli);

  request = dyno_request_new (info->op, o->rest[0]);

  if (info->command == COMMAND_GET || info->command == COMMAND_UPDATE
      || info->command == COMMAND_DELETE)
    {
      if (o->request.key_item == NULL)
        {
          report (cli, NULL, _("--key-item is required: the item's primary key, e.g. "
                               "--key-item '{\"PK\": {\"S\": \"USER#1\"}}'"));
          return FALSE;
        }
    }
  if (info->command == COMMAND_PUT && o->request.item == NULL)
    {
      report (cli, NULL, _("--item is required: the item in DynamoDB JSON"));
      return FALSE;
    }
  if (info->command == COMMAND_UPDATE && o->request.update == NULL)
    {
      report (cli, NULL, _("--update is required: the update expression, e.g. "
                           "--update 'SET #n = \"x\" REMOVE tmp'"));
      return FALSE;
    }

  if (!dyno_cli_item_request_options (request, cli->prefix, &o->request, cli->values,
                                      cli->used))
    return FALSE;

  cli->request = g_steal_pointer (&request);
  return TRUE;
}

/* Items and keys: after DescribeTable, so --plain can type them by the schema. */
static gboolean
build_items (Cli *cli)
{
  Options *o = cli->options;

  if (o->request.key_item != NULL
      && !dyno_cli_parse_item_option (cli->prefix, "--key-item", o->request.key_item, o->plain,
                                      cli->schema, &cli->request->key))
    return FALSE;
  if (o->request.item != NULL
      && !dyno_cli_parse_item_option (cli->prefix, "--item", o->request.item, o->plain, cli->schema,
                                      &cli->request->item))
    return FALSE;
  if (o->request.start_key != NULL)
    {
      g_autoptr(DynoItem) start_key = NULL;

      if (!dyno_cli_parse_item_option (cli->prefix, "--start-key", o->request.start_key, o->plain,
                                       cli->schema, &start_key))
        return FALSE;
      dyno_query_draft_set_exclusive_start_key (cli->draft, start_key);
      dyno_request_free (cli->request);
      cli->request = dyno_query_draft_to_request (cli->draft);
    }

  return TRUE;
}

static gboolean
validate (Cli *cli)
{
  g_autoptr(GPtrArray) issues = dyno_request_validate (cli->request, cli->schema);
  static const struct {
    const char *field;
    const char *option;
  } options[] = {
    { "KeyConditionExpression", "--key" }, { "FilterExpression", "--filter" },
    { "ProjectionExpression", "--project" }, { "ConditionExpression", "--condition" },
    { "UpdateExpression", "--update" }, { "IndexName", "--index" }, { "Limit", "--limit" },
    { "Key", "--key-item" }, { "Item", "--item" }, { "ExclusiveStartKey", "--start-key" },
    { "ConsistentRead", "--consistent" }, { "Select", "--select" },
  };

  if (issues == NULL || issues->len == 0)
    return TRUE;

  for (guint i = 0; i < issues->len; i++)
    {
      const DynoIssue *issue = g_ptr_array_index (issues, i);
      const char *option = NULL;
      const char *text = NULL;

      for (guint k = 0; k < G_N_ELEMENTS (options); k++)
        if (g_strcmp0 (issue->field, options[k].field) == 0)
          option = options[k].option;

      if (g_strcmp0 (option, "--key") == 0)
        text = cli->options->request.key;
      else if (g_strcmp0 (option, "--filter") == 0)
        text = cli->options->request.filter;
      else if (g_strcmp0 (option, "--condition") == 0)
        text = cli->options->request.condition;
      else if (g_strcmp0 (option, "--update") == 0)
        text = cli->options->request.update;
      else if (g_strcmp0 (option, "--project") == 0)
        text = cli->options->request.project;

      report (cli, option ? option : issue->field, issue->message);
      if (text != NULL && issue->has_location)
        dyno_cli_print_location (stderr, text, &issue->location);
    }

  return FALSE;
}

/* ---- output ------------------------------------------------------------------------------ */

static void
write_item (Cli      *cli,
            GString  *out,
            DynoItem *item)
{
  if (cli->options->plain)
    dyno_value_write_plain_json (dyno_item_get_map (item), out);
  else
    dyno_map_write_ddb_item (dyno_item_get_map (item), out);
  g_string_append_c (out, '\n');
}

/* Complete lines only, straight to the file descriptor: nothing is left in a stdio buffer
 * when the process stops, and a line is never cut. */
static void
flush_output (Cli     *cli,
              GString *out)
{
  gsize done = 0;

  fflush (stdout);
  while (done < out->len && !cli->output_failed)
    {
      gssize n = write (STDOUT_FILENO, out->str + done, out->len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        cli->output_failed = TRUE;
      else
        done += (gsize) n;
    }
  g_string_truncate (out, 0);
}

static void
print_page_stats (Cli         *cli,
                  DynoRunPage *page)
{
  g_autofree char *segment = dyno_run_get_segments (cli->run) > 1
                             ? g_strdup_printf (" (segment %u)", dyno_run_page_get_segment (page))
                             : g_strdup ("");
  g_autofree char *lek = NULL;
  double capacity = dyno_run_page_get_consumed_capacity (page);
  g_autofree char *capacity_text = capacity >= 0 ? g_strdup_printf ("%g", capacity)
                                                 : g_strdup ("-");

  if (dyno_run_page_get_last_evaluated_key (page) != NULL)
    lek = dyno_item_to_ddb_json (dyno_run_page_get_last_evaluated_key (page));

  fprintf (stderr, "page %u%s: Count %" G_GINT64_FORMAT ", ScannedCount %" G_GINT64_FORMAT
           ", ConsumedCapacity %s, %" G_GSIZE_FORMAT " bytes, %.1f ms, LastEvaluatedKey %s\n",
           dyno_run_page_get_index (page) + 1, segment,
           dyno_run_page_get_count (page), dyno_run_page_get_scanned_count (page),
           capacity_text, dyno_run_page_get_bytes (page),
           dyno_run_page_get_elapsed_usec (page) / 1000.0, lek ? lek : "(none)");
}

/* Writes out the items handed out so far. */
static void
write_pending (Cli *cli)
{
  g_autoptr(GString) out = NULL;

  g_clear_handle_id (&cli->pending_id, g_source_remove);
  if (cli->pending == NULL || cli->pending->len == 0)
    return;

  out = g_string_sized_new (64 * 1024);
  for (guint i = 0; i < cli->pending->len; i++)
    {
      write_item (cli, out, g_ptr_array_index (cli->pending, i));
      cli->n_written++;
      if (out->len > 60 * 1024)
        flush_output (cli, out);
    }
  flush_output (cli, out);
  g_ptr_array_set_size (cli->pending, 0);
}

static gboolean
write_pending_idle_cb (gpointer user_data)
{
  Cli *cli = user_data;

  cli->pending_id = 0;
  write_pending (cli);
  return G_SOURCE_REMOVE;
}

/* A page's items are written from an idle callback: the main loop first sends the request
 * for the next page (the run asks for it as this one comes; libsoup writes it from the main
 * loop), so that the server works on it while this one is formatted. */
static void
run_items_changed_cb (GListModel *model,
                      guint       position,
                      guint       removed,
                      guint       added,
                      gpointer    user_data)
{
  Cli *cli = user_data;

  if (cli->options->quiet || added == 0)
    return;

  /* A page still waiting goes out first: at most one page waits (pages of a parallel scan
   * may come one after the other before the main loop is idle). */
  write_pending (cli);
  if (cli->pending == NULL)
    cli->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  for (guint i = 0; i < added; i++)
    g_ptr_array_add (cli->pending, dyno_item_ref (dyno_run_get_item (cli->run, position + i)));
  if (cli->pending_id == 0)
    cli->pending_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, write_pending_idle_cb, cli,
                                       NULL);
}

static void
pages_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  Cli *cli = user_data;

  if (!cli->options->stats)
    return;

  for (guint i = 0; i < added; i++)
    {
      g_autoptr(DynoRunPage) page = g_list_model_get_item (model, position + i);

      print_page_stats (cli, page);
    }
}

#define TICK_MS 2

static gint64
thread_cpu_usec (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* Wall time between ticks measures what a person sees, but on a busy machine it includes time
 * the scheduler gave to other processes; main-thread CPU time between ticks is what our own
 * work blocked the loop for. */
static gboolean
tick_cb (gpointer user_data)
{
  Cli *cli = user_data;
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_usec ();

  if (cli->last_tick != 0)
    {
      cli->longest_stall = MAX (cli->longest_stall,
                                now - cli->last_tick - TICK_MS * G_TIME_SPAN_MILLISECOND);
      cli->longest_busy = MAX (cli->longest_busy, cpu - cli->last_tick_cpu);
    }
  cli->last_tick = now;
  cli->last_tick_cpu = cpu;

  return G_SOURCE_CONTINUE;
}

/* After a stop before the end (an error, Ctrl+C, --max-items): the --start-key from which
 * the same command continues with nothing skipped or repeated. */
static void
print_resume (Cli *cli)
{
  DynoItem *key;
  g_autoptr(GString) json = g_string_new (NULL);
  g_autofree char *quoted = NULL;

  if (!dyno_run_get_has_more (cli->run))
    return;

  if (dyno_run_get_segments (cli->run) > 1)
    {
      /* Translators: --segments is an option name. */
      fprintf (stderr, _("%s: a parallel scan (--segments) cannot continue from one key: "
                         "run it again to read everything\n"), cli->prefix);
      return;
    }

  key = dyno_run_get_n_pages (cli->run) > 0 ? dyno_run_get_resume_key (cli->run)
                                            : cli->request->exclusive_start_key;
  if (key == NULL && dyno_run_get_n_pages (cli->run) == 0)
    {
      fprintf (stderr, _("%s: nothing was read: run the same command again\n"), cli->prefix);
      return;
    }
  if (key == NULL)
    {
      fprintf (stderr, _("%s: no resume key: the last item lacks a key attribute (add the "
                         "keys to --project)\n"), cli->prefix);
      return;
    }

  if (cli->options->plain)
    dyno_value_write_plain_json (dyno_item_get_map (key), json);
  else
    dyno_map_write_ddb_item (dyno_item_get_map (key), json);
  quoted = g_shell_quote (json->str);
  /* Translators: the command (query or scan), the number of items printed, then the option
   * with its value, to be copied as is. */
  fprintf (stderr, _("%s: stopped after %u items; continue with --start-key %s\n"),
           cli->prefix, dyno_run_get_n_items (cli->run), quoted);
}

static gboolean
interrupted_cb (gpointer user_data)
{
  Cli *cli = user_data;

  if (++cli->n_interrupts > 1)
    {
      /* The second Ctrl+C: at once.  Output went out as whole lines already. */
      fprintf (stderr, _("%s: interrupted again, exiting\n"), cli->prefix);
      _exit (EXIT_INTERRUPTED);
    }

  g_cancellable_cancel (cli->cancellable);
  if (cli->run != NULL)
    dyno_run_cancel (cli->run);
  return G_SOURCE_CONTINUE;
}

static void
run_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(GError) error = NULL;

  /* every item handed out is written before the end is reported (and the resume key) */
  write_pending (cli);
  if (!dyno_run_load_all_finish (DYNO_RUN (source), result, &error))
    report_failure (cli, error, _("interrupted"));
  print_resume (cli);

  if (cli->options->stats)
    {
      double capacity = dyno_run_get_consumed_capacity (cli->run);
      g_autofree char *capacity_text = capacity >= 0 ? g_strdup_printf ("%g", capacity)
                                                     : g_strdup ("-");

      fprintf (stderr, "total: %u pages, %u items, ScannedCount %" G_GINT64_FORMAT
               ", ConsumedCapacity %s\n",
               dyno_run_get_n_pages (cli->run), dyno_run_get_n_items (cli->run),
               dyno_run_get_scanned_count (cli->run), capacity_text);
      fprintf (stderr, "longest main-loop stall: %.1f ms (main-thread CPU: %.1f ms)\n",
               MAX (cli->longest_stall, 0) / 1000.0, cli->longest_busy / 1000.0);
    }

  if (fflush (stdout) != 0 || cli->output_failed)
    {
      report (cli, NULL, _("could not write the output"));
      cli->status = EXIT_FAILURE_RUN;
    }

  g_main_loop_quit (cli->loop);
}

static void
add_key_name (GPtrArray  *names,
              const char *name)
{
  if (name == NULL)
    return;
  for (guint i = 0; i < names->len; i++)
    if (strcmp (g_ptr_array_index (names, i), name) == 0)
      return;
  g_ptr_array_add (names, (gpointer) name);
}

static void
start_run (Cli *cli)
{
  Options *o = cli->options;

  cli->run = dyno_run_new (cli->backend, cli->request);
  /* items are written out as each page comes: memory stays that of a page */
  dyno_run_set_keep_items (cli->run, FALSE);
  {
    g_autoptr(GPtrArray) names = g_ptr_array_new ();
    const char *index_name = o->request.index;
    const DynoIndexInfo *index = index_name != NULL
                                 ? dyno_table_info_find_index (cli->schema, index_name) : NULL;
    const DynoKeyAttr *pk = dyno_table_info_get_partition_key (cli->schema);
    const DynoKeyAttr *sk = dyno_table_info_get_sort_key (cli->schema);

    add_key_name (names, pk != NULL ? pk->name : NULL);
    add_key_name (names, sk != NULL ? sk->name : NULL);
    if (index != NULL)
      {
        add_key_name (names, index->partition_key.name);
        add_key_name (names, index->sort_key.name);
      }
    g_ptr_array_add (names, NULL);
    dyno_run_set_key_names (cli->run, (const char * const *) names->pdata);
  }
  if (o->max_items > 0)
    dyno_run_set_max_items (cli->run, (guint64) o->max_items);
  if (o->segments != G_MININT && o->segments > 1)
    dyno_run_set_segments (cli->run, (guint) o->segments);
  if (o->parallel != G_MININT)
    dyno_run_set_parallel (cli->run, (guint) o->parallel);

  g_signal_connect (cli->run, "items-changed", G_CALLBACK (run_items_changed_cb), cli);
  if (o->stats)
    cli->tick_id = g_timeout_add (TICK_MS, tick_cb, cli);
  g_signal_connect (dyno_run_get_pages (cli->run), "items-changed",
                    G_CALLBACK (pages_changed_cb), cli);
  dyno_run_load_all_async (cli->run, run_done_cb, cli);
}

static void
print_json_node (JsonNode *node,
                 gboolean  pretty)
{
  g_autofree char *text = dyno_json_node_to_string (node, pretty);

  dyno_cli_write_output (text);
}

/* Item or Attributes of a GetItem/PutItem/… response, as one JSON line. */
static void
print_member_item (Cli        *cli,
                   JsonNode   *response,
                   const char *member)
{
  JsonNode *node = json_object_get_member (json_node_get_object (response), member);
  g_autoptr(DynoItem) item = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;

  item = dyno_item_from_json_node (node, &error);
  if (item == NULL)
    {
      report (cli, member, error->message);
      cli->status = EXIT_FAILURE_RUN;
      return;
    }

  write_item (cli, out, item);
  flush_output (cli, out);
}

static guint
backend_retries (Cli *cli)
{
  return DYNO_IS_HTTP_BACKEND (cli->backend)
         ? dyno_http_backend_get_n_retries (DYNO_HTTP_BACKEND (cli->backend)) : 0;
}

/* A conditional write refused on a retry, after an earlier attempt got no answer (a dropped
 * connection, a 5xx, a broken 200): that attempt may have been applied, and then it is our
 * own write that the condition saw.  The item as it is now tells. */
typedef struct {
  Cli      *cli;
  GError   *refusal;
} Verify;

static void
verified_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Verify *verify = user_data;
  Cli *cli = verify->cli;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;
  g_autoptr(DynoItem) now = NULL;
  JsonNode *node;
  gboolean applied = FALSE;

  response = dyno_backend_execute_finish (DYNO_BACKEND (source), result, &error);
  if (response != NULL)
    {
      node = json_object_get_member (json_node_get_object (response), "Item");
      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
        now = dyno_item_from_json_node (node, NULL);
      if (cli->info->command == COMMAND_PUT)
        applied = now != NULL && dyno_item_equal (now, cli->request->item);
      else if (cli->info->command == COMMAND_DELETE)
        applied = now == NULL;
    }

  if (applied)
    {
      fprintf (stderr, _("%s: done: an earlier attempt, whose answer was lost, was applied (the "
                         "retry was then refused by the condition: %s)\n"), cli->prefix,
               verify->refusal->message);
      cli->status = EXIT_OK;
    }
  else
    {
      g_autoptr(GString) out = g_string_new (NULL);

      dyno_cli_report_service_error (cli->prefix, verify->refusal);
      if (now != NULL)
        write_item (cli, out, now);
      fprintf (stderr, response == NULL
                       ? _("%s: an earlier attempt got no answer and may have been applied; "
                           "the item could not be read to tell\n")
                       : cli->info->command == COMMAND_UPDATE
                       ? _("%s: an earlier attempt got no answer and may have been applied; "
                           "the item is now: %s")
                       : _("%s: an earlier attempt got no answer and was not applied; the "
                           "item is now: %s"),
               cli->prefix, now != NULL ? out->str : _("(no item)\n"));
      cli->status = EXIT_FAILURE_RUN;
    }

  g_error_free (verify->refusal);
  g_free (verify);
  fflush (stdout);
  g_main_loop_quit (cli->loop);
}

static gboolean
verify_refused_retry (Cli    *cli,
                      GError *error)
{
  g_autoptr(DynoRequest) get = NULL;
  const DynoServiceError *service = dyno_error_get_service_info (error);
  Verify *verify;

  if (!g_error_matches (error, DYNO_ERROR, DYNO_ERROR_CONDITIONAL_CHECK_FAILED)
      && (service == NULL || g_strcmp0 (service->type, "ConditionalCheckFailedException") != 0))
    return FALSE;
  if (cli->info->command == COMMAND_GET || backend_retries (cli) == cli->retries_before)
    return FALSE;

  get = dyno_request_new (DYNO_OP_GET_ITEM, cli->request->table_name);
  get->consistent_read = DYNO_TRISTATE_TRUE;
  if (cli->info->command == COMMAND_PUT)
    get->key = dyno_safe_write_extract_key (cli->schema, cli->request->item, NULL);
  else if (cli->request->key != NULL)
    get->key = dyno_item_ref (cli->request->key);
  if (get->key == NULL)
    return FALSE;

  verify = g_new0 (Verify, 1);
  verify->cli = cli;
  verify->refusal = g_error_copy (error);
  dyno_backend_execute_async (cli->backend, get, NULL, verified_cb, verify);
  return TRUE;
}

static void
executed_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;

  response = dyno_backend_execute_finish (DYNO_BACKEND (source), result, &error);
  /* (A cancelled call is never a refusal to verify.) */
  if (response == NULL && verify_refused_retry (cli, error))
    return;   /* verified_cb() reports and quits */
  else if (response == NULL)
    report_failure (cli, error, cli->info->command == COMMAND_GET
                                ? _("interrupted")
                                : _("interrupted: the request was sent, and may or may not "
                                    "have been applied; check with get"));
  else
    {
      print_member_item (cli, response, cli->info->command == COMMAND_GET ? "Item"
                                                                          : "Attributes");
      if (cli->options->request.return_consumed_capacity != NULL
          && json_object_has_member (json_node_get_object (response), "ConsumedCapacity"))
        {
          g_autofree char *text = NULL;

          text = dyno_json_node_to_string (json_object_get_member (json_node_get_object (response),
                                                                   "ConsumedCapacity"), FALSE);
          fprintf (stderr, "ConsumedCapacity %s\n", text);
        }
    }

  fflush (stdout);
  g_main_loop_quit (cli->loop);
}

static void
described_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(GError) error = NULL;

  cli->schema = dyno_backend_describe_table_finish (DYNO_BACKEND (source), result, &error);
  if (cli->schema == NULL)
    {
      report_failure (cli, error, _("interrupted: nothing was read or written"));
      g_main_loop_quit (cli->loop);
      return;
    }

  if (!build_items (cli) || !validate (cli))
    {
      cli->status = EXIT_USAGE;
      g_main_loop_quit (cli->loop);
      return;
    }

  if (cli->info->command == COMMAND_QUERY || cli->info->command == COMMAND_SCAN)
    start_run (cli);
  else
    {
      cli->retries_before = backend_retries (cli);
      dyno_backend_execute_async (cli->backend, cli->request, cli->cancellable, executed_cb,
                                  cli);
    }
}

/* ---- tables, describe, batch-write ------------------------------------------------------- */

static void
tables_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  names = dyno_backend_list_tables_finish (DYNO_BACKEND (source), result, &error);
  if (names == NULL)
    report_failure (cli, error, _("interrupted"));
  else
    {
      for (guint i = 0; names[i] != NULL; i++)
        printf ("%s\n", names[i]);
      /* The classic "where are my tables": say which database this was (stderr only). */
      if (names[0] == NULL && cli->local_signer != NULL)
        {
          g_autofree char *message =
            /* Translators: the access key ID and the region, as in "key AKID in us-east-1" */
            g_strdup_printf (_("no tables for %s. DynamoDB Local started without -sharedDb keeps "
                               "separate tables for each access key and region: use the "
                               "--profile, AWS_ACCESS_KEY_ID or --region the tables were made "
                               "with."), cli->local_signer);

          report (cli, NULL, message);
        }
      if (fflush (stdout) != 0)
        cli->status = EXIT_FAILURE_RUN;
    }

  g_main_loop_quit (cli->loop);
}

static void
describe_json_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) response = NULL;

  response = dyno_backend_call_json_finish (DYNO_BACKEND (source), result, &error);
  if (response == NULL)
    report_failure (cli, error, _("interrupted"));
  else
    print_json_node (response, TRUE);

  g_main_loop_quit (cli->loop);
}

static void
batch_progress_cb (guint    done,
                   guint    total,
                   gpointer user_data)
{
  g_debug ("batch-write: %u of %u", done, total);
}

/* The items not written, as JSON lines, to --unprocessed FILE or standard output. */
static gboolean
write_unprocessed (Cli     *cli,
                   GArray  *unwritten,
                   GError **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *path = cli->options->unprocessed;

  for (guint i = 0; i < unwritten->len; i++)
    write_item (cli, out, g_ptr_array_index (cli->batch_items,
                                             g_array_index (unwritten, guint, i)));

  if (path != NULL && strcmp (path, "-") != 0)
    return g_file_set_contents (path, out->str, out->len, error);

  if (fwrite (out->str, 1, out->len, stdout) != out->len || fflush (stdout) != 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("could not write to standard output"));
      return FALSE;
    }
  return TRUE;
}

static void
batch_written_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) unwritten = NULL;
  guint n_written = 0;
  guint n_unconfirmed = 0;

  if (!dyno_backend_batch_write_finish_full (DYNO_BACKEND (source), result, &n_written,
                                             &unwritten, &n_unconfirmed, &error))
    {
      g_autoptr(GError) write_error = NULL;
      const char *path = cli->options->unprocessed;
      gboolean to_file = path != NULL && strcmp (path, "-") != 0;

      report_failure (cli, error, _("cancelled"));
      if (!write_unprocessed (cli, unwritten, &write_error))
        report (cli, path, write_error->message);
      if (n_unconfirmed == 0)
        /* Translators: written, all items, the table, not written, then where they are
         * listed. */
        fprintf (stderr, _("batch-write: %u of %u items written to %s; %u not written "
                           "(listed %s%s)\n"),
                 n_written, cli->batch_items->len, cli->options->rest[0], unwritten->len,
                 to_file ? _("in ") : _("on standard output"), to_file ? path : "");
      else
        /* Translators: written, all items, the table, not written, not confirmed, then
         * where they are listed. */
        fprintf (stderr, _("batch-write: %u of %u items written to %s; %u not written and %u "
                           "not confirmed (their request got no usable answer: they may have "
                           "been written), all listed %s%s\n"),
                 n_written, cli->batch_items->len, cli->options->rest[0],
                 unwritten->len - n_unconfirmed, n_unconfirmed,
                 to_file ? _("in ") : _("on standard output"), to_file ? path : "");
    }
  else
    /* Translators: the number of items, then the table. */
    fprintf (stderr, _("%u items written to %s\n"), n_written, cli->options->rest[0]);

  g_main_loop_quit (cli->loop);
}

static gboolean
start_batch_write (Cli *cli)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  const char *path = cli->options->rest[1];
  const char *line;
  gsize length = 0;
  guint line_number = 0;

  if (!dyno_cli_read_input (path, &contents, &length, &error))
    {
      report (cli, NULL, error->message);
      return FALSE;
    }

  line = contents;
  while (line < contents + length)
    {
      const char *end = memchr (line, '\n', contents + length - line);
      gsize len = end ? (gsize) (end - line) : (gsize) (contents + length - line);
      DynoItem *item;

      line_number++;
      if (len > 0 && strspn (line, " \t\r") < len)
        {
          item = parse_item_text (cli, line, len, &error);
          if (item == NULL)
            {
              g_autofree char *context = g_strdup_printf ("%s:%u",
                                                          strcmp (path, "-") == 0 ? "stdin"
                                                                                  : path,
                                                          line_number);
              report (cli, context, error->message);
              return FALSE;
            }
          g_ptr_array_add (items, item);
        }
      line = end ? end + 1 : contents + length;
    }

  cli->batch_items = g_ptr_array_ref (items);
  dyno_backend_batch_write_async (cli->backend, cli->options->rest[0], items, NULL,
                                  batch_progress_cb, cli, cli->cancellable, batch_written_cb,
                                  cli);
  return TRUE;
}

/* ---- entry point ------------------------------------------------------------------------- */

static gboolean
take_global_option (int          argc,
                    char       **argv,
                    int         *i,
                    const char  *name,
                    char       **out)
{
  gsize len = strlen (name);

  if (strncmp (argv[*i], name, len) != 0)
    return FALSE;

  if (argv[*i][len] == '=')
    {
      g_free (*out);
      *out = g_strdup (argv[*i] + len + 1);
      return TRUE;
    }
  if (argv[*i][len] == '\0' && *i + 1 < argc)
    {
      g_free (*out);
      *out = g_strdup (argv[++*i]);
      return TRUE;
    }

  return FALSE;
}

static gboolean
connect_backend (Cli *cli)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoResolvedConfig) config = NULL;

  cli->backend = dyno_cli_connect (&cli->settings, &config, &error);
  if (cli->backend == NULL)
    {
      report (cli, NULL, error->message);
      cli->status = EXIT_USAGE;
      return FALSE;
    }

  if (dyno_endpoint_is_local_url (config->endpoint_url))
    /* Translators: what a request to DynamoDB Local signs as: the access key ID, the region */
    cli->local_signer = g_strdup_printf (_("key %s in %s"),
                                         dyno_credentials_get_access_key_id (config->credentials),
                                         config->region);
  return TRUE;
}

int
dyno_cli_run (int    argc,
              char **argv)
{
  g_auto(Cli) cli = { 0, };
  g_auto(Options) options = { 0, };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = NULL;
  guint n_rest;
  guint n_expected;
  int i;

  /* Global options, before the command. */
  for (i = 1; i < argc; i++)
    {
      if (take_global_option (argc, argv, &i, "--endpoint-url", &cli.settings.endpoint_url)
          || take_global_option (argc, argv, &i, "--region", &cli.settings.region)
          || take_global_option (argc, argv, &i, "--profile", &cli.settings.profile))
        continue;
      if (argv[i][0] == '-')
        {
          if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
            {
              print_run_usage (stdout);
              return EXIT_OK;
            }
          g_autofree char *message = g_strdup_printf (_("unknown option \"%s\" (global options "
                                                        "come before the command)"), argv[i]);
          dyno_cli_print_error (NULL, message);
          return EXIT_USAGE;
        }
      break;
    }

  if (i >= argc)
    {
      dyno_cli_print_error (NULL, _("missing COMMAND"));
      print_run_usage (stderr);
      return EXIT_USAGE;
    }

  for (guint k = 0; k < G_N_ELEMENTS (commands); k++)
    if (strcmp (commands[k].name, argv[i]) == 0)
      cli.info = &commands[k];

  if (cli.info == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("unknown command \"%s\""), argv[i]);

      dyno_cli_print_error (NULL, message);
      print_run_usage (stderr);
      return EXIT_USAGE;
    }

  cli.prefix = g_strdup (cli.info->name);
  cli.options = &options;
  cli.status = EXIT_OK;
  options.request.limit = G_MININT;
  options.segments = G_MININT;
  options.parallel = G_MININT;

  /* The program name already says the command ("dynotable-cli query"). */
  context = g_option_context_new (strchr (cli.info->parameter, ' ')
                                   ? strchr (cli.info->parameter, ' ') + 1 : NULL);
  g_option_context_set_summary (context, _(cli.info->summary));
  entries = build_entries (cli.info, &options);
  g_option_context_add_main_entries (context, (GOptionEntry *) (gpointer) entries->data, NULL);
  prgname = g_strdup_printf ("dynotable-cli %s", cli.info->name);
  g_set_prgname (prgname);

  {
    int sub_argc = argc - i;
    char **sub_argv = argv + i;

    if (!g_option_context_parse (context, &sub_argc, &sub_argv, &error))
      {
        /* Translators: the problem, then the command's name. */
        g_autofree char *message = g_strdup_printf (_("%s (see 'dynotable-cli %s --help')"),
                                                    error->message, cli.info->name);
        report (&cli, NULL, message);
        return EXIT_USAGE;
      }
  }

  n_rest = options.rest ? g_strv_length (options.rest) : 0;
  n_expected = cli.info->command == COMMAND_TABLES ? 0
               : cli.info->command == COMMAND_BATCH_WRITE ? 2 : 1;
  if (n_rest != n_expected)
    {
      g_autofree char *message =
        n_rest < n_expected ? g_strdup_printf (_("missing %s"), n_rest == 0 && n_expected > 0
                                                             ? "TABLE" : "FILE (or '-')")
                            : g_strdup_printf (_("unexpected argument \"%s\""),
                                               options.rest[n_expected]);
      report (&cli, NULL, message);
      return EXIT_USAGE;
    }

  cli.values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) dyno_value_free);
  cli.used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* Everything that can be checked offline is checked before connecting. */
  if (cli.info->command != COMMAND_TABLES && cli.info->command != COMMAND_DESCRIBE
      && cli.info->command != COMMAND_BATCH_WRITE && !build_expressions (&cli))
    return EXIT_USAGE;

  if (!connect_backend (&cli))
    return cli.status;

  cli.loop = g_main_loop_new (NULL, FALSE);
  cli.cancellable = g_cancellable_new ();
  cli.signal_id = g_unix_signal_add (SIGINT, interrupted_cb, &cli);

  switch (cli.info->command)
    {
    case COMMAND_TABLES:
      dyno_backend_list_tables_async (cli.backend, cli.cancellable, tables_cb, &cli);
      break;
    case COMMAND_DESCRIBE:
      {
        g_autoptr(JsonBuilder) builder = json_builder_new ();
        g_autoptr(JsonNode) body = NULL;

        json_builder_begin_object (builder);
        json_builder_set_member_name (builder, "TableName");
        json_builder_add_string_value (builder, options.rest[0]);
        json_builder_end_object (builder);
        body = json_builder_get_root (builder);
        dyno_backend_call_json_async (cli.backend, "DescribeTable", body, cli.cancellable,
                                      describe_json_cb, &cli);
      }
      break;
    case COMMAND_BATCH_WRITE:
      if (!start_batch_write (&cli))
        return EXIT_USAGE;
      break;
    case COMMAND_QUERY:
    case COMMAND_SCAN:
    case COMMAND_GET:
    case COMMAND_PUT:
    case COMMAND_UPDATE:
    case COMMAND_DELETE:
    default:
      /* The schema first: the request is validated against it before it is sent. */
      dyno_backend_describe_table_async (cli.backend, options.rest[0], cli.cancellable,
                                         described_cb, &cli);
      break;
    }

  g_main_loop_run (cli.loop);

  return cli.status;
}
