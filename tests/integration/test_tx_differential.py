"""Transactions and conditional writes, the engine against DynamoDB Local, on a random workload.

`dynotable-cli serve` (in memory) and DynamoDB Local get the same requests, in the same order,
on two small tables each: A (pk S, a global secondary index byG on g) and B (pk S, sk N).  The
key space is a handful of items, so that actions collide and conditions go both ways.  The
operations are TransactWriteItems of 1 to 6 actions (Put, Update, Delete, ConditionCheck across
both tables), TransactGetItems, PutItem, UpdateItem and DeleteItem with conditions and
ReturnValues, and Scans; a few are invalid on purpose (two actions on one item, an unused
placeholder, a key attribute in SET, a duplicate Get).  After each operation both servers'
tables are scanned.  What must agree:

- success or error, and the error's type (__type after its '#', as botocore cuts it);
- of a TransactionCanceledException the codes of its CancellationReasons, and their Item;
  of a ConditionalCheckFailedException its Item (ReturnValuesOnConditionCheckFailure ALL_OLD);
- of a success everything it answers: Attributes, Items, Responses, Count, ConsumedCapacity;
- the contents of both tables after each operation.

Values are compared by value: numbers through Decimal, sets as sorted lists (DynamoDB keeps no
order in a set).  Items of a Scan are sorted by key (the order of a Scan over several partitions
is a hash order of each server's own), and the ConsumedCapacity of a transaction, one per
table, by table name (the engine lists the tables in the order the actions name them, DynamoDB
Local in an order of its own; DynamoDB documents none).

Known differences of DynamoDB Local from DynamoDB, where the engine follows DynamoDB (see
test_serve.py, DifferentialTest.run_transactions) and this test normalises:

- ConsumedCapacity of TransactWriteItems: DynamoDB charges every action of a transaction two
  units per KB written ("one to prepare the transaction and one to commit"), a Delete of a
  missing item and a ConditionCheck too (two per 4 KB read); DynamoDB Local charges some of
  them once or not at all.  All items here are under 1 KB, so DynamoDB's charge is known
  without asking: 2 units per action to its table, and to byG 2 units per write of the index
  that a Put, Update or Delete of table A makes: one to remove an item's old entry (the item
  left the index or moved in it: a new g), one to write its new entry (new in the index,
  moved, or changed), none when the entry stays as it was ("if you update an item to change
  an indexed key attribute value, two writes are required" [DG]; see expected_tx_capacity).
  The engine's answer is compared with that; DynamoDB Local's is not compared.  A few
  PutItems write an item of over a KB (their capacity is compared with DynamoDB Local's); a
  transaction that touches such an item is not charged by this model, and its capacity is
  not compared.
- ReturnValues UPDATED_OLD and UPDATED_NEW of an update of nested paths (m.y, l[1]): DynamoDB
  returns the updated paths only, as a ProjectionExpression of them would ({"m": {"M": {"y":
  …}}}, {"l": {"L": [l[1]]}}); DynamoDB Local returns the whole top-level attributes.  Local's
  answer is projected onto the update's paths (see project()).
- ConsumedCapacity not asked for: DynamoDB sends none; DynamoDB Local sends one with a
  DeleteItem of a missing item whose condition held.  DynamoDB Local's is dropped there (the
  engine's, if it sent one, still counts).
- A Scan of an empty table or index: DynamoDB Local charges 0 units; DynamoDB charges a read
  at least 0.5 units (eventually consistent) per partition, an empty one too [DG Query.md,
  Scan.md].  DynamoDB Local's 0.0 there counts as 0.5.
- A number -0: DynamoDB Local keeps the sign; the engine stores 0.  Numbers are compared by
  value, so -0 is 0.
- A request with a fault that does not depend on the items (two actions of a transaction on
  one item; a key attribute in an UpdateExpression's SET) is a ValidationException in
  DynamoDB, before any condition is evaluated; DynamoDB Local evaluates the conditions first
  and answers a failed one instead (ConditionalCheckFailedException, or a cancellation),
  and cancels a transaction with a key attribute in SET with a ValidationError reason.  For
  these requests the engine must answer a ValidationException, and DynamoDB Local any of the
  three.  The same for an index key of another type in a Put and a key of another type in
  a transaction (test_serve.py).
- A transaction naming a missing table: DynamoDB finds the table missing before it reads an
  item; DynamoDB Local goes through the actions in order and answers a fault an earlier
  action meets on its item (a ValidationException, or a cancellation).  Which of a missing
  table and a fault of an expression (BETWEEN bounds out of order, a syntax error) DynamoDB
  names first is not documented, and the two servers differ there too (the engine: syntax
  first, then the table, then the rest; DynamoDB Local: the table first in a single write,
  the expressions first in a transaction).  So for such a request only the refusal is
  compared: the engine answers ResourceNotFoundException or ValidationException, and
  DynamoDB Local one of those or a cancellation; nothing is written.
- ClientRequestToken: only requests without faults carry one (DynamoDB Local remembers the
  token of a request it refused, DynamoDB documents only what a token of a request that
  succeeded does), and they ask for no capacity (test_serve.py).
- An Update in a transaction that cannot apply to its item (arithmetic on a missing
  attribute): DynamoDB cancels the transaction with a ValidationError reason, DynamoDB Local
  answers a ValidationException.  Such a cancellation of the engine counts as Local's
  ValidationException (and the tables must still agree: nothing written).

Run by meson as  with-ddb-local.sh /usr/bin/python3 test_tx_differential.py  with DYNOTABLE_CLI
set.  DYNO_TX_SEED picks the first seed (the others are derived from it and printed);
DYNO_TX_OPS the number of operations per seed.  A failure prints the seed, the operation's
number and its request, and both answers: DYNO_TX_SEED=<that seed> replays it (as the first
seed of the run).  Prints TAP.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import http.client
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from decimal import Decimal, getcontext

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

getcontext().prec = 60  # numbers of 38 digits compared exactly (normalize() rounds)

CLI = os.environ["DYNOTABLE_CLI"]
ENDPOINT = os.environ["DYNO_TEST_ENDPOINT"]
SEED = int(os.environ.get("DYNO_TX_SEED", "20261203"))
OPS = int(os.environ.get("DYNO_TX_OPS", "400"))
_derive = random.Random(SEED)
SEEDS = [SEED] + [_derive.randrange(1, 1 << 31) for _ in range(3)]

CREDENTIALS = Credentials("fakeMyKeyId", "fakeSecretAccessKey")


# ---- talking to a server ------------------------------------------------------------------

class Server:
    """One endpoint, over one kept-alive connection; requests signed as an SDK signs them, the
    body sent as written here (no client-side validation in between)."""

    def __init__(self, url):
        self.url = url.rstrip("/")
        parts = urllib.parse.urlsplit(self.url)
        self.host, self.port = parts.hostname, parts.port
        self.conn = None

    def call(self, op, body):
        data = json.dumps(body).encode()
        request = AWSRequest(method="POST", url=self.url + "/", data=data, headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810." + op})
        SigV4Auth(CREDENTIALS, "dynamodb", "us-east-1").add_auth(request)
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            try:
                self.conn.request("POST", "/", body=data, headers=dict(request.headers.items()))
                response = self.conn.getresponse()
                raw = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        return response.status, json.loads(raw or b"{}")

    def close(self):
        if self.conn is not None:
            self.conn.close()


class Serve:
    """`dynotable-cli serve --port 0`, in memory."""

    def __init__(self):
        self.errfile = tempfile.TemporaryFile(mode="w+", prefix="dyno-serve-err-")
        self.proc = subprocess.Popen([CLI, "serve", "--port", "0"], stdout=subprocess.PIPE,
                                     stderr=self.errfile, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("listening on http://127.0.0.1:"):
            self.proc.kill()
            self.proc.wait()
            raise SystemExit("Bail out! first line of serve: %r, stderr: %s"
                             % (line, self.stderr()))
        self.url = line.split(" ", 2)[2].strip()

    def stderr(self):
        self.errfile.seek(0)
        return self.errfile.read()

    def died(self):
        status = self.proc.poll()
        if status is None:
            return None
        return "serve exited with status %d; its stderr:\n%s" % (status, self.stderr())

    def stop(self):
        self.proc.terminate()
        status = self.proc.wait(timeout=60)
        self.proc.stdout.close()
        return status


def shown(value):
    """JSON for a failure message, long strings cut ("x" * 2500 as <2500 x>)."""
    return re.sub(r"(.)\1{40,}", lambda m: "<%d %s>" % (len(m.group(0)), m.group(1)),
                  json.dumps(value))


# ---- comparing ----------------------------------------------------------------------------

def number(text):
    """A number by value: -0 is 0 (DynamoDB Local keeps the sign of a -0 it was sent)."""
    d = Decimal(text)
    return "0" if d == 0 else str(d.normalize())


def canonical(value):
    """A value in one comparable shape: numbers by value, sets sorted."""
    (t, x), = value.items()
    if t == "N":
        return {t: number(x)}
    if t == "NS":
        return {t: sorted(number(e) for e in x)}
    if t in ("SS", "BS"):
        return {t: sorted(x)}
    if t == "L":
        return {t: [canonical(e) for e in x]}
    if t == "M":
        return {t: {k: canonical(e) for k, e in x.items()}}
    return value


def canonical_item(item):
    return None if item is None else {k: canonical(v) for k, v in item.items()}


def item_order(item):
    """Items by key; projected ones (no key) by all they hold."""
    return (tuple((k, json.dumps(item.get(k), sort_keys=True)) for k in ("pk", "sk")),
            json.dumps(item, sort_keys=True))


def comparable(status, body):
    """What must agree in an answer (see the top of this file)."""
    if status != 200:
        kind = body.get("__type", "").rsplit("#", 1)[-1]
        out = {"error": kind}
        if "CancellationReasons" in body:
            out["CancellationReasons"] = [
                {"Code": r.get("Code"), **({"Item": canonical_item(r["Item"])}
                                           if "Item" in r else {})}
                for r in body["CancellationReasons"]]
        if "Item" in body:
            out["Item"] = canonical_item(body["Item"])
        return out
    out = dict(body)
    if isinstance(out.get("ConsumedCapacity"), list):
        out["ConsumedCapacity"] = sorted(out["ConsumedCapacity"], key=lambda c: c["TableName"])
    if "Attributes" in out:
        out["Attributes"] = canonical_item(out["Attributes"])
    if "Item" in out:
        out["Item"] = canonical_item(out["Item"])
    if "Items" in out:
        out["Items"] = sorted((canonical_item(i) for i in out["Items"]), key=item_order)
    if "Responses" in out:
        out["Responses"] = [{"Item": canonical_item(r["Item"])} if "Item" in r else r
                            for r in out["Responses"]]
    return out


def parse_path(text, names):
    """A document path of an expression as a tuple of names and list indexes."""
    out = []
    for part in text.split("."):
        name, _, rest = part.partition("[")
        out.append(names.get(name, name))
        for index in filter(None, rest.replace("]", "").split("[")):
            out.append(int(index))
    return tuple(out)


def value_at(item, path):
    v = {"M": item}
    for p in path:
        if isinstance(p, int):
            if "L" not in v or p >= len(v["L"]):
                return None
            v = v["L"][p]
        else:
            if "M" not in v or p not in v["M"]:
                return None
            v = v["M"][p]
    return v


def project(item, paths):
    """@item's elements at @paths, as a ProjectionExpression of them returns them."""
    tree = {}
    for path in paths:
        v = value_at(item, path)
        if v is None:
            continue
        node = tree
        for p in path[:-1]:
            node = node.setdefault(p, {})
        node[path[-1]] = ("value", v)

    def build(node):
        if isinstance(node, tuple):
            return node[1]
        if all(isinstance(k, int) for k in node):
            return {"L": [build(node[k]) for k in sorted(node)]}
        return {"M": {k: build(v) for k, v in node.items()}}

    return {k: build(v) for k, v in tree.items()}


