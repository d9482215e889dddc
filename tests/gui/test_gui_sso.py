"""The app signs in to IAM Identity Center: an SSO profile without a sign-in says so in the
sidebar and offers Sign In; the dialog shows the address and the code, waits while the person
approves in the browser, then the connection lists its tables.

Against fixtures/fake_aws_auth.py (SSO-OIDC device flow, the SSO portal, and a DynamoDB front
that takes only the role credentials the portal handed out), all through AWS_ENDPOINT_URL.

Run by meson as  with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_sso.py.  Prints TAP.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import os
import re
import sys
import tempfile
import traceback
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "fixtures"))

import dynogui  # noqa: E402
from dynogui import (GuiError, choose, click, find, find_all, is_sensitive,  # noqa: E402
                     name_of, text_of, wait_for)
from fake_aws_auth import FakeAws  # noqa: E402

APP = os.environ["DYNOTABLE_APP"]
ARTIFACTS = os.environ.get("DYNO_GUI_ARTIFACTS", os.path.join(os.getcwd(), "gui-artifacts"))

results = []


def check(name, fn):
    try:
        fn()
        results.append(None)
        print(f"ok {len(results)} - {name}", flush=True)
    except Exception as e:
        results.append(e)
        print(f"not ok {len(results)} - {name}", flush=True)
        for line in traceback.format_exc().splitlines():
            print(f"# {line}", flush=True)


def sidebar(app):
    return find(app.root, role="list", name="Tables")


def all_labels(app):
    texts = []
    for i in range(app.root.childCount):
        window = app.root.getChildAtIndex(i)
        if window is not None and dynogui.is_shown(window):
            texts += [text_of(n) for n in find_all(window, role="label")]
    return texts


def open_table(app, table, keys):
    """Clicks the table in the sidebar and waits until the window's title names it."""
    bar = sidebar(app)
    right_of_sidebar = dynogui.extents(bar).x + dynogui.extents(bar).width

    def title_names_table():
        return any(dynogui.extents(label).x >= right_of_sidebar
                   for label in find_all(app.root, role="label", name=table))

    dynogui.press_at(find(bar, name=f"{table}, {keys}"))
    try:
        wait_for(title_names_table, timeout=5, what=f"the window title to name {table}")
    except GuiError:
        dynogui.focus(find(sidebar(app), name=f"{table}, {keys}"))
        dynogui.key("Return")
        wait_for(title_names_table, what=f"the window title to name {table}")


def run(app):
    button = find(app.root, role="push button", name="Run")
    wait_for(lambda: is_sensitive(button), what="Run to be sensitive")
    click(button)


def approve_shown_code(app):
    def code_shown():
        for text in all_labels(app):
            m = re.search(r"(http://\S+/approve\?user_code=([A-Z0-9-]+))", text)
            if m:
                return m
        return None

    m = wait_for(code_shown, timeout=30, what="the dialog to show the address")
    urllib.request.urlopen(m.group(1)).read()
    return m


