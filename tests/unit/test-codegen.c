/* test-codegen.c: code generation for the request-json, cli, js-v3, js-docclient, boto3,
 * boto3-resource and partiql targets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Besides structural checks, the generated code is executed: bash with a stub `aws` function
 * that records its arguments, Python with boto3's client/resource factories replaced by
 * recorders, Node with the SDK's send() replaced by a recorder.  Each recorded call is read
 * back as a request JSON and must equal the request the code was generated from — values
 * (38-digit numbers, binary, sets, quotes) included.  Executing the code is a stricter check
 * than `node --check`/`py_compile`/`bash -n`, which it implies.  The tools are skipped when
 * missing (node, tests/node_modules, /usr/bin/python3 with boto3).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dyno-codegen.h"
#include "dyno-codegen-private.h"
#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-request.h"

#define ENDPOINT "http://127.0.0.1:1"

typedef struct {
  const char    *name;
  DynoOperation  op;
  const char    *json;
} Case;

/* A value with every character a quoting layer can trip over. */
#define TRICKY "it's \\\"q\\\" $HOME `id` \\\\ \\n\\ttab é 😀 '' \\\\'"

static const Case cases[] = {
  { "query-begins-with", DYNO_OP_QUERY,
    "{\"TableName\":\"file-tree\",\"KeyConditionExpression\":\"PK = :pk AND begins_with(SK, :sk)\","
    "\"ExpressionAttributeValues\":{\":pk\":{\"S\":\"DRIVE#a91\"},\":sk\":{\"S\":\"root/photos/\"}}}" },
  { "query-between-desc", DYNO_OP_QUERY,
    "{\"TableName\":\"audit-log\",\"KeyConditionExpression\":\"PK = :pk AND SK BETWEEN :a AND :b\","
    "\"ExpressionAttributeValues\":{\":pk\":{\"S\":\"ACTOR#u_8814\"},"
    "\":a\":{\"S\":\"EVT#2026-06-23T00:00:00Z\"},\":b\":{\"S\":\"EVT#2026-06-23T23:59:59Z\"}},"
    "\"ScanIndexForward\":false,\"Limit\":2}" },
  { "query-gsi-filter-projection", DYNO_OP_QUERY,
    "{\"TableName\":\"tenant\",\"IndexName\":\"gsi1\",\"KeyConditionExpression\":\"gsi1pk = :o\","
    "\"FilterExpression\":\"#s = :s AND (amount > :min OR attribute_exists(#n)) AND size(#n) < :len\","
    "\"ProjectionExpression\":\"pk, sk, #s, lineItems[0].sku, #n\","
    "\"ExpressionAttributeNames\":{\"#s\":\"status\",\"#n\":\"name\"},"
    "\"ExpressionAttributeValues\":{\":o\":{\"S\":\"STATUS#open\"},\":s\":{\"S\":\"open\"},"
    "\":min\":{\"N\":\"-12.5\"},\":len\":{\"N\":\"40\"}}}" },
  { "scan-segments", DYNO_OP_SCAN,
    "{\"TableName\":\"file-tree\",\"FilterExpression\":\"contains(tags, :t) AND attribute_type(sizeBytes, :ty)"
    " AND NOT (kind IN (:k1, :k2)) AND attribute_not_exists(deletedAt)\","
    "\"ExpressionAttributeValues\":{\":t\":{\"S\":\"beach\"},\":ty\":{\"S\":\"N\"},"
    "\":k1\":{\"S\":\"folder\"},\":k2\":{\"S\":\"link\"}},"
    "\"ConsistentRead\":true,\"Segment\":1,\"TotalSegments\":4,"
    "\"ExclusiveStartKey\":{\"PK\":{\"S\":\"DRIVE#a91\"},\"SK\":{\"S\":\"root/\"}},"
    "\"ReturnConsumedCapacity\":\"TOTAL\"}" },
  { "get", DYNO_OP_GET_ITEM,
    "{\"TableName\":\"tenant\",\"Key\":{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"}},"
    "\"ProjectionExpression\":\"#n, email, preferences.theme\",\"ExpressionAttributeNames\":{\"#n\":\"name\"},"
    "\"ConsistentRead\":true}" },
  { "put-all-types", DYNO_OP_PUT_ITEM,
    "{\"TableName\":\"tenant\",\"Item\":{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"NOTE#1\"},"
    "\"text\":{\"S\":\"" TRICKY "\"},"
    "\"ref\":{\"N\":\"12345678901234567890123456789012345678\"},"
    "\"big\":{\"N\":\"1000000000000000000000000000000000000000000\"},"
    "\"tiny\":{\"N\":\"0.000000000000000000001\"},\"neg\":{\"N\":\"-0.5\"},\"int\":{\"N\":\"42\"},"
    "\"bin\":{\"B\":\"AP8nIgpc\"},\"ok\":{\"BOOL\":false},\"none\":{\"NULL\":true},"
    "\"m\":{\"M\":{\"a-b\":{\"S\":\"x\"},\"n\":{\"N\":\"99999999999999999999\"},\"l\":{\"L\":[{\"N\":\"1\"},{\"S\":\"\"}]}}},"
    "\"ss\":{\"SS\":[\"a\",\"b'c\"]},\"ns\":{\"NS\":[\"1\",\"2.5\",\"-3\"]},"
    "\"nsbig\":{\"NS\":[\"1\",\"123456789012345678901234567890\"]},"
    "\"bs\":{\"BS\":[\"AA==\",\"/w==\"]}},"
    "\"ConditionExpression\":\"attribute_not_exists(pk)\",\"ReturnValues\":\"ALL_OLD\"}" },
  { "update", DYNO_OP_UPDATE_ITEM,
    "{\"TableName\":\"tenant\",\"Key\":{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"INVOICE#2026-0014\"}},"
    "\"UpdateExpression\":\"SET #c = #c + :one, lineItems = list_append(lineItems, :more) REMOVE obsolete\","
    "\"ConditionExpression\":\"attribute_exists(pk) AND version = :v\","
    "\"ExpressionAttributeNames\":{\"#c\":\"count\"},"
    "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"},\":more\":{\"L\":[{\"M\":{\"sku\":{\"S\":\"X\"}}}]},"
    "\":v\":{\"N\":\"7\"}},\"ReturnValues\":\"ALL_NEW\"}" },
  { "delete", DYNO_OP_DELETE_ITEM,
    "{\"TableName\":\"tenant\",\"Key\":{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3010\"}},"
    "\"ConditionExpression\":\"#s <> :s\",\"ExpressionAttributeNames\":{\"#s\":\"status\"},"
    "\"ExpressionAttributeValues\":{\":s\":{\"S\":\"" TRICKY "\"}},\"ReturnValues\":\"ALL_OLD\"}" },
  { "query-typed-values", DYNO_OP_QUERY,
    "{\"TableName\":\"tenant\",\"KeyConditionExpression\":\"pk = :pk AND sk = :sk\","
    "\"FilterExpression\":\"paymentRef = :ref AND avatar = :bin AND #r = :roles AND discounts = :ns"
    " AND thumbs = :bs AND flags = :m\","
    "\"ExpressionAttributeNames\":{\"#r\":\"roles\"},"
    "\"ExpressionAttributeValues\":{\":pk\":{\"S\":\"TENANT#acme\"},\":sk\":{\"S\":\"INVOICE#2026-0014\"},"
    "\":ref\":{\"N\":\"12345678901234567890123456789012345678\"},\":bin\":{\"B\":\"iVBORw0KGgo=\"},"
    "\":roles\":{\"SS\":[\"admin\",\"billing\"]},\":ns\":{\"NS\":[\"-5\",\"10.25\"]},"
    "\":bs\":{\"BS\":[\"AQI=\"]},\":m\":{\"M\":{\"on\":{\"BOOL\":true},\"off\":{\"NULL\":true}}}}}" },
  { "scan-dotted-name", DYNO_OP_SCAN,
    "{\"TableName\":\"tenant\",\"FilterExpression\":\"#d = :d\",\"ExpressionAttributeNames\":{\"#d\":\"a.b\"},"
    "\"ExpressionAttributeValues\":{\":d\":{\"S\":\"x\"}},\"Limit\":5}" },
  /* U+0000 is a character of DynamoDB strings: each target spells it, none cuts there. */
  { "put-nul", DYNO_OP_PUT_ITEM,
    "{\"TableName\":\"tenant\",\"Item\":{\"pk\":{\"S\":\"a\\u0000b\"},"
    "\"m\":{\"M\":{\"k\\u0000\":{\"SS\":[\"\\u0000\",\"x\\u0000y\"]}}}},"
    "\"ConditionExpression\":\"attribute_not_exists(pk) OR #n = :v\","
    "\"ExpressionAttributeNames\":{\"#n\":\"n\\u0000m\"},"
    "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"\\u0000\"}}}" },
};

