"""A bug report from a minimize run: markdown to paste into a GitHub issue, and a picture.

A torch developer reading an issue wants, in this order: what is slow and where (phase,
hottest functions), how much smaller the repro got, the expressions that remain, and one
command that shows it. All of that is in a minimize work directory (`report.json`, the
oracle's calibration) and the minimized script beside it; nothing is re-run for it.

The picture is the one thing measured here: the minimized repro's compile time against
its number of free symbols, over a family of repros whose widest sum is cut to, or
extended to, w symbols (`at_width`). Each member is measured as `corpus sweep` measures
one (`bench.measure_widths`): in the oracle's warm child without the C++ compile, to its
end or a timeout, on the oracle's CPU clock, with the run's torch settings, against its
own static twin; so a slowness that grows with the width shows as a curve beside R x the
twin, not as one number.
"""

from __future__ import annotations

import logging
import math
import platform
import re
import shlex
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from symshrink import installed_version, summary
from symshrink.bench import Bench, Rule, measure_widths
from symshrink.errors import ReproError
from symshrink.files import atomic_write
from symshrink.graph import SymGraph
from symshrink.oracle.calibrate import DEFAULT_RATIO, Calibration
from symshrink.records import (
    CALIBRATION,
    WIDTH_SWEEP,
    RunRecord,
    Side,
    WidthPoint,
    WidthSweep,
    load_calibration,
)
from symshrink.repro.model import Repro
from symshrink.repro.parse import parse_file, read_source
from symshrink.repro.render import canonical_key
from symshrink.standalone import is_standalone

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_WIDTHS",
    "MinimizeRun",
    "load_run",
    "plot_widths",
    "render_report",
    "write_report",
]

DEFAULT_WIDTHS = (2, 4, 8, 12, 16)
_INLINE_LIMIT = 50_000  # characters of script worth pasting into an issue (GitHub: 65536)
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


def plot_widths(
    points: Sequence[WidthPoint], phase: str, path: Path, title: str, ratio: float
) -> Path:
    """A PNG of `phase` seconds and the compile's CPU seconds against free symbols, with the
    limit of the verdict, `ratio` x each member's twin, as a dotted line."""
    from matplotlib.figure import Figure  # the `report` extra; Agg renders without a display
    from matplotlib.ticker import MaxNLocator

    ok = sorted((p for p in points if p.status == "ok"), key=lambda p: p.free_symbols)
    killed = [p for p in points if p.status == "timeout"]
    fig = Figure(figsize=(6.4, 4.0), dpi=100)
    ax = fig.subplots()
    xs = [p.free_symbols for p in ok]
    ax.plot(xs, [(p.phases or {}).get(phase, 0.0) for p in ok], "o-", label=f"{phase} (slow phase)")
    ax.plot(xs, [_or_nan(p.entry_s) for p in ok], "s--", label="compile, CPU s")
    twins = [(p.free_symbols, ratio * p.twin_s) for p in ok if p.twin_s is not None]
    if twins:
        ax.plot(*zip(*twins, strict=True), ":", color="grey", label=f"{ratio:g}x its static twin")
    if killed:
        ax.plot(
            [p.free_symbols for p in killed],
            [_or_nan(p.entry_s) for p in killed],
            "rx",
            markersize=10,
            label="killed at the timeout",
        )
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("free symbols")
    ax.set_ylabel("seconds (no C++ compile)")
    ax.set_title(title, fontsize=10)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, format="png")
    return path


# ---------------------------------------------------------------------------- markdown


def _or_nan(seconds: float | None) -> float:
    """A point's seconds for the plot, which leaves out what was not measured (NaN)."""
    return math.nan if seconds is None else seconds


