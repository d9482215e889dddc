/* dyno-query-draft.h: the Query or Scan being built, as one model
 *
 * A DynoQueryDraft holds what the builder form, the command line and a saved query say about
 * a read: the table or index, the key condition, the filter, the projection, the direction,
 * the limit, the consistency and how many items to fetch over all pages.  It is the one place
 * that turns that state into a DynoRequest (dyno_query_draft_to_request()) and a request back
 * into that state (dyno_query_draft_from_request(), the paste path).
 *
 * The key condition is held as an expression.  When it has the shape the form shows (the
 * partition key = a value, optionally AND one sort-key condition: = < <= > >= BETWEEN
 * begins_with, on S, N or B values), the draft also describes it by parts: the texts of the
 * values as a person types them (S as is, N as a decimal, B in base64) and the sort-key
 * operator ("key-condition-structured" is TRUE).  Setting a part rebuilds the expression from
 * the parts; setting the expression (text mode, the CLI, a pasted request) keeps it as given
 * (its placeholder names and parentheses too) and derives the parts when it has that shape.
 *
 * The key attribute names and types come from "table-info" (the table's or the chosen
 * index's key schema); without a schema they are read off the key condition's parts.
 *
 * Every setter that changes something notifies its property and emits "changed" once (one
 * emission for dyno_query_draft_from_request() and dyno_query_draft_load_json()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "dyno-expr.h"
#include "dyno-request.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

/* The sort-key half of a key condition, as the form offers it. */
typedef enum {
  DYNO_SORT_KEY_NONE,         /* no sort-key condition */
  DYNO_SORT_KEY_EQ,
  DYNO_SORT_KEY_LT,
  DYNO_SORT_KEY_LE,
  DYNO_SORT_KEY_GT,
  DYNO_SORT_KEY_GE,
  DYNO_SORT_KEY_BETWEEN,      /* two values */
  DYNO_SORT_KEY_BEGINS_WITH,
} DynoSortKeyOperator;

#define DYNO_TYPE_SORT_KEY_OPERATOR (dyno_sort_key_operator_get_type ())
GType dyno_sort_key_operator_get_type (void) G_GNUC_CONST;

/* "none", "=", "<", "<=", ">", ">=", "between", "begins_with" (the saved-query spelling) */
const char *dyno_sort_key_operator_to_string   (DynoSortKeyOperator  op);
gboolean    dyno_sort_key_operator_from_string (const char          *text,
                                                DynoSortKeyOperator *out);

/* The draft's field names, used as the keys of dyno_query_draft_dup_errors() and as the
 * DynoIssue fields of dyno_query_draft_validate(); each is the property that holds it. */
#define DYNO_DRAFT_FIELD_TABLE_NAME          "table-name"
#define DYNO_DRAFT_FIELD_INDEX_NAME          "index-name"
#define DYNO_DRAFT_FIELD_KEY_CONDITION       "key-condition"
#define DYNO_DRAFT_FIELD_PARTITION_KEY_TEXT  "partition-key-text"
#define DYNO_DRAFT_FIELD_SORT_KEY_TEXT       "sort-key-text"
#define DYNO_DRAFT_FIELD_SORT_KEY_TEXT2      "sort-key-text2"
#define DYNO_DRAFT_FIELD_FILTER              "filter"
#define DYNO_DRAFT_FIELD_PROJECTION          "projection"
#define DYNO_DRAFT_FIELD_LIMIT               "limit"
#define DYNO_DRAFT_FIELD_CONSISTENT_READ     "consistent-read"
#define DYNO_DRAFT_FIELD_SELECT              "select"
#define DYNO_DRAFT_FIELD_EXCLUSIVE_START_KEY "exclusive-start-key"
#define DYNO_DRAFT_FIELD_SEGMENT             "segment"
#define DYNO_DRAFT_FIELD_TOTAL_SEGMENTS      "total-segments"

/* The format of dyno_query_draft_to_json(); see dyno-query-draft.c for its description. */
#define DYNO_QUERY_DRAFT_FORMAT_VERSION 1

#define DYNO_TYPE_QUERY_DRAFT (dyno_query_draft_get_type ())
G_DECLARE_FINAL_TYPE (DynoQueryDraft, dyno_query_draft, DYNO, QUERY_DRAFT, GObject)

DynoQueryDraft      *dyno_query_draft_new                  (void);

/* DYNO_OP_QUERY (the default) or DYNO_OP_SCAN. */
DynoOperation        dyno_query_draft_get_operation        (DynoQueryDraft      *self);
void                 dyno_query_draft_set_operation        (DynoQueryDraft      *self,
                                                            DynoOperation        operation);
const char          *dyno_query_draft_get_table_name       (DynoQueryDraft      *self);
void                 dyno_query_draft_set_table_name       (DynoQueryDraft      *self,
                                                            const char          *table_name);
