/* test-request.c: requests <-> DynamoDB request JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-expr.h"
#include "dyno-json.h"
#include "dyno-request.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static DynoRequest *
parse_ok (const char *json,
          int         op_hint)
{
  g_autoptr(GError) error = NULL;
  DynoRequest *request = dyno_request_from_json (json, -1, op_hint, &error);

  if (request == NULL)
    g_error ("could not read %s: %s", json, error->message);

  return request;
}

static DynoExpr *
inline_condition (const char   *text,
                  DynoExprRole  role)
{
  g_autoptr(GError) error = NULL;
  DynoExpr *expr = dyno_expr_parse_condition (text, DYNO_SYNTAX_INLINE, role, NULL, NULL, NULL,
                                              NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (expr);
  return expr;
}

static DynoItem *
ddb_item (const char *json)
{
  g_autoptr(GError) error = NULL;
  DynoItem *item = dyno_item_from_ddb_json (json, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (item);
  return item;
}

/* The member names of a JSON object text, in order, joined by ','. */
static char *
member_list (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) members = NULL;
  GString *out = g_string_new (NULL);

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  members = json_object_get_members (json_node_get_object (json_parser_get_root (parser)));
  for (GList *l = members; l != NULL; l = l->next)
    {
      if (out->len > 0)
        g_string_append_c (out, ',');
      g_string_append (out, l->data);
    }

  return g_string_free (out, FALSE);
}

static JsonObject *
parse_object (JsonParser *parser,
              const char *json)
{
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}

/* A request with every field set, so each operation's output shows exactly its members. */
static DynoRequest *
full_request (DynoOperation op)
{
  DynoRequest *r = dyno_request_new (op, "Files");
  g_autoptr(GError) error = NULL;

  r->index_name = g_strdup ("gsi1");
  r->key_condition = inline_condition ("PK = \"DRIVE#a91\" AND begins_with(SK, \"root/\")",
                                       DYNO_EXPR_ROLE_KEY_CONDITION);
  r->filter = inline_condition ("status = \"open\"", DYNO_EXPR_ROLE_FILTER);
  r->condition = inline_condition ("attribute_exists(PK)", DYNO_EXPR_ROLE_CONDITION);
  r->projection = dyno_expr_parse_projection ("name, size, SK", DYNO_SYNTAX_INLINE, NULL, NULL,
                                              NULL, &error);
  g_assert_no_error (error);
  r->update = dyno_expr_parse_update ("SET views = views + 1 REMOVE tmp", DYNO_SYNTAX_INLINE,
                                      NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  r->key = ddb_item ("{\"PK\":{\"S\":\"DRIVE#a91\"},\"SK\":{\"S\":\"root/\"}}");
  r->item = ddb_item ("{\"PK\":{\"S\":\"DRIVE#a91\"},\"SK\":{\"S\":\"root/a\"},"
                      "\"size\":{\"N\":\"12\"}}");
  r->exclusive_start_key = ddb_item ("{\"PK\":{\"S\":\"DRIVE#a91\"},\"SK\":{\"S\":\"root/b\"}}");
  r->limit = 25;
  r->scan_index_forward = DYNO_TRISTATE_FALSE;
  r->consistent_read = DYNO_TRISTATE_TRUE;
  r->select = DYNO_SELECT_SPECIFIC_ATTRIBUTES;
  r->return_consumed_capacity = DYNO_CONSUMED_TOTAL;
  r->return_values = DYNO_RETURN_VALUES_ALL_OLD;
  r->segment = 1;
  r->total_segments = 4;

  return r;
}

/* ---- enums ------------------------------------------------------------------------------ */

static void
test_enums (void)
{
  static const char * const ops[] = {
    "Query", "Scan", "GetItem", "PutItem", "UpdateItem", "DeleteItem",
  };
  DynoOperation op;
  DynoSelect select;
  DynoReturnConsumedCapacity rcc;
  DynoReturnValues rv;

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      g_assert_true (dyno_operation_from_string (ops[i], &op));
      g_assert_cmpint (op, ==, i);
      g_assert_cmpstr (dyno_operation_to_string (op), ==, ops[i]);
    }
  g_assert_false (dyno_operation_from_string ("query", &op));
  g_assert_false (dyno_operation_from_string ("BatchGetItem", &op));
  g_assert_false (dyno_operation_from_string (NULL, &op));

  g_assert_true (dyno_select_from_string ("COUNT", &select));
  g_assert_cmpint (select, ==, DYNO_SELECT_COUNT);
  g_assert_cmpstr (dyno_select_to_string (DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES), ==,
                   "ALL_PROJECTED_ATTRIBUTES");
  g_assert_null (dyno_select_to_string (DYNO_SELECT_UNSET));
  g_assert_false (dyno_select_from_string ("count", &select));

  g_assert_true (dyno_consumed_capacity_from_string ("INDEXES", &rcc));
  g_assert_cmpint (rcc, ==, DYNO_CONSUMED_INDEXES);
  g_assert_cmpstr (dyno_consumed_capacity_to_string (DYNO_CONSUMED_NONE), ==, "NONE");

  g_assert_true (dyno_return_values_from_string ("UPDATED_NEW", &rv));
  g_assert_cmpint (rv, ==, DYNO_RETURN_VALUES_UPDATED_NEW);
  g_assert_cmpstr (dyno_return_values_to_string (DYNO_RETURN_VALUES_ALL_OLD), ==, "ALL_OLD");
  g_assert_false (dyno_return_values_from_string ("", &rv));
}

/* ---- new / copy / equal ----------------------------------------------------------------- */

static void
test_new_defaults (void)
{
  g_autoptr(DynoRequest) r = dyno_request_new (DYNO_OP_SCAN, "T1");
  g_autofree char *json = NULL;

  g_assert_cmpint (r->operation, ==, DYNO_OP_SCAN);
  g_assert_cmpstr (r->table_name, ==, "T1");
  g_assert_cmpint (r->limit, ==, 0);
  g_assert_cmpint (r->scan_index_forward, ==, DYNO_TRISTATE_UNSET);
  g_assert_cmpint (r->consistent_read, ==, DYNO_TRISTATE_UNSET);
  g_assert_cmpint (r->segment, ==, -1);
  g_assert_cmpint (r->total_segments, ==, -1);

  /* Unset fields are not emitted. */
  json = dyno_request_to_json (r, FALSE);
  g_assert_cmpstr (json, ==, "{\"TableName\":\"T1\"}");
}

typedef void (*Mutator) (DynoRequest *r);

