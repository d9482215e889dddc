/* dyno-access-pattern.c: named queries a key schema must serve, and the verdict on a run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-access-pattern.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"

void
dyno_access_pattern_free (DynoAccessPattern *pattern)
{
  if (pattern == NULL)
    return;
  g_free (pattern->name);
  g_free (pattern->description);
  g_clear_pointer (&pattern->request, dyno_request_free);
  g_strfreev (pattern->parameters);
  g_free (pattern->order_by);
  g_free (pattern);
}

void
dyno_pattern_verdict_free (DynoPatternVerdict *verdict)
{
  if (verdict == NULL)
    return;
  g_free (verdict->plan);
  g_ptr_array_unref (verdict->problems);
  g_ptr_array_unref (verdict->notes);
  g_free (verdict);
}

/* ---- reading ----------------------------------------------------------------------------- */

typedef struct {
  guint       index;
  const char *name;    /* or NULL while the name is not read yet */
} Where;

static void G_GNUC_PRINTF (3, 4)
set_error (GError     **error,
           const Where *where,
           const char  *format,
           ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (where->name != NULL)
    g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG, "patterns[%u] (%s): %s", where->index,
                 where->name, message);
  else
    g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG, "patterns[%u]: %s", where->index,
                 message);
}

static gboolean
only_members (JsonObject         *object,
              const char * const *allowed,
              const Where        *where,
              const char         *what,
              GError            **error)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      {
        set_error (error, where, _("%s: unknown member “%s”"), what, (const char *) l->data);
        return FALSE;
      }
  return TRUE;
}

static gboolean
read_expect (DynoAccessPattern *pattern,
             JsonNode          *node,
             const Where       *where,
             GError           **error)
{
  static const char * const allowed[] = { "order", "by", "minItems", "maxItems",
                                          "maxReadPerItem", "scan", NULL };
  JsonObject *expect;
  JsonNode *member;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_error (error, where, _("expect must be an object"));
      return FALSE;
    }
  expect = json_node_get_object (node);
  if (!only_members (expect, allowed, where, "expect", error))
    return FALSE;

  if ((member = json_object_get_member (expect, "order")) != NULL)
    {
      const char *order = JSON_NODE_HOLDS_VALUE (member) &&
                          json_node_get_value_type (member) == G_TYPE_STRING
                          ? json_node_get_string (member) : "";

      if (g_str_equal (order, "ascending"))
        pattern->order = DYNO_PATTERN_ORDER_ASCENDING;
      else if (g_str_equal (order, "descending"))
        pattern->order = DYNO_PATTERN_ORDER_DESCENDING;
      else if (g_str_equal (order, "any"))
        pattern->order = DYNO_PATTERN_ORDER_ANY;
      else
        {
          set_error (error, where, _("expect.order must be \"ascending\", \"descending\" or "
                                     "\"any\""));
          return FALSE;
        }
    }
  if ((member = json_object_get_member (expect, "by")) != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_STRING
          || json_node_get_string (member)[0] == '\0')
        {
          set_error (error, where, _("expect.by must be an attribute name"));
          return FALSE;
        }
      pattern->order_by = g_strdup (json_node_get_string (member));
    }
  for (guint i = 0; i < 2; i++)
    {
      const char *name = i == 0 ? "minItems" : "maxItems";
      gint64 *out = i == 0 ? &pattern->min_items : &pattern->max_items;

      if ((member = json_object_get_member (expect, name)) == NULL)
        continue;
      if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_INT64
          || json_node_get_int (member) < 0)
        {
          set_error (error, where, _("expect.%s must be a whole number, 0 or more"), name);
          return FALSE;
        }
      *out = json_node_get_int (member);
    }
  if (pattern->min_items >= 0 && pattern->max_items >= 0 &&
      pattern->min_items > pattern->max_items)
    {
      set_error (error, where, _("expect.minItems is more than expect.maxItems"));
      return FALSE;
    }
  if ((member = json_object_get_member (expect, "maxReadPerItem")) != NULL)
    {
      GType type = JSON_NODE_HOLDS_VALUE (member) ? json_node_get_value_type (member)
                                                  : G_TYPE_INVALID;

      if ((type != G_TYPE_INT64 && type != G_TYPE_DOUBLE) || json_node_get_double (member) < 1)
        {
          set_error (error, where, _("expect.maxReadPerItem must be a number, 1 or more"));
          return FALSE;
        }
      pattern->max_read_per_item = json_node_get_double (member);
    }
  if ((member = json_object_get_member (expect, "scan")) != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_BOOLEAN)
        {
          set_error (error, where, _("expect.scan must be true or false"));
          return FALSE;
        }
      pattern->allow_scan = json_node_get_boolean (member);
    }
  return TRUE;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* The request with the parameters' values among its ExpressionAttributeValues. */
