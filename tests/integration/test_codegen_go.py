#!/usr/bin/env python3
# test_codegen_go.py: the Go SDK v2 programs DynoTable writes, built and run against
# DynamoDB Local, must return what the AWS CLI returns for the same request.
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Needs Debian's golang-go and golang-github-aws-aws-sdk-go-v2-dev (GOPATH mode, no network)
and a server (tests/fixtures/with-ddb-local.sh sets DYNO_TEST_ENDPOINT); skips (77) without
them.  Slow: the first build of the SDK takes a minute or two.

For each request (a paginated Query with a filter, a Scan in small pages, Select=COUNT,
GetItem, PutItem of every value type, UpdateItem, DeleteItem) the program from
`dynotable-cli expr import - --emit go-v2 --program --endpoint-url …` is built and run; the
items it prints (one DynamoDB JSON item per line) must equal the AWS CLI's answer to the
request JSON from `--emit request-json` (the CLI follows the pages itself), and writes must
leave the table as the AWS CLI then reads it.
"""

import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ.get("DYNO_SOURCE_ROOT",
                                               os.path.join(os.path.dirname(__file__),
                                                            os.pardir, os.pardir)),
                                "tests", "fixtures"))

GO_SDK = "/usr/share/gocode/src/github.com/aws/aws-sdk-go-v2/service/dynamodb"
AWS = "/usr/bin/aws"
CLI = os.environ.get("DYNOTABLE_CLI")

TRICKY = "a\"b\\c $x ${y} #{z} %s {0} \n\t end é ∑ 😀 \u2028 \x01 ??= '"

ALL_TYPES = {
    "s": {"S": TRICKY},
    "n": {"N": "12345678901234567890123456789012345678"},
    "small": {"N": "-0.000000000000000000000000000000000001"},
    "b": {"B": base64.b64encode(bytes(range(256))).decode()},
    "t": {"BOOL": True},
    "f": {"BOOL": False},
    "nul": {"NULL": True},
    "ss": {"SS": ["x", "y\"z", "$w"]},
    "ns": {"NS": ["1", "-2.5", "99999999999999999999999999999999999999"]},
    "bs": {"BS": ["AA==", "/w==", "AAEC"]},
    "m": {"M": {"inner": {"S": "v"}, "deeper": {"M": {"k": {"N": "1"}}}, "empty": {"M": {}}}},
    "l": {"L": [{"S": "one"}, {"N": "2"}, {"L": []}, {"M": {"a": {"NULL": True}}}]},
}

_results = {"n": 0, "failed": 0}


def check(name, ok, detail=""):
    _results["n"] += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", _results["n"], name))
    if not ok:
        _results["failed"] += 1
        for line in str(detail).splitlines()[:40]:
            print("#   " + line)
    sys.stdout.flush()
    return ok


def run(argv, stdin=None, env=None, cwd=None, timeout=900):
    return subprocess.run(argv, input=stdin, env=env, cwd=cwd, timeout=timeout,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def emit(op, request, target, endpoint=None):
    argv = [CLI, "expr", "import", "-", "--op", op, "--emit", target]
    if endpoint:
        argv += ["--program", "--endpoint-url", endpoint, "--region", "us-east-1"]
    p = run(argv, stdin=json.dumps(request).encode())
    if p.returncode != 0:
        raise RuntimeError(p.stderr.decode(errors="replace"))
    return p.stdout.decode()


def aws(endpoint, op, request):
    """The AWS CLI's answer (all pages) to a request JSON."""
    command = {"query": "query", "scan": "scan", "get": "get-item", "put": "put-item",
               "update": "update-item", "delete": "delete-item"}[op]
    extra = []
    if op in ("query", "scan") and "Limit" in request:
        # The CLI takes an input Limit as the total to return; --page-size is the API's Limit
        # with every page followed, as the programs do.
        request = dict(request)
        extra = ["--page-size", str(request.pop("Limit"))]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(request, f)
    try:
        p = run([AWS, "dynamodb", command, "--cli-input-json", "file://" + f.name,
                 "--endpoint-url", endpoint, "--output", "json"] + extra)
    finally:
        os.unlink(f.name)
    if p.returncode != 0:
        raise RuntimeError("aws dynamodb %s: %s" % (command, p.stderr.decode(errors="replace")))
    return json.loads(p.stdout or b"{}")


