/* dyno-cli-request.h: the request options that expr, the run commands and export share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "dyno-expr.h"
#include "dyno-query-draft.h"
#include "dyno-request.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

/* Every function here reports a problem itself, as "dynotable-cli: @prefix: OPTION: message"
 * on stderr (with the caret line under an expression's text), and returns FALSE. */

/* Appends one long option to @entries (a zero-terminated GArray of GOptionEntry). */
void        dyno_cli_add_option              (GArray              *entries,
                                              const char          *long_name,
                                              GOptionArg           arg,
                                              gpointer             data,
                                              const char          *description,
                                              const char          *arg_description);

/* "dynotable-cli: <prefix>: <context>: <message>" (@context may be NULL). */
void        dyno_cli_report                  (const char          *prefix,
                                              const char          *context,
                                              const char          *message);

/* A server or network error, with its request ID when the server gave one. */
void        dyno_cli_report_service_error    (const char          *prefix,
                                              const GError        *error);

/* The options that describe one request, which expr and the run commands share (the run
 * commands send it, expr emits it); NULL, G_MININT (--limit) or FALSE when not given. */
typedef struct {
  char     *key;                       /* --key (Query) */
  char     *index;                     /* --index */
  char     *filter;                    /* --filter */
  char     *project;                   /* --project */
  char     *condition;                 /* --condition */
  char     *update;                    /* --update */
  char     *key_item;                  /* --key-item */
  char     *item;                      /* --item */
  char     *start_key;                 /* --start-key */
  char     *values;                    /* --values */
  char     *select;                    /* --select */
  char     *return_consumed_capacity;  /* --return-consumed-capacity */
  char     *return_values;             /* --return-values */
  gboolean  desc;                      /* --desc */
  gboolean  consistent;                /* --consistent */
  gint      limit;                     /* --limit */
} DynoCliRequestOptions;

void        dyno_cli_request_options_clear   (DynoCliRequestOptions *o);

/* Appends the options of @o that a request for @op takes to @entries. */
void        dyno_cli_add_request_options     (GArray                *entries,
                                              DynoOperation          op,
                                              DynoCliRequestOptions *o);

/* --values: a JSON object of ":name": DynamoDB JSON value, into @values (":name" ->
 * DynoValue*). */
gboolean    dyno_cli_parse_values_option     (const char          *prefix,
                                              const char          *text,
                                              GHashTable          *values);

/* Like DynamoDB with ExpressionAttributeValues: a value of @values (may be NULL) that no
 * expression used (@used) is a mistake; all such are named. */
gboolean    dyno_cli_check_values_used       (const char          *prefix,
                                              GHashTable          *values,
                                              GHashTable          *used);

/* --key, --filter, --condition: @text in the inline syntax, as @role. */
gboolean    dyno_cli_parse_condition_option  (const char          *prefix,
                                              const char          *option,
                                              const char          *text,
                                              DynoExprRole         role,
                                              GHashTable          *values,
                                              GHashTable          *used,
                                              DynoExpr           **out);

/* --update */
gboolean    dyno_cli_parse_update_option     (const char          *prefix,
                                              const char          *text,
                                              GHashTable          *values,
                                              GHashTable          *used,
                                              DynoUpdate         **out);

/* --project: a GPtrArray of DynoPath. */
gboolean    dyno_cli_parse_projection_option (const char          *prefix,
                                              const char          *text,
                                              GHashTable          *used,
                                              GPtrArray          **out);

/* Attribute name -> DynoValueType (as a pointer) of the key attributes of @schema's table
 * and indexes, so that plain JSON "123" or "AQID" becomes the N or B a key needs.  Empty
 * when @schema is NULL. */
GHashTable *dyno_cli_schema_hints            (DynoTableInfo       *schema);

/* An item in DynamoDB JSON, or with @plain in plain JSON typed by @schema's keys. */
DynoItem   *dyno_cli_parse_item_text         (const char          *text,
                                              gssize               len,
                                              gboolean             plain,
                                              DynoTableInfo       *schema,
                                              GError             **error);

/* --key-item, --item, --start-key */
gboolean    dyno_cli_parse_item_option       (const char          *prefix,
                                              const char          *option,
                                              const char          *text,
                                              gboolean             plain,
                                              DynoTableInfo       *schema,
                                              DynoItem           **out);

/* --limit: @limit is G_MININT when not given (then @out is left alone). */
gboolean    dyno_cli_parse_limit_option      (const char          *prefix,
                                              gint                 limit,
                                              gint64              *out);

/* --select, --return-consumed-capacity, --return-values: any case, '-' for '_'; @text
 * NULL sets the UNSET value. */
gboolean    dyno_cli_parse_select_option     (const char          *prefix,
                                              const char          *text,
                                              DynoSelect          *out);
gboolean    dyno_cli_parse_consumed_option   (const char          *prefix,
                                              const char          *text,
                                              DynoReturnConsumedCapacity *out);
gboolean    dyno_cli_parse_return_values_option (const char       *prefix,
                                                 const char       *text,
                                                 DynoReturnValues *out);

/* ---- GetItem, PutItem, UpdateItem, DeleteItem --------------------------------------------- */

/* --update, --condition and --project into @request (whose key and item are not read here),
 * then the check that every --values placeholder was used, then --consistent,
 * --return-consumed-capacity and --return-values. */
gboolean    dyno_cli_item_request_options    (DynoRequest                 *request,
                                              const char                  *prefix,
                                              const DynoCliRequestOptions *o,
                                              GHashTable                  *values,
                                              GHashTable                  *used);

/* ---- Query and Scan: the options fill a DynoQueryDraft, which makes the request ---------- */

/* The read options the commands share; NULL, G_MININT or FALSE when not given. */
typedef struct {
  const char *key;        /* --key (Query) */
  const char *filter;     /* --filter */
  const char *project;    /* --project */
  gint        limit;      /* --limit */
  gboolean    desc;       /* --desc (Query) */
  gboolean    consistent; /* --consistent */
  const char *select;     /* --select */
  const char *consumed;   /* --return-consumed-capacity */
} DynoCliReadOptions;

/* The read options of @o. */
DynoCliReadOptions dyno_cli_request_options_read (const DynoCliRequestOptions *o);

/* A new draft for @op (DYNO_OP_QUERY or DYNO_OP_SCAN) on @table / @index (may be NULL). */
DynoQueryDraft *dyno_cli_read_draft_new      (DynoOperation              op,
                                              const char                *table,
                                              const char                *index);

/* --key, --filter, --project (in this order) into @draft, in the inline syntax with the
 * placeholders of @values (may be NULL); the placeholders used are added to @used. */
gboolean    dyno_cli_read_draft_expressions  (DynoQueryDraft            *draft,
                                              const char                *prefix,
                                              const DynoCliReadOptions  *options,
                                              GHashTable                *values,
                                              GHashTable                *used);

/* --limit, --desc, --consistent, --select, --return-consumed-capacity (in this order). */
gboolean    dyno_cli_read_draft_options      (DynoQueryDraft            *draft,
                                              const char                *prefix,
                                              const DynoCliReadOptions  *options);

G_END_DECLS
