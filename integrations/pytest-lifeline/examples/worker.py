"""A small worker, as a team would write one: it takes jobs from SQS, charges them, and deletes each it finished."""


def work_once(sqs, queue_url, handle, wait_seconds=0):
    """Receives up to 10 jobs and handles each; a job whose handler raises is left to come back after its
    visibility timeout (and, after maxReceiveCount receives, to go to the DLQ). Returns the bodies it finished."""
    finished = []
    answer = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=wait_seconds,
                                 AttributeNames=["All"])
    for message in answer.get("Messages", []):
        try:
            handle(message["Body"])
        except Exception:  # noqa: BLE001 - a failed job stays in the queue, as SQS intends
            continue
        sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])
        finished.append(message["Body"])
    return finished
