/* dyno-cli-transact.c: dynotable-cli transact-write, transact-get and partiql
 *
 * transact-write is all or nothing: on cancellation every item's reason is printed and
 * nothing was written.  partiql follows NextToken to the end for a SELECT; a statement that
 * writes runs once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "dynotable-cli"

#include "config.h"

#include "dyno-cli-transact.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dyno-cli-io.h"
#include "dyno-cli-request.h"
#include "dyno-cli-session.h"
#include "dyno-http-error.h"
#include "dyno-json.h"
#include "dyno-statement.h"
#include "dyno-transaction.h"

typedef struct {
  DynoCliSession  s;
  gboolean        plain;
  gboolean        consistent;
  gint            limit;
  char           *parameters;
  char           *token;
  char          **rest;

  JsonNode       *response;   /* of the last call */
  GError         *error;
  gboolean        output_failed;
} Command;

static void
command_clear (Command *c)
{
  dyno_cli_session_clear (&c->s);
  g_free (c->parameters);
  g_free (c->token);
  g_strfreev (c->rest);
  g_clear_pointer (&c->response, json_node_unref);
  g_clear_error (&c->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Command, command_clear)

/* One call, waited for on the session's loop: the response in c->response, or c->error. */
static void
called_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Command *c = user_data;

  c->response = dyno_backend_call_json_finish (DYNO_BACKEND (source), result, &c->error);
  g_main_loop_quit (c->s.loop);
}

static gboolean
call (Command    *c,
      const char *operation,
      JsonNode   *body)
{
  g_clear_pointer (&c->response, json_node_unref);
  g_clear_error (&c->error);
  dyno_backend_call_json_async (c->s.backend, operation, body, c->s.cancellable, called_cb, c);
  g_main_loop_run (c->s.loop);
  return c->response != NULL;
}

/* Whole lines straight to standard output (as query does). */
static void
write_out (Command *c,
           GString *out)
{
  gsize done = 0;

  fflush (stdout);
  while (done < out->len && !c->output_failed)
    {
      gssize n = write (STDOUT_FILENO, out->str + done, out->len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        c->output_failed = TRUE;
      else
        done += (gsize) n;
    }
  g_string_truncate (out, 0);
}

/* @node: an item in DynamoDB JSON, or NULL for "no item" (printed as null). */
static gboolean
append_item (Command  *c,
             GString  *out,
             JsonNode *node)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) item = NULL;

  if (node == NULL)
    {
      g_string_append (out, "null\n");
      return TRUE;
    }
  item = dyno_item_from_json_node (node, &error);
  if (item == NULL)
    {
      dyno_cli_session_report (&c->s, NULL, error->message);
      return FALSE;
    }
  if (c->plain)
    dyno_value_write_plain_json (dyno_item_get_map (item), out);
  else
    dyno_map_write_ddb_item (dyno_item_get_map (item), out);
  g_string_append_c (out, '\n');
  return TRUE;
}

/* ConsumedCapacity's units (summed over an array of them); -1 when the server gave none. */
static double
consumed_units (JsonNode *response)
{
  JsonNode *node = json_object_get_member (json_node_get_object (response), "ConsumedCapacity");
  double units = 0;

  if (node == NULL)
    return -1;
  if (JSON_NODE_HOLDS_OBJECT (node))
    return json_object_get_double_member_with_default (json_node_get_object (node),
                                                       "CapacityUnits", 0);
  if (JSON_NODE_HOLDS_ARRAY (node))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
      {
        JsonNode *element = json_array_get_element (json_node_get_array (node), i);

        if (JSON_NODE_HOLDS_OBJECT (element))
          units += json_object_get_double_member_with_default (json_node_get_object (element),
                                                               "CapacityUnits", 0);
      }
  return units;
}

