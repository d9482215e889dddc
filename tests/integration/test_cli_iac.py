#!/usr/bin/python3
# test_cli_iac.py: `dynotable-cli iac` proven by the tools that read each format
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs through tests/fixtures/with-ddb-local.sh.  A table is made with everything DynamoDB
# Local keeps (composite key, a provisioned GSI with INCLUDE, an LSI, a stream, TTL, deletion
# protection) and written out in each format; then:
# - CloudFormation: the YAML and the JSON are the same template, and its Properties, sent as a
#   CreateTable (+ UpdateTimeToLive), make a table whose DescribeTable is the original's;
# - CDK: the TypeScript compiles with tsc and, synthesized with aws-cdk-lib, gives the same
#   Properties;
# - Terraform: @cdktf/hcl2json parses the HCL, and what it says maps to the same table.
# (DynamoDB Local has no tags and no point-in-time recovery: those are checked by test-iac.)

import json
import os
import shutil
import subprocess
import tempfile
import unittest
import urllib.error
import urllib.request
import uuid

import yaml

CLI = os.environ.get("DYNOTABLE_CLI")
ENDPOINT = os.environ.get("DYNO_TEST_ENDPOINT")
SOURCE_ROOT = os.environ.get("DYNO_SOURCE_ROOT", "")
NODE_MODULES = os.path.join(SOURCE_ROOT, "tests", "node_modules")
AWS_ENV = dict(os.environ, AWS_ACCESS_KEY_ID="test", AWS_SECRET_ACCESS_KEY="test",
               AWS_DEFAULT_REGION="us-east-1", AWS_PAGER="")


