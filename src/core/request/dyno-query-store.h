/* dyno-query-store.h: saved queries and the history of runs, per connection and table
 *
 * A DynoQueryStore keeps, for each (connection id, table name), two lists of DynoQueryEntry:
 * the saved queries (named, in the order the user gave them) and the history of runs (newest
 * first, at most DYNO_QUERY_STORE_MAX_HISTORY per table: the oldest runs drop off).  Each
 * entry holds a DynoQueryDraft, so any of them reopens in the builder as it was.
 *
 * Both lists are kept in one JSON file, by default $XDG_DATA_HOME/dynotable/queries.json
 * (format at the top of dyno-query-store.c and in the README), written atomically (a new
 * file renamed over the old one, so a crash leaves one or the other) and readable by its
 * owner only.  It holds no secrets: a connection is named by a key the caller chooses (the
 * app uses its endpoint, profile, region or id), never by its credentials.
 *
 * Changing a list does not write the file: call dyno_query_store_save().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-query-draft.h"

G_BEGIN_DECLS

/* History entries kept per (connection, table). */
#define DYNO_QUERY_STORE_MAX_HISTORY 100

/* The format of the file; see dyno-query-store.c. */
#define DYNO_QUERY_STORE_FORMAT_VERSION 1

#define DYNO_TYPE_QUERY_ENTRY (dyno_query_entry_get_type ())
G_DECLARE_FINAL_TYPE (DynoQueryEntry, dyno_query_entry, DYNO, QUERY_ENTRY, GObject)

/* The saved query's name; NULL for a history entry. */
const char     *dyno_query_entry_get_name     (DynoQueryEntry *self);
/* What the query says.  Owned by the entry: read it, or copy it into a form; do not change it. */
DynoQueryDraft *dyno_query_entry_get_draft    (DynoQueryEntry *self);
/* When it ran (history) or was saved, in UTC. */
GDateTime      *dyno_query_entry_get_when     (DynoQueryEntry *self);
/* History: what the run read.  Saved queries: 0, 0, -1. */
guint64         dyno_query_entry_get_n_items  (DynoQueryEntry *self);
guint64         dyno_query_entry_get_n_pages  (DynoQueryEntry *self);
/* Consumed read capacity units over all pages, or -1 when DynamoDB did not say. */
double          dyno_query_entry_get_rcu      (DynoQueryEntry *self);
/* TRUE when every word of @search (case and accents as typed are folded) is in the name,
 * the index name or a key value of the entry; an empty or NULL @search matches all. */
gboolean        dyno_query_entry_matches      (DynoQueryEntry *self,
                                               const char     *search);

#define DYNO_TYPE_QUERY_STORE (dyno_query_store_get_type ())
G_DECLARE_FINAL_TYPE (DynoQueryStore, dyno_query_store, DYNO, QUERY_STORE, GObject)

/* @path NULL: $XDG_DATA_HOME/dynotable/queries.json.  Empty until loaded. */
DynoQueryStore *dyno_query_store_new          (const char     *path);
const char     *dyno_query_store_get_path     (DynoQueryStore *self);

/* Reads the file (a missing file is an empty store).  A file that is not a store of this
 * format (bad JSON, a wrong member, a newer version) is moved aside, to
 * "queries.json.broken-YYYYMMDDTHHMMSSZ", and never overwritten: the error
 * (DYNO_ERROR_CONFIG) says what is wrong, where, and where the file now is; the store is
 * then empty and usable.  A file that cannot be read at all (permissions) is left in place
 * and the store refuses to save over it. */
gboolean        dyno_query_store_load         (DynoQueryStore  *self,
                                               GError         **error);
/* Writes the file atomically (mode 0600), creating its folder. */
gboolean        dyno_query_store_save         (DynoQueryStore  *self,
                                               GError         **error);
/* The whole file as it would be written. */
char           *dyno_query_store_to_json      (DynoQueryStore  *self);

/* The lists of one table, GListModels of DynoQueryEntry, owned by the store and kept up to
 * date (the same object each time).  @connection_id names the connection (any string
 * without secrets); NULL or "" for none. */
GListModel     *dyno_query_store_get_saved    (DynoQueryStore  *self,
                                               const char      *connection_id,
                                               const char      *table_name);
GListModel     *dyno_query_store_get_history  (DynoQueryStore  *self,
                                               const char      *connection_id,
                                               const char      *table_name);

/* Records a run at the top of the table's history (a copy of @draft); @when NULL: now.  The
 * oldest entries beyond DYNO_QUERY_STORE_MAX_HISTORY are dropped.  Returns the new entry
 * (owned by the store). */
DynoQueryEntry *dyno_query_store_add_history  (DynoQueryStore  *self,
                                               const char      *connection_id,
                                               const char      *table_name,
                                               DynoQueryDraft  *draft,
                                               guint64          n_items,
                                               guint64          n_pages,
                                               double           rcu,
                                               GDateTime       *when);
/* Saves a copy of @draft under @name (trimmed) at the end of the table's saved queries.
 * Errors (DYNO_ERROR_VALIDATION): an empty name, or a name the table already has (names
 * compare as typed, after trimming). */
DynoQueryEntry *dyno_query_store_save_query   (DynoQueryStore  *self,
                                               const char      *connection_id,
                                               const char      *table_name,
                                               const char      *name,
                                               DynoQueryDraft  *draft,
                                               GError         **error);
/* Moves the saved query at @from to @to (positions in the table's saved list); FALSE when
 * either is out of range. */
gboolean        dyno_query_store_move_saved   (DynoQueryStore  *self,
                                               const char      *connection_id,
                                               const char      *table_name,
                                               guint            from,
                                               guint            to);
gboolean        dyno_query_store_remove_saved (DynoQueryStore  *self,
                                               const char      *connection_id,
                                               const char      *table_name,
                                               guint            position);

G_END_DECLS
