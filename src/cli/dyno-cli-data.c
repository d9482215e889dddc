/* dyno-cli-data.c: dynotable-cli import and export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include "dyno-cli-data.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <glib-unix.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "dyno-backend.h"
#include "dyno-cli-io.h"
#include "dyno-cli-request.h"
#include "dyno-credentials.h"
#include "dyno-export.h"
#include "dyno-expr.h"
#include "dyno-http-backend.h"
#include "dyno-http-error.h"
#include "dyno-import.h"
#include "dyno-json.h"
#include "dyno-request.h"

#define EXIT_OK          0
#define EXIT_FAILURE_RUN 1
#define EXIT_USAGE       2

/* BatchWriteItem takes 25 requests; a few batches in flight keep the server busy. */
#define BATCH_ITEMS      25
#define MAX_IN_FLIGHT    4
#define READ_CHUNK       (64 * 1024)

static const char * const global_options[] = { "--endpoint-url", "--region", "--profile" };

const char *
dyno_cli_data_find_command (int    argc,
                            char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      gboolean global = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (global_options); k++)
        {
          gsize len = strlen (global_options[k]);

          if (strncmp (argv[i], global_options[k], len) != 0)
            continue;
          if (argv[i][len] == '=')
            global = TRUE;
          else if (argv[i][len] == '\0')
            {
              global = TRUE;
              i++;
            }
        }
      if (global)
        continue;
      return argv[i][0] == '-' ? NULL : argv[i];
    }

  return NULL;
}

/* ---- shared ------------------------------------------------------------------------------ */

typedef struct {
  const char             *command;
  DynoConnectionSettings  settings;
  DynoBackend            *backend;
  GMainLoop              *loop;
  GCancellable           *cancellable;
  DynoTableInfo          *schema;
  guint                   signal_ids[2];
  gboolean                interrupted;
  int                     status;
} Session;

static void
session_clear (Session *s)
{
  for (guint i = 0; i < G_N_ELEMENTS (s->signal_ids); i++)
    if (s->signal_ids[i] != 0)
      g_source_remove (s->signal_ids[i]);
  g_free (s->settings.profile);
  g_free (s->settings.region);
  g_free (s->settings.endpoint_url);
  g_clear_object (&s->backend);
  g_clear_pointer (&s->loop, g_main_loop_unref);
  g_clear_object (&s->cancellable);
  g_clear_pointer (&s->schema, dyno_table_info_unref);
}

static void
report (Session    *s,
        const char *context,
        const char *message)
{
  dyno_cli_report (s->command, context, message);
}

static gboolean
interrupted_cb (gpointer user_data)
{
  Session *s = user_data;

  /* A second Ctrl+C while finishing up: the default action. */
  if (s->interrupted)
    return G_SOURCE_CONTINUE;
  s->interrupted = TRUE;
  g_printerr ("%s: cancelling…\n", s->command);
  g_cancellable_cancel (s->cancellable);
  return G_SOURCE_CONTINUE;
}

/* Global options and the command's own; returns FALSE (status set) on a usage error or
 * --help. */
static gboolean
session_parse (Session       *s,
               int            argc,
               char         **argv,
               GOptionEntry  *entries,
               const char    *parameter,
               const char    *summary)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = NULL;
  int i;

  for (i = 1; i < argc; i++)
    {
      char **targets[] = { &s->settings.endpoint_url, &s->settings.region,
                           &s->settings.profile };
      gboolean taken = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (global_options) && !taken; k++)
        {
          gsize len = strlen (global_options[k]);

          if (strncmp (argv[i], global_options[k], len) != 0)
            continue;
          if (argv[i][len] == '=')
            {
              g_free (*targets[k]);
              *targets[k] = g_strdup (argv[i] + len + 1);
              taken = TRUE;
            }
          else if (argv[i][len] == '\0' && i + 1 < argc)
            {
              g_free (*targets[k]);
              *targets[k] = g_strdup (argv[++i]);
              taken = TRUE;
            }
        }
      if (!taken)
        break;
    }

  /* argv[i] is the command */
  context = g_option_context_new (parameter);
  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, NULL);
  prgname = g_strdup_printf ("dynotable-cli %s", s->command);
  g_set_prgname (prgname);

  {
    int sub_argc = argc - i;
    char **sub_argv = argv + i;

    if (!g_option_context_parse (context, &sub_argc, &sub_argv, &error))
      {
        g_autofree char *message = g_strdup_printf ("%s (see 'dynotable-cli %s --help')",
                                                    error->message, s->command);
        report (s, NULL, message);
        s->status = EXIT_USAGE;
        return FALSE;
      }
  }

  return TRUE;
}

static gboolean
session_connect (Session *s)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoResolvedConfig) config = NULL;
  g_autoptr(DynoHttpBackend) backend = NULL;
  g_auto(GStrv) env = g_get_environ ();

  config = dyno_resolve_config (&s->settings, env, NULL, &error);
  if (config == NULL)
    {
      report (s, NULL, error->message);
      s->status = EXIT_USAGE;
      return FALSE;
    }

  backend = dyno_http_backend_new (config, &error);
  if (backend == NULL)
    {
      report (s, NULL, error->message);
      s->status = EXIT_USAGE;
      return FALSE;
    }

  s->backend = DYNO_BACKEND (g_steal_pointer (&backend));
  s->loop = g_main_loop_new (NULL, FALSE);
  s->cancellable = g_cancellable_new ();
  s->signal_ids[0] = g_unix_signal_add (SIGINT, interrupted_cb, s);
  s->signal_ids[1] = g_unix_signal_add (SIGTERM, interrupted_cb, s);
  return TRUE;
}