def render_report(
    run: MinimizeRun, points: Sequence[WidthPoint] = (), picture: Path | None = None
) -> str:
    """The markdown report; `points` and `picture` from `measure_widths` / `plot_widths`."""
    phase = _slow_phase(run, points)
    spot = _hot_spots(run)
    headline = (f"`{phase}`" + (f" in `{spot[0][0]}`" if spot else "")) if phase else "compile"
    sections = [
        f"# Slow symbolic-shape compile: {headline} "
        + ("(minimized repro)" if run.report.fixpoint else "(reduced, not minimal)"),
        _intro(run),
        _environment(run),
        _where_the_time_goes(run, phase, spot),
        _before_after(run),
        _expressions(run.final),
        "## Dependency graph\n\n```mermaid\n" + SymGraph(run.final).to_mermaid() + "```",
    ]
    if points:
        sections.append(_widths_section(points, phase, picture))
    sections.append(_reproduce(run))
    sections.append(_for_sympy(run))
    return "\n\n".join(sections) + "\n"


def _slow_phase(run: MinimizeRun, points: Sequence[WidthPoint]) -> str | None:
    """The original's slowest phase; without a calibration, the measured one's."""
    if run.calibration is not None and run.calibration.phases:
        return run.calibration.phases[0]
    phases = [v.slow_phase for v in run.report.reverify_verdicts or () if v.slow_phase]
    if phases:
        return Counter(phases).most_common(1)[0][0]
    ok = [(p.entry_s or 0.0, p.phases) for p in points if p.status == "ok" and p.phases]
    if not ok:
        return None
    _, seconds = max(ok, key=lambda seconds_phases: seconds_phases[0])
    return max(seconds, key=seconds.__getitem__)


def _hot_spots(run: MinimizeRun) -> tuple[tuple[str, float], ...]:
    if run.calibration is None:
        return ()
    signature = run.calibration.signature()
    return signature.spots if signature is not None else ()


def _intro(run: MinimizeRun) -> str:
    r = run.report
    return (
        f"Inductor's compile of this graph is slow in sympy / ShapeEnv work on its symbolic "
        f"sizes. symshrink minimized the after-aot repro `{Path(r.repro).name}` "
        f"from {r.initial.free_symbols} to {r.final.free_symbols} free "
        f"symbols and from {r.initial.expr_ops} to {r.final.expr_ops} "
        f"expression operations while it stayed "
        + ("slow for the same reason." if r.oracle == "compile" else "interesting.")
        + (
            ""
            if r.fixpoint
            else f" The run was stopped by {r.stopped_by_option}: the result is "
            "smaller, not minimal yet (`symshrink minimize --resume` continues it)."
        )
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
            (
                "graph passes first",
                f"at {run.report.graph_first:.2f}x the limit, keeping the original's headroom",
            )
        )
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
    for v in run.report.reverify_verdicts or ():
        where = ", ".join(f"`{s}`" for s in v.signature[:3]) or "?"
        how = "stopped at" if v.stopped else "after"
        ratio = f" ({v.ratio:.1f}x its twin)" if v.ratio else ""
        lines.append(
            f"- minimized, re-run: {v.status} {how} {v.cpu_s:.2f} s CPU{ratio}, "
            f"in `{v.slow_phase or '?'}`; hot spots {where}"
        )
    return "\n".join(lines)


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


def _widths_section(points: Sequence[WidthPoint], phase: str | None, picture: Path | None) -> str:
    lines = ["## Time against the number of free symbols", ""]
    if picture is not None:
        lines += [
            f"![slow-phase time against free symbols]({picture.name})",
            "",
            f"(`{picture.name}` lies beside this file: attach it when you paste the report.)",
            "",
        ]
    lines.append(
        "The minimized repro with its widest sum cut to, or extended to, w symbols; each "
        "retraced once with the relationships preserved, without the C++ compile, and "
        "judged against its own static twin as `symshrink corpus sweep` judges."
    )
    lines.append("")
    name = phase or "slow phase"
    rows = [
        (
            str(p.free_symbols),
            str(p.width),
            f"{p.phases[phase]:.2f}" if p.phases and phase in p.phases else "—",
            _seconds(p),
            p.status + (f": {p.detail}" if p.status == "error" else ""),
        )
        for p in points
    ]
    header = ("free symbols", "sum width", f"{name} s", "CPU s", "status")
    lines.append(_table(header, rows))
    return "\n".join(lines)


