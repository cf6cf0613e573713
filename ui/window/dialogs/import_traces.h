// File > Import traces: asks for the spans (OpenTelemetry's OTLP JSON, or a CloudTrail log file) and, if the user has
// them, the queues' settings (an attributes file, a template or a Terraform plan), and imports them as `lifeline
// import` does (docs/import.md). The window shows the result as it shows a saved run, the import's report beside it.
#pragma once

#include "lifeline/import/trace_import.h"
#include "lifeline/io/run_file.h"

#include <QString>
#include <optional>

class QWidget;

namespace lifeline::ui {

struct ImportedTraces {
    RecordedRun run;
    QString report; // what was drawn, inferred, not tied and contradicted, in a few lines
};

// None when the user cancels, or when a file is refused (said in a message box naming the file).
std::optional<ImportedTraces> importTraces(QWidget* parent);
// File > Receive traces live: the queues' settings from one file the user picks (Cancel: SQS's defaults); none when
// the file is refused (said in a message box).
std::optional<import::QueueSettings> askQueueSettings(QWidget* parent, const QString& title);

} // namespace lifeline::ui
