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

#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>

#include "dyno-backend.h"
#include "dyno-cli-io.h"
#include "dyno-cli-request.h"
#include "dyno-cli-session.h"
#include "dyno-credentials.h"
#include "dyno-export.h"
#include "dyno-expr.h"
#include "dyno-http-backend.h"
#include "dyno-http-error.h"
#include "dyno-import.h"
#include "dyno-json.h"
#include "dyno-request.h"
#include "dyno-export-job.h"
#include "dyno-import-job.h"


const char *
dyno_cli_data_find_command (int    argc,
                            char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      gboolean global = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (dyno_cli_global_options); k++)
        {
          gsize len = strlen (dyno_cli_global_options[k]);

          if (strncmp (argv[i], dyno_cli_global_options[k], len) != 0)
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

/* "a:S,b:N" with the message on error. */
static gboolean
parse_types_option (DynoCliSession  *s,
                    const char      *text,
                    GHashTable     **out)
{
  g_autoptr(GError) error = NULL;

  *out = NULL;
  if (text == NULL)
    return TRUE;
  *out = dyno_import_parse_type_mapping (text, &error);
  if (*out == NULL)
    {
      dyno_cli_session_report (s, "--types", error->message);
      s->status = EXIT_USAGE;
      return FALSE;
    }
  return TRUE;
}

/* ---- export ------------------------------------------------------------------------------ */

typedef struct {
  DynoCliSession    s;
  char             *key;
  char             *index;
  char             *filter;
  char             *project;
  char             *values;
  char             *format;
  char             *types;
  char             *columns;
  char             *output;
  char             *start_key;
  gboolean          consistent;
  gboolean          desc;
  gboolean          progress;
  gboolean          no_type_row;
  gint              limit;
  char            **rest;

  DynoQueryDraft   *draft;
  DynoRequest      *request;        /* the draft's */
  DynoExportFormat  export_format;
  GHashTable       *column_types;
  DynoExportJob    *job;
  guint             pages_reported;
  GError           *error;
} Export;

static void
export_clear (Export *e)
{
  dyno_cli_session_clear (&e->s);
  g_free (e->key);
  g_free (e->index);
  g_free (e->filter);
  g_free (e->project);
  g_free (e->values);
  g_free (e->format);
  g_free (e->types);
  g_free (e->columns);
  g_free (e->output);
  g_free (e->start_key);
  g_strfreev (e->rest);
  g_clear_object (&e->draft);
  g_clear_pointer (&e->request, dyno_request_free);
  g_clear_pointer (&e->column_types, g_hash_table_unref);
  g_clear_object (&e->job);
  g_clear_error (&e->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Export, export_clear)

static gboolean
export_build_request (Export *e)
{
  g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) dyno_value_free);
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;
  const DynoCliReadOptions read = {
    .key = e->key, .filter = e->filter, .project = e->project, .limit = e->limit,
    .desc = e->desc, .consistent = e->consistent,
  };

  e->draft = dyno_cli_read_draft_new (e->key != NULL ? DYNO_OP_QUERY : DYNO_OP_SCAN,
                                      e->rest[0], e->index);

  if (e->values != NULL)
    {
      g_autoptr(JsonNode) root = dyno_json_parse (e->values, -1, &error);

      if (root == NULL)
        {
          dyno_cli_session_report (&e->s, "--values", error->message);
          return FALSE;
        }
      if (!JSON_NODE_HOLDS_OBJECT (root))
        {
          dyno_cli_session_report (&e->s, "--values",
                                   "must be a JSON object of \":name\": DynamoDB JSON value");
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
                dyno_cli_session_report (&e->s, "--values", message);
                return FALSE;
              }
            g_hash_table_insert (values, g_strdup (l->data), value);
          }
      }
    }

  if (!dyno_cli_read_draft_expressions (e->draft, e->s.command, &read, values, used)
      || !dyno_cli_read_draft_options (e->draft, e->s.command, &read))
    return FALSE;
  if (e->desc && e->key == NULL)
    {
      dyno_cli_session_report (&e->s, "--desc", "only a query (--key) has a sort order to reverse");
      return FALSE;
    }

  e->request = dyno_query_draft_to_request (e->draft);
  return TRUE;
}

