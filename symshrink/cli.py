"""The `symshrink` command: parses options and calls the library, nothing more."""

from __future__ import annotations

import json
import logging
import operator
import signal
import sys
from collections.abc import Callable, Mapping
from dataclasses import asdict
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.exceptions import TyperException

from symshrink import MIN_TORCH, __version__, installed_version, summary, torch_too_old
from symshrink.errors import SymshrinkError, UsageError
from symshrink.graph import SymGraph
from symshrink.minimize_options import Options
from symshrink.repro.parse import parse_file
from symshrink.sandbox import Interrupted, interrupts

# Click's plain help, not rich's: rich takes `[default: ...]` in a help text for markup and
# shows `<bool>` after flags that take no value.
app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Minimize PyTorch symbolic-shape repro scripts.",
    epilog="Exit codes: 0 done, 2 bad input or option (one line on stderr), 130 / 143"
    " interrupted by SIGINT / SIGTERM (no child left running); a command's -h gives its others.",
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},  # subcommands inherit them
)


def _print_version(value: bool) -> None:
    """`--version`: torch's and sympy's from their metadata, so torch is never imported."""
    if value:
        typer.echo(f"symshrink {__version__}")
        for dist in ("torch", "sympy"):
            typer.echo(f"{dist} {installed_version(dist) or 'not installed'}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            callback=_print_version,
            help="print the symshrink, torch and sympy versions",
        ),
    ] = False,
) -> None:
    """Minimize PyTorch symbolic-shape repro scripts."""
    torch = installed_version("torch")
    if torch_too_old(torch):
        raise UsageError(
            f"torch {torch} is installed; symshrink needs torch >= {MIN_TORCH[0]}.{MIN_TORCH[1]}"
        )


def _with_default(text: str, default: str) -> str:
    """An option's help with its default in click's own form, where the default is not a
    value click could print (None standing for "derived from the others" or "off")."""
    return f"{text}  [default: {default}]"


ReproPath = Annotated[
    Path, typer.Argument(metavar="REPRO", help="an after-aot repro script", show_default=False)
]
TorchSettings = Annotated[
    list[str] | None,
    typer.Option(
        help=_with_default("NAME=VALUE torch config or module constant (repeatable)", "none")
    ),
]


class Format(StrEnum):
    text = "text"
    json = "json"


class RetraceMode(StrEnum):
    preserved = "preserved"
    independent = "independent"


class Baseline(StrEnum):
    static = "static"
    independent = "independent"


class GraphFormat(StrEnum):
    dot = "dot"
    mermaid = "mermaid"


class Via(StrEnum):  # corpus.VIAS
    retrace = "retrace"
    program = "program"


@app.command()
def inspect(
    repro: ReproPath,
    format: Annotated[Format, typer.Option("--format", help="output format")] = Format.text,
    graph: Annotated[
        GraphFormat | None,
        typer.Option(
            "--graph", help=_with_default("print the dependency graph instead", "the summary")
        ),
    ] = None,
    full: Annotated[
        bool,
        typer.Option(
            "--full", help="graph every symbol and storage (default: wide groups as one node)"
        ),
    ] = False,
) -> None:
    """Summarize a repro: free symbols, derived SymInts, tensor inputs, width."""
    model = parse_file(repro)
    if graph is not None:
        g = SymGraph(model)
        text = g.to_dot(full=full) if graph is GraphFormat.dot else g.to_mermaid(full=full)
        typer.echo(text, nl=False)
    elif format is Format.json:
        typer.echo(json.dumps(summary.summary(model), indent=2))
    else:
        typer.echo(summary.text(model), nl=False)


def _positive(value: float | None) -> float | None:
    """A duration that must be more than 0 (a 0 s timeout or threshold judges nothing)."""
    if value is not None and value <= 0:
        raise typer.BadParameter(f"{value:g} is not > 0")
    return value


def _above_one(value: float) -> float:
    """A ratio that can tell slow from not slow (at 1x every candidate is its own twin)."""
    if value <= 1:
        raise typer.BadParameter(f"{value:g} is not > 1")
    return value


