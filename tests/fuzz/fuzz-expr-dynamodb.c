/* fuzz-expr-dynamodb.c: fuzzes the DynamoDB-syntax expression parsers, the printer and
 * validation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define FUZZ_EXPR_SYNTAX DYNO_SYNTAX_DYNAMODB
#define FUZZ_EXPR_DICTIONARY \
  " AND ", " OR ", "NOT ", " BETWEEN ", " IN ", "(", ")", ",", ".", "[", "]", "[0]", "=", "<>", \
  "<", "<=", ">", ">=", "+", "-", "#a", "#b", "#x", ":a", ":b", ":c", ":zz", "size(", \
  "attribute_exists(", "begins_with(", "contains(", "attribute_type(", "if_not_exists(", \
  "list_append(", "SET ", "REMOVE ", "ADD ", "DELETE ", "status", "pk", "sk", "`", "\"", "\\", \
  "1", "é", "\xff", " ", "((", "))", \

#include "fuzz-expr-common.h"