static void mut_table (DynoRequest *r) { g_free (r->table_name); r->table_name = g_strdup ("x"); }
static void mut_index (DynoRequest *r) { g_free (r->index_name); r->index_name = NULL; }
static void mut_limit (DynoRequest *r) { r->limit = 26; }
static void mut_forward (DynoRequest *r) { r->scan_index_forward = DYNO_TRISTATE_TRUE; }
static void mut_consistent (DynoRequest *r) { r->consistent_read = DYNO_TRISTATE_UNSET; }
static void mut_select (DynoRequest *r) { r->select = DYNO_SELECT_COUNT; }
static void mut_rcc (DynoRequest *r) { r->return_consumed_capacity = DYNO_CONSUMED_INDEXES; }
static void mut_rv (DynoRequest *r) { r->return_values = DYNO_RETURN_VALUES_NONE; }
static void mut_segment (DynoRequest *r) { r->segment = 2; }
static void mut_total (DynoRequest *r) { r->total_segments = 5; }
static void mut_op (DynoRequest *r) { r->operation = DYNO_OP_SCAN; }
static void
mut_filter (DynoRequest *r)
{
  dyno_expr_free (r->filter);
  r->filter = inline_condition ("status = \"closed\"", DYNO_EXPR_ROLE_FILTER);
}
static void
mut_key_condition (DynoRequest *r)
{
  dyno_expr_free (r->key_condition);
  r->key_condition = inline_condition ("PK = \"DRIVE#a91\" AND begins_with(SK, \"root\")",
                                       DYNO_EXPR_ROLE_KEY_CONDITION);
}
static void mut_condition (DynoRequest *r) { g_clear_pointer (&r->condition, dyno_expr_free); }
static void
mut_projection (DynoRequest *r)
{
  g_ptr_array_remove_index (r->projection, r->projection->len - 1);
}
static void
mut_update (DynoRequest *r)
{
  dyno_update_add_clause (r->update, DYNO_UPDATE_REMOVE, dyno_path_new ("other"), NULL);
}
static void
mut_key (DynoRequest *r)
{
  dyno_item_unref (r->key);
  r->key = ddb_item ("{\"PK\":{\"S\":\"DRIVE#a91\"},\"SK\":{\"S\":\"root/x\"}}");
}
static void mut_item (DynoRequest *r) { g_clear_pointer (&r->item, dyno_item_unref); }
static void
mut_start_key (DynoRequest *r)
{
  dyno_item_unref (r->exclusive_start_key);
  r->exclusive_start_key = ddb_item ("{\"PK\":{\"S\":\"DRIVE#a91\"},\"SK\":{\"N\":\"1\"}}");
}

static void
test_copy_equal (void)
{
  static const Mutator mutators[] = {
    mut_table, mut_index, mut_limit, mut_forward, mut_consistent, mut_select, mut_rcc, mut_rv,
    mut_segment, mut_total, mut_op, mut_filter, mut_key_condition, mut_condition,
    mut_projection, mut_update, mut_key, mut_item, mut_start_key,
  };
  g_autoptr(DynoRequest) r = full_request (DYNO_OP_QUERY);
  g_autoptr(DynoRequest) copy = dyno_request_copy (r);

  g_assert_true (dyno_request_equal (r, copy));
  g_assert_true (dyno_request_equal (copy, r));
  g_assert_true (dyno_request_equal (r, r));

  /* A deep copy: freeing the original leaves the copy whole. */
  {
    DynoRequest *tmp = dyno_request_copy (r);
    g_autoptr(DynoRequest) copy2 = dyno_request_copy (tmp);

    dyno_request_free (tmp);
    g_assert_true (dyno_request_equal (copy2, r));
  }

  /* Each field counts. */
  for (guint i = 0; i < G_N_ELEMENTS (mutators); i++)
    {
      g_autoptr(DynoRequest) changed = dyno_request_copy (r);

      mutators[i] (changed);
      g_assert_false (dyno_request_equal (r, changed));
      g_assert_false (dyno_request_equal (changed, r));
    }

  /* An empty projection is no projection. */
  {
    g_autoptr(DynoRequest) a = dyno_request_new (DYNO_OP_SCAN, "T");
    g_autoptr(DynoRequest) b = dyno_request_new (DYNO_OP_SCAN, "T");

    b->projection = dyno_projection_new ();
    g_assert_true (dyno_request_equal (a, b));
  }
}

/* ---- to_json: members per operation ----------------------------------------------------- */

static void
test_to_json_members (void)
{
  static const struct {
    DynoOperation  op;
    const char    *members;
  } cases[] = {
    { DYNO_OP_QUERY,
      "TableName,IndexName,KeyConditionExpression,FilterExpression,ProjectionExpression,"
      "ExpressionAttributeNames,ExpressionAttributeValues,ExclusiveStartKey,Limit,"
      "ScanIndexForward,ConsistentRead,Select,ReturnConsumedCapacity" },
    { DYNO_OP_SCAN,
      "TableName,IndexName,FilterExpression,ProjectionExpression,ExpressionAttributeNames,"
      "ExpressionAttributeValues,ExclusiveStartKey,Limit,ConsistentRead,Select,"
      "ReturnConsumedCapacity,Segment,TotalSegments" },
    { DYNO_OP_GET_ITEM,
      "TableName,Key,ProjectionExpression,ExpressionAttributeNames,ConsistentRead,"
      "ReturnConsumedCapacity" },
    { DYNO_OP_PUT_ITEM,
      "TableName,Item,ConditionExpression,ReturnConsumedCapacity,ReturnValues" },
    { DYNO_OP_UPDATE_ITEM,
      "TableName,Key,UpdateExpression,ConditionExpression,ExpressionAttributeNames,"
      "ExpressionAttributeValues,ReturnConsumedCapacity,ReturnValues" },
    { DYNO_OP_DELETE_ITEM,
      "TableName,Key,ConditionExpression,ReturnConsumedCapacity,ReturnValues" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoRequest) r = full_request (cases[i].op);
      g_autofree char *compact = dyno_request_to_json (r, FALSE);
      g_autofree char *pretty = dyno_request_to_json (r, TRUE);
      g_autofree char *members = member_list (compact);
      g_autofree char *members_pretty = member_list (pretty);
      g_autoptr(DynoRequest) back = NULL;

      g_test_message ("%s: %s", dyno_operation_to_string (cases[i].op), compact);
      g_assert_cmpstr (members, ==, cases[i].members);
      g_assert_cmpstr (members_pretty, ==, cases[i].members);
      g_assert_null (strchr (compact, '\n'));
      g_assert_true (g_str_has_suffix (pretty, "}\n"));

      /* What it wrote is a request DynamoDB takes: every placeholder defined and used. */
      back = parse_ok (compact, cases[i].op);
      g_assert_cmpint (back->operation, ==, cases[i].op);
      g_assert_cmpstr (back->table_name, ==, "Files");
    }
}