static gboolean
read_request (DynoAccessPattern *pattern,
              JsonNode          *request_node,
              JsonNode          *parameters_node,
              GHashTable        *overrides,
              const Where       *where,
              GError           **error)
{
  g_autoptr(JsonNode) request = json_node_copy (request_node);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  JsonObject *values;

  if (!JSON_NODE_HOLDS_OBJECT (request))
    {
      set_error (error, where, _("request must be an object, as DynamoDB takes it"));
      return FALSE;
    }
  if (!json_object_has_member (json_node_get_object (request), "ExpressionAttributeValues"))
    json_object_set_object_member (json_node_get_object (request), "ExpressionAttributeValues",
                                   json_object_new ());
  values = json_object_get_object_member (json_node_get_object (request),
                                          "ExpressionAttributeValues");
  if (values == NULL)
    {
      set_error (error, where, _("request: ExpressionAttributeValues must be an object"));
      return FALSE;
    }

  if (parameters_node != NULL)
    {
      g_autoptr(GList) members = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (parameters_node))
        {
          set_error (error, where, _("parameters must be an object of \":name\": DynamoDB JSON "
                                     "value"));
          return FALSE;
        }
      members = json_object_get_members (json_node_get_object (parameters_node));
      for (GList *l = members; l != NULL; l = l->next)
        {
          const char *name = l->data;
          JsonNode *value = json_object_get_member (json_node_get_object (parameters_node),
                                                    name);
          g_autoptr(DynoValue) checked = NULL;

          if (name[0] != ':')
            {
              set_error (error, where, _("parameters: “%s” must start with ':'"), name);
              return FALSE;
            }
          if (json_object_has_member (values, name))
            {
              set_error (error, where, _("%s is both a parameter and one of the request's "
                                         "ExpressionAttributeValues"), name);
              return FALSE;
            }
          if (overrides != NULL && g_hash_table_contains (overrides, name))
            {
              g_autofree char *json = dyno_value_to_ddb_json (g_hash_table_lookup (overrides,
                                                                                   name));

              value = NULL;
              json_object_set_member (values, name, dyno_json_parse (json, -1, NULL));
            }
          else
            {
              checked = dyno_value_from_json_node (value, &local_error);
              if (checked == NULL)
                {
                  set_error (error, where, _("parameters: %s: %s"), name, local_error->message);
                  return FALSE;
                }
              json_object_set_member (values, name, json_node_copy (value));
            }
          g_ptr_array_add (names, g_strdup (name));
        }
    }

  /* no parameters and no values: the request says nothing of them */
  if (json_object_get_size (values) == 0)
    json_object_remove_member (json_node_get_object (request), "ExpressionAttributeValues");

  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  pattern->parameters = (GStrv) g_ptr_array_steal (names, NULL);

  dyno_json_write_node (text, request, FALSE);
  pattern->request = dyno_request_from_json (text->str, text->len, -1, &local_error);
  if (pattern->request == NULL)
    {
      set_error (error, where, "request: %s", local_error->message);
      return FALSE;
    }
  if (pattern->request->operation != DYNO_OP_QUERY &&
      pattern->request->operation != DYNO_OP_SCAN)
    {
      set_error (error, where, _("request: an access pattern is a Query or a Scan, not %s"),
                 dyno_operation_to_string (pattern->request->operation));
      return FALSE;
    }
  return TRUE;
}

