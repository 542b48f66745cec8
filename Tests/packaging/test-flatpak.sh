#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Flatpak extension, as far as it can be checked without Flathub's runtime (which these
# machines cannot fetch): the metainfo passes `appstreamcli validate` and names this VERSION;
# `flatpak-builder --show-manifest` parses the manifest, which has Flathub's OBS plugin
# shape on the freedesktop 25.08 SDK, a pinned Swift toolchain with its sha256 and one git source
# per package SwiftPM resolves; and the extension's layout works: installed into a temporary
# /app/plugins/CommentBar (lib/obs-plugins, share/obs/obs-plugins with each module's manifest.json,
# libexec/comment-bar), its entries linked into /app/plugins/lib/obs-plugins and
# /app/plugins/share/obs/obs-plugins as Flatpak does for OBS's extension point (merge-dirs), the
# real OBS with only OBS_PLUGINS_PATH/OBS_PLUGINS_DATA_PATH pointing at those merged folders loads
# the module and the dock through the links, the module finds its renderer inside the extension,
# and the bar draws the demo.
#   Tests/packaging/test-flatpak.sh PLUGIN_SO RENDERER DEPENDENCIES_JSON [LIBEXEC_EXTRA...]
# DOCK_LOADER, DOCK_LIBRARIES, DOCK_DATA (packaging.mk): the dock (both Qt majors here, so that this
# machine's Qt 5 OBS loads one; the Flatpak build has only Qt 6).
set -uo pipefail
so=$(realpath "$1") renderer=$(realpath "$2") dependencies=$(realpath "$3")
shift 3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
source "$here/../support/obs.sh"
obs_test_workdir test-flatpak
source "$here/../checks.sh"
flatpak=$top/packaging/flatpak
id=com.obsproject.Studio.Plugin.CommentBar
version=$(cat "$top/VERSION")

# ---- the metainfo ----
appstreamcli validate --no-net "$flatpak/$id.metainfo.xml" >"$work/appstream.txt" 2>&1
appstream_status=$?
check "appstreamcli validate passes on the metainfo" '[ $appstream_status -eq 0 ]'
[ $appstream_status -eq 0 ] || cat "$work/appstream.txt"
check "the metainfo is an addon of com.obsproject.Studio, GPL-2.0-or-later, newest release $version" \
	'python3 - "$flatpak/$id.metainfo.xml" "$id" "$version" <<"PY"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
release = root.find("releases/release")
ok = (root.get("type") == "addon" and root.findtext("id") == sys.argv[2]
      and root.findtext("extends") == "com.obsproject.Studio"
      and root.findtext("project_license") == "GPL-2.0-or-later"
      and release is not None and release.get("version") == sys.argv[3])
sys.exit(0 if ok else 1)
PY'

# ---- the manifest ----
# From the work folder: flatpak-builder leaves its .flatpak-builder state folder in the current one.
(cd "$work" && flatpak-builder --show-manifest "$flatpak/$id.yaml") >"$work/manifest.json" 2>"$work/manifest.err"
manifest_status=$?
check "flatpak-builder --show-manifest parses the manifest (and its sources file) without a warning" \
	'[ $manifest_status -eq 0 ] && ! grep -qiE "warning|error|can.t open" "$work/manifest.err"'
[ $manifest_status -eq 0 ] && [ ! -s "$work/manifest.err" ] || head -5 "$work/manifest.err"
python3 - "$work/manifest.json" "$id" "$dependencies" >"$work/manifest-checks.txt" 2>&1 <<'PY'
import json, re, sys
manifest = json.load(open(sys.argv[1]))
ident = sys.argv[2]
problems = []
def want(what, ok):
    if not ok:
        problems.append(what)
want("id", manifest.get("id") == ident)
want("runtime com.obsproject.Studio", manifest.get("runtime") == "com.obsproject.Studio")
# OBS's Flatpak runs on org.freedesktop.Platform 25.08 since 32.1 (obs-studio build-aux/com.obsproject.Studio.json).
want("sdk org.freedesktop.Sdk//25.08", manifest.get("sdk") == "org.freedesktop.Sdk//25.08")
want("build-extension", manifest.get("build-extension") is True)
options = manifest.get("build-options", {})
want("prefix /app/plugins/CommentBar", options.get("prefix") == "/app/plugins/CommentBar")
want("libdir lib/obs-plugins", options.get("libdir") == "lib/obs-plugins")
sources = [s for module in manifest.get("modules", []) for s in module.get("sources", []) if isinstance(s, dict)]
toolchains = [s for s in sources if s.get("type") == "archive" and "swift" in s.get("url", "")]
want("a Swift toolchain archive from download.swift.org with a sha256",
     len(toolchains) == 1 and toolchains[0]["url"].startswith("https://download.swift.org/")
     and re.fullmatch(r"[0-9a-f]{64}", toolchains[0].get("sha256", "")) is not None)
commands = " ".join(c for module in manifest.get("modules", []) for c in module.get("build-commands", []))
want("the build runs make flatpak-install into ${FLATPAK_DEST}",
     "make flatpak-install FLATPAK_PREFIX=${FLATPAK_DEST}" in commands)
def identity(url):
    # SwiftPM's package identity: the same package whether a manifest names it with ".git" or not
    # (which spelling show-dependencies prints depends on which manifest it read first).
    url = url.lower().rstrip("/")
    return url[:-4] if url.endswith(".git") else url
