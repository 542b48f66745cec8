// SPDX-License-Identifier: GPL-2.0-or-later
#include "viewer-dialogs.h"

#include "texts.h"

#include <QCheckBox>
#include <QColorDialog>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

constexpr int nicknameLimit = 16;
constexpr int voiceLimit = 256; // POST /api/viewer takes a voice of at most 256 characters

QLabel *plainLabel(const QString &text, QWidget *parent)
{
	auto *label = new QLabel(parent);
	label->setTextFormat(Qt::PlainText);
	label->setWordWrap(true);
	label->setText(text);
	return label;
}

// The dialog's title and its question about WHO; the layout the answer's widgets go into.
QVBoxLayout *ask(QDialog &dialog, const char *name, const QString &title, const QString &question)
{
	dialog.setObjectName(QString::fromLatin1(name));
	dialog.setWindowTitle(title);
	auto *layout = new QVBoxLayout(&dialog);
	layout->addWidget(plainLabel(question, &dialog));
	return layout;
}

QDialogButtonBox *saveOrCancel(QDialog &dialog, const Texts &texts)
{
	auto *buttons = new QDialogButtonBox(&dialog);
	buttons->addButton(texts("Dock.Save"), QDialogButtonBox::AcceptRole);
	buttons->addButton(texts("Dock.Cancel"), QDialogButtonBox::RejectRole);
	QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
	QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
	return buttons;
}

} // namespace

namespace {

// One line of text about a viewer (a nickname, a voice): the text typed, trimmed, or nullopt
// when cancelled. HINT (if any) says what the line takes.
struct TextQuestion {
	const char *name;
	const char *title;
	const char *question;
	const char *hint;
	const char *placeholder;
	int limit;
};

std::optional<QString> askText(QWidget *parent, const Texts &texts, const TextQuestion &q, const QString &who,
				const QString &current)
{
	QDialog dialog(parent);
	QVBoxLayout *layout = ask(dialog, q.name, texts(q.title), texts(q.question).arg(who));
	if (q.hint)
		layout->addWidget(plainLabel(texts(q.hint), &dialog));
	auto *field = new QLineEdit(current, &dialog);
	field->setObjectName(QString::fromLatin1(q.name) + QStringLiteral("-field"));
	field->setMaxLength(q.limit);
	field->setPlaceholderText(texts(q.placeholder));
	field->setAccessibleName(texts(q.title));
	layout->addWidget(field);
	layout->addWidget(saveOrCancel(dialog, texts));
	field->setFocus();
	if (dialog.exec() != QDialog::Accepted)
		return std::nullopt;
	return field->text().trimmed();
}

} // namespace

std::optional<QString> askNickname(QWidget *parent, const Texts &texts, const QString &who, const QString &current)
{
	static const TextQuestion nickname{"commentbar-nickname-dialog", "Dock.Nickname", "Dock.NicknameFor", nullptr,
					   "Dock.NicknameHint", nicknameLimit};
	return askText(parent, texts, nickname, who, current);
}

std::optional<QString> askVoice(QWidget *parent, const Texts &texts, const QString &who)
{
	static const TextQuestion voice{"commentbar-voice-dialog", "Dock.Voice", "Dock.VoiceFor", "Dock.VoiceHint",
					"Dock.VoiceExample", voiceLimit};
	return askText(parent, texts, voice, who, QString());
}

std::optional<QString> askColour(QWidget *parent, const Texts &texts, const QString &who, const QColor &current)
{
	QDialog dialog(parent);
	QVBoxLayout *layout = ask(dialog, "commentbar-colour-dialog", texts("Dock.Colour"), texts("Dock.ColourFor").arg(who));
	QColor chosen = current.isValid() ? current : QColor(0xff, 0xb3, 0x00);
	auto *pick = new QPushButton(&dialog);
	auto show = [pick, &chosen] {
		pick->setText(chosen.name());
		pick->setStyleSheet(QStringLiteral("background-color: %1; color: %2")
					    .arg(chosen.name(), chosen.lightness() > 128 ? "black" : "white"));
	};
	show();
	QObject::connect(pick, &QPushButton::clicked, &dialog, [&dialog, &chosen, show, &texts] {
		const QColor colour = QColorDialog::getColor(chosen, &dialog, texts("Dock.Colour"));
		if (colour.isValid()) {
			chosen = colour;
			show();
		}
	});
	auto *none = new QCheckBox(texts("Dock.ColourNone"), &dialog);
	QObject::connect(none, &QCheckBox::toggled, pick, &QWidget::setDisabled);
	layout->addWidget(pick);
	layout->addWidget(none);
	layout->addWidget(saveOrCancel(dialog, texts));
	if (dialog.exec() != QDialog::Accepted)
		return std::nullopt;
	return none->isChecked() ? QString() : chosen.name();
}
