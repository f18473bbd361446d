#!/usr/bin/env python3
"""Mutation testing of the engine: does the suite notice when a rule changes?

Each mutant changes one line of the code under test (a comparison's boundary,
`&&` for `||`, `==` for `!=`, a constant plus one, an early return dropped, a
finding never reported), is built, and is run against the suite: first the
tests that take under a threshold (most mutants fail there), then the whole
suite for a mutant they miss. The file is restored after each mutant.

    tools/mutate.py list  [--files F...] [--count N] [--seed S]   > mutants.jsonl
    tools/mutate.py run   mutants.jsonl results.jsonl [--build build]
    tools/mutate.py report results.jsonl

`run` appends one JSON line per mutant to the results (so an interrupted run
can go on with the rest: it skips mutants already there) and needs a clean
work tree for the files it mutates. See docs/testing.md, "Mutation testing".
"""
import argparse
import collections
import glob
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

DEFAULT_FILES = ["core/position*.cc", "core/meld.cc", "core/special_hand.cc",
                 "core/rules.cc", "core/game.cc"]
SWAP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}


def masked(code):
    """The code with string literals blanked, so that no mutant edits a message."""
    return re.sub(r'"(\\.|[^"\\])*"', lambda m: '"' + "S" * (len(m.group(0)) - 2) + '"', code)


def mutants_of(path):
    lines = open(path).read().split("\n")
    for i, line in enumerate(lines):
        code = line.split("//")[0]
        if not code.strip() or code.strip().startswith("#"):
            continue
        if "DCHECK" in code or "static_assert" in code or "template" in code:
            continue
        m_code = masked(code)

        def at(m, new, kind):
            return (path, i + 1, line, line[:m.start()] + new + line[m.end():], kind)

        for m in re.finditer(r"(?<![<>=!-])(<=|>=|<|>)(?![<>=])", m_code):
            op = m.group(1)
            before, after = m_code[:m.start()], m_code[m.end():]
            # A template argument list, not a comparison.
            if op in ("<", ">") and re.search(r"(std::\w+|\b[A-Z]\w*)\s*$", before):
                continue
            if op == ">" and re.match(r"\s*[:&*(),;]", after) and "<" in before:
                continue
            yield at(m, SWAP[op], "boundary")
        for m in re.finditer(r"&&|\|\|", m_code):
            yield at(m, "||" if m.group(0) == "&&" else "&&", "logic")
        for m in re.finditer(r"==|!=", m_code):
            yield at(m, "!=" if m.group(0) == "==" else "==", "equality")
        m = re.match(r"^(\s*)if \(.*\) return [^;]*;\s*$", m_code)
        if m:
            yield (path, i + 1, line, m.group(1) + "{}  // mutant: early return dropped",
                   "drop-early-return")
        m = re.match(r"^(\s*)(out\.push_back\(|out->push_back\(|OutOfLine\(|Rare\()", m_code)
        if m:
            indent = m.group(1)
            yield (path, i + 1, line, indent + "if (false) " + line[len(indent):], "drop-finding")
        for m in re.finditer(r"(?<![\w.\[])([1-9]\d*)(?![\w.])", m_code):
            yield at(m, str(int(m.group(1)) + 1), "constant")


def cmd_list(args):
    files = sorted({f for pattern in args.files for f in glob.glob(pattern)})
    all_mutants = [m for f in files for m in mutants_of(f)]
    random.Random(args.seed).shuffle(all_mutants)
    for m in all_mutants[: args.count]:
        print(json.dumps(m))
    print(f"{len(all_mutants)} mutants in {len(files)} files; {min(args.count, len(all_mutants))} listed",
          file=sys.stderr)


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def failed_tests(text):
    names = set()
    for line in text.splitlines():
        parts = line.split()
        if line.startswith("[  FAILED  ]") and len(parts) > 3 and "." in parts[3]:
            names.add(parts[3])
    return sorted(names)


def split_by_time(tests, threshold_ms):
    """Filters for the tests under the threshold and for the rest."""
    rc, text = run(f"{tests} --gtest_print_time=1 --gtest_brief=0", 1800)
    if rc != 0:
        sys.exit("the suite does not pass before mutation: fix that first")
    slow = []
    for line in text.splitlines():
        m = re.match(r"\[       OK \] (\S+) \((\d+) ms\)", line)
        if m and int(m.group(2)) >= threshold_ms:
            slow.append(m.group(1))
    if not slow:
        return "*", None
    return "-" + ":".join(slow), ":".join(slow)


