#!/usr/bin/python3
# test_cli_data_safety.py: strings with U+0000 and deeply nested values through
# `dynotable-cli` against DynamoDB Local (issue 11)
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs through tests/fixtures/with-ddb-local.sh (DYNO_TEST_ENDPOINT, dummy credentials).
# A NUL inside a key must reach the server whole: a put of "a\u0000b" followed by a delete of
# "a" must leave the item alone, and a get must give back the exact string.  Input nested
# deeper than DynamoDB's 32 levels is refused where it was entered, and never crashes.

import json
import os
import subprocess
import tempfile
import unittest
import urllib.request
import uuid

CLI = os.environ.get("DYNOTABLE_CLI")
ENDPOINT = os.environ.get("DYNO_TEST_ENDPOINT")


def unique(base):
    return "safety-%d-%s-%s" % (os.getpid(), uuid.uuid4().hex[:8], base)


def aws(operation, payload):
    """One DynamoDB call straight to the server (set-up and checks), with a dummy signature:
    DynamoDB Local does not check signatures."""
    request = urllib.request.Request(
        ENDPOINT + "/", data=json.dumps(payload).encode(), method="POST",
        headers={"Content-Type": "application/x-amz-json-1.0",
                 "X-Amz-Target": "DynamoDB_20120810." + operation,
                 "Authorization": "AWS4-HMAC-SHA256 Credential=fakeMyKeyId/20260101/us-east-1/"
                                  "dynamodb/aws4_request, SignedHeaders=host, Signature=00"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def cli(*args, stdin=None):
    argv = [CLI, "--endpoint-url", ENDPOINT] + list(args)
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def nested_map(levels, leaf):
    """DynamoDB JSON: @levels maps, one inside the other, around @leaf."""
    value = leaf
    for _ in range(levels):
        value = {"M": {"a": value}}
    return value


@unittest.skipUnless(CLI and ENDPOINT, "needs DYNOTABLE_CLI and DYNO_TEST_ENDPOINT "
                                       "(run through tests/fixtures/with-ddb-local.sh)")
class NulTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.table = unique("nul")
        aws("CreateTable", {
            "TableName": cls.table,
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        })

    @classmethod
    def tearDownClass(cls):
        aws("DeleteTable", {"TableName": cls.table})

    def server_keys(self):
        out = aws("Scan", {"TableName": self.table, "ConsistentRead": True})
        return sorted(item["pk"]["S"] for item in out["Items"])

    def test_delete_of_the_prefix_leaves_the_nul_key_alone(self):
        item = {"pk": {"S": "a\u0000b"}, "v": {"S": "x\u0000y"}}
        status, out, err = cli("put", self.table, "--item", json.dumps(item))
        self.assertEqual(status, 0, err)
        # The server holds the whole key, not "a".
        self.assertIn("a\u0000b", self.server_keys())
        self.assertNotIn("a", self.server_keys())

        status, out, err = cli("delete", self.table, "--key-item", json.dumps({"pk": {"S": "a"}}))
        self.assertEqual(status, 0, err)
        self.assertIn("a\u0000b", self.server_keys())

        status, out, err = cli("get", self.table, "--key-item",
                               json.dumps({"pk": {"S": "a\u0000b"}}), "--consistent")
        self.assertEqual(status, 0, err)
        got = json.loads(out)
        self.assertEqual(got, item)
        self.assertIn("\\u0000", out)

        status, out, err = cli("delete", self.table, "--key-item",
                               json.dumps({"pk": {"S": "a\u0000b"}}))
        self.assertEqual(status, 0, err)
        self.assertNotIn("a\u0000b", self.server_keys())

    def test_condition_values_keep_the_nul(self):
        aws("PutItem", {"TableName": self.table,
                        "Item": {"pk": {"S": "c\u0000d"}, "nm": {"S": "v\u0000w"}}})
        # A condition on the value "v" (what a truncating client would send) must fail...
        status, out, err = cli("delete", self.table, "--key-item",
                               json.dumps({"pk": {"S": "c\u0000d"}}),
                               "--condition", "nm = :v",
                               "--values", json.dumps({":v": {"S": "v"}}))
        self.assertEqual(status, 1, err)
        self.assertIn("ConditionalCheckFailedException", err)
        # ...and on the whole value it succeeds.
        status, out, err = cli("delete", self.table, "--key-item",
                               json.dumps({"pk": {"S": "c\u0000d"}}),
                               "--condition", "nm = :v",
                               "--values", json.dumps({":v": {"S": "v\u0000w"}}))
        self.assertEqual(status, 0, err)
        self.assertNotIn("c\u0000d", self.server_keys())

    def test_update_and_query_keep_the_nul(self):
        aws("PutItem", {"TableName": self.table, "Item": {"pk": {"S": "u\u0000"}}})
        aws("PutItem", {"TableName": self.table, "Item": {"pk": {"S": "u"}}})
        status, out, err = cli("update", self.table, "--key-item",
                               json.dumps({"pk": {"S": "u\u0000"}}),
                               "--update", "SET v = :v",
                               "--values", json.dumps({":v": {"S": "\u0000\u0000"}}),
                               "--return-values", "ALL_NEW")
        self.assertEqual(status, 0, err)
        got = aws("GetItem", {"TableName": self.table, "Key": {"pk": {"S": "u\u0000"}},
                              "ConsistentRead": True})
        self.assertEqual(got["Item"]["v"], {"S": "\u0000\u0000"})
        # The key without the NUL is another item, untouched.
        other = aws("GetItem", {"TableName": self.table, "Key": {"pk": {"S": "u"}},
                                "ConsistentRead": True})
        self.assertNotIn("v", other["Item"])

        status, out, err = cli("query", self.table, "--key", "pk = :p",
                               "--values", json.dumps({":p": {"S": "u\u0000"}}))
        self.assertEqual(status, 0, err)
        items = [json.loads(line) for line in out.splitlines() if line.strip()]
        self.assertEqual([i["pk"]["S"] for i in items], ["u\u0000"])
        for key in ("u\u0000", "u"):
            aws("DeleteItem", {"TableName": self.table, "Key": {"pk": {"S": key}}})

    def test_scan_output_keeps_the_nul(self):
        aws("PutItem", {"TableName": self.table, "Item": {"pk": {"S": "s\u0000t"}}})
        status, out, err = cli("scan", self.table)
        self.assertEqual(status, 0, err)
        keys = [json.loads(line)["pk"]["S"] for line in out.splitlines() if line.strip()]
        self.assertIn("s\u0000t", keys)
        aws("DeleteItem", {"TableName": self.table, "Key": {"pk": {"S": "s\u0000t"}}})


@unittest.skipUnless(CLI and ENDPOINT, "needs DYNOTABLE_CLI and DYNO_TEST_ENDPOINT "
                                       "(run through tests/fixtures/with-ddb-local.sh)")
class NestingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.table = unique("deep")
        aws("CreateTable", {
            "TableName": cls.table,
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        })

    @classmethod
    def tearDownClass(cls):
        aws("DeleteTable", {"TableName": cls.table})

    def assert_refused(self, status, err, where):
        self.assertEqual(status, 2, err)
        self.assertIn(where, err)
        self.assertIn("32 levels", err)

    def test_item_at_the_limit_round_trips(self):
        # The item's own map is the first of DynamoDB's 32 levels (as DynamoDB Local counts).
        item = {"pk": {"S": "deep"}, "d": nested_map(31, {"S": "leaf"})}
        status, out, err = cli("put", self.table, "--item", json.dumps(item))
        self.assertEqual(status, 0, err)
        status, out, err = cli("get", self.table, "--key-item", json.dumps({"pk": {"S": "deep"}}),
                               "--consistent")
        self.assertEqual(status, 0, err)
        self.assertEqual(json.loads(out), item)

    def test_item_too_deep(self):
        item = {"pk": {"S": "deeper"}, "d": nested_map(32, {"S": "leaf"})}
        status, out, err = cli("put", self.table, "--item", json.dumps(item))
        self.assert_refused(status, err, "--item")

    def test_hostile_depth_does_not_crash(self):
        # One argument may hold 128 KiB.
        deep = '{"pk":{"S":"x"},"d":' + '{"L":[' * 10000
        for option in ("--item", "--key-item"):
            verb = "put" if option == "--item" else "get"
            status, out, err = cli(verb, self.table, option, deep)
            self.assert_refused(status, err, option)
        status, out, err = cli("delete", self.table, "--key-item", '{"pk":{"S":"x"}}',
                               "--condition", "v = :v",
                               "--values", json.dumps({":v": nested_map(33, {"S": "x"})}))
        self.assert_refused(status, err, "--values")
        status, out, err = cli("delete", self.table, "--key-item", '{"pk":{"S":"x"}}',
                               "--condition", "v = :v",
                               "--values", '{":v":' + "[" * 60000 + "]" * 60000 + "}")
        self.assertEqual(status, 2, err)
        self.assertIn("--values", err)
        self.assertIn("levels deep", err)

    def test_batch_write_file_too_deep(self):
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write(json.dumps({"pk": {"S": "ok"}}) + "\n")
            f.write("{\"pk\":{\"S\":\"x\"},\"d\":" + "{\"L\":[" * 100000 + "\n")
            path = f.name
        try:
            status, out, err = cli("batch-write", self.table, path)
            self.assertNotEqual(status, 0, err)
            self.assertIn(path + ":2:", err)
            self.assertIn("32 levels", err)
        finally:
            os.unlink(path)


@unittest.skipUnless(CLI, "needs DYNOTABLE_CLI")
class OfflineNestingTest(unittest.TestCase):
    """Paths that need no server: --schema, a pasted request (`expr import`)."""

    def run_cli(self, *args, stdin=None):
        done = subprocess.run([CLI] + list(args), input=stdin, capture_output=True, text=True,
                              timeout=120)
        return done.returncode, done.stdout, done.stderr

    def test_schema_too_deep(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write('{"Table":{"TableName":"Tab","KeySchema":' + "[" * 300000)
            path = f.name
        try:
            status, out, err = self.run_cli("expr", "scan", "Tab", "--schema", path)
            self.assertEqual(status, 2, err)
            self.assertIn("--schema", err)
            self.assertIn("nested more than 200 levels deep", err)
        finally:
            os.unlink(path)

    def test_pasted_request(self):
        deep = json.dumps({"TableName": "Tab", "Item": {"pk": {"S": "x"},
                                                        "d": nested_map(32, {"S": "x"})}})
        status, out, err = self.run_cli("expr", "import", "-", stdin=deep)
        self.assertEqual(status, 2, err)
        self.assertIn("Item: Attribute d.a.a", err)
        self.assertIn("32 levels", err)

        status, out, err = self.run_cli("expr", "import", "-",
                                        stdin='{"TableName":"Tab","Item":' + "[" * 300000)
        self.assertEqual(status, 2, err)
        self.assertIn("nested more than 200 levels deep", err)

        # A NUL survives the round trip through the request and out as JSON.
        request = {"TableName": "Tab", "Key": {"pk": {"S": "a\u0000b"}}}
        status, out, err = self.run_cli("expr", "import", "-", "--emit", "request-json",
                                        stdin=json.dumps(request))
        self.assertEqual(status, 0, err)
        self.assertEqual(json.loads(out)["Key"], request["Key"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
