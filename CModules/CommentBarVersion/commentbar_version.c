// SPDX-License-Identifier: GPL-2.0-or-later
/* SwiftPM builds a C target only from sources: this one gives the version
 * header a home. The string is also what `strings` finds in a binary. */
#include "commentbar_version.h"

const char commentbar_version_string[] = "commentbar " COMMENTBAR_VERSION;
