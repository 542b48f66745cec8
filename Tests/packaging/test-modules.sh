#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The OBS modules stay loadable by every OBS from 29 to 33 (issue 50):
#   - the shim and the dock's loader link no Qt library, neither in their own NEEDED entries
#     (readelf -d) nor anywhere in what the dynamic linker would load with them (ldd): OBS 31 and
#     earlier dlopen every Linux module in a throw-away child and refuse one whose link map holds
#     Qt 5 (obs-studio libobs/util/platform-nix.c, module_has_qt5_check; gone in 32);
#   - neither has an ELF constructor of its own: that child runs them. What the toolchain puts in
#     every shared object (crtbeginS.o's frame_dummy in .init_array) is measured on an empty shared
#     object built here with the same compiler, not assumed; an entry that is not one of those fails
#     (by name where the symbol table says, else by count), and so do .preinit_array and a .ctors
#     section with more than its two sentinels;
#   - no module (the shim, the loader, the Qt libraries) refers to obs_frontend_add_dock, which OBS
#     32 removed (a module naming it fails to load, "undefined symbol"), nor to
#     obs_frontend_add_dock_by_id or obs_frontend_remove_dock, which OBS 29 lacks: the dock looks
#     them up at run time (nm -D --undefined-only).
# Each check first runs on modules built here to break it (a constructor, a Qt 5 link, a Qt 5 link
# one library away, a call of obs_frontend_add_dock), so a check that cannot fail fails.
#   Tests/packaging/test-modules.sh SHIM DOCK_LOADER [DOCK_LIBRARY...]
set -uo pipefail
shim=$1 loader=$2
shift 2
libraries=("$@")
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../checks.sh"
work=$(mktemp -d /tmp/commentbar-modules.XXXXXX)
trap 'rm -rf "$work"' EXIT
CC=${PLUGIN_CC:-cc}

# ---- the checks ----
qt_needed() { readelf -d "$1" 2>/dev/null | sed -n 's/.*Shared library: \[\(libQt[^]]*\)\].*/\1/p'; }
# Every library the dynamic linker would map with FILE (ldd traces, it runs nothing of FILE's).
qt_loaded() { ldd "$1" 2>/dev/null | awk '$1 ~ /^libQt/ { print $1 }'; }
# frontend functions a module must find at run time, never link
DOCK_FUNCTIONS=(obs_frontend_add_dock obs_frontend_add_dock_by_id obs_frontend_remove_dock)
frontend_undefined() {
	nm -D --undefined-only "$1" 2>/dev/null | awk '{ sub(/@.*/, "", $2); print $2 }' |
		grep -xF "${DOCK_FUNCTIONS[@]/#/-e}"
}
# The functions FILE's .init_array (and .ctors, .preinit_array) run, one a line: a symbol's name, or
# "0xADDRESS" where FILE has no symbol table; "preinit_array" and "ctors:N" for those sections.
constructors() {
	python3 - "$1" <<'PY'
import re, subprocess, sys
path = sys.argv[1]
def run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout
sections = {}
for line in run("readelf", "-W", "-S", path).splitlines():
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
    if m:
        sections[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16), int(m.group(4), 16) or 8)
names = {}
for line in run("nm", "--defined-only", path).splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] in "tTwW":
        names.setdefault(int(parts[0], 16), parts[2])
targets = {}  # relocated slot -> what it points at
for line in run("readelf", "-W", "-r", path).splitlines():
    parts = line.split()
    if len(parts) >= 4 and re.fullmatch(r"[0-9a-f]{8,}", parts[0]):
        if parts[2].endswith("_RELATIVE"):
            targets[int(parts[0], 16)] = names.get(int(parts[3], 16), "0x" + parts[3].lstrip("0"))
        elif len(parts) >= 5:
            targets[int(parts[0], 16)] = parts[4].split("@")[0]
if ".init_array" in sections:
    address, size, entry = sections[".init_array"]
    for slot in range(address, address + size, entry):
        print(targets.get(slot, f"slot 0x{slot:x}"))
if ".preinit_array" in sections:
    print("preinit_array")
if ".ctors" in sections and sections[".ctors"][1] > 2 * sections[".ctors"][2]:
    print(f"ctors:{sections['.ctors'][1] // sections['.ctors'][2] - 2}")
