"""The Flatpak of DynoTable, used the way a user uses it: sandboxed, against DynamoDB Local.

The app was built from flatpak/com.dynotable.DynoTable.json against the stand-in runtime and
installed into a private installation (tests/flatpak/build-app.sh; FLATPAK_USER_DIR names it).
This runs `flatpak run` for real (bubblewrap, the portals, the accessibility bus proxy) with a
HOME whose ~/.aws has a profile pointing at DynamoDB Local, and checks:

- the permissions are exactly the manifest's, and the installed desktop entry and AppStream
  metadata are valid;
- `flatpak run --command=dynotable-cli … --profile P tables` lists that profile's tables;
- a credential_process profile is refused with the override to run, then works once allowed;
- the app maps its window, stays up, lists the profile's tables, runs a query, shows its items,
  copies code;
- a secret saved in the app goes through the Secret portal: readable inside the sandbox, in no
  file in plain text.

Run by meson as
  with-ddb-local.sh with-keyring.sh with-xvfb.sh /usr/bin/python3 test_flatpak.py
Prints TAP; every step runs even when one failed.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import hashlib
import json
import os
import re
import stat
import urllib.request
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gui"))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures"))

import dynogui  # noqa: E402
from dynogui import (GuiError, click, find, find_all, name_of, set_text,  # noqa: E402
                     text_of, wait_for)
import pyatspi  # noqa: E402
from fake_aws_auth import FakeAws  # noqa: E402

APP_ID = "com.dynotable.DynoTable"
ENDPOINT = os.environ["DYNO_TEST_ENDPOINT"]
INSTALLATION = os.environ["FLATPAK_USER_DIR"]
OUT = os.environ["DYNO_FLATPAK_OUT"]
ARTIFACTS = os.environ.get("DYNO_GUI_ARTIFACTS", os.path.join(OUT, "artifacts"))
AWS = "/usr/bin/aws"
SECRET = "Sandboxed-Secret-0f9e8d7c6b5a"
HOME = os.environ["HOME"]      # with-keyring.sh's throwaway home

results = []


ONLY = {int(n) for n in os.environ.get("DYNO_FLATPAK_ONLY", "").split(",") if n}


def check(name, fn):
    if ONLY and len(results) + 1 not in ONLY:
        results.append(None)
        print(f"ok {len(results)} - {name} # SKIP not in DYNO_FLATPAK_ONLY", flush=True)
        return
    try:
        fn()
        results.append(None)
        print(f"ok {len(results)} - {name}", flush=True)
    except Exception as e:  # a failed step is reported and the next one runs
        results.append(e)
        print(f"not ok {len(results)} - {name}", flush=True)
        for line in traceback.format_exc().splitlines():
            print(f"# {line}", flush=True)


def user_env(**extra):
    """A user's shell: no AWS_* variables, the throwaway HOME with its ~/.aws."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env["AWS_EC2_METADATA_DISABLED"] = "true"
    env.update(extra)
    return env


def flatpak(*args, env=None, timeout=300, check_rc=True):
    proc = subprocess.run(["flatpak", *args], env=env or user_env(), capture_output=True,
                          text=True, timeout=timeout)
    if check_rc and proc.returncode != 0:
        raise AssertionError(f"flatpak {' '.join(args)} exited {proc.returncode}:\n"
                             f"{proc.stdout}\n{proc.stderr}")
    return proc


def cli(*args, env=None, timeout=120):
    return flatpak("run", "--user", f"--command=dynotable-cli", APP_ID, *args, env=env,
                   timeout=timeout, check_rc=False)


def aws(*args):
    env = user_env(AWS_ACCESS_KEY_ID="flatpakuser", AWS_SECRET_ACCESS_KEY="x",
                   AWS_REGION="us-east-1")
    subprocess.run([AWS, "dynamodb", *args, "--endpoint-url", ENDPOINT, "--output", "json"],
                   env=env, check=True, stdout=subprocess.DEVNULL, timeout=120)


