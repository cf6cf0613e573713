#include "window/dialogs/check_dialog.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lifeline::ui {

namespace {

using nlohmann::json;

QDoubleSpinBox* seconds(QWidget* parent, double value, double max, const QString& special = {})
{
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(0, max);
    box->setDecimals(1);
    box->setSuffix(QStringLiteral(" s"));
    box->setValue(value);
    if (!special.isEmpty())
        box->setSpecialValueText(special);
    return box;
}

QSpinBox* whole(QWidget* parent, int min, int max, int value, const QString& special = {})
{
    auto* box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setValue(value);
    if (!special.isEmpty())
        box->setSpecialValueText(special);
    return box;
}

std::string ms(double secondsValue)
{
    return std::to_string(std::llround(secondsValue * 1000)) + "ms";
}

} // namespace

CheckDialog::CheckDialog(QWidget* parent)
    : QDialog(parent)
    , m_attributes(new QPlainTextEdit(this))
    , m_deadLetter(new QPlainTextEdit(this))
    , m_p50(seconds(this, 2, 43200))
    , m_p99(seconds(this, 10, 43200))
    , m_consumers(whole(this, 1, check::CheckLimits::kConsumers, 1))
    , m_maxMessages(whole(this, 1, check::CheckLimits::kMaxMessages, 1))
    , m_waitTime(whole(this, -1, check::CheckLimits::kWaitTimeSeconds, -1, tr("the queue's")))
    , m_readTimeout(seconds(this, 0, 3600, tr("not set")))
    , m_heartbeat(new QCheckBox(tr("extend the visibility timeout while working"), this))
    , m_groups(whole(this, 0, check::CheckLimits::kGroups, 0, tr("none / not said")))
    , m_tenants(whole(this, 0, check::CheckLimits::kTenants, 0, tr("not said")))
    , m_rate(new QDoubleSpinBox(this))
    , m_lambda(new QCheckBox(tr("a Lambda trigger instead of consumers"), this))
    , m_lambdaTimeout(seconds(this, 30, double(check::CheckLimits::kLambdaLongestTimeout) / 1000))
    , m_batchSize(whole(this, 1, check::CheckLimits::kLambdaBatchSize, 10))
    , m_batchingWindow(whole(this, 0, int(check::CheckLimits::kLambdaBatchingWindow / 1000), 0))
    , m_list(new QListWidget(this))
    , m_detail(new QLabel(this))
    , m_error(new QLabel(this))
    , m_showMe(new QPushButton(tr("Show me"), this))
{
    setWindowTitle(tr("Check a queue"));
    resize(980, 640);
    m_attributes->setPlaceholderText(
        tr("Paste what `aws sqs get-queue-attributes --queue-url URL --attribute-names All` prints"));
    m_attributes->setObjectName(QStringLiteral("attributes"));
    m_p50->setObjectName(QStringLiteral("p50"));
    m_p99->setObjectName(QStringLiteral("p99"));
    m_consumers->setObjectName(QStringLiteral("consumers"));
    m_waitTime->setObjectName(QStringLiteral("waitTime"));
    m_deadLetter->setPlaceholderText(tr("Its dead-letter queue's attributes (optional)"));
    m_deadLetter->setMaximumHeight(90);
    m_rate->setRange(0, check::CheckLimits::kRate);
    m_rate->setDecimals(2);
    m_rate->setSuffix(tr(" messages/s"));
    m_rate->setSpecialValueText(tr("not said"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #e53935")); // readable on light and dark
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_showMe->setEnabled(false);
    m_showMe->setToolTip(tr("Open this finding's scenario like a lesson: your numbers, the suggestion as its fix"));

    QLayout* input = inputColumn();

    auto* checkButton = new QPushButton(tr("Check"), this);
    checkButton->setDefault(true);
    connect(checkButton, &QPushButton::clicked, this, [this] { check(); });
    connect(m_list, &QListWidget::currentRowChanged, this, [this] { showSelected(); });
    connect(m_showMe, &QPushButton::clicked, this, [this] {
        const int row = m_list->currentRow();
        if (row < 0 || row >= int(m_findings.size()) || m_findings[size_t(row)].scenario.is_null())
            return;
        auto parsed = scenario::parseScenario(m_findings[size_t(row)].scenario);
        if (auto* scenario = std::get_if<scenario::Scenario>(&parsed))
            emit showScenario(*scenario);
    });

    auto* output = new QVBoxLayout;
    output->addWidget(checkButton);
    output->addWidget(m_error);
    output->addWidget(new QLabel(tr("Findings, most severe first"), this));
    output->addWidget(m_list, 1);
    output->addWidget(m_detail, 1);
    output->addWidget(m_showMe);

    auto* layout = new QHBoxLayout(this);
    layout->addLayout(input, 1);
    layout->addLayout(output, 1);
}

QLayout* CheckDialog::inputColumn()
{
    auto* openAttributes = new QPushButton(tr("Open file..."), this);
    auto* openDeadLetter = new QPushButton(tr("Open file..."), this);
    connect(openAttributes, &QPushButton::clicked, this, [this] { openAttributesFile(m_attributes); });
    connect(openDeadLetter, &QPushButton::clicked, this, [this] { openAttributesFile(m_deadLetter); });

    auto* form = new QFormLayout;
    form->addRow(tr("Processing p50"), m_p50);
    form->addRow(tr("Processing p99"), m_p99);
    form->addRow(tr("Consumers"), m_consumers);
    form->addRow(tr("MaxNumberOfMessages"), m_maxMessages);
    form->addRow(tr("WaitTimeSeconds"), m_waitTime);
    form->addRow(tr("HTTP read timeout"), m_readTimeout);
    form->addRow(QString(), m_heartbeat);
    form->addRow(tr("MessageGroupIds used"), m_groups);
    m_groups->setToolTip(tr("A FIFO queue's message groups; on a standard queue, the tenants' group ids"));
    form->addRow(tr("Tenants sharing it"), m_tenants);
    form->addRow(tr("Producers' rate"), m_rate);
    form->addRow(QString(), m_lambda);
    form->addRow(tr("Function timeout"), m_lambdaTimeout);
    form->addRow(tr("Batch size"), m_batchSize);
    m_batchingWindow->setSuffix(QStringLiteral(" s"));
    m_batchingWindow->setToolTip(tr("MaximumBatchingWindowInSeconds: at least 1 s for a batch above 10"));
    form->addRow(tr("Batching window"), m_batchingWindow);
    const auto lambdaOn = [this](bool on) {
        m_lambdaTimeout->setEnabled(on);
        m_batchSize->setEnabled(on);
        m_batchingWindow->setEnabled(on);
        m_consumers->setEnabled(!on);
        m_maxMessages->setEnabled(!on);
        m_waitTime->setEnabled(!on);
    };
    connect(m_lambda, &QCheckBox::toggled, this, lambdaOn);
    lambdaOn(false);

    auto* input = new QVBoxLayout;
    auto* attributesRow = new QHBoxLayout;
    attributesRow->addWidget(new QLabel(tr("Queue attributes"), this), 1);
    attributesRow->addWidget(openAttributes);
    input->addLayout(attributesRow);
    input->addWidget(m_attributes, 2);
    auto* deadLetterRow = new QHBoxLayout;
    deadLetterRow->addWidget(new QLabel(tr("Dead-letter queue's attributes"), this), 1);
    deadLetterRow->addWidget(openDeadLetter);
    input->addLayout(deadLetterRow);
    input->addWidget(m_deadLetter);
    input->addLayout(form);

    return input;
}

void CheckDialog::setAttributesText(const QString& json)
{
    m_attributes->setPlainText(json);
}

void CheckDialog::setDeadLetterText(const QString& json)
{
    m_deadLetter->setPlainText(json);
}

json CheckDialog::consumerSide() const
{
    json side = { { "processing", { { "p50", ms(m_p50->value()) }, { "p99", ms(m_p99->value()) } } } };
    if (m_lambda->isChecked()) {
        side["lambda"] = { { "timeout", ms(m_lambdaTimeout->value()) }, { "batchSize", m_batchSize->value() },
            { "batchingWindow", std::to_string(m_batchingWindow->value()) + "s" } };
    } else {
        side["consumers"] = m_consumers->value();
        side["maxMessages"] = m_maxMessages->value();
        if (m_waitTime->value() >= 0)
            side["waitTimeSeconds"] = m_waitTime->value();
    }
    if (m_readTimeout->value() > 0)
        side["readTimeout"] = ms(m_readTimeout->value());
    if (m_heartbeat->isChecked())
        side["heartbeat"] = true;
    if (m_groups->value() > 0)
        side["groups"] = m_groups->value();
    if (m_tenants->value() > 0)
        side["tenants"] = m_tenants->value();
    if (m_rate->value() > 0)
        side["rate"] = m_rate->value();
    return side;
}

bool CheckDialog::check()
{
    m_findings.clear();
    m_list->clear();
    m_error->clear();
    m_detail->clear();
    m_showMe->setEnabled(false);
    const auto parse = [this](const QPlainTextEdit* edit, const QString& what) -> std::optional<json> {
        try {
            return json::parse(edit->toPlainText().toStdString());
        } catch (const json::exception&) {
            m_error->setText(tr("%1: not valid JSON").arg(what));
            return std::nullopt;
        }
    };
    const auto attributes = parse(m_attributes, tr("Queue attributes"));
    if (!attributes)
        return false;
    std::optional<json> deadLetter;
    if (!m_deadLetter->toPlainText().trimmed().isEmpty() && !(deadLetter = parse(m_deadLetter, tr("DLQ attributes"))))
        return false;
    const auto input = check::readCheckInput(*attributes, deadLetter ? &*deadLetter : nullptr, consumerSide());
    if (!input) {
        m_error->setText(QString::fromStdString(input.message()));
        return false;
    }
    m_findings = check::checkQueue(input.value());
    for (const auto& f : m_findings)
        m_list->addItem(QStringLiteral("[%1] %2").arg(
            QString::fromLatin1(check::severityName(f.severity)), QString::fromStdString(f.id)));
    if (m_findings.empty())
        m_detail->setText(tr("No findings: these settings suit these consumers."));
    else
        m_list->setCurrentRow(0);
    return true;
}

QString CheckDialog::errorText() const
{
    return m_error->text();
}

void CheckDialog::selectFinding(int row)
{
    m_list->setCurrentRow(row);
}

QString CheckDialog::detailText() const
{
    return m_detail->text();
}

void CheckDialog::showSelected()
{
    const int row = m_list->currentRow();
    if (row < 0 || row >= int(m_findings.size()))
        return;
    const check::Finding& f = m_findings[size_t(row)];
    QString text = QString::fromStdString(f.message) + QStringLiteral("\n\n")
        + tr("Suggestion: %1").arg(QString::fromStdString(f.suggestion));
    if (f.scenario.is_null())
        text += QStringLiteral("\n\n") + tr("No scenario: %1.").arg(QString::fromStdString(f.noScenario));
    m_detail->setText(text);
    m_showMe->setEnabled(!f.scenario.is_null());
}

void CheckDialog::openAttributesFile(QPlainTextEdit* into)
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Queue attributes"), QString(), tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_error->setText(tr("Cannot read %1: %2").arg(path, file.errorString()));
        return;
    }
    into->setPlainText(QString::fromUtf8(file.readAll()));
}

} // namespace lifeline::ui
