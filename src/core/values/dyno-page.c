/* dyno-page.c: one page of Query/Scan results, parsed in one pass without a JSON tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-page.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json-private.h"
#include "dyno-value-private.h"

static gboolean
name_is (const char *name,
         gsize       len,
         const char *literal)
{
  gsize l = strlen (literal);

  return len == l && memcmp (name, literal, l) == 0;
}

static gboolean
read_count (DynoJsonScanner *sc,
            gint64          *out)
{
  const char *s;
  gsize len;
  char buf[32];
  char *end = NULL;
  const char *at;

  _dyno_json_skip_ws (sc);
  at = sc->p;
  if (!_dyno_json_read_number (sc, &s, &len))
    return FALSE;
  if (len >= sizeof buf)
    return _dyno_json_fail_value (sc, at, _("The count is not a whole number"));
  memcpy (buf, s, len);
  buf[len] = '\0';
  *out = g_ascii_strtoll (buf, &end, 10);
  if (end == NULL || *end != '\0' || *out < 0)
    return _dyno_json_fail_value (sc, at, _("The count is not a whole number"));
  return TRUE;
}

static gboolean
parse_items (DynoJsonScanner  *sc,
             DynoValueBuilder *builder,
             GPtrArray        *items)
{
  gboolean more;

  if (!_dyno_json_expect (sc, '[', N_("an array of items")))
    return FALSE;
  if (_dyno_json_peek (sc) == ']')
    {
      sc->p++;
      return TRUE;
    }

  do
    {
      /* The path's last step is the index of this item, for messages. */
      _dyno_json_path_set_index (sc, items->len);
      if (!_dyno_json_parse_ddb_item (sc, builder))
        return FALSE;
      g_ptr_array_add (items, _dyno_value_builder_finish_item (builder));
      if (!_dyno_json_next (sc, ']', &more))
        return FALSE;
    }
  while (more);

  return TRUE;
}

/* ConsumedCapacity: kept as sent, plus its CapacityUnits. */
static gboolean
parse_consumed_capacity (DynoJsonScanner *sc,
                         DynoPage        *page)
{
  const char *from;
  gboolean more;

  if (_dyno_json_peek (sc) != '{')
    {
      /* null, or something unexpected but well-formed: skip it. */
      return _dyno_json_skip_value (sc);
    }

  from = sc->p;
  sc->p++;
  if (_dyno_json_peek (sc) == '}')
    sc->p++;
  else
    do
      {
        const char *name;
        gsize len;

        if (!_dyno_json_read_string (sc, &name, &len) ||
            !_dyno_json_expect (sc, ':', "\u201c:\u201d"))
          return FALSE;
        if (name_is (name, len, "CapacityUnits") && _dyno_json_peek (sc) != '{' &&
            _dyno_json_peek (sc) != '[' && _dyno_json_peek (sc) != '"' &&
            _dyno_json_peek (sc) != 't' && _dyno_json_peek (sc) != 'f' &&
            _dyno_json_peek (sc) != 'n')
          {
            const char *s;
            gsize slen;
            char buf[64];

            if (!_dyno_json_read_number (sc, &s, &slen))
              return FALSE;
            slen = MIN (slen, sizeof buf - 1);
            memcpy (buf, s, slen);
            buf[slen] = '\0';
            page->consumed_capacity = g_ascii_strtod (buf, NULL);
          }
        else if (!_dyno_json_skip_value (sc))
          return FALSE;
        if (!_dyno_json_next (sc, '}', &more))
          return FALSE;
      }
    while (more);

  g_free (page->consumed_capacity_json);
  page->consumed_capacity_json = g_strndup (from, sc->p - from);
  return TRUE;
}

