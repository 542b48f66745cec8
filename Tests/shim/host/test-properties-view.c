// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "harness.h"
#include "stubs.h"
#include "tests.h"

/* test-properties-view: the properties view as a streamer sees it (en-US), property by property in
 * order, groups indented: each name, kind and label, a number's range and unit, a list's values.
 * It is the same as Tests/shim/fixtures/properties-view.txt, so a change of the code that builds
 * the view (properties/, one file per group) changes nothing a streamer sees unless the fixture
 * changes with it. The service list's values and every help text are left out: they follow the
 * renderer's registry and the locale files, which their own checks hold. */

static void dump(FILE *out, obs_properties_t *props, int depth)
{
	for (obs_property_t *p = obs_properties_first(props); p; obs_property_next(&p)) {
		const char *name = obs_property_name(p);
		const char *label = obs_property_description(p);
		const enum obs_property_type type = obs_property_get_type(p);
		fprintf(out, "%*s%s %d \"%s\"", depth * 2, "", name, (int)type, label ? label : "");
		if (type == OBS_PROPERTY_INT)
			fprintf(out, " %d..%d step %d \"%s\"", obs_property_int_min(p), obs_property_int_max(p),
				obs_property_int_step(p), obs_property_int_suffix(p) ? obs_property_int_suffix(p) : "");
		if (type == OBS_PROPERTY_LIST && strcmp(name, "service") != 0)
			for (size_t i = 0; i < obs_property_list_item_count(p); i++)
				fprintf(out, " [%s]", obs_property_list_item_string(p, i));
		fputc('\n', out);
		if (type == OBS_PROPERTY_GROUP)
			dump(out, obs_property_group_content(p), depth + 1);
	}
}

static char *read_all(const char *path)
{
	FILE *file = fopen(path, "rb");
	if (!file)
		return NULL;
	char *text = NULL;
	size_t size = 0;
	FILE *memory = open_memstream(&text, &size);
	char buffer[4096];
	size_t got;
	while ((got = fread(buffer, 1, sizeof(buffer), file)) > 0)
		fwrite(buffer, 1, got, memory);
	fclose(memory);
	fclose(file);
	return text;
}

void test_properties_view(void)
{
	module_set_locale("en-US");
	obs_properties_t *props = registered.get_properties(NULL);
	char actual_path[1024], expected_path[1024];
	snprintf(actual_path, sizeof(actual_path), "%s/properties-view.txt", opt.work);
	snprintf(expected_path, sizeof(expected_path), "%s/properties-view.txt", opt.fixtures);
	FILE *out = fopen(actual_path, "w");
	if (out) {
		dump(out, props, 0);
		fclose(out);
	}
	obs_properties_destroy(props);
	char *actual = read_all(actual_path);
	char *expected = read_all(expected_path);
	check(actual && expected && strcmp(actual, expected) == 0,
	      "the properties view is the one the fixture shows (names, kinds, labels, ranges, choices, order)",
	      "diff %s %s (if the change is meant, copy the first over the second)", expected_path, actual_path);
	free(actual);
	free(expected);
}