_MINIMIZE = Options(repro=Path("REPRO"))  # every option at its default: the flags' defaults

MINIMIZE_EPILOG = (
    "Exit codes: 0 a result was written; 1 the original is not slow (not interesting);"
    " 2 bad input or a bad option (one line on stderr, before any oracle call, also when"
    " another run holds the work directory); 130 interrupted by SIGINT, 143 by SIGTERM"
    " (the candidates in flight are killed; OUT holds the best result so far)."
)


@app.command(epilog=MINIMIZE_EPILOG)
def minimize(
    ctx: typer.Context,
    repro: ReproPath,
    timeout: Annotated[
        float, typer.Option(help="hard cap on one oracle call, seconds", callback=_positive)
    ] = _MINIMIZE.timeout,
    ratio: Annotated[
        float,
        typer.Option(
            help="slow = still compiling at RATIO x the candidate's control, measured alike",
            callback=_above_one,
        ),
    ] = _MINIMIZE.ratio,
    baseline: Annotated[
        Baseline,
        typer.Option(
            help="the control: static (every symbol pinned to its hint) or independent "
            "(retraced as run_repro does)"
        ),
    ] = Baseline[_MINIMIZE.baseline],
    threshold: Annotated[
        float | None,
        typer.Option(
            help=_with_default(
                "absolute mode: CPU seconds that count as slow, instead of --ratio", "none"
            ),
            callback=_positive,
        ),
    ] = _MINIMIZE.threshold,
    test: Annotated[
        str | None,
        typer.Option(
            help=_with_default(
                "interestingness command: `CMD candidate.py`, exit 0 = yes", "the compile oracle"
            )
        ),
    ] = _MINIMIZE.test,
    jobs: Annotated[
        int,
        typer.Option(
            "-j",
            "--jobs",
            help="candidates judged at once (1 already keeps a second core busy with each "
            "candidate's control and close-call re-run: more pays only with more cores)",
            min=1,
        ),
    ] = _MINIMIZE.jobs,
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", help=_with_default("output script", "REPRO.min.py")),
    ] = _MINIMIZE.out,
    work_dir: Annotated[
        Path | None, typer.Option(help=_with_default("journal and calibration", "OUT.work"))
    ] = _MINIMIZE.work_dir,
    resume: Annotated[
        bool, typer.Option("--resume", help="continue a killed run from its journal")
    ] = _MINIMIZE.resume,
    report_json: Annotated[
        Path | None,
        typer.Option(
            help=_with_default("also write the JSON report here", "WORK_DIR/report.json only")
        ),
    ] = _MINIMIZE.report_json,
    max_calls: Annotated[
        int | None,
        typer.Option(help=_with_default("stop after this many oracle calls", "no limit"), min=0),
    ] = _MINIMIZE.max_calls,
    max_time: Annotated[
        float | None,
        typer.Option(help=_with_default("stop after this many seconds", "no limit"), min=0.0),
    ] = _MINIMIZE.max_time,
    torch_setting: TorchSettings = None,
    no_signature: Annotated[
        bool, typer.Option("--no-signature", help="accept slow candidates whatever the cause")
    ] = not _MINIMIZE.signature,
    margin: Annotated[
        float | None,
        typer.Option(
            help=_with_default(
                "a candidate must reach (1 + MARGIN) x its limit to count as slow",
                "the spread of its twin's runs (the original's; after the graph stage, "
                "its result's), x sqrt 2 for a ratio, at least 0.1",
            ),
            min=0.0,
        ),
    ] = _MINIMIZE.margin,
    floor: Annotated[
        float,
        typer.Option(
            help="a slow candidate must also run at least FLOOR CPU seconds, however small "
            "RATIO x its control (shorter runs are judged by their noise; 0: no floor; "
            "--threshold ignores it)",
            min=0.0,
        ),
    ] = _MINIMIZE.floor,
    confirm: Annotated[
        int, typer.Option(help="more runs that must confirm a slow candidate", min=0)
    ] = _MINIMIZE.confirm,
    graph_first: Annotated[
        bool,
        typer.Option(
            "--graph-first/--no-graph-first",
            help="shrink the graph first (every later call compiles a smaller graph): as a "
            "stage at 2R where the original's headroom allows, else leading the passes at R "
            "(docs/usage.md)",
        ),
    ] = _MINIMIZE.graph_first,
    progress: Annotated[
        bool, typer.Option(help="show progress: a bar on a terminal, plain lines elsewhere")
    ] = _MINIMIZE.progress,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help=_with_default(
                "run oracle calls on Dask: tcp://HOST:PORT or local:N (-j: its worker threads)",
                "child processes on this machine",
            )
        ),
    ] = _MINIMIZE.scheduler,
) -> None:
    """Shrink a repro while its compile stays slow (or while --test says yes)."""
    from symshrink.minimizing import minimize as run_minimize

    outcome = run_minimize(minimize_options(ctx.params))
    typer.echo(outcome.message, err=outcome.exit_code != 0)
    raise typer.Exit(outcome.exit_code)


