/* dyno-cli-model.c: dynotable-cli model import|export (NoSQL Workbench data models)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>

#include "dyno-cli-model.h"

#include "dyno-cli-io.h"
#include "dyno-cli-request.h"
#include "dyno-cli-session.h"
#include "dyno-http-error.h"
#include "dyno-json.h"
#include "dyno-model-reader.h"
#include "dyno-request.h"
#include "dyno-samples.h"
#include "dyno-workbench-model.h"

typedef struct {
  DynoCliSession  s;
  gboolean        apply;
  char           *output;
  char           *name;
  char          **rest;

  /* the answer the main loop waited for */
  GError         *error;
  GStrv           table_names;
  DynoWorkbenchModel *model;
  gboolean        done;
} Model;

static void
model_clear (Model *m)
{
  dyno_cli_session_clear (&m->s);
  g_free (m->output);
  g_free (m->name);
  g_strfreev (m->rest);
  g_clear_error (&m->error);
  g_strfreev (m->table_names);
  g_clear_pointer (&m->model, dyno_workbench_model_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Model, model_clear)

static void
report (Model      *m,
        const char *context,
        const char *message)
{
  dyno_cli_report ("model", context, message);
  (void) m;
}

static void
report_failure (Model        *m,
                const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    report (m, NULL, "cancelled");
  else
    dyno_cli_report_service_error ("model", error);
}

/* ---- the summary ------------------------------------------------------------------------- */

static const char *
type_name (DynoValueType type)
{
  return dyno_value_type_to_string (type);
}

static void
print_keys (GString       *out,
            const char    *pk,
            DynoValueType  pk_type,
            const char    *sk,
            DynoValueType  sk_type)
{
  g_string_append_printf (out, "%s (%s)", pk, type_name (pk_type));
  if (sk != NULL && *sk != '\0')
    g_string_append_printf (out, " · %s (%s)", sk, type_name (sk_type));
}

static char *
model_summary (const DynoWorkbenchModel *model)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, ngettext ("Model “%s” (NoSQL Workbench %s): %u table\n",
                                         "Model “%s” (NoSQL Workbench %s): %u tables\n",
                                         model->tables->len),
                          model->name, model->version != NULL ? model->version : "?",
                          model->tables->len);
  for (guint t = 0; t < model->tables->len; t++)
    {
      DynoWorkbenchTable *table = g_ptr_array_index (model->tables, t);
      DynoTableDesign *design = table->design;
      g_autoptr(GPtrArray) all = dyno_workbench_table_get_all_items (table);

      g_string_append_printf (out, _("Table %s: "), dyno_workbench_table_get_name (table));
      print_keys (out, dyno_table_design_get_partition_key_name (design),
                  dyno_table_design_get_partition_key_type (design),
                  dyno_table_design_get_sort_key_name (design),
                  dyno_table_design_get_sort_key_type (design));
      if (dyno_table_design_get_billing_mode (design) == DYNO_BILLING_PROVISIONED)
        {
          /* the numbers as text: xgettext cannot read G_GINT64_FORMAT in a msgid */
          g_autofree char *rcu = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                  dyno_table_design_get_read_capacity (design));
          g_autofree char *wcu = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                  dyno_table_design_get_write_capacity (design));

          g_string_append_printf (out, _(", provisioned %s RCU / %s WCU"), rcu, wcu);
        }
      else
        g_string_append (out, _(", on-demand"));
      g_string_append_printf (out, ngettext (", %u item\n", ", %u items\n", all->len), all->len);

      for (guint i = 0; i < dyno_table_design_get_n_indexes (design); i++)
        {
          DynoIndexDesign *index = dyno_table_design_get_index (design, i);

          g_string_append_printf (out, "  %s %s: ", index->global ? "GSI" : "LSI", index->name);
          print_keys (out, index->global ? index->partition_key_name
                                         : dyno_table_design_get_partition_key_name (design),
                      index->global ? index->partition_key_type
                                    : dyno_table_design_get_partition_key_type (design),
                      index->sort_key_name, index->sort_key_type);
          if (index->projection == DYNO_PROJECTION_INCLUDE)
            {
              g_string_append (out, _(", projects keys and "));
              for (guint k = 0; k < index->non_key_attributes->len; k++)
                g_string_append_printf (out, "%s%s", k > 0 ? ", " : "",
                                        (const char *) g_ptr_array_index (index->non_key_attributes,
                                                                          k));
            }
          else if (index->projection == DYNO_PROJECTION_KEYS_ONLY)
            g_string_append (out, _(", projects keys only"));
          else
            g_string_append (out, _(", projects all attributes"));
          g_string_append_c (out, '\n');
        }

      for (guint f = 0; f < table->facets->len; f++)
        {
          DynoWorkbenchFacet *facet = g_ptr_array_index (table->facets, f);

          g_string_append_printf (out, _("  Facet %s: %s"), facet->name,
                                  facet->partition_key_alias);
          if (facet->sort_key_alias != NULL)
            g_string_append_printf (out, " · %s", facet->sort_key_alias);
          g_string_append_printf (out, ngettext (", %u item", ", %u items", facet->items->len),
                                  facet->items->len);
          if (facet->non_key_attributes[0] != NULL)
            {
              g_autofree char *names = g_strjoinv (", ", facet->non_key_attributes);

              g_string_append_printf (out, "; %s", names);
            }
          g_string_append_c (out, '\n');
        }
      if (table->n_lenient_items > 0)
        g_string_append_printf (out, ngettext ("  Note: %u item has maps written as plain JSON "
                                               "or wrapped twice; read as the DynamoDB maps they "
                                               "stand for\n",
                                               "  Note: %u items have maps written as plain JSON "
                                               "or wrapped twice; read as the DynamoDB maps they "
                                               "stand for\n", table->n_lenient_items),
                                table->n_lenient_items);
    }
  return g_string_free (out, FALSE);
}

