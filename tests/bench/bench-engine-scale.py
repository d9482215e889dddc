#!/usr/bin/python3
# bench-engine-scale.py: the Playground engine with a million 1 KB items, through
# `dynotable-cli serve --data FILE`: load rate and the slowest batch while it grows, the
# latency of a Query (a short one and a whole partition's first page) at each tenfold of
# items, and the server's memory against the size of the data.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   /usr/bin/python3 tests/bench/bench-engine-scale.py _build/src/cli/dynotable-cli [ITEMS]
#
# ITEMS defaults to 1000000 (about 1 GB of DynamoDB JSON, a few minutes).  Prints
# `name value unit` lines.  The client is a raw keep-alive HTTP client posting bodies it
# builds as it goes; its own cost is not the server's: the server's CPU time is printed
# beside the wall-clock figures.  The machine's other load shows in the wall-clock figures
# and the latencies (not in the server's CPU time): say what else ran.

import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchraw import Raw  # noqa: E402

PARTITIONS = 1000
PAD = "x" * 880          # with the keys and attribute names, about 1 KB of DynamoDB JSON


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def runqueue_wait_ms(pid):
    """How long the server's main thread (which answers the requests) has waited for a CPU."""
    try:
        with open("/proc/%d/task/%d/schedstat" % (pid, pid)) as f:
            return int(f.read().split()[1]) / 1e6
    except OSError:
        return 0.0


def memory_kb(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def item(i):
    return {"pk": {"S": "tenant#%04d" % (i % PARTITIONS)}, "sk": {"S": "order#%09d" % i},
            "total": {"N": "%d.%02d" % (i, i % 100)}, "status": {"S": "open"},
            "note": {"S": PAD}}


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def query_latencies(raw, rng, limit, rounds=100):
    out = []
    for _ in range(rounds):
        body = {"TableName": "scale", "KeyConditionExpression": "pk = :p",
                "ExpressionAttributeValues": {":p": {"S": "tenant#%04d" % rng.randrange(
                    PARTITIONS)}}}
        if limit:
            body["Limit"] = limit
        start = time.perf_counter()
        raw.call("Query", body)
        out.append((time.perf_counter() - start) * 1000)
    return out


def main():
    cli = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    rng = random.Random(7)
    # DYNO_BENCH_TRACE=1: each batch over 50 ms on stderr, and the server's debug messages
    # (G_MESSAGES_DEBUG=dyno-engine: its checkpoints) with the same clock
    trace = os.environ.get("DYNO_BENCH_TRACE") == "1"
    with tempfile.TemporaryDirectory(prefix="dyno-bench-scale-") as tmp:
        data = os.path.join(tmp, "scale.db")
        env = dict(os.environ, G_MESSAGES_DEBUG="dyno-engine") if trace else None
        server = subprocess.Popen([cli, "serve", "--port", "0", "--data", data],
                                  stdout=subprocess.PIPE, text=True, env=env)
        try:
            url = server.stdout.readline().split()[-1]
            if trace:
                # GLib writes debug messages to stdout: copied to stderr, so that the pipe
                # never fills and stops the server
                threading.Thread(target=lambda: [sys.stderr.write(line)
                                                 for line in server.stdout],
                                 daemon=True).start()
            raw = Raw(url)
            raw.call("CreateTable", {
                "TableName": "scale", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "sk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}]})
            rss_empty = memory_kb(server.pid, "VmRSS")
            json_bytes = 0
            checkpoints = [c for c in (10000, 100000, 1000000, 10000000) if c <= n]
            if n not in checkpoints:
                checkpoints.append(n)
            done = 0
            batch_ms = []
            batch_own_ms = []     # less the time the server waited for a CPU (a busy machine)
            load_wall = 0.0
            cpu_before = cpu_seconds(server.pid)
            for checkpoint in checkpoints:
                start = time.perf_counter()
                while done < checkpoint:
                    count = min(25, checkpoint - done)
                    items = [item(i) for i in range(done, done + count)]
                    body = json.dumps({"RequestItems": {"scale": [
                        {"PutRequest": {"Item": it}} for it in items]}}).encode()
                    json_bytes += sum(len(json.dumps(it)) for it in items)
                    w = runqueue_wait_ms(server.pid)
                    t = time.perf_counter()
                    r = raw.call("BatchWriteItem", body)
                    batch_ms.append((time.perf_counter() - t) * 1000)
                    waited = runqueue_wait_ms(server.pid) - w
                    batch_own_ms.append(batch_ms[-1] - waited)
                    if trace and batch_ms[-1] > 50:
                        now = time.time()
                        print("slow batch ending %s.%03d: %.1f ms"
                              % (time.strftime("%H:%M:%S", time.localtime(now)),
                                 int(now * 1000) % 1000, batch_ms[-1]), "(%.1f ms waiting for a CPU)" % waited,
                              file=sys.stderr)
                    if r.get("UnprocessedItems"):
                        raise RuntimeError("unprocessed items")
                    done += count
                load_wall += time.perf_counter() - start
                short = query_latencies(raw, rng, 10)
                page = query_latencies(raw, rng, 0, rounds=20)
                print("query_limit10_p50_at_%d %.2f ms" % (checkpoint, percentile(short, 0.5)))
                print("query_limit10_p99_at_%d %.2f ms" % (checkpoint, percentile(short, 0.99)))
                print("query_partition_page_p50_at_%d %.1f ms (%d items/partition)"
                      % (checkpoint, percentile(page, 0.5), checkpoint // PARTITIONS))
                print("rss_at_%d %.1f MB" % (checkpoint, memory_kb(server.pid, "VmRSS") / 1024))
                sys.stdout.flush()
            cpu = cpu_seconds(server.pid) - cpu_before
            print("load_rate %.0f items/s" % (n / load_wall))
            print("load_server_cpu_per_item %.1f us" % (cpu * 1e6 / n))
            print("load_batch_p50 %.2f ms" % percentile(batch_ms, 0.5))
            print("load_batch_p99 %.2f ms" % percentile(batch_ms, 0.99))
            print("load_batch_p999 %.2f ms" % percentile(batch_ms, 0.999))
            print("load_batch_max %.1f ms" % max(batch_ms))
            print("load_batches_over_50ms %d of %d" % (sum(1 for b in batch_ms if b > 50),
                                                       len(batch_ms)))
            # the same without the time the server's thread was runnable but had no CPU:
            # what is left of a pause is the server's own (I/O, locks, checkpoints)
            print("load_batch_less_cpu_wait_p99 %.2f ms" % percentile(batch_own_ms, 0.99))
            print("load_batch_less_cpu_wait_p999 %.2f ms" % percentile(batch_own_ms, 0.999))
            print("load_batch_less_cpu_wait_max %.1f ms" % max(batch_own_ms))
            print("loadavg_at_end %s" % open("/proc/loadavg").read().split()[0])
            print("data_json %.1f MB" % (json_bytes / 1e6))
            size = sum(os.path.getsize(os.path.join(tmp, f)) for f in os.listdir(tmp))
            print("workspace_file %.1f MB" % (size / 1e6))
            print("rss_empty %.1f MB" % (rss_empty / 1024))
            print("rss_peak %.1f MB" % (memory_kb(server.pid, "VmHWM") / 1024))
            print("rss_peak_per_json_byte %.3f" % (memory_kb(server.pid, "VmHWM") * 1024
                                                    / json_bytes))
        finally:
            if server.poll() is not None:
                print("the server exited by itself: status %d" % server.returncode,
                      file=sys.stderr)
            server.terminate()
            server.wait(timeout=60)


if __name__ == "__main__":
    main()
