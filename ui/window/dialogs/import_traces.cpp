#include "window/dialogs/import_traces.h"

#include "lifeline/import/import_files.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace lifeline::ui {

namespace {

// The settings file the user picks (Cancel: none), added to `files`; false when it is refused (said in a message box).
bool askSettingsFile(QWidget* parent, const QString& title, const QString& folder, import::ImportFiles& files)
{
    const QString settings
        = QFileDialog::getOpenFileName(parent, QObject::tr("The queues' settings (Cancel: SQS's defaults)"), folder,
            QObject::tr(
                "Queue attributes, a template or a Terraform plan (*.json *.yaml *.yml *.template);;All files (*)"));
    if (settings.isEmpty())
        return true;
    if (auto added = import::addSettingsFile(files, settings.toStdString()); !added) {
        QMessageBox::warning(parent, title, QString::fromStdString(added.message()));
        return false;
    }
    return true;
}

} // namespace

std::optional<import::QueueSettings> askQueueSettings(QWidget* parent, const QString& title)
{
    import::ImportFiles files;
    if (!askSettingsFile(parent, title, QString(), files))
        return std::nullopt;
    auto settings = import::queueSettingsOf(files);
    if (!settings) {
        QMessageBox::warning(parent, title, QString::fromStdString(settings.message()));
        return std::nullopt;
    }
    return std::move(settings).value();
}

std::optional<ImportedTraces> importTraces(QWidget* parent)
{
    const QString title = QObject::tr("Import traces");
    const QStringList spans = QFileDialog::getOpenFileNames(parent, title, QString(),
        QObject::tr("OpenTelemetry spans or a CloudTrail log (*.json *.jsonl);;All files (*)"));
    if (spans.isEmpty())
        return std::nullopt;
    import::ImportFiles files;
    for (const QString& file : spans)
        files.spans.push_back(file.toStdString());
    // Optional: without the queues' settings SQS's defaults are assumed, and the report says so.
    if (!askSettingsFile(parent, title, QFileInfo(spans.front()).path(), files))
        return std::nullopt;
    auto imported = import::importFiles(files);
    if (!imported) {
        QMessageBox::warning(parent, title, QString::fromStdString(imported.message()));
        return std::nullopt;
    }
    const QString report = QString::fromStdString(imported.value().report.text(imported.value().run()));
    std::string name = QFileInfo(spans.front()).fileName().toStdString();
    if (spans.size() > 1)
        name += " and " + std::to_string(spans.size() - 1) + " more";
    return ImportedTraces { RecordedRun { imported.value().observer->takeRun(), "Imported: " + name }, report };
}

} // namespace lifeline::ui
