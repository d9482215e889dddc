#!/usr/bin/env python3
# test_codegen_syntax.py: the Go, Java, Rust, .NET, Kotlin, PHP, Ruby and C++ emitters,
# checked by the real tools Debian has for each language.
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""For a corpus of requests (every operation, every value type, every option, awkward names
and strings), `dynotable-cli expr import - --emit TARGET [--program]` writes code that must:

  * parse with the language's own parser where Debian has one:
      go-v2    gofmt (and the output is already gofmt-formatted); with Debian's
               golang-github-aws-aws-sdk-go-v2-dev also `go vet` (type-checked against the
               real SDK, GOPATH mode)
      java-v2  javac's parser (com.sun.source JavacTask.parse: syntax only, the SDK jars are
               not in Debian)
      dotnet   mono's `mcs --parse` (syntax only)
      rust     `rustfmt` (syntax only; the crate is not in Debian)
      php      `php -l`
      ruby     `ruby -c`
    kotlin and cpp have no offline checker: they get the structural checks only.
  * be balanced (brackets outside string literals and comments, by a small tokenizer), and
    contain, as decoded string literals, the table name, every expression, every placeholder
    exactly once, every attribute name, S and N text (N exactly, 38 digits) and binary.
  * spell its string literals so that the language itself reads back the exact text: the
    literals are extracted and evaluated by go, javac's parser, mono, rustc, g++, php and
    ruby (each where installed).  Kotlin's are decoded by this test only.
  * for PHP and Ruby, evaluate to the request: the parameter array / hash of the program is
    run by php/ruby, converted to DynamoDB JSON and compared with `--emit request-json`.

