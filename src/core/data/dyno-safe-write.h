/* dyno-safe-write.h: writes that never clobber silently (put-new, conditioned edits and
 * deletes) and the diff the conflict dialog shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-request.h"
#include "dyno-table-info.h"
#include "dyno-value.h"

G_BEGIN_DECLS

/* DynamoDB's limit on each expression string (dynamodb-facts.md: "Any expression string is
 * at most 4 KB"). */
#define DYNO_SAFE_WRITE_MAX_EXPRESSION_BYTES 4096
/* …and on the operators/functions of an UpdateExpression. */
#define DYNO_SAFE_WRITE_MAX_UPDATE_OPERATORS 300

/* How an edit was expressed. */
typedef enum {
  /* UpdateItem: SET the changed/added attributes, REMOVE the deleted ones, conditioned on
   * the item existing and every loaded attribute still having its loaded value. */
  DYNO_SAFE_WRITE_UPDATE,
  /* The UpdateExpression would exceed DynamoDB's limits: a PutItem of the whole edited item
   * with the same condition.  Only sound when @loaded was the whole item (not a
   * projection): a Put drops attributes the user never saw. */
  DYNO_SAFE_WRITE_PUT,
} DynoSafeWriteStrategy;

typedef struct {
  DynoSafeWriteStrategy strategy;
  /* TRUE when the condition covers every loaded attribute (a concurrent change to any of
   * them is detected).  FALSE when the condition had to be cut to fit 4 KB: then it covers
   * the version attribute (when there is one) and the attributes the edit changes. */
  gboolean              covers_all;
  gboolean              uses_version;  /* conditioned on (and incrementing) the version */
  guint                 n_conditioned; /* attributes compared in the condition */
  char                 *note;          /* for the UI when !covers_all or strategy == PUT */
} DynoSafeWriteInfo;

void dyno_safe_write_info_clear (DynoSafeWriteInfo *info);

typedef struct {
  /* A numeric attribute that every writer increments (optimistic locking), or NULL.  When
   * set, an edit conditions on its loaded value (attribute_not_exists when it was absent)
   * and sets it to that value + 1 (1 when absent); a put-new sets it to 1 when the item
   * has none. */
  const char         *version_attribute;
  /* Attributes the user saw as absent (e.g. empty columns of the table view): the edit is
   * also conditioned on attribute_not_exists for each of them. */
  const char * const *absent_attributes;
  /* For tests: a smaller limit than DynamoDB's 4096 bytes (0: DynamoDB's). */
  gsize               max_expression_bytes;
} DynoSafeWriteOptions;

/* PutItem of @item with attribute_not_exists(pk) [AND attribute_not_exists(sk)], so an
 * existing item with that key is never replaced (ConditionalCheckFailedException instead).
 * Errors: DYNO_ERROR_VALIDATION when @item lacks a key attribute.  @options may be NULL. */
DynoRequest *dyno_safe_write_put_new (const DynoTableInfo         *schema,
                                      DynoItem                    *item,
                                      const DynoSafeWriteOptions  *options,
                                      GError                     **error);

/* An edit of @loaded (the item as the user loaded it) into @edited.  The key must not have
 * changed (a new key is a put-new of the new item and a delete of the old one).  Errors:
 * DYNO_ERROR_VALIDATION for a changed or missing key, or when nothing changed.  @info (may
 * be NULL) tells how it was expressed; clear it with dyno_safe_write_info_clear().
 *
 * Overwrite after a conflict: call this again with the server's current item as @loaded
 * (the user's version wins, conditioned on what they have now seen). */
DynoRequest *dyno_safe_write_edit    (const DynoTableInfo         *schema,
                                      DynoItem                    *loaded,
                                      DynoItem                    *edited,
                                      const DynoSafeWriteOptions  *options,
                                      DynoSafeWriteInfo           *info,
                                      GError                     **error);

/* DeleteItem of @loaded's key, conditioned as an edit is (the item still exists with the
 * loaded values), so a concurrent change is not deleted unseen. */
DynoRequest *dyno_safe_write_delete  (const DynoTableInfo         *schema,
                                      DynoItem                    *loaded,
                                      const DynoSafeWriteOptions  *options,
                                      DynoSafeWriteInfo           *info,
                                      GError                     **error);

/* Just the key of @item per @schema (NULL + error when a key attribute is missing). */
DynoItem    *dyno_safe_write_extract_key (const DynoTableInfo  *schema,
                                          const DynoItem       *item,
                                          GError              **error);

/* ---- diff -------------------------------------------------------------------------------- */

typedef enum {
  DYNO_DIFF_ADDED,     /* only in the new item */
  DYNO_DIFF_REMOVED,   /* only in the old item */
  DYNO_DIFF_CHANGED,   /* in both, different values (or types) */
} DynoDiffKind;

typedef struct {
  char         *attribute;
  DynoDiffKind  kind;
  DynoValue    *old_value;   /* NULL for ADDED */
  DynoValue    *new_value;   /* NULL for REMOVED */
} DynoDiffEntry;

void       dyno_diff_entry_free (DynoDiffEntry  *entry);

/* Top-level attributes that differ between @old_item and @new_item (either may be NULL: an
 * absent item), sorted by attribute name (UTF-8 bytes).  A GPtrArray of DynoDiffEntry*. */
GPtrArray *dyno_item_diff       (const DynoItem *old_item,
                                 const DynoItem *new_item);

/* For the conflict dialog: the attributes that both the user (@loaded → @mine) and someone
 * else (@loaded → @theirs) changed, to different results.  Sorted names (a GStrv, empty
 * when the two edits touch different attributes and could both be kept). */
GStrv      dyno_item_conflicting_attributes (const DynoItem *loaded,
                                             const DynoItem *mine,
                                             const DynoItem *theirs);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoDiffEntry, dyno_diff_entry_free)

G_END_DECLS
