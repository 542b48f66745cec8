// SPDX-License-Identifier: GPL-2.0-or-later
#include "dock-panel.h"

#include "audience-panel.h"
#include "chat-delegate.h"
#include "chat-model.h"
#include "control-client.h"
#include "dock-widgets.h"
#include "source-directory.h"
#include "viewer-dialogs.h"

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

namespace {

constexpr int pinnedTextLimit = 300;
constexpr int searchLimit = 200;

bool atBottom(const QListView *view)
{
	const QScrollBar *bar = view->verticalScrollBar();
	return bar->value() >= bar->maximum() - 4;
}

QJsonObject viewerOf(const Comment &c)
{
	return QJsonObject{{QStringLiteral("platform"), c.platform},
			   {QStringLiteral("channel"), c.channel},
			   {QStringLiteral("user"), c.user}};
}

} // namespace

DockPanel::DockPanel(SourceDirectory *directory, Texts texts, QString tokenPath, const QString &settingsPath, QWidget *parent)
	: QWidget(parent), directory_(directory), texts_(texts), client_(new ControlClient(std::move(tokenPath), this)),
	  live_(new ChatModel(keptRows, this)), results_(new ChatModel(keptRows, this)), settingsTimer_(new QTimer(this)),
	  dockSettings_(settingsPath)
{
	setObjectName(QStringLiteral("commentbar-dock-panel"));
	build();
	restoreAudience();
	client_->on.comments = [this](const QVector<Comment> &comments) { commentsArrived(comments); };
	client_->on.removed = [this](const QVector<Removal> &removals) { live_->remove(removals); };
	client_->on.pin = [this](const std::optional<Comment> &pin) { showPin(pin); };
	client_->on.state = [this](ControlClient::State) { showState(); };
	client_->on.boards = [this] { audience_->boardsMoved(); };
	client_->on.streams = [this](const QString &streams) {
		if (streams != streams_) {
			streams_ = streams;
			showState();
		}
	};
	directory_->changed = [this] { refreshSources(); };
	settingsTimer_->setInterval(settingsCheckMs);
	connect(settingsTimer_, &QTimer::timeout, this, [this] { refreshSources(); });
	refreshSources();
}

DockPanel::~DockPanel()
{
	directory_->changed = nullptr;
	delete directory_;
}

