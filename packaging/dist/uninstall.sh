#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Removes what install.sh put into OBS's plugin folders (both layouts), and only that.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/plugin-install.sh" uninstall