/* NULL: the table itself. */
const char          *dyno_query_draft_get_index_name       (DynoQueryDraft      *self);
void                 dyno_query_draft_set_index_name       (DynoQueryDraft      *self,
                                                            const char          *index_name);
/* The schema: key names and types, indexes; used by the parts and by validation.  May be
 * NULL (then schema rules are not checked). */
DynoTableInfo       *dyno_query_draft_get_table_info       (DynoQueryDraft      *self);
void                 dyno_query_draft_set_table_info       (DynoQueryDraft      *self,
                                                            DynoTableInfo       *info);

/* The key attributes of the target (the index's, or the table's), or NULL when unknown. */
const char          *dyno_query_draft_get_partition_key_name (DynoQueryDraft    *self);
const char          *dyno_query_draft_get_sort_key_name    (DynoQueryDraft      *self);

/* ---- key condition -------------------------------------------------------------------- */

/* The expression a Query sends, or NULL (none yet, or the parts are incomplete or wrong:
 * dyno_query_draft_validate() says why). */
const DynoExpr      *dyno_query_draft_get_key_condition    (DynoQueryDraft      *self);
/* Copies @expr (NULL clears it). */
void                 dyno_query_draft_set_key_condition    (DynoQueryDraft      *self,
                                                            const DynoExpr      *expr);
gboolean             dyno_query_draft_get_key_condition_structured (DynoQueryDraft *self);
/* When the parts describe the key condition, builds it from them from now on (as the form
 * does once a condition is shown in its fields): the placeholder names and parentheses it
 * was written with are dropped.  Nothing happens otherwise. */
void                 dyno_query_draft_take_key_from_parts  (DynoQueryDraft      *self);

const char          *dyno_query_draft_get_partition_key_text (DynoQueryDraft    *self);
void                 dyno_query_draft_set_partition_key_text (DynoQueryDraft    *self,
                                                              const char        *text);
DynoSortKeyOperator  dyno_query_draft_get_sort_key_operator (DynoQueryDraft     *self);
void                 dyno_query_draft_set_sort_key_operator (DynoQueryDraft     *self,
                                                             DynoSortKeyOperator op);
const char          *dyno_query_draft_get_sort_key_text    (DynoQueryDraft      *self);
void                 dyno_query_draft_set_sort_key_text    (DynoQueryDraft      *self,
                                                            const char          *text);
/* The upper bound of BETWEEN. */
const char          *dyno_query_draft_get_sort_key_text2   (DynoQueryDraft      *self);
void                 dyno_query_draft_set_sort_key_text2   (DynoQueryDraft      *self,
                                                            const char          *text);

/* ---- the rest of the read -------------------------------------------------------------- */

const DynoExpr      *dyno_query_draft_get_filter           (DynoQueryDraft      *self);
void                 dyno_query_draft_set_filter           (DynoQueryDraft      *self,
                                                            const DynoExpr      *expr);
/* DynoPath*, or NULL for every attribute. */
GPtrArray           *dyno_query_draft_get_projection       (DynoQueryDraft      *self);
void                 dyno_query_draft_set_projection       (DynoQueryDraft      *self,
                                                            GPtrArray           *paths);
/* ScanIndexForward (Query): UNSET sends nothing, FALSE reads newest first. */
DynoTristate         dyno_query_draft_get_scan_index_forward (DynoQueryDraft    *self);
void                 dyno_query_draft_set_scan_index_forward (DynoQueryDraft    *self,
                                                              DynoTristate       forward);
/* Limit per page; 0 = unset (below 0: kept, and reported by validation). */
gint64               dyno_query_draft_get_limit            (DynoQueryDraft      *self);
void                 dyno_query_draft_set_limit            (DynoQueryDraft      *self,
                                                            gint64               limit);
DynoTristate         dyno_query_draft_get_consistent_read  (DynoQueryDraft      *self);
void                 dyno_query_draft_set_consistent_read  (DynoQueryDraft      *self,
                                                            DynoTristate         consistent);
DynoSelect           dyno_query_draft_get_select           (DynoQueryDraft      *self);
void                 dyno_query_draft_set_select           (DynoQueryDraft      *self,
                                                            DynoSelect           select);
DynoReturnConsumedCapacity dyno_query_draft_get_return_consumed_capacity (DynoQueryDraft *self);
void                 dyno_query_draft_set_return_consumed_capacity (DynoQueryDraft *self,
                                                                    DynoReturnConsumedCapacity rcc);
DynoItem            *dyno_query_draft_get_exclusive_start_key (DynoQueryDraft   *self);
void                 dyno_query_draft_set_exclusive_start_key (DynoQueryDraft   *self,
                                                               DynoItem         *key);
