"""Workspaces: several Playgrounds, each on its own file, made, exported, opened, duplicated.

A new workspace gets a table and a saved pattern set; it is exported to a file of the test's
choosing; that file, opened as another workspace, lists the table and checks the saved patterns
with no pattern file given; a duplicate of it lists the table too.  After the app quits, the
exported file is served by `dynotable-cli serve` and read with boto3 (a peer that shares no code
with the app), and its pattern table is read with Python's sqlite3.

Run by meson as
  with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_workspaces.py
(with-keyring.sh gives a fresh HOME, XDG_DATA_HOME and XDG_CONFIG_HOME.)  Prints TAP; every step
runs even when an earlier one failed.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import dynogui  # noqa: E402
from dynogui import (click, find, find_all, open_menu, set_text, text_of, wait_for,  # noqa: E402
                     window_gone, window_named)

APP = os.environ["DYNOTABLE_APP"]
CLI = os.environ["DYNOTABLE_CLI"]
ARTIFACTS = os.environ.get("DYNO_GUI_ARTIFACTS", os.path.join(os.getcwd(), "gui-artifacts"))
DATA = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
SHOP = os.path.join(DATA, "dynotable", "workspaces", "Shop.dynotable")
OUT = tempfile.mkdtemp(prefix="dyno-gui-workspaces-")
SHARED = os.path.join(OUT, "shared.dynotable")
PATTERNS = {"format": "dynotable-patterns", "version": 1, "patterns": [
    {"name": "by-id", "description": "One order by its id",
     "request": {"TableName": "orders", "KeyConditionExpression": "id = :i"},
     "parameters": {":i": {"S": "o-1"}}}]}

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


def shot(app, name, frame=None):
    dynogui.screenshot(os.path.join(ARTIFACTS, name + ".png"), frame or app.frame)


def connection_row(app, name):
    sidebar = find(app.root, role="list", name="Tables")
    return find(sidebar, name_contains=f"{name}, Built in · ")


def served_tables(path):
    """The workspace as `dynotable-cli serve` serves it: {table: item count}, read by boto3."""
    import boto3

    server = subprocess.Popen([CLI, "serve", "--port", "0", "--data", path],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:"), line
        c = boto3.client("dynamodb", endpoint_url=line.split()[-1], region_name="us-east-1",
                         aws_access_key_id="any", aws_secret_access_key="any")
        return {name: c.scan(TableName=name, Select="COUNT")["Count"]
                for name in c.list_tables()["TableNames"]}
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0


def main():
    print("TAP version 13", flush=True)
    os.makedirs(ARTIFACTS, exist_ok=True)
    patterns_file = os.path.join(OUT, "patterns.json")
    with open(patterns_file, "w") as f:
        json.dump(PATTERNS, f)

    app = dynogui.App(APP, [], env=dict(os.environ),
                      log_path=os.path.join(ARTIFACTS, "workspaces.log"))
    try:
        def new_workspace():
            open_menu(app, "Main Menu")
            click(find(app.root, role="menu item", name="New Workspace…"))
            window = window_named(app, "New Workspace")
            set_text(find(window, role="text", name="Workspace name"), "Shop")
            click(find(window, role="push button", name="Create workspace"))
            window_gone(app, "New Workspace")
            row = connection_row(app, "Shop")
            assert "Shop.dynotable" in dynogui.name_of(row), dynogui.name_of(row)
            wait_for(lambda: os.path.exists(SHOP), what="the workspace file in the data folder")

        check("New Workspace makes a Playground on NAME.dynotable, shown in the sidebar",
              new_workspace)

        def table_in_it():
            open_menu(app, "Menu of connection Shop")
            click(find(app.root, role="menu item", name="New Table…"))
            window = window_named(app, "New Table")
            set_text(find(window, role="text", name="Table name"), "orders")
            set_text(find(window, role="text", name="Partition key name"), "id")
            create = find(window, role="push button", name="Create table")
            wait_for(lambda: dynogui.is_sensitive(create), what="Create to be sensitive")
            click(create)
            window_gone(app, "New Table", timeout=60)
            dynogui.sidebar_has(app, "orders", "id S")

        check("a table is created in the new workspace", table_in_it)

        def save_patterns():
            open_menu(app, "Menu of connection Shop")
            click(find(app.root, role="menu item", name="Check Access Patterns…"))
            window = window_named(app, "Check Access Patterns")
            set_text(find(window, role="text", name="Pattern set file"), patterns_file)
            click(find(window, role="push button", name="Save pattern set to workspace"))
            wait_for(lambda: any(text_of(l) == "1 pattern saved in the workspace"
                                 for l in find_all(window, role="label")),
                     what="the pattern set saved")
            dynogui.key("Escape")
            window_gone(app, "Check Access Patterns")

        check("Check Access Patterns saves a pattern set in the workspace", save_patterns)

        def export():
            open_menu(app, "Menu of connection Shop")
            click(find(app.root, role="menu item", name="Export Workspace…"))
            window = window_named(app, "Export Workspace")
            entry = find(window, role="text", name="Export file")
            assert text_of(entry).endswith("Shop.dynotable"), text_of(entry)
            set_text(entry, SHARED)
            shot(app, "workspace-export", window)
            click(find(window, role="push button", name="Export workspace"))
            window_gone(app, "Export Workspace", timeout=60)
            assert os.path.getsize(SHARED) > 0

        check("Export Workspace writes a copy to the chosen file", export)

        def open_exported():
            open_menu(app, "Main Menu")
            click(find(app.root, role="menu item", name="Open Workspace…"))
            window = window_named(app, "Open Workspace")
            set_text(find(window, role="text", name="Workspace file"), SHARED)
            click(find(window, role="push button", name="Open workspace"))
            window_gone(app, "Open Workspace")
            connection_row(app, "shared")
            sidebar = find(app.root, role="list", name="Tables")
            wait_for(lambda: len(find_all(sidebar, name="orders, id S")) == 2,
                     what="orders listed under both workspaces")
            shot(app, "workspace-opened")

        check("the exported file opens as another workspace and lists the table", open_exported)

        def patterns_travel():
            open_menu(app, "Menu of connection shared")
            click(find(app.root, role="menu item", name="Check Access Patterns…"))
            window = window_named(app, "Check Access Patterns")
            assert text_of(find(window, role="text", name="Pattern set file")) == ""
            click(find(window, role="push button", name="Check the patterns"))
            wait_for(lambda: any(text_of(l) == "1 of 1 pattern passed"
                                 for l in find_all(window, role="label")),
                     timeout=60, what="the saved patterns checked")
            names = [text_of(l) for l in find_all(window, role="label")]
            assert "Passed: by-id" in names, names
            dynogui.key("Escape")
            window_gone(app, "Check Access Patterns")

        check("the opened workspace brings its pattern set: checked with no file given",
              patterns_travel)

        def designer_reads_saved_set():
            open_menu(app, "Menu of connection shared")
            click(find(app.root, role="menu item", name="New Table…"))
            window = window_named(app, "New Table")
            assert text_of(find(window, role="text", name="Pattern set file")) == ""
            set_text(find(window, role="text", name="Table name"), "orders")
            set_text(find(window, role="text", name="Partition key name"), "id")
            find(window, role="label", name="Query on the table: id = :i")
            click(find(window, role="push button", name="Cancel"))
            window_gone(app, "New Table")

        check("the table designer reads the workspace's saved pattern set when no file is given",
              designer_reads_saved_set)

        def duplicate():
            open_menu(app, "Menu of connection shared")
            click(find(app.root, role="menu item", name="Duplicate Workspace…"))
            window = window_named(app, "Duplicate Workspace")
            entry = find(window, role="text", name="Workspace name")
            assert text_of(entry) == "shared copy", text_of(entry)
            click(find(window, role="push button", name="Duplicate workspace"))
            window_gone(app, "Duplicate Workspace", timeout=60)
            connection_row(app, "shared copy")
            sidebar = find(app.root, role="list", name="Tables")
            wait_for(lambda: len(find_all(sidebar, name="orders, id S")) == 3,
                     what="orders listed under the duplicate too")
            assert os.path.exists(os.path.join(DATA, "dynotable", "workspaces",
                                               "shared copy.dynotable"))

        check("Duplicate Workspace copies it into a new workspace", duplicate)

        def open_twice_refused():
            open_menu(app, "Main Menu")
            click(find(app.root, role="menu item", name="Open Workspace…"))
            window = window_named(app, "Open Workspace")
            # a file that is not a workspace: refused before it becomes a Playground
            set_text(find(window, role="text", name="Workspace file"), patterns_file)
            click(find(window, role="push button", name="Open workspace"))
            wait_for(lambda: any("is not a workspace file" in text_of(l)
                                 for l in find_all(window, role="label")),
                     what="the file said not to be a workspace")
            set_text(find(window, role="text", name="Workspace file"), SHARED)
            click(find(window, role="push button", name="Open workspace"))
            wait_for(lambda: any("already open" in text_of(l)
                                 for l in find_all(window, role="label")),
                     what="the workspace said to be open already")
            dynogui.key("Escape")
            window_gone(app, "Open Workspace")

        check("a workspace already open is not opened twice, nor a file that is not one",
              open_twice_refused)

        def export_onto_open_refused():
            size = os.path.getsize(SHOP)
            open_menu(app, "Menu of connection shared")
            click(find(app.root, role="menu item", name="Export Workspace…"))
            window = window_named(app, "Export Workspace")
            set_text(find(window, role="text", name="Export file"), SHOP)
            click(find(window, role="push button", name="Export workspace"))
            wait_for(lambda: any("is an open workspace" in text_of(l)
                                 for l in find_all(window, role="label")),
                     what="the export onto an open workspace refused")
            dynogui.key("Escape")
            window_gone(app, "Export Workspace")
            assert os.path.getsize(SHOP) == size

        check("a workspace is not exported onto another open one", export_onto_open_refused)
    finally:
        app.stop()

    def exported_file():
        assert served_tables(SHARED) == {"orders": 0}
        db = sqlite3.connect(SHARED)
        try:
            rows = db.execute("SELECT name, json FROM dyno_patterns").fetchall()
        finally:
            db.close()
        assert [(name, json.loads(text)) for name, text in rows] == [("default", PATTERNS)], rows

    check("the exported file holds the table (`dynotable-cli serve`) and the pattern set",
          exported_file)

    def cli_checks_saved_set():
        done = subprocess.run([CLI, "patterns", "check", "--workspace", SHARED],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (done.returncode, done.stdout, done.stderr)
        assert done.stdout.startswith("PASS by-id: Query on orders"), done.stdout
        # the duplicate carries it too
        copy = os.path.join(DATA, "dynotable", "workspaces", "shared copy.dynotable")
        done = subprocess.run([CLI, "patterns", "check", "--workspace", copy],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "PASS by-id" in done.stdout, (done.stdout, done.stderr)
        # the default workspace has none saved: said, exit status 2
        default = os.path.join(DATA, "dynotable", "playground.sqlite")
        done = subprocess.run([CLI, "patterns", "check", "--workspace", default],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, (done.returncode, done.stderr)
        assert "no saved pattern set" in done.stderr, done.stderr

    check("`dynotable-cli patterns check --workspace` checks the set saved in the file",
          cli_checks_saved_set)

    print(f"1..{len(results)}", flush=True)
    return 0 if all(error is None for _, error in results) else 1


if __name__ == "__main__":
    sys.exit(main())