static int
report_call_error (Command *c)
{
  if (g_error_matches (c->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      dyno_cli_session_report (&c->s, NULL, _("interrupted"));
      return 130;
    }
  dyno_cli_report_service_error (c->s.command, c->error);
  return EXIT_FAILURE_RUN;
}

/* ---- transact-write, transact-get -------------------------------------------------------- */

static gboolean
parse_file_command (Command      *c,
                    int           argc,
                    char        **argv,
                    GOptionEntry *entries,
                    const char   *summary)
{
  if (!dyno_cli_session_parse (&c->s, argc, argv, entries, "FILE|-", summary))
    return FALSE;
  if (c->rest == NULL || c->rest[0] == NULL || c->rest[1] != NULL)
    {
      dyno_cli_session_report (&c->s, NULL, c->rest == NULL || c->rest[0] == NULL
                                            ? _("missing FILE (or '-' for standard input)")
                                            : _("one FILE only"));
      c->s.status = EXIT_USAGE;
      return FALSE;
    }
  return TRUE;
}

static GPtrArray *
read_items (Command  *c,
            gboolean  writes)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  GPtrArray *items;
  gsize length;

  if (!dyno_cli_read_input (c->rest[0], &contents, &length, &error))
    {
      dyno_cli_session_report (&c->s, c->rest[0], error->message);
      return NULL;
    }
  items = dyno_transact_items_from_json (contents, length, writes, &error);
  if (items == NULL)
    dyno_cli_session_report (&c->s, c->rest[0], error->message);
  return items;
}

/* Every item's reason, in the request's order, "item 1 (Update customers): Code: Message". */
static void
print_cancellation (Command   *c,
                    GPtrArray *items)
{
  const DynoServiceError *info = dyno_error_get_service_info (c->error);

  dyno_cli_session_report (&c->s, NULL, _("the transaction was cancelled; nothing was written"));
  for (guint i = 0; i < items->len; i++)
    {
      DynoTransactItem *item = g_ptr_array_index (items, i);
      const DynoCancellationReason *reason = NULL;

      if (info->cancellation_reasons != NULL && i < info->cancellation_reasons->len)
        reason = g_ptr_array_index (info->cancellation_reasons, i);
      fprintf (stderr, "item %u (%s %s): %s%s%s\n", i,
               dyno_transact_action_to_string (item->action), item->request->table_name,
               reason != NULL ? reason->code : "None",
               reason != NULL && reason->message != NULL ? ": " : "",
               reason != NULL && reason->message != NULL ? reason->message : "");
      if (reason != NULL && reason->item != NULL)
        {
          g_autofree char *now = dyno_item_to_ddb_json (reason->item);

          fprintf (stderr, "    the item is: %s\n", now);
        }
    }
}

int
dyno_cli_transact_write (int    argc,
                         char **argv)
{
  g_auto(Command) c = { { 0, }, };
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(JsonNode) body = NULL;
  g_autofree char *token = NULL;
  GOptionEntry entries[] = {
    { "token", 0, 0, G_OPTION_ARG_STRING, &c.token,
      _("ClientRequestToken: the same token within 10 minutes applies the transaction once "
         "(default: a new one for each run)"), "TOKEN" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &c.rest, NULL, NULL },
    { NULL, },
  };

  c.s.command = "transact-write";
  if (!parse_file_command (&c, argc, argv, entries,
                           _("Write the TransactItems of FILE (Put, Update, Delete, "
                             "ConditionCheck;\nDynamoDB JSON) as one TransactWriteItems: all of "
                             "them or none.")))
    return c.s.status;
  if (c.token != NULL && (strlen (c.token) == 0 || strlen (c.token) > 36))
    {
      dyno_cli_session_report (&c.s, "--token", _("must be 1 to 36 characters"));
      return EXIT_USAGE;
    }

  items = read_items (&c, TRUE);
  if (items == NULL)
    return EXIT_USAGE;
  if (!dyno_cli_session_connect (&c.s))
    return c.s.status;

  /* the token makes the backend's retries of a lost answer safe: DynamoDB applies it once */
  token = c.token != NULL ? g_strdup (c.token) : g_uuid_string_random ();
  body = dyno_transact_items_to_request (items, token);
  if (!call (&c, "TransactWriteItems", body))
    {
      const DynoServiceError *info = dyno_error_get_service_info (c.error);

      if (info != NULL && g_strcmp0 (info->type, "TransactionCanceledException") == 0)
        {
          print_cancellation (&c, items);
          return EXIT_FAILURE_RUN;
        }
      return report_call_error (&c);
    }

  {
    double units = consumed_units (c.response);
    g_autofree char *capacity = units >= 0 ? g_strdup_printf (" (%g WCU)", units)
                                           : g_strdup ("");

    /* Translators: the number of items, then " (N WCU)" or nothing. */
    fprintf (stderr, ngettext ("transact-write: %u item written%s\n",
                               "transact-write: %u items written%s\n", items->len),
             items->len, capacity);
  }
  return EXIT_OK;
}

