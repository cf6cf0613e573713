"""What a replay works with: a client of the entry's protocol, fresh queue names, virtual waits, and the answers it
collects under the recording's labels."""
import base64
import json
import time

from wire import ClientError, client


class ReplayFailed(AssertionError):
    pass


class Context:
    def __init__(self, servers, protocol, index, param):
        self.servers = servers
        self.endpoint = servers.fast
        self.protocol = protocol
        self.param = param
        self.sqs = client(protocol, self.endpoint)
        self.json = client("json", self.endpoint)
        self.query = client("query", self.endpoint)
        self.prefix = f"g{index:03d}"
        self.answers = {}
        self.speed = servers.fast_speed

    def use_exact_clock(self):
        """Move tasks paced per second are replayed on a server whose virtual clock runs at wall speed."""
        self.endpoint = self.servers.exact
        self.speed = 1
        self.sqs = client(self.protocol, self.endpoint)
        self.json = client("json", self.endpoint)
        self.query = client("query", self.endpoint)

    def name(self, stem="q", fifo=False):
        return f"{self.prefix}-{stem}" + (".fifo" if fifo else "")

    def queue(self, stem="q", fifo=False, **attributes):
        if fifo:
            attributes = {"FifoQueue": "true", **attributes}
        return self.sqs.create_queue(QueueName=self.name(stem, fifo),
                                     Attributes={k: str(v) for k, v in attributes.items()})["QueueUrl"]

    def arn(self, url):
        return self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]

    def redrive(self, dlq_url, max_receive_count):
        return json.dumps({"deadLetterTargetArn": self.arn(dlq_url), "maxReceiveCount": max_receive_count})

    def record(self, label, answer):
        self.answers[label] = answer
        return answer

    def error(self, call, label=None):
        """The error answer of `call` (which must fail), recorded under `label` when given."""
        try:
            call()
        except ClientError as error:
            return self.record(label, error.response) if label else error.response
        raise ReplayFailed(f"{label or 'call'}: succeeded where AWS answered an error")

    def expect_error(self, call, code, message_part):
        response = self.error(call)
        if response["Error"]["Code"] != code or message_part not in (response["Error"]["Message"] or ""):
            raise ReplayFailed(f"expected {code} ({message_part}), got {response['Error']}")

    def wait(self, virtual_seconds):
        time.sleep(virtual_seconds / self.speed)

    def expect(self, condition, what):
        if not condition:
            raise ReplayFailed(what)

    @staticmethod
    def task_handle(task_id, source_arn):
        return base64.b64encode(json.dumps({"taskId": task_id, "sourceArn": source_arn}).encode()).decode()
