"""Saved queries and history: the real app under Xvfb against DynamoDB Local, through AT-SPI.

Run by meson as
  with-ddb-local.sh with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_saved_queries.py
with DYNOTABLE_APP and GSETTINGS_SCHEMA_DIR in the environment (with-keyring.sh gives the run a
fresh XDG_DATA_HOME, where the app keeps dynotable/queries.json).  A query is run and found in
History with its item count; it is saved with a name (a name taken is refused at the field);
the form is changed and the saved query, then the history entry, put it back without running
it; saved queries are searched and reordered; after a restart the saved query and the history
are still there.  Prints TAP; every step runs even when an earlier one failed.

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
from dynogui import (GuiError, choose, click, extents, find, find_all, is_sensitive,  # noqa: E402
                     name_of, set_text, text_of, wait_for)

APP = os.environ["DYNOTABLE_APP"]
ARTIFACTS = os.environ.get("DYNO_GUI_ARTIFACTS", os.path.join(os.getcwd(), "gui-artifacts"))
QUERIES_FILE = os.path.join(os.environ.get("XDG_DATA_HOME",
                                           os.path.expanduser("~/.local/share")),
                            "dynotable", "queries.json")

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


def start(log_name, args):
    os.makedirs(ARTIFACTS, exist_ok=True)
    return dynogui.App(APP, args, env=dict(os.environ),
                       log_path=os.path.join(ARTIFACTS, log_name + ".log"))


def shot(app, name):
    dynogui.screenshot(os.path.join(ARTIFACTS, name + ".png"), app.frame)


def status(app):
    label = wait_for(lambda: next((n for n in find_all(app.root, role="label")
                                   if (n.description or "") == "Run status"), None),
                     what="the run status")
    return text_of(label)


def field(app, name):
    return text_of(find(app.root, role="text", name=name))


def sort_op(app):
    return dynogui.dropdown_value(find(app.root, role="combo box", name="Sort key condition"))


def shown_save_query(node):
    try:
        return name_of(node) == "Save query" and dynogui.is_shown(node)
    except Exception:
        # a node gone since it was listed (a popover closing): not the button
        return False


def open_queries(app):
    """Opens the Queries popover (a GtkMenuButton: its inner toggle is what is clicked)."""
    menu = find(app.root, name="Queries")
    if not any(shown_save_query(n) for n in find_all(app.root, role="push button")):
        toggle = next((n for n in dynogui.walk(menu) if n is not menu and
                       n.getRoleName() in ("push button", "toggle button")), menu)
        click(toggle)
    return find(app.root, role="push button", name="Save query")


def show_tab(app, name):
    open_queries(app)
    tab = next(n for n in find_all(app.root) if name_of(n) == name and
               n.getRoleName() in ("toggle button", "radio button", "push button", "page tab"))
    click(tab)


def saved_names(app):
    """The names of the saved queries shown, top to bottom."""
    saved = find(app.root, role="list", name="Saved queries")
    buttons = [n for n in find_all(saved, role="push button")
               if not re.match(r"(Move|Delete) “", name_of(n))]
    return [name_of(n) for n in sorted(buttons, key=lambda n: extents(n).y)]


def history_rows(app):
    history = find(app.root, role="list", name="Query history")
    return sorted(find_all(history, role="push button"), key=lambda n: extents(n).y)


def run(app):
    button = find(app.root, role="push button", name="Run")
    wait_for(lambda: is_sensitive(button), what="Run to be sensitive")
    click(button)


def save_as(app, name, expect_refused=None):
    click(open_queries(app))
    dialog = wait_for(lambda: next((w for w in dynogui.app_windows(app)
                                    if name_of(w).startswith("Save Query")), None),
                      what="the Save Query dialog")
    entry = find(dialog, role="text", name="Query name")
    set_text(entry, name)
    save = find(dialog, role="push button", name="Save")
    if expect_refused:
        message = wait_for(lambda: next((text_of(n) for n in find_all(dialog, role="label")
                                         if (n.description or "") == "Query name problem"
                                         and text_of(n)), None),
                           what="the message under the name")
        assert expect_refused in message, message
        wait_for(lambda: not is_sensitive(save), what="Save to be insensitive")
        shot(app, "saved-query-name-taken")
        click(find(dialog, role="push button", name="Cancel"))
        return message
    wait_for(lambda: is_sensitive(save), what="Save to be sensitive")
    click(save)
    wait_for(lambda: not any(name_of(w).startswith("Save Query") for w in dynogui.app_windows(app)),
             what="the dialog to close")
    return None


def main():
    endpoint = ddb_local.endpoint()
    prefix = ddb_local.unique_prefix("saved")
    tables = {}
    app = None
    try:
        tables = ddb_local.create_sample_tables(prefix, names=["tenant"])
        table = tables["tenant"]
        args = ["--endpoint-url", endpoint, "--table", table]
        invoices = [i for i in ddb_local.sample_items("tenant")
                    if i["pk"]["S"] == "TENANT#acme" and i["sk"]["S"].startswith("INVOICE#")]
        app = start("app-saved-1", args)

        def run_goes_to_history():
            set_text(find(app.root, role="text", name="Partition key value"), "TENANT#acme")
            choose(app.root, "Sort key condition", "begins with")
            set_text(find(app.root, role="text", name="Sort key value"), "INVOICE#")
            run(app)
            wait_for(lambda: re.match(rf"{len(invoices)} items · 1 page", status(app)),
                     what="the status line")
            show_tab(app, "History")
            rows = wait_for(lambda: history_rows(app) or None, what="a history row")
            assert len(rows) == 1, [name_of(r) for r in rows]
            text = name_of(rows[0])
            # the request, then when, items, pages and RCU
            assert "TENANT#acme" in text and "INVOICE#" in text, text
            assert re.search(rf"\d\d:\d\d:\d\d · {len(invoices)} items · 1 page · [0-9.]+ RCU",
                             text), text
            shot(app, "saved-history")
            dynogui.key("Escape")

        check("a run is in History: its request, when, items, pages, RCU", run_goes_to_history)

        def save_with_name():
            save_as(app, "Acme invoices")
            show_tab(app, "Saved")
            wait_for(lambda: saved_names(app) == ["Acme invoices"], what="the saved query")
            shot(app, "saved-list")
            dynogui.key("Escape")
            with open(QUERIES_FILE) as f:
                doc = json.load(f)
            assert doc["format"] == "dynotable-queries" and doc["version"] == 1, doc
            entry = next(t for t in doc["tables"] if t["table"] == table)
            assert entry["connection"] == "local:" + endpoint, entry["connection"]
            assert [s["name"] for s in entry["saved"]] == ["Acme invoices"], entry["saved"]
            assert len(entry["history"]) == 1 and entry["history"][0]["items"] == len(invoices)
            text = open(QUERIES_FILE).read()
            # no credentials in the file (DynamoDB Local signs with the environment's key)
            for secret in filter(None, [os.environ.get("AWS_SECRET_ACCESS_KEY")]):
                assert secret not in text
            assert oct(os.stat(QUERIES_FILE).st_mode & 0o777) == "0o600"

        check("Save Query… with a name: listed under Saved and in queries.json", save_with_name)

        def name_taken():
            save_as(app, "Acme invoices", expect_refused="“Acme invoices”")

        check("a name the table already has is refused at the field", name_taken)

        def reopen_saved():
            set_text(find(app.root, role="text", name="Partition key value"), "TENANT#other")
            choose(app.root, "Sort key condition", "any")
            before = status(app)
            show_tab(app, "Saved")
            click(find(app.root, role="push button", name="Acme invoices"))
            wait_for(lambda: field(app, "Partition key value") == "TENANT#acme",
                     what="the partition key back")
            assert sort_op(app) == "begins with", sort_op(app)
            assert field(app, "Sort key value") == "INVOICE#", field(app, "Sort key value")
            # put in the form, not run
            assert status(app) == before, (status(app), before)
            shot(app, "saved-reopened")
            show_tab(app, "History")
            assert len(history_rows(app)) == 1, [name_of(r) for r in history_rows(app)]
            dynogui.key("Escape")

        check("a saved query reopens in the form (not run)", reopen_saved)

        def reopen_history():
            set_text(find(app.root, role="text", name="Partition key value"), "TENANT#zzz")
            choose(app.root, "Sort key condition", "any")
            show_tab(app, "History")
            click(history_rows(app)[0])
            wait_for(lambda: field(app, "Partition key value") == "TENANT#acme",
                     what="the partition key back")
            assert sort_op(app) == "begins with"
            assert field(app, "Sort key value") == "INVOICE#"

        check("a history entry reopens in the form", reopen_history)

        def search_and_reorder():
            set_text(find(app.root, role="text", name="Sort key value"), "USER#")
            save_as(app, "Acme users")
            show_tab(app, "Saved")
            wait_for(lambda: saved_names(app) == ["Acme invoices", "Acme users"],
                     what="two saved queries in the order saved")
            search = find(app.root, name="Search saved queries")
            # the search entry's own text field takes the text
            search = next((n for n in dynogui.walk(search) if n.getRoleName() == "text"), search)
            set_text(search, "users")
            wait_for(lambda: saved_names(app) == ["Acme users"], what="the search to filter")
            set_text(search, "")
            wait_for(lambda: len(saved_names(app)) == 2, what="both again")
            click(find(app.root, role="push button", name="Move “Acme users” up"))
            wait_for(lambda: saved_names(app) == ["Acme users", "Acme invoices"],
                     what="Acme users first")
            # Delete, then Undo on its toast: back in its place
            click(find(app.root, role="push button", name="Delete “Acme users”"))
            wait_for(lambda: saved_names(app) == ["Acme invoices"], what="Acme users deleted")
            click(find(app.root, role="push button", name="Undo"))
            wait_for(lambda: saved_names(app) == ["Acme users", "Acme invoices"],
                     what="Acme users back first")
            dynogui.key("Escape")

        check("saved queries are searched, moved up, deleted and undeleted", search_and_reorder)
        app.stop()
        app = None

        app = start("app-saved-2", args)

        def after_restart():
            show_tab(app, "Saved")
            wait_for(lambda: saved_names(app) == ["Acme users", "Acme invoices"],
                     what="the saved queries, in their order, after a restart")
            click(find(app.root, role="push button", name="Acme invoices"))
            wait_for(lambda: field(app, "Partition key value") == "TENANT#acme",
                     what="the partition key")
            assert sort_op(app) == "begins with"
            assert field(app, "Sort key value") == "INVOICE#"
            show_tab(app, "History")
            assert len(history_rows(app)) == 1, [name_of(r) for r in history_rows(app)]
            shot(app, "saved-after-restart")
            dynogui.key("Escape")

        check("after a restart the saved queries and the history are still there", after_restart)
        app.stop()
        app = None

        # a file DynoTable cannot read: kept aside, never overwritten, and the panel says so
        garbage = '{"format": "dynotable-queries", "version": 1, "tables": [{"connection": '
        with open(QUERIES_FILE, "w") as f:
            f.write(garbage)
        app = start("app-saved-3", args)

        def corrupt_file_kept():
            open_queries(app)
            message = wait_for(lambda: next((text_of(n) for n in find_all(app.root, role="label")
                                             if "Could not read saved queries" in text_of(n)),
                                            None),
                               what="the message about the unreadable file")
            aside = [n for n in os.listdir(os.path.dirname(QUERIES_FILE))
                     if n.startswith("queries.json.broken-")]
            assert len(aside) == 1, aside
            assert aside[0] in message and "line 1" in message, message
            with open(os.path.join(os.path.dirname(QUERIES_FILE), aside[0])) as f:
                assert f.read() == garbage
            shot(app, "saved-corrupt-file")
            dynogui.key("Escape")
            # the lists start empty and work: a run is recorded in a new file
            set_text(find(app.root, role="text", name="Partition key value"), "TENANT#acme")
            run(app)
            wait_for(lambda: os.path.exists(QUERIES_FILE), what="a new queries.json")
            show_tab(app, "History")
            wait_for(lambda: len(history_rows(app)) == 1, what="the new run in History")

        check("an unreadable queries.json is kept aside and the panel says why", corrupt_file_kept)
    except GuiError:
        traceback.print_exc()
        results.append(("setup", GuiError("setup failed")))
        print(f"not ok {len(results)} - setup", flush=True)
    finally:
        if app is not None:
            app.stop()
        try:
            ddb_local.delete_tables(list(tables.values()))
        except Exception:
            pass
    print(f"1..{len(results)}", flush=True)
    return 1 if any(e is not None for _, e in results) else 0


if __name__ == "__main__":
    sys.exit(main())
