#!/usr/bin/python3
# test_cli_expr.py: `dynotable-cli expr …`, run as a person runs it
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs the built CLI (env DYNOTABLE_CLI).  Offline by design: exit 0 with the output on stdout
# and nothing on stderr, or exit 2 with the problem on stderr and nothing on stdout.  When
# DYNO_TEST_ENDPOINT names a DynamoDB server (with-ddb-local.sh starts one) and /usr/bin/aws
# exists, the emitted request JSON is also run through `aws dynamodb <op> --cli-input-json`
# against it; without a server the AWS CLI still validates the members client-side.

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

CLI = os.environ.get("DYNOTABLE_CLI")
AWS = "/usr/bin/aws"
ENDPOINT = os.environ.get("DYNO_TEST_ENDPOINT")

SCHEMA = {
    "Table": {
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "gsi1pk", "AttributeType": "S"},
            {"AttributeName": "gsi1sk", "AttributeType": "N"},
        ],
        "TableName": "Files",
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "TableStatus": "ACTIVE",
        "CreationDateTime": "2026-06-23T09:12:00.000000+00:00",
        "ProvisionedThroughput": {
            "NumberOfDecreasesToday": 0,
            "ReadCapacityUnits": 0,
            "WriteCapacityUnits": 0,
        },
        "TableSizeBytes": 0,
        "ItemCount": 0,
        "TableArn": "arn:aws:dynamodb:us-east-1:000000000000:table/Files",
        "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
        "GlobalSecondaryIndexes": [
            {
                "IndexName": "gsi1",
                "KeySchema": [
                    {"AttributeName": "gsi1pk", "KeyType": "HASH"},
                    {"AttributeName": "gsi1sk", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
                "IndexStatus": "ACTIVE",
                "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0},
                "IndexSizeBytes": 0,
                "ItemCount": 0,
            }
        ],
    }
}

# Request JSON as SDKs and `--cli-input-json` take it: [name, op for --op or None, json]
CORPUS = [
    ("file-tree", None, {
        "TableName": "Drive",
        "KeyConditionExpression": "PK = :pk AND begins_with(SK, :p)",
        "ExpressionAttributeValues": {":pk": {"S": "DRIVE#a91"}, ":p": {"S": "root/photos/"}},
    }),
    ("audit-log", None, {
        "TableName": "Audit",
        "KeyConditionExpression": "#pk = :a AND #sk BETWEEN :b AND :c",
        "ExpressionAttributeNames": {"#pk": "PK", "#sk": "SK"},
        "ExpressionAttributeValues": {
            ":a": {"S": "ACTOR#u_8814"},
            ":b": {"S": "EVT#2026-06-23T00:00:00Z"},
            ":c": {"S": "EVT#2026-06-23T23:59:59Z"},
        },
        "ScanIndexForward": False,
        "Limit": 10,
        "ExclusiveStartKey": {"PK": {"S": "ACTOR#u_8814"}, "SK": {"S": "EVT#2026-06-23T12:00Z"}},
    }),
    ("reserved-and-odd-names", None, {
        "TableName": "Things",
        "FilterExpression": "#s = :s AND #od > :d AND #dot.#x = :n AND size(#d) > :z",
        "ProjectionExpression": "#s, #od, #d[0]",
        "ExpressionAttributeNames": {"#s": "status", "#od": "order-date", "#dot": "a.b",
                                     "#x": "1x", "#d": "data"},
        "ExpressionAttributeValues": {
            ":s": {"S": "open"}, ":d": {"S": "2026"},
            ":n": {"N": "12345678901234567890123456789012345678"}, ":z": {"N": "0"},
        },
        "Segment": 0,
        "TotalSegments": 2,
    }),
    ("binary-and-sets", None, {
        "TableName": "Things",
        "FilterExpression": "b = :b AND contains(tags, :t) AND m = :m AND ns = :ns",
        "ExpressionAttributeValues": {
            ":b": {"B": "AAEC/w=="}, ":t": {"S": "x"},
            ":m": {"M": {"l": {"L": [{"NULL": True}, {"BOOL": False}, {"SS": ["a", "b"]}]}}},
            ":ns": {"NS": ["1", "2.5"]},
        },
    }),
    ("get", None, {
        "TableName": "Users",
        "Key": {"pk": {"S": "USER#u_3001"}, "sk": {"N": "42"}},
        "ProjectionExpression": "#n, email",
        "ExpressionAttributeNames": {"#n": "name"},
        "ConsistentRead": True,
    }),
    ("put", None, {
        "TableName": "Users",
        "Item": {"pk": {"S": "USER#u_3001"}, "blob": {"B": "AQID"}, "tags": {"SS": ["a"]}},
        "ConditionExpression": "attribute_not_exists(pk)",
        "ReturnValues": "ALL_OLD",
    }),
    ("update", None, {
        "TableName": "Counters",
        "Key": {"pk": {"S": "PAGE#home"}},
        "UpdateExpression": "SET #v = #v + :one, hist = list_append(hist, :h) REMOVE tmp "
                            "ADD tags :tag DELETE banned :ban",
        "ConditionExpression": "attribute_exists(pk)",
        "ExpressionAttributeNames": {"#v": "views"},
        "ExpressionAttributeValues": {":one": {"N": "1"}, ":h": {"L": [{"S": "x"}]},
                                      ":tag": {"SS": ["new"]}, ":ban": {"SS": ["bad"]}},
        "ReturnValues": "UPDATED_NEW",
    }),
    ("delete", "delete", {
        "TableName": "Docs",
        "Key": {"pk": {"S": "DOC#1"}},
        "ConditionExpression": "version = :v",
        "ExpressionAttributeValues": {":v": {"N": "7"}},
        "ReturnValues": "ALL_OLD",
    }),
]


