/* dyno-statement.h: a PartiQL statement (ExecuteStatement) with its parameters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "dyno-request.h"
#include "dyno-value.h"

G_BEGIN_DECLS

typedef struct {
  char         *statement;
  GPtrArray    *parameters;       /* DynoValue* (owned), or NULL for none */
  DynoTristate  consistent_read;  /* as in dyno-request.h */
  gint64        limit;            /* 0: unset */
} DynoStatement;

#define DYNO_TYPE_STATEMENT (dyno_statement_get_type ())
GType          dyno_statement_get_type     (void) G_GNUC_CONST;

DynoStatement *dyno_statement_new          (const char          *statement);
DynoStatement *dyno_statement_copy         (const DynoStatement *self);
void           dyno_statement_free         (DynoStatement       *self);

/* The ExecuteStatement body: Statement, Parameters, ConsistentRead, Limit, NextToken (when
 * @next_token non-NULL) and ReturnConsumedCapacity TOTAL. */
JsonNode      *dyno_statement_to_json_node (const DynoStatement *self,
                                            const char          *next_token);
/* SELECT (after blanks and opening parentheses, case-insensitive): pages; else runs once. */
gboolean       dyno_statement_is_select    (const DynoStatement *self);
/* The ? placeholders outside 'strings' and "identifiers". */
guint          dyno_statement_count_placeholders (const DynoStatement *self);
/* Parameters as a user types them: a JSON array of DynamoDB JSON values
 * ([{"S": "C#1"}, {"N": "3"}]); "" or blanks: none (returns an empty array).  Errors say
 * which parameter and why ("parameter 2: …"), in DYNO_ERROR.  A GPtrArray of DynoValue*
 * that frees them. */
GPtrArray     *dyno_statement_parse_parameters (const char      *json,
                                                GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoStatement, dyno_statement_free)

G_END_DECLS
