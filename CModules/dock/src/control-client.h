// SPDX-License-Identifier: GPL-2.0-or-later
// ControlClient: the dock's side of one Comment Bar source's control API (docs/control-api.md),
// a client like any other tool, never a second server. While active it asks
// GET /api/comments?since=SEQ&wait=25 (SEQ: the answer's seq before), which the renderer holds until
// there is news (a comment, a removal, a new pin or stream state) or 25 s pass; after each answer
// it pauses pollMs (not after a first read that found nothing: the first comment then shows at
// once), so a busy chat costs about one request a second, its comments shown within about a
// second, and an idle one one request per 25 s.
// GET /api/state (the pin, the streams) is read on start, after a failure, when shown again and
// when an answer's state_seq says it changed (a renderer whose answers carry no seq, one from
// before the wait, is polled as then: state before every fourth poll). Commands are POSTs. Every
// request carries the token file's token in an Authorization header
// (the file read with the renderer's own checks: private-file.h), sent only after the server proved
// it is the token's renderer (GET /api/hello, control-hello.h) and never to a port the renderer said
// it could not bind (port-status.h). The proof is kept while the port's status file names the same
// live renderer process that answered the hello (read before each request), for the same port and
// token: one hello per renderer run instead of one per request. Any failure (no answer, a timeout,
// 401), a dropped held request, another port or a file that names no process or another one proves
// the server again; a renderer that writes no status file is proven before every request.
// QNetworkAccessManager shows no connection, so the proof is of the renderer's run, not of one
// connection;
// goes to 127.0.0.1 without a proxy, is asynchronous (QNetworkAccessManager: OBS's UI thread
// never waits on the network) and times out after 3 s (a held request after its wait and 3 s: a
// renderer that hangs while holding it is noticed then). A server that went away or started again
// (its seq went back) is read from since=0; the rows' ids keep that from showing a comment twice.
// The audience's boards (the poll, the queue, the giveaway) are read by their reader (on.boards)
// only when an answer's boards_seq moved, and on the first answer from a server (start, a restart,
// after a failure): never on a timer, so a still chat with still boards costs nothing more. A
// renderer whose answers carry no boards_seq is read that first time only.
#pragma once

#include "comment.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QVector>

#include <functional>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
class QTimer;

class ControlClient : public QObject {
public:
	// NotRenderer: what listens on the port could not prove it is this user's renderer (the
	// hello), so it was sent no token. PortUnbound: the renderer said it could not bind the port.
	enum class State { Idle, Connecting, Live, NoToken, TokenRefused, Unreachable, NotRenderer, PortUnbound };
	// HTTP status (0: no answer), the JSON body, the error's words (the body's "error", or why
	// there was no answer).
	using Answer = std::function<void(int status, const QJsonObject &body, const QString &error)>;

	struct Listener {
		std::function<void(const QVector<Comment> &)> comments;
		// Deletions, bans and clears (given before the comments of the same answer).
		std::function<void(const QVector<Removal> &)> removed;
		std::function<void(const std::optional<Comment> &)> pin;
		std::function<void(State)> state;
		std::function<void(const QString &)> streams; // each stream's state and viewers, one line
		// The poll, the queue or the giveaway may have changed (GET /api/poll, /api/queue,
		// /api/giveaway give them): after the answers' comments and removals.
		std::function<void()> boards;
	};

	// The pause after an answer: a busy chat's news comes in batches, each laid out and painted once.
	// 1 s (500 ms before issue 49) halves the dock's work at 10 comments/s.
	static constexpr int pollMs = 1000;
	static constexpr int waitSeconds = 25;  // how long the renderer may hold a request for news
	static constexpr int statePolls = 4;    // a server without wait: /api/state before every fourth poll
	static constexpr int timeoutMs = 3000;
	static constexpr qint64 bodyLimit = 16 << 20;

	ControlClient(QString tokenPath, QObject *parent);

	// Follows the server on PORT (0: none) from its first comment on.
	void follow(int port);
	int port() const { return port_; }
	// Asks only while active (the dock shown): a hidden dock sends nothing and holds no request.
	void setActive(bool active);
	State state() const { return state_; }

	void get(const QString &pathAndQuery, Answer answer);
	void post(const QString &path, const QJsonObject &body, Answer answer);
	// "Open control page": a one-time link from the renderer (POST /api/page-link, after the
	// hello), opened with xdg-open through a file only this user can read (page-link-file.h), so
	// the link is in no command line. `done` gets an empty string once xdg-open started, else why not.
	void openPage(std::function<void(const QString &problem)> done);

	Listener on;

private:
	QNetworkRequest request(const QString &pathAndQuery, int timeout = timeoutMs) const;
	void await(QNetworkReply *reply, Answer answer);
	void schedule(int ms);
	void poll();
	void stateArrived(const QJsonObject &state);
	void readComments();
	// The request held for news, if one is out, is dropped (hidden, or another port followed).
	void dropHeld();
	void commentsArrived(const QJsonObject &body);
	void failed(int status);
	void setState(State state);
	bool readToken();
	// Runs `send` once the server on the port proved it holds the token (GET /api/hello, see
	// control-hello.h): right before the request that carries the token, or earlier by the same
	// renderer process (the proof kept, above); else answers with status 0.
	void whenProven(std::function<void()> send, Answer answer);
	void forgetProof();

	QNetworkAccessManager *net_;
	QTimer *timer_;
	QString tokenPath_;
	QByteArray token_;
	State state_ = State::Idle;
	State refusedAs_ = State::Idle; // why the last request was not sent (NotRenderer, PortUnbound, NoToken)
	int port_ = 0;
	bool active_ = false;
	bool polling_ = false;
	bool fresh_ = true;        // the next answer comes from a server not read yet: since=0
	bool stateStale_ = true;   // /api/state is read before the next comments
	bool waits_ = false;       // the server's answers carry seq: it holds wait= requests
	QPointer<QNetworkReply> held_; // the comments request out now
	quint64 generation_ = 0;   // answers for an earlier follow() are dropped
	qint64 stateSeq_ = 0;      // /api/state's seq last read
	qint64 commentSeq_ = 0;    // the newest comment's or removal's seq
	qint64 newsSeq_ = 0;       // the last answer's seq: the next since (a server that waits)
	qint64 sentSince_ = 0;     // the since of the comments request out
	qint64 boardsSeq_ = 0;     // the last answer's boards_seq: the newest poll, queue or giveaway event
	bool boardsStale_ = true;  // the boards are to be read again after the next answer
	int failures_ = 0;
	int polls_ = 0;
	// The renderer whose hello held: the process its port's status file named before and after the
	// hello, the port and the token it proved (0: none kept).
	qint64 provenPid_ = 0;
	int provenPort_ = 0;
	QByteArray provenToken_;
};