# ---- the workload -------------------------------------------------------------------------

A_KEYS = ["a0", "a1", "a2", "a3"]
B_KEYS = [(p, s) for p in ("b0", "b1") for s in ("1", "2", "3")]
STRINGS = ["", "a", "ab", "abc", "b", "ba"]


class Tables:
    def __init__(self, suffix):
        self.a = "txdiff-a-" + suffix
        self.b = "txdiff-b-" + suffix

    def specs(self):
        return [
            dict(TableName=self.a, BillingMode="PAY_PER_REQUEST",
                 AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                       {"AttributeName": "g", "AttributeType": "S"}],
                 KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                 GlobalSecondaryIndexes=[{
                     "IndexName": "byG",
                     "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                     "Projection": {"ProjectionType": "ALL"}}]),
            dict(TableName=self.b, BillingMode="PAY_PER_REQUEST",
                 AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                       {"AttributeName": "sk", "AttributeType": "N"}],
                 KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                            {"AttributeName": "sk", "KeyType": "RANGE"}]),
        ]


class Expr:
    """Names and values of one expression (or of one action's expressions)."""

    def __init__(self, r):
        self.r = r
        self.values = {}
        self.names = {}

    def value(self, v):
        name = ":v%d" % len(self.values)
        self.values[name] = v
        return name

    def name(self, attr):
        if self.r.random() < 0.3:
            placeholder = "#" + attr
            self.names[placeholder] = attr
            return placeholder
        return attr

    def into(self, body):
        if self.values:
            body["ExpressionAttributeValues"] = self.values
        if self.names:
            body["ExpressionAttributeNames"] = self.names
        return body


