#!/usr/bin/python3
# test_cli_model.py: `dynotable-cli model import --apply` creates the tables of real NoSQL
# Workbench models (tests/data/workbench-models) with their items, checked with the AWS CLI;
# `model export` writes them back as a model which, imported into a fresh database, gives the
# same tables and items.
#
# Runs through fixtures/with-ddb-local.sh --per-key: DynamoDB Local without -sharedDb keeps
# one database per access key, so each import gets a fresh, empty database of its own.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import subprocess
import tempfile
import unittest
import urllib.request
import uuid

CLI = os.environ.get("DYNOTABLE_CLI")
ENDPOINT = os.environ.get("DYNO_TEST_ENDPOINT")
SOURCE = os.environ.get("DYNO_SOURCE_ROOT", ".")
MODELS = os.path.join(SOURCE, "tests", "data", "workbench-models")
AWS = "/usr/bin/aws"

# file: {table: (partition key, sort key, {GSI name: (pk, sk or None, projection)}, items)}
# read off the files by hand (see the README there)
EXPECTED = {
    "ChatSystemSchema.json": {
        "Chat": ("PK", "SK", {"RoomID_Comment_IDX": ("RoomID", "CreatedAt", "ALL")}, 8)},
    "ComplaintManagementSchema.json": {
        "Complaint_management_system": ("PK", "SK", None, 9)},
    "GamePlayerProfilesSchema.json": {"game-player-profiles": ("PK", "SK", {}, 14)},
    "ConnectedVehiclesSchema.json": {"Connected_Vehicle": ("PK", "SK", {}, 12)},
    "RecurringPaymentsSchema.json": {
        "ReoccuringPayments": ("PK", "SK", {
            "GSI-1": ("NextReminderDate", "LastReminderDate", "INCLUDE"),
            "GSI-2": ("NextPaymentDate", "LastPaymentDate", "INCLUDE")}, 2)},
    "SocialNetworkSchema.json": {"SNS": ("PK", "SK", {}, 17)},
    "BankModel.json": {
        "PaymentScheduler": ("AccountID", "ScheduledTime", {
            "Query_All_Scheduled_Payments": ("Sharded-GSI-PK", "Status#Time", "ALL")}, 4),
        "TransactionHistory": ("AccountID", "Timestamp", {
            "QueryAll_byTime": ("Sharded-GSI-PK", "Timestamp", "ALL"),
            "Query_TransactionID": ("TransactionID", None, "ALL")}, 2)},
}
# models whose items are all valid DynamoDB JSON as written: compared item by item
STRICT = {"ChatSystemSchema.json", "ComplaintManagementSchema.json",
          "RecurringPaymentsSchema.json", "SocialNetworkSchema.json", "BankModel.json"}


def env_for(key):
    return dict(os.environ, AWS_ACCESS_KEY_ID=key, AWS_MAX_ATTEMPTS="2")


def cli(key, *args):
    done = subprocess.run([CLI, "--endpoint-url", ENDPOINT] + list(args), capture_output=True,
                          text=True, timeout=300, env=env_for(key))
    return done.returncode, done.stdout, done.stderr


def aws(key, *args):
    done = subprocess.run([AWS, "--endpoint-url", ENDPOINT, "--output", "json", "dynamodb"]
                          + list(args), capture_output=True, text=True, timeout=120,
                          env=env_for(key), check=True)
    return json.loads(done.stdout) if done.stdout.strip() else {}


def api(key, operation, payload):
    """The DynamoDB API straight over HTTP (fast; DynamoDB Local checks no signature, but
    picks the database by the access key)."""
    request = urllib.request.Request(
        ENDPOINT + "/", data=json.dumps(payload).encode(), method="POST",
        headers={"Content-Type": "application/x-amz-json-1.0",
                 "X-Amz-Target": "DynamoDB_20120810." + operation,
                 "Authorization": "AWS4-HMAC-SHA256 Credential=%s/20260101/us-east-1/"
                                  "dynamodb/aws4_request, SignedHeaders=host, Signature=00"
                                  % key})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def canonical(value):
    """An AttributeValue with sets sorted, for comparing."""
    (tag, inner), = value.items()
    if tag == "M":
        return {"M": {k: canonical(v) for k, v in inner.items()}}
    if tag == "L":
        return {"L": [canonical(v) for v in inner]}
    if tag in ("SS", "NS", "BS"):
        return {tag: sorted(inner)}
    return {tag: inner}


