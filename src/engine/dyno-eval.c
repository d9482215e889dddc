/* dyno-eval.c: DynamoDB's semantics for conditions, updates, projections and item sizes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-eval.h"

gboolean
dyno_eval_condition (const DynoExpr *expr, const DynoItem *item, gboolean *out_match,
                     GError **error)
{
  return dyno_eval_condition_full (expr, DYNO_EXPR_ROLE_CONDITION, item, out_match, error);
}

gboolean
dyno_eval_condition_full (const DynoExpr *expr, DynoExprRole role, const DynoItem *item,
                          gboolean *out_match, GError **error)
{
  g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_FAILED, "not implemented yet");
  return FALSE;
}