static void
test_to_json_node (void)
{
  g_autoptr(DynoRequest) r = full_request (DYNO_OP_QUERY);
  g_autoptr(JsonNode) node = dyno_request_to_json_node (r);
  JsonObject *object;
  JsonObject *names;
  JsonObject *values;
  JsonObject *key;

  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  object = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (object, "TableName"), ==, "Files");
  g_assert_cmpint (json_object_get_int_member (object, "Limit"), ==, 25);
  g_assert_false (json_object_get_boolean_member (object, "ScanIndexForward"));
  g_assert_true (json_object_get_boolean_member (object, "ConsistentRead"));
  g_assert_cmpstr (json_object_get_string_member (object, "Select"), ==, "SPECIFIC_ATTRIBUTES");

  /* Reserved words (status, name, size) are aliased, plain names are not. */
  names = json_object_get_object_member (object, "ExpressionAttributeNames");
  g_assert_nonnull (names);
  {
    g_autoptr(GList) list = json_object_get_values (names);
    gboolean saw_status = FALSE, saw_name = FALSE, saw_size = FALSE;

    for (GList *l = list; l != NULL; l = l->next)
      {
        const char *attr = json_node_get_string (l->data);

        saw_status |= g_strcmp0 (attr, "status") == 0;
        saw_name |= g_strcmp0 (attr, "name") == 0;
        saw_size |= g_strcmp0 (attr, "size") == 0;
        g_assert_cmpstr (attr, !=, "PK");
      }
    g_assert_true (saw_status && saw_name && saw_size);
  }

  /* Values are DynamoDB JSON. */
  values = json_object_get_object_member (object, "ExpressionAttributeValues");
  g_assert_cmpuint (json_object_get_size (values), ==, 3);
  {
    g_autoptr(GList) list = json_object_get_values (values);

    for (GList *l = list; l != NULL; l = l->next)
      {
        JsonObject *v = json_node_get_object (l->data);

        g_assert_cmpuint (json_object_get_size (v), ==, 1);
        g_assert_true (json_object_has_member (v, "S"));
      }
  }

  key = json_object_get_object_member (object, "ExclusiveStartKey");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (key, "SK"),
                                                  "S"), ==, "root/b");
}

static void
test_to_json_values (void)
{
  /* Values keep their DynamoDB types exactly: 38 digits, binary as base64, sets, maps. */
  const char *json =
    "{\"TableName\":\"T\",\"KeyConditionExpression\":\"pk = :pk\","
    "\"FilterExpression\":\"n = :n AND b = :b AND contains(s, :s) AND m = :m AND ns = :ns\","
    "\"ExpressionAttributeValues\":{"
    "\":pk\":{\"N\":\"12345678901234567890123456789012345678\"},"
    "\":n\":{\"N\":\"-1.2345678901234567890123456789012345678\"},"
    "\":b\":{\"B\":\"AAEC/w==\"},"
    "\":s\":{\"S\":\"\\u00e9\\\"\\n\"},"
    "\":m\":{\"M\":{\"a\":{\"L\":[{\"NULL\":true},{\"BOOL\":false},{\"SS\":[\"x\",\"y\"]}]}}},"
    "\":ns\":{\"NS\":[\"1\",\"2.5\"]}}}";
  g_autoptr(DynoRequest) r = parse_ok (json, -1);
  g_autofree char *out = dyno_request_to_json (r, TRUE);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *object = parse_object (parser, out);
  JsonObject *values = json_object_get_object_member (object, "ExpressionAttributeValues");
  g_autoptr(GList) list = json_object_get_values (values);
  gboolean saw_38 = FALSE, saw_b = FALSE, saw_ns = FALSE, saw_m = FALSE;

  g_test_message ("%s", out);
  g_assert_cmpint (r->operation, ==, DYNO_OP_QUERY);
  g_assert_cmpuint (json_object_get_size (values), ==, 6);
  for (GList *l = list; l != NULL; l = l->next)
    {
      JsonObject *v = json_node_get_object (l->data);

      if (json_object_has_member (v, "N") &&
          g_strcmp0 (json_object_get_string_member (v, "N"),
                     "12345678901234567890123456789012345678") == 0)
        saw_38 = TRUE;
      if (json_object_has_member (v, "B"))
        saw_b = g_strcmp0 (json_object_get_string_member (v, "B"), "AAEC/w==") == 0;
      if (json_object_has_member (v, "NS"))
        saw_ns = json_array_get_length (json_object_get_array_member (v, "NS")) == 2;
      if (json_object_has_member (v, "M"))
        saw_m = TRUE;
    }
  g_assert_true (saw_38);
  g_assert_true (saw_b);
  g_assert_true (saw_ns);
  g_assert_true (saw_m);
}

/* ---- print ------------------------------------------------------------------------------ */

static void
test_print (void)
{
  g_autoptr(DynoRequest) r = dyno_request_new (DYNO_OP_QUERY, "Audit");
  g_autoptr(DynoPrintedRequest) p = NULL;
  g_autoptr(GError) error = NULL;
  const DynoValue *first;

  r->key_condition = inline_condition ("PK = \"ACTOR#u_8814\" AND SK BETWEEN "
                                       "\"EVT#2026-06-23T00:00:00Z\" AND "
                                       "\"EVT#2026-06-23T23:59:59Z\"",
                                       DYNO_EXPR_ROLE_KEY_CONDITION);
  r->filter = inline_condition ("status = \"ok\" OR `order-date` > \"2026\"",
                                DYNO_EXPR_ROLE_FILTER);
  r->condition = inline_condition ("attribute_exists(PK)", DYNO_EXPR_ROLE_CONDITION);
  r->projection = dyno_expr_parse_projection ("SK, status", DYNO_SYNTAX_INLINE, NULL, NULL,
                                              NULL, &error);
  g_assert_no_error (error);

  p = dyno_request_print (r);
  g_assert_nonnull (p->key_condition);
  g_assert_nonnull (p->filter);
  g_assert_nonnull (p->projection);
  /* A Query takes no ConditionExpression, so it is not printed. */
  g_assert_null (p->condition);
  g_assert_null (p->update);

  g_assert_cmpuint (p->name_placeholders->len, ==, p->names->len);
  g_assert_cmpuint (p->value_placeholders->len, ==, p->values->len);
  g_assert_cmpuint (p->values->len, ==, 5);

  /* The key condition is printed first: its value comes first and is used there. */
  first = g_ptr_array_index (p->values, 0);
  g_assert_cmpstr (dyno_value_get_string (first, NULL), ==, "ACTOR#u_8814");
  g_assert_nonnull (strstr (p->key_condition, g_ptr_array_index (p->value_placeholders, 0)));

  /* status (reserved) and order-date (a dash) are aliased once, though used twice. */
  g_assert_cmpuint (p->names->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (p->names, 0), ==, "status");
  g_assert_cmpstr (g_ptr_array_index (p->names, 1), ==, "order-date");
  g_assert_nonnull (strstr (p->projection, g_ptr_array_index (p->name_placeholders, 0)));

  /* Stable: printing again gives the same text. */
  {
    g_autoptr(DynoPrintedRequest) again = dyno_request_print (r);

    g_assert_cmpstr (again->key_condition, ==, p->key_condition);
    g_assert_cmpstr (again->filter, ==, p->filter);
    g_assert_cmpstr (again->projection, ==, p->projection);
  }
}

