// SPDX-License-Identifier: GPL-2.0-or-later
#include "audience-panel.h"

#include "control-client.h"
#include "dock-widgets.h"

#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <iterator>

namespace {

// The API's limits (docs/control-api.md, "Commands"): what the fields let one type.
constexpr int maxSeconds = 86400;
constexpr int maxCapacity = 500;
constexpr int defaultCapacity = 50;
constexpr int maxCalled = 50;
constexpr int maxStreamsSeen = 1000;
constexpr int maxMinComments = 1000;
constexpr int optionsFieldLines = 4;
constexpr int listRows = 4;
const QString separator = QStringLiteral(" \u00B7 ");
// The tabs' names, in their order (AudiencePanel::tab).
const char *const tabNames[] = {"poll", "queue", "giveaway"};

// A tab's page in a scroll area: on a short dock the tab scrolls, the chat above keeps its room.
QScrollArea *scrolled(const char *name, QWidget *page, QWidget *parent)
{
	auto *area = new QScrollArea(parent);
	area->setObjectName(QLatin1String(name));
	area->setWidget(page);
	area->setWidgetResizable(true);
	area->setFrameShape(QFrame::NoFrame);
	area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
	return area;
}

QSpinBox *spinBox(const char *name, int minimum, int maximum, int value, QWidget *parent)
{
	auto *box = new QSpinBox(parent);
	box->setObjectName(QLatin1String(name));
	box->setRange(minimum, maximum);
	box->setValue(value);
	return box;
}

// "Closes after [no limit]": 0 is no limit, else seconds.
QSpinBox *secondsBox(const char *name, const Texts &texts, QWidget *parent)
{
	QSpinBox *box = spinBox(name, 0, maxSeconds, 0, parent);
	box->setSpecialValueText(texts("Dock.NoLimit"));
	box->setSuffix(texts("Dock.SecondsSuffix"));
	box->setAccessibleName(texts("Dock.ClosesAfter"));
	return box;
}

// A line of words (the queue's join or leave words), separated by spaces (an IME's full-width one
// too: Qt's \s is ASCII's) or commas (、 too).
QLineEdit *wordsField(const char *name, const QString &label, const QString &words, QWidget *parent)
{
	auto *field = new QLineEdit(words, parent);
	field->setObjectName(QLatin1String(name));
	field->setAccessibleName(label);
	field->setMaxLength(1100);
	return field;
}

QJsonArray wordsOf(const QString &line)
{
	QJsonArray words;
	for (const QString &word : line.split(QRegularExpression(QStringLiteral("[\\s\u3000,\u3001]+")), Qt::SkipEmptyParts))
		words.append(word);
	return words;
}

QHBoxLayout *row(std::initializer_list<QWidget *> widgets, bool stretch = false)
{
	auto *layout = new QHBoxLayout;
	for (QWidget *widget : widgets)
		layout->addWidget(widget);
	if (stretch)
		layout->addStretch(1);
	return layout;
}

// A tab's page: its widgets one under the other.
QVBoxLayout *pageLayout(QWidget *page)
{
	auto *layout = new QVBoxLayout(page);
	layout->setContentsMargins(2, 4, 2, 2);
	layout->setSpacing(3);
	return layout;
}

// A field's name on one line beside it.
QLabel *fieldName(const QString &text, QWidget *parent)
{
	QLabel *label = plainLabel(parent);
	label->setText(text);
	label->setWordWrap(false);
	return label;
}

QPushButton *namedButton(const char *name, const QString &text, QWidget *parent)
{
	QPushButton *made = button(text, parent);
	made->setObjectName(QLatin1String(name));
	return made;
}

QLabel *namedLabel(const char *name, QWidget *parent)
{
	QLabel *label = plainLabel(parent);
	label->setObjectName(QLatin1String(name));
	return label;
}

// An arrow that moves the selected viewer along the queue's line.
QToolButton *arrowButton(const char *name, Qt::ArrowType arrow, const QString &tip, QWidget *parent)
{
	auto *made = new QToolButton(parent);
	made->setObjectName(QLatin1String(name));
	made->setArrowType(arrow);
	made->setToolTip(tip);
	made->setAccessibleName(tip);
	return made;
}

QListWidget *shortList(const char *name, QWidget *parent)
{
	auto *list = new QListWidget(parent);
	list->setObjectName(QLatin1String(name));
	list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
	list->setTextElideMode(Qt::ElideRight);
	list->setMaximumHeight(list->fontMetrics().height() * (listRows + 1) + 2 * list->frameWidth());
	return list;
}

// Whole seconds until CLOSES_AT (Unix seconds, the renderer's clock: the same machine's); 0 when
// there is no end or it passed.
qint64 secondsLeft(const std::optional<double> &closesAt)
{
	if (!closesAt)
		return 0;
	return qMax<qint64>(0, static_cast<qint64>(std::ceil(*closesAt - QDateTime::currentMSecsSinceEpoch() / 1000.0)));
}

// "1:05 left"; empty when nothing is left.
QString timeLeft(const Texts &texts, qint64 seconds)
{
	if (seconds <= 0)
		return QString();
	return texts("Dock.TimeLeft").arg(QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0')));
}

} // namespace

AudiencePanel::AudiencePanel(Texts texts, ControlClient *client, Command command, QWidget *parent)
	: QWidget(parent), texts_(texts), client_(client), command_(std::move(command)), clock_(new QTimer(this))
{
	setObjectName(QStringLiteral("commentbar-audience"));
	auto *layout = new QVBoxLayout(this);
	layout->setContentsMargins(0, 0, 0, 0);
	layout->setSpacing(2);

	toggle_ = new QToolButton(this);
	toggle_->setObjectName(QStringLiteral("commentbar-audience-toggle"));
	toggle_->setText(texts_("Dock.Audience"));
	toggle_->setToolTip(texts_("Dock.Audience.Tip"));
	toggle_->setCheckable(true);
	toggle_->setAutoRaise(true);
	toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
	toggle_->setArrowType(Qt::RightArrow);
	toggle_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
	connect(toggle_, &QToolButton::toggled, this, [this](bool on) { setExpanded(on); });
	layout->addWidget(toggle_);

	tabs_ = new QTabWidget(this);
	tabs_->setObjectName(QStringLiteral("commentbar-audience-tabs"));
	tabs_->setDocumentMode(true);
	tabs_->setUsesScrollButtons(true);
	pollPage_ = scrolled("commentbar-poll", buildPoll(), tabs_);
	giveawayPage_ = scrolled("commentbar-giveaway", buildGiveaway(), tabs_);
	tabs_->addTab(pollPage_, texts_("Dock.Poll"));
	tabs_->addTab(scrolled("commentbar-queue", buildQueue(), tabs_), texts_("Dock.Queue"));
	tabs_->addTab(giveawayPage_, texts_("Dock.Giveaway"));
	connect(tabs_, &QTabWidget::currentChanged, this, [this] {
		showClocks();
		if (tabChanged)
			tabChanged(tab());
	});
	tabs_->hide();
	layout->addWidget(tabs_);
	setMaximumHeight(toggle_->sizeHint().height());

	clock_->setObjectName(QStringLiteral("commentbar-audience-clock"));
	clock_->setInterval(1000);
	connect(clock_, &QTimer::timeout, this, [this] { showClocks(); });
	showPoll(std::nullopt);
	showQueue(Queue());
	showGiveaway(std::nullopt);
}

QWidget *AudiencePanel::buildPoll()
{
	auto *page = new QWidget;
	QVBoxLayout *layout = pageLayout(page);
	pollQuestion_ = namedLabel("commentbar-poll-question", page);
	pollState_ = namedLabel("commentbar-poll-state", page);
	layout->addWidget(pollQuestion_);
	layout->addWidget(pollState_);
	// An answer's words and votes above a thin bar: the words stay plain text (a bar's own text
	// would read %v or %p in them as its placeholders).
	for (int i = 0; i < optionRows; ++i) {
		QLabel *label = plainLabel(page);
		label->setObjectName(QStringLiteral("commentbar-poll-option-%1").arg(i + 1));
		auto *bar = new QProgressBar(page);
		bar->setTextVisible(false);
		bar->setFixedHeight(5);
		optionLabels_ << label;
		optionBars_ << bar;
		layout->addWidget(label);
		layout->addWidget(bar);
	}
	pollClose_ = namedButton("commentbar-poll-close", texts_("Dock.PollClose"), page);
	connect(pollClose_, &QPushButton::clicked, this, [this] {
		command_(QStringLiteral("/api/poll/close"), {}, [this](const QJsonObject &answer) {
			if (takes(pollRead_, ++asked_))
				showPoll(Poll::fromJson(answer));
		});
	});
	pollDismiss_ = namedButton("commentbar-poll-dismiss", texts_("Dock.PollDismiss"), page);
	pollDismiss_->setToolTip(texts_("Dock.PollDismiss.Tip"));
	connect(pollDismiss_, &QPushButton::clicked, this, [this] { command_(QStringLiteral("/api/poll/dismiss"), {}, {}); });
	layout->addLayout(row({pollClose_, pollDismiss_}, true));

	// The form for the next poll: hidden while one is open (Close first).
	pollForm_ = new QWidget(page);
	auto *form = new QVBoxLayout(pollForm_);
	form->setContentsMargins(0, 4, 0, 0);
	form->setSpacing(3);
	questionField_ = new QLineEdit(pollForm_);
	questionField_->setObjectName(QStringLiteral("commentbar-poll-question-field"));
	questionField_->setPlaceholderText(texts_("Dock.PollQuestion"));
	questionField_->setAccessibleName(texts_("Dock.PollQuestion"));
	optionsField_ = new QPlainTextEdit(pollForm_);
	optionsField_->setObjectName(QStringLiteral("commentbar-poll-options"));
	optionsField_->setPlaceholderText(texts_("Dock.PollOptions"));
	optionsField_->setAccessibleName(texts_("Dock.PollOptions"));
	optionsField_->setTabChangesFocus(true);
	optionsField_->setFixedHeight(optionsField_->fontMetrics().lineSpacing() * optionsFieldLines +
				      2 * optionsField_->frameWidth() + 8);
	pollSeconds_ = secondsBox("commentbar-poll-seconds", texts_, pollForm_);
	pollLatest_ = new QCheckBox(texts_("Dock.PollLatest"), pollForm_);
	pollLatest_->setObjectName(QStringLiteral("commentbar-poll-latest"));
	pollBareNumbers_ = new QCheckBox(texts_("Dock.PollBareNumbers"), pollForm_);
	pollBareNumbers_->setObjectName(QStringLiteral("commentbar-poll-bare-numbers"));
	pollStart_ = namedButton("commentbar-poll-start", texts_("Dock.PollStart"), pollForm_);
	connect(pollStart_, &QPushButton::clicked, this, [this] { startPoll(); });
	form->addWidget(questionField_);
	form->addWidget(optionsField_);
	form->addWidget(pollLatest_);
	form->addWidget(pollBareNumbers_);
	form->addLayout(row({fieldName(texts_("Dock.ClosesAfter"), pollForm_), pollSeconds_, pollStart_}));
	layout->addWidget(pollForm_);
	layout->addStretch(1);
	return page;
}

QWidget *AudiencePanel::buildQueue()
{
	auto *page = new QWidget;
	QVBoxLayout *layout = pageLayout(page);
	queueState_ = namedLabel("commentbar-queue-state", page);
	queueList_ = shortList("commentbar-queue-list", page);
	queueList_->setAccessibleName(texts_("Dock.Queue"));
	connect(queueList_, &QListWidget::currentRowChanged, this, [this] { queueSelectionChanged(); });
	queueMore_ = namedLabel("commentbar-queue-more", page);
	layout->addWidget(queueState_);
	layout->addWidget(queueList_);

	queueNext_ = namedButton("commentbar-queue-next", texts_("Dock.QueueNext"), page);
	queueNext_->setToolTip(texts_("Dock.QueueNext.Tip"));
	queueCount_ = spinBox("commentbar-queue-count", 1, maxCalled, 1, page);
	queueCount_->setAccessibleName(texts_("Dock.QueueNext.Tip"));
	queueCount_->setToolTip(texts_("Dock.QueueNext.Tip"));
	connect(queueNext_, &QPushButton::clicked, this, [this] {
		command_(QStringLiteral("/api/queue/next"), QJsonObject{{QStringLiteral("count"), queueCount_->value()}},
			 [this](const QJsonObject &) { readQueue(); });
	});
	queueDone_ = namedButton("commentbar-queue-done", texts_("Dock.QueueDone"), page);
	queueDone_->setToolTip(texts_("Dock.QueueDone.Tip"));
	connect(queueDone_, &QPushButton::clicked, this,
		[this] { command_(QStringLiteral("/api/queue/done"), {}, [this](const QJsonObject &) { readQueue(); }); });
	queueRemove_ = namedButton("commentbar-queue-remove", texts_("Dock.QueueRemove"), page);
	queueRemove_->setToolTip(texts_("Dock.QueueRemove.Tip"));
	connect(queueRemove_, &QPushButton::clicked, this, [this] { removeSelected(); });
	queueUp_ = arrowButton("commentbar-queue-up", Qt::UpArrow, texts_("Dock.QueueUp"), page);
	connect(queueUp_, &QToolButton::clicked, this, [this] { moveSelected(-1); });
	queueDown_ = arrowButton("commentbar-queue-down", Qt::DownArrow, texts_("Dock.QueueDown"), page);
	connect(queueDown_, &QToolButton::clicked, this, [this] { moveSelected(1); });
	// Under the list what acts on the selected row, its arrows and Remove beside the count of those
	// not listed; then the calls. Four buttons in one row would not fit a 300 px dock, and arrows
	// take no words.
	auto *underList = row({queueMore_});
	underList->setStretch(0, 1);
	underList->addWidget(queueUp_);
	underList->addWidget(queueDown_);
	underList->addWidget(queueRemove_);
	layout->addLayout(underList);
	layout->addLayout(row({queueNext_, queueCount_, queueDone_}, true));

	// The rules: sent whole with every Open, so an open queue takes exactly what the form shows.
	queueCapacity_ = spinBox("commentbar-queue-capacity", 1, maxCapacity, defaultCapacity, page);
	queueCapacity_->setAccessibleName(texts_("Dock.QueueCapacity"));
	QLabel *capacity = fieldName(texts_("Dock.QueueCapacity"), page);
	queueFirstTime_ = new QCheckBox(texts_("Dock.QueueFirstTimeFirst"), page);
	queueFirstTime_->setObjectName(QStringLiteral("commentbar-queue-first-time"));
	layout->addLayout(row({capacity, queueCapacity_}, true));
	layout->addWidget(queueFirstTime_);
	queueMinStreams_ = spinBox("commentbar-queue-min-streams", 0, maxStreamsSeen, 0, page);
	queueMinStreams_->setSpecialValueText(texts_("Dock.QueueMinStreams.Anyone"));
	queueMinStreams_->setAccessibleName(texts_("Dock.QueueMinStreams"));
	queueMinStreams_->setToolTip(texts_("Dock.QueueMinStreams.Tip"));
	QLabel *regulars = fieldName(texts_("Dock.QueueMinStreams"), page);
	regulars->setWordWrap(true);
	regulars->setToolTip(texts_("Dock.QueueMinStreams.Tip"));
	layout->addLayout(row({regulars, queueMinStreams_}));
	queueMembersOnly_ = new QCheckBox(texts_("Dock.QueueMembersOnly"), page);
	queueMembersOnly_->setObjectName(QStringLiteral("commentbar-queue-members-only"));
	queueMembersOnly_->setToolTip(texts_("Dock.QueueMembersOnly.Tip"));
	layout->addWidget(queueMembersOnly_);
	queueJoin_ = wordsField("commentbar-queue-join", texts_("Dock.QueueJoinWords"), QStringLiteral("!join !参加"), page);
	queueLeave_ = wordsField("commentbar-queue-leave", texts_("Dock.QueueLeaveWords"), QStringLiteral("!leave !キャンセル"), page);
	layout->addLayout(row({fieldName(texts_("Dock.QueueJoinWords"), page), queueJoin_}));
	layout->addLayout(row({fieldName(texts_("Dock.QueueLeaveWords"), page), queueLeave_}));

	queueOpen_ = namedButton("commentbar-queue-open", texts_("Dock.QueueOpen"), page);
	connect(queueOpen_, &QPushButton::clicked, this, [this] { openQueue(); });
	queueClose_ = namedButton("commentbar-queue-close", texts_("Dock.QueueClose"), page);
	queueClose_->setToolTip(texts_("Dock.QueueClose.Tip"));
	connect(queueClose_, &QPushButton::clicked, this,
		[this] { command_(QStringLiteral("/api/queue/close"), {}, [this](const QJsonObject &) { readQueue(); }); });
	layout->addLayout(row({queueOpen_, queueClose_}, true));
	layout->addStretch(1);
	return page;
}

QWidget *AudiencePanel::buildGiveaway()
{
	auto *page = new QWidget;
	QVBoxLayout *layout = pageLayout(page);
	giveawayState_ = namedLabel("commentbar-giveaway-state", page);
	winners_ = shortList("commentbar-giveaway-winners", page);
	winners_->setAccessibleName(texts_("Dock.Winners"));
	winners_->setSelectionMode(QAbstractItemView::NoSelection);
	draw_ = namedButton("commentbar-giveaway-draw", texts_("Dock.Draw"), page);
	connect(draw_, &QPushButton::clicked, this, [this] {
		command_(QStringLiteral("/api/giveaway/draw"), {}, [this](const QJsonObject &) { readGiveaway(); });
	});
	giveawayDismiss_ = namedButton("commentbar-giveaway-dismiss", texts_("Dock.GiveawayDismiss"), page);
	giveawayDismiss_->setToolTip(texts_("Dock.GiveawayDismiss.Tip"));
	connect(giveawayDismiss_, &QPushButton::clicked, this, [this] {
		command_(QStringLiteral("/api/giveaway/dismiss"), {}, [this](const QJsonObject &) { readGiveaway(); });
	});
	layout->addWidget(giveawayState_);
	layout->addWidget(winners_);
	layout->addLayout(row({draw_, giveawayDismiss_}, true));

	wordField_ = new QLineEdit(page);
	wordField_->setObjectName(QStringLiteral("commentbar-giveaway-word"));
	wordField_->setPlaceholderText(texts_("Dock.GiveawayWord"));
	wordField_->setAccessibleName(texts_("Dock.GiveawayWord"));
	giveawaySeconds_ = secondsBox("commentbar-giveaway-seconds", texts_, page);
	giveawayStart_ = namedButton("commentbar-giveaway-start", texts_("Dock.GiveawayStart"), page);
	connect(giveawayStart_, &QPushButton::clicked, this, [this] { startGiveaway(); });
	giveawayMinComments_ = spinBox("commentbar-giveaway-min-comments", 0, maxMinComments, 0, page);
	giveawayMinComments_->setAccessibleName(texts_("Dock.GiveawayMinComments"));
	giveawayFirstTime_ = new QCheckBox(texts_("Dock.GiveawayFirstTime"), page);
	giveawayFirstTime_->setObjectName(QStringLiteral("commentbar-giveaway-first-time"));
	giveawayFirstTime_->setChecked(true);
	layout->addWidget(wordField_);
	layout->addLayout(row({fieldName(texts_("Dock.GiveawayMinComments"), page), giveawayMinComments_}));
	layout->addWidget(giveawayFirstTime_);
	layout->addLayout(row({fieldName(texts_("Dock.ClosesAfter"), page), giveawaySeconds_, giveawayStart_}));
	layout->addStretch(1);
	return page;
}

QString AudiencePanel::tab() const
{
	const int index = tabs_->currentIndex();
	return index >= 0 && index < static_cast<int>(std::size(tabNames)) ? QLatin1String(tabNames[index]) : QString();
}

void AudiencePanel::showTab(const QString &name)
{
	int index = 0;
	for (int i = 0; i < static_cast<int>(std::size(tabNames)); ++i) {
		if (name == QLatin1String(tabNames[i]))
			index = i;
	}
	tabs_->setCurrentIndex(index);
}

bool AudiencePanel::expanded() const
{
	return toggle_->isChecked();
}

void AudiencePanel::setExpanded(bool expanded)
{
	const bool changed = expanded != tabs_->isVisibleTo(this);
	toggle_->setChecked(expanded);
	toggle_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
	tabs_->setVisible(expanded);
	// Closed, the header is all there is: the splitter above it cannot make it taller.
	setMaximumHeight(expanded ? QWIDGETSIZE_MAX : toggle_->sizeHint().height());
	if (boardsShown() && stale_)
		readBoards();
	showClocks();
	if (changed && expandedChanged)
		expandedChanged(expanded);
}

bool AudiencePanel::boardsShown() const
{
	return !shutDown_ && tabs_->isVisible();
}

void AudiencePanel::boardsMoved()
{
	stale_ = true;
	if (boardsShown())
		readBoards();
}

void AudiencePanel::forget()
{
	stale_ = true;
	pollRead_.shown = queueRead_.shown = giveawayRead_.shown = ++asked_;
	showPoll(std::nullopt);
	showQueue(Queue());
	showGiveaway(std::nullopt);
}

void AudiencePanel::shutDown()
{
	shutDown_ = true;
	clock_->stop();
}

void AudiencePanel::showEvent(QShowEvent *event)
{
	QWidget::showEvent(event);
	if (boardsShown() && stale_)
		readBoards();
	showClocks();
}

void AudiencePanel::hideEvent(QHideEvent *event)
{
	QWidget::hideEvent(event);
	clock_->stop();
}

void AudiencePanel::readBoards()
{
	stale_ = false;
	readPoll();
	readQueue();
	readGiveaway();
}

bool AudiencePanel::takes(Freshness &board, quint64 asked)
{
	if (asked < board.shown)
		return false;
	board.shown = asked;
	return true;
}

// A GET's 404 is "none yet" (before the first poll or giveaway); another failure leaves what is
// shown: the status line tells of a renderer that does not answer, and its next answer reads again.
void AudiencePanel::readPoll()
{
	client_->get(QStringLiteral("/api/poll"), [this, asked = ++asked_](int status, const QJsonObject &body, const QString &) {
		if ((status == 200 || status == 404) && takes(pollRead_, asked))
			showPoll(status == 200 ? Poll::fromJson(body) : std::nullopt);
	});
}

void AudiencePanel::readQueue()
{
	client_->get(QStringLiteral("/api/queue"), [this, asked = ++asked_](int status, const QJsonObject &body, const QString &) {
		if (status == 200 && takes(queueRead_, asked))
			showQueue(Queue::fromJson(body));
	});
}

void AudiencePanel::readGiveaway()
{
	client_->get(QStringLiteral("/api/giveaway"), [this, asked = ++asked_](int status, const QJsonObject &body, const QString &) {
		if ((status == 200 || status == 404) && takes(giveawayRead_, asked))
			showGiveaway(status == 200 ? Giveaway::fromJson(body) : std::nullopt);
	});
}

void AudiencePanel::showPoll(const std::optional<Poll> &poll)
{
	poll_ = poll;
	pollQuestion_->setVisible(poll.has_value());
	pollQuestion_->setText(poll ? poll->question : QString());
	int total = 0;
	if (poll) {
		for (const PollOption &option : poll->options)
			total += option.votes;
	}
	for (int i = 0; i < optionRows; ++i) {
		const bool used = poll && i < poll->options.size();
		optionLabels_[i]->setVisible(used);
		optionBars_[i]->setVisible(used);
		if (!used)
			continue;
		const PollOption &option = poll->options[i];
		const int percent = total ? qRound(100.0 * option.votes / total) : 0;
		optionLabels_[i]->setText(QStringLiteral("%1. %2  %3 (%4%)").arg(i + 1).arg(option.text).arg(option.votes).arg(percent));
		optionBars_[i]->setRange(0, qMax(total, 1));
		optionBars_[i]->setValue(option.votes);
	}
	pollClose_->setEnabled(poll && poll->open);
	pollDismiss_->setEnabled(poll && !poll->open && !poll->dismissed);
	pollClose_->setVisible(poll.has_value());
	pollDismiss_->setVisible(poll.has_value());
	pollForm_->setVisible(!poll || !poll->open);
	showClocks();
}

void AudiencePanel::showQueue(const Queue &queue)
{
	const bool wasOpen = queue_.open;
	// The selected viewer stays selected in the list read again (a join, their own move).
	const std::optional<QueueRow> selected = selectedQueueRow();
	const std::optional<BoardViewer> chosen = selected ? std::optional<BoardViewer>(viewerAt(*selected)) : std::nullopt;
	queue_ = queue;
	queueState_->setText(queue.open ? texts_("Dock.QueueIsOpen").arg(queue.waiting.size()).arg(queue.capacity)
					: texts_("Dock.QueueClosed"));
	queueList_->blockSignals(true);
	queueList_->clear();
	for (const BoardViewer &viewer : queue.playing)
		queueList_->addItem(QStringLiteral("\u25B6 ") + viewer.name + separator + texts_("Dock.QueuePlaying"));
	for (int i = 0; i < queue.waiting.size() && i < shownWaiting; ++i)
		queueList_->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(queue.waiting[i].name));
	queueList_->setCurrentRow(chosen ? listRowOf(*chosen) : -1);
	queueList_->blockSignals(false);
	queueList_->setVisible(queue.open);
	const int more = static_cast<int>(queue.waiting.size()) - shownWaiting;
	queueMore_->setText(queue.open && more > 0 ? texts_("Dock.QueueMore").arg(more) : QString());
	for (QWidget *action : std::initializer_list<QWidget *>{queueRemove_, queueUp_, queueDown_})
		action->setVisible(queue.open);
	for (QPushButton *action : {queueNext_, queueDone_, queueClose_})
		action->setEnabled(queue.open);
	queueCount_->setEnabled(queue.open);
	queueSelectionChanged();
	queueOpen_->setText(queue.open ? texts_("Dock.QueueApply") : texts_("Dock.QueueOpen"));
	queueOpen_->setToolTip(queue.open ? texts_("Dock.QueueApply.Tip") : texts_("Dock.QueueOpen.Tip"));
	// Opened elsewhere (the control page): the form starts from its capacity. Not on every change
	// after that: a join would undo what the streamer is typing for Apply.
	if (queue.open && !wasOpen)
		queueCapacity_->setValue(queue.capacity);
}

