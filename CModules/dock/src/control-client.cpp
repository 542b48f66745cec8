// SPDX-License-Identifier: GPL-2.0-or-later
#include "control-client.h"
#include "control-hello.h"
#include "page-link-file.h"
#include "port-status.h"
#include "private-file.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QTimer>
#include <QUrl>

ControlClient::ControlClient(QString tokenPath, QObject *parent)
	: QObject(parent), net_(new QNetworkAccessManager(this)), timer_(new QTimer(this)),
	  tokenPath_(std::move(tokenPath))
{
	// The token goes to the renderer on loopback, never through a proxy a user set for the web.
	net_->setProxy(QNetworkProxy::NoProxy);
	timer_->setSingleShot(true);
	connect(timer_, &QTimer::timeout, this, [this] { poll(); });
}

void ControlClient::follow(int port)
{
	if (port == port_)
		return;
	dropHeld();
	forgetProof();
	port_ = port;
	++generation_;
	polling_ = false;
	fresh_ = stateStale_ = true;
	waits_ = false;
	stateSeq_ = commentSeq_ = newsSeq_ = boardsSeq_ = 0;
	boardsStale_ = true;
	failures_ = 0;
	setState(port ? State::Connecting : State::Idle);
	schedule(0);
}

void ControlClient::setActive(bool active)
{
	// Shown again: the pin and the streams are read anew, as on start.
	if (active && !active_)
		stateStale_ = true;
	active_ = active;
	if (active) {
		schedule(0);
	} else {
		timer_->stop();
		dropHeld();
	}
}

void ControlClient::dropHeld()
{
	if (!held_)
		return;
	QNetworkReply *reply = held_;
	held_ = nullptr;
	polling_ = false;
	// Its connection is likely closed with it: the next request, on a new one, proves the server again.
	forgetProof();
	// Its answer is of no use now: nothing of it runs (abort() finishes it at once).
	reply->disconnect(this);
	reply->abort();
	reply->deleteLater();
}

void ControlClient::setState(State state)
{
	if (state == state_)
		return;
	state_ = state;
	if (on.state)
		on.state(state);
}

bool ControlClient::readToken()
{
	token_ = readControlToken(tokenPath_);
	return !token_.isEmpty();
}

void ControlClient::forgetProof()
{
	provenPid_ = 0;
	provenPort_ = 0;
	provenToken_.clear();
}

void ControlClient::whenProven(std::function<void()> send, Answer answer)
{
	const auto refuse = [this, answer](State why, const QString &error) {
		refusedAs_ = why;
		answer(0, QJsonObject(), error);
	};
	qint64 pid = 0;
	const PortSaid said = readPortStatus(tokenPath_, port_, &pid);
	if (said == PortSaid::Unbound)
		return refuse(State::PortUnbound, QStringLiteral("the renderer could not bind port %1").arg(port_));
	if (token_.isEmpty() && !readToken())
		return refuse(State::NoToken, QStringLiteral("no control token"));
	// The renderer that proved itself still serves the port (its status file names the same live
	// process) and the token is the one it proved it holds: no hello again.
	if (said == PortSaid::Bound && pid == provenPid_ && port_ == provenPort_ && token_ == provenToken_) {
		refusedAs_ = State::Idle;
		return send();
	}
	forgetProof();
	const QByteArray nonce = makeHelloNonce();
	const QByteArray token = token_;
	const int port = port_;
	QNetworkRequest hello(QUrl(QStringLiteral("http://127.0.0.1:%1/api/hello?nonce=%2").arg(port).arg(QString::fromLatin1(nonce))));
	hello.setTransferTimeout(timeoutMs);
	hello.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
	await(net_->get(hello), [this, send = std::move(send), refuse, nonce, token, port, said, pid](
					int status, const QJsonObject &body, const QString &error) {
		if (status == 0)
			return refuse(State::Unreachable, error);
		const QByteArray proof = body.value(QStringLiteral("proof")).toString().toLatin1();
		if (status != 200 || !helloProofHolds(proof, token, port, nonce))
			return refuse(State::NotRenderer,
				      QStringLiteral("what listens on port %1 is not this user's Comment Bar").arg(port));
		// Kept only when the same process was said to serve the port before and after the hello:
		// then it is the one that answered. Without a status file every request is proven anew.
		qint64 after = 0;
		if (said == PortSaid::Bound && readPortStatus(tokenPath_, port, &after) == PortSaid::Bound && after == pid) {
			provenPid_ = pid;
			provenPort_ = port;
			provenToken_ = token;
		}
		refusedAs_ = State::Idle;
		send();
	});
}