void DockPanel::build()
{
	auto *layout = new QVBoxLayout(this);
	layout->setContentsMargins(4, 4, 4, 4);
	layout->setSpacing(4);

	picker_ = new QComboBox(this);
	picker_->setObjectName(QStringLiteral("commentbar-picker"));
	picker_->setAccessibleName(texts_("Dock.Source"));
	picker_->setToolTip(texts_("Dock.Source"));
	connect(picker_, QOverload<int>::of(&QComboBox::activated), this, [this](int index) { picked(index); });
	layout->addWidget(picker_);

	auto *statusRow = new QHBoxLayout;
	status_ = plainLabel(this);
	status_->setObjectName(QStringLiteral("commentbar-status"));
	turnOn_ = button(texts_("Dock.TurnOn"), this);
	turnOn_->setObjectName(QStringLiteral("commentbar-turn-on"));
	turnOn_->hide();
	connect(turnOn_, &QPushButton::clicked, this, [this] {
		if (!sourceName_.isEmpty())
			directory_->turnControlOn(sourceName_);
		checkSource();
	});
	statusRow->addWidget(status_, 1);
	statusRow->addWidget(turnOn_);
	layout->addLayout(statusRow);

	auto *tools = new QHBoxLayout;
	skip_ = button(texts_("Dock.Skip"), this);
	skip_->setObjectName(QStringLiteral("commentbar-skip"));
	skip_->setToolTip(texts_("Dock.Skip.Tip"));
	connect(skip_, &QPushButton::clicked, this, [this] { command(QStringLiteral("/api/speech/skip"), {}); });
	pause_ = button(texts_("Dock.Pause"), this);
	pause_->setObjectName(QStringLiteral("commentbar-pause"));
	pause_->setCheckable(true);
	pause_->setToolTip(texts_("Dock.Pause.Tip"));
	connect(pause_, &QPushButton::clicked, this, [this] { togglePause(); });
	search_ = new QLineEdit(this);
	search_->setObjectName(QStringLiteral("commentbar-search"));
	search_->setPlaceholderText(texts_("Dock.Search"));
	search_->setAccessibleName(texts_("Dock.Search"));
	search_->setClearButtonEnabled(true);
	connect(search_, &QLineEdit::returnPressed, this, [this] { search(); });
	back_ = button(texts_("Dock.Back"), this);
	back_->setObjectName(QStringLiteral("commentbar-back"));
	back_->hide();
	connect(back_, &QPushButton::clicked, this, [this] { backToLive(); });
	// The control page in the browser, through the same one-time link as the source's button
	// (a private file for xdg-open: no code in any command line).
	openPage_ = button(texts_("Dock.OpenPage"), this);
	openPage_->setObjectName(QStringLiteral("commentbar-open-page"));
	openPage_->setToolTip(texts_("Dock.OpenPage.Tip"));
	connect(openPage_, &QPushButton::clicked, this, [this] {
		client_->openPage([this](const QString &problem) {
			setNotice(problem.isEmpty() ? QString()
						    : texts_("Dock.Failed") + QStringLiteral(": ") + defused(problem, 200));
		});
	});
	tools->addWidget(skip_);
	tools->addWidget(pause_);
	tools->addStretch(1);
	tools->addWidget(openPage_);
	layout->addLayout(tools);
	auto *searchRow = new QHBoxLayout;
	searchRow->addWidget(search_, 1);
	searchRow->addWidget(back_);
	layout->addLayout(searchRow);

	pinnedBox_ = new QWidget(this);
	pinnedBox_->setObjectName(QStringLiteral("commentbar-pinned"));
	auto *pinnedRow = new QHBoxLayout(pinnedBox_);
	pinnedRow->setContentsMargins(8, 0, 0, 0); // clear of the amber border
	auto *pinnedTitle = plainLabel(pinnedBox_);
	pinnedTitle->setText(texts_("Dock.Pinned"));
	pinnedTitle->setWordWrap(false);
	pinnedText_ = plainLabel(pinnedBox_);
	pinnedText_->setObjectName(QStringLiteral("commentbar-pinned-text"));
	pinnedUnpin_ = button(texts_("Dock.Unpin"), pinnedBox_);
	pinnedUnpin_->setObjectName(QStringLiteral("commentbar-pinned-unpin"));
	connect(pinnedUnpin_, &QPushButton::clicked, this, [this] { unpin(); });
	pinnedRow->addWidget(pinnedTitle);
	pinnedRow->addWidget(pinnedText_, 1);
	pinnedRow->addWidget(pinnedUnpin_);
	pinnedBox_->setAttribute(Qt::WA_StyledBackground);
	pinnedBox_->setStyleSheet(QStringLiteral("#commentbar-pinned { border-left: 4px solid #ffb300; }"));
	pinnedBox_->hide();
	layout->addWidget(pinnedBox_);

	views_ = new QStackedWidget(this);
	liveView_ = makeView(live_);
	liveView_->setObjectName(QStringLiteral("commentbar-chat"));
	resultsView_ = makeView(results_);
	resultsView_->setObjectName(QStringLiteral("commentbar-results"));
	views_->addWidget(liveView_);
	views_->addWidget(resultsView_);
	// The live chat at its newest row stays there when its range grows under it: rows came, or the
	// view got shorter (the Audience part opened, the splitter dragged), which leaves the scroll
	// value where it was and would stop the following.
	QScrollBar *chatBar = liveView_->verticalScrollBar();
	connect(chatBar, &QScrollBar::valueChanged, this, [this] { chatAtBottom_ = atBottom(liveView_); });
	connect(chatBar, &QScrollBar::rangeChanged, this, [this] {
		if (chatAtBottom_)
			liveView_->scrollToBottom();
	});
	// The chat with its rows' buttons above the Audience part, sharing the height through a
	// splitter the streamer can drag.
	chatAndAudience_ = new QSplitter(Qt::Vertical, this);
	chatAndAudience_->setChildrenCollapsible(false);
	auto *chatPart = new QWidget(chatAndAudience_);
	auto *chatLayout = new QVBoxLayout(chatPart);
	chatLayout->setContentsMargins(0, 0, 0, 0);
	chatLayout->setSpacing(layout->spacing());
	chatLayout->addWidget(views_, 1);
	layout->addWidget(chatAndAudience_, 1);

	auto *actions = new QHBoxLayout;
	pin_ = button(texts_("Dock.Pin"), this);
	pin_->setObjectName(QStringLiteral("commentbar-pin"));
	connect(pin_, &QPushButton::clicked, this, [this] {
		const Comment *c = selected();
		if (c && c->id == live_->pinnedId())
			unpin();
		else
			pinSelected();
	});
	nickname_ = button(texts_("Dock.Nickname"), this);
	nickname_->setObjectName(QStringLiteral("commentbar-nickname"));
	connect(nickname_, &QPushButton::clicked, this, [this] { editNickname(); });
	colour_ = button(texts_("Dock.Colour"), this);
	colour_->setObjectName(QStringLiteral("commentbar-colour"));
	connect(colour_, &QPushButton::clicked, this, [this] { editColour(); });
	voice_ = button(texts_("Dock.Voice"), this);
	voice_->setObjectName(QStringLiteral("commentbar-voice"));
	connect(voice_, &QPushButton::clicked, this, [this] { editVoice(); });
	hide_ = button(texts_("Dock.Hide"), this);
	hide_->setObjectName(QStringLiteral("commentbar-hide"));
	connect(hide_, &QPushButton::clicked, this, [this] { toggleHidden(); });
	// Two rows, the comment's and its viewer's: five buttons in one would make the dock wider than
	// OBS gives it beside the preview.
	auto *commentActions = new QHBoxLayout;
	commentActions->addWidget(pin_);
	commentActions->addStretch(1);
	chatLayout->addLayout(commentActions);
	for (QPushButton *action : {nickname_, colour_, voice_, hide_})
		actions->addWidget(action);
	chatLayout->addLayout(actions);
	audience_ = new AudiencePanel(
		texts_, client_,
		[this](const QString &path, const QJsonObject &body, std::function<void(const QJsonObject &)> onOk) {
			command(path, body, std::move(onOk));
		},
		chatAndAudience_);
	chatAndAudience_->addWidget(chatPart);
	chatAndAudience_->addWidget(audience_);
	chatAndAudience_->setStretchFactor(0, 1);
	chatAndAudience_->setStretchFactor(1, 0);
	notice_ = plainLabel(this);
	notice_->setObjectName(QStringLiteral("commentbar-notice"));
	notice_->hide();
	layout->addWidget(notice_);
	selectionChanged();
}

