// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin-log: the shim's lines in the OBS log, all with one prefix.
 *   plugin_log(LOG_INFO, "renderer executable: %s", path)
 *   source_log(LOG_WARNING, name, "renderer %s", why)  ->  [comment-bar] 'Name': renderer ...
 * Outside text (renderer output, status text, names, paths) goes through
 * safe_text_escape() first (safe-text.h): these macros do not escape.
 */
#pragma once

#include <util/base.h>

#define LOG_PREFIX "[comment-bar] "

#define plugin_log(level, format, ...) blog(level, LOG_PREFIX format, ##__VA_ARGS__)
/* name: the source's name, already escaped. */
#define source_log(level, name, format, ...) blog(level, LOG_PREFIX "'%s': " format, name, ##__VA_ARGS__)
