/* dyno-pattern-plan.h: which key of a table design serves an access pattern
 *
 * Before a table exists, its design can be read against the access patterns it must serve:
 * for each pattern, the key (the table's own or a secondary index's) whose partition key the
 * pattern fixes with "=", the key condition a Query on it would take, what would be left to
 * filter after reading, whether the items come in the order the pattern expects, and whether
 * the index holds the attributes the pattern returns.  A pattern no key can serve needs a
 * Scan, and the plan says why.
 *
 * The conditions read are the top-level AND terms of the pattern's key condition and filter
 * (a term under OR or NOT is only ever a filter); a term serves a key when it compares the
 * key attribute itself with a value of the key's type: "=" for a partition key; "=", "<",
 * "<=", ">", ">=", BETWEEN, or begins_with() (String and Binary keys) for a sort key.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-access-pattern.h"
#include "dyno-table-design.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_PATTERN_PLAN_QUERY,
  DYNO_PATTERN_PLAN_SCAN,
} DynoPatternPlanKind;

typedef struct {
  DynoPatternPlanKind  kind;
  char                *index_name;     /* Query on a secondary index, or NULL: the table */
  char                *key_condition;  /* Query: as DynamoDB takes it (names and values as
                                        * the printer aliases them); Scan: NULL */
  char                *filter;         /* the terms left to filter after reading, or NULL */
  gboolean             order_served;   /* the items come in the expected order (TRUE when
                                        * the pattern expects none) */
  gboolean             projection_served; /* the index holds what the pattern returns */
  char                *summary;        /* one sentence: "Query on index byStatus: …",
                                        * "Needs a Scan: …" */
  GPtrArray           *notes;          /* char*: worth knowing (filters, order, projection) */
} DynoPatternPlan;

void             dyno_pattern_plan_free        (DynoPatternPlan         *plan);

/* The best key of @design for @pattern: one that fixes its partition key first, then the one
 * that also serves a sort-key condition, keeps the expected order, and holds the returned
 * attributes; on a tie the index the pattern names, then the table, then indexes in design
 * order.  Never NULL. */
DynoPatternPlan *dyno_pattern_plan_for_design  (const DynoAccessPattern *pattern,
                                                DynoTableDesign         *design);

/* TRUE when the pattern's request reads the table @design describes (same table name). */
gboolean         dyno_pattern_reads_design     (const DynoAccessPattern *pattern,
                                                DynoTableDesign         *design);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoPatternPlan, dyno_pattern_plan_free)

G_END_DECLS