QListView *DockPanel::makeView(ChatModel *model)
{
	auto *view = new QListView(this);
	view->setModel(model);
	view->setItemDelegate(new ChatDelegate(view, texts_("Dock.First"), texts_("Dock.WelcomeBack")));
	view->setSelectionMode(QAbstractItemView::SingleSelection);
	view->setResizeMode(QListView::Adjust);
	view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
	view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
	view->setUniformItemSizes(false);
	view->setAccessibleName(texts_("Dock.Chat"));
	view->setToolTip(texts_("Dock.Chat.Tip"));
	view->installEventFilter(this);
	connect(view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] { selectionChanged(); });
	connect(model, &QAbstractItemModel::dataChanged, this, [this] { selectionChanged(); });
	return view;
}

void DockPanel::refreshSources()
{
	if (shutDown_)
		return;
	const QVector<BarSource> sources = directory_->list();
	QStringList names;
	for (const BarSource &source : sources)
		names << source.name;
	QStringList shown;
	for (int i = 0; i < picker_->count(); ++i)
		shown << picker_->itemText(i);
	if (names != shown) { // made again only when it changed: an open list stays open
		picker_->blockSignals(true);
		picker_->clear();
		picker_->addItems(names);
		picker_->blockSignals(false);
	}
	const int chosen = names.indexOf(sourceName_);
	if (sources.isEmpty()) {
		sourceName_.clear();
		live_->clear();
		client_->follow(0);
		control_.reset();
		showState();
		return;
	}
	picked(chosen >= 0 ? chosen : 0);
}

