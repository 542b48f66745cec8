// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "qt-major.h"

#include <link.h>
#include <string.h>

struct found {
	int qt5, qt6;
};

/* libQt5Widgets.so.5, libQt6Widgets.so.6.4.2 ...: the file name, whatever the folder. */
static int widgets_major(const char *path)
{
	const char *name = strrchr(path, '/');
	name = name ? name + 1 : path;
	if (strncmp(name, "libQt5Widgets.so", strlen("libQt5Widgets.so")) == 0)
		return 5;
	if (strncmp(name, "libQt6Widgets.so", strlen("libQt6Widgets.so")) == 0)
		return 6;
	return 0;
}

static int look(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct found *found = data;
	switch (info->dlpi_name ? widgets_major(info->dlpi_name) : 0) {
	case 5:
		found->qt5 = 1;
		break;
	case 6:
		found->qt6 = 1;
		break;
	default:
		break;
	}
	return 0;
}

int qt_major_loaded(void)
{
	struct found found = {0, 0};
	dl_iterate_phdr(look, &found);
	if (found.qt5 && found.qt6)
		return -1;
	return found.qt5 ? 5 : found.qt6 ? 6 : 0;
}
