"""Drive the real DynoTable through the accessibility tree (AT-SPI), as a person would.

Runs with Debian's /usr/bin/python3 (python3-pyatspi), inside a D-Bus session with an X server
(tests/fixtures/with-keyring.sh + with-xvfb.sh).  Widgets are found by role and accessible
name, which is also what screen-reader users rely on.

What GTK 4.8 exposes, and how this module copes with it:
- A button's name is its label property followed by its child label's text ("Load _More Load
  More", "Run Run"): names are compared after clean_name(), which drops the mnemonic
  underscores and the repeated half.
- Hidden widgets are left out of the tree, but every page of a GtkStack is in it: a widget on
  a page that is not shown has an empty extent, which is_shown() checks.
- A GtkDropDown's options are list items without actions: choose() opens the popup and picks
  the option with the keyboard (XTEST through the registry, which needs DISPLAY in the
  session bus's activation environment; with-xvfb.sh sees to it).

SPDX-License-Identifier: GPL-3.0-or-later
"""

import os
import re
import subprocess
import time

import gi
gi.require_version("Atspi", "2.0")
import pyatspi  # noqa: E402
from gi.repository import Atspi  # noqa: E402

DEFAULT_TIMEOUT = float(os.environ.get("DYNO_GUI_TIMEOUT", "20"))

KEYSYMS = {"Down": 0xFF54, "Up": 0xFF52, "Home": 0xFF50, "End": 0xFF57, "Return": 0xFF0D,
           "Escape": 0xFF1B, "Tab": 0xFF09, "space": 0x20, "Control_L": 0xFFE3,
           "Shift_L": 0xFFE1, "Delete": 0xFFFF}
KEYSYMS.update({c: ord(c) for c in "abcdefghijklmnopqrstuvwxyz"})  # Ctrl+W, Ctrl+A, …


class GuiError(AssertionError):
    pass


