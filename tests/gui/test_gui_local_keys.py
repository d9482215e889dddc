"""The app sees the tables a user made in DynamoDB Local under their own key.

DynamoDB Local started as its documentation and container image start it (without -sharedDb)
keeps one database per access key ID and region.  Tables are made here with the AWS CLI
(/usr/bin/aws) under three identities; the real app, started with the same arguments and
environment, must list the same tables the AWS CLI would, say in the connection's subtitle
what it signs as, and, where it sees none, explain why and offer to sign as something else.

Run by meson as
  with-ddb-local.sh --per-key with-keyring.sh with-xvfb.sh /usr/bin/python3 test_gui_local_keys.py
(a server of its own, without -sharedDb).  Prints TAP; every step runs even when one failed.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import os
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import dynogui  # noqa: E402
from dynogui import (GuiError, click, find, find_all, is_sensitive, name_of,  # noqa: E402
                     set_text, text_of, wait_for)

APP = os.environ["DYNOTABLE_APP"]
ENDPOINT = os.environ["DYNO_TEST_ENDPOINT"]
ARTIFACTS = os.environ.get("DYNO_GUI_ARTIFACTS", os.path.join(os.getcwd(), "gui-artifacts"))
AWS = "/usr/bin/aws"

results = []


def check(name, fn):
    try:
        fn()
        results.append(None)
        print(f"ok {len(results)} - {name}", flush=True)
    except Exception as e:  # a failed step is reported and the next one runs
        results.append(e)
        print(f"not ok {len(results)} - {name}", flush=True)
        for line in traceback.format_exc().splitlines():
            print(f"# {line}", flush=True)


def user_env(aws_dir, **extra):
    """The environment of a user's shell: no AWS_* settings but @extra; AWS files in @aws_dir."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env["AWS_CONFIG_FILE"] = os.path.join(aws_dir, "config")
    env["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(aws_dir, "credentials")
    env["AWS_EC2_METADATA_DISABLED"] = "true"
    env.update(extra)
    return env


def aws_create_table(env, name):
    subprocess.run([AWS, "dynamodb", "create-table", "--endpoint-url", ENDPOINT,
                    "--table-name", name,
                    "--attribute-definitions", "AttributeName=pk,AttributeType=S",
                    "--key-schema", "AttributeName=pk,KeyType=HASH",
                    "--billing-mode", "PAY_PER_REQUEST", "--output", "json"],
                   env=env, check=True, stdout=subprocess.DEVNULL, timeout=120)


def start(args, env, log_name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    return dynogui.App(APP, args, env=env, log_path=os.path.join(ARTIFACTS, log_name + ".log"))


def shot(app, name):
    dynogui.screenshot(os.path.join(ARTIFACTS, name + ".png"), app.frame)


def sidebar(app):
    return find(app.root, role="list", name="Tables")


def sidebar_row(app, name_start):
    return wait_for(lambda: next((n for n in find_all(sidebar(app))
                                  if name_of(n).startswith(name_start)), None),
                    what=f"a sidebar row starting {name_start!r}")


def sidebar_tables(app):
    """The table rows under the connection: their names before ', ' (the key schema)."""
    return sorted({name_of(n).split(", ")[0] for n in find_all(sidebar(app))
                   if name_of(n).endswith(", pk S")})


def sidebar_order(app):
    """The table rows in the order shown."""
    return [name_of(n).split(", ")[0] for n in find_all(sidebar(app))
            if name_of(n).endswith(", pk S") and n.getRoleName() != "label"]


def expect_tables(app, want):
    seen = []

    def listed():
        seen[:] = [sidebar_tables(app)]
        return seen[0] == want

    try:
        wait_for(listed, timeout=30, what=f"the sidebar to list {want}")
    except GuiError as e:
        raise GuiError(f"{e}; last seen {seen[0] if seen else None}") from None


def windows(app):
    return [app.root.getChildAtIndex(i) for i in range(app.root.childCount)]


def window_named(app, title):
    return wait_for(lambda: next((w for w in windows(app)
                                  if name_of(w) == title and dynogui.is_shown(w)), None),
                    what=f"the window {title!r}")


def main():
    with tempfile.TemporaryDirectory(prefix="dyno-gui-keys-") as aws_dir:
        with open(os.path.join(aws_dir, "config"), "w") as f:
            f.write("[default]\nregion = us-east-1\n[profile dev]\nregion = eu-west-1\n")
        with open(os.path.join(aws_dir, "credentials"), "w") as f:
            f.write("[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = x\n"
                    "[dev]\naws_access_key_id = AKIDDEV\naws_secret_access_key = y\n")
        aws_create_table(user_env(aws_dir, AWS_ACCESS_KEY_ID="AKIDENV",
                                  AWS_SECRET_ACCESS_KEY="z", AWS_REGION="ap-south-1"),
                         "made-with-env-keys")
        aws_create_table(user_env(aws_dir, AWS_PROFILE="dev"), "made-with-profile-dev")
        aws_create_table(user_env(aws_dir), "made-with-default")

        def run_app(args, env, log_name, want, subtitle_parts):
            app = start(["--endpoint-url", ENDPOINT] + args, env, log_name)
            try:
                expect_tables(app, want)
                row = sidebar_row(app, "DynamoDB Local, ")
                for part in subtitle_parts:
                    assert part in name_of(row), (part, name_of(row))
                shot(app, log_name)
            finally:
                app.stop()

        check("--profile dev: the profile's tables, and the subtitle says so",
              lambda: run_app(["--profile", "dev"], user_env(aws_dir), "keys-profile",
                              ["made-with-profile-dev"], ["profile dev", "AKIDDEV", "eu-west-1"]))
        check("environment keys and region, as the AWS CLI uses them",
              lambda: run_app([], user_env(aws_dir, AWS_ACCESS_KEY_ID="AKIDENV",
                                           AWS_SECRET_ACCESS_KEY="another",
                                           AWS_REGION="ap-south-1"),
                              "keys-env", ["made-with-env-keys"], ["AKIDENV", "ap-south-1"]))
        check("the [default] profile without touching a setting",
              lambda: run_app([], user_env(aws_dir), "keys-default", ["made-with-default"],
                              ["AKIDDEFAULT", "us-east-1"]))

        def natural_order():
            # ListTables answers in byte order (every uppercase name first); a person reads
            # case-insensitively, numbers by value
            env = user_env(aws_dir, AWS_ACCESS_KEY_ID="AKIDSORT", AWS_SECRET_ACCESS_KEY="s",
                           AWS_REGION="us-east-1")
            for name in ("Zebra", "apple", "orders10", "orders2", "Orders1"):
                aws_create_table(env, name)
            app = start(["--endpoint-url", ENDPOINT], env, "keys-sorted")
            try:
                want = ["apple", "Orders1", "orders2", "orders10", "Zebra"]
                wait_for(lambda: sidebar_order(app) == want, timeout=30,
                         what=f"the sidebar to list {want} in that order")
            finally:
                app.stop()

        check("tables are listed in a natural, case-insensitive order", natural_order)

        def empty_state_and_switch():
            env = user_env(aws_dir, AWS_ACCESS_KEY_ID="AKIDNOBODY", AWS_SECRET_ACCESS_KEY="s",
                           AWS_REGION="us-east-1")
            app = start(["--endpoint-url", ENDPOINT], env, "keys-empty")
            try:
                message = sidebar_row(app, "No tables for access key AKIDNOBODY in us-east-1")
                assert "-sharedDb" in name_of(message), name_of(message)
                shot(app, "keys-empty-state")
                click(find(sidebar(app), role="push button", name="Sign As…"))
                dialog = window_named(app, "Edit Connection")
                dynogui.choose_row(dialog, "Sign as", "A profile")
                profile = find(dialog, role="text", name="Profile (from ~/.aws/config)")
                save = find(dialog, role="push button", name="Save")
                # a profile that is not there is named at the field, and nothing is saved
                set_text(profile, "nosuch")
                wait_for(lambda: any("“nosuch”" in text_of(n) and "dev" in text_of(n)
                                     for n in find_all(dialog, role="label")),
                         what="the message naming the missing profile and the ones there")
                assert not is_sensitive(save)
                dynogui.screenshot(os.path.join(ARTIFACTS, "keys-sign-as-dialog.png"))
                set_text(profile, "dev")
                # AWS_REGION (us-east-1) would win over the profile's region, as in the AWS
                # CLI: the region the tables were made in is chosen here
                region = find(dialog, role="text", name_contains="Region")
                set_text(region, "eu-west-1")
                wait_for(lambda: is_sensitive(save), what="Save to be possible")
                dynogui.screenshot(os.path.join(ARTIFACTS, "keys-sign-as-profile.png"))
                click(save)
                expect_tables(app, ["made-with-profile-dev"])
                row = sidebar_row(app, "DynamoDB Local, ")
                assert "AKIDDEV" in name_of(row) and "eu-west-1" in name_of(row), name_of(row)
            finally:
                app.stop()

        check("an empty list explains itself and switches to the right key",
              empty_state_and_switch)

        def past_the_last_window():
            # An accessibility client asks for window N when a dialog closes between its
            # ChildCount and GetChildAtIndex calls; GTK 4.8 then answers with its newest
            # window, and a never-shown one (the shortcuts window) has no path: that must
            # not abort the app.
            app = start(["--endpoint-url", ENDPOINT], user_env(aws_dir), "past-last-window")
            try:
                try:
                    app.root.getChildAtIndex(app.root.childCount + 1)
                except Exception:
                    pass  # an error is an answer too
                find(app.root, role="push button", name="Add Connection")
                assert app.proc.poll() is None, f"the app exited:\n{app.output()[-2000:]}"
            finally:
                app.stop()

        check("asking for a window past the last one does not abort the app",
              past_the_last_window)

        def refused(args, *parts):
            proc = subprocess.run([APP] + args, env=user_env(aws_dir), capture_output=True,
                                  text=True, timeout=60)
            assert proc.returncode == 2, (proc.returncode, proc.stderr)
            for part in parts:
                assert part in proc.stderr, (part, proc.stderr)

        check("a profile that does not exist is named on the command line",
              lambda: refused(["--endpoint-url", ENDPOINT, "--profile", "nosuch"],
                              "“nosuch”", "--profile"))
        check("an endpoint URL that is not a URL is named on the command line",
              lambda: refused(["--endpoint-url", "localhost 8000"], "--endpoint-url",
                              "localhost 8000"))

    print(f"1..{len(results)}", flush=True)
    return 1 if any(results) else 0


if __name__ == "__main__":
    sys.exit(main())
