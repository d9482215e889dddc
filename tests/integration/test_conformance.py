#!/usr/bin/python3
# test_conformance.py: our offline validator against DynamoDB Local, request by request
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The promise under test: "every rule DynamoDB would reject is reported before sending, with
# the same meaning as DynamoDB's message".  Tables with known schemas are created on the server
# the test runs against (DYNO_TEST_ENDPOINT, from tests/fixtures/with-ddb-local.sh).  Every
# request of CORPUS is then
#   1. sent to the server with boto3's low-level client (client-side parameter validation off,
#      so the server sees exactly the request), recording the error code and message, and
#   2. run through `dynotable-cli expr import - --op OP --schema DESCRIBE.json`, where
#      DESCRIBE.json is the server's own DescribeTable answer, recording exit status and stderr.
# The two must agree: a ValidationException means exit 2, success means exit 0, except for the
# entries of ALLOW, each with the reason.  Where DynamoDB's message names something (a
# reserved word, a placeholder, an attribute, an index, a function), our message must name it
# too.  Errors that need the stored data (ConditionalCheckFailedException) count as accepted:
# validation passed.
#
# With DYNO_CONFORMANCE_DYNALITE=1 (and tests/node_modules/dynalite), the corpus also runs
# against dynalite, whose messages follow AWS's, and the differences between the two servers
# are printed (not asserted: both are emulators).

import base64
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.environ.get("DYNO_SOURCE_ROOT", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)), "tests", "fixtures"))
import ddb_local  # noqa: E402

CLI = os.environ.get("DYNOTABLE_CLI")
OPS = {"query": "query", "scan": "scan", "get": "get_item", "put": "put_item",
       "update": "update_item", "delete": "delete_item"}

# ---- tables -------------------------------------------------------------------------------
# hash: pk S.  hr: pk S + sk S, GSI gsi1 (gpk S, gsk N, INCLUDE a), GSI gsi2 (gb B, KEYS_ONLY),
# LSI lsi1 (pk, lsk S, INCLUDE b).  num: pk S + sk N.  bin: pk B + sk B.


def _attr(name, t):
    return {"AttributeName": name, "AttributeType": t}


def _key(h, r=None):
    out = [{"AttributeName": h, "KeyType": "HASH"}]
    if r:
        out.append({"AttributeName": r, "KeyType": "RANGE"})
    return out