# `minimize`'s parameters that are not an option of the same name and value: each the
# option it gives and how (every other parameter is the option of its name).
_AS_OPTIONS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "baseline": ("baseline", str),  # the enum's value
    "torch_setting": ("torch_settings", lambda items: _settings(items or [])),
    "no_signature": ("signature", operator.not_),
}


def minimize_options(params: Mapping[str, Any]) -> Options:
    """`symshrink minimize`'s parameters as given (click's) as the run's `Options`."""
    given = {}
    for name, value in params.items():
        option, convert = _AS_OPTIONS.get(name, (name, lambda v: v))
        given[option] = convert(value)
    return Options(**given)


def _settings(items: list[str]) -> dict[str, str]:
    """`NAME=VALUE` pairs; a malformed one is a usage error (exit 2)."""
    from symshrink.retrace import SettingError, parse_setting_items

    try:
        return parse_setting_items(items)
    except SettingError as e:
        raise typer.BadParameter(str(e), param_hint="--torch-setting") from None


@app.command()
def report(
    run_dir: Annotated[
        Path,
        typer.Argument(
            metavar="RUN_DIR", help="a minimize work directory (OUT.work)", show_default=False
        ),
    ],
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help=_with_default("markdown", "RUN_DIR/report.md")),
    ] = None,
    script: Annotated[
        Path | None,
        typer.Option(help=_with_default("the minimized repro", "RUN_DIR without .work")),
    ] = None,
    widths: Annotated[
        str | None,
        typer.Option(
            help=_with_default(
                "widths N of the widest sum to run the program at, e.g. 2,4,8", "2 to 16"
            )
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option(help="seconds of wall time allowed per run of the program")
    ] = 120.0,
    plot: Annotated[
        bool,
        typer.Option(help="run the program at the widths and with each backend; draw the PNG"),
    ] = True,
) -> None:
    """Write a markdown bug report for a run, led by its torch.compile program: that program
    run against static shapes at a few widths (a PNG, the fitted growth) and with each
    backend, the versions, where the time went, the retrace repro to attach."""
    from symshrink.report import DEFAULT_WIDTHS, write_report
    from symshrink.widths import parse_widths

    path = write_report(
        run_dir,
        output=output,
        script=script,
        widths=parse_widths(widths) if widths else DEFAULT_WIDTHS,
        timeout_s=timeout,
        plot=plot,
    )
    typer.echo(path)


corpus_app = typer.Typer(
    no_args_is_help=True,
    help="A corpus of minimized pathologies (corpora/<name>/).",
    rich_markup_mode=None,
)
app.add_typer(corpus_app, name="corpus")
CorpusDir = Annotated[
    Path | None,
    typer.Option(
        "--corpus",
        help=_with_default("the corpus directory", "./corpora, else the symshrink checkout's"),
    ),
]