def aws_out(*args):
    env = user_env(AWS_ACCESS_KEY_ID="flatpakuser", AWS_SECRET_ACCESS_KEY="x",
                   AWS_REGION="us-east-1")
    return subprocess.run([AWS, "dynamodb", *args, "--endpoint-url", ENDPOINT, "--output",
                           "json"], env=env, check=True, capture_output=True, text=True,
                          timeout=120).stdout


def write_aws_files():
    aws_dir = os.path.join(HOME, ".aws")
    os.makedirs(aws_dir, exist_ok=True)
    with open(os.path.join(aws_dir, "config"), "w") as f:
        f.write("[profile sandboxed]\nregion = us-east-1\n"
                f"endpoint_url = {ENDPOINT}\n"
                "[profile byprocess]\nregion = us-east-1\n"
                f"endpoint_url = {ENDPOINT}\n"
                "credential_process = /bin/sh -c 'printf \"%s\" "
                "\"{\\\"Version\\\": 1, \\\"AccessKeyId\\\": \\\"flatpakuser\\\", "
                "\\\"SecretAccessKey\\\": \\\"x\\\"}\"'\n")
    with open(os.path.join(aws_dir, "credentials"), "w") as f:
        f.write("[sandboxed]\naws_access_key_id = flatpakuser\naws_secret_access_key = x\n")


# ---- packaging ---------------------------------------------------------------------------------

def permissions():
    info = flatpak("info", "--user", "--show-permissions", APP_ID).stdout
    lines = dict(line.split("=", 1) for line in info.splitlines() if "=" in line)
    assert set(lines["shared"].strip(";").split(";")) == {"network", "ipc"}, info
    # flatpak writes x11 beside fallback-x11 for older versions; at run time fallback-x11 means
    # X11 only where there is no Wayland
    assert set(lines["sockets"].strip(";").split(";")) <= {"wayland", "fallback-x11", "x11"}, info
    assert {"wayland", "fallback-x11"} <= set(lines["sockets"].strip(";").split(";")), info
    assert lines["devices"].strip(";") == "dri", info
    assert set(lines["filesystems"].strip(";").split(";")) == {"~/.aws:ro",
                                                               "~/.aws/sso/cache:create"}, info
    for never in ("home;", "host;", "home:", "host:", "org.freedesktop.Flatpak"):
        assert never not in info, f"{never!r} in the permissions:\n{info}"
    meta = flatpak("info", "--user", APP_ID).stdout
    assert "org.gnome.Platform/x86_64/51" in meta, meta


def bundle():
    path = os.path.join(OUT, APP_ID + ".flatpak")
    assert os.path.getsize(path) > 100_000, path
    # the bundle installs, as a user would install it, into another installation
    with tempfile.TemporaryDirectory(prefix="dyno-bundle-") as other:
        env = user_env(FLATPAK_USER_DIR=other)
        # The bundle names Flathub as where its runtime comes from, which these machines cannot
        # reach: install it without resolving dependencies, then check what it holds.
        flatpak("install", "--user", "-y", "--noninteractive", "--no-deps", "--bundle", path,
                env=env)
        info = flatpak("info", "--user", APP_ID, env=env).stdout
        assert "org.gnome.Platform/x86_64/51" in info, info
        files = flatpak("info", "--user", "--show-location", APP_ID, env=env).stdout.strip()
        assert os.path.exists(os.path.join(files, "files", "bin", "dynotable-cli")), files


