/* dyno-access-pattern.h: named queries a key schema must serve, and the verdict on a run
 *
 * An access pattern is a request (Query or Scan, as DynamoDB takes it) whose
 * ExpressionAttributeValues may leave some placeholders to parameters (":customerId"), with
 * example values for them, a description, and what its result must look like: the order of
 * the items, how many, and how many may be read for each one returned.
 *
 * A pattern set is a JSON file:
 *
 *   {
 *     "format": "dynotable-patterns",
 *     "version": 1,
 *     "patterns": [
 *       {
 *         "name": "orders-of-customer",
 *         "description": "Orders of a customer, newest first",
 *         "request": { "TableName": "Orders",
 *                      "KeyConditionExpression": "pk = :customerId AND begins_with(sk, :o)",
 *                      "ScanIndexForward": false,
 *                      "ExpressionAttributeValues": { ":o": { "S": "ORDER#" } } },
 *         "parameters": { ":customerId": { "S": "CUSTOMER#1" } },
 *         "expect": { "order": "descending", "by": "createdAt",
 *                     "minItems": 1, "maxItems": 100,
 *                     "maxReadPerItem": 5, "scan": false }
 *       }
 *     ]
 *   }
 *
 * Everything but "name" and "request" may be left out.  "order" is "ascending",
 * "descending" or "any" (the default), "by" the attribute it is about (default: the sort key
 * of the table or index read); "maxReadPerItem" defaults to
 * DYNO_ACCESS_PATTERN_DEFAULT_READ_PER_ITEM; "scan": true lets the pattern be a Scan.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-request.h"

G_BEGIN_DECLS

#define DYNO_ACCESS_PATTERNS_FORMAT          "dynotable-patterns"
#define DYNO_ACCESS_PATTERNS_FORMAT_VERSION  1
#define DYNO_ACCESS_PATTERN_DEFAULT_READ_PER_ITEM 5.0

typedef enum {
  DYNO_PATTERN_ORDER_ANY,
  DYNO_PATTERN_ORDER_ASCENDING,
  DYNO_PATTERN_ORDER_DESCENDING,
} DynoPatternOrder;

typedef struct {
  char             *name;
  char             *description;     /* or NULL */
  DynoRequest      *request;         /* with the parameters' values in place */
  GStrv             parameters;      /* the placeholders given by "parameters", sorted */
  DynoPatternOrder  order;
  char             *order_by;        /* or NULL: the sort key */
  gint64            min_items;       /* -1: no bound */
  gint64            max_items;       /* -1: no bound */
  double            max_read_per_item;
  gboolean          allow_scan;
} DynoAccessPattern;

void       dyno_access_pattern_free      (DynoAccessPattern *pattern);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoAccessPattern, dyno_access_pattern_free)

/* Reads a pattern set.  @overrides (may be NULL): placeholder ("…") -> DynoValue*, values
 * that replace the file's examples (a parameter the file does not declare is an error).
 * Errors (DYNO_ERROR_CONFIG, or the request's own codes) name the pattern and the member:
 * "patterns[2] (orders-of-customer): request: …".  Returns DynoAccessPattern* in file order,
 * with dyno_access_pattern_free() as the free function. */
GPtrArray *dyno_access_patterns_from_json (const char  *json,
                                           gssize       len,
                                           GHashTable  *overrides,
                                           GError     **error);

/* What a run of a pattern read (every page, or until it was stopped). */
typedef struct {
  guint64  items;       /* returned */
  guint64  scanned;     /* evaluated (ScannedCount) */
  guint    pages;
  double   rcu;         /* -1 when DynamoDB did not say */
  gboolean complete;    /* FALSE: stopped before the last page */
} DynoPatternRun;

typedef struct {
  gboolean   passed;
  char      *plan;      /* "Query on index byCustomer", "Scan of Orders" */
  GPtrArray *problems;  /* char*: why it failed, one sentence each */
  GPtrArray *notes;     /* char*: worth knowing, not failures */
} DynoPatternVerdict;

void                dyno_pattern_verdict_free (DynoPatternVerdict *verdict);

/* Judges a run: a Scan (unless allowed), items out of the expected order (@items: the
 * DynoItem* returned, in order), fewer or more items than expected, and more than
 * max_read_per_item items read for each returned (a filter doing a key's work). @schema (may
 * be NULL) names the sort key when "by" is not given. */
DynoPatternVerdict *dyno_access_pattern_judge (const DynoAccessPattern *pattern,
                                               const DynoTableInfo     *schema,
                                               GPtrArray               *items,
                                               const DynoPatternRun    *run);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoPatternVerdict, dyno_pattern_verdict_free)

G_END_DECLS
