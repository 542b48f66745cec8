#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Prints commentbar_version.h for a version: `make version-header` writes it, test-version compares.
#   packaging/version-header.sh VERSION
set -euo pipefail
[[ $1 =~ ^[0-9]+\.[0-9]+\.[0-9]+([~+.][0-9A-Za-z.~+]*)?$ ]] || { echo "not a version: $1" >&2; exit 2; }
cat <<EOT
// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * commentbar_version.h: the release version, for the renderer (\`commentbar
 * --version\`) and the OBS shim (its log line at load). Generated from the
 * top-level VERSION file by packaging/packaging.mk (\`make version-header\`) and
 * checked in, so a Swift build needs no make step; \`make test-version\` fails
 * when it and VERSION disagree. Do not edit: edit VERSION.
 */
#pragma once

#define COMMENTBAR_VERSION "$1"
EOT
