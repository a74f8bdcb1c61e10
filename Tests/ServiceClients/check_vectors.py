#!/usr/bin/env python3
"""Checks the service's vectors against its schema, both ways: every message a vector sends is a
request of Protocol/service.schema.json (with its $file and $var placeholders filled in with
stand-ins), except those marked "refusedBySchema", which the schema must refuse; and the schema
itself is valid JSON Schema. Run by ServiceSchemaTests with .build-venv/bin/python.

Usage: check_vectors.py REPOSITORY_ROOT
"""
import json
import pathlib
import sys

import jsonschema


def fill(value):
    """Replaces the vectors' placeholders with values of the type they stand for."""
    if isinstance(value, dict):
        if "$file" in value:
            return "{}"
        if "$var" in value:
            return 1.5 if "plus" in value else 1
        return {key: fill(item) for key, item in value.items()}
    if isinstance(value, list):
        return [fill(item) for item in value]
    return value


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    schema = json.loads((root / "Protocol/service.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    request = dict(schema, **{"$ref": "#/$defs/request"})
    request.pop("oneOf")
    validator = jsonschema.Draft202012Validator(request)
    failures = 0
    checked = 0
    for path in sorted((root / "Protocol/vectors/service").glob("*.json")):
        steps = json.loads(path.read_text())["steps"]
        for index, step in enumerate(steps):
            if "send" not in step:
                continue
            checked += 1
            valid = validator.is_valid(fill(step["send"]))
            if step.get("refusedBySchema") and valid:
                failures += 1
                print(f"{path.name} step {index}: the schema accepts a message the vector says it refuses")
            elif not step.get("refusedBySchema") and not valid:
                failures += 1
                error = next(validator.iter_errors(fill(step["send"])))
                print(f"{path.name} step {index}: not a request of the schema: {error.message}")
    print(f"{checked} messages checked, {failures} not requests of the schema")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
