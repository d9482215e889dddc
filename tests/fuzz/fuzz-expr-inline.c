/* fuzz-expr-inline.c: fuzzes the inline-syntax expression parsers and both printers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define FUZZ_EXPR_SYNTAX DYNO_SYNTAX_INLINE
#define FUZZ_EXPR_DICTIONARY \
  " AND ", " OR ", "NOT ", " BETWEEN ", " IN ", "(", ")", ",", ".", "[", "]", "[0]", "=", "<>", \
  "<", "<=", ">", ">=", "+", "-", "`a-b`", "`", "``", "\"", "\"x\"", "\\u00e9", "\\ud83d", \
  "\\n", "-1.5e3", "0.10", "1e999", "true", "false", "null", ":a", ":c", ":zz", \
  ":{\"B\":\"AA==\"}", ":{\"SS\":[\"a\"]}", ":{", "}", "size(", "size", "status", \
  "attribute_exists(", "begins_with(", "contains(", "attribute_type(", "if_not_exists(", \
  "list_append(", "SET ", "REMOVE ", "ADD ", "DELETE ", "1", "é", "\xff", " ", "((", "))", \

#include "fuzz-expr-common.h"
