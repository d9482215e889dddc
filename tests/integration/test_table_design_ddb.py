#!/usr/bin/python3
# test_table_design_ddb.py: the table designer's validator against DynamoDB Local, design by design
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs through tests/fixtures/with-ddb-local.sh (DYNO_TEST_ENDPOINT, dummy credentials).
# Each CreateTable request below is sent to DynamoDB Local (the JSON
# bodies as they are, signed with botocore's SigV4, so that the server judges every field, even
# ones an SDK would refuse to serialise) and given to our validator, the unit-test
# program run as `test-table-design --validate FILE`.  Both must agree on accept/reject.
# Every accepted table is then described, and DescribeTable must show the designed schema
# (`test-table-design --matches`); our own regenerated request must be accepted too.
# Adding a GSI to an existing table is checked the same way (`--validate-index`).

import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest
import uuid

import time
import urllib.error
import urllib.request

try:
    import botocore
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
except ImportError:  # pragma: no cover
    botocore = None

ENDPOINT = os.environ.get("DYNO_TEST_ENDPOINT")
BUILDDIR = os.environ.get("G_TEST_BUILDDIR")
VALIDATOR = os.path.join(BUILDDIR, "test-table-design") if BUILDDIR else None

# Where DynamoDB Local is known to judge differently from DynamoDB (and from us).  Each entry:
# design name -> why.  The test checks that these still differ, so that the list stays true.
_ON_DEMAND_CAPACITY = (
    "DynamoDB Local accepts capacity on an on-demand table or GSI and ignores it; DynamoDB "
    "rejects it ('Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when "
    "BillingMode is PAY_PER_REQUEST' / 'ProvisionedThroughput should not be specified for "
    "index: … when BillingMode is PAY_PER_REQUEST', as dynalite's tests against the service "
    "record)")
_KEY_IN_NON_KEY = (
    "DynamoDB Local accepts a key attribute among NonKeyAttributes; we reject it because key "
    "attributes are always projected and listing one is a mistake (not confirmed against "
    "DynamoDB itself)")
KNOWN_DEPARTURES = {
    "gsi-include-21-attributes":
        "the API reference limits Projection.NonKeyAttributes to 20 items per index; DynamoDB "
        "Local only checks the 100-per-table total",
    "gsi-include-own-key": _KEY_IN_NON_KEY,
    "gsi-include-table-key": _KEY_IN_NON_KEY,
    "add-index:include-table-key": _KEY_IN_NON_KEY,
    "on-demand-with-capacity": _ON_DEMAND_CAPACITY,
    "gsi-on-demand-with-capacity": _ON_DEMAND_CAPACITY,
    "add-index:on-demand-with-capacity": _ON_DEMAND_CAPACITY,
    "lsi-same-range-key-as-table":
        "DynamoDB Local accepts an LSI whose sort key is the table's own; such an index only "
        "repeats the table, and the designer asks for another sort key (not confirmed against "
        "DynamoDB itself)",
}

RUN = uuid.uuid4().hex[:8]


def unique(base):
    return ("td-%d-%s-%s" % (os.getpid(), RUN, base))[:255]


def defs(*pairs):
    return [{"AttributeName": n, "AttributeType": t} for n, t in pairs]


def keys(hash_name, range_name=None):
    out = [{"AttributeName": hash_name, "KeyType": "HASH"}]
    if range_name is not None:
        out.append({"AttributeName": range_name, "KeyType": "RANGE"})
    return out


def table(name="t", attrs=(("pk", "S"), ("sk", "S")), hash_key="pk", range_key="sk",
          billing="PAY_PER_REQUEST", throughput=None, gsis=None, lsis=None):
    req = {"TableName": name, "AttributeDefinitions": defs(*attrs),
           "KeySchema": keys(hash_key, range_key)}
    if billing is not None:
        req["BillingMode"] = billing
    if throughput is not None:
        req["ProvisionedThroughput"] = {"ReadCapacityUnits": throughput[0],
                                        "WriteCapacityUnits": throughput[1]}
    if gsis:
        req["GlobalSecondaryIndexes"] = gsis
    if lsis:
        req["LocalSecondaryIndexes"] = lsis
    return req


def index(name, hash_key, range_key=None, projection="ALL", non_key=None, throughput=None):
    ix = {"IndexName": name, "KeySchema": keys(hash_key, range_key),
          "Projection": {"ProjectionType": projection}}
    if non_key is not None:
        ix["Projection"]["NonKeyAttributes"] = non_key
    if throughput is not None:
        ix["ProvisionedThroughput"] = {"ReadCapacityUnits": throughput[0],
                                       "WriteCapacityUnits": throughput[1]}
    return ix


