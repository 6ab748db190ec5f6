"""Run the bad-input corpus (``manifest.json``) and classify every outcome.

Each case runs its CLI in-process in a forked child (the heavy imports happen once, in the
parent), with stdout/stderr captured, memory capped and a wall-clock limit: a child still running
at the limit is a hang. A child that ends is held to its case's seconds in processor time, which
other jobs on the machine do not inflate as they do wall-clock time. Outcomes:

``clear``      the documented exit code and a message naming every expected string;
``traceback``  an exception escaped the CLI (or a traceback was printed);
``silent``     exit 0 where an error was expected (accepted or misread);
``hang``       still running at the case's limit, more processor seconds than allowed, or killed
               for memory;
``unclear``    another exit code than documented, a message missing the file/line/field, or one
               saying what the case's ``absent`` strings say (a problem reported twice, wrongly).

``python tests/badinput/harness.py [--jobs N] [NAME_SUBSTRING...]`` prints the counts.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import select
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = Path(os.environ.get("CELLULA_ROOT", HERE.parent.parent)).resolve()
"""The code under test (set CELLULA_ROOT to measure another checkout with the same corpus)."""
MEMORY_LIMIT = 3 * 1024 ** 3
"""Address-space cap of a case (bytes): an input that needs more counts as a hang."""
HANG_SLACK = 15.0
"""Extra seconds beyond a case's own limit before it counts as a hang (the child's start-up)."""


@dataclass
class Outcome:
    """What one case did."""

    name: str
    """Case name."""
    kind: str
    """clear, traceback, silent, hang or unclear."""
    exit: int | None
    """Exit code (None for a hang)."""
    seconds: float
    """Wall time."""
    output: str
    """stdout + stderr (truncated)."""
    why: str = ""
    """What differs from the expectation."""
    cpu_seconds: float = 0.0
    """The child's processor time (user and system): what the case's limit holds."""


def manifest() -> list[dict]:
    return json.loads((HERE / "manifest.json").read_text(encoding="utf-8"))["cases"]


def _prepare(case: dict, work: Path) -> dict[str, str]:
    """Copy the case's files to ``work`` (and data/ when it has ops); the placeholders.

    A case may carry its files itself (``files``: name -> bytes), as the fuzz suite's do."""
    folder = work / "case"
    source = HERE / "cases" / case["name"]
    # a case carrying its files has no folder of its own (and its name may be too long for one)
    shutil.copytree(source, folder, symlinks=True) if "files" not in case and source.exists() else folder.mkdir()
    for name, content in (case.get("files") or {}).items():
        (folder / name).write_bytes(content)
    if case["name"] == "puzzle-too-large":
        text = (ROOT / "data" / "puzzles" / "grey-rush-2e.yaml").read_text(encoding="utf-8")
        (folder / "grey-rush-2e.yaml").write_text(text + ("#" + "x" * 999 + "\n") * 3000, encoding="utf-8")
    places = {"case": str(folder), "root": str(ROOT), "data": str(work / "data")}
    if case.get("ops"):
        _link_tree(ROOT / "data", work / "data")
        for op in case["ops"]:
            target = work / "data" / op["file"]
            _own_copy(target)
            _apply(op, target)
    return places


def _link_tree(source: Path, target: Path) -> None:
    """``target``: the folders of ``source``, each file a symbolic link to its original (a case
    changes one file or two of 240: copying them all took most of a data case's time). A link
    inside ``source`` is copied as the link it is."""
    for folder, dirs, files in os.walk(source):
        here = target / Path(folder).relative_to(source)
        here.mkdir(parents=True, exist_ok=True)
        for name in dirs:
            if (Path(folder) / name).is_symlink():
                os.symlink(os.readlink(Path(folder) / name), here / name)
        for name in files:
            original = Path(folder) / name
            os.symlink(os.readlink(original) if original.is_symlink() else original, here / name)
        dirs[:] = [d for d in dirs if not (Path(folder) / d).is_symlink()]


def _own_copy(path: Path) -> None:
    """``path`` (a link :func:`_link_tree` made) replaced by a copy of its file, so that a case's
    change never reaches the original."""
    if path.is_symlink() and path.resolve().is_relative_to(ROOT / "data"):
        content = path.read_bytes()
        path.unlink()
        path.write_bytes(content)


def _apply(op: dict, path: Path) -> None:
    if "append" in op:
        path.write_text(path.read_text(encoding="utf-8") + op["append"], encoding="utf-8")
    elif "append_bytes" in op:
        path.write_bytes(path.read_bytes() + bytes.fromhex(op["append_bytes"]))
    elif "prepend_bytes" in op:
        path.write_bytes(bytes.fromhex(op["prepend_bytes"]) + path.read_bytes())
    elif "encode" in op:
        path.write_bytes(path.read_text(encoding="utf-8").encode(op["encode"], errors="replace"))
    elif "write_hex" in op:
        path.write_bytes(bytes.fromhex(op["write_hex"]))
    elif "write" in op:
        path.write_text(op["write"], encoding="utf-8")
    elif "symlink" in op:
        path.unlink()
        os.symlink(op["symlink"], path)
    elif "folder" in op:
        path.unlink()
        path.mkdir()
    elif "replace" in op:
        old, new = op["replace"]
        text = path.read_text(encoding="utf-8")
        assert old in text, (path, old)
        path.write_text(text.replace(old, new, op.get("count", -1)), encoding="utf-8")
    elif "json_field" in op:
        # one top-level field of a JSON file written with indent 1 (a recording), replaced as
        # written, whatever its value today: a re-recording does not break the case
        import json
        key, new = op["json_field"]
        text = path.read_text(encoding="utf-8")
        value = json.loads(text)[key]
        old = f'"{key}": ' + json.dumps(value, indent=1, ensure_ascii=False).replace("\n", "\n ")
        assert text.count(old) == 1, (path, old)
        path.write_text(text.replace(old, f'"{key}": {new}'), encoding="utf-8")
    elif "set" in op:
        import yaml
        *keys, value = op["set"]
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        target = data
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    else:
        raise ValueError(f"unknown op {op}")


