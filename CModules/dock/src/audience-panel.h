// SPDX-License-Identifier: GPL-2.0-or-later
// AudiencePanel: the dock's compact "Audience" part under the chat (issue 48): the poll, the 参加型
// queue and the giveaway, a tab each, behind a header that opens and closes them (closed at first:
// the chat stays the dock's main thing; then as the streamer left it, dock-settings.h). It does
// what the control page's audience panel does (Sources/CommentBarControl/Assets/audience.js, the
// same request bodies) through the dock's ControlClient and its commands: failures on the dock's
// notice line. In the queue's list the selected viewer stays selected as the list is read again,
// so Remove and the arrows that move a waiting viewer up or down the line (POST /api/queue/move)
// can be pressed one after the other.
// Cost (issue 49): the boards (GET /api/poll, /api/queue, /api/giveaway) are read only when the
// client says they may have changed (on.boards: the answers' boards_seq moved, or a first answer
// from a server) and after a command of its own, and only while the tabs are shown: told while
// they are closed or the dock hidden, it reads once when they are shown again. Its one timer counts
// a timed poll's or giveaway's seconds down, once a second, only while that tab is shown and the
// clock runs.
#pragma once

#include "boards.h"
#include "texts.h"

#include <QJsonObject>
#include <QVector>
#include <QWidget>

#include <functional>
#include <optional>

class ControlClient;
class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTimer;
class QToolButton;

class AudiencePanel : public QWidget {
public:
	// POST PATH with BODY; ON_OK gets the answer, a failure goes to the notice line (DockPanel::command).
	using Command = std::function<void(const QString &path, const QJsonObject &body,
					   std::function<void(const QJsonObject &)> onOk)>;

	static constexpr int shownWaiting = 5; // the waiting viewers listed; the others are counted
	static constexpr int optionRows = 9;   // a poll has 2 to 9 answers

	AudiencePanel(Texts texts, ControlClient *client, Command command, QWidget *parent);

	// The boards may have changed: read now when shown, else once when shown.
	void boardsMoved();
	// Another source is followed: what is shown was the other one's.
	void forget();
	// OBS is leaving: no more reads, the clock stopped.
	void shutDown();

	bool expanded() const;
	void setExpanded(bool expanded);
	// Opened or closed (the dock gives the opened part its height).
	std::function<void(bool expanded)> expandedChanged;

	// The tab shown, by name: "poll", "queue" or "giveaway" (names, not places: a tab added later
	// does not turn a kept choice into another tab).
	QString tab() const;
	// Shows the tab of that name; an unknown name shows the first.
	void showTab(const QString &name);
	// Another tab was shown.
	std::function<void(const QString &tab)> tabChanged;

protected:
	void showEvent(QShowEvent *event) override;
	void hideEvent(QHideEvent *event) override;

private:
	// The answer of a read or a command, shown unless an answer asked for later is shown already.
	struct Freshness {
		quint64 shown = 0;
	};
	// A row of the queue's list: a viewer playing or waiting, by their place in that list.
	struct QueueRow {
		bool playing = false;
		int index = 0;
	};

	QWidget *buildPoll();
	QWidget *buildQueue();
	QWidget *buildGiveaway();
	bool boardsShown() const;
	void readBoards();
	void readPoll();
	void readQueue();
	void readGiveaway();
	bool takes(Freshness &board, quint64 asked);
	void showPoll(const std::optional<Poll> &poll);
	void showQueue(const Queue &queue);
	void showGiveaway(const std::optional<Giveaway> &giveaway);
	// The seconds left on the poll and the giveaway; the clock runs while one of them is shown counting.
	void showClocks();
	void startPoll();
	void openQueue();
	// The selected row of the queue's list, if it is one of queue_'s viewers.
	std::optional<QueueRow> selectedQueueRow() const;
	const BoardViewer &viewerAt(const QueueRow &row) const;
	// The list's row of VIEWER (known by platform, channel and user), or -1 when they are not listed.
	int listRowOf(const BoardViewer &viewer) const;
	// Remove and the arrows follow the selection.
	void queueSelectionChanged();
	void removeSelected();
	// Moves the selected waiting viewer PLACES along the line (negative: towards the front).
	void moveSelected(int places);
	void startGiveaway();

	Texts texts_;
	ControlClient *client_;
	Command command_;
	QTimer *clock_;
	bool stale_ = true; // the boards were not read since they may have changed
	bool shutDown_ = false;
	quint64 asked_ = 0; // reads and answers, numbered in the order asked
	Freshness pollRead_, queueRead_, giveawayRead_;
	std::optional<Poll> poll_;
	Queue queue_;
	std::optional<Giveaway> giveaway_;

	QToolButton *toggle_ = nullptr;
	QTabWidget *tabs_ = nullptr;
	QWidget *pollPage_ = nullptr;
	QWidget *giveawayPage_ = nullptr;

	QLabel *pollQuestion_ = nullptr;
	QLabel *pollState_ = nullptr;
	QVector<QLabel *> optionLabels_;
	QVector<QProgressBar *> optionBars_;
	QPushButton *pollClose_ = nullptr;
	QPushButton *pollDismiss_ = nullptr;
	QWidget *pollForm_ = nullptr;
	QLineEdit *questionField_ = nullptr;
	QPlainTextEdit *optionsField_ = nullptr;
	QSpinBox *pollSeconds_ = nullptr;
	QCheckBox *pollLatest_ = nullptr;
	QCheckBox *pollBareNumbers_ = nullptr;
	QPushButton *pollStart_ = nullptr;

	QLabel *queueState_ = nullptr;
	QListWidget *queueList_ = nullptr;
	QLabel *queueMore_ = nullptr;
	QPushButton *queueNext_ = nullptr;
	QSpinBox *queueCount_ = nullptr;
	QPushButton *queueDone_ = nullptr;
	QPushButton *queueRemove_ = nullptr;
	QToolButton *queueUp_ = nullptr;
	QToolButton *queueDown_ = nullptr;
	QSpinBox *queueCapacity_ = nullptr;
	QCheckBox *queueFirstTime_ = nullptr;
	QSpinBox *queueMinStreams_ = nullptr;
	QCheckBox *queueMembersOnly_ = nullptr;
	QLineEdit *queueJoin_ = nullptr;
	QLineEdit *queueLeave_ = nullptr;
	QPushButton *queueOpen_ = nullptr;
	QPushButton *queueClose_ = nullptr;

	QLabel *giveawayState_ = nullptr;
	QListWidget *winners_ = nullptr;
	QPushButton *draw_ = nullptr;
	QPushButton *giveawayDismiss_ = nullptr;
	QLineEdit *wordField_ = nullptr;
	QSpinBox *giveawaySeconds_ = nullptr;
	QSpinBox *giveawayMinComments_ = nullptr;
	QCheckBox *giveawayFirstTime_ = nullptr;
	QPushButton *giveawayStart_ = nullptr;
};