/* ---- import ------------------------------------------------------------------------------ */

static void
listed_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Model *m = user_data;

  m->table_names = dyno_backend_list_tables_finish (DYNO_BACKEND (source), result, &m->error);
  g_main_loop_quit (m->s.loop);
}

static void
loader_progress_cb (DynoSampleLoader *loader,
                    const char       *sample,
                    const char       *message,
                    gpointer          user_data)
{
  g_printerr ("model import: %s\n", message);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Model *m = user_data;

  dyno_sample_loader_run_finish (DYNO_SAMPLE_LOADER (source), result, &m->error);
  g_main_loop_quit (m->s.loop);
}

static int
model_import (Model      *m,
              const char *path)
{
  g_autofree char *text = NULL;
  g_autofree char *summary = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoWorkbenchModel) model = NULL;
  g_autoptr(GPtrArray) samples = NULL;
  g_autoptr(DynoSampleLoader) loader = NULL;
  g_auto(GStrv) existing = NULL;
  gsize len;

  if (!dyno_cli_read_input (path, &text, &len, &error))
    {
      report (m, path, error->message);
      return EXIT_USAGE;
    }
  model = dyno_workbench_model_parse (text, len, &error);
  if (model == NULL)
    {
      guint line, column;
      g_autofree char *context = NULL;

      if (dyno_error_get_location (error, &line, &column))
        context = g_strdup_printf ("%s:%u:%u", path, line, column);
      report (m, context != NULL ? context : path, error->message);
      return EXIT_USAGE;
    }

  summary = model_summary (model);
  if (!dyno_cli_write_output (summary))
    return EXIT_FAILURE_RUN;
  if (!m->apply)
    return EXIT_OK;

  if (!dyno_cli_session_connect (&m->s))
    return m->s.status;

  /* Every table must be new: nothing is created or written when one exists. */
  dyno_backend_list_tables_async (m->s.backend, m->s.cancellable, listed_cb, m);
  g_main_loop_run (m->s.loop);
  if (m->table_names == NULL)
    {
      report_failure (m, m->error);
      return EXIT_FAILURE_RUN;
    }
  existing = dyno_workbench_model_find_tables (model,
                                               (const char * const *) m->table_names);
  if (existing[0] != NULL)
    {
      g_autofree char *names = g_strjoinv (", ", existing);
      g_autofree char *message =
        g_strdup_printf (existing[1] == NULL
                         ? "table %s already exists on this connection; nothing was created or "
                           "written (delete it, or import into another connection)"
                         : "tables %s already exist on this connection; nothing was created or "
                           "written (delete them, or import into another connection)",
                         names);

      report (m, path, message);
      return EXIT_FAILURE_RUN;
    }

  /* CreateTable, wait until ACTIVE, BatchWriteItem with retries: the sample loader's work */
  samples = dyno_samples_from_workbench_model (model);
  loader = dyno_sample_loader_new (m->s.backend, samples);
  g_signal_connect (loader, "progress", G_CALLBACK (loader_progress_cb), m);
  dyno_sample_loader_run_async (loader, m->s.cancellable, loaded_cb, m);
  g_main_loop_run (m->s.loop);

  {
    g_autofree char *done = dyno_sample_loader_dup_summary (loader);

    g_printerr ("%s\n", done);
  }
  if (m->error != NULL)
    {
      report_failure (m, m->error);
      return EXIT_FAILURE_RUN;
    }
  return EXIT_OK;
}

/* ---- export ------------------------------------------------------------------------------ */

