"""A bug report from a minimize run: markdown to paste into a GitHub issue, and a picture.

A PyTorch maintainer asks first for a self-contained program under 100 lines that shows
the problem through `torch.compile`. So the report leads with the result's program
(`program.render_program`) and what it measured: whether the pathology reproduces through
torch.compile (minimize's check), its time against the width of its widest sum with the
growth fitted as `time ∝ N^x`, and the backend ablation (eager / aot_eager / inductor).
Then the versions, where the time went in symshrink's retrace (phase, hottest functions),
how much smaller the repro got, the expressions that remain and their dependency graph;
the faithful retrace repro (`min.py`) is named as a file to attach, not inlined.

The program's runs are the one thing measured here (`program_check.check_program`, one
fresh run of each mode per width and backend, against static shapes, at the run's R),
kept in the work directory and reused for the same program text.
"""

from __future__ import annotations

import hashlib
import logging
import math
import platform
import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from symshrink import installed_version, summary
from symshrink.errors import ReproError
from symshrink.files import atomic_write
from symshrink.graph import SymGraph
from symshrink.minimize_options import command_line
from symshrink.oracle.calibrate import DEFAULT_RATIO, Calibration
from symshrink.passes import GRAPH_PASSES
from symshrink.program import BACKENDS, program_path, render_program
from symshrink.program_check import check_program, through_program
from symshrink.records import (
    CALIBRATION,
    PROGRAM_SWEEP,
    ProgramCheck,
    ProgramSweep,
    RunRecord,
    Side,
    load_calibration,
)
from symshrink.repro.model import Repro
from symshrink.repro.parse import parse_file, read_source
from symshrink.standalone import is_standalone
from symshrink.verdict import Verdict
from symshrink.widths import at_width, widest_sum

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_WIDTHS",
    "MinimizeRun",
    "growth_exponent",
    "load_run",
    "plot_widths",
    "render_report",
    "write_report",
]

DEFAULT_WIDTHS = (2, 4, 8, 12, 16)
_CONFIG_LINE = re.compile(r"^torch\.[\w.]*config[\w.]* = .+$", re.MULTILINE)


# --------------------------------------------------------------------------- the run


@dataclass(frozen=True)
class MinimizeRun:
    """What a minimize work directory says, with the scripts it names, parsed."""

    work_dir: Path
    report: RunRecord
    calibration: Calibration | None  # only the compile oracle calibrates
    script: Path  # the minimized repro
    final: Repro


def load_run(work_dir: Path, script: Path | None = None) -> MinimizeRun:
    """Read a work directory; the minimized script defaults to the one its report names.

    Raises ReproError when the directory is not a finished minimize run or the script is
    missing or does not parse.
    """
    work_dir = Path(work_dir)
    report = RunRecord.load_from(work_dir)
    if script is None:
        script = Path(report.out)  # recorded by minimize
    calibration_path = work_dir / CALIBRATION
    calibration = load_calibration(calibration_path) if calibration_path.exists() else None
    return MinimizeRun(
        work_dir=work_dir,
        report=report,
        calibration=calibration,
        script=Path(script),
        final=parse_file(script),
    )


# ------------------------------------------------------------------- the width family


def growth_exponent(points: Sequence[tuple[int, float]]) -> float | None:
    """x in `time ∝ N^x`: the slope of log seconds on log N by least squares over
    `(N, seconds)` (None: fewer than two widths)."""
    logs = [(math.log(n), math.log(t)) for n, t in points if n > 0 and t > 0]
    if len({x for x, _ in logs}) < 2:
        return None
    xs, ys = zip(*logs, strict=True)
    return statistics.linear_regression(xs, ys).slope


def _fitted(checks: Sequence[ProgramCheck]) -> list[tuple[int, float]]:
    """(N, dynamic seconds) of the width checks that ran to their end."""
    return [
        (c.n, statistics.median(c.dynamic_s))
        for c in checks
        if c.n is not None and c.dynamic_s and not c.lower_bound
    ]


