#!/usr/bin/python3
# test-po.py: POTFILES.in lists every translatable file and the translations are complete.
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks, TAP output.

1. po/POTFILES.in lists only existing files, sorted, without duplicates, and lists every file
   with translatable strings: each C source under src/ calling _(), N_(), C_(), NC_(),
   g_dngettext() or ngettext() (comments and string literals are ignored), each .ui file under
   src/ or data/ with translatable="yes", and each desktop, metainfo and GSettings schema file
   under data/.
2. po/LINGUAS names exactly the .po files in po/, and es/pt_BR declare their plural forms.
3. A POT regenerated from the current sources with xgettext (the keywords and flags of meson's
   glib preset; .ui, desktop, metainfo and schema files through xgettext's ITS rules) extracts
   without warnings: a warning such as "not a valid C format string" means a msgid that the
   program never looks up at run time (e.g. a string pasted together with G_GINT64_FORMAT).
4. Each po/<lang>.po compiles with msgfmt --check --check-accelerators=_ and, merged with that
   POT (msgmerge into a temporary file, po/ is not touched), has no untranslated or fuzzy
   message.

Usage: test-po.py SOURCE_ROOT
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

GETTEXT_CALL = re.compile(
    r"(?<![\w])(?:_|N_|C_|NC_|Q_|g_dgettext|g_dcgettext|g_dngettext|g_dpgettext2?"
    r"|ngettext|dngettext|gettext|dgettext)\s*\(")
TRANSLATABLE_UI = re.compile(r'translatable\s*=\s*"(?:yes|true|1)"', re.I)
DATA_PATTERNS = (".desktop.in", ".metainfo.xml.in", ".appdata.xml.in", ".gschema.xml")

XGETTEXT_ARGS = [
    "--from-code=UTF-8", "--add-comments",
    "--keyword=_", "--keyword=N_", "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
    "--keyword=g_dcgettext:2", "--keyword=g_dngettext:2,3", "--keyword=g_dpgettext2:2c,3",
    "--flag=N_:1:pass-c-format", "--flag=C_:2:pass-c-format", "--flag=NC_:2:pass-c-format",
    "--flag=g_dngettext:2:pass-c-format", "--flag=g_strdup_printf:1:c-format",
    "--flag=g_string_printf:2:c-format", "--flag=g_string_append_printf:2:c-format",
    "--flag=g_error_new:3:c-format", "--flag=g_set_error:4:c-format",
    "--flag=g_markup_printf_escaped:1:c-format", "--flag=g_log:3:c-format",
    "--flag=g_print:1:c-format", "--flag=g_printerr:1:c-format",
    "--flag=g_printf:1:c-format", "--flag=g_fprintf:2:c-format",
    "--flag=g_sprintf:2:c-format", "--flag=g_snprintf:3:c-format",
]

# Plural-Forms as GNOME's teams use them.
PLURAL_FORMS = {
    "es": "nplurals=2; plural=(n != 1);",
    "pt_BR": "nplurals=2; plural=(n > 1);",
}

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


def strip_c(text):
    """The C text without comments and string/char literals (kept as empty quotes)."""
    out = []
    i, end = 0, len(text)
    while i < end:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = end if j < 0 else j + 2
            out.append(" ")
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = end if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < end and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def walk(root, sub):
    top = os.path.join(root, sub)
    for dirpath, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(files):
            yield os.path.relpath(os.path.join(dirpath, f), root)


def read_potfiles(root):
    entries = []
    for line in read(os.path.join(root, "po", "POTFILES.in")).splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            entries.append(line)
    return entries


def check_potfiles(root):
    entries = read_potfiles(root)
    listed = set(entries)

    missing = [e for e in entries if not os.path.isfile(os.path.join(root, e))]
    tap(not missing, "POTFILES.in lists only existing files",
        "not found:\n" + "\n".join(missing))
    dups = sorted({e for e in entries if entries.count(e) > 1})
    tap(entries == sorted(entries) and not dups, "POTFILES.in is sorted, without duplicates",
        ("duplicates: %s\n" % ", ".join(dups) if dups else "")
        + "expected order:\n" + "\n".join(sorted(listed)))

    sources, uis, data = [], [], []
    for rel in walk(root, "src"):
        if rel.endswith((".c", ".h")) and GETTEXT_CALL.search(strip_c(read(os.path.join(root, rel)))):
            sources.append(rel)
        elif rel.endswith(".ui") and TRANSLATABLE_UI.search(read(os.path.join(root, rel))):
            uis.append(rel)
    for rel in walk(root, "data"):
        if rel.endswith(".ui") and TRANSLATABLE_UI.search(read(os.path.join(root, rel))):
            uis.append(rel)
        elif rel.endswith(DATA_PATTERNS):
            data.append(rel)

    for what, files in (("C source using gettext", sources),
                        (".ui file with translatable=\"yes\"", uis),
                        ("desktop, metainfo and schema file", data)):
        unlisted = [f for f in files if f not in listed]
        tap(files and not unlisted,
            "every %s is in POTFILES.in (%d files)" % (what, len(files)),
            "none found" if not files else "not listed:\n" + "\n".join(unlisted))


def linguas(root):
    langs = []
    for line in read(os.path.join(root, "po", "LINGUAS")).splitlines():
        line = line.split("#", 1)[0]
        langs.extend(line.split())
    return langs


def check_linguas(root, langs):
    po_files = sorted(f[:-3] for f in os.listdir(os.path.join(root, "po")) if f.endswith(".po"))
    tap(langs and sorted(langs) == po_files, "LINGUAS names exactly the .po files of po/",
        "LINGUAS: %s\npo/*.po: %s" % (" ".join(langs), " ".join(po_files)))
    for lang in langs:
        expected = PLURAL_FORMS.get(lang)
        path = os.path.join(root, "po", lang + ".po")
        if expected is None or not os.path.isfile(path):
            continue
        m = re.search(r'"Plural-Forms:\s*([^"\\]*)\\n"', read(path))
        got = m.group(1).strip() if m else None
        tap(got == expected, "%s.po declares Plural-Forms: %s" % (lang, expected),
            "found: %s" % got)


def unquote(s):
    s = s.strip()
    assert s.startswith('"') and s.endswith('"'), s
    s = s[1:-1]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s)