static const char * const my_targets[] = {
  "cli", "js-v3", "js-docclient", "boto3", "boto3-resource",
};

static DynoRequest *
case_request (const Case *c)
{
  g_autoptr(GError) error = NULL;
  DynoRequest *request = dyno_request_from_json (c->json, -1, c->op, &error);

  if (request == NULL)
    g_error ("case %s: %s", c->name, error->message);
  return request;
}

static char *
emit_ok (const DynoRequest *request,
         const char        *target,
         gboolean           program)
{
  DynoCodegenOptions options = { program, ENDPOINT, "eu-west-3", NULL };
  g_autoptr(GError) error = NULL;
  char *code = dyno_codegen_emit (request, target, &options, &error);

  g_assert_no_error (error);
  g_assert_nonnull (code);
  return code;
}

static guint
count_occurrences (const char *haystack,
                   const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* ---- registry ---------------------------------------------------------------------------- */

static void
test_registry (void)
{
  const char * const *targets = dyno_codegen_list_targets ();
  const char * const expected[] = {
    "request-json", "cli", "js-v3", "js-docclient", "boto3", "boto3-resource", "go-v2",
    "java-v2", "rust", "dotnet", "kotlin", "php", "ruby", "cpp", "partiql",
  };
  g_autoptr(DynoRequest) request = case_request (&cases[0]);
  g_autoptr(GError) error = NULL;
  char *code;
  guint n = 0;

  for (; targets[n] != NULL; n++)
    {
      g_assert_cmpstr (targets[n], ==, expected[n]);
      g_assert_nonnull (dyno_codegen_get_label (targets[n]));
      g_assert_nonnull (dyno_codegen_get_language (targets[n]));
    }
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (expected));

  g_assert_cmpstr (dyno_codegen_get_language ("cli"), ==, "sh");
  g_assert_cmpstr (dyno_codegen_get_language ("js-docclient"), ==, "js");
  g_assert_cmpstr (dyno_codegen_get_language ("boto3"), ==, "python3");
  g_assert_cmpstr (dyno_codegen_get_language ("request-json"), ==, "json");
  g_assert_cmpstr (dyno_codegen_get_language ("partiql"), ==, "sql");
  g_assert_null (dyno_codegen_get_label ("cobol"));

  code = dyno_codegen_emit (request, "cobol", NULL, &error);
  g_assert_null (code);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "cobol"));
}

