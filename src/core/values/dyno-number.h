/* dyno-number.h: exact decimal numbers with DynamoDB's precision and range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DYNO_NUMBER_MAX_DIGITS 38

/* Parses a decimal (optional sign, digits, optional fraction, optional exponent) and returns
 * DynamoDB's canonical form: plain positional notation, no leading zeros, no trailing
 * fractional zeros, no '+', zero as "0".  Rejects what DynamoDB rejects, with its meaning:
 * more than 38 significant digits, overflow (> 9.99…E+125), underflow (< 1E-130), not a
 * number.  Never goes through a double. */
char     *dyno_number_canonicalize (const char  *text,
                                    gssize       len,
                                    GError     **error);
gboolean  dyno_number_is_canonical (const char  *text);
/* Numeric comparison of two canonical numbers: <0, 0, >0. */
int       dyno_number_compare      (const char  *a,
                                    const char  *b);
/* Exact a + b and a - b on canonical numbers (for ADD and SET a + b); errors as above. */
char     *dyno_number_add          (const char  *a,
                                    const char  *b,
                                    GError     **error);
char     *dyno_number_subtract     (const char  *a,
                                    const char  *b,
                                    GError     **error);
/* Bytes the number occupies in an item (dynamodb-facts.md §3.4). */
gsize     dyno_number_get_size     (const char  *canonical);

G_END_DECLS
