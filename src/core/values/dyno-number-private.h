/* dyno-number-private.h: allocation-free canonicalisation for the JSON readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Longest canonical number plus NUL: "-0." + 129 zeros + 38 digits. */
#define DYNO_NUMBER_TEXT_MAX 176

/* Like dyno_number_canonicalize(), writing into @out (DYNO_NUMBER_TEXT_MAX bytes).
 * Returns the length, or -1 with @error set. */
gssize _dyno_number_canonicalize_into (const char  *text,
                                       gsize        len,
                                       char        *out,
                                       GError     **error);

G_END_DECLS
