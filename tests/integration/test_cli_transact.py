#!/usr/bin/python3
# test_cli_transact.py: `dynotable-cli transact-write|transact-get|partiql` against DynamoDB
# Local, run as a person runs them
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs through tests/fixtures/with-ddb-local.sh (DYNO_TEST_ENDPOINT, dummy credentials).  What
# the CLI wrote is read back with the AWS CLI (/usr/bin/aws), a peer that shares no code.

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


def unique(base):
    return "tx-%d-%s-%s" % (os.getpid(), uuid.uuid4().hex[:8], base)


def aws(*args):
    done = subprocess.run(["/usr/bin/aws", "--endpoint-url", ENDPOINT, "--output", "json",
                           "dynamodb"] + list(args),
                          env=AWS_ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else None


def cli(*args, stdin=None):
    argv = [CLI, "--endpoint-url", ENDPOINT] + list(args)
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=120,
                          env=AWS_ENV)
    return done.returncode, done.stdout, done.stderr


def lines(out):
    return [json.loads(line) for line in out.splitlines() if line.strip()]


@unittest.skipUnless(CLI and ENDPOINT, "needs DYNOTABLE_CLI and DYNO_TEST_ENDPOINT "
                                       "(run through tests/fixtures/with-ddb-local.sh)")
class TransactTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.orders = unique("orders")
        cls.customers = unique("customers")
        for table in (cls.orders, cls.customers):
            aws("create-table", "--table-name", table, "--billing-mode", "PAY_PER_REQUEST",
                "--attribute-definitions", "AttributeName=pk,AttributeType=S",
                "--key-schema", "AttributeName=pk,KeyType=HASH")
        aws("put-item", "--table-name", cls.customers,
            "--item", json.dumps({"pk": {"S": "C#1"}, "orders": {"N": "0"}}))

    def get(self, table, pk):
        return (aws("get-item", "--table-name", table, "--consistent-read",
                    "--key", json.dumps({"pk": {"S": pk}})) or {}).get("Item")

    def write_file(self, document):
        handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(document, handle)
        handle.close()
        self.addCleanup(os.unlink, handle.name)
        return handle.name

    def place_order(self, order, amount):
        return [
            {"Put": {"TableName": self.orders,
                     "Item": {"pk": {"S": order}, "amount": {"N": amount}},
                     "ConditionExpression": "attribute_not_exists(pk)"}},
            {"Update": {"TableName": self.customers, "Key": {"pk": {"S": "C#1"}},
                        "UpdateExpression": "SET #n = #n + :one",
                        "ExpressionAttributeNames": {"#n": "orders"},
                        "ExpressionAttributeValues": {":one": {"N": "1"}}}},
        ]

    def test_write_all_or_nothing(self):
        path = self.write_file(self.place_order("O#1", "12.5"))
        status, out, err = cli("transact-write", path)
        self.assertEqual(status, 0, err)
        self.assertEqual(out, "")
        self.assertIn("2 items written", err)
        self.assertEqual(self.get(self.orders, "O#1")["amount"], {"N": "12.5"})
        self.assertEqual(self.get(self.customers, "C#1")["orders"], {"N": "1"})

        # the same order again: the Put's condition fails, and the Update is not applied
        status, out, err = cli("transact-write", path)
        self.assertEqual(status, 1, err)
        self.assertIn("cancelled; nothing was written", err)
        self.assertIn("item 0 (Put %s): ConditionalCheckFailed" % self.orders, err)
        self.assertIn("item 1 (Update %s): None" % self.customers, err)
        self.assertEqual(self.get(self.customers, "C#1")["orders"], {"N": "1"})

    def test_cancellation_shows_the_item(self):
        aws("put-item", "--table-name", self.orders,
            "--item", json.dumps({"pk": {"S": "O#cheap"}, "amount": {"N": "3"}}))
        path = self.write_file({"TransactItems": [
            {"Delete": {"TableName": self.customers, "Key": {"pk": {"S": "C#gone"}}}},
            {"ConditionCheck": {"TableName": self.orders, "Key": {"pk": {"S": "O#cheap"}},
                                "ConditionExpression": "amount > :big",
                                "ExpressionAttributeValues": {":big": {"N": "100"}},
                                "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}]})
        status, out, err = cli("transact-write", path)
        self.assertEqual(status, 1, err)
        self.assertIn("item 1 (ConditionCheck %s): ConditionalCheckFailed" % self.orders, err)
        self.assertIn('the item is: {"amount":{"N":"3"},"pk":{"S":"O#cheap"}}', err)

    def test_token_applies_once(self):
        # the same token within 10 minutes: DynamoDB applies the transaction once
        path = self.write_file([
            {"Update": {"TableName": self.customers, "Key": {"pk": {"S": "C#token"}},
                        "UpdateExpression": "ADD visits :one",
                        "ExpressionAttributeValues": {":one": {"N": "1"}}}}])
        token = uuid.uuid4().hex
        for _ in range(2):
            status, out, err = cli("transact-write", "--token", token, path)
            self.assertEqual(status, 0, err)
        self.assertEqual(self.get(self.customers, "C#token")["visits"], {"N": "1"})
        # without one, each run is a transaction of its own
        status, out, err = cli("transact-write", path)
        self.assertEqual(status, 0, err)
        self.assertEqual(self.get(self.customers, "C#token")["visits"], {"N": "2"})

    def test_refused_before_sending(self):
        cases = [
            ([], "1 to 100 items"),
            ([{"Put": {"TableName": self.orders, "Item": {"pk": {"S": "x"}}},
               "Delete": {"TableName": self.orders, "Key": {"pk": {"S": "x"}}}}],
             "TransactItems[0] must hold exactly one of Put, Update, Delete or ConditionCheck"),
            ([{"Update": {"TableName": self.orders, "Key": {"pk": {"S": "x"}},
                          "UpdateExpression": "SET size = :v",
                          "ExpressionAttributeValues": {":v": {"N": "1"}}}}],
             "TransactItems[0].Update: Invalid UpdateExpression: Attribute name is a reserved "
             "keyword; reserved keyword: size"),
        ]
        for document, says in cases:
            status, out, err = cli("transact-write", self.write_file(document))
            self.assertEqual(status, 2, err)
            self.assertIn(says, err)
        status, out, err = cli("transact-write", "-", stdin="[{\"Put\": ")
        self.assertEqual(status, 2, err)
        self.assertIn("Not valid JSON", err)
        self.assertIsNone(self.get(self.orders, "x"))

    def test_get(self):
        aws("put-item", "--table-name", self.orders,
            "--item", json.dumps({"pk": {"S": "O#get"}, "amount": {"N": "7"},
                                  "note": {"S": "hi"}}))
        aws("put-item", "--table-name", self.customers,
            "--item", json.dumps({"pk": {"S": "C#get"}, "name": {"S": "Ana"},
                                  "note": {"S": "vip"}}))
        document = [{"Get": {"TableName": self.orders, "Key": {"pk": {"S": "O#get"}}}},
                    {"Get": {"TableName": self.orders, "Key": {"pk": {"S": "O#none"}}}},
                    {"Get": {"TableName": self.customers, "Key": {"pk": {"S": "C#get"}},
                             "ProjectionExpression": "note"}}]
        status, out, err = cli("transact-get", "-", stdin=json.dumps(document))
        self.assertEqual(status, 0, err)
        self.assertEqual(lines(out), [
            {"amount": {"N": "7"}, "note": {"S": "hi"}, "pk": {"S": "O#get"}},
            None,
            {"note": {"S": "vip"}}])
        # two actions on one item are refused before sending, as DynamoDB would refuse them
        status, out, err = cli("transact-get", "-", stdin=json.dumps(document + document[:1]))
        self.assertEqual(status, 2, err)
        self.assertIn("TransactItems[0] and TransactItems[3] are on the same item", err)
        status, out, err = cli("transact-get", "--plain", "-", stdin=json.dumps(document[:1]))
        self.assertEqual(status, 0, err)
        self.assertEqual(lines(out), [{"amount": 7, "note": "hi", "pk": "O#get"}])

    def test_partiql(self):
        table = unique("partiql")
        aws("create-table", "--table-name", table, "--billing-mode", "PAY_PER_REQUEST",
            "--attribute-definitions", "AttributeName=pk,AttributeType=S",
            "AttributeName=sk,AttributeType=N",
            "--key-schema", "AttributeName=pk,KeyType=HASH", "AttributeName=sk,KeyType=RANGE")
        # INSERT runs once
        for i in range(7):
            status, out, err = cli("partiql", "INSERT INTO \"%s\" VALUE {'pk': ?, 'sk': ?}" % table,
                                   "--parameters", json.dumps([{"S": "P"}, {"N": str(i)}]))
            self.assertEqual(status, 0, err)
        self.assertEqual(aws("scan", "--table-name", table, "--select", "COUNT")["Count"], 7)

        # a SELECT follows NextToken: 2 items a page, every item once, in key order
        status, out, err = cli("partiql", "SELECT sk FROM \"%s\" WHERE pk = ?" % table,
                               "--parameters", '[{"S": "P"}]', "--limit", "2", "--consistent")
        self.assertEqual(status, 0, err)
        self.assertEqual([item["sk"]["N"] for item in lines(out)], [str(i) for i in range(7)])
        self.assertRegex(err, r"7 items, [4-9] pages")

        # UPDATE and DELETE run once; DynamoDB's own words on errors
        status, out, err = cli("partiql", "UPDATE \"%s\" SET note = 'x' WHERE pk = 'P' AND sk = 3"
                               % table)
        self.assertEqual(status, 0, err)
        status, out, err = cli("partiql", "SELECT * FROM \"%s\" WHERE pk = 'P' AND sk = 3" % table,
                               "--plain")
        self.assertEqual(lines(out), [{"pk": "P", "sk": 3, "note": "x"}])
        status, out, err = cli("partiql", "DELETE FROM \"%s\" WHERE pk = 'P' AND sk = 3" % table)
        self.assertEqual(status, 0, err)
        self.assertEqual(aws("scan", "--table-name", table, "--select", "COUNT")["Count"], 6)

        status, out, err = cli("partiql", "SELEC * FROM \"%s\"" % table)
        self.assertEqual(status, 1, err)
        self.assertIn("ValidationException: Statement wasn't well formed", err)

        # checked before sending: placeholders, parameters, limit
        for args, says in [
                (["SELECT * FROM \"%s\" WHERE pk = ?" % table],
                 "1 ? placeholder(s) and --parameters gives 0"),
                (["SELECT * FROM \"%s\" WHERE pk = 'a?b'" % table, "--parameters", '[{"S":"x"}]'],
                 "0 ? placeholder(s) and --parameters gives 1"),
                (["SELECT * FROM \"%s\" WHERE pk = ?" % table, "--parameters", '[{"Q":"x"}]'],
                 "--parameters: parameter 1: "),
                (["SELECT * FROM \"%s\"" % table, "--limit", "0"], "--limit: must be at least 1"),
                (["   "], "1 to 8192 characters")]:
            status, out, err = cli("partiql", *args)
            self.assertEqual(status, 2, (args, err))
            self.assertIn(says, err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