static DynoAccessPattern *
read_pattern (JsonNode    *node,
              guint        index,
              GHashTable  *overrides,
              GHashTable  *seen,
              GError     **error)
{
  static const char * const allowed[] = { "name", "description", "request", "parameters",
                                          "expect", NULL };
  g_autoptr(DynoAccessPattern) pattern = g_new0 (DynoAccessPattern, 1);
  Where where = { index, NULL };
  JsonObject *object;
  JsonNode *member;

  pattern->min_items = -1;
  pattern->max_items = -1;
  pattern->max_read_per_item = DYNO_ACCESS_PATTERN_DEFAULT_READ_PER_ITEM;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_error (error, &where, _("must be an object with a name and a request"));
      return NULL;
    }
  object = json_node_get_object (node);

  member = json_object_get_member (object, "name");
  if (member == NULL || !JSON_NODE_HOLDS_VALUE (member)
      || json_node_get_value_type (member) != G_TYPE_STRING
      || json_node_get_string (member)[0] == '\0')
    {
      set_error (error, &where, _("needs a name (a non-empty string)"));
      return NULL;
    }
  pattern->name = g_strdup (json_node_get_string (member));
  where.name = pattern->name;
  if (g_hash_table_contains (seen, pattern->name))
    {
      set_error (error, &where, _("the name is used by patterns[%u] already"),
                 GPOINTER_TO_UINT (g_hash_table_lookup (seen, pattern->name)) - 1);
      return NULL;
    }

  if (!only_members (object, allowed, &where, _("pattern"), error))
    return NULL;

  member = json_object_get_member (object, "description");
  if (member != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_STRING)
        {
          set_error (error, &where, _("description must be a string"));
          return NULL;
        }
      pattern->description = g_strdup (json_node_get_string (member));
    }

  member = json_object_get_member (object, "request");
  if (member == NULL)
    {
      set_error (error, &where, _("needs a request (a Query or Scan, as DynamoDB takes it)"));
      return NULL;
    }
  if (!read_request (pattern, member, json_object_get_member (object, "parameters"), overrides,
                     &where, error))
    return NULL;

  member = json_object_get_member (object, "expect");
  if (member != NULL && !read_expect (pattern, member, &where, error))
    return NULL;

  return g_steal_pointer (&pattern);
}

