#!/usr/bin/env python3
"""Prints which files of the firmware core call which, bottom layer first, and exits 1 when the
calls go round in a circle.

Usage: layers.py [CC] [CORE_DIR]      (defaults: gcc, core)

Each core/*.c is compiled on its own (-O0, so nothing is inlined away or dropped) twice, with the
default options and with every option on (THR_AUDIO_SAMPLES, THR_FLASH_SECTOR_MAP, THR_FLASH_PROGRAM_MAX,
THR_ACTUATOR_CALIBRATION: the Makefile's BIG_BOARD), and `nm` lists what the object defines and what it leaves undefined.
File A uses file B when A leaves undefined a symbol that B defines: a call, or the address of a
function or of data. Calls through the board's function pointers (thr_hal.h) are not symbols and
so never show: the HAL is the seam, not a layer. Static inline helpers in headers belong to the
file that uses them. The layer of a file is one above the highest layer it uses (0: uses none)."""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CONFIGS = ([], ["-DTHR_AUDIO_SAMPLES=1", "-DTHR_FLASH_SECTOR_MAP=1", "-DTHR_FLASH_PROGRAM_MAX=32u",
               "-DTHR_ACTUATOR_CALIBRATION=1"])


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


def graph(cc, core):
    sources = sorted(core.glob("*.c"))
    defines, uses = {}, {}
    with tempfile.TemporaryDirectory() as folder:
        for flags in CONFIGS:
            for source in sources:
                d, u = symbols(cc, source, flags, folder)
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


def main():
    cc = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CC", "gcc")
    core = Path(sys.argv[2] if len(sys.argv) > 2 else "core")
    edges = graph(cc, core)
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
    print("Calls between the files of %s/ (A -> B: A calls or refers to B), bottom layer first:" % core)
    for name in order:
        mark = "cycle" if layer.get(name) is None else "%5d" % layer[name]
        print("  %s  %s" % (mark, name))
        for other in sorted(edges[name], key=lambda o: (layer.get(o) is None, layer.get(o) or 0, o)):
            print("           -> %-22s %s" % (other, ", ".join(sorted(edges[name][other]))))
    if found:
        for component in found:
            print("CYCLE among %d files: %s" % (len(component), ", ".join(component)))
            print("  for example: %s" % " -> ".join(one_circle(edges, component)))
        sys.exit(1)
    print("no cycle: %d files in %d layers" % (len(edges), 1 + max(layer.values(), default=-1)))


if __name__ == "__main__":
    main()
