// The AWS SDK for JavaScript v3 (JSON protocol) against `lifeline serve`: lifecycles and AWS's recorded errors.
// Usage: node json_client.mjs LIFELINE SNAPSHOT.json   (the server runs at x10, so timeouts pass quickly)
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import {
  SQSClient, CreateQueueCommand, SendMessageCommand, ReceiveMessageCommand, DeleteMessageCommand,
  GetQueueAttributesCommand, GetQueueUrlCommand, ChangeMessageVisibilityCommand, SendMessageBatchCommand,
  PurgeQueueCommand,
} from "@aws-sdk/client-sqs";

const [lifeline, snapshotPath] = process.argv.slice(2);
const SPEED = 10;
const snapshot = JSON.parse(readFileSync(snapshotPath, "utf8"));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const wall = (virtualSeconds) => sleep((virtualSeconds * 1000) / SPEED);

const server = spawn(lifeline, ["serve", "--headless", "--port", "0", "--speed", String(SPEED)]);
const endpoint = await new Promise((resolve, reject) => {
  let text = "";
  server.stdout.on("data", (chunk) => {
    text += chunk;
    const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
    if (match) resolve(match[0]);
  });
  server.on("exit", () => reject(new Error("lifeline serve did not start: " + text)));
});
const sqs = new SQSClient({ endpoint, region: "us-east-1", maxAttempts: 1,
  credentials: { accessKeyId: "test", secretAccessKey: "test" } });
console.log(`@aws-sdk/client-sqs (JSON protocol) against ${endpoint}`);

const failures = [];
async function check(name, body) {
  try {
    await body();
    console.log("ok  ", name);
  } catch (error) {
    failures.push(name);
    console.log("FAIL", name, error);
  }
}
function assert(condition, what) {
  if (!condition) throw new Error("assertion failed: " + what);
}
function recorded(test, key) {
  for (const [name, entry] of Object.entries(snapshot))
    if (name.endsWith(`::${test}[sqs]`) || name.endsWith(`::${test}`))
      if (entry["recorded-content"][key]) return entry["recorded-content"][key];
  throw new Error(`no recording ${test}/${key}`);
}
async function expectError(call, test, key, replace = {}) {
  const want = recorded(test, key);
  try {
    await call();
  } catch (error) {
    let message = want.Error.Message;
    for (const [placeholder, value] of Object.entries(replace)) message = message.replace(placeholder, value);
    // The SDK names a modeled error by its shape (QueueDoesNotExist) and any other by the x-amzn-query-error code.
    assert(error.name === want.Error.QueryErrorCode || error.name === want.Error.Code,
      `name ${error.name} vs ${want.Error.QueryErrorCode} / ${want.Error.Code}`);
    assert(error.message === message, `message '${error.message}' vs '${message}'`);
    assert(error.$metadata.httpStatusCode === want.ResponseMetadata.HTTPStatusCode, "status");
    assert(error.Code === undefined || error.Code === want.Error.Code, `Code ${error.Code} vs ${want.Error.Code}`);
    return;
  }
  throw new Error(`${test}/${key}: no error`);
}
const queue = async (name, attributes = {}) =>
  (await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }))).QueueUrl;

await check("send, receive, visibility expiry and redelivery", async () => {
  const url = await queue("js", { VisibilityTimeout: "3" });
  assert(url === `${endpoint}/000000000000/js`, url);
  const sent = await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "hello" }));
  assert(sent.MD5OfMessageBody === "5d41402abc4b2a76b9719d911017c592", "md5");
  const first = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MessageSystemAttributeNames: ["All"] })))
    .Messages[0];
  assert(first.Attributes.ApproximateReceiveCount === "1", "count 1");
  await wall(5);
  const second = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MessageSystemAttributeNames: ["All"] })))
    .Messages[0];
  assert(second.MessageId === first.MessageId && second.Attributes.ApproximateReceiveCount === "2", "count 2");
  assert(second.ReceiptHandle !== first.ReceiptHandle, "new handle");
  await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: second.ReceiptHandle,
    VisibilityTimeout: 0 }));
  const third = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages[0];
  await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: third.ReceiptHandle }));
  const attributes = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] })))
    .Attributes;
  assert(attributes.ApproximateNumberOfMessages === "0" && attributes.ApproximateNumberOfMessagesNotVisible === "0",
    "empty");
});

await check("a long poll returns as soon as a message arrives", async () => {
  const url = await queue("js-poll");
  const started = Date.now();
  const waiting = sqs.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20 }));
  await sleep(300);
  await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "now" }));
  const result = await waiting;
  assert(result.Messages[0].Body === "now", "body");
  assert(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
});

await check("recorded errors match AWS", async () => {
  await expectError(() => sqs.send(new GetQueueUrlCommand({ QueueName: "does-not-exist" })),
    "test_non_existent_queue", "queue-does-not-exist");
  const fifo = await queue("js-errors.fifo", { FifoQueue: "true" });
  await expectError(() => sqs.send(new SendMessageCommand({ QueueUrl: fifo, MessageBody: "x", MessageGroupId: "g",
    MessageDeduplicationId: "d", DelaySeconds: 2 })), "test_fifo_queue_send_message_with_delay_seconds_fails",
  "send_message");
  const plain = await queue("js-errors");
  await expectError(() => sqs.send(new SendMessageBatchCommand({ QueueUrl: plain,
    Entries: Array.from({ length: 20 }, (_, i) => ({ Id: String(i), MessageBody: "x" })) })),
  "test_too_many_entries_in_batch_request", "test_too_many_entries_in_batch_request");
  await sqs.send(new PurgeQueueCommand({ QueueUrl: plain }));
  await expectError(() => sqs.send(new PurgeQueueCommand({ QueueUrl: plain })), "test_successive_purge_calls_fail",
    "purge_queue_error", { "<queue-name>": "js-errors" });
});

server.kill();
if (failures.length) {
  console.log(`${failures.length} case(s) failed: ${failures.join(", ")}`);
  process.exit(1);
}
console.log("all cases passed (json, JavaScript SDK)");
