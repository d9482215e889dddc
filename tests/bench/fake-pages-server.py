#!/usr/bin/python3
# fake-pages-server.py: serve precomputed DynamoDB Query pages from loopback, for benchmarks
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: fake-pages-server.py MEGABYTES
#
# Builds about MEGABYTES of Query response bodies (realistic items of ~700 bytes with S, N, SS,
# M, L and BOOL attributes; pages stop just after 1 MB as DynamoDB's do, chained by
# LastEvaluatedKey) before listening, so serving costs nothing but a write.  Two tables:
# "bench" (all the pages) and "tiny" (one page of 10 items, to measure a client's fixed cost).
# Answers DescribeTable (pk S, sk S) and Query (honouring ExclusiveStartKey); every response
# has x-amz-crc32 and x-amzn-RequestId.  Prints "PORT BYTES ITEMS" on stdout when ready.

import http.server
import json
import sys
import zlib

PAGE_BYTES = 1024 * 1024


def item(i):
    return {
        "pk": {"S": "USER#42"},
        "sk": {"S": "ORDER#2026-%02d-%02d#%08d" % (i % 12 + 1, i % 28 + 1, i)},
        "status": {"S": ("shipped", "open", "cancelled", "returned")[i % 4]},
        "total": {"N": "%d.%02d" % (i % 997, i % 100)},
        "qty": {"N": str(i % 17 + 1)},
        "tags": {"SS": ["gift", "prime", "tag%d" % (i % 50)]},
        "address": {"M": {"street": {"S": "%d Long Street Name Avenue" % (i % 500)},
                          "city": {"S": "Springfield"}, "zip": {"S": "%05d" % (i % 99999)},
                          "country": {"S": "NL"}}},
        "lines": {"L": [{"M": {"sku": {"S": "SKU-%06d" % (i * 7 + k)},
                               "price": {"N": "%d.99" % (k * 3 + 1)},
                               "qty": {"N": str(k + 1)}}} for k in range(3)]},
        "gift": {"BOOL": i % 5 == 0},
        "note": {"S": "Leave at the door; ring twice. Order number %d, packed by team %d."
                      % (i, i % 9)},
    }


def build_pages(megabytes, table_items=None):
    target = int(megabytes * 1024 * 1024)
    pages, total, i = [], 0, 0
    current, size = [], 0
    while total + size < target or current:
        text = json.dumps(item(i), separators=(",", ":"))
        current.append(text)
        size += len(text) + 1
        i += 1
        done = total + size >= target or (table_items is not None and i >= table_items)
        if size >= PAGE_BYTES or done:
            pages.append(current)
            total += size
            current, size = [], 0
            if done:
                break
    bodies, next_page = [], {}
    for n, texts in enumerate(pages):
        last = json.loads(texts[-1])
        body = '{"Items":[' + ",".join(texts) + '],"Count":%d,"ScannedCount":%d' % (
            len(texts), len(texts))
        if n + 1 < len(pages):
            lek = {"pk": last["pk"], "sk": last["sk"]}
            body += ',"LastEvaluatedKey":' + json.dumps(lek, separators=(",", ":"))
            next_page[last["sk"]["S"]] = n + 1
        body += ',"ConsumedCapacity":{"TableName":"bench","CapacityUnits":128.0}}'
        data = body.encode()
        bodies.append((data, str(zlib.crc32(data) & 0xFFFFFFFF)))
    return bodies, next_page, i


def describe(name):
    return json.dumps({"Table": {
        "TableName": name, "TableStatus": "ACTIVE",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
        "ItemCount": 0, "TableSizeBytes": 0}}).encode()


def main():
    megabytes = float(sys.argv[1]) if len(sys.argv) > 1 else 32
    tables = {"bench": build_pages(megabytes), "tiny": build_pages(1, table_items=10)}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, status, data, crc=None):
            self.send_response(status)
            self.send_header("Content-Type", "application/x-amz-json-1.0")
            self.send_header("x-amzn-RequestId", "BENCH")
            self.send_header("x-amz-crc32", crc or str(zlib.crc32(data) & 0xFFFFFFFF))
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            target = self.headers.get("X-Amz-Target", "").split(".")[-1]
            name = body.get("TableName")
            if name not in tables:
                self.reply(400, json.dumps({
                    "__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                    "message": "Requested resource not found"}).encode())
                return
            if target == "DescribeTable":
                self.reply(200, describe(name))
                return
            bodies, next_page, _ = tables[name]
            start = body.get("ExclusiveStartKey")
            index = next_page.get(start["sk"]["S"], len(bodies) - 1) if start else 0
            data, crc = bodies[index]
            self.reply(200, data, crc)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    bodies, _, n_items = tables["bench"]
    print(server.server_address[1], sum(len(b) for b, _ in bodies), n_items, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
