"""Field-by-field comparison of an answer with AWS's recorded one. The recordings are normalised by LocalStack's
snapshot transformers: ids, handles and ARNs became numbered placeholders (<uuid:1>, <receipt-handle:2>,
arn:<partition>:sqs:<region>:111111111111:<resource:1>), timestamps the word "timestamp", and JSON strings (bodies,
policies) were parsed into objects. A placeholder matches any value, but consistently: the same placeholder is the
same value everywhere in one entry, and two placeholders are never the same value (so two receives must give two
receipt handles).

Three keys are decorations of the client library, whose presence changed with the botocore that recorded an entry
(LocalStack recorded over two years): an error's Detail (query) and QueryErrorCode (JSON, and query since botocore
added modelled names), and botocore's copy of an exception's `message` at the top level. Their values are compared
when both sides have them; one side lacking them is not a difference."""
import json
import re

_CLIENT_DECORATIONS = {"Detail", "QueryErrorCode", "message"}
_PLACEHOLDER = re.compile(r"<[a-z-]+:\d+>|<region>|<partition>|<queue-name>|111111111111")


class Mismatch(AssertionError):
    pass


class Bindings:
    def __init__(self):
        self.value_of = {}
        self.placeholder_of = {}

    def bind(self, placeholder, value, path):
        if placeholder == "111111111111":
            placeholder = "<account>"
        known = self.value_of.setdefault(placeholder, value)
        if known != value:
            raise Mismatch(f"{path}: {placeholder} was {known!r}, now {value!r}")
        owner = self.placeholder_of.setdefault((placeholder.split(":")[0], value), placeholder)
        if owner != placeholder:
            raise Mismatch(f"{path}: {value!r} is both {owner} and {placeholder}")


def _match_string(recorded, ours, path, bindings):
    if recorded == "timestamp":  # LocalStack replaced any timestamp (and any value under a key "timestamp")
        if ours is None:
            raise Mismatch(f"{path}: no value where AWS had a timestamp")
        return
    if not isinstance(ours, str):
        raise Mismatch(f"{path}: AWS {recorded!r}, ours {ours!r}")
    tokens = _PLACEHOLDER.findall(recorded)
    if not tokens:
        if recorded != ours:
            raise Mismatch(f"{path}: AWS {recorded!r}, ours {ours!r}")
        return
    parts = _PLACEHOLDER.split(recorded)
    pattern = re.escape(parts[0]) + "".join(f"(.+?){re.escape(part)}" for part in parts[1:])
    found = re.fullmatch(pattern, ours, re.DOTALL)
    if not found:
        raise Mismatch(f"{path}: AWS {recorded!r}, ours {ours!r}")
    for token, value in zip(tokens, found.groups()):
        bindings.bind(token, value, path)


def match(recorded, ours, path="", bindings=None):
    """Raises Mismatch with the first difference; `ours` is a botocore-shaped answer."""
    bindings = bindings if bindings is not None else Bindings()
    if isinstance(recorded, (dict, list)) and isinstance(ours, str):
        try:
            ours = json.loads(ours)
        except ValueError:
            raise Mismatch(f"{path}: AWS has a JSON document, ours {ours!r}") from None
    if isinstance(recorded, dict):
        if not isinstance(ours, dict):
            raise Mismatch(f"{path}: AWS an object, ours {ours!r}")
        if "ResponseMetadata" in recorded:  # only the status is recorded; headers were removed
            got = ours.get("ResponseMetadata", {}).get("HTTPStatusCode")
            if got != recorded["ResponseMetadata"]["HTTPStatusCode"]:
                raise Mismatch(f"{path}: HTTP {recorded['ResponseMetadata']['HTTPStatusCode']}, ours {got}")
        keys = set(recorded) - {"ResponseMetadata"}
        ours_keys = set(ours) - {"ResponseMetadata"}
        if path.endswith(".Error") or "Error" in keys:  # an error answer or its Error member
            for key in _CLIENT_DECORATIONS:
                if (key in keys) != (key in ours_keys):
                    keys.discard(key)
                    ours_keys.discard(key)
        if keys != ours_keys:
            raise Mismatch(f"{path}: AWS keys {sorted(keys)}, ours {sorted(ours_keys)}")
        for key in sorted(keys):
            match(recorded[key], ours[key], f"{path}.{key}", bindings)
    elif isinstance(recorded, list):
        if not isinstance(ours, list) or len(recorded) != len(ours):
            raise Mismatch(f"{path}: AWS {len(recorded)} items, ours {ours!r}")
        for index, (a, b) in enumerate(zip(recorded, ours)):
            match(a, b, f"{path}[{index}]", bindings)
    elif isinstance(recorded, str):
        if isinstance(ours, bytes):  # LocalStack recorded blobs as the repr of the bytes
            ours = repr(ours)
        if recorded == "timestamp" and isinstance(ours, (int, float)):
            return
        _match_string(recorded, ours, path, bindings)
    elif recorded != ours:
        raise Mismatch(f"{path}: AWS {recorded!r}, ours {ours!r}")
    return bindings
