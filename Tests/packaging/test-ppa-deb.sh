#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The .deb on a machine whose OBS comes from the OBS PPA: there `obs-studio` carries
# libobs.so.0 itself and conflicts with Debian's and Ubuntu's `libobs0`, so a package that
# depends on libobs0 makes apt remove the user's OBS (or refuse). A stand-in `obs-studio`
# built here the same way (libobs.so.0 inside, a copy of this machine's; Conflicts and
# Replaces libobs0; provides nothing; version 30.2.3, >= 29) is installed into a throwaway
# root, then `apt-get install ./comment-bar_*.deb` runs for real into that root: apt's own
# resolver, Debian's package lists, dpkg unpacking the files. The check: apt removed nothing
# and the stand-in is still installed, comment-bar is. This machine's own packages and its
# Debian OBS are never touched (other tests, and other people on the machine, use them).
#
# The throwaway root's dpkg database is this machine's, less OBS's packages (obs-studio,
# libobs0, libobs-dev, obs-plugins): apt sees the libraries the renderer needs as installed
# (their files are not copied; nothing in the root is run), and an OBS that is the PPA's.
# Then the bar in that PPA-like install: this machine's OBS binary with the stand-in's
# libobs.so.0 (LD_LIBRARY_PATH) and the root's module and data (OBS_PLUGINS_PATH and
# OBS_PLUGINS_DATA_PATH) draws the demo, the module running the root's renderer (found from
# the module: ROOT/usr/lib/<triplet>/obs-plugins -> ROOT/usr/libexec/comment-bar).
#   Tests/packaging/test-ppa-deb.sh DEB
set -uo pipefail
deb=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/obs.sh"
obs_test_workdir test-ppa-deb
source "$here/../checks.sh"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
root=$work/root
admin=$root/var/lib/dpkg
libobs=/usr/lib/$multiarch/libobs.so.0
standin_version=30.2.3-0obsproject1~bookworm1

# ---- the PPA's obs-studio, as a stand-in ----
standin=$work/standin
install -d "$standin/DEBIAN" "$standin/usr/lib/$multiarch" "$standin/usr/share/doc/obs-studio"
cp -L "$libobs" "$standin/usr/lib/$multiarch/libobs.so.0"
python3 - "$standin/DEBIAN/control" "$standin_version" "$arch" <<'PY'
import sys
# The control file as deb822 fields (the PPA's obs-studio declares these relations to libobs0).
fields = {"Package": "obs-studio", "Version": sys.argv[2], "Architecture": sys.argv[3],
          "Maintainer": "CommentBar tests <tests@example.invalid>",
          "Conflicts": "libobs0", "Replaces": "libobs0",
          "Description": "stand-in for the OBS PPA's obs-studio (libobs.so.0 inside)\n A test package."}
with open(sys.argv[1], "w") as out:
    out.writelines(f"{key}: {value}\n" for key, value in fields.items())
PY
dpkg-deb --root-owner-group --build "$standin" "$work/obs-studio-standin.deb" >/dev/null
standin_files=$(dpkg-deb -c "$work/obs-studio-standin.deb")
check "the stand-in ships libobs.so.0 itself, Conflicts: libobs0, provides nothing, version >= 29" \
	'grep -q "/usr/lib/$multiarch/libobs.so.0$" <<<"$standin_files" &&
	 [ "$(dpkg-deb -f "$work/obs-studio-standin.deb" Conflicts)" = libobs0 ] &&
	 [ -z "$(dpkg-deb -f "$work/obs-studio-standin.deb" Provides)" ] &&
	 dpkg --compare-versions "$(dpkg-deb -f "$work/obs-studio-standin.deb" Version)" ge 29'

# ---- the throwaway root: this machine's package database without OBS ----
install -d "$admin/info" "$admin/updates" "$admin/triggers" "$root/var/cache/apt/archives/partial" "$root/var/lib/apt"
touch "$admin/available"
python3 - /var/lib/dpkg/status "$admin" <<'PY'
import os, re, sys
status, admin = sys.argv[1], sys.argv[2]
obs = {"obs-studio", "libobs0", "libobs-dev", "obs-plugins", "comment-bar"}
kept = []
for paragraph in open(status, encoding="utf-8").read().strip("\n").split("\n\n"):
    name = re.search(r"^Package: (\S+)", paragraph, re.M).group(1)
    if name in obs:
        continue
    kept.append(paragraph)
    # An empty file list each: dpkg then knows these packages own no file in the root.
    arch = re.search(r"^Architecture: (\S+)", paragraph, re.M)
    same = re.search(r"^Multi-Arch: same", paragraph, re.M)
    listed = f"{name}:{arch.group(1)}" if same and arch else name
    open(os.path.join(admin, "info", listed + ".list"), "w").close()