git = {identity(s["url"]): s.get("tag") for s in sources
       if s.get("type") == "git" and s.get("dest", "").startswith("swiftpm/")}
tree = json.load(open(sys.argv[3]))
resolved, stack = {}, list(tree["dependencies"])
while stack:
    node = stack.pop()
    resolved[identity(node["url"])] = node["version"]
    stack.extend(node["dependencies"])
missing = sorted(set(resolved) - set(git))
stale = sorted(u for u in git if u not in resolved or git[u] != resolved[u])
want(f"a git source for every resolved package at its version (missing: {missing}; stale: {stale})",
     not missing and not stale)
print(f"{len(git)} SwiftPM git sources, {len(resolved)} resolved packages")
for problem in problems:
    print("manifest lacks: " + problem)
sys.exit(1 if problems else 0)
PY
manifest_checks=$?
check "the manifest has Flathub's OBS plugin shape, the pinned toolchain and the resolved packages ($(head -1 "$work/manifest-checks.txt"))" \
	'[ $manifest_checks -eq 0 ]'
[ $manifest_checks -eq 0 ] || tail -n +2 "$work/manifest-checks.txt"

# ---- the layout, in real OBS ----
plugins=$work/app/plugins prefix=$work/app/plugins/CommentBar
"$flatpak/install-extension.sh" "$prefix" "$so" "$renderer" "$@" >"$work/install.log" 2>&1
check "install-extension.sh lays out lib/obs-plugins, share/obs/obs-plugins/comment-bar, libexec/comment-bar, metainfo" \
	'[ -f "$prefix/lib/obs-plugins/comment-bar.so" ] && [ -f "$prefix/share/obs/obs-plugins/comment-bar/locale/en-US.ini" ] &&
	 [ -x "$prefix/libexec/comment-bar/commentbar" ] && [ -f "$prefix/share/metainfo/$id.metainfo.xml" ]'
check "each module's data has manifest.json of version $version (comment-bar, comment-bar-dock)" \
	'for m in comment-bar comment-bar-dock; do
		python3 -c "import json, sys; sys.exit(json.load(open(sys.argv[1]))[\"version\"] != sys.argv[2])" \
			"$prefix/share/obs/obs-plugins/$m/manifest.json" "$version" || exit 1
	 done'
# OBS's extension point com.obsproject.Studio.Plugin (build-aux/com.obsproject.Studio.json: directory
# plugins, subdirectories, add-ld-path lib, merge-dirs lib/obs-plugins;share/obs/obs-plugins): Flatpak
# links each entry of an extension's merge-dirs into the extension point's own folder of that name, the
# first extension's winning (flatpak common/flatpak-run.c, flatpak_run_add_extension_args).
for merged in lib/obs-plugins share/obs/obs-plugins; do
	mkdir -p "$plugins/$merged"
	for entry in "$prefix/$merged"/*; do ln -s "$entry" "$plugins/$merged/$(basename "$entry")"; done
done
check "the merged folders hold links to the module, the dock and their data" \
	'[ -L "$plugins/lib/obs-plugins/comment-bar.so" ] && [ -L "$plugins/lib/obs-plugins/comment-bar-dock" ] &&
	 [ -f "$plugins/share/obs/obs-plugins/comment-bar/manifest.json" ]'
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
for other in /usr/lib/$multiarch/obs-plugins/comment-bar.so /usr/libexec/comment-bar/commentbar; do
	[ ! -e "$other" ] || echo "(note: $other exists on this machine; the checks below name the prefix's copies)"
done
config=$work/config
port=$(obs_free_port)
obs_configure "$config" "$port"
obs_start "$config" "$work/obs.out" OBS_PLUGINS_PATH="$plugins/lib/obs-plugins" \
	OBS_PLUGINS_DATA_PATH="$plugins/share/obs/obs-plugins"
shot=$(obs_screenshot "$port" "$work/flatpak-layout.png")
check "a Comment Bar source renders the demo from the Flatpak layout ($shot)" 'grep -q "\"seconds\"" <<<"$shot"'
log=$(obs_newest_log "$config")
check "OBS loads comment-bar through the merged folder's link, from the extension's lib/obs-plugins (legacy layout)" \
	'grep -qF "[comment-bar] comment-bar $version loaded from $prefix/lib/obs-plugins/comment-bar.so (other folder, legacy layout)" "$log"'
if [ -n "${DOCK_LOADER:-}" ]; then
	for _ in $(seq 100); do grep -q "\[comment-bar-dock\] comment-bar-dock" "$log" && break; sleep 0.1; done
	check "the dock loads its Qt library through the merged folder's link to comment-bar-dock/" \
		'grep -qF "[comment-bar-dock] comment-bar-dock $version: the Qt 5 dock from $plugins/lib/obs-plugins/comment-bar-dock/comment-bar-dock-qt5.so" "$log"'
fi
check "the module runs the renderer inside the extension (libexec/comment-bar), not /usr/libexec" \
	'grep -qF "[comment-bar] renderer executable: $prefix/libexec/comment-bar/commentbar" "$log" &&
	 grep -q "renderer status: live" "$log"'
[ -n "${COMMENTBAR_KEEP_SCREENSHOT:-}" ] && cp "$work/flatpak-layout.png" "$COMMENTBAR_KEEP_SCREENSHOT" 2>/dev/null
obs_stop
checks_verdict
