/* dyno-cli-expr.c: `dynotable-cli expr …`: build, validate and emit a request offline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include "dyno-cli.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "dyno-cli-io.h"
#include "dyno-cli-request.h"
#include "dyno-codegen.h"
#include "dyno-expr.h"
#include "dyno-json.h"
#include "dyno-request.h"
#include "dyno-table-info.h"

/* Exit statuses (dyno-cli.h). */
#define EXIT_OK     0
#define EXIT_USAGE  2

typedef enum {
  COMMAND_QUERY,
  COMMAND_SCAN,
  COMMAND_GET,
  COMMAND_PUT,
  COMMAND_UPDATE,
  COMMAND_DELETE,
  COMMAND_IMPORT,
} Command;

typedef struct {
  const char    *name;
  Command        command;
  DynoOperation  op;
  const char    *summary;
} CommandInfo;

static const CommandInfo commands[] = {
  { "query", COMMAND_QUERY, DYNO_OP_QUERY,
    N_("Build a Query from a key condition in the inline syntax, e.g.\n"
       "  --key 'PK = \"DRIVE#a91\" AND begins_with(SK, \"root/photos/\")'") },
  { "scan", COMMAND_SCAN, DYNO_OP_SCAN, N_("Build a Scan.") },
  { "get", COMMAND_GET, DYNO_OP_GET_ITEM, N_("Build a GetItem for one key.") },
  { "put", COMMAND_PUT, DYNO_OP_PUT_ITEM, N_("Build a PutItem.") },
  { "update", COMMAND_UPDATE, DYNO_OP_UPDATE_ITEM,
    N_("Build an UpdateItem, e.g. --update 'SET #n = \"x\" REMOVE tmp'.") },
  { "delete", COMMAND_DELETE, DYNO_OP_DELETE_ITEM, N_("Build a DeleteItem.") },
  { "import", COMMAND_IMPORT, DYNO_OP_QUERY,
    N_("Read a request JSON (as `aws dynamodb <op> --cli-input-json` takes it) from FILE, or\n"
       "standard input for '-', check it, and emit it again.") },
};

typedef struct {
  DynoCliRequestOptions request;
  /* what */
  char     *op;
  gboolean  plain;
  gint      segment;
  gint      total_segments;
  /* how */
  char     *schema;
  char     *emit;
  gboolean  program;
  char     *endpoint_url;
  char     *region;
  char     *profile;
  char    **rest;
} Options;

static void
options_clear (Options *o)
{
  dyno_cli_request_options_clear (&o->request);
  g_free (o->op);
  g_free (o->schema);
  g_free (o->emit);
  g_free (o->endpoint_url);
  g_free (o->region);
  g_free (o->profile);
  g_strfreev (o->rest);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

/* Everything a run needs to report a problem at the text the user typed. */
typedef struct {
  const char *prefix;        /* "expr query" */
  Options    *options;
  GHashTable *values;        /* --values: ":v" -> DynoValue* */
  GHashTable *used;          /* placeholders of --values seen in the expressions */
  DynoTableInfo *schema;
  DynoRequest *request;
  char       *import_text;   /* import: the request JSON */
  JsonObject *import_object; /* import: the request JSON, parsed (borrowed from the parser) */
  JsonNode *import_root;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->values, g_hash_table_unref);
  g_clear_pointer (&run->used, g_hash_table_unref);
  g_clear_pointer (&run->schema, dyno_table_info_unref);
  g_clear_pointer (&run->request, dyno_request_free);
  g_clear_pointer (&run->import_text, g_free);
  g_clear_pointer (&run->import_root, json_node_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* ---- option tables ---------------------------------------------------------------------- */

static GArray *
build_entries (const CommandInfo *info,
               Options           *o)
{
  GArray *entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));

  if (info->command == COMMAND_IMPORT)
    dyno_cli_add_option (entries, "op", G_OPTION_ARG_STRING, &o->op,
                         _("The operation, when the members do not tell (query, scan, get, put, "
                           "update, delete)"), "OP");
  else
    {
      dyno_cli_add_request_options (entries, info->op, &o->request);
      if (info->command == COMMAND_SCAN)
        {
          dyno_cli_add_option (entries, "segment", G_OPTION_ARG_INT, &o->segment,
                               _("Parallel scan: this segment (0-based)"), "N");
          dyno_cli_add_option (entries, "total-segments", G_OPTION_ARG_INT,
                               &o->total_segments, _("Parallel scan: number of segments"), "N");
        }
      dyno_cli_add_option (entries, "plain", G_OPTION_ARG_NONE, &o->plain,
                           _("Read --key-item, --item and --start-key as plain JSON"), NULL);
    }

  dyno_cli_add_option (entries, "schema", G_OPTION_ARG_FILENAME, &o->schema,
                       _("Check against this table: the DescribeTable response as `aws dynamodb "
                         "describe-table` prints it ('-' for standard input)"), "FILE");
  dyno_cli_add_option (entries, "emit", G_OPTION_ARG_STRING, &o->emit,
                       _("Output format (default request-json; see --help)"), "FORMAT");
  dyno_cli_add_option (entries, "program", G_OPTION_ARG_NONE, &o->program,
                       _("Emit a complete program with its pagination loop"), NULL);
  dyno_cli_add_option (entries, "endpoint-url", G_OPTION_ARG_STRING, &o->endpoint_url,
                       _("Endpoint for the emitted code (e.g. DynamoDB Local)"), "URL");
  dyno_cli_add_option (entries, "region", G_OPTION_ARG_STRING, &o->region,
                       _("Region for the emitted code"), "REGION");
  dyno_cli_add_option (entries, "profile", G_OPTION_ARG_STRING, &o->profile,
                       _("Profile for the emitted code"), "NAME");
  dyno_cli_add_option (entries, G_OPTION_REMAINING, G_OPTION_ARG_STRING_ARRAY, &o->rest, NULL,
                       NULL);

  return entries;
}