with open(os.path.join(admin, "status"), "w", encoding="utf-8") as out:
    out.write("\n\n".join(kept) + "\n")
PY
dpkg --root="$root" --force-not-root -i "$work/obs-studio-standin.deb" >"$work/dpkg-standin.log" 2>&1
check "the stand-in obs-studio installs into the throwaway root" \
	'dpkg-query --admindir="$admin" -W -f="\${Status} \${Version}" obs-studio | grep -qx "install ok installed $standin_version"'
installed_before=$(dpkg-query --admindir="$admin" -W -f='${Package}\n' | LC_ALL=C sort)

# ---- apt-get install ./comment-bar_*.deb, for real, into that root ----
apt_root=(-o Dir::State::status="$admin/status" -o Dir::Cache="$root/var/cache/apt"
	-o Dir::State::extended_states="$root/var/lib/apt/extended_states"
	-o DPkg::Options::=--root="$root" -o DPkg::Options::=--admindir="$admin" -o DPkg::Options::=--force-not-root
	-o Dpkg::Use-Pty=0 -o DPkg::Run-Directory=/)
cp "$deb" "$work/"
DEBIAN_FRONTEND=noninteractive apt-get "${apt_root[@]}" install -y --no-install-recommends "$work/$(basename "$deb")" \
	>"$work/apt.log" 2>&1
apt_status=$?
check "apt-get install ./$(basename "$deb") succeeds beside the PPA-like obs-studio" '[ $apt_status -eq 0 ]'
[ $apt_status -eq 0 ] || grep -E "^E:|Depends:|Conflicts:|broken" "$work/apt.log" | head -10
removed=$(grep -oE "^Removing [^ ]+" "$work/apt.log" | tr '\n' ' ')
check "apt removed nothing${removed:+ (removed: $removed)}" \
	'[ -z "$removed" ] && ! grep -qE "^The following packages will be REMOVED" "$work/apt.log"'
check "the stand-in obs-studio is still installed, the same version" \
	'dpkg-query --admindir="$admin" -W -f="\${Status} \${Version}" obs-studio | grep -qx "install ok installed $standin_version"'
check "libobs0 was not installed" \
	'! dpkg-query --admindir="$admin" -W -f="\${Status}" libobs0 2>/dev/null | grep -qx "install ok installed"'
check "comment-bar is installed, its module and renderer unpacked in the root" \
	'dpkg-query --admindir="$admin" -W -f="\${Status}" comment-bar | grep -qx "install ok installed" &&
	 [ -f "$root/usr/lib/$multiarch/obs-plugins/comment-bar.so" ] && [ -x "$root/usr/libexec/comment-bar/commentbar" ]'
installed_after=$(dpkg-query --admindir="$admin" -W -f='${Package}\n' | LC_ALL=C sort)
check "every package installed before is installed after" \
	'[ -z "$(comm -23 <(echo "$installed_before") <(echo "$installed_after"))" ]'
# ---- the bar, with the PPA-like libobs ----
config=$work/config
port=$(obs_free_port)
obs_configure "$config" "$port"
obs_start "$config" "$work/obs.out" LD_LIBRARY_PATH="$root/usr/lib/$multiarch" \
	OBS_PLUGINS_PATH="$root/usr/lib/$multiarch/obs-plugins" OBS_PLUGINS_DATA_PATH="$root/usr/share/obs/obs-plugins"
shot=$(obs_screenshot "$port" "$work/ppa.png")
check "real OBS with the stand-in's libobs.so.0 and the root's comment-bar draws the demo ($shot)" \
	'grep -q "\"seconds\"" <<<"$shot" &&
	 grep -qF "loaded from $root/usr/lib/$multiarch/obs-plugins/comment-bar.so" "$(obs_newest_log "$config")" &&
	 grep -qF "renderer executable: $root/usr/libexec/comment-bar/commentbar" "$(obs_newest_log "$config")"'
check "that OBS runs the stand-in's libobs.so.0 (its memory map)" 'grep -qF "$root/usr/lib/$multiarch/libobs.so.0" "/proc/$obs_pid/maps"'
obs_stop
check "this machine's own Debian OBS is untouched (obs-studio and libobs0 still installed)" \
	'dpkg-query -W -f="\${Version}" obs-studio libobs0 >/dev/null 2>&1 && [ -e "$libobs" ]'
checks_verdict
