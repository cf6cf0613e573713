#include "window/dialogs/export_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lifeline::ui {

namespace {
const QStringList kSuffixes { QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"),
    QStringLiteral("gif"), QStringLiteral("mp4") };
constexpr int kPreviewWidth = 384;
} // namespace

bool ExportChoice::animation() const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("gif") || suffix == QLatin1String("mp4");
}

QString ExportDialog::lastFolder()
{
    return QSettings().value(QStringLiteral("export/folder"), QDir::currentPath()).toString();
}

namespace {
// An animation simulates the scenario again from its start: as played (the window's calls at their instants) or as
// written, and says which.
QLabel* replayNote(QWidget* parent)
{
    auto* note = new QLabel(parent);
    note->setObjectName(QStringLiteral("replayNote"));
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    note->hide();
    return note;
}
} // namespace

ExportDialog::ExportDialog(const QString& defaultName, QSize viewSize, bool canAnimate, bool playedByHand,
    std::function<QImage(const ExportChoice&)> preview, QWidget* parent)
    : QDialog(parent)
    , m_viewSize(viewSize)
    , m_paintPreview(std::move(preview))
    , m_format(new QComboBox(this))
    , m_size(new QComboBox(this))
    , m_custom(new QLineEdit(this))
    , m_range(new QComboBox(this))
    , m_fps(new QSpinBox(this))
    , m_seconds(new QSpinBox(this))
    , m_played(new QComboBox(this))
    , m_path(new QLineEdit(this))
    , m_preview(new QLabel(this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Export"));
    m_format->addItems(
        { tr("PNG image"), tr("SVG drawing"), tr("PDF document"), tr("GIF animation"), tr("MP4 video") });
    m_canAnimate = canAnimate;
    if (!canAnimate) // an animation replays a simulation: a saved or live run has none
        for (const int row : { 3, 4 })
            m_format->setItemData(row, 0, Qt::UserRole - 1);
    const QSize twice = viewSize * 2;
    m_size->addItems({ tr("Slide, 1920 x 1080"), tr("1280 x 720"),
        tr("The view twice over, %1 x %2").arg(twice.width()).arg(twice.height()), tr("Custom") });
    m_custom->setPlaceholderText(tr("width x height, e.g. 1600x900"));
    m_range->addItems({ tr("The action (from the start to the last state change)"), tr("The visible window") });
    m_fps->setRange(1, 60);
    m_fps->setSuffix(tr(" frames a second"));
    m_seconds->setRange(1, 600);
    m_seconds->setSuffix(tr(" s long"));
    m_played->setObjectName(QStringLiteral("played"));
    m_played->addItems(
        { tr("As played (your crashes, settings and messages)"), tr("The lesson's script, as written") });
    m_playedByHand = playedByHand;
    if (!playedByHand) // nothing done by hand: the run as played is the script
        m_played->setCurrentIndex(1);
    auto* browse = new QPushButton(tr("&Browse..."), this);
    auto* file = new QHBoxLayout;
    file->addWidget(m_path, 1);
    file->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("&Format"), m_format);
    form->addRow(tr("&Size"), m_size);
    form->addRow(QString(), m_custom);
    form->addRow(tr("&Draw"), m_range);
    form->addRow(tr("A&nimation"), m_fps);
    form->addRow(QString(), m_seconds);
    form->addRow(tr("&Replay"), m_played);
    m_replayNote = replayNote(this);
    form->addRow(tr("File"), file);
    m_preview->setFixedSize(kPreviewWidth, kPreviewWidth * 9 / 16);
    m_preview->setAlignment(Qt::AlignCenter);
    m_preview->setFrameShape(QFrame::StyledPanel);
    m_error->setStyleSheet(QStringLiteral("color: #D52B1E"));
    m_error->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole)->setDefault(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_replayNote); // the dialog's whole width: a form's field cut its third line off
    layout->addWidget(m_preview, 0, Qt::AlignHCenter);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    restoreLastChoice(defaultName);

    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChanged);
    connect(m_size, &QComboBox::currentIndexChanged, this, [this] {
        m_custom->setEnabled(m_size->currentIndex() == 3);
        refreshPreview();
    });
    connect(m_custom, &QLineEdit::editingFinished, this, &ExportDialog::refreshPreview);
    // A file name typed with another format's suffix chooses that format.
    connect(m_path, &QLineEdit::editingFinished, this, [this] { setFormat(QFileInfo(m_path->text()).suffix()); });
    connect(m_range, &QComboBox::currentIndexChanged, this, &ExportDialog::refreshPreview);
    connect(m_played, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChanged); // the note says which
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString& suffix = kSuffixes[m_format->currentIndex()];
        const QString chosen = QFileDialog::getSaveFileName(
            this, tr("Export to"), m_path->text(), QStringLiteral("%1 (*.%2)").arg(m_format->currentText(), suffix));
        if (!chosen.isEmpty())
            m_path->setText(chosen);
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_custom->setEnabled(m_size->currentIndex() == 3);
    refreshPreview();
}