static char *
describe_targets (void)
{
  const char * const *targets = dyno_codegen_list_targets ();
  GString *text = g_string_new (_("Output formats (--emit):\n"));

  for (guint i = 0; targets != NULL && targets[i] != NULL; i++)
    g_string_append_printf (text, "  %-16s %s\n", targets[i],
                            dyno_codegen_get_label (targets[i]));

  g_string_append (text,
                   _("\nInline syntax: bare names (reserved words allowed), `backticks` for any\n"
                     "other name, a.b[0] paths, \"strings\", numbers, true, false, null;\n"
                     ":placeholders from --values for binaries, sets, lists and maps.\n"
                     "\nExit status: 0 with the output on stdout; 2 with the problem on stderr."));
  return g_string_free (text, FALSE);
}

static void
print_expr_usage (FILE *out)
{
  fputs (_("Usage: dynotable-cli expr COMMAND …\n"
           "\n"
           "Build, validate and emit a DynamoDB request offline:\n"
           "  query TABLE --key COND [--index NAME] [--filter COND] [--project PATHS] [--desc]\n"
           "              [--limit N] [--consistent] [--start-key JSON] [--select WHAT]\n"
           "  scan TABLE [--filter COND] [--segment N --total-segments N] …\n"
           "  get TABLE --key-item JSON [--project PATHS] [--consistent]\n"
           "  put TABLE --item JSON [--condition COND] [--return-values WHAT]\n"
           "  update TABLE --key-item JSON --update UPDATE [--condition COND]\n"
           "  delete TABLE --key-item JSON [--condition COND]\n"
           "  import FILE|- [--op OP]\n"
           "Every command takes --schema FILE, --emit FORMAT, --program, --endpoint-url URL,\n"
           "--region REGION.  Run 'dynotable-cli expr COMMAND --help' for details.\n"), out);
}

/* ---- reporting -------------------------------------------------------------------------- */

static void
report (Run        *run,
        const char *context,
        const char *message)
{
  dyno_cli_report (run->prefix, context, message);
}

/* The option (and its text) a request field came from, so a problem is shown where it was
 * typed. */
