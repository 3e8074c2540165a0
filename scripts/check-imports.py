#!/usr/bin/env python3
"""Every module a target's Swift files import is one its entry in Package.swift names.

`swift build --explicit-target-dependency-import-check error` accepts a module reached through
another dependency; this check asks for each one to be named, so that the manifest is the
map of the layers. Run from the package's folder; it reads `swift package dump-package`.
Prints one line per import not declared and exits 1 if there is any.

It also keeps the platform's C library (Glibc) in the ground floor: a library target imports
it only if it is CairnSystem, or Git, which meets libgit2 and libssh2 on their terms: values
per thread, C strings and memory they free, the errno texts in their messages, the user's SSH
environment. The programs and the tests (and their support) may import it.
"""
import json
import os
import re
import subprocess
import sys

manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True,
                                     capture_output=True, text=True).stdout)
local = {target["name"] for target in manifest["targets"]}
# Modules of the toolchain and of the system, which no manifest names.
system = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Darwin",
          "Dispatch", "Synchronization", "Testing", "XCTest", "_Concurrency", "Observation",
          "SwiftShims", "CoreFoundation", "os", "RegexBuilder", "_StringProcessing"}
# Products of other packages, by the module they bring, as the manifest names them.
imports = re.compile(r"^(?:@[\w()]+\s+)*(?:@_\w+\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)
platform = {"Glibc", "Musl", "Darwin"}
platformAllowed = {"CairnSystem", "Git"}
missing = []
for target in manifest["targets"]:
    if target["type"] in ("system", "binary", "plugin"):
        continue
    declared = set()
    for dependency in target["dependencies"]:
        for kind, value in dependency.items():
            declared.add(value[0])
    path = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])
    for folder, _, files in os.walk(path):
        for name in files:
            if not name.endswith(".swift"):
                continue
            file = os.path.join(folder, name)
            with open(file, encoding="utf-8") as source:
                for module in imports.findall(source.read()):
                    if (module in platform and target["type"] == "regular" and not path.startswith("Tests")
                            and target["name"] not in platformAllowed):
                        missing.append(f"{file}: imports {module}; a library leaves the system's calls to CairnSystem (Syscalls)")
                    if module == target["name"] or module in system or module in declared:
                        continue
                    missing.append(f"{file}: imports {module}, which {target['name']}'s entry in Package.swift does not name")
for line in sorted(set(missing)):
    print(line)
sys.exit(1 if missing else 0)