def run_cli(*args, stdin=None):
    proc = subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True,
                          timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def aws_env():
    env = dict(os.environ)
    # Dummy credentials only: the AWS CLI wants some before it validates anything, and a
    # user's real ones must never be used by a test.
    env.update({"AWS_ACCESS_KEY_ID": "fakeMyKeyId", "AWS_SECRET_ACCESS_KEY": "fakeSecret",
                "AWS_DEFAULT_REGION": "us-east-1", "AWS_MAX_ATTEMPTS": "1",
                "AWS_EC2_METADATA_DISABLED": "true", "AWS_PAGER": ""})
    for name in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN"):
        env.pop(name, None)
    return env


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test-cli-expr-")
        self.schema = os.path.join(self.tmp, "schema.json")
        with open(self.schema, "w") as f:
            json.dump(SCHEMA, f, indent=4)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, data):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(data if isinstance(data, str) else json.dumps(data))
        return path

    def ok(self, *args, stdin=None):
        code, out, err = run_cli(*args, stdin=stdin)
        self.assertEqual(code, 0, f"{args}: exit {code}, stderr: {err}")
        self.assertEqual(err, "", f"{args}: stderr not empty")
        self.assertNotEqual(out.strip(), "", f"{args}: empty output")
        return out

    def ok_json(self, *args, stdin=None):
        return json.loads(self.ok(*args, stdin=stdin))

    def fails(self, *args, stdin=None):
        code, out, err = run_cli(*args, stdin=stdin)
        self.assertEqual(code, 2, f"{args}: exit {code}, stdout: {out} stderr: {err}")
        self.assertEqual(out, "", f"{args}: output on stdout with an error")
        self.assertTrue(err.startswith("dynotable-cli"), f"{args}: stderr: {err!r}")
        return err


