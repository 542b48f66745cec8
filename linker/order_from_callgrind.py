#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the link order file (linker/commentbar.order): the mangled names of every function of
the renderer binary that a callgrind run of `commentbar serve` executed. lld places them together
(--symbol-ordering-file; every function has a section of its own, see the Makefile), so the pages
`serve` touches are few. `make link-order` runs it.

    order_from_callgrind.py BINARY_PATH STEADY_OUT [START_UP_OUT ...] > linker/commentbar.order

The run is dumped in parts (callgrind_control --dump): the functions of the first file (the steady
state, a chat at 10 comments/s) come first, sorted, then those only the other parts ran (start-up),
sorted: what a running bar keeps executing lies on the fewest pages.
"""
import re
import sys


def hot_functions(callgrind_out, binary):
    names, objects, hot = {}, {}, set()
    current_object = called_object = None
    with open(callgrind_out, errors="replace") as lines:
        for line in lines:
            match = re.match(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if not match:
                continue
            kind, ident, name = match.groups()
            table = objects if kind.endswith("ob") else names
            if name:
                table[ident] = name
            if kind == "ob":
                current_object = objects[ident]
            elif kind == "cob":
                called_object = objects[ident]
            else:
                owner = current_object if kind == "fn" else (called_object or current_object)
                if owner == binary:
                    hot.add(re.sub(r"'\d+$", "", names[ident]))
                if kind == "cfn":
                    called_object = None
    return sorted(hot)


def ordered(binary, parts):
    names, seen = [], set()
    for part in parts:
        new = [name for name in hot_functions(part, binary) if name not in seen]
        seen.update(new)
        names += new
    return names


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    print("\n".join(ordered(sys.argv[1], sys.argv[2:])))
