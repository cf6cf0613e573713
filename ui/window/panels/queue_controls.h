// The controls that change a running simulation: the chosen queue's DelaySeconds, VisibilityTimeout,
// maxReceiveCount with its dead-letter queue on or off, ReceiveMessageWaitTimeSeconds and type; its consumers' count
// and processing time; its producer's rate. Every change goes through the simulation's operator calls, so SQS's rules
// apply and the timeline shows it as an operator event; a refused change shows SQS's text and changes nothing.
#pragma once

#include "lifeline/sim/simulation.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace lifeline::ui {

// A slider over a list of stops (non-linear: small values keep room) tied to a spin box taking any value.
class StopSlider : public QWidget {
    Q_OBJECT
public:
    StopSlider(std::vector<int> stops, const QString& suffix, QWidget* parent = nullptr);
    int value() const;
    void setValue(int value); // no signal
    bool editing() const; // the user is dragging or typing: do not overwrite
    QSlider* slider() const { return m_slider; }
    QSpinBox* spinBox() const { return m_spin; }
    static std::vector<int> stopsFor(std::pair<int, int> range); // 0..10 by one, then rounder steps

signals:
    void committed(int value); // released, typed and confirmed, or stepped with keys

private:
    int stopIndex(int value) const;
    std::vector<int> m_stops;
    QSlider* m_slider;
    QSpinBox* m_spin;
};

class QueueControls : public QWidget {
    Q_OBJECT
public:
    explicit QueueControls(QWidget* parent = nullptr);

    void setSimulation(sim::Simulation* simulation);
    // Re-reads the engine (after each frame); leaves alone a control being edited.
    void sync();
    QString queue() const; // the queue the controls act on
    // One consumer more (delta 1) or fewer (-1) on the chosen queue.
    void stepConsumers(int delta);
    // A learning layout shows the rows a lesson is about: DelaySeconds, VisibilityTimeout, the dead-letter queue, the
    // consumers, and those `named` (the settings the lesson's fix changes: "waitTimeSeconds", "rate", "type"); the
    // queue selector, the type, the wait time and the producer rate otherwise wait for the engineering layout.
    void setLearning(bool learning, const QStringList& named);

    StopSlider* delay() const { return m_delay; }
    StopSlider* visibility() const { return m_visibility; }
    StopSlider* maxReceiveCount() const { return m_maxReceives; }
    StopSlider* waitTime() const { return m_waitTime; }
    QCheckBox* deadLetter() const { return m_deadLetter; }
    QComboBox* queueType() const { return m_type; }
    QSpinBox* consumerCount() const { return m_consumers; }
    QDoubleSpinBox* processingSeconds() const { return m_processing; }
    QDoubleSpinBox* producerRate() const { return m_rate; }
    QLabel* waitNote() const { return m_waitNote; }

signals:
    // A change was applied (text for the status bar) or refused (SQS's code and message).
    void applied(const QString& what);
    void refused(const QString& error);
    // The type of a queue is fixed at creation: the window rebuilds the scenario and starts again.
    void queueTypeRequested(bool fifo);
    void sendRequested();
    void consumersChanged();

private:
    void connectControls(); // what each control does to the simulation
    void setAttribute(const char* name, const QString& value);
    void setRedrive();
    void setConsumerCount(int count);
    QString deadLetterTarget() const; // the DLQ's name to use when turning the redrive on
    int firstProducerOfQueue() const;
    void syncWaitNote(const std::string& queue, int queueWait);

    sim::Simulation* m_simulation = nullptr;
    QComboBox* m_queue;
    QComboBox* m_type;
    StopSlider* m_delay;
    QLabel* m_delayNote;
    StopSlider* m_visibility;
    QCheckBox* m_deadLetter;
    StopSlider* m_maxReceives;
    StopSlider* m_waitTime;
    QSpinBox* m_consumers;
    QDoubleSpinBox* m_processing;
    QDoubleSpinBox* m_rate;
    QPushButton* m_send;
    QLabel* m_waitNote; // what the consumers ask for themselves
    QFormLayout* m_form;
    QLabel* m_message;
    std::map<std::string, std::string> m_knownDeadLetter; // queue -> DLQ it used, for turning the redrive back on
};

} // namespace lifeline::ui
