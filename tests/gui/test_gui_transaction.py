"""GUI step for staged writes: one transaction across two tables of the Playground.

Two tables are made in the Playground's workspace beforehand (with `dynotable-cli serve` and
boto3).  In the app, a new item of each is staged from the item editor ("Add to Transaction")
and a condition check on an existing item that does not hold is added from the results; the
commit is refused with each write's reason shown and nothing written.  With the check removed,
the commit writes both items, as the tables' results then show.

Run by meson as
  with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_transaction.py
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
from dynogui import (choose, click, column, find, find_all, is_sensitive, open_table,  # noqa: E402
                     rerun, set_text, sidebar_has, text_of, wait_for, window_gone,
                     window_named)

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
    except Exception as e:  # a failed step is reported and the next one runs
        results.append((name, e))
        print(f"not ok {len(results)} - {name}", flush=True)
        for line in traceback.format_exc().splitlines():
            print(f"# {line}", flush=True)
        if APP_REF:
            dynogui.screenshot(os.path.join(ARTIFACTS, f"transaction-failed-{len(results)}.png"),
                               APP_REF[0].frame)
            if os.environ.get("DYNO_GUI_DEBUG"):
                for b in find_all(APP_REF[0].root, role="push button", shown=False):
                    print(f"#   button {b.name!r} shown={dynogui.is_shown(b)}", flush=True)


def seed_workspace():
    """orders and users (key id S), with users/u1 whose status is "blocked"."""
    import boto3

    os.makedirs(os.path.dirname(WORKSPACE), exist_ok=True)
    server = subprocess.Popen([CLI, "serve", "--port", "0", "--data", WORKSPACE],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:"), line
        c = boto3.client("dynamodb", endpoint_url=line.split()[-1], region_name="us-east-1",
                         aws_access_key_id="any", aws_secret_access_key="any")
        for name in ("orders", "users"):
            c.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                           AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                           KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}])
        c.put_item(TableName="users", Item={"id": {"S": "u1"}, "status": {"S": "blocked"}})
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0


def windows(app):
    return [app.root.getChildAtIndex(i) for i in range(app.root.childCount)]


def run_scan(app):
    choose(app.root, "Operation", "Scan")
    rerun(app)


def select_row(app, text):
    table = dynogui.results_table(app)
    # grouped by partition, the partition's heading shows the key too: the item row is last
    cell = wait_for(lambda: ([n for n in dynogui.walk(table)
                              if n.getRoleName() in ("label", "table cell")
                              and text_of(n) == text and dynogui.is_shown(n)] or [None])[-1],
                    what=f"the row showing {text!r}")
    dynogui.press_at(cell)


def stage_new_item(app, item_json):
    click(find(app.root, role="push button", name="New item"))
    window = window_named(app, "New Item")
    set_text(find(window, role="text", name="Item JSON"), item_json)
    stage = find(window, role="push button", name="Add to Transaction")
    wait_for(lambda: is_sensitive(stage), what="Add to Transaction to be sensitive")
    click(stage)
    window_gone(app, "New Item", timeout=30)


def review(app):
    dynogui.open_menu(app, "Transaction")
    click(find(app.root, role="menu item", name="Review Transaction…"))


def labels(window):
    return [text_of(label) for label in find_all(window, role="label")]


def main():
    print("TAP version 13", flush=True)
    seed_workspace()
    os.makedirs(ARTIFACTS, exist_ok=True)
    app = dynogui.App(APP, [], env=dict(os.environ),
                      log_path=os.path.join(ARTIFACTS, "transaction.log"))
    APP_REF.append(app)
    try:
        def stage_writes():
            sidebar_has(app, "orders", "id S")
            open_table(app, "orders", "id S")
            run_scan(app)
            stage_new_item(app, '{"id": {"S": "o1"}, "total": {"N": "12"}}')
            open_table(app, "users", "id S")
            run_scan(app)
            wait_for(lambda: column(app, "id") == ["u1"], what="the users rows")
            stage_new_item(app, '{"id": {"S": "u2"}, "status": {"S": "active"}}')
            # a condition check on u1 (status is a reserved word: written inline, aliased)
            select_row(app, "u1")
            dynogui.open_menu(app, "Transaction")
            add = find(app.root, role="menu item", name="Add Condition Check…")
            wait_for(lambda: is_sensitive(add), what="Add Condition Check to be sensitive")
            click(add)
            dialog = wait_for(lambda: next((w for w in windows(app) if dynogui.is_shown(w)
                                            and find_all(w, role="text",
                                                         name="Condition expression")), None),
                              what="the condition check dialog")
            set_text(find(dialog, role="text", name="Condition expression"),
                     'status = "active"')
            button = find(dialog, role="push button", name="Add to Transaction")
            wait_for(lambda: is_sensitive(button), what="the check to be accepted")
            click(button)
            wait_for(lambda: not dynogui.is_shown(dialog), what="the dialog to close")
            menu = find(app.root, role="push button", name="Transaction")
            wait_for(lambda: "3" in labels(menu), what="the Transaction button to count 3")

        check("two new items on two tables and a condition check are staged", stage_writes)

        def refused():
            review(app)
            window = window_named(app, "Transaction")
            find(window, role="push button", name="Remove Put on orders")
            find(window, role="push button", name="Remove Put on users")
            find(window, role="push button", name="Remove Condition Check on users")
            click(find(window, role="push button", name="Commit Transaction"))
            wait_for(lambda: any("Refused: ConditionalCheckFailed" in t for t in labels(window)),
                     what="the check's reason")
            assert any("Nothing was written" in t and "TransactionCanceled" in t
                       for t in labels(window)), labels(window)
            # the other writes were fine (Code None): no reason shown for them
            assert sum("Refused" in t for t in labels(window)) == 1, labels(window)
            dynogui.screenshot(os.path.join(ARTIFACTS, "transaction-refused.png"), window)
            # still staged, nothing written
            find(window, role="push button", name="Remove Put on orders")
            rerun(app)
            wait_for(lambda: column(app, "id") == ["u1"], what="users unchanged")

        check("the commit is refused: the check's reason is shown, nothing is written", refused)

        def committed():
            window = window_named(app, "Transaction")
            click(find(window, role="push button", name="Remove Condition Check on users"))
            wait_for(lambda: not find_all(window, role="push button",
                                          name="Remove Condition Check on users"),
                     what="the check to be removed")
            assert not any("Refused" in t for t in labels(window)), labels(window)
            click(find(window, role="push button", name="Commit Transaction"))
            find(window, role="label", name="No Staged Writes")
            # the users page is refreshed by the commit
            wait_for(lambda: sorted(column(app, "id")) == ["u1", "u2"],
                     what="users to show u2")
            dynogui.key("Escape")
            window_gone(app, "Transaction")
            open_table(app, "orders", "id S")
            rerun(app)
            wait_for(lambda: column(app, "id") == ["o1"], what="orders to show o1")

        check("without the check the commit writes both items", committed)

        def staged_delete():
            select_row(app, "o1")
            dynogui.open_menu(app, "Transaction")
            click(find(app.root, role="menu item", name="Stage Delete of Selected Items"))
            menu = find(app.root, role="push button", name="Transaction")
            wait_for(lambda: "1" in labels(menu), what="the Transaction button to count 1")
            assert column(app, "id") == ["o1"], "staging writes nothing"
            review(app)
            window = window_named(app, "Transaction")
            find(window, role="push button", name="Remove Delete on orders")
            click(find(window, role="push button", name="Commit Transaction"))
            find(window, role="label", name="No Staged Writes")
            wait_for(lambda: column(app, "id") == [], what="orders to be empty")
            dynogui.key("Escape")
            window_gone(app, "Transaction")

        check("a staged delete is written when committed", staged_delete)
    finally:
        app.stop()

    failed = [name for name, e in results if e is not None]
    print(f"1..{len(results)}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
