"""Reads a JUnit XML report with junitparser (a JUnit consumer used by CI tooling).

Reads {"xml": "<report>"} items on stdin; prints, per item, the totals junitparser computes and one
entry per testcase: {"name", "classname", "outcome": "passed|failure|skipped|error", "message"}.
"""
import junitparser

from peer_check import run_checks


def check(item: dict) -> dict:
    xml = junitparser.JUnitXml.fromstring(item["xml"])
    cases = []
    totals = {"tests": 0, "failures": 0, "skipped": 0, "errors": 0}
    for suite in xml:
        suite.update_statistics()
        for key in totals:
            totals[key] += int(getattr(suite, key) or 0)
        for case in suite:
            outcome, message = "passed", ""
            for result in case.result:
                outcome = type(result).__name__.lower()
                message = result.message or ""
            cases.append({"name": case.name, "classname": case.classname, "outcome": outcome, "message": message})
    return {"ok": True, "totals": totals, "cases": cases}


if __name__ == "__main__":
    run_checks(check)