static void
described_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Session *s = user_data;
  g_autoptr(GError) error = NULL;

  s->schema = dyno_backend_describe_table_finish (DYNO_BACKEND (source), result, &error);
  if (s->schema == NULL)
    {
      dyno_cli_report_service_error (s->command, error);
      s->status = EXIT_FAILURE_RUN;
    }
  g_main_loop_quit (s->loop);
}

/* DescribeTable, synchronously on the session's loop. */
static gboolean
session_describe (Session    *s,
                  const char *table)
{
  dyno_backend_describe_table_async (s->backend, table, s->cancellable, described_cb, s);
  g_main_loop_run (s->loop);
  return s->schema != NULL;
}

/* "a:S,b:N" with the message on error. */
static gboolean
parse_types_option (Session     *s,
                    const char  *text,
                    GHashTable **out)
{
  g_autoptr(GError) error = NULL;

  *out = NULL;
  if (text == NULL)
    return TRUE;
  *out = dyno_import_parse_type_mapping (text, &error);
  if (*out == NULL)
    {
      report (s, "--types", error->message);
      s->status = EXIT_USAGE;
      return FALSE;
    }
  return TRUE;
}

/* ---- export ------------------------------------------------------------------------------ */

typedef struct {
  Session           s;
  char             *key;
  char             *index;
  char             *filter;
  char             *project;
  char             *values;
  char             *format;
  char             *types;
  char             *columns;
  char             *output;
  gboolean          consistent;
  gboolean          desc;
  gboolean          progress;
  gboolean          no_type_row;
  gint              limit;
  char            **rest;

  DynoRequest      *request;
  DynoExporter     *exporter;
  DynoExportFormat  export_format;
  GOutputStream    *stream;       /* -o FILE: atomic replace on close */
  GString          *out;
  FILE             *spool;        /* CSV without --columns: the first pass, as DynamoDB JSON */
  guint64           n_spooled;
  guint             n_pages;
  gboolean          write_failed;
} Export;

static void
export_clear (Export *e)
{
  session_clear (&e->s);
  g_free (e->key);
  g_free (e->index);
  g_free (e->filter);
  g_free (e->project);
  g_free (e->values);
  g_free (e->format);
  g_free (e->types);
  g_free (e->columns);
  g_free (e->output);
  g_strfreev (e->rest);
  g_clear_pointer (&e->request, dyno_request_free);
  g_clear_pointer (&e->exporter, dyno_exporter_free);
  g_clear_object (&e->stream);
  if (e->spool != NULL)
    fclose (e->spool);
  if (e->out != NULL)
    g_string_free (e->out, TRUE);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Export, export_clear)

static gboolean
export_flush (Export *e)
{
  g_autoptr(GError) error = NULL;

  if (e->out->len == 0 || e->write_failed)
    {
      g_string_truncate (e->out, 0);
      return !e->write_failed;
    }

  if (e->stream != NULL)
    {
      if (!g_output_stream_write_all (e->stream, e->out->str, e->out->len, NULL, NULL, &error))
        {
          report (&e->s, e->output, error->message);
          e->write_failed = TRUE;
        }
    }
  else if (fwrite (e->out->str, 1, e->out->len, stdout) != e->out->len)
    {
      report (&e->s, NULL, "could not write to standard output");
      e->write_failed = TRUE;
    }
  g_string_truncate (e->out, 0);

  return !e->write_failed;
}

static void export_next_page (Export *e, DynoItem *start_key);

/* CSV: the columns are known now; write the spooled items. */
static gboolean
export_second_pass (Export *e)
{
  g_autoptr(GError) error = NULL;
  char *line = NULL;
  size_t size = 0;
  ssize_t len;
  gboolean ok = TRUE;

  dyno_exporter_fix_observed_columns (e->exporter);
  if (fflush (e->spool) != 0 || fseek (e->spool, 0, SEEK_SET) != 0)
    {
      report (&e->s, NULL, "could not read back the temporary file of the CSV export");
      return FALSE;
    }
  while (ok && (len = getline (&line, &size, e->spool)) > 0)
    {
      g_autoptr(DynoItem) spooled = dyno_item_from_ddb_json (line, len, &error);

      if (spooled == NULL || !dyno_exporter_add_item (e->exporter, spooled, e->out, &error))
        {
          report (&e->s, NULL, error->message);
          ok = FALSE;
          break;
        }
      if (e->out->len >= READ_CHUNK && !export_flush (e))
        ok = FALSE;
    }
  free (line);
  if (ok && !dyno_exporter_finish (e->exporter, e->out, &error))
    {
      report (&e->s, NULL, error->message);
      ok = FALSE;
    }
  return ok && export_flush (e);
}

