"""GUI steps for the PartiQL tab, on the Playground.

A table is made in the Playground's workspace beforehand (with `dynotable-cli serve` and
boto3): orders, key customer S + n N, five items of customer c1 and two of c2.  In the app a
PartiQL tab is opened from the table's query page; a SELECT with a parameter runs page by page
(Limit 2, NextToken) and then to the end; a statement that does not parse is marked in the
editor and not sent, a wrong parameter is said under the parameters; DynamoDB's own refusal
is shown; an INSERT runs once; a SELECT opens in the builder (key condition, filter on the sort
key, newest first) and the builder's query opens in PartiQL again, with the same items.

Run by meson as
  with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_partiql.py
Prints TAP; every step runs even when an earlier one failed.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import os
import subprocess
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import dynogui  # noqa: E402
from dynogui import (click, column, find, find_all, is_sensitive, open_table,  # noqa: E402
                     set_text, sidebar_has, text_of, wait_for)

APP = os.environ["DYNOTABLE_APP"]
CLI = os.environ["DYNOTABLE_CLI"]
ARTIFACTS = os.environ.get("DYNO_GUI_ARTIFACTS", os.path.join(os.getcwd(), "gui-artifacts"))
WORKSPACE = os.path.join(os.environ.get("XDG_DATA_HOME",
                                        os.path.expanduser("~/.local/share")),
                         "dynotable", "playground.sqlite")

results = []
APP_REF = []


def check(name, fn):
    try:
        fn()
        results.append((name, None))
        print(f"ok {len(results)} - {name}", flush=True)
    except Exception:  # a failed step is reported and the next one runs
        results.append((name, True))
        print(f"not ok {len(results)} - {name}", flush=True)
        for line in traceback.format_exc().splitlines():
            print(f"# {line}", flush=True)
        if APP_REF:
            dynogui.screenshot(os.path.join(ARTIFACTS, f"partiql-failed-{len(results)}.png"),
                               APP_REF[0].frame)


def seed_workspace():
    import boto3

    os.makedirs(os.path.dirname(WORKSPACE), exist_ok=True)
    server = subprocess.Popen([CLI, "serve", "--port", "0", "--data", WORKSPACE],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:"), line
        c = boto3.client("dynamodb", endpoint_url=line.split()[-1], region_name="us-east-1",
                         aws_access_key_id="any", aws_secret_access_key="any")
        c.create_table(TableName="orders", BillingMode="PAY_PER_REQUEST",
                       AttributeDefinitions=[{"AttributeName": "customer", "AttributeType": "S"},
                                             {"AttributeName": "n", "AttributeType": "N"}],
                       KeySchema=[{"AttributeName": "customer", "KeyType": "HASH"},
                                  {"AttributeName": "n", "KeyType": "RANGE"}])
        for customer, count in (("c1", 5), ("c2", 2)):
            for n in range(1, count + 1):
                c.put_item(TableName="orders",
                           Item={"customer": {"S": customer}, "n": {"N": str(n)},
                                 "status": {"S": "open" if n % 2 else "shipped"}})
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0


def editor(app):
    return find(app.root, role="text", name="PartiQL statement")


def run(app):
    button = find(app.root, role="push button", name="Run statement")
    wait_for(lambda: is_sensitive(button), what="Run statement to be sensitive")
    click(button)


def open_partiql(app):
    """The PartiQL button of the Queries popover, next to Save Query…"""
    dynogui.open_menu(app, "Queries")
    click(find(app.root, role="push button", name="Open in PartiQL"))


def status(app):
    bar_labels = [text_of(n) for n in find_all(app.root, role="label")]
    return next((t for t in bar_labels if " page" in t or "Statement ran" in t), "")


def numbers(app):
    return [int(n) for n in column(app, "n")]


def main():
    print("TAP version 13", flush=True)
    seed_workspace()
    os.makedirs(ARTIFACTS, exist_ok=True)
    app = dynogui.App(APP, [], env=dict(os.environ),
                      log_path=os.path.join(ARTIFACTS, "partiql.log"))
    APP_REF.append(app)
    try:
        def select_pages():
            sidebar_has(app, "orders", "customer S · n N")
            open_table(app, "orders", "customer S · n N")
            open_partiql(app)
            wait_for(lambda: text_of(editor(app)) == 'SELECT * FROM "orders"',
                     what="the PartiQL tab's first statement")
            set_text(editor(app), 'SELECT * FROM "orders" WHERE customer = ?')
            set_text(find(app.root, role="text", name="Parameters"), '[{"S": "c1"}]')
            dynogui.set_value(find(app.root, role="spin button", name="Limit per page"), 2)
            run(app)
            wait_for(lambda: numbers(app) == [1, 2], what="the first page of two items")
            wait_for(lambda: "more to read" in status(app), what="NextToken in the status")
            click(find(app.root, role="push button", name="Load All"))
            wait_for(lambda: numbers(app) == [1, 2, 3, 4, 5], what="every page of c1")
            wait_for(lambda: "3 pages" in status(app), what="three pages counted")
            dynogui.screenshot(os.path.join(ARTIFACTS, "partiql-tab.png"), app.frame)

        check("a SELECT with a parameter runs page by page and to the end", select_pages)

        def errors_in_place():
            set_text(editor(app), 'SELECT * FORM "orders"')
            set_text(find(app.root, role="text", name="Parameters"), "")
            run(app)
            # the label under the editor: its text is its name
            label = find(app.root, role="label", name_contains="(at column")
            assert "well formed" in text_of(label), text_of(label)
            # not sent: the results of the last run are still there
            assert numbers(app) == [1, 2, 3, 4, 5], numbers(app)
            dynogui.screenshot(os.path.join(ARTIFACTS, "partiql-syntax-error.png"), app.frame)

            set_text(editor(app), 'SELECT * FROM "orders" WHERE customer = ?')
            set_text(find(app.root, role="text", name="Parameters"), '[{"S": 1}]')
            run(app)
            find(app.root, role="label", name_contains="parameter 1:")

            set_text(find(app.root, role="text", name="Parameters"), '[]')
            run(app)
            find(app.root, role="label", name_contains="has 1 ? placeholder and the parameters give 0")

        check("a statement that does not parse is marked and not sent; parameters are checked",
              errors_in_place)

        def server_refusal_and_insert():
            # no Limit from here on (Open in Builder would take it with the statement)
            dynogui.set_value(find(app.root, role="spin button", name="Limit per page"), 0)
            set_text(find(app.root, role="text", name="Parameters"), "")
            set_text(editor(app), 'SELECT * FROM "no_such_table"')
            run(app)
            find(app.root, role="label", name="ResourceNotFoundException")
            set_text(editor(app), "INSERT INTO \"orders\" VALUE {'customer': 'c2', 'n': 3}")
            run(app)
            find(app.root, role="label", name="Statement Ran")
            set_text(editor(app), "SELECT customer, n FROM \"orders\" WHERE customer = 'c2'")
            run(app)
            wait_for(lambda: numbers(app) == [1, 2, 3], what="the inserted item")

        check("DynamoDB's refusal is shown; an INSERT runs once", server_refusal_and_insert)

        def builder_round_trip():
            set_text(editor(app),
                     "SELECT * FROM \"orders\" WHERE customer = 'c1' AND n >= 2 "
                     "AND status = 'open' ORDER BY n DESC")
            click(find(app.root, role="push button", name="Open in Builder"))
            # the builder's tab: its Run button runs the draft
            run_query = find(app.root, role="push button", name="Run")
            wait_for(lambda: is_sensitive(run_query), what="the builder to take the statement")
            click(run_query)
            wait_for(lambda: numbers(app) == [5, 3], what="the query's items, newest first")
            dynogui.screenshot(os.path.join(ARTIFACTS, "partiql-in-builder.png"), app.frame)

            open_partiql(app)
            text = wait_for(lambda: text_of(editor(app)) if "WHERE" in text_of(editor(app))
                            else None, what="the query as PartiQL")
            assert "'c1'" in text and "DESC" in text, text
            run(app)
            wait_for(lambda: numbers(app) == [5, 3], what="the same items from PartiQL")

        check("a SELECT opens in the builder and the builder's query opens in PartiQL",
              builder_round_trip)
    finally:
        app.stop()

    print(f"1..{len(results)}", flush=True)
    return 1 if any(e is not None for _, e in results) else 0


if __name__ == "__main__":
    sys.exit(main())