int
dyno_cli_transact_get (int    argc,
                       char **argv)
{
  g_auto(Command) c = { { 0, }, };
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  JsonArray *responses;
  GOptionEntry entries[] = {
    { "plain", 0, 0, G_OPTION_ARG_NONE, &c.plain, _("Plain JSON instead of DynamoDB JSON"),
      NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &c.rest, NULL, NULL },
    { NULL, },
  };

  c.s.command = "transact-get";
  if (!parse_file_command (&c, argc, argv, entries,
                           _("Read the Get items of FILE (DynamoDB JSON) as one TransactGetItems\n"
                             "and print each item as a JSON line, in order; null when absent.")))
    return c.s.status;

  items = read_items (&c, FALSE);
  if (items == NULL)
    return EXIT_USAGE;
  if (!dyno_cli_session_connect (&c.s))
    return c.s.status;

  body = dyno_transact_items_to_request (items, NULL);
  if (!call (&c, "TransactGetItems", body))
    {
      const DynoServiceError *info = dyno_error_get_service_info (c.error);

      if (info != NULL && g_strcmp0 (info->type, "TransactionCanceledException") == 0)
        {
          print_cancellation (&c, items);
          return EXIT_FAILURE_RUN;
        }
      return report_call_error (&c);
    }

  responses = json_object_get_array_member (json_node_get_object (c.response), "Responses");
  for (guint i = 0; i < items->len; i++)
    {
      JsonNode *item = NULL;

      if (responses != NULL && i < json_array_get_length (responses))
        {
          JsonObject *response = json_array_get_object_element (responses, i);

          if (response != NULL)
            item = json_object_get_member (response, "Item");
        }
      if (!append_item (&c, out, item))
        return EXIT_FAILURE_RUN;
    }
  write_out (&c, out);
  return c.output_failed ? EXIT_FAILURE_RUN : EXIT_OK;
}

/* ---- partiql ----------------------------------------------------------------------------- */