@corpus_app.command("add")
def corpus_add(
    minimal: Annotated[
        Path,
        typer.Argument(
            metavar="MIN.py", help="the minimized repro (REPRO.min.py)", show_default=False
        ),
    ],
    name: Annotated[str, typer.Option("--name", help="entry name: corpora/NAME/")],
    run_dir: Annotated[
        Path | None,
        typer.Option(
            help=_with_default("its minimize work directory (report.json) to record", "none")
        ),
    ] = None,
    corpus: CorpusDir = None,
    origin: Annotated[
        Path | None,
        typer.Option(help=_with_default("the original script", "the report's repro")),
    ] = None,
    generate: Annotated[
        str | None,
        typer.Option(
            help=_with_default("the command that writes the original (generate.txt)", "none")
        ),
    ] = None,
    ratio: Annotated[
        float | None,
        typer.Option(help=_with_default("R: slow at R x its static twin", "the run's, else 4")),
    ] = None,
    torch_setting: Annotated[
        list[str] | None,
        typer.Option(
            help=_with_default(
                "NAME=VALUE the pathology needs (repeatable; adds to the run's)", "the run's"
            )
        ),
    ] = None,
    link: Annotated[
        list[str] | None,
        typer.Option(
            help=_with_default("URL of the issue or PR it came from (repeatable)", "none")
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="replace an existing entry")] = False,
) -> None:
    """Add a minimized repro (and what its run recorded) to the corpus."""
    from symshrink import corpus as corpus_mod

    path = corpus_mod.add(
        minimal,
        name,
        corpus=corpus_mod.find_dir(corpus),
        run_dir=run_dir,
        origin=origin,
        generate=generate,
        ratio=ratio,
        torch_settings=_settings(torch_setting or []),
        links=link or [],
        force=force,
    )
    typer.echo(path)


@corpus_app.command("render")
def corpus_render(
    name: Annotated[str, typer.Argument(metavar="NAME", help="the entry", show_default=False)],
    corpus: CorpusDir = None,
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help=_with_default("output script", "stdout"))
    ] = None,
    program: Annotated[
        bool,
        typer.Option("--program", help="its torch.compile program instead (program.py's text)"),
    ] = False,
) -> None:
    """Write an entry's retrace script (what minimize writes as min.py: `python OUT`
    retraces it with its SymInt relationships kept and needs only torch)."""
    from symshrink import corpus as corpus_mod
    from symshrink.files import atomic_write

    text = corpus_mod.render(corpus_mod.find_dir(corpus), name, program=program)
    if out is None:
        typer.echo(text, nl=False)
    else:
        atomic_write(out, text)
        typer.echo(out)


