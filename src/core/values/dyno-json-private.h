/* dyno-json-private.h: the hand-written JSON scanner shared by dyno-json.c and dyno-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "dyno-json.h"
#include "dyno-value.h"

G_BEGIN_DECLS

/* One step of the attribute path shown in error messages: a member name (raw JSON text
 * between the quotes) or a list index. */
typedef struct {
  const char *name;
  gsize       len;
  gsize       index;
} DynoJsonPathSeg;

typedef struct {
  const char *start;
  const char *p;
  const char *end;
  GString    *scratch;     /* decoded strings that had escapes */
  GString    *bin;         /* decoded base64 */
  DynoJsonPathSeg *path;   /* a plain stack: touched for every attribute */
  guint       path_len;
  guint       path_cap;
  gboolean    positions;   /* put line/column in messages */
  guint       depth;
  GError     *error;
  /* raw text (inside the quotes) of the last string read */
  const char *raw;
  gsize       raw_len;
} DynoJsonScanner;

#define DYNO_JSON_MAX_DEPTH DYNO_JSON_MAX_NESTING

void      _dyno_json_scanner_init     (DynoJsonScanner *sc,
                                       const char      *json,
                                       gsize            len);
void      _dyno_json_scanner_clear    (DynoJsonScanner *sc);

/* All of these return FALSE with sc->error set on failure. */
gboolean  _dyno_json_fail_syntax      (DynoJsonScanner *sc,
                                       const char      *format,
                                       ...) G_GNUC_PRINTF (2, 3);
/* A value DynamoDB would reject, found in the value that starts at @at. */
gboolean  _dyno_json_fail_value       (DynoJsonScanner *sc,
                                       const char      *at,
                                       const char      *format,
                                       ...) G_GNUC_PRINTF (3, 4);

static inline void
_dyno_json_skip_ws (DynoJsonScanner *sc)
{
  while (sc->p < sc->end &&
         (*sc->p == ' ' || *sc->p == '\n' || *sc->p == '\r' || *sc->p == '\t'))
    sc->p++;
}

/* Skips whitespace, then consumes @c or fails.  @what is translated only when it fails: pass
 * N_("…") (a _() argument would call gettext for every value parsed). */
gboolean  _dyno_json_expect_slow      (DynoJsonScanner *sc,
                                       char             c,
                                       const char      *what);

static inline gboolean
_dyno_json_expect (DynoJsonScanner *sc,
                   char             c,
                   const char      *what)
{
  if (G_LIKELY (sc->p < sc->end && *sc->p == c))
    {
      sc->p++;
      return TRUE;
    }
  return _dyno_json_expect_slow (sc, c, what);
}
/* Skips whitespace and peeks the next byte (0 at the end). */
static inline char
_dyno_json_peek (DynoJsonScanner *sc)
{
  _dyno_json_skip_ws (sc);
  return sc->p < sc->end ? *sc->p : '\0';
}

/* Reads a string at sc->p (after whitespace); *out is valid until the next string read. */
gboolean  _dyno_json_read_string      (DynoJsonScanner *sc,
                                       const char     **out,
                                       gsize           *out_len);
/* Reads a JSON number token; *out points into the input. */
gboolean  _dyno_json_read_number      (DynoJsonScanner *sc,
                                       const char     **out,
                                       gsize           *out_len);
gboolean  _dyno_json_skip_value       (DynoJsonScanner *sc);

/* After '{' or '[' was consumed and one element read: handles ',' or the closing byte.
 * Sets *more to TRUE when another element follows. */
gboolean  _dyno_json_next_slow        (DynoJsonScanner *sc,
                                       char             close,
                                       gboolean        *more);

static inline gboolean
_dyno_json_next (DynoJsonScanner *sc,
                 char             close,
                 gboolean        *more)
{
  if (G_LIKELY (sc->p < sc->end))
    {
      if (*sc->p == ',')
        {
          sc->p++;
          *more = TRUE;
          return TRUE;
        }
      if (*sc->p == close)
        {
          sc->p++;
          *more = FALSE;
          return TRUE;
        }
    }
  return _dyno_json_next_slow (sc, close, more);
}

/* DynamoDB JSON into a builder: one AttributeValue, or an item (a map of them). */
gboolean  _dyno_json_parse_ddb_value  (DynoJsonScanner  *sc,
                                       DynoValueBuilder *builder);
gboolean  _dyno_json_parse_ddb_item   (DynoJsonScanner  *sc,
                                       DynoValueBuilder *builder);

static inline void
_dyno_json_path_push (DynoJsonScanner *sc,
                      const char      *raw,
                      gsize            raw_len,
                      gsize            index)
{
  if (G_UNLIKELY (sc->path_len == sc->path_cap))
    {
      sc->path_cap = MAX (16, sc->path_cap * 2);
      sc->path = g_renew (DynoJsonPathSeg, sc->path, sc->path_cap);
    }
  sc->path[sc->path_len].name = raw;
  sc->path[sc->path_len].len = raw_len;
  sc->path[sc->path_len].index = index;
  sc->path_len++;
}

static inline void
_dyno_json_path_push_name (DynoJsonScanner *sc,
                           const char      *raw,
                           gsize            raw_len)
{
  _dyno_json_path_push (sc, raw, raw_len, 0);
}

static inline void
_dyno_json_path_push_index (DynoJsonScanner *sc,
                            gsize            index)
{
  _dyno_json_path_push (sc, NULL, 0, index);
}

/* Changes the index of the innermost step (a list position). */
static inline void
_dyno_json_path_set_index (DynoJsonScanner *sc,
                           gsize            index)
{
  sc->path[sc->path_len - 1].index = index;
}

static inline void
_dyno_json_path_pop (DynoJsonScanner *sc)
{
  sc->path_len--;
}

G_END_DECLS
