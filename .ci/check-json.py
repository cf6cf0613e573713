#!/usr/bin/env python3
"""Every lesson, exercise and the course against their JSON Schemas (resources/schemas/), as an editor that knows the
schemas would read them: a misspelt key, a missing text or a wrong type is named with its file and place before any
build. Exits 1 listing each problem; the scenario inside a lesson is checked in full by the C++ reader's tests."""
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(__file__).resolve().parents[1]
schemas = {path.name: json.loads(path.read_text()) for path in (root / "resources/schemas").glob("*.schema.json")}
store = {schema["$id"]: schema for schema in schemas.values()}


def validator(name):
    schema = schemas[name]
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    try:  # jsonschema 4.18 and later resolve $ref through `referencing`
        import referencing
        registry = referencing.Registry().with_resources(
            (uri, referencing.Resource.from_contents(s)) for uri, s in store.items())
        return cls(schema, registry=registry)
    except ImportError:  # Debian 12's jsonschema 4.10
        return cls(schema, resolver=jsonschema.RefResolver.from_schema(schema, store=store))


checks = [("course.schema.json", [root / "resources/course.json"]),
          ("lesson.schema.json", sorted((root / "resources/lessons").glob("*.json"))),
          ("practice.schema.json", sorted((root / "resources/practice").glob("*.json")))]
problems = []
files = 0
for schema, paths in checks:
    check = validator(schema)
    for path in paths:
        files += 1
        for error in sorted(check.iter_errors(json.loads(path.read_text())), key=lambda e: list(e.absolute_path)):
            where = "/" + "/".join(str(p) for p in error.absolute_path)
            problems.append(f"{path.relative_to(root)}: {where}: {error.message}")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"json schemas: {files} lesson, exercise and course files match resources/schemas/")
