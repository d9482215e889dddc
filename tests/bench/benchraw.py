# benchraw.py: the plain keep-alive HTTP client of the Python benchmarks (bench-serve,
# bench-engine-scale, bench-cli-memory): DynamoDB's JSON protocol with a dummy signature, which
# `dynotable-cli serve` and DynamoDB Local accept, so the client's own cost stays small.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import http.client
import json
import urllib.parse


class Raw:
    def __init__(self, url, timeout=600, access_key="k"):
        u = urllib.parse.urlparse(url)
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
        self.authorization = ("AWS4-HMAC-SHA256 Credential=%s/20240101/us-east-1/dynamodb/"
                              "aws4_request, SignedHeaders=host, Signature=00" % access_key)

    def call_bytes(self, op, body):
        """@body (an object, or its JSON as bytes) sent as @op; the answer's bytes."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.conn.request("POST", "/", data, {
            "X-Amz-Target": "DynamoDB_20120810." + op,
            "Content-Type": "application/x-amz-json-1.0",
            "Authorization": self.authorization})
        r = self.conn.getresponse()
        payload = r.read()
        if r.status != 200:
            raise RuntimeError("%s: %s" % (op, payload[:300]))
        return payload

    def call(self, op, body):
        """@body (an object, or its JSON as bytes) sent as @op; the answer, parsed."""
        return json.loads(self.call_bytes(op, body))
