/* dyno-cli-patterns.c: dynotable-cli patterns check FILE
 *
 * Runs every access pattern of a pattern set (dyno-access-pattern.h) against the connection,
 * every page, and prints one verdict a pattern:
 *
 *   PASS orders-of-customer: Query on Orders: 12 items, 1 page, 12 read, 1.5 RCU
 *   FAIL open-orders: Scan of Orders: 12 items, 3 pages, 1000 read, 64 RCU
 *        it is a Scan: it read 1000 items of the whole table; …
 *
 * The exit status is 1 when a pattern fails, so a team can run it in CI.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include "dyno-cli-patterns.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>

#include "dyno-access-pattern.h"
#include "dyno-cli-io.h"
#include "dyno-cli-request.h"
#include "dyno-cli-session.h"
#include "dyno-engine-backend.h"
#include "dyno-json.h"
#include "dyno-pattern-check.h"

#define DEFAULT_MAX_ITEMS 10000

typedef struct {
  DynoCliSession    s;
  char            **params;     /* ":name=JSON" */
  gint64            max_items;
  char            **rest;
  char             *workspace;  /* --workspace FILE */

  GHashTable       *schemas;    /* table name -> DynoTableInfo */
  DynoPatternCheck *check;      /* of the pattern last run */
  GError           *error;
} Check;

static void
check_clear (Check *c)
{
  dyno_cli_session_clear (&c->s);
  g_strfreev (c->params);
  g_strfreev (c->rest);
  g_free (c->workspace);
  g_clear_pointer (&c->schemas, g_hash_table_unref);
  g_clear_pointer (&c->check, dyno_pattern_check_free);
  g_clear_error (&c->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Check, check_clear)

/* --param :name=JSON, as many as needed */
static GHashTable *
parse_params (Check *c)
{
  g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) dyno_value_free);

  for (guint i = 0; c->params != NULL && c->params[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      const char *eq = strchr (c->params[i], '=');
      g_autofree char *name = eq != NULL ? g_strndup (c->params[i], eq - c->params[i]) : NULL;
      DynoValue *value;

      if (name == NULL || name[0] != ':' || name[1] == '\0')
        {
          dyno_cli_session_report (&c->s, "--param",
                                   _("must be :name=VALUE, the value in DynamoDB JSON "
                                     "(--param ':customerId={\"S\": \"C#2\"}')"));
          return NULL;
        }
      value = dyno_value_from_ddb_json (eq + 1, -1, &error);
      if (value == NULL)
        {
          g_autofree char *message = g_strdup_printf ("%s: %s", name, error->message);

          dyno_cli_session_report (&c->s, "--param", message);
          return NULL;
        }
      g_hash_table_replace (values, g_steal_pointer (&name), value);
    }
  return g_steal_pointer (&values);
}

static void
checked_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Check *c = user_data;

  c->check = dyno_pattern_check_finish (DYNO_BACKEND (source), result, &c->error);
  g_main_loop_quit (c->s.loop);
}

static void
print_sentences (GPtrArray  *sentences,
                 const char *mark)
{
  for (guint i = 0; i < sentences->len; i++)
    printf ("     %s%s\n", mark, (const char *) g_ptr_array_index (sentences, i));
}

/* Runs one pattern and prints its verdict; FALSE when interrupted. */
static gboolean
check_pattern (Check             *c,
               DynoAccessPattern *pattern,
               gboolean          *out_passed)
{
  g_autofree char *rcu = NULL;
  DynoPatternCheck *check;

  *out_passed = FALSE;
  g_clear_error (&c->error);
  g_clear_pointer (&c->check, dyno_pattern_check_free);
  dyno_pattern_check_async (c->s.backend, pattern, c->schemas, (guint64) c->max_items,
                            c->s.cancellable, checked_cb, c);
  g_main_loop_run (c->s.loop);
  if (c->check == NULL)
    return FALSE;   /* only cancellation fails the call */
  check = c->check;
  if (check->verdict == NULL)
    {
      printf ("FAIL %s: %s\n", pattern->name, check->error);
      return TRUE;
    }

  rcu = check->run.rcu >= 0 ? g_strdup_printf (", %g RCU", check->run.rcu) : g_strdup ("");
  printf ("%s %s: %s: %" G_GUINT64_FORMAT " %s, %u %s, %" G_GUINT64_FORMAT " read%s\n",
          check->verdict->passed ? "PASS" : "FAIL", pattern->name, check->verdict->plan,
          check->run.items, check->run.items == 1 ? "item" : "items", check->run.pages,
          check->run.pages == 1 ? "page" : "pages", check->run.scanned, rcu);
  print_sentences (check->verdict->problems, "");
  print_sentences (check->verdict->notes, "note: ");
  *out_passed = check->verdict->passed;
  return TRUE;
}