void AudiencePanel::showGiveaway(const std::optional<Giveaway> &giveaway)
{
	giveaway_ = giveaway;
	winners_->clear();
	if (giveaway) {
		int draw = 0;
		for (const BoardViewer &winner : giveaway->winners)
			winners_->addItem(QStringLiteral("%1. %2 (%3)").arg(++draw).arg(winner.name, winner.platform.left(32)));
	}
	winners_->setVisible(giveaway && !giveaway->winners.isEmpty());
	draw_->setEnabled(giveaway.has_value());
	draw_->setText(giveaway && !giveaway->winners.isEmpty() ? texts_("Dock.Redraw") : texts_("Dock.Draw"));
	giveawayDismiss_->setEnabled(giveaway && !giveaway->winners.isEmpty() && !giveaway->dismissed);
	giveawayDismiss_->setVisible(giveaway && !giveaway->winners.isEmpty());
	showClocks();
}

void AudiencePanel::showClocks()
{
	const qint64 pollLeft = poll_ && poll_->open ? secondsLeft(poll_->closesAt) : 0;
	if (poll_) {
		QStringList parts{poll_->open ? texts_("Dock.PollOpen") : texts_("Dock.PollClosed"),
				  texts_("Dock.Voters").arg(poll_->voters)};
		if (pollLeft)
			parts << timeLeft(texts_, pollLeft);
		pollState_->setText(parts.join(separator));
	} else {
		pollState_->setText(texts_("Dock.NoPoll"));
	}
	const qint64 giveawayLeft = giveaway_ && giveaway_->open ? secondsLeft(giveaway_->closesAt) : 0;
	if (giveaway_) {
		// Entries closed by their clock say so at once: the renderer sends no event for it.
		const bool open = giveaway_->open && (!giveaway_->closesAt || giveawayLeft);
		QStringList parts{QStringLiteral("\u300C%1\u300D").arg(giveaway_->word), texts_("Dock.Entries").arg(giveaway_->entries),
				  open ? texts_("Dock.EntriesOpen") : texts_("Dock.EntriesClosed")};
		if (giveawayLeft)
			parts << timeLeft(texts_, giveawayLeft);
		giveawayState_->setText(parts.join(separator));
	} else {
		giveawayState_->setText(texts_("Dock.NoGiveaway"));
	}
	const bool counting = (pollLeft && pollPage_->isVisible()) || (giveawayLeft && giveawayPage_->isVisible());
	if (!shutDown_ && counting) {
		if (!clock_->isActive())
			clock_->start();
	} else {
		clock_->stop();
	}
}

