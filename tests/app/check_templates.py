#!/usr/bin/env python3
"""`lifeline check --template` and `--terraform`: a SAM app, a CDK-synthesised template and a Terraform plan with
known problems, and the SAM app's clean twin, give exact findings per queue at the resource's line; a DLQ is its
source's; SARIF validates against the 2.1.0 schema; bad input exits 2 naming the file and what is wrong.

Usage: check_templates.py LIFELINE DATA_DIR"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

lifeline, data = sys.argv[1], sys.argv[2]


def check(label, got, expected):
    assert got == expected, f"{label}: expected {expected!r}, got {got!r}"
    print("ok  ", label)


def run(*args, cwd=None):
    done = subprocess.run([lifeline, "check", *args], capture_output=True, text=True, timeout=120, cwd=cwd)
    return done.returncode, done.stdout, done.stderr


def uri(path):
    """A file outside where ctest runs the check, as SARIF names it."""
    return "file://" + os.path.normpath(os.path.abspath(path))


def queues(name, *options):
    kind = "--terraform" if os.path.basename(name).startswith("terraform") else "--template"
    status, out, err = run(kind, os.path.join(data, name), "--format", "json", *options)
    assert err == "", err
    summary = {}
    for q in json.loads(out)["queues"]:
        summary[q["queue"]] = (q["line"], q.get("deadLetterOf") or [(f["id"], f["severity"]) for f in q["findings"]],
                               q.get("unknown", []))
    return status, summary


status, got = queues("sam-orders.yaml")
check("SAM: exit 1 on a high finding", status, 1)
check("SAM: each queue's findings at its line", got, {
    "OrdersQueue": (17, [("lambda-visibility-under-6x", "high"), ("lambda-batch-without-partial-failures", "medium"),
                         ("no-dlq", "medium")],
                    ["MessageRetentionPeriod: !Ref RetentionSeconds, a parameter without a default"]),
    "ReportsDLQ": (54, "ReportsQueue", []),
    "ReportsQueue": (40, [("visibility-shorter-than-processing", "high"), ("queue-policy-public", "high"),
                          ("dlq-without-alarm", "medium")], []),
})
# Its ReportsQueue waives short-polling in Metadata: {lifeline: {ignore: [...]}}; the finding is reported as waived.
status, out, _ = run("--template", os.path.join(data, "sam-orders.yaml"), "--format", "json")
reports = [q for q in json.loads(out)["queues"] if q["queue"] == "ReportsQueue"][0]
check("a template's waiver: listed apart with where it was given",
      [(f["id"], f["severity"], f["waivedBy"]) for f in reports["waived"]],
      [("short-polling", "low", "Resources.ReportsQueue.Metadata.lifeline.ignore")])
status, got = queues("sam-orders.yaml", "--ignore", "lambda-visibility-under-6x,queue-policy-public",
                     "--processing", "p50=800ms,p99=2s")
check("--ignore waives for every queue: only medium findings left, exit 0", (status, got["OrdersQueue"][1],
      got["ReportsQueue"][1]), (0, [("lambda-batch-without-partial-failures", "medium"), ("no-dlq", "medium")],
                                 [("dlq-without-alarm", "medium")]))
status, _, err = run("--template", os.path.join(data, "sam-orders.yaml"), "--ignore", "no-dql")
check("a misspelt waiver: exit 2, the queue and the word", (status, err.split(" (the rules: ")[0]),
      (2, "lifeline check: " + os.path.join(data, "sam-orders.yaml") + ":17: OrdersQueue: --ignore: no rule "
       "\"no-dql\" to waive"))
status, got = queues("sam-orders-fixed.yaml", "--fail-on", "low")
check("SAM's clean twin: exit 0 even at --fail-on low", status, 0)
check("SAM's clean twin: no finding on any queue", got, {
    "OrdersDLQ": (25, "OrdersQueue", []), "OrdersQueue": (15, [], []),
    "ReportsDLQ": (63, "ReportsQueue", []), "ReportsQueue": (47, [], []),
})
status, got = queues("cdk-ingest.template.json")
check("CDK: the trigger read through an EventSourceMapping and the function's Timeout", got, {
    "IngestDLQ0C3B8F2E": (17, "IngestQueue6F4D1A2B", []),
    "IngestQueue6F4D1A2B": (3, [("lambda-visibility-under-6x", "high"), ("lambda-max-receive-count-under-5", "medium"),
                                ("message-size-old-default", "low")], []),
})
check("CDK: exit 1", status, 1)

status, out, _ = run("--template", os.path.join(data, "sam-orders.yaml"))
check("text: the queue and its line, then what the template leaves open",
      out.splitlines()[:2], ["OrdersQueue (" + os.path.join(data, "sam-orders.yaml") + ":17)",
                             "  not fixed by the template: MessageRetentionPeriod: !Ref RetentionSeconds, a parameter "
                             "without a default"])
# The command line's consumer options go over the template's.
status, out, _ = run("--template", os.path.join(data, "sam-orders.yaml"), "--format", "json", "--wait-time", "20")
reports = [q for q in json.loads(out)["queues"] if q["queue"] == "ReportsQueue"][0]
check("--wait-time 20 over the template's consumers: short-polling neither found nor waived",
      ([f["id"] for f in reports["findings"]], "waived" in reports),
      (["visibility-shorter-than-processing", "queue-policy-public", "dlq-without-alarm"], False))

# SARIF 2.1.0: valid against the schema, a result per finding at its queue's line, the level from the severity.
status, out, err = run("--template", os.path.join(data, "sam-orders.yaml"), "--format", "sarif")
check("SARIF: the exit status as for text", status, 1)
sarif = json.loads(out)
with open(os.path.join(data, "..", "sarif", "sarif-2.1.0-rtm.5.json")) as f:
    schema = json.load(f)
jsonschema.validate(sarif, schema)
broken = copy.deepcopy(sarif)
broken["runs"][0]["results"][0]["level"] = "fatal"
try:
    jsonschema.validate(broken, schema)
    raise AssertionError("a SARIF level the schema does not know passed validation")
except jsonschema.ValidationError:
    print("ok   SARIF: valid against the 2.1.0 schema (and a wrong level is not)")
check("SARIF: each result's rule, level, queue and the line of the property at fault (the queue's when none is)",
      [(r["ruleId"], r["level"], r["locations"][0]["logicalLocations"][0]["name"],
        r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in sarif["runs"][0]["results"]],
      [("lambda-visibility-under-6x", "error", "OrdersQueue", 21),
       ("lambda-batch-without-partial-failures", "warning", "OrdersQueue", 34),
       ("no-dlq", "warning", "OrdersQueue", 17),
       ("visibility-shorter-than-processing", "error", "ReportsQueue", 49),
       ("queue-policy-public", "error", "ReportsQueue", 40),
       ("dlq-without-alarm", "warning", "ReportsQueue", 40),
       ("short-polling", "note", "ReportsQueue", 40)])
status, out, _ = run("--template", os.path.join(data, "sam-orders.yaml"), "--processing", "p50=20s,p99=60s",
                     "--format", "sarif")
check("SARIF: invocations outlasting the timeout sit on the function's Timeout (SAM's Globals, line 14)",
      [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in json.loads(out)["runs"][0]["results"]
       if r["ruleId"] == "lambda-processing-over-timeout"], [14])
check("SARIF: a waived finding is a result with a suppression", [(r["ruleId"], r.get("suppressions"))
                                                                for r in sarif["runs"][0]["results"][-2:]],
      [("dlq-without-alarm", None), ("short-polling", [{"kind": "inSource", "justification":
                                                        "waived by Resources.ReportsQueue.Metadata.lifeline.ignore"}])])
# Where the check runs in the repository, an absolute path is a path relative to it (code scanning maps it to the
# repository's file); outside, a file URI.
repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(data))))
status, out, _ = run("--template", os.path.abspath(os.path.join(data, "sam-orders.yaml")), "--format", "sarif",
                     cwd=repository)
check("SARIF: an absolute path inside the repository, relative to it",
      json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
      "tests/data/templates/sam-orders.yaml")
with tempfile.TemporaryDirectory() as elsewhere:
    status, out, _ = run("--template", os.path.abspath(os.path.join(data, "sam-orders.yaml")), "--format", "sarif",
                         cwd=elsewhere)
    check("SARIF: an absolute path outside where it runs, a file URI",
          json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
          "file://" + os.path.abspath(os.path.join(data, "sam-orders.yaml")))
rules = sarif["runs"][0]["tool"]["driver"]["rules"]
check("SARIF: each rule with its description and its help at docs/check.md's anchor",
      (rules[0]["shortDescription"]["text"], rules[0]["helpUri"]),
      ("The visibility timeout is under six times the function's timeout",
       "https://example.org/lifeline/docs/check.md#lambda-visibility-under-6x"))
with open(os.path.join(repository, "docs", "check.md")) as f:
    headings = [line[5:-1] for line in f.read().splitlines() if line.startswith("### `") and line.endswith("`")]
# The rules, in their order, as a misspelt waiver lists them.
status, _, err = run("--attributes", os.path.join(data, "..", "check", "orders-attributes.json"), "--ignore", "none")
check("docs/check.md: a heading per rule, in the rules' order (the help SARIF points at)", headings,
      err.split("(the rules: ")[1].rstrip(")\n").split(", "))
check("SARIF: one rule per id met", [r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]],
      ["lambda-visibility-under-6x", "lambda-batch-without-partial-failures", "no-dlq",
       "visibility-shorter-than-processing", "queue-policy-public", "dlq-without-alarm", "short-polling"])
attributes = os.path.join(data, "..", "check", "orders-attributes.json")
status, out, _ = run("--attributes", attributes, "--processing", "1s", "--wait-time", "20", "--format", "sarif")
sarif = json.loads(out)
jsonschema.validate(sarif, schema)
check("SARIF of an attributes file: the file, no line",
      [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]) for r in sarif["runs"][0]["results"]],
      [("no-dlq", "warning", {"artifactLocation": {"uri": uri(attributes)}}),
       ("message-size-old-default", "note", {"artifactLocation": {"uri": uri(attributes)}})])
status, out, _ = run("--attributes", attributes, "--processing", "1s", "--wait-time", "20", "--format", "sarif",
                     "--ignore", "no-dlq")
sarif = json.loads(out)
jsonschema.validate(sarif, schema)
check("--ignore in SARIF: an external suppression, exit 0", (status, sarif["runs"][0]["results"][0]["suppressions"]),
      (0, [{"kind": "external", "justification": "waived by --ignore"}]))
status, out, _ = run("--template", os.path.join(data, "sam-orders-fixed.yaml"), "--format", "sarif")
check("SARIF of the clean twin: no result, exit 0", (status, json.loads(out)["runs"][0]["results"]), (0, []))

# Terraform: `terraform show -json` of a plan whose orders queue is created with its DLQ (its redrive policy known
# only after apply) and a module's queue already applied; the consumer side from the options.
status, got = queues("terraform-plan.json", "--processing", "p50=2s,p99=40s", "--consumers", "4")
check("Terraform: each queue by address, its DLQ by reference, what is known only after apply", got, {
    "aws_sqs_queue.orders": (0, [("lambda-visibility-under-6x", "high"), ("lambda-processing-over-timeout", "high"),
                                 ("lambda-batch-without-partial-failures", "medium"),
                                 ("message-size-old-default", "low")],
                             ["RedrivePolicy: known only after apply (it names aws_sqs_queue.orders_dlq): findings "
                              "about a dead-letter queue assume none; check the state after apply (`terraform show "
                              "-json`) for them"]),
    "aws_sqs_queue.orders_dlq": (0, "aws_sqs_queue.orders", []),
    "module.reports.aws_sqs_queue.dlq": (0, "module.reports.aws_sqs_queue.main", []),
    "module.reports.aws_sqs_queue.main": (0, [("visibility-shorter-than-processing", "high"),
                                              ("queue-policy-public", "high")], []),
})
check("Terraform: exit 1", status, 1)
status, out, _ = run("--terraform", os.path.join(data, "terraform-plan.json"), "--processing", "p50=2s,p99=40s",
                     "--format", "json")
orders = [q for q in json.loads(out)["queues"] if q["queue"] == "aws_sqs_queue.orders"][0]
check("Terraform: a DLQ known only after apply waives no-dlq, saying why", orders["waived"],
      [{"id": "no-dlq", "severity": "medium", "message": orders["waived"][0]["message"],
        "suggestion": "Add a dead-letter queue with a RedrivePolicy, maxReceiveCount 5.",
        "waivedBy": "the plan (its RedrivePolicy, known only after apply, names aws_sqs_queue.orders_dlq)"}])
for name, options in (("cdk-ingest-fixed.template.json", []),
                      ("terraform-plan-fixed.json", ["--processing", "p50=2s,p99=40s", "--consumers", "4",
                                                     "--wait-time", "20", "--heartbeat"])):
    status, got = queues(name, "--fail-on", "low", *options)
    check(name + ": the clean twin: no finding on any queue, exit 0",
          (status, [findings for _, findings, _ in got.values() if not isinstance(findings, str)]),
          (0, [[]] * (1 if name.startswith("cdk") else 2)))
# The module's alarm watches reports-dlq; the same plan with the alarm on another queue leaves the DLQ unwatched.
with open(os.path.join(data, "terraform-plan.json")) as f:
    plan = json.load(f)
plan["planned_values"]["root_module"]["child_modules"][0]["resources"][3]["values"]["dimensions"]["QueueName"] = \
    "reports"
with tempfile.TemporaryDirectory() as scratch:
    with open(os.path.join(scratch, "plan.json"), "w") as f:
        json.dump(plan, f)
    status, out, _ = run("--terraform", os.path.join(scratch, "plan.json"), "--processing", "p50=2s,p99=40s",
                         "--format", "json")
    main = [q for q in json.loads(out)["queues"] if q["queue"] == "module.reports.aws_sqs_queue.main"][0]
    check("Terraform: an alarm on another queue: the DLQ is unwatched", [f["id"] for f in main["findings"]],
          ["queue-policy-public", "dlq-without-alarm", "visibility-shorter-than-processing"])
status, out, _ = run("--terraform", os.path.join(data, "terraform-plan.json"), "--processing", "1s",
                     "--format", "sarif")
sarif = json.loads(out)
jsonschema.validate(sarif, schema)
check("Terraform SARIF: the plan file, no line (a plan does not say where in the .tf files)",
      sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"],
      {"artifactLocation": {"uri": uri(os.path.join(data, "terraform-plan.json"))}})
status, out, err = run("--terraform", os.path.join(data, "terraform-plan.json"))
check("Terraform without the consumer side: the rules that need it listed, the others run, exit 1",
      (status, err, out.splitlines()[2]),
      (1, "", "  not checked without processing times: visibility-shorter-than-processing, batch-exceeds-visibility, "
       "lambda-processing-over-timeout, backlog-grows, tenants-without-group-id (give --processing: a plan says "
       "nothing of the consumers)"))
status, _, err = run("--terraform", os.path.join(data, "sam-orders.yaml"))
check("Terraform given a YAML template: exit 2", (status, err.strip()),
      (2, "lifeline check: --terraform: " + os.path.join(data, "sam-orders.yaml") + ": not JSON (give what "
       "`terraform show -json PLAN` prints)"))

# Templates and plans in the shapes public ones take (tests/data/templates/like-public/README.md): each queue's line,
# findings (or the queue it is the DLQ of), what the file leaves open, and the exit status at --fail-on high.
like = os.path.join(data, "like-public")
for name, expected_status, expected in (
    ("sam-pattern.yaml", 0, {
        "WorkQueue": (7, [("lambda-batch-without-partial-failures", "medium"), ("no-dlq", "medium")], [])}),
    ("sam-batch-dlq.yaml", 1, {
        "OrdersDeadLetters": (32, "OrdersQueue", []),
        "OrdersQueue": (37, [("dlq-retention-not-longer", "high"), ("lambda-max-receive-count-under-5", "medium")],
                        [])}),
    ("sam-queue-url.yaml", 0, {
        "Archive": (37, [], ["Resources.ArchiveMapping.Properties.FunctionName: archive-writer, a function outside "
                             "the template, so its Timeout is not known"]),
        "MyDeadLetters": (11, "Archive, MyQueue, Replays", []),
        "MyQueue": (5, [], []),
        "Replays": (32, [("short-polling", "low")], ["Resources.QueueFunction.Properties.Events.Paused: Enabled: "
                                                     "false, so it reads nothing and is not counted as a consumer"])}),
    ("sam-throttle-trap.yaml", 1, {
        "IngestDLQ": (13, "IngestQueue", []),
        "IngestQueue": (6, [("lambda-reserved-concurrency-under-max", "high"), ("max-receive-count-1", "medium")],
                        [])}),
    ("cfn-parameters.yaml", 0, {
        "Payments": (22, [], ["RedrivePolicy.deadLetterTargetArn: an import from another stack (Fn::ImportValue)",
                              "Resources.PaymentsFunction.Properties.Timeout: !If IsPremium, a condition the template "
                              "does not fix (!Ref Tier, a parameter without a default)"])}),
    ("serverless.yml", 1, {
        "AuditQueue": (43, [("lambda-visibility-under-timeout", "high"),
                            ("lambda-batch-without-partial-failures", "medium"), ("no-dlq", "medium")], []),
        "PendingDLQ": (39, "PendingMessagesQueue", []),
        "PendingMessagesQueue": (31, [("lambda-reserved-concurrency-under-max", "high"),
                                      ("lambda-max-receive-count-under-5", "medium")],
                                 ["functions.sendEmail.events.0.sqs.batchSize: ${self:custom.batch}, a Serverless "
                                  "Framework variable (resolved only when it deploys)"])}),
    ("terraform-for-each.json", 0, {
        f'aws_sqs_queue.{kind}["{key}"]': (0, f'aws_sqs_queue.main["{key}"]', []) if kind == "dlq" else
        (0, [], [f'RedrivePolicy: known only after apply (it names aws_sqs_queue.dlq["{key}"]): findings about a '
                 "dead-letter queue assume none; check the state after apply (`terraform show -json`) for them",
                 "Policy: known only after apply",
                 f'aws_lambda_event_source_mapping.worker["{key}"].function_name: shared-worker, a function outside '
                 "the plan, so its timeout is not known"])
        for key in ("orders", "refunds") for kind in ("dlq", "main")}),
):
    status, got = queues(os.path.join("like-public", name))
    check("like-public/" + name + ": each queue's findings, what it leaves open, exit " + str(expected_status),
          (status, got), (expected_status, expected))
status, out, _ = run("--template", os.path.join(like, "cfn-parameters.yaml"))
check("a redrive policy the template does not fix: its receive-count rules listed as not checked",
      [line for line in out.splitlines() if "redrive policy" in line],
      ["  not checked without a redrive policy the template fixes: max-receive-count-1, "
       "lambda-max-receive-count-under-5, max-receive-count-high"])
status, _, err = run("--terraform", os.path.join(like, "terraform-errored.json"))
check("an errored plan: exit 2, never a silent pass", (status, err.strip()),
      (2, "lifeline check: --terraform: " + os.path.join(like, "terraform-errored.json") + ": the plan errored "
       "(`terraform plan` failed): it says nothing reliable of what would be applied; fix the plan first"))
# Without processing times, SARIF carries the rules left out as notifications, and stays valid.
status, out, _ = run("--template", os.path.join(like, "serverless.yml"), "--format", "sarif")
sarif = json.loads(out)
jsonschema.validate(sarif, schema)
check("SARIF: the rules not run are the run's notifications",
      len(sarif["runs"][0]["invocations"][0]["toolConfigurationNotifications"]), 2)

with tempfile.TemporaryDirectory() as scratch:
    def bad(label, text, message):
        path = os.path.join(scratch, "t.yaml")
        with open(path, "w") as f:
            f.write(text)
        status, out, err = run("--template", path)
        check(label + ": exit 2", status, 2)
        check(label + ": the message", err.strip(), "lifeline check: " + message.replace("FILE", path))

    bad("not YAML", "Resources: [unclosed\n", "--template: FILE: not YAML or JSON: end of sequence flow not found "
        "(line 2)")
    bad("no Resources", "AWSTemplateFormatVersion: '2010-09-09'\n",
        "--template: FILE: has no Resources (not a CloudFormation, SAM or CDK template)")
    bad("a template without a queue", "Resources:\n  Topic: {Type: AWS::SNS::Topic}\n",
        "--template: FILE: declares no AWS::SQS::Queue: nothing to check")
    bad("a key given twice", "Resources:\n  Jobs: {Type: AWS::SQS::Queue}\n  Jobs: {Type: AWS::SQS::Queue}\n",
        "--template: FILE: Resources.Jobs: given twice (line 3, first at line 2); CloudFormation refuses a duplicate "
        "key")
    bad("a name that leads back to itself",
        "Resources:\n  Jobs:\n    Type: AWS::SQS::Queue\n    Properties: {QueueName: !GetAtt Jobs.QueueName}\n",
        "--template: FILE: Resources.Jobs.Properties.QueueName: leads back to itself (a circular reference, which "
        "CloudFormation refuses)")
    bad("Metadata.lifeline not a map",
        "Resources:\n  Jobs:\n    Type: AWS::SQS::Queue\n    Metadata:\n      lifeline: fast\n",
        "--template: FILE: Resources.Jobs.Metadata.lifeline: must be a map (processing, consumers, ...)")
    bad("a circular RedrivePolicy",
        "Resources:\n  A:\n    Type: AWS::SQS::Queue\n    Metadata: {lifeline: {processing: 1s}}\n    Properties:\n"
        "      RedrivePolicy: {deadLetterTargetArn: !GetAtt B.Arn, maxReceiveCount: 3}\n"
        "  B:\n    Type: AWS::SQS::Queue\n    Properties:\n"
        "      RedrivePolicy: {deadLetterTargetArn: !GetAtt A.Arn, maxReceiveCount: 3}\n",
        "--template: FILE: Resources.A.Properties.RedrivePolicy: a circular RedrivePolicy: A -> B -> A (a dead-letter "
        "queue's own RedrivePolicy must not lead back)")
    bad("a queue its own DLQ",
        "Resources:\n  A:\n    Type: AWS::SQS::Queue\n    Properties:\n"
        "      RedrivePolicy: {deadLetterTargetArn: !GetAtt A.Arn, maxReceiveCount: 3}\n",
        "--template: FILE: Resources.A.Properties.RedrivePolicy: a circular RedrivePolicy: A -> A (a dead-letter "
        "queue's own RedrivePolicy must not lead back)")
    bad("a DLQ of the wrong type",
        "Resources:\n  A:\n    Type: AWS::SQS::Queue\n    Properties:\n"
        "      RedrivePolicy: {deadLetterTargetArn: !GetAtt Alerts.Arn, maxReceiveCount: 3}\n"
        "  Alerts:\n    Type: AWS::SNS::Topic\n",
        "--template: FILE: Resources.A.Properties.RedrivePolicy.deadLetterTargetArn: names Alerts, an AWS::SNS::Topic, "
        "not an AWS::SQS::Queue")
    bad("Metadata.lifeline.ignore not a list",
        "Resources:\n  Jobs:\n    Type: AWS::SQS::Queue\n    Metadata:\n      lifeline: {ignore: no-dlq}\n",
        "--template: FILE: Resources.Jobs.Metadata.lifeline.ignore: must be a list of rule ids, such as [no-dlq]")
    refused = os.path.join(scratch, "refused.yaml")
    with open(refused, "w") as f:
        f.write("Resources:\n  Jobs:\n    Type: AWS::SQS::Queue\n    Properties: {VisibilityTimeout: 10}\n"
                "  Fn:\n    Type: AWS::Serverless::Function\n    Metadata: {lifeline: {processing: 1s}}\n"
                "    Properties:\n      Timeout: 60\n      Events:\n"
                "        Q: {Type: SQS, Properties: {Queue: !GetAtt Jobs.Arn}}\n")
    status, out, _ = run("--template", refused, "--format", "json")
    check("a trigger Lambda refuses: a high finding first, in Lambda's words, exit 1",
          (status, json.loads(out)["queues"][0]["findings"][0]),
          (1, {"id": "lambda-visibility-under-timeout", "severity": "high", "message": "Lambda refuses to create this "
               "trigger (InvalidParameterValueException: Queue visibility timeout: 10 seconds is less than Function "
               "timeout: 60 seconds): a deployment that creates it fails.",
               "suggestion": "Set VisibilityTimeout to at least 360 (six times the function timeout, plus the "
               "batching window), as AWS recommends."}))
    status, _, err = run("--template", os.path.join(scratch, "missing.yaml"))
    check("a missing file: exit 2", (status, err.strip()),
          (2, "lifeline check: --template: cannot read " + os.path.join(scratch, "missing.yaml")))
print("all template checks passed")
