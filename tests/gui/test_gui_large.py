"""200,000 items loaded: the results pane keeps every control and its scroll bar inside a
1280-px window (issue: a long status line used to widen the pane past the window's edge).

The items go in with dynotable-cli import (about 40 s against DynamoDB Local); the app scans
them with no page limit (1 MB pages) and loads every page.  Slow: suites gui and slow.

Run by meson as
  with-ddb-local.sh with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_large.py
Prints TAP.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, "fixtures"))

import ddb_local  # noqa: E402
import dynogui  # noqa: E402
from dynogui import click, find, find_all, is_sensitive, text_of, wait_for  # noqa: E402
import test_gui_layout as layout  # noqa: E402

APP = os.environ["DYNOTABLE_APP"]
CLI = os.environ["DYNOTABLE_CLI"]
ARTIFACTS = layout.ARTIFACTS
N_ITEMS = 200_000
WIDTH = 1280


def load(endpoint, table):
    c = ddb_local.client()
    c.create_table(TableName=table,
                   KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "sk", "AttributeType": "S"}],
                   BillingMode="PAY_PER_REQUEST")
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for i in range(N_ITEMS):
            # mixed shapes, and a long value, as real data has
            item = {"pk": {"S": f"DEVICE#{i // 1000:04d}"}, "sk": {"S": f"READING#{i:07d}"},
                    "value": {"N": str(i % 977)}}
            if i % 3 == 0:
                item["note"] = {"S": "a long note that must not widen a column " * 3}
            if i % 5 == 0:
                item["tags"] = {"SS": ["hot", f"zone-{i % 11}"]}
            f.write(json.dumps(item) + "\n")
        path = f.name
    try:
        proc = subprocess.run([CLI, "--endpoint-url", endpoint, "import", table, path],
                              capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stderr
        assert f"{N_ITEMS} items written" in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    finally:
        os.unlink(path)


def large(endpoint, table):
    home = layout.settings_home(WIDTH)
    env = dict(os.environ, GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=home)
    app = None
    try:
        os.makedirs(ARTIFACTS, exist_ok=True)
        app = dynogui.App(APP, ["--endpoint-url", endpoint, "--table", table], env=env,
                          log_path=os.path.join(ARTIFACTS, "app-large.log"))
        dynogui.choose(app.root, "Operation", "Scan")
        dynogui.set_value(find(app.root, role="spin button", name_contains="Page size"), 0)
        run = find(app.root, role="push button", name="Run")
        wait_for(lambda: is_sensitive(run), what="Run to be sensitive")
        click(run)
        status = wait_for(lambda: next((n for n in find_all(app.root, role="label")
                                        if (n.description or "") == "Run status"
                                        and "1 page" in text_of(n)), None),
                          timeout=120, what="the first page")
        load_all = layout.control(app, "push button", "Load All")
        wait_for(lambda: is_sensitive(load_all), timeout=120, what="Load All to be sensitive")
        click(load_all)
        wait_for(lambda: "2 pages" in text_of(status) or "complete" in text_of(status),
                 timeout=120, what="Load All to read on")
        wait_for(lambda: "complete" in text_of(status), timeout=900,
                 what="all 200,000 items to be read")
        text = text_of(status)
        # what was read, beside what was estimated from DescribeTable before it ran
        match = re.search(r"200,?000 items · (\d+) pages · ([\d.]+) RCU "
                          r"\(estimated ([\d.]+) in (\d+) pages\) · complete", text)
        assert match, text
        read, estimated = float(match.group(2)), float(match.group(3))
        assert abs(read - estimated) <= 0.05 * read, text
        assert abs(int(match.group(1)) - int(match.group(4))) <= 1, text
        dynogui.screenshot(os.path.join(ARTIFACTS, "large-200000.png"), app.frame)
        layout.inside(app, WIDTH)
    finally:
        if app is not None:
            app.stop()
        shutil.rmtree(home, ignore_errors=True)


def main():
    endpoint = ddb_local.endpoint()
    table = ddb_local.unique_table_name("large", "gui")
    results = []

    def check(name, fn):
        try:
            fn()
            results.append(None)
            print(f"ok {len(results)} - {name}", flush=True)
        except Exception as e:
            import traceback
            results.append(e)
            print(f"not ok {len(results)} - {name}", flush=True)
            for line in traceback.format_exc().splitlines():
                print(f"# {line}", flush=True)

    try:
        check("200,000 items are imported", lambda: load(endpoint, table))
        check("with 200,000 items loaded every control and the scroll bar stay inside 1280 px",
              lambda: large(endpoint, table))
    finally:
        try:
            ddb_local.delete_tables([table])
        except Exception:
            pass
    print(f"1..{len(results)}", flush=True)
    return 1 if any(results) else 0


if __name__ == "__main__":
    sys.exit(main())
