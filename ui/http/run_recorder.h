// The recording proxy's --record file, kept so that nothing seen is lost: written at once (a path that cannot be
// written is refused when the proxy starts, not after the session), again every interval while it runs (a crash or
// a kill loses that much at most), and a last time when it stops. Each write is whole or nothing (saveRun).
#pragma once

#include "lifeline/run/run_view.h"
#include "lifeline/support/outcome.h"

#include <QObject>
#include <QTimer>
#include <functional>
#include <string>

namespace lifeline::ui {

class RunRecorder : public QObject {
    Q_OBJECT
public:
    // `run` gives the run as it is now (caught up to the wall clock by the caller).
    RunRecorder(std::string path, std::string title, std::function<const RunView&()> run, QObject* parent = nullptr);

    // The first write, then one every `intervalMs`; refused when the file cannot be written.
    [[nodiscard]] Outcome<> start(int intervalMs);
    // The last write; the timer stops.
    [[nodiscard]] Outcome<> finish();
    const std::string& path() const { return m_path; }

signals:
    void failed(const QString& why); // a periodic write that could not be made (the next one tries again)

private:
    Outcome<> save();

    std::string m_path;
    std::string m_title;
    std::function<const RunView&()> m_run;
    QTimer m_timer;
};

} // namespace lifeline::ui
