"""End-to-end: the real app under Xvfb against DynamoDB Local, driven through AT-SPI.

Run by meson as
  with-ddb-local.sh with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_e2e.py
with DYNOTABLE_APP (the built binary) and GSETTINGS_SCHEMA_DIR in the environment.  Expected
results are computed here from data/samples (sorted by UTF-8 bytes as DynamoDB does), not
taken from the app.  Screenshots of each state, and the app's output, go to
$DYNO_GUI_ARTIFACTS.  Prints TAP; every step runs even when an earlier one failed.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import os
import re
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, "fixtures"))

import ddb_local  # noqa: E402
import dynogui  # noqa: E402
from dynogui import (GuiError, choose, click, dropdown_options, find, find_all,  # noqa: E402
                     is_sensitive, name_of, set_text, table_headers, table_rows, text_of,
                     wait_for)

APP = os.environ["DYNOTABLE_APP"]
ARTIFACTS = os.environ.get("DYNO_GUI_ARTIFACTS", os.path.join(os.getcwd(), "gui-artifacts"))

results = []


# DYNO_GUI_ONLY=REGEX runs only the steps whose name matches (the others are reported as
# skipped), to work on a few steps without waiting for all of them.
ONLY = os.environ.get("DYNO_GUI_ONLY")


def check(name, fn, todo=None):
    """Runs one step.  A step with @todo (why it is known to fail) is reported with TAP's
    TODO directive: shown, but not failing the test until the app is fixed."""
    directive = f" # TODO {todo}" if todo else ""
    if ONLY and not re.search(ONLY, name):
        results.append((name, None))
        print(f"ok {len(results)} - {name} # SKIP not in DYNO_GUI_ONLY", flush=True)
        return
    try:
        fn()
        results.append((name, None))
        print(f"ok {len(results)} - {name}{directive}", flush=True)
    except Exception as e:  # a failed step is reported and the next one runs
        results.append((name, None if todo else e))
        print(f"not ok {len(results)} - {name}{directive}", flush=True)
        for line in traceback.format_exc().splitlines():
            print(f"# {line}", flush=True)


def shot(app, name):
    dynogui.screenshot(os.path.join(ARTIFACTS, name + ".png"), app.frame)


def sample_keys(sample, pk_name, pk_value, sk_name):
    """The sort keys of one partition of a sample, in DynamoDB order (UTF-8 bytes)."""
    keys = [item[sk_name]["S"] for item in ddb_local.sample_items(sample)
            if item[pk_name]["S"] == pk_value]
    return sorted(keys, key=lambda s: s.encode("utf-8"))


def results_table(app):
    return find(app.root, role="tree table", name="Results")


def column(app, column_name):
    """The cells of one column of the results, top to bottom (partition rows have none)."""
    table = results_table(app)
    headers = table_headers(table)
    if column_name not in headers:
        return []
    index = headers.index(column_name)
    cells = [cells[index] for cells in table_rows(table)
             if index < len(cells) and cells[index]]
    if index == 0:
        # the first column is named after the key it shows; grouped, it also holds the
        # partitions' headings ("TENANT#acme 11 items · 1.6 kB"), which are not items
        cells = [c for c in cells if not re.search(r" [0-9,]+ items? · ", c)]
    return cells


def shown_as(cell, key):
    """A key cell shows the key, or, when the keys name several entities, the entity as a tag
    apart from the rest ("INVOICE#2026-0009" as "INVOICE" and "2026-0009")."""
    if cell == key:
        return True
    for delimiter in "#|:/":
        if delimiter in key:
            return cell == key.replace(delimiter, " ", 1)
    return False


def wait_rows(app, column_name, want, what):
    seen = []

    def rows():
        seen[:] = [column(app, column_name)]
        return len(seen[0]) == len(want) and all(shown_as(c, k) for c, k in zip(seen[0], want))

    try:
        wait_for(rows, what=what)
    except GuiError as e:
        raise GuiError(f"{e}: want {want}, last seen {seen[0] if seen else None}") from None
    return want


def described(app, description):
    """The shown label whose accessible description is @description."""
    return wait_for(lambda: next((n for n in find_all(app.root, role="label")
                                  if (n.description or "") == description), None),
                    what=f"the label described as {description!r}")


def status(app):
    return text_of(described(app, "Run status"))


def run_query(app):
    run = find(app.root, role="push button", name="Run")
    wait_for(lambda: is_sensitive(run), what="Run to be sensitive")
    click(run)


def run_label_text(app):
    return text_of(described(app, "Why Run is not possible"))


N_MANY = int(os.environ.get("DYNO_GUI_MANY_ITEMS", "3000"))


def create_many_items_table(table_name, n):
    """A table with @n small items in one partition (BATCH#1), written with BatchWriteItem."""
    c = ddb_local.client()
    c.create_table(TableName=table_name,
                   KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "sk", "AttributeType": "S"}],
                   BillingMode="PAY_PER_REQUEST")
    items = [{"pk": {"S": "BATCH#1"}, "sk": {"S": f"ITEM#{i:05d}"},
              "ownerName": {"S": f"owner{i % 7}"}, "status": {"S": ("open", "done")[i % 2]},
              "weight": {"N": str(i % 97)}} for i in range(n)]
    for i in range(0, n, 25):
        pending = [{"PutRequest": {"Item": item}} for item in items[i:i + 25]]
        while pending:
            out = c.batch_write_item(RequestItems={table_name: pending})
            pending = out.get("UnprocessedItems", {}).get(table_name, [])
    return table_name


