// SPDX-License-Identifier: GPL-2.0-or-later
// DockPanel: what the "Comment Bar" dock shows. At the top the picker of Comment Bar sources and a
// status line (with a button that turns the control page on when it is off), Skip and Pause speech,
// the search box and the pinned comment; then the chat, newest at the bottom; then the selected
// row's Pin/Unpin, Nickname, Colour, Voice and Hide; then the Audience part (the poll, the 参加型
// queue, the giveaway: audience-panel.h), closed at first and then open or closed, on the tab, as
// the streamer left it (dock-settings.h). Keys on the chat: Up/Down choose a row, P pins,
// U unpins, H hides (or shows) the viewer, N edits the nickname, V the voice. A deletion, ban or
// clear takes its rows out of the live chat at the next poll. It follows the chosen source's
// control API with a ControlClient only while it is shown.
#pragma once

#include "dock-settings.h"
#include "texts.h"

#include <QWidget>

#include <functional>
#include <optional>

class AudiencePanel;
class ChatModel;
class ControlClient;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTimer;
class SourceDirectory;
struct Comment;

class DockPanel : public QWidget {
public:
	static constexpr int keptRows = 500;
	static constexpr int settingsCheckMs = 1000;
	// The Audience part opened takes up to this share (%) of the height below the search box.
	static constexpr int audienceShare = 55;

	// TOKEN_PATH: the control API's token file; SETTINGS_PATH: the dock's settings file (empty:
	// nothing kept). The panel owns DIRECTORY.
	DockPanel(SourceDirectory *directory, Texts texts, QString tokenPath, const QString &settingsPath,
		  QWidget *parent = nullptr);
	~DockPanel() override;

	// The sources may have changed (OBS's events, and each second while shown: OBS signals a new
	// source before it lists it): the picker follows, the choice kept; the chosen source's
	// settings are read again (a port moved, the control page turned off or on).
	void refreshSources();
	// OBS is leaving: no more requests, timers or looks at sources.
	void shutDown();

	// For the tests: what is shown.
	ChatModel *liveModel() const { return live_; }
	ChatModel *resultsModel() const { return results_; }
	QListView *liveView() const { return liveView_; }
	AudiencePanel *audience() const { return audience_; }

protected:
	void showEvent(QShowEvent *event) override;
	void hideEvent(QHideEvent *event) override;
	void resizeEvent(QResizeEvent *event) override;
	// OBS's theme changed the font or style: every row is laid out again.
	void changeEvent(QEvent *event) override;
	bool eventFilter(QObject *watched, QEvent *event) override;

private:
	void build();
	QListView *makeView(ChatModel *model);
	void picked(int index);
	void checkSource();
	void showState();
	void showPin(const std::optional<Comment> &pin);
	void commentsArrived(const QVector<Comment> &comments);
	void selectionChanged();
	QListView *currentView() const;
	const Comment *selected() const;
	void pinSelected();
	void unpin();
	void toggleHidden();
	// Asks (a dialog) about the selected row's viewer; FIELD of /api/viewer set to the answer.
	void editViewer(const char *field, const std::function<std::optional<QString>(const Comment &)> &ask);
	void editNickname();
	void editColour();
	void editVoice();
	void togglePause();
	void search();
	void backToLive();
	// POST PATH with BODY; ON_OK with the answer, or the failure on the notice line.
	void command(const QString &path, const QJsonObject &body, std::function<void(const QJsonObject &)> onOk = {});
	void setNotice(const QString &text);
	void audienceOpened(bool expanded);
	// The Audience part as it was left (opened or not, its tab), and kept as it changes.
	void restoreAudience();
	void keepAudience();
	// Restored open: its share of the height once the splitter has one (shown and laid out).
	void shareAudience();

	SourceDirectory *directory_;
	Texts texts_;
	ControlClient *client_;
	ChatModel *live_;
	ChatModel *results_;
	QTimer *settingsTimer_;
	QComboBox *picker_ = nullptr;
	QLabel *status_ = nullptr;
	QPushButton *turnOn_ = nullptr;
	QPushButton *skip_ = nullptr;
	QPushButton *pause_ = nullptr;
	QPushButton *openPage_ = nullptr;
	QLineEdit *search_ = nullptr;
	QPushButton *back_ = nullptr;
	QWidget *pinnedBox_ = nullptr;
	QLabel *pinnedText_ = nullptr;
	QPushButton *pinnedUnpin_ = nullptr;
	QStackedWidget *views_ = nullptr;
	QSplitter *chatAndAudience_ = nullptr;
	QListView *liveView_ = nullptr;
	QListView *resultsView_ = nullptr;
	QPushButton *pin_ = nullptr;
	QPushButton *nickname_ = nullptr;
	QPushButton *colour_ = nullptr;
	QPushButton *voice_ = nullptr;
	QPushButton *hide_ = nullptr;
	QLabel *notice_ = nullptr;
	AudiencePanel *audience_ = nullptr;
	DockSettings dockSettings_;
	// Opened before the splitter had a height (restored at start): it gets its share on the first one.
	bool audienceSharePending_ = false;
	QString sourceName_;
	QString streams_;
	std::optional<bool> control_; // the followed source's control setting (nullopt: no source)
	bool shutDown_ = false;
	bool chatAtBottom_ = true; // the live chat shows its newest row (follows the chat)
};