static void
export_page_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  Export *e = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoPage) page = NULL;

  page = dyno_backend_run_page_finish (DYNO_BACKEND (source), result, &error);
  if (page == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        report (&e->s, NULL, "cancelled");
      else
        dyno_cli_report_service_error (e->s.command, error);
      e->s.status = EXIT_FAILURE_RUN;
      g_main_loop_quit (e->s.loop);
      return;
    }

  e->n_pages++;
  if (e->spool != NULL)
    {
      /* First pass: remember the columns and their types, keep the items on disk. */
      for (guint i = 0; i < page->items->len; i++)
        {
          DynoItem *page_item = g_ptr_array_index (page->items, i);

          dyno_exporter_observe (e->exporter, page_item);
          dyno_map_write_ddb_item (dyno_item_get_map (page_item), e->out);
          g_string_append_c (e->out, '\n');
        }
      e->n_spooled += page->items->len;
      if (fwrite (e->out->str, 1, e->out->len, e->spool) != e->out->len)
        {
          report (&e->s, NULL, "could not write the temporary file of the CSV export");
          e->s.status = EXIT_FAILURE_RUN;
          g_main_loop_quit (e->s.loop);
          return;
        }
      g_string_truncate (e->out, 0);
      if (e->progress)
        g_printerr ("export: page %u, %" G_GUINT64_FORMAT " items\n", e->n_pages, e->n_spooled);
      if (page->last_evaluated_key != NULL)
        export_next_page (e, page->last_evaluated_key);
      else
        {
          if (!export_second_pass (e))
            e->s.status = EXIT_FAILURE_RUN;
          g_main_loop_quit (e->s.loop);
        }
      return;
    }
  for (guint i = 0; i < page->items->len; i++)
    if (!dyno_exporter_add_item (e->exporter, g_ptr_array_index (page->items, i), e->out,
                                 &error))
      {
        report (&e->s, NULL, error->message);
        e->s.status = EXIT_FAILURE_RUN;
        g_main_loop_quit (e->s.loop);
        return;
      }
  if (!export_flush (e))
    {
      e->s.status = EXIT_FAILURE_RUN;
      g_main_loop_quit (e->s.loop);
      return;
    }

  if (e->progress)
    g_printerr ("export: page %u, %" G_GUINT64_FORMAT " items\n", e->n_pages,
                dyno_exporter_get_n_items (e->exporter));

  if (page->last_evaluated_key != NULL)
    {
      export_next_page (e, page->last_evaluated_key);
      return;
    }

  if (!dyno_exporter_finish (e->exporter, e->out, &error))
    {
      report (&e->s, NULL, error->message);
      e->s.status = EXIT_FAILURE_RUN;
    }
  else if (!export_flush (e))
    e->s.status = EXIT_FAILURE_RUN;
  g_main_loop_quit (e->s.loop);
}

static void
export_next_page (Export   *e,
                  DynoItem *start_key)
{
  dyno_backend_run_page_async (e->s.backend, e->request, start_key, e->s.cancellable,
                               export_page_cb, e);
}

