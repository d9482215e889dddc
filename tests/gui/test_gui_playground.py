"""End-to-end for the Playground: DynoTable with no server at all.

The app starts with nothing configured and no DynamoDB anywhere; the built-in Playground is
there, says it is empty and offers the sample schemas; they load, and the seed query answers in
path order.  After the app quits, its workspace file is served by `dynotable-cli serve` and read
with boto3 (a peer that shares no code with the app): the tables and items are there.  Started
again, the app lists them.

Run by meson as
  with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_playground.py
(with-keyring.sh gives a fresh HOME, XDG_DATA_HOME and XDG_CONFIG_HOME.)  Prints TAP; every step
runs even when an earlier one failed.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import os
import re
import subprocess
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, os.pardir, "tools"))

import dyno_samples  # noqa: E402
import dynogui  # noqa: E402
from dynogui import (choose, click, column, find, open_table, rerun, set_text,  # noqa: E402
                     sidebar_has, text_of, wait_for, window_gone, window_named)

APP = os.environ["DYNOTABLE_APP"]
CLI = os.environ["DYNOTABLE_CLI"]
ARTIFACTS = os.environ.get("DYNO_GUI_ARTIFACTS", os.path.join(os.getcwd(), "gui-artifacts"))
WORKSPACE = os.path.join(os.environ.get("XDG_DATA_HOME",
                                        os.path.expanduser("~/.local/share")),
                         "dynotable", "playground.sqlite")

results = []


def check(name, fn):
    try:
        fn()
        results.append((name, None))
        print(f"ok {len(results)} - {name}", flush=True)
    except Exception as e:  # a failed step is reported and the next one runs
        results.append((name, e))
        print(f"not ok {len(results)} - {name}", flush=True)
        for line in traceback.format_exc().splitlines():
            print(f"# {line}", flush=True)


def start(log_name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    return dynogui.App(APP, [], env=dict(os.environ),
                       log_path=os.path.join(ARTIFACTS, log_name + ".log"))


def shot(app, name):
    dynogui.screenshot(os.path.join(ARTIFACTS, name + ".png"), app.frame)


def served_tables():
    """The workspace as `dynotable-cli serve` serves it: {table: item count}, read by boto3."""
    import boto3

    server = subprocess.Popen([CLI, "serve", "--port", "0", "--data", WORKSPACE],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:"), line
        c = boto3.client("dynamodb", endpoint_url=line.split()[-1], region_name="us-east-1",
                         aws_access_key_id="any", aws_secret_access_key="any")
        out = {}
        for name in c.list_tables()["TableNames"]:
            count, start = 0, None
            while True:
                page = c.scan(TableName=name, Select="COUNT",
                              **({"ExclusiveStartKey": start} if start else {}))
                count += page["Count"]
                start = page.get("LastEvaluatedKey")
                if not start:
                    break
            out[name] = count
        return out
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0


def main():
    print("TAP version 13", flush=True)
    samples = {name: len(dyno_samples.items(name)) for name in dyno_samples.sample_names()}
    app = start("playground-first")
    try:
        def empty_playground():
            sidebar = find(app.root, role="list", name="Tables")
            find(sidebar, name_contains="Playground")
            find(app.root, role="label", name="The Playground is empty")
            shot(app, "playground-empty")
            assert not os.path.exists(os.path.expanduser("~/.aws")), "no AWS set-up was needed"

        check("with nothing configured, the Playground is there and says it is empty",
              empty_playground)

        def load_samples():
            click(find(app.root, role="push button", name="Load Sample Schemas…"))
            window = window_named(app, "Sample Schemas")
            click(find(window, role="push button", name="Load sample schemas"))
            # the summary names the last sample when all are loaded (not any label: the
            # descriptions name the tables too, and Close while loading cancels the rest)
            wait_for(lambda: any(re.search(r"\btenant (created with|existed already)",
                                           text_of(label))
                                 for label in dynogui.find_all(window, role="label")),
                     timeout=120, what="the samples summary to name tenant")
            click(find(window, role="push button", name="Close"))
            window_gone(app, "Sample Schemas")
            sidebar_has(app, "tenant", "pk S · sk S")
            sidebar_has(app, "file-tree", "PK S · SK S")

        check("the sample schemas load into the Playground", load_samples)

        def seed_query():
            open_table(app, "file-tree", "PK S · SK S")
            set_text(find(app.root, role="text", name="Partition key value"), "DRIVE#a91")
            choose(app.root, "Sort key condition", "begins with")
            set_text(find(app.root, role="text", name="Sort key value"), "root/photos/")
            rerun(app)
            want = sorted((i["SK"]["S"] for i in dyno_samples.items("file-tree")
                           if i["PK"]["S"] == "DRIVE#a91"
                           and i["SK"]["S"].startswith("root/photos/")),
                          key=lambda s: s.encode())
            assert want, "the sample has such items"
            wait_for(lambda: column(app, "SK") == want, what="the file-tree rows in path order")
            shot(app, "playground-query")

        check("a query on the Playground answers in sort-key order", seed_query)

        def filter_and_sort_loaded():
            # the same rows as the query above: what the bar works on
            loaded = sorted((i for i in dyno_samples.items("file-tree")
                             if i["PK"]["S"] == "DRIVE#a91"
                             and i["SK"]["S"].startswith("root/photos/")),
                            key=lambda i: i["SK"]["S"].encode())

            def holds(value, text):
                # the filter's meaning: text in an S or N value at any depth, case ignored
                (kind, inner), = value.items()
                if kind in ("S", "N"):
                    return text.casefold() in inner.casefold()
                if kind in ("SS", "NS"):
                    return any(text.casefold() in v.casefold() for v in inner)
                if kind == "M":
                    return any(holds(v, text) for v in inner.values())
                if kind == "L":
                    return any(holds(v, text) for v in inner)
                return False

            click(find(app.root, role="push button", name="Filter and Sort Loaded Items"))
            set_text(find(app.root, name="Filter Loaded Items"), "JPEG")
            want = [i["SK"]["S"] for i in loaded if any(holds(v, "JPEG") for v in i.values())]
            assert 0 < len(want) < len(loaded), "the text narrows the rows"
            wait_for(lambda: column(app, "SK") == want, what=f"the rows holding JPEG: {want}")
            # largest first: sizeBytes is a number, compared as one
            choose(app.root, "Sort By", "sizeBytes")
            click(find(app.root, role="push button", name="Sort Descending"))
            by_size = [i["SK"]["S"] for i in sorted(
                (i for i in loaded if i["SK"]["S"] in want),
                key=lambda i: -int(i["sizeBytes"]["N"]))]
            wait_for(lambda: column(app, "SK") == by_size,
                     what=f"the JPEG rows largest first: {by_size}")
            shot(app, "results-filter-sort")
            # closed, the bar leaves every row as read
            click(find(app.root, role="push button", name="Filter and Sort Loaded Items"))
            wait_for(lambda: column(app, "SK") == [i["SK"]["S"] for i in loaded],
                     what="every row again, in sort-key order")

        check("the loaded rows filter by a text and sort by an attribute, and come back when "
              "the bar closes", filter_and_sort_loaded)

        def infrastructure_as_code():
            dynogui.open_menu(app, "Menu of table file-tree")
            click(find(app.root, role="menu item", name="Infrastructure as Code…"))
            window = window_named(app, "file-tree as Code")
            code = find(window, role="text", name="Infrastructure as code")
            wait_for(lambda: 'TableName: "file-tree"' in text_of(code),
                     what="the CloudFormation of file-tree")
            text = text_of(code)
            assert 'Type: "AWS::DynamoDB::Table"' in text, text
            assert '- AttributeName: "PK"' in text and "BillingMode:" in text, text
            # the Playground does not keep tags: said, not left out silently
            notes = find(window, role="label", name_contains="Left out")
            assert "tags" in text_of(notes), text_of(notes)
            dynogui.screenshot(os.path.join(ARTIFACTS, "playground-iac.png"), window)
            choose(window, "Format", "Terraform (HCL)")
            wait_for(lambda: 'resource "aws_dynamodb_table" "file_tree"' in text_of(code),
                     what="the Terraform of file-tree")
            dynogui.close_window(window)
            window_gone(app, "file-tree as Code")

        check("a table's menu shows it as CloudFormation and Terraform", infrastructure_as_code)

        def access_patterns():
            import json
            import tempfile
            patterns = {"format": "dynotable-patterns", "version": 1, "patterns": [
                {"name": "photos", "description": "A folder and what is under it, in path order",
                 "request": {"TableName": "file-tree",
                             "KeyConditionExpression": "PK = :d AND begins_with(SK, :p)"},
                 "parameters": {":d": {"S": "DRIVE#a91"}, ":p": {"S": "root/photos/"}},
                 "expect": {"order": "ascending", "minItems": 1}},
                {"name": "every-tenant", "request": {"TableName": "tenant"}}]}
            path = os.path.join(tempfile.mkdtemp(prefix="dyno-patterns-"), "patterns.json")
            with open(path, "w") as f:
                json.dump(patterns, f)
            dynogui.open_menu(app, "Menu of connection Playground")
            click(find(app.root, role="menu item", name="Check Access Patterns…"))
            window = window_named(app, "Check Access Patterns")
            set_text(find(window, role="text", name="Pattern set file"), path)
            click(find(window, role="push button", name="Check the patterns"))
            wait_for(lambda: any(text_of(l) == "1 of 2 patterns passed"
                                 for l in dynogui.find_all(window, role="label")),
                     timeout=60, what="the patterns' summary")
            names = [text_of(l) for l in dynogui.find_all(window, role="label")]
            assert "Passed: photos" in names, names
            assert "Failed: every-tenant" in names, names
            dynogui.screenshot(os.path.join(ARTIFACTS, "playground-patterns.png"), window)
            dynogui.close_window(window)
            window_gone(app, "Check Access Patterns")

        check("Check Access Patterns runs a pattern set on the Playground", access_patterns)

        def served_while_running():
            import re
            import boto3
            from botocore.exceptions import EndpointConnectionError

            sidebar = find(app.root, role="list", name="Tables")

            def served_url():
                row = find(sidebar, name_contains="Playground, Built in")
                m = re.search(r"http://127\.0\.0\.1:(\d+)$", dynogui.name_of(row))
                return m and m.group(0)

            url = wait_for(served_url, what="the Playground's subtitle to say where it is served")
            c = boto3.client("dynamodb", endpoint_url=url, region_name="eu-west-1",
                             aws_access_key_id="any", aws_secret_access_key="any")
            assert {"tenant", "file-tree"} <= set(c.list_tables()["TableNames"])
            # what the app shows is what an SDK reads, while the app runs
            page = c.query(TableName="file-tree", KeyConditionExpression="PK = :d AND "
                           "begins_with(SK, :p)", ExpressionAttributeValues={
                               ":d": {"S": "DRIVE#a91"}, ":p": {"S": "root/photos/"}})
            assert [i["SK"]["S"] for i in page["Items"]] == column(app, "SK")

            # turned off in the main menu: the subtitle says so and nothing answers
            dynogui.open_menu(app, "Main Menu")
            click(find(app.root, role="check menu item",
                       name="Serve Playground on This Computer"))
            wait_for(lambda: served_url() is None, what="the subtitle to drop the address")
            try:
                c.list_tables()
                raise AssertionError("the Playground still answers at " + url)
            except EndpointConnectionError:
                pass
            dynogui.open_menu(app, "Main Menu")
            click(find(app.root, role="check menu item",
                       name="Serve Playground on This Computer"))
            url = wait_for(served_url, what="the address back in the subtitle")
            c = boto3.client("dynamodb", endpoint_url=url, region_name="eu-west-1",
                             aws_access_key_id="any", aws_secret_access_key="any")
            assert "tenant" in c.list_tables()["TableNames"]

        check("while the app runs, the Playground answers the AWS SDK on loopback; the main menu "
              "turns that off", served_while_running)
    finally:
        app.stop()

    def workspace_served():
        served = served_tables()
        assert served == samples, (served, samples)

    check("the workspace file holds every sample item, as `dynotable-cli serve` shows it",
          workspace_served)

    # another connection: a second engine, empty, in memory, as a DynamoDB Local would be
    target = subprocess.Popen([CLI, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    target_url = target.stdout.readline().split()[-1]
    config = os.path.join(os.environ.get("XDG_CONFIG_HOME", os.path.expanduser("~/.config")),
                          "dynotable", "connections.ini")
    os.makedirs(os.path.dirname(config), exist_ok=True)
    with open(config, "a") as f:
        f.write("\n[connection target]\nkind=local\nname=Target\nendpoint-url=%s\n"
                "region=eu-west-1\n" % target_url)

    app = start("playground-again")
    try:
        def again():
            sidebar_has(app, "tenant", "pk S · sk S")
            sidebar_has(app, "file-tree", "PK S · SK S")

        check("started again, the app lists the Playground's tables", again)

        def commit_to_connection():
            import boto3
            dynogui.open_menu(app, "Menu of connection Target")
            click(find(app.root, role="menu item", name="Create Playground Tables Here…"))
            window = window_named(app, "Create Playground Tables Here")
            # the requests, before anything is sent
            requests = find(window, role="text", name="Requests to send")
            wait_for(lambda: "CreateTable file-tree" in text_of(requests),
                     what="the CreateTable requests")
            text = text_of(requests)
            assert '"TableName" : "tenant"' in text or '"TableName": "tenant"' in text, text
            total = sum(samples.values())
            assert f"{total} items" in text.replace(",", ""), text
            c = boto3.client("dynamodb", endpoint_url=target_url, region_name="eu-west-1",
                             aws_access_key_id="any", aws_secret_access_key="any")
            assert c.list_tables()["TableNames"] == [], "nothing is sent before Create"
            dynogui.screenshot(os.path.join(ARTIFACTS, "playground-commit.png"), window)
            click(find(window, role="push button", name="Create tables"))
            wait_for(lambda: sorted(c.list_tables()["TableNames"]) == sorted(samples),
                     timeout=120, what="the tables on the other connection")

            def counts():
                out = {}
                for name in samples:
                    n, start_key = 0, None
                    while True:
                        page = c.scan(TableName=name, Select="COUNT",
                                      **({"ExclusiveStartKey": start_key} if start_key else {}))
                        n += page["Count"]
                        start_key = page.get("LastEvaluatedKey")
                        if not start_key:
                            break
                    out[name] = n
                return out

            wait_for(lambda: counts() == samples, timeout=120,
                     what="every item on the other connection")
            key_schema = c.describe_table(TableName="file-tree")["Table"]["KeySchema"]
            assert [k["AttributeName"] for k in key_schema] == ["PK", "SK"], key_schema
            click(find(window, role="push button", name="Close"))
            window_gone(app, "Create Playground Tables Here")
            dynogui.search_sidebar(app, "tenant")
            sidebar = find(app.root, role="list", name="Tables")
            wait_for(lambda: len([n for n in dynogui.find_all(sidebar)
                                  if dynogui.name_of(n).startswith("tenant, ")]) == 2,
                     what="tenant listed under both connections")

        check("Create Playground Tables Here copies the Playground's tables and items to "
              "another connection, showing the requests first", commit_to_connection)
    finally:
        app.stop()
        target.terminate()
        target.wait(timeout=30)

    print(f"1..{len(results)}", flush=True)
    return 0 if all(error is None for _, error in results) else 1


if __name__ == "__main__":
    sys.exit(main())