class TestBuild(Base):
    def test_query_default_emit_is_request_json(self):
        req = self.ok_json("expr", "query", "Files",
                           "--key", 'PK = "DRIVE#a91" AND begins_with(SK, "root/photos/")')
        self.assertEqual(list(req), ["TableName", "KeyConditionExpression",
                                     "ExpressionAttributeValues"])
        self.assertEqual(req["TableName"], "Files")
        values = sorted(v["S"] for v in req["ExpressionAttributeValues"].values())
        self.assertEqual(values, ["DRIVE#a91", "root/photos/"])
        # Every placeholder is used.
        for ph in req["ExpressionAttributeValues"]:
            self.assertIn(ph, req["KeyConditionExpression"])

    def test_query_all_options(self):
        req = self.ok_json("expr", "query", "Files", "--schema", self.schema,
                           "--key", 'PK = "ACTOR#u_8814" AND SK BETWEEN '
                                    '"EVT#2026-06-23T00:00:00Z" AND "EVT#2026-06-23T23:59:59Z"',
                           "--filter", 'status = "ok" AND `order-date` > "2026"',
                           "--project", "SK, status, `order-date`, payload.items[0]",
                           "--desc", "--limit", "10", "--consistent",
                           "--start-key", '{"PK":{"S":"ACTOR#u_8814"},"SK":{"S":"EVT#2026-06-23T12:00:00Z"}}',
                           "--select", "SPECIFIC_ATTRIBUTES",
                           "--return-consumed-capacity", "total")
        self.assertEqual(list(req), [
            "TableName", "KeyConditionExpression", "FilterExpression", "ProjectionExpression",
            "ExpressionAttributeNames", "ExpressionAttributeValues", "ExclusiveStartKey",
            "Limit", "ScanIndexForward", "ConsistentRead", "Select", "ReturnConsumedCapacity"])
        self.assertEqual(req["Limit"], 10)
        self.assertIs(req["ScanIndexForward"], False)
        self.assertIs(req["ConsistentRead"], True)
        self.assertEqual(req["ReturnConsumedCapacity"], "TOTAL")
        names = set(req["ExpressionAttributeNames"].values())
        # Reserved words and a dash are aliased; plain names are not.
        self.assertTrue({"status", "order-date", "items"} <= names, names)
        self.assertNotIn("SK", names)

    def test_scan_parallel(self):
        req = self.ok_json("expr", "scan", "Big", "--segment", "1", "--total-segments", "4",
                           "--select", "count")
        self.assertEqual(req, {"TableName": "Big", "Select": "COUNT", "Segment": 1,
                               "TotalSegments": 4})

    def test_get_put_update_delete(self):
        key = '{"PK":{"S":"DRIVE#a91"},"SK":{"S":"root/"}}'
        get = self.ok_json("expr", "get", "Files", "--key-item", key, "--project", "name, size",
                           "--consistent")
        self.assertEqual(list(get), ["TableName", "Key", "ProjectionExpression",
                                     "ExpressionAttributeNames", "ConsistentRead"])
        self.assertEqual(get["Key"], json.loads(key))

        put = self.ok_json("expr", "put", "Files", "--item",
                           '{"PK":{"S":"a"},"SK":{"S":"b"},"n":{"N":"1e2"}}',
                           "--condition", "attribute_not_exists(PK)", "--return-values",
                           "ALL_OLD")
        self.assertEqual(list(put), ["TableName", "Item", "ConditionExpression",
                                     "ReturnValues"])
        self.assertEqual(put["Item"]["n"], {"N": "100"})

        upd = self.ok_json("expr", "update", "Files", "--key-item", key,
                           "--update", 'SET views = views + 1, title = "x" REMOVE tmp',
                           "--condition", "attribute_exists(PK)",
                           "--return-values", "updated-new")
        self.assertEqual(list(upd), ["TableName", "Key", "UpdateExpression",
                                     "ConditionExpression", "ExpressionAttributeNames",
                                     "ExpressionAttributeValues", "ReturnValues"])
        self.assertEqual(upd["ReturnValues"], "UPDATED_NEW")

        dele = self.ok_json("expr", "delete", "Files", "--key-item", key,
                            "--condition", "version = 3")
        self.assertEqual(list(dele), ["TableName", "Key", "ConditionExpression",
                                      "ExpressionAttributeValues"])
        self.assertEqual(list(dele["ExpressionAttributeValues"].values()), [{"N": "3"}])

    def test_plain_items_use_schema_types(self):
        get = self.ok_json("expr", "get", "Files", "--schema", self.schema, "--plain",
                           "--key-item", '{"PK": "DRIVE#a91", "SK": "root/"}')
        self.assertEqual(get["Key"], {"PK": {"S": "DRIVE#a91"}, "SK": {"S": "root/"}})
        put = self.ok_json("expr", "put", "Files", "--plain",
                           "--item", '{"PK": "a", "SK": "b", "n": 12.50, "ok": true, "l": [1]}')
        self.assertEqual(put["Item"]["n"], {"N": "12.5"})
        self.assertEqual(put["Item"]["ok"], {"BOOL": True})
        self.assertEqual(put["Item"]["l"], {"L": [{"N": "1"}]})

    def test_values_option(self):
        req = self.ok_json("expr", "scan", "Things", "--filter", "photo = :img AND contains(tags, :t)",
                           "--values", '{":img": {"B": "iVBORw0K"}, ":t": {"S": "red"}}')
        values = list(req["ExpressionAttributeValues"].values())
        self.assertIn({"B": "iVBORw0K"}, values)
        self.assertIn({"S": "red"}, values)

        err = self.fails("expr", "scan", "Things", "--filter", "a = :x",
                         "--values", '{":x": {"S": "1"}, ":unused": {"N": "1"}}')
        self.assertIn(":unused", err)
        err = self.fails("expr", "scan", "Things", "--filter", "a = :x", "--values", '{"x": {"S": "1"}}')
        self.assertIn("--values", err)
        err = self.fails("expr", "scan", "Things", "--filter", "a = :x", "--values", '{":x": {"Q": 1}}')
        self.assertIn("--values", err)
        err = self.fails("expr", "scan", "Things", "--filter", "a = :nope")
        self.assertIn(":nope", err)

    def test_reserved_words_inline(self):
        req = self.ok_json("expr", "scan", "Things", "--filter",
                           'name = "x" AND `a.b` = 1 AND `order-date` BETWEEN "1" AND "2"')
        names = req["ExpressionAttributeNames"]
        self.assertEqual(sorted(names.values()), ["a.b", "name", "order-date"])
        for ph in names:
            self.assertIn(ph, req["FilterExpression"])