def wait_for(predicate, timeout=DEFAULT_TIMEOUT, interval=0.1, what="condition"):
    """Polls @predicate until it returns a true value, which is returned."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = predicate()
            if value:
                return value
        except GuiError:
            raise
        except Exception as e:  # the tree changes under us while the app works
            last_error = e
        if time.monotonic() >= deadline:
            break
        time.sleep(interval)
    raise GuiError(f"timed out after {timeout:.0f} s waiting for {what}"
                   + (f" (last error: {last_error!r})" if last_error else ""))


def clean_name(name):
    """'Load _More Load More' -> 'Load More'; 'Run Run' -> 'Run'."""
    name = re.sub(r"_(?=\w)", "", name or "").strip()
    half = len(name) // 2
    # GTK 4.8 reads a labelled button as its accessible label, then its child's text: the two
    # may differ in case ("Load sample schemas Load Sample Schemas")
    if len(name) % 2 == 1 and name[half] == " " and name[:half].lower() == name[half + 1:].lower():
        return name[:half]
    return name


def walk(acc, max_depth=80):
    """@acc and every descendant, depth first, in document order."""
    stack = [(acc, 0)]
    while stack:
        node, depth = stack.pop()
        if node is None:
            continue
        yield node
        if depth >= max_depth:
            continue
        try:
            n = node.childCount
        except Exception:
            continue
        children = []
        for i in range(n):
            try:
                children.append(node.getChildAtIndex(i))
            except Exception:
                pass
        for child in reversed(children):
            stack.append((child, depth + 1))


def extents(acc):
    return acc.queryComponent().getExtents(pyatspi.WINDOW_COORDS)


def is_shown(acc):
    """On screen: visible and with a size (pages of a GtkStack that are not shown have none)."""
    try:
        if not acc.getState().contains(pyatspi.STATE_VISIBLE):
            return False
        box = extents(acc)
        return box.width > 0 and box.height > 0
    except Exception:
        return False


def is_sensitive(acc):
    return acc.getState().contains(pyatspi.STATE_SENSITIVE)


def name_of(acc):
    return clean_name(acc.name)


def _shown_texts(node):
    """The texts a person sees on @node: its own labels and the labels that label it."""
    texts = set()
    for child in walk(node, max_depth=3):
        if child is not node and child.getRoleName() == "label":
            texts.add(clean_name(child.name).lower())
    try:
        for relation in node.getRelationSet():
            if relation.getRelationType() == pyatspi.RELATION_LABELLED_BY:
                for i in range(relation.getNTargets()):
                    texts.add(clean_name(relation.getTarget(i).name).lower())
    except Exception:
        pass
    return texts


def _named_then_labelled(node, name):
    """GTK 4.8 reads a widget with an accessible label and a visible label (a button's text, an
    entry's mnemonic label) as both: "Save item Save", "File path File".  @name is the
    accessible label when the rest is exactly what the widget shows."""
    full = (node.name or "").strip()
    if not full.startswith(name + " "):
        return False
    rest = clean_name(full[len(name) + 1:]).lower()
    return bool(rest) and rest in _shown_texts(node)


def find_all(root, role=None, name=None, name_contains=None, shown=True):
    found = []
    for node in walk(root):
        try:
            if role is not None and node.getRoleName() != role:
                continue
            node_name = name_of(node)
            if name is not None and node_name != name and (node.name or "") != name \
               and not _named_then_labelled(node, name):
                continue
            if name_contains is not None and name_contains not in node_name:
                continue
            if shown and not is_shown(node):
                continue
            found.append(node)
        except Exception:
            continue
    return found


def find(root, role=None, name=None, name_contains=None, timeout=DEFAULT_TIMEOUT, shown=True):
    what = f"{role or 'any role'} named {name if name is not None else name_contains!r}"
    return wait_for(lambda: (find_all(root, role, name, name_contains, shown) or [None])[0],
                    timeout=timeout, what=what)


def text_of(acc):
    """A label's text is its name in GTK 4.8; entries and text views have the Text interface."""
    try:
        if acc.getRoleName() in ("text", "entry", "password text"):
            t = acc.queryText()
            # GTK 4.8 answers "" to getText(0, -1): ask for the exact length
            return t.getText(0, t.characterCount)
    except Exception:
        pass
    name = acc.name or ""
    # an empty GtkLabel is named after its type
    return "" if name == "GtkLabel" else name


def labels_in(acc):
    return [text_of(n) for n in walk(acc) if n.getRoleName() == "label"]


def set_text(acc, text):
    """Replaces an entry's text, as typing would (the app sees "changed")."""
    acc.queryEditableText().setTextContents(text)
    wait_for(lambda: text_of(acc) == text, timeout=DEFAULT_TIMEOUT, what=f"the entry to hold {text!r}")


def click(acc):
    action = acc.queryAction()
    names = [action.getName(i) for i in range(action.nActions)]
    for wanted in ("click", "activate", "press", "toggle"):
        if wanted in names:
            action.doAction(names.index(wanted))
            return
    # a widget's own action (e.g. "a11y.activate" on a check box, "row.activate" on a row)
    for i, name in enumerate(names):
        if name.endswith(".activate"):
            action.doAction(i)
            return
    if not names:
        raise GuiError(f"{acc.getRoleName()} {acc.name!r} has no action")
    action.doAction(0)


def click_found(finder, timeout=DEFAULT_TIMEOUT, what="a control"):
    """Finds a control with @finder and clicks it, finding it again while the click fails:
    a list that rebinds its rows (a search, a refresh) disposes the accessible found a moment
    before, and AT-SPI then answers the click with "No such interface"."""
    def found_and_clicked():
        acc = finder()
        if acc is None:
            return False
        click(acc)
        return True
    wait_for(found_and_clicked, timeout=timeout, what=f"{what} to be clicked")


def activate_row(table, text):
    """Activates, through its accessible action (as a screen reader would), the results row
    whose first cell shows @text."""
    for cell in walk(table):
        if cell.getRoleName() != "table cell" or text not in labels_in(cell):
            continue
        for node in walk(cell):
            try:
                action = node.queryAction()
            except NotImplementedError:
                continue
            names = [action.getName(i) for i in range(action.nActions)]
            if "row.activate" in names:
                action.doAction(names.index("row.activate"))
                return
    raise GuiError(f"no row showing {text!r} with an activate action")


def key(keysym_name):
    """Presses and releases a key (X keysym name, e.g. 'Down', 'Return') on the focused widget."""
    keyval = KEYSYMS[keysym_name]
    pyatspi.Registry.generateKeyboardEvent(keyval, None, pyatspi.KEY_SYM)


def key_combo(modifiers, keysym_name):
    """Presses @keysym_name with @modifiers held ("control", "shift"), e.g. Ctrl+Return."""
    masks = {"shift": 1 << 0, "control": 1 << 2, "alt": 1 << 3}
    mask = 0
    for m in modifiers:
        mask |= masks[m]
    Atspi.generate_keyboard_event(mask, None, Atspi.KeySynthType.LOCKMODIFIERS)
    try:
        key(keysym_name)
    finally:
        Atspi.generate_keyboard_event(mask, None, Atspi.KeySynthType.UNLOCKMODIFIERS)


def is_focused(acc):
    return acc.getState().contains(pyatspi.STATE_FOCUSED)


def dropdown_value(dropdown):
    """The option a closed GtkDropDown shows."""
    values = [t for t in labels_in(dropdown) if t and t != "(None)"]
    return values[0] if len(values) == 1 else None


def _open_popup(dropdown, dropdown_name, timeout):
    """Opens a GtkDropDown's popup; returns its option rows and their texts once one of them
    has the keyboard focus.  A popup that opened without focus (or did not open) is closed
    and opened again."""
    toggle = next(n for n in walk(dropdown)
                  if n.getRoleName() in ("push button", "toggle button"))

    def popup_items():
        items = [n for n in walk(dropdown) if n.getRoleName() == "list item"]
        if items and any(is_focused(n) for n in items):
            texts = [next((t for t in labels_in(n) if t), "") for n in items]
            return items, texts
        return None

    deadline = time.monotonic() + timeout
    while True:
        click(toggle)
        try:
            return wait_for(popup_items, timeout=min(3, max(0.5, deadline - time.monotonic())),
                            what=f"the options of {dropdown_name!r} with keyboard focus")
        except GuiError:
            if time.monotonic() >= deadline:
                raise
            if any(n.getRoleName() == "list item" for n in walk(dropdown)):
                key("Escape")
                wait_for(lambda: not any(n.getRoleName() == "list item" for n in walk(dropdown)),
                         timeout=DEFAULT_TIMEOUT, what=f"{dropdown_name!r} to close")


def choose(root, dropdown_name, option, timeout=DEFAULT_TIMEOUT):
    """Picks @option of the GtkDropDown named @dropdown_name as a keyboard user does: open
    the popup, go to the first option, then down to @option, and Return."""
    dropdown = find(root, role="combo box", name=dropdown_name, timeout=timeout)
    if dropdown_value(dropdown) == option:
        return
    items, texts = _open_popup(dropdown, dropdown_name, timeout)
    if option not in texts:
        key("Escape")
        raise GuiError(f"{dropdown_name!r} has no option {option!r} (it offers {texts})")
    key("Home")
    wait_for(lambda: is_focused(items[0]), timeout=DEFAULT_TIMEOUT, what="the first option focused")
    for _ in range(texts.index(option)):
        key("Down")
    wait_for(lambda: is_focused(items[texts.index(option)]), timeout=DEFAULT_TIMEOUT,
             what=f"option {option!r} focused")
    key("Return")
    wait_for(lambda: dropdown_value(dropdown) == option, timeout=timeout,
             what=f"{dropdown_name!r} to show {option!r}")


def _combo_row_parts(row):
    """An AdwComboRow's shown value and, while its popover is open, its options: (value,
    [(option node, text)]).  Both are GtkListViews inside the row; the options' is in the
    GtkPopover."""
    value, options = None, []
    stack = [(row, False)]
    while stack:
        node, in_popover = stack.pop()
        try:
            role, name = node.getRoleName(), node.name or ""
            children = [node.getChildAtIndex(i) for i in range(node.childCount)]
        except Exception:
            continue
        in_popover = in_popover or name == "GtkPopover"
        if role == "list item":
            text = next((t for t in labels_in(node) if t), "")
            if in_popover and is_shown(node):
                options.append((node, text))
            elif not in_popover:
                value = text
            continue
        stack.extend((c, in_popover) for c in reversed(children) if c is not None)
    return value, options


def choose_row(root, row_name, option, timeout=DEFAULT_TIMEOUT):
    """Picks @option of the AdwComboRow named @row_name as a person does: click the row, then
    go to the option in its popover with the keyboard."""
    row = find(root, role="combo box", name=row_name, timeout=timeout)
    if _combo_row_parts(row)[0] == option:
        return
    press_at(row)
    options = wait_for(lambda: _combo_row_parts(row)[1] or None, timeout=timeout,
                       what=f"the options of {row_name!r}")
    texts = [t for _, t in options]
    if option not in texts:
        key("Escape")
        raise GuiError(f"{row_name!r} has no option {option!r} (it offers {texts})")
    # the popover is a surface of its own, whose coordinates AT-SPI does not give: keyboard
    wait_for(lambda: any(is_focused(n) for n, _ in _combo_row_parts(row)[1]), timeout=timeout,
             what=f"an option of {row_name!r} to have the focus")
    key("Home")
    for _ in range(texts.index(option)):
        key("Down")
    key("Return")
    wait_for(lambda: _combo_row_parts(row)[0] == option, timeout=timeout,
             what=f"{row_name!r} to show {option!r}")


def dropdown_options(root, dropdown_name, timeout=DEFAULT_TIMEOUT):
    """Opens the dropdown, reads its options and closes it again (Escape)."""
    dropdown = find(root, role="combo box", name=dropdown_name, timeout=timeout)
    _, options = _open_popup(dropdown, dropdown_name, timeout)
    key("Escape")
    wait_for(lambda: not any(n.getRoleName() == "list item" for n in walk(dropdown)),
             timeout=timeout, what=f"{dropdown_name!r} to close")
    return options


def table_rows(table):
    """The rows of a GtkColumnView (role 'tree table') as lists of cell texts, top to bottom.
    GTK 4.8: tree table > list > table row > table cell > the cell's widgets."""
    rows = []
    for node in walk(table):
        if node.getRoleName() != "table row":
            continue
        cells = [node.getChildAtIndex(i) for i in range(node.childCount)]
        if not cells or cells[0].getRoleName() != "table cell":
            continue  # the header row
        box = extents(node)
        rows.append((box.y, [" ".join(t for t in labels_in(c) if t) for c in cells]))
    # the list view recycles rows: order by position on screen, not by tree order
    rows.sort(key=lambda r: r[0])
    return [cells for _, cells in rows]


def table_headers(table):
    for node in walk(table, max_depth=3):
        if node.getRoleName() == "table row":
            cells = [node.getChildAtIndex(i) for i in range(node.childCount)]
            if cells and cells[0].getRoleName() != "table cell":
                return [" ".join(t for t in labels_in(c) if t) for c in cells]
    return []


def screenshot(path, frame=None):
    """The screen (or only @frame's window) as a PNG."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    args = ["import", "-window", "root"]
    if frame is not None:
        # GTK 4 knows no screen coordinates (it warns when asked): without a window manager
        # the window sits at the origin, so its size is the crop
        try:
            box = extents(frame)
            if box.width > 0 and box.height > 0:
                args += ["-crop", f"{box.width}x{box.height}+0+0", "+repage"]
        except Exception:
            pass
    subprocess.run(args + [path], check=False, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=60)


class App:
    """The app under test: started with its command-line options, stopped at the end."""

    def __init__(self, binary, args, env=None, log_path=None):
        self.log_path = log_path
        self.log = open(log_path, "w") if log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen([binary] + list(args), env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=False)
        try:
            self.root = wait_for(self._find_app, timeout=60,
                                 what="the app on the accessibility bus")
            self.frame = wait_for(lambda: next((c for c in (self.root.getChildAtIndex(i) for i in
                                                            range(self.root.childCount))
                                                if c.getRoleName() == "frame"), None),
                                  what="the main window")
        except BaseException:
            self.stop()
            raise

    def _find_app(self):
        if self.proc.poll() is not None:
            raise GuiError(f"the app exited with {self.proc.returncode}:\n{self.output()}")
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            try:
                if app is not None and app.get_process_id() == self.proc.pid and app.childCount > 0:
                    return app
            except Exception:
                continue
        return None

    def output(self):
        if not self.log_path:
            return ""
        try:
            if not self.log.closed:
                self.log.flush()
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.log_path:
            self.log.close()
        return self.output()


# ---- added for the Stop, shortcuts-window and path-completion steps ----------------------------

KEYSYMS.setdefault("question", 0x3F)  # key_combo(["control", "shift"], "question"): Ctrl+?


def type_string(text):
    """Types @text into the focused widget, key by key (XTEST through the registry), as a person
    would: unlike set_text(), the widget sees key presses (entry completion reacts to them)."""
    for ch in text:
        pyatspi.Registry.generateKeyboardEvent(ord(ch), None, pyatspi.KEY_SYM)


def key_sym(keyval):
    """Presses and releases the key with X keysym @keyval (a number), e.g. 0x3F for '?'."""
    pyatspi.Registry.generateKeyboardEvent(keyval, None, pyatspi.KEY_SYM)


def press_at(acc):
    """Clicks the middle of @acc with the pointer (XTEST through the registry).  GTK 4 knows no
    screen coordinates: without a window manager the main window sits at the origin, so its
    window coordinates are the screen's (as screenshot() assumes)."""
    box = extents(acc)
    pyatspi.Registry.generateMouseEvent(box.x + box.width // 2, box.y + box.height // 2,
                                        pyatspi.MOUSE_B1C)


def focus(acc, timeout=DEFAULT_TIMEOUT):
    """Gives @acc the keyboard focus and waits until it has it.  GTK 4.8 does not implement
    Component.GrabFocus, so a click on the widget does it where that fails."""
    try:
        acc.queryComponent().grabFocus()
    except Exception:
        press_at(acc)
    wait_for(lambda: is_focused(acc) or any(is_focused(n) for n in walk(acc, max_depth=3)),
             timeout=timeout, what=f"{acc.getRoleName()} {acc.name!r} to have the focus")


def set_value(acc, value, timeout=DEFAULT_TIMEOUT):
    """Sets a spin button (or another widget with the Value interface) to @value."""
    acc.queryValue().currentValue = float(value)
    wait_for(lambda: acc.queryValue().currentValue == float(value), timeout=timeout,
             what=f"{acc.name!r} to be {value}")


def app_windows(app):
    """The app's top-level windows (the main window, dialogs, the shortcuts window, popups)."""
    out = []
    for i in range(app.root.childCount):
        try:
            child = app.root.getChildAtIndex(i)
        except Exception:
            continue
        if child is not None:
            out.append(child)
    return out


def describe_tree(acc, max_depth=12, limit=400):
    """The accessibility tree under @acc as indented 'role "name"' lines, for failure messages."""
    lines = []
    stack = [(acc, 0)]
    while stack and len(lines) < limit:
        node, depth = stack.pop()
        try:
            lines.append("  " * depth + f"{node.getRoleName()} {clean_name(node.name)!r}"
                         + ("" if is_shown(node) else " (hidden)"))
            if depth < max_depth:
                for i in reversed(range(node.childCount)):
                    stack.append((node.getChildAtIndex(i), depth + 1))
        except Exception:
            continue
    return "\n".join(lines)


# ---- the app's own parts, as the end-to-end tests reach them ---------------------------------

def app_windows_of(app):
    return [app.root.getChildAtIndex(i) for i in range(app.root.childCount)]


def window_named(app, title, timeout=DEFAULT_TIMEOUT):
    return wait_for(lambda: next((w for w in app_windows_of(app)
                                  if name_of(w) == title and is_shown(w)), None),
                    timeout=timeout, what=f"the window {title!r}")


def window_gone(app, title, timeout=DEFAULT_TIMEOUT):
    wait_for(lambda: not any(name_of(w) == title and is_shown(w) for w in app_windows_of(app)),
             timeout=timeout, what=f"the window {title!r} to close")


def search_sidebar(app, text):
    """Types @text in the sidebar's "Search tables" entry, as a user with many tables would:
    GtkListView only realizes the rows in view, so a table scrolled out of it has no
    accessible row (a DynamoDB Local shared by the whole suite holds many tables)."""
    entry = next((n for n in find_all(app.root, name="Search tables")
                  if "EditableText" in n.get_interfaces()), None)
    if entry is None:
        return
    if text_of(entry) != text:
        set_text(entry, text)


def close_window(window):
    """Closes a dialog with its title bar's Close button (Escape reaches the window under the
    pointer, not always the dialog, when no window manager gives it the focus)."""
    button = next(iter(find_all(window, role="push button", name="Close")), None)
    if button is None:
        raise GuiError(f"{name_of(window)!r} has no Close button")
    click(button)


def open_menu(app, button_name):
    def button():
        menu = find(app.root, role="push button", name=button_name)
        return next((n for n in walk(menu) if n is not menu
                     and n.getRoleName() in ("push button", "toggle button")), None)
    click_found(button, what=f"the button of {button_name}")


def sidebar_has(app, table, keys):
    sidebar = find(app.root, role="list", name="Tables")
    return find(sidebar, name=f"{table}, {keys}")


def open_table(app, table, keys):
    """Clicks the table in the sidebar and waits until the window's title names it."""
    sidebar = find(app.root, role="list", name="Tables")
    right_of_sidebar = extents(sidebar).x + extents(sidebar).width

    def title_names_table():
        return any(extents(label).x >= right_of_sidebar
                   for label in find_all(app.root, role="label", name=table))

    press_at(sidebar_has(app, table, keys))
    try:
        wait_for(title_names_table, timeout=5, what=f"the window title to name {table}")
    except GuiError:
        # the list may have been rebuilt under the pointer: once more, by the keyboard
        focus(sidebar_has(app, table, keys))
        key("Return")
        wait_for(title_names_table, what=f"the window title to name {table}")


def results_table(app):
    return find(app.root, role="tree table", name="Results")


def column(app, column_name):
    table = results_table(app)
    headers = table_headers(table)
    if column_name not in headers:
        return []
    index = headers.index(column_name)
    cells = [cells[index] for cells in table_rows(table) if index < len(cells) and cells[index]]
    if index == 0:
        # the first column is named after the key it shows; grouped, it also holds the
        # partitions' headings ("CUST#1 3 items · 1.2 kB"), which are not items
        cells = [c for c in cells if not re.search(r" [0-9,]+ items? · ", c)]
    return cells


def rerun(app):
    run = find(app.root, role="push button", name="Run")
    wait_for(lambda: is_sensitive(run), what="Run to be sensitive")
    click(run)
