#!/usr/bin/python3
# test-layers.py: the layers hold: core sees no GTK/libsoup/libsecret, client no GTK.
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks, TAP output.

1. Sources: no file under src/core includes a GTK, GDK, libadwaita, GtkSourceView, libsoup or
   libsecret header, or a header of src/client or src/widgets; no file under src/engine (the
   embedded DynamoDB engine: core + SQLite) includes any of those or a src/cli header; no
   file under src/client or
   src/cli includes a GTK/GDK/libadwaita/GtkSourceView header or a src/widgets header.
2. Compiler: the real compile command of a core source (from compile_commands.json) fails on a
   one-line file that includes <gtk/gtk.h>, <adwaita.h>, <libsoup/soup.h> or
   <libsecret/secret.h>, and compiles one that includes <glib.h> and json-glib (so the failure
   is the missing include path, not a broken command).  The same for a client source with GTK
   and libadwaita against libsoup and libsecret, and for dynotable-cli.
3. JSON: no source but src/core/values/dyno-json.c calls json-glib's parser or generator,
   which cut strings at U+0000 and recurse without a bound (dyno_json_parse and
   dyno_json_node_to_string are used instead).
4. Code generation: under src/core/codegen only the walker (dyno-codegen-walk.c) switches
   over value types or member kinds; the targets are tables of emitters it calls.
5. CLI: no src/cli source writes a request member only a Query or Scan has (key condition,
   filter, ScanIndexForward, Select, Limit, ExclusiveStartKey, Segment): those requests come
   from a DynoQueryDraft.
6. Widgets and the network: no src/widgets source calls the backend's ListTables
   (dyno_backend_list_tables_*): tables are listed through the client's
   dyno_table_names_list_async(); and every open, listing or DescribeTable a widget starts
   passes a GCancellable (not NULL), which the widget keeps and cancels when it goes away.
7. Side channels: no source under src attaches data to an object by name
   (g_object_set_data, g_object_get_data, g_object_steal_data and the qdata forms) except the
   files of ALLOWED_OBJECT_DATA, each with its reason: state goes in properties, typed fields
   or closure structs.

Usage: test-layers.py SOURCE_ROOT BUILD_ROOT
"""

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

GUI_HEADERS = re.compile(r"^(gtk|gdk|gsk|adwaita|libadwaita-1|gtksourceview)(/|\.h$)")
NET_HEADERS = re.compile(r"^(libsoup|libsecret)/")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)

n = 0
failed = 0


def tap(ok, name, diag=None, skip=None):
    global n, failed
    n += 1
    if skip:
        print("ok %d - %s # SKIP %s" % (n, name, skip))
        return
    print("%s %d - %s" % ("ok" if ok else "not ok", n, name))
    if not ok:
        failed += 1
    if diag and not ok:
        for line in diag.rstrip().splitlines():
            print("# " + line)


def sources(root, sub):
    top = os.path.join(root, "src", sub)
    for dirpath, _, files in os.walk(top):
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.join(dirpath, f)


def headers_of(root, sub):
    return {os.path.basename(p) for p in sources(root, sub) if p.endswith(".h")}


def check_sources(root):
    client_h = headers_of(root, "client")
    widget_h = headers_of(root, "widgets")
    cli_h = headers_of(root, "cli")
    for layer, forbidden_desc in (("core", "GTK, libadwaita, libsoup, libsecret, client or "
                                            "widget headers"),
                                  ("engine", "GTK, libadwaita, libsoup, libsecret, client, "
                                             "cli or widget headers"),
                                  ("client", "GTK, libadwaita or widget headers"),
                                  ("cli", "GTK, libadwaita or widget headers")):
        bad = []
        files = list(sources(root, layer))
        for path in files:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for inc in INCLUDE.findall(text):
                base = os.path.basename(inc)
                wrong = GUI_HEADERS.match(inc) or base in widget_h
                if layer in ("core", "engine"):
                    wrong = wrong or NET_HEADERS.match(inc) or base in client_h
                if layer == "engine":
                    wrong = wrong or base in cli_h
                if wrong:
                    bad.append("%s includes <%s>" % (os.path.relpath(path, root), inc))
        # core must exist; the other layers may not have sources yet.
        tap(not bad and (bool(files) or layer != "core"),
            "src/%s (%d files) includes no %s" % (layer, len(files), forbidden_desc),
            "\n".join(bad) if bad else "no sources found")


def probe_command(entry, probe):
    """ENTRY's compile command, compiling PROBE for syntax only."""
    if "arguments" in entry:
        args = list(entry["arguments"])
    else:
        args = shlex.split(entry["command"])
    out = []
    skip = False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a in ("-o", "-MQ", "-MF", "-MT", "-c"):
            skip = True
            continue
        if a in ("-MD", "-MMD") or a.startswith("-fdiagnostics-color"):
            continue
        if i > 0 and a == entry["file"]:
            continue
        out.append(a)
    return out + ["-fsyntax-only", "-x", "c", probe]