def plot_widths(checks: Sequence[ProgramCheck], path: Path, title: str, ratio: float) -> Path:
    """A PNG of the program's dynamic and static CPU seconds against N, the width of its
    widest sum, with `ratio` x static, the verdict's limit, as a dotted line."""
    from matplotlib.figure import Figure  # the `report` extra; Agg renders without a display
    from matplotlib.ticker import MaxNLocator

    done = sorted(((c.n, c) for c in checks if c.n is not None and c.dynamic_s), key=lambda t: t[0])
    fig = Figure(figsize=(6.4, 4.0), dpi=100)
    ax = fig.subplots()
    ended = [(n, statistics.median(c.dynamic_s)) for n, c in done if not c.lower_bound]
    if ended:
        ax.plot(*zip(*ended, strict=True), "o-", label="dynamic, CPU s")
    statics = [(n, statistics.median(c.static_s)) for n, c in done if c.static_s]
    if statics:
        ax.plot(*zip(*statics, strict=True), "s--", label="static, CPU s")
        limit = [(n, ratio * s) for n, s in statics]
        ax.plot(*zip(*limit, strict=True), ":", color="grey", label=f"{ratio:g}x static")
    if stopped := [(n, statistics.median(c.dynamic_s)) for n, c in done if c.lower_bound]:
        ax.plot(*zip(*stopped, strict=True), "rx", markersize=10, label="stopped at the timeout")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("N, the width of the widest sum (--n)")
    ax.set_ylabel("CPU seconds, compile and first call")
    ax.set_title(title, fontsize=10)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, format="png")
    return path


# ---------------------------------------------------------------------------- markdown


def render_report(
    run: MinimizeRun, checks: Sequence[ProgramCheck] = (), picture: Path | None = None
) -> str:
    """The markdown report; `checks` (the program at its widths and backends) and
    `picture` from `write_report`."""
    phase = _slow_phase(run)
    spot = _hot_spots(run)
    headline = (f": `{phase}`" + (f" in `{spot[0][0]}`" if spot else "")) if phase else ""
    sections = [
        f"# Slow symbolic-shape compile{headline} "
        + ("(minimized repro)" if run.report.fixpoint else "(reduced, not minimal)"),
        _intro(run),
        _program_section(run),
    ]
    widths = [c for c in checks if c.n is not None]
    if widths:
        sections.append(_widths_section(widths, picture))
    backends = _backends(checks)
    if backends:
        sections.append(_backends_section(backends))
    sections += [
        _environment(run),
        _where_the_time_goes(run, phase, spot),
        _before_after(run),
        _expressions(run.final),
        "## Dependency graph\n\n```mermaid\n" + SymGraph(run.final).to_mermaid() + "```",
        _retrace_section(run),
    ]
    sections.append(_for_sympy(run))
    return "\n\n".join(sections) + "\n"


def _slow_phase(run: MinimizeRun) -> str | None:
    """The original's slowest phase; without a calibration, the re-verification's."""
    if run.calibration is not None and run.calibration.phases:
        return run.calibration.phases[0]
    phases = [v.slow_phase for v in run.report.reverify_verdicts or () if v.slow_phase]
    return Counter(phases).most_common(1)[0][0] if phases else None


def _hot_spots(run: MinimizeRun) -> tuple[tuple[str, float], ...]:
    if run.calibration is None:
        return ()
    signature = run.calibration.signature()
    return signature.spots if signature is not None else ()


def _intro(run: MinimizeRun) -> str:
    r = run.report
    return (
        f"Inductor's compile of this graph is slow in sympy / ShapeEnv work on its symbolic "
        f"sizes. symshrink minimized the after-aot repro `{Path(r.repro).name}` while it "
        f"stayed {'slow for the same reason' if r.oracle == 'compile' else 'interesting'}: "
        f"{sizes_changed(r.initial, r.final)}."
        + (
            ""
            if r.fixpoint
            else f" The run was stopped by {r.stopped_by_option}: the result is "
            "smaller, not minimal yet (`symshrink minimize --resume` continues it)."
        )
    )


def sizes_changed(initial: Side, final: Side) -> str:
    """Each size as `before -> after`, or as kept: a reduction that removed graph nodes
    but no symbol reads "free symbols 3 (kept)", not "from 3 to 3"."""
    sizes = (
        ("free symbols", initial.free_symbols, final.free_symbols),
        ("expression operations", initial.expr_ops, final.expr_ops),
        ("inputs", initial.inputs, final.inputs),
    )
    return ", ".join(
        f"{name} {before} -> {after}" if before != after else f"{name} {before} (kept)"
        for name, before, after in sizes
    )


