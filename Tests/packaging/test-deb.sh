#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The .deb as a user gets it: lintian, then on this machine (root; it changes /usr) install
# the older package, upgrade to this one, start the real OBS headless with no plugin path
# overrides, check that it loads the module from the system folder and names the version,
# that a Comment Bar renders the demo, that a user-folder copy at the same time leaves one
# in use and the log says which, and that dpkg -r leaves no file behind.
#   Tests/packaging/test-deb.sh DEB OLDER_DEB DIST_TARBALL RESULTS_JSON
set -uo pipefail
deb=$(realpath "$1") older=$(realpath "$2") dist=$(realpath "$3") results=$4
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/obs.sh"
obs_test_workdir test-deb
source "$(dirname "$0")/../checks.sh"
field() { dpkg-deb -f "$1" "$2"; }
version=$(field "$deb" Version)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
# OBS 29 to 32 load the legacy layout's copy; OBS 33 the one in its own layout first (docs/packaging.md).
system_so=/usr/lib/$multiarch/obs-plugins/comment-bar.so
new_system_so=/usr/lib/$multiarch/obs-modules/plugins/comment-bar.so
libexec_renderer=/usr/libexec/comment-bar/commentbar
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

# ---- the package itself ----
lintian --fail-on error --tag-display-limit 0 "$deb" >"$work/lintian.txt" 2>&1
lintian_status=$?
check "lintian reports no errors" '[ $lintian_status -eq 0 ]'
[ $lintian_status -eq 0 ] || grep '^E:' "$work/lintian.txt"
mkdir -p "$work/unpacked"
dpkg-deb -x "$deb" "$work/unpacked"
for bin in "$work/unpacked$system_so" "$work/unpacked$new_system_so" "$work/unpacked$libexec_renderer"; do
	short=${bin#"$work/unpacked"}
	check "$short is stripped (no .symtab, no .debug_info)" \
		'! readelf -S "$bin" | grep -qE "\.symtab|\.debug_info"'
	check "$short has no RPATH or RUNPATH" '! readelf -d "$bin" | grep -qE "RPATH|RUNPATH"'
done
check "the renderer needs no Swift shared library (libswift*, libFoundation*, libdispatch)" \
	'! readelf -d "$work/unpacked$libexec_renderer" | grep -qE "Shared library: \[(libswift|libFoundation|libdispatch)"'
depends=$(field "$deb" Depends)
# libobs from obs-studio (>= 29) only: the OBS PPA's obs-studio conflicts with libobs0 (test-ppa-deb).
check "Depends: obs-studio (>= 29) and the renderer's libraries (libpango-1.0-0, libcairo2, libc6), never libobs0 ($depends)" \
	'grep -qE "(^|, )obs-studio \(>= 29\)(,|$)" <<<"$depends" &&
	 for p in libpango-1.0-0 libcairo2 libc6; do grep -qE "(^|, )$p( |,|$)" <<<"$depends" || exit 1; done &&
	 ! grep -qE "(^|, )libobs0( |,|$)" <<<"$depends"'
check "the package is version $version, the VERSION file's" '[ "$version" = "$(cat "$here/../../VERSION")" ]'

# ---- install the older package, upgrade over it ----
if dpkg-query -W -f='${Status}' comment-bar 2>/dev/null | grep -q 'ok installed'; then
	echo "(comment-bar was installed on this machine: removing it first)"
	$SUDO dpkg -r comment-bar >/dev/null
fi
# Every path under the folders a package may touch, before: compared after dpkg -r.
snapshot() { find /usr /etc /opt /var/lib/dpkg/alternatives -xdev 2>/dev/null | LC_ALL=C sort; }
snapshot >"$work/before.txt"
$SUDO dpkg -i "$older" >"$work/dpkg-older.log" 2>&1
check "dpkg -i of the older package ($(field "$older" Version)) works" \
	'[ "$(dpkg-query -W -f="\${Version}" comment-bar)" = "$(field "$older" Version)" ]'
t0=$(python3 -c 'import time; print(time.time())')
$SUDO dpkg -i "$deb" >"$work/dpkg-upgrade.log" 2>&1
upgrade_status=$?
t_installed=$(python3 -c 'import time; print(time.time())')
check "dpkg -i upgrades it to $version" \
	'[ $upgrade_status -eq 0 ] && [ "$(dpkg-query -W -f="\${Version} \${Status}" comment-bar)" = "$version install ok installed" ]'
check "dpkg -L lists the module, the renderer and the locale files, all present" \
	'dpkg -L comment-bar >"$work/files.txt" && grep -qx "$system_so" "$work/files.txt" && grep -qx "$libexec_renderer" "$work/files.txt" &&
	 grep -q "/usr/share/obs/obs-plugins/comment-bar/locale/en-US.ini" "$work/files.txt" &&
	 while read -r f; do [ -e "$f" ] || exit 1; done <"$work/files.txt"'
# The user guide's `commentbar overlay …` from a terminal: the command is on $PATH, a link to the
# renderer, which finds its overlay helper beside the real file (on this test's display).
check "/usr/bin/commentbar is a link to $libexec_renderer, listed by dpkg -L with its manual page" \
	'[ -L /usr/bin/commentbar ] && [ "$(readlink -f /usr/bin/commentbar)" = "$libexec_renderer" ] &&
	 grep -qx /usr/bin/commentbar "$work/files.txt" && grep -qx /usr/share/man/man1/commentbar.1.gz "$work/files.txt"'
shown=$(env PATH=/usr/bin:/bin commentbar --version 2>&1)
check "commentbar --version from \$PATH prints $version (got: $shown)" '[ "$shown" = "$version" ]'
env PATH=/usr/bin:/bin commentbar overlay --service demo --stream demo 2>"$work/overlay.log" >/dev/null &
overlay_pid=$!
for _ in $(seq 150); do grep -q "overlay on: commentbar-overlay-x11\|overlay: " "$work/overlay.log" && break; sleep 0.1; done
kill -INT $overlay_pid 2>/dev/null; wait $overlay_pid 2>/dev/null
check "commentbar overlay from \$PATH starts the overlay helper beside the renderer ($(grep -m1 "overlay" "$work/overlay.log"))" \
	'grep -q "overlay on: commentbar-overlay-x11" "$work/overlay.log"'

# ---- real OBS, system install only ----
config=$work/config
port=$(obs_free_port)
obs_configure "$config" "$port"
obs_start "$config" "$work/obs.out"
shot=$(obs_screenshot "$port" "$work/system.png" "$t0")
check "a Comment Bar source renders the demo in OBS ($shot)" 'grep -q "\"seconds\"" <<<"$shot"'
log=$(obs_newest_log "$config")
check "OBS loads comment-bar from the system plugin folder's legacy layout and the log names $version and the layout" \
	'grep -qF "[comment-bar] comment-bar $version loaded from $system_so (system plugin folder, legacy layout)" "$log"'
check "the shim runs the renderer from /usr/libexec/comment-bar" \
	'grep -qF "[comment-bar] renderer executable: $libexec_renderer" "$log" && grep -q "renderer status: live" "$log"'
obs_stop
first_frame=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1]).get("seconds", ""))' "$shot" 2>/dev/null)