class TestErrors(Base):
    def caret_column(self, err, text):
        """The 1-based column the caret points at, under the echoed text."""
        lines = err.splitlines()
        for i, line in enumerate(lines[:-1]):
            if line == "  " + text:
                caret = lines[i + 1]
                self.assertTrue(caret.startswith("  "), caret)
                return caret.index("^") - 2 + 1
        self.fail(f"text not echoed in {err!r}")

    def test_syntax_error_caret(self):
        text = 'PK = "a" AND SK >> 3'
        err = self.fails("expr", "query", "Files", "--key", text)
        self.assertIn("--key", err)
        col = self.caret_column(err, text)
        # The caret is under the second '>', the column the message names.
        self.assertEqual(text[col - 1], ">")
        self.assertEqual(text[col - 2], ">")
        m = re.search(r"column (\d+)", err)
        self.assertIsNotNone(m, err)
        self.assertEqual(int(m.group(1)), col)

    def test_syntax_error_at_end(self):
        text = 'PK = "DRIVE#a91" AND begins_with(SK, "root/photos/"'
        err = self.fails("expr", "query", "Files", "--key", text)
        self.assertEqual(self.caret_column(err, text), len(text) + 1)

    def test_caret_counts_characters(self):
        # Multi-byte UTF-8 before the error: the caret counts characters, not bytes.
        text = 'PK = "größe€" AND SK >> 3'
        err = self.fails("expr", "query", "Files", "--key", text)
        col = self.caret_column(err, text)
        self.assertEqual(text[col - 1], ">")
        self.assertEqual(text[col - 2], ">")

    def test_filter_and_update_errors_point_at_their_option(self):
        err = self.fails("expr", "scan", "Things", "--filter", "a = = 1")
        self.assertIn("--filter", err)
        err = self.fails("expr", "update", "Things", "--key-item", '{"pk":{"S":"a"}}',
                         "--update", "SET")
        self.assertIn("--update", err)
        err = self.fails("expr", "get", "Things", "--key-item", '{"pk":{"S":"a"}}',
                         "--project", "a,,b")
        self.assertIn("--project", err)

    def test_usage_errors(self):
        self.fails("expr")
        self.fails("expr", "frobnicate", "Things")
        self.fails("expr", "query")
        self.fails("expr", "query", "Things")                         # no --key
        self.fails("expr", "query", "Things", "U", "--key", "pk = 1")  # two tables
        self.fails("expr", "query", "Things", "--key", "pk = 1", "--bogus")
        self.fails("expr", "scan", "Things", "--key", "pk = 1")       # not a scan option
        self.fails("expr", "get", "Things")                           # no --key-item
        self.fails("expr", "put", "Things")                           # no --item
        self.fails("expr", "get", "Things", "--key-item", "not json")
        self.fails("expr", "get", "Things", "--key-item", '{"pk":{"N":"x"}}')
        self.fails("expr", "scan", "Things", "--limit", "0")
        self.fails("expr", "scan", "Things", "--select", "everything")
        self.fails("expr", "put", "Things", "--item", '{"pk":{"S":"a"}}', "--return-values",
                   "ALL_NEW")
        self.fails("expr", "scan", "Things", "--schema", os.path.join(self.tmp, "missing.json"))
        self.fails("expr", "scan", "Things", "--schema", self.write("bad.json", "{"))
        err = self.fails("expr", "scan", "Things", "--emit", "cobol")
        self.assertIn("request-json", err)

    def test_help(self):
        code, out, err = run_cli("expr", "--help")
        self.assertEqual(code, 0)
        self.assertIn("query", out)
        code, out, err = run_cli("expr", "query", "--help")
        self.assertEqual(code, 0)
        self.assertIn("--key", out)
        self.assertIn("request-json", out)