/* ---- structure --------------------------------------------------------------------------- */

/* Every expression string of the printed request appears exactly once, and so does every
 * placeholder's definition, in the targets that carry expression strings. */
static void
test_expressions_once (void)
{
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(DynoRequest) request = case_request (&cases[c]);
      g_autoptr(DynoPrintedRequest) printed = dyno_request_print (request);
      const char *expressions[] = {
        printed->key_condition, printed->filter, printed->projection, printed->condition,
        printed->update,
      };

      for (guint t = 0; t < G_N_ELEMENTS (my_targets); t++)
        for (int program = 0; program < 2; program++)
          {
            g_autofree char *code = emit_ok (request, my_targets[t], program);
            gboolean resource = g_str_equal (my_targets[t], "boto3-resource");

            for (guint e = 0; e < G_N_ELEMENTS (expressions); e++)
              {
                if (expressions[e] == NULL)
                  continue;
                /* The Table resource writes conditions with Key/Attr where it can. */
                if (resource && expressions[e] != printed->projection &&
                    !g_str_equal (cases[c].name, "update") &&
                    !g_str_equal (cases[c].name, "scan-dotted-name"))
                  {
                    g_assert_cmpuint (count_occurrences (code, expressions[e]), ==, 0);
                    continue;
                  }
                if (count_occurrences (code, expressions[e]) != 1)
                  g_error ("%s %s (%s): expression “%s” appears %u times in:\n%s",
                           cases[c].name, my_targets[t], program ? "program" : "snippet",
                           expressions[e], count_occurrences (code, expressions[e]), code);
              }
            g_assert_nonnull (strstr (code, ENDPOINT));
            g_assert_nonnull (strstr (code, "eu-west-3"));
            if (program && g_str_equal (my_targets[t], "cli"))
              g_assert_true (g_str_has_prefix (code, "#!/usr/bin/env bash\n"));
            if (program && cases[c].op <= DYNO_OP_SCAN)
              g_assert_nonnull (strstr (code, "LastEvaluatedKey"));
          }
    }
}

static void
test_request_json (void)
{
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(DynoRequest) request = case_request (&cases[c]);
      g_autofree char *code = emit_ok (request, "request-json", FALSE);
      g_autofree char *program = emit_ok (request, "request-json", TRUE);
      g_autofree char *expected = dyno_request_to_json (request, TRUE);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoRequest) back = dyno_request_from_json (code, -1, cases[c].op, &error);

      g_assert_no_error (error);
      g_assert_true (dyno_request_equal (request, back));
      g_assert_true (g_str_has_prefix (code, expected));
      g_assert_cmpstr (code, ==, program);
      /* The endpoint is connection state, not part of a request. */
      g_assert_null (strstr (code, ENDPOINT));
    }
}

/* The CLI's shell quoting, round-tripped through a real shell. */
static void
test_shell_quoting (void)
{
  const char *texts[] = {
    "plain", "", "it's", "''", "a'b'c", "\"double\" $HOME $(id) `id` \\ \\n", "new\nline\ttab",
    "é 😀 ~!#&*()[]{}|;<>?", "trailing\\",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GString) quoted = g_string_new (NULL);
      g_autofree char *script = NULL;
      g_autofree char *out = NULL;
      g_autoptr(GError) error = NULL;
      int status = 0;
      const char *argv[] = { "/bin/sh", "-c", NULL, NULL };

      dyno_codegen_append_quoted (quoted, texts[i], DYNO_QUOTE_SHELL);
      script = g_strdup_printf ("printf %%s %s", quoted->str);
      argv[2] = script;
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                   &out, NULL, &status, &error));
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      g_assert_cmpstr (out, ==, texts[i]);
    }
}

static void
test_partiql (void)
{
  struct {
    const char *case_name;
    const char *expected;    /* NULL: unsupported */
    const char *reason;      /* a word of the message */
  } expectations[] = {
    { "query-begins-with",
      "SELECT * FROM \"file-tree\" WHERE \"PK\" = 'DRIVE#a91' AND begins_with(\"SK\", 'root/photos/')\n",
      NULL },
    { "query-between-desc", NULL, "Limit" },
    { "query-gsi-filter-projection", NULL, "lineItems[0].sku" },
    { "scan-segments", NULL, "ExclusiveStartKey" },
    { "get", NULL, "ConsistentRead" },
    { "put-all-types", NULL, "returns no attributes" },
    { "update",
      "UPDATE \"tenant\" SET \"count\" = \"count\" + 1 SET \"lineItems\" = list_append(\"lineItems\", "
      "[{'sku': 'X'}]) REMOVE \"obsolete\" WHERE \"pk\" = 'TENANT#acme' AND \"sk\" = "
      "'INVOICE#2026-0014' AND \"pk\" IS NOT MISSING AND \"version\" = 7 RETURNING ALL NEW *\n",
      NULL },
    { "query-typed-values", NULL, "binary" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expectations); i++)
    {
      const Case *c = NULL;
      g_autoptr(DynoRequest) request = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *code = NULL;
      DynoCodegenOptions options = { FALSE, NULL, NULL, NULL };

      for (guint j = 0; j < G_N_ELEMENTS (cases); j++)
        if (g_str_equal (cases[j].name, expectations[i].case_name))
          c = &cases[j];
      g_assert_nonnull (c);
      request = case_request (c);
      code = dyno_codegen_emit (request, "partiql", &options, &error);
      if (expectations[i].expected != NULL)
        {
          g_assert_no_error (error);
          g_assert_cmpstr (code, ==, expectations[i].expected);
        }
      else
        {
          g_assert_null (code);
          g_assert_error (error, DYNO_ERROR, DYNO_ERROR_UNSUPPORTED);
          g_assert_true (g_str_has_prefix (error->message, "Not expressible in PartiQL: "));
          if (strstr (error->message, expectations[i].reason) == NULL)
            g_error ("%s: “%s” does not mention %s", c->name, error->message,
                     expectations[i].reason);
        }
    }
}

