/* dyno-transaction.h: the items of a TransactWriteItems or TransactGetItems request
 *
 * Each item is read as the request it stands for (Put as a PutItem, Update as an UpdateItem,
 * Delete and ConditionCheck as a DeleteItem with its condition, Get as a GetItem), so its
 * expressions are parsed and checked as one of those would be, and written back the same
 * way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "dyno-request.h"

G_BEGIN_DECLS

#define DYNO_TRANSACT_MAX_ITEMS 100

typedef enum {
  DYNO_TRANSACT_PUT,
  DYNO_TRANSACT_UPDATE,
  DYNO_TRANSACT_DELETE,
  DYNO_TRANSACT_CONDITION_CHECK,
  DYNO_TRANSACT_GET,
} DynoTransactAction;

/* "Put", "Update", "Delete", "ConditionCheck", "Get": the member names of the API */
const char *dyno_transact_action_to_string (DynoTransactAction action);

typedef struct {
  DynoTransactAction  action;
  DynoRequest        *request;
  /* ReturnValuesOnConditionCheckFailure was ALL_OLD (writes only) */
  gboolean            return_old_on_failure;
} DynoTransactItem;

void              dyno_transact_item_free (DynoTransactItem *item);

/* Reads the TransactItems array, or an object holding one ({"TransactItems": […]}, what
 * `aws dynamodb transact-write-items --cli-input-json` takes; its other members are
 * ignored).  @writes: Put/Update/Delete/ConditionCheck, else Get.  1 to 100 items; an item
 * holds exactly one action; a ConditionCheck has a ConditionExpression; no two items name
 * the same key of the same table.  Errors name the item: "TransactItems[2].Update: …", with
 * DYNO_ERROR_JSON, the expression parsers' codes, or DYNO_ERROR_VALIDATION.
 * Returns DynoTransactItem*, with dyno_transact_item_free() as the free function. */
GPtrArray        *dyno_transact_items_from_json (const char  *json,
                                                 gssize       len,
                                                 gboolean     writes,
                                                 GError     **error);

/* The request body: {"TransactItems": […], "ClientRequestToken": @token (writes, if not
 * NULL), "ReturnConsumedCapacity": "TOTAL"}. */
JsonNode         *dyno_transact_items_to_request (GPtrArray  *items,
                                                  const char *token);

G_END_DECLS
