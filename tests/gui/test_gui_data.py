"""End-to-end for prototyping key schemas: the table designer, sample schemas, the item editor
with safe writes, delete, import and export — the real app under Xvfb against DynamoDB Local,
driven through AT-SPI as a person would.

Run by meson as
  with-ddb-local.sh with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_data.py
Every expectation is read back from DynamoDB Local itself (boto3 through ddb_local), not from
the app.  Screenshots of each state go to $DYNO_GUI_ARTIFACTS.  Prints TAP; every step runs
even when an earlier one failed.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import base64
import json
import os
import re
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, "fixtures"))

import ddb_local  # noqa: E402
import dynogui  # noqa: E402
from dynogui import (GuiError, choose, click, column, find, find_all,  # noqa: E402
                     is_sensitive, name_of, rerun, results_table,
                     set_text, text_of, wait_for,
                     window_gone, window_named)


# The suite's DynamoDB Local is shared by every test and holds many tables; GtkListView only
# realizes the rows in view, so a table is first found with the sidebar's search, as a user
# with many tables would.
def open_menu(app, button_name):
    if button_name.startswith("Menu of table "):
        dynogui.search_sidebar(app, button_name[len("Menu of table "):])

    def button():
        # the search rebinds the rows: an accessible found a moment before may be stale
        try:
            menu = find(app.root, role="push button", name=button_name)
            return next((n for n in dynogui.walk(menu) if n is not menu
                         and n.getRoleName() in ("push button", "toggle button")), None)
        except Exception:
            return None

    dynogui.click_found(button, what=f"the button of {button_name}")
    # GTK 4.8: the AT-SPI click action of a table row's menu button, right after the tabs were
    # closed with Ctrl+W, sometimes opens nothing (seen in every run of step 6 on this
    # machine; a pointer press on the same button opens the menu): then press it, as a
    # person with a mouse does.
    try:
        wait_for(lambda: find_all(app.root, role="menu item"), timeout=3, what="a menu item")
    except dynogui.GuiError:
        dynogui.press_at(wait_for(button, what=f"the button of {button_name}"))


def sidebar_has(app, table, keys):
    dynogui.search_sidebar(app, table)
    return dynogui.sidebar_has(app, table, keys)


def open_table(app, table, keys):
    dynogui.search_sidebar(app, table)
    dynogui.open_table(app, table, keys)

APP = os.environ["DYNOTABLE_APP"]
ARTIFACTS = os.environ.get("DYNO_GUI_ARTIFACTS", os.path.join(os.getcwd(), "gui-artifacts"))

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
        if "app" in APP_STATE:
            shot(f"data-failed-{len(results)}", whole_screen=True)


def shot(name, whole_screen=False):
    dynogui.screenshot(os.path.join(ARTIFACTS, name + ".png"),
                       None if whole_screen else APP_STATE["app"].frame)


APP_STATE = {}


def windows(app):
    return [app.root.getChildAtIndex(i) for i in range(app.root.childCount)]






def dialog(app, heading_start, timeout=dynogui.DEFAULT_TIMEOUT):
    return wait_for(lambda: next((w for w in windows(app) if w.getRoleName() == "dialog"
                                  and name_of(w).startswith(heading_start)
                                  and dynogui.is_shown(w)), None),
                    timeout=timeout, what=f"the dialog {heading_start!r}")




def sidebar_names(app):
    sidebar = find(app.root, role="list", name="Tables")
    return [name_of(n) for n in find_all(sidebar) if n.getRoleName() in ("tree item", "list item")]


def app_title(app):
    """The main window's title: the table in front, or DynoTable."""
    return name_of(app.frame)










def run_scan(app):
    choose(app.root, "Operation", "Scan")
    run = find(app.root, role="push button", name="Run")
    wait_for(lambda: is_sensitive(run), what="Run to be sensitive")
    click(run)




def described(root, description):
    return wait_for(lambda: next((n for n in find_all(root)
                                  if (n.description or "") == description), None),
                    what=f"the widget described as {description!r}")


