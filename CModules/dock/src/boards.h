// SPDX-License-Identifier: GPL-2.0-or-later
// The audience's boards as the control API gives them (docs/control-api.md, "Reading"): the poll
// (GET /api/poll), the 参加型 queue (GET /api/queue) and the giveaway (GET /api/giveaway), read
// from their JSON with QJsonDocument's types. Names and texts came from a chat: they are defused
// on the way in (comment.h) and only ever shown as plain text; the viewer's platform, channel and
// user are kept as given, since POST /api/queue/remove names the viewer with them.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QVector>

#include <optional>

// A viewer of the queue or the giveaway, named as the events name viewers.
struct BoardViewer {
	QString platform;
	QString channel;
	QString user;
	QString name;  // defused, for showing
	int count = 0; // a queue entry's times played; 0 for a giveaway's winner

	static BoardViewer fromJson(const QJsonObject &object);
	// {"platform","channel","user"}: the viewer as POST /api/queue/remove takes them.
	QJsonObject key() const;
};

struct PollOption {
	QString text;
	int votes = 0;
};

struct Poll {
	QString question;
	QVector<PollOption> options;
	int voters = 0;
	bool open = false;
	bool dismissed = false; // the closed result is off the bar: nothing to dismiss
	std::optional<double> closesAt; // Unix seconds, a timed poll's end

	// nullopt for what is no poll (no question or no options).
	static std::optional<Poll> fromJson(const QJsonObject &object);
};

struct Queue {
	bool open = false;
	int capacity = 0;
	QVector<BoardViewer> playing;
	QVector<BoardViewer> waiting;

	// A closed queue for what is none.
	static Queue fromJson(const QJsonObject &object);
};

struct Giveaway {
	QString word;
	bool open = false;
	std::optional<double> closesAt; // Unix seconds, when entries close by themselves
	int entries = 0;
	QVector<BoardViewer> winners;
	bool dismissed = false; // the last winner was taken off the bar

	// nullopt for what is no giveaway (no word).
	static std::optional<Giveaway> fromJson(const QJsonObject &object);
};
