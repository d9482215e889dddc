#!/usr/bin/python3
# test_cli_resume.py: every stop of `dynotable-cli query|scan` (--max-items at every possible
# item, the server failing for good, Ctrl+C) prints a --start-key from which the same command
# continues with no item skipped or repeated.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import unittest
import urllib.request
import uuid

sys.path.insert(0, os.path.join(os.environ.get("DYNO_SOURCE_ROOT", "."), "tests", "fixtures"))
from fault_proxy import FaultProxy  # noqa: E402

CLI = os.environ.get("DYNOTABLE_CLI")
ENDPOINT = os.environ.get("DYNO_TEST_ENDPOINT")
N = 23
RESUME = re.compile(r"^(query|scan|export): stopped after (\d+) items; continue with --start-key (.*)$",
                    re.M)


def aws(operation, payload):
    request = urllib.request.Request(
        ENDPOINT + "/", data=json.dumps(payload).encode(), method="POST",
        headers={"Content-Type": "application/x-amz-json-1.0",
                 "X-Amz-Target": "DynamoDB_20120810." + operation,
                 "Authorization": "AWS4-HMAC-SHA256 Credential=fakeMyKeyId/20260101/us-east-1/"
                                  "dynamodb/aws4_request, SignedHeaders=host, Signature=00"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def cli(*args, endpoint=None):
    env = dict(os.environ, AWS_MAX_ATTEMPTS="2")
    done = subprocess.run([CLI, "--endpoint-url", endpoint or ENDPOINT] + list(args),
                          capture_output=True, text=True, timeout=120, env=env)
    return done.returncode, done.stdout, done.stderr


def resume_key(err):
    """The --start-key value printed on stderr (unquoted as a shell would), or None."""
    found = RESUME.search(err)
    return shlex.split(found.group(3))[0] if found else None


@unittest.skipUnless(CLI and ENDPOINT, "needs DYNOTABLE_CLI and DYNO_TEST_ENDPOINT "
                                       "(run through tests/fixtures/with-ddb-local.sh)")
class Resume(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.table = "resume-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8])
        aws("CreateTable", {
            "TableName": cls.table, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "N"},
                                     {"AttributeName": "g", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "GlobalSecondaryIndexes": [{
                "IndexName": "byG",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "ALL"}}]})
        lines = "".join(json.dumps({"pk": {"S": "P#%d" % (i % 3)}, "sk": {"N": str(i)},
                                    "g": {"S": "all"}}) + "\n" for i in range(N))
        done = subprocess.run([CLI, "--endpoint-url", ENDPOINT, "batch-write", cls.table, "-"],
                              input=lines, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr

    @classmethod
    def tearDownClass(cls):
        aws("DeleteTable", {"TableName": cls.table})

    COMMANDS = {
        "query": ["query", "--key", 'pk = "P#1"', "--limit", "3"],
        "query-index": ["query", "--index", "byG", "--key", 'g = "all"', "--limit", "7"],
        "scan": ["scan", "--limit", "7"],
        "scan-plain": ["scan", "--limit", "5", "--plain"],
    }

    def command(self, name):
        words = self.COMMANDS[name]
        return [words[0], self.table] + words[1:]

    def test_max_items_at_every_point(self):
        for name in self.COMMANDS:
            status, full, err = cli(*self.command(name))
            self.assertEqual(status, 0, err)
            full = full.splitlines()
            self.assertIsNone(resume_key(err), err)
            for k in range(1, len(full)):
                with self.subTest(command=name, max_items=k):
                    status, head, err = cli(*self.command(name), "--max-items", str(k))
                    self.assertEqual(status, 0, err)
                    self.assertEqual(head.splitlines(), full[:k])
                    key = resume_key(err)
                    self.assertIsNotNone(key, err)
                    status, tail, err = cli(*self.command(name), "--start-key", key)
                    self.assertEqual(status, 0, err)
                    self.assertEqual(head.splitlines() + tail.splitlines(), full)

    def test_segments_bounded(self):
        status, full, err = cli(*self.command("scan"))
        self.assertEqual(status, 0, err)
        for parallel in (None, "1", "3"):
            with self.subTest(parallel=parallel):
                args = ["scan", self.table, "--segments", "200"]
                if parallel:
                    args += ["--parallel", parallel]
                status, out, err = cli(*args)
                self.assertEqual(status, 0, err)
                self.assertEqual(sorted(out.splitlines()), sorted(full.splitlines()))
        status, out, err = cli("scan", self.table, "--segments", "2", "--parallel", "0")
        self.assertEqual(status, 2)
        self.assertIn("--parallel", err)

    def test_gives_up_then_resumes(self):
        # the server fails for good after every possible number of pages
        status, full, err = cli(*self.command("scan"))
        self.assertEqual(status, 0, err)
        full = full.splitlines()
        # (pages of 7: the last of them has no LastEvaluatedKey, so it cannot fail after it)
        for pages in range(0, (len(full) + 6) // 7):
            with self.subTest(pages=pages):
                with FaultProxy(ENDPOINT) as proxy:
                    if pages:
                        proxy.add("Scan", "pass", count=pages)
                    proxy.add("Scan", "5xx", count=None)
                    status, head, err = cli(*self.command("scan"), endpoint=proxy.url)
                self.assertEqual(status, 1, err)
                self.assertIn("InternalServerError", err)
                self.assertEqual(head.splitlines(), full[:7 * pages])
                key = resume_key(err)
                if pages == 0:
                    self.assertIsNone(key, err)
                    self.assertIn("nothing was read: run the same command again", err)
                    continue
                self.assertIsNotNone(key, err)
                status, tail, err = cli(*self.command("scan"), "--start-key", key)
                self.assertEqual(status, 0, err)
                self.assertEqual(head.splitlines() + tail.splitlines(), full)

    def test_export_stops_and_resumes(self):
        export = ["export", self.table, "--limit", "7"]
        status, full, err = cli(*export)
        self.assertEqual(status, 0, err)
        self.assertEqual(len(full.splitlines()), N)
        # the server fails for good after two pages
        with FaultProxy(ENDPOINT) as proxy:
            proxy.add("Scan", "pass", count=2)
            proxy.add("Scan", "5xx", count=None)
            status, head, err = cli(*export, endpoint=proxy.url)
        self.assertEqual(status, 1, err)
        self.assertEqual(head.splitlines(), full.splitlines()[:14])
        key = resume_key(err)
        self.assertIsNotNone(key, err)
        status, tail, err = cli(*export, "--start-key", key)
        self.assertEqual(status, 0, err)
        self.assertEqual(head.splitlines() + tail.splitlines(), full.splitlines())

        # Ctrl+C while a page is stalled: whole lines, exit 130, a key that continues
        with FaultProxy(ENDPOINT) as proxy:
            proxy.add("Scan", "pass", count=1)
            proxy.add("Scan", "stall", count=1, seconds=300)
            process = subprocess.Popen([CLI, "--endpoint-url", proxy.url] + export,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True)
            first = [process.stdout.readline() for _ in range(7)]
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=60)
        self.assertEqual(process.returncode, 130, err)
        head = "".join(first) + out
        self.assertTrue(head.endswith("\n"))
        key = resume_key(err)
        self.assertIsNotNone(key, err)
        status, tail, err = cli(*export, "--start-key", key)
        self.assertEqual(status, 0, err)
        self.assertEqual(head.splitlines() + tail.splitlines(), full.splitlines())

    def test_ctrl_c_during_a_stalled_page(self):
        status, full, err = cli(*self.command("scan"))
        self.assertEqual(status, 0, err)
        with FaultProxy(ENDPOINT) as proxy:
            proxy.add("Scan", "pass", count=1)
            proxy.add("Scan", "stall", count=1, seconds=300)
            process = subprocess.Popen([CLI, "--endpoint-url", proxy.url]
                                       + self.command("scan"), stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
            # the first page is out (whole lines), the second is stalled in the proxy
            first = [process.stdout.readline() for _ in range(7)]
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=60)
        self.assertEqual(process.returncode, 130, err)
        head = "".join(first) + out
        self.assertTrue(head.endswith("\n"))
        self.assertEqual(head.splitlines(), full.splitlines()[:7])
        key = resume_key(err)
        self.assertIsNotNone(key, err)
        status, tail, err = cli(*self.command("scan"), "--start-key", key)
        self.assertEqual(status, 0, err)
        self.assertEqual(head.splitlines() + tail.splitlines(), full.splitlines())


if __name__ == "__main__":
    unittest.main(verbosity=2)