class TestSchema(Base):
    def check(self, needle, *args):
        err = self.fails("expr", *args, "--schema", self.schema)
        self.assertIn(needle, err)
        return err

    def test_valid_with_schema(self):
        self.ok_json("expr", "query", "Files", "--schema", self.schema,
                     "--key", 'PK = "DRIVE#a91" AND begins_with(SK, "root/")',
                     "--filter", "size > 100")
        self.ok_json("expr", "query", "Files", "--schema", self.schema, "--index", "gsi1",
                     "--key", 'gsi1pk = "STATUS#open" AND gsi1sk > 20260101')

    def test_schema_rules(self):
        self.check("PK", "query", "Files", "--key", "PK = 1")
        self.check("nope", "query", "Files", "--key", 'gsi1pk = "x"', "--index", "nope")
        self.check("--consistent", "query", "Files", "--key", 'gsi1pk = "x"', "--index",
                   "gsi1", "--consistent")
        self.check("begins_with", "query", "Files", "--index", "gsi1",
                   "--key", 'gsi1pk = "x" AND begins_with(gsi1sk, "2")')
        self.check("BETWEEN", "query", "Files",
                   "--key", 'PK = "x" AND SK BETWEEN "b" AND "a"')
        self.check("PK", "get", "Files", "--key-item", '{"PK":{"S":""},"SK":{"S":"a"}}')

    def test_key_type_issue_points_into_key(self):
        text = 'PK = "x" AND SK > 3'
        err = self.check("SK", "query", "Files", "--key", text)
        self.assertIn("--key", err)
        lines = err.splitlines()
        if "  " + text in lines:
            caret = lines[lines.index("  " + text) + 1]
            self.assertLessEqual(caret.index("^") - 2, len(text))

    def test_filter_on_key_points_at_it(self):
        text = 'size > 1 AND SK = "y"'
        err = self.check("SK", "query", "Files", "--key", 'PK = "x"', "--filter", text)
        self.assertIn("--filter", err)
        lines = err.splitlines()
        if "  " + text in lines:
            caret = lines[lines.index("  " + text) + 1]
            self.assertEqual(text[caret.index("^") - 2:].split()[0], "SK")

    def test_rules_without_schema(self):
        # Shape rules need no schema.
        err = self.fails("expr", "query", "Things", "--key", 'pk = "a" OR sk = "b"')
        self.assertIn("OR", err)
        self.fails("expr", "scan", "Things", "--segment", "4", "--total-segments", "2")


