// SPDX-License-Identifier: GPL-2.0-or-later
#include "boards.h"

#include "comment.h"

#include <QJsonArray>

namespace {

constexpr int nameLimit = 64;
// The API takes poll answers and entry words of at most 200 and 100 characters.
constexpr int textLimit = 200;
// More than the API takes (9 answers): a larger list is cut, never laid out in full.
constexpr int optionLimit = 9;

std::optional<double> secondsOf(const QJsonValue &value)
{
	return value.isDouble() ? std::optional<double>(value.toDouble()) : std::nullopt;
}

QVector<BoardViewer> viewersOf(const QJsonValue &value)
{
	QVector<BoardViewer> viewers;
	for (const QJsonValue &entry : value.toArray())
		viewers.push_back(BoardViewer::fromJson(entry.toObject()));
	return viewers;
}

} // namespace

BoardViewer BoardViewer::fromJson(const QJsonObject &object)
{
	BoardViewer viewer;
	viewer.platform = object.value(QStringLiteral("platform")).toString();
	viewer.channel = object.value(QStringLiteral("channel")).toString();
	viewer.user = object.value(QStringLiteral("user")).toString();
	viewer.name = defused(object.value(QStringLiteral("name")).toString(), nameLimit);
	viewer.count = object.value(QStringLiteral("count")).toInt();
	return viewer;
}

QJsonObject BoardViewer::key() const
{
	return QJsonObject{{QStringLiteral("platform"), platform},
			   {QStringLiteral("channel"), channel},
			   {QStringLiteral("user"), user}};
}

std::optional<Poll> Poll::fromJson(const QJsonObject &object)
{
	Poll poll;
	poll.question = defused(object.value(QStringLiteral("question")).toString(), textLimit);
	for (const QJsonValue &value : object.value(QStringLiteral("options")).toArray()) {
		if (poll.options.size() == optionLimit)
			break;
		const QJsonObject option = value.toObject();
		poll.options.push_back({defused(option.value(QStringLiteral("text")).toString(), textLimit),
					option.value(QStringLiteral("votes")).toInt()});
	}
	if (poll.question.isEmpty() || poll.options.isEmpty())
		return std::nullopt;
	poll.voters = object.value(QStringLiteral("voters")).toInt();
	poll.open = object.value(QStringLiteral("open")).toBool();
	poll.dismissed = object.value(QStringLiteral("dismissed")).toBool();
	poll.closesAt = secondsOf(object.value(QStringLiteral("closes_at")));
	return poll;
}

Queue Queue::fromJson(const QJsonObject &object)
{
	Queue queue;
	queue.open = object.value(QStringLiteral("open")).toBool();
	queue.capacity = object.value(QStringLiteral("capacity")).toInt();
	queue.playing = viewersOf(object.value(QStringLiteral("playing")));
	queue.waiting = viewersOf(object.value(QStringLiteral("waiting")));
	return queue;
}

std::optional<Giveaway> Giveaway::fromJson(const QJsonObject &object)
{
	Giveaway giveaway;
	giveaway.word = defused(object.value(QStringLiteral("word")).toString(), textLimit);
	if (giveaway.word.isEmpty())
		return std::nullopt;
	giveaway.open = object.value(QStringLiteral("open")).toBool();
	giveaway.closesAt = secondsOf(object.value(QStringLiteral("closes_at")));
	giveaway.entries = object.value(QStringLiteral("entries")).toInt();
	giveaway.winners = viewersOf(object.value(QStringLiteral("winners")));
	giveaway.dismissed = object.value(QStringLiteral("dismissed")).toBool();
	return giveaway;
}
