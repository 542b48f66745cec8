// SPDX-License-Identifier: GPL-2.0-or-later
#include "dock-settings.h"

#include <QSettings>

namespace {

const QString openKey = QStringLiteral("audience/open");
const QString tabKey = QStringLiteral("audience/tab");
// A tab's name is one of a few words: anything longer was not written by the dock.
constexpr int tabNameLimit = 32;

} // namespace

DockSettings::DockSettings(const QString &path)
{
	if (!path.isEmpty())
		file_ = std::make_unique<QSettings>(path, QSettings::IniFormat);
}

DockSettings::~DockSettings() = default;

DockSettings::Audience DockSettings::audience() const
{
	Audience audience;
	if (!file_)
		return audience;
	audience.open = file_->value(openKey, false).toBool();
	const QString tab = file_->value(tabKey).toString();
	if (tab.size() <= tabNameLimit)
		audience.tab = tab;
	return audience;
}

void DockSettings::setAudience(const Audience &audience)
{
	if (!file_)
		return;
	file_->setValue(openKey, audience.open);
	file_->setValue(tabKey, audience.tab);
}
