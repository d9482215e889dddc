#!/usr/bin/python3
# test_faults.py: the fault matrix.  dynotable-cli's writes go through a fault-injecting proxy
# (tests/fixtures/fault_proxy.py) in front of DynamoDB Local; for every fault the table must end
# exactly as the CLI said, and nothing may hang.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request
import uuid

sys.path.insert(0, os.path.join(os.environ.get("DYNO_SOURCE_ROOT", "."), "tests", "fixtures"))
from fault_proxy import FaultProxy  # noqa: E402

CLI = os.environ.get("DYNOTABLE_CLI")
ENDPOINT = os.environ.get("DYNO_TEST_ENDPOINT")
N = 60

# Faults a retry gets through: each is injected twice, then the server answers.
TRANSIENT = ["drop", "reset", "stall", "truncate", "garble", "garble-unsent", "throttle", "5xx",
             "5xx-after", "unprocessed"]


def aws(operation, payload):
    """A direct call to the server (set-up and checks), with a dummy signature."""
    request = urllib.request.Request(
        ENDPOINT + "/", data=json.dumps(payload).encode(), method="POST",
        headers={"Content-Type": "application/x-amz-json-1.0",
                 "X-Amz-Target": "DynamoDB_20120810." + operation,
                 "Authorization": "AWS4-HMAC-SHA256 Credential=fakeMyKeyId/20260101/us-east-1/"
                                  "dynamodb/aws4_request, SignedHeaders=host, Signature=00"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def cli(endpoint, *args, stdin=None, timeout=90):
    env = dict(os.environ, DYNO_BATCH_BACKOFF_MS="1")
    done = subprocess.run([CLI, "--endpoint-url", endpoint] + list(args), input=stdin,
                          capture_output=True, text=True, timeout=timeout, env=env)
    return done.returncode, done.stdout, done.stderr


def item(i, version="v1"):
    return {"pk": {"S": "P#%d" % (i % 5)}, "sk": {"N": str(i)}, "v": {"S": version}}


def key_of(it):
    return (it["pk"]["S"], it["sk"]["N"])


@unittest.skipUnless(CLI and ENDPOINT, "needs DYNOTABLE_CLI and DYNO_TEST_ENDPOINT "
                                       "(run through tests/fixtures/with-ddb-local.sh)")
class FaultMatrix(unittest.TestCase):
    def setUp(self):
        self.table = "faults-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8])
        aws("CreateTable", {
            "TableName": self.table, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "N"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}]})
        self.proxy = FaultProxy(ENDPOINT)
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.proxy.close()
        self.tmp.cleanup()
        aws("DeleteTable", {"TableName": self.table})

    def stored(self):
        items, start = {}, None
        while True:
            request = {"TableName": self.table, "ConsistentRead": True}
            if start:
                request["ExclusiveStartKey"] = start
            page = aws("Scan", request)
            for it in page["Items"]:
                items[key_of(it)] = it
            start = page.get("LastEvaluatedKey")
            if not start:
                return items

    def lines(self, version="v1"):
        return "".join(json.dumps(item(i, version)) + "\n" for i in range(N))

    # ---- batch-write ------------------------------------------------------------------------

    def test_batch_write_transient_faults(self):
        for fault in TRANSIENT:
            with self.subTest(fault=fault):
                self.proxy.clear()
                self.proxy.add("BatchWriteItem", fault, count=2, seconds=1)
                status, out, err = cli(self.proxy.url, "batch-write", self.table, "-",
                                       stdin=self.lines(fault))
                self.assertEqual(status, 0, err)
                self.assertIn("%d items written to %s" % (N, self.table), err)
                self.assertEqual(self.proxy.faults_injected(), [fault, fault])
                stored = self.stored()
                self.assertEqual(len(stored), N)
                self.assertTrue(all(it["v"]["S"] == fault for it in stored.values()))

    def test_batch_write_gives_up_and_names_the_rest(self):
        # half of the first batch goes through, then the server processes nothing, ever
        self.proxy.add("BatchWriteItem", "unprocessed", count=1)
        self.proxy.add("BatchWriteItem", "unprocessed-all", count=None)
        report = os.path.join(self.tmp.name, "left.jsonl")
        status, out, err = cli(self.proxy.url, "batch-write", self.table, "-", "--unprocessed",
                               report, stdin=self.lines())
        self.assertEqual(status, 1, err)
        self.assertIn("still unprocessed after 8 attempts", err)
        with open(report) as f:
            left = [json.loads(line) for line in f if line.strip()]
        stored = self.stored()
        self.assertEqual(len(stored), 13)   # ceil(25 / 2)
        self.assertIn("batch-write: 13 of %d items written to %s; %d not written (listed in %s)"
                      % (N, self.table, N - 13, report), err)
        # exactly the items not in the table are listed, each once
        self.assertEqual(len(left), N - 13)
        self.assertEqual(set(key_of(it) for it in left) | set(stored), set(key_of(item(i))
                                                                          for i in range(N)))
        self.assertFalse(set(key_of(it) for it in left) & set(stored))
        # 1 productive round, then 8 in which nothing was processed
        self.assertEqual(self.proxy.faults_injected().count("unprocessed-all"), 8)

        # written again from the list, the table is complete
        self.proxy.clear()
        with open(report) as f:
            status, out, err = cli(self.proxy.url, "batch-write", self.table, "-",
                                   stdin=f.read())
        self.assertEqual(status, 0, err)
        self.assertEqual(len(self.stored()), N)

    def test_batch_write_unprocessed_on_stdout(self):
        self.proxy.add("BatchWriteItem", "garble-unsent", count=None)
        status, out, err = cli(self.proxy.url, "batch-write", self.table, "-",
                               stdin=self.lines())
        self.assertEqual(status, 1, err)
        left = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(sorted(map(key_of, left)), sorted(key_of(item(i)) for i in range(N)))
        # the last batch sent got no usable answer: not confirmed, the rest never sent
        self.assertIn("batch-write: 0 of %d items written to %s; 35 not written and 25 not "
                      "confirmed" % (N, self.table), err)
        self.assertIn("listed on standard output", err)
        self.assertEqual(self.stored(), {})

    # ---- import -----------------------------------------------------------------------------

    def import_file(self, text):
        path = os.path.join(self.tmp.name, "in.jsonl")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_import_transient_faults(self):
        for fault in TRANSIENT:
            with self.subTest(fault=fault):
                self.proxy.clear()
                self.proxy.add("BatchWriteItem", fault, count=2, seconds=1)
                path = self.import_file(self.lines(fault))
                status, out, err = cli(self.proxy.url, "import", self.table, path)
                self.assertEqual(status, 0, err)
                self.assertIn("import: %d items written to %s" % (N, self.table), err)
                stored = self.stored()
                self.assertEqual(len(stored), N)
                self.assertTrue(all(it["v"]["S"] == fault for it in stored.values()))

    def test_import_garbled_is_not_written(self):
        # every answer to BatchWriteItem is a broken 200 and nothing reaches the table: the
        # summary must not count a single item as written
        self.proxy.add("BatchWriteItem", "garble-unsent", count=None)
        path = self.import_file(self.lines())
        report = os.path.join(self.tmp.name, "report.jsonl")
        status, out, err = cli(self.proxy.url, "import", self.table, path, "--report", report)
        self.assertEqual(status, 1, err)
        self.assertIn("import: 0 items written to %s" % self.table, err)
        self.assertEqual(self.stored(), {})
        with open(report) as f:
            rows = [json.loads(line) for line in f]
        self.assertTrue(rows)
        self.assertTrue(all(r["status"] in ("failed", "not-written") for r in rows))

    def test_import_ctrl_c_with_a_stalled_request(self):
        # The first row of every batch of 25 has one and the same key K: the import holds a
        # row whose key is in flight until that batch is answered (the later row wins), so
        # the batches go one at a time and the order is fixed, not left to timing: batch 1
        # (lines 1-25) is answered and counted before batch 2 (lines 26-50) is sent, and
        # batch 2 stalls.  (With batches in flight side by side, the stalled request could be
        # any of them and batch 1 could still be unanswered at Ctrl+C: a resume line of 1.)
        def row(i):
            if i % 25 == 0:
                return {"pk": {"S": "P#0"}, "sk": {"N": "0"}, "v": {"S": "row %d" % i}}
            return item(i)

        lines = "".join(json.dumps(row(i)) + "\n" for i in range(400))
        path = self.import_file(lines)
        self.proxy.add("BatchWriteItem", "pass", count=1)
        self.proxy.add("BatchWriteItem", "stall", count=1, seconds=600)
        process = subprocess.Popen([CLI, "--endpoint-url", self.proxy.url, "import", self.table,
                                    path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        while "stall" not in self.proxy.faults_injected():
            self.assertIsNone(process.poll(), "the import ended before the stall")
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        self.assertEqual(process.returncode, 130, err)
        found = re.search(r"^import: to continue, run the same import with --start-line (\d+)$",
                          err, re.M)
        self.assertIsNotNone(found, err)
        start = int(found.group(1))
        # lines 1-25 were written and answered; the stalled batch begins at line 26
        self.assertEqual(start, 26, err)
        written = int(re.search(r"^import: (\d+) items written", err, re.M).group(1))
        self.assertEqual(written, 25, err)
        # the table holds exactly those rows (the stalled request never reached it)
        self.assertEqual(self.stored(), {key_of(row(i)): row(i) for i in range(25)})
        self.assertEqual(self.proxy.faults_injected(), ["stall"])

        status, out, err = cli(ENDPOINT, "import", self.table, path, "--start-line", str(start))
        self.assertEqual(status, 0, err)
        self.assertIn("import: %d records before line %d skipped" % (start - 1, start), err)
        # 400 rows, 16 of them with the key K: the last one wins
        stored = self.stored()
        self.assertEqual(len(stored), 400 - 15)
        self.assertEqual(stored[("P#0", "0")]["v"]["S"], "row 375")

    # ---- put / update / delete with conditions ----------------------------------------------

    SINGLE = ["drop", "reset", "stall", "truncate", "garble", "garble-unsent", "throttle", "5xx",
              "5xx-after"]

    def get(self, i):
        got = aws("GetItem", {"TableName": self.table, "ConsistentRead": True,
                              "Key": {"pk": item(i)["pk"], "sk": item(i)["sk"]}})
        return got.get("Item")

    def test_conditional_writes(self):
        for n, fault in enumerate(self.SINGLE):
            with self.subTest(fault=fault):
                self.proxy.clear()
                key = json.dumps({"pk": item(n)["pk"], "sk": item(n)["sk"]})

                # a put that must not overwrite
                self.proxy.add("PutItem", fault, count=1, seconds=1)
                status, out, err = cli(self.proxy.url, "put", self.table, "--item",
                                       json.dumps(item(n, "a")), "--condition",
                                       "attribute_not_exists(pk)")
                self.assertEqual(status, 0, err)
                self.assertEqual(self.get(n), item(n, "a"))

                # an update conditioned on the old value: done, or said to be maybe done
                # with the item as it now is
                self.proxy.add("UpdateItem", fault, count=1, seconds=1)
                status, out, err = cli(self.proxy.url, "update", self.table, "--key-item", key,
                                       "--update", 'SET v = "b"', "--condition", 'v = "a"')
                now = self.get(n)
                if status == 0:
                    self.assertEqual(now, item(n, "b"))
                else:
                    self.assertEqual(status, 1, err)
                    self.assertIn("may have been applied", err)
                    self.assertIn('"v":{"S":"%s"}' % now["v"]["S"], err.replace(" ", ""))

                # a delete conditioned on existence
                self.proxy.add("DeleteItem", fault, count=1, seconds=1)
                status, out, err = cli(self.proxy.url, "delete", self.table, "--key-item", key,
                                       "--condition", "attribute_exists(pk)")
                self.assertEqual(status, 0, err)
                self.assertIsNone(self.get(n))

    def test_conditional_put_refused_for_real(self):
        # the condition really fails (the item was there before): still reported as refused,
        # even when the first attempt's answer was lost
        aws("PutItem", {"TableName": self.table, "Item": item(1, "old")})
        self.proxy.add("PutItem", "5xx", count=1)
        status, out, err = cli(self.proxy.url, "put", self.table, "--item",
                               json.dumps(item(1, "new")), "--condition",
                               "attribute_not_exists(pk)")
        self.assertEqual(status, 1, err)
        self.assertIn("ConditionalCheckFailed", err)
        self.assertIn("was not applied", err)
        self.assertEqual(self.get(1), item(1, "old"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
