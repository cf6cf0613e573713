#include "window/panels/queue_controls.h"

#include "lifeline/sim/distribution_text.h"
#include "window/panels/sqs_ranges.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include <cmath>

namespace lifeline::ui {

// ---- StopSlider ----

std::vector<int> StopSlider::stopsFor(std::pair<int, int> range)
{
    const auto [minimum, maximum] = range;
    // Every value up to 10, then about 12 stops per decade on round numbers: 43,200 s stays reachable and 5 s too.
    static const int kSteps[] = { 12, 15, 20, 25, 30, 40, 45, 50, 60, 75, 90 };
    std::vector<int> stops;
    for (int v = minimum; v <= std::min(maximum, 10); ++v)
        stops.push_back(v);
    for (long decade = 1; decade <= 100000; decade *= 10)
        for (int step : kSteps) {
            const long v = step * decade;
            if (v > minimum && v > 10 && v < maximum && (stops.empty() || v > stops.back()))
                stops.push_back(int(v));
        }
    if (stops.empty() || stops.back() != maximum)
        stops.push_back(maximum);
    return stops;
}

StopSlider::StopSlider(std::vector<int> stops, const QString& suffix, QWidget* parent)
    : QWidget(parent)
    , m_stops(std::move(stops))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_spin(new QSpinBox(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_slider->setRange(0, int(m_stops.size()) - 1);
    m_slider->setPageStep(3);
    m_spin->setRange(m_stops.front(), m_stops.back());
    m_spin->setSuffix(suffix);
    m_spin->setKeyboardTracking(false); // typing commits on Enter or leaving the field
    m_spin->setMinimumWidth(90);
    // Long enough to drag: where the dock is narrower, the form puts the row below its label (WrapLongRows).
    m_slider->setMinimumWidth(90);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spin);
    setFocusProxy(m_slider);
    connect(m_slider, &QSlider::valueChanged, this, [this](int position) {
        const QSignalBlocker block(m_spin);
        m_spin->setValue(m_stops[size_t(position)]);
        if (!m_slider->isSliderDown()) // keys and clicks on the groove commit; a drag commits on release
            emit committed(m_spin->value());
    });
    connect(m_slider, &QSlider::sliderReleased, this, [this] { emit committed(m_spin->value()); });
    connect(m_spin, &QSpinBox::valueChanged, this, [this](int value) {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(stopIndex(value));
        emit committed(value);
    });
}

int StopSlider::stopIndex(int value) const
{
    const auto at = std::upper_bound(m_stops.begin(), m_stops.end(), value);
    return std::max(0, int(at - m_stops.begin()) - 1);
}

int StopSlider::value() const
{
    return m_spin->value();
}

void StopSlider::setValue(int value)
{
    const QSignalBlocker blockSpin(m_spin);
    const QSignalBlocker blockSlider(m_slider);
    m_spin->setValue(value);
    m_slider->setValue(stopIndex(value));
}

bool StopSlider::editing() const
{
    return m_slider->isSliderDown() || m_spin->hasFocus();
}

// ---- QueueControls ----

namespace {
// What a user sets in the boxes; a scenario that runs more widens them to show what runs.
constexpr int kMostConsumersSet = 64;
constexpr double kHighestRateSet = 1000.0;

// A spin box's setMaximum asks its layout again even when nothing changed, and that request climbs to the main
// window, which then repaints whole every frame; only a real change is passed on.
template <typename SpinBox, typename Value> void setMaximumIfChanged(SpinBox* box, Value maximum)
{
    if (box->maximum() != maximum)
        box->setMaximum(maximum);
}

QLabel* note(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    QFont small = label->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    label->setFont(small);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}
} // namespace

QueueControls::QueueControls(QWidget* parent)
    : QWidget(parent)
    , m_queue(new QComboBox(this))
    , m_type(new QComboBox(this))
    , m_delay(new StopSlider(StopSlider::stopsFor(sqsRange("DelaySeconds")), tr(" s"), this))
    , m_delayNote(note(this))
    , m_visibility(new StopSlider(StopSlider::stopsFor(sqsRange("VisibilityTimeout")), tr(" s"), this))
    , m_deadLetter(new QCheckBox(tr("&Dead-letter queue after"), this))
    , m_maxReceives(new StopSlider(StopSlider::stopsFor(maxReceiveCountRange()), tr(" receives"), this))
    , m_waitTime(new StopSlider(StopSlider::stopsFor(sqsRange("ReceiveMessageWaitTimeSeconds")), tr(" s"), this))
    , m_consumers(new QSpinBox(this))
    , m_processing(new QDoubleSpinBox(this))
    , m_rate(new QDoubleSpinBox(this))
    , m_send(new QPushButton(tr("Send a &message..."), this))
    , m_waitNote(note(this))
    , m_message(note(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_form = form;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // In a narrow dock (a 1024x700 window) a slider and its value go below their label instead of past the edge.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_queue->setObjectName(QStringLiteral("queueSelector"));
    m_type->setObjectName(QStringLiteral("queueType"));
    m_visibility->setObjectName(QStringLiteral("visibilitySlider"));
    m_waitTime->setObjectName(QStringLiteral("waitTimeSlider"));
    m_rate->setObjectName(QStringLiteral("producerRate"));
    form->addRow(tr("&Queue"), m_queue);
    m_type->addItem(tr("Standard"), false);
    m_type->addItem(tr("FIFO"), true);
    m_type->setToolTip(tr("A queue's type is fixed when it is created: changing it starts the run again with every "
                          "queue of that type."));
    form->addRow(tr("&Type"), m_type);
    form->addRow(tr("D&elaySeconds"), m_delay);
    form->addRow(QString(), m_delayNote);
    m_visibility->setToolTip(tr("How long a received message stays invisible to other consumers (0 to 12 hours)"));
    form->addRow(tr("&VisibilityTimeout"), m_visibility);
    m_deadLetter->setToolTip(tr("A RedrivePolicy: a message received this many times moves to the dead-letter queue "
                                "on its next receive"));
    form->addRow(m_deadLetter, m_maxReceives);
    form->addRow(tr("&WaitTimeSeconds"), m_waitTime);
    form->addRow(QString(), m_waitNote);
    m_waitTime->setToolTip(tr("ReceiveMessageWaitTimeSeconds: the queue's default long-poll wait (0: short polling)"));
    auto* consumersRow = new QWidget(this);
    auto* consumersLayout = new QHBoxLayout(consumersRow);
    consumersLayout->setContentsMargins(0, 0, 0, 0);
    m_consumers->setRange(0, kMostConsumersSet);
    m_consumers->setKeyboardTracking(false);
    m_consumers->setToolTip(tr("Consumers polling this queue: more are added like the first; fewer stop the newest"));
    consumersLayout->addWidget(m_consumers);
    consumersLayout->addWidget(new QLabel(tr("processing"), this));
    m_processing->setRange(0.0, 3600.0);
    m_processing->setDecimals(3); // milliseconds: a consumer's work is often 5 ms, which one decimal showed as 0.0 s
    m_processing->setSuffix(tr(" s"));
    m_processing->setKeyboardTracking(false);
    m_processing->setToolTip(tr("How long each consumer works on a message, from its next message on"));
    consumersLayout->addWidget(m_processing, 1);
    form->addRow(tr("&Consumers"), consumersRow);
    m_rate->setRange(0.0, kHighestRateSet);
    m_rate->setDecimals(2);
    m_rate->setSuffix(tr(" /s"));
    m_rate->setKeyboardTracking(false);
    m_rate->setToolTip(tr("The producer's messages per second (0 stops it)"));
    form->addRow(tr("&Producer rate"), m_rate);
    layout->addLayout(form);
    layout->addWidget(m_send);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    layout->addStretch(1);
    connectControls();
    m_maxReceives->setValue(5); // until a queue's RedrivePolicy says otherwise
    setSimulation(nullptr);
}

void QueueControls::setLearning(bool learning, const QStringList& named)
{
    // A row by any of the names a fix may give its setting (a queue's attribute, a consumer's or producer's field).
    const auto shown = [&](std::initializer_list<const char*> names) {
        return !learning || std::any_of(names.begin(), names.end(), [&](const char* name) {
            return named.contains(QLatin1String(name));
        });
    };
    m_form->setRowVisible(m_queue, !learning);
    m_form->setRowVisible(m_type, shown({ "type", "FifoQueue" }));
    const bool wait = shown({ "ReceiveMessageWaitTimeSeconds", "waitTimeSeconds" });
    m_form->setRowVisible(m_waitTime, wait);
    if (!wait)
        m_waitNote->hide(); // else the next sync shows it where it has something to say
    m_form->setRowVisible(m_rate, shown({ "rate" }));
}

void QueueControls::connectControls()
{
    connect(m_queue, &QComboBox::currentIndexChanged, this, [this] { sync(); });
    connect(m_type, &QComboBox::activated, this, [this] {
        const bool fifo = m_type->currentData().toBool();
        if (m_simulation
            && fifo != m_simulation->engine().queueInfo(*m_simulation->engine().queueIndex(queue().toStdString())).fifo)
            emit queueTypeRequested(fifo);
    });
    connect(m_delay, &StopSlider::committed, this, [this](int v) { setAttribute("DelaySeconds", QString::number(v)); });
    connect(m_visibility, &StopSlider::committed, this,
        [this](int v) { setAttribute("VisibilityTimeout", QString::number(v)); });
    connect(m_waitTime, &StopSlider::committed, this,
        [this](int v) { setAttribute("ReceiveMessageWaitTimeSeconds", QString::number(v)); });
    connect(m_maxReceives, &StopSlider::committed, this, [this] {
        if (m_deadLetter->isChecked())
            setRedrive();
    });
    connect(m_deadLetter, &QCheckBox::toggled, this, [this] { setRedrive(); });
    connect(m_consumers, &QSpinBox::valueChanged, this, &QueueControls::setConsumerCount);
    connect(m_processing, &QDoubleSpinBox::valueChanged, this, [this](double seconds) {
        if (!m_simulation)
            return;
        const scenario::Distribution processing { scenario::Distribution::Kind::Fixed,
            TimeMs(std::llround(seconds * 1000)), 0, {} };
        sim::operate(*m_simulation, [queue = queue().toStdString(), processing](sim::Simulation& s) {
            s.setProcessingTime(queue, processing);
        });
        emit applied(tr("Processing now takes %1 s per message").arg(seconds));
    });
    connect(m_rate, &QDoubleSpinBox::valueChanged, this, [this](double rate) {
        const int producer = firstProducerOfQueue();
        if (m_simulation && producer >= 0 && sim::operate(*m_simulation, [producer, rate](sim::Simulation& s) {
                return s.setProducerRate(size_t(producer), rate);
            }))
            emit applied(tr("The producer now sends %1 per second").arg(rate));
    });
    connect(m_send, &QPushButton::clicked, this, &QueueControls::sendRequested);
}

QString QueueControls::queue() const
{
    return m_queue->currentText();
}

void QueueControls::setSimulation(sim::Simulation* simulation)
{
    m_simulation = simulation;
    m_knownDeadLetter.clear();
    {
        const QSignalBlocker block(m_queue);
        m_queue->clear();
        if (simulation) {
            // The scenario's queues that are not some queue's DLQ come first: they are what the lesson is about.
            const auto& scenario = simulation->scenario();
            std::vector<std::string> names;
            for (const auto& q : scenario.queues) {
                if (q.deadLetterQueue)
                    m_knownDeadLetter[q.name] = *q.deadLetterQueue;
                const bool isDeadLetter = std::any_of(scenario.queues.begin(), scenario.queues.end(),
                    [&](const scenario::QueueSpec& other) { return other.deadLetterQueue == q.name; });
                if (!isDeadLetter)
                    names.push_back(q.name);
            }
            for (const auto& q : scenario.queues)
                if (std::find(names.begin(), names.end(), q.name) == names.end())
                    names.push_back(q.name);
            for (const auto& name : names)
                m_queue->addItem(QString::fromStdString(name));
        }
    }
    m_message->clear();
    setEnabled(simulation != nullptr);
    // A new run: maxReceiveCount starts from this lesson's (or the default), not the last lesson's.
    if (simulation && !m_maxReceives->editing()) {
        int maxReceives = 5;
        for (const auto& q : simulation->scenario().queues)
            if (q.name == queue().toStdString() && q.deadLetterQueue)
                maxReceives = int(q.maxReceiveCount);
        m_maxReceives->setValue(maxReceives);
    }
    sync();
}

void QueueControls::syncWaitNote(const std::string& queue, int queueWait)
{
    // The queue's wait applies only to a receive that names none; the simulated consumers always name theirs, so a
    // queue at 0 s with consumers waiting 20 s is not short polling. Say what they ask for.
    int least = INT_MAX, most = -1;
    for (const auto& c : m_simulation->scenario().consumers)
        if (c.queue == queue) {
            least = std::min(least, int(c.waitTimeSeconds));
            most = std::max(most, int(c.waitTimeSeconds));
        }
    for (const auto& l : m_simulation->scenario().lambdas)
        if (l.queue == queue)
            most = std::max(most, 20), least = std::min(least, 20); // event source mappings long-poll 20 s
    if (most < 0) {
        m_waitNote->clear();
        m_waitNote->hide();
        return;
    }
    const QString asked = least == most ? tr("%1 s").arg(most) : tr("%1–%2 s").arg(least).arg(most);
    m_waitNote->setText(least == queueWait && most == queueWait
            ? tr("The consumers ask for %1 too.").arg(asked)
            : tr("The consumers ask for %1 themselves: their WaitTimeSeconds wins over this default.").arg(asked));
    m_waitNote->setVisible(m_waitTime->isVisibleTo(this));
}

int QueueControls::firstProducerOfQueue() const
{
    if (!m_simulation)
        return -1;
    const auto& producers = m_simulation->scenario().producers;
    for (size_t i = 0; i < producers.size(); ++i)
        if (producers[i].queue == queue().toStdString())
            return int(i);
    return -1;
}

void QueueControls::sync()
{
    if (!m_simulation || m_queue->currentIndex() < 0)
        return;
    const std::string name = queue().toStdString();
    const Engine& engine = m_simulation->engine();
    const auto index = engine.queueIndex(name);
    const auto attributes = engine.getQueueAttributes(
        name, { "DelaySeconds", "VisibilityTimeout", "ReceiveMessageWaitTimeSeconds", "RedrivePolicy" });
    if (!index || !attributes) {
        m_message->setText(tr("%1 does not exist now.").arg(queue()));
        return;
    }
    const bool fifo = engine.queueInfo(*index).fifo;
    if (!m_type->hasFocus()) {
        const QSignalBlocker block(m_type);
        m_type->setCurrentIndex(fifo ? 1 : 0);
    }
    const auto number = [&](const char* key) { return QString::fromStdString(attributes->at(key)).toInt(); };
    if (!m_delay->editing())
        m_delay->setValue(number("DelaySeconds"));
    m_delayNote->setText(fifo ? tr("FIFO: a change also applies to messages already delayed.")
                              : tr("Standard: a change applies only to messages sent from now on."));
    if (!m_visibility->editing())
        m_visibility->setValue(number("VisibilityTimeout"));
    if (!m_waitTime->editing())
        m_waitTime->setValue(number("ReceiveMessageWaitTimeSeconds"));
    const auto policy = attributes->find("RedrivePolicy");
    const QString redrive = policy == attributes->end() ? QString() : QString::fromStdString(policy->second);
    static const QRegularExpression kMax(QStringLiteral("\"maxReceiveCount\"\\s*:\\s*\"?(\\d+)"));
    static const QRegularExpression kTarget(QStringLiteral("\"deadLetterTargetArn\"\\s*:\\s*\"[^\"]*:([^\":]+)\""));
    {
        const QSignalBlocker block(m_deadLetter);
        m_deadLetter->setChecked(!redrive.isEmpty());
    }
    if (const auto target = kTarget.match(redrive); target.hasMatch())
        m_knownDeadLetter[name] = target.captured(1).toStdString();
    if (const auto max = kMax.match(redrive); max.hasMatch() && !m_maxReceives->editing())
        m_maxReceives->setValue(max.captured(1).toInt());
    syncWaitNote(name, number("ReceiveMessageWaitTimeSeconds"));
    int consumers = 0;
    for (const auto& c : m_simulation->consumers())
        consumers += c.queue == name && !c.removed && !c.lambda ? 1 : 0; // Lambda pollers are not set here
    if (!m_consumers->hasFocus()) {
        const QSignalBlocker block(m_consumers);
        setMaximumIfChanged(m_consumers, std::max(kMostConsumersSet, consumers)); // a scenario may run more
        m_consumers->setValue(consumers);
    }
    if (!m_processing->hasFocus()) {
        const QSignalBlocker block(m_processing);
        const scenario::Distribution* processing = nullptr;
        for (const auto& c : m_simulation->scenario().consumers)
            if (c.queue == name) {
                processing = &c.processing;
                break;
            }
        // The box sets a fixed time; a drawn one shows its middle, and the tooltip says what is drawn.
        m_processing->setValue(processing ? double(sim::typicalMs(*processing)) / 1000.0 : 1.0);
        const QString drawn = processing && processing->kind != scenario::Distribution::Kind::Fixed
            ? tr("\n\nNow drawn for each message: %1 (this shows its middle). A value set here makes it fixed.")
                  .arg(QString::fromStdString(sim::describe(*processing)))
            : QString();
        m_processing->setToolTip(tr("How long each consumer works on a message, from its next message on") + drawn);
    }
    const int producer = firstProducerOfQueue();
    m_rate->setEnabled(producer >= 0);
    if (!m_rate->hasFocus()) {
        const QSignalBlocker block(m_rate);
        const double rate = producer >= 0 ? m_simulation->producerRate(size_t(producer)) : 0.0;
        setMaximumIfChanged(m_rate, std::max(kHighestRateSet, rate));
        m_rate->setValue(rate);
    }
}

void QueueControls::setAttribute(const char* attribute, const QString& value)
{
    if (!m_simulation)
        return;
    const auto status = sim::operate(*m_simulation,
        [queue = queue().toStdString(), attributes = AttributeMap { { attribute, value.toStdString() } }](
            sim::Simulation& s) { return s.setQueueAttributes(queue, attributes); });
    if (!status) {
        m_message->setText(QStringLiteral("%1: %2").arg(
            QString::fromStdString(status.error().code), QString::fromStdString(status.error().message)));
        emit refused(m_message->text());
        sync(); // back to what the queue has
        return;
    }
    m_message->clear();
    emit applied(tr("%1 = %2 on %3").arg(QLatin1String(attribute), value, queue()));
}

QString QueueControls::deadLetterTarget() const
{
    const std::string name = queue().toStdString();
    if (const auto known = m_knownDeadLetter.find(name); known != m_knownDeadLetter.end())
        return QString::fromStdString(known->second);
    const bool fifo = name.ends_with(".fifo");
    const std::string base = fifo ? name.substr(0, name.size() - 5) : name;
    return QString::fromStdString(base.substr(0, 70) + "-dlq" + (fifo ? ".fifo" : ""));
}

void QueueControls::setRedrive()
{
    if (!m_simulation)
        return;
    if (!m_deadLetter->isChecked()) {
        setAttribute("RedrivePolicy", QString());
        return;
    }
    const QString target = deadLetterTarget();
    Engine& engine = m_simulation->engine();
    if (!engine.queueIndex(target.toStdString())) {
        AttributeMap attributes;
        if (target.endsWith(QLatin1String(".fifo")))
            attributes["FifoQueue"] = "true";
        const auto created = sim::operate(*m_simulation,
            [name = target.toStdString(), attributes](sim::Simulation& s) { return s.createQueue(name, attributes); });
        if (!created) {
            m_message->setText(QString::fromStdString(created.error().code + ": " + created.error().message));
            emit refused(m_message->text());
            sync();
            return;
        }
        m_knownDeadLetter[queue().toStdString()] = target.toStdString();
    }
    const QString policy = QStringLiteral("{\"deadLetterTargetArn\":\"%1\",\"maxReceiveCount\":%2}")
                               .arg(QString::fromStdString(engine.getQueueArn(target.toStdString()).value()))
                               .arg(m_maxReceives->value());
    setAttribute("RedrivePolicy", policy);
}

void QueueControls::stepConsumers(int delta)
{
    m_consumers->setValue(std::max(0, m_consumers->value() + delta));
}

void QueueControls::setConsumerCount(int count)
{
    if (!m_simulation)
        return;
    const std::string name = queue().toStdString();
    std::vector<size_t> live;
    const auto consumers = m_simulation->consumers();
    for (size_t i = 0; i < consumers.size(); ++i)
        if (consumers[i].queue == name && !consumers[i].removed && !consumers[i].lambda)
            live.push_back(i);
    for (int n = int(live.size()); n < count; ++n)
        sim::operate(*m_simulation, [name](sim::Simulation& s) { return s.addConsumer(name); });
    for (int n = int(live.size()); n > count; --n)
        sim::operate(
            *m_simulation, [index = live[size_t(n) - 1]](sim::Simulation& s) { return s.removeConsumer(index); });
    emit consumersChanged();
    emit applied((count == 1 ? tr("1 consumer on %1") : tr("%1 consumers on %2").arg(count)).arg(queue()));
}

} // namespace lifeline::ui
