// File > Check a queue: the queue's attributes as the AWS CLI prints them (pasted or from a file), its DLQ's, and the
// consumer side in a form; Check lists the findings by severity (lifeline check's rules,
// core/src/check/check_rules.cpp), the selected one's what-and-why and suggestion, and "Show me" opens its scenario
// like a lesson, the suggestion as its fix.
#pragma once

#include "lifeline/check/queue_check.h"
#include "window/runtime/scenario_metatype.h"

#include <QDialog>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLayout;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace lifeline::ui {

class CheckDialog : public QDialog {
    Q_OBJECT
public:
    explicit CheckDialog(QWidget* parent = nullptr);

    void setAttributesText(const QString& json);
    void setDeadLetterText(const QString& json);
    // The consumer side as the form says it, in readCheckInput's JSON shape.
    nlohmann::json consumerSide() const;
    // What Check does: the findings (also listed), or nothing when the input is wrong (errorText says why).
    bool check();
    const std::vector<check::Finding>& findings() const { return m_findings; }
    QString errorText() const;
    void selectFinding(int row);
    QString detailText() const;

signals:
    void showScenario(const lifeline::scenario::Scenario& scenario);

private:
    QLayout* inputColumn(); // the attributes, the DLQ's and the consumer side's form
    void showSelected();
    void openAttributesFile(QPlainTextEdit* into);

    QPlainTextEdit* m_attributes;
    QPlainTextEdit* m_deadLetter;
    QDoubleSpinBox* m_p50;
    QDoubleSpinBox* m_p99;
    QSpinBox* m_consumers;
    QSpinBox* m_maxMessages;
    QSpinBox* m_waitTime; // -1: the queue's ReceiveMessageWaitTimeSeconds
    QDoubleSpinBox* m_readTimeout; // 0: not said
    QCheckBox* m_heartbeat;
    QSpinBox* m_groups; // 0: not said
    QSpinBox* m_tenants; // 0: not said
    QDoubleSpinBox* m_rate; // 0: not said
    QCheckBox* m_lambda;
    QDoubleSpinBox* m_lambdaTimeout;
    QSpinBox* m_batchSize;
    QSpinBox* m_batchingWindow;
    QListWidget* m_list;
    QLabel* m_detail;
    QLabel* m_error;
    QPushButton* m_showMe;
    std::vector<check::Finding> m_findings;
};

} // namespace lifeline::ui