static gboolean
export_build_request (Export *e)
{
  g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) dyno_value_free);
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;
  DynoRequest *request;

  e->request = request = dyno_request_new (e->key != NULL ? DYNO_OP_QUERY : DYNO_OP_SCAN,
                                           e->rest[0]);
  request->index_name = g_strdup (e->index);

  if (e->values != NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonNode *root;

      if (!json_parser_load_from_data (parser, e->values, -1, &error)
          || (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
        {
          report (&e->s, "--values", "must be a JSON object of \":name\": DynamoDB JSON value");
          return FALSE;
        }
      {
        JsonObject *object = json_node_get_object (root);
        g_autoptr(GList) members = json_object_get_members (object);

        for (GList *l = members; l != NULL; l = l->next)
          {
            DynoValue *value = dyno_value_from_json_node (json_object_get_member (object,
                                                                                  l->data),
                                                          &error);

            if (value == NULL)
              {
                g_autofree char *message = g_strdup_printf ("%s: %s", (char *) l->data,
                                                            error->message);
                report (&e->s, "--values", message);
                return FALSE;
              }
            g_hash_table_insert (values, g_strdup (l->data), value);
          }
      }
    }

  if (e->key != NULL
      && !dyno_cli_parse_condition_option (e->s.command, "--key", e->key,
                                           DYNO_EXPR_ROLE_KEY_CONDITION, values, used,
                                           &request->key_condition))
    return FALSE;
  if (e->filter != NULL
      && !dyno_cli_parse_condition_option (e->s.command, "--filter", e->filter,
                                           DYNO_EXPR_ROLE_FILTER, values, used,
                                           &request->filter))
    return FALSE;
  if (e->project != NULL
      && !dyno_cli_parse_projection_option (e->s.command, e->project, used,
                                            &request->projection))
    return FALSE;
  if (!dyno_cli_parse_limit_option (e->s.command, e->limit, &request->limit))
    return FALSE;
  if (e->consistent)
    request->consistent_read = DYNO_TRISTATE_TRUE;
  if (e->desc)
    {
      if (e->key == NULL)
        {
          report (&e->s, "--desc", "only a query (--key) has a sort order to reverse");
          return FALSE;
        }
      request->scan_index_forward = DYNO_TRISTATE_FALSE;
    }

  return TRUE;
}

static gboolean
export_validate (Export *e)
{
  g_autoptr(GPtrArray) issues = dyno_request_validate (e->request, e->s.schema);

  for (guint i = 0; issues != NULL && i < issues->len; i++)
    {
      const DynoIssue *issue = g_ptr_array_index (issues, i);

      report (&e->s, issue->field, issue->message);
    }

  return issues == NULL || issues->len == 0;
}

static gboolean
export_setup_exporter (Export *e)
{
  g_autoptr(GHashTable) types = NULL;

  if (e->format != NULL && !dyno_export_format_from_string (e->format, &e->export_format))
    {
      g_autofree char *message = g_strdup_printf ("\"%s\" is not one of ddb-jsonl, plain-jsonl, "
                                                  "csv", e->format);
      report (&e->s, "--format", message);
      return FALSE;
    }
  if (e->format == NULL)
    e->export_format = e->output != NULL && g_str_has_suffix (e->output, ".csv")
                       ? DYNO_EXPORT_CSV : DYNO_EXPORT_DDB_JSONL;

  if ((e->types != NULL || e->columns != NULL || e->no_type_row)
      && e->export_format != DYNO_EXPORT_CSV)
    {
      report (&e->s, NULL, "--types, --columns and --no-type-row are for --format csv");
      return FALSE;
    }
  if (!parse_types_option (&e->s, e->types, &types))
    return FALSE;

  e->exporter = dyno_exporter_new (e->export_format, NULL);
  if (e->columns != NULL)
    {
      g_auto(GStrv) columns = g_strsplit (e->columns, ",", -1);

      dyno_exporter_set_columns (e->exporter, (const char * const *) columns);
      dyno_exporter_set_drop_other_attributes (e->exporter, TRUE);
    }
  if (types != NULL)
    {
      GHashTableIter iter;
      gpointer name, type;

      g_hash_table_iter_init (&iter, types);
      while (g_hash_table_iter_next (&iter, &name, &type))
        dyno_exporter_set_column_type (e->exporter, name, GPOINTER_TO_INT (type));
    }
  dyno_exporter_set_type_row (e->exporter, !e->no_type_row);

  return TRUE;
}

int
dyno_cli_export (int    argc,
                 char **argv)
{
  g_auto(Export) e = { { 0, }, };
  GOptionEntry entries[] = {
    { "key", 0, 0, G_OPTION_ARG_STRING, &e.key,
      "Export a query: the key condition, inline syntax (else a scan)", "COND" },
    { "index", 0, 0, G_OPTION_ARG_STRING, &e.index, "Query or scan this index", "NAME" },
    { "filter", 0, 0, G_OPTION_ARG_STRING, &e.filter, "Filter expression, inline syntax",
      "COND" },
    { "project", 0, 0, G_OPTION_ARG_STRING, &e.project, "Attributes to export", "PATHS" },
    { "values", 0, 0, G_OPTION_ARG_STRING, &e.values,
      "Values for :placeholders (DynamoDB JSON)", "JSON" },
    { "consistent", 0, 0, G_OPTION_ARG_NONE, &e.consistent, "Strongly consistent reads", NULL },
    { "desc", 0, 0, G_OPTION_ARG_NONE, &e.desc, "Descending sort-key order (a query)", NULL },
    { "limit", 0, 0, G_OPTION_ARG_INT, &e.limit, "Items evaluated per page", "N" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &e.format,
      "ddb-jsonl (default), plain-jsonl or csv (default for -o *.csv)", "FORMAT" },
    { "types", 0, 0, G_OPTION_ARG_STRING, &e.types,
      "CSV column types: attr:TYPE,… (S N B BOOL NULL M L SS NS BS ANY)", "TYPES" },
    { "columns", 0, 0, G_OPTION_ARG_STRING, &e.columns,
      "CSV columns, in order (streams; other attributes are left out)", "A,B,…" },
    { "no-type-row", 0, 0, G_OPTION_ARG_NONE, &e.no_type_row, "CSV without the #types: row",
      NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &e.output,
      "Write to FILE (replaced only when the export completes) instead of stdout", "FILE" },
    { "progress", 0, 0, G_OPTION_ARG_NONE, &e.progress, "Report progress on stderr", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &e.rest, NULL, NULL },
    { NULL, },
  };
  g_autoptr(GError) error = NULL;

  e.s.command = "export";
  e.s.status = EXIT_OK;
  e.limit = G_MININT;

  if (!session_parse (&e.s, argc, argv, entries, "TABLE",
                      "Export every page of a scan (or of a query with --key) as JSON lines of\n"
                      "DynamoDB JSON, plain JSON, or CSV with a type row."))
    return e.s.status;

  if (e.rest == NULL || e.rest[0] == NULL)
    {
      report (&e.s, NULL, "missing TABLE");
      return EXIT_USAGE;
    }
  if (e.rest[1] != NULL)
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument \"%s\"", e.rest[1]);
      report (&e.s, NULL, message);
      return EXIT_USAGE;
    }

  if (!export_setup_exporter (&e) || !export_build_request (&e))
    return e.s.status != EXIT_OK ? e.s.status : EXIT_USAGE;

  if (!session_connect (&e.s))
    return e.s.status;
  if (!session_describe (&e.s, e.rest[0]))
    return e.s.status;
  if (!export_validate (&e))
    return EXIT_USAGE;

  if (e.export_format == DYNO_EXPORT_CSV)
    {
      g_clear_pointer (&e.exporter, dyno_exporter_free);
      /* again, now with the schema: key columns first */
      {
        g_autoptr(DynoTableInfo) schema = dyno_table_info_ref (e.s.schema);
        g_autoptr(GHashTable) types = NULL;

        e.exporter = dyno_exporter_new (e.export_format, schema);
        if (e.columns != NULL)
          {
            g_auto(GStrv) columns = g_strsplit (e.columns, ",", -1);

            dyno_exporter_set_columns (e.exporter, (const char * const *) columns);
            dyno_exporter_set_drop_other_attributes (e.exporter, TRUE);
          }
        if (e.types != NULL && parse_types_option (&e.s, e.types, &types))
          {
            GHashTableIter iter;
            gpointer name, type;

            g_hash_table_iter_init (&iter, types);
            while (g_hash_table_iter_next (&iter, &name, &type))
              dyno_exporter_set_column_type (e.exporter, name, GPOINTER_TO_INT (type));
          }
        dyno_exporter_set_type_row (e.exporter, !e.no_type_row);
      }
      if (e.columns == NULL)
        {
          e.spool = tmpfile ();
          if (e.spool == NULL)
            {
              g_autofree char *message = g_strdup_printf ("cannot create a temporary file: %s",
                                                          g_strerror (errno));
              report (&e.s, NULL, message);
              return EXIT_FAILURE_RUN;
            }
        }
    }

  if (e.output != NULL && strcmp (e.output, "-") != 0)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (e.output);

      e.stream = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                                  &error));
      if (e.stream == NULL)
        {
          report (&e.s, e.output, error->message);
          return EXIT_FAILURE_RUN;
        }
    }

  e.out = g_string_new (NULL);
  export_next_page (&e, NULL);
  g_main_loop_run (e.s.loop);

  if (e.stream != NULL)
    {
      g_autoptr(GCancellable) abort = g_cancellable_new ();

      /* An incomplete export must not replace the file: closing with a cancelled
       * cancellable discards the temporary file g_file_replace() wrote to. */
      if (e.s.status != EXIT_OK)
        {
          g_cancellable_cancel (abort);
          g_output_stream_close (e.stream, abort, NULL);
          g_printerr ("export: %s was not written\n", e.output);
        }
      else if (!g_output_stream_close (e.stream, NULL, &error))
        {
          report (&e.s, e.output, error->message);
          e.s.status = EXIT_FAILURE_RUN;
        }
    }
  else if (fflush (stdout) != 0)
    {
      report (&e.s, NULL, "could not write to standard output");
      e.s.status = EXIT_FAILURE_RUN;
    }

  if (e.s.status == EXIT_OK)
    {
      g_autofree char *hints = NULL;
      gboolean ambiguous = FALSE;

      if (e.progress || e.stream != NULL)
        g_printerr ("export: %" G_GUINT64_FORMAT " items from %s (%u pages)%s%s\n",
                    dyno_exporter_get_n_items (e.exporter), e.rest[0], e.n_pages,
                    e.stream != NULL ? " to " : "", e.stream != NULL ? e.output : "");
      if (e.export_format == DYNO_EXPORT_PLAIN_JSONL)
        hints = dyno_exporter_dup_type_hints (e.exporter, &ambiguous);
      if (hints != NULL)
        g_printerr ("export: plain JSON has no binary or set types; import it back with "
                    "--types %s\n", hints);
      if (ambiguous)
        g_printerr ("export: some attributes hold binary or set values in some items and "
                    "other types in others: use --format ddb-jsonl to keep every type\n");
    }

  return e.s.status;
}