static gboolean
parse_page (DynoJsonScanner  *sc,
            DynoPage         *page,
            gboolean         *has_count,
            gboolean         *has_scanned)
{
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  gboolean more;
  g_autofree char *error_type = NULL;
  g_autofree char *error_message = NULL;

  if (!_dyno_json_expect (sc, '{', N_("a response object")))
    return FALSE;

  if (_dyno_json_peek (sc) == '}')
    sc->p++;
  else
    do
      {
        const char *name;
        gsize len;

        if (!_dyno_json_read_string (sc, &name, &len) ||
            !_dyno_json_expect (sc, ':', "\u201c:\u201d"))
          return FALSE;

        if (name_is (name, len, "Items"))
          {
            _dyno_json_path_push_name (sc, "Items", 5);
            _dyno_json_path_push_index (sc, 0);
            if (!parse_items (sc, builder, page->items))
              return FALSE;
            _dyno_json_path_pop (sc);
            _dyno_json_path_pop (sc);
          }
        else if (name_is (name, len, "Count"))
          {
            if (!read_count (sc, &page->count))
              return FALSE;
            *has_count = TRUE;
          }
        else if (name_is (name, len, "ScannedCount"))
          {
            if (!read_count (sc, &page->scanned_count))
              return FALSE;
            *has_scanned = TRUE;
          }
        else if (name_is (name, len, "LastEvaluatedKey"))
          {
            if (_dyno_json_peek (sc) == 'n')
              {
                if (!_dyno_json_skip_value (sc))
                  return FALSE;
              }
            else
              {
                _dyno_json_path_push_name (sc, "LastEvaluatedKey", 16);
                if (!_dyno_json_parse_ddb_item (sc, builder))
                  return FALSE;
                _dyno_json_path_pop (sc);
                g_clear_pointer (&page->last_evaluated_key, dyno_item_unref);
                page->last_evaluated_key = _dyno_value_builder_finish_item (builder);
              }
          }
        else if (name_is (name, len, "NextToken") && _dyno_json_peek (sc) == '"')
          {
            if (!_dyno_json_read_string (sc, &name, &len))
              return FALSE;
            g_free (page->next_token);
            page->next_token = g_strndup (name, len);
          }
        else if (name_is (name, len, "ConsumedCapacity"))
          {
            if (!parse_consumed_capacity (sc, page))
              return FALSE;
          }
        else if (name_is (name, len, "__type") && _dyno_json_peek (sc) == '"')
          {
            if (!_dyno_json_read_string (sc, &name, &len))
              return FALSE;
            g_free (error_type);
            error_type = g_strndup (name, len);
          }
        else if ((name_is (name, len, "message") || name_is (name, len, "Message")) &&
                 _dyno_json_peek (sc) == '"')
          {
            if (!_dyno_json_read_string (sc, &name, &len))
              return FALSE;
            g_free (error_message);
            error_message = g_strndup (name, len);
          }
        else if (!_dyno_json_skip_value (sc))
          return FALSE;

        if (!_dyno_json_next (sc, '}', &more))
          return FALSE;
      }
    while (more);

  _dyno_json_skip_ws (sc);
  if (sc->p != sc->end)
    return _dyno_json_fail_syntax (sc, _("unexpected text after the end of the document"));

  /* An error body handed to the page parser by mistake must not look like an empty page. */
  if (error_type != NULL)
    {
      sc->error = g_error_new (DYNO_ERROR, DYNO_ERROR_SERVICE,
                               /* Translators: the error type, then ": " and its message, or
                                * nothing. */
                               _("The response is an error, not a page: %s%s%s"),
                               error_type,
                               error_message ? ": " : "",
                               error_message ? error_message : "");
      return FALSE;
    }

  return TRUE;
}

DynoPage *
dyno_page_parse (const char  *json,
                 gsize        len,
                 GError     **error)
{
  DynoJsonScanner sc;
  DynoPage *page;
  gboolean has_count = FALSE, has_scanned = FALSE;

  g_return_val_if_fail (json != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  page = g_new0 (DynoPage, 1);
  page->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  page->consumed_capacity = -1;
  page->bytes = len;

  _dyno_json_scanner_init (&sc, json != NULL ? json : "", len);
  if (!parse_page (&sc, page, &has_count, &has_scanned))
    {
      g_propagate_error (error, g_steal_pointer (&sc.error));
      _dyno_json_scanner_clear (&sc);
      dyno_page_free (page);
      return NULL;
    }
  _dyno_json_scanner_clear (&sc);

  /* Without Count (never seen from DynamoDB) the items are the count; without ScannedCount
   * nothing was filtered out that we know of. */
  if (!has_count)
    page->count = page->items->len;
  if (!has_scanned)
    page->scanned_count = page->count;

  return page;
}

void
dyno_page_free (DynoPage *page)
{
  if (page == NULL)
    return;

  g_clear_pointer (&page->items, g_ptr_array_unref);
  g_clear_pointer (&page->last_evaluated_key, dyno_item_unref);
  g_free (page->next_token);
  g_free (page->consumed_capacity_json);
  g_free (page);
}
