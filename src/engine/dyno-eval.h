/* dyno-eval.h: DynamoDB's semantics for conditions, updates, projections and item sizes,
 * evaluated on core's values and expression AST
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-error.h"
#include "dyno-expr.h"
#include "dyno-value.h"

G_BEGIN_DECLS

/* Errors: DYNO_ERROR_VALIDATION with DynamoDB's ValidationException message (without the
 * "Invalid UpdateExpression: " style prefix unless DynamoDB itself puts one there: the
 * messages below are the full texts DynamoDB sends). */

/* Does @item (NULL = no item) satisfy @expr (a ConditionExpression, FilterExpression or
 * KeyConditionExpression)?  Returns FALSE with @error only for what DynamoDB rejects rather
 * than evaluates, which depends on the expression alone (dyno_eval_check_condition() runs
 * first): an operand written as a value of a type the operator or function cannot take
 * (`a < :map`, `begins_with(a, :n)`, `attribute_type(a, :bad)`), BETWEEN bounds of different
 * types or in the wrong order, the same path as first and later operand (`a <= a`).  A plain
 * mismatch, a missing attribute, or attribute values of types the operator cannot order are
 * *out_match = FALSE.  Semantics checked against DynamoDB Local 3.3.1 (tests/unit/test-eval.c,
 * tests/integration/test_eval_differential.py): <> is true for a missing operand and for
 * values of different types; size() of a string counts UTF-16 code units, of N, BOOL or NULL
 * makes the comparison false; contains() on a list compares whole elements (sets, lists and
 * maps too); numbers compare by value (1e2 = 100).
 * dyno_eval_condition_full()'s @role picks the prefix of those messages ("Invalid
 * FilterExpression: …"); dyno_eval_condition() uses DYNO_EXPR_ROLE_CONDITION. */
gboolean   dyno_eval_condition      (const DynoExpr   *expr,
                                     const DynoItem   *item,
                                     gboolean         *out_match,
                                     GError          **error);
gboolean   dyno_eval_condition_full (const DynoExpr   *expr,
                                     DynoExprRole      role,
                                     const DynoItem   *item,
                                     gboolean         *out_match,
                                     GError          **error);

/* Checks @expr once before any item is read (what DynamoDB validates on the request, not per
 * item; see dyno_eval_condition()), so that a Scan of an empty table still fails as DynamoDB's
 * would.  TRUE when valid. */
gboolean   dyno_eval_check_condition (const DynoExpr  *expr,
                                      DynoExprRole     role,
                                      GError         **error);

/* Applies an UpdateExpression (SET with +, -, if_not_exists, list_append, nested paths, list
 * indexes incl. appending past the end; REMOVE incl. list elements shifting; ADD on N and
 * sets, creating the attribute; DELETE from sets, removing an emptied set) to @item (NULL =
 * a new item holding only @key's attributes; @key may be NULL when @item is given).  Key
 * attributes are the top-level attributes of @key: updating one is refused.  Returns the
 * new item, or NULL and DYNO_ERROR_VALIDATION with DynamoDB's message, e.g.
 *   "The document path provided in the update expression is invalid for update"
 *   "An operand in the update expression has an incorrect data type"
 *   "Invalid UpdateExpression: Two document paths overlap with each other; must remove or
 *    rewrite one of these paths; path one: [a], path two: [a, b]"
 *   "One or more parameter values were invalid: Cannot update attribute pk. This attribute
 *    is part of the key"
 *   "The provided expression refers to an attribute that does not exist in the item"
 *   "Nesting Levels have exceeded supported limits"
 * Every operand reads the item as it was (SET a = :y, b = a gives b the old a); list indexes
 * are those of the list as it was (REMOVE a[0], a[1] removes two elements); SET past a list's
 * end appends, several such in index order; the fallback of if_not_exists() is evaluated even
 * when the path exists.  The item's size is not checked here: compare dyno_eval_item_size()
 * of the result with DYNO_EVAL_MAX_ITEM_SIZE ("Item size to update has exceeded the maximum
 * allowed size"). */
DynoItem  *dyno_eval_update         (const DynoUpdate *update,
                                     const DynoItem   *item,
                                     const DynoItem   *key,
                                     GError          **error);

/* Checks @update once before any item is read: overlapping or conflicting paths, operand
 * types fixed by the expression (ADD/DELETE values, + - and list_append on a literal of the
 * wrong type), if_not_exists(a, a), then key attributes (names in @key_names, NULL-terminated,
 * may be NULL).  TRUE when valid.  dyno_eval_update() runs it too. */
gboolean   dyno_eval_check_update   (const DynoUpdate *update,
                                     const char * const *key_names,
                                     GError          **error);

/* ProjectionExpression: only the listed paths (nested maps/lists kept in shape, list elements
 * compacted in index order as DynamoDB does).  Never NULL: an item with no projected
 * attribute is an empty item (DynamoDB then returns no Item / an empty map). */
DynoItem  *dyno_eval_project        (GPtrArray        *paths,
                                     const DynoItem   *item);

/* Checks a projection once: two overlapping or conflicting paths are DynamoDB's
 * "Invalid ProjectionExpression: Two document paths overlap with each other; …". */
gboolean   dyno_eval_check_projection (GPtrArray      *paths,
                                       GError        **error);

/* Item size by DynamoDB's rules (dynamodb-facts.md §3.4): the 400 KB limit, the 1 MB page
 * cut and consumed capacity. */
gsize      dyno_eval_item_size      (const DynoItem   *item);

/* DynamoDB's maximum item size in bytes (400 KB); an item of exactly this size is accepted. */
#define DYNO_EVAL_MAX_ITEM_SIZE 409600

/* Key order: S by UTF-8 bytes, N numerically, B by unsigned bytes (two values of one key
 * type; core's dyno_value_compare()). */
int        dyno_eval_key_compare    (const DynoValue  *a,
                                     const DynoValue  *b);

/* Resolves a document path in @item: NULL when any element is missing or of the wrong kind
 * (a name on a non-map, an index on a non-list or past its end).  Borrowed from @item. */
const DynoValue *dyno_eval_resolve_path (const DynoItem *item,
                                         const DynoPath *path);

G_END_DECLS