static gboolean
is_blank (const char *text)
{
  for (; *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

int
dyno_cli_partiql (int    argc,
                  char **argv)
{
  g_auto(Command) c = { { 0, }, };
  g_autoptr(DynoStatement) statement = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *next_token = NULL;
  guint placeholders, n_parameters, pages = 0;
  guint64 items = 0;
  double units = -1;
  gboolean select;
  GOptionEntry entries[] = {
    { "parameters", 0, 0, G_OPTION_ARG_STRING, &c.parameters,
      _("Values for the ? placeholders, in order: a JSON array of DynamoDB JSON values"),
      "JSON" },
    { "consistent", 0, 0, G_OPTION_ARG_NONE, &c.consistent, _("Strongly consistent read"),
      NULL },
    { "limit", 0, 0, G_OPTION_ARG_INT, &c.limit, _("Items to evaluate per page"), "N" },
    { "plain", 0, 0, G_OPTION_ARG_NONE, &c.plain, _("Plain JSON instead of DynamoDB JSON"),
      NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &c.rest, NULL, NULL },
    { NULL, },
  };

  c.s.command = "partiql";
  c.limit = G_MININT;
  if (!dyno_cli_session_parse (&c.s, argc, argv, entries, "STATEMENT",
                               _("Run a PartiQL statement (ExecuteStatement).  A SELECT follows "
                                 "NextToken to the end\nand prints the items as JSON lines; "
                                 "INSERT, UPDATE and DELETE run once.")))
    return c.s.status;
  if (c.rest == NULL || c.rest[0] == NULL || c.rest[1] != NULL)
    {
      dyno_cli_session_report (&c.s, NULL,
                               c.rest == NULL || c.rest[0] == NULL
                               ? _("missing STATEMENT")
                               : _("one STATEMENT only: quote it ('SELECT * FROM \"t\"')"));
      return EXIT_USAGE;
    }
  if (is_blank (c.rest[0]) || strlen (c.rest[0]) > 8192)
    {
      dyno_cli_session_report (&c.s, NULL, _("the statement must be 1 to 8192 characters"));
      return EXIT_USAGE;
    }
  if (c.limit != G_MININT && c.limit < 1)
    {
      dyno_cli_session_report (&c.s, "--limit", _("must be at least 1"));
      return EXIT_USAGE;
    }
  statement = dyno_statement_new (c.rest[0]);
  if (c.consistent)
    statement->consistent_read = DYNO_TRISTATE_TRUE;
  if (c.limit != G_MININT)
    statement->limit = c.limit;
  if (c.parameters != NULL)
    {
      g_autoptr(GError) error = NULL;

      statement->parameters = dyno_statement_parse_parameters (c.parameters, &error);
      if (statement->parameters == NULL)
        {
          dyno_cli_session_report (&c.s, "--parameters", error->message);
          return EXIT_USAGE;
        }
    }
  placeholders = dyno_statement_count_placeholders (statement);
  n_parameters = statement->parameters != NULL ? statement->parameters->len : 0;
  if (placeholders != n_parameters)
    {
      g_autofree char *message = g_strdup_printf (
        _("the statement has %u ? placeholder(s) and --parameters gives %u value(s)"),
        placeholders, n_parameters);

      dyno_cli_session_report (&c.s, NULL, message);
      return EXIT_USAGE;
    }
  select = dyno_statement_is_select (statement);
  if (!dyno_cli_session_connect (&c.s))
    return c.s.status;

  do
    {
      g_autoptr(JsonNode) body = dyno_statement_to_json_node (statement, next_token);
      JsonObject *response;
      JsonArray *page;

      if (!call (&c, "ExecuteStatement", body))
        {
          write_out (&c, out);
          return report_call_error (&c);
        }
      response = json_node_get_object (c.response);
      page = json_object_has_member (response, "Items")
             ? json_object_get_array_member (response, "Items") : NULL;
      for (guint i = 0; page != NULL && i < json_array_get_length (page); i++)
        if (!append_item (&c, out, json_array_get_element (page, i)))
          return EXIT_FAILURE_RUN;
      write_out (&c, out);
      if (c.output_failed)
        return EXIT_FAILURE_RUN;
      items += page != NULL ? json_array_get_length (page) : 0;
      if (consumed_units (c.response) >= 0)
        units = MAX (units, 0) + consumed_units (c.response);
      pages++;

      g_free (next_token);
      next_token = g_strdup (json_object_get_string_member_with_default (response, "NextToken",
                                                                         NULL));
    }
  while (select && next_token != NULL);

  if (select)
    {
      g_autofree char *capacity = units >= 0 ? g_strdup_printf (", %g RCU", units)
                                             : g_strdup ("");

      fprintf (stderr, "partiql: %" G_GUINT64_FORMAT " %s, %u %s%s\n", items,
               items == 1 ? "item" : "items", pages, pages == 1 ? "page" : "pages", capacity);
    }
  return EXIT_OK;
}