void AudiencePanel::startPoll()
{
	QJsonArray options;
	for (const QString &line : optionsField_->toPlainText().split(QLatin1Char('\n'))) {
		if (!line.trimmed().isEmpty())
			options.append(line.trimmed());
	}
	QJsonObject body{{QStringLiteral("question"), questionField_->text().trimmed()}, {QStringLiteral("options"), options}};
	if (pollSeconds_->value() > 0)
		body.insert(QStringLiteral("seconds"), pollSeconds_->value());
	if (pollLatest_->isChecked())
		body.insert(QStringLiteral("revote"), QStringLiteral("latest"));
	if (pollBareNumbers_->isChecked())
		body.insert(QStringLiteral("bare_numbers"), true);
	command_(QStringLiteral("/api/poll"), body, [this](const QJsonObject &answer) {
		if (takes(pollRead_, ++asked_))
			showPoll(Poll::fromJson(answer));
	});
}

void AudiencePanel::openQueue()
{
	const QJsonObject body{{QStringLiteral("capacity"), queueCapacity_->value()},
			       {QStringLiteral("first_time_first"), queueFirstTime_->isChecked()},
			       {QStringLiteral("min_streams"), queueMinStreams_->value()},
			       {QStringLiteral("members_only"), queueMembersOnly_->isChecked()},
			       {QStringLiteral("join"), wordsOf(queueJoin_->text())},
			       {QStringLiteral("leave"), wordsOf(queueLeave_->text())}};
	command_(QStringLiteral("/api/queue/open"), body, [this](const QJsonObject &answer) {
		if (takes(queueRead_, ++asked_))
			showQueue(Queue::fromJson(answer));
	});
}

