/* dyno-request.h: the builder's state as a DynamoDB request, and back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "dyno-expr.h"
#include "dyno-table-info.h"
#include "dyno-value.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_OP_QUERY,
  DYNO_OP_SCAN,
  DYNO_OP_GET_ITEM,
  DYNO_OP_PUT_ITEM,
  DYNO_OP_UPDATE_ITEM,
  DYNO_OP_DELETE_ITEM,
} DynoOperation;

/* "Query", "Scan", "GetItem", … (the X-Amz-Target suffix) */
const char *dyno_operation_to_string   (DynoOperation  op);
gboolean    dyno_operation_from_string (const char    *text,
                                        DynoOperation *out_op);

/* Unset fields are not emitted. */
typedef enum { DYNO_TRISTATE_UNSET = -1, DYNO_TRISTATE_FALSE = 0, DYNO_TRISTATE_TRUE = 1 } DynoTristate;

typedef enum {
  DYNO_SELECT_UNSET,
  DYNO_SELECT_ALL_ATTRIBUTES,
  DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES,
  DYNO_SELECT_SPECIFIC_ATTRIBUTES,
  DYNO_SELECT_COUNT,
} DynoSelect;

typedef enum {
  DYNO_CONSUMED_UNSET,
  DYNO_CONSUMED_NONE,
  DYNO_CONSUMED_TOTAL,
  DYNO_CONSUMED_INDEXES,
} DynoReturnConsumedCapacity;

typedef enum {
  DYNO_RETURN_VALUES_UNSET,
  DYNO_RETURN_VALUES_NONE,
  DYNO_RETURN_VALUES_ALL_OLD,
  DYNO_RETURN_VALUES_UPDATED_OLD,
  DYNO_RETURN_VALUES_ALL_NEW,
  DYNO_RETURN_VALUES_UPDATED_NEW,
} DynoReturnValues;

/* The API's spellings ("ALL_ATTRIBUTES", "TOTAL", "UPDATED_NEW", …); to_string returns NULL
 * for the UNSET values, from_string is exact (case-sensitive, as DynamoDB is). */
const char *dyno_select_to_string              (DynoSelect                  select);
gboolean    dyno_select_from_string            (const char                 *text,
                                                DynoSelect                 *out);
const char *dyno_consumed_capacity_to_string   (DynoReturnConsumedCapacity  rcc);
gboolean    dyno_consumed_capacity_from_string (const char                 *text,
                                                DynoReturnConsumedCapacity *out);
const char *dyno_return_values_to_string       (DynoReturnValues            rv);
gboolean    dyno_return_values_from_string     (const char                 *text,
                                                DynoReturnValues           *out);

/* The three enums above, for code that reads them the same way (request JSON, options). */
typedef enum {
  DYNO_REQUEST_ENUM_SELECT,
  DYNO_REQUEST_ENUM_RETURN_CONSUMED_CAPACITY,
  DYNO_REQUEST_ENUM_RETURN_VALUES,
} DynoRequestEnum;

/* @text (exact) as one of the first @n_values values of @which (0: any value; 3 for
 * DYNO_REQUEST_ENUM_RETURN_VALUES: UNSET, NONE or ALL_OLD, what a put or delete takes). */
gboolean    dyno_request_enum_from_string      (DynoRequestEnum             which,
                                                const char                 *text,
                                                guint                       n_values,
                                                int                        *out);

/* The spellings of the first @n_values values of @which (0: all), joined by ", ", for
 * messages: "NONE, TOTAL, INDEXES". */
char       *dyno_request_enum_list             (DynoRequestEnum             which,
                                                guint                       n_values);

typedef struct {
  DynoOperation               operation;
  char                       *table_name;
  char                       *index_name;            /* Query, Scan */
  DynoExpr                   *key_condition;         /* Query */
  DynoExpr                   *filter;                /* Query, Scan */
  GPtrArray                  *projection;            /* DynoPath*; Query, Scan, GetItem */
  DynoExpr                   *condition;             /* PutItem, UpdateItem, DeleteItem */
  DynoUpdate                 *update;                /* UpdateItem */
  DynoItem                   *key;                   /* GetItem, UpdateItem, DeleteItem */
  DynoItem                   *item;                  /* PutItem */
  DynoItem                   *exclusive_start_key;   /* Query, Scan */
  gint64                      limit;                 /* 0 = unset */
  DynoTristate                scan_index_forward;    /* Query */
  DynoTristate                consistent_read;       /* Query, Scan, GetItem */
  DynoSelect                  select;
  DynoReturnConsumedCapacity  return_consumed_capacity;
  DynoReturnValues            return_values;         /* Put, Update, Delete */
  gint                        segment;               /* Scan; -1 = unset */
  gint                        total_segments;        /* Scan; -1 = unset */
} DynoRequest;

DynoRequest *dyno_request_new  (DynoOperation      op,
                                const char        *table_name);
DynoRequest *dyno_request_copy (const DynoRequest *request);
void         dyno_request_free (DynoRequest       *request);
gboolean     dyno_request_equal (const DynoRequest *a,
                                 const DynoRequest *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoRequest, dyno_request_free)

