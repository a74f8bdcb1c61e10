#!/usr/bin/env python3
"""Prints which files of the firmware core call which, bottom layer first, and exits 1 when the
calls go round in a circle.

Usage: layers.py [CC] [CORE_DIR] [--config NAME=FLAGS]... [--swift-package PATH]   (defaults: gcc, core)

Each core/*.c is compiled on its own (-O0, so nothing is inlined away or dropped) once per
configuration the project builds, and `nm` lists what the object defines and what it leaves undefined.
The configurations: the defaults (the Cortex-M0+ budget build, the template port, the gcc tests), every
option on, each --config the Makefile passes (the clang tests, the fuzzers, the STM32F4 port's images)
and, with --swift-package, the simulator's (the ThrumFirmwareCore target's .define settings). Each
configuration is checked on its own, and so is the union of their calls.
File A uses file B when A leaves undefined a symbol that B defines: a call, or the address of a
function or of data. Calls through the board's function pointers (thr_hal.h) are not symbols and
so never show: the HAL is the seam, not a layer. Static inline helpers in headers belong to the
file that uses them. The layer of a file is one above the highest layer it uses (0: uses none)."""
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# Every option of core/include/thr_config.h on.
EVERYTHING = ["-DTHR_AUDIO_SAMPLES=1", "-DTHR_FLASH_SECTOR_MAP=1", "-DTHR_FLASH_PROGRAM_MAX=32u",
              "-DTHR_ACTUATOR_CALIBRATION=1", "-DTHR_RX_HOLD_FRAMES=2u", "-DTHR_CHANNEL_PAN=1", "-DTHR_TRACE_READ=1"]


def swift_package_defines(path):
    """The -D flags of the ThrumFirmwareCore target in Package.swift."""
    text = Path(path).read_text()
    start = text.index('name: "ThrumFirmwareCore"')
    end = text.index("]", text.index("cSettings", start))
    defines = ["-D%s=%s" % m for m in re.findall(r'\.define\("(\w+)", to: "([^"]*)"\)', text[start:end])]
    if not defines:
        sys.exit("layers.py: no .define in the ThrumFirmwareCore target of %s" % path)
    return defines


def symbols(cc, source, flags, folder):
    obj = Path(folder) / (source.stem + ".o")
    subprocess.run([cc, "-std=c99", "-O0", "-c", "-I", str(source.parent / "include"), "-I", str(source.parent)]
                   + flags + [str(source), "-o", str(obj)], check=True)
    out = subprocess.run(["nm", "-P", str(obj)], check=True, capture_output=True, text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind == "U":
            used.add(name)
        elif kind.isupper():   # global definitions only: static ones cannot be called from elsewhere
            defined.add(name)
    return defined, used


def graph(cc, core, flags):
    sources = sorted(core.glob("*.c"))
    defines, uses = {}, {}
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        found = pool.map(lambda source: symbols(cc, source, flags, folder), sources)
        for source, (d, u) in zip(sources, found):
            defines.setdefault(source.name, set()).update(d)
            uses.setdefault(source.name, set()).update(u)
    owner = {}
    for name, symbols_of in defines.items():
        for symbol in symbols_of:
            owner[symbol] = name
    edges = {name: {} for name in defines}   # file -> {used file: symbols}
    for name, used in uses.items():
        for symbol in used:
            other = owner.get(symbol)
            if other and other != name:
                edges[name].setdefault(other, set()).add(symbol)
    return edges


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def one_circle(edges, component):
    """A concrete path that comes back to its start, inside one component."""
    members = set(component)
    start = component[0]
    path, seen = [start], {start}
    while True:
        following = sorted(o for o in edges[path[-1]] if o in members)
        back = [o for o in following if o in path]
        if back:
            return path[path.index(back[0]):] + [back[0]]
        step = next(o for o in following if o not in seen)
        path.append(step)
        seen.add(step)


def report_cycles(edges, found, label):
    for component in found:
        print("CYCLE (%s) among %d files: %s" % (label, len(component), ", ".join(component)))
        print("  for example: %s" % " -> ".join(one_circle(edges, component)))


def main():
    args, configs, i = [], [("defaults", []), ("everything on", EVERYTHING)], 1
    while i < len(sys.argv):
        if sys.argv[i] == "--config":
            name, _, flags = sys.argv[i + 1].partition("=")
            configs.append((name, flags.split()))
            i += 2
        elif sys.argv[i] == "--swift-package":
            configs.append(("simulator (%s)" % sys.argv[i + 1], swift_package_defines(sys.argv[i + 1])))
            i += 2
        else:
            args.append(sys.argv[i])
            i += 1
    cc = args[0] if args else os.environ.get("CC", "gcc")
    core = Path(args[1] if len(args) > 1 else "core")
    edges, failed = {}, False
    for name, flags in configs:
        one = graph(cc, core, flags)
        found_one = cycles(one)
        print("%-40s %s" % (name + ":", "CYCLE" if found_one else "no cycle"), " ".join(flags))
        report_cycles(one, found_one, name)
        failed = failed or bool(found_one)
        for a, used in one.items():
            for b, syms in used.items():
                edges.setdefault(a, {}).setdefault(b, set()).update(syms)
            edges.setdefault(a, {})
    found = cycles(edges)
    in_cycle = {name for component in found for name in component}

    layer = {}

    def level(name):
        if name in in_cycle:
            return None
        if name not in layer:
            layer[name] = 0
            below = [level(o) for o in edges[name]]
            layer[name] = None if None in below else 1 + max(below, default=-1)
        return layer[name]

    for name in edges:
        level(name)
    order = sorted(edges, key=lambda n: (layer.get(n) is None, layer.get(n) or 0, n))
    print("Calls between the files of %s/ in any of the %d configurations (A -> B: A calls or refers to B), "
          "bottom layer first:" % (core, len(configs)))
    for name in order:
        mark = "cycle" if layer.get(name) is None else "%5d" % layer[name]
        print("  %s  %s" % (mark, name))
        for other in sorted(edges[name], key=lambda o: (layer.get(o) is None, layer.get(o) or 0, o)):
            print("           -> %-22s %s" % (other, ", ".join(sorted(edges[name][other]))))
    if found or failed:
        report_cycles(edges, found, "all configurations together")
        sys.exit(1)
    print("no cycle: %d files in %d layers" % (len(edges), 1 + max(layer.values(), default=-1)))


if __name__ == "__main__":
    main()