def call(operation, payload):
    request = urllib.request.Request(
        ENDPOINT + "/", data=json.dumps(payload).encode(), method="POST",
        headers={"Content-Type": "application/x-amz-json-1.0",
                 "X-Amz-Target": "DynamoDB_20120810." + operation,
                 "Authorization": "AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/"
                                  "dynamodb/aws4_request, SignedHeaders=host, Signature=00"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def cli(*args):
    done = subprocess.run([CLI, "--endpoint-url", ENDPOINT] + list(args), capture_output=True,
                          text=True, timeout=120, env=AWS_ENV)
    return done.returncode, done.stdout, done.stderr


def shape(table_name):
    """What a table is made with, as DescribeTable and DescribeTimeToLive say it."""
    t = call("DescribeTable", {"TableName": table_name})["Table"]
    ttl = call("DescribeTimeToLive", {"TableName": table_name})["TimeToLiveDescription"]

    def index(i, provisioned):
        out = {"IndexName": i["IndexName"], "KeySchema": i["KeySchema"],
               "Projection": dict(i["Projection"])}
        if "NonKeyAttributes" in out["Projection"]:
            out["Projection"]["NonKeyAttributes"] = sorted(out["Projection"]["NonKeyAttributes"])
        if provisioned and "ProvisionedThroughput" in i:
            out["ProvisionedThroughput"] = {
                k: i["ProvisionedThroughput"][k] for k in ("ReadCapacityUnits",
                                                           "WriteCapacityUnits")}
        return out

    return {
        "KeySchema": t["KeySchema"],
        "AttributeDefinitions": sorted(t["AttributeDefinitions"],
                                       key=lambda a: a["AttributeName"]),
        "ProvisionedThroughput": {k: t["ProvisionedThroughput"][k]
                                  for k in ("ReadCapacityUnits", "WriteCapacityUnits")},
        "GlobalSecondaryIndexes": sorted((index(i, True)
                                          for i in t.get("GlobalSecondaryIndexes", [])),
                                         key=lambda i: i["IndexName"]),
        "LocalSecondaryIndexes": sorted((index(i, False)
                                         for i in t.get("LocalSecondaryIndexes", [])),
                                        key=lambda i: i["IndexName"]),
        "Stream": t.get("StreamSpecification", {}).get("StreamViewType"),
        "DeletionProtectionEnabled": t.get("DeletionProtectionEnabled", False),
        "TTL": ttl.get("AttributeName") if ttl.get("TimeToLiveStatus") == "ENABLED" else None,
    }


def table_properties(template):
    tables = [r for r in template["Resources"].values() if r["Type"] == "AWS::DynamoDB::Table"]
    assert len(tables) == 1, template
    return tables[0]["Properties"]


def normalized(properties):
    p = json.loads(json.dumps(properties))
    # PROVISIONED is CloudFormation's default: the CDK leaves it out, we say it
    if p.get("BillingMode") == "PROVISIONED":
        del p["BillingMode"]
    p["AttributeDefinitions"].sort(key=lambda a: a["AttributeName"])
    for name in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
        p.get(name, []).sort(key=lambda i: i["IndexName"])
        for i in p.get(name, []):
            if "NonKeyAttributes" in i["Projection"]:
                i["Projection"]["NonKeyAttributes"].sort()
    return p


@unittest.skipUnless(CLI and ENDPOINT, "needs DYNOTABLE_CLI and DYNO_TEST_ENDPOINT "
                                       "(run through tests/fixtures/with-ddb-local.sh)")
class IacTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.table = "iac-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8])
        call("CreateTable", {
            "TableName": cls.table,
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "N"},
                                     {"AttributeName": "g", "AttributeType": "B"},
                                     {"AttributeName": "when", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 3},
            "GlobalSecondaryIndexes": [{
                "IndexName": "byG",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                              {"AttributeName": "when", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", "b"]},
                "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 1}}],
            "LocalSecondaryIndexes": [{
                "IndexName": "byWhen",
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "when", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"}}],
            "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
            "DeletionProtectionEnabled": True,
        })
        call("UpdateTimeToLive", {"TableName": cls.table, "TimeToLiveSpecification": {
            "Enabled": True, "AttributeName": "expiresAt"}})
        cls.shape = shape(cls.table)
        cls.work = tempfile.mkdtemp(prefix="dyno-iac-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def generate(self, fmt, suffix):
        path = os.path.join(self.work, "out-%s%s" % (fmt, suffix))
        status, out, err = cli("iac", self.table, "--format", fmt, "-o", path)
        self.assertEqual(status, 0, err)
        # what DynamoDB Local cannot say is said, not left out silently
        self.assertIn("left out: tags: UnknownOperationException", err)
        with open(path) as f:
            return f.read()

    def cloudformation(self):
        text = self.generate("cloudformation", ".yaml")
        self.assertIn("# %s: not read, left out: tags" % self.table, text)
        template = yaml.safe_load(text)
        as_json = json.loads(self.generate("cloudformation-json", ".json"))
        as_json.pop("Description")
        template.pop("Description")
        self.assertEqual(template, as_json)
        return template

    def test_cloudformation_makes_the_same_table(self):
        template = self.cloudformation()
        resource = list(template["Resources"].values())[0]
        self.assertEqual(resource["Type"], "AWS::DynamoDB::Table")
        self.assertEqual(resource["DeletionPolicy"], "Retain")
        props = dict(resource["Properties"])
        # only the attributes the keys need: 4 here
        self.assertEqual(len(props["AttributeDefinitions"]), 4)

        # what CreateTable takes directly, and what takes calls of its own
        copy = self.table + "-copy"
        props["TableName"] = copy
        ttl = props.pop("TimeToLiveSpecification")
        props["StreamSpecification"] = dict(props["StreamSpecification"], StreamEnabled=True)
        self.assertEqual(props.pop("BillingMode"), "PROVISIONED")
        call("CreateTable", props)
        call("UpdateTimeToLive", {"TableName": copy, "TimeToLiveSpecification": ttl})
        self.assertEqual(shape(copy), self.shape)

    def test_cdk_synthesizes_the_same_properties(self):
        expected = normalized(table_properties(self.cloudformation()))
        source = self.generate("cdk", ".ts")
        project = os.path.join(self.work, "cdk")
        os.makedirs(project, exist_ok=True)
        os.symlink(NODE_MODULES, os.path.join(project, "node_modules"))
        with open(os.path.join(project, "main.ts"), "w") as f:
            f.write(source)
        tsc = subprocess.run(["node", os.path.join(NODE_MODULES, "typescript", "bin", "tsc"),
                              "--strict", "--module", "commonjs", "--target", "es2020",
                              "--skipLibCheck", "--outDir", "out", "main.ts"],
                             cwd=project, capture_output=True, text=True, timeout=300)
        self.assertEqual(tsc.returncode, 0, tsc.stdout + tsc.stderr)
        outdir = os.path.join(project, "cdk.out")
        synth = subprocess.run(["node", os.path.join("out", "main.js")], cwd=project,
                               env=dict(os.environ, CDK_OUTDIR=outdir),
                               capture_output=True, text=True, timeout=300)
        self.assertEqual(synth.returncode, 0, synth.stderr)
        with open(os.path.join(outdir, "DynamoDbTables.template.json")) as f:
            synthesized = json.load(f)
        self.maxDiff = None
        self.assertEqual(normalized(table_properties(synthesized)), expected)

    def test_terraform_maps_to_the_same_table(self):
        text = self.generate("terraform", ".tf")
        parse = subprocess.run(
            ["node", "-e", "require('@cdktf/hcl2json').parse('main.tf', "
             "require('fs').readFileSync(0, 'utf8')).then(j => console.log(JSON.stringify(j)))"],
            input=text, cwd=os.path.dirname(NODE_MODULES), capture_output=True, text=True,
            timeout=120)
        self.assertEqual(parse.returncode, 0, parse.stderr)
        resources = json.loads(parse.stdout)["resource"]["aws_dynamodb_table"]
        self.assertEqual(len(resources), 1)
        (r,) = list(resources.values())[0]

        def key_schema(hash_key, range_key):
            return ([{"AttributeName": hash_key, "KeyType": "HASH"}] +
                    ([{"AttributeName": range_key, "KeyType": "RANGE"}] if range_key else []))

        def projection(i):
            p = {"ProjectionType": i["projection_type"]}
            if "non_key_attributes" in i:
                p["NonKeyAttributes"] = sorted(i["non_key_attributes"])
            return p

        self.assertEqual(r["name"], self.table)
        self.assertEqual(r["billing_mode"], "PROVISIONED")
        mapped = {
            "KeySchema": key_schema(r["hash_key"], r.get("range_key")),
            "AttributeDefinitions": sorted(({"AttributeName": a["name"],
                                             "AttributeType": a["type"]}
                                            for a in r["attribute"]),
                                           key=lambda a: a["AttributeName"]),
            "ProvisionedThroughput": {"ReadCapacityUnits": r["read_capacity"],
                                      "WriteCapacityUnits": r["write_capacity"]},
            "GlobalSecondaryIndexes": sorted(({
                "IndexName": i["name"], "KeySchema": key_schema(i["hash_key"],
                                                                i.get("range_key")),
                "Projection": projection(i),
                "ProvisionedThroughput": {"ReadCapacityUnits": i["read_capacity"],
                                          "WriteCapacityUnits": i["write_capacity"]}}
                for i in r.get("global_secondary_index", [])), key=lambda i: i["IndexName"]),
            "LocalSecondaryIndexes": sorted(({
                "IndexName": i["name"], "KeySchema": key_schema(r["hash_key"], i["range_key"]),
                "Projection": projection(i)}
                for i in r.get("local_secondary_index", [])), key=lambda i: i["IndexName"]),
            "Stream": r["stream_view_type"] if r.get("stream_enabled") else None,
            "DeletionProtectionEnabled": r.get("deletion_protection_enabled", False),
            "TTL": r["ttl"][0]["attribute_name"] if r.get("ttl") else None,
        }
        self.assertEqual(mapped, self.shape)

    def test_usage(self):
        for args, says in [((self.table,), "--format: required"),
                           ((self.table, "--format", "pulumi"), "“pulumi” is not one of"),
                           (("--format", "cdk"), "missing TABLE")]:
            status, out, err = cli("iac", *args)
            self.assertEqual(status, 2, err)
            self.assertIn(says, err)
        status, out, err = cli("iac", "no-such-table", "--format", "cdk")
        self.assertEqual(status, 1, err)
        self.assertIn("ResourceNotFoundException", err)
        self.assertEqual(out, "")


if __name__ == "__main__":
    unittest.main(verbosity=2)