def item_key(item):
    return json.dumps({k: canonical(v) for k, v in item.items()}, sort_keys=True)


def scan(key, table, with_aws=False):
    """Every item of @table, canonical and sorted; through /usr/bin/aws when @with_aws."""
    items, start = [], None
    while True:
        if with_aws:
            args = ["scan", "--table-name", table, "--consistent-read"]
            if start:
                args += ["--exclusive-start-key", json.dumps(start)]
            page = aws(key, *args)
        else:
            payload = {"TableName": table, "ConsistentRead": True}
            if start:
                payload["ExclusiveStartKey"] = start
            page = api(key, "Scan", payload)
        items += page.get("Items", [])
        start = page.get("LastEvaluatedKey")
        if not start:
            return sorted(item_key(i) for i in items)


def model_items(path, table):
    with open(path, encoding="utf-8") as f:
        model = json.load(f)
    for t in model["DataModel"]:
        if t["TableName"] == table:
            items = list(t.get("TableData", []))
            for facet in t.get("TableFacets", []):
                items += facet.get("TableData", [])
            return sorted(item_key(i) for i in items)
    raise KeyError(table)


def schema(description):
    """What must survive: keys, attribute types, indexes and billing."""
    t = description["Table"]
    return {
        "keys": t["KeySchema"],
        "attributes": sorted((a["AttributeName"], a["AttributeType"])
                             for a in t["AttributeDefinitions"]),
        "gsis": sorted((g["IndexName"], json.dumps(g["KeySchema"]), json.dumps(g["Projection"],
                                                                                sort_keys=True))
                       for g in t.get("GlobalSecondaryIndexes", [])),
        "lsis": sorted((g["IndexName"], json.dumps(g["KeySchema"]))
                       for g in t.get("LocalSecondaryIndexes", [])),
        "billing": t.get("BillingModeSummary", {}).get("BillingMode", "PROVISIONED"),
    }


@unittest.skipUnless(CLI and ENDPOINT, "needs DYNOTABLE_CLI and DYNO_TEST_ENDPOINT "
                                       "(run through tests/fixtures/with-ddb-local.sh --per-key)")