def installed_data():
    files = os.path.join(INSTALLATION, "app", APP_ID, "current", "active", "files")
    desktop = os.path.join(files, "share", "applications", APP_ID + ".desktop")
    # flatpak-builder 1.2 composes with appstream-util, which moves the file to share/appdata
    # (newer builders keep share/metainfo); either way, with the composed catalogue beside it
    metainfo = os.path.join(files, "share", "metainfo", APP_ID + ".metainfo.xml")
    if not os.path.exists(metainfo):
        metainfo = os.path.join(files, "share", "appdata", APP_ID + ".appdata.xml")
    catalogue = os.path.join(files, "share", "app-info", "xmls", APP_ID + ".xml.gz")
    assert os.path.exists(catalogue), catalogue
    schemas = os.path.join(files, "share", "glib-2.0", "schemas", "gschemas.compiled")
    icon = os.path.join(files, "share", "icons", "hicolor", "scalable", "apps", APP_ID + ".svg")
    for path in (desktop, metainfo, schemas, icon):
        assert os.path.exists(path), f"not installed: {path}"
    subprocess.run(["desktop-file-validate", desktop], check=True, timeout=60)
    subprocess.run(["appstreamcli", "validate", "--no-net", metainfo], check=True,
                   stdout=subprocess.DEVNULL, timeout=60)
    exported = os.path.join(INSTALLATION, "exports", "share", "applications", APP_ID + ".desktop")
    assert os.path.exists(exported), exported


# ---- the command-line companion in the sandbox -------------------------------------------------

def cli_tables():
    proc = cli("--profile", "sandboxed", "tables")
    assert proc.returncode == 0, proc.stderr
    names = proc.stdout.split()
    assert "FlatpakOrders" in names and "FlatpakAudit" in names, proc.stdout
    proc = cli("--profile", "sandboxed", "query", "FlatpakOrders", "--key", 'pk = "customer#7"')
    assert proc.returncode == 0, proc.stderr
    assert "order#0003" in proc.stdout, proc.stdout


def credential_process():
    proc = cli("--profile", "byprocess", "tables")
    assert proc.returncode != 0, proc.stdout
    assert "flatpak override --user --talk-name=org.freedesktop.Flatpak " + APP_ID in \
        proc.stderr, proc.stderr
    flatpak("override", "--user", "--talk-name=org.freedesktop.Flatpak", APP_ID)
    try:
        proc = cli("--profile", "byprocess", "tables")
        assert proc.returncode == 0, proc.stderr
        assert "FlatpakOrders" in proc.stdout.split(), proc.stdout
    finally:
        flatpak("override", "--user", "--reset", APP_ID)


