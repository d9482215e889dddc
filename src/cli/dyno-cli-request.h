/* dyno-cli-request.h: the request options that expr, the run commands and export share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "dyno-expr.h"
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

G_END_DECLS
