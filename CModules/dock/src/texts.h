// SPDX-License-Identifier: GPL-2.0-or-later
// Texts: the dock's words in OBS's language, from the dock module's locale files (the loader's
// obs_module_text), looked up by key ("Dock.Pin"). A test hands its own lookup.
#pragma once

#include <QString>

class Texts {
public:
	using Lookup = const char *(*)(const char *key);

	explicit Texts(Lookup lookup) : lookup_(lookup) {}

	QString operator()(const char *key) const
	{
		const char *text = lookup_ ? lookup_(key) : nullptr;
		return QString::fromUtf8(text ? text : key);
	}

private:
	Lookup lookup_;
};