GSI_ATTRS = (("pk", "S"), ("sk", "S"), ("gpk", "S"), ("gsk", "N"))
LSI_ATTRS = (("pk", "S"), ("sk", "S"), ("created", "S"))


def many_gsis(n, non_key=None):
    return [index("g%02d" % i, "gpk", projection="INCLUDE" if non_key else "ALL",
                  non_key=non_key) for i in range(n)]


def many_lsis(n):
    return [index("l%02d" % i, "pk", "created", projection="KEYS_ONLY") for i in range(n)]


TWENTY = ["a%02d" % i for i in range(20)]

# name -> CreateTable request.  Names are replaced by unique ones before sending, except in
# the designs about the table name itself (marked by a "TableName" the test keeps).
DESIGNS = {
    "hash-only": table(attrs=(("pk", "S"),), range_key=None),
    "hash-range": table(),
    "number-and-binary-keys": table(attrs=(("pk", "N"), ("sk", "B"))),
    "provisioned": table(billing="PROVISIONED", throughput=(5, 5)),
    "provisioned-by-default": table(billing=None, throughput=(1, 1)),
    "provisioned-without-capacity": table(billing="PROVISIONED"),
    "provisioned-zero-read": table(billing="PROVISIONED", throughput=(0, 5)),
    "provisioned-zero-write": table(billing="PROVISIONED", throughput=(5, 0)),
    "on-demand-with-capacity": table(throughput=(5, 5)),
    "name-too-short": dict(table(), TableName="ab"),
    "name-3-chars": dict(table(), TableName="abc"),
    "name-255-chars": dict(table(), TableName="x" * 255),
    "name-256-chars": dict(table(), TableName="x" * 256),
    "name-with-space": dict(table(), TableName="my table"),
    "name-with-n-tilde": dict(table(), TableName="tabla-año"),
    "name-all-allowed-chars": dict(table(), TableName="A-z_0.9"),
    "key-type-bool": table(attrs=(("pk", "BOOL"), ("sk", "S"))),
    "key-type-ss": table(attrs=(("pk", "S"), ("sk", "SS"))),
    "sort-key-same-as-partition-key": table(attrs=(("pk", "S"),), range_key="pk"),
    "unused-definition": table(attrs=(("pk", "S"), ("sk", "S"), ("extra", "S"))),
    "undefined-key": table(attrs=(("pk", "S"),)),
    "key-name-255-bytes": table(attrs=(("k" * 255, "S"), ("sk", "S")), hash_key="k" * 255),
    "key-name-256-bytes": table(attrs=(("k" * 256, "S"), ("sk", "S")), hash_key="k" * 256),
    "gsi-all": table(attrs=GSI_ATTRS, gsis=[index("gsi1", "gpk", "gsk")]),
    "gsi-hash-only-keys-only": table(attrs=GSI_ATTRS[:3],
                                     gsis=[index("gsi1", "gpk", projection="KEYS_ONLY")]),
    "gsi-on-table-sort-key": table(gsis=[index("by-sk", "sk", "pk")]),
    "gsi-include": table(attrs=GSI_ATTRS, gsis=[index("gsi1", "gpk", "gsk", "INCLUDE",
                                                      ["total", "status"])]),
    "gsi-include-without-attributes": table(attrs=GSI_ATTRS,
                                            gsis=[index("gsi1", "gpk", "gsk", "INCLUDE")]),
    "gsi-all-with-attributes": table(attrs=GSI_ATTRS,
                                     gsis=[index("gsi1", "gpk", "gsk", "ALL", ["total"])]),
    "gsi-keys-only-with-attributes": table(attrs=GSI_ATTRS,
                                           gsis=[index("gsi1", "gpk", "gsk", "KEYS_ONLY",
                                                       ["total"])]),
    "gsi-include-table-key": table(attrs=GSI_ATTRS, gsis=[index("gsi1", "gpk", "gsk",
                                                                "INCLUDE", ["sk"])]),
    "gsi-include-own-key": table(attrs=GSI_ATTRS, gsis=[index("gsi1", "gpk", "gsk",
                                                              "INCLUDE", ["gsk"])]),
    "gsi-include-duplicate": table(attrs=GSI_ATTRS, gsis=[index("gsi1", "gpk", "gsk",
                                                                "INCLUDE", ["a", "a"])]),
    "gsi-include-21-attributes": table(attrs=GSI_ATTRS,
                                       gsis=[index("gsi1", "gpk", "gsk", "INCLUDE",
                                                   TWENTY + ["a20"])]),
    "gsi-name-too-short": table(attrs=GSI_ATTRS, gsis=[index("g1", "gpk", "gsk")]),
    "gsi-same-hash-and-range": table(attrs=GSI_ATTRS, gsis=[index("gsi1", "gpk", "gpk")]),
    "gsi-duplicate-names": table(attrs=GSI_ATTRS, gsis=[index("gsi1", "gpk", "gsk"),
                                                        index("gsi1", "gpk")]),
    "gsi-and-lsi-same-name": table(attrs=GSI_ATTRS + (("created", "S"),),
                                   gsis=[index("idx1", "gpk")],
                                   lsis=[index("idx1", "pk", "created")]),
    "20-gsis": table(attrs=GSI_ATTRS[:3], gsis=many_gsis(20)),
    "21-gsis": table(attrs=GSI_ATTRS[:3], gsis=many_gsis(21)),
    "100-projected-attributes": table(attrs=GSI_ATTRS[:3], gsis=many_gsis(5, TWENTY)),
    "120-projected-attributes": table(attrs=GSI_ATTRS[:3], gsis=many_gsis(6, TWENTY)),
    "gsi-provisioned": table(attrs=GSI_ATTRS, billing="PROVISIONED", throughput=(2, 2),
                             gsis=[index("gsi1", "gpk", "gsk", throughput=(3, 4))]),
    "gsi-provisioned-without-capacity": table(attrs=GSI_ATTRS, billing="PROVISIONED",
                                              throughput=(2, 2),
                                              gsis=[index("gsi1", "gpk", "gsk")]),
    "gsi-on-demand-with-capacity": table(attrs=GSI_ATTRS,
                                         gsis=[index("gsi1", "gpk", "gsk", throughput=(3, 4))]),
    "lsi": table(attrs=LSI_ATTRS, lsis=[index("by-created", "pk", "created")]),
    "lsi-include": table(attrs=LSI_ATTRS, lsis=[index("by-created", "pk", "created",
                                                      "INCLUDE", ["total"])]),
    "lsi-on-hash-only-table": table(attrs=(("pk", "S"), ("created", "S")), range_key=None,
                                    lsis=[index("by-created", "pk", "created")]),
    "lsi-other-hash-key": table(attrs=LSI_ATTRS + (("other", "S"),),
                                lsis=[index("by-created", "other", "created")]),
    "lsi-same-range-key-as-table": table(attrs=LSI_ATTRS[:2],
                                         lsis=[index("by-sk", "pk", "sk")]),
    "lsi-without-range-key": table(attrs=LSI_ATTRS[:2], lsis=[index("by-pk", "pk")]),
    "lsi-with-capacity": table(attrs=LSI_ATTRS, billing="PROVISIONED", throughput=(1, 1),
                               lsis=[index("by-created", "pk", "created", throughput=(1, 1))]),
    "5-lsis": table(attrs=LSI_ATTRS, lsis=many_lsis(5)),
    "6-lsis": table(attrs=LSI_ATTRS, lsis=many_lsis(6)),
}