void DockPanel::picked(int index)
{
	const QString name = picker_->itemText(index);
	picker_->setCurrentIndex(index);
	if (name != sourceName_) {
		sourceName_ = name;
		live_->clear();
		live_->setPinnedId(QString());
		audience_->forget();
		client_->follow(0);
		backToLive();
	}
	checkSource();
}

void DockPanel::checkSource()
{
	if (shutDown_)
		return;
	const std::optional<BarSource> source = sourceName_.isEmpty() ? std::nullopt : directory_->find(sourceName_);
	if (!source) { // renamed or removed: the next refresh (OBS's signal, or the next second) picks again
		control_.reset();
		client_->follow(0);
		showState();
		return;
	}
	control_ = source->control;
	client_->follow(source->control ? source->port : 0);
	showState();
}

void DockPanel::showState()
{
	turnOn_->setVisible(control_.has_value() && !*control_);
	QString text;
	if (!control_)
		text = texts_("Dock.NoSource");
	else if (!*control_)
		text = texts_("Dock.ControlOff");
	else {
		switch (client_->state()) {
		case ControlClient::State::Live:
			text = texts_("Dock.Live") + (streams_.isEmpty() ? QString() : QStringLiteral(": ") + streams_);
			break;
		case ControlClient::State::NoToken:
			text = texts_("Dock.NoToken");
			break;
		case ControlClient::State::TokenRefused:
			text = texts_("Dock.TokenRefused");
			break;
		case ControlClient::State::Unreachable:
			text = texts_("Dock.Unreachable").arg(client_->port());
			break;
		case ControlClient::State::NotRenderer:
			text = texts_("Dock.NotRenderer").arg(client_->port());
			break;
		case ControlClient::State::PortUnbound:
			text = texts_("Dock.PortUnbound").arg(client_->port());
			break;
		default:
			text = texts_("Dock.Connecting");
			break;
		}
	}
	status_->setText(text);
}

void DockPanel::showPin(const std::optional<Comment> &pin)
{
	const QString id = pin ? pin->id : QString();
	live_->setPinnedId(id);
	results_->setPinnedId(id);
	pinnedBox_->setVisible(pin.has_value());
	pinnedText_->setText(pin ? defused(pin->line(), pinnedTextLimit) : QString());
}

void DockPanel::commentsArrived(const QVector<Comment> &comments)
{
	const bool follow = atBottom(liveView_);
	live_->append(comments);
	if (follow)
		liveView_->scrollToBottom();
}

QListView *DockPanel::currentView() const
{
	return views_->currentWidget() == resultsView_ ? resultsView_ : liveView_;
}

const Comment *DockPanel::selected() const
{
	const QListView *view = currentView();
	const QModelIndex index = view->currentIndex();
	return index.isValid() ? static_cast<const ChatModel *>(view->model())->at(index.row()) : nullptr;
}

void DockPanel::selectionChanged()
{
	const Comment *c = selected();
	for (QPushButton *action : {pin_, nickname_, colour_, voice_, hide_})
		action->setEnabled(c != nullptr);
	pin_->setText(c && c->id == live_->pinnedId() ? texts_("Dock.Unpin") : texts_("Dock.Pin"));
	hide_->setText(c && live_->isHidden(c->viewerKey()) ? texts_("Dock.Show") : texts_("Dock.Hide"));
}