std::optional<AudiencePanel::QueueRow> AudiencePanel::selectedQueueRow() const
{
	const int row = queueList_->currentRow();
	const int playing = static_cast<int>(queue_.playing.size());
	if (row < 0 || row >= playing + qMin(static_cast<int>(queue_.waiting.size()), shownWaiting))
		return std::nullopt;
	return row < playing ? QueueRow{true, row} : QueueRow{false, row - playing};
}

const BoardViewer &AudiencePanel::viewerAt(const QueueRow &row) const
{
	return row.playing ? queue_.playing[row.index] : queue_.waiting[row.index];
}

int AudiencePanel::listRowOf(const BoardViewer &viewer) const
{
	const auto same = [&viewer](const BoardViewer &other) {
		return other.platform == viewer.platform && other.channel == viewer.channel && other.user == viewer.user;
	};
	const int playing = static_cast<int>(queue_.playing.size());
	for (int i = 0; i < playing; ++i) {
		if (same(queue_.playing[i]))
			return i;
	}
	for (int i = 0; i < queue_.waiting.size() && i < shownWaiting; ++i) {
		if (same(queue_.waiting[i]))
			return playing + i;
	}
	return -1;
}

void AudiencePanel::queueSelectionChanged()
{
	const std::optional<QueueRow> row = queue_.open ? selectedQueueRow() : std::nullopt;
	const bool waiting = row && !row->playing;
	queueRemove_->setEnabled(row.has_value());
	queueUp_->setEnabled(waiting && row->index > 0);
	queueDown_->setEnabled(waiting && row->index + 1 < queue_.waiting.size());
}

