#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Which modules libobs finds and loads under ROOT from one search path, as OBS 33's loader gives it.

    python3 Tests/packaging/libobs_find.py ROOT BINARY_PATH DATA_PATH

OBS 33's frontend hands libobs one (binary, data) pair per plugin location (obs-studio PR #13594,
frontend/plugin-manager/PluginModuleLoader_Linux.cpp, PluginManager::loadPlugins), which libobs
searches with find_modules_in_path: NAME.so in a folder, or, when the binary path holds %module%,
each folder NAME with NAME/NAME.so (libobs/obs-module.c; the same function in this machine's libobs
29). This runs that search through this machine's libobs (obs_add_module_path, obs_find_modules2),
opens and initializes each module found under ROOT (obs_open_module, obs_init_module; OBS's own
modules on the default paths are passed over), and prints one JSON object: the modules (name, binary,
data folder), the Comment Bar source's display name (its locale, read from the data folder found)
and libobs's log lines. Run in a process of its own: modules stay loaded until it ends.
"""
import ctypes
import ctypes.util
import json
import os
import sys


class ModuleInfo2(ctypes.Structure):
    _fields_ = [("bin_path", ctypes.c_char_p), ("data_path", ctypes.c_char_p), ("name", ctypes.c_char_p)]


FOUND = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ModuleInfo2))


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    root, binary, data = os.path.realpath(sys.argv[1]), sys.argv[2], sys.argv[3]
    lib = ctypes.CDLL(ctypes.util.find_library("obs") or "libobs.so.0")
    lib.obs_startup.restype = ctypes.c_bool
    lib.obs_startup.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
    lib.obs_add_module_path.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    lib.obs_find_modules2.argtypes = [FOUND, ctypes.c_void_p]
    lib.obs_open_module.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_char_p]
    lib.obs_init_module.restype = ctypes.c_bool
    lib.obs_init_module.argtypes = [ctypes.c_void_p]
    lib.obs_source_get_display_name.restype = ctypes.c_char_p
    lib.obs_source_get_display_name.argtypes = [ctypes.c_char_p]
    if not lib.obs_startup(b"en-US", None, None):
        print(json.dumps({"error": "obs_startup failed"}))
        return 1
    lib.obs_add_module_path(binary.encode(), data.encode())
    modules = []

    def found(_param, info):
        path = info.contents.bin_path.decode()
        if not os.path.realpath(path).startswith(root + os.sep):
            return
        module = ctypes.c_void_p()
        code = lib.obs_open_module(ctypes.byref(module), info.contents.bin_path, info.contents.data_path)
        loaded = code == 0 and lib.obs_init_module(module)
        modules.append({"name": info.contents.name.decode(), "binary": path,
                        "data": info.contents.data_path.decode(), "loaded": bool(loaded)})

    callback = FOUND(found)
    lib.obs_find_modules2(callback, None)
    name = lib.obs_source_get_display_name(b"comment_bar_source")
    sys.stdout.flush()
    # libobs logs to stdout; the JSON comes last, on a line of its own.
    print("\n" + json.dumps({"modules": modules, "source_name": name.decode() if name else None}), flush=True)
    os._exit(0)  # no obs_shutdown: the modules' threads end with the process


if __name__ == "__main__":
    sys.exit(main())
