/* dyno-pattern-check.h: one access pattern run against a connection and judged
 *
 * DescribeTable (once per table, kept in a cache the caller owns), the request checked against
 * the schema, every page read (up to a number of items), the verdict of
 * dyno_access_pattern_judge().  `dynotable-cli patterns check` and the app's Check Access
 * Patterns window both go through it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-access-pattern.h"
#include "dyno-backend.h"

G_BEGIN_DECLS

typedef struct {
  DynoPatternVerdict *verdict;   /* NULL when the pattern could not run */
  DynoPatternRun      run;       /* what was read (zeros when it could not run) */
  char               *error;     /* why it could not run (DescribeTable, the schema, the
                                  * server), one sentence; NULL when it ran */
} DynoPatternCheck;

void              dyno_pattern_check_free   (DynoPatternCheck        *check);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoPatternCheck, dyno_pattern_check_free)

/* @schemas: table name -> DynoTableInfo*, filled as tables are described (may be NULL).
 * Fails (GError) only when cancelled; any other failure is the check's error. */
void              dyno_pattern_check_async  (DynoBackend             *backend,
                                             const DynoAccessPattern *pattern,
                                             GHashTable              *schemas,
                                             guint64                  max_items,
                                             GCancellable            *cancellable,
                                             GAsyncReadyCallback      callback,
                                             gpointer                 user_data);
DynoPatternCheck *dyno_pattern_check_finish (DynoBackend             *backend,
                                             GAsyncResult            *result,
                                             GError                 **error);

G_END_DECLS