void AudiencePanel::removeSelected()
{
	if (const std::optional<QueueRow> row = selectedQueueRow())
		command_(QStringLiteral("/api/queue/remove"), viewerAt(*row).key(), [this](const QJsonObject &) { readQueue(); });
}

// The answer is the queue after the move: shown at once. The move is also an event (queue_changed),
// so the boards are read again as boards_seq moves; the selection holds (showQueue).
void AudiencePanel::moveSelected(int places)
{
	const std::optional<QueueRow> row = selectedQueueRow();
	if (!row || row->playing)
		return;
	const int place = row->index + 1 + places; // from 1, as the API counts
	if (place < 1 || place > queue_.waiting.size())
		return;
	QJsonObject body = viewerAt(*row).key();
	body.insert(QStringLiteral("place"), place);
	command_(QStringLiteral("/api/queue/move"), body, [this](const QJsonObject &answer) {
		if (takes(queueRead_, ++asked_))
			showQueue(Queue::fromJson(answer));
	});
}

void AudiencePanel::startGiveaway()
{
	QJsonObject body{{QStringLiteral("word"), wordField_->text().trimmed()}};
	if (giveawaySeconds_->value() > 0)
		body.insert(QStringLiteral("seconds"), giveawaySeconds_->value());
	if (giveawayMinComments_->value() > 0)
		body.insert(QStringLiteral("min_comments"), giveawayMinComments_->value());
	if (!giveawayFirstTime_->isChecked())
		body.insert(QStringLiteral("first_time"), false);
	command_(QStringLiteral("/api/giveaway"), body, [this](const QJsonObject &answer) {
		if (takes(giveawayRead_, ++asked_))
			showGiveaway(Giveaway::fromJson(answer));
	});
}
