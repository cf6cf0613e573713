"""Both SQS wire protocols, spoken by hand, with answers shaped the way botocore shapes them (the shape the AWS
recordings in tests/data/aws-recorded were taken in). Hand-written on purpose: Debian's boto3 1.26 speaks only the
query protocol and its 2022 model lacks MessageSystemAttributeNames and the move tasks, so the replay controls
every parameter it sends in either protocol. The real clients are tested separately (tests/endpoint)."""
import base64
import json
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree


class ClientError(Exception):
    """An error answer, as botocore raises it: `response` is {"Error": {...}, "ResponseMetadata": {...}}."""

    def __init__(self, response, operation):
        self.response = response
        self.operation = operation
        error = response["Error"]
        super().__init__(f"An error occurred ({error.get('Code')}) when calling the {operation} operation: "
                         f"{error.get('Message')}")


def _post(url, body, headers):
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _action(method_name):
    return "".join(part.capitalize() for part in method_name.split("_")).replace("Sqs", "SQS")


def _encode_binary(value):
    """JSON carries blobs as base64; the caller passes bytes as botocore users do."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, dict):
        return {key: _encode_binary(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_encode_binary(item) for item in value]
    return value


def _decode_binary(value):
    if isinstance(value, dict):
        return {key: (base64.b64decode(item) if key == "BinaryValue" and isinstance(item, str)
                      else _decode_binary(item))
                for key, item in value.items()}
    if isinstance(value, list):
        return [_decode_binary(item) for item in value]
    return value


class _Client:
    protocol = ""

    def __init__(self, endpoint, headers=None):
        self.endpoint = endpoint
        self.extra_headers = headers or {}

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda **params: self.call(_action(name), params)

    def with_headers(self, headers):
        return type(self)(self.endpoint, {**self.extra_headers, **headers})

    def at(self, url):
        """The same client posting to another URL (a queue URL instead of the endpoint's root)."""
        client = type(self)(url, self.extra_headers)
        return client


class JsonClient(_Client):
    """AWS JSON 1.0, as botocore >= 1.34.90 sends it."""
    protocol = "json"

    def call(self, action, params):
        status, headers, body = _post(self.endpoint, json.dumps(_encode_binary(params)).encode(), {
            "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": f"AmazonSQS.{action}",
            "x-amzn-query-mode": "true", **self.extra_headers})
        metadata = {"HTTPStatusCode": status}
        document = json.loads(body) if body else {}
        if status >= 300:
            header = {key.lower(): value for key, value in headers.items()}.get("x-amzn-query-error", "")
            code, _, kind = header.partition(";")
            type_name = document.get("__type", "").rpartition("#")[2]
            error = {"Code": code or type_name, "Message": document.get("message", document.get("Message")),
                     "QueryErrorCode": type_name, "Type": kind or "Sender"}
            response = {"Error": error, "ResponseMetadata": metadata}
            if "message" in document:  # botocore copies a modelled exception's members to the top level
                response["message"] = document["message"]
            raise ClientError(response, action)
        return {**_decode_binary(document), "ResponseMetadata": metadata}


# The query protocol's list and map members, with the element names of the 2012-11-05 API (botocore 1.29).
_QUERY_LISTS = {"AttributeNames": "AttributeName", "MessageAttributeNames": "MessageAttributeName",
                "MessageSystemAttributeNames": "MessageSystemAttributeName", "TagKeys": "TagKey",
                "AWSAccountIds": "AWSAccountId", "Actions": "ActionName"}
_QUERY_MAPS = {"Attributes": ("Attribute", "Name", "Value"), "Tags": ("Tag", "Key", "Value"),
               "tags": ("Tag", "Key", "Value"), "MessageAttributes": ("MessageAttribute", "Name", "Value"),
               "MessageSystemAttributes": ("MessageSystemAttribute", "Name", "Value")}


def _flatten(prefix, name, value, out):
    if name in _QUERY_LISTS:
        for index, item in enumerate(value, 1):
            out.append((f"{prefix}{_QUERY_LISTS[name]}.{index}", item))
    elif name in _QUERY_MAPS:
        element, key_name, value_name = _QUERY_MAPS[name]
        for index, (key, item) in enumerate(value.items(), 1):
            out.append((f"{prefix}{element}.{index}.{key_name}", key))
            if isinstance(item, dict):
                for member, member_value in item.items():
                    _flatten(f"{prefix}{element}.{index}.{value_name}.", member, member_value, out)
            else:
                out.append((f"{prefix}{element}.{index}.{value_name}", item))
    elif isinstance(value, list):  # batch entries: SendMessageBatchRequestEntry.N.Field
        raise ValueError(f"list {name} needs an entry name")
    elif isinstance(value, bytes):
        out.append((prefix + name, base64.b64encode(value).decode()))
    elif isinstance(value, bool):
        out.append((prefix + name, "true" if value else "false"))
    else:
        out.append((prefix + name, value))


_ENTRY_NAMES = {"SendMessageBatch": "SendMessageBatchRequestEntry",
                "DeleteMessageBatch": "DeleteMessageBatchRequestEntry",
                "ChangeMessageVisibilityBatch": "ChangeMessageVisibilityBatchRequestEntry"}
# Result elements that botocore turns into lists or maps, by the member name it gives them.
_RESULT_LISTS = {"Message": "Messages", "SendMessageBatchResultEntry": "Successful",
                 "DeleteMessageBatchResultEntry": "Successful", "ChangeMessageVisibilityBatchResultEntry": "Successful",
                 "BatchResultErrorEntry": "Failed", "queueUrl": "queueUrls"}
_RESULT_MAPS = {"Attribute": ("Attributes", "Name", "Value"),
                "MessageAttribute": ("MessageAttributes", "Name", "Value"),
                "Tag": ("Tags", "Key", "Value")}


def _local(tag):
    return tag.rpartition("}")[2]


def _structure(element):
    parsed = {}
    for child in element:
        tag = _local(child.tag)
        if tag in _RESULT_MAPS:
            member, key_name, value_name = _RESULT_MAPS[tag]
            key = next(_text(item) for item in child if _local(item.tag) == key_name)
            value = next(item for item in child if _local(item.tag) == value_name)
            parsed.setdefault(member, {})[key] = _structure(value) if len(value) else _text(value)
            if member == "MessageAttributes" and "BinaryValue" in parsed[member][key]:
                parsed[member][key]["BinaryValue"] = base64.b64decode(parsed[member][key]["BinaryValue"])
        elif tag in _RESULT_LISTS:
            parsed.setdefault(_RESULT_LISTS[tag], []).append(_structure(child) if len(child) else _text(child))
        elif tag == "SenderFault":
            parsed[tag] = _text(child) == "true"
        else:
            parsed[tag] = _structure(child) if len(child) else _text(child)
    return parsed


def _text(element):
    return element.text if element.text is not None else ""


class QueryClient(_Client):
    """The query protocol, as Debian's botocore 1.29 and aws CLI 2.9 send it."""
    protocol = "query"

    def call(self, action, params):
        fields = [("Action", action), ("Version", "2012-11-05")]
        for name, value in params.items():
            if name == "Entries":
                for index, entry in enumerate(value, 1):
                    for member, member_value in entry.items():
                        _flatten(f"{_ENTRY_NAMES[action]}.{index}.", member, member_value, fields)
            else:
                _flatten("", name, value, fields)
        body = urllib.parse.urlencode([(key, str(value)) for key, value in fields]).encode()
        status, _, answer = _post(self.endpoint, body, {
            "Content-Type": "application/x-www-form-urlencoded; charset=utf-8", **self.extra_headers})
        metadata = {"HTTPStatusCode": status}
        root = ElementTree.fromstring(answer)
        if status >= 300:
            error_element = next(element for element in root.iter() if _local(element.tag) == "Error")
            error = {_local(child.tag): (child.text if child.text else None) for child in error_element}
            raise ClientError({"Error": error, "ResponseMetadata": metadata}, action)
        result = next((child for child in root if _local(child.tag) == f"{action}Result"), None)
        parsed = _structure(result) if result is not None else {}
        if action == "ListQueues" and "QueueUrl" in parsed:
            parsed["QueueUrls"] = [_text(e) for e in result if _local(e.tag) == "QueueUrl"]
            del parsed["QueueUrl"]
        return {**parsed, "ResponseMetadata": metadata}


def client(protocol, endpoint):
    return (JsonClient if protocol == "json" else QueryClient)(endpoint)
