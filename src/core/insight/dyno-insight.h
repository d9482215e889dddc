/* dyno-insight.h: reading overloaded keys (delimiters, entity prefixes) and capacity
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-value.h"

G_BEGIN_DECLS

/* The delimiter an overloaded key design uses, inferred from sampled key strings: the
 * character among '#', '|', ':', '/', '~', '_', '-', '.' that separates a non-empty leading
 * segment in the most keys (at least half of them); '\0' when no character does. */
char   dyno_insight_infer_delimiter (const char * const *keys,
                                     guint               n_keys);

/* The entity prefix of @key: its first segment when @key has @delimiter and the segment
 * looks like a type tag (starts with a letter; letters, digits and '_' only; at most 32
 * bytes).  "USER#u_3001" -> "USER", "root/photos/" -> "root" (with '/'), "u_3001" -> NULL. */
char  *dyno_insight_entity_prefix   (const char         *key,
                                     char                delimiter);

/* The segments of @key split at @delimiter (empty segments kept). */
GStrv  dyno_insight_split_key       (const char         *key,
                                     char                delimiter);

/* A stable colour slot (0..7) for an entity name, so USER is the same colour everywhere. */
guint  dyno_insight_entity_color    (const char         *entity);

/* Read capacity of items of these sizes (bytes) read together by one Query/Scan page:
 * ceil(Σ size / 4096) × (consistent ? 1 : 0.5), at least 0.5 / 1 (dynamodb-facts.md §4.2). */
double dyno_insight_query_rcu       (const gsize        *sizes,
                                     guint               n_sizes,
                                     gboolean            consistent);
/* The same items read one GetItem each: Σ ceil(size / 4096) × (consistent ? 1 : 0.5). */
double dyno_insight_get_item_rcu    (const gsize        *sizes,
                                     guint               n_sizes,
                                     gboolean            consistent);

G_END_DECLS
