#!/usr/bin/python3
# bench-serve.py: BatchWriteItem and Query throughput through `dynotable-cli serve`, and the
# server's CPU time; with DYNO_TEST_ENDPOINT (tests/fixtures/with-ddb-local.sh) the same
# workload against DynamoDB Local in the same run.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   tests/fixtures/with-ddb-local.sh /usr/bin/python3 tests/bench/bench-serve.py \
#       _build/src/cli/dynotable-cli [ITEMS [WORKERS]]
#
# serve runs twice: on a workspace file (`serve.*`, durable) and in memory (`serve_memory.*`,
# as DynamoDB Local runs in the fixture, -inMemory).  Prints `name value unit` lines, and with
# DynamoDB Local `ratio.*` (serve on a file) and `ratio_memory.*` (both in memory).  Three clients: boto3 (what a user runs; its own cost is
# part of the figure), a raw keep-alive HTTP client posting prepared bodies (closer to the
# server's own cost; for Query also "lean": reading only Count from the answer's text, unless
# there is a LastEvaluatedKey, so that the client's JSON parsing is not the ceiling), and WORKERS (default 4) such raw clients in processes of their own, each
# with its own connection, so that the figure is not one Python process's ceiling.  Beside
# each figure, the server's CPU time per item: user + system of its whole process tree, from
# /proc (DynamoDB Local's java process: DYNO_TEST_ENDPOINT_PID from the fixture, else the
# process listening on the endpoint's port).  On a machine shared with other work the
# wall-clock figures move with it; the CPU times much less.

import json
import multiprocessing
import re
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchraw  # noqa: E402


def _stat(pid):
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()


def cpu_seconds(pid):
    """User + system time of @pid and of every process below it (and of those it reaped)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                children.setdefault(int(_stat(int(entry))[1]), []).append(int(entry))
            except (OSError, IndexError):
                pass
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            fields = _stat(p)
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15])   # utime stime cutime cstime
        todo += children.get(p, [])
    return total / os.sysconf("SC_CLK_TCK")


def listener_pid(url):
    """The process that listens on @url's port (for a server started by someone else)."""
    port = urllib.parse.urlparse(url).port
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    parts = line.split()
                    if parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                        inodes.add("socket:[%s]" % parts[9])
        except OSError:
            pass
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            for fd in os.listdir("/proc/%s/fd" % entry):
                if os.readlink("/proc/%s/fd/%s" % (entry, fd)) in inodes:
                    return int(entry)
        except OSError:
            continue
    return None


COUNT = re.compile(rb'"Count":\s*(\d+)')


def Raw(url):
    return benchraw.Raw(url, timeout=120, access_key="fakeKey")


def item(i):
    return {"pk": {"S": "user#%d" % (i % 100)}, "sk": {"S": "order#%08d" % i},
            "total": {"N": "%d.%02d" % (i, i % 100)}, "status": {"S": "open"},
            "note": {"S": "x" * 120}}


def _worker(url, bodies, op, barrier, results):
    raw = Raw(url)
    raw.call("ListTables", {})          # the connection is open before the clock starts
    barrier.wait()
    count = 0
    for body in bodies:
        r = raw.call(op, body)
        count += r.get("Count", 0)
        if r.get("UnprocessedItems"):
            raise RuntimeError("unprocessed items")
    results.put((time.perf_counter(), count))


def concurrent(url, op, shares):
    """Runs each share of bodies in a process of its own; (wall seconds, Count total)."""
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(len(shares) + 1)
    results = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(url, share, op, barrier, results))
             for share in shares]
    for p in procs:
        p.start()
    barrier.wait()
    start = time.perf_counter()
    got = [results.get() for _ in procs]
    for p in procs:
        p.join()
        if p.exitcode != 0:
            raise RuntimeError("a worker failed")
    return max(end for end, _ in got) - start, sum(c for _, c in got)