class Gen:
    def __init__(self, seed, tables):
        self.r = random.Random(seed)
        self.seed = seed
        self.tokens = []
        self.t = tables

    def key(self, table=None):
        table = table or self.r.choice([self.t.a, self.t.b])
        if table == self.t.a:
            return table, {"pk": {"S": self.r.choice(A_KEYS)}}
        p, s = self.r.choice(B_KEYS)
        return table, {"pk": {"S": p}, "sk": {"N": s}}

    def number(self):
        k = self.r.random()
        if k < 0.85:
            return {"N": str(self.r.randint(-1, 5))}
        if k < 0.97:
            return {"N": self.r.choice(["1.5", "-0.25", "0.1", "2.50", "1e1", "-0"])}
        return {"N": self.r.choice(["9" * 38, "-" + "9" * 38, "1E+125", "1E-130"])}

    def item(self, table, key):
        item = dict(key)
        r = self.r
        if r.random() < 0.8:
            item["n"] = self.number()
        if r.random() < 0.6:
            item["s"] = {"S": r.choice(STRINGS)}
        if r.random() < 0.4:
            item["l"] = {"L": [self.number() for _ in range(r.randint(0, 3))]}
        if r.random() < 0.4:
            item["ss"] = {"SS": sorted(r.sample(["p", "q", "r"], r.randint(1, 3)))}
        if r.random() < 0.6:
            item["g"] = {"S": r.choice(["x", "y"])}
        if r.random() < 0.3:
            item["m"] = {"M": {"x": self.number(), "y": {"S": r.choice(STRINGS)}}}
            if r.random() < 0.3:
                del item["m"]["M"][r.choice(["x", "y"])]
        if r.random() < 0.2:
            item["ns"] = {"NS": sorted({str(r.randint(0, 4)) for _ in range(r.randint(1, 3))})}
        return item

    def condition(self, e, depth=0):
        r = self.r
        k = r.random()
        if depth == 0 and k < 0.15:
            return "(%s) %s (%s)" % (self.condition(e, 1), r.choice(["AND", "OR"]),
                                     self.condition(e, 1))
        if depth == 0 and k < 0.2:
            return "NOT %s" % self.condition(e, 1)
        k = r.random()
        if k < 0.04:
            return "%s %s %s" % (r.choice(["pk", "sk"]), r.choice(["=", "<>", ">"]),
                                 e.value(r.choice([{"S": "a1"}, {"S": "b0"}, {"N": "2"}])))
        if k < 0.06:
            return "begins_with(pk, %s)" % e.value({"S": r.choice(["a", "b0"])})
        if k < 0.07:
            fault = r.randrange(5)
            if fault == 0:
                return "n = :undefined"
            return ["#undefined = %s", "n = = %s", "size(n) > %s", "begins_with(n, %s)"][
                fault - 1] % e.value({"N": "1"})
        if k < 0.3:
            return "%s(%s)" % (r.choice(["attribute_exists", "attribute_not_exists"]),
                               e.name(r.choice(["pk", "n", "s", "l", "g"])))
        if k < 0.6:
            return "%s %s %s" % (e.name("n"), r.choice(["=", "<>", "<", "<=", ">", ">="]),
                                 e.value(self.number()))
        if k < 0.7:
            return "%s BETWEEN %s AND %s" % (e.name("n"), e.value({"N": "0"}),
                                             e.value(self.number()))
        if k < 0.8:
            return "begins_with(%s, %s)" % (e.name("s"), e.value({"S": r.choice(["a", "b"])}))
        if k < 0.9:
            return "size(%s) %s %s" % (e.name(r.choice(["s", "l", "ss"])),
                                       r.choice(["=", "<", ">="]),
                                       e.value({"N": str(r.randint(0, 3))}))
        if k < 0.85:
            return "contains(%s, %s)" % (e.name("ss"), e.value({"S": r.choice(["p", "q"])}))
        k = r.random()
        if k < 0.2:
            return "contains(%s, %s)" % (e.name(r.choice(["l", "s", "ns"])),
                                         e.value(r.choice([self.number(), {"S": "a"}])))
        if k < 0.4:
            return "attribute_type(%s, %s)" % (e.name(r.choice(["n", "m", "l", "s", "ns"])),
                                               e.value({"S": r.choice(["N", "S", "M", "L",
                                                                       "NS"])}))
        if k < 0.6:
            return "%s IN (%s, %s)" % (e.name("n"), e.value(self.number()),
                                       e.value(self.number()))
        if k < 0.8:
            return "%s.%s %s %s" % (e.name("m"), e.name("x"),
                                    r.choice(["=", "<", ">="]), e.value(self.number()))
        return "%s[%d] %s %s" % (e.name("l"), r.randint(0, 2), r.choice(["=", "<>", ">"]),
                                 e.value(self.number()))

    def update(self, e, table, invalid=False):
        r = self.r
        attrs = r.sample(["n", "s", "l", "ss", "g", "c", "m", "ns", "l2"], r.randint(1, 3))
        if "l" in attrs and "l2" in attrs:
            attrs.remove("l2")  # paths that overlap only where asked for
        clauses = {"SET": [], "ADD": [], "REMOVE": [], "DELETE": []}
        for a in attrs:
            k = r.random()
            if a == "n":
                if k < 0.3:
                    clauses["SET"].append("%s = %s + %s" % (
                        e.name("n"), "if_not_exists(%s, %s)" % (e.name("n"), e.value({"N": "0"})),
                        e.value(self.number())))
                elif k < 0.4:
                    clauses["SET"].append("%s = %s %s %s" % (e.name("n"), e.name("n"),
                                                             r.choice("+-"),
                                                             e.value(self.number())))
                elif k < 0.8:
                    clauses["ADD"].append("%s %s" % (e.name("n"), e.value(self.number())))
                else:
                    clauses["REMOVE"].append(e.name("n"))
            elif a == "s":
                if k < 0.7:
                    clauses["SET"].append("%s = %s" % (e.name("s"),
                                                       e.value({"S": r.choice(STRINGS)})))
                else:
                    clauses["REMOVE"].append(e.name("s"))
            elif a == "l":
                if k < 0.6:
                    one = e.value({"L": [self.number()]})
                    old = "if_not_exists(%s, %s)" % (e.name("l"), e.value({"L": []}))
                    parts = [old, one] if r.random() < 0.7 else [one, old]
                    clauses["SET"].append("%s = list_append(%s, %s)" % (e.name("l"), *parts))
                elif k < 0.8:
                    clauses["SET"].append("%s = %s" % (e.name("l"), e.value({"L": []})))
                else:
                    clauses["REMOVE"].append(e.name("l"))
            elif a == "ss":
                members = {"SS": sorted(r.sample(["p", "q", "r"], r.randint(1, 2)))}
                if k < 0.5:
                    clauses["ADD"].append("%s %s" % (e.name("ss"), e.value(members)))
                elif k < 0.8:
                    clauses["DELETE"].append("%s %s" % (e.name("ss"), e.value(members)))
                else:
                    clauses["REMOVE"].append(e.name("ss"))
            elif a == "g":
                if k < 0.7:
                    clauses["SET"].append("%s = %s" % (e.name("g"),
                                                       e.value({"S": r.choice(["x", "y"])})))
                else:
                    clauses["REMOVE"].append(e.name("g"))
            elif a == "m":
                if k < 0.3:
                    clauses["SET"].append("%s = %s" % (e.name("m"), e.value(
                        {"M": {"x": self.number()}})))
                elif k < 0.6:
                    clauses["SET"].append("%s.%s = %s" % (e.name("m"), e.name("y"),
                                                          e.value({"S": r.choice(STRINGS)})))
                elif k < 0.8:
                    clauses["SET"].append("m.x = m.x + %s" % e.value(self.number()))
                else:
                    clauses["REMOVE"].append("%s.%s" % (e.name("m"), r.choice(["x", "y"])))
            elif a == "ns":
                members = {"NS": sorted({str(r.randint(0, 4)) for _ in range(2)})}
                clauses["ADD" if k < 0.6 else "DELETE"].append("%s %s" % (e.name("ns"),
                                                                          e.value(members)))
            elif a == "l2":
                if k < 0.5:
                    clauses["SET"].append("%s[%d] = %s" % (e.name("l"), r.randint(0, 4),
                                                           e.value(self.number())))
                else:
                    clauses["REMOVE"].append("%s[%d]" % (e.name("l"), r.randint(0, 3)))
            else:
                clauses["ADD"].append("%s %s" % (e.name("c"), e.value({"N": "1"})))
        if invalid == "overlap":
            clauses["REMOVE"].append(e.name(r.choice(attrs if "l2" not in attrs else ["c"])))
        if invalid == "undefined":
            clauses["SET"].append("%s = :nope" % e.name("u"))
        if invalid == "key":
            self.invalid = "key"
            clauses["SET"].append("%s = %s" % (e.name("pk"), e.value({"S": "a0"})))
        self.paths = []
        for k, items in clauses.items():
            for c in items:
                path = c.split(" = ")[0] if k == "SET" else c.split(" ")[0]
                self.paths.append(parse_path(path, e.names))
        return " ".join("%s %s" % (k, ", ".join(c)) for k, c in clauses.items() if c)

    def capacity(self, body):
        k = self.r.random()
        if k < 0.35:
            body["ReturnConsumedCapacity"] = "TOTAL"
        elif k < 0.7:
            body["ReturnConsumedCapacity"] = "INDEXES"
        elif k < 0.8:
            body["ReturnConsumedCapacity"] = "NONE"
        return body

    def spoil(self, e):
        """An unused placeholder (a value or a name)."""
        if self.r.random() < 0.5:
            e.values[":unused"] = {"N": "1"}
        else:
            e.names["#unused"] = "zz"

    def write_action(self, table, key, invalid=None):
        r = self.r
        e = Expr(r)
        kind = r.choice(["Put", "Update", "Update", "Delete", "ConditionCheck"])
        if invalid in ("key", "overlap", "undefined"):
            kind = "Update"
        body = {"TableName": table}
        if kind == "Put":
            body["Item"] = self.item(table, key)
        else:
            body["Key"] = key
        if kind == "Update":
            body["UpdateExpression"] = self.update(e, table, invalid)
        if kind == "ConditionCheck" or r.random() < 0.35:
            body["ConditionExpression"] = self.condition(e)
            if r.random() < 0.4:
                body["ReturnValuesOnConditionCheckFailure"] = r.choice(["ALL_OLD", "ALL_OLD",
                                                                        "NONE"])
        if invalid == "unused":
            self.spoil(e)
        return {kind: e.into(body)}

    def transact_write(self):
        r = self.r
        n = r.choice([1, 1, 2, 2, 3, 4, 5, 6])
        keys = []
        while len(keys) < n:
            table, key = self.key()
            if (table, key) not in keys:
                keys.append((table, key))
        invalid = None
        if r.random() < 0.12:
            invalid = r.choice(["same", "unused", "key", "overlap", "undefined"])
        if invalid == "same":
            self.invalid = "same"
            keys.append(r.choice(keys))
            r.shuffle(keys)
        spoilt = r.randrange(len(keys))
        actions = [self.write_action(t, k, invalid if i == spoilt and invalid != "same"
                                     else None)
                   for i, (t, k) in enumerate(keys)]
        if invalid is None and r.random() < 0.03:
            # faults DynamoDB Local finds after the conditions (see the top of this file)
            self.invalid = "late"
            (kind, a), = r.choice(actions).items()
            if kind == "Put" and a["TableName"] == self.t.a:
                a["Item"]["g"] = {"N": "1"}
            else:
                a["Key"] = {"pk": {"N": "1"}}
                a.pop("Item", None)
                a.pop("UpdateExpression", None)
                a.setdefault("ConditionExpression", "attribute_exists(pk)")
                actions[actions.index({kind: a})] = {"ConditionCheck": a}
        elif invalid is None and r.random() < 0.03:
            (kind, a), = r.choice(actions).items()
            k = r.random()
            if k < 0.4:
                self.invalid = "missing"
                a["TableName"] += "-missing"
            elif k < 0.7 and kind == "ConditionCheck":
                self.invalid = "static"  # compared as it is; no token on it
                a.pop("ConditionExpression")
                a.pop("ExpressionAttributeValues", None)
                a.pop("ExpressionAttributeNames", None)
                a.pop("ReturnValuesOnConditionCheckFailure", None)
            else:
                self.invalid = "static"
                actions = []
        body = self.capacity({"TransactItems": actions})
        if r.random() < 0.1:
            body["ReturnItemCollectionMetrics"] = "SIZE"
        if self.tokens and r.random() < 0.08:
            token, previous, fault = r.choice(self.tokens)
            if r.random() < 0.6:
                self.invalid = fault
                return "TransactWriteItems", json.loads(json.dumps(previous))
            if invalid is not None or self.invalid:
                return "TransactWriteItems", body
            # the order DynamoDB finds a fault and a token of another request in is unknown:
            # the request is one without faults
            body["ClientRequestToken"] = token
            body.pop("ReturnConsumedCapacity", None)
        elif invalid is None and not self.invalid and r.random() < 0.08:
            # a repeated request is charged a read by DynamoDB, its first charge again by
            # DynamoDB Local (test_serve.py): these ask for no capacity
            # (unique to the run: DynamoDB Local remembers a token for its ten minutes)
            body["ClientRequestToken"] = "tok-%s-%d" % (self.t.a[-8:], len(self.tokens))
            body.pop("ReturnConsumedCapacity", None)
            self.tokens.append((body["ClientRequestToken"], json.loads(json.dumps(body)),
                                self.invalid))
        return "TransactWriteItems", body

    def transact_get(self):
        r = self.r
        gets = []
        for _ in range(r.randint(1, 4)):
            table, key = self.key()
            get = {"TableName": table, "Key": key}
            if r.random() < 0.3:
                e = Expr(r)
                get["ProjectionExpression"] = ", ".join(
                    e.name(a) if "." not in a and "[" not in a else a
                    for a in r.sample(["pk", "n", "s", "l", "g", "m.x", "m.y", "l[0]", "l[2]",
                                       "ss", "ns", "m"], r.randint(1, 3)))
                # (paths that overlap, "m, m.y", are refused: a ValidationException)
                e.into(get)
            gets.append({"Get": get})
        # a duplicate Get is refused as a whole; otherwise leave duplicates out
        seen, unique = set(), []
        for g in gets:
            k = json.dumps([g["Get"]["TableName"], g["Get"]["Key"]], sort_keys=True)
            if k not in seen:
                seen.add(k)
                unique.append(g)
        if r.random() < 0.05:
            unique.append(r.choice(unique))
        return "TransactGetItems", self.capacity({"TransactItems": unique})

    def single_write(self):
        r = self.r
        table, key = self.key()
        e = Expr(r)
        op = r.choice(["PutItem", "UpdateItem", "UpdateItem", "DeleteItem"])
        body = {"TableName": table}
        if op == "PutItem":
            body["Item"] = self.item(table, key)
            if r.random() < 0.05:
                # over a KB, some (capacity in units of 1 KB written, 4 KB read)
                body["Item"]["s"] = {"S": "x" * r.choice([900, 1100, 2500, 4200])}
            returns = ["NONE", "ALL_OLD"]
        else:
            body["Key"] = key
            returns = ["NONE", "ALL_OLD"]
        if op == "UpdateItem":
            invalid = (r.choice(["key", "overlap", "undefined"]) if r.random() < 0.1
                       else False)
            body["UpdateExpression"] = self.update(e, table, invalid)
            k = r.random()
            if k < 0.08:
                # the index key of another type, or an operand of a wrong type, alone
                self.invalid = None
                e.values.clear()
                e.names.clear()
                if k < 0.04:
                    path = "g"
                    body["UpdateExpression"] = "SET g = %s" % e.value(
                        r.choice([{"N": "1"}, {"S": ""}, {"SS": ["x"]}]))
                else:
                    path = r.choice(["s", "l", "ss", "m"])
                    body["UpdateExpression"] = "ADD %s %s" % (path, e.value(self.number()))
                self.paths = [(path,)]
        elif op == "PutItem" and r.random() < 0.04:
            body["Item"]["g"] = r.choice([{"N": "1"}, {"S": ""}])
            returns += ["UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"]
        if r.random() < 0.7:
            body["ConditionExpression"] = self.condition(e)
            if r.random() < 0.4:
                body["ReturnValuesOnConditionCheckFailure"] = r.choice(["ALL_OLD", "NONE"])
        if r.random() < 0.7:
            body["ReturnValues"] = r.choice(returns)
            if op != "UpdateItem" and r.random() < 0.03:
                body["ReturnValues"] = r.choice(["ALL_NEW", "UPDATED_OLD", "ALL"])
        if r.random() < 0.04:
            self.spoil(e)
        return op, self.capacity(e.into(body))

    def scan(self):
        r = self.r
        body = {"TableName": r.choice([self.t.a, self.t.b])}
        if body["TableName"] == self.t.a and r.random() < 0.4:
            body["IndexName"] = "byG"
        e = Expr(r)
        if r.random() < 0.3:
            body["FilterExpression"] = self.condition(e)
        k = r.random()
        if k < 0.2:
            body["ProjectionExpression"] = ", ".join(
                e.name(a) for a in r.sample(["pk", "sk", "n", "s", "g", "l"], r.randint(1, 3)))
        elif k < 0.3:
            body["Select"] = "COUNT"
        e.into(body)
        return "Scan", self.capacity(body)

    def operation(self):
        """(operation, request body); self.invalid names a fault DynamoDB Local sees late."""
        self.invalid = None
        k = self.r.random()
        if k < 0.5:
            return self.transact_write()
        if k < 0.62:
            return self.transact_get()
        if k < 0.95:
            return self.single_write()
        return self.scan()


