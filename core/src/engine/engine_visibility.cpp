// Receipt handles, DeleteMessage and ChangeMessageVisibility (and their batches).
#include "engine_internal.h"
#include "lifeline/engine/message_rules.h"
#include "lifeline/support/base64.h"

#include <algorithm>
#include <array>

namespace lifeline {

namespace {
constexpr std::string_view kHandlePrefix = "AQEB";
constexpr size_t kHandleBytes = 16;
constexpr size_t kHandleLength = kHandlePrefix.size() + 22;

uint32_t checkValue(uint32_t lane, uint32_t count, uint32_t uid, uint64_t seed)
{
    uint64_t x = (uint64_t(lane) << 32 | count) ^ (uint64_t(uid) * 0x9e3779b97f4a7c15ULL) ^ seed;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return uint32_t(x);
}

void put32(uint8_t* p, uint32_t v)
{
    p[0] = uint8_t(v >> 24);
    p[1] = uint8_t(v >> 16);
    p[2] = uint8_t(v >> 8);
    p[3] = uint8_t(v);
}

uint32_t get32(const uint8_t* p)
{
    return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}

SqsError invalidHandle(const std::string& handle)
{
    return makeError(
        codes::ReceiptHandleIsInvalid, "The input receipt handle \"" + handle + "\" is not a valid receipt handle.");
}

// Runs one per-entry operation over a batch: failures go to Failed[] (and the log), the rest to Successful[].
template <class Entry, class Apply, class Refuse>
BatchResult<bool> applyToEach(const std::vector<Entry>& entries, Apply&& apply, Refuse&& refuse)
{
    BatchResult<bool> out;
    for (const auto& e : entries) {
        if (auto error = apply(e)) {
            refuse(*error);
            out.failed.push_back(BatchEntryError { e.id, error->code, error->message, true });
        } else {
            out.successful.emplace_back(e.id, true);
        }
    }
    return out;
}
} // namespace

std::string Engine::receiptHandle(const Receipt& receipt) const
{
    // "AQEB" and 16 bytes (lane, receive count, queue, check value) in URL-safe base64 without padding: 26 characters.
    uint8_t bytes[kHandleBytes] = {};
    put32(bytes, receipt.lane);
    put32(bytes + 4, receipt.receiveCount);
    put32(bytes + 8, receipt.queueUid);
    put32(bytes + 12, checkValue(receipt.lane, receipt.receiveCount, receipt.queueUid, m_options.seed));
    std::string out;
    out.reserve(kHandleLength);
    out += kHandlePrefix;
    base64Append(out, std::string_view(reinterpret_cast<const char*>(bytes), kHandleBytes), Base64::UrlUnpadded);
    return out;
}

std::optional<Receipt> Engine::parseReceipt(const std::string& handle) const
{
    if (handle.size() != kHandleLength || !handle.starts_with(kHandlePrefix))
        return std::nullopt;
    char decoded[kHandleBytes];
    const auto size = base64DecodeInto(
        std::string_view(handle).substr(kHandlePrefix.size()), Base64::UrlUnpadded, decoded, sizeof decoded);
    if (!size || *size != kHandleBytes)
        return std::nullopt;
    const auto* bytes = reinterpret_cast<const uint8_t*>(decoded);
    Receipt receipt { get32(bytes), get32(bytes + 4), get32(bytes + 8) };
    if (get32(bytes + 12) != checkValue(receipt.lane, receipt.receiveCount, receipt.queueUid, m_options.seed))
        return std::nullopt;
    if (!isIssued(receipt))
        return std::nullopt;
    return receipt;
}

bool Engine::isIssued(const Receipt& receipt) const
{
    // A forgotten lane's receive count is unknown: the handle's check value already proved it was issued.
    return receipt.lane < m_run.messageCount() && receipt.receiveCount != 0
        && (gone(receipt.lane) || receipt.receiveCount <= m_run.message(receipt.lane).receiveCount);
}

std::optional<SqsError> Engine::deleteOne(QueueState& queue, const std::string& handle, uint32_t actor)
{
    const auto receipt = parseReceipt(handle);
    if (!receipt)
        return invalidHandle(handle);
    return deleteOne(queue, *receipt, actor, &handle);
}

std::optional<SqsError> Engine::deleteOne(
    QueueState& queue, const Receipt& receipt, uint32_t actor, const std::string* text)
{
    const auto quoted = [&] { return text ? *text : receiptHandle(receipt); };
    if (!isIssued(receipt) || receipt.queueUid != queue.uid)
        return invalidHandle(quoted());
    if (gone(receipt.lane)) {
        noEffect(receipt.lane, queue.index, NoEffectKind::DeleteOfEndedMessage, actor); // it ended long ago
        return std::nullopt;
    }
    const MessageRecord& record = m_run.message(receipt.lane);
    if (!isLive(record.state) || record.queue != queue.index) {
        // Already deleted, expired or moved: idempotent success (AWS-val). Logged, so "OK, nothing changed" shows.
        noEffect(receipt.lane, NoEffectKind::DeleteOfEndedMessage, actor);
        return std::nullopt;
    }
    const bool current = record.state == MessageState::InFlight && record.receiveCount == receipt.receiveCount;
    if (!current) {
        if (queue.fifo())
            return makeError(codes::InvalidParameterValue,
                "Value " + quoted()
                    + " for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.");
        const bool receivedAgain = record.receiveCount != receipt.receiveCount;
        if (receivedAgain && !m_options.staleHandleDeletes) {
            // "the request will succeed, but the message might not be deleted" (AWS-doc)
            noEffect(receipt.lane, NoEffectKind::DeleteWithStaleHandle, actor);
            return std::nullopt;
        }
    }
    endMessage(queue, receipt.lane, MessageState::Deleted, Cause::Delete, actor, receipt.receiveCount);
    return std::nullopt;
}

Status Engine::deleteMessage(const std::string& queueName, const std::string& receiptHandle, uint32_t actor)
{
    auto found = requireQueue(queueName);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    QueueState& queue = *found.value();
    if (receiptHandle.empty())
        return refuse(queue.index,
            makeError(codes::MissingParameter, "The request must contain the parameter ReceiptHandle."), actor);
    if (auto throttled = throttle(queue, QuotaAction::Delete))
        return refuse(queue.index, *throttled, actor);
    if (auto error = deleteOne(queue, receiptHandle, actor))
        return refuse(queue.index, *error, actor);
    flushWakeups();
    return Ok {};
}

Status Engine::deleteMessage(const std::string& queueName, const Receipt& receipt, uint32_t actor)
{
    auto found = requireQueue(queueName);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    QueueState& queue = *found.value();
    if (auto throttled = throttle(queue, QuotaAction::Delete))
        return refuse(queue.index, *throttled, actor);
    if (auto error = deleteOne(queue, receipt, actor))
        return refuse(queue.index, *error, actor);
    flushWakeups();
    return Ok {};
}

Result<BatchResult<bool>> Engine::deleteMessageBatch(
    const std::string& queueName, const std::vector<DeleteMessageBatchEntry>& entries, uint32_t actor)
{
    auto found = requireQueue(queueName);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    QueueState& queue = *found.value();
    if (auto error = validateBatchShape(entries, "DeleteMessageBatchRequestEntry"))
        return refuse(queue.index, *error, actor);
    if (auto throttled = throttle(queue, QuotaAction::Delete))
        return refuse(queue.index, *throttled, actor);
    auto out = applyToEach(
        entries, [&](const DeleteMessageBatchEntry& e) { return deleteOne(queue, e.receiptHandle, actor); },
        [&](const SqsError& error) { refuse(queue.index, error, actor); });
    flushWakeups();
    return out;
}

namespace {
SqsError visibilityOutOfRange(int64_t seconds)
{
    return makeError(codes::InvalidParameterValue,
        "Value " + std::to_string(seconds)
            + " for parameter VisibilityTimeout is invalid. Reason: Must be >= 0 and <= 43200, if provided.");
}
} // namespace

std::optional<SqsError> Engine::changeVisibilityOne(
    QueueState& queue, const std::string& handle, int64_t seconds, uint32_t actor)
{
    if (seconds < 0 || seconds > 43200) // unverified text (sqs-semantics.md section 5)
        return visibilityOutOfRange(seconds);
    const auto receipt = parseReceipt(handle);
    if (!receipt)
        return invalidHandle(handle);
    return changeVisibilityOne(queue, *receipt, seconds, actor, &handle);
}

std::optional<SqsError> Engine::changeVisibilityOne(
    QueueState& queue, const Receipt& receipt, int64_t seconds, uint32_t actor, const std::string* text)
{
    if (seconds < 0 || seconds > 43200)
        return visibilityOutOfRange(seconds);
    const auto quoted = [&] { return text ? *text : receiptHandle(receipt); };
    if (!isIssued(receipt) || receipt.queueUid != queue.uid)
        return invalidHandle(quoted());
    if (gone(receipt.lane) || !isLive(m_run.message(receipt.lane).state)
        || m_run.message(receipt.lane).queue != queue.index)
        return makeError(codes::InvalidParameterValue,
            "Value " + quoted()
                + " for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for "
                  "visibility timeout change.");
    const MessageRecord& record = m_run.message(receipt.lane);
    if (record.state != MessageState::InFlight) {
        // The handle's timeout already ended: AWS answers OK and does nothing (PR #9632).
        noEffect(receipt.lane, NoEffectKind::VisibilityChangeAfterTimeout, actor);
        return std::nullopt;
    }
    const bool current = record.receiveCount == receipt.receiveCount;
    if (!current && queue.fifo()) {
        noEffect(receipt.lane, NoEffectKind::VisibilityChangeWithStaleHandle, actor);
        return std::nullopt;
    }
    // The 12-hour cap counts from the receive; an extension does not reset it (AWS-doc).
    LaneTimes times = this->times(receipt.lane);
    if ((now() - times.receivedAt) + seconds * 1000 > 43200 * 1000LL)
        return makeError(codes::InvalidParameterValue,
            "Value " + std::to_string(seconds)
                + " for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the message is "
                  "beyond the limit [43200 seconds]");
    if (seconds == 0) {
        m_run.transition(receipt.lane, MessageState::Visible, Cause::VisibilityChanged, actor, 0);
        countTenant(queue, receipt.lane, MessageState::InFlight, MessageState::Visible);
        markAvailable(queue, receipt.lane);
        return std::nullopt;
    }
    times.dueAt = now() + seconds * 1000;
    m_run.setTimes(receipt.lane, times);
    addTimer(times.dueAt, VisibilityEnd, receipt.lane);
    m_run.note(receipt.lane, queue.index, MessageState::InFlight, Cause::VisibilityChanged, actor, uint32_t(seconds));
    return std::nullopt;
}

Status Engine::changeMessageVisibility(
    const std::string& queueName, const std::string& receiptHandle, int64_t visibilityTimeout, uint32_t actor)
{
    auto found = requireQueue(queueName);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    QueueState& queue = *found.value();
    if (auto error = changeVisibilityOne(queue, receiptHandle, visibilityTimeout, actor))
        return refuse(queue.index, *error, actor);
    flushWakeups();
    return Ok {};
}

Status Engine::changeMessageVisibility(
    const std::string& queueName, const Receipt& receipt, int64_t visibilityTimeout, uint32_t actor)
{
    auto found = requireQueue(queueName);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    QueueState& queue = *found.value();
    if (auto error = changeVisibilityOne(queue, receipt, visibilityTimeout, actor))
        return refuse(queue.index, *error, actor);
    flushWakeups();
    return Ok {};
}

Result<BatchResult<bool>> Engine::changeMessageVisibilityBatch(
    const std::string& queueName, const std::vector<ChangeVisibilityBatchEntry>& entries, uint32_t actor)
{
    auto found = requireQueue(queueName);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    QueueState& queue = *found.value();
    if (auto error = validateBatchShape(entries, "ChangeMessageVisibilityBatchRequestEntry"))
        return refuse(queue.index, *error, actor);
    auto out = applyToEach(
        entries,
        [&](const ChangeVisibilityBatchEntry& e) {
            return changeVisibilityOne(queue, e.receiptHandle, e.visibilityTimeout, actor);
        },
        [&](const SqsError& error) { refuse(queue.index, error, actor); });
    flushWakeups();
    return out;
}

} // namespace lifeline
