#!/usr/bin/python3
# load-samples.py: create DynoTable's sample tables on a DynamoDB endpoint and fill them.
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Usage: tools/load-samples.py [--endpoint URL] [--prefix P] [--replace] [NAME...]

Creates each sample table of data/samples (all of them when no NAME is given) as <P><NAME>
and writes its items.  The endpoint defaults to $DYNO_TEST_ENDPOINT, else
http://127.0.0.1:8000 (DynamoDB Local's usual port).  Without credentials in the environment,
DynamoDB Local's dummy ones are used.  Run it with Debian's /usr/bin/python3 (python3-boto3)."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dyno_samples  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description="Create and fill DynoTable's sample tables.")
    ap.add_argument("--endpoint", default=os.environ.get("DYNO_TEST_ENDPOINT",
                                                         "http://127.0.0.1:8000"))
    ap.add_argument("--region", default=os.environ.get("AWS_REGION",
                                                       os.environ.get("AWS_DEFAULT_REGION",
                                                                      "us-east-1")))
    ap.add_argument("--prefix", default="", help="prefix for the table names")
    ap.add_argument("--replace", action="store_true",
                    help="delete a table of the same name first")
    ap.add_argument("names", nargs="*", metavar="NAME",
                    help="samples to load (default: all of %s)" % ", ".join(
                        dyno_samples.sample_names()))
    args = ap.parse_args()

    try:
        import boto3
    except ImportError:
        sys.exit("load-samples: boto3 is missing: run with /usr/bin/python3 "
                 "(Debian package python3-boto3)")

    names = args.names or dyno_samples.sample_names()
    unknown = [n for n in names if n not in dyno_samples.sample_names()]
    if unknown:
        sys.exit("load-samples: no sample named %s (there are: %s)"
                 % (", ".join(unknown), ", ".join(dyno_samples.sample_names())))

    client = boto3.client(
        "dynamodb", endpoint_url=args.endpoint, region_name=args.region,
        aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID", "fakeMyKeyId"),
        aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY", "fakeSecretAccessKey"),
        aws_session_token=os.environ.get("AWS_SESSION_TOKEN"))
    for name in names:
        table = args.prefix + name
        if args.replace:
            try:
                client.delete_table(TableName=table)
                client.get_waiter("table_not_exists").wait(
                    TableName=table, WaiterConfig={"Delay": 1, "MaxAttempts": 60})
            except client.exceptions.ResourceNotFoundException:
                pass
        dyno_samples.create_table(client, name, table)
        count = dyno_samples.load_items(client, name, table)
        print("%s: %d items" % (table, count))


if __name__ == "__main__":
    main()
