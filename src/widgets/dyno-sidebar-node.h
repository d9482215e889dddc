/* dyno-sidebar-node.h: one row of the sidebar tree (connection, table or index)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-backend.h"
#include "dyno-connection.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_SIDEBAR_CONNECTION,
  DYNO_SIDEBAR_TABLE,
  DYNO_SIDEBAR_INDEX,
  DYNO_SIDEBAR_MESSAGE,   /* "No tables", "Loading…", an error: not activatable */
} DynoSidebarNodeKind;

#define DYNO_TYPE_SIDEBAR_NODE (dyno_sidebar_node_get_type ())
G_DECLARE_FINAL_TYPE (DynoSidebarNode, dyno_sidebar_node, DYNO, SIDEBAR_NODE, GObject)

DynoSidebarNode     *dyno_sidebar_node_new_connection (DynoConnection  *connection);
DynoSidebarNode     *dyno_sidebar_node_new_table      (DynoSidebarNode *connection_node,
                                                       const char      *table_name);
DynoSidebarNode     *dyno_sidebar_node_new_index      (DynoSidebarNode *table_node,
                                                       const DynoIndexInfo *index);
DynoSidebarNode     *dyno_sidebar_node_new_message    (const char      *text,
                                                       gboolean         is_error);

/* Messages may offer one action (a button in the row): its label, detailed action name. */
const char          *dyno_sidebar_node_get_action_label  (DynoSidebarNode *self);
const char          *dyno_sidebar_node_get_action_name   (DynoSidebarNode *self);
GVariant            *dyno_sidebar_node_get_action_target (DynoSidebarNode *self);

DynoSidebarNodeKind  dyno_sidebar_node_get_kind       (DynoSidebarNode *self);
const char          *dyno_sidebar_node_get_title      (DynoSidebarNode *self);
const char          *dyno_sidebar_node_get_subtitle   (DynoSidebarNode *self);
gboolean             dyno_sidebar_node_get_is_error   (DynoSidebarNode *self);
/* The children (tables of a connection, indexes of a table), or NULL for leaves. */
GListModel          *dyno_sidebar_node_get_children   (DynoSidebarNode *self);

DynoConnection      *dyno_sidebar_node_get_connection (DynoSidebarNode *self);
/* NULL until the connection is open. */
DynoBackend         *dyno_sidebar_node_get_backend    (DynoSidebarNode *self);
/* For tables and indexes: the table's schema once described, else NULL. */
DynoTableInfo       *dyno_sidebar_node_get_table_info (DynoSidebarNode *self);
const char          *dyno_sidebar_node_get_table_name (DynoSidebarNode *self);
const char          *dyno_sidebar_node_get_index_name (DynoSidebarNode *self);
DynoSidebarNode     *dyno_sidebar_node_get_parent     (DynoSidebarNode *self);

/* Connection nodes: open the backend and list tables (then describe each table, so the
 * subtitles show the key schema).  Errors become a message child. */
void                 dyno_sidebar_node_refresh        (DynoSidebarNode *self,
                                                       GCancellable    *cancellable);
/* Connection nodes: the connection's settings changed (edited): its title and subtitle are
 * read again, the backend is made anew and the tables are listed again. */
void                 dyno_sidebar_node_reload         (DynoSidebarNode *self,
                                                       GCancellable    *cancellable);

/* The profile of a connection node that signs in through IAM Identity Center, or NULL. */
const char          *dyno_sidebar_node_get_sso_profile (DynoSidebarNode *self);

G_END_DECLS