/* ---- from_json: operation ---------------------------------------------------------------- */

static void
test_guess_operation (void)
{
  static const struct {
    const char    *json;
    DynoOperation  op;
  } cases[] = {
    { "{\"TableName\":\"T\",\"KeyConditionExpression\":\"pk = :v\","
      "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"a\"}}}", DYNO_OP_QUERY },
    { "{\"TableName\":\"T\"}", DYNO_OP_SCAN },
    { "{\"TableName\":\"T\",\"FilterExpression\":\"a = :v\","
      "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"a\"}},\"Segment\":0,\"TotalSegments\":2}",
      DYNO_OP_SCAN },
    { "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}}}", DYNO_OP_GET_ITEM },
    { "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"ProjectionExpression\":\"a, b\","
      "\"ConsistentRead\":true}", DYNO_OP_GET_ITEM },
    { "{\"TableName\":\"T\",\"Item\":{\"pk\":{\"S\":\"a\"}},"
      "\"ConditionExpression\":\"attribute_not_exists(pk)\"}", DYNO_OP_PUT_ITEM },
    { "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"UpdateExpression\":\"REMOVE x\","
      "\"ReturnValues\":\"ALL_NEW\"}", DYNO_OP_UPDATE_ITEM },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoRequest) r = parse_ok (cases[i].json, -1);

      g_assert_cmpint (r->operation, ==, cases[i].op);
    }

  /* Key with a condition: DeleteItem or UpdateItem without UpdateExpression; ask. */
  {
    const char *json = "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}},"
                       "\"ConditionExpression\":\"attribute_exists(pk)\"}";
    g_autoptr(GError) error = NULL;
    g_autoptr(DynoRequest) r = dyno_request_from_json (json, -1, -1, &error);
    g_autoptr(DynoRequest) d = NULL;
    g_autoptr(DynoRequest) u = NULL;

    g_assert_null (r);
    g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
    g_assert_nonnull (strstr (error->message, "DeleteItem"));

    d = parse_ok (json, DYNO_OP_DELETE_ITEM);
    g_assert_cmpint (d->operation, ==, DYNO_OP_DELETE_ITEM);
    g_assert_nonnull (d->condition);
    u = parse_ok (json, DYNO_OP_UPDATE_ITEM);
    g_assert_cmpint (u->operation, ==, DYNO_OP_UPDATE_ITEM);
    g_assert_null (u->update);
  }

  /* The hint wins over the guess. */
  {
    g_autoptr(DynoRequest) r = parse_ok ("{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}}}",
                                         DYNO_OP_DELETE_ITEM);

    g_assert_cmpint (r->operation, ==, DYNO_OP_DELETE_ITEM);
  }
}

/* ---- from_json: errors ------------------------------------------------------------------ */

typedef struct {
  const char *json;
  int         op;
  int         code;
  const char *message;  /* a substring the message must contain */
  const char *message2; /* and another, or NULL */
} BadCase;

#define Q "\"TableName\":\"T\",\"KeyConditionExpression\":\"pk = :pk\""
#define QV "\"ExpressionAttributeValues\":{\":pk\":{\"S\":\"a\"}}"