def wire(value):
    """@value as DynamoDB JSON text would carry it: binary as base64, sets in a fixed order."""
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(value).decode()
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            v = wire(v)
            out[k] = sorted(v) if k in ("SS", "NS", "BS") else v
        return out
    if isinstance(value, list):
        return [wire(v) for v in value]
    return value


def select_row(app, text):
    """Clicks the results row that shows @text, as a person would."""
    table = results_table(app)
    cell = wait_for(lambda: next((n for n in dynogui.walk(table)
                                  if n.getRoleName() in ("label", "table cell")
                                  and text_of(n) == text and dynogui.is_shown(n)), None),
                    what=f"the row showing {text!r}")
    dynogui.press_at(cell)


def labels(window):
    return [text_of(label) for label in find_all(window, role="label")]


def start(args, log_name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    # this test works on DynamoDB Local only: without the Playground (and its empty state) the
    # sidebar keeps every table it opens in view
    config = os.path.join(os.environ.get("XDG_CONFIG_HOME",
                                         os.path.expanduser("~/.config")), "dynotable")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "connections.ini"), "w") as f:
        f.write("[store]\nplayground-removed=true\n")
    return dynogui.App(APP, args, env=dict(os.environ),
                       log_path=os.path.join(ARTIFACTS, log_name + ".log"))


