// One dialog for every picture of the run: the format (PNG, SVG, PDF, GIF, MP4), the size (a slide, 1280x720, the
// view twice over, or one typed in), what to draw (the action, or the visible window), an animation's frames a second
// and length, the file, and a preview of the still. It remembers the last choice (QSettings "export/...").
#pragma once

#include <QDialog>
#include <QSize>
#include <QString>
#include <functional>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace lifeline::ui {

struct ExportChoice {
    QString path; // its suffix is the format
    QSize size;
    bool visibleWindow = false; // else the action: from the start to the last state change
    int fps = 15; // animations
    int seconds = 8;
    bool asPlayed = false; // an animation of the run as played (the operator's calls replayed), else the script
    bool animation() const;
};

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    // `defaultName`: the file's name, in the last export's folder (else the current one); `viewSize`: the timeline's;
    // `canAnimate`: a simulation to replay (a saved or live run has none); `playedByHand`: the window's controls
    // changed the run, so an animation can show it as played (the default) or as the script has it; `preview` paints
    // a still of a choice.
    ExportDialog(const QString& defaultName, QSize viewSize, bool canAnimate, bool playedByHand,
        std::function<QImage(const ExportChoice&)> preview, QWidget* parent = nullptr);

    // The choice, or why it cannot be exported (a size that is not W x H, no file name).
    std::optional<ExportChoice> choice(QString* why = nullptr) const;
    void setFormat(const QString& suffix); // "png", "gif", ...
    QComboBox* format() const { return m_format; }
    QComboBox* size() const { return m_size; }
    QLineEdit* customSize() const { return m_custom; }
    QComboBox* range() const { return m_range; }
    QLineEdit* path() const { return m_path; }
    QLabel* preview() const { return m_preview; }
    QLabel* error() const { return m_error; } // why the choice cannot be exported
    QSpinBox* fps() const { return m_fps; }
    QSpinBox* seconds() const { return m_seconds; }
    QComboBox* played() const { return m_played; } // as played, or the lesson's script
    // What the last export chose, for the next dialog and for Export slide's folder.
    static QString lastFolder();

    void accept() override; // remembers the choice; refuses one that cannot be exported, saying why

private:
    void restoreLastChoice(const QString& defaultName); // the last export's choice, in its folder
    void formatChanged();
    void refreshPreview();

    QSize m_viewSize;
    bool m_canAnimate = false;
    bool m_playedByHand = false;
    std::function<QImage(const ExportChoice&)> m_paintPreview;
    QComboBox* m_format;
    QComboBox* m_size;
    QLineEdit* m_custom;
    QComboBox* m_range;
    QSpinBox* m_fps;
    QSpinBox* m_seconds;
    QComboBox* m_played;
    QLineEdit* m_path;
    QLabel* m_replayNote; // which run an animation replays: as played, or as written
    QLabel* m_preview;
    QLabel* m_error;
};

} // namespace lifeline::ui
