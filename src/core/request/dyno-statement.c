/* dyno-statement.c: a PartiQL statement (ExecuteStatement) with its parameters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-statement.h"

#include <glib/gi18n-lib.h>

#include "dyno-error.h"
#include "dyno-json.h"

G_DEFINE_BOXED_TYPE (DynoStatement, dyno_statement, dyno_statement_copy, dyno_statement_free)

DynoStatement *
dyno_statement_new (const char *statement)
{
  DynoStatement *self = g_new0 (DynoStatement, 1);

  self->statement = g_strdup (statement != NULL ? statement : "");
  self->consistent_read = DYNO_TRISTATE_UNSET;
  return self;
}

DynoStatement *
dyno_statement_copy (const DynoStatement *self)
{
  DynoStatement *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = dyno_statement_new (self->statement);
  copy->consistent_read = self->consistent_read;
  copy->limit = self->limit;
  if (self->parameters != NULL)
    {
      copy->parameters = g_ptr_array_new_full (self->parameters->len,
                                               (GDestroyNotify) dyno_value_free);
      for (guint i = 0; i < self->parameters->len; i++)
        g_ptr_array_add (copy->parameters,
                         dyno_value_copy (g_ptr_array_index (self->parameters, i)));
    }
  return copy;
}

void
dyno_statement_free (DynoStatement *self)
{
  if (self == NULL)
    return;
  g_free (self->statement);
  g_clear_pointer (&self->parameters, g_ptr_array_unref);
  g_free (self);
}

JsonNode *
dyno_statement_to_json_node (const DynoStatement *self,
                             const char          *next_token)
{
  JsonObject *request;
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);

  request = json_object_new ();
  json_object_set_string_member (request, "Statement", self->statement);
  if (self->parameters != NULL && self->parameters->len > 0)
    {
      JsonArray *parameters = json_array_sized_new (self->parameters->len);

      for (guint i = 0; i < self->parameters->len; i++)
        json_array_add_element (parameters,
                                dyno_value_to_json_node (g_ptr_array_index (self->parameters,
                                                                            i)));
      json_object_set_array_member (request, "Parameters", parameters);
    }
  if (self->consistent_read != DYNO_TRISTATE_UNSET)
    json_object_set_boolean_member (request, "ConsistentRead",
                                    self->consistent_read == DYNO_TRISTATE_TRUE);
  if (self->limit > 0)
    json_object_set_int_member (request, "Limit", self->limit);
  if (next_token != NULL)
    json_object_set_string_member (request, "NextToken", next_token);
  json_object_set_string_member (request, "ReturnConsumedCapacity", "TOTAL");

  node = json_node_init_object (json_node_alloc (), request);
  json_object_unref (request);
  return node;
}

/* The statement's first word says whether it reads: SELECT (pages) or a write (once). */
gboolean
dyno_statement_is_select (const DynoStatement *self)
{
  const char *p;

  g_return_val_if_fail (self != NULL, FALSE);

  p = self->statement;
  while (g_ascii_isspace (*p) || *p == '(')
    p++;
  return g_ascii_strncasecmp (p, "SELECT", 6) == 0 && !g_ascii_isalnum (p[6]) && p[6] != '_';
}

guint
dyno_statement_count_placeholders (const DynoStatement *self)
{
  guint n = 0;
  char quote = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (const char *p = self->statement; *p != '\0'; p++)
    {
      if (quote != 0)
        {
          if (*p == quote && p[1] == quote)
            p++;          /* '' inside a string, "" inside an identifier */
          else if (*p == quote)
            quote = 0;
        }
      else if (*p == '\'' || *p == '"')
        quote = *p;
      else if (*p == '?')
        n++;
    }
  return n;
}

static gboolean
is_blank (const char *text)
{
  for (; *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

GPtrArray *
dyno_statement_parse_parameters (const char  *json,
                                 GError     **error)
{
  g_autoptr(GPtrArray) parameters = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *array;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  parameters = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_value_free);
  if (json == NULL || is_blank (json))
    return g_steal_pointer (&parameters);

  root = dyno_json_parse (json, -1, error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                           _("must be a JSON array of DynamoDB JSON values, "
                             "e.g. [{\"S\": \"C#1\"}, {\"N\": \"3\"}]"));
      return NULL;
    }
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) local = NULL;
      DynoValue *value = dyno_value_from_json_node (json_array_get_element (array, i), &local);

      if (value == NULL)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                       /* Translators: the parameter's number (from 1), then why */
                       _("parameter %u: %s"), i + 1, local->message);
          return NULL;
        }
      g_ptr_array_add (parameters, value);
    }
  return g_steal_pointer (&parameters);
}