static const BadCase bad_cases[] = {
  { "{\"TableName\":", -1, DYNO_ERROR_JSON, "not valid JSON", "line 1, column" },
  { "[1, 2]", -1, DYNO_ERROR_JSON, "must be a JSON object", "an array" },
  { "", -1, DYNO_ERROR_JSON, "JSON", NULL },
  { "{" Q "," QV ",\"Foo\":1}", -1, DYNO_ERROR_VALIDATION, "Unknown member", "Foo" },
  { "{\"tableName\":\"T\"}", -1, DYNO_ERROR_VALIDATION, "tableName", "TableName" },
  { "{\"TableName\":\"T\",\"KeyConditions\":{}}", -1, DYNO_ERROR_VALIDATION,
    "KeyConditions is a legacy parameter", "KeyConditionExpression" },
  { "{\"TableName\":\"T\",\"AttributesToGet\":[\"a\"]}", -1, DYNO_ERROR_VALIDATION,
    "AttributesToGet", "ProjectionExpression" },
  { "{\"TableName\":\"T\",\"ScanFilter\":{}}", -1, DYNO_ERROR_VALIDATION, "ScanFilter",
    "not supported" },
  { "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"Expected\":{}}", -1,
    DYNO_ERROR_VALIDATION, "Expected", "ConditionExpression" },
  { "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"AttributeUpdates\":{}}", -1,
    DYNO_ERROR_VALIDATION, "AttributeUpdates", "UpdateExpression" },
  { "{\"TableName\":\"T\",\"QueryFilter\":{},\"ConditionalOperator\":\"OR\"}", -1,
    DYNO_ERROR_VALIDATION, "legacy parameter", NULL },
  { "{\"TableName\":5}", -1, DYNO_ERROR_VALIDATION, "TableName must be a string",
    "a number" },
  { "{}", -1, DYNO_ERROR_VALIDATION, "no TableName", NULL },
  { "{" Q "," QV ",\"Limit\":\"5\"}", -1, DYNO_ERROR_VALIDATION, "Limit", "a string" },
  { "{" Q "," QV ",\"Limit\":0}", -1, DYNO_ERROR_VALIDATION, "Limit", "between 1" },
  { "{" Q "," QV ",\"Limit\":2.5}", -1, DYNO_ERROR_VALIDATION, "Limit", "whole number" },
  { "{" Q "," QV ",\"ScanIndexForward\":\"false\"}", -1, DYNO_ERROR_VALIDATION,
    "ScanIndexForward must be true or false", NULL },
  { "{" Q "," QV ",\"ConsistentRead\":1}", -1, DYNO_ERROR_VALIDATION, "ConsistentRead",
    "true or false" },
  { "{" Q "," QV ",\"Select\":\"ALL\"}", -1, DYNO_ERROR_VALIDATION, "Select must be one of",
    "ALL_PROJECTED_ATTRIBUTES" },
  { "{" Q "," QV ",\"ReturnConsumedCapacity\":\"total\"}", -1, DYNO_ERROR_VALIDATION,
    "ReturnConsumedCapacity", "INDEXES" },
  { "{" Q "," QV ",\"IndexName\":\"\"}", -1, DYNO_ERROR_VALIDATION, "IndexName", NULL },
  { "{" Q "," QV ",\"ExclusiveStartKey\":[]}", -1, DYNO_ERROR_VALIDATION,
    "ExclusiveStartKey", "an array" },
  { "{" Q "," QV ",\"ExclusiveStartKey\":{\"pk\":{\"N\":\"x1\"}}}", -1, -1,
    "ExclusiveStartKey", NULL },
  { "{" Q "," QV ",\"ExpressionAttributeNames\":{\"#a\":\"a\"}}", -1, DYNO_ERROR_VALIDATION,
    "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a}", NULL },
  { "{" Q ",\"ExpressionAttributeValues\":{\":pk\":{\"S\":\"a\"},\":b\":{\"S\":\"b\"},"
    "\":a\":{\"S\":\"a\"}}}", -1, DYNO_ERROR_VALIDATION,
    "Value provided in ExpressionAttributeValues unused in expressions: keys: {:a, :b}", NULL },
  /* Names are checked before values. */
  { "{" Q ",\"ExpressionAttributeValues\":{\":pk\":{\"S\":\"a\"},\":b\":{\"S\":\"b\"}},"
    "\"ExpressionAttributeNames\":{\"#z\":\"z\"}}", -1, DYNO_ERROR_VALIDATION,
    "ExpressionAttributeNames unused", "{#z}" },
  { "{\"TableName\":\"T\",\"KeyConditionExpression\":\"pk = :missing\"," QV "}", -1, -1,
    ":missing", "KeyConditionExpression" },
  { "{\"TableName\":\"T\",\"KeyConditionExpression\":\"#missing = :pk\"," QV "}", -1, -1,
    "#missing", "KeyConditionExpression" },
  { "{" Q "," QV ",\"ExpressionAttributeNames\":{}}", -1, DYNO_ERROR_VALIDATION,
    "ExpressionAttributeNames must not be empty", NULL },
  { "{\"TableName\":\"T\",\"ExpressionAttributeValues\":{}}", -1, DYNO_ERROR_VALIDATION,
    "ExpressionAttributeValues must not be empty", NULL },
  { "{" Q "," QV ",\"ExpressionAttributeNames\":{\"name\":\"a\"}}", -1, DYNO_ERROR_VALIDATION,
    "ExpressionAttributeNames contains invalid key: Syntax error; key: \"name\"", NULL },
  { "{" Q "," QV ",\"ExpressionAttributeNames\":{\"#a\":7}}", -1, DYNO_ERROR_VALIDATION,
    "ExpressionAttributeNames", "#a" },
  { "{" Q ",\"ExpressionAttributeValues\":{\":pk\":{\"X\":\"1\"}}}", -1, -1,
    "ExpressionAttributeValues contains invalid value", ":pk" },
  { "{" Q ",\"ExpressionAttributeValues\":{\"pk\":{\"S\":\"1\"}}}", -1, DYNO_ERROR_VALIDATION,
    "ExpressionAttributeValues contains invalid key", NULL },
  { "{\"TableName\":\"T\",\"ExpressionAttributeNames\":{\"#a\":\"a\"}}", -1,
    DYNO_ERROR_VALIDATION, "ExpressionAttributeNames can only be specified when using "
    "expressions", NULL },
  { "{\"TableName\":\"T\",\"ProjectionExpression\":\"a\","
    "\"ExpressionAttributeValues\":{\":x\":{\"S\":\"a\"}}}", DYNO_OP_QUERY,
    DYNO_ERROR_VALIDATION, "ExpressionAttributeValues can only be specified when using "
    "expressions: FilterExpression and KeyConditionExpression are null", NULL },
  { "{\"TableName\":\"T\"}", DYNO_OP_QUERY, DYNO_ERROR_VALIDATION,
    "Either the KeyConditions or KeyConditionExpression parameter must be specified", NULL },
  { "{\"TableName\":\"T\"}", DYNO_OP_GET_ITEM, DYNO_ERROR_VALIDATION, "no Key", NULL },
  { "{\"TableName\":\"T\"}", DYNO_OP_PUT_ITEM, DYNO_ERROR_VALIDATION, "no Item", NULL },
  { "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"Item\":{\"pk\":{\"S\":\"a\"}}}",
    DYNO_OP_GET_ITEM, DYNO_ERROR_VALIDATION, "Item is not a member of a GetItem request", NULL },
  { "{\"TableName\":\"T\",\"ScanIndexForward\":false}", DYNO_OP_SCAN, DYNO_ERROR_VALIDATION,
    "ScanIndexForward is not a member of a Scan request", NULL },
  { "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"ExpressionAttributeValues\":"
    "{\":a\":{\"S\":\"a\"}},\"ProjectionExpression\":\"a\"}", -1, DYNO_ERROR_VALIDATION,
    "ExpressionAttributeValues is not a member of a GetItem request", "guessed" },
  { "{\"TableName\":\"T\",\"Item\":{\"pk\":{\"S\":\"a\"}},\"ReturnValues\":\"ALL_NEW\"}", -1,
    DYNO_ERROR_VALIDATION, "ReturnValues must be one of NONE, ALL_OLD", NULL },
  { "{\"TableName\":\"T\",\"Item\":{\"pk\":{\"S\":\"a\"}},"
    "\"ReturnItemCollectionMetrics\":\"SIZE\"}", -1, DYNO_ERROR_VALIDATION,
    "ReturnItemCollectionMetrics is not supported", NULL },
  { "{\"TableName\":\"T\",\"FilterExpression\":\"a = = :v\","
    "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"a\"}}}", -1, -1, "FilterExpression", NULL },
  { "{\"TableName\":\"T\",\"FilterExpression\":\"\"}", -1, -1, "FilterExpression", NULL },
  { "{\"TableName\":\"T\",\"ProjectionExpression\":\"name\"}", -1, -1, "ProjectionExpression",
    "reserved keyword" },
  { "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"UpdateExpression\":\"SET\"}", -1, -1,
    "UpdateExpression", NULL },
  { "{\"TableName\":\"T\",\"Key\":\"pk\"}", -1, DYNO_ERROR_VALIDATION,
    "Key must be an object", NULL },
  { "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"N\":\"abc\"}}}", -1, -1, "Key", NULL },
  { "{\"TableName\":\"T\",\"Item\":{\"pk\":{\"SS\":[]}}}", -1, -1, "Item", NULL },
  { "{\"TableName\":\"T\",\"Segment\":-1}", -1, DYNO_ERROR_VALIDATION, "Segment", NULL },
};