/* Enum types, for properties that hold these (DynoQueryDraft). */
#define DYNO_TYPE_OPERATION (dyno_operation_get_type ())
GType dyno_operation_get_type (void) G_GNUC_CONST;
#define DYNO_TYPE_TRISTATE (dyno_tristate_get_type ())
GType dyno_tristate_get_type (void) G_GNUC_CONST;
#define DYNO_TYPE_SELECT (dyno_select_get_type ())
GType dyno_select_get_type (void) G_GNUC_CONST;
#define DYNO_TYPE_RETURN_CONSUMED_CAPACITY (dyno_return_consumed_capacity_get_type ())
GType dyno_return_consumed_capacity_get_type (void) G_GNUC_CONST;

/* The request as DynamoDB's API takes it (and `aws dynamodb <op> --cli-input-json`), with
 * the expressions printed by one DynoExprPrinter (readable placeholders, nothing unused).
 * Member order is stable: TableName, IndexName, Key/Item, KeyConditionExpression,
 * UpdateExpression, ConditionExpression, FilterExpression, ProjectionExpression,
 * ExpressionAttributeNames, ExpressionAttributeValues, then the options. */
JsonNode    *dyno_request_to_json_node (const DynoRequest *request);
char        *dyno_request_to_json      (const DynoRequest *request,
                                        gboolean           pretty);

/* Whether @key is a placeholder DynamoDB takes in ExpressionAttributeNames (@sigil '#') or
 * ExpressionAttributeValues (':'): @sigil, then one or more ASCII letters, digits or '_'. */
gboolean     dyno_request_is_placeholder (const char       *key,
                                          char              sigil);

/* Parses a request JSON (as --cli-input-json or an SDK takes it; the operation is given, or
 * guessed from the members when @op_hint is -1).  Expressions are parsed in DynamoDB syntax
 * with the request's maps; unknown members and unused placeholders are errors, as DynamoDB
 * would report them.
 *
 * The guess: KeyConditionExpression -> Query; UpdateExpression -> UpdateItem; Item ->
 * PutItem; Key with ConditionExpression or ReturnValues -> an error asking for the operation
 * (a DeleteItem and an UpdateItem without UpdateExpression look the same); Key otherwise ->
 * GetItem; ScanIndexForward -> Query; anything else -> Scan.
 *
 * Legacy parameters (KeyConditions, QueryFilter, ScanFilter, AttributesToGet, Expected,
 * AttributeUpdates, ConditionalOperator) are refused, naming the expression to use instead.
 * ReturnItemCollectionMetrics and ReturnValuesOnConditionCheckFailure are read only at their
 * default, "NONE".  Errors are DYNO_ERROR_JSON for text that is not a JSON object, the
 * parsers' codes for expressions, DYNO_ERROR_VALIDATION otherwise; every message names the
 * member. */
DynoRequest *dyno_request_from_json    (const char        *json,
                                        gssize             len,
                                        int                op_hint,
                                        GError           **error);

/* Like dyno_request_from_json(); when the error is in one of the expressions, also tells
 * which member (@out_member: "FilterExpression", a static string) and where in its text
 * (@out_location), so a caller can point at it.  Otherwise *@out_member is NULL.  Either
 * out argument may be NULL. */
DynoRequest *dyno_request_from_json_located (const char         *json,
                                             gssize              len,
                                             int                 op_hint,
                                             const char        **out_member,
                                             DynoParseLocation  *out_location,
                                             GError            **error);

/* The printed parts of a request, for the form's live output and for code generation. */
typedef struct {
  char      *key_condition;   /* NULL when absent */
  char      *filter;
  char      *projection;
  char      *condition;
  char      *update;
  GPtrArray *name_placeholders;  /* char*: "#status", … in first-use order */
  GPtrArray *names;              /* char*: the attribute names, parallel to the above */
  GPtrArray *value_placeholders; /* char*: ":pk", … */
  GPtrArray *values;             /* DynoValue*, owned, parallel to the above */
} DynoPrintedRequest;

DynoPrintedRequest *dyno_request_print       (const DynoRequest  *request);
void                dyno_printed_request_free (DynoPrintedRequest *printed);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoPrintedRequest, dyno_printed_request_free)

/* ---- validation (dyno-request-validate.c) ----------------------------------------------- */

/* One problem, attached to the field where the user entered the offending thing. */
typedef struct {
  char              *field;    /* "KeyConditionExpression", "IndexName", "Limit", "Key", … */
  char              *message;  /* a sentence a person understands, naming the field */
  gboolean           has_location;
  DynoParseLocation  location; /* into the field's text, when known */
} DynoIssue;

void        dyno_issue_free        (DynoIssue *issue);

/* Every rule of dynamodb-facts.md §2 that can be checked before sending: key-condition
 * shape, operators allowed on sort keys, begins_with not on N, BETWEEN bounds ordered and of
 * one type, value types matching the schema, non-empty keys and key size limits,
 * ConsistentRead on a GSI, filter naming a key attribute (Query), IN ≤ 100, path depth ≤ 32,
 * overlapping projection paths, Limit ≥ 1, Segment/TotalSegments, an unknown index; every
 * expression at most 4 KB as printed (what is sent) and 300 operators and functions; on an
 * index with a KEYS_ONLY or INCLUDE projection, a Query's filter (GSI and LSI) and a
 * projection (GSI) only on the attributes it carries.
 * @schema may be NULL (then the schema-dependent rules are skipped).
 * Returns a GPtrArray of DynoIssue* (empty when the request is valid). */
GPtrArray  *dyno_request_validate  (const DynoRequest   *request,
                                    const DynoTableInfo *schema);

G_END_DECLS