def _torch_version() -> str:
    return installed_version("torch") or "not installed"


def _environment(run: MinimizeRun) -> str:
    settings = _CONFIG_LINE.findall(run.final.preamble)
    rows = [(name, _version(run, name)) for name in ("torch", "sympy", "symshrink")] + [
        ("Python", f"`{platform.python_version()}`"),
        ("platform", f"`{platform.platform()}`"),
        ("config in the repro", "<br>".join(f"`{s}`" for s in settings) or "none"),
        ("oracle", _oracle_text(run)),
    ]
    if run.report.graph_first:
        rows.append(
            ("graph passes first", f"as a stage at {run.report.graph_first:.2f}x the limit")
        )
    elif run.report.passes and run.report.passes[0] in GRAPH_PASSES:
        rows.append(("graph passes first", "leading the passes at R"))
    return "## Environment\n\n" + _table(("", ""), rows)


def _version(run: MinimizeRun, package: str) -> str:
    """The version the minimize run used, and this environment's where it differs."""
    used = getattr(run.report, f"{package}_version")
    here = installed_version(package) or "not installed"
    if used is None:
        return f"`{here}` (this environment; the run did not record it)"
    return f"`{used}`" + ("" if used == here else f" (this environment: `{here}`)")


def _oracle_text(run: MinimizeRun) -> str:
    r = run.report
    if r.oracle != "compile":
        return "a `--test` script (interestingness as the user defined it)"
    if r.ratio:
        text = (
            f"slow = still compiling at {r.ratio:g}x the candidate's own {r.baseline} "
            f"control, measured in the same run"
        )
        if r.floor_s:
            text += f", and at least {r.floor_s:g} s CPU (the kill-point floor)"
    else:
        text = f"compile time, threshold {r.threshold_s or 0:.2f} s"
        if run.calibration is not None:
            text += f" {run.calibration.clock}"
    if r.margin_used is not None:
        text += f" (x {1 + r.margin_used:.2f} during the reduction)"
    if r.reverified is not None:
        text += "; result re-verified" if r.reverified else "; NOT slow on re-verification"
    if r.walked_back:
        text += (
            f" after walking back {r.walked_back} step(s): the smallest accepted "
            "model(s) were not slow again on fresh runs"
        )
    return text


def _where_the_time_goes(
    run: MinimizeRun, phase: str | None, spots: tuple[tuple[str, float], ...]
) -> str:
    lines = ["## Where the time goes", ""]
    if run.calibration is None and phase is None:
        lines.append("Not measured: this run used a `--test` script, not the compile oracle.")
        return "\n".join(lines)
    if run.calibration is not None and run.calibration.phases:
        phases = " / ".join(f"`{p}`" for p in run.calibration.phases)
        lines.append(f"- slow phase of the original (≥ 25 % of its compile each): {phases}")
    elif phase is not None:
        lines.append(f"- slowest phase measured: `{phase}`")
    if spots:
        lines += ["- hottest functions (sampled stacks of the original):", ""]
        rows = [(f"`{name}`", f"{share:.0%}") for name, share in spots]
        lines += [_table(("function", "share of samples"), rows), ""]
    reruns = Counter(_rerun(v) for v in run.report.reverify_verdicts or ())
    for text, times in reruns.items():  # runs stopped at one limit read alike: said once
        lines.append(f"- minimized, re-run{f' {times} times' if times > 1 else ''}: {text}")
    return "\n".join(lines)


def _rerun(v: Verdict) -> str:
    """One re-verification run: how it ended, its ratio, phase and hot spots."""
    where = ", ".join(f"`{s}`" for s in v.signature[:3]) or "?"
    how = "stopped at" if v.stopped else "after"
    ratio = f" ({v.ratio:.1f}x its twin)" if v.ratio else ""
    phase = v.slow_phase or "?"
    return f"{v.status} {how} {v.cpu_s:.2f} s CPU{ratio}, in `{phase}`; hot spots {where}"


