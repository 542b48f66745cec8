// SPDX-License-Identifier: GPL-2.0-or-later
#include "safe-text.h"

#include <stdio.h>
#include <string.h>

#define CUT_MARKER_FORMAT "\xe2\x80\xa6 (%zu bytes)" /* "… (N bytes)" */

size_t safe_text_sequence_length(const unsigned char *s, size_t avail)
{
	if (avail == 0)
		return 0;
	const unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	size_t n;
	unsigned char low = 0x80, high = 0xBF; /* the allowed range of the second byte */
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		if (c == 0xC2)
			low = 0xA0; /* U+0080..U+009F: C1 controls */
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		if (c == 0xE0)
			low = 0xA0; /* overlong */
		else if (c == 0xED)
			high = 0x9F; /* surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		if (c == 0xF0)
			low = 0x90; /* overlong */
		else if (c == 0xF4)
			high = 0x8F; /* above U+10FFFF */
	} else {
		return 0;
	}
	if (avail < n || s[1] < low || s[1] > high)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return n;
}

void safe_text_make_printable(char *text)
{
	unsigned char *s = (unsigned char *)text;
	size_t left = strlen(text);
	while (left) {
		const size_t n = safe_text_sequence_length(s, left);
		if (n == 0 || (n == 1 && (*s < 0x20 || *s == 0x7f))) {
			*s = '?';
			s++;
			left--;
		} else {
			s += n;
			left -= n;
		}
	}
}

/* The longest escaped form of one character: "\u{2069}". */
#define PIECE_SIZE 12

/* The bidi controls that reorder the text after them (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069): a log line shows them escaped, so a name
 * cannot flip the rest of the line. Returns the code point, or 0. */
static unsigned bidi_control(const unsigned char *s, size_t n)
{
	if (n == 2 && s[0] == 0xD8 && s[1] == 0x9C)
		return 0x061C;
	if (n != 3 || s[0] != 0xE2)
		return 0;
	if (s[1] == 0x80 && (s[2] == 0x8E || s[2] == 0x8F || (s[2] >= 0xAA && s[2] <= 0xAE)))
		return 0x2000u + (s[2] - 0x80u);
	if (s[1] == 0x81 && s[2] >= 0xA6 && s[2] <= 0xA9)
		return 0x2040u + (s[2] - 0x80u);
	return 0;
}

/* The escaped form of the character at s: written into piece, its length
 * returned; *consumed is how many input bytes it stands for. */
static size_t escape_one(const unsigned char *s, size_t avail, char piece[PIECE_SIZE], size_t *consumed)
{
	const size_t n = safe_text_sequence_length(s, avail);
	const unsigned bidi = bidi_control(s, n);
	if (bidi) {
		*consumed = n;
		return (size_t)snprintf(piece, PIECE_SIZE, "\\u{%04x}", bidi);
	}
	if (n > 1) {
		memcpy(piece, s, n);
		*consumed = n;
		return n;
	}
	*consumed = 1;
	const unsigned char c = s[0];
	if (n == 1 && c >= 0x20 && c != 0x7f) {
		piece[0] = (char)c;
		return 1;
	}
	piece[0] = '\\';
	switch (c) {
	case '\r':
		piece[1] = 'r';
		return 2;
	case '\n':
		piece[1] = 'n';
		return 2;
	case '\t':
		piece[1] = 't';
		return 2;
	default:
		snprintf(piece + 1, 4, "x%02x", c);
		return 4;
	}
}

/* A cut value must not end in the first bytes of a character: they would show
 * as \xNN escapes of a sequence that was fine in the original. */
static size_t without_partial_character(const unsigned char *s, size_t kept)
{
	for (size_t back = 1; back <= 3 && back <= kept; back++) {
		const unsigned char c = s[kept - back];
		if (c < 0x80)
			return kept; /* ASCII: nothing partial after it */
		if (c >= 0xC0) { /* a lead byte: is its sequence complete? */
			const size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
			return need > back ? kept - back : kept;
		}
	}
	return kept;
}

size_t safe_text_escape(char *out, size_t out_size, const char *text, size_t kept, size_t full)
{
	if (!out || out_size < SAFE_TEXT_ESCAPE_MIN_SIZE)
		return 0;
	const unsigned char *s = (const unsigned char *)(text ? text : "");
	if (!text)
		kept = full = 0;
	if (full < kept)
		full = kept;
	bool cut = kept < full;
	if (cut)
		kept = without_partial_character(s, kept);

	/* Does the whole escaped value fit? If not, stop where the marker still does. */
	size_t escaped_length = 0;
	char piece[PIECE_SIZE];
	for (size_t i = 0, consumed; i < kept; i += consumed)
		escaped_length += escape_one(s + i, kept - i, piece, &consumed);
	cut = cut || escaped_length > out_size - 1;
	const size_t limit = cut ? out_size - SAFE_TEXT_ESCAPE_MIN_SIZE : out_size - 1;

	size_t pos = 0;
	for (size_t i = 0, consumed; i < kept; i += consumed) {
		const size_t length = escape_one(s + i, kept - i, piece, &consumed);
		if (pos + length > limit)
			break;
		memcpy(out + pos, piece, length);
		pos += length;
	}
	out[pos] = '\0';
	if (cut) {
		const int marker = snprintf(out + pos, out_size - pos, CUT_MARKER_FORMAT, full);
		if (marker > 0)
			pos += (size_t)marker < out_size - pos ? (size_t)marker : out_size - pos - 1;
	}
	return pos;
}

size_t safe_text_escape_string(char *out, size_t out_size, const char *text)
{
	const size_t length = text ? strlen(text) : 0;
	return safe_text_escape(out, out_size, text, length, length);
}
