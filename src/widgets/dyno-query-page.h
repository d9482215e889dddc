/* dyno-query-page.h: one tab: the builder form, the results, the code and the page ledger
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "dyno-backend.h"
#include "dyno-connection.h"
#include "dyno-partiql-page.h"
#include "dyno-query-draft.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

#define DYNO_TYPE_QUERY_PAGE (dyno_query_page_get_type ())
G_DECLARE_FINAL_TYPE (DynoQueryPage, dyno_query_page, DYNO, QUERY_PAGE, GtkWidget)

/* @info may be NULL while the table is being described; @index_name may be NULL. */
DynoQueryPage *dyno_query_page_new           (DynoBackend    *backend,
                                              DynoConnection *connection,
                                              const char     *table_name,
                                              DynoTableInfo  *info,
                                              const char     *index_name);
/* Another tab on the same table, with the same form contents. */
DynoQueryPage *dyno_query_page_duplicate     (DynoQueryPage  *self);
/* The builder's query in a new PartiQL tab on the same table: its statement, Limit and
 * Consistent Read.  When the form is not complete the tab starts from SELECT *; when PartiQL
 * cannot say the query, too, and @out_reason (may be NULL) says why. */
DynoPartiqlPage *dyno_query_page_new_partiql_page (DynoQueryPage *self,
                                                  char         **out_reason);
/* Shows @draft in the form (Open in Builder), replacing what it held. */
void           dyno_query_page_load_draft    (DynoQueryPage  *self,
                                              DynoQueryDraft *draft);
/* "pk S · sk S · DynamoDB Local · localhost:8000" */
const char    *dyno_query_page_get_subtitle  (DynoQueryPage  *self);
gboolean       dyno_query_page_get_loading   (DynoQueryPage  *self);
void           dyno_query_page_focus_form    (DynoQueryPage  *self);
/* The narrowest width at which the form and the results show side by side. */
int            dyno_query_page_get_side_by_side_width (DynoQueryPage *self);

G_END_DECLS
