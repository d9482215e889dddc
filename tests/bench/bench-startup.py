#!/usr/bin/python3
# bench-startup.py: the app's start, from exec to its window's first painted frame
#
#   GSETTINGS_SCHEMA_DIR=_build/data tests/fixtures/with-keyring.sh tests/fixtures/with-xvfb.sh \
#       /usr/bin/python3 tests/bench/bench-startup.py _build/src/widgets/dynotable [RUNS] [--cold]
#
# Each run starts the app with DYNOTABLE_BENCH_FIRST_FRAME=1: the app prints the monotonic
# clock when its window's first frame is painted, then quits.  Two kinds of start, RUNS each
# (default 10):
#   - first: a new user (empty data and config directories): the Playground workspace is
#     created, the samples are offered;
#   - again: the same user starting the app again (the workspace exists).
# The files the app reads come from the page cache after the first run: those are warm starts
# of the program.  With --cold (root only) the kernel's page cache is dropped before each of
# RUNS more starts of a new user ("cold"): the libraries, icons and fonts are read from disk.
# Prints `name value unit` lines (p50, min, max in ms) and the process's user+system CPU.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import resource
import subprocess
import sys
import tempfile
import time


def one_start(binary, home):
    env = dict(os.environ,
               DYNOTABLE_BENCH_FIRST_FRAME="1",
               HOME=home,
               XDG_DATA_HOME=os.path.join(home, "data"),
               XDG_CONFIG_HOME=os.path.join(home, "config"),
               XDG_CACHE_HOME=os.path.join(home, "cache"),
               GSETTINGS_BACKEND="memory")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic_ns() // 1000
    proc = subprocess.run([binary], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, timeout=60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    for line in proc.stdout.splitlines():
        if line.startswith("first_frame_monotonic_us "):
            frame = int(line.split()[1])
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            return (frame - t0) / 1000.0, cpu * 1000.0
    raise RuntimeError("the app painted no frame (exit %d)" % proc.returncode)


def report(name, samples):
    samples = sorted(samples)
    print("startup.%s.p50 %.1f ms" % (name, samples[len(samples) // 2]))
    print("startup.%s.min %.1f ms" % (name, samples[0]))
    print("startup.%s.max %.1f ms" % (name, samples[-1]))


def drop_page_cache():
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def main():
    args = [a for a in sys.argv[1:] if a != "--cold"]
    cold = "--cold" in sys.argv[1:]
    binary = args[0] if args else os.environ.get("DYNOTABLE_APP")
    runs = int(args[1]) if len(args) > 1 else 10
    # one start to fill the page cache
    with tempfile.TemporaryDirectory(prefix="dyno-start-") as home:
        one_start(binary, home)
    first, again, cpu_first, cpu_again = [], [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="dyno-start-") as home:
            wall, cpu = one_start(binary, home)
            first.append(wall)
            cpu_first.append(cpu)
            wall, cpu = one_start(binary, home)
            again.append(wall)
            cpu_again.append(cpu)
    report("first", first)
    report("again", again)
    print("startup.first.cpu_p50 %.1f ms" % sorted(cpu_first)[len(cpu_first) // 2])
    print("startup.again.cpu_p50 %.1f ms" % sorted(cpu_again)[len(cpu_again) // 2])
    if cold:
        samples = []
        for _ in range(runs):
            with tempfile.TemporaryDirectory(prefix="dyno-start-") as home:
                drop_page_cache()
                samples.append(one_start(binary, home)[0])
        report("cold", samples)


if __name__ == "__main__":
    main()