class Model(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def fresh_key(self):
        return "model" + uuid.uuid4().hex[:12]

    def test_import_export_reimport(self):
        for file, tables in EXPECTED.items():
            with self.subTest(model=file):
                path = os.path.join(MODELS, file)
                first, second = self.fresh_key(), self.fresh_key()

                # the summary alone touches nothing
                status, out, err = cli(first, "model", "import", path)
                self.assertEqual(status, 0, err)
                for table, (_, _, _, n_items) in tables.items():
                    self.assertIn("Table %s: " % table, out)
                self.assertEqual(api(first, "ListTables", {})["TableNames"], [])

                status, out, err = cli(first, "model", "import", path, "--apply")
                self.assertEqual(status, 0, err)
                self.assertEqual(sorted(api(first, "ListTables", {})["TableNames"]),
                                 sorted(tables))

                for table, (pk, sk, gsis, n_items) in tables.items():
                    d = aws(first, "describe-table", "--table-name", table)["Table"]
                    self.assertEqual(d["TableStatus"], "ACTIVE")
                    self.assertEqual(d["KeySchema"],
                                     [{"AttributeName": pk, "KeyType": "HASH"},
                                      {"AttributeName": sk, "KeyType": "RANGE"}])
                    if gsis is not None:
                        got = {g["IndexName"]: g for g in d.get("GlobalSecondaryIndexes", [])}
                        self.assertEqual(sorted(got), sorted(gsis))
                        for name, (gpk, gsk, projection) in gsis.items():
                            keys = [{"AttributeName": gpk, "KeyType": "HASH"}]
                            if gsk:
                                keys.append({"AttributeName": gsk, "KeyType": "RANGE"})
                            self.assertEqual(got[name]["KeySchema"], keys)
                            self.assertEqual(got[name]["Projection"]["ProjectionType"],
                                             projection)
                    else:
                        self.assertEqual(len(d["GlobalSecondaryIndexes"]), 3)
                    items = scan(first, table, with_aws=True)
                    self.assertEqual(len(items), n_items)
                    if file in STRICT:
                        self.assertEqual(items, model_items(path, table))

                # export, then the export into a fresh database: the same tables and items
                exported = os.path.join(self.tmp.name, "export.json")
                status, out, err = cli(first, "model", "export", *tables, "-o", exported)
                self.assertEqual(status, 0, err)
                self.assertEqual(out, "")
                with open(exported, encoding="utf-8") as f:
                    model = json.load(f)
                self.assertEqual(model["ModelMetadata"]["Version"], "3.0")
                self.assertEqual([t["TableName"] for t in model["DataModel"]], list(tables))

                status, out, err = cli(second, "model", "import", exported, "--apply")
                self.assertEqual(status, 0, err)
                for table in tables:
                    a = api(first, "DescribeTable", {"TableName": table})
                    b = api(second, "DescribeTable", {"TableName": table})
                    self.assertEqual(schema(a), schema(b))
                    self.assertEqual(scan(first, table), scan(second, table))

    def test_existing_table_is_refused_before_writing(self):
        key = self.fresh_key()
        path = os.path.join(MODELS, "BankModel.json")
        status, _, err = cli(key, "model", "import", path, "--apply")
        self.assertEqual(status, 0, err)
        # one table gone, one item of the other gone: a second import must not touch either
        api(key, "DeleteTable", {"TableName": "PaymentScheduler"})
        api(key, "DeleteItem", {"TableName": "TransactionHistory",
                                "Key": {"AccountID": {"S": "Account1"},
                                        "Timestamp": {"S": "2019-09-24T010101"}}})
        before = scan(key, "TransactionHistory")
        self.assertEqual(len(before), 1)

        status, out, err = cli(key, "model", "import", path, "--apply")
        self.assertEqual(status, 1)
        self.assertIn("table TransactionHistory already exists", err)
        self.assertEqual(api(key, "ListTables", {})["TableNames"], ["TransactionHistory"])
        self.assertEqual(scan(key, "TransactionHistory"), before)

    def test_bad_models(self):
        key = self.fresh_key()
        bad = os.path.join(self.tmp.name, "bad.json")
        with open(bad, "w", encoding="utf-8") as f:
            f.write('{\n  "ModelName": "m",\n  "DataModel": [,]\n}\n')
        status, out, err = cli(key, "model", "import", bad, "--apply")
        self.assertEqual(status, 2)
        self.assertIn("bad.json:3:17: The model is not valid JSON", err)

        with open(bad, "w", encoding="utf-8") as f:
            json.dump({"ModelName": "m", "DataModel": [{
                "TableName": "things", "KeyAttributes": {
                    "PartitionKey": {"AttributeName": "id", "AttributeType": "S"}},
                "TableData": [{"id": {"S": "a"}}, {"name": {"S": "no key"}}]}]}, f)
        status, out, err = cli(key, "model", "import", bad, "--apply")
        self.assertEqual(status, 2)
        self.assertIn("Table “things”: TableData item 2 has no key attribute “id”", err)
        self.assertEqual(api(key, "ListTables", {})["TableNames"], [])

        status, out, err = cli(key, "model", "export", "no-such-table")
        self.assertEqual(status, 1)
        self.assertIn("ResourceNotFoundException", err)

        status, out, err = cli(key, "model", "frobnicate")
        self.assertEqual(status, 2)
        self.assertIn("unknown subcommand", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
