#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The licence: LICENSE is the GPL 2 (OBS's licence; the shim links libobs), every source file
# carries its SPDX line (packaging/spdx-headers.py --check), and the script itself finds a file
# without one, adds the line after a #! line and changes nothing the second time.
#   Tests/packaging/test-licence.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
source "$here/../checks.sh"
script=$top/packaging/spdx-headers.py
work=$(mktemp -d /tmp/commentbar-licence.XXXXXX)
trap 'rm -rf "$work"' EXIT

check "LICENSE is the GNU GPL version 2 text (Debian's /usr/share/common-licenses/GPL-2)" \
	'grep -q "GNU GENERAL PUBLIC LICENSE" "$top/LICENSE" && grep -q "Version 2, June 1991" "$top/LICENSE" &&
	 { [ ! -e /usr/share/common-licenses/GPL-2 ] || cmp -s /usr/share/common-licenses/GPL-2 "$top/LICENSE"; }'
python3 "$script" --check >"$work/check.txt"
status=$?
check "every source file has its SPDX line ($(tail -1 "$work/check.txt"))" '[ $status -eq 0 ]'
[ $status -eq 0 ] || head -20 "$work/check.txt"
check "the generated protobuf code says MIT (its schema's licence), CommentBar's own code GPL-2.0-or-later" \
	'for f in "$top"/Sources/Platforms/*/Generated/*.pb.swift; do head -1 "$f" | grep -qx "// SPDX-License-Identifier: MIT" || exit 1; done &&
	 head -1 "$top/CModules/plugin/plugin-main.c" | grep -qx "// SPDX-License-Identifier: GPL-2.0-or-later" &&
	 sed -n 2p "$top/Package.swift" | grep -qx "// SPDX-License-Identifier: GPL-2.0-or-later"'

# ---- the script on a scratch repository ----
repo=$work/repo
mkdir -p "$repo/Sources/x" "$repo/packaging"
git -C "$repo" init -q
printf 'let a = 1\n' >"$repo/Sources/x/a.swift"
printf '#!/bin/sh\necho hi\n' >"$repo/packaging/b.sh"
printf 'not a source\n' >"$repo/Sources/x/notes.txt"
python3 "$script" --top "$repo" --check >/dev/null
check "--check fails on files without the line" '[ $? -eq 1 ]'
python3 "$script" --top "$repo" --apply >/dev/null
check "--apply puts the line first, or second after #!" \
	'[ "$(head -1 "$repo/Sources/x/a.swift")" = "// SPDX-License-Identifier: GPL-2.0-or-later" ] &&
	 [ "$(sed -n 2p "$repo/packaging/b.sh")" = "# SPDX-License-Identifier: GPL-2.0-or-later" ] &&
	 [ "$(head -1 "$repo/packaging/b.sh")" = "#!/bin/sh" ] && [ "$(cat "$repo/Sources/x/notes.txt")" = "not a source" ]'
before=$(cat "$repo/Sources/x/a.swift" "$repo/packaging/b.sh" | md5sum)
python3 "$script" --top "$repo" --apply >/dev/null
check "--apply a second time changes nothing, and --check passes" \
	'[ "$(cat "$repo/Sources/x/a.swift" "$repo/packaging/b.sh" | md5sum)" = "$before" ] && python3 "$script" --top "$repo" --check >/dev/null'
checks_verdict