PY
}
# What constructors FILE has beyond the toolchain's (BASELINE: the empty shared object's list).
extra_constructors() {
	local found
	found=$(constructors "$1") || { echo "(readelf failed on $1)"; return; }
	if grep -q '^0x\|^slot' <<<"$found"; then
		# No symbol table (stripped): the count must be the toolchain's.
		[ "$(grep -c . <<<"$found")" -le "$(grep -c . <<<"$baseline")" ] || echo "$(grep -c . <<<"$found") entries"
	else
		comm -23 <(sort <<<"$found") <(sort <<<"$baseline") | sed '/^$/d'
	fi
}

# ---- the toolchain's own, and modules that must fail ----
printf 'int commentbar_empty;\n' >"$work/empty.c"
$CC -std=c11 -O2 -fPIC -shared -o "$work/empty.so" "$work/empty.c"
baseline=$(constructors "$work/empty.so")
check "the toolchain's .init_array in an empty shared object: $(echo $baseline)" '[ -n "$baseline" ]'
# (It writes a global: GCC at -O2 drops a constructor that does nothing, .init_array and all.)
printf 'int x;\n__attribute__((constructor)) static void side_effect(void) { x = 1; }\n' >"$work/ctor.c"
$CC -std=c11 -O2 -fPIC -shared -o "$work/ctor.so" "$work/ctor.c"
cp "$work/ctor.so" "$work/ctor-stripped.so" && strip "$work/ctor-stripped.so"
qt5_libs=$(pkg-config --libs Qt5Core 2>/dev/null)
$CC -shared -o "$work/qt.so" "$work/empty.c" -Wl,--no-as-needed $qt5_libs
$CC -shared -o "$work/libindirect.so" "$work/empty.c" -Wl,--no-as-needed $qt5_libs
$CC -shared -o "$work/indirect.so" "$work/empty.c" -Wl,--no-as-needed -L"$work" -lindirect -Wl,-rpath,"$work"
printf 'void *obs_frontend_add_dock(void *dock);\nvoid *add(void *d) { return obs_frontend_add_dock(d); }\n' >"$work/dock.c"
$CC -std=c11 -O2 -fPIC -shared -o "$work/dock.so" "$work/dock.c"
check "a constructor is found, by name ($(extra_constructors "$work/ctor.so")) and in a stripped copy by count" \
	'[ "$(extra_constructors "$work/ctor.so")" = side_effect ] && [ -n "$(extra_constructors "$work/ctor-stripped.so")" ]'
check "a module linking Qt 5 is found by readelf -d ($(qt_needed "$work/qt.so"))" '[ -n "$(qt_needed "$work/qt.so")" ]'
check "a module linking Qt 5 one library away is found by ldd only ($(qt_loaded "$work/indirect.so"))" \
	'[ -z "$(qt_needed "$work/indirect.so")" ] && [ -n "$(qt_loaded "$work/indirect.so")" ]'
check "a module calling obs_frontend_add_dock is found by nm -D" '[ "$(frontend_undefined "$work/dock.so")" = obs_frontend_add_dock ]'

# ---- ours ----
for module in "$shim" "$loader"; do
	name=$(basename "$module")
	check "$name exists" '[ -f "$module" ]'
	needed=$(qt_needed "$module") loaded=$(qt_loaded "$module")
	check "$name needs no Qt library (readelf -d${needed:+: $(echo $needed)})" '[ -f "$module" ] && [ -z "$needed" ]'
	check "$name loads no Qt library with it (ldd${loaded:+: $(echo $loaded)})" \
		'[ -f "$module" ] && ldd "$module" >/dev/null 2>&1 && [ -z "$loaded" ]'
	extra=$(extra_constructors "$module")
	check "$name has no ELF constructor beyond the toolchain's (.init_array: $(constructors "$module" | xargs))" \
		'[ -f "$module" ] && [ -z "$extra" ]'
done
for module in "$shim" "$loader" ${libraries[@]+"${libraries[@]}"}; do
	linked=$(frontend_undefined "$module")
	check "$(basename "$module") links none of ${DOCK_FUNCTIONS[*]}${linked:+ (it does: $(echo $linked))}" \
		'[ -f "$module" ] && [ -z "$linked" ]'
done
checks_verdict