def _before_after(run: MinimizeRun) -> str:
    r = run.report
    first, last = r.initial, r.final
    rows = [
        (label, _num(getattr(first, key)), _num(getattr(last, key)))
        for key, label in (
            ("free_symbols", "free symbols"),
            ("symints", "SymInt inputs"),
            ("expr_ops", "expression operations"),
            ("inputs", "inputs"),
        )
    ]
    for key, label in (
        ("slow_phase_s", "compile time, CPU s (oracle)"),
        ("baseline_s", "its static twin, CPU s"),
        ("ratio", "ratio to the twin"),
    ):
        if getattr(first, key) is not None or getattr(last, key) is not None:
            rows.append((label, _bound(first, key), _bound(last, key)))
    calls = f"{r.oracle_calls} ({r.accepted} accepted, "
    calls += f"{r.cache_hits} cached, {r.seconds:.0f} s)"
    total = r.oracle_calls_total
    if total is not None and total != r.oracle_calls:
        calls += f"; {total} over every run on this work directory (resumed)"
    rows.append(("oracle calls", "—", calls))
    return "## Before and after\n\n" + _table(("", "original", "minimized"), rows)


def _bound(side: Side, key: str) -> str:
    """A measured time or ratio; `≥` where the run was stopped at its limit."""
    value = getattr(side, key)
    if value is None:
        return "—"
    bound = "≥ " if side.lower_bound and key != "baseline_s" else ""
    return bound + _num(value)


def _num(value: Any) -> str:
    if value is None:
        return "—"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _expressions(repro: Repro) -> str:
    data = summary.summary(repro)
    symbols = ", ".join(f"`{k} = {v}`" for k, v in data["free_symbols"].items()) or "none"
    rows = [(x["name"], "SymInt", f"`{x['expr']}`", _num(x["hint"])) for x in data["symints"]]
    rows += [
        (t["name"], f"tensor {t['dtype']}", f"shape `({', '.join(t['shape'])})`", "")
        for t in data["tensors"]
    ]
    return f"## Minimal expressions\n\nFree symbols (name = hint): {symbols}\n\n" + _table(
        ("input", "kind", "expression", "value at the hints"), rows
    )


def _program_text(run: MinimizeRun) -> str:
    """The result's torch.compile program, as minimize writes it beside the result;
    ReproError says why the result has none."""
    name = program_path(run.script).name.removesuffix(".program.py")
    return render_program(run.final, name, run.script.name, run.report.options.torch_settings)


def _program_section(run: MinimizeRun) -> str:
    lines = ["## Reproduce with torch.compile", ""]
    try:
        text = _program_text(run)
    except ReproError as e:
        why = str(e).removeprefix("no program: ")
        lines.append(f"No torch.compile program: {why}. The retrace repro below shows it.")
        return "\n".join(lines)
    name = program_path(run.script).name
    wide = widest_sum(run.final) is not None  # else --n only cuts
    lines += [
        f"`{name}` ({len(text.splitlines())} lines, torch and the Python standard library only):",
        "",
        "```python",
        text.rstrip(),
        "```",
        "",
        "It compiles `graph` with the free symbols' dims marked dynamic and, as the control,"
        " with static shapes, each in fresh processes after a warm-up compile, and prints the"
        " CPU seconds of both (compile and first call) and their ratio:",
        "",
        "```sh",
        f"python -m pip install torch=={_torch_version().split('+')[0]}",
        f"python {name}                    # 3 runs of each mode",
        *([f"python {name} --n 16             # its widest sum at 16 symbols"] * wide),
        f"python {name} --backend eager    # or aot_eager: which part of torch.compile",
        "```",
    ]
    check = run.report.program_check
    if check is not None and check.verdict != "no program":
        lines += ["", _checked_sentence(check)]
    return "\n".join(lines)


def _checked_sentence(check: ProgramCheck) -> str:
    """What minimize's check of the program found, as a sentence."""
    runs = len(check.dynamic_s)
    text = f"Run by minimize ({runs} fresh run{'s' * (runs != 1)} of each mode"
    if check.dynamic_s and check.static_s:
        dynamic = ", ".join(f"{t:.2f}" for t in check.dynamic_s)
        static = ", ".join(f"{t:.2f}" for t in check.static_s)
        text += f": dynamic {dynamic} s, static {static} s"
    text += f"): {through_program(check)}."
    if check.hot_spots:
        text += " Hot spots of the dynamic runs: " + ", ".join(
            f"`{s}`" for s in check.hot_spots[:3]
        )
        text += "."
    return text