def compiles(entry, code, tmp):
    probe = os.path.join(tmp, "probe.c")
    with open(probe, "w") as f:
        f.write(code)
    cmd = probe_command(entry, probe)
    r = subprocess.run(cmd, cwd=entry["directory"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return r.returncode == 0, " ".join(shlex.quote(c) for c in cmd) + "\n" + r.stdout[-1500:]


def find_entry(db, layer):
    marker = os.sep + os.path.join("src", layer) + os.sep
    for e in db:
        path = os.path.normpath(os.path.join(e["directory"], e["file"]))
        if marker in path and path.endswith(".c"):
            return e, path
    return None, None


def check_compiler(root, build):
    cdb = os.path.join(build, "compile_commands.json")
    try:
        with open(cdb) as f:
            db = json.load(f)
    except OSError as e:
        tap(False, "read %s" % cdb, str(e))
        return
    cases = {
        "core": (["glib.h", "json-glib/json-glib.h", "gio/gio.h"],
                 ["gtk/gtk.h", "adwaita.h", "libsoup/soup.h", "libsecret/secret.h"]),
        "engine": (["glib.h", "json-glib/json-glib.h", "gio/gio.h", "sqlite3.h"],
                   ["gtk/gtk.h", "adwaita.h", "libsoup/soup.h", "libsecret/secret.h"]),
        "client": (["glib.h", "libsoup/soup.h", "libsecret/secret.h"],
                   ["gtk/gtk.h", "adwaita.h"]),
        "cli": (["glib.h", "libsoup/soup.h"],
                ["gtk/gtk.h", "adwaita.h"]),
    }
    with tempfile.TemporaryDirectory(prefix="dyno-layers-") as tmp:
        for layer, (allowed, forbidden) in cases.items():
            entry, path = find_entry(db, layer)
            if entry is None:
                tap(True, "compile flags of src/%s" % layer, skip="no %s source is built yet" % layer)
                continue
            rel = os.path.relpath(path, root)
            for h in allowed:
                ok, log = compiles(entry, "#include <%s>\n" % h, tmp)
                tap(ok, "<%s> compiles with the flags of %s (control)" % (h, rel), log)
            for h in forbidden:
                ok, log = compiles(entry, "#include <%s>\n" % h, tmp)
                missing = "No such file" in log or "file not found" in log
                tap(not ok and missing,
                    "<%s> does not compile with the flags of %s" % (h, rel),
                    "it compiled (or failed for another reason):\n" + log)


JSON_GLIB_IO = re.compile(r"\b(json_parser_load_\w+|json_from_string|json_to_string|"
                          r"json_generator_to_\w+|json_generator_new)\b")


def check_json_io(root):
    """json-glib's parser cuts strings at \\u0000 and recurses without a bound, and its
    generator cannot write a NUL: documents are read and written by src/core/values/dyno-json.c
    (dyno_json_parse, dyno_json_node_to_string) everywhere else."""
    bad = []
    for sub in ("core", "engine", "client", "cli", "widgets"):
        for path in sources(root, sub):
            if path.endswith("dyno-json.c"):
                continue
            with open(path, encoding="utf-8") as f:
                for lineno, line in enumerate(f, 1):
                    if JSON_GLIB_IO.search(line):
                        bad.append("%s:%d: %s" % (os.path.relpath(path, root), lineno,
                                                  line.strip()))
    tap(not bad, "no json-glib parser or generator outside dyno-json.c", "\n".join(bad))


WALKER_SWITCH = re.compile(r"\bcase\s+DYNO_(VALUE|CODEGEN_MEMBER)_[A-Z]+\s*:")


def check_codegen_walker(root):
    """One walker over a request and its values: a new value type is one place, a new target
    one table."""
    bad = []
    for path in sources(root, "core/codegen"):
        if path.endswith("dyno-codegen-walk.c"):
            continue
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if WALKER_SWITCH.search(line):
                    bad.append("%s:%d: %s" % (os.path.relpath(path, root), lineno,
                                              line.strip()))
    tap(not bad, "only the code-generation walker switches over value types and member kinds",
          "\n".join(bad))


READ_MEMBERS = r"(key_condition|filter|scan_index_forward|select|limit|exclusive_start_key|" \
               r"segment|total_segments)"
WRITES_READ_MEMBER = re.compile(r"(&\s*[\w.>-]*request->%s\b|request->%s\s*=[^=])"
                                % (READ_MEMBERS, READ_MEMBERS))


def check_cli_reads(root):
    """dynotable-cli builds its Query and Scan requests through DynoQueryDraft (core's one
    conversion of a query being built into a request): no src/cli source writes a member
    that only a read has."""
    bad = []
    for path in sources(root, "cli"):
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if WRITES_READ_MEMBER.search(line):
                    bad.append("%s:%d: %s" % (os.path.relpath(path, root), lineno,
                                              line.strip()))
    tap(not bad, "src/cli builds Query and Scan requests only through DynoQueryDraft",
        "\n".join(bad))


LIST_TABLES_BACKEND = re.compile(r"\bdyno_backend_list_tables_(async|finish)\b")
# async calls a widget makes to the network layer, and the position of their GCancellable
CANCELLABLE_ARG = {
    "dyno_table_names_list_async": 1,
    "dyno_connection_open_async": 1,
    "dyno_backend_describe_table_async": 2,
}
CANCELLABLE_CALL = re.compile(r"\b(%s)\s*\(" % "|".join(CANCELLABLE_ARG))


def call_args(text, start):
    """The top-level arguments of the call whose '(' is at START."""
    depth = 0
    args = []
    current = []
    for ch in text[start:]:
        if ch in "([{":
            depth += 1
            if depth == 1:
                continue
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                args.append("".join(current).strip())
                return args
        elif ch == "," and depth == 1:
            args.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    return args


def check_widget_network(root):
    """The widgets list tables through the client, and never start network work they
    cannot cancel."""
    listing = []
    uncancellable = []
    for path in sources(root, "widgets"):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for lineno, line in enumerate(text.splitlines(), 1):
            if LIST_TABLES_BACKEND.search(line):
                listing.append("%s:%d: %s" % (rel, lineno, line.strip()))
        for m in CANCELLABLE_CALL.finditer(text):
            args = call_args(text, m.end() - 1)
            pos = CANCELLABLE_ARG[m.group(1)]
            if len(args) <= pos or args[pos] == "NULL":
                lineno = text.count("\n", 0, m.start()) + 1
                uncancellable.append("%s:%d: %s without a GCancellable" % (rel, lineno,
                                                                           m.group(1)))
    tap(not listing, "src/widgets lists tables only through dyno_table_names_list_async()",
        "\n".join(listing))
    tap(not uncancellable, "src/widgets opens, lists and describes only with a GCancellable",
        "\n".join(uncancellable))


OBJECT_DATA = re.compile(r"\bg_object_(set|get|steal|dup|replace)_q?data(_full)?\b")
# Where attaching data by name stays, and why: the data belongs to any widget a caller
# passes, made by GTK (no subclass, no field of ours to put it in).
ALLOWED_OBJECT_DATA = {
    "src/widgets/dyno-widget-util.c":
        "dyno_field_error_add_field() pairs an error label with any field widget a form "
        "passes (GtkEntry, GtkSwitch, AdwEntryRow...): weak lists on GTK's own widgets",
}


def check_object_data(root):
    """State passes between objects through properties, typed fields or closure structs, not
    names attached to objects."""
    bad = []
    for sub in ("core", "engine", "client", "cli", "widgets"):
        for path in sources(root, sub):
            rel = os.path.relpath(path, root)
            if rel in ALLOWED_OBJECT_DATA:
                continue
            with open(path, encoding="utf-8") as f:
                for lineno, line in enumerate(f, 1):
                    if OBJECT_DATA.search(line):
                        bad.append("%s:%d: %s" % (rel, lineno, line.strip()))
    main_c = os.path.join(root, "src", "main.c")
    if os.path.exists(main_c):
        with open(main_c, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if OBJECT_DATA.search(line):
                    bad.append("src/main.c:%d: %s" % (lineno, line.strip()))
    stale = [p for p in ALLOWED_OBJECT_DATA if not os.path.exists(os.path.join(root, p))]
    tap(not bad and not stale,
        "no g_object_set_data side channels in src (allowed: %s)"
        % ", ".join(sorted(os.path.basename(p) for p in ALLOWED_OBJECT_DATA)),
        "\n".join(bad + ["allow-listed file does not exist: " + p for p in stale]))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: test-layers.py SOURCE_ROOT BUILD_ROOT")
    root, build = map(os.path.abspath, sys.argv[1:])
    check_sources(root)
    check_json_io(root)
    check_codegen_walker(root)
    check_cli_reads(root)
    check_widget_network(root)
    check_object_data(root)
    check_compiler(root, build)
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
