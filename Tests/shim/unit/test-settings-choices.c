// SPDX-License-Identifier: GPL-2.0-or-later
/* The settings table's string enums: their choices, as the shim and the renderer read them. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "commentbar_settings.h"
#include "unit-tests.h"

/* The row's choices joined by '|' again, as cb_setting_choice hands them out. */
static void joined_choices(const struct cb_setting *row, char *out, size_t out_size)
{
	size_t length, used = 0;
	const char *choice;
	out[0] = '\0';
	for (size_t i = 0; (choice = cb_setting_choice(row, i, &length)) && used < out_size; i++)
		used += (size_t)snprintf(out + used, out_size - used, "%s%.*s", i ? "|" : "", (int)length, choice);
}

void test_settings_choices(void)
{
	const struct cb_setting *clock = cb_setting_find("clock_source");
	char joined[256];
	joined_choices(clock, joined, sizeof(joined));
	check(strcmp(joined, "auto|streaming|recording|feed|off") == 0, "clock_source lists its five choices in order",
	      "\"%s\"", joined);
	check(cb_setting_allows(clock, "recording") && !cb_setting_allows(clock, "record") &&
		      !cb_setting_allows(clock, "recordings") && !cb_setting_allows(clock, "") &&
		      !cb_setting_allows(clock, NULL),
	      "a choice matches whole: no prefix, no longer value, no empty", NULL);
	check(cb_setting_allows(cb_setting_find("ng_mode"), "hide") &&
		      !cb_setting_allows(cb_setting_find("ng_mode"), "HIDE"),
	      "ng_mode allows its choices, case and all", NULL);
	check(cb_setting_allows(cb_setting_find("stream_id"), "anything at all"), "a row without choices allows any value",
	      NULL);
	size_t length = 0;
	check(cb_setting_choice(cb_setting_find("stream_id"), 0, &length) == NULL && cb_setting_choice(clock, 5, &length) == NULL,
	      "no choice past the last, none for a row without them", NULL);

	/* Every row with choices is a string row whose default is one of them, each choice non-empty. */
	char wrong[512] = "";
	for (size_t i = 0; i < CB_SETTING_COUNT; i++) {
		const struct cb_setting *row = cb_setting_at(i);
		if (!row->choices)
			continue;
		bool good = row->type == CB_SETTING_STRING && cb_setting_allows(row, row->default_string);
		const char *choice;
		for (size_t c = 0; good && (choice = cb_setting_choice(row, c, &length)); c++)
			good = length > 0;
		if (!good)
			snprintf(wrong + strlen(wrong), sizeof(wrong) - strlen(wrong), " %s", row->key);
	}
	check(!wrong[0], "every enum row is a string whose default is one of its non-empty choices", "wrong:%s", wrong);
}