/* ---- import ------------------------------------------------------------------------------ */

typedef struct {
  GPtrArray *items;   /* DynoItem* */
  GArray    *rows;    /* guint64 */
  GArray    *lines;   /* guint64 */
  GPtrArray *keys;    /* char* */
} Chunk;

static Chunk *
chunk_new (void)
{
  Chunk *chunk = g_new0 (Chunk, 1);

  chunk->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  chunk->rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  chunk->lines = g_array_new (FALSE, FALSE, sizeof (guint64));
  chunk->keys = g_ptr_array_new_with_free_func (g_free);
  return chunk;
}

static void
chunk_free (Chunk *chunk)
{
  g_ptr_array_unref (chunk->items);
  g_array_unref (chunk->rows);
  g_array_unref (chunk->lines);
  g_ptr_array_unref (chunk->keys);
  g_free (chunk);
}

typedef struct {
  Session           s;
  char             *format;
  char             *types;
  char             *report_path;
  gboolean          progress;
  gboolean          dry_run;
  char            **rest;

  const char       *path;
  FILE             *input;
  gboolean          input_eof;
  gboolean          reading_done;  /* END, FAILED, cancel or a fatal write error */
  guint64           input_size;
  DynoImporter     *importer;
  FILE             *report_file;
  Chunk            *current;
  GQueue            retry;         /* Chunk*: single items of a batch the server refused */
  GHashTable       *keys_in_flight; /* key string → count */
  guint             in_flight;
  DynoItem         *held;          /* an item whose key is in flight: waits */
  guint64           held_row;
  guint64           held_line;
  char             *held_key;
  guint64           n_written;
  guint64           n_rejected;
  guint64           n_failed;
  guint64           n_uncertain;
  guint64           n_unsent;
  guint64           last_progress;
  char             *fatal;         /* why the import stopped */
  gboolean          quitting;
} Import;

static void
import_clear (Import *im)
{
  g_free (im->format);
  g_free (im->types);
  g_free (im->report_path);
  g_strfreev (im->rest);
  if (im->input != NULL && im->input != stdin)
    fclose (im->input);
  if (im->report_file != NULL)
    fclose (im->report_file);
  g_clear_pointer (&im->importer, dyno_importer_free);
  g_clear_pointer (&im->current, chunk_free);
  g_queue_clear_full (&im->retry, (GDestroyNotify) chunk_free);
  g_clear_pointer (&im->keys_in_flight, g_hash_table_unref);
  g_clear_pointer (&im->held, dyno_item_unref);
  g_free (im->held_key);
  g_free (im->fatal);
  session_clear (&im->s);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Import, import_clear)

static char *
row_location (Import  *im,
              guint64  row,
              guint64  line)
{
  const char *name = strcmp (im->path, "-") == 0 ? "stdin" : im->path;

  switch (dyno_importer_get_format (im->importer))
    {
    case DYNO_IMPORT_CSV:
      return g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": row %" G_GUINT64_FORMAT, name, line,
                              row);
    case DYNO_IMPORT_JSON_ARRAY:
    case DYNO_IMPORT_DDB_JSON_ARRAY:
    case DYNO_IMPORT_PLAIN_JSON_ARRAY:
      return g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": element %" G_GUINT64_FORMAT, name,
                              line, row);
    default:
      return g_strdup_printf ("%s:%" G_GUINT64_FORMAT, name, line);
    }
}

/* One rejected (or failed) row: to the report file as a JSON line, else to stderr. */
static void
import_report_row (Import     *im,
                   guint64     row,
                   guint64     line,
                   const char *kind,
                   const char *reason)
{
  if (im->report_file != NULL)
    {
      g_autoptr(GString) json = g_string_new (NULL);

      g_string_append_printf (json, "{\"row\":%" G_GUINT64_FORMAT ",\"line\":%" G_GUINT64_FORMAT
                              ",\"status\":", row, line);
      dyno_json_write_string (json, kind, -1);
      g_string_append (json, ",\"reason\":");
      dyno_json_write_string (json, reason, -1);
      g_string_append (json, "}\n");
      fwrite (json->str, 1, json->len, im->report_file);
    }
  else
    {
      g_autofree char *where = row_location (im, row, line);

      g_printerr ("import: %s: %s: %s\n", where, kind, reason);
    }
}

