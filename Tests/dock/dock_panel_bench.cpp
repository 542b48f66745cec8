// SPDX-License-Identifier: GPL-2.0-or-later
// The dock's panel alone (the Qt 6 build's objects, QT_QPA_PLATFORM=offscreen) following one fake
// control server for SECONDS, then quitting: Tests/bench/dock_cpu.py measures its CPU while the
// fake gets 10 comments/s, without OBS's own noise around it.
//   dock_panel_bench PORT TOKEN_FILE SECONDS
#include "dock-panel.h"
#include "source-directory.h"

#include <QApplication>
#include <QTimer>

#include <cstdlib>

namespace {

class OneSource : public SourceDirectory {
public:
	explicit OneSource(int port) : port_(port) {}
	QVector<BarSource> list() override { return {BarSource{"Bench", true, port_}}; }
	std::optional<BarSource> find(const QString &) override { return BarSource{"Bench", true, port_}; }
	void turnControlOn(const QString &) override {}

private:
	int port_;
};

const char *key(const char *name)
{
	return name;
}

} // namespace

int main(int argc, char **argv)
{
	QApplication app(argc, argv);
	if (argc < 4)
		return 2;
	DockPanel panel(new OneSource(std::atoi(argv[1])), Texts(key), QString::fromLocal8Bit(argv[2]), QString());
	panel.resize(330, 700); // the dock's size beside OBS 29's preview
	panel.show();
	QTimer::singleShot(std::atoi(argv[3]) * 1000, &app, &QApplication::quit);
	return app.exec();
}
