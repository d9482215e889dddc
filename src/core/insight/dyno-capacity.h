/* dyno-capacity.h: read and write units by DynamoDB's rules, and what a read will cost
 * before it runs
 *
 * The rules (dynamodb-facts.md §4): a read is rounded up to 4 KB blocks, one read unit per
 * block when strongly consistent and half of one when eventually consistent; a Query or Scan
 * page is one read over the items it *evaluates* (a filter or projection makes no
 * difference), and a page stops just after passing 1 MB or at Limit items.  Writes are
 * rounded up to 1 KB blocks.  Transactions cost twice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "dyno-request.h"
#include "dyno-table-info.h"

G_BEGIN_DECLS

#define DYNO_CAPACITY_PAGE_BYTES   1048576  /* a Query or Scan page reads up to 1 MB */
#define DYNO_CAPACITY_READ_BLOCK   4096
#define DYNO_CAPACITY_WRITE_BLOCK  1024

/* us-east-1, on-demand, standard table class (AWS's price list of November 2024): the
 * default the app offers; the user can enter their region's price. */
#define DYNO_CAPACITY_DEFAULT_USD_PER_MILLION_READS   0.125
#define DYNO_CAPACITY_DEFAULT_USD_PER_MILLION_WRITES  0.625

/* One read of @bytes (a GetItem, one Query or Scan page): whole 4 KB blocks, at least one. */
double   dyno_capacity_read_units      (guint64   bytes,
                                        gboolean  consistent);
/* One write of @bytes: whole 1 KB blocks, at least one. */
double   dyno_capacity_write_units     (guint64   bytes);

/* Where an estimate's item count and size come from, weakest last. */
typedef enum {
  DYNO_CAPACITY_BASIS_GIVEN,      /* the caller knows how many items the read evaluates */
  DYNO_CAPACITY_BASIS_SAMPLED,    /* counted among items already loaded from the table */
  DYNO_CAPACITY_BASIS_DESCRIBED,  /* DescribeTable's ItemCount and TableSizeBytes */
  DYNO_CAPACITY_BASIS_UNKNOWN,    /* nothing known: only the ceiling of one full page */
} DynoCapacityBasis;

typedef struct {
  DynoCapacityBasis basis;
  guint64  items;        /* items the read evaluates in all, before any filter */
  double   item_bytes;   /* their mean DynamoDB size */
  gboolean consistent;
  guint    limit;        /* Limit: items evaluated per page; 0 = none */
  gboolean upper_bound;  /* @items is at most this many (a sort-key condition not counted) */
} DynoReadShape;

typedef struct {
  DynoCapacityBasis basis;
  gboolean upper_bound;
  guint    pages;             /* 0 when unknown */
  guint64  items;
  guint64  bytes;
  double   first_page_units;  /* what the first page costs (the ceiling when unknown) */
  double   units;             /* all pages; 0 when unknown */
} DynoReadEstimate;

/* Pages, items and units of a Query or Scan that reads every page of @shape. */
void     dyno_capacity_estimate_read   (const DynoReadShape *shape,
                                        DynoReadEstimate    *out);

/* Items per page for items of @item_bytes (the item that passes 1 MB is still read). */
guint64  dyno_capacity_items_per_page  (double               item_bytes,
                                        guint                limit);

/* Units per month for @units per request at @requests_per_second, and its price at
 * @usd_per_million units.  A month is 730 hours, as AWS's calculator counts it. */
double   dyno_capacity_monthly_units   (double               units,
                                        double               requests_per_second);
double   dyno_capacity_monthly_cost    (double               units,
                                        double               requests_per_second,
                                        double               usd_per_million);

/* The shape of @request's read (a Query or Scan, on the table or an index):
 * - a Query counts the items of @sample (items of this table already loaded; may be NULL) that
 *   its key condition selects: the partition key's equality, and the sort-key condition
 *   (=, <, <=, >, >=, BETWEEN, begins_with) when it has one (SAMPLED);
 * - a Scan reads every item: ItemCount from @info, their size from TableSizeBytes or, when
 *   that is 0, from @sample (DESCRIBED); TotalSegments divides it;
 * - otherwise UNKNOWN.  Limit and ConsistentRead are taken from @request. */
void     dyno_capacity_shape_for_request (const DynoRequest   *request,
                                          const DynoTableInfo *info,
                                          GPtrArray           *sample,
                                          DynoReadShape       *out);

G_END_DECLS