int
dyno_cli_patterns (int    argc,
                   char **argv)
{
  g_auto(Check) c = { { 0, }, };
  g_autoptr(GHashTable) overrides = NULL;
  g_autoptr(GPtrArray) patterns = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  const char *source;
  gsize length;
  guint failed = 0;
  GOptionEntry entries[] = {
    { "param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c.params,
      _("A parameter's value instead of the file's example, in DynamoDB JSON (repeatable)"),
      ":NAME=VALUE" },
    { "max-items", 0, 0, G_OPTION_ARG_INT64, &c.max_items,
      _("Stop a pattern after N items (default 10000)"), "N" },
    { "workspace", 0, 0, G_OPTION_ARG_FILENAME, &c.workspace,
      _("Check on the Playground workspace FILE, in process (no server); with no pattern "
        "file, the pattern set saved in the workspace"), "FILE" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &c.rest, NULL, NULL },
    { NULL, },
  };

  c.s.command = "patterns check";
  c.max_items = DEFAULT_MAX_ITEMS;
  if (!dyno_cli_session_parse (&c.s, argc, argv, entries, "check FILE",
                               _("Run every access pattern of FILE (a pattern set, see the "
                                 "README) with its example\nparameters, every page, and judge "
                                 "it: a Scan, items out of order, too few or too many,\nor "
                                 "many more read than returned fail it.  Exit status 1 when a "
                                 "pattern fails.")))
    return c.s.status;
  if (c.rest == NULL || g_strcmp0 (c.rest[0], "check") != 0 ||
      (c.rest[1] == NULL && c.workspace == NULL) || (c.rest[1] != NULL && c.rest[2] != NULL))
    {
      dyno_cli_session_report (&c.s, NULL,
                               _("usage: dynotable-cli patterns check FILE, or "
                                 "dynotable-cli patterns check --workspace WORKSPACE [FILE]"));
      return EXIT_USAGE;
    }
  if (c.max_items < 1)
    {
      dyno_cli_session_report (&c.s, "--max-items", _("must be at least 1"));
      return EXIT_USAGE;
    }
  if ((overrides = parse_params (&c)) == NULL)
    return EXIT_USAGE;

  if (c.workspace != NULL)
    {
      DynoEngineBackend *engine;

      /* an existing workspace only: a mistyped name is not a new empty one */
      if (!g_file_test (c.workspace, G_FILE_TEST_IS_REGULAR))
        {
          dyno_cli_session_report (&c.s, c.workspace, _("no such workspace file"));
          return EXIT_USAGE;
        }
      engine = dyno_engine_backend_new (c.workspace, &error);
      if (engine == NULL)
        {
          dyno_cli_session_report (&c.s, c.workspace, error->message);
          return EXIT_USAGE;
        }
      c.s.backend = DYNO_BACKEND (engine);
    }

  source = c.rest[1] != NULL ? c.rest[1] : c.workspace;
  if (c.rest[1] != NULL)
    {
      if (!dyno_cli_read_input (c.rest[1], &contents, &length, &error))
        {
          dyno_cli_session_report (&c.s, c.rest[1], error->message);
          return EXIT_USAGE;
        }
    }
  else
    {
      contents = dyno_engine_backend_dup_patterns (DYNO_ENGINE_BACKEND (c.s.backend), &error);
      if (contents == NULL)
        {
          dyno_cli_session_report (&c.s, c.workspace,
                                   error != NULL ? error->message
                                                 : _("the workspace has no saved pattern set"));
          return EXIT_USAGE;
        }
      length = strlen (contents);
    }
  patterns = dyno_access_patterns_from_json (contents, length, overrides, &error);
  if (patterns == NULL)
    {
      dyno_cli_session_report (&c.s, source, error->message);
      return EXIT_USAGE;
    }
  if (patterns->len == 0)
    {
      dyno_cli_session_report (&c.s, source, _("the pattern set has no patterns"));
      return EXIT_USAGE;
    }

  if (!dyno_cli_session_connect (&c.s))
    return c.s.status;
  c.schemas = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) dyno_table_info_unref);

  for (guint i = 0; i < patterns->len; i++)
    {
      gboolean passed;

      if (!check_pattern (&c, g_ptr_array_index (patterns, i), &passed))
        {
          fflush (stdout);
          dyno_cli_session_report (&c.s, NULL, _("interrupted"));
          return 130;
        }
      if (!passed)
        failed++;
      fflush (stdout);
    }

  fprintf (stderr, "patterns check: %u of %u passed\n", patterns->len - failed, patterns->len);
  return failed > 0 ? EXIT_FAILURE_RUN : EXIT_OK;
}