void ExportDialog::setFormat(const QString& suffix)
{
    const auto row = int(kSuffixes.indexOf(suffix.toLower()));
    if (row >= 0 && (row < 3 || m_canAnimate))
        m_format->setCurrentIndex(row);
    formatChanged();
}

void ExportDialog::restoreLastChoice(const QString& defaultName)
{
    // The last choice, else a slide of the action.
    const QSettings settings;
    m_size->setCurrentIndex(settings.value(QStringLiteral("export/size"), 0).toInt());
    m_custom->setText(settings.value(QStringLiteral("export/custom"), QStringLiteral("1600x900")).toString());
    m_range->setCurrentIndex(settings.value(QStringLiteral("export/range"), 0).toInt());
    m_fps->setValue(settings.value(QStringLiteral("export/fps"), 15).toInt());
    m_seconds->setValue(settings.value(QStringLiteral("export/seconds"), 8).toInt());
    m_path->setText(QDir(lastFolder()).filePath(defaultName));
    setFormat(settings.value(QStringLiteral("export/format"), QStringLiteral("png")).toString());
}

void ExportDialog::formatChanged()
{
    const QString& suffix = kSuffixes[m_format->currentIndex()];
    const QFileInfo file(m_path->text());
    m_path->setText(file.dir().filePath(file.completeBaseName() + QLatin1Char('.') + suffix));
    const bool animation = m_format->currentIndex() >= 3;
    m_fps->setEnabled(animation);
    m_seconds->setEnabled(animation);
    m_range->setEnabled(!animation); // an animation plays the action
    m_played->setEnabled(animation && m_playedByHand);
    m_replayNote->setVisible(animation);
    m_replayNote->setText(m_played->currentIndex() == 0
            ? tr("The animation plays the run again as you played it: the scenario from its start, with your "
                 "crashes, settings and messages at the instants you made them.")
            : tr("The animation replays the scenario from its start, as written: crashes, sliders and messages made "
                 "by hand are not in it (a still image shows them)."));
    if (isVisible()) // the note's lines come and go: the dialog grows to show them whole
        adjustSize();
}

std::optional<ExportChoice> ExportDialog::choice(QString* why) const
{
    ExportChoice out;
    out.path = m_path->text().trimmed();
    if (QFileInfo(out.path).completeBaseName().isEmpty()) {
        if (why)
            *why = tr("Name the file to write.");
        return std::nullopt;
    }
    switch (m_size->currentIndex()) {
    case 0:
        out.size = QSize(1920, 1080);
        break;
    case 1:
        out.size = QSize(1280, 720);
        break;
    case 2:
        out.size = m_viewSize * 2;
        break;
    default: {
        const QStringList parts = m_custom->text().split(QLatin1Char('x'));
        bool w = false, h = false;
        if (parts.size() == 2)
            out.size = QSize(parts[0].trimmed().toInt(&w), parts[1].trimmed().toInt(&h));
        if (!w || !h || out.size.width() < 1 || out.size.height() < 1) {
            if (why)
                *why = tr("Size: \"%1\" is not a width x height in pixels, such as 1600x900.").arg(m_custom->text());
            return std::nullopt;
        }
    }
    }
    out.visibleWindow = m_range->currentIndex() == 1 && !out.animation();
    out.fps = m_fps->value();
    out.seconds = m_seconds->value();
    out.asPlayed = out.animation() && m_playedByHand && m_played->currentIndex() == 0;
    return out;
}

void ExportDialog::refreshPreview()
{
    QString why;
    const auto chosen = choice(&why);
    m_error->setText(why);
    if (!chosen || !m_paintPreview)
        return;
    const QImage still = m_paintPreview(*chosen);
    m_preview->setPixmap(still.isNull()
            ? QPixmap()
            : QPixmap::fromImage(still.scaled(m_preview->size(), Qt::KeepAspectRatio, Qt::SmoothTransformation)));
}

void ExportDialog::accept()
{
    QString why;
    const auto chosen = choice(&why);
    if (!chosen) {
        m_error->setText(why);
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("export/format"), kSuffixes[m_format->currentIndex()]);
    settings.setValue(QStringLiteral("export/size"), m_size->currentIndex());
    settings.setValue(QStringLiteral("export/custom"), m_custom->text());
    settings.setValue(QStringLiteral("export/range"), m_range->currentIndex());
    settings.setValue(QStringLiteral("export/fps"), m_fps->value());
    settings.setValue(QStringLiteral("export/seconds"), m_seconds->value());
    settings.setValue(QStringLiteral("export/folder"), QFileInfo(chosen->path).absolutePath());
    QDialog::accept();
}

} // namespace lifeline::ui