def _entry(cli: str):
    if cli == "solver":
        from solver.cli import main
    else:
        from generator.__main__ import main
    return main


def preload(data_cases: bool = True) -> None:
    """Import what the CLIs import, once, before forking; with ``data_cases``, also load the real
    data once (as ``generator validate`` does: puzzles checked, not solved), so that every child
    starts with the data loaders warm."""
    import generator.__main__  # noqa: F401
    import solver.cli  # noqa: F401
    import solver.optimise.planner  # noqa: F401
    from generator import features
    features.load()
    if data_cases:
        from generator.site import load_site
        load_site(ROOT / "data", solve_puzzles=False)


def run_case(case: dict, limit: float | None = None) -> Outcome:
    """Run one case in a forked child; classify what it did."""
    limit = case["seconds"] + HANG_SLACK if limit is None else limit
    with tempfile.TemporaryDirectory(prefix="badinput-") as tmp:
        work = Path(tmp)
        places = _prepare(case, work)
        argv = [a.format(**places) for a in case["args"]]
        out_file = work / "output.txt"
        start = time.perf_counter()
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            code = 70
            try:
                os.close(read_end)
                resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
                fd = os.open(out_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)
                sys.stderr = os.fdopen(2, "w", buffering=1, closefd=False)
                try:
                    code = _entry(case["cli"])(argv)
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
                except BaseException:
                    import traceback
                    traceback.print_exc()
                    code = 99
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os.write(write_end, b"x")
                os._exit(code if isinstance(code, int) else 2)
        os.close(write_end)
        ready, _, _ = select.select([read_end], [], [], limit)
        os.close(read_end)
        if not ready:
            os.kill(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
        seconds = time.perf_counter() - start
        cpu = usage.ru_utime + usage.ru_stime
        output = out_file.read_text(encoding="utf-8", errors="replace") if out_file.exists() else ""
        output = output.replace(str(work / "case"), "{case}").replace(str(work / "data"), "{data}")
    if not ready:
        return Outcome(case["name"], "hang", None, seconds, output[-2000:], f"still running after {limit:.0f} s", cpu)
    if os.WIFSIGNALED(status):
        return Outcome(case["name"], "hang", None, seconds, output[-2000:],
                       f"killed by signal {os.WTERMSIG(status)} (memory?)", cpu)
    code = os.WEXITSTATUS(status)
    return classify(case, code, seconds, output, cpu)


def classify(case: dict, code: int, seconds: float, output: str, cpu_seconds: float = 0.0) -> Outcome:
    """What the child did against the case's expectation; ``cpu_seconds``, its processor time, is
    held to the case's seconds (its wall-clock time depends on what else the machine runs)."""
    expect = case["expect"]
    short = output[-2000:]
    if code == 99 or "Traceback (most recent call last)" in output:
        return Outcome(case["name"], "traceback", code, seconds, short, "an exception escaped", cpu_seconds)
    if "MemoryError" in output:
        return Outcome(case["name"], "hang", code, seconds, short, "out of memory", cpu_seconds)
    if code == 0 and expect["exit"] != 0:
        return Outcome(case["name"], "silent", code, seconds, short, "accepted", cpu_seconds)
    missing = [m for m in expect["mentions"] if m.lower() not in output.lower()]
    wrong = [m for m in expect.get("absent", []) if m.lower() in output.lower()]
    if code != expect["exit"] or missing or wrong:
        why = []
        if code != expect["exit"]:
            why.append(f"exit {code}, documented {expect['exit']}")
        if missing:
            why.append(f"message lacks {missing}")
        if wrong:
            why.append(f"message says {wrong}, which is not so")
        return Outcome(case["name"], "unclear", code, seconds, short, "; ".join(why), cpu_seconds)
    if cpu_seconds > case["seconds"]:
        return Outcome(case["name"], "hang", code, seconds, short,
                       f"took {cpu_seconds:.1f} s of processor time ({seconds:.1f} s wall-clock), "
                       f"allowed {case['seconds']:.0f} s", cpu_seconds)
    return Outcome(case["name"], "clear", code, seconds, short, cpu_seconds=cpu_seconds)


def run_all(cases: list[dict], jobs: int = 1) -> list[Outcome]:
    if jobs <= 1:
        return [run_case(c) for c in cases]
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(run_case, cases))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="run only cases whose name contains one of these")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write every outcome to this file")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every case not clear")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    cases = [c for c in manifest() if not args.names or any(n in c["name"] for n in args.names)]
    preload(any(c["cli"] == "generator" for c in cases))
    outcomes = run_all(cases, args.jobs)
    counts = {k: 0 for k in ("clear", "traceback", "silent", "hang", "unclear")}
    for o in outcomes:
        counts[o.kind] += 1
        if args.verbose and o.kind != "clear":
            print(f"--- {o.name}: {o.kind} ({o.why}) exit {o.exit} {o.seconds:.1f}s\n{o.output[-600:].strip()}")
    print(f"{len(outcomes)} cases: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    if args.json:
        args.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1), encoding="utf-8")
    return 0 if counts["clear"] == len(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