static void
test_partiql_more (void)
{
  struct {
    DynoOperation op;
    const char   *json;
    const char   *expected;
  } more[] = {
    { DYNO_OP_QUERY,
      "{\"TableName\":\"t\",\"KeyConditionExpression\":\"pk = :p AND sk > :s\",\"ScanIndexForward\":false,"
      "\"FilterExpression\":\"NOT attribute_exists(x) OR a IN (:a, :b)\","
      "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"it's\"},\":s\":{\"S\":\"b\"},"
      "\":a\":{\"SS\":[\"x\"]},\":b\":{\"M\":{\"k\":{\"L\":[{\"BOOL\":true},{\"NULL\":true}]}}}}}",
      "SELECT * FROM \"t\" WHERE \"pk\" = 'it''s' AND \"sk\" > 'b' AND (NOT (\"x\" IS NOT MISSING) OR "
      "\"a\" IN [<<'x'>>, {'k': [true, null]}]) ORDER BY \"sk\" DESC\n" },
    { DYNO_OP_QUERY,
      "{\"TableName\":\"tenant\",\"IndexName\":\"gsi1\",\"KeyConditionExpression\":\"gsi1pk = :o\","
      "\"FilterExpression\":\"#s = :s AND (amount > :min OR attribute_exists(#n)) AND size(#n) < :len\","
      "\"ProjectionExpression\":\"pk, #s, #n\",\"ExpressionAttributeNames\":{\"#s\":\"status\",\"#n\":\"name\"},"
      "\"ExpressionAttributeValues\":{\":o\":{\"S\":\"STATUS#open\"},\":s\":{\"S\":\"open\"},"
      "\":min\":{\"N\":\"-12.5\"},\":len\":{\"N\":\"40\"}}}",
      "SELECT \"pk\", \"status\", \"name\" FROM \"tenant\".\"gsi1\" WHERE \"gsi1pk\" = 'STATUS#open' AND "
      "\"status\" = 'open' AND (\"amount\" > -12.5 OR \"name\" IS NOT MISSING) AND size(\"name\") < 40\n" },
    { DYNO_OP_PUT_ITEM,
      "{\"TableName\":\"t\",\"Item\":{\"pk\":{\"S\":\"a\"},\"n\":{\"NS\":[\"1\",\"2\"]}},"
      "\"ConditionExpression\":\"attribute_not_exists(pk)\"}",
      "INSERT INTO \"t\" VALUE {'pk': 'a', 'n': <<1, 2>>}\n" },
    { DYNO_OP_DELETE_ITEM,
      "{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"ReturnValues\":\"ALL_OLD\"}",
      "DELETE FROM \"t\" WHERE \"pk\" = 'a' RETURNING ALL OLD *\n" },
    { DYNO_OP_PUT_ITEM, "{\"TableName\":\"t\",\"Item\":{\"pk\":{\"S\":\"a\"}}}", NULL },
    { DYNO_OP_UPDATE_ITEM,
      "{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"UpdateExpression\":\"SET x = :x\","
      "\"ExpressionAttributeValues\":{\":x\":{\"N\":\"1\"}}}", NULL },
    { DYNO_OP_UPDATE_ITEM,
      "{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"UpdateExpression\":\"SET x = :x\","
      "\"ConditionExpression\":\"attribute_exists(extra)\","
      "\"ExpressionAttributeValues\":{\":x\":{\"N\":\"1\"}}}", NULL },
    { DYNO_OP_QUERY,
      "{\"TableName\":\"t\",\"KeyConditionExpression\":\"pk = :p\",\"ScanIndexForward\":false,"
      "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"a\"}}}", NULL },
    /* a path name holding U+0000 (in a filter, a projection, an update): PartiQL cannot say
     * it, and must not write other bytes in its place */
    { DYNO_OP_SCAN,
      "{\"TableName\":\"t\",\"FilterExpression\":\"#n = :v\","
      "\"ExpressionAttributeNames\":{\"#n\":\"n\\u0000m\"},"
      "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"x\"}}}", NULL },
    { DYNO_OP_SCAN,
      "{\"TableName\":\"t\",\"ProjectionExpression\":\"pk, #n\","
      "\"ExpressionAttributeNames\":{\"#n\":\"\\u0000\"}}", NULL },
    { DYNO_OP_UPDATE_ITEM,
      "{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"UpdateExpression\":\"SET #n = :x\","
      "\"ConditionExpression\":\"attribute_exists(pk)\","
      "\"ExpressionAttributeNames\":{\"#n\":\"k\\u0000\"},"
      "\"ExpressionAttributeValues\":{\":x\":{\"N\":\"1\"}}}", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (more); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoRequest) request = dyno_request_from_json (more[i].json, -1, more[i].op, &error);
      g_autofree char *code = NULL;

      g_assert_no_error (error);
      code = dyno_codegen_emit (request, "partiql", NULL, &error);
      if (more[i].expected != NULL)
        {
          g_assert_no_error (error);
          g_assert_cmpstr (code, ==, more[i].expected);
        }
      else
        {
          g_assert_error (error, DYNO_ERROR, DYNO_ERROR_UNSUPPORTED);
          g_assert_null (code);
        }
    }
}