GPtrArray *
dyno_access_patterns_from_json (const char  *json,
                                gssize       len,
                                GHashTable  *overrides,
                                GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) patterns = NULL;
  g_autoptr(GHashTable) seen = NULL;
  JsonObject *object;
  JsonNode *member;
  JsonArray *array;

  g_return_val_if_fail (json != NULL, NULL);

  root = dyno_json_parse (json, len, &local_error);
  if (root == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG, _("Not valid JSON: %s"),
                   local_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                           _("A pattern set is a JSON object: {\"format\": "
                             "\"dynotable-patterns\", \"version\": 1, \"patterns\": […]}"));
      return NULL;
    }
  object = json_node_get_object (root);

  member = json_object_get_member (object, "format");
  if (member != NULL && g_strcmp0 (JSON_NODE_HOLDS_VALUE (member) &&
                                   json_node_get_value_type (member) == G_TYPE_STRING
                                   ? json_node_get_string (member) : NULL,
                                   DYNO_ACCESS_PATTERNS_FORMAT) != 0)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("“format” must be \"%s\""), DYNO_ACCESS_PATTERNS_FORMAT);
      return NULL;
    }
  member = json_object_get_member (object, "version");
  if (member != NULL && (!JSON_NODE_HOLDS_VALUE (member) ||
                         json_node_get_value_type (member) != G_TYPE_INT64 ||
                         json_node_get_int (member) < 1))
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                           _("“version” must be a whole number"));
      return NULL;
    }
  if (member != NULL && json_node_get_int (member) > DYNO_ACCESS_PATTERNS_FORMAT_VERSION)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("This pattern set is version %lld, newer than this DynoTable reads (%d)"),
                   (long long) json_node_get_int (member),
                   DYNO_ACCESS_PATTERNS_FORMAT_VERSION);
      return NULL;
    }

  member = json_object_get_member (object, "patterns");
  if (member == NULL || !JSON_NODE_HOLDS_ARRAY (member))
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                           _("A pattern set needs a “patterns” array"));
      return NULL;
    }
  array = json_node_get_array (member);

  patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_access_pattern_free);
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      DynoAccessPattern *pattern = read_pattern (json_array_get_element (array, i), i,
                                                 overrides, seen, error);

      if (pattern == NULL)
        return NULL;
      g_ptr_array_add (patterns, pattern);
      g_hash_table_insert (seen, pattern->name, GUINT_TO_POINTER (i + 1));
    }

  /* a value given for a parameter no pattern has is a mistake (a typo, an old name) */
  if (overrides != NULL)
    {
      GHashTableIter iter;
      const char *name;

      g_hash_table_iter_init (&iter, overrides);
      while (g_hash_table_iter_next (&iter, (gpointer *) &name, NULL))
        {
          gboolean used = FALSE;

          for (guint i = 0; i < patterns->len && !used; i++)
            used = g_strv_contains ((const char * const *)
                                    ((DynoAccessPattern *) g_ptr_array_index (patterns,
                                                                              i))->parameters,
                                    name);
          if (!used)
            {
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                           _("%s is not a parameter of any pattern in this set"), name);
              return NULL;
            }
        }
    }

  return g_steal_pointer (&patterns);
}

/* ---- judging ----------------------------------------------------------------------------- */

static const char *
sort_key_read (const DynoAccessPattern *pattern,
               const DynoTableInfo     *schema)
{
  const char *index = pattern->request->index_name;

  if (schema == NULL)
    return NULL;
  if (index != NULL)
    {
      const DynoIndexInfo *info = dyno_table_info_find_index (schema, index);

      return info != NULL ? info->sort_key.name : NULL;
    }
  return dyno_table_info_get_sort_key (schema)->name;
}

static void
check_order (const DynoAccessPattern *pattern,
             const DynoTableInfo     *schema,
             GPtrArray               *items,
             DynoPatternVerdict      *verdict)
{
  const char *by = pattern->order_by != NULL ? pattern->order_by
                                             : sort_key_read (pattern, schema);
  gboolean descending = pattern->order == DYNO_PATTERN_ORDER_DESCENDING;
  guint missing = 0;
  const DynoValue *previous = NULL;

  if (pattern->order == DYNO_PATTERN_ORDER_ANY)
    return;
  if (by == NULL)
    {
      g_ptr_array_add (verdict->notes,
                       g_strdup (_("the order was not checked: what is read has no sort key; "
                                   "say which attribute with expect.by")));
      return;
    }

  for (guint i = 0; i < items->len; i++)
    {
      const DynoValue *value = dyno_item_lookup (g_ptr_array_index (items, i), by);
      int cmp;

      if (value == NULL)
        {
          missing++;
          continue;
        }
      if (previous != NULL)
        {
          if (dyno_value_get_kind (previous) != dyno_value_get_kind (value))
            {
              g_ptr_array_add (verdict->problems,
                               g_strdup_printf (_("item %u has %s of type %s after one of type "
                                                  "%s: they cannot be put in order"),
                                                i + 1, by,
                                                dyno_value_type_to_string (
                                                  dyno_value_get_kind (value)),
                                                dyno_value_type_to_string (
                                                  dyno_value_get_kind (previous))));
              return;
            }
          cmp = dyno_value_compare (previous, value);
          if (descending ? cmp < 0 : cmp > 0)
            {
              g_autofree char *a = dyno_value_to_ddb_json (previous);
              g_autofree char *b = dyno_value_to_ddb_json (value);

              g_ptr_array_add (verdict->problems,
                               g_strdup_printf (descending
                                                ? _("not newest/largest first by %s: item %u "
                                                    "(%s) comes after %s")
                                                : _("not in ascending order by %s: item %u "
                                                    "(%s) comes after %s"),
                                                by, i + 1, b, a));
              return;
            }
        }
      previous = value;
    }
  if (missing > 0)
    g_ptr_array_add (verdict->notes,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "%u item has no %s: left out of the order",
                                                   "%u items have no %s: left out of the order",
                                                   missing),
                                      missing, by));
}