static void import_pump (Import *im);

typedef struct {
  Import *im;
  Chunk  *chunk;
} BatchCall;

static void
import_release_keys (Import *im,
                     Chunk  *chunk)
{
  for (guint i = 0; i < chunk->keys->len; i++)
    {
      const char *key = g_ptr_array_index (chunk->keys, i);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (im->keys_in_flight, key));

      if (count <= 1)
        g_hash_table_remove (im->keys_in_flight, key);
      else
        g_hash_table_insert (im->keys_in_flight, g_strdup (key), GUINT_TO_POINTER (count - 1));
    }
}

static void
import_fail_chunk (Import     *im,
                   Chunk      *chunk,
                   const char *kind,
                   const char *reason)
{
  for (guint i = 0; i < chunk->items->len; i++)
    import_report_row (im, g_array_index (chunk->rows, guint64, i),
                       g_array_index (chunk->lines, guint64, i), kind, reason);
}

static void
import_batch_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  BatchCall *call = user_data;
  Import *im = call->im;
  Chunk *chunk = call->chunk;
  g_autoptr(GError) error = NULL;
  guint n = 0;

  g_free (call);
  im->in_flight--;
  import_release_keys (im, chunk);

  if (dyno_backend_batch_write_finish (DYNO_BACKEND (source), result, &n, &error))
    im->n_written += chunk->items->len;
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      import_fail_chunk (im, chunk, "cancelled",
                         "Cancelled while its batch was being written: the row may or may "
                         "not have been written.");
      im->n_uncertain += chunk->items->len;
    }
  else if (error->domain == DYNO_ERROR && error->code == DYNO_ERROR_SERVICE_VALIDATION)
    {
      /* One bad item fails the whole BatchWriteItem: write them one by one to find it. */
      if (chunk->items->len == 1)
        {
          import_report_row (im, g_array_index (chunk->rows, guint64, 0),
                             g_array_index (chunk->lines, guint64, 0), "rejected",
                             error->message);
          im->n_rejected++;
        }
      else
        for (guint i = 0; i < chunk->items->len; i++)
          {
            Chunk *single = chunk_new ();

            g_ptr_array_add (single->items, dyno_item_ref (g_ptr_array_index (chunk->items, i)));
            g_array_append_val (single->rows, g_array_index (chunk->rows, guint64, i));
            g_array_append_val (single->lines, g_array_index (chunk->lines, guint64, i));
            g_ptr_array_add (single->keys, g_strdup (g_ptr_array_index (chunk->keys, i)));
            g_queue_push_tail (&im->retry, single);
          }
    }
  else
    {
      /* Throttled beyond the retries, the network, the table gone: stop reading. */
      g_autofree char *reason = g_strdup_printf ("Not written: %s", error->message);

      import_fail_chunk (im, chunk, "failed", reason);
      im->n_failed += chunk->items->len;
      if (im->fatal == NULL)
        im->fatal = g_strdup (error->message);
      im->reading_done = TRUE;
    }

  chunk_free (chunk);
  import_pump (im);
}

static void
import_send (Import *im,
             Chunk  *chunk)
{
  BatchCall *call;

  if (chunk->items->len == 0)
    {
      chunk_free (chunk);
      return;
    }

  for (guint i = 0; i < chunk->keys->len; i++)
    {
      const char *key = g_ptr_array_index (chunk->keys, i);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (im->keys_in_flight, key));

      g_hash_table_insert (im->keys_in_flight, g_strdup (key), GUINT_TO_POINTER (count + 1));
    }

  if (im->dry_run)
    {
      im->n_written += chunk->items->len;
      import_release_keys (im, chunk);
      chunk_free (chunk);
      return;
    }

  call = g_new0 (BatchCall, 1);
  call->im = im;
  call->chunk = chunk;
  im->in_flight++;
  dyno_backend_batch_write_async (im->s.backend, im->rest[0], chunk->items, NULL, NULL, NULL,
                                  im->s.cancellable, import_batch_cb, call);
}

static void
chunk_add (Chunk    *chunk,
           DynoItem *item,
           guint64   row,
           guint64   line,
           char     *key)
{
  g_ptr_array_add (chunk->items, item);
  g_array_append_val (chunk->rows, row);
  g_array_append_val (chunk->lines, line);
  g_ptr_array_add (chunk->keys, key);
}

static gboolean
chunk_has_key (Chunk      *chunk,
               const char *key)
{
  for (guint i = 0; i < chunk->keys->len; i++)
    if (strcmp (g_ptr_array_index (chunk->keys, i), key) == 0)
      return TRUE;
  return FALSE;
}