def start(args, log_name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    return dynogui.App(APP, args, env=dict(os.environ),
                       log_path=os.path.join(ARTIFACTS, log_name + ".log"))


def main():
    endpoint = ddb_local.endpoint()
    prefix = ddb_local.unique_prefix("gui")
    tables = {}
    app = None
    try:
        tables = ddb_local.create_sample_tables(prefix)

        # 1. The file tree: the sidebar, begins_with on the folder, the code, then descending.
        app = start(["--endpoint-url", endpoint, "--table", tables["file-tree"]], "app-file-tree")
        expected = [k for k in sample_keys("file-tree", "PK", "DRIVE#a91", "SK")
                    if k.startswith("root/photos/")]

        def sidebar():
            sidebar_list = find(app.root, role="list", name="Tables")
            find(sidebar_list, name=f"{tables['file-tree']}, PK S · SK S")
            find(sidebar_list, name=f"{tables['sensors']}, deviceId S · readingTs S")
            find(sidebar_list, name=f"{tables['tenant']}, pk S · sk S")
            # the table named on the command line is open in a tab, and the window says so
            find(app.root, role="label", name=tables["file-tree"])

        check("sidebar lists the tables with their key schema", sidebar)

        def file_tree_begins_with():
            set_text(find(app.root, role="text", name="Partition key value"), "DRIVE#a91")
            options = dropdown_options(app.root, "Sort key condition")
            assert options == ["any", "=", "<", "<=", ">", ">=", "between", "begins with"], options
            choose(app.root, "Sort key condition", "begins with")
            set_text(find(app.root, role="text", name="Sort key value"), "root/photos/")
            run_query(app)
            rows = wait_rows(app, "SK", expected, "the file-tree rows")
            assert "root/photos.txt" not in rows
            wait_for(lambda: re.match(rf"{len(expected)} items · 1 page · [0-9.]+ RCU", status(app)),
                     what="the status line")
            shot(app, "file-tree-begins-with")

        check("file tree: begins_with(SK, \"root/photos/\") in path order", file_tree_begins_with)

        def key_condition_text():
            label = find(app.root, role="label", name="KeyConditionExpression")
            value = text_of(label.parent.getChildAtIndex(1))
            # PK and SK are not reserved words: written as is, values as placeholders.
            assert re.fullmatch(r"PK = (:\w+) AND begins_with\(SK, (:\w+)\)", value), value
            values = text_of(find(app.root, role="label", name="ExpressionAttributeValues")
                             .parent.getChildAtIndex(1))
            assert '{"S":"DRIVE#a91"}' in values.replace(" ", "") and "root/photos/" in values, values

        check("generated KeyConditionExpression and values are shown", key_condition_text)

        def code_formats():
            formats = dropdown_options(app.root, "Code format")
            assert len(formats) == 15, formats
            choose(app.root, "Code format", next(f for f in formats if "CLI" in f))
            code = find(app.root, role="text", name="Generated code")
            wait_for(lambda: "aws dynamodb query" in text_of(code), what="the AWS CLI command")
            assert "--key-condition-expression" in text_of(code)

        check("code view offers 15 formats and shows the AWS CLI command", code_formats)

        def page_ledger():
            click(find(app.root, role="page tab", name="Pages"))
            ledger = find(app.root, role="tree table", name="Page ledger")
            rows = wait_for(lambda: table_rows(ledger), what="a ledger row")
            assert len(rows) == 1, rows
            assert rows[0][0] == "1" and rows[0][1] == str(len(expected)), rows
            shot(app, "page-ledger")
            click(find(app.root, role="page tab", name="Code"))

        check("page ledger: one row for the one page, with its Count", page_ledger)

        def descending():
            click(find(app.root, role="push button", name="Descending"))
            # keyboard-first: Ctrl+Enter runs from wherever the focus is in the tab
            run = find(app.root, role="push button", name="Run")
            wait_for(lambda: is_sensitive(run), what="Run to be sensitive")
            dynogui.key_combo(["control"], "Return")
            wait_rows(app, "SK", list(reversed(expected)), "descending rows")
            shot(app, "file-tree-descending")

        check("file tree: descending, run with Ctrl+Enter", descending)

        def text_mode():
            click(find(app.root, role="check box", name="Edit conditions as text"))
            entry = find(app.root, role="text", name="Key condition text")
            wait_for(lambda: "begins_with" in text_of(entry), what="the key condition as text")
            text = text_of(entry)
            assert "DRIVE#a91" in text and "root/photos/" in text, text
            set_text(entry, 'PK = "DRIVE#a91" AND SK BETWEEN "root/photos/2025/" AND "root/photos/2026/"')
            click(find(app.root, role="check box", name="Edit conditions as text"))
            wait_for(lambda: text_of(find(app.root, role="text", name="Sort key upper bound"))
                     == "root/photos/2026/", what="the form to take the BETWEEN back")
            assert text_of(find(app.root, role="text", name="Sort key value")) == "root/photos/2025/"
            assert dynogui.dropdown_value(find(app.root, role="combo box",
                                               name="Sort key condition")) == "between"

        check("text mode: form -> text -> form keeps the condition", text_mode)
        app.stop()

        # 2. The audit log: one day with BETWEEN, newest first; then a reversed BETWEEN.
        app = start(["--endpoint-url", endpoint, "--table", tables["audit-log"]], "app-audit-log")
        low, high = "EVT#2026-06-23T00:00:00Z", "EVT#2026-06-23T23:59:59Z"
        expected = [k for k in sample_keys("audit-log", "PK", "ACTOR#u_8814", "SK")
                    if low.encode() <= k.encode() <= high.encode()]

        def audit_between():
            assert expected, "the sample has events on 2026-06-23"
            set_text(find(app.root, role="text", name="Partition key value"), "ACTOR#u_8814")
            choose(app.root, "Sort key condition", "between")
            set_text(find(app.root, role="text", name="Sort key value"), low)
            set_text(find(app.root, role="text", name="Sort key upper bound"), high)
            click(find(app.root, role="push button", name="Descending"))
            run_query(app)
            wait_rows(app, "SK", list(reversed(expected)), "the audit-log window, newest first")
            shot(app, "audit-log-between")

        check("audit log: BETWEEN one day, newest first", audit_between)

        def validation_error():
            set_text(find(app.root, role="text", name="Sort key value"), high)
            set_text(find(app.root, role="text", name="Sort key upper bound"), low)
            upper = find(app.root, role="text", name="Sort key upper bound")

            def message_under_the_key():
                # the form's own message (not Run's reason), drawn below the upper bound
                for n in find_all(app.root, role="label"):
                    if "lower bound of BETWEEN" in text_of(n) and \
                            n.description != "Why Run is not possible" and \
                            dynogui.extents(n).y > dynogui.extents(upper).y:
                        return text_of(n)
                return None

            message = wait_for(message_under_the_key, what="the BETWEEN message under the sort key")
            run = find(app.root, role="push button", name="Run")
            wait_for(lambda: not is_sensitive(run), what="Run to turn insensitive")
            assert "BETWEEN" in run_label_text(app), run_label_text(app)
            shot(app, "validation-error")
            print(f"# validation message: {message}")

        check("validation error under the field, Run insensitive with the reason", validation_error)
        app.stop()

        # 3. The overloaded tenant table: entity chips; GetItem; a server error.
        app = start(["--endpoint-url", endpoint, "--table", tables["tenant"]], "app-tenant")
        all_keys = sample_keys("tenant", "pk", "TENANT#acme", "sk")
        invoices = [k for k in all_keys if k.startswith("INVOICE#")]

        def sidebar_indexes():
            sidebar_list = find(app.root, role="list", name="Tables")
            table_row = f"{tables['tenant']}, pk S · sk S"
            index_row = "gsi1, GSI · gsi1pk S · gsi1sk S · all"

            def row_names():
                # the list recycles its row widgets: order them by where they are drawn
                items = sorted(find_all(sidebar_list, role="list item"),
                               key=lambda n: dynogui.extents(n).y)
                return [name_of(n.getChildAtIndex(0)) for n in items if n.childCount > 0]

            # the open table shows its index nested right under it
            names = wait_for(lambda: (lambda r: r if index_row in r else None)(row_names()),
                             what="the index row")
            assert names.index(index_row) == names.index(table_row) + 1, names
            shot(app, "sidebar-indexes")

        check("sidebar: indexes nested under their table", sidebar_indexes)

        def tenant_chip():
            set_text(find(app.root, role="text", name="Partition key value"), "TENANT#acme")
            run_query(app)
            wait_rows(app, "sk", all_keys, "all items of TENANT#acme")
            chip = find(app.root, role="push button", name_contains="INVOICE ")
            assert name_of(chip) == f"INVOICE {len(invoices)}", chip.name
            users = [k for k in all_keys if k.startswith("USER#")]
            assert name_of(find(app.root, role="push button", name_contains="USER ")) \
                == f"USER {len(users)}"
            shot(app, "tenant-chips")
            click(chip)
            wait_rows(app, "sk", invoices, "only the invoices")
            assert text_of(find(app.root, role="text", name="Sort key value")) == "INVOICE#"
            shot(app, "tenant-invoices")

        check("tenant: the INVOICE chip runs begins_with(sk, \"INVOICE#\")", tenant_chip)

        def get_item():
            choose(app.root, "Operation", "Get item")
            set_text(find(app.root, role="text", name="Sort key value"), "USER#u_3002")
            run_query(app)
            wait_rows(app, "sk", ["USER#u_3002"], "the one item")
            wait_for(lambda: status(app).startswith("1 item"), what="the GetItem status")

        check("GetItem returns the one item", get_item)

        def server_error():
            choose(app.root, "Operation", "Query")
            ddb_local.delete_tables([tables["tenant"]])
            run_query(app)
            find(app.root, role="label", name="ResourceNotFoundException")
            shot(app, "server-error")

        check("server error shown with its __type and message", server_error)

        def remove_connection():
            # the built-in Playground comes first, then the DynamoDB Local connection
            for name in ("Playground", "DynamoDB Local"):
                menu = find(app.root, role="push button", name="Menu of connection " + name)
                click(next(n for n in dynogui.walk(menu)
                           if n is not menu and n.getRoleName() in ("push button",
                                                                    "toggle button")))
                click(find(app.root, role="menu item", name="Remove"))
                dialog = wait_for(lambda: next((w for w in (app.root.getChildAtIndex(i)
                                                            for i in range(app.root.childCount))
                                                if w.getRoleName() == "dialog"), None),
                                  what="the confirmation dialog")
                assert name_of(dialog).startswith("Remove “%s”" % name), dialog.name
                click(find(dialog, role="push button", name="Remove"))
                wait_for(lambda: all(w.getRoleName() != "dialog"
                                     for w in (app.root.getChildAtIndex(i)
                                               for i in range(app.root.childCount))),
                         what="the dialog to close")
            # no connection left: the sidebar's empty state, with its way forward
            find(app.root, role="label", name="No Connections")
            find(app.root, role="push button", name="Add Connection")

        check("removing the connection (confirmed) leaves the empty state", remove_connection)

        def add_connection():
            click(find(app.root, role="push button", name="Add Connection"))
            dialog = wait_for(lambda: next((w for w in (app.root.getChildAtIndex(i)
                                                        for i in range(app.root.childCount))
                                            if name_of(w) == "New Connection"), None),
                              what="the New Connection dialog")
            url = find(dialog, role="text", name="Endpoint URL")
            assert text_of(url) == "http://localhost:8000", text_of(url)  # Local's default

            def result():
                text = next((text_of(n) for n in find_all(dialog, role="label")
                             if n.description == "Connection test result" and text_of(n)), None)
                return text if text and not text.endswith("…") else None

            # nothing listens on port 9: the message says where and what failed
            set_text(url, "http://127.0.0.1:9")
            click(find(dialog, role="push button", name="Test Connection"))
            message = wait_for(result, what="the failed test's message")
            assert "127.0.0.1:9" in message and "refused" in message, message
            set_text(url, endpoint)
            click(find(dialog, role="push button", name="Test Connection"))
            wait_for(lambda: (result() or "").startswith("Connected as fakeMyKeyId in us-east-1: "),
                     what="the connection test to pass")
            shot(app, "connection-dialog")
            click(find(dialog, role="push button", name="Save"))
            # saved: back in the sidebar, tables listed
            sidebar_list = find(app.root, role="list", name="Tables")
            find(sidebar_list, name=f"{tables['file-tree']}, PK S · SK S")

        check("add a connection: Test says what failed, then connects; Save lists its tables",
              add_connection)
        app.stop()

        # 4. A long run: Stop in the middle, then resume; the shortcuts window; filter paths
        #    completed from the attributes seen.
        tables["stop"] = create_many_items_table(prefix + "many", N_MANY)
        app = start(["--endpoint-url", endpoint, "--table", tables["stop"]], "app-many")

        def stop_mid_run():
            set_text(find(app.root, role="text", name="Partition key value"), "BATCH#1")
            dynogui.set_value(find(app.root, role="spin button", name_contains="Page size"), 1)
            run_query(app)
            # found once: walking the whole tree on every poll would slow the app down
            status_label = described(app, "Run status")
            # Stop shows only while a run loads, next to Run: looked for there, not everywhere
            action_bar = find(app.root, role="push button", name="Run").parent.parent

            def counts():
                m = re.match(r"([0-9]+) items? · ([0-9]+) pages?", text_of(status_label))
                return (int(m.group(1)), int(m.group(2))) if m else None

            wait_for(lambda: counts() == (1, 1), what="the first page of one item")
            load_all = find(app.root, role="push button", name="Load All")
            wait_for(lambda: is_sensitive(load_all), what="Load All to be sensitive")
            click(load_all)
            stop = find(action_bar, role="push button", name="Stop")
            # let some pages arrive, so Stop lands in the middle of the run
            wait_for(lambda: (counts() or (0, 0))[0] >= 50, what="50 items loaded")
            at_click = counts()[0]
            click(stop)
            wait_for(lambda: "stopped" in text_of(status_label), what="the status to say stopped")
            n_items, n_pages = counts()
            print(f"# Stop pressed at {at_click} items; stopped at: {text_of(status_label)}")
            assert 50 <= n_items < N_MANY, text_of(status_label)
            # it stops where it was: reading the status and pressing Stop are two D-Bus calls
            # apart while pages keep coming (one every ~20 ms from DynamoDB Local)
            assert n_items <= at_click + 100, (at_click, text_of(status_label))
            time.sleep(1)
            assert counts() == (n_items, n_pages), ((n_items, n_pages), text_of(status_label))
            load_more = find(app.root, role="push button", name="Load More")
            wait_for(lambda: is_sensitive(load_more) and is_sensitive(load_all),
                     what="Load More and Load All to be available after Stop")
            wait_for(lambda: not dynogui.is_shown(stop), what="Stop to be hidden")
            shot(app, "run-stopped")

            # resume: the run continues from where it stopped, no item twice, to the end
            click(load_all)
            wait_for(lambda: "complete" in text_of(status_label), timeout=600, interval=1,
                     what=f"the run to complete ({N_MANY} items)")
            n_items, n_pages = counts()
            print(f"# resumed to: {text_of(status_label)}")
            assert n_items == N_MANY, text_of(status_label)
            assert n_pages >= N_MANY, text_of(status_label)  # one item per page (Limit 1)
            assert "stopped" not in text_of(status_label), text_of(status_label)
            wait_for(lambda: not is_sensitive(load_more), what="Load More to turn insensitive")
            shot(app, "run-resumed-complete")

        check(f"Stop in the middle of a Load All with Limit 1, then resume to all {N_MANY} items",
              stop_mid_run)

        def partition_count():
            # the partition row counts the items of every page, not only of the first one
            rows = table_rows(results_table(app))
            assert rows and rows[0] and rows[0][0].startswith("BATCH#1 "), rows[:2]
            assert f"{N_MANY} items" in rows[0][0], rows[0][0]

        check("the partition row counts all the pages' items", partition_count)

        def partition_opens_and_closes():
            # The heading's button (a disclosure button: its expanded state says which) and
            # the keyboard on the focused heading (-, +) close and open the partition.
            table = results_table(app)
            button = find(table, role="push button", name="Partition items")

            def expanded():
                return button.getState().contains(dynogui.pyatspi.STATE_EXPANDED)

            def n_rows():
                return len(table_rows(table))

            assert expanded(), button.getState().getStates()
            click(button)
            wait_for(lambda: n_rows() == 1 and not expanded(), what="the partition to close")
            click(button)
            wait_for(lambda: n_rows() > 1 and expanded(), what="the partition to open")
            heading = next(c for c in dynogui.walk(table) if c.getRoleName() == "table cell"
                           and any(t.startswith("BATCH#1") for t in dynogui.labels_in(c)))
            dynogui.press_at(heading)   # the heading's row has the focus
            dynogui.key_sym(0x2D)       # minus
            wait_for(lambda: n_rows() == 1 and not expanded(), what="- to close the partition")
            dynogui.key_sym(0x2B)       # plus
            wait_for(lambda: n_rows() > 1 and expanded(), what="+ to open the partition")

        check("the partition heading closes and opens (its button, -, +)",
              partition_opens_and_closes)

        def path_completion():
            # The run above has seen the attributes: a filter path completes from them.  GTK
            # 4.8 leaves the completion popup (a tree view in a popover) out of the
            # accessibility tree, so what is checked is what it does to the entry, as a person
            # typing sees it: the start of a name is completed inline; accepting it (End)
            # keeps the whole name and typing continues after it (e.g. a nested path).
            path = find(app.root, role="text", name="Filter 1 attribute")

            def wait_text(want, what):
                seen = []
                try:
                    wait_for(lambda: seen.append(text_of(path)) or seen[-1] == want, what=what)
                except GuiError as e:
                    raise GuiError(f"{e}: the entry holds {seen[-1] if seen else None!r}") from None

            dynogui.focus(path)
            dynogui.type_string("own")
            wait_text("ownerName", "the entry to be completed to ownerName")
            shot(app, "filter-path-completion")
            # End accepts the proposal: the caret goes after the name, nothing left selected
            dynogui.key("End")
            dynogui.type_string(".")
            wait_text("ownerName.", "typing to go on after the accepted name")

            # a name never seen is not completed
            set_text(path, "")
            dynogui.type_string("zq")
            time.sleep(1)
            assert text_of(path) == "zq", text_of(path)
            set_text(path, "")

        check("filter path completes from the attributes seen in results", path_completion)

        def shortcuts_window():
            # Ctrl+? (Shift is part of '?')
            dynogui.key_combo(["control", "shift"], "question")

            def shortcuts():
                for window in dynogui.app_windows(app):
                    if "Shortcuts" in name_of(window) and dynogui.is_shown(window):
                        return window
                return None

            window = wait_for(shortcuts, what="the shortcuts window")
            texts = [text_of(n) for n in dynogui.walk(window) if n.getRoleName() == "label"]
            for wanted in ("Queries", "Tables and Tabs", "General", "Run the request", "Stop",
                           "Copy the code", "Search tables", "New tab on the same table",
                           "Close tab", "Keyboard shortcuts", "Items", "New item",
                           "Delete the selected items"):
                assert wanted in texts, (wanted, texts)
            shot(app, "shortcuts-window")
            dynogui.key("Escape")
            wait_for(lambda: shortcuts() is None, what="the shortcuts window to close")

        check("Ctrl+? opens the shortcuts window with its sections; Escape closes it",
              shortcuts_window)

        app.stop()
        app = None
    finally:
        if app is not None:
            app.stop()
        if tables:
            ddb_local.delete_tables(tables.values())

    failed = [name for name, e in results if e]
    print(f"1..{len(results)}")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except GuiError as e:
        print(f"Bail out! {e}")
        sys.exit(1)