def main():
    fake = FakeAws().start()
    fake.sso_accounts = {"111122223333": ["ReadOnly"]}
    with tempfile.TemporaryDirectory(prefix="dyno-gui-sso-") as home:
        os.makedirs(os.path.join(home, ".aws"))
        with open(os.path.join(home, ".aws", "config"), "w") as f:
            f.write("[profile corp]\nsso_session = corp\nsso_account_id = 111122223333\n"
                    "sso_role_name = ReadOnly\nregion = us-east-1\n"
                    "[sso-session corp]\nsso_start_url = https://corp.example/start\n"
                    "sso_region = eu-west-1\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        env.update(HOME=home, AWS_CONFIG_FILE=os.path.join(home, ".aws", "config"),
                   AWS_SHARED_CREDENTIALS_FILE=os.path.join(home, ".aws", "credentials"),
                   AWS_EC2_METADATA_DISABLED="true", AWS_ENDPOINT_URL=fake.url,
                   DYNO_TEST_NO_BROWSER="1")
        os.makedirs(ARTIFACTS, exist_ok=True)
        app = dynogui.App(APP, ["--profile", "corp"], env=env,
                          log_path=os.path.join(ARTIFACTS, "sso.log"))
        state = {}
        try:
            def not_signed_in():
                row = wait_for(lambda: next((n for n in find_all(sidebar(app))
                                             if "sso login" in name_of(n)), None),
                               what="the sidebar to say the profile is not signed in")
                assert "“corp”" in name_of(row), name_of(row)
                assert fake.calls_of("dynamodb") == []
                dynogui.screenshot(os.path.join(ARTIFACTS, "sso-not-signed-in.png"))

            def sign_in():
                click(find(sidebar(app), role="push button", name="Sign In…"))

                def code_shown():
                    for text in all_labels(app):
                        m = re.search(r"(http://\S+/approve\?user_code=([A-Z0-9-]+))", text)
                        if m:
                            return m
                    return None

                m = wait_for(code_shown, timeout=30, what="the dialog to show the address")
                state["code"] = m.group(2)
                assert any(state["code"] in t and "check that it shows" in t
                           for t in all_labels(app))
                dynogui.screenshot(os.path.join(ARTIFACTS, "sso-dialog.png"))
                # the person approves in the browser
                urllib.request.urlopen(m.group(1)).read()

            def connected():
                want = sorted(fake.tables)

                def listed():
                    return sorted({name_of(n).split(", ")[0] for n in find_all(sidebar(app))
                                   if name_of(n).endswith(", pk S")}) == want

                wait_for(listed, timeout=60, what=f"the sidebar to list {want}")
                assert not any("check that it shows" in t for t in all_labels(app)), \
                    "the sign-in dialog is still open"
                calls = fake.calls_of("dynamodb")
                assert calls and all(c["role"] == "sso:ReadOnly" for c in calls), calls
                cache = os.path.join(home, ".aws", "sso", "cache")
                assert len(os.listdir(cache)) == 1, os.listdir(cache)
                for text in all_labels(app):
                    for secret in fake.secrets_seen:
                        assert secret not in text
                dynogui.screenshot(os.path.join(ARTIFACTS, "sso-connected.png"))

            def expired_during_use():
                open_table(app, "alpha", "pk S")
                choose(app.root, "Operation", "Scan")
                # the sign-in ends (expired, revoked) while the query is open
                fake.expire_sessions()
                fake.reset_calls()
                run(app)
                button = wait_for(lambda: next((b for b in find_all(app.root,
                                                                    role="push button",
                                                                    name="Sign In…")), None),
                                  timeout=30, what="the query page to offer Sign In")
                assert any("sso login" in t or "sign-in" in t for t in all_labels(app)), \
                    all_labels(app)
                dynogui.screenshot(os.path.join(ARTIFACTS, "sso-expired.png"))
                assert not any(c["kind"] == "dynamodb" and c["error"] is None
                               for c in fake.calls), "a request went out with old credentials"
                click(button)
                approve_shown_code(app)
                wait_for(lambda: not any("check that it shows" in t for t in all_labels(app)),
                         timeout=30, what="the sign-in dialog to close")
                # the query is still there: run it again
                assert dynogui.dropdown_value(find(app.root, role="combo box",
                                                   name="Operation")) == "Scan"
                run(app)
                wait_for(lambda: any(name_of(n) == "item-1" or text_of(n) == "item-1"
                                     for n in find_all(app.root, role="label")),
                         timeout=30, what="the scan's items")
                dynogui.screenshot(os.path.join(ARTIFACTS, "sso-signed-in-again.png"))

            check("an SSO profile without a sign-in says so, nothing sent", not_signed_in)
            check("Sign In shows the address and the code", sign_in)
            check("approved: the dialog closes and the tables are listed", connected)
            check("a sign-in that ends during use: Sign In on the query page, run again",
                  expired_during_use)
        finally:
            app.stop()
            fake.stop()
    print(f"1..{len(results)}", flush=True)
    return 0 if all(r is None for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
