#!/usr/bin/python3
# test_samples.py: the sample tables load into DynamoDB Local, come back unchanged, and
# behave as data/samples/README.md says.
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Run through tests/fixtures/with-ddb-local.sh (meson does).  TAP output."""

import json
import os
import sys
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "fixtures"))
import ddb_local  # noqa: E402

results = []


def check(name):
    def wrap(fn):
        results.append((name, fn))
        return fn
    return wrap


def canon(items):
    return sorted(json.dumps(i, sort_keys=True) for i in items)


def query(c, table, kce, values, **kw):
    out, start = [], None
    while True:
        args = dict(kw, TableName=table, KeyConditionExpression=kce,
                    ExpressionAttributeValues=values)
        if start:
            args["ExclusiveStartKey"] = start
        page = c.query(**args)
        out.extend(page["Items"])
        start = page.get("LastEvaluatedKey")
        if not start:
            return out


def S(s):
    return {"S": s}


def main():
    c = ddb_local.client()
    tables = ddb_local.create_sample_tables(ddb_local.unique_prefix("samples"), c=c)

    @check("every sample comes back from a Scan exactly as in its items.jsonl")
    def _():
        for name, table in tables.items():
            got = ddb_local.scan_all(table, c)
            want = ddb_local.sample_items(name)
            assert canon(got) == canon(want), "%s: scan differs from items.jsonl" % name

    @check("file-tree: begins_with(SK, 'root/photos/') is the folder and its descendants")
    def _():
        items = query(c, tables["file-tree"], "PK = :pk AND begins_with(SK, :p)",
                      {":pk": S("DRIVE#a91"), ":p": S("root/photos/")})
        sks = [i["SK"]["S"] for i in items]
        assert sks == ["root/photos/", "root/photos/2025/", "root/photos/2025/snow.jpg",
                       "root/photos/2026/", "root/photos/2026/beach.jpg",
                       "root/photos/2026/sunset.jpg"], sks
        wider = query(c, tables["file-tree"], "PK = :pk AND begins_with(SK, :p)",
                      {":pk": S("DRIVE#a91"), ":p": S("root/photos")})
        extra = sorted(set(i["SK"]["S"] for i in wider) - set(sks))
        assert extra == ["root/photos-old/", "root/photos-old/scan-001.png",
                         "root/photos.txt"], extra

    @check("audit-log: one day with BETWEEN, newest first")
    def _():
        items = query(c, tables["audit-log"], "PK = :pk AND SK BETWEEN :lo AND :hi",
                      {":pk": S("ACTOR#u_8814"), ":lo": S("EVT#2026-06-23T00:00:00Z"),
                       ":hi": S("EVT#2026-06-23T23:59:59Z")}, ScanIndexForward=False)
        sks = [i["SK"]["S"] for i in items]
        assert len(sks) == 6, sks
        assert sks[0] == "EVT#2026-06-23T23:59:59Z" and sks[-1] == "EVT#2026-06-23T00:00:00Z", sks
        assert sks == sorted(sks, reverse=True), sks

    @check("sensors: ten readings of DEV#a1b2 cost 2.5 RCU eventually consistent, 5 strongly")
    def _():
        for consistent, units in ((False, 2.5), (True, 5.0)):
            page = c.query(TableName=tables["sensors"], KeyConditionExpression="deviceId = :d",
                           ExpressionAttributeValues={":d": S("DEV#a1b2")},
                           ConsistentRead=consistent, ReturnConsumedCapacity="TOTAL")
            assert page["Count"] == 10, page["Count"]
            got = page["ConsumedCapacity"]["CapacityUnits"]
            assert got == units, "ConsistentRead=%s: %s RCU, expected %s" % (consistent, got,
                                                                            units)

    @check("tenant: the USER prefix trap and the sparse overloaded GSI")
    def _():
        loose = query(c, tables["tenant"], "pk = :pk AND begins_with(sk, :p)",
                      {":pk": S("TENANT#acme"), ":p": S("USER")})
        strict = query(c, tables["tenant"], "pk = :pk AND begins_with(sk, :p)",
                       {":pk": S("TENANT#acme"), ":p": S("USER#")})
        kinds = sorted(set(i["entityType"]["S"] for i in loose))
        assert kinds == ["User", "UserGroup"], kinds
        assert all(i["entityType"]["S"] == "User" for i in strict) and len(strict) == 3, strict
        open_ = query(c, tables["tenant"], "gsi1pk = :s", {":s": S("STATUS#open")},
                      IndexName="gsi1")
        dues = [i["gsi1sk"]["S"] for i in open_]
        assert dues == sorted(dues) and len(dues) == 3, dues
        assert {i["pk"]["S"] for i in open_} == {"TENANT#acme", "TENANT#globex"}, open_
        inv = c.get_item(TableName=tables["tenant"],
                         Key={"pk": S("TENANT#acme"), "sk": S("INVOICE#2026-0014")})["Item"]
        assert inv["paymentRef"] == {"N": "12345678901234567890123456789012345678"}, inv

    failed = 0
    try:
        for n, (name, fn) in enumerate(results, 1):
            try:
                fn()
                print("ok %d - %s" % (n, name))
            except Exception:
                failed += 1
                print("not ok %d - %s" % (n, name))
                for line in traceback.format_exc().splitlines():
                    print("# " + line)
    finally:
        ddb_local.delete_tables(tables.values(), c)
    print("1..%d" % len(results))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
