// `lifeline import` and the window's File > Import traces: the files a user names, read and imported. Spans from
// OTLP JSON files and CloudTrail log files (told apart by their start), the queues' settings from attributes files,
// templates and Terraform plans; each failure names its file and what is wrong in it.
#pragma once

#include "lifeline/import/trace_import.h"

#include <string>
#include <utility>
#include <vector>

namespace lifeline::import {

struct ImportFiles {
    std::vector<std::string> spans; // OTLP JSON or CloudTrail
    std::vector<std::pair<std::string, std::string>> attributes; // (the queue, or none: QueueArn's or every), file
    std::vector<std::string> templates; // CloudFormation or SAM
    std::vector<std::string> plans; // Terraform, `terraform show -json`
    std::vector<check::TemplateQueue> live; // queues read from SQS itself (`--queue-url`), with their DLQs' settings
};

Outcome<ImportedRun> importFiles(const ImportFiles& files);
// The queues' settings the files give (not the spans: a live import's come over HTTP).
Outcome<QueueSettings> queueSettingsOf(const ImportFiles& files);

// A file of queue settings, whichever kind it is: an attributes file (JSON with "Attributes" or attribute names), a
// Terraform plan (JSON with "planned_values" or "resource_changes"), else a template (YAML or JSON).
Outcome<> addSettingsFile(ImportFiles& files, const std::string& path);

} // namespace lifeline::import
