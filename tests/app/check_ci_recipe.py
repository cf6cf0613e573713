#!/usr/bin/env python3
"""docs/check.md's CI recipe, as written: its `lifeline` steps run in a repository with `template.yaml` and
`infra/plan.json` (a SAM app and a Terraform plan with high findings, then their clean twins); each step's exit status
is the job's verdict, and each SARIF file the upload steps name exists and is valid against the 2.1.0 schema.

Usage: check_ci_recipe.py LIFELINE REPOSITORY"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema
import yaml

lifeline, repository = os.path.abspath(sys.argv[1]), sys.argv[2]
data = os.path.join(repository, "tests", "data")


def check(label, got, expected):
    assert got == expected, f"{label}: expected {expected!r}, got {got!r}"
    print("ok  ", label)


with open(os.path.join(repository, "docs", "check.md")) as f:
    doc = f.read()
section = doc[doc.index("### In CI"):]
recipe = yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.S).group(1))
steps = recipe["jobs"]["lifeline-check"]["steps"]
checks = [s for s in steps if s.get("run", "").startswith("lifeline ")]
uploads = [s["with"]["sarif_file"] for s in steps if "upload-sarif" in s.get("uses", "")]
check("the recipe: a template check and a plan check, each uploaded", (len(checks), len(uploads)), (2, 2))
check("the plan's step runs even when the template's failed", checks[1].get("if"), "always()")
with open(os.path.join(data, "sarif", "sarif-2.1.0-rtm.5.json")) as f:
    schema = json.load(f)

with tempfile.TemporaryDirectory() as scratch:
    bin_dir = os.path.join(scratch, "bin")
    os.makedirs(bin_dir)
    os.symlink(lifeline, os.path.join(bin_dir, "lifeline"))
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
    for label, template, plan, verdict in (
            ("problems", "sam-orders.yaml", "terraform-plan.json", 1),
            ("clean twins", "sam-orders-fixed.yaml", "terraform-plan-fixed.json", 0)):
        repo = os.path.join(scratch, label.replace(" ", "-"))
        os.makedirs(os.path.join(repo, "infra"))
        shutil.copy(os.path.join(data, "templates", template), os.path.join(repo, "template.yaml"))
        shutil.copy(os.path.join(data, "templates", plan), os.path.join(repo, "infra", "plan.json"))
        statuses = []
        for step in checks:
            done = subprocess.run(["/bin/sh", "-c", step["run"]], cwd=repo, env=env, capture_output=True, text=True,
                                  timeout=300)
            assert done.stderr == "", done.stderr
            statuses.append(done.returncode)
        check(label + ": each check step's exit status (the job's verdict)", statuses, [verdict, verdict])
        for upload in uploads:
            with open(os.path.join(repo, upload)) as f:
                sarif = json.load(f)
            jsonschema.validate(sarif, schema)
            uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    for r in sarif["runs"][0]["results"]}
            check(label + ": " + upload + ": valid SARIF, its results at the repository's file",
                  uris <= {"template.yaml", "infra/plan.json"}, True)
print("the CI recipe runs as written")