/* ---- executing the code with recording stubs ----------------------------------------------- */

static const char python_driver[] =
  "import base64, json, sys\n"
  "import boto3\n"
  "from boto3.dynamodb.conditions import ConditionBase, ConditionExpressionBuilder\n"
  "from boto3.dynamodb.types import TypeSerializer\n"
  "calls = []\n"
  "ser = TypeSerializer()\n"
  "builder = ConditionExpressionBuilder()\n"
  "def record(op, kwargs, table=None):\n"
  "    params = dict(kwargs)\n"
  "    if table is not None:\n"
  "        params['TableName'] = table\n"
  "        names = dict(params.get('ExpressionAttributeNames', {}))\n"
  "        values = dict(params.get('ExpressionAttributeValues', {}))\n"
  "        for m in ('KeyConditionExpression', 'FilterExpression', 'ConditionExpression'):\n"
  "            if isinstance(params.get(m), ConditionBase):\n"
  "                built = builder.build_expression(params[m], is_key_condition=m == 'KeyConditionExpression')\n"
  "                params[m] = built.condition_expression\n"
  "                names.update(built.attribute_name_placeholders)\n"
  "                values.update(built.attribute_value_placeholders)\n"
  "        if names:\n"
  "            params['ExpressionAttributeNames'] = names\n"
  "        if values:\n"
  "            params['ExpressionAttributeValues'] = {k: ser.serialize(v) for k, v in values.items()}\n"
  "        for m in ('Key', 'Item', 'ExclusiveStartKey'):\n"
  "            if m in params:\n"
  "                params[m] = {k: ser.serialize(v) for k, v in params[m].items()}\n"
  "    calls.append(params)\n"
  "    return {'Items': []}\n"
  "class Paginator:\n"
  "    def __init__(self, op): self.op = op\n"
  "    def paginate(self, **kwargs):\n"
  "        yield record(self.op, kwargs)\n"
  "class Client:\n"
  "    def get_paginator(self, op): return Paginator(op)\n"
  "    def __getattr__(self, op): return lambda **kwargs: record(op, kwargs)\n"
  "class Table:\n"
  "    def __init__(self, name): self.name = name\n"
  "    def __getattr__(self, op): return lambda **kwargs: record(op, kwargs, self.name)\n"
  "class Resource:\n"
  "    def Table(self, name): return Table(name)\n"
  "class Session:\n"
  "    def __init__(self, **kwargs): pass\n"
  "    def client(self, *a, **kw): return Client()\n"
  "    def resource(self, *a, **kw): return Resource()\n"
  "boto3.client = lambda *a, **kw: Client()\n"
  "boto3.resource = lambda *a, **kw: Resource()\n"
  "boto3.Session = Session\n"
  "for path in sys.argv[1:]:\n"
  "    calls.clear()\n"
  "    with open(path, encoding='utf-8') as f:\n"
  "        exec(compile(f.read(), path, 'exec'), {'__name__': '__main__'})\n"
  "    print(json.dumps(calls, default=lambda b: base64.b64encode(bytes(b)).decode('ascii')))\n";

static const char node_driver[] =
  "import { DynamoDBClient } from \"@aws-sdk/client-dynamodb\";\n"
  "import { DynamoDBDocumentClient } from \"@aws-sdk/lib-dynamodb\";\n"
  "import { marshall } from \"@aws-sdk/util-dynamodb\";\n"
  "import { pathToFileURL } from \"node:url\";\n"
  "let calls = [];\n"
  "DynamoDBClient.prototype.send = async function (command) {\n"
  "  calls.push(command.input);\n"
  "  return { Items: [] };\n"
  "};\n"
  "DynamoDBDocumentClient.prototype.send = async function (command) {\n"
  "  const input = { ...command.input };\n"
  "  for (const m of [\"Key\", \"Item\", \"ExclusiveStartKey\", \"ExpressionAttributeValues\"])\n"
  "    if (input[m]) input[m] = marshall(input[m]);\n"
  "  calls.push(input);\n"
  "  return { Items: [] };\n"
  "};\n"
  "function replacer(key, value) {\n"
  "  const original = this[key];\n"
  "  return original instanceof Uint8Array ? Buffer.from(original).toString(\"base64\") : value;\n"
  "}\n"
  "for (const file of process.argv.slice(2)) {\n"
  "  calls = [];\n"
  "  await import(pathToFileURL(file).href);\n"
  "  console.log(JSON.stringify(calls, replacer));\n"
  "}\n";

static char *
run (const char * const *argv,
     const char         *cwd)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = 0;

  if (!g_spawn_sync (cwd, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                     &status, &error))
    g_error ("cannot run %s: %s", argv[0], error->message);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("%s failed (%s):\n%s\n%s", argv[0], error->message, out, err);
  return out;
}

/* Conditions equal up to the grouping of AND/OR chains (a AND (b AND c) is (a AND b) AND c):
 * boto3's & and | associate to the left where DynamoDB's parser nests to the right. */