def parse_po(path):
    """Entries of a .po file written by the gettext tools (entries separated by blank lines)
    as dicts: flags, msgctxt, msgid, msgid_plural, msgstr (a list); obsolete ones skipped."""
    entries = []
    for block in re.split(r"\n\s*\n", read(path)):
        # Comment lines, obsolete "#~" ones included, carry no msgid.
        lines = [l for l in block.splitlines() if l.strip()]
        entry = {"flags": set(), "msgstr": []}
        field = None
        for line in lines:
            if line.startswith("#,"):
                entry["flags"].update(f.strip() for f in line[2:].split(","))
            elif line.startswith("#"):
                continue
            elif line.startswith('"') and field is not None:
                if field == "msgstr":
                    entry["msgstr"][-1] += unquote(line)
                else:
                    entry[field] += unquote(line)
            else:
                m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$', line)
                if not m:
                    raise ValueError("%s: cannot parse %r" % (path, line))
                key, value = m.group(1), unquote(m.group(2))
                if key.startswith("msgstr"):
                    entry["msgstr"].append(value)
                    field = "msgstr"
                else:
                    entry[key] = value
                    field = key
        if "msgid" in entry:
            entries.append(entry)
    return entries


def check_translations(root, langs):
    tools = {t: shutil.which(t) for t in ("xgettext", "msgmerge", "msgfmt")}
    absent = [t for t, p in tools.items() if p is None]
    tap(not absent, "gettext tools are installed", "missing: " + ", ".join(absent))
    if absent:
        return

    with tempfile.TemporaryDirectory(prefix="dyno-po-") as tmp:
        pot = os.path.join(tmp, "dynotable.pot")
        proc = subprocess.run(
            [tools["xgettext"], "--directory=" + root,
             "--files-from=" + os.path.join(root, "po", "POTFILES.in"),
             "--output=" + pot, "--package-name=dynotable"] + XGETTEXT_ARGS,
            capture_output=True, text=True)
        tap(proc.returncode == 0 and os.path.isfile(pot), "xgettext extracts a POT", proc.stderr)
        if proc.returncode != 0 or not os.path.isfile(pot):
            return
        warnings = "\n".join(l for l in proc.stderr.splitlines() if l.strip())
        tap(not warnings, "xgettext extracts every message without warnings", warnings)

        pot_ids = [e for e in parse_po(pot) if e["msgid"]]
        tap(len(pot_ids) > 0, "the POT has messages (%d)" % len(pot_ids))

        for lang in langs:
            po = os.path.join(root, "po", lang + ".po")
            if not os.path.isfile(po):
                continue
            proc = subprocess.run([tools["msgfmt"], "--check", "--check-accelerators=_",
                                   "-o", os.devnull, po], capture_output=True, text=True)
            tap(proc.returncode == 0, "%s.po compiles with msgfmt --check" % lang, proc.stderr)

            merged = os.path.join(tmp, lang + ".po")
            proc = subprocess.run([tools["msgmerge"], "--quiet", "--no-wrap", "-o", merged,
                                   po, pot], capture_output=True, text=True)
            tap(proc.returncode == 0, "%s.po merges with the POT" % lang, proc.stderr)
            if proc.returncode != 0:
                continue
            untranslated, fuzzy = [], []
            for e in parse_po(merged):
                if not e["msgid"]:
                    continue
                label = e["msgid"] if "msgctxt" not in e else "%s|%s" % (e["msgctxt"], e["msgid"])
                label = label.replace("\n", "\\n")
                if "fuzzy" in e["flags"]:
                    fuzzy.append(label)
                elif not e["msgstr"] or any(s == "" for s in e["msgstr"]):
                    untranslated.append(label)
            diag = ["untranslated: " + s for s in untranslated] + ["fuzzy: " + s for s in fuzzy]
            tap(not diag, "%s.po translates all %d messages of the sources (%d untranslated, "
                "%d fuzzy)" % (lang, len(pot_ids), len(untranslated), len(fuzzy)),
                "\n".join(diag))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test-po.py SOURCE_ROOT")
    root = os.path.abspath(sys.argv[1])
    check_potfiles(root)
    langs = linguas(root)
    check_linguas(root, langs)
    check_translations(root, langs)
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
