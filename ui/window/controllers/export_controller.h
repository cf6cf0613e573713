// What leaves the window: the run saved as a file, the timeline as an image or on the clipboard, the run as an
// animation, its events as CSV or a Perfetto trace. The controller owns those File-menu actions and their dialogs;
// the window puts the actions in its menu and says what the run on screen is called, how it is themed and which
// scenario an animation replays.
#pragma once

#include "timeline/timeline_style.h"

#include <QImage>
#include <QObject>
#include <QSize>
#include <QString>
#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace lifeline::scenario {
struct Scenario;
} // namespace lifeline::scenario

namespace lifeline::ui {

struct AnimationRequest;
struct ExportChoice;
struct ImageExportRequest;
class LiveDriver;
class RunSession;
class TimelineView;

class ExportController : public QObject {
    Q_OBJECT
public:
    // What the window knows of the run on screen, asked at each export.
    struct Presentation {
        std::function<QString()> title; // the lesson's or scenario's title (file names, captions)
        std::function<Theme()> theme; // the window's theme: exports are drawn in it
        std::function<const scenario::Scenario*()> scenario; // what an animation replays; null for a saved or live run
    };

    ExportController(
        RunSession* session, TimelineView* timeline, LiveDriver* driver, Presentation presentation, QWidget* window);

    // Save run, then the exports (image, animation, clipboard, trace, CSV).
    QAction* saveRunAction() const { return m_saveRun; }
    void addExportActions(QMenu* menu) const;

    // The visible timeline on the clipboard at twice the view's size (Ctrl+Shift+C); returns what it copied.
    QImage copyTimeline();
    // The animation, once asked what: the run replayed, with a progress dialog that can cancel.
    bool exportAnimationTo(AnimationRequest request);
    // "lesson-2-1m30s.png": the run's title and its virtual time.
    QString defaultFileName(const QString& suffix) const;
    // One dialog for every format (ExportDialog), opened on `format` ("gif"; empty: the last export's format); the
    // file written as chosen.
    void exportWithDialog(const QString& format);
    // Ctrl+Shift+E: the visible window as a 1920x1080 PNG in the last export's folder, no dialog; the path written
    // (empty when it could not be).
    QString exportSlide();

signals:
    void said(const QString& text); // for the status bar

private:
    QString claimText() const; // what the run measured, for an image's caption line
    ImageExportRequest stillRequest(const ExportChoice& choice) const;
    QImage previewOf(const ExportChoice& choice) const; // the still the choice would write
    bool writeStill(const ExportChoice& choice);
    void saveRunAs();
    void exportData(bool trace);

    RunSession* m_session;
    TimelineView* m_timeline;
    LiveDriver* m_driver;
    Presentation m_presentation;
    QWidget* m_window; // dialogs' parent
    QAction* m_saveRun;
    QAction* m_exportImage;
    QAction* m_exportAnimation;
    QAction* m_exportSlide;
    QAction* m_copyTimeline;
    QAction* m_exportTrace;
    QAction* m_exportCsv;
};

} // namespace lifeline::ui