@corpus_app.command("list")
def corpus_list(
    corpus: CorpusDir = None,
    json_output: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """One row per entry: free symbols, expression ops, recorded seconds, torch version."""
    from symshrink import corpus as corpus_mod

    rows = corpus_mod.list_rows(corpus_mod.find_dir(corpus))
    if json_output:
        typer.echo(json.dumps(rows, indent=2))
    else:
        typer.echo(corpus_mod.list_table(rows), nl=False)


CorpusRatio = Annotated[
    float | None,
    typer.Option(
        help=_with_default("still slow at >= RATIO x its static twin", "the entry's R, else 4")
    ),
]
TwinRuns = Annotated[
    int, typer.Option(help="runs of each static twin (their median counts)", min=1)
]


@corpus_app.command("replay")
def corpus_replay(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="NAMES", help=_with_default("entries to replay", "all"), show_default=False
        ),
    ] = None,
    corpus: CorpusDir = None,
    torch_setting: TorchSettings = None,
    json_output: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    timeout: Annotated[float, typer.Option(help="seconds allowed per entry")] = 600.0,
    ratio: CorpusRatio = None,
    twin_runs: TwinRuns = 3,
    python: Annotated[
        list[str] | None,
        typer.Option(
            help=_with_default(
                "also replay with this interpreter (torch and symshrink installed; "
                "repeatable): one column per torch version",
                "this one only",
            )
        ),
    ] = None,
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="keep each entry's verdict as this torch's last replay in its case.json "
            "(at its own R and settings only): what triage says of a match",
        ),
    ] = False,
    via: Annotated[
        list[Via] | None,
        typer.Option(
            help=_with_default(
                "retrace: symshrink's retrace and its static twin; program: program.py, "
                "torch.compile dynamic against static in fresh processes (repeatable: "
                "both, one row each)",
                "retrace",
            )
        ),
    ] = None,
    own_width: Annotated[
        bool,
        typer.Option(
            "--own-width",
            help="replay each entry as it is, not at its clearly-slow width (corpus widen)",
        ),
    ] = False,
) -> None:
    """Judge every entry against its static twin under this torch and these settings, at the
    width where it was clearly slow (`corpus widen`): still slow (at R x the twin), fixed,
    slow for another cause, or error."""
    from symshrink import corpus as corpus_mod

    settings = _settings(torch_setting or [])
    where = corpus_mod.find_dir(corpus)
    ways = [v.value for v in via or [Via.retrace]]
    results = corpus_mod.replay(
        where,
        names=names or [],
        torch_settings=settings,
        timeout_s=timeout,
        ratio=ratio,
        twin_runs=twin_runs,
        record=record,
        via=ways,
        own_width=own_width,
    )
    records = [corpus_mod.replay_record(results, settings)]
    for interpreter in python or []:  # one after the other: no replay loads another's
        records.append(
            corpus_mod.replay_with(
                interpreter,
                where,
                names=[r.name for r in results],
                torch_settings=settings,
                timeout_s=timeout,
                ratio=ratio,
                twin_runs=twin_runs,
                via=ways,
                own_width=own_width,
            )
        )
    if json_output:
        typer.echo(json.dumps(records[0] if not python else records, indent=2))
    elif python:
        typer.echo(corpus_mod.versions_table(records), nl=False)
    else:
        typer.echo(corpus_mod.replay_table(results), nl=False)


@corpus_app.command("sweep")
def corpus_sweep(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="NAMES", help=_with_default("entries to sweep", "all"), show_default=False
        ),
    ] = None,
    corpus: CorpusDir = None,
    widths: Annotated[
        str | None,
        typer.Option(help=_with_default("sum widths to judge, e.g. 2,4,8", "1 to the entry's")),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    timeout: Annotated[float, typer.Option(help="seconds allowed per member")] = 600.0,
    ratio: CorpusRatio = None,
    twin_runs: TwinRuns = 3,
    record: Annotated[
        bool, typer.Option("--record/--no-record", help="write smallest_slow into case.json")
    ] = True,
) -> None:
    """Judge each entry at smaller widths, each against its own static twin: the fewest free
    symbols at which it is still slow."""
    from symshrink import corpus as corpus_mod
    from symshrink.widths import parse_widths

    results = corpus_mod.sweep(
        corpus_mod.find_dir(corpus),
        names=names or [],
        widths=parse_widths(widths) if widths else None,
        timeout_s=timeout,
        ratio=ratio,
        twin_runs=twin_runs,
        record=record,
    )
    if json_output:
        typer.echo(json.dumps([{**asdict(r), "smallest": r.smallest} for r in results], indent=2))
    else:
        typer.echo(corpus_mod.sweep_table(results), nl=False)


@corpus_app.command("widen")
def corpus_widen(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="NAMES", help=_with_default("entries to widen", "all"), show_default=False
        ),
    ] = None,
    corpus: CorpusDir = None,
    max_width: Annotated[
        int | None,
        typer.Option(help=_with_default("the widest member to try", "the entry's own + 16"), min=1),
    ] = None,
    factor: Annotated[
        float, typer.Option(help="clearly slow: at FACTOR x R x its twin or more", min=1.0)
    ] = 2.0,
    json_output: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    timeout: Annotated[float, typer.Option(help="seconds allowed per member")] = 600.0,
    ratio: CorpusRatio = None,
    twin_runs: TwinRuns = 3,
    record: Annotated[
        bool, typer.Option("--record/--no-record", help="write replay_width into case.json")
    ] = True,
) -> None:
    """Judge each entry's width family from its own width up, each member against its own
    static twin, until one is clearly slow: the width replay judges it at."""
    from symshrink import corpus as corpus_mod

    results = corpus_mod.widen(
        corpus_mod.find_dir(corpus),
        names=names or [],
        max_width=max_width,
        factor=factor,
        timeout_s=timeout,
        ratio=ratio,
        twin_runs=twin_runs,
        record=record,
    )
    if json_output:
        typer.echo(
            json.dumps([{**asdict(r), "width": r.width, "slow": r.slow} for r in results], indent=2)
        )
    else:
        typer.echo(corpus_mod.widen_table(results), nl=False)


