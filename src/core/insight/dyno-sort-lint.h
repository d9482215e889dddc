/* dyno-sort-lint.h: where a key lands in its collection, and keys whose form breaks the
 * intended order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-table-info.h"
#include "dyno-value.h"

G_BEGIN_DECLS

typedef enum {
  /* INVOICE#9 vs INVOICE#10: digits compare character by character */
  DYNO_SORT_LINT_UNPADDED_NUMBER,
  /* 6/23/2026, 23-06-2026, 2026-6-3, Jun 23 2026: not year-month-day with padded fields */
  DYNO_SORT_LINT_NON_ISO_DATE,
  /* USER#1 vs USER|2 */
  DYNO_SORT_LINT_MIXED_DELIMITERS,
  /* USER vs USERGROUP: begins_with(sk, "USER") matches both */
  DYNO_SORT_LINT_PREFIX_OF_OTHER_ENTITY,
  /* a random (v4) or v1 UUID where order was probably meant */
  DYNO_SORT_LINT_RAW_UUID,
  /* user#1 vs USER#2: every upper-case letter sorts before every lower-case one */
  DYNO_SORT_LINT_MIXED_CASE,
  /* 2026-06-23T09:00Z vs 2026-06-23T10:00+02:00: offsets do not sort as instants */
  DYNO_SORT_LINT_MIXED_TIME_ZONES,
} DynoSortLintKind;

typedef struct {
  DynoSortLintKind  kind;
  char             *key;       /* the key the warning is about */
  gsize             offset;    /* the offending part of @key (bytes), for highlighting */
  gsize             length;
  char             *other;     /* a sample key it conflicts with, or NULL */
  char             *message;   /* a sentence a person understands, with the fix */
} DynoSortLint;

void        dyno_sort_lint_free    (DynoSortLint *lint);
const char *dyno_sort_lint_kind_to_string (DynoSortLintKind kind); /* "unpadded-number", … */

/* Warnings about the string key @key given sample keys of the same attribute (the other
 * sort keys of its collection, or of its entity; may be empty).  @delimiter: '\0' to infer
 * it (dyno_insight_infer_delimiter).  @is_sort_key: the UUID and date warnings matter only
 * where order matters (a sort key); a partition key gets the delimiter, case and prefix
 * ones.  A GPtrArray of DynoSortLint*, empty when the key is fine. */
GPtrArray  *dyno_sort_lint_check   (const char          *key,
                                    const char * const  *samples,
                                    guint                n_samples,
                                    char                 delimiter,
                                    gboolean             is_sort_key);

/* Where a new item lands in its item collection. */
typedef struct {
  guint      position;        /* index among the collection's items sorted by sort key
                               * (DynamoDB order): the new item goes before the item
                               * that is now at @position */
  guint      n_items;         /* items of the collection among the samples */
  gboolean   replaces;        /* an item with the same key is among the samples */
  DynoItem  *before;          /* the neighbours (ref), NULL at an end */
  DynoItem  *after;
  GPtrArray *lints;           /* DynoSortLint*: sort key and partition key warnings */
} DynoSortPlacement;

void        dyno_sort_placement_free (DynoSortPlacement *placement);

/* @item against @samples (DynoItem*, may hold items of other partitions: only those with
 * @item's partition key value count as its collection, but every sample's sort key is a
 * sample for the lints).  @index_name: NULL for the table's key, else a GSI/LSI (an item
 * without the index's keys is not in it: position 0 of an empty collection and no lints).
 * NULL + DYNO_ERROR_VALIDATION when @item lacks the key or the index does not exist. */
DynoSortPlacement *dyno_sort_lint_place_item (const DynoTableInfo  *schema,
                                              const char           *index_name,
                                              DynoItem             *item,
                                              GPtrArray            *samples,
                                              GError              **error);

/* Index where @key would be inserted among @sorted (ascending DynamoDB order, all of one
 * type), after any equal keys; *@out_equal (may be NULL) tells whether one is equal. */
guint       dyno_sort_lint_insertion_index (const DynoValue * const *sorted,
                                            guint                    n_sorted,
                                            const DynoValue         *key,
                                            gboolean                *out_equal);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoSortLint, dyno_sort_lint_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoSortPlacement, dyno_sort_placement_free)

G_END_DECLS