DynoPatternVerdict *
dyno_access_pattern_judge (const DynoAccessPattern *pattern,
                           const DynoTableInfo     *schema,
                           GPtrArray               *items,
                           const DynoPatternRun    *run)
{
  DynoPatternVerdict *verdict = g_new0 (DynoPatternVerdict, 1);
  const DynoRequest *request = pattern->request;
  gboolean scan = request->operation == DYNO_OP_SCAN;
  double limit;

  verdict->problems = g_ptr_array_new_with_free_func (g_free);
  verdict->notes = g_ptr_array_new_with_free_func (g_free);
  if (request->index_name != NULL)
    verdict->plan = g_strdup_printf (scan ? _("Scan of index %s of %s")
                                          : _("Query on index %s of %s"),
                                     request->index_name, request->table_name);
  else
    verdict->plan = g_strdup_printf (scan ? _("Scan of %s") : _("Query on %s"),
                                     request->table_name);

  if (scan && !pattern->allow_scan)
    g_ptr_array_add (verdict->problems,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "it is a Scan: it read %llu item of the whole "
                                                   "table; a key or an index should serve it (or "
                                                   "say expect.scan: true)",
                                                   "it is a Scan: it read %llu items of the whole "
                                                   "table; a key or an index should serve it (or "
                                                   "say expect.scan: true)",
                                                   run->scanned),
                                      (unsigned long long) run->scanned));

  if (pattern->min_items >= 0 && run->items < (guint64) pattern->min_items)
    g_ptr_array_add (verdict->problems,
                     g_strdup_printf (_("%llu items returned; at least %lld expected"),
                                      (unsigned long long) run->items,
                                      (long long) pattern->min_items));
  if (pattern->max_items >= 0 && run->items > (guint64) pattern->max_items)
    g_ptr_array_add (verdict->problems,
                     g_strdup_printf (_("%llu items returned; at most %lld expected"),
                                      (unsigned long long) run->items,
                                      (long long) pattern->max_items));

  limit = pattern->max_read_per_item * (double) MAX (run->items, 1);
  if ((double) run->scanned > limit)
    g_ptr_array_add (verdict->problems,
                     g_strdup_printf (_("it read %llu items to return %llu (%.1f per item, at "
                                        "most %g expected): a filter is doing the work of a "
                                        "key"),
                                      (unsigned long long) run->scanned,
                                      (unsigned long long) run->items,
                                      (double) run->scanned / (double) MAX (run->items, 1),
                                      pattern->max_read_per_item));

  check_order (pattern, schema, items, verdict);

  if (!run->complete)
    g_ptr_array_add (verdict->notes,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "stopped after %u page: the figures are for "
                                                   "what was read",
                                                   "stopped after %u pages: the figures are for "
                                                   "what was read", run->pages),
                                      run->pages));

  verdict->passed = verdict->problems->len == 0;
  return verdict;
}