static const char *
option_for_field (Run         *run,
                  const char  *field,
                  const char **text)
{
  /* Locations are into expression texts only, so only those give a text to point into. */
  static const struct {
    const char *field;
    const char *option;
    gssize      offset;  /* of the option's text in Options, or -1 */
  } map[] = {
    { "KeyConditionExpression", "--key", G_STRUCT_OFFSET (Options, request.key) },
    { "FilterExpression", "--filter", G_STRUCT_OFFSET (Options, request.filter) },
    { "ProjectionExpression", "--project", G_STRUCT_OFFSET (Options, request.project) },
    { "ConditionExpression", "--condition", G_STRUCT_OFFSET (Options, request.condition) },
    { "UpdateExpression", "--update", G_STRUCT_OFFSET (Options, request.update) },
    { "Key", "--key-item", -1 },
    { "Item", "--item", -1 },
    { "ExclusiveStartKey", "--start-key", -1 },
    { "IndexName", "--index", -1 },
    { "Limit", "--limit", -1 },
    { "Segment", "--segment", -1 },
    { "TotalSegments", "--total-segments", -1 },
    { "ConsistentRead", "--consistent", -1 },
    { "Select", "--select", -1 },
    { "ReturnValues", "--return-values", -1 },
    { "ReturnConsumedCapacity", "--return-consumed-capacity", -1 },
  };

  *text = NULL;
  if (field == NULL)
    return NULL;

  /* import: the location is in the member's text of the request JSON. */
  if (run->import_object != NULL)
    {
      JsonNode *node = json_object_get_member (run->import_object, field);

      if (g_str_has_suffix (field, "Expression") && node != NULL &&
          JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        *text = json_node_get_string (node);
      return NULL;
    }

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    {
      if (strcmp (map[i].field, field) != 0)
        continue;

      if (run->import_text != NULL)
        break;
      if (map[i].offset >= 0)
        *text = G_STRUCT_MEMBER (const char *, run->options, map[i].offset);
      return map[i].option;
    }

  return NULL;
}

static void
report_with_location (Run                     *run,
                      const char              *context,
                      const char              *message,
                      const char              *text,
                      const DynoParseLocation *location)
{
  report (run, context, message);
  if (text != NULL && location != NULL)
    dyno_cli_print_location (stderr, text, location);
}

/* ---- reading the options ---------------------------------------------------------------- */

static gboolean
parse_item_option (Run         *run,
                   const char  *option,
                   const char  *text,
                   DynoItem   **out)
{
  return dyno_cli_parse_item_option (run->prefix, option, text, run->options->plain,
                                     run->schema, out);
}

/* Query and Scan: the options fill a draft, and the draft makes the request. */
static gboolean
build_read_request (Run           *run,
                    Command        command,
                    DynoOperation  op,
                    const char    *table)
{
  Options *o = run->options;
  const DynoCliReadOptions read = dyno_cli_request_options_read (&o->request);
  g_autoptr(DynoQueryDraft) draft = dyno_cli_read_draft_new (op, table, o->request.index);

  if (command == COMMAND_QUERY && o->request.key == NULL)
    {
      report (run, NULL, _("--key is required: the key condition, e.g. "
                           "--key 'PK = \"DRIVE#a91\" AND begins_with(SK, \"root/\")'"));
      return FALSE;
    }

  if (!dyno_cli_read_draft_expressions (draft, run->prefix, &read, run->values, run->used))
    return FALSE;

  if (o->request.start_key != NULL)
    {
      g_autoptr(DynoItem) start_key = NULL;

      if (!parse_item_option (run, "--start-key", o->request.start_key, &start_key))
        return FALSE;
      dyno_query_draft_set_exclusive_start_key (draft, start_key);
    }

  if (!dyno_cli_check_values_used (run->prefix, run->values, run->used)
      || !dyno_cli_read_draft_options (draft, run->prefix, &read))
    return FALSE;
  dyno_query_draft_set_segment (draft, o->segment);
  dyno_query_draft_set_total_segments (draft, o->total_segments);

  run->request = dyno_query_draft_to_request (draft);
  return TRUE;
}

static gboolean
build_request (Run           *run,
               Command        command,
               DynoOperation  op,
               const char    *table)
{
  Options *o = run->options;
  g_autoptr(DynoRequest) request = NULL;

  if (o->request.values != NULL &&
      !dyno_cli_parse_values_option (run->prefix, o->request.values, run->values))
    return FALSE;

  if (command == COMMAND_QUERY || command == COMMAND_SCAN)
    return build_read_request (run, command, op, table);

  request = dyno_request_new (op, table);

  if (command == COMMAND_GET || command == COMMAND_UPDATE || command == COMMAND_DELETE)
    {
      if (o->request.key_item == NULL)
        {
          report (run, NULL, _("--key-item is required: the item's primary key, e.g. "
                               "--key-item '{\"PK\": {\"S\": \"USER#1\"}}'"));
          return FALSE;
        }
      if (!parse_item_option (run, "--key-item", o->request.key_item, &request->key))
        return FALSE;
    }

  if (command == COMMAND_PUT)
    {
      if (o->request.item == NULL)
        {
          report (run, NULL, _("--item is required: the item in DynamoDB JSON"));
          return FALSE;
        }
      if (!parse_item_option (run, "--item", o->request.item, &request->item))
        return FALSE;
    }

  if (!dyno_cli_item_request_options (request, run->prefix, &o->request, run->values,
                                      run->used))
    return FALSE;
  if ((command == COMMAND_PUT || command == COMMAND_DELETE) &&
      request->return_values != DYNO_RETURN_VALUES_UNSET &&
      request->return_values != DYNO_RETURN_VALUES_NONE &&
      request->return_values != DYNO_RETURN_VALUES_ALL_OLD)
    {
      /* DynamoDB: "ReturnValues can only be ALL_OLD or NONE" */
      report (run, "--return-values", _("a put or delete can only return ALL_OLD or NONE"));
      return FALSE;
    }

  run->request = g_steal_pointer (&request);
  return TRUE;
}

static gboolean
parse_op_option (const char    *text,
                 DynoOperation *out)
{
  static const struct {
    const char    *name;
    DynoOperation  op;
  } names[] = {
    { "query", DYNO_OP_QUERY },
    { "scan", DYNO_OP_SCAN },
    { "get", DYNO_OP_GET_ITEM },
    { "get-item", DYNO_OP_GET_ITEM },
    { "getitem", DYNO_OP_GET_ITEM },
    { "put", DYNO_OP_PUT_ITEM },
    { "put-item", DYNO_OP_PUT_ITEM },
    { "putitem", DYNO_OP_PUT_ITEM },
    { "update", DYNO_OP_UPDATE_ITEM },
    { "update-item", DYNO_OP_UPDATE_ITEM },
    { "updateitem", DYNO_OP_UPDATE_ITEM },
    { "delete", DYNO_OP_DELETE_ITEM },
    { "delete-item", DYNO_OP_DELETE_ITEM },
    { "deleteitem", DYNO_OP_DELETE_ITEM },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      if (g_ascii_strcasecmp (names[i].name, text) == 0)
        {
          *out = names[i].op;
          return TRUE;
        }
    }

  return FALSE;
}

static gboolean
import_request (Run        *run,
                const char *path)
{
  g_autoptr(GError) error = NULL;
  int op_hint = -1;
  const char *member = NULL;
  DynoParseLocation location = { 0, };

  if (run->options->op != NULL)
    {
      DynoOperation op;

      if (!parse_op_option (run->options->op, &op))
        {
          report (run, "--op", _("must be one of query, scan, get, put, update, delete"));
          return FALSE;
        }
      op_hint = op;
    }

  if (!dyno_cli_read_input (path, &run->import_text, NULL, &error))
    {
      report (run, NULL, error->message);
      return FALSE;
    }

  /* Parsed here too, to show a problem in a member's text. */
  run->import_root = dyno_json_parse (run->import_text, -1, NULL);
  if (run->import_root != NULL && JSON_NODE_HOLDS_OBJECT (run->import_root))
    run->import_object = json_node_get_object (run->import_root);

  run->request = dyno_request_from_json_located (run->import_text, -1, op_hint, &member,
                                                 &location, &error);
  if (run->request == NULL)
    {
      const char *source = strcmp (path, "-") == 0 ? _("standard input") : path;
      const char *text = NULL;
      g_autofree char *message = NULL;

      if (op_hint < 0 && strstr (error->message, "give the operation") != NULL)
        message = g_strdup_printf (_("%s with --op"), error->message);
      else
        message = g_strdup (error->message);

      if (member != NULL)
        option_for_field (run, member, &text);
      report_with_location (run, source, message, text, text ? &location : NULL);
      return FALSE;
    }

  return TRUE;
}

static gboolean
validate_request (Run *run)
{
  g_autoptr(GPtrArray) issues = dyno_request_validate (run->request, run->schema);

  if (issues == NULL || issues->len == 0)
    return TRUE;

  for (guint i = 0; i < issues->len; i++)
    {
      const DynoIssue *issue = g_ptr_array_index (issues, i);
      const char *text = NULL;
      const char *option = option_for_field (run, issue->field, &text);
      g_autofree char *context = NULL;

      if (option != NULL)
        context = g_strdup (option);
      else if (issue->field != NULL && strstr (issue->message, issue->field) == NULL)
        context = g_strdup (issue->field);

      report_with_location (run, context, issue->message, text,
                            issue->has_location ? &issue->location : NULL);
    }

  return FALSE;
}

static gboolean
emit_request (Run *run)
{
  Options *o = run->options;
  DynoCodegenOptions codegen = { 0, };
  g_autoptr(GError) error = NULL;
  g_autofree char *code = NULL;

  codegen.program = o->program;
  codegen.endpoint_url = o->endpoint_url;
  codegen.region = o->region;
  codegen.profile = o->profile;

  code = dyno_codegen_emit (run->request, o->emit ? o->emit : "request-json", &codegen, &error);
  if (code == NULL)
    {
      report (run, "--emit", error->message);
      return FALSE;
    }

  if (!dyno_cli_write_output (code))
    {
      report (run, NULL, _("could not write the output"));
      return FALSE;
    }

  return TRUE;
}

static gboolean
check_emit_target (Run *run)
{
  const char * const *targets = dyno_codegen_list_targets ();
  g_autofree char *list = NULL;

  if (run->options->emit == NULL)
    return TRUE;

  if (targets != NULL && g_strv_contains (targets, run->options->emit))
    return TRUE;

  list = targets != NULL ? g_strjoinv (", ", (char **) targets) : g_strdup ("none");
  {
    /* Translators: the format given, then the list of formats. */
    g_autofree char *message = g_strdup_printf (_("unknown format \"%s\"; the formats are: %s"),
                                                run->options->emit, list);
    report (run, "--emit", message);
  }
  return FALSE;
}

static gboolean
load_schema (Run *run)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!dyno_cli_read_input (run->options->schema, &contents, &length, &error))
    {
      report (run, "--schema", error->message);
      return FALSE;
    }

  run->schema = dyno_table_info_new_from_json (contents, length, &error);
  if (run->schema == NULL)
    {
      g_autofree char *context = g_strdup_printf ("--schema %s", run->options->schema);
      report (run, context, error->message);
      return FALSE;
    }

  return TRUE;
}