def _seconds(point: WidthPoint) -> str:
    """A member's CPU seconds: `> N` when the timeout stopped it, `—` when not measured."""
    if point.entry_s is None:
        return "—"
    return f"{point.entry_s:.2f}" if point.status == "ok" else f"> {point.entry_s:.0f}"


def _reproduce(run: MinimizeRun) -> str:
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
    lines = ["## Reproduce", "", "```sh", how, "```", ""]
    original = Path(run.report.repro).name
    lines.append(f"Minimized with `{_command(original, run.report.options.to_dict())}`.")
    if len(text) <= _INLINE_LIMIT:
        lines += ["", f"<details><summary>{name}</summary>", "", "```python", text.rstrip()]
        lines += ["```", "", "</details>"]
    else:
        lines.append(f"\n`{name}` ({len(text)} characters) is too long to inline: attach it.")
    return "\n".join(lines)


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


_ON_BY_DEFAULT = ("signature", "graph_first")  # options whose flag is their --no-X


def _command(original: str, options: Mapping[str, Any]) -> str:
    """The minimize command line the run's recorded options spell."""
    words = ["symshrink", "minimize", original]
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if name in _ON_BY_DEFAULT:  # None: a run from before the option, which had it off
            words += [] if value else [f"--no-{name.replace('_', '-')}"]
        elif value is None or value is False or value == {}:
            continue
        elif name == "torch_settings":
            words += [f"--torch-setting {k}={v}" for k, v in value.items()]
        else:
            words += [flag, shlex.quote(str(value))]
    return " ".join(words)


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
    """Write the markdown (and, with `plot`, its PNG beside it); returns the markdown path.

    Width measurements are kept in the work dir and reused for the same minimized repro.
    """
    run = load_run(work_dir, script)
    output = Path(output) if output is not None else run.work_dir / "report.md"
    points: list[WidthPoint] = []
    picture = None
    if plot:
        rule = _rule(run)
        points = _sweep(run, widths, rule, timeout_s)
        phase = _slow_phase(run, points)
        if not any(p.status == "ok" for p in points):
            log.warning("no width could be measured: the report has no picture")
        elif phase is not None:
            title = f"{run.script.name}: {phase} vs free symbols"
            try:
                picture = plot_widths(points, phase, output.with_suffix(".png"), title, rule.ratio)
            except ImportError:
                log.warning("matplotlib is missing (pip install 'symshrink[report]'): no picture")
    atomic_write(output, render_report(run, points, picture))
    return output


def _rule(run: MinimizeRun) -> Rule:
    """The run's own: R (4 for a `--test` or absolute run), its control, clock, torch
    settings and the original's hot spots."""
    r, cal = run.report, run.calibration
    return Rule(
        ratio=r.ratio or DEFAULT_RATIO,
        baseline=r.baseline or "static",
        clock=cal.clock if cal is not None else "cpu",
        reference=cal.signature() if cal is not None else None,
        torch_settings=r.options.torch_settings,
    )


def _sweep(
    run: MinimizeRun, widths: Sequence[int], rule: Rule, timeout_s: float
) -> list[WidthPoint]:
    """Measured points for `widths`, from the work dir's earlier sweep where it has them
    (measured for the same model, by the same rule, with the same timeout)."""
    path = run.work_dir / WIDTH_SWEEP
    sweep = WidthSweep(
        key=canonical_key(run.final),
        timeout_s=timeout_s,
        ratio=rule.ratio,
        torch_settings=dict(rule.torch_settings),
        points=(),
    )
    known: dict[int, WidthPoint] = {}
    if path.exists():
        try:
            earlier = WidthSweep.load(path)
        except ReproError as e:
            log.warning("%s; measuring again", e)
        else:
            if replace(earlier, points=()) == sweep:
                known = {p.width: p for p in earlier.points if p.status != "error"}  # may pass
    todo = [w for w in widths if w not in known]
    if todo:
        with Bench(scratch=run.work_dir) as bench:
            for p in measure_widths(bench, run.final, todo, rule, timeout_s):
                known[p.width] = p
    replace(sweep, points=tuple(known.values())).save(path)
    return sorted((known[w] for w in set(widths) if w in known), key=lambda p: p.width)
