"""Reads a JUnit XML report as CI report tools do, with junitparser from PyPI, and prints
what it found as one JSON object: the totals and each case with its suite, time and failure.

    junit_reader.py REPORT read
"""
import json
import sys

from junitparser import Failure, JUnitXml


def main():
    if len(sys.argv) != 3 or sys.argv[2] != "read":
        sys.exit("usage: junit_reader.py REPORT read")
    report = JUnitXml.fromfile(sys.argv[1])
    cases = []
    for suite in report:
        for case in suite:
            failures = [result for result in case.result if isinstance(result, Failure)]
            cases.append({
                "suite": suite.name,
                "name": case.name,
                "classname": case.classname,
                "time": case.time,
                "failure": {"message": failures[0].message, "text": failures[0].text} if failures else None,
            })
    print(json.dumps({
        "tests": report.tests, "failures": report.failures, "errors": report.errors,
        "suites": len(list(report)), "cases": cases,
    }))


if __name__ == "__main__":
    main()
