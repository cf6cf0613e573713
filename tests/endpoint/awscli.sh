#!/usr/bin/env bash
# Debian's aws CLI (2.9, query protocol) against `lifeline serve`: the commands a course types, with exact answers.
# Usage: awscli.sh LIFELINE [AWS]
set -euo pipefail
LIFELINE=$1
AWS=${2:-/usr/bin/aws}
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_DEFAULT_REGION=us-east-1 AWS_PAGER=""
log=$(mktemp)
"$LIFELINE" serve --headless --port 0 --speed 5 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q 'http://127.0.0.1:' "$log" && break; sleep 0.1; done
endpoint=$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -1)
[ -n "$endpoint" ] || { echo "lifeline serve did not start:"; cat "$log"; exit 1; }
sqs() { "$AWS" --endpoint-url "$endpoint" --output text sqs "$@"; }
expect() { # expect WHAT GOT WANT
    if [ "$2" != "$3" ]; then echo "FAIL $1: got '$2', want '$3'"; exit 1; fi
    echo "ok   $1"
}
"$AWS" --version
url=$(sqs create-queue --queue-name course --attributes VisibilityTimeout=20 --query QueueUrl)
expect "create-queue" "$url" "$endpoint/000000000000/course"
expect "get-queue-url" "$(sqs get-queue-url --queue-name course --query QueueUrl)" "$url"
expect "send-message MD5" "$(sqs send-message --queue-url "$url" --message-body hello --query MD5OfMessageBody)" \
    "5d41402abc4b2a76b9719d911017c592"
first=$(sqs receive-message --queue-url "$url" --attribute-names ApproximateReceiveCount \
    --query 'Messages[0].[Body,Attributes.ApproximateReceiveCount,ReceiptHandle]')
expect "receive-message" "$(cut -f1,2 <<<"$first")" "hello	1"
expect "in flight" "$(sqs get-queue-attributes --queue-url "$url" --attribute-names ApproximateNumberOfMessagesNotVisible \
    --query Attributes.ApproximateNumberOfMessagesNotVisible)" "1"
sleep 4.4 # 22 virtual seconds (at x5) since the receive at least: past its 20 s timeout
second=$(sqs receive-message --queue-url "$url" --attribute-names ApproximateReceiveCount \
    --query 'Messages[0].[Body,Attributes.ApproximateReceiveCount,ReceiptHandle]')
expect "redelivered after the timeout" "$(cut -f1,2 <<<"$second")" "hello	2"
[ "$(cut -f3 <<<"$first")" != "$(cut -f3 <<<"$second")" ] && echo "ok   a new receipt handle"
sqs delete-message --queue-url "$url" --receipt-handle "$(cut -f3 <<<"$second")"
expect "deleted" "$(sqs get-queue-attributes --queue-url "$url" --attribute-names All \
    --query 'Attributes.[ApproximateNumberOfMessages,ApproximateNumberOfMessagesNotVisible]')" "0	0"
sqs add-permission --queue-url "$url" --label SendFromPartner --aws-account-ids 111122223333 --actions SendMessage
expect "add-permission" "$(sqs get-queue-attributes --queue-url "$url" --attribute-names Policy --query Attributes.Policy)" \
    '{"Version":"2008-10-17","Id":"arn:aws:sqs:us-east-1:000000000000:course/SQSDefaultPolicy","Statement":[{"Sid":"SendFromPartner","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":"SQS:SendMessage","Resource":"arn:aws:sqs:us-east-1:000000000000:course"}]}'
sqs remove-permission --queue-url "$url" --label SendFromPartner
expect "remove-permission" "$(sqs get-queue-attributes --queue-url "$url" --attribute-names Policy --query Attributes.Policy)" "None"
set +e
error=$(sqs get-queue-url --queue-name nope 2>&1)
status=$?
set -e
expect "unknown queue exit status" "$status" "254"
expect "unknown queue message" "$(tr -d '\n' <<<"$error")" \
    "An error occurred (AWS.SimpleQueueService.NonExistentQueue) when calling the GetQueueUrl operation: The specified queue does not exist for this wsdl version."
echo "all aws CLI cases passed"
