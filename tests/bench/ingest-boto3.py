#!/usr/bin/python3
# ingest-boto3.py: boto3 (Debian's python3-boto3) reading every page of a Query, for
# bench-ingest.sh.  Items are kept in memory, as a list model would keep them.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 ingest-boto3.py ENDPOINT TABLE

import sys

import boto3

endpoint, table = sys.argv[1:3]
client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                      aws_access_key_id="bench", aws_secret_access_key="bench")
items = []
start = None
while True:
    args = {"TableName": table, "KeyConditionExpression": "pk = :pk",
            "ExpressionAttributeValues": {":pk": {"S": "USER#42"}}}
    if start:
        args["ExclusiveStartKey"] = start
    page = client.query(**args)
    items.extend(page["Items"])
    start = page.get("LastEvaluatedKey")
    if not start:
        break
print("%d items" % len(items), file=sys.stderr)
