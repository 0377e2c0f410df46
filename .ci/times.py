"""Each test binary's tests, their seconds added up and the slowest, from nextest's JUnit
reports (one per pass of .ci/run, named on the command line): a slow run on a busy machine is
told from a slow suite, and a test growing slow is seen before it reaches the 60 s limit."""

import sys
import xml.etree.ElementTree as ElementTree


def cases(path):
    """(binary, test, seconds, outcome) for every test the report at `path` holds."""
    for suite in ElementTree.parse(path).getroot().iter("testsuite"):
        binary = suite.get("name", "?").removeprefix("bredon::") or "lib"
        if binary == "bredon":
            binary = "lib"
        for case in suite.iter("testcase"):
            failed = case.find("failure") is not None or case.find("error") is not None
            yield binary, case.get("name"), float(case.get("time", 0)), failed


def main(paths):
    slowest = []
    for path in paths:
        pass_name = path.rsplit("junit-", 1)[-1].removesuffix(".xml")
        print(f"== the {pass_name} pass: tests and seconds per binary (added up, not wall time)")
        binaries = {}
        for binary, test, seconds, failed in cases(path):
            count, total, failures = binaries.get(binary, (0, 0.0, 0))
            binaries[binary] = (count + 1, total + seconds, failures + failed)
            slowest.append((seconds, f"{binary} {test} ({pass_name})"))
        for binary, (count, total, failures) in sorted(binaries.items()):
            failed = f", {failures} failed" if failures else ""
            print(f"{total:9.1f} s  {count:4d} tests  {binary}{failed}")
    print("== the 15 slowest tests")
    for seconds, name in sorted(slowest, reverse=True)[:15]:
        print(f"{seconds:9.1f} s  {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
