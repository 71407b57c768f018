"""symshrink side by side with the reducers a PyTorch engineer reaches for today.

A reducer is judged by what it reaches and how many oracle calls it spends. Every tool
gets the same torch-written repro, the same interestingness script (exit 0 = interesting;
each invocation appends a line to the case's call log) and the same time limit, and runs
alone, one test at a time (parallel tools run sequentially: with a compile as the oracle,
speculative parallel calls are calls too):

- symshrink       `symshrink minimize REPRO --test SCRIPT`
- ddmin           plain ddmin over the free symbols (pin the rest to their hints), the baseline
- shrinkray       Shrink Ray (PyPI), with its Python reducer, without its LLM passes
- cvise           C-Vise (Debian), `--not-c`
- picire          Picire (PyPI), line-level ddmin

Cases (repros from `tests/fixtures_gen.generate("floordiv_sum", ...)`):

- `planted-nN-kK`: interesting iff the candidate is still a repro and a floor division
  in it uses every one of K planted symbols (N = 16, 64, 128; K = 1, 3).
- `slow-nN`: a real compile. Interesting iff `symshrink run CANDIDATE --json
  --no-native-compile` succeeds and spends, in CPU seconds above a trivial repro's, at
  least half of what the original spends (benchmarks/peers/slow_test.py says why CPU
  and not wall-clock compile_s: machine load halved or doubled the latter).

    python benchmarks/peers.py [--cases ...] [--tools ...] [--time-limit S] [--json PATH]
    python benchmarks/peers.py --quick            # n = 16, k = 1, every tool

Peers are installed on first use (pip into a virtualenv under
`~/.cache/symshrink-peers`, apt for C-Vise) and skipped with a line saying why when
that fails.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from symshrink import search  # noqa: E402 (the repo root goes on sys.path first)
from symshrink.expr import free_symbol_names  # noqa: E402 (the repo root goes on sys.path first)
from symshrink.graph import SymGraph  # noqa: E402 (the repo root goes on sys.path first)
from symshrink.passes.symbols import PIN, Pin, pin_edits  # noqa: E402 (the repo root goes on sys.path first)
from symshrink.repro.model import Repro  # noqa: E402 (the repo root goes on sys.path first)
from symshrink.repro.parse import parse  # noqa: E402 (the repo root goes on sys.path first)
from symshrink.repro.render import render  # noqa: E402 (the repo root goes on sys.path first)
from tests.fixtures_gen import generate  # noqa: E402 (the repo root goes on sys.path first)
from tests.planted import choose_planted  # noqa: E402 (the repo root goes on sys.path first)

log = logging.getLogger("peers")

TOOLS = ("symshrink", "ddmin", "shrinkray", "cvise", "picire")
PLANTED_CASES = tuple(f"planted-n{n}-k{k}" for n in (16, 64, 128) for k in (1, 3))
DEFAULT_SLOW_N = 8
CANDIDATE = "repro.py"  # every tool reduces a file of this name; cvise's test finds it in cwd
PEERS_HOME = Path(os.environ.get("SYMSHRINK_PEERS_HOME", Path.home() / ".cache/symshrink-peers"))
GRACE_S = 20.0  # after the time limit: SIGINT, this long to write the best result, then KILL

# ----------------------------------------------------------------------------- test scripts

# The interestingness scripts are files beside this one (benchmarks/peers/*_test.py, see
# their docstrings), copied per case with their CONFIG filled in.
HELPERS = Path(__file__).resolve().parent / "peers"

SLOW_ENV = {"TORCHINDUCTOR_COMPILE_THREADS": "1", "PYTHONHASHSEED": "0"}


def symshrink_command() -> list[str]:
    exe = shutil.which("symshrink")
    return [exe] if exe else [sys.executable, "-m", "symshrink"]


def write_script(helper: str, path: Path, config: dict[str, Any]) -> Path:
    """Copy a test script with its CONFIG filled in, executable by this interpreter."""
    lines = (HELPERS / helper).read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if "# @CONFIG@" in line)
    end = start
    if lines[start].rstrip().endswith("{  # @CONFIG@"):
        end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    lines[start : end + 1] = [f"CONFIG: dict[str, Any] = {config!r}"]
    path.write_text(f"#!{sys.executable}\n" + "\n".join(lines) + "\n")
    path.chmod(0o755)
    return path


# ----------------------------------------------------------------------------- cases


@dataclass
class Case:
    """One repro and the script that judges candidates of it."""

    name: str
    kind: str  # planted | slow
    n: int
    repro: Path
    script: Path
    log: Path
    planted: list[str] = field(default_factory=list)
    threshold_s: float | None = None
    original_compile_s: list[float] = field(default_factory=list)
    original_cpu_s: list[float] = field(default_factory=list)
    base_cpu_s: float | None = None

    @property
    def best_dir(self) -> Path:
        """Where the scripts keep each tool's smallest interesting candidate."""
        return self.log.parent / "best"

    def calls_so_far(self) -> int:
        """Lines in the call log: one per invocation of the script, whoever made it."""
        if not self.log.exists():
            return 0
        with self.log.open() as f:
            return sum(1 for _ in f)