static void
test_from_json_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      const BadCase *c = &bad_cases[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoRequest) r = dyno_request_from_json (c->json, -1, c->op, &error);

      g_test_message ("%s -> %s", c->json, error ? error->message : "(accepted)");
      g_assert_null (r);
      g_assert_nonnull (error);
      g_assert_true (error->domain == DYNO_ERROR);
      if (c->code >= 0)
        g_assert_cmpint (error->code, ==, c->code);
      g_assert_nonnull (strstr (error->message, c->message));
      if (c->message2 != NULL)
        g_assert_nonnull (strstr (error->message, c->message2));
    }
}

/* Limits found by tests/integration/test_conformance.py against DynamoDB Local: an expression
 * is at most 4096 bytes, a placeholder at most 255. */
static void
test_from_json_limits (void)
{
  for (guint extra = 0; extra < 2; extra++)
    {
      /* "pk = :pk" and spaces: 4096 bytes, then 4097 */
      g_autofree char *pad = g_strnfill (4096 - 8 + extra, ' ');
      g_autofree char *json =
        g_strdup_printf ("{\"TableName\":\"T\",\"KeyConditionExpression\":\"pk = :pk%s\","
                         QV "}", pad);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoRequest) r = dyno_request_from_json (json, -1, DYNO_OP_QUERY, &error);

      if (extra == 0)
        {
          g_assert_no_error (error);
          g_assert_nonnull (r);
        }
      else
        {
          g_assert_null (r);
          g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
          g_assert_nonnull (strstr (error->message, "Invalid KeyConditionExpression: Expression "
                                    "size has exceeded the maximum allowed size; expression "
                                    "size: 4097"));
        }
    }

  for (guint extra = 0; extra < 2; extra++)
    {
      /* "#" or ":" and 254 characters: 255 bytes, then 256 */
      g_autofree char *tail = g_strnfill (254 + extra, 'n');
      g_autofree char *names =
        g_strdup_printf ("{\"TableName\":\"T\",\"KeyConditionExpression\":\"#%s = :pk\","
                         QV ",\"ExpressionAttributeNames\":{\"#%s\":\"pk\"}}", tail, tail);
      g_autofree char *values =
        g_strdup_printf ("{\"TableName\":\"T\",\"KeyConditionExpression\":\"pk = :%s\","
                         "\"ExpressionAttributeValues\":{\":%s\":{\"S\":\"a\"}}}", tail, tail);
      const char *cases[] = { names, values };

      for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(DynoRequest) r = dyno_request_from_json (cases[i], -1, DYNO_OP_QUERY,
                                                             &error);

          if (extra == 0)
            {
              g_assert_no_error (error);
              g_assert_nonnull (r);
            }
          else
            {
              g_assert_null (r);
              g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
              g_assert_nonnull (strstr (error->message,
                                        i == 0 ? "ExpressionAttributeNames" :
                                                 "ExpressionAttributeValues"));
              g_assert_nonnull (strstr (error->message, "contains invalid key: The expression "
                                        "attribute map contains a key that is too long; size "
                                        "of key: 256"));
            }
        }
    }
}

static void
test_from_json_good (void)
{
  /* A full Query, field by field. */
  const char *json =
    "{\"TableName\":\"Audit\",\"IndexName\":\"gsi1\","
    "\"KeyConditionExpression\":\"#pk = :pk AND #sk BETWEEN :lo AND :hi\","
    "\"FilterExpression\":\"#st <> :st\",\"ProjectionExpression\":\"#sk, #st, payload.#d[0]\","
    "\"ExpressionAttributeNames\":{\"#pk\":\"gsi1pk\",\"#sk\":\"gsi1sk\",\"#st\":\"status\","
    "\"#d\":\"data\"},"
    "\"ExpressionAttributeValues\":{\":pk\":{\"S\":\"STATUS#open\"},\":lo\":{\"S\":\"2026-01\"},"
    "\":hi\":{\"S\":\"2026-12\"},\":st\":{\"S\":\"void\"}},"
    "\"ExclusiveStartKey\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},"
    "\"gsi1pk\":{\"S\":\"STATUS#open\"},\"gsi1sk\":{\"S\":\"2026-02\"}},"
    "\"Limit\":50,\"ScanIndexForward\":false,\"ConsistentRead\":false,"
    "\"Select\":\"ALL_PROJECTED_ATTRIBUTES\",\"ReturnConsumedCapacity\":\"INDEXES\"}";
  g_autoptr(DynoRequest) r = parse_ok (json, -1);
  const DynoPath *path;

  g_assert_cmpint (r->operation, ==, DYNO_OP_QUERY);
  g_assert_cmpstr (r->table_name, ==, "Audit");
  g_assert_cmpstr (r->index_name, ==, "gsi1");
  g_assert_nonnull (r->key_condition);
  g_assert_nonnull (r->filter);
  g_assert_cmpuint (r->projection->len, ==, 3);
  path = g_ptr_array_index (r->projection, 2);
  g_assert_cmpuint (dyno_path_get_length (path), ==, 3);
  g_assert_cmpstr (dyno_path_get_attribute (path), ==, "payload");
  g_assert_cmpstr (g_array_index (path->elements, DynoPathElement, 1).name, ==, "data");
  g_assert_null (g_array_index (path->elements, DynoPathElement, 2).name);
  g_assert_cmpuint (g_array_index (path->elements, DynoPathElement, 2).index, ==, 0);
  g_assert_cmpuint (dyno_item_get_n_attributes (r->exclusive_start_key), ==, 4);
  g_assert_cmpint (r->limit, ==, 50);
  g_assert_cmpint (r->scan_index_forward, ==, DYNO_TRISTATE_FALSE);
  g_assert_cmpint (r->consistent_read, ==, DYNO_TRISTATE_FALSE);
  g_assert_cmpint (r->select, ==, DYNO_SELECT_ALL_PROJECTED_ATTRIBUTES);
  g_assert_cmpint (r->return_consumed_capacity, ==, DYNO_CONSUMED_INDEXES);
  g_assert_cmpint (r->segment, ==, -1);

  /* The names resolve: the key condition is on gsi1pk, not on "#pk". */
  {
    g_autoptr(DynoExpr) expected =
      inline_condition ("gsi1pk = \"STATUS#open\" AND gsi1sk BETWEEN \"2026-01\" AND \"2026-12\"",
                        DYNO_EXPR_ROLE_KEY_CONDITION);

    g_assert_true (dyno_expr_equal (expected, r->key_condition));
  }

  /* ReturnItemCollectionMetrics at its default is accepted (and changes nothing). */
  {
    g_autoptr(DynoRequest) d = parse_ok ("{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}},"
                                         "\"ReturnItemCollectionMetrics\":\"NONE\","
                                         "\"ReturnValues\":\"ALL_OLD\"}", DYNO_OP_DELETE_ITEM);

    g_assert_cmpint (d->return_values, ==, DYNO_RETURN_VALUES_ALL_OLD);
  }

  /* Length is honoured: text after len is not read. */
  {
    const char *text = "{\"TableName\":\"T\"}garbage";
    g_autoptr(GError) error = NULL;
    g_autoptr(DynoRequest) s = dyno_request_from_json (text, strlen ("{\"TableName\":\"T\"}"),
                                                       -1, &error);

    g_assert_no_error (error);
    g_assert_cmpint (s->operation, ==, DYNO_OP_SCAN);
  }
}