static void
flatten (const DynoExpr *expr,
         DynoExprKind    kind,
         GPtrArray      *out)
{
  while (expr->kind == DYNO_EXPR_PAREN)
    expr = expr->args->pdata[0];
  if (expr->kind == kind)
    {
      flatten (expr->args->pdata[0], kind, out);
      flatten (expr->args->pdata[1], kind, out);
    }
  else
    g_ptr_array_add (out, (gpointer) expr);
}

static gboolean
expr_equivalent (const DynoExpr *a,
                 const DynoExpr *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  while (a->kind == DYNO_EXPR_PAREN)
    a = a->args->pdata[0];
  while (b->kind == DYNO_EXPR_PAREN)
    b = b->args->pdata[0];
  if (a->kind != b->kind)
    return FALSE;
  if (a->kind == DYNO_EXPR_AND || a->kind == DYNO_EXPR_OR)
    {
      g_autoptr(GPtrArray) fa = g_ptr_array_new ();
      g_autoptr(GPtrArray) fb = g_ptr_array_new ();

      flatten (a, a->kind, fa);
      flatten (b, b->kind, fb);
      if (fa->len != fb->len)
        return FALSE;
      for (guint i = 0; i < fa->len; i++)
        if (!expr_equivalent (fa->pdata[i], fb->pdata[i]))
          return FALSE;
      return TRUE;
    }
  if ((a->args ? a->args->len : 0) != (b->args ? b->args->len : 0))
    return FALSE;
  for (guint i = 0; a->args != NULL && i < a->args->len; i++)
    if (!expr_equivalent (a->args->pdata[i], b->args->pdata[i]))
      return FALSE;
  if (a->kind == DYNO_EXPR_VALUE)
    return dyno_value_equal (a->value, b->value);
  if (a->kind == DYNO_EXPR_PATH || a->kind == DYNO_EXPR_SIZE)
    return dyno_path_equal (a->path, b->path);
  if (a->kind == DYNO_EXPR_COMPARE)
    return a->op.compare == b->op.compare;
  if (a->kind == DYNO_EXPR_FUNCTION)
    return a->op.function == b->op.function;
  return TRUE;
}

static gboolean
request_equivalent (const DynoRequest *a,
                    const DynoRequest *b)
{
  g_autoptr(DynoRequest) ca = dyno_request_copy (a);
  g_autoptr(DynoRequest) cb = dyno_request_copy (b);

  if (!expr_equivalent (a->key_condition, b->key_condition) ||
      !expr_equivalent (a->filter, b->filter) ||
      !expr_equivalent (a->condition, b->condition))
    return FALSE;
  g_clear_pointer (&ca->key_condition, dyno_expr_free);
  g_clear_pointer (&cb->key_condition, dyno_expr_free);
  g_clear_pointer (&ca->filter, dyno_expr_free);
  g_clear_pointer (&cb->filter, dyno_expr_free);
  g_clear_pointer (&ca->condition, dyno_expr_free);
  g_clear_pointer (&cb->condition, dyno_expr_free);
  return dyno_request_equal (ca, cb);
}

/* One recorded call (a JSON object of API members) must read back as the request. */
static void
assert_call_is_request (JsonNode          *call,
                        const DynoRequest *request,
                        const char        *what)
{
  g_autofree char *json = dyno_json_node_to_string (call, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) back = dyno_request_from_json (json, -1, request->operation, &error);

  if (back == NULL)
    g_error ("%s: the call %s does not read back: %s", what, json, error->message);
  if (!request_equivalent (request, back))
    {
      g_autofree char *expected = dyno_request_to_json (request, FALSE);

      g_error ("%s: the code sent\n  %s\nfor the request\n  %s", what, json, expected);
    }
}

/* Output: one JSON array of calls per line, one line per file. */
static void
check_recorded_output (const char *out,
                       GPtrArray  *requests,
                       GPtrArray  *labels)
{
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(GError) error = NULL;
      JsonArray *calls;

      if (lines[i][0] != '[')
        continue;
      g_assert_cmpuint (n, <, requests->len);
      /* Not json-glib's parser: it would cut strings at \u0000. */
      root = dyno_json_parse (lines[i], -1, &error);
      g_assert_no_error (error);
      calls = json_node_get_array (root);
      if (json_array_get_length (calls) != 1)
        g_error ("%s: %u calls instead of one: %s", (char *) labels->pdata[n],
                 json_array_get_length (calls), lines[i]);
      assert_call_is_request (json_array_get_element (calls, 0), requests->pdata[n],
                              labels->pdata[n]);
      n++;
    }
  g_assert_cmpuint (n, ==, requests->len);
}

static char *
write_temp (const char *dir,
            const char *name,
            const char *contents)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

static void
remove_tree (const char *dir)
{
  const char *argv[] = { "rm", "-rf", dir, NULL };
  g_autofree char *out = run (argv, NULL);
}