def parse_case(name: str) -> tuple[str, int, int]:
    m = re.fullmatch(r"planted-n(\d+)-k(\d+)", name)
    if m:
        return "planted", int(m[1]), int(m[2])
    m = re.fullmatch(r"slow-n(\d+)", name)
    if m:
        return "slow", int(m[1]), 0
    raise argparse.ArgumentTypeError(f"unknown case {name!r}: planted-nN-kK or slow-nN")


def make_case(name: str, root: Path, oracle: str, slow_fraction: float) -> Case:
    """Write the fixture and its interestingness script; calibrate a slow case."""
    kind, n, k = parse_case(name)
    work = root / name
    work.mkdir(parents=True, exist_ok=True)
    repro = generate("floordiv_sum", work / "fixture", n=n).path
    logfile = work / "calls.log"
    logfile.unlink(missing_ok=True)
    shutil.rmtree(work / "best", ignore_errors=True)
    (work / "best").mkdir()
    case = Case(name, kind, n, repro, work / "interesting.py", logfile)
    if kind == "planted":
        names = sorted(parse(repro.read_text()).hints)
        case.planted = sorted(names[int(s[1:])] for s in choose_planted(n, k, 0))
        write_script(
            "planted_test.py",
            case.script,
            {
                "planted": case.planted,
                "log": str(logfile),
                "mode": oracle,
                "best_dir": str(case.best_dir),
            },
        )
        return case
    # Calibrate through the script itself (`--measure`): the same measure as every call.
    command = [*symshrink_command(), "run", "--json", "--no-native-compile"]
    config: dict[str, Any] = {"log": str(logfile), "command": command, "env": SLOW_ENV}
    config.update(best_dir=str(case.best_dir), cap_s=1800.0)
    write_script("slow_test.py", case.script, config)
    trivial = generate("floordiv_sum", work / "fixture", n=1).path
    base = min(measure_slow(case.script, trivial)["cpu_s"] for _ in range(2))
    runs = [measure_slow(case.script, repro) for _ in range(2)]
    case.original_compile_s = [r["compile_s"] for r in runs]
    case.original_cpu_s = [r["cpu_s"] for r in runs]
    case.base_cpu_s = base
    case.threshold_s = round(slow_fraction * (min(case.original_cpu_s) - base), 2)
    config.update(threshold_s=case.threshold_s, base_cpu_s=base)
    config["cap_s"] = max(120.0, 6 * max(r["wall_s"] for r in runs) + 60.0)
    write_script("slow_test.py", case.script, config)
    return case