@corpus_app.command("sympy-repro")
def corpus_sympy_repro(
    names: Annotated[
        list[str] | None,
        typer.Argument(metavar="NAMES", help=_with_default("entries", "all"), show_default=False),
    ] = None,
    corpus: CorpusDir = None,
    timeout: Annotated[float, typer.Option(help="hard cap on the capture and each run")] = 300.0,
    shrink: Annotated[
        bool, typer.Option("--shrink/--no-shrink", help="drop terms while still slow")
    ] = True,
) -> None:
    """Write each entry's sympy-only reproducer (sympy_repro.py): the sympy calls of its
    compile recorded in order, replayed by sympy alone, verified in fresh processes and
    shrunk; case.json records its seconds in the compile and alone, or why there is none."""
    from symshrink import corpus as corpus_mod

    for name, record in corpus_mod.sympy_repros(
        corpus_mod.find_dir(corpus), names=names or [], timeout_s=timeout, shrink=shrink
    ):
        if record.file is None:
            typer.echo(f"{name}: none ({record.why})")
        else:
            alone = ", ".join(f"{s:.3f}" for s in record.kept_replay_s or ())
            typer.echo(
                f"{name}: {record.file} ({record.kept} of {record.calls} calls, "
                f"{record.kept_s} s in the compile, {alone} s with sympy alone)"
            )


@app.command()
def program(
    repro: ReproPath,
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", help=_with_default("output script", "NAME.program.py")),
    ] = None,
    torch_setting: TorchSettings = None,
) -> None:
    """Write the repro as a short torch.compile program (public torch API, no symshrink) that
    compiles it with dynamic and with static shapes and prints both CPU times."""
    from symshrink.files import atomic_write
    from symshrink.program import program_path, render_program

    target = out or program_path(repro)
    if target.resolve() == repro.resolve():
        raise UsageError("the program would overwrite its own repro", target)
    model = parse_file(repro)
    text = render_program(
        model, repro.name.removesuffix(".py"), repro.name, _settings(torch_setting or [])
    )
    atomic_write(target, text)
    typer.echo(target)


@app.command(
    "sympy-repro",
    epilog="Exit codes: 0 a script written, 1 the record failed, 2 bad input or option, "
    "3 the replay did not verify (no script).",
)
def sympy_repro(
    repro: ReproPath,
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", help=_with_default("output script", "REPRO.sympy.py")),
    ] = None,
    timeout: Annotated[float, typer.Option(help="hard cap on the record and each run")] = 900.0,
    shrink: Annotated[
        bool, typer.Option("--shrink/--no-shrink", help="drop calls while still slow")
    ] = True,
    torch_setting: TorchSettings = None,
) -> None:
    """Write a pure-sympy script replaying the sympy calls of the repro's compile in order,
    when its replay takes at least half their time in the compile (3 of 3 fresh runs)."""
    from symshrink import sympy_repro as sr

    parse_file(repro)  # bad input is one line and exit 2 here, not a failed recording
    target = out or sr.script_path(repro)
    try:
        built = sr.build(
            repro,
            target,
            timeout=timeout,
            do_shrink=shrink,
            torch_settings=_settings(torch_setting or []),
        )
    except sr.RecordError as e:
        typer.echo(f"symshrink: error: {e}", err=True)
        raise typer.Exit(1) from None
    typer.echo(built.summary(), nl=False)
    if built.kept is None:
        raise typer.Exit(3)


