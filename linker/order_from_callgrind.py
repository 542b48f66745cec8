#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the link order file (linker/commentbar.order): the mangled names of every function of
the renderer binary that a callgrind run of `commentbar serve` executed, sorted. lld places them
together (--symbol-ordering-file), so the pages `serve` touches are few. `make link-order` runs it.

    order_from_callgrind.py CALLGRIND_OUT BINARY_PATH > linker/commentbar.order
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


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    print("\n".join(hot_functions(sys.argv[1], sys.argv[2])))
