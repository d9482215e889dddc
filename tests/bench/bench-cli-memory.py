#!/usr/bin/python3
# bench-cli-memory.py: the memory and speed of `dynotable-cli` query, scan, export and import
# as the table grows: each command runs as a child process against `dynotable-cli serve`, and
# its peak RSS (the kernel's high-water mark, ru_maxrss, through GNU time), wall and CPU
# time are printed per table size.  Streaming commands show the same peak RSS at every size.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   /usr/bin/python3 tests/bench/bench-cli-memory.py _build/src/cli/dynotable-cli \
#       [--items 10000,200000] [--keep DIR] [--formats ddb-jsonl,plain-jsonl,csv] \
#       [--commands query,scan,export,import]
#
# For each size N: a workspace with table `bench` (pk S, sk S) and N items of about 1 KB of
# DynamoDB JSON each, of mixed shapes (strings, numbers, maps, lists, sets, binary, booleans,
# nulls), over 101 partitions: `p#big` holds a quarter of the items, the rest are spread
# evenly.  Then, one after the other:
#   query  the whole of `p#big` (every page)          > /dev/null
#   scan   every page                                  > /dev/null
#   export every page, once per --formats format, to a file in the workspace directory
#   import that file (each format; the DynamoDB JSON lines also as one JSON array) into table
#          `copy` of another server on an empty workspace
# Prints `name value unit` lines, e.g. `cli.scan.peak_rss.10000 12.3 MiB`,
# `cli.export.ddb-jsonl.mb_per_s.10000 85.0 MB/s`, `cli.import.ddb-jsonl.items_per_s.10000 ...`.
# --keep DIR keeps each size's workspace as DIR/bench-N.db and reuses it on the next run
# (loading a million items takes minutes).  The server runs beside the measured child, on the
# same cores: the CLI's CPU time is printed beside the wall-clock time.

import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchraw import Raw  # noqa: E402

BIG = "p#big"
SMALL_PARTITIONS = 100
TABLE = "bench"
TIME = "/usr/bin/time"       # GNU time


def partition(i):
    return BIG if i % 4 == 0 else "p#%03d" % (i % SMALL_PARTITIONS)


def item(i):
    """About 1 KB of DynamoDB JSON, in one of four shapes."""
    it = {"pk": {"S": partition(i)}, "sk": {"S": "item#%09d" % i},
          "n": {"N": "%d.%02d" % (i, i % 100)}}
    shape = i % 4 if i % 4 != 0 else (i // 4) % 4
    if shape == 0:
        it["note"] = {"S": ("note %d " % i) * 6 + "x" * 800}
        it["flag"] = {"BOOL": i % 3 == 0}
    elif shape == 1:
        it["profile"] = {"M": {
            "name": {"S": "user %d" % i}, "age": {"N": str(i % 97)},
            "tags": {"L": [{"S": "t%d" % k} for k in range(8)]},
            "address": {"M": {"street": {"S": "s" * 300}, "city": {"S": "c" * 200},
                              "zip": {"N": str(10000 + i % 90000)}}}}}
        it["gone"] = {"NULL": True}
    elif shape == 2:
        it["tags"] = {"SS": ["tag-%d-%d" % (i % 50, k) for k in range(20)]}
        it["scores"] = {"NS": [str(k * 3 + i % 7) for k in range(20)]}
        it["blob"] = {"B": base64.b64encode(bytes((i + k) % 256 for k in range(300))).decode()}
    else:
        it["events"] = {"L": [{"M": {"at": {"N": str(1700000000 + k)},
                                     "what": {"S": "event-%d" % k},
                                     "ok": {"BOOL": k % 2 == 0}}} for k in range(12)]}
        it["pad"] = {"S": "y" * 300}
    return it


def create_table(raw, name):
    raw.call("CreateTable", {
        "TableName": name, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}]})


def load(raw, n):
    start = time.perf_counter()
    done = 0
    json_bytes = 0
    while done < n:
        count = min(25, n - done)
        puts = []
        for i in range(done, done + count):
            text = json.dumps(item(i))
            json_bytes += len(text)
            puts.append('{"PutRequest":{"Item":%s}}' % text)
        body = ('{"RequestItems":{"%s":[%s]}}' % (TABLE, ",".join(puts))).encode()
        if raw.call("BatchWriteItem", body).get("UnprocessedItems"):
            raise RuntimeError("unprocessed items")
        done += count
    return json_bytes, time.perf_counter() - start


class Usage:
    def __init__(self, maxrss_kb, utime, stime):
        self.ru_maxrss, self.ru_utime, self.ru_stime = maxrss_kb, utime, stime