def measure_slow(script: Path, repro: Path) -> dict[str, Any]:
    """One `--measure` run of the slow script: cpu_s, wall_s, compile_s."""
    done = subprocess.run(
        [str(script), "--measure", str(repro)], capture_output=True, text=True, check=False
    )
    result = json.loads(done.stdout)
    if "error" in result:
        raise RuntimeError(f"{repro} does not compile: {result['error']}")
    log.info("%s: %s", repro.name, result)
    return result


# ----------------------------------------------------------------------------- installing


@dataclass
class Tool:
    """A located reducer: how to start it, or why it cannot run here."""

    name: str
    argv: list[str] | None = None
    version: str | None = None
    skipped: str | None = None


def _run_quiet(argv: Sequence[str], timeout: float = 3600) -> subprocess.CompletedProcess[str]:
    log.info("$ %s", " ".join(argv))
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout, check=False)


def _tail(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else "no output"


def _modern_python() -> str | None:
    """An interpreter >= 3.12 (Shrink Ray's floor): this one, one on PATH, or pyenv's."""
    candidates = [sys.executable, "python3.13", "python3.12", "python3"]
    candidates += sorted(
        (str(p) for p in Path.home().glob(".pyenv/versions/3.1[2-9]*/bin/python3")),
        reverse=True,
    )
    for c in candidates:
        exe = shutil.which(c) or (c if Path(c).exists() else None)
        if exe is None:
            continue
        probe = subprocess.run(
            [exe, "-c", "import sys; sys.exit(sys.version_info < (3, 12))"],
            capture_output=True,
            check=False,
        )
        if probe.returncode == 0:
            return exe
    return None


def ensure_pip_tool(name: str, packages: list[str]) -> Tool:
    """`package` in the peers' virtualenv, installed by pip if its command is missing.

    Its own virtualenv: Shrink Ray needs Python >= 3.12 and pins dependencies of its own,
    and the benchmark must not change the environment symshrink's tests run in.
    """
    venv = PEERS_HOME / "venv"
    exe = venv / "bin" / name
    if not exe.exists():
        python = _modern_python()
        if python is None:
            return Tool(name, skipped="no Python >= 3.12 for its virtualenv")
        if not (venv / "bin" / "python").exists():
            made = _run_quiet([python, "-m", "venv", str(venv)])
            if made.returncode != 0:
                return Tool(name, skipped=f"virtualenv failed: {_tail(made.stderr)}")
        wanted = " ".join(packages)
        print(f"installing {wanted} (pip, into {venv}; may take minutes)", flush=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *packages]
        done = _run_quiet(pip)
        if done.returncode != 0 or not exe.exists():
            return Tool(name, skipped=f"pip install {wanted} failed: {_tail(done.stderr)}")
    return Tool(name, [str(exe)], _version([str(exe), "--version"]))


def ensure_cvise() -> Tool:
    """C-Vise from Debian's packages (`apt-get install cvise`), if it is not on PATH."""
    exe = shutil.which("cvise")
    if exe is None:
        if shutil.which("apt-get") is None or os.geteuid() != 0:
            return Tool("cvise", skipped="not installed, and apt-get as root is not available")
        print("installing cvise (apt-get)", flush=True)
        done = _run_quiet(["apt-get", "install", "-y", "-q", "cvise"])
        if done.returncode != 0:
            _run_quiet(["apt-get", "update", "-q"])
            done = _run_quiet(["apt-get", "install", "-y", "-q", "cvise"])
        exe = shutil.which("cvise")
        if exe is None:
            return Tool("cvise", skipped=f"apt-get install cvise failed: {_tail(done.stderr)}")
    return Tool("cvise", [exe], _version([exe, "--version"]))


def _git_head() -> str:
    head = _run_quiet(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"]).stdout.strip()
    dirty = _run_quiet(["git", "-C", str(ROOT), "status", "--porcelain"]).stdout.strip()
    return f"{head or 'unknown'}{' + uncommitted changes' if dirty else ''}"


def _version(argv: list[str]) -> str | None:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return _tail(done.stdout + done.stderr)


def locate(name: str) -> Tool:
    if name == "symshrink":
        argv = symshrink_command()
        return Tool(name, argv, f"this tree ({_git_head()})")
    if name == "ddmin":
        return Tool(name, [], "symshrink.search.ddmin over pin_edits")
    if name == "shrinkray":
        # Its LLM passes are switched off when it runs (--no-llm): they download a model.
        return ensure_pip_tool("shrinkray", ["shrinkray"])
    if name == "picire":
        # picire 21.8 (the latest on PyPI) imports pkg_resources, gone from setuptools 81.
        return ensure_pip_tool("picire", ["picire", "setuptools<81"])
    if name == "cvise":
        return ensure_cvise()
    raise ValueError(name)


# ----------------------------------------------------------------------------- running


@dataclass
class Run:
    """How one tool run ended: its result file, wall time, whether the limit cut it."""

    output: Path | None
    wall_s: float
    limit_hit: bool
    returncode: int | None = None
    notes: list[str] = field(default_factory=list)


def run_limited(
    argv: list[str], cwd: Path, limit_s: float, transcript: Path, tool: str
) -> tuple[int | None, float, bool]:
    """Run a reducer in its own process group; at the limit SIGINT, then KILL after grace.

    Every tool here keeps its best result on disk as it goes (or on SIGINT), so a cut run
    still has a result to measure.
    """
    env = {**os.environ, "PEERS_TOOL": tool}
    started = time.monotonic()
    with transcript.open("w") as out:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        try:
            rc: int | None = proc.wait(timeout=limit_s)
            hit = False
        except subprocess.TimeoutExpired:
            hit = True
            _signal_group(proc.pid, signal.SIGINT)
            try:
                rc = proc.wait(timeout=GRACE_S)
            except subprocess.TimeoutExpired:
                _signal_group(proc.pid, signal.SIGKILL)
                rc = proc.wait()
        _signal_group(proc.pid, signal.SIGKILL)  # stragglers: test scripts, workers
    return rc, time.monotonic() - started, hit


def _signal_group(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


def fresh_copy(case: Case, work: Path) -> Path:
    work.mkdir(parents=True, exist_ok=True)
    target = work / CANDIDATE
    shutil.copyfile(case.repro, target)
    return target


def run_symshrink(tool: Tool, case: Case, work: Path, limit_s: float) -> Run:
    source = fresh_copy(case, work)
    out = work / "repro.min.py"
    argv = [*(tool.argv or []), "minimize", str(source), "--test", str(case.script)]
    argv += ["-o", str(out), "--no-progress", "--max-time", str(limit_s)]
    argv += ["--report-json", str(work / "report.json")]
    rc, wall, hit = run_limited(argv, work, limit_s + GRACE_S, work / "transcript.txt", "symshrink")
    run = Run(out if out.exists() else None, wall, hit, rc)
    report = work / "report.json"
    if report.exists():
        stopped = json.loads(report.read_text()).get("stopped_by")
        if stopped:
            run.limit_hit = True
            run.notes.append(f"stopped by {stopped}")
    return run


def run_shrinkray(tool: Tool, case: Case, work: Path, limit_s: float) -> Run:
    source = fresh_copy(case, work)
    argv = [*(tool.argv or []), "--ui", "basic", "--parallelism", "1", "--no-llm"]
    argv += ["--no-history", "--formatter", "none", "--assume-deterministic"]
    argv += ["--input-type", "arg", "--timeout", str(_test_timeout(case))]
    argv += [str(case.script), str(source)]
    rc, wall, hit = run_limited(argv, work, limit_s, work / "transcript.txt", "shrinkray")
    return Run(source, wall, hit, rc)


def run_cvise(tool: Tool, case: Case, work: Path, limit_s: float) -> Run:
    source = fresh_copy(case, work)
    argv = [*(tool.argv or []), "--n", "1", "--not-c", "--tidy", "--skip-key-off"]
    # C-Vise wants the test case as a bare file name in the current directory.
    argv += ["--timeout", str(int(_test_timeout(case))), str(case.script), source.name]
    rc, wall, hit = run_limited(argv, work, limit_s, work / "transcript.txt", "cvise")
    return Run(source, wall, hit, rc)


def run_picire(tool: Tool, case: Case, work: Path, limit_s: float) -> Run:
    """picire 21.8 has no time limit of its own and writes its result only at the end."""
    source = fresh_copy(case, work)
    out = work / "out"
    shutil.rmtree(out, ignore_errors=True)
    argv = [*(tool.argv or []), "--input", str(source), "--test", str(case.script)]
    argv += ["--out", str(out)]
    rc, wall, hit = run_limited(argv, work, limit_s, work / "transcript.txt", "picire")
    result = out / CANDIDATE
    return Run(result if result.exists() else None, wall, hit, rc)


class _TimeUp(Exception):
    pass


def run_ddmin(tool: Tool, case: Case, work: Path, limit_s: float) -> Run:
    """The baseline: classic ddmin over free symbols, removing one = pinning it to its hint.

    Like every tool here it checks the original once first; each candidate is rendered
    by symshrink and judged by the same script, in a process of its own.
    """
    work.mkdir(parents=True, exist_ok=True)
    original = parse(case.repro.read_text())
    edits = pin_edits(original)
    candidate = work / "candidate" / CANDIDATE
    candidate.parent.mkdir(exist_ok=True)
    env = {**os.environ, "PEERS_TOOL": "ddmin"}
    started = time.monotonic()
    deadline = started + limit_s
    best: list[Repro] = [original]

    def judge(model: Repro) -> bool:
        if time.monotonic() >= deadline:
            raise _TimeUp
        candidate.write_text(render(model))
        done = subprocess.run(
            [str(case.script), str(candidate)],
            cwd=candidate.parent,
            env=env,
            capture_output=True,
            check=False,
        )
        return done.returncode == 0

    def still_interesting(kept: tuple[Pin, ...]) -> bool:
        kept_set = set(kept)
        model = PIN.apply(original, [e for e in edits if e not in kept_set])
        if model is None:
            return False
        ok = judge(model)
        if ok and len(model.hints) < len(best[0].hints):
            best[0] = model
        return ok

    out = work / "out.py"
    run = Run(out, 0.0, False)
    try:
        if not judge(original):
            run.notes.append("the original is not interesting")
        else:
            kept = set(search.ddmin(edits, search.CountingPredicate(still_interesting)))
            final = PIN.apply(original, [e for e in edits if e not in kept])
            best[0] = final if final is not None else best[0]
    except _TimeUp:
        run.limit_hit = True
    out.write_text(render(best[0]))
    run.wall_s = time.monotonic() - started
    return run


def _test_timeout(case: Case) -> float:
    """Per-test timeout handed to tools that take one: generous, never the deciding factor."""
    return 60.0 if case.kind == "planted" else 900.0


RUNNERS: dict[str, Callable[[Tool, Case, Path, float], Run]] = {
    "symshrink": run_symshrink,
    "ddmin": run_ddmin,
    "shrinkray": run_shrinkray,
    "cvise": run_cvise,
    "picire": run_picire,
}

# ----------------------------------------------------------------------------- measuring


def measure(text: str) -> dict[str, Any]:
    """Sizes read by symshrink's parser: free symbols in use, expression ops, bytes."""
    result: dict[str, Any] = {"bytes": len(text.encode()), "parses": True}
    try:
        model = parse(text)
    except Exception as e:  # any failure to read it is a finding to report, not a crash
        result.update(parses=False, parse_error=f"{type(e).__name__}: {e}")
        return result
    used: set[str] = set()
    for e in model.all_exprs():
        used |= free_symbol_names(e)
    result.update(
        free_symbols=len(used),
        hint_lines=len(model.hints),
        # The model as symshrink renders it: comparable across tools whatever else a file
        # carries (symshrink's own output embeds a ~14 KB self-contained runner).
        rendered_bytes=len(render(model).encode()),
        expr_ops=SymGraph(model).sizes().expr_ops,
        symbols=sorted(used),
    )
    return result


def recheck(case: Case, path: Path) -> bool:
    """Run the script once more on the result (its call is not charged to the tool)."""
    scratch = Path(tempfile.mkdtemp(prefix="peers-recheck-"))
    try:
        target = scratch / CANDIDATE
        shutil.copyfile(path, target)
        done = subprocess.run(
            [str(case.script), str(target)],
            cwd=scratch,
            env={**os.environ, "PEERS_TOOL": "recheck"},
            capture_output=True,
            check=False,
        )
        return done.returncode == 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run_tool(tool: Tool, case: Case, root: Path, limit_s: float) -> dict[str, Any]:
    """One tool on one case: run it, count its calls, measure and re-check its result."""
    row: dict[str, Any] = {"tool": tool.name, "version": tool.version}
    if tool.skipped:
        row.update(status="skipped", notes=[tool.skipped])
        return row
    before = case.calls_so_far()
    work = root / case.name / tool.name
    shutil.rmtree(work, ignore_errors=True)
    print(f"  {case.name}: {tool.name} ...", flush=True)
    run = RUNNERS[tool.name](tool, case, work, limit_s)
    calls = case.calls_so_far() - before
    row.update(
        status="time limit" if run.limit_hit else "done",
        oracle_calls=calls,
        wall_s=round(run.wall_s, 1),
        limit_hit=run.limit_hit,
        returncode=run.returncode,
        notes=run.notes,
        output=str(run.output) if run.output else None,
    )
    if run.returncode not in (0, None) and not run.limit_hit:
        transcript = work / "transcript.txt"
        tail = _tail(transcript.read_text(errors="replace")) if transcript.exists() else ""
        row["notes"].append(f"exit {run.returncode}: {tail}")
    if run.output is None or not run.output.exists():
        tapped = case.best_dir / f"{tool.name}.py"
        if not tapped.exists():
            row.update(status="no result", still_interesting=False)
            row["notes"].append("no result file")
            return row
        run.output = tapped
        row["output"] = str(tapped)
        row["notes"].append("no result of its own: its smallest interesting candidate")
    text = run.output.read_text(errors="replace")
    if text == case.repro.read_text():
        row["notes"].append("unchanged")
    row.update(measure(text))
    row["still_interesting"] = recheck(case, run.output)
    if case.planted and row.get("parses"):
        row["exact"] = row["symbols"] == case.planted
    after = case.calls_so_far()
    row["recheck_calls"] = after - before - calls
    print(
        f"  {case.name}: {tool.name}: {calls} calls, {run.wall_s:.0f} s, "
        f"{row.get('free_symbols', '?')} symbols, {row['bytes']} bytes"
        + (" (time limit)" if run.limit_hit else ""),
        flush=True,
    )
    return row


# ----------------------------------------------------------------------------- reporting


def _cell(row: dict[str, Any], key: str) -> str:
    if row.get("status") == "skipped":
        return "–"
    value = row.get(key)
    if value is None:
        return "unparsable" if key in ("free_symbols", "expr_ops") and "bytes" in row else "–"
    if isinstance(value, bool):
        return "yes" if value else "**NO**"
    return str(value)


def table(case: Case, rows: list[dict[str, Any]]) -> str:
    head = f"### {case.name}\n\n"
    if case.kind == "planted":
        head += f"Planted: {', '.join(case.planted)} (of {case.n} free symbols).\n\n"
    else:
        cpu = ", ".join(f"{s:.1f}" for s in case.original_cpu_s)
        wall = ", ".join(f"{s:.1f}" for s in case.original_compile_s)
        head += (
            f"Original (n = {case.n}): CPU {cpu} s per `symshrink run`, a trivial repro "
            f"(n = 1) {case.base_cpu_s:.1f} s; compile_s {wall} s. Interesting iff a "
            f"candidate's CPU above the trivial repro's is >= {case.threshold_s:.2f} s.\n\n"
        )
    cols = ["tool", "oracle calls", "wall s", "free symbols", "expr ops", "bytes"]
    cols += ["still interesting"] + (["exact"] if case.kind == "planted" else []) + ["notes"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in rows:
        notes = list(row.get("notes", []))
        if row.get("limit_hit"):
            notes.insert(0, "time limit hit")
        if row.get("parses") is False:
            notes.append(f"does not parse: {row['parse_error'][:80]}")
        cells = [row["tool"], _cell(row, "oracle_calls"), _cell(row, "wall_s")]
        cells += [_cell(row, "free_symbols"), _cell(row, "expr_ops"), _cell(row, "bytes")]
        cells += [_cell(row, "still_interesting")]
        if case.kind == "planted":
            cells.append(_cell(row, "exact"))
        cells.append("; ".join(notes).replace("|", "/"))
        lines.append("| " + " | ".join(cells) + " |")
    return head + "\n".join(lines) + "\n\n" + verdict(rows) + "\n"


def _size(row: dict[str, Any]) -> tuple[int, int] | None:
    """(free symbols, expression ops) of a result that parses and is still interesting."""
    if row.get("status") == "skipped" or not row.get("parses") or not row.get("still_interesting"):
        return None
    return (row["free_symbols"], row["expr_ops"])


PEERS = ("shrinkray", "cvise", "picire")


def verdict(rows: list[dict[str, Any]]) -> str:
    """The goal, checked: symshrink's result no larger than any peer's (fewer or as many
    symbols *and* ops), with at most half the calls of the cheapest peer whose result
    parses and is still interesting. ddmin is the baseline, not a peer: its ratio apart."""
    by_tool = {r["tool"]: r for r in rows}
    ours = by_tool.get("symshrink")
    if ours is None or ours.get("status") == "skipped":
        return "Verdict: symshrink did not run."
    mine = _size(ours)
    if mine is None:
        return "Verdict: symshrink produced no result that parses and is still interesting."
    parts = []
    valid = {t: s for t in PEERS if t in by_tool and (s := _size(by_tool[t])) is not None}
    ran = [t for t in PEERS if t in by_tool and by_tool[t].get("status") != "skipped"]
    invalid = [t for t in ran if t not in valid]
    if invalid:
        parts.append(f"no valid result from {', '.join(invalid)}")
    larger = [t for t, s in valid.items() if s[0] < mine[0] or s[1] < mine[1]]
    if valid:
        parts.append(
            f"larger than {', '.join(larger)} (symbols or ops)"
            if larger
            else "no larger than any peer (symbols and ops)"
        )
        fewer_bytes = [t for t in valid if by_tool[t]["bytes"] < ours["bytes"]]
        if fewer_bytes:
            parts.append(f"more bytes than {', '.join(fewer_bytes)}")
        best = min(valid, key=lambda t: by_tool[t]["oracle_calls"])
        calls = by_tool[best]["oracle_calls"]
        ratio = ours["oracle_calls"] / calls if calls else float("inf")
        parts.append(f"{ours['oracle_calls']} calls = {ratio:.2f}x {best}'s {calls}")
        if by_tool[best].get("limit_hit") and best not in larger and valid[best] != mine:
            parts.append(f"{best} was cut by the limit at a larger result, so it needs more")
        parts.append("GOAL MET" if not larger and ratio <= 0.5 else "goal not met")
    elif ran:
        parts.append("no peer to compare with")
    base = by_tool.get("ddmin")
    if base is not None and base.get("oracle_calls"):
        base_size = _size(base)
        parts.append(
            f"vs the ddmin baseline: {ours['oracle_calls'] / base['oracle_calls']:.2f}x its "
            f"calls, (symbols, ops) {mine} vs {base_size}"
        )
    return "Verdict: symshrink " + "; ".join(parts) + "."


# ----------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--cases",
        nargs="+",
        help=f"planted-nN-kK / slow-nN [default: {' '.join(PLANTED_CASES)} slow-n8]",
    )
    ap.add_argument("--tools", nargs="+", choices=TOOLS, default=list(TOOLS))
    ap.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        help="seconds per tool per planted case [60: the default run stays under an hour]",
    )
    ap.add_argument(
        "--slow-time-limit",
        type=float,
        default=240.0,
        help="seconds per tool on a slow case (one call is ~20-45 s) [240]",
    )
    ap.add_argument(
        "--slow-fraction",
        type=float,
        default=0.5,
        help="slow threshold = this x the original's CPU s above a trivial repro's [0.5]",
    )
    ap.add_argument(
        "--oracle",
        choices=("ast", "parser"),
        default="ast",
        help="planted scripts read candidates with the stdlib (fast) or symshrink's parser",
    )
    ap.add_argument("--quick", action="store_true", help="smoke check: planted-n16-k1 only")
    ap.add_argument("--json", type=Path, help="write raw results here")
    ap.add_argument("--work", type=Path, help="keep work files here [default: a temp dir]")
    ns = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    cases = ["planted-n16-k1"] if ns.quick else ns.cases or [*PLANTED_CASES, "slow-n8"]
    for name in cases:
        try:
            parse_case(name)
        except argparse.ArgumentTypeError as e:
            ap.error(str(e))
    root = (ns.work or Path(tempfile.mkdtemp(prefix="symshrink-peers-"))).resolve()
    root.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    print(f"work directory: {root}", flush=True)

    tools = []
    for name in ns.tools:
        tool = locate(name)
        if tool.skipped:
            print(f"SKIPPED {name}: {tool.skipped}", flush=True)
        tools.append(tool)

    results: dict[str, Any] = {
        "command": " ".join([Path(sys.argv[0]).name, *(argv or sys.argv[1:])]),
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
        "torch": _torch_version(),
        "time_limit_s": ns.time_limit,
        "slow_time_limit_s": ns.slow_time_limit,
        "oracle": ns.oracle,
        "tools": {t.name: t.version or t.skipped for t in tools},
        "cases": [],
    }
    reports = []
    for name in cases:
        print(f"case {name}", flush=True)
        case = make_case(name, root, ns.oracle, ns.slow_fraction)
        limit = ns.slow_time_limit if case.kind == "slow" else ns.time_limit
        original = measure(case.repro.read_text())
        rows = [run_tool(t, case, root, limit) for t in tools]
        entry = {
            "case": case.name,
            "kind": case.kind,
            "n": case.n,
            "planted": case.planted,
            "threshold_s": case.threshold_s,
            "original_compile_s": case.original_compile_s,
            "original_cpu_s": case.original_cpu_s,
            "base_cpu_s": case.base_cpu_s,
            "time_limit_s": limit,
            "original": original,
            "results": rows,
        }
        results["cases"].append(entry)
        report = table(case, rows)
        reports.append(report)
        print("\n" + report, flush=True)
        if ns.json:
            ns.json.write_text(json.dumps(results, indent=2) + "\n")
    results["seconds"] = round(time.monotonic() - started, 1)
    if ns.json:
        ns.json.write_text(json.dumps(results, indent=2) + "\n")
    print("\n".join(reports))
    print(f"total {results['seconds']:.0f} s; work files in {root}")
    return 0


def _torch_version() -> str | None:
    done = subprocess.run(
        [sys.executable, "-c", "import torch; print(torch.__version__)"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or None


if __name__ == "__main__":
    raise SystemExit(main())