/* Reads until the current chunk is full, the input ends, or an item must wait. */
static void
import_read (Import *im)
{
  char buffer[READ_CHUNK];

  while (!im->reading_done && im->held == NULL && im->current->items->len < BATCH_ITEMS)
    {
      g_autoptr(GError) error = NULL;
      DynoItem *item = NULL;
      DynoImportReject *reject = NULL;
      guint64 row = 0;
      DynoImportStatus status;

      if (g_cancellable_is_cancelled (im->s.cancellable))
        {
          im->reading_done = TRUE;
          break;
        }

      status = dyno_importer_next (im->importer, &item, &reject, &row, &error);
      switch (status)
        {
        case DYNO_IMPORT_NEED_MORE:
          {
            size_t n = fread (buffer, 1, sizeof buffer, im->input);

            if (n > 0)
              dyno_importer_feed (im->importer, buffer, n);
            if (n < sizeof buffer)
              {
                if (ferror (im->input))
                  {
                    im->fatal = g_strdup_printf ("could not read %s: %s", im->path,
                                                 g_strerror (errno));
                    im->reading_done = TRUE;
                    break;
                  }
                if (feof (im->input))
                  dyno_importer_feed_eof (im->importer);
              }
          }
          break;
        case DYNO_IMPORT_REJECTED:
          import_report_row (im, reject->row, reject->line, "rejected", reject->reason);
          im->n_rejected++;
          dyno_import_reject_free (reject);
          break;
        case DYNO_IMPORT_ITEM:
          {
            char *key = dyno_import_key_string (im->s.schema, item);
            guint64 line = dyno_importer_get_record_line (im->importer);

            /* The same key twice in one BatchWriteItem is refused, and two batches with
             * one key in flight could land in either order: such an item waits, so the
             * later row wins, as consecutive puts do. */
            if (chunk_has_key (im->current, key)
                || g_hash_table_contains (im->keys_in_flight, key))
              {
                im->held = item;
                im->held_row = row;
                im->held_line = line;
                im->held_key = key;
                break;
              }
            chunk_add (im->current, item, row, line, key);
          }
          break;
        case DYNO_IMPORT_END:
          im->reading_done = TRUE;
          im->input_eof = TRUE;
          break;
        case DYNO_IMPORT_FAILED:
        default:
          im->fatal = g_strdup (error != NULL ? error->message : "the input cannot be read");
          im->reading_done = TRUE;
          break;
        }
    }
}

/* Rows read but never sent (after a cancel or a server failure). */
static void
import_report_unsent (Import *im)
{
  const char *reason = im->n_failed > 0 ? "Not written: the import stopped after a server "
                                          "failure."
                                        : "Not written: the import was cancelled.";

  if (im->held != NULL)
    {
      import_report_row (im, im->held_row, im->held_line, "not-written", reason);
      im->n_unsent++;
    }
  import_fail_chunk (im, im->current, "not-written", reason);
  im->n_unsent += im->current->items->len;
  for (GList *l = im->retry.head; l != NULL; l = l->next)
    {
      Chunk *chunk = l->data;

      import_fail_chunk (im, chunk, "not-written", reason);
      im->n_unsent += chunk->items->len;
    }
}

static void
import_finish (Import *im)
{
  if (im->quitting)
    return;
  im->quitting = TRUE;
  if (g_cancellable_is_cancelled (im->s.cancellable) || im->n_failed > 0)
    import_report_unsent (im);
  g_main_loop_quit (im->s.loop);
}

static void
import_send_current (Import *im)
{
  import_send (im, g_steal_pointer (&im->current));
  im->current = chunk_new ();
}

static void
import_print_progress (Import *im)
{
  if (!im->progress || im->n_written + im->n_rejected < im->last_progress + 1000)
    return;

  im->last_progress = im->n_written + im->n_rejected;
  if (im->input_size > 0)
    g_printerr ("import: %" G_GUINT64_FORMAT " items written, %" G_GUINT64_FORMAT " rejected "
                "(%u%% of the input read)\n", im->n_written, im->n_rejected,
                (guint) (100 * dyno_importer_get_bytes_read (im->importer) / im->input_size));
  else
    g_printerr ("import: %" G_GUINT64_FORMAT " items written, %" G_GUINT64_FORMAT
                " rejected\n", im->n_written, im->n_rejected);
}

static void
import_pump (Import *im)
{
  for (;;)
    {
      gboolean cancelled = g_cancellable_is_cancelled (im->s.cancellable);
      gboolean stopped = cancelled || im->n_failed > 0;

      if (stopped)
        im->reading_done = TRUE;

      /* single-item retries of a refused batch first */
      while (!stopped && im->in_flight < MAX_IN_FLIGHT && !g_queue_is_empty (&im->retry))
        import_send (im, g_queue_pop_head (&im->retry));
      if (im->in_flight >= MAX_IN_FLIGHT)
        return;

      if (!stopped && im->held != NULL)
        {
          if (chunk_has_key (im->current, im->held_key)
              || (g_hash_table_contains (im->keys_in_flight, im->held_key)
                  && im->current->items->len > 0))
            {
              import_send_current (im);
              continue;
            }
          if (g_hash_table_contains (im->keys_in_flight, im->held_key))
            return;  /* wait for the batch that writes the earlier row */
          chunk_add (im->current, g_steal_pointer (&im->held), im->held_row, im->held_line,
                     g_steal_pointer (&im->held_key));
        }

      if (!im->reading_done)
        import_read (im);
      import_print_progress (im);

      if (!stopped && im->current->items->len > 0
          && (im->current->items->len >= BATCH_ITEMS || im->held != NULL || im->reading_done))
        {
          import_send_current (im);
          continue;
        }

      if (im->in_flight > 0)
        return;
      if (im->reading_done
          && (stopped || (im->held == NULL && g_queue_is_empty (&im->retry)
                          && im->current->items->len == 0)))
        {
          import_finish (im);
          return;
        }
    }
}