def create_table(raw, table):
    """@table (pk S, sk S, on demand), made through @raw."""
    raw.call("CreateTable", {
        "TableName": table, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}]})


def warm_up(url, n):
    """The timed phases' requests, fewer and not timed, on a table of their own: a JVM's JIT
    (DynamoDB Local) compiles its hot paths during the first tens of thousands of requests,
    and the figures are to be the steady state of both servers, not a cold start."""
    raw = Raw(url)
    table = "warm-%s" % uuid.uuid4().hex[:8]
    create_table(raw, table)
    for s in range(0, n, 25):
        raw.call("BatchWriteItem", {"RequestItems": {table: [
            {"PutRequest": {"Item": item(i)}} for i in range(s, min(s + 25, n))]}})
    for _ in range(3):
        for p in range(100):
            raw.call("Query", {"TableName": table, "KeyConditionExpression": "pk = :p",
                               "ExpressionAttributeValues": {":p": {"S": "user#%d" % p}}})
    raw.call("DeleteTable", {"TableName": table})


def workload(name, url, n, workers, pid=None):
    import boto3
    out = []
    table = "bench-%s" % uuid.uuid4().hex[:8]
    raw = Raw(url)
    create_table(raw, table)
    c = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                     aws_access_key_id="fakeKey", aws_secret_access_key="fakeSecret")

    def timed(label, fn, count):
        cpu0 = cpu_seconds(pid) if pid else None
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        out.append(("%s.%s" % (name, label), count / dt, "items/s"))
        if pid:
            out.append(("%s.%s.server_cpu" % (name, label),
                        (cpu_seconds(pid) - cpu0) * 1e6 / count, "us/item"))

    half = n // 2
    batches = [json.dumps({"RequestItems": {table: [{"PutRequest": {"Item": item(i)}}
                                                    for i in range(s, min(s + 25, half))]}}).encode()
               for s in range(0, half, 25)]
    timed("batch_write.raw", lambda: [raw.call("BatchWriteItem", b) for b in batches], half)

    def boto_writes():
        for s in range(half, n, 25):
            c.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": item(i)}}
                                                     for i in range(s, min(s + 25, n))]})
    timed("batch_write.boto3", boto_writes, n - half)

    def query_all(call):
        got = 0
        for p in range(100):
            start = None
            while True:
                body = {"TableName": table, "KeyConditionExpression": "pk = :p",
                        "ExpressionAttributeValues": {":p": {"S": "user#%d" % p}}}
                if start:
                    body["ExclusiveStartKey"] = start
                r = call(body)
                got += r["Count"]
                start = r.get("LastEvaluatedKey")
                if not start:
                    break
        assert got == n, (got, n)

    timed("query.raw", lambda: query_all(lambda b: raw.call("Query", b)), n)

    def lean(body):
        # the client that costs least: the answer's Count read from its text, looked for
        # around the Items array (the answer's other members are before or after it, whatever
        # their order) rather than through it; the answer is parsed only when it has a
        # LastEvaluatedKey there, or when Count is not found there.  query_all() checks the
        # total, so a page misread would not pass unnoticed.
        payload = raw.call_bytes("Query", body)
        ends = (payload[:512], payload[-512:])
        if any(b'"LastEvaluatedKey"' in end for end in ends):
            return json.loads(payload)
        for end in ends:
            m = COUNT.search(end)
            if m:
                return {"Count": int(m.group(1))}
        return json.loads(payload)
    timed("query.lean", lambda: query_all(lean), n)
    timed("query.boto3", lambda: query_all(lambda b: c.query(**b)), n)
    raw.call("DeleteTable", {"TableName": table})

    # WORKERS raw clients at once, on a table of their own: the batches dealt out in turn,
    # then each partition's Query pages (prepared: 100 partitions of n/100 items; one page
    # holds them all up to n = 400,000 at this item size) dealt out the same way
    table = "bench-%s" % uuid.uuid4().hex[:8]
    create_table(raw, table)
    batches = [json.dumps({"RequestItems": {table: [{"PutRequest": {"Item": item(i)}}
                                                    for i in range(s, min(s + 25, n))]}}).encode()
               for s in range(0, n, 25)]
    label = "raw_x%d" % workers
    for what, op, bodies in (("batch_write", "BatchWriteItem", batches), ("query", "Query", None)):
        if bodies is None:
            bodies = [json.dumps({"TableName": table, "KeyConditionExpression": "pk = :p",
                                  "ExpressionAttributeValues": {":p": {"S": "user#%d" % p}}
                                  }).encode() for p in range(100)]
        cpu0 = cpu_seconds(pid) if pid else None
        wall, count = concurrent(url, op, [bodies[w::workers] for w in range(workers)])
        if op == "Query":
            assert count == n, (count, n)
        out.append(("%s.%s.%s" % (name, what, label), n / wall, "items/s"))
        if pid:
            out.append(("%s.%s.%s.server_cpu" % (name, what, label),
                        (cpu_seconds(pid) - cpu0) * 1e6 / n, "us/item"))
    raw.call("DeleteTable", {"TableName": table})
    return out


