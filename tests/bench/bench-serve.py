#!/usr/bin/python3
# bench-serve.py: BatchWriteItem and Query throughput through `dynotable-cli serve`, and the
# server's CPU time; with DYNO_TEST_ENDPOINT (tests/fixtures/with-ddb-local.sh) the same
# workload against DynamoDB Local in the same run.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   tests/fixtures/with-ddb-local.sh /usr/bin/python3 tests/bench/bench-serve.py \
#       _build/src/cli/dynotable-cli [ITEMS]
#
# Prints `name value unit` lines.  Two clients: boto3 (what a user runs; its own cost is part
# of the figure) and a raw keep-alive HTTP client posting prepared bodies (closer to the
# server's own cost).

import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


class Raw:
    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=120)

    def call(self, op, body):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.conn.request("POST", "/", data, {
            "X-Amz-Target": "DynamoDB_20120810." + op,
            "Content-Type": "application/x-amz-json-1.0",
            "Authorization": "AWS4-HMAC-SHA256 Credential=fakeKey/20240101/us-east-1/dynamodb/"
                             "aws4_request, SignedHeaders=host, Signature=00"})
        r = self.conn.getresponse()
        payload = r.read()
        if r.status != 200:
            raise RuntimeError("%s: %s" % (op, payload[:300]))
        return json.loads(payload)


def item(i):
    return {"pk": {"S": "user#%d" % (i % 100)}, "sk": {"S": "order#%08d" % i},
            "total": {"N": "%d.%02d" % (i, i % 100)}, "status": {"S": "open"},
            "note": {"S": "x" * 120}}


def workload(name, url, n, pid=None):
    import boto3
    out = []
    table = "bench-%s" % uuid.uuid4().hex[:8]
    raw = Raw(url)
    raw.call("CreateTable", {
        "TableName": table, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}]})
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
    timed("query.boto3", lambda: query_all(lambda b: c.query(**b)), n)
    raw.call("DeleteTable", {"TableName": table})
    return out


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("DYNOTABLE_CLI")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    results = []
    with tempfile.TemporaryDirectory(prefix="dyno-bench-") as tmp:
        t0 = time.perf_counter()
        proc = subprocess.Popen([cli, "serve", "--port", "0", "--data",
                                 os.path.join(tmp, "bench.db")],
                                stdout=subprocess.PIPE, text=True)
        url = proc.stdout.readline().split(" ", 2)[2].strip()
        Raw(url).call("ListTables", {})
        results.append(("serve.start_to_first_answer", (time.perf_counter() - t0) * 1000, "ms"))
        try:
            results += workload("serve", url, n, proc.pid)
            results.append(("serve.total_server_cpu", cpu_seconds(proc.pid), "s"))
        finally:
            proc.terminate()
            proc.wait()
    if os.environ.get("DYNO_TEST_ENDPOINT"):
        results += workload("ddb_local", os.environ["DYNO_TEST_ENDPOINT"], n)
    for name, value, unit in results:
        print("%s %.1f %s" % (name, value, unit))


if __name__ == "__main__":
    main()
