#!/usr/bin/python3
# test_cli_run.py: `dynotable-cli tables|describe|query|scan|get|put|update|delete|batch-write`
# against DynamoDB Local, run as a person runs them
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs through tests/fixtures/with-ddb-local.sh (DYNO_TEST_ENDPOINT, dummy credentials).  A small
# recording proxy sits between the CLI and the server where a test must prove what was (not)
# sent.  Exit statuses: 0 success, 1 server error (`__type: message` on stderr), 2 usage or
# validation error (nothing sent).

import http.server
import json
import os
import subprocess
import sys
import threading
import unittest
import urllib.error
import urllib.request
import uuid

CLI = os.environ.get("DYNOTABLE_CLI")
ENDPOINT = os.environ.get("DYNO_TEST_ENDPOINT")


def unique(base):
    return "cli-%d-%s-%s" % (os.getpid(), uuid.uuid4().hex[:8], base)


class RecordingProxy:
    """Forwards DynamoDB requests to ENDPOINT and records their X-Amz-Target."""

    def __init__(self, upstream):
        self.targets = []
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                target = self.headers.get("X-Amz-Target", "")
                proxy.targets.append(target.split(".")[-1])
                headers = {k: v for k, v in self.headers.items()
                           if k.lower() in ("content-type", "x-amz-target", "x-amz-date",
                                            "authorization", "x-amz-security-token")}
                request = urllib.request.Request(upstream + "/", data=body, headers=headers,
                                                 method="POST")
                try:
                    with urllib.request.urlopen(request, timeout=30) as response:
                        status, data, rheaders = response.status, response.read(), response.headers
                except urllib.error.HTTPError as e:
                    status, data, rheaders = e.code, e.read(), e.headers
                self.send_response(status)
                for name in ("Content-Type", "x-amz-crc32", "x-amzn-RequestId"):
                    if rheaders.get(name):
                        self.send_header(name, rheaders.get(name))
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def aws(operation, payload):
    """One DynamoDB call through the same endpoint (set-up only), with urllib and a dummy
    signature: DynamoDB Local does not check signatures."""
    request = urllib.request.Request(
        ENDPOINT + "/", data=json.dumps(payload).encode(), method="POST",
        headers={"Content-Type": "application/x-amz-json-1.0",
                 "X-Amz-Target": "DynamoDB_20120810." + operation,
                 "Authorization": "AWS4-HMAC-SHA256 Credential=fakeMyKeyId/20260101/us-east-1/"
                                  "dynamodb/aws4_request, SignedHeaders=host, Signature=00"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def cli(*args, endpoint=None, stdin=None):
    """Runs the CLI with the global --endpoint-url first; returns (status, stdout, stderr)."""
    argv = [CLI, "--endpoint-url", endpoint or ENDPOINT] + list(args)
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


@unittest.skipUnless(CLI and ENDPOINT, "needs DYNOTABLE_CLI and DYNO_TEST_ENDPOINT "
                                       "(run through tests/fixtures/with-ddb-local.sh)")
class CliRunTest(unittest.TestCase):
    N = 60

    @classmethod
    def setUpClass(cls):
        cls.table = unique("orders")
        aws("CreateTable", {
            "TableName": cls.table,
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "N"},
                {"AttributeName": "status", "AttributeType": "S"},
            ],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "GlobalSecondaryIndexes": [{
                "IndexName": "byStatus",
                "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "ALL"}}],
        })
        lines = "".join(
            json.dumps({"pk": {"S": "USER#1"}, "sk": {"N": str(i)},
                        "status": {"S": "open" if i % 3 == 0 else "done"},
                        "total": {"N": "%d.5" % i}}) + "\n"
            for i in range(cls.N))
        status, out, err = cli("batch-write", cls.table, "-", stdin=lines)
        assert status == 0, err
        assert "%d items written" % cls.N in err, err

    @classmethod
    def tearDownClass(cls):
        aws("DeleteTable", {"TableName": cls.table})

    def items(self, out):
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    def test_tables(self):
        status, out, err = cli("tables")
        self.assertEqual(status, 0, err)
        self.assertIn(self.table, out.splitlines())

    def test_describe(self):
        status, out, err = cli("describe", self.table)
        self.assertEqual(status, 0, err)
        table = json.loads(out)["Table"]
        self.assertEqual(table["TableName"], self.table)
        self.assertEqual(table["KeySchema"][0]["AttributeName"], "pk")

    def test_query_with_stats(self):
        status, out, err = cli("query", self.table, "--key", 'pk = "USER#1" AND sk >= 10',
                               "--limit", "7", "--stats")
        self.assertEqual(status, 0, err)
        items = self.items(out)
        self.assertEqual([int(i["sk"]["N"]) for i in items], list(range(10, self.N)))
        self.assertEqual(items[0]["total"], {"N": "10.5"})
        pages = [line for line in err.splitlines() if line.startswith("page ")]
        # 50 items, 7 per page: 8 pages (the 8th has 1 item, no LastEvaluatedKey)
        self.assertGreaterEqual(len(pages), 8)
        counts = [int(line.split("Count ")[1].split(",")[0]) for line in pages]
        self.assertEqual(sum(counts), 50)
        self.assertIn("LastEvaluatedKey (none)", pages[-1])
        self.assertIn("ConsumedCapacity", pages[0])
        self.assertIn("total: %d pages, 50 items" % len(pages), err)

    def test_query_desc_plain_max_items(self):
        status, out, err = cli("query", self.table, "--key", 'pk = "USER#1"', "--desc",
                               "--plain", "--max-items", "5", "--limit", "2")
        self.assertEqual(status, 0, err)
        items = self.items(out)
        self.assertEqual([i["sk"] for i in items], [59, 58, 57, 56, 55])
        self.assertEqual(items[0]["pk"], "USER#1")

    def test_query_index_and_filter(self):
        status, out, err = cli("query", self.table, "--index", "byStatus", "--key",
                               'status = "open"', "--filter", "total > 30", "--stats")
        self.assertEqual(status, 0, err)
        got = [int(i["sk"]["N"]) for i in self.items(out)]
        self.assertEqual(got, [i for i in range(self.N) if i % 3 == 0 and i + 0.5 > 30])
        page = [line for line in err.splitlines() if line.startswith("page 1:")][0]
        self.assertIn("ScannedCount %d" % len(range(0, self.N, 3)), page)

    def test_scan_segments(self):
        status, out, err = cli("scan", self.table, "--segments", "3", "--limit", "5")
        self.assertEqual(status, 0, err)
        got = sorted(int(i["sk"]["N"]) for i in self.items(out))
        self.assertEqual(got, list(range(self.N)))

    def test_validation_error_sends_nothing(self):
        proxy = RecordingProxy(ENDPOINT)
        try:
            # sk is N in the schema: a string value is caught before the Query is sent.
            status, out, err = cli("query", self.table, "--key", 'pk = "USER#1" AND sk = "x"',
                                   endpoint=proxy.url)
        finally:
            proxy.close()
        self.assertEqual(status, 2, err)
        self.assertEqual(out, "")
        self.assertIn("--key", err)
        self.assertEqual(proxy.targets, ["DescribeTable"])

    def test_syntax_error_connects_to_nothing(self):
        proxy = RecordingProxy(ENDPOINT)
        try:
            status, out, err = cli("query", self.table, "--key", 'pk = "USER#1" AND',
                                   endpoint=proxy.url)
        finally:
            proxy.close()
        self.assertEqual(status, 2, err)
        self.assertEqual(out, "")
        self.assertEqual(proxy.targets, [])

    def test_query_through_proxy_sends_describe_then_pages(self):
        proxy = RecordingProxy(ENDPOINT)
        try:
            status, out, err = cli("query", self.table, "--key", 'pk = "USER#1" AND sk < 9',
                                   "--limit", "4", endpoint=proxy.url)
        finally:
            proxy.close()
        self.assertEqual(status, 0, err)
        self.assertEqual(len(self.items(out)), 9)
        self.assertEqual(proxy.targets, ["DescribeTable", "Query", "Query", "Query"])

    def test_server_error_exit_1(self):
        status, out, err = cli("query", unique("missing"), "--key", 'pk = "x"')
        self.assertEqual(status, 1)
        self.assertEqual(out, "")
        self.assertIn("ResourceNotFoundException: ", err)

    def test_item_commands(self):
        key = '{"pk":{"S":"USER#2"},"sk":{"N":"1"}}'
        status, out, err = cli("put", self.table, "--item",
                               '{"pk":{"S":"USER#2"},"sk":{"N":"1"},"n":{"N":"1"}}',
                               "--condition", "attribute_not_exists(pk)")
        self.assertEqual(status, 0, err)
        status, out, err = cli("put", self.table, "--item",
                               '{"pk":{"S":"USER#2"},"sk":{"N":"1"}}',
                               "--condition", "attribute_not_exists(pk)")
        self.assertEqual(status, 1)
        self.assertIn("ConditionalCheckFailedException: ", err)
        status, out, err = cli("update", self.table, "--key-item", key, "--update",
                               "SET n = n + 41", "--return-values", "ALL_NEW")
        self.assertEqual(status, 0, err)
        self.assertEqual(self.items(out)[0]["n"], {"N": "42"})
        status, out, err = cli("get", self.table, "--key-item", key, "--consistent")
        self.assertEqual(status, 0, err)
        self.assertEqual(self.items(out)[0]["n"], {"N": "42"})
        status, out, err = cli("delete", self.table, "--key-item", key)
        self.assertEqual(status, 0, err)
        status, out, err = cli("get", self.table, "--key-item", key)
        self.assertEqual(status, 0, err)
        self.assertEqual(out, "")

    def test_usage_errors(self):
        status, out, err = cli("query", self.table)
        self.assertEqual(status, 2)
        self.assertIn("--key is required", err)
        status, out, err = cli("frobnicate")
        self.assertEqual(status, 2)
        status, out, err = cli("batch-write", self.table)
        self.assertEqual(status, 2)


if __name__ == "__main__":
    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=2)
    result = unittest.main(testRunner=runner, exit=False).result
    sys.exit(0 if result.wasSuccessful() else 1)