# ---- DynamoDB's capacity for a transaction (see the top of this file) ---------------------

def expected_tx_capacity(body, before, after, tables):
    """ConsumedCapacity of a TransactWriteItems that succeeded, as DynamoDB charges it, from
    the items @before and @after it (dicts (table, key json) -> item); every item here is
    under 1 KB."""
    mode = body.get("ReturnConsumedCapacity", "NONE")
    if mode == "NONE":
        return None
    per_table, per_index = {}, {}
    for action in body["TransactItems"]:
        (kind, a), = action.items()
        key = a.get("Key") or {k: v for k, v in a["Item"].items() if k in ("pk", "sk")}
        k = (a["TableName"], json.dumps(key, sort_keys=True))
        if any(len(json.dumps(i)) > 600 for i in (before.get(k), after.get(k), a) if i):
            return "unknown"
        (kind, a), = action.items()
        table = a["TableName"]
        per_table[table] = per_table.get(table, 0) + 2.0
        key = a.get("Key") or {k: v for k, v in a["Item"].items() if k in ("pk", "sk")}
        if table == tables.a and kind != "ConditionCheck":
            old = before.get((table, json.dumps(key, sort_keys=True)))
            new = after.get((table, json.dumps(key, sort_keys=True)))
            old_entry = old if old and "g" in old else None
            new_entry = new if new and "g" in new else None
            moved = old_entry and new_entry and old_entry["g"] != new_entry["g"]
            writes = 0
            if old_entry and (not new_entry or moved):
                writes += 1
            if new_entry and (not old_entry or moved or old_entry != new_entry):
                writes += 1
            if writes:
                per_index[table] = per_index.get(table, 0) + 2.0 * writes
    out = []
    for table, units in per_table.items():
        cap = {"TableName": table, "CapacityUnits": units + per_index.get(table, 0)}
        if mode == "INDEXES":
            cap["Table"] = {"CapacityUnits": units}
            if table in per_index:
                cap["GlobalSecondaryIndexes"] = {"byG": {"CapacityUnits": per_index[table]}}
        out.append(cap)
    return sorted(out, key=lambda c: c["TableName"])


