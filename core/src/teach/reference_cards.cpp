#include "lifeline/teach/reference_cards.h"

namespace lifeline::teach {

// The figures are those of docs/sqs-semantics.md (AWS documentation and recorded AWS answers).
const std::vector<ReferenceCard>& referenceCards()
{
    static const std::vector<ReferenceCard> cards {
        { "Message size",
            "A message (body and attributes) is at most 1 MiB (1,048,576 bytes) since 2025; it was 256 KiB "
            "(262,144 bytes) before, and MaximumMessageSize can lower it (from 1,024 bytes). A batch's total is "
            "also at most 1 MiB. Larger payloads go to S3, with a pointer in the message." },
        { "Batches of 10",
            "SendMessageBatch, DeleteMessageBatch and ChangeMessageVisibilityBatch take 1 to 10 entries; "
            "ReceiveMessage returns at most 10 messages (MaxNumberOfMessages 1-10). Each entry succeeds or fails on "
            "its own: check the Failed list." },
        { "In-flight limits",
            "About 120,000 messages can be in flight (received, not yet deleted) on a standard queue, and 120,000 "
            "on a FIFO queue (it was 20,000). Over the limit a standard queue answers short polls with OverLimit; "
            "a FIFO queue gives no error, but it looks for available message groups only among its first 120,000 "
            "messages, so a backlog in one group can hold back groups sent later." },
        { "FIFO throughput",
            "A FIFO queue serves 300 API calls per second per action, or 3,000 messages per second with batches of "
            "10 (per action: send, receive, delete). High-throughput mode (DeduplicationScope messageGroup, "
            "FifoThroughputLimit perMessageGroupId) raises these limits well beyond, by Region. Order holds within a "
            "message group only." },
        { "Encryption (SSE)",
            "New queues are encrypted at rest with SQS-managed keys (SqsManagedSseEnabled true). With a KMS key "
            "instead (KmsMasterKeyId), producers need kms:GenerateDataKey and kms:Decrypt, consumers (a Lambda "
            "trigger's role too) kms:Decrypt. An AWS service that sends to an encrypted queue (SNS, S3 event "
            "notifications, EventBridge) needs a customer managed key whose key policy allows that service: the "
            "AWS managed key for SQS cannot grant it. Messages are encrypted at rest, not in a consumer's memory." },
        { "Timers and timeouts",
            "DelaySeconds: 0 to 900 seconds (0 by default), per queue or per message (standard queues only). "
            "VisibilityTimeout: 0 seconds to 12 hours (30 seconds by default). MessageRetentionPeriod: 60 seconds "
            "to 14 days (4 days by default). WaitTimeSeconds: 0 to 20 seconds." },
    };
    return cards;
}

} // namespace lifeline::teach
