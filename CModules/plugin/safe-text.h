// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * safe-text: text from outside the shim (the renderer's output, the pool's
 * status text, source names, paths) made safe to show. No libobs dependency.
 *
 * Two forms: printable (for the properties view: every unsafe byte becomes
 * '?', the length stays) and escaped (for the OBS log: control characters
 * become visible escapes such as \r \n \x1b, so no outside text can forge a
 * log line of its own, and a long value is cut once, with its length).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* A buffer this size holds any escaped value the shim logs: long enough to be
 * useful, short enough for OBS's 4096-byte log lines with their prefix. */
#define SAFE_TEXT_LOG_SIZE 2048
/* The smallest out_size safe_text_escape accepts: room for the cut marker. */
#define SAFE_TEXT_ESCAPE_MIN_SIZE 48

/* The length of the valid, printable-or-not UTF-8 sequence at s (1..4) within
 * avail bytes, or 0 if it is not one (overlong, surrogate, above U+10FFFF,
 * C1 control, cut short). ASCII bytes, controls included, are 1. */
size_t safe_text_sequence_length(const unsigned char *s, size_t avail);

/* In place: control characters (tab included), DEL and every byte of an
 * invalid UTF-8 sequence or a C1 control become '?'. */
void safe_text_make_printable(char *text);

/* Writes into out (out_size >= SAFE_TEXT_ESCAPE_MIN_SIZE) the escaped form of
 * the first `kept` bytes of text, a value that was `full` bytes long (full >=
 * kept: the caller may have kept only part of it). Printable ASCII and valid
 * UTF-8 are copied; \r \n \t are written as such; every other control byte,
 * DEL and every byte of an invalid sequence as \xNN. When the value was cut
 * (kept < full) or its escaped form does not fit, it ends, at a character
 * boundary, with "… (N bytes)", N being full. Returns the length written. */
size_t safe_text_escape(char *out, size_t out_size, const char *text, size_t kept, size_t full);

/* safe_text_escape of a whole NUL-terminated string (NULL is ""). */
size_t safe_text_escape_string(char *out, size_t out_size, const char *text);