void DockPanel::command(const QString &path, const QJsonObject &body, std::function<void(const QJsonObject &)> onOk)
{
	client_->post(path, body, [this, onOk](int status, const QJsonObject &answer, const QString &error) {
		if (status < 200 || status >= 300) {
			QString text = texts_("Dock.Failed");
			if (status)
				text += QStringLiteral(" (%1)").arg(status);
			if (!error.isEmpty())
				text += QStringLiteral(": ") + defused(error, 200);
			return setNotice(text);
		}
		setNotice(QString());
		if (onOk)
			onOk(answer);
	});
}

void DockPanel::restoreAudience()
{
	const DockSettings::Audience kept = dockSettings_.audience();
	audience_->showTab(kept.tab);
	audience_->setExpanded(kept.open);
	audienceSharePending_ = kept.open;
	audience_->expandedChanged = [this](bool expanded) {
		audienceOpened(expanded);
		keepAudience();
	};
	audience_->tabChanged = [this](const QString &) { keepAudience(); };
}

void DockPanel::keepAudience()
{
	dockSettings_.setAudience({audience_->expanded(), audience_->tab()});
}

void DockPanel::audienceOpened(bool expanded)
{
	audienceSharePending_ = false;
	if (!expanded)
		return; // the splitter gives the chat what the header no longer takes
	// Opened: as much as the part asks for, up to most of the height; the chat keeps the rest.
	const int height = chatAndAudience_->height();
	if (height <= 0) {
		audienceSharePending_ = true;
		return;
	}
	const int audience = qMin(audience_->sizeHint().height(), height * audienceShare / 100);
	chatAndAudience_->setSizes({height - audience, audience});
}

void DockPanel::setNotice(const QString &text)
{
	notice_->setText(text);
	notice_->setVisible(!text.isEmpty());
}

void DockPanel::pinSelected()
{
	if (const Comment *c = selected()) {
		// Shown at once from the row (the next /api/state, within 2 s, says the same).
		const Comment pinned = *c;
		command(QStringLiteral("/api/pin"), QJsonObject{{QStringLiteral("id"), pinned.id}},
			[this, pinned](const QJsonObject &) { showPin(pinned); });
	}
}

void DockPanel::unpin()
{
	const QString id = live_->pinnedId();
	command(QStringLiteral("/api/unpin"), id.isEmpty() ? QJsonObject() : QJsonObject{{QStringLiteral("id"), id}},
		[this](const QJsonObject &) { showPin(std::nullopt); });
}

void DockPanel::toggleHidden()
{
	const Comment *c = selected();
	if (!c)
		return;
	const QString key = c->viewerKey();
	const bool hidden = !live_->isHidden(key);
	QJsonObject body = viewerOf(*c);
	body.insert(QStringLiteral("hidden"), hidden);
	command(QStringLiteral("/api/viewer"), body, [this, key, hidden](const QJsonObject &) {
		live_->setHidden(key, hidden);
		results_->setHidden(key, hidden);
	});
}

void DockPanel::editViewer(const char *field, const std::function<std::optional<QString>(const Comment &)> &ask)
{
	const Comment *c = selected();
	if (!c)
		return;
	const Comment viewer = *c; // the rows may go while the dialog is open
	const std::optional<QString> value = ask(viewer);
	if (!value || shutDown_)
		return;
	QJsonObject body = viewerOf(viewer);
	body.insert(QLatin1String(field), *value);
	command(QStringLiteral("/api/viewer"), body);
}

void DockPanel::editNickname()
{
	editViewer("nickname", [this](const Comment &c) { return askNickname(this, texts_, c.name, c.nickname); });
}

void DockPanel::editColour()
{
	editViewer("colour", [this](const Comment &c) { return askColour(this, texts_, c.shownName(), c.colour); });
}

void DockPanel::editVoice()
{
	editViewer("voice", [this](const Comment &c) { return askVoice(this, texts_, c.shownName()); });
}

