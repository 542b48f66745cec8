// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qt-major: which Qt the process has already loaded, read from its loaded objects (dl_iterate_phdr),
 * never by loading one. A Qt 6 library in a Qt 5 process (or the reverse) is fatal, so the loader
 * opens only the dock built for the major found here.
 */
#pragma once

/* 5 or 6: the major of the one libQt<N>Widgets loaded; 0: none (a process without Qt's widgets,
 * such as a libobs host); -1: both (nothing is safe to load). */
int qt_major_loaded(void);
