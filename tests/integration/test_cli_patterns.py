#!/usr/bin/python3
# test_cli_patterns.py: `dynotable-cli patterns check FILE` against DynamoDB Local
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs through tests/fixtures/with-ddb-local.sh.  The table is written with the AWS CLI
# (/usr/bin/aws); every verdict below follows from what was written, not from our reader.

import json
import os
import subprocess
import tempfile
import unittest
import uuid

CLI = os.environ.get("DYNOTABLE_CLI")
ENDPOINT = os.environ.get("DYNO_TEST_ENDPOINT")
AWS_ENV = dict(os.environ, AWS_ACCESS_KEY_ID="test", AWS_SECRET_ACCESS_KEY="test",
               AWS_DEFAULT_REGION="us-east-1", AWS_PAGER="")


def aws(*args):
    done = subprocess.run(["/usr/bin/aws", "--endpoint-url", ENDPOINT, "--output", "json",
                           "dynamodb"] + list(args),
                          env=AWS_ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else None


def cli(*args):
    done = subprocess.run([CLI, "--endpoint-url", ENDPOINT] + list(args), capture_output=True,
                          text=True, timeout=120, env=AWS_ENV)
    return done.returncode, done.stdout, done.stderr


@unittest.skipUnless(CLI and ENDPOINT, "needs DYNOTABLE_CLI and DYNO_TEST_ENDPOINT "
                                       "(run through tests/fixtures/with-ddb-local.sh)")
class PatternsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.table = "patterns-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8])
        aws("create-table", "--table-name", cls.table, "--billing-mode", "PAY_PER_REQUEST",
            "--attribute-definitions", "AttributeName=pk,AttributeType=S",
            "AttributeName=sk,AttributeType=S", "AttributeName=status,AttributeType=S",
            "--key-schema", "AttributeName=pk,KeyType=HASH", "AttributeName=sk,KeyType=RANGE",
            "--global-secondary-indexes", json.dumps([{
                "IndexName": "byStatus",
                "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "ALL"}}]))
        # 12 orders of one customer: sort keys without zero padding (ORDER#10 sorts before
        # ORDER#2), every fourth one open
        requests = [{"PutRequest": {"Item": {
            "pk": {"S": "CUSTOMER#1"}, "sk": {"S": "ORDER#%d" % i}, "n": {"N": str(i)},
            "status": {"S": "open" if i % 4 == 0 else "done"}}}} for i in range(1, 13)]
        aws("batch-write-item", "--request-items", json.dumps({cls.table: requests}))

    def check(self, patterns, *args):
        handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump({"format": "dynotable-patterns", "version": 1, "patterns": patterns}, handle)
        handle.close()
        self.addCleanup(os.unlink, handle.name)
        return cli("patterns", "check", handle.name, *args)

    def by_customer(self, **expect):
        return {"name": "orders-of-customer", "description": "Orders of a customer, newest first",
                "request": {"TableName": self.table, "ScanIndexForward": False,
                            "KeyConditionExpression": "pk = :c AND begins_with(sk, :o)",
                            "ExpressionAttributeValues": {":o": {"S": "ORDER#"}}},
                "parameters": {":c": {"S": "CUSTOMER#1"}}, "expect": expect}

    def test_passing_set(self):
        status, out, err = self.check([
            self.by_customer(order="descending", minItems=1),
            {"name": "open-orders",
             "request": {"TableName": self.table, "IndexName": "byStatus",
                         "KeyConditionExpression": "#s = :s",
                         "ExpressionAttributeNames": {"#s": "status"}},
             "parameters": {":s": {"S": "open"}}, "expect": {"minItems": 3, "maxItems": 3}}])
        self.assertEqual(status, 0, out + err)
        self.assertEqual(out.splitlines(), [
            "PASS orders-of-customer: Query on %s: 12 items, 1 page, 12 read, 0.5 RCU"
            % self.table,
            "PASS open-orders: Query on index byStatus of %s: 3 items, 1 page, 3 read, 0.5 RCU"
            % self.table])
        self.assertIn("2 of 2 passed", err)

    def test_failures(self):
        status, out, err = self.check([
            # ordered by the number, the unpadded sort key is out of order
            {"name": "by-number",
             "request": {"TableName": self.table, "KeyConditionExpression": "pk = :c",
                         "ExpressionAttributeValues": {":c": {"S": "CUSTOMER#1"}}},
             "expect": {"order": "ascending", "by": "n"}},
            # the open orders by a Scan and a filter: a Scan, and 12 read for 3 (over 2 each)
            {"name": "open-by-scan",
             "request": {"TableName": self.table, "FilterExpression": "#s = :open",
                         "ExpressionAttributeNames": {"#s": "status"},
                         "ExpressionAttributeValues": {":open": {"S": "open"}}},
             "expect": {"maxReadPerItem": 2}}])
        self.assertEqual(status, 1, out + err)
        lines = out.splitlines()
        self.assertTrue(lines[0].startswith("FAIL by-number: Query on"), out)
        self.assertIn("not in ascending order by n: item 5 ({\"N\":\"2\"}) comes after "
                      "{\"N\":\"12\"}", out)
        self.assertIn("FAIL open-by-scan: Scan of %s: 3 items, 1 page, 12 read" % self.table, out)
        self.assertIn("it is a Scan: it read 12 items", out)
        self.assertIn("it read 12 items to return 3 (4.0 per item, at most 2 expected)", out)
        self.assertIn("0 of 2 passed", err)

        # allowed to scan, it passes
        status, out, err = self.check([
            {"name": "audit", "request": {"TableName": self.table},
             "expect": {"scan": True, "minItems": 12}}])
        self.assertEqual(status, 0, out + err)

    def test_parameters(self):
        status, out, err = self.check([self.by_customer(minItems=1)],
                                      "--param", ':c={"S": "CUSTOMER#2"}')
        self.assertEqual(status, 1, out + err)
        self.assertIn("0 items returned; at least 1 expected", out)
        status, out, err = self.check([self.by_customer()], "--param", ':nope={"S": "x"}')
        self.assertEqual(status, 2, err)
        self.assertIn(":nope is not a parameter of any pattern in this set", err)
        status, out, err = self.check([self.by_customer()], "--param", ':c=CUSTOMER#2')
        self.assertEqual(status, 2, err)
        self.assertIn("--param: :c: ", err)

    def test_bad_sets(self):
        status, out, err = self.check([{"name": "x", "request": {
            "TableName": self.table, "KeyConditionExpression": "pk = :c"}}])
        self.assertEqual(status, 2, err)
        self.assertIn("patterns[0] (x): request: Invalid KeyConditionExpression", err)
        status, out, err = self.check([{"name": "x", "request": {
            "TableName": self.table, "KeyConditionExpression": "nokey = :c",
            "ExpressionAttributeValues": {":c": {"S": "a"}}}}])
        # read, but checked against the table before it runs: the key is not the table's
        self.assertEqual(status, 1, out + err)
        self.assertIn("FAIL x: KeyConditionExpression", out)
        status, out, err = self.check([{"name": "x", "request": {"TableName": "no-such-table"}}])
        self.assertEqual(status, 1, out + err)
        self.assertIn("FAIL x: ResourceNotFoundException", out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
