#!/usr/bin/python3
# test_import_export.py: `dynotable-cli import|export` and the safe-write conditions against
# DynamoDB Local, checked with boto3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs through tests/fixtures/with-ddb-local.sh (DYNO_TEST_ENDPOINT, dummy credentials).
# The safe-write requests come from tests/unit/test-safe-write --emit (the same builder the
# item editor uses) and are sent with `dynotable-cli put|update|delete --condition`.

import base64
import json
import os
import signal
import subprocess
import tempfile
import time
import unittest
import uuid

try:
    import boto3
    from boto3.dynamodb.types import TypeDeserializer  # noqa: F401  (present with boto3)
except ImportError:  # pragma: no cover
    boto3 = None

CLI = os.environ.get("DYNOTABLE_CLI")
ENDPOINT = os.environ.get("DYNO_TEST_ENDPOINT")
BUILDDIR = os.environ.get("G_TEST_BUILDDIR")
SAFE_WRITE = os.path.join(BUILDDIR, "test-safe-write") if BUILDDIR else None


def unique(base):
    return "ie-%d-%s-%s" % (os.getpid(), uuid.uuid4().hex[:8], base)


def cli(*args, stdin=None, timeout=600):
    argv = [CLI, "--endpoint-url", ENDPOINT] + list(args)
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def to_wire(value):
    """boto3's client gives B/BS as bytes: back to DynamoDB JSON's base64 text."""
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(value).decode()
    if isinstance(value, dict):
        return {k: to_wire(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_wire(v) for v in value]
    return value


def canonical(value):
    """A DynamoDB-JSON value with set members sorted and numbers normalised, for equality."""
    (kind, inner), = value.items()
    if kind in ("SS", "BS", "NS"):
        return {kind: sorted(inner)}
    if kind == "M":
        return {kind: {k: canonical(v) for k, v in inner.items()}}
    if kind == "L":
        return {kind: [canonical(v) for v in inner]}
    return value


def item_key(item):
    item = to_wire(item)
    return json.dumps({k: canonical(v) for k, v in item.items()}, sort_keys=True)


@unittest.skipUnless(CLI and ENDPOINT and boto3, "needs DYNOTABLE_CLI, DYNO_TEST_ENDPOINT (run "
                                                 "through tests/fixtures/with-ddb-local.sh) "
                                                 "and boto3")
class ImportExportTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.ddb = boto3.client("dynamodb", endpoint_url=ENDPOINT, region_name="us-east-1",
                               aws_access_key_id="fakeMyKeyId",
                               aws_secret_access_key="fakeSecretAccessKey")
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def create_table(self, base, sk_type="N", gsi=False):
        name = unique(base)
        spec = {
            "TableName": name,
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": sk_type}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
        }
        if gsi:
            spec["AttributeDefinitions"].append({"AttributeName": "status",
                                                 "AttributeType": "S"})
            spec["GlobalSecondaryIndexes"] = [{
                "IndexName": "byStatus",
                "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"}}]
        self.ddb.create_table(**spec)
        self.ddb.get_waiter("table_exists").wait(TableName=name)
        self.addCleanup(self.ddb.delete_table, TableName=name)
        return name

    def scan_all(self, table):
        items = []
        for page in self.ddb.get_paginator("scan").paginate(TableName=table):
            items.extend(page["Items"])
        return items

    def count(self, table):
        total = 0
        for page in self.ddb.get_paginator("scan").paginate(TableName=table, Select="COUNT"):
            total += page["Count"]
        return total

    def assert_same_tables(self, a, b):
        items_a = sorted(item_key(i) for i in self.scan_all(a))
        items_b = sorted(item_key(i) for i in self.scan_all(b))
        self.assertEqual(len(items_a), len(items_b))
        self.assertEqual(items_a, items_b)

    # ---- import of a large file with bad rows ----------------------------------------------

    def write_big_file(self, path):
        """10,000 lines; returns {line: kind} of the bad ones, the duplicate, and the blank."""
        bad = {
            17: "missing-key",
            1234: "wrong-key-type",
            2500: "empty-key",
            4000: "bad-json",
            6001: "too-big",
            8888: "bad-number",
            9500: "index-key-type",
        }
        blank = 3000
        duplicate = (5000, 10)  # line 5000 repeats the key of line 10 with another value
        with open(path, "w") as f:
            for line in range(1, 10001):
                item = {"pk": {"S": "P#%04d" % (line % 97)}, "sk": {"N": str(line)},
                        "line": {"N": str(line)}, "status": {"S": "open"},
                        "data": {"B": base64.b64encode(b"\x00\x01" + str(line).encode()).decode()},
                        "tags": {"SS": ["t%d" % (line % 5), "all"]}}
                kind = bad.get(line)
                if line == blank:
                    f.write("\n")
                    continue
                if line == duplicate[0]:
                    item["pk"] = {"S": "P#%04d" % (duplicate[1] % 97)}
                    item["sk"] = {"N": str(duplicate[1])}
                if kind == "missing-key":
                    del item["pk"]
                elif kind == "wrong-key-type":
                    item["pk"] = {"N": "42"}
                elif kind == "empty-key":
                    item["pk"] = {"S": ""}
                elif kind == "bad-json":
                    f.write(json.dumps(item)[:-3] + "\n")
                    continue
                elif kind == "too-big":
                    item["blob"] = {"S": "x" * 409600}
                elif kind == "bad-number":
                    item["line"] = {"N": "12.3.4"}
                elif kind == "index-key-type":
                    item["status"] = {"N": "1"}
                f.write(json.dumps(item) + "\n")
        return bad, blank, duplicate

    def test_import_10k_with_bad_rows(self):
        table = self.create_table("big", gsi=True)
        source = self.path("big.jsonl")
        report = self.path("big-report.jsonl")
        bad, blank, duplicate = self.write_big_file(source)

        status, out, err = cli("import", table, source, "--report", report, "--progress")
        self.assertEqual(status, 1, err)
        self.assertIn("rows rejected", err)
        self.assertIn("%d rows rejected" % len(bad), err)

        with open(report) as f:
            rows = [json.loads(line) for line in f]
        self.assertEqual(sorted(r["line"] for r in rows), sorted(bad))
        needles = {
            "missing-key": "partition key pk",
            "wrong-key-type": "type S",
            "empty-key": "empty",
            "bad-json": "JSON",
            "too-big": "400 KB",
            "bad-number": "12.3.4",
            "index-key-type": "byStatus",
        }
        for r in rows:
            self.assertEqual(r["status"], "rejected")
            self.assertIn(needles[bad[r["line"]]], r["reason"], r)
            # row numbers count records, not the blank line
            self.assertEqual(r["row"], r["line"] - (1 if r["line"] > blank else 0))

        # every good row written, the duplicate key once
        expected = 10000 - 1 - len(bad) - 1
        self.assertEqual(self.count(table), expected)

        # spot checks: exact values, binary and sets intact, the later duplicate wins
        for line in (1, 16, 18, 2499, 4001, 9999, 10000):
            got = self.ddb.get_item(TableName=table, Key={"pk": {"S": "P#%04d" % (line % 97)},
                                                          "sk": {"N": str(line)}})["Item"]
            self.assertEqual(got["line"], {"N": str(line)})
            self.assertEqual(got["data"]["B"], b"\x00\x01" + str(line).encode())
            self.assertEqual(sorted(got["tags"]["SS"]), sorted(["t%d" % (line % 5), "all"]))
        dup = self.ddb.get_item(TableName=table, Key={"pk": {"S": "P#%04d" % (duplicate[1] % 97)},
                                                      "sk": {"N": str(duplicate[1])}})["Item"]
        self.assertEqual(dup["line"], {"N": str(duplicate[0])})
        for line in bad:
            got = self.ddb.get_item(TableName=table, Key={"pk": {"S": "P#%04d" % (line % 97)},
                                                          "sk": {"N": str(line)}})
            self.assertNotIn("Item", got, line)

        # a re-run is safe: puts are idempotent per key
        status, out, err = cli("import", table, source, "--report", self.path("again.jsonl"))
        self.assertEqual(status, 1, err)
        self.assertEqual(self.count(table), expected)

    def test_import_cancel_then_rerun(self):
        table = self.create_table("cancel")
        source = self.path("cancel.jsonl")
        with open(source, "w") as f:
            for i in range(20000):
                f.write(json.dumps({"pk": {"S": "C#%d" % (i % 50)}, "sk": {"N": str(i)},
                                    "v": {"S": "x" * 200}}) + "\n")
        proc = subprocess.Popen([CLI, "--endpoint-url", ENDPOINT, "import", table, source],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        if proc.returncode != 0:
            # cancelled before the end (exit 130, as after SIGINT): it says so, and what was
            # not imported
            self.assertEqual(proc.returncode, 130, err)
            self.assertIn("cancel", err)
            self.assertIn("safe", err)
        status, out, err = cli("import", table, source)
        self.assertEqual(status, 0, err)
        self.assertEqual(self.count(table), 20000)

    def test_import_errors_before_writing(self):
        table = self.create_table("usage")
        status, out, err = cli("import", table, self.path("does-not-exist.jsonl"))
        self.assertEqual(status, 2)
        status, out, err = cli("import", table, "-", "--types", "a:STRING", stdin="")
        self.assertEqual(status, 2)
        self.assertIn("STRING", err)
        status, out, err = cli("import", table, "-", "--format", "csv", stdin="a,a\n1,2\n")
        self.assertEqual(status, 1)
        self.assertIn("twice", err)
        self.assertEqual(self.count(table), 0)
        status, out, err = cli("import", unique("missing"), "-", stdin="")
        self.assertEqual(status, 1)
        self.assertIn("ResourceNotFoundException", err)

    # ---- export → import ---------------------------------------------------------------------

    def fill_varied(self, table, n=300, nested_binary=True):
        for i in range(n):
            item = {
                "pk": {"S": "TENANT#%d" % (i % 7)},
                "sk": {"N": str(i) if i % 3 else "%d.25" % i},
                "name": {"S": "n\u00e4me %d, \"quoted\"\nline" % i},
                "empty": {"S": ""},
                "big": {"N": "1234567890123456789012345678901234567%d" % (i % 10)},
                "flag": {"BOOL": i % 2 == 0},
                "nothing": {"NULL": True},
                "bin": {"B": bytes([i % 256, 0, 255])},
                "tags": {"SS": ["a", "b%d" % i]},
                "nums": {"NS": ["1.5", str(i), "-0.5"]},
                "bins": {"BS": [b"\x01", bytes([2, i % 256])]},
                "doc": {"M": {"k": {"S": "v%d" % i}, "l": {"L": [{"N": "1"}, {"S": "two"}]}}},
            }
            if nested_binary:
                item["doc"]["M"]["b"] = {"B": b"\x00\x01"}
            if i % 10 == 0:
                del item["tags"]
            self.ddb.put_item(TableName=table, Item=item)

    def test_export_import_ddb_jsonl(self):
        source = self.create_table("src")
        target = self.create_table("dst")
        self.fill_varied(source)
        out_path = self.path("export.jsonl")

        status, out, err = cli("export", source, "--limit", "40", "--progress", "-o", out_path)
        self.assertEqual(status, 0, err)
        self.assertIn("page 8,", err)  # several pages: all of them were exported
        with open(out_path) as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 300)

        status, out, err = cli("import", target, out_path)
        self.assertEqual(status, 0, err)
        self.assert_same_tables(source, target)

        # to stdout as well, and a query export is only its collection
        status, out, err = cli("export", source, "--key", 'pk = "TENANT#3"')
        self.assertEqual(status, 0, err)
        exported = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(len(exported), len([i for i in range(300) if i % 7 == 3]))
        self.assertTrue(all(e["pk"] == {"S": "TENANT#3"} for e in exported))

    def test_export_failure_keeps_file(self):
        out_path = self.path("kept.jsonl")
        with open(out_path, "w") as f:
            f.write("previous\n")
        status, out, err = cli("export", unique("missing"), "-o", out_path)
        self.assertEqual(status, 1)
        with open(out_path) as f:
            self.assertEqual(f.read(), "previous\n")

    def test_csv_round_trip(self):
        source = self.create_table("csvsrc")
        target = self.create_table("csvdst")
        self.fill_varied(source, n=120)
        # an attribute whose type differs between items: an ANY column
        self.ddb.put_item(TableName=source, Item={"pk": {"S": "MIXED"}, "sk": {"N": "1"},
                                                  "mixed": {"S": "text"}})
        self.ddb.put_item(TableName=source, Item={"pk": {"S": "MIXED"}, "sk": {"N": "2"},
                                                  "mixed": {"N": "7"}})
        csv_path = self.path("export.csv")

        status, out, err = cli("export", source, "-o", csv_path)
        self.assertEqual(status, 0, err)
        with open(csv_path, newline="") as f:
            header = f.readline()
            types = f.readline()
        self.assertTrue(header.startswith("pk,sk,"), header)
        self.assertTrue(types.startswith("#types:S,N,"), types)
        self.assertIn("ANY", types)

        status, out, err = cli("import", target, csv_path)
        self.assertEqual(status, 0, err)
        self.assert_same_tables(source, target)

    def test_plain_json_with_type_mapping(self):
        source = self.create_table("plainsrc")
        target = self.create_table("plaindst")
        self.fill_varied(source, n=80, nested_binary=False)
        plain_path = self.path("export-plain.jsonl")

        status, out, err = cli("export", source, "--format", "plain-jsonl", "-o", plain_path)
        self.assertEqual(status, 0, err)
        hint = [line for line in err.splitlines() if "--types" in line]
        self.assertEqual(len(hint), 1, err)
        types = hint[0].split("--types ", 1)[1].strip()
        mapping = dict(entry.rsplit(":", 1) for entry in types.split(","))
        self.assertEqual(mapping, {"bin": "B", "tags": "SS", "nums": "NS", "bins": "BS"})
        with open(plain_path) as f:
            first = json.loads(f.readline())
        self.assertIsInstance(first["bin"], str)  # plain: base64 text

        status, out, err = cli("import", target, plain_path, "--format", "plain-jsonl",
                               "--types", types)
        self.assertEqual(status, 0, err)
        self.assert_same_tables(source, target)

    # ---- safe writes -------------------------------------------------------------------------

    def emit(self, mode, table, loaded, edited=None):
        argv = [SAFE_WRITE, "--emit", mode, table, "pk", "sk", json.dumps(to_wire(loaded))]
        if edited is not None:
            argv.append(json.dumps(to_wire(edited)))
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True)
        return json.loads(done.stdout)

    @unittest.skipUnless(SAFE_WRITE and os.path.exists(SAFE_WRITE or ""),
                         "needs tests/unit/test-safe-write (G_TEST_BUILDDIR)")
    def test_safe_writes_detect_conflicts(self):
        table = self.create_table("safe", sk_type="S")
        item = {"pk": {"S": "TENANT#acme"}, "sk": {"S": "USER#u_3001"},
                "name": {"S": "Ann"}, "status": {"S": "active"},
                "tags": {"SS": ["b", "a"]}, "prefs": {"M": {"theme": {"S": "dark"},
                                                            "n": {"N": "1.50"}}},
                "hist": {"L": [{"N": "1"}, {"B": b"\x01"}]}, "bin": {"B": b"\x00\x01"}}
        key = {"pk": item["pk"], "sk": item["sk"]}

        # put-new: written once, refused the second time
        put = self.emit("put-new", table, item)
        self.assertEqual(put["operation"], "PutItem")
        status, out, err = cli("put", table, "--item", json.dumps(put["item"]),
                               "--condition", put["condition"])
        self.assertEqual(status, 0, err)
        status, out, err = cli("put", table, "--item", json.dumps(put["item"]),
                               "--condition", put["condition"])
        self.assertEqual(status, 1)
        self.assertIn("ConditionalCheckFailedException", err)

        # an edit of what was loaded succeeds (the = conditions hold for M, L, SS, B as loaded)
        loaded = self.ddb.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]
        edited = dict(loaded, name={"S": "Ann B"}, email={"S": "ann@example.com"})
        del edited["status"]
        edit = self.emit("edit", table, loaded, edited)
        self.assertEqual(edit["operation"], "UpdateItem")
        status, out, err = cli("update", table, "--key-item", json.dumps(edit["key"]),
                               "--update", edit["update"], "--condition", edit["condition"])
        self.assertEqual(status, 0, err)
        now = self.ddb.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]
        self.assertEqual(item_key(now), item_key(edited))

        # someone changes a loaded attribute between load and save: detected, not clobbered
        loaded = now
        edited = dict(loaded, name={"S": "Ann C"})
        edit = self.emit("edit", table, loaded, edited)
        self.ddb.update_item(TableName=table, Key=key, UpdateExpression="SET prefs.theme = :t",
                             ExpressionAttributeValues={":t": {"S": "light"}})
        status, out, err = cli("update", table, "--key-item", json.dumps(edit["key"]),
                               "--update", edit["update"], "--condition", edit["condition"])
        self.assertEqual(status, 1)
        self.assertIn("ConditionalCheckFailedException", err)
        now = self.ddb.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]
        self.assertEqual(now["prefs"]["M"]["theme"], {"S": "light"})
        self.assertEqual(now["name"], {"S": "Ann B"})

        # someone adds the attribute the edit adds: detected too
        loaded = now
        edited = dict(loaded, nickname={"S": "annie"})
        edit = self.emit("edit", table, loaded, edited)
        self.ddb.update_item(TableName=table, Key=key, UpdateExpression="SET nickname = :n",
                             ExpressionAttributeValues={":n": {"S": "theirs"}})
        status, out, err = cli("update", table, "--key-item", json.dumps(edit["key"]),
                               "--update", edit["update"], "--condition", edit["condition"])
        self.assertEqual(status, 1)
        self.assertIn("ConditionalCheckFailedException", err)

        # a delete of a stale version is refused; of the current one it goes through
        stale = self.ddb.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]
        self.ddb.update_item(TableName=table, Key=key, UpdateExpression="SET #n = :n",
                             ExpressionAttributeNames={"#n": "name"},
                             ExpressionAttributeValues={":n": {"S": "Changed"}})
        delete = self.emit("delete", table, stale)
        status, out, err = cli("delete", table, "--key-item", json.dumps(delete["key"]),
                               "--condition", delete["condition"])
        self.assertEqual(status, 1)
        self.assertIn("ConditionalCheckFailedException", err)
        current = self.ddb.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]
        delete = self.emit("delete", table, current)
        status, out, err = cli("delete", table, "--key-item", json.dumps(delete["key"]),
                               "--condition", delete["condition"])
        self.assertEqual(status, 0, err)
        self.assertNotIn("Item", self.ddb.get_item(TableName=table, Key=key))


if __name__ == "__main__":
    unittest.main(verbosity=2)
