#include "http/run_recorder.h"

#include "lifeline/io/run_file.h"

namespace lifeline::ui {

RunRecorder::RunRecorder(std::string path, std::string title, std::function<const RunView&()> run, QObject* parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_title(std::move(title))
    , m_run(std::move(run))
{
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (auto written = save(); !written)
            emit failed(QString::fromStdString(written.message()));
    });
}

Outcome<> RunRecorder::start(int intervalMs)
{
    if (auto written = save(); !written)
        return written;
    m_timer.start(std::max(intervalMs, 100));
    return {};
}

Outcome<> RunRecorder::finish()
{
    m_timer.stop();
    return save();
}

Outcome<> RunRecorder::save()
{
    return saveRun(m_run(), m_title, m_path);
}

} // namespace lifeline::ui
