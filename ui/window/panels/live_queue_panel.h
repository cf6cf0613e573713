// The Queue panel while real clients drive the run (`lifeline serve`, `lifeline proxy`): the chosen queue's
// attributes as the service has them, changed through SetQueueAttributes, and a message sent with SendMessage, both as
// the operator. Each call goes where a client's would (the local engine, or upstream through the proxy, signed), and
// SQS's answer is shown as it came: "OK", or its code and text.
#pragma once

#include "lifeline/engine/engine.h"

#include <QWidget>
#include <functional>
#include <nlohmann/json.hpp>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace lifeline::ui {

class LiveQueuePanel : public QWidget {
    Q_OBJECT
public:
    // ok, and the answer's words: "OK" or "InvalidAttributeValue: Invalid value for the parameter ...".
    using Done = std::function<void(bool ok, const QString& answer)>;
    // Makes one SQS call (JSON protocol's input shape, QueueUrl included) as the operator.
    using Call = std::function<void(const std::string& action, const nlohmann::json& params, Done done)>;
    // The QueueUrl a call names for a queue.
    using UrlOf = std::function<std::string(const std::string& queue)>;

    explicit LiveQueuePanel(QWidget* parent = nullptr);
    void setSource(const RunView* run, Call call, UrlOf urlOf); // a null engine: nothing is live
    // Re-reads the queues and the chosen one's attributes (a field being edited is left alone).
    void sync();
    QString queue() const;

    QComboBox* queueBox() const { return m_queue; }
    QSpinBox* visibility() const { return m_visibility; }
    QSpinBox* delay() const { return m_delay; }
    QPushButton* applyButton() const { return m_apply; }
    QLineEdit* body() const { return m_body; }
    QPushButton* sendButton() const { return m_send; }
    QLabel* answer() const { return m_answer; }

signals:
    void applied(const QString& what);
    void refused(const QString& error);

private:
    struct Field {
        const char* attribute;
        QSpinBox* box;
        bool edited = false;
    };
    // A spin box over the attribute's SQS range.
    QSpinBox* addField(const char* attribute, const QString& label, const QString& suffix);
    void apply();
    void send();
    void answered(const QString& what, bool ok, const QString& answer);

    const RunView* m_run = nullptr;
    Call m_call;
    UrlOf m_urlOf;
    QComboBox* m_queue;
    QFormLayout* m_form = nullptr;
    std::vector<Field> m_fields;
    QSpinBox* m_delay = nullptr;
    QSpinBox* m_visibility = nullptr;
    QPushButton* m_apply;
    QLineEdit* m_body;
    QSpinBox* m_sendDelay;
    QPushButton* m_send;
    QLabel* m_answer;
};

} // namespace lifeline::ui