Runs through tests/fixtures/with-ddb-local.sh like the other integration tests; no server is
needed here.  Exit status 0 when all checks pass, 1 otherwise; missing tools are reported
as skipped.
"""

import base64
import binascii
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TARGETS = ["go-v2", "java-v2", "rust", "dotnet", "kotlin", "php", "ruby", "cpp"]

TRICKY = "a\"b\\c \x00 $x ${y} #{z} #@w %s {0} \n\t\r end é ∑ 😀 \u2028 \u202e \x01 \x7f ??= '"

ALL_TYPES = {
    "s": {"S": TRICKY},
    "n": {"N": "12345678901234567890123456789012345678"},
    "neg": {"N": "-0.000000000000000000000000000000000001"},
    "b": {"B": base64.b64encode(bytes(range(256))).decode()},
    "t": {"BOOL": True},
    "f": {"BOOL": False},
    "nul": {"NULL": True},
    "ss": {"SS": ["x", "y\"z", "$w"]},
    "ns": {"NS": ["1", "-2.5", "99999999999999999999999999999999999999"]},
    "bs": {"BS": ["AA==", "/w==", "AAEC"]},
    "m": {"M": {"inner": {"S": "v"}, "deeper": {"M": {"k": {"N": "1"}}}, "empty": {"M": {}}}},
    "l": {"L": [{"S": "one"}, {"N": "2"}, {"L": []}, {"M": {"a": {"NULL": True}}}]},
}

LONG = "an_attribute_name_well_over_forty_characters_long"

CORPUS = [
    ("query-basic", "query", {
        "TableName": "Music",
        "KeyConditionExpression": "#pk = :pk",
        "ExpressionAttributeNames": {"#pk": "pk"},
        "ExpressionAttributeValues": {":pk": {"S": "ARTIST#1"}},
    }),
    ("query-all-options", "query", {
        "TableName": "orders-2026.v1",
        "IndexName": "gsi1",
        "KeyConditionExpression": "#pk = :pk AND #sk BETWEEN :lo AND :hi",
        "FilterExpression": "#status IN (:open, :late) AND size(#tags) > :n AND #a.#b[2] = :x",
        "ProjectionExpression": "#pk, #sk, #status, #data",
        "ExpressionAttributeNames": {"#pk": "gsi1pk", "#sk": "gsi1sk", "#status": "status",
                                     "#tags": "tags", "#a": "a-b", "#b": "c.d",
                                     "#data": "data"},
        "ExpressionAttributeValues": {
            ":pk": {"S": "TENANT#acme"}, ":lo": {"S": "2026-01-01"}, ":hi": {"S": "2026-12-31"},
            ":open": {"S": "open"}, ":late": {"S": TRICKY}, ":n": {"N": "3"},
            ":x": {"M": {"k": {"B": "AAEC/w=="}}}},
        "ExclusiveStartKey": {"gsi1pk": {"S": "TENANT#acme"}, "gsi1sk": {"S": "2026-03-01"},
                              "pk": {"S": "p"}, "sk": {"S": "s"}},
        "Limit": 25,
        "ScanIndexForward": False,
        "Select": "SPECIFIC_ATTRIBUTES",
        "ReturnConsumedCapacity": "INDEXES",
    }),
    ("query-count", "query", {
        "TableName": "Audit",
        "KeyConditionExpression": "#pk = :pk AND begins_with(#sk, :prefix)",
        "ExpressionAttributeNames": {"#pk": "PK", "#sk": "SK"},
        "ExpressionAttributeValues": {":pk": {"S": "ACTOR#u_8814"},
                                      ":prefix": {"S": "EVT#2026-06-23"}},
        "ConsistentRead": True,
        "Select": "COUNT",
    }),
    ("scan-segments", "scan", {
        "TableName": "Sensors",
        "FilterExpression": "attribute_exists(#d) AND #r >= :min AND #" + "l = :long",
        "ExpressionAttributeNames": {"#d": "deviceId", "#r": "reading", "#l": LONG},
        "ExpressionAttributeValues": {":min": {"N": "-1e-130"}, ":long": {"S": "x"}},
        "Segment": 0,
        "TotalSegments": 4,
        "Limit": 100,
        "ConsistentRead": False,
        "ReturnConsumedCapacity": "TOTAL",
    }),
    ("scan-plain", "scan", {"TableName": "Things"}),
    ("get", "get", {
        "TableName": "Music",
        "Key": {"pk": {"S": "ARTIST#1"}, "sk": {"N": "42"}},
        "ProjectionExpression": "#n, albums[0].title",
        "ExpressionAttributeNames": {"#n": "name"},
        "ConsistentRead": True,
        "ReturnConsumedCapacity": "TOTAL",
    }),
    ("put-all-types", "put", {
        "TableName": "Music",
        "Item": dict({"pk": {"S": "ARTIST#1"}, "sk": {"S": "ALBUM#1"}, LONG: {"S": "long"},
                      "k": {"S": "short"}}, **ALL_TYPES),
        "ConditionExpression": "attribute_not_exists(pk)",
        "ReturnValues": "ALL_OLD",
        "ReturnConsumedCapacity": "TOTAL",
    }),
    ("put-many-values", "put", {
        "TableName": "Wide",
        "Item": {("a%02d" % i): {"N": str(i)} for i in range(14)},
        "ConditionExpression": "attribute_not_exists(#pk) OR #v IN (:v0, :v1, :v2, :v3, :v4, "
                               ":v5, :v6, :v7, :v8, :v9, :v10, :v11)",
        "ExpressionAttributeNames": {"#pk": "pk", "#v": "version"},
        "ExpressionAttributeValues": {(":v%d" % i): {"N": str(i)} for i in range(12)},
    }),
    ("update", "update", {
        "TableName": "Music",
        "Key": {"pk": {"S": "ARTIST#1"}, "sk": {"B": "3q2+7w=="}},
        "UpdateExpression": "SET #c = if_not_exists(#c, :zero) + :one, #l = list_append(#l, :l) "
                            "REMOVE #old ADD #tags :tags DELETE #bs :bs",
        "ConditionExpression": "#v = :v",
        "ExpressionAttributeNames": {"#c": "count", "#l": "list", "#old": "old", "#tags": "tags",
                                     "#bs": "bins", "#v": "version"},
        "ExpressionAttributeValues": {":zero": {"N": "0"}, ":one": {"N": "1"},
                                      ":l": {"L": [{"S": TRICKY}]},
                                      ":tags": {"SS": ["a", "b"]}, ":bs": {"BS": ["AQ=="]},
                                      ":v": {"N": "7"}},
        "ReturnValues": "ALL_NEW",
    }),
    ("delete", "delete", {
        "TableName": "Music",
        "Key": {"pk": {"S": "ARTIST#1"}, "sk": {"S": "ALBUM#1"}},
        "ConditionExpression": "#s = :s",
        "ExpressionAttributeNames": {"#s": "status"},
        "ExpressionAttributeValues": {":s": {"S": "archived"}},
        "ReturnValues": "ALL_OLD",
    }),
]

# ---- reporting ---------------------------------------------------------------------------

_results = {"n": 0, "failed": 0}


def check(name, ok, detail=""):
    _results["n"] += 1
    if ok:
        print("ok %d - %s" % (_results["n"], name))
    else:
        _results["failed"] += 1
        print("not ok %d - %s" % (_results["n"], name))
        for line in str(detail).splitlines()[:40]:
            print("#   " + line)
    sys.stdout.flush()
    return ok


def skip(name, why):
    _results["n"] += 1
    print("ok %d - %s # SKIP %s" % (_results["n"], name, why))


def run(argv, stdin=None, cwd=None, env=None, timeout=600):
    return subprocess.run(argv, input=stdin, cwd=cwd, env=env, timeout=timeout,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


# ---- the CLI -----------------------------------------------------------------------------

CLI = os.environ.get("DYNOTABLE_CLI")


def emit(op, request, target, program=False, extra=()):
    argv = [CLI, "expr", "import", "-", "--op", op, "--emit", target]
    if program:
        argv += ["--program", "--endpoint-url", "http://127.0.0.1:8000", "--region", "us-east-1"]
    argv += list(extra)
    p = run(argv, stdin=json.dumps(request).encode())
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(argv[1:]), p.stderr.decode(errors="replace")))
    return p.stdout.decode()


# ---- string literals and brackets -------------------------------------------------------

class Literal:
    def __init__(self, raw, value, binary=False):
        self.raw = raw        # as written in the source, quotes included
        self.value = value    # decoded bytes
        self.binary = binary  # a byte-string literal (Go []byte, Rust b"", Ruby .b)


def _utf16_units_to_bytes(units):
    data = b"".join(u.to_bytes(2, "big") for u in units)
    return data.decode("utf-16-be", errors="surrogatepass").encode("utf-8", errors="surrogatepass")


def decode_c_like(body, lang):
    """Decodes the inside of a "…" literal the way @lang reads it; returns bytes."""
    if lang == "java":
        # \uXXXX is translated before lexing, where the backslash is not itself escaped
        out, i = [], 0
        while i < len(body):
            if body[i] == "\\":
                j = i
                while j < len(body) and body[j] == "\\":
                    j += 1
                run_len = j - i
                if run_len % 2 == 1 and j < len(body) and body[j] == "u":
                    out.append("\\" * (run_len - 1))
                    k = j
                    while body[k] == "u":
                        k += 1
                    out.append(chr(int(body[k:k + 4], 16)))
                    i = k + 4
                    continue
                out.append(body[i:j])
                i = j
                continue
            out.append(body[i])
            i += 1
        body = "".join(out).encode("utf-16-le", errors="surrogatepass").decode(
            "utf-16-le", errors="surrogatepass")
    units = []       # UTF-16 code units for \u escapes, to pair surrogates
    out = bytearray()

    def flush():
        if units:
            out.extend(_utf16_units_to_bytes(units))
            units.clear()

    simple = {"n": b"\n", "t": b"\t", "r": b"\r", "\\": b"\\", "\"": b"\"", "'": b"'",
              "0": b"\0", "b": b"\b", "f": b"\f", "v": b"\v", "a": b"\a", "?": b"?",
              "$": b"$", "s": b" "}
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            flush()
            out.extend(c.encode("utf-8", errors="surrogatepass"))
            i += 1
            continue
        e = body[i + 1]
        if e == "u" and lang in ("csharp", "kotlin", "go", "cpp") and body[i + 2] != "{":
            # C# and Kotlin spell UTF-16 code units (pairs for astral characters); Go and
            # C++ code points
            units.append(int(body[i + 2:i + 6], 16))
            i += 6
            if lang in ("go", "cpp"):
                flush()
            continue
        flush()
        if e == "u" and body[i + 2] == "{":
            end = body.index("}", i)
            out.extend(chr(int(body[i + 3:end], 16)).encode())
            i = end + 1
        elif e == "U":
            out.extend(chr(int(body[i + 2:i + 10], 16)).encode())
            i += 10
        elif e == "x":
            if lang in ("go", "rust"):
                out.append(int(body[i + 2:i + 4], 16))
                i += 4
            else:  # C++/C#: greedy hex
                m = re.match(r"[0-9A-Fa-f]+", body[i + 2:])
                out.append(int(m.group(0), 16))
                i += 2 + len(m.group(0))
        elif e in "01234567" and lang in ("go", "java", "cpp"):
            m = re.match(r"[0-7]{1,3}", body[i + 1:])
            out.append(int(m.group(0), 8))
            i += 1 + len(m.group(0))
        elif e in simple:
            out.extend(simple[e])
            i += 2
        else:
            raise ValueError("unknown escape \\%s in %s literal" % (e, lang))
    flush()
    return bytes(out)


def decode_php(raw):
    if raw[0] == "'":
        return re.sub(r"\\([\\'])", r"\1", raw[1:-1]).encode()
    out, body, i = bytearray(), raw[1:-1], 0
    simple = {"n": b"\n", "t": b"\t", "r": b"\r", "v": b"\v", "e": b"\x1b", "f": b"\f",
              "\\": b"\\", "$": b"$", "\"": b"\""}
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            e = body[i + 1]
            if e in simple:
                out.extend(simple[e])
                i += 2
                continue
            if e == "u" and body[i + 2:i + 3] == "{":
                end = body.index("}", i)
                out.extend(chr(int(body[i + 3:end], 16)).encode())
                i = end + 1
                continue
            if e == "x":
                m = re.match(r"[0-9A-Fa-f]{1,2}", body[i + 2:])
                out.append(int(m.group(0), 16))
                i += 2 + len(m.group(0))
                continue
        if c == "$":
            raise ValueError("unescaped $ in a PHP double-quoted string: " + raw)
        out.extend(c.encode())
        i += 1
    return bytes(out)


def decode_ruby(raw):
    if raw[0] == "'":
        return re.sub(r"\\([\\'])", r"\1", raw[1:-1]).encode()
    out, body, i = bytearray(), raw[1:-1], 0
    simple = {"n": b"\n", "t": b"\t", "r": b"\r", "v": b"\v", "e": b"\x1b", "f": b"\f",
              "a": b"\a", "b": b"\b", "s": b" ", "0": b"\0"}
    while i < len(body):
        c = body[i]
        if c == "\\":
            e = body[i + 1]
            if e in simple:
                out.extend(simple[e])
                i += 2
            elif e == "u" and body[i + 2] == "{":
                end = body.index("}", i)
                out.extend(chr(int(body[i + 3:end], 16)).encode())
                i = end + 1
            elif e == "u":
                out.extend(chr(int(body[i + 2:i + 6], 16)).encode())
                i += 6
            elif e == "x":
                m = re.match(r"[0-9A-Fa-f]{1,2}", body[i + 2:])
                out.append(int(m.group(0), 16))
                i += 2 + len(m.group(0))
            else:
                out.extend(e.encode())
                i += 2
            continue
        if c == "#" and i + 1 < len(body) and body[i + 1] in "{$@":
            raise ValueError("interpolation in a Ruby string: " + raw)
        out.extend(c.encode())
        i += 1
    return bytes(out)


FAMILY = {"go-v2": "go", "java-v2": "java", "rust": "rust", "dotnet": "csharp",
          "kotlin": "kotlin", "cpp": "cpp", "php": "php", "ruby": "ruby"}


def scan(code, target):
    """Returns (literals, bracket problems) for @code."""
    lang = FAMILY[target]
    literals, stack, problems = [], [], []
    pairs = {")": "(", "]": "[", "}": "{"}
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        two = code[i:i + 2]
        if lang not in ("ruby",) and two == "//":
            i = code.find("\n", i)
            i = n if i < 0 else i
            continue
        if lang not in ("ruby",) and two == "/*":
            i = code.index("*/", i) + 2
            continue
        if lang == "ruby" and c == "#":
            i = code.find("\n", i)
            i = n if i < 0 else i
            continue
        if lang == "php" and code.startswith("<?php", i):
            i += 5
            continue
        quote = None
        if c == "\"":
            quote = "\""
        elif c == "'" and lang in ("php", "ruby"):
            quote = "'"
        if quote:
            j = i + 1
            while code[j] != quote:
                j += 2 if code[j] == "\\" else 1
            raw = code[i:j + 1]
            binary = False
            if lang == "php":
                value = decode_php(raw)
            elif lang == "ruby":
                value = decode_ruby(raw)
                binary = code.startswith(".b", j + 1)
            else:
                value = decode_c_like(raw[1:-1], lang)
                if lang == "rust" and code[i - 1:i] == "b":
                    binary = True
                if lang == "go" and code[max(0, i - 7):i] == "[]byte(":
                    binary = True
            literals.append(Literal(raw, value, binary))
            i = j + 1
            continue
        if c in "([{":
            stack.append(c)
        elif c in ")]}":
            if not stack or stack[-1] != pairs[c]:
                problems.append("unbalanced %r at offset %d" % (c, i))
            else:
                stack.pop()
        i += 1
    if stack:
        problems.append("unclosed %r" % "".join(stack))
    return literals, problems


# ---- what must be in the code ------------------------------------------------------------

def expected_parts(canonical):
    """Texts (str) and binaries (bytes) that the code must spell, from the request JSON."""
    texts, binaries = [canonical["TableName"]], []
    for member in ("IndexName", "KeyConditionExpression", "FilterExpression",
                   "ProjectionExpression", "ConditionExpression", "UpdateExpression"):
        if member in canonical:
            texts.append(canonical[member])
    for k, v in canonical.get("ExpressionAttributeNames", {}).items():
        texts += [k, v]

    def walk(av):
        (kind, v), = av.items()
        if kind in ("S", "N"):
            texts.append(v)
        elif kind in ("SS", "NS"):
            texts.extend(v)
        elif kind == "B":
            binaries.append(base64.b64decode(v))
        elif kind == "BS":
            binaries.extend(base64.b64decode(x) for x in v)
        elif kind == "M":
            for name, child in v.items():
                texts.append(name)
                walk(child)
        elif kind == "L":
            for child in v:
                walk(child)

    for k, v in canonical.get("ExpressionAttributeValues", {}).items():
        texts.append(k)
        walk(v)
    for member in ("Key", "Item", "ExclusiveStartKey"):
        for name, v in canonical.get(member, {}).items():
            texts.append(name)
            walk(v)
    return texts, binaries


def placeholders(canonical):
    return (list(canonical.get("ExpressionAttributeNames", {}))
            + list(canonical.get("ExpressionAttributeValues", {})))


def check_structure(label, code, target, canonical):
    try:
        literals, problems = scan(code, target)
    except (ValueError, IndexError) as e:
        check(label + ": string literals decode", False, e)
        return []
    check(label + ": brackets balanced", not problems, "\n".join(problems))
    values = [lit.value for lit in literals]
    texts, binaries = expected_parts(canonical)
    missing = [t for t in texts if t.encode() not in values]
    check(label + ": every name, expression and value spelled exactly", not missing,
          "missing: %r" % missing[:5])
    base64_texts = [lit.value for lit in literals if not lit.binary]
    raw_binaries = [lit.value for lit in literals if lit.binary]
    missing_b = [b for b in binaries
                 if b not in raw_binaries and base64.b64encode(b) not in base64_texts]
    check(label + ": every binary value present (as bytes or base64)", not missing_b,
          "missing: %r" % missing_b[:3])
    counts = {p: values.count(p.encode()) for p in placeholders(canonical)}
    wrong = {p: c for p, c in counts.items() if c != 1}
    check(label + ": each placeholder defined exactly once", not wrong, "counts: %r" % wrong)
    return literals


# ---- evaluation of literals by the languages themselves ---------------------------------

def eval_literals_go(workdir, literals):
    lines = ["package main", "", "import \"fmt\"", "", "func main() {"]
    for lit in literals:
        lines.append("\tfmt.Printf(\"%%x\\n\", %s)" % lit.raw)
    lines.append("}")
    path = os.path.join(workdir, "lits.go")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = run(["go", "run", path], env=dict(os.environ, GO111MODULE="off",
                                          GOCACHE=go_cache(workdir)), cwd=workdir)
    return p


def eval_literals_rust(workdir, literals):
    lines = ["fn p(b: &[u8]) { let s: Vec<String> = b.iter().map(|x| format!(\"{:02x}\", x))"
             ".collect(); println!(\"{}\", s.join(\"\")); }", "fn main() {"]
    for lit in literals:
        prefix = "b" if lit.binary else ""
        expr = "%s%s" % (prefix, lit.raw) + ("" if lit.binary else ".as_bytes()")
        lines.append("    p(%s);" % expr)
    lines.append("}")
    src = os.path.join(workdir, "lits.rs")
    exe = os.path.join(workdir, "lits-rs")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = run(["rustc", "--edition", "2021", "-o", exe, src], cwd=workdir)
    if p.returncode != 0:
        return p
    return run([exe])


def eval_literals_cpp(workdir, literals):
    lines = ["#include <cstdio>", "static void p(const char *s, unsigned long n)",
             "{ for (unsigned long i = 0; i < n; i++) std::printf(\"%02x\", (unsigned char) s[i]);"
             " std::printf(\"\\n\"); }", "int main() {"]
    for lit in literals:
        lines.append("    p(%s, sizeof(%s) - 1);" % (lit.raw, lit.raw))
    lines.append("}")
    src = os.path.join(workdir, "lits.cpp")
    exe = os.path.join(workdir, "lits-cpp")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = run(["g++", "-std=c++11", "-finput-charset=UTF-8", "-o", exe, src], cwd=workdir)
    if p.returncode != 0:
        return p
    return run([exe])


def eval_literals_csharp(workdir, literals):
    lines = ["using System; using System.Text;", "class P {",
             " static void E(string s) { Console.WriteLine(BitConverter.ToString("
             "Encoding.UTF8.GetBytes(s)).Replace(\"-\", \"\").ToLowerInvariant()); }",
             " static void Main() {"]
    for lit in literals:
        lines.append("  E(%s);" % lit.raw)
    lines.append(" }", )
    lines.append("}")
    src = os.path.join(workdir, "lits.cs")
    exe = os.path.join(workdir, "lits.exe")
    with open(src, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    p = run(["mcs", "-codepage:utf8", "-out:" + exe, src], cwd=workdir)
    if p.returncode != 0:
        return p
    return run(["mono", exe])


def eval_literals_script(workdir, literals, lang):
    if lang == "php":
        body = "".join("echo bin2hex(%s), \"\\n\";\n" % lit.raw for lit in literals)
        path = os.path.join(workdir, "lits.php")
        with open(path, "w") as f:
            f.write("<?php\n" + body)
        return run(["php", path])
    body = "".join("puts((%s).unpack1('H*'))\n" % lit.raw for lit in literals)
    path = os.path.join(workdir, "lits.rb")
    with open(path, "w") as f:
        f.write("# encoding: utf-8\n" + body)
    return run(["ruby", path])


# ---- per-language syntax checks -----------------------------------------------------------

JAVA_PARSE = r'''
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreeScanner;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import javax.tools.*;

public class JavaParse {
    public static void main(String[] args) throws Exception {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager files =
                compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8);
        JavacTask task = (JavacTask) compiler.getTask(null, files, diagnostics,
                List.of("-proc:none"), null, files.getJavaFileObjects(args));
        int errors = 0;
        for (CompilationUnitTree unit : task.parse()) {
            String name = unit.getSourceFile().getName();
            new TreeScanner<Void, Void>() {
                @Override
                public Void visitLiteral(LiteralTree node, Void unused) {
                    if (node.getValue() instanceof String) {
                        String s = (String) node.getValue();
                        System.out.println("LIT\t" + name + "\t"
                                + HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8)));
                    }
                    return null;
                }
            }.scan(unit, null);
        }
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                errors++;
                System.out.println("ERR\t" + d.getSource().getName() + "\t" + d.getLineNumber()
                        + ": " + d.getMessage(null));
            }
        }
        System.exit(errors == 0 ? 0 : 1);
    }
}
'''

GO_SDK = "/usr/share/gocode/src/github.com/aws/aws-sdk-go-v2/service/dynamodb"


# A stand-in for the AWS SDK for C++ headers (not in Debian): the declarations the generated
# code uses, with the signatures of the SDK's public headers (aws/dynamodb/model/
# AttributeValue.h, the generated *Request/*Result classes, Aws::Client::ClientConfiguration,
# Aws::Utils::Json::JsonValue).  Compiling against it checks C++ syntax, overload resolution
# (SetM({}), SetSS({…}), make_shared of a chained temporary) and which setters each request
# type has; it cannot prove the SDK links or runs.
CPP_STUB = r"""
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>
namespace Aws {
using String = std::string;
template <typename K, typename V> using Map = std::map<K, V>;
template <typename T> using Vector = std::vector<T>;
struct SDKOptions {};
void InitAPI(const SDKOptions &);
void ShutdownAPI(const SDKOptions &);
namespace Http { enum class Scheme { HTTP, HTTPS }; }
namespace Client {
struct ClientConfiguration {
  ClientConfiguration();
  explicit ClientConfiguration(const char *profileName);
  String region;
  String endpointOverride;
  Http::Scheme scheme;
};
}
namespace Utils {
class ByteBuffer { public: ByteBuffer(); };
namespace HashingUtils { ByteBuffer Base64Decode(const String &); }
namespace Json {
class JsonView { public: String WriteCompact(bool treatAsObject = true) const; };
class JsonValue {
public:
  JsonValue &WithObject(const String &key, const JsonValue &value);
  JsonView View() const;
};
}
}
namespace DynamoDB {
namespace Model {
class AttributeValue {
public:
  AttributeValue();
  AttributeValue &SetS(const String &s);
  AttributeValue &SetS(const char *s);
  AttributeValue &SetN(const String &n);
  AttributeValue &SetN(const char *n);
  AttributeValue &SetN(const int n);
  AttributeValue &SetN(const float n);
  AttributeValue &SetN(const double n);
  AttributeValue &SetB(const Utils::ByteBuffer &b);
  AttributeValue &SetSS(const Vector<String> &ss);
  AttributeValue &SetNS(const Vector<String> &ns);
  AttributeValue &SetBS(const Vector<Utils::ByteBuffer> &bs);
  AttributeValue &SetM(const Map<String, const std::shared_ptr<AttributeValue>> &map);
  AttributeValue &AddMEntry(const String &key, const std::shared_ptr<AttributeValue> &value);
  AttributeValue &AddMEntry(const char *key, const std::shared_ptr<AttributeValue> &value);
  AttributeValue &SetL(const Vector<std::shared_ptr<AttributeValue>> &list);
  AttributeValue &AddLItem(const std::shared_ptr<AttributeValue> &listItem);
  AttributeValue &SetBool(bool value);
  AttributeValue &SetNull(bool value);
  Utils::Json::JsonValue Jsonize() const;
};
typedef Map<String, AttributeValue> Item;
enum class Select { NOT_SET, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, SPECIFIC_ATTRIBUTES, COUNT };
enum class ReturnConsumedCapacity { NOT_SET, INDEXES, TOTAL, NONE };
enum class ReturnValue { NOT_SET, NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW };
#define DYNO_STR(T, N) T &Set##N(const String &value);
#define DYNO_INT(T, N) T &Set##N(int value);
#define DYNO_BOOL(T, N) T &Set##N(bool value);
#define DYNO_NAMES(T) T &AddExpressionAttributeNames(const String &key, const String &value);
#define DYNO_ITEM(T, N) T &Add##N(const String &key, const AttributeValue &value); \
  T &Set##N(const Item &value); const Item &Get##N() const;
#define DYNO_COMMON(T) DYNO_STR(T, TableName) \
  T &SetReturnConsumedCapacity(ReturnConsumedCapacity value);
#define DYNO_READ_MANY(T) DYNO_COMMON(T) DYNO_STR(T, IndexName) DYNO_STR(T, FilterExpression) \
  DYNO_STR(T, ProjectionExpression) DYNO_NAMES(T) DYNO_ITEM(T, ExpressionAttributeValues) \
  DYNO_ITEM(T, ExclusiveStartKey) DYNO_INT(T, Limit) DYNO_BOOL(T, ConsistentRead) \
  T &SetSelect(Select value);
#define DYNO_WRITE(T) DYNO_COMMON(T) DYNO_STR(T, ConditionExpression) DYNO_NAMES(T) \
  DYNO_ITEM(T, ExpressionAttributeValues) T &SetReturnValues(ReturnValue value);
class QueryRequest { public: DYNO_READ_MANY(QueryRequest)
  DYNO_STR(QueryRequest, KeyConditionExpression) DYNO_BOOL(QueryRequest, ScanIndexForward) };
class ScanRequest { public: DYNO_READ_MANY(ScanRequest)
  DYNO_INT(ScanRequest, Segment) DYNO_INT(ScanRequest, TotalSegments) };
class GetItemRequest { public: DYNO_COMMON(GetItemRequest) DYNO_ITEM(GetItemRequest, Key)
  DYNO_STR(GetItemRequest, ProjectionExpression) DYNO_NAMES(GetItemRequest)
  DYNO_BOOL(GetItemRequest, ConsistentRead) };
class PutItemRequest { public: DYNO_WRITE(PutItemRequest) DYNO_ITEM(PutItemRequest, Item) };
class UpdateItemRequest { public: DYNO_WRITE(UpdateItemRequest)
  DYNO_ITEM(UpdateItemRequest, Key) DYNO_STR(UpdateItemRequest, UpdateExpression) };
class DeleteItemRequest { public: DYNO_WRITE(DeleteItemRequest)
  DYNO_ITEM(DeleteItemRequest, Key) };
class PagedResult {
public:
  const Vector<Item> &GetItems() const;
  const Item &GetLastEvaluatedKey() const;
  int GetCount() const;
};
class QueryResult : public PagedResult {};
class ScanResult : public PagedResult {};
class GetItemResult { public: const Item &GetItem() const; };
class AttributesResult { public: const Item &GetAttributes() const; };
class PutItemResult : public AttributesResult {};
class UpdateItemResult : public AttributesResult {};
class DeleteItemResult : public AttributesResult {};
}
struct DynamoDBError { const String &GetMessage() const; };
template <typename R> class Outcome {
public:
  bool IsSuccess() const;
  const R &GetResult() const;
  const DynamoDBError &GetError() const;
};
class DynamoDBClient {
public:
  explicit DynamoDBClient(const Client::ClientConfiguration &config);
  Outcome<Model::QueryResult> Query(const Model::QueryRequest &request) const;
  Outcome<Model::ScanResult> Scan(const Model::ScanRequest &request) const;
  Outcome<Model::GetItemResult> GetItem(const Model::GetItemRequest &request) const;
  Outcome<Model::PutItemResult> PutItem(const Model::PutItemRequest &request) const;
  Outcome<Model::UpdateItemResult> UpdateItem(const Model::UpdateItemRequest &request) const;
  Outcome<Model::DeleteItemResult> DeleteItem(const Model::DeleteItemRequest &request) const;
};
}
}
"""

CPP_STUB_HEADERS = ["aws/core/Aws.h", "aws/core/client/ClientConfiguration.h",
                    "aws/core/utils/HashingUtils.h", "aws/core/utils/json/JsonSerializer.h",
                    "aws/dynamodb/DynamoDBClient.h"] + [
    "aws/dynamodb/model/%sRequest.h" % op
    for op in ("Query", "Scan", "GetItem", "PutItem", "UpdateItem", "DeleteItem")]


def wrap_snippet(target, code, index):
    """A compilation unit around a snippet, for parsers that need one."""
    if target == "go-v2":
        return ("package main\n\n"
                "import (\n"
                "\t\"context\"\n\t\"log\"\n\n"
                "\t\"github.com/aws/aws-sdk-go-v2/aws\"\n"
                "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb\"\n"
                "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb/types\"\n"
                ")\n\n"
                "var _ = aws.String\n"
                "var _ types.AttributeValue\n\n"
                "func snippet(client *dynamodb.Client) {\n"
                + "".join("\t" + line + "\n" if line else "\n" for line in code.splitlines())
                + "\t_ = output\n}\n\nfunc main() {}\n")
    if target == "java-v2":
        return ("class Snippet%d {\n    void run(DynamoDbClient client) {\n%s    }\n}\n"
                % (index, code))
    if target == "dotnet":
        return ("class Snippet%d\n{\n    async System.Threading.Tasks.Task Run(AmazonDynamoDBClient"
                " client)\n    {\n%s    }\n}\n" % (index, code))
    if target == "rust":
        return ("async fn snippet(client: Client) -> Result<(), Error> {\n%s    Ok(())\n}\n"
                % code)
    if target == "php":
        return "<?php\n" + code
    if target == "cpp":
        return ("#include <aws/dynamodb/DynamoDBClient.h>\n#include <iostream>\n#include <memory>\n\n"
                "void snippet(const Aws::DynamoDB::DynamoDBClient &client)\n{\n%s}\n" % code)
    return code


def main():
    if not CLI or not os.path.exists(CLI):
        print("1..0 # SKIP DYNOTABLE_CLI is not built")
        return 77

    workdir = tempfile.mkdtemp(prefix="dyno-codegen-syntax-")
    try:
        return run_checks(workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run_checks(workdir):
    files = {t: [] for t in TARGETS}    # (label, path, is_program, canonical, literals)
    emitted = {}

    unavailable = set()
    for target in TARGETS:
        # An emitter missing from the CLI (e.g. not linked in) is one failure, not hundreds.
        name, op, request = CORPUS[0]
        try:
            emit(op, request, target)
        except RuntimeError as e:
            check(target + ": the CLI has this emitter", False, e)
            unavailable.add(target)

    for index, (name, op, request) in enumerate(CORPUS):
        canonical = json.loads(emit(op, request, "request-json"))
        for target in TARGETS:
            if target in unavailable:
                continue
            for program in (False, True):
                label = "%s %s%s" % (target, name, " program" if program else "")
                try:
                    code = emit(op, request, target, program)
                except RuntimeError as e:
                    check(label + ": emitted", False, e)
                    continue
                emitted[(target, name, program)] = code
                literals = check_structure(label, code, target, canonical)
                files[target].append((label, index, program, code, canonical, literals))

    # A profile, and no endpoint: the other client set-up branch of every program.
    for target in TARGETS:
        if target in unavailable:
            continue
        name, op, request = CORPUS[0]
        code = emit(op, request, target, False, ["--program", "--profile", "dev",
                                                  "--region", "eu-west-1"])
        canonical = json.loads(emit(op, request, "request-json"))
        label = "%s %s program with profile" % (target, name)
        literals = check_structure(label, code, target, canonical)
        check(label + ": names the profile", b"dev" in [lit.value for lit in literals])
        files[target].append((label, len(CORPUS), True, code, canonical, literals))

    check_go(workdir, files["go-v2"])
    check_java(workdir, files["java-v2"])
    check_dotnet(workdir, files["dotnet"])
    check_rust(workdir, files["rust"])
    check_php(workdir, files["php"])
    check_ruby(workdir, files["ruby"])
    check_cpp(workdir, files["cpp"])
    check_kotlin(files["kotlin"])

    print("1..%d" % _results["n"])
    return 1 if _results["failed"] else 0


def check_evaluated(target, label, p, literals):
    if p.returncode != 0:
        check("%s: the language reads the string literals" % label, False,
              p.stderr.decode(errors="replace") + p.stdout.decode(errors="replace"))
        return
    got = p.stdout.decode().split()
    want = [binascii.hexlify(lit.value).decode() for lit in literals]
    diffs = [(lit.raw, w, g) for lit, w, g in zip(literals, want, got) if w != g]
    check("%s: the language reads every string literal as intended" % label,
          len(got) == len(want) and not diffs, "first differences: %r" % diffs[:3])


def all_literals(entries):
    seen, out = set(), []
    for entry in entries:
        for lit in entry[5] or []:
            if lit.raw not in seen:
                seen.add(lit.raw)
                out.append(lit)
    return out


def check_go(workdir, entries):
    if not shutil.which("gofmt"):
        skip("go-v2: gofmt", "gofmt is not installed (golang-go)")
        return
    for label, index, program, code, canonical, literals in entries:
        p = run(["gofmt"], stdin=code.encode())
        ok = p.returncode == 0 and p.stdout.decode() == code
        detail = p.stderr.decode()
        if p.returncode == 0 and not ok:
            detail = "gofmt would change it:\n" + p.stdout.decode()[:1500]
        check(label + ": gofmt parses it and leaves it unchanged", ok, detail)

    check_evaluated("go-v2", "go-v2", eval_literals_go(workdir, all_literals(entries)),
                    all_literals(entries))

    if not os.path.isdir(GO_SDK):
        skip("go-v2: go vet against the SDK",
             "golang-github-aws-aws-sdk-go-v2-dev is not installed")
        return
    gopath = os.path.join(workdir, "gopath")
    packages = []
    for n, (label, index, program, code, canonical, literals) in enumerate(entries):
        pkg = os.path.join(gopath, "src", "cg", "p%03d" % n)
        os.makedirs(pkg)
        with open(os.path.join(pkg, "main.go"), "w") as f:
            f.write(code if program else wrap_snippet("go-v2", code, n))
        packages.append((label, "cg/p%03d" % n))
    env = dict(os.environ, GO111MODULE="off", GOPATH=gopath + ":/usr/share/gocode",
               GOFLAGS="", GOCACHE=go_cache(workdir))
    p = run(["go", "vet"] + [pkg for _, pkg in packages], cwd=gopath, env=env, timeout=900)
    out = p.stderr.decode(errors="replace") + p.stdout.decode(errors="replace")
    for label, pkg in packages:
        bad = [line for line in out.splitlines() if pkg + "/" in line or line.startswith(
            "# " + pkg)]
        check(label + ": go vet (type-checked against the AWS SDK for Go v2)",
              p.returncode == 0 or not bad, "\n".join(bad) or out[:2000])
    check("go-v2: go vet of every program and snippet", p.returncode == 0, out[:3000])


def go_cache(workdir):
    build = os.environ.get("G_TEST_BUILDDIR")
    if build and os.path.isdir(build):
        path = os.path.join(build, "go-build-cache")
        os.makedirs(path, exist_ok=True)
        return path
    return os.path.join(workdir, "go-cache")


def check_java(workdir, entries):
    if not shutil.which("java"):
        skip("java-v2: javac parser", "no JDK")
        return
    checker = os.path.join(workdir, "JavaParse.java")
    with open(checker, "w") as f:
        f.write(JAVA_PARSE)
    paths = {}
    for n, (label, index, program, code, canonical, literals) in enumerate(entries):
        d = os.path.join(workdir, "java%03d" % n)
        os.makedirs(d)
        path = os.path.join(d, "Main.java" if program else "Snippet%d.java" % n)
        with open(path, "w", encoding="utf-8") as f:
            f.write(code if program else wrap_snippet("java-v2", code, n))
        paths[path] = (label, literals)
    p = run(["java", checker] + list(paths))
    out = p.stdout.decode(errors="replace")
    errors = [line for line in out.splitlines() if line.startswith("ERR")]
    got = {}
    for line in out.splitlines():
        if line.startswith("LIT\t"):
            _, path, value = line.split("\t")
            got.setdefault(path, []).append(value)
    for path, (label, literals) in paths.items():
        mine = [e for e in errors if path in e]
        check(label + ": javac's parser accepts it", not mine and p.returncode in (0, 1),
              "\n".join(mine) or p.stderr.decode(errors="replace"))
        want = [binascii.hexlify(lit.value).decode() for lit in literals]
        check(label + ": javac reads every string literal as intended",
              got.get(path, []) == want,
              "javac: %r\nwant:  %r" % (got.get(path, [])[:6], want[:6]))


def check_dotnet(workdir, entries):
    if not shutil.which("mcs"):
        skip("dotnet: mcs --parse", "mono-mcs is not installed")
        return
    for n, (label, index, program, code, canonical, literals) in enumerate(entries):
        path = os.path.join(workdir, "cs%03d.cs" % n)
        with open(path, "w", encoding="utf-8") as f:
            f.write(code if program else wrap_snippet("dotnet", code, n))
        p = run(["mcs", "--parse", "-codepage:utf8", path])
        check(label + ": mcs --parse accepts it", p.returncode == 0,
              p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace"))
    if shutil.which("mono"):
        lits = all_literals(entries)
        check_evaluated("dotnet", "dotnet", eval_literals_csharp(workdir, lits), lits)
    else:
        skip("dotnet: string literals evaluated", "mono is not installed")


def check_rust(workdir, entries):
    rustfmt = shutil.which("rustfmt")
    if not rustfmt:
        skip("rust: rustfmt", "rustfmt is not installed")
    else:
        for n, (label, index, program, code, canonical, literals) in enumerate(entries):
            path = os.path.join(workdir, "rs%03d.rs" % n)
            with open(path, "w") as f:
                f.write(code if program else wrap_snippet("rust", code, n))
            p = run([rustfmt, "--edition", "2021", "--emit", "stdout", path])
            check(label + ": rustfmt parses it", p.returncode == 0,
                  p.stderr.decode(errors="replace"))
    if shutil.which("rustc"):
        lits = all_literals(entries)
        check_evaluated("rust", "rust", eval_literals_rust(workdir, lits), lits)
    else:
        skip("rust: string literals evaluated", "rustc is not installed")


def check_cpp(workdir, entries):
    if not shutil.which("g++"):
        skip("cpp: g++ against the SDK stand-in", "g++ is not installed")
        return
    stub_dir = os.path.join(workdir, "cpp-stub")
    for header in CPP_STUB_HEADERS + ["aws_stub.h"]:
        path = os.path.join(stub_dir, header)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(CPP_STUB if header == "aws_stub.h" else "#include <aws_stub.h>\n")
    for n, (label, index, program, code, canonical, literals) in enumerate(entries):
        path = os.path.join(workdir, "cpp%03d.cpp" % n)
        with open(path, "w") as f:
            f.write(code if program else wrap_snippet("cpp", code, n))
        p = run(["g++", "-std=c++11", "-fsyntax-only", "-Wall", "-Werror", "-isystem", stub_dir,
                 path])
        check(label + ": g++ -std=c++11 compiles it against the SDK's declarations (stand-in)",
              p.returncode == 0, p.stderr.decode(errors="replace"))
    if shutil.which("g++"):
        lits = all_literals(entries)
        check_evaluated("cpp", "cpp", eval_literals_cpp(workdir, lits), lits)
    else:
        skip("cpp: string literals evaluated", "g++ is not installed")


def check_kotlin(entries):
    # No Kotlin compiler offline: the structural checks and this test's own decoding of the
    # literals (above) are all.  Kotlin interpolates "$name": a $ must always be escaped.
    for label, index, program, code, canonical, literals in entries:
        bare = [lit.raw for lit in literals if re.search(r"(?<!\\)\$", lit.raw)]
        check(label + ": no unescaped $ in a string literal", not bare, repr(bare[:3]))


# ---- PHP and Ruby: syntax, and the values they evaluate to -------------------------------

PHP_DUMP = r'''
function dyno_conv($value, $key = null) {
    if ($key === 'B') return base64_encode($value);
    if ($key === 'BS') return array_map('base64_encode', $value);
    if (!is_array($value)) return $value;
    $out = [];
    foreach ($value as $k => $v) $out[$k] = dyno_conv($v, $k);
    return $out;
}
echo json_encode(dyno_conv($params), JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
'''

RUBY_DUMP = r'''
require 'json'
def dyno_pascal(sym)
  sym.to_s.split('_').map(&:capitalize).join
end
def dyno_av(v)
  (k, x), = v.to_a
  case k
  when :b then { 'B' => [x].pack('m0') }
  when :bs then { 'BS' => x.map { |b| [b].pack('m0') } }
  when :m then { 'M' => x.transform_values { |c| dyno_av(c) } }
  when :l then { 'L' => x.map { |c| dyno_av(c) } }
  else { k.to_s.upcase => x }
  end
end
out = {}
params.each do |k, v|
  name = dyno_pascal(k)
  out[name] = case name
              when 'ExpressionAttributeValues', 'Key', 'Item', 'ExclusiveStartKey'
                v.transform_values { |c| dyno_av(c) }
              else v
              end
end
puts JSON.generate(out)
'''


def normalize(value):
    """PHP writes an empty map as []: compare maps and lists modulo that."""
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize(v) for v in value] if value else {}
    return value


def extract_params(code, start, end):
    i = code.index(start) + len(start)
    j = code.index(end, i)
    return code[i:j]


def check_php(workdir, entries):
    if not shutil.which("php"):
        skip("php: php -l", "php-cli is not installed")
        return
    for n, (label, index, program, code, canonical, literals) in enumerate(entries):
        path = os.path.join(workdir, "php%03d.php" % n)
        with open(path, "w") as f:
            f.write(code if program else wrap_snippet("php", code, n))
        p = run(["php", "-l", path])
        check(label + ": php -l accepts it", p.returncode == 0,
              p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace"))
        if program:
            params = extract_params(code, "$params = ", ";\n\n")
            dump = os.path.join(workdir, "dump%03d.php" % n)
            with open(dump, "w") as f:
                f.write("<?php\n$params = " + params + ";\n" + PHP_DUMP)
            p = run(["php", dump])
            ok = p.returncode == 0 and normalize(json.loads(p.stdout)) == normalize(canonical)
            check(label + ": PHP evaluates the parameters to the request", ok,
                  p.stderr.decode(errors="replace") + p.stdout.decode(errors="replace")[:2000])
    lits = all_literals(entries)
    check_evaluated("php", "php", eval_literals_script(workdir, lits, "php"), lits)


def check_ruby(workdir, entries):
    if not shutil.which("ruby"):
        skip("ruby: ruby -c", "ruby is not installed")
        return
    for n, (label, index, program, code, canonical, literals) in enumerate(entries):
        path = os.path.join(workdir, "rb%03d.rb" % n)
        with open(path, "w") as f:
            f.write(code)
        p = run(["ruby", "-c", path])
        check(label + ": ruby -c accepts it", p.returncode == 0,
              p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace"))
        if program:
            params = extract_params(code, "params = ", "\n}\n") + "\n}"
            dump = os.path.join(workdir, "dump%03d.rb" % n)
            with open(dump, "w") as f:
                f.write("params = " + params + "\n" + RUBY_DUMP)
            p = run(["ruby", dump])
            ok = p.returncode == 0 and normalize(json.loads(p.stdout)) == normalize(canonical)
            check(label + ": Ruby evaluates the parameters to the request", ok,
                  p.stderr.decode(errors="replace") + p.stdout.decode(errors="replace")[:2000])
    lits = all_literals(entries)
    check_evaluated("ruby", "ruby", eval_literals_script(workdir, lits, "ruby"), lits)


if __name__ == "__main__":
    sys.exit(main())