QNetworkRequest ControlClient::request(const QString &pathAndQuery, int timeout) const
{
	QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(port_).arg(pathAndQuery)));
	request.setRawHeader("Authorization", "Bearer " + token_);
	request.setTransferTimeout(timeout);
	// A redirect would carry the token elsewhere: none is followed.
	request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
	return request;
}

void ControlClient::await(QNetworkReply *reply, Answer answer)
{
	const quint64 generation = generation_;
	connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
		if (received > bodyLimit)
			reply->abort();
	});
	connect(reply, &QNetworkReply::finished, this, [this, reply, answer, generation] {
		reply->deleteLater();
		const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
		// No answer (a closed connection, a timeout) or a refused token: the next request proves
		// the server again.
		if (status == 0 || status == 401)
			forgetProof();
		if (generation != generation_)
			return;
		const QJsonObject body =
			reply->isOpen() ? QJsonDocument::fromJson(reply->readAll()).object() : QJsonObject();
		QString error = body.value(QStringLiteral("error")).toString();
		if (status == 0)
			error = reply->errorString();
		answer(status, body, error);
	});
}

void ControlClient::get(const QString &pathAndQuery, Answer answer)
{
	if (!port_)
		return answer(0, QJsonObject(), QString());
	whenProven([this, pathAndQuery, answer] { await(net_->get(request(pathAndQuery)), answer); }, answer);
}

void ControlClient::post(const QString &path, const QJsonObject &body, Answer answer)
{
	if (!port_)
		return answer(0, QJsonObject(), QString());
	whenProven(
		[this, path, body, answer] {
			QNetworkRequest r = request(path);
			r.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
			await(net_->post(r, QJsonDocument(body).toJson(QJsonDocument::Compact)), answer);
		},
		answer);
}

void ControlClient::openPage(std::function<void(const QString &problem)> done)
{
	post(QStringLiteral("/api/page-link"), QJsonObject(),
	     [this, done](int status, const QJsonObject &body, const QString &error) {
		     if (status != 200)
			     return done(error.isEmpty() ? QStringLiteral("the renderer answered %1").arg(status) : error);
		     QString problem;
		     const QString address = writePageLinkFile(pageLinkFolder(tokenPath_),
							       body.value(QStringLiteral("url")).toString(), &problem);
		     if (address.isEmpty())
			     return done(problem);
		     if (!QProcess::startDetached(QStringLiteral("xdg-open"), {address}))
			     return done(QStringLiteral("xdg-open could not be started"));
		     done(QString());
	     });
}

void ControlClient::schedule(int ms)
{
	if (active_ && port_)
		timer_->start(ms);
}

void ControlClient::poll()
{
	if (!active_ || !port_ || polling_)
		return;
	// Nothing is sent to a port the renderer could not bind: what listens there is another program.
	if (readPortStatus(tokenPath_, port_) == PortSaid::Unbound) {
		setState(State::PortUnbound);
		schedule(1000);
		return;
	}
	if (token_.isEmpty() && !readToken()) {
		setState(State::NoToken);
		schedule(1000);
		return;
	}
	polling_ = true;
	const bool readState = fresh_ || stateStale_ || (!waits_ && polls_++ % statePolls == 0);
	if (!readState)
		return readComments();
	get(QStringLiteral("/api/state"), [this](int status, const QJsonObject &body, const QString &) {
		if (status != 200) {
			polling_ = false;
			return failed(status);
		}
		stateStale_ = false;
		stateArrived(body);
		readComments();
	});
}

void ControlClient::stateArrived(const QJsonObject &state)
{
	const qint64 seq = static_cast<qint64>(state.value(QStringLiteral("seq")).toDouble());
	// A seq below one seen means the server started again: it counts from 1 (docs/control-api.md).
	if (seq < qMax(stateSeq_, qMax(commentSeq_, newsSeq_)))
		fresh_ = true;
	stateSeq_ = seq;
	const QJsonObject pin = state.value(QStringLiteral("pin")).toObject();
	if (on.pin) {
		std::optional<Comment> pinned;
		if (pin.value(QStringLiteral("pinned")).toBool(true) && !pin.isEmpty()) {
			QJsonObject comment = pin.value(QStringLiteral("comment")).toObject();
			comment.insert(QStringLiteral("id"), pin.value(QStringLiteral("id")));
			pinned = Comment::fromJson(comment);
		}
		on.pin(pinned);
	}
	if (on.streams) {
		QStringList parts;
		for (const QJsonValue &value : state.value(QStringLiteral("streams")).toArray()) {
			const QJsonObject stream = value.toObject();
			QString part = defused(stream.value(QStringLiteral("platform")).toString(), 32) + QLatin1Char('/') +
				       defused(stream.value(QStringLiteral("channel")).toString(), 64) + QStringLiteral(": ") +
				       defused(stream.value(QStringLiteral("state")).toString(), 32);
			if (stream.value(QStringLiteral("viewers")).isDouble())
				part += QStringLiteral(" \u00B7 ") + QString::number(stream.value(QStringLiteral("viewers")).toInt());
			parts << part;
		}
		on.streams(parts.join(QStringLiteral("  |  ")));
	}
}

