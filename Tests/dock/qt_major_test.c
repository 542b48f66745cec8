// SPDX-License-Identifier: GPL-2.0-or-later
/* The loader's look at which Qt a process has (CModules/dock/loader/qt-major.c), in a process
 * that opened LIBRARY... first (none: 0).
 *   qt_major_test EXPECTED [LIBRARY...]     exits 0 when qt_major_loaded() gives EXPECTED */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "qt-major.h"

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	for (int i = 2; i < argc; i++) {
		if (!dlopen(argv[i], RTLD_LAZY | RTLD_LOCAL)) {
			fprintf(stderr, "cannot open %s: %s\n", argv[i], dlerror());
			return 2;
		}
	}
	int found = qt_major_loaded();
	printf("%d\n", found);
	return found == atoi(argv[1]) ? 0 : 1;
}
