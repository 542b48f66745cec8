// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * commentbar_version.h: the release version, for the renderer (`commentbar
 * --version`) and the OBS shim (its log line at load). Generated from the
 * top-level VERSION file by packaging/packaging.mk (`make version-header`) and
 * checked in, so a Swift build needs no make step; `make test-version` fails
 * when it and VERSION disagree. Do not edit: edit VERSION.
 */
#pragma once

#define COMMENTBAR_VERSION "0.1.0"