def main():
    endpoint = ddb_local.endpoint()
    c = ddb_local.client()
    prefix = ddb_local.unique_prefix("gd")
    designed = prefix + "orders"
    app = None
    try:
        app = start(["--endpoint-url", endpoint], "app-data")
        APP_STATE["app"] = app

        # 1. Sample schemas in one click, on the current connection.
        def samples():
            open_menu(app, "Menu of connection DynamoDB Local")
            click(find(app.root, role="menu item", name="Load Sample Schemas…"))
            window = window_named(app, "Sample Schemas")
            shot("samples-dialog", whole_screen=True)
            click(find(window, role="push button", name="Load sample schemas"))
            names = set(ddb_local.sample_names())
            # every page of ListTables: the suite's shared DynamoDB Local holds many tables
            wait_for(lambda: names <= {n for page in c.get_paginator("list_tables").paginate()
                                       for n in page["TableNames"]}, timeout=90,
                     what="the four sample tables in DynamoDB Local")
            for name in names:
                want = len(ddb_local.sample_items(name))
                wait_for(lambda: len(ddb_local.scan_all(name, c)) == want, timeout=60,
                         what=f"{want} items in {name}")
            # the dialog says it is done, then the sidebar lists them
            wait_for(lambda: any(re.search(r"\btenant (created with|existed already)", text_of(l))
                                 for l in find_all(window, role="label")),
                     what="the samples summary to name tenant")
            click(find(window, role="push button", name="Close"))
            window_gone(app, "Sample Schemas")
            sidebar_has(app, "tenant", "pk S · sk S")
            sidebar_has(app, "file-tree", "PK S · SK S")

        check("sample schemas load in one click and answer in the sidebar", samples)

        def samples_answer():
            # the seed query on the loaded sample: a folder and its descendants, in path order
            open_table(app, "file-tree", "PK S · SK S")
            set_text(find(app.root, role="text", name="Partition key value"), "DRIVE#a91")
            choose(app.root, "Sort key condition", "begins with")
            set_text(find(app.root, role="text", name="Sort key value"), "root/photos/")
            rerun(app)
            want = sorted((i["SK"]["S"] for i in ddb_local.sample_items("file-tree")
                           if i["PK"]["S"] == "DRIVE#a91" and i["SK"]["S"].startswith("root/photos/")),
                          key=lambda s: s.encode())
            wait_for(lambda: column(app, "SK") == want, what="the file-tree rows in path order")
            # one tab at a time: AT-SPI still reports the widgets of a tab in the background
            dynogui.key_combo(["control"], "w")
            find(app.root, role="label", name="No Table Open")

        check("a loaded sample answers its seed query", samples_answer)

        # 2. The table designer: every rule shown before sending, then the table as designed.
        def designer_validation():
            open_menu(app, "Menu of connection DynamoDB Local")
            click(find(app.root, role="menu item", name="New Table…"))
            window = window_named(app, "New Table")
            create = find(window, role="push button", name="Create table")
            set_text(find(window, role="text", name="Table name"), "ab")
            wait_for(lambda: any("3" in text_of(l) and "255" in text_of(l)
                                 for l in find_all(window, role="label")),
                     what="the table-name rule under the field")
            assert not is_sensitive(create)
            shot("designer-invalid", whole_screen=True)

        check("designer: a bad table name is explained and Create is off", designer_validation)

        def designer_create():
            window = window_named(app, "New Table")
            set_text(find(window, role="text", name="Table name"), designed)
            set_text(find(window, role="text", name="Partition key name"), "customer")
            set_text(find(window, role="text", name="Sort key name"), "orderDate")
            click(find(window, role="push button", name="Add index"))
            set_text(find(window, role="text", name="Index name"), "byStatus")
            set_text(find(window, role="text", name="Index partition key name"), "status")
            set_text(find(window, role="text", name="Index sort key name"), "orderDate")
            create = find(window, role="push button", name="Create table")
            wait_for(lambda: is_sensitive(create), what="Create to be sensitive")
            # the access patterns the design must serve, read against it before it exists
            patterns = os.path.join(tempfile.mkdtemp(prefix="dyno-gui-patterns-"), "p.json")
            with open(patterns, "w") as f:
                json.dump({"format": "dynotable-patterns", "version": 1, "patterns": [
                    {"name": "open-orders", "description": "open orders, oldest first",
                     "request": {"TableName": designed,
                                 "FilterExpression": "#s = :s AND orderDate > :d",
                                 "ExpressionAttributeNames": {"#s": "status"},
                                 "ExpressionAttributeValues": {":s": {"S": "OPEN"},
                                                               ":d": {"S": "2026"}}}},
                    {"name": "by-total", "request": {
                        "TableName": designed, "FilterExpression": "amount = :t",
                        "ExpressionAttributeValues": {":t": {"N": "5"}}}}]}, f)
            set_text(find(window, role="text", name="Pattern set file"), patterns)
            find(window, role="label",
                 name="Query on index byStatus: #status = :s AND orderDate > :d")
            find(window, role="label",
                 name="Needs a Scan: no key of this design has amount as its partition key")
            shot("designer-valid", whole_screen=True)
            click(create)
            window_gone(app, "New Table", timeout=60)
            # said in a toast (it goes after a few seconds: looked for first)
            find(app.root, name=f"Table “{designed}” created")
            d = c.describe_table(TableName=designed)["Table"]
            keys = {k["KeyType"]: k["AttributeName"] for k in d["KeySchema"]}
            assert keys == {"HASH": "customer", "RANGE": "orderDate"}, keys
            gsis = {g["IndexName"]: g for g in d.get("GlobalSecondaryIndexes", [])}
            assert list(gsis) == ["byStatus"], gsis
            gkeys = {k["KeyType"]: k["AttributeName"] for k in gsis["byStatus"]["KeySchema"]}
            assert gkeys == {"HASH": "status", "RANGE": "orderDate"}, gkeys
            assert gsis["byStatus"]["Projection"]["ProjectionType"] == "ALL"
            sidebar_has(app, designed, "customer S · orderDate S")
            # the new table opens in a tab of its own
            find(app.root, role="push button", name="New item")
            wait_for(lambda: app_title(app) == designed, what="the new table's tab in front")

        check("designer: the created table has the designed keys and GSI, and opens",
              designer_create)

        def only_front_tab_is_presented():
            # a second tab: only the front one's controls are presented, so "New item" and
            # "Run" act on the table the person sees
            open_table(app, "tenant", "pk S · sk S")
            wait_for(lambda: app_title(app) == "tenant", what="the tenant tab in front")
            for role, name in (("push button", "New item"), ("push button", "Run"),
                               ("text", "Partition key value")):
                shown = find_all(app.root, role=role, name=name)
                assert len(shown) == 1, (name, len(shown))
            dynogui.key_combo(["control"], "w")
            wait_for(lambda: app_title(app) == designed, what="the new table's tab in front")
            assert len(find_all(app.root, role="push button", name="New item")) == 1
            dynogui.key_combo(["control"], "w")
            find(app.root, role="label", name="No Table Open")

        check("with two tabs, only the front one is presented", only_front_tab_is_presented)

        def designer_add_gsi():
            open_menu(app, f"Menu of table {designed}")
            click(find(app.root, role="menu item", name="Add Global Secondary Index…"))
            window = window_named(app, "Add Global Secondary Index")
            add = find(window, role="push button", name="Add index")
            # the existing index's name is taken: said under the field, Add is off
            set_text(find(window, role="text", name="Index name"), "byStatus")
            set_text(find(window, role="text", name="Index partition key name"), "total")
            choose(window, "Index partition key type", "Number (N)")
            wait_for(lambda: any("byStatus" in t and ("exists" in t or "already" in t)
                                 for t in labels(window)),
                     what="the name clash under the field")
            assert not is_sensitive(add)
            set_text(find(window, role="text", name="Index name"), "byTotal")
            wait_for(lambda: is_sensitive(add), what="Add index to be sensitive")
            click(add)
            window_gone(app, "Add Global Secondary Index", timeout=60)
            d = c.describe_table(TableName=designed)["Table"]
            gsis = {g["IndexName"]: g for g in d.get("GlobalSecondaryIndexes", [])}
            assert sorted(gsis) == ["byStatus", "byTotal"], gsis
            types = {a["AttributeName"]: a["AttributeType"] for a in d["AttributeDefinitions"]}
            assert types.get("total") == "N", types

        check("designer: a GSI added to the existing table, its name checked first",
              designer_add_gsi)

        # 3. The item editor: a new item through DynamoDB JSON, every type, saved safely.
        every_type = {
            "customer": {"S": "CUST#1"},
            "orderDate": {"S": "2026-11-30"},
            "status": {"S": "OPEN"},
            "total": {"N": "12345678901234567890.123456789012345678"},
            "blob": {"B": "AAEC/w=="},
            "paid": {"BOOL": False},
            "note": {"NULL": True},
            "address": {"M": {"city": {"S": "Lisboa"}, "zip": {"N": "1000"}}},
            "lines": {"L": [{"S": "a"}, {"N": "2"}, {"L": []}]},
            "tags": {"SS": ["new", "rush"]},
            "sizes": {"NS": ["1", "2.5"]},
            "hashes": {"BS": ["AQ==", "Ag=="]},
        }

        def editor_new_item():
            open_table(app, designed, "customer S · orderDate S")
            run_scan(app)
            click(find(app.root, role="push button", name="New item"))
            window = window_named(app, "New Item")
            text = find(window, role="text", name="Item JSON")
            set_text(text, '{"customer": {"S": "CUST#1"}, "orderDate": ')
            # an error names the line where the JSON breaks; Save is off
            wait_for(lambda: any(re.search(r"[Ll]ine 1", text_of(l))
                                 for l in find_all(window, role="label")),
                     what="the JSON error with its line")
            save = find(window, role="push button", name="Save item")
            assert not is_sensitive(save)
            set_text(text, json.dumps(every_type, indent=2))
            try:
                wait_for(lambda: is_sensitive(save), what="Save to be sensitive")
            except GuiError as e:
                raise GuiError(f"{e}; the window says {labels(window)}") from None
            shot("editor-new", whole_screen=True)
            click(save)
            window_gone(app, "New Item", timeout=30)
            item = c.get_item(TableName=designed, Key={"customer": {"S": "CUST#1"},
                                                       "orderDate": {"S": "2026-11-30"}},
                              ConsistentRead=True)["Item"]
            assert wire(item) == wire(every_type), (wire(item), wire(every_type))
            wait_for(lambda: column(app, "orderDate") == ["2026-11-30"], what="the new row")

        check("editor: a new item of every type is saved exactly", editor_new_item)

        def editor_conflict():
            select_row(app, "2026-11-30")
            click(find(app.root, role="push button", name="Edit item"))
            window = window_named(app, "Edit Item")
            text = find(window, role="text", name="Item JSON")
            mine = dict(every_type, status={"S": "SHIPPED"})
            set_text(text, json.dumps(mine, indent=2))
            # someone else changes the item behind the editor's back
            c.update_item(TableName=designed,
                          Key={"customer": {"S": "CUST#1"}, "orderDate": {"S": "2026-11-30"}},
                          UpdateExpression="SET #s = :s",
                          ExpressionAttributeNames={"#s": "status"},
                          ExpressionAttributeValues={":s": {"S": "CANCELLED"}})
            click(find(window, role="push button", name="Save item"))
            conflict = wait_for(lambda: next((w for w in windows(app) if dynogui.is_shown(w)
                                              and find_all(w, role="push button",
                                                           name="Reload their version")), None),
                                what="the conflict window")
            shot("editor-conflict", whole_screen=True)
            labels = " ".join(text_of(l) for l in find_all(conflict, role="label"))
            labels += " ".join(text_of(t) for t in find_all(conflict, role="text"))
            assert "CANCELLED" in labels and "SHIPPED" in labels, labels
            # their change was not overwritten
            item = c.get_item(TableName=designed, Key={"customer": {"S": "CUST#1"},
                                                       "orderDate": {"S": "2026-11-30"}},
                              ConsistentRead=True)["Item"]
            assert item["status"] == {"S": "CANCELLED"}, item
            click(find(conflict, role="push button", name="Reload their version"))
            wait_for(lambda: "CANCELLED" in text_of(find(window, role="text", name="Item JSON")),
                     what="their version in the editor")
            click(find(window, role="push button", name="Close"))
            window_gone(app, "Edit Item")

        check("editor: a concurrent change is detected, shown and not overwritten", editor_conflict)

        def editor_form_and_duplicate():
            key = {"customer": {"S": "CUST#1"}, "orderDate": {"S": "2026-11-30"}}
            before = c.get_item(TableName=designed, Key=key, ConsistentRead=True)["Item"]
            rerun(app)
            wait_for(lambda: "2026-11-30" in column(app, "orderDate"), what="the item row")
            select_row(app, "2026-11-30")
            click(find(app.root, role="push button", name="Edit item"))
            window = window_named(app, "Edit Item")
            click(find(window, role="push button", name="Form"))
            # the typed form: the row of the attribute "status", its value entry
            name_entry = wait_for(lambda: next((e for e in find_all(window, role="text",
                                                                      name="Attribute name")
                                                if text_of(e) == "status"), None),
                                  what="the form row of status")
            row = name_entry.parent
            value = next(n for n in dynogui.walk(row) if n.getRoleName() == "text"
                         and name_of(n) == "Attribute value")
            assert text_of(value) == "CANCELLED", text_of(value)
            set_text(value, "PAID")
            save = find(window, role="push button", name="Save item")
            wait_for(lambda: is_sensitive(save), what="Save to be sensitive")
            shot("editor-form", whole_screen=True)
            click(save)
            window_gone(app, "Edit Item", timeout=30)
            after = c.get_item(TableName=designed, Key=key, ConsistentRead=True)["Item"]
            assert wire(after) == wire(dict(before, status={"S": "PAID"})), wire(after)

            # Duplicate: the same item under another key, the original untouched
            wait_for(lambda: "2026-11-30" in column(app, "orderDate"), what="the item row")
            select_row(app, "2026-11-30")
            click(find(app.root, role="push button", name="Duplicate item"))
            window = window_named(app, "Duplicate Item")
            text = find(window, role="text", name="Item JSON")
            copy = json.loads(wait_for(lambda: text_of(text), what="the copy's JSON"))
            assert wire(copy) == wire(after), copy
            copy["customer"] = {"S": "CUST#3"}
            set_text(text, json.dumps(copy, indent=2))
            save = find(window, role="push button", name="Save item")
            wait_for(lambda: is_sensitive(save), what="Save to be sensitive")
            click(save)
            window_gone(app, "Duplicate Item", timeout=30)
            dup = c.get_item(TableName=designed, Key={"customer": {"S": "CUST#3"},
                                                      "orderDate": {"S": "2026-11-30"}},
                             ConsistentRead=True)["Item"]
            assert wire(dup) == wire(dict(after, customer={"S": "CUST#3"})), wire(dup)
            assert wire(c.get_item(TableName=designed, Key=key, ConsistentRead=True)["Item"]) \
                == wire(after)

        check("editor: an edit through the typed form, then Duplicate under another key",
              editor_form_and_duplicate)

        def editor_sort_feedback():
            # on the multi-tenant sample: where a new invoice lands, and a key that breaks order
            dynogui.key_combo(["control"], "w")
            find(app.root, role="label", name="No Table Open")
            open_table(app, "tenant", "pk S · sk S")
            set_text(find(app.root, role="text", name="Partition key value"), "TENANT#acme")
            rerun(app)
            wait_for(lambda: len(column(app, "sk")) > 3, what="the tenant's items")
            click(find(app.root, role="push button", name="New item"))
            window = window_named(app, "New Item")
            text = find(window, role="text", name="Item JSON")
            # it starts in the partition being looked at
            start_item = json.loads(wait_for(lambda: text_of(text), what="the new item's JSON"))
            assert start_item == {"pk": {"S": "TENANT#acme"}, "sk": {"S": ""}}, start_item
            set_text(text, json.dumps({"pk": {"S": "TENANT#acme"}, "sk": {"S": "INVOICE#2026-0015"}}))
            wait_for(lambda: any("INVOICE#2026-0014" in t and "INVOICE#2026-0021" in t
                                 for t in labels(window)),
                     what="the place between the neighbouring invoices")
            # INVOICE#9 among INVOICE#2026-00nn: digits compare character by character
            set_text(text, json.dumps({"pk": {"S": "TENANT#acme"}, "sk": {"S": "INVOICE#9"}}))
            wait_for(lambda: any("INVOICE#9" in t and "byte" in t for t in labels(window)),
                     what="the unpadded-number warning")
            shot("editor-sort-feedback", whole_screen=True)
            click(find(window, role="push button", name="Close"))
            # unsaved changes: the editor asks before closing
            confirm = wait_for(lambda: next((w for w in windows(app) if w.getRoleName() == "dialog"
                                             and dynogui.is_shown(w)), None),
                               what="the unsaved-changes question")
            assert name_of(confirm).startswith("Discard Unsaved Changes"), name_of(confirm)
            click(find(confirm, role="push button", name="Discard"))
            window_gone(app, "New Item")
            assert not [i for i in ddb_local.scan_all("tenant", c) if i["sk"]["S"] == "INVOICE#9"]
            dynogui.key_combo(["control"], "w")
            find(app.root, role="label", name="No Table Open")
            open_table(app, designed, "customer S · orderDate S")

        check("editor: where a new key lands, and a key that breaks the order", editor_sort_feedback)

        # 4. Import a file with bad rows, then delete many, then export.
        tmp = tempfile.mkdtemp(prefix="dyno-gui-data-")
        import_path = os.path.join(tmp, "orders.jsonl")
        good = []
        with open(import_path, "w") as f:
            for i in range(40):
                if i in (7, 23):
                    f.write('{"customer": {"S": "CUST#2"}}\n')  # no sort key
                    continue
                item = {"customer": {"S": "CUST#2"}, "orderDate": {"S": f"2026-12-{i:02d}"},
                        "status": {"S": "OPEN"}}
                good.append(item)
                f.write(json.dumps(item) + "\n")

        def import_file():
            click(find(app.root, role="push button", name="Import items"))
            window = window_named(app, f"Import into {designed}", timeout=20)
            set_text(find(window, role="text", name="File path"), import_path)
            click(find(window, role="push button", name="Import"))
            wait_for(lambda: any("38" in text_of(l) and "2" in text_of(l)
                                 for l in find_all(window, role="label")),
                     timeout=60, what="the import summary")
            rejected = find(window, name="Rejected rows")
            text = " ".join(text_of(n) for n in dynogui.walk(rejected))
            assert "8" in text and "24" in text, text
            shot("import-report", whole_screen=True)
            got = [i for i in ddb_local.scan_all(designed, c) if i["customer"]["S"] == "CUST#2"]
            assert len(got) == len(good), len(got)
            click(find(window, role="push button", name="Close"))
            # a toast says what the import wrote (no query had run: nothing to update)
            wait_for(lambda: [l for l in find_all(app.root, role="label")
                              if name_of(l) == "38 items imported"],
                     what="the import's toast")

        check("import: 38 rows written, the 2 bad ones reported with their lines", import_file)

        def write_in_place():
            # three pages of five loaded: an edit, a delete and its Undo keep every page
            choose(app.root, "Operation", "Query")
            set_text(find(app.root, role="text", name="Partition key value"), "CUST#2")
            page_size = find(app.root, role="spin button", name_contains="Page size")
            dynogui.set_value(page_size, 5)
            rerun(app)
            wait_for(lambda: len(column(app, "orderDate")) == 5, what="the first page")
            load_more = find(app.root, role="push button", name="Load More")
            for n in (10, 15):
                wait_for(lambda: is_sensitive(load_more), what="Load More")
                click(load_more)
                wait_for(lambda: len(column(app, "orderDate")) == n, what=f"{n} rows")
            select_row(app, "2026-12-08")
            click(find(app.root, role="push button", name="Edit item"))
            window = window_named(app, "Edit Item")
            text = find(window, role="text", name="Item JSON")
            item = json.loads(wait_for(lambda: text_of(text), what="the item's JSON"))
            # the keys come first in the editor
            assert list(item)[:2] == ["customer", "orderDate"], list(item)
            item["status"] = {"S": "CLOSED"}
            set_text(text, json.dumps(item, indent=2))
            save = find(window, role="push button", name="Save item")
            wait_for(lambda: is_sensitive(save), what="Save to be sensitive")
            click(save)
            window_gone(app, "Edit Item", timeout=30)
            wait_for(lambda: "CLOSED" in column(app, "status"), what="the edited row")
            assert len(column(app, "orderDate")) == 15, column(app, "orderDate")

            select_row(app, "2026-12-09")
            click(find(app.root, role="push button", name="Delete selected items"))
            confirm = dialog(app, "Delete 1 item?")
            click(find(confirm, role="push button", name="Delete Item"))
            wait_for(lambda: find_all(app.root, role="label", name="1 item deleted"),
                     timeout=30, what="the toast")
            wait_for(lambda: "2026-12-09" not in column(app, "orderDate"), what="the row to leave")
            assert len(column(app, "orderDate")) == 14, column(app, "orderDate")
            key = {"customer": {"S": "CUST#2"}, "orderDate": {"S": "2026-12-09"}}
            assert "Item" not in c.get_item(TableName=designed, Key=key, ConsistentRead=True)
            click(find(app.root, role="push button", name="Undo"))
            wait_for(lambda: "2026-12-09" in column(app, "orderDate"), what="the row back")
            assert len(column(app, "orderDate")) == 15, column(app, "orderDate")
            back = c.get_item(TableName=designed, Key=key, ConsistentRead=True)["Item"]
            assert back["status"] == {"S": "OPEN"}, back
            shot("write-in-place", whole_screen=True)
            dynogui.set_value(page_size, 100)

        check("writes: an edit, a delete and its Undo keep the pages loaded", write_in_place)

        def delete_many():
            choose(app.root, "Operation", "Query")
            set_text(find(app.root, role="text", name="Partition key value"), "CUST#2")
            rerun(app)
            wait_for(lambda: len(column(app, "orderDate")) == 38, what="38 rows")
            # a click on the first row, then Ctrl+A selects every row
            select_row(app, "2026-12-00")
            dynogui.key_combo(["control"], "a")
            click(find(app.root, role="push button", name="Delete selected items"))
            confirm = dialog(app, "Delete 38 items?")
            click(find(confirm, role="push button", name="Delete Items"))
            wait_for(lambda: not [i for i in ddb_local.scan_all(designed, c)
                                  if i["customer"]["S"] == "CUST#2"],
                     timeout=60, what="the 38 items to be deleted")
            # no second dialog: the rows leave in place and a toast says so, with Undo
            wait_for(lambda: find_all(app.root, role="label", name="38 items deleted"),
                     timeout=30, what="the toast")
            wait_for(lambda: column(app, "orderDate") == [], what="the deleted rows to leave")
            assert not [w for w in windows(app) if dynogui.is_shown(w)
                        and name_of(w).startswith("Deleted")], "a second dialog"
            shot("deleted-many", whole_screen=True)

        check("delete: 38 selected items deleted through BatchWriteItem", delete_many)

        def export_file():
            set_text(find(app.root, role="text", name="Partition key value"), "CUST#1")
            rerun(app)
            wait_for(lambda: column(app, "orderDate") == ["2026-11-30"], what="the one row")
            # a row has an accessible action: it opens the item, as a double-click does
            dynogui.activate_row(results_table(app), "2026-11-30")
            editor = window_named(app, "Edit Item")
            click(find(editor, role="push button", name="Close"))
            window_gone(app, "Edit Item")
            out = os.path.join(tmp, "export.jsonl")
            click(find(app.root, role="push button", name="Export results"))
            window = window_named(app, f"Export from {designed}", timeout=20)
            # so does each option: every page of the query, chosen through AT-SPI
            all_pages = find(window, role="check box", name="All pages")
            click(all_pages)
            wait_for(lambda: all_pages.getState().contains(dynogui.pyatspi.STATE_CHECKED),
                     what="All pages to be chosen")
            set_text(find(window, role="text", name="File path"), out)
            click(find(window, role="push button", name="Export"))
            wait_for(lambda: os.path.exists(out), timeout=30, what="the export file")
            with open(out) as f:
                lines = [json.loads(l) for l in f if l.strip()]
            item = c.get_item(TableName=designed, Key={"customer": {"S": "CUST#1"},
                                                       "orderDate": {"S": "2026-11-30"}},
                              ConsistentRead=True)["Item"]
            assert [wire(line) for line in lines] == [wire(item)], lines
            click(find(window, role="push button", name="Close"))

        check("export: a row and the options act through AT-SPI; all pages as DynamoDB JSON lines",
              export_file)

        # 5. Delete the table only after typing its name.
        def delete_table():
            open_menu(app, f"Menu of table {designed}")
            click(find(app.root, role="menu item", name="Delete Table…"))
            window = wait_for(lambda: next((w for w in windows(app) if dynogui.is_shown(w)
                                            and find_all(w, role="push button",
                                                         name="Delete table")), None),
                              what="the delete-table dialog")
            button = find(window, role="push button", name="Delete table")
            assert not is_sensitive(button)
            set_text(find(window, role="text", name="Confirm table name"), designed[:-1])
            time.sleep(0.3)
            assert not is_sensitive(button)
            set_text(find(window, role="text", name="Confirm table name"), designed)
            wait_for(lambda: is_sensitive(button), what="Delete to be sensitive")
            shot("delete-table", whole_screen=True)
            click(button)
            wait_for(lambda: designed not in c.list_tables()["TableNames"], timeout=30,
                     what="the table to be deleted")
            wait_for(lambda: not any(n.startswith(designed + ",") for n in sidebar_names(app)),
                     what="the table to leave the sidebar")

        check("delete table: only after its name is typed", delete_table)
        def no_criticals():
            # a dangling object shows up as a GObject critical long before it crashes
            bad = [line for line in app.output().splitlines()
                   if re.search(r"(GLib-GObject|dynotable|dyno-client)-CRITICAL", line)]
            assert not bad, "\n".join(bad)

        check("the app logged no GObject or DynoTable critical warning", no_criticals)
    finally:
        if app is not None:
            output = app.stop()
            if any(r[1] for r in results):
                print("# app output:")
                for line in output.splitlines()[-40:]:
                    print(f"# {line}")

    print(f"1..{len(results)}")
    return 1 if any(r[1] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
