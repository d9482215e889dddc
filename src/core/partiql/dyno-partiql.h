/* dyno-partiql.h: DynamoDB's PartiQL subset (SELECT, INSERT, UPDATE, DELETE), parsed into the
 * expression AST of dyno-expr.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-error.h"
#include "dyno-expr.h"
#include "dyno-value.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_PARTIQL_SELECT,
  DYNO_PARTIQL_INSERT,
  DYNO_PARTIQL_UPDATE,
  DYNO_PARTIQL_DELETE,
} DynoPartiqlKind;

typedef struct {
  DynoPartiqlKind  kind;
  char            *table;
  char            *index;       /* SELECT … FROM "table"."index", else NULL */
  GPtrArray       *projection;  /* SELECT: DynoPath*; NULL for SELECT * */
  DynoExpr        *where;       /* the WHERE condition, NULL without one */
  DynoUpdate      *update;      /* UPDATE: its SET and REMOVE clauses, in order */
  DynoValue       *item;        /* INSERT: the VALUE, an M */
  char            *order_by;    /* SELECT … ORDER BY name, else NULL */
  gboolean         descending;  /* … DESC */
  /* RETURNING ALL OLD * (UPDATE, DELETE): DynamoDB's ReturnValues spelling ("ALL_OLD",
   * "UPDATED_NEW", …), else NULL */
  char            *returning;
  guint            n_parameters; /* how many ? the statement has */
} DynoPartiqlStatement;

/* Parses @text, binding each `?` to the next of @parameters (DynoValue*, may be NULL for
 * none; too few is an error, more are not used).  Keywords are case-insensitive; names are
 * bare or "double quoted"; strings are 'single quoted' ('' is a quote); literals: numbers,
 * true, false, null, [lists], {'maps': 1}, <<sets>>.
 *
 * On error, DynamoDB's ValidationException text: DYNO_ERROR_SYNTAX for a statement that does
 * not parse ("Statement wasn't well formed, can't be processed: …", with where it is as
 * " (at column N)" at the end of the message, in @loc (may be NULL) and in the error's
 * location), DYNO_ERROR_VALIDATION for the other rules ("Number of parameters in request and
 * statement don't match.", "Unrecognized function: foo", …). */
DynoPartiqlStatement *dyno_partiql_parse          (const char           *text,
                                                   GPtrArray            *parameters,
                                                   DynoParseLocation    *loc,
                                                   GError              **error);
void                  dyno_partiql_statement_free (DynoPartiqlStatement *statement);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoPartiqlStatement, dyno_partiql_statement_free)

G_END_DECLS