# ---- a user-folder copy (the tarball's) at the same time ----
mkdir -p "$work/dist"
tar -xzf "$dist" -C "$work/dist"
XDG_CONFIG_HOME=$config XDG_DATA_HOME=$work/data "$work"/dist/*/install.sh >/dev/null
user_so=$config/obs-studio/plugins/comment-bar/bin/64bit/comment-bar.so
obs_start "$config" "$work/obs.out"
shot=$(obs_screenshot "$port" "$work/both.png")
check "with a user-folder copy too, the bar still renders ($shot)" 'grep -q "\"seconds\"" <<<"$shot"'
log=$(obs_newest_log "$config")
# The bar can be on screen before OBS has written the second copy's line to its log.
for _ in $(seq 100); do grep -q "comment-bar $version at .* not used: the copy at" "$log" && break; sleep 0.1; done
loaded=$(grep -c "\[comment-bar\] comment-bar $version loaded from" "$log")
check "with both copies, exactly one registers the source (loaded lines: $loaded)" '[ "$loaded" = 1 ]'
# OBS 29 opens its system folder first; whichever comes first is used, and the other says so.
check "the log says which copy is used and which is not" \
	'system="$system_so (system plugin folder, legacy layout)" user="$user_so (user plugin folder, legacy layout)"
	 { grep -qF "comment-bar $version loaded from $system" "$log" &&
	   grep -qF "comment-bar $version at $user not used: the copy at $system is already loaded" "$log"; } ||
	 { grep -qF "comment-bar $version loaded from $user" "$log" &&
	   grep -qF "comment-bar $version at $system not used: the copy at $user is already loaded" "$log"; }'
check "no duplicate-source error in the log (the second copy registers nothing)" \
	'! grep -q "already exists!.*Duplicate library" "$log"'
obs_stop
XDG_CONFIG_HOME=$config XDG_DATA_HOME=$work/data "$work"/dist/*/uninstall.sh >/dev/null

# ---- remove ----
$SUDO dpkg -r comment-bar >"$work/dpkg-remove.log" 2>&1
check "dpkg -r removes it" '! dpkg-query -W -f="\${Status}" comment-bar 2>/dev/null | grep -q "ok installed"'
check "no file dpkg -L listed is left" 'while read -r f; do [ -d "$f" ] || [ ! -e "$f" ] || exit 1; done <"$work/files.txt"'
snapshot >"$work/after.txt"
left=$(comm -13 "$work/before.txt" "$work/after.txt" | head -5)
gone=$(comm -23 "$work/before.txt" "$work/after.txt" | head -5)
check "the file system is as before the install (left: ${left:-none}; gone: ${gone:-none})" '[ -z "$left$gone" ]'

python3 -c 'import json, os, sys
deb, first, installed, t0 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
size_kib = int(sys.argv[5])
json.dump({"package": os.path.basename(deb), "package_bytes": os.path.getsize(deb), "installed_kib": size_kib,
           "dpkg_install_seconds": round(installed - t0, 2),
           "dpkg_to_first_frame_seconds": float(first) if first else None}, open(sys.argv[6], "w"), indent=1)' \
	"$deb" "$first_frame" "$t_installed" "$t0" "$(field "$deb" Installed-Size)" "$results"
echo "(package $(du -k "$deb" | cut -f1) KiB, installed $(field "$deb" Installed-Size) KiB, dpkg -i to first frame ${first_frame:-n/a} s)"
checks_verdict
