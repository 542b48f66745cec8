// SPDX-License-Identifier: GPL-2.0-or-later
/* Outside text made safe: escaped and cut once for the log, printable for the properties. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "safe-text.h"
#include "unit-tests.h"

#define ELLIPSIS "\xe2\x80\xa6"

static bool escapes_to(const char *text, size_t length, const char *expected, char *got, size_t got_size)
{
	safe_text_escape(got, got_size, text, length, length);
	return strcmp(got, expected) == 0;
}

void test_safe_text(void)
{
	char out[SAFE_TEXT_LOG_SIZE];
	static const char controls[] = "a\rb\nc\td\x1b[0m e\x7f f\xc2\x9b g\xff h\x01";
	check(escapes_to(controls, strlen(controls), "a\\rb\\nc\\td\\x1b[0m e\\x7f f\\xc2\\x9b g\\xff h\\x01", out,
			 sizeof(out)),
	      "safe text: CR, LF, TAB, other C0, DEL, C1 and invalid bytes become visible escapes", "\"%s\"", out);
	static const char forged[] = "id\r\n[comment-bar] renderer: Host: evil";
	safe_text_escape_string(out, sizeof(out), forged);
	check(!strchr(out, '\n') && !strchr(out, '\r') && strstr(out, "id\\r\\n[comment-bar]"),
	      "safe text: a value with CR LF stays one line, so it cannot forge a log line", "\"%s\"", out);
	static const char nul[] = "a\0b";
	check(escapes_to(nul, 3, "a\\x00b", out, sizeof(out)), "safe text: a NUL byte is shown, not a cut",
	      "\"%s\"", out);
	static const char utf8[] = "caf\xc3\xa9 \xe3\x81\x82 \xf0\x9f\x98\x80";
	check(escapes_to(utf8, strlen(utf8), utf8, out, sizeof(out)), "safe text: valid UTF-8 is kept as it is",
	      "\"%s\"", out);
	static const char overlong[] = "\xc0\xaf \xed\xa0\x80";
	check(escapes_to(overlong, strlen(overlong), "\\xc0\\xaf \\xed\\xa0\\x80", out, sizeof(out)),
	      "safe text: overlong and surrogate sequences are escaped byte by byte", "\"%s\"", out);

	/* Issue 19: a name ending in RIGHT-TO-LEFT OVERRIDE would reverse the rest of the log line. */
	static const char bidi[] = "nameflip\xe2\x80\xae: hi \xe2\x81\xa6x\xe2\x81\xa9 \xe2\x80\x8f \xd8\x9c";
	check(escapes_to(bidi, strlen(bidi), "nameflip\\u{202e}: hi \\u{2066}x\\u{2069} \\u{200f} \\u{061c}", out,
			 sizeof(out)),
	      "safe text: bidi overrides, isolates and marks are escaped, so a name cannot reorder the line", "\"%s\"", out);

	static char big[30000];
	memset(big, 'x', sizeof(big));
	const size_t length = safe_text_escape(out, sizeof(out), big, sizeof(big), sizeof(big));
	check(length < sizeof(out) && length == strlen(out) && strstr(out, "x" ELLIPSIS " (30000 bytes)") &&
		      strcmp(out + length - strlen(ELLIPSIS " (30000 bytes)"), ELLIPSIS " (30000 bytes)") == 0,
	      "safe text: a 30000-byte value is cut once, with its length", "%zu bytes: ...%s", length,
	      length > 30 ? out + length - 30 : out);
	static char fits[SAFE_TEXT_LOG_SIZE - 1];
	memset(fits, 'z', sizeof(fits));
	safe_text_escape(out, sizeof(out), fits, sizeof(fits), sizeof(fits));
	check(strlen(out) == sizeof(fits) && !strstr(out, ELLIPSIS), "safe text: a value that fits is not cut",
	      "%zu bytes", strlen(out));
	safe_text_escape(out, sizeof(out), "abc", 3, 10);
	check(strcmp(out, "abc" ELLIPSIS " (10 bytes)") == 0, "safe text: a value kept in part says its full length",
	      "\"%s\"", out);
	static const char two[] = "\xe3\x81\x82\xe3\x81\x82";
	safe_text_escape(out, sizeof(out), two, 4, 6);
	check(strcmp(out, "\xe3\x81\x82" ELLIPSIS " (6 bytes)") == 0,
	      "safe text: a value kept in part ends before a character it cut, not in \\x escapes", "\"%s\"", out);
	static char wide[3000];
	for (size_t i = 0; i + 3 <= sizeof(wide); i += 3)
		memcpy(wide + i, "\xe3\x81\x82", 3);
	char small[64];
	safe_text_escape(small, sizeof(small), wide, sizeof(wide), sizeof(wide));
	check(strstr(small, "\xe3\x81\x82" ELLIPSIS " (3000 bytes)") != NULL && strlen(small) < sizeof(small),
	      "safe text: a cut for room falls between characters", "\"%s\"", small);
	char tiny[8] = "unset";
	check(safe_text_escape(tiny, sizeof(tiny), "abc", 3, 3) == 0 && strcmp(tiny, "unset") == 0,
	      "safe text: a buffer too small for the marker is refused, not overrun", NULL);

	char printable[] = "\x01ok\xff\xc3\xa9\t\xc2\x85!";
	safe_text_make_printable(printable);
	check(strcmp(printable, "?ok?\xc3\xa9??" "?!") == 0,
	      "safe text: printable form replaces controls and invalid bytes with ? (the properties' form)", "\"%s\"",
	      printable);
}