@app.command(epilog="Exit codes: 0 compiled, 1 the retrace or compile failed, 2 bad input.")
def run(
    repro: ReproPath,
    mode: Annotated[
        RetraceMode,
        typer.Option(
            "--mode", help="preserved: SymInt relationships kept; independent: as run_repro does"
        ),
    ] = RetraceMode.preserved,
    json_output: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    no_native_compile: Annotated[
        bool,
        typer.Option("--no-native-compile", help="stop after Inductor's Python code generation"),
    ] = False,
    torch_setting: TorchSettings = None,
    device: Annotated[
        str | None,
        typer.Option(help=_with_default("run on this device", "as captured, CPU without CUDA")),
    ] = None,
    compare: Annotated[
        bool,
        typer.Option(
            "--compare",
            help="preserved, independent and the static twin side by side, each in a fresh "
            "child, with ratios (--mode is ignored)",
        ),
    ] = False,
) -> None:
    """Retrace and compile a repro with its SymInt relationships; time each phase."""
    from symshrink import retrace

    if compare:
        from symshrink import compare as comparing

        rows = comparing.compare(
            repro,
            no_native_compile=no_native_compile,
            torch_settings=_settings(torch_setting or []),
            device=device,
        )
        if json_output:
            data = [{"config": r.config, "cpu_s": r.cpu_s, **asdict(r.result)} for r in rows]
            typer.echo(json.dumps(data, indent=2))
        else:
            typer.echo(comparing.table(rows), nl=False)
        raise typer.Exit(1 if any(r.result.error for r in rows) else 0)
    try:
        result = retrace.retrace(
            repro,
            mode=mode.value,
            no_native_compile=no_native_compile,
            torch_settings=_settings(torch_setting or []),
            device=device,
        )
    except retrace.SettingError as e:
        raise typer.BadParameter(str(e), param_hint="--torch-setting") from None
    if json_output:
        typer.echo(result.to_json())
    else:
        typer.echo(result.table(), nl=False)
    if result.error:
        raise typer.Exit(1)


CAPTURE_EPILOG = (
    "Exit codes: 0 repros written (also when --timeout stopped the program); 1 none written"
    " (no torch.compile, no graph reached Inductor, every graph under --min-seconds) or a"
    " --check failed; 2 bad option; a program that failed: its own exit code (128 + N when"
    " signal N killed it)."
)


@app.command(epilog=CAPTURE_EPILOG, context_settings={"allow_interspersed_args": False})
def capture(
    program: Annotated[
        list[str],
        typer.Argument(
            metavar="PROGRAM",
            help="the command to run and its arguments, after --: -- python prog.py ARGS",
            show_default=False,
        ),
    ],
    out: Annotated[
        Path,
        typer.Option("-o", "--out", help="folder for the repros and capture.json"),
    ] = Path("symshrink-capture"),
    timeout: Annotated[
        float | None,
        typer.Option(
            help=_with_default(
                "stop the program once one compile has run this long, seconds", "none"
            ),
            callback=_positive,
        ),
    ] = None,
    min_seconds: Annotated[
        float,
        typer.Option(help="write only graphs that compiled at least this long, seconds", min=0.0),
    ] = 0.0,
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="retrace each written repro as `run --no-native-compile` does"
        ),
    ] = False,
) -> None:
    """Run a torch.compile program; write each compiled graph's after-aot repro (even for
    a compile stopped at --timeout) and say where the compile time went."""
    from symshrink import capturing

    outcome = capturing.capture(
        capturing.Options(
            program=tuple(program),
            out=out,
            timeout=timeout,
            min_seconds=min_seconds,
            check=check,
        ),
        notify=lambda line: typer.echo(f"symshrink: {line}", err=True),
    )
    typer.echo(outcome.text, nl=False)
    if outcome.message:
        typer.echo(f"symshrink: {outcome.message}", err=True)
    raise typer.Exit(outcome.exit_code)


TRIAGE_EPILOG = (
    "Exit codes: 0 issue.md and triage.json written: the result is new or matches a corpus"
    " entry (also when the budget cut the reduction short: 'not minimal yet'); 1 nothing to"
    " triage, one line says why (no graph with a free symbol, the time went to Dynamo and"
    " AOTAutograd outside any graph, not slow against its static twin, nothing compiled); 2"
    " bad input or a bad option (one line, before anything runs); 3 the program failed"
    " before a graph was captured; 130 interrupted by SIGINT, 143 by SIGTERM."
)


