/* dyno-cli.c: dynotable-cli entry point
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <string.h>

#include "dyno-cli.h"
#include "dyno-cli-data.h"
#include "dyno-cli-io.h"
#include "dyno-cli-iac.h"
#include "dyno-cli-model.h"
#include "dyno-cli-patterns.h"
#include "dyno-cli-transact.h"

/* Takes the global option --mfa-code out of argv (it is read by no subcommand's parser):
 * "--mfa-code CODE" or "--mfa-code=CODE", among the options before the command. */
static void
take_mfa_code (int    *argc,
               char **argv)
{
  static const char * const with_value[] = { "--endpoint-url", "--region", "--profile" };
  int i = 1;

  while (i < *argc && argv[i][0] == '-')
    {
      int taken = 0;

      if (strcmp (argv[i], "--mfa-code") == 0 && i + 1 < *argc)
        {
          dyno_cli_set_mfa_code (argv[i + 1]);
          taken = 2;
        }
      else if (g_str_has_prefix (argv[i], "--mfa-code="))
        {
          dyno_cli_set_mfa_code (argv[i] + strlen ("--mfa-code="));
          taken = 1;
        }
      if (taken > 0)
        {
          memmove (argv + i, argv + i + taken, (*argc - i - taken + 1) * sizeof (char *));
          *argc -= taken;
          continue;
        }
      for (guint k = 0; k < G_N_ELEMENTS (with_value); k++)
        if (strcmp (argv[i], with_value[k]) == 0)
          i++;
      i++;
    }
}

static void
print_usage (FILE *out)
{
  fputs (_("Usage: dynotable-cli [--endpoint-url URL] [--region R] [--profile P] "
           "[--mfa-code CODE] COMMAND …\n"
           "\n"
           "Signing in:\n"
           "  sso login [--profile P | --sso-session S] [--no-browser]\n"
           "  sso logout                  forget every IAM Identity Center sign-in\n"
           "\n"
           "Offline:\n"
           "  expr query|scan|get|put|update|delete|import …   build, validate and emit a request\n"
           "\n"
           "Against DynamoDB:\n"
           "  tables                      list tables\n"
           "  describe TABLE              DescribeTable\n"
           "  query TABLE …, scan TABLE … run a query or scan, items as JSON lines\n"
           "  get|put|update|delete TABLE …\n"
           "  batch-write TABLE FILE|-    JSON lines of DynamoDB-JSON items\n"
           "  import TABLE FILE|-         JSON lines, JSON array or CSV, checked row by row\n"
           "  export TABLE [--key COND]   every page, as ddb-jsonl, plain-jsonl or csv\n"
           "  transact-write FILE|-       TransactWriteItems: all of FILE's writes, or none\n"
           "  transact-get FILE|-         TransactGetItems, items as JSON lines\n"
           "  partiql STATEMENT           ExecuteStatement, every page of a SELECT\n"
           "  patterns check FILE         run and judge every access pattern of FILE\n"
           "  patterns check --workspace W the pattern set saved in the Playground workspace W\n"
           "  iac TABLE… --format F       CloudFormation, CDK or Terraform of the tables\n"
           "  model import FILE [--apply] a NoSQL Workbench model: show it, or create its tables\n"
           "  model export TABLE… [-o F]  tables and their items as a NoSQL Workbench model\n"
           "\n"
           "Serving:\n"
           "  serve [--data FILE] [--port N] [--host A]   DynamoDB's API from the embedded engine\n"
           "\n"
           "Run 'dynotable-cli COMMAND --help' for a command's options.\n"), out);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  take_mfa_code (&argc, argv);

  if (argc < 2)
    {
      print_usage (stderr);
      return 2;
    }

  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      print_usage (stdout);
      return 0;
    }

  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("dynotable-cli %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (strcmp (argv[1], "expr") == 0)
    return dyno_cli_expr (argc - 1, argv + 1);

  {
    const char *command = dyno_cli_data_find_command (argc, argv);

#ifdef __GLIBC__
    /* Pages are parsed on worker threads and freed on the main thread once written out.  With
     * an arena per thread, each worker's arena keeps its own high-water mark of free memory,
     * and the RSS of a long query, scan or export creeps up by a few MB as more workers take
     * turns; one arena keeps it at that of the first pages.  (serve keeps glibc's default: the
     * engine's threads allocate in parallel.) */
    if (g_strcmp0 (command, "serve") != 0)
      mallopt (M_ARENA_MAX, 1);
#endif

    if (g_strcmp0 (command, "import") == 0)
      return dyno_cli_import (argc, argv);
    if (g_strcmp0 (command, "export") == 0)
      return dyno_cli_export (argc, argv);
    if (g_strcmp0 (command, "sso") == 0)
      return dyno_cli_sso (argc, argv);
    if (g_strcmp0 (command, "transact-write") == 0)
      return dyno_cli_transact_write (argc, argv);
    if (g_strcmp0 (command, "transact-get") == 0)
      return dyno_cli_transact_get (argc, argv);
    if (g_strcmp0 (command, "partiql") == 0)
      return dyno_cli_partiql (argc, argv);
    if (g_strcmp0 (command, "patterns") == 0)
      return dyno_cli_patterns (argc, argv);
    if (g_strcmp0 (command, "iac") == 0)
      return dyno_cli_iac (argc, argv);
    if (g_strcmp0 (command, "serve") == 0)
      return dyno_cli_serve (argc, argv);
    if (g_strcmp0 (command, "model") == 0)
      return dyno_cli_model (argc, argv);
  }

  return dyno_cli_run (argc, argv);
}