/* Scan: a parallel scan's segment; -1 = unset (other values below 0 are kept, and reported by
 * validation). */
gint                 dyno_query_draft_get_segment          (DynoQueryDraft      *self);
void                 dyno_query_draft_set_segment          (DynoQueryDraft      *self,
                                                            gint                 segment);
gint                 dyno_query_draft_get_total_segments   (DynoQueryDraft      *self);
void                 dyno_query_draft_set_total_segments   (DynoQueryDraft      *self,
                                                            gint                 total);
/* Pages: how many items to fetch over all pages; 0 = every page.  Not part of the request. */
guint64              dyno_query_draft_get_max_items        (DynoQueryDraft      *self);
void                 dyno_query_draft_set_max_items        (DynoQueryDraft      *self,
                                                            guint64              max_items);

/* ---- conversions ----------------------------------------------------------------------- */

/* The request the draft describes, as far as it is complete (an incomplete key condition is
 * left out): check dyno_query_draft_validate() before sending it. */
DynoRequest         *dyno_query_draft_to_request           (DynoQueryDraft      *self);

/* Replaces the draft's state with @request's (table-info is kept).  Refuses, with
 * DYNO_ERROR_VALIDATION and a message naming what, a request the draft cannot hold: an
 * operation other than Query and Scan, a Key, Item, UpdateExpression, ConditionExpression or
 * ReturnValues, a key condition on a Scan.  On error the draft is unchanged. */
gboolean             dyno_query_draft_from_request         (DynoQueryDraft      *self,
                                                            const DynoRequest   *request,
                                                            GError             **error);

/* Loads a PartiQL SELECT into @self, replacing what it held (one "changed"; table-info is
 * kept): the table and index of FROM "table"."index", the projection, the WHERE split into a
 * key condition and a filter, ORDER BY … DESC as ScanIndexForward FALSE.  @parameters
 * (DynoValue*, may be NULL) bind the ? placeholders.  The table's key schema comes from the
 * draft's table-info, which the caller sets first to the table the statement reads (when it
 * is NULL or names another table, or the index is not in it, the key condition cannot be told
 * apart: the WHERE becomes a Scan's filter, still a correct read).
 *
 * DynamoDB runs a SELECT as a Query when a top-level AND term of the WHERE is an equality (or
 * a one-value IN) on the partition key: that term, and at most one sort-key term (= < <= > >=
 * BETWEEN begins_with against values; `sk >= a AND sk <= b` is read as BETWEEN), become the
 * key condition; the other terms, in their order, the filter.  Without such a term the read is
 * a Scan whose filter is the whole WHERE.
 *
 * Returns FALSE with DYNO_ERROR_UNSUPPORTED ("Not expressible in the query builder: …") for
 * what the builder cannot say: INSERT, UPDATE, DELETE; several partition key values (IN with
 * more than one, or an OR of equalities: PartiQL runs one Query per value); a term left for a
 * Query's filter that uses a key attribute (DynamoDB refuses it there); ORDER BY on a Scan or
 * on anything but the sort key; a projected nested path (PartiQL returns it as a top-level
 * attribute).  A statement that does not parse gives the parser's own error.  On error @self
 * is unchanged. */
gboolean             dyno_query_draft_load_partiql         (DynoQueryDraft      *self,
                                                            const char          *statement,
                                                            GPtrArray           *parameters,
                                                            GError             **error);

/* The problems of the draft, each a DynoIssue whose field is one of DYNO_DRAFT_FIELD_*
 * (or a request member name for the few that have no field); empty when it can be sent.
 * Incomplete parts ("Enter the partition key value (PK)") and values that do not read as
 * their key's type are reported on the part's field; then every rule of
 * dyno_request_validate() against the table info (key sizes, expression limits, …). */
GPtrArray           *dyno_query_draft_validate             (DynoQueryDraft      *self);
/* The same as a map: field -> GError* (DYNO_ERROR, DYNO_ERROR_VALIDATION; the messages of
 * one field joined by newlines). */
GHashTable          *dyno_query_draft_dup_errors           (DynoQueryDraft      *self);

/* Saved queries: a JSON object, versioned (DYNO_QUERY_DRAFT_FORMAT_VERSION), described at
 * the top of dyno-query-draft.c.  A saved query names its table: a draft without one is
 * written, but reading it back says the table is missing. */
char                *dyno_query_draft_to_json              (DynoQueryDraft      *self,
                                                            gboolean             pretty);
/* Replaces the draft's state (table-info is kept); refuses another format or a newer
 * version with a message saying so.  On error the draft is unchanged. */
gboolean             dyno_query_draft_load_json            (DynoQueryDraft      *self,
                                                            const char          *json,
                                                            gssize               len,
                                                            GError             **error);

G_END_DECLS
