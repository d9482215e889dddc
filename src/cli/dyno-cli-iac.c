/* dyno-cli-iac.c: dynotable-cli iac TABLE... --format cloudformation|cdk|terraform [-o FILE]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include "dyno-cli-iac.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>

#include "dyno-cli-io.h"
#include "dyno-cli-request.h"
#include "dyno-cli-session.h"
#include "dyno-iac.h"
#include "dyno-table-iac.h"

typedef struct {
  DynoCliSession  s;
  char           *format;
  char           *output;
  char          **rest;

  DynoIacTable   *table;
  GError         *error;
} Iac;

static void
iac_clear (Iac *c)
{
  dyno_cli_session_clear (&c->s);
  g_free (c->format);
  g_free (c->output);
  g_strfreev (c->rest);
  g_clear_pointer (&c->table, dyno_iac_table_free);
  g_clear_error (&c->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Iac, iac_clear)

static void
described_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Iac *c = user_data;

  c->table = dyno_table_iac_describe_finish (DYNO_BACKEND (source), result, &c->error);
  g_main_loop_quit (c->s.loop);
}

int
dyno_cli_iac (int    argc,
              char **argv)
{
  g_auto(Iac) c = { { 0, }, };
  g_autoptr(GPtrArray) tables = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                 dyno_iac_table_free);
  g_autofree char *text = NULL;
  DynoIacFormat format;
  GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &c.format,
      _("cloudformation (YAML; JSON when FILE ends in .json), cloudformation-json, cdk "
        "(TypeScript) or terraform (HCL)"), "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &c.output,
      _("Write to FILE (replaced whole, only once every table was read) instead of standard "
        "output"), "FILE" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &c.rest, NULL, NULL },
    { NULL, },
  };

  c.s.command = "iac";
  if (!dyno_cli_session_parse (&c.s, argc, argv, entries, "TABLE…",
                               _("Write the tables as infrastructure as code, from their "
                                 "descriptions: keys, the attributes\nthey need, indexes, "
                                 "billing, table class, TTL, stream, point-in-time recovery,\n"
                                 "encryption, tags and deletion protection.")))
    return c.s.status;
  if (c.rest == NULL || c.rest[0] == NULL)
    {
      dyno_cli_session_report (&c.s, NULL, _("missing TABLE"));
      return EXIT_USAGE;
    }
  if (c.format == NULL)
    {
      dyno_cli_session_report (&c.s, "--format",
                               _("required: cloudformation, cloudformation-json, cdk or "
                                 "terraform"));
      return EXIT_USAGE;
    }
  if (!dyno_iac_format_from_string (c.format, &format))
    {
      g_autofree char *message = g_strdup_printf (_("“%s” is not one of cloudformation, "
                                                    "cloudformation-json, cdk, terraform"),
                                                  c.format);

      dyno_cli_session_report (&c.s, "--format", message);
      return EXIT_USAGE;
    }
  if (format == DYNO_IAC_CLOUDFORMATION_YAML && c.output != NULL &&
      g_str_has_suffix (c.output, ".json"))
    format = DYNO_IAC_CLOUDFORMATION_JSON;
  if (!dyno_cli_session_connect (&c.s))
    return c.s.status;

  for (guint i = 0; c.rest[i] != NULL; i++)
    {
      g_clear_error (&c.error);
      dyno_table_iac_describe_async (c.s.backend, c.rest[i], c.s.cancellable, described_cb, &c);
      g_main_loop_run (c.s.loop);
      if (c.table == NULL)
        {
          if (g_error_matches (c.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              dyno_cli_session_report (&c.s, NULL, _("interrupted; nothing was written"));
              return 130;
            }
          dyno_cli_report_service_error ("iac", c.error);
          return EXIT_FAILURE_RUN;
        }
      for (guint j = 0; j < c.table->unknown->len; j++)
        {
          g_autofree char *message = g_strdup_printf (_("%s: left out: %s"), c.rest[i],
                                                      (const char *) g_ptr_array_index (
                                                        c.table->unknown, j));

          dyno_cli_session_report (&c.s, NULL, message);
        }
      g_ptr_array_add (tables, g_steal_pointer (&c.table));
    }

  text = dyno_iac_generate (tables, format);
  if (c.output != NULL && strcmp (c.output, "-") != 0)
    {
      g_autoptr(GError) error = NULL;

      if (!g_file_set_contents_full (c.output, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644,
                                     &error))
        {
          dyno_cli_session_report (&c.s, c.output, error->message);
          return EXIT_FAILURE_RUN;
        }
      return EXIT_OK;
    }
  fputs (text, stdout);
  return fflush (stdout) == 0 ? EXIT_OK : EXIT_FAILURE_RUN;
}
