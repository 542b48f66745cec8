#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The copyright file names exactly the Swift packages whose modules the renderer links:
# the modules come from SwiftPM's link file list, their packages from .build/checkouts; and
# every package it names is one SwiftPM resolved (`swift package show-dependencies --format
# json`), so a package renamed or dropped from Package.swift cannot linger in it.
#   Tests/packaging/test-copyright.sh COPYRIGHT OBJECTS_LINKFILELIST CHECKOUTS_DIR DEPENDENCIES_JSON
set -uo pipefail
copyright=$1 linklist=$2 checkouts=$3 dependencies=$4
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/../checks.sh"

# .build/release/<Module>.build/<file>.o -> Module; its package: the checkout its sources come from,
# as the module's build records (output-file-map.json, .d files) name them. A module name alone
# is ambiguous: swift-distributed-tracing and swift-service-context both have a ServiceContextModule.
build_dir=$(sed -n '1s|/[^/]*\.build/[^/]*\.o$||p' "$linklist")
modules=$(sed -n 's|.*/\([^/]*\)\.build/[^/]*\.o$|\1|p' "$linklist" | sort -u)
linked= unknown=
for module in $modules; do
	records=$(find "$build_dir/$module.build" \( -name output-file-map.json -o -name '*.d' \) -print0 2>/dev/null |
		xargs -0 -r cat)
	package=$(grep -o "${checkouts%/}/[^/]*/" <<<"$records" | sort | uniq -c | sort -rn | sed -n '1s|.*/\([^/]*\)/$|\1|p')
	if [ -n "$package" ]; then
		linked+="$package"$'\n'
	elif ! grep -q "$top/\(Sources\|CModules\)/" <<<"$records"; then
		unknown+=" $module"
	fi
done
linked=$(sort -u <<<"$linked" | sed '/^$/d')
named=$(sed -n 's|^\(Files:\)\?[[:space:]]*\.build/checkouts/\([^/]*\)/\*$|\2|p' "$copyright" | sort -u)
check "every linked module's sources are in a checkout or in CommentBar${unknown:+ (unknown:$unknown)}" '[ -z "$unknown" ]'
check "the renderer links some packages ($(echo $linked | wc -w))" '[ -n "$linked" ]'
missing=$(comm -23 <(echo "$linked") <(echo "$named"))
extra=$(comm -13 <(echo "$linked") <(echo "$named"))
check "copyright names every linked package${missing:+ (missing: $(echo $missing))}" '[ -z "$missing" ]'
check "copyright names no package that is not linked${extra:+ (extra: $(echo $extra))}" '[ -z "$extra" ]'
resolved=$(python3 -c 'import json, sys
stack, seen = list(json.load(open(sys.argv[1]))["dependencies"]), set()
while stack:
    node = stack.pop()
    seen.add(node["url"].rstrip("/").removesuffix(".git").rsplit("/", 1)[-1].lower())
    stack.extend(node["dependencies"])
print("\n".join(sorted(seen)))' "$dependencies")
unresolved=$(comm -13 <(echo "$resolved") <(tr '[:upper:]' '[:lower:]' <<<"$named" | sort -u))
check "SwiftPM resolves $(echo $resolved | wc -w) packages, and copyright names only resolved ones${unresolved:+ (not resolved: $(echo $unresolved))}" \
	'[ -n "$resolved" ] && [ -z "$unresolved" ]'
check "the license stanza of CommentBar's own code is GPL-2.0-or-later, with its text" \
	'grep -qx "License: GPL-2.0-or-later" "$copyright" && grep -q "/usr/share/common-licenses/GPL-2" "$copyright" &&
	 ! grep -qi "unpublished\|not yet published\|all rights are reserved" "$copyright"'
check "copyright has BoringSSL's stanza (inside NIOSSL)" 'grep -q "^Files: .build/checkouts/swift-nio-ssl/Sources/CNIOBoringSSL/\*" "$copyright"'
check "copyright has the Swift runtime's licence with its Runtime Library Exception" \
	'grep -q "^License: Apache-2.0 with Runtime Library Exception$" "$copyright" && grep -q "Runtime Library Exception to the Apache 2.0 License" "$copyright"'
checks_verdict