TABLES = {
    "hash": dict(AttributeDefinitions=[_attr("pk", "S")], KeySchema=_key("pk")),
    "hr": dict(
        AttributeDefinitions=[_attr("pk", "S"), _attr("sk", "S"), _attr("gpk", "S"),
                              _attr("gsk", "N"), _attr("gb", "B"), _attr("lsk", "S")],
        KeySchema=_key("pk", "sk"),
        GlobalSecondaryIndexes=[
            {"IndexName": "gsi1", "KeySchema": _key("gpk", "gsk"),
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a"]}},
            {"IndexName": "gsi2", "KeySchema": _key("gb"),
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
        ],
        LocalSecondaryIndexes=[
            {"IndexName": "lsi1", "KeySchema": _key("pk", "lsk"),
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["b"]}},
        ]),
    "num": dict(AttributeDefinitions=[_attr("pk", "S"), _attr("sk", "N")],
                KeySchema=_key("pk", "sk")),
    "bin": dict(AttributeDefinitions=[_attr("pk", "B"), _attr("sk", "B")],
                KeySchema=_key("pk", "sk")),
}

# A few items, so that reads and conditional writes meet data.
SEED = {
    "hash": [{"pk": {"S": "p"}, "a": {"N": "1"}}],
    "hr": [{"pk": {"S": "p"}, "sk": {"S": "s"}, "a": {"M": {"b": {"N": "1"}}},
            "gpk": {"S": "g"}, "gsk": {"N": "1"}, "lsk": {"S": "l"}},
           {"pk": {"S": "m"}, "sk": {"S": "m"}, "m": {"M": {}}, "l": {"L": [{"N": "1"}]},
            "n2": {"N": "1"}}],
    "num": [{"pk": {"S": "p"}, "sk": {"N": "1"}}],
    "bin": [{"pk": {"B": "AQ=="}, "sk": {"B": "Ag=="}}],
}

# ---- the corpus ---------------------------------------------------------------------------
S = lambda s: {"S": s}          # noqa: E731
N = lambda n: {"N": n}          # noqa: E731
B = lambda raw: {"B": base64.b64encode(raw).decode("ascii")}   # noqa: E731

CORPUS = []   # (id, op, table, request without TableName)


def add(ident, op, table, **req):
    assert ident not in {c[0] for c in CORPUS}, ident
    CORPUS.append((ident, op, table, req))


def q(ident, kce, values=None, names=None, table="hr", **extra):
    req = dict(extra, KeyConditionExpression=kce)
    if values is not None:
        req["ExpressionAttributeValues"] = values
    if names is not None:
        req["ExpressionAttributeNames"] = names
    add(ident, "query", table, **req)


def qf(ident, filt, values=None, names=None, **extra):
    """Query hr on pk = :p with FILT as FilterExpression."""
    v = {":p": S("p")}
    v.update(values or {})
    q(ident, "pk = :p", v, names, FilterExpression=filt, **extra)


def sf(ident, filt, values=None, names=None, **extra):
    """Scan hr with FILT as FilterExpression."""
    req = dict(extra, FilterExpression=filt)
    if values is not None:
        req["ExpressionAttributeValues"] = values
    if names is not None:
        req["ExpressionAttributeNames"] = names
    add(ident, "scan", "hr", **req)


P = {":p": S("p")}
PS = {":p": S("p"), ":s": S("s")}
KEY = {"pk": S("p"), "sk": S("s")}
MKEY = {"pk": S("m"), "sk": S("m")}    # an item with a map m, a list l and a number n2
V = {":v": S("x")}

# -- key condition: shape and operators (facts §2.1)
q("kc-pk-only", "pk = :p", P)
q("kc-pk-sk-eq", "pk = :p AND sk = :s", PS)
for op, tag in (("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge")):
    q("kc-sk-" + tag, "pk = :p AND sk %s :s" % op, PS)
q("kc-between", "pk = :p AND sk BETWEEN :a AND :b", {":p": S("p"), ":a": S("a"), ":b": S("b")})
q("kc-between-equal", "pk = :p AND sk BETWEEN :a AND :a", {":p": S("p"), ":a": S("a")})
q("kc-begins-with", "pk = :p AND begins_with(sk, :s)", PS)
q("kc-reversed-operands", ":p = pk AND :s < sk", PS)
q("kc-sk-first", "sk > :s AND pk = :p", PS)
q("kc-names", "#k = :p AND #r >= :s", PS, {"#k": "pk", "#r": "sk"})
q("kc-lowercase-keywords", "pk = :p and sk between :a and :b",
  {":p": S("p"), ":a": S("a"), ":b": S("b")})
q("kc-parens", "(pk = :p) AND (sk > :s)", PS)
q("kc-whitespace", "\tpk\n=\r:p  AND  sk>:s ", PS)
q("kc-missing-pk", "sk = :s", {":s": S("s")})
q("kc-pk-lt", "pk < :p", P)
q("kc-pk-begins-with", "begins_with(pk, :p)", P)
q("kc-pk-between", "pk BETWEEN :a AND :b", {":a": S("a"), ":b": S("b")})
q("kc-or", "pk = :p OR sk = :s", PS)
q("kc-not", "NOT pk = :p", P)
q("kc-in", "pk IN (:p)", P)
q("kc-ne", "pk = :p AND sk <> :s", PS)
q("kc-attribute-exists", "pk = :p AND attribute_exists(sk)", P)
q("kc-contains", "pk = :p AND contains(sk, :s)", PS)
q("kc-size", "pk = :p AND size(sk) > :n", {":p": S("p"), ":n": N("1")})
q("kc-between-value-first", "pk = :p AND :a BETWEEN sk AND :b",
  {":p": S("p"), ":a": S("a"), ":b": S("b")})
q("kc-begins-with-value-first", "pk = :p AND begins_with(:s, sk)", PS)
q("kc-two-attributes", "pk = sk", None)
q("kc-two-values", "pk = :p AND :s = :s", PS)
q("kc-nested-path", "pk = :p AND sk.x = :s", PS)
q("kc-list-index", "pk = :p AND sk[0] = :s", PS)
q("kc-two-sk-conditions", "pk = :p AND sk > :a AND sk < :b",
  {":p": S("p"), ":a": S("a"), ":b": S("b")})
q("kc-two-pk-conditions", "pk = :p AND pk = :s", PS)
q("kc-non-key", "pk = :p AND attr1 = :s", PS)
q("kc-non-key-only", "attr1 = :s", {":s": S("s")})
q("kc-reserved-word", "pk = :p AND other = :s", PS)
q("kc-empty", "", None)
q("kc-syntax", "pk = = :p", P)
q("kc-unbalanced", "(pk = :p", P)
q("kc-begins-with-case", "pk = :p AND BEGINS_WITH(sk, :s)", PS)
q("kc-begins-with-arity", "pk = :p AND begins_with(sk)", P)
q("kc-and-only-pk-twice", "pk = :p AND pk = :p", P)
# BETWEEN bounds
q("kc-between-reversed", "pk = :p AND sk BETWEEN :b AND :a",
  {":p": S("p"), ":a": S("a"), ":b": S("b")})
q("kc-between-mixed", "pk = :p AND sk BETWEEN :a AND :n", {":p": S("p"), ":a": S("a"),
                                                         ":n": N("1")})
q("kc-between-utf8-order", "pk = :p AND sk BETWEEN :a AND :b",
  {":p": S("p"), ":a": S("\uff5e"), ":b": S("\U0001f600")})
q("kc-between-utf8-reversed", "pk = :p AND sk BETWEEN :b AND :a",
  {":p": S("p"), ":a": S("\uff5e"), ":b": S("\U0001f600")})
# value type against the schema
q("kc-pk-type-n", "pk = :n", {":n": N("1")})
q("kc-sk-type-n", "pk = :p AND sk > :n", {":p": S("p"), ":n": N("1")})
q("kc-begins-with-n-operand", "pk = :p AND begins_with(sk, :n)", {":p": S("p"), ":n": N("1")})
q("kc-sk-type-b", "pk = :p AND sk = :b", {":p": S("p"), ":b": B(b"\x01")})
# empty and oversized keys
q("kc-empty-pk", "pk = :e", {":e": S("")})
q("kc-empty-sk", "pk = :p AND sk = :e", {":p": S("p"), ":e": S("")})
q("kc-empty-sk-begins-with", "pk = :p AND begins_with(sk, :e)", {":p": S("p"), ":e": S("")})
q("kc-pk-2048", "pk = :p", {":p": S("x" * 2048)})
q("kc-pk-2049", "pk = :p", {":p": S("x" * 2049)})
q("kc-pk-2048-utf8", "pk = :p", {":p": S("\u00e9" * 1024)})
q("kc-pk-2050-utf8", "pk = :p", {":p": S("\u00e9" * 1025)})
q("kc-sk-1024", "pk = :p AND sk = :s", {":p": S("p"), ":s": S("y" * 1024)})
q("kc-sk-1025", "pk = :p AND sk = :s", {":p": S("p"), ":s": S("y" * 1025)})
q("kc-sk-1025-gt", "pk = :p AND sk > :s", {":p": S("p"), ":s": S("y" * 1025)})
# options of a Query
q("kc-limit-0", "pk = :p", P, Limit=0)
q("kc-limit-1", "pk = :p", P, Limit=1)
q("kc-descending", "pk = :p", P, ScanIndexForward=False)
q("kc-consistent", "pk = :p", P, ConsistentRead=True)
q("kc-unknown-index", "pk = :p", P, IndexName="nope")
q("kc-select-count", "pk = :p", P, Select="COUNT")
q("kc-select-count-projection", "pk = :p", P, Select="COUNT", ProjectionExpression="a")
q("kc-select-specific-no-projection", "pk = :p", P, Select="SPECIFIC_ATTRIBUTES")
q("kc-select-specific", "pk = :p", P, Select="SPECIFIC_ATTRIBUTES", ProjectionExpression="a")
q("kc-select-all-projected-table", "pk = :p", P, Select="ALL_PROJECTED_ATTRIBUTES")
q("kc-start-key", "pk = :p", P, ExclusiveStartKey=KEY)
q("kc-start-key-missing-sk", "pk = :p", P, ExclusiveStartKey={"pk": S("p")})
q("kc-start-key-wrong-type", "pk = :p", P, ExclusiveStartKey={"pk": S("p"), "sk": N("1")})
# indexes
q("gsi-query", "gpk = :g AND gsk > :n", {":g": S("g"), ":n": N("0")}, IndexName="gsi1")
q("gsi-query-hash-only", "gpk = :g", {":g": S("g")}, IndexName="gsi1")
q("gsi-query-table-pk", "pk = :p", P, IndexName="gsi1")
q("gsi-consistent", "gpk = :g", {":g": S("g")}, IndexName="gsi1", ConsistentRead=True)
q("gsi-begins-with-n", "gpk = :g AND begins_with(gsk, :s)", {":g": S("g"), ":s": S("1")},
  IndexName="gsi1")
q("gsi-sk-type-s", "gpk = :g AND gsk = :s", {":g": S("g"), ":s": S("1")}, IndexName="gsi1")
q("gsi-empty-pk", "gpk = :g", {":g": S("")}, IndexName="gsi1")
q("gsi-filter-table-key", "gpk = :g", {":g": S("g"), ":p": S("p")}, IndexName="gsi1",
  FilterExpression="pk = :p")
q("gsi-filter-index-key", "gpk = :g", {":g": S("g"), ":n": N("1")}, IndexName="gsi1",
  FilterExpression="gsk = :n")
q("gsi-filter-non-key", "gpk = :g", {":g": S("g"), ":v": N("1")}, IndexName="gsi1",
  FilterExpression="a = :v")
# what an index with an INCLUDE or KEYS_ONLY projection carries (facts: DynamoDB Local refuses
# a Query's filter on anything else, GSI and LSI alike; a projection of anything else on a GSI
# only: an LSI fetches it from the table; a Scan's filter is not refused)
q("gsi-filter-unprojected", "gpk = :g", {":g": S("g"), ":v": N("1")}, IndexName="gsi1",
  FilterExpression="b = :v OR c.d = :v AND a = :v")
q("gsi-keys-only-filter", "gb = :b", {":b": B(b"\x01"), ":v": N("1")}, IndexName="gsi2",
  FilterExpression="a = :v")
q("lsi-filter-unprojected", "pk = :p", {":p": S("p"), ":v": N("1")}, IndexName="lsi1",
  FilterExpression="a = :v")
q("lsi-filter-projected", "pk = :p", {":p": S("p"), ":v": N("1")}, IndexName="lsi1",
  FilterExpression="b = :v")
q("gsi-projection-unprojected", "gpk = :g", {":g": S("g")}, IndexName="gsi1",
  ProjectionExpression="c, b, a, pk")
q("gsi-projection-projected", "gpk = :g", {":g": S("g")}, IndexName="gsi1",
  ProjectionExpression="a.x, pk, gsk")
q("lsi-projection-unprojected", "pk = :p", P, IndexName="lsi1", ProjectionExpression="a, c")
add("scan-gsi-projection-unprojected", "scan", "hr", IndexName="gsi2", ProjectionExpression="a")
add("scan-gsi-filter-unprojected", "scan", "hr", IndexName="gsi1", FilterExpression="b = :v",
    ExpressionAttributeValues={":v": N("1")})
q("gsi-all-projected", "gpk = :g", {":g": S("g")}, IndexName="gsi1",
  Select="ALL_PROJECTED_ATTRIBUTES")
q("gsi-binary-key", "gb = :b", {":b": B(b"\x00\xff")}, IndexName="gsi2")
q("gsi-binary-key-empty", "gb = :b", {":b": B(b"")}, IndexName="gsi2")
q("gsi-binary-key-type-s", "gb = :b", {":b": S("x")}, IndexName="gsi2")
q("lsi-query", "pk = :p AND lsk >= :l", {":p": S("p"), ":l": S("l")}, IndexName="lsi1")
q("lsi-consistent", "pk = :p", P, IndexName="lsi1", ConsistentRead=True)
q("lsi-table-sk", "pk = :p AND sk = :s", PS, IndexName="lsi1")
q("lsi-filter-lsk", "pk = :p", {":p": S("p"), ":l": S("l")}, IndexName="lsi1",
  FilterExpression="lsk = :l")
q("lsi-filter-table-sk", "pk = :p", PS, IndexName="lsi1", FilterExpression="sk = :s")
q("lsi-empty-sk", "pk = :p AND lsk = :e", {":p": S("p"), ":e": S("")}, IndexName="lsi1")
# tables with other key types
q("num-query", "pk = :p AND sk BETWEEN :a AND :b", {":p": S("p"), ":a": N("9"), ":b": N("10")},
  table="num")
q("num-between-reversed", "pk = :p AND sk BETWEEN :a AND :b",
  {":p": S("p"), ":a": N("10"), ":b": N("9")}, table="num")
q("num-begins-with", "pk = :p AND begins_with(sk, :s)", PS, table="num")
q("num-begins-with-n", "pk = :p AND begins_with(sk, :n)", {":p": S("p"), ":n": N("1")},
  table="num")
q("num-sk-type-s", "pk = :p AND sk = :s", PS, table="num")
q("num-sk-negative", "pk = :p AND sk > :n", {":p": S("p"), ":n": N("-1e-130")}, table="num")
q("num-sk-overflow", "pk = :p AND sk > :n", {":p": S("p"), ":n": N("1e126")}, table="num")
q("num-sk-long-number", "pk = :p AND sk > :n", {":p": S("p"), ":n": N("9" * 1100)}, table="num")
q("bin-query", "pk = :a AND begins_with(sk, :b)", {":a": B(b"\x01"), ":b": B(b"\x02")},
  table="bin")
q("bin-between-reversed", "pk = :a AND sk BETWEEN :hi AND :lo",
  {":a": B(b"\x01"), ":hi": B(b"\xff"), ":lo": B(b"\x01")}, table="bin")
q("bin-between-ordered", "pk = :a AND sk BETWEEN :lo AND :hi",
  {":a": B(b"\x01"), ":hi": B(b"\xff"), ":lo": B(b"\x01")}, table="bin")
q("bin-empty-pk", "pk = :a", {":a": B(b"")}, table="bin")
q("bin-pk-type-s", "pk = :a", {":a": S("AQ==")}, table="bin")
q("bin-pk-2049", "pk = :a", {":a": B(b"\x07" * 2049)}, table="bin")
q("bin-sk-1025", "pk = :a AND sk = :b", {":a": B(b"\x01"), ":b": B(b"\x07" * 1025)},
  table="bin")
q("hash-second-condition", "pk = :p AND x = :s", PS, table="hash")
q("hash-sk-like-condition", "pk = :p AND begins_with(x, :s)", PS, table="hash")
q("hash-query", "pk = :p", P, table="hash")

# -- filters: on keys, functions, operands (facts §2.1, §2.2)
qf("f-non-key", "a = :v", {":v": N("1")})
qf("f-on-pk", "pk = :v", {":v": S("x")})
qf("f-on-sk", "sk = :v", {":v": S("x")})
qf("f-on-sk-nested-in-or", "a = :v OR begins_with(sk, :w)", {":v": N("1"), ":w": S("x")})
qf("f-on-index-key", "gsk = :v", {":v": N("1")})
qf("f-in-100", "a IN (%s)" % ", ".join(":v%d" % i for i in range(100)),
   {":v%d" % i: N(str(i)) for i in range(100)})
qf("f-in-101", "a IN (%s)" % ", ".join(":v%d" % i for i in range(101)),
   {":v%d" % i: N(str(i)) for i in range(101)})
qf("f-depth-32", "%s = :v" % ".".join("x%d" % i for i in range(32)), {":v": N("1")})
qf("f-depth-33", "%s = :v" % ".".join("x%d" % i for i in range(33)), {":v": N("1")})
qf("f-depth-33-index", "x%s = :v" % "".join("[0]" for _ in range(32)), {":v": N("1")})
qf("f-reserved", "status = :v", {":v": S("x")})
qf("f-reserved-mixed-case", "StAtUs = :v", {":v": S("x")})
qf("f-reserved-nested", "a.name = :v", {":v": S("x")})
qf("f-reserved-typo", "flattern = :v", {":v": S("x")})
qf("f-reserved-aliased", "#s = :v", {":v": S("x")}, {"#s": "status"})
qf("f-undefined-name", "#x = :v", {":v": S("x")})
qf("f-undefined-value", "a = :x", {})
qf("f-unused-name", "a = :v", {":v": S("x")}, {"#u": "u"})
qf("f-unused-names-two", "a = :v", {":v": S("x")}, {"#u": "u", "#w": "w"})
qf("f-unused-value", "a = :v", {":v": S("x"), ":u": S("u")})
qf("f-bad-name-key", "#a-b = :v", {":v": S("x")}, {"#a-b": "a"})
qf("f-bad-value-key", "a = :a-b", {":a-b": S("x")})
qf("f-name-key-no-hash", "a = :v", {":v": S("x")}, {"a": "a"})
qf("f-name-digit-first", "#1star = :v", {":v": S("x")}, {"#1star": "OneStar"})
qf("f-underscore-placeholders", "#_a = :_v", {":_v": S("x")}, {"#_a": "a"})
qf("f-empty-names", "a = :v", {":v": S("x")}, {})
qf("f-dotted-name", "#a.#b = :v", {":v": S("x")}, {"#a": "a", "#b": "b"})
qf("f-underscore-identifier", "_x = :v", {":v": S("x")})
qf("f-embedded-underscore", "a_b = :v", {":v": S("x")})
qf("f-trailing-underscore", "ab_ = :v", {":v": S("x")})
qf("f-size-as-name", "size = :v", {":v": S("x")})
qf("f-convert-as-name", "convert = :v", {":v": S("x")})
qf("f-key-nested-path", "gsk.x = :v", {":v": S("x")})
qf("f-identifier-digit-first", "1a = :v", {":v": S("x")})
qf("f-identifier-hyphen", "a-b = :v", {":v": S("x")})
qf("f-list-index", "a[0] = :v", {":v": S("x")})
qf("f-list-index-negative", "a[-1] = :v", {":v": S("x")})
qf("f-list-index-fraction", "a[0.4] = :v", {":v": S("x")})
qf("f-empty", "", {})
qf("f-redundant-parens", "((a = :v))", {":v": S("x")})
qf("f-single-parens", "(a = :v)", {":v": S("x")})
qf("f-precedence", "a = :v OR b = :v AND NOT c = :v", {":v": S("x")})
qf("f-function-case", "Contains(a, :v)", {":v": S("x")})
qf("f-unknown-function", "foo(a)", {})
qf("f-attribute-type", "attribute_type(a, :t)", {":t": S("SS")})
qf("f-attribute-type-bad", "attribute_type(a, :t)", {":t": S("X")})
qf("f-attribute-type-n", "attribute_type(a, :t)", {":t": N("1")})
qf("f-attribute-exists-value", "attribute_exists(:v)", {":v": S("x")})
qf("f-size-alone", "size(a)", {})
qf("f-size-compare", "size(a) > :n", {":n": N("3")})
qf("f-size-of-value", "size(:v) > :n", {":v": S("x"), ":n": N("3")})
qf("f-contains-self", "contains(a, a)", {})
qf("f-compare-self", "a = a", {})
qf("f-compare-paths", "a < b", {})
qf("f-function-as-operand", "attribute_exists(a) = :v", {":v": {"BOOL": True}})
qf("f-lt-map", "a < :m", {":m": {"M": {}}})
qf("f-lt-bool", "a > :b", {":b": {"BOOL": True}})
qf("f-eq-list", "a = :l", {":l": {"L": [N("1")]}})
qf("f-between-reversed-s", "a BETWEEN :b AND :a", {":a": S("a"), ":b": S("b")})
qf("f-between-string-order", "a BETWEEN :a AND :b", {":a": S("10"), ":b": S("9")})
qf("f-between-reversed-n", "a BETWEEN :a AND :b", {":a": N("10"), ":b": N("9")})
qf("f-between-mixed", "a BETWEEN :a AND :b", {":a": N("1"), ":b": S("9")})
qf("f-between-paths", "a BETWEEN b AND c", {})
qf("f-begins-with-n", "begins_with(a, :n)", {":n": N("1")})
qf("f-begins-with-b", "begins_with(a, :b)", {":b": B(b"\x01")})
qf("f-in-mixed-types", "a IN (:a, :b)", {":a": N("1"), ":b": S("1")})
qf("f-not-parens", "NOT (a = :v)", {":v": S("x")})
qf("f-keyword-attribute-and", "a = :v AND and = :v", {":v": S("x")})
qf("f-contains-set", "contains(a, :s)", {":s": {"SS": ["x"]}})
qf("f-contains-map", "contains(a, :m)", {":m": {"M": {}}})
qf("f-contains-path", "contains(a, b)", {})
qf("f-attribute-type-lowercase", "attribute_type(a, :t)", {":t": S("s")})
qf("f-in-empty", "a IN ()", {})
qf("f-in-paths", "a IN (b, c)", {})
qf("f-size-between", "size(a) BETWEEN :a AND :b", {":a": N("1"), ":b": N("2")})
qf("f-size-between-reversed", "size(a) BETWEEN :a AND :b", {":a": N("2"), ":b": N("1")})
qf("f-not-not", "NOT NOT a = :v", {":v": S("x")})
qf("f-long-name-placeholder", "#%s = :v" % ("n" * 254), {":v": S("x")}, {"#%s" % ("n" * 254): "a"})
qf("f-too-long-name-placeholder", "#%s = :v" % ("n" * 255), {":v": S("x")},
   {"#%s" % ("n" * 255): "a"})
qf("f-too-long-value-placeholder", "a = :%s" % ("v" * 255), {":%s" % ("v" * 255): S("x")})
qf("f-300-operators", "NOT (%s)" % " OR ".join(["a = :v"] * 150), {":v": S("x")})
qf("f-301-operators", "NOT NOT (%s)" % " OR ".join(["a = :v"] * 150), {":v": S("x")})
qf("f-302-with-size", " OR ".join(["size(a) = :n"] * 101), {":n": N("1")})
qf("f-in-counts-once", " OR ".join(["a IN (%s)" % ", ".join([":v"] * 100)] * 3), {":v": S("x")})
add("up-301-operators", "update", "hr", Key=KEY, ExpressionAttributeValues={":n": N("1")},
    UpdateExpression="SET " + ",".join("%s%s=:n+:n" % (chr(99 + i // 26), chr(97 + i % 26))
                                       for i in range(301)))
add("cond-301-operators", "delete", "hr", Key=KEY,
    ConditionExpression=" OR ".join(["attribute_exists(a)"] * 151))
# 4096 and 4097 bytes, with few operators
qf("f-expression-4k", "a = :v OR #%s = :v" % ("n" * 254) + " " * (4096 - 270), {":v": S("x")},
   {"#%s" % ("n" * 254): "b"})
qf("f-expression-over-4k", "a = :v OR #%s = :v" % ("n" * 254) + " " * (4097 - 270),
   {":v": S("x")}, {"#%s" % ("n" * 254): "b"})
add("kc-absent", "query", "hr")
add("kc-absent-values", "query", "hr", ExpressionAttributeValues=P)
# values (facts §3)
qf("v-39-digits", "a = :n", {":n": N("1" * 39)})
qf("v-38-digits", "a = :n", {":n": N("1" * 38)})
qf("v-38-digits-zeros", "a = :n", {":n": N("000" + "1" * 38 + ".000")})
qf("v-1e126", "a = :n", {":n": N("1e126")})
qf("v-max", "a = :n", {":n": N("9.9999999999999999999999999999999999999E+125")})
qf("v-1e-131", "a = :n", {":n": N("1e-131")})
qf("v-1e-130", "a = :n", {":n": N("1e-130")})
qf("v-not-number", "a = :n", {":n": N("abc")})
qf("v-empty-number", "a = :n", {":n": N("")})
qf("v-number-plus", "a = :n", {":n": N("+1")})
qf("v-number-spaces", "a = :n", {":n": N(" 1")})
qf("v-number-hex", "a = :n", {":n": N("0x10")})
qf("v-number-trailing-dot", "a = :n", {":n": N("1.")})
qf("v-number-leading-dot", "a = :n", {":n": N(".5")})
qf("v-number-nan", "a = :n", {":n": N("NaN")})
qf("v-number-exponent", "a = :n", {":n": N("1E+2")})
qf("v-number-negative-zero", "a = :n", {":n": N("-0")})
qf("v-number-zero-exponent-huge", "a = :n", {":n": N("0e999")})
qf("v-number-negative-overflow", "a = :n", {":n": N("-1e126")})
qf("v-number-infinity", "a = :n", {":n": N("Infinity")})
qf("v-empty-ss", "a = :s", {":s": {"SS": []}})
qf("v-empty-ns", "a = :s", {":s": {"NS": []}})
qf("v-empty-bs", "a = :s", {":s": {"BS": []}})
qf("v-dup-ss", "a = :s", {":s": {"SS": ["a", "a"]}})
qf("v-dup-ns", "a = :s", {":s": {"NS": ["1", "1"]}})
qf("v-dup-ns-equal-value", "a = :s", {":s": {"NS": ["1", "1.0"]}})
qf("v-dup-bs", "a = :s", {":s": {"BS": ["AQ==", "AQ=="]}})
qf("v-ss-empty-member", "a = :s", {":s": {"SS": ["", "a"]}})
qf("v-ns-bad-member", "a = :s", {":s": {"NS": ["1", "1e126"]}})
qf("v-null-false", "a = :v", {":v": {"NULL": False}})
qf("v-null-true", "a = :v", {":v": {"NULL": True}})
qf("v-empty-value", "a = :v", {":v": {}})
qf("v-two-types", "a = :v", {":v": {"S": "a", "N": "1"}})
qf("v-empty-string", "a = :v", {":v": S("")})
qf("v-nested-bad-number", "a = :v", {":v": {"M": {"x": {"L": [N("1e126")]}}}})
qf("v-nested-empty-set", "a = :v", {":v": {"L": [{"SS": []}]}})
add("v-empty-values-map", "scan", "hr", FilterExpression="a = b", ExpressionAttributeValues={})
add("v-values-only-projection", "scan", "hr", ProjectionExpression="a",
    ExpressionAttributeValues={":v": S("x")})
add("v-names-no-expression", "scan", "hr", ExpressionAttributeNames={"#a": "a"})
add("v-values-no-expression", "delete", "hr", Key=KEY, ExpressionAttributeValues={":v": S("x")})

# -- projections (facts §2.3)
for op, table, base in (("query", "hr", dict(KeyConditionExpression="pk = :p",
                                             ExpressionAttributeValues=P)),
                        ("get", "hr", dict(Key=KEY)), ("scan", "hr", {})):
    for ident, proj, names in (
            ("ok", "a, b.c, d[0]", None),
            ("overlap", "a, a.b", None),
            ("overlap-same", "a, a", None),
            ("overlap-reversed", "a.b.c, a.b", None),
            ("conflict", "a.b, a[0]", None),
            ("sibling", "a.b, a.c", None),
            ("list-siblings", "a[0], a[1]", None),
            ("reserved", "name", None),
            ("reserved-nested", "a.comment", None),
            ("aliased", "#n, #d", {"#n": "name", "#d": "data"}),
            ("depth-33", ".".join("y%d" % i for i in range(33)), None),
            ("undefined-name", "#n", None),
            ("empty", "", None),
            ("trailing-comma", "a,", None)):
        req = dict(base, ProjectionExpression=proj)
        if names is not None:
            req["ExpressionAttributeNames"] = names
        add("proj-%s-%s" % (op, ident), op, table, **req)

add("proj-key-nested", "query", "hr", KeyConditionExpression="pk = :p",
    ExpressionAttributeValues=P, ProjectionExpression="sk.x")
add("proj-index-key-nested", "scan", "hr", ProjectionExpression="gpk[0]")
add("scan-filter-key-nested", "scan", "hr", FilterExpression="pk.x = :v",
    ExpressionAttributeValues=V)
q("gsi-select-all-attributes", "gpk = :g", {":g": S("g")}, IndexName="gsi1",
  Select="ALL_ATTRIBUTES")
q("gsi-keys-only-select-all", "gb = :b", {":b": B(b"\x01")}, IndexName="gsi2",
  Select="ALL_ATTRIBUTES")
q("lsi-select-all-attributes", "pk = :p", P, IndexName="lsi1", Select="ALL_ATTRIBUTES")
q("kc-start-key-outside", "pk = :p", P, ExclusiveStartKey={"pk": S("q"), "sk": S("s")})
q("kc-start-key-range-mismatch", "pk = :p AND sk > :s", {":p": S("p"), ":s": S("m")},
  ExclusiveStartKey={"pk": S("p"), "sk": S("a")})
q("kc-start-key-one-row", "pk = :p AND sk = :s", PS,
  ExclusiveStartKey={"pk": S("q"), "sk": S("s")})
_AUDIT = {":p": S("ACTOR#u_8814"), ":a": S("EVT#2026-06-23T00:00:00Z"),
          ":b": S("EVT#2026-06-23T23:59:59Z")}
q("kc-start-key-between-outside-desc", "pk = :p AND sk BETWEEN :a AND :b", _AUDIT,
  ScanIndexForward=False, ExclusiveStartKey={"pk": S("ACTOR#u_8814"), "sk": S("EVT#x")})
q("kc-start-key-between-inside-desc", "pk = :p AND sk BETWEEN :a AND :b", _AUDIT,
  ScanIndexForward=False,
  ExclusiveStartKey={"pk": S("ACTOR#u_8814"), "sk": S("EVT#2026-06-23T12:00:00Z")})
q("kc-start-key-begins-with-outside", "pk = :p AND begins_with(sk, :s)",
  {":p": S("p"), ":s": S("USER#")}, ExclusiveStartKey={"pk": S("p"), "sk": S("ORDER#1")})
q("gsi-start-key-outside", "gpk = :g AND gsk > :n", {":g": S("g"), ":n": N("5")},
  IndexName="gsi1",
  ExclusiveStartKey={"pk": S("p"), "sk": S("s"), "gpk": S("g"), "gsk": N("4")})
q("gsi-start-key-inside", "gpk = :g AND gsk > :n", {":g": S("g"), ":n": N("5")},
  IndexName="gsi1",
  ExclusiveStartKey={"pk": S("p"), "sk": S("s"), "gpk": S("g"), "gsk": N("6")})
q("hash-start-key-outside", "pk = :p", P, table="hash", ExclusiveStartKey={"pk": S("q")})

# -- scans and their options
add("scan-plain", "scan", "hr")
add("scan-filter-on-key", "scan", "hr", FilterExpression="pk = :p", ExpressionAttributeValues=P)
add("scan-segment-only", "scan", "hr", Segment=0)
add("scan-total-only", "scan", "hr", TotalSegments=2)
add("scan-segment-out-of-range", "scan", "hr", Segment=2, TotalSegments=2)
add("scan-segment-ok", "scan", "hr", Segment=1, TotalSegments=2)
add("scan-total-zero", "scan", "hr", Segment=0, TotalSegments=0)
add("scan-total-too-big", "scan", "hr", Segment=0, TotalSegments=1000001)
add("scan-total-max", "scan", "hr", Segment=999999, TotalSegments=1000000)
add("scan-segment-negative", "scan", "hr", Segment=-1, TotalSegments=2)
add("scan-limit-0", "scan", "hr", Limit=0)
add("scan-limit-negative", "scan", "hr", Limit=-5)
add("scan-unknown-index", "scan", "hr", IndexName="nope")
add("scan-gsi", "scan", "hr", IndexName="gsi1")
add("scan-gsi-consistent", "scan", "hr", IndexName="gsi1", ConsistentRead=True)
add("scan-lsi-consistent", "scan", "hr", IndexName="lsi1", ConsistentRead=True)
add("scan-all-projected-table", "scan", "hr", Select="ALL_PROJECTED_ATTRIBUTES")
add("scan-select-attributes-projection", "scan", "hr", Select="ALL_ATTRIBUTES",
    ProjectionExpression="a")
add("scan-start-key", "scan", "hr", ExclusiveStartKey=KEY)
add("scan-start-key-gsi", "scan", "hr", IndexName="gsi1",
    ExclusiveStartKey={"pk": S("p"), "sk": S("s"), "gpk": S("g"), "gsk": N("1")})
add("scan-start-key-gsi-table-only", "scan", "hr", IndexName="gsi1", ExclusiveStartKey=KEY)
add("scan-index-name-short", "scan", "hr", IndexName="ab")

# -- GetItem keys
add("get-ok", "get", "hr", Key=KEY)
add("get-consistent", "get", "hr", Key=KEY, ConsistentRead=True)
add("get-missing-sk", "get", "hr", Key={"pk": S("p")})
add("get-extra-attribute", "get", "hr", Key=dict(KEY, a=S("x")))
add("get-wrong-type", "get", "hr", Key={"pk": N("1"), "sk": S("s")})
add("get-empty-pk", "get", "hr", Key={"pk": S(""), "sk": S("s")})
add("get-empty-sk", "get", "hr", Key={"pk": S("p"), "sk": S("")})
add("get-pk-2049", "get", "hr", Key={"pk": S("x" * 2049), "sk": S("s")})
add("get-sk-1025", "get", "hr", Key={"pk": S("p"), "sk": S("y" * 1025)})
add("get-sk-1024", "get", "hr", Key={"pk": S("p"), "sk": S("y" * 1024)})
add("get-hash-only", "get", "hash", Key={"pk": S("p")})
add("get-hash-extra", "get", "hash", Key={"pk": S("p"), "sk": S("s")})
add("get-num", "get", "num", Key={"pk": S("p"), "sk": N("1.0")})
add("get-num-39-digits", "get", "num", Key={"pk": S("p"), "sk": N("1" * 39)})
add("get-bin", "get", "bin", Key={"pk": B(b"\x01"), "sk": B(b"\x02")})
add("get-bin-empty-sk", "get", "bin", Key={"pk": B(b"\x01"), "sk": B(b"")})
add("get-bin-wrong-type", "get", "bin", Key={"pk": S("AQ=="), "sk": B(b"\x02")})
add("get-names-unused", "get", "hr", Key=KEY, ExpressionAttributeNames={"#a": "a"},
    ProjectionExpression="b")

# -- PutItem
ITEM = dict(KEY, a=N("1"))
add("put-ok", "put", "hr", Item=ITEM)
add("put-missing-pk", "put", "hr", Item={"sk": S("s")})
add("put-missing-sk", "put", "hr", Item={"pk": S("p")})
add("put-wrong-type", "put", "hr", Item={"pk": S("p"), "sk": N("1")})
add("put-empty-pk", "put", "hr", Item={"pk": S(""), "sk": S("s")})
add("put-empty-sk", "put", "hr", Item={"pk": S("p"), "sk": S("")})
add("put-pk-2048", "put", "hr", Item={"pk": S("x" * 2048), "sk": S("s")})
add("put-pk-2049", "put", "hr", Item={"pk": S("x" * 2049), "sk": S("s")})
add("put-sk-1025", "put", "hr", Item={"pk": S("p"), "sk": S("y" * 1025)})
add("put-gsi-key-empty", "put", "hr", Item=dict(KEY, gpk=S("")))
add("put-gsi-key-wrong-type", "put", "hr", Item=dict(KEY, gsk=S("1")))
add("put-gsi-binary-empty", "put", "hr", Item=dict(KEY, gb=B(b"")))
add("put-lsi-key-empty", "put", "hr", Item=dict(KEY, lsk=S("")))
add("put-lsi-key-wrong-type", "put", "hr", Item=dict(KEY, lsk=N("1")))
add("put-gsi-key-2049", "put", "hr", Item=dict(KEY, gpk=S("x" * 2049)))
add("put-gsi-sk-1025-bytes-b", "put", "hr", Item=dict(KEY, gb=B(b"\x01" * 2049)))
add("put-lsi-sk-1025", "put", "hr", Item=dict(KEY, lsk=S("y" * 1025)))
add("put-lsi-sk-1024", "put", "hr", Item=dict(KEY, lsk=S("y" * 1024)))
add("put-empty-nonkey-string", "put", "hr", Item=dict(KEY, a=S(""), b=B(b"")))
add("put-empty-ss", "put", "hr", Item=dict(KEY, a={"SS": []}))
add("put-dup-ss", "put", "hr", Item=dict(KEY, a={"SS": ["x", "x"]}))
add("put-dup-ns", "put", "hr", Item=dict(KEY, a={"NS": ["1", "1"]}))
add("put-null-false", "put", "hr", Item=dict(KEY, a={"NULL": False}))
add("put-39-digits", "put", "hr", Item=dict(KEY, a=N("1" * 39)))
add("put-nested-1e-131", "put", "hr", Item=dict(KEY, a={"M": {"b": {"L": [N("1e-131")]}}}))
add("put-nested-empty-set", "put", "hr", Item=dict(KEY, a={"M": {"b": {"NS": []}}}))
add("put-409600", "put", "hash",
    Item={"pk": S("big"), "a": S("x" * (409600 - len("pk") - 3 - 1))})
add("put-409601", "put", "hash",
    Item={"pk": S("big"), "a": S("x" * (409600 - len("pk") - 3 - 1 + 1))})
add("put-500k", "put", "hash", Item={"pk": S("big"), "a": S("x" * 500000)})
add("put-condition", "put", "hr", Item=ITEM, ConditionExpression="attribute_not_exists(pk)")
add("put-condition-reserved", "put", "hr", Item=ITEM,
    ConditionExpression="attribute_not_exists(data)")
add("put-condition-unused-value", "put", "hr", Item=ITEM,
    ConditionExpression="attribute_not_exists(pk)", ExpressionAttributeValues={":v": S("x")})
add("put-condition-between-reversed", "put", "hr", Item=ITEM,
    ConditionExpression="a BETWEEN :b AND :a", ExpressionAttributeValues={":a": N("1"),
                                                                          ":b": N("2")})
add("put-condition-on-key", "put", "hr", Item=ITEM, ConditionExpression="pk = :p",
    ExpressionAttributeValues=P)
add("put-return-all-old", "put", "hr", Item=ITEM, ReturnValues="ALL_OLD")
add("put-return-all-new", "put", "hr", Item=ITEM, ReturnValues="ALL_NEW")
add("put-return-updated-old", "put", "hr", Item=ITEM, ReturnValues="UPDATED_OLD")
add("put-bin", "put", "bin", Item={"pk": B(b"\x01"), "sk": B(b"\x03")})
add("put-bin-empty-pk", "put", "bin", Item={"pk": B(b""), "sk": B(b"\x03")})
add("put-num-key-bad", "put", "num", Item={"pk": S("p"), "sk": N("1e126")})

# -- UpdateItem
def u(ident, expr, values=None, names=None, key=None, table="hr", **extra):
    req = dict(extra, Key=key or KEY, UpdateExpression=expr)
    if values is not None:
        req["ExpressionAttributeValues"] = values
    if names is not None:
        req["ExpressionAttributeNames"] = names
    add(ident, "update", table, **req)


u("up-set", "SET a = :v", V)
u("up-set-two", "SET a = :v, b = :w", {":v": S("x"), ":w": S("y")})
u("up-remove", "REMOVE c")
u("up-add-n", "ADD n :n", {":n": N("1")})
u("up-add-ss", "ADD ss :s", {":s": {"SS": ["a"]}})
u("up-delete-ss", "DELETE ss :s", {":s": {"SS": ["a"]}})
u("up-all-clauses", "SET a = :v REMOVE c ADD n :n DELETE ss :s",
  {":v": S("x"), ":n": N("1"), ":s": {"SS": ["a"]}})
u("up-lowercase", "set a = :v remove c", V)
u("up-plus", "SET n2 = n2 + :n", {":n": N("1")}, key=MKEY)
u("up-plus-missing", "SET nothere = nothere + :n", {":n": N("1")})
u("up-set-from-missing", "SET a = nothere", None)
u("up-set-key-nested", "SET pk.x = :v", V)
u("up-set-index-key-nested", "SET gpk.x = :v", V)
u("up-set-gsi-key", "SET gpk = :v, gsk = :n", {":v": S("g2"), ":n": N("2")})
u("up-set-gsi-key-2049", "SET gpk = :v", {":v": S("x" * 2049)})
u("up-set-gsi-sk-1025", "SET lsk = :v", {":v": S("y" * 1025)})
u("up-set-gsi-key-from-path", "SET gpk = a", None, key=MKEY)
u("up-plus-values", "SET n2 = :a + :b", {":a": N("1"), ":b": N("2")})
u("up-plus-chain", "SET n2 = n2 + :a + :b", {":a": N("1"), ":b": N("2")})
u("up-plus-string", "SET n2 = :s + :n", {":s": S("x"), ":n": N("1")})
u("up-list-append", "SET l = list_append(if_not_exists(l, :e), :l)",
  {":e": {"L": []}, ":l": {"L": [N("1")]}})
u("up-list-append-string", "SET l = list_append(:s, l)", {":s": S("x")})
u("up-if-not-exists-value-first", "SET a = if_not_exists(:v, a)", V)
u("up-overlap-set-remove", "SET a = :v REMOVE a", V)
u("up-overlap-set-set", "SET a = :v, a = :v", V)
u("up-overlap-nested", "SET a.b = :v, a = :v", V)
u("up-conflict", "SET a[0] = :v, a.b = :v", V)
u("up-siblings", "SET m.x = :v, m.y = :v", V, key=MKEY)
u("up-siblings-missing-map", "SET nomap.x = :v, nomap.y = :v", V)
u("up-list-siblings", "SET l[0] = :v, l[1] = :v", V, key=MKEY)
u("up-set-pk", "SET pk = :v", V)
u("up-remove-sk", "REMOVE sk")
u("up-add-pk-names", "SET #k = :v", V, {"#k": "sk"})
u("up-add-string", "ADD a :v", V)
u("up-add-list", "ADD a :v", {":v": {"L": [N("1")]}})
u("up-delete-number", "DELETE a :n", {":n": N("1")})
u("up-delete-string", "DELETE a :v", V)
u("up-set-twice-section", "SET a = :v SET b = :v", V)
u("up-empty", "")
u("up-reserved", "SET name = :v", V)
u("up-reserved-value-path", "SET a = size", None)
u("up-undefined-value", "SET a = :nope")
u("up-unused-value", "SET a = :v", {":v": S("x"), ":w": S("y")})
u("up-depth-33", "SET %s = :v" % ".".join("z%d" % i for i in range(33)), V)
u("up-set-gsi-key-empty", "SET gpk = :e", {":e": S("")})
u("up-set-gsi-key-wrong-type", "SET gsk = :s", {":s": S("1")})
u("up-set-lsi-key-empty", "SET lsk = :e", {":e": S("")})
u("up-set-empty-set", "SET a = :s", {":s": {"SS": []}})
u("up-set-big", "SET a = :v", {":v": S("x" * 410000)}, key={"pk": S("upd")}, table="hash")
u("up-set-big-two", "SET a = :v, b = :v", {":v": S("x" * 205000)}, key={"pk": S("upd")},
  table="hash")
u("up-set-400k", "SET a = :v", {":v": S("x" * 400000)}, key={"pk": S("upd2")}, table="hash")
u("up-missing-sk", "SET a = :v", V, key={"pk": S("p")})
u("up-key-empty-pk", "SET a = :v", V, key={"pk": S(""), "sk": S("s")})
u("up-return-updated-new", "SET a = :v", V, ReturnValues="UPDATED_NEW")
u("up-return-bad", "SET a = :v", V, ReturnValues="EVERYTHING")
u("up-return-consumed-indexes", "SET a = :v", V, ReturnConsumedCapacity="INDEXES")
u("up-condition", "SET a = :v", {":v": S("x"), ":o": N("0")},
  ConditionExpression="attribute_not_exists(a) OR n <> :o")
u("up-condition-undefined", "SET a = :v", V, ConditionExpression="b = :w")
u("up-size-in-set", "SET a = size(b)")
u("up-function-in-set", "SET a = attribute_exists(b)")
u("up-remove-value", "REMOVE :v", V)
u("up-remove-list-index", "REMOVE l[0], l[1]")
u("up-set-list-index", "SET l[1] = :v", V)
u("up-num-key", "SET a = :v", V, key={"pk": S("p"), "sk": N("2")}, table="num")

# -- DeleteItem
add("del-ok", "delete", "hr", Key=KEY)
add("del-condition", "delete", "hr", Key=KEY, ConditionExpression="attribute_exists(a)")
add("del-return-all-old", "delete", "hr", Key=KEY, ReturnValues="ALL_OLD")
add("del-return-all-new", "delete", "hr", Key=KEY, ReturnValues="ALL_NEW")
add("del-missing-sk", "delete", "hr", Key={"pk": S("p")})
add("del-wrong-type", "delete", "hr", Key={"pk": S("p"), "sk": B(b"\x01")})
add("del-condition-syntax", "delete", "hr", Key=KEY, ConditionExpression="a =")
add("del-condition-in-101", "delete", "hr", Key=KEY,
    ConditionExpression="a IN (%s)" % ", ".join(":v%d" % i for i in range(101)),
    ExpressionAttributeValues={":v%d" % i: N(str(i)) for i in range(101)})
add("del-condition-reserved", "delete", "hr", Key=KEY, ConditionExpression="size(year) > :n",
    ExpressionAttributeValues={":n": N("1")})

# ---- known, justified differences ------------------------------------------------------------
# id -> reason.  An entry here must really differ (test_allow_list_is_current): when a server
# or core change makes it agree, drop it.
_NEEDS_DATA = ("needs the stored item: whether the attribute the update reads exists is "
               "known only to the server")
ALLOW = {
    # -- rules that need the stored data (out of scope for an offline check)
    "up-plus-missing": _NEEDS_DATA,
    "up-set-from-missing": _NEEDS_DATA,
    "up-set-gsi-key-from-path": _NEEDS_DATA,
    "up-siblings-missing-map": "needs the stored item: SET m.x needs an existing map m "
                               "(up-siblings, on an item that has one, is accepted by both)",
    # -- DynamoDB Local departs from the documented rules; we keep the documented ones
    "f-size-as-name": "SIZE is in DynamoDB's documented reserved-word list (and dynalite, whose "
                      "errors follow AWS's, rejects it); DynamoDB Local lets the function name "
                      "pass as an attribute name.  Requiring #size is safe either way",
    "f-convert-as-name": "CONVERT is a documented reserved word (dynalite rejects it too); "
                         "DynamoDB Local accepts it bare",
    "up-set-gsi-sk-1025": "the 1024-byte limit applies to index sort keys: DynamoDB Local's own "
                          "PutItem rejects the same LSI sort key value (put-lsi-sk-1025), only its "
                          "UpdateItem lets it through",
    # -- the expression model
    "f-size-of-value": "size(:v) of a constant is accepted by DynamoDB Local (and dynalite); "
                       "DynoTable's expression model has size() over a document path only and "
                       "rejects it with DynamoDB's own 'requires a document path' message.  "
                       "Never needed: the size of a constant is a constant",
}

# ---- running --------------------------------------------------------------------------------


def to_boto3(node):
    """B/BS values from base64 text to bytes, as boto3 takes them."""
    if isinstance(node, dict):
        if len(node) == 1 and "B" in node and isinstance(node["B"], str):
            return {"B": base64.b64decode(node["B"])}
        if len(node) == 1 and "BS" in node and isinstance(node["BS"], list) \
                and all(isinstance(x, str) for x in node["BS"]):
            return {"BS": [base64.b64decode(x) for x in node["BS"]]}
        return {k: to_boto3(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_boto3(x) for x in node]
    return node


def make_client(endpoint):
    import boto3
    from botocore.config import Config
    return boto3.client(
        "dynamodb", endpoint_url=endpoint, region_name=ddb_local.region(),
        aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID", "fakeMyKeyId"),
        aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY", "fakeSecretAccessKey"),
        config=Config(parameter_validation=False, retries={"max_attempts": 1},
                      read_timeout=120))


def create_tables(c, prefix):
    names = {}
    for key, spec in TABLES.items():
        name = prefix + key
        args = dict(spec, TableName=name, BillingMode="PAY_PER_REQUEST")
        c.create_table(**args)
        names[key] = name
    for key, name in names.items():
        c.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 1})
        for item in SEED[key]:
            c.put_item(TableName=name, Item=to_boto3(item))
    return names


def send(c, op, request):
    """('ok', '') or (error code, message)."""
    from botocore.exceptions import ClientError
    try:
        getattr(c, OPS[op])(**to_boto3(request))
        return ("ok", "")
    except ClientError as e:
        err = e.response.get("Error", {})
        return (err.get("Code", "?"), err.get("Message", ""))


def accepted(result):
    # Failing a condition means the request itself was valid.
    return result[0] in ("ok", "ConditionalCheckFailedException")


def run_cli(op, request, schema_path):
    proc = subprocess.run([CLI, "expr", "import", "-", "--op", op, "--schema", schema_path],
                          input=json.dumps(request), capture_output=True, text=True,
                          timeout=60)
    return (proc.returncode, proc.stderr)


# Things DynamoDB's messages name; our message must name them too.
NAMED = [
    r"reserved keyword: (\S+)",
    r"attribute name: (#\w+)",
    r"attribute value: (:\w+)",
    r"unused in expressions: keys: \{([^}]*)\}",
    r"invalid key: Syntax error; key: \"([^\"]*)\"",
    r"(?<!Index)Key: (\w+)",
    r"IndexKey: (\w+)",
    r"Primary key attribute: (\w+)",
    r"specified index: (\S+)",
    r"function: (\w+)",
    r"missed key schema element: (\w+)",
    r"Invalid operator used in KeyConditionExpression: (\S+)",
    r"Cannot update attribute (\w+)",
    r"Missing the key (\w+)",
    r"path one: \[([^\]]*)\]",
    r"path two: \[([^\]]*)\]",
    r"Secondary index (\S+) does not project",
    r"does not project one or more filter attributes: \[([^\]]*)\]",
    r"does not project \[([^\]]*)\]",
]


def named_things(message):
    out = []
    for pattern in NAMED:
        for m in re.finditer(pattern, message):
            for part in re.split(r",\s*", m.group(1)):
                part = part.strip()
                if part:
                    out.append(part)
    return out


DYNALITE_JS = """
const dynalite = require(process.argv[1]);
const server = dynalite({createTableMs: 0, deleteTableMs: 0, updateTableMs: 0});
server.listen(0, '127.0.0.1', () => { console.log(server.address().port); });
"""


def start_dynalite():
    """(process, endpoint) of a private dynalite on a loopback port, or None."""
    node = shutil.which("node")
    module = os.path.join(ddb_local.SOURCE_ROOT, "tests", "node_modules", "dynalite")
    if node is None or not os.path.isdir(module):
        return None
    proc = subprocess.Popen([node, "-e", DYNALITE_JS, module], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    port = proc.stdout.readline().strip()
    if not port.isdigit():
        proc.kill()
        proc.wait()
        return None
    return proc, "http://127.0.0.1:%s" % port


def stop_dynalite(proc):
    if proc.poll() is None:
        proc.terminate()
    proc.wait()
    proc.stdout.close()
    proc.stderr.close()


class Conformance(unittest.TestCase):
    results = None

    @classmethod
    def setUpClass(cls):
        if not CLI or not os.path.exists(CLI):
            raise unittest.SkipTest("DYNOTABLE_CLI is not set (run through meson test)")
        try:
            endpoint = ddb_local.endpoint()
        except ddb_local.NoEndpoint as e:
            raise unittest.SkipTest(str(e))
        cls.tmp = tempfile.mkdtemp(prefix="dyno-conformance-")
        cls.client = make_client(endpoint)
        cls.tables = create_tables(cls.client, ddb_local.unique_prefix("conf"))
        cls.schemas = {}
        for key, name in cls.tables.items():
            describe = cls.client.describe_table(TableName=name)
            path = os.path.join(cls.tmp, key + ".json")
            with open(path, "w") as f:
                json.dump({"Table": describe["Table"]}, f, default=str)
            cls.schemas[key] = path

        cls.results = {}
        for ident, op, table, req in CORPUS:
            request = dict(req, TableName=cls.tables[table])
            cls.results[ident] = {"ddb": send(cls.client, op, request)}
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            futures = {
                pool.submit(run_cli, op, dict(req, TableName=cls.tables[table]),
                            cls.schemas[table]): ident
                for ident, op, table, req in CORPUS}
            for future, ident in futures.items():
                cls.results[ident]["cli"] = future.result()
        cls.dynalite = None
        if os.environ.get("DYNO_CONFORMANCE_DYNALITE") == "1":
            cls.run_dynalite()
        cls.summarise()

    @classmethod
    def run_dynalite(cls):
        from botocore.exceptions import EndpointConnectionError
        started = None
        cls.dynalite_crashes = []
        try:
            for ident, op, table, req in CORPUS:
                if started is None:
                    started = start_dynalite()
                    if started is None:
                        return
                    cls.dynalite = started[0]
                    c = make_client(started[1])
                    tables = create_tables(c, "conf-")
                try:
                    result = send(c, op, dict(req, TableName=tables[table]))
                except EndpointConnectionError:
                    # dynalite died on this request: note it, start a fresh one
                    started[0].wait()
                    result = ("crashed", started[0].stderr.read()[-300:].strip())
                    cls.dynalite_crashes.append(ident)
                    stop_dynalite(started[0])
                    started = None
                cls.results[ident]["dynalite"] = result
        finally:
            if started is not None:
                stop_dynalite(started[0])

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "tables", None):
            ddb_local.delete_tables(cls.tables.values(), cls.client)
        if getattr(cls, "tmp", None):
            shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def summarise(cls):
        counts = {}
        for ident, _, _, _ in CORPUS:
            r = cls.results[ident]
            key = ("accepts" if accepted(r["ddb"]) else "rejects",
                   "accepts" if r["cli"][0] == 0 else "rejects")
            counts[key] = counts.get(key, 0) + 1
        print("\nconformance: %d requests" % len(CORPUS))
        for (d, ours), n in sorted(counts.items()):
            print("  DynamoDB Local %s, dynotable-cli %s: %d" % (d, ours, n))
        if os.environ.get("DYNO_CONFORMANCE_VERBOSE"):
            for ident, op, _, _ in CORPUS:
                r = cls.results[ident]
                print("%-40s %-6s ddb=%s | %s\n%42s cli=%d %s" % (
                    ident, op, r["ddb"][0], r["ddb"][1][:300], "", r["cli"][0],
                    r["cli"][1].strip().replace("\n", " | ")[:300]))

    def test_dynalite_differences(self):
        """Not asserted: where the two emulators disagree, for the report."""
        if not self.dynalite:
            self.skipTest("DYNO_CONFORMANCE_DYNALITE=1 runs the corpus against dynalite too")
        differ = [i for i, _, _, _ in CORPUS
                  if accepted(self.results[i]["ddb"]) != accepted(self.results[i]["dynalite"])]
        print("\ndynalite crashed on: %s" % ", ".join(self.dynalite_crashes))
        print("dynalite: accepts %d, rejects %d; differs from DynamoDB Local on %d:" % (
            sum(1 for i, _, _, _ in CORPUS if accepted(self.results[i]["dynalite"])),
            sum(1 for i, _, _, _ in CORPUS if not accepted(self.results[i]["dynalite"])),
            len(differ)))
        for i in differ:
            r = self.results[i]
            print("  %-34s DynamoDB Local: %s %s\n  %-34s dynalite:       %s %s" % (
                i, r["ddb"][0], r["ddb"][1][:110], "", r["dynalite"][0],
                r["dynalite"][1][:110]))

    def disagreements(self):
        out = {}
        for ident, _, _, _ in CORPUS:
            r = self.results[ident]
            ddb, (rc, stderr) = r["ddb"], r["cli"]
            if accepted(ddb):
                if rc != 0:
                    out[ident] = "DynamoDB Local accepts it, we reject it: %s" % stderr.strip()
            elif ddb[0] == "ValidationException":
                if rc != 2:
                    out[ident] = "DynamoDB Local rejects it (%s), we exit %d: %s" % (
                        ddb[1], rc, stderr.strip())
            else:
                out[ident] = "DynamoDB Local answers %s: %s" % ddb
        return out

    def test_corpus_size(self):
        self.assertGreaterEqual(len(CORPUS), 150)
        rejected = sum(1 for i, _, _, _ in CORPUS if not accepted(self.results[i]["ddb"]))
        self.assertGreater(rejected, 50)
        self.assertGreater(len(CORPUS) - rejected, 50)

    def test_verdicts_agree(self):
        bad = {i: m for i, m in self.disagreements().items() if i not in ALLOW}
        self.assertEqual({}, bad, "\n" + "\n".join("%s: %s" % kv for kv in sorted(bad.items())))

    def test_allow_list_is_current(self):
        differ = self.disagreements()
        stale = [i for i in ALLOW if i not in differ]
        self.assertEqual([], stale, "allow-listed requests that now agree")

    def test_messages_name_the_same_things(self):
        bad = []
        compared = 0
        for ident, _, _, _ in CORPUS:
            r = self.results[ident]
            if ident in ALLOW or r["ddb"][0] != "ValidationException" or r["cli"][0] != 2:
                continue
            for thing in named_things(r["ddb"][1]):
                compared += 1
                # as a whole word: "pk" must not be found inside "gpk"
                if not re.search(r"(?<![\w#:])" + re.escape(thing) + r"(?!\w)", r["cli"][1]):
                    bad.append("%s: DynamoDB names %r (%s); we say: %s" % (
                        ident, thing, r["ddb"][1], r["cli"][1].strip()))
        self.assertEqual([], bad, "\n" + "\n".join(bad))
        # the check must have had something to compare
        self.assertGreater(compared, 60)
        print("\nconformance: %d names in DynamoDB Local's messages, all named by ours" % compared)


if __name__ == "__main__":
    unittest.main(verbosity=2)
