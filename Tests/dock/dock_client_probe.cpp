// SPDX-License-Identifier: GPL-2.0-or-later
// The dock's ControlClient (the Qt 6 build's object) alone, for Tests/dock/test_dock_token.py: it
// follows PORT with the token file PATH, as the panel does, until its state is WANTED or SECONDS
// pass, then sends one command (POST /api/speech/skip, the panel's Skip) and waits for
// its answer; with --open, first "Open control page" (ControlClient::openPage). Prints "state NAME"
// at each change, "open started" or "open refused: WHY", "command STATUS", and "final NAME".
//   dock_client_probe --port N --token-file PATH --seconds S [--until STATE] [--open]
#include "control-client.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QTimer>

#include <cstdio>

namespace {

const char *name(ControlClient::State state)
{
	switch (state) {
	case ControlClient::State::Idle: return "Idle";
	case ControlClient::State::Connecting: return "Connecting";
	case ControlClient::State::Live: return "Live";
	case ControlClient::State::NoToken: return "NoToken";
	case ControlClient::State::TokenRefused: return "TokenRefused";
	case ControlClient::State::Unreachable: return "Unreachable";
	case ControlClient::State::NotRenderer: return "NotRenderer";
	case ControlClient::State::PortUnbound: return "PortUnbound";
	}
	return "?";
}

// Runs the event loop until DONE holds or MS pass.
void runUntil(const std::function<bool()> &done, int ms)
{
	QElapsedTimer timer;
	timer.start();
	while (!done() && timer.elapsed() < ms)
		QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 20);
}

} // namespace

int main(int argc, char **argv)
{
	QCoreApplication app(argc, argv);
	const QStringList args = app.arguments();
	auto arg = [&args](const char *option) { return args.value(args.indexOf(QString::fromLatin1(option)) + 1); };
	const int port = arg("--port").toInt();
	const int seconds = arg("--seconds").toInt();
	const QString until = args.contains(QStringLiteral("--until")) ? arg("--until") : QString();
	if (!port || seconds <= 0)
		return 2;
	ControlClient client(arg("--token-file"), nullptr);
	client.on.state = [](ControlClient::State state) {
		std::printf("state %s\n", name(state));
		std::fflush(stdout);
	};
	client.follow(port);
	client.setActive(true);
	runUntil([&] { return !until.isEmpty() && QString::fromLatin1(name(client.state())) == until; }, seconds * 1000);
	if (args.contains(QStringLiteral("--open"))) {
		bool opened = false;
		client.openPage([&](const QString &problem) {
			std::printf("open %s\n", problem.isEmpty() ? "started" : qPrintable("refused: " + problem));
			opened = true;
		});
		runUntil([&] { return opened; }, 5000);
	}
	bool answered = false;
	client.post(QStringLiteral("/api/speech/skip"), QJsonObject(), [&](int status, const QJsonObject &, const QString &) {
		std::printf("command %d\n", status);
		answered = true;
	});
	runUntil([&] { return answered; }, 5000);
	std::printf("final %s\n", name(client.state()));
	return 0;
}
