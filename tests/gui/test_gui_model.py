"""End-to-end for Import NoSQL Workbench Model: the real app under Xvfb against DynamoDB Local,
driven through AT-SPI as a person would, with a real model written by others
(tests/data/workbench-models/BankModel.json: two tables, three GSIs, six items).

Run by meson as
  with-ddb-local.sh with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_model.py
Every expectation is read back from DynamoDB Local itself (boto3 through ddb_local).
Prints TAP; every step runs even when an earlier one failed.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import json
import os
import re
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, "fixtures"))

import ddb_local  # noqa: E402
import dynogui  # noqa: E402
from dynogui import click, find, find_all, is_sensitive, name_of, set_text, text_of, wait_for  # noqa: E402,E501

APP = os.environ["DYNOTABLE_APP"]
ARTIFACTS = os.environ.get("DYNO_GUI_ARTIFACTS", os.path.join(os.getcwd(), "gui-artifacts"))
MODEL = os.path.join(HERE, os.pardir, "data", "workbench-models", "BankModel.json")
TITLE = "Import NoSQL Workbench Model"

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


def windows(app):
    return [app.root.getChildAtIndex(i) for i in range(app.root.childCount)]


def window_named(app, title):
    return wait_for(lambda: next((w for w in windows(app)
                                  if name_of(w) == title and dynogui.is_shown(w)), None),
                    what=f"the window {title!r}")


def window_gone(app, title):
    wait_for(lambda: not any(name_of(w) == title and dynogui.is_shown(w) for w in windows(app)),
             what=f"the window {title!r} to close")


def open_menu(app, button_name):
    menu = find(app.root, role="push button", name=button_name)
    click(next(n for n in dynogui.walk(menu)
               if n is not menu and n.getRoleName() in ("push button", "toggle button")))


def labels(window):
    return [text_of(label) for label in find_all(window, role="label")]


def main():
    endpoint = ddb_local.endpoint()
    c = ddb_local.client()
    with open(MODEL, encoding="utf-8") as f:
        model = json.load(f)
    tables = [t["TableName"] for t in model["DataModel"]]
    ddb_local.delete_tables(tables, c)
    os.makedirs(ARTIFACTS, exist_ok=True)
    app = None
    try:
        app = dynogui.App(APP, ["--endpoint-url", endpoint], env=dict(os.environ),
                          log_path=os.path.join(ARTIFACTS, "app-model.log"))

        def shows_the_model():
            open_menu(app, "Menu of connection DynamoDB Local")
            click(find(app.root, role="menu item", name="Import NoSQL Workbench Model…"))
            window = window_named(app, TITLE)
            create = find(window, role="push button", name="Create tables")
            assert not is_sensitive(create)
            set_text(find(window, role="text", name="Model file"), os.path.abspath(MODEL))
            wait_for(lambda: "Bank: 2 tables" in labels(window), what="the model's name")
            wait_for(lambda: is_sensitive(create), what="Create tables to be sensitive")
            for table in tables:
                find(window, name_contains=table)
            assert any("AccountID (S) · Timestamp (S) · on-demand · 2 items" in text
                       for text in labels(window)), labels(window)
            dynogui.screenshot(os.path.join(ARTIFACTS, "model-dialog.png"))

        check("the dialog shows a real model's tables, keys and item counts", shows_the_model)

        def creates_the_tables():
            window = window_named(app, TITLE)
            click(find(window, role="push button", name="Create tables"))
            wait_for(lambda: set(tables) <= set(c.list_tables()["TableNames"]), timeout=60,
                     what="the model's tables in DynamoDB Local")
            for t in model["DataModel"]:
                want = len(t["TableData"])
                wait_for(lambda: len(ddb_local.scan_all(t["TableName"], c)) == want, timeout=60,
                         what=f"{want} items in {t['TableName']}")
            described = c.describe_table(TableName="TransactionHistory")["Table"]
            assert sorted(g["IndexName"] for g in described["GlobalSecondaryIndexes"]) == \
                ["QueryAll_byTime", "Query_TransactionID"]
            wait_for(lambda: any("TransactionHistory created with 2 items." in text
                                 for text in labels(window)), what="the summary")

        check("Create tables makes them with their items", creates_the_tables)

        def refuses_existing():
            window = window_named(app, TITLE)
            c.delete_table(TableName="PaymentScheduler")
            click(find(window, role="push button", name="Create tables"))
            wait_for(lambda: any(text.startswith("Table TransactionHistory already exists")
                                 for text in labels(window)), what="the error naming the table")
            assert "PaymentScheduler" not in c.list_tables()["TableNames"]
            click(find(window, role="push button", name="Close"))
            window_gone(app, TITLE)

        check("an existing table is named and nothing is created", refuses_existing)

        def no_criticals():
            bad = [line for line in app.output().splitlines()
                   if re.search(r"(GLib-GObject|Gtk|dynotable|dyno-client)-CRITICAL", line)]
            assert not bad, "\n".join(bad)

        check("the app logged no critical warning", no_criticals)
    finally:
        if app is not None:
            output = app.stop()
            if any(r[1] for r in results):
                print("# app output:")
                for line in output.splitlines()[-40:]:
                    print(f"# {line}")
        ddb_local.delete_tables(tables, c)

    print(f"1..{len(results)}")
    return 1 if any(r[1] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
