# dyno_samples.py: read DynoTable's sample tables (data/samples) and load them with boto3.
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sample tables: data/samples/<name>/table.json (a CreateTable request) and items.jsonl
(one item per line in DynamoDB JSON).  Used by tools/load-samples.py and by the tests."""

import base64
import json
import os
import time

SAMPLES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data", "samples")
SAMPLES_DIR = os.path.normpath(SAMPLES_DIR)


def sample_names():
    """The sample names, sorted: ['audit-log', 'file-tree', 'sensors', 'tenant']."""
    return sorted(d for d in os.listdir(SAMPLES_DIR)
                  if os.path.isfile(os.path.join(SAMPLES_DIR, d, "table.json")))


def table_spec(name, table_name=None):
    """The CreateTable request of sample NAME, as a dict; TableName replaced if given."""
    with open(os.path.join(SAMPLES_DIR, name, "table.json"), encoding="utf-8") as f:
        spec = json.load(f)
    if table_name is not None:
        spec["TableName"] = table_name
    return spec


def items(name):
    """The items of sample NAME in DynamoDB JSON (B and BS values base64 text, as on the wire)."""
    with open(os.path.join(SAMPLES_DIR, name, "items.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def to_boto3(value):
    """DynamoDB JSON value -> the form boto3's low-level client takes (bytes for B/BS)."""
    (tag, v), = value.items()
    if tag == "B":
        return {"B": base64.b64decode(v)}
    if tag == "BS":
        return {"BS": [base64.b64decode(x) for x in v]}
    if tag == "M":
        return {"M": {k: to_boto3(x) for k, x in v.items()}}
    if tag == "L":
        return {"L": [to_boto3(x) for x in v]}
    return {tag: v}


def from_boto3(value):
    """boto3 low-level value -> DynamoDB JSON (base64 text for B/BS), to compare with files."""
    (tag, v), = value.items()
    if tag == "B":
        return {"B": base64.b64encode(bytes(v)).decode("ascii")}
    if tag == "BS":
        return {"BS": [base64.b64encode(bytes(x)).decode("ascii") for x in v]}
    if tag == "M":
        return {"M": {k: from_boto3(x) for k, x in v.items()}}
    if tag == "L":
        return {"L": [from_boto3(x) for x in v]}
    return {tag: v}


def item_to_boto3(item):
    return {k: to_boto3(v) for k, v in item.items()}


def item_from_boto3(item):
    return {k: from_boto3(v) for k, v in item.items()}


def create_table(client, name, table_name=None):
    """Create sample NAME's table (named TABLE_NAME if given) and wait until it is ACTIVE."""
    spec = table_spec(name, table_name)
    client.create_table(**spec)
    deadline = time.monotonic() + 60
    while True:
        desc = client.describe_table(TableName=spec["TableName"])["Table"]
        indexes = desc.get("GlobalSecondaryIndexes", [])
        if desc["TableStatus"] == "ACTIVE" and all(i["IndexStatus"] == "ACTIVE" for i in indexes):
            return spec["TableName"]
        if time.monotonic() > deadline:
            raise TimeoutError("table %s is not ACTIVE after 60 s" % spec["TableName"])
        time.sleep(0.2)


def load_items(client, name, table_name):
    """Write sample NAME's items into TABLE_NAME with BatchWriteItem; returns the count."""
    all_items = items(name)
    for start in range(0, len(all_items), 25):
        requests = [{"PutRequest": {"Item": item_to_boto3(it)}}
                    for it in all_items[start:start + 25]]
        pending = {table_name: requests}
        for attempt in range(10):
            out = client.batch_write_item(RequestItems=pending)
            pending = out.get("UnprocessedItems") or {}
            if not pending:
                break
            time.sleep(0.05 * 2 ** attempt)
        else:
            raise RuntimeError("BatchWriteItem left items unprocessed in %s" % table_name)
    return len(all_items)