class TestLimits(Base):
    """DynamoDB's limits on one expression, said as DynamoDB says them, on every option."""

    def test_long_or_chain_names_the_limits(self):
        err = self.fails("expr", "query", "Files", "--key", 'PK = "x"',
                         "--filter", " OR ".join(["a = 1"] * 1200))
        self.assertIn("--filter", err)
        self.assertIn("at most 300 operators and functions", err)
        self.assertIn("4096 bytes", err)
        self.assertNotIn("nested", err)

    def test_operator_limit(self):
        ok = " OR ".join("attribute_exists(a%d)" % i for i in range(150))
        self.ok_json("expr", "scan", "Files", "--filter", ok)
        err = self.fails("expr", "scan", "Files", "--filter", ok + " OR a = 1")
        self.assertIn("301 operators and functions; DynamoDB allows at most 300", err)

    def test_expression_size_on_every_option(self):
        name = "n" * 60
        filt = " OR ".join("attribute_not_exists(%s%d)" % (name, i) for i in range(60))
        err = self.fails("expr", "scan", "Files", "--filter", filt)
        self.assertIn("--filter", err)
        self.assertRegex(err, r"FilterExpression: the expression is \d+ bytes long as sent; "
                              r"DynamoDB accepts at most 4096 bytes")
        err = self.fails("expr", "delete", "Files", "--key-item",
                         '{"PK":{"S":"a"},"SK":{"S":"b"}}', "--condition", filt)
        self.assertIn("ConditionExpression: the expression is", err)
        update = "SET " + ", ".join("%s%d = 1" % (name, i) for i in range(80))
        err = self.fails("expr", "update", "Files", "--key-item",
                         '{"PK":{"S":"a"},"SK":{"S":"b"}}', "--update", update)
        self.assertIn("UpdateExpression: the expression is", err)
        projection = ", ".join("%s%d" % (name, i) for i in range(80))
        err = self.fails("expr", "scan", "Files", "--project", projection)
        self.assertIn("ProjectionExpression: the expression is", err)
        # the same request pasted as JSON is refused too
        err = self.fails("expr", "import", "-", "--op", "scan",
                         stdin=json.dumps({"TableName": "Files", "FilterExpression": filt}))
        self.assertIn("4096", err)

    def test_index_projection(self):
        schema = json.loads(json.dumps(SCHEMA))
        gsi = schema["Table"]["GlobalSecondaryIndexes"][0]
        gsi["Projection"] = {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["size"]}
        path = self.write("include.json", schema)
        base = ("expr", "query", "Files", "--schema", path, "--index", "gsi1",
                "--key", 'gsi1pk = "STATUS#open"')
        self.ok_json(*base, "--filter", "size > 1", "--project", "PK, size")
        err = self.fails(*base, "--filter", "size > 1 AND owner = \"u\"")
        self.assertIn("--filter", err)
        self.assertIn("the index gsi1 (projection INCLUDE) carries only PK, SK, gsi1pk, gsi1sk, "
                      "size; it cannot filter on owner", err)
        err = self.fails(*base, "--project", "PK, owner, title")
        self.assertIn("--project", err)
        self.assertIn("cannot return owner, title", err)
        self.assertIn("Global secondary index gsi1 does not project [owner, title]", err)


