"""What the Python clients share: their arguments, and documents written as Cairn writes them."""

import json
import os


def canonical(fields):
    """The document as Cairn writes it: keys sorted, two-space indent, a final newline.

    Python orders keys by code point, which is the order of their UTF-8 bytes."""
    return json.dumps(fields, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def parse_fields(arguments):
    """FIELD=VALUE arguments as an object: digits are integers, anything else a string."""
    fields = {}
    for argument in arguments:
        name, _, value = argument.partition("=")
        fields[name] = int(value) if value.isdigit() else value
    return fields


def write_document(root, document, fields):
    """Writes DOCUMENT (users/u1/examAttempts/a9) below the working tree ROOT; returns its
    file's path relative to ROOT."""
    relative = document + ".json"
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as file:
        file.write(canonical(fields))
    return relative


def valid_arguments(arguments):
    """STORE read, or STORE commit DOCUMENT FIELD=VALUE..."""
    return len(arguments) >= 2 and arguments[1] in ("read", "commit") and (arguments[1] == "commit") == (len(arguments) > 2)
