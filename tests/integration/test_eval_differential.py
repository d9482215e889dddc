"""The engine's evaluator against DynamoDB Local, on generated conditions, updates, projections.

Each case is a random item, a random ConditionExpression or UpdateExpression and its
expression attribute values (seeded, so a run is repeatable).  DynamoDB Local answers it through
UpdateItem (a condition guards a harmless SET; an update returns ALL_NEW); the evaluator answers
it through tests/integration/eval-driver.  They must agree:

- conditions: the same outcome (true, false or an error), and for an error the same message;
- projections: the same item (GetItem with a ProjectionExpression), or both refused;
- updates: the same outcome and the same new item.  When an update is refused, only the fact is
  compared: with several faults in one update, the fault DynamoDB Local names first follows an
  order of its own (neither written nor alphabetical order), while the evaluator names the
  first it meets; the messages of single faults are in tests/unit/test-eval.c.

Known difference, not counted: DynamoDB Local prints a binary bound in a BETWEEN message as a
Java object ("java.nio.HeapByteBuffer[...]"); the evaluator prints its base64.

Run by meson as  with-ddb-local.sh /usr/bin/python3 test_eval_differential.py EVAL_DRIVER
Prints TAP.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import base64
import json
import os
import random
import subprocess
import sys
import uuid
from decimal import Decimal, getcontext

import boto3
from botocore.exceptions import ClientError

getcontext().prec = 60

ENDPOINT = os.environ["DYNO_TEST_ENDPOINT"]
DRIVER = sys.argv[1]
TABLE = "eval-diff-" + uuid.uuid4().hex[:8]
CASES = 250

ddb = boto3.client("dynamodb", endpoint_url=ENDPOINT, region_name="us-east-1",
                   aws_access_key_id="fakeMyKeyId", aws_secret_access_key="fakeSecretAccessKey")

STRINGS = ["", "a", "ab", "b", "ba", "Z", "\u00e9", "\U0001F600"]
NUMBERS = ["0", "1", "-1", "1.5", "10", "1e2", "100", "-0.5"]
BINARIES = ["", "AQ==", "AQI=", "Ag==", "/w=="]
TYPE_NAMES = ["S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def scalar(self):
        k = self.r.choice("SSNNBX")
        if k == "S":
            return {"S": self.r.choice(STRINGS)}
        if k == "N":
            return {"N": self.r.choice(NUMBERS)}
        if k == "B":
            return {"B": self.r.choice(BINARIES)}
        return self.r.choice([{"BOOL": True}, {"BOOL": False}, {"NULL": True}])

    def value(self, depth=0):
        k = self.r.random()
        if k < 0.55 or depth > 1:
            return self.scalar()
        if k < 0.65:
            return {"L": [self.value(depth + 1) for _ in range(self.r.randint(0, 3))]}
        if k < 0.75:
            return {"M": {n: self.value(depth + 1)
                          for n in self.r.sample(["x", "y", "z"], self.r.randint(0, 2))}}
        if k < 0.83:
            return {"SS": sorted(set(self.r.sample(STRINGS, self.r.randint(1, 3))))}
        if k < 0.91:
            members = []
            for n in self.r.sample(NUMBERS, self.r.randint(1, 3)):
                if all(Decimal(n) != Decimal(m) for m in members):
                    members.append(n)
            return {"NS": members}
        return {"BS": sorted(set(self.r.sample(BINARIES, self.r.randint(1, 3))))}

    def loose_item(self):
        return {n: self.value() for n in self.r.sample(["a", "b", "c"], self.r.randint(0, 3))}

    def shaped_item(self):
        """An item the update paths below mostly fit, so that many updates succeed."""
        n = lambda: {"N": self.r.choice(NUMBERS)}  # noqa: E731
        item = {"a": {"M": {"x": {"L": [n(), n(), self.scalar()]}, "y": self.scalar()}},
                "b": {"L": [{"M": {"x": n()}}, self.scalar(), {"SS": ["a", "b"]}]},
                "c": self.r.choice([n(), {"NS": ["1", "2"]}, {"SS": ["a"]},
                                    {"L": [self.scalar()]}, self.scalar()])}
        for name in self.r.sample(["a", "b", "c"], self.r.randint(0, 1)):
            del item[name]
        return item


class Values:
    def __init__(self):
        self.values = {}

    def add(self, value):
        name = ":v%d" % len(self.values)
        self.values[name] = value
        return name


COND_PATHS = ["a", "b", "c", "a.x", "a[0]", "a[1]", "b.y", "b[0].x", "a.x[0]"]


def gen_operand(g, v):
    k = g.r.random()
    if k < 0.45:
        return g.r.choice(COND_PATHS)
    if k < 0.85:
        return v.add(g.value())
    return "size(%s)" % g.r.choice(COND_PATHS)


def gen_condition(g, v, depth=0):
    k = g.r.random()
    if depth < 2 and k < 0.15:
        return "(%s) AND (%s)" % (gen_condition(g, v, depth + 1), gen_condition(g, v, depth + 1))
    if depth < 2 and k < 0.25:
        return "(%s) OR (%s)" % (gen_condition(g, v, depth + 1), gen_condition(g, v, depth + 1))
    if depth < 2 and k < 0.3:
        return "NOT (%s)" % gen_condition(g, v, depth + 1)
    k = g.r.random()
    if k < 0.4:
        return "%s %s %s" % (gen_operand(g, v), g.r.choice(["=", "<>", "<", "<=", ">", ">="]),
                             gen_operand(g, v))
    if k < 0.5:
        return "%s BETWEEN %s AND %s" % (gen_operand(g, v), gen_operand(g, v), gen_operand(g, v))
    if k < 0.6:
        return "%s IN (%s)" % (gen_operand(g, v),
                               ", ".join(gen_operand(g, v) for _ in range(g.r.randint(1, 3))))
    path = g.r.choice(COND_PATHS)
    f = g.r.choice(["attribute_exists", "attribute_not_exists", "attribute_type", "begins_with",
                    "contains"])
    if f in ("attribute_exists", "attribute_not_exists"):
        return "%s(%s)" % (f, path)
    if f == "attribute_type":
        return "attribute_type(%s, %s)" % (path, v.add({"S": g.r.choice(TYPE_NAMES)}))
    if f == "begins_with":
        k = g.r.random()
        second = (v.add({"S": g.r.choice(STRINGS)}) if k < 0.4
                  else v.add({"B": g.r.choice(BINARIES)}) if k < 0.7
                  else g.r.choice(COND_PATHS))
        return "begins_with(%s, %s)" % (path, second)
    return "contains(%s, %s)" % (path, gen_operand(g, v) if g.r.random() < 0.3
                                 else v.add(g.scalar()))


UPDATE_PATHS = ["a.x", "a.y", "a.z", "a.x[0]", "a.x[1]", "a.x[2]", "a.x[7]", "b[0]", "b[1]",
                "b[2]", "b[0].x", "b[0].w", "b[9]", "c", "d", "e", "a", "b"]


def gen_update_operand(g, v, depth=0):
    k = g.r.random()
    if k < 0.3:
        return v.add(g.r.choice([{"N": g.r.choice(NUMBERS)}, {"L": [g.scalar()]}, g.value(),
                                 {"SS": ["z"]}]))
    if k < 0.5:
        return g.r.choice(UPDATE_PATHS)
    if depth == 0 and k < 0.7:
        return "%s %s %s" % (gen_update_operand(g, v, 1), g.r.choice("+-"),
                             gen_update_operand(g, v, 1))
    if depth == 0 and k < 0.85:
        return "if_not_exists(%s, %s)" % (g.r.choice(UPDATE_PATHS), gen_update_operand(g, v, 1))
    if depth == 0:
        return "list_append(%s, %s)" % (g.r.choice(["a.x", "b", "c", "d"]),
                                        v.add({"L": [g.scalar()]}))
    return v.add({"N": g.r.choice(NUMBERS)})


def gen_update(g, v, overlapping):
    clauses = {"SET": [], "REMOVE": [], "ADD": [], "DELETE": []}
    used = []
    for _ in range(g.r.randint(1, 4)):
        action = g.r.choice(["SET", "SET", "REMOVE", "ADD", "DELETE"])
        path = g.r.choice(UPDATE_PATHS)
        inside = lambda p, q: p == q or p.startswith(q + ".") or p.startswith(q + "[")  # noqa
        if not overlapping and any(inside(path, q) or inside(q, path) for q in used):
            continue
        used.append(path)
        if action == "SET":
            clauses[action].append("%s = %s" % (path, gen_update_operand(g, v)))
        elif action == "REMOVE":
            clauses[action].append(path)
        elif action == "ADD":
            clauses[action].append("%s %s" % (path, v.add(g.r.choice(
                [{"N": g.r.choice(NUMBERS)}, {"NS": ["1", "3"]}, {"SS": ["a", "q"]}, g.value()]))))
        else:
            clauses[action].append("%s %s" % (path, v.add(g.r.choice(
                [{"SS": ["a"]}, {"NS": ["1"]}, {"SS": ["b", "x"]}, g.value()]))))
    text = " ".join("%s %s" % (k, ", ".join(c)) for k, c in clauses.items() if c)
    return text or "REMOVE zz"


PROJECTION_PATHS = ["a", "b", "c", "a.x", "a.y", "a.x[0]", "a.x[1]", "a.x[2]", "a.x[7]", "b[0]",
                    "b[1]", "b[2]", "b[0].x", "b[0].w", "b[9]", "pk", "d"]


def gen_projection(g):
    return ", ".join(g.r.sample(PROJECTION_PATHS, g.r.randint(1, 4)))


# ---- talking to both ----------------------------------------------------------------------

def to_boto(value):
    (t, x), = value.items()
    if t == "B":
        return {t: base64.b64decode(x)}
    if t == "BS":
        return {t: [base64.b64decode(e) for e in x]}
    if t == "L":
        return {t: [to_boto(e) for e in x]}
    if t == "M":
        return {t: {k: to_boto(e) for k, e in x.items()}}
    return value


def canonical(value):
    """A value in one comparable shape: numbers by value, sets sorted, binaries in base64."""
    (t, x), = value.items()
    b64 = lambda e: base64.b64encode(e).decode() if isinstance(e, bytes) else e  # noqa: E731
    if t == "N":
        return {t: str(Decimal(x).normalize())}
    if t == "B":
        return {t: b64(x)}
    if t == "NS":
        return {t: sorted(str(Decimal(e).normalize()) for e in x)}
    if t == "SS":
        return {t: sorted(x)}
    if t == "BS":
        return {t: sorted(b64(e) for e in x)}
    if t == "L":
        return {t: [canonical(e) for e in x]}
    if t == "M":
        return {t: {k: canonical(e) for k, e in x.items()}}
    return value


def canonical_item(item):
    return {k: canonical(v) for k, v in item.items() if k != "pk"}


def message(e):
    return e.response.get("Error", {}).get("Message", "")


def local_condition(item, expr, values):
    key = {"pk": {"S": "c"}}
    ddb.put_item(TableName=TABLE, Item={**{k: to_boto(v) for k, v in item.items()}, **key})
    try:
        ddb.update_item(TableName=TABLE, Key=key, ConditionExpression=expr,
                        UpdateExpression="SET #probe = :probe",
                        ExpressionAttributeNames={"#probe": "probe"},
                        ExpressionAttributeValues={":probe": {"N": "1"},
                                                   **{k: to_boto(x) for k, x in values.items()}})
        return "true"
    except ClientError as e:
        if e.response["Error"]["Code"] == "ConditionalCheckFailedException":
            return "false"
        return "ERR " + message(e)


def local_update(item, expr, values):
    key = {"pk": {"S": "u"}}
    ddb.put_item(TableName=TABLE, Item={**{k: to_boto(v) for k, v in item.items()}, **key})
    kw = dict(TableName=TABLE, Key=key, UpdateExpression=expr, ReturnValues="ALL_NEW")
    if values:
        kw["ExpressionAttributeValues"] = {k: to_boto(x) for k, x in values.items()}
    try:
        return ddb.update_item(**kw).get("Attributes", {})
    except ClientError as e:
        return "ERR " + message(e)


def local_projection(item, expr):
    key = {"pk": {"S": "p"}}
    ddb.put_item(TableName=TABLE, Item={**{k: to_boto(v) for k, v in item.items()}, **key})
    try:
        got = ddb.get_item(TableName=TABLE, Key=key, ProjectionExpression=expr).get("Item", {})
        got.pop("pk", None)
        return got
    except ClientError as e:
        return "ERR " + message(e)


class Driver:
    def __init__(self):
        self.proc = subprocess.Popen([DRIVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, encoding="utf-8")

    def ask(self, mode, item, expr, values):
        self.proc.stdin.write("%s\t%s\t%s\t%s\n" % (mode, json.dumps(item), expr,
                                                    json.dumps(values)))
        self.proc.stdin.flush()
        return self.proc.stdout.readline().rstrip("\n")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


# ---- the runs -----------------------------------------------------------------------------

def run_conditions(driver, seed):
    g = Gen(seed)
    bad, true_count = [], 0
    for _ in range(CASES):
        v = Values()
        item = g.loose_item()
        expr = gen_condition(g, v)
        ours = driver.ask("cond", item, expr, v.values)
        theirs = local_condition(item, expr, v.values)
        true_count += ours == "true"
        if ours == theirs:
            continue
        if (ours.startswith("ERR ") and theirs.startswith("ERR ")
                and "java.nio.HeapByteBuffer" in theirs):
            continue
        bad.append("%s on %s with %s:\n  engine: %s\n  DynamoDB Local: %s"
                   % (expr, json.dumps(item), json.dumps(v.values), ours, theirs))
    return bad, "%d of %d true" % (true_count, CASES)


def run_updates(driver, seed, shaped):
    g = Gen(seed)
    bad, done = [], 0
    for _ in range(CASES):
        v = Values()
        item = g.shaped_item() if shaped else g.loose_item()
        expr = gen_update(g, v, overlapping=not shaped)
        ours = driver.ask("update", {**item, "pk": {"S": "u"}}, expr, v.values)
        theirs = local_update(item, expr, v.values)
        if ours.startswith(("ERR ", "PARSE ")):
            same = isinstance(theirs, str)
        else:
            done += 1
            same = (not isinstance(theirs, str)
                    and canonical_item(json.loads(ours)) == canonical_item(theirs))
        if not same:
            bad.append("%s on %s with %s:\n  engine: %s\n  DynamoDB Local: %s"
                       % (expr, json.dumps(item), json.dumps(v.values), ours,
                          theirs if isinstance(theirs, str) else json.dumps(canonical_item(theirs))))
    return bad, "%d of %d applied" % (done, CASES)


def run_projections(driver, seed):
    g = Gen(seed)
    bad, kept = [], 0
    for _ in range(CASES):
        item = g.shaped_item()
        expr = gen_projection(g)
        ours = driver.ask("project", {**item, "pk": {"S": "p"}}, expr, {})
        theirs = local_projection(item, expr)
        if ours.startswith(("ERR ", "PARSE ")):
            same = isinstance(theirs, str)
        else:
            mine = canonical_item(json.loads(ours))
            kept += bool(mine)
            same = not isinstance(theirs, str) and mine == canonical_item(theirs)
        if not same:
            bad.append("%s on %s:\n  engine: %s\n  DynamoDB Local: %s"
                       % (expr, json.dumps(item), ours,
                          theirs if isinstance(theirs, str) else json.dumps(canonical_item(theirs))))
    return bad, "%d of %d with attributes" % (kept, CASES)


def main():
    ddb.create_table(TableName=TABLE, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     BillingMode="PAY_PER_REQUEST")
    driver = Driver()
    runs = [
        ("conditions, seed 1", lambda: run_conditions(driver, 1)),
        ("conditions, seed 2", lambda: run_conditions(driver, 2)),
        ("updates on shaped items, seed 1", lambda: run_updates(driver, 1, True)),
        ("updates on shaped items, seed 2", lambda: run_updates(driver, 2, True)),
        ("updates on loose items, overlapping paths allowed, seed 3",
         lambda: run_updates(driver, 3, False)),
        ("projections, seed 1", lambda: run_projections(driver, 1)),
    ]
    failed = 0
    try:
        for n, (name, run) in enumerate(runs, 1):
            bad, summary = run()
            print("%s %d - %s agree with DynamoDB Local (%s)"
                  % ("not ok" if bad else "ok", n, name, summary), flush=True)
            for line in "\n".join(bad[:10]).splitlines():
                print("# " + line, flush=True)
            failed += bool(bad)
    finally:
        driver.close()
        ddb.delete_table(TableName=TABLE)
    print("1..%d" % len(runs))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