void ControlClient::readComments()
{
	// A first read answers at once (the dock shows Live); after it the server holds the request for news.
	const bool wait = waits_ && !fresh_;
	sentSince_ = fresh_ ? 0 : waits_ ? newsSeq_ : commentSeq_;
	QString path = QStringLiteral("/api/comments?limit=500&since=%1").arg(sentSince_);
	if (wait)
		path += QStringLiteral("&wait=%1").arg(waitSeconds);
	const Answer answer = [this](int status, const QJsonObject &body, const QString &) {
		held_ = nullptr;
		polling_ = false;
		if (status != 200)
			return failed(status);
		commentsArrived(body);
	};
	if (!port_)
		return answer(0, QJsonObject(), QString());
	whenProven(
		[this, path, wait, answer] {
			// Hidden while the hello was out: nothing is sent (shown again, it asks anew).
			if (!active_) {
				polling_ = false;
				return;
			}
			held_ = net_->get(request(path, wait ? waitSeconds * 1000 + timeoutMs : timeoutMs));
			await(held_, answer);
		},
		answer);
}

void ControlClient::commentsArrived(const QJsonObject &body)
{
	waits_ = body.value(QStringLiteral("seq")).isDouble();
	if (waits_) {
		const qint64 seq = static_cast<qint64>(body.value(QStringLiteral("seq")).toDouble());
		// A seq below the since asked with: the server started again (it counts from 1).
		if (!fresh_ && seq < sentSince_) {
			fresh_ = stateStale_ = true;
			return schedule(0);
		}
		newsSeq_ = seq;
		if (static_cast<qint64>(body.value(QStringLiteral("state_seq")).toDouble()) > stateSeq_)
			stateStale_ = true;
	}
	// The boards are read on the first answer from a server (it may be another one, or one that
	// started again) and when boards_seq moved; a renderer without boards_seq never moves it.
	if (fresh_)
		boardsStale_ = true;
	const QJsonValue boardsSeq = body.value(QStringLiteral("boards_seq"));
	if (boardsSeq.isDouble() && static_cast<qint64>(boardsSeq.toDouble()) != boardsSeq_) {
		boardsSeq_ = static_cast<qint64>(boardsSeq.toDouble());
		boardsStale_ = true;
	}
	QVector<Comment> comments;
	// A first read that found nothing is followed at once by the held request: the first comment
	// then shows without the pause (the pause gathers a busy chat's news into batches).
	const bool firstRead = fresh_ && waits_;
	if (fresh_)
		commentSeq_ = 0;
	for (const QJsonValue &value : body.value(QStringLiteral("comments")).toArray()) {
		if (std::optional<Comment> comment = Comment::fromJson(value.toObject())) {
			commentSeq_ = qMax(commentSeq_, comment->seq);
			comments.push_back(std::move(*comment));
		}
	}
	QVector<Removal> removals;
	for (const QJsonValue &value : body.value(QStringLiteral("removed")).toArray()) {
		if (std::optional<Removal> removal = Removal::fromJson(value.toObject())) {
			commentSeq_ = qMax(commentSeq_, removal->seq);
			removals.push_back(std::move(*removal));
		}
	}
	// The server no longer keeps every removal since the last poll: every row goes, all is read anew.
	const bool reread = !fresh_ && !body.value(QStringLiteral("removed_complete")).toBool(true);
	if (reread)
		removals = {Removal()};
	fresh_ = reread;
	failures_ = 0;
	setState(State::Live);
	if (!removals.isEmpty() && on.removed)
		on.removed(removals);
	if (!comments.isEmpty() && on.comments)
		on.comments(comments);
	if (boardsStale_ && on.boards) {
		boardsStale_ = false;
		on.boards();
	}
	schedule(reread || (firstRead && comments.isEmpty() && removals.isEmpty()) ? 0 : pollMs);
}

void ControlClient::failed(int status)
{
	forgetProof();
	if (status == 401 || (status == 0 && refusedAs_ == State::NotRenderer))
		token_.clear(); // read again: the file may have been made anew
	if (status == 0 && refusedAs_ != State::Idle)
		setState(refusedAs_);
	else
		setState(status == 401 ? State::TokenRefused : State::Unreachable);
	refusedAs_ = State::Idle;
	fresh_ = stateStale_ = true;
	++failures_;
	schedule(qMin(5000, 1000 << qMin(failures_ - 1, 3)));
}
