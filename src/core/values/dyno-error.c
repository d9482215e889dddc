/* dyno-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-error.h"

G_DEFINE_QUARK (dyno-error-quark, dyno_error)