def _widths_section(checks: Sequence[ProgramCheck], picture: Path | None) -> str:
    lines = ["## Time against the width of the widest sum", ""]
    if picture is not None:
        lines += [
            f"![compile time against N]({picture.name})",
            "",
            f"(`{picture.name}` lies beside this file: attach it when you paste the report.)",
            "",
        ]
    lines += [
        "The program at `--n N`, its widest sum cut to or extended to N symbols, one fresh run"
        " of each mode (CPU seconds of the compile and first call):",
        "",
        _checks_table(("N",), [((str(c.n),), c) for c in checks]),
    ]
    dynamic = growth_exponent(_fitted(checks))
    if dynamic is not None:
        ns = [n for n, _ in _fitted(checks)]
        statics = [(c.n, statistics.median(c.static_s)) for c in checks if c.n and c.static_s]
        static = growth_exponent(statics)
        lines += [
            "",
            f"Growth: the dynamic compile's time ∝ N^{dynamic:.1f} (least squares over N ="
            f" {min(ns)}–{max(ns)}"
            + (f"; the static compile's ∝ N^{static:.1f})." if static is not None else ")."),
        ]
    return "\n".join(lines)


def _backends(checks: Sequence[ProgramCheck]) -> list[ProgramCheck]:
    """The program at its default width with each backend, in BACKENDS' order."""
    own = {c.backend: c for c in checks if c.n is None}
    return [own[b] for b in BACKENDS if b in own]


def _backends_section(checks: Sequence[ProgramCheck]) -> str:
    return "\n".join(
        [
            "## Backends",
            "",
            "The program at its default width with `--backend B`: `eager` is Dynamo's trace"
            " alone, `aot_eager` adds AOTAutograd, `inductor` (the default) adds Inductor's"
            " lowering and code generation.",
            "",
            _checks_table(("backend",), [((c.backend,), c) for c in checks], runs=True),
        ]
    )


def _checks_table(
    head: Sequence[str], rows: Sequence[tuple[Sequence[str], ProgramCheck]], *, runs: bool = False
) -> str:
    """One row per check: its label, both medians and their ratio (or why it failed)."""
    header = [*head, "dynamic CPU s", "static CPU s", "ratio"] + (["runs"] if runs else [])
    body = []
    for label, c in rows:
        at = "≥ " if c.lower_bound else ""
        if c.verdict == "error" or not c.dynamic_s or not c.static_s:
            cells = ["—", "—", f"error: {c.why}"]
        else:
            cells = [
                f"{at}{statistics.median(c.dynamic_s):.2f}",
                f"{statistics.median(c.static_s):.2f}",
                f"{at}{c.ratio:.1f}x" if c.ratio is not None else "—",
            ]
        body.append([*label, *cells] + ([str(len(c.dynamic_s))] if runs else []))
    return _table(header, body)


def _retrace_section(run: MinimizeRun) -> str:
    text = read_source(run.script)
    name = run.script.name
    torch_version = _torch_version().split("+")[0]
    if is_standalone(text):
        how = (
            f"python -m pip install torch=={torch_version}\n"
            f"python {name}            # retrace with the relationships kept; no C++ compile\n"
            f"python {name} --native   # with the C++ compile"
        )
    else:
        how = (
            f"python -m pip install torch=={torch_version} symshrink\n"
            f"symshrink run {name} --no-native-compile"
        )
    original = Path(run.report.repro).name
    return "\n".join(
        [
            "## The retrace repro (attach it)",
            "",
            f"`{name}` ({len(text.splitlines())} lines, at `{run.script}`) is the minimized"
            " after-aot graph with symshrink's retrace: it rebuilds the graph's inputs with the"
            " relationships between their symbols kept and compiles it as the reduction judged"
            " it. Attach it; it is not inlined here.",
            "",
            "```sh",
            how,
            "```",
            "",
            f"Minimized with `{command_line(original, run.report.options.to_dict())}`.",
        ]
    )