static void
run_target_with_stubs (const char *target)
{
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) requests = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_request_free);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  gboolean js = g_str_has_prefix (target, "js");
  const char *suffix = js ? ".mjs" : ".py";
  g_autofree char *modules = NULL;

  if (js)
    {
      const char *root = g_getenv ("DYNO_SOURCE_ROOT");
      g_autofree char *node = g_find_program_in_path ("node");

      modules = g_build_filename (root ? root : TEST_SRCDIR "/..", "tests", "node_modules", NULL);
      if (node == NULL || !g_file_test (modules, G_FILE_TEST_IS_DIR))
        {
          g_test_skip ("node or tests/node_modules is missing");
          return;
        }
    }
  else if (!g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("/usr/bin/python3 is missing");
      return;
    }

  dir = g_dir_make_tmp ("dyno-codegen-XXXXXX", &error);
  g_assert_no_error (error);
  if (js)
    {
      /* ES modules resolve packages from the importing file's folders upwards. */
      g_autofree char *link = g_build_filename (dir, "node_modules", NULL);

      g_assert_cmpint (symlink (modules, link), ==, 0);
    }

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (int program = 0; program < 2; program++)
      {
        DynoRequest *request = case_request (&cases[c]);
        g_autofree char *code = emit_ok (request, target, program);
        g_autofree char *name = g_strdup_printf ("%s-%s%s", cases[c].name,
                                                 program ? "program" : "snippet", suffix);

        g_ptr_array_add (files, write_temp (dir, name, code));
        g_ptr_array_add (requests, request);
        g_ptr_array_add (labels, g_strdup_printf ("%s %s", target, name));
      }

  if (js)
    {
      g_autofree char *driver = write_temp (dir, "driver.mjs", node_driver);
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();
      g_autofree char *out = NULL;

      g_ptr_array_add (argv, (char *) "node");
      g_ptr_array_add (argv, (char *) "--no-warnings");
      g_ptr_array_add (argv, driver);
      for (guint i = 0; i < files->len; i++)
        g_ptr_array_add (argv, files->pdata[i]);
      g_ptr_array_add (argv, NULL);
      out = run ((const char * const *) argv->pdata, dir);
      check_recorded_output (out, requests, labels);
    }
  else
    {
      g_autofree char *driver = write_temp (dir, "driver.py", python_driver);
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();
      g_autofree char *out = NULL;
      const char *probe[] = { "/usr/bin/python3", "-c", "import boto3", NULL };
      int status = 0;

      if (!g_spawn_sync (NULL, (char **) probe, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                         NULL, NULL, &status, NULL) ||
          !g_spawn_check_wait_status (status, NULL))
        {
          remove_tree (dir);
          g_test_skip ("boto3 is not installed for /usr/bin/python3");
          return;
        }
      g_ptr_array_add (argv, (char *) "/usr/bin/python3");
      g_ptr_array_add (argv, driver);
      for (guint i = 0; i < files->len; i++)
        g_ptr_array_add (argv, files->pdata[i]);
      g_ptr_array_add (argv, NULL);
      out = run ((const char * const *) argv->pdata, dir);
      check_recorded_output (out, requests, labels);
    }
  remove_tree (dir);
}

static void
test_run_boto3 (void)
{
  run_target_with_stubs ("boto3");
}

static void
test_run_boto3_resource (void)
{
  run_target_with_stubs ("boto3-resource");
}

static void
test_run_js_v3 (void)
{
  run_target_with_stubs ("js-v3");
}

static void
test_run_js_docclient (void)
{
  run_target_with_stubs ("js-docclient");
}

/* The CLI's arguments back into a request JSON: --kebab-case options to members, JSON
 * arguments parsed, --no-x to false.  Options that are not request members are dropped. */