def serve(cli, name, args, n, workers):
    """The workload against a `dynotable-cli serve` started with @args."""
    results = []
    t0 = time.perf_counter()
    proc = subprocess.Popen([cli, "serve", "--port", "0"] + args,
                            stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().split(" ", 2)[2].strip()
    try:
        Raw(url).call("ListTables", {})
        results.append(("%s.start_to_first_answer" % name, (time.perf_counter() - t0) * 1000,
                        "ms"))
        warm_up(url, n // 2)
        results += workload(name, url, n, workers, proc.pid)
        results.append(("%s.total_server_cpu" % name, cpu_seconds(proc.pid), "s"))
    finally:
        proc.terminate()
        proc.wait()
    return results


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("DYNOTABLE_CLI")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    results = []
    # serve twice: on a workspace file (durable: what the app's Playground does) and in memory
    # (what DynamoDB Local does in the fixture, -inMemory: the like-for-like comparison)
    with tempfile.TemporaryDirectory(prefix="dyno-bench-") as tmp:
        results += serve(cli, "serve", ["--data", os.path.join(tmp, "bench.db")], n, workers)
    results += serve(cli, "serve_memory", [], n, workers)
    endpoint = os.environ.get("DYNO_TEST_ENDPOINT")
    if endpoint:
        pid = os.environ.get("DYNO_TEST_ENDPOINT_PID")
        pid = int(pid) if pid else listener_pid(endpoint)
        warm_up(endpoint, n // 2)
        cpu0 = cpu_seconds(pid) if pid else None
        results += workload("ddb_local", endpoint, n, workers, pid)
        if pid:
            results.append(("ddb_local.workload_server_cpu", cpu_seconds(pid) - cpu0, "s"))
        mine = dict((k, v) for k, v, _ in results)
        # ratio.X: serve on a file against DynamoDB Local in memory;
        # ratio_memory.X: both in memory
        for prefix, ratio in (("serve.", "ratio."), ("serve_memory.", "ratio_memory.")):
            for key, _, unit in list(results):
                if not key.startswith(prefix):
                    continue
                what = key[len(prefix):]
                other = "ddb_local." + what
                if other in mine and unit == "items/s":
                    results.append((ratio + what, mine[key] / mine[other], "x DynamoDB Local"))
                elif other in mine and unit == "us/item" and mine[key] > 0:
                    # the servers' own cost, which a busy machine barely moves
                    results.append((ratio + what, mine[other] / mine[key],
                                    "x less than DynamoDB Local"))
    for name, value, unit in results:
        print("%s %.1f %s" % (name, value, unit))
    print("loadavg_at_end %s (2 cores; other work on the machine shows in the wall-clock "
          "figures)" % open("/proc/loadavg").read().split()[0])


if __name__ == "__main__":
    main()