# The designs whose TableName is the point of the test keep it (made unique where valid).
KEEP_NAME = {"name-too-short", "name-256-chars", "name-with-space", "name-with-n-tilde",
             "name-255-chars"}


def run_validator(args, payload):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(payload, f)
        path = f.name
    try:
        done = subprocess.run([VALIDATOR] + args + [path], capture_output=True, text=True,
                              timeout=60)
    finally:
        os.unlink(path)
    if done.returncode != 0:
        raise AssertionError("validator failed: %s" % done.stderr)
    return json.loads(done.stdout)


def matches(design, describe):
    with tempfile.TemporaryDirectory() as tmp:
        a = os.path.join(tmp, "design.json")
        b = os.path.join(tmp, "describe.json")
        with open(a, "w") as f:
            json.dump(design, f)
        with open(b, "w") as f:
            json.dump(describe, f)
        done = subprocess.run([VALIDATOR, "--matches", a, b], capture_output=True, text=True,
                              timeout=60)
    return done.returncode, done.stderr.strip()


def call(operation, body):
    """(HTTP status, parsed response) of one DynamoDB call, body sent exactly as given."""
    data = json.dumps(body).encode()
    req = AWSRequest(method="POST", url=ENDPOINT.rstrip("/") + "/", data=data,
                     headers={"Content-Type": "application/x-amz-json-1.0",
                              "X-Amz-Target": "DynamoDB_20120810." + operation})
    SigV4Auth(Credentials(os.environ.get("AWS_ACCESS_KEY_ID", "fakeMyKeyId"),
                          os.environ.get("AWS_SECRET_ACCESS_KEY", "fakeSecretAccessKey")),
              "dynamodb", os.environ.get("AWS_REGION", "us-east-1")).add_auth(req)
    http = urllib.request.Request(req.url, data=data, method="POST",
                                  headers=dict(req.headers.items()))
    try:
        with urllib.request.urlopen(http, timeout=60) as resp:
            return resp.status, json.loads(resp.read() or b"{}")
    except urllib.error.HTTPError as e:
        text = e.read()
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, {"__type": "HTTP%d" % e.code, "message": text.decode(errors="replace")}