static JsonNode *
cli_arguments_to_request (char **args,
                          guint  n)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  const char *json_members[] = { "Key", "Item", "ExclusiveStartKey", "ExpressionAttributeNames",
                                 "ExpressionAttributeValues", NULL };
  const char *int_members[] = { "Limit", "Segment", "TotalSegments", NULL };

  json_builder_begin_object (builder);
  g_assert_cmpuint (n, >=, 2);
  g_assert_cmpstr (args[0], ==, "dynamodb");
  for (guint i = 2; i < n; i++)
    {
      g_autoptr(GString) member = g_string_new (NULL);
      const char *option = args[i];
      gboolean negated = g_str_has_prefix (option, "--no-");
      gboolean upper = TRUE;

      g_assert_true (g_str_has_prefix (option, "--"));
      if (g_str_equal (option, "--endpoint-url") || g_str_equal (option, "--region") ||
          g_str_equal (option, "--profile") || g_str_equal (option, "--cli-binary-format") ||
          g_str_equal (option, "--output") || g_str_equal (option, "--query"))
        {
          i++;
          continue;
        }
      if (g_str_equal (option, "--no-paginate"))
        continue;
      for (const char *p = option + (negated ? 5 : 2); *p; p++)
        {
          if (*p == '-')
            upper = TRUE;
          else
            {
              g_string_append_c (member, upper ? g_ascii_toupper (*p) : *p);
              upper = FALSE;
            }
        }
      json_builder_set_member_name (builder, member->str);
      if (g_str_equal (member->str, "ScanIndexForward") || g_str_equal (member->str, "ConsistentRead"))
        {
          json_builder_add_boolean_value (builder, !negated);
          continue;
        }
      g_assert_cmpuint (i + 1, <, n);
      i++;
      if (g_strv_contains (json_members, member->str))
        {
          g_autoptr(GError) error = NULL;
          JsonNode *node = dyno_json_parse (args[i], -1, &error);

          g_assert_no_error (error);
          json_builder_add_value (builder, node);
        }
      else if (g_strv_contains (int_members, member->str))
        json_builder_add_int_value (builder, g_ascii_strtoll (args[i], NULL, 10));
      else
        json_builder_add_string_value (builder, args[i]);
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static const char * const cli_commands[] = {
  "query", "scan", "get-item", "put-item", "update-item", "delete-item",
};

static void
test_run_cli (void)
{
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *bash = g_find_program_in_path ("bash");

  if (bash == NULL)
    {
      g_test_skip ("bash is missing");
      return;
    }
  dir = g_dir_make_tmp ("dyno-codegen-XXXXXX", &error);
  g_assert_no_error (error);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (int program = 0; program < 2; program++)
      {
        g_autoptr(DynoRequest) request = case_request (&cases[c]);
        g_autofree char *code = emit_ok (request, "cli", program);
        g_autofree char *script = write_temp (dir, "script.sh", code);
        g_autofree char *record = g_build_filename (dir, "args", NULL);
        g_autofree char *label = g_strdup_printf ("cli %s %s", cases[c].name,
                                                  program ? "program" : "snippet");
        g_autofree char *wrapper = g_strdup_printf (
          "aws () { printf '%%s\\0' \"$@\" > '%s'; echo null; }\n"
          "source '%s'\n", record, script);
        const char *argv[] = { bash, "--norc", "-c", wrapper, NULL };
        g_autofree char *out = NULL;
        g_autofree char *recorded = NULL;
        gsize len = 0;
        g_autoptr(GPtrArray) args = g_ptr_array_new ();
        g_autoptr(JsonNode) call = NULL;

        /* `bash -n` first: a syntax error would otherwise only show as a missing call. */
        {
          const char *check[] = { bash, "-n", script, NULL };
          g_autofree char *ignored = run (check, dir);
        }
        remove (record);
        out = run (argv, dir);
        g_assert_true (g_file_get_contents (record, &recorded, &len, &error));
        g_assert_no_error (error);
        for (gsize p = 0; p < len; p += strlen (recorded + p) + 1)
          g_ptr_array_add (args, recorded + p);
        call = cli_arguments_to_request ((char **) args->pdata, args->len);
        g_assert_cmpstr (args->pdata[1], ==, cli_commands[cases[c].op]);
        assert_call_is_request (call, request, label);
        /* The stub answered "null": nothing is printed as an item. */
        g_assert_cmpstr (program ? out : "", ==, "");
      }
  remove_tree (dir);
}

/* The PartiQL program passes Limit (which the statement cannot) and runs the statement. */
static void
test_partiql_program (void)
{
  g_autoptr(DynoRequest) request = case_request (&cases[1]);  /* query-between-desc */
  DynoCodegenOptions options = { TRUE, ENDPOINT, "eu-west-3", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *code = dyno_codegen_emit (request, "partiql", &options, &error);
  g_autofree char *bash = g_find_program_in_path ("bash");
  g_autofree char *dir = NULL;
  g_autofree char *script = NULL;
  g_autofree char *record = NULL;
  g_autofree char *wrapper = NULL;
  g_autofree char *recorded = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  gsize len = 0;
  const char *statement = NULL;
  const char *limit = NULL;

  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (code, "#!/usr/bin/env bash\n"));
  if (bash == NULL)
    {
      g_test_skip ("bash is missing");
      return;
    }
  dir = g_dir_make_tmp ("dyno-codegen-XXXXXX", &error);
  g_assert_no_error (error);
  script = write_temp (dir, "partiql.sh", code);
  record = g_build_filename (dir, "args", NULL);
  wrapper = g_strdup_printf ("aws () { printf '%%s\\0' \"$@\" > '%s'; echo null; }\n"
                             "source '%s'\n", record, script);
  {
    const char *argv[] = { bash, "--norc", "-c", wrapper, NULL };

    out = run (argv, dir);
  }
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_file_get_contents (record, &recorded, &len, &error));
  g_assert_no_error (error);
  for (gsize p = 0; p < len; p += strlen (recorded + p) + 1)
    g_ptr_array_add (args, recorded + p);
  g_assert_cmpstr (args->pdata[0], ==, "dynamodb");
  g_assert_cmpstr (args->pdata[1], ==, "execute-statement");
  for (guint i = 2; i + 1 < args->len; i++)
    {
      if (g_str_equal (args->pdata[i], "--statement"))
        statement = args->pdata[i + 1];
      if (g_str_equal (args->pdata[i], "--limit"))
        limit = args->pdata[i + 1];
    }
  g_assert_cmpstr (statement, ==,
                   "SELECT * FROM \"audit-log\" WHERE \"PK\" = 'ACTOR#u_8814' AND \"SK\" BETWEEN "
                   "'EVT#2026-06-23T00:00:00Z' AND 'EVT#2026-06-23T23:59:59Z' ORDER BY \"SK\" DESC");
  g_assert_cmpstr (limit, ==, "2");
  remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/codegen/registry", test_registry);
  g_test_add_func ("/codegen/expressions-once", test_expressions_once);
  g_test_add_func ("/codegen/request-json", test_request_json);
  g_test_add_func ("/codegen/shell-quoting", test_shell_quoting);
  g_test_add_func ("/codegen/partiql", test_partiql);
  g_test_add_func ("/codegen/partiql-more", test_partiql_more);
  g_test_add_func ("/codegen/partiql-program", test_partiql_program);
  g_test_add_func ("/codegen/run/cli", test_run_cli);
  g_test_add_func ("/codegen/run/boto3", test_run_boto3);
  g_test_add_func ("/codegen/run/boto3-resource", test_run_boto3_resource);
  g_test_add_func ("/codegen/run/js-v3", test_run_js_v3);
  g_test_add_func ("/codegen/run/js-docclient", test_run_js_docclient);

  return g_test_run ();
}