# ---- a run --------------------------------------------------------------------------------

def scan_all(server, table):
    items, start = [], None
    while True:
        body = {"TableName": table}
        if start:
            body["ExclusiveStartKey"] = start
        status, answer = server.call("Scan", body)
        if status != 200:
            return "Scan of %s: %d %s" % (table, status, json.dumps(answer))
        items += answer.get("Items", [])
        start = answer.get("LastEvaluatedKey")
        if not start:
            return sorted((canonical_item(i) for i in items), key=item_order)


def contents(server, tables):
    return {t: scan_all(server, t) for t in (tables.a, tables.b)}


def by_key(snapshot):
    out = {}
    for table, items in snapshot.items():
        for item in items:
            key = {k: item[k] for k in ("pk", "sk") if k in item}
            out[(table, json.dumps(key, sort_keys=True))] = item
    return out


def run_seed(seed, ours, theirs, serve):
    tables = Tables(uuid.uuid4().hex[:8])
    for server in (ours, theirs):
        for spec in tables.specs():
            status, answer = server.call("CreateTable", spec)
            if status != 200:
                return ["CreateTable on %s: %s" % (server.url, json.dumps(answer))], {}
    g = Gen(seed, tables)
    counts = {}
    bad = []
    try:
        before = contents(ours, tables)
        for n in range(OPS):
            op, body = g.operation()
            mine_raw = ours.call(op, body)
            local_raw = theirs.call(op, body)
            mine, local = comparable(*mine_raw), comparable(*local_raw)
            label = op + ("" if "error" not in mine else " " + mine["error"])
            counts[label] = counts.get(label, 0) + 1
            after = contents(ours, tables)
            if op == "TransactWriteItems" and "error" not in mine and "error" not in local:
                expected = expected_tx_capacity(body, by_key(before), by_key(after), tables)
                if expected == "unknown":
                    local["ConsumedCapacity"] = mine.get("ConsumedCapacity")
                elif expected is not None:
                    local["ConsumedCapacity"] = expected
            if (op == "UpdateItem" and body.get("ReturnValues") in ("UPDATED_OLD", "UPDATED_NEW")
                    and "Attributes" in local):
                local["Attributes"] = project(local["Attributes"], g.paths) or None
                if local["Attributes"] is None:
                    del local["Attributes"]
            if body.get("ReturnConsumedCapacity", "NONE") == "NONE":
                local.pop("ConsumedCapacity", None)
            if (op == "Scan" and local.get("ScannedCount") == 0
                    and "ConsumedCapacity" in local):
                cap = local["ConsumedCapacity"]
                if cap["CapacityUnits"] == 0.0:
                    cap["CapacityUnits"] = 0.5
                    if "IndexName" in body and "GlobalSecondaryIndexes" in cap:
                        cap["GlobalSecondaryIndexes"][body["IndexName"]]["CapacityUnits"] = 0.5
                    elif "Table" in cap:
                        cap["Table"]["CapacityUnits"] = 0.5
            if (g.invalid == "missing"
                    and mine.get("error") in ("ResourceNotFoundException", "ValidationException")
                    and local.get("error") in ("ResourceNotFoundException", "ValidationException",
                                               "TransactionCanceledException")):
                local = mine
            if g.invalid in ("same", "key", "late") and local.get("error") in (
                    "ValidationException",
                    "TransactionCanceledException", "ConditionalCheckFailedException"):
                local = {"error": "ValidationException"}
            if (local.get("error") == "ValidationException"
                    and mine.get("error") == "TransactionCanceledException"
                    and any(r["Code"] == "ValidationError" for r in mine["CancellationReasons"])):
                mine = {"error": "ValidationException"}
            if mine != local:
                bad.append("seed %d, operation %d: %s %s\n  engine: %s\n  DynamoDB Local: %s"
                           "\n  (as sent: %s\n   and %s)"
                           % (seed, n, op, shown(body), shown(mine), shown(local),
                              shown(mine_raw), shown(local_raw)))
                break
            theirs_after = contents(theirs, tables)
            if after != theirs_after:
                bad.append("seed %d, after operation %d: %s %s\n  engine's tables: %s\n"
                           "  DynamoDB Local's tables: %s"
                           % (seed, n, op, shown(body), shown(after), shown(theirs_after)))
                break
            before = after
            gone = serve.died()
            if gone:
                bad.append(gone)
                break
    finally:
        for server in (ours, theirs):
            for t in (tables.a, tables.b):
                server.call("DeleteTable", {"TableName": t})
    return bad, counts


def main():
    print("# seeds %s (DYNO_TX_SEED=%d), %d operations each" % (SEEDS, SEED, OPS), flush=True)
    serve = Serve()
    ours, theirs = Server(serve.url), Server(ENDPOINT)
    failed = 0
    try:
        for n, seed in enumerate(SEEDS, 1):
            started = time.monotonic()
            bad, counts = run_seed(seed, ours, theirs, serve)
            print("%s %d - seed %d: the engine agrees with DynamoDB Local (%s; %.1f s)"
                  % ("not ok" if bad else "ok", n, seed,
                     ", ".join("%s %d" % kv for kv in sorted(counts.items())),
                     time.monotonic() - started), flush=True)
            for line in "\n".join(bad).splitlines():
                print("# " + line, flush=True)
            failed += bool(bad)
    finally:
        ours.close()
        theirs.close()
        status = serve.stop() if serve.died() is None else None
    print("1..%d" % len(SEEDS))
    if status not in (0, None):
        print("# serve exited with status %s; its stderr:\n# %s"
              % (status, serve.stderr().replace("\n", "\n# ")))
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