def _for_sympy(run: MinimizeRun) -> str:
    """The sympy-only reproducer beside the minimized script (what `symshrink sympy-repro`
    writes), inlined, for an issue to sympy; else the command that writes it."""
    from symshrink.sympy_repro import script_path

    path = script_path(run.script)
    lines = ["## For sympy", ""]
    if not path.is_file():
        lines.append(
            f"`symshrink sympy-repro {run.script.name}` writes `{path.name}`: the compile's "
            "sympy calls replayed by sympy alone, for an issue to sympy."
        )
        return "\n".join(lines)
    text = path.read_text()
    lines += [
        f"The compile's sympy calls, replayed by sympy alone (no torch; sympy "
        f"{_version(run, 'sympy')}): `python {path.name}` prints their CPU seconds.",
        "",
        f"<details><summary>{path.name}</summary>",
        "",
        "```python",
        text.rstrip(),
        "```",
        "",
        "</details>",
    ]
    return "\n".join(lines)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def row(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    return "\n".join([row(header), row(["---"] * len(header)), *(row(r) for r in rows)])


# ----------------------------------------------------------------------------- driver


def write_report(
    work_dir: Path,
    *,
    output: Path | None = None,
    script: Path | None = None,
    widths: Sequence[int] = DEFAULT_WIDTHS,
    timeout_s: float = 120.0,
    plot: bool = True,
) -> Path:
    """Write the markdown (and, with `plot`, the program's runs and their PNG beside it);
    returns the markdown path.

    With `plot` the result's program is written beside it (as minimize writes it) and run
    at `widths` and with each backend at its default width, each run stopped at `timeout_s`;
    the runs are kept in the work dir and reused for the same program text.
    """
    run = load_run(work_dir, script)
    output = Path(output) if output is not None else run.work_dir / "report.md"
    checks: list[ProgramCheck] = []
    picture = None
    if plot:
        try:
            text = _program_text(run)
        except ReproError as e:
            log.warning("%s: nothing to measure", e)
        else:
            checks = _measure(run, text, widths, timeout_s)
        title = f"{program_path(run.script).name}: dynamic and static compile against N"
        if any(c.n is not None and c.dynamic_s for c in checks):
            try:
                picture = plot_widths(checks, output.with_suffix(".png"), title, _ratio(run))
            except ImportError:
                log.warning("matplotlib is missing (pip install 'symshrink[report]'): no picture")
    atomic_write(output, render_report(run, checks, picture))
    return output


def _ratio(run: MinimizeRun) -> float:
    """The run's R (4 for a `--test` or absolute run)."""
    return run.report.ratio or DEFAULT_RATIO


def _measure(
    run: MinimizeRun, text: str, widths: Sequence[int], timeout_s: float
) -> list[ProgramCheck]:
    """The program at each of `widths` its model has (inductor), and at its default width
    with each backend: from the work dir's earlier runs of the same program text, R and
    timeout where it has them, and minimize's own check if it ran this text."""
    path = program_path(run.script)
    recorded = run.report.program_check
    if recorded is None or run.report.program is None or _read(Path(run.report.program)) != text:
        recorded = None
    atomic_write(path, text)
    sweep_path = run.work_dir / PROGRAM_SWEEP
    sweep = ProgramSweep(
        key=hashlib.sha256(text.encode()).hexdigest()[:16],
        timeout_s=timeout_s,
        ratio=_ratio(run),
        checks=(),
    )
    known: dict[tuple[int | None, str], ProgramCheck] = {}
    if recorded is not None and recorded.dynamic_s:
        known[recorded.n, recorded.backend] = recorded
    if sweep_path.exists():
        try:
            earlier = ProgramSweep.load(sweep_path)
        except ReproError as e:
            log.warning("%s; measuring again", e)
        else:
            if replace(earlier, checks=()) == sweep:
                known |= {(c.n, c.backend): c for c in earlier.checks if c.verdict != "error"}
    wanted: list[tuple[int | None, str]] = [
        (w, "inductor") for w in sorted(set(widths)) if at_width(run.final, w) is not None
    ]
    wanted += [(None, b) for b in BACKENDS]
    for n, backend in wanted:
        if (n, backend) in known:
            continue
        known[n, backend] = check_program(
            path, ratio=sweep.ratio, runs=1, n=n, backend=backend, timeout_s=timeout_s
        )
        log.info("the program at --n %s --backend %s: %s", n, backend, known[n, backend].why)
        replace(sweep, checks=tuple(known.values())).save(sweep_path)  # kept if interrupted
    return [known[k] for k in wanted]


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None