static void
test_from_json_located (void)
{
  static const struct {
    const char *json;
    const char *member;
    guint       column;  /* 0: any */
  } cases[] = {
    { "{\"TableName\":\"T\",\"KeyConditionExpression\":\"pk = :v AND\","
      "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"a\"}}}", "KeyConditionExpression", 12 },
    { "{\"TableName\":\"T\",\"FilterExpression\":\"a = :v OR b = :nope\","
      "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"a\"}}}", "FilterExpression", 15 },
    { "{\"TableName\":\"T\",\"ProjectionExpression\":\"a, name\"}", "ProjectionExpression", 4 },
    { "{\"TableName\":\"T\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"UpdateExpression\":\"SET a = \"}",
      "UpdateExpression", 0 },
    /* Not an expression: no member, no location. */
    { "{\"TableName\":\"T\",\"Limit\":0}", NULL, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      const char *member = "unset";
      DynoParseLocation location = { 99, 99, 99 };
      g_autoptr(DynoRequest) r = dyno_request_from_json_located (cases[i].json, -1, -1, &member,
                                                                 &location, &error);

      g_test_message ("%s -> %s", cases[i].json, error ? error->message : "(accepted)");
      g_assert_null (r);
      g_assert_nonnull (error);
      g_assert_cmpstr (member, ==, cases[i].member);
      if (cases[i].member == NULL)
        g_assert_cmpuint (location.column, ==, 0);
      else if (cases[i].column != 0)
        g_assert_cmpuint (location.column, ==, cases[i].column);
      else
        g_assert_cmpuint (location.column, >, 0);
    }
}

/* ---- round trips ------------------------------------------------------------------------ */

static const struct {
  const char *json;
  int         op;
} corpus[] = {
  /* the file tree */
  { "{\"TableName\":\"Drive\",\"KeyConditionExpression\":\"PK = :pk AND begins_with(SK, :p)\","
    "\"ExpressionAttributeValues\":{\":pk\":{\"S\":\"DRIVE#a91\"},"
    "\":p\":{\"S\":\"root/photos/\"}}}", -1 },
  /* the audit log, newest first, paged */
  { "{\"TableName\":\"Audit\",\"KeyConditionExpression\":\"#pk = :a AND #sk BETWEEN :b AND :c\","
    "\"ExpressionAttributeNames\":{\"#pk\":\"PK\",\"#sk\":\"SK\"},"
    "\"ExpressionAttributeValues\":{\":a\":{\"S\":\"ACTOR#u_8814\"},"
    "\":b\":{\"S\":\"EVT#2026-06-23T00:00:00Z\"},\":c\":{\"S\":\"EVT#2026-06-23T23:59:59Z\"}},"
    "\"ScanIndexForward\":false,\"Limit\":10,"
    "\"ExclusiveStartKey\":{\"PK\":{\"S\":\"ACTOR#u_8814\"},"
    "\"SK\":{\"S\":\"EVT#2026-06-23T12:00:00Z\"}},"
    "\"ReturnConsumedCapacity\":\"TOTAL\"}", -1 },
  /* an overloaded GSI with reserved words */
  { "{\"TableName\":\"Tenants\",\"IndexName\":\"gsi1\","
    "\"KeyConditionExpression\":\"gsi1pk = :s AND gsi1sk <= :d\","
    "\"FilterExpression\":\"#status = :open AND #name <> :n AND #size > :z\","
    "\"ProjectionExpression\":\"#name, #status, amount, #data.#items[3].sku\","
    "\"ExpressionAttributeNames\":{\"#status\":\"status\",\"#name\":\"name\",\"#size\":\"size\","
    "\"#data\":\"data\",\"#items\":\"items\"},"
    "\"ExpressionAttributeValues\":{\":s\":{\"S\":\"STATUS#open\"},\":d\":{\"S\":\"2026-07-01\"},"
    "\":open\":{\"S\":\"open\"},\":n\":{\"S\":\"\"},\":z\":{\"N\":\"0\"}},"
    "\"Select\":\"SPECIFIC_ATTRIBUTES\",\"ConsistentRead\":false}", -1 },
  /* odd names: dashes, dots inside a name, leading digits, spaces, non-ASCII */
  { "{\"TableName\":\"odd.names-1\",\"FilterExpression\":\"#od > :d AND #dot = :x AND "
    "attribute_exists(#1st) AND #sp.#gr = :g AND begins_with(#u, :p)\","
    "\"ExpressionAttributeNames\":{\"#od\":\"order-date\",\"#dot\":\"a.b\",\"#1st\":\"1st\","
    "\"#sp\":\"with space\",\"#gr\":\"gr\\u00f6\\u00dfe\",\"#u\":\"_under\"},"
    "\"ExpressionAttributeValues\":{\":d\":{\"S\":\"2026\"},\":x\":{\"N\":\"1e2\"},"
    "\":g\":{\"S\":\"XL\"},\":p\":{\"S\":\"\\u00bf\"}}}", -1 },
  /* every condition form, binary, sets, nested values */
  { "{\"TableName\":\"T\",\"FilterExpression\":\"(a = :b OR NOT contains(tags, :t)) AND "
    "c IN (:n1, :n2, :n3) AND size(l) >= :z AND attribute_type(m, :ty) AND "
    "attribute_not_exists(gone) AND m.kk = :m AND l[0] = :l AND s = :ss AND ns = :ns AND "
    "bs = :bs AND nul = :nul AND flag = :f\","
    "\"ExpressionAttributeValues\":{\":b\":{\"B\":\"AAEC/w==\"},\":t\":{\"S\":\"x\"},"
    "\":n1\":{\"N\":\"1\"},\":n2\":{\"N\":\"-0.5\"},"
    "\":n3\":{\"N\":\"99999999999999999999999999999999999999\"},\":z\":{\"N\":\"3\"},"
    "\":ty\":{\"S\":\"M\"},\":m\":{\"M\":{\"k\":{\"L\":[{\"N\":\"1\"},{\"M\":{}}]},"
    "\"e\":{\"S\":\"\"}}},\":l\":{\"L\":[]},\":ss\":{\"SS\":[\"a\",\"b\"]},"
    "\":ns\":{\"NS\":[\"1\",\"1.5\",\"1E-130\"]},\":bs\":{\"BS\":[\"AQ==\",\"Ag==\"]},"
    "\":nul\":{\"NULL\":true},\":f\":{\"BOOL\":true}}}", DYNO_OP_SCAN },
  /* a parallel scan */
  { "{\"TableName\":\"Big\",\"Segment\":3,\"TotalSegments\":8,\"Limit\":1000,"
    "\"ConsistentRead\":true,\"Select\":\"COUNT\"}", -1 },
  /* GetItem */
  { "{\"TableName\":\"Users\",\"Key\":{\"pk\":{\"S\":\"USER#u_3001\"},\"sk\":{\"N\":\"42\"}},"
    "\"ProjectionExpression\":\"#n, email, addr.city\","
    "\"ExpressionAttributeNames\":{\"#n\":\"name\"},\"ConsistentRead\":true,"
    "\"ReturnConsumedCapacity\":\"NONE\"}", -1 },
  /* PutItem with a guard */
  { "{\"TableName\":\"Users\",\"Item\":{\"pk\":{\"S\":\"USER#u_3001\"},\"sk\":{\"N\":\"42\"},"
    "\"tags\":{\"SS\":[\"a\"]},\"blob\":{\"B\":\"AQID\"},"
    "\"deep\":{\"M\":{\"l\":{\"L\":[{\"M\":{\"x\":{\"NULL\":true}}}]}}}},"
    "\"ConditionExpression\":\"attribute_not_exists(pk)\",\"ReturnValues\":\"ALL_OLD\"}", -1 },
  /* UpdateItem with every action */
  { "{\"TableName\":\"Counters\",\"Key\":{\"pk\":{\"S\":\"PAGE#home\"}},"
    "\"UpdateExpression\":\"SET #v = #v + :one, #t = if_not_exists(#t, :now), "
    "hist = list_append(hist, :h), #n.#c = :c - :one REMOVE prev[1], tmp "
    "ADD tags :tag, hits :one DELETE banned :ban\","
    "\"ConditionExpression\":\"attribute_exists(pk) AND #v < :max\","
    "\"ExpressionAttributeNames\":{\"#v\":\"views\",\"#t\":\"timestamp\",\"#n\":\"name\","
    "\"#c\":\"count\"},"
    "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"},\":now\":{\"S\":\"2026-06-23\"},"
    "\":h\":{\"L\":[{\"S\":\"x\"}]},\":c\":{\"N\":\"10\"},\":tag\":{\"SS\":[\"new\"]},"
    "\":ban\":{\"SS\":[\"bad\"]},\":max\":{\"N\":\"1000000\"}},"
    "\"ReturnValues\":\"UPDATED_NEW\",\"ReturnConsumedCapacity\":\"INDEXES\"}", -1 },
  /* DeleteItem, optimistic locking */
  { "{\"TableName\":\"Docs\",\"Key\":{\"pk\":{\"S\":\"DOC#1\"},\"sk\":{\"S\":\"v\"}},"
    "\"ConditionExpression\":\"version = :v\","
    "\"ExpressionAttributeValues\":{\":v\":{\"N\":\"7\"}},\"ReturnValues\":\"ALL_OLD\"}",
    DYNO_OP_DELETE_ITEM },
  /* UpdateItem without UpdateExpression */
  { "{\"TableName\":\"Docs\",\"Key\":{\"pk\":{\"S\":\"DOC#1\"}}}", DYNO_OP_UPDATE_ITEM },
  /* one value placeholder used twice, digits-only placeholders */
  { "{\"TableName\":\"T\",\"KeyConditionExpression\":\"#0 = :0\",\"FilterExpression\":"
    "\"alt = :0 OR #0 = :1\",\"ExpressionAttributeNames\":{\"#0\":\"pk\"},"
    "\"ExpressionAttributeValues\":{\":0\":{\"S\":\"same\"},\":1\":{\"S\":\"x\"}}}", -1 },
};