class TestImport(Base):
    def test_round_trip(self):
        for name, op, req in CORPUS:
            with self.subTest(name=name):
                src = self.write(name + ".json", req)
                extra = ["--op", op] if op else []
                out1 = self.ok("expr", "import", src, *extra)
                first = json.loads(out1)
                self.assertEqual(first["TableName"], req["TableName"])
                # Same members (placeholders may be renamed, and names that need no alias
                # lose it, which may drop ExpressionAttributeNames).
                ean = {"ExpressionAttributeNames"}
                self.assertEqual(set(first) - ean, set(req) - ean)
                # Re-emitting is a fixed point, from a file and from stdin.
                out2 = self.ok("expr", "import", self.write(name + ".out.json", out1), *extra)
                self.assertEqual(out1, out2)
                out3 = self.ok("expr", "import", "-", *extra, stdin=out1)
                self.assertEqual(out1, out3)
                # Values survive exactly.
                self.assertEqual(sorted(json.dumps(v, sort_keys=True) for v in
                                        first.get("ExpressionAttributeValues", {}).values()),
                                 sorted(json.dumps(v, sort_keys=True) for v in
                                        req.get("ExpressionAttributeValues", {}).values()))

    def test_import_errors(self):
        err = self.fails("expr", "import", "-", stdin='{"TableName": ')
        self.assertIn("JSON", err)
        err = self.fails("expr", "import", "-", stdin='{"TableName":"Things","Bogus":1}')
        self.assertIn("Bogus", err)
        err = self.fails("expr", "import", "-", stdin='{"TableName":"Things","KeyConditions":{}}')
        self.assertIn("KeyConditionExpression", err)
        err = self.fails("expr", "import", "-",
                         stdin='{"TableName":"Things","FilterExpression":"a = :a",'
                               '"ExpressionAttributeValues":{":a":{"S":"x"},":b":{"S":"y"}}}')
        self.assertIn("{:b}", err)
        ambiguous = ('{"TableName":"Things","Key":{"pk":{"S":"a"}},'
                     '"ConditionExpression":"attribute_exists(pk)"}')
        err = self.fails("expr", "import", "-", stdin=ambiguous)
        self.assertIn("--op", err)
        req = self.ok_json("expr", "import", "-", "--op", "delete", stdin=ambiguous)
        self.assertEqual(req["ConditionExpression"], "attribute_exists(pk)")
        self.fails("expr", "import", "-", "--op", "frob", stdin=ambiguous)
        self.fails("expr", "import", os.path.join(self.tmp, "missing.json"))

    def test_import_syntax_error_caret(self):
        text = "PK = :p AND"
        err = self.fails("expr", "import", "-",
                         stdin=json.dumps({"TableName": "Things", "KeyConditionExpression": text,
                                           "ExpressionAttributeValues": {":p": {"S": "x"}}}))
        self.assertIn("KeyConditionExpression", err)
        self.assertIn("  " + text, err.splitlines())

    def test_import_schema_validation(self):
        req = {"TableName": "Files", "KeyConditionExpression": "PK = :p AND SK > :n",
               "ExpressionAttributeValues": {":p": {"S": "x"}, ":n": {"N": "3"}}}
        err = self.fails("expr", "import", self.write("q.json", req), "--schema", self.schema)
        self.assertIn("SK", err)


class TestEmit(Base):
    def targets(self):
        code, out, _ = run_cli("expr", "query", "--help")
        self.assertEqual(code, 0)
        section = out.split("Output formats (--emit):", 1)[1].split("\n\n", 1)[0]
        targets = [line.split()[0] for line in section.splitlines() if line.strip()]
        self.assertIn("request-json", targets)
        return targets

    def test_every_target(self):
        builds = [
            ("query", "Files", "--key", 'PK = "DRIVE#a91" AND begins_with(SK, "root/")',
             "--filter", 'status <> "deleted"', "--limit", "5"),
            ("put", "Files", "--item", '{"PK":{"S":"a"},"SK":{"S":"b"},"n":{"N":"1"}}',
             "--condition", "attribute_not_exists(PK)"),
            ("update", "Files", "--key-item", '{"PK":{"S":"a"},"SK":{"S":"b"}}',
             "--update", "SET n = n + 1"),
        ]
        supported = set()
        for target in self.targets():
            for build in builds:
                for program in ([], ["--program"]):
                    args = ["expr", *build, "--emit", target, *program,
                            "--endpoint-url", "http://localhost:8000", "--region", "us-east-1"]
                    with self.subTest(target=target, op=build[0], program=bool(program)):
                        code, out, err = run_cli(*args)
                        if code == 0:
                            self.assertEqual(err, "")
                            self.assertNotEqual(out.strip(), "")
                            supported.add(target)
                        else:
                            # An honest refusal: exit 2, nothing on stdout, a message.
                            self.assertEqual(code, 2, err)
                            self.assertEqual(out, "")
                            self.assertIn("--emit", err)
                            self.assertGreater(len(err.strip()), len("dynotable-cli: "))
        self.assertIn("request-json", supported)

    def test_request_json_equals_default(self):
        args = ["expr", "scan", "Things", "--filter", "a = 1"]
        self.assertEqual(self.ok(*args), self.ok(*args, "--emit", "request-json"))


