/* dyno-text-match.h: does an item hold some text?  (the results' filter of loaded items)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-value.h"

G_BEGIN_DECLS

/* What a user types to narrow the loaded items: an item matches when one of its S or N values
 * (at any depth: in maps, lists and sets too) contains the text, ignoring case.  Attribute
 * names, binary values, booleans and nulls are not searched.  Case is ignored by Unicode
 * case folding; a text of ASCII only is searched without folding anything, byte by byte.
 * A matcher is immutable: one may be used from several threads at once. */
typedef struct _DynoTextMatcher DynoTextMatcher;

/* NULL when @text is empty (everything matches: there is nothing to search for). */
DynoTextMatcher *dyno_text_matcher_new         (const char            *text);
void             dyno_text_matcher_free        (DynoTextMatcher       *matcher);
const char      *dyno_text_matcher_get_text    (const DynoTextMatcher *matcher);
gboolean         dyno_text_matcher_match_value (const DynoTextMatcher *matcher,
                                                const DynoValue       *value);
gboolean         dyno_text_matcher_match_item  (const DynoTextMatcher *matcher,
                                                const DynoItem        *item);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoTextMatcher, dyno_text_matcher_free)

G_END_DECLS
