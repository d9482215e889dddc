"""Layout: at 1024 and 1280 px wide, with a long status line, nothing in the results pane is
pushed past the window's edge.  And a field's error reaches a screen reader.

Run by meson as
  with-ddb-local.sh with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_layout.py
with DYNOTABLE_APP and GSETTINGS_SCHEMA_DIR in the environment.  The window width is the app's
own setting (window-width), given through a private keyfile GSettings backend, so each width
is the one a user who left the window that wide gets.  The extents of the results pane's
controls (Export, Duplicate/Copy, the Group switch, Load More, Load All, Copy code) are read
through AT-SPI and must lie inside the window.  Screenshots go to $DYNO_GUI_ARTIFACTS.  Prints
TAP.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import os
import re
import shutil
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, "fixtures"))

import ddb_local  # noqa: E402
import dynogui  # noqa: E402
from dynogui import (click, extents, find, find_all, is_sensitive, name_of,  # noqa: E402
                     set_text, text_of, wait_for)

APP = os.environ["DYNOTABLE_APP"]
ARTIFACTS = os.environ.get("DYNO_GUI_ARTIFACTS", os.path.join(os.getcwd(), "gui-artifacts"))
WIDTHS = (1024, 1280)
N_ITEMS = 1200

# (role, accessible name) of the controls that must stay inside the window
CONTROLS = [
    ("push button", "Export results"),
    ("push button", "Import items"),
    ("push button", "Duplicate item"),
    ("push button", "Delete selected items"),
    ("check box", "Group by partition"),   # a GtkSwitch, as GTK 4.8 exposes it
    ("push button", "Load More"),
    ("push button", "Load All"),
    ("push button", "Copy code"),
    ("push button", "Run"),
]

results = []


def check(name, fn):
    try:
        fn()
        results.append((name, None))
        print(f"ok {len(results)} - {name}", flush=True)
    except Exception as e:
        results.append((name, e))
        print(f"not ok {len(results)} - {name}", flush=True)
        for line in traceback.format_exc().splitlines():
            print(f"# {line}", flush=True)


def create_table(table_name, n):
    """One partition of @n items, so that a Scan with a small page reads many pages."""
    c = ddb_local.client()
    c.create_table(TableName=table_name,
                   KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "sk", "AttributeType": "S"}],
                   BillingMode="PAY_PER_REQUEST")
    items = [{"pk": {"S": "BATCH#1"}, "sk": {"S": f"ITEM#{i:05d}"},
              "ownerName": {"S": f"owner{i % 7}"}} for i in range(n)]
    for i in range(0, n, 25):
        pending = [{"PutRequest": {"Item": item}} for item in items[i:i + 25]]
        while pending:
            out = c.batch_write_item(RequestItems={table_name: pending})
            pending = out.get("UnprocessedItems", {}).get(table_name, [])


# the sizes of the issue: 1024×768 and 1280×720 (a 1920×1080 screen at 150 %), else 800 high
HEIGHTS = {1024: 768, 1280: 720}


def settings_home(width):
    """An XDG_CONFIG_HOME whose keyfile GSettings backend holds window-width = @width."""
    home = tempfile.mkdtemp(prefix="dyno-gui-layout-")
    os.makedirs(os.path.join(home, "glib-2.0", "settings"))
    with open(os.path.join(home, "glib-2.0", "settings", "keyfile"), "w") as f:
        f.write("[com/dynotable/DynoTable]\nwindow-width=%d\nwindow-height=%d\n"
                % (width, HEIGHTS.get(width, 800)))
    return home


def control(app, role, name):
    def named():
        for node in find_all(app.root, role=role):
            if name_of(node) == name:
                return node
            # labelled by a mnemonic label: the label's text, underscore and all
            if name_of(node) == "" and any(
                    (target.name or "").replace("_", "") == name
                    for rel in node.getRelationSet()
                    if rel.getRelationType() == dynogui.pyatspi.RELATION_LABELLED_BY
                    for target in (rel.getTarget(i) for i in range(rel.getNTargets()))):
                return node
        return None
    try:
        return wait_for(named, what=f"the {role} {name!r}")
    except dynogui.GuiError:
        with open(os.path.join(ARTIFACTS, "layout-tree.txt"), "w") as f:
            f.write(dynogui.describe_tree(app.frame, max_depth=40, limit=3000))
        raise


def inside(app, width):
    frame = extents(app.frame)
    # the X window is @width wide; GTK's client-side decorations take a few pixels of it
    assert width - 16 <= frame.width <= width, f"the window is {frame.width} px wide, not {width}"
    right = frame.x + frame.width
    bad = []
    for role, name in CONTROLS:
        box = extents(control(app, role, name))
        if box.width <= 0 or box.x < frame.x or box.x + box.width > right:
            bad.append(f"{name}: x {box.x}..{box.x + box.width}, window {frame.x}..{right}")
    # the results' scroll bars (and every other one on screen) too
    table = find(app.root, role="tree table", name="Results")
    scrolled = table.parent
    bars = [b for b in find_all(scrolled, role="scroll bar") if dynogui.is_shown(b)]
    assert bars, "the results have no scroll bar on screen"
    for bar in bars + [b for b in find_all(app.root, role="scroll bar") if dynogui.is_shown(b)]:
        box = extents(bar)
        if box.x < frame.x or box.x + box.width > right:
            bad.append(f"a scroll bar: x {box.x}..{box.x + box.width}, window {frame.x}..{right}")
    assert not bad, "pushed past the window's edge:\n" + "\n".join(bad)


def run_width(endpoint, table, width):
    home = settings_home(width)
    env = dict(os.environ, GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=home)
    app = None
    try:
        os.makedirs(ARTIFACTS, exist_ok=True)
        app = dynogui.App(APP, ["--endpoint-url", endpoint, "--table", table], env=env,
                          log_path=os.path.join(ARTIFACTS, f"app-layout-{width}.log"))
        dynogui.choose(app.root, "Operation", "Scan")
        dynogui.set_value(find(app.root, role="spin button", name_contains="Page size"), 7)
        # a filter, so that the status also counts what was scanned
        set_text(find(app.root, role="text", name="Filter 1 attribute"), "ownerName")
        set_text(find(app.root, role="text", name="Filter 1 value"), "owner1")
        run = find(app.root, role="push button", name="Run")
        wait_for(lambda: is_sensitive(run), what="Run to be sensitive")
        click(run)
        status = wait_for(lambda: next((n for n in find_all(app.root, role="label")
                                        if (n.description or "") == "Run status"
                                        and "item" in text_of(n)), None),
                          what="the run status")
        # Load All is off while a page is on its way: press it once the first page is in
        load_all = control(app, "push button", "Load All")
        wait_for(lambda: "1 page" in text_of(status) or "complete" in text_of(status),
                 timeout=120, what="the first page")
        if "complete" not in text_of(status):
            wait_for(lambda: is_sensitive(load_all), timeout=120, what="Load All to be sensitive")
            click(load_all)
        wait_for(lambda: "complete" in text_of(status), timeout=120,
                 what="every page to be read")
        text = text_of(status)
        # the long line of a long run: items, pages, capacity, scanned, complete
        assert re.search(r"\d[\d,]* items · \d+ pages · .* scanned · complete", text), text
        dynogui.screenshot(os.path.join(ARTIFACTS, f"layout-{width}.png"), app.frame)
        inside(app, width)
    finally:
        if app is not None:
            app.stop()
        shutil.rmtree(home, ignore_errors=True)


NARROW = (800, 560, 360)


def shown(app, role, name):
    return wait_for(lambda: next((n for n in find_all(app.root, role=role)
                                  if name_of(n) == name and dynogui.is_shown(n)), None),
                    what=f"the {role} {name!r} on screen")


def all_inside(app, width, controls):
    frame = extents(app.frame)
    assert frame.width <= width, f"the window is {frame.width} px wide, more than {width}"
    right = frame.x + frame.width
    bad = []
    for role, name in controls:
        box = extents(shown(app, role, name))
        if box.x < frame.x or box.x + box.width > right:
            bad.append(f"{name}: x {box.x}..{box.x + box.width}, window {frame.x}..{right}")
    assert not bad, "past the window's edge:\n" + "\n".join(bad)


def queries_inside(app, width):
    """The Queries button beside Run lies inside the window, and its popover opens with
    Save Query…, the Saved and History switches and the search shown; Escape closes it.
    Where the popover's controls are drawn is seen in layout-WIDTH-queries.png, not read
    through AT-SPI: GTK 4.8 reports the extents of a popover's children off by the popover's
    own offset (at 360 px, Save Query… drawn at x 66..333 is reported at 261..494)."""
    menu = shown(app, "push button", "Queries")
    frame = extents(app.frame)
    box = extents(menu)
    assert frame.x <= box.x and box.x + box.width <= frame.x + frame.width, \
        f"Queries: x {box.x}..{box.x + box.width}, window {frame.x}..{frame.x + frame.width}"
    toggle = next((n for n in dynogui.walk(menu) if n is not menu and
                   n.getRoleName() in ("push button", "toggle button")), menu)
    click(toggle)
    try:
        find(app.root, role="push button", name="Save query")
        for name in ("Saved", "History", "Search saved queries"):
            wait_for(lambda n=name: any(c.getRoleName() != "label"
                                        for c in find_all(app.root, name=n)),
                     what=f"{name} in the Queries popover")
        dynogui.screenshot(os.path.join(ARTIFACTS, f"layout-{width}-queries.png"), app.frame)
    finally:
        dynogui.key("Escape")
        wait_for(lambda: not any(dynogui.is_shown(n)
                                 for n in find_all(app.root, role="push button",
                                                   name="Save query", shown=False)),
                 what="the Queries popover to close")


def run_narrow(endpoint, table, width):
    """Narrower than 1024: the sidebar folds away first (Show Sidebar brings it over the page);
    narrower still, the form and the results show one at a time, Run going to the results and
    a button back to the form.  Nothing a user needs is outside the window."""
    home = settings_home(width)
    env = dict(os.environ, GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=home)
    app = None
    try:
        os.makedirs(ARTIFACTS, exist_ok=True)
        app = dynogui.App(APP, ["--endpoint-url", endpoint, "--table", table], env=env,
                          log_path=os.path.join(ARTIFACTS, f"app-layout-{width}.log"))
        toggle = shown(app, "push button", "Show Sidebar")
        wait_for(lambda: not toggle.getState().contains(dynogui.pyatspi.STATE_PRESSED),
                 what="the sidebar to be folded away")
        side_by_side = width >= 800
        all_inside(app, width, [("push button", "Run"), ("push button", "Show Sidebar")]
                   + ([] if side_by_side else [("push button", "Show results")]))
        queries_inside(app, width)
        dynogui.choose(app.root, "Operation", "Scan")
        dynogui.set_value(find(app.root, role="spin button", name_contains="Page size"), 50)
        click(shown(app, "push button", "Run"))
        status = wait_for(lambda: next((n for n in find_all(app.root, role="label")
                                        if (n.description or "") == "Run status"
                                        and "item" in text_of(n) and dynogui.is_shown(n)), None),
                          what="the run status, on screen")
        results = [c for c in CONTROLS if c[1] != "Run"]
        if side_by_side:
            all_inside(app, width, CONTROLS)
        else:
            all_inside(app, width, results + [("push button", "Back to the query")])
            assert not any(n.getState().contains(dynogui.pyatspi.STATE_SHOWING)
                           for n in find_all(app.root, role="push button", name="Run")), \
                "the form still shows beside the results"
        dynogui.screenshot(os.path.join(ARTIFACTS, f"layout-{width}.png"), app.frame)
        if not side_by_side:
            click(shown(app, "push button", "Back to the query"))
            all_inside(app, width, [("push button", "Run"), ("push button", "Show results")])
            click(shown(app, "push button", "Show results"))
            wait_for(lambda: dynogui.is_shown(status), what="the results again")
        # the sidebar comes over the page, inside the window, and lists the table
        click(toggle)
        node = wait_for(lambda: next((n for n in find_all(app.root)
                                      if table in name_of(n) and dynogui.is_shown(n)
                                      and n.getRoleName() in ("label", "table cell",
                                                              "list item", "tree item")),
                                     None), what="the table in the sidebar")
        box = extents(node)
        frame = extents(app.frame)
        assert frame.x <= box.x < frame.x + frame.width, (box.x, frame.x, frame.width)
        dynogui.screenshot(os.path.join(ARTIFACTS, f"layout-{width}-sidebar.png"), app.frame)
    finally:
        if app is not None:
            app.stop()
        shutil.rmtree(home, ignore_errors=True)
def field_error_reaches_screen_readers(endpoint, table):
    """What Orca reads: the field with an error is an invalid entry described by the error."""
    app = None
    try:
        app = dynogui.App(APP, ["--endpoint-url", endpoint, "--table", table],
                          env=dict(os.environ),
                          log_path=os.path.join(ARTIFACTS, "app-layout-a11y.log"))
        path = find(app.root, role="text", name="Filter 1 attribute")
        set_text(path, "a[")

        error = find(app.root, role="label", name_contains="column")

        def is_invalid(node):
            # GTK 4.8 says STATE_INVALID; later versions STATE_INVALID_ENTRY
            state = node.getState()
            return (state.contains(dynogui.pyatspi.STATE_INVALID)
                    or state.contains(dynogui.pyatspi.STATE_INVALID_ENTRY))

        def invalid():
            return is_invalid(path) and path.description == text_of(error)
        try:
            wait_for(invalid, what="the attribute entry to be invalid and described by its error")
        except dynogui.GuiError as e:
            raise dynogui.GuiError(f"{e}: states {path.getState().getStates()}, description "
                                   f"{path.description!r}, error {text_of(error)!r}") from None
        set_text(path, "ownerName")
        wait_for(lambda: not is_invalid(path) and not path.description,
                 what="the entry to be valid again")
    finally:
        if app is not None:
            app.stop()


# GTK 4.8 gives these roles no accessible action of their own: the app adds one where GTK lacks
# it (check buttons, drop-downs, menu buttons).  GTK's own tree expander button ("Expand") is
# left: its row expands with the keyboard (+, -), and its state is exposed.
ACTIONABLE = {"check box", "radio button", "combo box", "push button", "toggle button",
              "page tab", "menu item"}
GTK_INTERNAL = {("push button", "Expand")}


def without_action(root):
    bad = set()
    for node in dynogui.walk(root):
        try:
            role = node.getRoleName()
            if role not in ACTIONABLE or not dynogui.is_shown(node):
                continue
            if (role, name_of(node)) in GTK_INTERNAL:
                continue
            try:
                n = node.queryAction().nActions
            except NotImplementedError:
                n = 0
            if n == 0:
                bad.add(f"{role} {name_of(node)!r}")
        except Exception:
            continue
    return sorted(bad)


def every_control_has_an_action(endpoint, table):
    """What a screen reader can press: every button, check box, drop-down and menu button on
    the query page with results, and in the export dialog, has an accessible action."""
    app = None
    try:
        app = dynogui.App(APP, ["--endpoint-url", endpoint, "--table", table],
                          env=dict(os.environ),
                          log_path=os.path.join(ARTIFACTS, "app-layout-actions.log"))
        dynogui.choose(app.root, "Operation", "Scan")
        click(find(app.root, role="push button", name="Run"))
        wait_for(lambda: next((n for n in find_all(app.root, role="label")
                               if (n.description or "") == "Run status"
                               and "1 page" in text_of(n)), None), what="the first page")
        bad = without_action(app.frame)
        # a drop-down opens through its action, as a screen reader would open it
        click(find(app.root, role="combo box", name="Operation"))
        wait_for(lambda: any(name_of(n) == "Get item" and dynogui.is_shown(n)
                             for n in find_all(app.root)), what="the Operation list to open")
        dynogui.key("Escape")
        click(find(app.root, role="push button", name="Export results"))
        dialog = wait_for(lambda: next((w for w in (app.root.getChildAtIndex(i)
                                                    for i in range(app.root.childCount))
                                        if name_of(w).startswith("Export from")
                                        and dynogui.is_shown(w)), None),
                          what="the export dialog")
        bad += [f"export dialog: {b}" for b in without_action(dialog)]
        assert not bad, "no accessible action:\n" + "\n".join(bad)
    finally:
        if app is not None:
            app.stop()


def main():
    endpoint = ddb_local.endpoint()
    table = ddb_local.unique_table_name("layout", "gui")
    create_table(table, N_ITEMS)
    try:
        for width in WIDTHS:
            check(f"at {width} px, the results pane's controls stay inside the window",
                  lambda w=width: run_width(endpoint, table, w))
        for width in NARROW:
            check(f"at {width} px, the sidebar folds away and every control stays reachable",
                  lambda w=width: run_narrow(endpoint, table, w))
        check("a field's error reaches screen readers (invalid state, description)",
              lambda: field_error_reaches_screen_readers(endpoint, table))
        check("every button, check box, drop-down and menu button has an accessible action",
              lambda: every_control_has_an_action(endpoint, table))
    finally:
        try:
            ddb_local.delete_tables([table])
        except Exception:
            pass
    print(f"1..{len(results)}", flush=True)
    return 1 if any(e is not None for _, e in results) else 0


if __name__ == "__main__":
    sys.exit(main())