@unittest.skipUnless(os.access(AWS, os.X_OK), "no /usr/bin/aws")
class TestAwsCliAcceptsRequestJson(Base):
    """The emitted request JSON is what `aws dynamodb <op> --cli-input-json` takes."""

    def aws(self, op, path, check_server=True):
        endpoint = ENDPOINT or "http://127.0.0.1:9"
        proc = subprocess.run([AWS, "dynamodb", op, "--cli-input-json", "file://" + path,
                               "--endpoint-url", endpoint, "--output", "json"],
                              capture_output=True, text=True, env=aws_env(), timeout=120)
        self.assertNotIn("Parameter validation failed", proc.stderr, proc.stderr)
        self.assertNotIn("Unknown parameter", proc.stderr, proc.stderr)
        if ENDPOINT and check_server:
            self.assertEqual(proc.returncode, 0, proc.stderr)
            return json.loads(proc.stdout) if proc.stdout.strip() else {}
        return None

    def test_corpus_members_valid(self):
        ops = {"file-tree": "query", "audit-log": "query", "reserved-and-odd-names": "scan",
               "binary-and-sets": "scan", "get": "get-item", "put": "put-item",
               "update": "update-item", "delete": "delete-item"}
        for name, op, req in CORPUS:
            with self.subTest(name=name):
                extra = ["--op", op] if op else []
                out = self.ok("expr", "import", self.write(name + ".json", req), *extra)
                # Tables of the corpus do not exist on the server: only client-side checks.
                self.aws(ops[name], self.write(name + ".req.json", out), check_server=False)

    @unittest.skipUnless(ENDPOINT, "no DYNO_TEST_ENDPOINT")
    def test_runs_against_server(self):
        table = f"cli_expr_{os.getpid()}"
        env = aws_env()
        subprocess.run([AWS, "dynamodb", "create-table", "--table-name", table,
                        "--attribute-definitions", "AttributeName=PK,AttributeType=S",
                        "AttributeName=SK,AttributeType=S",
                        "--key-schema", "AttributeName=PK,KeyType=HASH",
                        "AttributeName=SK,KeyType=RANGE",
                        "--billing-mode", "PAY_PER_REQUEST", "--endpoint-url", ENDPOINT],
                       check=True, capture_output=True, env=env, timeout=120)
        try:
            for sk in ["root/", "root/photos/", "root/photos/2026/beach.jpg", "root/photos.txt"]:
                out = self.ok("expr", "put", table, "--plain",
                              "--item", json.dumps({"PK": "DRIVE#a91", "SK": sk, "size": 10}),
                              "--condition", "attribute_not_exists(PK)")
                self.aws("put-item", self.write("put.json", out))
            out = self.ok("expr", "query", table,
                          "--key", 'PK = "DRIVE#a91" AND begins_with(SK, "root/photos/")',
                          "--filter", "size >= 10", "--desc")
            result = self.aws("query", self.write("query.json", out))
            self.assertEqual([i["SK"]["S"] for i in result["Items"]],
                             ["root/photos/2026/beach.jpg", "root/photos/"])
            out = self.ok("expr", "update", table,
                          "--key-item", '{"PK":{"S":"DRIVE#a91"},"SK":{"S":"root/"}}',
                          "--update", "SET size = size + 5, `last-seen` = \"today\"",
                          "--return-values", "ALL_NEW")
            result = self.aws("update-item", self.write("update.json", out))
            self.assertEqual(result["Attributes"]["size"], {"N": "15"})
            self.assertEqual(result["Attributes"]["last-seen"], {"S": "today"})
        finally:
            subprocess.run([AWS, "dynamodb", "delete-table", "--table-name", table,
                            "--endpoint-url", ENDPOINT], capture_output=True, env=env,
                           timeout=120)


if __name__ == "__main__":
    if not CLI or not os.access(CLI, os.X_OK):
        print("DYNOTABLE_CLI is not set to the built dynotable-cli", file=sys.stderr)
        sys.exit(77)
    unittest.main(verbosity=2)