int
dyno_cli_import (int    argc,
                 char **argv)
{
  g_auto(Import) im = { { 0, }, };
  GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &im.format,
      "auto (default), ddb-jsonl, plain-jsonl, json-array, csv", "FORMAT" },
    { "types", 0, 0, G_OPTION_ARG_STRING, &im.types,
      "Types for plain JSON attributes and CSV columns: attr:TYPE,…", "TYPES" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &im.report_path,
      "Write the rejected rows as JSON lines {row, line, status, reason} to FILE", "FILE" },
    { "progress", 0, 0, G_OPTION_ARG_NONE, &im.progress, "Report progress on stderr", NULL },
    { "dry-run", 0, 0, G_OPTION_ARG_NONE, &im.dry_run,
      "Read and check every row against the table's schema; write nothing", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &im.rest, NULL, NULL },
    { NULL, },
  };
  g_autoptr(GHashTable) mapping = NULL;
  DynoImportFormat format = DYNO_IMPORT_AUTO;
  const char *table;

  im.s.command = "import";
  im.s.status = EXIT_OK;

  if (!session_parse (&im.s, argc, argv, entries, "TABLE FILE|-",
                      "Write the items of FILE ('-': standard input) with BatchWriteItem, 25 at\n"
                      "a time, retrying unprocessed items.  FILE holds JSON lines (DynamoDB JSON\n"
                      "or plain JSON), a JSON array, or CSV with a header (and a #types: row).\n"
                      "Every row is checked against the table's schema first; rejected rows are\n"
                      "reported with their reason and all other rows are written.  Puts are\n"
                      "idempotent per key: running an import again (after Ctrl+C) is safe.\n"
                      "Exit status: 0 every row written, 1 some rows rejected or not written,\n"
                      "2 a usage error."))
    return im.s.status;

  if (im.rest == NULL || im.rest[0] == NULL || im.rest[1] == NULL)
    {
      report (&im.s, NULL, im.rest == NULL || im.rest[0] == NULL ? "missing TABLE"
                                                                 : "missing FILE (or '-')");
      return EXIT_USAGE;
    }
  if (im.rest[2] != NULL)
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument \"%s\"", im.rest[2]);
      report (&im.s, NULL, message);
      return EXIT_USAGE;
    }
  table = im.rest[0];
  im.path = im.rest[1];

  if (im.format != NULL && !dyno_import_format_from_string (im.format, &format))
    {
      g_autofree char *message = g_strdup_printf ("\"%s\" is not one of auto, ddb-jsonl, "
                                                  "plain-jsonl, json-array, csv", im.format);
      report (&im.s, "--format", message);
      return EXIT_USAGE;
    }
  if (im.format == NULL && g_str_has_suffix (im.path, ".csv"))
    format = DYNO_IMPORT_CSV;
  if (!parse_types_option (&im.s, im.types, &mapping))
    return EXIT_USAGE;

  if (strcmp (im.path, "-") == 0)
    im.input = stdin;
  else
    {
      GStatBuf st;

      im.input = fopen (im.path, "rb");
      if (im.input == NULL)
        {
          g_autofree char *message = g_strdup_printf ("cannot open %s: %s", im.path,
                                                      g_strerror (errno));
          report (&im.s, NULL, message);
          return EXIT_USAGE;
        }
      if (g_stat (im.path, &st) == 0)
        im.input_size = st.st_size;
    }
  if (im.report_path != NULL)
    {
      im.report_file = fopen (im.report_path, "w");
      if (im.report_file == NULL)
        {
          g_autofree char *message = g_strdup_printf ("cannot write %s: %s", im.report_path,
                                                      g_strerror (errno));
          report (&im.s, "--report", message);
          return EXIT_USAGE;
        }
    }

  if (!session_connect (&im.s))
    return im.s.status;
  if (!session_describe (&im.s, table))
    return im.s.status;

  im.importer = dyno_importer_new (format, im.s.schema);
  dyno_importer_set_type_mapping (im.importer, mapping);
  im.current = chunk_new ();
  g_queue_init (&im.retry);
  im.keys_in_flight = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  import_pump (&im);
  if (!im.quitting)
    g_main_loop_run (im.s.loop);

  if (im.fatal != NULL)
    report (&im.s, NULL, im.fatal);

  {
    gboolean cancelled = g_cancellable_is_cancelled (im.s.cancellable);
    gboolean complete = im.input_eof && !cancelled && im.fatal == NULL;

    g_printerr ("import: %" G_GUINT64_FORMAT " items %s %s, %" G_GUINT64_FORMAT " rows "
                "rejected%s%s%s\n", im.n_written, im.dry_run ? "would be written to"
                                                              : "written to",
                table, im.n_rejected,
                im.n_rejected > 0 && im.report_path != NULL ? " (listed in " : "",
                im.n_rejected > 0 && im.report_path != NULL ? im.report_path : "",
                im.n_rejected > 0 && im.report_path != NULL ? ")" : "");
    if (im.n_uncertain > 0)
      g_printerr ("import: %" G_GUINT64_FORMAT " rows were being written when the import was "
                  "cancelled and may or may not have been written\n", im.n_uncertain);
    if (im.n_unsent > 0)
      g_printerr ("import: %" G_GUINT64_FORMAT " rows were read but not written\n",
                  im.n_unsent);
    if (im.n_failed > 0)
      g_printerr ("import: %" G_GUINT64_FORMAT " rows were not written because the server "
                  "failed\n", im.n_failed);
    if (!complete)
      g_printerr ("import: stopped %s before the end of %s (%" G_GUINT64_FORMAT " of %"
                  G_GUINT64_FORMAT " bytes read): the rest was not imported.  Running the "
                  "same import again is safe: puts are idempotent per key.\n",
                  cancelled ? "(cancelled)" : "", strcmp (im.path, "-") == 0 ? "stdin"
                                                                             : im.path,
                  dyno_importer_get_bytes_read (im.importer), im.input_size);

    if (im.report_file != NULL && fflush (im.report_file) != 0)
      {
        report (&im.s, "--report", "could not write the report");
        return EXIT_FAILURE_RUN;
      }

    return complete && im.n_rejected == 0 && im.n_failed == 0 && im.n_uncertain == 0
           && im.n_unsent == 0
           ? EXIT_OK : EXIT_FAILURE_RUN;
  }
}
