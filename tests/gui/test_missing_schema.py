"""The app without its compiled settings schema says so and exits 1; it never aborts.

TAP output.  Usage: test_missing_schema.py APP BUILD_DATA_DIR
"""

import os
import signal
import subprocess
import sys
import tempfile

app, data_dir = sys.argv[1], sys.argv[2]
print("1..3")

with tempfile.TemporaryDirectory() as empty:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(GSETTINGS_SCHEMA_DIR=empty, XDG_DATA_DIRS=empty, LANG="C.UTF-8", LC_ALL="C.UTF-8")
    proc = subprocess.run([app], env=env, capture_output=True, text=True, timeout=60)
    ok = proc.returncode == 1
    print(("ok" if ok else "not ok") + f" 1 - exit status 1 without the schema (got {proc.returncode})")
    if proc.returncode == -signal.SIGABRT:
        print("# it aborted:\n# " + proc.stderr.replace("\n", "\n# "))
    wanted = ["the settings schema com.dynotable.DynoTable is not installed",
              f"GSETTINGS_SCHEMA_DIR is “{empty}”", "meson devenv -C BUILD-DIR dynotable",
              "meson install"]
    missing = [w for w in wanted if w not in proc.stderr]
    print(("ok" if not missing else "not ok") + " 2 - the message says what is missing and what to do")
    for w in missing:
        print(f"# not in stderr: {w!r}\n# stderr: {proc.stderr!r}")

    # With the build's compiled schema the same program gets past the check (--help needs no
    # display and exits 0).
    env["GSETTINGS_SCHEMA_DIR"] = data_dir
    proc = subprocess.run([app, "--help"], env=env, capture_output=True, text=True, timeout=60)
    ok = proc.returncode == 0 and "--endpoint-url" in proc.stdout
    print(("ok" if ok else "not ok") + f" 3 - with the build's schema it starts (exit {proc.returncode})")