@unittest.skipUnless(ENDPOINT and botocore and VALIDATOR and os.path.exists(VALIDATOR or ""),
                     "needs DYNO_TEST_ENDPOINT (run through tests/fixtures/with-ddb-local.sh), "
                     "botocore and the test-table-design program")
class TableDesignTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.created = []

    @classmethod
    def tearDownClass(cls):
        for name in cls.created:
            call("DeleteTable", {"TableName": name})

    def send(self, operation, request):
        """(accepted, error text) from DynamoDB Local.

        A 5xx (DynamoDB Local's InternalFailure under load) is the server's
        fault, not a verdict on the request: it is retried a few times, and a
        CreateTable whose retry finds the table already made by the failed
        attempt counts as accepted."""
        status, body = call(operation, request)
        for attempt in range(5):
            if status < 500:
                break
            time.sleep(0.2 * (attempt + 1))
            status, body = call(operation, request)
            kind = (body.get("__type") or "").rsplit("#", 1)[-1]
            if (status == 400 and kind == "ResourceInUseException" and operation == "CreateTable"):
                status = 200
        if status != 200:
            kind = (body.get("__type") or "").rsplit("#", 1)[-1]
            return False, "%s: %s" % (kind, body.get("message") or body.get("Message"))
        if operation == "CreateTable":
            self.created.append(request["TableName"])
        return True, None

    def describe(self, table_name):
        # DynamoDB Local sometimes answers a DescribeTable made while it backfills a new GSI
        # with a 500 InternalFailure (seen in CI): retried, as in send().
        for attempt in range(5):
            status, body = call("DescribeTable", {"TableName": table_name})
            if status < 500:
                break
            time.sleep(0.2 * (attempt + 1))
        self.assertEqual(status, 200, body)
        return body["Table"]

    def wait_active(self, table_name):
        """Until the table and all its GSIs are ACTIVE (DynamoDB Local: a moment)."""
        for _ in range(300):
            t = self.describe(table_name)
            if t.get("TableStatus") == "ACTIVE" and all(
                    g.get("IndexStatus") == "ACTIVE" for g in t.get("GlobalSecondaryIndexes", [])):
                return t
            time.sleep(0.1)
        self.fail("%s did not become ACTIVE" % table_name)

    def prepared(self, name):
        request = copy.deepcopy(DESIGNS[name])
        if name not in KEEP_NAME:
            request["TableName"] = unique(name)
        elif name == "name-255-chars":
            request["TableName"] = (unique("") + "x" * 255)[:255]
        return request

    def test_create_table_verdicts(self):
        names = sorted(DESIGNS)
        requests = [self.prepared(n) for n in names]
        verdicts = run_validator(["--validate"], requests)
        self.assertEqual(len(verdicts), len(names))
        disagreements = []

        for name, request, ours in zip(names, requests, verdicts):
            accepted, server_error = self.send("CreateTable", request)
            ours_valid = ours["valid"]
            our_text = ours.get("error") or "; ".join(
                "%s: %s" % (p["field"], p["message"]) for p in ours.get("problems", []))
            line = "%s: DynamoDB Local %s%s, we %s%s" % (
                name, "accepts" if accepted else "rejects",
                "" if accepted else " (%s)" % server_error,
                "accept" if ours_valid else "reject",
                "" if ours_valid else " (%s)" % our_text)
            print(line, file=sys.stderr)
            if name in KNOWN_DEPARTURES:
                self.assertNotEqual(accepted, ours_valid,
                                    "%s is allow-listed but now agrees: remove it" % name)
                continue
            if accepted != ours_valid:
                disagreements.append(line)
                continue

            if accepted:
                with self.subTest(design=name):
                    describe = self.wait_active(request["TableName"])
                    rc, why = matches(request, describe)
                    self.assertEqual(rc, 0, "%s: DescribeTable differs: %s" % (name, why))

                    # our own request for the same design is accepted as well
                    ours_request = ours["request"]
                    ours_request["TableName"] = unique("r-" + name)[:255]
                    ok, err = self.send("CreateTable", ours_request)
                    self.assertTrue(ok, "%s: our CreateTable was rejected: %s" % (name, err))

        self.assertEqual(disagreements, [], "\n".join(disagreements))

    def test_add_index_verdicts(self):
        on_demand = unique("base-on-demand")
        provisioned = unique("base-provisioned")
        base = table(attrs=(("pk", "S"), ("sk", "S"), ("gpk", "N")),
                     gsis=[index("gsi1", "gpk", projection="INCLUDE", non_key=["a", "b"])])
        for name, billing, tp in ((on_demand, "PAY_PER_REQUEST", None),
                                  (provisioned, "PROVISIONED", (5, 5))):
            req = copy.deepcopy(base)
            req["TableName"] = name
            req["BillingMode"] = billing
            if tp:
                req["ProvisionedThroughput"] = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
                req["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"] = \
                    {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
            ok, err = self.send("CreateTable", req)
            self.assertTrue(ok, err)
            self.wait_active(name)

        cases = [
            # (name, table, AttributeDefinitions, GSI)
            ("new-gsi", on_demand, defs(("status", "S")), index("by-status", "status", "sk")),
            ("existing-name", on_demand, defs(("status", "S")), index("gsi1", "status")),
            ("type-clash", on_demand, defs(("gpk", "S")), index("by-gpk", "gpk")),
            ("same-type-reuse", on_demand, defs(("gpk", "N"), ("sk", "S")),
             index("by-gpk-sk", "gpk", "sk", "KEYS_ONLY")),
            ("include-table-key", on_demand, defs(("status", "S")),
             index("by-status2", "status", projection="INCLUDE", non_key=["sk"])),
            ("on-demand-with-capacity", on_demand, defs(("status", "S")),
             index("by-status3", "status", throughput=(1, 1))),
            ("provisioned-without-capacity", provisioned, defs(("status", "S")),
             index("by-status", "status")),
            ("provisioned-with-capacity", provisioned, defs(("status", "S")),
             index("by-status", "status", throughput=(2, 3))),
        ]
        disagreements = []
        for name, table_name, attr_defs, gsi in cases:
            describe = self.wait_active(table_name)
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                json.dump(describe, f)
                describe_path = f.name
            try:
                ours = run_validator(["--validate-index", describe_path],
                                     [{"AttributeDefinitions": attr_defs, "Create": gsi}])[0]
            finally:
                os.unlink(describe_path)
            request = {"TableName": table_name, "AttributeDefinitions": attr_defs,
                       "GlobalSecondaryIndexUpdates": [{"Create": gsi}]}
            accepted, err = self.send("UpdateTable", request)
            line = "add-index %s: DynamoDB Local %s%s, we %s %s" % (
                name, "accepts" if accepted else "rejects", "" if accepted else " (%s)" % err,
                "accept" if ours["valid"] else "reject", ours.get("problems") or "")
            print(line, file=sys.stderr)
            key = "add-index:" + name
            if key in KNOWN_DEPARTURES:
                self.assertNotEqual(accepted, ours["valid"], "%s now agrees" % key)
                continue
            if accepted != ours["valid"]:
                disagreements.append(line)
                continue
            if accepted:
                # our UpdateTable for the same index is what we would have sent
                self.assertEqual(ours["request"]["GlobalSecondaryIndexUpdates"][0]["Create"]
                                 ["IndexName"], gsi["IndexName"])
                after = self.wait_active(table_name)
                names = [g["IndexName"] for g in after.get("GlobalSecondaryIndexes", [])]
                self.assertIn(gsi["IndexName"], names)
        self.assertEqual(disagreements, [], "\n".join(disagreements))


if __name__ == "__main__":
    unittest.main(verbosity=2)