def sso_in_sandbox():
    """IAM Identity Center sign-in from the sandbox writes the AWS CLI's token cache on the host
    (~/.aws/sso/cache is the one writable part of ~/.aws), and the profile then signs in."""
    fake = FakeAws().start()
    start_url = "https://corp.awsapps.example/start"
    aws_dir = os.path.join(HOME, ".aws")
    config = os.path.join(aws_dir, "config")
    with open(config) as f:
        saved = f.read()
    try:
        with open(config, "a") as f:
            f.write("[profile corp]\nsso_session = corp\nsso_account_id = 111122223333\n"
                    "sso_role_name = ReadOnly\nregion = us-east-1\n"
                    f"[sso-session corp]\nsso_start_url = {start_url}\nsso_region = eu-west-1\n"
                    "sso_registration_scopes = sso:account:access\n")
        env = user_env(AWS_ENDPOINT_URL_SSO=fake.url, AWS_ENDPOINT_URL_SSO_OIDC=fake.url)
        proc = subprocess.Popen(["flatpak", "run", "--user", "--command=dynotable-cli", APP_ID,
                                 "sso", "login", "--profile", "corp", "--no-browser"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        url, lines = None, []
        while url is None:
            line = proc.stdout.readline()
            assert line, f"no address printed: {lines!r} {proc.stderr.read()!r}"
            lines.append(line)
            m = re.search(r"(http://\S+/approve\?user_code=\S+)", line)
            url = m.group(1) if m else None
        urllib.request.urlopen(url).read()     # the person approves in the browser
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, f"exit {proc.returncode}: {err}"
        cache = os.path.join(aws_dir, "sso", "cache",
                             hashlib.sha1(b"corp").hexdigest() + ".json")
        assert os.path.exists(cache), os.listdir(os.path.dirname(cache))
        assert stat.S_IMODE(os.stat(cache).st_mode) == 0o600, oct(os.stat(cache).st_mode)
        with open(cache) as f:
            token = json.load(f)
        assert token["startUrl"] == start_url and token["accessToken"], sorted(token)
        proc = cli("--endpoint-url", fake.url, "--profile", "corp", "tables", env=env)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.split() == sorted(fake.tables), proc.stdout
        for secret in fake.secrets_seen:
            assert secret not in out + err + proc.stdout + proc.stderr, "a secret was printed"
    finally:
        with open(config, "w") as f:
            f.write(saved)
        fake.stop()


# ---- the app in the sandbox --------------------------------------------------------------------

class SandboxedApp(dynogui.App):
    """The app started by `flatpak run`: its accessible application is found by name (its
    process ID on the accessibility bus is the bus proxy's, not ours)."""

    def __init__(self, args, log_name):
        os.makedirs(ARTIFACTS, exist_ok=True)
        super().__init__("flatpak", ["run", "--user", APP_ID, *args], env=user_env(),
                         log_path=os.path.join(ARTIFACTS, log_name + ".log"))

    def _find_app(self):
        if self.proc.poll() is not None:
            raise GuiError(f"flatpak run exited with {self.proc.returncode}:\n{self.output()}")
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            try:
                if app is not None and app.name in ("dynotable", "DynoTable") \
                        and app.childCount > 0:
                    return app
            except Exception:
                continue
        return None


def sidebar(app):
    return find(app.root, role="list", name="Tables")


def app_end_to_end():
    app = SandboxedApp(["--profile", "sandboxed", "--table", "FlatpakOrders"], "flatpak-app")
    try:
        tables = sidebar(app)
        find(tables, name="FlatpakOrders, pk S · sk S", timeout=60)
        find(tables, name="FlatpakAudit, pk S", timeout=60)
        pk = find(app.root, role="text", name="Partition key value")
        set_text(pk, "customer#7")
        click(find(app.root, role="push button", name="Run"))
        table = find(app.root, role="tree table", name="Results", timeout=60)
        wait_for(lambda: any("order#0003" in " ".join(r) for r in dynogui.table_rows(table)),
                 timeout=60, what="the query's items")
        orders = [r for r in dynogui.table_rows(table) if "order#" in " ".join(r)]
        assert len(orders) == 3, dynogui.table_rows(table)
        pyatspi.Registry.generateMouseEvent(1390, 890, "abs")  # no tooltip in the picture
        time.sleep(1)
        dynogui.screenshot(os.path.join(ARTIFACTS, "flatpak-query.png"), app.frame)
        # still up after the query, and its code can be copied
        click(find(app.root, role="page tab", name="Code"))
        click(find(app.root, role="push button", name="Copy code"))
        assert app.proc.poll() is None, app.output()
        # an item edited in the sandbox is written to the table
        dynogui.activate_row(table, "order#0002")
        editor = wait_for(lambda: next((w for w in (app.root.getChildAtIndex(i)
                                                    for i in range(app.root.childCount))
                                        if name_of(w) == "Edit Item" and dynogui.is_shown(w)),
                                       None), what="the item editor")
        click(find(editor, role="push button", name="Form"))
        name_entry = wait_for(lambda: next((e for e in find_all(editor, role="text",
                                                                  name="Attribute name")
                                            if text_of(e) == "total"), None),
                              what="the form row of total")
        value = next(n for n in dynogui.walk(name_entry.parent) if n.getRoleName() == "text"
                     and name_of(n) == "Attribute value")
        assert text_of(value) == "20", text_of(value)
        set_text(value, "25")
        save = find(editor, role="push button", name="Save item")
        wait_for(lambda: dynogui.is_sensitive(save), what="Save to be sensitive")
        click(save)
        wait_for(lambda: not dynogui.is_shown(editor), timeout=30, what="the editor to close")
        item = json.loads(aws_out("get-item", "--table-name", "FlatpakOrders", "--key",
                                  json.dumps({"pk": {"S": "customer#7"},
                                              "sk": {"S": "order#0002"}}),
                                  "--consistent-read"))["Item"]
        assert item["total"] == {"N": "25"}, item
    finally:
        log = app.stop()
    assert "Settings schema" not in log, log
    assert "CRITICAL" not in log, log


def portal_dialog(title):
    """The file chooser the portal shows for the app (xdg-desktop-portal-gtk, its own process)."""
    def found():
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            other = desktop.getChildAtIndex(i)
            try:
                if other is None or "portal" not in (other.name or ""):
                    continue
                for j in range(other.childCount):
                    w = other.getChildAtIndex(j)
                    if w is not None and name_of(w) == title and dynogui.is_shown(w):
                        return w
            except Exception:
                continue
        return None
    return wait_for(found, timeout=60, what=f"the portal's file chooser {title!r}")


def export_through_portal():
    folder = os.path.join(HOME, "Exports")
    os.makedirs(folder, exist_ok=True)
    target = os.path.join(folder, "orders.jsonl")
    app = SandboxedApp(["--profile", "sandboxed", "--table", "FlatpakOrders"], "flatpak-export")
    try:
        set_text(find(app.root, role="text", name="Partition key value", timeout=60), "customer#7")
        click(find(app.root, role="push button", name="Run"))
        table = find(app.root, role="tree table", name="Results", timeout=60)
        wait_for(lambda: any("order#0003" in " ".join(r) for r in dynogui.table_rows(table)),
                 timeout=60, what="the query's items")
        click(find(app.root, role="push button", name="Export results"))
        window = wait_for(lambda: next((w for w in (app.root.getChildAtIndex(i)
                                                    for i in range(app.root.childCount))
                                        if name_of(w) == "Export from FlatpakOrders"
                                        and dynogui.is_shown(w)), None),
                          what="the export dialog")
        path = find(window, role="text", name="File path")
        # a typed path would land in the sandbox's temporary files: only the portal gives one
        assert not path.getState().contains(pyatspi.STATE_EDITABLE), "the path is editable"
        click(find(window, role="push button", name="Choose file"))
        chooser = portal_dialog("Export To")
        dynogui.screenshot(os.path.join(ARTIFACTS, "flatpak-portal-chooser.png"))
        # GTK 3's save dialog: the entry beside the label "Name:"
        name = wait_for(lambda: next((t for t in find_all(chooser, role="text")
                                      if any(name_of(c) == "Name:" for c in
                                             (t.parent.getChildAtIndex(i)
                                              for i in range(t.parent.childCount)))), None),
                        what="the portal's Name entry")
        set_text(name, target)
        click(find(chooser, role="push button", name="Save"))
        wait_for(lambda: text_of(path) != "", timeout=60, what="the chosen file in the dialog")
        assert text_of(path).startswith("/run/user/"), text_of(path)  # the document portal
        click(find(window, role="push button", name="Export"))
        wait_for(lambda: os.path.exists(target) and os.path.getsize(target) > 0, timeout=60,
                 what=f"the export file {target} on the host")
        wait_for(lambda: len(open(target).read().splitlines()) == 3, timeout=30,
                 what="three items in the file")
        with open(target) as f:
            keys = sorted(json.loads(line)["sk"]["S"] for line in f if line.strip())
        assert keys == ["order#0001", "order#0002", "order#0003"], keys
        # the document portal kept the temporary file beside the chosen one, renamed at the end
        leftovers = [n for n in os.listdir(folder) if n != "orders.jsonl"]
        assert not leftovers, leftovers
    finally:
        app.stop()


def secret_through_portal():
    app = SandboxedApp([], "flatpak-secret")
    try:
        click(find(app.root, role="push button", name_contains="Add Connection"))
        dialog = wait_for(lambda: next((w for w in (app.root.getChildAtIndex(i)
                                                    for i in range(app.root.childCount))
                                        if name_of(w) == "New Connection"), None),
                          what="the New Connection dialog")
        dynogui.choose_row(dialog, "Connect to", "Access keys")
        set_text(find(dialog, role="text", name_contains="Region"), "us-east-1")
        set_text(find(dialog, role="text", name="Access key ID"), "flatpakuser")
        set_text(find(dialog, role="text", name_contains="Secret access key"), SECRET)
        save = find(dialog, role="push button", name="Save")
        wait_for(lambda: dynogui.is_sensitive(save), what="Save to be possible")
        click(save)
        wait_for(lambda: not dynogui.is_shown(dialog), timeout=60,
                 what="the dialog to close once the secret is stored")
    finally:
        app.stop()
    portal_keyring = os.path.join(HOME, ".var", "app", APP_ID, "data", "keyrings")
    assert os.path.isdir(portal_keyring), "no keyring file made through the Secret portal"
    # and nowhere in plain text
    leaks = subprocess.run(["grep", "-rl", "--", SECRET, HOME, os.environ.get("XDG_DATA_HOME", HOME),
                            os.environ.get("XDG_CONFIG_HOME", HOME)],
                           capture_output=True, text=True).stdout.split()
    assert not leaks, f"the secret is in plain text in {leaks}"


def main():
    # D-Bus starts the portals on demand with its own environment: give them the display and
    # the desktop that picks their backends.
    subprocess.run(["dbus-update-activation-environment", "DISPLAY", "XDG_CURRENT_DESKTOP",
                    "GDK_BACKEND", "XDG_RUNTIME_DIR", "HOME", "XDG_DATA_HOME"],
                   check=False, timeout=30)
    write_aws_files()
    aws("create-table", "--table-name", "FlatpakOrders",
        "--attribute-definitions", "AttributeName=pk,AttributeType=S",
        "AttributeName=sk,AttributeType=S",
        "--key-schema", "AttributeName=pk,KeyType=HASH", "AttributeName=sk,KeyType=RANGE",
        "--billing-mode", "PAY_PER_REQUEST")
    aws("create-table", "--table-name", "FlatpakAudit",
        "--attribute-definitions", "AttributeName=pk,AttributeType=S",
        "--key-schema", "AttributeName=pk,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST")
    for i in range(1, 4):
        aws("put-item", "--table-name", "FlatpakOrders", "--item",
            json.dumps({"pk": {"S": "customer#7"}, "sk": {"S": f"order#{i:04d}"},
                        "total": {"N": str(10 * i)}}))
    aws("put-item", "--table-name", "FlatpakOrders", "--item",
        json.dumps({"pk": {"S": "customer#8"}, "sk": {"S": "order#0001"}}))

    print("1..9", flush=True)
    check("the sandbox allows exactly the manifest's permissions", permissions)
    check("desktop entry, AppStream metadata, schema and icon are installed and valid",
          installed_data)
    check("the bundle is made and installs", bundle)
    check("dynotable-cli in the sandbox reads ~/.aws and lists and queries the tables",
          cli_tables)
    check("credential_process: refused with the override to run, then run on the host",
          credential_process)
    check("sso login in the sandbox writes the AWS CLI's token cache; the profile signs in",
          sso_in_sandbox)
    check("the app starts sandboxed, lists the tables, queries, copies code, edits an item",
          app_end_to_end)
    check("export: the file is chosen through the file chooser portal and written on the host",
          export_through_portal)
    check("a secret saved in the app goes through the Secret portal, in no file in plain text",
          secret_through_portal)
    return 1 if any(results) else 0


if __name__ == "__main__":
    sys.exit(main())