def run_sharded(tests, flt, shards, timeout):
    """The tests of the filter in `shards` processes at once; (failed?, names)."""
    procs = []
    for i in range(shards):
        env = dict(os.environ, GTEST_TOTAL_SHARDS=str(shards), GTEST_SHARD_INDEX=str(i))
        procs.append(subprocess.Popen(f"{tests} --gtest_brief=1 '--gtest_filter={flt}'", shell=True,
                                      env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True, start_new_session=True))
    deadline = time.time() + timeout
    failed, names = False, []
    for p in procs:
        try:
            text, _ = p.communicate(timeout=max(1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.communicate()
            failed, names = True, names + ["timeout"]
            continue
        if p.returncode != 0:
            failed = True
            names += failed_tests(text) or [f"exit {p.returncode}"]
    return failed, names


def cmd_run(args):
    done = set()
    if os.path.exists(args.results):
        for raw in open(args.results):
            r = json.loads(raw)
            if "m" in r:
                done.add((r["m"][0], r["m"][1], r["m"][4]))
    tests = os.path.join(args.build, "tests", "canasta_tests")
    build = f"cmake --build {args.build} -j{args.jobs} --target canasta_tests canasta"
    if run(build, 1800)[0] != 0:
        sys.exit("the build fails before mutation")
    fast, slow = split_by_time(tests, args.fast_ms)
    out = open(args.results, "a")
    for raw in open(args.mutants):
        path, line_no, old, new, kind = json.loads(raw)
        if (path, line_no, new.strip()) in done:
            continue
        if run(f"git diff --quiet -- {path}", 60)[0] != 0:
            sys.exit(f"{path} has changes of its own: commit or stash them first")
        lines = open(path).read().split("\n")
        result = {"m": [path, line_no, kind, old.strip(), new.strip()]}
        if lines[line_no - 1] != old:
            result["r"] = "stale"  # the file changed since the list was made
        else:
            lines[line_no - 1] = new
            open(path, "w").write("\n".join(lines))
            start = time.time()
            try:
                if run(build, 1800)[0] != 0:
                    result["r"] = "no-build"
                else:
                    result["r"] = "survived"
                    for stage, flt, limit in (("fast", fast, 120), ("slow", slow, 400)):
                        if flt is None:
                            continue
                        failed, names = run_sharded(tests, flt, args.jobs, limit)
                        if failed:
                            result.update(r="killed", stage=stage, by=sorted(set(names))[:3])
                            break
            finally:
                subprocess.run(["git", "checkout", "--", path])
            result["s"] = round(time.time() - start)
        out.write(json.dumps(result) + "\n")
        out.flush()
        print(result["r"], *result["m"][:3], flush=True)
    run(build, 1800)  # leave the build as the sources are


def cmd_report(args):
    results = [json.loads(r) for r in open(args.results)]
    results = [r for r in results if "m" in r]
    by = collections.Counter(r["r"] for r in results)
    built = by["killed"] + by["survived"]
    print(f"{len(results)} mutants: {by['killed']} killed, {by['survived']} survived, "
          f"{by['no-build']} did not build, {by['stale']} stale")
    if built:
        print(f"mutation score: {by['killed']}/{built} = {100 * by['killed'] / built:.1f} %")
    kinds = collections.defaultdict(collections.Counter)
    for r in results:
        kinds[r["m"][2]][r["r"]] += 1
    for kind, c in sorted(kinds.items()):
        print(f"  {kind:18} killed {c['killed']:3}  survived {c['survived']:3}")
    for r in results:
        if r["r"] == "survived":
            print(f"SURVIVED {r['m'][0]}:{r['m'][1]} [{r['m'][2]}] {r['m'][3]}  ->  {r['m'][4]}")


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `report | head` ends quietly
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list", help="write mutants as JSON lines")
    ls.add_argument("--files", nargs="+", default=DEFAULT_FILES)
    ls.add_argument("--count", type=int, default=100)
    ls.add_argument("--seed", type=int, default=1)
    rn = sub.add_parser("run", help="build and test each mutant")
    rn.add_argument("mutants")
    rn.add_argument("results")
    rn.add_argument("--build", default="build")
    rn.add_argument("--jobs", type=int, default=2)
    rn.add_argument("--fast-ms", type=int, default=300,
                    help="tests slower than this run only for mutants the others miss")
    rp = sub.add_parser("report", help="the score and the survivors")
    rp.add_argument("results")
    args = p.parse_args()
    {"list": cmd_list, "run": cmd_run, "report": cmd_report}[args.cmd](args)


if __name__ == "__main__":
    main()
