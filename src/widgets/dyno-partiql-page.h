/* dyno-partiql-page.h: one tab: a PartiQL statement, its parameters, and the items it reads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-backend.h"
#include "dyno-connection.h"
#include "dyno-query-draft.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

#define DYNO_TYPE_PARTIQL_PAGE (dyno_partiql_page_get_type ())
G_DECLARE_FINAL_TYPE (DynoPartiqlPage, dyno_partiql_page, DYNO, PARTIQL_PAGE, GtkWidget)

/* A tab on @table_name of @connection, its editor holding `SELECT * FROM "table_name"`.
 * @info (may be NULL) names the keys, for grouping results and Open in Builder. */
DynoPartiqlPage *dyno_partiql_page_new           (DynoBackend     *backend,
                                                  DynoConnection  *connection,
                                                  const char      *table_name,
                                                  DynoTableInfo   *info);
/* Another tab with the same statement, parameters and options (not run). */
DynoPartiqlPage *dyno_partiql_page_duplicate     (DynoPartiqlPage *self);

/* The editor's text, replaced as one undoable step. */
void             dyno_partiql_page_set_statement (DynoPartiqlPage *self,
                                                  const char      *statement);
char            *dyno_partiql_page_dup_statement (DynoPartiqlPage *self);
/* Consistent Read and Limit per page (0: none), as a query carried them over. */
void             dyno_partiql_page_set_options   (DynoPartiqlPage *self,
                                                  gboolean         consistent,
                                                  gint64           limit);

/* The statement as a query draft (Open in Builder), or NULL when the builder cannot say it:
 * then the page shows why, under the editor. */
DynoQueryDraft  *dyno_partiql_page_dup_draft     (DynoPartiqlPage *self);

DynoBackend     *dyno_partiql_page_get_backend   (DynoPartiqlPage *self);
DynoConnection  *dyno_partiql_page_get_connection (DynoPartiqlPage *self);
const char      *dyno_partiql_page_get_table_name (DynoPartiqlPage *self);
DynoTableInfo   *dyno_partiql_page_get_table_info (DynoPartiqlPage *self);
/* "PartiQL · DynamoDB Local at http://localhost:8000" */
const char      *dyno_partiql_page_get_subtitle  (DynoPartiqlPage *self);
gboolean         dyno_partiql_page_get_loading   (DynoPartiqlPage *self);
void             dyno_partiql_page_focus_editor  (DynoPartiqlPage *self);

G_END_DECLS
