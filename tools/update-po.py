#!/usr/bin/python3
# update-po.py: bring po/*.po up to date with the sources, and list what needs translating.
#
#   tools/update-po.py            merge a fresh POT into every po/<lang>.po (in place)
#   tools/update-po.py --list     only list the untranslated and fuzzy messages of each language
#
# The POT is made exactly as tests/unit/test-po.py makes it (same xgettext keywords and flags),
# so what this leaves untranslated is what that test reports.
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import runpy
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
TEST_PO = runpy.run_path(os.path.join(ROOT, "tests", "unit", "test-po.py"), run_name="test_po")


def main():
    list_only = "--list" in sys.argv[1:]
    with tempfile.TemporaryDirectory(prefix="dyno-update-po-") as tmp:
        pot = os.path.join(tmp, "dynotable.pot")
        subprocess.run(["xgettext", "--directory=" + ROOT,
                        "--files-from=" + os.path.join(ROOT, "po", "POTFILES.in"),
                        "--output=" + pot, "--package-name=dynotable"] + TEST_PO["XGETTEXT_ARGS"],
                       check=True)
        for lang in TEST_PO["linguas"](ROOT):
            po = os.path.join(ROOT, "po", lang + ".po")
            out = os.path.join(tmp, lang + ".po") if list_only else po
            subprocess.run(["msgmerge", "--quiet", "--no-wrap", "--previous", "-o", out, po, pot],
                           check=True)
            todo = [e for e in TEST_PO["parse_po"](out)
                    if e["msgid"] and ("fuzzy" in e["flags"] or not all(e["msgstr"]))]
            print(f"{lang}: {len(todo)} message(s) to translate")
            for e in todo:
                print("  " + ("(fuzzy) " if "fuzzy" in e["flags"] else "") + repr(e["msgid"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