static gboolean
export_validate (Export *e)
{
  g_autoptr(GPtrArray) issues = dyno_request_validate (e->request, e->s.schema);

  for (guint i = 0; issues != NULL && i < issues->len; i++)
    {
      const DynoIssue *issue = g_ptr_array_index (issues, i);

      dyno_cli_session_report (&e->s, issue->field, issue->message);
    }

  return issues == NULL || issues->len == 0;
}


/* Checks --format, --types, --columns and --no-type-row before connecting. */
static gboolean
export_check_options (Export *e)
{
  if (e->format != NULL && !dyno_export_format_from_string (e->format, &e->export_format))
    {
      g_autofree char *message = g_strdup_printf ("\"%s\" is not one of ddb-jsonl, plain-jsonl, "
                                                  "csv", e->format);
      dyno_cli_session_report (&e->s, "--format", message);
      return FALSE;
    }
  if (e->format == NULL)
    e->export_format = e->output != NULL && g_str_has_suffix (e->output, ".csv")
                       ? DYNO_EXPORT_CSV : DYNO_EXPORT_DDB_JSONL;

  if ((e->types != NULL || e->columns != NULL || e->no_type_row)
      && e->export_format != DYNO_EXPORT_CSV)
    {
      dyno_cli_session_report (&e->s, NULL,
                               "--types, --columns and --no-type-row are for --format csv");
      return FALSE;
    }
  return parse_types_option (&e->s, e->types, &e->column_types);
}

/* The job, once the table's schema is known (CSV puts the key columns first). */
static void
export_setup_job (Export *e)
{
  DynoExporter *exporter;

  e->job = dyno_export_job_new (e->export_format,
                                e->export_format == DYNO_EXPORT_CSV ? e->s.schema : NULL);
  exporter = dyno_export_job_get_exporter (e->job);
  if (e->columns != NULL)
    {
      g_auto(GStrv) columns = g_strsplit (e->columns, ",", -1);

      dyno_export_job_set_columns (e->job, (const char * const *) columns);
      dyno_exporter_set_drop_other_attributes (exporter, TRUE);
    }
  if (e->column_types != NULL)
    {
      GHashTableIter iter;
      gpointer name, type;

      g_hash_table_iter_init (&iter, e->column_types);
      while (g_hash_table_iter_next (&iter, &name, &type))
        dyno_exporter_set_column_type (exporter, name, GPOINTER_TO_INT (type));
    }
  dyno_exporter_set_type_row (exporter, !e->no_type_row);
  dyno_export_job_set_request (e->job, e->s.backend, e->request);
}

static void
export_progress_cb (DynoExportJob *job,
                    gpointer       user_data)
{
  Export *e = user_data;
  guint n_pages = dyno_export_job_get_n_pages (job);

  /* one line per page (the CSV second pass reports progress too, without new pages) */
  if (!e->progress || n_pages == e->pages_reported)
    return;
  e->pages_reported = n_pages;
  g_printerr ("export: page %u, %" G_GUINT64_FORMAT " items\n", n_pages,
              dyno_export_job_get_n_items (job));
}