@app.command(epilog=TRIAGE_EPILOG, context_settings={"allow_interspersed_args": False})
def triage(
    target: Annotated[
        list[str],
        typer.Argument(
            metavar="(-- PROGRAM ARGS... | REPRO.py)",
            help="the program to run, after --, or an after-aot repro script",
            show_default=False,
        ),
    ],
    out: Annotated[
        Path,
        typer.Option("-o", "--out", help="folder for issue.md, triage.json and the run"),
    ] = Path("symshrink-triage"),
    budget: Annotated[
        str,
        typer.Option(
            help="wall time for everything, capture included (20m, 1h30m, 90s); when it "
            "runs out the best result so far is reported, not minimal yet"
        ),
    ] = "30m",
    json_output: Annotated[
        bool, typer.Option("--json", help="print triage.json's record on stdout")
    ] = False,
    add_to_corpus: Annotated[
        str | None,
        typer.Option(help=_with_default("add a new result to the corpus as NAME", "not added")),
    ] = None,
    corpus: CorpusDir = None,
    progress: Annotated[
        bool, typer.Option(help="show the reduction's progress lines (stages always show)")
    ] = True,
) -> None:
    """From a slow program (or a repro) to a paste-ready issue, within one time budget:
    capture, pick the graph, minimize, match against the corpus, report."""
    from symshrink import triaging

    program, repro = triaging.split_target(target)
    result = triaging.triage(
        triaging.Options(
            out=out,
            program=program,
            repro=repro,
            budget_s=triaging.parse_duration(budget),
            corpus=corpus,
            add_to_corpus=add_to_corpus,
            progress=progress,
        ),
        notify=lambda line: typer.echo(f"symshrink: triage: {line}", err=True),
    )
    if json_output:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    if result.exit_code == 0:
        if not json_output:
            typer.echo(out / triaging.ISSUE)
            typer.echo(out / result.FILE)
        typer.echo(f"symshrink: {result.why}", err=True)
    else:
        typer.echo(f"symshrink: {result.verdict}: {result.why}", err=True)
    raise typer.Exit(result.exit_code)


def main() -> None:
    """Entry point: bad input is one line on stderr and exit code 2, never a traceback.

    Click's usage errors (a missing argument, an option value of the wrong type, an
    unknown command) are one line too, naming the command and its --help. SIGINT and
    SIGTERM kill every child in flight and exit 130 / 143 (`interrupts`); a
    command that keeps a result when interrupted (minimize, triage, capture) says so first.
    """
    logging.basicConfig(level=logging.WARNING, format="symshrink: warning: %(message)s")
    try:
        with interrupts() as received:
            code = app(standalone_mode=False)  # typer: exit 130 for any KeyboardInterrupt
    except Interrupted:  # outside a command (typer's catch): `received` says which
        code = None
    except SymshrinkError as e:
        typer.echo(f"symshrink: error: {e}", err=True)
        sys.exit(2)
    except TyperException as e:  # click's usage errors (typer vendors click)
        if type(e).__name__ == "NoArgsIsHelpError":  # its message is the help (as typer checks)
            typer.echo(e.format_message(), err=True)
        else:
            ctx = getattr(e, "ctx", None)
            command = ctx.command_path if ctx is not None else "symshrink"
            message = " ".join(e.format_message().split())
            typer.echo(f"{command}: error: {message} (try '{command} --help')", err=True)
        sys.exit(2)
    except typer.Abort:  # click's, at an end of input
        typer.echo("symshrink: interrupted", err=True)
        sys.exit(130)
    if received:  # the command did not take the signal itself (minimize, capture do)
        typer.echo(f"symshrink: interrupted by {signal.Signals(received[0]).name}", err=True)
        sys.exit(128 + received[0])
    sys.exit(code if isinstance(code, int) else 0)
