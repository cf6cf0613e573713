// The AWS SDK for JavaScript v3 (JSON protocol) against `lifeline serve --faults`: the injected 500, 503 and
// throttling answer with SQS's error, and the SDK's standard retry strategy retries each as it does against AWS
// (the attempts it reports in $metadata). Usage: node faults_js.mjs LIFELINE
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQSClient, CreateQueueCommand, SendMessageCommand } from "@aws-sdk/client-sqs";

const [lifeline] = process.argv.slice(2);
const work = mkdtempSync(join(tmpdir(), "lifeline-faults-js-"));
const failures = [];

async function serve(plan) {
  const file = join(work, "plan.json");
  writeFileSync(file, JSON.stringify(plan));
  const server = spawn(lifeline, ["serve", "--headless", "--port", "0", "--clock", "manual", "--faults", file]);
  const endpoint = await new Promise((resolve, reject) => {
    let text = "";
    server.stdout.on("data", (chunk) => {
      text += chunk;
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
      if (match) resolve(match[0]);
    });
    server.on("exit", () => reject(new Error("lifeline serve did not start: " + text)));
  });
  return { server, endpoint };
}

function client(endpoint, maxAttempts) {
  return new SQSClient({ endpoint, region: "us-east-1", maxAttempts,
    credentials: { accessKeyId: "test", secretAccessKey: "test" } });
}

const kinds = [
  ["internalError", "InternalFailure", 500, "The request processing has failed because of an unknown error, exception or failure."],
  ["serviceUnavailable", "ServiceUnavailable", 503, "The request has failed due to a temporary failure of the server."],
  ["throttling", "ThrottlingException", 400, "The request was denied due to request throttling."],
];
for (const [kind, code, status, message] of kinds) {
  const { server, endpoint } = await serve({ faults: [{ kind, rate: 1, limit: 2, action: "SendMessage" }] });
  try {
    const once = client(endpoint, 1);
    const { QueueUrl } = await once.send(new CreateQueueCommand({ QueueName: "orders" }));
    try {
      await once.send(new SendMessageCommand({ QueueUrl, MessageBody: "refused" }));
      failures.push(`${kind}: accepted`);
    } catch (error) {
      const got = [error.name, error.$metadata.httpStatusCode, error.message];
      if (JSON.stringify(got) !== JSON.stringify([code, status, message]))
        failures.push(`${kind}: got ${JSON.stringify(got)}`);
      else console.log(`ok   ${kind}: ${code}, ${status}, SQS's text`);
    }
    // One refusal left in the plan's limit: three attempts send, the SDK reporting 2 (one retry).
    const sent = await client(endpoint, 3).send(new SendMessageCommand({ QueueUrl, MessageBody: "retried" }));
    if (sent.$metadata.attempts !== 2) failures.push(`${kind}: ${sent.$metadata.attempts} attempts`);
    else console.log(`ok   ${kind}: the SDK retried it and sent (attempts 2)`);
  } finally {
    server.kill();
  }
}
if (failures.length) {
  console.log("FAIL", failures.join("; "));
  process.exit(1);
}
console.log("all JavaScript fault cases passed");