static void
export_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  Export *e = user_data;

  if (!dyno_export_job_run_finish (DYNO_EXPORT_JOB (source), result, &e->error))
    e->s.status = EXIT_FAILURE_RUN;
  g_main_loop_quit (e->s.loop);
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
    { "start-key", 0, 0, G_OPTION_ARG_STRING, &e.start_key,
      "ExclusiveStartKey (DynamoDB JSON): continue a stopped export", "JSON" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &e.rest, NULL, NULL },
    { NULL, },
  };
  gboolean to_file;

  e.s.command = "export";
  e.s.status = EXIT_OK;
  e.limit = G_MININT;

  if (!dyno_cli_session_parse (&e.s, argc, argv, entries, "TABLE",
                      "Export every page of a scan (or of a query with --key) as JSON lines of\n"
                      "DynamoDB JSON, plain JSON, or CSV with a type row."))
    return e.s.status;

  if (e.rest == NULL || e.rest[0] == NULL)
    {
      dyno_cli_session_report (&e.s, NULL, "missing TABLE");
      return EXIT_USAGE;
    }
  if (e.rest[1] != NULL)
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument \"%s\"", e.rest[1]);
      dyno_cli_session_report (&e.s, NULL, message);
      return EXIT_USAGE;
    }

  if (!export_check_options (&e) || !export_build_request (&e))
    return e.s.status != EXIT_OK ? e.s.status : EXIT_USAGE;

  if (!dyno_cli_session_connect (&e.s))
    return e.s.status;
  if (!dyno_cli_session_describe (&e.s, e.rest[0]))
    return e.s.status;
  if (e.start_key != NULL)
    {
      g_autoptr(DynoItem) start_key = NULL;

      if (!dyno_cli_parse_item_option ("export", "--start-key", e.start_key, FALSE, e.s.schema,
                                       &start_key))
        return EXIT_USAGE;
      dyno_query_draft_set_exclusive_start_key (e.draft, start_key);
      dyno_request_free (e.request);
      e.request = dyno_query_draft_to_request (e.draft);
    }
  if (!export_validate (&e))
    return EXIT_USAGE;

  export_setup_job (&e);
  g_signal_connect (e.job, "progress", G_CALLBACK (export_progress_cb), &e);
  to_file = e.output != NULL && strcmp (e.output, "-") != 0;
  if (to_file)
    {
      /* The job writes a temporary file next to it and renames it only on success. */
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (e.output);

      dyno_export_job_run_file_async (e.job, file, e.s.cancellable, export_done_cb, &e);
    }
  else
    {
      g_autoptr(GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);

      dyno_export_job_run_async (e.job, out, e.s.cancellable, export_done_cb, &e);
    }
  g_main_loop_run (e.s.loop);

  if (e.error != NULL)
    {
      if (g_error_matches (e.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        dyno_cli_session_report (&e.s, NULL, "cancelled");
      else if (dyno_error_get_service_info (e.error) != NULL)
        dyno_cli_report_service_error (e.s.command, e.error);
      else
        dyno_cli_session_report (&e.s, to_file ? e.output : NULL, e.error->message);
      if (to_file)
        g_printerr ("export: %s was not written\n", e.output);
      else if (dyno_export_job_get_resume_key (e.job) != NULL
               && e.export_format != DYNO_EXPORT_CSV)
        {
          g_autoptr(GString) json = g_string_new (NULL);
          g_autofree char *quoted = NULL;

          dyno_map_write_ddb_item (dyno_item_get_map (dyno_export_job_get_resume_key (e.job)),
                                   json);
          quoted = g_shell_quote (json->str);
          g_printerr ("export: stopped after %" G_GUINT64_FORMAT " items; continue with "
                      "--start-key %s\n", dyno_export_job_get_n_items (e.job), quoted);
        }
      if (g_error_matches (e.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        e.s.status = 130;
    }

  if (e.s.status == EXIT_OK)
    {
      DynoExporter *exporter = dyno_export_job_get_exporter (e.job);
      g_autofree char *hints = NULL;
      gboolean ambiguous = FALSE;

      if (e.progress || to_file)
        g_printerr ("export: %" G_GUINT64_FORMAT " items from %s (%u pages)%s%s\n",
                    dyno_exporter_get_n_items (exporter), e.rest[0],
                    dyno_export_job_get_n_pages (e.job), to_file ? " to " : "",
                    to_file ? e.output : "");
      if (e.export_format == DYNO_EXPORT_PLAIN_JSONL)
        hints = dyno_exporter_dup_type_hints (exporter, &ambiguous);
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
  DynoCliSession    s;
  char             *format;
  char             *types;
  char             *report_path;
  gint64            start_line;
  gboolean          progress;
  gboolean          dry_run;
  char            **rest;

  const char       *path;
  FILE             *report_file;
  DynoImportJob    *job;
  guint64           last_progress;
  GError           *error;
} Import;

static void
import_clear (Import *im)
{
  g_free (im->format);
  g_free (im->types);
  g_free (im->report_path);
  g_strfreev (im->rest);
  if (im->report_file != NULL)
    fclose (im->report_file);
  g_clear_object (&im->job);
  g_clear_error (&im->error);
  dyno_cli_session_clear (&im->s);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Import, import_clear)

static char *
row_location (Import  *im,
              guint64  row,
              guint64  line)
{
  const char *name = strcmp (im->path, "-") == 0 ? "stdin" : im->path;

  switch (dyno_import_job_get_format (im->job))
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

/* One row not written: to the report file as a JSON line, else to stderr. */
static void
import_row_cb (DynoImportJob   *job,
               DynoTransferRow *row,
               gpointer         user_data)
{
  Import *im = user_data;
  const char *kind = dyno_transfer_row_status_to_string (row->status);

  if (im->report_file != NULL)
    {
      g_autoptr(GString) json = g_string_new (NULL);

      g_string_append_printf (json, "{\"row\":%" G_GUINT64_FORMAT ",\"line\":%" G_GUINT64_FORMAT
                              ",\"status\":", row->row, row->line);
      dyno_json_write_string (json, kind, -1);
      g_string_append (json, ",\"reason\":");
      dyno_json_write_string (json, row->reason, -1);
      g_string_append (json, "}\n");
      fwrite (json->str, 1, json->len, im->report_file);
    }
  else
    {
      g_autofree char *where = row_location (im, row->row, row->line);

      g_printerr ("import: %s: %s: %s\n", where, kind, row->reason);
    }
}

static void
import_progress_cb (DynoImportJob *job,
                    gpointer       user_data)
{
  Import *im = user_data;
  guint64 n_written = dyno_import_job_get_n_written (job);
  guint64 n_rejected = dyno_import_job_get_n_rejected (job);
  guint64 total = dyno_import_job_get_bytes_total (job);

  if (!im->progress || n_written + n_rejected < im->last_progress + 1000)
    return;

  im->last_progress = n_written + n_rejected;
  if (total > 0)
    g_printerr ("import: %" G_GUINT64_FORMAT " items written, %" G_GUINT64_FORMAT " rejected "
                "(%u%% of the input read)\n", n_written, n_rejected,
                (guint) (100 * dyno_import_job_get_bytes_read (job) / total));
  else
    g_printerr ("import: %" G_GUINT64_FORMAT " items written, %" G_GUINT64_FORMAT
                " rejected\n", n_written, n_rejected);
}

static void
import_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  Import *im = user_data;

  dyno_import_job_run_finish (DYNO_IMPORT_JOB (source), result, &im->error);
  g_main_loop_quit (im->s.loop);
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
    { "start-line", 0, 0, G_OPTION_ARG_INT64, &im.start_line,
      "Skip the records that start before input line N (to continue a stopped import)", "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &im.rest, NULL, NULL },
    { NULL, },
  };
  g_autoptr(GHashTable) mapping = NULL;
  g_autoptr(GInputStream) input = NULL;
  guint64 input_size = 0;
  DynoImportFormat format = DYNO_IMPORT_AUTO;
  const char *table;

  im.s.command = "import";
  im.s.status = EXIT_OK;

  if (!dyno_cli_session_parse (&im.s, argc, argv, entries, "TABLE FILE|-",
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
      dyno_cli_session_report (&im.s, NULL,
                               im.rest == NULL || im.rest[0] == NULL ? "missing TABLE"
                                                                     : "missing FILE (or '-')");
      return EXIT_USAGE;
    }
  if (im.rest[2] != NULL)
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument \"%s\"", im.rest[2]);
      dyno_cli_session_report (&im.s, NULL, message);
      return EXIT_USAGE;
    }
  table = im.rest[0];
  im.path = im.rest[1];
  if (im.start_line < 0)
    {
      dyno_cli_session_report (&im.s, "--start-line",
                               "must be a line number (1 is the first line)");
      return EXIT_USAGE;
    }

  if (im.format != NULL && !dyno_import_format_from_string (im.format, &format))
    {
      g_autofree char *message = g_strdup_printf ("\"%s\" is not one of auto, ddb-jsonl, "
                                                  "plain-jsonl, json-array, csv", im.format);
      dyno_cli_session_report (&im.s, "--format", message);
      return EXIT_USAGE;
    }
  if (im.format == NULL && g_str_has_suffix (im.path, ".csv"))
    format = DYNO_IMPORT_CSV;
  if (!parse_types_option (&im.s, im.types, &mapping))
    return EXIT_USAGE;

  if (strcmp (im.path, "-") == 0)
    input = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  else
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (im.path);
      g_autoptr(GFileInfo) info = NULL;
      g_autoptr(GError) error = NULL;
      GFileInputStream *stream = g_file_read (file, NULL, &error);

      if (stream == NULL)
        {
          g_autofree char *message = g_strdup_printf ("cannot open %s: %s", im.path,
                                                      error->message);
          dyno_cli_session_report (&im.s, NULL, message);
          return EXIT_USAGE;
        }
      input = G_INPUT_STREAM (stream);
      info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, NULL,
                                             NULL);
      if (info != NULL)
        input_size = g_file_info_get_size (info);
    }
  if (im.report_path != NULL)
    {
      im.report_file = fopen (im.report_path, "w");
      if (im.report_file == NULL)
        {
          g_autofree char *message = g_strdup_printf ("cannot write %s: %s", im.report_path,
                                                      g_strerror (errno));
          dyno_cli_session_report (&im.s, "--report", message);
          return EXIT_USAGE;
        }
    }

  if (!dyno_cli_session_connect (&im.s))
    return im.s.status;
  if (!dyno_cli_session_describe (&im.s, table))
    return im.s.status;

  im.job = dyno_import_job_new (im.s.backend, im.s.schema, format);
  dyno_import_job_set_type_mapping (im.job, mapping);
  dyno_import_job_set_dry_run (im.job, im.dry_run);
  dyno_import_job_set_start_line (im.job, (guint64) im.start_line);
  /* Ctrl+C aborts the requests in flight too: their rows are reported as not confirmed. */
  dyno_import_job_set_cancel_in_flight (im.job, TRUE);
  /* rows go to the report as they come: a 10 GB file must not be kept */
  dyno_import_job_set_keep_rows (im.job, FALSE);
  g_signal_connect (im.job, "row", G_CALLBACK (import_row_cb), &im);
  g_signal_connect (im.job, "progress", G_CALLBACK (import_progress_cb), &im);
  dyno_import_job_run_async (im.job, input, input_size, im.s.cancellable, import_done_cb, &im);
  g_main_loop_run (im.s.loop);

  if (im.error != NULL && !g_error_matches (im.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    dyno_cli_session_report (&im.s, NULL, im.error->message);

  {
    gboolean cancelled = g_cancellable_is_cancelled (im.s.cancellable);
    gboolean complete = dyno_import_job_get_input_complete (im.job) && im.error == NULL;
    guint64 n_written = dyno_import_job_get_n_written (im.job);
    guint64 n_rejected = dyno_import_job_get_n_rejected (im.job);
    guint64 n_failed = dyno_import_job_get_n_failed (im.job);
    guint64 n_unsent = dyno_import_job_get_n_not_written (im.job);

    g_printerr ("import: %" G_GUINT64_FORMAT " items %s %s, %" G_GUINT64_FORMAT " rows "
                "rejected%s%s%s\n", n_written, im.dry_run ? "would be written to"
                                                          : "written to",
                table, n_rejected,
                n_rejected > 0 && im.report_path != NULL ? " (listed in " : "",
                n_rejected > 0 && im.report_path != NULL ? im.report_path : "",
                n_rejected > 0 && im.report_path != NULL ? ")" : "");
    if (n_unsent > 0)
      g_printerr ("import: %" G_GUINT64_FORMAT " rows were read but not written\n", n_unsent);
    if (n_failed > 0)
      g_printerr ("import: %" G_GUINT64_FORMAT " rows were not written because the server "
                  "failed\n", n_failed);
    if (!complete)
      g_printerr ("import: stopped %s before the end of %s (%" G_GUINT64_FORMAT " of %"
                  G_GUINT64_FORMAT " bytes read): the rest was not imported.  Running the "
                  "same import again is safe: puts are idempotent per key.\n",
                  cancelled ? "(cancelled)" : "", strcmp (im.path, "-") == 0 ? "stdin"
                                                                             : im.path,
                  dyno_import_job_get_bytes_read (im.job), input_size);

    if (dyno_import_job_get_n_skipped (im.job) > 0)
      g_printerr ("import: %" G_GUINT64_FORMAT " records before line %" G_GINT64_FORMAT
                  " skipped (--start-line)\n", dyno_import_job_get_n_skipped (im.job),
                  im.start_line);
    if ((cancelled || im.error != NULL || n_failed > 0 || n_unsent > 0)
        && dyno_import_job_get_resume_line (im.job) > 0 && !im.dry_run)
      g_printerr ("import: to continue, run the same import with --start-line %"
                  G_GUINT64_FORMAT "\n", dyno_import_job_get_resume_line (im.job));

    if (im.report_file != NULL && fflush (im.report_file) != 0)
      {
        dyno_cli_session_report (&im.s, "--report", "could not write the report");
        return EXIT_FAILURE_RUN;
      }
    if (cancelled)
      return 130;

    return complete && n_rejected == 0 && n_failed == 0 && n_unsent == 0
           ? EXIT_OK : EXIT_FAILURE_RUN;
  }
}