static void
test_round_trip (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autoptr(DynoRequest) r1 = parse_ok (corpus[i].json, corpus[i].op);
      g_autofree char *j2 = dyno_request_to_json (r1, TRUE);
      g_autoptr(DynoRequest) r2 = NULL;
      g_autofree char *j3 = NULL;
      g_autofree char *compact = NULL;
      g_autoptr(DynoRequest) r3 = NULL;
      g_autoptr(DynoRequest) copy = dyno_request_copy (r1);

      g_test_message ("%s\n->\n%s", corpus[i].json, j2);

      /* Re-read with the operation guessed, unless the original needed a hint. */
      r2 = parse_ok (j2, corpus[i].op);
      g_assert_true (dyno_request_equal (r1, r2));
      g_assert_true (dyno_request_equal (copy, r2));

      /* Re-emitting is a fixed point. */
      j3 = dyno_request_to_json (r2, TRUE);
      g_assert_cmpstr (j2, ==, j3);

      /* The compact form reads the same. */
      compact = dyno_request_to_json (r1, FALSE);
      r3 = parse_ok (compact, corpus[i].op);
      g_assert_true (dyno_request_equal (r1, r3));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/request/enums", test_enums);
  g_test_add_func ("/request/new-defaults", test_new_defaults);
  g_test_add_func ("/request/copy-equal", test_copy_equal);
  g_test_add_func ("/request/to-json/members", test_to_json_members);
  g_test_add_func ("/request/to-json/node", test_to_json_node);
  g_test_add_func ("/request/to-json/values", test_to_json_values);
  g_test_add_func ("/request/print", test_print);
  g_test_add_func ("/request/from-json/guess", test_guess_operation);
  g_test_add_func ("/request/from-json/errors", test_from_json_errors);
  g_test_add_func ("/request/from-json/good", test_from_json_good);
  g_test_add_func ("/request/from-json/limits", test_from_json_limits);
  g_test_add_func ("/request/from-json/located", test_from_json_located);
  g_test_add_func ("/request/round-trip", test_round_trip);

  return g_test_run ();
}
