#include "window/panels/live_queue_panel.h"

#include "lifeline/run/queue_attributes.h"
#include "window/panels/sqs_ranges.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lifeline::ui {

namespace {
int64_t attributeNumber(const QueueAttributes& a, const std::string& name)
{
    const auto text = attributeValue(a, name);
    return text ? std::strtoll(text->c_str(), nullptr, 10) : 0;
}
} // namespace

LiveQueuePanel::LiveQueuePanel(QWidget* parent)
    : QWidget(parent)
    , m_queue(new QComboBox(this))
    , m_apply(new QPushButton(tr("Set attributes"), this))
    , m_body(new QLineEdit(this))
    , m_sendDelay(new QSpinBox(this))
    , m_send(new QPushButton(tr("Send"), this))
    , m_answer(new QLabel(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* note = new QLabel(tr("Real clients drive this run. Changes go to the service as SQS calls, as the "
                               "operator, and its answer shows below."),
        this);
    note->setWordWrap(true);
    layout->addWidget(note);
    m_form = new QFormLayout;
    m_form->addRow(tr("Queue"), m_queue);
    layout->addLayout(m_form);
    m_delay = addField("DelaySeconds", tr("DelaySeconds"), tr(" s"));
    m_visibility = addField("VisibilityTimeout", tr("VisibilityTimeout"), tr(" s"));
    addField("ReceiveMessageWaitTimeSeconds", tr("WaitTimeSeconds"), tr(" s"));
    addField("MessageRetentionPeriod", tr("Retention"), tr(" s"));
    m_apply->setToolTip(tr("SetQueueAttributes with the values you changed"));
    layout->addWidget(m_apply);
    auto* sendForm = new QFormLayout;
    m_body->setPlaceholderText(tr("message body"));
    const auto [shortestDelay, longestDelay] = sqsRange("DelaySeconds");
    m_sendDelay->setRange(shortestDelay, longestDelay);
    m_sendDelay->setSuffix(tr(" s"));
    sendForm->addRow(tr("Body"), m_body);
    sendForm->addRow(tr("DelaySeconds"), m_sendDelay);
    layout->addLayout(sendForm);
    m_send->setToolTip(tr("SendMessage to the chosen queue"));
    layout->addWidget(m_send);
    m_answer->setWordWrap(true);
    m_answer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_answer);
    layout->addStretch(1);
    connect(m_apply, &QPushButton::clicked, this, &LiveQueuePanel::apply);
    connect(m_send, &QPushButton::clicked, this, &LiveQueuePanel::send);
    connect(m_body, &QLineEdit::returnPressed, this, &LiveQueuePanel::send);
    connect(m_queue, &QComboBox::currentIndexChanged, this, [this] {
        for (Field& f : m_fields)
            f.edited = false;
        m_answer->clear();
        sync();
    });
}

QSpinBox* LiveQueuePanel::addField(const char* attribute, const QString& label, const QString& suffix)
{
    auto* box = new QSpinBox(this);
    const auto [minimum, maximum] = sqsRange(attribute);
    box->setRange(minimum, maximum);
    box->setSuffix(suffix);
    box->setAccessibleName(label);
    box->setToolTip(QString::fromUtf8(attribute));
    m_form->addRow(label, box);
    m_fields.push_back(Field { attribute, box });
    const size_t index = m_fields.size() - 1;
    connect(box, &QSpinBox::valueChanged, this, [this, index] {
        if (!signalsBlocked())
            m_fields[index].edited = true;
    });
    return box;
}

void LiveQueuePanel::setSource(const RunView* run, Call call, UrlOf urlOf)
{
    m_run = run;
    m_call = std::move(call);
    m_urlOf = std::move(urlOf);
    for (Field& f : m_fields)
        f.edited = false;
    m_answer->clear();
    sync();
}

QString LiveQueuePanel::queue() const
{
    return m_queue->currentText();
}

void LiveQueuePanel::sync()
{
    if (!m_run)
        return;
    QStringList names;
    for (size_t q = 0; q < m_run->queueCount(); ++q)
        if (m_run->queueInfo(QueueIndex(q)).alive)
            names << QString::fromStdString(m_run->queueInfo(QueueIndex(q)).name);
    QStringList shown;
    for (int i = 0; i < m_queue->count(); ++i)
        shown << m_queue->itemText(i);
    if (names != shown) {
        const QString current = m_queue->currentText();
        const QSignalBlocker block(m_queue);
        m_queue->clear();
        m_queue->addItems(names);
        m_queue->setCurrentIndex(std::max(0, int(names.indexOf(current))));
    }
    const bool any = !names.isEmpty();
    m_apply->setEnabled(any);
    m_send->setEnabled(any);
    const auto index = m_run->queueIndex(queue().toStdString());
    if (!index)
        return;
    const QueueAttributes& attributes = *m_run->queueAttributes(*index);
    for (Field& f : m_fields) {
        if (f.edited || f.box->hasFocus())
            continue;
        const QSignalBlocker block(f.box);
        f.box->setValue(int(attributeNumber(attributes, f.attribute)));
    }
}

void LiveQueuePanel::apply()
{
    if (!m_call || queue().isEmpty())
        return;
    nlohmann::json attributes = nlohmann::json::object();
    QStringList changed;
    for (const Field& f : m_fields)
        if (f.edited) {
            attributes[f.attribute] = std::to_string(f.box->value());
            changed << QStringLiteral("%1=%2").arg(QString::fromUtf8(f.attribute)).arg(f.box->value());
        }
    if (changed.isEmpty()) {
        m_answer->setText(tr("Change a value first."));
        return;
    }
    const std::string name = queue().toStdString();
    const QString what = tr("SetQueueAttributes %1 on %2").arg(changed.join(QStringLiteral(", ")), queue());
    m_call("SetQueueAttributes", { { "QueueUrl", m_urlOf(name) }, { "Attributes", attributes } },
        [this, what](bool ok, const QString& answer) {
            if (ok)
                for (Field& f : m_fields)
                    f.edited = false;
            answered(what, ok, answer);
        });
}

void LiveQueuePanel::send()
{
    if (!m_call || queue().isEmpty())
        return;
    const std::string name = queue().toStdString();
    nlohmann::json params { { "QueueUrl", m_urlOf(name) }, { "MessageBody", m_body->text().toStdString() } };
    if (m_sendDelay->value() > 0)
        params["DelaySeconds"] = m_sendDelay->value();
    const QString what = tr("SendMessage to %1").arg(queue());
    m_call("SendMessage", params, [this, what](bool ok, const QString& answer) { answered(what, ok, answer); });
}

void LiveQueuePanel::answered(const QString& what, bool ok, const QString& answer)
{
    m_answer->setText(QStringLiteral("%1: %2").arg(what, answer));
    if (ok)
        emit applied(QStringLiteral("%1: %2").arg(what, answer));
    else
        emit refused(QStringLiteral("%1: %2").arg(what, answer));
    sync();
}

} // namespace lifeline::ui