def run_child(argv, env, stdout):
    """Runs a child under GNU time (/usr/bin/time): its exit status, wall seconds and its own
    rusage.  getrusage() of a direct child of this process would not do: a child forked from
    Python keeps Python's RSS high-water mark across exec()."""
    with tempfile.NamedTemporaryFile("r", prefix="dyno-bench-time-") as times:
        start = time.perf_counter()
        with open(os.devnull, "wb") as out:
            proc = subprocess.run([TIME, "-q", "-f", "%M %U %S", "-o", times.name] + argv,
                                  env=env, stdout=out, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError("%s: exit %d: %s" % (" ".join(argv), proc.returncode,
                                                    proc.stderr.decode(errors="replace")[-600:]))
        fields = times.read().split()
    return wall, Usage(int(fields[0]), float(fields[1]), float(fields[2]))


def report(name, n, wall, usage):
    print("cli.%s.peak_rss.%d %.1f MiB" % (name, n, usage.ru_maxrss / 1024))
    print("cli.%s.wall.%d %.2f s" % (name, n, wall))
    print("cli.%s.cpu.%d %.2f s" % (name, n, usage.ru_utime + usage.ru_stime))
    sys.stdout.flush()


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def bench_size(cli, n, keep, formats, commands):
    env = dict(os.environ, AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench",
               AWS_REGION="us-east-1", AWS_DEFAULT_REGION="us-east-1",
               AWS_EC2_METADATA_DISABLED="true")
    for k in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL",
              "AWS_ENDPOINT_URL_DYNAMODB"):
        env.pop(k, None)
    with tempfile.TemporaryDirectory(prefix="dyno-bench-cli-") as tmp:
        workdir = keep if keep else tmp
        data = os.path.join(workdir, "bench-%d.db" % n)
        fresh = not os.path.exists(data)
        server = subprocess.Popen([cli, "serve", "--port", "0", "--data", data],
                                  stdout=subprocess.PIPE, text=True)
        try:
            url = server.stdout.readline().split()[-1]
            raw = Raw(url)
            tables = raw.call("ListTables", {}).get("TableNames", [])
            for name in tables:
                if name != TABLE or fresh:
                    raw.call("DeleteTable", {"TableName": name})
            if fresh or TABLE not in tables:
                create_table(raw, TABLE)
                json_bytes, seconds = load(raw, n)
                print("cli.load.items_per_s.%d %.0f items/s" % (n, n / seconds))
                print("cli.load.json.%d %.1f MB" % (n, json_bytes / 1e6))
                sys.stdout.flush()
            base = [cli, "--endpoint-url", url]

            wall, usage = run_child(base + ["describe", TABLE], env, None)
            report("describe", n, wall, usage)

            if "query" in commands:
                wall, usage = run_child(base + ["query", TABLE, "--key", 'pk = "%s"' % BIG],
                                        env, None)
                report("query", n, wall, usage)
                print("cli.query.items.%d %d items" % (n, (n + 3) // 4))

            if "scan" in commands:
                wall, usage = run_child(base + ["scan", TABLE], env, None)
                report("scan", n, wall, usage)
                wall, usage = run_child(base + ["scan", TABLE, "--segments", "8"], env, None)
                report("scan_segments8", n, wall, usage)

            for fmt in formats if "export" in commands else []:
                out = os.path.join(tmp, "export-%d.%s" % (n, "csv" if fmt == "csv"
                                                          else "jsonl"))
                wall, usage = run_child(base + ["export", TABLE, "--format", fmt, "-o", out],
                                        env, None)
                size = os.path.getsize(out)
                lines = count_lines(out)
                expected = n + (2 if fmt == "csv" else 0)
                if lines != expected:
                    raise RuntimeError("export %s: %d lines, expected %d" % (fmt, lines,
                                                                             expected))
                report("export.%s" % fmt, n, wall, usage)
                print("cli.export.%s.bytes.%d %.1f MB" % (fmt, n, size / 1e6))
                print("cli.export.%s.mb_per_s.%d %.1f MB/s" % (fmt, n, size / 1e6 / wall))

                if "import" not in commands:
                    os.unlink(out)
                    continue
                bench_import(cli, n, env, tmp, fmt, out)
                if fmt == "ddb-jsonl":
                    # the same items as one JSON array, which the importer reads as it goes
                    array = os.path.join(tmp, "export-%d.json" % n)
                    with open(out, "rb") as src, open(array, "wb") as dst:
                        dst.write(b"[\n")
                        for i, line in enumerate(src):
                            dst.write((b",\n" if i else b"") + line.rstrip(b"\n"))
                        dst.write(b"\n]\n")
                    bench_import(cli, n, env, tmp, "ddb-json-array", array)
                    os.unlink(array)
                os.unlink(out)
        finally:
            server.terminate()
            server.wait(timeout=120)


def bench_import(cli, n, env, tmp, fmt, path):
    """Imports @path into table `copy` of a server of its own on an empty workspace (the
    engine's write speed in a workspace that already holds the big table is not the CLI's)."""
    data = os.path.join(tmp, "import-%s.db" % fmt)
    server = subprocess.Popen([cli, "serve", "--port", "0", "--data", data],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split()[-1]
        raw = Raw(url)
        create_table(raw, "copy")
        argv = [cli, "--endpoint-url", url, "import", "copy", path]
        if fmt == "plain-jsonl":
            argv += ["--types", "tags:SS,scores:NS,blob:B"]
        wall, usage = run_child(argv, env, None)
        report("import.%s" % fmt, n, wall, usage)
        print("cli.import.%s.items_per_s.%d %.0f items/s" % (fmt, n, n / wall))
        sys.stdout.flush()
        count = raw.call("Scan", {"TableName": "copy", "Select": "COUNT"})
        total = count["Count"]
        while "LastEvaluatedKey" in count:
            count = raw.call("Scan", {"TableName": "copy", "Select": "COUNT",
                                      "ExclusiveStartKey": count["LastEvaluatedKey"]})
            total += count["Count"]
        if total != n:
            raise RuntimeError("import %s: %d items, expected %d" % (fmt, total, n))
    finally:
        server.terminate()
        server.wait(timeout=120)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(data + suffix):
                os.unlink(data + suffix)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("cli")
    parser.add_argument("--items", default="10000,200000")
    parser.add_argument("--keep", help="keep and reuse the workspaces in this directory")
    parser.add_argument("--formats", default="ddb-jsonl,plain-jsonl,csv")
    parser.add_argument("--commands", default="query,scan,export,import",
                        help="which to run (import needs export)")
    args = parser.parse_args()
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    for n in [int(x) for x in args.items.split(",")]:
        bench_size(args.cli, n, args.keep, args.formats.split(","), args.commands.split(","))


if __name__ == "__main__":
    main()