int
dyno_cli_expr (int    argc,
               char **argv)
{
  const CommandInfo *info = NULL;
  g_auto(Options) options = { 0, };
  g_auto(Run) run = { 0, };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *parameter = NULL;
  g_autofree char *description = NULL;
  guint n_rest;

  if (argc < 2)
    {
      dyno_cli_print_error ("expr", _("missing COMMAND"));
      print_expr_usage (stderr);
      return EXIT_USAGE;
    }

  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 ||
      strcmp (argv[1], "help") == 0)
    {
      print_expr_usage (stdout);
      return EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (strcmp (commands[i].name, argv[1]) == 0)
        info = &commands[i];
    }

  if (info == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("unknown command \"%s\""), argv[1]);

      dyno_cli_print_error ("expr", message);
      print_expr_usage (stderr);
      return EXIT_USAGE;
    }

  prefix = g_strdup_printf ("expr %s", info->name);
  run.prefix = prefix;
  run.options = &options;
  options.request.limit = G_MININT;
  options.segment = -1;
  options.total_segments = -1;

  parameter = g_strdup_printf (info->command == COMMAND_IMPORT ? "%s FILE|-" : "%s TABLE",
                               info->name);
  context = g_option_context_new (parameter);
  g_option_context_set_summary (context, _(info->summary));
  description = describe_targets ();
  g_option_context_set_description (context, description);
  entries = build_entries (info, &options);
  g_option_context_add_main_entries (context, (GOptionEntry *) (gpointer) entries->data, NULL);
  g_set_prgname ("dynotable-cli expr");

  /* GOptionContext treats argv[0] as the program name: hand it the subcommand's. */
  {
    int sub_argc = argc - 1;
    char **sub_argv = argv + 1;

    if (!g_option_context_parse (context, &sub_argc, &sub_argv, &error))
      {
        /* Translators: the problem, then the command's name. */
        g_autofree char *message = g_strdup_printf (_("%s (see 'dynotable-cli expr %s --help')"),
                                                    error->message, info->name);
        report (&run, NULL, message);
        return EXIT_USAGE;
      }
  }

  n_rest = options.rest != NULL ? g_strv_length (options.rest) : 0;
  if (n_rest != 1)
    {
      g_autofree char *message =
        n_rest == 0 ? g_strdup_printf (_("missing %s"),
                                       info->command == COMMAND_IMPORT ? "FILE (or '-')"
                                                                       : "TABLE")
                    : g_strdup_printf (_("unexpected argument \"%s\""), options.rest[1]);

      report (&run, NULL, message);
      return EXIT_USAGE;
    }

  if (!check_emit_target (&run))
    return EXIT_USAGE;

  if (options.schema != NULL && !load_schema (&run))
    return EXIT_USAGE;

  run.values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) dyno_value_free);
  /* The parsers add g_strdup()ed placeholders. */
  run.used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (info->command == COMMAND_IMPORT)
    {
      if (!import_request (&run, options.rest[0]))
        return EXIT_USAGE;
    }
  else if (!build_request (&run, info->command, info->op, options.rest[0]))
    return EXIT_USAGE;

  if (!validate_request (&run))
    return EXIT_USAGE;

  if (!emit_request (&run))
    return EXIT_USAGE;

  return EXIT_OK;
}