void DockPanel::togglePause()
{
	const bool paused = pause_->isChecked();
	command(QStringLiteral("/api/speech/pause"), QJsonObject{{QStringLiteral("paused"), paused}},
		[this](const QJsonObject &answer) { pause_->setChecked(answer.value(QStringLiteral("paused")).toBool()); });
}

void DockPanel::search()
{
	const QString text = search_->text().trimmed();
	if (text.isEmpty())
		return backToLive();
	const QString query = QString::fromLatin1(QUrl::toPercentEncoding(text.left(200)));
	client_->get(QStringLiteral("/api/search?limit=%1&q=%2").arg(searchLimit).arg(query),
		     [this](int status, const QJsonObject &body, const QString &error) {
			     if (status != 200) {
				     setNotice(texts_("Dock.Failed") + QStringLiteral(" (%1)").arg(status) +
					       (error.isEmpty() ? QString() : QStringLiteral(": ") + defused(error, 200)));
				     return;
			     }
			     QVector<Comment> found;
			     for (const QJsonValue &value : body.value(QStringLiteral("comments")).toArray()) {
				     if (std::optional<Comment> c = Comment::fromJson(value.toObject()))
					     found.push_back(std::move(*c));
			     }
			     results_->replaceAll(found);
			     results_->setPinnedId(live_->pinnedId());
			     views_->setCurrentWidget(resultsView_);
			     back_->show();
			     setNotice(texts_("Dock.Found").arg(found.size()));
			     selectionChanged();
		     });
}

void DockPanel::backToLive()
{
	views_->setCurrentWidget(liveView_);
	back_->hide();
	results_->clear();
	setNotice(QString());
	liveView_->scrollToBottom();
	selectionChanged();
}

bool DockPanel::eventFilter(QObject *watched, QEvent *event)
{
	if ((watched == liveView_ || watched == resultsView_) && event->type() == QEvent::KeyPress) {
		const auto *key = static_cast<QKeyEvent *>(event);
		if (key->modifiers() & ~(Qt::KeypadModifier | Qt::ShiftModifier))
			return QWidget::eventFilter(watched, event);
		switch (key->key()) {
		case Qt::Key_P:
			pinSelected();
			return true;
		case Qt::Key_U:
			unpin();
			return true;
		case Qt::Key_H:
			toggleHidden();
			return true;
		case Qt::Key_N:
			editNickname();
			return true;
		case Qt::Key_V:
			editVoice();
			return true;
		default:
			break;
		}
	}
	return QWidget::eventFilter(watched, event);
}

void DockPanel::showEvent(QShowEvent *event)
{
	QWidget::showEvent(event);
	if (shutDown_)
		return;
	shareAudience();
	checkSource();
	settingsTimer_->start();
	client_->setActive(true);
}

void DockPanel::hideEvent(QHideEvent *event)
{
	QWidget::hideEvent(event);
	settingsTimer_->stop();
	client_->setActive(false);
}

void DockPanel::resizeEvent(QResizeEvent *event)
{
	QWidget::resizeEvent(event);
	// The layout has given the splitter its height already (QLayout takes the resize first).
	shareAudience();
}

void DockPanel::shareAudience()
{
	if (audienceSharePending_ && audience_->expanded() && isVisible() && chatAndAudience_->height() > 0)
		audienceOpened(true);
}

void DockPanel::changeEvent(QEvent *event)
{
	QWidget::changeEvent(event);
	if (event->type() != QEvent::FontChange && event->type() != QEvent::StyleChange &&
	    event->type() != QEvent::PaletteChange)
		return;
	for (ChatModel *model : {live_, results_})
		model->forgetHeights();
	for (QListView *view : {liveView_, resultsView_}) {
		if (!view)
			continue;
		if (auto *delegate = dynamic_cast<ChatDelegate *>(view->itemDelegate()))
			delegate->forgetDrawn();
		view->doItemsLayout();
	}
}

void DockPanel::shutDown()
{
	shutDown_ = true;
	settingsTimer_->stop();
	audience_->shutDown();
	client_->setActive(false);
	client_->follow(0);
	directory_->changed = nullptr;
}