def normalize(value):
    """Set members in a stable order: neither side promises one."""
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)) in ("SS", "NS", "BS"):
            (k, v), = value.items()
            return {k: sorted(v)}
        return {k: normalize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize(v) for v in value]
    return value


def main():
    import ddb_local

    if not CLI or not os.path.exists(CLI):
        print("1..0 # SKIP DYNOTABLE_CLI is not built")
        return 77
    for tool, why in ((shutil.which("go"), "golang-go is not installed"),
                      (os.path.isdir(GO_SDK) or None,
                       "golang-github-aws-aws-sdk-go-v2-dev is not installed"),
                      (os.path.exists(AWS) or None, "awscli is not installed")):
        if not tool:
            print("1..0 # SKIP " + why)
            return 77
    try:
        endpoint = ddb_local.endpoint()
    except ddb_local.NoEndpoint as e:
        print("1..0 # SKIP %s" % e)
        return 77

    client = ddb_local.client()
    table = ddb_local.unique_table_name("go", "codegen")
    client.create_table(TableName=table,
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "sk", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                   {"AttributeName": "sk", "KeyType": "RANGE"}],
                        BillingMode="PAY_PER_REQUEST")
    workdir = tempfile.mkdtemp(prefix="dyno-codegen-go-")
    try:
        return run_checks(endpoint, table, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        ddb_local.delete_tables([table], client)


def seed(endpoint, table):
    items = []
    for i in range(23):
        items.append({"pk": {"S": "P#1"}, "sk": {"S": "ITEM#%03d" % i},
                      "n": {"N": str(i * 7 - 40)}, "tag": {"S": TRICKY if i % 5 == 0 else "t"}})
    for i in range(6):
        items.append({"pk": {"S": "P#2"}, "sk": {"S": "ITEM#%03d" % i}, "n": {"N": str(i)}})
    items.append(dict({"pk": {"S": "P#1"}, "sk": {"S": "ALL"}}, **ALL_TYPES))
    for item in items:
        aws(endpoint, "put", {"TableName": table, "Item": item})
    return items


def build(workdir, programs):
    """Builds every program (name -> Go source) in one go; returns (process, bin dir)."""
    gopath = os.path.join(workdir, "gopath")
    bindir = os.path.join(workdir, "bin")
    os.makedirs(bindir)
    packages = []
    for name, source in programs.items():
        pkg = os.path.join(gopath, "src", "cg", name)
        os.makedirs(pkg)
        with open(os.path.join(pkg, "main.go"), "w") as f:
            f.write(source)
        packages.append("cg/" + name)
    cache = os.environ.get("G_TEST_BUILDDIR")
    cache = os.path.join(cache, "go-build-cache") if cache else os.path.join(workdir, "cache")
    os.makedirs(cache, exist_ok=True)
    env = dict(os.environ, GO111MODULE="off", GOPATH=gopath + ":/usr/share/gocode",
               GOFLAGS="", GOCACHE=cache)
    p = run(["go", "build", "-o", bindir + "/"] + packages, env=env, cwd=gopath, timeout=1200)
    return p, bindir


def run_checks(endpoint, table, workdir):
    seed(endpoint, table)
    put_item = dict({"pk": {"S": "P#3"}, "sk": {"S": "NEW"}}, **ALL_TYPES)

    reads = {
        "query": ("query", {
            "TableName": table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "FilterExpression": "#n >= :min",
            "ExpressionAttributeNames": {"#n": "n"},
            "ExpressionAttributeValues": {":pk": {"S": "P#1"}, ":prefix": {"S": "ITEM#"},
                                          ":min": {"N": "-12"}},
            "ScanIndexForward": False,
            "Limit": 4,
        }),
        "scan": ("scan", {"TableName": table, "Limit": 5, "ConsistentRead": True}),
        "get": ("get", {"TableName": table, "Key": {"pk": {"S": "P#1"}, "sk": {"S": "ALL"}}}),
        "count": ("query", {
            "TableName": table,
            "KeyConditionExpression": "pk = :pk",
            "ExpressionAttributeValues": {":pk": {"S": "P#1"}},
            "Select": "COUNT",
            "Limit": 7,
        }),
    }
    writes = {
        "put": ("put", {"TableName": table, "Item": put_item,
                        "ConditionExpression": "attribute_not_exists(pk)"}),
        "update": ("update", {
            "TableName": table,
            "Key": {"pk": {"S": "P#2"}, "sk": {"S": "ITEM#000"}},
            "UpdateExpression": "SET #t = :t, #c = if_not_exists(#c, :zero) + :one "
                                "ADD #set :set REMOVE #n",
            "ExpressionAttributeNames": {"#t": "text", "#c": "counter", "#set": "set", "#n": "n"},
            "ExpressionAttributeValues": {":t": {"S": TRICKY}, ":zero": {"N": "0"},
                                          ":one": {"N": "1"}, ":set": {"NS": ["1", "2"]}},
            "ReturnValues": "ALL_NEW",
        }),
        "delete": ("delete", {"TableName": table,
                              "Key": {"pk": {"S": "P#2"}, "sk": {"S": "ITEM#005"}},
                              "ReturnValues": "ALL_OLD"}),
    }

    programs = {}
    for name, (op, request) in list(reads.items()) + list(writes.items()):
        programs[name] = emit(op, request, "go-v2", endpoint)
    p, bindir = build(workdir, programs)
    if not check("the generated Go programs build against the AWS SDK for Go v2",
                 p.returncode == 0, p.stderr.decode(errors="replace")):
        print("1..%d" % _results["n"])
        return 1

    def run_program(name):
        p = run([os.path.join(bindir, name)], timeout=120)
        ok = check("%s: the Go program runs" % name, p.returncode == 0,
                   p.stderr.decode(errors="replace"))
        lines = p.stdout.decode().splitlines() if ok else []
        return lines

    for name, (op, request) in reads.items():
        canonical = json.loads(emit(op, request, "request-json"))
        lines = run_program(name)
        expected = aws(endpoint, op, canonical)
        if name == "count":
            check("count: the Go program counts what the AWS CLI counts",
                  lines == ["Count: %d" % expected["Count"]],
                  "go: %r\naws: %r" % (lines, expected.get("Count")))
            continue
        got = [normalize(json.loads(line)) for line in lines]
        want = [normalize(i) for i in (expected.get("Items")
                                       or ([expected["Item"]] if "Item" in expected else []))]
        check("%s: the Go program prints the items the AWS CLI returns, in order (%d items)"
              % (name, len(want)), got == want and len(want) > 0,
              "go (%d): %r\naws (%d): %r" % (len(got), got[:2], len(want), want[:2]))
        if name == "query":
            check("query: several pages were needed (Limit 4)", len(want) > 4, len(want))

    key = {"pk": put_item["pk"], "sk": put_item["sk"]}
    before_delete = aws(endpoint, "get", {"TableName": table, "Key": writes["delete"][1]["Key"]})

    lines = run_program("put")
    stored = aws(endpoint, "get", {"TableName": table, "Key": key}).get("Item")
    check("put: the item the Go program wrote reads back exactly (every type, 38 digits, "
          "binary, escapes)", normalize(stored) == normalize(put_item),
          "stored: %r" % stored)
    p = run([os.path.join(bindir, "put")], timeout=120)
    check("put: a second run fails on its condition (ConditionalCheckFailedException)",
          p.returncode != 0 and b"ConditionalCheckFailed" in p.stderr,
          p.stderr.decode(errors="replace"))

    lines = run_program("update")
    stored = aws(endpoint, "get", {"TableName": table,
                                   "Key": writes["update"][1]["Key"]}).get("Item")
    got = [normalize(json.loads(line)) for line in lines]
    check("update: ALL_NEW as printed equals the stored item", got == [normalize(stored)],
          "go: %r\nstored: %r" % (got, stored))
    check("update: the values were written as typed",
          stored is not None and stored.get("text") == {"S": TRICKY}
          and stored.get("counter") == {"N": "1"} and "n" not in stored
          and sorted(stored.get("set", {}).get("NS", [])) == ["1", "2"], stored)

    lines = run_program("delete")
    got = [normalize(json.loads(line)) for line in lines]
    check("delete: ALL_OLD as printed equals the item before", got == [normalize(
        before_delete["Item"])], "go: %r\nbefore: %r" % (got, before_delete))
    gone = aws(endpoint, "get", {"TableName": table, "Key": writes["delete"][1]["Key"]})
    check("delete: the item is gone", "Item" not in gone, gone)

    print("1..%d" % _results["n"])
    return 1 if _results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
