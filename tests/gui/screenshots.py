"""Takes the screenshots for data/screenshots (AppStream, README) from the real app.

    tests/fixtures/with-ddb-local.sh tests/fixtures/with-keyring.sh tests/fixtures/with-xvfb.sh \\
        /usr/bin/python3 tests/gui/screenshots.py BUILD/src/widgets/dynotable OUTDIR

Run it on a private DynamoDB Local (the chain above starts one): the sample tables are created
under their own names, so the sidebar reads like a user's.  With GSETTINGS_SCHEMA_DIR set to
BUILD/data.  Not a test: it stops at the first thing that does not show up.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, "fixtures"))

import ddb_local  # noqa: E402
import dynogui  # noqa: E402
from dynogui import choose, click, find, is_sensitive, set_text, table_rows, wait_for  # noqa: E402


def run(app):
    button = find(app.root, role="push button", name="Run")
    wait_for(lambda: is_sensitive(button), what="Run to be sensitive")
    click(button)


def wait_results(app, n):
    table = find(app.root, role="tree table", name="Results")
    wait_for(lambda: len(table_rows(table)) >= n, what=f"{n} result rows")


def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    endpoint = ddb_local.endpoint()
    client = ddb_local.client()
    existing = set(client.list_tables().get("TableNames", []))
    for name in ddb_local.sample_names():
        if name not in existing:
            ddb_local.load_sample(name, name, client)

    def shoot(table, name, steps):
        app = dynogui.App(binary, ["--endpoint-url", endpoint, "--table", table],
                          env=dict(os.environ), log_path=os.path.join(out, name + ".log"))
        try:
            steps(app)
            dynogui.screenshot(os.path.join(out, name + ".png"), app.frame)
        finally:
            app.stop()

    def entity_chips(app):
        set_text(find(app.root, role="text", name="Partition key value"), "TENANT#acme")
        run(app)
        wait_results(app, 12)
        find(app.root, role="push button", name_contains="INVOICE ")

    def time_window(app):
        set_text(find(app.root, role="text", name="Partition key value"), "ACTOR#u_8814")
        choose(app.root, "Sort key condition", "between")
        set_text(find(app.root, role="text", name="Sort key value"), "EVT#2026-06-23T00:00:00Z")
        set_text(find(app.root, role="text", name="Sort key upper bound"),
                 "EVT#2026-06-23T23:59:59Z")
        click(find(app.root, role="push button", name="Descending"))
        run(app)
        wait_results(app, 4)

    def begins_with(app):
        set_text(find(app.root, role="text", name="Partition key value"), "DRIVE#a91")
        choose(app.root, "Sort key condition", "begins with")
        set_text(find(app.root, role="text", name="Sort key value"), "root/photos/")
        run(app)
        wait_results(app, 6)
        click(find(app.root, role="page tab", name="Pages"))
        find(app.root, role="tree table", name="Page ledger")

    def validation(app):
        set_text(find(app.root, role="text", name="Partition key value"), "ACTOR#u_8814")
        choose(app.root, "Sort key condition", "between")
        set_text(find(app.root, role="text", name="Sort key value"), "EVT#2026-06-23T23:59:59Z")
        set_text(find(app.root, role="text", name="Sort key upper bound"),
                 "EVT#2026-06-23T00:00:00Z")
        run_button = find(app.root, role="push button", name="Run")
        wait_for(lambda: not is_sensitive(run_button), what="Run to turn insensitive")

    shoot("tenant", "dynotable-entity-chips", entity_chips)
    shoot("audit-log", "dynotable-time-window", time_window)
    shoot("file-tree", "dynotable-begins-with", begins_with)
    shoot("audit-log", "dynotable-validation", validation)
    return 0


if __name__ == "__main__":
    sys.exit(main())