static void
model_read_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  Model *m = user_data;

  m->model = dyno_model_reader_read_finish (DYNO_BACKEND (source), result, &m->error);
  g_main_loop_quit (m->s.loop);
}

static int
model_export (Model              *m,
              const char * const *tables)
{
  g_autoptr(DynoWorkbenchModel) model = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *text = NULL;

  if (tables[0] == NULL)
    {
      report (m, "export", "missing TABLE");
      return EXIT_USAGE;
    }
  if (!dyno_cli_session_connect (&m->s))
    return m->s.status;

  /* DescribeTable and every page of a consistent Scan of each table, as the app copies the
   * Playground (client/dyno-model-reader.c) */
  dyno_model_reader_read_async (m->s.backend,
                                m->name != NULL ? m->name
                                : tables[1] == NULL ? tables[0] : "DynoTable",
                                tables, m->s.cancellable, model_read_cb, m);
  g_main_loop_run (m->s.loop);
  model = g_steal_pointer (&m->model);
  if (model == NULL)
    {
      report_failure (m, m->error);
      return EXIT_FAILURE_RUN;
    }
  for (guint i = 0; i < model->tables->len; i++)
    {
      const DynoWorkbenchTable *table = g_ptr_array_index (model->tables, i);

      g_printerr ("model export: %s: %u items\n",
                  dyno_table_design_get_table_name (table->design), table->items->len);
    }

  text = dyno_workbench_model_to_json (model, now);
  if (m->output != NULL && strcmp (m->output, "-") != 0)
    {
      g_autoptr(GError) error = NULL;

      /* a temporary file renamed over FILE: never half a model under its name */
      if (!g_file_set_contents_full (m->output, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644,
                                     &error))
        {
          report (m, m->output, error->message);
          return EXIT_FAILURE_RUN;
        }
      return EXIT_OK;
    }
  return dyno_cli_write_output (text) ? EXIT_OK : EXIT_FAILURE_RUN;
}

int
dyno_cli_model (int    argc,
                char **argv)
{
  g_auto(Model) m = { { 0, }, };
  GOptionEntry entries[] = {
    { "apply", 0, 0, G_OPTION_ARG_NONE, &m.apply,
      "import: create the tables (waiting until they are ACTIVE) and write their items", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &m.output,
      "export: write the model to FILE (replaced only once complete) instead of stdout",
      "FILE" },
    { "name", 0, 0, G_OPTION_ARG_STRING, &m.name,
      "export: the ModelName (default: the table's name)", "NAME" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &m.rest, NULL, NULL },
    { NULL, },
  };

  m.s.command = "model";
  m.s.status = EXIT_OK;

  if (!dyno_cli_session_parse (&m.s, argc, argv, entries,
                               "import FILE [--apply] | export TABLE… [-o FILE]",
                               "NoSQL Workbench data models (the JSON its data modeler imports "
                               "and exports).\n"
                               "\n"
                               "  import FILE            show the model's tables, keys, indexes, "
                               "facets and item counts\n"
                               "  import FILE --apply    and create the tables with their items "
                               "(every table must be new)\n"
                               "  export TABLE… [-o F]   describe and scan the tables, write them "
                               "as a model (Version 3.0)"))
    return m.s.status;

  /* rest[0] is "model" when the option parser keeps the command, else the subcommand */
  {
    char **rest = m.rest;

    if (rest != NULL && rest[0] != NULL && strcmp (rest[0], "model") == 0)
      rest++;
    if (rest == NULL || rest[0] == NULL)
      {
        report (&m, NULL, "missing import or export (see 'dynotable-cli model --help')");
        return EXIT_USAGE;
      }
    if (strcmp (rest[0], "import") == 0)
      {
        if (m.output != NULL || m.name != NULL)
          {
            report (&m, "import", "-o and --name are options of export");
            return EXIT_USAGE;
          }
        if (rest[1] == NULL)
          {
            report (&m, "import", "missing FILE");
            return EXIT_USAGE;
          }
        if (rest[2] != NULL)
          {
            g_autofree char *message = g_strdup_printf ("unexpected argument \"%s\"", rest[2]);

            report (&m, "import", message);
            return EXIT_USAGE;
          }
        return model_import (&m, rest[1]);
      }
    if (strcmp (rest[0], "export") == 0)
      {
        if (m.apply)
          {
            report (&m, "export", "--apply is an option of import");
            return EXIT_USAGE;
          }
        return model_export (&m, (const char * const *) rest + 1);
      }
    {
      g_autofree char *message = g_strdup_printf ("unknown subcommand \"%s\" (import or export)",
                                                  rest[0]);

      report (&m, NULL, message);
      return EXIT_USAGE;
    }
  }
}
